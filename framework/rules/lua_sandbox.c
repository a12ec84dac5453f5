/*
 * lua_sandbox.c - the sandbox of lua_sandbox.h: trimmed libraries, the
 * capped allocator, the instruction and clock hook (with its watchdog
 * thread), and pcall with a traceback.
 */
#include "lua_sandbox.h"

#include <errno.h>
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "search.h"

/* The count hook runs every HOOK_STEP instructions; past a limit it runs on
 * every instruction, so a script that catches the error with pcall in a
 * loop still cannot get further. */
#define HOOK_STEP 1000
#define MAX_TRACE_LINES 6

struct ps_lua_sandbox {
    lua_State *L;
    struct ps_lua_limits lim;
    char *path;
    char *chunkname; /* "@" path: Lua's name for the script */
    void *owner;
    size_t mem_used;
    /* Set by the first refused allocation: from then on every instruction
     * raises the memory error (final, see lua_sandbox.h). */
    bool mem_exhausted;
    uint64_t instructions;
    int hook_step; /* instructions between two calls of the hook */
    /* Games (ps_lua_sandbox_set_search): the search's deadline (ps_now
     * seconds, 0 = none), whether Ctrl-C stops the script, and which limit
     * stopped the last call. */
    double deadline;
    bool ignore_interrupt;
    bool searched; /* a search has run: see ps_lua_sandbox_set_search */
    enum ps_lua_stop stopped;
    /* Filled by the message handler: the script's lines on the stack when
     * the last error was raised, innermost first. */
    int trace[MAX_TRACE_LINES];
    int ntrace;

    /* Odd while ps_lua_sandbox_pcall runs: the watchdog tells a call stuck
     * in one C function during a search from calls that come and go. */
    atomic_uint call_seq;

    /* The watchdog: mu guards everything below but `expired`. */
    atomic_bool expired; /* the call in progress passed lim.seconds */
    bool has_watchdog, closing, in_call;
    /* A search in progress (ps_lua_sandbox_set_search): its calls are not
     * timed one by one, the hook stops them at the deadline or Ctrl-C. */
    bool watching_search;
    double watch_deadline;
    double call_start;
    pthread_t watchdog;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

/* Registry key of the memory error's message, made before any script runs
 * (raising it must not allocate). */

/* After a search's deadline, how long one call may go on before it counts
 * as stuck in a C function (the hook stops Lua code at once). */
#define SEARCH_STUCK_SECONDS 0.25
static const char memory_message_key = 0;

/* ---- limits ---- */

/* The first refusal makes the memory error final. */
static void memory_refused(struct ps_lua_sandbox *sb)
{
    if (sb->mem_exhausted)
        return;
    sb->mem_exhausted = true;
    /* Safe from anywhere, even inside an allocation: it only sets the hook
     * fields. */
    sb->hook_step = 1;
    lua_sethook(sb->L, lua_gethook(sb->L), LUA_MASKCOUNT, 1);
}

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct ps_lua_sandbox *sb = ud;
    /* osize is the old block size only when ptr is not NULL. */
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        sb->mem_used -= old;
        return NULL;
    }
    if (nsize > old && nsize - old > sb->lim.memory - sb->mem_used) {
        if (sb->L)
            memory_refused(sb);
        return NULL; /* Lua raises a memory error */
    }
    void *p = realloc(ptr, nsize);
    if (p)
        sb->mem_used = sb->mem_used - old + nsize;
    return p;
}

struct ps_lua_sandbox *ps_lua_sandbox_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

