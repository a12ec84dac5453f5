/*
 * npuzzle.c - the sliding-tile puzzle (8-puzzle, 15-puzzle): slide a tile
 * into the blank until the tiles read 1, 2, ... in order with the blank last.
 * A cost game (each slide costs 1) with the Manhattan-distance heuristic:
 * the classic first example for BFS, A* and IDA*, and the small game that
 * docs/writing-a-game.md walks through.
 *
 * State: size*size bytes, row-major, the tile numbers with 0 for the blank,
 * then the blank's index, rounded up to 8 bytes with zeros.
 * Move: the index of the tile that slides into the blank. Text form: that
 * tile's number.
 */
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "hash.h"
#include "number.h"
#include "textfile.h"

#define NP_MIN 2
#define NP_MAX 6

/* The puzzle has no rule variants; the struct keeps the vtable uniform. */
struct np_rules {
    int64_t unused;
};

/* A partition of the tiles into the patterns of a pattern database. */
struct np_partition {
    int k[PS_PDB_MAX_PATTERNS];                    /* tiles per pattern */
    unsigned char tiles[PS_PDB_MAX_PATTERNS][NP_MAX * NP_MAX];
    signed char pattern_of[NP_MAX * NP_MAX];       /* tile -> pattern, -1 */
    bool usable;                                   /* fits this board */
};

#define NP_SETS 5

struct np_instance {
    int n;            /* tiles per side */
    int cells;        /* n * n */
    size_t state_size;
    unsigned char start[NP_MAX * NP_MAX + 8];
    /* The reflection about the main diagonal: cell (r, c) -> (c, r), and the
     * tile whose home is the image of tile t's home (the goal maps to
     * itself, so a state and its image are equally far from it). */
    unsigned char mirror_cell[NP_MAX * NP_MAX];
    unsigned char mirror_tile[NP_MAX * NP_MAX];
    /* Cells as bits: all of them, the left and right columns, each cell's
     * neighbours (the pattern databases' blank regions). */
    uint64_t all_cells, left_col, right_col;
    uint64_t neighbours[NP_MAX * NP_MAX];
    struct np_partition partition[NP_SETS]; /* one per np_pattern_sets entry */
};

static void np_prepare_patterns(struct np_instance *in);

static const struct ps_param np_params[] = {{NULL, 0, 0, 0, 0, NULL, 0, NULL, 0, NULL}};
static const struct ps_preset np_presets[] = {{NULL, NULL, NULL}};

static void np_rules_default(void *rules)
{
    (void)rules;
}

/* ---- parsing ---- */

static void np_free_instance(void *p)
{
    free(p);
}

