/*
 * beam.h - beam search's own options, for the algorithms that run a beam
 * nested in their own search (dfs's incumbent rounds, ps_search_nest).
 */
#ifndef PS_BEAM_H
#define PS_BEAM_H

#include <stdbool.h>

/* beam's options (its table is in beam.c) */
struct ps_beam_options {
    int width;        /* positions kept per depth */
    bool playout;     /* judge positions by a playout, not the evaluation */
    int dfs_nodes;    /* clearing objectives: an exact dfs first (0 = off) */
    int endgame;      /* dfs nodes per end-game search (0 = off) */
};

#endif
