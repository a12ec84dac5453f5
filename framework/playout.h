/*
 * playout.h - uniform random playouts through the vtable: the unit of work of
 * the Monte Carlo algorithms and of `psolve bench`.
 */
#ifndef PS_PLAYOUT_H
#define PS_PLAYOUT_H

#include "game.h"

/* Scratch space for playouts on one instance; one per thread. */
struct ps_playout {
    const struct ps_game *game;
    const void *inst;
    ps_move *moves;      /* max_moves */
    unsigned char *a, *b;/* two states */
    int length;          /* moves played by the last playout */
};

bool ps_playout_init(struct ps_playout *p, const struct ps_game *g,
                     const void *inst);
void ps_playout_free(struct ps_playout *p);

/* Play uniformly random legal moves from `start` until none is left (score
 * games) or the goal or `max_len` moves (cost games; 0 = max_depth). Returns
 * the value of the line: gains + end value, or summed costs. */
ps_value ps_playout_uniform(struct ps_playout *p, const void *start,
                            struct ps_rng *rng, int max_len);

#endif