/* Raise the error of the first limit passed, if any. */
static void check_limits(lua_State *L, struct ps_lua_sandbox *sb)
{
    if (sb->mem_exhausted) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &memory_message_key);
        lua_error(L);
    }
    enum ps_lua_stop why = PS_LUA_STOP_NONE;
    if (sb->lim.instructions && sb->instructions >= sb->lim.instructions)
        why = PS_LUA_STOP_INSTRUCTIONS;
    else if (atomic_load_explicit(&sb->expired, memory_order_relaxed))
        why = PS_LUA_STOP_TIME;
    else if (sb->deadline > 0 && ps_now() >= sb->deadline)
        why = PS_LUA_STOP_DEADLINE;
    else if (ps_interrupted && !sb->ignore_interrupt)
        why = PS_LUA_STOP_INTERRUPT;
    if (why == PS_LUA_STOP_NONE)
        return;
    sb->stopped = why;
    sb->hook_step = 1;
    lua_sethook(L, lua_gethook(L), LUA_MASKCOUNT, 1);
    if (why == PS_LUA_STOP_INSTRUCTIONS)
        luaL_error(L, "the script ran for more than %I Lua instructions (%s; "
                      "an endless loop?)",
                   (lua_Integer)sb->lim.instructions, sb->lim.limit_name);
    else if (why == PS_LUA_STOP_TIME)
        luaL_error(L, "the script ran for more than %f s (%s; an endless "
                      "loop?)",
                   (lua_Number)sb->lim.seconds, sb->lim.limit_name);
    else if (why == PS_LUA_STOP_DEADLINE)
        luaL_error(L, "the script was still running at the search's time "
                      "limit (--time; an endless loop?)");
    else
        luaL_error(L, "interrupted (%s)", ps_interrupted == SIGINT
                                          ? "Ctrl-C"
                                          : ps_signal_name(ps_interrupted));
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    struct ps_lua_sandbox *sb = ps_lua_sandbox_of(L);
    sb->instructions += (uint64_t)sb->hook_step;
    check_limits(L, sb);
}

void ps_lua_sandbox_charge(lua_State *L, uint64_t work)
{
    struct ps_lua_sandbox *sb = ps_lua_sandbox_of(L);
    sb->instructions = work > UINT64_MAX - sb->instructions ? UINT64_MAX
                                                            : sb->instructions + work;
    check_limits(L, sb);
}

void ps_lua_sandbox_set_search(struct ps_lua_sandbox *sb, bool searching,
                               double deadline)
{
    if (sb->has_watchdog) {
        pthread_mutex_lock(&sb->mu);
        sb->watching_search = searching;
        sb->watch_deadline = searching ? deadline : 0;
        pthread_cond_signal(&sb->cv);
        pthread_mutex_unlock(&sb->mu);
    }
    sb->deadline = searching ? deadline : 0;
    /* After a search, the best line is still drawn and printed through
     * the script: the Ctrl-C that stopped the search must not stop that.
     * Before any search (a game or rules script loading) it stops the
     * script with an error, as the process's default action would, but
     * with a message. */
    sb->searched |= searching;
    sb->ignore_interrupt = !searching && sb->searched;
    sb->stopped = PS_LUA_STOP_NONE;
    bool over = sb->lim.instructions &&
                sb->instructions >= sb->lim.instructions;
    if (!sb->mem_exhausted && !over && sb->hook_step != HOOK_STEP) {
        sb->hook_step = HOOK_STEP;
        lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, HOOK_STEP);
    }
}

enum ps_lua_stop ps_lua_sandbox_stopped(const struct ps_lua_sandbox *sb)
{
    return sb->mem_exhausted ? PS_LUA_STOP_MEMORY : sb->stopped;
}

/* ---- the watchdog ---- */

static struct timespec timespec_at(double t)
{
    struct timespec ts;
    ts.tv_sec = (time_t)t;
    ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_nsec = 999999999L;
    return ts;
}

/* Sleeps until a call passes its time, raises `expired` for the hook, and
 * ends the process when the call is still running `grace` seconds later. */
/* A search's calls: past the deadline (or after Ctrl-C) the hook stops any
 * Lua code at once, so the same call still running at two checks `grace`
 * apart is stuck in one C function; end the process then. */
static void watch_search(struct ps_lua_sandbox *sb, unsigned *last_seq)
{
    double now = ps_now();
    bool armed = ps_interrupted ||
                 (sb->watch_deadline > 0 && now >= sb->watch_deadline);
    unsigned seq = atomic_load(&sb->call_seq);
    /* Past the deadline every Lua instruction stops the call, so a call
     * still running a quarter of a second on is in one C function: the
     * run's --time is overshot by that much, not by a whole grace (issue
     * 32: 1.1 s over --time 1 before). */
    double recheck = sb->lim.grace < SEARCH_STUCK_SECONDS ? sb->lim.grace
                                                          : SEARCH_STUCK_SECONDS;
    if (armed && (seq & 1u) && seq == *last_seq) {
        fprintf(stderr,
                "psolve: %s: error: the script is still running %g s after "
                "the search's time limit or Ctrl-C, inside one C function "
                "that cannot be interrupted safely (a pathological string "
                "pattern?); psolve stops here\n",
                sb->path, recheck);
        _exit(PS_EXIT_ERROR);
    }
    *last_seq = armed ? seq : 0;
    /* Armed: check again soon; a second signal: the user will not wait. */
    double wake = now + (ps_signal_count >= 2 && recheck > 0.1 ? 0.1
                         : armed                            ? recheck
                                                            : sb->lim.grace);
    if (!armed && sb->watch_deadline > now && sb->watch_deadline < wake)
        wake = sb->watch_deadline;
    struct timespec until = timespec_at(wake);
    pthread_cond_timedwait(&sb->cv, &sb->mu, &until);
}

