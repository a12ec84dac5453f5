/*
 * lightsout.c - Lights Out as a psolve plug-in built outside psolve's tree
 * (README.md here, docs/plugins.md).
 *
 * A grid of lights, up to 8x8. Pressing a light toggles it and its four
 * orthogonal neighbours. Turn every light off in the fewest presses: a cost
 * game, every press costs 1.
 *
 * File format: one line per row, '*' = on, '.' = off; '#' starts a comment.
 * A move is "row col", 0-based, row 0 = top.
 *
 * Build against an installed psolve and run it:
 *   cc -shared -fPIC $(pkg-config --cflags psolve) lightsout.c -o lightsout.so
 *   psolve --plugin ./lightsout.so --game lightsout --algo bfs,astar cross.txt
 */
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "hash.h"
#include "textfile.h"

#define LO_MAX 8 /* rows and columns: a state is one 64-bit word */

struct lo_instance {
    int rows, cols;
    uint64_t start; /* bit r*cols+c = the light at (r, c) is on */
};

/* The state is one uint64_t: which lights are on. Equal positions have equal
 * bytes, so the kernel's memcmp default for equal() is right. */
static uint64_t lo_lights(const void *state)
{
    uint64_t v;
    memcpy(&v, state, sizeof v);
    return v;
}

/* ---- instances ---- */

