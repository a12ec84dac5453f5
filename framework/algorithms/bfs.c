/*
 * bfs.c - breadth-first search for cost games: states in order of their
 * cost g from the start (uniform-cost search, which is plain BFS by levels
 * when every move costs 1). Exact, needs no heuristic, and stores every
 * state it reaches: the baseline that A* is measured against.
 */
#include "bestfirst.h"

static enum ps_status bfs_run(struct ps_search *s)
{
    return ps_bestfirst_run(s, PS_BF_BREADTH, 0);
}

const struct ps_algorithm ps_algo_bfs = {
    .name = "bfs",
    .summary = "breadth-first / uniform cost, fewest moves (exact)",
    .for_score = false,
    .for_cost = true,
    .run = bfs_run,
};
