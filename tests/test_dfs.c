/*
 * test_dfs.c - the dfs algorithm against brute force: plain recursive
 * enumeration for SameGame (score), Bellman-Ford for a tiny synthetic cost
 * game defined here; the SameGame upper bound checked at every state the
 * brute force visits; the dead-colour facts; limits and heuristic labels.
 */
#include <unistd.h>

#include "support.h"

#include "checkpoint.h"
#include "replay.h"
#include "rng.h"
#include "search.h"

/* ---- helpers: SameGame instances ---- */

static const struct ps_game *samegame(void)
{
    const struct ps_game *g = ps_game_find("samegame");
    assert_non_null(g);
    return g;
}

static const struct ps_algorithm *dfs_algo(void)
{
    const struct ps_algorithm *a = ps_algorithm_find("dfs");
    assert_non_null(a);
    return a;
}

enum table_kind { TABLE_PRESET, TABLE_JAGGED, TABLE_DIPPED };

/* Rules: a preset, or the default rules with a custom score table:
 *  jagged - not convex, not superadditive, with negative entries, and
 *           another table for each colour;
 *  dipped - superadditive but not monotone (score[3] = 0 while score[2] = 20),
 *           so a colour of 3 cells is worth score[2], not score[3]. */
static void *make_rules(const struct ps_game *g, const char *preset,
                        enum table_kind kind)
{
    void *rules = test_rules(g, preset);
    if (kind == TABLE_PRESET)
        return rules;
    int64_t *score = test_table(g, rules, "score");
    const struct ps_param *p = test_param(g, "score");
    /* every colour's table (score(n, colour)): the jagged ones differ by
     * colour, as the index runs on through the rows */
    for (int i = 0; i < p->table_len * p->table_rows; i++) {
        int n = i % p->table_len;
        if (kind == TABLE_JAGGED)
            score[i] = (i * 37) % 23 - 8;
        else
            score[i] = n == 3 ? 0 : 10 * n;
    }
    struct ps_error err;
    if (g->rules_check)
        assert_true(g->rules_check(rules, &err));
    return rules;
}

/* A full random board of rows x cols with `colours` colours. */
static void random_board(struct ps_rng *rng, int rows, int cols, int colours,
                         char *buf)
{
    char *p = buf;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            *p++ = (char)('1' + ps_rng_below(rng, (uint32_t)colours));
        *p++ = '\n';
    }
    *p = '\0';
}

/* ---- brute force (score): every line, no memo, no bound ----
 * Also checks the game's upper bound at every state it visits. Small games
 * only: fixed-size buffers, no allocation per node. */
#define BRUTE_MAX_MOVES 64
#define BRUTE_MAX_STATE 64

struct brute {
    const struct ps_game *g;
    const void *inst;
    size_t ss;
    int max_moves;
    bool cleared_ever;  /* some line ends with no cell left */
};

static int64_t cells_left(const struct ps_game *g, const void *inst,
                          const void *state);

static bool board_empty(const struct brute *b, const void *state)
{
    return b->g->facts && cells_left(b->g, b->inst, state) == 0;
}

/* The greedy value from a state, written plainly (largest gain, first on
 * ties), for the brute force of --max-depth. */
static ps_value greedy_value(struct brute *b, const void *state)
{
    ps_move moves[BRUTE_MAX_MOVES];
    ps_value gains[BRUTE_MAX_MOVES];
    unsigned char cur[BRUTE_MAX_STATE], next[BRUTE_MAX_STATE];
    memcpy(cur, state, b->ss);
    ps_value total = 0;
    int n;
    while ((n = b->g->moves(b->inst, cur, moves, gains)) > 0) {
        int best = 0;
        for (int i = 1; i < n; i++)
            if (gains[i] > gains[best])
                best = i;
        total += b->g->apply(b->inst, cur, moves[best], next);
        memcpy(cur, next, b->ss);
    }
    return total + b->g->end_value(b->inst, cur);
}

/* The best value over every line; with `depth_left` >= 0 lines are finished
 * greedily after that many moves, with `candidates` > 0 only that many moves
 * of largest gain (the first ones on ties) are tried. Checks the upper bound
 * of the full game at every state (for the full search). */
static ps_value brute_value(struct brute *b, const void *state, int depth_left,
                            int candidates)
{
    ps_move moves[BRUTE_MAX_MOVES];
    ps_value gains[BRUTE_MAX_MOVES];
    bool used[BRUTE_MAX_MOVES] = {false};
    unsigned char next[BRUTE_MAX_STATE];
    int n = b->g->moves(b->inst, state, moves, gains);
    ps_value best;
    if (n == 0) {
        best = b->g->end_value(b->inst, state);
        if (board_empty(b, state))
            b->cleared_ever = true;
    } else if (depth_left == 0) {
        best = greedy_value(b, state);
    } else {
        best = INT64_MIN;
        int tries = candidates > 0 && candidates < n ? candidates : n;
        for (int t = 0; t < tries; t++) {
            int pick = -1; /* the largest unused gain, first on ties */
            for (int i = 0; i < n; i++)
                if (!used[i] && (pick < 0 || gains[i] > gains[pick]))
                    pick = i;
            used[pick] = true;
            ps_value gain = b->g->apply(b->inst, state, moves[pick], next);
            ps_value v = gain + brute_value(b, next,
                                            depth_left > 0 ? depth_left - 1 : -1,
                                            candidates);
            if (v > best)
                best = v;
        }
    }
    if (b->g->upper_bound) {
        ps_value ub = b->g->upper_bound(b->inst, state);
        if (ub < best)
            fail_msg("upper bound %lld below the true value %lld",
                     (long long)ub, (long long)best);
    }
    /* Every --heuristic (--bound) entry marked sound bounds it as well;
     * with a depth cap the value is a greedy finish, below the truth. */
    for (const struct ps_heuristic *e = b->g->heuristics; e && e->name; e++) {
        ps_value ub = e->fn(b->inst, state);
        if (e->admissible && ub < best)
            fail_msg("bound %s: %lld below the true value %lld", e->name,
                     (long long)ub, (long long)best);
    }
    return best;
}

static ps_value brute_search(const struct ps_game *g, const void *inst,
                             int max_depth, int candidates, bool *cleared_ever)
{
    struct brute b = {g, inst, g->state_size(inst), g->max_moves(inst), false};
    unsigned char start[BRUTE_MAX_STATE];
    assert_true(b.ss <= BRUTE_MAX_STATE && b.max_moves <= BRUTE_MAX_MOVES);
    g->initial_state(inst, start);
    ps_value v = brute_value(&b, start, max_depth > 0 ? max_depth : -1,
                             candidates);
    if (cleared_ever)
        *cleared_ever = b.cleared_ever;
    return v;
}

static ps_value brute_force(const struct ps_game *g, const void *inst,
                            bool *cleared_ever)
{
    return brute_search(g, inst, 0, 0, cleared_ever);
}

/* Run dfs and check that the best solution replays to the claimed value. */
static enum ps_status run_dfs(struct ps_search *s, const struct ps_game *g,
                              const void *inst, const struct ps_options *o,
                              const struct ps_limits *lim)
{
    ps_search_init(s, g, inst, lim, o);
    enum ps_status st = ps_search_run(s, dfs_algo());
    assert_true(s->best.found);
    unsigned char *final = malloc(s->state_size);
    struct ps_replay rep;
    struct ps_error err;
    ps_error_clear(&err);
    assert_non_null(final);
    if (!ps_replay_moves(g, inst, s->best.moves, s->best.len, final, &rep, &err))
        fail_msg("replay: %s", err.msg);
    assert_int_equal(rep.value, s->best.value);
    free(final);
    return st;
}

/* The value dfs finds with these options (verified by run_dfs); `mode` bit
 * 0 turns the bound off, bit 1 the memo. */
static ps_value dfs_value(const struct ps_game *g, const void *inst, int cand,
                          int depth, int mode, enum ps_status *st)
{
    struct ps_options o;
    ps_options_default(&o);
    test_option_int(&o, "candidates", cand);
    test_option_int(&o, "max-depth", depth);
    test_option_flag(&o, "no-bound", mode & 1);
    test_option_flag(&o, "no-memo", mode & 2);
    struct ps_search s;
    *st = run_dfs(&s, g, inst, &o, NULL);
    ps_value v = s.best.value;
    ps_search_free(&s);
    return v;
}

