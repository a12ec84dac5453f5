/*
 * pdb.c - pattern databases (pdb.h): the breadth-first build over a game's
 * abstract space, the compact tables, the in-process and on-disk caches,
 * and the lookup that makes them a heuristic.
 *
 * The build is a 0-1 breadth-first search backwards from the abstract
 * goals: a state reached by a counted move joins the next depth, one reached
 * by a free move (a tile outside the pattern) joins the current one. Two bit
 * arrays over the ranks say which states are settled and which wait for the
 * next depth, so no state is queued twice. Each table entry keeps the
 * smallest depth among the ranks of its group.
 *
 * The tables live for the process (a list under a mutex, because lab --jobs
 * runs searches in threads): building one takes seconds to minutes, reading
 * it thereafter nothing. That list is this kernel's one piece of shared
 * mutable state besides the interrupt flag; everything else is per search.
 */
#include "pdb.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"
#include "savefile.h"
#include "search.h" /* ps_interrupted: Ctrl-C stops a build */

/* uthash, the project's general map: out of memory is an error returned
 * (the table is not added), never an exit. */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) (pdb_tables_oom = true)
#include <uthash.h>

#define PDB_UNSEEN 0xFF
/* A cache file (savefile.h): info = bits per entry, count = entries. */
#define PDB_MAGIC "psolvepdb"

struct pdb_table {
    char key[200];       /* game name + ' ' + the space's key */
    uint64_t entries;
    int bits;            /* 4 or 8 */
    unsigned char *data; /* entries * bits / 8 bytes, rounded up */
    uint64_t bytes;
    UT_hash_handle hh; /* in pdb_tables, by key */
};

struct ps_pdb {
    const struct ps_abstraction *abs;
    const struct ps_pattern_set *set;
    const struct pdb_table *table[PS_PDB_MAX_PATTERNS];
    uint64_t bytes;
};

static pthread_mutex_t pdb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pdb_table *pdb_tables; /* uthash, by key */
static bool pdb_tables_oom; /* uthash could not grow (set under pdb_lock) */

const struct ps_pattern_set *ps_pdb_find_set(const struct ps_game *g,
                                             const char *name)
{
    if (!g->abstraction || !name)
        return NULL;
    for (const struct ps_pattern_set *s = g->abstraction->sets; s && s->name;
         s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

bool ps_pdb_cache_dir(char *buf, size_t len)
{
    const char *dir = getenv("PSOLVE_CACHE_DIR");
    int n;
    if (dir)
        n = snprintf(buf, len, "%s", dir);
    else if ((dir = getenv("XDG_CACHE_HOME")) && dir[0])
        n = snprintf(buf, len, "%s/psolve", dir);
    else if ((dir = getenv("HOME")) && dir[0])
        n = snprintf(buf, len, "%s/.cache/psolve", dir);
    else
        return false;
    return n > 0 && (size_t)n < len;
}

/* ---- table entries ---- */

static inline int table_get(const struct pdb_table *t, uint64_t e)
{
    if (t->bits == 8)
        return t->data[e];
    return (t->data[e >> 1] >> ((e & 1) * 4)) & 15;
}

static uint64_t table_bytes(uint64_t entries, int bits)
{
    return bits == 8 ? entries : (entries + 1) / 2;
}

/* ---- describing a set ---- */

static bool set_spaces(const struct ps_game *g, const void *inst,
                       const struct ps_pattern_set *set,
                       struct ps_pattern_space *spaces, struct ps_error *err)
{
    if (set->patterns < 1 || set->patterns > PS_PDB_MAX_PATTERNS ||
        set->lookups < 1 || set->lookups > PS_PDB_MAX_LOOKUPS)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: pattern set %s: bad counts", g->name,
                            set->name);
    for (int p = 0; p < set->patterns; p++) {
        memset(&spaces[p], 0, sizeof spaces[p]);
        if (!g->abstraction->space(inst, set, p, &spaces[p], err))
            return false;
        struct ps_pattern_space *sp = &spaces[p];
        if (sp->size == 0 || sp->group == 0 || sp->size % sp->group)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: %s pattern %d: size %llu is not a "
                                "multiple of group %llu",
                                g->name, set->name, p,
                                (unsigned long long)sp->size,
                                (unsigned long long)sp->group);
        sp->key[sizeof sp->key - 1] = '\0';
    }
    return true;
}

