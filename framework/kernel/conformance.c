/*
 * conformance.c - the conformance check of a game (conformance.h): a
 * random walk with every promise of the vtable checked on every state.
 */
#include "conformance.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "replay.h"
#include "rng.h"

/* States met on one walk, to check that equal states hash equal whichever
 * path reached them. */
#define SEEN_MAX 128

struct walk {
    const struct ps_game *g;
    const void *inst;
    const void *rules;
    size_t size;
    int max_moves;
    bool maximise;
    unsigned char *seen; /* SEEN_MAX states, then one scratch state */
    uint64_t seen_hash[SEEN_MAX];
    uint64_t seen_print[SEEN_MAX]; /* a hash of each one's print_state */
    int nseen;
    struct ps_error *err;
};

/* Record the first broken promise; always false. */
static bool broken(struct walk *w, const char *fmt, ...) PS_PRINTF(2, 3);
static bool broken(struct walk *w, const char *fmt, ...)
{
    char msg[sizeof w->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ps_error_set(w->err, NULL, 0, 0, "game %s: %s", w->g->name, msg);
}

static char *printed(const struct ps_game *g, const void *inst,
                     const void *state, size_t *len);

/* A hash of print_state's text of a state. */
static uint64_t print_hash(struct walk *w, const unsigned char *state)
{
    size_t len = 0;
    char *text = printed(w->g, w->inst, state, &len);
    uint64_t h = text ? ps_hash_bytes(text, len) : 0;
    free(text);
    return h;
}

/* Two states have one key (key_size, state_key) exactly when they are
 * equal: a key that merges two states would make dfs's table take one for
 * the other. */
static bool keys_agree(struct walk *w, const unsigned char *a,
                       const unsigned char *b, bool equal)
{
    size_t n = ps_game_key_size(w->g, w->inst);
    if (!n)
        return true;
    unsigned char *ka = calloc(2, n);
    if (!ka)
        return true; /* nothing to check with */
    w->g->state_key(w->inst, a, ka);
    w->g->state_key(w->inst, b, ka + n);
    bool same = memcmp(ka, ka + n, n) == 0;
    free(ka);
    if (same == equal)
        return true;
    return broken(w, equal ? "two equal states have different keys "
                             "(state_key)"
                           : "two different states have one key (state_key)");
}

/* Equal states hash equal and share a key; unequal ones print differently
 * (a print that leaves out part of the position cannot load back as that
 * position). */
static bool remember(struct walk *w, const unsigned char *state)
{
    uint64_t h = w->g->hash(w->inst, state), p = print_hash(w, state);
    unsigned char *copy = w->seen + (size_t)SEEN_MAX * w->size;
    memcpy(copy, state, w->size);
    if (w->g->hash(w->inst, copy) != h)
        return broken(w, "a copy of a state hashes differently");
    if (!keys_agree(w, copy, state, true))
        return false;
    for (int i = 0; i < w->nseen; i++) {
        const unsigned char *seen = w->seen + (size_t)i * w->size;
        bool equal = ps_game_equal(w->g, w->inst, seen, state);
        if (equal && w->seen_hash[i] != h)
            return broken(w, "two equal states hash differently (%llx, %llx)",
                          (unsigned long long)w->seen_hash[i],
                          (unsigned long long)h);
        if (!equal && w->seen_print[i] == p)
            return broken(w, "print_state() prints two different positions "
                             "alike (a printed state must load as itself)");
        if (!keys_agree(w, seen, state, equal))
            return false;
    }
    if (w->nseen < SEEN_MAX) {
        memcpy(w->seen + (size_t)w->nseen * w->size, state, w->size);
        w->seen_print[w->nseen] = p;
        w->seen_hash[w->nseen++] = h;
    }
    return true;
}

/* apply() into a buffer of 0x00 and one of 0xff: the same successor (by
 * bytes, or by equal() for a game that canonicalises) and the same value,
 * in *v. */
static bool apply_twice(struct walk *w, const unsigned char *state, ps_move m,
                        unsigned char *out, unsigned char *dirty, ps_value *v)
{
    memset(out, 0, w->size);
    memset(dirty, 0xff, w->size);
    *v = w->g->apply(w->inst, state, m, out);
    ps_value v2 = w->g->apply(w->inst, state, m, dirty);
    if (*v != v2)
        return broken(w, "apply() of one move returned %lld, then %lld",
                      (long long)*v, (long long)v2);
    if (!w->g->equal && memcmp(out, dirty, w->size) != 0)
        return broken(w, "apply() leaves bytes of the successor unwritten "
                         "(state bytes must be canonical: zero the padding)");
    if (!ps_game_equal(w->g, w->inst, out, dirty))
        return broken(w, "apply() of one move gave two unequal successors");
    if (w->g->hash(w->inst, out) != w->g->hash(w->inst, dirty))
        return broken(w, "one successor, two hashes (dirty buffer)");
    return true;
}

/* The move text round trip: format, parse, same successor, same value. */
static bool move_text(struct walk *w, const unsigned char *state, ps_move m,
                      ps_value v, const unsigned char *succ,
                      unsigned char *tmp, unsigned char *dirty)
{
    char text[64], about[128];
    text[0] = '\0';
    w->g->format_move(w->inst, state, m, text, sizeof text);
    if (w->g->describe_move)
        w->g->describe_move(w->inst, state, m, about, sizeof about);
    struct ps_error err;
    ps_error_clear(&err);
    ps_move back;
    if (!w->g->parse_move(w->inst, state, text, &back, &err))
        return broken(w, "move %u prints as '%s', which does not parse: %s",
                      (unsigned)m, text, err.msg);
    ps_value v2;
    if (!apply_twice(w, state, back, tmp, dirty, &v2))
        return false;
    if (v2 != v || !ps_game_equal(w->g, w->inst, succ, tmp))
        return broken(w, "move '%s' parsed back reaches another successor "
                         "(value %lld, then %lld)",
                      text, (long long)v, (long long)v2);
    return true;
}

/* The move `text` names in `state` (text forms name moves the same way in
 * every state, while move values may not). */
static bool parse_in(struct walk *w, const unsigned char *state,
                     const char *text, ps_move *m)
{
    struct ps_error err;
    ps_error_clear(&err);
    if (!w->g->parse_move(w->inst, state, text, m, &err))
        return broken(w, "redundant_after skips a move whose other order is "
                         "not playable: '%s': %s", text, err.msg);
    return true;
}

/* redundant_after(before, first, after, second): playing second first from
 * before, then first, must reach the same state at the same value. */
static bool redundant(struct walk *w, const unsigned char *before,
                      ps_move first, ps_value v_first,
                      const unsigned char *after, ps_move *moves,
                      unsigned char *buf)
{
    if (!w->g->redundant_after)
        return true;
    unsigned char *a = buf, *b = buf + w->size, *c = buf + 2 * w->size;
    unsigned char *dirty = buf + 3 * w->size;
    char first_text[64], second_text[64];
    first_text[0] = '\0';
    w->g->format_move(w->inst, before, first, first_text, sizeof first_text);
    int n = w->g->moves(w->inst, after, moves, NULL);
    for (int i = 0; i < n; i++) {
        ps_move second = moves[i], m;
        if (!w->g->redundant_after(w->inst, before, first, after, second))
            continue;
        ps_value v1, v2, v3;
        second_text[0] = '\0';
        w->g->format_move(w->inst, after, second, second_text,
                          sizeof second_text);
        if (!apply_twice(w, after, second, a, dirty, &v1) ||
            !parse_in(w, before, second_text, &m) ||
            !apply_twice(w, before, m, b, dirty, &v2) ||
            !parse_in(w, b, first_text, &m) ||
            !apply_twice(w, b, m, c, dirty, &v3))
            return false;
        if (v_first + v1 != v2 + v3 || !ps_game_equal(w->g, w->inst, a, c))
            return broken(w, "redundant_after skips '%s' after '%s', but the "
                             "other order reaches another state or value",
                          second_text, first_text);
    }
    return true;
}

/* print_state() to a string (NULL when out of memory). */
static char *printed(const struct ps_game *g, const void *inst,
                     const void *state, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (!out)
        return NULL;
    g->print_state(inst, state, out, false);
    fclose(out);
    return text;
}

/* print_state writes a file that loads back into a puzzle that prints the
 * same. Bytes cannot be compared: a game may lay its state out by the
 * instance (SameGame keeps a count per colour up to the largest on the
 * board), and a game with its own equal() may number things (Water Sort's
 * colours) in the order the file shows them. */
static bool print_load(struct walk *w, const unsigned char *state)
{
    size_t len = 0, len2 = 0;
    char *text = printed(w->g, w->inst, state, &len), *text2 = NULL;
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = text ? w->g->load(w->rules, "printed", text, len, &err)
                      : NULL;
    bool ok = inst != NULL;
    if (!ok && text)
        broken(w, "print_state() writes a file that does not load: "
                  "%d:%d: %s\n%s", err.line, err.col, err.msg, text);
    else if (!ok)
        broken(w, "out of memory");
    unsigned char *again = ok ? malloc(w->g->state_size(inst)) : NULL;
    if (ok && again) {
        w->g->initial_state(inst, again);
        text2 = printed(w->g, inst, again, &len2);
        if (!text2 || len2 != len || memcmp(text, text2, len) != 0)
            ok = broken(w, "print_state() writes a file that loads as a "
                           "puzzle that prints otherwise\n%s---\n%s",
                        text, text2 ? text2 : "");
    } else if (ok) {
        ok = broken(w, "out of memory");
    }
    free(again);
    free(text2);
    if (inst)
        w->g->free_instance(inst);
    free(text);
    return ok;
}

/* The optional slots read per state: facts, evaluate_moves. */
static bool state_slots(struct walk *w, const unsigned char *state,
                        const ps_move *moves, int n, unsigned char *child)
{
    if (w->g->facts) {
        struct ps_fact facts[16];
        int nf = w->g->facts(w->inst, state, facts, 16);
        if (nf < 0 || nf > 16)
            return broken(w, "facts() returned %d of at most 16", nf);
    }
    if (!w->g->evaluate_moves || !w->g->evaluate || n == 0)
        return true;
    ps_value *out = malloc((size_t)n * sizeof *out);
    if (!out)
        return broken(w, "out of memory");
    w->g->evaluate_moves(w->inst, state, moves, n, out);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        w->g->apply(w->inst, state, moves[i], child);
        if (out[i] != w->g->evaluate(w->inst, child))
            ok = broken(w, "evaluate_moves() gives %lld for move %u, "
                           "evaluate() of the child %lld",
                        (long long)out[i], (unsigned)moves[i],
                        (long long)w->g->evaluate(w->inst, child));
    }
    free(out);
    return ok;
}

