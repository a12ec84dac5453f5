/*
 * nrpa.c - Nested Rollout Policy Adaptation (Rosin 2011).
 *
 * The playout policy is a table of weights, one per move code (the game's
 * move_codes slot: a small integer that names "the same move" in different
 * states). A playout from the initial state picks each move with
 * probability exp(w[code]) / sum over the legal moves of exp(w[code']).
 *
 *   nrpa(0, pol) = one playout with pol
 *   nrpa(L, pol) = repeat N times (--iterations):
 *                    run nrpa(L-1, copy of pol); keep the best line (>=);
 *                    adapt pol towards the best line
 *   adapt: along the best line, w[played] += alpha and every legal move
 *          loses alpha * its probability (the gradient of log-likelihood of
 *          the line), all computed from the policy before the update.
 *
 * A level-L run makes N^L playouts (S N^L with --stabilise S: stabilised
 * NRPA, Cazenave et al. 2020, where each level-1 iteration plays S playouts
 * from the same policy and adapts towards the best of them). Threads are
 * root-parallel. Under --time or --max-nodes the run is one search that
 * grows until the budget ends (--grow G: the top level iterates until
 * stopped, its iteration i running the levels below with N + G i
 * iterations), so that a longer budget only adds to what a shorter one
 * did. With --grow 0 each run is sized to what is left of the budget
 * instead (--fit: N raised to (playouts left)^(1/L), nrpa_fit), and a
 * finished run is followed by another until the budget is used: a fresh
 * one, or with --keep-best K one whose top level starts from the best line
 * so far (nrpa_start_run).
 *
 * The move codes are the policy's own (struct ps_policy's move_codes) if it
 * has them, else the game's, else a hash of the raw move.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "nrpa.h"

#define NRPA_MAX_LEVEL PS_NRPA_MAX_LEVEL
#define NRPA_FALLBACK_SPACE (1u << 16)

/* A line's listings, kept so the adaptation towards it need not list the
 * moves again: step k's moves, codes and prior (when there is one) at
 * [off[k], off[k + 1]). valid: the whole line fitted (cap entries). */
struct nrpa_log {
    ps_move *moves;
    uint32_t *codes;
    double *prior;
    int *off;
    bool valid;
    /* The playout's weights exp(w - max) and their sums z[k]; fresh: the
     * policy that gave them has not changed since (a level-1 line kept
     * in this iteration), so the adaptation may use them as they are. */
    double *weight, *z;
    bool fresh;
};

/* The most entries a log keeps: a 15x15 SameGame line needs about 2,000-4,000;
 * the longest lines of a 32x32 board, up to a million, are replayed. */
#define NRPA_LOG_CAP (1 << 13)

/* nrpa's own options (its table is at the end of the file) */
struct nrpa_options {
    struct ps_nrpa_depth depth; /* level, iterations (nrpa.h) */
    int stabilise;  /* playouts per level-1 iteration */
    int keep_best;  /* restarts adapt K times towards the best so far */
    double alpha;   /* adaptation step */
    double prior_weight; /* the policy's prior counts this many times */
    int fit;        /* under a budget, size each run to what is left */
    double grow;    /* under a budget, one run whose lower levels grow */
};

/* Stabilising (19 iterations of 4 playouts) gained on generated research
 * boards but lost on PopStar and on the standard positions
 * (docs/algorithms.md), so it is an option. Keeping the best line over
 * restarts (--keep-best 1 or 5) measured no better at equal node budgets on
 * generated 15x15 boards and on the standard positions: independent runs
 * explore other basins, a kept line pulls every restart back into one. */
static const struct nrpa_options nrpa_defaults = {
    .depth = PS_NRPA_DEPTH_DEFAULTS,
    .stabilise = 1,
    .keep_best = 0,
    .alpha = 1.0,
    .prior_weight = 1.0,
    .fit = 1,
    .grow = 1.0,
};

struct ps_nrpa {
    struct ps_worker *w;
    struct nrpa_options o; /* the run's (nrpa_alloc) */
    uint32_t space;
    void (*move_codes)(const void *inst, const void *state,
                       const ps_move *moves, int n, uint32_t *codes);
    /* pol[L]: level L's policy, L >= 1 (level 0, a playout, reads its
     * parent's without a copy: it does not change it). */
    double *pol[NRPA_MAX_LEVEL + 1];
    ps_move *seq[NRPA_MAX_LEVEL + 1]; /* best line of each level */
    int len[NRPA_MAX_LEVEL + 1];
    unsigned char *root, *a, *b;
    ps_move *moves;
    uint32_t *codes;
    double *prob;
    double *bias; /* the playout policy's prior, NULL for none */
    /* nrpa_adapt's new weights, built beside the old: next_pol[code] for
     * the touched[] codes, listed in touched_list[0..ntouched) */
    double *next_pol;
    unsigned char *touched;
    uint32_t *touched_list, ntouched;
    /* A restart that keeps the best line (--keep-best): the top level
     * starts with seq[top] = that line, worth start_value, as its best. */
    bool has_start;
    ps_value start_value;
    /* A resumed run (--resume): the top level's first iteration. */
    int start_iteration;
    /* --grow: the top level iterates until the budget ends, and the levels
     * below it run `below` iterations each (nrpa_iterations). */
    bool grow;
    int below;
    /* log[L]: the listings along seq[L] (log[0]: the playout being
     * played); swapped, not copied, as lines move up the levels. */
    struct nrpa_log log[NRPA_MAX_LEVEL + 1];
    int log_cap; /* entries per log */
    /* --fit: the clock and counters when this worker began, so that the
     * cost of a playout is its own (a nested run's search has spent time
     * and nodes before it) */
    double began;
    uint64_t began_expanded, began_playouts;
    /* The measuring level-1 search (nrpa_fit), kept for the run's first
     * level-1 call: its line is in seq[1] (log[1]), worth probe_value. */
    bool probe_kept, probe_found;
    ps_value probe_value;
    void *walk;  /* the game's walk (walk_* slots), NULL: moves/apply */
};

