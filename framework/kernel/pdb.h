/*
 * pdb.h - pattern databases: for each pattern of a game's abstraction
 * (game.h, struct ps_abstraction), a table of the fewest counted moves from
 * every abstract state to the abstract goal, found by breadth-first search
 * backwards from the goal, stored one 4- or 8-bit entry per rank (a perfect
 * hash), and read as an admissible heuristic "pdb:NAME" (docs/pdb.md).
 *
 * Tables are made once per process and shared read-only by every search
 * (lab --jobs threads too); they are saved to a cache directory and read
 * back when a file's format version, key, size and checksum all match, and
 * rebuilt otherwise.
 */
#ifndef PS_PDB_H
#define PS_PDB_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/* Bumped whenever the file layout or the meaning of an entry changes. */
#define PS_PDB_FORMAT 2 /* 2: the header's key opens with the seal */

/* One set's tables for one instance: small, owned by its caller, pointing
 * at tables shared by the process. */
struct ps_pdb;

struct ps_pdb_options {
    /* Bytes the tables may take, and a build may use on top (its estimate
     * is checked before it starts); 0 = no limit. */
    uint64_t max_memory;
    /* A line per table built or read, and per depth while building, on
     * stderr. */
    bool progress;
    /* Force a fresh build even when the cache has a sound file. */
    bool rebuild;
};

/* What ps_pdb_get did, for reports. */
struct ps_pdb_stats {
    int built, loaded, shared; /* tables made by search, read from disk, in memory */
    double build_seconds;      /* time spent building */
    uint64_t bytes;            /* of all the set's tables */
};

/* The set named `name` ("pdb:...") of g, or NULL. */
const struct ps_pattern_set *ps_pdb_find_set(const struct ps_game *g,
                                             const char *name);

/* The cache directory: $PSOLVE_CACHE_DIR (an empty value turns the disk
 * cache off), else $XDG_CACHE_HOME/psolve, else $HOME/.cache/psolve. False
 * when there is none. */
bool ps_pdb_cache_dir(char *buf, size_t len);

/* Bytes of the tables of `set` for `inst`, and the most a build of the
 * missing ones would use on top; false with err when the instance has no
 * such abstraction. */
bool ps_pdb_estimate(const struct ps_game *g, const void *inst,
                     const struct ps_pattern_set *set, uint64_t *table_bytes,
                     uint64_t *build_bytes, struct ps_error *err);

/* The tables of `set` for `inst`, from this process's memory, else from
 * the disk cache, else built (and saved). NULL with err on failure (no
 * abstraction for the instance, memory over the limit). Free the result
 * with ps_pdb_free (the tables stay for the next caller). */
struct ps_pdb *ps_pdb_get(const struct ps_game *g, const void *inst,
                          const struct ps_pattern_set *set,
                          const struct ps_pdb_options *opt,
                          struct ps_pdb_stats *stats, struct ps_error *err);
void ps_pdb_free(struct ps_pdb *pdb);

/* Bytes of the tables `pdb` reads. */
uint64_t ps_pdb_bytes(const struct ps_pdb *pdb);
/* How many entries ps_pdb_entries fills (patterns x lookups). */
int ps_pdb_entry_count(const struct ps_pdb *pdb);

/* h of `state`. */
ps_value ps_pdb_value(const struct ps_pdb *pdb, const void *inst,
                      const void *state);
/* The entries of `state` (ps_pdb_entry_count of them), and h from them:
 * an incremental search keeps the entries per node and updates them with
 * ps_pdb_update after a move. */
void ps_pdb_entries(const struct ps_pdb *pdb, const void *inst,
                    const void *state, uint64_t *entries);
void ps_pdb_update(const struct ps_pdb *pdb, const void *inst,
                   const void *before, ps_move move, const void *after,
                   uint64_t *entries);
ps_value ps_pdb_value_of(const struct ps_pdb *pdb, const uint64_t *entries);

/* The table of pattern p, for tests: its entry count and the value of an
 * entry. */
uint64_t ps_pdb_table_entries(const struct ps_pdb *pdb, int p);
int ps_pdb_table_value(const struct ps_pdb *pdb, int p, uint64_t entry);

/* Forget the tables kept in memory (tests, and the end of a program under
 * a leak checker). No ps_pdb may be in use. */
void ps_pdb_forget_all(void);

#endif
