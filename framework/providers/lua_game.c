/*
 * lua_game.c - the adapter of lua_game.h: a Lua script's table of functions
 * as a struct ps_game (states interned as ids, moves as indices).
 */
#include "lua_game.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "hash.h"
#include "lua_rules.h"
#include "lua_sandbox.h"
#include "search.h"
#include "suggest.h"
#include "textfile.h"

#define DEFAULT_MAX_MOVES 256
#define DEFAULT_MAX_DEPTH 1000
#define MAX_NAME 64
/* Move lists kept per instance, by state id: a tree search comes back to a
 * parent for its next move (direct-mapped, a slot per id modulo this). */
#define MOVE_CACHE 64
/* The script is stopped this long after the search's deadline: the search
 * notices its deadline itself between two calls and ends cleanly; the hook
 * is for a call that does not return (an endless loop). */
#define DEADLINE_SLACK 0.1
#define REPLAY_SLACK 0.5
#define REPLAY_AFTER 1.0       /* seconds, at least, after a timed search */
#define AFTER_SEARCH_SHARE 0.25 /* of the search's budget */

/* The functions a script may define, in the order of their stack slots. */
#define LUA_GAME_FUNCTIONS(X)                                                  \
    X(load) X(start) X(moves) X(apply) X(is_goal) X(end_value) X(heuristic)    \
    X(upper_bound) X(key) X(show) X(format_move) X(parse_move)
enum lg_fn {
#define X(name) FN_##name,
    LUA_GAME_FUNCTIONS(X)
#undef X
    FN_COUNT
};
static const char *const fn_names[] = {
#define X(name) #name,
    LUA_GAME_FUNCTIONS(X)
#undef X
};
/* The other keys of a script's table. */
static const char *const field_names[] = {
    "name", "summary", "objective", "admissible", "max_moves", "max_depth",
    "move_help",
};
#define NFIELDS (sizeof field_names / sizeof field_names[0])

/* Stack slots while an instance is open. */
enum {
    SLOT_HANDLER = PS_LUA_SLOT_HANDLER,
    SLOT_GAME,    /* the script's table */
    SLOT_PUZZLE,  /* what load(text) returned */
    SLOT_VALUES,  /* id -> state */
    SLOT_IDS,     /* key -> id */
    SLOT_CACHE,   /* MOVE_CACHE slot -> move list */
    SLOT_MAX_MOVES, /* game.max_moves, game.max_depth (or nil) */
    SLOT_MAX_DEPTH,
    SLOT_FN,      /* SLOT_FN + enum lg_fn: the function or nil */
    SLOT_TOP = SLOT_FN + FN_COUNT - 1,
};

/* Lua raises an error when it cannot allocate, and an error outside a
 * protected call ends the process. So whatever may allocate in the
 * sandbox (a new table, a string, a table growing) runs in one of the
 * light C functions below, called through ps_lua_sandbox_pcall; the rest
 * of this file only moves values that exist already. */

/* What the script's table says, read once when the game is opened. */
struct lg_script {
    bool has[FN_COUNT];
    bool maximise, admissible;
    char name[MAX_NAME];
    char summary[160];
    char move_help[160];
};

/* One open Lua game: the script's text and its vtable. */
struct lg_slot {
    bool used;
    char *path;
    char *text;
    size_t len;
    struct lg_script script;
    struct ps_game game;
};

struct lg_instance {
    const struct lg_slot *slot;
    struct ps_lua_sandbox *sb;
    lua_State *L;
    int max_moves, max_depth;
    uint32_t nstates;
    /* hashes[id]: the hash of the state's key, the same in every process
     * (ids are not: psolve-mpi's ranks meet a state's owner by it). */
    uint64_t *hashes;
    uint32_t hashes_cap;
    uint32_t cache_id[MOVE_CACHE]; /* 0 = empty */
    bool searching; /* between begin_search and end_search */
    /* After a timed search, the seconds its replay and printing may take
     * (AFTER_SEARCH_SHARE of its budget, at least REPLAY_AFTER): a
     * format_move that loops must not run on for the sandbox's 9 s. */
    double after_search;
    /* The first failure since the last begin_search: written by the thread
     * that runs the script, read by the search's watcher (release/acquire
     * on fault_kind; fault_err is written before). */
    atomic_int fault_kind;
    struct ps_error fault_err;
};

/* The open games. Filled at start-up (psolve opens its --game before any
 * search), like the registry; each slot has its own load function below,
 * since load() is the one slot that is told nothing but the file. */
static struct lg_slot slots[PS_LUA_MAX_GAMES];

/* ---- reading the script's table ---- */

static int function_line(lua_State *L, int index)
{
    lua_Debug ar;
    if (!lua_isfunction(L, index))
        return 0;
    lua_pushvalue(L, index);
    return lua_getinfo(L, ">S", &ar) ? ar.linedefined : 0;
}