static void *watchdog_main(void *arg)
{
    struct ps_lua_sandbox *sb = arg;
    unsigned last_seq = 0;
    pthread_mutex_lock(&sb->mu);
    while (!sb->closing) {
        if (!sb->in_call && sb->watching_search) {
            watch_search(sb, &last_seq);
            continue;
        }
        last_seq = 0;
        if (!sb->in_call) {
            pthread_cond_wait(&sb->cv, &sb->mu);
            continue;
        }
        double soft = sb->call_start + sb->lim.seconds;
        double hard = soft + sb->lim.grace;
        double now = ps_now();
        if (now >= hard) {
            fprintf(stderr,
                    "psolve: %s: error: the script is still running after "
                    "%g s (%s), inside one C function that cannot be "
                    "interrupted safely (a pathological string pattern?); "
                    "psolve stops here\n",
                    sb->path, sb->lim.seconds + sb->lim.grace,
                    sb->lim.limit_name);
            _exit(PS_EXIT_ERROR);
        }
        if (now >= soft)
            atomic_store(&sb->expired, true);
        struct timespec until = timespec_at(now >= soft ? hard : soft);
        pthread_cond_timedwait(&sb->cv, &sb->mu, &until);
    }
    pthread_mutex_unlock(&sb->mu);
    return NULL;
}

static bool watchdog_start(struct ps_lua_sandbox *sb)
{
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0)
        return false;
    bool ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
              pthread_cond_init(&sb->cv, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!ok)
        return false;
    if (pthread_mutex_init(&sb->mu, NULL) != 0) {
        pthread_cond_destroy(&sb->cv);
        return false;
    }
    if (pthread_create(&sb->watchdog, NULL, watchdog_main, sb) != 0) {
        pthread_mutex_destroy(&sb->mu);
        pthread_cond_destroy(&sb->cv);
        return false;
    }
    sb->has_watchdog = true;
    return true;
}

static void watchdog_stop(struct ps_lua_sandbox *sb)
{
    if (!sb->has_watchdog)
        return;
    pthread_mutex_lock(&sb->mu);
    sb->closing = true;
    pthread_cond_signal(&sb->cv);
    pthread_mutex_unlock(&sb->mu);
    pthread_join(sb->watchdog, NULL);
    pthread_mutex_destroy(&sb->mu);
    pthread_cond_destroy(&sb->cv);
    sb->has_watchdog = false;
}

void ps_lua_sandbox_enter(struct ps_lua_sandbox *sb)
{
    if (!sb->has_watchdog || sb->in_call)
        return;
    pthread_mutex_lock(&sb->mu);
    sb->in_call = true;
    sb->call_start = ps_now();
    atomic_store(&sb->expired, false);
    pthread_cond_signal(&sb->cv);
    pthread_mutex_unlock(&sb->mu);
}

void ps_lua_sandbox_leave(struct ps_lua_sandbox *sb)
{
    if (!sb->has_watchdog || !sb->in_call)
        return;
    pthread_mutex_lock(&sb->mu);
    sb->in_call = false;
    pthread_mutex_unlock(&sb->mu);
}

/* ---- the library, trimmed and bounded ---- */

/* Message handler of every lua_pcall: keeps the message and records the
 * script's line numbers on the stack (a traceback of the script only). */
static int message_handler(lua_State *L)
{
    struct ps_lua_sandbox *sb = ps_lua_sandbox_of(L);
    if (!lua_isstring(L, 1)) {
        /* luaL_tolstring may run a __tostring metamethod: an error in it
         * becomes LUA_ERRERR, which the caller reports. */
        if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
            lua_pop(L, 1);
            luaL_tolstring(L, 1, NULL);
        } else {
            lua_pushfstring(L, "(error object is a %s value)",
                            luaL_typename(L, 1));
        }
        lua_replace(L, 1);
    }
    sb->ntrace = 0;
    lua_Debug ar;
    for (int level = 1; sb->ntrace < MAX_TRACE_LINES &&
                        lua_getstack(L, level, &ar);
         level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0 && strcmp(ar.source, sb->chunkname) == 0 &&
            (sb->ntrace == 0 || sb->trace[sb->ntrace - 1] != ar.currentline))
            sb->trace[sb->ntrace++] = ar.currentline;
    }
    lua_settop(L, 1);
    return 1;
}

