/*
 * fuzz_support.c - what the libFuzzer harnesses share (fuzz_support.h):
 * picking a game and rules from a byte, and the vtable oracles.
 */
#include "fuzz_support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "rng.h"
#include "textfile.h"

static const char *const fuzz_games[] = {"samegame", "watersort", "npuzzle"};

void fuzz_pick(uint8_t byte, struct fuzz_pick *p)
{
    int ngames = (int)(sizeof fuzz_games / sizeof *fuzz_games);
    p->game = ps_game_find(fuzz_games[byte % ngames]);
    if (!p->game)
        fuzz_fail(NULL, "game %s is not registered", fuzz_games[byte % ngames]);
    int npresets = 0;
    for (const struct ps_preset *q = p->game->presets; q && q->name; q++)
        npresets++;
    int k = (byte / ngames) % (npresets + 1);
    p->preset = k ? p->game->presets[k - 1].name : NULL;
    size_t size = p->game->rules_size ? p->game->rules_size : 1;
    p->rules = calloc(1, size);
    struct ps_error err;
    ps_error_clear(&err);
    if (!p->rules || !ps_rules_preset(p->game, p->rules, p->preset, &err))
        fuzz_fail(p->game, "preset %s: %s", p->preset ? p->preset : "(default)",
                  err.msg);
}

void fuzz_pick_free(struct fuzz_pick *p)
{
    free(p->rules);
    p->rules = NULL;
}

void *fuzz_load(uint8_t byte, const void *file, size_t size,
                struct fuzz_pick *p)
{
    char *text;
    size_t len;
    p->rules = NULL;
    if (!fuzz_text("puzzle.txt", file, size, &text, &len))
        return NULL;
    fuzz_pick(byte, p);
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = p->game->load(p->rules, "fuzz", text, len, &err);
    free(text);
    if (!inst) {
        if (err.msg[0] == '\0')
            fuzz_fail(p->game, "load() failed without a message");
        fuzz_pick_free(p);
    }
    return inst;
}

void fuzz_fail(const struct ps_game *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nfuzz oracle failed (%s): ", g ? g->name : "-");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* The temporary files of this process, removed at exit. */
#define FUZZ_FILES_MAX 8
static char fuzz_paths[FUZZ_FILES_MAX][512];
static int fuzz_npaths;

static void fuzz_remove_files(void)
{
    for (int i = 0; i < fuzz_npaths; i++)
        unlink(fuzz_paths[i]);
}

const char *fuzz_file(const char *name, const void *data, size_t size)
{
    int i = 0;
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/psolve-fuzz-%ld-%s",
             dir && dir[0] ? dir : "/tmp", (long)getpid(), name);
    while (i < fuzz_npaths && strcmp(fuzz_paths[i], path) != 0)
        i++;
    if (i == fuzz_npaths) {
        if (fuzz_npaths == FUZZ_FILES_MAX)
            fuzz_fail(NULL, "more than %d temporary files", FUZZ_FILES_MAX);
        if (fuzz_npaths == 0)
            atexit(fuzz_remove_files);
        snprintf(fuzz_paths[fuzz_npaths++], sizeof path, "%s", path);
    }
    FILE *f = fopen(fuzz_paths[i], "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        fuzz_fail(NULL, "cannot write %s", fuzz_paths[i]);
    return fuzz_paths[i];
}

bool fuzz_text(const char *name, const void *data, size_t size, char **text,
               size_t *len)
{
    struct ps_error err;
    ps_error_clear(&err);
    return ps_read_text_file(fuzz_file(name, data, size), text, len, &err);
}

uint64_t fuzz_seed(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211ull;
    return h;
}

/* States met on one walk, to check that equal states hash equal whichever
 * path reached them. */
#define FUZZ_SEEN_MAX 128

struct walk {
    const struct ps_game *g;
    const void *inst;
    size_t size;
    int max_moves;
    bool maximise;
    FILE *sink; /* print_state writes here (/dev/null) */
    unsigned char *seen;
    uint64_t seen_hash[FUZZ_SEEN_MAX];
    int nseen;
};

static void walk_remember(struct walk *w, const unsigned char *state)
{
    uint64_t h = w->g->hash(w->inst, state);
    unsigned char *copy = w->seen + (size_t)FUZZ_SEEN_MAX * w->size;
    memcpy(copy, state, w->size);
    if (w->g->hash(w->inst, copy) != h)
        fuzz_fail(w->g, "a copy of a state hashes differently");
    for (int i = 0; i < w->nseen; i++)
        if (ps_game_equal(w->g, w->inst, w->seen + (size_t)i * w->size, state) &&
            w->seen_hash[i] != h)
            fuzz_fail(w->g, "two equal states hash differently (%llx, %llx)",
                      (unsigned long long)w->seen_hash[i],
                      (unsigned long long)h);
    if (w->nseen < FUZZ_SEEN_MAX) {
        memcpy(w->seen + (size_t)w->nseen * w->size, state, w->size);
        w->seen_hash[w->nseen++] = h;
    }
}

/* apply() into a buffer of 0x00 and one of 0xff: the same successor (by
 * bytes, or by equal() for a game that canonicalises) and the same value. */
static ps_value walk_apply(struct walk *w, const unsigned char *state,
                           ps_move m, unsigned char *out, unsigned char *dirty)
{
    memset(out, 0, w->size);
    memset(dirty, 0xff, w->size);
    ps_value v = w->g->apply(w->inst, state, m, out);
    ps_value v2 = w->g->apply(w->inst, state, m, dirty);
    if (v != v2)
        fuzz_fail(w->g, "apply() of one move returned %lld, then %lld",
                  (long long)v, (long long)v2);
    if (!w->g->equal && memcmp(out, dirty, w->size) != 0)
        fuzz_fail(w->g, "apply() leaves bytes of the successor unwritten "
                        "(states are not canonical)");
    if (!ps_game_equal(w->g, w->inst, out, dirty))
        fuzz_fail(w->g, "apply() of one move gave two unequal successors");
    if (w->g->hash(w->inst, out) != w->g->hash(w->inst, dirty))
        fuzz_fail(w->g, "one successor, two hashes (dirty buffer)");
    return v;
}

/* The move text round trip: format, parse, same successor, same value. */
static void walk_text(struct walk *w, const unsigned char *state, ps_move m,
                      ps_value v, const unsigned char *succ, unsigned char *tmp,
                      unsigned char *dirty)
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
        fuzz_fail(w->g, "move %u prints as '%s', which does not parse: %s",
                  (unsigned)m, text, err.msg);
    ps_value v2 = walk_apply(w, state, back, tmp, dirty);
    if (v2 != v || !ps_game_equal(w->g, w->inst, succ, tmp))
        fuzz_fail(w->g, "move '%s' parsed back reaches another successor "
                        "(value %lld, then %lld)", text, (long long)v,
                  (long long)v2);
}

