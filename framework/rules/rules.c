/* realpath() is XSI. */
#define _XOPEN_SOURCE 700

#include "rules.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lua_rules.h"
#include "suggest.h"

/* Compiled in by CMakeLists.txt, for the rule scripts and for the games
 * written in Lua: the source tree's directory, the build tree (the source
 * tree's files are used only by programs run from it), the directory
 * relative to the installed executable's directory, and the configured
 * install prefix's directory. */
#ifndef PSOLVE_RULES_SOURCE_DIR
#define PSOLVE_RULES_SOURCE_DIR ""
#endif
#ifndef PSOLVE_BUILD_DIR
#define PSOLVE_BUILD_DIR ""
#endif
#ifndef PSOLVE_RULES_FROM_BIN
#define PSOLVE_RULES_FROM_BIN "../share/psolve/rules"
#endif
#ifndef PSOLVE_RULES_INSTALL_DIR
#define PSOLVE_RULES_INSTALL_DIR ""
#endif
#ifndef PSOLVE_GAMES_SOURCE_DIR
#define PSOLVE_GAMES_SOURCE_DIR ""
#endif
#ifndef PSOLVE_GAMES_FROM_BIN
#define PSOLVE_GAMES_FROM_BIN "../share/psolve/games/lua"
#endif
#ifndef PSOLVE_GAMES_INSTALL_DIR
#define PSOLVE_GAMES_INSTALL_DIR ""
#endif

#define BUILTIN_PREFIX "builtin:"
#define MAX_DIRS 16
#define MAX_PATH_LEN 4096

/* Where one kind of shipped Lua file is looked for. */
struct data_kind {
    const char *env; /* a ':'-separated list searched first, or NULL */
    const char *source_dir, *from_bin, *install_dir;
};
static const struct data_kind rule_scripts = {
    "PSOLVE_RULES_PATH", PSOLVE_RULES_SOURCE_DIR, PSOLVE_RULES_FROM_BIN,
    PSOLVE_RULES_INSTALL_DIR};
static const struct data_kind lua_games = {
    NULL, PSOLVE_GAMES_SOURCE_DIR, PSOLVE_GAMES_FROM_BIN,
    PSOLVE_GAMES_INSTALL_DIR};

/* The directories searched, in order (docs/rules.md). */
struct rules_dirs {
    char env[MAX_PATH_LEN];
    char beside_exe[2 * PATH_MAX]; /* <exe dir>/from_bin */
    const char *dir[MAX_DIRS];
    int n;
};

/* The running executable's directory, symbolic links resolved, into dir
 * (PATH_MAX bytes); false when the system does not say. */
static bool executable_dir(char *dir)
{
    char exe[PATH_MAX];
    if (!realpath("/proc/self/exe", exe))
        return false;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    slash[slash == exe] = '\0'; /* keep the root's '/' */
    strcpy(dir, exe);
    return true;
}

/* Is `dir` the directory `root` or below it? Both are canonical paths. */
static bool path_within(const char *dir, const char *root)
{
    char real_root[PATH_MAX];
    if (!root[0] || !realpath(root, real_root))
        return false;
    size_t n = strlen(real_root);
    return strncmp(dir, real_root, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
}

static void rules_dirs_add(struct rules_dirs *d, const char *dir)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->dir[i], dir) == 0)
            return;
    if (d->n < MAX_DIRS)
        d->dir[d->n++] = dir;
}

static void data_dirs_get(struct rules_dirs *d, const struct data_kind *k)
{
    d->n = 0;
    const char *env = k->env ? getenv(k->env) : NULL;
    snprintf(d->env, sizeof d->env, "%s", env ? env : "");
    for (char *save = NULL, *dir = strtok_r(d->env, ":", &save);
         dir && d->n < MAX_DIRS - 3; dir = strtok_r(NULL, ":", &save))
        d->dir[d->n++] = dir;
    char exe_dir[PATH_MAX], joined[2 * PATH_MAX];
    if (executable_dir(exe_dir)) {
        /* A program run from its build tree reads the files being edited
         * in the source tree; a copied or installed one never does: the
         * build tree may have changed or gone. */
        if (k->source_dir[0] && path_within(exe_dir, PSOLVE_BUILD_DIR)) {
            rules_dirs_add(d, k->source_dir);
        } else {
            snprintf(joined, sizeof joined, "%s/%s", exe_dir, k->from_bin);
            if (!realpath(joined, d->beside_exe)) /* shown as it is if missing */
                snprintf(d->beside_exe, sizeof d->beside_exe, "%s", joined);
            rules_dirs_add(d, d->beside_exe);
        }
    }
    if (k->install_dir[0])
        rules_dirs_add(d, k->install_dir);
}

