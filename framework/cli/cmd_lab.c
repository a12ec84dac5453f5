/*
 * cmd_lab.c - psolve lab: every puzzle of the FILE and DIR arguments x every
 * --algo run, one row each, then summary rows (lab.c runs them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lab.h"
#include "rules.h"

/* A lab: every puzzle of the file and directory arguments x every --algo. */
int cmd_lab(struct cli *c, const struct ps_game *g)
{
    if (c->checkpoint || c->resume)
        return cli_usage_error("%s", "--checkpoint and --resume are for one "
                                     "puzzle, not a lab");
    struct ps_lab_setup setup = {.game = g, .limits = c->limits, .opt = c->opt};
    /* checked before anything is read or allocated (it leaked the list of
     * puzzles once) */
    if (c->trace_json)
        return cli_usage_error("%s", "--trace-json is for one puzzle; a lab traces "
                                 "to stderr (--trace-format jsonl)");
    void *rules = cli_rules(c, g);
    if (!rules)
        return PS_EXIT_ERROR;
    /* Parallel puzzles, not parallel runs: one thread per run unless asked,
     * which also keeps Monte Carlo runs the same on every machine. */
    if (!cli_option_given(c, "threads"))
        setup.opt.threads = 1;
    int rc = cli_parse_algos(c, g, &setup.opt, setup.variant, &setup.nalgos);
    if (rc >= 0) {
        free(rules);
        return rc;
    }
    for (int i = 0; i < setup.nalgos; i++)
        setup.algos[i] = setup.variant[i].algo;
    setup.rules = rules;
    setup.rules_name = c->rules_spec ? c->rules_spec : "default";
    setup.progress = !c->quiet;
    char **paths;
    int npaths;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_lab_collect(c->files, c->nfiles, &paths, &npaths, &err)) {
        free(rules);
        return cli_print_error(&err);
    }
    struct ps_lab_layout lay;
    ps_lab_layout_init(&lay, c->json ? PS_LAB_JSON : c->csv ? PS_LAB_CSV
                                                            : PS_LAB_TEXT,
                       g, (const char *const *)paths, npaths);
    for (int i = 0; i < setup.nalgos; i++)
        if ((int)strlen(setup.variant[i].label) > lay.algo_width)
            lay.algo_width = (int)strlen(setup.variant[i].label);
    ps_lab_layout_fit(&lay);
    struct ps_lab_row *rows = NULL;
    int nrows = 0;
    int jobs = c->jobs > 0 ? c->jobs : 1;
    int status;
    if (c->fe->run_lab) {
        if (c->html)
            fprintf(stderr, "psolve: --html: a distributed lab writes no page; "
                            "its rows are the same as psolve's\n");
        status = c->fe->run_lab(stdout, &lay, &setup,
                                (const char *const *)paths, npaths, jobs);
    } else {
        /* --max-memory caps the process: the puzzles that run at once (in
         * threads) share it. Each job had it whole, and --max-memory 50
         * --jobs 4 peaked at 160 MB. */
        int at_once = jobs < npaths ? jobs : npaths;
        if (at_once > 1 && setup.limits.max_memory)
            setup.limits.max_memory /= (uint64_t)at_once;
        status = ps_lab_run(stdout, &lay, &setup, (const char *const *)paths,
                            npaths, jobs, c->html ? &rows : NULL,
                            c->html ? &nrows : NULL);
    }
    if (c->html && !c->fe->run_lab) {
        struct ps_html_report rep = {.command = "lab", .game = g,
                                     .rows = rows, .nrows = nrows};
        if (!cli_write_html(c, &rep) && status == PS_EXIT_OK)
            status = PS_EXIT_ERROR;
        free(rows);
    }
    for (int i = 0; i < npaths; i++)
        free(paths[i]);
    free(paths);
    free(rules);
    return status;
}
