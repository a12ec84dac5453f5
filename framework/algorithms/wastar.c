/*
 * wastar.c - weighted A*: best-first on g + w h (--weight w, default 2).
 * With an admissible h its solutions cost at most w times the optimum;
 * larger w trusts h more and expands far fewer states. Labelled heuristic
 * (w <= 1 is exact and says optimal).
 */
#include "bestfirst.h"

static enum ps_status wastar_run(struct ps_search *s)
{
    return ps_bestfirst_run(s, PS_BF_WEIGHTED);
}

/* wastar's options (options.h) */
static const struct ps_option wastar_options[] = {
    {.name = "weight",
     .type = PS_OPT_DOUBLE,
     .offset = offsetof(struct ps_options, weight),
     .min = 0,
     .max = 1e9,
     .arg = "W",
     .def = "2",
     .doc = "weight of h: cost <= W x the optimum",
     .alias = "w"},
    {0},
};

const struct ps_algorithm ps_algo_wastar = {
    .name = "wastar",
    .summary = "weighted A* on g + w*h (--weight W), cost <= W x optimum",
    .for_score = false,
    .for_cost = true,
    .uses_heuristic = true,
    .run = wastar_run,
    .options = wastar_options,
};
