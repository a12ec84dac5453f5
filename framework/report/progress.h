/*
 * progress.h - the progress line of a lab or a job farm on stderr: puzzles
 * done / total, elapsed time and the last puzzle's result, at most once a
 * second (a ticker thread prints what changed), then a final line.
 */
#ifndef PS_PROGRESS_H
#define PS_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "lab.h"

/* The longest progress line, so that it fits a 100-column terminal. */
#define PS_PROGRESS_WIDTH 100
/* The longest puzzle name on it; a longer one shows as "..." and its end. */
#define PS_PROGRESS_NAME 24

struct ps_progress {
    bool on;               /* false: every call does nothing (--quiet) */
    FILE *out;
    const char *what;      /* "lab", "farm" */
    int total, done;
    double start;          /* ps_now() at begin */
    char last[PS_PROGRESS_WIDTH]; /* the last puzzle done and its results */
    bool changed;          /* done or last moved since the last line */
    bool stop;
    bool ticking;          /* the ticker thread runs */
    pthread_t ticker;
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

/* Start: `on` false makes the whole thing silent. */
void ps_progress_begin(struct ps_progress *p, FILE *out, const char *what,
                       int total, bool on);
/* A puzzle is done; rows[0..nrows) are its results (thread-safe). */
void ps_progress_puzzle(struct ps_progress *p, const struct ps_lab_row *rows,
                        int nrows);
/* Stop the ticker and print the final line. */
void ps_progress_end(struct ps_progress *p);

/* The line itself (for the tests): "psolve: lab: D/T puzzles done, S s;
 * last: PUZZLE ALGO STATUS VALUE, ...", cut to PS_PROGRESS_WIDTH - 1. */
void ps_progress_format(const struct ps_progress *p, char *buf, size_t len);

#endif
