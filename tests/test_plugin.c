/*
 * test_plugin.c - games built outside the tree (docs/plugins.md): psolve is
 * installed to a temporary prefix, the example plug-in (examples/plugin/) is
 * built against it with its own CMakeLists.txt and pkg-config, loaded with
 * --plugin and solved to its optimum; the installed and a copied psolve find
 * rule scripts from their own place, never from the build tree; and each
 * broken plug-in (tests/plugins/lightsout_variants.c) is a clear error.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

static char out[1 << 16];

/* Run a shell command line (stderr merged into stdout) into `out`; return
 * its exit status. */
static int shell(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static void expect_output(const char *needle)
{
    if (!strstr(out, needle))
        fail_msg("'%s' not in the output:\n%s", needle, out);
}

#define EXAMPLE PSOLVE_SOURCE_DIR "/examples/plugin"

/* The user's path: install, build the example against the installed
 * pkg-config file, load it, solve to the optimum, verify. */
static void test_example_builds_against_the_install(void **state)
{
    const char *tmpdir = ((struct test_dir *)*state)->dir;
    if (shell("%s --install %s --prefix %s/usr", PSOLVE_CMAKE,
              PSOLVE_BINARY_DIR, tmpdir) != 0)
        fail_msg("cmake --install failed:\n%s", out);
    /* Only the installed headers and pkg-config file: not the source tree. */
    if (shell("export PKG_CONFIG_PATH=%s/usr/%s/pkgconfig && "
              "%s -S %s -B %s/example -DCMAKE_BUILD_TYPE=Release >/dev/null && "
              "%s --build %s/example",
              tmpdir, PSOLVE_INSTALL_LIBDIR, PSOLVE_CMAKE, EXAMPLE, tmpdir,
              PSOLVE_CMAKE, tmpdir) != 0)
        fail_msg("the example did not build:\n%s", out);
    assert_int_equal(shell("%s/usr/bin/psolve --plugin %s/example/lightsout.so "
                           "--game lightsout --algo bfs,astar,idastar,dfs --csv "
                           "%s/corners.txt",
                           tmpdir, tmpdir, EXAMPLE),
                     0);
    /* Every exact algorithm proves the optimum, 5 presses. */
    expect_output("bfs,optimal,5,5,");
    expect_output("astar,optimal,5,5,");
    expect_output("idastar,optimal,5,5,");
    expect_output("dfs,optimal,5,5,");
    assert_int_equal(shell("cd %s && usr/bin/psolve --plugin "
                           "example/lightsout.so --game lightsout --algo astar "
                           "%s/corners.txt > sol.txt && usr/bin/psolve verify "
                           "--plugin example/lightsout.so --game lightsout "
                           "%s/corners.txt sol.txt",
                           tmpdir, EXAMPLE, EXAMPLE),
                     0);
    expect_output("cost: 5");
    /* $PSOLVE_PLUGIN_PATH: a directory of plug-ins. */
    assert_int_equal(shell("PSOLVE_PLUGIN_PATH=%s/example %s/usr/bin/psolve list",
                           tmpdir, tmpdir),
                     0);
    expect_output("lightsout    Lights Out");
    /* The pkg-config file says which API version the headers are. */
    assert_int_equal(shell("PKG_CONFIG_PATH=%s/usr/%s/pkgconfig pkg-config "
                           "--variable=api_version psolve",
                           tmpdir, PSOLVE_INSTALL_LIBDIR),
                     0);
    char want[16];
    snprintf(want, sizeof want, "%d\n", PS_API_VERSION);
    assert_string_equal(out, want);
}

/* Installed or copied, psolve finds rule scripts from its own place. */
static void test_rules_found_from_the_install(void **state)
{
    const char *tmpdir = ((struct test_dir *)*state)->dir;
    assert_int_equal(shell("%s --install %s --prefix %s/usr >/dev/null && "
                           "env -u PSOLVE_RULES_PATH %s/usr/bin/psolve list",
                           PSOLVE_CMAKE, PSOLVE_BINARY_DIR, tmpdir, tmpdir),
                     0);
    char dir[600];
    snprintf(dir, sizeof dir, "  %s/usr/share/psolve/rules\n", tmpdir);
    expect_output(dir);
    expect_output("--rules popstar");
    if (strstr(out, PSOLVE_SOURCE_DIR "/scripts/rules"))
        fail_msg("the installed psolve reads the source tree's scripts:\n%s",
                 out);
    /* A copy without its share/ knows only the built-in presets. */
    assert_int_equal(shell("mkdir -p %s/copy && cp %s/usr/bin/psolve %s/copy/ "
                           "&& env -u PSOLVE_RULES_PATH %s/copy/psolve list",
                           tmpdir, tmpdir, tmpdir, tmpdir),
                     0);
    expect_output("/share/psolve/rules (missing)");
    if (strstr(out, PSOLVE_SOURCE_DIR "/scripts/rules"))
        fail_msg("a copied psolve reads the source tree's scripts:\n%s", out);
    /* samegame-noshift is a script only, with no built-in preset. */
    assert_int_equal(shell("printf '1122\\n1122\\n' > %s/b.txt && "
                           "env -u PSOLVE_RULES_PATH %s/usr/bin/psolve "
                           "--rules samegame-noshift %s/b.txt",
                           tmpdir, tmpdir, tmpdir),
                     0);
    expect_output("# verified: yes");
    assert_int_equal(shell("env -u PSOLVE_RULES_PATH %s/copy/psolve "
                           "--rules samegame-noshift %s/b.txt",
                           tmpdir, tmpdir),
                     1);
    expect_output("no rules 'samegame-noshift': no samegame-noshift.lua in ");
}

/* psolve --plugin VARIANT.so ARGS: exit status `want`, output holds needle. */
static void expect_plugin(const char *tmpdir, const char *variant,
                          const char *args, int want, const char *needle)
{
    int got = shell("cd %s && printf '*.\\n.*\\n' > p.txt && %s --plugin "
                    "%s/plugin_%s.so %s",
                    tmpdir, PSOLVE_BIN, PSOLVE_TEST_PLUGIN_DIR, variant, args);
    if (got != want)
        fail_msg("plugin_%s: exit %d, expected %d:\n%s", variant, got, want, out);
    expect_output(needle);
}

static void test_broken_plugins_are_clear_errors(void **state)
{
    const char *tmpdir = ((struct test_dir *)*state)->dir;
    /* The sound one also proves that psolve exports every helper. */
    expect_plugin(tmpdir, "sound", "--game lightsout --algo bfs p.txt", 0, "# cost: 2");
    expect_plugin(tmpdir, "no_hash", "--game lightsout p.txt", 1,
                  "plugin_no_hash.so: error: game lightsout: required slot "
                  "'hash' is NULL");
    expect_plugin(tmpdir, "preset_without_apply",
                  "--game lightsout --rules builtin:broken p.txt", 1,
                  "game lightsout: preset 'broken' has no apply");
    char wrong[128];
    snprintf(wrong, sizeof wrong,
             "plug-in built for psolve API version %d, but this psolve has "
             "API version %d",
             PS_API_VERSION + 1000, PS_API_VERSION);
    expect_plugin(tmpdir, "wrong_version", "--game lightsout p.txt", 1, wrong);
    /* A plug-in built for the previous struct (its slots in another order)
     * is refused, never read. */
    snprintf(wrong, sizeof wrong,
             "plug-in built for psolve API version %d, but this psolve has "
             "API version %d",
             PS_API_VERSION - 1, PS_API_VERSION);
    expect_plugin(tmpdir, "previous_version", "--game lightsout p.txt", 1,
                  wrong);
    /* A plug-in's knowledge reaches the driver through its guarded copy:
     * its solvable slot ends the run before any search. */
    expect_plugin(tmpdir, "unsolvable", "--game lightsout --algo bfs p.txt", 3,
                  "# status: unsolvable");
    expect_output("the variant says no press can solve it");
    expect_output("expanded: 0");
    expect_plugin(tmpdir, "no_symbol", "--game lightsout p.txt", 1,
                  "not a psolve plug-in: no symbol 'psolve_plugin'");
    expect_plugin(tmpdir, "name_clash", "list", 1, "game samegame is already known");
    assert_int_equal(shell("cd %s && %s --plugin p.txt list", tmpdir,
                           PSOLVE_BIN),
                     1);
    expect_output("p.txt: error: cannot load the plug-in: ./p.txt: ");
    assert_int_equal(shell("cd %s && %s --plugin nosuch.so list", tmpdir,
                           PSOLVE_BIN),
                     1);
    expect_output("nosuch.so: error: cannot load the plug-in");
    assert_int_equal(shell("PSOLVE_PLUGIN_PATH=%s/plugin_no_hash.so %s list",
                           PSOLVE_TEST_PLUGIN_DIR, PSOLVE_BIN),
                     1);
    expect_output("required slot 'hash' is NULL");
}

/* The contract at run time (issue 23, hostile #5): what a plug-in's slots
 * return is checked, and a breach is an error naming the file and the slot,
 * exit 1, never a crash, a heap overflow or a silent wrong answer. */
static void test_plugin_answers_are_checked(void **state)
{
    const char *tmpdir = ((struct test_dir *)*state)->dir;
    expect_plugin(tmpdir, "symbol_is_data", "--game lightsout p.txt", 1,
                  "plugin_symbol_is_data.so: error: not a psolve plug-in: "
                  "'psolve_plugin' is not a function");
    expect_plugin(tmpdir, "null_game", "list", 1,
                  "plugin_null_game.so: error: no game (a NULL ps_game)");
    expect_plugin(tmpdir, "load_silent", "--game lightsout p.txt", 1,
                  "p.txt: error: game lightsout (plug-in ");
    expect_output("plugin_load_silent.so): slot 'load' failed without a "
                  "message");
    expect_plugin(tmpdir, "state_zero", "--game lightsout --algo bfs p.txt", 1,
                  "plugin_state_zero.so: error: game lightsout: slot "
                  "'state_size' returned 0 (must be 1..16777216 bytes)");
    expect_plugin(tmpdir, "state_huge", "--game lightsout p.txt", 1,
                  "slot 'state_size' returned 18446744073709551615");
    expect_plugin(tmpdir, "max_moves_negative", "--game lightsout p.txt", 1,
                  "plugin_max_moves_negative.so: error: game lightsout: slot "
                  "'max_moves' returned -5 (must be 1..16777216)");
    expect_plugin(tmpdir, "max_depth_negative", "--game lightsout p.txt", 1,
                  "slot 'max_depth' returned -5");
    /* Found in the middle of a search, by every kind of algorithm. */
    static const char *const algos[] = {"bfs", "astar", "idastar", "dfs",
                                        "greedy", "wastar"};
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
        char args[128];
        snprintf(args, sizeof args, "--game lightsout --algo %s p.txt",
                 algos[i]);
        expect_plugin(tmpdir, "max_moves_lie", args, 1,
                      "plugin_max_moves_lie.so: error: game lightsout: slot "
                      "'moves' returned 4 moves, but max_moves is 1");
        if (strstr(out, "optimal"))
            fail_msg("%s: a broken plug-in's answer reported:\n%s", algos[i],
                     out);
        expect_plugin(tmpdir, "moves_negative", args, 1,
                      "slot 'moves' returned -3 moves, but max_moves is 4");
        /* issue 32: a negative cost ran until killed, 2^62 overflowed */
        expect_plugin(tmpdir, "cost_negative", args, 1,
                      "slot 'apply' returned -1, outside 0..2^48 (a cost)");
        expect_plugin(tmpdir, "cost_huge", args, 1,
                      "slot 'apply' returned 4611686018427387904, outside");
        if (strcmp(algos[i], "bfs") != 0 && strcmp(algos[i], "dfs") != 0)
            expect_plugin(tmpdir, "heuristic_huge", args, 1,
                          "slot 'heuristic' returned 4611686018427387904");
    }
    /* dfs alone reads child_floors (API 10) */
    expect_plugin(tmpdir, "floors_huge", "--game lightsout --algo dfs p.txt",
                  1, "slot 'child_floors' returned 4611686018427387904");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_builds_against_the_install),
        cmocka_unit_test(test_rules_found_from_the_install),
        cmocka_unit_test(test_broken_plugins_are_clear_errors),
        cmocka_unit_test(test_plugin_answers_are_checked),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
