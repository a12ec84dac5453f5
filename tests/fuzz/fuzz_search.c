/*
 * fuzz_search - every algorithm on a fuzzed puzzle, under a small node
 * limit. Input: one byte that picks the game and its rules (fuzz_pick),
 * then the puzzle file. Each algorithm that runs on the game's kind runs
 * once (one thread, the seed from the input). Oracles:
 *   - every solution returned replays (ps_run_capture, the same code as
 *     psolve verify) to the value the algorithm claimed;
 *   - exact algorithms that finish agree on the optimum (ps_runs_agree);
 *   - no finished line of any algorithm beats a proven optimum, and none
 *     reaches the goal of a puzzle proven unsolvable;
 *   - along an optimal line the game's heuristic (PS_HAS_HEURISTIC) never
 *     overestimates the cost left, and its bound (PS_HAS_BOUND) never
 *     underestimates the score left;
 *   - a puzzle the game's solvable() calls unsolvable (the driver then runs no
 *     search at all) has no goal within a small breadth-first search.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "report.h"
#include "search.h"
#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_ALGOS 32
#define FUZZ_MAX_NODES 200
#define FUZZ_CHECK_STATES 4000

/* Is line value v (a finished line) better than the optimum? */
static bool beats(bool maximise, ps_value v, ps_value optimum)
{
    return maximise ? v > optimum : v < optimum;
}

/* Replay an optimal line: at each state the knowledge slots must be sound
 * for the value still to come. */
static void check_knowledge(const struct ps_game *g, const void *inst,
                            const struct ps_run *r, bool maximise)
{
    unsigned flags = ps_game_flags(g, inst);
    bool h = !maximise && (flags & PS_HAS_HEURISTIC) && g->heuristic;
    bool ub = maximise && (flags & PS_HAS_BOUND) && g->upper_bound;
    if (!h && !ub)
        return;
    size_t size = g->state_size(inst);
    unsigned char *cur = malloc(size), *next = malloc(size);
    if (!cur || !next)
        fuzz_fail(g, "out of memory");
    g->initial_state(inst, cur);
    ps_value so_far = 0;
    for (int k = 0;; k++) {
        ps_value left = r->value - so_far;
        if (h && g->heuristic(inst, cur) > left)
            fuzz_fail(g, "heuristic %lld > %lld, the cost left on an optimal "
                         "line (move %d, %s)",
                      (long long)g->heuristic(inst, cur), (long long)left, k,
                      r->algo);
        if (ub && g->upper_bound(inst, cur) < left)
            fuzz_fail(g, "upper bound %lld < %lld, the score left on an "
                         "optimal line (move %d, %s)",
                      (long long)g->upper_bound(inst, cur), (long long)left,
                      k, r->algo);
        if (k == r->len)
            break;
        so_far += g->apply(inst, cur, r->moves[k], next);
        unsigned char *t = cur;
        cur = next;
        next = t;
    }
    free(cur);
    free(next);
}

/* Does a breadth-first search of at most FUZZ_CHECK_STATES states reach a
 * goal? The kernel's exact table is both the closed set and the queue (its
 * entries stay in insertion order). */
static bool goal_within(const struct ps_game *g, const void *inst)
{
    struct ps_search s;
    ps_search_init(&s, g, inst, NULL, NULL);
    struct ps_table t;
    int max_moves = g->max_moves(inst);
    ps_move *moves = malloc((size_t)(max_moves + 1) * sizeof *moves);
    unsigned char *cur = malloc(s.state_size), *next = malloc(s.state_size);
    if (!moves || !cur || !next || !ps_table_init(&t, &s, 0))
        fuzz_fail(g, "out of memory");
    bool added, found = false;
    g->initial_state(inst, cur);
    ps_table_insert(&t, g->hash(inst, cur), cur, &added);
    for (size_t i = 0; i < t.count && t.count < FUZZ_CHECK_STATES && !found;
         i++) {
        memcpy(cur, ps_table_state(&t, (int64_t)i), s.state_size);
        found = g->is_goal(inst, cur);
        int n = g->moves(inst, cur, moves, NULL);
        for (int k = 0; k < n && !found; k++) {
            g->apply(inst, cur, moves[k], next);
            found = g->is_goal(inst, next);
            if (ps_table_insert(&t, g->hash(inst, next), next, &added) < 0)
                fuzz_fail(g, "out of memory");
        }
    }
    ps_table_free(&t);
    ps_search_free(&s);
    free(moves);
    free(cur);
    free(next);
    return found;
}

