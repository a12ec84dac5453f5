/*
 * lua_rules.c - rule scripts in Lua 5.4 read once, as data, into a game's
 * rules struct (lua_rules.h).
 */
#include "lua_rules.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "lua_sandbox.h"
#include "suggest.h"
#include "textfile.h"

#define MAX_KEYS 64
#define PRUNE_PREFIX "prune_"
#define MAX_INCLUDE_DEPTH 8
/* rules() calls in one load: a variant includes a few scripts; each call
 * compiles and runs a whole file in C, which no hook sees. */
#define MAX_INCLUDES 64

/* Where `name =` is first assigned in the script text: one entry per
 * assignment, sorted by name then line. */
struct key_line {
    const char *name; /* into the script text, not terminated */
    size_t len;
    int line;
};

struct ps_lua_rules {
    struct ps_lua_sandbox *sb;
    lua_State *L;
    const char *path; /* the sandbox's copy */
    bool (*find_script)(const char *name, char *path, size_t len);
    int include_depth; /* rules() calls in progress */
    int includes;      /* rules() calls so far */
    char *text;        /* the script, to find the line of a key */
    struct key_line *key_lines; /* built on the first look-up */
    size_t nkey_lines;
    bool key_lines_built;
};

/* Stack slots while the state is open, and in fill_protected's frame. */
enum { SLOT_HANDLER = PS_LUA_SLOT_HANDLER, SLOT_TABLE = 2 };

/* rules("NAME"): run the rule script NAME (found by name only) in this
 * sandbox and return its table: a variant starts from the rules it changes. */
static int sandbox_rules(lua_State *L)
{
    struct ps_lua_rules *s = ps_lua_sandbox_owner(L);
    const char *name = luaL_checkstring(L, 1);
    if (ps_lua_has_nul(L, 1))
        return luaL_error(L, "rules('%s...'): the name has a NUL byte in it",
                          name);
    if (s->include_depth >= MAX_INCLUDE_DEPTH)
        return luaL_error(L, "rules('%s'): rule scripts include each other "
                             "more than %d deep (a cycle?)",
                          name, MAX_INCLUDE_DEPTH);
    if (++s->includes > MAX_INCLUDES)
        return luaL_error(L, "rules('%s'): more than %d rules() calls in "
                             "one load (the rules sandbox limit)",
                          name, MAX_INCLUDES);
    char path[4096];
    if (!s->find_script(name, path, sizeof path))
        return luaL_error(L, "rules('%s'): no rule script of that name", name);
    const char *chunkname = lua_pushfstring(L, "@%s", path);
    char *text;
    size_t len;
    struct ps_error err;
    if (!ps_read_text_file(path, &text, &len, &err))
        return luaL_error(L, "rules('%s'): %s", name, err.msg);
    /* lua_load does not raise: text is freed on every path. Compiling is
     * charged like load() (the charge may raise: free first). */
    int st = luaL_loadbufferx(L, text, len, chunkname, "t");
    free(text);
    if (st != LUA_OK)
        return lua_error(L);
    ps_lua_sandbox_charge(L, (uint64_t)len);
    /* An error in the call ends the whole load, so the depth only needs
     * restoring on success. */
    s->include_depth++;
    lua_call(L, 0, 1);
    s->include_depth--;
    if (!lua_istable(L, -1))
        return luaL_error(L, "rules('%s') returned %s, not a table", name,
                          luaL_typename(L, -1));
    return 1;
}

/* ---- errors ---- */

static bool lua_failure(struct ps_lua_rules *s, int status, const char *what,
                        struct ps_error *err)
{
    return ps_lua_sandbox_failure(s->sb, status, what, err);
}

static bool is_word_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

static int compare_key_lines(const void *pa, const void *pb)
{
    const struct key_line *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, n);
    if (c)
        return c;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* One pass over the script: every word followed by "=" (not "=="), with
 * its line. Unknown keys are then found in O(log n) each, not by a scan of
 * the whole text per key (20,000 keys in a 1 MB script took minutes). */
