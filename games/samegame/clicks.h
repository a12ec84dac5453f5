/*
 * clicks.h - SameGame's cost objective, `objective = "fewest_clicks"` (NRK's
 * Former): every click costs 1 and the goal is an empty board, so BFS, A*,
 * IDA* and dfs's exact cost mode apply. Included once by samegame.c (it
 * reads the state layout there); docs/samegame.md argues each bound.
 */

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* A board of at most 64 cells as one 64-bit plane per colour: column c's
 * rows 0..R-1 are bits c*R..c*R+R-1, the same index as the cell's (a 7x9
 * Former board is 63 bits). */
struct sg_small_planes {
    uint64_t colour[SG_MAX_COLORS + 1];
    uint64_t bottom; /* row 0 of every column */
    uint64_t top;    /* the top row of every column */
    uint64_t low;    /* every cell below the top row */
    uint64_t even;   /* the cells of the even columns */
};

static bool small_planes_fit(const struct sg_instance *in)
{
    return in->ncells <= 64;
}

/* Colour k's plane: the cells equal to k (cells above a column's height
 * are 0, as state equality needs, so no k is read there). 16 cells per
 * compare where the target has SSE2 (every x86-64), else 8 per word
 * operation on a little-endian machine, else one by one. */
static void small_planes_read(const struct sg_instance *in, const void *state,
                              struct sg_small_planes *p)
{
    const uint8_t *cell = C_CELLS(in, state);
    const int n = in->ncells;
    p->bottom = in->plane_bottom;
    p->top = in->plane_top;
    p->low = (n == 64 ? ~0ull : (1ull << n) - 1) & ~p->top;
    p->even = in->plane_even_columns;
#if defined(__SSE2__)
    /* Loads straight from the cells: a last chunk of rem < 16 cells is read
     * as the 16 cells that end the board, and its first 16 - rem bits
     * dropped. (Copying the cells to a buffer first cost more than the
     * compares: the loads waited on the copy's stores.) */
    const int full = n / 16, rem = n % 16;
    __m128i v[4];
    uint8_t small[16] = {0}; /* boards of fewer than 16 cells */
    if (full == 0) {
        memcpy(small, cell, (size_t)n);
        v[0] = _mm_loadu_si128((const __m128i *)(const void *)small);
    }
    for (int q = 0; q < full; q++)
        v[q] = _mm_loadu_si128((const __m128i *)(const void *)(cell + 16 * q));
    if (full > 0 && rem > 0)
        v[full] =
            _mm_loadu_si128((const __m128i *)(const void *)(cell + n - 16));
    for (int k = 1; k <= in->colours; k++) {
        __m128i kk = _mm_set1_epi8((char)k);
        uint64_t plane = 0;
        for (int q = 0; q < full; q++)
            plane |= (uint64_t)(uint16_t)_mm_movemask_epi8(
                         _mm_cmpeq_epi8(v[q], kk))
                     << (16 * q);
        if (full == 0)
            plane = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v[0], kk));
        else if (rem > 0)
            plane |= (uint64_t)((unsigned)_mm_movemask_epi8(
                                    _mm_cmpeq_epi8(v[full], kk)) >>
                                (16 - rem))
                     << (16 * full);
        p->colour[k] = plane;
    }
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t word[8] = {0};
    memcpy(word, cell, (size_t)n);
    for (int k = 1; k <= in->colours; k++) {
        const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
        uint64_t plane = 0;
        for (int q = 0; q * 8 < n; q++) {
            uint64_t x = word[q] ^ (0x0101010101010101ull * (uint64_t)k);
            uint64_t zero = ~(((x & low7) + low7) | x | low7); /* bit 7 */
            plane |= (((zero >> 7) * 0x0102040810204080ull) >> 56) << (8 * q);
        }
        p->colour[k] = plane;
    }
#else
    memset(p->colour, 0, sizeof p->colour);
    for (int i = 0; i < n; i++)
        p->colour[cell[i]] |= 1ull << i;
#endif
}

/* The columns of `plane` that hold a cell, as the top bit of their lane:
 * adding the lower R-1 bits of a lane to all ones there carries into its
 * top bit exactly when one is set, and never past it. */