/* ---- exhaustive dfs equals brute force ---- */

/* Bound x memo: all four must prove the brute-force optimum on `text`. */
static void check_modes(const struct ps_game *g, const void *inst,
                        const char *label, int board, const char *text)
{
    ps_value want = brute_force(g, inst, NULL);
    for (int mode = 0; mode < 4; mode++) {
        enum ps_status st;
        ps_value got = dfs_value(g, inst, 0, 0, mode, &st);
        if (st != PS_OPTIMAL || got != want)
            fail_msg("%s board %d mode %d: dfs %lld (%s), brute force %lld\n%s",
                     label, board, mode, (long long)got, ps_status_name(st),
                     (long long)want, text);
    }
}

static void check_random_boards(const char *preset, enum table_kind kind,
                                uint64_t seed, int boards)
{
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, preset, kind);
    struct ps_rng rng;
    ps_rng_seed(&rng, seed);
    char text[64];
    for (int i = 0; i < boards; i++) {
        int rows = 2 + (int)ps_rng_below(&rng, 4), cols = 2 + (int)ps_rng_below(&rng, 4);
        random_board(&rng, rows, cols, 3, text);
        void *inst = test_load(g, rules, text);
        check_modes(g, inst, preset ? preset : "custom", i, text);
        g->free_instance(inst);
    }
    free(rules);
}

static void test_exhaustive_samegame(void **state)
{
    (void)state;
    check_random_boards("samegame", TABLE_PRESET, 11, 150);
}

static void test_exhaustive_popstar(void **state)
{
    (void)state;
    check_random_boards("popstar", TABLE_PRESET, 12, 150);
}

static void test_exhaustive_clickomania(void **state)
{
    (void)state;
    check_random_boards("clickomania", TABLE_PRESET, 13, 150);
}

static void test_exhaustive_jagged_table(void **state)
{
    (void)state;
    check_random_boards(NULL, TABLE_JAGGED, 14, 150);
}

static void test_exhaustive_dipped_table(void **state)
{
    (void)state;
    check_random_boards(NULL, TABLE_DIPPED, 15, 150);
}

/* Rules beyond the presets' defaults: min_group `min_group` (0: 2 or 3),
 * gravity on or off, every column shift, under the research, PopStar and
 * clearing presets and the jagged table. */
static void *variant_rules(const struct ps_game *g, struct ps_rng *rng,
                           int min_group)
{
    static const char *const presets[] = {"samegame", "popstar", "clickomania"};
    int pick = (int)ps_rng_below(rng, 4);
    void *rules = pick < 3 ? make_rules(g, presets[pick], TABLE_PRESET)
                           : make_rules(g, NULL, TABLE_JAGGED);
    test_set_param(g, rules, "min_group",
                   min_group ? min_group : 2 + (int)ps_rng_below(rng, 2));
    test_set_param(g, rules, "gravity", ps_rng_below(rng, 2));
    test_set_param(g, rules, "shift", ps_rng_below(rng, 3)); /* left right none */
    return rules;
}

/* A random board of `least` .. least + span - 1 rows and columns, 2..4
 * colours, under variant_rules (*rules, freed by the caller), loaded; its
 * text in `text`. */
static void *variant_board(const struct ps_game *g, struct ps_rng *rng,
                           int least, int span, void **rules, char *text)
{
    *rules = variant_rules(g, rng, 0);
    int rows = least + (int)ps_rng_below(rng, (uint32_t)span);
    int cols = least + (int)ps_rng_below(rng, (uint32_t)span);
    int colours = 2 + (int)ps_rng_below(rng, 3);
    random_board(rng, rows, cols, colours, text);
    return test_load(g, *rules, text);
}

/* dfs (bound x memo, so also the order by gain + child bound and the cuts
 * of children by bounded_moves) against brute force under the rule
 * variants, 2..4 colours. The brute force checks every sound bound at every
 * state it visits, so a bound that is too low somewhere fails here too. */
static void test_exhaustive_rule_variants(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_rng rng;
    ps_rng_seed(&rng, 16);
    char text[64];
    for (int i = 0; i < 240; i++) {
        void *rules;
        void *inst = variant_board(g, &rng, 2, 4, &rules, text);
        check_modes(g, inst, "variant", i, text);
        g->free_instance(inst);
        free(rules);
    }
}

/* bounded_moves lists what moves() lists, and each child's bound is
 * exactly upper_bound() of the child apply() makes: checked at every state
 * of random lines on boards up to 8x8, min_group 1..3, every rule
 * variant. */
static void test_bounded_moves_are_child_bounds(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    assert_non_null(g->bounded_moves);
    struct ps_rng rng;
    ps_rng_seed(&rng, 17);
    char text[128];
    enum { MAX = 65 };
    ps_move moves[MAX], bmoves[MAX];
    ps_value gains[MAX], bgains[MAX], bounds[MAX];
    for (int i = 0; i < 300; i++) {
        void *rules = variant_rules(g, &rng, 1 + (int)ps_rng_below(&rng, 3));
        int rows = 2 + (int)ps_rng_below(&rng, 7), cols = 2 + (int)ps_rng_below(&rng, 7);
        random_board(&rng, rows, cols, 2 + (int)ps_rng_below(&rng, 4), text);
        void *inst = test_load(g, rules, text);
        assert_true(g->max_moves(inst) <= MAX);
        size_t ss = g->state_size(inst);
        unsigned char *cur = malloc(ss), *child = malloc(ss);
        assert_non_null(cur);
        assert_non_null(child);
        g->initial_state(inst, cur);
        for (;;) {
            int n = g->moves(inst, cur, moves, gains);
            assert_int_equal(g->bounded_moves(inst, cur, bmoves, bgains, bounds), n);
            if (n == 0)
                break;
            for (int k = 0; k < n; k++) {
                assert_int_equal(bmoves[k], moves[k]);
                assert_int_equal(bgains[k], gains[k]);
                assert_int_equal(g->apply(inst, cur, moves[k], child), gains[k]);
                if (g->upper_bound(inst, child) != bounds[k])
                    fail_msg("board %d move %d: bounded_moves says %lld, "
                             "upper_bound of the child %lld\n%s", i, k,
                             (long long)bounds[k],
                             (long long)g->upper_bound(inst, child), text);
            }
            g->apply(inst, cur, moves[ps_rng_below(&rng, (uint32_t)n)], child);
            memcpy(cur, child, ss);
        }
        free(cur);
        free(child);
        g->free_instance(inst);
        free(rules);
    }
}

/* The dipped table on one colour of three cells in a row: only a pair can go
 * (20 points); the bound must not say score[3] = 0. */
static void test_bound_not_score_of_count(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, NULL, TABLE_DIPPED);
    unsigned char st[64];
    /* 1 1 2 1: the pair of 1s goes (20), the last 1 stays. */
    void *inst = test_load(g, rules, "1121\n");
    g->initial_state(inst, st);
    assert_int_equal(brute_force(g, inst, NULL), 20);
    assert_true(g->upper_bound(inst, st) >= 20);
    g->free_instance(inst);
    free(rules);
}

/* ---- the dead-colour facts ---- */

static int64_t cells_left(const struct ps_game *g, const void *inst,
                          const void *state)
{
    struct ps_fact facts[8];
    int n = g->facts(inst, state, facts, 8);
    for (int i = 0; i < n; i++)
        if (strcmp(facts[i].key, "cells_left") == 0)
            return facts[i].value;
    fail_msg("no cells_left fact");
    return -1;
}

/* Does the start position hold a single (a cell in no removable group)? */
static bool has_single(const struct ps_game *g, const void *inst)
{
    unsigned char st[64], next[64];
    ps_move moves[64];
    g->initial_state(inst, st);
    int n = g->moves(inst, st, moves, NULL);
    int64_t in_groups = 0;
    for (int i = 0; i < n; i++) {
        g->apply(inst, st, moves[i], next);
        in_groups += cells_left(g, inst, st) - cells_left(g, inst, next);
    }
    return in_groups < cells_left(g, inst, st);
}

/* Under the samegame rules (clear bonus 1000, every other gain far below):
 * brute force, the bound and dfs must all agree on whether the board can be
 * cleared. */
