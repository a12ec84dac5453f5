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
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "checkpoint.h"
#include "clock.h"
#include "game.h"
#include "options.h"
#include "pdb.h"
#include "trace.h"

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
    /* A game's slot failed (a script's error; s->error says where). */
    PS_STOP_ERROR,
};

/* Exit statuses of psolve (documented in docs/cli.md). As Fast Downward's:
 * 0 whenever a verified solution was printed, whatever ended the search
 * (the status line says optimal, heuristic or incomplete, and why), so
 * `psolve ... > sol.txt && psolve verify ... sol.txt` works under limits. */
enum {
    PS_EXIT_OK = 0,          /* a verified solution printed, or verified */
    PS_EXIT_ERROR = 1,       /* bad input, illegal move, internal error */
    PS_EXIT_USAGE = 2,       /* bad command line */
    PS_EXIT_UNSOLVABLE = 3,  /* proven unsolvable */
    PS_EXIT_INCOMPLETE = 4,  /* a limit stopped the search: no solution */
    PS_EXIT_INTERRUPTED = 5, /* a signal stopped it (a solve: no solution; a
                              * lab or farm: rows are missing) */
};

struct ps_limits {
    double seconds;         /* 0 = none */
    uint64_t max_nodes;     /* expanded nodes (or playout moves); 0 = none */
    uint64_t max_memory;    /* bytes of reserved table memory; 0 = none */
};

/* The largest options struct an algorithm may declare (tests/test_options.c
 * checks every registered one fits). */
#define PS_ALGO_OPTIONS_SIZE 128

/* One algorithm's own options, by value: the options struct it declares in
 * its own file (e.g. struct nrpa_options in nrpa.c), kept in `u.bytes` so
 * that a run's settings copy with struct ps_options. ps_search_run gives an
 * algorithm its defaults when `algo` is not that algorithm. */
struct ps_algo_options {
    const struct ps_algorithm *algo; /* whose bytes these are; NULL = none */
    union {
        max_align_t align;
        unsigned char bytes[PS_ALGO_OPTIONS_SIZE];
    } u;
};

/* The options of a run that are not one algorithm's: the driver's (seed,
 * threads), the playout's shared by every algorithm that plays out (policy,
 * topk), the heuristic and the teaching outputs; and the chosen algorithm's
 * own options in `own`. Limits are in struct ps_limits. */
struct ps_options {
    uint64_t seed;
    int threads;      /* 0 = number of cores */
    const char *policy; /* playout policy name, NULL = game default */
    int topk;         /* playout policy: among the K largest gains */
    int trace;        /* print the first N expansions */
    /* --heuristic NAME: an entry of the game's heuristics table (cost
     * games: h; score games: the upper bound); NULL = the game's default. */
    const char *heuristic;
    bool layers;      /* --layers: count per depth / f-layer / iteration */
    enum ps_trace_format trace_format; /* --trace-format */
    /* The running algorithm's own options; and where a run of another
     * algorithm takes its own from (NULL = its defaults): see
     * ps_algo_options_use. */
    struct ps_algo_options own;
    const struct ps_algo_book *book;
};

