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

/* The bits set in a set of colours (at most SG_MAX_COLORS + 1 bits), in
 * a few instructions where the target has no popcount instruction (the
 * builtin then calls a library function). */
static inline int colour_set_size(unsigned x)
{
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return (int)((x + (x >> 8)) & 0x1fu);
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
        runs += colour_set_size(here & ~before);
        before = here;
    }
    return runs;
}

/* The fewest deletions that empty the string s[0..m) when one deletion
 * removes a block of equal letters and the letters around it then meet
 * (the "strange printer" recurrence): delete s[0] alone, or delete what
 * lies between s[0] and a later equal letter s[k] first, so that s[0]
 * goes with s[k]. m <= SG_MAX_ROWS; f[i][j] for s[i..j]. */
static int delete_string_cost(const uint8_t *s, int m)
{
    static _Thread_local int f[SG_MAX_ROWS + 1][SG_MAX_ROWS + 1];
    for (int i = m - 1; i >= 0; i--) {
        f[i][i] = 1;
        for (int j = i + 1; j < m; j++) {
            int best = 1 + f[i + 1][j];
            for (int k = i + 1; k <= j; k++)
                if (s[k] == s[i]) {
                    int between = k - 1 >= i + 1 ? f[i + 1][k - 1] : 0;
                    if (between + f[k][j] < best)
                        best = between + f[k][j];
                }
            f[i][j] = best;
        }
    }
    return m ? f[0][m - 1] : 0;
}

/* colour-runs made stronger where a run is one column wide. Each (colour,
 * run) pair is a unit whose cells only its own clicks remove, and no click
 * removes cells of two units, so the clicks add up over the units. A unit
 * in several columns needs at least one. The units one column wide in
 * column c connect only vertically, inside c: their clicks there are
 * deletions in the string of their cells' colours, bottom to top, in which
 * every other cell is dropped (it may vanish whenever its own clicks
 * come, which a relaxation may make free). So those units need at least
 * delete_string_cost of that string (equal neighbours merged), which is
 * at least their number, and more when colours interleave: "1212" needs
 * 3. Shift none only (else colours-left). */
static ps_value clicks_column_strings(const struct sg_instance *in,
                                      const void *state)
{
    if (in->rules.shift != SG_SHIFT_NONE)
        return clicks_colours_left(in, state);
    if (has_dead_colour(in, state))
        return dead_board_cost(in);
    const uint8_t *cell = C_CELLS(in, state), *height = C_HEIGHTS(in, state);
    const int R = in->rows, C = in->cols;
    unsigned present[SG_MAX_COLS + 2] = {0}; /* bit k: colour k in column c-1 */
    for (int c = 0; c < C; c++) {
        for (int r = 0; r < height[c]; r++)
            present[c + 1] |= 1u << cell[c * R + r];
        present[c + 1] &= ~1u;
    }
    ps_value cost = 0;
    for (int c = 0; c < C; c++) {
        unsigned here = present[c + 1];
        unsigned alone = here & ~present[c] & ~present[c + 2];
        /* the units wider than one column: one click each, counted where
         * they start */
        cost += colour_set_size(here & ~present[c] & ~alone);
        if (!alone)
            continue;
        uint8_t s[SG_MAX_ROWS];
        int m = 0;
        for (int r = 0; r < height[c]; r++) {
            uint8_t k = cell[c * R + r];
            if ((alone >> k & 1u) && (m == 0 || s[m - 1] != k))
                s[m++] = k;
        }
        cost += m <= 2 ? m : delete_string_cost(s, m);
    }
    return cost;
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

/* The default: column-strings is never lower, but on 7x9 Former boards
 * it saved IDA* 10 of 650,947 nodes (board seed 3) and cost 20% more time
 * (docs/samegame.md). */
static ps_value sg_clicks_default(const void *p, const void *state)
{
    return clicks_colour_runs(p, state);
}

static ps_value sg_h_column_strings(const void *p, const void *state)
{
    if (!counts_clicks(p))
        return sg_upper_bound(p, state);
    return clicks_column_strings(p, state);
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
    {"column-strings", "fewest_clicks: colour-runs, with the runs one "
                       "column wide costed as deletions of their column's "
                       "string (\"1212\": 3)",
     true, sg_h_column_strings},
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
