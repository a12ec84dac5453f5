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
    /* The replay failed in a slot of the game (a script's format_move or
     * parse_move): the line is dropped (found false, stopped: error) and
     * verify_error says why. */
    bool game_error;
    /* Set by the caller: the "# rules:" stamp (ps_rules_stamp), "" = none. */
    char rules[96];
    const char *heuristic;  /* the run's heuristic or bound name, NULL = none used */
    struct ps_layer *layers; /* --layers (malloc'd copy), nlayers of them */
    int nlayers;
    const char *layer_kind;
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
/* The table's last line: "# exact algorithms agree: ..." only when two or
 * more exact answers came out; otherwise which exact runs finished and
 * which did not (and why); an ERROR line when they disagree. */
void ps_report_agreement(FILE *out, const struct ps_run *runs, int n);
/* Which run won, as one line: "best: nrpa, 1,234 points, not proved
 * optimal (beam 1,100, greedy 52)"; for cost games "N moves" (or "cost N"
 * where moves cost otherwise), "optimal" when a winner proved it; runs of
 * the same value "a and b tie"; "best: none, ..." when no run found a
 * solution (with the proof of unsolvability or each run's stop). Runs past
 * PS_WINNER_MAX_RUNS are not listed among the others. */
#define PS_WINNER_LINE 1024
#define PS_WINNER_MAX_RUNS 64
void ps_winner_line(char *buf, size_t len, bool maximise,
                    const struct ps_run *runs, int n);
/* The table's "# best: ..." line. */
void ps_report_winner(FILE *out, bool maximise, const struct ps_run *runs, int n);
/* --layers: each run's per-depth / f-layer / iteration counts, as '#' lines
 * (IDA* and dfs with the re-expansion overhead). */
void ps_report_layers(FILE *out, const struct ps_run *runs, int n);

/* The effective branching factor b*: N = b* + b*^2 + ... + b*^d for N
 * generated nodes and a solution of depth d (AIMA 3.6.1); 0 when undefined
 * (no solution, d = 0, nothing generated). */
double ps_effective_branching(uint64_t generated, int depth);
/* Human units for the text table: "512 B", "12.3 KB", "4.0 MB"; "15 ms",
 * "2.35 s". */
void ps_format_bytes(uint64_t bytes, char *buf, size_t len);
void ps_format_seconds(double seconds, char *buf, size_t len);

void ps_json_string(FILE *out, const char *s);
/* The statistics as one JSON object (the "stats" of every JSON output). */
void ps_json_stats(FILE *out, const struct ps_stats *st);
/* --layers of a run as one JSON object: {"kind":"f","rows":[{"key":K,
 * "expanded":E,"generated":G},...]} (r->nlayers > 0). */
void ps_json_layers(FILE *out, const struct ps_run *r);

#endif