static void build_key_lines(struct ps_lua_rules *s)
{
    s->key_lines_built = true;
    size_t cap = 0;
    int line = 1;
    for (const char *p = s->text; *p;) {
        if (*p == '\n') {
            line++;
            p++;
            continue;
        }
        if (!is_word_char(*p)) {
            p++;
            continue;
        }
        const char *word = p;
        while (is_word_char(*p))
            p++;
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (q[0] != '=' || q[1] == '=')
            continue;
        if (s->nkey_lines == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            struct key_line *k = realloc(s->key_lines, ncap * sizeof *k);
            if (!k)
                break; /* lines are a courtesy: fewer is still correct */
            s->key_lines = k;
            cap = ncap;
        }
        s->key_lines[s->nkey_lines++] =
            (struct key_line){word, (size_t)(p - word), line};
    }
    if (s->nkey_lines)
        qsort(s->key_lines, s->nkey_lines, sizeof *s->key_lines,
              compare_key_lines);
}

/* The first line of the script where `key` is assigned ("key =", not
 * "key =="), or 0: a table read as data has no line numbers of its own. */
static int line_of_key(struct ps_lua_rules *s, const char *key)
{
    if (!s->key_lines_built)
        build_key_lines(s);
    struct key_line want = {key, strlen(key), 0};
    size_t lo = 0, hi = s->nkey_lines;
    while (lo < hi) { /* the first entry >= (key, line 0) */
        size_t mid = lo + (hi - lo) / 2;
        if (compare_key_lines(&s->key_lines[mid], &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->nkey_lines && s->key_lines[lo].len == want.len &&
        memcmp(s->key_lines[lo].name, key, want.len) == 0)
        return s->key_lines[lo].line;
    return 0;
}

/* ---- opening a script ---- */

void ps_lua_rules_close(struct ps_lua_rules *s)
{
    if (!s)
        return;
    ps_lua_sandbox_close(s->sb);
    free(s->text);
    free(s->key_lines);
    free(s);
}

struct ps_lua_rules *ps_lua_rules_open(const char *path,
                                       const struct ps_lua_options *o,
                                       struct ps_error *err)
{
    struct ps_lua_rules *s = calloc(1, sizeof *s);
    size_t len = 0;
    if (!s) {
        ps_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    if (!ps_read_text_file(path, &s->text, &len, err))
        goto fail;
    const struct ps_lua_limits lim = {
        .instructions = o && o->instructions ? o->instructions
                                             : PS_LUA_MAX_INSTRUCTIONS,
        .memory = o && o->memory ? o->memory : PS_LUA_MAX_MEMORY,
        .seconds = PS_LUA_MAX_SECONDS - PS_LUA_GRACE_SECONDS,
        .grace = PS_LUA_GRACE_SECONDS,
        .limit_name = "the rules sandbox limit",
        .quiet = o && o->quiet,
    };
    s->sb = ps_lua_sandbox_open(path, &lim, err);
    if (!s->sb)
        goto fail;
    /* The whole load, up to ps_lua_rules_close, is one timed call. */
    ps_lua_sandbox_enter(s->sb);
    ps_lua_sandbox_set_owner(s->sb, s);
    s->L = ps_lua_sandbox_state(s->sb);
    s->path = ps_lua_sandbox_path(s->sb);
    s->find_script = o ? o->find_script : NULL;
    lua_State *L = s->L;
    if (s->find_script) {
        lua_pushcfunction(L, sandbox_rules);
        lua_setglobal(L, "rules");
    }
    int st = ps_lua_sandbox_run(s->sb, s->text, len, 1);
    if (st != LUA_OK) {
        lua_failure(s, st, "", err);
        goto fail;
    }
    if (!lua_istable(L, -1)) {
        ps_error_set(err, path, 0, 0,
                     "the script must return a table of rules (return { ... }), "
                     "not %s",
                     luaL_typename(L, -1));
        goto fail;
    }
    return s; /* the table is SLOT_TABLE */
fail:
    ps_lua_rules_close(s);
    return NULL;
}

bool ps_lua_rules_game(struct ps_lua_rules *s, const char **game,
                       struct ps_error *err)
{
    lua_State *L = s->L;
    *game = NULL;
    lua_pushliteral(L, "game");
    int t = lua_rawget(L, SLOT_TABLE);
    bool nul = ps_lua_has_nul(L, -1);
    if (t == LUA_TSTRING && !nul)
        *game = lua_tostring(L, -1); /* anchored in the table */
    lua_pop(L, 1);
    if (nul)
        return ps_error_set(err, s->path, line_of_key(s, "game"), 0,
                            "game: the name has a NUL byte in it");
    if (t == LUA_TNIL || t == LUA_TSTRING)
        return true;
    return ps_error_set(err, s->path, line_of_key(s, "game"), 0,
                        "key 'game': expected a game name (a string), got %s",
                        lua_typename(L, t));
}

/* ---- reading the table as data ---- */

/* The keys of prune = {...} that map onto algorithms' options: the options
 * of the algorithms' tables that name a prune key (options.h; dfs's
 * candidates, max_depth, memo and upper_bound), each key once. Documented
 * in docs/rules.md (a test checks every key is there). */
#define MAX_PRUNE_KEYS 32

static int prune_options(const struct ps_option **out)
{
    int n = 0;
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++) {
        for (const struct ps_option *o = NULL;
             (o = ps_algorithm_next_option(*a, o));) {
            bool seen = !o->prune || n == MAX_PRUNE_KEYS;
            for (int i = 0; i < n && !seen; i++)
                seen = strcmp(out[i]->prune, o->prune) == 0;
            if (!seen)
                out[n++] = o;
        }
    }
    return n;
}

const char *ps_lua_prune_key(int i)
{
    const struct ps_option *keys[MAX_PRUNE_KEYS];
    int n = prune_options(keys);
    return i >= 0 && i < n ? keys[i]->prune : NULL;
}

/* What filling needs, passed through lua_pcall as a light userdata. */
struct fill_ctx {
    struct ps_lua_rules *s;
    const struct ps_game *g;
    void *rules;
    struct ps_algo_book *book;
    const char *const *cli_given;
    struct ps_gen_options *gen; /* the `gen` table's values (NULL: none) */
    struct ps_error *err;
    bool ok;
};

/* An integer from a Lua number (a float only if it is a whole number). */
static bool lua_whole_number(lua_State *L, int idx, int64_t *out)
{
    if (lua_type(L, idx) != LUA_TNUMBER)
        return false;
    int isnum;
    lua_Integer v = lua_tointegerx(L, idx, &isnum);
    if (!isnum)
        return false;
    *out = (int64_t)v;
    return true;
}

/* "the string "x"", "3.5", "a table": what a value is, for messages. */
static void describe_value(lua_State *L, int idx, char *buf, size_t len)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            snprintf(buf, len, "%lld", (long long)lua_tointeger(L, idx));
        else
            snprintf(buf, len, "%.17g", (double)lua_tonumber(L, idx));
        break;
    case LUA_TSTRING:
        snprintf(buf, len, "the string \"%.40s\"", lua_tostring(L, idx));
        break;
    case LUA_TBOOLEAN:
        snprintf(buf, len, "%s", lua_toboolean(L, idx) ? "true" : "false");
        break;
    case LUA_TNIL:
        snprintf(buf, len, "nil");
        break;
    default:
        snprintf(buf, len, "a %s", luaL_typename(L, idx));
    }
}

