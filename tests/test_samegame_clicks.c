/*
 * test_samegame_clicks.c - SameGame's cost objective fewest_clicks (NRK's
 * Former): the exact cost of every state reached from every 4x4 board of
 * two colours, and of many 4x4 and 5x5 boards of three and four colours,
 * computed by a plain memoised search here; every heuristic of the game is
 * at most that cost and consistent; bfs, astar, idastar and dfs (with and
 * without their tables) all find exactly that cost; hand-worked boards.
 */
#include "support.h"

#include "cost_beam.h"
#include "rng.h"
#include "samegame_engines.h"

extern const struct ps_game samegame_game;
static const struct ps_game *G = &samegame_game;

enum { OBJECTIVE_FEWEST_CLICKS = 3, SHIFT_LEFT = 0, SHIFT_NONE = 2 };
#define UNCLEARABLE 1000

static void *clicks_rules(int min_group, int shift)
{
    void *rules = test_rules(G, NULL);
    test_set_param(G, rules, "objective", OBJECTIVE_FEWEST_CLICKS);
    test_set_param(G, rules, "min_group", min_group);
    test_set_param(G, rules, "shift", shift);
    return rules;
}

/* ---- the exact cost of every state, by a plain memoised search ---- */

struct memo {
    unsigned char *keys; /* cap states of `size` bytes */
    int *cost;           /* -1 = free slot */
    size_t size, cap, used;
};

static void memo_init(struct memo *m, size_t size)
{
    m->size = size;
    m->cap = 1 << 8; /* grows: most boards reach few states */
    m->used = 0;
    m->keys = calloc(m->cap, size);
    m->cost = malloc(m->cap * sizeof *m->cost);
    assert_non_null(m->keys);
    assert_non_null(m->cost);
    for (size_t i = 0; i < m->cap; i++)
        m->cost[i] = -1;
}

static void memo_free(struct memo *m)
{
    free(m->keys);
    free(m->cost);
}

/* The slot of `state`: its own, or the free one where it goes. */
static size_t memo_slot(const struct memo *m, const void *inst,
                        const void *state)
{
    size_t i = G->hash(inst, state) & (m->cap - 1);
    while (m->cost[i] >= 0 && memcmp(m->keys + i * m->size, state, m->size))
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void memo_put(struct memo *m, const void *inst, const void *state,
                     int cost);

static void memo_grow(struct memo *m, const void *inst)
{
    struct memo old = *m;
    m->cap *= 2;
    m->used = 0;
    m->keys = calloc(m->cap, m->size);
    m->cost = malloc(m->cap * sizeof *m->cost);
    assert_non_null(m->keys);
    assert_non_null(m->cost);
    for (size_t i = 0; i < m->cap; i++)
        m->cost[i] = -1;
    for (size_t i = 0; i < old.cap; i++)
        if (old.cost[i] >= 0)
            memo_put(m, inst, old.keys + i * m->size, old.cost[i]);
    memo_free(&old);
}

static void memo_put(struct memo *m, const void *inst, const void *state,
                     int cost)
{
    if (2 * (m->used + 1) > m->cap)
        memo_grow(m, inst);
    size_t i = memo_slot(m, inst, state);
    if (m->cost[i] < 0)
        m->used++;
    memcpy(m->keys + i * m->size, state, m->size);
    m->cost[i] = cost;
}

/* The heuristics whose docs (docs/samegame.md, clicks.h) call them
 * consistent; runs-ahead and empty-chain are only admissible. */
static bool claims_consistent(const char *name)
{
    return strcmp(name, "runs-ahead") != 0 &&
           strcmp(name, "empty-chain") != 0;
}

/* The fewest clicks that empty `state` (UNCLEARABLE when none do). Every
 * heuristic is checked on the way: h(s) <= cost(s), and, where it claims
 * to be, consistent, h(s) <= 1 + h(child); so are the floors dfs cuts
 * children by (child_floors): never above the child's cost. */
static int exact_cost(struct memo *m, const void *inst, const void *state)
{
    size_t slot = memo_slot(m, inst, state);
    if (m->cost[slot] >= 0)
        return m->cost[slot];
    int best = UNCLEARABLE;
    if (G->is_goal(inst, state)) {
        best = 0;
    } else {
        ps_move moves[64];
        ps_value floor[64];
        int n = G->moves(inst, state, moves, NULL);
        G->child_floors(inst, state, moves, n, floor);
        unsigned char child[256];
        assert_true(m->size <= sizeof child);
        for (int i = 0; i < n; i++) {
            assert_int_equal(G->apply(inst, state, moves[i], child), 1);
            int c = exact_cost(m, inst, child);
            if (floor[i] > c)
                fail_msg("child_floors gives %lld > the child's cost %d",
                         (long long)floor[i], c);
            if (c + 1 < best)
                best = c + 1;
            for (const struct ps_heuristic *h = G->heuristics; h->name; h++)
                if (claims_consistent(h->name) &&
                    h->fn(inst, state) > 1 + h->fn(inst, child))
                    fail_msg("heuristic %s is not consistent", h->name);
        }
    }
    for (const struct ps_heuristic *h = G->heuristics; h->name; h++) {
        assert_true(h->admissible);
        ps_value v = h->fn(inst, state);
        if (best < UNCLEARABLE && v > best) {
            fprintf(stderr, "%s", test_print(G, inst, state));
            fail_msg("heuristic %s gives %lld > the exact cost %d", h->name,
                     (long long)v, best);
        }
    }
    memo_put(m, inst, state, best);
    return best;
}

static int board_cost(const void *inst)
{
    struct memo m;
    memo_init(&m, G->state_size(inst));
    void *s = test_initial(G, inst);
    int cost = exact_cost(&m, inst, s);
    free(s);
    memo_free(&m);
    return cost;
}

/* A random board of `colours` as text. */
static void random_board(struct ps_rng *rng, int rows, int cols, int colours,
                         char *text)
{
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            *text++ = (char)('1' + ps_rng_below(rng, (uint32_t)colours));
        *text++ = '\n';
    }
    *text = '\0';
}

/* ---- the heuristics against the exact cost ---- */

/* All 65536 4x4 boards of two colours, under Former's rules (any group,
 * no shift) and under the classic rules (groups of two, shift left). */
