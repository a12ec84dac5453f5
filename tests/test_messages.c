/*
 * test_messages.c - the messages a careless user meets, through the built
 * psolve binary: "did you mean" for a mistyped command or help topic,
 * directories and devices named as such, a puzzle of another game's
 * format, a solution made for another board, gen's tubes and colours, and
 * the Lua games in psolve list.
 */
#include <unistd.h>

#include "support.h"

static const char *tmpdir; /* the group's directory (support.h) */

/* psolve with stderr merged into out; the exit status. */
static int run(char *out, size_t outlen, const char *fmt, ...)
    PS_PRINTF(3, 4);
static int run(char *out, size_t outlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int st = test_psolve_v(tmpdir, out, outlen, true, fmt, ap);
    va_end(ap);
    return st;
}

#define HAS(out, needle)                                                      \
    do {                                                                      \
        if (!strstr(out, needle))                                             \
            fail_msg("'%s' not in:\n%s", needle, out);                        \
    } while (0)

static int setup(void **state)
{
    int rc = test_dir_setup(state);
    if (rc == 0)
        tmpdir = ((struct test_dir *)*state)->dir;
    return rc;
}

static void test_mistyped_command(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out, "verfy a.txt b.txt"), 2);
    HAS(out, "unknown command 'verfy' (did you mean verify?)");
    /* One message, not a lab of missing files. */
    assert_null(strstr(out, "# lab"));
    assert_int_equal(run(out, sizeof out, "lsit"), 2);
    HAS(out, "did you mean list?");
    assert_int_equal(run(out, sizeof out, "help astr"), 2);
    HAS(out, "'astr' is no algorithm or command (did you mean astar?)");
    assert_int_equal(run(out, sizeof out, "help verfy"), 2);
    HAS(out, "(did you mean verify?)");
    assert_int_equal(run(out, sizeof out, "help lab"), 0);
    HAS(out, "usage: psolve [lab] [options] FILE|DIR...");
    HAS(out, "\nExamples:\n  psolve lab ");
    /* A file that exists with a command-like name is a puzzle. */
    test_write_file(tmpdir, "shw", "12\n12\n");
    assert_int_equal(run(out, sizeof out, "--quiet shw"), 0);
}

static void test_directories_and_devices(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out, "show %s/games/samegame",
                         PSOLVE_SOURCE_DIR), 1);
    HAS(out, "games/samegame: error: is a directory");
    assert_int_equal(run(out, sizeof out,
                         "verify %s/games/samegame/standard/01.txt %s/games",
                         PSOLVE_SOURCE_DIR, PSOLVE_SOURCE_DIR), 1);
    HAS(out, "/games: error: is a directory");
    assert_int_equal(run(out, sizeof out, "show /dev/zero"), 1);
    HAS(out, "/dev/zero: error: is a character device, not a text file");
    assert_int_equal(run(out, sizeof out, "--game watersort show /dev/null"),
                     1);
    HAS(out, "/dev/null: error: is a character device");
}

static void test_wrong_game_hint(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(
        run(out, sizeof out,
            "--game samegame show "
            "%s/games/watersort/levels/frozenfrank-463.txt",
            PSOLVE_SOURCE_DIR),
        1);
    HAS(out, "is not in game samegame's format but reads as game "
             "watersort: give --game watersort");
    /* samegame has no format check (it is the default): found by loading. */
    assert_int_equal(run(out, sizeof out,
                         "--game npuzzle show "
                         "%s/games/samegame/standard/01.txt",
                         PSOLVE_SOURCE_DIR),
                     1);
    HAS(out, "reads as game samegame: give --game samegame");
}

static void test_solution_for_another_board(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out,
                         "--quiet %s/games/samegame/standard/01.txt > s.txt",
                         PSOLVE_SOURCE_DIR), 0);
    assert_int_equal(run(out, sizeof out,
                         "verify %s/games/samegame/standard/02.txt s.txt",
                         PSOLVE_SOURCE_DIR), 1);
    HAS(out, "hint: the first illegal move is move 1; was this solution made "
             "for another board? It says it was solved for ");
    HAS(out, "games/samegame/standard/01.txt.");
    /* A Water Sort solution replayed on a SameGame board names the game. */
    assert_int_equal(
        run(out, sizeof out,
            "--quiet --game watersort --algo greedy "
            "%s/games/watersort/levels/frozenfrank-463.txt > w.txt",
            PSOLVE_SOURCE_DIR),
        0);
    assert_int_equal(run(out, sizeof out,
                         "verify %s/games/samegame/standard/02.txt w.txt",
                         PSOLVE_SOURCE_DIR), 1);
    HAS(out, "It says it was solved as game watersort (give --game "
             "watersort)");
}

static void test_gen_tubes_mentions_colors(void **unused)
{
    (void)unused;
    static char out[4096];
    assert_int_equal(run(out, sizeof out, "gen --game watersort --tubes 7"),
                     2);
    HAS(out, "give --tubes 12 or more, or fewer --colors");
}

static void test_list_shows_lua_games(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    assert_int_equal(run(out, sizeof out, "list"), 0);
    HAS(out, "games written in Lua");
    HAS(out, "/games/lua\n");
    HAS(out, "hanoi.lua        hanoi: Towers of Hanoi");
    HAS(out, "puzzles: hanoi-4.txt");
    HAS(out, "river.lua        river: ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mistyped_command),
        cmocka_unit_test(test_directories_and_devices),
        cmocka_unit_test(test_wrong_game_hint),
        cmocka_unit_test(test_solution_for_another_board),
        cmocka_unit_test(test_gen_tubes_mentions_colors),
        cmocka_unit_test(test_list_shows_lua_games),
    };
    return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
