/*
 * search.c - the driver of every search (search.h): a run's context, its
 * limits and stop checks (time, nodes, memory, Ctrl-C), the best solution
 * and its offers, progress lines, --layers rows and the trace's entry points.
 */
#include "search.h"

#include "replay.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

volatile sig_atomic_t ps_interrupted = 0;
volatile sig_atomic_t ps_signal_count = 0;

/* Only async-signal-safe calls here: a flag, a counter and write(2). */
static void say(const char *text)
{
    size_t n = strlen(text);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, text, n);
        if (w <= 0)
            return;
        text += w;
        n -= (size_t)w;
    }
}

static void on_signal(int sig)
{
    int saved = errno;
    if (!ps_interrupted)
        ps_interrupted = sig;
    if (ps_signal_count < 1000)
        ps_signal_count++;
    if (ps_signal_count == 2)
        say("psolve: second signal: stopping at once; the best line so far "
            "is still printed\n");
    errno = saved;
}

/* A CPU-time limit (ulimit -t, a batch system's) whose soft and hard
 * values are equal sends SIGKILL with no warning. Lowered by a second, the
 * soft limit sends SIGXCPU first, which stops the search like SIGTERM:
 * the best line so far is printed before the kill. */
static void warn_before_cpu_kill(void)
{
    struct rlimit cpu;
    if (getrlimit(RLIMIT_CPU, &cpu) != 0 || cpu.rlim_max == RLIM_INFINITY ||
        cpu.rlim_cur != cpu.rlim_max || cpu.rlim_max < 2)
        return;
    cpu.rlim_cur = cpu.rlim_max - 1;
    (void)setrlimit(RLIMIT_CPU, &cpu);
}

/* SIGINT, SIGTERM (timeout, Slurm, Open MPI's mpirun), SIGHUP (a closed
 * terminal) and SIGXCPU (a CPU-time limit) all stop the search the same
 * way. sigaction keeps the handler installed (signal() under -std=c11
 * resets it after the first delivery, so a second Ctrl-C used to kill
 * psolve with no output); the signals are blocked while the handler
 * runs. */
void ps_install_interrupt_handler(void)
{
    warn_before_cpu_kill();
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGXCPU};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    sa.sa_flags = SA_RESTART;
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

const char *ps_signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGXCPU: return "SIGXCPU (the CPU-time limit)";
    default: return "a signal";
    }
}

const struct ps_option *ps_algorithm_option(const struct ps_algorithm *a,
                                            const char *name)
{
    const struct ps_option *o = ps_option_find(a->options, name);
    return o ? o : ps_option_find(a->shared_options, name);
}

bool ps_algorithm_option_is_own(const struct ps_algorithm *a,
                                const struct ps_option *o)
{
    for (const struct ps_option *e = a->options; e && e->name; e++)
        if (e == o)
            return true;
    return false;
}

void *ps_algorithm_option_base(const struct ps_algorithm *a,
                               const struct ps_option *o,
                               struct ps_options *opt)
{
    return ps_algorithm_option_is_own(a, o) ? (void *)opt->own.u.bytes
                                            : (void *)opt;
}

void ps_algo_options_default(struct ps_algo_options *own,
                             const struct ps_algorithm *a)
{
    memset(own, 0, sizeof *own);
    own->algo = a;
    if (a->options_default && a->options_size <= sizeof own->u.bytes)
        memcpy(own->u.bytes, a->options_default, a->options_size);
}

void ps_algo_options_use(struct ps_options *opt, const struct ps_algorithm *a)
{
    if (opt->own.algo == a)
        return;
    const struct ps_algo_options *entry =
        opt->book ? ps_algo_book_find(opt->book, a) : NULL;
    if (entry)
        opt->own = *entry;
    else
        ps_algo_options_default(&opt->own, a);
}

bool ps_algo_option_set(struct ps_options *opt, const struct ps_algorithm *a,
                        const char *name, const char *value, char *msg,
                        size_t len)
{
    const struct ps_option *o = ps_algorithm_option(a, name);
    if (!o) {
        snprintf(msg, len, "is no option of %s", a->name);
        return false;
    }
    ps_algo_options_use(opt, a);
    return ps_option_set(o, ps_algorithm_option_base(a, o, opt), value, msg,
                         len);
}

void ps_options_default(struct ps_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->topk = 0;
}

