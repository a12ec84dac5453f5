/*
 * watersort.c - Water Sort (and Ball Sort): tubes of capacity C hold units of
 * colour; a move pours the run of one colour on top of tube i into tube j
 * (j not full, j empty or with the same colour on top), as much as fits (or
 * one unit, under ball-sort rules). Solved when every tube is empty or holds
 * one colour and each colour lies in as few tubes as its count allows. A
 * cost game: each pour costs 1 (or, under a rule, the units it moves).
 *
 * State layout (state_size bytes):
 *   uint8_t unit[T][C]  -- tube by tube, bottom to top, 0 = empty; the tubes
 *                          are kept SORTED (memcmp order of their C bytes),
 *                          so two positions that differ only by the order of
 *                          their tubes have the same first T*C bytes;
 *   uint8_t user[T]     -- user[s]: the tube number (0-based, as in the file)
 *                          of the tube now in slot s;
 *   zero padding to a multiple of 8.
 * hash() and equal() read only unit[][]: the tubes as a multiset. user[]
 * rides along so that moves can be printed with the user's tube numbers.
 *
 * A move is (from_slot << 8) | to_slot, slots of the state it applies to.
 * The text form is "from to" with the user's 1-based tube numbers.
 *
 * See docs/watersort.md for the rules, the file format, the heuristic and
 * why the prunings are sound.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "hash.h"
#include "number.h"
#include "textfile.h"

#define WS_MAX_TUBES 32
#define WS_MAX_CAPACITY 16
#define WS_MAX_COLOURS 64
#define WS_NAME_LEN 16

enum { WS_POUR_ALL, WS_POUR_ONE };
enum { WS_GOAL_FULL, WS_GOAL_PARTIAL };
enum { WS_COST_POURS, WS_COST_UNITS };

struct ws_rules {
    int64_t capacity;          /* when the file has no `capacity` line */
    int pour;                  /* WS_POUR_* */
    int goal;                  /* WS_GOAL_* */
    int cost;                  /* WS_COST_* */
    bool prune_complete;       /* never pour out of a completed tube */
    bool prune_single_to_empty;/* never pour a one-colour tube into an empty */
    bool prune_empty_targets;  /* only the first empty tube is a target */
    bool prune_commute;        /* tree search: commuting pours one way only */
    bool lookahead;            /* heuristic + 1 when no move can lower it */
};

struct ws_instance {
    struct ws_rules rules;
    int tubes, cap, colours;
    size_t tube_bytes; /* tubes * cap: what hash and equal read */
    size_t state_size;
    int total[WS_MAX_COLOURS + 1]; /* units of each colour */
    int need[WS_MAX_COLOURS + 1];  /* tubes it fills when solved */
    bool whole_tubes; /* every colour's count is a multiple of the capacity */
    char label[WS_MAX_COLOURS + 1][WS_NAME_LEN]; /* as written in the file */
    unsigned char *start;
};

/* ---- rules ---- */

static const char *const pour_names[] = {"all", "one", NULL};
static const char *const goal_names[] = {"full", "partial", NULL};
static const char *const cost_names[] = {"pours", "units", NULL};

static const struct ps_param ws_params[] = {
    {"capacity", PS_PARAM_INT, offsetof(struct ws_rules, capacity), 2,
     WS_MAX_CAPACITY, NULL, 0,
     "units per tube when the level file has no 'capacity' line", 0, NULL},
    {"pour", PS_PARAM_ENUM, offsetof(struct ws_rules, pour), 0, 0, pour_names,
     0, "all: pour the whole top run that fits (water); one: one unit (balls)", 0, NULL},
    {"goal", PS_PARAM_ENUM, offsetof(struct ws_rules, goal), 0, 0, goal_names,
     0,
     "full: every colour fills whole tubes; partial: a colour with n units "
     "ends in ceil(n/capacity) one-colour tubes", 0, NULL},
    {"cost", PS_PARAM_ENUM, offsetof(struct ws_rules, cost), 0, 0, cost_names,
     0, "pours: each pour costs 1; units: a pour costs the units it moves", 0, NULL},
    {"prune_complete", PS_PARAM_BOOL,
     offsetof(struct ws_rules, prune_complete), 0, 1, NULL, 0,
     "search never pours out of a completed tube (sound)", 0, NULL},
    {"prune_single_to_empty", PS_PARAM_BOOL,
     offsetof(struct ws_rules, prune_single_to_empty), 0, 1, NULL, 0,
     "search never pours a one-colour tube into an empty tube (sound)", 0, NULL},
    {"prune_empty_targets", PS_PARAM_BOOL,
     offsetof(struct ws_rules, prune_empty_targets), 0, 1, NULL, 0,
     "search pours into the first empty tube only (sound)", 0, NULL},
    {"prune_commute", PS_PARAM_BOOL, offsetof(struct ws_rules, prune_commute),
     0, 1, NULL, 0,
     "tree searches play two commuting pours in one order only (sound)", 0, NULL},
    {"lookahead", PS_PARAM_BOOL, offsetof(struct ws_rules, lookahead), 0, 1,
     NULL, 0, "heuristic + 1 when no move can lower its base (admissible)", 0, NULL},
    {NULL, 0, 0, 0, 0, NULL, 0, NULL, 0, NULL},
};