static bool copy_string_field(lua_State *L, int t, const char *key, char *out,
                              size_t len, const char *path,
                              struct ps_error *err)
{
    int type = lua_getfield(L, t, key);
    bool nul = ps_lua_has_nul(L, -1);
    bool ok = type == LUA_TNIL || (type == LUA_TSTRING && !nul);
    if (ok && type == LUA_TSTRING)
        snprintf(out, len, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    if (!ok)
        ps_error_set(err, path, 0, 0, "game.%s must be a string, not %s", key,
                     nul ? "a string with a NUL byte" : lua_typename(L, type));
    return ok;
}

/* The table on the stack top: every key known and of its type, the
 * required functions there. */
static bool read_script(lua_State *L, const char *path, struct lg_script *sc,
                        struct ps_error *err)
{
    if (!lua_istable(L, -1))
        return ps_error_set(err, path, 0, 0,
                            "a game script must return a table of functions "
                            "(return game), not %s",
                            luaL_typename(L, -1));
    int t = lua_gettop(L);
    memset(sc, 0, sizeof *sc);
    const char *names[FN_COUNT + NFIELDS];
    for (int i = 0; i < FN_COUNT; i++)
        names[i] = fn_names[i];
    for (size_t i = 0; i < NFIELDS; i++)
        names[FN_COUNT + i] = field_names[i];
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) != LUA_TSTRING || ps_lua_has_nul(L, -2))
            return ps_error_set(err, path, 0, 0,
                                "the game table has a key that is a %s, not "
                                "a name",
                                ps_lua_has_nul(L, -2) ? "string with a NUL byte"
                                                      : luaL_typename(L, -2));
        const char *key = lua_tostring(L, -2);
        int fn = -1;
        for (int i = 0; i < FN_COUNT; i++)
            if (strcmp(key, fn_names[i]) == 0)
                fn = i;
        bool field = false;
        for (size_t i = 0; i < NFIELDS; i++)
            field = field || strcmp(key, field_names[i]) == 0;
        int line = lua_isfunction(L, -1) ? function_line(L, -1) : 0;
        if (fn < 0 && !field) {
            const char *near = ps_suggest(key, names, FN_COUNT + NFIELDS);
            return ps_error_set(err, path, line, 0,
                                "unknown key '%s' in the game table%s%s%s "
                                "(helpers belong in local variables; "
                                "docs/lua-games.md lists the keys)",
                                key, near ? " (did you mean '" : "",
                                near ? near : "", near ? "'?)" : "");
        }
        if (fn >= 0) {
            if (!lua_isfunction(L, -1))
                return ps_error_set(err, path, 0, 0,
                                    "game.%s must be a function, not %s", key,
                                    luaL_typename(L, -1));
            sc->has[fn] = true;
        }
        lua_pop(L, 1);
    }
    const char *objective = "cost";
    if (lua_getfield(L, t, "objective") == LUA_TSTRING && !ps_lua_has_nul(L, -1))
        objective = lua_tostring(L, -1);
    else if (!lua_isnil(L, -1))
        return ps_error_set(err, path, 0, 0,
                            "game.objective must be \"cost\" or \"score\"");
    bool known = strcmp(objective, "cost") == 0 ||
                 strcmp(objective, "score") == 0;
    sc->maximise = strcmp(objective, "score") == 0;
    lua_pop(L, 1);
    if (!known)
        return ps_error_set(err, path, 0, 0,
                            "game.objective must be \"cost\" or \"score\", not "
                            "\"%.40s\"",
                            objective);
    int type = lua_getfield(L, t, "admissible");
    sc->admissible = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (type != LUA_TNIL && type != LUA_TBOOLEAN)
        return ps_error_set(err, path, 0, 0,
                            "game.admissible must be true or false");
    static const char *const numeric[] = {"max_moves", "max_depth"};
    for (int i = 0; i < 2; i++) {
        type = lua_getfield(L, t, numeric[i]);
        lua_pop(L, 1);
        if (type != LUA_TNIL && type != LUA_TNUMBER && type != LUA_TFUNCTION)
            return ps_error_set(err, path, 0, 0,
                                "game.%s must be a number or a function(p), "
                                "not %s",
                                numeric[i], lua_typename(L, type));
    }
    if (!copy_string_field(L, t, "name", sc->name, sizeof sc->name, path,
                           err) ||
        !copy_string_field(L, t, "summary", sc->summary, sizeof sc->summary,
                           path, err) ||
        !copy_string_field(L, t, "move_help", sc->move_help,
                           sizeof sc->move_help, path, err))
        return false;
    static const enum lg_fn required[] = {FN_load, FN_start, FN_moves,
                                          FN_apply};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!sc->has[required[i]])
            return ps_error_set(err, path, 0, 0,
                                "the game table has no function '%s' "
                                "(required; docs/lua-games.md)",
                                fn_names[required[i]]);
    if (!sc->maximise && !sc->has[FN_is_goal])
        return ps_error_set(err, path, 0, 0,
                            "a cost game (objective \"cost\") needs function "
                            "'is_goal'");
    if (sc->admissible && !sc->has[FN_heuristic])
        return ps_error_set(err, path, 0, 0,
                            "game.admissible is true but there is no function "
                            "'heuristic'");
    return true;
}

struct read_args {
    const char *path;
    struct lg_script *sc;
    struct ps_error *err;
    bool ok;
};

/* Protected (read_args as a light userdata, the table): read_script. */
static int read_script_in_lua(lua_State *L)
{
    struct read_args *a = lua_touserdata(L, 1);
    lua_settop(L, 2);
    a->ok = read_script(L, a->path, a->sc, a->err);
    return 0;
}

/* read_script on the table on the stack top, which stays there. */
static bool read_script_protected(struct ps_lua_sandbox *sb, const char *path,
                                  struct lg_script *sc, struct ps_error *err)
{
    lua_State *L = ps_lua_sandbox_state(sb);
    struct read_args a = {path, sc, err, false};
    lua_pushcfunction(L, read_script_in_lua);
    lua_pushlightuserdata(L, &a);
    lua_pushvalue(L, -3);
    int st = ps_lua_sandbox_pcall(sb, 2, 0);
    return st == LUA_OK ? a.ok : ps_lua_sandbox_failure(sb, st, "", err);
}

/* A sandbox with the game's limits, the script run in it, its table on
 * the stack top. NULL with err. */
static struct ps_lua_sandbox *run_script(const struct lg_slot *slot,
                                         struct lg_script *sc,
                                         struct ps_error *err)
{
    const struct ps_lua_limits lim = {
        .memory = PS_LUA_GAME_MEMORY,
        .seconds = PS_LUA_MAX_SECONDS - PS_LUA_GRACE_SECONDS,
        .grace = PS_LUA_GRACE_SECONDS,
        .limit_name = "the Lua game sandbox limit",
    };
    struct ps_lua_sandbox *sb = ps_lua_sandbox_open(slot->path, &lim, err);
    if (!sb)
        return NULL;
    ps_lua_sandbox_set_search(sb, false, 0);
    ps_lua_sandbox_enter(sb);
    int st = ps_lua_sandbox_run(sb, slot->text, slot->len, 1);
    ps_lua_sandbox_leave(sb);
    bool ok = st == LUA_OK ? read_script_protected(sb, slot->path, sc, err)
                           : ps_lua_sandbox_failure(sb, st, "", err);
    if (!ok) {
        ps_lua_sandbox_close(sb);
        return NULL;
    }
    return sb;
}

/* ---- calls into the script ---- */

static enum ps_fault fault_of(const struct lg_instance *in)
{
    return (enum ps_fault)atomic_load_explicit(&in->fault_kind,
                                               memory_order_acquire);
}

static void record_fault(struct lg_instance *in, enum ps_fault kind,
                         const struct ps_error *err)
{
    if (fault_of(in) != PS_FAULT_NONE)
        return;
    in->fault_err = *err;
    atomic_store_explicit(&in->fault_kind, kind, memory_order_release);
}

