/*
 * conformance.h - a game checked by what it does (docs/writing-a-game.md,
 * "The conformance check"): a random walk over one puzzle on which every
 * promise of the vtable (game.h) is checked on every state met. Run by
 * `psolve check-game`, tests/test_conformance.c (every registered game on
 * every bundled puzzle) and the fuzz harnesses.
 */
#ifndef PS_CONFORMANCE_H
#define PS_CONFORMANCE_H

#include <stdint.h>

#include "error.h"
#include "game.h"

/* Walk `steps` random moves (seed) from inst's start under `rules` (the
 * rules inst was loaded with: printed states are loaded back under them)
 * and check, on every state met:
 *   - moves() lists at most max_moves() moves, the same ones with and
 *     without gains; legal() (when filled) accepts every one;
 *   - apply() returns the gain moves() listed (cost games: a cost >= 0)
 *     and writes the same successor into a buffer of 0x00 bytes as into
 *     one of 0xff bytes: state bytes are canonical (padding zeroed), or
 *     the game's equal() and hash() see them equal;
 *   - equal states hash equal, whichever path reached them, and a copy of
 *     a state hashes as the state;
 *   - format_move() then parse_move() names the same move (same successor,
 *     same value); describe_move() and facts() (when filled) keep to
 *     their bounds;
 *   - redundant_after() (when filled) only skips a move whose other order
 *     reaches the same state at the same value;
 *   - print_state() writes a file that loads under the same rules into a
 *     puzzle that prints the same, and two unequal states never print
 *     alike (a print that leaves out part of the position would load as
 *     another);
 *   - a score game's walk ends within max_depth() moves;
 *   - the walk's line, replayed as `psolve verify` replays it
 *     (ps_replay_moves), reaches the same state at the same value, and its
 *     text (format_move) reads back (ps_read_solution) as the same moves;
 *   - evaluate_moves() (when filled) gives every child's evaluate().
 * False at the first broken promise, err saying which (the game's name
 * first). */
bool ps_game_conforms(const struct ps_game *g, const void *rules,
                      const void *inst, int steps, uint64_t seed,
                      struct ps_error *err);

#endif
