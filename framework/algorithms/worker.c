/*
 * worker.c - the threads of mc, nmcs and nrpa (worker.h): one search copy,
 * PRNG stream and playout scratch per thread, merged at the end.
 */
#include "worker.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "threads.h"

struct ps_mc_shared {
    pthread_mutex_t lock;         /* main->best while the workers run */
    atomic_int stop;              /* main's stop reason, for the workers */
    atomic_int running;
    _Atomic uint64_t playouts, expanded;
    _Atomic int64_t best_value;   /* for progress lines */
    atomic_bool best_found;
    ps_worker_fn fn;
    struct ps_search *run; /* the run's search: its tracer and anytime curve,
                            * under `lock` */
    /* The best line of the whole run, kept (under `lock`) only when the
     * run has an on_progress hook (--best-file): watch_workers hands it to
     * the hook. */
    ps_move *line;
    int line_len, line_cap;
    ps_value line_value;
    bool line_new;
    /* Whether to keep it: set before the workers start, read by them (the
     * run's on_progress is the watcher's alone). */
    bool keep_line;
};

/* Under the lock: a copy of the run's new best line for the hook. */
static void keep_shared_line(struct ps_mc_shared *sh, const ps_move *moves,
                             int len, ps_value value)
{
    if (len > sh->line_cap) {
        ps_move *nl = realloc(sh->line, (size_t)len * sizeof *nl);
        if (!nl)
            return; /* the hook sees the previous line */
        sh->line = nl;
        sh->line_cap = len;
    }
    if (len)
        memcpy(sh->line, moves, (size_t)len * sizeof *moves);
    sh->line_len = len;
    sh->line_value = value;
    sh->line_new = true;
}

int ps_thread_count(const struct ps_search *s)
{
    int n = s->opt.threads;
    if (s->flags & PS_ONE_THREAD)
        return 1; /* the CLI refuses --threads N > 1 for such games */
    if (n <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        n = cores > 0 ? (int)cores : 1;
    }
    return n > PS_MAX_THREADS ? PS_MAX_THREADS : n;
}

static void publish(struct ps_worker *w)
{
    struct ps_mc_shared *sh = w->shared;
    atomic_fetch_add(&sh->playouts, w->s.stats.playouts - w->told_playouts);
    atomic_fetch_add(&sh->expanded, w->s.stats.expanded - w->told_expanded);
    w->told_playouts = w->s.stats.playouts;
    w->told_expanded = w->s.stats.expanded;
}

bool ps_worker_stopped(struct ps_worker *w)
{
    if (w->s.stop != PS_STOP_NONE)
        return true;
    int main_stop = atomic_load_explicit(&w->shared->stop, memory_order_relaxed);
    if (main_stop != PS_STOP_NONE) {
        w->s.stop = (enum ps_stop_reason)main_stop;
        return true;
    }
    if (ps_search_stopped(&w->s))
        return true;
    /* A call may stand for a whole playout: read the clock more often than
     * ps_search_stopped would, so a time limit is kept within milliseconds. */
    if ((++w->tick & 15u) != 0)
        return false;
    publish(w);
    return ps_search_poll(&w->s);
}

/* A better line of the whole run (called under the lock): its point on the
 * anytime curve, and its trace event. */
static void record_improvement(struct ps_search *run,
                               const struct ps_worker *w, ps_value value,
                               int len)
{
    if (run->anytime)
        ps_anytime_add(run->anytime, ps_now() - run->start, value, len);
    ps_search_trace_event(run, &(struct ps_trace_event){
                                   .kind = PS_TRACE_IMPROVE,
                                   .has = PS_TF_VALUE | PS_TF_LEN | PS_TF_ID,
                                   .id = w->index,
                                   .value = value,
                                   .len = len});
}

bool ps_worker_tracing(const struct ps_worker *w, enum ps_trace_kind kind)
{
    return w->index == 0 && ps_trace_wanted(&w->shared->run->trace, kind);
}

void ps_worker_trace(struct ps_worker *w, const struct ps_trace_event *ev)
{
    if (!ps_worker_tracing(w, ev->kind))
        return;
    pthread_mutex_lock(&w->shared->lock);
    ps_search_trace_event(w->shared->run, ev);
    pthread_mutex_unlock(&w->shared->lock);
}