static void ws_rules_default(void *p)
{
    struct ws_rules *r = p;
    r->capacity = 4;
    r->pour = WS_POUR_ALL;
    r->goal = WS_GOAL_FULL;
    r->cost = WS_COST_POURS;
    r->prune_complete = true;
    r->prune_single_to_empty = true;
    r->prune_empty_targets = true;
    r->prune_commute = true;
    r->lookahead = true;
}

static void preset_watersort(void *p)
{
    (void)p; /* the defaults */
}

static void preset_ballsort(void *p)
{
    ((struct ws_rules *)p)->pour = WS_POUR_ONE;
}

static void preset_partial(void *p)
{
    ((struct ws_rules *)p)->goal = WS_GOAL_PARTIAL;
}

static void preset_units(void *p)
{
    ((struct ws_rules *)p)->cost = WS_COST_UNITS;
}

static void preset_noprune(void *p)
{
    struct ws_rules *r = p;
    r->prune_complete = r->prune_single_to_empty = r->prune_empty_targets =
        r->prune_commute = false;
}

static const struct ps_preset ws_presets[] = {
    {"watersort", "pour as much as fits, tubes end full, each pour costs 1",
     preset_watersort},
    {"ballsort", "move one unit (ball) at a time, each move costs 1",
     preset_ballsort},
    {"partial", "water sort; a colour with n units ends in ceil(n/C) tubes",
     preset_partial},
    {"units", "water sort; a pour costs the number of units it moves",
     preset_units},
    {"noprune", "water sort without the search prunings (for comparison)",
     preset_noprune},
    {NULL, NULL, NULL},
};

static bool ws_rules_check(const void *p, struct ps_error *err)
{
    const struct ws_rules *r = p;
    if (r->capacity < 2 || r->capacity > WS_MAX_CAPACITY)
        return ps_error_set(err, NULL, 0, 0, "capacity must be 2..%d",
                            WS_MAX_CAPACITY);
    return true;
}

/* ---- state access ---- */

static inline unsigned char *tube_of(const struct ws_instance *in,
                                     const void *state, int slot)
{
    return (unsigned char *)state + (size_t)slot * (size_t)in->cap;
}

static inline unsigned char *users_of(const struct ws_instance *in,
                                      const void *state)
{
    return (unsigned char *)state + in->tube_bytes;
}

/* Height, top colour and length of the top run of one tube. */
struct ws_top {
    int height, colour, run;
};

static struct ws_top top_of(const struct ws_instance *in, const unsigned char *t)
{
    struct ws_top r = {0, 0, 0};
    int h = 0;
    while (h < in->cap && t[h])
        h++;
    r.height = h;
    if (h == 0)
        return r;
    r.colour = t[h - 1];
    r.run = 1;
    while (r.run < h && t[h - 1 - r.run] == r.colour)
        r.run++;
    return r;
}

/* memcmp order of two tubes; an inline loop beats the library call on
 * 4-byte tubes. */
static inline int tube_cmp(const unsigned char *a, const unsigned char *b,
                           int cap)
{
    for (int k = 0; k < cap; k++)
        if (a[k] != b[k])
            return (int)a[k] - (int)b[k];
    return 0;
}

/* Restore the sorted order of the tubes (and their user numbers) after a
 * move changed two of them: an insertion sort, O(T) on a nearly sorted
 * state. */
static void sort_tubes(const struct ws_instance *in, void *state)
{
    const int C = in->cap;
    unsigned char *user = users_of(in, state);
    unsigned char tmp[WS_MAX_CAPACITY];
    for (int i = 1; i < in->tubes; i++) {
        unsigned char *t = tube_of(in, state, i);
        if (tube_cmp(t - C, t, C) <= 0)
            continue;
        memcpy(tmp, t, (size_t)C);
        unsigned char u = user[i];
        int j = i;
        while (j > 0 && tube_cmp(tube_of(in, state, j - 1), tmp, C) > 0) {
            memcpy(tube_of(in, state, j), tube_of(in, state, j - 1), (size_t)C);
            user[j] = user[j - 1];
            j--;
        }
        memcpy(tube_of(in, state, j), tmp, (size_t)C);
        user[j] = u;
    }
}

/* ---- parsing ---- */

static void ws_free_instance(void *p)
{
    struct ws_instance *in = p;
    if (!in)
        return;
    free(in->start);
    free(in);
}

struct ws_parse {
    const char *path;
    struct ws_instance *in;
    unsigned char tube[WS_MAX_TUBES][WS_MAX_CAPACITY];
    int height[WS_MAX_TUBES];
    int ntubes;
    bool capacity_seen;
};

/* Next token of a line: *pos advances past it; false at the end. */
static bool next_token(const struct ps_line *ln, size_t *pos, size_t *start,
                       size_t *len)
{
    size_t i = *pos;
    while (i < ln->len && (ln->text[i] == ' ' || ln->text[i] == '\t'))
        i++;
    if (i == ln->len)
        return false;
    size_t j = i;
    while (j < ln->len && ln->text[j] != ' ' && ln->text[j] != '\t')
        j++;
    *start = i;
    *len = j - i;
    *pos = j;
    return true;
}

/* The colour id (1..) of a token, adding a new colour on first sight; 0 with
 * err filled for a token that is no colour. */