static void test_every_4x4_two_colour_board(void **unused)
{
    (void)unused;
    const int rule_sets[2][2] = {{1, SHIFT_NONE}, {2, SHIFT_LEFT}};
    for (int k = 0; k < 2; k++) {
        void *rules = clicks_rules(rule_sets[k][0], rule_sets[k][1]);
        int histogram[UNCLEARABLE + 1] = {0};
        for (unsigned bits = 0; bits < 1u << 16; bits++) {
            char text[32], *t = text;
            for (int i = 0; i < 16; i++) {
                *t++ = (char)('1' + ((bits >> i) & 1));
                if (i % 4 == 3)
                    *t++ = '\n';
            }
            *t = '\0';
            void *inst = test_load(G, rules, text);
            histogram[board_cost(inst)]++;
            G->free_instance(inst);
        }
        /* Former's rules clear every board; min_group 2 leaves some. */
        assert_int_equal(histogram[UNCLEARABLE] == 0, k == 0);
        assert_int_equal(histogram[1], 2); /* one colour: one click */
        free(rules);
    }
}

/* Many random 4x4 boards of three colours and 5x5 boards of three and
 * four, under both rule sets. */
static void test_random_boards_3_and_4_colours(void **unused)
{
    (void)unused;
    struct ps_rng rng;
    ps_rng_seed(&rng, 34);
    const struct { int size, colours, count; } sets[] = {
        {4, 3, 400}, {5, 3, 12}, {5, 4, 12}};
    for (int k = 0; k < 2; k++) {
        void *rules = k ? clicks_rules(2, SHIFT_LEFT)
                        : clicks_rules(1, SHIFT_NONE);
        for (size_t j = 0; j < sizeof sets / sizeof sets[0]; j++)
            for (int b = 0; b < sets[j].count; b++) {
                char text[64];
                random_board(&rng, sets[j].size, sets[j].size, sets[j].colours,
                             text);
                void *inst = test_load(G, rules, text);
                board_cost(inst);
                G->free_instance(inst);
            }
        free(rules);
    }
}

/* ---- the searches against the exact cost ---- */

/* The proven lower bound of the last run() (-1: none), and its expanded. */
static ps_value last_lower_bound;
static uint64_t last_expanded;

static enum ps_status run_limited(const char *algo, void *inst,
                                  struct ps_options *o, uint64_t max_nodes,
                                  ps_value *cost)
{
    struct ps_search s;
    struct ps_limits lim = {.seconds = 60, .max_nodes = max_nodes};
    ps_search_init(&s, G, inst, &lim, o);
    enum ps_status st = ps_search_run(&s, ps_algorithm_find(algo));
    *cost = s.best.found ? s.best.value : -1;
    last_lower_bound = s.stats.has_lower_bound ? s.stats.lower_bound : -1;
    last_expanded = s.stats.expanded;
    ps_search_free(&s);
    return st;
}

static enum ps_status run(const char *algo, void *inst, struct ps_options *o,
                          ps_value *cost)
{
    return run_limited(algo, inst, o, 0, cost);
}

static const char *const clicks_heuristics[] = {
    "runs-ahead", "empty-chain", "colour-runs", "column-strings",
    "colours-left"};

/* bfs, astar, idastar and dfs prove the same optimum as the plain search,
 * with their tables and pruning and without (--no-memo); a board that
 * cannot be cleared is proven unsolvable by each. */
static void test_exact_searches_agree(void **unused)
{
    (void)unused;
    struct ps_rng rng;
    ps_rng_seed(&rng, 3434);
    const char *algos[] = {"bfs", "astar", "idastar", "dfs"};
    for (int k = 0; k < 2; k++) {
        void *rules = k ? clicks_rules(2, SHIFT_LEFT)
                        : clicks_rules(1, SHIFT_NONE);
        for (int b = 0; b < 24; b++) {
            char text[64];
            int size = b < 16 ? 4 : 5;
            random_board(&rng, size, size, 3 + b % 2, text);
            void *inst = test_load(G, rules, text);
            int exact = board_cost(inst);
            for (int a = 0; a < 4; a++)
                for (int memo = 0; memo < 2; memo++)
                for (int hk = 0; hk < 6; hk++) {
                    /* bfs reads no heuristic: the default once; each
                     * heuristic with the tables, the default without */
                    if (hk > 0 && (memo || strcmp(algos[a], "bfs") == 0))
                        break;
                    struct ps_options o;
                    ps_options_default(&o);
                    if (strcmp(algos[a], "bfs") != 0)
                        test_option_flag(&o, "no-memo", memo);
                    if (hk > 0)
                        o.heuristic = clicks_heuristics[hk - 1];
                    /* dfs with its tables and runs-ahead (the default h),
                     * without the game's floors */
                    if (hk == 1 && strcmp(algos[a], "dfs") == 0)
                        test_option_flag(&o, "no-floors", true);
                    ps_value cost;
                    enum ps_status st = run(algos[a], inst, &o, &cost);
                    if (exact == UNCLEARABLE) {
                        assert_int_equal(st, PS_UNSOLVABLE);
                    } else {
                        /* every exact search says what it proved: its
                         * lower bound is the optimum it found */
                        if (last_lower_bound != exact)
                            fail_msg("%s lower_bound %lld, exact %d",
                                     algos[a], (long long)last_lower_bound,
                                     exact);
                        if (st != PS_OPTIMAL || cost != exact)
                            fail_msg("%s%s --heuristic %s on\n%sstatus %d "
                                     "cost %lld, exact %d",
                                     algos[a], memo ? " --no-memo" : "",
                                     hk ? clicks_heuristics[hk - 1] : "(default)",
                                     text, st, (long long)cost, exact);
                    }
                }
            /* dfs's ladder of narrow beams runs before the rounds on
             * SameGame (dfs.c, cost_ladder: 1 to 16 wide at the default,
             * two ranks each), each beam at most 2 w (cells + 1)
             * expansions, so a small board pays at most that for the
             * beams */
            struct ps_options plain;
            ps_options_default(&plain);
            ps_value plain_cost;
            run("dfs", inst, &plain, &plain_cost);
            uint64_t with_beam = last_expanded;
            test_option_int(&plain, "dfs-cost-beam", 0);
            run("dfs", inst, &plain, &plain_cost);
            uint64_t ladder = 2 * 31 * 2 * (uint64_t)(size * size + 1);
            if (with_beam > last_expanded + ladder)
                fail_msg("dfs expanded %llu with its beams, %llu without",
                         (unsigned long long)with_beam,
                         (unsigned long long)last_expanded);
            /* dfs's first line from beams too narrow to be optimal: the
             * rounds must still prove the optimum, or find the line is */
            for (int width = 0; width <= 3 && exact != UNCLEARABLE; width++) {
                struct ps_options o;
                ps_options_default(&o);
                test_option_int(&o, "dfs-cost-beam", width);
                ps_value cost;
                enum ps_status st = run("dfs", inst, &o, &cost);
                if (st != PS_OPTIMAL || cost != exact)
                    fail_msg("dfs --dfs-cost-beam %d on\n%sstatus %d cost %lld,"
                             " exact %d", width, text, st, (long long)cost,
                             exact);
            }
            G->free_instance(inst);
        }
        free(rules);
    }
}