/* The heuristic (cost) or bound (score) of the run: the --heuristic entry,
 * else the game's slot as before the table existed (a score game's bound
 * only with PS_HAS_BOUND; a cost game's h whenever set, admissible with
 * PS_HAS_HEURISTIC). */
static void search_choose_heuristic(struct ps_search *s)
{
    const struct ps_game *g = s->game;
    bool maximise = s->flags & PS_MAXIMISE;
    if (s->opt.heuristic && ps_pdb_find_set(g, s->opt.heuristic)) {
        /* Pattern databases are admissible by construction (pdb.h). */
        s->pdb_set = ps_pdb_find_set(g, s->opt.heuristic);
        s->heuristic = NULL;
        s->heuristic_admissible = true;
        s->heuristic_name = s->pdb_set->name;
        return;
    }
    if (s->opt.heuristic) {
        const struct ps_heuristic *h = ps_heuristic_find(g, s->opt.heuristic);
        s->heuristic = h ? h->fn : NULL;
        s->heuristic_admissible = h && h->admissible;
        s->heuristic_name = h ? h->name : s->opt.heuristic;
        s->heuristic_unknown = !h;
        return;
    }
    if (maximise) {
        s->heuristic = (s->flags & PS_HAS_BOUND) ? g->upper_bound : NULL;
        s->heuristic_admissible = s->heuristic != NULL;
    } else {
        s->heuristic = g->heuristic;
        s->heuristic_admissible = (s->flags & PS_HAS_HEURISTIC) != 0;
    }
    s->heuristic_name = s->heuristic ? ps_heuristic_default_name(g, maximise)
                                     : "none";
}

void ps_search_init(struct ps_search *s, const struct ps_game *game,
                    const void *inst, const struct ps_limits *limits,
                    const struct ps_options *opt)
{
    memset(s, 0, sizeof *s);
    s->game = game;
    s->inst = inst;
    s->flags = ps_game_flags(game, inst);
    s->state_size = game->state_size(inst);
    s->max_depth = game->max_depth(inst);
    if (limits)
        s->limits = *limits;
    if (opt)
        s->opt = *opt;
    else
        ps_options_default(&s->opt);
    s->trace.out = stdout;
    s->trace.format = s->opt.trace_format;
    s->trace.game = game;
    s->trace.inst = inst;
    search_choose_heuristic(s);
}

void ps_search_free(struct ps_search *s)
{
    if (s->pdb)
        ps_pdb_free(s->pdb);
    s->pdb = NULL;
    free(s->best.moves);
    s->best.moves = NULL;
    s->best.len = s->best.cap = 0;
    free(s->layers.v);
    memset(&s->layers, 0, sizeof s->layers);
    free(s->late.moves);
    s->late.moves = NULL;
    s->late.len = s->late.cap = 0;
}

void ps_layer_add(struct ps_search *s, const char *kind, int64_t key,
                  uint64_t expanded, uint64_t generated)
{
    if (!s->opt.layers)
        return;
    struct ps_layers *l = &s->layers;
    l->kind = kind;
    /* Layers mostly arrive in order (f grows in A*, the bound in IDA*):
     * look from the back, keep the array sorted by key. */
    int i = l->n;
    while (i > 0 && l->v[i - 1].key > key)
        i--;
    if (i > 0 && l->v[i - 1].key == key) {
        l->v[i - 1].expanded += expanded;
        l->v[i - 1].generated += generated;
        return;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        struct ps_layer *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return; /* the layers are a report: losing one costs no answer */
        l->v = v;
        l->cap = cap;
    }
    memmove(l->v + i + 1, l->v + i, (size_t)(l->n - i) * sizeof *l->v);
    l->v[i] = (struct ps_layer){key, expanded, generated};
    l->n++;
}

/* Copy moves[0..len) into sol. False when out of memory. */
static bool keep_line(struct ps_solution *sol, const ps_move *moves, int len,
                      ps_value value)
{
    if (len > sol->cap) {
        int cap = len < 64 ? 64 : len;
        ps_move *m = realloc(sol->moves, (size_t)cap * sizeof *m);
        if (!m)
            return false;
        sol->moves = m;
        sol->cap = cap;
    }
    if (len > 0)
        memcpy(sol->moves, moves, (size_t)len * sizeof *moves);
    sol->len = len;
    sol->value = value;
    sol->found = true;
    return true;
}