/* Every listed move of `cur`: legal, gain as listed, text round trip,
 * successor remembered. */
static bool each_move(struct walk *w, const unsigned char *cur,
                      const ps_move *moves, const ps_value *gains, int n,
                      unsigned char *buf)
{
    unsigned char *succ = buf, *tmp = buf + w->size;
    unsigned char *dirty = buf + 2 * w->size;
    for (int i = 0; i < n; i++) {
        ps_value v;
        if (w->g->legal && !w->g->legal(w->inst, cur, moves[i]))
            return broken(w, "legal() refuses move %u that moves() lists",
                          (unsigned)moves[i]);
        if (!apply_twice(w, cur, moves[i], succ, dirty, &v))
            return false;
        if (v != gains[i])
            return broken(w, "moves() says move %u gains %lld, apply() %lld",
                          (unsigned)moves[i], (long long)gains[i],
                          (long long)v);
        if (!w->maximise && v < 0)
            return broken(w, "a move costs %lld < 0", (long long)v);
        if (!move_text(w, cur, moves[i], v, succ, tmp, dirty) ||
            !remember(w, succ))
            return false;
    }
    return true;
}

/* The walk's line as verify sees it: replayed from the start, the same
 * final state and value; printed as a solution file, the same moves. */
static bool replayed(struct walk *w, const ps_move *line, int len,
                     ps_value value, const unsigned char *final,
                     unsigned char *buf)
{
    struct ps_replay res;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_replay_moves(w->g, w->inst, line, len, buf, &res, &err))
        return broken(w, "verify's replay refuses the walk's move %d: %s",
                      res.len + 1, err.msg);
    ps_value end = w->maximise && res.over && w->g->end_value
                       ? w->g->end_value(w->inst, final)
                       : 0;
    if (res.value != value + end || !ps_game_equal(w->g, w->inst, buf, final))
        return broken(w, "verify's replay of the walk reaches another state "
                         "or value (%lld, the walk %lld)",
                      (long long)res.value, (long long)(value + end));
    char *text = NULL;
    size_t tlen = 0;
    FILE *out = open_memstream(&text, &tlen);
    if (!out)
        return broken(w, "out of memory");
    ps_print_moves(out, w->g, w->inst, line, len);
    fclose(out);
    ps_move *back = NULL;
    int n = 0;
    bool ok = ps_read_solution(w->g, w->inst, "walk", text, tlen, &back, &n,
                               &err);
    if (!ok)
        broken(w, "the walk's solution file does not read back: %d:%d: %s",
               err.line, err.col, err.msg);
    else if (n != len || (n && memcmp(back, line, (size_t)n * sizeof *line)))
        ok = broken(w, "the walk's solution file reads back as other moves");
    free(back);
    free(text);
    return ok;
}

