#include "playout.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PS_MAX_THREADS 64
#define TOPK_DEFAULT 3

bool ps_playout_init(struct ps_playout *p, const struct ps_game *g,
                     const void *inst)
{
    memset(p, 0, sizeof *p);
    size_t size = g->state_size(inst);
    p->game = g;
    p->inst = inst;
    p->state_size = size;
    p->maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    size_t nmoves = (size_t)g->max_moves(inst);
    p->moves = malloc(nmoves * sizeof *p->moves);
    p->gains = malloc(nmoves * sizeof *p->gains);
    p->line = malloc(((size_t)g->max_depth(inst) + 1) * sizeof *p->line);
    p->a = malloc(size);
    p->b = malloc(size);
    if (!p->moves || !p->gains || !p->line || !p->a || !p->b) {
        ps_playout_free(p);
        return false;
    }
    return true;
}

void ps_playout_free(struct ps_playout *p)
{
    free(p->moves);
    free(p->gains);
    free(p->line);
    free(p->a);
    free(p->b);
    p->moves = NULL;
    p->gains = NULL;
    p->line = NULL;
    p->a = p->b = NULL;
}

/* Uniform among the k moves with the largest gains: draw a rank, then find
 * the move of that rank (ties broken by move order). n and k are small. */
static int choose_topk(const ps_value *gains, int n, int k, struct ps_rng *rng)
{
    if (k > n)
        k = n;
    int rank = (int)ps_rng_below(rng, (uint32_t)k);
    int best = -1;
    /* Walk down the ranks: each round takes the best move below the last. */
    ps_value bound = 0;
    int bound_index = -1;
    for (int r = 0; r <= rank; r++) {
        best = -1;
        for (int i = 0; i < n; i++) {
            bool below = bound_index < 0 || gains[i] < bound ||
                         (gains[i] == bound && i > bound_index);
            if (below && (best < 0 || gains[i] > gains[best]))
                best = i;
        }
        bound = gains[best];
        bound_index = best;
    }
    return best;
}

/* One playout. `policy`/`topk` as in struct ps_playout; `record` keeps the
 * line. The uniform case is the same loop with no policy. */
static ps_value playout(struct ps_playout *p, const void *start,
                        struct ps_rng *rng, int max_len,
                        const struct ps_policy *policy, int topk)
{
    const struct ps_game *g = p->game;
    const void *inst = p->inst;
    bool want_gains = topk > 0 || (policy && policy->wants_gains);
    if (max_len <= 0)
        max_len = g->max_depth(inst);
    memcpy(p->a, start, p->state_size);
    ps_value value = 0;
    int len = 0;
    for (;;) {
        if (!p->maximise && (g->is_goal(inst, p->a) || len >= max_len))
            break;
        int n = g->moves(inst, p->a, p->moves, want_gains ? p->gains : NULL);
        if (n == 0) {
            if (p->maximise && g->end_value)
                value += g->end_value(inst, p->a);
            break;
        }
        int pick;
        if (topk > 0)
            pick = choose_topk(p->gains, n, topk, rng);
        else if (policy)
            pick = policy->choose(inst, p->a, p->moves, p->gains, n, rng);
        else
            pick = (int)ps_rng_below(rng, (uint32_t)n);
        ps_move m = p->moves[pick];
        p->line[len++] = m;
        value += g->apply(inst, p->a, m, p->b);
        unsigned char *t = p->a;
        p->a = p->b;
        p->b = t;
    }
    p->length = len;
    return value;
}

ps_value ps_playout_uniform(struct ps_playout *p, const void *start,
                            struct ps_rng *rng, int max_len)
{
    return playout(p, start, rng, max_len, NULL, 0);
}

ps_value ps_playout_run(struct ps_playout *p, const void *start,
                        struct ps_rng *rng, int max_len)
{
    return playout(p, start, rng, max_len, p->policy, p->topk);
}

/* ---- policy names ---- */

static const struct ps_policy *find_policy(const struct ps_game *g,
                                           const char *name, int topk,
                                           int *topk_out, bool *ok)
{
    *ok = true;
    *topk_out = 0;
    if (!name) {
        if (topk > 0) {
            *topk_out = topk;
            return NULL;
        }
        return g->policies && g->policies[0].name ? &g->policies[0] : NULL;
    }
    if (strcmp(name, "uniform") == 0)
        return NULL;
    if (strcmp(name, "topk") == 0) {
        *topk_out = topk > 0 ? topk : TOPK_DEFAULT;
        return NULL;
    }
    for (const struct ps_policy *q = g->policies; q && q->name; q++)
        if (strcmp(q->name, name) == 0)
            return q;
    *ok = false;
    return NULL;
}

static bool unknown_policy(const struct ps_game *g, const char *name,
                           struct ps_error *err)
{
    char known[256] = "uniform, topk";
    for (const struct ps_policy *q = g->policies; q && q->name; q++) {
        strncat(known, ", ", sizeof known - strlen(known) - 1);
        strncat(known, q->name, sizeof known - strlen(known) - 1);
    }
    return ps_error_set(err, NULL, 0, 0,
                        "unknown playout policy '%s' for game %s (known: %s)",
                        name, g->name, known);
}

bool ps_policy_check(const struct ps_game *g, const char *name,
                     struct ps_error *err)
{
    bool ok;
    int k;
    find_policy(g, name, 0, &k, &ok);
    return ok || unknown_policy(g, name, err);
}

bool ps_playout_set_policy(struct ps_playout *p, const char *name, int topk,
                           struct ps_error *err)
{
    bool ok;
    p->policy = find_policy(p->game, name, topk, &p->topk, &ok);
    return ok || unknown_policy(p->game, name, err);
}