/* A result of the wrong shape: an error at the line of the function. */
PS_PRINTF(3, 4)
static void fail_result(struct lg_instance *in, enum lg_fn f, const char *fmt,
                        ...)
{
    struct ps_error err;
    char msg[sizeof err.msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ps_error_set(&err, in->slot->path, function_line(in->L, SLOT_FN + f), 0,
                 "%s: %s", fn_names[f], msg);
    record_fault(in, PS_FAULT_ERROR, &err);
}

/* Push function f and the puzzle; the caller pushes nargs more. */
static void push_call(struct lg_instance *in, enum lg_fn f)
{
    lua_pushvalue(in->L, SLOT_FN + f);
    lua_pushvalue(in->L, SLOT_PUZZLE);
}

/* Call the function below nargs values on the stack (what is called is
 * named after f in messages); false (the fault recorded, the function and
 * its arguments gone) when the script fails. Outside a search a call is
 * timed by the sandbox's watchdog; inside, the search's deadline and
 * Ctrl-C stop it. */
static bool protected_call(struct lg_instance *in, enum lg_fn f, int nargs,
                           int nres)
{
    bool timed = !in->searching;
    if (timed)
        ps_lua_sandbox_enter(in->sb);
    int st = ps_lua_sandbox_pcall(in->sb, nargs, nres);
    if (timed)
        ps_lua_sandbox_leave(in->sb);
    if (st == LUA_OK)
        return true;
    enum ps_lua_stop why = ps_lua_sandbox_stopped(in->sb);
    char what[32];
    snprintf(what, sizeof what, "%s: ", fn_names[f]);
    struct ps_error err;
    ps_lua_sandbox_failure(in->sb, st, what, &err);
    record_fault(in, why == PS_LUA_STOP_DEADLINE    ? PS_FAULT_TIME
                     : why == PS_LUA_STOP_INTERRUPT ? PS_FAULT_INTERRUPT
                                                    : PS_FAULT_ERROR,
                 &err);
    return false;
}

/* f(p, ...) as push_call and the caller pushed it. */
static bool call(struct lg_instance *in, enum lg_fn f, int nargs, int nres)
{
    return protected_call(in, f, nargs + 1, nres);
}

static uint32_t state_id(const void *state)
{
    uint32_t id;
    memcpy(&id, state, sizeof id);
    return id;
}

static void write_id(void *state, uint32_t id)
{
    memset(state, 0, 8);
    memcpy(state, &id, sizeof id);
}

static void push_state(struct lg_instance *in, uint32_t id)
{
    lua_rawgeti(in->L, SLOT_VALUES, (lua_Integer)id);
}

/* Protected (values, ids, state, key, next id): the key's id, or the next
 * id given to the state (the tables may grow). */
static int intern_in_lua(lua_State *L)
{
    lua_pushvalue(L, 4);
    if (lua_rawget(L, 2) == LUA_TNUMBER)
        return 1;
    lua_pop(L, 1);
    lua_pushvalue(L, 4);
    lua_pushvalue(L, 5);
    lua_rawset(L, 2);
    lua_pushvalue(L, 3);
    lua_rawseti(L, 1, lua_tointeger(L, 5));
    lua_pushvalue(L, 5);
    return 1;
}

/* Protected (f, args..., text as a light userdata, its length): f(args...,
 * text), all its results. */
static int call_with_text(lua_State *L)
{
    size_t len = (size_t)lua_tointeger(L, -1);
    const char *text = lua_touserdata(L, -2);
    lua_pop(L, 2);
    lua_pushlstring(L, text, len);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* The key at `index` hashed the same in every process: its bytes, or its
 * number (keys 2 and 2.0 are one table key, hence one hash). */
static uint64_t key_hash(lua_State *L, int index)
{
    if (lua_type(L, index) == LUA_TSTRING) {
        size_t n;
        const char *text = lua_tolstring(L, index, &n);
        return ps_hash_bytes(text, n);
    }
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, index, &isint);
    if (isint)
        return ps_hash_mix((uint64_t)i ^ 0x9e3779b97f4a7c15ULL);
    double d = (double)lua_tonumber(L, index);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return ps_hash_mix(bits ^ 0x7f4a7c159e3779b9ULL);
}

/* Keep the hash of new state id's key (at `index`); false (the fault
 * recorded) when out of memory. */
static bool keep_key_hash(struct lg_instance *in, enum lg_fn from, uint32_t id,
                          int index)
{
    if (id >= in->hashes_cap) {
        uint32_t cap = in->hashes_cap ? in->hashes_cap : 1024;
        while (cap <= id && cap < UINT32_MAX / 2)
            cap *= 2;
        uint64_t *more = cap > id ? realloc(in->hashes, (size_t)cap * sizeof *more)
                                  : NULL;
        if (!more) {
            fail_result(in, from, "out of memory for %u states", id);
            return false;
        }
        in->hashes = more;
        in->hashes_cap = cap;
    }
    in->hashes[id] = key_hash(in->L, index);
    return true;
}

/* The id of the state on the stack top (popped); 0 on failure. */
static uint32_t intern(struct lg_instance *in, enum lg_fn from)
{
    lua_State *L = in->L;
    int v = lua_gettop(L);
    if (in->slot->script.has[FN_key]) {
        push_call(in, FN_key);
        lua_pushvalue(L, v);
        if (!call(in, FN_key, 1, 1)) {
            lua_settop(L, v - 1);
            return 0;
        }
        if (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER) {
            fail_result(in, FN_key, "returned %s, not a string",
                        luaL_typename(L, -1));
            lua_settop(L, v - 1);
            return 0;
        }
    } else {
        int type = lua_type(L, v);
        if (type != LUA_TSTRING && type != LUA_TNUMBER) {
            fail_result(in, from,
                        "made a state that is %s: states must be strings or "
                        "numbers, or the game needs a function key(p, s) "
                        "returning a string",
                        luaL_typename(L, v));
            lua_settop(L, v - 1);
            return 0;
        }
        lua_pushvalue(L, v);
    }
    /* key at v + 1 */
    if (in->nstates == UINT32_MAX - 1) {
        fail_result(in, from, "more than %u different states", in->nstates);
        lua_settop(L, v - 1);
        return 0;
    }
    lua_pushcfunction(L, intern_in_lua);
    lua_pushvalue(L, SLOT_VALUES);
    lua_pushvalue(L, SLOT_IDS);
    lua_pushvalue(L, v);
    lua_pushvalue(L, v + 1);
    lua_pushinteger(L, (lua_Integer)in->nstates + 1);
    uint32_t id = 0;
    if (protected_call(in, from, 5, 1)) {
        id = (uint32_t)lua_tointeger(L, -1);
        if (id == in->nstates + 1 && !keep_key_hash(in, from, id, v + 1))
            id = 0;
        else if (id == in->nstates + 1)
            in->nstates = id;
    }
    lua_settop(L, v - 1);
    return id;
}

/* ---- states by value, for another process (state_pack, state_unpack) ----
 * A state's Lua value as tagged bytes: booleans, integers, floats, strings
 * and tables of them (no metatable, at most PACK_DEPTH deep), rebuilt on
 * the other side and interned there under its own id. */
#define PACK_DEPTH 32
enum { PACK_FALSE = 'f', PACK_TRUE = 't', PACK_INT = 'i', PACK_FLOAT = 'd',
       PACK_STRING = 's', PACK_TABLE = '{', PACK_END = '}' };

static struct lg_instance *mutable(const void *inst);

struct lg_packer {
    unsigned char *buf;
    size_t cap, len; /* len counts past cap: the room needed */
    bool bad;        /* a value that cannot travel */
};

static void pack_bytes(struct lg_packer *p, const void *data, size_t n)
{
    if (p->len <= p->cap && n <= p->cap - p->len)
        memcpy(p->buf + p->len, data, n);
    p->len += n;
}

static void pack_tag(struct lg_packer *p, unsigned char tag)
{
    pack_bytes(p, &tag, 1);
}

/* The value at `index`, read without allocating (outside a protected call). */
static void pack_value(struct lg_packer *p, lua_State *L, int index, int depth)
{
    index = lua_absindex(L, index);
    int type = lua_type(L, index);
    if (type == LUA_TBOOLEAN) {
        pack_tag(p, lua_toboolean(L, index) ? PACK_TRUE : PACK_FALSE);
    } else if (type == LUA_TNUMBER && lua_isinteger(L, index)) {
        int64_t v = (int64_t)lua_tointeger(L, index);
        pack_tag(p, PACK_INT);
        pack_bytes(p, &v, sizeof v);
    } else if (type == LUA_TNUMBER) {
        double v = (double)lua_tonumber(L, index);
        pack_tag(p, PACK_FLOAT);
        pack_bytes(p, &v, sizeof v);
    } else if (type == LUA_TSTRING) {
        size_t n;
        const char *text = lua_tolstring(L, index, &n);
        uint64_t len = n;
        pack_tag(p, PACK_STRING);
        pack_bytes(p, &len, sizeof len);
        pack_bytes(p, text, n);
    } else if (type == LUA_TTABLE && depth < PACK_DEPTH &&
               lua_checkstack(L, 4) && !lua_getmetatable(L, index)) {
        pack_tag(p, PACK_TABLE);
        lua_pushnil(L);
        while (!p->bad && lua_next(L, index)) {
            pack_value(p, L, -2, depth + 1);
            pack_value(p, L, -1, depth + 1);
            lua_pop(L, 1);
        }
        if (p->bad)
            lua_pop(L, 1); /* the key lua_next left */
        pack_tag(p, PACK_END);
    } else {
        if (type == LUA_TTABLE && lua_getmetatable(L, index))
            lua_pop(L, 1);
        p->bad = true;
    }
}

struct lg_unpacker {
    const unsigned char *p;
    size_t len, pos;
};

static void unpack_take(lua_State *L, struct lg_unpacker *u, void *out,
                        size_t n)
{
    if (n > u->len - u->pos)
        luaL_error(L, "a state from another process is cut short");
    memcpy(out, u->p + u->pos, n);
    u->pos += n;
}

/* Protected: push the value pack_value wrote (or raise an error). */
static void unpack_value(lua_State *L, struct lg_unpacker *u, int depth)
{
    unsigned char tag;
    unpack_take(L, u, &tag, 1);
    luaL_checkstack(L, 4, "a state from another process nests too deep");
    if (tag == PACK_FALSE || tag == PACK_TRUE) {
        lua_pushboolean(L, tag == PACK_TRUE);
    } else if (tag == PACK_INT) {
        int64_t v;
        unpack_take(L, u, &v, sizeof v);
        lua_pushinteger(L, (lua_Integer)v);
    } else if (tag == PACK_FLOAT) {
        double v;
        unpack_take(L, u, &v, sizeof v);
        lua_pushnumber(L, (lua_Number)v);
    } else if (tag == PACK_STRING) {
        uint64_t n;
        unpack_take(L, u, &n, sizeof n);
        if (n > u->len - u->pos)
            luaL_error(L, "a state from another process is cut short");
        lua_pushlstring(L, (const char *)u->p + u->pos, (size_t)n);
        u->pos += (size_t)n;
    } else if (tag == PACK_TABLE && depth < PACK_DEPTH) {
        lua_newtable(L);
        while (u->pos < u->len && u->p[u->pos] != PACK_END) {
            unpack_value(L, u, depth + 1);
            unpack_value(L, u, depth + 1);
            lua_rawset(L, -3);
        }
        unpack_take(L, u, &tag, 1);
    } else {
        luaL_error(L, "a state from another process is corrupt");
    }
}

/* Protected (an lg_unpacker as a light userdata): the state's value. */
static int unpack_in_lua(lua_State *L)
{
    struct lg_unpacker *u = lua_touserdata(L, 1);
    lua_settop(L, 0);
    unpack_value(L, u, 0);
    if (u->pos != u->len)
        luaL_error(L, "a state from another process is corrupt");
    return 1;
}

static size_t lg_state_pack(const void *inst, const void *state, void *buf,
                            size_t cap)
{
    struct lg_instance *in = mutable(inst);
    if (fault_of(in) != PS_FAULT_NONE)
        return 0;
    struct lg_packer p = {buf, cap, 0, false};
    int top = lua_gettop(in->L);
    push_state(in, state_id(state));
    pack_value(&p, in->L, -1, 0);
    lua_settop(in->L, top);
    if (!p.bad)
        return p.len;
    fail_result(in, FN_apply,
                "made a state that cannot be sent to another process "
                "(psolve-mpi): states travel as booleans, numbers, strings "
                "and tables of them, without metatables, at most %d deep",
                PACK_DEPTH);
    return 0;
}

static bool lg_state_unpack(const void *inst, const void *buf, size_t len,
                            void *state)
{
    struct lg_instance *in = mutable(inst);
    if (fault_of(in) != PS_FAULT_NONE)
        return false;
    struct lg_unpacker u = {buf, len, 0};
    lua_pushcfunction(in->L, unpack_in_lua);
    lua_pushlightuserdata(in->L, &u);
    if (!protected_call(in, FN_apply, 1, 1))
        return false;
    uint32_t id = intern(in, FN_apply);
    if (id)
        write_id(state, id);
    return id != 0;
}

/* Push the move list of state `id` (from the cache, or moves(p, s)); false
 * on failure with nothing pushed. */
static bool push_moves(struct lg_instance *in, uint32_t id)
{
    lua_State *L = in->L;
    int c = (int)(id % MOVE_CACHE);
    if (in->cache_id[c] == id) {
        lua_rawgeti(L, SLOT_CACHE, c + 1);
        return true;
    }
    push_call(in, FN_moves);
    push_state(in, id);
    if (!call(in, FN_moves, 1, 1))
        return false;
    if (!lua_istable(L, -1)) {
        fail_result(in, FN_moves, "returned %s, not a list of moves",
                    luaL_typename(L, -1));
        lua_pop(L, 1);
        return false;
    }
    lua_Unsigned n = lua_rawlen(L, -1);
    if (n > (lua_Unsigned)in->max_moves) {
        fail_result(in, FN_moves,
                    "returned %llu moves, more than max_moves (%d): set "
                    "game.max_moves",
                    (unsigned long long)n, in->max_moves);
        lua_pop(L, 1);
        return false;
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, SLOT_CACHE, c + 1);
    in->cache_id[c] = id;
    return true;
}

/* Push move `m` (an index) of state `id`; false with nothing pushed. */
static bool push_move(struct lg_instance *in, uint32_t id, ps_move m)
{
    if (!push_moves(in, id))
        return false;
    int type = lua_rawgeti(in->L, -1, (lua_Integer)m + 1);
    lua_remove(in->L, -2);
    if (type == LUA_TNIL) {
        fail_result(in, FN_moves, "move %u of a state is gone (moves(p, s) "
                                  "must list the same moves each time)",
                    (unsigned)m + 1);
        lua_pop(in->L, 1);
        return false;
    }
    return true;
}

/* A number the script returned as an integer value: cost, gain, bound,
 * within +-PS_VALUE_LIMIT (so the searches' sums cannot overflow). */
static bool to_value(struct lg_instance *in, enum lg_fn f, int index,
                     ps_value *out)
{
    lua_State *L = in->L;
    int isnum = 0;
    /* A string is not a number here, even one Lua would convert. */
    lua_Integer v = lua_type(L, index) == LUA_TNUMBER
                        ? lua_tointegerx(L, index, &isnum)
                        : 0;
    if (!isnum) {
        fail_result(in, f, "returned %s where a whole number was expected",
                    luaL_typename(L, index));
        return false;
    }
    if (v > PS_VALUE_LIMIT || v < -PS_VALUE_LIMIT) {
        fail_result(in, f, "returned %lld, outside -2^48..2^48",
                    (long long)v);
        return false;
    }
    *out = (ps_value)v;
    return true;
}

/* Play move m of state id: push the new state and return its cost or gain
 * in *value. False with nothing pushed. */
static bool play(struct lg_instance *in, uint32_t id, ps_move m,
                 ps_value *value)
{
    lua_State *L = in->L;
    if (!push_move(in, id, m))
        return false;
    int mv = lua_gettop(L);
    push_call(in, FN_apply);
    push_state(in, id);
    lua_pushvalue(L, mv);
    if (!call(in, FN_apply, 2, 2)) {
        lua_settop(L, mv - 1);
        return false;
    }
    bool maximise = in->slot->script.maximise;
    *value = maximise ? 0 : 1;
    bool ok = lua_isnil(L, -1) || to_value(in, FN_apply, -1, value);
    if (ok && lua_isnil(L, -2)) {
        fail_result(in, FN_apply, "returned no new state");
        ok = false;
    }
    if (ok && !maximise && *value < 0) {
        fail_result(in, FN_apply, "returned a negative cost (%lld)",
                    (long long)*value);
        ok = false;
    }
    lua_pop(L, 1);
    lua_remove(L, mv);
    if (!ok)
        lua_settop(L, mv - 1);
    return ok;
}

/* Call f(p, s) for state id, leaving one result; false with nothing. */
static bool ask(struct lg_instance *in, enum lg_fn f, const void *state)
{
    if (fault_of(in) != PS_FAULT_NONE)
        return false;
    push_call(in, f);
    push_state(in, state_id(state));
    return call(in, f, 1, 1);
}

/* ---- the vtable ---- */

static void lg_free_instance(void *p)
{
    struct lg_instance *in = p;
    if (!in)
        return;
    ps_lua_sandbox_close(in->sb);
    free(in->hashes);
    free(in);
}

/* game.max_moves / max_depth (in `slot`): a number, a function(p), or
 * the default. */
static bool read_limit(struct lg_instance *in, int slot, const char *key,
                       int def, int *out, struct ps_error *err)
{
    lua_State *L = in->L;
    int type = lua_type(L, slot);
    if (type == LUA_TNIL) {
        *out = def;
        return true;
    }
    lua_pushvalue(L, slot);
    if (type == LUA_TFUNCTION) {
        lua_pushvalue(L, SLOT_PUZZLE);
        ps_lua_sandbox_enter(in->sb);
        int st = ps_lua_sandbox_pcall(in->sb, 1, 1);
        ps_lua_sandbox_leave(in->sb);
        if (st != LUA_OK) {
            char what[32];
            snprintf(what, sizeof what, "%s: ", key);
            return ps_lua_sandbox_failure(in->sb, st, what, err);
        }
    }
    int isnum = 0;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || v < 1 || v > 1000000)
        return ps_error_set(err, in->slot->path, 0, 0,
                            "game.%s must be a whole number from 1 to 1000000",
                            key);
    *out = (int)v;
    return true;
}