static void check_clearing(const char *const *boards, size_t count,
                           bool clears)
{
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    for (size_t i = 0; i < count; i++) {
        void *inst = test_load(g, rules, boards[i]);
        unsigned char st[64];
        g->initial_state(inst, st);
        assert_true(has_single(g, inst));
        bool cleared;
        ps_value v = brute_force(g, inst, &cleared);
        assert_int_equal(cleared, clears);
        assert_int_equal(v >= 1000, clears);
        assert_int_equal(g->upper_bound(inst, st) >= 1000, clears);
        struct ps_search s;
        assert_int_equal(run_dfs(&s, g, inst, NULL, NULL), PS_OPTIMAL);
        assert_int_equal(s.best.value, v);
        ps_search_free(&s);
        g->free_instance(inst);
    }
    free(rules);
}

/* Right: a colour with exactly one cell left can never be cleared, and the
 * bound drops the clear bonus (colour 3 has one cell on each board). */
static void test_single_colour_cell_never_clears(void **state)
{
    (void)state;
    static const char *const boards[] = {"11\n23\n22\n", "112\n232\n112\n",
                                         "3\n1\n1\n"};
    check_clearing(boards, sizeof boards / sizeof *boards, false);
}

/* Wrong: "a board with a single cell cannot be cleared" -- a single can join
 * a group of its colour later. Each board has a single yet clears, so the
 * bound must keep the clear bonus. */
static void test_board_with_single_can_clear(void **state)
{
    (void)state;
    static const char *const boards[] = {"1\n2\n2\n1\n", "121\n122\n",
                                         "1221\n"};
    check_clearing(boards, sizeof boards / sizeof *boards, true);
}

/* ---- heuristic modes and limits ---- */

static const char big_board[] = "3332311243\n"
                                "2434443121\n"
                                "3412112314\n"
                                "2322124142\n"
                                "4414223213\n"
                                "1142211334\n"
                                "2322334121\n"
                                "1213243342\n";

static void test_candidates_and_depth_are_heuristic(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    void *inst = test_load(g, rules, "1123\n2231\n3312\n1221\n");
    ps_value opt = brute_force(g, inst, NULL);
    struct ps_options o;
    ps_options_default(&o);
    test_option_int(&o, "candidates", 2);
    struct ps_search s;
    assert_int_equal(run_dfs(&s, g, inst, &o, NULL), PS_HEURISTIC);
    assert_non_null(strstr(s.note, "heuristic: --candidates 2"));
    assert_true(s.best.value <= opt);
    ps_search_free(&s);
    ps_options_default(&o);
    test_option_int(&o, "max-depth", 2);
    assert_int_equal(run_dfs(&s, g, inst, &o, NULL), PS_HEURISTIC);
    assert_non_null(strstr(s.note, "--max-depth 2"));
    assert_true(s.best.value <= opt);
    ps_search_free(&s);
    /* A depth cap beyond the longest game changes nothing but the label. */
    test_option_int(&o, "max-depth", 100);
    assert_int_equal(run_dfs(&s, g, inst, &o, NULL), PS_HEURISTIC);
    assert_int_equal(s.best.value, opt);
    ps_search_free(&s);
    g->free_instance(inst);
    free(rules);
}

/* Depth-capped and candidate searches equal their brute force, with and
 * without the memo and the bound (the memo keys entries by depth budget). */
static void test_heuristic_modes_match_brute_force(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    const char *presets[] = {"samegame", "popstar", "clickomania"};
    struct ps_rng rng;
    ps_rng_seed(&rng, 21);
    char text[64];
    for (int i = 0; i < 60; i++) {
        void *rules = make_rules(g, presets[i % 3], TABLE_PRESET);
        int rows = 3 + (int)ps_rng_below(&rng, 3), cols = 3 + (int)ps_rng_below(&rng, 3);
        random_board(&rng, rows, cols, 3, text);
        void *inst = test_load(g, rules, text);
        int cand = (int)ps_rng_below(&rng, 4);       /* 0..3, 0 = all */
        int depth = (int)ps_rng_below(&rng, 5);      /* 0..4, 0 = none */
        if (!cand && !depth)
            depth = 2;
        ps_value want = brute_search(g, inst, depth, cand, NULL);
        ps_value best = brute_search(g, inst, 0, 0, NULL);
        for (int mode = 0; mode < 4; mode++) {
            enum ps_status st;
            ps_value got = dfs_value(g, inst, cand, depth, mode, &st);
            /* Optimal only when the line reaches the start's upper bound. */
            assert_true(st == PS_HEURISTIC || (st == PS_OPTIMAL && got == best));
            if (got != want)
                fail_msg("board %d (K %d, D %d, mode %d): dfs %lld, brute force "
                         "%lld\n%s", i, cand, depth, mode, (long long)got,
                         (long long)want, text);
        }
        g->free_instance(inst);
        free(rules);
    }
}

/* On boards too big for brute force, the bound and the memo together agree
 * with the memo alone (no cuts: every entry exact) and with the bound alone
 * (no memo). Catches a memo that stores a cut subtree's value as exact. */
static void test_bound_memo_agree_6x6(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    const char *presets[] = {"samegame", "popstar", "clickomania"};
    struct ps_rng rng;
    ps_rng_seed(&rng, 51);
    char text[64];
    for (int i = 0; i < 45; i++) {
        void *rules = i < 36 ? make_rules(g, presets[i % 3], TABLE_PRESET)
                             : make_rules(g, NULL, TABLE_JAGGED);
        random_board(&rng, 6, 6, 4, text);
        void *inst = test_load(g, rules, text);
        ps_value got[3];
        for (int mode = 0; mode < 3; mode++) {
            enum ps_status st;
            got[mode] = dfs_value(g, inst, 0, 0, mode, &st); /* 0, 1, 2 */
            assert_int_equal(st, PS_OPTIMAL);
        }
        if (got[0] != got[1] || got[0] != got[2])
            fail_msg("board %d: bound+memo %lld, memo %lld, bound %lld\n%s", i,
                     (long long)got[0], (long long)got[1], (long long)got[2],
                     text);
        g->free_instance(inst);
        free(rules);
    }
}

static void test_node_limit_keeps_verified_best(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    void *inst = test_load(g, rules, big_board);
    struct ps_limits lim = {.max_nodes = 500};
    struct ps_search s;
    assert_int_equal(run_dfs(&s, g, inst, NULL, &lim), PS_INCOMPLETE);
    assert_int_equal(s.stop, PS_STOP_NODES);
    assert_true(s.stats.expanded <= 501);
    ps_search_free(&s);
    g->free_instance(inst);
    free(rules);
}

/* A memory limit stops the table, not the search: still optimal. The board
 * is the first random 5x5 one with more states than a table within 45000
 * bytes holds (beside dfs's own buffers, 1024 slots of 8 bytes, which fill
 * to 3/4 when doubling them does not fit: 768 entries of 24 bytes, an
 * 8-byte key and the payload). */
static void test_memory_limit_searches_on(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    struct ps_rng rng;
    ps_rng_seed(&rng, 41);
    char text[64];
    void *inst = NULL;
    struct ps_options o;
    ps_options_default(&o);
    test_option_flag(&o, "no-bound", true); /* more states to store */
    for (int tries = 0; tries < 100 && !inst; tries++) {
        random_board(&rng, 5, 5, 3, text);
        inst = test_load(g, rules, text);
        struct ps_search s;
        run_dfs(&s, g, inst, &o, NULL);
        if (s.stats.peak_table < 1100) {
            g->free_instance(inst);
            inst = NULL;
        }
        ps_search_free(&s);
    }
    assert_non_null(inst);
    ps_value want = brute_force(g, inst, NULL);
    struct ps_limits lim = {.max_memory = 45000};
    struct ps_search s;
    assert_int_equal(run_dfs(&s, g, inst, &o, &lim), PS_OPTIMAL);
    assert_int_equal(s.best.value, want);
    assert_true(s.stats.peak_memory <= 45000);
    assert_true(s.stats.peak_table > 0);
    assert_non_null(strstr(s.note, "table full"));
    ps_search_free(&s);
    g->free_instance(inst);
    free(rules);
}

/* ---- the incumbent rounds (score games) ---- */