bool ps_worker_offer(struct ps_worker *w, const ps_move *moves, int len,
                     ps_value value)
{
    if (!ps_search_offer(&w->s, moves, len, value))
        return false;
    struct ps_mc_shared *sh = w->shared;
    if (w->s.stop == PS_STOP_PROVEN) /* the others can stop too */
        atomic_store(&sh->stop, (int)PS_STOP_PROVEN);
    pthread_mutex_lock(&sh->lock);
    if (!atomic_load(&sh->best_found) ||
        (w->s.flags & PS_MAXIMISE ? value > atomic_load(&sh->best_value)
                                  : value < atomic_load(&sh->best_value))) {
        atomic_store(&sh->best_value, value);
        atomic_store(&sh->best_found, true);
        record_improvement(sh->run, w, value, len);
        if (sh->keep_line)
            keep_shared_line(sh, moves, len, value);
    }
    pthread_mutex_unlock(&sh->lock);
    return true;
}

ps_value ps_worker_playout(struct ps_worker *w, const void *state, int depth)
{
    /* the line after the depth moves that reached state must fit too */
    int room = w->s.max_depth - depth;
    ps_value v = ps_playout_run(&w->po, state, &w->rng, room > 0 ? room : -1);
    if (w->po.too_long)
        ps_search_line_fits(&w->s, depth + w->po.length);
    w->s.stats.playouts++;
    w->s.stats.expanded += (uint64_t)w->po.length + 1;
    w->s.stats.generated += (uint64_t)w->po.length; /* a child per move */
    return v;
}

bool ps_worker_offer_playout(struct ps_worker *w, const ps_move *prefix, int n,
                             ps_value value)
{
    if (!ps_search_improves(&w->s, value))
        return false;
    if (n > 0)
        memcpy(w->line, prefix, (size_t)n * sizeof *prefix);
    if (w->po.length > 0)
        memcpy(w->line + n, w->po.line, (size_t)w->po.length * sizeof *w->line);
    return ps_worker_offer(w, w->line, n + w->po.length, value);
}

bool ps_worker_again(struct ps_worker *w)
{
    return (w->s.limits.seconds > 0 || w->s.limits.max_nodes > 0) &&
           !ps_worker_stopped(w);
}

static void worker_main(void *p)
{
    struct ps_worker *w = p;
    w->shared->fn(w);
    publish(w);
    atomic_fetch_sub(&w->shared->running, 1);
}

/* What every worker reserves for itself: its line and playout scratch. */
static uint64_t worker_scratch_bytes(const struct ps_search *s)
{
    uint64_t depth = (uint64_t)s->game->max_depth(s->inst) + 1;
    return depth * sizeof(ps_move) + ps_playout_bytes(s->game, s->inst);
}

/* The threads --max-memory holds, each with `per` bytes (at least 1: that
 * one then stops on its reservation, and the run answers the empty line). */
static int threads_that_fit(const struct ps_search *s, int threads,
                            uint64_t per)
{
    if (!s->limits.max_memory || per == 0)
        return threads;
    uint64_t left = s->limits.max_memory > s->stats.memory
                        ? s->limits.max_memory - s->stats.memory
                        : 0;
    uint64_t fit = left / per;
    if (fit < 1)
        fit = 1;
    return fit < (uint64_t)threads ? (int)fit : threads;
}

static bool worker_init(struct ps_worker *w, struct ps_search *s,
                        struct ps_mc_shared *sh, int index, int threads,
                        struct ps_error *err)
{
    memset(w, 0, sizeof *w);
    w->s = *s;
    memset(&w->s.stats, 0, sizeof w->s.stats);
    memset(&w->s.best, 0, sizeof w->s.best);
    /* The copy owns no layers: ps_search_free of it must not free the
     * caller's (Monte Carlo keeps none). */
    memset(&w->s.layers, 0, sizeof w->s.layers);
    w->s.opt.layers = false;
    memset(&w->s.late, 0, sizeof w->s.late);
    w->s.progress = w->s.progress_log = false;
    /* Workers trace and record improvements through the run's own search
     * (ps_worker_offer, ps_worker_trace), one at a time. */
    w->s.opt.trace = 0;
    w->s.trace.limit = 0;
    w->s.anytime = NULL;
    w->s.tick = 0;
    w->s.clock_every = 1;
    /* The node budget left, shared out: a run nested in another (dfs's
     * nrpa slices) starts with the caller's count, the workers from 0. */
    if (s->limits.max_nodes) {
        uint64_t left = s->limits.max_nodes > s->stats.expanded
                            ? s->limits.max_nodes - s->stats.expanded
                            : 0;
        uint64_t share = left / (uint64_t)threads;
        w->s.limits.max_nodes = share ? share : 1;
    }
    /* Memory too is shared out evenly (what is left of it after the caller's
     * own reservations), so a run uses the same share on every thread and
     * the total stays within --max-memory. */
    if (s->limits.max_memory) {
        uint64_t left = s->limits.max_memory > s->stats.memory
                            ? s->limits.max_memory - s->stats.memory
                            : 0;
        w->s.limits.max_memory = left / (uint64_t)threads;
        if (w->s.limits.max_memory == 0)
            w->s.limits.max_memory = 1; /* 0 would mean no limit */
    }
    w->index = index;
    w->threads = threads;
    w->shared = sh;
    ps_rng_seed_stream(&w->rng, s->opt.seed, (uint64_t)index);
    size_t depth = (size_t)s->game->max_depth(s->inst) + 1;
    if (!ps_memory_reserve(&w->s, worker_scratch_bytes(s)))
        return ps_error_set(err, NULL, 0, 0,
                            "--max-memory leaves a thread too little for its "
                            "playouts");
    w->line = malloc(depth * sizeof *w->line);
    if (!w->line || !ps_playout_init(&w->po, s->game, s->inst))
        return ps_error_set(err, NULL, 0, 0, "out of memory");
    return ps_playout_set_policy(&w->po, s->opt.policy, s->opt.topk, err);
}

