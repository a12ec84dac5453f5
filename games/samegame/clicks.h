/*
 * clicks.h - SameGame's cost objective, `objective = "fewest_clicks"` (NRK's
 * Former): every click costs 1 and the goal is an empty board, so BFS, A*,
 * IDA* and dfs's exact cost mode apply. Included once by samegame.c (it
 * reads the state layout there); docs/samegame.md argues each bound.
 */

static bool sg_is_goal(const void *p, const void *state)
{
    (void)p;
    return *cells_left_of((void *)state) == 0;
}

/* A board that can never be cleared: a colour with fewer than min_group
 * cells (cells are never added, so it can never form a group again). */
static bool has_dead_colour(const struct sg_instance *in, const void *state)
{
    for (int k = 1; k <= in->colours; k++) {
        int n = colour_count(state, k);
        if (n > 0 && n < in->rules.min_group)
            return true;
    }
    return false;
}

/* What a heuristic returns for a board that can never be cleared: more
 * than any line can cost (a click removes at least one cell), so A* and
 * IDA* put it behind every real line. Admissible: the true cost is
 * infinite. */
static ps_value dead_board_cost(const struct sg_instance *in)
{
    return in->ncells + 1;
}

/* Each click removes cells of one colour, so a board with k colours left
 * needs at least k clicks. */
static ps_value clicks_colours_left(const struct sg_instance *in,
                                    const void *state)
{
    if (has_dead_colour(in, state))
        return dead_board_cost(in);
    int colours = 0;
    for (int k = 1; k <= in->colours; k++)
        colours += colour_count(state, k) > 0;
    return colours;
}

/* Without a column shift, cells never change column, so a colour's cells in
 * two columns with no cell of that colour between them can never meet: a
 * group is connected, so it lies in one run of adjacent columns that all
 * hold its colour. A click removes cells of one run of one colour, and can
 * only split runs (columns lose cells, never gain them), so the number of
 * (colour, run) pairs drops by at most 1 per click and is 0 when the board
 * is empty: a consistent lower bound. With a shift an emptied column closes
 * the gap, and the bound falls back to the colours left. */
static ps_value clicks_colour_runs(const struct sg_instance *in,
                                   const void *state)
{
    if (in->rules.shift != SG_SHIFT_NONE)
        return clicks_colours_left(in, state);
    if (has_dead_colour(in, state))
        return dead_board_cost(in);
    const uint8_t *cell = C_CELLS(in, state), *height = C_HEIGHTS(in, state);
    const int R = in->rows;
    unsigned before = 0; /* bit k: colour k in the previous column */
    ps_value runs = 0;
    for (int c = 0; c < in->cols; c++) {
        unsigned here = 0;
        for (int r = 0; r < height[c]; r++)
            here |= 1u << cell[c * R + r];
        here &= ~1u; /* an empty cell (no gravity) is no colour */
        runs += __builtin_popcount(here & ~before);
        before = here;
    }
    return runs;
}

/* The objective's kind decides which estimate a heuristic slot gives: an
 * upper bound on the score still to gain (score objectives) or a lower
 * bound on the clicks still to pay (fewest_clicks). Every entry of the
 * table below answers for both kinds, so that an entry picked under the
 * other kind stays sound: it gives that kind's default. */
static bool counts_clicks(const struct sg_instance *in)
{
    return in->rules.objective == SG_OBJ_FEWEST_CLICKS;
}

static ps_value sg_clicks_default(const void *p, const void *state)
{
    return clicks_colour_runs(p, state);
}

static ps_value sg_h_colours_left(const void *p, const void *state)
{
    if (!counts_clicks(p))
        return sg_upper_bound(p, state);
    return clicks_colours_left(p, state);
}

static ps_value sg_h_colour_runs(const void *p, const void *state)
{
    if (!counts_clicks(p))
        return sg_upper_bound(p, state);
    return clicks_colour_runs(p, state);
}

static ps_value sg_bound_dead_cells(const void *p, const void *state)
{
    if (counts_clicks(p))
        return sg_clicks_default(p, state);
    return sg_upper_bound(p, state);
}

static ps_value sg_bound_any_ending(const void *p, const void *state)
{
    if (counts_clicks(p))
        return sg_clicks_default(p, state);
    return sg_bound_colours(p, state);
}

static const struct ps_heuristic sg_estimates[] = {
    {"dead-cells", "score objectives: per-colour bound by cell count + the "
                   "best end value the dead cells allow",
     true, sg_bound_dead_cells},
    {"colours", "score objectives: per-colour bound by cell count + the best "
                "end value of any ending (looser)",
     true, sg_bound_any_ending},
    {"colour-runs", "fewest_clicks: one click per run of adjacent columns "
                    "holding a colour (shift none; else colours-left)",
     true, sg_h_colour_runs},
    {"colours-left", "fewest_clicks: one click per colour left", true,
     sg_h_colours_left},
    {NULL, NULL, false, NULL},
};

/* Under fewest_clicks a board with a dead colour can never be cleared:
 * proven unsolvable before any search. Score objectives always have a
 * line (play until no group is left). */
static bool sg_solvable(const void *p, char *why, size_t len)
{
    const struct sg_instance *in = p;
    if (!counts_clicks(in))
        return true;
    for (int k = 1; k <= in->colours; k++) {
        int n = colour_count(in->start, k);
        if (n > 0 && n < in->rules.min_group) {
            snprintf(why, len,
                     "colour %d has %d cell%s, fewer than min_group %d: the "
                     "board can never be cleared",
                     k, n, n == 1 ? "" : "s", (int)in->rules.min_group);
            return false;
        }
    }
    return true;
}

/* Score objectives maximise with the upper bound; fewest_clicks is a cost
 * game with an admissible heuristic. */
static unsigned sg_instance_flags(const void *p)
{
    const struct sg_instance *in = p;
    if (counts_clicks(in))
        return PS_HAS_HEURISTIC;
    unsigned f = PS_MAXIMISE | PS_HAS_BOUND;
    /* Clearing objectives: a cleared board is worth the start's upper
     * bound (every cell removed), so beam's short dfs first can prove it
     * at once. */
    if (in->rules.objective != SG_OBJ_SCORE)
        f |= PS_BOUND_OFTEN_MET;
    return f;
}
