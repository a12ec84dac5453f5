/*
 * beam.c - beam search: a breadth-first walk down the game that keeps, at
 * every depth, only the W most promising positions (--beam-width W).
 * "Promising" is the score so far plus the game's evaluate() of the
 * position (without it, the score so far alone). Positions reached twice
 * (the same board by moves in another order) are kept once, by hash.
 *
 * Every position of the beam with no legal move is a finished game and is
 * offered as an answer. Under --time, a finished beam is followed by one
 * twice as wide, whatever the clock says (next_width), and the best
 * position of every depth is finished with one playout of the playout
 * policy and offered (beam_finish), so the run of a longer budget makes
 * every offer a shorter one made: more time never gives a lower score, also
 * when the load changes. Without --time, only a beam cut short (Ctrl-C, a
 * node limit) has its best position finished so, so the answer is always a
 * complete game. (Clearing objectives widen by the clock: below.)
 *
 * Threads (--threads N): the positions of a depth are expanded in N slices
 * at once, each into its own part of the candidate array, and the kept
 * children are built the same way. Candidates are ranked by one total order
 * (key, parent, move) and a position's playouts (--beam-eval playout) draw
 * from a stream seeded by (seed, depth, position), so the beam, and the
 * answer, are the same for every thread count. A heuristic, like the Monte
 * Carlo family.
 *
 * Clearing objectives (PS_BOUND_OFTEN_MET): a short exact dfs runs first
 * (beam_dfs_first), a depth stops expanding once it has BEAM_ENOUGH x
 * width candidates (beam_expand), equal keys are ranked by a salted hash
 * (beam_salt), and under --time a beam that did not clear the board is
 * followed by another as wide as the time left allows, narrower if need be
 * (next_width), until time runs out.
 *
 * --beam-endgame N: after the beams, the best line's end game is solved
 * exactly by dfs from ever earlier positions of it (beam_endgame).
 *
 * --checkpoint: the state is saved at the start of a depth (beam_checkpoint).
 */
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beam.h"
#include "hash.h"
#include "playout.h"
#include "threads.h"
#include "worker.h"

/* Clearing objectives: a depth has enough candidates at this many times the
 * width (0 = expand every parent); see beam_expand. On 40 clearable 15x15
 * 6-colour boards at --time 1: 32 cleared with every parent expanded, 33
 * with 3, 36 with 6 (docs/samegame.md, Clearing). */
#ifndef BEAM_ENOUGH
#define BEAM_ENOUGH 6
#endif

struct beam_cand {
    ps_value key, g;
    uint64_t hash; /* the child's; mixed with the salt when there is one */
    int32_t parent; /* index in the current beam */
    ps_move move;
};

struct beam_step {
    int32_t parent; /* index in the previous depth's beam */
    ps_move move;
};

struct beam;

/* One thread's share of the work on a depth: positions [first, last) of the
 * beam to expand, or kept children [first, last) to build. */
struct beam_slice {
    struct beam *b;
    int first, last;
    /* This slice's candidates, at most one per position (hash): a child
     * reached twice keeps its better candidate (slice_add). When the
     * buffer is full, only the best b->width are kept (slice_compact): the
     * beam keeps at most that many, so memory grows with the width, not
     * with width x moves. */
    struct beam_cand *cand;  /* cand_cap */
    int nc, cand_cap;
    int32_t *slot;           /* slot_count: 1 + index in cand, 0 = empty */
    size_t slot_count;
    uint64_t duplicates;     /* children dropped for a better one's hash */
    ps_move *moves;          /* max_moves */
    ps_value *evals;         /* max_moves: evaluate_moves' children's */
    unsigned char *tmp;      /* one state */
    bool finished_only;      /* past the depth's cut: offer finished games */
    bool too_long;           /* a playout went past max_depth (the game's fault) */
    struct ps_playout po;    /* playout scratch, policy selected */
    uint64_t expanded, generated, playouts;
    /* The best complete game the slice saw that beats the search's best;
     * offered after the join, slice by slice, so ties go as if one thread
     * had done it all. */
    bool found;
    ps_value best;
    int best_len;
    ps_move *best_line;      /* max_depth + 1 */
};

struct beam {
    struct ps_search *s;
    int width, max_depth, max_moves, threads;
    int depth;                       /* of the positions in cur */
    unsigned char *cur, *next;       /* width states each */
    ps_value *g, *next_g;
    int count;                       /* positions in the current beam */
    struct beam_step *steps;         /* (max_depth + 1) x width */
    struct beam_cand *cand;          /* width + threads x cand_cap: rounds */
    struct beam_cand *kept;          /* width: the chosen candidates */
    uint64_t *seen;                  /* 2 x width hash set, 0 = empty */
    size_t seen_slots;
    uint64_t made;                   /* candidates the depth made */
    struct beam_slice *slices;       /* threads */
    uint64_t reserved;
    uint64_t salt;                   /* beam_salt: 0 = ties by parent, move */
    bool rollout;                    /* judge by a playout, not evaluate() */
    const double *weights;           /* --beam-weights, or NULL */
    bool narrowed;                   /* width narrowed to fit --max-memory */
    bool finish_each_depth;          /* beam_finish at every depth (--time) */
    atomic_bool abort;               /* the main slice saw a stop */
};

/* Best key first; equal keys by parent and move (score objectives). */
static int cand_order(const void *pa, const void *pb)
{
    const struct beam_cand *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->parent != b->parent)
        return a->parent < b->parent ? -1 : 1;
    return a->move < b->move ? -1 : a->move > b->move;
}

