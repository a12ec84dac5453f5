/*
 * table.c - the exact state table (table.h): hashed slots over an arena of
 * whole states, or of their keys.
 */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "table.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define MIN_SLOTS 1024

/* A slot is one word, so that a probe reads one cache line: the tag (the
 * hash's high 32 bits, never 0) above the entry's index, 0 = empty. The
 * home slot is the tag's low bits, so the table can grow without the full
 * hash; two states' tags match by chance about once in 2^32, and then the
 * whole states are compared anyway. */
static uint32_t tag_of(uint64_t hash)
{
    uint32_t tag = (uint32_t)(hash >> 32);
    return tag ? tag : 0x9e3779b9u;
}

static uint64_t slot_of(uint32_t tag, uint32_t index)
{
    return (uint64_t)tag << 32 | index;
}

static uint32_t slot_tag(uint64_t slot)
{
    return (uint32_t)(slot >> 32);
}

static uint32_t slot_index(uint64_t slot)
{
    return (uint32_t)slot;
}

/* Asks for huge pages under the large arrays (Linux's transparent huge
 * pages, which Debian gives only on request): a table of gigabytes probed
 * at random otherwise misses the TLB on nearly every probe, and takes a
 * page fault per 4 KB as it fills. Only whole pages inside the block are
 * advised; where the call is unknown or refused nothing changes. */
static void advise_huge_pages(void *block, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t page = 4096, huge = (uintptr_t)2 << 20;
    if (bytes < 2 * huge)
        return;
    uintptr_t start = ((uintptr_t)block + page - 1) & ~(page - 1),
              end = ((uintptr_t)block + bytes) & ~(page - 1);
    (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)block;
    (void)bytes;
#endif
}

/* A table of entries of `stored` bytes (a state, or a key) and a payload. */
static bool table_init(struct ps_table *t, struct ps_search *s, size_t stored,
                       size_t value_size)
{
    memset(t, 0, sizeof *t);
    t->search = s;
    t->state_size = stored;
    t->value_size = value_size;
    t->entry_size = (stored + value_size + 7) & ~(size_t)7;
    size_t bytes = MIN_SLOTS * sizeof *t->slot;
    if (!ps_memory_reserve(s, bytes))
        return false;
    t->slot = calloc(MIN_SLOTS, sizeof *t->slot);
    if (!t->slot) {
        ps_memory_release(s, bytes);
        return false;
    }
    t->slots = MIN_SLOTS;
    return true;
}

bool ps_table_init(struct ps_table *t, struct ps_search *s, size_t value_size)
{
    return table_init(t, s, s->state_size, value_size);
}

bool ps_table_init_keyed(struct ps_table *t, struct ps_search *s,
                         size_t value_size)
{
    size_t key = ps_game_key_size(s->game, s->inst);
    if (!key)
        return ps_table_init(t, s, value_size);
    if (!table_init(t, s, key, value_size))
        return false;
    t->key = malloc(key);
    if (!t->key) {
        ps_table_free(t);
        return false;
    }
    return true;
}

void ps_table_free(struct ps_table *t)
{
    if (t->search)
        ps_memory_release(t->search, t->slots * sizeof *t->slot +
                                         t->capacity * t->entry_size);
    free(t->slot);
    free(t->arena);
    free(t->key);
    t->slot = NULL;
    t->arena = NULL;
    t->key = NULL;
    t->slots = t->capacity = t->count = 0;
}

void ps_table_clear(struct ps_table *t)
{
    memset(t->slot, 0, t->slots * sizeof *t->slot);
    t->count = 0;
    t->evicted = 0;
    t->search->stats.table_entries = 0;
}

/* Is entry i `state`? `state` is the state asked, or in a keyed table its
 * key (what_is_stored). */
static bool same_state(const struct ps_table *t, int64_t i, const void *state)
{
    if (t->key)
        return memcmp(ps_table_state(t, i), state, t->state_size) == 0;
    const struct ps_search *s = t->search;
    return ps_game_equal(s->game, s->inst, ps_table_state(t, i), state);
}

/* What an entry for `state` keeps: the state, or its key. */
static const void *what_is_stored(const struct ps_table *t, const void *state)
{
    if (!t->key)
        return state;
    const struct ps_search *s = t->search;
    s->game->state_key(s->inst, state, t->key);
    return t->key;
}

int64_t ps_table_find(const struct ps_table *t, uint64_t hash,
                      const void *state)
{
    state = what_is_stored(t, state);
    uint32_t tag = tag_of(hash);
    size_t mask = t->slots - 1;
    for (size_t i = tag & mask;; i = (i + 1) & mask) {
        uint64_t sl = t->slot[i];
        if (sl == 0)
            return PS_TABLE_NONE;
        if (slot_tag(sl) == tag && same_state(t, slot_index(sl), state))
            return slot_index(sl);
    }
}

