/*
 * deepening.h - the loop of iterative deepening on a cost bound, shared by
 * idastar and dfs on cost games: rounds of depth-first search that cut every
 * node with f = g + h over the round's bound, the next bound being the
 * smallest f a round cut. With an admissible h the first goal found costs
 * exactly the bound; a round that cut nothing and found no goal has searched
 * everything.
 */
#ifndef PS_DEEPENING_H
#define PS_DEEPENING_H

#include "search.h"

#define PS_NO_BOUND INT64_MAX

enum ps_round { PS_ROUND_FOUND, PS_ROUND_NOT_FOUND, PS_ROUND_STOPPED };

struct ps_deepening {
    ps_value bound;      /* the round's */
    ps_value next_bound; /* the smallest f the round cut (PS_NO_BOUND: none) */
};

/* In a round: is f over the bound? Then the node is cut (counted as pruned
 * by the bound) and f is a candidate for the next bound. */
static inline bool ps_deepening_cut(struct ps_deepening *dp,
                                    struct ps_search *s, ps_value f)
{
    if (f <= dp->bound)
        return false;
    if (f < dp->next_bound)
        dp->next_bound = f;
    s->stats.pruned++;
    s->stats.pruned_bound++;
    return true;
}

/* Rounds from `bound` up (dp is the one round() cuts with): each one
 * counts an iteration, traces it (its number and bound), runs round(arg)
 * and adds its --layers row (ps_iteration_done). Returns what the first
 * round that does not say PS_ROUND_NOT_FOUND says (a goal found and
 * offered, or stopped by a limit), or PS_ROUND_NOT_FOUND after a round that
 * cut nothing: no bound is left to try. */
enum ps_round ps_deepen(struct ps_search *s, struct ps_deepening *dp,
                        ps_value bound,
                        enum ps_round (*round)(void *arg), void *arg);

#endif
