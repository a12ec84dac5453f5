/*
 * test_counters.c - docs/counters.md and the counters list (search.h's
 * PS_STATS) agree: every counter a run reports has its row in the doc's
 * table, and every row of the table is a counter (or h_start, which is
 * the run's, not a counter).
 */
#include "support.h"

#include "search.h"

static char doc[1 << 17];

static void read_doc(void)
{
    FILE *f = fopen(PSOLVE_SOURCE_DIR "/docs/counters.md", "r");
    assert_non_null(f);
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    doc[n] = '\0';
    fclose(f);
}

static bool is_shown_counter(const char *name)
{
#define SHOWN(stat, type, where, d)                                            \
    if (((where) & PS_STAT_SHOWN) && strcmp(name, #stat) == 0)                 \
        return true;
    PS_STATS(SHOWN)
#undef SHOWN
    return false;
}

static void test_every_counter_is_documented(void **state)
{
    (void)state;
    read_doc();
    char want[80];
    int missing = 0;
#define DOCUMENTED(stat, type, where, d)                                       \
    snprintf(want, sizeof want, "\n| `%s` |", #stat);                          \
    if (((where) & PS_STAT_SHOWN) && !strstr(doc, want)) {                     \
        printf("docs/counters.md has no row for %s\n", #stat);                 \
        missing++;                                                             \
    }
    PS_STATS(DOCUMENTED)
#undef DOCUMENTED
    assert_int_equal(missing, 0);
}

static void test_every_row_is_a_counter(void **state)
{
    (void)state;
    read_doc();
    int stray = 0;
    for (const char *p = doc; (p = strstr(p, "\n| `"));) {
        p += 4;
        char name[64];
        if (sscanf(p, "%63[a-z_]`", name) != 1)
            continue;
        if (!is_shown_counter(name) && strcmp(name, "h_start") != 0 &&
            strstr(p, "` |") == p + strlen(name)) {
            printf("docs/counters.md row %s is no counter\n", name);
            stray++;
        }
    }
    assert_int_equal(stray, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_counter_is_documented),
        cmocka_unit_test(test_every_row_is_a_counter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
