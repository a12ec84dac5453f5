/*
 * dnrpa.c - distributed NRPA (--algo dnrpa), for score games.
 *
 * The synchronous root/worker layout of Negrevergne & Cazenave (2017):
 * rank 0 runs the top level L of NRPA; each of its --iterations steps sends
 * the current policy to --tasks level-(L-1) searches run in parallel on the
 * ranks (the "worker" level), keeps the best line they return (ties go to
 * the lowest task number), and adapts the policy towards the best line of
 * the level, as nrpa does. With --tasks 1 it is nrpa's top level. Not built:
 * Nagórko's speculative iterations (2019), which start the next step before
 * the last result is in.
 *
 * A task's PRNG stream is its place in the run: (restart, step, task); so
 * a fixed --seed, --level, --iterations and --tasks give the same line for
 * any number of ranks and threads. The policy travels sparse: the (code,
 * weight) pairs that are not zero.
 *
 * Under --time or --max-nodes the run is one top level that steps until
 * the budget ends, step i's tasks running their levels with --iterations
 * + G i iterations (--grow G, nrpa's schedule: nrpa.h); with --grow 0, or
 * without a budget, a top level is --iterations steps, and under --time a
 * finished one is followed by another (a restart).
 *
 * --checkpoint: rank 0 saves the top level before each step (its policy,
 * step, restart and best line, the counters); the tasks' streams are their
 * place in the run, so nothing else is needed, and a resumed run ends
 * where the uninterrupted one ends, on any number of ranks.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mcjob.h"
#include "mpi_frontend.h"
#include "nrpa.h"
#include "pool.h"
#include "transport.h"

#define DNRPA_DEFAULT_TASKS 8

/* dnrpa's own options: nrpa's nesting first (nrpa.h), then its own */
struct dnrpa_options {
    struct ps_nrpa_depth depth; /* level, iterations (nrpa.h) */
    int tasks; /* level L-1 searches per top-level step */
    double grow; /* under a budget, one top level whose tasks grow */
};

static const struct dnrpa_options *dnrpa_options(const struct ps_search *s)
{
    return ps_search_algo_options(s);
}

struct dnrpa_weight {
    uint32_t code;
    uint32_t pad; /* zero: no uninitialised bytes on the wire */
    double w;
};

/* A task on the wire: this header, then nweights dnrpa_weight. */
struct dnrpa_task {
    uint64_t stream;
    int32_t level;
    uint32_t nweights;
    int32_t iterations; /* of each of the task's levels */
    uint32_t pad;       /* zero */
};

static bool dnrpa_compute(void *ctx, const void *in, size_t len, void **out,
                          size_t *out_len)
{
    struct ps_mcjob_ctx *jc = ctx;
    struct dnrpa_task t;
    if (len < sizeof t)
        return false;
    memcpy(&t, in, sizeof t);
    if (len != sizeof t + (size_t)t.nweights * sizeof(struct dnrpa_weight) ||
        t.iterations < 1)
        return false;
    struct ps_worker w;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_worker_init_solo(&w, jc->s, t.stream, &err))
        return false;
    struct ps_nrpa *c = ps_nrpa_new(&w, t.level);
    bool ok = c != NULL;
    if (ok) {
        ps_nrpa_set_iterations(c, t.iterations);
        double *pol = ps_nrpa_policy(c, t.level);
        uint32_t space = ps_nrpa_space(c);
        const unsigned char *p = (const unsigned char *)in + sizeof t;
        for (uint32_t i = 0; i < t.nweights; i++) {
            struct dnrpa_weight wt;
            memcpy(&wt, p + i * sizeof wt, sizeof wt);
            if (wt.code < space)
                pol[wt.code] = wt.w;
        }
        ps_value v = 0;
        bool found = ps_nrpa_search(c, t.level, &v);
        int n;
        const ps_move *line = ps_nrpa_line(c, t.level, &n);
        ok = ps_mcjob_encode(found, v, line, n, &w.s, out, out_len);
    }
    ps_nrpa_free(c);
    ps_worker_free_solo(&w);
    return ok;
}

/* Rank 0's state between the steps of the top level. */
struct dnrpa_root {
    struct ps_mcjob_batch batch; /* first: the pool's output and stop */
    struct ps_search *s;
    struct ps_nrpa *c;       /* the top level's policy and adapt step */
    double *pol;
    uint32_t space;
    int level, tasks;
    bool grows;              /* --grow under a budget: one top level */
    uint64_t restart, step;
    /* the top level's best line so far in this restart */
    bool found;
    ps_value best_value;
    ps_move *best;           /* max_depth + 1 */
    int best_len;
    bool resumed;            /* the next top level goes on from a checkpoint */
};

