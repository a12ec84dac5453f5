/*
 * cmd_solve.c - psolve [solve]: one puzzle, one run per --algo item, the
 * result (text or --json) or a side-by-side table (text, --csv, --json).
 * Several files or a directory make a lab (cmd_lab.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "replay.h"
#include "textfile.h"
#include "report.h"

/* After the runs: the result (text or --json) or the side-by-side table,
 * the --trace-json file closed, the --html page. Returns `status`, or
 * PS_EXIT_ERROR where one of them fails. */
static int solve_output(struct cli *c, const struct ps_game *g,
                        const void *inst, struct ps_run *runs,
                        struct ps_html_capture *captures, int nalgos,
                        FILE *trace_file, int status)
{
    if (nalgos == 1) {
        if (c->json)
            ps_report_json(stdout, g, inst, &runs[0], c->files[0]);
        else
            ps_report_text(stdout, g, inst, &runs[0], c->files[0]);
    } else {
        if (c->json)
            ps_report_table_json(stdout, g, inst, runs, nalgos, c->files[0]);
        else
            ps_report_table(stdout, g, inst, runs, nalgos, c->csv);
        if (!ps_runs_agree(runs, nalgos, NULL)) {
            fprintf(stderr, "psolve: error: the exact algorithms disagree\n");
            status = PS_EXIT_ERROR;
        }
    }
    struct ps_error werr;
    ps_error_clear(&werr);
    if (trace_file && !ps_output_close(trace_file, c->trace_json, true, &werr))
        status = cli_print_error(&werr);
    if (c->html) {
        struct ps_html_report rep = {.command = "solve", .game = g, .inst = inst,
                                     .puzzle = c->files[0], .runs = runs,
                                     .captures = captures, .nruns = nalgos};
        if (!cli_write_html(c, &rep))
            status = PS_EXIT_ERROR;
        /* A script's show that failed drawing the frames (an endless loop
         * stopped by the sandbox): the page's drawings are missing. */
        if (cli_report_game_fault(g, inst))
            status = PS_EXIT_ERROR;
    }
    return status;
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What a reader (psolve serve) follows while the search runs, brought up to
 * date with each progress line: --trace-json's file flushed, and
 * --best-file, the best line so far as a solution file, rewritten when it
 * changed; written to FILE.tmp and renamed, so that the reader never sees
 * half of it. (mc, nmcs and nrpa hand their workers' line over, except on
 * games that run in one thread.) */
struct live_files {
    FILE *trace;
    const char *path;
    bool written;
    int len;
    ps_value value;
};

static void live_files_update(const struct ps_search *s, void *ctx)
{
    struct live_files *b = ctx;
    if (b->trace)
        fflush(b->trace); /* an error stays on the stream for the end */
    if (!b->path || !s->best.found ||
        (b->written && b->len == s->best.len && b->value == s->best.value))
        return;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", b->path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    ps_print_moves(f, s->game, s->inst, s->best.moves, s->best.len);
    if (fclose(f) == 0 && rename(tmp, b->path) == 0) {
        b->written = true;
        b->len = s->best.len;
        b->value = s->best.value;
    }
}

int cmd_solve(struct cli *c, const struct ps_game *g)
{
    if (c->nfiles > 1 || (c->nfiles == 1 && is_directory(c->files[0])))
        return cmd_lab(c, g);
    struct puzzle pz;
    if (!cli_puzzle_open(c, g, &pz))
        return PS_EXIT_ERROR;
    struct ps_variant variants[PS_LAB_MAX_ALGOS];
    const struct ps_algorithm *algos[PS_LAB_MAX_ALGOS];
    int nalgos;
    int rc = cli_parse_algos(c, g, &c->opt, variants, &nalgos);
    if (rc >= 0) {
        cli_puzzle_close(&pz);
        return rc;
    }
    for (int i = 0; i < nalgos; i++)
        algos[i] = variants[i].algo;
    void *inst = pz.inst;
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    for (int i = 0; i < nalgos; i++)
        if (maximise ? !algos[i]->for_score : !algos[i]->for_cost) {
            fprintf(stderr, "psolve: algorithm %s does not run on %s games (%s)\n",
                    algos[i]->name, maximise ? "score" : "cost", g->name);
            cli_puzzle_close(&pz);
            return PS_EXIT_USAGE;
        }

    FILE *trace_file = NULL;
    if (c->trace_json && !(trace_file = fopen(c->trace_json, "w"))) {
        fprintf(stderr, "psolve: %s: cannot write the trace\n", c->trace_json);
        cli_puzzle_close(&pz);
        return PS_EXIT_ERROR;
    }

    struct ps_run runs[PS_LAB_MAX_ALGOS];
    struct ps_html_capture captures[PS_LAB_MAX_ALGOS];
    int status = PS_EXIT_OK;
    /* The rules are the same for every run: one stamp, for the reports
     * and a checkpoint's key. */
    char stamp[sizeof runs[0].rules];
    cli_rules_stamp(c, g, pz.rules, stamp, sizeof stamp);
    for (int i = 0; i < nalgos; i++) {
        struct ps_search s;
        ps_search_init(&s, g, inst, &c->limits, &variants[i].opt);
        struct ps_checkpoint ck;
        int crc = cli_checkpoint_setup(c, algos[i], nalgos, stamp, &s, &ck);
        if (crc >= 0) {
            ps_search_free(&s);
            if (trace_file)
                fclose(trace_file);
            cli_puzzle_close(&pz);
            return crc;
        }
        s.progress = !c->quiet && isatty(STDERR_FILENO);
        s.progress_log = !c->quiet && !s.progress;
        s.trace.out = trace_file ? trace_file : stderr;
        struct live_files live = {.trace = trace_file, .path = c->best_file};
        if (c->best_file || trace_file) {
            s.on_progress = live_files_update;
            s.on_progress_ctx = &live;
        }
        if (c->html)
            ps_html_capture_begin(&captures[i], &s);
        enum ps_status st = c->fe->run_search ? c->fe->run_search(&s, algos[i])
                                              : ps_search_run(&s, algos[i]);
        if (cli_report_search_fault(&s))
            status = PS_EXIT_ERROR;
        if (c->html)
            ps_html_capture_end(&captures[i], &s);
        if (s.checkpoint && cli_checkpoint_finish(&ck) != 0)
            status = PS_EXIT_ERROR;
        ps_run_capture(&runs[i], &s, st);
        runs[i].algo = variants[i].label;
        memcpy(runs[i].rules, stamp, sizeof stamp);
        ps_search_free(&s);
        if (runs[i].game_error) {
            fprintf(stderr, "psolve: %s\n", runs[i].verify_error);
            status = PS_EXIT_ERROR;
        } else if (runs[i].found && !runs[i].verified) {
            fprintf(stderr, "psolve: internal error: %s returned a solution that "
                            "does not verify: %s\n",
                    algos[i]->name, runs[i].verify_error);
            status = PS_EXIT_ERROR;
        }
        int es = cli_exit_status_of(st, runs[i].found && runs[i].verified,
                                    ps_interrupted);
        if (status == PS_EXIT_OK)
            status = es;
        if (ps_interrupted) {
            /* Ctrl-C ends the whole comparison, not only this run. */
            nalgos = i + 1;
            break;
        }
    }
    status = solve_output(c, g, inst, runs, captures, nalgos, trace_file,
                          status);
    for (int i = 0; i < nalgos; i++) {
        if (c->html)
            ps_html_capture_free(&captures[i]);
        ps_run_free(&runs[i]);
    }
    cli_puzzle_close(&pz);
    return status;
}
