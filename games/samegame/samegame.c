/*
 * samegame.c - SameGame (Clickomania, PopStar): click a group of >= min_group
 * orthogonally connected cells of one colour; it vanishes, cells fall down,
 * empty columns close up. A score game.
 *
 * State layout (canonical, compared with memcmp): bit planes.
 *   uint16_t cells_left, count[colours];  zeros up to a multiple of 8;
 *   uint64_t plane[colours][words]  -- plane[k-1]: the cells of colour k
 * (count[k-1]: the cells of colour k, kept by apply for the bound and the
 * tabu colour).
 * A column is a lane of L bits, row 0 = bit 0 = BOTTOM, where L (8, 16, 32
 * or 64) is the smallest power of two above the number of rows: every lane
 * has a spare top bit that is always 0, so shifting a whole word by one row
 * never carries a cell into the next column. Column c is lane c % (64/L) of
 * word c / (64/L). Finding a group is then a flood fill over words (shift
 * and mask, a few columns at a time), gravity a compaction of the lanes a
 * group touched, the column shift a lane move across words. A 15x15 board
 * of 5 colours is 16 + 5*4*8 = 176 bytes.
 *
 * A move is the index (c * rows + r) of the group's first cell in that
 * order (the lowest cell of its leftmost column), so each group has exactly
 * one move code. The text form is "row col", 0-based, row 0 = TOP, of the
 * board before the move.
 */
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "hash.h"
#include "textfile.h"

#define SG_MAX_ROWS 32
#define SG_MAX_COLS 32
#define SG_MAX_CELLS (SG_MAX_ROWS * SG_MAX_COLS)
#define SG_MAX_COLORS 9
#define SG_MAX_WORDS SG_MAX_COLS /* 32 rows: one 64-bit lane per column */

enum { SG_SHIFT_LEFT, SG_SHIFT_RIGHT, SG_SHIFT_NONE };
enum { SG_OBJ_SCORE, SG_OBJ_CLEAR, SG_OBJ_FEWEST_LEFT };

struct sg_rules {
    int64_t min_group;
    bool gravity;
    int shift;
    int objective;
    int64_t clear_bonus;
    int64_t score[SG_MAX_CELLS + 1];     /* gain of a group of n cells */
    int64_t end_bonus[SG_MAX_CELLS + 1]; /* bonus with r cells left at the end */
};

struct sg_instance {
    struct sg_rules rules;
    int rows, cols, ncells;
    int colours;        /* planes in a state: the largest colour on the board */
    int lane;           /* L: bits per column, a power of two > rows */
    int lane_shift;     /* log2(L) */
    int lanes_per_word; /* 64 / L */
    int words;          /* per plane */
    uint64_t first_lane, last_lane; /* the bits of lane 0 and of the top lane */
    size_t header;      /* bytes before the planes */
    size_t state_size;
    /* Plane bit of each cell index (word * 64 + bit), and column and row of
     * each cell index: cheaper than a division in the hot paths. */
    uint16_t bit_of[SG_MAX_CELLS];
    uint8_t col_of[SG_MAX_CELLS], row_of[SG_MAX_CELLS];
    unsigned char *start; /* the initial state */
    /* For upper_bound(), filled once at load (see sg_prepare_bound):
     * colour_bound[c]: the most a colour with c cells left can still gain;
     * end_bound[d]: the largest end value with at least d cells left. */
    int64_t colour_bound[SG_MAX_CELLS + 1];
    int64_t end_bound[SG_MAX_CELLS + 1];
    int superadditive_upto; /* score[a]+score[b] <= score[a+b] for a+b <= this */
};

/* ---- rules ---- */

static const char *const shift_names[] = {"left", "right", "none", NULL};
static const char *const objective_names[] = {"score", "clear", "fewest_left",
                                              NULL};

static const struct ps_param sg_params[] = {
    {"min_group", PS_PARAM_INT, offsetof(struct sg_rules, min_group), 1,
     SG_MAX_CELLS, NULL, 0, "smallest group that can be removed"},
    {"gravity", PS_PARAM_BOOL, offsetof(struct sg_rules, gravity), 0, 1, NULL,
     0, "cells fall down into emptied cells"},
    {"shift", PS_PARAM_ENUM, offsetof(struct sg_rules, shift), 0, 0,
     shift_names, 0, "where empty columns close up: left, right or none"},
    {"objective", PS_PARAM_ENUM, offsetof(struct sg_rules, objective), 0, 0,
     objective_names, 0,
     "score: the score tables; clear/fewest_left: one point per removed cell"},
    {"clear_bonus", PS_PARAM_INT, offsetof(struct sg_rules, clear_bonus),
     -1000000000, 1000000000, NULL, 0, "bonus when the board is cleared"},
    {"score", PS_PARAM_TABLE, offsetof(struct sg_rules, score), -1000000000,
     1000000000, NULL, SG_MAX_CELLS + 1, "score[n]: gain of a group of n cells"},
    {"end_bonus", PS_PARAM_TABLE, offsetof(struct sg_rules, end_bonus),
     -1000000000, 1000000000, NULL, SG_MAX_CELLS + 1,
     "end_bonus[r]: bonus when the game ends with r cells left"},
    {NULL, 0, 0, 0, 0, NULL, 0, NULL},
};

/* The research benchmark rules: (n-2)^2 per group, +1000 for a clear. */
static void sg_rules_default(void *p)
{
    struct sg_rules *r = p;
    r->min_group = 2;
    r->gravity = true;
    r->shift = SG_SHIFT_LEFT;
    r->objective = SG_OBJ_SCORE;
    r->clear_bonus = 1000;
    for (int n = 0; n <= SG_MAX_CELLS; n++) {
        r->score[n] = n >= 2 ? (int64_t)(n - 2) * (n - 2) : 0;
        r->end_bonus[n] = 0;
    }
}

static void preset_samegame(void *p)
{
    (void)p; /* the defaults */
}

/* PopStar: 5 n^2 per group; 2000 - 20 r^2 at the end when r < 10 remain. */
static void preset_popstar(void *p)
{
    struct sg_rules *r = p;
    r->clear_bonus = 0;
    for (int n = 0; n <= SG_MAX_CELLS; n++) {
        r->score[n] = 5 * (int64_t)n * n;
        r->end_bonus[n] = n < 10 ? 2000 - 20 * (int64_t)n * n : 0;
    }
}

static void preset_clickomania(void *p)
{
    struct sg_rules *r = p;
    r->objective = SG_OBJ_FEWEST_LEFT;
    r->clear_bonus = 0;
}

