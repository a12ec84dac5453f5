/*
 * mc.c - flat Monte Carlo: at every step of one game, try each legal move,
 * finish the game from it `--rollouts R` times with the playout policy
 * (default with --topk K: uniform among the K moves with the largest gain),
 * and play the move with the best mean (or, with --select max, the best
 * single rollout). Every rollout is a complete line, so the best one seen is
 * kept as the answer: often better than the line actually played.
 *
 * Threads are root-parallel: each plays its own game with its own stream.
 * Under --time, a finished game is followed by another until time is up.
 */
#include <stdlib.h>
#include <string.h>

#include "worker.h"

/* mc's own options (its table is at the end of the file) */
struct mc_options {
    int rollouts;    /* per move, at least 1 */
    bool select_max; /* compare moves by their best rollout, not the mean */
};

struct mc_worker {
    ps_move *moves, *path;
    unsigned char *cur, *child;
};

/* Judge move `m` from `cur` (reached by path[0..depth), worth `so_far`) by
 * R rollouts. Returns false when stopped before any rollout finished. */
static bool mc_judge(struct ps_worker *w, struct mc_worker *c, int depth,
                     ps_move m, ps_value so_far, double *score)
{
    const struct ps_search *s = &w->s;
    const struct mc_options *o = ps_search_algo_options(s);
    ps_value base = so_far + s->game->apply(s->inst, c->cur, m, c->child);
    w->s.stats.generated++;
    c->path[depth] = m;
    double sum = 0;
    ps_value max = 0;
    int done = 0;
    for (int r = 0; r < o->rollouts; r++) {
        if (ps_worker_stopped(w))
            break;
        ps_value v = base + ps_worker_playout(w, c->child, depth + 1);
        ps_worker_offer_playout(w, c->path, depth + 1, v);
        sum += (double)v;
        if (done == 0 || v > max)
            max = v;
        done++;
    }
    if (done == 0)
        return false;
    *score = o->select_max ? (double)max : sum / done;
    return true;
}

/* --trace: the move a step of the game plays, its mean (or max) and the
 * number of moves it chose from. */
static void mc_trace_step(struct ps_worker *w, const struct mc_worker *c,
                          int depth, ps_value total, ps_move m, double score,
                          int n)
{
    char text[64];
    w->s.game->format_move(w->s.inst, c->cur, m, text, sizeof text);
    ps_worker_trace(w, &(struct ps_trace_event){
                           .kind = PS_TRACE_LEVEL,
                           .has = PS_TF_LEVEL | PS_TF_DEPTH | PS_TF_G |
                                  PS_TF_KEY | PS_TF_CANDIDATES,
                           .level = 1,
                           .depth = depth,
                           .g = total,
                           .key = score,
                           .candidates = (uint64_t)n,
                           .move = text});
}

/* One game: returns when it is over or the worker is stopped. */
static void mc_game(struct ps_worker *w, struct mc_worker *c)
{
    const struct ps_game *g = w->s.game;
    const void *inst = w->s.inst;
    g->initial_state(inst, c->cur);
    ps_value total = 0;
    for (int depth = 0;; depth++) {
        int n = g->moves(inst, c->cur, c->moves, NULL);
        w->s.stats.expanded++;
        if (n == 0) {
            ps_worker_offer(w, c->path, depth, ps_final_value(&w->s, c->cur, total));
            return;
        }
        if (!ps_search_line_fits(&w->s, depth))
            return;
        int best = -1;
        double best_score = 0;
        for (int i = 0; i < n; i++) {
            double score;
            if (!mc_judge(w, c, depth, c->moves[i], total, &score))
                return;
            if (best < 0 || score > best_score) {
                best = i;
                best_score = score;
            }
        }
        if (ps_worker_tracing(w, PS_TRACE_LEVEL))
            mc_trace_step(w, c, depth, total, c->moves[best], best_score, n);
        total += g->apply(inst, c->cur, c->moves[best], c->child);
        c->path[depth] = c->moves[best];
        unsigned char *t = c->cur;
        c->cur = c->child;
        c->child = t;
    }
}

/* The bytes of a worker's struct mc_worker buffers. */
static uint64_t mc_worker_bytes(const struct ps_search *s)
{
    uint64_t nmoves = (uint64_t)s->game->max_moves(s->inst);
    uint64_t depth = (uint64_t)s->game->max_depth(s->inst) + 1;
    return (nmoves + depth) * sizeof(ps_move) + 2 * (uint64_t)s->state_size;
}

static void mc_worker_run(struct ps_worker *w)
{
    const struct ps_game *g = w->s.game;
    struct mc_worker c;
    size_t nmoves = (size_t)g->max_moves(w->s.inst);
    size_t depth = (size_t)g->max_depth(w->s.inst) + 1;
    bool room = ps_memory_reserve(&w->s, mc_worker_bytes(&w->s));
    c.moves = room ? malloc(nmoves * sizeof *c.moves) : NULL;
    c.path = room ? malloc(depth * sizeof *c.path) : NULL;
    c.cur = room ? malloc(w->s.state_size) : NULL;
    c.child = room ? malloc(w->s.state_size) : NULL;
    if (!c.moves || !c.path || !c.cur || !c.child)
        w->s.stop = PS_STOP_MEMORY;
    else
        do
            mc_game(w, &c);
        while (ps_worker_again(w));
    free(c.moves);
    free(c.path);
    free(c.cur);
    free(c.child);
}

static enum ps_status mc_run(struct ps_search *s)
{
    const struct mc_options *o = ps_search_algo_options(s);
    char what[64];
    snprintf(what, sizeof what, "mc, %d rollouts, select %s", o->rollouts,
             o->select_max ? "max" : "mean");
    return ps_mc_run(s, mc_worker_run, what, mc_worker_bytes(s));
}

/* mc's options (options.h); the playout's are shared */
static const struct mc_options mc_defaults = {.rollouts = 200};

static const struct ps_option mc_options[] = {
    {.name = "rollouts",
     .type = PS_OPT_INT,
     .offset = offsetof(struct mc_options, rollouts),
     .min = 1,
     .max = 1e9,
     .arg = "R",
     .def = "200",
     .doc = "rollouts per move"},
    {.name = "select",
     .type = PS_OPT_CHOICE,
     .offset = offsetof(struct mc_options, select_max),
     .choices = "mean|max",
     .arg = "mean|max",
     .def = "mean",
     .doc = "how moves are compared: the mean or the best rollout"},
    {0},
};

const struct ps_algorithm ps_algo_mc = {
    .name = "mc",
    .summary = "flat Monte Carlo: R rollouts per move, best mean (heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = mc_run,
    .options = mc_options,
    .options_size = sizeof(struct mc_options),
    .options_default = &mc_defaults,
    .shared_options = ps_playout_options,
};