static void table_key(const struct ps_game *g,
                      const struct ps_pattern_space *sp, char *key, size_t len)
{
    snprintf(key, len, "%s %s", g->name, sp->key);
}

/* The bytes a build of one space needs: the 8-bit distances, two bit
 * arrays over the ranks, and the queues of two depths, budgeted at one
 * rank per table entry (an abstraction whose free moves stay inside a
 * group, as the sliding-tile puzzle's, meets about one rank per entry in
 * all; the build reports what the queues really took). */
static uint64_t build_bytes(const struct ps_pattern_space *sp)
{
    uint64_t width = sp->size > UINT32_MAX ? 8 : 4;
    return sp->size / sp->group + 2 * (sp->size / 8 + 8) +
           sp->size / sp->group * width;
}

static struct pdb_table *find_table(const char *key)
{
    struct pdb_table *t = NULL;
    HASH_FIND_STR(pdb_tables, key, t);
    return t;
}

bool ps_pdb_estimate(const struct ps_game *g, const void *inst,
                     const struct ps_pattern_set *set, uint64_t *tables,
                     uint64_t *build, struct ps_error *err)
{
    struct ps_pattern_space sp[PS_PDB_MAX_PATTERNS];
    if (!g->abstraction)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s has no abstraction (no pattern "
                            "databases)",
                            g->name);
    if (!set_spaces(g, inst, set, sp, err))
        return false;
    *tables = *build = 0;
    for (int p = 0; p < set->patterns; p++) {
        /* 8-bit is the worst case; small tables pack into 4. */
        *tables += sp[p].size / sp[p].group;
        uint64_t b = build_bytes(&sp[p]);
        if (b > *build)
            *build = b;
    }
    return true;
}

/* ---- the build ---- */

struct rank_queue {
    void *v;
    uint64_t n, cap;
    bool wide; /* uint64_t ranks, else uint32_t */
};

static bool queue_push(struct rank_queue *q, uint64_t r)
{
    if (q->n == q->cap) {
        uint64_t cap = q->cap ? q->cap * 2 : 1u << 16;
        void *v = realloc(q->v, cap * (q->wide ? 8 : 4));
        if (!v)
            return false;
        q->v = v;
        q->cap = cap;
    }
    if (q->wide)
        ((uint64_t *)q->v)[q->n++] = r;
    else
        ((uint32_t *)q->v)[q->n++] = (uint32_t)r;
    return true;
}

static inline uint64_t queue_at(const struct rank_queue *q, uint64_t i)
{
    return q->wide ? ((const uint64_t *)q->v)[i] : ((const uint32_t *)q->v)[i];
}

static inline bool bit_test(const uint64_t *bits, uint64_t i)
{
    return (bits[i >> 6] >> (i & 63)) & 1;
}