static const struct ps_preset sg_presets[] = {
    {"samegame", "(n-2)^2 per group, +1000 for a cleared board", preset_samegame},
    {"popstar", "5*n*n per group, 2000-20*r*r at the end when r < 10 left",
     preset_popstar},
    {"clickomania", "leave as few cells as possible (1 point per cell removed)",
     preset_clickomania},
    {NULL, NULL, NULL},
};

static bool sg_rules_check(const void *p, struct ps_error *err)
{
    const struct sg_rules *r = p;
    if (r->min_group < 1 || r->min_group > SG_MAX_CELLS)
        return ps_error_set(err, NULL, 0, 0, "min_group must be 1..%d",
                            SG_MAX_CELLS);
    return true;
}

/* The gain of removing a group of n cells under the objective. */
static inline int64_t sg_gain(const struct sg_rules *r, int n)
{
    return r->objective == SG_OBJ_SCORE ? r->score[n] : n;
}

/* ---- state access ---- */

/* Planes are read and written with memcpy: a state is a byte blob, and a
 * caller's buffer need not be aligned for uint64_t. The copies are a few
 * words; compilers turn them into plain loads and stores. */
static inline int cells_left_of(const void *s)
{
    uint16_t left;
    memcpy(&left, s, sizeof left);
    return left;
}

static inline void set_cells_left(void *s, int left)
{
    uint16_t v = (uint16_t)left;
    memcpy(s, &v, sizeof v);
}

/* The cells of each colour: count[k] for k = 1..colours from the header
 * (count[0] = 0, and 0 for colours the board never had). */
static void count_colours(const struct sg_instance *in, const void *state,
                          int count[SG_MAX_COLORS + 1])
{
    uint16_t c[SG_MAX_COLORS];
    memcpy(c, (const unsigned char *)state + 2, sizeof c);
    memset(count, 0, (SG_MAX_COLORS + 1) * sizeof *count);
    for (int k = 1; k <= in->colours; k++)
        count[k] = c[k - 1];
}

static inline size_t plane_offset(const struct sg_instance *in, int k)
{
    return in->header + (size_t)(k - 1) * (size_t)in->words * sizeof(uint64_t);
}

/* Colour k's plane (k = 1..colours) into words[0..words). */
static inline void load_plane(const struct sg_instance *in, const void *s,
                              int k, uint64_t *words)
{
    memcpy(words, (const unsigned char *)s + plane_offset(in, k),
           (size_t)in->words * sizeof *words);
}

static inline uint64_t plane_word(const struct sg_instance *in, const void *s,
                                  int k, int w)
{
    uint64_t x;
    memcpy(&x, (const unsigned char *)s + plane_offset(in, k) +
                   (size_t)w * sizeof x,
           sizeof x);
    return x;
}

/* Does colour k occupy cell i (c * rows + r)? */
static inline bool cell_is(const struct sg_instance *in, const void *s, int k,
                           int i)
{
    int bit = in->bit_of[i];
    return (plane_word(in, s, k, bit >> 6) >> (bit & 63)) & 1;
}

/* The colour of cell i, 0 if empty. */
static int colour_at(const struct sg_instance *in, const void *s, int i)
{
    for (int k = 1; k <= in->colours; k++)
        if (cell_is(in, s, k, i))
            return k;
    return 0;
}

/* ---- bits ---- */

/* The hot functions take the lane width L as a parameter and are inlined
 * into one copy per width (list_groups' switch), where L is a constant and
 * every lane shift one instruction. */
#if defined(__GNUC__) || defined(__clang__)
#define SG_HOT static inline __attribute__((always_inline))
#else
#define SG_HOT static inline
#endif

/* Inline and portable: without -mpopcnt (or a -march that has it),
 * __builtin_popcountll is a call into libgcc, slower than these few
 * instructions. */
static inline int bit_count(uint64_t x)
{
#if defined(__POPCNT__) /* built for a CPU with the instruction */
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (int)((x * 0x0101010101010101u) >> 56);
#endif
}

/* The index of the lowest set bit; x != 0. */
static inline int lowest_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* The bits below bit n, n = 0..64. */
static inline uint64_t bits_below(int n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* Shifts by one lane, n = L = 1..64 (a shift by 64 would be undefined). */
static inline uint64_t shl_lane(uint64_t x, int n)
{
    return (x << (n - 1)) << 1;
}

static inline uint64_t shr_lane(uint64_t x, int n)
{
    return (x >> (n - 1)) >> 1;
}

/* The cells of plane m (word w, its neighbours' words prev and next) next
 * to a cell of x, and x: one step of a flood fill. The spare top bit of
 * every lane keeps the row shifts inside their column. */
static inline uint64_t spread(uint64_t x, uint64_t prev, uint64_t next, int L)
{
    return x | x << 1 | x >> 1 | shl_lane(x, L) | shr_lane(x, L) |
           prev >> (64 - L) | next << (64 - L);
}

/* ---- parsing ---- */

static int colour_of_char(char ch, bool *is_letter)
{
    static const char letters[] = "RGBYPOCMW";
    *is_letter = false;
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch == '.' || ch == '0')
        return 0;
    char up = (ch >= 'a' && ch <= 'z') ? (char)(ch - 'a' + 'A') : ch;
    const char *hit = up ? strchr(letters, up) : NULL;
    if (hit) {
        *is_letter = true;
        return (int)(hit - letters) + 1;
    }
    return -1;
}

static void sg_free_instance(void *p)
{
    struct sg_instance *in = p;
    if (!in)
        return;
    free(in->start);
    free(in);
}

/* Reject boards that the rules could never produce: a cell above an empty
 * cell (with gravity), an empty column on the wrong side (with a shift). */
static bool check_settled(const struct sg_instance *in, const uint8_t *grid,
                          const int *line_of_row, const int *col_of_cell,
                          const char *path, struct ps_error *err)
{
    const int R = in->rows, C = in->cols;
    if (in->rules.gravity) {
        for (int c = 0; c < C; c++)
            for (int top = 0; top + 1 < R; top++) {
                /* grid is row-major here, row 0 = top */
                if (grid[top * C + c] && !grid[(top + 1) * C + c])
                    return ps_error_set(
                        err, path, line_of_row[top], col_of_cell[top * C + c],
                        "cell floats above an empty cell (row %d, column %d); "
                        "with gravity, cells rest on each other",
                        top, c);
            }
    }
    if (in->rules.shift == SG_SHIFT_NONE)
        return true;
    bool seen_empty = false;
    for (int i = 0; i < C; i++) {
        int c = in->rules.shift == SG_SHIFT_LEFT ? i : C - 1 - i;
        bool empty = true;
        for (int r = 0; r < R; r++)
            if (grid[r * C + c])
                empty = false;
        if (empty)
            seen_empty = true;
        else if (seen_empty)
            return ps_error_set(
                err, path, line_of_row[R - 1], col_of_cell[(R - 1) * C + c],
                "column %d holds cells but an empty column lies to its %s; "
                "with the column shift, empty columns close up",
                c, in->rules.shift == SG_SHIFT_LEFT ? "left" : "right");
    }
    return true;
}