/* print() for scripts: to stderr, so stdout keeps only results. */
static int sandbox_print(lua_State *L)
{
    if (ps_lua_sandbox_of(L)->lim.quiet)
        return 0;
    int n = lua_gettop(L);
    fputs("lua: ", stderr);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *str = luaL_tolstring(L, i, &len);
        if (i > 1)
            fputc('\t', stderr);
        fwrite(str, 1, len, stderr);
        lua_pop(L, 1);
    }
    fputc('\n', stderr);
    return 0;
}

/* load() for scripts: the original load with mode forced to text, so a
 * binary chunk (which can crash the VM) is refused; compiling is charged
 * one instruction per byte of a string chunk. */
static int sandbox_load(lua_State *L)
{
    lua_settop(L, 4);
    if (lua_type(L, 1) == LUA_TSTRING)
        ps_lua_sandbox_charge(L, (uint64_t)lua_rawlen(L, 1));
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 4, LUA_MULTRET);
    return lua_gettop(L);
}

/* setmetatable() without finalizers (see lua_sandbox.h). Lua marks an
 * object for finalization only if its metatable has __gc when it is set,
 * so adding __gc later does nothing. */
static int sandbox_setmetatable(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc (finalizers) is not "
                                 "allowed in the sandbox: a finalizer runs "
                                 "where no limit can stop it");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* xpcall(f, msgh, ...): pcall, then the handler on the error after
 * unwinding, with the hook on. An error in the handler is returned as
 * xpcall's error (Lua would report "error in error handling"). */
static int sandbox_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_rotate(L, 1, 1); /* msgh f msgh args... */
    lua_remove(L, 3);    /* msgh f args... */
    if (lua_pcall(L, n - 2, LUA_MULTRET, 0) == LUA_OK) {
        lua_pushboolean(L, 1);
        lua_replace(L, 1);
        return lua_gettop(L);
    }
    lua_pcall(L, 1, 1, 0); /* msgh(error) */
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* string.rep: an empty result is made at once (Lua loops n times even
 * then) and a result over the memory cap is refused before the loop; the
 * loop then copies at least one byte per turn into a string under the cap,
 * so its time is bounded by the cap (32 MiB: about 0.1 s). Each call is
 * charged one instruction per 16 bytes made (the rules' 20 M instructions
 * allow 320 MB in all): a loop of large results that
 * are dropped at once (an error caught by pcall) stays under the memory cap
 * and took the whole time limit, 10 s, at a few instructions a turn. */
