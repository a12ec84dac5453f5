/*
 * lua_game.h - games written in Lua (docs/lua-games.md): a script returns a
 * table of functions (load, start, moves, apply, is_goal, ...), and this
 * adapter turns it into a `struct ps_game`, so every algorithm runs on it
 * unchanged.
 *
 * Each loaded puzzle (instance) has its own sandbox (lua_sandbox.h) with the
 * script run afresh in it, so two instances may be searched on two threads
 * (lab --jobs); one instance is used by one thread at a time (the game has
 * PS_ONE_THREAD: Monte Carlo and beam run one thread on it).
 *
 * States. A Lua state (a string, a table, any value) is interned per
 * instance: the state bytes the kernel copies and hashes are a 32-bit id,
 * the same id for states with the same key (the state itself when it is a
 * string or a number, else the script's key(p, s)). Memory therefore grows
 * with the number of different states seen, up to the sandbox's cap.
 * Moves are indices into the list moves(p, s) returns for that state.
 *
 * Limits. The sandbox's memory cap (PS_LUA_GAME_MEMORY), no instruction
 * cap; inside a search the script is stopped at the search's --time and at
 * Ctrl-C (the kernel's begin_search/end_search slots); outside a search
 * (loading, printing, replaying) each call has the rule scripts' time
 * limit. A failing call makes the game's fault() slot report the error with
 * the script's file:line, and the search stops.
 */
#ifndef PS_LUA_GAME_H
#define PS_LUA_GAME_H

#include <stdbool.h>

#include "game.h"

/* Bytes a game script's sandbox may hold: states are interned in it, so it
 * is larger than a rule script's. */
#define PS_LUA_GAME_MEMORY ((size_t)256 << 20)
/* At most this many Lua games open at once in one process. */
#define PS_LUA_MAX_GAMES 4

/* Does the --game argument name a Lua script (it ends in ".lua")? */
bool ps_lua_game_is_script(const char *name);

/* Read and check the game script at `path` (its table, its functions) and
 * return its game, which lives until ps_lua_game_close. NULL with err
 * naming the script's file:line. */
const struct ps_game *ps_lua_game_open(const char *path, struct ps_error *err);
void ps_lua_game_close(const struct ps_game *g);

#endif
