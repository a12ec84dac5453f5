/*
 * mpi_frontend.h - psolve-mpi's hooks into the shared command line
 * (frontend.h): the distributed algorithms, the farm, and how a plain
 * algorithm runs (on rank 0 alone).
 */
#ifndef PS_MPI_FRONTEND_H
#define PS_MPI_FRONTEND_H

#include "frontend.h"

/* The most compute threads per rank (--threads, --jobs). */
#define PS_MPI_MAX_THREADS 64

extern const struct ps_algorithm ps_algo_dnrpa, ps_algo_dnmcs, ps_algo_hdastar;
extern const struct ps_frontend ps_mpi_frontend;

/* Is a one of the algorithms that spread one search over the ranks? */
bool ps_mpi_is_distributed(const struct ps_algorithm *a);
/* The farm (farm.c): ps_lab_run's contract, over the ranks. */
int ps_mpi_run_lab(FILE *out, const struct ps_lab_layout *lay,
                   const struct ps_lab_setup *setup, const char *const *paths,
                   int npaths, int jobs);
/* Report that a rank did not reach a distributed run (it failed before:
 * its own message says why); returns the exit status. */
int ps_mpi_not_agreed(void);

#endif