static void rules_dirs_get(struct rules_dirs *d)
{
    data_dirs_get(d, &rule_scripts);
}

/* Where a spec's rules come from: a script file, or a built-in preset. */
struct rules_source {
    char script[MAX_PATH_LEN]; /* "" = not a script */
    const char *preset;        /* when not a script: preset name */
};

static bool ends_with(const char *s, const char *tail)
{
    size_t ls = strlen(s), lt = strlen(tail);
    return ls >= lt && strcmp(s + ls - lt, tail) == 0;
}

static bool has_preset(const struct ps_game *g, const char *name)
{
    for (const struct ps_preset *p = g->presets; p && p->name; p++)
        if (strcmp(p->name, name) == 0)
            return true;
    return false;
}

/* The first NAME.lua in the search directories, into path; NAME must be
 * a plain name, so a script can only name scripts in those directories. */
static bool script_by_name(const char *name, char *path, size_t len)
{
    if (!ps_name_is_plain(name))
        return false;
    struct rules_dirs d;
    rules_dirs_get(&d);
    for (int i = 0; i < d.n; i++) {
        int n = snprintf(path, len, "%s/%s.lua", d.dir[i], name);
        if (n > 0 && (size_t)n < len && access(path, R_OK) == 0)
            return true;
    }
    path[0] = '\0';
    return false;
}

/* Decide where spec's rules come from. g may be NULL (no preset fallback
 * is possible then: a NAME without a script is left as a preset name). */
static bool rules_locate(const struct ps_game *g, const char *spec,
                         struct rules_source *src, struct ps_error *err)
{
    src->script[0] = '\0';
    src->preset = NULL;
    if (strncmp(spec, BUILTIN_PREFIX, strlen(BUILTIN_PREFIX)) == 0) {
        src->preset = spec + strlen(BUILTIN_PREFIX);
        return true;
    }
    if (ends_with(spec, ".lua") || strchr(spec, '/')) {
        if (strlen(spec) >= sizeof src->script)
            return ps_error_set(err, NULL, 0, 0, "rules path too long");
        strcpy(src->script, spec);
        return true;
    }
    if (!ps_name_is_plain(spec))
        return ps_error_set(err, NULL, 0, 0,
                            "bad --rules '%s': give a NAME (letters, digits, "
                            "'_', '-'), a PATH.lua, or builtin:NAME",
                            spec);
    if (script_by_name(spec, src->script, sizeof src->script))
        return true;
    if (!g || has_preset(g, spec)) {
        src->preset = spec;
        return true;
    }
    struct rules_dirs d;
    rules_dirs_get(&d);
    char searched[1024] = "";
    for (int i = 0, k = 0; i < d.n && (size_t)k < sizeof searched; i++)
        k += snprintf(searched + k, sizeof searched - (size_t)k, "%s%s",
                      i ? ", " : "", d.dir[i]);
    char known[256] = "";
    for (const struct ps_preset *p = g->presets; p && p->name; p++) {
        size_t k = strlen(known);
        snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", p->name);
    }
    return ps_error_set(err, NULL, 0, 0,
                        "no rules '%s': no %s.lua in %s, and game %s has no "
                        "built-in preset of that name (presets: %s)",
                        spec, spec, searched[0] ? searched : "(no directory)",
                        g->name, known[0] ? known : "none");
}

/* Give a rules_check error the script's name when it has none. */
static bool check_rules(const struct ps_game *g, const void *rules,
                        const char *script, struct ps_error *err)
{
    if (!g->rules_check || g->rules_check(rules, err))
        return true;
    if (script && !err->file[0]) {
        strncpy(err->file, script, sizeof err->file - 1);
        err->file[sizeof err->file - 1] = '\0';
    }
    return false;
}