/* The late line (search.h), once the game answers again: kept if its
 * replay is legal, reaches a goal (cost games), is worth what was offered
 * and beats the best. */
static void judge_late_line(struct ps_search *s)
{
    if (!s->late.found || !ps_search_improves(s, s->late.value))
        return;
    unsigned char *final = malloc(s->state_size);
    struct ps_replay res;
    struct ps_error err;
    bool sound = final &&
                 ps_replay_moves(s->game, s->inst, s->late.moves, s->late.len,
                                 final, &res, &err) &&
                 res.value == s->late.value &&
                 (res.over || (s->flags & PS_MAXIMISE));
    free(final);
    if (sound)
        keep_line(&s->best, s->late.moves, s->late.len, s->late.value);
}

/* The most any line from the start can be worth, for score games: the
 * start's own value when it has no move (the empty line is the only one),
 * else the game's upper bound of the start if it has one. */
static void find_root_bound(struct ps_search *s)
{
    s->bounded = false;
    if (!(s->flags & PS_MAXIMISE))
        return;
    const struct ps_game *g = s->game;
    unsigned char *root = malloc(s->state_size);
    ps_move *moves = malloc((size_t)g->max_moves(s->inst) * sizeof *moves + 1);
    if (root && moves) {
        g->initial_state(s->inst, root);
        if (g->moves(s->inst, root, moves, NULL) == 0) {
            s->bounded = true;
            s->root_bound = ps_final_value(s, root, 0);
        } else if (ps_search_has_h(s) && s->heuristic_admissible) {
            s->bounded = true;
            s->root_bound = ps_search_h(s, root);
        }
    }
    free(root);
    free(moves);
}

/* Did a slot of the game fail during the run? Then the search stops (the
 * slot's answers since were harmless stand-ins, not the game's): the reason
 * is the fault's, where it happened is kept in s->error (and an error's
 * message in s->note). */
static bool search_faulted(struct ps_search *s)
{
    struct ps_error err;
    enum ps_fault f = ps_game_fault(s->game, s->inst, &err);
    if (f == PS_FAULT_NONE)
        return false;
    ps_search_fault(s, f, &err);
    return true;
}

void ps_search_fault(struct ps_search *s, enum ps_fault f,
                     const struct ps_error *err)
{
    if (f == PS_FAULT_NONE)
        return;
    s->error = *err;
    if (f == PS_FAULT_ERROR) {
        s->stop = PS_STOP_ERROR;
        ps_error_format(err, s->note, sizeof s->note);
    } else if (s->stop == PS_STOP_NONE || s->stop == PS_STOP_PROVEN) {
        s->stop = f == PS_FAULT_TIME ? PS_STOP_TIME : PS_STOP_INTERRUPT;
    }
}

bool ps_search_line_too_long(struct ps_search *s)
{
    struct ps_error err;
    ps_error_set(&err, NULL, 0, 0,
                 "game %s: a line goes on past its max_depth() of %d moves "
                 "(a score game must end within it; declare a larger "
                 "max_depth)",
                 s->game->name, s->max_depth);
    ps_search_fault(s, PS_FAULT_ERROR, &err);
    return false;
}

/* Is the best line a complete game worth the root bound? Replayed, since an
 * algorithm stopped early may offer a partial line (greedy does). */
static bool best_is_proven(const struct ps_search *s)
{
    if (!s->bounded || !s->best.found || s->best.value < s->root_bound)
        return false;
    const struct ps_game *g = s->game;
    unsigned char *a = malloc(s->state_size), *b = malloc(s->state_size);
    ps_move *moves = malloc((size_t)g->max_moves(s->inst) * sizeof *moves + 1);
    bool over = false;
    if (a && b && moves) {
        g->initial_state(s->inst, a);
        for (int i = 0; i < s->best.len; i++) {
            g->apply(s->inst, a, s->best.moves[i], b);
            unsigned char *t = a;
            a = b;
            b = t;
        }
        over = g->moves(s->inst, a, moves, NULL) == 0;
    }
    free(a);
    free(b);
    free(moves);
    return over;
}

