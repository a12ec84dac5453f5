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

struct cand {
    ps_value key; /* the rank's: less first */
    ps_value f, g;
    uint32_t made; /* the order it was made in: parents', then moves' */
    uint64_t hash;
    int32_t parent;
    ps_move move;
};

/* By state (hash), the cheaper copy first, then the first made:
 * duplicates side by side. */
static int by_state(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    if (x->g != y->g)
        return x->g < y->g ? -1 : 1;
    return x->made < y->made ? -1 : x->made > y->made;
}

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

/* The line to entry `k` of depth `depth`, written to line[0..depth). */
static void line_to(const int32_t *parents, const ps_move *moves, int width,
                    int depth, int k, ps_move *line)
{
    for (int d = depth - 1; d >= 0; d--) {
        line[d] = moves[(size_t)d * (size_t)width + (size_t)k];
        k = parents[(size_t)d * (size_t)width + (size_t)k];
    }
}

/* A child's key under `rank`. By f: 2 f + the legal moves (a unit of f is
 * worth two moves: fewer moves left mean bigger groups made, on SameGame;
 * measured on Former's first lines, 7x9 boards of 4 colours, gen seeds
 * 3001-3040: the first beam of 1,000 556 clicks in all by f then moves,
 * 552 so; the quick one of 62, 577 and 567). By the evaluation and h:
 * the ladder's second rank (dfs.c, cost_ladder, compares the three). */
static ps_value child_key(struct ps_search *s, enum ps_cost_beam_rank rank,
                          const void *child, ps_value g, ps_value *f,
                          ps_move *scratch)
{
    const struct ps_game *gm = s->game;
    if (rank == PS_COST_BEAM_BY_EVALUATION) {
        *f = g;
        return g - gm->evaluate(s->inst, child);
    }
    if (rank == PS_COST_BEAM_BY_EVALUATION_AND_H) {
        ps_value h = ps_search_h(s, child);
        *f = g;
        return g + h - gm->evaluate(s->inst, child);
    }
    *f = g + ps_search_h(s, child);
    return 2 * *f + gm->moves(s->inst, child, scratch, NULL);
}

bool ps_cost_beam(struct ps_search *s, const void *root, int width,
                  int max_len, uint64_t budget, enum ps_cost_beam_rank rank)
{
    const struct ps_game *gm = s->game;
    const size_t ss = s->state_size, w = (size_t)width;
    const int mm = gm->max_moves(s->inst);
    uint64_t bytes = 2 * w * ss + w * (size_t)mm * sizeof(struct cand) +
                     (size_t)max_len * w * (sizeof(int32_t) + sizeof(ps_move)) +
                     w * sizeof(ps_value) + (size_t)max_len * sizeof(ps_move) +
                     2 * (size_t)mm * sizeof(ps_move);
    if (width < 1 || max_len < 1 ||
        (rank != PS_COST_BEAM_BY_F && !gm->evaluate) ||
        !ps_memory_reserve(s, bytes))
        return false;
    unsigned char *cur = malloc(w * ss), *next = malloc(w * ss);
    unsigned char *tmp = malloc(ss);
    struct cand *cand = malloc(w * (size_t)mm * sizeof *cand);
    int32_t *parents = malloc((size_t)max_len * w * sizeof *parents);
    ps_move *moves = malloc((size_t)max_len * w * sizeof *moves);
    ps_move *legal = malloc((size_t)mm * sizeof *legal);
    ps_move *later = malloc((size_t)mm * sizeof *later);
    ps_value *g = malloc(w * sizeof *g);
    ps_move *line = malloc((size_t)max_len * sizeof *line);
    bool found = false;
    if (!cur || !next || !tmp || !cand || !parents || !moves || !legal ||
        !later || !g || !line)
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
                ps_value key = child_key(s, rank, tmp, gk, &f, later);
                cand[nc] = (struct cand){key, f, gk, (uint32_t)nc,
                                         gm->hash(s->inst, tmp), i, legal[k]};
                nc++;
            }
        }
        /* each state once (equal hashes: taken as the same state, which
         * costs at worst a worse line), its cheapest copy */
        qsort(cand, nc, sizeof *cand, by_state);
        size_t distinct = 0;
        for (size_t c = 0; c < nc; c++)
            if (c == 0 || cand[c].hash != cand[c - 1].hash)
                cand[distinct++] = cand[c];
        /* the best `width`, made again from their parents */
        qsort(cand, distinct, sizeof *cand, by_key);
        int kept = 0;
        for (size_t c = 0; c < distinct && kept < width; c++) {
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
    free(parents);
    free(moves);
    free(legal);
    free(later);
    free(g);
    free(line);
    ps_memory_release(s, bytes);
    return found;
}
