/*
 * test_html.c - the --html page writer (framework/report/html.c): one
 * self-contained file (no address, no external script, style, font or
 * image), whose data block is well-formed JSON holding every move of each
 * run, a frame per position ending at the run's value, the anytime points
 * and the trace. The browser test (test_browser.c) loads such pages.
 */
#include "support.h"

#include "html.h"
#include "replay.h"
#include "json_check.h"
#include "search.h"

static const char samegame6[] =
    "331322\n134143\n343111\n433331\n443412\n143144\n";

struct page {
    char *html;
    size_t len;
    char *data; /* the JSON of the psolve-data element (malloc'd) */
};

static const char data_open[] = "<script id=\"psolve-data\" type=\"application/json\">";

static void page_split(struct page *p)
{
    const char *at = strstr(p->html, data_open);
    assert_non_null(at);
    at += strlen(data_open);
    const char *end = strstr(at, "</script>");
    assert_non_null(end);
    p->data = strndup(at, (size_t)(end - at));
    assert_non_null(p->data);
    if (!json_is_valid(p->data, strlen(p->data)))
        fail_msg("the data block is not JSON: %.300s", p->data);
}

/* Nothing the page could fetch: no address, no external resource. */
static void assert_self_contained(const char *html)
{
    static const char *const banned[] = {"http", "src=", "<link", "@import",
                                         "url(", "//cdn", NULL};
    for (int i = 0; banned[i]; i++)
        if (strstr(html, banned[i]))
            fail_msg("the page contains '%s'", banned[i]);
    assert_null(strstr(html, "/*PSOLVE-DATA*/")); /* the data replaced it */
    assert_memory_equal(html, "<!DOCTYPE html>", 15);
}

/* Solve the board with each algorithm, capturing as main.c does. */
static void solve_runs(const struct ps_game *g, const void *inst,
                       const char *const *algos, int n, int trace,
                       struct ps_run *runs, struct ps_html_capture *caps)
{
    for (int i = 0; i < n; i++) {
        struct ps_options opt;
        ps_options_default(&opt);
        opt.threads = 1;
        opt.trace = trace;
        test_option_int(&opt, "beam-width", 8);
        test_option_int(&opt, "rollouts", 3);
        struct ps_search s;
        ps_search_init(&s, g, inst, NULL, &opt);
        s.trace.out = NULL; /* the page's copy only */
        ps_html_capture_begin(&caps[i], &s);
        enum ps_status st = ps_search_run(&s, ps_algorithm_find(algos[i]));
        ps_html_capture_end(&caps[i], &s);
        ps_run_capture(&runs[i], &s, st);
        assert_true(runs[i].verified);
        ps_search_free(&s);
    }
}

static void write_page(const struct ps_html_report *rep, struct page *p)
{
    FILE *f = open_memstream(&p->html, &p->len);
    assert_non_null(f);
    ps_html_write(f, rep);
    fclose(f);
    assert_self_contained(p->html);
    page_split(p);
}

/* The moves of a run, in order, as the data's "text" fields. */
static void assert_moves(const char *data, const struct ps_game *g,
                         const void *inst, const struct ps_run *r)
{
    unsigned char *cur = test_initial(g, inst), *next = test_initial(g, inst);
    char key[64];
    snprintf(key, sizeof key, "{\"algo\":\"%s\"", r->algo);
    const char *p = strstr(data, key);
    assert_non_null(p);
    for (int k = 0; k < r->len; k++) {
        char text[64], field[96];
        g->format_move(inst, cur, r->moves[k], text, sizeof text);
        snprintf(field, sizeof field, "{\"text\":\"%s\",\"gain\":", text);
        p = strstr(p, field);
        if (!p)
            fail_msg("move %d (%s) of %s is not in the page", k + 1, text, r->algo);
        g->apply(inst, cur, r->moves[k], next);
        memcpy(cur, next, g->state_size(inst));
    }
    /* One frame per position, the last showing the run's value. */
    const char *frames = strstr(p, "\"frames\":[");
    assert_non_null(frames);
    const char *end = strstr(frames, "{\"algo\":\""); /* the next run */
    int count = 0;
    const char *last = NULL;
    for (const char *q = frames; (q = strstr(q, "{\"value\":")) && (!end || q < end);
         q++) {
        count++;
        last = q;
    }
    assert_int_equal(count, r->len + 1);
    assert_int_equal(json_number(last, "value", -1), r->value);
    free(cur);
    free(next);
}