/* Each row: n whitespace-separated numbers, 0 or '.' for the blank. */
static void *np_load(const void *rules, const char *path, const char *text,
                     size_t len, struct ps_error *err)
{
    (void)rules;
    struct np_instance *in = calloc(1, sizeof *in);
    if (!in) {
        ps_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    int tiles[NP_MAX * NP_MAX], line_of[NP_MAX * NP_MAX], col_of[NP_MAX * NP_MAX];
    int count = 0, rows = 0, width = -1;
    struct ps_line_reader rd;
    struct ps_line ln;
    ps_lines_begin(&rd, text, len);
    while (ps_lines_next(&rd, &ln)) {
        int w = 0;
        for (size_t i = 0; i < ln.len;) {
            if (ln.text[i] == ' ' || ln.text[i] == '\t') {
                i++;
                continue;
            }
            int col = (int)i + 1, v = 0;
            if (ln.text[i] == '.') {
                i++;
            } else if (ln.text[i] >= '0' && ln.text[i] <= '9') {
                /* Tiles are checked against the size once it is known; any
                 * number past the largest size is out of range already. */
                long long tile;
                size_t used;
                if (ps_number_scan(ln.text + i, ln.len - i, 0,
                                   NP_MAX * NP_MAX - 1, &tile,
                                   &used) != PS_NUMBER_OK) {
                    ps_error_set(err, path, ln.number, col,
                                 "tile %.*s is out of range (a puzzle has at "
                                 "most tiles 1..%d and one blank)",
                                 (int)used, ln.text + i, NP_MAX * NP_MAX - 1);
                    goto fail;
                }
                v = (int)tile;
                i += used;
            } else {
                ps_error_set(err, path, ln.number, col,
                             "expected a tile number or '.', got '%c'",
                             ln.text[i]);
                goto fail;
            }
            if (count == NP_MAX * NP_MAX || w == NP_MAX) {
                ps_error_set(err, path, ln.number, col,
                             "puzzle larger than %dx%d", NP_MAX, NP_MAX);
                goto fail;
            }
            tiles[count] = v;
            line_of[count] = ln.number;
            col_of[count] = col;
            count++;
            w++;
        }
        if (width < 0)
            width = w;
        else if (w != width) {
            ps_error_set(err, path, ln.number, 1,
                         "row has %d tiles, the first row %d", w, width);
            goto fail;
        }
        rows++;
    }
    if (rows == 0) {
        ps_error_set(err, path, 0, 0, "no rows in the file");
        goto fail;
    }
    if (rows != width || rows < NP_MIN) {
        ps_error_set(err, path, 0, 0,
                     "the puzzle must be square, %dx%d to %dx%d (got %d rows "
                     "of %d)",
                     NP_MIN, NP_MIN, NP_MAX, NP_MAX, rows, width);
        goto fail;
    }
    in->n = rows;
    in->cells = rows * rows;
    in->state_size = ((size_t)in->cells + 1 + 7) & ~(size_t)7;
    bool seen[NP_MAX * NP_MAX] = {false};
    for (int i = 0; i < count; i++) {
        if (tiles[i] >= in->cells || seen[tiles[i]]) {
            ps_error_set(err, path, line_of[i], col_of[i],
                         tiles[i] >= in->cells
                             ? "tile %d is out of range (a %dx%d puzzle has 1.."
                               "%d and one blank)"
                             : "tile %d appears twice",
                         tiles[i], in->n, in->n, in->cells - 1);
            goto fail;
        }
        seen[tiles[i]] = true;
        in->start[i] = (unsigned char)tiles[i];
        if (tiles[i] == 0)
            in->start[in->cells] = (unsigned char)i;
    }
    np_prepare_patterns(in);
    return in;
fail:
    free(in);
    return NULL;
}

/* ---- the hot loop ---- */

static size_t np_state_size(const void *p)
{
    return ((const struct np_instance *)p)->state_size;
}

static void np_initial_state(const void *p, void *state)
{
    const struct np_instance *in = p;
    memcpy(state, in->start, in->state_size);
}

static int np_max_moves(const void *p)
{
    (void)p;
    return 4;
}

static int np_max_depth(const void *p)
{
    (void)p;
    return 1000; /* no optimal solution of a 6x6 puzzle is this long */
}

static uint64_t np_hash(const void *p, const void *state)
{
    return ps_hash_bytes(state, ((const struct np_instance *)p)->state_size);
}

/* Tiles next to the blank, in the order up, down, left, right. */
static int np_moves(const void *p, const void *state, ps_move *moves,
                    ps_value *gains)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    int blank = s[in->cells], r = blank / in->n, c = blank % in->n, k = 0;
    if (r > 0)
        moves[k++] = (ps_move)(blank - in->n);
    if (r + 1 < in->n)
        moves[k++] = (ps_move)(blank + in->n);
    if (c > 0)
        moves[k++] = (ps_move)(blank - 1);
    if (c + 1 < in->n)
        moves[k++] = (ps_move)(blank + 1);
    for (int i = 0; gains && i < k; i++)
        gains[i] = 1;
    return k;
}

static ps_value np_apply(const void *p, const void *state, ps_move move,
                         void *out)
{
    const struct np_instance *in = p;
    unsigned char *o = out;
    memcpy(out, state, in->state_size);
    int blank = o[in->cells];
    o[blank] = o[move];
    o[move] = 0;
    o[in->cells] = (unsigned char)move;
    return 1;
}

static bool np_is_goal(const void *p, const void *state)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    for (int i = 0; i + 1 < in->cells; i++)
        if (s[i] != i + 1)
            return false;
    return true;
}

/* ---- heuristics (all but double-manhattan admissible; tested against
 * breadth-first distances in tests/test_npuzzle.c) ---- */