/* dfs on `inst` with the given first beam width (0: the greedy line
 * only), mode (as dfs_value; + 4: no nrpa slices), threads and node
 * limit. */
/* A node budget no test reaches: a run budgeted in nodes is the same on
 * every machine (dfs's schedule is sized in nodes). */
#define NODES_ONLY (UINT64_C(1) << 50)

static enum ps_status run_rounds(struct ps_search *s, const struct ps_game *g,
                                 const void *inst, int beam, int mode,
                                 int threads, uint64_t max_nodes)
{
    struct ps_options o;
    ps_options_default(&o);
    test_option_int(&o, "dfs-beam", beam);
    if (mode & 4)
        test_option(&o, "dfs-nrpa", "0");
    test_option_flag(&o, "no-bound", mode & 1);
    test_option_flag(&o, "no-memo", mode & 2);
    o.threads = threads;
    struct ps_limits lim = {.max_nodes = max_nodes};
    return run_dfs(s, g, inst, &o, &lim);
}

/* Boards of 7x7, 4 colours, every rule variant: the rounds (beam, then the
 * exact search for a budget, again) prove what the plain search proves;
 * several rounds must really have run on some boards, or this checks
 * nothing. Only the bound and memo mode has rounds: without either there
 * is one beam and one exact search, and the exhaustive tests above run
 * that against brute force in all four modes. */
static void test_rounds_keep_exact_answer(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_rng rng;
    ps_rng_seed(&rng, 61);
    char text[128];
    int several = 0;
    for (int i = 0; i < 16; i++) {
        void *rules = variant_rules(g, &rng, 2);
        random_board(&rng, 7, 7, 4, text);
        void *inst = test_load(g, rules, text);
        struct ps_search a, b;
        assert_int_equal(run_rounds(&a, g, inst, 0, 0, 1, 0), PS_OPTIMAL);
        assert_int_equal(run_rounds(&b, g, inst, 16, 0, 1, 0), PS_OPTIMAL);
        if (a.best.value != b.best.value)
            fail_msg("board %d: plain %lld, rounds %lld\n%s", i,
                     (long long)a.best.value, (long long)b.best.value, text);
        if (b.stats.iterations > 1)
            several++;
        ps_search_free(&a);
        ps_search_free(&b);
        g->free_instance(inst);
        free(rules);
    }
    assert_true(several >= 3);
}

/* Each exact round starts down the best line so far, its moves first and
 * out of the bound order; a move of that line whose bound cannot beat the
 * best is cut alone, the rest are still searched in order. Narrow beams
 * (width 1 and 2) give poor lines to start from, so the best line's moves
 * are often cut there while a sibling is better: every rule variant, 2..4
 * colours, against brute force. */
static void test_best_line_first_keeps_optimum(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_rng rng;
    ps_rng_seed(&rng, 64);
    char text[64];
    for (int i = 0; i < 240; i++) {
        void *rules;
        void *inst = variant_board(g, &rng, 3, 3, &rules, text);
        ps_value want = brute_force(g, inst, NULL);
        for (int beam = 1; beam <= 2; beam++) {
            struct ps_search s;
            assert_int_equal(run_rounds(&s, g, inst, beam, 0, 1, 0), PS_OPTIMAL);
            if (s.best.value != want)
                fail_msg("board %d beam %d: dfs %lld, brute force %lld\n%s", i,
                         beam, (long long)s.best.value, (long long)want, text);
            ps_search_free(&s);
        }
        g->free_instance(inst);
        free(rules);
    }
}

/* A finished search under --max-nodes gives the same line for any
 * --threads (the beams are the same for any thread count, and the rounds
 * are cut by nodes, not by the clock), without nrpa's slices, whose
 * workers race (--dfs-nrpa 0). */
static void test_rounds_thread_count_independent(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    struct ps_rng rng;
    ps_rng_seed(&rng, 62);
    char text[128];
    for (int i = 0; i < 6; i++) {
        random_board(&rng, 7, 7, 4, text);
        void *inst = test_load(g, rules, text);
        struct ps_search one;
        assert_int_equal(run_rounds(&one, g, inst, 16, 4, 1, NODES_ONLY),
                         PS_OPTIMAL);
        for (int threads = 2; threads <= 3; threads++) {
            struct ps_search s;
            assert_int_equal(run_rounds(&s, g, inst, 16, 4, threads, NODES_ONLY),
                             PS_OPTIMAL);
            assert_int_equal(s.best.value, one.best.value);
            assert_int_equal(s.best.len, one.best.len);
            assert_memory_equal(s.best.moves, one.best.moves,
                                (size_t)one.best.len * sizeof *one.best.moves);
            assert_int_equal(s.stats.expanded, one.stats.expanded);
            ps_search_free(&s);
        }
        ps_search_free(&one);
        g->free_instance(inst);
    }
    free(rules);
}

/* A run stopped by --max-nodes in the middle of its rounds is incomplete,
 * not optimal, and its line still replays (run_dfs checks that); given
 * enough nodes the same board is proven. */
static void test_rounds_node_limit_not_optimal(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    struct ps_rng rng;
    ps_rng_seed(&rng, 63);
    char text[128];
    void *inst = NULL;
    struct ps_search full;
    for (int tries = 0; tries < 50 && !inst; tries++) {
        random_board(&rng, 7, 7, 4, text);
        inst = test_load(g, rules, text);
        assert_int_equal(run_rounds(&full, g, inst, 16, 0, 1, NODES_ONLY),
                         PS_OPTIMAL);
        if (full.stats.iterations < 3) {
            ps_search_free(&full);
            g->free_instance(inst);
            inst = NULL;
        }
    }
    assert_non_null(inst);
    struct ps_search s;
    uint64_t limit = full.stats.expanded - 1;
    assert_int_equal(run_rounds(&s, g, inst, 16, 0, 1, limit), PS_INCOMPLETE);
    assert_int_equal(s.stop, PS_STOP_NODES);
    assert_true(s.best.value <= full.best.value);
    ps_search_free(&s);
    assert_int_equal(run_rounds(&s, g, inst, 16, 0, 1, 4 * full.stats.expanded),
                     PS_OPTIMAL);
    assert_int_equal(s.best.value, full.best.value);
    ps_search_free(&s);
    ps_search_free(&full);
    g->free_instance(inst);
    free(rules);
}

/* --dfs-nrpa: a board whose first round does not finish gets nrpa slices
 * (its playouts show; --dfs-nrpa-after 0, the default: from the first
 * round on) under --time, --max-nodes and without any limit (the slices
 * grow with the nodes so far, so a stop by Ctrl-C finds them run), none
 * with --dfs-nrpa 0; and the exact search still proves the same optimum
 * in every case. The limits are far beyond what any case needs (under 2 s
 * here): the check is the answer, not a speed. */
static void test_nrpa_slices_keep_the_proof(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    void *inst = test_load(g, rules, "4441111\n4442243\n4141314\n1114341\n"
                                     "1314112\n2343123\n2142224\n");
    static const struct {
        const char *share;
        struct ps_limits lim;
        bool slices;
    } cases[] = {
        {"0.8", {.seconds = 600}, true},
        {"0.8", {.seconds = 0}, true},
        {"0.8", {.max_nodes = NODES_ONLY}, true},
        {"0", {.seconds = 600}, false},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct ps_options o;
        ps_options_default(&o);
        o.threads = 1;
        test_option(&o, "dfs-nrpa", cases[k].share);
        test_option(&o, "dfs-nrpa-after", "0");
        struct ps_limits lim = cases[k].lim;
        struct ps_search s;
        ps_search_init(&s, g, inst, &lim, &o);
        assert_int_equal(ps_search_run(&s, dfs_algo()), PS_OPTIMAL);
        assert_int_equal(s.best.value, 1179);
        assert_int_equal(s.stats.playouts > 0, cases[k].slices);
        ps_search_free(&s);
    }
    g->free_instance(inst);
    free(rules);
}

/* dfs's schedule on a score game (beams, rounds, nrpa slices) is sized in
 * nodes, never on the clock: with one thread a run under --max-nodes B is
 * the same run with or without a time limit that does not end it. So a
 * clock only decides where a run ends, and a longer --time goes on from
 * where a shorter one ended. (Before, the slices and the beams' widths
 * were sized on the clock: runs with --time differed from those without,
 * and a longer --time on a loaded machine ended lower on 2 of 6 boards.)
 * The 15x15 board does not finish, so every budget ends inside the
 * schedule. */
