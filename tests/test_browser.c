/*
 * test_browser.c - the --html page in a real browser: headless Chromium
 * (registered by tests/CMakeLists.txt only when chromium is installed)
 * loads pages psolve wrote and this test reads back the DOM the page built.
 *   - no console message at all (an uncaught error is one);
 *   - the page says "ok" in its (hidden) status line;
 *   - replayed to the end (#step=end) it shows psolve's own final score or
 *     cost, for SameGame, Water Sort and the 8-puzzle, and after 3 moves the
 *     sum of their gains;
 *   - the board is drawn (the SVG cells / tubes / tiles), a plug-in without
 *     state_json as text, and a screenshot of it is a real image;
 *   - the step-through of a traced search runs to its last event, #play
 *     plays the replay, a lab page lists its rows.
 * Chromium runs with a virtual time budget, so a loaded machine makes it
 * slower but not different; each page load is bounded by `timeout`.
 */
#include "support.h"

#include <limits.h>

#include "json_check.h"

/* The group's temporary directory (support.h's fixture). */
static const char *dir;

/* Run a shell command; its stdout into out (NULL: dropped). Exit status. */
static int shell_out(char *out, size_t len, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char sink[4096];
    size_t n = out ? fread(out, 1, len - 1, p) : 0;
    if (out)
        out[n] = '\0';
    while (fread(sink, 1, sizeof sink, p) > 0)
        ;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The flags every load needs: root needs --no-sandbox; a profile of our
 * own; virtual time, so timers and layout finish whatever the load. */
#define CHROMIUM_FLAGS                                                         \
    "--headless --no-sandbox --disable-gpu --no-first-run "                    \
    "--disable-extensions --user-data-dir=%s/profile "                         \
    "--virtual-time-budget=5000"

/* Load page#fragment, dump the DOM into dom (static buffer); fail on any
 * console message. */
static const char *load_dom(const char *page, const char *fragment)
{
    static char dom[1 << 21];
    int rc = shell_out(dom, sizeof dom,
                       "timeout 90 %s " CHROMIUM_FLAGS " --enable-logging=stderr "
                       "--v=0 --dump-dom 'file://%s/%s#%s' 2>%s/console.txt",
                       PSOLVE_CHROMIUM, dir, dir, page, fragment, dir);
    assert_int_equal(rc, 0);
    char console[1 << 14];
    shell_out(console, sizeof console, "grep ':CONSOLE' %s/console.txt", dir);
    if (console[0])
        fail_msg("%s#%s: console messages:\n%s", page, fragment, console);
    /* The status line is in the DOM (hidden unless it reports an error). */
    const char *status = strstr(dom, "<div id=\"status\"");
    if (!status)
        fail_msg("%s: no status line in the DOM", page);
    const char *text = strchr(status, '>') + 1;
    if (strncmp(text, "ok<", 3) != 0)
        fail_msg("%s#%s: page status '%.200s'", page, fragment, text);
    return dom;
}

/* The text of the element with this id in the dumped DOM. */
static long long dom_number(const char *dom, const char *id)
{
    char pat[64];
    snprintf(pat, sizeof pat, "id=\"%s\">", id);
    const char *p = strstr(dom, pat);
    if (!p)
        fail_msg("no element #%s", id);
    return strtoll(p + strlen(pat), NULL, 10);
}

/* psolve ARGS --json --html dir/page: the value psolve reports. */
static long long solve_with_page(const char *page, const char *key,
                                 const char *args)
{
    char out[1 << 16];
    int rc = shell_out(out, sizeof out, "cd %s && %s %s --json --quiet --html %s/%s",
                       PSOLVE_SOURCE_DIR, PSOLVE_BIN, args, dir, page);
    assert_int_equal(rc, 0);
    long long v = json_number(out, key, LLONG_MIN);
    assert_true(v != LLONG_MIN);
    return v;
}

static int setup(void **state)
{
    if (test_dir_setup(state) != 0)
        return -1;
    dir = ((struct test_dir *)*state)->dir;
    return 0;
}

/* SameGame: the replay ends at psolve's score; three moves in, the score
 * shown is the sum of the three gains psolve printed. */
static void test_samegame_replay(void **state)
{
    (void)state;
    long long score = solve_with_page(
        "samegame.html", "score",
        "--algo beam --beam-width 30 --threads 1 "
        "games/samegame/examples/samegame-10x10.txt");
    const char *dom = load_dom("samegame.html", "step=end");
    assert_int_equal(dom_number(dom, "shown-value"), score);
    assert_int_equal(dom_number(dom, "final-value"), score);
    /* The board: 100 cells drawn. */
    const char *grid = strstr(dom, "class=\"grid\"");
    assert_non_null(grid);
    int cells = 0;
    for (const char *p = grid; (p = strstr(p, "<rect")) && p < strstr(grid, "</svg>"); p++)
        cells++;
    assert_int_equal(cells, 100);

    char sol[1 << 14];
    assert_int_equal(shell_out(sol, sizeof sol,
                               "cd %s && %s --algo beam --beam-width 30 --threads 1 "
                               "--quiet games/samegame/examples/samegame-10x10.txt",
                               PSOLVE_SOURCE_DIR, PSOLVE_BIN), 0);
    long long three = 0;
    const char *p = sol;
    for (int k = 0; k < 3; k++) {
        p = strstr(p, "# gain ");
        assert_non_null(p);
        three += strtoll(p + 7, NULL, 10);
        p++;
    }
    dom = load_dom("samegame.html", "step=3");
    assert_int_equal(dom_number(dom, "shown-value"), three);
    assert_int_equal(dom_number(dom, "step"), 3);
    /* Play: a move every 0.4 s of the browser's virtual 5 s (the budget
     * starts before the page runs, so a few less). */
    dom = load_dom("samegame.html", "play");
    long long step = dom_number(dom, "step");
    if (step < 5 || step > 13)
        fail_msg("played to move %lld in 5 s", step);
}

/* Cost games: Water Sort tubes and 8-puzzle tiles, replayed to psolve's
 * cost; the step-through of a traced A* runs to its end. */
static void test_cost_games(void **state)
{
    (void)state;
    long long cost = solve_with_page(
        "watersort.html", "cost",
        "--game watersort --algo astar games/watersort/levels/frozenfrank-115.txt");
    const char *dom = load_dom("watersort.html", "step=end");
    assert_int_equal(dom_number(dom, "shown-value"), cost);
    assert_non_null(strstr(dom, "class=\"tubes\""));

    test_write_file(dir, "eight.txt", "8 1 3\n4 0 2\n7 6 5\n");
    char args[512];
    snprintf(args, sizeof args, "--game npuzzle --algo bfs,astar --trace 40 %s/eight.txt",
             dir);
    char out[1 << 16];
    assert_int_equal(shell_out(out, sizeof out,
                               "%s %s --json --quiet --html %s/eight.html 2>/dev/null",
                               PSOLVE_BIN, args, dir), 0);
    assert_int_equal(json_number(out, "cost", -1), 14);
    dom = load_dom("eight.html", "step=end");
    assert_int_equal(dom_number(dom, "shown-value"), 14);
    dom = load_dom("eight.html", "trace=end");
    assert_non_null(strstr(dom, "class=\"tree\""));
    assert_non_null(strstr(dom, "class=\"node-closed\""));
    assert_non_null(strstr(dom, "id=\"t-text\">bfs: ") ||
                    strstr(dom, "id=\"t-text\">astar: "));
}

/* A plug-in without state_json is replayed as print_state's text; verify
 * writes the same page for a solution file. */
static void test_plugin_text_and_verify(void **state)
{
    (void)state;
    char out[1 << 16];
    assert_int_equal(shell_out(out, sizeof out,
                               "cd %s && %s --plugin %s/plugin_sound.so --game "
                               "lightsout --algo astar --quiet "
                               "examples/plugin/corners.txt > %s/lights.sol && "
                               "%s verify --plugin %s/plugin_sound.so --game "
                               "lightsout --html %s/lights.html --quiet "
                               "examples/plugin/corners.txt %s/lights.sol",
                               PSOLVE_SOURCE_DIR, PSOLVE_BIN, PSOLVE_TEST_PLUGIN_DIR,
                               dir, PSOLVE_BIN, PSOLVE_TEST_PLUGIN_DIR, dir, dir),
                     0);
    assert_non_null(strstr(out, "cost: 5"));
    const char *dom = load_dom("lights.html", "step=end");
    assert_int_equal(dom_number(dom, "shown-value"), 5);
    assert_non_null(strstr(dom, "<pre class=\"board\">"));
}

/* A lab page: the bars per algorithm and a row per puzzle x algorithm. */
static void test_lab_page(void **state)
{
    (void)state;
    assert_int_equal(shell_out(NULL, 0,
                               "cd %s && %s lab --game watersort --algo astar,greedy "
                               "--quiet --html %s/lab.html "
                               "games/watersort/levels/frozenfrank-115.txt "
                               "games/watersort/levels/frozenfrank-116.txt",
                               PSOLVE_SOURCE_DIR, PSOLVE_BIN, dir), 0);
    const char *dom = load_dom("lab.html", "");
    const char *table = strstr(dom, "<div id=\"lab-table\">");
    assert_non_null(table);
    int rows = 0;
    for (const char *p = table; (p = strstr(p, "<td>games/watersort/levels/")); p++)
        rows++;
    assert_int_equal(rows, 4);
    assert_non_null(strstr(dom, "class=\"bars\""));
}

/* The screenshot shows the page: a PNG of the window's size, far larger than
 * a blank page's. */
static void test_screenshot(void **state)
{
    (void)state;
    solve_with_page("shot.html", "score",
                    "--algo greedy games/samegame/examples/samegame-10x10.txt");
    assert_int_equal(shell_out(NULL, 0,
                               "timeout 90 %s " CHROMIUM_FLAGS
                               " --hide-scrollbars --window-size=1000,1200 "
                               "--screenshot=%s/shot.png 'file://%s/shot.html#step=5' "
                               ">/dev/null 2>&1",
                               PSOLVE_CHROMIUM, dir, dir, dir), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/shot.png", dir);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char head[24];
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    assert_memory_equal(head, "\x89PNG\r\n\x1a\n", 8);
    unsigned w = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
    unsigned h = (unsigned)head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
    assert_int_equal(w, 1000);
    assert_int_equal(h, 1200);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    assert_true(size > 20000); /* a blank page of this size is about 6 KB */
}

/* `test_browser NAME` runs the one test NAME: tests/CMakeLists.txt
 * registers each as its own ctest entry, so each stays short on a loaded
 * machine. */
int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samegame_replay),
        cmocka_unit_test(test_cost_games),
        cmocka_unit_test(test_plugin_text_and_verify),
        cmocka_unit_test(test_lab_page),
        cmocka_unit_test(test_screenshot),
    };
    if (argc > 1) {
        /* A name that matches no test would pass by running nothing. */
        bool known = false;
        for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
            known |= strcmp(tests[i].name, argv[1]) == 0;
        if (!known) {
            fprintf(stderr, "test_browser: no test '%s'\n", argv[1]);
            return 1;
        }
        cmocka_set_test_filter(argv[1]);
    }
    return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