static int sandbox_rep(lua_State *L)
{
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    size_t cap = ps_lua_sandbox_of(L)->lim.memory;
    if ((lua_Unsigned)n > cap / (l + lsep) + 1 ||
        (size_t)n * (l + lsep) - lsep > cap) {
        memory_refused(ps_lua_sandbox_of(L));
        check_limits(L, ps_lua_sandbox_of(L));
    }
    ps_lua_sandbox_charge(L, ((uint64_t)n * (l + lsep)) / 16);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* table.move, table.insert and table.remove as in Lua 5.4's ltablib.c
 * (for tables only), charged one instruction per element moved: their
 * loops run in C, where the hook never fires, over counts a script chooses
 * (table.move({}, 1, 1 << 40, 2), or a __len that returns 2^40). */
static int sandbox_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, tt, LUA_TTABLE);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3,
                      "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4,
                      "destination wrap around");
        bool forward = t > e || t <= f ||
                       (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ));
        for (lua_Integer k = 0; k < n; k++) {
            lua_Integer i = forward ? k : n - 1 - k;
            ps_lua_sandbox_charge(L, 1);
            lua_geti(L, 1, f + i);
            lua_seti(L, tt, t + i);
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

static int sandbox_insert(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer e = luaL_len(L, 1);
    e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty element */
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = e;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2,
                      "position out of bounds");
        for (lua_Integer i = e; i > pos; i--) {
            ps_lua_sandbox_charge(L, 1);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int sandbox_remove(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2,
                      "position out of bounds");
    lua_geti(L, 1, pos);
    for (; pos < size; pos++) {
        ps_lua_sandbox_charge(L, 1);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* The comparator handed to Lua's sort: the script's (or `<`), charged one
 * instruction per comparison, so a C comparator (rawequal, math.max) is
 * counted too. */
static int counted_less(lua_State *L)
{
    ps_lua_sandbox_charge(L, 1);
    if (lua_isnil(L, lua_upvalueindex(1))) {
        lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

static int sandbox_sort(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    if (!lua_isnoneornil(L, 2))
        luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_pushcclosure(L, counted_less, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 0);
    return 0;
}

/* math.randomseed() with no seed reads the clock: refused. */
static int sandbox_randomseed(lua_State *L)
{
    if (lua_gettop(L) == 0)
        return luaL_error(L, "math.randomseed() needs a seed, e.g. "
                             "math.randomseed(42): without one it reads the "
                             "clock, and a script must give the same result "
                             "on every run");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Replace table[name] (the table on the stack top) by fn, with the
 * original as its upvalue. */
static void wrap_field(lua_State *L, const char *name, lua_CFunction fn)
{
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, -2, name);
}

/* Runs protected: open the allowed libraries, trim and bound them. */
static int sandbox_setup(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},         {LUA_TABLIBNAME, luaopen_table},
        {LUA_STRLIBNAME, luaopen_string},  {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},   {NULL, NULL},
    };
    for (const luaL_Reg *lib = libs; lib->name; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushliteral(L, "the script needs more memory than the sandbox "
                       "allows");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &memory_message_key);
    lua_pushglobaltable(L);
    lua_pushnil(L);
    lua_setfield(L, -2, "dofile");
    lua_pushnil(L);
    lua_setfield(L, -2, "loadfile");
    wrap_field(L, "load", sandbox_load);
    wrap_field(L, "setmetatable", sandbox_setmetatable);
    lua_pushcfunction(L, sandbox_xpcall);
    lua_setfield(L, -2, "xpcall");
    lua_pushcfunction(L, sandbox_print);
    lua_setfield(L, -2, "print");
    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    wrap_field(L, "rep", sandbox_rep);
    lua_pop(L, 1);
    lua_getfield(L, -1, LUA_TABLIBNAME);
    lua_pushcfunction(L, sandbox_move);
    lua_setfield(L, -2, "move");
    lua_pushcfunction(L, sandbox_insert);
    lua_setfield(L, -2, "insert");
    lua_pushcfunction(L, sandbox_remove);
    lua_setfield(L, -2, "remove");
    wrap_field(L, "sort", sandbox_sort);
    lua_pop(L, 1);
    /* A fixed seed: the same script always gives the same result. */
    lua_getfield(L, -1, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 1);
    lua_call(L, 1, 0);
    wrap_field(L, "randomseed", sandbox_randomseed);
    lua_pop(L, 2);
    return 0;
}

/* ---- opening, calling, errors ---- */

void ps_lua_sandbox_close(struct ps_lua_sandbox *sb)
{
    if (!sb)
        return;
    if (sb->L) {
        bool was_in_call = sb->in_call;
        ps_lua_sandbox_enter(sb);
        lua_close(sb->L);
        sb->L = NULL;
        if (!was_in_call)
            ps_lua_sandbox_leave(sb);
    }
    watchdog_stop(sb);
    free(sb->path);
    free(sb->chunkname);
    free(sb);
}

struct ps_lua_sandbox *ps_lua_sandbox_open(const char *path,
                                           const struct ps_lua_limits *lim,
                                           struct ps_error *err)
{
    struct ps_lua_sandbox *sb = calloc(1, sizeof *sb);
    if (!sb) {
        ps_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    sb->lim = *lim;
    if (!sb->lim.limit_name)
        sb->lim.limit_name = "the sandbox limit";
    if (sb->lim.grace <= 0)
        sb->lim.grace = 1;
    sb->hook_step = HOOK_STEP;
    atomic_init(&sb->expired, false);
    atomic_init(&sb->call_seq, 0);
    sb->path = strdup(path);
    sb->chunkname = malloc(strlen(path) + 2);
    if (!sb->path || !sb->chunkname) {
        ps_error_set(err, path, 0, 0, "out of memory");
        goto fail;
    }
    sb->chunkname[0] = '@';
    strcpy(sb->chunkname + 1, path);
    if (sb->lim.seconds > 0 && !watchdog_start(sb)) {
        ps_error_set(err, path, 0, 0, "cannot start the Lua watchdog: %s",
                     strerror(errno));
        goto fail;
    }
    sb->L = lua_newstate(capped_alloc, sb);
    if (!sb->L) {
        ps_error_set(err, path, 0, 0, "out of memory");
        goto fail;
    }
    lua_State *L = sb->L;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, HOOK_STEP);
    lua_pushcfunction(L, message_handler); /* PS_LUA_SLOT_HANDLER */
    lua_pushcfunction(L, sandbox_setup);
    int st = lua_pcall(L, 0, 0, PS_LUA_SLOT_HANDLER);
    if (st != LUA_OK) {
        ps_lua_sandbox_failure(sb, st, "", err);
        goto fail;
    }
    return sb;
fail:
    ps_lua_sandbox_close(sb);
    return NULL;
}

lua_State *ps_lua_sandbox_state(const struct ps_lua_sandbox *sb)
{
    return sb->L;
}

const char *ps_lua_sandbox_path(const struct ps_lua_sandbox *sb)
{
    return sb->path;
}

void ps_lua_sandbox_set_owner(struct ps_lua_sandbox *sb, void *owner)
{
    sb->owner = owner;
}

void *ps_lua_sandbox_owner(lua_State *L)
{
    return ps_lua_sandbox_of(L)->owner;
}

int ps_lua_sandbox_run(struct ps_lua_sandbox *sb, const char *text, size_t len,
                       int nresults)
{
    int st = luaL_loadbufferx(sb->L, text, len, sb->chunkname, "t");
    if (st == LUA_OK)
        st = ps_lua_sandbox_pcall(sb, 0, nresults);
    return st;
}

int ps_lua_sandbox_pcall(struct ps_lua_sandbox *sb, int nargs, int nresults)
{
    atomic_fetch_add_explicit(&sb->call_seq, 1, memory_order_relaxed);
    int st = lua_pcall(sb->L, nargs, nresults, PS_LUA_SLOT_HANDLER);
    atomic_fetch_add_explicit(&sb->call_seq, 1, memory_order_relaxed);
    return st;
}

/* If msg starts with "<the script's chunk id>:<line>: ", return the text
 * after it and set *line; else return msg. Lua shortens long chunk names
 * to "..." and the tail of the path. */
static const char *strip_script_position(const struct ps_lua_sandbox *sb,
                                         const char *msg, int *line)
{
    for (const char *p = strchr(msg, ':'); p; p = strchr(p + 1, ':')) {
        const char *q = p + 1;
        int n = 0;
        while (*q >= '0' && *q <= '9' && n < 100000000)
            n = n * 10 + (*q++ - '0');
        if (q == p + 1 || q[0] != ':' || q[1] != ' ')
            continue;
        size_t plen = (size_t)(p - msg), full = strlen(sb->path);
        bool same = plen == full && strncmp(msg, sb->path, plen) == 0;
        bool tail = plen > 3 && strncmp(msg, "...", 3) == 0 && plen - 3 <= full &&
                    strncmp(msg + 3, sb->path + full - (plen - 3), plen - 3) == 0;
        if (!same && !tail)
            return msg;
        *line = n;
        return q + 2;
    }
    return msg;
}

bool ps_lua_sandbox_failure(struct ps_lua_sandbox *sb, int status,
                            const char *what, struct ps_error *err)
{
    lua_State *L = sb->L;
    if (status == LUA_ERRMEM || sb->mem_exhausted) {
        lua_pop(L, 1);
        return ps_error_set(err, sb->path, 0, 0,
                            "%sthe script needs more than %zu MiB of memory "
                            "(%s)",
                            what, sb->lim.memory >> 20, sb->lim.limit_name);
    }
    const char *raw = lua_isstring(L, -1) ? lua_tostring(L, -1)
                                          : "(no error message)";
    int line = 0;
    const char *msg = strip_script_position(sb, raw, &line);
    if (status == LUA_ERRSYNTAX)
        sb->ntrace = 0;
    else if (status == LUA_ERRERR)
        msg = "error while handling an error";
    if (line == 0 && sb->ntrace > 0)
        line = sb->trace[0];
    char calls[96] = "";
    size_t k = 0;
    for (int i = 1; i < sb->ntrace && k < sizeof calls; i++)
        k += (size_t)snprintf(calls + k, sizeof calls - k, "%s%d",
                              i == 1 ? " (called from line " : ", ",
                              sb->trace[i]);
    if (k > 0 && k < sizeof calls)
        snprintf(calls + k, sizeof calls - k, ")");
    ps_error_set(err, sb->path, line, 0, "%s%s%s", what, msg, calls);
    lua_pop(L, 1);
    return false;
}

bool ps_lua_has_nul(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TSTRING)
        return false;
    size_t len;
    const char *text = lua_tolstring(L, idx, &len);
    return strlen(text) != len;
}