static inline void bit_set(uint64_t *bits, uint64_t i)
{
    bits[i >> 6] |= (uint64_t)1 << (i & 63);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct build {
    const struct ps_abstraction *abs;
    const void *inst;
    const struct ps_pattern_set *set;
    int pattern;
    const struct ps_pattern_space *sp;
    unsigned char *dist; /* per entry */
    uint64_t *settled, *queued;
    struct rank_queue cur, next;
    uint64_t states;     /* settled so far */
};

/* Settle rank r at depth d: keep the smallest depth of its entry, and
 * queue its free predecessors now and its counted ones for depth d + 1. */
static bool build_expand(struct build *b, uint64_t r, int d)
{
    uint64_t e = r / b->sp->group;
    if (b->dist[e] > d)
        b->dist[e] = (unsigned char)d;
    uint64_t pred[PS_PDB_MAX_NEIGHBOURS];
    unsigned char counted[PS_PDB_MAX_NEIGHBOURS];
    int n = b->abs->predecessors(b->inst, b->set, b->pattern, r, pred, counted);
    for (int i = 0; i < n; i++) {
        uint64_t q = pred[i];
        if (q >= b->sp->size || bit_test(b->settled, q))
            continue;
        if (!counted[i]) {
            bit_set(b->settled, q);
            b->states++;
            if (!queue_push(&b->cur, q))
                return false;
        } else if (!bit_test(b->queued, q)) {
            bit_set(b->queued, q);
            if (!queue_push(&b->next, q))
                return false;
        }
    }
    return true;
}

static void build_free(struct build *b)
{
    free(b->settled);
    free(b->queued);
    free(b->cur.v);
    free(b->next.v);
    free(b->dist);
}

/* Build the table of pattern p into t (key set). */
static bool build_table(const struct ps_game *g, const void *inst,
                        const struct ps_pattern_set *set, int p,
                        const struct ps_pattern_space *sp,
                        const struct ps_pdb_options *opt, struct pdb_table *t,
                        struct ps_error *err)
{
    struct build b = {.abs = g->abstraction, .inst = inst, .set = set,
                      .pattern = p, .sp = sp};
    uint64_t entries = sp->size / sp->group, words = sp->size / 64 + 1;
    b.cur.wide = b.next.wide = sp->size > UINT32_MAX;
    b.dist = malloc(entries);
    b.settled = calloc(words, sizeof *b.settled);
    b.queued = calloc(words, sizeof *b.queued);
    if (!b.dist || !b.settled || !b.queued) {
        build_free(&b);
        return ps_error_set(err, NULL, 0, 0, "out of memory building %s",
                            t->key);
    }
    memset(b.dist, PDB_UNSEEN, entries);
    uint64_t goals[64];
    int ngoals = g->abstraction->goals(inst, set, p, goals, 64);
    bool ok = ngoals >= 1;
    for (int i = 0; ok && i < ngoals; i++)
        if (goals[i] < sp->size && !bit_test(b.settled, goals[i])) {
            bit_set(b.settled, goals[i]);
            b.states++;
            ok = queue_push(&b.cur, goals[i]);
        }
    double start = now_seconds(), shown = start;
    if (opt->progress)
        fprintf(stderr, "pdb: building %s: %llu abstract states, %llu "
                        "entries\n",
                t->key, (unsigned long long)sp->size,
                (unsigned long long)entries);
    int d = 0;
    while (ok && b.cur.n > 0) {
        for (uint64_t i = 0; ok && i < b.cur.n; i++) {
            ok = build_expand(&b, queue_at(&b.cur, i), d);
            /* A build takes seconds to minutes: Ctrl-C and SIGTERM stop it
             * (nothing half-built is kept or saved). */
            if ((i & 0xffff) == 0 && ps_interrupted) {
                build_free(&b);
                return ps_error_set(err, NULL, 0, 0,
                                    "%s: interrupted (%s) while building; "
                                    "nothing was saved",
                                    t->key, ps_signal_name(ps_interrupted));
            }
        }
        if (!ok)
            break;
        if (opt->progress && now_seconds() - shown >= 1.0) {
            shown = now_seconds();
            fprintf(stderr, "pdb:   depth %d: %llu of %llu states settled "
                            "(%.0f s)\n",
                    d, (unsigned long long)b.states,
                    (unsigned long long)sp->size, shown - start);
        }
        /* The next depth: what waited and was not settled for free since. */
        b.cur.n = 0;
        for (uint64_t i = 0; ok && i < b.next.n; i++) {
            uint64_t q = queue_at(&b.next, i);
            if (bit_test(b.settled, q))
                continue;
            bit_set(b.settled, q);
            b.states++;
            ok = queue_push(&b.cur, q);
        }
        b.next.n = 0;
        if (++d >= PDB_UNSEEN) {
            ok = false;
            ps_error_set(err, NULL, 0, 0,
                         "%s: abstract distances pass %d (a table entry "
                         "holds less)",
                         t->key, PDB_UNSEEN - 1);
            build_free(&b);
            return false;
        }
    }
    if (!ok) {
        build_free(&b);
        return ps_error_set(err, NULL, 0, 0, "out of memory building %s",
                            t->key);
    }
    uint64_t states = b.states,
             queue_bytes = (b.cur.cap + b.next.cap) * (b.cur.wide ? 8 : 4);
    /* An entry no abstract state of which reaches the goal reads 0: a real
     * state maps onto a reachable abstract one when it can be solved. */
    int most = 0;
    for (uint64_t e = 0; e < entries; e++) {
        if (b.dist[e] == PDB_UNSEEN)
            b.dist[e] = 0;
        else if (b.dist[e] > most)
            most = b.dist[e];
    }
    t->entries = entries;
    t->bits = most <= 15 ? 4 : 8;
    t->bytes = table_bytes(entries, t->bits);
    if (t->bits == 8) {
        t->data = b.dist;
        b.dist = NULL;
    } else {
        t->data = calloc(t->bytes, 1);
        for (uint64_t e = 0; t->data && e < entries; e++)
            t->data[e >> 1] |= (unsigned char)(b.dist[e] << ((e & 1) * 4));
    }
    build_free(&b);
    if (!t->data)
        return ps_error_set(err, NULL, 0, 0, "out of memory building %s",
                            t->key);
    if (opt->progress)
        fprintf(stderr, "pdb: built %s: %llu abstract states met, largest "
                        "entry %d, %d-bit, %.1f MB (queues took %.1f MB), "
                        "%.1f s\n",
                t->key, (unsigned long long)states, most, t->bits,
                (double)t->bytes / 1e6, (double)queue_bytes / 1e6,
                now_seconds() - start);
    return true;
}

/* ---- the disk cache ---- */

static void cache_path(const char *dir, const char *key, char *buf, size_t len)
{
    char game[32];
    size_t i = 0;
    for (; key[i] && key[i] != ' ' && i + 1 < sizeof game; i++)
        game[i] = key[i];
    game[i] = '\0';
    snprintf(buf, len, "%s/%s-%016llx.pdb", dir, game,
             (unsigned long long)ps_hash_bytes(key, strlen(key)));
}

/* ---- the seal: a table is input from disk ----
 * The savefile checksum catches a torn or damaged file, not a forged one:
 * anyone can recompute it over entries they raised, and a raised entry
 * makes the heuristic inadmissible, so that A* and IDA* would print
 * `optimal` beside a longer line. A table in the cache therefore carries a
 * seal: a keyed hash of its key and entries under a secret of 32 random
 * bytes kept in the cache directory (file `secret`, mode 0600, made by the
 * first table saved there). A table without the seal of this cache's
 * secret (forged, written elsewhere or by another user, or of format 1)
 * is not read: it is built afresh and saved over. */
#define PDB_SECRET_BYTES 32

/* The cache's secret into out; made when `make` and there is none. */
static bool cache_secret(const char *dir, bool make,
                         unsigned char out[PDB_SECRET_BYTES])
{
    char path[700];
    snprintf(path, sizeof path, "%s/secret", dir);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && make) {
        unsigned char fresh[PDB_SECRET_BYTES];
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        bool ok = fd >= 0 && getrandom(fresh, sizeof fresh, 0) ==
                                 (ssize_t)sizeof fresh &&
                  write(fd, fresh, sizeof fresh) == (ssize_t)sizeof fresh;
        if (fd >= 0 && close(fd) != 0)
            ok = false;
        if (!ok) {
            unlink(path);
            return false;
        }
        memcpy(out, fresh, sizeof fresh);
        return true;
    }
    if (fd < 0)
        return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              st.st_size == PDB_SECRET_BYTES &&
              read(fd, out, PDB_SECRET_BYTES) == PDB_SECRET_BYTES;
    close(fd);
    return ok;
}