/* Tiles not at home: each needs at least one slide. */
static ps_value np_misplaced(const void *p, const void *state)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    ps_value h = 0;
    for (int i = 0; i < in->cells; i++)
        h += s[i] && s[i] != i + 1;
    return h;
}

/* Manhattan distance: every tile needs at least as many slides as rows and
 * columns between it and its home, and one slide moves one tile one step,
 * so the sum is a lower bound on the slides left (admissible). */
static ps_value np_manhattan(const void *p, const void *state)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    ps_value h = 0;
    for (int i = 0; i < in->cells; i++) {
        if (!s[i])
            continue;
        int home = s[i] - 1;
        h += abs(i / in->n - home / in->n) + abs(i % in->n - home % in->n);
    }
    return h;
}

/* The fewest of keys[0..n) to take out so that the rest increase: n minus
 * the longest increasing subsequence (n <= NP_MAX, so quadratic is fine). */
static int np_out_of_order(const int *keys, int n)
{
    int lis[NP_MAX], longest = 0;
    for (int i = 0; i < n; i++) {
        lis[i] = 1;
        for (int j = 0; j < i; j++)
            if (keys[j] < keys[i] && lis[j] + 1 > lis[i])
                lis[i] = lis[j] + 1;
        if (lis[i] > longest)
            longest = lis[i];
    }
    return n - longest;
}

/* Manhattan plus linear conflicts (Hansson, Mayer and Yung 1992): tiles in
 * their home row (column) that must pass each other in it. Of the tiles of
 * one line that are home in it, all but an increasing subsequence of their
 * home positions must leave the line and come back, two slides each beyond
 * their Manhattan distance; rows and columns count different slides
 * (vertical ones leave a row, horizontal ones a column), so both add up. */
static ps_value np_linear_conflict(const void *p, const void *state)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    int n = in->n;
    ps_value extra = 0;
    for (int line = 0; line < n; line++) {
        int row_keys[NP_MAX], col_keys[NP_MAX], nr = 0, nc = 0;
        for (int k = 0; k < n; k++) {
            int r = s[line * n + k], c = s[k * n + line];
            if (r && (r - 1) / n == line)
                row_keys[nr++] = (r - 1) % n;
            if (c && (c - 1) % n == line)
                col_keys[nc++] = (c - 1) / n;
        }
        extra += 2 * (np_out_of_order(row_keys, nr) +
                      np_out_of_order(col_keys, nc));
    }
    return np_manhattan(p, state) + extra;
}

/* Twice Manhattan: not admissible, for the lab that shows what an
 * overestimate costs (A* with it is weighted A* with w = 2). */
static ps_value np_double_manhattan(const void *p, const void *state)
{
    return 2 * np_manhattan(p, state);
}

static const struct ps_heuristic np_heuristics[] = {
    {"zero", "h = 0: A* is uniform-cost search", true,
     ps_heuristic_zero},
    {"misplaced", "tiles not at home", true, np_misplaced},
    {"manhattan", "sum of the tiles' row and column distances to home",
     true, np_manhattan},
    {"linear-conflict", "Manhattan + 2 per tile that must leave its home "
                        "row or column to let another pass",
     true, np_linear_conflict},
    {"double-manhattan", "2 x Manhattan: overestimates, so answers are "
                         "heuristic",
     false, np_double_manhattan},
    {NULL, NULL, false, NULL},
};

/* ---- pattern databases (the kernel's pdb.h builds and reads them) ----
 * Pattern p of a partition is its tiles' cells plus the blank's cell; the
 * other tiles are indistinct. Every move is the blank swapping with a
 * neighbour: a move of a pattern tile counts 1, any other move is free, so
 * the partitions' values add up (each move moves one tile, counted by its
 * own pattern only: Korf and Felner 2002). Free moves take the blank
 * anywhere in its region (the cells it reaches round the pattern tiles), so
 * the abstract state is the tiles' cells and the region, written as its
 * lowest cell. Ranks are the lexicographic index of the k tiles' cells then
 * the blank's among the cells left, so the C - k ranks of one placement are
 * consecutive: a table entry is that placement, the blank anywhere (the
 * smallest distance over its regions). */

