/*
 * checkpoint.h - --checkpoint FILE and --resume FILE for the long Monte
 * Carlo runs (nrpa, nmcs, beam, dnrpa) and dfs's proofs of cost games
 * (dfs_place.h): the state an algorithm needs to go on,
 * saved at its safe points and written to disk every --checkpoint-every
 * seconds and at the end of the run, atomically (savefile.h). The file
 * format is in docs/checkpoint.md.
 *
 * An algorithm keeps one part per thread (nrpa, nmcs: a worker each) or
 * one for the whole search (beam). At a safe point, a place where its
 * state is small and whole (nrpa: before an iteration of the top level;
 * nmcs: before a step of the top level; beam: before a depth), it asks
 * ps_checkpoint_wanted and, if so, writes its state into a ps_ckpt_buf and
 * hands it over with ps_checkpoint_save. A resumed run gets the part back
 * with ps_checkpoint_resume at its start and goes on from that safe point
 * with the same random stream and counters, so that under a node budget
 * it ends exactly where the uninterrupted run ends.
 */
#ifndef PS_CHECKPOINT_H
#define PS_CHECKPOINT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "rng.h"

struct ps_search;
struct ps_stats;
struct ps_algorithm;

#define PS_CHECKPOINT_MAGIC "psolveckpt"
/* Bumped whenever the payload's layout or an algorithm's part changes. */
#define PS_CHECKPOINT_FORMAT 1
/* The most parts a file holds (PS_MAX_THREADS). */
#define PS_CHECKPOINT_MAX_PARTS 64
/* --checkpoint-every's default, seconds. */
#define PS_CHECKPOINT_EVERY 60.0
/* A part's state is copied at a safe point at most this often (or every
 * --checkpoint-every, if less): the copy of a policy or a beam costs
 * time, and a run stopped between two copies only redoes the work since
 * the last one. */
#define PS_CHECKPOINT_SNAPSHOT 0.25

/* How an algorithm checkpoints (struct ps_algorithm's .checkpoint). */
enum ps_checkpoint_kind {
    PS_CHECKPOINT_NONE,
    PS_CHECKPOINT_SEARCH,  /* one part; the thread count may change */
    PS_CHECKPOINT_THREADS, /* one part per thread; a resume needs as many */
    PS_CHECKPOINT_COST,    /* one part, cost games only (dfs's rounds) */
};

/* An algorithm's state as bytes, in the machine's order (the file's
 * byte-order mark refuses another machine's). A failed allocation sets
 * `failed`: the part is then not saved. */
struct ps_ckpt_buf {
    unsigned char *p;
    size_t len, cap;
    bool failed;
};

/* Reads a part back; reading past its end sets `bad` and yields zeros. */
struct ps_ckpt_reader {
    const unsigned char *p;
    size_t len, pos;
    bool bad;
};

void ps_ckpt_put(struct ps_ckpt_buf *b, const void *data, size_t n);
void ps_ckpt_put_u64(struct ps_ckpt_buf *b, uint64_t v);
void ps_ckpt_put_f64(struct ps_ckpt_buf *b, double v);
void ps_ckpt_put_rng(struct ps_ckpt_buf *b, const struct ps_rng *r);
/* The search's counters (not its memory, which is reserved anew) and its
 * best line. */
void ps_ckpt_put_search(struct ps_ckpt_buf *b, const struct ps_search *s);
void ps_ckpt_buf_free(struct ps_ckpt_buf *b);

bool ps_ckpt_get(struct ps_ckpt_reader *r, void *data, size_t n);
uint64_t ps_ckpt_get_u64(struct ps_ckpt_reader *r);
double ps_ckpt_get_f64(struct ps_ckpt_reader *r);
void ps_ckpt_get_rng(struct ps_ckpt_reader *r, struct ps_rng *rng);
/* The counters into s->stats and the best line offered to s. */
void ps_ckpt_get_search(struct ps_ckpt_reader *r, struct ps_search *s);
/* A line read from a file, replayed from the start through the game's own
 * move generator (replay.h): every move legal, at most max_depth of them,
 * worth `value`, and when `whole` the line is complete (a score game: no
 * move left; a cost game: the goal). A file whose checksum is right may
 * still lie: a checkpoint is input, and its lines are checked like a
 * solution file's before any is believed. */
bool ps_checkpoint_line_sound(const struct ps_search *s, const uint32_t *moves,
                              int len, int64_t value, bool whole);
/* A count read back, checked against the most it may be (a longer line
 * than the game allows, more entries than the policy has): bad if over. */
uint64_t ps_ckpt_get_count(struct ps_ckpt_reader *r, uint64_t most);
/* A count n, then n bytes, returned in place (*n set); NULL (r bad) when
 * fewer than n bytes follow the count. */
