/*
 * jugs.c - a template game: two jugs of A and B litres, a tap and a drain;
 * measure T litres in either jug in the fewest steps (a cost game). Copy
 * it to games/NAME/NAME.c, rename jugs_game to NAME_game and add GAME(NAME)
 * to games/games.def: CMake builds it, psolve list shows it, and the
 * conformance check (psolve check-game, tests/test_conformance.c) runs on
 * its puzzles in games/NAME/ (docs/writing-a-game.md).
 *
 * The file: "jugs A B T" (1 <= A, B <= 100), then optionally "start a b",
 * the litres in each jug (default 0 0): so a printed state loads back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "hash.h"
#include "number.h"
#include "textfile.h"

struct jugs {
    int cap[2], target;
    unsigned char start[8]; /* a state */
};

/* A state: the litres in jug A and B, then 6 zero bytes (every byte is
 * written: states are compared and hashed as bytes). */
enum { STATE_SIZE = 8 };

/* Moves: fill A, fill B, empty A, empty B, pour A into B, pour B into A. */
static const char *const move_names[] = {"fill A",  "fill B",   "empty A",
                                         "empty B", "pour A B", "pour B A"};
enum { NMOVES = 6 };

/* "KEY n n ..." on one line: n numbers after the keyword, 0..100. */
static bool read_line(const struct ps_line *l, const char *key, int n,
                      long long *out, const char *path, struct ps_error *err)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%.*s", (int)l->len, l->text);
    size_t k = strlen(key);
    if (strncmp(buf, key, k) != 0 || buf[k] != ' ')
        return ps_error_set(err, path, l->number, 1, "expected '%s ...'", key);
    if (!ps_number_fields(buf + k + 1, n, 0, 100, out, "numbers 0..100", err))
        return ps_error_set(err, path, l->number, err->col + (int)k + 1, "%s",
                            err->msg);
    return true;
}

static void *jugs_load(const void *rules, const char *path, const char *text,
                       size_t len, struct ps_error *err)
{
    (void)rules;
    struct ps_line_reader r;
    struct ps_line l;
    long long v[3] = {0}, s[2] = {0};
    ps_lines_begin(&r, text, len);
    if (!ps_lines_next(&r, &l))
        return ps_error_set(err, path, 1, 1, "expected 'jugs A B T'"), NULL;
    if (!read_line(&l, "jugs", 3, v, path, err))
        return NULL;
    if (v[0] < 1 || v[1] < 1)
        return ps_error_set(err, path, l.number, 1, "a jug holds 1 or more"),
               NULL;
    if (ps_lines_next(&r, &l) && !read_line(&l, "start", 2, s, path, err))
        return NULL;
    if (s[0] > v[0] || s[1] > v[1])
        return ps_error_set(err, path, l.number, 1, "more than a jug holds"),
               NULL;
    if (ps_lines_next(&r, &l))
        return ps_error_set(err, path, l.number, 1, "nothing after 'start'"),
               NULL;
    struct jugs *j = calloc(1, sizeof *j);
    if (!j)
        return ps_error_set(err, path, 0, 0, "out of memory"), NULL;
    *j = (struct jugs){.cap = {(int)v[0], (int)v[1]}, .target = (int)v[2],
                       .start = {(unsigned char)s[0], (unsigned char)s[1]}};
    return j;
}

static void jugs_free(void *inst) { free(inst); }
static size_t jugs_state_size(const void *inst) { (void)inst; return 8; }
static int jugs_max_moves(const void *inst) { (void)inst; return NMOVES; }

static void jugs_initial_state(const void *inst, void *state)
{
    memcpy(state, ((const struct jugs *)inst)->start, STATE_SIZE);
}

/* A cost game may cycle: the longest solution worth looking for. */
static int jugs_max_depth(const void *inst)
{
    const struct jugs *j = inst;
    return 2 * (j->cap[0] + 1) * (j->cap[1] + 1);
}

static uint64_t jugs_hash(const void *inst, const void *state)
{
    (void)inst;
    return ps_hash_bytes(state, STATE_SIZE);
}

/* The state after move m (the zero tail stays zero). */
static void play(const struct jugs *j, const unsigned char *s, ps_move m,
                 unsigned char *out)
{
    int a = s[0], b = s[1];
    int pour_ab = a < j->cap[1] - b ? a : j->cap[1] - b;
    int pour_ba = b < j->cap[0] - a ? b : j->cap[0] - a;
    int next[NMOVES][2] = {{j->cap[0], b}, {a, j->cap[1]}, {0, b}, {a, 0},
                           {a - pour_ab, b + pour_ab},
                           {a + pour_ba, b - pour_ba}};
    memset(out, 0, STATE_SIZE);
    out[0] = (unsigned char)next[m][0];
    out[1] = (unsigned char)next[m][1];
}

/* The moves that change something, each costing 1. */
static int jugs_moves(const void *inst, const void *state, ps_move *moves,
                      ps_value *costs)
{
    unsigned char next[STATE_SIZE];
    int n = 0;
    for (ps_move m = 0; m < NMOVES; m++) {
        play(inst, state, m, next);
        if (memcmp(next, state, STATE_SIZE) == 0)
            continue;
        if (costs)
            costs[n] = 1;
        moves[n++] = m;
    }
    return n;
}

static ps_value jugs_apply(const void *inst, const void *state, ps_move m,
                           void *out)
{
    play(inst, state, m, out);
    return 1;
}

static bool jugs_is_goal(const void *inst, const void *state)
{
    const unsigned char *s = state;
    int t = ((const struct jugs *)inst)->target;
    return s[0] == t || s[1] == t;
}

/* The state as a file that loads back. */
static void jugs_print(const void *inst, const void *state, FILE *out,
                       bool ansi)
{
    (void)ansi;
    const struct jugs *j = inst;
    const unsigned char *s = state;
    fprintf(out, "jugs %d %d %d\nstart %d %d\n", j->cap[0], j->cap[1],
            j->target, s[0], s[1]);
}

static void jugs_format_move(const void *inst, const void *state, ps_move m,
                             char *buf, size_t len)
{
    (void)inst, (void)state;
    snprintf(buf, len, "%s", m < NMOVES ? move_names[m] : "?");
}

static bool jugs_parse_move(const void *inst, const void *state,
                            const char *text, ps_move *move,
                            struct ps_error *err)
{
    ps_move legal[NMOVES];
    int n = jugs_moves(inst, state, legal, NULL);
    for (int i = 0; i < n; i++)
        if (strcmp(text, move_names[legal[i]]) == 0) {
            *move = legal[i];
            return true;
        }
    return ps_error_set(err, NULL, 0, 1, "'%s' is no move that changes "
                        "anything here (fill A, empty B, pour A B ...)", text);
}

const struct ps_game jugs_game = {
    .name = "jugs",
    .summary = "two jugs: measure T litres in the fewest steps (a template)",
    .load = jugs_load,
    .free_instance = jugs_free,
    .state_size = jugs_state_size,
    .initial_state = jugs_initial_state,
    .max_moves = jugs_max_moves,
    .max_depth = jugs_max_depth,
    .hash = jugs_hash,
    .moves = jugs_moves,
    .apply = jugs_apply,
    .is_goal = jugs_is_goal,
    .print_state = jugs_print,
    .format_move = jugs_format_move,
    .parse_move = jugs_parse_move,
    .move_help = "'fill A', 'empty B', 'pour A B' ...",
};
