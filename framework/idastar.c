/*
 * idastar.c - IDA*: depth-first searches bounded by f = g + h <= bound, the
 * bound raised each round to the smallest f that exceeded it. Exact with an
 * admissible h, and its memory is linear in the depth: the states of the
 * current path and one move list per level, no table. The price is
 * re-expanding states: every round repeats the previous ones, and a state
 * reached by several paths is searched once per path. A successor equal to
 * a state on the current path is skipped (a cycle can never be part of a
 * cheapest solution). With no cycles the tree of paths is finite, so a round
 * that exceeds no bound has searched everything: the instance is unsolvable.
 */
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define NO_BOUND INT64_MAX

struct ida {
    struct ps_search *s;
    int max_moves;
    int cap;                 /* levels allocated */
    unsigned char *states;   /* cap * state_size: the current path */
    uint64_t *hashes;        /* cap */
    ps_move *moves;          /* cap * max_moves */
    ps_value *costs;         /* cap * max_moves */
    ps_move *path;           /* cap: the move taken at each level */
    uint64_t reserved;
    ps_value bound, next_bound;
};

enum ida_result { IDA_FOUND, IDA_NOT_FOUND, IDA_STOPPED };

static unsigned char *state_at(struct ida *d, int depth)
{
    return d->states + (size_t)depth * d->s->state_size;
}

/* Make room for levels 0..depth. */
static bool ida_grow(struct ida *d, int depth)
{
    if (depth < d->cap)
        return true;
    int cap = d->cap ? d->cap * 2 : 64;
    while (cap <= depth)
        cap *= 2;
    size_t per_level = d->s->state_size + sizeof *d->hashes +
                       (size_t)d->max_moves * (sizeof *d->moves + sizeof *d->costs) +
                       sizeof *d->path;
    uint64_t extra = (uint64_t)(cap - d->cap) * per_level;
    if (!ps_memory_reserve(d->s, extra))
        return false;
    d->reserved += extra;
    unsigned char *st = realloc(d->states, (size_t)cap * d->s->state_size);
    if (st)
        d->states = st;
    uint64_t *h = realloc(d->hashes, (size_t)cap * sizeof *h);
    if (h)
        d->hashes = h;
    ps_move *m = realloc(d->moves, (size_t)cap * (size_t)d->max_moves * sizeof *m);
    if (m)
        d->moves = m;
    ps_value *c = realloc(d->costs, (size_t)cap * (size_t)d->max_moves * sizeof *c);
    if (c)
        d->costs = c;
    ps_move *p = realloc(d->path, (size_t)cap * sizeof *p);
    if (p)
        d->path = p;
    if (!st || !h || !m || !c || !p) {
        d->s->stop = PS_STOP_MEMORY;
        return false;
    }
    d->cap = cap;
    return true;
}

static bool on_path(struct ida *d, int depth, uint64_t hash, const void *state)
{
    for (int k = 0; k < depth; k++)
        if (d->hashes[k] == hash &&
            ps_game_equal(d->s->game, d->s->inst, state_at(d, k), state))
            return true;
    return false;
}

static enum ida_result ida_search(struct ida *d, int depth, ps_value g)
{
    struct ps_search *s = d->s;
    const struct ps_game *game = s->game;
    const unsigned char *state = state_at(d, depth);
    ps_value h = game->heuristic ? game->heuristic(s->inst, state) : 0;
    if (g + h > d->bound) {
        if (g + h < d->next_bound)
            d->next_bound = g + h;
        return IDA_NOT_FOUND;
    }
    if (game->is_goal(s->inst, state)) {
        ps_search_offer(s, d->path, depth, g);
        return IDA_FOUND;
    }
    if (ps_search_stopped(s) || !ida_grow(d, depth + 1))
        return IDA_STOPPED;
    /* Deeper levels may grow (move) the arrays: index, never keep pointers
     * across the recursive call. */
    size_t base = (size_t)depth * (size_t)d->max_moves;
    if (ps_search_tracing(s))
        ps_search_trace(s, state_at(d, depth), depth, g, h, "expand");
    s->stats.expanded++;
    int n = game->moves(s->inst, state_at(d, depth), d->moves + base,
                        d->costs + base);
    for (int i = 0; i < n; i++) {
        if (depth > 0 && game->redundant_after &&
            game->redundant_after(s->inst, state_at(d, depth - 1),
                                  d->path[depth - 1], state_at(d, depth),
                                  d->moves[base + i])) {
            s->stats.pruned++;
            continue;
        }
        unsigned char *next = state_at(d, depth + 1);
        game->apply(s->inst, state_at(d, depth), d->moves[base + i], next);
        s->stats.generated++;
        uint64_t hash = game->hash(s->inst, next);
        if (on_path(d, depth + 1, hash, next)) {
            s->stats.duplicates++;
            continue;
        }
        d->hashes[depth + 1] = hash;
        d->path[depth] = d->moves[base + i];
        enum ida_result r = ida_search(d, depth + 1, g + d->costs[base + i]);
        if (r != IDA_NOT_FOUND)
            return r;
    }
    return IDA_NOT_FOUND;
}

static enum ps_status idastar_run(struct ps_search *s)
{
    struct ida d;
    memset(&d, 0, sizeof d);
    d.s = s;
    d.max_moves = s->game->max_moves(s->inst);
    enum ps_status st = PS_OPTIMAL;
    if (!ida_grow(&d, 1))
        goto done;
    s->game->initial_state(s->inst, state_at(&d, 0));
    d.hashes[0] = s->game->hash(s->inst, state_at(&d, 0));
    d.bound = s->game->heuristic ? s->game->heuristic(s->inst, state_at(&d, 0))
                                 : 0;
    for (;;) {
        s->stats.iterations++;
        d.next_bound = NO_BOUND;
        enum ida_result r = ida_search(&d, 0, 0);
        if (r != IDA_NOT_FOUND)
            break;
        if (d.next_bound == NO_BOUND) {
            st = PS_UNSOLVABLE;
            break;
        }
        d.bound = d.next_bound;
    }
done:
    ps_memory_release(s, d.reserved);
    free(d.states);
    free(d.hashes);
    free(d.moves);
    free(d.costs);
    free(d.path);
    return st;
}

const struct ps_algorithm ps_algo_idastar = {
    .name = "idastar",
    .summary = "IDA*: iterative deepening on g + h, memory linear in depth "
               "(exact)",
    .for_score = false,
    .for_cost = true,
    .run = idastar_run,
};
