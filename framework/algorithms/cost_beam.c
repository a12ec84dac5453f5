/*
 * cost_beam.c - a quick line for a cost game before an exact search proves
 * the optimum (cost_beam.h), ranked by f or by the game's evaluation. dfs
 * on cost games runs it first: its line is the answer a limit or Ctrl-C
 * returns, and once a round's bound reaches its cost the line is proven
 * optimal without the last, largest round.
 */
#include "cost_beam.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"

struct cand {
    ps_value key; /* the rank's: less first (pending: at most it) */
    ps_value f, g;
    /* A lazy rank's (child_key): the floor that stood in for h in key and
     * f, h not yet known; -1 once they are exact. */
    ps_value floor;
    uint32_t made; /* the order it was made in: parents', then moves' */
    uint64_t hash;
    int32_t parent;
    ps_move move;
};

/* By key, then by f, then the order made: the game's own order decides
 * the rest, never its hash (two games with the same moves and another
 * hash, like the Lua and C n-puzzles, keep the same beam). */
static int by_key(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->f != y->f)
        return x->f < y->f ? -1 : 1;
    return x->made < y->made ? -1 : x->made > y->made;
}

/* The widest range of keys sort_by_key counts; wider ones go to qsort. So
 * do beams with more than COUNT_MAX candidates a depth (the counting needs
 * a second array of them: 3 MB here, where the widest beams would need
 * hundreds). */
#define COUNT_RANGE 1024
#define COUNT_MAX 65536

/* key - lo for key >= lo, in unsigned arithmetic: no overflow whatever
 * the keys (a game's evaluation may be any value). */
static uint64_t key_offset(ps_value key, ps_value lo)
{
    return (uint64_t)key - (uint64_t)lo;
}

/* One stable counting pass: from[0..n) to to[0..n) in the order of their
 * f (by_f) or key, less lo, which lies in [0, range). `count` holds range
 * + 1 places. */