struct walk_buffers {
    ps_move *moves, *plain, *line;
    ps_value *gains;
    unsigned char *buf; /* cur, next, then 7 scratch states */
};

static bool buffers_new(struct walk *w, struct walk_buffers *b, int depth)
{
    size_t nm = (size_t)w->max_moves + 1;
    b->moves = malloc(nm * sizeof *b->moves);
    b->plain = malloc(nm * sizeof *b->plain);
    b->line = malloc(((size_t)depth + 1) * sizeof *b->line);
    b->gains = malloc(nm * sizeof *b->gains);
    b->buf = malloc(9 * w->size);
    w->seen = malloc(((size_t)SEEN_MAX + 1) * w->size);
    return b->moves && b->plain && b->line && b->gains && b->buf && w->seen;
}

static void buffers_free(struct walk *w, struct walk_buffers *b)
{
    free(b->moves);
    free(b->plain);
    free(b->line);
    free(b->gains);
    free(b->buf);
    free(w->seen);
}

/* One state of the walk: its checks, then its moves' (n: how many). */
static bool one_state(struct walk *w, struct walk_buffers *b,
                      const unsigned char *cur, int step, int max_depth,
                      int *n)
{
    if (!print_load(w, cur))
        return false;
    *n = w->g->moves(w->inst, cur, b->moves, b->gains);
    if (*n < 0 || *n > w->max_moves)
        return broken(w, "moves() listed %d moves, max_moves() is %d", *n,
                      w->max_moves);
    if (w->g->moves(w->inst, cur, b->plain, NULL) != *n ||
        (*n && memcmp(b->plain, b->moves, (size_t)*n * sizeof *b->moves)))
        return broken(w, "moves() lists other moves when gains are not asked");
    if (w->maximise && *n > 0 && step >= max_depth)
        return broken(w, "a score game longer than max_depth() = %d",
                      max_depth);
    return state_slots(w, cur, b->moves, *n, b->buf + 2 * w->size) &&
           each_move(w, cur, b->moves, b->gains, *n, b->buf + 2 * w->size);
}

