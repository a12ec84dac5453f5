/*
 * weighted.h - SameGame's weighted evaluation for beam search
 * (--beam-weights, the game's eval_weights and evaluate_moves_weighted
 * slots). Included once, by samegame.c, after struct sg_tally.
 *
 * The same reading of a position as sg_evaluate (the tally: per colour the
 * gains of its groups as they stand, the cells in them, their number and
 * all its cells), with every term weighted, and a few terms sg_evaluate
 * does not have. Per colour k with at least min_group cells, ranked by its
 * cells (the most frequent first, ties to the lower colour):
 *
 *   groups x its groups' gains
 *   + join_R x (gain(all its cells) - its groups' gains) / pieces^share_R
 * where R is top (the most frequent colour), second, or other, and pieces
 * are its groups plus its loose cells; then, in units of one cell's share
 * of the largest end value (end / cells of the board, about 4.4 on the
 * research rules' 15x15), minus
 *   loose  x the cells in no group,
 *   dead   x the cells of colours with fewer than min_group cells (they can
 *            never be removed, and they forbid the clear),
 *   alive  x the colours with min_group cells or more,
 *   pieces x the pieces of those colours.
 * With groups = join_* = share_second = share_other = 1, share_top = 0.75,
 * loose = 2 and the rest 0 it is sg_evaluate's formula (the test suite
 * checks that, up to the rounding of pieces^0.75). The defaults in
 * sg_eval_weights are tuned on generated boards (scripts/tune_beam_eval.sh,
 * docs/samegame.md). Under the clearing objectives (one point per cell) the
 * end value is 0, so the loose, alive and pieces terms vanish and dead
 * cells cost 2 + `dead` points each (sg_evaluate: 2).
 */

enum {
    SG_W_GROUPS,
    SG_W_JOIN_TOP,
    SG_W_SHARE_TOP,
    SG_W_JOIN_SECOND,
    SG_W_SHARE_SECOND,
    SG_W_JOIN_OTHER,
    SG_W_SHARE_OTHER,
    SG_W_LOOSE,
    SG_W_DEAD,
    SG_W_ALIVE,
    SG_W_PIECES,
    SG_W_COUNT
};

static const struct ps_eval_weight sg_eval_weights[] = {
    [SG_W_GROUPS] = {"groups", 1, "the groups' gains as they stand"},
    [SG_W_JOIN_TOP] = {"join_top", 1,
                       "the most frequent colour's gain from joining its "
                       "pieces"},
    [SG_W_SHARE_TOP] = {"share_top", 0.75,
                        "... divided by its pieces to this power"},
    [SG_W_JOIN_SECOND] = {"join_second", 1,
                          "the same for the second most frequent colour"},
    [SG_W_SHARE_SECOND] = {"share_second", 1, "... its power"},
    [SG_W_JOIN_OTHER] = {"join_other", 1, "the same for the other colours"},
    [SG_W_SHARE_OTHER] = {"share_other", 1, "... their power"},
    [SG_W_LOOSE] = {"loose", 2,
                    "minus per cell in no group, in shares of the end value"},
    [SG_W_DEAD] = {"dead", 0,
                   "minus per cell of a colour that can no longer go"},
    [SG_W_ALIVE] = {"alive", 0, "minus per colour that can still go"},
    [SG_W_PIECES] = {"pieces", 0,
                     "minus per piece (group or loose cell) of such colours"},
    [SG_W_COUNT] = {NULL, 0, NULL},
};

/* pieces^share: exact for the shares 0 and 1, the usual ones. */
static double sg_share(int pieces, double share)
{
    if (share == 1 || pieces <= 1)
        return pieces;
    if (share == 0)
        return 1;
    return pow((double)pieces, share);
}

/* The colour of rank 0 (most cells) and 1 (the next), among the colours of
 * the tally with min_group cells or more; 0 = none. */
static void sg_rank_colours(const struct sg_instance *in,
                            const struct sg_tally *t, int rank[2])
{
    rank[0] = rank[1] = 0;
    for (int k = 1; k <= in->colours; k++) {
        if (t->count[k] < in->rules.min_group)
            continue;
        if (!rank[0] || t->count[k] > t->count[rank[0]]) {
            rank[1] = rank[0];
            rank[0] = k;
        } else if (!rank[1] || t->count[k] > t->count[rank[1]]) {
            rank[1] = k;
        }
    }
}

static ps_value tally_value_weighted(const struct sg_instance *in,
                                     const double *w, const struct sg_tally *t)
{
    int all_groups = 0;
    for (int k = 1; k <= in->colours; k++)
        all_groups += t->groups[k];
    if (all_groups == 0)
        return end_value_with(in, t->left);
    int rank[2];
    sg_rank_colours(in, t, rank);
    double value = 0, loose = 0, dead = 0, alive = 0, pieces = 0;
    for (int k = 1; k <= in->colours; k++) {
        int cells = t->count[k];
        int lone = cells - t->grouped[k];
        loose += lone;
        value += w[SG_W_GROUPS] * (double)t->gained[k];
        if (cells < in->rules.min_group) {
            dead += cells;
            continue;
        }
        int r = k == rank[0] ? 0 : k == rank[1] ? 1 : 2;
        int n = t->groups[k] + lone;
        double join = (double)(sg_gain(&in->rules, cells, k) - t->gained[k]);
        value += w[SG_W_JOIN_TOP + 2 * r] * join /
                 sg_share(n, w[SG_W_SHARE_TOP + 2 * r]);
        alive++;
        pieces += n;
    }
    if (in->rules.objective != SG_OBJ_SCORE)
        return (ps_value)(value - (2 + w[SG_W_DEAD]) * dead);
    double end = in->end_bound[0] > 0 ? (double)in->end_bound[0] : 0;
    double unit = end / in->ncells;
    value -= unit * (w[SG_W_LOOSE] * loose + w[SG_W_DEAD] * dead +
                     w[SG_W_ALIVE] * alive + w[SG_W_PIECES] * pieces);
    return (ps_value)value;
}