static int colour_of_token(struct ws_parse *ps, const struct ps_line *ln,
                           size_t start, size_t len, struct ps_error *err)
{
    struct ws_instance *in = ps->in;
    const char *tok = ln->text + start;
    int col = (int)start + 1;
    bool digits = true, word = isalpha((unsigned char)tok[0]) != 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)tok[i];
        if (!isdigit(ch))
            digits = false;
        if (!isalnum(ch) && ch != '_')
            word = false;
    }
    char name[WS_NAME_LEN];
    if (digits) {
        long long v;
        size_t used;
        if (ps_number_scan(tok, len, 1, WS_MAX_COLOURS, &v, &used) !=
            PS_NUMBER_OK) {
            ps_error_set(err, ps->path, ln->number, col,
                         "colour number '%.*s' is out of range (1..%d)",
                         (int)len, tok, WS_MAX_COLOURS);
            return 0;
        }
        snprintf(name, sizeof name, "%lld", v); /* "01" is colour 1 */
    } else if (!word || len >= WS_NAME_LEN) {
        ps_error_set(err, ps->path, ln->number, col,
                     "unknown token '%.*s' (a colour is a number 1..%d or a "
                     "name of up to %d letters, digits or _, starting with a "
                     "letter; '-' or '.' is an empty tube)",
                     (int)len, tok, WS_MAX_COLOURS, WS_NAME_LEN - 1);
        return 0;
    } else if (len == 8 && strncmp(tok, "capacity", 8) == 0) {
        /* A tube starting with it would read as the capacity line, so a
         * printed position could not be read back. */
        ps_error_set(err, ps->path, ln->number, col,
                     "'capacity' is a keyword, not a colour name");
        return 0;
    } else {
        memcpy(name, tok, len);
        name[len] = '\0';
    }
    for (int c = 1; c <= in->colours; c++)
        if (strcmp(in->label[c], name) == 0)
            return c;
    if (in->colours == WS_MAX_COLOURS) {
        ps_error_set(err, ps->path, ln->number, col,
                     "more than %d different colours", WS_MAX_COLOURS);
        return 0;
    }
    int c = ++in->colours;
    memcpy(in->label[c], name, sizeof name);
    return c;
}

/* A level says it is one when its first line is `capacity C`. */
static bool ws_detect(const char *text, size_t len)
{
    struct ps_line_reader rd;
    struct ps_line ln;
    ps_lines_begin(&rd, text, len);
    static const char keyword[] = "capacity";
    size_t k = sizeof keyword - 1;
    return ps_lines_next(&rd, &ln) && ln.len > k &&
           memcmp(ln.text, keyword, k) == 0 &&
           (ln.text[k] == ' ' || ln.text[k] == '\t');
}

static bool parse_capacity(struct ws_parse *ps, const struct ps_line *ln,
                           size_t pos, struct ps_error *err)
{
    size_t start, len;
    if (ps->ntubes > 0)
        return ps_error_set(err, ps->path, ln->number, 1,
                            "'capacity' must come before the first tube");
    if (ps->capacity_seen)
        return ps_error_set(err, ps->path, ln->number, 1,
                            "second 'capacity' line");
    if (!next_token(ln, &pos, &start, &len))
        return ps_error_set(err, ps->path, ln->number, (int)ln->len + 1,
                            "'capacity' needs a number");
    long long v;
    size_t used;
    if (ps_number_scan(ln->text + start, len, 2, WS_MAX_CAPACITY, &v, &used) !=
            PS_NUMBER_OK ||
        used != len)
        return ps_error_set(err, ps->path, ln->number, (int)start + 1,
                            "capacity must be a number 2..%d, not '%.*s'",
                            WS_MAX_CAPACITY, (int)len, ln->text + start);
    if (next_token(ln, &pos, &start, &len))
        return ps_error_set(err, ps->path, ln->number, (int)start + 1,
                            "unexpected '%.*s' after the capacity", (int)len,
                            ln->text + start);
    ps->in->cap = (int)v;
    ps->capacity_seen = true;
    return true;
}

static bool parse_tube(struct ws_parse *ps, const struct ps_line *ln,
                       struct ps_error *err)
{
    size_t pos = 0, start, len;
    if (ps->ntubes == WS_MAX_TUBES)
        return ps_error_set(err, ps->path, ln->number, 1,
                            "more than %d tubes", WS_MAX_TUBES);
    int t = ps->ntubes, h = 0;
    bool empty_mark = false;
    while (next_token(ln, &pos, &start, &len)) {
        const char *tok = ln->text + start;
        bool dash = len == 1 && (tok[0] == '-' || tok[0] == '.');
        if (dash || empty_mark) {
            if (h > 0 || empty_mark)
                return ps_error_set(err, ps->path, ln->number, (int)start + 1,
                                    "'-' or '.' (an empty tube) must be alone "
                                    "on its line");
            empty_mark = true;
            continue;
        }
        if (h == ps->in->cap)
            return ps_error_set(err, ps->path, ln->number, (int)start + 1,
                                "tube %d has more than %d units (the capacity)",
                                t + 1, ps->in->cap);
        int c = colour_of_token(ps, ln, start, len, err);
        if (c == 0)
            return false;
        ps->tube[t][h++] = (unsigned char)c;
    }
    ps->height[t] = h;
    ps->ntubes++;
    return true;
}