/* A game's solvable() may prove a puzzle unsolvable without search: a goal
 * within reach proves the check wrong. */
static void check_unsolvable(const struct ps_game *g, const void *inst)
{
    char why[256];
    if (!g->solvable || g->solvable(inst, why, sizeof why))
        return;
    if (goal_within(g, inst))
        fuzz_fail(g, "solvable() calls a puzzle unsolvable (%s), but a "
                     "breadth-first search reaches a goal", why);
}

static void check_runs(const struct ps_game *g, const void *inst,
                       const struct ps_run *runs, int n)
{
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    for (int i = 0; i < n; i++)
        if (runs[i].found && !runs[i].verified)
            fuzz_fail(g, "%s returned a solution that does not verify: %s",
                      runs[i].algo, runs[i].verify_error);
    if (!ps_runs_agree(runs, n, NULL))
        fuzz_fail(g, "the exact algorithms disagree");
    for (int i = 0; i < n; i++) {
        if (runs[i].status != PS_OPTIMAL && runs[i].status != PS_UNSOLVABLE)
            continue;
        if (runs[i].status == PS_OPTIMAL && !runs[i].found)
            fuzz_fail(g, "%s claims an optimum without a solution",
                      runs[i].algo);
        if (runs[i].status == PS_OPTIMAL)
            check_knowledge(g, inst, &runs[i], maximise);
        for (int j = 0; j < n; j++) {
            if (!runs[j].found || !runs[j].replay.over)
                continue;
            if (runs[i].status == PS_UNSOLVABLE)
                fuzz_fail(g, "%s proves unsolvable what %s solved",
                          runs[i].algo, runs[j].algo);
            if (beats(maximise, runs[j].value, runs[i].value))
                fuzz_fail(g, "%s found %lld, better than the optimum %lld of "
                             "%s", runs[j].algo, (long long)runs[j].value,
                          (long long)runs[i].value, runs[i].algo);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct fuzz_pick p;
    void *inst = fuzz_load(data[0], data + 1, size - 1, &p);
    if (!inst)
        return 0;
    bool maximise = ps_game_flags(p.game, inst) & PS_MAXIMISE;
    if (!maximise)
        check_unsolvable(p.game, inst);
    struct ps_limits limits = {.max_nodes = FUZZ_MAX_NODES,
                               .max_memory = (uint64_t)64 << 20};
    struct ps_options opt;
    ps_options_default(&opt);
    opt.threads = 1;
    opt.seed = fuzz_seed(data, size);
    /* A wide beam spends the node budget in one level. */
    static struct ps_algo_book book;
    ps_algo_book_init(&book, NULL);
    char msg[200];
    if (!ps_algo_book_set(&book, &opt, "beam-width", "10", msg, sizeof msg))
        abort(); /* renamed: the harness must follow */
    opt.book = &book;
    struct ps_run runs[FUZZ_MAX_ALGOS];
    int n = 0;
    for (const struct ps_algorithm *const *a = ps_algorithm_list();
         *a && n < FUZZ_MAX_ALGOS; a++) {
        if (maximise ? !(*a)->for_score : !(*a)->for_cost)
            continue;
        struct ps_search s;
        ps_search_init(&s, p.game, inst, &limits, &opt);
        enum ps_status st = ps_search_run(&s, *a);
        ps_run_capture(&runs[n++], &s, st);
        ps_search_free(&s);
    }
    check_runs(p.game, inst, runs, n);
    for (int i = 0; i < n; i++)
        ps_run_free(&runs[i]);
    p.game->free_instance(inst);
    fuzz_pick_free(&p);
    return 0;
}
