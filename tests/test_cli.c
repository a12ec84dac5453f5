/*
 * test_cli.c - end to end through the built psolve binary: solve, then verify
 * the printed solution; bad input gives file:line:col and the documented exit
 * statuses.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

#include "cli.h"
#include "commands.h"
#include "textfile.h"

static char tmpdir[] = "/tmp/psolve_cli_XXXXXX";

static int run(char *out, size_t outlen, bool merge, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int st = test_psolve_v(tmpdir, out, outlen, merge, fmt, ap);
    va_end(ap);
    return st;
}

static void write_file(const char *name, const char *text)
{
    test_write_file(tmpdir, name, text);
}

static long long value_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        fail_msg("'%s' not in output:\n%s", key, text);
    return strtoll(p + strlen(key), NULL, 10);
}

static int setup(void **unused)
{
    (void)unused;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **unused)
{
    (void)unused;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_solve_then_verify(void **unused)
{
    (void)unused;
    static char out[1 << 16], ver[4096];
    assert_int_equal(run(out, sizeof out, false,
                         "gen --game samegame --rows 8 --cols 8 --colors 4 "
                         "--seed 3 > b.txt"),
                     0);
    assert_int_equal(run(out, sizeof out, false,
                         "--game samegame --algo greedy b.txt > s.txt"),
                     0);
    assert_int_equal(run(out, sizeof out, false, "--algo greedy b.txt"), 0);
    long long score = value_after(out, "# score: ");
    assert_non_null(strstr(out, "# status: heuristic"));
    assert_non_null(strstr(out, "# verified: yes"));
    assert_int_equal(run(ver, sizeof ver, false, "verify b.txt s.txt"), 0);
    assert_int_equal(value_after(ver, "score: "), score);
    assert_non_null(strstr(ver, "game_over: yes"));
    /* JSON carries the same score. */
    assert_int_equal(run(out, sizeof out, false, "--json --algo greedy b.txt"), 0);
    assert_int_equal(value_after(out, "\"score\":"), score);
}

/* --version names the version and the commit the build was made from
 * (cmake/commit.cmake): the checkout's HEAD, "-dirty" allowed, or
 * "unknown" outside a git checkout. */
static void test_version_names_the_commit(void **unused)
{
    (void)unused;
    static char out[512], head[128];
    assert_int_equal(run(out, sizeof out, false, "--version"), 0);
    const char *prefix = "psolve " PSOLVE_VERSION " (commit ";
    if (strncmp(out, prefix, strlen(prefix)) != 0)
        fail_msg("--version says '%s'", out);
    const char *commit = out + strlen(prefix);
    if (test_run_shell("git -C " PSOLVE_SOURCE_DIR
                       " rev-parse --short=12 HEAD 2>/dev/null",
                       head, sizeof head) != 0 || head[0] == '\0') {
        assert_true(strncmp(commit, "unknown)", 8) == 0);
        return;
    }
    head[strcspn(head, "\n")] = '\0';
    if (strncmp(commit, head, strlen(head)) != 0)
        fail_msg("--version says '%s', the checkout is at %s", out, head);
}

static void test_verify_rejects_illegal_move(void **unused)
{
    (void)unused;
    static char out[4096];
    write_file("v.txt", "12\n11\n");
    write_file("bad.txt", "# first move is fine\n1 0\n0 1\n");
    assert_int_equal(run(out, sizeof out, true, "verify v.txt bad.txt"), 1);
    assert_non_null(strstr(out, "bad.txt:3:1: error: move 2: cell (0, 1) is empty"));
}

/* verify --json lists the moves legal in the final position (psolve serve
 * offers them as buttons): "12/11" has one, the 1s' group (clicked at
 * 1 0), and none is left after it. */
static void test_verify_json_next_moves(void **unused)
{
    (void)unused;
    static char out[4096];
    write_file("n.txt", "12\n11\n");
    write_file("none.txt", "");
    assert_int_equal(run(out, sizeof out, false, "verify --json n.txt none.txt"), 0);
    assert_non_null(strstr(out, "\"next_moves\":[\"1 0\"]"));
    write_file("one.txt", "1 0\n");
    assert_int_equal(run(out, sizeof out, false, "verify --json n.txt one.txt"), 0);
    assert_non_null(strstr(out, "\"next_moves\":[]"));
}