/* Codes of moves[0..n) of `state` into codes[], and the policy's prior
 * into prior[] when it has one (prior not NULL). */
static void nrpa_codes(const struct ps_nrpa *c, const void *state,
                       const ps_move *moves, uint32_t *codes, double *prior,
                       int n)
{
    if (prior)
        c->w->po.policy->bias(c->w->s.inst, state, moves, n, prior);
    if (c->move_codes) {
        c->move_codes(c->w->s.inst, state, moves, n, codes);
        return;
    }
    for (int i = 0; i < n; i++)
        codes[i] = (uint32_t)ps_hash_mix(moves[i]) & (c->space - 1);
}

/* e^x for x <= 0, within a few ulps of exp(), inline and branch-free so
 * the softmax loop vectorises: x = k ln 2 + r with |r| <= ln 2 / 2, e^r by
 * its Taylor series to r^10 (relative error below 1e-12), times 2^k. Below
 * -708 (e^x < 1e-307) it is 0, so a forbidding prior of -1e300 still
 * weighs exactly nothing. A third of nrpa's instructions went to libm's
 * exp(). */
#if defined(__GNUC__) && !defined(__clang__)
/* no-trapping-math lets the selects below vectorise; it changes no value */
#define NRPA_VECTORISE __attribute__((optimize("tree-vectorize,no-trapping-math")))
#else
#define NRPA_VECTORISE
#endif

NRPA_VECTORISE static inline double nrpa_exp(double x)
{
    double y = x > -708.0 ? x : -708.0;
    const double shifter = 6755399441055744.0; /* 1.5 * 2^52: round */
    double t = y * 1.4426950408889634 + shifter;
    double k = t - shifter;
    double r = (y - k * 0.693147180369123816490) - k * 1.90821492927058770002e-10;
    double p = 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    /* t's low mantissa bits hold k: 2^k from them, k + 1023 >= 2 */
    union {
        double d;
        uint64_t u;
    } scale = {t};
    scale.u = (scale.u + 1023) << 52;
    return p * scale.d * (x > -708.0 ? 1.0 : 0.0);
}

/* exp(w) for the n moves of codes[] (and beta x prior[], or NULL) into
 * prob[], returning the sum. Weights are shifted by their maximum so exp()
 * cannot overflow. */
NRPA_VECTORISE static double nrpa_weights(double *prob, const double *pol,
                                          const uint32_t *codes,
                                          const double *prior, double beta,
                                          int n)
{
    double z = 0, top = -HUGE_VAL;
    if (prior)
        for (int i = 0; i < n; i++) {
            prob[i] = pol[codes[i]] + beta * prior[i];
            top = prob[i] > top ? prob[i] : top;
        }
    else
        for (int i = 0; i < n; i++) {
            prob[i] = pol[codes[i]];
            top = prob[i] > top ? prob[i] : top;
        }
    for (int i = 0; i < n; i++) /* apart from the sum: this one vectorises */
        prob[i] = nrpa_exp(prob[i] - top);
    for (int i = 0; i < n; i++)
        z += prob[i];
    return z;
}

/* On a 32x32 board with every cell a move, one playout or one adaptation
 * costs tens of milliseconds: the clock is consulted every this many moves
 * as well, so a time limit is kept within a few milliseconds. */
#define NRPA_CHECK_MOVES 64

/* The move of probability weight prob[i] / z that x in [0, z) lands on. A
 * move of weight 0 (one a prior forbids) is never returned, even when
 * rounding leaves x just above the sum of the weights. */
static int nrpa_pick(const double *prob, int n, double x)
{
    int last = 0;
    for (int i = 0; i < n; i++) {
        if (prob[i] <= 0)
            continue;
        x -= prob[i];
        if (x < 0)
            return i;
        last = i;
    }
    return last;
}

/* A level-0 search: one playout from the root with policy pol, its value
 * in *value; false when a limit stopped it half way (no line then). The
 * position's moves, codes and prior go to log[0] while they fit, else to
 * the scratch arrays (and the log is marked incomplete). */