/* Protected (the script's table): the stack slots from SLOT_PUZZLE on, to
 * be returned into place. */
static int make_slots_in_lua(lua_State *L)
{
    lua_pushnil(L);                         /* SLOT_PUZZLE */
    lua_newtable(L);                        /* SLOT_VALUES */
    lua_newtable(L);                        /* SLOT_IDS */
    lua_createtable(L, MOVE_CACHE, 0);      /* SLOT_CACHE: never grows */
    for (int i = 1; i <= MOVE_CACHE; i++) { /* the array part, filled */
        lua_pushboolean(L, 0);
        lua_rawseti(L, -2, i);
    }
    lua_getfield(L, 1, "max_moves");        /* SLOT_MAX_MOVES */
    lua_getfield(L, 1, "max_depth");        /* SLOT_MAX_DEPTH */
    for (int i = 0; i < FN_COUNT; i++)      /* SLOT_FN + i */
        lua_getfield(L, 1, fn_names[i]);
    return SLOT_TOP - SLOT_PUZZLE + 1;
}

static void *lg_load(struct lg_slot *slot, const char *path, const char *text,
                     size_t len, struct ps_error *err)
{
    struct lg_instance *in = calloc(1, sizeof *in);
    if (!in) {
        ps_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    in->slot = slot;
    atomic_init(&in->fault_kind, PS_FAULT_NONE);
    struct lg_script sc;
    in->sb = run_script(slot, &sc, err);
    if (!in->sb)
        goto fail;
    lua_State *L = in->L = ps_lua_sandbox_state(in->sb);
    if (!lua_checkstack(L, SLOT_TOP + 20)) {
        ps_error_set(err, slot->path, 0, 0, "out of memory");
        goto fail;
    }
    /* The table is on the stack top, in SLOT_GAME. */
    lua_pushcfunction(L, make_slots_in_lua);
    lua_pushvalue(L, SLOT_GAME);
    int st = ps_lua_sandbox_pcall(in->sb, 1, SLOT_TOP - SLOT_PUZZLE + 1);
    if (st == LUA_OK) {
        lua_pushcfunction(L, call_with_text);
        lua_pushvalue(L, SLOT_FN + FN_load);
        lua_pushlightuserdata(L, (void *)(uintptr_t)text);
        lua_pushinteger(L, (lua_Integer)len);
        ps_lua_sandbox_enter(in->sb);
        st = ps_lua_sandbox_pcall(in->sb, 3, 3);
        ps_lua_sandbox_leave(in->sb);
    }
    if (st != LUA_OK) {
        ps_lua_sandbox_failure(in->sb, st, "load: ", err);
        goto fail;
    }
    if (lua_isnil(L, -3)) {
        /* return nil, why, line: the puzzle file is wrong. */
        int isnum = 0;
        lua_Integer line = lua_tointegerx(L, -1, &isnum);
        bool why = lua_type(L, -2) == LUA_TSTRING;
        ps_error_set(err, path,
                     isnum && line > 0 && line < 100000000 ? (int)line : 0, 0,
                     "%s", why ? lua_tostring(L, -2)
                               : "not a puzzle of this game (load returned "
                                 "nil)");
        goto fail;
    }
    lua_pop(L, 2);
    lua_replace(L, SLOT_PUZZLE);
    if (!read_limit(in, SLOT_MAX_MOVES, "max_moves", DEFAULT_MAX_MOVES,
                    &in->max_moves, err) ||
        !read_limit(in, SLOT_MAX_DEPTH, "max_depth", DEFAULT_MAX_DEPTH,
                    &in->max_depth, err))
        goto fail;
    push_call(in, FN_start);
    uint32_t start = call(in, FN_start, 0, 1) ? intern(in, FN_start) : 0;
    if (start != 1) {
        if (fault_of(in) != PS_FAULT_NONE)
            *err = in->fault_err;
        goto fail;
    }
    return in;
fail:
    lg_free_instance(in);
    return NULL;
}

#define LOAD_SLOT(n)                                                           \
    static void *lg_load_##n(const void *rules, const char *path,              \
                             const char *text, size_t len,                     \
                             struct ps_error *err)                             \
    {                                                                          \
        (void)rules;                                                           \
        return lg_load(&slots[n], path, text, len, err);                       \
    }