/* h(start) (or the start's bound) of a run that used its heuristic. */
static void note_heuristic_start(struct ps_search *s)
{
    s->stats.has_h_start = false;
    if (!s->used_heuristic || !ps_search_has_h(s))
        return;
    unsigned char *root = malloc(s->state_size);
    if (!root)
        return;
    s->game->initial_state(s->inst, root);
    s->stats.h_start = ps_search_h(s, root);
    s->stats.has_h_start = true;
    free(root);
}

/* --heuristic pdb:NAME: the tables, from memory, the disk cache or a build,
 * got before the run's clock starts (--time counts the search alone) and
 * kept for the next run of this search. False with s->note (and s->stop)
 * saying why. */
static bool search_get_pdb(struct ps_search *s)
{
    if (!s->pdb_set || s->pdb)
        return true;
    struct ps_pdb_options po = {.max_memory = s->limits.max_memory,
                                .progress = true};
    struct ps_error err;
    ps_error_clear(&err);
    s->pdb = ps_pdb_get(s->game, s->inst, s->pdb_set, &po, &s->pdb_stats,
                        &err);
    if (s->pdb)
        return true;
    s->stop = ps_interrupted                    ? PS_STOP_INTERRUPT
              : strstr(err.msg, "max-memory") ? PS_STOP_MEMORY
                                              : PS_STOP_ERROR;
    s->error = err;
    ps_error_format(&err, s->note, sizeof s->note);
    return false;
}

enum ps_status ps_search_run(struct ps_search *s, const struct ps_algorithm *a)
{
    memset(&s->stats, 0, sizeof s->stats);
    s->stop = PS_STOP_NONE;
    s->note[0] = '\0';
    ps_error_clear(&s->error);
    bool pdb_ready = search_get_pdb(s);
    s->best.len = 0;
    s->best.found = false;
    s->late.len = 0;
    s->late.found = false;
    s->tick = 0;
    s->clock_every = 1;
    s->algo_name = a->name;
    ps_algo_options_use(&s->opt, a);
    s->used_heuristic = false;
    s->layers.n = 0;
    s->layers.kind = NULL;
    s->start = ps_now();
    s->last_progress = s->start;
    s->last_clock = s->start;
    if (s->heuristic_unknown) {
        /* The command line checks the name first; a library caller that
         * did not gets a run that ends at once and says why. */
        snprintf(s->note, sizeof s->note, "unknown heuristic '%s'",
                 s->opt.heuristic);
        return PS_INCOMPLETE;
    }
    uint64_t pdb_bytes = s->pdb ? ps_pdb_bytes(s->pdb) : 0;
    if (!pdb_ready || !ps_memory_reserve(s, pdb_bytes)) {
        if (pdb_ready) {
            s->stop = PS_STOP_MEMORY;
            snprintf(s->note, sizeof s->note,
                     "the %s tables (%.0f MB) pass --max-memory",
                     s->pdb_set->name, (double)pdb_bytes / 1e6);
        }
        return PS_INCOMPLETE;
    }
    const struct ps_game *g = s->game;
    if (g->begin_search)
        g->begin_search(s->inst, s->limits.seconds > 0
                                     ? s->start + s->limits.seconds : 0);
    s->trace.limit = s->opt.trace;
    s->trace.shown = 0;
    s->trace.seq = 0;
    s->trace.algo = a->name;
    s->trace.start = s->start;
    ps_search_trace_event(s, &(struct ps_trace_event){.kind = PS_TRACE_BEGIN});
    /* A game that can prove an instance unsolvable without search (colour
     * counts, sizes) does so before any algorithm runs. */
    if (s->game->solvable &&
        !s->game->solvable(s->inst, s->note, sizeof s->note)) {
        s->stats.seconds = ps_now() - s->start;
        ps_memory_release(s, pdb_bytes);
        if (g->end_search)
            g->end_search(s->inst);
        return PS_UNSOLVABLE;
    }
    find_root_bound(s);
    if (s->checkpoint)
        ps_checkpoint_begin(s);
    enum ps_status st = a->run(s);
    if (s->checkpoint)
        ps_checkpoint_end(s);
    s->stats.seconds = ps_now() - s->start;
    ps_memory_release(s, pdb_bytes);
    note_heuristic_start(s);
    if (search_faulted(s))
        st = PS_INCOMPLETE; /* whatever the run made of the harmless values */
    if (g->end_search)
        g->end_search(s->inst);
    if (s->stop != PS_STOP_ERROR)
        judge_late_line(s);
    if (st == PS_OPTIMAL && s->used_heuristic && s->opt.heuristic &&
        !s->heuristic_admissible) {
        /* An inadmissible h may hide the cheapest goal (or cut the best
         * line): the answer is no proof. */
        st = PS_HEURISTIC;
        snprintf(s->note, sizeof s->note,
                 "heuristic: %s '%s' is not admissible",
                 (s->flags & PS_MAXIMISE) ? "bound" : "h", s->heuristic_name);
    }
    if (s->stop != PS_STOP_ERROR && st != PS_UNSOLVABLE && best_is_proven(s)) {
        /* Whatever stopped the run, this line cannot be beaten. */
        if (st != PS_OPTIMAL) {
            char was[sizeof s->note];
            const char *how = s->note;
            if (strncmp(how, "heuristic: ", 11) == 0)
                how += 11;
            snprintf(was, sizeof was, "%s", how);
            snprintf(s->note, sizeof s->note,
                     "optimal: reaches the upper bound of the start%s%.60s",
                     was[0] ? "; found by " : "", was);
        }
        st = PS_OPTIMAL;
        s->stop = PS_STOP_NONE;
    }
    if (s->stop != PS_STOP_NONE && st != PS_UNSOLVABLE)
        st = PS_INCOMPLETE;
    if (s->progress)
        fputc('\n', stderr);
    return st;
}

