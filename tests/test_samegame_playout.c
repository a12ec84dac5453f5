/*
 * test_samegame_playout.c - SameGame's whole-playout slot (the bit-plane
 * engine, games/samegame/planes.h) against the byte engine: every line it
 * returns replays through moves()/apply() to the same value and ends in a
 * terminal state, on random boards from 1x1 to 31x32, under every rule
 * variant (min_group 1-4, gravity on/off, every shift, the presets), in each of its builds ($PSOLVE_SAMEGAME_PLAYOUT); its
 * first move is uniform over the groups (and a size-biased chooser fails
 * the same check); tabu lines never take the most frequent colour while
 * another colour has a group; rules it does not take are declined, and the
 * kernel's loop then plays them.
 */
#include <math.h>

#include "support.h"
#include "playout.h"
#include "rng.h"
#include "samegame_engines.h"

static const struct ps_game *G = &samegame_game;

/* The board printed, and counts[k]: its cells of colour k. */
static const char *board_colours(const void *inst, const void *s, int *counts)
{
    const char *text = test_print(G, inst, s);
    memset(counts, 0, 10 * sizeof *counts);
    for (const char *t = text; *t; t++)
        if (*t >= '1' && *t <= '9')
            counts[*t - '0']++;
    return text;
}

/* The colour of move m (its anchor cell) on the printed board. */
static int colour_of_move(const char *text, int rows, int cols, ps_move m)
{
    int c = (int)m / rows, r = (int)m % rows;
    return text[(rows - 1 - r) * (cols + 1) + c] - '0';
}

static int most_frequent(const int *counts)
{
    int top = 0;
    for (int k = 1; k <= 9; k++)
        if (counts[k] > (top ? counts[top] : 0))
            top = k;
    return top;
}

/* Replay line[0..len) from s: every move legal, the gains and the end value
 * sum to `value`, the last state terminal; with `tabu`, no move of the most
 * frequent colour while a move of another exists. */
static void check_line(const void *inst, const void *start, int rows, int cols,
                       const ps_move *line, int len, ps_value value, bool tabu)
{
    size_t size = G->state_size(inst);
    unsigned char *s = malloc(size), *next = malloc(size);
    ps_move *moves = malloc((size_t)G->max_moves(inst) * sizeof *moves);
    assert_true(s && next && moves);
    memcpy(s, start, size);
    ps_value sum = 0;
    for (int i = 0; i < len; i++) {
        int n = G->moves(inst, s, moves, NULL), found = 0, other = 0;
        int counts[10], tabu_colour = 0;
        const char *text = tabu ? board_colours(inst, s, counts) : NULL;
        if (tabu)
            tabu_colour = most_frequent(counts);
        for (int j = 0; j < n; j++) {
            found += moves[j] == line[i];
            if (tabu)
                other += colour_of_move(text, rows, cols, moves[j]) != tabu_colour;
        }
        if (!found)
            fail_msg("move %d of %d (cell %u) is not legal", i, len,
                     (unsigned)line[i]);
        if (tabu && other)
            assert_int_not_equal(colour_of_move(text, rows, cols, line[i]),
                                 tabu_colour);
        sum += G->apply(inst, s, line[i], next);
        memcpy(s, next, size);
    }
    assert_int_equal(G->moves(inst, s, moves, NULL), 0);
    assert_int_equal(sum + G->end_value(inst, s), value);
    free(s);
    free(next);
    free(moves);
}

/* One random board and rule variant: a few byte-engine moves first (short
 * columns, holes without gravity, empty columns), then playouts from there
 * in every build. */