static bool nrpa_playout(struct ps_nrpa *c, const double *pol, ps_value *value_out)
{
    struct ps_worker *w = c->w;
    const struct ps_game *g = w->s.game;
    const void *inst = w->s.inst;
    const int nmoves = g->max_moves(inst);
    struct nrpa_log *log = &c->log[0];
    if (c->walk)
        g->walk_start(inst, w->po.policy, c->root, c->walk);
    else
        memcpy(c->a, c->root, w->s.state_size);
    ps_value value = 0;
    int len = 0, off = 0;
    log->valid = true;
    for (;;) {
        if (len % NRPA_CHECK_MOVES == NRPA_CHECK_MOVES - 1 &&
            ps_worker_stopped(w))
            return false;
        bool logged = log->valid && off + nmoves <= c->log_cap;
        log->valid = logged;
        ps_move *moves = logged ? log->moves + off : c->moves;
        uint32_t *codes = logged ? log->codes + off : c->codes;
        double *prior = !c->bias ? NULL : logged ? log->prior + off : c->bias;
        double *prob = logged ? log->weight + off : c->prob;
        int n;
        if (c->walk) {
            n = g->walk_moves(inst, c->walk, moves, codes, prior);
        } else {
            n = g->moves(inst, c->a, moves, NULL);
            if (n > 0)
                nrpa_codes(c, c->a, moves, codes, prior, n);
        }
        w->s.stats.expanded++;
        if (n == 0)
            break;
        if (!ps_search_line_fits(&w->s, len))
            return false;
        double z = nrpa_weights(prob, pol, codes, prior, c->o.prior_weight, n);
        int pick = nrpa_pick(prob, n, ps_rng_double(&w->rng) * z);
        if (logged) {
            log->off[len] = off;
            log->z[len] = z;
            off += n;
        }
        c->seq[0][len++] = moves[pick];
        if (c->walk) {
            value += g->walk_play(inst, c->walk, pick);
        } else {
            value += g->apply(inst, c->a, moves[pick], c->b);
            unsigned char *t = c->a;
            c->a = c->b;
            c->b = t;
        }
    }
    if (log->valid)
        log->off[len] = off;
    log->fresh = true;
    if (c->walk)
        value += g->walk_end(inst, c->walk);
    else
        value = ps_final_value(&w->s, c->a, value);
    c->len[0] = len;
    w->s.stats.playouts++;
    w->s.stats.generated += (uint64_t)len; /* a child per move, as playouts */
    ps_worker_offer(w, c->seq[0], len, value);
    *value_out = value;
    return true;
}

/* The gradient step of one position: moves[0..n) with their codes and
 * prior, seq_move the one the line played; prob[] their weights under pol
 * and z their sum when known (prob not NULL), else computed here. */
static void nrpa_step(struct ps_nrpa *c, const double *pol, const ps_move *moves,
                      const uint32_t *codes, const double *prior, int n,
                      ps_move seq_move, const double *prob, double z)
{
    if (!prob) {
        z = nrpa_weights(c->prob, pol, codes, prior, c->o.prior_weight, n);
        prob = c->prob;
    }
    const double alpha = c->o.alpha;
    double step = -alpha / z;
    for (int i = 0; i < n; i++) {
        double d = step * prob[i];
        if (moves[i] == seq_move)
            d += alpha;
        uint32_t code = codes[i];
        if (!c->touched[code]) { /* first step on it: start from pol's */
            c->touched[code] = 1;
            c->touched_list[c->ntouched++] = code;
            c->next_pol[code] = pol[code];
        }
        c->next_pol[code] += d;
    }
}

/* The adaptation's end: the weights it touched go into pol. */
static void nrpa_commit(struct ps_nrpa *c, double *pol)
{
    for (uint32_t k = 0; k < c->ntouched; k++) {
        uint32_t code = c->touched_list[k];
        pol[code] = c->next_pol[code];
        c->touched[code] = 0;
    }
    c->ntouched = 0;
}

/* The adaptation stopped half way: pol stays as it was. */
static void nrpa_discard(struct ps_nrpa *c)
{
    for (uint32_t k = 0; k < c->ntouched; k++)
        c->touched[c->touched_list[k]] = 0;
    c->ntouched = 0;
}

/* Adapt towards a line whose listings are logged (log->valid), with its
 * logged weights when they are still pol's (reuse). */
static void nrpa_adapt_logged(struct ps_nrpa *c, double *pol,
                              const struct nrpa_log *log, const ps_move *seq,
                              int len, bool reuse)
{
    for (int k = 0; k < len; k++) {
        if (k % NRPA_CHECK_MOVES == NRPA_CHECK_MOVES - 1 &&
            ps_worker_stopped(c->w)) {
            nrpa_discard(c);
            return;
        }
        int o = log->off[k], n = log->off[k + 1] - o;
        nrpa_step(c, pol, log->moves + o, log->codes + o,
                  c->bias ? log->prior + o : NULL, n, seq[k],
                  reuse ? log->weight + o : NULL, reuse ? log->z[k] : 0);
    }
    nrpa_commit(c, pol);
}

/* Move pol towards seq[0..len): gradient steps computed from the policy as
 * it was before this call, added in line order to copies of the weights
 * they touch (next_pol), which then replace them; from the line's log when
 * it has a complete one, else by listing the moves along it again. */
