/*
 * test_lab.c - labs over many puzzles: the summary's arithmetic on made-up
 * rows, the agreement check, directories, and through the binary: the same
 * numbers for any --jobs, rows in input order, a bad puzzle named with its
 * line and column while the others still run.
 */
#include <sys/stat.h>

#include "support.h"

#include "lab.h"

static char tmpdir[] = "/tmp/psolve_lab_XXXXXX";

static int setup(void **unused)
{
    (void)unused;
    if (!mkdtemp(tmpdir))
        return -1;
    char path[600];
    snprintf(path, sizeof path, "%s/levels", tmpdir);
    return mkdir(path, 0700);
}

static int teardown(void **unused)
{
    (void)unused;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static int run(char *out, size_t outlen, bool merge, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int st = test_psolve_v(tmpdir, out, outlen, merge, fmt, ap);
    va_end(ap);
    return st;
}

static void make_setup(struct ps_lab_setup *setup, const char *const *algos,
                       int n)
{
    memset(setup, 0, sizeof *setup);
    setup->game = ps_game_find("npuzzle");
    assert_non_null(setup->game);
    setup->rules_name = "default";
    for (int i = 0; i < n; i++) {
        setup->algos[i] = ps_algorithm_find(algos[i]);
        assert_non_null(setup->algos[i]);
    }
    setup->nalgos = n;
}

static struct ps_lab_row made_row(const char *puzzle, const char *algo,
                                  enum ps_status st, ps_value value,
                                  uint64_t expanded, double seconds)
{
    struct ps_lab_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.puzzle, sizeof r.puzzle, "%s", puzzle);
    snprintf(r.game, sizeof r.game, "npuzzle");
    snprintf(r.rules, sizeof r.rules, "default");
    snprintf(r.algo, sizeof r.algo, "%s", algo);
    r.status = st;
    r.found = st == PS_OPTIMAL || st == PS_HEURISTIC;
    r.verified = r.found;
    r.value = value;
    r.len = (int)value;
    r.stats.expanded = expanded;
    r.stats.seconds = seconds;
    return r;
}

/* The summary in `format` (CSV: every number at full precision), into buf. */
static bool summary_in(enum ps_lab_format format,
                       const struct ps_lab_setup *setup,
                       const struct ps_lab_row *rows, int n, char *buf,
                       size_t len)
{
    struct ps_lab_layout lay;
    ps_lab_layout_init(&lay, format, setup->game, NULL, 0);
    FILE *f = fmemopen(buf, len, "w");
    assert_non_null(f);
    bool agree = ps_lab_print_summary(f, &lay, setup, rows, n);
    fclose(f);
    return agree;
}

static void test_summary_sums_medians_geometric_means(void **unused)
{
    (void)unused;
    const char *algos[] = {"astar", "idastar"};
    struct ps_lab_setup setup;
    make_setup(&setup, algos, 2);
    /* astar expands 1, 10, 100, 1000: median 55, geometric mean 31.6;
     * idastar is stopped on the last puzzle. */
    struct ps_lab_row rows[8] = {
        made_row("a", "astar", PS_OPTIMAL, 4, 1, 0.001),
        made_row("a", "idastar", PS_OPTIMAL, 4, 8, 0.002),
        made_row("b", "astar", PS_OPTIMAL, 6, 10, 0.010),
        made_row("b", "idastar", PS_OPTIMAL, 6, 80, 0.020),
        made_row("c", "astar", PS_OPTIMAL, 8, 100, 0.100),
        made_row("c", "idastar", PS_OPTIMAL, 8, 800, 0.200),
        made_row("d", "astar", PS_OPTIMAL, 10, 1000, 1.000),
        made_row("d", "idastar", PS_INCOMPLETE, 0, 5000, 2.000),
    };
    char buf[4096];
    assert_true(summary_in(PS_LAB_CSV, &setup, rows, 8, buf, sizeof buf));
    if (!strstr(buf, "\nastar,4,4,4,0,0,0,28,1111,55.0,31.6,1.111,0.0550,0.0316,"
                     "4,3\n"))
        fail_msg("astar summary wrong:\n%s", buf);
    if (!strstr(buf, "\nidastar,4,3,3,0,1,0,18,5888,440.0,224.9,2.222,0.1100,"
                     "0.0632,3,3\n"))
        fail_msg("idastar summary wrong:\n%s", buf);
}

static void test_summary_catches_disagreement(void **unused)
{
    (void)unused;
    const char *algos[] = {"astar", "bfs", "greedy"};
    struct ps_lab_setup setup;
    make_setup(&setup, algos, 3);
    struct ps_lab_row rows[6] = {
        made_row("a", "astar", PS_OPTIMAL, 4, 1, 0),
        made_row("a", "bfs", PS_OPTIMAL, 4, 8, 0),
        made_row("a", "greedy", PS_HEURISTIC, 6, 2, 0),
        made_row("b", "astar", PS_OPTIMAL, 6, 10, 0),
        made_row("b", "bfs", PS_OPTIMAL, 8, 80, 0),
        made_row("b", "greedy", PS_HEURISTIC, 6, 2, 0),
    };
    char buf[4096];
    /* A heuristic answer differing from the optimum is no disagreement. */
    assert_true(summary_in(PS_LAB_CSV, &setup, rows, 3, buf, sizeof buf));
    assert_false(summary_in(PS_LAB_CSV, &setup, rows, 6, buf, sizeof buf));
    assert_false(summary_in(PS_LAB_TEXT, &setup, rows, 6, buf, sizeof buf));
    assert_non_null(strstr(buf, "# ERROR: the exact algorithms disagree"));
    /* Each exact algorithm is confirmed on one puzzle of two. */
    assert_non_null(strstr(buf, " 1/2\n"));
}