/* Which tile goes to which pattern, tiles 1.. in order: 'A' + pattern. */
static const struct {
    int n;
    const char *of_tile;
} np_partitions[NP_SETS] = {
    {3, "AAAAAAAA"},        /* pdb:8 */
    {3, "AABAABBB"},        /* pdb:4-4 */
    {4, "ABBBAABBACCCACC"}, /* pdb:5-5-5 */
    {4, "ACCCAABBAABBABB"}, /* pdb:6-6-3 */
    {4, "AAAAAAAABBBBBBB"}, /* pdb:7-8 */
};

static const struct ps_pattern_set np_pattern_sets[NP_SETS + 1] = {
    {"pdb:8", "8-puzzle: all eight tiles in one table (exact distances)", 1,
     1, true},
    {"pdb:4-4", "8-puzzle: tiles 1 2 4 5 | 3 6 7 8, additive, and the "
                "diagonal mirror",
     2, 2, true},
    {"pdb:5-5-5", "15-puzzle: tiles 1 5 6 9 13 | 2 3 4 7 8 | 10 11 12 14 15, "
                  "additive, and the diagonal mirror",
     3, 2, true},
    {"pdb:6-6-3", "15-puzzle: tiles 1 5 6 9 10 13 | 7 8 11 12 14 15 | 2 3 4, "
                  "additive, and the diagonal mirror",
     3, 2, true},
    {"pdb:7-8", "15-puzzle: tiles 1-8 | 9-15, additive, and the diagonal "
                "mirror (a 519 MB table)",
     2, 2, true},
    {NULL, NULL, 0, 0, false},
};

static int np_set_index(const struct ps_pattern_set *set)
{
    return (int)(set - np_pattern_sets);
}

static void np_prepare_patterns(struct np_instance *in)
{
    int n = in->n;
    in->all_cells = (((uint64_t)1 << (in->cells - 1)) << 1) - 1;
    in->left_col = in->right_col = 0;
    for (int i = 0; i < in->cells; i++) {
        in->mirror_cell[i] = (unsigned char)((i % n) * n + i / n);
        if (i % n == 0)
            in->left_col |= (uint64_t)1 << i;
        if (i % n == n - 1)
            in->right_col |= (uint64_t)1 << i;
        uint64_t nb = 0;
        if (i >= n)
            nb |= (uint64_t)1 << (i - n);
        if (i + n < in->cells)
            nb |= (uint64_t)1 << (i + n);
        if (i % n > 0)
            nb |= (uint64_t)1 << (i - 1);
        if (i % n < n - 1)
            nb |= (uint64_t)1 << (i + 1);
        in->neighbours[i] = nb;
    }
    in->mirror_tile[0] = 0;
    for (int t = 1; t < in->cells; t++)
        in->mirror_tile[t] = (unsigned char)(in->mirror_cell[t - 1] + 1);
    for (int s = 0; s < NP_SETS; s++) {
        struct np_partition *pt = &in->partition[s];
        memset(pt, 0, sizeof *pt);
        memset(pt->pattern_of, -1, sizeof pt->pattern_of);
        pt->usable = np_partitions[s].n == n;
        for (int t = 1; pt->usable && t < in->cells; t++) {
            int p = np_partitions[s].of_tile[t - 1] - 'A';
            pt->pattern_of[t] = (signed char)p;
            pt->tiles[p][pt->k[p]++] = (unsigned char)t;
        }
    }
}

static const struct np_partition *np_partition_of(const struct np_instance *in,
                                                  const struct ps_pattern_set *set)
{
    return &in->partition[np_set_index(set)];
}

/* The index of k cells, in order, among `cells`: digit i is cell[i] less
 * the cells before it already used, in base cells - i. */
static uint64_t np_rank_cells(const unsigned char *cell, int k, int cells)
{
    uint64_t r = 0;
    for (int i = 0; i < k; i++) {
        int digit = cell[i];
        for (int j = 0; j < i; j++)
            digit -= cell[j] < cell[i];
        r = r * (uint64_t)(cells - i) + (uint64_t)digit;
    }
    return r;
}

