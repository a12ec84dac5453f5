/*
 * table.h - the exact state table of the search kernel: a closed set or
 * memo keyed by whole states, for millions of entries.
 *
 * Open addressing (linear probing) over one word per slot: the high 32 bits
 * of its state's hash (the tag, which also picks the home slot) above the
 * index of its entry, 0 = empty slot. Entries
 * live in one arena, in insertion order, each the state (state_size bytes)
 * followed by `value_size` bytes of payload for the algorithm (a parent
 * index, a g value, a best remaining score ...). Entry indices are stable, so
 * they serve as parent links; pointers into the arena are not (it grows).
 *
 * A lookup compares the tag first and the whole state second (with the
 * game's equal(), or its keys by memcmp in a keyed table), so a hash
 * collision can never merge two states: the table is exact. Memory per
 * entry, documented in docs/architecture.md:
 *   round8(state_size + value_size) bytes in the arena (key_size for
 *   state_size in a keyed table)
 *   + 8 bytes per slot, at a load factor of at most 1/2 (<= 16 per entry;
 *   3/4 where --max-memory refuses to double the slots, and the arena then
 *   grows by what the limit allows, down to a sixteenth).
 * Every byte is reserved through ps_memory_reserve(), so --max-memory makes
 * the table refuse to grow (insert returns PS_TABLE_FULL) instead of the
 * process running out of memory; ps_table_insert_evicting then gives a new
 * state the entry of least worth near its home slot.
 */
#ifndef PS_TABLE_H
#define PS_TABLE_H

#include <stdint.h>

#include "search.h"

#define PS_TABLE_NONE (-1)  /* find: no such state */
#define PS_TABLE_FULL (-2)  /* insert: the memory limit was reached */

struct ps_table {
    struct ps_search *search; /* memory accounting, game, equal() */
    size_t state_size;        /* what an entry keeps: a state, or its key */
    unsigned char *key;       /* keyed tables: the key of the state asked */
    size_t value_size;
    size_t entry_size;        /* round8(state_size + value_size) */
    uint64_t *slot;           /* per slot: tag << 32 | index, 0 = empty */
    size_t slots;             /* a power of two */
    unsigned char *arena;
    size_t count;             /* entries */
    size_t capacity;          /* entries the arena holds */
    uint64_t evicted;         /* entries given to a new state when full */
};

bool ps_table_init(struct ps_table *t, struct ps_search *s, size_t value_size);
/* The same, but entries keep the game's key of each state (its key_size
 * and state_key slots) when it has smaller ones: find and insert take
 * states as before and compare keys, and ps_table_state gives an entry's
 * key, not its state. For tables that never give states back. */
bool ps_table_init_keyed(struct ps_table *t, struct ps_search *s,
                         size_t value_size);
void ps_table_free(struct ps_table *t);
/* Drop all entries, keep the memory. */
void ps_table_clear(struct ps_table *t);

/* Index of `state` (hash = game hash of it), or PS_TABLE_NONE. */
int64_t ps_table_find(const struct ps_table *t, uint64_t hash,
                      const void *state);
/* Index of `state`, inserting it (payload zeroed) if new; *added tells which.
 * PS_TABLE_FULL when the memory limit (or malloc) forbids growing. The table
 * only reports it: the algorithm decides whether a full table ends its
 * search. */
int64_t ps_table_insert(struct ps_table *t, uint64_t hash, const void *state,
                        bool *added);

/* What an entry is worth keeping, from its payload: where the table is
 * full, ps_table_insert_evicting gives the least worth entry near the new
 * state's home slot to it; a negative worth is never given away. */
typedef int64_t (*ps_table_worth)(const void *value, void *arg);

/* ps_table_insert, and where that says PS_TABLE_FULL, the new state takes
 * over the entry of least worth among the first PS_TABLE_EVICT_WINDOW
 * occupied slots of its probe path (its payload zeroed, *added set; the
 * old state is no longer found). PS_TABLE_FULL only when every one of
 * them is worth < 0. An entry index held across other inserts may then
 * hold another state, unless its worth is negative meanwhile. */
#define PS_TABLE_EVICT_WINDOW 8
int64_t ps_table_insert_evicting(struct ps_table *t, uint64_t hash,
                                 const void *state, bool *added,
                                 ps_table_worth worth, void *arg);

static inline void *ps_table_state(const struct ps_table *t, int64_t i)
{
    return t->arena + (size_t)i * t->entry_size;
}

static inline void *ps_table_value(const struct ps_table *t, int64_t i)
{
    return t->arena + (size_t)i * t->entry_size + t->state_size;
}

#endif
