/*
 * test_samegame_walk.c - SameGame's group listing in bit planes against the
 * byte engine: on random boards from 1x1 to 31x32 under every rule variant
 * (min_group 1-4, gravity on/off, every shift, the presets), along random
 * lines, in each build ($PSOLVE_SAMEGAME_PLAYOUT), the walk slots (nrpa's)
 * list exactly the byte engine's moves in its order, with the codes and
 * prior of every policy, gains and end value as apply()/end_value() give
 * them; and evaluate_moves() gives each child's evaluate(), on both
 * engines (moves(), bounded_moves() and evaluate() are the byte engine's
 * on both; checked too). Identical answers are what keeps nrpa and beam
 * giving the same results at equal node budgets on either engine.
 */
#include "support.h"
#include "rng.h"
#include "samegame_engines.h"

static const struct ps_game *G = &samegame_game;

/* The codes and prior that nrpa would compute on the byte engine. */
static void byte_codes(const void *inst, const struct ps_policy *pol,
                       const void *s, const ps_move *moves, int n,
                       uint32_t *codes, double *prior)
{
    if (pol && pol->move_codes)
        pol->move_codes(inst, s, moves, n, codes);
    else
        G->move_codes(inst, s, moves, n, codes);
    if (pol && pol->bias)
        pol->bias(inst, s, moves, n, prior);
}

/* evaluate_moves_weighted on both engines gives the same values, under
 * the game's default weights and under today's evaluate()'s (groups,
 * join_* and the shares 1 but share_top 0.75, loose 2, the rest 0), which
 * give evaluate_moves()'s values b1 up to its rounding (evaluate() rounds
 * each colour's term down, the weighted one only the sum: at most one
 * point per colour and one for the loose cells). */
static void check_weighted(const void *bytes, const void *fast, const void *s,
                           const ps_move *m, int n, const ps_value *b1,
                           ps_value *b2)
{
    double w[PS_MAX_EVAL_WEIGHTS] = {0};
    int nw = 0;
    for (; G->eval_weights[nw].name; nw++)
        w[nw] = G->eval_weights[nw].def;
    ps_value v1[1024], v2[1024];
    assert_true(n <= 1024);
    G->evaluate_moves_weighted(bytes, w, s, m, n, v1);
    G->evaluate_moves_weighted(fast, w, s, m, n, v2);
    assert_memory_equal(v1, v2, (size_t)n * sizeof *v1);
    for (int k = 0; k < nw; k++) {
        const char *name = G->eval_weights[k].name;
        w[k] = strcmp(name, "share_top") == 0 ? 0.75
               : strcmp(name, "loose") == 0   ? 2
               : strncmp(name, "join_", 5) == 0 || strncmp(name, "share_", 6) == 0 ||
                       strcmp(name, "groups") == 0
                   ? 1
                   : 0;
    }
    G->evaluate_moves_weighted(fast, w, s, m, n, v2);
    for (int i = 0; i < n; i++) {
        b2[i] = v2[i] - b1[i];
        assert_true(b2[i] >= -1 && b2[i] <= 10);
    }
}

/* Walk one random line from the start under policy pol on the fast
 * instance, checking every position against the byte instance. */