static bool key_error(struct fill_ctx *c, const char *key, const char *fmt,
                      const char *a, const char *b)
{
    char what[320];
    snprintf(what, sizeof what, fmt, a, b);
    c->ok = false;
    return ps_error_set(c->err, c->s->path, line_of_key(c->s, key), 0,
                        "key '%s': %s", key, what);
}

static bool expect_error(struct fill_ctx *c, const char *key, int idx,
                         const char *expected)
{
    char got[96];
    describe_value(c->s->L, idx, got, sizeof got);
    return key_error(c, key, "expected %s, got %s", expected, got);
}

static void int_range_text(const struct ps_param *p, char *buf, size_t len)
{
    snprintf(buf, len, "an integer in %lld..%lld", (long long)p->min,
             (long long)p->max);
}

/* A whole number in p's range at idx, or an error about `key` (which
 * names the table entry for TABLE values). */
static bool read_ranged(struct fill_ctx *c, const struct ps_param *p,
                        const char *key, int idx, int64_t *out)
{
    char expected[96];
    int_range_text(p, expected, sizeof expected);
    if (!lua_whole_number(c->s->L, idx, out) || *out < p->min || *out > p->max)
        return expect_error(c, key, idx, expected);
    return true;
}

static bool read_enum(struct fill_ctx *c, const struct ps_param *p, int idx,
                      int *out)
{
    lua_State *L = c->s->L;
    char expected[256] = "one of";
    size_t n = 0;
    for (; p->choices[n]; n++) {
        size_t k = strlen(expected);
        snprintf(expected + k, sizeof expected - k, "%s \"%s\"", n ? "," : "",
                 p->choices[n]);
    }
    if (lua_type(L, idx) != LUA_TSTRING || ps_lua_has_nul(L, idx))
        return expect_error(c, p->key, idx, expected);
    const char *v = lua_tostring(L, idx);
    for (size_t i = 0; i < n; i++)
        if (strcmp(v, p->choices[i]) == 0) {
            *out = (int)i;
            return true;
        }
    const char *near = ps_suggest(v, p->choices, n);
    char tail[96] = "";
    if (near)
        snprintf(tail, sizeof tail, " (did you mean \"%s\"?)", near);
    char got[96];
    describe_value(L, idx, got, sizeof got);
    return key_error(c, p->key, "expected %s, got %s", expected,
                     strcat(got, tail));
}

