/*
 * test_hostile_io.c - inputs that can be read only once (stdin, a pipe, a
 * FIFO) load without --game, a lab refuses a FIFO in its directory, a
 * directory is named as such, a FIFO under the name of a checkpoint, a
 * table or a plug-in is never waited on, and a full disk (/dev/full) on stdout,
 * --html or --trace-json is an error (issue 23, hostile findings 6 and 7).
 */
#include "support.h"

#define BOARD PSOLVE_SOURCE_DIR "/tests/data/hostile/board3x3.txt"
#define SAMEGAME PSOLVE_SOURCE_DIR "/games/samegame/examples/samegame-10x10.txt"

/* Run shell command `fmt` in `dir`, its one %s standing for the psolve
 * binary; its stdout and stderr go into out. Returns the exit status. */
static int run_sh(const char *dir, char *out, size_t outlen, const char *fmt)
{
    char cmd[8192], body[4096];
    snprintf(body, sizeof body, fmt, PSOLVE_BIN);
    snprintf(cmd, sizeof cmd, "cd %s && { %s ; } 2>&1", dir, body);
    return test_run_shell(cmd, out, outlen);
}

static void test_stdin_and_pipe_without_game(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    assert_int_equal(run_sh(dir, out, sizeof out, "%s - < " BOARD), 0);
    assert_non_null(strstr(out, "# status: optimal"));
    /* /dev/stdin of a pipe: a stream named by a path. */
    assert_int_equal(run_sh(dir, out, sizeof out,
                            "cat " BOARD " | %s /dev/stdin"), 0);
    assert_non_null(strstr(out, "# status: optimal"));
}

static void test_fifo_without_game(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    /* Before the fix the second open waited for a writer for ever: the
     * generous timeout (124) only keeps a regression from hanging ctest. */
    assert_int_equal(run_sh(dir, out, sizeof out,
                            "rm -f fifo && mkfifo fifo && "
                            "(timeout 60 cat " BOARD " > fifo 2>/dev/null &) && "
                            "timeout -s KILL 60 %s fifo"),
                     0);
    assert_non_null(strstr(out, "# status: optimal"));
}

static void test_lab_refuses_a_fifo(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    assert_int_equal(run_sh(dir, out, sizeof out,
                            "rm -rf lab && mkdir lab && cp " BOARD " lab/a.txt"
                            " && mkfifo lab/b.txt && timeout -s KILL 60 %s lab "
                            "--algo greedy lab"),
                     1);
    assert_non_null(strstr(out, "lab/b.txt: error: not a regular file"));
}

/* Files psolve reads whole that are never streams: a checkpoint, a cached
 * pattern database, a plug-in. A FIFO under such a name, with no writer,
 * is refused (or passed over) at once, never waited on (issue 32). */
static void test_fifo_where_a_file_is_read_whole(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    /* timeout's 124 would be the hang */
    int rc = run_sh(dir, out, sizeof out,
                    "rm -f ck.fifo && mkfifo ck.fifo && timeout 20 %s "
                    "--quiet --algo nrpa --resume ck.fifo " SAMEGAME);
    assert_int_not_equal(rc, 124);
    assert_non_null(strstr(out, "not a regular file"));
    rc = run_sh(dir, out, sizeof out,
                "rm -rf pp && mkdir pp && mkfifo pp/x.so && "
                "PSOLVE_PLUGIN_PATH=$PWD/pp timeout 20 %s --quiet " BOARD);
    assert_int_not_equal(rc, 124);
    assert_non_null(strstr(out, "not a regular file"));
}

static void test_directory_named_as_such(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    assert_int_equal(run_sh(dir, out, sizeof out,
                            "rm -rf empty && mkdir empty && %s show empty"), 1);
    assert_non_null(strstr(out, "empty: error: is a directory"));
    assert_int_equal(run_sh(dir, out, sizeof out,
                            "%s verify " BOARD " empty"), 1);
    assert_non_null(strstr(out, "empty: error: is a directory"));
}

static void expect_disk_full(const char *dir, const char *cmd,
                             const char *name)
{
    static char out[1 << 14];
    char want[256];
    assert_int_equal(run_sh(dir, out, sizeof out, cmd), 1);
    snprintf(want, sizeof want,
             "psolve: error: writing %s: No space left on device", name);
    if (!strstr(out, want))
        fail_msg("%s: no '%s' in:\n%s", cmd, want, out);
}

static void test_full_disk_is_an_error(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    expect_disk_full(dir, "%s " BOARD " >/dev/full", "stdout");
    /* More than a stdio buffer: the write fails mid-run, not at exit. */
    expect_disk_full(dir, "%s --json --algo greedy " SAMEGAME " >/dev/full",
                     "stdout");
    expect_disk_full(dir,
                     "%s --csv --algo greedy,beam " SAMEGAME " >/dev/full",
                     "stdout");
    expect_disk_full(dir, "%s --algo greedy --html /dev/full " SAMEGAME
                          " >/dev/null",
                     "/dev/full");
    expect_disk_full(dir, "%s --algo dfs --trace 1 --trace-json /dev/full "
                          BOARD " >/dev/null",
                     "/dev/full");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stdin_and_pipe_without_game),
        cmocka_unit_test(test_fifo_without_game),
        cmocka_unit_test(test_lab_refuses_a_fifo),
        cmocka_unit_test(test_fifo_where_a_file_is_read_whole),
        cmocka_unit_test(test_directory_named_as_such),
        cmocka_unit_test(test_full_disk_is_an_error),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
