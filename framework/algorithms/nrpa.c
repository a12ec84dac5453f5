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
 * root-parallel; under --time or --max-nodes a finished run is followed by
 * another until the budget is used: a fresh one, or with --keep-best K one
 * whose top level starts from the best line so far (nrpa_start_run).
 *
 * The move codes are the policy's own (struct ps_policy's move_codes) if it
 * has them, else the game's, else a hash of the raw move.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "nrpa.h"

#define NRPA_MAX_LEVEL 6
#define NRPA_ALPHA 1.0
#define NRPA_FALLBACK_SPACE (1u << 16)
/* --keep-best's default: fresh restarts. Keeping the best line (K = 1 or
 * 5) measured no better at equal node budgets on generated 15x15 boards
 * and on the standard positions (docs/algorithms.md): independent runs
 * explore other basins, a kept line pulls every restart back into one. */
#define NRPA_KEEP_BEST 0

struct ps_nrpa {
    struct ps_worker *w;
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
    double *next_pol; /* nrpa_adapt's new policy, built beside the old */
    /* A restart that keeps the best line (--keep-best): the top level
     * starts with seq[top] = that line, worth start_value, as its best. */
    bool has_start;
    ps_value start_value;
};

/* Codes (and the prior, if any) of moves[0..n) of `state`. */
static void nrpa_codes(const struct ps_nrpa *c, const void *state, int n)
{
    if (c->bias)
        c->w->po.policy->bias(c->w->s.inst, state, c->moves, n, c->bias);
    if (c->move_codes) {
        c->move_codes(c->w->s.inst, state, c->moves, n, c->codes);
        return;
    }
    for (int i = 0; i < n; i++)
        c->codes[i] = (uint32_t)ps_hash_mix(c->moves[i]) & (c->space - 1);
}

/* exp(w) for moves[0..n) into prob[], returning the sum. Weights are
 * shifted by their maximum so exp() cannot overflow. */
