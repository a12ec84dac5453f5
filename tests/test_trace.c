/*
 * test_trace.c - the --trace emitter (framework/kernel/trace.c): the text
 * lines a student reads and the JSONL records a notebook or the HTML viewer
 * reads, for small BFS, A*, IDA*, weighted A* and greedy searches on an
 * 8-puzzle, and the beam / Monte Carlo events on a 6x6 SameGame board.
 */
#include "support.h"

#include "json_check.h"
#include "search.h"
#include "trace.h"

/* Two slides from the goal: the blank goes down, then right. */
static const char two_moves[] = "1 2 3\n4 0 6\n7 5 8\n";
/* A board no algorithm here clears at once (a cleared board is proven best
 * and ends the run before its first level is traced). */
static const char samegame6[] =
    "331322\n134143\n343111\n433331\n443412\n143144\n";

struct traced {
    char *text;
    size_t len;
    enum ps_status status;
    ps_value value;
};

/* Run `algo` on `board` of `game` with --trace n in `format`; the trace in
 * out->text (free it). `game_override`, when not NULL, replaces the game. */
static void run_traced(const char *game, const struct ps_game *game_override,
                       const char *board, const char *algo, int n,
                       enum ps_trace_format format, struct traced *out)
{
    const struct ps_game *g = game_override ? game_override : ps_game_find(game);
    assert_non_null(g);
    void *rules = test_rules(g, NULL);
    void *inst = test_load(g, rules, board);
    struct ps_options opt;
    ps_options_default(&opt);
    opt.trace = n;
    opt.trace_format = format;
    opt.threads = 1;
    test_option_int(&opt, "rollouts", 3);
    test_option_int(&opt, "iterations", 3);
    test_option_int(&opt, "level", 2);
    test_option_int(&opt, "beam-width", 4);
    struct ps_search s;
    ps_search_init(&s, g, inst, NULL, &opt);
    s.trace.out = open_memstream(&out->text, &out->len);
    assert_non_null(s.trace.out);
    const struct ps_algorithm *a = ps_algorithm_find(algo);
    assert_non_null(a);
    out->status = ps_search_run(&s, a);
    out->value = s.best.value;
    fclose(s.trace.out);
    ps_search_free(&s);
    test_release(g, inst, NULL, rules);
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* Every line of a JSONL trace is one well-formed JSON object; returns how
 * many there are. */
static int check_jsonl(const char *text)
{
    int lines = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        assert_non_null(end); /* every record ends its line */
        if (!json_is_valid(p, (size_t)(end - p)))
            fail_msg("not one JSON value: %.*s", (int)(end - p), p);
        assert_int_equal(*p, '{');
        lines++;
        p = end + 1;
    }
    return lines;
}

/* The records of one event kind, as a NULL-terminated array of lines
 * (malloc'd copies). */
static char **records(const char *text, const char *event)
{
    char needle[64];
    snprintf(needle, sizeof needle, "{\"event\":\"%s\"", event);
    size_t n = 0, cap = 8;
    char **list = malloc(cap * sizeof *list);
    assert_non_null(list);
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        if (strncmp(p, needle, strlen(needle)) == 0) {
            if (n + 1 >= cap)
                list = realloc(list, (cap *= 2) * sizeof *list);
            assert_non_null(list);
            list[n++] = strndup(p, (size_t)(end - p));
        }
        p = end + 1;
    }
    list[n] = NULL;
    return list;
}

static int free_records(char **list)
{
    int n = 0;
    for (; list[n]; n++)
        free(list[n]);
    free(list);
    return n;
}

/* The text trace: each algorithm's part, expansions with g, h, the real
 * queue key and the open list, pushes with their parent, IDA*'s rounds. */