static void test_bad_board_names_line_and_column(void **unused)
{
    (void)unused;
    static char out[4096];
    write_file("ragged.txt", "123\n12\n");
    assert_int_equal(run(out, sizeof out, true, "ragged.txt"), 1);
    assert_non_null(strstr(out, "ragged.txt:2:2: error: row has 2 cells"));
    write_file("unknown.txt", "123\n1?3\n");
    assert_int_equal(run(out, sizeof out, true, "unknown.txt"), 1);
    assert_non_null(strstr(out, "unknown.txt:2:2: error: unknown cell '?'"));
    assert_int_equal(run(out, sizeof out, true, "missing.txt"), 1);
    assert_non_null(strstr(out, "missing.txt: error: cannot open"));
    write_file("empty.txt", "");
    assert_int_equal(run(out, sizeof out, true, "empty.txt"), 1);
    assert_non_null(strstr(out, "no board rows"));
}

static void test_usage_errors(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out, false, "--help"), 0);
    assert_non_null(strstr(out, "Exit status"));
    assert_int_equal(run(out, sizeof out, true, "--algo nosuch b.txt"), 2);
    assert_non_null(strstr(out, "unknown algorithm 'nosuch'"));
    assert_int_equal(run(out, sizeof out, true, "--game nosuch b.txt"), 2);
    assert_int_equal(run(out, sizeof out, true, "--time abc b.txt"), 2);
    assert_int_equal(run(out, sizeof out, true, "--rules nosuch v.txt"), 1);
    assert_int_equal(run(out, sizeof out, true, "--bogus"), 2);
    assert_int_equal(run(out, sizeof out, true, "verify v.txt"), 2);
}

/* Issue 23 #9: options once taken silently. --json --csv printed JSON,
 * --threads 1000 ran 64 threads, w=-1 said "needs a value": each is now a
 * usage error (exit 2) naming the range. */
static void test_silent_options_refused(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    write_file("silent.txt", "12\n21\n");
    write_file("np.txt", "1 2 3\n4 5 6\n7 0 8\n");
    assert_int_equal(run(out, sizeof out, true, "--json --csv silent.txt"), 2);
    assert_non_null(strstr(out, "--json and --csv exclude each other"));
    assert_null(strstr(out, "{\""));
    assert_int_equal(run(out, sizeof out, true,
                         "--algo nmcs --threads 1000 silent.txt"), 2);
    assert_non_null(strstr(out, "--threads expects a whole number 0..64, "
                                "got '1000'"));
    assert_int_equal(run(out, sizeof out, true,
                         "--algo nmcs --threads 65 silent.txt"), 2);
    assert_int_equal(run(out, sizeof out, true,
                         "--algo nmcs --threads 64 --max-nodes 50 "
                         "silent.txt"), 0);
    assert_int_equal(run(out, sizeof out, true,
                         "--algo wastar:w=-1 np.txt"), 2);
    assert_non_null(strstr(out, "key 'w' expects a number 0..1e+09"));
    assert_null(strstr(out, "needs a value"));
    assert_int_equal(run(out, sizeof out, true, "--help"), 0);
    assert_non_null(strstr(out, "at most 64"));
}

/* Issue 32: outputs that would destroy inputs. --html board.txt board.txt
 * and --checkpoint board.txt replaced the puzzle, --checkpoint /dev/null
 * replaced the device with a file, and verify - - read the puzzle as its
 * own solution. Each is a usage error, and the puzzle is left as it was. */
static void test_outputs_never_overwrite_inputs(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    static const char board[] = "1122\n1122\n3344\n";
    write_file("o.txt", board);
    static const char *const bad[] = {
        "--html o.txt o.txt",
        "--algo nrpa --max-nodes 100 --checkpoint o.txt o.txt",
        "--algo nrpa --max-nodes 100 --best-file o.txt o.txt",
        "--trace 5 --trace-json o.txt o.txt",
        "--algo nrpa --max-nodes 100 --checkpoint /dev/null o.txt",
        "--html p.html --trace-json p.html o.txt",
        "verify - - < o.txt",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = run(out, sizeof out, true, "%s", bad[i]);
        if (st != 2)
            fail_msg("'%s' exited %d, not 2:\n%s", bad[i], st, out);
        char path[600];
        snprintf(path, sizeof path, "%s/o.txt", tmpdir);
        char *text = NULL;
        size_t len = 0;
        struct ps_error err;
        assert_true(ps_read_text_file(path, &text, &len, &err));
        if (strcmp(text, board) != 0)
            fail_msg("'%s' changed the puzzle", bad[i]);
        free(text);
    }
    /* resuming into the file it resumes from is how a long run goes on */
    assert_int_equal(run(out, sizeof out, true,
                         "--algo nrpa --max-nodes 200 --checkpoint c.ck o.txt"),
                     0);
    assert_int_equal(run(out, sizeof out, true,
                         "--algo nrpa --max-nodes 400 --resume c.ck "
                         "--checkpoint c.ck o.txt"),
                     0);
}

