/*
 * fuzz_support.h - what the libFuzzer harnesses share (docs/fuzzing.md):
 * choosing a game and its rules from an input byte, and the game oracles,
 * the vtable's promises (game.h) checked on every state a harness reaches.
 * A broken promise prints what broke and aborts, so libFuzzer keeps the
 * input as a crash.
 */
#ifndef PS_FUZZ_SUPPORT_H
#define PS_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* The game and rules an input byte picks: game = byte % (the registered
 * games), preset = (byte / 3) % (presets + 1), 0 = the
 * defaults, k = the k-th preset. */
struct fuzz_pick {
    const struct ps_game *game;
    void *rules; /* malloc'd, filled */
    const char *preset; /* NULL = defaults */
};
void fuzz_pick(uint8_t byte, struct fuzz_pick *p);
void fuzz_pick_free(struct fuzz_pick *p);

/* Read `size` bytes as a puzzle file (fuzz_text) and load it with the game
 * and rules `byte` picks into *p. NULL when psolve would refuse the file or
 * the parser refuses it (which must say why); *p is then freed. */
void *fuzz_load(uint8_t byte, const void *file, size_t size,
                struct fuzz_pick *p);

/* Report a broken oracle and abort (libFuzzer keeps the input). */
_Noreturn void fuzz_fail(const struct ps_game *g, const char *fmt, ...)
    PS_PRINTF(2, 3);

/* The conformance check (ps_game_conforms, conformance.h: every promise of
 * the vtable on every state of a walk of at most `steps` moves, chosen by
 * `seed`); a broken one is fuzz_fail. `rules` are the rules inst was
 * loaded with. */
void fuzz_check_game(const struct ps_game *g, const void *rules,
                     const void *inst, int steps, uint64_t seed);

/* Write data to this process's temporary file `name` (under $TMPDIR, else
 * /tmp) and return its path, so a harness reads input the way psolve does
 * (ps_read_text_file: text only, NUL-terminated). The files are removed at
 * exit. */
const char *fuzz_file(const char *name, const void *data, size_t size);
/* The same, then read back with ps_read_text_file: false when psolve would
 * refuse the file before any parser sees it. free() *text. */
bool fuzz_text(const char *name, const void *data, size_t size, char **text,
               size_t *len);

/* 64-bit FNV-1a of the input, a seed that follows the bytes. */
uint64_t fuzz_seed(const uint8_t *data, size_t size);

#endif
