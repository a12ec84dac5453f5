/*
 * rng.c - xoshiro256** seeded by splitmix64, the same numbers on every
 * platform (rng.h).
 */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void ps_rng_seed(struct ps_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

void ps_rng_seed_stream(struct ps_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = stream;
    ps_rng_seed(r, seed ^ splitmix64(&x));
}

uint64_t ps_rng_next(struct ps_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t ps_rng_below(struct ps_rng *r, uint32_t n)
{
    /* Lemire's multiply-shift with rejection: exact and branch-light. */
    uint64_t m = (uint64_t)(uint32_t)(ps_rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(ps_rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double ps_rng_double(struct ps_rng *r)
{
    return (double)(ps_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
