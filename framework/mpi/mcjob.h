/*
 * mcjob.h - what the distributed Monte Carlo searches (dnrpa, dnmcs) share:
 * the context of a compute thread, a job's result on the wire, and the
 * merging of results into the run on rank 0.
 *
 * A job is seeded by its place in the run (ps_worker_init_solo with the
 * job's stream), never by the rank or thread that runs it, so the same
 * seed and budget give the same answer for any number of ranks.
 */
#ifndef PS_MPI_MCJOB_H
#define PS_MPI_MCJOB_H

#include "search.h"

/* A job's result: the best line it found (from the initial state, or after
 * the job's start, as the algorithm says), its statistics, and the fault of
 * a game slot that failed in it (a Lua script's error), which rank 0 makes
 * the run's: the error is reported once, by rank 0. */
struct ps_mcjob_result {
    ps_value value;
    int32_t found;
    int32_t len;
    int32_t fault;  /* enum ps_fault; not NONE: a struct ps_error follows */
    int32_t pad;
    struct ps_stats stats;
    /* followed by len ps_move, then the error when fault is set */
};

/* Encode a result of the job's search (its statistics, and the game's
 * fault if a slot failed), malloc'd into *out. False when out of memory. */
bool ps_mcjob_encode(bool found, ps_value value, const ps_move *line, int len,
                     const struct ps_search *job, void **out, size_t *out_len);
/* Check and read a result (*err gets its fault's error): false when the
 * bytes are not one. */
bool ps_mcjob_decode(const void *buf, size_t len, struct ps_mcjob_result *r,
                     const ps_move **line, struct ps_error *err);
/* Add a job's statistics to the run's. */
void ps_mcjob_add_stats(struct ps_stats *to, const struct ps_stats *from);

/* Rank 0: the results of one map of tasks, by task number. A root struct
 * that passes itself to ps_pool_map as `arg` puts its batch FIRST, so that
 * ps_mcjob_output and ps_mcjob_stop (the pool's output and stop) can take
 * the same pointer. */
struct ps_mcjob_batch {
    struct ps_search *s;
    int cap;
    struct ps_mcjob_result *res;
    ps_move **lines;      /* malloc'd copies of the lines */
    bool *got;
    bool bad;             /* a result that did not decode, or no memory */
    uint64_t reserved;    /* the arrays' bytes, reserved (ps_memory_reserve) */
    uint64_t line_bytes;  /* the lines' bytes, reserved until cleared */
};

bool ps_mcjob_batch_init(struct ps_mcjob_batch *b, struct ps_search *s,
                         int cap);
void ps_mcjob_batch_free(struct ps_mcjob_batch *b);
/* Forget the results of the last map (before the next). */
void ps_mcjob_batch_clear(struct ps_mcjob_batch *b);
/* ps_pool_map's output: keep task `job`'s result in the batch at arg. */
void ps_mcjob_output(void *arg, int job, const void *out, size_t len);
/* ps_pool_map's stop: the search's limits (ps_search_poll). */
bool ps_mcjob_stop(void *arg);

/* The compute threads' context: this rank's search (read-only). */
struct ps_mcjob_ctx {
    struct ps_search *s;
};

/* Give the pool `threads` contexts for s (the array is filled, one per
 * thread, all pointing at *ctx). */
void ps_mcjob_contexts(struct ps_mcjob_ctx *ctx, struct ps_search *s,
                       void **ctxs, int threads);

/* The compute threads of a rank for a distributed Monte Carlo run:
 * --threads, with 1 (not the number of cores) as the default, as ranks are
 * what spreads the work. */
int ps_mcjob_threads(const struct ps_search *s);

#endif