/* A 7x9 Former board, `psolve gen --rows 9 --cols 7 --colors 4 --seed 3`:
 * 13 clicks at best. */
#define SEED3_BOARD                                                        \
    "3313221\n3414334\n3111433\n3314434\n1214314\n4232222\n2332322\n"  \
    "4133243\n1433334\n"

/* A search stopped early still says what it proved: a lower bound no
 * higher than the optimum (13 on this 7x9 Former board, `psolve gen --rows
 * 9 --cols 7 --colors 4 --seed 3`) and no lower than h of the start (A*:
 * the least g + h on its open list; bfs: the least g, so at least 1);
 * --max-depth voids dfs's. IDA* and A* are stopped before their bound
 * reaches 13 with no line; dfs's first beam gives it one. */
static void test_stopped_search_keeps_its_lower_bound(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(1, SHIFT_NONE);
    void *inst = test_load(G, rules, SEED3_BOARD);
    const char *algos[] = {"idastar", "dfs", "astar"};
    for (int a = 0; a < 3; a++) {
        struct ps_options o;
        ps_options_default(&o);
        ps_value cost;
        assert_int_equal(run_limited(algos[a], inst, &o, 20000, &cost),
                         PS_INCOMPLETE);
        void *s = test_initial(G, inst);
        ps_value h0 = G->heuristic(inst, s);
        free(s);
        if (last_lower_bound < h0 || last_lower_bound >= 13)
            fail_msg("%s stopped with lower bound %lld (h0 %lld)", algos[a],
                     (long long)last_lower_bound, (long long)h0);
        assert_int_equal(run(algos[a], inst, &o, &cost), PS_OPTIMAL);
        assert_int_equal(cost, 13);
        assert_int_equal(last_lower_bound, 13);
    }
    /* dfs's beams (its ladder of 1 to 16 wide first, a quick one of 62,
     * then 1000 wide) find a 13-click line here (test_dfs_quick_beam): a
     * run stopped after the ladder returns that line, one stopped before
     * the first rung's end (a 1-wide beam expands a state per click) has
     * none; the rounds
     * prove it optimal once their bound reaches 13, without a last round
     * (0 expanded in it). Without the beams the last round searches. */
    struct ps_options o;
    ps_options_default(&o);
    ps_value cost;
    assert_int_equal(run_limited("dfs", inst, &o, 10, &cost), PS_INCOMPLETE);
    assert_int_equal(cost, -1);
    assert_int_equal(run_limited("dfs", inst, &o, 60000, &cost), PS_INCOMPLETE);
    assert_int_equal(cost, 13);
    struct ps_search s;
    struct ps_limits lim = {.seconds = 60};
    for (int width = 1000; width >= 0; width -= 1000) {
        ps_options_default(&o);
        test_option_int(&o, "dfs-cost-beam", width);
        ps_search_init(&s, G, inst, &lim, &o);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find("dfs")),
                         PS_OPTIMAL);
        assert_int_equal(s.best.value, 13);
        assert_int_equal(s.stats.last_iteration_expanded == 0, width > 0);
        ps_search_free(&s);
    }
    ps_options_default(&o);
    assert_int_equal(run_limited("bfs", inst, &o, 20000, &cost),
                     PS_INCOMPLETE);
    if (last_lower_bound < 1 || last_lower_bound >= 13)
        fail_msg("bfs stopped with lower bound %lld",
                 (long long)last_lower_bound);
    test_option_int(&o, "max-depth", 20);
    run_limited("dfs", inst, &o, 20000, &cost);
    assert_int_equal(last_lower_bound, -1);
    test_release(G, inst, NULL, rules);
}

/* dfs's best line on a Former board after `nodes[i]` expansions (one run
 * each, --dfs-cost-beam `width`, 0 for the default) is `clicks[i]`
 * clicks, not yet proven. */
static void assert_lines_after(const char *board, int width, int n,
                               const uint64_t *nodes, const int *clicks)
{
    void *rules = clicks_rules(1, SHIFT_NONE);
    void *inst = test_load(G, rules, board);
    struct ps_options o;
    ps_options_default(&o);
    if (width)
        test_option_int(&o, "dfs-cost-beam", width);
    for (int i = 0; i < n; i++) {
        ps_value cost;
        assert_int_equal(run_limited("dfs", inst, &o, nodes[i], &cost),
                         PS_INCOMPLETE);
        if (cost != clicks[i])
            fail_msg("after %llu expansions: %lld clicks, not %d",
                     (unsigned long long)nodes[i], (long long)cost,
                     clicks[i]);
    }
    test_release(G, inst, NULL, rules);
}

/* dfs's beams grow: after the first (--dfs-cost-beam W, once the rounds
 * have expanded 32 W nodes) comes one four times wider once they have
 * expanded 256 nodes per unit of its width. From width 1 (too narrow for
 * a quick beam before it: test_dfs_quick_beam; its ladder climbs to 2) on
 * `psolve gen --rules former --seed 7`: a 13-click line from the ladder
 * and the first beams, 12 from the second (4 wide, after 1,024), before
 * the rounds prove 11 (after more than 300,000 expansions). */
static void test_dfs_beams_grow(void **unused)
{
    (void)unused;
    const uint64_t nodes[] = {1000, 1500};
    const int clicks[] = {13, 12};
    assert_lines_after("3244441\n1213344\n2322111\n3323113\n1211444\n"
                       "2234441\n3131344\n3342434\n1344134\n",
                       1, 2, nodes, clicks);
}