/* A rule function is called with n, and for a table with rows (SameGame's
 * score by colour) with the row too. One that declares more parameters than
 * psolve passes would see nil in the others and silently give other rules
 * than its writer meant: an error naming the file and the line where the
 * function is defined, and the parameters psolve does not pass. A vararg
 * function (...) is the writer's own choice: allowed, and given the row.
 * *by_row: the function takes the row (fill each row by its own calls). */
static bool check_arity(struct fill_ctx *c, const struct ps_param *p, int fn,
                        bool *by_row)
{
    lua_State *L = c->s->L;
    lua_Debug ar;
    lua_pushvalue(L, fn);
    lua_getinfo(L, ">Su", &ar);
    const int passed = ps_param_rows(p) > 1 ? 2 : 1;
    *by_row = passed == 2 && (ar.nparams == 2 || ar.isvararg);
    if (ar.nparams <= passed)
        return true;
    char extra[160] = "";
    lua_pushvalue(L, fn);
    for (int i = passed + 1; i <= ar.nparams && strlen(extra) < 100; i++) {
        const char *name = lua_getlocal(L, NULL, i);
        size_t k = strlen(extra);
        snprintf(extra + k, sizeof extra - k, "%s'%s'", i > passed + 1 ? ", " : "",
                 name ? name : "?");
    }
    lua_pop(L, 1);
    char call[96];
    if (passed == 2)
        snprintf(call, sizeof call, "%s(n, %s) with two", p->key, p->table_row);
    else
        snprintf(call, sizeof call, "%s(n) with one", p->key);
    /* The file that defines the function: this script, or one it read
     * with rules("NAME"). */
    const char *file = ar.source[0] == '@' ? ar.source + 1 : c->s->path;
    c->ok = false;
    return ps_error_set(c->err, file, ar.linedefined, 0,
                        "key '%s': the function declares %d parameters, but "
                        "psolve calls it as %s: %s would always be nil",
                        p->key, ar.nparams, call, extra);
}