static void *lo_load(const void *rules, const char *path, const char *text,
                     size_t len, struct ps_error *err)
{
    (void)rules; /* Lights Out has no rule variants */
    struct lo_instance in = {0, 0, 0};
    struct ps_line_reader rd;
    struct ps_line ln;
    ps_lines_begin(&rd, text, len);
    while (ps_lines_next(&rd, &ln)) {
        if (in.rows == LO_MAX) {
            ps_error_set(err, path, ln.number, 1, "more than %d rows", LO_MAX);
            return NULL;
        }
        if (ln.len > LO_MAX) {
            ps_error_set(err, path, ln.number, LO_MAX + 1,
                         "more than %d lights in a row", LO_MAX);
            return NULL;
        }
        if (in.rows == 0)
            in.cols = (int)ln.len;
        if (ln.len != (size_t)in.cols) {
            ps_error_set(err, path, ln.number, 1,
                         "%zu lights in this row, %d in the first", ln.len,
                         in.cols);
            return NULL;
        }
        for (int c = 0; c < in.cols; c++) {
            char ch = ln.text[c];
            if (ch != '*' && ch != '.') {
                ps_error_set(err, path, ln.number, c + 1,
                             "expected '*' (on) or '.' (off)");
                return NULL;
            }
            if (ch == '*')
                in.start |= (uint64_t)1 << (in.rows * in.cols + c);
        }
        in.rows++;
    }
    if (in.rows == 0) {
        ps_error_set(err, path, 0, 0, "no rows in the file");
        return NULL;
    }
    struct lo_instance *copy = malloc(sizeof *copy);
    if (!copy) {
        ps_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    *copy = in;
    return copy;
}

static void lo_free_instance(void *inst)
{
    free(inst);
}

static size_t lo_state_size(const void *inst)
{
    (void)inst;
    return sizeof(uint64_t);
}

static void lo_initial_state(const void *inst, void *state)
{
    const struct lo_instance *in = inst;
    memcpy(state, &in->start, sizeof in->start);
}

/* One move per light. */
static int lo_max_moves(const void *inst)
{
    const struct lo_instance *in = inst;
    return in->rows * in->cols;
}

/* Presses commute and two presses of one light cancel, so a shortest
 * solution presses each light at most once. */
static int lo_max_depth(const void *inst)
{
    return lo_max_moves(inst);
}

/* ---- the hot loop ---- */

static uint64_t lo_hash(const void *inst, const void *state)
{
    (void)inst;
    return ps_hash_mix(lo_lights(state));
}

/* Every light may be pressed: move i = the light at (i / cols, i % cols). */
static int lo_moves(const void *inst, const void *state, ps_move *moves,
                    ps_value *gains)
{
    (void)state;
    int n = lo_max_moves(inst);
    for (int i = 0; i < n; i++) {
        moves[i] = (ps_move)i;
        if (gains)
            gains[i] = 1;
    }
    return n;
}

static ps_value lo_apply(const void *inst, const void *state, ps_move move,
                         void *out)
{
    const struct lo_instance *in = inst;
    int r = (int)move / in->cols, c = (int)move % in->cols;
    uint64_t v = lo_lights(state) ^ (uint64_t)1 << move;
    if (r > 0)
        v ^= (uint64_t)1 << (move - (ps_move)in->cols);
    if (r < in->rows - 1)
        v ^= (uint64_t)1 << (move + (ps_move)in->cols);
    if (c > 0)
        v ^= (uint64_t)1 << (move - 1);
    if (c < in->cols - 1)
        v ^= (uint64_t)1 << (move + 1);
    memcpy(out, &v, sizeof v);
    return 1;
}

static bool lo_is_goal(const void *inst, const void *state)
{
    (void)inst;
    return lo_lights(state) == 0;
}

/* A press turns off at most 5 lights: ceil(lit / 5) presses are needed at
 * least, so the heuristic is admissible (PS_HAS_HEURISTIC). */
static ps_value lo_heuristic(const void *inst, const void *state)
{
    (void)inst;
    uint64_t v = lo_lights(state);
    int lit = 0;
    for (; v; v &= v - 1)
        lit++;
    return (lit + 4) / 5;
}

/* Any two presses commute: IDA* and dfs need to try each set of presses in
 * one order only, increasing. */
static bool lo_redundant_after(const void *inst, const void *before,
                               ps_move first, const void *after, ps_move second)
{
    (void)inst, (void)before, (void)after;
    return second < first;
}

/* ---- text forms ---- */

static void lo_print_state(const void *inst, const void *state, FILE *out,
                           bool ansi)
{
    const struct lo_instance *in = inst;
    uint64_t v = lo_lights(state);
    for (int i = 0; i < in->rows * in->cols; i++) {
        bool on = v >> i & 1;
        fputs(on ? (ansi ? "\x1b[33m*\x1b[0m" : "*") : ".", out);
        if (i % in->cols == in->cols - 1)
            fputc('\n', out);
    }
}

static void lo_format_move(const void *inst, const void *state, ps_move move,
                           char *buf, size_t len)
{
    const struct lo_instance *in = inst;
    (void)state;
    snprintf(buf, len, "%d %d", (int)move / in->cols, (int)move % in->cols);
}

static bool lo_parse_move(const void *inst, const void *state, const char *text,
                          ps_move *move, struct ps_error *err)
{
    const struct lo_instance *in = inst;
    (void)state;
    char *end;
    long r = strtol(text, &end, 10);
    const char *rest = end;
    long c = strtol(rest, &end, 10);
    if (rest == text || end == rest || *end || r < 0 || r >= in->rows ||
        c < 0 || c >= in->cols)
        return ps_error_set(err, NULL, 0, 0,
                            "expected 'row col' with row 0..%d and col 0..%d, "
                            "got '%s'",
                            in->rows - 1, in->cols - 1, text);
    *move = (ps_move)(r * in->cols + c);
    return true;
}

/* ---- generation: psolve gen --game lightsout --rows R --cols C --seed S */

/* Random presses on a dark board, so the puzzle is always solvable. */
static bool lo_generate(const struct ps_gen_options *o, FILE *out,
                        struct ps_error *err)
{
    int rows = o->rows ? o->rows : 5, cols = o->cols ? o->cols : rows;
    if (rows < 1 || rows > LO_MAX || cols < 1 || cols > LO_MAX)
        return ps_error_set(err, NULL, 0, 0,
                            "--rows and --cols must be 1..%d", LO_MAX);
    struct lo_instance in = {rows, cols, 0};
    struct ps_rng rng;
    ps_rng_seed(&rng, o->seed);
    for (int i = 0; i < rows * cols; i++) {
        uint64_t next;
        if (ps_rng_below(&rng, 2)) {
            lo_apply(&in, &in.start, (ps_move)i, &next);
            in.start = next;
        }
    }
    fprintf(out, "# Lights Out %dx%d, seed %llu\n", rows, cols,
            (unsigned long long)o->seed);
    lo_print_state(&in, &in.start, out, false);
    return true;
}

/* Static like every other function here: the plug-in's one exported
 * symbol is the one PS_PLUGIN defines. */
static const struct ps_game lightsout_game = {
    .name = "lightsout",
    .summary = "Lights Out: press lights to turn them all off, fewest presses",
    .flags = PS_HAS_HEURISTIC,
    .load = lo_load,
    .free_instance = lo_free_instance,
    .state_size = lo_state_size,
    .initial_state = lo_initial_state,
    .max_moves = lo_max_moves,
    .max_depth = lo_max_depth,
    .hash = lo_hash,
    .moves = lo_moves,
    .apply = lo_apply,
    .is_goal = lo_is_goal,
    .heuristic = lo_heuristic,
    .redundant_after = lo_redundant_after,
    .print_state = lo_print_state,
    .format_move = lo_format_move,
    .parse_move = lo_parse_move,
    .generate = lo_generate,
};

/* The one symbol psolve looks for: the game, and the API it was built for. */
PS_PLUGIN(lightsout_game)
