/*
 * test_progress.c - what a lab shows while and after it runs: the progress
 * line on stderr (done / total, elapsed, the last results; silent with
 * --quiet; the same final count for any --jobs), and a text table that
 * fits 100 columns however long the puzzle paths and labels are.
 */
#include <sys/stat.h>

#include "support.h"

#include "lab.h"
#include "progress.h"

static const char *tmpdir; /* the group's directory (support.h) */

static int setup(void **state)
{
    if (test_dir_setup(state) != 0)
        return -1;
    tmpdir = ((struct test_dir *)*state)->dir;
    /* Three shipped boards under a long directory and long names. */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd %s && d=a-rather-long-directory-name/and-another-level && "
             "mkdir -p $d && for i in 1 2 3; do cp %s/games/samegame/standard/"
             "0$i.txt $d/a-standard-samegame-board-with-a-long-name-$i.txt; "
             "done && cp %s/games/samegame/standard/04.txt short.txt",
             tmpdir, PSOLVE_SOURCE_DIR, PSOLVE_SOURCE_DIR);
    return system(cmd) == 0 ? 0 : -1;
}

/* The shell command in tmpdir; its stdout into out, the exit status. */
static int sh(char *out, size_t len, const char *fmt, ...) PS_PRINTF(3, 4);
static int sh(char *out, size_t len, const char *fmt, ...)
{
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "cd %s && %s", tmpdir, args);
    return test_run_shell(cmd, out, len);
}

static void assert_lines_fit(const char *text, int width)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        /* A reason line ("  # file: error ...") is a message, not the table. */
        if (n > (size_t)width && strncmp(p, "  # ", 4) != 0)
            fail_msg("line %d is %zu columns wide:\n%.*s\nin:\n%s", line, n,
                     (int)n, p, text);
        p = nl ? nl + 1 : p + n;
    }
}

#define LAB_ARGS                                                              \
    "lab --algo greedy,nrpa:level=1:iterations=5,beam:beam-width=2 "          \
    "--max-nodes 3000 a-rather-long-directory-name/and-another-level short.txt"

static void test_text_table_fits_100_columns(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(sh(out, sizeof out, "%s --quiet " LAB_ARGS, PSOLVE_BIN),
                     0);
    assert_lines_fit(out, PS_LAB_TEXT_WIDTH);
    /* The rows are still there, told apart by the ends of their names. */
    assert_non_null(strstr(out, "...ong-name-3.txt nrpa:level=1:iterations=5 "));
    assert_non_null(strstr(out, "short.txt"));
    /* The counters left out are in the CSV. */
    assert_int_equal(sh(out, sizeof out, "%s --quiet --csv " LAB_ARGS,
                        PSOLVE_BIN),
                     0);
    assert_non_null(strstr(out, "generated,duplicates,pruned"));
    assert_non_null(strstr(out, "sum_expanded,median_expanded"));
    /* A cost-game lab with the shipped levels, two labels. */
    assert_int_equal(sh(out, sizeof out,
                        "%s --quiet --game watersort --algo "
                        "astar:h=lookahead,idastar:h=zero --max-nodes 500 "
                        "%s/games/watersort/levels",
                        PSOLVE_BIN, PSOLVE_SOURCE_DIR),
                     0);
    assert_lines_fit(out, PS_LAB_TEXT_WIDTH);
    assert_non_null(strstr(out, "# puzzles in "));
    assert_non_null(strstr(out, "\nfrozenfrank-115.txt "));
}

static void test_progress_on_stderr(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    for (int jobs = 1; jobs <= 2; jobs++) {
        assert_int_equal(sh(out, sizeof out, "%s --jobs %d " LAB_ARGS
                            " 2>&1 >/dev/null",
                            PSOLVE_BIN, jobs),
                         0);
        /* The final line: every puzzle, the elapsed time, a last result. */
        const char *final = strstr(out, "psolve: lab: 4/4 puzzles done, ");
        if (!final)
            fail_msg("no final progress line with --jobs %d:\n%s", jobs, out);
        assert_non_null(strstr(final, " s; last: "));
        /* the puzzle done last (with --jobs 2 either of the last two) and
         * its first result: a long name is cut to leave room for it */
        assert_non_null(strstr(final, ".txt greedy "));
        assert_lines_fit(out, PS_PROGRESS_WIDTH - 1);
    }
    assert_int_equal(sh(out, sizeof out, "%s --quiet " LAB_ARGS
                        " 2>&1 >/dev/null",
                        PSOLVE_BIN),
                     0);
    assert_string_equal(out, "");
}

/* The line itself: counts, then the last results, cut to fit. */
static void test_progress_format(void **unused)
{
    (void)unused;
    struct ps_progress p;
    FILE *sink = fopen("/dev/null", "w"); /* where the ticker may print */
    assert_non_null(sink);
    ps_progress_begin(&p, sink, "farm", 70, true);
    struct ps_lab_row rows[2];
    memset(rows, 0, sizeof rows);
    snprintf(rows[0].puzzle, sizeof rows[0].puzzle, "dir/level-7.txt");
    snprintf(rows[0].algo, sizeof rows[0].algo, "astar");
    rows[0].status = PS_OPTIMAL;
    rows[0].found = true;
    rows[0].value = 23;
    rows[1] = rows[0];
    snprintf(rows[1].algo, sizeof rows[1].algo, "idastar");
    rows[1].status = PS_INCOMPLETE;
    rows[1].found = false;
    ps_progress_puzzle(&p, rows, 2);
    char line[PS_PROGRESS_WIDTH];
    ps_progress_format(&p, line, sizeof line);
    assert_non_null(strstr(line, "psolve: farm: 1/70 puzzles done, "));
    assert_non_null(strstr(line, "; last: level-7.txt astar optimal 23, "
                                 "idastar incomplete"));
    /* A long name keeps its end, and leaves room for the results. */
    snprintf(rows[0].puzzle, sizeof rows[0].puzzle,
             "dir/a-standard-samegame-board-with-a-long-name-3.txt");
    ps_progress_puzzle(&p, rows, 1);
    ps_progress_format(&p, line, sizeof line);
    assert_non_null(
        strstr(line, "; last: ...ith-a-long-name-3.txt astar optimal 23"));
    for (int i = 0; i < 2; i++)
        snprintf(rows[i].algo, sizeof rows[i].algo,
                 "a-label-long-enough-to-need-cutting-%d", i);
    ps_progress_puzzle(&p, rows, 2);
    ps_progress_format(&p, line, sizeof line);
    assert_int_equal(strlen(line), PS_PROGRESS_WIDTH - 1);
    assert_string_equal(line + strlen(line) - 3, "...");
    ps_progress_end(&p);
    fclose(sink);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_table_fits_100_columns),
        cmocka_unit_test(test_progress_on_stderr),
        cmocka_unit_test(test_progress_format),
    };
    return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
