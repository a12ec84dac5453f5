/*
 * sample.c - a template algorithm: N random playouts from the start, the
 * best kept. Copy it to framework/algorithms/NAME.c, rename `sample`, add
 * ALGORITHM(NAME) to algorithms.def: CMake re-runs by itself, and
 * --algo NAME, --samples, psolve help NAME and psolve list follow from the
 * struct at the end (docs/architecture.md, "Building blocks").
 */
#include <stddef.h>
#include <stdlib.h>

#include "playout.h"
#include "rng.h"

/* Its options: a struct, defaults as data, one table entry per field. */
struct sample_options {
    int samples;
};

static const struct sample_options sample_defaults = {.samples = 100};

static const struct ps_option sample_options[] = {
    {.name = "samples", .type = PS_OPT_INT,
     .offset = offsetof(struct sample_options, samples), .min = 1,
     .max = 1000000000, .arg = "N", .def = "100",
     .doc = "sample: random playouts from the start"},
    {0},
};

static enum ps_status sample_run(struct ps_search *s)
{
    const struct sample_options *o = ps_search_algo_options(s);
    uint64_t bytes = ps_playout_bytes(s->game, s->inst) + s->state_size;
    if (!ps_memory_reserve(s, bytes))
        return PS_HEURISTIC; /* over --max-memory: nothing played */
    struct ps_playout p;
    unsigned char *start = malloc(s->state_size);
    if (start && ps_playout_init(&p, s->game, s->inst)) {
        struct ps_rng rng;
        ps_rng_seed(&rng, s->opt.seed);
        s->game->initial_state(s->inst, start);
        for (int i = 0; i < o->samples && !ps_search_stopped(s); i++) {
            ps_value v = ps_playout_uniform(&p, start, &rng, 0);
            s->stats.playouts++;
            s->stats.expanded += (uint64_t)p.length;
            ps_search_offer(s, p.line, p.length, v); /* keeps the best */
        }
        ps_playout_free(&p);
    }
    free(start);
    ps_memory_release(s, bytes);
    return PS_HEURISTIC; /* a sample proves nothing */
}

const struct ps_algorithm ps_algo_sample = {
    .name = "sample",
    .summary = "the best of N random playouts (a template)",
    .for_score = true, /* a cost game's playout may not reach the goal */
    .run = sample_run,
    .options = sample_options,
    .options_size = sizeof(struct sample_options),
    .options_default = &sample_defaults,
};
