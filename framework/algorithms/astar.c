/*
 * astar.c - A*: best-first on f = g + h with the game's admissible
 * heuristic h, ties towards larger g. Exact; expands only states with
 * f <= the optimum, so a good h saves most of BFS's work.
 */
#include "bestfirst.h"

static enum ps_status astar_run(struct ps_search *s)
{
    return ps_bestfirst_run(s, PS_BF_ASTAR, 0);
}

const struct ps_algorithm ps_algo_astar = {
    .name = "astar",
    .summary = "A* on g + h, admissible heuristic (exact)",
    .for_score = false,
    .for_cost = true,
    .uses_heuristic = true,
    .run = astar_run,
};