static void check_variant(struct ps_rng *rng, const char *preset, int min_group,
                          bool gravity, int shift, int rows, int cols,
                          int colours)
{
    void *rules = test_rules(G, preset);
    test_set_param(G, rules, "min_group", min_group);
    test_set_param(G, rules, "gravity", gravity);
    test_set_param(G, rules, "shift", shift);
    char *text = random_text(rng, rows, cols, colours);
    int warmup = (int)ps_rng_below(rng, 4), first_len[4];
    static ps_move first_line[4][32 * 32 + 2];
    uint64_t seed = ps_rng_next(rng);
    for (int e = 0; e < ENGINES; e++) {
        void *inst = load_with(engines[e], rules, text);
        unsigned char *s = test_initial(G, inst);
        unsigned char *next = malloc(G->state_size(inst));
        ps_move *moves = malloc((size_t)G->max_moves(inst) * sizeof *moves);
        ps_move *line = malloc(((size_t)G->max_depth(inst) + 1) * sizeof *line);
        assert_true(next && moves && line);
        struct ps_rng r;
        ps_rng_seed(&r, seed);
        for (int k = 0; k < warmup; k++) { /* the same moves in every build */
            int n = G->moves(inst, s, moves, NULL);
            if (n == 0)
                break;
            G->apply(inst, s, moves[ps_rng_below(&r, (uint32_t)n)], next);
            memcpy(s, next, G->state_size(inst));
        }
        for (int p = 0; p < 4; p++) {
            const struct ps_policy *pol = p & 1 ? &G->policies[p / 2] : NULL;
            int len = -1;
            ps_value value = 0;
            assert_true(G->playout(inst, s, pol, &r, 0, line, &len, &value));
            check_line(inst, s, rows, cols, line, len, value, pol != NULL);
            /* The builds differ in instructions only: from the same seed,
             * the same line. */
            if (e == 0) {
                first_len[p] = len;
                memcpy(first_line[p], line, (size_t)len * sizeof *line);
            } else {
                assert_int_equal(len, first_len[p]);
                assert_memory_equal(line, first_line[p],
                                    (size_t)len * sizeof *line);
            }
        }
        free(line);
        free(moves);
        free(next);
        test_release(G, inst, s, NULL);
    }
    free(text);
    free(rules);
}

static void test_lines_replay(void **state)
{
    (void)state;
    static const char *const presets[] = {NULL, "popstar", "clickomania"};
    struct ps_rng rng;
    ps_rng_seed(&rng, 20261201);
    for (int k = 0; k < 320; k++) {
        bool wide = k % 4 == 3; /* the 32-bit lanes, up to 31 x 32 */
        int rows = 1 + (int)ps_rng_below(&rng, wide ? 31 : 15);
        int cols = 1 + (int)ps_rng_below(&rng, wide ? 32 : 16);
        if (k < 12) { /* the corners: 1x1 and the largest of each geometry */
            static const int corner[4][2] = {{1, 1}, {15, 16}, {16, 1}, {31, 32}};
            rows = corner[k % 4][0];
            cols = corner[k % 4][1];
        }
        int shift = (int)ps_rng_below(&rng, 3); /* left, right, none */
        check_variant(&rng, presets[k % 3], 1 + (int)ps_rng_below(&rng, 4),
                      ps_rng_below(&rng, 4) != 0, shift, rows, cols,
                      1 + (int)ps_rng_below(&rng, 9));
    }
}

/* A random score table: the slot must use the rules' table, whatever it is. */
static void test_random_score_table(void **state)
{
    (void)state;
    struct ps_rng rng;
    ps_rng_seed(&rng, 7);
    void *rules = test_rules(G, NULL);
    int64_t *score = test_table(G, rules, "score");
    int64_t *end_bonus = test_table(G, rules, "end_bonus");
    const struct ps_param *p = test_param(G, "score");
    for (int i = 0; i < p->table_len * p->table_rows; i++) /* by colour too */
        score[i] = (int64_t)ps_rng_below(&rng, 2001) - 1000;
    for (int n = 0; n <= 32 * 32; n++)
        end_bonus[n] = (int64_t)ps_rng_below(&rng, 2001) - 1000;
    char *text = random_text(&rng, 12, 14, 4);
    void *inst = load_with(NULL, rules, text);
    unsigned char *s = test_initial(G, inst);
    ps_move line[12 * 14 + 1];
    for (int p = 0; p < 20; p++) {
        int len;
        ps_value value;
        assert_true(G->playout(inst, s, NULL, &rng, 0, line, &len, &value));
        check_line(inst, s, 12, 14, line, len, value, false);
    }
    test_release(G, inst, s, rules);
    free(text);
}

