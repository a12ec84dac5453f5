/*
 * beam.c - beam search: a breadth-first walk down the game that keeps, at
 * every depth, only the W most promising positions (--beam-width W).
 * "Promising" is the score so far plus the game's evaluate() of the
 * position (without it, the score so far alone). Positions reached twice
 * (the same board by moves in another order) are kept once, by hash.
 *
 * Every position of the beam with no legal move is a finished game and is
 * offered as an answer. Under --time, a finished beam is followed by one
 * twice as wide until time is up (iterative widening); when time runs out
 * mid-beam, the best position of the beam is finished with one playout of
 * the playout policy, so the answer is always a complete game.
 * Single-threaded; a heuristic, like the Monte Carlo family.
 */
#include <stdlib.h>
#include <string.h>

#include "playout.h"

struct beam_cand {
    ps_value key, g;
    uint64_t hash;
    int32_t parent; /* index in the current beam */
    ps_move move;
};

struct beam_step {
    int32_t parent; /* index in the previous depth's beam */
    ps_move move;
};

struct beam {
    struct ps_search *s;
    int width, max_depth, max_moves;
    unsigned char *cur, *next, *tmp; /* width states each; one state */
    ps_value *g, *next_g;
    int count;                       /* positions in the current beam */
    struct beam_step *steps;         /* (max_depth + 1) x width */
    struct beam_cand *cand;          /* width x max_moves */
    uint64_t *seen;                  /* 2 x width hash set, 0 = empty */
    size_t seen_slots;
    ps_move *moves, *line;
    uint64_t reserved;
    /* --beam-eval playout: each candidate is judged by one playout of the
     * playout policy from it, and that playout is itself a finished game. */
    struct ps_playout *po; /* the playout policy, to finish or judge lines */
    struct ps_rng *rng;
    bool rollout;          /* judge positions by a playout, not evaluate() */
};

static int cand_order(const void *pa, const void *pb)
{
    const struct beam_cand *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->parent != b->parent)
        return a->parent < b->parent ? -1 : 1;
    return a->move < b->move ? -1 : a->move > b->move;
}

/* Insert h into the hash set; false if it was there. */
static bool seen_add(struct beam *b, uint64_t h)
{
    h |= 1; /* 0 marks an empty slot */
    size_t mask = b->seen_slots - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        if (b->seen[i] == h)
            return false;
        if (b->seen[i] == 0) {
            b->seen[i] = h;
            return true;
        }
    }
}

/* The moves from the start to position i of the beam at `depth`. */
static int beam_path(const struct beam *b, int depth, int i, ps_move *out)
{
    for (int d = depth; d > 0; d--) {
        const struct beam_step *st = &b->steps[(size_t)d * b->width + i];
        out[d - 1] = st->move;
        i = st->parent;
    }
    return depth;
}

static unsigned char *beam_state(const struct beam *b, unsigned char *pool,
                                 int i)
{
    return pool + (size_t)i * b->s->state_size;
}

/* Time is up mid-beam: finish the best position with a playout. */
static void beam_finish(struct beam *b, int depth)
{
    if (b->count == 0)
        return;
    ps_value v = b->g[0] + ps_playout_run(b->po, beam_state(b, b->cur, 0), b->rng, 0);
    int len = beam_path(b, depth, 0, b->line);
    memcpy(b->line + len, b->po->line, (size_t)b->po->length * sizeof *b->line);
    ps_search_offer(b->s, b->line, len + b->po->length, v);
    b->s->stats.playouts++;
}

/* A candidate's playout beat the best: offer path + move + playout. */
static void offer_rollout(struct beam *b, int depth, int i, ps_move move,
                          ps_value value)
{
    int len = beam_path(b, depth, i, b->line);
    b->line[len++] = move;
    memcpy(b->line + len, b->po->line, (size_t)b->po->length * sizeof *b->line);
    ps_search_offer(b->s, b->line, len + b->po->length, value);
}

/* Expand the beam at `depth` into candidates; offer finished games.
 * Returns -1 when stopped. */
static int beam_expand(struct beam *b, int depth)
{
    struct ps_search *s = b->s;
    const struct ps_game *g = s->game;
    int nc = 0;
    for (int i = 0; i < b->count; i++) {
        if (ps_search_stopped(s))
            return -1;
        unsigned char *st = beam_state(b, b->cur, i);
        int n = g->moves(s->inst, st, b->moves, NULL);
        s->stats.expanded++;
        if (n == 0) {
            ps_value v = ps_final_value(s, st, b->g[i]);
            if (ps_search_improves(s, v))
                ps_search_offer(s, b->line, beam_path(b, depth, i, b->line), v);
            continue;
        }
        for (int k = 0; k < n; k++) {
            ps_value gain = g->apply(s->inst, st, b->moves[k], b->tmp);
            s->stats.generated++;
            struct beam_cand *c = &b->cand[nc++];
            c->g = b->g[i] + gain;
            if (b->rollout) {
                c->key = c->g + ps_playout_run(b->po, b->tmp, b->rng, 0);
                s->stats.playouts++;
                if (ps_search_improves(s, c->key))
                    offer_rollout(b, depth, i, b->moves[k], c->key);
            } else {
                c->key = c->g + (g->evaluate ? g->evaluate(s->inst, b->tmp) : 0);
            }
            c->hash = g->hash(s->inst, b->tmp);
            c->parent = i;
            c->move = b->moves[k];
        }
    }
    return nc;
}