static void nrpa_adapt_log(struct ps_nrpa *c, double *pol, const ps_move *seq,
                           int len, struct nrpa_log *log, bool reuse)
{
    struct ps_worker *w = c->w;
    const struct ps_game *g = w->s.game;
    const void *inst = w->s.inst;
    if (log && log->valid) {
        nrpa_adapt_logged(c, pol, log, seq, len, reuse && log->fresh);
        log->fresh = false; /* pol changes now */
        return;
    }
    if (c->walk)
        g->walk_start(inst, w->po.policy, c->root, c->walk);
    else
        memcpy(c->a, c->root, w->s.state_size);
    for (int k = 0; k < len; k++) {
        /* Stopped half way: the policy is left as it was (the run ends). */
        if (k % NRPA_CHECK_MOVES == NRPA_CHECK_MOVES - 1 &&
            ps_worker_stopped(w)) {
            nrpa_discard(c);
            return;
        }
        if (c->walk) {
            int n = g->walk_moves(inst, c->walk, c->moves, c->codes, c->bias);
            nrpa_step(c, pol, c->moves, c->codes, c->bias, n, seq[k], NULL, 0);
            int i = 0;
            while (i + 1 < n && c->moves[i] != seq[k])
                i++;
            g->walk_play(inst, c->walk, i);
            continue;
        }
        int n = g->moves(inst, c->a, c->moves, NULL);
        nrpa_codes(c, c->a, c->moves, c->codes, c->bias, n);
        nrpa_step(c, pol, c->moves, c->codes, c->bias, n, seq[k], NULL, 0);
        g->apply(inst, c->a, seq[k], c->b);
        unsigned char *t = c->a;
        c->a = c->b;
        c->b = t;
    }
    nrpa_commit(c, pol);
}

static void nrpa_adapt(struct ps_nrpa *c, double *pol, const ps_move *seq, int len)
{
    nrpa_adapt_log(c, pol, seq, len, NULL, false);
}

/* Keep the line just found one level down if it is at least as good (>=:
 * later lines win ties, which keeps the search moving on plateaus). */
static void nrpa_keep(struct ps_nrpa *c, int level, ps_value v, bool *found,
                      ps_value *best)
{
    if (*found && v < *best)
        return;
    *found = true;
    *best = v;
    c->len[level] = c->len[level - 1];
    memcpy(c->seq[level], c->seq[level - 1],
           (size_t)c->len[level] * sizeof *c->seq[level]);
    /* the line's listings go up with it; level - 1 gets a stale log, but
     * its next run keeps a line (and so a log) before it adapts */
    struct nrpa_log t = c->log[level];
    c->log[level] = c->log[level - 1];
    c->log[level - 1] = t;
}

/* ---- --checkpoint (checkpoint.h) ----
 * The safe point is the start of an iteration of the top level: the levels
 * below start afresh from a copy of the top's policy, the logs are only
 * caches (a line without one is listed again, to the same weights), so the
 * top's policy, best line and value, the iteration, the PRNG and the
 * counters are the whole state. The policy is written sparse (its nonzero
 * weights): most codes are never played. */

void ps_nrpa_put_level(struct ps_ckpt_buf *b, const struct ps_nrpa *c,
                       const struct ps_nrpa_level_state *st)
{
    ps_ckpt_put_u64(b, (uint64_t)st->iteration);
    ps_ckpt_put_u64(b, st->found);
    ps_ckpt_put_u64(b, (uint64_t)st->best);
    ps_ckpt_put_u64(b, (uint64_t)(st->found ? st->len : 0));
    if (st->found)
        ps_ckpt_put(b, st->line, (size_t)st->len * sizeof(ps_move));
    const double *pol = st->pol;
    uint64_t nonzero = 0;
    for (uint32_t k = 0; k < c->space; k++)
        nonzero += pol[k] != 0;
    ps_ckpt_put_u64(b, nonzero);
    for (uint32_t k = 0; k < c->space; k++)
        if (pol[k] != 0) {
            ps_ckpt_put_u64(b, k);
            ps_ckpt_put_f64(b, pol[k]);
        }
}

void ps_nrpa_get_level(struct ps_ckpt_reader *r, const struct ps_nrpa *c,
                       int iterations, struct ps_nrpa_level_state *st)
{
    const struct ps_search *s = &c->w->s;
    uint64_t at = ps_ckpt_get_count(r, INT_MAX - 1);
    st->past = !r->bad && at >= (uint64_t)iterations;
    r->bad |= st->past;
    st->iteration = (int)at;
    st->found = ps_ckpt_get_u64(r) != 0;
    st->best = (ps_value)ps_ckpt_get_u64(r);
    st->len = (int)ps_ckpt_get_count(r, (uint64_t)s->game->max_depth(s->inst));
    ps_ckpt_get(r, st->line, (size_t)st->len * sizeof(ps_move));
    /* the level's best line is replayed (a playout: it ends where no
     * move is left, worth its value); none when nothing was found */
    if (!r->bad && (st->found ? !ps_checkpoint_line_sound(s, st->line, st->len,
                                                         st->best, false)
                              : st->len != 0))
        r->bad = true;
    memset(st->pol, 0, (size_t)c->space * sizeof *st->pol);
    uint64_t nonzero = ps_ckpt_get_count(r, c->space);
    for (uint64_t i = 0; i < nonzero && !r->bad; i++) {
        uint64_t k = ps_ckpt_get_count(r, c->space - 1);
        st->pol[k] = ps_ckpt_get_f64(r);
        /* a weight is a log-probability: an infinite or NaN one
         * poisons every draw after it */
        if (!isfinite(st->pol[k]))
            r->bad = true;
    }
}

static void nrpa_checkpoint(struct ps_nrpa *c, int level, int iteration,
                            bool found, ps_value best)
{
    struct ps_worker *w = c->w;
    struct ps_ckpt_buf b;
    if (!ps_checkpoint_worker_save(&w->s, w->index, &w->rng, &b))
        return;
    ps_nrpa_put_level(&b, c,
                      &(struct ps_nrpa_level_state){.iteration = iteration,
                                                    .found = found,
                                                    .best = best,
                                                    .line = c->seq[level],
                                                    .len = c->len[level],
                                                    .pol = c->pol[level]});
    ps_checkpoint_save(&w->s, w->index, &b);
}