/* Issue 32: a CPU-time limit (ulimit -t) ended psolve with SIGKILL and no
 * result. psolve lowers the soft limit by a second, and the SIGXCPU that
 * then comes first stops the search like SIGTERM: the best line is printed
 * and verifies. */
static void test_cpu_limit_prints_the_best_line(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd %s && (ulimit -t 3; %s --algo nrpa --level 6 %s > x.txt"
             " 2>x.err); echo \"exit $?\"; grep -c . x.txt",
             tmpdir, PSOLVE_BIN,
             PSOLVE_SOURCE_DIR "/games/samegame/standard/01.txt");
    test_run_shell(cmd, out, sizeof out);
    /* A best line was printed: exit 0 (docs/cli.md, exit statuses). */
    if (!strstr(out, "exit 0"))
        fail_msg("not stopped by the limit as by a signal:\n%s", out);
    assert_int_equal(run(out, sizeof out, true,
                         "verify " PSOLVE_SOURCE_DIR
                         "/games/samegame/standard/01.txt x.txt"),
                     0);
    assert_non_null(strstr(out, "legal: yes"));
}

/* Issue 32: dfs's beam rounds ran without the clock, so --dfs-beam
 * 16777216 --time 1 took a minute. The round's beam now keeps the run's
 * clock. A generous bound: this checks that the limit holds, not speed. */
static void test_dfs_beam_keeps_the_time(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out, false,
                         "--algo dfs --dfs-beam 16777216 --time 0.5 "
                         "--max-memory 512 --json " PSOLVE_SOURCE_DIR
                         "/games/samegame/standard/01.txt"),
                     0); /* stopped, but a line printed */
    double seconds = strtod(strstr(out, "\"seconds\":") + 10, NULL);
    if (seconds > 10)
        fail_msg("took %.1f s under --time 0.5", seconds);
}

static void test_show_and_list(void **unused)
{
    (void)unused;
    static char out[8192];
    write_file("show.txt", "R.\nGB\n");
    assert_int_equal(run(out, sizeof out, false, "show show.txt"), 0);
    assert_string_equal(out, "1.\n23\n");
    assert_int_equal(run(out, sizeof out, false, "list"), 0);
    assert_non_null(strstr(out, "samegame"));
    assert_non_null(strstr(out, "greedy"));
}

/* bench with gen's size options benches that one size, one line. */
static void test_bench_one_size(void **unused)
{
    (void)unused;
    static char out[8192];
    assert_int_equal(run(out, sizeof out, false,
                         "bench --rows 6 --cols 7 --colors 3 --seconds 0.01"),
                     0);
    assert_non_null(strstr(out, "samegame rows=6 cols=7 colors=3: "));
    assert_null(strchr(strchr(out, '\n') + 1, '\n'));
}

static void test_node_limit_exit_status(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out, false,
                         "gen --rows 10 --cols 10 --seed 5 > n.txt"), 0);
    assert_int_equal(run(out, sizeof out, false,
                         "--max-nodes 4 --algo greedy n.txt > p.txt"), 0);
    /* Stopped by the limit with a verified line printed: exit 0, and the
     * status lines say why (docs/cli.md, exit statuses). */
    assert_int_equal(run(out, sizeof out, false, "--max-nodes 4 n.txt"), 0);
    /* ... and a cost game stopped before any solution: 4. */
    static char level[1 << 14];
    assert_int_equal(run(level, sizeof level, false,
                         "--game watersort --algo bfs --max-nodes 10 "
                         PSOLVE_SOURCE_DIR "/games/watersort/levels/frozenfrank-115.txt"),
                     4);
    assert_non_null(strstr(level, "# status: incomplete"));
    assert_non_null(strstr(out, "# status: incomplete"));
    assert_non_null(strstr(out, "# stopped: node limit"));
    assert_non_null(strstr(out, "# verified: yes"));
    /* The partial line still verifies: legal, game not over. */
    assert_int_equal(run(out, sizeof out, false, "verify n.txt p.txt"), 0);
    assert_non_null(strstr(out, "game_over: no"));
}

