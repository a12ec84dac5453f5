/*
 * worker.h - the threads of the Monte Carlo algorithms (mc, nmcs, nrpa):
 * per-thread workers with their own search copy, PRNG stream and playout
 * scratch, run root-parallel and merged at the end.
 */
#ifndef PS_WORKER_H
#define PS_WORKER_H

#include "playout.h"

/*
 * ps_mc_run starts opt.threads workers (0 = the number of cores). Each one
 * gets a private copy of the search (own statistics, own best, own clock
 * tick; its node budget is max_nodes / threads, so a seeded run with a node
 * limit repeats exactly for the same thread count), its own PRNG stream
 * (ps_rng_seed_stream(seed, index)) and its own playout scratch. The calling
 * thread prints progress and watches the clock and Ctrl-C (a worker whose
 * thread cannot start runs on it after the others: threads.h). At the end the
 * statistics are summed and the best solutions merged in worker order, so
 * that ties go to the lowest worker, whatever thread finished first. */
struct ps_mc_shared;

/* The most threads a run starts, whatever --threads says. */
#define PS_MAX_THREADS 64

/* The threads a run uses: opt.threads, 0 meaning the number of cores,
 * capped at PS_MAX_THREADS. Beam search splits its depths among them too. */
int ps_thread_count(const struct ps_search *s);

struct ps_worker {
    struct ps_search s;  /* this worker's search; use it for ps_search_* */
    struct ps_rng rng;
    struct ps_playout po;/* policy already selected */
    int index, threads;
    struct ps_mc_shared *shared;
    unsigned tick;
    uint64_t told_playouts, told_expanded; /* already added to the totals */
    ps_move *line;       /* max_depth + 1: scratch for offers */
};

typedef void (*ps_worker_fn)(struct ps_worker *w);

/* Runs fn(worker) in every worker; `what` describes the run for the note
 * ("nmcs level 2"), followed by the playout policy. `worker_bytes` is what
 * fn reserves (ps_memory_reserve on w->s) per thread: each worker gets an
 * even share of --max-memory, and a limit that does not hold that many
 * threads runs fewer (the note says how many). Returns PS_HEURISTIC (the
 * driver turns it into PS_INCOMPLETE when a limit stopped the run). */
enum ps_status ps_mc_run(struct ps_search *s, ps_worker_fn fn,
                         const char *what, uint64_t worker_bytes);

/* The stop check of a worker: cheap, call it between playouts. */
bool ps_worker_stopped(struct ps_worker *w);
/* Hand a complete line from the initial state to the worker's best. */
bool ps_worker_offer(struct ps_worker *w, const ps_move *moves, int len,
                     ps_value value);
/* A playout by the worker's policy from `state`, reached from the start by
 * `depth` moves, counted in its statistics (one playout; its moves as
 * expanded nodes). Returns the playout's value (not including the gains
 * that led to `state`). A score game still going at max_depth stops the
 * worker's search on the game's error (ps_search_line_fits). */
ps_value ps_worker_playout(struct ps_worker *w, const void *state, int depth);
/* Offer prefix[0..n) followed by the last playout's moves, worth `value`,
 * if that beats the worker's best (cheap when it does not). */
bool ps_worker_offer_playout(struct ps_worker *w, const ps_move *prefix, int n,
                             ps_value value);
/* Trace an event of the run (levels, iterations): worker 0 speaks for all,
 * since the others do the same work on other random streams. Improvements
 * of the run's best are traced by ps_worker_offer, from any worker ("id"
 * is the worker). */
void ps_worker_trace(struct ps_worker *w, const struct ps_trace_event *ev);
/* Would ps_worker_trace write an event of this kind now? (To skip building
 * one, e.g. a move's text.) */
bool ps_worker_tracing(const struct ps_worker *w, enum ps_trace_kind kind);
/* After a complete top-level search: start another one? Only under a time
 * or node budget that is not used up (anytime runs; a node budget stands
 * for a time budget that repeats exactly); otherwise one search is the
 * whole run. */
bool ps_worker_again(struct ps_worker *w);

/* A worker of its own, outside ps_mc_run, for a job of a distributed run:
 * a copy of s (statistics and best cleared), PRNG stream `stream` of the
 * seed, the playout policy of s->opt. Free it with ps_worker_free_solo.
 * False with err when out of memory or the policy is unknown. */
bool ps_worker_init_solo(struct ps_worker *w, struct ps_search *s,
                         uint64_t stream, struct ps_error *err);
void ps_worker_free_solo(struct ps_worker *w);

#endif