/* ---- the upper bound (docs/samegame.md argues its soundness) ---- */

/* The largest L such that gain[a] + gain[b] <= gain[a + b] for all group
 * sizes a, b >= min_group with a + b <= L: up to L, merging two groups of a
 * colour never loses, so a colour's groups are worth at most one big group. */
static int superadditive_limit(const struct sg_rules *r, int ncells)
{
    const int m = (int)r->min_group;
    for (int sum = 2 * m; sum <= ncells; sum++)
        for (int a = m; 2 * a <= sum; a++)
            if (sg_gain(r, a) + sg_gain(r, sum - a) > sg_gain(r, sum))
                return sum - 1;
    return ncells;
}

/* Tabulate, for every count c a colour can have, the most its groups can
 * still gain: the groups removed from a colour of c cells have sizes
 * k_i >= min_group with sum k_i <= c, so
 *   sum gain[k_i] = sum k_i * (gain[k_i] / k_i) <= c * max_{m<=k<=c} gain[k]/k
 * when that ratio is positive, and <= 0 otherwise (an empty sum is 0: no
 * group of the colour need ever be removed -- and a forced move only lowers
 * what is reachable, never raises it). If the table is superadditive up to c
 * the groups are worth at most one group of their total size, so
 * max_{m<=k<=c} gain[k] (not gain[c]: the total may be less than c) bounds
 * them too; the smaller bound wins. A colour with fewer than min_group cells
 * can never form a group again (cells are never added): 0.
 * The end value with r cells left is end_bonus[r] (+ clear_bonus if r = 0);
 * r is at least the number of such dead cells d, so end_bound[d] is the
 * largest end value over r >= d. */
static void sg_prepare_bound(struct sg_instance *in)
{
    const struct sg_rules *r = &in->rules;
    const int N = in->ncells, m = (int)r->min_group;
    in->superadditive_upto = superadditive_limit(r, N);
    int64_t num = 0, den = 0; /* the best ratio gain[k]/k so far; den 0: none */
    int64_t best_gain = INT64_MIN;
    for (int c = 0; c <= N; c++) {
        in->colour_bound[c] = 0;
        if (c < m)
            continue;
        int64_t gain = sg_gain(r, c);
        if (den == 0 || gain * den > num * c) {
            num = gain;
            den = c;
        }
        if (gain > best_gain)
            best_gain = gain;
        /* ceil(c * num / den), exact in integers; only positive matters */
        int64_t bound = num > 0 ? (c * num + den - 1) / den : 0;
        if (c <= in->superadditive_upto && best_gain < bound)
            bound = best_gain;
        in->colour_bound[c] = bound > 0 ? bound : 0;
    }
    int64_t best_end = INT64_MIN;
    for (int d = N; d >= 0; d--) {
        int64_t end = 0;
        if (r->objective == SG_OBJ_SCORE)
            end = r->end_bonus[d] + (d == 0 ? r->clear_bonus : 0);
        if (end > best_end)
            best_end = end;
        in->end_bound[d] = best_end;
    }
}

/* The bit-plane layout of a rows x cols board whose largest colour is in
 * grid (see the top of the file). */
static void sg_layout(struct sg_instance *in, const uint8_t *grid)
{
    const int R = in->rows;
    in->colours = 0;
    for (int i = 0; i < in->ncells; i++)
        if (grid[i] > in->colours)
            in->colours = grid[i];
    in->lane_shift = 3;
    while ((1 << in->lane_shift) <= R)
        in->lane_shift++;
    in->lane = 1 << in->lane_shift;
    in->lanes_per_word = 64 / in->lane;
    in->words = (in->cols + in->lanes_per_word - 1) / in->lanes_per_word;
    in->first_lane = bits_below(in->lane);
    in->last_lane = in->first_lane << (64 - in->lane);
    for (int i = 0; i < in->ncells; i++) {
        int c = i / R, r = i % R;
        in->col_of[i] = (uint8_t)c;
        in->row_of[i] = (uint8_t)r;
        in->bit_of[i] = (uint16_t)((c / in->lanes_per_word) * 64 +
                                   (c % in->lanes_per_word) * in->lane + r);
    }
    in->header = ((size_t)2 + 2 * (size_t)in->colours + 7) & ~(size_t)7;
    in->state_size = in->header + (size_t)in->colours * (size_t)in->words *
                                     sizeof(uint64_t);
}

