/*
 * nmcs.c - Nested Monte Carlo Search (Cazenave 2009).
 *
 * A level-0 search is one playout. A level-L search walks down one game:
 * at every state it runs a level-(L-1) search after each legal move, and
 * then plays the next move of the BEST LINE FOUND SO FAR at this level,
 * which may come from an earlier step. Memorising that line is what makes
 * NMCS strong: a lucky line found early is never thrown away because the
 * lower levels happen to do worse from the next state.
 *
 * Cost: a level-L search makes about (branching x depth)^L playouts, so
 * each level multiplies the time by a few hundred to a few thousand.
 * Threads are root-parallel; under --time a finished search is followed by
 * another (a new random stream) until time is up.
 */
#include <stdlib.h>
#include <string.h>

#include "nmcs.h"

#define NMCS_MAX_LEVEL PS_NMCS_MAX_LEVEL

struct nmcs_level {
    unsigned char *cur, *child;
    ps_move *moves;
    ps_move *best; /* the best line from this level's start state */
};

/* Where the top level stands between two of its steps: all a checkpoint
 * keeps of a search (the levels below start afresh at every step). */
struct nmcs_top {
    int played;   /* moves of the best line already played */
    bool found;
    ps_value best;
    int best_len; /* of lv[top].best */
};

struct ps_nmcs {
    struct ps_worker *w;
    ps_move *path; /* path[0..depth): the moves from the initial state */
    struct nmcs_level lv[NMCS_MAX_LEVEL + 1];
    /* --resume: the top level's first search starts from here. */
    bool resume;
    struct nmcs_top resume_at;
};

/* Evaluate the move just written to path[depth - 1], leading to `child`
 * worth `so_far`: a playout at level 1, a nested search above. Leaves the
 * line after the move in *line[0..*len). False when stopped with nothing. */
static bool nmcs_search(struct ps_nmcs *c, int level, const void *state,
                        int depth, ps_value so_far, ps_value *value, int *len);

static bool nmcs_child(struct ps_nmcs *c, int level, const void *child, int depth,
                       ps_value so_far, ps_value *value, const ps_move **line,
                       int *len)
{
    struct ps_worker *w = c->w;
    if (level > 1) {
        *line = c->lv[level - 1].best;
        return nmcs_search(c, level - 1, child, depth, so_far, value, len);
    }
    if (ps_worker_stopped(w))
        return false;
    *value = so_far + ps_worker_playout(w, child, depth);
    ps_worker_offer_playout(w, c->path, depth, *value);
    *line = w->po.line;
    *len = w->po.length;
    return true;
}

/* --trace: a step of the top level, the move it plays and the best value
 * its line is worth. */
static void nmcs_trace_step(struct ps_nmcs *c, const void *state, ps_move m,
                            int played, ps_value so_far, ps_value best)
{
    struct ps_worker *w = c->w;
    char text[64];
    w->s.game->format_move(w->s.inst, state, m, text, sizeof text);
    ps_worker_trace(w, &(struct ps_trace_event){
                           .kind = PS_TRACE_LEVEL,
                           .has = PS_TF_LEVEL | PS_TF_ITERATION | PS_TF_DEPTH |
                                  PS_TF_G | PS_TF_VALUE,
                           .level = ps_nmcs_level(&w->s),
                           .iteration = w->s.stats.iterations + 1,
                           .depth = played,
                           .g = so_far,
                           .value = best,
                           .move = text});
}

/* ---- --checkpoint (checkpoint.h) ----
 * The safe point is the top level between two steps: the PRNG, the
 * counters, the moves played, the best line and its value. */

static void nmcs_checkpoint(struct ps_nmcs *c, const struct nmcs_top *at)
{
    struct ps_worker *w = c->w;
    struct ps_ckpt_buf b;
    if (!ps_checkpoint_worker_save(&w->s, w->index, &w->rng, &b))
        return;
    ps_ckpt_put_u64(&b, (uint64_t)at->played);
    ps_ckpt_put_u64(&b, at->found);
    ps_ckpt_put_u64(&b, (uint64_t)at->best);
    ps_ckpt_put_u64(&b, (uint64_t)at->best_len);
    ps_ckpt_put(&b, c->lv[ps_nmcs_level(&w->s)].best,
                (size_t)at->best_len * sizeof(ps_move));
    ps_checkpoint_save(&w->s, w->index, &b);
}

/* The worker's state from a checkpoint, when the run resumes; false for
 * a fresh start. */