/* The iterations of `level`: --iterations, or under --grow, as many as the
 * budget holds at the top and `below` under it. */
static int nrpa_iterations(const struct ps_nrpa *c, int level)
{
    if (!c->grow)
        return c->o.depth.iterations;
    return level == c->o.depth.level ? INT_MAX : c->below;
}

void ps_nrpa_refuse_past(struct ps_search *s,
                         const struct ps_nrpa_level_state *st, int iterations)
{
    ps_error_set(&s->error, s->checkpoint->resumed, 0, 0,
                 "cannot resume: its top level is at iteration %d, past this "
                 "run's %d: it was saved by a run that grew under a budget "
                 "(--grow); resume it with --time or --max-nodes",
                 st->iteration + 1, iterations);
    s->stop = PS_STOP_ERROR;
}

/* The worker's state from a checkpoint, when the run resumes: its top
 * level then starts at the saved iteration. False for a fresh start. */
static bool nrpa_resume(struct ps_nrpa *c, int level)
{
    struct ps_worker *w = c->w;
    struct ps_ckpt_reader r;
    if (!ps_checkpoint_worker_resume(&w->s, w->index, w->threads, &w->rng, &r))
        return false;
    struct ps_nrpa_level_state st = {.line = c->seq[level],
                                     .pol = c->pol[level]};
    ps_nrpa_get_level(&r, c, nrpa_iterations(c, level), &st);
    if (st.past) {
        ps_nrpa_refuse_past(&w->s, &st, nrpa_iterations(c, level));
        return false;
    }
    c->start_iteration = st.iteration;
    c->has_start = st.found;
    c->start_value = st.best;
    c->len[level] = st.len;
    c->log[level].valid = false; /* seq[level] is not the log's line */
    ps_checkpoint_read_end(&w->s, w->index, &r);
    return true;
}

/* Level >= 1: returns false when stopped before any line was found. */
static bool nrpa_level(struct ps_nrpa *c, int level, ps_value *value)
{
    if (level == 1 && c->probe_kept) { /* it ran already: nrpa_fit */
        c->probe_kept = false;
        *value = c->probe_value;
        return c->probe_found;
    }
    struct ps_worker *w = c->w;
    size_t bytes = (size_t)c->space * sizeof(double);
    const struct nrpa_options *o = &c->o;
    int stabilise = o->stabilise;
    bool found = false;
    ps_value best = 0;
    int first = 0, iterations = nrpa_iterations(c, level);
    if (level == o->depth.level) {
        found = c->has_start;
        best = found ? c->start_value : 0;
        first = c->start_iteration;
        c->start_iteration = 0;
    }
    for (int i = first; i < iterations; i++) {
        if (level == o->depth.level) {
            nrpa_checkpoint(c, level, i, found, best);
            if (c->grow) /* nrpa.h */
                c->below = ps_nrpa_grown(c->o.depth.iterations, c->o.grow,
                                         (uint64_t)i);
        }
        ps_value v;
        if (level == 1) {
            bool stopped = false;
            for (int k = 0; k < stabilise && !stopped; k++) {
                stopped = ps_worker_stopped(w) ||
                          !nrpa_playout(c, c->pol[1], &v);
                if (!stopped)
                    nrpa_keep(c, level, v, &found, &best);
            }
            if (stopped)
                break;
        } else {
            memcpy(c->pol[level - 1], c->pol[level], bytes);
            if (!nrpa_level(c, level - 1, &v))
                break;
            nrpa_keep(c, level, v, &found, &best);
        }
        if (level == o->depth.level)
            ps_worker_trace(w, &(struct ps_trace_event){
                                   .kind = PS_TRACE_LEVEL,
                                   .has = PS_TF_LEVEL | PS_TF_ITERATION |
                                          PS_TF_VALUE | PS_TF_LEN,
                                   .level = level,
                                   .iteration = i + 1,
                                   .value = best,
                                   .len = c->len[level]});
        if (w->s.stop != PS_STOP_NONE)
            break;
        /* level 1: a line kept in this iteration was played with pol[1]
         * as it still is, and its weights are logged */
        nrpa_adapt_log(c, c->pol[level], c->seq[level], c->len[level],
                       &c->log[level], level == 1);
    }
    *value = best;
    return found;
}

static void nrpa_free(struct ps_nrpa *c)
{
    for (int l = 0; l <= NRPA_MAX_LEVEL; l++) {
        free(c->pol[l]); /* NULL at level 0 below a top level */
        free(c->seq[l]);
    }
    free(c->root);
    free(c->a);
    free(c->b);
    free(c->moves);
    free(c->codes);
    free(c->prob);
    free(c->bias);
    free(c->next_pol);
    free(c->touched);
    free(c->touched_list);
    for (int l = 0; l <= NRPA_MAX_LEVEL; l++) {
        free(c->log[l].moves);
        free(c->log[l].codes);
        free(c->log[l].prior);
        free(c->log[l].off);
        free(c->log[l].weight);
        free(c->log[l].z);
    }
    free(c->walk);
}

/* Entries per log: a whole line's listings, up to NRPA_LOG_CAP. */
static size_t nrpa_log_cap(const struct ps_search *s)
{
    size_t all = ((size_t)s->game->max_depth(s->inst) + 1) *
                 (size_t)s->game->max_moves(s->inst);
    return all < NRPA_LOG_CAP ? all : NRPA_LOG_CAP;
}