/* Row 1 of a table copied to the others: a function of n alone, or a Lua
 * table, means the same gain whatever the row. */
static void same_in_every_row(const struct ps_param *p, int64_t *table)
{
    for (int k = 1; k < ps_param_rows(p); k++)
        memcpy(table + (size_t)k * (size_t)p->table_len, table,
               (size_t)p->table_len * sizeof *table);
}

/* One row of a TABLE from a function: called for every n in
 * 0..table_len-1, as f(n) or, when row > 0, as f(n, row). */
static bool tabulate_row(struct fill_ctx *c, const struct ps_param *p, int fn,
                         int row, int64_t *out)
{
    lua_State *L = c->s->L;
    char entry[96];
    for (int n = 0; n < p->table_len; n++) {
        lua_pushvalue(L, fn);
        lua_pushinteger(L, n);
        if (row > 0)
            lua_pushinteger(L, row);
        int st = ps_lua_sandbox_pcall(c->s->sb, row > 0 ? 2 : 1, 1);
        if (row > 0)
            snprintf(entry, sizeof entry, "%s(%d, %d)", p->key, n, row);
        else
            snprintf(entry, sizeof entry, "%s(%d)", p->key, n);
        if (st != LUA_OK) {
            char what[112];
            snprintf(what, sizeof what, "%s: ", entry);
            c->ok = false;
            return lua_failure(c->s, st, what, c->err);
        }
        char expected[96], got[96];
        int_range_text(p, expected, sizeof expected);
        if (!lua_whole_number(L, -1, &out[n]) || out[n] < p->min ||
            out[n] > p->max) {
            describe_value(L, -1, got, sizeof got);
            c->ok = false;
            return ps_error_set(c->err, c->s->path, line_of_key(c->s, p->key), 0,
                                "key '%s': %s returned %s, expected %s", p->key,
                                entry, got, expected);
        }
        lua_pop(L, 1);
    }
    return true;
}

/* TABLE from a function: of n (every row alike), or of n and the row. */
static bool tabulate_function(struct fill_ctx *c, const struct ps_param *p,
                              int fn, int64_t *out)
{
    bool by_row;
    if (!check_arity(c, p, fn, &by_row))
        return false;
    if (!by_row) {
        if (!tabulate_row(c, p, fn, 0, out))
            return false;
        same_in_every_row(p, out);
        return true;
    }
    for (int k = 1; k <= ps_param_rows(p); k++)
        if (!tabulate_row(c, p, fn, k,
                          out + (size_t)(k - 1) * (size_t)p->table_len))
            return false;
    return true;
}

/* TABLE from a Lua table indexed by n; entries left out are 0. */
static bool tabulate_table(struct fill_ctx *c, const struct ps_param *p,
                           int t, int64_t *out)
{
    lua_State *L = c->s->L;
    memset(out, 0, (size_t)p->table_len * sizeof *out);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        int64_t n;
        char expected[96];
        snprintf(expected, sizeof expected, "indices n in 0..%d",
                 p->table_len - 1);
        if (!lua_whole_number(L, -2, &n) || n < 0 || n >= p->table_len) {
            char got[96];
            describe_value(L, -2, got, sizeof got);
            return key_error(c, p->key, "a table of rules needs %s, got index %s",
                             expected, got);
        }
        if (!read_ranged(c, p, p->key, -1, &out[n]))
            return false;
        lua_pop(L, 1);
    }
    same_in_every_row(p, out);
    return true;
}

