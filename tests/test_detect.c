/*
 * test_detect.c - psolve picks the game from the puzzle file when --game is
 * not given (the games' detect slots), and says which games it tried when
 * none matched; --help lists the games' move formats.
 */
#include "support.h"

#include <sys/stat.h>

static void test_game_from_file(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "--algo greedy " PSOLVE_SOURCE_DIR
                                 "/games/watersort/levels/frozenfrank-115.txt"),
                     0);
    assert_non_null(strstr(out, "# psolve: game watersort,"));
    test_write_file(dir, "tiles.txt", "1 2 3\n4 5 6\n7 0 8\n");
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "--algo astar tiles.txt"), 0);
    assert_non_null(strstr(out, "# psolve: game npuzzle,"));
    assert_non_null(strstr(out, "# cost: 1"));
    /* A directory: its first puzzle says which. */
    char sub[256];
    snprintf(sub, sizeof sub, "%s/tiles", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    test_write_file(dir, "tiles/a.txt", "1 2 3\n4 5 6\n7 0 8\n");
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "--algo bfs --csv tiles"), 0);
    assert_non_null(strstr(out, "tiles/a.txt,npuzzle,"));
    test_write_file(dir, "board.txt", "1122\n1221\n");
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "--algo greedy board.txt"), 0);
    assert_non_null(strstr(out, "# psolve: game samegame,"));
    /* --game still wins. */
    assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                 "--game samegame tiles.txt"), 1);
    assert_null(strstr(out, "no game's format matched"));
    test_write_file(dir, "what.txt", "hello world\n");
    assert_int_equal(test_psolve(dir, out, sizeof out, true, "what.txt"), 1);
    assert_non_null(strstr(out, "what.txt:1:1: error:"));
    assert_non_null(strstr(out, "no game's format matched what.txt (tried "
                                "watersort, npuzzle), so it was read as "
                                "samegame, the default: give --game NAME"));
}

static void test_help_lists_move_formats(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 15];
    assert_int_equal(test_psolve(dir, out, sizeof out, false, "--help"), 0);
    assert_non_null(strstr(out, "  samegame   'row col'"));
    assert_non_null(strstr(out, "  watersort  'from to'"));
    assert_non_null(strstr(out, "  npuzzle    the number of the tile"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_from_file),
        cmocka_unit_test(test_help_lists_move_formats),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