static void *sg_load(const void *rules, const char *path, const char *text,
                     size_t len, struct ps_error *err)
{
    struct sg_instance *in = calloc(1, sizeof *in);
    uint8_t *grid = calloc(SG_MAX_CELLS, 1); /* row-major, row 0 = top */
    int *col_of_cell = calloc(SG_MAX_CELLS, sizeof *col_of_cell);
    int line_of_row[SG_MAX_ROWS];
    if (!in || !grid || !col_of_cell) {
        ps_error_set(err, path, 0, 0, "out of memory");
        goto fail;
    }
    in->rules = *(const struct sg_rules *)rules;

    struct ps_line_reader rd;
    struct ps_line ln;
    int rows = 0, cols = -1, first_width_line = 0;
    int saw_letter_line = 0, saw_digit_line = 0;
    ps_lines_begin(&rd, text, len);
    while (ps_lines_next(&rd, &ln)) {
        if (rows == SG_MAX_ROWS) {
            ps_error_set(err, path, ln.number, 1,
                         "board has more than %d rows", SG_MAX_ROWS);
            goto fail;
        }
        int w = 0;
        for (size_t i = 0; i < ln.len; i++) {
            char ch = ln.text[i];
            int col = (int)i + 1;
            if (ch == ' ' || ch == '\t')
                continue;
            bool is_letter;
            int colour = colour_of_char(ch, &is_letter);
            if (colour < 0) {
                ps_error_set(err, path, ln.number, col,
                             "unknown cell '%c' (use 1-9, the letters RGBYPOCMW, "
                             "or . or 0 for empty)",
                             ch);
                goto fail;
            }
            if (colour > 0 && is_letter && !saw_letter_line)
                saw_letter_line = ln.number;
            if (colour > 0 && !is_letter && !saw_digit_line)
                saw_digit_line = ln.number;
            if (saw_letter_line && saw_digit_line) {
                ps_error_set(err, path, ln.number, col,
                             "board mixes digit colours and letter colours "
                             "(lines %d and %d); use one notation",
                             saw_digit_line, saw_letter_line);
                goto fail;
            }
            if (w == SG_MAX_COLS) {
                ps_error_set(err, path, ln.number, col,
                             "board has more than %d columns", SG_MAX_COLS);
                goto fail;
            }
            grid[rows * SG_MAX_COLS + w] = (uint8_t)colour;
            col_of_cell[rows * SG_MAX_COLS + w] = col;
            w++;
        }
        if (cols < 0) {
            cols = w;
            first_width_line = ln.number;
        } else if (w != cols) {
            ps_error_set(err, path, ln.number, (int)ln.len,
                         "row has %d cells but line %d has %d (rows must be "
                         "equally long)",
                         w, first_width_line, cols);
            goto fail;
        }
        line_of_row[rows] = ln.number;
        rows++;
    }
    if (rows == 0) {
        ps_error_set(err, path, 0, 0, "no board rows in the file");
        goto fail;
    }
    /* Compact the rows to the real width. */
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            grid[r * cols + c] = grid[r * SG_MAX_COLS + c];
            col_of_cell[r * cols + c] = col_of_cell[r * SG_MAX_COLS + c];
        }
    in->rows = rows;
    in->cols = cols;
    in->ncells = rows * cols;
    if (!check_settled(in, grid, line_of_row, col_of_cell, path, err))
        goto fail;

    sg_layout(in, grid);
    in->start = calloc(1, in->state_size);
    if (!in->start) {
        ps_error_set(err, path, 0, 0, "out of memory");
        goto fail;
    }
    int left = 0, count[SG_MAX_COLORS + 1] = {0};
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++) {
            int v = grid[(rows - 1 - r) * cols + c], bit = in->bit_of[c * rows + r];
            if (!v)
                continue;
            uint64_t x = plane_word(in, in->start, v, bit >> 6) |
                         (uint64_t)1 << (bit & 63);
            memcpy(in->start + plane_offset(in, v) +
                       (size_t)(bit >> 6) * sizeof x,
                   &x, sizeof x);
            count[v]++;
            left++;
        }
    set_cells_left(in->start, left);
    for (int k = 1; k <= in->colours; k++) {
        uint16_t c = (uint16_t)count[k];
        memcpy(in->start + 2 * (size_t)k, &c, sizeof c);
    }
    sg_prepare_bound(in);
    free(grid);
    free(col_of_cell);
    return in;
fail:
    free(grid);
    free(col_of_cell);
    sg_free_instance(in);
    return NULL;
}

/* ---- the hot loop ---- */

static size_t sg_state_size(const void *p)
{
    return ((const struct sg_instance *)p)->state_size;
}

static void sg_initial_state(const void *p, void *state)
{
    const struct sg_instance *in = p;
    memcpy(state, in->start, in->state_size);
}

static int sg_max_moves(const void *p)
{
    const struct sg_instance *in = p;
    return in->ncells / (int)(in->rules.min_group > 0 ? in->rules.min_group : 1) + 1;
}

static int sg_max_depth(const void *p)
{
    return sg_max_moves(p);
}

static uint64_t sg_hash(const void *p, const void *state)
{
    return ps_hash_bytes(state, ((const struct sg_instance *)p)->state_size);
}

/*
 * Group finding: a flood fill over the words of one colour's plane m. g
 * holds the group so far, with a zero guard word on each side (g[-1],
 * g[words]), so spread() needs no bounds checks; it is non-zero only in
 * words [lo, hi]. A pass over them grows g by (at least) one step in every
 * direction; the range widens by a word when the group reaches its edge
 * lane. The caller clears g[lo..hi] after use.
 */
SG_HOT int flood_words(const struct sg_instance *in, const uint64_t *m,
                       uint64_t *g, int *lo_io, int *hi_io, const int L)
{
    const int last = in->words - 1;
    int lo = *lo_io, hi = *hi_io;
    for (;;) {
        if (lo > 0 && (g[lo] & in->first_lane))
            lo--;
        if (hi < last && (g[hi] & in->last_lane))
            hi++;
        uint64_t grew = 0;
        for (int i = lo; i <= hi; i++) {
            uint64_t x = g[i], y = spread(x, g[i - 1], g[i + 1], L) & m[i];
            grew |= x ^ y;
            g[i] = y;
        }
        if (!grew)
            break;
    }
    int n = 0;
    for (int i = lo; i <= hi; i++)
        n += bit_count(g[i]);
    *lo_io = lo;
    *hi_io = hi;
    return n;
}

/* The cells of mw connected to x inside the word (columns of one word). */
SG_HOT uint64_t fill_in_word(uint64_t x, uint64_t mw, const int L)
{
    for (;;) {
        uint64_t y = (x | x << 1 | x >> 1 | shl_lane(x, L) | shr_lane(x, L)) &
                     mw;
        if (y == x)
            return x;
        x = y;
    }
}

/* Does part x of word w touch cells of m in word w-1 / w+1? */
SG_HOT bool joins_left(const struct sg_instance *in, const uint64_t *m, int w,
                       uint64_t x, const int L)
{
    return w > 0 && ((x & in->first_lane) << (64 - L) & m[w - 1]);
}

SG_HOT bool joins_right(const struct sg_instance *in, const uint64_t *m, int w,
                        uint64_t x, const int L)
{
    return w + 1 < in->words && ((x & in->last_lane) >> (64 - L) & m[w + 1]);
}

/* The group of `seed` (a bit of m[w]) into g as flood_words leaves it, and
 * its size. Most groups lie in one word or in two (a group found from its
 * anchor never reaches left of it): those are filled there with the words
 * in registers; only the others go on in flood_words. */
SG_HOT int flood_group(const struct sg_instance *in, const uint64_t *m, int w,
                       uint64_t seed, uint64_t *g, int *lo, int *hi,
                       const int L)
{
    uint64_t x0 = fill_in_word(seed, m[w], L);
    *lo = *hi = w;
    g[w] = x0;
    if (joins_left(in, m, w, x0, L))
        return flood_words(in, m, g, lo, hi, L);
    if (!joins_right(in, m, w, x0, L))
        return bit_count(x0);
    const uint64_t m0 = m[w], m1 = m[w + 1];
    uint64_t x1 = 0;
    for (;;) {
        uint64_t y1 = (x1 | x1 << 1 | x1 >> 1 | shl_lane(x1, L) |
                       shr_lane(x1, L) | x0 >> (64 - L)) & m1;
        uint64_t y0 = (x0 | x0 << 1 | x0 >> 1 | shl_lane(x0, L) |
                       shr_lane(x0, L) | y1 << (64 - L)) & m0;
        if (y0 == x0 && y1 == x1)
            break;
        x0 = y0;
        x1 = y1;
    }
    g[w] = x0;
    g[w + 1] = x1;
    *hi = w + 1;
    if (joins_left(in, m, w, x0, L) || joins_right(in, m, w + 1, x1, L))
        return flood_words(in, m, g, lo, hi, L);
    return bit_count(x0) + bit_count(x1);
}