const void *ps_ckpt_get_bytes(struct ps_ckpt_reader *r, size_t *n);

struct ps_ckpt_part {
    struct ps_ckpt_buf state;
    bool set;
    double taken; /* when (ps_now) */
    /* the part's best line when it was taken, for the file's best */
    bool found;
    int64_t value;
    uint32_t *moves;
    int len;
};

struct ps_checkpoint {
    const char *path;    /* --checkpoint FILE; NULL: nothing is written */
    const char *resumed; /* --resume FILE, NULL: a fresh run */
    double every;        /* seconds between writes */
    char key[1024];      /* the run's key text (ps_checkpoint_key) */
    pthread_mutex_t lock;
    int nparts;          /* the parts the run has (0 until known) */
    struct ps_ckpt_part part[PS_CHECKPOINT_MAX_PARTS];
    int file_parts;      /* the resumed file's */
    double elapsed_before; /* seconds of the runs before this one */
    double started, last_write;
    bool maximise;
    /* The best line in the resumed file: a resumed run never ends worse. */
    bool best_found;
    bool best_checked, best_forged; /* replayed on this board (resume) */
    int64_t best_value;
    uint32_t *best_moves;
    int best_len;
    bool write_failed;   /* set with err by a failed write */
    struct ps_error err;
};

/* The key of a run as text: game, board (a hash of the start), rules,
 * algorithm, its options and the seed, and the threads when `threads` > 0
 * (PS_CHECKPOINT_THREADS algorithms). `rules` is the rules' stamp. */
void ps_checkpoint_key(const struct ps_search *s, const struct ps_algorithm *a,
                       const char *rules, int threads, char *buf, size_t len);

/* Set up ck for a run with key `key`; path and resumed may be NULL. */
void ps_checkpoint_init(struct ps_checkpoint *ck, const char *path,
                        double every, const char *key);
void ps_checkpoint_free(struct ps_checkpoint *ck);
/* Read ck->resumed: false with err (naming the file) when it is missing,
 * foreign, of another version or byte order, corrupt, truncated, or
 * written for another run (the key line that differs is named). */
bool ps_checkpoint_load(struct ps_checkpoint *ck, struct ps_error *err);

/* The driver (ps_search_run): the run starts; the run is over (the file's
 * best line is offered to s, the final file written). */
void ps_checkpoint_begin(struct ps_search *s);
void ps_checkpoint_end(struct ps_search *s);

/* The algorithm's side. `part` is the worker's index (0 for a whole
 * search), `nparts` how many the run has. True when the run resumes and
 * part has a saved state: *r then reads it. False with s->stop =
 * PS_STOP_ERROR and s->error set when the file has another number of
 * parts. */
bool ps_checkpoint_resume(struct ps_search *s, int part, int nparts,
                          struct ps_ckpt_reader *r);
/* Is a copy of the part's state wanted at this safe point? Cheap. */
bool ps_checkpoint_wanted(const struct ps_search *s, int part);
/* Keep *b as the part's state (b is emptied), and write the file when
 * --checkpoint-every has passed. */
void ps_checkpoint_save(struct ps_search *s, int part, struct ps_ckpt_buf *b);

/* The same for a worker that keeps a PRNG (nrpa, nmcs), the common part
 * of its state first. ps_checkpoint_worker_save: false when no copy is
 * wanted now; else b holds the PRNG, the counters and the best line, for
 * the algorithm to add its own state and hand b to ps_checkpoint_save.
 * ps_checkpoint_worker_resume: ps_checkpoint_resume, then the PRNG, the
 * counters and the best line read back; r then holds the algorithm's own
 * state. ps_checkpoint_read_end: true when the whole part was read
 * soundly, else false with the search stopped on an error naming the
 * file and the worker. */
bool ps_checkpoint_worker_save(const struct ps_search *s, int part,
                               const struct ps_rng *rng, struct ps_ckpt_buf *b);
bool ps_checkpoint_worker_resume(struct ps_search *s, int part, int nparts,
                                 struct ps_rng *rng, struct ps_ckpt_reader *r);
bool ps_checkpoint_read_end(struct ps_search *s, int part,
                            const struct ps_ckpt_reader *r);
/* The same for a search that keeps no PRNG of its own (beam, dnrpa: a
 * random stream there is a place in the run): the counters and the best
 * line only. */
bool ps_checkpoint_search_save(const struct ps_search *s, int part,
                               struct ps_ckpt_buf *b);
bool ps_checkpoint_search_resume(struct ps_search *s, int part, int nparts,
                                 struct ps_ckpt_reader *r);

#endif