/* After the ladder the beams go on doubling (64, 128, ... up to
 * --dfs-cost-beam), each once the rounds have expanded 32 nodes per unit
 * of its width (dfs.c, cost_beam_now). On `psolve gen --rules former
 * --seed 14` (13 clicks, proven after about 4.6 million expansions) the
 * ladder and the 64-wide beam give 14 clicks; the 128-wide one, after
 * 4,096, gives 13 before 7,000. A quick beam 62 wide and then a
 * 1,000-wide one after 32,000 (the schedule before) still had 14 at
 * 40,000. */
static void test_dfs_beams_double_after_the_ladder(void **unused)
{
    (void)unused;
    const uint64_t nodes[] = {6000, 7000};
    const int clicks[] = {14, 13};
    assert_lines_after("3344241\n4334434\n1432331\n1234331\n1131443\n"
                       "4442224\n1231142\n2321341\n4314113\n",
                       0, 2, nodes, clicks);
}

/* A table full under --max-memory gives old entries to new states
 * (dfs.c, cost_entry_worth): on the seed-3 board (13 clicks, about 62,000
 * expansions and 12 MB without a limit) the rounds alone (no beam's line
 * to fall back on) still prove 13 in tables of 0.2 to 1.6 MB (89,125 to
 * 337,829 expansions). An entry taken from a state still on the path would
 * get the bound learned below that state, and a bound on the wrong state
 * cuts the optimal line. A node limit, not the clock, guards against a
 * runaway (the same on every build: ASan runs 10-20 times slower). */
static void test_full_table_gives_entries_to_new_states(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(1, SHIFT_NONE);
    void *inst = test_load(G, rules, SEED3_BOARD);
    for (int kb = 200; kb <= 1600; kb *= 2) {
        struct ps_options o;
        ps_options_default(&o);
        test_option_int(&o, "dfs-cost-beam", 0);
        struct ps_limits lim = {.max_nodes = 5000000,
                                .max_memory = (uint64_t)kb * 1024};
        struct ps_search s;
        ps_search_init(&s, G, inst, &lim, &o);
        enum ps_status st = ps_search_run(&s, ps_algorithm_find("dfs"));
        if (st != PS_OPTIMAL || s.best.value != 13 ||
            !strstr(s.note, "taken over by newer states"))
            fail_msg("--max-memory %d KB: status %d, cost %lld, "
                     "note \"%s\"", kb, st, (long long)s.best.value,
                     s.note);
        assert_true(s.stats.peak_memory <= lim.max_memory);
        ps_search_free(&s);
    }
    test_release(G, inst, NULL, rules);
}

/* Narrow beams come first. SameGame evaluates its positions, so dfs runs
 * a ladder of beams 1, 2, 4, ... wide, up to 64 times narrower than
 * --dfs-cost-beam (16 at the default), before its rounds (cost_ladder),
 * ranked by the groups left, then the same widths by those + h; then a
 * quick one 16 times narrower after 32 expansions per unit of its width.
 * On the seed-3 board the first 1-wide beam's line (14 clicks) is there
 * after 14 expansions and the optimum, 13, after 90 (the 4-wide beam's,
 * ranked by the groups left), not at 85. With no beams (0) there is no
 * line yet at 3,000 expansions. */
static void test_dfs_quick_beam(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(1, SHIFT_NONE);
    void *inst = test_load(G, rules, SEED3_BOARD);
    struct ps_options o;
    ps_options_default(&o);
    ps_value cost;
    assert_int_equal(run_limited("dfs", inst, &o, 14, &cost),
                     PS_INCOMPLETE);
    assert_int_equal(cost, 14);
    assert_int_equal(run_limited("dfs", inst, &o, 85, &cost),
                     PS_INCOMPLETE);
    assert_int_equal(cost, 14);
    assert_int_equal(run_limited("dfs", inst, &o, 90, &cost),
                     PS_INCOMPLETE);
    assert_int_equal(cost, 13);
    test_option_int(&o, "dfs-cost-beam", 0);
    assert_int_equal(run_limited("dfs", inst, &o, 3000, &cost),
                     PS_INCOMPLETE);
    assert_int_equal(cost, -1);
    test_release(G, inst, NULL, NULL);
    /* The beams by f rank a state by 2 f + its legal moves (cost_beam.c):
     * on `psolve gen --rows 9 --cols 7 --colors 4 --seed 3037` the quick
     * beam's width (62) finds 14 clicks; ranked by f, then by fewer moves,
     * 16. The ladder's rank (the groups left + h) 8 wide: 14 clicks; by
     * the groups alone 16, and by f as well. */
    inst = test_load(G, rules,
                     "3332121\n3123143\n3433111\n2333232\n1213232\n"
                     "3442142\n3344332\n3212211\n4324231\n");
    const struct { int width; enum ps_cost_beam_rank rank; int clicks; }
        beams[] = {{62, PS_COST_BEAM_BY_F, 14},
                   {8, PS_COST_BEAM_BY_EVALUATION_AND_H, 14},
                   {8, PS_COST_BEAM_BY_EVALUATION, 16},
                   {8, PS_COST_BEAM_BY_F, 16}};
    /* Each beam alone, then all in a row with one memo, twice: the second
     * time every rank comes from the memo, and the beams are the same. */
    struct ps_search memo_owner;
    ps_options_default(&o);
    ps_search_init(&memo_owner, G, inst, NULL, &o);
    struct ps_cost_beam_memo *memo = ps_cost_beam_memo_new(&memo_owner);
    assert_non_null(memo);
    const size_t nbeams = sizeof beams / sizeof beams[0];
    for (size_t i = 0; i < 3 * nbeams; i++) {
        const int b = (int)(i % nbeams);
        struct ps_search s;
        ps_options_default(&o);
        ps_search_init(&s, G, inst, NULL, &o); /* no limits: no clock */
        void *root = test_initial(G, inst);
        assert_true(ps_cost_beam(&s, root, beams[b].width, 63, UINT64_MAX,
                                 beams[b].rank, i < nbeams ? NULL : memo));
        if (s.best.value != beams[b].clicks)
            fail_msg("beam %d wide, rank %d, pass %d: %lld clicks, not %d",
                     beams[b].width, (int)beams[b].rank, (int)(i / nbeams),
                     (long long)s.best.value, beams[b].clicks);
        free(root);
        ps_search_free(&s);
    }
    ps_cost_beam_memo_free(&memo_owner, memo);
    ps_search_free(&memo_owner);
    test_release(G, inst, NULL, rules);
}

/* ---- hand-worked boards ---- */

/* The objective makes SameGame a cost game; colour-runs counts each
 * colour's runs of adjacent columns; one click per run is met here. */