/* The cells of plane m with a neighbour of their colour (in a group of at
 * least two). */
SG_HOT void paired_cells(const struct sg_instance *in, const uint64_t *m,
                         uint64_t *out, const int L)
{
    const int W = in->words;
    for (int i = 0; i < W; i++) {
        uint64_t x = m[i], prev = i > 0 ? m[i - 1] : 0,
                 next = i + 1 < W ? m[i + 1] : 0;
        out[i] = x & (x << 1 | x >> 1 | shl_lane(x, L) | shr_lane(x, L) |
                      prev >> (64 - L) | next << (64 - L));
    }
}

/* Cell index of plane bit (word w, bit b). */
SG_HOT int cell_of_bit_lanes(const struct sg_instance *in, int w, int b,
                             const int L)
{
    return (w * (64 / L) + b / L) * in->rows + (b & (L - 1));
}

static inline int cell_of_bit(const struct sg_instance *in, int w, int b)
{
    return cell_of_bit_lanes(in, w, b, in->lane);
}

SG_HOT int list_groups_lanes(const struct sg_instance *in, const void *state,
                             ps_move *moves, ps_value *gains, int *sizes,
                             uint8_t *colours, int *loose, const int L);

/* One copy of a hot function per lane width, L a constant in each. */
#define SG_BY_LANE(in, call_with_L)                                            \
    switch ((in)->lane) {                                                      \
    case 8: { const int L_ = 8; return call_with_L; }                          \
    case 16: { const int L_ = 16; return call_with_L; }                        \
    case 32: { const int L_ = 32; return call_with_L; }                        \
    default: { const int L_ = 64; return call_with_L; }                        \
    }

/* Every group of at least min_group cells, in the order of their anchors
 * (c * rows + r): its move (the anchor), and if asked its gain, size and
 * colour. If `loose` is not NULL, loose[k] counts the cells of colour k in
 * no such group. The hot loop of playouts, and of beam's evaluation.
 * Colour by colour: each group is found from its anchor (the first cell of
 * the colour not yet in a group, in plane order = cell order), flooded, and
 * noted at its anchor's bit; then the anchors are read off in order. */
static int list_groups(const struct sg_instance *in, const void *state,
                       ps_move *moves, ps_value *gains, int *sizes,
                       uint8_t *colours, int *loose)
{
    SG_BY_LANE(in, list_groups_lanes(in, state, moves, gains, sizes, colours,
                                     loose, L_))
}

SG_HOT int list_groups_lanes(const struct sg_instance *in, const void *state,
                             ps_move *moves, ps_value *gains, int *sizes,
                             uint8_t *colours, int *loose, const int L)
{
    const int W = in->words, min_group = (int)in->rules.min_group;
    const bool want_about = gains || sizes || colours;
    /* Without gains or sizes, a group's size matters only against
     * min_group, and every group of paired cells has min_group <= 2. */
    const bool want_size = want_about || loose || min_group > 2;
    uint64_t m[SG_MAX_WORDS], todo[SG_MAX_WORDS], anchors[SG_MAX_WORDS] = {0};
    uint64_t guarded[SG_MAX_WORDS + 2] = {0}, *g = guarded + 1;
    /* Size (low 11 bits) and colour of the group anchored at each bit; read
     * only where `anchors` has a bit. */
    uint16_t about[SG_MAX_WORDS * 64];
    for (int k = 1; k <= in->colours; k++) {
        load_plane(in, state, k, m);
        /* singles are no group of min_group > 1: never a fill for them */
        if (min_group > 1)
            paired_cells(in, m, todo, L);
        else
            memcpy(todo, m, (size_t)W * sizeof *m);
        int in_groups = 0;
        for (int w = 0; w < W; w++)
            while (todo[w]) {
                /* the first cell left is its group's anchor: the group
                 * never reaches left of it, only right */
                uint64_t seed = todo[w] & (0 - todo[w]);
                uint64_t x = fill_in_word(seed, m[w], L);
                int size;
                if (!joins_right(in, m, w, x, L)) {
                    todo[w] &= ~x;
                    size = want_size ? bit_count(x) : min_group;
                } else {
                    int lo, hi;
                    size = flood_group(in, m, w, seed, g, &lo, &hi, L);
                    for (int i = lo; i <= hi; i++) {
                        todo[i] &= ~g[i];
                        g[i] = 0;
                    }
                }
                if (size < min_group)
                    continue;
                in_groups += size;
                anchors[w] |= seed;
                if (want_about)
                    about[w * 64 + lowest_bit(seed)] =
                        (uint16_t)(size | k << 11);
            }
        if (loose) {
            int cells = 0;
            for (int w = 0; w < W; w++)
                cells += bit_count(m[w]);
            loose[k] += cells - in_groups;
        }
    }
    int n = 0;
    for (int w = 0; w < W; w++)
        for (uint64_t a = anchors[w]; a; a &= a - 1) {
            int b = lowest_bit(a), size = about[w * 64 + b] & 0x7ff;
            moves[n] = (ps_move)cell_of_bit_lanes(in, w, b, L);
            if (gains)
                gains[n] = sg_gain(&in->rules, size);
            if (sizes)
                sizes[n] = size;
            if (colours)
                colours[n] = (uint8_t)(about[w * 64 + b] >> 11);
            n++;
        }
    return n;
}

static int sg_moves(const void *p, const void *state, ps_move *moves,
                    ps_value *gains)
{
    return list_groups(p, state, moves, gains, NULL, NULL, NULL);
}

SG_HOT int group_of_cell_lanes(const struct sg_instance *in,
                               const void *state, int i, uint64_t *g,
                               int *colour, int *lo, int *hi, const int L)
{
    uint64_t m[SG_MAX_WORDS];
    int bit = in->bit_of[i];
    *colour = colour_at(in, state, i);
    *lo = 0;
    *hi = -1;
    if (!*colour)
        return 0;
    load_plane(in, state, *colour, m);
    return flood_group(in, m, bit >> 6, (uint64_t)1 << (bit & 63), g, lo, hi,
                       L);
}

/* The group of board cell i: its colour, its size, and its cells as a
 * plane (g, guarded as flood_words wants, zero on entry) in words [lo, hi].
 * 0 cells if i is empty. */
