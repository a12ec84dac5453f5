/*
 * naive_samegame.c - the yardstick for `psolve bench`: a plain,
 * straightforward SameGame playout loop, the way one writes it first.
 * Row-major grid; every move flood-fills every group from scratch (recursive
 * fill, fresh visited array), then picks one uniformly at random, removes it,
 * lets cells fall one row at a time and closes empty columns one at a time.
 * Not part of psolve: scripts/bench_samegame.sh builds it with the same
 * compiler flags and runs it beside `psolve bench` to measure the ratio.
 *
 *   naive_samegame ROWS COLS COLOURS SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 32

static int R, C, K;
static int grid[MAXN][MAXN];
static int visited[MAXN][MAXN];

static int fill(int r, int c, int colour)
{
    if (r < 0 || r >= R || c < 0 || c >= C || visited[r][c] ||
        grid[r][c] != colour)
        return 0;
    visited[r][c] = 1;
    return 1 + fill(r + 1, c, colour) + fill(r - 1, c, colour) +
           fill(r, c + 1, colour) + fill(r, c - 1, colour);
}

static void erase(int r, int c, int colour)
{
    if (r < 0 || r >= R || c < 0 || c >= C || grid[r][c] != colour)
        return;
    grid[r][c] = 0;
    erase(r + 1, c, colour);
    erase(r - 1, c, colour);
    erase(r, c + 1, colour);
    erase(r, c - 1, colour);
}

static void settle(void)
{
    for (int moved = 1; moved;) { /* fall, one row at a time */
        moved = 0;
        for (int r = R - 1; r > 0; r--)
            for (int c = 0; c < C; c++)
                if (!grid[r][c] && grid[r - 1][c]) {
                    grid[r][c] = grid[r - 1][c];
                    grid[r - 1][c] = 0;
                    moved = 1;
                }
    }
    for (int c = 0; c < C; c++) { /* close empty columns, one at a time */
        int empty = 1;
        for (int r = 0; r < R; r++)
            if (grid[r][c])
                empty = 0;
        if (!empty)
            continue;
        int any = 0;
        for (int d = c + 1; d < C; d++)
            for (int r = 0; r < R; r++)
                if (grid[r][d])
                    any = 1;
        if (!any)
            break;
        for (int d = c; d + 1 < C; d++)
            for (int r = 0; r < R; r++)
                grid[r][d] = grid[r][d + 1];
        for (int r = 0; r < R; r++)
            grid[r][C - 1] = 0;
        c--;
    }
}

static int playout(unsigned *seed)
{
    int moves = 0;
    for (;;) {
        int gr[MAXN * MAXN], gc[MAXN * MAXN], n = 0;
        memset(visited, 0, sizeof visited);
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++)
                if (grid[r][c] && !visited[r][c] && fill(r, c, grid[r][c]) >= 2) {
                    gr[n] = r;
                    gc[n] = c;
                    n++;
                }
        if (n == 0)
            return moves;
        int k = (int)(rand_r(seed) % (unsigned)n);
        erase(gr[k], gc[k], grid[gr[k]][gc[k]]);
        settle();
        moves++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return 2;
    R = atoi(argv[1]);
    C = atoi(argv[2]);
    K = atoi(argv[3]);
    double seconds = atof(argv[4]);
    if (R < 1 || R > MAXN || C < 1 || C > MAXN || K < 1 || K > 9)
        return 2;
    unsigned seed = 1;
    long playouts = 0, moves = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double el = 0;
    while (el < seconds) {
        for (int r = 0; r < R; r++) /* a fresh random board */
            for (int c = 0; c < C; c++)
                grid[r][c] = 1 + (int)(rand_r(&seed) % (unsigned)K);
        moves += playout(&seed);
        playouts++;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        el = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    }
    printf("naive %dx%d %d colours: %.0f playouts/s, %.0f moves/s\n", R, C, K,
           (double)playouts / el, (double)moves / el);
    return 0;
}