static void np_unrank_cells(uint64_t r, int k, int cells, unsigned char *cell)
{
    int digit[NP_MAX * NP_MAX];
    for (int i = k - 1; i >= 0; i--) {
        digit[i] = (int)(r % (uint64_t)(cells - i));
        r /= (uint64_t)(cells - i);
    }
    uint64_t used = 0;
    for (int i = 0; i < k; i++) {
        int c = 0;
        for (int left = digit[i];; c++)
            if (!((used >> c) & 1) && left-- == 0)
                break;
        cell[i] = (unsigned char)c;
        used |= (uint64_t)1 << c;
    }
}

static bool np_space(const void *p, const struct ps_pattern_set *set, int pat,
                     struct ps_pattern_space *out, struct ps_error *err)
{
    const struct np_instance *in = p;
    const struct np_partition *pt = np_partition_of(in, set);
    if (!pt->usable)
        return ps_error_set(err, NULL, 0, 0,
                            "%s is for the %dx%d puzzle, this one is %dx%d",
                            set->name, np_partitions[np_set_index(set)].n,
                            np_partitions[np_set_index(set)].n, in->n, in->n);
    int k = pt->k[pat];
    uint64_t size = 1;
    for (int i = 0; i <= k; i++)
        size *= (uint64_t)(in->cells - i);
    out->size = size;
    out->group = (uint64_t)(in->cells - k);
    int used = snprintf(out->key, sizeof out->key, "%dx%d tiles", in->n,
                        in->n);
    for (int i = 0; i < k && used > 0 && (size_t)used < sizeof out->key; i++)
        used += snprintf(out->key + used, sizeof out->key - (size_t)used,
                         "%s%d", i ? "," : " ", pt->tiles[pat][i]);
    if (used > 0 && (size_t)used < sizeof out->key)
        snprintf(out->key + used, sizeof out->key - (size_t)used,
                 " + blank, others free");
    return true;
}

/* Sets of cells as bit masks (at most 36 cells). */
static int np_popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The lowest set bit of x != 0. */
static int np_lowest(uint64_t x)
{
    return __builtin_ctzll(x);
}

/* The cells the blank can reach from `cell` without moving a pattern tile
 * (`free` holds the cells no pattern tile is on). */
static uint64_t np_region(const struct np_instance *in, int cell, uint64_t free)
{
    uint64_t r = (uint64_t)1 << cell, was = 0;
    while (r != was) {
        was = r;
        r |= ((r & ~in->right_col) << 1) | ((r & ~in->left_col) >> 1) |
             (r >> in->n) | ((r << in->n) & in->all_cells);
        r &= free;
    }
    return r;
}

/* The rank of a placement (cell[0..k)) with the blank somewhere in the
 * region around `blank`: the region's lowest cell stands for all of it, as
 * the blank moves there for free. */
static uint64_t np_rank_region(const struct np_instance *in,
                               const unsigned char *cell, int k, int blank)
{
    uint64_t occupied = 0;
    for (int i = 0; i < k; i++)
        occupied |= (uint64_t)1 << cell[i];
    int low = np_lowest(np_region(in, blank, in->all_cells & ~occupied));
    int digit = low - np_popcount(occupied & (((uint64_t)1 << low) - 1));
    return np_rank_cells(cell, k, in->cells) * (uint64_t)(in->cells - k) +
           (uint64_t)digit;
}

/* The goal: the tiles home, the blank anywhere in the region of the last
 * cell. */
static int np_goals(const void *p, const struct ps_pattern_set *set, int pat,
                    uint64_t *ranks, int max)
{
    const struct np_instance *in = p;
    const struct np_partition *pt = np_partition_of(in, set);
    unsigned char cell[NP_MAX * NP_MAX];
    int k = pt->k[pat];
    for (int i = 0; i < k; i++)
        cell[i] = (unsigned char)(pt->tiles[pat][i] - 1);
    if (max < 1)
        return 0;
    ranks[0] = np_rank_region(in, cell, k, in->cells - 1);
    return 1;
}

/* Only regions' lowest cells are ranks the build meets: a pattern tile next
 * to the blank's region slides into it (counted), and the blank's new
 * region is the one around the cell the tile left. Slides are their own
 * inverse, so the predecessors are these neighbours. */
