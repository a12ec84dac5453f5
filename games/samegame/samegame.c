/*
 * samegame.c - SameGame (Clickomania, PopStar): click a group of >= min_group
 * orthogonally connected cells of one colour; it vanishes, cells fall down,
 * empty columns close up. A score game.
 *
 * State layout (canonical, compared with memcmp):
 *   uint16_t cells_left;  uint16_t count[colours];  -- count[k-1]: colour k
 *   uint8_t  height[cols];          -- 1 + highest non-empty row, 0 = empty
 *   uint8_t  cell[cols * rows];     -- column-major, row 0 = BOTTOM, 0 = empty
 * rounded up to 8 bytes with zeros; `colours` is the largest colour on the
 * board. The counts are kept by apply, so the bound and the tabu colour
 * read them instead of scanning the board. Column-major with the bottom first makes
 * gravity a compaction of one contiguous run per column, and the column
 * shift one memmove.
 *
 * A move is the index (c * rows + r) of the group's first cell in that
 * order, so each group has exactly one move code. The text form is
 * "row col", 0-based, row 0 = TOP, of the board before the move.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "hash.h"
#include "number.h"
#include "textfile.h"

#define SG_MAX_ROWS 32
#define SG_MAX_COLS 32
#define SG_MAX_CELLS (SG_MAX_ROWS * SG_MAX_COLS)
#define SG_MAX_COLORS 9

enum { SG_SHIFT_LEFT, SG_SHIFT_RIGHT, SG_SHIFT_NONE };
/* Who plays whole playouts (planes.h): the kernel's loop over the byte
 * engine, or the bit planes built for an instruction set. */
enum { SG_ENGINE_BYTES, SG_ENGINE_PORTABLE, SG_ENGINE_POPCNT, SG_ENGINE_BMI2 };
/* The first three are score objectives (maximise); fewest_clicks makes
 * SameGame a cost game: every click costs 1, the goal is an empty board. */
enum { SG_OBJ_SCORE, SG_OBJ_CLEAR, SG_OBJ_FEWEST_LEFT, SG_OBJ_FEWEST_CLICKS };

struct sg_rules {
    int64_t min_group;
    bool gravity;
    int shift;
    int objective;
    int64_t clear_bonus;
    /* score[k - 1][n]: the gain of a group of n cells of colour k (rows
     * alike unless a script's score(n, colour) made them differ) */
    int64_t score[SG_MAX_COLORS][SG_MAX_CELLS + 1];
    int64_t end_bonus[SG_MAX_CELLS + 1]; /* bonus with r cells left at the end */
};

struct sg_instance {
    struct sg_rules rules;
    int rows, cols, ncells;
    int colours;   /* counts in the header: the largest colour on the board */
    size_t header; /* 2 + 2 * colours bytes before the heights */
    size_t state_size;
    /* Column and row of each cell index: cheaper than a division in the
     * flood fill, the hottest loop of every playout. */
    uint8_t col_of[SG_MAX_CELLS], row_of[SG_MAX_CELLS];
    unsigned char *start; /* the initial state */
    /* For upper_bound(), filled once at load (see sg_prepare_bound):
     * colour_bound[k][c]: the most colour k with c cells left can still gain;
     * end_bound[d]: the largest end value with at least d cells left. */
    int64_t colour_bound[SG_MAX_COLORS + 1][SG_MAX_CELLS + 1]; /* [k][c] */
    int64_t end_bound[SG_MAX_CELLS + 1];
    int engine;             /* SG_ENGINE_*, chosen at load */
    double top_share[SG_MAX_CELLS + 1]; /* join_potential's pieces^0.75 */
    /* Boards of at most 64 cells, as one 64-bit plane (clicks.h): the bits
     * of row 0, of the top row, and of the even columns; 0 on larger
     * boards. */
    uint64_t plane_bottom, plane_top, plane_even_columns;
    /* The layout of a state's key (sg_prepare_key): by column or by cell,
     * its bits per cell, its bytes. */
    bool key_by_column;
    int key_cell_bits;
    size_t key_size;
};

static void sg_prepare_key(struct sg_instance *in);

/* ---- rules ---- */

static const char *const shift_names[] = {"left", "right", "none", NULL};
static const char *const objective_names[] = {
    "score", "clear", "fewest_left", "fewest_clicks", NULL};

