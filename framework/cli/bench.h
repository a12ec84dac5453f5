/*
 * bench.h - `psolve bench`: random playouts per second on the game's
 * benchmark sizes (generated boards), one line per size.
 */
#ifndef PS_BENCH_H
#define PS_BENCH_H

#include <stdio.h>

#include "game.h"

/* Runs about `seconds` per size; `only` (not NULL) benches that one size
 * (gen options) instead of the game's list. False with err on failure. */
bool ps_bench_playouts(FILE *out, const struct ps_game *g, const void *rules,
                       double seconds, uint64_t seed,
                       const struct ps_gen_options *only, struct ps_error *err);

#endif