static void print_progress(struct ps_search *s, double now)
{
    double el = now - s->start;
    uint64_t work = s->stats.expanded + s->stats.playouts;
    fprintf(stderr, "%s[%s] %.0fs  nodes %llu (%.0f/s)  table %llu  ",
            s->progress ? "\r" : "psolve: ",
            s->algo_name ? s->algo_name : "?", el, (unsigned long long)work,
            el > 0 ? (double)work / el : 0.0,
            (unsigned long long)s->stats.table_entries);
    if (s->stats.playouts)
        fprintf(stderr, "playouts %llu (%.0f/s)  ",
                (unsigned long long)s->stats.playouts,
                el > 0 ? (double)s->stats.playouts / el : 0.0);
    if (s->best.found)
        fprintf(stderr, "best %lld  ", (long long)s->best.value);
    else
        fprintf(stderr, "best -  ");
    /* Score games with a bound of the start: how far the best may be from
     * the optimum (0 once proven). */
    if (s->bounded && s->best.found)
        fprintf(stderr, "bound %lld  gap %lld  ", (long long)s->root_bound,
                (long long)(s->root_bound - s->best.value));
    else if (s->bounded)
        fprintf(stderr, "bound %lld  ", (long long)s->root_bound);
    /* Cost games' rounds: no line cheaper than this exists (the round's
     * bound), so best - lower_bound is the gap left to prove. */
    if (!(s->flags & PS_MAXIMISE) && s->stats.has_lower_bound)
        fprintf(stderr, "lower_bound %lld  ", (long long)s->stats.lower_bound);
    if (s->progress_where) {
        char where[64] = "";
        s->progress_where(s->progress_where_arg, where, sizeof where);
        if (where[0])
            fprintf(stderr, "at %s  ", where);
    }
    fputs(s->progress ? " " : "\n", stderr);
    fflush(stderr);
}

/* The checks that cost nothing: a stop already decided, Ctrl-C, the node
 * budget. */
static bool stopped_cheap(struct ps_search *s)
{
    if (s->stop != PS_STOP_NONE)
        return true;
    if (s->game->fault && search_faulted(s))
        return true;
    if (ps_interrupted) {
        s->stop = PS_STOP_INTERRUPT;
        return true;
    }
    if (s->limits.max_nodes && s->stats.expanded >= s->limits.max_nodes) {
        s->stop = PS_STOP_NODES;
        return true;
    }
    return false;
}

static bool stopped_by_clock(struct ps_search *s, double now)
{
    if (s->limits.seconds > 0 && now - s->start >= s->limits.seconds) {
        s->stop = PS_STOP_TIME;
        return true;
    }
    /* A line a second; the first four a quarter second apart, so that a
     * watcher (psolve serve's live panel) has a point at once, even from a
     * run shorter than a second. */
    double every = s->progress_log            ? PS_PROGRESS_LOG
                   : now - s->start < 1.0 ? 0.25
                                          : 1.0;
    if ((s->progress || s->progress_log) && now - s->last_progress >= every) {
        s->last_progress = now;
        print_progress(s, now);
        if (s->on_progress && s->progress)
            s->on_progress(s, s->on_progress_ctx);
    }
    return false;
}

