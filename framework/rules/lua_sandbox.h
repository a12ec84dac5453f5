/*
 * lua_sandbox.h - one Lua 5.4 state built as a sandbox, with limits that hold
 * whatever the script does. Rule scripts (lua_rules.c) and games written in
 * Lua (framework/providers/lua_game.c) both run in it.
 *
 * By construction:
 *   - only the base, table, string, math and utf8 libraries are opened (no
 *     io, os, package/require, debug, coroutine); dofile, loadfile and
 *     string.dump are removed; load() only accepts text chunks; print()
 *     writes to stderr (stdout carries results);
 *   - math.random starts from a fixed seed and math.randomseed() without a
 *     seed (which would read the clock) is refused: same script, same result;
 *   - setmetatable() refuses a metatable with __gc: finalizers run with the
 *     hook off (during a collection and at lua_close), where no limit could
 *     stop them; xpcall() runs its message handler after unwinding, not at
 *     the error point, for the same reason (the handler of an error raised
 *     by the hook would run unhooked). Without the debug library a handler
 *     cannot look at the stack anyway, so nothing a script can see changes;
 *   - the C library functions whose loops do not depend on memory are
 *     charged for their work, one instruction per element or comparison:
 *     table.move, table.insert, table.remove, table.sort (every comparison,
 *     also with a C function as comparator) and load() (one per byte of the
 *     chunk); string.rep makes an empty result at once and refuses one over
 *     the memory cap before its loop, which the cap then bounds.
 * Limits:
 *   - instructions: a count hook adds up VM instructions (and the charges
 *     above) and stops the script past the cap; once a limit is hit the hook
 *     fires on every instruction, so a pcall cannot swallow it;
 *   - memory: the allocator refuses to hold more than the cap; the first
 *     refusal is final (every later instruction raises the memory error), so
 *     a script cannot live on at the cap where each allocation costs a full
 *     emergency collection;
 *   - wall time: a watchdog thread times each call into the sandbox
 *     (ps_lua_sandbox_enter .. leave). Past `seconds` it raises a flag that
 *     the hook turns into an error (and Ctrl-C does the same); if the call
 *     is still running `grace` seconds later, it is stuck in one C function
 *     (a pathological string.find pattern) that cannot be interrupted
 *     safely, and the watchdog ends the process with a clear message and
 *     PS_EXIT_ERROR. So every call into a sandbox ends within
 *     seconds + grace, whatever the script does.
 * Every call into Lua goes through lua_pcall with a message handler that
 * records the script's line numbers on the stack (ps_lua_sandbox_pcall).
 */
#ifndef PS_LUA_SANDBOX_H
#define PS_LUA_SANDBOX_H

#include <lua.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct ps_lua_limits {
    uint64_t instructions;  /* over the sandbox's life; 0 = no cap */
    size_t memory;          /* bytes the state may hold (required) */
    double seconds;         /* one call into the sandbox; 0 = no clock */
    double grace;           /* then the process ends (0 = 1 s) */
    const char *limit_name; /* in messages: "the rules sandbox limit" */
    bool quiet;             /* print() prints nothing */
};

struct ps_lua_sandbox;

/* The stack slot of the message handler while the sandbox is open. */
enum { PS_LUA_SLOT_HANDLER = 1 };

/* A fresh sandbox for the script at `path` (used in messages and to find
 * the script's lines in a traceback; nothing is read). NULL with err. */
struct ps_lua_sandbox *ps_lua_sandbox_open(const char *path,
                                           const struct ps_lua_limits *lim,
                                           struct ps_error *err);
/* Closes the state inside a timed call, then stops the watchdog. */
void ps_lua_sandbox_close(struct ps_lua_sandbox *sb);

lua_State *ps_lua_sandbox_state(const struct ps_lua_sandbox *sb);
struct ps_lua_sandbox *ps_lua_sandbox_of(lua_State *L);
const char *ps_lua_sandbox_path(const struct ps_lua_sandbox *sb);
/* Is the value at idx a string with a NUL byte in it? C would read it
 * cut at the NUL ('samegame\0x' as 'samegame'): such names and texts are
 * refused, never taken for their first part. */
bool ps_lua_has_nul(lua_State *L, int idx);
/* What the sandbox's user keeps for its own C functions (rules()). */
void ps_lua_sandbox_set_owner(struct ps_lua_sandbox *sb, void *owner);
void *ps_lua_sandbox_owner(lua_State *L);

/* Start and end one timed call (nesting is not counted: enter twice, the
 * clock keeps the first start). */
void ps_lua_sandbox_enter(struct ps_lua_sandbox *sb);
void ps_lua_sandbox_leave(struct ps_lua_sandbox *sb);

/* Compile `text` as the script (text mode, named after the path) and run
 * it with lua_pcall, leaving nresults values. Returns the Lua status. */
int ps_lua_sandbox_run(struct ps_lua_sandbox *sb, const char *text, size_t len,
                       int nresults);
/* lua_pcall with the sandbox's message handler. */
int ps_lua_sandbox_pcall(struct ps_lua_sandbox *sb, int nargs, int nresults);
/* Turn a failed call (status, message on the stack top) into err: file,
 * the script's line, "what" (e.g. "score(3): ") and the message. Pops it.
 * Returns false. */
bool ps_lua_sandbox_failure(struct ps_lua_sandbox *sb, int status,
                            const char *what, struct ps_error *err);

/* Which limit stopped the last call that failed (NONE: the script's own
 * error). */
enum ps_lua_stop {
    PS_LUA_STOP_NONE,
    PS_LUA_STOP_MEMORY,
    PS_LUA_STOP_INSTRUCTIONS,
    PS_LUA_STOP_TIME,      /* the watchdog: lim.seconds for one call */
    PS_LUA_STOP_DEADLINE,  /* the search's deadline (set_search) */
    PS_LUA_STOP_INTERRUPT, /* Ctrl-C */
};
enum ps_lua_stop ps_lua_sandbox_stopped(const struct ps_lua_sandbox *sb);

/* For games written in Lua, whose calls run inside a search: while
 * `searching`, the count hook also stops the script at `deadline`
 * (ps_now() seconds; 0 = none) and at Ctrl-C; outside a search Ctrl-C is
 * not the script's business (the caller bounds those calls with the
 * watchdog instead), so the best line of an interrupted search can still
 * be replayed. Clears the last stop, and the every-instruction hook that a
 * deadline or Ctrl-C left behind (not a memory or instruction limit: those
 * are final). */
void ps_lua_sandbox_set_search(struct ps_lua_sandbox *sb, bool searching,
                               double deadline);
/* While searching, the watchdog (if the sandbox has one: lim.seconds > 0)
 * checks every `grace` seconds: once the deadline has passed or Ctrl-C was
 * pressed, a ps_lua_sandbox_pcall still running at two checks in a row is
 * stuck in one C function, and the process ends as it does for a stuck
 * timed call. */

/* Charge `work` instructions for C work done on the script's behalf;
 * raises a Lua error when a limit is passed. For the sandbox's C
 * functions. */
void ps_lua_sandbox_charge(lua_State *L, uint64_t work);

#endif