bool ps_worker_init_solo(struct ps_worker *w, struct ps_search *s,
                         uint64_t stream, struct ps_error *err)
{
    struct ps_mc_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return ps_error_set(err, NULL, 0, 0, "out of memory");
    pthread_mutex_init(&sh->lock, NULL);
    bool ok = worker_init(w, s, sh, 0, 1, err);
    /* A job traces nothing and keeps no anytime curve: its own search
     * copy (trace limit 0, no curve) stands for the run's. */
    sh->run = &w->s;
    /* Its stream is the job's, not the thread's. */
    ps_rng_seed_stream(&w->rng, s->opt.seed, stream);
    if (!ok)
        ps_worker_free_solo(w);
    return ok;
}

void ps_worker_free_solo(struct ps_worker *w)
{
    ps_playout_free(&w->po);
    free(w->line);
    w->line = NULL;
    ps_search_free(&w->s);
    if (w->shared) {
        pthread_mutex_destroy(&w->shared->lock);
        free(w->shared);
        w->shared = NULL;
    }
}

/* Sum the workers' statistics into the run's; worst stop reason wins. */
static void merge_worker(struct ps_search *s, const struct ps_worker *w)
{
    const struct ps_stats *a = &w->s.stats;
    struct ps_stats *t = &s->stats;
    t->expanded += a->expanded;
    t->generated += a->generated;
    t->duplicates += a->duplicates;
    t->pruned += a->pruned;
    t->playouts += a->playouts;
    t->table_probes += a->table_probes;
    t->table_hits += a->table_hits;
    t->table_entries += a->table_entries;
    t->peak_table += a->peak_table;
    t->peak_frontier += a->peak_frontier;
    t->peak_memory += a->peak_memory;
    if (a->iterations > t->iterations)
        t->iterations = a->iterations;
    if (s->stop == PS_STOP_NONE) {
        s->stop = w->s.stop;
        if (w->s.stop == PS_STOP_ERROR) /* say why: a corrupt checkpoint */
            s->error = w->s.error;
    }
    if (w->s.best.found)
        ps_search_offer(s, w->s.best.moves, w->s.best.len, w->s.best.value);
    if (w->s.late.found)
        ps_search_offer(s, w->s.late.moves, w->s.late.len, w->s.late.value);
}

/* A run stopped before any playout (a node budget of 1 shared by the
 * threads, memory for no thread) still has an answer in a score game: the
 * empty line, worth the start's value. */
static void offer_empty_line(struct ps_search *s)
{
    if (s->best.found || !(s->flags & PS_MAXIMISE))
        return;
    unsigned char *start = malloc(s->state_size);
    ps_move *moves = malloc((size_t)s->game->max_moves(s->inst) * sizeof *moves);
    if (start && moves) {
        s->game->initial_state(s->inst, start);
        bool over = s->game->moves(s->inst, start, moves, NULL) == 0;
        ps_search_offer(s, NULL, 0, over ? ps_final_value(s, start, 0) : 0);
    }
    free(start);
    free(moves);
}

/* For the on_progress hook: the workers' best line into s->best.moves (the
 * buffer *live), with its value. */