static bool dnrpa_input(void *arg, int task, void **in, size_t *len)
{
    struct dnrpa_root *r = arg;
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->space; i++)
        n += r->pol[i] != 0.0;
    size_t total = sizeof(struct dnrpa_task) + (size_t)n * sizeof(struct dnrpa_weight);
    unsigned char *buf = malloc(total);
    if (!buf)
        return false;
    const struct dnrpa_options *o = dnrpa_options(r->s);
    struct dnrpa_task t = {
        .stream = (r->restart << 40) ^ (r->step << 16) ^ (uint64_t)task,
        .level = r->level - 1,
        .nweights = n,
        .iterations = r->grows ? ps_nrpa_grown(o->depth.iterations, o->grow,
                                               r->step)
                               : o->depth.iterations,
    };
    memcpy(buf, &t, sizeof t);
    unsigned char *p = buf + sizeof t;
    for (uint32_t i = 0; i < r->space; i++)
        if (r->pol[i] != 0.0) {
            struct dnrpa_weight wt = {i, 0, r->pol[i]};
            memcpy(p, &wt, sizeof wt);
            p += sizeof wt;
        }
    *in = buf;
    *len = total;
    return true;
}

/* --checkpoint: the top level before a step (one part). */
static void dnrpa_checkpoint(struct dnrpa_root *r)
{
    struct ps_ckpt_buf b;
    if (!ps_checkpoint_search_save(r->s, 0, &b))
        return;
    ps_ckpt_put_u64(&b, r->restart);
    ps_nrpa_put_level(&b, r->c,
                      &(struct ps_nrpa_level_state){.iteration = (int)r->step,
                                                    .found = r->found,
                                                    .best = r->best_value,
                                                    .line = r->best,
                                                    .len = r->best_len,
                                                    .pol = r->pol});
    ps_checkpoint_save(r->s, 0, &b);
}

/* The steps of a top level: --iterations, or under --grow as many as the
 * budget holds. */
static int dnrpa_steps(const struct dnrpa_root *r)
{
    return r->grows ? INT_MAX : ps_nrpa_depth(r->s)->iterations;
}

/* The top level from a checkpoint, when the run resumes (the search
 * stopped on an error when the part does not read back). */
static void dnrpa_resume(struct dnrpa_root *r)
{
    struct ps_search *s = r->s;
    struct ps_ckpt_reader rd;
    if (!ps_checkpoint_search_resume(s, 0, 1, &rd))
        return;
    r->restart = ps_ckpt_get_u64(&rd);
    struct ps_nrpa_level_state st = {.line = r->best, .pol = r->pol};
    ps_nrpa_get_level(&rd, r->c, dnrpa_steps(r), &st);
    if (st.past) {
        ps_nrpa_refuse_past(s, &st, dnrpa_steps(r));
        return;
    }
    if (!ps_checkpoint_read_end(s, 0, &rd))
        return;
    r->step = (uint64_t)st.iteration;
    r->found = st.found;
    r->best_value = st.best;
    r->best_len = st.len;
    r->resumed = true;
}

/* One run of the top level (or the rest of a resumed one); false when
 * stopped or failed. */
static bool dnrpa_top(struct dnrpa_root *r, struct ps_pool *pool)
{
    struct ps_search *s = r->s;
    if (!r->resumed) {
        memset(r->pol, 0, (size_t)r->space * sizeof *r->pol);
        r->step = 0;
        r->found = false;
        r->best_value = 0;
        r->best_len = 0;
    }
    r->resumed = false;
    bool going = true;
    for (; going && r->step < (uint64_t)dnrpa_steps(r); r->step++) {
        dnrpa_checkpoint(r);
        struct ps_mcjob_batch *b = &r->batch;
        ps_mcjob_batch_clear(b);
        if (!ps_pool_map(pool, r->tasks, NULL, dnrpa_input, ps_mcjob_output,
                         ps_mcjob_stop, r) || b->bad) {
            s->stop = PS_STOP_MEMORY;
            going = false;
        }
        /* The step's best: first the tasks in order (ties to the lowest),
         * then against the level's best (ties to the newer, as nrpa). */
        int pick = -1;
        for (int k = 0; k < r->tasks; k++) {
            if (!b->got[k])
                continue;
            ps_mcjob_add_stats(&s->stats, &b->res[k].stats);
            if (b->res[k].found)
                ps_search_offer(s, b->lines[k], b->res[k].len, b->res[k].value);
            if (b->res[k].found &&
                (pick < 0 || b->res[k].value > b->res[pick].value))
                pick = k;
        }
        if (pick >= 0 && (!r->found || b->res[pick].value >= r->best_value)) {
            r->found = true;
            r->best_value = b->res[pick].value;
            r->best_len = b->res[pick].len;
            memcpy(r->best, b->lines[pick], (size_t)r->best_len * sizeof *r->best);
        }
        if (pick >= 0) /* the step, as nrpa traces its top level's */
            ps_search_trace_event(
                s, &(struct ps_trace_event){
                       .kind = PS_TRACE_LEVEL,
                       .has = PS_TF_LEVEL | PS_TF_ITERATION | PS_TF_VALUE |
                              PS_TF_LEN,
                       .level = r->level,
                       .iteration = (int)r->step + 1,
                       .value = r->best_value,
                       .len = r->best_len});
        if (ps_search_poll(s) || pick < 0)
            going = false;
        else if (r->found)
            ps_nrpa_adapt(r->c, r->pol, r->best, r->best_len);
    }
    s->stats.iterations++;
    return going;
}

