/*
 * search.h - the driver side of every search: one context per run holding the
 * problem, the options, the limits, the statistics and the best solution.
 *
 * An algorithm (struct ps_algorithm) only has to
 *   - call ps_search_stopped() often (it is cheap: it reads the clock about
 *     once a millisecond of work, at most every 1024 calls) and return when
 *     it says so;
 *   - count its work in s->stats;
 *   - hand every complete solution it finds to ps_search_offer();
 *   - reserve table memory with ps_memory_reserve() before allocating;
 *   - return a ps_status.
 * Limits, Ctrl-C, progress lines, tracing and the final report come from the
 * driver for every algorithm alike.
 */
#ifndef PS_SEARCH_H
#define PS_SEARCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

enum ps_status {
    PS_OPTIMAL,    /* proven best (score) or fewest/cheapest (cost) */
    PS_HEURISTIC,  /* finished, no optimality claim (greedy, MC, candidates) */
    PS_UNSOLVABLE, /* proven: no sequence reaches a goal */
    PS_INCOMPLETE, /* stopped by a limit or Ctrl-C; best so far is kept */
};

enum ps_stop_reason {
    PS_STOP_NONE,
    PS_STOP_TIME,
    PS_STOP_NODES,
    PS_STOP_MEMORY,
    PS_STOP_INTERRUPT,
    /* A line reached the start's upper bound: nothing can beat it, so an
     * anytime search ends there (the driver reports it as optimal). */
    PS_STOP_PROVEN,
};

/* Exit statuses of psolve (documented in docs/cli.md). */
enum {
    PS_EXIT_OK = 0,          /* solved (optimal or heuristic), verified */
    PS_EXIT_ERROR = 1,       /* bad input, illegal move, internal error */
    PS_EXIT_USAGE = 2,       /* bad command line */
    PS_EXIT_UNSOLVABLE = 3,  /* proven unsolvable */
    PS_EXIT_INCOMPLETE = 4,  /* a limit or Ctrl-C stopped the search */
};

struct ps_limits {
    double seconds;         /* 0 = none */
    uint64_t max_nodes;     /* expanded nodes (or playout moves); 0 = none */
    uint64_t max_memory;    /* bytes of reserved table memory; 0 = none */
};

/* Options of every algorithm in one place; each algorithm reads its own. */
struct ps_options {
    uint64_t seed;
    int candidates;   /* dfs: only the K best-ordered moves (0 = all) */
    int max_depth;    /* dfs: depth cap (0 = none) */
    bool no_memo;     /* dfs: no transposition table */
    bool no_bound;    /* dfs: no upper-bound pruning */
    double weight;    /* wastar */
    int rollouts;     /* mc */
    int topk;         /* mc playout policy */
    bool select_max;  /* mc: best max instead of best mean */
    int level;        /* nmcs, nrpa (0 = the algorithm's default) */
    int iterations;   /* nrpa (0 = its default) */
    int stabilise;    /* nrpa: playouts per level-1 iteration (0 = its default) */
    const char *policy; /* playout policy name, NULL = game default */
    int threads;      /* 0 = number of cores */
    int beam_width;   /* beam */
    bool beam_playout; /* beam: judge positions by a playout */
    int trace;        /* print the first N expansions */
};

struct ps_stats {
    uint64_t expanded;      /* states whose moves were generated */
    uint64_t generated;     /* successor states made */
    uint64_t duplicates;    /* successors already known (closed set / TT) */
    uint64_t pruned;        /* cut by a bound or a pruning rule */
    uint64_t playouts;      /* Monte Carlo playouts */
    uint64_t table_probes;
    uint64_t table_hits;
    uint64_t table_entries; /* now */
    uint64_t peak_table;    /* entries */
    uint64_t peak_frontier;
    uint64_t memory;        /* bytes reserved now */
    uint64_t peak_memory;   /* bytes */
    int iterations;         /* IDA* / iterative deepening rounds */
    double seconds;         /* wall time of the run */
};