static inline uint64_t small_planes_columns(const struct sg_small_planes *p,
                                            uint64_t plane)
{
    return (plane | ((plane & p->low) + p->low)) & p->top;
}

/* The cells of `within` connected to `seed` (a flood in the plane: a step
 * up or down stays in its column, one left or right moves a whole column). */
static uint64_t small_planes_flood(const struct sg_small_planes *p, int R,
                                   uint64_t seed, uint64_t within)
{
    uint64_t x = seed, last = 0;
    while (x != last) {
        last = x;
        x |= ((x << 1) & ~p->bottom) | ((x >> 1) & ~p->top) | (x << R) |
             (x >> R);
        x &= within;
    }
    return x;
}

/* A colour's groups of one and of two cells, found at once from which of
 * its cells have neighbours of their colour (most of a Former board's
 * groups are such): `lone`, the groups of one cell; `pairs`, each pair's
 * lower or left cell (its lowest bit); `rest`, the cells of every other
 * group, each left to a flood. */
struct sg_small_groups {
    uint64_t lone, pairs, rest;
};

static inline struct sg_small_groups
small_planes_small_groups(const struct sg_small_planes *p, int R,
                          uint64_t plane)
{
    /* the cells with a neighbour of their colour below, above, to the
     * left, to the right */
    uint64_t below = plane & ((plane << 1) & ~p->bottom),
             above = plane & ((plane >> 1) & ~p->top),
             left = plane & (plane << R), right = plane & (plane >> R);
    uint64_t any = below | above | left | right;
    uint64_t two = (below & (above | left | right)) | (above & (left | right)) |
                   (left & right);
    uint64_t one = any & ~two; /* exactly one neighbour */
    uint64_t up = one & (one >> 1) & above,  /* a pair's lower cell */
        across = one & (one >> R) & right;   /* its left one */
    uint64_t lone = plane & ~any;
    return (struct sg_small_groups){
        lone, up | across,
        plane & ~lone & ~(up | (up << 1) | across | (across << R))};
}

/* sg_evaluate under fewest clicks (tally_value's reading: minus the
 * groups of at least min_group cells, a stuck board the worst) on a board
 * of up to 64 cells: the lone cells and pairs of a colour counted at once,
 * a flood for each other group. Against the full tally on dfs's first
 * beams of Former board 08: 33.8 M instructions in sg_evaluate with the
 * tally, 16.7 M with a flood per group, 10.3 M so. */
static ps_value clicks_evaluation(const struct sg_instance *in,
                                  const void *state)
{
    struct sg_small_planes p;
    small_planes_read(in, state, &p);
    const int R = in->rows, min_group = in->rules.min_group;
    int groups = 0;
    uint64_t cells = 0;
    for (int k = 1; k <= in->colours; k++) {
        cells |= p.colour[k];
        struct sg_small_groups sm = small_planes_small_groups(&p, R,
                                                              p.colour[k]);
        groups += (min_group <= 1) * popcount_portable(sm.lone) +
                  (min_group <= 2) * popcount_portable(sm.pairs);
        for (uint64_t left = sm.rest; left;) {
            uint64_t g = small_planes_flood(&p, R, left & -left, left);
            left &= ~g;
            groups += min_group <= 1 || popcount_portable(g) >= min_group;
        }
    }
    return fewest_clicks_value(groups, cells != 0);
}

/* sg_moves on a board of up to 64 cells, in the same order (a group's
 * lowest cell in the column-major order, which is its lowest bit), from
 * the planes: lone cells and pairs at once, a flood for each other group.
 * Each group of min_group cells or more is a move; gains as list_groups
 * gives them. */