static void test_score_schedule_is_clock_free(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    struct ps_rng rng;
    ps_rng_seed(&rng, 71);
    char text[300];
    random_board(&rng, 15, 15, 5, text);
    void *inst = test_load(g, rules, text);
    for (uint64_t budget = 50000; budget <= 800000; budget *= 4) {
        struct ps_search a, b;
        struct ps_options o;
        ps_options_default(&o);
        o.threads = 1;
        struct ps_limits nodes = {.max_nodes = budget};
        struct ps_limits both = {.max_nodes = budget, .seconds = 3600};
        assert_int_equal(run_dfs(&a, g, inst, &o, &nodes), PS_INCOMPLETE);
        assert_int_equal(run_dfs(&b, g, inst, &o, &both), PS_INCOMPLETE);
        if (a.best.value != b.best.value ||
            a.stats.playouts != b.stats.playouts ||
            a.stats.iterations != b.stats.iterations)
            fail_msg("budget %llu: %lld, %llu playouts, %d rounds without "
                     "a time limit; %lld, %llu, %d with one",
                     (unsigned long long)budget, (long long)a.best.value,
                     (unsigned long long)a.stats.playouts,
                     (int)a.stats.iterations, (long long)b.best.value,
                     (unsigned long long)b.stats.playouts,
                     (int)b.stats.iterations);
        assert_true(a.stats.playouts > 0); /* nrpa's slices ran */
        ps_search_free(&a);
        ps_search_free(&b);
    }
    g->free_instance(inst);
    free(rules);
}

/* Runs dfs on the search s with progress lines on, its stderr caught in
 * line[0..size) (the lines it printed, as far as they fit). */
static enum ps_status run_dfs_catching_progress(struct ps_search *s,
                                                char *line, size_t size)
{
    FILE *err = tmpfile();
    assert_non_null(err);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(err), STDERR_FILENO) >= 0);
    s->progress = true;
    enum ps_status st = ps_search_run(s, dfs_algo());
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    rewind(err);
    size_t n = fread(line, 1, size - 1, err);
    line[n] = '\0';
    fclose(err);
    return st;
}

/* The progress line on stderr (about once a second): the best so far, the
 * nodes and their rate, the start's bound and the gap. The run is given
 * 1.5 s to print one; what is checked is the line's form, not a speed. */
static void test_progress_line(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    void *rules = make_rules(g, "samegame", TABLE_PRESET);
    struct ps_rng rng;
    ps_rng_seed(&rng, 64);
    char text[300];
    random_board(&rng, 15, 15, 5, text);
    void *inst = test_load(g, rules, text);
    struct ps_options o;
    ps_options_default(&o);
    o.threads = 1;
    struct ps_limits lim = {.seconds = 1.5};
    struct ps_search s;
    ps_search_init(&s, g, inst, &lim, &o);
    char line[512];
    assert_int_equal(run_dfs_catching_progress(&s, line, sizeof line),
                     PS_INCOMPLETE);
    double secs, rate;
    unsigned long long nodes, table;
    long long best, bound, gap;
    /* Between the table and the best: the playouts of the nrpa slices
     * (--dfs-nrpa), when any ran. */
    const char *tail = strstr(line, "  best ");
    if (sscanf(line, "\r[dfs] %lfs  nodes %llu (%lf/s)  table %llu", &secs,
               &nodes, &rate, &table) != 4 ||
        !tail ||
        sscanf(tail, "  best %lld  bound %lld  gap %lld", &best, &bound,
               &gap) != 3)
        fail_msg("progress line: '%s'", line);
    assert_true(nodes > 0 && best > 0);
    assert_int_equal(bound, s.root_bound);
    assert_int_equal(gap, bound - best);
    ps_search_free(&s);
    g->free_instance(inst);
    free(rules);
}

/* ---- a tiny synthetic cost game ----
 * A counter 0..size-1 walks to `target`. Each instance allows some of the
 * moves below, each with its cost; halving is free, so there are zero-cost
 * cycles (1 -> 0 -> 0 ...) and transpositions everywhere. The heuristic (if
 * enabled) is half the true distance, precomputed by Bellman-Ford: admissible
 * but not consistent. `scale` multiplies every cost (0 = 1): at 2^33 the
 * costs and bounds pass the 22 bits dfs's table entries keep. */
enum { CG_INC, CG_DEC, CG_DOUBLE, CG_HALF, CG_ADD5, CG_NMOVES };
static const ps_value cg_cost[CG_NMOVES] = {1, 1, 3, 0, 2};

struct cg_instance {
    int size, start, target;
    bool allowed[CG_NMOVES];
    bool use_h;
    bool score;        /* the score variant: see counter_score_game */
    ps_value scale;    /* every cost times this (0 = 1) */
    ps_value dist[4096]; /* true distance to the target, -1 = unreachable */
};

static int cg_next(const struct cg_instance *in, int v, int m)
{
    switch (m) {
    case CG_INC: return v + 1 < in->size ? v + 1 : -1;
    case CG_DEC: return v > 0 ? v - 1 : -1;
    case CG_DOUBLE: return 2 * v < in->size && v > 0 ? 2 * v : -1;
    case CG_HALF: return v / 2;
    case CG_ADD5: return v + 5 < in->size ? v + 5 : -1;
    }
    return -1;
}

static ps_value cg_cost_of(const struct cg_instance *in, int m)
{
    return cg_cost[m] * (in->scale ? in->scale : 1);
}

static unsigned cg_flags(const void *p)
{
    return ((const struct cg_instance *)p)->use_h ? PS_HAS_HEURISTIC : 0;
}
static size_t cg_state_size(const void *p) { (void)p; return sizeof(uint32_t); }
static void cg_initial(const void *p, void *s)
{
    uint32_t v = (uint32_t)((const struct cg_instance *)p)->start;
    memcpy(s, &v, sizeof v);
}
static int cg_max_moves(const void *p) { (void)p; return CG_NMOVES; }
static int cg_max_depth(const void *p) { return ((const struct cg_instance *)p)->size; }
static uint32_t cg_get(const void *s)
{
    uint32_t v;
    memcpy(&v, s, sizeof v);
    return v;
}
static uint64_t cg_hash(const void *p, const void *s)
{
    (void)p;
    return (cg_get(s) + 1) * 0x9e3779b97f4a7c15ULL;
}
static int cg_moves(const void *p, const void *s, ps_move *moves, ps_value *gains)
{
    const struct cg_instance *in = p;
    int n = 0;
    for (int m = 0; m < CG_NMOVES; m++)
        if (in->allowed[m] && cg_next(in, (int)cg_get(s), m) >= 0) {
            if (gains)
                gains[n] = cg_cost_of(in, m);
            moves[n++] = (ps_move)m;
        }
    return n;
}
static ps_value cg_apply(const void *p, const void *s, ps_move m, void *out)
{
    uint32_t v = (uint32_t)cg_next(p, (int)cg_get(s), (int)m);
    memcpy(out, &v, sizeof v);
    return cg_cost_of(p, (int)m);
}
static bool cg_goal(const void *p, const void *s)
{
    return (int)cg_get(s) == ((const struct cg_instance *)p)->target;
}
static ps_value cg_h(const void *p, const void *s)
{
    const struct cg_instance *in = p;
    ps_value d = in->dist[cg_get(s)];
    return d < 0 ? 0 : d / 2;
}
static void cg_format(const void *p, const void *s, ps_move m, char *buf, size_t len)
{
    (void)p;
    (void)s;
    snprintf(buf, len, "%u", (unsigned)m);
}
static void cg_print(const void *p, const void *s, FILE *out, bool ansi)
{
    (void)p;
    (void)ansi;
    fprintf(out, "%u\n", (unsigned)cg_get(s));
}

static const struct ps_game counter_game = {
    .name = "counter",
    .summary = "test-only cost game",
    .flags = 0,
    .instance_flags = cg_flags,
    .state_size = cg_state_size,
    .initial_state = cg_initial,
    .max_moves = cg_max_moves,
    .max_depth = cg_max_depth,
    .hash = cg_hash,
    .moves = cg_moves,
    .apply = cg_apply,
    .is_goal = cg_goal,
    .heuristic = cg_h,
    .format_move = cg_format,
    .print_state = cg_print,
};