static int group_of_cell(const struct sg_instance *in, const void *state,
                         int i, uint64_t *g, int *colour, int *lo, int *hi)
{
    SG_BY_LANE(in, group_of_cell_lanes(in, state, i, g, colour, lo, hi, L_))
}

/* The size of the group of board cell i (0 if empty), and its anchor. */
static int group_at(const struct sg_instance *in, const void *state, int i,
                    int *anchor)
{
    uint64_t guarded[SG_MAX_WORDS + 2] = {0}, *g = guarded + 1;
    int colour, lo, hi;
    int n = group_of_cell(in, state, i, g, &colour, &lo, &hi);
    for (int w = lo; w <= hi && anchor; w++)
        if (g[w]) {
            *anchor = cell_of_bit(in, w, lowest_bit(g[w]));
            break;
        }
    return n;
}

/* Remove the run of `len` bits from bit p up in every lane-bounded word of
 * x[0..n) (one word per plane): the bits above it in its lane fall by len,
 * other lanes stay. Gravity, one run of a column at a time. */
SG_HOT void drop_run(uint64_t *x, int n, int stride, int p, int len,
                     const int L)
{
    const uint64_t low = bits_below(p), lane = bits_below((p / L + 1) * L);
    for (int k = 0; k < n; k++) {
        uint64_t v = x[k * stride];
        x[k * stride] = (v & low) | (((v & lane) >> len) & ~low) | (v & ~lane);
    }
}

/* Remove column c from every plane of `planes` (n planes of `stride`
 * words), the columns on one side moving one lane towards it: the right
 * ones left (shift left) or the left ones right (shift right). */
SG_HOT void remove_column(const struct sg_instance *in, uint64_t *planes,
                          int n, int stride, int c, bool left, const int L)
{
    const int W = in->words, P = 64 / L;
    const int w0 = c / P, j = c % P;
    const uint64_t below = bits_below(j * L), above = ~bits_below((j + 1) * L);
    for (int k = 0; k < n; k++) {
        uint64_t *x = planes + k * stride;
        if (left) {
            /* words w0..W-1 move down one lane, each taking the next one's
             * lane 0 into its top lane */
            for (int w = w0; w < W; w++) {
                uint64_t next = w + 1 < W ? x[w + 1] : 0;
                uint64_t v = x[w], keep = w == w0 ? below : 0;
                x[w] = (v & keep) | (shr_lane(v, L) & ~keep) | next << (64 - L);
            }
        } else {
            /* words w0..0 move up one lane, each taking the previous
             * one's top lane into its lane 0 */
            for (int w = w0; w >= 0; w--) {
                uint64_t prev = w > 0 ? x[w - 1] : 0;
                uint64_t v = x[w];
                x[w] = w == w0 ? (v & above) | shl_lane(v & below, L)
                               : shl_lane(v, L);
                x[w] |= prev >> (64 - L);
            }
        }
    }
}

SG_HOT ps_value apply_lanes(const struct sg_instance *in, const void *state,
                            ps_move move, void *out, const int L)
{
    const int W = in->words, K = in->colours;
    uint64_t planes[SG_MAX_COLORS * SG_MAX_WORDS];
    uint64_t guarded[SG_MAX_WORDS + 2] = {0}, *g = guarded + 1;
    memcpy(planes, (const unsigned char *)state + in->header,
           in->state_size - in->header);
    const int bit = in->bit_of[move], w0 = bit >> 6;
    const uint64_t seed = (uint64_t)1 << (bit & 63);
    int colour = 0;
    while (colour < K && !(planes[colour * W + w0] & seed))
        colour++;
    if (colour == K) { /* not a move: callers only apply listed or parsed ones */
        memcpy(out, state, in->state_size);
        return sg_gain(&in->rules, 0);
    }
    uint64_t *m = planes + colour * W;
    int lo, hi;
    int n = flood_group(in, m, w0, seed, g, &lo, &hi, L);
    for (int w = lo; w <= hi; w++)
        m[w] &= ~g[w];

    /* Gravity: in each word the group touched, drop each of its vertical
     * runs (lowest first; the mask of holes falls with the cells, so the
     * next run is again the lowest). */
    if (in->rules.gravity)
        for (int w = lo; w <= hi; w++) {
            uint64_t holes = g[w];
            while (holes) {
                int b = lowest_bit(holes), len = lowest_bit(~(holes >> b));
                drop_run(planes + w, K, W, b, len, L);
                drop_run(&holes, 1, 0, b, len, L);
            }
        }

    /* Close up the columns the group emptied, keeping the order of the
     * others. Left: the highest first, so the lower ones stay in place;
     * right: the lowest first. */
    if (in->rules.shift != SG_SHIFT_NONE) {
        int emptied[SG_MAX_COLS], ne = 0;
        for (int w = lo; w <= hi; w++) {
            uint64_t occupied = 0;
            for (int k = 0; k < K; k++)
                occupied |= planes[k * W + w];
            for (int j = 0; j < 64 / L; j++) {
                uint64_t lane = in->first_lane << (j * L);
                if ((g[w] & lane) && !(occupied & lane))
                    emptied[ne++] = w * (64 / L) + j;
            }
        }
        bool left = in->rules.shift == SG_SHIFT_LEFT;
        for (int e = 0; e < ne; e++)
            remove_column(in, planes, K, W, emptied[left ? ne - 1 - e : e],
                          left, L);
    }
    /* the header: cells left, and the colour's count, both n fewer */
    uint16_t head[1 + SG_MAX_COLORS];
    memcpy(head, state, 2 + 2 * (size_t)K);
    head[0] = (uint16_t)(head[0] - n);
    head[1 + colour] = (uint16_t)(head[1 + colour] - n);
    memset(out, 0, in->header);
    memcpy(out, head, 2 + 2 * (size_t)K);
    memcpy((unsigned char *)out + in->header, planes,
           in->state_size - in->header);
    return sg_gain(&in->rules, n);
}

static ps_value sg_apply(const void *p, const void *state, ps_move move,
                         void *out)
{
    const struct sg_instance *in = p;
    SG_BY_LANE(in, apply_lanes(in, state, move, out, L_))
}

static ps_value sg_end_value(const void *p, const void *state)
{
    const struct sg_instance *in = p;
    if (in->rules.objective != SG_OBJ_SCORE)
        return 0;
    int left = cells_left_of(state);
    return in->rules.end_bonus[left] + (left == 0 ? in->rules.clear_bonus : 0);
}

/* An upper bound on the score still to come from `state`: the tabulated
 * bound of each colour by its count, plus the largest end value reachable
 * given the dead cells (colours with fewer than min_group cells left, which
 * can never be removed: so a colour with exactly one cell left forbids the
 * clear bonus -- while a board with a single cell may still be cleared, since
 * a single can join a group of its colour later). */