/* What every counter means, for every algorithm: docs/counters.md has
 * the same table with examples. A counter an algorithm does not keep stays 0.
 *
 *   expanded    states whose moves were generated (every algorithm; mc,
 *               nmcs, nrpa, beam: each playout move counts one)
 *   generated   successor states made by apply()
 *   duplicates  successors (A*, bfs, greedy, wastar) or nodes (dfs, IDA*)
 *               dropped because the same state was already known at no
 *               larger g: in the closed/open table, the transposition table,
 *               or on the current path (`cycles` counts that last part);
 *               beam: candidates equal to one already in the next beam
 *   cycles      duplicates found on the current path (IDA*, dfs on cost
 *               games): a successor equal to one of its ancestors
 *   reexpanded  expansions of a state expanded before in this run: A* and
 *               bfs a closed state reopened with a smaller g; IDA* and dfs on
 *               cost games the expansions of every iteration before the last
 *               (the iterative-deepening overhead; transpositions inside an
 *               iteration are not detected without a table)
 *   pruned      = pruned_bound + pruned_commuting + pruned_candidates +
 *                 pruned_depth
 *   pruned_bound       nodes cut by the bound: f = g + h over the iteration's
 *                      bound (IDA*, dfs on cost games), score so far + upper
 *                      bound no better than the best (dfs on score games)
 *   pruned_commuting   moves skipped as the second order of two commuting
 *                      moves (the game's redundant_after; IDA*)
 *   pruned_candidates  moves left out by --candidates K (dfs), candidates
 *                      left out of the beam by its width (beam)
 *   pruned_depth       nodes cut by --max-depth (dfs)
 *   peak_frontier  most entries on the open list (best-first), the widest
 *                  beam (beam); 0 for depth-first searches
 *   peak_memory    most bytes of tables and lists reserved at once
 *   iterations     IDA* / dfs (cost) bounds tried; dfs (score): rounds of
 *                  the exact search (one per incumbent beam)
 *   h_start        h (cost) or the upper bound (score) of the start, when
 *                  the algorithm uses one (has_h_start)
 */
/* Every counter of a run, declared once: X(name, type, where, doc). The
 * struct, the text, JSON and CSV reports (report.c), checkpoints
 * (checkpoint.c) and tests/test_counters.c's check of docs/counters.md
 * read this list, in this order. `where`: PS_STAT_SHOWN (reported and
 * documented), PS_STAT_RESUMED (a resumed run goes on from it),
 * PS_STAT_RESUMED_LAST (the same, written after the others: the order of
 * the files), PS_STAT_ITERATED (the text shows it only when
 * iterations > 0). */
enum {
    PS_STAT_SHOWN = 1,
    PS_STAT_RESUMED = 2,
    PS_STAT_ITERATED = 4,
    PS_STAT_RESUMED_LAST = 8,
};
#define PS_STAT_SR (PS_STAT_SHOWN | PS_STAT_RESUMED)
#define PS_STATS(X)                                                            \
    X(expanded, uint64_t, PS_STAT_SR, "states whose moves were generated")    \
    X(generated, uint64_t, PS_STAT_SR, "successor states made")               \
    X(duplicates, uint64_t, PS_STAT_SR,                                        \
      "successors already known (closed set / TT / path)")                     \
    X(pruned, uint64_t, PS_STAT_SR, "the sum of the pruned_* below")          \
    X(playouts, uint64_t, PS_STAT_SR, "Monte Carlo playouts")                 \
    X(table_probes, uint64_t, PS_STAT_SR, "lookups in the state table")       \
    X(table_hits, uint64_t, PS_STAT_SR, "lookups that found the state")       \
    X(peak_table, uint64_t, PS_STAT_SHOWN, "most table entries")              \
    X(peak_frontier, uint64_t, PS_STAT_SR, "most open-list entries")          \
    X(peak_memory, uint64_t, PS_STAT_SHOWN, "most bytes reserved")            \
    X(iterations, int, PS_STAT_SHOWN | PS_STAT_RESUMED_LAST,                 \
      "IDA* / iterative deepening rounds")       \
    X(seconds, double, PS_STAT_SHOWN, "wall time of the run")                 \
    X(cycles, uint64_t, PS_STAT_SR, "duplicates on the current path")         \
    X(reexpanded, uint64_t, PS_STAT_SR, "states expanded again")              \
    X(pruned_bound, uint64_t, PS_STAT_SR, "cut by the bound")                 \
    X(pruned_commuting, uint64_t, PS_STAT_SR, "commuting moves skipped")      \
    X(pruned_candidates, uint64_t, PS_STAT_SR, "left out by --candidates")    \
    X(pruned_depth, uint64_t, PS_STAT_SR, "cut by --max-depth")               \
    X(last_iteration_expanded, uint64_t, PS_STAT_SHOWN | PS_STAT_ITERATED,    \
      "IDA*, dfs (cost): the last iteration's expanded")                       \
    X(table_entries, uint64_t, 0, "table entries now")                        \
    X(memory, uint64_t, 0, "bytes reserved now")