void *ps_rules_resolve_cli(const struct ps_game *g, const char *spec,
                           struct ps_algo_book *book,
                           const char *const *cli_given,
                           struct ps_gen_options *gen, struct ps_error *err)
{
    /* A game without rules still gets a pointer of its own. */
    void *rules = calloc(1, g->rules_size ? g->rules_size : 1);
    if (!rules) {
        ps_error_set(err, NULL, 0, 0, "out of memory");
        return NULL;
    }
    struct rules_source src;
    if (spec && !rules_locate(g, spec, &src, err))
        goto fail;
    if (!spec || !src.script[0]) {
        if (!ps_rules_preset(g, rules, spec ? src.preset : NULL, err))
            goto fail;
        return rules;
    }
    if (g->rules_default)
        g->rules_default(rules);
    const struct ps_lua_options lo = {.find_script = script_by_name};
    struct ps_lua_rules *s = ps_lua_rules_open(src.script, &lo, err);
    if (!s)
        goto fail;
    bool ok = ps_lua_rules_fill(s, g, rules, book, cli_given, gen, err);
    ps_lua_rules_close(s);
    if (ok && check_rules(g, rules, src.script, err))
        return rules;
fail:
    free(rules);
    return NULL;
}

void *ps_rules_resolve(const struct ps_game *g, const char *spec,
                       struct ps_algo_book *book, struct ps_error *err)
{
    return ps_rules_resolve_cli(g, spec, book, NULL, NULL, err);
}

bool ps_rules_game(const char *spec, const struct ps_game **g,
                   struct ps_error *err)
{
    struct rules_source src;
    if (!spec || !rules_locate(NULL, spec, &src, err) || !src.script[0])
        return true; /* resolving reports a bad spec with the game's presets */
    /* The script runs again when resolved: print only then. */
    const struct ps_lua_options quiet = {.quiet = true,
                                         .find_script = script_by_name};
    struct ps_lua_rules *s = ps_lua_rules_open(src.script, &quiet, err);
    if (!s)
        return false;
    const char *name;
    bool ok = ps_lua_rules_game(s, &name, err);
    if (ok && name) {
        const struct ps_game *found = ps_game_find(name);
        if (found)
            *g = found;
        else
            ok = ps_error_set(err, src.script, 0, 0,
                              "key 'game': unknown game '%s' (psolve list shows "
                              "them)",
                              name);
    }
    ps_lua_rules_close(s);
    return ok;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The *.lua files of directory `dir`, without ".lua", sorted (the
 * listing is stable): the number found, at most 64; -1 if the directory
 * cannot be read. */
static int lua_files(const char *dir, char names[64][64])
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;)
        if (ends_with(e->d_name, ".lua") && strlen(e->d_name) < 64)
            snprintf(names[n++], 64, "%.*s", (int)(strlen(e->d_name) - 4),
                     e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], compare_names);
    return n;
}

void ps_rules_list_scripts(FILE *out)
{
    struct rules_dirs d;
    rules_dirs_get(&d);
    fprintf(out, "rule scripts (--rules NAME finds NAME.lua, first match wins):\n");
    for (int i = 0; i < d.n; i++) {
        char names[64][64];
        int n = lua_files(d.dir[i], names);
        fprintf(out, "  %s%s\n", d.dir[i], n < 0 ? " (missing)" : "");
        for (int k = 0; k < n; k++)
            fprintf(out, "    --rules %s\n", names[k]);
    }
}

/* The puzzles shipped beside game NAME.lua: NAME-*.txt, sorted. */
static void list_puzzles_of(FILE *out, const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char found[16][128];
    int n = 0;
    size_t len = strlen(name);
    for (struct dirent *e; (e = readdir(d)) && n < 16;)
        if (strncmp(e->d_name, name, len) == 0 && e->d_name[len] == '-' &&
            ends_with(e->d_name, ".txt") && strlen(e->d_name) < 128)
            memcpy(found[n++], e->d_name, strlen(e->d_name) + 1);
    closedir(d);
    qsort(found, (size_t)n, sizeof found[0], compare_names);
    for (int k = 0; k < n; k++)
        fprintf(out, "%s%s", k ? ", " : "      puzzles: ", found[k]);
    if (n)
        fputc('\n', out);
}