static enum ps_status dnrpa_run(struct ps_search *s)
{
    int threads = ps_mcjob_threads(s);
    int tasks = dnrpa_options(s)->tasks;
    struct ps_mcjob_ctx jc;
    void *ctxs[PS_MPI_MAX_THREADS];
    ps_mcjob_contexts(&jc, s, ctxs, threads);
    struct ps_pool pool = {dnrpa_compute, ctxs, threads};
    if (ps_mpi_rank() != 0) {
        if (!ps_pool_serve(&pool))
            s->stop = PS_STOP_MEMORY;
        return PS_HEURISTIC;
    }
    struct ps_worker w;
    struct ps_error err;
    ps_error_clear(&err);
    const struct dnrpa_options *o = dnrpa_options(s);
    struct dnrpa_root r = {
        .s = s,
        .level = o->depth.level,
        .tasks = tasks,
        .grows = ps_nrpa_grows(s, o->grow),
    };
    bool have_worker = ps_worker_init_solo(&w, s, 0, &err), ok = have_worker;
    if (ok) {
        r.c = ps_nrpa_new(&w, ps_nrpa_depth(s)->level);
        r.best = malloc(((size_t)s->game->max_depth(s->inst) + 1) *
                        sizeof *r.best);
        ok = ps_mcjob_batch_init(&r.batch, s, tasks) && r.c && r.best;
    }
    if (ok) {
        r.space = ps_nrpa_space(r.c);
        r.pol = ps_nrpa_policy(r.c, ps_nrpa_depth(s)->level);
        dnrpa_resume(&r);
        size_t room = sizeof s->note;
        int n = snprintf(s->note, room,
                         "heuristic: distributed nrpa (level %d, %d iterations",
                         o->depth.level, o->depth.iterations);
        if (r.grows && n > 0 && (size_t)n < room)
            n += snprintf(s->note + n, room - (size_t)n, ", %g more a step",
                          o->grow);
        if (n > 0 && (size_t)n < room)
            snprintf(s->note + n, room - (size_t)n,
                     ", %d tasks per step; %d ranks x %d threads)", tasks,
                     ps_mpi_size(), threads);
        /* Under --time a finished top level is followed by another. */
        for (; s->stop == PS_STOP_NONE && dnrpa_top(&r, &pool) &&
               s->limits.seconds > 0;
             r.restart++)
            ;
    } else {
        s->stop = PS_STOP_MEMORY;
    }
    ps_pool_end();
    free(r.best);
    ps_mcjob_batch_free(&r.batch);
    ps_nrpa_free(r.c);
    if (have_worker)
        ps_worker_free_solo(&w);
    return PS_HEURISTIC;
}

/* dnrpa's options (options.h): nrpa's level and iterations, then its own */
static const struct dnrpa_options dnrpa_defaults = {
    .depth = PS_NRPA_DEPTH_DEFAULTS,
    .tasks = DNRPA_DEFAULT_TASKS,
    .grow = 1.0,
};

static const struct ps_option dnrpa_option_table[] = {
    PS_NRPA_OPTION_LEVEL,
    PS_NRPA_OPTION_ITERATIONS,
    {.name = "tasks",
     .type = PS_OPT_INT,
     .offset = offsetof(struct dnrpa_options, tasks),
     .min = 1,
     .max = 1e9,
     .arg = "T",
     .def = "8",
     .doc = "level L-1 searches per top-level step; the same --seed, --level, --iterations and --tasks give the same answer on any ranks"},
    PS_NRPA_OPTION_GROW(struct dnrpa_options, grow),
    {0},
};

const struct ps_algorithm ps_algo_dnrpa = {
    .name = "dnrpa",
    .summary = "distributed NRPA over MPI ranks (psolve-mpi; heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = dnrpa_run,
    .options = dnrpa_option_table,
    .options_size = sizeof(struct dnrpa_options),
    .options_default = &dnrpa_defaults,
    .checkpoint = PS_CHECKPOINT_SEARCH,
};