/* How often the clock is read: about every PS_CLOCK_PERIOD seconds of the
 * caller's work, never less often than every PS_CLOCK_MAX_CALLS calls. */
#define PS_CLOCK_PERIOD 1e-3
#define PS_CLOCK_MAX_CALLS 1024u

bool ps_search_stopped(struct ps_search *s)
{
    if (stopped_cheap(s))
        return true;
    /* The clock costs more than the rest, so it is read every clock_every
     * calls. A fixed count would not do: a call stands for 100 ns of work on
     * a small board and for 100 ms on a 32x32 board with playouts, so the
     * count follows the measured time per call (the interval goes up to
     * PS_CLOCK_MAX_CALLS when calls are cheap, and down to every call when
     * they are dear). */
    if (++s->tick < s->clock_every)
        return false;
    s->tick = 0;
    double now = ps_now();
    double took = now - s->last_clock;
    s->last_clock = now;
    unsigned every = s->clock_every ? s->clock_every : 1;
    if (took > PS_CLOCK_PERIOD)
        every = every / 2 > 0 ? every / 2 : 1;
    else if (took < PS_CLOCK_PERIOD / 4 && every < PS_CLOCK_MAX_CALLS)
        every *= 2;
    s->clock_every = every;
    return stopped_by_clock(s, now);
}

bool ps_search_poll(struct ps_search *s)
{
    return stopped_cheap(s) || stopped_by_clock(s, ps_now());
}

/* Is `value` better than the line `sol` holds (or is there none)? */
static bool beats(const struct ps_search *s, ps_value value,
                  const struct ps_solution *sol)
{
    if (!sol->found)
        return true;
    if (s->flags & PS_MAXIMISE)
        return value > sol->value;
    return value < sol->value;
}

bool ps_search_improves(const struct ps_search *s, ps_value value)
{
    return beats(s, value, &s->best);
}

bool ps_search_offer(struct ps_search *s, const ps_move *moves, int len,
                     ps_value value)
{
    if (!ps_search_improves(s, value))
        return false;
    /* A game whose slot failed may have answered with stand-ins: after an
     * error no line counts; after a stop the line waits for its replay. */
    enum ps_fault fault = ps_game_fault(s->game, s->inst, NULL);
    if (fault == PS_FAULT_ERROR)
        return false;
    if (fault != PS_FAULT_NONE) {
        if (beats(s, value, &s->late))
            keep_line(&s->late, moves, len, value);
        return false;
    }
    if (!keep_line(&s->best, moves, len, value))
        return false;
    if (s->anytime)
        ps_anytime_add(s->anytime, ps_now() - s->start, value, len);
    ps_search_trace_event(s, &(struct ps_trace_event){
                                 .kind = PS_TRACE_IMPROVE,
                                 .has = PS_TF_VALUE | PS_TF_LEN,
                                 .value = value,
                                 .len = len});
    if (s->bounded && value >= s->root_bound && s->stop == PS_STOP_NONE)
        s->stop = PS_STOP_PROVEN;
    return true;
}

void ps_search_nest(struct ps_search *sub, const struct ps_search *s,
                    const struct ps_algorithm *a)
{
    *sub = *s;
    ps_algo_options_default(&sub->opt.own, a);
    memset(&sub->best, 0, sizeof sub->best);
    memset(&sub->late, 0, sizeof sub->late);
    memset(&sub->layers, 0, sizeof sub->layers);
    sub->opt.layers = false;
    sub->trace.limit = 0;
    sub->anytime = NULL;
    sub->note[0] = '\0';
    sub->nested = true;
    if (s->best.found)
        keep_line(&sub->best, s->best.moves, s->best.len, s->best.value);
}

double ps_search_seconds_left(const struct ps_search *s)
{
    if (s->limits.seconds <= 0)
        return HUGE_VAL;
    return s->limits.seconds - (ps_now() - s->start);
}

static void fold_counters(struct ps_search *s, const struct ps_search *sub)
{
    uint64_t memory = s->stats.memory;
    s->stats = sub->stats;
    s->stats.memory = memory; /* what sub reserved, it released */
    s->last_progress = sub->last_progress;
}