static void take_shared_line(struct ps_search *s, struct ps_mc_shared *sh,
                             struct ps_solution *live)
{
    pthread_mutex_lock(&sh->lock);
    if (sh->line_new && sh->line_len > live->cap) {
        ps_move *nl = realloc(live->moves, (size_t)sh->line_len * sizeof *nl);
        if (nl) {
            live->moves = nl;
            live->cap = sh->line_len;
        }
    }
    if (sh->line_new && sh->line_len <= live->cap) {
        if (sh->line_len)
            memcpy(live->moves, sh->line, (size_t)sh->line_len * sizeof *sh->line);
        live->len = sh->line_len;
        live->value = sh->line_value;
        live->found = true;
        sh->line_new = false;
    }
    pthread_mutex_unlock(&sh->lock);
    if (live->found)
        s->best = *live;
}

/* The calling thread: progress lines and the clock, until all are done. */
static void watch_workers(struct ps_search *s, struct ps_mc_shared *sh)
{
    uint64_t saved_nodes = s->limits.max_nodes;
    s->limits.max_nodes = 0; /* each worker keeps its own share */
    /* the workers count from 0; the run's counts go on from the caller's
     * (a nested run's are its caller's: ps_search_nest) */
    const uint64_t base_playouts = s->stats.playouts,
                   base_expanded = s->stats.expanded;
    struct ps_solution saved_best = s->best, live = {0};
    /* The hook formats moves with the game: never beside a worker of a game
     * that runs in one thread at a time (a Lua game). */
    void (*hook)(const struct ps_search *, void *) = s->on_progress;
    if (s->flags & PS_ONE_THREAD)
        s->on_progress = NULL;
    while (atomic_load(&sh->running) > 0) {
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
        s->stats.playouts = base_playouts + atomic_load(&sh->playouts);
        s->stats.expanded = base_expanded + atomic_load(&sh->expanded);
        s->best.found = atomic_load(&sh->best_found);
        s->best.value = atomic_load(&sh->best_value);
        if (sh->keep_line)
            take_shared_line(s, sh, &live);
        if (ps_search_poll(s))
            atomic_store(&sh->stop, (int)s->stop);
    }
    free(live.moves);
    s->on_progress = hook;
    s->limits.max_nodes = saved_nodes;
    s->best = saved_best;
    s->stats.playouts = base_playouts; /* merge_worker adds theirs */
    s->stats.expanded = base_expanded;
}

enum ps_status ps_mc_run(struct ps_search *s, ps_worker_fn fn,
                         const char *what, uint64_t worker_bytes)
{
    int threads = threads_that_fit(s, ps_thread_count(s),
                                   worker_scratch_bytes(s) + worker_bytes);
    struct ps_mc_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.fn = fn;
    sh.run = s;
    /* Not for a game that runs one thread at a time (watch_workers). */
    sh.keep_line = s->on_progress && !(s->flags & PS_ONE_THREAD);
    pthread_mutex_init(&sh.lock, NULL);
    struct ps_worker *workers = calloc((size_t)threads, sizeof *workers);
    struct ps_error err;
    ps_error_clear(&err);
    if (!workers) {
        s->stop = PS_STOP_MEMORY;
        goto done;
    }
    for (int i = 0; i < threads; i++)
        if (!worker_init(&workers[i], s, &sh, i, threads, &err)) {
            snprintf(s->note, sizeof s->note, "%.120s", err.msg);
            s->stop = PS_STOP_MEMORY;
            for (int k = 0; k <= i; k++) {
                ps_playout_free(&workers[k].po);
                free(workers[k].line);
            }
            goto done;
        }
    snprintf(s->note, sizeof s->note,
             "heuristic: Monte Carlo (%s, policy %s, %d thread%s)", what,
             ps_playout_policy_name(&workers[0].po), threads,
             threads == 1 ? "" : "s");
    atomic_store(&sh.running, threads);
    struct ps_threads fan;
    ps_threads_start(&fan, threads, worker_main, workers, sizeof *workers);
    /* A worker whose thread cannot start runs on this thread after the
     * watch, at the join (threads.h): the watch waits for the others. */
    atomic_fetch_sub(&sh.running, threads - ps_threads_started(&fan));
    watch_workers(s, &sh);
    ps_threads_join(&fan);
    /* The improvements were recorded as the workers found them; merging
     * offers them again and must not repeat them. */
    struct ps_anytime *anytime = s->anytime;
    int trace_limit = s->trace.limit;
    s->anytime = NULL;
    s->trace.limit = 0;
    for (int i = 0; i < threads; i++)
        merge_worker(s, &workers[i]);
    s->anytime = anytime;
    s->trace.limit = trace_limit;
    for (int i = 0; i < threads; i++) {
        ps_playout_free(&workers[i].po);
        free(workers[i].line);
        ps_search_free(&workers[i].s);
    }
done:
    offer_empty_line(s);
    free(workers);
    free(sh.line);
    pthread_mutex_destroy(&sh.lock);
    return PS_HEURISTIC;
}
