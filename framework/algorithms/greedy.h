/*
 * greedy.h - the greedy line (largest immediate gain first) as a reusable
 * piece: the `greedy` algorithm plays it from the start, `dfs` uses it for its
 * first lower bound and to finish lines cut by --max-depth.
 */
#ifndef PS_GREEDY_H
#define PS_GREEDY_H

#include "search.h"

/* Scratch space for greedy lines on one instance. */
struct ps_greedy {
    const struct ps_game *game;
    const void *inst;
    ps_move *moves;
    ps_value *gains;
    unsigned char *cur, *next;
    unsigned char *prev; /* --trace: the state before the last move */
};

bool ps_greedy_init(struct ps_greedy *gr, const struct ps_game *g,
                    const void *inst);
void ps_greedy_free(struct ps_greedy *gr);

/* Index of the move greedy plays: the largest gain, the first on ties. */
int ps_greedy_pick(const ps_value *gains, int n);

/* Play greedily from `start` until the game is over or `max_len` moves were
 * played, writing the moves to path[0..*len). Returns the gains, plus the end
 * value when the game is over (*over). If `s` is not NULL the line counts in
 * its statistics, stops when ps_search_stopped() says so, and is traced when
 * `trace` is set. */
ps_value ps_greedy_play(struct ps_greedy *gr, struct ps_search *s,
                        bool trace, const void *start, ps_move *path,
                        int max_len, int *len, bool *over);

#endif