/* The policy's move codes if it has its own, else the game's (NULL: none). */
static const struct ps_policy *nrpa_coding_policy(const struct ps_search *s)
{
    const struct ps_policy *p =
        ps_policy_named(s->game, s->opt.policy, s->opt.topk);
    return p && p->move_codes ? p : NULL;
}

static uint32_t nrpa_code_space(const struct ps_search *s)
{
    const struct ps_game *g = s->game;
    const struct ps_policy *p = nrpa_coding_policy(s);
    if (p)
        return p->move_code_space(s->inst);
    return g->move_codes && g->move_code_space ? g->move_code_space(s->inst)
                                               : NRPA_FALLBACK_SPACE;
}

/* The bytes nrpa_alloc allocates: the policies are the large part (a weight
 * per move code, for each level and the adaptation's copy). */
static uint64_t nrpa_bytes(const struct ps_search *s, int levels)
{
    uint64_t depth = (uint64_t)s->game->max_depth(s->inst) + 1;
    uint64_t nmoves = (uint64_t)s->game->max_moves(s->inst);
    uint64_t policy = (uint64_t)nrpa_code_space(s) * sizeof(double);
    uint64_t log = (uint64_t)nrpa_log_cap(s) *
                       (sizeof(ps_move) + sizeof(uint32_t) + 2 * sizeof(double)) +
                   depth * (sizeof(int) + sizeof(double));
    uint64_t walk = s->game->walk_size ? s->game->walk_size(s->inst) : 0;
    return (uint64_t)(levels > 0 ? levels : 1) * policy +
           (uint64_t)(levels + 1) * (depth * sizeof(ps_move) + log) +
           policy + (uint64_t)nrpa_code_space(s) * (1 + sizeof(uint32_t)) +
           3 * (uint64_t)s->state_size + walk +
           nmoves * (sizeof(ps_move) + sizeof(uint32_t) + 2 * sizeof(double));
}

static bool nrpa_alloc(struct ps_nrpa *c, int levels,
                       const struct nrpa_options *o)
{
    c->o = *o;
    const struct ps_game *g = c->w->s.game;
    const void *inst = c->w->s.inst;
    size_t depth = (size_t)g->max_depth(inst) + 1;
    size_t nmoves = (size_t)g->max_moves(inst);
    const struct ps_policy *coding = nrpa_coding_policy(&c->w->s);
    c->space = nrpa_code_space(&c->w->s);
    c->move_codes = coding ? coding->move_codes : g->move_codes;
    if (!ps_memory_reserve(&c->w->s, nrpa_bytes(&c->w->s, levels)))
        return false;
    /* A playout reads its parent's policy, so level 0 has none of its own,
     * unless it is the top (a lone playout job of the distributed nrpa). */
    for (int l = 0; l <= levels; l++) {
        if ((l > 0 || levels == 0) &&
            !(c->pol[l] = calloc(c->space, sizeof *c->pol[l])))
            return false;
        if (!(c->seq[l] = malloc(depth * sizeof *c->seq[l])))
            return false;
    }
    c->root = malloc(c->w->s.state_size);
    c->a = malloc(c->w->s.state_size);
    c->b = malloc(c->w->s.state_size);
    c->moves = malloc(nmoves * sizeof *c->moves);
    c->codes = malloc(nmoves * sizeof *c->codes);
    c->prob = malloc(nmoves * sizeof *c->prob);
    /* A prior that counts 0 times is not computed at all. */
    if (c->o.prior_weight > 0 && c->w->po.policy && c->w->po.policy->bias) {
        c->bias = malloc(nmoves * sizeof *c->bias);
        if (!c->bias)
            return false;
    }
    c->next_pol = malloc((size_t)c->space * sizeof *c->next_pol);
    c->touched = calloc(c->space, 1);
    c->touched_list = malloc((size_t)c->space * sizeof *c->touched_list);
    if (!c->touched || !c->touched_list)
        return false;
    c->log_cap = (int)nrpa_log_cap(&c->w->s);
    for (int l = 0; l <= levels; l++) {
        struct nrpa_log *log = &c->log[l];
        log->moves = malloc((size_t)c->log_cap * sizeof *log->moves);
        log->codes = malloc((size_t)c->log_cap * sizeof *log->codes);
        log->off = malloc((depth + 1) * sizeof *log->off);
        log->weight = malloc((size_t)c->log_cap * sizeof *log->weight);
        log->z = malloc((depth + 1) * sizeof *log->z);
        if (!log->moves || !log->codes || !log->off || !log->weight || !log->z)
            return false;
        if (c->bias && !(log->prior = malloc((size_t)c->log_cap *
                                             sizeof *log->prior)))
            return false;
    }
    if (!c->root || !c->a || !c->b || !c->moves || !c->codes || !c->prob ||
        !c->next_pol)
        return false;
    if (g->walk_size) {
        c->walk = calloc(1, g->walk_size(inst));
        if (!c->walk)
            return false;
        c->w->s.game->initial_state(inst, c->a);
        if (!g->walk_start(inst, c->w->po.policy, c->a, c->walk)) {
            free(c->walk);
            c->walk = NULL;
        }
    }
    return true;
}

/* ---- the pieces, for the distributed nrpa (nrpa.h) ---- */

