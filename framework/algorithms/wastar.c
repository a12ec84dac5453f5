/*
 * wastar.c - weighted A*: best-first on g + w h (--weight w, default 2).
 * With an admissible h its solutions cost at most w times the optimum;
 * larger w trusts h more and expands far fewer states. Labelled heuristic
 * (w <= 1 is exact and says optimal).
 */
#include "bestfirst.h"

/* wastar's own options (options.h) */
struct wastar_options {
    double weight;
};

static enum ps_status wastar_run(struct ps_search *s)
{
    const struct wastar_options *o = ps_search_algo_options(s);
    return ps_bestfirst_run(s, PS_BF_WEIGHTED, o->weight);
}

static const struct wastar_options wastar_defaults = {.weight = 2.0};

static const struct ps_option wastar_options[] = {
    {.name = "weight",
     .type = PS_OPT_DOUBLE,
     .offset = offsetof(struct wastar_options, weight),
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
    .options_size = sizeof(struct wastar_options),
    .options_default = &wastar_defaults,
};