static ps_value sg_upper_bound(const void *p, const void *state)
{
    const struct sg_instance *in = p;
    int count[SG_MAX_COLORS + 1];
    count_colours(in, state, count);
    int64_t bound = 0;
    int dead = 0;
    for (int k = 1; k <= SG_MAX_COLORS; k++) {
        if (count[k] < in->rules.min_group)
            dead += count[k];
        else
            bound += in->colour_bound[count[k]];
    }
    return bound + in->end_bound[dead];
}

/* ---- text forms ---- */

static void sg_print_state(const void *p, const void *state, FILE *out,
                           bool ansi)
{
    const struct sg_instance *in = p;
    /* Background colours for 1..9: red green blue yellow magenta, ... */
    static const int bg[10] = {0, 41, 42, 44, 43, 45, 46, 101, 105, 47};
    for (int top = 0; top < in->rows; top++) {
        int r = in->rows - 1 - top;
        for (int c = 0; c < in->cols; c++) {
            int v = colour_at(in, state, c * in->rows + r);
            if (ansi && v)
                fprintf(out, "\x1b[%d;30m%d\x1b[0m", bg[v], v);
            else
                fputc(v ? '0' + v : '.', out);
        }
        fputc('\n', out);
    }
}

static void sg_format_move(const void *p, const void *state, ps_move move,
                           char *buf, size_t len)
{
    const struct sg_instance *in = p;
    (void)state;
    int c = (int)move / in->rows, r = (int)move % in->rows;
    snprintf(buf, len, "%d %d", in->rows - 1 - r, c);
}

static bool sg_parse_move(const void *p, const void *state, const char *text,
                          ps_move *move, struct ps_error *err)
{
    const struct sg_instance *in = p;
    int row, col;
    char extra;
    if (sscanf(text, "%d %d %c", &row, &col, &extra) != 2)
        return ps_error_set(err, NULL, 0, 0,
                            "expected 'row col' (two numbers), got '%s'", text);
    if (row < 0 || row >= in->rows || col < 0 || col >= in->cols)
        return ps_error_set(err, NULL, 0, 0,
                            "cell (%d, %d) is outside the %dx%d board", row,
                            col, in->rows, in->cols);
    int i = col * in->rows + (in->rows - 1 - row), first = i;
    int n = group_at(in, state, i, &first);
    if (n == 0)
        return ps_error_set(err, NULL, 0, 0, "cell (%d, %d) is empty", row, col);
    if (n < in->rules.min_group)
        return ps_error_set(err, NULL, 0, 0,
                            "the group at (%d, %d) has %d cell%s; at least %d "
                            "are needed",
                            row, col, n, n == 1 ? "" : "s",
                            (int)in->rules.min_group);
    *move = (ps_move)first;
    return true;
}

static void sg_describe_move(const void *p, const void *state, ps_move move,
                             char *buf, size_t len)
{
    const struct sg_instance *in = p;
    int n = group_at(in, state, (int)move, NULL);
    snprintf(buf, len, "group %d colour %d", n, colour_at(in, state, (int)move));
}

static int sg_facts(const void *p, const void *state, struct ps_fact *out,
                    int max)
{
    (void)p;
    int left = cells_left_of(state);
    if (max < 2)
        return 0;
    out[0] = (struct ps_fact){"cells_left", left};
    out[1] = (struct ps_fact){"cleared", left == 0};
    return 2;
}

/* ---- Monte Carlo knowledge ---- */

/* The colour with the most cells (the lowest such colour on a tie), 0 on an
 * empty board. */
static int most_frequent_colour(const struct sg_instance *in, const void *state)
{
    int count[SG_MAX_COLORS + 1];
    count_colours(in, state, count);
    int top = 0;
    for (int k = 1; k <= SG_MAX_COLORS; k++)
        if (count[k] > (top ? count[top] : 0))
            top = k;
    return top;
}

/* The tabu-colour policy (Cazenave's NMCS playouts for SameGame): never
 * break up the most frequent colour while another move exists, so that it
 * grows into one large group that scores quadratically at the end. Among the
 * allowed moves, uniform. */
static int sg_choose_tabu(const void *p, const void *state,
                          const ps_move *moves, const ps_value *gains, int n,
                          struct ps_rng *rng)
{
    const struct sg_instance *in = p;
    (void)gains;
    int tabu = most_frequent_colour(in, state);
    int allowed = 0;
    for (int i = 0; i < n; i++)
        allowed += !cell_is(in, state, tabu, (int)moves[i]);
    if (allowed == 0)
        return (int)ps_rng_below(rng, (uint32_t)n);
    int k = (int)ps_rng_below(rng, (uint32_t)allowed);
    for (int i = 0; i < n; i++)
        if (!cell_is(in, state, tabu, (int)moves[i]) && k-- == 0)
            return i;
    return n - 1; /* not reached */
}

/* The tabu colour as a prior for NRPA: its moves start e^SG_TABU_BIAS
 * times less likely than the others, which the learned weights can
 * overturn. */
#define SG_TABU_BIAS (-8.0)

static void sg_bias_tabu(const void *p, const void *state, const ps_move *moves,
                         int n, double *out)
{
    const struct sg_instance *in = p;
    int tabu = most_frequent_colour(in, state);
    for (int i = 0; i < n; i++)
        out[i] = cell_is(in, state, tabu, (int)moves[i]) ? SG_TABU_BIAS : 0.0;
}

static const struct ps_policy sg_policies[] = {
    {"tabu", "uniform, but never the most frequent colour while another "
             "move exists", false, sg_choose_tabu, sg_bias_tabu},
    {NULL, NULL, false, NULL, NULL},
};

/* NRPA move codes. A move is already its group's anchor cell: the lowest
 * cell of the group's leftmost column. The anchor pins where the group is;
 * the colour and the anchor's shape bits (does the group go on upwards? to
 * the right?) tell apart different groups that settle on the same anchor
 * in different playouts:
 *   code = ((colour - 1) * ncells + anchor) * 4 + up + 2 * right.
 * The cells below and to the left of the anchor are never in its group, so
 * these two bits are all the local shape there is. They cost two reads,
 * where the group's size would cost a flood fill per move: measured on
 * standard positions 1-6 at 5 s, colour + anchor + shape bits beat both
 * colour + anchor alone and colour + anchor + size class. */
#define SG_SHAPES 4