static void walk_line(const void *bytes, const void *fast,
                      const struct ps_policy *pol, struct ps_rng *rng)
{
    /* the byte-state slots do not depend on the policy: once a board */
    const bool slots = pol == NULL;
    size_t size = G->state_size(bytes);
    int nmax = G->max_moves(bytes);
    unsigned char *s = test_initial(G, bytes), *next = malloc(size);
    ps_move *m1 = malloc((size_t)nmax * sizeof *m1);
    ps_move *m2 = malloc((size_t)nmax * sizeof *m2);
    ps_value *g1 = malloc((size_t)nmax * sizeof *g1);
    ps_value *g2 = malloc((size_t)nmax * sizeof *g2);
    ps_value *b1 = malloc((size_t)nmax * sizeof *b1);
    ps_value *b2 = malloc((size_t)nmax * sizeof *b2);
    uint32_t *c1 = malloc((size_t)nmax * sizeof *c1);
    uint32_t *c2 = malloc((size_t)nmax * sizeof *c2);
    double *p1 = calloc((size_t)nmax, sizeof *p1);
    double *p2 = calloc((size_t)nmax, sizeof *p2);
    void *walk = calloc(1, G->walk_size(fast));
    assert_true(next && m1 && m2 && g1 && g2 && b1 && b2 && c1 && c2 && p1 &&
                p2 && walk);
    assert_false(G->walk_start(bytes, pol, s, walk)); /* bytes: declined */
    bool has_prior = pol && pol->bias;
    /* twice from the start with one walk: the second starts from what the
     * walk kept of the first */
    for (int rep = 0; rep < 2; rep++) {
        G->initial_state(bytes, s);
        assert_true(G->walk_start(fast, pol, s, walk));
        for (;;) {
            int n = G->moves(bytes, s, m1, g1);
            if (slots && rep == 0) {
                /* the slots on byte states, on both engines */
                assert_int_equal(G->moves(fast, s, m2, g2), n);
                assert_memory_equal(m1, m2, (size_t)n * sizeof *m1);
                assert_memory_equal(g1, g2, (size_t)n * sizeof *g1);
                assert_int_equal(G->bounded_moves(bytes, s, m1, g1, b1), n);
                assert_int_equal(G->bounded_moves(fast, s, m2, g2, b2), n);
                assert_memory_equal(b1, b2, (size_t)n * sizeof *b1);
                assert_int_equal(G->evaluate(bytes, s), G->evaluate(fast, s));
                /* evaluate_moves: each child's evaluate(), on both engines */
                G->evaluate_moves(fast, s, m1, n, b2);
                G->evaluate_moves(bytes, s, m1, n, b1);
                for (int i = 0; i < n; i++) {
                    G->apply(bytes, s, m1[i], next);
                    assert_int_equal(b1[i], G->evaluate(bytes, next));
                    assert_int_equal(b2[i], b1[i]);
                }
                check_weighted(bytes, fast, s, m1, n, b1, b2);
            }
            /* the walk */
            int w = G->walk_moves(fast, walk, m2, c2, has_prior ? p2 : NULL);
            assert_int_equal(w, n);
            assert_memory_equal(m1, m2, (size_t)n * sizeof *m1);
            if (n == 0)
                break;
            byte_codes(bytes, pol, s, m1, n, c1, p1);
            assert_memory_equal(c1, c2, (size_t)n * sizeof *c1);
            if (has_prior)
                assert_memory_equal(p1, p2, (size_t)n * sizeof *p1);
            int pick = (int)ps_rng_below(rng, (uint32_t)n);
            assert_int_equal(G->walk_play(fast, walk, pick),
                             G->apply(bytes, s, m1[pick], next));
            memcpy(s, next, size);
        }
        assert_int_equal(G->walk_end(fast, walk), G->end_value(bytes, s));
    }
    free(walk);
    free(p2);
    free(p1);
    free(c2);
    free(c1);
    free(b2);
    free(b1);
    free(g2);
    free(g1);
    free(m2);
    free(m1);
    free(next);
    test_release(G, NULL, s, NULL);
}

static void test_walks_match_bytes(void **state)
{
    (void)state;
    static const char *const presets[] = {NULL, "popstar", "clickomania"};
    struct ps_rng rng;
    ps_rng_seed(&rng, 20261202);
    for (int k = 0; k < 150; k++) {
        bool wide = k % 4 == 3; /* the 32-bit lanes, up to 31 x 32 */
        int rows = 1 + (int)ps_rng_below(&rng, wide ? 31 : 15);
        int cols = 1 + (int)ps_rng_below(&rng, wide ? 32 : 16);
        if (k < 8) {
            static const int corner[4][2] = {{1, 1}, {15, 16}, {16, 1}, {31, 32}};
            rows = corner[k % 4][0];
            cols = corner[k % 4][1];
        }
        void *rules = test_rules(G, presets[k % 3]);
        test_set_param(G, rules, "min_group", 1 + (int)ps_rng_below(&rng, 4));
        test_set_param(G, rules, "gravity", ps_rng_below(&rng, 4) != 0);
        test_set_param(G, rules, "shift", (int)ps_rng_below(&rng, 3));
        char *text = random_text(&rng, rows, cols,
                                 1 + (int)ps_rng_below(&rng, 9));
        void *bytes = load_with("bytes", rules, text);
        /* every engine under every preset, narrow and wide (k mod 36) */
        const char *engine = engines[k / 3 % ENGINES];
        void *fast = load_with(engine, rules, text);
        walk_line(bytes, fast, NULL, &rng);
        for (const struct ps_policy *pol = G->policies; pol->name; pol++)
            walk_line(bytes, fast, pol, &rng);
        test_release(G, bytes, NULL, NULL);
        test_release(G, fast, NULL, rules);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walks_match_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