struct ps_stats {
#define PS_STAT_FIELD(name, type, where, doc) type name;
    PS_STATS(PS_STAT_FIELD)
#undef PS_STAT_FIELD
    ps_value h_start; /* h of the start, when has_h_start (not a counter) */
    bool has_h_start;
    /* Iterative deepening (IDA*, dfs on cost games) with an admissible h
     * or none: every solution costs at least this, the bound of its last
     * round (all rounds before found none); with has_lower_bound. */
    ps_value lower_bound;
    bool has_lower_bound;
};

/* --layers: work per depth (bfs: g), per f-layer (A*: g + h; wastar:
 * g + w h; greedy: h) or per iteration (IDA*, dfs on cost games: the bound). */
struct ps_layer {
    int64_t key;
    uint64_t expanded, generated;
};

struct ps_layers {
    const char *kind; /* "g", "f", "bound" */
    struct ps_layer *v;
    int n, cap;
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
    int max_depth;        /* game->max_depth(inst), read once */
    struct ps_limits limits;
    struct ps_options opt;
    struct ps_stats stats;
    struct ps_solution best;
    /* Lines offered after a slot of the game was stopped (by the deadline
     * or Ctrl-C: game.h, fault), when the game's answers may have been
     * stand-ins: the best of them is replayed once the search is over and
     * becomes `best` only if the replay confirms its value. */
    struct ps_solution late;
    enum ps_stop_reason stop;
    char note[128];       /* e.g. "heuristic: --candidates 8" */
    bool progress;        /* progress lines on stderr (a terminal) */
    /* stderr is not a terminal (a run in the background, its stderr in a
     * file): a whole progress line every PS_PROGRESS_LOG seconds instead,
     * so that an hour-long run says how it goes without filling the file */
    bool progress_log;
#define PS_PROGRESS_LOG 60.0
    /* Called with each progress line (about once a second, only while
     * `progress`), NULL = none: the CLI writes --best-file's line and
     * flushes --trace-json's file, for a reader following them. */
    void (*on_progress)(const struct ps_search *s, void *ctx);
    void *on_progress_ctx;
    /* The running algorithm's place, written to buf (len bytes; "" =
     * nothing to say) for the end of each progress line, NULL = none:
     * dfs's rounds on cost games give which child of how many the first
     * levels of the path are at, so an hour-long proof shows how far its
     * round has come. */
    void (*progress_where)(void *arg, char *buf, size_t len);
    void *progress_where_arg;
    /* --trace: where events go (out: stdout by default), the format, the
     * budget (limit = opt.trace at the start of a run). */
    struct ps_tracer trace;
    /* --html: every kept improvement with its time, when not NULL. */
    struct ps_anytime *anytime;
    double start;         /* monotonic seconds */
    double last_progress;
    unsigned tick;
    /* ps_search_stopped reads the clock every clock_every calls, adapted to
     * the time the calls take (see there); last_clock is the last reading. */
    unsigned clock_every;
    double last_clock;
    const char *algo_name;
    /* A game's slot failed or was stopped (game.h, fault): file:line and
     * message; msg is "" otherwise. */
    struct ps_error error;
    /* Score games: the most any line from the start can be worth (the
     * game's upper bound of the start, or the start's own value when it has
     * no move), when known. A line offered at this value is proven best. */
    bool bounded;
    ps_value root_bound;
    /* A run rooted elsewhere: the state to start from instead of the
     * game's initial state; NULL = the initial state. A property of one
     * run, so the driver's and not the game's: the lines such a run offers
     * start from root_state, so only an algorithm running a copy of its own
     * search sets it (beam's end-game pass), and maps the lines back.
     * Honoured by dfs only; no other algorithm may be given a run with it
     * set. */
    const unsigned char *root_state;
    /* Set in a search nested in another (ps_search_nest): dfs then takes
     * no beam incumbent of its own. */
    bool nested;
    /* The heuristic (cost games) or bound (score games) of this run: the
     * --heuristic entry or the game's slot; NULL = none (h = 0, no bound). */
    ps_value (*heuristic)(const void *inst, const void *state);
    bool heuristic_admissible; /* exact algorithms stay exact with it */
    const char *heuristic_name;
    bool heuristic_unknown;    /* opt.heuristic names no entry: the run fails */
    /* --heuristic pdb:NAME (pdb.h): the set, and its tables once
     * ps_search_run got them (before its clock starts); pdb_stats says
     * whether they were built, read or shared. */
    const struct ps_pattern_set *pdb_set;
    struct ps_pdb *pdb;
    struct ps_pdb_stats pdb_stats;
    bool used_heuristic;       /* the algorithm consulted it (set by it) */
    struct ps_layers layers;   /* filled when opt.layers */
    /* --checkpoint / --resume (checkpoint.h), NULL = neither: shared by
     * the copies of the search an algorithm makes (its workers). */
    struct ps_checkpoint *checkpoint;
    bool memory_noted; /* the PS_MEMORY_NOTE_BYTES note was printed */
};

