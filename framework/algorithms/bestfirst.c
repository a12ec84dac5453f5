/*
 * bestfirst.c - the best-first engine (see bestfirst.h).
 *
 * Memory per stored state: the ps_table entry, round8(state_size + 16)
 * bytes plus <= 16 bytes of slots, and 24 bytes per open-list entry; both
 * are reserved through ps_memory_reserve(), so --max-memory stops the run
 * instead of the process.
 */
#include "bestfirst.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

#define NO_PARENT UINT32_MAX

/* The payload of every table entry. */
struct bf_node {
    ps_value g;
    uint32_t parent; /* entry index, NO_PARENT for the start */
    uint8_t closed;  /* expanded with this g */
    uint8_t expanded_before; /* expanded at least once (re-expansions) */
};

struct bf {
    struct ps_search *s;
    struct ps_table table;
    struct ps_bf_heap open;
    int64_t gw, hw;  /* key = gw * g + hw * h */
    bool reopen;     /* exact orders reopen a closed state on a better g */
    const char *layer_kind; /* --layers: "g" (bfs), "f" or "h" */
};

static bool item_before(const struct ps_bf_item *a, const struct ps_bf_item *b)
{
    return a->key < b->key || (a->key == b->key && a->g > b->g);
}

bool ps_bf_heap_push(struct ps_search *s, struct ps_bf_heap *h,
                     struct ps_bf_item it)
{
    if (h->count == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 1024;
        if (!ps_memory_reserve(s, (cap - h->cap) * sizeof *h->items)) {
            s->stop = PS_STOP_MEMORY;
            return false;
        }
        struct ps_bf_item *items = realloc(h->items, cap * sizeof *items);
        if (!items) {
            ps_memory_release(s, (cap - h->cap) * sizeof *h->items);
            s->stop = PS_STOP_MEMORY;
            return false;
        }
        h->items = items;
        h->cap = cap;
    }
    size_t i = h->count++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!item_before(&it, &h->items[up]))
            break;
        h->items[i] = h->items[up];
        i = up;
    }
    h->items[i] = it;
    if (h->count > s->stats.peak_frontier)
        s->stats.peak_frontier = h->count;
    return true;
}

void ps_bf_heap_free(struct ps_search *s, struct ps_bf_heap *h)
{
    ps_memory_release(s, h->cap * sizeof *h->items);
    free(h->items);
    memset(h, 0, sizeof *h);
}

struct ps_bf_item ps_bf_heap_pop(struct ps_bf_heap *h)
{
    struct ps_bf_item top = h->items[0], last = h->items[--h->count];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->count)
            break;
        if (c + 1 < h->count && item_before(&h->items[c + 1], &h->items[c]))
            c++;
        if (!item_before(&h->items[c], &last))
            break;
        h->items[i] = h->items[c];
        i = c;
    }
    if (h->count)
        h->items[i] = last;
    return top;
}

/* h, when the order weighs it: bfs (hw = 0) never calls the heuristic. */
static ps_value heuristic_of(const struct bf *b, const void *state)
{
    return b->hw ? ps_search_h(b->s, state) : 0;
}

/* Insert or improve a state reached with cost g from `parent`; push it on
 * the open list when it is new or its g improved. False when a limit hit. */
static bool bf_reach(struct bf *b, const void *state, ps_value g,
                     uint32_t parent)
{
    struct ps_search *s = b->s;
    bool added;
    int64_t idx = ps_table_insert(&b->table, s->game->hash(s->inst, state),
                                  state, &added);
    if (idx == PS_TABLE_FULL) {
        s->stop = PS_STOP_MEMORY; /* an exact closed set cannot drop states */
        return false;
    }
    struct bf_node *node = ps_table_value(&b->table, idx);
    if (!added) {
        if (g >= node->g || (node->closed && !b->reopen)) {
            s->stats.duplicates++;
            return true;
        }
        node->closed = 0;
    }
    node->g = g;
    node->parent = parent;
    struct ps_bf_item it = {b->gw * g + b->hw * heuristic_of(b, state), g,
                            (uint32_t)idx};
    return ps_bf_heap_push(s, &b->open, it);
}

