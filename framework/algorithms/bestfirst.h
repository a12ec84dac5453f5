/*
 * bestfirst.h - one best-first search engine for cost games, behind bfs,
 * astar, wastar and greedy. They differ only in the priority of a state:
 *
 *   order       priority        returns
 *   BREADTH     g               optimal (uniform cost = BFS for unit costs)
 *   ASTAR       g + h           optimal when h is admissible
 *   WEIGHTED    g + w h         heuristic (cost <= w * optimum when h is
 *                               admissible), usually much faster
 *   GREEDY      h               heuristic, fastest, no bound on the cost
 *
 * Ties go to the larger g (the deeper state, nearer a goal). The closed set
 * is a ps_table (state + {g, parent, closed}); the open list is a binary
 * heap of (priority, g, entry) where an entry whose g has since improved is
 * stale and skipped when popped. A goal is recognised when it is popped, so
 * the exact orders are exact. When the open list runs dry the whole
 * reachable space was searched: the instance is proven unsolvable.
 */
#ifndef PS_BESTFIRST_H
#define PS_BESTFIRST_H

#include "search.h"

enum ps_bf_order {
    PS_BF_BREADTH,
    PS_BF_ASTAR,
    PS_BF_WEIGHTED, /* key g + weight h */
    PS_BF_GREEDY,
};

/* `weight`: PS_BF_WEIGHTED's w (the other orders ignore it). */
enum ps_status ps_bestfirst_run(struct ps_search *s, enum ps_bf_order order,
                                double weight);

/* The open list of the engine (also hdastar's, in psolve-mpi): a binary
 * heap of (priority, g, table entry), smaller priority first, larger g first
 * among equals; its memory is reserved through ps_memory_reserve. */
struct ps_bf_item {
    int64_t key;     /* priority: smaller first */
    ps_value g;      /* larger first on equal keys */
    uint32_t entry;
};

struct ps_bf_heap {
    struct ps_bf_item *items;
    size_t count, cap;
};

/* False (with s->stop = PS_STOP_MEMORY) when the heap may not grow. */
bool ps_bf_heap_push(struct ps_search *s, struct ps_bf_heap *h,
                     struct ps_bf_item it);
/* The first item; the heap must not be empty. */
struct ps_bf_item ps_bf_heap_pop(struct ps_bf_heap *h);
void ps_bf_heap_free(struct ps_search *s, struct ps_bf_heap *h);

/* The search stores whole states, not moves: a game whose equal() merges
 * positions (water sort: tubes as a multiset) may reach a stored state by a
 * path whose move codes name other slots. So a path is kept as the chain of
 * its states and turned into moves by replaying it from the initial state,
 * at each step taking the cheapest legal move whose successor equals the
 * next state of the chain. chain[0] must equal the initial state.
 * moves[] receives n-1 moves; returns their summed cost, or -1 when a step
 * has no such move (a game whose equal() is not a symmetry of its moves). */
ps_value ps_moves_from_states(struct ps_search *s, const void *const *chain,
                              int n, ps_move *moves);

#endif