LOAD_SLOT(0)
LOAD_SLOT(1)
LOAD_SLOT(2)
LOAD_SLOT(3)
typedef void *(*load_fn)(const void *, const char *, const char *, size_t,
                         struct ps_error *);
static const load_fn slot_loads[PS_LUA_MAX_GAMES] = {lg_load_0, lg_load_1,
                                                     lg_load_2, lg_load_3};

static size_t lg_state_size(const void *inst)
{
    (void)inst;
    return 8; /* the id, zero-padded: states stay 8-byte multiples */
}

static void lg_initial_state(const void *inst, void *state)
{
    (void)inst;
    write_id(state, 1);
}

static int lg_max_moves(const void *inst)
{
    return ((const struct lg_instance *)inst)->max_moves;
}

static int lg_max_depth(const void *inst)
{
    return ((const struct lg_instance *)inst)->max_depth;
}

static uint64_t lg_hash(const void *inst, const void *state)
{
    const struct lg_instance *in = inst;
    uint32_t id = state_id(state);
    return id >= 1 && id <= in->nstates ? in->hashes[id] : 0;
}

/* The instance is the script's interpreter: slots change it (interned
 * states, cached move lists) though the vtable hands it as const. */
static struct lg_instance *mutable(const void *inst)
{
    return (struct lg_instance *)(uintptr_t)inst;
}