/* --max-depth on a cost game: a solution within the cap is only labelled
 * heuristic, none within the cap proves nothing. */
static void test_cost_depth_cap_is_no_proof(void **state)
{
    (void)state;
    struct cg_instance in = {.size = 20, .start = 0, .target = 7};
    in.allowed[CG_INC] = true; /* only +1: the target is 7 moves away */
    struct ps_options o;
    ps_options_default(&o);
    test_option_int(&o, "max-depth", 3);
    struct ps_search s;
    ps_search_init(&s, &counter_game, &in, NULL, &o);
    assert_int_equal(ps_search_run(&s, dfs_algo()), PS_HEURISTIC);
    assert_false(s.best.found);
    assert_non_null(strstr(s.note, "no solution within --max-depth 3"));
    ps_search_free(&s);
    test_option_int(&o, "max-depth", 9);
    ps_search_init(&s, &counter_game, &in, NULL, &o);
    assert_int_equal(ps_search_run(&s, dfs_algo()), PS_HEURISTIC);
    assert_true(s.best.found);
    assert_int_equal(s.best.value, 7);
    ps_search_free(&s);
}

/* The score variant: only the moves that count up (so every game ends),
 * gains pseudo-random in 0..19 by number and move and an end value by v mod 5: the same
 * number is reached in different numbers of moves (+5 or five +1), which is
 * what a depth-capped memo must tell apart. */
static const int cg_up[] = {CG_INC, CG_DOUBLE, CG_ADD5};

static ps_value cg_score_gain(int v, int m)
{
    return (ps_value)(((uint32_t)(v * 31 + m * 17) * 2654435761u >> 7) % 20);
}

static int cg_score_moves(const void *p, const void *s, ps_move *moves,
                          ps_value *gains)
{
    const struct cg_instance *in = p;
    int v = (int)cg_get(s), n = 0;
    for (int k = 0; k < 3; k++) {
        int m = cg_up[k];
        if (in->allowed[m] && cg_next(in, v, m) >= 0) {
            if (gains)
                gains[n] = cg_score_gain(v, m);
            moves[n++] = (ps_move)m;
        }
    }
    return n;
}
static ps_value cg_score_apply(const void *p, const void *s, ps_move m, void *out)
{
    int v = (int)cg_get(s);
    cg_apply(p, s, m, out);
    return cg_score_gain(v, (int)m);
}
static ps_value cg_end(const void *p, const void *s)
{
    (void)p;
    return (ps_value)(cg_get(s) % 5) * 4 - 6;
}

static const struct ps_game counter_score_game = {
    .name = "counter-score",
    .summary = "test-only score game",
    .flags = PS_MAXIMISE,
    .state_size = cg_state_size,
    .initial_state = cg_initial,
    .max_moves = cg_max_moves,
    .max_depth = cg_max_depth,
    .hash = cg_hash,
    .moves = cg_score_moves,
    .apply = cg_score_apply,
    .end_value = cg_end,
    .format_move = cg_format,
    .print_state = cg_print,
};

static void test_score_counter_depth_cap_matches_brute_force(void **state)
{
    (void)state;
    struct ps_rng rng;
    ps_rng_seed(&rng, 61);
    for (int i = 0; i < 200; i++) {
        struct cg_instance in = {0};
        in.size = 8 + (int)ps_rng_below(&rng, 40);
        in.start = (int)ps_rng_below(&rng, (uint32_t)in.size);
        for (int m = 0; m < CG_NMOVES; m++)
            in.allowed[m] = ps_rng_below(&rng, 4) != 0;
        int cand = (int)ps_rng_below(&rng, 3);
        int depth = (int)ps_rng_below(&rng, 12);
        ps_value want = brute_search(&counter_score_game, &in, depth, cand, NULL);
        for (int mode = 0; mode <= 2; mode += 2) {
            enum ps_status st;
            ps_value got = dfs_value(&counter_score_game, &in, cand, depth,
                                     mode, &st);
            /* A restricted search is optimal only from a start without a
             * move (no upper bound here otherwise). */
            if (cand || depth)
                assert_true(st == PS_HEURISTIC ||
                            (st == PS_OPTIMAL &&
                             got == brute_search(&counter_score_game, &in, 0,
                                                 0, NULL)));
            else
                assert_int_equal(st, PS_OPTIMAL);
            if (got != want)
                fail_msg("instance %d (size %d start %d K %d D %d mode %d): dfs "
                         "%lld, brute force %lld", i, in.size, in.start, cand,
                         depth, mode, (long long)got, (long long)want);
        }
    }
}

/* Brute force: Bellman-Ford relaxation to the fixpoint, distances to target. */
static void cg_distances(struct cg_instance *in)
{
    for (int v = 0; v < in->size; v++)
        in->dist[v] = v == in->target ? 0 : -1;
    for (bool changed = true; changed;) {
        changed = false;
        for (int v = 0; v < in->size; v++)
            for (int m = 0; m < CG_NMOVES; m++) {
                int w = in->allowed[m] ? cg_next(in, v, m) : -1;
                if (w < 0 || in->dist[w] < 0)
                    continue;
                ps_value d = in->dist[w] + cg_cost_of(in, m);
                if (in->dist[v] < 0 || d < in->dist[v]) {
                    in->dist[v] = d;
                    changed = true;
                }
            }
    }
}

/* dfs's cost mode against Bellman-Ford on 400 counters, with and without
 * the heuristic and the table, at costs of 1-3, at 2^19 times that (g
 * passes the 22 bits a table entry keeps within a few moves: some g fit,
 * some do not) and at 2^33 times that (none fits, nor the bounds). */
static void test_cost_iddfs_matches_brute_force(void **state)
{
    (void)state;
    struct ps_rng rng;
    ps_rng_seed(&rng, 31);
    int unsolvable = 0, solved = 0;
    for (int i = 0; i < 400; i++) {
        struct cg_instance in = {0};
        in.scale = i % 3 == 1   ? (ps_value)1 << 19
                   : i % 3 == 2 ? (ps_value)1 << 33
                                : 1;
        in.size = 8 + (int)ps_rng_below(&rng, 40);
        in.start = (int)ps_rng_below(&rng, (uint32_t)in.size);
        in.target = (int)ps_rng_below(&rng, (uint32_t)in.size);
        for (int m = 0; m < CG_NMOVES; m++)
            in.allowed[m] = ps_rng_below(&rng, 3) != 0;
        cg_distances(&in);
        for (int mode = 0; mode < 4; mode++) {
            in.use_h = mode & 1;
            struct ps_options o;
            ps_options_default(&o);
            test_option_flag(&o, "no-memo", mode & 2);
            struct ps_search s;
            ps_search_init(&s, &counter_game, &in, NULL, &o);
            enum ps_status st = ps_search_run(&s, dfs_algo());
            if (in.dist[in.start] < 0) {
                assert_int_equal(st, PS_UNSOLVABLE);
                assert_false(s.best.found);
                unsolvable += mode == 0;
            } else {
                assert_int_equal(st, PS_OPTIMAL);
                assert_int_equal(s.best.value, in.dist[in.start]);
                unsigned char final[4];
                struct ps_replay rep;
                struct ps_error err;
                assert_true(ps_replay_moves(&counter_game, &in, s.best.moves,
                                            s.best.len, final, &rep, &err));
                assert_true(rep.over);
                assert_int_equal(rep.value, s.best.value);
                solved += mode == 0;
            }
            ps_search_free(&s);
        }
    }
    /* the instance mix covers both outcomes */
    assert_true(unsolvable >= 10);
    assert_true(solved >= 10);
}

/* A full table gives entries to new states (dfs.c, cost_entry_worth) and
 * the answer stays exact: counters of 2,000-4,000 states, in tables of
 * under 1,500 entries, against Bellman-Ford; 23 of the 100 runs fill
 * their table. Halving costs nothing, so states on the path may have the g of
 * the state that needs an entry: only their pin keeps them (the table
 * never gives away an entry of negative worth: test_framework.c). */