struct ps_algorithm {
    const char *name;
    const char *summary;
    bool for_score;       /* runs on score games */
    bool for_cost;        /* runs on cost games */
    /* Reads the heuristic (cost games) / the bound (score games), so that
     * --heuristic a,b makes one run per entry. */
    bool uses_heuristic, uses_bound;
    enum ps_status (*run)(struct ps_search *s);
    /* The options it reads (options.h; NULL = none): its own table, over
     * its own options struct (options_size bytes, at most
     * PS_ALGO_OPTIONS_SIZE, defaults in *options_default; the run reads them
     * with ps_search_algo_options), and a table over struct ps_options that
     * it shares with others (the playout's policy and topk). The CLI's
     * --NAME, --algo NAME:KEY=V, rule scripts' prune keys, --help and psolve
     * help/list read them. */
    const struct ps_option *options;
    size_t options_size;
    const void *options_default;
    const struct ps_option *shared_options;
    /* Whether and how it saves its state for --checkpoint (checkpoint.h). */
    enum ps_checkpoint_kind checkpoint;
};

/* The option `name` (or alias) of algorithm a, or NULL. */
/* Every option of a, its own table then the shared one: NULL gives the
 * first, then each call the next, NULL at the end:
 *   for (const struct ps_option *o = NULL; (o = ps_algorithm_next_option(a, o));) */
const struct ps_option *ps_algorithm_next_option(const struct ps_algorithm *a,
                                                 const struct ps_option *prev);
const struct ps_option *ps_algorithm_option(const struct ps_algorithm *a,
                                            const char *name);
/* Is o an entry of a's own table (over a's options struct), not of its
 * shared one (over struct ps_options)? */
bool ps_algorithm_option_is_own(const struct ps_algorithm *a,
                                const struct ps_option *o);
/* The struct option o of algorithm a is over: opt->own's bytes for a's own
 * table (opt->own must be a's), opt itself for its shared table. */
void *ps_algorithm_option_base(const struct ps_algorithm *a,
                               const struct ps_option *o,
                               struct ps_options *opt);
/* Make opt->own algorithm a's, unless it is a's already: a's entry of
 * opt->book, else a's defaults. */
void ps_algo_options_use(struct ps_options *opt, const struct ps_algorithm *a);
/* own becomes a's, at a's defaults. */
void ps_algo_options_default(struct ps_algo_options *own,
                             const struct ps_algorithm *a);
/* Set a's option `name` (own or shared) in opt from the text `value` (NULL
 * for a bare flag), making opt->own a's first. False with msg saying what
 * is wrong (no such option, or ps_option_set's message). */
bool ps_algo_option_set(struct ps_options *opt, const struct ps_algorithm *a,
                        const char *name, const char *value, char *msg,
                        size_t len);

/* Every algorithm's own options before one is chosen: the command line's
 * --NAME and a rule script's prune keys set an option in each algorithm
 * that declares it, and each run then starts from its algorithm's entry. */
#define PS_MAX_ALGORITHMS 32
struct ps_algo_book {
    struct ps_algo_options v[PS_MAX_ALGORITHMS];
    int n;
};
/* Every registered algorithm and then `extra`'s (NULL-terminated or NULL:
 * a front end's own), each at its defaults. */
void ps_algo_book_init(struct ps_algo_book *b,
                       const struct ps_algorithm *const *extra);
