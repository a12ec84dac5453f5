/*
 * pool.h - a job pool over MPI ranks: rank 0 hands out numbered jobs
 * (bytes in, bytes out) dynamically, to every rank including itself, and
 * gets each result back. The farm, dnrpa and dnmcs are built on it.
 *
 * Each rank runs `threads` compute threads; its main thread does all the
 * MPI calls (funneled). A rank keeps up to `threads` jobs, so a worker
 * never waits for the master between two jobs for long. What a job
 * computes is the same function on every rank (the same program), called
 * with the rank's own per-thread context; so which rank ran a job cannot
 * change its result, only when it arrives.
 */
#ifndef PS_MPI_POOL_H
#define PS_MPI_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* Compute one job: `in` (len bytes) -> *out (malloc'd, *out_len bytes).
 * `ctx` is the calling thread's context. False = out of memory. */
typedef bool (*ps_job_fn)(void *ctx, const void *in, size_t len, void **out,
                          size_t *out_len);

struct ps_pool {
    ps_job_fn compute;
    void **ctx;   /* one per compute thread */
    int threads;  /* compute threads of this rank, >= 1 */
};

/* Rank 0: run jobs order[0], order[1], ... (numbers in [0, njobs)), in
 * that order of hand-out. input(arg, job, &in, &len) makes a job's bytes
 * (malloc'd; the pool frees them); output(arg, job, out, len) takes a
 * result, on the main thread, as results arrive (in any order). Returns
 * when all are done; false if a job could not be computed (out of memory).
 * `stop`, when not NULL, is polled: once it returns true, no further job is
 * handed out, and the jobs not handed out get no output. */
bool ps_pool_map(struct ps_pool *p, int njobs, const int *order,
                 bool (*input)(void *arg, int job, void **in, size_t *len),
                 void (*output)(void *arg, int job, const void *out,
                                size_t len),
                 bool (*stop)(void *arg), void *arg);
/* Rank 0: tell the workers there will be no more maps. */
void ps_pool_end(void);
/* Ranks > 0: compute the jobs rank 0 sends until ps_pool_end. False if a
 * job could not be computed. */
bool ps_pool_serve(struct ps_pool *p);

#endif
