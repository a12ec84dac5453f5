/*
 * frontend.h - what a front end built on psolve's command line may change.
 *
 * psolve and psolve-mpi are one command line (main.c: the options, the
 * commands, the result printers); psolve-mpi compiles main.c with
 * PSOLVE_CLI_LIBRARY, which turns its main() into ps_cli_main(), and passes
 * hooks that spread the work over MPI ranks. psolve passes no hooks.
 */
#ifndef PS_FRONTEND_H
#define PS_FRONTEND_H

#include "lab.h"
#include "search.h"

struct ps_frontend {
    /* Algorithms only this front end has, NULL-terminated, looked up before
     * the registry's (NULL = none). */
    const struct ps_algorithm *const *algorithms;
    /* Runs one search in place of ps_search_run (NULL = ps_search_run). */
    enum ps_status (*run_search)(struct ps_search *s,
                                 const struct ps_algorithm *a);
    /* Runs a lab in place of ps_lab_run, same contract (NULL = ps_lab_run). */
    int (*run_lab)(FILE *out, const struct ps_lab_layout *lay,
                   const struct ps_lab_setup *setup, const char *const *paths,
                   int npaths, int jobs);
    /* Does this process read and write --checkpoint files (NULL = yes)?
     * psolve-mpi: rank 0 alone, which holds the state. */
    bool (*keeps_checkpoints)(void);
};

/* The whole command line: parse argv, run the command, return the exit
 * status. fe may be NULL (plain psolve). */
int ps_cli_main(int argc, char **argv, const struct ps_frontend *fe);

#endif