/* The seal of a table: the secret on both sides of its key and entries,
 * so that neither end of the mix is known to a forger. */
static uint64_t table_seal(const unsigned char secret[PDB_SECRET_BYTES],
                           const char *key, const void *data, uint64_t bytes)
{
    unsigned char buf[2 * PDB_SECRET_BYTES + 200 + 8];
    size_t klen = strnlen(key, 200), n = 0;
    uint64_t entries = ps_hash_bytes(data, (size_t)bytes);
    memcpy(buf, secret, PDB_SECRET_BYTES);
    n += PDB_SECRET_BYTES;
    memcpy(buf + n, key, klen);
    n += klen;
    memcpy(buf + n, &entries, sizeof entries);
    n += sizeof entries;
    memcpy(buf + n, secret, PDB_SECRET_BYTES);
    n += PDB_SECRET_BYTES;
    return ps_hash_bytes(buf, n);
}

/* Read the table of `key` from the cache; false (and nothing kept) when the
 * file is missing, short, of another format, byte order or key, its
 * checksum fails or its seal is not this cache's: the caller then builds
 * it afresh. */
static bool cache_load(const char *key, uint64_t entries, struct pdb_table *t)
{
    char dir[512], path[700];
    if (!ps_pdb_cache_dir(dir, sizeof dir) || !dir[0])
        return false;
    cache_path(dir, key, path, sizeof path);
    struct ps_savefile_header h;
    void *data;
    uint64_t bytes;
    if (ps_savefile_read(path, PDB_MAGIC, PS_PDB_FORMAT, &h, &data, &bytes) !=
        PS_SAVEFILE_OK)
        return false;
    unsigned char secret[PDB_SECRET_BYTES];
    char want[sizeof h.key];
    if ((h.info != 4 && h.info != 8) || h.count != entries ||
        bytes != table_bytes(entries, (int)h.info) ||
        !cache_secret(dir, false, secret) ||
        snprintf(want, sizeof want, "%016llx %s",
                 (unsigned long long)table_seal(secret, key, data, bytes),
                 key) >= (int)sizeof want ||
        strcmp(h.key, want) != 0) {
        free(data);
        return false;
    }
    t->entries = entries;
    t->bits = (int)h.info;
    t->bytes = bytes;
    t->data = data;
    return true;
}