static void test_text_trace(void **state)
{
    (void)state;
    struct traced t;
    run_traced("npuzzle", NULL, two_moves, "bfs", 2, PS_TRACE_TEXT, &t);
    assert_non_null(strstr(t.text, "== bfs ==\n"));
    /* BFS ranks by g: the key of the start is 0 whatever h says. */
    assert_non_null(strstr(t.text, "# expand  id #0  depth 0  g 0  h 2  key 0  open 0\n"
                                   " 1 2 3\n 4 . 6\n 7 5 8\n"));
    assert_non_null(strstr(t.text, "#   push  id #1  parent #0  g 1  h 3  key 1  open 1  move 2\n"));
    assert_int_equal(count(t.text, "# expand "), 2);
    assert_non_null(strstr(t.text, "# improve  value 2  len 2  at "));
    free(t.text);

    run_traced("npuzzle", NULL, two_moves, "astar", 5, PS_TRACE_TEXT, &t);
    assert_non_null(strstr(t.text, "== astar ==\n"));
    assert_non_null(strstr(t.text, "# expand  id #0  depth 0  g 0  h 2  key 2  open 0\n"));
    /* The second expansion is the child with the smallest g + h. */
    assert_non_null(strstr(t.text, "# expand  id #2  parent #0  depth 1  g 1  h 1  key 2  open 3  move 5\n"));
    /* A* stops at the goal: two expansions, fewer than the budget. */
    assert_int_equal(count(t.text, "# expand "), 2);
    free(t.text);

    run_traced("npuzzle", NULL, two_moves, "idastar", 10, PS_TRACE_TEXT, &t);
    assert_non_null(strstr(t.text, "== idastar ==\n# iteration 1: bound 2\n"));
    assert_non_null(strstr(t.text, "# expand  id #1  parent #0  depth 1  g 1  h 1  key 2  bound 2  move 5\n"));
    free(t.text);
}

/* --trace N shows N budgeted events, and the pushes of those only. */
static void test_budget(void **state)
{
    (void)state;
    struct traced t;
    /* 3 slides away: BFS expands far more than 3 states. */
    run_traced("npuzzle", NULL, "1 2 3\n0 4 6\n7 5 8\n", "bfs", 3,
               PS_TRACE_TEXT, &t);
    assert_int_equal(t.status, PS_OPTIMAL);
    assert_int_equal(count(t.text, "# expand "), 3);
    /* The start has 3 moves, each child 2 new ones (one goes back). */
    assert_int_equal(count(t.text, "#   push "), 3 + 2 + 2);
    free(t.text);
    /* IDA*'s rounds are not counted: its bounds show to the end (h = 10,
     * optimum 14, and the 8-puzzle's bounds rise by 2). */
    run_traced("npuzzle", NULL, "8 1 3\n4 0 2\n7 6 5\n", "idastar", 1,
               PS_TRACE_TEXT, &t);
    assert_int_equal(count(t.text, "# expand "), 1);
    assert_non_null(strstr(t.text, "# iteration 1: bound 10\n"));
    assert_non_null(strstr(t.text, "# iteration 2: bound 12\n"));
    assert_non_null(strstr(t.text, "# iteration 3: bound 14\n"));
    assert_int_equal(count(t.text, "# iteration "), 3);
    free(t.text);
    run_traced("npuzzle", NULL, "1 2 3\n0 4 6\n7 5 8\n", "bfs", 0,
               PS_TRACE_TEXT, &t);
    assert_int_equal(t.len, 0);
    free(t.text);
}

/* JSONL: one well-formed object per line, the fields the viewer reads, and
 * the queue key each algorithm really uses. */
