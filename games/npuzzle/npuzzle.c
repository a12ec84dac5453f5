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

struct np_instance {
    int n;            /* tiles per side */
    int cells;        /* n * n */
    size_t state_size;
    unsigned char start[NP_MAX * NP_MAX + 8];
};

static const struct ps_param np_params[] = {{NULL, 0, 0, 0, 0, NULL, 0, NULL}};
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

static bool np_check(const void *p, char *why, size_t len)
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
    .check = np_check,
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
};
