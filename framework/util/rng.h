/*
 * rng.h - a small, fast PRNG (xoshiro256**, seeded by splitmix64) that gives
 * the same numbers on every platform, unlike rand(). One ps_rng per thread.
 */
#ifndef PS_RNG_H
#define PS_RNG_H

#include <stdint.h>

struct ps_rng {
    uint64_t s[4];
};

void ps_rng_seed(struct ps_rng *r, uint64_t seed);
/* An independent stream for worker `stream` of a run seeded with `seed`. */
void ps_rng_seed_stream(struct ps_rng *r, uint64_t seed, uint64_t stream);
uint64_t ps_rng_next(struct ps_rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint32_t ps_rng_below(struct ps_rng *r, uint32_t n);
/* Uniform in [0, 1). */
double ps_rng_double(struct ps_rng *r);

#endif