/* The beams by f and by the evaluation and h make h known only for the
 * children they reach in key order (SameGame gives floors under its
 * children's costs: cost_beam.c, lazy_key). A beam must be the same as
 * one that makes every child's h known: the same line and expansions, on
 * random Former-sized boards, at three widths, with and without a memo
 * shared by the beams. The plain beams run on a copy of the game without
 * child_floors. */
static void test_cost_beams_lazy_h_same_beams(void **unused)
{
    (void)unused;
    struct ps_game plain_game = *G;
    plain_game.child_floors = NULL;
    const struct ps_game *games[2] = {G, &plain_game};
    void *rules = clicks_rules(1, SHIFT_NONE);
    struct ps_rng rng;
    ps_rng_seed(&rng, 3411);
    const enum ps_cost_beam_rank ranks[] = {PS_COST_BEAM_BY_F,
                                            PS_COST_BEAM_BY_EVALUATION_AND_H};
    const int widths[] = {1, 8, 64};
    for (int board = 0; board < 6; board++) {
        char text[9 * 8 + 1];
        random_board(&rng, 9, 7, 4, text);
        void *inst = test_load(G, rules, text);
        struct ps_search owner[2];
        struct ps_cost_beam_memo *memo[2];
        struct ps_options o;
        for (int v = 0; v < 2; v++) {
            ps_options_default(&o);
            ps_search_init(&owner[v], games[v], inst, NULL, &o);
            memo[v] = ps_cost_beam_memo_new(&owner[v]);
            assert_non_null(memo[v]);
        }
        for (int pass = 0; pass < 2; pass++)
            for (size_t r = 0; r < 2; r++)
                for (size_t wi = 0; wi < 3; wi++) {
                    struct ps_search s[2];
                    for (int v = 0; v < 2; v++) {
                        ps_options_default(&o);
                        ps_search_init(&s[v], games[v], inst, NULL, &o);
                        void *root = test_initial(G, inst);
                        ps_cost_beam(&s[v], root, widths[wi], 63, UINT64_MAX,
                                     ranks[r], pass ? memo[v] : NULL);
                        free(root);
                    }
                    bool same = s[0].best.found == s[1].best.found &&
                                s[0].best.len == s[1].best.len &&
                                s[0].stats.expanded == s[1].stats.expanded &&
                                (s[0].best.len == 0 ||
                                 memcmp(s[0].best.moves, s[1].best.moves,
                                        (size_t)s[0].best.len *
                                            sizeof(ps_move)) == 0);
                    if (!same)
                        fail_msg("board %d, rank %d, width %d, pass %d: "
                                 "%lld clicks in %llu expansions, plain "
                                 "%lld in %llu", board, (int)ranks[r],
                                 widths[wi], pass,
                                 (long long)s[0].best.value,
                                 (unsigned long long)s[0].stats.expanded,
                                 (long long)s[1].best.value,
                                 (unsigned long long)s[1].stats.expanded);
                    ps_search_free(&s[0]);
                    ps_search_free(&s[1]);
                }
        for (int v = 0; v < 2; v++) {
            ps_cost_beam_memo_free(&owner[v], memo[v]);
            ps_search_free(&owner[v]);
        }
        test_release(G, inst, NULL, NULL);
    }
    free(rules);
}

static void test_colour_runs_by_hand(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(1, SHIFT_NONE);
    /* Colour 1 in columns 0 and 2 (column 1 has none): two runs; colour 2
     * in columns 1 and 2: one run; colour 3 in column 0: one run. */
    void *inst = test_load(G, rules, "121\n321\n");
    assert_int_equal(ps_game_flags(G, inst) & PS_MAXIMISE, 0);
    assert_true(ps_game_flags(G, inst) & PS_HAS_HEURISTIC);
    void *s = test_initial(G, inst);
    assert_int_equal(ps_heuristic_find(G, "colour-runs")->fn(inst, s), 4);
    assert_int_equal(ps_heuristic_find(G, "colours-left")->fn(inst, s), 3);
    assert_int_equal(G->heuristic(inst, s), 4);
    assert_false(G->is_goal(inst, s));
    /* The 2s (one click), then the right 1s, the 3, the left 1s: 4. */
    assert_int_equal(test_play(G, inst, s, "0 1"), 1);
    assert_string_equal(test_print(G, inst, s), "1.1\n3.1\n");
    assert_int_equal(board_cost(inst), 4);
    test_play(G, inst, s, "0 2");
    test_play(G, inst, s, "1 0");
    test_play(G, inst, s, "1 0");
    assert_true(G->is_goal(inst, s));
    test_release(G, inst, s, rules);
}

/* runs-ahead adds a click when no (colour, run) unit is one group: here
 * each colour's two cells touch only at a corner, so the first click
 * cannot empty a unit. 3 clicks are needed: the bound is met. With the 1s
 * joined, a unit is one group and the bound is colour-runs' 2, met too. */
static void test_runs_ahead_by_hand(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(1, SHIFT_NONE);
    const struct ps_heuristic *ahead = ps_heuristic_find(G, "runs-ahead");
    const struct ps_heuristic *runs = ps_heuristic_find(G, "colour-runs");
    assert_non_null(ahead);
    void *inst = test_load(G, rules, "12\n21\n");
    void *s = test_initial(G, inst);
    assert_int_equal(runs->fn(inst, s), 2);
    assert_int_equal(ahead->fn(inst, s), 3);
    assert_int_equal(board_cost(inst), 3);
    test_release(G, inst, s, rules);
    rules = clicks_rules(1, SHIFT_NONE);
    inst = test_load(G, rules, "11\n21\n");
    s = test_initial(G, inst);
    assert_int_equal(ahead->fn(inst, s), 2);
    assert_int_equal(board_cost(inst), 2);
    /* Larger than 64 cells: colour-runs alone (no bit planes). */
    test_release(G, inst, s, rules);
    rules = clicks_rules(1, SHIFT_NONE);
    char big[9 * 9 + 9 + 1], *t = big;
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++)
            *t++ = (char)('1' + (r + c) % 2);
        *t++ = '\n';
    }
    *t = '\0';
    inst = test_load(G, rules, big);
    s = test_initial(G, inst);
    assert_int_equal(ahead->fn(inst, s), runs->fn(inst, s));
    test_release(G, inst, s, rules);
}