extern const struct ps_algorithm ps_algo_nrpa;

struct ps_nrpa *ps_nrpa_new(struct ps_worker *w, int levels)
{
    struct ps_nrpa *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->w = w;
    /* Another algorithm's nrpa (dnrpa): the user's nrpa options (--alpha,
     * --prior-weight ... set nrpa's entry of the book), else nrpa's
     * defaults, with the caller's nesting. */
    struct nrpa_options o = nrpa_defaults;
    const struct ps_algo_options *user =
        w->s.opt.book ? ps_algo_book_find(w->s.opt.book, &ps_algo_nrpa) : NULL;
    if (user)
        memcpy(&o, user->u.bytes, sizeof o);
    o.depth = *ps_nrpa_depth(&w->s);
    if (levels > NRPA_MAX_LEVEL || !nrpa_alloc(c, levels, &o)) {
        ps_nrpa_free(c);
        return NULL;
    }
    w->s.game->initial_state(w->s.inst, c->root);
    return c;
}

void ps_nrpa_free(struct ps_nrpa *c)
{
    if (!c)
        return;
    nrpa_free(c);
    free(c);
}

uint32_t ps_nrpa_space(const struct ps_nrpa *c)
{
    return c->space;
}

double *ps_nrpa_policy(struct ps_nrpa *c, int level)
{
    return c->pol[level];
}

bool ps_nrpa_search(struct ps_nrpa *c, int level, ps_value *value)
{
    if (level == 0)
        return !ps_worker_stopped(c->w) && nrpa_playout(c, c->pol[0], value);
    return nrpa_level(c, level, value);
}

const ps_move *ps_nrpa_line(const struct ps_nrpa *c, int level, int *len)
{
    *len = c->len[level];
    return c->seq[level];
}

void ps_nrpa_adapt(struct ps_nrpa *c, double *pol, const ps_move *seq, int len)
{
    nrpa_adapt(c, pol, seq, len);
}

void ps_nrpa_set_iterations(struct ps_nrpa *c, int iterations)
{
    c->o.depth.iterations = iterations > 0 ? iterations : 1;
}


/* The top level's start of a run: a uniform policy, or with --keep-best K
 * and a line already found, that line as its best and the policy adapted K
 * times towards it, so a restart goes on from the run's best instead of
 * spending its first iterations finding it again. */
static void nrpa_start_run(struct ps_nrpa *c, int level)
{
    const struct ps_solution *best = &c->w->s.best;
    int keep = c->o.keep_best;
    memset(c->pol[level], 0, (size_t)c->space * sizeof(double));
    c->has_start = keep > 0 && best->found;
    if (!c->has_start)
        return;
    c->start_value = best->value;
    c->log[level].valid = false; /* seq[level] is not the log's line */
    c->len[level] = best->len;
    memcpy(c->seq[level], best->moves, (size_t)best->len * sizeof *best->moves);
    for (int k = 0; k < keep && !ps_worker_stopped(c->w); k++)
        nrpa_adapt(c, c->pol[level], c->seq[level], c->len[level]);
}

/* --fit: does this run size its searches to its budget? Only with --grow
 * 0, and not with --checkpoint or --resume: a resumed run must go on with
 * the searches it saved, whatever budget it now has. */
static bool nrpa_fits(const struct ps_search *s, const struct nrpa_options *o)
{
    return o->fit && !ps_nrpa_grows(s, o->grow) && !s->checkpoint &&
           ps_nrpa_budgeted(s);
}

/* The playouts left of the worker's budget at the cost of a playout (with
 * its adaptation) measured so far: in nodes under --max-nodes, else in
 * seconds under --time. A node budget sizes the run alone, the clock then
 * only stops it: so a run given nodes (dfs's nrpa slices) is the same run
 * on any machine and under any load. */
static double nrpa_playouts_left(const struct ps_nrpa *c)
{
    const struct ps_search *s = &c->w->s;
    double playouts = (double)(s->stats.playouts - c->began_playouts);
    double left = HUGE_VAL;
    if (playouts <= 0)
        return 0;
    if (s->limits.max_nodes) {
        double used = (double)(s->stats.expanded - c->began_expanded);
        left = ((double)s->limits.max_nodes - (double)s->stats.expanded) /
               (used / playouts);
    }
    if (s->limits.seconds > 0 && !s->limits.max_nodes) {
        double now = ps_now(), spent = now - c->began;
        double t = spent > 0 ? ps_search_seconds_left(s) /
                                   (spent / playouts)
                             : HUGE_VAL;
        left = t < left ? t : left;
    }
    return left > 0 ? left : 0;
}

/* The iterations of the next run: `iterations` (--iterations), or under
 * --fit, more when what is left of the budget holds one run of more:
 * N = floor((playouts left / S)^(1/L)), so that a single level-L run of
 * N iterations (S N^L playouts) uses the budget. One large run measured
 * better than restarts of small ones (docs/algorithms.md). Before the
 * first run, what a playout costs is measured by the first search a run
 * makes, level 1 with `iterations` from the prior alone; above level 1
 * the run then takes it as its first level-1 search instead of making it
 * (probe_kept), so a budget that ends in it, or that holds no larger run,
 * gives the line --fit 0 gives. */
