/*
 * test_signals.c - SIGINT, SIGTERM and SIGHUP end a search the way Ctrl-C
 * does (the best line so far on stdout, verified, exit status 4), and a
 * second signal right after the first does not kill psolve with no output.
 * The signals are sent from the test once psolve's handlers are installed
 * (read from /proc, not guessed from a sleep); a hung run fails through
 * `timeout`, the only clock involved.
 */
#include "support.h"

#define BOARD PSOLVE_SOURCE_DIR "/games/samegame/examples/samegame-10x10.txt"

/* Start `args` in the background, wait until SIGHUP, SIGINT and SIGTERM are
 * caught (SigCgt bits 0x4003; at most 2000 looks), send `kill_cmd` ($p is
 * the pid), wait;
 * killed after 120 s if it hangs (tail --pid ends with psolve). */
#define RUN_AND_SIGNAL(args, kill_cmd)                                        \
    "(" PSOLVE_BIN " " args " & p=$!; "                                      \
    "(timeout 120 tail --pid=$p -f /dev/null || kill -KILL $p) & "           \
    "i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); "                          \
    "m=$(awk '/^SigCgt/ {print $2}' /proc/$p/status 2>/dev/null); "         \
    "[ -n \"$m\" ] || break; "                                              \
    "[ $((0x$m & 0x4003)) -eq $((0x4003)) ] && break; sleep 0.01; done; "    \
    kill_cmd "; wait $p)"

static void expect_best_line(const char *out, int rc)
{
    /* A verified best line was printed: exit 0, whatever stopped it. */
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "# status: incomplete"));
    assert_non_null(strstr(out, "# stopped: interrupted"));
    assert_non_null(strstr(out, "# verified: yes"));
    assert_non_null(strstr(out, "# score: "));
}

static void one_signal(const char *sig)
{
    static char out[1 << 16];
    char kill_cmd[64];
    snprintf(kill_cmd, sizeof kill_cmd, "kill -%s $p", sig);
    char args[256];
    snprintf(args, sizeof args, "--quiet --algo nrpa --time 300 %s", BOARD);
    char full[2048];
    snprintf(full, sizeof full,
             RUN_AND_SIGNAL("%s", "%s"), args, kill_cmd);
    int rc = test_psolve("/tmp", out, sizeof out, false, "--version >/dev/null; %s",
                         full);
    expect_best_line(out, rc);
}

static void test_sigint(void **unused)
{
    (void)unused;
    one_signal("INT");
}

static void test_sigterm(void **unused)
{
    (void)unused;
    one_signal("TERM");
}

static void test_sighup(void **unused)
{
    (void)unused;
    one_signal("HUP");
}

/* Two signals a millisecond apart (a double Ctrl-C; `timeout -s INT`
 * signals the child and its group): the handler stays installed (with
 * signal() it was reset after the first), the best line is printed and
 * the second is said on stderr. Several rounds, several algorithms. */
static void test_second_signal(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    const char *algos[] = {"dfs", "nrpa --time 300", "nmcs --level 5",
                           "beam --beam-width 100000"};
    for (int round = 0; round < 8; round++) {
        const char *a = algos[round % 4];
        char full[2048];
        snprintf(full, sizeof full,
                 RUN_AND_SIGNAL("--quiet --algo %s %s",
                                "kill -%s $p; sleep 0.001; kill -%s $p"),
                 a, BOARD, round & 1 ? "TERM" : "INT", "INT");
        int rc = test_psolve("/tmp", out, sizeof out, true,
                             "--version >/dev/null; %s", full);
        expect_best_line(out, rc);
    }
}

/* A lab stopped by SIGTERM prints the rows so far and its summary. */
static void test_lab_sigterm(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    char full[2048];
    snprintf(full, sizeof full,
             RUN_AND_SIGNAL("--algo idastar --quiet " PSOLVE_SOURCE_DIR
                            "/games/npuzzle/examples/15-56.txt "
                            PSOLVE_SOURCE_DIR
                            "/games/npuzzle/examples/15-44.txt%s",
                            "kill -TERM $p"),
             "");
    int rc = test_psolve("/tmp", out, sizeof out, false,
                         "--version >/dev/null; %s", full);
    assert_int_equal(rc, 5); /* a lab with rows missing */
    assert_non_null(strstr(out, "# summary per algorithm"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigint),
        cmocka_unit_test(test_sigterm),
        cmocka_unit_test(test_sighup),
        cmocka_unit_test(test_second_signal),
        cmocka_unit_test(test_lab_sigterm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
