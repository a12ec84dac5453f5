/*
 * report.h - the results of runs on stdout: the solution file format with
 * '# key: value' statistics, one JSON object, or a side-by-side table.
 * Every reported solution is first replayed through the game (replay.h).
 */
#ifndef PS_REPORT_H
#define PS_REPORT_H

#include <stdio.h>

#include "replay.h"
#include "search.h"

#define PS_MAX_FACTS 8

struct ps_run {
    const char *algo;
    enum ps_status status;
    enum ps_stop_reason stop;
    struct ps_stats stats;
    char note[128];
    ps_move *moves; /* malloc'd copy of the best solution */
    int len;
    bool found;
    ps_value value;
    bool verified;  /* replayed legally, value recomputed and equal */
    struct ps_replay replay;
    struct ps_fact facts[PS_MAX_FACTS];
    int nfacts;
    char verify_error[600];
};

/* Take the result of a finished search (copies the solution, replays it). */
void ps_run_capture(struct ps_run *r, const struct ps_search *s,
                    enum ps_status status);
void ps_run_free(struct ps_run *r);

void ps_report_text(FILE *out, const struct ps_game *g, const void *inst,
                    const struct ps_run *r, const char *path);
void ps_report_json(FILE *out, const struct ps_game *g, const void *inst,
                    const struct ps_run *r, const char *path);
/* Side by side; `agree` is printed as the exact algorithms' check. */
void ps_report_table(FILE *out, const struct ps_game *g, const void *inst,
                     const struct ps_run *runs, int n, bool csv);
void ps_report_table_json(FILE *out, const struct ps_game *g, const void *inst,
                          const struct ps_run *runs, int n, const char *path);

/* Do all runs that claim optimal agree on the value? */
bool ps_runs_agree(const struct ps_run *runs, int n, ps_value *optimum);

void ps_json_string(FILE *out, const char *s);
/* The statistics as one JSON object (the "stats" of every JSON output). */
void ps_json_stats(FILE *out, const struct ps_stats *st);

#endif
