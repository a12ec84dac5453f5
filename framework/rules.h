/*
 * rules.h - turning `--rules SPEC` into a game's rules struct.
 * SPEC is a built-in preset name of the game (see `psolve list`).
 */
#ifndef PS_RULES_H
#define PS_RULES_H

#include "game.h"
#include "search.h"

/* Allocate and fill the rules for game g from spec (NULL = defaults). `opt`
 * receives the rules' search defaults (command-line options override them
 * afterwards). Returns NULL with err filled on failure; free() the result. */
void *ps_rules_resolve(const struct ps_game *g, const char *spec,
                       struct ps_options *opt, struct ps_error *err);

#endif
