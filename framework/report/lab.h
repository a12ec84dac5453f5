/*
 * lab.h - labs over many puzzles: the same algorithms and limits on every
 * puzzle of a list, a row per puzzle x algorithm, then summary rows per
 * algorithm (solved counts, sums, medians, geometric means, agreement of the
 * exact ones).
 *
 * The pieces are separate so that other front ends (an MPI job farm, a
 * notebook driver) print exactly the rows psolve prints:
 *   ps_lab_run_puzzle   runs every algorithm on one puzzle (thread-safe);
 *   struct ps_lab_row   one result as plain bytes (no pointers: it can be
 *                       copied between threads or sent between processes);
 *   ps_lab_print_*      the header, a row, the summary, in text/CSV/JSON;
 *   ps_lab_run          the whole lab with --jobs worker threads, printing
 *                       the rows in input order.
 */
#ifndef PS_LAB_H
#define PS_LAB_H

#include <stdio.h>

#include "report.h"
#include "search.h"
#include "variant.h"

#define PS_LAB_MAX_ALGOS 16

/* What every puzzle of a lab is run with. */
struct ps_lab_setup {
    const struct ps_game *game;
    const void *rules;          /* resolved once, shared read-only */
    const char *rules_name;     /* the rules column: the --rules spec or "default" */
    const struct ps_algorithm *algos[PS_LAB_MAX_ALGOS];
    int nalgos;
    struct ps_limits limits;
    struct ps_options opt;      /* threads: per run (the lab defaults to 1) */
    /* Runs with their own options and labels (--algo astar:h=zero, or
     * --heuristic lists): when variant[i].algo is set, run i uses
     * variant[i].opt and is labelled variant[i].label; else algos[i], opt
     * and the algorithm's name. variant[i].algo == algos[i] then. */
    struct ps_variant variant[PS_LAB_MAX_ALGOS];
    /* Progress on stderr (progress.h): puzzles done / total, elapsed, the
     * last result, at most once a second, and a final line; off for
     * --quiet. */
    bool progress;
};

/* One puzzle x algorithm. */
struct ps_lab_row {
    char puzzle[256];
    char game[32];
    char rules[64];
    char algo[PS_VARIANT_LABEL];
    bool maximise;              /* score game (else cost game) */
    bool error;                 /* the puzzle could not be run: see message */
    char message[600];          /* the error (file:line:col), or the note */
    enum ps_status status;
    enum ps_stop_reason stop;
    bool found, verified;
    ps_value value;
    int len;
    struct ps_stats stats;
};

enum ps_lab_format { PS_LAB_TEXT, PS_LAB_CSV, PS_LAB_JSON };

/* How rows are laid out; the same layout gives byte-identical rows. */
struct ps_lab_layout {
    enum ps_lab_format format;
    int puzzle_width;           /* text: the puzzle column's width */
    const char *value_key;      /* "score" or "cost" */
    int algo_width;             /* text: the algorithm column's width */
    /* text: the directory every puzzle path starts with ("" = none), said
     * once above the table and left out of the puzzle column. */
    char puzzle_dir[256];
    bool playouts;              /* text: a playouts column (score games) */
};

/* The text table's width: its columns are cut to fit (the puzzle column
 * is shortened, counters that --csv and --json keep are left out). */
#define PS_LAB_TEXT_WIDTH 100

/* The layout for these puzzle paths (the widest names the column, within
 * PS_LAB_TEXT_WIDTH; call ps_lab_layout_fit after widening algo_width). */
void ps_lab_layout_init(struct ps_lab_layout *lay, enum ps_lab_format format,
                        const struct ps_game *g, const char *const *paths,
                        int npaths);
void ps_lab_layout_fit(struct ps_lab_layout *lay);
/* The label and options of run i of a setup (its variant, or the plain
 * algorithm with the common options). */
const char *ps_lab_label(const struct ps_lab_setup *setup, int i);
const struct ps_options *ps_lab_options(const struct ps_lab_setup *setup,
                                        int i);

/* Run every algorithm of `setup` on the puzzle at `path` and fill
 * rows[0..setup->nalgos). Safe to call from several threads at once. A
 * puzzle that cannot be loaded (or an algorithm that does not run on its
 * kind of game) gives rows with `error` set and the reason in `message`;
 * an internal error (a solution that does not verify) gives verified=false.
 * Returns false when any row of this puzzle is an error. */
bool ps_lab_run_puzzle(const struct ps_lab_setup *setup, const char *path,
                       struct ps_lab_row *rows);

/* Fill a row from a finished run (what ps_lab_run_puzzle does per algorithm). */
void ps_lab_row_from_run(struct ps_lab_row *row, const char *path,
                         const struct ps_lab_setup *setup,
                         const struct ps_run *run, bool maximise);

/* The output, in this order: begin (text/CSV: the header; JSON: the opening
 * of the object), one print_row per row with its index among all rows (JSON
 * needs the commas), then summary (per algorithm, over all rows given; the
 * closing of the JSON object). The summary returns whether the exact
 * algorithms agree on every puzzle. */
void ps_lab_print_begin(FILE *out, const struct ps_lab_layout *lay,
                        const struct ps_lab_setup *setup, int npuzzles);
void ps_lab_print_row(FILE *out, const struct ps_lab_layout *lay,
                      const struct ps_lab_row *row, int index);
bool ps_lab_print_summary(FILE *out, const struct ps_lab_layout *lay,
                          const struct ps_lab_setup *setup,
                          const struct ps_lab_row *rows, int nrows);

/* Expand the arguments into puzzle paths: a directory stands for its *.txt
 * files in name order, anything else for itself. *paths is malloc'd (free
 * each and the array). False with err on an unreadable directory. */
bool ps_lab_collect(const char *const *args, int nargs, char ***paths,
                    int *npaths, struct ps_error *err);

/* Run the lab on `jobs` worker threads (1 = in this thread), printing the
 * rows of each puzzle as soon as it and every puzzle before it are done,
 * then the summary. Returns an exit status: 0, 1 (a puzzle failed, a
 * solution did not verify, or the exact algorithms disagree) or 4
 * (interrupted: the rows so far and their summary are printed). *rows_out,
 * when not NULL, receives the rows (malloc'd, *nrows_out of them). */
int ps_lab_run(FILE *out, const struct ps_lab_layout *lay,
               const struct ps_lab_setup *setup, const char *const *paths,
               int npaths, int jobs, struct ps_lab_row **rows_out,
               int *nrows_out);

#endif