/* A board with groups of sizes 1, 4 and 5 (min_group 1; clickomania: a
 * move's gain is its size). */
static const char uniform_board[] = "1122\n"
                                    "1132\n"
                                    "3332\n"
                                    "1212\n";
#define DRAWS 60000

/* Is every group's count within 6 standard deviations of DRAWS / n? A
 * fixed seed makes the outcome fixed; a uniform chooser fails it with
 * probability about 1e-8 per group. */
static bool counts_uniform(const int *counts, int n)
{
    double expect = (double)DRAWS / n, sd = sqrt(expect * (1.0 - 1.0 / n));
    for (int i = 0; i < n; i++)
        if (fabs(counts[i] - expect) > 6 * sd)
            return false;
    return true;
}

/* The first moves of DRAWS playouts on `board` against the groups' sizes:
 * uniform, and a size-biased chooser (a uniform cell's group: rejection
 * without the acceptance step) fails the same check. */
static void check_first_move_uniform(const char *board, int min_group)
{
    void *rules = test_rules(G, "clickomania");
    test_set_param(G, rules, "min_group", min_group);
    for (int e = 0; e < ENGINES; e++) {
        void *inst = load_with(engines[e], rules, board);
        unsigned char *s = test_initial(G, inst);
        int most = G->max_moves(inst);
        ps_move *moves = malloc((size_t)most * sizeof *moves);
        ps_move *line = malloc((size_t)(G->max_depth(inst) + 1) * sizeof *line);
        ps_value *gains = malloc((size_t)most * sizeof *gains);
        int *counts = calloc((size_t)most, sizeof *counts);
        int *biased = calloc((size_t)most, sizeof *biased);
        assert_true(moves && line && gains && counts && biased);
        int n = G->moves(inst, s, moves, gains), cells = 0;
        bool sizes_differ = false;
        for (int i = 0; i < n; i++) {
            sizes_differ |= gains[i] != gains[0];
            cells += (int)gains[i];
        }
        assert_true(sizes_differ);
        struct ps_rng rng;
        ps_rng_seed(&rng, 99);
        for (int d = 0; d < DRAWS; d++) {
            int len;
            ps_value value;
            assert_true(G->playout(inst, s, NULL, &rng, 0, line, &len, &value));
            for (int i = 0; i < n; i++)
                counts[i] += moves[i] == line[0];
            int cell = (int)ps_rng_below(&rng, (uint32_t)cells), i = 0;
            while (cell >= gains[i])
                cell -= (int)gains[i++];
            biased[i]++;
        }
        assert_true(counts_uniform(counts, n));
        assert_false(counts_uniform(biased, n));
        free(moves);
        free(line);
        free(gains);
        free(counts);
        free(biased);
        test_release(G, inst, s, NULL);
    }
    free(rules);
}

static void test_first_move_uniform(void **state)
{
    (void)state;
    check_first_move_uniform(uniform_board, 1);
    /* 16 rows: the 32-bit lanes; min_group 3: groups of 2 are candidates
     * that are never accepted */
    static const char tall[] = "11\n11\n12\n22\n21\n11\n13\n33\n"
                               "31\n12\n22\n23\n33\n31\n11\n12\n";
    check_first_move_uniform(tall, 1);
    check_first_move_uniform(tall, 3);
}

/* Tabu: the first move is uniform over the groups of the other colours.
 * Colours 1 and 2 have 6 cells each, so 1 is the tabu colour (the lowest on
 * a tie); the others form three groups, of 4, 2 and 4 cells. */
