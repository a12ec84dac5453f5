/* The plug-in contract checked at run time (docs/plugins.md). A game built
 * outside the tree can break promises ps_game_check cannot see in the
 * struct: a load() that fails without a message, sizes out of range, a
 * moves() that lists more moves than max_moves() said or a negative count,
 * a cost below 0 (bfs, A*, IDA* and dfs would never end) or a value near
 * 2^62 (g + h would overflow). psolve registers a guarded copy of a
 * plug-in's game: its load, moves, bounded_moves, apply, heuristic,
 * upper_bound and child_floors slots call the plug-in's through a check, and a broken
 * promise becomes an error naming the plug-in's file and the slot (through
 * the fault slot, which stops the search), never a heap overflow. Built-in
 * and Lua games are not guarded: their code is psolve's own. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_guard.h"

/* Sizes an instance may declare: a state of at most 16 MiB, at most 2^24
 * moves in a position, lines of at most 2^24 moves. Larger means a broken
 * plug-in (or one psolve's arrays could not hold anyway). */
#define GUARD_MAX_STATE ((size_t)1 << 24)
#define GUARD_MAX_COUNT (1 << 24)
/* moves() writes into a buffer this many entries longer than max_moves()
 * said, so that a plug-in listing up to this many moves too many is caught
 * before it writes outside anything; one that lists still more writes past
 * every buffer psolve could give it. */
#define GUARD_SLACK 4096

struct guard {
    const struct ps_game *inner; /* the plug-in's own game */
    struct ps_game game;         /* the copy psolve registers */
    char path[256];              /* the plug-in's file, for messages */
    atomic_int broken;           /* 1 once a slot broke the contract */
    char why[400];               /* what it broke; written before broken */
    atomic_int claimed;          /* the first breach writes why[] */
};

static struct guard guards[PS_MAX_ADDED_GAMES];
static int used_guards;

/* A breach of the contract: keep the first one's message (the others are
 * its echoes, perhaps from other threads). */
PS_PRINTF(2, 3)
static void breach_said(struct guard *gd, const char *fmt, ...)
{
    if (atomic_exchange(&gd->claimed, 1) != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gd->why, sizeof gd->why, fmt, ap);
    va_end(ap);
    atomic_store(&gd->broken, 1);
}

/* A count out of range from `slot`. */
static void breach(struct guard *gd, const char *slot, const char *what, int n,
                   int max)
{
    breach_said(gd, "game %s: slot '%s' returned %d moves, but %s %d",
                gd->inner->name, slot, n, what, max);
}

/* A value out of range from `slot`: a cost, gain or bound. */
static void breach_value(struct guard *gd, const char *slot, ps_value v,
                         const char *range)
{
    breach_said(gd, "game %s: slot '%s' returned %lld, outside %s",
                gd->inner->name, slot, (long long)v, range);
}

static bool in_range(ps_value v, bool nonnegative)
{
    return v <= PS_VALUE_LIMIT && v >= (nonnegative ? 0 : -PS_VALUE_LIMIT);
}

/* ---- the moves buffers, one per thread (moves() may run in parallel) ---- */

struct scratch {
    size_t cap;
    ps_move *moves;
    ps_value *gains, *bounds;
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *p)
{
    struct scratch *s = p;
    free(s->moves);
    free(s->gains);
    free(s->bounds);
    free(s);
}

static void scratch_make_key(void)
{
    (void)pthread_key_create(&scratch_key, scratch_free);
}

/* This thread's buffers, room for `cap` entries; NULL when out of memory. */
static struct scratch *scratch_get(size_t cap)
{
    pthread_once(&scratch_once, scratch_make_key);
    struct scratch *s = pthread_getspecific(scratch_key);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s || pthread_setspecific(scratch_key, s) != 0) {
            free(s);
            return NULL;
        }
    }
    if (s->cap < cap) {
        free(s->moves), free(s->gains), free(s->bounds);
        s->moves = malloc(cap * sizeof *s->moves);
        s->gains = malloc(cap * sizeof *s->gains);
        s->bounds = malloc(cap * sizeof *s->bounds);
        s->cap = s->moves && s->gains && s->bounds ? cap : 0;
        if (!s->cap)
            return NULL;
    }
    return s;
}

/* ---- the guarded slots ---- */

/* An instance's sizes, checked once when it is loaded (they are constant
 * for an instance: arrays are sized by them). */