static bool nmcs_resume(struct ps_nmcs *c)
{
    struct ps_worker *w = c->w;
    struct ps_ckpt_reader r;
    if (!ps_checkpoint_worker_resume(&w->s, w->index, w->threads, &w->rng, &r))
        return false;
    uint64_t depth = (uint64_t)w->s.game->max_depth(w->s.inst);
    struct nmcs_top *at = &c->resume_at;
    at->played = (int)ps_ckpt_get_count(&r, depth);
    at->found = ps_ckpt_get_u64(&r) != 0;
    at->best = (ps_value)ps_ckpt_get_u64(&r);
    at->best_len = (int)ps_ckpt_get_count(&r, depth);
    ps_ckpt_get(&r, c->lv[ps_nmcs_level(&w->s)].best,
                (size_t)at->best_len * sizeof(ps_move));
    /* the best line is replayed (a playout, worth its value): its first
     * `played` moves are played again on resume */
    if (at->played > at->best_len ||
        (at->found ? !ps_checkpoint_line_sound(
                         &w->s, c->lv[ps_nmcs_level(&w->s)].best,
                         at->best_len, at->best, false)
                   : at->best_len != 0 || at->played != 0))
        r.bad = true;
    if (!ps_checkpoint_read_end(&w->s, w->index, &r))
        return false;
    c->resume = true;
    return true;
}

/* The resumed top level: its state after the moves it had played, and the
 * score they made (so_far + their gains). */
static ps_value nmcs_replay(struct ps_nmcs *c, struct nmcs_level *L,
                            ps_value so_far, int played)
{
    const struct ps_game *g = c->w->s.game;
    for (int k = 0; k < played; k++) {
        so_far += g->apply(c->w->s.inst, L->cur, L->best[k], L->child);
        c->path[k] = L->best[k];
        unsigned char *t = L->cur;
        L->cur = L->child;
        L->child = t;
    }
    return so_far;
}

/* A level-`level` search from `state`, reached by path[0..depth) with value
 * so_far. Its best line goes to lv[level].best[0..*len), worth *value. */
static bool nmcs_search(struct ps_nmcs *c, int level, const void *state,
                        int depth, ps_value so_far, ps_value *value, int *len)
{
    struct ps_worker *w = c->w;
    const struct ps_game *g = w->s.game;
    const void *inst = w->s.inst;
    struct nmcs_level *L = &c->lv[level];
    memcpy(L->cur, state, w->s.state_size);
    bool top = level == ps_nmcs_level(&w->s) && depth == 0;
    struct nmcs_top at = {0};
    if (top && c->resume) {
        at = c->resume_at;
        c->resume = false;
    }
    bool found = at.found;
    ps_value best = at.best;
    int best_len = at.best_len, played = at.played;
    ps_value g_so_far = nmcs_replay(c, L, so_far, played);
    for (;;) {
        if (top)
            nmcs_checkpoint(c, &(struct nmcs_top){played, found, best, best_len});
        int n = g->moves(inst, L->cur, L->moves, NULL);
        w->s.stats.expanded++;
        if (n == 0) {
            /* Only the start can be terminal before a line is known: every
             * later state lies on the best line. */
            if (!found) {
                found = true;
                best = ps_final_value(&w->s, L->cur, g_so_far);
                best_len = played;
                ps_worker_offer(w, c->path, depth + played, best);
            }
            break;
        }
        if (!ps_search_line_fits(&w->s, depth + played))
            return false;
        for (int i = 0; i < n; i++) {
            ps_move m = L->moves[i];
            ps_value gain = g->apply(inst, L->cur, m, L->child);
            w->s.stats.generated++;
            c->path[depth + played] = m;
            ps_value v;
            const ps_move *line;
            int line_len;
            if (!nmcs_child(c, level, L->child, depth + played + 1,
                            g_so_far + gain, &v, &line, &line_len))
                goto out;
            if (!found || v > best) {
                found = true;
                best = v;
                L->best[played] = m;
                memcpy(L->best + played + 1, line, (size_t)line_len * sizeof *line);
                best_len = played + 1 + line_len;
            }
            if (w->s.stop != PS_STOP_NONE)
                goto out;
        }
        ps_move m = L->best[played];
        if (level == ps_nmcs_level(&w->s) && ps_worker_tracing(w, PS_TRACE_LEVEL))
            nmcs_trace_step(c, L->cur, m, played, g_so_far, best);
        g_so_far += g->apply(inst, L->cur, m, L->child);
        c->path[depth + played] = m;
        played++;
        unsigned char *t = L->cur;
        L->cur = L->child;
        L->child = t;
    }
out:
    *value = best;
    *len = best_len;
    return found;
}