/* Three 8-puzzles: the hardest first (31 moves), so that with several jobs
 * it finishes last, then two a few moves from the goal; a bad one, and a
 * non-puzzle. */
static void write_levels(void)
{
    test_write_file(tmpdir, "levels/p1.txt", "8 6 7\n2 5 4\n3 0 1\n");
    test_write_file(tmpdir, "levels/p2.txt", "1 2 3\n4 0 6\n7 5 8\n");
    test_write_file(tmpdir, "levels/p3.txt", "0 1 3\n4 2 6\n7 5 8\n");
    test_write_file(tmpdir, "levels/README.md", "not a puzzle\n");
    test_write_file(tmpdir, "bad.txt", "1 2 3\n4 5 x\n7 0 8\n");
}

static void test_collect_directory(void **unused)
{
    (void)unused;
    write_levels();
    char dir[600], lone[600];
    snprintf(dir, sizeof dir, "%s/levels", tmpdir);
    snprintf(lone, sizeof lone, "%s/bad.txt", tmpdir);
    const char *args[] = {lone, dir};
    char **paths;
    int n;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_lab_collect(args, 2, &paths, &n, &err));
    assert_int_equal(n, 4);
    assert_string_equal(paths[0], lone);
    for (int i = 1; i <= 3; i++) {
        char want[700];
        snprintf(want, sizeof want, "%s/p%d.txt", dir, i);
        assert_string_equal(paths[i], want);
    }
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    const char *empty[] = {tmpdir};
    snprintf(dir, sizeof dir, "%s/none", tmpdir);
    assert_int_equal(mkdir(dir, 0700), 0);
    empty[0] = dir;
    assert_false(ps_lab_collect(empty, 1, &paths, &n, &err));
    assert_non_null(strstr(err.msg, "no puzzle files"));
}

/* The lab's CSV with every field whose column name holds "seconds" (the
 * only numbers that may vary between runs) replaced by '*'. Each block's
 * header line names its columns. */
static void mask_seconds(const char *csv, char *out, size_t len)
{
    bool timed[64] = {false};
    size_t w = 0;
    bool header = true;
    for (const char *line = csv; *line && w + 1 < len;) {
        const char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        int field = 0;
        const char *f = line;
        for (;;) {
            const char *comma = memchr(f, ',', (size_t)(line + n - f));
            size_t flen = comma ? (size_t)(comma - f) : (size_t)(line + n - f);
            if (header && field < 64) {
                char name[64];
                snprintf(name, sizeof name, "%.*s", (int)flen, f);
                timed[field] = strstr(name, "seconds") != NULL;
            }
            bool mask = !header && field < 64 && timed[field];
            w += (size_t)snprintf(out + w, len - w, "%.*s%s", mask ? 1 : (int)flen,
                                  mask ? "*" : f, comma ? "," : "");
            if (!comma || w + 1 >= len)
                break;
            f = comma + 1;
            field++;
        }
        header = n == 0; /* a blank line: the next block's header follows */
        if (w + 1 < len)
            out[w++] = '\n';
        line += n + (eol != NULL);
    }
    out[w < len ? w : len - 1] = '\0';
}

static void test_same_numbers_for_any_jobs(void **unused)
{
    (void)unused;
    write_levels();
    static char one[1 << 16], three[1 << 16], text[1 << 16];
    static char masked1[1 << 16], masked3[1 << 16];
    const char *cmd = "--game npuzzle --algo bfs,astar,idastar,greedy --csv "
                      "--jobs %d levels";
    assert_int_equal(run(one, sizeof one, false, cmd, 1), 0);
    assert_int_equal(run(three, sizeof three, false, cmd, 3), 0);
    mask_seconds(one, masked1, sizeof masked1);
    mask_seconds(three, masked3, sizeof masked3);
    assert_string_equal(masked1, masked3);
    /* ... iterations, seconds, verified, then the proven lower bound: the
     * optimum (31 on p1) for the exact algorithms, none for greedy */
    assert_non_null(strstr(masked1, ",0,*,yes,31\n"));
    assert_non_null(strstr(masked1, ",0,*,yes,\n"));
    /* Input order: p1's rows, then p2's, then p3's. */
    char *p1 = strstr(one, "levels/p1.txt,npuzzle,default,bfs,optimal,,31,31,");
    char *p2 = strstr(one, "levels/p2.txt,npuzzle,default,bfs,optimal,,2,2,");
    char *p3 = strstr(one, "levels/p3.txt,npuzzle,default,bfs,optimal,,4,4,");
    assert_true(p1 && p2 && p3 && p1 < p2 && p2 < p3);
    assert_non_null(strstr(one, "\nastar,3,3,3,0,0,0,37,"));
    assert_int_equal(run(text, sizeof text, false,
                         "lab --game npuzzle --algo astar,idastar levels"), 0);
    assert_non_null(strstr(text, "# lab: 3 puzzles x 2 algorithms, game "
                                 "npuzzle, rules default\n"));
    assert_non_null(strstr(text, "# exact algorithms agree on all 3 puzzles"));
}

