/*
 * checkpoint.c - --checkpoint and --resume (checkpoint.h): the parts the
 * algorithms hand over at their safe points, the file they go into
 * (savefile.h; the payload's layout is in docs/checkpoint.md), and the
 * checks that refuse a file written for another run.
 */
#include "checkpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "replay.h"
#include "savefile.h"
#include "search.h"

/* ---- bytes ---- */

void ps_ckpt_put(struct ps_ckpt_buf *b, const void *data, size_t n)
{
    if (b->failed || n == 0)
        return;
    if (n > SIZE_MAX / 2 - b->len) { /* the doubling below would wrap */
        b->failed = true;
        return;
    }
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

void ps_ckpt_put_u64(struct ps_ckpt_buf *b, uint64_t v)
{
    ps_ckpt_put(b, &v, sizeof v);
}

void ps_ckpt_put_f64(struct ps_ckpt_buf *b, double v)
{
    ps_ckpt_put(b, &v, sizeof v);
}

void ps_ckpt_put_rng(struct ps_ckpt_buf *b, const struct ps_rng *r)
{
    for (int i = 0; i < 4; i++)
        ps_ckpt_put_u64(b, r->s[i]);
}

void ps_ckpt_buf_free(struct ps_ckpt_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

bool ps_ckpt_get(struct ps_ckpt_reader *r, void *data, size_t n)
{
    if (r->bad || n > r->len - r->pos) {
        r->bad = true;
        memset(data, 0, n);
        return false;
    }
    memcpy(data, r->p + r->pos, n);
    r->pos += n;
    return true;
}

uint64_t ps_ckpt_get_u64(struct ps_ckpt_reader *r)
{
    uint64_t v;
    ps_ckpt_get(r, &v, sizeof v);
    return v;
}

double ps_ckpt_get_f64(struct ps_ckpt_reader *r)
{
    double v;
    ps_ckpt_get(r, &v, sizeof v);
    return v;
}

void ps_ckpt_get_rng(struct ps_ckpt_reader *r, struct ps_rng *rng)
{
    uint64_t any = 0;
    for (int i = 0; i < 4; i++)
        any |= rng->s[i] = ps_ckpt_get_u64(r);
    /* xoshiro never reaches the state of all zeros, where it stays: every
     * draw 0, and a rejection loop (ps_rng_below) that never ends */
    if (!any)
        r->bad = true;
}

uint64_t ps_ckpt_get_count(struct ps_ckpt_reader *r, uint64_t most)
{
    uint64_t n = ps_ckpt_get_u64(r);
    if (n > most) {
        r->bad = true;
        return 0;
    }
    return n;
}

const void *ps_ckpt_get_bytes(struct ps_ckpt_reader *r, size_t *n)
{
    /* what is left is measured after the count is read: measured before
     * (get_count(r, r->len - r->pos)), a count could run 8 bytes past the
     * end, and the next one's bound wrap around (fuzz_checkpoint: a hang) */
    uint64_t count = ps_ckpt_get_u64(r);
    *n = 0;
    if (r->bad || count > r->len - r->pos) {
        r->bad = true;
        return NULL;
    }
    const void *at = r->p + r->pos;
    *n = (size_t)count;
    r->pos += *n;
    return at;
}

/* A line: found, value, length, moves. */
static void put_line(struct ps_ckpt_buf *b, bool found, int64_t value,
                     const ps_move *moves, int len)
{
    ps_ckpt_put_u64(b, found);
    ps_ckpt_put_u64(b, (uint64_t)value);
    ps_ckpt_put_u64(b, (uint64_t)len);
    ps_ckpt_put(b, moves, (size_t)len * sizeof *moves);
}

/* A line back into a malloc'd array (*moves; NULL when empty). */
static void get_line(struct ps_ckpt_reader *r, bool *found, int64_t *value,
                     ps_move **moves, int *len)
{
    *found = ps_ckpt_get_u64(r) != 0;
    *value = (int64_t)ps_ckpt_get_u64(r);
    uint64_t n = ps_ckpt_get_u64(r);
    /* the moves must fit in what follows the count (ps_ckpt_get_bytes) */
    if (n > (r->len - r->pos) / sizeof(ps_move)) {
        r->bad = true;
        n = 0;
    }
    *len = (int)n;
    *moves = NULL;
    if (*len > 0 && (*moves = malloc((size_t)*len * sizeof **moves)))
        ps_ckpt_get(r, *moves, (size_t)*len * sizeof **moves);
    else if (*len > 0)
        r->bad = true;
}

/* The counters a resumed run goes on from (search.h's list: RESUMED, then
 * RESUMED_LAST); memory, peak memory and time are the new run's own. */
#define PUT(name, type, where, flag)                                           \
    if ((where) & (flag))                                                      \
        ps_ckpt_put_u64(b, (uint64_t)s->stats.name);
#define PUT_RESUMED(name, type, where, doc)                                    \
    PUT(name, type, where, PS_STAT_RESUMED)
#define PUT_RESUMED_LAST(name, type, where, doc)                               \
    PUT(name, type, where, PS_STAT_RESUMED_LAST)
#define GET(name, type, where, flag)                                           \
    if ((where) & (flag))                                                      \
        s->stats.name = (type)ps_ckpt_get_u64(r);
#define GET_RESUMED(name, type, where, doc)                                    \
    GET(name, type, where, PS_STAT_RESUMED)
#define GET_RESUMED_LAST(name, type, where, doc)                               \
    GET(name, type, where, PS_STAT_RESUMED_LAST)

void ps_ckpt_put_search(struct ps_ckpt_buf *b, const struct ps_search *s)
{
    PS_STATS(PUT_RESUMED)
    PS_STATS(PUT_RESUMED_LAST)
    put_line(b, s->best.found, s->best.value, s->best.moves, s->best.len);
}

bool ps_checkpoint_line_sound(const struct ps_search *s, const ps_move *moves,
                              int len, ps_value value, bool whole)
{
    if (len < 0 || len > s->game->max_depth(s->inst))
        return false;
    unsigned char *last = malloc(s->state_size ? s->state_size : 1);
    if (!last)
        return false;
    struct ps_replay res = {0};
    struct ps_error err;
    ps_error_clear(&err);
    bool sound = ps_replay_moves(s->game, s->inst, moves, len, last, &res,
                                 &err) &&
                 res.value == value && (res.over || !whole);
    free(last);
    return sound;
}

void ps_ckpt_get_search(struct ps_ckpt_reader *r, struct ps_search *s)
{
    PS_STATS(GET_RESUMED)
    PS_STATS(GET_RESUMED_LAST)
    bool found;
    int64_t value;
    ps_move *moves;
    int len;
    get_line(r, &found, &value, &moves, &len);
    /* the file's claim is replayed, never believed: a cost game's line
     * reaches the goal, a score game's may stop short (a partial line
     * is worth its gains) */
    bool whole = !(s->flags & PS_MAXIMISE);
    if (r->bad || (found ? !ps_checkpoint_line_sound(s, moves, len, value, whole)
                         : len != 0))
        r->bad = true;
    else if (found)
        ps_search_offer(s, moves, len, value);
    free(moves);
}

/* ---- the key ---- */

void ps_checkpoint_key(const struct ps_search *s, const struct ps_algorithm *a,
                       const char *rules, int threads, char *buf, size_t len)
{
    /* The start as it travels (ps_game_state_pack): its bytes, or its
     * value where the bytes are local (a Lua game's are an id, 1 for
     * every board). */
    unsigned char *start = calloc(1, s->state_size ? s->state_size : 1);
    uint64_t board = 0;
    if (start) {
        s->game->initial_state(s->inst, start);
        size_t n = ps_game_state_pack(s->game, s->inst, start, NULL, 0);
        unsigned char *packed = n ? malloc(n) : NULL;
        if (packed && ps_game_state_pack(s->game, s->inst, start, packed, n) == n)
            board = ps_hash_bytes(packed, n);
        free(packed);
        free(start);
    }
    char options[600] = "";
    size_t used = 0;
    struct ps_options opt = s->opt; /* a's own options, where they live */
    ps_algo_options_use(&opt, a);
    for (const struct ps_option *o = NULL; (o = ps_algorithm_next_option(a, o));) {
        char value[128];
        ps_option_format(o, ps_algorithm_option_base(a, o, &opt), value,
                         sizeof value);
        int n = snprintf(options + used, sizeof options - used, "%s=%s ",
                         o->name, value);
        if (n < 0 || (size_t)n >= sizeof options - used)
            break;
        used += (size_t)n;
    }
    char thr[32] = "";
    if (threads > 0)
        snprintf(thr, sizeof thr, " threads=%d", threads);
    snprintf(buf, len,
             "game %s\nboard %016llx\nrules %s\nalgorithm %s\noptions "
             "%sseed=%llu%s\n",
             s->game->name, (unsigned long long)board,
             rules && rules[0] ? rules : "-", a->name, options,
             (unsigned long long)s->opt.seed, thr);
}

/* The first line of `want` that `have` has otherwise: its word ("board")
 * and both values; false when they agree. */
static bool key_differs(const char *have, const char *want, char *word,
                        size_t wlen, char *hv, char *wv, size_t vlen)
{
    while (*have || *want) {
        size_t hn = strcspn(have, "\n"), wn = strcspn(want, "\n");
        if (hn != wn || memcmp(have, want, hn) != 0) {
            size_t k = strcspn(want, " \n");
            snprintf(word, wlen, "%.*s", (int)k, want);
            const char *hs = memchr(have, ' ', hn);
            const char *ws = memchr(want, ' ', wn);
            snprintf(hv, vlen, "%.*s", hs ? (int)(have + hn - hs - 1) : (int)hn,
                     hs ? hs + 1 : have);
            snprintf(wv, vlen, "%.*s", ws ? (int)(want + wn - ws - 1) : (int)wn,
                     ws ? ws + 1 : want);
            return true;
        }
        have += hn + (have[hn] == '\n');
        want += wn + (want[wn] == '\n');
    }
    return false;
}

/* ---- the file ---- */

void ps_checkpoint_init(struct ps_checkpoint *ck, const char *path,
                        double every, const char *key)
{
    memset(ck, 0, sizeof *ck);
    ck->path = path;
    ck->every = every > 0 ? every : PS_CHECKPOINT_EVERY;
    snprintf(ck->key, sizeof ck->key, "%s", key);
    pthread_mutex_init(&ck->lock, NULL);
    ps_error_clear(&ck->err);
}

void ps_checkpoint_free(struct ps_checkpoint *ck)
{
    for (int i = 0; i < PS_CHECKPOINT_MAX_PARTS; i++) {
        ps_ckpt_buf_free(&ck->part[i].state);
        free(ck->part[i].moves);
    }
    free(ck->best_moves);
    pthread_mutex_destroy(&ck->lock);
}

/* The payload: key text, elapsed seconds, the best line, the parts. */
static bool build_payload(struct ps_checkpoint *ck, double elapsed,
                          struct ps_ckpt_buf *b)
{
    size_t klen = strlen(ck->key);
    ps_ckpt_put_u64(b, klen);
    ps_ckpt_put(b, ck->key, klen);
    ps_ckpt_put_f64(b, elapsed);
    /* the best line of the parts, or the resumed file's when better */
    const struct ps_ckpt_part *best = NULL;
    for (int i = 0; i < ck->nparts; i++) {
        const struct ps_ckpt_part *p = &ck->part[i];
        if (p->found && (!best || (ck->maximise ? p->value > best->value
                                                : p->value < best->value)))
            best = p;
    }
    bool take_file = ck->best_found &&
                     (!best || (ck->maximise ? ck->best_value > best->value
                                             : ck->best_value < best->value));
    if (take_file)
        put_line(b, true, ck->best_value, ck->best_moves, ck->best_len);
    else if (best)
        put_line(b, true, best->value, best->moves, best->len);
    else
        put_line(b, false, 0, NULL, 0);
    ps_ckpt_put_u64(b, (uint64_t)ck->nparts);
    for (int i = 0; i < ck->nparts; i++) {
        ps_ckpt_put_u64(b, ck->part[i].state.len);
        ps_ckpt_put(b, ck->part[i].state.p, ck->part[i].state.len);
    }
    return !b->failed;
}

/* Write the file now (the lock is held); a failure is kept in ck->err
 * and said once on stderr, and the run goes on. */
static void write_file(struct ps_checkpoint *ck)
{
    if (!ck->path || ck->nparts == 0)
        return;
    for (int i = 0; i < ck->nparts; i++)
        if (!ck->part[i].set)
            return; /* a worker has not reached its first safe point */
    double now = ps_now();
    struct ps_ckpt_buf b = {0};
    struct ps_savefile_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, PS_CHECKPOINT_MAGIC, sizeof PS_CHECKPOINT_MAGIC - 1);
    h.format = PS_CHECKPOINT_FORMAT;
    snprintf(h.key, sizeof h.key, "%016llx",
             (unsigned long long)ps_hash_bytes(ck->key, strlen(ck->key)));
    struct ps_error err;
    ps_error_clear(&err);
    bool ok = build_payload(ck, ck->elapsed_before + (now - ck->started), &b);
    if (ok) {
        h.count = b.len;
        ok = ps_savefile_write(ck->path, &h, b.p, b.len, &err);
    } else {
        ps_error_set(&err, ck->path, 0, 0, "out of memory for the checkpoint");
    }
    ps_ckpt_buf_free(&b);
    ck->last_write = now;
    if (ok)
        return;
    if (!ck->write_failed) {
        char text[800];
        ps_error_format(&err, text, sizeof text);
        fprintf(stderr, "psolve: checkpoint: %s\n", text);
    }
    ck->write_failed = true;
    ck->err = err;
}

static bool refuse(struct ps_error *err, const char *path, const char *why)
{
    return ps_error_set(err, path, 0, 0, "cannot resume: this checkpoint %s",
                        why);
}

/* The payload of a sound file into ck: its key checked, the parts kept. */
static bool read_payload(struct ps_checkpoint *ck, struct ps_ckpt_reader *r,
                         struct ps_error *err)
{
    const char *path = ck->resumed;
    size_t klen = (size_t)ps_ckpt_get_count(r, r->len);
    char key[sizeof ck->key] = "";
    if (klen >= sizeof key || !ps_ckpt_get(r, key, klen))
        return refuse(err, path, "is corrupt (its key)");
    char word[32], have[300], want[300];
    if (key_differs(key, ck->key, word, sizeof word, have, want, sizeof have))
        return ps_error_set(err, path, 0, 0,
                            "cannot resume: this checkpoint is of another "
                            "run: its %s is '%s', this run's is '%s' (resume "
                            "with the command line that wrote it)",
                            word, have, want);
    ck->elapsed_before = ps_ckpt_get_f64(r);
    bool found;
    get_line(r, &found, &ck->best_value, &ck->best_moves, &ck->best_len);
    ck->best_found = found;
    ck->file_parts = (int)ps_ckpt_get_count(r, PS_CHECKPOINT_MAX_PARTS);
    for (int i = 0; i < ck->file_parts && !r->bad; i++) {
        size_t n;
        const void *bytes = ps_ckpt_get_bytes(r, &n);
        if (!bytes)
            break;
        struct ps_ckpt_buf *b = &ck->part[i].state;
        ps_ckpt_put(b, bytes, n);
        ck->part[i].set = !b->failed;
        if (b->failed)
            return ps_error_set(err, path, 0, 0, "out of memory");
    }
    if (r->bad || r->pos != r->len || ck->file_parts < 1)
        return refuse(err, path, "is corrupt (its parts)");
    return true;
}

bool ps_checkpoint_load(struct ps_checkpoint *ck, struct ps_error *err)
{
    const char *path = ck->resumed;
    struct ps_savefile_header h;
    void *data;
    uint64_t size;
    enum ps_savefile_status st = ps_savefile_read(
        path, PS_CHECKPOINT_MAGIC, PS_CHECKPOINT_FORMAT, &h, &data, &size);
    if (st == PS_SAVEFILE_FOREIGN)
        return refuse(err, path, "is not a psolve checkpoint");
    if (st == PS_SAVEFILE_VERSION)
        return ps_error_set(err, path, 0, 0,
                            "cannot resume: this checkpoint has format %u, "
                            "this psolve reads format %d",
                            (unsigned)h.format, PS_CHECKPOINT_FORMAT);
    if (st != PS_SAVEFILE_OK)
        return refuse(err, path, ps_savefile_status_text(st));
    bool ok;
    if (h.count != size)
        ok = refuse(err, path, "is truncated");
    else {
        struct ps_ckpt_reader r = {.p = data, .len = (size_t)size};
        ok = read_payload(ck, &r, err);
    }
    free(data);
    return ok;
}

/* ---- the driver's side ---- */

void ps_checkpoint_begin(struct ps_search *s)
{
    struct ps_checkpoint *ck = s->checkpoint;
    ck->started = ck->last_write = ps_now();
    ck->maximise = (s->flags & PS_MAXIMISE) != 0;
}

void ps_checkpoint_end(struct ps_search *s)
{
    struct ps_checkpoint *ck = s->checkpoint;
    if (ck->best_found && !ck->best_checked) /* no part was resumed */
        ck->best_found = ps_checkpoint_line_sound(
            s, ck->best_moves, ck->best_len, ck->best_value,
            !(s->flags & PS_MAXIMISE));
    if (ck->best_found)
        ps_search_offer(s, ck->best_moves, ck->best_len, ck->best_value);
    pthread_mutex_lock(&ck->lock);
    write_file(ck);
    pthread_mutex_unlock(&ck->lock);
}

/* ---- the algorithm's side ---- */

bool ps_checkpoint_resume(struct ps_search *s, int part, int nparts,
                          struct ps_ckpt_reader *r)
{
    struct ps_checkpoint *ck = s->checkpoint;
    if (!ck || part < 0 || part >= PS_CHECKPOINT_MAX_PARTS ||
        nparts > PS_CHECKPOINT_MAX_PARTS)
        return false;
    pthread_mutex_lock(&ck->lock);
    ck->nparts = nparts;
    if (ck->resumed && ck->best_found && !ck->best_checked) {
        ck->best_checked = true;
        ck->best_forged = !ps_checkpoint_line_sound(
            s, ck->best_moves, ck->best_len, ck->best_value,
            !(s->flags & PS_MAXIMISE));
        ck->best_found = !ck->best_forged;
    }
    bool forged = ck->best_forged;
    bool mismatch = ck->resumed && ck->file_parts != nparts;
    bool have = ck->resumed && !mismatch && !forged && ck->part[part].set;
    if (have)
        *r = (struct ps_ckpt_reader){.p = ck->part[part].state.p,
                                     .len = ck->part[part].state.len};
    pthread_mutex_unlock(&ck->lock);
    if (forged) {
        ps_error_set(&s->error, ck->resumed, 0, 0,
                     "cannot resume: this checkpoint's best line does not "
                     "replay to its score on this board");
        s->stop = PS_STOP_ERROR;
    } else if (mismatch) {
        ps_error_set(&s->error, ck->resumed, 0, 0,
                     "cannot resume: this checkpoint has %d parts (threads), "
                     "this run %d (--threads, --max-memory)",
                     ck->file_parts, nparts);
        s->stop = PS_STOP_ERROR;
    }
    return have;
}

bool ps_checkpoint_wanted(const struct ps_search *s, int part)
{
    const struct ps_checkpoint *ck = s->checkpoint;
    if (!ck || !ck->path || part < 0 || part >= PS_CHECKPOINT_MAX_PARTS)
        return false;
    double gap = ck->every < PS_CHECKPOINT_SNAPSHOT ? ck->every
                                                    : PS_CHECKPOINT_SNAPSHOT;
    /* the part's own field, written only by its own thread */
    return !ck->part[part].set || ps_now() - ck->part[part].taken >= gap;
}

void ps_checkpoint_save(struct ps_search *s, int part, struct ps_ckpt_buf *b)
{
    struct ps_checkpoint *ck = s->checkpoint;
    if (!ck || b->failed || part < 0 || part >= PS_CHECKPOINT_MAX_PARTS) {
        ps_ckpt_buf_free(b);
        return;
    }
    ps_move *moves = NULL;
    int len = s->best.found ? s->best.len : 0;
    if (len > 0 && !(moves = malloc((size_t)len * sizeof *moves))) {
        ps_ckpt_buf_free(b);
        return;
    }
    if (len > 0)
        memcpy(moves, s->best.moves, (size_t)len * sizeof *moves);
    pthread_mutex_lock(&ck->lock);
    struct ps_ckpt_part *p = &ck->part[part];
    ps_ckpt_buf_free(&p->state);
    p->state = *b;
    memset(b, 0, sizeof *b);
    free(p->moves);
    p->moves = moves;
    p->len = len;
    p->found = s->best.found;
    p->value = s->best.value;
    p->set = true;
    p->taken = ps_now();
    if (part >= ck->nparts)
        ck->nparts = part + 1;
    if (p->taken - ck->last_write >= ck->every)
        write_file(ck);
    pthread_mutex_unlock(&ck->lock);
}

/* The common head of a part: the PRNG (when there is one), the counters
 * and the best line. */
static bool save_head(const struct ps_search *s, int part,
                      const struct ps_rng *rng, struct ps_ckpt_buf *b)
{
    if (!ps_checkpoint_wanted(s, part))
        return false;
    *b = (struct ps_ckpt_buf){0};
    if (rng)
        ps_ckpt_put_rng(b, rng);
    ps_ckpt_put_search(b, s);
    return true;
}

static bool resume_head(struct ps_search *s, int part, int nparts,
                        struct ps_rng *rng, struct ps_ckpt_reader *r)
{
    if (!ps_checkpoint_resume(s, part, nparts, r))
        return false;
    if (rng)
        ps_ckpt_get_rng(r, rng);
    ps_ckpt_get_search(r, s);
    return true;
}

bool ps_checkpoint_worker_save(const struct ps_search *s, int part,
                               const struct ps_rng *rng, struct ps_ckpt_buf *b)
{
    return save_head(s, part, rng, b);
}

bool ps_checkpoint_worker_resume(struct ps_search *s, int part, int nparts,
                                 struct ps_rng *rng, struct ps_ckpt_reader *r)
{
    return resume_head(s, part, nparts, rng, r);
}

bool ps_checkpoint_search_save(const struct ps_search *s, int part,
                               struct ps_ckpt_buf *b)
{
    return save_head(s, part, NULL, b);
}

bool ps_checkpoint_search_resume(struct ps_search *s, int part, int nparts,
                                 struct ps_ckpt_reader *r)
{
    return resume_head(s, part, nparts, NULL, r);
}

bool ps_checkpoint_read_end(struct ps_search *s, int part,
                            const struct ps_ckpt_reader *r)
{
    if (!r->bad && r->pos == r->len)
        return true;
    ps_error_set(&s->error, s->checkpoint->resumed, 0, 0,
                 "cannot resume: worker %d's %s state is corrupt", part,
                 s->algo_name ? s->algo_name : "search");
    s->stop = PS_STOP_ERROR;
    return false;
}