static double nrpa_weights(struct ps_nrpa *c, const double *pol, int n)
{
    for (int i = 0; i < n; i++)
        c->prob[i] = pol[c->codes[i]] + (c->bias ? c->bias[i] : 0.0);
    double top = c->prob[0];
    for (int i = 1; i < n; i++)
        if (c->prob[i] > top)
            top = c->prob[i];
    double z = 0;
    for (int i = 0; i < n; i++) {
        c->prob[i] = exp(c->prob[i] - top);
        z += c->prob[i];
    }
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
 * in *value; false when a limit stopped it half way (no line then). */
static bool nrpa_playout(struct ps_nrpa *c, const double *pol, ps_value *value_out)
{
    struct ps_worker *w = c->w;
    const struct ps_game *g = w->s.game;
    const void *inst = w->s.inst;
    memcpy(c->a, c->root, w->s.state_size);
    ps_value value = 0;
    int len = 0;
    for (;;) {
        if (len % NRPA_CHECK_MOVES == NRPA_CHECK_MOVES - 1 &&
            ps_worker_stopped(w))
            return false;
        int n = g->moves(inst, c->a, c->moves, NULL);
        w->s.stats.expanded++;
        if (n == 0)
            break;
        nrpa_codes(c, c->a, n);
        double z = nrpa_weights(c, pol, n);
        int pick = nrpa_pick(c->prob, n, ps_rng_double(&w->rng) * z);
        c->seq[0][len++] = c->moves[pick];
        value += g->apply(inst, c->a, c->moves[pick], c->b);
        unsigned char *t = c->a;
        c->a = c->b;
        c->b = t;
    }
    value = ps_final_value(&w->s, c->a, value);
    c->len[0] = len;
    w->s.stats.playouts++;
    ps_worker_offer(w, c->seq[0], len, value);
    *value_out = value;
    return true;
}

/* Move pol towards seq[0..len): gradient steps computed from the policy as
 * it was before this call, added in line order to a copy that then
 * replaces it (a copy of the policy is far smaller than the steps of a long
 * line on a large board: 36,864 weights against 1025 x 1025 steps). */
static void nrpa_adapt(struct ps_nrpa *c, double *pol, const ps_move *seq, int len)
{
    struct ps_worker *w = c->w;
    const struct ps_game *g = w->s.game;
    const void *inst = w->s.inst;
    size_t bytes = (size_t)c->space * sizeof *pol;
    double alpha = w->s.opt.alpha > 0 ? w->s.opt.alpha : NRPA_ALPHA;
    memcpy(c->next_pol, pol, bytes);
    memcpy(c->a, c->root, w->s.state_size);
    for (int k = 0; k < len; k++) {
        /* Stopped half way: the policy is left as it was (the run ends). */
        if (k % NRPA_CHECK_MOVES == NRPA_CHECK_MOVES - 1 && ps_worker_stopped(w))
            return;
        int n = g->moves(inst, c->a, c->moves, NULL);
        nrpa_codes(c, c->a, n);
        double z = nrpa_weights(c, pol, n);
        for (int i = 0; i < n; i++) {
            double d = -alpha * c->prob[i] / z;
            if (c->moves[i] == seq[k])
                d += alpha;
            c->next_pol[c->codes[i]] += d;
        }
        g->apply(inst, c->a, seq[k], c->b);
        unsigned char *t = c->a;
        c->a = c->b;
        c->b = t;
    }
    memcpy(pol, c->next_pol, bytes);
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
}

/* Level >= 1: returns false when stopped before any line was found. */
static bool nrpa_level(struct ps_nrpa *c, int level, ps_value *value)
{
    struct ps_worker *w = c->w;
    size_t bytes = (size_t)c->space * sizeof(double);
    int stabilise = w->s.opt.stabilise;
    bool found = false;
    ps_value best = 0;
    if (level == w->s.opt.level && c->has_start) {
        found = true;
        best = c->start_value;
    }
    for (int i = 0; i < w->s.opt.iterations; i++) {
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
        if (level == w->s.opt.level)
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
        nrpa_adapt(c, c->pol[level], c->seq[level], c->len[level]);
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
    return (uint64_t)(levels > 0 ? levels : 1) * policy +
           (uint64_t)(levels + 1) * depth * sizeof(ps_move) +
           policy + 3 * (uint64_t)s->state_size +
           nmoves * (sizeof(ps_move) + sizeof(uint32_t) + 2 * sizeof(double));
}

static bool nrpa_alloc(struct ps_nrpa *c, int levels)
{
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
    if (c->w->po.policy && c->w->po.policy->bias) {
        c->bias = malloc(nmoves * sizeof *c->bias);
        if (!c->bias)
            return false;
    }
    c->next_pol = malloc((size_t)c->space * sizeof *c->next_pol);
    return c->root && c->a && c->b && c->moves && c->codes && c->prob &&
           c->next_pol;
}

/* ---- the pieces, for the distributed nrpa (nrpa.h) ---- */

struct ps_nrpa *ps_nrpa_new(struct ps_worker *w, int levels)
{
    struct ps_nrpa *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->w = w;
    if (levels > NRPA_MAX_LEVEL || !nrpa_alloc(c, levels)) {
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

void ps_nrpa_defaults(struct ps_search *s)
{
    /* Defaults measured best with budgets of seconds on 15x15 SameGame:
     * level 3 with 30 iterations beat level 2 with 100. Stabilising (19
     * iterations of 4 playouts) gained on generated research boards but
     * lost on PopStar and on the standard positions (docs/algorithms.md),
     * so it is an option. */
    if (s->opt.level == 0)
        s->opt.level = 3;
    if (s->opt.iterations == 0)
        s->opt.iterations = 30;
    if (s->opt.stabilise < 1)
        s->opt.stabilise = 1;
    if (s->opt.level < 1)
        s->opt.level = 1;
    if (s->opt.level > NRPA_MAX_LEVEL)
        s->opt.level = NRPA_MAX_LEVEL;
    if (s->opt.iterations < 1)
        s->opt.iterations = 1;
    if (s->opt.keep_best < 0)
        s->opt.keep_best = NRPA_KEEP_BEST;
}

/* The top level's start of a run: a uniform policy, or with --keep-best K
 * and a line already found, that line as its best and the policy adapted K
 * times towards it, so a restart goes on from the run's best instead of
 * spending its first iterations finding it again. */
static void nrpa_start_run(struct ps_nrpa *c, int level)
{
    const struct ps_solution *best = &c->w->s.best;
    int keep = c->w->s.opt.keep_best;
    memset(c->pol[level], 0, (size_t)c->space * sizeof(double));
    c->has_start = keep > 0 && best->found;
    if (!c->has_start)
        return;
    c->start_value = best->value;
    c->len[level] = best->len;
    memcpy(c->seq[level], best->moves, (size_t)best->len * sizeof *best->moves);
    for (int k = 0; k < keep && !ps_worker_stopped(c->w); k++)
        nrpa_adapt(c, c->pol[level], c->seq[level], c->len[level]);
}

static void nrpa_worker_run(struct ps_worker *w)
{
    int level = w->s.opt.level;
    struct ps_nrpa c;
    memset(&c, 0, sizeof c);
    c.w = w;
    if (!nrpa_alloc(&c, level)) {
        w->s.stop = PS_STOP_MEMORY;
    } else {
        w->s.game->initial_state(w->s.inst, c.root);
        do {
            nrpa_start_run(&c, level);
            ps_value v;
            nrpa_level(&c, level, &v);
            w->s.stats.iterations++;
        } while (ps_worker_again(w));
    }
    nrpa_free(&c);
}

static enum ps_status nrpa_run(struct ps_search *s)
{
    ps_nrpa_defaults(s);
    char what[96];
    int n = snprintf(what, sizeof what, "nrpa level %d, %d iterations",
                     s->opt.level, s->opt.iterations);
    if (s->opt.stabilise > 1 && n > 0 && (size_t)n < sizeof what)
        snprintf(what + n, sizeof what - (size_t)n, ", %d playouts each",
                 s->opt.stabilise);
    return ps_mc_run(s, nrpa_worker_run, what, nrpa_bytes(s, s->opt.level));
}

/* nrpa's options (options.h); the playout's are shared */
static const struct ps_option nrpa_options[] = {
    {.name = "level",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_options, level),
     .min = 1,
     .max = NRPA_MAX_LEVEL,
     .arg = "L",
     .def = "3",
     .doc = "nesting level"},
    {.name = "iterations",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_options, iterations),
     .min = 1,
     .max = 1e9,
     .arg = "N",
     .def = "30",
     .doc = "iterations per level"},
    {.name = "stabilise",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_options, stabilise),
     .min = 1,
     .max = 1e9,
     .arg = "S",
     .def = "1",
     .doc = "S playouts per level-1 iteration, the best adapts (stabilised NRPA)"},
    {.name = "keep-best",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_options, keep_best),
     .min = 0,
     .max = 1e9,
     .arg = "K",
     .def = "0",
     .doc = "restarts adapt K times towards the best line so far (0: a fresh start)"},
    {.name = "alpha",
     .type = PS_OPT_DOUBLE,
     .offset = offsetof(struct ps_options, alpha),
     .min = 0.001,
     .max = 1000,
     .arg = "A",
     .def = "1",
     .doc = "adaptation step: how far each adapt moves the policy towards the best line"},
    {0},
};

const struct ps_algorithm ps_algo_nrpa = {
    .name = "nrpa",
    .summary = "Nested Rollout Policy Adaptation (Rosin 2011) (heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = nrpa_run,
    .options = nrpa_options,
    .shared_options = ps_playout_options,
};
