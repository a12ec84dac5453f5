/*
 * dfs.c - depth-first search with memory: branch and bound for score games,
 * iterative deepening for cost games. docs/algorithms.md teaches both.
 *
 * Score games (PS_MAXIMISE): V(s), the best score still to come from state
 * s, is the largest gain + V(child), or end_value(s) when no move is left.
 * The search walks the tree depth first, best-looking move first (with a
 * bound: largest gain + bound of the child, i.e. least loss against the
 * node's own bound; without one, or with --candidates: largest gain; ties
 * by gain, then the game's order), and
 *   - starts from the greedy line, so there is a good `best` at once;
 *     each round of the incumbent rounds (below) walks down the best line
 *     so far first (pv_first), so its first nodes go to that line's end
 *     game;
 *   - cuts a node when score so far + upper_bound(node) <= best: nothing
 *     below can beat the best (only with PS_HAS_BOUND, not with --no-bound);
 *     a game's bounded_moves() gives the children's bounds without making
 *     them, so the children that are cut are never made;
 *   - remembers V(s) per state in an exact table (framework/kernel/table.h), so a
 *     position reached again by another order of moves is not searched again.
 *
 * Why the memo stays sound next to the bound. A cut depends on the path (the
 * score so far) and on the global best at that moment; the subtree under a
 * cut was not searched, so the value computed for a node above a cut is not
 * V(s). It is an upper bound of V(s), though: a cut child c returns U(c) =
 * min(upper_bound(c), its table bound) >= V(c), every other child returns
 * V(c) or such a bound, and a max of upper bounds bounds the max. So each
 * node returns (value, exact) and each table entry stores the same pair:
 *   exact  - value = V(s): every child was exact (no cut anywhere below).
 *            Reused as the node's value; never downgraded to a bound.
 *   bound  - V(s) <= value. Reused only as a cut: if so far + value <= best
 *            the node cannot improve, otherwise it is searched again.
 * A cut never loses the optimum, because it only cuts where no line can be
 * strictly better than one already offered. Note that every value a node
 * returns or the table holds is >= the truth, and every line offered is a
 * real one: the flag decides how much work is saved, not what is found.
 *
 * The path is never stored in the table. Every finished line is offered to
 * ps_search_offer() from the current path (so a time-out or Ctrl-C keeps the
 * best so far); when an exact table hit would improve the best, the rest of
 * its line is rebuilt by re-walking the table from that state, each step
 * choosing a child whose gain + exact value equals what remains. If a child
 * entry is missing (the table was full when it was searched) the rebuild
 * fails and the node is simply searched again.
 *
 * --candidates K (only the K first moves in order) and --max-depth D (lines
 * are finished greedily after D moves) make the search a heuristic: the
 * result says so in s->note. The table stays sound for both: K cuts the
 * moves by the state alone, and every entry records the depth budget it was
 * computed with, and is reused only with the same budget.
 *
 * Memory: when --max-memory refuses to let the table grow, the search goes
 * on without storing new states (existing entries are still read and
 * updated), so it stays exact and within the limit; the note says so. (In
 * cost mode new states take over old entries instead: below.)
 *
 * Cost games: iterative deepening on f = g + h (h = heuristic() with
 * PS_HAS_HEURISTIC, else 0; IDA* then, else depth-first iterative deepening
 * on cost). Each round searches every path with f <= threshold; the next
 * threshold is the smallest f that went over. The same table holds the
 * smallest g with which each state was entered in this round: entering it
 * again with g no smaller cannot reach anything new within the threshold, so
 * it is a duplicate (this also stops cycles). It also keeps, from round to
 * round, a lower bound on each state's cost to a goal that the searches
 * below it learned (the least cost + bound over its children, at least h):
 * a later round cuts by it as by h. Once the table is full, a new state
 * takes over the entry of the deepest state near its home slot, never a
 * shallower one nor one on the current path (cost_entry_worth). Without
 * the table (--no-memo)
 * the states on the current path are checked instead. The first goal found
 * costs exactly the threshold, the optimum; a round with nothing over the
 * threshold and no goal proves the puzzle unsolvable. Once the rounds have
 * expanded DFS_COST_BEAM_AFTER nodes per unit of its width without an
 * answer, a beam gives a first line (cost_beam.h, --dfs-cost-beam), and
 * wider beams later ones: the best is the answer a limit returns, proven
 * optimal once a round's threshold reaches its cost.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beam.h"
#include "checkpoint.h"
#include "cost_beam.h"
#include "greedy.h"
#include "deepening.h"
#include "dfs_place.h"
#include "table.h"

#define DFS_UNCAPPED 0x3fffffff /* the depth budget without --max-depth */
#define DFS_COST_BEAM_AFTER 32  /* cost games: expansions per unit of the
                                 * first beam's width before it runs */
#define DFS_COST_BEAM_LATER 256 /* ... and of each wider one's */
#define DFS_COST_BEAM_QUICK 16  /* cost games: the quick beam is this
                                 * many times narrower than --dfs-cost-beam */
#define DFS_COST_BEAM_FIRST 64  /* cost games: the first beam is this many
                                 * times narrower than --dfs-cost-beam */
#define DFS_COST_BEAM_FIRST_AFTER 16 /* ... and runs once the rounds have
                                     * expanded this many nodes per unit
                                     * of its width */
#define DFS_COST_BEAM_MAX_WIDTH (1 << 18) /* cost games: the widest beam */
#define DFS_ENTRY_SIZE 12       /* payload: int64 value, int32 budget<<1|exact */

/* dfs's own options (its table is at the end of the file) */
struct dfs_options {
    int candidates;   /* only the K best-ordered moves (0 = all) */
    int max_depth;    /* depth cap (0 = none) */
    bool no_memo;     /* no transposition table */
    bool no_bound;    /* no upper-bound pruning */
    int beam;         /* score games: first beam width of the incumbent
                       * rounds (0 = the greedy line only) */
    double nrpa;      /* score games: the share of the time
                       * left after the first round that nrpa has (0 = off) */
    double nrpa_after; /* the share of --time the rounds have before nrpa's
                        * first slice */
    int cost_beam;    /* cost games: the width of the first line's beam (0 =
                       * none) */
    bool no_floors;   /* cost games: the game's child_floors unused */
};

static const struct dfs_options *dfs_opt(const struct ps_search *s)
{
    return ps_search_algo_options(s);
}

struct dfs {
    struct ps_search *s;
    const struct ps_game *g;
    const void *inst;
    size_t ss;
    int max_moves;
    int frames;             /* depths the arrays below hold */
    unsigned char *states;  /* one state per depth */
    ps_move *moves;         /* max_moves per depth */
    ps_value *gains;
    ps_value *keys;         /* score games with a bound: gain + child bound */
    int *order;
    ps_move *path;          /* the moves leading to each depth */
    int *nmoves;            /* cost games: the moves listed at each depth */
    int depth_now;          /* cost games: the depth of the latest node */
    ps_move *pv;            /* score games: the best line when the round began */
    int pv_len, pv_cap;
    int pv_at;              /* the path follows pv up to this depth */
    struct ps_table tt;
    bool memo, table_full, bound;
    bool child_bounds;      /* the bound is the game's: bounded_moves() */
    bool child_floors;      /* cost games, the game's h: child_floors() */
    bool use_h;             /* cost games: f = g + h (else g alone) */
    bool full_noted;        /* the note says the table filled up */
    ps_table_worth evict;   /* cost games: a full table gives entries of
                             * least worth to new states (NULL: stores
                             * no more) */
    int32_t evict_g;        /* ... the g of the state inserted */
    int candidates;         /* 0 = all moves */
    int max_depth;          /* 0 = none */
    bool depth_cut;         /* cost games: --max-depth cut something */
    int32_t round;          /* cost games: the round's number, from 1 */
    struct ps_deepening deep; /* cost games: the round's threshold */
    uint64_t beam_at;       /* cost games: run the beam at this many
                             * expanded (UINT64_MAX: never, or done) */
    int beam_width;         /* ... that many states per depth */
    bool beam_first;        /* ... the first beam */
    bool beams_double;      /* ... after a ladder: each twice as wide */
    struct ps_cost_beam_memo *beam_memo; /* what the beams ranked */
    ps_value h0;            /* cost games: the start's h */
    int deepest;            /* cost games: the rounds' deepest node */
    struct dfs_place resume; /* cost games: where a resumed round goes on */
    bool resume_due;        /* ... in the first round */
    bool resuming;          /* ... while that round walks down to it */
    struct ps_greedy greedy;
};