static bool finish_instance(struct ws_parse *ps, struct ps_error *err)
{
    struct ws_instance *in = ps->in;
    const int T = ps->ntubes, C = in->cap;
    in->tubes = T;
    in->tube_bytes = (size_t)T * (size_t)C;
    in->state_size = (in->tube_bytes + (size_t)T + 7) & ~(size_t)7;
    in->start = calloc(1, in->state_size);
    if (!in->start)
        return ps_error_set(err, ps->path, 0, 0, "out of memory");
    unsigned char *user = users_of(in, in->start);
    for (int t = 0; t < T; t++) {
        memcpy(tube_of(in, in->start, t), ps->tube[t], (size_t)ps->height[t]);
        user[t] = (unsigned char)t;
        for (int k = 0; k < ps->height[t]; k++)
            in->total[ps->tube[t][k]]++;
    }
    in->whole_tubes = true;
    for (int c = 1; c <= in->colours; c++) {
        in->need[c] = (in->total[c] + C - 1) / C;
        in->whole_tubes = in->whole_tubes && in->total[c] % C == 0;
    }
    sort_tubes(in, in->start);
    return true;
}

static void *ws_load(const void *rules, const char *path, const char *text,
                     size_t len, struct ps_error *err)
{
    struct ws_parse *ps = calloc(1, sizeof *ps);
    struct ws_instance *in = calloc(1, sizeof *in);
    if (!ps || !in) {
        free(ps);
        free(in);
        ps_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    in->rules = *(const struct ws_rules *)rules;
    in->cap = (int)in->rules.capacity;
    ps->path = path;
    ps->in = in;
    struct ps_line_reader rd;
    struct ps_line ln;
    ps_lines_begin(&rd, text, len);
    bool ok = true;
    while (ok && ps_lines_next(&rd, &ln)) {
        size_t pos = 0, start = 0, tlen = 0;
        next_token(&ln, &pos, &start, &tlen);
        if (tlen == 8 && strncmp(ln.text + start, "capacity", 8) == 0)
            ok = parse_capacity(ps, &ln, pos, err);
        else
            ok = parse_tube(ps, &ln, err);
    }
    if (ok && ps->ntubes == 0)
        ok = ps_error_set(err, path, 0, 0, "no tubes in the file");
    if (ok)
        ok = finish_instance(ps, err);
    free(ps);
    if (!ok) {
        ws_free_instance(in);
        return NULL;
    }
    return in;
}

/* ---- the hot loop ---- */

static size_t ws_state_size(const void *p)
{
    return ((const struct ws_instance *)p)->state_size;
}

static void ws_initial_state(const void *p, void *state)
{
    const struct ws_instance *in = p;
    memcpy(state, in->start, in->state_size);
}

static int ws_max_moves(const void *p)
{
    const struct ws_instance *in = p;
    return in->tubes * (in->tubes - 1) + 1;
}

/* Games can cycle; this only sizes playouts and path buffers. */
static int ws_max_depth(const void *p)
{
    const struct ws_instance *in = p;
    return 8 * in->tubes * in->cap + 64;
}

static uint64_t ws_hash(const void *p, const void *state)
{
    const struct ws_instance *in = p;
    return ps_hash_bytes(state, in->tube_bytes);
}

static bool ws_equal(const void *p, const void *a, const void *b)
{
    const struct ws_instance *in = p;
    return memcmp(a, b, in->tube_bytes) == 0;
}

/* A tube that is finished: one colour, and full or holding all of it. */
static bool is_complete(const struct ws_instance *in, struct ws_top t)
{
    return t.height > 0 && t.run == t.height &&
           (t.height == in->cap || t.height == in->total[t.colour]);
}

static int pour_amount(const struct ws_instance *in, struct ws_top from,
                       struct ws_top to)
{
    int space = in->cap - to.height;
    int n = in->rules.pour == WS_POUR_ONE ? 1 : from.run;
    return n < space ? n : space;
}

static ps_value pour_cost(const struct ws_instance *in, int amount)
{
    return in->rules.cost == WS_COST_UNITS ? amount : 1;
}

/* The rules alone: a non-empty source, a target with room and an empty or
 * matching top. */
static bool pour_allowed(struct ws_top from, struct ws_top to, int cap)
{
    return from.height > 0 && to.height < cap &&
           (to.height == 0 || to.colour == from.colour);
}

static int add_pour(const struct ws_instance *in, struct ws_top from,
                    struct ws_top to, int i, int j, ps_move *moves,
                    ps_value *gains, int n)
{
    if (gains)
        gains[n] = pour_cost(in, pour_amount(in, from, to));
    moves[n] = (ps_move)(i << 8 | j);
    return n + 1;
}

/* Sources in slot order; for each, the non-full tubes with its colour on
 * top (in slot order), then the empty tubes. */
static int ws_moves(const void *p, const void *state, ps_move *moves,
                    ps_value *gains)
{
    const struct ws_instance *in = p;
    const struct ws_rules *r = &in->rules;
    struct ws_top top[WS_MAX_TUBES];
    unsigned char open[WS_MAX_COLOURS + 1][WS_MAX_TUBES];
    int nopen[WS_MAX_COLOURS + 1], empties = 0;
    memset(nopen, 0, sizeof(int) * (size_t)(in->colours + 1));
    for (int t = 0; t < in->tubes; t++) {
        top[t] = top_of(in, tube_of(in, state, t));
        if (top[t].height == 0)
            empties++; /* sorted: the empty tubes are slots 0..empties-1 */
        else if (top[t].height < in->cap)
            open[top[t].colour][nopen[top[t].colour]++] = (unsigned char)t;
    }
    int n = 0;
    for (int i = empties; i < in->tubes; i++) {
        struct ws_top from = top[i];
        if (r->prune_complete && is_complete(in, from))
            continue;
        for (int k = 0; k < nopen[from.colour]; k++) {
            int j = open[from.colour][k];
            if (j != i)
                n = add_pour(in, from, top[j], i, j, moves, gains, n);
        }
        /* One colour poured into an empty tube only swaps two tubes; and
         * empty tubes are interchangeable: pouring into any of them gives
         * the same multiset of tubes. */
        bool single = from.run == from.height && r->pour == WS_POUR_ALL;
        if (r->prune_single_to_empty && single)
            continue;
        int last = r->prune_empty_targets && empties ? 1 : empties;
        for (int j = 0; j < last; j++)
            n = add_pour(in, from, top[j], i, j, moves, gains, n);
    }
    return n;
}

static bool ws_legal(const void *p, const void *state, ps_move move)
{
    const struct ws_instance *in = p;
    int i = (int)(move >> 8), j = (int)(move & 0xff);
    if (i >= in->tubes || j >= in->tubes || i == j)
        return false;
    return pour_allowed(top_of(in, tube_of(in, state, i)),
                        top_of(in, tube_of(in, state, j)), in->cap);
}

static ps_value ws_apply(const void *p, const void *state, ps_move move,
                         void *out)
{
    const struct ws_instance *in = p;
    memcpy(out, state, in->state_size);
    unsigned char *a = tube_of(in, out, (int)(move >> 8));
    unsigned char *b = tube_of(in, out, (int)(move & 0xff));
    struct ws_top from = top_of(in, a), to = top_of(in, b);
    int n = pour_amount(in, from, to);
    for (int k = 0; k < n; k++) {
        b[to.height + k] = a[from.height - 1 - k];
        a[from.height - 1 - k] = 0;
    }
    sort_tubes(in, out);
    return pour_cost(in, n);
}

/* Pairs of pours that commute (both orders legal, same position, same
 * cost, and both orders generated by ws_moves()):
 *  - two pours on four different tubes, neither into an empty tube: each
 *    leaves the other's tubes alone, and the prunings judge a pour into a
 *    non-empty tube by its own two tubes only;
 *  - two pours from different tubes into the same non-empty tube when both
 *    move their whole amount (the run, or one ball) in either order: the
 *    target has room for both, so it ends with the same units;
 *  - two pours from one tube into two non-empty tubes that both fill up
 *    (or two single balls): the run splits the same way in either order.
 * Of the two orders only the one whose second pour has the larger (from, to)
 * in the user's tube numbers, which never change, is searched. */
static bool ws_redundant_after(const void *p, const void *before,
                               ps_move first, const void *after,
                               ps_move second)
{
    const struct ws_instance *in = p;
    if (!in->rules.prune_commute)
        return false;
    const unsigned char *ub = users_of(in, before), *ua = users_of(in, after);
    int i = ub[first >> 8], j = ub[first & 0xff];
    int k = ua[second >> 8], l = ua[second & 0xff];
    if (k * WS_MAX_TUBES + l >= i * WS_MAX_TUBES + j || j == k || l == i)
        return false;
    struct ws_top to = top_of(in, tube_of(in, before, (int)(first & 0xff)));
    if (to.height == 0 || !tube_of(in, after, (int)(second & 0xff))[0])
        return false;
    struct ws_top a = top_of(in, tube_of(in, before, (int)(first >> 8)));
    int want_a = in->rules.pour == WS_POUR_ONE ? 1 : a.run;
    if (i == k) {
        /* One run split over two tubes that both fill up (or two balls):
         * the same units land in the same tubes in either order. */
        int room_l = in->cap - top_of(in, tube_of(in, after,
                                                  (int)(second & 0xff))).height;
        return in->rules.pour == WS_POUR_ONE
                   ? a.run >= 2
                   : (in->cap - to.height) + room_l <= a.run;
    }
    if (l != j)
        return true; /* four different tubes */
    struct ws_top b = top_of(in, tube_of(in, after, (int)(second >> 8)));
    int want_b = in->rules.pour == WS_POUR_ONE ? 1 : b.run;
    return in->cap - to.height >= want_a + want_b;
}

/* Phi, the base of the heuristic (proof sketch in docs/watersort.md):
 *   sum over colours c of (segments_c - need_c) + max(0, need_c - bottoms_c)
 * where a segment is a maximal run of c inside a tube and bottoms_c counts
 * tubes with c at the bottom. One move lowers it by at most 1, every move
 * costs at least 1, and it is 0 exactly in the solved states. bottom[] and
 * top[] receive the per-colour bottoms and the tubes' tops. */
static ps_value ws_phi(const struct ws_instance *in, const void *state,
                       int *bottom, struct ws_top *top)
{
    int seg[WS_MAX_COLOURS + 1];
    memset(seg, 0, sizeof(int) * (size_t)(in->colours + 1));
    memset(bottom, 0, sizeof(int) * (size_t)(in->colours + 1));
    for (int t = 0; t < in->tubes; t++) {
        const unsigned char *u = tube_of(in, state, t);
        struct ws_top *tp = &top[t];
        tp->height = tp->colour = tp->run = 0;
        if (!u[0])
            continue;
        bottom[u[0]]++;
        seg[u[0]]++;
        int k = 1, run = 1;
        for (; k < in->cap && u[k]; k++) {
            if (u[k] != u[k - 1]) {
                seg[u[k]]++;
                run = 0;
            }
            run++;
        }
        tp->height = k;
        tp->colour = u[k - 1];
        tp->run = run;
    }
    ps_value h = 0;
    for (int c = 1; c <= in->colours; c++) {
        h += seg[c] - in->need[c];
        if (bottom[c] < in->need[c])
            h += in->need[c] - bottom[c];
    }
    return h;
}

/* Does some legal move lower Phi by 1? Only a pour of a whole top run can
 * (see the table in docs/watersort.md): onto the same colour, unless that
 * empties a tube whose colour is short of bottoms, or into an empty tube
 * from a tube with another colour below, when its colour is short of
 * bottoms. */
static bool phi_can_drop(const struct ws_instance *in, const int *bottom,
                         const struct ws_top *top)
{
    bool have_empty = false;
    int space[WS_MAX_COLOURS + 1]; /* largest room on a tube topped by c */
    memset(space, 0, sizeof(int) * (size_t)(in->colours + 1));
    for (int t = 0; t < in->tubes; t++) {
        if (top[t].height == 0)
            have_empty = true;
        else if (in->cap - top[t].height > space[top[t].colour])
            space[top[t].colour] = in->cap - top[t].height;
    }
    for (int i = 0; i < in->tubes; i++) {
        const struct ws_top *a = &top[i];
        if (a->height == 0)
            continue;
        int c = a->colour;
        int amount = in->rules.pour == WS_POUR_ONE ? 1 : a->run;
        if (amount < a->run)
            continue; /* a part of a run never lowers Phi */
        bool whole_tube = a->run == a->height;
        bool short_of_bottoms = bottom[c] <= in->need[c];
        /* onto c: the source's own room does not count (it is not a
         * target), but another tube topped by c with room is. */
        if (space[c] >= amount && !(whole_tube && short_of_bottoms)) {
            for (int j = 0; j < in->tubes; j++)
                if (j != i && top[j].height && top[j].colour == c &&
                    in->cap - top[j].height >= amount)
                    return true;
        }
        if (have_empty && !whole_tube && bottom[c] < in->need[c])
            return true;
    }
    return false;
}

/* The admissible heuristic: Phi, plus 1 when no move can lower Phi (then
 * the first move costs >= 1 and leaves Phi >= its value now). */
static ps_value ws_phi_lookahead(const struct ws_instance *in,
                                 const void *state, bool lookahead)
{
    int bottom[WS_MAX_COLOURS + 1];
    struct ws_top top[WS_MAX_TUBES];
    ps_value h = ws_phi(in, state, bottom, top);
    if (h > 0 && lookahead && !phi_can_drop(in, bottom, top))
        h++;
    return h;
}

/* The default: with the lookahead when the rules ask for it. */
static ps_value ws_heuristic(const void *p, const void *state)
{
    const struct ws_instance *in = p;
    return ws_phi_lookahead(in, state, in->rules.lookahead);
}

static ps_value ws_heuristic_phi(const void *p, const void *state)
{
    return ws_phi_lookahead(p, state, false);
}

static ps_value ws_heuristic_lookahead(const void *p, const void *state)
{
    return ws_phi_lookahead(p, state, true);
}

static const struct ps_heuristic ws_heuristics[] = {
    {"zero", "h = 0: A* is uniform-cost search", true,
     ps_heuristic_zero},
    {"phi", "segments beyond the tubes each colour fills, + missing "
            "bottoms",
     true, ws_heuristic_phi},
    {"lookahead", "phi + 1 when no move can lower phi (the default "
                  "unless the rules set lookahead = false)",
     true, ws_heuristic_lookahead},
    {NULL, NULL, false, NULL},
};

static bool ws_is_goal(const void *p, const void *state)
{
    const struct ws_instance *in = p;
    /* Phi = 0 means every colour lies in need_c one-colour tubes; under the
     * full goal they must also be full, which no position of a level whose
     * counts are not multiples of the capacity reaches. */
    if (in->rules.goal == WS_GOAL_FULL && !in->whole_tubes)
        return false;
    int bottom[WS_MAX_COLOURS + 1];
    struct ws_top top[WS_MAX_TUBES];
    return ws_phi(in, state, bottom, top) == 0;
}

static bool ws_solvable(const void *p, char *why, size_t len)
{
    const struct ws_instance *in = p;
    int tubes = 0;
    for (int c = 1; c <= in->colours; c++) {
        if (in->rules.goal == WS_GOAL_FULL && in->total[c] % in->cap) {
            snprintf(why, len,
                     "colour %s has %d units, not a multiple of the capacity %d",
                     in->label[c], in->total[c], in->cap);
            return false;
        }
        tubes += in->need[c];
    }
    if (tubes > in->tubes) {
        snprintf(why, len, "the colours need %d tubes but the level has %d",
                 tubes, in->tubes);
        return false;
    }
    return true;
}

/* ---- text forms ---- */

static int slot_of_user(const struct ws_instance *in, const void *state,
                        int user)
{
    const unsigned char *u = users_of(in, state);
    for (int s = 0; s < in->tubes; s++)
        if (u[s] == user)
            return s;
    return -1;
}

/* 16 distinct backgrounds, then the 256-colour cube for more colours. */
static void print_unit(const struct ws_instance *in, int c, FILE *out,
                       bool ansi)
{
    static const int bg[16] = {41,  42,  44,  43,  45,  46,  101, 102,
                               104, 103, 105, 106, 47,  100, 107, 40};
    if (!ansi)
        fputs(in->label[c], out);
    else if (c <= 16)
        fprintf(out, "\x1b[%d;%dm%s\x1b[0m", bg[c - 1], c == 16 ? 97 : 30,
                in->label[c]);
    else
        fprintf(out, "\x1b[48;5;%d;30m%s\x1b[0m", 16 + (c * 37) % 216,
                in->label[c]);
}

/* The level file format (so it reads back), tubes in the user's order;
 * coloured on a terminal. */
static void ws_print_state(const void *p, const void *state, FILE *out,
                           bool ansi)
{
    const struct ws_instance *in = p;
    fprintf(out, "capacity %d\n", in->cap);
    for (int user = 0; user < in->tubes; user++) {
        const unsigned char *t = tube_of(in, state, slot_of_user(in, state, user));
        int k = 0;
        for (; k < in->cap && t[k]; k++) {
            if (k)
                fputc(' ', out);
            print_unit(in, t[k], out, ansi);
        }
        fprintf(out, "%s  # tube %d\n", k ? "" : "-", user + 1);
    }
}

static void ws_format_move(const void *p, const void *state, ps_move move,
                           char *buf, size_t len)
{
    const struct ws_instance *in = p;
    const unsigned char *u = users_of(in, state);
    snprintf(buf, len, "%d %d", u[move >> 8] + 1, u[move & 0xff] + 1);
}

static bool ws_parse_move(const void *p, const void *state, const char *text,
                          ps_move *move, struct ps_error *err)
{
    const struct ws_instance *in = p;
    long long ft[2];
    if (!ps_number_fields(text, 2, INT_MIN, INT_MAX, ft,
                          "'from to' (two tube numbers)", err))
        return false;
    int from = (int)ft[0], to = (int)ft[1];
    if (from < 1 || from > in->tubes || to < 1 || to > in->tubes)
        return ps_error_set(err, NULL, 0, 0,
                            "tube numbers are 1..%d, got '%s'", in->tubes, text);
    if (from == to)
        return ps_error_set(err, NULL, 0, 0, "cannot pour tube %d into itself",
                            from);
    int i = slot_of_user(in, state, from - 1), j = slot_of_user(in, state, to - 1);
    struct ws_top a = top_of(in, tube_of(in, state, i));
    struct ws_top b = top_of(in, tube_of(in, state, j));
    if (a.height == 0)
        return ps_error_set(err, NULL, 0, 0, "tube %d is empty", from);
    if (b.height == in->cap)
        return ps_error_set(err, NULL, 0, 0, "tube %d is full", to);
    if (!pour_allowed(a, b, in->cap))
        return ps_error_set(err, NULL, 0, 0,
                            "tube %d has %s on top, tube %d has %s: colours "
                            "differ",
                            from, in->label[a.colour], to, in->label[b.colour]);
    *move = (ps_move)(i << 8 | j);
    return true;
}

static void ws_describe_move(const void *p, const void *state, ps_move move,
                             char *buf, size_t len)
{
    const struct ws_instance *in = p;
    struct ws_top a = top_of(in, tube_of(in, state, (int)(move >> 8)));
    struct ws_top b = top_of(in, tube_of(in, state, (int)(move & 0xff)));
    snprintf(buf, len, "%d x colour %s", pour_amount(in, a, b),
             in->label[a.colour]);
}

/* For the HTML report: the tubes in the level file's order, bottom to top,
 * and the two tubes of a pour. */
static void ws_state_json(const void *p, const void *state, const ps_move *next,
                          FILE *out)
{
    const struct ws_instance *in = p;
    fprintf(out, "{\"kind\":\"tubes\",\"capacity\":%d,\"tubes\":[", in->cap);
    for (int user = 0; user < in->tubes; user++) {
        const unsigned char *t = tube_of(in, state, slot_of_user(in, state, user));
        fputs(user ? ",[" : "[", out);
        for (int k = 0; k < in->cap && t[k]; k++)
            fprintf(out, "%s%d", k ? "," : "", t[k]);
        fputc(']', out);
    }
    fputc(']', out);
    if (next) {
        const unsigned char *u = users_of(in, state);
        fprintf(out, ",\"highlight\":[%d,%d]", u[*next >> 8], u[*next & 0xff]);
    }
    fputc('}', out);
}

static int ws_facts(const void *p, const void *state, struct ps_fact *out,
                    int max)
{
    const struct ws_instance *in = p;
    if (max < 3)
        return 0;
    int done = 0;
    for (int t = 0; t < in->tubes; t++)
        done += is_complete(in, top_of(in, tube_of(in, state, t)));
    out[0] = (struct ps_fact){"tubes", in->tubes};
    out[1] = (struct ps_fact){"tubes_done", done};
    out[2] = (struct ps_fact){"solved", ws_is_goal(p, state)};
    return 3;
}

/* ---- generation ---- */

/* K full tubes of capacity C, their units shuffled, plus T-K empty tubes:
 * the colour counts always work out, the level itself may still be
 * unsolvable (the search then proves it). */
/* gen's parameters: value[WS_GEN_COLORS] and so on (game.h). */
enum { WS_GEN_COLORS, WS_GEN_TUBES, WS_GEN_CAPACITY };
static const struct ps_option ws_gen_options[] = {
    {.name = "colors", .type = PS_OPT_INT,
     .offset = PS_GEN_VALUE(WS_GEN_COLORS), .min = 1,
     .max = WS_MAX_COLOURS < WS_MAX_TUBES ? WS_MAX_COLOURS : WS_MAX_TUBES,
     .arg = "K", .def = "12", .alias = "colours",
     .doc = "colours, one full tube each (also --colours)"},
    {.name = "tubes", .type = PS_OPT_INT, .offset = PS_GEN_VALUE(WS_GEN_TUBES),
     .min = 1, .max = WS_MAX_TUBES, .arg = "T", .def = "colours + 2",
     .doc = "tubes, at least the colours"},
    {.name = "capacity", .type = PS_OPT_INT,
     .offset = PS_GEN_VALUE(WS_GEN_CAPACITY), .min = 2,
     .max = WS_MAX_CAPACITY, .arg = "C", .def = "4",
     .doc = "units per tube"},
    {0},
};

static bool ws_generate(const struct ps_gen_options *o, FILE *out,
                        struct ps_error *err)
{
    int cap = o->value[WS_GEN_CAPACITY] ? o->value[WS_GEN_CAPACITY] : 4;
    int colours = o->value[WS_GEN_COLORS] ? o->value[WS_GEN_COLORS] : 12;
    int tubes = o->value[WS_GEN_TUBES] ? o->value[WS_GEN_TUBES] : colours + 2;
    if (cap < 2 || cap > WS_MAX_CAPACITY)
        return ps_error_set(err, NULL, 0, 0, "capacity must be 2..%d",
                            WS_MAX_CAPACITY);
    /* Each colour fills a tube of its own, so the tubes cap the colours. */
    int max_colours = WS_MAX_COLOURS < WS_MAX_TUBES ? WS_MAX_COLOURS
                                                    : WS_MAX_TUBES;
    if (colours < 1 || colours > max_colours)
        return ps_error_set(err, NULL, 0, 0,
                            "colours must be 1..%d (each colour fills one of "
                            "at most %d tubes)",
                            max_colours, WS_MAX_TUBES);
    if (tubes < colours || tubes > WS_MAX_TUBES)
        return ps_error_set(err, NULL, 0, 0,
                            "tubes must be %d (the colours)..%d: give "
                            "--tubes %d or more, or fewer --colors",
                            colours, WS_MAX_TUBES, colours);
    int n = colours * cap;
    unsigned char units[WS_MAX_COLOURS * WS_MAX_CAPACITY];
    for (int k = 0; k < n; k++)
        units[k] = (unsigned char)(k / cap + 1);
    struct ps_rng rng;
    ps_rng_seed(&rng, o->seed);
    for (int k = n - 1; k > 0; k--) {
        int r = (int)ps_rng_below(&rng, (uint32_t)(k + 1));
        unsigned char t = units[k];
        units[k] = units[r];
        units[r] = t;
    }
    fprintf(out, "# psolve gen --game watersort --colors %d --tubes %d "
                 "--capacity %d --seed %llu\ncapacity %d\n",
            colours, tubes, cap, (unsigned long long)o->seed, cap);
    for (int t = 0; t < tubes; t++) {
        if (t >= colours) {
            fprintf(out, "-\n");
            continue;
        }
        for (int k = 0; k < cap; k++)
            fprintf(out, "%s%d", k ? " " : "", units[t * cap + k]);
        fputc('\n', out);
    }
    return true;
}

static const struct ps_gen_options ws_bench_sizes[] = {
    {.value = {[WS_GEN_COLORS] = 12, [WS_GEN_TUBES] = 14,
               [WS_GEN_CAPACITY] = 4}},
    {.value = {[WS_GEN_COLORS] = 8, [WS_GEN_TUBES] = 10,
               [WS_GEN_CAPACITY] = 4}},
    {.seed = 0},
};

const struct ps_game watersort_game = {
    .name = "watersort",
    .summary = "Water Sort / Ball Sort: pour colours into tubes, fewest pours",
    .flags = PS_HAS_HEURISTIC,
    .rules_size = sizeof(struct ws_rules),
    .rules_default = ws_rules_default,
    .params = ws_params,
    .presets = ws_presets,
    .rules_check = ws_rules_check,
    .load = ws_load,
    .free_instance = ws_free_instance,
    .state_size = ws_state_size,
    .initial_state = ws_initial_state,
    .max_moves = ws_max_moves,
    .max_depth = ws_max_depth,
    .hash = ws_hash,
    .equal = ws_equal,
    .moves = ws_moves,
    .apply = ws_apply,
    .is_goal = ws_is_goal,
    .heuristic = ws_heuristic,
    .legal = ws_legal,
    .redundant_after = ws_redundant_after,
    .solvable = ws_solvable,
    .print_state = ws_print_state,
    .format_move = ws_format_move,
    .move_help = "'from to': tube numbers, 1-based as in the level file",
    .detect = ws_detect,
    .parse_move = ws_parse_move,
    .describe_move = ws_describe_move,
    .facts = ws_facts,
    .generate = ws_generate,
    .bench_sizes = ws_bench_sizes,
    .gen_options = ws_gen_options,
    .heuristics = ws_heuristics,
    .state_json = ws_state_json,
};
