/*
 * deepening.c - the iterative-deepening loop of idastar and dfs on cost
 * games (deepening.h).
 */
#include "deepening.h"

enum ps_round ps_deepen(struct ps_search *s, struct ps_deepening *dp,
                        ps_value bound,
                        enum ps_round (*round)(void *arg), void *arg)
{
    dp->bound = bound;
    /* Each round's bound is a lower bound on every solution's cost when h
     * never overestimates: the rounds before it found none within theirs,
     * and it is the least f they cut. */
    bool sound = !s->used_heuristic || s->heuristic_admissible;
    for (;;) {
        s->stats.lower_bound = dp->bound;
        s->stats.has_lower_bound = sound;
        s->stats.iterations++;
        ps_search_trace_event(s, &(struct ps_trace_event){
                                     .kind = PS_TRACE_ITERATION,
                                     .has = PS_TF_ITERATION | PS_TF_BOUND,
                                     .iteration = s->stats.iterations,
                                     .bound = dp->bound});
        dp->next_bound = PS_NO_BOUND;
        uint64_t expanded = s->stats.expanded, generated = s->stats.generated;
        enum ps_round r = round(arg);
        ps_iteration_done(s, dp->bound, expanded, generated);
        if (r != PS_ROUND_NOT_FOUND || dp->next_bound == PS_NO_BOUND)
            return r;
        dp->bound = dp->next_bound;
    }
}
