/*
 * test_records.c - the records file (docs/records.md): every line in
 * games/samegame/standard/best/NN.txt is replayed by `psolve verify` against
 * its position, and the score verify computes must be the one the file's
 * header claims. A record also says how it was found (command, commit,
 * threads, seconds), so anyone can run it again.
 */
#include "support.h"

#include <dirent.h>
#include <unistd.h>

#define STANDARD PSOLVE_SOURCE_DIR "/games/samegame/standard"
#define BEST STANDARD "/best"

/* The value of "KEY: N" in `text` at the start of a line, after `prefix`
 * ("# " for a header line, "" for verify's own lines); -1 when absent. */
static long long value_of(const char *text, const char *prefix,
                          const char *key)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\n%s%s: ", prefix, key);
    const char *at = strstr(text, needle);
    return at ? strtoll(at + strlen(needle), NULL, 10) : -1;
}

static bool has_line(const char *text, const char *key)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\n# %s: ", key);
    return strstr(text, needle) != NULL;
}

static char *read_all(FILE *fp)
{
    size_t cap = 1 << 16, len = 1; /* text[0] = '\n': every line follows one */
    char *text = malloc(cap);
    assert_non_null(text);
    text[0] = '\n';
    size_t n;
    while ((n = fread(text + len, 1, cap - len - 1, fp)) > 0) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            text = realloc(text, cap);
            assert_non_null(text);
        }
    }
    text[len] = '\0';
    return text;
}

/* Does the record dir/name replay to the score its header claims? Its
 * replayed score in *score; why not in why. */
static bool record_holds(const char *dir, const char *name, long long *score,
                         char *why, size_t why_size)
{
    char path[600], cmd[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char *record = read_all(fp);
    fclose(fp);
    long long claimed = value_of(record, "# ", "score");
    bool complete = claimed >= 0 && has_line(record, "command") &&
                    has_line(record, "commit") && has_line(record, "threads") &&
                    has_line(record, "seconds");
    free(record);
    if (!complete) {
        snprintf(why, why_size, "%s: a record needs # score, command, "
                 "commit, threads and seconds lines", name);
        return false;
    }
    snprintf(cmd, sizeof cmd, "'%s' verify '%s/%s' '%s' 2>&1", PSOLVE_BIN,
             STANDARD, name, path);
    FILE *out = popen(cmd, "r");
    assert_non_null(out);
    char *said = read_all(out);
    int status = pclose(out);
    *score = value_of(said, "", "score");
    bool holds = status == 0 && strstr(said, "\nlegal: yes") &&
                 *score == claimed;
    if (!holds)
        snprintf(why, why_size, "%s: verify says (exit %d):%.300s\nthe record "
                 "claims %lld", name, status, said, claimed);
    free(said);
    return holds;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_every_record_replays_to_its_score(void **state)
{
    (void)state;
    DIR *d = opendir(BEST);
    assert_non_null(d);
    char *names[64];
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0) {
            assert_true(n < 64);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    /* One record per standard position, 01..20, no stray file. */
    assert_int_equal(n, 20);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        char want[16];
        snprintf(want, sizeof want, "%02d.txt", i + 1);
        assert_string_equal(names[i], want);
        long long score;
        char why[600];
        if (!record_holds(BEST, names[i], &score, why, sizeof why))
            fail_msg("%s", why);
        total += score;
        free(names[i]);
    }
    printf("records total: %lld\n", total);
}

/* The check sees a lie: a copy of record 01 whose header claims one point
 * more than its line scores does not hold. */
static void test_a_forged_score_is_seen(void **state)
{
    (void)state;
    char dir[] = "/tmp/psolve-records-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[1600];
    snprintf(cmd, sizeof cmd,
             "awk '/^# score: /{print \"# score: \" $3+1; next} {print}' "
             "'%s/01.txt' > '%s/01.txt'",
             BEST, dir);
    assert_int_equal(system(cmd), 0);
    long long score;
    char why[600];
    assert_false(record_holds(dir, "01.txt", &score, why, sizeof why));
    assert_true(record_holds(BEST, "01.txt", &score, why, sizeof why));
    snprintf(cmd, sizeof cmd, "%s/01.txt", dir);
    unlink(cmd);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_record_replays_to_its_score),
        cmocka_unit_test(test_a_forged_score_is_seen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