static bool sizes_ok(struct guard *gd, const void *inst, struct ps_error *err)
{
    const struct ps_game *g = gd->inner;
    size_t size = g->state_size(inst);
    if (size == 0 || size > GUARD_MAX_STATE)
        return ps_error_set(err, gd->path, 0, 0,
                            "game %s: slot 'state_size' returned %zu (must be "
                            "1..%zu bytes)",
                            g->name, size, GUARD_MAX_STATE);
    int moves = g->max_moves(inst);
    if (moves < 1 || moves > GUARD_MAX_COUNT)
        return ps_error_set(err, gd->path, 0, 0,
                            "game %s: slot 'max_moves' returned %d (must be "
                            "1..%d)",
                            g->name, moves, GUARD_MAX_COUNT);
    int depth = g->max_depth(inst);
    if (depth < 1 || depth > GUARD_MAX_COUNT)
        return ps_error_set(err, gd->path, 0, 0,
                            "game %s: slot 'max_depth' returned %d (must be "
                            "1..%d)",
                            g->name, depth, GUARD_MAX_COUNT);
    return true;
}

static void *guarded_load(struct guard *gd, const void *rules, const char *path,
                          const char *text, size_t len, struct ps_error *err)
{
    const struct ps_game *g = gd->inner;
    ps_error_clear(err);
    void *inst = g->load(rules, path, text, len, err);
    if (!inst) {
        if (!err->msg[0]) /* the contract: a failed load says why */
            ps_error_set(err, path, 0, 0,
                         "game %s (plug-in %s): slot 'load' failed without a "
                         "message",
                         g->name, gd->path);
        return NULL;
    }
    if (!sizes_ok(gd, inst, err)) {
        g->free_instance(inst);
        return NULL;
    }
    return inst;
}

static int guarded_moves(struct guard *gd, const void *inst, const void *state,
                         ps_move *moves, ps_value *gains,
                         ps_value *child_bounds)
{
    const struct ps_game *g = gd->inner;
    int max = g->max_moves(inst);
    struct scratch *s = scratch_get((size_t)max + GUARD_SLACK);
    if (!s) {
        breach(gd, child_bounds ? "bounded_moves" : "moves",
               "psolve is out of memory for max_moves", 0, max);
        return 0;
    }
    const char *slot = child_bounds ? "bounded_moves" : "moves";
    int n = child_bounds
                ? g->bounded_moves(inst, state, s->moves,
                                   gains ? s->gains : NULL, s->bounds)
                : g->moves(inst, state, s->moves, gains ? s->gains : NULL);
    /* On a breach the position has no move (a harmless answer) and
     * fault() says why: the driver stops the search with that error. */
    if (n < 0 || n > max) {
        breach(gd, slot, "max_moves is", n, max);
        n = 0;
    }
    memcpy(moves, s->moves, (size_t)n * sizeof *moves);
    if (gains)
        memcpy(gains, s->gains, (size_t)n * sizeof *gains);
    if (child_bounds)
        memcpy(child_bounds, s->bounds, (size_t)n * sizeof *child_bounds);
    return n;
}

/* A cost game's step costs and estimates are at least 0; every value is
 * within PS_VALUE_LIMIT, so that sums of them cannot overflow. On a breach
 * the slot answers 0 and fault() stops the search. */
static ps_value guarded_apply(struct guard *gd, const void *inst,
                              const void *state, ps_move m, void *out)
{
    ps_value v = gd->inner->apply(inst, state, m, out);
    bool cost = !(ps_game_flags(gd->inner, inst) & PS_MAXIMISE);
    if (!in_range(v, cost)) {
        breach_value(gd, "apply", v, cost ? "0..2^48 (a cost)" : "-2^48..2^48");
        return 0;
    }
    return v;
}

static ps_value guarded_estimate(struct guard *gd, const char *slot,
                                 ps_value v)
{
    if (!in_range(v, true)) {
        breach_value(gd, slot, v, "0..2^48");
        return 0;
    }
    return v;
}

/* Floors are estimates of a cost: each in 0..2^48, or all become 0 (no
 * cut) and fault() stops the search. */
static void guarded_floors(struct guard *gd, const void *inst,
                           const void *state, const ps_move *moves, int n,
                           ps_value *floor)
{
    gd->inner->child_floors(inst, state, moves, n, floor);
    for (int i = 0; i < n; i++)
        if (!in_range(floor[i], true)) {
            breach_value(gd, "child_floors", floor[i], "0..2^48");
            memset(floor, 0, (size_t)n * sizeof *floor);
            return;
        }
}

static enum ps_fault guarded_fault(struct guard *gd, const void *inst,
                                   struct ps_error *err)
{
    if (atomic_load(&gd->broken)) {
        if (err)
            ps_error_set(err, gd->path, 0, 0, "%s", gd->why);
        return PS_FAULT_ERROR;
    }
    return gd->inner->fault ? gd->inner->fault(inst, err) : PS_FAULT_NONE;
}

/* One set of slots per guard: the vtable's slots take no context, so the
 * k-th set knows its guard by its number. */