/* A board with no move is solved at once, under any --time: optimal, 0. */
static void test_board_without_move_is_optimal(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    write_file("one.txt", "1\n");
    assert_int_equal(run(out, sizeof out, false,
                         "--algo nmcs --time 600 one.txt"), 0);
    assert_non_null(strstr(out, "# status: optimal"));
}

/* The man page and the bash completion (manual.c) name every command and
 * every option of the command line's table, written from the tables. */
static void test_man_and_completion_list_everything(void **state)
{
    (void)state;
    static char man[1 << 17], comp[1 << 15];
    assert_int_equal(run(man, sizeof man, false, "help man"), 0);
    assert_int_equal(run(comp, sizeof comp, false, "help bash-completion"), 0);
    assert_non_null(strstr(man, ".TH PSOLVE 1"));
    assert_non_null(strstr(man, "Exit status: 0 a verified solution was printed"));
    for (const struct ps_command *k = ps_commands; k->name; k++) {
        char entry[64];
        snprintf(entry, sizeof entry, ".TP\n.B %s\n", k->name);
        char roffed[64];
        size_t j = 0;
        for (const char *c = entry; *c && j + 2 < sizeof roffed; c++) {
            if (*c == '-')
                roffed[j++] = '\\';
            roffed[j++] = *c;
        }
        roffed[j] = '\0';
        if (!strstr(man, roffed))
            fail_msg("the man page lacks command %s", k->name);
        if (!strstr(comp, k->name))
            fail_msg("the completion lacks command %s", k->name);
    }
    for (const struct ps_option *o = ps_cli_options; o->name; o++) {
        char word[128], roffed[96];
        snprintf(word, sizeof word, " --%s", o->name);
        if (!strstr(comp, word))
            fail_msg("the completion lacks option --%s", o->name);
        size_t j = 0;
        for (const char *c = o->name; *c && j + 2 < sizeof roffed; c++) {
            if (*c == '-')
                roffed[j++] = '\\';
            roffed[j++] = *c;
        }
        roffed[j] = '\0';
        snprintf(word, sizeof word, "\\-\\-%s", roffed);
        if (!strstr(man, word))
            fail_msg("the man page lacks option --%s", o->name);
    }
}

/* docs/cli.md's list of commands names every command of the table. */
static void test_cli_md_lists_every_command(void **state)
{
    (void)state;
    FILE *f = fopen(PSOLVE_SOURCE_DIR "/docs/cli.md", "r");
    assert_non_null(f);
    static char doc[1 << 17];
    doc[fread(doc, 1, sizeof doc - 1, f)] = '\0';
    fclose(f);
    char *end = strstr(doc + 3, "```\n\n"); /* the first block */
    assert_non_null(end);
    *end = '\0';
    for (const struct ps_command *k = ps_commands; k->name; k++) {
        char plain[64], optional[64];
        snprintf(plain, sizeof plain, "\npsolve %s ", k->name);
        snprintf(optional, sizeof optional, "\npsolve [%s] ", k->name);
        if (!strstr(doc, plain) && !strstr(doc, optional))
            fail_msg("docs/cli.md's list lacks command %s", k->name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_md_lists_every_command),
        cmocka_unit_test(test_man_and_completion_list_everything),
        cmocka_unit_test(test_solve_then_verify),
        cmocka_unit_test(test_version_names_the_commit),
        cmocka_unit_test(test_verify_rejects_illegal_move),
        cmocka_unit_test(test_verify_json_next_moves),
        cmocka_unit_test(test_bad_board_names_line_and_column),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_outputs_never_overwrite_inputs),
        cmocka_unit_test(test_cpu_limit_prints_the_best_line),
        cmocka_unit_test(test_dfs_beam_keeps_the_time),
        cmocka_unit_test(test_silent_options_refused),
        cmocka_unit_test(test_show_and_list),
        cmocka_unit_test(test_bench_one_size),
        cmocka_unit_test(test_node_limit_exit_status),
        cmocka_unit_test(test_board_without_move_is_optimal),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