static int np_predecessors(const void *p, const struct ps_pattern_set *set,
                           int pat, uint64_t rank, uint64_t *ranks,
                           unsigned char *counted)
{
    const struct np_instance *in = p;
    int k = np_partition_of(in, set)->k[pat];
    unsigned char cell[NP_MAX * NP_MAX + 1];
    np_unrank_cells(rank, k + 1, in->cells, cell);
    uint64_t occupied = 0;
    for (int i = 0; i < k; i++)
        occupied |= (uint64_t)1 << cell[i];
    uint64_t region = np_region(in, cell[k], in->all_cells & ~occupied);
    int count = 0;
    for (int i = 0; i < k; i++) {
        int from = cell[i];
        uint64_t into = in->neighbours[from] & region;
        while (into && count < PS_PDB_MAX_NEIGHBOURS) {
            int to = np_lowest(into);
            into &= into - 1;
            cell[i] = (unsigned char)to;
            ranks[count] = np_rank_region(in, cell, k, from);
            counted[count++] = 1;
            cell[i] = (unsigned char)from;
        }
    }
    return count;
}

/* The entry of pattern `pat` of lookup `l` from the tiles' cells. */
static uint64_t np_entry(const struct np_instance *in,
                         const struct np_partition *pt, int pat, int l,
                         const unsigned char *where)
{
    unsigned char cell[NP_MAX * NP_MAX];
    int k = pt->k[pat];
    for (int i = 0; i < k; i++) {
        int t = pt->tiles[pat][i];
        cell[i] = l == 0 ? where[t]
                         : in->mirror_cell[where[in->mirror_tile[t]]];
    }
    return np_rank_cells(cell, k, in->cells);
}

static void np_where(const struct np_instance *in, const unsigned char *s,
                     unsigned char *where)
{
    for (int i = 0; i < in->cells; i++)
        where[s[i]] = (unsigned char)i;
}

static void np_entries(const void *p, const struct ps_pattern_set *set,
                       const void *state, uint64_t *out)
{
    const struct np_instance *in = p;
    const struct np_partition *pt = np_partition_of(in, set);
    unsigned char where[NP_MAX * NP_MAX];
    np_where(in, state, where);
    for (int l = 0; l < set->lookups; l++)
        for (int pat = 0; pat < set->patterns; pat++)
            out[l * set->patterns + pat] = np_entry(in, pt, pat, l, where);
}

/* A slide moves one tile: only its pattern changes, and in the mirror the
 * pattern of its mirror tile. */
static void np_update_entries(const void *p, const struct ps_pattern_set *set,
                              const void *before, ps_move move,
                              const void *after, uint64_t *out)
{
    const struct np_instance *in = p;
    const struct np_partition *pt = np_partition_of(in, set);
    int tile = ((const unsigned char *)before)[move];
    unsigned char where[NP_MAX * NP_MAX];
    np_where(in, after, where);
    for (int l = 0; l < set->lookups; l++) {
        int pat = pt->pattern_of[l == 0 ? tile : in->mirror_tile[tile]];
        if (pat >= 0)
            out[l * set->patterns + pat] = np_entry(in, pt, pat, l, where);
    }
}

static const struct ps_abstraction np_abstraction = {
    .sets = np_pattern_sets,
    .space = np_space,
    .goals = np_goals,
    .predecessors = np_predecessors,
    .entries = np_entries,
    .update_entries = np_update_entries,
};

/* ---- text forms ---- */

static void np_print_state(const void *p, const void *state, FILE *out,
                           bool ansi)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    int width = in->cells > 10 ? 3 : 2;
    for (int i = 0; i < in->cells; i++) {
        bool home = s[i] && s[i] == i + 1;
        if (!s[i])
            fprintf(out, "%*s", width, ".");
        else if (ansi && home)
            fprintf(out, "\x1b[32m%*d\x1b[0m", width, s[i]);
        else
            fprintf(out, "%*d", width, s[i]);
        if (i % in->n == in->n - 1)
            fputc('\n', out);
    }
}

