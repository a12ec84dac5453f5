/*
 * dnmcs.c - distributed NMCS (--algo dnmcs), for score games.
 *
 * The simple master/worker layout over the moves of the top level (not
 * Cazenave & Jouandeau's root/median/client tree of 2009): rank 0 walks down
 * one game as a level-L NMCS does; at every step each legal move is a task,
 * the level-(L-1) search of the position after it (a playout at level 1),
 * run on whichever rank is free; the step plays the first move of the best
 * line known at the top level, which is memorised across steps as in nmcs.
 * A task travels as the position's flat bytes, the line that reached it
 * and its value; it comes back as the best line after it.
 *
 * A task's PRNG stream is (restart, step, move index): the same seed and
 * --level give the same game for any number of ranks and threads; ties
 * between moves go to the lowest index.
 */
#include <stdlib.h>
#include <string.h>

#include "mcjob.h"
#include "mpi_frontend.h"
#include "nmcs.h"
#include "pool.h"
#include "transport.h"

/* A task on the wire: this header, the prefix moves, the state. */
struct dnmcs_task {
    uint64_t stream;
    int64_t so_far;
    int32_t level;   /* the top level: the task searches level - 1 */
    int32_t depth;   /* prefix moves, the last one leads to the state */
};

static bool dnmcs_compute(void *ctx, const void *in, size_t len, void **out,
                          size_t *out_len)
{
    struct ps_mcjob_ctx *jc = ctx;
    struct ps_search *s = jc->s;
    struct dnmcs_task t;
    if (len < sizeof t)
        return false;
    memcpy(&t, in, sizeof t);
    size_t moves_bytes = (size_t)t.depth * sizeof(ps_move);
    if (t.depth < 1 || t.depth > s->game->max_depth(s->inst) || t.level < 1 ||
        len != sizeof t + moves_bytes + s->state_size)
        return false;
    struct ps_worker w;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_worker_init_solo(&w, s, t.stream, &err))
        return false;
    struct ps_nmcs *c = ps_nmcs_new(&w, t.level - 1);
    unsigned char *child = malloc(s->state_size);
    bool ok = c && child;
    if (ok) {
        const unsigned char *p = (const unsigned char *)in + sizeof t;
        memcpy(ps_nmcs_path(c), p, moves_bytes);
        memcpy(child, p + moves_bytes, s->state_size);
        ps_value v = 0;
        const ps_move *line = NULL;
        int n = 0;
        bool found = ps_nmcs_child(c, t.level, child, t.depth, t.so_far, &v,
                                   &line, &n);
        ok = ps_mcjob_encode(found, v, line, n, &w.s.stats, out, out_len);
    }
    free(child);
    ps_nmcs_free(c);
    ps_worker_free_solo(&w);
    return ok;
}

/* Rank 0: the game being walked down. */
struct dnmcs_root {
    struct ps_mcjob_batch batch; /* first: the pool's output and stop */
    struct ps_search *s;
    int level;
    uint64_t restart, step;
    unsigned char *cur, *next;
    ps_move *path;      /* the moves played from the start */
    int played;
    ps_value so_far;
    ps_move *moves;     /* the step's moves */
};

static bool dnmcs_input(void *arg, int task, void **in, size_t *len)
{
    struct dnmcs_root *r = arg;
    struct ps_search *s = r->s;
    size_t moves_bytes = (size_t)(r->played + 1) * sizeof(ps_move);
    size_t total = sizeof(struct dnmcs_task) + moves_bytes + s->state_size;
    unsigned char *buf = malloc(total);
    if (!buf)
        return false;
    ps_value gain = s->game->apply(s->inst, r->cur, r->moves[task], r->next);
    struct dnmcs_task t = {
        .stream = (r->restart << 40) ^ (r->step << 16) ^ (uint64_t)task,
        .so_far = r->so_far + gain,
        .level = r->level,
        .depth = r->played + 1,
    };
    r->path[r->played] = r->moves[task];
    memcpy(buf, &t, sizeof t);
    memcpy(buf + sizeof t, r->path, moves_bytes);
    memcpy(buf + sizeof t + moves_bytes, r->next, s->state_size);
    *in = buf;
    *len = total;
    return true;
}