/* The move `text` names in `state` (text forms name moves the same way in
 * every state, e.g. by the user's tube numbers, while move values may not). */
static ps_move walk_parse(struct walk *w, const unsigned char *state,
                          const char *text, const char *what)
{
    struct ps_error err;
    ps_error_clear(&err);
    ps_move m;
    if (!w->g->parse_move(w->inst, state, text, &m, &err))
        fuzz_fail(w->g, "redundant_after skips a move whose other order is "
                        "not playable: %s '%s': %s", what, text, err.msg);
    return m;
}

/* redundant_after(before, first, after, second): playing second first from
 * before, then first, must reach the same state at the same value. The
 * moves are carried over by their text. */
static void walk_redundant(struct walk *w, const unsigned char *before,
                           ps_move first, ps_value v_first,
                           const unsigned char *after, ps_move *moves,
                           unsigned char *buf)
{
    if (!w->g->redundant_after)
        return;
    unsigned char *a = buf, *b = buf + w->size, *c = buf + 2 * w->size;
    unsigned char *dirty = buf + 3 * w->size;
    char first_text[64], second_text[64];
    first_text[0] = '\0';
    w->g->format_move(w->inst, before, first, first_text, sizeof first_text);
    int n = w->g->moves(w->inst, after, moves, NULL);
    for (int i = 0; i < n; i++) {
        ps_move second = moves[i];
        if (!w->g->redundant_after(w->inst, before, first, after, second))
            continue;
        ps_value v1 = v_first + walk_apply(w, after, second, a, dirty);
        second_text[0] = '\0';
        w->g->format_move(w->inst, after, second, second_text,
                          sizeof second_text);
        ps_move second_first = walk_parse(w, before, second_text, "first");
        ps_value v2 = walk_apply(w, before, second_first, b, dirty);
        ps_move first_second = walk_parse(w, b, first_text, "then");
        v2 += walk_apply(w, b, first_second, c, dirty);
        if (v1 != v2 || !ps_game_equal(w->g, w->inst, a, c))
            fuzz_fail(w->g, "redundant_after skips '%s' after '%s', but the "
                            "other order reaches another state or value "
                            "(%lld, %lld)", second_text, first_text,
                      (long long)v1, (long long)v2);
    }
}

/* print_state writes a file that loads back into a board that prints the
 * same. */