/* a's entry, or NULL when a is not in the book. */
const struct ps_algo_options *ps_algo_book_find(const struct ps_algo_book *b,
                                                const struct ps_algorithm *a);
struct ps_algo_options *ps_algo_book_entry(struct ps_algo_book *b,
                                           const struct ps_algorithm *a);
/* --NAME VALUE: set option `name` in every algorithm of the book that
 * declares it as its own, and in `common` where an algorithm shares it
 * (policy, topk); every declaration must accept the value (ranges may
 * differ: nmcs and nrpa both read level). False with msg set when none
 * declares it or a value is refused (ps_option_set's message). */
bool ps_algo_book_set(struct ps_algo_book *b, struct ps_options *common,
                      const char *name, const char *value, char *msg,
                      size_t len);

/* The registry (framework/algorithms/algorithms.def lists every algorithm once). */
const struct ps_algorithm *ps_algorithm_find(const char *name);
const struct ps_algorithm *const *ps_algorithm_list(void);
/* The built-in algorithms, NULL-terminated: declared here, defined above
 * the kernel (algorithms/registry.c, from algorithms.def), so that the
 * kernel names no algorithm; read through ps_algorithm_list. */
extern const struct ps_algorithm *const ps_builtin_algorithms[];

/* Set by the handler of SIGINT, SIGTERM and SIGHUP to the number of the
 * first signal (0: none yet); ps_signal_count counts the deliveries (a
 * second one makes waits that would give a stuck call its grace end at
 * once). Global, because a signal handler can reach nothing else. The
 * process's other mutable globals are each behind a lock or written once
 * before any thread starts: the games' registry (games.c), the pattern
 * databases' cache (pdb.c), standard input read once (textfile.c), the Lua
 * games' and plug-ins' slots (lua_game.c, plugin_guard.c). */
extern volatile sig_atomic_t ps_interrupted;
extern volatile sig_atomic_t ps_signal_count;
void ps_install_interrupt_handler(void);
const char *ps_signal_name(int sig); /* "SIGTERM", ... */

void ps_options_default(struct ps_options *o);
/* The running algorithm's own options: its options struct, e.g.
 *   const struct nrpa_options *no = ps_search_algo_options(s); */
static inline const void *ps_search_algo_options(const struct ps_search *s)
{
    return s->opt.own.u.bytes;
}
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
/* A game's slot failed (kind f, err naming where): the search stops on an
 * error (its message kept in s->error and s->note), or on the time limit
 * or Ctrl-C that stopped the slot. psolve-mpi calls it on rank 0 for a
 * fault that a task met on another rank. */
void ps_search_fault(struct ps_search *s, enum ps_fault f,
                     const struct ps_error *err);

/* A line about to take one more move after `len`: true while that fits in
 * the game's max_depth(). Score games promise to end within it, and the
 * algorithms size their lines by it, so a game that does not (a Lua game or
 * plug-in that declares too little) must not be played further: false
 * then, and the search stops on an error naming the game. */
/* The error of ps_search_line_fits: stops s, returns false. */
bool ps_search_line_too_long(struct ps_search *s);
static inline bool ps_search_line_fits(struct ps_search *s, int len)
{
    /* checked per move in playouts: the test inline, the error out of line */
    return len < s->max_depth || ps_search_line_too_long(s);
}

/* Is `value` better than the best solution so far (or is there none)? */
bool ps_search_improves(const struct ps_search *s, ps_value value);
/* Keep moves[0..len) as the best solution if it is better. True if kept.
 * A kept line worth the start's upper bound stops the search
 * (PS_STOP_PROVEN): nothing can beat it. */
bool ps_search_offer(struct ps_search *s, const ps_move *moves, int len,
                     ps_value value);

/* A search nested in s, for an algorithm that runs another one, a, on the
 * same problem (dfs's incumbent from beam): a's default options (set the
 * ones it needs in sub->opt.own), s's other options, limits and counters
 * (so its work counts against --max-nodes and --max-memory as s's does),
 * s's clock and progress lines, and a copy of s's best as the line to beat;
 * no trace, no layers, no --html record of its own. Run it with the other
 * algorithm's run(); then ps_search_unnest() folds it back. */
