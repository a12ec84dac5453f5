/*
 * mpi_frontend.c - psolve-mpi: the shared command line (ps_cli_main) with
 * the hooks of mpi_frontend.h. Every rank parses the same arguments and
 * loads the same puzzle; rank 0 alone writes results to stdout.
 */
#include "mpi_frontend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"
#include "transport.h"

static const struct ps_algorithm *const distributed[] = {
    &ps_algo_dnrpa, &ps_algo_dnmcs, &ps_algo_hdastar, NULL,
};

bool ps_mpi_is_distributed(const struct ps_algorithm *a)
{
    for (int i = 0; distributed[i]; i++)
        if (distributed[i] == a)
            return true;
    return false;
}

int ps_mpi_not_agreed(void)
{
    if (ps_mpi_rank() == 0)
        fprintf(stderr, "psolve: another rank stopped before the distributed "
                        "run (its message above says why)\n");
    return PS_EXIT_ERROR;
}

/* What every rank must agree on before a distributed run: the game, the
 * start position's bytes (they come from the puzzle and the rules), the
 * line length and the algorithm. Ranks launched with different puzzles
 * (mpirun -np 1 psolve-mpi A : -np 1 psolve-mpi B) crashed rank 0. */
static int64_t instance_digest(const struct ps_search *s,
                               const struct ps_algorithm *a)
{
    const struct ps_game *g = s->game;
    unsigned char *start = malloc(s->state_size);
    uint64_t h = ps_hash_bytes(g->name, strlen(g->name));
    h = ps_hash_mix(h ^ ps_hash_bytes(a->name, strlen(a->name)));
    h = ps_hash_mix(h ^ (uint64_t)s->state_size);
    h = ps_hash_mix(h ^ (uint64_t)g->max_depth(s->inst));
    if (start) {
        g->initial_state(s->inst, start);
        h = ps_hash_mix(h ^ ps_hash_bytes(start, s->state_size));
        free(start);
    }
    return (int64_t)(h >> 1); /* non-negative: its negation is too */
}

/* Do all ranks hold the same instance? Collective (every rank that agreed
 * to the run calls it). */
static bool same_instance(const struct ps_search *s,
                          const struct ps_algorithm *a)
{
    int64_t d = instance_digest(s, a);
    int64_t v[2] = {d, -d};
    ps_mpi_max(v, 2); /* v[0] the largest digest, -v[1] the smallest */
    return v[0] == -v[1];
}

/* A distributed algorithm runs on every rank; any other on rank 0 alone,
 * while the others wait for the next distributed run (or the end). */
static enum ps_status mpi_run_search(struct ps_search *s,
                                     const struct ps_algorithm *a)
{
    if (!ps_mpi_is_distributed(a)) {
        if (ps_mpi_rank() == 0)
            return ps_search_run(s, a);
        s->algo_name = a->name;
        return PS_HEURISTIC;
    }
    if (!ps_mpi_agree()) {
        ps_mpi_not_agreed();
        s->algo_name = a->name;
        /* an error (exit 1), as the other rank's was: it was not a limit */
        snprintf(s->note, sizeof s->note,
                 "error: another rank did not start");
        ps_error_set(&s->error, NULL, 0, 0, "another rank did not start");
        s->stop = PS_STOP_ERROR;
        return PS_INCOMPLETE;
    }
    if (!same_instance(s, a)) {
        if (ps_mpi_rank() == 0)
            fprintf(stderr, "psolve: the ranks read different puzzles, rules "
                            "or games: every rank of psolve-mpi must run the "
                            "same command line\n");
        s->algo_name = a->name;
        snprintf(s->note, sizeof s->note,
                 "error: the ranks hold different instances");
        ps_error_set(&s->error, NULL, 0, 0,
                     "the ranks hold different instances");
        s->stop = PS_STOP_ERROR;
        return PS_INCOMPLETE;
    }
    enum ps_status st = ps_search_run(s, a);
    /* Every fault a rank met went to rank 0 (a task's result; hdastar's
     * error at its end), and rank 0 reports it: said once, not per rank. */
    if (ps_mpi_rank() != 0)
        ps_error_clear(&s->error);
    return st;
}

/* The checkpointed state is rank 0's (dnrpa's top level; a plain
 * algorithm runs there alone): the other ranks neither read nor write. */
static bool mpi_keeps_checkpoints(void)
{
    return ps_mpi_rank() == 0;
}

const struct ps_frontend ps_mpi_frontend = {
    .algorithms = distributed,
    .run_search = mpi_run_search,
    .run_lab = ps_mpi_run_lab,
    .keeps_checkpoints = mpi_keeps_checkpoints,
};

int main(int argc, char **argv)
{
    if (!ps_mpi_init(&argc, &argv)) {
        fprintf(stderr, "psolve-mpi: MPI could not start with thread support "
                        "(MPI_THREAD_FUNNELED)\n");
        return PS_EXIT_ERROR;
    }
    /* Results once, from rank 0: the others' stdout goes nowhere. Their
     * stderr stays: an error of one rank (a file it cannot read) is seen. */
    if (ps_mpi_rank() != 0 && !freopen("/dev/null", "w", stdout)) {
        fprintf(stderr, "psolve-mpi: cannot silence rank %d\n", ps_mpi_rank());
        return PS_EXIT_ERROR;
    }
    int status = ps_cli_main(argc, argv, &ps_mpi_frontend);
    fflush(stdout);
    ps_mpi_leave();
    ps_mpi_finalize();
    /* mpirun reports the first non-zero status: rank 0's is the answer. */
    return ps_mpi_rank() == 0 ? status : PS_EXIT_OK;
}
