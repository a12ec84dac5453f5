/*
 * test_npuzzle.c - the sliding-tile puzzle: parser, moves, goal, every
 * heuristic of its table against true distances (breadth-first search
 * written here, from the goal), generated puzzles being solvable (also
 * scrambled ones, gen --moves), and the counters of small searches checked
 * by hand.
 */
#include "support.h"

#include "replay.h"
#include "table.h"

extern const struct ps_game npuzzle_game;
static const struct ps_game *G = &npuzzle_game;

static void test_moves_and_goal(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "1 2 3\n4 5 6\n7 . 8\n");
    void *s = test_initial(G, inst);
    ps_move moves[4];
    assert_int_equal(G->moves(inst, s, moves, NULL), 3); /* 5 above, 7, 8 */
    assert_false(G->is_goal(inst, s));
    assert_int_equal(G->heuristic(inst, s), 1);
    assert_int_equal(test_play(G, inst, s, "8"), 1);
    assert_true(G->is_goal(inst, s));
    assert_int_equal(G->heuristic(inst, s), 0);
    assert_string_equal(test_print(G, inst, s), " 1 2 3\n 4 5 6\n 7 8 .\n");
    ps_move m;
    struct ps_error err;
    assert_false(G->parse_move(inst, s, "1", &m, &err));
    assert_non_null(strstr(err.msg, "not next to the blank"));
    assert_false(G->parse_move(inst, s, "9", &m, &err));
    test_release(G, inst, s, rules);
}

static void test_parser_rejections(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    test_load_fails(G, rules, "1 2\n3\n", 2, 1, "row has 1 tiles");
    test_load_fails(G, rules, "1 2\n3 x\n", 2, 3, "expected a tile number");
    test_load_fails(G, rules, "1 2\n2 0\n", 2, 1, "appears twice");
    test_load_fails(G, rules, "1 2\n3 4\n", 2, 3, "out of range");
    test_load_fails(G, rules, "1 2 0\n", 0, 0, "must be square");
    test_load_fails(G, rules, "", 0, 0, "no rows");
    free(rules);
}

/* Breadth-first from the goal over all 9!/2 reachable 8-puzzle states: the
 * heuristic never exceeds the true distance, and equals it at the goal. */
static void test_manhattan_is_admissible(void **unused)
{
    (void)unused;
    int overestimates = 0;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "1 2 3\n4 5 6\n7 8 0\n");
    struct ps_search s;
    ps_search_init(&s, G, inst, NULL, NULL);
    struct ps_table t;
    assert_true(ps_table_init(&t, &s, sizeof(int32_t)));
    size_t size = s.state_size;
    unsigned char *start = test_initial(G, inst), *next = malloc(size);
    bool added;
    ps_table_insert(&t, G->hash(inst, start), start, &added);
    /* The table's entries are in insertion order: a FIFO queue for free. */
    for (int64_t head = 0; head < (int64_t)t.count; head++) {
        unsigned char cur[16];
        memcpy(cur, ps_table_state(&t, head), size);
        int32_t d = *(int32_t *)ps_table_value(&t, head);
        assert_true(G->heuristic(inst, cur) <= d);
        /* Every --heuristic entry marked admissible; at the goal all are 0. */
        for (const struct ps_heuristic *e = G->heuristics; e->name; e++) {
            ps_value h = e->fn(inst, cur);
            if (e->admissible && h > d)
                fail_msg("heuristic %s: %lld > distance %d", e->name,
                         (long long)h, d);
            if (d == 0)
                assert_int_equal(h, 0);
            else if (!e->admissible && h > d)
                overestimates++;
        }
        ps_move moves[4];
        int n = G->moves(inst, cur, moves, NULL);
        for (int i = 0; i < n; i++) {
            G->apply(inst, cur, moves[i], next);
            int64_t idx = ps_table_insert(&t, G->hash(inst, next), next, &added);
            assert_true(idx >= 0);
            if (added)
                *(int32_t *)ps_table_value(&t, idx) = d + 1;
        }
    }
    assert_int_equal(t.count, 181440); /* 9!/2: half the permutations */
    /* double-manhattan is marked inadmissible because it overestimates. */
    assert_true(overestimates > 0);
    ps_table_free(&t);
    free(start);
    free(next);
    ps_search_free(&s);
    G->free_instance(inst);
    free(rules);
}