ps_value ps_moves_from_states(struct ps_search *s, const void *const *chain,
                              int n, ps_move *moves)
{
    const struct ps_game *g = s->game;
    int max = g->max_moves(s->inst);
    ps_move *list = malloc((size_t)max * sizeof *list);
    unsigned char *cur = malloc(s->state_size), *next = malloc(s->state_size);
    unsigned char *best = malloc(s->state_size);
    ps_value total = -1;
    if (!list || !cur || !next || !best)
        goto done;
    g->initial_state(s->inst, cur);
    total = 0;
    for (int k = 1; k < n && total >= 0; k++) {
        int count = g->moves(s->inst, cur, list, NULL);
        ps_value best_cost = -1;
        for (int i = 0; i < count; i++) {
            ps_value c = g->apply(s->inst, cur, list[i], next);
            if ((best_cost < 0 || c < best_cost) &&
                ps_game_equal(g, s->inst, next, chain[k])) {
                best_cost = c;
                moves[k - 1] = list[i];
                memcpy(best, next, s->state_size);
            }
        }
        if (best_cost < 0) {
            total = -1;
            break;
        }
        total += best_cost;
        memcpy(cur, best, s->state_size);
    }
done:
    free(list);
    free(cur);
    free(next);
    free(best);
    return total;
}

/* Rebuild the path to entry `goal` from the parent links and offer it. */
static void bf_offer_path(struct bf *b, uint32_t goal)
{
    struct ps_search *s = b->s;
    int n = 0;
    for (uint32_t i = goal; i != NO_PARENT;
         i = ((struct bf_node *)ps_table_value(&b->table, i))->parent)
        n++;
    const void **chain = malloc((size_t)n * sizeof *chain);
    ps_move *moves = malloc((size_t)n * sizeof *moves);
    if (chain && moves) {
        int k = n;
        for (uint32_t i = goal; i != NO_PARENT;
             i = ((struct bf_node *)ps_table_value(&b->table, i))->parent)
            chain[--k] = ps_table_state(&b->table, i);
        ps_value cost = ps_moves_from_states(s, chain, n, moves);
        ps_value g = ((struct bf_node *)ps_table_value(&b->table, goal))->g;
        if (cost != g)
            snprintf(s->note, sizeof s->note,
                     "internal: path replay cost %lld, search g %lld",
                     (long long)cost, (long long)g);
        /* Offered with the search's g: verification replays it and would
         * flag a difference. */
        ps_search_offer(s, moves, n - 1, g);
    } else {
        s->stop = PS_STOP_MEMORY;
    }
    free(chain);
    free(moves);
}

/* ---- --trace: the expansions and pushes, with the real queue key ---- */

static double bf_key(const struct bf *b, int64_t key)
{
    /* wastar keeps 1024 g + round(1024 w) h: show g + w h. */
    return b->gw > 1 ? (double)key / (double)b->gw : (double)key;
}

static int bf_depth(struct bf *b, uint32_t idx)
{
    int depth = 0;
    for (uint32_t i = ((struct bf_node *)ps_table_value(&b->table, idx))->parent;
         i != NO_PARENT;
         i = ((struct bf_node *)ps_table_value(&b->table, i))->parent)
        depth++;
    return depth;
}

/* The text of the move from entry `parent` to `state` (empty for the
 * start): the table keeps states, not moves. */
static void bf_move_text(struct bf *b, uint32_t parent, const void *state,
                         ps_move *moves, unsigned char *scratch, char *buf,
                         size_t len)
{
    struct ps_search *s = b->s;
    const struct ps_game *g = s->game;
    buf[0] = '\0';
    if (parent == NO_PARENT)
        return;
    const void *from = ps_table_state(&b->table, parent);
    int n = g->moves(s->inst, from, moves, NULL);
    for (int i = 0; i < n; i++) {
        g->apply(s->inst, from, moves[i], scratch);
        if (ps_game_equal(g, s->inst, scratch, state)) {
            g->format_move(s->inst, from, moves[i], buf, len);
            return;
        }
    }
}

