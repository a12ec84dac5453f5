/*
 * replay.h - solutions as text and their replay through the game's own move
 * generator: a verified solution is a proof, because verify and search share
 * one code path.
 */
#ifndef PS_REPLAY_H
#define PS_REPLAY_H

#include <stdio.h>

#include "game.h"

struct ps_replay {
    ps_value value; /* gains (+ end value when over) or summed costs */
    int len;        /* moves replayed */
    bool over;      /* score game: no move left; cost game: goal reached */
    /* On failure: a move's text did not read back as the move, or the
     * game's slot failed printing it (the game is at fault, not the line). */
    bool text_error;
};

/* Replay moves[0..n) from the initial state; every move must be one that
 * moves() lists. final_state (state_size bytes) receives the last state. On an
 * illegal move: false, err says which (1-based) and why, res->len counts the
 * legal moves before it. */
bool ps_replay_moves(const struct ps_game *g, const void *inst,
                     const ps_move *moves, int n, void *final_state,
                     struct ps_replay *res, struct ps_error *err);

/* Parse a solution file: one move per line in the game's text form, '#'
 * comments. Each line is read against the state it applies to. *moves is
 * malloc'd. Errors name path, line and the move number; *n is then that
 * move's 1-based number (0 when no move is at fault: out of memory). */
bool ps_read_solution(const struct ps_game *g, const void *inst,
                      const char *path, const char *text, size_t len,
                      ps_move **moves, int *n, struct ps_error *err);

/* Print moves as a solution file: one move per line, each followed by a
 * '#' comment with its gain or cost and the game's description. */
void ps_print_moves(FILE *out, const struct ps_game *g, const void *inst,
                    const ps_move *moves, int n);

/* Walking a line of moves from the initial state: after ps_walk_begin,
 * w->cur is the start; each ps_walk_step plays a move (returning its gain or
 * cost, summed in w->so_far) and leaves the new state in w->cur. */
struct ps_walk {
    const struct ps_game *g;
    const void *inst;
    unsigned char *cur, *next;
    ps_value so_far;
};
bool ps_walk_begin(struct ps_walk *w, const struct ps_game *g,
                   const void *inst); /* false: out of memory */
ps_value ps_walk_step(struct ps_walk *w, ps_move move);
void ps_walk_end(struct ps_walk *w);

/* A move's text (format_move) and comment (describe_move, "" without it),
 * as a solution file shows them. */
void ps_move_texts(const struct ps_game *g, const void *inst,
                   const void *state, ps_move move, char *text, size_t len,
                   char *about, size_t about_len);

/* The replay as a sequence of boards: the start, then after each move its
 * text, its gain or cost and the value so far, and the board. When `pause`
 * is not NULL (a terminal), waits for a line from it before each move; a
 * line "q" shows the rest without waiting. */
void ps_print_replay(FILE *out, const struct ps_game *g, const void *inst,
                     const ps_move *moves, int n, bool ansi, FILE *pause);

#endif