static int small_planes_moves(const struct sg_instance *in, const void *state,
                              ps_move *moves, ps_value *gains)
{
    struct sg_small_planes p;
    small_planes_read(in, state, &p);
    const int R = in->rows, min_group = in->rules.min_group;
    uint64_t anchors = 0; /* each move's cell */
    uint8_t size[64];     /* the group's cells, at its anchor */
    for (int k = 1; k <= in->colours; k++) {
        struct sg_small_groups sm = small_planes_small_groups(&p, R,
                                                              p.colour[k]);
        if (min_group <= 1)
            anchors |= sm.lone;
        if (min_group <= 2)
            anchors |= sm.pairs;
        for (uint64_t left = sm.rest; left;) {
            uint64_t g = small_planes_flood(&p, R, left & -left, left);
            left &= ~g;
            int n = popcount_portable(g);
            if (n >= min_group) {
                anchors |= g & -g;
                size[__builtin_ctzll(g)] = (uint8_t)n;
            }
        }
        if (gains) { /* the sizes of the lone cells and pairs */
            for (uint64_t b = sm.lone; b; b &= b - 1)
                size[__builtin_ctzll(b)] = 1;
            for (uint64_t b = sm.pairs; b; b &= b - 1)
                size[__builtin_ctzll(b)] = 2;
        }
    }
    const uint8_t *cell = C_CELLS(in, state);
    int n = 0;
    for (; anchors; anchors &= anchors - 1, n++) {
        int at = __builtin_ctzll(anchors);
        moves[n] = (ps_move)at;
        if (gains)
            gains[n] = sg_gain(&in->rules, size[at], cell[at]);
    }
    return n;
}

/* Does every column of `unit` that holds a cell of it (`lanes`, each such
 * column's bits) hold one vertical segment? Adding each column's lowest
 * cell carries through its first segment and stops above it, so a cell
 * left is a second segment. Even and odd columns are added apart, so a
 * carry out of a column's top lands in a column not added. */
static bool one_segment_per_column(const struct sg_small_planes *p,
                                   uint64_t unit, uint64_t lanes)
{
    /* each column's lowest cell: the borrow of column bottom - 1 stops
     * there, as every column of `lanes` holds one */
    uint64_t lowest = unit & ~(unit - (lanes & p->bottom));
    uint64_t ue = unit & p->even, uo = unit & ~p->even;
    return !(((ue + (lowest & p->even)) & ue) |
             ((uo + (lowest & ~p->even)) & uo));
}

/* Are the cells `unit` of a colour, in the columns `lanes` (a run: none of
 * the colour beside it; `joints`, the top bits of its columns but the
 * last), one group? Settled without a flood when two neighbouring columns
 * do not touch in any row (never one group), or when each column holds one
 * vertical segment of them (the segments are joined by the touching
 * columns: one group). */
static bool unit_is_one_group(const struct sg_small_planes *p, int R,
                              uint64_t unit, uint64_t lanes, uint64_t joints)
{
    uint64_t touching = unit & (unit >> R); /* k here and in the next column */
    if (joints & ~small_planes_columns(p, touching))
        return false;
    if (one_segment_per_column(p, unit, lanes))
        return true;
    return small_planes_flood(p, R, unit & -unit, unit) == unit;
}

/* Colour k's runs of columns in a plane: each column that holds k as the
 * top bit of its lane (cols); the columns where a run starts (the left
 * neighbour lacks k) and where one ends (the right neighbour lacks k). */
struct sg_runs {
    uint64_t cols, starts, ends;
};

static inline struct sg_runs runs_of(const struct sg_small_planes *p,
                                     uint64_t plane, int R)
{
    uint64_t cols = small_planes_columns(p, plane);
    return (struct sg_runs){cols, cols & ~(cols << R), cols & ~(cols >> R)};
}

/* The lanes (every bit of its columns) of the run that starts at the
 * lowest bit of r->starts; *joints, the top bits of its columns but the
 * last. From the start t to the first end e at or after it: bits from t's
 * lane bottom to e's top, (e << 1) - (t >> (R-1)), which wraps right for
 * an e at bit 63. */
static inline uint64_t first_run_lanes(const struct sg_runs *r, int R,
                                       uint64_t *joints)
{
    uint64_t t = r->starts & -r->starts, e = r->ends & ~(t - 1);
    e &= -e;
    uint64_t lanes = (e << 1) - (t >> (R - 1));
    *joints = r->cols & lanes & ~e;
    return lanes;
}

/* Is the run that starts at the lowest bit of r->starts one group of the
 * cells `plane`? Its lanes (every bit of its columns) go to *lanes. */