static int lg_moves(const void *inst, const void *state, ps_move *moves,
                    ps_value *gains)
{
    struct lg_instance *in = mutable(inst);
    uint32_t id = state_id(state);
    if (fault_of(in) != PS_FAULT_NONE || !push_moves(in, id))
        return 0;
    int n = (int)lua_rawlen(in->L, -1);
    lua_pop(in->L, 1);
    for (int i = 0; i < n; i++) {
        moves[i] = (ps_move)i;
        if (!gains)
            continue;
        if (!play(in, id, (ps_move)i, &gains[i]))
            return 0;
        lua_pop(in->L, 1);
    }
    return n;
}

static ps_value lg_apply(const void *inst, const void *state, ps_move move,
                         void *out)
{
    struct lg_instance *in = mutable(inst);
    ps_value v = 0;
    uint32_t next = 0;
    if (fault_of(in) == PS_FAULT_NONE && play(in, state_id(state), move, &v))
        next = intern(in, FN_apply);
    /* A failed move stays in place, harmlessly (the fault stops the
     * search); states stay valid ids. */
    write_id(out, next ? next : state_id(state));
    return next ? v : 0;
}

static bool text_of(lua_State *L, int index, char *buf, size_t len);

static bool lg_is_goal(const void *inst, const void *state)
{
    struct lg_instance *in = mutable(inst);
    if (!ask(in, FN_is_goal, state))
        return false;
    /* Only true and false: in Lua 0 and "no" are true, which would make
     * every state a goal. */
    if (!lua_isboolean(in->L, -1)) {
        char buf[64];
        if (!text_of(in->L, -1, buf, sizeof buf))
            snprintf(buf, sizeof buf, "a %s", luaL_typename(in->L, -1));
        fail_result(in, FN_is_goal, "returned %s, not true or false", buf);
        lua_pop(in->L, 1);
        return false;
    }
    bool goal = lua_toboolean(in->L, -1);
    lua_pop(in->L, 1);
    return goal;
}

