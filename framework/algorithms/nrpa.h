/*
 * nrpa.h - the pieces of NRPA (nrpa.c) for algorithms that arrange the
 * levels themselves: the distributed nrpa of psolve-mpi runs the top level
 * on one rank and the level below it as jobs on the others.
 */
#ifndef PS_NRPA_H
#define PS_NRPA_H

#include "worker.h"

struct ps_nrpa;

/* Scratch and policies for levels 0..levels on worker w (its search, PRNG
 * and playout policy). NULL when out of memory or levels is too deep. */
struct ps_nrpa *ps_nrpa_new(struct ps_worker *w, int levels);
void ps_nrpa_free(struct ps_nrpa *c);
/* The number of move codes: the length of every policy array. */
uint32_t ps_nrpa_space(const struct ps_nrpa *c);
/* The policy a search at `level` starts from (fill it before the call). */
double *ps_nrpa_policy(struct ps_nrpa *c, int level);
/* NRPA at `level` from the initial state with the worker's PRNG: level 0 is
 * one playout, level L runs --iterations searches at L-1, adapting. Leaves
 * its best line in ps_nrpa_line(level). False when stopped before any line
 * was found. Every line is offered to the worker as it is found. */
bool ps_nrpa_search(struct ps_nrpa *c, int level, ps_value *value);
const ps_move *ps_nrpa_line(const struct ps_nrpa *c, int level, int *len);
/* Adapt policy pol towards the line seq[0..len) (nrpa's adapt step). */
void ps_nrpa_adapt(struct ps_nrpa *c, double *pol, const ps_move *seq, int len);
/* A level of NRPA between two of its iterations, as a checkpoint holds it
 * (nrpa's top level; dnrpa's, on rank 0): the next iteration, the level's
 * best line (`line`: the caller's array, room for max_depth + 1 moves) and
 * value, and its policy (ps_nrpa_space entries), written sparse. */
struct ps_nrpa_level_state {
    int iteration;
    bool found;
    ps_value best;
    ps_move *line;
    int len;
    double *pol;
};
void ps_nrpa_put_level(struct ps_ckpt_buf *b, const struct ps_nrpa *c,
                       const struct ps_nrpa_level_state *st);
/* Read it back into st's arrays: an iteration past `iterations` - 1 or a
 * line longer than the game's bad in r. */
void ps_nrpa_get_level(struct ps_ckpt_reader *r, const struct ps_nrpa *c,
                       int iterations, struct ps_nrpa_level_state *st);

/* The deepest nesting level nrpa (and dnrpa) run. */
#define PS_NRPA_MAX_LEVEL 6

/* nrpa's --level and --iterations entries (options.h), for the tables of
 * nrpa and of the distributed dnrpa, which take them with the same meaning. */
#define PS_NRPA_OPTION_LEVEL                                                   \
    {.name = "level",                                                          \
     .type = PS_OPT_INT,                                                       \
     .offset = offsetof(struct ps_options, level),                             \
     .min = 1,                                                                 \
     .max = PS_NRPA_MAX_LEVEL,                                                 \
     .arg = "L",                                                               \
     .def = "3",                                                               \
     .doc = "nesting level"}
#define PS_NRPA_OPTION_ITERATIONS                                              \
    {.name = "iterations",                                                     \
     .type = PS_OPT_INT,                                                       \
     .offset = offsetof(struct ps_options, iterations),                        \
     .min = 1,                                                                 \
     .max = 1e9,                                                               \
     .arg = "N",                                                               \
     .def = "30",                                                              \
     .doc = "iterations per level"}

/* nrpa's defaults and bounds for --level and --iterations, applied to s. */
void ps_nrpa_defaults(struct ps_search *s);

#endif