void ps_rules_list_lua_games(FILE *out,
                             bool (*describe)(const char *path, char *buf,
                                              size_t len))
{
    struct rules_dirs d;
    data_dirs_get(&d, &lua_games);
    fprintf(out, "games written in Lua (--game DIR/FILE.lua; docs/lua-games.md):\n");
    for (int i = 0; i < d.n; i++) {
        char names[64][64];
        int n = lua_files(d.dir[i], names);
        fprintf(out, "  %s%s\n", d.dir[i], n < 0 ? " (missing)" : "");
        for (int k = 0; k < n; k++) {
            char path[MAX_PATH_LEN + 64];
            snprintf(path, sizeof path, "%s/%s.lua", d.dir[i], names[k]);
            char what[300];
            bool loads = describe(path, what, sizeof what);
            fprintf(out, "    %-16s %s\n", path + strlen(d.dir[i]) + 1,
                    loads ? what
                          : "(does not load: psolve --game PATH says why)");
            list_puzzles_of(out, d.dir[i], names[k]);
        }
    }
}

/* FNV-1a over one field, so that the hash is the same on every platform
 * for the same values (ints as little-endian 64-bit numbers). */
static uint64_t fnv_bytes(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t fnv_int(uint64_t h, int64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)v >> (8 * i));
    return fnv_bytes(h, b, sizeof b);
}

uint64_t ps_rules_hash(const struct ps_game *g, const void *rules)
{
    uint64_t h = fnv_bytes(0xcbf29ce484222325ULL, g->name, strlen(g->name));
    const char *base = rules;
    for (const struct ps_param *p = g->params; p && p->key; p++) {
        h = fnv_bytes(h, p->key, strlen(p->key) + 1);
        const char *field = base + p->offset;
        switch (p->type) {
        case PS_PARAM_INT: {
            int64_t v;
            memcpy(&v, field, sizeof v);
            h = fnv_int(h, v);
            break;
        }
        case PS_PARAM_BOOL: {
            bool v;
            memcpy(&v, field, sizeof v);
            h = fnv_int(h, v);
            break;
        }
        case PS_PARAM_ENUM: {
            int v;
            memcpy(&v, field, sizeof v);
            h = fnv_int(h, v);
            break;
        }
        case PS_PARAM_TABLE: {
            /* Rows after the first count only where they differ from it:
             * rules without a colour-aware table keep the stamp they had
             * before tables had rows (solution files carry it). */
            const size_t row_bytes = (size_t)p->table_len * sizeof(int64_t);
            for (int k = 0; k < ps_param_rows(p); k++) {
                const char *row = field + (size_t)k * row_bytes;
                if (k > 0 && memcmp(row, field, row_bytes) == 0)
                    continue;
                if (k > 0)
                    h = fnv_int(h, -k);
                for (int i = 0; i < p->table_len; i++) {
                    int64_t v;
                    memcpy(&v, row + (size_t)i * sizeof v, sizeof v);
                    h = fnv_int(h, v);
                }
            }
            break;
        }
        }
    }
    return h;
}

void ps_rules_stamp(const struct ps_game *g, const char *spec,
                    const void *rules, char *buf, size_t len)
{
    snprintf(buf, len, "%s hash %016llx", spec ? spec : "default",
             (unsigned long long)ps_rules_hash(g, rules));
}

bool ps_rules_stamp_find(const char *text, size_t len, char *name,
                         size_t name_len, uint64_t *hash, int *line)
{
    static const char key[] = "# rules: ";
    int number = 1;
    for (size_t i = 0; i < len; number++) {
        const char *start = text + i;
        const char *nl = memchr(start, '\n', len - i);
        size_t n = nl ? (size_t)(nl - start) : len - i;
        char buf[256];
        if (n > strlen(key) && n < sizeof buf &&
            strncmp(start, key, strlen(key)) == 0) {
            memcpy(buf, start + strlen(key), n - strlen(key));
            buf[n - strlen(key)] = '\0';
            char *mark = strstr(buf, " hash ");
            char *end;
            unsigned long long v = mark ? strtoull(mark + 6, &end, 16) : 0;
            if (mark && end != mark + 6) {
                *mark = '\0';
                snprintf(name, name_len, "%s", buf);
                *hash = (uint64_t)v;
                *line = number;
                return true;
            }
        }
        i += n + (nl ? 1 : 0);
    }
    return false;
}