/* The solvable 2x2 positions form one cycle of 12, so turning the blank one
 * way round (never undoing the last slide) reaches the goal within 11
 * slides, or never: a brute-force solvability test. */
static bool reaches_goal_2x2(const void *inst)
{
    unsigned char *s = test_initial(G, inst), next[8];
    bool solved = G->is_goal(inst, s);
    ps_move last = 99;
    for (int k = 0; k < 12 && !solved; k++) {
        ps_move moves[4];
        int n = G->moves(inst, s, moves, NULL);
        assert_int_equal(n, 2);
        ps_move m = moves[0] == last ? moves[1] : moves[0];
        last = s[4]; /* the blank's index: undoing = moving that tile back */
        G->apply(inst, s, m, next);
        memcpy(s, next, G->state_size(inst));
        solved = G->is_goal(inst, s);
    }
    free(s);
    return solved;
}

/* Generated puzzles are solvable. */
static void test_generated_2x2_are_solvable(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    for (uint64_t seed = 1; seed <= 30; seed++) {
        char text[256];
        struct ps_gen_options o = {.value = {2}, .seed = seed} /* the size */;
        FILE *f = fmemopen(text, sizeof text, "w");
        struct ps_error err;
        assert_true(G->generate(&o, f, &err));
        fclose(f);
        void *inst = test_load(G, rules, text);
        assert_true(reaches_goal_2x2(inst));
        G->free_instance(inst);
    }
    free(rules);
}

/* The parity check proves unsolvable exactly the 12 of the 24 positions of
 * the 2x2 puzzle that brute force cannot solve. */
static void test_check_matches_brute_force(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    int perm[4] = {0, 1, 2, 3}, solvable = 0;
    for (int k = 0; k < 24; k++) {
        /* The k-th permutation, by the factorial number system. */
        int pool[4] = {0, 1, 2, 3}, left = 4, code = k;
        for (int i = 0, f = 6; i < 4; i++) {
            int pick = code / f;
            code %= f;
            perm[i] = pool[pick];
            for (int j = pick; j + 1 < left; j++)
                pool[j] = pool[j + 1];
            left--;
            f = left > 1 ? f / left : 1;
        }
        char text[32];
        snprintf(text, sizeof text, "%d %d\n%d %d\n", perm[0], perm[1],
                 perm[2], perm[3]);
        void *inst = test_load(G, rules, text);
        char why[128];
        bool ok = G->solvable(inst, why, sizeof why);
        assert_int_equal(ok, reaches_goal_2x2(inst));
        solvable += ok;
        G->free_instance(inst);
    }
    assert_int_equal(solvable, 12);
    free(rules);
}

/* BFS, A* and IDA* agree on the optimum of random 8-puzzles, and each
 * solution replays to the goal at the claimed cost. */
static void test_exact_algorithms_agree(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    const char *algos[] = {"bfs", "astar", "idastar"};
    for (uint64_t seed = 1; seed <= 8; seed++) {
        char text[256];
        struct ps_gen_options o = {.value = {3}, .seed = seed} /* the size */;
        FILE *f = fmemopen(text, sizeof text, "w");
        struct ps_error err;
        assert_true(G->generate(&o, f, &err));
        fclose(f);
        void *inst = test_load(G, rules, text);
        ps_value cost[3];
        for (int a = 0; a < 3; a++) {
            struct ps_search s;
            ps_search_init(&s, G, inst, NULL, NULL);
            assert_int_equal(ps_search_run(&s, ps_algorithm_find(algos[a])),
                             PS_OPTIMAL);
            assert_true(s.best.found);
            cost[a] = s.best.value;
            unsigned char final[16];
            struct ps_replay res;
            assert_true(ps_replay_moves(G, inst, s.best.moves, s.best.len,
                                        final, &res, &err));
            assert_true(res.over);
            assert_int_equal(res.value, cost[a]);
            ps_search_free(&s);
        }
        assert_int_equal(cost[0], cost[1]);
        assert_int_equal(cost[0], cost[2]);
        G->free_instance(inst);
    }
    free(rules);
}