static void sg_move_codes(const void *p, const void *state,
                          const ps_move *moves, int n, uint32_t *codes)
{
    const struct sg_instance *in = p;
    const int R = in->rows;
    for (int i = 0; i < n; i++) {
        int anchor = (int)moves[i], c = in->col_of[anchor],
            r = in->row_of[anchor];
        int colour = colour_at(in, state, anchor);
        uint32_t up = r + 1 < R && cell_is(in, state, colour, anchor + 1);
        uint32_t right = c + 1 < in->cols &&
                         cell_is(in, state, colour, anchor + R);
        codes[i] = ((uint32_t)(colour - 1) * (uint32_t)in->ncells +
                    (uint32_t)anchor) * SG_SHAPES + up + 2 * right;
    }
}

static uint32_t sg_move_code_space(const void *p)
{
    const struct sg_instance *in = p;
    return (uint32_t)SG_MAX_COLORS * (uint32_t)in->ncells * SG_SHAPES;
}

/* The cells of colours with fewer than min_group cells: they can never go
 * (cells are never added), so they are certain leftovers. */
static ps_value dead_cells(const struct sg_instance *in, const void *state)
{
    int count[SG_MAX_COLORS + 1], dead = 0;
    count_colours(in, state, count);
    for (int k = 1; k <= in->colours; k++)
        if (count[k] < in->rules.min_group)
            dead += count[k];
    return dead;
}

/* For beam search: what the position may still be worth. Three terms:
 *  - every group on the board, as if removed as it stands;
 *  - per colour, what joining its pieces would add to that -- the gain of
 *    all its cells at once minus its groups' gains -- divided by its number
 *    of pieces (its groups, and each of its loose cells): a colour in one
 *    piece is likely taken whole, a colour in ten pieces is not;
 *  - minus, per cell in no group, twice an even share of the largest end
 *    value: such cells are what is left over at the end, and they cost the
 *    end bonus.
 * Tuned with fixed-width beams (deterministic) on generated 10x10 PopStar
 * boards 51..90 and checked on boards 1..50 and the 20 standard positions;
 * docs/samegame.md has the figures. Each term helped under both score
 * tables; "sum over colours of the gain of all its cells" alone (never
 * removing anything looks best) and a fixed tabu colour did not. Under the
 * clearing objectives, dead cells (dead_cells) are taken off twice. */
static ps_value sg_evaluate(const void *p, const void *state)
{
    const struct sg_instance *in = p;
    ps_move moves[SG_MAX_CELLS + 1]; /* max_moves with min_group 1 */
    int sizes[SG_MAX_CELLS + 1], loose[SG_MAX_COLORS + 1] = {0};
    uint8_t colour[SG_MAX_CELLS + 1];
    int n = list_groups(in, state, moves, NULL, sizes, colour, loose);
    if (n == 0)
        return sg_end_value(p, state);
    int grouped[SG_MAX_COLORS + 1] = {0}, groups[SG_MAX_COLORS + 1] = {0};
    int64_t gained[SG_MAX_COLORS + 1] = {0};
    for (int i = 0; i < n; i++) {
        int k = colour[i];
        gained[k] += sg_gain(&in->rules, sizes[i]);
        grouped[k] += sizes[i];
        groups[k]++;
    }
    int64_t value = 0;
    int all_loose = 0;
    for (int k = 1; k <= SG_MAX_COLORS; k++) {
        int cells = grouped[k] + loose[k];
        all_loose += loose[k];
        value += gained[k];
        if (cells >= in->rules.min_group) /* loose cells: a piece each */
            value += (sg_gain(&in->rules, cells) - gained[k]) /
                     (groups[k] + loose[k]);
    }
    int64_t end = in->end_bound[0] > 0 ? in->end_bound[0] : 0;
    /* Clearing (one point per cell): a dead cell costs twice, as the cell
     * not gained and as a certain leftover, so the beam keeps every colour
     * alive while it can. Measured with fixed-width beams (100) on
     * generated clearable 15x15 6-colour boards (scripts/bench_clear.sh):
     * 27 -> 31 of 40 cleared on the boards tuned on, 24 -> 28 of 40 on 40
     * others; 25 -> 26 of 30 random 12x12 4-colour boards. */
    if (in->rules.objective != SG_OBJ_SCORE)
        return value - 2 * (int64_t)dead_cells(in, state);
    return value - 2 * end * all_loose / in->ncells;
}

/* ---- generation ---- */

static bool sg_generate(const struct ps_gen_options *o, FILE *out,
                        struct ps_error *err)
{
    int rows = o->rows ? o->rows : 15, cols = o->cols ? o->cols : 15;
    int colors = o->colors ? o->colors : 5;
    if (rows < 1 || rows > SG_MAX_ROWS || cols < 1 || cols > SG_MAX_COLS)
        return ps_error_set(err, NULL, 0, 0,
                            "board size must be 1..%d rows by 1..%d columns",
                            SG_MAX_ROWS, SG_MAX_COLS);
    if (colors < 1 || colors > SG_MAX_COLORS)
        return ps_error_set(err, NULL, 0, 0, "colours must be 1..%d",
                            SG_MAX_COLORS);
    struct ps_rng rng;
    ps_rng_seed(&rng, o->seed);
    fprintf(out, "# psolve gen --game samegame --rows %d --cols %d --colors %d "
                 "--seed %llu\n",
            rows, cols, colors, (unsigned long long)o->seed);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            fputc('1' + (int)ps_rng_below(&rng, (uint32_t)colors), out);
        fputc('\n', out);
    }
    return true;
}

static const struct ps_gen_options sg_bench_sizes[] = {
    {.rows = 15, .cols = 15, .colors = 5},
    {.rows = 10, .cols = 10, .colors = 5},
    {0},
};

const struct ps_game samegame_game = {
    .name = "samegame",
    .summary = "SameGame / Clickomania / PopStar: remove groups, maximise score",
    .flags = PS_MAXIMISE | PS_HAS_BOUND,
    .rules_size = sizeof(struct sg_rules),
    .rules_default = sg_rules_default,
    .params = sg_params,
    .presets = sg_presets,
    .rules_check = sg_rules_check,
    .load = sg_load,
    .free_instance = sg_free_instance,
    .state_size = sg_state_size,
    .initial_state = sg_initial_state,
    .max_moves = sg_max_moves,
    .max_depth = sg_max_depth,
    .hash = sg_hash,
    .moves = sg_moves,
    .apply = sg_apply,
    .end_value = sg_end_value,
    .upper_bound = sg_upper_bound,
    .print_state = sg_print_state,
    .format_move = sg_format_move,
    .parse_move = sg_parse_move,
    .describe_move = sg_describe_move,
    .facts = sg_facts,
    .policies = sg_policies,
    .move_codes = sg_move_codes,
    .move_code_space = sg_move_code_space,
    .evaluate = sg_evaluate,
    .generate = sg_generate,
    .bench_sizes = sg_bench_sizes,
};