/* mkdir -p. */
static bool make_dirs(const char *dir)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

/* Save t to the cache, atomically (savefile.h). A failure costs only the
 * next build. */
static void cache_save(const struct pdb_table *t, bool progress)
{
    char dir[512], path[700];
    if (!ps_pdb_cache_dir(dir, sizeof dir) || !dir[0] || !make_dirs(dir))
        return;
    cache_path(dir, t->key, path, sizeof path);
    struct ps_savefile_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, PDB_MAGIC, sizeof PDB_MAGIC);
    h.format = PS_PDB_FORMAT;
    h.info = (uint32_t)t->bits;
    h.count = t->entries;
    unsigned char secret[PDB_SECRET_BYTES];
    if (!cache_secret(dir, true, secret) ||
        snprintf(h.key, sizeof h.key, "%016llx %s",
                 (unsigned long long)table_seal(secret, t->key, t->data,
                                                t->bytes),
                 t->key) >= (int)sizeof h.key) {
        if (progress)
            fprintf(stderr, "pdb: could not seal %s (no secret in %s): the "
                            "table is kept in memory only\n",
                    t->key, dir);
        return;
    }
    struct ps_error err;
    ps_error_clear(&err);
    if (ps_savefile_write(path, &h, t->data, t->bytes, &err)) {
        if (progress)
            fprintf(stderr, "pdb: saved %s\n", path);
        return;
    }
    if (progress)
        fprintf(stderr, "pdb: could not save %s (the table is kept in "
                        "memory only)\n",
                path);
}

/* ---- getting a set's tables ---- */

/* The table of one space: shared, loaded or built (the lock is held, so
 * two threads never build the same table). */
static const struct pdb_table *get_table(const struct ps_game *g,
                                         const void *inst,
                                         const struct ps_pattern_set *set,
                                         int p,
                                         const struct ps_pattern_space *sp,
                                         const struct ps_pdb_options *opt,
                                         struct ps_pdb_stats *st,
                                         struct ps_error *err)
{
    char key[sizeof ((struct pdb_table *)0)->key];
    table_key(g, sp, key, sizeof key);
    struct pdb_table *t = find_table(key);
    if (t && !opt->rebuild) {
        st->shared++;
        return t;
    }
    struct pdb_table fresh;
    memset(&fresh, 0, sizeof fresh);
    snprintf(fresh.key, sizeof fresh.key, "%s", key);
    uint64_t entries = sp->size / sp->group;
    if (!opt->rebuild && cache_load(key, entries, &fresh)) {
        st->loaded++;
        if (opt->progress)
            fprintf(stderr, "pdb: read %s from the cache (%.1f MB)\n", key,
                    (double)fresh.bytes / 1e6);
    } else {
        if (opt->max_memory && build_bytes(sp) > opt->max_memory)
            return ps_error_set(err, NULL, 0, 0,
                                "building %s needs about %.0f MB, over "
                                "--max-memory (%.0f MB)",
                                key, (double)build_bytes(sp) / 1e6,
                                (double)opt->max_memory / 1e6),
                   NULL;
        double start = now_seconds();
        if (!build_table(g, inst, set, p, sp, opt, &fresh, err))
            return NULL;
        st->built++;
        st->build_seconds += now_seconds() - start;
        cache_save(&fresh, opt->progress);
    }
    if (t) { /* --rebuild of a table in memory: replace its contents */
        free(t->data);
        t->data = fresh.data;
        t->bits = fresh.bits;
        t->bytes = fresh.bytes;
        t->entries = fresh.entries;
        return t;
    }
    t = malloc(sizeof *t);
    if (!t) {
        free(fresh.data);
        return ps_error_set(err, NULL, 0, 0, "out of memory"), NULL;
    }
    *t = fresh;
    pdb_tables_oom = false;
    HASH_ADD_STR(pdb_tables, key, t);
    if (pdb_tables_oom) { /* not added: uthash_nonfatal_oom */
        free(t->data);
        free(t);
        return ps_error_set(err, NULL, 0, 0, "out of memory"), NULL;
    }
    return t;
}