static const struct ps_param sg_params[] = {
    {"min_group", PS_PARAM_INT, offsetof(struct sg_rules, min_group), 1,
     SG_MAX_CELLS, NULL, 0, "smallest group that can be removed", 0, NULL},
    {"gravity", PS_PARAM_BOOL, offsetof(struct sg_rules, gravity), 0, 1, NULL,
     0, "cells fall down into emptied cells", 0, NULL},
    {"shift", PS_PARAM_ENUM, offsetof(struct sg_rules, shift), 0, 0,
     shift_names, 0, "where empty columns close up: left, right or none", 0, NULL},
    {"objective", PS_PARAM_ENUM, offsetof(struct sg_rules, objective), 0, 0,
     objective_names, 0,
     "score: the score tables; clear/fewest_left: one point per removed "
     "cell; fewest_clicks: clear the board, each click costs 1 (a cost "
     "game)", 0, NULL},
    {"clear_bonus", PS_PARAM_INT, offsetof(struct sg_rules, clear_bonus),
     -1000000000, 1000000000, NULL, 0, "bonus when the board is cleared", 0, NULL},
    {"score", PS_PARAM_TABLE, offsetof(struct sg_rules, score), -1000000000,
     1000000000, NULL, SG_MAX_CELLS + 1,
     "score[n]: gain of a group of n cells; score(n, colour) by colour too",
     SG_MAX_COLORS, "colour"},
    {"end_bonus", PS_PARAM_TABLE, offsetof(struct sg_rules, end_bonus),
     -1000000000, 1000000000, NULL, SG_MAX_CELLS + 1,
     "end_bonus[r]: bonus when the game ends with r cells left", 0, NULL},
    {NULL, 0, 0, 0, 0, NULL, 0, NULL, 0, NULL},
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
        for (int k = 0; k < SG_MAX_COLORS; k++)
            r->score[k][n] = n >= 2 ? (int64_t)(n - 2) * (n - 2) : 0;
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
        for (int k = 0; k < SG_MAX_COLORS; k++)
            r->score[k][n] = 5 * (int64_t)n * n;
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

/* The gain of removing a group of n cells of colour k (1..SG_MAX_COLORS)
 * under the objective; under fewest_clicks the cost of the click, 1
 * whatever its size. */
static inline int64_t sg_gain(const struct sg_rules *r, int n, int k)
{
    if (r->objective == SG_OBJ_FEWEST_CLICKS)
        return 1;
    return r->objective == SG_OBJ_SCORE ? r->score[k - 1][n] : n;
}

/* ---- state access ---- */

static inline uint16_t *cells_left_of(void *s)
{
    return (uint16_t *)s;
}

static inline uint8_t *heights_of(const struct sg_instance *in, void *s)
{
    return (uint8_t *)s + in->header;
}

static inline uint8_t *cells_of(const struct sg_instance *in, void *s)
{
    return (uint8_t *)s + in->header + in->cols;
}

/* The count of colour k (1..colours) in the header; memcpy, as the header's
 * uint16_t fields need not be aligned for a caller's buffer. */
static inline int colour_count(const void *s, int k)
{
    uint16_t n;
    memcpy(&n, (const unsigned char *)s + 2 * (size_t)k, sizeof n);
    return n;
}

static inline void set_colour_count(void *s, int k, int n)
{
    uint16_t v = (uint16_t)n;
    memcpy((unsigned char *)s + 2 * (size_t)k, &v, sizeof v);
}

#define C_HEIGHTS(in, s) heights_of((in), (void *)(s))
#define C_CELLS(in, s) cells_of((in), (void *)(s))

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
 * sizes a, b >= min_group with a + b <= L, in colour k's table: up to L,
 * merging two groups of the colour never loses, so its groups are worth at
 * most one big group. */
static int superadditive_limit(const struct sg_rules *r, int ncells, int k)
{
    const int m = (int)r->min_group;
    for (int sum = 2 * m; sum <= ncells; sum++)
        for (int a = m; 2 * a <= sum; a++)
            if (sg_gain(r, a, k) + sg_gain(r, sum - a, k) > sg_gain(r, sum, k))
                return sum - 1;
    return ncells;
}

/* Tabulate, for every colour k (its own gains, as score(n, colour) may
 * differ by colour) and every count c it can have, the most its groups can
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
static void prepare_colour_bound(struct sg_instance *in, int k)
{
    const struct sg_rules *r = &in->rules;
    const int N = in->ncells, m = (int)r->min_group;
    const int superadditive_upto = superadditive_limit(r, N, k);
    int64_t num = 0, den = 0; /* the best ratio gain[s]/s so far; den 0: none */
    int64_t best_gain = INT64_MIN;
    int64_t *colour_bound = in->colour_bound[k];
    for (int c = 0; c <= N; c++) {
        colour_bound[c] = 0;
        if (c < m)
            continue;
        int64_t gain = sg_gain(r, c, k);
        if (den == 0 || gain * den > num * c) {
            num = gain;
            den = c;
        }
        if (gain > best_gain)
            best_gain = gain;
        /* ceil(c * num / den), exact in integers; only positive matters */
        int64_t bound = num > 0 ? (c * num + den - 1) / den : 0;
        if (c <= superadditive_upto && best_gain < bound)
            bound = best_gain;
        colour_bound[c] = bound > 0 ? bound : 0;
    }
}

