/*
 * hash.h - a fast 64-bit hash of a byte string, for states that are canonical
 * blobs. Word-at-a-time multiply-mix; not cryptographic, well spread in all
 * 64 bits (tables use the low bits for the slot and the high bits as a tag).
 */
#ifndef PS_HASH_H
#define PS_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t ps_hash_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t ps_hash_bytes(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
        p += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = (h ^ tail) * 0x100000001b3ULL;
    return ps_hash_mix(h);
}

/* A set of hashes in `slots` words (a power of two, zeroed, more than the
 * hashes it will hold), linear probing: add h; false if it was there. The
 * hash's low bit is set, as 0 marks an empty slot (so h and h ^ 1 are one:
 * a beam takes them for one state, which costs at worst a worse line). */
static inline bool ps_hash_set_add(uint64_t *set, size_t slots, uint64_t h)
{
    h |= 1;
    for (size_t i = (size_t)h & (slots - 1);; i = (i + 1) & (slots - 1)) {
        if (set[i] == h)
            return false;
        if (set[i] == 0) {
            set[i] = h;
            return true;
        }
    }
}

#endif