static void test_solve_page(void **state)
{
    (void)state;
    const struct ps_game *g = ps_game_find("samegame");
    void *rules = test_rules(g, NULL);
    void *inst = test_load(g, rules, samegame6);
    static const char *const algos[] = {"greedy", "beam", "nrpa"};
    struct ps_run runs[3];
    struct ps_html_capture caps[3];
    solve_runs(g, inst, algos, 3, 10, runs, caps);
    struct ps_html_report rep = {.command = "solve", .game = g, .inst = inst,
                                 .puzzle = "board<1>.txt", .runs = runs,
                                 .captures = caps, .nruns = 3};
    struct page p;
    write_page(&rep, &p);
    assert_non_null(strstr(p.data, "\"command\":\"solve\",\"game\":\"samegame\""));
    assert_non_null(strstr(p.data, "\"objective\":\"score\""));
    char line[PS_WINNER_LINE], want[PS_WINNER_LINE + 16];
    ps_winner_line(line, sizeof line, true, runs, 3);
    snprintf(want, sizeof want, "\"winner\":\"%s\"", line);
    assert_non_null(strstr(p.data, want));
    assert_non_null(strstr(line, "best: "));
    for (int i = 0; i < 3; i++)
        assert_moves(p.data, g, inst, &runs[i]);
    /* SameGame is drawn from its state_json: colours, the group highlighted. */
    assert_non_null(strstr(p.data, "\"state\":{\"kind\":\"grid\",\"rows\":6,\"cols\":6,"
                                   "\"style\":\"colours\",\"cells\":[3,3,1,3,2,2,"));
    assert_non_null(strstr(p.data, "\"highlight\":["));
    /* The anytime points and the traces came along. */
    assert_non_null(strstr(p.data, "\"anytime\":[["));
    assert_non_null(strstr(p.data, "\"trace\":[{\"event\":\"begin\",\"algo\":\"greedy\""));
    assert_non_null(strstr(p.data, "{\"event\":\"depth\",\"algo\":\"beam\""));
    free(p.html);
    free(p.data);
    for (int i = 0; i < 3; i++) {
        ps_html_capture_free(&caps[i]);
        ps_run_free(&runs[i]);
    }
    test_release(g, inst, NULL, rules);
}

static const char *winner(bool maximise, const struct ps_run *runs, int n)
{
    static char line[PS_WINNER_LINE];
    ps_winner_line(line, sizeof line, maximise, runs, n);
    return line;
}

/* The line saying which run won: score games, cost games, ties, not
 * proved, not found, unsolvable. */
static void test_winner_line(void **state)
{
    (void)state;
    struct ps_run r[4];
    memset(r, 0, sizeof r);
    r[0] = (struct ps_run){.algo = "greedy", .status = PS_HEURISTIC, .found = true,
                           .verified = true, .value = 52, .len = 28};
    r[1] = (struct ps_run){.algo = "beam", .status = PS_HEURISTIC, .found = true,
                           .verified = true, .value = 1100, .len = 26};
    r[2] = (struct ps_run){.algo = "nrpa", .status = PS_INCOMPLETE, .found = true,
                           .verified = true, .value = 1234, .len = 27,
                           .stop = PS_STOP_TIME};
    assert_string_equal(winner(true, r, 3), "best: nrpa, 1,234 points, not proved "
                                            "optimal (beam 1,100, greedy 52)");
    r[1].value = 1234;
    r[1].status = PS_OPTIMAL;
    assert_string_equal(winner(true, r, 3),
                        "best: beam and nrpa tie, 1,234 points, optimal (greedy 52)");
    /* Cost games: the fewest. */
    assert_string_equal(winner(false, r, 3),
                        "best: greedy, cost 52, not proved optimal (beam 1,234, "
                        "nrpa 1,234)");
    r[0].len = 52;
    r[0].status = PS_OPTIMAL;
    r[3] = (struct ps_run){.algo = "idastar", .status = PS_INCOMPLETE,
                           .stop = PS_STOP_TIME};
    assert_string_equal(winner(false, r, 4), "best: greedy, 52 moves, optimal "
                                             "(beam 1,234, nrpa 1,234, idastar none)");
    r[0].verified = false;
    assert_non_null(strstr(winner(false, r, 4), ", optimal, NOT VERIFIED ("));
    assert_string_equal(winner(false, &r[3], 1),
                        "best: none, no run found a solution (idastar: time limit)");
    r[2] = (struct ps_run){.algo = "bfs", .status = PS_UNSOLVABLE};
    r[1] = r[3];
    assert_string_equal(winner(false, &r[1], 3),
                        "best: none, the puzzle has no solution (proved by bfs)");
    /* Big numbers, negative ones. */
    r[0] = (struct ps_run){.algo = "a", .status = PS_HEURISTIC, .found = true,
                           .verified = true, .value = -1234567};
    assert_string_equal(winner(true, r, 1),
                        "best: a, -1,234,567 points, not proved optimal");
    r[0].value = INT64_MIN;
    assert_string_equal(winner(true, r, 1),
                        "best: a, -9,223,372,036,854,775,808 points, not proved "
                        "optimal");
}