static void walk_print(struct walk *w, const void *rules,
                       const unsigned char *state, unsigned char *back)
{
    w->g->print_state(w->inst, state, w->sink, true);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        fuzz_fail(w->g, "out of memory");
    w->g->print_state(w->inst, state, out, false);
    fclose(out);
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = w->g->load(rules, "printed", text, len, &err);
    if (!inst)
        fuzz_fail(w->g, "a printed state does not load: %d:%d: %s\n%s",
                  err.line, err.col, err.msg, text);
    /* The reloaded board must print the same text. Its bytes cannot be
     * compared: a game may lay its state out by the instance (SameGame keeps
     * a count per colour up to the largest on the board, and a printed state
     * may have lost colours), and a game with its own equal() may number
     * things (Water Sort's colours) in the order the file shows them. */
    size_t size = w->g->state_size(inst);
    unsigned char *again = size > w->size ? malloc(size) : back;
    if (!again)
        fuzz_fail(w->g, "out of memory");
    w->g->initial_state(inst, again);
    char *text2 = NULL;
    size_t len2 = 0;
    out = open_memstream(&text2, &len2);
    if (!out)
        fuzz_fail(w->g, "out of memory");
    w->g->print_state(inst, again, out, false);
    fclose(out);
    if (len2 != len || memcmp(text, text2, len) != 0)
        fuzz_fail(w->g, "a printed state loads as a board that prints "
                        "otherwise\n%s---\n%s", text, text2);
    free(text2);
    if (again != back)
        free(again);
    w->g->free_instance(inst);
    free(text);
}

void fuzz_check_game(const struct ps_game *g, const void *rules,
                     const void *inst, int steps, uint64_t seed)
{
    struct walk w = {.g = g, .inst = inst};
    w.size = g->state_size(inst);
    w.max_moves = g->max_moves(inst);
    w.maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    if (w.size == 0 || w.max_moves < 0)
        fuzz_fail(g, "state_size %zu, max_moves %d", w.size, w.max_moves);
    int max_depth = g->max_depth(inst);
    size_t nm = (size_t)w.max_moves + 1;
    ps_move *moves = malloc(nm * sizeof *moves);
    ps_move *plain = malloc(2 * nm * sizeof *plain);
    ps_value *gains = malloc(nm * sizeof *gains);
    /* cur, next, succ, tmp, dirty, then 4 for walk_redundant */
    unsigned char *buf = malloc(9 * w.size);
    w.seen = malloc(((size_t)FUZZ_SEEN_MAX + 1) * w.size);
    w.sink = fopen("/dev/null", "w");
    if (!moves || !plain || !gains || !buf || !w.seen || !w.sink)
        fuzz_fail(g, "out of memory");
    unsigned char *cur = buf, *next = buf + w.size, *succ = buf + 2 * w.size;
    unsigned char *tmp = buf + 3 * w.size, *dirty = buf + 4 * w.size;
    struct ps_rng rng;
    ps_rng_seed(&rng, seed);
    memset(cur, 0, w.size);
    g->initial_state(inst, cur);
    walk_remember(&w, cur);
    for (int step = 0;; step++) {
        walk_print(&w, rules, cur, tmp);
        if (g->facts) {
            struct ps_fact facts[16];
            int nf = g->facts(inst, cur, facts, 16);
            if (nf < 0 || nf > 16)
                fuzz_fail(g, "facts() returned %d of at most 16", nf);
        }
        int n = g->moves(inst, cur, moves, gains);
        if (n < 0 || n > w.max_moves)
            fuzz_fail(g, "moves() listed %d moves, max_moves() is %d", n,
                      w.max_moves);
        if (g->moves(inst, cur, plain, NULL) != n ||
            (n && memcmp(plain, moves, (size_t)n * sizeof *moves) != 0))
            fuzz_fail(g, "moves() lists other moves when gains are not asked");
        if (w.maximise && n > 0 && step >= max_depth)
            fuzz_fail(g, "a score game longer than max_depth() = %d", max_depth);
        if (!w.maximise && g->is_goal(inst, cur))
            break;
        if (n == 0 || step >= steps)
            break;
        for (int i = 0; i < n; i++) {
            if (g->legal && !g->legal(inst, cur, moves[i]))
                fuzz_fail(g, "legal() refuses move %u that moves() lists",
                          (unsigned)moves[i]);
            ps_value v = walk_apply(&w, cur, moves[i], succ, dirty);
            if (v != gains[i])
                fuzz_fail(g, "moves() says move %u gains %lld, apply() %lld",
                          (unsigned)moves[i], (long long)gains[i],
                          (long long)v);
            if (!w.maximise && v < 0)
                fuzz_fail(g, "a move costs %lld < 0", (long long)v);
            walk_text(&w, cur, moves[i], v, succ, tmp, dirty);
            walk_remember(&w, succ);
        }
        int pick = (int)ps_rng_below(&rng, (uint32_t)n);
        ps_value v = walk_apply(&w, cur, moves[pick], next, dirty);
        walk_redundant(&w, cur, moves[pick], v, next, plain, buf + 5 * w.size);
        unsigned char *t = cur;
        cur = next;
        next = t;
    }
    fclose(w.sink);
    free(moves);
    free(plain);
    free(gains);
    free(buf);
    free(w.seen);
}