static void fold_error(struct ps_search *s, const struct ps_search *sub)
{
    if (sub->stop == PS_STOP_ERROR) {
        s->stop = PS_STOP_ERROR;
        s->error = sub->error;
        memcpy(s->note, sub->note, sizeof s->note);
    }
}

void ps_search_fold(struct ps_search *s, const struct ps_search *sub)
{
    fold_counters(s, sub);
    fold_error(s, sub);
}

void ps_search_unnest(struct ps_search *s, struct ps_search *sub)
{
    fold_counters(s, sub);
    if (sub->best.found)
        ps_search_offer(s, sub->best.moves, sub->best.len, sub->best.value);
    if (sub->late.found)
        ps_search_offer(s, sub->late.moves, sub->late.len, sub->late.value);
    fold_error(s, sub);
    ps_search_free(sub);
}

/* A search about to hold gigabytes: say so once, with the way to cap it
 * (an exact search on a large puzzle can fill half the machine's memory,
 * the default cap, before it stops). */
static void memory_note(struct ps_search *s)
{
    s->memory_noted = true;
    double mib = (double)s->stats.memory / (1 << 20);
    fprintf(stderr, "psolve: note: %s holds %.0f MiB of tables and buffers "
                    "and may grow ",
            s->algo_name ? s->algo_name : "the search", mib);
    if (s->limits.max_memory)
        fprintf(stderr, "to %.0f MiB (--max-memory; the default is half of "
                        "the memory this process may use)",
                (double)s->limits.max_memory / (1 << 20));
    else
        fprintf(stderr, "without a cap");
    fprintf(stderr, "; give --max-memory MB to cap it lower, e.g. "
                    "--max-memory 1024\n");
}

bool ps_memory_reserve(struct ps_search *s, uint64_t bytes)
{
    if (s->limits.max_memory && s->stats.memory + bytes > s->limits.max_memory)
        return false;
    s->stats.memory += bytes;
    if (s->stats.memory > s->stats.peak_memory)
        s->stats.peak_memory = s->stats.memory;
    if (s->stats.memory > PS_MEMORY_NOTE_BYTES && !s->memory_noted)
        memory_note(s);
    return true;
}

void ps_memory_release(struct ps_search *s, uint64_t bytes)
{
    s->stats.memory = bytes > s->stats.memory ? 0 : s->stats.memory - bytes;
}

void ps_search_trace_event(struct ps_search *s, const struct ps_trace_event *ev)
{
    ps_trace_emit(&s->trace, ev);
}

void ps_search_trace(struct ps_search *s, const void *state, int depth,
                     ps_value g, ps_value h, const char *what)
{
    ps_search_trace_event(s, &(struct ps_trace_event){
                                 .kind = PS_TRACE_EXPAND,
                                 .has = PS_TF_DEPTH | PS_TF_G | PS_TF_H,
                                 .depth = depth,
                                 .g = g,
                                 .h = h,
                                 .move = what,
                                 .state = state});
}

void ps_iteration_done(struct ps_search *s, ps_value bound, uint64_t expanded,
                       uint64_t generated)
{
    struct ps_stats *st = &s->stats;
    st->last_iteration_expanded = st->expanded - expanded;
    st->reexpanded = expanded;
    ps_layer_add(s, "bound", bound, st->expanded - expanded,
                 st->generated - generated);
}

ps_value ps_final_value(const struct ps_search *s, const void *state,
                        ps_value so_far)
{
    if (s->game->end_value)
        return so_far + s->game->end_value(s->inst, state);
    return so_far;
}

const char *ps_status_name(enum ps_status st)
{
    switch (st) {
    case PS_OPTIMAL: return "optimal";
    case PS_HEURISTIC: return "heuristic";
    case PS_UNSOLVABLE: return "unsolvable";
    case PS_INCOMPLETE: return "incomplete";
    }
    return "?";
}

const char *ps_stop_name(enum ps_stop_reason r)
{
    switch (r) {
    case PS_STOP_NONE: return "none";
    case PS_STOP_TIME: return "time limit";
    case PS_STOP_NODES: return "node limit";
    case PS_STOP_MEMORY: return "memory limit";
    case PS_STOP_INTERRUPT: return "interrupted";
    case PS_STOP_PROVEN: return "proven optimal";
    case PS_STOP_ERROR: return "error";
    }
    return "?";
}