static void counting_pass(const struct cand *from, struct cand *to, size_t n,
                          bool by_f, ps_value lo, size_t range, size_t *count)
{
    memset(count, 0, (range + 1) * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[key_offset(by_f ? from[i].f : from[i].key, lo) + 1]++;
    for (size_t k = 1; k <= range; k++)
        count[k] += count[k - 1]; /* count[k]: where value lo + k starts */
    for (size_t i = 0; i < n; i++)
        to[count[key_offset(by_f ? from[i].f : from[i].key, lo)]++] = from[i];
}

/* cand[0..n) in by_key order, where cand[i].made == i. A depth's keys and
 * f lie in narrow ranges (a few dozen values on Former boards), so they
 * are counted: a stable pass by f, then one by key, leaves the candidates
 * by key, then f, then the order made. qsort when either range is wider
 * than COUNT_RANGE, or with no `out`. `out` holds n candidates, `count`
 * COUNT_RANGE + 1 places; the sorted candidates end in cand. On dfs's
 * ladder of Former board 08, qsort took about 1.5 M of the 9.8 M
 * instructions of its first 400 expansions; counting the keys saved
 * 1.1 M. Counting f too (before: a run of one key whose f differ went to
 * qsort past 32) took the 9.4% qsort still had of the first 3,800
 * expansions of generated board 8057. */
static void sort_by_key(struct cand *cand, size_t n, struct cand *out,
                        size_t *count)
{
    if (n < 2)
        return;
    if (!out) {
        qsort(cand, n, sizeof *cand, by_key);
        return;
    }
    ps_value lo = cand[0].key, hi = cand[0].key;
    ps_value f_lo = cand[0].f, f_hi = cand[0].f;
    for (size_t i = 1; i < n; i++) {
        lo = cand[i].key < lo ? cand[i].key : lo;
        hi = cand[i].key > hi ? cand[i].key : hi;
        f_lo = cand[i].f < f_lo ? cand[i].f : f_lo;
        f_hi = cand[i].f > f_hi ? cand[i].f : f_hi;
    }
    if (key_offset(hi, lo) >= COUNT_RANGE ||
        key_offset(f_hi, f_lo) >= COUNT_RANGE) {
        qsort(cand, n, sizeof *cand, by_key);
        return;
    }
    size_t range = (size_t)key_offset(hi, lo) + 1;
    size_t f_range = (size_t)key_offset(f_hi, f_lo) + 1;
    counting_pass(cand, out, n, true, f_lo, f_range, count);
    counting_pass(out, cand, n, false, lo, range, count);
}

/* A heap of candidates by by_key, least first: a lazy rank's candidates
 * whose key rose once h was known wait there for their turn. */
static void heap_push(struct cand *h, size_t *n, const struct cand *x)
{
    size_t i = (*n)++;
    for (; i > 0 && by_key(x, &h[(i - 1) / 2]) < 0; i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = *x;
}

static struct cand heap_pop(struct cand *h, size_t *n)
{
    struct cand top = h[0], x = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && by_key(&h[c + 1], &h[c]) < 0)
            c++;
        if (by_key(&h[c], &x) >= 0)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = x;
    return top;
}

/* The line to entry `k` of depth `depth`, written to line[0..depth). */
static void line_to(const int32_t *parents, const ps_move *moves, int width,
                    int depth, int k, ps_move *line)
{
    for (int d = depth - 1; d >= 0; d--) {
        line[d] = moves[(size_t)d * (size_t)width + (size_t)k];
        k = parents[(size_t)d * (size_t)width + (size_t)k];
    }
}

/* The memo's slots: a power of two, about the distinct states of dfs's
 * ladder on a Former board (4,337 when it climbed to 16). */
#define MEMO_SLOTS 8192

enum { MEMO_EVALUATION = 1, MEMO_H = 2, MEMO_MOVES = 4 };

struct memo_slot {
    uint64_t hash; /* | 1; 0: empty */
    ps_value evaluation, h;
    int32_t moves;
    uint32_t known; /* MEMO_* */
};

struct ps_cost_beam_memo {
    struct memo_slot slot[MEMO_SLOTS];
};

struct ps_cost_beam_memo *ps_cost_beam_memo_new(struct ps_search *s)
{
    if (!ps_memory_reserve(s, sizeof(struct ps_cost_beam_memo)))
        return NULL;
    struct ps_cost_beam_memo *m = calloc(1, sizeof *m);
    if (!m)
        ps_memory_release(s, sizeof(struct ps_cost_beam_memo));
    return m;
}

void ps_cost_beam_memo_free(struct ps_search *s, struct ps_cost_beam_memo *m)
{
    if (!m)
        return;
    free(m);
    ps_memory_release(s, sizeof *m);
}

/* h of a child, kept in its memo slot `m` (or NULL). */
static ps_value memo_h(struct ps_search *s, const void *child,
                       struct memo_slot *m)
{
    ps_value h = ps_search_h(s, child);
    if (m) {
        m->h = h;
        m->known |= MEMO_H;
    }
    return h;
}

/* A child's key under `rank`. By f: 2 f + the legal moves (a unit of f is
 * worth two moves: fewer moves left mean bigger groups made, on SameGame;
 * measured on Former's first lines, 7x9 boards of 4 colours, gen seeds
 * 3001-3040: the first beam of 1,000 556 clicks in all by f then moves,
 * 552 so; the quick one of 62, 577 and 567). By the evaluation and h:
 * the ladder's second rank (dfs.c, cost_ladder, compares the three).
 * What the child needs is read from the memo's slot `m` when known there,
 * else computed (and kept in it).
 * Lazy ranks (floor >= 0, the game's floor under the child's cost): the
 * rank's h is the larger of h and the floor, both lower bounds on the
 * cost. When the memo does not know h, the floor stands in for it and
 * *pending = floor: key and f are then at most the exact ones, and
 * lazy_exact adds the difference once h is known (*pending = -1: exact). */
static ps_value child_key(struct ps_search *s, enum ps_cost_beam_rank rank,
                          const void *child, ps_value g, ps_value floor,
                          ps_value *f, ps_value *pending, ps_move *scratch,
                          struct memo_slot *m)
{
    const struct ps_game *gm = s->game;
    struct memo_slot none = {0};
    if (!m)
        m = &none;
    if (rank != PS_COST_BEAM_BY_F && !(m->known & MEMO_EVALUATION)) {
        m->evaluation = gm->evaluate(s->inst, child);
        m->known |= MEMO_EVALUATION;
    }
    ps_value h = 0;
    *pending = -1;
    if (rank != PS_COST_BEAM_BY_EVALUATION) {
        if (m->known & MEMO_H)
            h = m->h;
        else if (floor >= 0)
            h = *pending = floor;
        else
            h = memo_h(s, child, m);
        if (h < floor)
            h = floor;
    }
    if (rank == PS_COST_BEAM_BY_EVALUATION) {
        *f = g;
        return g - m->evaluation;
    }
    if (rank == PS_COST_BEAM_BY_EVALUATION_AND_H) {
        *f = g;
        return g + h - m->evaluation;
    }
    if (!(m->known & MEMO_MOVES)) {
        m->moves = gm->moves(s->inst, child, scratch, NULL);
        m->known |= MEMO_MOVES;
    }
    *f = g + h;
    return 2 * *f + m->moves;
}

/* Makes a pending candidate's key and f exact: h is now known. */
static void lazy_exact(enum ps_cost_beam_rank rank, struct cand *c,
                       ps_value h)
{
    ps_value more = h > c->floor ? h - c->floor : 0;
    c->floor = -1;
    if (rank == PS_COST_BEAM_BY_F) {
        c->f += more;
        c->key += 2 * more;
    } else {
        c->key += more;
    }
}

/* The memo's slot of the state of `hash`, emptied when it held another. */
static struct memo_slot *memo_slot(struct ps_cost_beam_memo *memo,
                                   uint64_t hash)
{
    if (!memo)
        return NULL;
    struct memo_slot *m = &memo->slot[(hash >> 17) & (MEMO_SLOTS - 1)];
    if (m->hash != (hash | 1))
        *m = (struct memo_slot){.hash = hash | 1};
    return m;
}

/* One depth of a beam as it fills: the states kept (next, their g, the
 * parent and move of each in the line's arrays) and the hashes taken. */
struct depth_fill {
    const unsigned char *cur; /* the depth's parents */
    unsigned char *next;
    ps_value *g;
    int32_t *parents;
    ps_move *moves;
    uint64_t *seen;
    size_t seen_slots, ss;
    int kept;
};

/* Keeps candidate c as the depth's next state unless its state is kept
 * already (equal hashes: taken as the same state, which costs at worst a
 * worse line); made again from its parent. */
static void keep(struct ps_search *s, struct depth_fill *d,
                 const struct cand *c)
{
    if (!ps_hash_set_add(d->seen, d->seen_slots, c->hash))
        return;
    s->game->apply(s->inst, d->cur + (size_t)c->parent * d->ss, c->move,
                   d->next + (size_t)d->kept * d->ss);
    d->parents[d->kept] = c->parent;
    d->moves[d->kept] = c->move;
    d->g[d->kept] = c->g;
    d->kept++;
}

bool ps_cost_beam(struct ps_search *s, const void *root, int width,
                  int max_len, uint64_t budget, enum ps_cost_beam_rank rank,
                  struct ps_cost_beam_memo *memo)
{
    const struct ps_game *gm = s->game;
    const size_t ss = s->state_size, w = (size_t)width;
    const int mm = gm->max_moves(s->inst);
    /* The ranks with h are lazy where the game gives floors under its
     * children's costs and the run's heuristic is the game's own: a child's
     * key is first made with its floor for h, and h is made known only for
     * the children the beam reaches in key order; the others can only rank
     * lower. On Former boards h (empty-chain's search) was a third of the
     * ladder's instructions. */
    const bool lazy = rank != PS_COST_BEAM_BY_EVALUATION &&
                      gm->child_floors && s->heuristic == gm->heuristic;
    size_t seen_slots = 2;
    while (seen_slots < 2 * w)
        seen_slots *= 2;
    const size_t cands = w * (size_t)mm,
                 counted = cands <= COUNT_MAX ? cands : 0,
                 risen = lazy ? cands : 0;
    uint64_t bytes = 2 * w * ss +
                     (cands + counted + risen) * sizeof(struct cand) +
                     (COUNT_RANGE + 1) * sizeof(size_t) +
                     seen_slots * sizeof(uint64_t) +
                     (size_t)max_len * w * (sizeof(int32_t) + sizeof(ps_move)) +
                     w * sizeof(ps_value) + (size_t)max_len * sizeof(ps_move) +
                     2 * (size_t)mm * sizeof(ps_move) +
                     (lazy ? (size_t)mm * sizeof(ps_value) : 0);
    if (width < 1 || max_len < 1 ||
        (rank != PS_COST_BEAM_BY_F && !gm->evaluate) ||
        !ps_memory_reserve(s, bytes))
        return false;
    unsigned char *cur = malloc(w * ss), *next = malloc(w * ss);
    unsigned char *tmp = malloc(ss);
    struct cand *cand = malloc(cands * sizeof *cand);
    struct cand *sorted = counted ? malloc(counted * sizeof *sorted) : NULL;
    struct cand *rose = risen ? malloc(risen * sizeof *rose) : NULL;
    size_t *count = malloc((COUNT_RANGE + 1) * sizeof *count);
    int32_t *parents = malloc((size_t)max_len * w * sizeof *parents);
    ps_move *moves = malloc((size_t)max_len * w * sizeof *moves);
    ps_move *legal = malloc((size_t)mm * sizeof *legal);
    ps_move *later = malloc((size_t)mm * sizeof *later);
    ps_value *floors = lazy ? malloc((size_t)mm * sizeof *floors) : NULL;
    ps_value *g = malloc(w * sizeof *g);
    ps_move *line = malloc((size_t)max_len * sizeof *line);
    uint64_t *seen = malloc(seen_slots * sizeof *seen);
    bool found = false;
    if (!cur || !next || !tmp || !cand || !parents || !moves || !legal ||
        !later || (lazy && !floors) || !g || !line || !seen || (counted && !sorted) ||
        (risen && !rose) || !count)
        goto done;
    memcpy(cur, root, ss);
    g[0] = 0;
    int n = 1;
    ps_value best = 0;
    const uint64_t stop_at = s->stats.expanded + budget;
    for (int depth = 0; depth < max_len && n > 0; depth++) {
        size_t nc = 0;
        for (int i = 0; i < n; i++) {
            if (ps_search_stopped(s) || s->stats.expanded >= stop_at)
                goto done;
            const unsigned char *st = cur + (size_t)i * ss;
            int m = gm->moves(s->inst, st, legal, NULL);
            s->stats.expanded++;
            if (lazy)
                gm->child_floors(s->inst, st, legal, m, floors);
            for (int k = 0; k < m; k++) {
                ps_value cost = gm->apply(s->inst, st, legal[k], tmp);
                s->stats.generated++;
                ps_value gk = g[i] + cost;
                if (found && gk >= best)
                    continue; /* costs never fall: it cannot beat the line */
                if (gm->is_goal(s->inst, tmp)) {
                    line_to(parents, moves, width, depth, i, line);
                    line[depth] = legal[k];
                    ps_search_offer(s, line, depth + 1, gk);
                    found = true;
                    best = gk;
                    continue;
                }
                ps_value f, pending;
                uint64_t hash = gm->hash(s->inst, tmp);
                ps_value key = child_key(s, rank, tmp, gk,
                                         lazy ? floors[k] : -1, &f, &pending,
                                         later, memo_slot(memo, hash));
                cand[nc] = (struct cand){key,          f,    gk, pending,
                                         (uint32_t)nc, hash, i,  legal[k]};
                nc++;
            }
        }
        /* the best `width`, each state once. A state's copies differ only
         * in g, and the key grows with g, so the first copy in key order is
         * the cheapest. */
        memset(seen, 0, seen_slots * sizeof *seen);
        struct depth_fill d = {cur, next, g, parents + (size_t)depth * w,
                               moves + (size_t)depth * w, seen, seen_slots,
                               ss, 0};
        sort_by_key(cand, nc, sorted, count);
        if (lazy) {
            /* in key order, h made known for each pending candidate met; one
             * whose key rose waits in a heap (in `rose`) for its turn */
            size_t c = 0, waiting = 0;
            while (d.kept < width && (c < nc || waiting > 0)) {
                if (c < nc &&
                    (waiting == 0 || by_key(&cand[c], &rose[0]) < 0)) {
                    struct cand *x = &cand[c];
                    if (x->floor >= 0) {
                        ps_value key = x->key;
                        gm->apply(s->inst, cur + (size_t)x->parent * ss,
                                  x->move, tmp);
                        lazy_exact(rank, x,
                                   memo_h(s, tmp, memo_slot(memo, x->hash)));
                        if (x->key != key) {
                            heap_push(rose, &waiting, x);
                            c++;
                        }
                        continue;
                    }
                    keep(s, &d, x);
                    c++;
                } else {
                    struct cand x = heap_pop(rose, &waiting);
                    keep(s, &d, &x);
                }
            }
        } else {
            for (size_t c = 0; c < nc && d.kept < width; c++)
                keep(s, &d, &cand[c]);
        }
        unsigned char *t = cur;
        cur = next;
        next = t;
        n = d.kept;
    }
done:
    free(cur);
    free(next);
    free(tmp);
    free(cand);
    free(sorted);
    free(rose);
    free(count);
    free(parents);
    free(moves);
    free(legal);
    free(later);
    free(floors);
    free(g);
    free(line);
    free(seen);
    ps_memory_release(s, bytes);
    return found;
}