static void bf_trace_expand(struct bf *b, uint32_t idx, const void *state,
                            int64_t key, ps_move *moves, unsigned char *scratch)
{
    struct ps_search *s = b->s;
    const struct bf_node *node = ps_table_value(&b->table, idx);
    char move[64];
    bf_move_text(b, node->parent, state, moves, scratch, move, sizeof move);
    ps_search_trace_event(s, &(struct ps_trace_event){
        .kind = PS_TRACE_EXPAND,
        .has = PS_TF_ID | (node->parent == NO_PARENT ? 0 : PS_TF_PARENT) |
               PS_TF_DEPTH | PS_TF_G | PS_TF_H | PS_TF_KEY | PS_TF_OPEN,
        .id = idx,
        .parent = node->parent,
        .depth = bf_depth(b, idx),
        .g = node->g,
        .h = ps_search_h(s, state), /* shown even where the key ignores it */
        .key = bf_key(b, key),
        .open = b->open.count,
        .move = move[0] ? move : NULL,
        .state = state});
}

/* After a bf_reach(state, g, parent) that pushed: trace the push. The entry
 * is looked up again so that the untraced hot loop pays nothing. */
static void bf_trace_push(struct bf *b, uint32_t parent, const void *from,
                          ps_move move, const void *state, ps_value g)
{
    struct ps_search *s = b->s;
    int64_t idx = ps_table_find(&b->table, s->game->hash(s->inst, state), state);
    if (idx < 0)
        return;
    ps_value h = ps_search_h(s, state);
    struct ps_bf_item item = {b->gw * g + b->hw * h, g, (uint32_t)idx};
    const struct ps_bf_item *it = &item;
    char text[64];
    s->game->format_move(s->inst, from, move, text, sizeof text);
    ps_search_trace_event(s, &(struct ps_trace_event){
        .kind = PS_TRACE_PUSH,
        .has = PS_TF_ID | PS_TF_PARENT | PS_TF_G | PS_TF_H | PS_TF_KEY |
               PS_TF_OPEN,
        .id = it->entry,
        .parent = parent,
        .g = it->g,
        .h = h,
        .key = bf_key(b, it->key),
        .open = b->open.count,
        .move = text});
}

/* Expand entry `idx`: false when a limit stopped the search. */
static bool bf_expand(struct bf *b, const struct ps_bf_item *popped,
                      ps_move *moves, unsigned char *cur, unsigned char *next)
{
    struct ps_search *s = b->s;
    const struct ps_game *g = s->game;
    uint32_t idx = popped->entry;
    /* The arena may move while successors are inserted: work on a copy. */
    memcpy(cur, ps_table_state(&b->table, idx), s->state_size);
    struct bf_node *node = ps_table_value(&b->table, idx);
    node->closed = 1;
    if (node->expanded_before)
        s->stats.reexpanded++;
    node->expanded_before = 1;
    ps_value g0 = node->g;
    bool traced = ps_search_tracing(s);
    if (traced)
        bf_trace_expand(b, idx, cur, popped->key, moves, next);
    s->stats.expanded++;
    int n = g->moves(s->inst, cur, moves, NULL);
    /* The layer of a node: its key in g units (wastar's is scaled by 1024). */
    ps_layer_add(s, b->layer_kind, popped->key / (b->gw ? b->gw : 1), 1,
                 (uint64_t)n);
    /* Two loops, so that the untraced one (the hot loop) stays as lean as
     * before tracing existed (callgrind, BFS on the hardest 8-puzzle:
     * +0.2% instructions, against +0.9% with one loop testing `traced`). */
    for (int i = 0; i < n && !traced; i++) {
        ps_value cost = g->apply(s->inst, cur, moves[i], next);
        s->stats.generated++;
        if (!bf_reach(b, next, g0 + cost, idx))
            return false;
    }
    for (int i = 0; i < n && traced; i++) {
        ps_value cost = g->apply(s->inst, cur, moves[i], next);
        s->stats.generated++;
        size_t open = b->open.count;
        if (!bf_reach(b, next, g0 + cost, idx))
            return false;
        if (b->open.count > open)
            bf_trace_push(b, idx, cur, moves[i], next, g0 + cost);
    }
    return true;
}

/* What the search proved when it ends, for the exact orders (bfs, and A*
 * with an admissible h; keys g + h): every solution costs at least the
 * least key on the open list. Until a goal is popped, some state on an
 * optimal line is open (or being expanded: cut_key) with its optimal g,
 * since a state is reopened whenever a better g reaches it, and its key is
 * at most the optimum as h never overestimates. Stale and closed entries
 * only lower the minimum, which keeps it a bound. A solved run's bound is
 * the cost it found. */