static void np_format_move(const void *p, const void *state, ps_move move,
                           char *buf, size_t len)
{
    (void)p;
    snprintf(buf, len, "%d", ((const unsigned char *)state)[move]);
}

/* For the HTML report: the tiles row-major (0 = the blank), and the tile
 * that slides with the blank it slides into. */
static void np_state_json(const void *p, const void *state, const ps_move *next,
                          FILE *out)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    fprintf(out, "{\"kind\":\"grid\",\"rows\":%d,\"cols\":%d,"
                 "\"style\":\"tiles\",\"cells\":[",
            in->n, in->n);
    int blank = 0;
    for (int i = 0; i < in->cells; i++) {
        fprintf(out, "%s%d", i ? "," : "", s[i]);
        if (!s[i])
            blank = i;
    }
    fputc(']', out);
    if (next)
        fprintf(out, ",\"highlight\":[%u,%d]", (unsigned)*next, blank);
    fputc('}', out);
}

static bool np_parse_move(const void *p, const void *state, const char *text,
                          ps_move *move, struct ps_error *err)
{
    const struct np_instance *in = p;
    const unsigned char *s = state;
    long long tile;
    char expected[48];
    snprintf(expected, sizeof expected, "a tile number 1..%d", in->cells - 1);
    if (!ps_number_fields(text, 1, 1, in->cells - 1, &tile, expected, err))
        return false;
    ps_move legal[4];
    int n = np_moves(p, state, legal, NULL);
    for (int i = 0; i < n; i++)
        if (s[legal[i]] == tile) {
            *move = legal[i];
            return true;
        }
    return ps_error_set(err, NULL, 0, 0, "tile %lld is not next to the blank",
                        tile);
}

/* ---- solvability ---- */

/* With the blank last in the goal: for odd n, a position is solvable iff its
 * number of inversions is even; for even n, iff inversions + the blank's row
 * counted from the bottom (1-based) is odd. Each slide keeps that parity. */
static bool np_solvable(const int *t, int n)
{
    int cells = n * n, inversions = 0, blank = 0;
    for (int i = 0; i < cells; i++) {
        if (!t[i]) {
            blank = i;
            continue;
        }
        for (int j = i + 1; j < cells; j++)
            if (t[j] && t[j] < t[i])
                inversions++;
    }
    if (n % 2)
        return inversions % 2 == 0;
    return (inversions + n - blank / n) % 2 == 1;
}

static bool np_instance_solvable(const void *p, char *why, size_t len)
{
    const struct np_instance *in = p;
    int t[NP_MAX * NP_MAX];
    for (int i = 0; i < in->cells; i++)
        t[i] = in->start[i];
    if (np_solvable(t, in->n))
        return true;
    snprintf(why, len, "the tiles are an odd permutation of the goal: no "
                       "sequence of slides can sort them");
    return false;
}

/* ---- generation ---- */

/* --moves K: K random slides from the goal, never straight back, so the
 * optimum is at most K (a lab can pick how hard its puzzles are). */
static void np_scramble(int *t, int n, int moves, struct ps_rng *rng)
{
    int blank = n * n - 1, previous = -1;
    for (int k = 0; k < moves; k++) {
        int next[4], count = 0, r = blank / n, c = blank % n;
        if (r > 0)
            next[count++] = blank - n;
        if (r + 1 < n)
            next[count++] = blank + n;
        if (c > 0)
            next[count++] = blank - 1;
        if (c + 1 < n)
            next[count++] = blank + 1;
        int pick;
        do
            pick = next[ps_rng_below(rng, (uint32_t)count)];
        while (pick == previous);
        t[blank] = t[pick];
        t[pick] = 0;
        previous = blank;
        blank = pick;
    }
}

/* A uniformly random solvable position: a random permutation, fixed up by
 * one swap of two tiles when its parity makes it unsolvable. Or, with
 * --moves K, a scramble of K slides. */