static void sg_prepare_bound(struct sg_instance *in)
{
    const struct sg_rules *r = &in->rules;
    const int N = in->ncells;
    /* Row 0 stays 0: no cell has colour 0. Equal rows (every table but a
     * colour-aware one) are worked out once. */
    memset(in->colour_bound[0], 0, sizeof in->colour_bound[0]);
    for (int k = 1; k <= SG_MAX_COLORS; k++) {
        if (k > 1 && memcmp(r->score[k - 1], r->score[0],
                            sizeof r->score[0]) == 0) {
            memcpy(in->colour_bound[k], in->colour_bound[1],
                   sizeof in->colour_bound[k]);
        } else {
            prepare_colour_bound(in, k);
        }
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

static int planes_engine_choice(const struct sg_instance *in);
static void sg_prepare_evaluate(struct sg_instance *in);

/* A board file read as text: cells row-major, row 0 = top, rows
 * SG_MAX_COLS apart while reading and `cols` apart once complete; the text
 * column of each cell and the line of each row, for messages. */
struct sg_grid {
    uint8_t *cell;
    int *col_of_cell;
    int line_of_row[SG_MAX_ROWS];
    int rows, cols;
    int saw_letter_line, saw_digit_line; /* the first of each notation */
};

/* One line's cells into row `gr->rows` of the grid; its width, or -1 with
 * err. */
static int sg_read_row(struct sg_grid *gr, const struct ps_line *ln,
                       const char *path, struct ps_error *err)
{
    uint8_t *cells = gr->cell + gr->rows * SG_MAX_COLS;
    int *cols_of = gr->col_of_cell + gr->rows * SG_MAX_COLS;
    int w = 0;
    for (size_t i = 0; i < ln->len; i++) {
        char ch = ln->text[i];
        int col = (int)i + 1;
        if (ch == ' ' || ch == '\t')
            continue;
        bool is_letter;
        int colour = colour_of_char(ch, &is_letter);
        if (colour < 0) {
            ps_error_set(err, path, ln->number, col,
                         "unknown cell '%c' (use 1-9, the letters RGBYPOCMW, "
                         "or . or 0 for empty)",
                         ch);
            return -1;
        }
        if (colour > 0 && is_letter && !gr->saw_letter_line)
            gr->saw_letter_line = ln->number;
        if (colour > 0 && !is_letter && !gr->saw_digit_line)
            gr->saw_digit_line = ln->number;
        if (gr->saw_letter_line && gr->saw_digit_line) {
            ps_error_set(err, path, ln->number, col,
                         "board mixes digit colours and letter colours "
                         "(lines %d and %d); use one notation",
                         gr->saw_digit_line, gr->saw_letter_line);
            return -1;
        }
        if (w == SG_MAX_COLS) {
            ps_error_set(err, path, ln->number, col,
                         "board has more than %d columns", SG_MAX_COLS);
            return -1;
        }
        cells[w] = (uint8_t)colour;
        cols_of[w] = col;
        w++;
    }
    return w;
}

/* The board's rows, all equally long, compacted to their width. */
static bool sg_read_grid(struct sg_grid *gr, const char *path,
                         const char *text, size_t len, struct ps_error *err)
{
    struct ps_line_reader rd;
    struct ps_line ln;
    int first_width_line = 0;
    gr->rows = 0;
    gr->cols = -1;
    ps_lines_begin(&rd, text, len);
    while (ps_lines_next(&rd, &ln)) {
        if (gr->rows == SG_MAX_ROWS)
            return ps_error_set(err, path, ln.number, 1,
                                "board has more than %d rows", SG_MAX_ROWS);
        int w = sg_read_row(gr, &ln, path, err);
        if (w < 0)
            return false;
        if (gr->cols < 0) {
            gr->cols = w;
            first_width_line = ln.number;
        } else if (w != gr->cols) {
            return ps_error_set(err, path, ln.number, (int)ln.len,
                                "row has %d cells but line %d has %d (rows "
                                "must be equally long)",
                                w, first_width_line, gr->cols);
        }
        gr->line_of_row[gr->rows++] = ln.number;
    }
    if (gr->rows == 0)
        return ps_error_set(err, path, 0, 0, "no board rows in the file");
    for (int r = 0; r < gr->rows; r++)
        for (int c = 0; c < gr->cols; c++) {
            gr->cell[r * gr->cols + c] = gr->cell[r * SG_MAX_COLS + c];
            gr->col_of_cell[r * gr->cols + c] =
                gr->col_of_cell[r * SG_MAX_COLS + c];
        }
    return true;
}

/* The start state of the board in `grid` (row-major, row 0 = top): its
 * size follows the colours used. */
static bool sg_set_start(struct sg_instance *in, const uint8_t *grid,
                         const char *path, struct ps_error *err)
{
    const int rows = in->rows, cols = in->cols;
    in->colours = 0;
    for (int i = 0; i < in->ncells; i++)
        if (grid[i] > in->colours)
            in->colours = grid[i];
    in->header = 2 + 2 * (size_t)in->colours;
    in->state_size = (in->header + (size_t)cols + (size_t)in->ncells + 7) &
                     ~(size_t)7;
    in->plane_bottom = in->plane_top = in->plane_even_columns = 0;
    for (int c = 0; c < cols && in->ncells <= 64; c++) {
        in->plane_bottom |= 1ull << (c * rows);
        in->plane_top |= 1ull << (c * rows + rows - 1);
        if (c % 2 == 0)
            in->plane_even_columns |= ((1ull << rows) - 1) << (c * rows);
    }
    in->start = calloc(1, in->state_size);
    if (!in->start)
        return ps_error_set(err, path, 0, 0, "out of memory");
    uint8_t *h = heights_of(in, in->start), *cell = cells_of(in, in->start);
    int left = 0, count[SG_MAX_COLORS + 1] = {0};
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++) {
            uint8_t v = grid[(rows - 1 - r) * cols + c];
            cell[c * rows + r] = v;
            if (v) {
                h[c] = (uint8_t)(r + 1);
                count[v]++;
                left++;
            }
        }
    *cells_left_of(in->start) = (uint16_t)left;
    for (int k = 1; k <= in->colours; k++)
        set_colour_count(in->start, k, count[k]);
    return true;
}

static void *sg_load(const void *rules, const char *path, const char *text,
                     size_t len, struct ps_error *err)
{
    struct sg_instance *in = calloc(1, sizeof *in);
    struct sg_grid gr = {.cell = calloc(SG_MAX_CELLS, 1),
                         .col_of_cell = calloc(SG_MAX_CELLS, sizeof(int))};
    if (!in || !gr.cell || !gr.col_of_cell) {
        ps_error_set(err, path, 0, 0, "out of memory");
        goto fail;
    }
    in->rules = *(const struct sg_rules *)rules;
    if (!sg_read_grid(&gr, path, text, len, err))
        goto fail;
    in->rows = gr.rows;
    in->cols = gr.cols;
    in->ncells = gr.rows * gr.cols;
    for (int i = 0; i < in->ncells; i++) {
        in->col_of[i] = (uint8_t)(i / gr.rows);
        in->row_of[i] = (uint8_t)(i % gr.rows);
    }
    if (!check_settled(in, gr.cell, gr.line_of_row, gr.col_of_cell, path,
                       err) ||
        !sg_set_start(in, gr.cell, path, err))
        goto fail;
    sg_prepare_bound(in);
    sg_prepare_evaluate(in);
    sg_prepare_key(in);
    in->engine = planes_engine_choice(in);
    free(gr.cell);
    free(gr.col_of_cell);
    return in;
fail:
    free(gr.cell);
    free(gr.col_of_cell);
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

/* A state's key (dfs's table keeps keys): bytes two states share exactly
 * when they are equal (the header and the heights follow from the cells).
 * Two layouts; sg_prepare_key takes the smaller at load:
 * - by cell (any rules): every cell in the bits a colour or 0 needs, 64 /
 *   bits cells to a word;
 * - by column (gravity: a column's cells rest on each other, so it is its
 *   height and its colours): per column its cells' colours less one, b bits
 *   each, then a 1, then 0s to R * b + 1 bits, the columns one after the
 *   other in a string of bits. The 1 tells the height.
 * A 7x9 board of 4 colours: 17 bytes by column, 24 by cell, 80 the state. */
static int bits_for(int values) /* the bits that hold 0..values-1 (>= 1) */
{
    int bits = 1;
    while ((1 << bits) < values)
        bits++;
    return bits;
}

static void sg_prepare_key(struct sg_instance *in)
{
    int by_cell_bits = bits_for(in->colours + 1),
        per_word = 64 / by_cell_bits;
    size_t by_cell = (size_t)((in->ncells + per_word - 1) / per_word) * 8;
    int column_bits = bits_for(in->colours);
    size_t by_column =
        ((size_t)in->cols * (size_t)(in->rows * column_bits + 1) + 7) / 8;
    in->key_by_column = in->rules.gravity && by_column < by_cell;
    in->key_cell_bits = in->key_by_column ? column_bits : by_cell_bits;
    in->key_size = in->key_by_column ? by_column : by_cell;
}

static size_t sg_key_size(const void *p)
{
    return ((const struct sg_instance *)p)->key_size;
}

/* A string of bits written to *out: put_bits appends the low `n` (<= 32)
 * bits of v, and writes 32 of them at a time (in the machine's byte order:
 * a key only has to be the same for the same state in one process). */
struct bit_writer {
    unsigned char *out;
    uint64_t acc;
    int n; /* bits in acc, < 32 between calls */
};

static inline void put_bits(struct bit_writer *w, uint64_t v, int n)
{
    w->acc |= v << w->n;
    w->n += n;
    if (w->n >= 32) {
        uint32_t low = (uint32_t)w->acc;
        memcpy(w->out, &low, sizeof low);
        w->out += sizeof low;
        w->acc >>= 32;
        w->n -= 32;
    }
}

/* The bits left in the writer, in whole bytes. */
static void flush_bits(struct bit_writer *w)
{
    for (; w->n > 0; w->n -= 8) {
        *w->out++ = (unsigned char)w->acc;
        w->acc >>= 8;
    }
}

static void sg_state_key(const void *p, const void *state, void *key)
{
    const struct sg_instance *in = p;
    const uint8_t *cell = C_CELLS(in, state);
    const int bits = in->key_cell_bits;
    if (in->key_by_column) {
        const uint8_t *height = C_HEIGHTS(in, state);
        struct bit_writer w = {key, 0, 0}; /* writes every byte */
        const int width = in->rows * bits + 1;
        for (int c = 0; c < in->cols; c++) {
            const uint8_t *col = cell + c * in->rows;
            if (width <= 32) { /* the column in one word (7x9: 19 bits) */
                uint64_t code = 1ull << (height[c] * bits);
                for (int r = 0; r < height[c]; r++)
                    code |= (uint64_t)(col[r] - 1u) << (r * bits);
                put_bits(&w, code, width);
                continue;
            }
            for (int r = 0; r < height[c]; r++)
                put_bits(&w, col[r] - 1u, bits);
            put_bits(&w, 1, 1);
            for (int pad = (in->rows - height[c]) * bits; pad > 0; pad -= 8)
                put_bits(&w, 0, pad < 8 ? pad : 8);
        }
        flush_bits(&w);
        return;
    }
    const int per_word = 64 / bits;
    unsigned char *out = key;
    for (int i = 0; i < in->ncells; i += per_word) {
        uint64_t word = 0;
        int n = in->ncells - i < per_word ? in->ncells - i : per_word;
        for (int k = 0; k < n; k++)
            word |= (uint64_t)cell[i + k] << (k * bits);
        memcpy(out, &word, sizeof word);
        out += sizeof word;
    }
}

/*
 * Group finding works on a padded copy of the board: each column gets one
 * empty sentinel cell on top, and an empty column stands left and right of
 * the board. Every neighbour of a board cell then exists, and an empty
 * neighbour (0) never matches a colour, so the flood fill needs no bounds
 * checks. A visited cell is marked by setting bit 7, so it no longer matches
 * its colour either: no separate "seen" array. Stride: rows + 1.
 */
#define SG_PAD_SIZE ((SG_MAX_COLS + 2) * (SG_MAX_ROWS + 1))
#define SG_VISITED 0x80

static void pad_board(const struct sg_instance *in, const void *state,
                      uint8_t *pad)
{
    const int R = in->rows, S = R + 1;
    const uint8_t *cell = C_CELLS(in, state), *height = C_HEIGHTS(in, state);
    memset(pad, 0, (size_t)(in->cols + 2) * (size_t)S);
    (void)height; /* cells above a column's height are 0 in every state */
    for (int c = 0; c < in->cols; c++) {
        uint8_t *dst = pad + (c + 1) * S;
        const uint8_t *src = cell + c * R;
        for (int r = 0; r < R; r++)
            dst[r] = src[r];
    }
}

/* Mark the group of padded cell `start`; write its padded indices to `list`
 * if not NULL; return its size. */
static int flood_padded(uint8_t *pad, int stride, int start, uint16_t *list)
{
    uint16_t stack[SG_MAX_CELLS];
    const uint8_t colour = pad[start];
    int sp = 0, n = 0;
    pad[start] |= SG_VISITED;
    stack[sp++] = (uint16_t)start;
    while (sp) {
        int p = stack[--sp];
        if (list)
            list[n] = (uint16_t)p;
        n++;
#define SG_VISIT(q)                                                            \
    if (pad[q] == colour) {                                                    \
        pad[q] |= SG_VISITED;                                                  \
        stack[sp++] = (uint16_t)(q);                                           \
    }
        SG_VISIT(p + 1)
        SG_VISIT(p - 1)
        SG_VISIT(p + stride)
        SG_VISIT(p - stride)
#undef SG_VISIT
    }
    return n;
}

/* The group of board cell i (c*rows + r): its size, and if `cells` is not
 * NULL its cell indices. */
static int group_at(const struct sg_instance *in, const void *state, int i,
                    uint16_t *cells)
{
    uint8_t pad[SG_PAD_SIZE];
    const int S = in->rows + 1;
    const int c = in->col_of[i], r = in->row_of[i];
    pad_board(in, state, pad);
    int n = flood_padded(pad, S, (c + 1) * S + r, cells);
    for (int k = 0; cells && k < n; k++) {
        int pc = cells[k] / S - 1; /* off the hot path: a division is fine */
        cells[k] = (uint16_t)(pc * in->rows + cells[k] % S);
    }
    return n;
}

/* Every group of at least min_group cells: its move (the anchor cell), and
 * if asked its gain and its size. If `loose` is not NULL, loose[k] counts
 * the cells of colour k in no group. The hot loop of playouts, and of
 * beam's evaluation. */
static int list_groups(const struct sg_instance *in, const void *state,
                       ps_move *moves, ps_value *gains, int *sizes, int *loose)
{
    const uint8_t *height = C_HEIGHTS(in, state);
    const int R = in->rows, S = R + 1, C = in->cols;
    const int min_group = (int)in->rules.min_group;
    uint8_t pad[SG_PAD_SIZE];
    pad_board(in, state, pad);
    int n = 0;
    for (int c = 0; c < C; c++) {
        const int h = height[c];
        for (int r = 0, q = (c + 1) * S; r < h; r++, q++) {
            const uint8_t colour = pad[q];
            if (colour == 0 || (colour & SG_VISITED))
                continue;
            /* Most cells are singles: skip the fill when no neighbour above
             * or to the right shares the colour (a matching neighbour below
             * or to the left would have marked this cell already). */
            int size = min_group > 1 && pad[q + 1] != colour &&
                               pad[q + S] != colour
                           ? 1
                           : flood_padded(pad, S, q, NULL);
            if (size < min_group) {
                if (loose)
                    loose[colour] += size;
            } else {
                moves[n] = (ps_move)(c * R + r);
                if (gains)
                    gains[n] = sg_gain(&in->rules, size, colour);
                if (sizes)
                    sizes[n] = size;
                n++;
            }
        }
    }
    return n;
}

/* Erase the group of cell `start` in a state being built, returning its
 * size and the range of columns it touched. Erasing as it goes doubles as
 * the visited mark (an erased cell no longer matches the colour), and it
 * works on the state itself: a search makes many children, and padding the
 * board for each (as sg_moves does once per node) would cost more than the
 * bounds checks. */
static int erase_group(const struct sg_instance *in, uint8_t *cell,
                       const uint8_t *height, int start, int *cmin, int *cmax)
{
    const int R = in->rows, C = in->cols;
    const uint8_t colour = cell[start];
    uint16_t stack[SG_MAX_CELLS];
    int sp = 0, n = 0;
    cell[start] = 0;
    stack[sp++] = (uint16_t)start;
    *cmin = C;
    *cmax = -1;
    while (sp) {
        int i = stack[--sp], c = in->col_of[i], r = in->row_of[i];
        n++;
        if (c < *cmin)
            *cmin = c;
        if (c > *cmax)
            *cmax = c;
#define SG_ERASE(cond, q)                                                      \
    if ((cond) && cell[q] == colour) {                                         \
        cell[q] = 0;                                                           \
        stack[sp++] = (uint16_t)(q);                                           \
    }
        SG_ERASE(r + 1 < height[c], i + 1)
        SG_ERASE(r > 0, i - 1)
        SG_ERASE(c + 1 < C && r < height[c + 1], i + R)
        SG_ERASE(c > 0 && r < height[c - 1], i - R)
#undef SG_ERASE
    }
    return n;
}

static ps_value sg_apply(const void *p, const void *state, ps_move move,
                         void *out)
{
    const struct sg_instance *in = p;
    const int R = in->rows, C = in->cols;
    memcpy(out, state, in->state_size);
    uint8_t *cell = cells_of(in, out), *height = heights_of(in, out);
    int cmin, cmax, colour = cell[move];
    int n = erase_group(in, cell, height, (int)move, &cmin, &cmax);
    *cells_left_of(out) = (uint16_t)(*cells_left_of(out) - n);
    if (colour)
        set_colour_count(out, colour, colour_count(out, colour) - n);

    /* Gravity (or, without it, only the new height) in touched columns. */
    for (int c = cmin; c <= cmax; c++) {
        uint8_t *col = cell + c * R;
        int h = height[c], w = 0;
        if (in->rules.gravity) {
            for (int r = 0; r < h; r++)
                if (col[r])
                    col[w++] = col[r];
            memset(col + w, 0, (size_t)(h - w));
        } else {
            for (int r = 0; r < h; r++)
                if (col[r])
                    w = r + 1;
        }
        height[c] = (uint8_t)w;
    }

    /* Close up empty columns, keeping the order of the others. */
    if (in->rules.shift == SG_SHIFT_LEFT) {
        int dst = cmin;
        for (int c = cmin; c < C; c++) {
            if (!height[c])
                continue;
            if (dst != c) {
                memcpy(cell + dst * R, cell + c * R, (size_t)R);
                height[dst] = height[c];
            }
            dst++;
        }
        if (dst < C) {
            memset(cell + dst * R, 0, (size_t)(C - dst) * (size_t)R);
            memset(height + dst, 0, (size_t)(C - dst));
        }
    } else if (in->rules.shift == SG_SHIFT_RIGHT) {
        int dst = cmax;
        for (int c = cmax; c >= 0; c--) {
            if (!height[c])
                continue;
            if (dst != c) {
                memcpy(cell + dst * R, cell + c * R, (size_t)R);
                height[dst] = height[c];
            }
            dst--;
        }
        if (dst >= 0) {
            memset(cell, 0, (size_t)(dst + 1) * (size_t)R);
            memset(height, 0, (size_t)(dst + 1));
        }
    }
    return sg_gain(&in->rules, n, colour);
}

/* The end value with `left` cells left. */
static ps_value end_value_with(const struct sg_instance *in, int left)
{
    if (in->rules.objective != SG_OBJ_SCORE)
        return 0;
    return in->rules.end_bonus[left] + (left == 0 ? in->rules.clear_bonus : 0);
}

static ps_value sg_end_value(const void *p, const void *state)
{
    return end_value_with(p, *cells_left_of((void *)state));
}

/* count[k] = the cells of colour k on the board, from the header
 * (count[0] = 0, and 0 for colours above the board's largest). */
static void count_colours(const struct sg_instance *in, const void *state,
                          int count[SG_MAX_COLORS + 1])
{
    memset(count, 0, (SG_MAX_COLORS + 1) * sizeof *count);
    for (int k = 1; k <= in->colours; k++)
        count[k] = colour_count(state, k);
}

/* An upper bound on the score still to come from `state`: the tabulated
 * bound of each colour by its count, plus the largest end value reachable
 * given the dead cells (colours with fewer than min_group cells left, which
 * can never be removed: so a colour with exactly one cell left forbids the
 * clear bonus -- while a board with a single cell may still be cleared, since
 * a single can join a group of its colour later). */
static ps_value bound_of_counts(const struct sg_instance *in,
                                const int count[SG_MAX_COLORS + 1])
{
    int64_t bound = 0;
    int dead = 0;
    for (int k = 1; k <= in->colours; k++) { /* colours above: 0 cells */
        if (count[k] < in->rules.min_group)
            dead += count[k];
        else
            bound += in->colour_bound[k][count[k]];
    }
    return bound + in->end_bound[dead];
}

static ps_value sg_upper_bound(const void *p, const void *state)
{
    const struct sg_instance *in = p;
    int count[SG_MAX_COLORS + 1];
    count_colours(in, state, count);
    return bound_of_counts(in, count);
}

/* sg_moves, and each child's sg_upper_bound from the counts alone: the
 * bound reads nothing but the colour counts, and a move takes its group's
 * size off its colour's count (sg_apply), so no child need be made. */
static int sg_bounded_moves(const void *p, const void *state, ps_move *moves,
                            ps_value *gains, ps_value *child_bounds)
{
    const struct sg_instance *in = p;
    int sizes[SG_MAX_CELLS + 1], count[SG_MAX_COLORS + 1];
    int n = list_groups(in, state, moves, gains, sizes, NULL);
    const uint8_t *cell = C_CELLS(in, state);
    count_colours(in, state, count);
    for (int i = 0; i < n; i++) {
        int k = cell[moves[i]];
        count[k] -= sizes[i];
        child_bounds[i] = bound_of_counts(in, count);
        count[k] += sizes[i];
    }
    return n;
}

/* The same bound without the dead cells: every colour as if it could still
 * be removed, the best end value of any ending. Looser, for the lab that
 * shows what a tighter bound saves dfs. */
static ps_value sg_bound_colours(const void *p, const void *state)
{
    const struct sg_instance *in = p;
    int count[SG_MAX_COLORS + 1];
    count_colours(in, state, count);
    int64_t bound = 0;
    for (int k = 1; k <= SG_MAX_COLORS; k++)
        bound += in->colour_bound[k][count[k]];
    return bound + in->end_bound[0];
}


/* ---- text forms ---- */

static void sg_print_state(const void *p, const void *state, FILE *out,
                           bool ansi)
{
    const struct sg_instance *in = p;
    const uint8_t *cell = C_CELLS(in, state);
    /* Background colours for 1..9: red green blue yellow magenta, ... */
    static const int bg[10] = {0, 41, 42, 44, 43, 45, 46, 101, 105, 47};
    for (int top = 0; top < in->rows; top++) {
        int r = in->rows - 1 - top;
        for (int c = 0; c < in->cols; c++) {
            uint8_t v = cell[c * in->rows + r];
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
    long long rc[2];
    if (!ps_number_fields(text, 2, INT_MIN, INT_MAX, rc,
                          "'row col' (two numbers)", err))
        return false;
    int row = (int)rc[0], col = (int)rc[1];
    if (row < 0 || row >= in->rows || col < 0 || col >= in->cols)
        return ps_error_set(err, NULL, 0, 0,
                            "cell (%d, %d) is outside the %dx%d board", row,
                            col, in->rows, in->cols);
    const uint8_t *cell = C_CELLS(in, state);
    int i = col * in->rows + (in->rows - 1 - row);
    if (!cell[i])
        return ps_error_set(err, NULL, 0, 0, "cell (%d, %d) is empty", row, col);
    uint16_t list[SG_MAX_CELLS];
    int n = group_at(in, state, i, list);
    if (n < in->rules.min_group)
        return ps_error_set(err, NULL, 0, 0,
                            "the group at (%d, %d) has %d cell%s; at least %d "
                            "are needed",
                            row, col, n, n == 1 ? "" : "s",
                            (int)in->rules.min_group);
    int first = list[0];
    for (int k = 1; k < n; k++)
        if (list[k] < first)
            first = list[k];
    *move = (ps_move)first;
    return true;
}

static void sg_describe_move(const void *p, const void *state, ps_move move,
                             char *buf, size_t len)
{
    const struct sg_instance *in = p;
    const uint8_t *cell = C_CELLS(in, state);
    int n = group_at(in, state, (int)move, NULL);
    snprintf(buf, len, "group %d colour %d", n, cell[move]);
}

/* For the HTML report: the colours row-major from the top, and the group
 * a move removes. */
static void sg_state_json(const void *p, const void *state, const ps_move *next,
                          FILE *out)
{
    const struct sg_instance *in = p;
    const uint8_t *cell = C_CELLS(in, state);
    fprintf(out, "{\"kind\":\"grid\",\"rows\":%d,\"cols\":%d,"
                 "\"style\":\"colours\",\"cells\":[",
            in->rows, in->cols);
    for (int top = 0; top < in->rows; top++)
        for (int c = 0; c < in->cols; c++)
            fprintf(out, "%s%d", top || c ? "," : "",
                    cell[c * in->rows + in->rows - 1 - top]);
    fputc(']', out);
    if (next) {
        uint16_t list[SG_MAX_CELLS];
        int n = group_at(in, state, (int)*next, list);
        fputs(",\"highlight\":[", out);
        for (int k = 0; k < n; k++)
            fprintf(out, "%s%d", k ? "," : "",
                    (in->rows - 1 - in->row_of[list[k]]) * in->cols +
                        in->col_of[list[k]]);
        fputc(']', out);
    }
    fputc('}', out);
}

static int sg_facts(const void *p, const void *state, struct ps_fact *out,
                    int max)
{
    (void)p;
    int left = *cells_left_of((void *)state);
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
    const uint8_t *cell = C_CELLS(in, state);
    int tabu = most_frequent_colour(in, state);
    int allowed = 0;
    for (int i = 0; i < n; i++)
        allowed += cell[moves[i]] != tabu;
    if (allowed == 0)
        return (int)ps_rng_below(rng, (uint32_t)n);
    int k = (int)ps_rng_below(rng, (uint32_t)allowed);
    for (int i = 0; i < n; i++)
        if (cell[moves[i]] != tabu && k-- == 0)
            return i;
    return n - 1; /* not reached */
}

/* The tabu colour as a soft prior for NRPA (policy tabu): its moves
 * start e^SG_TABU_BIAS times less likely than the others, which the
 * learned weights can overturn. */
#define SG_TABU_BIAS (-8.0)

static void sg_bias_tabu(const void *p, const void *state, const ps_move *moves,
                         int n, double *out)
{
    const struct sg_instance *in = p;
    const uint8_t *cell = C_CELLS(in, state);
    int tabu = most_frequent_colour(in, state);
    for (int i = 0; i < n; i++)
        out[i] = cell[moves[i]] == tabu ? SG_TABU_BIAS : 0.0;
}

/* The tabu colour as a hard rule for NRPA too (policy tabu-strict, as the
 * authors' SameGame NRPA does): its moves get no weight at all while another move exists, as in
 * sg_choose_tabu; when only tabu moves are left, every move is allowed. A
 * finite weight far below any learned one, so the softmax stays NaN-free:
 * exp() of it is 0. */
#define SG_TABU_FORBID (-1e300)

static void sg_bias_tabu_strict(const void *p, const void *state,
                                const ps_move *moves, int n, double *out)
{
    const struct sg_instance *in = p;
    /* Clearing may need the tabu colour early, and a forbidden move can
     * never be learned: there the prior stays soft (nrpa could not clear
     * an 8x8 Clickomania board in 30 s with the hard rule). */
    if (in->rules.objective != SG_OBJ_SCORE) {
        sg_bias_tabu(p, state, moves, n, out);
        return;
    }
    const uint8_t *cell = C_CELLS(in, state);
    int tabu = most_frequent_colour(in, state);
    bool other = false;
    for (int i = 0; i < n && !other; i++)
        other = cell[moves[i]] != tabu;
    for (int i = 0; i < n; i++)
        out[i] = other && cell[moves[i]] == tabu ? SG_TABU_FORBID : 0.0;
}

static void sg_move_codes(const void *p, const void *state,
                          const ps_move *moves, int n, uint32_t *codes);
static uint32_t sg_move_code_space(const void *p);
static void sg_cell_codes(const void *p, const void *state,
                          const ps_move *moves, int n, uint32_t *codes);
static uint32_t sg_cell_code_space(const void *p);

/* The first is the default. The hard rule (tabu-strict) was 1.4% ahead
 * on the research rules at equal playout counts, inside the noise, and 8%
 * behind on PopStar; cell codes did not beat anchor codes
 * (docs/samegame.md). */
static const struct ps_policy sg_policies[] = {
    {"tabu", "uniform, but never the most frequent colour while another "
             "move exists (nrpa: a prior of -8 against it)",
     false, sg_choose_tabu, sg_bias_tabu, NULL, NULL},
    {"tabu-strict", "the same playouts; nrpa: the tabu colour forbidden "
                    "while another move exists (score objectives)",
     false, sg_choose_tabu, sg_bias_tabu_strict, NULL, NULL},
    {"tabu-cells", "tabu, and nrpa names a move by its exact cells",
     false, sg_choose_tabu, sg_bias_tabu, sg_cell_codes, sg_cell_code_space},
    {NULL, NULL, false, NULL, NULL, NULL, NULL},
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
    const uint8_t *cell = C_CELLS(in, state), *height = C_HEIGHTS(in, state);
    const int R = in->rows;
    for (int i = 0; i < n; i++) {
        int anchor = (int)moves[i], c = anchor / R, r = anchor - c * R;
        uint8_t colour = cell[anchor];
        uint32_t up = r + 1 < height[c] && cell[anchor + 1] == colour;
        uint32_t right = c + 1 < in->cols && r < height[c + 1] &&
                         cell[anchor + R] == colour;
        codes[i] = ((uint32_t)(colour - 1) * (uint32_t)in->ncells +
                    (uint32_t)anchor) * SG_SHAPES + up + 2 * right;
    }
}

static uint32_t sg_move_code_space(const void *p)
{
    const struct sg_instance *in = p;
    return (uint32_t)SG_MAX_COLORS * (uint32_t)in->ncells * SG_SHAPES;
}

/* NRPA move codes by the exact set of cells (as the authors' SameGame NRPA
 * names a move): the anchor, and a hash of the colour and of the group's
 * cells into SG_CELL_HASHES slots, so that two different groups on the
 * same anchor almost never share a weight. Costs a flood fill per move. */
#define SG_CELL_HASHES 64

static void sg_cell_codes(const void *p, const void *state,
                          const ps_move *moves, int n, uint32_t *codes)
{
    const struct sg_instance *in = p;
    const uint8_t *cell = C_CELLS(in, state);
    uint16_t group[SG_MAX_CELLS];
    for (int i = 0; i < n; i++) {
        int size = group_at(in, state, (int)moves[i], group);
        uint64_t h = ps_hash_mix(cell[moves[i]]);
        for (int k = 0; k < size; k++) /* a sum: the order does not matter */
            h += ps_hash_mix((uint64_t)group[k] + 1);
        codes[i] = (uint32_t)moves[i] * SG_CELL_HASHES +
                   (uint32_t)(ps_hash_mix(h) % SG_CELL_HASHES);
    }
}

static uint32_t sg_cell_code_space(const void *p)
{
    const struct sg_instance *in = p;
    return (uint32_t)in->ncells * SG_CELL_HASHES;
}

/* The colour with the most cells, from sg_evaluate's per-colour counts
 * (the lowest such colour on a tie, as most_frequent_colour). */
static int most_frequent_of(const int *grouped, const int *loose, int colours)
{
    int top = 0, most = 0;
    for (int k = 1; k <= colours; k++)
        if (grouped[k] + loose[k] > most) {
            top = k;
            most = grouped[k] + loose[k];
        }
    return top;
}

/* Term 2 for one colour: what joining its `pieces` would add, shared out
 * over the pieces. The most frequent colour's share is larger, pieces^0.75
 * instead of pieces: it is the colour a good line keeps whole for the end
 * (the tabu colour of the playouts), so its pieces are more likely to be
 * joined than another colour's. */
#define SG_TOP_COLOUR_SHARE 0.75

static int64_t join_potential(const struct sg_instance *in, int64_t gain,
                              int pieces, bool top)
{
    if (!top)
        return gain / pieces;
    return (int64_t)((double)gain / in->top_share[pieces]);
}

/* pow() once per piece count at load, not once per evaluation. */
static void sg_prepare_evaluate(struct sg_instance *in)
{
    for (int p = 0; p <= in->ncells; p++)
        in->top_share[p] = pow((double)p, SG_TOP_COLOUR_SHARE);
}

/* For beam search: what the position may still be worth. Three terms:
 *  - every group on the board, as if removed as it stands;
 *  - per colour, what joining its pieces would add to that -- the gain of
 *    all its cells at once minus its groups' gains -- divided by its number
 *    of pieces (its groups, and each of its loose cells), or by pieces^0.75
 *    for the most frequent colour (join_potential): a colour in one piece
 *    is likely taken whole, a colour in ten pieces is not;
 *  - minus, per cell in no group, twice an even share of the largest end
 *    value: such cells are what is left over at the end, and they cost the
 *    end bonus.
 * Tuned with fixed-width beams (deterministic) on generated 10x10 PopStar
 * boards 51..90 and checked on boards 1..50 and the 20 standard positions;
 * docs/samegame.md has the figures. Each term helped under both score
 * tables; "sum over colours of the gain of all its cells" alone (never
 * removing anything looks best) and a fixed tabu colour did not. Under the
 * clearing objectives, dead cells (colours with fewer than min_group
 * cells: they can never go) are taken off twice. */
/* What sg_evaluate reads of a position, per colour: the gains of its
 * groups, the cells in them, their number, and all its cells. */
struct sg_tally {
    int64_t gained[SG_MAX_COLORS + 1];
    int grouped[SG_MAX_COLORS + 1], groups[SG_MAX_COLORS + 1];
    int count[SG_MAX_COLORS + 1];
    int left; /* cells on the board */
};

/* Fewest clicks (a cost game): how many fewer clicks are left, ranked by
 * cost beams (cost_beam.h): minus the groups, each a click if no click
 * joined any two; a stuck board (cells, no group) is the worst. One rule
 * for the tally and for the bit planes (clicks.h, clicks_evaluation). */
static ps_value fewest_clicks_value(int groups, bool cells_left)
{
    return groups || !cells_left ? -(ps_value)groups
                                 : -(ps_value)SG_MAX_CELLS - 1;
}

static ps_value tally_value(const struct sg_instance *in,
                            const struct sg_tally *t)
{
    /* the colours above in->colours have no cells: they add nothing */
    int all_groups = 0, loose[SG_MAX_COLORS + 1], dead = 0;
    for (int k = 1; k <= in->colours; k++) {
        all_groups += t->groups[k];
        loose[k] = t->count[k] - t->grouped[k];
        if (t->count[k] < in->rules.min_group)
            dead += t->count[k];
    }
    if (in->rules.objective == SG_OBJ_FEWEST_CLICKS)
        return fewest_clicks_value(all_groups, t->left > 0);
    if (all_groups == 0)
        return end_value_with(in, t->left);
    int top = most_frequent_of(t->grouped, loose, in->colours);
    int64_t value = 0;
    int all_loose = 0;
    for (int k = 1; k <= in->colours; k++) {
        int cells = t->count[k];
        all_loose += loose[k];
        value += t->gained[k];
        if (cells >= in->rules.min_group) /* loose cells: a piece each */
            value += join_potential(in,
                                    sg_gain(&in->rules, cells, k) -
                                        t->gained[k],
                                    t->groups[k] + loose[k], k == top);
    }
    int64_t end = in->end_bound[0] > 0 ? in->end_bound[0] : 0;
    /* Clearing (one point per cell): a dead cell costs twice, as the cell
     * not gained and as a certain leftover, so the beam keeps every colour
     * alive while it can. Measured with fixed-width beams (100) on
     * generated clearable 15x15 6-colour boards (scripts/bench_clear.sh):
     * 27 -> 31 of 40 cleared on the boards tuned on, 24 -> 28 of 40 on 40
     * others; 25 -> 26 of 30 random 12x12 4-colour boards. */
    if (in->rules.objective != SG_OBJ_SCORE)
        return value - 2 * (int64_t)dead;
    return value - 2 * end * all_loose / in->ncells;
}

#include "weighted.h"

/* sg_evaluate (w NULL) or the weighted evaluation (weighted.h). */
static ps_value sg_evaluate_with(const struct sg_instance *in, const double *w,
                                 const void *state)
{
    ps_move moves[SG_MAX_CELLS + 1]; /* max_moves with min_group 1 */
    int sizes[SG_MAX_CELLS + 1];
    int n = list_groups(in, state, moves, NULL, sizes, NULL);
    const uint8_t *cell = C_CELLS(in, state);
    struct sg_tally t;
    memset(&t, 0, sizeof t);
    count_colours(in, state, t.count);
    t.left = *cells_left_of((void *)state);
    for (int i = 0; i < n; i++) {
        int k = cell[moves[i]];
        t.gained[k] += sg_gain(&in->rules, sizes[i], k);
        t.grouped[k] += sizes[i];
        t.groups[k]++;
    }
    return w ? tally_value_weighted(in, w, &t) : tally_value(in, &t);
}

/* ---- generation ---- */

/* gen's parameters: value[SG_GEN_ROWS] and so on (game.h). */
enum { SG_GEN_ROWS, SG_GEN_COLS, SG_GEN_COLORS };
static const struct ps_option sg_gen_options[] = {
    {.name = "rows", .type = PS_OPT_INT, .offset = PS_GEN_VALUE(SG_GEN_ROWS),
     .min = 1, .max = SG_MAX_ROWS, .arg = "R", .def = "15", .doc = "rows"},
    {.name = "cols", .type = PS_OPT_INT, .offset = PS_GEN_VALUE(SG_GEN_COLS),
     .min = 1, .max = SG_MAX_COLS, .arg = "C", .def = "15",
     .doc = "columns"},
    {.name = "colors", .type = PS_OPT_INT,
     .offset = PS_GEN_VALUE(SG_GEN_COLORS), .min = 1, .max = SG_MAX_COLORS,
     .arg = "K", .def = "5", .alias = "colours",
     .doc = "colours (also --colours)"},
    {0},
};

static bool sg_generate(const struct ps_gen_options *o, FILE *out,
                        struct ps_error *err)
{
    int rows = o->value[SG_GEN_ROWS] ? o->value[SG_GEN_ROWS] : 15;
    int cols = o->value[SG_GEN_COLS] ? o->value[SG_GEN_COLS] : 15;
    int colors = o->value[SG_GEN_COLORS] ? o->value[SG_GEN_COLORS] : 5;
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
    {.value = {[SG_GEN_ROWS] = 15, [SG_GEN_COLS] = 15, [SG_GEN_COLORS] = 5}},
    {.value = {[SG_GEN_ROWS] = 10, [SG_GEN_COLS] = 10, [SG_GEN_COLORS] = 5}},
    {.seed = 0},
};

/* The bits set in x, in word operations (no popcount instruction assumed):
 * clicks.h's bit planes and planes.h's portable playout build share it. */
static inline int popcount_portable(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

#include "clicks.h"
#include "planes.h"

static int sg_moves(const void *p, const void *state, ps_move *moves,
                    ps_value *gains)
{
    const struct sg_instance *in = p;
    /* a board of up to 64 cells (Former's 63): its groups in bit planes,
     * dfs's and the beams' listing of every node */
    if (small_planes_fit(in))
        return small_planes_moves(in, state, moves, gains);
    return list_groups(in, state, moves, gains, NULL, NULL);
}

static ps_value sg_evaluate(const void *p, const void *state)
{
    const struct sg_instance *in = p;
    /* fewest clicks on a board of up to 64 cells (Former's 63): the
     * groups counted in bit planes, the beams' hot loop */
    if (in->rules.objective == SG_OBJ_FEWEST_CLICKS && small_planes_fit(in))
        return clicks_evaluation(in, state);
    return sg_evaluate_with(in, NULL, state);
}

const struct ps_game samegame_game = {
    .name = "samegame",
    .summary = "SameGame / Clickomania / PopStar / Former: remove groups, "
               "maximise score (or clear in the fewest clicks)",
    /* Every flag comes from the rules (clicks.h): a score game, or a cost
     * game under fewest_clicks. */
    .flags = 0,
    .instance_flags = sg_instance_flags,
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
    .key_size = sg_key_size,
    .state_key = sg_state_key,
    .moves = sg_moves,
    .apply = sg_apply,
    .end_value = sg_end_value,
    .is_goal = sg_is_goal,
    .solvable = sg_solvable,
    .heuristic = sg_h_empty_chain,
    .upper_bound = sg_bound_dead_cells,
    .bounded_moves = sg_bounded_moves,
    .child_floors = sg_child_floors,
    .print_state = sg_print_state,
    .format_move = sg_format_move,
    .move_help = "'row col', 0-based, row 0 = top, of the board before the "
                 "move",
    .parse_move = sg_parse_move,
    .describe_move = sg_describe_move,
    .facts = sg_facts,
    .policies = sg_policies,
    .move_codes = sg_move_codes,
    .move_code_space = sg_move_code_space,
    .evaluate = sg_evaluate,
    .generate = sg_generate,
    .bench_sizes = sg_bench_sizes,
    .gen_options = sg_gen_options,
    .heuristics = sg_estimates,
    .state_json = sg_state_json,
    .playout = sg_playout,
    .walk_size = sg_walk_size,
    .walk_start = sg_walk_start,
    .walk_moves = sg_walk_moves,
    .walk_play = sg_walk_play,
    .walk_end = sg_walk_end,
    .evaluate_moves = sg_evaluate_moves,
    .eval_weights = sg_eval_weights,
    .evaluate_moves_weighted = sg_evaluate_moves_weighted,
};