static void test_jsonl_keys(void **state)
{
    (void)state;
    static const struct {
        const char *algo;
        int gw, hw; /* key = gw g + hw h (wastar: weight 2) */
    } cases[] = {{"bfs", 1, 0}, {"astar", 1, 1}, {"wastar", 1, 2},
                 {"greedy", 0, 1}, {"idastar", 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct traced t;
        run_traced("npuzzle", NULL, "1 2 3\n0 4 6\n7 5 8\n", cases[c].algo, 50,
                   PS_TRACE_JSONL, &t);
        assert_true(check_jsonl(t.text) >= 3);
        char first[128];
        snprintf(first, sizeof first, "{\"event\":\"begin\",\"algo\":\"%s\",\"n\":1,",
                 cases[c].algo);
        assert_memory_equal(t.text, first, strlen(first));
        char **ex = records(t.text, "expand");
        assert_non_null(ex[0]);
        assert_non_null(strstr(ex[0], "\"state\":{\"kind\":\"grid\",\"rows\":3,"
                                      "\"cols\":3,\"style\":\"tiles\",\"cells\":[1,2,3,0,4,6,7,5,8]}"));
        assert_null(strstr(ex[0], "\"parent\"")); /* the start has none */
        for (int i = 0; ex[i]; i++) {
            long long g = json_number(ex[i], "g", -1), h = json_number(ex[i], "h", -1);
            assert_true(g >= 0 && h >= 0);
            assert_int_equal(json_number(ex[i], "key", -1),
                             cases[c].gw * g + cases[c].hw * h);
            assert_int_equal(json_number(ex[i], "depth", -1), g);
            if (i > 0)
                assert_non_null(strstr(ex[i], "\"move\":\""));
        }
        free_records(ex);
        char **push = records(t.text, "push");
        for (int i = 0; push[i]; i++)
            assert_int_equal(json_number(push[i], "key", -1),
                             cases[c].gw * json_number(push[i], "g", -1) +
                                 cases[c].hw * json_number(push[i], "h", -1));
        int pushes = free_records(push);
        char **it = records(t.text, "iteration");
        if (strcmp(cases[c].algo, "idastar") == 0) {
            assert_non_null(it[0]);
            assert_int_equal(json_number(it[0], "iteration", -1), 1);
            assert_int_equal(json_number(it[0], "bound", -1), 3);
            assert_int_equal(pushes, 0);
        } else {
            assert_null(it[0]);
            assert_true(pushes > 0);
        }
        free_records(it);
        char **imp = records(t.text, "improve");
        assert_non_null(imp[0]);
        assert_int_equal(json_number(imp[0], "value", -1), 3);
        free_records(imp);
        free(t.text);
    }
}

/* Beam prints its depths and width; mc, nmcs and nrpa their levels and
 * iterations; all their improvements, each better than the last. */
static void test_score_algorithms(void **state)
{
    (void)state;
    static const char *const algos[] = {"beam", "mc", "nmcs", "nrpa", "greedy", "dfs"};
    static const char *const kinds[] = {"depth", "level", "level", "level", "expand", "expand"};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        struct traced t;
        run_traced("samegame", NULL, samegame6, algos[a], 20, PS_TRACE_JSONL, &t);
        check_jsonl(t.text);
        char **ev = records(t.text, kinds[a]);
        if (!ev[0])
            fail_msg("%s traced no '%s' event:\n%s", algos[a], kinds[a], t.text);
        if (strcmp(algos[a], "beam") == 0)
            assert_int_equal(json_number(ev[0], "width", -1), 4);
        if (strcmp(algos[a], "nrpa") == 0 || strcmp(algos[a], "nmcs") == 0) {
            assert_int_equal(json_number(ev[0], "level", -1), 2);
            assert_int_equal(json_number(ev[0], "iteration", -1), 1);
        }
        free_records(ev);
        char **imp = records(t.text, "improve");
        assert_non_null(imp[0]);
        long long last = -1;
        int n = 0;
        for (; imp[n]; n++) {
            long long v = json_number(imp[n], "value", -1);
            assert_true(v > last);
            last = v;
        }
        assert_int_equal(last, t.value);
        free_records(imp);
        free(t.text);

        run_traced("samegame", NULL, samegame6, algos[a], 20, PS_TRACE_TEXT, &t);
        char part[32];
        snprintf(part, sizeof part, "== %s ==\n", algos[a]);
        assert_memory_equal(t.text, part, strlen(part));
        free(t.text);
    }
}

/* A game without state_json (a C plug-in, say) is traced with its text. */
static void test_text_fallback(void **state)
{
    (void)state;
    struct ps_game plain = *ps_game_find("npuzzle");
    plain.state_json = NULL;
    struct traced t;
    run_traced(NULL, &plain, two_moves, "astar", 1, PS_TRACE_JSONL, &t);
    check_jsonl(t.text);
    assert_non_null(strstr(t.text, "\"state\":{\"text\":\" 1 2 3\\n 4 . 6\\n 7 5 8\\n\"}"));
    free(t.text);
}

/* Strings are escaped for JSON and for an HTML script element. */
static void test_json_string(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ps_trace_json_string(f, "a\"b\\c\n</script>\x01/");
    fclose(f);
    assert_string_equal(text, "\"a\\\"b\\\\c\\n<\\/script>\\u0001/\"");
    assert_true(json_is_valid(text, len));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_trace),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_jsonl_keys),
        cmocka_unit_test(test_score_algorithms),
        cmocka_unit_test(test_text_fallback),
        cmocka_unit_test(test_json_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