bool ps_game_conforms(const struct ps_game *g, const void *rules,
                      const void *inst, int steps, uint64_t seed,
                      struct ps_error *err)
{
    struct walk w = {.g = g, .inst = inst, .rules = rules, .err = err};
    w.size = g->state_size(inst);
    w.max_moves = g->max_moves(inst);
    w.maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    int max_depth = g->max_depth(inst);
    if (w.size == 0 || w.max_moves < 0 || max_depth < 0)
        return broken(&w, "state_size %zu, max_moves %d, max_depth %d",
                      w.size, w.max_moves, max_depth);
    struct walk_buffers b;
    bool ok = buffers_new(&w, &b, max_depth) || broken(&w, "out of memory");
    unsigned char *cur = b.buf, *next = b.buf + w.size;
    struct ps_rng rng;
    ps_rng_seed(&rng, seed);
    int len = 0;
    ps_value value = 0;
    if (ok) {
        memset(cur, 0, w.size);
        g->initial_state(inst, cur);
        ok = remember(&w, cur);
    }
    for (int step = 0, n = 0; ok; step++) {
        ok = one_state(&w, &b, cur, step, max_depth, &n);
        if (!ok || (!w.maximise && g->is_goal(inst, cur)) || n == 0 ||
            step >= steps || len >= max_depth)
            break;
        ps_move m = b.moves[ps_rng_below(&rng, (uint32_t)n)];
        ps_value v;
        ok = apply_twice(&w, cur, m, next, b.buf + 2 * w.size, &v) &&
             redundant(&w, cur, m, v, next, b.plain, b.buf + 3 * w.size);
        b.line[len++] = m;
        value += v;
        unsigned char *t = cur;
        cur = next;
        next = t;
    }
    if (ok)
        ok = replayed(&w, b.line, len, value, cur, b.buf + 2 * w.size);
    buffers_free(&w, &b);
    return ok;
}