static bool read_param(struct fill_ctx *c, const struct ps_param *p, int idx,
                       const char *key)
{
    lua_State *L = c->s->L;
    char *field = (char *)c->rules + p->offset;
    switch (p->type) {
    case PS_PARAM_INT: {
        int64_t v = 0;
        if (!read_ranged(c, p, key, idx, &v))
            return false;
        memcpy(field, &v, sizeof v);
        return true;
    }
    case PS_PARAM_BOOL:
        if (!lua_isboolean(L, idx))
            return expect_error(c, key, idx, "true or false");
        *(bool *)field = lua_toboolean(L, idx);
        return true;
    case PS_PARAM_ENUM: {
        int v = 0;
        if (!read_enum(c, p, idx, &v))
            return false;
        memcpy(field, &v, sizeof v);
        return true;
    }
    case PS_PARAM_TABLE: {
        int64_t *table = (int64_t *)(void *)field;
        if (lua_isfunction(L, idx))
            return tabulate_function(c, p, idx, table);
        if (lua_istable(L, idx))
            return tabulate_table(c, p, idx, table);
        char expected[128], by[48] = "";
        if (p->table_rows > 1)
            snprintf(by, sizeof by, " (or of n and %s)", p->table_row);
        snprintf(expected, sizeof expected,
                 "a function of n%s or a table indexed by n (0..%d)", by,
                 p->table_len - 1);
        return expect_error(c, key, idx, expected);
    }
    }
    return false;
}

static bool is_prune_param(const struct ps_param *p)
{
    return strncmp(p->key, PRUNE_PREFIX, strlen(PRUNE_PREFIX)) == 0;
}

static bool option_given(const struct fill_ctx *c, const char *option)
{
    for (const char *const *o = c->cli_given; o && *o; o++)
        if (strcmp(*o, option) == 0)
            return true;
    return false;
}

/* Report the unknown key (the first in the script, for a stable message),
 * suggesting the nearest of `known`. */
static bool unknown_key(struct fill_ctx *c, const char *where, const char *key,
                        const char *const *known, size_t nknown)
{
    const char *near = ps_suggest(key, known, nknown);
    char list[300] = "";
    for (size_t i = 0, k = 0; i < nknown && k < sizeof list; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "",
                              known[i]);
    c->ok = false;
    if (near)
        return ps_error_set(c->err, c->s->path, line_of_key(c->s, key), 0,
                            "unknown %skey '%s' for game %s (did you mean '%s'?)",
                            where, key, c->g->name, near);
    return ps_error_set(c->err, c->s->path, line_of_key(c->s, key), 0,
                        "unknown %skey '%s' for game %s (valid keys: %s)", where,
                        key, c->g->name, list);
}

/* Check every key of the table at idx is a string in known[]; on failure
 * report the unknown key that comes first in the script. */
static bool check_keys(struct fill_ctx *c, int idx, const char *where,
                       const char *const *known, size_t nknown)
{
    lua_State *L = c->s->L;
    const char *worst = NULL;
    int worst_line = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING || ps_lua_has_nul(L, -1)) {
            char got[96];
            describe_value(L, -1, got, sizeof got);
            c->ok = false;
            lua_pop(L, 1);
            return ps_error_set(c->err, c->s->path, 0, 0,
                                "%skeys must be names, got the key %s", where,
                                got);
        }
        const char *key = lua_tostring(L, -1);
        bool found = false;
        for (size_t i = 0; i < nknown && !found; i++)
            found = strcmp(key, known[i]) == 0;
        if (found)
            continue;
        int line = line_of_key(c->s, key);
        if (!worst || (line && (!worst_line || line < worst_line)) ||
            (line == worst_line && strcmp(key, worst) < 0)) {
            worst = key; /* anchored: it is a key of the table */
            worst_line = line;
        }
    }
    return worst ? unknown_key(c, where, worst, known, nknown) : true;
}

/* Set the option of every algorithm in the book whose prune key is `key`
 * to the script's value v (a boolean for a FLAG, negated where the flag
 * says the opposite; an INT already checked against the range). */
static void set_prune(struct ps_algo_book *book, const char *key, int64_t v)
{
    for (int i = 0; book && i < book->n; i++) {
        struct ps_algo_options *own = &book->v[i];
        for (const struct ps_option *o = own->algo->options; o && o->name;
             o++) {
            if (!o->prune || strcmp(o->prune, key) != 0)
                continue;
            unsigned char *field = own->u.bytes + o->offset;
            if (o->type == PS_OPT_FLAG)
                *(bool *)field = o->prune_negated != (v != 0);
            else
                *(int *)field = (int)v;
        }
    }
}