/* f(p, s) as a whole number, 0 when it fails. */
static ps_value ask_value(const void *inst, enum lg_fn f, const void *state)
{
    struct lg_instance *in = mutable(inst);
    ps_value v = 0;
    if (!ask(in, f, state))
        return 0;
    if (!to_value(in, f, -1, &v))
        v = 0;
    lua_pop(in->L, 1);
    return v;
}

static ps_value lg_end_value(const void *inst, const void *state)
{
    return ask_value(inst, FN_end_value, state);
}

static ps_value lg_heuristic(const void *inst, const void *state)
{
    ps_value h = ask_value(inst, FN_heuristic, state);
    if (h < 0) {
        fail_result(mutable(inst), FN_heuristic,
                    "returned a negative estimate (%lld)", (long long)h);
        return 0;
    }
    return h;
}

static ps_value lg_upper_bound(const void *inst, const void *state)
{
    return ask_value(inst, FN_upper_bound, state);
}

/* The text of a string or number at `index`, into buf, without making a
 * Lua string (which could fail outside a protected call). False for other
 * types. */
static bool text_of(lua_State *L, int index, char *buf, size_t len)
{
    if (lua_type(L, index) == LUA_TSTRING && ps_lua_has_nul(L, index))
        return false;
    if (lua_type(L, index) == LUA_TSTRING)
        snprintf(buf, len, "%s", lua_tostring(L, index));
    else if (lua_isinteger(L, index))
        snprintf(buf, len, "%lld", (long long)lua_tointeger(L, index));
    else if (lua_type(L, index) == LUA_TNUMBER)
        snprintf(buf, len, "%.14g", (double)lua_tonumber(L, index));
    else
        return false;
    return true;
}

/* Is the move text at `index` one line of printable text (what a solution
 * file holds, one move a line)? Else the fault of f. */
static bool printable_line(struct lg_instance *in, enum lg_fn f, lua_State *L,
                           int index)
{
    if (lua_type(L, index) != LUA_TSTRING)
        return true; /* a number's digits */
    size_t n;
    const char *text = lua_tolstring(L, index, &n);
    if (n == 0) {
        fail_result(in, f, "gave a move the empty text: a move's text must "
                           "be one line of printable text");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == 0x7f) {
            fail_result(in, f,
                        "gave a move text with the control character 0x%02x "
                        "at byte %zu: a move's text must be one line of "
                        "printable text",
                        c, i + 1);
            return false;
        }
    }
    return true;
}

/* The text of move m of state id (format_move, or the move itself when it
 * is a string or a number) into buf; false on failure. */
static bool move_text(struct lg_instance *in, uint32_t id, ps_move m, char *buf,
                      size_t len)
{
    lua_State *L = in->L;
    if (!push_move(in, id, m))
        return false;
    enum lg_fn f = FN_moves;
    if (in->slot->script.has[FN_format_move]) {
        int mv = lua_gettop(L);
        push_call(in, FN_format_move);
        push_state(in, id);
        lua_pushvalue(L, mv);
        bool ok = call(in, FN_format_move, 2, 1);
        lua_remove(L, mv);
        if (!ok)
            return false;
        f = FN_format_move;
        if (lua_type(L, -1) != LUA_TSTRING) {
            fail_result(in, f, "returned %s, not a string",
                        luaL_typename(L, -1));
            lua_pop(L, 1);
            return false;
        }
    }
    bool ok = text_of(L, -1, buf, len);
    if (!ok)
        fail_result(in, f,
                    "listed a move that is %s: moves must be strings or "
                    "numbers, or the game needs format_move(p, s, m)",
                    luaL_typename(L, -1));
    else
        ok = printable_line(in, f, L, -1);
    lua_pop(L, 1);
    return ok;
}

static void lg_format_move(const void *inst, const void *state, ps_move move,
                           char *buf, size_t len)
{
    struct lg_instance *in = mutable(inst);
    if (fault_of(in) != PS_FAULT_NONE ||
        !move_text(in, state_id(state), move, buf, len))
        snprintf(buf, len, "?");
}

/* The index of the move in the list on the stack top that parse_move(p, s,
 * text) names (when the game has one) or whose text is `text`; -1 if none
 * or on failure. */
static int find_move(struct lg_instance *in, uint32_t id, const char *text)
{
    lua_State *L = in->L;
    int list = lua_gettop(L);
    int n = (int)lua_rawlen(L, list);
    bool parsed = in->slot->script.has[FN_parse_move];
    if (parsed) {
        lua_pushcfunction(L, call_with_text);
        push_call(in, FN_parse_move);
        push_state(in, id);
        lua_pushlightuserdata(L, (void *)(uintptr_t)text);
        lua_pushinteger(L, (lua_Integer)strlen(text));
        if (!protected_call(in, FN_parse_move, 5, 1))
            return -1;
    }
    char buf[256];
    for (int i = 0; i < n; i++) {
        bool same;
        if (parsed) {
            lua_rawgeti(L, list, i + 1);
            same = lua_rawequal(L, -1, -2);
            lua_pop(L, 1);
        } else {
            if (!move_text(in, id, (ps_move)i, buf, sizeof buf))
                return -1;
            same = strcmp(buf, text) == 0;
        }
        if (same)
            return i;
    }
    return -1;
}

static bool lg_parse_move(const void *inst, const void *state, const char *text,
                          ps_move *move, struct ps_error *err)
{
    struct lg_instance *in = mutable(inst);
    lua_State *L = in->L;
    uint32_t id = state_id(state);
    if (fault_of(in) != PS_FAULT_NONE || !push_moves(in, id))
        return ps_error_set(err, NULL, 0, 0, "the game script failed");
    int list = lua_gettop(L);
    int n = (int)lua_rawlen(L, list);
    int i = find_move(in, id, text);
    lua_settop(L, list - 1);
    if (fault_of(in) != PS_FAULT_NONE)
        return ps_error_set(err, NULL, 0, 0, "the game script failed");
    if (i < 0)
        return ps_error_set(err, NULL, 0, 0,
                            "'%s' is not a legal move here (%d legal moves)",
                            text, n);
    *move = (ps_move)i;
    return true;
}

