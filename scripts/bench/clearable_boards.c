/*
 * clearable_boards.c - SameGame boards that can be cleared (min_group 2,
 * gravity, columns close up to the left), made by playing random moves
 * backwards from the empty board: each step inserts a group that removing
 * would undo exactly -- a vertical run of >= 2 cells pushed into a column,
 * a horizontal run of >= 2 cells pushed into neighbouring columns at one
 * height, or a run standing as new columns -- and only where the inserted
 * cells have no neighbour of their colour, so that they are a whole group.
 * The board fills until no insertion fits (most boards end full; some
 * columns may stay a cell or two short).
 *
 *   cc -O2 -std=c11 clearable_boards.c -o clearable_boards
 *   ./clearable_boards ROWS COLS COLOURS COUNT SEED DIR   (writes DIR/NNN.txt)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 32

struct board {
    int rows, cols, used; /* used: columns 0..used-1 are non-empty */
    int h[MAX];
    uint8_t cell[MAX][MAX]; /* [column][row], row 0 = bottom */
};

static uint64_t rng_state;

static uint32_t below(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static int at(const struct board *b, int c, int r)
{
    if (c < 0 || c >= b->used || r < 0 || r >= b->h[c])
        return 0;
    return b->cell[c][r];
}

/* Is the inserted set (mark) a whole group: no cell of its colour next to
 * it outside it? */
static int whole_group(const struct board *b, uint8_t mark[MAX][MAX],
                       int colour)
{
    static const int dc[4] = {1, -1, 0, 0}, dr[4] = {0, 0, 1, -1};
    for (int c = 0; c < b->used; c++)
        for (int r = 0; r < b->h[c]; r++) {
            if (!mark[c][r])
                continue;
            for (int k = 0; k < 4; k++) {
                int cc = c + dc[k], rr = r + dr[k];
                if (at(b, cc, rr) == colour && !(cc >= 0 && cc < MAX &&
                                                 rr >= 0 && rr < MAX &&
                                                 mark[cc][rr]))
                    return 0;
            }
        }
    return 1;
}

/* Push `len` cells of `colour` into column c at row r (vertical) or one
 * cell into each of columns c..c+len-1 at row r (horizontal); new != 0
 * inserts them as new columns at c first. Keeps the board if the cells are
 * a whole group, else restores it. */
static int try_insert(struct board *b, int vertical, int fresh, int c, int r,
                      int len, int colour)
{
    struct board saved = *b;
    uint8_t mark[MAX][MAX] = {{0}};
    int span = vertical ? 1 : len;
    if (fresh) {
        if (b->used + span > b->cols)
            return 0;
        memmove(&b->cell[c + span], &b->cell[c],
                (size_t)(b->used - c) * sizeof b->cell[0]);
        memmove(&b->h[c + span], &b->h[c], (size_t)(b->used - c) * sizeof b->h[0]);
        for (int k = 0; k < span; k++)
            b->h[c + k] = 0;
        b->used += span;
        r = 0;
    }
    for (int k = 0; k < span; k++) {
        int col = c + k, add = vertical ? len : 1;
        if (r > b->h[col] || b->h[col] + add > b->rows) {
            *b = saved;
            return 0;
        }
        memmove(&b->cell[col][r + add], &b->cell[col][r],
                (size_t)(b->h[col] - r));
        for (int j = 0; j < add; j++) {
            b->cell[col][r + j] = (uint8_t)colour;
            mark[col][r + j] = 1;
        }
        b->h[col] += add;
    }
    if (!whole_group(b, mark, colour)) {
        *b = saved;
        return 0;
    }
    return 1;
}

static void make_board(struct board *b, int rows, int cols, int colours)
{
    memset(b, 0, sizeof *b);
    b->rows = rows;
    b->cols = cols;
    int fails = 0;
    while (fails < 20000) {
        int vertical = (int)below(2), len = 2 + (int)below(vertical ? 3 : 2);
        int fresh = b->used < cols && (b->used == 0 || below(4) == 0);
        int c = (int)below((uint32_t)(fresh ? b->used + 1 : b->used ? b->used : 1));
        if (!fresh && (b->used == 0 || (!vertical && c + len > b->used))) {
            fails++;
            continue;
        }
        int r = fresh ? 0 : (int)below((uint32_t)b->h[c] + 1);
        if (try_insert(b, vertical, fresh, c, r, len, 1 + (int)below((uint32_t)colours)))
            fails = 0;
        else
            fails++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s ROWS COLS COLOURS COUNT SEED DIR\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1]), cols = atoi(argv[2]), colours = atoi(argv[3]);
    int count = atoi(argv[4]);
    rng_state = 0x9E3779B97F4A7C15u ^ (uint64_t)strtoull(argv[5], NULL, 10);
    if (rows < 2 || rows > MAX || cols < 1 || cols > MAX || colours < 1 ||
        colours > 9 || count < 1) {
        fprintf(stderr, "rows 2..%d, cols 1..%d, colours 1..9, count >= 1\n",
                MAX, MAX);
        return 2;
    }
    for (int i = 1; i <= count; i++) {
        struct board b;
        make_board(&b, rows, cols, colours);
        char path[4096];
        snprintf(path, sizeof path, "%s/%03d.txt", argv[6], i);
        FILE *f = fopen(path, "w");
        if (!f) {
            perror(path);
            return 1;
        }
        int cells = 0;
        for (int c = 0; c < b.used; c++)
            cells += b.h[c];
        fprintf(f, "# clearable by construction (clearable_boards %s %s %s, "
                   "board %d, seed %s): %d of %d cells\n",
                argv[1], argv[2], argv[3], i, argv[5], cells, rows * cols);
        for (int top = rows - 1; top >= 0; top--) {
            for (int c = 0; c < cols; c++)
                fputc(at(&b, c, top) ? '0' + at(&b, c, top) : '.', f);
            fputc('\n', f);
        }
        fclose(f);
    }
    return 0;
}