struct ps_pdb *ps_pdb_get(const struct ps_game *g, const void *inst,
                          const struct ps_pattern_set *set,
                          const struct ps_pdb_options *opt,
                          struct ps_pdb_stats *stats, struct ps_error *err)
{
    struct ps_pdb_stats local;
    struct ps_pdb_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    struct ps_pattern_space sp[PS_PDB_MAX_PATTERNS];
    uint64_t tables, build;
    if (!ps_pdb_estimate(g, inst, set, &tables, &build, err))
        return NULL;
    struct ps_pdb *pdb = calloc(1, sizeof *pdb);
    if (!pdb) {
        ps_error_set(err, NULL, 0, 0, "out of memory");
        return NULL;
    }
    pdb->abs = g->abstraction;
    pdb->set = set;
    set_spaces(g, inst, set, sp, err);
    pthread_mutex_lock(&pdb_lock);
    bool ok = true;
    for (int p = 0; ok && p < set->patterns; p++) {
        pdb->table[p] = get_table(g, inst, set, p, &sp[p], opt, st, err);
        ok = pdb->table[p] != NULL;
        if (ok)
            pdb->bytes += pdb->table[p]->bytes;
        if (ok && opt->max_memory && pdb->bytes > opt->max_memory)
            ok = ps_error_set(err, NULL, 0, 0,
                              "the tables of %s take %.0f MB, over "
                              "--max-memory (%.0f MB)",
                              set->name, (double)pdb->bytes / 1e6,
                              (double)opt->max_memory / 1e6);
    }
    pthread_mutex_unlock(&pdb_lock);
    st->bytes = pdb->bytes;
    if (!ok) {
        free(pdb);
        return NULL;
    }
    return pdb;
}

void ps_pdb_free(struct ps_pdb *pdb)
{
    free(pdb);
}

void ps_pdb_forget_all(void)
{
    pthread_mutex_lock(&pdb_lock);
    struct pdb_table *t, *tmp;
    HASH_ITER(hh, pdb_tables, t, tmp) {
        HASH_DEL(pdb_tables, t);
        free(t->data);
        free(t);
    }
    pthread_mutex_unlock(&pdb_lock);
}

/* ---- reading ---- */

uint64_t ps_pdb_bytes(const struct ps_pdb *pdb)
{
    return pdb->bytes;
}

int ps_pdb_entry_count(const struct ps_pdb *pdb)
{
    return pdb->set->patterns * pdb->set->lookups;
}

ps_value ps_pdb_value_of(const struct ps_pdb *pdb, const uint64_t *entries)
{
    const struct ps_pattern_set *set = pdb->set;
    ps_value best = 0;
    for (int l = 0; l < set->lookups; l++) {
        ps_value v = 0;
        for (int p = 0; p < set->patterns; p++) {
            const struct pdb_table *t = pdb->table[p];
            uint64_t e = entries[l * set->patterns + p];
            int x = e < t->entries ? table_get(t, e) : 0;
            if (set->additive)
                v += x;
            else if (x > v)
                v = x;
        }
        if (v > best)
            best = v;
    }
    return best;
}

void ps_pdb_entries(const struct ps_pdb *pdb, const void *inst,
                    const void *state, uint64_t *entries)
{
    pdb->abs->entries(inst, pdb->set, state, entries);
}

void ps_pdb_update(const struct ps_pdb *pdb, const void *inst,
                   const void *before, ps_move move, const void *after,
                   uint64_t *entries)
{
    if (pdb->abs->update_entries)
        pdb->abs->update_entries(inst, pdb->set, before, move, after, entries);
    else
        pdb->abs->entries(inst, pdb->set, after, entries);
}

ps_value ps_pdb_value(const struct ps_pdb *pdb, const void *inst,
                      const void *state)
{
    uint64_t e[PS_PDB_MAX_PATTERNS * PS_PDB_MAX_LOOKUPS];
    pdb->abs->entries(inst, pdb->set, state, e);
    return ps_pdb_value_of(pdb, e);
}

uint64_t ps_pdb_table_entries(const struct ps_pdb *pdb, int p)
{
    return pdb->table[p]->entries;
}

int ps_pdb_table_value(const struct ps_pdb *pdb, int p, uint64_t entry)
{
    return table_get(pdb->table[p], entry);
}