#define GUARD_SLOTS(k)                                                         \
    static void *load_##k(const void *r, const char *p, const char *t,         \
                          size_t l, struct ps_error *e)                        \
    {                                                                          \
        return guarded_load(&guards[k], r, p, t, l, e);                        \
    }                                                                          \
    static int moves_##k(const void *i, const void *s, ps_move *m,             \
                         ps_value *g)                                          \
    {                                                                          \
        return guarded_moves(&guards[k], i, s, m, g, NULL);                    \
    }                                                                          \
    static int bounded_##k(const void *i, const void *s, ps_move *m,           \
                           ps_value *g, ps_value *b)                           \
    {                                                                          \
        return guarded_moves(&guards[k], i, s, m, g, b);                       \
    }                                                                          \
    static enum ps_fault fault_##k(const void *i, struct ps_error *e)          \
    {                                                                          \
        return guarded_fault(&guards[k], i, e);                                \
    }                                                                          \
    static ps_value apply_##k(const void *i, const void *s, ps_move m,        \
                              void *o)                                         \
    {                                                                          \
        return guarded_apply(&guards[k], i, s, m, o);                          \
    }                                                                          \
    static ps_value heuristic_##k(const void *i, const void *s)               \
    {                                                                          \
        return guarded_estimate(&guards[k], "heuristic",                       \
                                guards[k].inner->heuristic(i, s));             \
    }                                                                          \
    static ps_value upper_##k(const void *i, const void *s)                   \
    {                                                                          \
        return guarded_estimate(&guards[k], "upper_bound",                     \
                                guards[k].inner->upper_bound(i, s));           \
    }                                                                          \
    static void floors_##k(const void *i, const void *s, const ps_move *m,    \
                           int n, ps_value *f)                                 \
    {                                                                          \
        guarded_floors(&guards[k], i, s, m, n, f);                             \
    }
GUARD_SLOTS(0) GUARD_SLOTS(1) GUARD_SLOTS(2) GUARD_SLOTS(3)
GUARD_SLOTS(4) GUARD_SLOTS(5) GUARD_SLOTS(6) GUARD_SLOTS(7)
GUARD_SLOTS(8) GUARD_SLOTS(9) GUARD_SLOTS(10) GUARD_SLOTS(11)
GUARD_SLOTS(12) GUARD_SLOTS(13) GUARD_SLOTS(14) GUARD_SLOTS(15)
#undef GUARD_SLOTS

#define SLOTS(k)                                                               \
    {load_##k, moves_##k, bounded_##k, fault_##k, apply_##k, heuristic_##k,    \
     upper_##k, floors_##k}
static const struct {
    void *(*load)(const void *, const char *, const char *, size_t,
                  struct ps_error *);
    int (*moves)(const void *, const void *, ps_move *, ps_value *);
    int (*bounded)(const void *, const void *, ps_move *, ps_value *,
                   ps_value *);
    enum ps_fault (*fault)(const void *, struct ps_error *);
    ps_value (*apply)(const void *, const void *, ps_move, void *);
    ps_value (*heuristic)(const void *, const void *);
    ps_value (*upper_bound)(const void *, const void *);
    void (*child_floors)(const void *, const void *, const ps_move *, int,
                         ps_value *);
} slots[] = {
    SLOTS(0), SLOTS(1), SLOTS(2),  SLOTS(3),  SLOTS(4),  SLOTS(5),
    SLOTS(6), SLOTS(7), SLOTS(8),  SLOTS(9),  SLOTS(10), SLOTS(11),
    SLOTS(12), SLOTS(13), SLOTS(14), SLOTS(15),
};
#undef SLOTS
_Static_assert(sizeof slots / sizeof slots[0] == PS_MAX_ADDED_GAMES,
               "one set of guarded slots per added game");

const struct ps_game *ps_plugin_guard(const struct ps_game *g,
                                      const char *path, struct ps_error *err)
{
    for (int k = 0; k < used_guards; k++)
        if (guards[k].inner == g)
            return &guards[k].game; /* loaded twice: the same game */
    if (used_guards == PS_MAX_ADDED_GAMES) {
        ps_error_set(err, path, 0, 0, "game %s: too many added games (at most "
                     "%d)", g->name, PS_MAX_ADDED_GAMES);
        return NULL;
    }
    int k = used_guards++;
    struct guard *gd = &guards[k];
    gd->inner = g;
    snprintf(gd->path, sizeof gd->path, "%s", path);
    gd->game = *g;
    gd->game.load = slots[k].load;
    gd->game.moves = slots[k].moves;
    gd->game.bounded_moves = g->bounded_moves ? slots[k].bounded : NULL;
    gd->game.fault = slots[k].fault;
    gd->game.apply = slots[k].apply;
    gd->game.heuristic = g->heuristic ? slots[k].heuristic : NULL;
    gd->game.upper_bound = g->upper_bound ? slots[k].upper_bound : NULL;
    gd->game.child_floors = g->child_floors ? slots[k].child_floors : NULL;
    return &gd->game;
}