static void test_cost_full_table_matches_brute_force(void **state)
{
    (void)state;
    struct ps_rng rng;
    ps_rng_seed(&rng, 37);
    int evicting = 0;
    for (int i = 0; i < 100; i++) {
        struct cg_instance *in = calloc(1, sizeof *in);
        assert_non_null(in);
        in->size = 2000 + (int)ps_rng_below(&rng, 2000);
        in->start = (int)ps_rng_below(&rng, (uint32_t)in->size);
        for (int m = 0; m < CG_NMOVES; m++)
            in->allowed[m] = ps_rng_below(&rng, 3) != 0;
        in->allowed[CG_HALF] = true;
        /* targets at most 30 away: hundreds of rounds in a full table
         * take minutes */
        for (int t = 0; t < 100; t++) {
            in->target = (int)ps_rng_below(&rng, (uint32_t)in->size);
            cg_distances(in);
            if (in->dist[in->start] > 0 && in->dist[in->start] <= 30)
                break;
        }
        in->use_h = i % 2;
        struct ps_options o;
        ps_options_default(&o);
        test_option_int(&o, "dfs-cost-beam", 0);
        struct ps_limits lim = {.seconds = 60, .max_memory = 30 * 1024};
        struct ps_search s;
        ps_search_init(&s, &counter_game, in, &lim, &o);
        enum ps_status st = ps_search_run(&s, dfs_algo());
        if (in->dist[in->start] < 0) {
            assert_int_equal(st, PS_UNSOLVABLE);
        } else {
            if (st != PS_OPTIMAL || s.best.value != in->dist[in->start])
                fail_msg("counter %d of %d to %d: status %d, cost %lld, "
                         "exact %lld (%s)", in->start, in->size, in->target,
                         st, (long long)s.best.value,
                         (long long)in->dist[in->start], s.note);
        }
        evicting += strstr(s.note, "taken over by newer states") != NULL;
        ps_search_free(&s);
        free(in);
    }
    if (evicting < 15)
        fail_msg("only %d of 100 runs filled their table", evicting);
}

/* A counter of 4,096 states from start to target, with the moves whose
 * bits are set in `moves` (1 << CG_INC ...), its distances known; free()
 * it. */
static struct cg_instance *counter_of_4096(int start, int target,
                                           unsigned moves)
{
    struct cg_instance *in = calloc(1, sizeof *in);
    assert_non_null(in);
    in->size = 4096;
    in->start = start;
    in->target = target;
    for (int m = 0; m < CG_NMOVES; m++)
        in->allowed[m] = (moves >> m & 1) != 0;
    cg_distances(in);
    return in;
}

/* More rounds than a table entry's round field counts (2,047): the rounds
 * are counted again from 1, every entry's round made 0 first (dfs.c,
 * cost_rounds_restart). A counter of 4,096 states from 0 to 3,000 by +1,
 * with free halving (0 halves to itself: a cycle of zero cost, caught only
 * as a duplicate of the round), no heuristic: 3,001 rounds. Without the
 * restart, round 2,048 reads its own entries as another round's and walks
 * the cycle until a limit stops it. */
static void test_cost_rounds_past_the_round_field(void **state)
{
    (void)state;
    struct cg_instance *in =
        counter_of_4096(0, 3000, 1u << CG_INC | 1u << CG_HALF);
    assert_int_equal(in->dist[0], 3000);
    struct ps_options o;
    ps_options_default(&o);
    test_option_int(&o, "dfs-cost-beam", 0);
    struct ps_limits lim = {.seconds = 120, .max_nodes = 100000000};
    struct ps_search s;
    ps_search_init(&s, &counter_game, in, &lim, &o);
    enum ps_status st = ps_search_run(&s, dfs_algo());
    if (st != PS_OPTIMAL || s.best.value != 3000)
        fail_msg("status %d, cost %lld after %d rounds (%s)", st,
                 (long long)s.best.value, s.stats.iterations, s.note);
    assert_true(s.stats.iterations > 2047);
    ps_search_free(&s);
    free(in);
}

/* A cost round's progress line says where the round is: "at i/n ...",
 * for the path's first depths, which child of how many. A counter without
 * a table or a heuristic, whose rounds grow fast, is given 1.5 s to print
 * one; what is checked is the line's form. */
static void test_cost_progress_line_says_where(void **state)
{
    (void)state;
    struct cg_instance *in = counter_of_4096(1, 4000, (1u << CG_NMOVES) - 1);
    struct ps_options o;
    ps_options_default(&o);
    test_option_flag(&o, "no-memo", true);
    test_option_int(&o, "dfs-cost-beam", 0);
    struct ps_limits lim = {.seconds = 1.5};
    struct ps_search s;
    ps_search_init(&s, &counter_game, in, &lim, &o);
    char line[512];
    assert_int_equal(run_dfs_catching_progress(&s, line, sizeof line),
                     PS_INCOMPLETE);
    assert_null(s.progress_where); /* the run's dfs is gone */
    const char *at = strstr(line, "  at ");
    if (!at)
        fail_msg("no place in the progress line: '%s'", line);
    at += 5;
    int places = 0;
    for (int i, of, used; sscanf(at, "%d/%d%n", &i, &of, &used) == 2;
         at += used, places++)
        if (i < 1 || i > of || of > CG_NMOVES)
            fail_msg("child %d of %d in '%s'", i, of, line);
    if (places < 1 || places > 3)
        fail_msg("%d places in '%s'", places, line);
    ps_search_free(&s);
    free(in);
}

/* A checkpoint file's path: in memory where the system has a place for
 * that, since these runs write (and flush) the file at every place. */
static void ckpt_path(char *path, size_t len, const char *what)
{
    snprintf(path, len, "%s/psolve-test-%s-%d.ckpt",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", what,
             (int)getpid());
}

/* One run of dfs on a cost game (no lines' beam: the rounds find the goal) under
 * a node budget (0: none), writing its place to `save` or going on from
 * `resume` (NULL: neither). Returns its status; *value the cost found. */
static enum ps_status cost_run(const struct ps_game *g, void *in,
                               uint64_t budget, const char *save,
                               const char *resume, ps_value *value,
                               uint64_t *expanded)
{
    struct ps_options o;
    ps_options_default(&o);
    test_option_int(&o, "dfs-cost-beam", 0);
    struct ps_limits lim = {.max_nodes = budget};
    struct ps_search s;
    ps_search_init(&s, g, in, &lim, &o);
    static struct ps_checkpoint ck;
    if (save || resume) {
        char key[sizeof ck.key];
        ps_checkpoint_key(&s, dfs_algo(), NULL, 0, key, sizeof key);
        ps_checkpoint_init(&ck, save, 1e-9, key); /* at each safe point */
        ck.resumed = resume;
        struct ps_error err;
        if (resume && !ps_checkpoint_load(&ck, &err))
            fail_msg("cannot resume: %s", err.msg);
        s.checkpoint = &ck;
    }
    enum ps_status st = ps_search_run(&s, dfs_algo());
    *value = s.best.found ? s.best.value : -1;
    *expanded = s.stats.expanded;
    if (save || resume)
        ps_checkpoint_free(&ck);
    ps_search_free(&s);
    return st;
}

/* ---- a hand-built graph where a resumed round must keep what it had ----
 * R -1-> A -1-> C -2-> G2 (a goal at 4) and A -2-> G1 (the optimum, 3);
 * R -1-> B -1-> a binary tree of 255 nodes joined by free edges, each
 * leaf -10-> a dead end. Depth first visits A's side first. The round of
 * bound 2 is the first to enter the tree: it cuts 3 and 4 on A's side and
 * only 12 on B's, and spends most of its nodes in the tree, where a
 * checkpoint takes its place. A resumed round that forgot the least f cut
 * before its place (3) would try 12 next and meet G2 first; one that
 * forgot A's bound would store R's as 12 and do the same; one that stored
 * A's bound one too high (4) would skip the round of 3 and again meet G2
 * first. */
enum { GR_R, GR_A, GR_B, GR_C, GR_G1, GR_G2, GR_TREE, GR_TREE_NODES = 255,
       GR_DEAD = GR_TREE + GR_TREE_NODES, GR_NODES };

struct gr_instance {
    int child[GR_NODES][2]; /* -1: none */
    ps_value cost[GR_NODES][2];
};