void ps_search_nest(struct ps_search *sub, const struct ps_search *s,
                    const struct ps_algorithm *a);
/* The seconds left of s's --time (s's clock: ps_now() - s->start);
 * HUGE_VAL when s has no --time. May be 0 or less once the time is up. */
double ps_search_seconds_left(const struct ps_search *s);
/* The nested search's counters (all of them) become s's, and a game error
 * in it stops s too; its lines are left to the caller (a run rooted
 * elsewhere, root_state, offers lines that start there). */
void ps_search_fold(struct ps_search *s, const struct ps_search *sub);
/* The nested search's counters become s's, its best line (and a late one)
 * is offered to s, a game error stops s too; sub is freed. */
void ps_search_unnest(struct ps_search *s, struct ps_search *sub);

/* Table memory accounting against --max-memory. False when the reservation
 * would pass the limit: the caller must not allocate, and decides whether
 * that ends the search (set s->stop = PS_STOP_MEMORY) or not (dfs searches
 * on, storing no more or giving old entries to new states). The first time a search's reserved memory passes
 * PS_MEMORY_NOTE_BYTES, a note on stderr says how much it holds, its cap
 * and how to lower it (--max-memory). */
#define PS_MEMORY_NOTE_BYTES ((uint64_t)2 << 30)
bool ps_memory_reserve(struct ps_search *s, uint64_t bytes);
void ps_memory_release(struct ps_search *s, uint64_t bytes);

/* For --trace (trace.h): is an expansion shown now? Inline: the hot loops
 * of the searches ask it once per expansion. */
static inline bool ps_search_tracing(const struct ps_search *s)
{
    return s->trace.limit > 0 && ps_trace_wanted(&s->trace, PS_TRACE_EXPAND);
}
/* Emit an event through the search's tracer. */
void ps_search_trace_event(struct ps_search *s, const struct ps_trace_event *ev);
/* Shorthand: an expansion at `depth` with g and h (score games: the score so
 * far and the upper bound), the move that led there (`what`, or NULL). */
void ps_search_trace(struct ps_search *s, const void *state, int depth,
                     ps_value g, ps_value h, const char *what);

/* The run's heuristic of `state` (0 without one); the algorithm marks the
 * run as using it (s->used_heuristic) itself. */
static inline ps_value ps_search_h(const struct ps_search *s, const void *state)
{
    if (s->pdb)
        return ps_pdb_value(s->pdb, s->inst, state);
    return s->heuristic ? s->heuristic(s->inst, state) : 0;
}

/* Does the run have a heuristic (or bound) at all? */
static inline bool ps_search_has_h(const struct ps_search *s)
{
    return s->heuristic || s->pdb_set;
}

/* May an exact algorithm (A*, IDA*) read the run's heuristic? Only an
 * admissible one keeps it exact (the PS_HAS_HEURISTIC promise, or a table
 * entry marked admissible); one the user chose by name with --heuristic is
 * read too, for the overestimating lab, and ps_search_run then labels the
 * answer heuristic. A game's unflagged heuristic() serves greedy and wastar
 * only. */
static inline bool ps_search_h_exact(const struct ps_search *s)
{
    return ps_search_has_h(s) &&
           (s->heuristic_admissible || s->opt.heuristic);
}

/* --layers: add work to the layer `key` (a no-op without opt.layers). */
void ps_layer_add(struct ps_search *s, const char *kind, int64_t key,
                  uint64_t expanded, uint64_t generated);

/* Iterative deepening (IDA*, dfs on cost games): an iteration with this
 * bound ended; `expanded`/`generated` are the counters before it began.
 * Keeps last_iteration_expanded, reexpanded (the earlier iterations) and
 * the iteration's layer. */
void ps_iteration_done(struct ps_search *s, ps_value bound, uint64_t expanded,
                       uint64_t generated);

/* Convenience: the value of a finished line of play from a state, for score
 * games (gain so far + end_value). */
ps_value ps_final_value(const struct ps_search *s, const void *state,
                        ps_value so_far);

const char *ps_status_name(enum ps_status st);
const char *ps_stop_name(enum ps_stop_reason r);

#endif
