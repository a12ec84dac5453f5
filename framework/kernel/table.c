/*
 * table.c - the exact state table (table.h): hashed slots over an arena of
 * whole states.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 1024

static uint64_t nonzero(uint64_t h)
{
    return h ? h : 0x9e3779b97f4a7c15ULL;
}

bool ps_table_init(struct ps_table *t, struct ps_search *s, size_t value_size)
{
    memset(t, 0, sizeof *t);
    t->search = s;
    t->state_size = s->state_size;
    t->value_size = value_size;
    t->entry_size = (s->state_size + value_size + 7) & ~(size_t)7;
    size_t bytes = MIN_SLOTS * (sizeof *t->hashes + sizeof *t->index);
    if (!ps_memory_reserve(s, bytes))
        return false;
    t->hashes = calloc(MIN_SLOTS, sizeof *t->hashes);
    t->index = malloc(MIN_SLOTS * sizeof *t->index);
    if (!t->hashes || !t->index) {
        ps_table_free(t);
        return false;
    }
    t->slots = MIN_SLOTS;
    return true;
}

void ps_table_free(struct ps_table *t)
{
    if (t->search)
        ps_memory_release(t->search,
                          t->slots * (sizeof *t->hashes + sizeof *t->index) +
                              t->capacity * t->entry_size);
    free(t->hashes);
    free(t->index);
    free(t->arena);
    t->hashes = NULL;
    t->index = NULL;
    t->arena = NULL;
    t->slots = t->capacity = t->count = 0;
}

void ps_table_clear(struct ps_table *t)
{
    memset(t->hashes, 0, t->slots * sizeof *t->hashes);
    t->count = 0;
    t->search->stats.table_entries = 0;
}

static bool same_state(const struct ps_table *t, int64_t i, const void *state)
{
    const struct ps_search *s = t->search;
    return ps_game_equal(s->game, s->inst, ps_table_state(t, i), state);
}

int64_t ps_table_find(const struct ps_table *t, uint64_t hash,
                      const void *state)
{
    hash = nonzero(hash);
    size_t mask = t->slots - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        if (t->hashes[i] == 0)
            return PS_TABLE_NONE;
        if (t->hashes[i] == hash && same_state(t, t->index[i], state))
            return t->index[i];
    }
}

static bool grow_slots(struct ps_table *t)
{
    size_t slots = t->slots * 2;
    size_t per_slot = sizeof *t->hashes + sizeof *t->index;
    if (!ps_memory_reserve(t->search, slots * per_slot))
        return false;
    uint64_t *hashes = calloc(slots, sizeof *hashes);
    uint32_t *index = malloc(slots * sizeof *index);
    if (!hashes || !index) {
        free(hashes);
        free(index);
        ps_memory_release(t->search, slots * per_slot);
        return false;
    }
    size_t mask = slots - 1;
    for (size_t i = 0; i < t->slots; i++) {
        if (!t->hashes[i])
            continue;
        size_t j = (size_t)t->hashes[i] & mask;
        while (hashes[j])
            j = (j + 1) & mask;
        hashes[j] = t->hashes[i];
        index[j] = t->index[i];
    }
    free(t->hashes);
    free(t->index);
    ps_memory_release(t->search, t->slots * per_slot);
    t->hashes = hashes;
    t->index = index;
    t->slots = slots;
    return true;
}

static bool grow_arena(struct ps_table *t)
{
    size_t cap = t->capacity ? t->capacity * 2 : 1024;
    if (cap > UINT32_MAX)
        return false;
    size_t extra = (cap - t->capacity) * t->entry_size;
    if (!ps_memory_reserve(t->search, extra))
        return false;
    unsigned char *arena = realloc(t->arena, cap * t->entry_size);
    if (!arena) {
        ps_memory_release(t->search, extra);
        return false;
    }
    t->arena = arena;
    t->capacity = cap;
    return true;
}

int64_t ps_table_insert(struct ps_table *t, uint64_t hash, const void *state,
                        bool *added)
{
    hash = nonzero(hash);
    *added = false;
    t->search->stats.table_probes++;
    size_t mask = t->slots - 1, i = (size_t)hash & mask;
    for (; t->hashes[i]; i = (i + 1) & mask)
        if (t->hashes[i] == hash && same_state(t, t->index[i], state)) {
            t->search->stats.table_hits++;
            return t->index[i];
        }
    if (t->count == t->capacity && !grow_arena(t))
        return PS_TABLE_FULL;
    if (2 * (t->count + 1) > t->slots) {
        if (!grow_slots(t))
            return PS_TABLE_FULL;
        mask = t->slots - 1;
        for (i = (size_t)hash & mask; t->hashes[i]; i = (i + 1) & mask)
            ;
    }
    int64_t idx = (int64_t)t->count++;
    memcpy(ps_table_state(t, idx), state, t->state_size);
    memset((unsigned char *)ps_table_state(t, idx) + t->state_size, 0,
           t->entry_size - t->state_size);
    t->hashes[i] = hash;
    t->index[i] = (uint32_t)idx;
    struct ps_stats *st = &t->search->stats;
    st->table_entries = t->count;
    if (t->count > st->peak_table)
        st->peak_table = t->count;
    *added = true;
    return idx;
}
