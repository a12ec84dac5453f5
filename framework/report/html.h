/*
 * html.h - `--html FILE`: one self-contained HTML page (no network, no
 * external script or font) showing the runs of a solve, verify or lab
 * command: a replay of each solution on the drawn board, the value so far
 * as a curve, comparison bars, anytime curves and a step-through of the
 * traced search.
 *
 * The page is framework/report/report.html (embedded at build time by
 * cmake/embed.cmake) with the data of the runs written into it as one JSON
 * object (the "psolve-data" script element; schema in docs/cli.md). The
 * boards come from the game's optional state_json slot; a game without it
 * is shown as print_state's text.
 */
#ifndef PS_HTML_H
#define PS_HTML_H

#include <stdio.h>

#include "lab.h"
#include "report.h"
#include "trace.h"

/* What a run adds to the page besides its result. */
struct ps_html_capture {
    struct ps_anytime anytime;  /* improvements with their times */
    char *trace;                /* the JSONL trace of the run (malloc'd) */
    size_t trace_len;
    FILE *mem;                  /* open while the run traces into it */
};

/* Before ps_search_run: record the run's improvements and (when --trace
 * is on) a copy of its trace. After it: close the copy. */
void ps_html_capture_begin(struct ps_html_capture *c, struct ps_search *s);
void ps_html_capture_end(struct ps_html_capture *c, struct ps_search *s);
void ps_html_capture_free(struct ps_html_capture *c);

struct ps_html_report {
    const char *command;        /* "solve", "verify" or "lab" */
    const struct ps_game *game;
    const void *inst;           /* solve, verify: the puzzle replayed */
    const char *puzzle;         /* its path */
    const struct ps_run *runs;  /* solve, verify */
    const struct ps_html_capture *captures; /* per run, or NULL */
    int nruns;
    const struct ps_lab_row *rows; /* lab */
    int nrows;
};

/* A page template with its markers filled: PSOLVE-COMMON (in a comment's
 * slashes and stars) by framework/report/board.js, the drawing both pages
 * share, and PSOLVE-DATA by what `data` writes (report.html's runs; psolve
 * serve's settings). */
void ps_html_page(FILE *out, const unsigned char *tmpl, size_t len,
                  void (*data)(FILE *out, const void *ctx), const void *ctx);
/* The page, to `out`. */
void ps_html_write(FILE *out, const struct ps_html_report *r);
/* The page, to the file at `path`; false with err when it cannot be
 * written. */
bool ps_html_write_file(const char *path, const struct ps_html_report *r,
                        struct ps_error *err);

#endif