/* psolve gen's text for these options; false with err when refused. */
static bool gen_text(const struct ps_gen_options *o, char *text, size_t len,
                     struct ps_error *err)
{
    FILE *f = fmemopen(text, len, "w");
    assert_non_null(f);
    bool ok = G->generate(o, f, err);
    fclose(f);
    return ok;
}

/* gen --moves K: K slides from the goal, so the optimum is at most K (and
 * of the parity of K); the same seed gives the same puzzle. */
static void test_gen_moves_bounds_the_optimum(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    for (int k = 0; k <= 24; k += 3) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            char text[256], again[256];
            struct ps_gen_options o = {.value = {3, k}, .seed = seed} /* size, moves */;
            struct ps_error err;
            assert_true(gen_text(&o, text, sizeof text, &err));
            assert_true(gen_text(&o, again, sizeof again, &err));
            assert_string_equal(text, again);
            if (k > 0)
                assert_non_null(strstr(text, "--moves"));
            void *inst = test_load(G, rules, text);
            struct ps_search s;
            ps_search_init(&s, G, inst, NULL, NULL);
            assert_int_equal(ps_search_run(&s, ps_algorithm_find("astar")),
                             PS_OPTIMAL);
            if (k > 0) {
                assert_true(s.best.value <= k);
                assert_int_equal(s.best.value % 2, k % 2);
            }
            ps_search_free(&s);
            G->free_instance(inst);
        }
    }
    /* A 15-puzzle scrambled 30 slides is solved at once. */
    char text[256];
    struct ps_gen_options o = {.value = {4, 30}, .seed = 9} /* size, moves */;
    struct ps_error err;
    assert_true(gen_text(&o, text, sizeof text, &err));
    void *inst = test_load(G, rules, text);
    struct ps_search s;
    ps_search_init(&s, G, inst, NULL, NULL);
    assert_int_equal(ps_search_run(&s, ps_algorithm_find("idastar")),
                     PS_OPTIMAL);
    assert_true(s.best.value <= 30);
    ps_search_free(&s);
    G->free_instance(inst);
    o.value[1] = -1; /* moves */
    assert_false(gen_text(&o, text, sizeof text, &err));
    assert_non_null(strstr(err.msg, "--moves"));
    free(rules);
}

static void run_counted(const void *inst, const char *algo, const char *h,
                        struct ps_search *s)
{
    struct ps_options o;
    ps_options_default(&o);
    o.heuristic = h;
    o.layers = true;
    ps_search_init(s, G, inst, NULL, &o);
    assert_int_equal(ps_search_run(s, ps_algorithm_find(algo)), PS_OPTIMAL);
    assert_int_equal(s->best.value, 6);
}

/* The 2x2 puzzle's 12 positions form one cycle, and "0 3 / 2 1" is the one
 * opposite the goal, 6 slides away: every count is known by hand.
 *   bfs: layers g = 0..5 expand 1, 2, 2, 2, 2, 2 (the goal, at 6, is not
 *   expanded); each position has 2 moves, so 22 generated, and 11 of them
 *   were known (12 positions, 11 reached: the start was there).
 *   idastar, h = 0: iteration B (B < 6) expands the root and two arms of B
 *   positions (1 + 2B), prunes the 2 arm ends, and meets 2B cycles (each
 *   non-root position's move back); the last expands one arm to depth 5 (6
 *   positions, 5 cycles) and finds the goal. */