static void gr_build(struct gr_instance *in)
{
    for (int v = 0; v < GR_NODES; v++)
        in->child[v][0] = in->child[v][1] = -1;
#define GR_EDGE(from, k, to, c) (in->child[from][k] = (to), in->cost[from][k] = (c))
    GR_EDGE(GR_R, 0, GR_A, 1);
    GR_EDGE(GR_R, 1, GR_B, 1);
    GR_EDGE(GR_A, 0, GR_C, 1);
    GR_EDGE(GR_A, 1, GR_G1, 2);
    GR_EDGE(GR_C, 0, GR_G2, 2);
    GR_EDGE(GR_B, 0, GR_TREE, 1);
    for (int j = 0; j < GR_TREE_NODES; j++) {
        if (2 * j + 2 < GR_TREE_NODES) {
            GR_EDGE(GR_TREE + j, 0, GR_TREE + 2 * j + 1, 0);
            GR_EDGE(GR_TREE + j, 1, GR_TREE + 2 * j + 2, 0);
        } else {
            GR_EDGE(GR_TREE + j, 0, GR_DEAD, 10);
        }
    }
#undef GR_EDGE
}

static void gr_initial(const void *p, void *s)
{
    (void)p;
    uint32_t v = GR_R;
    memcpy(s, &v, sizeof v);
}
static int gr_max_moves(const void *p) { (void)p; return 2; }
static int gr_max_depth(const void *p) { (void)p; return 16; }
static int gr_moves(const void *p, const void *s, ps_move *moves, ps_value *gains)
{
    const struct gr_instance *in = p;
    uint32_t v = cg_get(s);
    int n = 0;
    for (int k = 0; k < 2; k++)
        if (in->child[v][k] >= 0) {
            if (gains)
                gains[n] = in->cost[v][k];
            moves[n++] = (ps_move)k;
        }
    return n;
}
static ps_value gr_apply(const void *p, const void *s, ps_move m, void *out)
{
    const struct gr_instance *in = p;
    uint32_t v = cg_get(s), to = (uint32_t)in->child[v][m];
    memcpy(out, &to, sizeof to);
    return in->cost[v][m];
}
static bool gr_goal(const void *p, const void *s)
{
    (void)p;
    return cg_get(s) == GR_G1 || cg_get(s) == GR_G2;
}

static const struct ps_game graph_game = {
    .name = "graph",
    .summary = "test-only cost game",
    .state_size = cg_state_size,
    .initial_state = gr_initial,
    .max_moves = gr_max_moves,
    .max_depth = gr_max_depth,
    .hash = cg_hash,
    .moves = gr_moves,
    .apply = gr_apply,
    .is_goal = gr_goal,
    .format_move = cg_format,
    .print_state = cg_print,
};

static void test_resumed_round_keeps_what_it_had(void **state)
{
    (void)state;
    char path[64];
    ckpt_path(path, sizeof path, "graph");
    struct gr_instance *in = malloc(sizeof *in);
    assert_non_null(in);
    gr_build(in);
    ps_value value;
    uint64_t total, spent;
    assert_int_equal(cost_run(&graph_game, in, 0, NULL, NULL, &value, &total),
                     PS_OPTIMAL);
    assert_int_equal(value, 3);
    /* rounds 0 and 1 take 4 nodes, round 2 259: stopped at 200, the last
     * place (every 64 nodes) is in round 2's tree */
    remove(path);
    assert_int_equal(cost_run(&graph_game, in, 200, path, NULL, &value, &spent),
                     PS_INCOMPLETE);
    assert_int_equal(cost_run(&graph_game, in, 0, NULL, path, &value, &spent),
                     PS_OPTIMAL);
    assert_int_equal(value, 3);
    remove(path);
    free(in);
}

/* dfs's checkpoint of a cost game (dfs_place.h) against Bellman-Ford: 60
 * counters of 200-2,000 states with costs 0-3, each stopped at a fifth,
 * two fifths ... of its proof and resumed, every resumed run proves the
 * exact cost (or that there is none). The least f a round cut before its
 * place, and the bound of the children it had done, are what a resumed
 * round must keep; with costs this uneven a round's least f often lies on
 * one side of the place only. */
static void test_cost_resume_matches_brute_force(void **state)
{
    (void)state;
    char path[64];
    ckpt_path(path, sizeof path, "counters");
    struct ps_rng rng;
    ps_rng_seed(&rng, 41);
    int resumed = 0;
    for (int i = 0; i < 60; i++) {
        struct cg_instance *in = calloc(1, sizeof *in);
        assert_non_null(in);
        in->size = 200 + (int)ps_rng_below(&rng, 1800);
        in->start = (int)ps_rng_below(&rng, (uint32_t)in->size);
        for (int m = 0; m < CG_NMOVES; m++)
            in->allowed[m] = ps_rng_below(&rng, 3) != 0;
        for (int t = 0; t < 100; t++) { /* at most 30 away: seconds, not minutes */
            in->target = (int)ps_rng_below(&rng, (uint32_t)in->size);
            cg_distances(in);
            if (in->dist[in->start] <= 30)
                break;
        }
        in->use_h = i % 2;
        ps_value value;
        uint64_t total, spent;
        cost_run(&counter_game, in, 0, NULL, NULL, &value, &total);
        for (uint64_t k = 1; k < 5; k++) {
            remove(path);
            if (cost_run(&counter_game, in, total * k / 5, path, NULL, &value, &spent) !=
                    PS_INCOMPLETE ||
                access(path, F_OK) != 0)
                continue; /* done within the budget, or no place yet */
            enum ps_status st = cost_run(&counter_game, in, 0, NULL, path, &value, &spent);
            resumed++;
            ps_value want = in->dist[in->start];
            if (want < 0 ? st != PS_UNSOLVABLE
                         : st != PS_OPTIMAL || value != want)
                fail_msg("counter %d of %d to %d (h %d), stopped at %llu of "
                         "%llu nodes and resumed: status %d, cost %lld, exact "
                         "%lld",
                         in->start, in->size, in->target, in->use_h,
                         (unsigned long long)(total * k / 5),
                         (unsigned long long)total, st, (long long)value,
                         (long long)want);
        }
        free(in);
    }
    remove(path);
    if (resumed < 100)
        fail_msg("only %d runs resumed", resumed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exhaustive_samegame),
        cmocka_unit_test(test_exhaustive_popstar),
        cmocka_unit_test(test_exhaustive_clickomania),
        cmocka_unit_test(test_exhaustive_jagged_table),
        cmocka_unit_test(test_exhaustive_dipped_table),
        cmocka_unit_test(test_bound_not_score_of_count),
        cmocka_unit_test(test_exhaustive_rule_variants),
        cmocka_unit_test(test_bounded_moves_are_child_bounds),
        cmocka_unit_test(test_single_colour_cell_never_clears),
        cmocka_unit_test(test_board_with_single_can_clear),
        cmocka_unit_test(test_candidates_and_depth_are_heuristic),
        cmocka_unit_test(test_heuristic_modes_match_brute_force),
        cmocka_unit_test(test_bound_memo_agree_6x6),
        cmocka_unit_test(test_node_limit_keeps_verified_best),
        cmocka_unit_test(test_memory_limit_searches_on),
        cmocka_unit_test(test_rounds_keep_exact_answer),
        cmocka_unit_test(test_best_line_first_keeps_optimum),
        cmocka_unit_test(test_rounds_thread_count_independent),
        cmocka_unit_test(test_rounds_node_limit_not_optimal),
        cmocka_unit_test(test_nrpa_slices_keep_the_proof),
        cmocka_unit_test(test_score_schedule_is_clock_free),
        cmocka_unit_test(test_progress_line),
        cmocka_unit_test(test_resumed_round_keeps_what_it_had),
        cmocka_unit_test(test_cost_resume_matches_brute_force),
        cmocka_unit_test(test_cost_iddfs_matches_brute_force),
        cmocka_unit_test(test_cost_full_table_matches_brute_force),
        cmocka_unit_test(test_cost_rounds_past_the_round_field),
        cmocka_unit_test(test_cost_progress_line_says_where),
        cmocka_unit_test(test_cost_depth_cap_is_no_proof),
        cmocka_unit_test(test_score_counter_depth_cap_matches_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