static bool grow_slots(struct ps_table *t)
{
    size_t slots = t->slots * 2;
    if (!ps_memory_reserve(t->search, slots * sizeof *t->slot))
        return false;
    uint64_t *slot = calloc(slots, sizeof *slot);
    if (!slot) {
        ps_memory_release(t->search, slots * sizeof *t->slot);
        return false;
    }
    advise_huge_pages(slot, slots * sizeof *slot);
    size_t mask = slots - 1;
    for (size_t i = 0; i < t->slots; i++) {
        if (!t->slot[i])
            continue;
        size_t j = slot_tag(t->slot[i]) & mask;
        while (slot[j])
            j = (j + 1) & mask;
        slot[j] = t->slot[i];
    }
    free(t->slot);
    ps_memory_release(t->search, t->slots * sizeof *t->slot);
    t->slot = slot;
    t->slots = slots;
    return true;
}

static bool resize_arena(struct ps_table *t, size_t cap)
{
    if (cap > UINT32_MAX) /* a slot keeps a 32-bit index */
        return false;
    size_t extra = (cap - t->capacity) * t->entry_size;
    if (!ps_memory_reserve(t->search, extra))
        return false;
    unsigned char *arena = realloc(t->arena, cap * t->entry_size);
    if (!arena) {
        ps_memory_release(t->search, extra);
        return false;
    }
    advise_huge_pages(arena, cap * t->entry_size);
    t->arena = arena;
    t->capacity = cap;
    return true;
}

/* Twice the entries, or where --max-memory refuses that, the most of a
 * half, a quarter ... a sixteenth more that it allows: near the limit the
 * table takes what is left, where doubling alone left up to half of it
 * unused (long dfs proofs fill their tables). */
static bool grow_arena(struct ps_table *t)
{
    if (!t->capacity)
        return resize_arena(t, 1024);
    for (int shift = 0; shift <= 4; shift++)
        if (resize_arena(t, t->capacity + (t->capacity >> shift)))
            return true;
    return false;
}

int64_t ps_table_insert(struct ps_table *t, uint64_t hash, const void *state,
                        bool *added)
{
    state = what_is_stored(t, state);
    uint32_t tag = tag_of(hash);
    *added = false;
    t->search->stats.table_probes++;
    size_t mask = t->slots - 1, i = tag & mask;
    for (; t->slot[i]; i = (i + 1) & mask)
        if (slot_tag(t->slot[i]) == tag &&
            same_state(t, slot_index(t->slot[i]), state)) {
            t->search->stats.table_hits++;
            return slot_index(t->slot[i]);
        }
    /* Slots are doubled past a load of 1/2; where --max-memory refuses
     * that, they fill up to 3/4 (longer probes, more entries) before the
     * table is full. */
    if (2 * (t->count + 1) > t->slots) {
        if (grow_slots(t)) {
            mask = t->slots - 1;
            for (i = tag & mask; t->slot[i]; i = (i + 1) & mask)
                ;
        } else if (4 * (t->count + 1) > 3 * t->slots) {
            return PS_TABLE_FULL;
        }
    }
    if (t->count == t->capacity && !grow_arena(t))
        return PS_TABLE_FULL;
    int64_t idx = (int64_t)t->count++;
    memcpy(ps_table_state(t, idx), state, t->state_size);
    memset((unsigned char *)ps_table_state(t, idx) + t->state_size, 0,
           t->entry_size - t->state_size);
    t->slot[i] = slot_of(tag, (uint32_t)idx);
    struct ps_stats *st = &t->search->stats;
    st->table_entries = t->count;
    if (t->count > st->peak_table)
        st->peak_table = t->count;
    *added = true;
    return idx;
}

int64_t ps_table_insert_evicting(struct ps_table *t, uint64_t hash,
                                 const void *state, bool *added,
                                 ps_table_worth worth, void *arg)
{
    int64_t idx = ps_table_insert(t, hash, state, added);
    if (idx != PS_TABLE_FULL)
        return idx;
    /* The state is new (insert looked for it) and its probe path ends at
     * an empty slot (the load stays at most 3/4): a slot on the path that
     * takes it is found again by the same walk, and every other state's
     * walk still passes an occupied slot there. */
    state = what_is_stored(t, state);
    uint32_t tag = tag_of(hash);
    size_t mask = t->slots - 1, victim = SIZE_MAX;
    int64_t least = INT64_MAX;
    size_t i = tag & mask;
    for (int seen = 0; t->slot[i] && seen < PS_TABLE_EVICT_WINDOW;
         seen++, i = (i + 1) & mask) {
        int64_t w = worth(ps_table_value(t, slot_index(t->slot[i])), arg);
        if (w >= 0 && w < least) {
            least = w;
            victim = i;
        }
    }
    if (victim == SIZE_MAX)
        return PS_TABLE_FULL;
    idx = slot_index(t->slot[victim]);
    memcpy(ps_table_state(t, idx), state, t->state_size);
    memset((unsigned char *)ps_table_state(t, idx) + t->state_size, 0,
           t->entry_size - t->state_size);
    t->slot[victim] = slot_of(tag, (uint32_t)idx);
    t->evicted++;
    *added = true;
    return idx;
}