static void test_counters_on_the_2x2_cycle(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "0 3\n2 1\n");
    struct ps_search s;
    run_counted(inst, "bfs", NULL, &s);
    assert_int_equal(s.stats.expanded, 11);
    assert_int_equal(s.stats.generated, 22);
    assert_int_equal(s.stats.duplicates, 11);
    assert_int_equal(s.stats.reexpanded, 0);
    assert_int_equal(s.stats.pruned, 0);
    assert_int_equal(s.stats.peak_frontier, 2);
    assert_false(s.stats.has_h_start); /* bfs reads no heuristic */
    assert_string_equal(s.layers.kind, "g");
    assert_int_equal(s.layers.n, 6);
    for (int k = 0; k < 6; k++) {
        assert_int_equal(s.layers.v[k].key, k);
        assert_int_equal(s.layers.v[k].expanded, k == 0 ? 1 : 2);
        assert_int_equal(s.layers.v[k].generated, k == 0 ? 2 : 4);
    }
    ps_search_free(&s);

    run_counted(inst, "idastar", "zero", &s);
    assert_int_equal(s.stats.iterations, 7);
    assert_int_equal(s.stats.expanded, 42);
    assert_int_equal(s.stats.generated, 84);
    assert_int_equal(s.stats.cycles, 35);
    assert_int_equal(s.stats.duplicates, 35);
    assert_int_equal(s.stats.pruned_bound, 12);
    assert_int_equal(s.stats.pruned, 12);
    assert_int_equal(s.stats.pruned_commuting, 0);
    assert_int_equal(s.stats.last_iteration_expanded, 6);
    assert_int_equal(s.stats.reexpanded, 36);
    assert_true(s.stats.has_h_start);
    assert_int_equal(s.stats.h_start, 0);
    assert_string_equal(s.layers.kind, "bound");
    assert_int_equal(s.layers.n, 7);
    for (int b = 0; b < 7; b++) {
        assert_int_equal(s.layers.v[b].key, b);
        assert_int_equal(s.layers.v[b].expanded, b < 6 ? 1 + 2 * b : 6);
    }
    ps_search_free(&s);

    /* A* with h = 0 expands what bfs does, in f-layers equal to g. */
    run_counted(inst, "astar", "zero", &s);
    assert_int_equal(s.stats.expanded, 11);
    assert_string_equal(s.layers.kind, "f");
    assert_int_equal(s.layers.n, 6);
    ps_search_free(&s);
    G->free_instance(inst);
    free(rules);
}

/* The classic table, on a position A* with h = 0 still solves quickly: the
 * better informed the admissible heuristic, the fewer expansions. */
static void test_better_heuristics_expand_less(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "8 1 3\n4 0 2\n7 6 5\n");
    const char *order[] = {"zero", "misplaced", "manhattan", "linear-conflict"};
    uint64_t last = UINT64_MAX;
    ps_value cost = -1;
    for (int i = 0; i < 4; i++) {
        struct ps_options o;
        ps_options_default(&o);
        o.heuristic = order[i];
        struct ps_search s;
        ps_search_init(&s, G, inst, NULL, &o);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find("astar")),
                         PS_OPTIMAL);
        if (cost >= 0)
            assert_int_equal(s.best.value, cost);
        cost = s.best.value;
        if (s.stats.expanded > last)
            fail_msg("%s expanded %llu, more than the weaker heuristic's %llu",
                     order[i], (unsigned long long)s.stats.expanded,
                     (unsigned long long)last);
        last = s.stats.expanded;
        ps_search_free(&s);
    }
    G->free_instance(inst);
    free(rules);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_and_goal),
        cmocka_unit_test(test_parser_rejections),
        cmocka_unit_test(test_manhattan_is_admissible),
        cmocka_unit_test(test_gen_moves_bounds_the_optimum),
        cmocka_unit_test(test_counters_on_the_2x2_cycle),
        cmocka_unit_test(test_better_heuristics_expand_less),
        cmocka_unit_test(test_generated_2x2_are_solvable),
        cmocka_unit_test(test_check_matches_brute_force),
        cmocka_unit_test(test_exact_algorithms_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