static void lg_print_state(const void *inst, const void *state, FILE *out,
                           bool ansi)
{
    (void)ansi;
    struct lg_instance *in = mutable(inst);
    lua_State *L = in->L;
    bool shown = in->slot->script.has[FN_show];
    if (shown) {
        if (!ask(in, FN_show, state))
            return;
    } else {
        push_state(in, state_id(state));
    }
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t len;
        const char *text = lua_tolstring(L, -1, &len);
        ps_print_escaped_lines(out, text, len);
        if (len == 0 || text[len - 1] != '\n')
            fputc('\n', out);
    } else {
        char buf[80];
        if (!text_of(L, -1, buf, sizeof buf)) {
            snprintf(buf, sizeof buf, "(a %s state: give the game a show(p, "
                                      "s) function returning a string)",
                     luaL_typename(L, -1));
            if (shown)
                fail_result(in, FN_show, "returned %s, not a string",
                            luaL_typename(L, -1));
        }
        fprintf(out, "%s\n", buf);
    }
    lua_pop(L, 1);
}

static void lg_begin_search(const void *inst, double deadline)
{
    struct lg_instance *in = mutable(inst);
    atomic_store(&in->fault_kind, PS_FAULT_NONE);
    double budget = deadline > 0 ? deadline - ps_now() : 0;
    in->after_search = deadline <= 0 ? 0
                       : budget * AFTER_SEARCH_SHARE > REPLAY_AFTER
                           ? budget * AFTER_SEARCH_SHARE
                           : REPLAY_AFTER;
    ps_lua_sandbox_set_search(in->sb, true,
                              deadline > 0 ? deadline + DEADLINE_SLACK : 0);
    in->searching = true;
}

static void lg_end_search(const void *inst)
{
    struct lg_instance *in = mutable(inst);
    enum ps_fault f = fault_of(in);
    /* A search stopped inside the script by its time limit or Ctrl-C: the
     * replay of its best line that follows gets REPLAY_SLACK more, not the
     * sandbox's own limit (the script that looped may loop again there). */
    in->searching = f == PS_FAULT_TIME || f == PS_FAULT_INTERRUPT;
    double slack = in->searching ? REPLAY_SLACK : 0;
    /* A timed search: what follows (the replay, the printed moves) keeps
     * a deadline too, as the run's --time promised (issue 32: a looping
     * format_move ran 9 s past --time 1). */
    if (in->after_search > 0) {
        in->searching = true;
        slack = slack > in->after_search ? slack : in->after_search;
    }
    ps_lua_sandbox_set_search(in->sb, in->searching,
                              in->searching ? ps_now() + slack : 0);
    /* The driver has read the fault; the best line must replay. */
    atomic_store(&in->fault_kind, PS_FAULT_NONE);
}

static enum ps_fault lg_fault(const void *inst, struct ps_error *err)
{
    const struct lg_instance *in = inst;
    enum ps_fault f = fault_of(in);
    if (f != PS_FAULT_NONE && err)
        *err = in->fault_err;
    return f;
}

/* ---- opening a game ---- */

bool ps_lua_game_is_script(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".lua") == 0;
}

/* The file's base name without ".lua": the game's name by default. */
static void base_name(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".lua") == 0)
        n -= 4;
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), b);
}

static void slot_free(struct lg_slot *slot)
{
    free(slot->path);
    free(slot->text);
    memset(slot, 0, sizeof *slot);
}

const struct ps_game *ps_lua_game_open(const char *path, struct ps_error *err)
{
    int n = 0;
    while (n < PS_LUA_MAX_GAMES && slots[n].used)
        n++;
    if (n == PS_LUA_MAX_GAMES) {
        ps_error_set(err, path, 0, 0, "more than %d Lua games open",
                     PS_LUA_MAX_GAMES);
        return NULL;
    }
    struct lg_slot *slot = &slots[n];
    slot->used = true;
    slot->path = strdup(path);
    if (!slot->path) {
        ps_error_set(err, path, 0, 0, "out of memory");
        slot_free(slot);
        return NULL;
    }
    if (!ps_read_text_file(path, &slot->text, &slot->len, err)) {
        slot_free(slot);
        return NULL;
    }
    struct lg_script *sc = &slot->script;
    struct ps_lua_sandbox *sb = run_script(slot, sc, err);
    if (!sb) {
        slot_free(slot);
        return NULL;
    }
    ps_lua_sandbox_close(sb);
    if (!sc->name[0])
        base_name(path, sc->name, sizeof sc->name);
    if (!sc->summary[0])
        snprintf(sc->summary, sizeof sc->summary, "a game written in Lua (%s)",
                 path);
    slot->game = (struct ps_game){
        .name = sc->name,
        .summary = sc->summary,
        .flags = (sc->maximise ? PS_MAXIMISE : 0u) |
                 (sc->admissible ? PS_HAS_HEURISTIC : 0u) |
                 (sc->has[FN_upper_bound] && sc->maximise ? PS_HAS_BOUND : 0u) |
                 PS_ONE_THREAD,
        .load = slot_loads[n],
        .free_instance = lg_free_instance,
        .state_size = lg_state_size,
        .initial_state = lg_initial_state,
        .max_moves = lg_max_moves,
        .max_depth = lg_max_depth,
        .hash = lg_hash,
        .moves = lg_moves,
        .apply = lg_apply,
        .is_goal = sc->has[FN_is_goal] ? lg_is_goal : NULL,
        .end_value = sc->has[FN_end_value] ? lg_end_value : NULL,
        .heuristic = sc->has[FN_heuristic] ? lg_heuristic : NULL,
        .upper_bound = sc->has[FN_upper_bound] && sc->maximise ? lg_upper_bound
                                                              : NULL,
        .print_state = lg_print_state,
        .format_move = lg_format_move,
        .parse_move = lg_parse_move,
        .move_help = sc->move_help[0] ? sc->move_help : NULL,
        .begin_search = lg_begin_search,
        .end_search = lg_end_search,
        .fault = lg_fault,
        .state_pack = lg_state_pack,
        .state_unpack = lg_state_unpack,
    };
    if (!ps_game_check(&slot->game, err)) {
        snprintf(err->file, sizeof err->file, "%s", path);
        slot_free(slot);
        return NULL;
    }
    return &slot->game;
}

void ps_lua_game_close(const struct ps_game *g)
{
    for (int i = 0; i < PS_LUA_MAX_GAMES; i++)
        if (slots[i].used && &slots[i].game == g)
            slot_free(&slots[i]);
}