/* empty-chain adds a click when no order of clicks that each empty a whole
 * unit clears the board. The column 1,2,1,2 under a 3 (bottom to top):
 * the 3 is one group (runs-ahead adds nothing), but without it no unit is
 * one group: 4 clicks, as the exact cost says. On 23/22/31 the first unit
 * that is one group (the 1) leads nowhere, but the 2s first, then the 1,
 * then the 3s clear it: the search must try every order, not the first,
 * or it would claim 4 where 3 clicks do. */
static void test_empty_chain_by_hand(void **unused)
{
    (void)unused;
    const struct ps_heuristic *chain = ps_heuristic_find(G, "empty-chain");
    const struct ps_heuristic *ahead = ps_heuristic_find(G, "runs-ahead");
    assert_non_null(chain);
    const struct {
        const char *board;
        int ahead, chain, cost;
    } cases[] = {{"3\n2\n1\n2\n1\n", 3, 4, 4},
                 {"23\n22\n31\n", 3, 3, 3},
                 {"12\n21\n", 3, 3, 3},
                 {"11\n21\n", 2, 2, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *rules = clicks_rules(1, SHIFT_NONE);
        void *inst = test_load(G, rules, cases[i].board);
        void *s = test_initial(G, inst);
        assert_int_equal(ahead->fn(inst, s), cases[i].ahead);
        assert_int_equal(chain->fn(inst, s), cases[i].chain);
        assert_int_equal(board_cost(inst), cases[i].cost);
        test_release(G, inst, s, rules);
    }
}

/* empty-chain lays a column out again after each unit it takes: from the
 * board's cells (every engine) or by pext/pdep (the bmi2 engine, where the
 * CPU has it fast). Both must give the same bound in every state of random
 * games; on a machine without BMI2 both instances take the same path. The
 * states where a chain of at least three units clears the board (the
 * layout decided the answer) must not be rare, or the comparison would
 * prove little. */
static void test_empty_chain_same_in_every_engine(void **unused)
{
    (void)unused;
    const struct ps_heuristic *chain = ps_heuristic_find(G, "empty-chain");
    const struct ps_heuristic *runs = ps_heuristic_find(G, "colour-runs");
    const int shapes[][2] = {{9, 7}, {7, 9}, {8, 8}, {16, 4}, {4, 16},
                             {32, 2}, {2, 32}, {5, 5}, {3, 6}};
    struct ps_rng rng;
    ps_rng_seed(&rng, 3407);
    long states = 0, cleared = 0;
    for (int min_group = 1; min_group <= 2; min_group++) {
        void *rules = clicks_rules(min_group, SHIFT_NONE);
        for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
            for (int game = 0; game < 30; game++) {
                int rows = shapes[j][0], cols = shapes[j][1];
                char text[32 * 33 + 1];
                random_board(&rng, rows, cols, 2 + game % 4, text);
                void *bytes = load_with("popcnt", rules, text);
                void *best = load_with(NULL, rules, text);
                void *s = test_initial(G, best);
                void *next = malloc(G->state_size(best));
                assert_non_null(next);
                for (;;) {
                    ps_value a = chain->fn(bytes, s), b = chain->fn(best, s);
                    if (a != b)
                        fail_msg("empty-chain %lld from the cells, %lld by "
                                 "pext/pdep, on\n%s", (long long)a,
                                 (long long)b, test_print(G, best, s));
                    states++;
                    cleared += a == runs->fn(best, s) && a >= 3;
                    ps_move moves[1024];
                    int n = G->moves(best, s, moves, NULL);
                    if (n == 0)
                        break;
                    G->apply(best, s, moves[ps_rng_below(&rng, (uint32_t)n)],
                             next);
                    memcpy(s, next, G->state_size(best));
                }
                free(next);
                test_release(G, bytes, NULL, NULL);
                test_release(G, best, s, NULL);
            }
        free(rules);
    }
    /* 4,324 of 9,512 states where this was written */
    if (cleared * 5 < states)
        fail_msg("a chain cleared %ld of %ld states", cleared, states);
}

/* runs-ahead by a plain reading of the printed board: colour-runs'
 * units (colour, run of adjacent columns holding it), + 1 when no unit's
 * cells are one group by a flood fill over the grid. */
static int reference_runs_ahead(const char *printed, int rows, int cols)
{
    char grid[32][33];
    for (int r = 0; r < rows; r++) {
        memcpy(grid[r], printed, (size_t)cols);
        printed += cols + 1;
    }
    int units = 0;
    bool one_group = false;
    for (char k = '1'; k <= '9'; k++)
        for (int a = 0; a < cols; a++) {
            bool here = false, left = false;
            for (int r = 0; r < rows; r++) {
                here |= grid[r][a] == k;
                left |= a > 0 && grid[r][a - 1] == k;
            }
            if (!here || left)
                continue;
            int b = a, cells = 0;
            for (;;) {
                bool next = false;
                for (int r = 0; b + 1 < cols && r < rows; r++)
                    next |= grid[r][b + 1] == k;
                if (!next)
                    break;
                b++;
            }
            units++;
            int seen[32][32] = {{0}}, stack[1024][2], top = 0, reached = 0;
            for (int c = a; c <= b; c++)
                for (int r = 0; r < rows; r++)
                    if (grid[r][c] == k && cells++ == 0) {
                        seen[r][c] = 1;
                        stack[top][0] = r;
                        stack[top++][1] = c;
                    }
            while (top > 0) {
                int r = stack[--top][0], c = stack[top][1];
                reached++;
                const int step[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                for (int j = 0; j < 4; j++) {
                    int r2 = r + step[j][0], c2 = c + step[j][1];
                    if (r2 >= 0 && r2 < rows && c2 >= 0 && c2 < cols &&
                        !seen[r2][c2] && grid[r2][c2] == k) {
                        seen[r2][c2] = 1;
                        stack[top][0] = r2;
                        stack[top++][1] = c2;
                    }
                }
            }
            one_group |= reached == cells;
        }
    return units + (units > 0 && !one_group);
}

/* runs-ahead reads boards of up to 64 cells in bit planes, one 64-bit word
 * per colour: checked against the plain reading above in every position of
 * random games on boards of every shape near that size (8x8 fills all 64
 * bits, 1 and 2 columns or rows test the lanes' edges), and equal to
 * colour-runs beyond it. */
static void test_runs_ahead_in_bit_planes(void **unused)
{
    (void)unused;
    const struct ps_heuristic *ahead = ps_heuristic_find(G, "runs-ahead");
    const struct ps_heuristic *runs = ps_heuristic_find(G, "colour-runs");
    const struct ps_heuristic *chain = ps_heuristic_find(G, "empty-chain");
    const int shapes[][2] = {{9, 7}, {7, 9}, {8, 8}, {16, 4}, {4, 16},
                             {1, 32}, {32, 2}, {2, 32}, {5, 5}, {9, 8}};
    struct ps_rng rng;
    ps_rng_seed(&rng, 3401);
    void *rules = clicks_rules(1, SHIFT_NONE);
    for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
        for (int game = 0; game < 40; game++) {
            int rows = shapes[j][0], cols = shapes[j][1];
            char text[32 * 33 + 1];
            random_board(&rng, rows, cols, 2 + game % 5, text);
            void *inst = test_load(G, rules, text);
            void *s = test_initial(G, inst);
            void *next = malloc(G->state_size(inst));
            assert_non_null(next);
            for (;;) {
                ps_value h = ahead->fn(inst, s);
                /* empty-chain: runs-ahead, or colour-runs + 1 */
                ps_value hc = chain->fn(inst, s);
                if (hc < h || hc > runs->fn(inst, s) + 1)
                    fail_msg("empty-chain %lld, runs-ahead %lld on\n%s",
                             (long long)hc, (long long)h,
                             test_print(G, inst, s));
                if (rows * cols <= 64) {
                    int want = reference_runs_ahead(test_print(G, inst, s),
                                                    rows, cols);
                    if (h != want)
                        fail_msg("runs-ahead %lld, the plain reading %d, "
                                 "on\n%s", (long long)h, want,
                                 test_print(G, inst, s));
                } else {
                    assert_int_equal(h, runs->fn(inst, s));
                }
                ps_move moves[1024];
                ps_value floor[1024];
                int n = G->moves(inst, s, moves, NULL);
                if (n == 0)
                    break;
                /* the floors: the child's colour-runs exactly (boards of
                 * up to 64 cells), else 0 */
                G->child_floors(inst, s, moves, n, floor);
                ps_value before = runs->fn(inst, s);
                for (int i = 0; i < n; i++) {
                    G->apply(inst, s, moves[i], next);
                    ps_value after = runs->fn(inst, next);
                    if (floor[i] != (rows * cols <= 64 ? after : 0))
                        fail_msg("floor %lld, colour-runs %lld then %lld, "
                                 "move %u on\n%s", (long long)floor[i],
                                 (long long)before, (long long)after,
                                 (unsigned)moves[i], test_print(G, inst, s));
                }
                G->apply(inst, s, moves[ps_rng_below(&rng, (uint32_t)n)],
                         next);
                memcpy(s, next, G->state_size(inst));
            }
            free(next);
            test_release(G, inst, s, NULL);
        }
    free(rules);
}

/* Under fewest clicks evaluate() is minus the groups left (dfs's cost
 * beams rank by it: cost_beam.h), 0 on an empty board and below any board
 * with groups on a stuck one; evaluate_moves gives the same for every
 * child, in both engines (bit planes up to 64 cells here, bytes above). */
static void test_evaluation_counts_groups(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(1, SHIFT_NONE);
    /* the 1 at the top left, the 3, the 2s, the right 1s */
    void *inst = test_load(G, rules, "121\n321\n");
    void *s = test_initial(G, inst);
    assert_int_equal(G->evaluate(inst, s), -4);
    test_play(G, inst, s, "0 1");
    assert_int_equal(G->evaluate(inst, s), -3);
    test_play(G, inst, s, "0 2");
    test_play(G, inst, s, "1 0");
    test_play(G, inst, s, "1 0");
    assert_true(G->is_goal(inst, s));
    assert_int_equal(G->evaluate(inst, s), 0);
    test_release(G, inst, s, rules);
    rules = clicks_rules(2, SHIFT_NONE);
    inst = test_load(G, rules, "12\n21\n");
    s = test_initial(G, inst);
    assert_true(G->evaluate(inst, s) < -4 * 4);
    test_release(G, inst, s, rules);

    /* Boards of up to 64 cells count their groups in bit planes
     * (clicks.h, clicks_evaluation), larger ones by the full tally; both
     * against the moves, with min_group 1, 2 and 3 (a stuck board: none),
     * two games each: the planes count lone cells and lone pairs apart
     * from the other groups, and a pair miscounted across a column's top
     * shows in some games only. */
    struct ps_rng rng;
    ps_rng_seed(&rng, 3413);
    const int shapes[][2] = {{9, 7}, {8, 8}, {9, 8}, {12, 12}};
    for (size_t j = 0; j < 6 * sizeof shapes / sizeof shapes[0]; j++) {
        int min_group = 1 + (int)(j % 3);
        rules = clicks_rules(min_group, SHIFT_NONE);
        char text[32 * 33 + 1];
        random_board(&rng, shapes[j / 6][0], shapes[j / 6][1], 4, text);
        inst = test_load(G, rules, text);
        s = test_initial(G, inst);
        void *next = malloc(G->state_size(inst));
        assert_non_null(next);
        ps_move moves[1024];
        ps_value out[1024];
        int n;
        while ((n = G->moves(inst, s, moves, NULL)) > 0) {
            G->evaluate_moves(inst, s, moves, n, out);
            for (int i = 0; i < n; i++) {
                G->apply(inst, s, moves[i], next);
                int left = G->moves(inst, next, moves + n, NULL);
                ps_value stuck = -(ps_value)(32 * 32) - 1; /* SG_MAX_CELLS */
                ps_value want = left || G->is_goal(inst, next) ? -left : stuck;
                assert_int_equal(out[i], G->evaluate(inst, next));
                assert_int_equal(out[i], want);
            }
            G->apply(inst, s, moves[ps_rng_below(&rng, (uint32_t)n)], next);
            memcpy(s, next, G->state_size(inst));
        }
        free(next);
        test_release(G, inst, s, rules);
    }
}

/* The groups of a printed board (rows top first, '.' empty), as moves:
 * each group of at least min_group cells by its first cell in the
 * column-major order, bottom first (sg_moves' order), with its size. */
static int reference_moves(const char *text, int rows, int cols,
                           int min_group, ps_move *moves, int *sizes)
{
    int colour[64], seen[64] = {0}, n = 0;
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++) {
            char ch = text[(rows - 1 - r) * (cols + 1) + c];
            colour[c * rows + r] = ch == '.' ? 0 : ch - '0';
        }
    for (int i = 0; i < rows * cols; i++) {
        if (!colour[i] || seen[i])
            continue;
        int stack[64], sp = 0, size = 0;
        stack[sp++] = i;
        seen[i] = 1;
        while (sp) {
            int at = stack[--sp], c = at / rows, r = at % rows;
            size++;
            const int next[4][2] = {{c, r - 1}, {c, r + 1}, {c - 1, r},
                                    {c + 1, r}};
            for (int k = 0; k < 4; k++) {
                int nc = next[k][0], nr = next[k][1], j = nc * rows + nr;
                if (nc >= 0 && nc < cols && nr >= 0 && nr < rows &&
                    !seen[j] && colour[j] == colour[i]) {
                    seen[j] = 1;
                    stack[sp++] = j;
                }
            }
        }
        if (size >= min_group) {
            moves[n] = (ps_move)i;
            sizes[n++] = size;
        }
    }
    return n;
}

/* On boards of up to 64 cells sg_moves lists the groups from bit planes
 * (clicks.h, small_planes_moves): the same moves, in the same order, as a
 * plain flood over the printed board, each with the gain its click
 * scores, in games played to the end under the score and the fewest-clicks
 * objectives, min_group 1 to 3, with and without a column shift. */
static void test_moves_in_bit_planes(void **unused)
{
    (void)unused;
    struct ps_rng rng;
    ps_rng_seed(&rng, 5077);
    const int shapes[][2] = {{9, 7}, {8, 8}, {4, 16}, {2, 32}, {5, 5}};
    for (size_t j = 0; j < 12 * sizeof shapes / sizeof shapes[0]; j++) {
        const int rows = shapes[j / 12][0], cols = shapes[j / 12][1];
        const int min_group = 1 + (int)(j % 3);
        const bool score = (j / 3) % 2, shift = (j / 6) % 2;
        void *rules = clicks_rules(min_group, shift ? SHIFT_LEFT : SHIFT_NONE);
        if (score)
            test_set_param(G, rules, "objective", 0);
        char text[64 * 2 + 64];
        random_board(&rng, rows, cols, 3 + (int)(j % 2), text);
        void *inst = test_load(G, rules, text);
        void *s = test_initial(G, inst);
        void *next = malloc(G->state_size(inst));
        assert_non_null(next);
        ps_move moves[64], want[64];
        ps_value gains[64];
        int sizes[64], n;
        while ((n = G->moves(inst, s, moves, gains)) > 0) {
            int wn = reference_moves(test_print(G, inst, s), rows, cols,
                                     min_group, want, sizes);
            assert_int_equal(n, wn);
            for (int i = 0; i < n; i++) {
                assert_int_equal(moves[i], want[i]);
                assert_int_equal(gains[i],
                                 G->apply(inst, s, moves[i], next));
            }
            assert_int_equal(G->moves(inst, s, moves, NULL), n);
            G->apply(inst, s, moves[ps_rng_below(&rng, (uint32_t)n)], next);
            memcpy(s, next, G->state_size(inst));
        }
        assert_int_equal(reference_moves(test_print(G, inst, s), rows, cols,
                                         min_group, want, sizes),
                         0);
        free(next);
        test_release(G, inst, s, rules);
    }
}

/* With a column shift the runs can meet: colour-runs falls back to the
 * colours left. Here the middle column empties and the 1s join. */
static void test_shift_lets_runs_meet(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(1, SHIFT_LEFT);
    void *inst = test_load(G, rules, "121\n");
    void *s = test_initial(G, inst);
    assert_int_equal(G->heuristic(inst, s), 2);
    assert_int_equal(board_cost(inst), 2);
    test_release(G, inst, s, rules);
}

/* A colour with fewer than min_group cells: proven unsolvable at once. */
static void test_dead_colour_is_unsolvable(void **unused)
{
    (void)unused;
    void *rules = clicks_rules(2, SHIFT_LEFT);
    void *inst = test_load(G, rules, "112\n221\n");
    char why[200];
    assert_true(G->solvable(inst, why, sizeof why));
    G->free_instance(inst);
    inst = test_load(G, rules, "113\n221\n");
    assert_false(G->solvable(inst, why, sizeof why));
    assert_non_null(strstr(why, "colour 3 has 1 cell"));
    ps_value cost;
    struct ps_options o;
    ps_options_default(&o);
    assert_int_equal(run("bfs", inst, &o, &cost), PS_UNSOLVABLE);
    test_release(G, inst, NULL, rules);
}

/* Score objectives are unchanged: a score game with its bound. */
static void test_score_objectives_stay_score_games(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "121\n321\n");
    assert_true(ps_game_flags(G, inst) & PS_MAXIMISE);
    assert_true(ps_game_flags(G, inst) & PS_HAS_BOUND);
    void *s = test_initial(G, inst);
    /* every entry answers with the score bound under a score objective */
    for (const struct ps_heuristic *h = G->heuristics; h->name; h++)
        if (strcmp(h->name, "colours") != 0) /* the looser bound */
            assert_int_equal(h->fn(inst, s), G->upper_bound(inst, s));
    test_release(G, inst, s, rules);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_runs_by_hand),
        cmocka_unit_test(test_runs_ahead_by_hand),
        cmocka_unit_test(test_runs_ahead_in_bit_planes),
        cmocka_unit_test(test_empty_chain_by_hand),
        cmocka_unit_test(test_empty_chain_same_in_every_engine),
        cmocka_unit_test(test_dfs_beams_grow),
        cmocka_unit_test(test_dfs_beams_double_after_the_ladder),
        cmocka_unit_test(test_dfs_quick_beam),
        cmocka_unit_test(test_cost_beams_lazy_h_same_beams),
        cmocka_unit_test(test_full_table_gives_entries_to_new_states),
        cmocka_unit_test(test_shift_lets_runs_meet),
        cmocka_unit_test(test_evaluation_counts_groups),
        cmocka_unit_test(test_moves_in_bit_planes),
        cmocka_unit_test(test_dead_colour_is_unsolvable),
        cmocka_unit_test(test_score_objectives_stay_score_games),
        cmocka_unit_test(test_every_4x4_two_colour_board),
        cmocka_unit_test(test_random_boards_3_and_4_colours),
        cmocka_unit_test(test_exact_searches_agree),
        cmocka_unit_test(test_stopped_search_keeps_its_lower_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