/* One beam of width b->width from the start; false when stopped. */
static bool beam_once(struct beam *b)
{
    struct ps_search *s = b->s;
    const struct ps_game *g = s->game;
    g->initial_state(s->inst, b->cur);
    b->g[0] = 0;
    b->count = 1;
    for (int depth = 0; b->count > 0; depth++) {
        int nc = beam_expand(b, depth);
        if (nc < 0) {
            beam_finish(b, depth);
            return false;
        }
        qsort(b->cand, (size_t)nc, sizeof *b->cand, cand_order);
        memset(b->seen, 0, b->seen_slots * sizeof *b->seen);
        int kept = 0;
        for (int k = 0; k < nc && kept < b->width; k++) {
            const struct beam_cand *c = &b->cand[k];
            if (!seen_add(b, c->hash)) {
                s->stats.duplicates++;
                continue;
            }
            g->apply(s->inst, beam_state(b, b->cur, c->parent), c->move,
                     beam_state(b, b->next, kept));
            b->next_g[kept] = c->g;
            b->steps[(size_t)(depth + 1) * b->width + kept] =
                (struct beam_step){c->parent, c->move};
            kept++;
        }
        s->stats.pruned += (uint64_t)(nc - kept);
        if (kept > (int)s->stats.peak_frontier)
            s->stats.peak_frontier = (uint64_t)kept;
        unsigned char *t = b->cur;
        b->cur = b->next;
        b->next = t;
        ps_value *tg = b->g;
        b->g = b->next_g;
        b->next_g = tg;
        b->count = kept;
    }
    return true;
}

static void beam_free(struct beam *b)
{
    free(b->cur);
    free(b->next);
    free(b->tmp);
    free(b->g);
    free(b->next_g);
    free(b->steps);
    free(b->cand);
    free(b->seen);
    free(b->moves);
    free(b->line);
    ps_memory_release(b->s, b->reserved);
    b->reserved = 0;
}

static bool beam_alloc(struct beam *b, int width)
{
    struct ps_search *s = b->s;
    size_t w = (size_t)width, depth = (size_t)b->max_depth + 1;
    b->width = width;
    b->seen_slots = 1;
    while (b->seen_slots < 2 * w)
        b->seen_slots <<= 1;
    uint64_t bytes = 2 * w * (s->state_size + sizeof(ps_value)) +
                     depth * w * sizeof(struct beam_step) +
                     w * (size_t)b->max_moves * sizeof(struct beam_cand) +
                     b->seen_slots * sizeof(uint64_t);
    if (!ps_memory_reserve(s, bytes)) {
        s->stop = PS_STOP_MEMORY;
        return false;
    }
    b->reserved = bytes;
    b->cur = malloc(w * s->state_size);
    b->next = malloc(w * s->state_size);
    b->tmp = malloc(s->state_size);
    b->g = malloc(w * sizeof *b->g);
    b->next_g = malloc(w * sizeof *b->next_g);
    b->steps = malloc(depth * w * sizeof *b->steps);
    b->cand = malloc(w * (size_t)b->max_moves * sizeof *b->cand);
    b->seen = malloc(b->seen_slots * sizeof *b->seen);
    b->moves = malloc((size_t)b->max_moves * sizeof *b->moves);
    b->line = malloc(depth * sizeof *b->line);
    if (b->cur && b->next && b->tmp && b->g && b->next_g && b->steps &&
        b->cand && b->seen && b->moves && b->line)
        return true;
    s->stop = PS_STOP_MEMORY;
    return false;
}

static enum ps_status beam_run(struct ps_search *s)
{
    int width = s->opt.beam_width > 0 ? s->opt.beam_width : 1;
    bool rollout = s->opt.beam_playout || !s->game->evaluate;
    struct ps_playout po;
    struct ps_rng rng;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_playout_init(&po, s->game, s->inst)) {
        s->stop = PS_STOP_MEMORY;
        return PS_HEURISTIC;
    }
    /* The command line checked the policy name; a bad one from a library
     * caller falls back to the game's default policy. */
    if (!ps_playout_set_policy(&po, s->opt.policy, s->opt.topk, &err))
        ps_playout_set_policy(&po, NULL, s->opt.topk, &err);
    ps_rng_seed(&rng, s->opt.seed);
    for (;;) {
        struct beam b = {.s = s,
                         .max_depth = s->game->max_depth(s->inst),
                         .max_moves = s->game->max_moves(s->inst),
                         .po = &po,
                         .rng = &rng,
                         .rollout = rollout};
        bool done = beam_alloc(&b, width) && beam_once(&b);
        beam_free(&b);
        snprintf(s->note, sizeof s->note, "heuristic: beam width %d, %s", width,
                 rollout ? "playout evaluation" : "game evaluation");
        /* Widen only under a time budget, and not past int range. */
        if (!done || s->limits.seconds <= 0 || width > (1 << 28))
            break;
        width *= 2;
    }
    ps_playout_free(&po);
    return PS_HEURISTIC;
}

const struct ps_algorithm ps_algo_beam = {
    .name = "beam",
    .summary = "beam search over score + the game's evaluation (heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = beam_run,
};
