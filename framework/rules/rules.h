/*
 * rules.h - turning `--rules SPEC` into a game's rules struct.
 *
 * SPEC is one of (docs/rules.md):
 *   PATH.lua or a/b  a rule script file (a name ending in .lua or holding '/')
 *   NAME             the script NAME.lua, searched in this order:
 *                      each directory of $PSOLVE_RULES_PATH (':'-separated),
 *                      for a program run from its build tree: the source
 *                      tree's scripts/rules (PSOLVE_RULES_SOURCE_DIR),
 *                      otherwise: ../share/psolve/rules from the directory
 *                      of the executable (/proc/self/exe),
 *                      the configured install prefix's share/psolve/rules
 *                      (PSOLVE_RULES_INSTALL_DIR);
 *                    if no script is found, the game's built-in preset NAME
 *   builtin:NAME     the game's built-in C preset NAME, never a script
 * The built-in presets stay as a fallback (a moved binary without its
 * scripts still knows the standard rules) and as the reference that the
 * scripts are tested and benchmarked against.
 */
#ifndef PS_RULES_H
#define PS_RULES_H

#include <stdio.h>

#include "game.h"
#include "search.h"

/* Allocate and fill the rules for game g from spec (NULL = defaults). `book`
 * (NULL = nowhere) receives the rules' search defaults (a script's `prune`
 * table), in every algorithm that declares the option. Returns NULL with err
 * filled on failure; free() the result. */
void *ps_rules_resolve(const struct ps_game *g, const char *spec,
                       struct ps_algo_book *book, struct ps_error *err);

/* The same for the command line: `cli_given` lists the long options given
 * (NULL-terminated, e.g. "no-memo", "candidates"); a script default for one
 * of them is not copied into the book, so explicit options win. `gen`
 * (NULL = nowhere) receives a script's `gen = { ... }` sizes, psolve gen's
 * defaults under these rules. */
void *ps_rules_resolve_cli(const struct ps_game *g, const char *spec,
                           struct ps_algo_book *book,
                           const char *const *cli_given,
                           struct ps_gen_options *gen, struct ps_error *err);

/* When spec names a script with a `game` key, set *g to that game (used
 * when --game is not given). Leaves *g alone otherwise. False with err when
 * the script fails or names an unknown game. */
bool ps_rules_game(const char *spec, const struct ps_game **g,
                   struct ps_error *err);

/* A hash of the rules' values, read through the game's schema (every
 * parameter's key and value; padding never counts), so that a solution
 * records the rules it was solved under and verify can tell when it is
 * replayed under others, whatever preset or script produced them. */
uint64_t ps_rules_hash(const struct ps_game *g, const void *rules);

/* The "# rules:" comment a solution file carries: "NAME hash HEX" (NAME =
 * spec, or "default"), into buf. */
void ps_rules_stamp(const struct ps_game *g, const char *spec,
                    const void *rules, char *buf, size_t len);

/* Find a "# rules: NAME hash HEX" line in a solution's text. True with the
 * name, the hash and the 1-based line when there is one. */
bool ps_rules_stamp_find(const char *text, size_t len, char *name,
                         size_t name_len, uint64_t *hash, int *line);

/* Print the directories searched for rule scripts and the scripts found. */
void ps_rules_list_scripts(FILE *out);

/* The same for the games written in Lua that psolve ships (games/lua/:
 * the source tree's for a program run from its build tree, else
 * ../share/psolve/games/lua beside the executable, then the install
 * prefix's): each script with what `describe` says of it (the caller opens
 * the game: the Lua game adapter lives above this folder, in games/lua) and
 * its NAME-*.txt puzzles. describe writes "NAME: SUMMARY" into buf, or
 * returns false when the script does not load. */
void ps_rules_list_lua_games(FILE *out,
                             bool (*describe)(const char *path, char *buf,
                                              size_t len));

#endif
