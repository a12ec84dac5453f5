/*
 * trace.h - what `--trace N` shows: one event struct that every algorithm
 * fills, and one emitter that writes it as a text line (for reading along)
 * or as one JSON object per line (`--trace-format jsonl`, for notebooks and
 * the HTML viewer). The format lives here only; algorithms never print.
 *
 * An event has a kind and a set of fields, each present when its bit is in
 * `has`. The JSON record of an event (docs/algorithms.md, "Trace records"):
 *   {"event":KIND,"algo":NAME,"n":SEQ,"t":SECONDS, FIELDS..., "move":TEXT,
 *    "state":{...} or "board":TEXT}
 * with FIELDS among id, parent, depth, g, h, key, open, iteration, bound,
 * level, width, candidates, value, len, in that order.
 *
 * Budget: --trace N shows the first N events of kinds expand, depth and
 * level. Begin, push, iteration and improvement events are not counted: an
 * algorithm emits the pushes of an expansion only when that expansion was
 * shown, and a run has few rounds and improvements (IDA*'s bounds go on
 * showing after its expansions stop).
 */
#ifndef PS_TRACE_H
#define PS_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

enum ps_trace_format { PS_TRACE_TEXT, PS_TRACE_JSONL };

enum ps_trace_kind {
    PS_TRACE_BEGIN,     /* a run starts: "== astar ==" */
    PS_TRACE_EXPAND,    /* a state's moves are generated */
    PS_TRACE_PUSH,      /* a successor joins the open list (best-first) */
    PS_TRACE_ITERATION, /* a round of IDA* / iterative deepening: its bound */
    PS_TRACE_DEPTH,     /* beam: one depth done, `width` positions kept */
    PS_TRACE_LEVEL,     /* nmcs / nrpa / mc: one step of a level finished */
    PS_TRACE_IMPROVE,   /* a better solution was kept */
};

/* The field bits of ps_trace_event.has. */
enum {
    PS_TF_ID = 1u << 0,
    PS_TF_PARENT = 1u << 1,
    PS_TF_DEPTH = 1u << 2,
    PS_TF_G = 1u << 3,
    PS_TF_H = 1u << 4,
    PS_TF_KEY = 1u << 5,
    PS_TF_OPEN = 1u << 6,
    PS_TF_ITERATION = 1u << 7,
    PS_TF_BOUND = 1u << 8,
    PS_TF_LEVEL = 1u << 9,
    PS_TF_WIDTH = 1u << 10,
    PS_TF_CANDIDATES = 1u << 11,
    PS_TF_VALUE = 1u << 12,
    PS_TF_LEN = 1u << 13,
};

struct ps_trace_event {
    enum ps_trace_kind kind;
    unsigned has;       /* PS_TF_* bits: which fields below are set */
    int64_t id;         /* the node (best-first: its table entry) */
    int64_t parent;     /* the node it was reached from, -1 for the start */
    int depth;
    ps_value g, h;
    double key;         /* the real queue key: g + h (astar), g (bfs), h
                         * (greedy), g + w h (wastar) */
    uint64_t open;      /* open-list size after the event */
    int iteration;
    ps_value bound;
    int level;
    int width;
    uint64_t candidates;
    ps_value value;     /* best / improved value */
    int len;            /* moves of that line */
    const char *move;   /* text of the move that led to `state`, or NULL */
    const void *state;  /* drawn after the line (text) / as "state", or NULL */
};

/* Where and how events go; one per search (struct ps_search holds it). */
struct ps_tracer {
    FILE *out;                  /* the user's trace (stderr by default) */
    enum ps_trace_format format;
    FILE *capture;              /* also JSONL here when not NULL (--html) */
    int limit;                  /* --trace N */
    int shown;                  /* budgeted events shown so far */
    int seq;                    /* every event written, for "n" */
    const char *algo;
    double start;               /* the run's start, for "t" */
    const struct ps_game *game;
    const void *inst;
};

/* Does an event of this kind get written now? (Counts nothing.) */
bool ps_trace_wanted(const struct ps_tracer *t, enum ps_trace_kind kind);
/* Write the event if wanted; budgeted kinds count against the limit. */
void ps_trace_emit(struct ps_tracer *t, const struct ps_trace_event *ev);

/* A state as JSON for drawing: the game's state_json when it has one, else
 * {"text": print_state's drawing}. */
void ps_trace_state_json(FILE *out, const struct ps_game *g, const void *inst,
                         const void *state, const ps_move *next);

/* JSON string literal, also safe inside an HTML <script> element ("</"
 * written as "<\/"). */
void ps_trace_json_string(FILE *out, const char *s);

/* Improvements of the best solution with their times: the anytime curve of
 * a run (best value against seconds since its start). */
struct ps_anytime_point {
    double seconds;
    ps_value value;
    int len;
};

struct ps_anytime {
    struct ps_anytime_point *points;
    int n, cap;
};

void ps_anytime_add(struct ps_anytime *a, double seconds, ps_value value,
                    int len);
void ps_anytime_free(struct ps_anytime *a);

#endif
