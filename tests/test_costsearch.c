/*
 * test_costsearch.c - the cost-game algorithms (bfs, astar, wastar, greedy,
 * idastar) as the kernel runs them: limits stop them without a wrong
 * answer, statistics are filled, --trace prints, weights behave.
 * Water Sort serves as the cost game (the kernel itself never names it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "support.h"
#include "replay.h"
#include "search.h"
#include "textfile.h"

static const char *const exact[] = {"bfs", "astar", "idastar"};

static void *load_file(const char *name)
{
    const struct ps_game *g = ps_game_find("watersort");
    char path[512];
    snprintf(path, sizeof path, "%s/games/watersort/levels/%s", PSOLVE_SOURCE_DIR, name);
    char *text;
    size_t len;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_read_text_file(path, &text, &len, &err));
    void *rules = calloc(1, g->rules_size);
    assert_true(ps_rules_preset(g, rules, NULL, &err));
    void *inst = g->load(rules, path, text, len, &err);
    free(rules);
    free(text);
    assert_non_null(inst);
    return inst;
}

static enum ps_status run_algo(struct ps_search *s, const void *inst,
                               const char *algo, const struct ps_limits *lim,
                               const struct ps_options *opt)
{
    const struct ps_game *g = ps_game_find("watersort");
    ps_search_init(s, g, inst, lim, opt);
    return ps_search_run(s, ps_algorithm_find(algo));
}

/* A node limit stops every algorithm with `incomplete`, and no partial line
 * is offered as a solution of a cost game. */
static void test_node_limit_offers_nothing_wrong(void **state)
{
    (void)state;
    void *inst = load_file("frozenfrank-463.txt");
    const char *algos[] = {"bfs", "astar", "idastar", "wastar", "greedy"};
    for (int i = 0; i < 5; i++) {
        struct ps_limits lim = {.max_nodes = 20};
        struct ps_search s;
        enum ps_status st = run_algo(&s, inst, algos[i], &lim, NULL);
        assert_int_equal(st, PS_INCOMPLETE);
        assert_int_equal(s.stop, PS_STOP_NODES);
        assert_false(s.best.found);
        assert_true(s.stats.expanded <= 21);
        ps_search_free(&s);
    }
    ps_game_find("watersort")->free_instance(inst);
}

/* A memory limit makes the table refuse to grow: stopped, not crashed. */
static void test_memory_limit_stops_cleanly(void **state)
{
    (void)state;
    void *inst = load_file("frozenfrank-463.txt");
    for (int i = 0; i < 2; i++) {
        struct ps_limits lim = {.max_memory = 200 * 1024};
        struct ps_search s;
        enum ps_status st = run_algo(&s, inst, i ? "astar" : "bfs", &lim, NULL);
        assert_int_equal(st, PS_INCOMPLETE);
        assert_int_equal(s.stop, PS_STOP_MEMORY);
        assert_false(s.best.found);
        assert_true(s.stats.peak_memory <= lim.max_memory);
        assert_int_equal(s.stats.memory, 0); /* all released */
        ps_search_free(&s);
    }
    ps_game_find("watersort")->free_instance(inst);
}

/* Statistics of a finished run, and the optimum of INDEX.tsv. */
static void test_stats_and_optimum(void **state)
{
    (void)state;
    void *inst = load_file("frozenfrank-2024-jul5.txt"); /* optimum 28 */
    for (int i = 0; i < 2; i++) {
        struct ps_search s;
        enum ps_status st = run_algo(&s, inst, exact[i], NULL, NULL);
        assert_int_equal(st, PS_OPTIMAL);
        assert_int_equal(s.best.value, 28);
        assert_int_equal(s.best.len, 28);
        assert_true(s.stats.expanded > 0);
        assert_true(s.stats.generated >= s.stats.expanded);
        assert_true(s.stats.duplicates > 0);
        assert_true(s.stats.peak_table >= s.stats.expanded);
        assert_true(s.stats.peak_frontier > 0);
        assert_true(s.stats.peak_memory > 0);
        assert_int_equal(s.stats.memory, 0);
        ps_search_free(&s);
    }
    /* A* expands fewer states than BFS (the point of h). */
    struct ps_search a, b;
    run_algo(&a, inst, "astar", NULL, NULL);
    run_algo(&b, inst, "bfs", NULL, NULL);
    assert_true(a.stats.expanded < b.stats.expanded);
    ps_search_free(&a);
    ps_search_free(&b);
    ps_game_find("watersort")->free_instance(inst);
}