static void test_bad_puzzle_named_others_run(void **unused)
{
    (void)unused;
    write_levels();
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out, true,
                         "--game npuzzle --algo astar --jobs 2 levels/p1.txt "
                         "bad.txt levels/p2.txt"),
                     1);
    assert_non_null(strstr(out, "bad.txt:2:"));
    assert_non_null(strstr(out, "levels/p2.txt "));
    assert_non_null(strstr(out, "error"));
    /* JSON stays one valid object with the error in its row. */
    assert_int_equal(run(out, sizeof out, false,
                         "--game npuzzle --algo astar --json levels/p1.txt "
                         "bad.txt"),
                     1);
    assert_non_null(strstr(out, "\"status\":\"error\""));
    assert_non_null(strstr(out, "\"agree\":true,\"compared\":0}"));
    assert_int_equal(run(out, sizeof out, true,
                         "--game npuzzle --algo astar --jobs 0 levels"),
                     2);
    assert_int_equal(run(out, sizeof out, true,
                         "--game npuzzle --algo astar nowhere/"),
                     1);
}

/* Issue 32: a file name may hold a newline or an escape sequence. The
 * text table and --csv show them as C escapes (one row per run, nothing
 * sent to the terminal), --json as JSON escapes. */
static void test_control_bytes_in_names(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    char dir[600];
    snprintf(dir, sizeof dir, "%s/odd", tmpdir);
    assert_int_equal(mkdir(dir, 0700), 0);
    test_write_file(tmpdir, "odd/a\nb.txt", "8 6 7\n2 5 4\n3 0 1\n");
    test_write_file(tmpdir, "odd/e\033[31mred.txt", "1 2 3\n4 0 6\n7 5 8\n");
    static const char *const formats[] = {"", "--csv", "--json"};
    for (int f = 0; f < 3; f++) {
        assert_int_equal(run(out, sizeof out, false,
                             "--game npuzzle --algo astar %s odd", formats[f]),
                         0);
        if (strchr(out, '\033'))
            fail_msg("%s: a raw escape byte in:\n%s", formats[f], out);
        if (!strstr(out, f == 2 ? "a\\u000ab.txt" : "a\\nb.txt"))
            fail_msg("%s: the newline is not shown as \\n:\n%s", formats[f],
                     out);
        if (!strstr(out, f == 2 ? "\\u001b[31mred" : "\\x1b[31mred"))
            fail_msg("%s: the escape is not shown escaped:\n%s", formats[f],
                     out);
    }
    /* --trace-json in a lab: a usage error, which leaked the list of
     * puzzles (LeakSanitizer's exit status, under the sanitizer suite) */
    assert_int_equal(run(out, sizeof out, true,
                         "--game npuzzle --trace 5 --trace-json t.json odd"),
                     2);
    assert_non_null(strstr(out, "--trace-json is for one puzzle"));
}

/* Issue 32: --max-memory caps the process, so the puzzles a lab runs at
 * once share it: with --jobs 4 each run's peak stays within a quarter
 * (each had the whole cap, and --max-memory 50 --jobs 4 peaked at 160 MB).
 * Beams of width 200,000 narrow to fit what they are given. */
static void test_jobs_share_the_memory_limit(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    char dir[600];
    snprintf(dir, sizeof dir, "%s/mem", tmpdir);
    assert_int_equal(mkdir(dir, 0700), 0);
    for (int i = 1; i <= 4; i++)
        assert_int_equal(run(out, sizeof out, false,
                             "gen --rows 15 --cols 15 --colors 5 --seed %d "
                             "> mem/%d.txt",
                             i, i),
                         0);
    assert_int_equal(run(out, sizeof out, false,
                         "--algo beam --beam-width 200000 --max-memory 64 "
                         "--jobs 4 --json mem"),
                     0);
    int rows = 0;
    for (const char *p = out; (p = strstr(p, "\"peak_memory\":")); rows++) {
        p += strlen("\"peak_memory\":");
        unsigned long long peak = strtoull(p, NULL, 10);
        if (peak > (64ull << 20) / 4)
            fail_msg("a run peaked at %llu bytes, over a quarter of 64 MiB",
                     peak);
    }
    assert_int_equal(rows, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_sums_medians_geometric_means),
        cmocka_unit_test(test_summary_catches_disagreement),
        cmocka_unit_test(test_collect_directory),
        cmocka_unit_test(test_same_numbers_for_any_jobs),
        cmocka_unit_test(test_bad_puzzle_named_others_run),
        cmocka_unit_test(test_control_bytes_in_names),
        cmocka_unit_test(test_jobs_share_the_memory_limit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