struct ps_solution {
    ps_move *moves;
    int len;
    int cap;
    ps_value value; /* score (score games) or cost (cost games) */
    bool found;
};

struct ps_search {
    const struct ps_game *game;
    const void *inst;
    unsigned flags;       /* ps_game_flags(game, inst) */
    size_t state_size;
    struct ps_limits limits;
    struct ps_options opt;
    struct ps_stats stats;
    struct ps_solution best;
    enum ps_stop_reason stop;
    char note[128];       /* e.g. "heuristic: --candidates 8" */
    bool progress;        /* progress lines on stderr */
    FILE *trace_out;      /* where --trace goes (stdout by default) */
    int traced;
    double start;         /* monotonic seconds */
    double last_progress;
    unsigned tick;
    /* ps_search_stopped reads the clock every clock_every calls, adapted to
     * the time the calls take (see there); last_clock is the last reading. */
    unsigned clock_every;
    double last_clock;
    const char *algo_name;
    /* Score games: the most any line from the start can be worth (the
     * game's upper bound of the start, or the start's own value when it has
     * no move), when known. A line offered at this value is proven best. */
    bool bounded;
    ps_value root_bound;
};

struct ps_algorithm {
    const char *name;
    const char *summary;
    bool for_score;       /* runs on score games */
    bool for_cost;        /* runs on cost games */
    enum ps_status (*run)(struct ps_search *s);
};

/* The registry (framework/algorithms/algorithms.def lists every algorithm once). */
const struct ps_algorithm *ps_algorithm_find(const char *name);
const struct ps_algorithm *const *ps_algorithm_list(void);

/* Set by the SIGINT handler; the only global mutable state, because a signal
 * handler can reach nothing else. */
extern volatile sig_atomic_t ps_interrupted;
void ps_install_interrupt_handler(void);

double ps_now(void); /* monotonic seconds */

void ps_options_default(struct ps_options *o);
void ps_search_init(struct ps_search *s, const struct ps_game *game,
                    const void *inst, const struct ps_limits *limits,
                    const struct ps_options *opt);
void ps_search_free(struct ps_search *s);

/* Runs `algo` on the search: resets stats and best, times the run. */
enum ps_status ps_search_run(struct ps_search *s, const struct ps_algorithm *a);

/* True once a limit is hit or Ctrl-C was pressed (then s->stop says which).
 * Also prints a progress line about once a second when s->progress. */
bool ps_search_stopped(struct ps_search *s);
/* The same checks, but reading the clock on every call: for callers that
 * pace themselves (a thread checking every few playouts, a thread that only
 * watches the others). */
bool ps_search_poll(struct ps_search *s);

/* Is `value` better than the best solution so far (or is there none)? */
bool ps_search_improves(const struct ps_search *s, ps_value value);
/* Keep moves[0..len) as the best solution if it is better. True if kept.
 * A kept line worth the start's upper bound stops the search
 * (PS_STOP_PROVEN): nothing can beat it. */
bool ps_search_offer(struct ps_search *s, const ps_move *moves, int len,
                     ps_value value);

/* Table memory accounting against --max-memory. False when the reservation
 * would pass the limit: the caller must not allocate, and decides whether
 * that ends the search (set s->stop = PS_STOP_MEMORY) or not (dfs searches
 * on without storing). */
bool ps_memory_reserve(struct ps_search *s, uint64_t bytes);
void ps_memory_release(struct ps_search *s, uint64_t bytes);

/* For --trace: prints one expansion line while s->traced < s->opt.trace. */
bool ps_search_tracing(const struct ps_search *s);
void ps_search_trace(struct ps_search *s, const void *state, int depth,
                     ps_value g, ps_value h, const char *what);

/* Convenience: the value of a finished line of play from a state, for score
 * games (gain so far + end_value). */
ps_value ps_final_value(const struct ps_search *s, const void *state,
                        ps_value so_far);

const char *ps_status_name(enum ps_status st);
const char *ps_stop_name(enum ps_stop_reason r);

#endif