const char *ps_playout_policy_name(const struct ps_playout *p)
{
    if (p->policy)
        return p->policy->name;
    return p->topk > 0 ? "topk" : "uniform";
}

/* ---- root-parallel runs ---- */

struct ps_mc_shared {
    struct ps_search *main;
    pthread_mutex_t lock;         /* main->best while the workers run */
    atomic_int stop;              /* main's stop reason, for the workers */
    atomic_int running;
    _Atomic uint64_t playouts, expanded;
    _Atomic int64_t best_value;   /* for progress lines */
    atomic_bool best_found;
    ps_worker_fn fn;
    void *arg;
};

static int thread_count(const struct ps_search *s)
{
    int n = s->opt.threads;
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

bool ps_worker_offer(struct ps_worker *w, const ps_move *moves, int len,
                     ps_value value)
{
    if (!ps_search_offer(&w->s, moves, len, value))
        return false;
    struct ps_mc_shared *sh = w->shared;
    pthread_mutex_lock(&sh->lock);
    if (!atomic_load(&sh->best_found) ||
        (w->s.flags & PS_MAXIMISE ? value > atomic_load(&sh->best_value)
                                  : value < atomic_load(&sh->best_value))) {
        atomic_store(&sh->best_value, value);
        atomic_store(&sh->best_found, true);
    }
    pthread_mutex_unlock(&sh->lock);
    return true;
}

ps_value ps_worker_playout(struct ps_worker *w, const void *state)
{
    ps_value v = ps_playout_run(&w->po, state, &w->rng, 0);
    w->s.stats.playouts++;
    w->s.stats.expanded += (uint64_t)w->po.length + 1;
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
    return w->s.limits.seconds > 0 && !ps_worker_stopped(w);
}

static void *worker_main(void *p)
{
    struct ps_worker *w = p;
    w->shared->fn(w, w->shared->arg);
    publish(w);
    atomic_fetch_sub(&w->shared->running, 1);
    return NULL;
}

static bool worker_init(struct ps_worker *w, struct ps_search *s,
                        struct ps_mc_shared *sh, int index, int threads,
                        struct ps_error *err)
{
    memset(w, 0, sizeof *w);
    w->s = *s;
    memset(&w->s.stats, 0, sizeof w->s.stats);
    memset(&w->s.best, 0, sizeof w->s.best);
    w->s.progress = false;
    w->s.opt.trace = 0;
    w->s.tick = 0;
    if (s->limits.max_nodes) {
        uint64_t share = s->limits.max_nodes / (uint64_t)threads;
        w->s.limits.max_nodes = share ? share : 1;
    }
    w->index = index;
    w->threads = threads;
    w->shared = sh;
    ps_rng_seed_stream(&w->rng, s->opt.seed, (uint64_t)index);
    w->line = malloc(((size_t)s->game->max_depth(s->inst) + 1) * sizeof *w->line);
    if (!w->line || !ps_playout_init(&w->po, s->game, s->inst))
        return ps_error_set(err, NULL, 0, 0, "out of memory");
    return ps_playout_set_policy(&w->po, s->opt.policy, s->opt.topk, err);
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
    if (s->stop == PS_STOP_NONE)
        s->stop = w->s.stop;
    if (w->s.best.found)
        ps_search_offer(s, w->s.best.moves, w->s.best.len, w->s.best.value);
}

/* The calling thread: progress lines and the clock, until all are done. */
static void watch_workers(struct ps_search *s, struct ps_mc_shared *sh)
{
    uint64_t saved_nodes = s->limits.max_nodes;
    s->limits.max_nodes = 0; /* each worker keeps its own share */
    struct ps_solution saved_best = s->best;
    while (atomic_load(&sh->running) > 0) {
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
        s->stats.playouts = atomic_load(&sh->playouts);
        s->stats.expanded = atomic_load(&sh->expanded);
        s->best.found = atomic_load(&sh->best_found);
        s->best.value = atomic_load(&sh->best_value);
        if (ps_search_poll(s))
            atomic_store(&sh->stop, (int)s->stop);
    }
    s->limits.max_nodes = saved_nodes;
    s->best = saved_best;
    s->stats.playouts = s->stats.expanded = 0;
}

enum ps_status ps_mc_run(struct ps_search *s, ps_worker_fn fn, void *arg,
                         const char *what, bool by_policy)
{
    int threads = thread_count(s);
    struct ps_mc_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.main = s;
    sh.fn = fn;
    sh.arg = arg;
    pthread_mutex_init(&sh.lock, NULL);
    struct ps_worker *workers = calloc((size_t)threads, sizeof *workers);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    struct ps_error err;
    ps_error_clear(&err);
    int started = 0;
    if (!workers || !ids) {
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
             "heuristic: Monte Carlo (%s%s%s, %d thread%s)", what,
             by_policy ? ", policy " : "",
             by_policy ? ps_playout_policy_name(&workers[0].po) : "", threads,
             threads == 1 ? "" : "s");
    atomic_store(&sh.running, threads);
    for (; started < threads; started++)
        if (pthread_create(&ids[started], NULL, worker_main, &workers[started])) {
            /* The others still run; count this one as done. */
            atomic_fetch_sub(&sh.running, threads - started);
            break;
        }
    if (started == 0)
        s->stop = PS_STOP_MEMORY;
    watch_workers(s, &sh);
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    for (int i = 0; i < started; i++)
        merge_worker(s, &workers[i]);
    for (int i = 0; i < threads; i++) {
        ps_playout_free(&workers[i].po);
        free(workers[i].line);
        ps_search_free(&workers[i].s);
    }
done:
    free(workers);
    free(ids);
    pthread_mutex_destroy(&sh.lock);
    return PS_HEURISTIC;
}