static void test_tabu_first_move_uniform(void **state)
{
    (void)state;
    void *rules = test_rules(G, "clickomania");
    test_set_param(G, rules, "min_group", 1);
    static const char board[] = "1111\n"
                                "2311\n"
                                "2332\n"
                                "2232\n";
    void *inst = load_with(NULL, rules, board);
    unsigned char *s = test_initial(G, inst);
    ps_move moves[17], line[17];
    int n = G->moves(inst, s, moves, NULL), counts[17] = {0}, cnt[10];
    bool tabu[17];
    int allowed = 0;
    const char *text = board_colours(inst, s, cnt);
    for (int i = 0; i < n; i++) {
        tabu[i] = colour_of_move(text, 4, 4, moves[i]) == 1;
        allowed += !tabu[i];
    }
    assert_int_equal(most_frequent(cnt), 1);
    assert_true(allowed >= 3);
    struct ps_rng rng;
    ps_rng_seed(&rng, 5);
    for (int d = 0; d < DRAWS; d++) {
        int len;
        ps_value value;
        assert_true(G->playout(inst, s, &G->policies[0], &rng, 0, line, &len,
                               &value));
        for (int i = 0; i < n; i++)
            counts[i] += moves[i] == line[0];
    }
    int kept[17], k = 0;
    for (int i = 0; i < n; i++) {
        if (tabu[i])
            assert_int_equal(counts[i], 0);
        else
            kept[k++] = counts[i];
    }
    double expect = (double)DRAWS / k;
    for (int i = 0; i < k; i++)
        assert_true(fabs(kept[i] - expect) < 6 * sqrt(expect));
    test_release(G, inst, s, rules);
}

static bool takes(const char *engine, void *rules, int rows, int cols,
                  const struct ps_policy *policy)
{
    struct ps_rng rng;
    ps_rng_seed(&rng, 1);
    char *text = random_text(&rng, rows, cols, 3);
    void *inst = load_with(engine, rules, text);
    unsigned char *s = test_initial(G, inst);
    ps_move *line = malloc(((size_t)G->max_depth(inst) + 1) * sizeof *line);
    assert_non_null(line);
    int len;
    ps_value value;
    bool took = G->playout(inst, s, policy, &rng, 0, line, &len, &value);
    free(line);
    test_release(G, inst, s, NULL);
    free(text);
    return took;
}

static int other_choose(const void *inst, const void *state,
                        const ps_move *moves, const ps_value *gains, int n,
                        struct ps_rng *rng)
{
    (void)inst, (void)state, (void)moves, (void)gains, (void)rng;
    return n - 1;
}

static void test_declines(void **state)
{
    (void)state;
    void *rules = test_rules(G, NULL);
    assert_true(takes(NULL, rules, 15, 16, NULL));
    assert_true(takes(NULL, rules, 15, 16, &G->policies[2]));
    assert_true(takes(NULL, rules, 31, 32, NULL));
    assert_false(takes(NULL, rules, 32, 32, NULL));
    assert_false(takes("bytes", rules, 10, 10, NULL));
    const struct ps_policy other = {"other", "last move", false, other_choose,
                                    NULL, NULL, NULL};
    assert_false(takes(NULL, rules, 10, 10, &other));
    test_set_param(G, rules, "min_group", 3);
    assert_true(takes(NULL, rules, 10, 10, NULL));
    free(rules);
}

/* Where the slot declines, the kernel's loop plays: ps_playout_run's line
 * replays too (32x32). And where it takes (10x10), p->length is set. */
static void test_kernel_falls_back(void **state)
{
    (void)state;
    struct ps_rng rng;
    ps_rng_seed(&rng, 3);
    for (int v = 0; v < 2; v++) {
        void *rules = test_rules(G, NULL);
        int rows = v ? 32 : 10;
        test_set_param(G, rules, "min_group", v ? 3 : 2);
        char *text = random_text(&rng, rows, rows, 3);
        void *inst = load_with(NULL, rules, text);
        unsigned char *s = test_initial(G, inst);
        struct ps_playout p;
        assert_true(ps_playout_init(&p, G, inst));
        for (int k = 0; k < 5; k++) {
            ps_value value = ps_playout_run(&p, s, &rng, 0);
            check_line(inst, s, rows, rows, p.line, p.length, value, false);
        }
        ps_playout_free(&p);
        test_release(G, inst, s, rules);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_replay),
        cmocka_unit_test(test_random_score_table),
        cmocka_unit_test(test_first_move_uniform),
        cmocka_unit_test(test_tabu_first_move_uniform),
        cmocka_unit_test(test_declines),
        cmocka_unit_test(test_kernel_falls_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