/* One walk down the game; false when stopped or failed. */
static bool dnmcs_walk(struct dnmcs_root *r, struct ps_pool *pool,
                       ps_move *best, int max_moves)
{
    struct ps_search *s = r->s;
    const struct ps_game *g = s->game;
    g->initial_state(s->inst, r->cur);
    r->played = 0;
    r->so_far = 0;
    bool found = false;
    ps_value best_value = 0;
    int best_len = 0; /* best[0..best_len): the whole line from the start */
    for (r->step = 0;; r->step++) {
        int n = g->moves(s->inst, r->cur, r->moves, NULL);
        s->stats.expanded++;
        if (n == 0) {
            if (!found) {
                ps_value v = ps_final_value(s, r->cur, r->so_far);
                ps_search_offer(s, r->path, r->played, v);
            }
            s->stats.iterations++;
            return true;
        }
        if (n > max_moves)
            n = max_moves;
        struct ps_mcjob_batch *b = &r->batch;
        ps_mcjob_batch_clear(b);
        bool ok = ps_pool_map(pool, n, NULL, dnmcs_input, ps_mcjob_output,
                              ps_mcjob_stop, r) && !b->bad;
        s->stats.generated += (uint64_t)n;
        for (int k = 0; k < n; k++) {
            if (!b->got[k])
                continue;
            const struct ps_mcjob_result *res = &b->res[k];
            ps_mcjob_add_stats(&s->stats, &res->stats);
            if (res->found && (!found || res->value > best_value)) {
                found = true;
                best_value = res->value;
                best[r->played] = r->moves[k];
                memcpy(best + r->played + 1, b->lines[k],
                       (size_t)res->len * sizeof *best);
                best_len = r->played + 1 + res->len;
                ps_search_offer(s, best, best_len, best_value);
            }
        }
        if (!ok) {
            s->stop = PS_STOP_MEMORY;
            return false;
        }
        if (ps_search_poll(s) || !found)
            return false;
        /* Play the next move of the best line memorised at this level. */
        ps_move m = best[r->played];
        r->so_far += g->apply(s->inst, r->cur, m, r->next);
        r->path[r->played++] = m;
        unsigned char *t = r->cur;
        r->cur = r->next;
        r->next = t;
    }
}

static enum ps_status dnmcs_run(struct ps_search *s)
{
    int threads = ps_mcjob_threads(s);
    struct ps_mcjob_ctx jc;
    void *ctxs[PS_MPI_MAX_THREADS];
    ps_mcjob_contexts(&jc, s, ctxs, threads);
    struct ps_pool pool = {dnmcs_compute, ctxs, threads};
    if (ps_mpi_rank() != 0) {
        if (!ps_pool_serve(&pool))
            s->stop = PS_STOP_MEMORY;
        return PS_HEURISTIC;
    }
    const struct ps_game *g = s->game;
    int max_moves = g->max_moves(s->inst);
    size_t depth = (size_t)g->max_depth(s->inst) + 1;
    struct dnmcs_root r = {.s = s, .level = ps_nmcs_level(s)};
    r.cur = malloc(s->state_size);
    r.next = malloc(s->state_size);
    r.path = malloc(depth * sizeof *r.path);
    r.moves = malloc((size_t)max_moves * sizeof *r.moves);
    ps_move *best = malloc(depth * sizeof *best);
    bool batch = ps_mcjob_batch_init(&r.batch, s, max_moves);
    if (r.cur && r.next && r.path && r.moves && batch && best) {
        snprintf(s->note, sizeof s->note,
                 "heuristic: distributed nmcs (level %d, a task per move of "
                 "the top level; %d ranks x %d threads)",
                 ps_nmcs_level(s), ps_mpi_size(), threads);
        for (r.restart = 0; dnmcs_walk(&r, &pool, best, max_moves) &&
                            s->limits.seconds > 0 && !ps_search_poll(s);
             r.restart++)
            ;
    } else {
        s->stop = PS_STOP_MEMORY;
    }
    ps_pool_end();
    free(best);
    free(r.cur);
    free(r.next);
    free(r.path);
    free(r.moves);
    ps_mcjob_batch_free(&r.batch);
    return PS_HEURISTIC;
}

/* dnmcs's options (options.h) */
static const struct ps_option dnmcs_options[] = {
    PS_NMCS_OPTION_LEVEL,
    {0},
};

const struct ps_algorithm ps_algo_dnmcs = {
    .name = "dnmcs",
    .summary = "distributed NMCS over MPI ranks (psolve-mpi; heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = dnmcs_run,
    .options = dnmcs_options,
    .options_size = sizeof(struct ps_nmcs_options),
    .options_default = &ps_nmcs_default_options,
};