static inline bool first_run_is_one_group(const struct sg_small_planes *p,
                                          int R, uint64_t plane,
                                          const struct sg_runs *r,
                                          uint64_t *lanes)
{
    uint64_t joints;
    *lanes = first_run_lanes(r, R, &joints);
    return unit_is_one_group(p, R, plane & *lanes, *lanes, joints);
}

/* colour-runs + 1 when no run is one group yet. The count of (colour, run)
 * units drops by 1 exactly when a click removes a whole unit (a click on
 * part of one can only split it), so every line pays colour-runs clicks that
 * each empty a unit, plus the clicks that do not. When no unit is one group,
 * the first click cannot empty one: one click more. Admissible, not
 * consistent (A* reopens; dfs and IDA* need only admissible). Boards of up
 * to 64 cells are read into bit planes; larger ones get colour-runs. */
static ps_value clicks_runs_ahead(const struct sg_instance *in,
                                  const void *state)
{
    if (in->rules.shift != SG_SHIFT_NONE || !small_planes_fit(in))
        return clicks_colour_runs(in, state);
    if (has_dead_colour(in, state))
        return dead_board_cost(in);
    struct sg_small_planes p;
    small_planes_read(in, state, &p);
    const int R = in->rows;
    ps_value runs = 0;
    bool one_group = false;
    for (int k = 1; k <= in->colours; k++) {
        struct sg_runs r = runs_of(&p, p.colour[k], R);
        runs += popcount_portable(r.starts);
        uint64_t lanes;
        for (; r.starts && !one_group; r.starts &= r.starts - 1)
            one_group = first_run_is_one_group(&p, R, p.colour[k], &r, &lanes);
    }
    return runs + (runs > 0 && !one_group);
}

/* empty-chain: whether some order of clicks that each empty a whole unit
 * clears the board. A line with no other click pays exactly colour-runs
 * clicks, so when no such order exists every line pays at least one more.
 * While only whole units go, the board is fixed by which units are gone
 * (each column keeps its other cells, in order, fallen down; the units
 * left keep their columns), so the search is over sets of units, each set
 * looked at once. The set of sets is capped (CHAIN_SEEN): past the cap
 * the answer is "maybe", which only weakens the bound. */
enum { CHAIN_UNITS = 64, CHAIN_SEEN = 16 };

struct chain {
    const struct sg_small_planes *p;
    int R, units;
    const uint8_t *height;
    uint64_t all;             /* a bit per unit */
    uint8_t unit_at[64];      /* the unit of the cell at index c*R + r,
                                 filled when first needed (unit_at_ready) */
    bool unit_at_ready;
    const uint64_t *start;    /* plane[u] on the board as it is */
    uint64_t lanes[CHAIN_UNITS], joints[CHAIN_UNITS];
    uint64_t seen[CHAIN_SEEN]; /* the sets looked at */
    int nseen;
    bool full;                /* seen[] ran out: the answer is "maybe" */
    bool bmi2;                /* lay out with pext/pdep (chain_fall_bmi2) */
};

/* Without the units of `left` (the unit just taken among them) only that
 * unit's columns (`lanes`) change: each is laid out again from its cells
 * on the board as it is, fallen down past the gone units' cells. */