/* Weighted A*: w = 1 is A* (optimal); w = 3 is labelled heuristic, stays
 * within 3x the optimum; greedy is labelled too. */
static void test_weights_and_labels(void **state)
{
    (void)state;
    void *inst = load_file("frozenfrank-2024-jul5.txt");
    struct ps_options opt;
    ps_options_default(&opt);
    test_option(&opt, "weight", "1");
    struct ps_search s;
    assert_int_equal(run_algo(&s, inst, "wastar", NULL, &opt), PS_OPTIMAL);
    assert_int_equal(s.best.value, 28);
    ps_search_free(&s);
    test_option(&opt, "weight", "3");
    assert_int_equal(run_algo(&s, inst, "wastar", NULL, &opt), PS_HEURISTIC);
    assert_true(s.best.value >= 28 && s.best.value <= 84);
    assert_non_null(strstr(s.note, "heuristic"));
    ps_search_free(&s);
    assert_int_equal(run_algo(&s, inst, "greedy", NULL, NULL), PS_HEURISTIC);
    assert_true(s.best.value >= 28);
    assert_non_null(strstr(s.note, "greedy"));
    /* Every returned line replays to a solved state. */
    const struct ps_game *g = ps_game_find("watersort");
    unsigned char final[512];
    struct ps_replay r;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_replay_moves(g, inst, s.best.moves, s.best.len, final, &r,
                                &err));
    assert_true(r.over);
    assert_int_equal(r.value, s.best.value);
    ps_search_free(&s);
    g->free_instance(inst);
}

/* --trace N prints exactly N expansions with g, h and f. */
static void test_trace(void **state)
{
    (void)state;
    void *inst = load_file("frozenfrank-2024-jul5.txt");
    for (int i = 0; i < 3; i++) {
        struct ps_options opt;
        ps_options_default(&opt);
        opt.trace = 3;
        struct ps_limits lim = {.max_nodes = 50};
        struct ps_search s;
        const struct ps_game *g = ps_game_find("watersort");
        ps_search_init(&s, g, inst, &lim, &opt);
        char *text = NULL;
        size_t len = 0;
        s.trace.out = open_memstream(&text, &len);
        ps_search_run(&s, ps_algorithm_find(exact[i]));
        fclose(s.trace.out);
        int lines = 0;
        for (char *p = text; (p = strstr(p, "# expand ")); p++)
            lines++;
        assert_int_equal(lines, 3);
        assert_non_null(strstr(text, "# expand  id #0  depth 0  g 0  h "));
        free(text);
        ps_search_free(&s);
    }
    ps_game_find("watersort")->free_instance(inst);
}

/* IDA* counts its rounds. With --no-memo it keeps no table, and its memory
 * is one block per level of the path (a state and its children: 184
 * states of 72 bytes plus move lists here), so it is bounded by the
 * depth; by default a bounded transposition table (at most 32 MB, reported
 * in peak_memory and peak_table) comes on top. */
static void test_idastar_rounds_and_memory(void **state)
{
    (void)state;
    void *inst = load_file("frozenfrank-2024-aug31.txt"); /* optimum 36 */
    struct ps_search a, i, t;
    struct ps_options o;
    ps_options_default(&o);
    test_option_flag(&o, "no-memo", true);
    run_algo(&a, inst, "astar", NULL, NULL);
    assert_int_equal(run_algo(&i, inst, "idastar", NULL, &o), PS_OPTIMAL);
    assert_int_equal(i.best.value, 36);
    assert_int_equal(a.best.value, 36);
    assert_true(i.stats.iterations >= 1);
    assert_int_equal(i.stats.peak_table, 0);
    uint64_t per_level = 184 * 72 + 184 * 28 + 64;
    assert_true(i.stats.peak_memory <= (uint64_t)(i.best.len + 2) * per_level);
    assert_int_equal(run_algo(&t, inst, "idastar", NULL, NULL), PS_OPTIMAL);
    assert_int_equal(t.best.value, 36);
    assert_true(t.stats.peak_table > 0);
    assert_true(t.stats.table_hits > 0);
    assert_true(t.stats.expanded < i.stats.expanded);
    assert_true(t.stats.peak_memory <=
                (uint64_t)(t.best.len + 2) * per_level + (32u << 20));
    ps_search_free(&a);
    ps_search_free(&i);
    ps_search_free(&t);
    ps_game_find("watersort")->free_instance(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_node_limit_offers_nothing_wrong),
        cmocka_unit_test(test_memory_limit_stops_cleanly),
        cmocka_unit_test(test_stats_and_optimum),
        cmocka_unit_test(test_weights_and_labels),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_idastar_rounds_and_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
