/*
 * nmcs.h - the pieces of NMCS (nmcs.c) for algorithms that arrange the top
 * level themselves: the distributed nmcs of psolve-mpi walks down the game
 * on one rank and evaluates the moves of each step as jobs on the others.
 */
#ifndef PS_NMCS_H
#define PS_NMCS_H

#include "worker.h"

struct ps_nmcs;

/* Scratch for levels 1..levels on worker w. NULL when out of memory. */
struct ps_nmcs *ps_nmcs_new(struct ps_worker *w, int levels);
void ps_nmcs_free(struct ps_nmcs *c);
/* The moves from the initial state (max_depth + 1): before ps_nmcs_child,
 * path[0..depth) must hold the line that reached `child`, so that the
 * lines offered to the worker are whole games. */
ps_move *ps_nmcs_path(struct ps_nmcs *c);
/* What a level-`level` search does for one move: the level-(level-1)
 * search of `child` (a playout at level 1), reached by path[0..depth) worth
 * so_far. *value is the value of the whole game, *line[0..*len) the best
 * line after child. False when stopped with nothing. */
bool ps_nmcs_child(struct ps_nmcs *c, int level, const void *child, int depth,
                   ps_value so_far, ps_value *value, const ps_move **line,
                   int *len);
/* The deepest nesting level nmcs (and dnmcs) run. */
#define PS_NMCS_MAX_LEVEL 6

/* nmcs's own options, dnmcs's too. */
struct ps_nmcs_options {
    int level; /* nesting level, 1..PS_NMCS_MAX_LEVEL */
};
extern const struct ps_nmcs_options ps_nmcs_default_options;

/* nmcs's --level entry (options.h), for the tables of nmcs and dnmcs. */
#define PS_NMCS_OPTION_LEVEL                                                   \
    {.name = "level",                                                          \
     .type = PS_OPT_INT,                                                       \
     .offset = offsetof(struct ps_nmcs_options, level),                        \
     .min = 1,                                                                 \
     .max = PS_NMCS_MAX_LEVEL,                                                 \
     .arg = "L",                                                               \
     .def = "2",                                                               \
     .doc = "nesting level"}

/* The run's nesting level. */
static inline int ps_nmcs_level(const struct ps_search *s)
{
    return ((const struct ps_nmcs_options *)ps_search_algo_options(s))->level;
}

#endif
