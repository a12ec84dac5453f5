/*
 * lua_rules.h - rule scripts in Lua 5.4, read once into a game's rules struct.
 *
 * A rule script returns a table; psolve reads that table once, as data,
 * against the game's parameter schema (struct ps_param in game.h), copies it
 * into the C rules struct and closes the Lua state. A key that is a function
 * of n (score(n), end_bonus(r)) is evaluated for every index of its C table,
 * so the search never calls Lua. docs/rules.md documents every key.
 *
 * The sandbox is built by construction, not by deleting from a full state:
 *   - only the base, table, string, math and utf8 libraries are opened (no
 *     io, os, package/require, debug, coroutine);
 *   - dofile and loadfile are removed, load() only accepts text chunks,
 *     string.dump is removed, print() writes to stderr (stdout carries
 *     results), math.random has a fixed seed (rules are deterministic);
 *   - rules("NAME") runs another rule script, found by name only (no paths)
 *     in the rules directories, in the same sandbox and returns its table,
 *     so a variant can start from the rules it changes;
 *   - a count hook stops the script after PS_LUA_MAX_INSTRUCTIONS VM
 *     instructions (loading and tabulating together), and the allocator
 *     refuses to hold more than PS_LUA_MAX_MEMORY bytes;
 *   - every call into Lua goes through lua_pcall with a message handler that
 *     records the script's line numbers on the stack.
 * Known limit: the hook counts VM instructions, so one long-running C call
 * (a pathological string.find pattern on a long string) is not interrupted;
 * the memory cap bounds how long such a string can be.
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
 * defaults: keys the script leaves out keep them) and its `prune` search
 * defaults into `opt`. A prune key whose command-line option (e.g.
 * "no-memo") is listed in `cli_given` (NULL-terminated long option names,
 * or NULL) is checked but not copied: the command line wins. */
bool ps_lua_rules_fill(struct ps_lua_rules *s, const struct ps_game *g,
                       void *rules, struct ps_options *opt,
                       const char *const *cli_given, struct ps_error *err);

void ps_lua_rules_close(struct ps_lua_rules *s);

/* The i-th key of `prune = {...}` that maps onto struct ps_options (the
 * same for every game); NULL past the end. */
const char *ps_lua_prune_key(int i);

#endif