static void chain_fall_from_cells(struct chain *ch, uint64_t lanes,
                                  uint64_t left, const uint64_t *plane,
                                  uint64_t *next)
{
    const int R = ch->R;
    if (!ch->unit_at_ready) {
        for (int v = 0; v < ch->units; v++)
            for (uint64_t b = ch->start[v]; b; b &= b - 1)
                ch->unit_at[__builtin_ctzll(b)] = (uint8_t)v;
        ch->unit_at_ready = true;
    }
    for (int v = 0; v < ch->units; v++)
        next[v] = plane[v] & ~lanes;
    for (uint64_t tops = lanes & ch->p->top; tops; tops &= tops - 1) {
        int c = __builtin_ctzll(tops) / R, row = 0;
        for (int r = 0; r < ch->height[c]; r++) {
            int v = ch->unit_at[c * R + r];
            if (!(left >> v & 1))
                next[v] |= 1ull << (c * R + row++);
        }
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SG_CHAIN_BMI2 1
#include <immintrin.h>
/* The same layout where the CPU has fast pdep/pext (the engine
 * SG_ENGINE_BMI2, chosen at load): in the taken unit's columns the cells
 * of the units still there are gathered in order (pext) and dealt back
 * from each column's bottom (pdep), which is the fall; the planes say
 * where each unit is now, so no cell is read. Rows <= 32, so the shifts
 * stay in range. Board 09's proof took about a tenth less time with it
 * (docs/benchmarks.md, Former's twelfth pass). */
__attribute__((target("popcnt,bmi2"))) static void
chain_fall_bmi2(const struct chain *ch, uint64_t lanes, uint64_t left,
                const uint64_t *plane, uint64_t *next)
{
    uint64_t stay = 0;
    for (int v = 0; v < ch->units; v++)
        if (!(left >> v & 1))
            stay |= plane[v] & lanes;
    const int R = ch->R;
    const uint64_t lane = (1ull << R) - 1;
    uint64_t fallen = 0;
    for (uint64_t tops = lanes & ch->p->top; tops; tops &= tops - 1) {
        int base = __builtin_ctzll(tops) - (R - 1);
        int n = __builtin_popcountll(stay & (lane << base));
        fallen |= ((1ull << n) - 1) << base;
    }
    for (int v = 0; v < ch->units; v++)
        next[v] = (plane[v] & ~lanes) |
                  _pdep_u64(_pext_u64(plane[v], stay), fallen);
}
#else
#define SG_CHAIN_BMI2 0
#endif

/* Has the set `gone` been looked at? Marks it if not. */
static bool chain_seen(struct chain *ch, uint64_t gone)
{
    for (int i = 0; i < ch->nseen; i++)
        if (ch->seen[i] == gone)
            return true;
    if (ch->nseen == CHAIN_SEEN) {
        ch->full = true;
        return true;
    }
    ch->seen[ch->nseen++] = gone;
    return false;
}

/* Can the units not in `gone` be emptied one whole unit at a time? plane[u]
 * is unit u's cells on the board without the units gone. */
static bool chain_clears(struct chain *ch, uint64_t gone,
                         const uint64_t *plane)
{
    if (chain_seen(ch, gone))
        return ch->full;
    const int R = ch->R;
    for (int u = 0; u < ch->units; u++) {
        if ((gone >> u & 1) ||
            !unit_is_one_group(ch->p, R, plane[u], ch->lanes[u],
                               ch->joints[u]))
            continue;
        uint64_t left = gone | 1ull << u;
        if (left == ch->all) /* the last unit: nothing to lay out */
            return true;
        uint64_t next[CHAIN_UNITS];
#if SG_CHAIN_BMI2
        if (ch->bmi2)
            chain_fall_bmi2(ch, ch->lanes[u], left, plane, next);
        else
#endif
            chain_fall_from_cells(ch, ch->lanes[u], left, plane, next);
        if (chain_clears(ch, left, next))
            return true;
    }
    return false;
}

/* colour-runs + 1 when no order of whole-unit clicks clears the board
 * (so at least one click must take part of a unit). It is at least
 * runs-ahead: when no unit is one group no order can start. Gravity, no
 * shift, at most 64 cells; otherwise runs-ahead's answer. */
static ps_value clicks_empty_chain(const struct sg_instance *in,
                                   const void *state)
{
    if (!in->rules.gravity || in->rules.shift != SG_SHIFT_NONE ||
        !small_planes_fit(in))
        return clicks_runs_ahead(in, state);
    if (has_dead_colour(in, state))
        return dead_board_cost(in);
    struct sg_small_planes p;
    small_planes_read(in, state, &p);
    struct chain ch;
    ch.p = &p;
    ch.R = in->rows;
    ch.units = 0;
    ch.height = C_HEIGHTS(in, state);
    ch.nseen = 0;
    ch.full = false;
    ch.unit_at_ready = false;
    ch.bmi2 = in->engine == SG_ENGINE_BMI2;
    uint64_t plane[CHAIN_UNITS];
    ch.start = plane;
    for (int k = 1; k <= in->colours; k++) {
        struct sg_runs r = runs_of(&p, p.colour[k], ch.R);
        for (; r.starts; r.starts &= r.starts - 1) {
            int u = ch.units++;
            ch.lanes[u] = first_run_lanes(&r, ch.R, &ch.joints[u]);
            plane[u] = p.colour[k] & ch.lanes[u];
        }
    }
    if (ch.units == 0)
        return 0;
    ch.all = ch.units == 64 ? ~0ull : (1ull << ch.units) - 1;
    return ch.units + !chain_clears(&ch, 0, plane);
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

/* The child_floors slot: a floor under each child's cost to clear, its
 * colour-runs exactly, read from the parent's planes without making it:
 * the click's group is a flood from its cell in its colour's plane, and
 * only that colour's columns change (cells fall inside their column).
 * colour-runs is admissible, so these are floors. A click that empties a
 * unit leaves colour-runs - 1; one that splits a unit leaves more. With
 * the default heuristic, empty-chain, dfs expands a node only below the
 * threshold by its extra click, so what the floors cut there are the
 * clicks that split a unit. Boards of more than 64 cells, a column shift
 * or a score objective: floors of 0 (nothing cut). */
static void sg_child_floors(const void *p, const void *state,
                            const ps_move *moves, int n, ps_value *floor)
{
    const struct sg_instance *in = p;
    ps_value all = 0;
    if (!counts_clicks(in) || in->rules.shift != SG_SHIFT_NONE ||
        !small_planes_fit(in)) {
        all = 0;
    } else if (has_dead_colour(in, state)) {
        all = dead_board_cost(in); /* no child can be cleared either */
    } else {
        struct sg_small_planes pl;
        small_planes_read(in, state, &pl);
        const int R = in->rows;
        ps_value runs = 0, runs_of_colour[SG_MAX_COLORS + 1] = {0};
        for (int k = 1; k <= in->colours; k++) {
            runs_of_colour[k] =
                popcount_portable(runs_of(&pl, pl.colour[k], R).starts);
            runs += runs_of_colour[k];
        }
        /* a move is the index of a cell of its group, its bit in a plane */
        const uint8_t *cell = C_CELLS(in, state);
        for (int i = 0; i < n; i++) {
            uint64_t bit = 1ull << moves[i];
            int k = cell[moves[i]];
            uint64_t left = pl.colour[k] &
                            ~small_planes_flood(&pl, R, bit, pl.colour[k]);
            floor[i] = runs - runs_of_colour[k] +
                       popcount_portable(runs_of(&pl, left, R).starts);
        }
        return;
    }
    for (int i = 0; i < n; i++)
        floor[i] = all;
}

/* The default: empty-chain (colour-runs + 1 when no order of whole-unit
 * clicks clears the board). dfs proves 7x9 Former boards in fewer
 * expansions than with runs-ahead, which beat colour-runs
 * (docs/samegame.md); column-strings saved IDA* 10 of 650,947 nodes
 * (board seed 3) and cost 20% more time. The game's heuristic slot is
 * sg_h_empty_chain, the table's entry, so that runs name it. */
static ps_value sg_clicks_default(const void *p, const void *state)
{
    return clicks_empty_chain(p, state);
}

static ps_value sg_h_column_strings(const void *p, const void *state)
{
    if (!counts_clicks(p))
        return sg_upper_bound(p, state);
    return clicks_column_strings(p, state);
}

static ps_value sg_h_empty_chain(const void *p, const void *state)
{
    if (!counts_clicks(p))
        return sg_upper_bound(p, state);
    return clicks_empty_chain(p, state);
}

static ps_value sg_h_runs_ahead(const void *p, const void *state)
{
    if (!counts_clicks(p))
        return sg_upper_bound(p, state);
    return clicks_runs_ahead(p, state);
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
    {"empty-chain", "fewest_clicks: colour-runs + 1 when no order of "
                    "clicks that each empty a whole run clears the board",
     true, sg_h_empty_chain},
    {"runs-ahead", "fewest_clicks: colour-runs + 1 when no run is one "
                   "group (the next click cannot empty one)",
     true, sg_h_runs_ahead},
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