/* ---- per-depth storage ---- */

static bool frames_resize(struct dfs *d, int frames)
{
    size_t mm = (size_t)d->max_moves, n = (size_t)frames;
    unsigned char *states = realloc(d->states, n * d->ss);
    if (states)
        d->states = states;
    ps_move *moves = realloc(d->moves, n * mm * sizeof *moves);
    if (moves)
        d->moves = moves;
    ps_value *gains = realloc(d->gains, n * mm * sizeof *gains);
    if (gains)
        d->gains = gains;
    ps_value *keys = realloc(d->keys, n * mm * sizeof *keys);
    if (keys)
        d->keys = keys;
    int *order = realloc(d->order, n * mm * sizeof *order);
    if (order)
        d->order = order;
    ps_move *path = realloc(d->path, n * sizeof *path);
    if (path)
        d->path = path;
    int *nmoves = realloc(d->nmoves, n * sizeof *nmoves);
    if (nmoves)
        d->nmoves = nmoves;
    if (!states || !moves || !gains || !keys || !order || !path || !nmoves)
        return false;
    d->frames = frames;
    return true;
}

/* Make room for depth `depth` (cost games can go deeper than max_depth()). */
static bool frames_reach(struct dfs *d, int depth)
{
    if (depth < d->frames)
        return true;
    if (frames_resize(d, 2 * depth + 2))
        return true;
    d->s->stop = PS_STOP_MEMORY;
    return false;
}

static unsigned char *state_at(const struct dfs *d, int depth)
{
    return d->states + (size_t)depth * d->ss;
}

static ps_move *moves_at(const struct dfs *d, int depth)
{
    return d->moves + (size_t)depth * (size_t)d->max_moves;
}

static ps_value *gains_at(const struct dfs *d, int depth)
{
    return d->gains + (size_t)depth * (size_t)d->max_moves;
}

static ps_value *keys_at(const struct dfs *d, int depth)
{
    return d->keys + (size_t)depth * (size_t)d->max_moves;
}

static int *order_at(const struct dfs *d, int depth)
{
    return d->order + (size_t)depth * (size_t)d->max_moves;
}

/* ---- the table ---- */

struct dfs_entry {
    int64_t value;
    int32_t budget; /* the depth budget the value was computed with */
    bool exact;
};

static struct dfs_entry entry_get(const struct dfs *d, int64_t i)
{
    const unsigned char *p = ps_table_value(&d->tt, i);
    struct dfs_entry e;
    int32_t packed;
    memcpy(&e.value, p, sizeof e.value);
    memcpy(&packed, p + 8, sizeof packed);
    e.budget = packed >> 1;
    e.exact = packed & 1;
    return e;
}

static void entry_set(struct dfs *d, int64_t i, struct dfs_entry e)
{
    unsigned char *p = ps_table_value(&d->tt, i);
    int32_t packed = (int32_t)((uint32_t)e.budget << 1 | (e.exact ? 1u : 0u));
    memcpy(p, &e.value, sizeof e.value);
    memcpy(p + 8, &packed, sizeof packed);
}

/* Insert `state`; on a full table, give it an entry of least d->evict
 * worth (cost mode), or note it and carry on without storing. */
static int64_t table_insert(struct dfs *d, uint64_t hash, const void *state,
                            bool *added)
{
    *added = false;
    if (d->table_full)
        return ps_table_find(&d->tt, hash, state);
    int64_t i = d->evict ? ps_table_insert_evicting(&d->tt, hash, state,
                                                    added, d->evict, &d->evict_g)
                         : ps_table_insert(&d->tt, hash, state, added);
    if (i != PS_TABLE_FULL)
        return i;
    if (d->evict)
        return PS_TABLE_NONE; /* every entry near it is on the path */
    d->table_full = true; /* the table stops growing, not the search */
    if (d->full_noted)
        return PS_TABLE_NONE;
    d->full_noted = true;
    char *note = d->s->note;
    size_t used = strlen(note);
    snprintf(note + used, sizeof d->s->note - used,
             "%stable full at %zu entries: searched on without storing",
             used ? "; " : "", d->tt.count);
    return PS_TABLE_NONE;
}

/* ---- move order ---- */

/* Order the moves at `depth` by gain, largest first, ties in the game's
 * order (a stable insertion sort: n is small). Returns how many to try. */
