/*
 * beam.h - beam search's own options, for the algorithms that run a beam
 * nested in their own search (dfs's incumbent rounds, ps_search_nest), and
 * its width schedule under --time (for the tests).
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
    const char *weights; /* --beam-weights: NULL = the game's evaluate */
    /* Not an option: a caller (dfs's rounds) that wants one beam of `width`
     * under its own clock, neither widened nor finished at each depth. */
    bool one_beam;
};

struct ps_game;
struct ps_error;
/* --beam-weights SPEC ("default" or "NAME=V,..."): w[k] for each entry of
 * g's eval_weights (the game's default where SPEC names none). False with
 * err when g has no weighted evaluation or SPEC is not of that form
 * (beam_eval.c). */
bool ps_beam_weights_parse(const struct ps_game *g, const char *spec,
                           double *w, struct ps_error *err);

/* Under --time, the width of the beam that follows one of `width` that
 * took `took` seconds, with `left` of `seconds` left: as wide as the time
 * left allows at the last beam's cost per width, with a margin (a beam cut
 * short by the clock is wasted: its best position is only finished with a
 * playout), at most 8 times wider after a beam that took under 2% of the
 * time. 0 when no beam 1.25 times wider fits, unless again_from > 0 (the
 * clearing objectives: --beam-width) and a beam at least that wide fits:
 * then that one, narrower or not. */
int ps_beam_next_width(double seconds, double left, int width, double took,
                       int again_from);

#endif