/* The time column of a table as "T": "1155 ms" and "2.35 s" become "T ms"
 * and "T s"; every other cell stays. */
static void mask_times(char *text)
{
    char *w = text;
    for (const char *r = text; *r;) {
        const char *q = r;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q > r && *q == '.')
            for (q++; *q >= '0' && *q <= '9'; q++)
                ;
        bool unit = q > r && (strncmp(q, " ms", 3) == 0 || strncmp(q, " s", 2) == 0);
        const char *after = q + (unit && q[1] == 'm' ? 3 : 2);
        if (unit && (*after == ' ' || *after == '\n' || *after == '\0') &&
            (r == text || r[-1] == ' ')) {
            *w++ = 'T'; /* and no unit: a slower run may print s, not ms */
            r = after;
        } else if (*r == ' ' && w > text && w[-1] == ' ') {
            r++; /* a longer time widens its column: spaces squeezed */
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

/* scripts/demo.sh's table is the same on every run, so on every machine:
 * its budgets are counts (beam width, NRPA nodes, one thread), not
 * seconds; only the time column differs. It says which run won. */
static void test_demo_table(void **state)
{
    (void)state;
    static char first[1 << 14], second[1 << 14];
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "PSOLVE=%s %s/scripts/demo.sh --table 2>&1",
             PSOLVE_BIN, PSOLVE_SOURCE_DIR);
    assert_int_equal(test_run_shell(cmd, first, sizeof first), 0);
    assert_int_equal(test_run_shell(cmd, second, sizeof second), 0);
    assert_non_null(strstr(first, "\nnrpa "));
    assert_non_null(strstr(first, "\n# best: "));
    mask_times(first);
    mask_times(second);
    assert_string_equal(first, second);
    /* The mask takes the times only. */
    char t[] = "nrpa  485.1 KB  1155 ms node limit\nbeam 2.35 s -\n";
    mask_times(t);
    assert_string_equal(t, "nrpa 485.1 KB T node limit\nbeam T -\n");
}

/* A game without state_json (a C plug-in) is replayed as its text; cost
 * games say "cost". */
static void test_text_fallback(void **state)
{
    (void)state;
    struct ps_game plain = *ps_game_find("npuzzle");
    plain.state_json = NULL;
    void *rules = test_rules(&plain, NULL);
    void *inst = test_load(&plain, rules, "1 2 3\n0 4 6\n7 5 8\n");
    static const char *const algos[] = {"astar"};
    struct ps_run run;
    struct ps_html_capture cap;
    solve_runs(&plain, inst, algos, 1, 0, &run, &cap);
    struct ps_html_report rep = {.command = "solve", .game = &plain,
                                 .inst = inst, .puzzle = "p.txt", .runs = &run,
                                 .captures = &cap, .nruns = 1};
    struct page p;
    write_page(&rep, &p);
    assert_non_null(strstr(p.data, "\"objective\":\"cost\""));
    assert_non_null(strstr(p.data, "{\"value\":0,\"state\":{\"text\":\" 1 2 3\\n . 4 6\\n 7 5 8\\n\"}}"));
    assert_moves(p.data, &plain, inst, &run);
    assert_null(strstr(p.data, "\"trace\"")); /* not traced */
    assert_null(strstr(p.data, "\"layers\"")); /* no --layers */
    free(p.html);
    free(p.data);
    ps_html_capture_free(&cap);
    ps_run_free(&run);
    test_release(&plain, inst, NULL, rules);
}

/* With --layers the page carries each run's layers for its chart: A*'s
 * f-layers from h(start) up to the optimum. */
static void test_layers_in_page(void **state)
{
    (void)state;
    const struct ps_game *g = ps_game_find("npuzzle");
    void *rules = test_rules(g, NULL);
    void *inst = test_load(g, rules, "1 2 3\n0 4 6\n7 5 8\n");
    struct ps_options opt;
    ps_options_default(&opt);
    opt.layers = true;
    struct ps_search s;
    ps_search_init(&s, g, inst, NULL, &opt);
    struct ps_run run;
    ps_run_capture(&run, &s, ps_search_run(&s, ps_algorithm_find("astar")));
    ps_search_free(&s);
    assert_int_equal(run.value, 3);
    struct ps_html_report rep = {.command = "solve", .game = g, .inst = inst,
                                 .puzzle = "p.txt", .runs = &run, .nruns = 1};
    struct page p;
    write_page(&rep, &p);
    /* Manhattan distance 3 at the start, optimum 3: one f-layer, f = 3. */
    assert_non_null(strstr(p.data, "\"layers\":{\"kind\":\"f\",\"rows\":"
                                   "[{\"key\":3,\"expanded\":"));
    assert_non_null(strstr(p.html, "function layers()"));
    free(p.html);
    free(p.data);
    ps_run_free(&run);
    test_release(g, inst, NULL, rules);
}

/* A lab page carries its rows; a path that cannot be written is an error
 * naming it. */
static void test_lab_page_and_errors(void **state)
{
    (void)state;
    const struct ps_game *g = ps_game_find("npuzzle");
    struct ps_lab_row rows[2];
    memset(rows, 0, sizeof rows);
    snprintf(rows[0].puzzle, sizeof rows[0].puzzle, "a.txt");
    snprintf(rows[0].algo, sizeof rows[0].algo, "astar");
    rows[0].found = true;
    rows[0].value = 14;
    rows[0].stats.expanded = 34;
    rows[1] = rows[0];
    snprintf(rows[1].algo, sizeof rows[1].algo, "bfs");
    rows[1].stats.expanded = 5084;
    struct ps_html_report rep = {.command = "lab", .game = g, .rows = rows,
                                 .nrows = 2};
    struct page p;
    write_page(&rep, &p);
    assert_non_null(strstr(p.data, "\"lab\":[{\"puzzle\":\"a.txt\",\"algo\":\"astar\""));
    assert_non_null(strstr(p.data, "\"algo\":\"bfs\",\"status\":\"optimal\",\"found\":true,"
                                   "\"value\":14"));
    free(p.html);
    free(p.data);
    struct ps_error err;
    ps_error_clear(&err);
    assert_false(ps_html_write_file("/nonexistent-dir/x.html", &rep, &err));
    assert_string_equal(err.file, "/nonexistent-dir/x.html");
    assert_non_null(strstr(err.msg, "cannot write the HTML report"));
}

/* Its terminal sibling (verify --show): every board with the move, its cost
 * and the value so far; with a pause stream, one line read per move, "q"
 * running to the end. */
static void test_terminal_replay(void **state)
{
    (void)state;
    const struct ps_game *g = ps_game_find("npuzzle");
    void *rules = test_rules(g, NULL);
    void *inst = test_load(g, rules, "1 2 3\n0 4 6\n7 5 8\n");
    unsigned char *s = test_initial(g, inst);
    ps_move moves[3];
    struct ps_error err;
    const char *texts[] = {"4", "5", "8"};
    for (int k = 0; k < 3; k++) {
        assert_true(g->parse_move(inst, s, texts[k], &moves[k], &err));
        test_play(g, inst, s, texts[k]);
    }
    char *out = NULL, input[] = "\nq\n";
    size_t len = 0;
    FILE *f = open_memstream(&out, &len), *in = fmemopen(input, strlen(input), "r");
    ps_print_replay(f, g, inst, moves, 3, false, in);
    fclose(f);
    fclose(in);
    assert_string_equal(out,
                        "start:\n 1 2 3\n . 4 6\n 7 5 8\n"
                        "[Enter: move 1 of 3, q: to the end] "
                        "move 1: 4  (cost 1, cost so far 1)\n 1 2 3\n 4 . 6\n 7 5 8\n"
                        "[Enter: move 2 of 3, q: to the end] "
                        "move 2: 5  (cost 1, cost so far 2)\n 1 2 3\n 4 5 6\n 7 . 8\n"
                        "move 3: 8  (cost 1, cost so far 3)\n 1 2 3\n 4 5 6\n 7 8 .\n");
    free(out);
    test_release(g, inst, s, rules);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_page),
        cmocka_unit_test(test_winner_line),
        cmocka_unit_test(test_demo_table),
        cmocka_unit_test(test_text_fallback),
        cmocka_unit_test(test_layers_in_page),
        cmocka_unit_test(test_lab_page_and_errors),
        cmocka_unit_test(test_terminal_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
