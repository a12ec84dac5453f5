/*
 * playout.h - random playouts through the vtable, and the machinery the
 * Monte Carlo algorithms share: playout policies, per-thread workers with
 * their own PRNG streams, and the root-parallel run that merges them.
 *
 * A playout is the unit of work of mc, nmcs and nrpa, and of `psolve bench`.
 */
#ifndef PS_PLAYOUT_H
#define PS_PLAYOUT_H

#include "game.h"
#include "search.h"

/* Scratch space for playouts on one instance; one per thread. */
struct ps_playout {
    const struct ps_game *game;
    const void *inst;
    size_t state_size;
    bool maximise;
    ps_move *moves;      /* max_moves */
    ps_value *gains;     /* max_moves */
    ps_move *line;       /* max_depth: the moves of the last playout */
    unsigned char *a, *b;/* two states */
    int length;          /* moves played by the last playout */
    /* The policy of ps_playout_run: a game's policy, or NULL with topk == 0
     * for uniform, or NULL with topk > 0 for "uniform among the k moves with
     * the largest immediate gain". Set by ps_playout_set_policy. */
    const struct ps_policy *policy;
    int topk;
};

bool ps_playout_init(struct ps_playout *p, const struct ps_game *g,
                     const void *inst);
void ps_playout_free(struct ps_playout *p);

/* Play uniformly random legal moves from `start` until none is left (score
 * games) or the goal or `max_len` moves (cost games; 0 = max_depth). Returns
 * the value of the line: gains + end value, or summed costs. */
ps_value ps_playout_uniform(struct ps_playout *p, const void *start,
                            struct ps_rng *rng, int max_len);

/* The same with the policy chosen by ps_playout_set_policy; the moves played
 * are left in p->line[0..p->length). */
ps_value ps_playout_run(struct ps_playout *p, const void *start,
                        struct ps_rng *rng, int max_len);

/* Select the playout policy by name ("uniform", "topk", or one of the game's
 * policies; NULL = "topk" when topk > 0, else the game's first policy, else
 * uniform). False with err (listing the names) for an unknown name. */
bool ps_playout_set_policy(struct ps_playout *p, const char *name, int topk,
                           struct ps_error *err);
/* The name of the selected policy, for notes. */
const char *ps_playout_policy_name(const struct ps_playout *p);
/* Check a --policy name for game g before a run (the command line does). */
bool ps_policy_check(const struct ps_game *g, const char *name,
                     struct ps_error *err);

/* ---- root-parallel Monte Carlo runs ----
 * ps_mc_run starts opt.threads workers (0 = the number of cores). Each one
 * gets a private copy of the search (own statistics, own best, own clock
 * tick; its node budget is max_nodes / threads, so a seeded run with a node
 * limit repeats exactly for the same thread count), its own PRNG stream
 * (ps_rng_seed_stream(seed, index)) and its own playout scratch. The calling
 * thread prints progress and watches the clock and Ctrl-C. At the end the
 * statistics are summed and the best solutions merged in worker order, so
 * that ties go to the lowest worker, whatever thread finished first. */
struct ps_mc_shared;

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

typedef void (*ps_worker_fn)(struct ps_worker *w, void *arg);

/* Runs fn(worker, arg) in every worker; `what` describes the run for the
 * note ("nmcs level 2"), followed by the playout policy when the algorithm
 * plays by it (`by_policy`). Returns PS_HEURISTIC (the driver turns it into
 * PS_INCOMPLETE when a limit stopped the run). */
enum ps_status ps_mc_run(struct ps_search *s, ps_worker_fn fn, void *arg,
                         const char *what, bool by_policy);

/* The stop check of a worker: cheap, call it between playouts. */
bool ps_worker_stopped(struct ps_worker *w);
/* Hand a complete line from the initial state to the worker's best. */
bool ps_worker_offer(struct ps_worker *w, const ps_move *moves, int len,
                     ps_value value);
/* A playout by the worker's policy from `state`, counted in its statistics
 * (one playout; its moves as expanded nodes). Returns the playout's value
 * (not including the gains that led to `state`). */
ps_value ps_worker_playout(struct ps_worker *w, const void *state);
/* Offer prefix[0..n) followed by the last playout's moves, worth `value`,
 * if that beats the worker's best (cheap when it does not). */
bool ps_worker_offer_playout(struct ps_worker *w, const ps_move *prefix, int n,
                             ps_value value);
/* After a complete top-level search: start another one? Only under a time
 * budget that is not used up (anytime runs); otherwise one search is the
 * whole run. */
bool ps_worker_again(struct ps_worker *w);

#endif
