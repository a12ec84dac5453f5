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
 * and playout policy; nrpa's options as the user set them in w's book,
 * else nrpa's defaults, with w's nesting, level and iterations). NULL when out of memory or levels is too deep. */
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
/* The iterations of every level of c's searches (at least 1), instead of
 * --iterations: dnrpa's tasks under --grow. */
void ps_nrpa_set_iterations(struct ps_nrpa *c, int iterations);
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
    bool past; /* read: `iteration` is not below the reader's iterations */
};
void ps_nrpa_put_level(struct ps_ckpt_buf *b, const struct ps_nrpa *c,
                       const struct ps_nrpa_level_state *st);
/* Read it back into st's arrays: a line longer than the game's bad in r,
 * and an iteration past `iterations` - 1 too, with st->past set (then
 * ps_nrpa_refuse_past says why). */
void ps_nrpa_get_level(struct ps_ckpt_reader *r, const struct ps_nrpa *c,
                       int iterations, struct ps_nrpa_level_state *st);
/* Stop s on the error of a level read past its iterations: the file was
 * saved by a run that grew under a budget (--grow), and this run, without
 * a budget, runs --iterations. */
void ps_nrpa_refuse_past(struct ps_search *s,
                         const struct ps_nrpa_level_state *st, int iterations);

/* The deepest nesting level nrpa (and dnrpa) run. */
#define PS_NRPA_MAX_LEVEL 6

/* The nesting of an nrpa run: the first member of nrpa's options struct
 * (its other options are private to nrpa.c) and of dnrpa's, so that the two
 * entries below serve both tables. Defaults measured best with budgets of
 * seconds on 15x15 SameGame: level 3 with 30 iterations beat level 2 with
 * 100. */
struct ps_nrpa_depth {
    int level;      /* nesting level, 1..PS_NRPA_MAX_LEVEL */
    int iterations; /* per level */
};
#define PS_NRPA_DEPTH_DEFAULTS {.level = 3, .iterations = 30}

/* --grow G (nrpa's and dnrpa's): under a budget the run is one search
 * whose top level iterates until the budget ends, its iteration i running
 * the levels below with N + G i iterations each (N = --iterations). Top and
 * lower levels then grow together, as in one run of N' x N' x N' that
 * nrpa's --fit would size to the same playouts, but nothing depends on the
 * budget or the clock, so a longer budget only adds to a shorter one's
 * search. */
static inline int ps_nrpa_grown(int iterations, double grow, uint64_t i)
{
    double n = iterations + grow * (double)i;
    return n < 1e9 ? (int)n : (int)1e9;
}

/* Is there a budget to fill (--time or --max-nodes)? Without one a run is
 * one search of --iterations. */
static inline bool ps_nrpa_budgeted(const struct ps_search *s)
{
    return s->limits.seconds > 0 || s->limits.max_nodes > 0;
}

/* Does the run grow (--grow G > 0 under a budget)? */
static inline bool ps_nrpa_grows(const struct ps_search *s, double grow)
{
    return grow > 0 && ps_nrpa_budgeted(s);
}

/* The run's nesting (nrpa's, or dnrpa's). */
static inline const struct ps_nrpa_depth *ps_nrpa_depth(
    const struct ps_search *s)
{
    return ps_search_algo_options(s);
}

/* nrpa's --level and --iterations entries (options.h), for the tables of
 * nrpa and of the distributed dnrpa, which take them with the same meaning. */
#define PS_NRPA_OPTION_LEVEL                                                   \
    {.name = "level",                                                          \
     .type = PS_OPT_INT,                                                       \
     .offset = offsetof(struct ps_nrpa_depth, level),                          \
     .min = 1,                                                                 \
     .max = PS_NRPA_MAX_LEVEL,                                                 \
     .arg = "L",                                                               \
     .def = "3",                                                               \
     .doc = "nesting level"}
#define PS_NRPA_OPTION_ITERATIONS                                              \
    {.name = "iterations",                                                     \
     .type = PS_OPT_INT,                                                       \
     .offset = offsetof(struct ps_nrpa_depth, iterations),                     \
     .min = 1,                                                                 \
     .max = 1e9,                                                               \
     .arg = "N",                                                               \
     .def = "30",                                                              \
     .doc = "iterations per level"}

/* --grow's entry, for nrpa's table and dnrpa's (`owner`'s `member`,
 * a double). */
#define PS_NRPA_OPTION_GROW(owner, member)                                     \
    {.name = "grow",                                                           \
     .type = PS_OPT_DOUBLE,                                                    \
     .offset = offsetof(owner, member),                                        \
     .min = 0,                                                                 \
     .max = 1000,                                                              \
     .arg = "G",                                                               \
     .def = "1",                                                               \
     .doc = "under --time or --max-nodes: one run until the budget ends, the " \
            "top level's i-th iteration running the levels below with "       \
            "--iterations + G*i iterations, so a longer budget only adds to " \
            "a shorter one's search (0: nrpa's runs sized by --fit, dnrpa's "  \
            "restarts of --iterations steps)"}

#endif