static void bf_lower_bound(struct bf *b, bool solved, int64_t cut_key)
{
    struct ps_search *s = b->s;
    int64_t least = cut_key;
    if (solved) {
        least = s->best.value;
    } else {
        if (s->stop == PS_STOP_NONE)
            return; /* unsolvable: no solution to bound */
        for (size_t i = 0; i < b->open.count; i++)
            if (b->open.items[i].key < least)
                least = b->open.items[i].key;
        if (least == INT64_MAX)
            return; /* stopped before anything was pushed */
    }
    s->stats.lower_bound = least;
    s->stats.has_lower_bound = true;
}

enum ps_status ps_bestfirst_run(struct ps_search *s, enum ps_bf_order order,
                                double weight)
{
    struct bf b;
    memset(&b, 0, sizeof b);
    b.s = s;
    switch (order) {
    case PS_BF_BREADTH: b.gw = 1; b.hw = 0; b.reopen = true; break;
    case PS_BF_ASTAR: b.gw = 1; b.hw = 1; b.reopen = true; break;
    case PS_BF_WEIGHTED:
        /* Fixed point keeps keys integral: key = 1024 g + round(1024 w) h. */
        b.gw = 1024;
        b.hw = (int64_t)llround(weight * 1024.0);
        snprintf(s->note, sizeof s->note,
                 "heuristic: weighted A* (w = %g), cost <= %g x optimum",
                 weight, weight > 1 ? weight : 1.0);
        break;
    case PS_BF_GREEDY:
        b.gw = 0;
        b.hw = 1;
        snprintf(s->note, sizeof s->note,
                 "heuristic: greedy best-first on h, no optimality claim");
        break;
    }
    enum ps_status st = order == PS_BF_BREADTH || order == PS_BF_ASTAR ||
                                (order == PS_BF_WEIGHTED && weight <= 1.0)
                            ? PS_OPTIMAL
                            : PS_HEURISTIC;
    if (st == PS_OPTIMAL && order == PS_BF_WEIGHTED)
        s->note[0] = '\0'; /* w <= 1 is plain A* with a smaller h */
    /* An exact order reads only an admissible h (or one chosen by name,
     * then labelled heuristic); an unflagged one serves greedy and wastar. */
    if (st == PS_OPTIMAL && !ps_search_h_exact(s))
        b.hw = 0;
    s->used_heuristic = b.hw != 0;
    b.layer_kind = b.hw == 0 ? "g" : b.gw == 0 ? "h" : "f";
    const struct ps_game *g = s->game;
    ps_move *moves = malloc((size_t)g->max_moves(s->inst) * sizeof *moves);
    unsigned char *cur = malloc(s->state_size), *next = malloc(s->state_size);
    if (!moves || !cur || !next || !ps_table_init(&b.table, s,
                                                  sizeof(struct bf_node))) {
        s->stop = PS_STOP_MEMORY;
        goto done;
    }
    g->initial_state(s->inst, cur);
    if (!bf_reach(&b, cur, 0, NO_PARENT))
        goto done;
    bool solved = false;
    /* The entry being expanded when a limit stopped the expansion: its
     * children may be missing from the open list, so it counts there. */
    int64_t cut_key = INT64_MAX;
    while (b.open.count && !ps_search_stopped(s)) {
        struct ps_bf_item it = ps_bf_heap_pop(&b.open);
        struct bf_node *node = ps_table_value(&b.table, it.entry);
        if (node->closed || it.g > node->g)
            continue; /* stale: a better entry was pushed since */
        if (g->is_goal(s->inst, ps_table_state(&b.table, it.entry))) {
            bf_offer_path(&b, it.entry);
            solved = true;
            break;
        }
        if (!bf_expand(&b, &it, moves, cur, next)) {
            cut_key = it.key;
            break;
        }
    }
    if (!solved && s->stop == PS_STOP_NONE)
        st = PS_UNSOLVABLE; /* the open list ran dry: every state was seen */
    /* A user's inadmissible --heuristic proves nothing (ps_search_run
     * labels its answer heuristic). */
    if (st == PS_OPTIMAL && b.gw == 1 &&
        (!s->used_heuristic || s->heuristic_admissible))
        bf_lower_bound(&b, solved, cut_key);
done:
    ps_table_free(&b.table);
    ps_bf_heap_free(s, &b.open);
    free(moves);
    free(cur);
    free(next);
    return st;
}