/* gen's parameters: value[NP_GEN_SIZE] and value[NP_GEN_MOVES] (game.h). */
enum { NP_GEN_SIZE, NP_GEN_MOVES };
static const struct ps_option np_gen_options[] = {
    {.name = "rows", .type = PS_OPT_INT, .offset = PS_GEN_VALUE(NP_GEN_SIZE),
     .min = NP_MIN, .max = NP_MAX, .arg = "N", .def = "3",
     .doc = "the size N (an N x N board)"},
    {.name = "moves", .type = PS_OPT_INT, .offset = PS_GEN_VALUE(NP_GEN_MOVES),
     .min = 1, .max = 1000000, .arg = "K", .def = "a random permutation",
     .doc = "K random slides from the goal (an optimum of at most K)"},
    {0},
};

static bool np_generate(const struct ps_gen_options *o, FILE *out,
                        struct ps_error *err)
{
    int n = o->value[NP_GEN_SIZE] ? o->value[NP_GEN_SIZE] : 3;
    int moves = o->value[NP_GEN_MOVES];
    if (n < NP_MIN || n > NP_MAX)
        return ps_error_set(err, NULL, 0, 0, "size (--rows) must be %d..%d",
                            NP_MIN, NP_MAX);
    if (moves < 0 || moves > 1000000)
        return ps_error_set(err, NULL, 0, 0, "--moves must be 0..1000000");
    int cells = n * n, t[NP_MAX * NP_MAX];
    struct ps_rng rng;
    ps_rng_seed(&rng, o->seed);
    if (moves > 0) {
        for (int i = 0; i < cells; i++)
            t[i] = (i + 1) % cells;
        np_scramble(t, n, moves, &rng);
        fprintf(out, "# psolve gen --game npuzzle --rows %d --moves %d --seed "
                     "%llu (optimum <= %d)\n",
                n, moves, (unsigned long long)o->seed, moves);
    } else {
        for (int i = 0; i < cells; i++)
            t[i] = i;
        for (int i = cells - 1; i > 0; i--) {
            int j = (int)ps_rng_below(&rng, (uint32_t)i + 1), x = t[i];
            t[i] = t[j];
            t[j] = x;
        }
        if (!np_solvable(t, n)) {
            /* Swapping two tiles flips the parity. */
            int a = t[0] ? 0 : 2, b = t[1] ? 1 : 2, x = t[a];
            t[a] = t[b];
            t[b] = x;
        }
        fprintf(out, "# psolve gen --game npuzzle --rows %d --seed %llu\n", n,
                (unsigned long long)o->seed);
    }
    for (int i = 0; i < cells; i++)
        fprintf(out, "%d%c", t[i], i % n == n - 1 ? '\n' : ' ');
    return true;
}

/* A square of numbers, a permutation of 0..n*n-1 (or '.' for the blank):
 * no other game reads that, so a file that loads is an n-puzzle. */
static bool np_detect(const char *text, size_t len)
{
    struct ps_error err;
    void *inst = np_load(NULL, "", text, len, &err);
    np_free_instance(inst);
    return inst != NULL;
}

static const struct ps_gen_options np_bench_sizes[] = {
    {.value = {[NP_GEN_SIZE] = 3}},
    {.value = {[NP_GEN_SIZE] = 4}},
    {.seed = 0},
};

const struct ps_game npuzzle_game = {
    .name = "npuzzle",
    .summary = "sliding-tile puzzle (8-puzzle, 15-puzzle): fewest slides",
    .flags = PS_HAS_HEURISTIC,
    .rules_size = sizeof(struct np_rules),
    .rules_default = np_rules_default,
    .params = np_params,
    .presets = np_presets,
    .load = np_load,
    .free_instance = np_free_instance,
    .state_size = np_state_size,
    .initial_state = np_initial_state,
    .max_moves = np_max_moves,
    .max_depth = np_max_depth,
    .hash = np_hash,
    .moves = np_moves,
    .apply = np_apply,
    .is_goal = np_is_goal,
    .heuristic = np_manhattan,
    .solvable = np_instance_solvable,
    .print_state = np_print_state,
    .format_move = np_format_move,
    .move_help = "the number of the tile that slides into the blank",
    .detect = np_detect,
    .parse_move = np_parse_move,
    .generate = np_generate,
    .bench_sizes = np_bench_sizes,
    .gen_options = np_gen_options,
    .heuristics = np_heuristics,
    .state_json = np_state_json,
    .abstraction = &np_abstraction,
};