static int order_moves(struct dfs *d, int depth, int n)
{
    const ps_value *gains = gains_at(d, depth);
    int *order = order_at(d, depth);
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && gains[order[j - 1]] < gains[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    return d->candidates > 0 && d->candidates < n ? d->candidates : n;
}

/* ---- score games ---- */

static void offer_line(struct dfs *d, int len, ps_value value)
{
    if (ps_search_improves(d->s, value))
        ps_search_offer(d->s, d->path, len, value);
}

/* The value of a node at the depth cap: its greedy line, written to the path
 * from `depth` on. Returns the value; *len receives the whole line's length. */
static ps_value greedy_tail(struct dfs *d, int depth, int *len)
{
    bool over;
    int tail;
    ps_value v = ps_greedy_play(&d->greedy, NULL, false, state_at(d, depth),
                                d->path + depth, d->frames - depth, &tail,
                                &over);
    d->s->stats.generated += (uint64_t)tail;
    *len = depth + tail;
    return v;
}

static int budget_at(const struct dfs *d, int depth)
{
    return d->max_depth ? d->max_depth - depth : DFS_UNCAPPED;
}

/* The exact value of the state at `depth` if it is known without search:
 * terminal, at the depth cap (greedy), or an exact table entry. */
static bool known_value(struct dfs *d, int depth, ps_value *value)
{
    const void *state = state_at(d, depth);
    int budget = budget_at(d, depth);
    if (d->memo) {
        int64_t i = ps_table_find(&d->tt, d->g->hash(d->inst, state), state);
        if (i >= 0) {
            struct dfs_entry e = entry_get(d, i);
            if (e.exact && e.budget == budget) {
                *value = e.value;
                return true;
            }
        }
    }
    if (d->g->moves(d->inst, state, moves_at(d, depth), NULL) == 0) {
        *value = d->g->end_value ? d->g->end_value(d->inst, state) : 0;
        return true;
    }
    if (budget == 0) {
        int len;
        *value = greedy_tail(d, depth, &len);
        return true;
    }
    return false;
}

/* Rebuild, from the state at `depth` (reached with `so_far`), a line worth
 * exactly `remaining` by following exact values, and offer it. False when a
 * step finds no child with a known value that fits. */
static bool rebuild_line(struct dfs *d, int depth, ps_value so_far,
                         ps_value remaining)
{
    for (;;) {
        const void *state = state_at(d, depth);
        ps_move *moves = moves_at(d, depth);
        int n = d->g->moves(d->inst, state, moves, gains_at(d, depth));
        if (n == 0) {
            ps_value end = d->g->end_value ? d->g->end_value(d->inst, state) : 0;
            if (end != remaining)
                return false;
            offer_line(d, depth, so_far + end);
            return true;
        }
        if (budget_at(d, depth) == 0) {
            int len;
            if (greedy_tail(d, depth, &len) != remaining)
                return false;
            offer_line(d, len, so_far + remaining);
            return true;
        }
        int k = order_moves(d, depth, n), i;
        for (i = 0; i < k; i++) {
            ps_move mv = moves[order_at(d, depth)[i]];
            ps_value gain = d->g->apply(d->inst, state, mv, state_at(d, depth + 1));
            ps_value v;
            if (known_value(d, depth + 1, &v) && gain + v == remaining) {
                d->path[depth] = mv;
                so_far += gain;
                remaining -= gain;
                break;
            }
        }
        if (i == k)
            return false;
        depth++;
    }
}

static ps_value score_node(struct dfs *d, int depth, ps_value so_far,
                           ps_value upper, bool *exact);

/* Make and search the child of the state at `depth` by `mv` (`upper`: its
 * bound if known, else INT64_MAX), folding gain + its value into *best and
 * its exactness into *all_exact. False after a stop. */
static bool search_child(struct dfs *d, int depth, ps_move mv, ps_value so_far,
                         ps_value upper, ps_value *best, bool *all_exact)
{
    ps_value gain = d->g->apply(d->inst, state_at(d, depth), mv,
                                state_at(d, depth + 1));
    d->s->stats.generated++;
    d->path[depth] = mv;
    bool child_exact;
    int pv_at = d->pv_at;
    if (pv_at == depth && depth < d->pv_len && d->pv[depth] == mv)
        d->pv_at = depth + 1;
    ps_value v = score_node(d, depth + 1, so_far + gain,
                            upper == INT64_MAX ? upper : upper - gain,
                            &child_exact);
    d->pv_at = pv_at;
    if (d->s->stop != PS_STOP_NONE)
        return false;
    if (gain + v > *best)
        *best = gain + v;
    *all_exact = *all_exact && child_exact;
    return true;
}

/* The children of the state at `depth` (n moves listed), largest gain
 * first (--candidates K: the K first). Returns the best gain + child value;
 * *all_exact says whether every child's value was exact. */
static ps_value children_by_gain(struct dfs *d, int depth, int n,
                                 ps_value so_far, bool *all_exact)
{
    struct ps_search *s = d->s;
    int k = order_moves(d, depth, n);
    s->stats.pruned += (uint64_t)(n - k);
    s->stats.pruned_candidates += (uint64_t)(n - k);
    ps_value best = INT64_MIN;
    *all_exact = true;
    for (int i = 0; i < k; i++) {
        if (!search_child(d, depth, moves_at(d, depth)[order_at(d, depth)[i]],
                          so_far, INT64_MAX, &best, all_exact))
            return 0;
    }
    return best;
}

/* On the best line of the round's start (the path so far follows it), put
 * its next move first in `order` (n moves): the search then starts down
 * that line, and its first nodes are spent on the end game of the best
 * line, where a better line is likeliest. Returns how many moves lead out
 * of order: 1 when a move was moved, else 0. The order never cuts a move
 * whose bound could beat the best (it is cut alone when its own bound
 * cannot); a better best found sooner cuts more later: the saving. */
static int pv_first(const struct dfs *d, int depth, int n, int *order)
{
    if (d->pv_at != depth || depth >= d->pv_len)
        return 0;
    const ps_move *moves = moves_at(d, depth);
    for (int i = 0; i < n; i++) {
        if (moves[order[i]] != d->pv[depth])
            continue;
        int m = order[i];
        memmove(order + 1, order, (size_t)i * sizeof *order);
        order[0] = m;
        return 1;
    }
    return 0;
}

/* The same with the bound: every child is made and bounded first, and the
 * children are searched by gain + child bound, largest first (ties: larger
 * gain, then the game's order). That is the order of least loss against
 * the node's own bound, so the lines most likely to beat `best` come
 * first and raise it early; and once one child's gain + bound cannot beat
 * `best`, no later one can (best only grows), so the rest are cut
 * together. A cut child contributes its gain + bound, an upper bound of
 * its gain + value, so the result stays an upper bound of V(state).
 * With d->child_bounds the keys hold the children's bounds already
 * (bounded_moves()), and only the children searched are made. */
static ps_value children_by_bound(struct dfs *d, int depth, int n,
                                  ps_value so_far, bool *all_exact)
{
    struct ps_search *s = d->s;
    const void *state = state_at(d, depth);
    void *child = state_at(d, depth + 1);
    const ps_move *moves = moves_at(d, depth);
    const ps_value *gains = gains_at(d, depth);
    ps_value *keys = keys_at(d, depth);
    int *order = order_at(d, depth);
    for (int i = 0; i < n; i++) {
        if (d->child_bounds) {
            keys[i] += gains[i];
        } else {
            keys[i] = d->g->apply(d->inst, state, moves[i], child) +
                      ps_search_h(s, child);
            s->stats.generated++;
        }
        int j = i;
        while (j > 0 && (keys[order[j - 1]] < keys[i] ||
                         (keys[order[j - 1]] == keys[i] &&
                          gains[order[j - 1]] < gains[i]))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    int first = pv_first(d, depth, n, order);
    ps_value best = INT64_MIN;
    *all_exact = true;
    for (int i = 0; i < n; i++) {
        int m = order[i];
        if (!ps_search_improves(s, so_far + keys[m]) && i < first) {
            /* the best line's move, out of order: cut alone */
            s->stats.pruned++;
            s->stats.pruned_bound++;
            if (keys[m] > best)
                best = keys[m];
            *all_exact = false;
            continue;
        }
        if (!ps_search_improves(s, so_far + keys[m])) {
            s->stats.pruned += (uint64_t)(n - i);
            s->stats.pruned_bound += (uint64_t)(n - i);
            if (keys[m] > best)
                best = keys[m];
            *all_exact = false;
            break;
        }
        if (!search_child(d, depth, moves[m], so_far, keys[m], &best,
                          all_exact))
            return 0;
    }
    return best;
}

/* Search the state at `depth`, reached with score `so_far`. Returns V(state)
 * when *exact, else an upper bound of it (see the comment at the top). After
 * a stop the result means nothing and nothing is stored. `upper` is the
 * state's bound when the parent knows it (INT64_MAX: compute it here). */
static ps_value score_node(struct dfs *d, int depth, ps_value so_far,
                           ps_value upper, bool *exact)
{
    struct ps_search *s = d->s;
    const struct ps_game *g = d->g;
    *exact = false;
    if (ps_search_stopped(s))
        return 0;
    const void *state = state_at(d, depth);
    int budget = budget_at(d, depth);
    int64_t idx = PS_TABLE_NONE;
    uint64_t hash = 0;
    /* The table and the bound come before the moves: most nodes are cut
     * here, and a terminal node is cut soundly too (its end value is at most
     * its upper bound). */
    if (d->bound && upper == INT64_MAX)
        upper = ps_search_h(s, state);
    if (upper != INT64_MAX && !ps_search_improves(s, so_far + upper)) {
        s->stats.pruned++;
        s->stats.pruned_bound++;
        return upper;
    }
    if (d->memo && budget > 0) {
        hash = g->hash(d->inst, state);
        idx = ps_table_find(&d->tt, hash, state);
        s->stats.table_probes++;
        if (idx >= 0) {
            struct dfs_entry e = entry_get(d, idx);
            if (e.budget == budget) {
                s->stats.table_hits++;
                if (e.exact) {
                    s->stats.duplicates++;
                    if (!ps_search_improves(s, so_far + e.value) ||
                        rebuild_line(d, depth, so_far, e.value)) {
                        *exact = true;
                        return e.value;
                    }
                    /* The line could not be rebuilt: search it again. */
                } else if (e.value < upper) {
                    upper = e.value;
                }
            }
        }
    }
    if (upper != INT64_MAX && !ps_search_improves(s, so_far + upper)) {
        s->stats.pruned++;
        s->stats.pruned_bound++;
        return upper;
    }

    int n = d->child_bounds
                ? g->bounded_moves(d->inst, state, moves_at(d, depth),
                                   gains_at(d, depth), keys_at(d, depth))
                : g->moves(d->inst, state, moves_at(d, depth),
                           gains_at(d, depth));
    s->stats.expanded++;
    if (n == 0) {
        ps_value end = g->end_value ? g->end_value(d->inst, state) : 0;
        offer_line(d, depth, so_far + end);
        *exact = true;
        return end;
    }
    if (!ps_search_line_fits(s, depth)) {
        *exact = false;
        return 0;
    }
    if (budget == 0) {
        int len;
        ps_value v = greedy_tail(d, depth, &len);
        offer_line(d, len, so_far + v);
        *exact = true;
        return v;
    }
    if (ps_search_tracing(s))
        ps_search_trace(s, state, depth, so_far,
                        upper == INT64_MAX ? 0 : upper, NULL);

    bool all_exact;
    ps_value best = d->bound && !d->candidates
                        ? children_by_bound(d, depth, n, so_far, &all_exact)
                        : children_by_gain(d, depth, n, so_far, &all_exact);
    if (s->stop != PS_STOP_NONE)
        return 0;
    if (!all_exact && upper < best)
        best = upper; /* both bound V(state); keep the tighter */
    *exact = all_exact;
    if (d->memo) {
        bool added;
        if (idx < 0)
            idx = table_insert(d, hash, state, &added);
        if (idx >= 0) {
            struct dfs_entry old = entry_get(d, idx);
            bool keep = old.exact && old.budget == budget && !all_exact;
            if (!keep)
                entry_set(d, idx, (struct dfs_entry){best, budget, all_exact});
        }
    }
    return best;
}

/* ---- the incumbent rounds (score games) ----
 *
 * Alone, the depth-first order spends its time under the first few moves:
 * on a board it cannot finish, its best is little more than the greedy
 * line. So the exact search runs in rounds: a beam (the beam algorithm,
 * nested through the kernel, so its nodes count in this run) offers its
 * line, then the exact search runs from the start for a node budget; both
 * double each round until the exact search finishes within its budget (then
 * the answer is proven) or a limit stops the run. Each round starts from
 * the best line so far, so its bound cuts from the first node, and the
 * table is kept from round to round: its exact values stay exact and its
 * bounds stay bounds whatever the best was (see the comment at the top), so
 * a round only redoes the nodes whose cut the better best now decides
 * differently. Every step of the schedule is sized in nodes, never on the
 * clock: a run is the same sequence of beams, rounds and nrpa slices with
 * or without --time, on any machine and under any load, and a limit only
 * decides where it ends; so a longer --time never ends on a worse line
 * (one thread; with more, nrpa's workers race), and a run stopped by
 * Ctrl-C or SIGTERM at t has what --time t has. */

#define DFS_ROUND_NODES 20000 /* the exact search's least budget */
#define DFS_ROUND_RATIO 16     /* its budget per node of the round's beam */
#define DFS_MAX_BEAM (1 << 24) /* the widest beam of the rounds */
/* nrpa's share of the run (--dfs-nrpa) is counted in nodes, a node of the
 * beams and rounds weighing this many of nrpa's (a step of a playout):
 * the time per node, measured in dfs runs at --time 10 on 15x15x5 boards
 * (gen 7001, 7004), was 2.0 us for the beams and rounds against 1.0-1.2
 * for nrpa, and on a 10x10 PopStar board 0.82 against 0.74 */
#define DFS_NRPA_NODE_WEIGHT 1.5

/* Run the beam algorithm at `width` (fixed: no widening of its own) and
 * offer its line. */
static void beam_round(struct dfs *d, int width)
{
    const struct ps_algorithm *beam = ps_algorithm_find("beam");
    if (!beam)
        return;
    struct ps_search sub;
    ps_search_nest(&sub, d->s, beam);
    struct ps_beam_options *bo = (void *)sub.opt.own.u.bytes;
    bo->width = width;
    bo->playout = false;
    bo->dfs_nodes = 0;
    bo->endgame = 0;
    /* One beam, cut by the run's own clock (the clock is s's): a beam far
     * wider than the time allows (--dfs-beam 16777216 --time 1) once ran
     * for a minute. */
    bo->one_beam = true;
    sub.limits.seconds = d->s->limits.seconds;
    beam->run(&sub);
    ps_search_unnest(d->s, &sub);
}

/* After a round whose exact search did not finish: nrpa (nested, so its
 * playouts count in this run, with --threads) for `nodes` nodes at most,
 * its line offered. On a board the exact search cannot finish, the
 * rounds' beams trail nrpa by some percent at the same time
 * (docs/algorithms.md); the rounds after it start from nrpa's line as
 * their bound. */
static void nrpa_round(struct dfs *d, uint64_t nodes)
{
    struct ps_search *s = d->s;
    const struct ps_algorithm *nrpa = ps_algorithm_find("nrpa");
    uint64_t end = s->stats.expanded + nodes;
    if (s->limits.max_nodes && end > s->limits.max_nodes)
        end = s->limits.max_nodes;
    if (!nrpa || end <= s->stats.expanded)
        return;
    struct ps_search sub;
    ps_search_nest(&sub, s, nrpa);
    /* Each slice is a run of its own, so it is sized to the slice (--fit)
     * rather than grown (--grow, nrpa's default): a later slice does not
     * go on with an earlier one's search. Its node budget sizes it, s's
     * clock only stops it (nrpa_playouts_left). */
    char msg[128];
    if (!ps_algo_option_set(&sub.opt, nrpa, "grow", "0", msg, sizeof msg))
        return;
    sub.limits.max_nodes = end;
    nrpa->run(&sub); /* its stop at the slice's end stays in sub */
    ps_search_unnest(s, &sub);
}

/* The beam width of round 1: 0 = no beam (the greedy line alone), also
 * where the beam would not search the same problem: from another start
 * (beam's end game), inside another search, or under --candidates or
 * --max-depth (whose answers are the best line of the restricted tree). */
static int first_width(const struct dfs *d)
{
    const struct ps_search *s = d->s;
    if (dfs_opt(s)->beam <= 0 || s->root_state || s->nested || d->candidates ||
        d->max_depth || !d->g->evaluate)
        return 0;
    return dfs_opt(s)->beam;
}

/* The best line so far as the round's pv (see pv_first). False when out
 * of memory (the stop says so). */
static bool take_pv(struct dfs *d)
{
    const struct ps_solution *b = &d->s->best;
    if (b->len > d->pv_cap) {
        ps_move *pv = realloc(d->pv, (size_t)b->len * sizeof *pv);
        if (!pv) {
            d->s->stop = PS_STOP_MEMORY;
            return false;
        }
        d->pv = pv;
        d->pv_cap = b->len;
    }
    if (b->len > 0)
        memcpy(d->pv, b->moves, (size_t)b->len * sizeof *d->pv);
    d->pv_len = b->len;
    d->pv_at = 0;
    return true;
}

static enum ps_status score_run(struct dfs *d)
{
    struct ps_search *s = d->s;
    int len;
    bool over;
    ps_value v = ps_greedy_play(&d->greedy, s, false, state_at(d, 0), d->path,
                                d->frames, &len, &over);
    ps_search_offer(s, d->path, len, v);
    if (s->stop != PS_STOP_NONE)
        return PS_INCOMPLETE;
    int width = first_width(d);
    uint64_t budget = DFS_ROUND_NODES;
    /* nrpa's slices (where the beams run): after each unfinished round,
     * enough for nrpa to have had the share --dfs-nrpa of the nodes so far
     * (DFS_NRPA_NODE_WEIGHT); so a board the exact search can finish is
     * still proven, in about 1 / (1 - share) times the time. The slices
     * grow geometrically with the run, so a stop at any moment finds nrpa
     * with its share behind it. */
    double share = width > 0 ? dfs_opt(s)->nrpa : 0;
    uint64_t nrpa_nodes = 0;
    double nrpa_seconds = 0; /* for --dfs-nrpa-after alone */
    for (;;) {
        if (width > 0) {
            uint64_t before = s->stats.expanded;
            beam_round(d, width);
            uint64_t beam_nodes = s->stats.expanded - before;
            if (ps_search_poll(s))
                return PS_INCOMPLETE;
            budget = DFS_ROUND_RATIO * beam_nodes;
            if (budget < DFS_ROUND_NODES)
                budget = DFS_ROUND_NODES;
            width = width < DFS_MAX_BEAM ? 2 * width : 0;
        }
        /* The round's budget as a lowered node limit: its stop takes the
         * paths every stop takes, so nothing half-searched is stored. */
        uint64_t limit = s->limits.max_nodes;
        bool round = width > 0 && d->memo && d->bound && !d->table_full &&
                     (limit == 0 || s->stats.expanded + budget < limit);
        if (round)
            s->limits.max_nodes = s->stats.expanded + budget;
        bool exact;
        s->stats.iterations++;
        if (!take_pv(d))
            return PS_INCOMPLETE;
        score_node(d, 0, 0, INT64_MAX, &exact);
        s->limits.max_nodes = limit;
        if (round && s->stop == PS_STOP_NODES) {
            s->stop = PS_STOP_NONE;
            double other = DFS_NRPA_NODE_WEIGHT *
                           (double)(s->stats.expanded - nrpa_nodes);
            double slice = share / (1 - share) * other - (double)nrpa_nodes;
            if (slice > 1e18) /* far past any run, and within uint64_t */
                slice = 1e18;
            bool after = dfs_opt(s)->nrpa_after <= 0 ||
                         ps_now() - s->start - nrpa_seconds >=
                             dfs_opt(s)->nrpa_after * s->limits.seconds;
            if (share > 0 && slice >= 1 && after) {
                double began = ps_now();
                uint64_t before = s->stats.expanded;
                nrpa_round(d, (uint64_t)slice);
                nrpa_nodes += s->stats.expanded - before;
                nrpa_seconds += ps_now() - began;
                if (ps_search_poll(s))
                    return PS_INCOMPLETE;
            }
            continue;
        }
        break;
    }
    if (d->candidates || d->max_depth)
        return PS_HEURISTIC;
    return PS_OPTIMAL;
}

/* ---- cost games ---- */

/* A cost game's table entry: the smallest g the state was entered with in
 * round `round`, and a lower bound on its cost to a goal learned by earlier
 * searches below it (at least h). The table is kept from round to round, so
 * a subtree that a round proved to need more than the next round's
 * threshold allows is cut at its root, not searched again.
 *
 * Stored in 7 bytes, one 56-bit word, not 12: a Former entry (a 17-byte
 * key and this, rounded to 8) takes 24 bytes instead of 32, and one of
 * the 15-puzzle (an 8-byte key) 16 instead of 24, so --max-memory holds
 * about a fifth more states where the entries are what it stops (with the
 * index's 8 bytes a slot at a load of 1/2, 40 bytes an entry instead of
 * 48; Former board 10 at 50 MB holds 41% more and expands 25% fewer
 * nodes). Where the index's doubling is what it stops, as for the long
 * Former proofs at 17-19 GB, the count stays (docs/benchmarks.md).
 * Fields: g (22 bits), lb (22 bits), round (11 bits), on_path (1 bit).
 * Values that do not fit lose precision only where that stays sound: a
 * bound is stored as at most COST_LB_MAX (a smaller lower bound is still
 * one), and a g past COST_G_MAX as "unknown", never taken for a
 * duplicate (that state is searched again; cost_node checks the path for
 * cycles instead): only a game whose lines cost four million or more
 * loses anything. After COST_ROUND_MAX rounds they are counted from 1
 * again, every entry's round made 0 first (cost_rounds_restart): a round
 * must know its own entries, since a state met again on the path (a
 * cycle of zero cost) is caught as a duplicate of this round. */
struct cost_entry {
    ps_value g, lb;
    int32_t round;
    bool on_path; /* being searched: never given to another state */
};
#define DFS_COST_ENTRY_SIZE 7 /* payload: g:22 lb:22 round:11 on_path:1 */
#define COST_FIELD_BITS 22
#define COST_FIELD_ALL ((1 << COST_FIELD_BITS) - 1)
#define COST_G_NONE COST_FIELD_ALL      /* g stored: it did not fit */
#define COST_G_MAX (COST_FIELD_ALL - 1) /* the largest g stored as itself */
#define COST_LB_NONE COST_FIELD_ALL     /* lb PS_NO_BOUND: no goal below */
#define COST_LB_MAX (COST_FIELD_ALL - 1) /* larger bounds are stored as this */
#define COST_G_UNKNOWN PS_NO_BOUND      /* g as read back when it did not fit */
#define COST_ROUND_SHIFT (2 * COST_FIELD_BITS)
#define COST_ROUND_MAX 0x7ff /* 11 bits */
#define COST_ON_PATH ((uint64_t)1 << 55)

/* The payload's word, little-endian in its 7 bytes on any machine. */
static uint64_t cost_word_get(const unsigned char *p)
{
    uint64_t w = 0;
    for (int b = 0; b < DFS_COST_ENTRY_SIZE; b++)
        w |= (uint64_t)p[b] << (8 * b);
    return w;
}

static void cost_word_set(unsigned char *p, uint64_t w)
{
    for (int b = 0; b < DFS_COST_ENTRY_SIZE; b++)
        p[b] = (unsigned char)(w >> (8 * b));
}

static int32_t cost_word_g(uint64_t w)
{
    return (int32_t)(w & COST_FIELD_ALL);
}

static int32_t cost_word_round(uint64_t w)
{
    return (int32_t)((w >> COST_ROUND_SHIFT) & COST_ROUND_MAX);
}

static struct cost_entry cost_entry_get(const struct dfs *d, int64_t i)
{
    uint64_t w = cost_word_get(ps_table_value(&d->tt, i));
    int32_t g = cost_word_g(w),
            lb = (int32_t)((w >> COST_FIELD_BITS) & COST_FIELD_ALL);
    return (struct cost_entry){g == COST_G_NONE ? COST_G_UNKNOWN : g,
                               lb == COST_LB_NONE ? PS_NO_BOUND : lb,
                               cost_word_round(w), (w & COST_ON_PATH) != 0};
}

/* g as stored: COST_G_NONE when it does not fit (or is unknown). */
static int32_t cost_g_field(ps_value g)
{
    return g >= 0 && g <= COST_G_MAX ? (int32_t)g : COST_G_NONE;
}

static void cost_entry_set(struct dfs *d, int64_t i, struct cost_entry e)
{
    uint64_t lb = e.lb == PS_NO_BOUND  ? COST_LB_NONE
                  : e.lb > COST_LB_MAX ? COST_LB_MAX
                                       : (uint64_t)e.lb;
    uint64_t w = (uint64_t)cost_g_field(e.g) | lb << COST_FIELD_BITS |
                 (uint64_t)(e.round & COST_ROUND_MAX) << COST_ROUND_SHIFT |
                 (e.on_path ? COST_ON_PATH : 0);
    cost_word_set(ps_table_value(&d->tt, i), w);
}

/* Where the table is full, a new state (its g in *arg) takes over the
 * entry of the deepest state near its home slot, the largest g, then the
 * oldest round (ps_table_insert_evicting). A deep state heads a small
 * subtree, cheap to search again; a shallow one keeps a bound that cuts a
 * large one, so no entry of a smaller g than the new state's is given
 * away (taking the oldest round's entries first gave away the bounds
 * learned near the root: 43% more expansions than storing no more, on
 * Former board 10 at --max-memory 30, where this saves 16%). Entries on
 * the path stay whatever their g: cost_node holds their index across its
 * children and writes the bound it learns there. */
static int64_t cost_entry_worth(const void *value, void *arg)
{
    uint64_t w = cost_word_get(value);
    int32_t g = cost_word_g(w);
    if ((w & COST_ON_PATH) || g < *(const int32_t *)arg)
        return -1;
    return (int64_t)(COST_FIELD_ALL - g) << 16 | cost_word_round(w);
}

static void cost_entry_pin(struct dfs *d, int64_t i, bool on_path)
{
    unsigned char *p = ps_table_value(&d->tt, i);
    uint64_t w = cost_word_get(p);
    cost_word_set(p, on_path ? w | COST_ON_PATH : w & ~COST_ON_PATH);
}

/* Past COST_ROUND_MAX rounds: every entry's round made 0, which no round
 * has, and the rounds counted from 1 again (the bounds stay). */
static void cost_rounds_restart(struct dfs *d)
{
    if (d->memo)
        for (size_t i = 0; i < d->tt.count; i++) {
            unsigned char *p = ps_table_value(&d->tt, (int64_t)i);
            uint64_t w = cost_word_get(p);
            cost_word_set(p, w & ~((uint64_t)COST_ROUND_MAX
                                   << COST_ROUND_SHIFT));
        }
    d->round = 0;
}

/* cost_node's answer when it found a goal (its bounds are never negative:
 * heuristics are not, games' guards check). */
#define COST_FOUND (-1)

static bool on_path(const struct dfs *d, int depth)
{
    const void *state = state_at(d, depth);
    for (int i = 0; i < depth; i++)
        if (ps_game_equal(d->g, d->inst, state_at(d, i), state))
            return true;
    return false;
}

/* The lines' beam (cost_beam.h) from the start: its own buffers, so the
 * rounds' path and states stay as they are. After the first one (cost_run)
 * comes the quick one, DFS_COST_BEAM_QUICK times narrower than
 * --dfs-cost-beam W, and then W's, each at DFS_COST_BEAM_AFTER expansions
 * per unit of its width (after a ladder, cost_ladder: beams twice as wide
 * as the last up to W, each at as many expansions per unit of its width,
 * so the beams and the rounds cost about the same until W's); then the
 * next, four times wider, once the rounds
 * have expanded DFS_COST_BEAM_LATER nodes per unit of its width (each beam
 * costs about its width per move of its line, so the beams take a few per
 * cent of a long proof), up to DFS_COST_BEAM_MAX_WIDTH states or what
 * --max-memory refuses. */
/* Lines are at most as long as the game's max_depth, or 1,000 moves. */
static int beam_line_cap(const struct dfs *d)
{
    int cap = d->g->max_depth(d->inst);
    return cap > 0 && cap < 1000 ? cap : 1000;
}

static void cost_beam_now(struct dfs *d)
{
    d->beam_at = UINT64_MAX;
    int cap = beam_line_cap(d);
    /* A beam costs its width per move of its line, unless it walks on
     * without meeting a goal: it may spend what the rounds have spent, or
     * twice its width per depth the rounds reached (a line about as long
     * as theirs), whichever is more. The first comes before the rounds
     * have gone deep: twice its width per unit of the start's h. */
    int64_t depth = d->deepest;
    if (d->beam_first && d->h0 > depth)
        depth = d->h0 < cap ? d->h0 : cap;
    uint64_t spent = d->s->stats.expanded,
             line = 2 * (uint64_t)d->beam_width * (uint64_t)(depth + 1);
    d->beam_first = false;
    /* A game that evaluates its positions (SameGame's fewest clicks: the
     * groups left) gets a beam by that evaluation first, on the same
     * budget: it computes no h, so it costs less, and it finds other lines
     * than f's (on generated Former boards each is the shorter on some:
     * docs/algorithms.md). */
    uint64_t budget = spent > line ? spent : line;
    if (d->g->evaluate)
        ps_cost_beam(d->s, state_at(d, 0), d->beam_width, cap, budget,
                     PS_COST_BEAM_BY_EVALUATION, d->beam_memo);
    ps_cost_beam(d->s, state_at(d, 0), d->beam_width, cap, budget,
                 PS_COST_BEAM_BY_F, d->beam_memo);
    int width = dfs_opt(d->s)->cost_beam;
    if (d->beam_width > DFS_COST_BEAM_MAX_WIDTH / 4 ||
        d->s->stop != PS_STOP_NONE)
        return;
    int quick = width / DFS_COST_BEAM_QUICK;
    if (d->beam_width < width) { /* the quick one next, then W's */
        if (d->beams_double) /* after a ladder: on by doubling up to W */
            d->beam_width = d->beam_width < width / 2 ? 2 * d->beam_width
                                                      : width;
        else
            d->beam_width = d->beam_width < quick ? quick : width;
        d->beam_at = (uint64_t)d->beam_width * DFS_COST_BEAM_AFTER;
        return;
    }
    d->beam_width *= 4;
    d->beam_at = (uint64_t)d->beam_width * DFS_COST_BEAM_LATER;
}

/* A game that evaluates its positions (SameGame's fewest clicks) gets its
 * first lines before the rounds begin, from a ladder of beams 1, 2, 4, ...
 * wide, up to the largest power of two below four times `first_width`,
 * the first beam's (32 at the default, where it is 15), ranked by the
 * evaluation, then the same widths ranked by the evaluation and h. A
 * beam costs about its width per move of its line: the whole ladder is
 * about 1,700 expansions, about 5 milliseconds on a Former board, whose
 * first rungs give a line within a tenth of a millisecond; the beams share
 * a memo of what they ranked (cost_beam.h), as they meet the same states
 * again. The public solvers answer in a few milliseconds. Each rank is the
 * shorter on some boards: by the clicks of each rank's 40 first lines on
 * generated Former boards (gen --rules former --seed 7001..7040) at widths
 * 1, 4 and 16, by the evaluation alone 684, 631, 593, by f 660, 608, 567,
 * by both 662, 602, 572. The order and the top were chosen on those
 * boards beside the Go solver, with a tenth of its time on each
 * (docs/benchmarks.md, Former's eleventh pass): the cheaper rank climbs
 * first, so its widest beam comes sooner, and the climb goes to 32.
 * Games without an evaluation wait for the rounds (cost_run): their beams
 * rank by f, which costs a bound per child, and an easy puzzle is proven
 * before a beam would pay. Returns the widest width it ran, or 0 when it
 * did not run. */
static int cost_ladder(struct dfs *d, int first_width)
{
    static const enum ps_cost_beam_rank ranks[] = {
        PS_COST_BEAM_BY_EVALUATION, PS_COST_BEAM_BY_EVALUATION_AND_H};
    if (!d->g->evaluate || first_width < 1)
        return 0;
    int cap = beam_line_cap(d), top = 1;
    while (2 * top < 4 * first_width)
        top *= 2;
    for (int r = 0; r < 2; r++)
        for (int w = 1; w <= top && d->s->stop == PS_STOP_NONE; w *= 2)
            ps_cost_beam(d->s, state_at(d, 0), w, cap,
                         2 * (uint64_t)w * (uint64_t)(cap + 1), ranks[r],
                         d->beam_memo);
    return top;
}

/* --checkpoint: the round's place, from the node at `depth` (its children
 * not yet begun) up (dfs_place.h). Not while a resumed round walks down to
 * its place: that place is the file's. The child each depth searches is
 * found here, from its move, not kept by the loop (a store per child cost
 * 0.5% of a Former proof's instructions). */
/* Which of depth k's moves the path takes (k below the latest node's
 * depth: path[k] is among them). */
static int path_child(const struct dfs *d, int k)
{
    int i = 0;
    while (i + 1 < d->nmoves[k] && moves_at(d, k)[i] != d->path[k])
        i++;
    return i;
}

/* The progress line's place of a round (search.h, progress_where): at
 * each of the path's first three depths, which child of how many, so a
 * long proof shows how far its round has come ("at 3/18 5/12 1/9"). */
static void cost_where(void *arg, char *buf, size_t len)
{
    const struct dfs *d = arg;
    size_t used = 0;
    for (int k = 0; k < d->depth_now && k < 3; k++) {
        int wrote = snprintf(buf + used, len - used, "%s%d/%d", k ? " " : "",
                             path_child(d, k) + 1, d->nmoves[k]);
        if (wrote < 0 || (size_t)wrote >= len - used)
            break;
        used += (size_t)wrote;
    }
}

static void cost_checkpoint(struct dfs *d, int depth)
{
    struct ps_search *s = d->s;
    if (d->resuming || !ps_checkpoint_wanted(s, 0))
        return;
    int *at = malloc((size_t)depth * sizeof *at + 1);
    if (!at)
        return; /* no copy now; the last one stays */
    for (int k = 0; k < depth; k++)
        at[k] = path_child(d, k);
    struct dfs_place p = {
        .bound = d->deep.bound,
        .next_bound = d->deep.next_bound,
        .depth_cut = d->depth_cut,
        .sound = !s->used_heuristic || s->heuristic_admissible,
        .beam_width = d->beam_width,
        .beam_at = d->beam_at,
        .len = depth,
        .at = at,
        .path = d->path,
    };
    dfs_place_save(s, &p);
    free(at);
}

/* One round below the threshold from the state at `depth`, entered at cost
 * g. Returns COST_FOUND when a goal was found (and offered), else a lower
 * bound on the state's cost to a goal: h, a bound its table entry learned
 * before, or, once every child was searched, the least of cost + bound over
 * the children. Every bound returned or stored is valid whatever the round
 * (it rests only on h and on children's bounds), so the table may keep them
 * across rounds, and a state entered again with a g no smaller in the same
 * round is a duplicate: its first search covered this one (it also stops
 * cycles). */
static ps_value cost_node(struct dfs *d, int depth, ps_value g)
{
    struct ps_search *s = d->s;
    const struct ps_game *gm = d->g;
    d->depth_now = depth;
    if (ps_search_stopped(s))
        return 0;
    if (d->resuming && depth >= d->resume.len)
        d->resuming = false; /* the place: searched from its first child */
    const void *state = state_at(d, depth);
    ps_value h = d->use_h ? ps_search_h(s, state) : 0;
    if (ps_deepening_cut(&d->deep, s, g + h))
        return h;
    if (gm->is_goal(d->inst, state)) {
        ps_search_offer(s, d->path, depth, g);
        return COST_FOUND;
    }
    if (d->max_depth && depth >= d->max_depth) {
        d->depth_cut = true;
        s->stats.pruned++;
        s->stats.pruned_depth++;
        return h;
    }
    int64_t idx = PS_TABLE_NONE;
    bool stored_g_unknown = false; /* the entry's g did not fit its field */
    if (d->memo) {
        bool added;
        d->evict_g = cost_g_field(g);
        idx = table_insert(d, gm->hash(d->inst, state), state, &added);
        if (idx >= 0) {
            struct cost_entry e = {g, h, d->round, false};
            if (!added) {
                e = cost_entry_get(d, idx);
                stored_g_unknown = e.g == COST_G_UNKNOWN;
                if (e.lb < h)
                    e.lb = h;
                if (e.round == d->round && e.g <= g) {
                    s->stats.duplicates++;
                    return e.lb;
                }
                e.g = g;
                e.round = d->round;
            }
            cost_entry_set(d, idx, e);
            h = e.lb;
            if (h == PS_NO_BOUND) { /* proven: no goal below */
                s->stats.pruned++;
                s->stats.pruned_bound++;
                return h;
            }
            if (ps_deepening_cut(&d->deep, s, g + h))
                return h;
        }
    }
    if ((idx < 0 || stored_g_unknown) && on_path(d, depth)) {
        s->stats.duplicates++;
        s->stats.cycles++;
        return h;
    }
    if (!frames_reach(d, depth + 1))
        return h;
    state = state_at(d, depth);
    if (depth > d->deepest)
        d->deepest = depth;
    if (s->stats.expanded >= d->beam_at)
        cost_beam_now(d);
    /* The game's floors under its children's costs (child_floors): a child
     * they put over the threshold is cut before it is made, and its
     * cost + floor is what the state learns from it. */
    ps_value *costs = d->child_floors ? gains_at(d, depth) : NULL;
    ps_value *floors = keys_at(d, depth);
    int n = gm->moves(d->inst, state, moves_at(d, depth), costs);
    d->nmoves[depth] = n;
    if (costs)
        gm->child_floors(d->inst, state, moves_at(d, depth), n, floors);
    s->stats.expanded++;
    if (ps_search_tracing(s))
        ps_search_trace(s, state, depth, g, h, NULL);
    /* every 64 nodes (the clock is read only then), and at each round's
     * start: a run has a place to resume from as soon as it begins */
    if (s->checkpoint && ((s->stats.expanded & 63) == 0 || depth == 0))
        cost_checkpoint(d, depth);
    ps_value learned = PS_NO_BOUND; /* no move: no goal below */
    int first = 0;
    bool resumed = d->resuming;
    if (resumed) {
        /* On the resumed round's path: the children before the one it was
         * searching were searched in full within the bound and held no
         * goal, so each costs more than bound - g from here. */
        first = d->resume.at[depth] < n ? d->resume.at[depth] : n;
        if (first > 0 && d->deep.bound - g + 1 < learned)
            learned = d->deep.bound - g + 1;
    }
    if (idx >= 0)
        cost_entry_pin(d, idx, true);
    for (int i = first; i < n; i++) {
        if (resumed && i > first) /* past the place's child */
            resumed = d->resuming = false;
        ps_move mv = moves_at(d, depth)[i];
        if (costs && ps_deepening_cut(&d->deep, s, g + costs[i] + floors[i])) {
            if (costs[i] + floors[i] < learned)
                learned = costs[i] + floors[i];
            continue;
        }
        ps_value cost = gm->apply(d->inst, state_at(d, depth), mv,
                                  state_at(d, depth + 1));
        s->stats.generated++;
        d->path[depth] = mv;
        ps_value below = cost_node(d, depth + 1, g + cost);
        if (below == COST_FOUND)
            return COST_FOUND;
        if (s->stop != PS_STOP_NONE)
            return h;
        if (below != PS_NO_BOUND && cost + below < learned)
            learned = cost + below;
    }
    if (idx >= 0) {
        struct cost_entry e = cost_entry_get(d, idx);
        if (learned > h)
            e.lb = learned;
        e.on_path = false;
        cost_entry_set(d, idx, e);
    }
    return learned > h ? learned : h;
}

/* One round of ps_deepen. The table is kept: its g's count only in their
 * own round, its bounds in every round (a full one gives old entries to
 * new states as they come). */
static enum ps_round cost_round(void *arg)
{
    struct dfs *d = arg;
    struct ps_search *s = d->s;
    /* The rounds below found no line cheaper than this bound: the
     * incumbent (the first beam's) that costs no more is optimal. */
    d->depth_cut = false;
    if (d->resume_due) { /* the resumed round: what it had before its place */
        d->resume_due = false;
        d->deep.next_bound = d->resume.next_bound;
        d->depth_cut = d->resume.depth_cut;
        s->stats.iterations = (int)d->resume.iterations;
        d->resuming = true;
    }
    if (s->best.found && s->best.value <= d->deep.bound)
        return PS_ROUND_FOUND;
    if (d->round == COST_ROUND_MAX)
        cost_rounds_restart(d);
    d->round++;
    if (cost_node(d, 0, 0) == COST_FOUND)
        return PS_ROUND_FOUND;
    return d->s->stop != PS_STOP_NONE ? PS_ROUND_STOPPED : PS_ROUND_NOT_FOUND;
}

static enum ps_status cost_run(struct dfs *d)
{
    struct ps_search *s = d->s;
    const void *root = state_at(d, 0);
    ps_value h0 = d->use_h ? ps_search_h(s, root) : 0;
    d->h0 = h0;
    s->progress_where = cost_where;
    s->progress_where_arg = d;
    /* A line from a beam once the rounds have spent about what it costs
     * (a beam of W expands W states per move of its line) without an
     * answer: an easy puzzle is proven before it would start (on the 70
     * Water Sort levels a beam first made dfs expand 25 times more, by
     * geometric mean), a hard one gets a line early. First a beam
     * DFS_COST_BEAM_FIRST times narrower than W after DFS_COST_BEAM_FIRST_AFTER
     * expansions per unit of its width (a game with an evaluation has
     * its ladder of narrow beams instead, at once: cost_ladder), then a
     * quick one,
     * DFS_COST_BEAM_QUICK times narrower than W, which waits as many times
     * less than W's (2,000 expansions instead of 32,000), then W's
     * (cost_beam_now). Not under a depth cap, which
     * makes every answer heuristic anyway. Its line also bounds the rounds
     * (cost_round). Lines are at most as long as the game's max_depth, or
     * 1,000 moves. */
    d->evict = cost_entry_worth;
    int width = dfs_opt(s)->cost_beam;
    const bool beams = width > 0 && !d->max_depth;
    if (beams) /* NULL if it does not fit: no memo */
        d->beam_memo = ps_cost_beam_memo_new(s);
    int first = width >= DFS_COST_BEAM_FIRST ? width / DFS_COST_BEAM_FIRST
                                             : width;
    int ladder_top = beams ? cost_ladder(d, first) : 0;
    bool laddered = ladder_top > 0;
    if (laddered) { /* the ladder was the first beam: doubling goes on */
        d->beams_double = true;
        d->beam_width = 2 * ladder_top < width ? 2 * ladder_top : width;
        d->beam_at = (uint64_t)d->beam_width * DFS_COST_BEAM_AFTER;
    } else { /* the first beam, once the rounds have spent its cost */
        d->beam_first = beams;
        d->beam_width = first;
        d->beam_at = beams ? (uint64_t)first * DFS_COST_BEAM_FIRST_AFTER
                           : UINT64_MAX;
    }
    /* A resumed run starts in the file's round, at its place (searching
     * the rounds before it again to rebuild the table's bounds cost more
     * than it saved: on the 15-puzzle, Korf's 004 stopped at 20 of its
     * 26.7 million expansions ended at 34.6 million instead of 31.4). */
    if (dfs_place_load(s, root, !s->used_heuristic || s->heuristic_admissible,
                       &d->resume)) {
        d->resume_due = true;
        if (d->resume.beam_width > 0 &&
            d->resume.beam_width <= DFS_COST_BEAM_MAX_WIDTH) {
            /* the first beam still to come only if the file's was */
            d->beam_first = !laddered &&
                            d->resume.beam_width == d->beam_width;
            d->beam_width = d->resume.beam_width;
            d->beam_at = d->resume.beam_at;
        }
    } else if (s->stop != PS_STOP_NONE) {
        return PS_INCOMPLETE;
    }
    enum ps_round r = ps_deepen(s, &d->deep,
                                d->resume_due ? d->resume.bound : h0,
                                cost_round, d);
    if (d->tt.evicted) {
        size_t used = strlen(s->note);
        snprintf(s->note + used, sizeof s->note - used,
                 "%stable full at %zu entries: %" PRIu64
                 " taken over by newer states",
                 used ? "; " : "", d->tt.count, d->tt.evicted);
    }
    /* A --max-depth cut leaves no bound behind: longer lines may cost less
     * than the next round's bound. */
    if (d->max_depth)
        s->stats.has_lower_bound = false;
    switch (r) {
    case PS_ROUND_FOUND:
        return d->max_depth ? PS_HEURISTIC : PS_OPTIMAL;
    case PS_ROUND_STOPPED:
        return PS_INCOMPLETE;
    case PS_ROUND_NOT_FOUND:
        break;
    }
    if (!d->depth_cut)
        return PS_UNSOLVABLE;
    /* Not a proof: a longer path may reach a goal. */
    size_t used = strlen(s->note);
    snprintf(s->note + used, sizeof s->note - used,
             "; no solution within --max-depth %d", d->max_depth);
    return PS_HEURISTIC;
}

/* ---- the algorithm ---- */

static void dfs_free(struct dfs *d)
{
    if (d->s->progress_where_arg == d)
        d->s->progress_where = NULL;
    free(d->nmoves);
    free(d->states);
    free(d->moves);
    free(d->gains);
    free(d->keys);
    free(d->order);
    free(d->path);
    dfs_place_free(&d->resume);
    free(d->pv);
    if (d->tt.slot)
        ps_table_free(&d->tt);
    ps_greedy_free(&d->greedy);
    ps_cost_beam_memo_free(d->s, d->beam_memo);
}

static void note_heuristic(struct dfs *d)
{
    char *note = d->s->note;
    size_t size = sizeof d->s->note;
    if (!d->candidates && !d->max_depth)
        return;
    snprintf(note, size, "heuristic:");
    if (d->candidates)
        snprintf(note + strlen(note), size - strlen(note), " --candidates %d",
                 d->candidates);
    if (d->max_depth)
        snprintf(note + strlen(note), size - strlen(note), "%s --max-depth %d",
                 d->candidates ? "," : "", d->max_depth);
}

static enum ps_status dfs_run(struct ps_search *s)
{
    struct dfs d;
    memset(&d, 0, sizeof d);
    d.s = s;
    d.g = s->game;
    d.inst = s->inst;
    d.ss = s->state_size;
    d.max_moves = d.g->max_moves(s->inst);
    d.candidates = dfs_opt(s)->candidates > 0 ? dfs_opt(s)->candidates : 0;
    d.max_depth = dfs_opt(s)->max_depth > 0 ? dfs_opt(s)->max_depth : 0;
    bool score = s->flags & PS_MAXIMISE;
    /* The bound (score) or h (cost) of the run: the game's default only
     * with its flag (search.c), a --heuristic entry as chosen; an
     * inadmissible one turns the answer heuristic (ps_search_run). */
    d.bound = score && !dfs_opt(s)->no_bound && ps_search_has_h(s);
    d.use_h = !score && ps_search_has_h(s) &&
              (s->heuristic_admissible || s->opt.heuristic);
    s->used_heuristic = d.bound || d.use_h;
    d.child_bounds = d.bound && !d.candidates && d.g->bounded_moves &&
                     s->heuristic == d.g->upper_bound;
    d.child_floors = d.use_h && d.g->child_floors &&
                     !dfs_opt(s)->no_floors && s->heuristic == d.g->heuristic;
    if (!frames_resize(&d, d.g->max_depth(s->inst) + 2) ||
        !ps_greedy_init(&d.greedy, d.g, s->inst)) {
        dfs_free(&d);
        s->stop = PS_STOP_MEMORY;
        return PS_INCOMPLETE;
    }
    /* No room even for an empty table: go without. The table never gives
     * a state back, so it keeps the game's keys when they are smaller. */
    d.memo = !dfs_opt(s)->no_memo &&
             ps_table_init_keyed(&d.tt, s,
                                 score ? DFS_ENTRY_SIZE : DFS_COST_ENTRY_SIZE);
    note_heuristic(&d);
    if (s->root_state)
        memcpy(state_at(&d, 0), s->root_state, d.ss);
    else
        d.g->initial_state(s->inst, state_at(&d, 0));
    enum ps_status st = score ? score_run(&d) : cost_run(&d);
    dfs_free(&d);
    return st;
}

/* dfs's options (options.h); rule scripts' prune keys map onto them */
static const struct dfs_options dfs_defaults = {.beam = 16, .nrpa = 0.8,
                                                .cost_beam = 1000};

static const struct ps_option dfs_options[] = {
    {.name = "no-bound",
     .type = PS_OPT_FLAG,
     .offset = offsetof(struct dfs_options, no_bound),
     .doc = "no upper-bound pruning (score games)",
     .prune = "upper_bound",
     .prune_negated = true,
     .prune_score_only = true},
    {.name = "no-memo",
     .type = PS_OPT_FLAG,
     .offset = offsetof(struct dfs_options, no_memo),
     .doc = "no transposition table",
     .prune = "memo",
     .prune_negated = true},
    {.name = "candidates",
     .type = PS_OPT_INT,
     .offset = offsetof(struct dfs_options, candidates),
     .min = 0,
     .max = 1e9,
     .arg = "K",
     .def = "0 = all",
     .doc = "only the K best-ordered moves per node (heuristic)",
     .prune = "candidates"},
    {.name = "max-depth",
     .type = PS_OPT_INT,
     .offset = offsetof(struct dfs_options, max_depth),
     .min = 0,
     .max = 1e9,
     .arg = "D",
     .def = "0 = none",
     .doc = "depth cap (heuristic)",
     .prune = "max_depth"},
    {.name = "dfs-beam",
     .type = PS_OPT_INT,
     .offset = offsetof(struct dfs_options, beam),
     .min = 0,
     .max = 1 << 24,
     .arg = "W",
     .def = "16; 0 = the greedy line only",
     .doc = "score games: first beam width of the incumbent rounds"},
    {.name = "dfs-cost-beam",
     .type = PS_OPT_INT,
     .offset = offsetof(struct dfs_options, cost_beam),
     .min = 0,
     .max = 1 << 20,
     .arg = "W",
     .def = "1000; 0 = none",
     .doc = "cost games: a beam of width W ranked by g + h and the moves left once the rounds have expanded 32 W nodes without an answer; before it a first one of W/64 after W/4 expansions and a quick one of W/16 after 2 W, or, on a game with an evaluation (SameGame), beams of 1, 2, 4 ... about W/32 before the rounds and then twice as wide each time up to W, each after 32 expansions per unit of its width; after it one four times wider each time they have expanded 256 nodes per unit of its width (up to 262,144); the best line is the answer a limit returns, and a round whose bound reaches its cost proves it optimal without searching"},
    {.name = "no-floors",
     .type = PS_OPT_FLAG,
     .offset = offsetof(struct dfs_options, no_floors),
     .doc = "cost games: make every child before cutting it (the game's "
            "child_floors unused; the same answer and expansions)"},
    {.name = "dfs-nrpa",
     .type = PS_OPT_DOUBLE,
     .offset = offsetof(struct dfs_options, nrpa),
     .min = 0,
     .max = 0.95,
     .arg = "F",
     .def = "0.8; 0 = off",
     .doc = "score games: after each round the exact search did not finish, nrpa runs until it has had this share of the nodes so far (a node of the beams and rounds counted as 1.5 of nrpa's, about their cost in time); its line is the next round's bound"},
    {.name = "dfs-nrpa-after",
     .type = PS_OPT_DOUBLE,
     .offset = offsetof(struct dfs_options, nrpa_after),
     .min = 0,
     .max = 1,
     .arg = "F",
     .def = "0 = from the first unfinished round",
     .doc = "score games under --time: nrpa's first slice waits until the rounds have had this share of the time (its length then catches up with --dfs-nrpa's share of all the nodes so far); it reads the clock, so a run with it may differ under load"},
    {0},
};

const struct ps_algorithm ps_algo_dfs = {
    .name = "dfs",
    .summary = "depth-first branch and bound with a memo (score); "
               "iterative deepening (cost)",
    .for_score = true,
    .for_cost = true,
    .uses_heuristic = true,
    .uses_bound = true,
    .run = dfs_run,
    .checkpoint = PS_CHECKPOINT_COST,
    .options = dfs_options,
    .options_size = sizeof(struct dfs_options),
    .options_default = &dfs_defaults,
};