static void nmcs_free(struct ps_nmcs *c)
{
    free(c->path);
    for (int l = 0; l <= NMCS_MAX_LEVEL; l++) {
        free(c->lv[l].cur);
        free(c->lv[l].child);
        free(c->lv[l].moves);
        free(c->lv[l].best);
    }
}

/* The bytes nmcs_alloc allocates: the path, and per level two states, the
 * moves and the best line. */
static uint64_t nmcs_bytes(const struct ps_search *s, int levels)
{
    uint64_t depth = (uint64_t)s->game->max_depth(s->inst) + 1;
    uint64_t nmoves = (uint64_t)s->game->max_moves(s->inst);
    uint64_t per_level = 2 * (uint64_t)s->state_size +
                         (nmoves + depth) * sizeof(ps_move);
    return depth * sizeof(ps_move) + (uint64_t)levels * per_level;
}

static bool nmcs_alloc(struct ps_nmcs *c, int levels)
{
    const struct ps_game *g = c->w->s.game;
    const void *inst = c->w->s.inst;
    size_t depth = (size_t)g->max_depth(inst) + 1;
    size_t size = c->w->s.state_size;
    if (!ps_memory_reserve(&c->w->s, nmcs_bytes(&c->w->s, levels)))
        return false;
    c->path = malloc(depth * sizeof *c->path);
    if (!c->path)
        return false;
    for (int l = 1; l <= levels; l++) {
        struct nmcs_level *L = &c->lv[l];
        L->cur = malloc(size);
        L->child = malloc(size);
        L->moves = malloc((size_t)g->max_moves(inst) * sizeof *L->moves);
        L->best = malloc(depth * sizeof *L->best);
        if (!L->cur || !L->child || !L->moves || !L->best)
            return false;
    }
    return true;
}

/* ---- the pieces, for the distributed nmcs (nmcs.h) ---- */

struct ps_nmcs *ps_nmcs_new(struct ps_worker *w, int levels)
{
    struct ps_nmcs *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->w = w;
    if (levels > NMCS_MAX_LEVEL || !nmcs_alloc(c, levels)) {
        ps_nmcs_free(c);
        return NULL;
    }
    return c;
}

void ps_nmcs_free(struct ps_nmcs *c)
{
    if (!c)
        return;
    nmcs_free(c);
    free(c);
}

ps_move *ps_nmcs_path(struct ps_nmcs *c)
{
    return c->path;
}

bool ps_nmcs_child(struct ps_nmcs *c, int level, const void *child, int depth,
                   ps_value so_far, ps_value *value, const ps_move **line,
                   int *len)
{
    return nmcs_child(c, level, child, depth, so_far, value, line, len);
}

const struct ps_nmcs_options ps_nmcs_default_options = {.level = 2};

static void nmcs_worker_run(struct ps_worker *w)
{
    int level = ps_nmcs_level(&w->s);
    struct ps_nmcs c;
    memset(&c, 0, sizeof c);
    c.w = w;
    unsigned char *start = malloc(w->s.state_size);
    if (!start || !nmcs_alloc(&c, level)) {
        w->s.stop = PS_STOP_MEMORY;
    } else {
        w->s.game->initial_state(w->s.inst, start);
        nmcs_resume(&c);
        do {
            ps_value v;
            int len;
            nmcs_search(&c, level, start, 0, 0, &v, &len);
            w->s.stats.iterations++;
        } while (ps_worker_again(w));
    }
    free(start);
    nmcs_free(&c);
}

static enum ps_status nmcs_run(struct ps_search *s)
{
    int level = ps_nmcs_level(s);
    char what[64];
    snprintf(what, sizeof what, "nmcs level %d", level);
    return ps_mc_run(s, nmcs_worker_run, what, nmcs_bytes(s, level));
}

/* nmcs's options (options.h); the playout's are shared */
static const struct ps_option nmcs_options[] = {
    PS_NMCS_OPTION_LEVEL,
    {0},
};

const struct ps_algorithm ps_algo_nmcs = {
    .name = "nmcs",
    .summary = "Nested Monte Carlo Search, best line memorised (heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = nmcs_run,
    .options = nmcs_options,
    .options_size = sizeof(struct ps_nmcs_options),
    .options_default = &ps_nmcs_default_options,
    .shared_options = ps_playout_options,
    .checkpoint = PS_CHECKPOINT_THREADS,
};
