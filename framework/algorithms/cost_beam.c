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
    ps_value key; /* the rank's: less first */
    ps_value f, g;
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

/* A child's key under `rank`. By f: 2 f + the legal moves (a unit of f is
 * worth two moves: fewer moves left mean bigger groups made, on SameGame;
 * measured on Former's first lines, 7x9 boards of 4 colours, gen seeds
 * 3001-3040: the first beam of 1,000 556 clicks in all by f then moves,
 * 552 so; the quick one of 62, 577 and 567). By the evaluation and h:
 * the ladder's second rank (dfs.c, cost_ladder, compares the three).
 * What the child needs is read from the memo's slot `m` when known there,
 * else computed (and kept in it). */
static ps_value child_key(struct ps_search *s, enum ps_cost_beam_rank rank,
                          const void *child, ps_value g, ps_value *f,
                          ps_move *scratch, struct memo_slot *m)
{
    const struct ps_game *gm = s->game;
    struct memo_slot none = {0};
    if (!m)
        m = &none;
    if (rank != PS_COST_BEAM_BY_F && !(m->known & MEMO_EVALUATION)) {
        m->evaluation = gm->evaluate(s->inst, child);
        m->known |= MEMO_EVALUATION;
    }
    if (rank != PS_COST_BEAM_BY_EVALUATION && !(m->known & MEMO_H)) {
        m->h = ps_search_h(s, child);
        m->known |= MEMO_H;
    }
    if (rank == PS_COST_BEAM_BY_EVALUATION) {
        *f = g;
        return g - m->evaluation;
    }
    if (rank == PS_COST_BEAM_BY_EVALUATION_AND_H) {
        *f = g;
        return g + m->h - m->evaluation;
    }
    if (!(m->known & MEMO_MOVES)) {
        m->moves = gm->moves(s->inst, child, scratch, NULL);
        m->known |= MEMO_MOVES;
    }
    *f = g + m->h;
    return 2 * *f + m->moves;
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

bool ps_cost_beam(struct ps_search *s, const void *root, int width,
                  int max_len, uint64_t budget, enum ps_cost_beam_rank rank,
                  struct ps_cost_beam_memo *memo)
{
    const struct ps_game *gm = s->game;
    const size_t ss = s->state_size, w = (size_t)width;
    const int mm = gm->max_moves(s->inst);
    size_t seen_slots = 2;
    while (seen_slots < 2 * w)
        seen_slots *= 2;
    const size_t cands = w * (size_t)mm,
                 counted = cands <= COUNT_MAX ? cands : 0;
    uint64_t bytes = 2 * w * ss + (cands + counted) * sizeof(struct cand) +
                     (COUNT_RANGE + 1) * sizeof(size_t) +
                     seen_slots * sizeof(uint64_t) +
                     (size_t)max_len * w * (sizeof(int32_t) + sizeof(ps_move)) +
                     w * sizeof(ps_value) + (size_t)max_len * sizeof(ps_move) +
                     2 * (size_t)mm * sizeof(ps_move);
    if (width < 1 || max_len < 1 ||
        (rank != PS_COST_BEAM_BY_F && !gm->evaluate) ||
        !ps_memory_reserve(s, bytes))
        return false;
    unsigned char *cur = malloc(w * ss), *next = malloc(w * ss);
    unsigned char *tmp = malloc(ss);
    struct cand *cand = malloc(cands * sizeof *cand);
    struct cand *sorted = counted ? malloc(counted * sizeof *sorted) : NULL;
    size_t *count = malloc((COUNT_RANGE + 1) * sizeof *count);
    int32_t *parents = malloc((size_t)max_len * w * sizeof *parents);
    ps_move *moves = malloc((size_t)max_len * w * sizeof *moves);
    ps_move *legal = malloc((size_t)mm * sizeof *legal);
    ps_move *later = malloc((size_t)mm * sizeof *later);
    ps_value *g = malloc(w * sizeof *g);
    ps_move *line = malloc((size_t)max_len * sizeof *line);
    uint64_t *seen = malloc(seen_slots * sizeof *seen);
    bool found = false;
    if (!cur || !next || !tmp || !cand || !parents || !moves || !legal ||
        !later || !g || !line || !seen || (counted && !sorted) || !count)
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
                ps_value f;
                uint64_t hash = gm->hash(s->inst, tmp);
                ps_value key = child_key(s, rank, tmp, gk, &f, later,
                                         memo_slot(memo, hash));
                cand[nc] = (struct cand){key, f, gk, (uint32_t)nc, hash, i,
                                         legal[k]};
                nc++;
            }
        }
        /* the best `width`, each state once (equal hashes: taken as the
         * same state, which costs at worst a worse line), made again from
         * their parents. A state's copies differ only in g, and the key
         * grows with g, so the first copy in key order is the cheapest. */
        sort_by_key(cand, nc, sorted, count);
        memset(seen, 0, seen_slots * sizeof *seen);
        int kept = 0;
        for (size_t c = 0; c < nc && kept < width; c++) {
            if (!ps_hash_set_add(seen, seen_slots, cand[c].hash))
                continue;
            gm->apply(s->inst, cur + (size_t)cand[c].parent * ss, cand[c].move,
                      next + (size_t)kept * ss);
            parents[(size_t)depth * w + (size_t)kept] = cand[c].parent;
            moves[(size_t)depth * w + (size_t)kept] = cand[c].move;
            g[kept] = cand[c].g;
            kept++;
        }
        unsigned char *t = cur;
        cur = next;
        next = t;
        n = kept;
    }
done:
    free(cur);
    free(next);
    free(tmp);
    free(cand);
    free(sorted);
    free(count);
    free(parents);
    free(moves);
    free(legal);
    free(later);
    free(g);
    free(line);
    free(seen);
    ps_memory_release(s, bytes);
    return found;
}
