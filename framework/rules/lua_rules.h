/*
 * lua_rules.h - rule scripts in Lua 5.4, read once into a game's rules struct.
 *
 * A rule script returns a table; psolve reads that table once, as data,
 * against the game's parameter schema (struct ps_param in game.h), copies it
 * into the C rules struct and closes the Lua state. A key that is a function
 * of n (score(n), end_bonus(r)) is evaluated for every index of its C table,
 * so the search never calls Lua. docs/rules.md documents every key.
 *
 * The script runs in the sandbox of lua_sandbox.h (only safe libraries, no
 * finalizers, bounded C functions, capped instructions, memory and wall
 * time), plus one function of its own:
 *   - rules("NAME") runs another rule script, found by name only (no paths)
 *     in the rules directories, in the same sandbox and returns its table,
 *     so a variant can start from the rules it changes (at most 8 deep and
 *     64 calls per load).
 * Loading ANY script - from ps_lua_rules_open to ps_lua_rules_close -
 * ends within PS_LUA_MAX_SECONDS, with rules or with an error: past
 * PS_LUA_MAX_SECONDS - PS_LUA_GRACE_SECONDS the hook stops the script, and
 * if it is stuck in one C call the watchdog ends the process at
 * PS_LUA_MAX_SECONDS (docs/rules.md, "The sandbox").
 */
#ifndef PS_LUA_RULES_H
#define PS_LUA_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "game.h"
#include "search.h"

/* Lua VM instructions one script may execute (about 0.1 s). */
#define PS_LUA_MAX_INSTRUCTIONS 20000000u
/* Bytes one script's Lua state may hold. */
#define PS_LUA_MAX_MEMORY ((size_t)32 << 20)
/* Wall-clock bound of one load, and the part of it left to a script stuck
 * in C after the hook's deadline. */
#define PS_LUA_MAX_SECONDS 10.0
#define PS_LUA_GRACE_SECONDS 1.0

struct ps_lua_options {
    uint64_t instructions; /* 0 = PS_LUA_MAX_INSTRUCTIONS */
    size_t memory;         /* 0 = PS_LUA_MAX_MEMORY */
    bool quiet;            /* print() prints nothing (a second run) */
    /* Path of the rule script NAME, for rules("NAME") in scripts (NULL:
     * scripts get no rules() function). */
    bool (*find_script)(const char *name, char *path, size_t len);
};

/* A script that has run and returned its table. */
struct ps_lua_rules;

/* Read and run the script at `path` in a fresh sandbox (o NULL = the
 * default limits). Returns NULL with err filled (file, line, Lua message). */
struct ps_lua_rules *ps_lua_rules_open(const char *path,
                                       const struct ps_lua_options *o,
                                       struct ps_error *err);

/* The script's `game` key: the game name, or NULL when the script names
 * none. False with err when `game` is not a string. The name lives until
 * ps_lua_rules_close. */
bool ps_lua_rules_game(struct ps_lua_rules *s, const char **game,
                       struct ps_error *err);

/* Copy the script's table into `rules` (which already holds the game's
 * defaults: keys the script leaves out keep them), its `prune` search
 * defaults into `book` and its `gen` sizes into `gen` (either NULL: checked,
 * kept nowhere). A prune key whose command-line option (e.g. "no-memo") is
 * listed in `cli_given` (NULL-terminated long option names, or NULL) is
 * checked but not copied: the command line wins. */
bool ps_lua_rules_fill(struct ps_lua_rules *s, const struct ps_game *g,
                       void *rules, struct ps_algo_book *book,
                       const char *const *cli_given,
                       struct ps_gen_options *gen, struct ps_error *err);

void ps_lua_rules_close(struct ps_lua_rules *s);

/* The i-th key of `prune = {...}` that maps onto an algorithm's option (the
 * same for every game); NULL past the end. */
const char *ps_lua_prune_key(int i);

#endif