/* A whole number at idx within option o's range into *v, or an error about
 * `key` (a prune key or a gen option's name). */
static bool read_option_int(struct fill_ctx *c, const struct ps_option *o,
                            const char *key, int idx, int64_t *v)
{
    char expected[64];
    snprintf(expected, sizeof expected, "an integer in %.0f..%.0f", o->min,
             o->max);
    if (!lua_whole_number(c->s->L, idx, v) || *v < (int64_t)o->min ||
        *v > (int64_t)o->max)
        return expect_error(c, key, idx, expected);
    return true;
}

static bool read_prune(struct fill_ctx *c, int idx)
{
    lua_State *L = c->s->L;
    if (!lua_istable(L, idx))
        return expect_error(c, "prune", idx, "a table { key = value, ... }");
    const struct ps_option *keys[MAX_PRUNE_KEYS];
    int nkeys = prune_options(keys);
    const char *known[MAX_KEYS];
    size_t n = 0;
    bool maximise = ps_game_may_score(c->g);
    for (int i = 0; i < nkeys && n < MAX_KEYS; i++)
        if (maximise || !keys[i]->prune_score_only)
            known[n++] = keys[i]->prune;
    for (const struct ps_param *p = c->g->params; p && p->key && n < MAX_KEYS; p++)
        if (is_prune_param(p))
            known[n++] = p->key + strlen(PRUNE_PREFIX);
    for (int i = 0; i < nkeys && !maximise; i++) {
        lua_pushstring(L, keys[i]->prune);
        if (keys[i]->prune_score_only && lua_rawget(L, idx) != LUA_TNIL) {
            c->ok = false;
            return ps_error_set(c->err, c->s->path,
                                line_of_key(c->s, keys[i]->prune), 0,
                                "prune key '%s' is not supported by game %s "
                                "(only score games have it)",
                                keys[i]->prune, c->g->name);
        }
        lua_settop(L, idx);
    }
    if (!check_keys(c, idx, "prune ", known, n))
        return false;
    for (int i = 0; i < nkeys; i++) {
        const struct ps_option *k = keys[i];
        lua_pushstring(L, k->prune);
        if (lua_rawget(L, idx) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (k->type == PS_OPT_FLAG) {
            if (!lua_isboolean(L, -1))
                return expect_error(c, k->prune, -1, "true or false");
            if (!option_given(c, k->name))
                set_prune(c->book, k->prune, lua_toboolean(L, -1));
        } else {
            int64_t v;
            if (!read_option_int(c, k, k->prune, -1, &v))
                return false;
            if (!option_given(c, k->name))
                set_prune(c->book, k->prune, v);
        }
        lua_pop(L, 1);
    }
    for (const struct ps_param *p = c->g->params; p && p->key; p++) {
        if (!is_prune_param(p))
            continue;
        const char *key = p->key + strlen(PRUNE_PREFIX);
        lua_pushstring(L, key);
        if (lua_rawget(L, idx) != LUA_TNIL &&
            !read_param(c, p, lua_gettop(L), key))
            return false;
        lua_pop(L, 1);
    }
    return true;
}

/* `gen = { rows = 9, cols = 7, colors = 4 }`: psolve gen's defaults under
 * these rules (a variant played on its own board size, as Former's 7x9 of
 * 4 shapes), keyed by the game's gen options (names or aliases) and
 * bounded by their ranges; the command line's values win (cli.h). */
static bool read_gen(struct fill_ctx *c, int idx)
{
    lua_State *L = c->s->L;
    const struct ps_option *opts = c->g->generate ? c->g->gen_options : NULL;
    if (!opts || !opts->name) {
        c->ok = false;
        return ps_error_set(c->err, c->s->path, line_of_key(c->s, "gen"), 0,
                            "key 'gen': game %s has no generator options",
                            c->g->name);
    }
    if (!lua_istable(L, idx))
        return expect_error(c, "gen", idx,
                            "a table { option = value, ... } of psolve gen's "
                            "options");
    const char *known[MAX_KEYS];
    size_t n = 0;
    for (const struct ps_option *o = opts; o->name && n + 2 <= MAX_KEYS; o++) {
        known[n++] = o->name;
        if (o->alias)
            known[n++] = o->alias;
    }
    if (!check_keys(c, idx, "gen ", known, n))
        return false;
    for (const struct ps_option *o = opts; o->name; o++) {
        bool seen = false;
        for (int alias = 0; alias < 2; alias++) {
            const char *key = alias ? o->alias : o->name;
            if (!key)
                continue;
            lua_pushstring(L, key);
            int64_t v;
            if (lua_rawget(L, idx) != LUA_TNIL) {
                if (seen)
                    return key_error(c, key, "the same option as '%s'%s",
                                     o->name, ": give one of them");
                if (!read_option_int(c, o, key, -1, &v))
                    return false;
                if (c->gen)
                    *(int *)((unsigned char *)c->gen + o->offset) = (int)v;
                seen = true;
            }
            lua_pop(L, 1);
        }
    }
    return true;
}

/* Runs protected (lua_pcall): a memory error while reading is caught. */
static int fill_protected(lua_State *L)
{
    struct fill_ctx *c = lua_touserdata(L, SLOT_TABLE + 1);
    c->ok = false;
    const char *known[MAX_KEYS];
    size_t n = 0;
    known[n++] = "game";
    known[n++] = "prune";
    for (const struct ps_param *p = c->g->params; p && p->key && n < MAX_KEYS; p++)
        if (!is_prune_param(p))
            known[n++] = p->key;
    if (c->g->generate && n < MAX_KEYS)
        known[n++] = "gen";
    if (!check_keys(c, SLOT_TABLE, "", known, n))
        return 0;
    for (const struct ps_param *p = c->g->params; p && p->key; p++) {
        if (is_prune_param(p))
            continue;
        lua_pushstring(L, p->key);
        if (lua_rawget(L, SLOT_TABLE) != LUA_TNIL &&
            !read_param(c, p, lua_gettop(L), p->key))
            return 0;
        lua_pop(L, 1);
    }
    lua_pushliteral(L, "prune");
    if (lua_rawget(L, SLOT_TABLE) != LUA_TNIL && !read_prune(c, lua_gettop(L)))
        return 0;
    lua_pushliteral(L, "gen");
    if (lua_rawget(L, SLOT_TABLE) != LUA_TNIL && !read_gen(c, lua_gettop(L)))
        return 0;
    c->ok = true;
    return 0;
}

bool ps_lua_rules_fill(struct ps_lua_rules *s, const struct ps_game *g,
                       void *rules, struct ps_algo_book *book,
                       const char *const *cli_given,
                       struct ps_gen_options *gen, struct ps_error *err)
{
    const char *game;
    if (!ps_lua_rules_game(s, &game, err))
        return false;
    if (game && strcmp(game, g->name) != 0)
        return ps_error_set(err, s->path, line_of_key(s, "game"), 0,
                            "these rules are for game %s, but the game is %s "
                            "(--game)",
                            game, g->name);
    struct fill_ctx c = {s, g, rules, book, cli_given, gen, err, false};
    lua_State *L = s->L;
    int top = lua_gettop(L);
    /* The protected function sees the same slots as this frame. */
    lua_pushcfunction(L, fill_protected);
    lua_pushvalue(L, SLOT_HANDLER);
    lua_pushvalue(L, SLOT_TABLE);
    lua_pushlightuserdata(L, &c);
    int st = ps_lua_sandbox_pcall(s->sb, 3, 0);
    if (st != LUA_OK)
        return lua_failure(s, st, "", err);
    lua_settop(L, top);
    return c.ok;
}
