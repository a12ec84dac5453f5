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
    /* Every registered game with a detect slot was tried, in the
     * registry's order. */
    char want[512];
    int k = snprintf(want, sizeof want, "no game's format matched what.txt "
                                        "(tried ");
    const char *sep = "";
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        if ((*g)->detect) {
            k += snprintf(want + k, sizeof want - (size_t)k, "%s%s", sep,
                          (*g)->name);
            sep = ", ";
        }
    snprintf(want + k, sizeof want - (size_t)k, "), so it was read as "
             "samegame, the default: give --game NAME");
    assert_non_null(strstr(out, want));
}

static void test_help_lists_move_formats(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 15];
    assert_int_equal(test_psolve(dir, out, sizeof out, false, "--help"), 0);
    /* Every registered game's move format. */
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        char want[256];
        snprintf(want, sizeof want, "  %-10s %s", (*g)->name,
                 (*g)->move_help ? (*g)->move_help : "");
        if ((*g)->move_help)
            assert_non_null(strstr(out, want));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_from_file),
        cmocka_unit_test(test_help_lists_move_formats),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