/* The same, equal keys by their salted hash first (beam_salt). */
static int cand_order_salted(const void *pa, const void *pb)
{
    const struct beam_cand *a = pa, *b = pb;
    if (a->key == b->key && a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return cand_order(pa, pb);
}

/* Clearing objectives (PS_BOUND_OFTEN_MET): the tie-break of equal keys.
 * There a key is a count of cells, so most candidates tie, and ranking ties
 * by (parent, move) fills the beam with the children of its first
 * positions. Ranked by the child's hash mixed with a salt instead, a beam
 * keeps a spread of lines, and beams of other widths (or seeds) take other
 * ones: at one width (2,000, no --time) 184 -> 189 of 200 clearable 15x15
 * 6-colour boards cleared (docs/samegame.md, Clearing). The salt comes from
 * --seed and the width (saved in a checkpoint), not a thread, so the beam is
 * still the same for every thread count. 0 (score objectives): ties go by
 * parent and move, as before. */
static uint64_t beam_salt(const struct ps_search *s, int width)
{
    if (!(s->flags & PS_BOUND_OFTEN_MET))
        return 0;
    return ps_hash_mix(s->opt.seed ^ ps_hash_mix((uint64_t)width)) | 1;
}

static void cand_swap(struct beam_cand *a, struct beam_cand *b)
{
    struct beam_cand t = *a;
    *a = *b;
    *b = t;
}

/* Move the k first candidates by cand_order to c[0..k), in any order
 * (quickselect). Only about width of the width x moves candidates survive a
 * depth, so this and a sort of those k cost less than sorting them all. */
static void select_best(struct beam_cand *c, size_t n, size_t k,
                        int (*order)(const void *, const void *))
{
    size_t lo = 0, hi = n; /* the k-th lies in [lo, hi) */
    while (hi - lo > 1 && k > lo && k < hi) {
        size_t mid = lo + (hi - lo) / 2;
        /* median of three as the pivot, moved to the end */
        if (order(&c[mid], &c[lo]) < 0)
            cand_swap(&c[mid], &c[lo]);
        if (order(&c[hi - 1], &c[lo]) < 0)
            cand_swap(&c[hi - 1], &c[lo]);
        if (order(&c[mid], &c[hi - 1]) < 0)
            cand_swap(&c[mid], &c[hi - 1]);
        struct beam_cand pivot = c[hi - 1];
        size_t store = lo;
        for (size_t i = lo; i + 1 < hi; i++)
            if (order(&c[i], &pivot) < 0)
                cand_swap(&c[i], &c[store++]);
        cand_swap(&c[store], &c[hi - 1]);
        if (store < k)
            lo = store + 1;
        else
            hi = store;
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

/* ---- the slices ---- */

/* The main slice (0) owns the search: it reads the clock and Ctrl-C and
 * tells the others through b->abort. */
static bool slice_stopped(struct beam_slice *sl)
{
    struct beam *b = sl->b;
    if (sl == &b->slices[0]) {
        if (!ps_search_stopped(b->s))
            return false;
        atomic_store(&b->abort, true);
        return true;
    }
    return atomic_load_explicit(&b->abort, memory_order_relaxed);
}

/* A complete game: position i of the beam, then `move` and the slice's last
 * playout when move_played (beam is for score games: larger is better). */
static void slice_consider(struct beam_slice *sl, int i, bool move_played,
                           ps_move move, ps_value value)
{
    struct beam *b = sl->b;
    if ((sl->found && value <= sl->best) || !ps_search_improves(b->s, value))
        return;
    int len = beam_path(b, b->depth, i, sl->best_line);
    if (move_played) {
        sl->best_line[len++] = move;
        memcpy(sl->best_line + len, sl->po.line,
               (size_t)sl->po.length * sizeof *sl->best_line);
        len += sl->po.length;
    }
    sl->found = true;
    sl->best = value;
    sl->best_len = len;
}

static int (*cand_order_of(const struct beam *b))(const void *, const void *)
{
    return b->salt ? cand_order_salted : cand_order;
}

/* Add c to the slice's candidates; of two with one hash (the same
 * position), the first in the order stays, as beam_choose would keep it. */
static void slice_add(struct beam_slice *sl, const struct beam_cand *c)
{
    int (*order)(const void *, const void *) = cand_order_of(sl->b);
    uint64_t h = c->hash | 1; /* as ps_hash_set_add compares them */
    size_t mask = sl->slot_count - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        int32_t at = sl->slot[i];
        if (at == 0) {
            sl->slot[i] = sl->nc + 1;
            sl->cand[sl->nc++] = *c;
            return;
        }
        struct beam_cand *old = &sl->cand[at - 1];
        if ((old->hash | 1) == h) {
            sl->duplicates++;
            if (order(c, old) < 0)
                *old = *c;
            return;
        }
    }
}

/* The slice's buffer is full: keep its best b->width candidates. They are
 * distinct, so every candidate of the depth's best b->width distinct ones
 * that this slice made is among them: the beam is the same as with every
 * candidate kept (the test against a plain beam checks it). */
static void slice_compact(struct beam_slice *sl)
{
    struct beam *b = sl->b;
    if (sl->nc > b->width) {
        select_best(sl->cand, (size_t)sl->nc, (size_t)b->width,
                    cand_order_of(b));
        sl->nc = b->width;
    }
    memset(sl->slot, 0, sl->slot_count * sizeof *sl->slot);
    size_t mask = sl->slot_count - 1;
    for (int k = 0; k < sl->nc; k++) {
        size_t i = (size_t)(sl->cand[k].hash | 1) & mask;
        while (sl->slot[i] != 0)
            i = (i + 1) & mask;
        sl->slot[i] = k + 1;
    }
}

/* Expand positions [first, last) into sl->cand. */
static void slice_expand(void *arg)
{
    struct beam_slice *sl = arg;
    struct beam *b = sl->b;
    struct ps_search *s = b->s;
    const struct ps_game *g = s->game;
    for (int i = sl->first; i < sl->last; i++) {
        if (slice_stopped(sl))
            break;
        const unsigned char *st = beam_state(b, b->cur, i);
        int n = g->moves(s->inst, st, sl->moves, NULL);
        sl->expanded++;
        if (n == 0) {
            slice_consider(sl, i, false, 0, ps_final_value(s, st, b->g[i]));
            continue;
        }
        if (sl->finished_only)
            continue;
        if (sl->nc + n > sl->cand_cap)
            slice_compact(sl);
        struct ps_rng rng;
        if (b->rollout)
            ps_rng_seed_stream(&rng, s->opt.seed,
                               (uint64_t)b->depth << 32 | (uint32_t)i);
        /* the children's evaluations at once, where the game can share
         * the work between them */
        bool at_once = !b->rollout && (g->evaluate_moves || b->weights);
        if (b->weights && !b->rollout)
            g->evaluate_moves_weighted(s->inst, b->weights, st, sl->moves, n,
                                       sl->evals);
        else if (at_once)
            g->evaluate_moves(s->inst, st, sl->moves, n, sl->evals);
        for (int k = 0; k < n; k++) {
            /* One position can cost 100 ms and more (a 32x32 board with a
             * playout per child), so the clock is consulted per child too:
             * ps_search_stopped paces itself by the time its calls take. */
            if (k > 0 && slice_stopped(sl))
                return;
            ps_value gain = g->apply(s->inst, st, sl->moves[k], sl->tmp);
            sl->generated++;
            struct beam_cand c = {.g = b->g[i] + gain};
            if (b->rollout) {
                int room = b->max_depth - b->depth - 1;
                c.key = c.g + ps_playout_run(&sl->po, sl->tmp, &rng,
                                             room > 0 ? room : -1);
                sl->too_long |= sl->po.too_long;
                sl->playouts++;
                slice_consider(sl, i, true, sl->moves[k], c.key);
            } else {
                c.key = c.g + (at_once       ? sl->evals[k]
                               : g->evaluate ? g->evaluate(s->inst, sl->tmp)
                                             : 0);
            }
            /* Salted by a bijection, so duplicates stay duplicates, and
             * the candidate keeps its size for every objective. */
            c.hash = g->hash(s->inst, sl->tmp);
            if (b->salt)
                c.hash = ps_hash_mix(c.hash ^ b->salt);
            c.parent = i;
            c.move = sl->moves[k];
            slice_add(sl, &c);
        }
    }
}

/* Build kept children [first, last) into b->next. */
static void slice_build(void *arg)
{
    struct beam_slice *sl = arg;
    struct beam *b = sl->b;
    const struct ps_game *g = b->s->game;
    for (int k = sl->first; k < sl->last; k++) {
        const struct beam_cand *c = &b->kept[k];
        g->apply(b->s->inst, beam_state(b, b->cur, c->parent), c->move,
                 beam_state(b, b->next, k));
    }
}

/* Run fn on slices 0..n-1, slice 0 on this thread (a slice whose thread
 * cannot start runs here too: threads.h). */
static void run_slices(struct beam *b, int n, ps_task_fn *fn)
{
    struct ps_threads t;
    ps_threads_start(&t, n - 1, fn, &b->slices[1], sizeof b->slices[0]);
    fn(&b->slices[0]);
    ps_threads_join(&t);
}

/* Split [0, n) into at most b->threads slices, none smaller than `grain`;
 * returns how many. */
static int split_range(struct beam *b, int from, int to, int grain)
{
    int n = to - from;
    int t = n / grain;
    if (t > b->threads)
        t = b->threads;
    if (t < 1)
        t = 1;
    for (int i = 0; i < t; i++) {
        b->slices[i].first = from + (int)((int64_t)n * i / t);
        b->slices[i].last = from + (int)((int64_t)n * (i + 1) / t);
    }
    return t;
}

static int split(struct beam *b, int n, int grain)
{
    return split_range(b, 0, n, grain);
}

/* ---- one depth ---- */

/* The best b->width distinct candidates of c[0..nc), in order, into out,
 * which may be c itself (out[kept] is written only after c[kept] was read);
 * returns how many. */
static int keep_distinct(struct beam *b, struct beam_cand *c, int nc,
                         struct beam_cand *out)
{
    memset(b->seen, 0, b->seen_slots * sizeof *b->seen);
    size_t done = 0;
    int kept = 0;
    int (*order)(const void *, const void *) = cand_order_of(b);
    while (kept < b->width && done < (size_t)nc) {
        /* Rank a little more than still needed: some will be duplicates. */
        size_t need = (size_t)(b->width - kept), want = need + need / 4 + 16;
        if (want > (size_t)nc - done)
            want = (size_t)nc - done;
        select_best(c + done, (size_t)nc - done, want, order);
        qsort(c + done, want, sizeof *c, order);
        for (size_t k = done; k < done + want && kept < b->width; k++) {
            if (ps_hash_set_add(b->seen, b->seen_slots, c[k].hash))
                out[kept++] = c[k];
            else
                b->s->stats.duplicates++;
        }
        done += want;
    }
    return kept;
}

/* Expand the beam into b->cand; offer finished games. Returns the number of
 * candidates, or -1 when stopped. */
static int beam_expand(struct beam *b)
{
    struct ps_search *s = b->s;
    int n = b->count;
    /* A node budget cuts the depth at the same position for every thread
     * count, so a seeded run with --max-nodes repeats exactly. */
    bool budget_cut = false;
    if (s->limits.max_nodes) {
        uint64_t left = s->limits.max_nodes > s->stats.expanded
                            ? s->limits.max_nodes - s->stats.expanded
                            : 0;
        if ((uint64_t)n > left) {
            n = (int)left;
            budget_cut = true;
        }
    }
    /* Clearing objectives: the parents (best first: the beam is kept in
     * rank order) are expanded in rounds, and once a round leaves
     * BEAM_ENOUGH x width candidates the rest of the depth only offers its
     * finished games. The rounds are cut by parent index, never by thread,
     * so the candidates, and the answer, are the same for every thread
     * count. */
    int round = n, enough = 0;
    if ((s->flags & PS_BOUND_OFTEN_MET) && BEAM_ENOUGH > 0) {
        round = b->width / 8 > 16 ? b->width / 8 : 16;
        enough = BEAM_ENOUGH * b->width;
    }
    /* b->cand holds what earlier rounds kept (at most width, below), then
     * each slice's buffer. */
    int nc = 0;
    bool cut = false;
    b->made = 0;
    for (int from = 0, to; from < n; from = to) {
        to = n - from > round ? from + round : n;
        int t = split_range(b, from, to, 16);
        for (int i = 0; i < t; i++) {
            struct beam_slice *sl = &b->slices[i];
            sl->cand = b->cand + (size_t)b->width + (size_t)i * sl->cand_cap;
            sl->nc = 0;
            memset(sl->slot, 0, sl->slot_count * sizeof *sl->slot);
            sl->found = false;
            sl->finished_only = cut;
            sl->expanded = sl->generated = sl->playouts = sl->duplicates = 0;
            sl->too_long = false;
        }
        run_slices(b, t, slice_expand);
        for (int i = 0; i < t; i++) {
            struct beam_slice *sl = &b->slices[i];
            if (sl->found)
                ps_search_offer(s, sl->best_line, sl->best_len, sl->best);
            s->stats.expanded += sl->expanded;
            s->stats.generated += sl->generated;
            s->stats.playouts += sl->playouts;
            s->stats.duplicates += sl->duplicates;
            b->made += sl->generated;
            memmove(b->cand + nc, sl->cand, (size_t)sl->nc * sizeof *b->cand);
            nc += sl->nc;
            if (sl->too_long)
                ps_search_line_fits(s, b->max_depth); /* stops the search */
        }
        if (atomic_load(&b->abort) || s->stop != PS_STOP_NONE)
            break;
        /* Room for the next round's buffers: only the best width stay. */
        if (nc > b->width && to < n)
            nc = keep_distinct(b, b->cand, nc, b->cand);
        if (enough && b->made >= (uint64_t)enough && !cut) {
            cut = true;
            round = n; /* the finished-game checks in one round */
        }
    }
    if (budget_cut && s->stop == PS_STOP_NONE)
        s->stop = PS_STOP_NODES;
    return atomic_load(&b->abort) || s->stop != PS_STOP_NONE ? -1 : nc;
}

/* Keep the depth's best b->width distinct candidates, in order, in
 * b->kept. */
static int beam_choose(struct beam *b, int nc)
{
    int kept = keep_distinct(b, b->cand, nc, b->kept);
    uint64_t past = b->made > (uint64_t)kept ? b->made - (uint64_t)kept : 0;
    b->s->stats.pruned += past;
    b->s->stats.pruned_candidates += past; /* past the width */
    return kept;
}

/* The best position of the current depth finished with one playout and
 * offered: where time is up mid-beam, and under --time at every depth
 * (finish_each_depth), so that a beam cut at depth d offers nothing the
 * same beam run to its end did not. The playout's stream depends on the
 * seed alone, so the offer is the same in both. */
static void beam_finish(struct beam *b)
{
    if (b->count == 0)
        return;
    struct beam_slice *sl = &b->slices[0];
    struct ps_rng rng;
    ps_rng_seed_stream(&rng, b->s->opt.seed, UINT64_MAX);
    int room = b->max_depth - b->depth;
    ps_value v = b->g[0] + ps_playout_run(&sl->po, beam_state(b, b->cur, 0),
                                          &rng, room > 0 ? room : -1);
    if (sl->po.too_long) {
        ps_search_line_fits(b->s, b->max_depth); /* stops the search */
        return;
    }
    int len = beam_path(b, b->depth, 0, sl->best_line);
    memcpy(sl->best_line + len, sl->po.line,
           (size_t)sl->po.length * sizeof *sl->best_line);
    ps_search_offer(b->s, sl->best_line, len + sl->po.length, v);
    b->s->stats.playouts++;
}

/* ---- --checkpoint (checkpoint.h) ----
 * The safe point is the start of a depth. The candidates are scratch there,
 * and a playout's random stream is (seed, depth, position), not a
 * generator's state; the positions are rebuilt from their lines when the
 * run resumes, so the file holds no state's bytes. The width, the depth,
 * each position's score so far, the steps that lead to the positions, the
 * counters and the best line are the whole state: one part for the whole
 * search, since the beam is the same for every thread count. */

struct beam_saved {
    bool have;
    bool narrowed;
    int width, depth, count;
    ps_value *g;             /* count */
    struct beam_step *steps; /* depth x width: the rows of depths 1..depth */
};

static void beam_checkpoint(struct beam *b)
{
    struct ps_search *s = b->s;
    struct ps_ckpt_buf buf;
    if (!ps_checkpoint_search_save(s, 0, &buf))
        return;
    ps_ckpt_put_u64(&buf, (uint64_t)b->width);
    ps_ckpt_put_u64(&buf, b->narrowed);
    ps_ckpt_put_u64(&buf, (uint64_t)b->depth);
    ps_ckpt_put_u64(&buf, (uint64_t)b->count);
    ps_ckpt_put(&buf, b->g, (size_t)b->count * sizeof *b->g);
    ps_ckpt_put(&buf, b->steps + b->width,
                (size_t)b->depth * (size_t)b->width * sizeof *b->steps);
    ps_checkpoint_save(s, 0, &buf);
}

static void beam_saved_free(struct beam_saved *sv)
{
    free(sv->g);
    free(sv->steps);
    memset(sv, 0, sizeof *sv);
}

/* n items of `size` bytes from r into a new array (NULL, r bad, when the
 * part is shorter). */
static void *beam_get_array(struct ps_ckpt_reader *r, size_t n, size_t size)
{
    if (r->bad || n > (r->len - r->pos) / size) {
        r->bad = true;
        return NULL;
    }
    void *p = malloc(n * size + 1);
    if (!p)
        r->bad = true;
    else
        ps_ckpt_get(r, p, n * size);
    return p;
}

/* The saved beam, when the run resumes; false for a fresh start, or (with
 * s->stop set) a part that does not read back. */
static bool beam_resume(struct ps_search *s, struct beam_saved *sv)
{
    struct ps_ckpt_reader r;
    if (!ps_checkpoint_search_resume(s, 0, 1, &r))
        return false;
    sv->width = (int)ps_ckpt_get_count(&r, 1u << 28);
    sv->narrowed = ps_ckpt_get_u64(&r) != 0;
    sv->depth = (int)ps_ckpt_get_count(&r, (uint64_t)s->game->max_depth(s->inst));
    sv->count = (int)ps_ckpt_get_count(&r, (uint64_t)sv->width);
    sv->g = beam_get_array(&r, (size_t)sv->count, sizeof *sv->g);
    sv->steps = beam_get_array(&r, (size_t)sv->depth * (size_t)sv->width,
                               sizeof *sv->steps);
    for (size_t k = 0; !r.bad && k < (size_t)sv->depth * (size_t)sv->width; k++)
        if (sv->steps[k].parent < 0 || sv->steps[k].parent >= sv->width)
            r.bad = true;
    if (sv->width < 1 || sv->count < 1)
        r.bad = true;
    if (!ps_checkpoint_read_end(s, 0, &r)) {
        beam_saved_free(sv);
        return false;
    }
    sv->have = true;
    return true;
}

/* The saved beam into b (allocated at its width): its positions replayed
 * from the start along their lines, every move checked against the moves
 * the game lists and every score against the line's gains (the file is
 * input: its checksum says nothing of its truth). False, the search
 * stopped on an error, when a line does not replay. */
static bool beam_restore(struct beam *b, const struct beam_saved *sv)
{
    struct ps_search *s = b->s;
    const struct ps_game *g = s->game;
    memcpy(b->g, sv->g, (size_t)sv->count * sizeof *b->g);
    memcpy(b->steps + b->width, sv->steps,
           (size_t)sv->depth * (size_t)b->width * sizeof *b->steps);
    b->depth = sv->depth;
    b->count = sv->count;
    struct beam_slice *sl = &b->slices[0];
    bool sound = true;
    for (int i = 0; i < b->count && sound; i++) {
        unsigned char *st = beam_state(b, b->cur, i);
        int len = beam_path(b, b->depth, i, sl->best_line);
        g->initial_state(s->inst, st);
        ps_value so_far = 0;
        for (int d = 0; d < len && sound; d++) {
            int n = g->moves(s->inst, st, sl->moves, NULL);
            sound = false;
            for (int k = 0; k < n && !sound; k++)
                sound = sl->moves[k] == sl->best_line[d];
            if (sound) {
                so_far += g->apply(s->inst, st, sl->best_line[d], sl->tmp);
                memcpy(st, sl->tmp, s->state_size);
            }
        }
        sound = sound && so_far == b->g[i];
    }
    if (!sound) {
        ps_error_set(&s->error, s->checkpoint->resumed, 0, 0,
                     "cannot resume: the beam's state is corrupt (a line "
                     "that does not replay to its score)");
        s->stop = PS_STOP_ERROR;
    }
    return sound;
}

/* One beam of width b->width from the start, or from the saved beam `from`
 * (NULL: none); false when stopped. */
static bool beam_once(struct beam *b, const struct beam_saved *from)
{
    struct ps_search *s = b->s;
    if (from) {
        if (!beam_restore(b, from))
            return false;
    } else {
        s->game->initial_state(s->inst, b->cur);
        b->g[0] = 0;
        b->count = 1;
        b->depth = 0;
    }
    for (; b->count > 0; b->depth++) {
        beam_checkpoint(b);
        if (b->finish_each_depth)
            beam_finish(b);
        int nc = beam_expand(b);
        if (nc < 0) {
            if (!b->finish_each_depth)
                beam_finish(b);
            return false;
        }
        /* children one move past max_depth: the game broke its promise */
        if (nc > 0 && !ps_search_line_fits(s, b->depth))
            return false;
        int kept = beam_choose(b, nc);
        ps_search_trace_event(s, &(struct ps_trace_event){
                                     .kind = PS_TRACE_DEPTH,
                                     .has = PS_TF_DEPTH | PS_TF_WIDTH |
                                            PS_TF_OPEN | PS_TF_CANDIDATES,
                                     .depth = b->depth + 1,
                                     .width = b->width,
                                     .open = (uint64_t)kept,
                                     .candidates = b->made});
        for (int k = 0; k < kept; k++) {
            const struct beam_cand *c = &b->kept[k];
            b->next_g[k] = c->g;
            b->steps[(size_t)(b->depth + 1) * b->width + k] =
                (struct beam_step){c->parent, c->move};
        }
        run_slices(b, split(b, kept, 64), slice_build);
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

/* ---- memory ---- */

static void slice_free(struct beam_slice *sl)
{
    free(sl->moves);
    free(sl->evals);
    free(sl->tmp);
    free(sl->best_line);
    free(sl->slot);
    ps_playout_free(&sl->po);
}

static bool slice_init(struct beam *b, struct beam_slice *sl)
{
    struct ps_search *s = b->s;
    struct ps_error err;
    sl->b = b;
    sl->moves = malloc((size_t)b->max_moves * sizeof *sl->moves);
    sl->evals = malloc((size_t)b->max_moves * sizeof *sl->evals);
    sl->tmp = malloc(s->state_size);
    sl->best_line = malloc(((size_t)b->max_depth + 1) * sizeof *sl->best_line);
    if (!sl->moves || !sl->evals || !sl->tmp || !sl->best_line ||
        !ps_playout_init(&sl->po, s->game, s->inst))
        return false;
    /* The command line checked the policy name; a bad one from a library
     * caller falls back to the game's default policy. */
    ps_error_clear(&err);
    if (!ps_playout_set_policy(&sl->po, s->opt.policy, s->opt.topk, &err))
        ps_playout_set_policy(&sl->po, NULL, s->opt.topk, &err);
    return true;
}

static void beam_free(struct beam *b)
{
    free(b->cur);
    free(b->next);
    free(b->g);
    free(b->next_g);
    free(b->steps);
    free(b->cand);
    free(b->kept);
    free(b->seen);
    for (int t = 0; b->slices && t < b->threads; t++)
        slice_free(&b->slices[t]);
    free(b->slices);
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
    /* The slices' scratch (a playout's buffers, the moves, a state and a
     * line each) counts too: on a 32x32 board it is most of a narrow beam. */
    /* A slice's buffer holds width candidates after a compaction and one
     * position's children more, twice the width between compactions. */
    size_t cap = 2 * w + (size_t)b->max_moves, slots = 1;
    while (slots < 2 * cap)
        slots <<= 1;
    uint64_t per_slice = ps_playout_bytes(s->game, s->inst) +
                         (uint64_t)b->max_moves * sizeof(ps_move) +
                         s->state_size + depth * sizeof(ps_move) +
                         sizeof(struct beam_slice) +
                         cap * sizeof(struct beam_cand) +
                         slots * sizeof(int32_t);
    uint64_t bytes = 2 * w * (s->state_size + sizeof(ps_value)) +
                     depth * w * sizeof(struct beam_step) +
                     2 * w * sizeof(struct beam_cand) + /* cand's head, kept */
                     b->seen_slots * sizeof(uint64_t) +
                     (uint64_t)b->threads * per_slice;
    if (!ps_memory_reserve(s, bytes))
        return false;
    b->reserved = bytes;
    b->cur = malloc(w * s->state_size);
    b->next = malloc(w * s->state_size);
    b->g = malloc(w * sizeof *b->g);
    b->next_g = malloc(w * sizeof *b->next_g);
    /* zeroed: a checkpoint copies whole rows, the unused ends too */
    b->steps = calloc(depth * w, sizeof *b->steps);
    b->cand = malloc((w + (size_t)b->threads * cap) * sizeof *b->cand);
    b->kept = malloc(w * sizeof *b->kept);
    b->seen = malloc(b->seen_slots * sizeof *b->seen);
    b->slices = calloc((size_t)b->threads, sizeof *b->slices);
    bool ok = b->cur && b->next && b->g && b->next_g && b->steps && b->cand &&
              b->kept && b->seen && b->slices;
    for (int t = 0; ok && t < b->threads; t++) {
        struct beam_slice *sl = &b->slices[t];
        ok = slice_init(b, sl);
        sl->cand_cap = (int)cap;
        sl->slot_count = slots;
        sl->slot = ok ? malloc(slots * sizeof *sl->slot) : NULL;
        ok = ok && sl->slot;
    }
    return ok;
}

static const struct ps_beam_options *beam_opt(const struct ps_search *s)
{
    return ps_search_algo_options(s);
}

/* The width of a clearing objective's next beam under --time (beam.h):
 * there a cleared board ends the run, and the last beam sized to fill the
 * time clears more boards than doubling, which leaves the last complete
 * beam two to four times narrower than the time allows. */
int ps_beam_next_width(double seconds, double left, int width, double took,
                       int again_from)
{
    double fits = took > 0 ? 0.85 * left * width / took : 8.0 * width;
    /* A beam that took under 2% of the budget is timed poorly (start-up
     * costs weigh in): grow at most 8 times, then time again. Beyond that
     * the time per width is flat (0.064 ms on 10x10 PopStar from width 6400
     * to 204800), so the last beam can be sized to fill the time. */
    if (took < 0.02 * seconds && fits > 8.0 * width)
        fits = 8.0 * width;
    if (fits > (double)(1 << 28))
        return 0;
    if (fits < 1.25 * width && !(again_from > 0 && fits >= again_from))
        return 0;
    return (int)fits;
}

/* The next beam's width under --time; 0 = none. Score objectives double
 * it, whatever the clock says: then a run's beams are the same list for
 * every budget, a longer run makes every offer a shorter one made (with
 * finish_each_depth), and more time never gives a lower score. Sized to the
 * time left, the last beam was wider, but a rise in the load mid-run cut
 * it, and 2.6 s gave less than 1 s (docs/algorithms.md, beam). Clearing
 * objectives: a beam that did not clear the board is followed by another
 * as wide as fits, wider or not, down to --beam-width: its ties go another
 * way (beam_salt), and it may clear the board. */
static int next_width(const struct ps_search *s, int width, double took)
{
    if (!(s->flags & PS_BOUND_OFTEN_MET))
        return width <= (1 << 27) ? 2 * width : 0;
    return ps_beam_next_width(s->limits.seconds, ps_search_seconds_left(s),
                              width, took, beam_opt(s)->width);
}

/* The exact dfs on a copy of the search s, from `root` (NULL: the start),
 * for at most `nodes` nodes (and s's own node limit) and `seconds` (0 =
 * no clock); its nodes count in s's statistics. True when it searched
 * every line (its best, in sub->best, is then optimal from root). The
 * caller frees *sub with ps_search_free. */
static bool beam_sub_dfs(struct ps_search *s, struct ps_search *sub,
                         const unsigned char *root, uint64_t nodes,
                         double seconds)
{
    const struct ps_algorithm *dfs = ps_algorithm_find("dfs");
    /* exact: dfs's defaults, not the user's dfs options; nested, so dfs
     * runs no incumbent beam of its own inside this beam */
    ps_search_nest(sub, s, dfs);
    free(sub->best.moves); /* the line to beat is none */
    memset(&sub->best, 0, sizeof sub->best);
    sub->progress = sub->progress_log = false;
    sub->stop = PS_STOP_NONE;
    sub->root_state = root;
    /* s's root bound is the start's: from another root a line at that
     * value is not a proof. */
    if (root)
        sub->bounded = false;
    /* The nested run counts on from s's counters: its budget is `nodes`
     * more, within s's own. */
    sub->limits.max_nodes = s->stats.expanded + nodes;
    if (s->limits.max_nodes && s->limits.max_nodes < sub->limits.max_nodes)
        sub->limits.max_nodes = s->limits.max_nodes;
    sub->limits.seconds = seconds > 0 ? ps_now() - s->start + seconds : 0;
    sub->tick = 0;
    sub->clock_every = 1;
    if (!dfs || sub->limits.max_nodes <= s->stats.expanded)
        return false;
    enum ps_status st = dfs->run(sub);
    ps_search_fold(s, sub);
    return st == PS_OPTIMAL && sub->stop == PS_STOP_NONE;
}

/* Clearing objectives (PS_BOUND_OFTEN_MET): before any beam, the exact dfs
 * on a copy of the search, for --beam-dfs nodes (and at most 5% of --time),
 * and its best line offered. A board it clears is worth the start's upper
 * bound, so the offer ends the run as proven (PS_STOP_PROVEN); otherwise
 * the beam goes on as before, with that line to beat. The node budget, not
 * the clock, bounds the dfs when no --time is given, so the run repeats;
 * its nodes count in the run's statistics (and against --max-nodes).
 * True when the dfs finished within its budget: its line is then proven
 * best (a small board it shows cannot be cleared, say). */
static bool beam_dfs_first(struct ps_search *s)
{
    if (!(s->flags & PS_BOUND_OFTEN_MET) || beam_opt(s)->dfs_nodes <= 0 ||
        !s->bounded)
        return false;
    struct ps_search sub;
    bool exhausted =
        beam_sub_dfs(s, &sub, NULL, (uint64_t)beam_opt(s)->dfs_nodes,
                     s->limits.seconds > 0 ? 0.05 * s->limits.seconds : 0);
    bool kept = sub.best.found && ps_search_offer(s, sub.best.moves,
                                                  sub.best.len, sub.best.value);
    if (kept && (exhausted || s->stop == PS_STOP_PROVEN))
        snprintf(s->note, sizeof s->note, "%s (--beam-dfs %d)",
                 exhausted ? "optimal: beam's dfs first searched every line"
                           : "heuristic: beam's dfs first",
                 beam_opt(s)->dfs_nodes);
    ps_search_free(&sub);
    return kept && exhausted;
}

/* The end-game pass (--beam-endgame N): the best line's end game solved
 * exactly. From the position before the line's last move, then one move
 * earlier each time, the exact dfs searches the rest of the game; a better
 * rest replaces the line's (the line up to there is kept, so later, earlier
 * searches start from the new line). It stops at the first search that
 * needs more than N nodes: the one before it was the largest end game
 * solved. Under --time it has the time the beams left; the node budget, not
 * the clock, decides where it stops otherwise, so a run repeats. The line
 * can only improve: a rest is taken only when strictly better, and every
 * line goes through ps_search_offer. */
static void beam_endgame(struct ps_search *s)
{
    if (beam_opt(s)->endgame <= 0 || !s->best.found || s->best.len == 0 ||
        s->stop != PS_STOP_NONE)
        return;
    const struct ps_game *g = s->game;
    size_t ss = s->state_size;
    int len = s->best.len;
    unsigned char *states = malloc(((size_t)len + 1) * ss);
    ps_value *so_far = malloc(((size_t)len + 1) * sizeof *so_far);
    ps_move *line = malloc(((size_t)g->max_depth(s->inst) + 1) * sizeof *line);
    if (!states || !so_far || !line)
        goto done;
    /* The positions of the line, and the score before each; the line is
     * not changed before a position at or past d is searched. */
    g->initial_state(s->inst, states);
    so_far[0] = 0;
    for (int d = 0; d < len; d++)
        so_far[d + 1] = so_far[d] + g->apply(s->inst, states + (size_t)d * ss,
                                             s->best.moves[d],
                                             states + (size_t)(d + 1) * ss);
    for (int d = len - 1; d >= 0; d--) {
        double seconds = ps_search_seconds_left(s);
        if (seconds <= 0)
            break;
        if (seconds == HUGE_VAL)
            seconds = 0; /* no clock */
        struct ps_search sub;
        bool exhausted = beam_sub_dfs(s, &sub, states + (size_t)d * ss,
                                      (uint64_t)beam_opt(s)->endgame, seconds);
        if (exhausted && sub.best.found &&
            sub.best.len + d <= g->max_depth(s->inst)) {
            memcpy(line, s->best.moves, (size_t)d * sizeof *line);
            memcpy(line + d, sub.best.moves,
                   (size_t)sub.best.len * sizeof *line);
            ps_search_offer(s, line, d + sub.best.len,
                            so_far[d] + sub.best.value);
        }
        ps_search_free(&sub);
        if (!exhausted || s->stop != PS_STOP_NONE)
            break;
    }
done:
    free(states);
    free(so_far);
    free(line);
}

static enum ps_status beam_run(struct ps_search *s)
{
    /* A resumed run has had its dfs first: its line and nodes are in the
     * counters and the best line read back. */
    struct beam_saved saved = {0};
    bool resumed = beam_resume(s, &saved);
    if (!resumed && s->stop == PS_STOP_NONE && beam_dfs_first(s)) {
        s->stop = PS_STOP_NONE; /* a proof, not a limit */
        return PS_OPTIMAL;
    }
    if (s->stop != PS_STOP_NONE) {
        beam_saved_free(&saved);
        return PS_HEURISTIC;
    }

    int width = resumed ? saved.width
                        : beam_opt(s)->width > 0 ? beam_opt(s)->width : 1;
    bool rollout = beam_opt(s)->playout || !s->game->evaluate;
    /* checked before the run (cli_parse_algos); a spec that fails here
     * anyway leaves the game's evaluate */
    double weights[PS_MAX_EVAL_WEIGHTS];
    struct ps_error werr;
    bool weighted = beam_opt(s)->weights &&
                    ps_beam_weights_parse(s->game, beam_opt(s)->weights,
                                          weights, &werr);
    int threads = ps_thread_count(s);
    bool first = true, narrowed = resumed && saved.narrowed;
    int complete = 0; /* the widest beam that ran to its end */
    for (;;) {
        struct beam b = {.s = s,
                         .max_depth = s->game->max_depth(s->inst),
                         .max_moves = s->game->max_moves(s->inst),
                         .threads = threads,
                         .rollout = rollout,
                         .weights = weighted ? weights : NULL,
                         .salt = beam_salt(s, width),
                         .narrowed = narrowed,
                         .finish_each_depth = s->limits.seconds > 0 &&
                                              !beam_opt(s)->one_beam};
        atomic_init(&b.abort, false);
        double began = ps_now();
        bool room = beam_alloc(&b, width);
        bool done = room && beam_once(&b, saved.have ? &saved : NULL);
        beam_free(&b);
        beam_saved_free(&saved); /* a beam of another width starts afresh */
        if (!room) {
            /* A wider beam than memory allows ends the widening, not the
             * run. A first beam that does not fit is narrowed until it does
             * (the same widths for the same limit: still deterministic);
             * only when not even one position fits is there no answer. */
            if (first && width > 1) {
                width /= 2;
                narrowed = true;
                continue;
            }
            if (first)
                s->stop = PS_STOP_MEMORY;
            break;
        }
        first = false;
        /* The widest beam that ran to its end names the run; a wider one
         * cut by a limit is said so. */
        char cut[48] = "";
        if (done)
            complete = width;
        else if (complete > 0)
            snprintf(cut, sizeof cut, " (%d cut short)", width);
        snprintf(s->note, sizeof s->note,
                 "heuristic: beam width %d%s%s, %s, %d thread%s",
                 complete > 0 ? complete : width, cut,
                 narrowed ? " (narrowed to fit --max-memory)" : "",
                 rollout    ? "playout evaluation"
                 : weighted ? "weighted evaluation"
                            : "game evaluation",
                 threads,
                 threads == 1 ? "" : "s");
        if (!done || s->limits.seconds <= 0 || beam_opt(s)->one_beam)
            break;
        width = next_width(s, width, ps_now() - began);
        if (width == 0)
            break;
    }
    beam_endgame(s);
    return PS_HEURISTIC;
}

/* beam's options (options.h); the playout's are shared (--beam-eval playout) */
static const struct ps_beam_options beam_defaults = {.width = 100,
                                                     .dfs_nodes = 20000};

static const struct ps_option beam_options[] = {
    {.name = "beam-width",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_beam_options, width),
     .min = 1,
     .max = 1e9,
     .arg = "W",
     .def = "100",
     .doc = "width; under --time the first beam, followed by beams twice as wide each until the time is up (clearing objectives: as wide as fits the time, then narrower ones, down to W, until the board is cleared)"},
    {.name = "beam-eval",
     .type = PS_OPT_CHOICE,
     .offset = offsetof(struct ps_beam_options, playout),
     .choices = "game|playout",
     .arg = "E",
     .def = "game",
     .doc = "judge positions by the game's evaluation or by one playout of the policy"},
    {.name = "beam-weights",
     .type = PS_OPT_STRING,
     .offset = offsetof(struct ps_beam_options, weights),
     .arg = "SPEC",
     .def = "none",
     .doc = "judge positions by the game's weighted evaluation: 'default' (the game's tuned weights) or NAME=V,... (psolve list shows the names); none = the game's evaluation"},
    {.name = "beam-dfs",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_beam_options, dfs_nodes),
     .min = 0,
     .max = 1e9,
     .arg = "N",
     .def = "20000",
     .doc = "clearing objectives (clickomania): first an exact dfs of N nodes (at most 5% of --time); a board it clears ends the run, optimal; 0 = off"},
    {.name = "beam-endgame",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_beam_options, endgame),
     .min = 0,
     .max = 1e9,
     .arg = "N",
     .def = "0",
     .doc = "then the best line's end game, solved exactly by dfs from ever earlier positions while a search takes at most N nodes; 0 = off"},
    {0},
};

const struct ps_algorithm ps_algo_beam = {
    .name = "beam",
    .summary = "beam search over score + the game's evaluation (heuristic)",
    .for_score = true,
    .for_cost = false,
    .run = beam_run,
    .options = beam_options,
    .options_size = sizeof(struct ps_beam_options),
    .options_default = &beam_defaults,
    .shared_options = ps_playout_options,
    .checkpoint = PS_CHECKPOINT_SEARCH,
};