static int nrpa_fit(struct ps_nrpa *c, int level, int iterations)
{
    struct ps_worker *w = c->w;
    if (!nrpa_fits(&w->s, &c->o))
        return iterations;
    if (w->s.stats.playouts == c->began_playouts) {
        int top = c->o.depth.level;
        c->o.depth.level = 0; /* level 1 is not the top here: no trace */
        c->o.depth.iterations = iterations;
        memset(c->pol[1], 0, (size_t)c->space * sizeof(double));
        c->probe_found = nrpa_level(c, 1, &c->probe_value);
        c->probe_kept = level > 1;
        c->o.depth.level = top;
        if (w->s.stop != PS_STOP_NONE)
            return iterations;
    }
    double n = floor(pow(nrpa_playouts_left(c) / c->o.stabilise,
                         1.0 / level) + 1e-9);
    if (n > 1e9)
        n = 1e9;
    return n > iterations ? (int)n : iterations;
}

static void nrpa_worker_run(struct ps_worker *w)
{
    int level = ps_nrpa_depth(&w->s)->level;
    struct ps_nrpa c;
    memset(&c, 0, sizeof c);
    c.w = w;
    if (!nrpa_alloc(&c, level, ps_search_algo_options(&w->s))) {
        w->s.stop = PS_STOP_MEMORY;
    } else {
        w->s.game->initial_state(w->s.inst, c.root);
        /* also under --checkpoint: its state is the top level's iteration */
        c.grow = ps_nrpa_grows(&w->s, c.o.grow);
        bool resumed = nrpa_resume(&c, level);
        const int iterations = c.o.depth.iterations;
        c.began = ps_now();
        c.began_expanded = w->s.stats.expanded;
        c.began_playouts = w->s.stats.playouts;
        do {
            if (!resumed) {
                c.o.depth.iterations = nrpa_fit(&c, level, iterations);
                nrpa_start_run(&c, level);
            }
            resumed = false;
            ps_value v;
            nrpa_level(&c, level, &v);
            w->s.stats.iterations++;
        } while (ps_worker_again(w));
    }
    nrpa_free(&c);
}

static enum ps_status nrpa_run(struct ps_search *s)
{
    const struct nrpa_options *o = ps_search_algo_options(s);
    char what[128];
    int n = snprintf(what, sizeof what, "nrpa level %d, %d iterations",
                     o->depth.level, o->depth.iterations);
    if (o->stabilise > 1 && n > 0 && (size_t)n < sizeof what)
        n += snprintf(what + n, sizeof what - (size_t)n, ", %d playouts each",
                      o->stabilise);
    if (ps_nrpa_grows(s, o->grow) && n > 0 && (size_t)n < sizeof what)
        snprintf(what + n, sizeof what - (size_t)n,
                 " below the top, %g more each top iteration", o->grow);
    if (nrpa_fits(s, o) && n > 0 && (size_t)n < sizeof what)
        snprintf(what + n, sizeof what - (size_t)n, " (or more, to fit the budget)");
    return ps_mc_run(s, nrpa_worker_run, what, nrpa_bytes(s, o->depth.level));
}

/* nrpa's options (options.h); the playout's are shared */
static const struct ps_option nrpa_options[] = {
    PS_NRPA_OPTION_LEVEL,
    PS_NRPA_OPTION_ITERATIONS,
    {.name = "stabilise",
     .type = PS_OPT_INT,
     .offset = offsetof(struct nrpa_options, stabilise),
     .min = 1,
     .max = 1e9,
     .arg = "S",
     .def = "1",
     .doc = "S playouts per level-1 iteration, the best adapts (stabilised NRPA)"},
    {.name = "keep-best",
     .type = PS_OPT_INT,
     .offset = offsetof(struct nrpa_options, keep_best),
     .min = 0,
     .max = 1e9,
     .arg = "K",
     .def = "0",
     .doc = "with --grow 0: restarts adapt K times towards the best line so far (0: a fresh start)"},
    {.name = "alpha",
     .type = PS_OPT_DOUBLE,
     .offset = offsetof(struct nrpa_options, alpha),
     .min = 0.001,
     .max = 1000,
     .arg = "A",
     .def = "1",
     .doc = "adaptation step: how far each adapt moves the policy towards the best line"},
    PS_NRPA_OPTION_GROW(struct nrpa_options, grow),
    {.name = "fit",
     .type = PS_OPT_INT,
     .offset = offsetof(struct nrpa_options, fit),
     .min = 0,
     .max = 1,
     .arg = "F",
     .def = "1",
     .doc = "with --grow 0 under --time or --max-nodes: 1 = raise each run's iterations so that one run fills what is left of the budget (a longer budget is another run, which may score lower); 0 = restarts of --iterations"},
    {.name = "prior-weight",
     .type = PS_OPT_DOUBLE,
     .offset = offsetof(struct nrpa_options, prior_weight),
     .min = 0,
     .max = 100,
     .arg = "B",
     .def = "1",
     .doc = "generalised NRPA: the playout policy's prior (SameGame's tabu bias) is added B times to the learned weights; 0 = learn from uniform"},
    {0},
};

const struct ps_algorithm ps_algo_nrpa = {
    .name = "nrpa",
    .summary = "Nested Rollout Policy Adaptation (Rosin 2011) (heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = nrpa_run,
    .options = nrpa_options,
    .options_size = sizeof(struct nrpa_options),
    .options_default = &nrpa_defaults,
    .shared_options = ps_playout_options,
    .checkpoint = PS_CHECKPOINT_THREADS,
};
