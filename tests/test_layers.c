/*
 * test_layers.c - the arrows between folders (docs/architecture.md): every
 * #include "..." of framework/ and games/ is resolved to the folder that
 * holds the header, and that folder must be one the including folder may
 * read. The allowed reads form no circle, so neither can the tree:
 *
 *   framework/util         itself only (errors, numbers, text files, ...)
 *   framework/kernel       util (it names no game: the built-in list is
 *                          games/registry.c's)
 *   framework/rules        util, kernel
 *   framework/algorithms   util, kernel
 *   games/NAME             util, kernel
 *   games                  util, kernel, and games.def (games/registry.c)
 *   framework/providers    util, kernel, rules (Lua games run in the rules'
 *                          sandbox; C plug-ins)
 *   framework/report       util, kernel, algorithms (runs, labs, reports)
 *   framework/import       util (pictures in, puzzle text out: no game)
 *   framework/serve        everything above
 *   framework/cli          everything above
 *   framework/mpi          everything
 *
 * The same arrows hold at link level: every undefined ps_ symbol of an
 * object of the build (nm) is defined in a folder its folder may read. Two
 * lists are declared in the kernel and defined above it, on purpose, so
 * that the kernel names no game and no algorithm: ps_builtin_games
 * (games/registry.c) and ps_builtin_algorithms (algorithms/registry.c).
 */
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The folders, lowest first; a folder may read the folders of its mask. */
enum {
    UTIL, KERNEL, RULES, ALGORITHMS, GAME, GAMES, PROVIDERS, REPORT, IMPORT,
    SERVE, CLI, MPI, FOLDERS
};
static const char *const folder_path[FOLDERS] = {
    "framework/util", "framework/kernel", "framework/rules",
    "framework/algorithms", NULL, /* games/NAME, one of several */
    "games", "framework/providers", "framework/report", "framework/import",
    "framework/serve",
    "framework/cli", "framework/mpi",
};
#define BIT(f) (1u << (f))
#define BELOW(f) (BIT(f) - 1u) /* every folder listed before f */
static const unsigned may_read[FOLDERS] = {
    [UTIL] = BIT(UTIL),
    [KERNEL] = BIT(UTIL) | BIT(KERNEL),
    [RULES] = BIT(UTIL) | BIT(KERNEL) | BIT(RULES),
    [ALGORITHMS] = BIT(UTIL) | BIT(KERNEL) | BIT(ALGORITHMS),
    [GAME] = BIT(UTIL) | BIT(KERNEL) | BIT(GAME),
    [GAMES] = BIT(UTIL) | BIT(KERNEL) | BIT(GAMES),
    [PROVIDERS] = BIT(UTIL) | BIT(KERNEL) | BIT(RULES) | BIT(PROVIDERS),
    [REPORT] = BIT(UTIL) | BIT(KERNEL) | BIT(ALGORITHMS) | BIT(REPORT),
    [IMPORT] = BIT(UTIL) | BIT(IMPORT),
    [SERVE] = (BELOW(SERVE) & ~BIT(GAME) & ~BIT(GAMES)) | BIT(SERVE),
    [CLI] = (BELOW(CLI) & ~BIT(GAME) & ~BIT(GAMES)) | BIT(CLI),
    [MPI] = ~0u,
};

static bool exists(const char *dir, const char *name)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/%s", PSOLVE_SOURCE_DIR, dir, name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder that holds `name` included from folder `from` (at `dir`): the
 * includer's own folder first, then the include path's; -1 when none has
 * it. A name with a '/' is a path from `dir`. */
static int holder(int from, const char *dir, const char *name)
{
    if (strchr(name, '/'))
        return -2; /* a relative path: always refused, see below */
    if (exists(dir, name))
        return from;
    for (int f = 0; f < FOLDERS; f++)
        if (folder_path[f] && f != GAMES && exists(folder_path[f], name))
            return f;
    return -1;
}

/* Check every #include "..." of the .c and .h files of `dir` (folder
 * `from`); returns the number of arrows that break the rules, each
 * printed. */
static int check_folder(int from, const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PSOLVE_SOURCE_DIR, dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    int bad = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 3 || e->d_name[n - 2] != '.' ||
            (e->d_name[n - 1] != 'c' && e->d_name[n - 1] != 'h'))
            continue;
        char file[sizeof path + sizeof e->d_name + 1];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        FILE *fp = fopen(file, "r");
        assert_non_null(fp);
        char line[512];
        while (fgets(line, sizeof line, fp)) {
            char name[256];
            if (sscanf(line, " # include \"%255[^\"]\"", name) != 1)
                continue;
            int to = holder(from, dir, name);
            if (to >= 0 && (may_read[from] & BIT(to)))
                continue;
            printf("%s/%s includes \"%s\" (%s)\n", dir, e->d_name, name,
                   to == -2   ? "a path: name a header of an allowed folder"
                   : to == -1 ? "found in no folder"
                              : folder_path[to] ? folder_path[to]
                                                : "another game's folder");
            bad++;
        }
        fclose(fp);
    }
    closedir(d);
    return bad;
}

static void test_no_upward_arrow(void **state)
{
    (void)state;
    int bad = 0;
    for (int f = 0; f < FOLDERS; f++)
        if (folder_path[f])
            bad += check_folder(f, folder_path[f]);
    /* Each game's own folder. */
    char path[1024];
    snprintf(path, sizeof path, "%s/games", PSOLVE_SOURCE_DIR);
    DIR *d = opendir(path);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        char dir[300];
        struct stat st;
        snprintf(dir, sizeof dir, "games/%s", e->d_name);
        snprintf(path, sizeof path, "%s/%s", PSOLVE_SOURCE_DIR, dir);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 ||
            !S_ISDIR(st.st_mode))
            continue;
        bad += check_folder(GAME, dir);
    }
    closedir(d);
    assert_int_equal(bad, 0);
}

/* The check sees a broken arrow: a kernel file that included a rules
 * header, or a header only a game's folder holds, would be counted. */
static void test_the_check_sees_an_arrow(void **state)
{
    (void)state;
    assert_int_equal(holder(KERNEL, "framework/kernel", "lua_sandbox.h"),
                     RULES);
    assert_false(may_read[KERNEL] & BIT(RULES));
    assert_int_equal(holder(UTIL, "framework/util", "search.h"), KERNEL);
    assert_false(may_read[UTIL] & BIT(KERNEL));
    assert_int_equal(holder(REPORT, "framework/report", "serve.h"), SERVE);
    assert_false(may_read[REPORT] & BIT(SERVE));
    assert_int_equal(holder(KERNEL, "framework/kernel", "planes.h"), -1);
    assert_int_equal(holder(KERNEL, "framework/kernel", "../../games/games.def"),
                     -2);
    assert_int_equal(holder(GAMES, "games", "games.def"), GAMES);
    assert_int_equal(holder(CLI, "framework/cli", "lua_game.h"), PROVIDERS);
    assert_false(may_read[GAME] & BIT(PROVIDERS));
}

/* ---- link level ---- */

/* The lists the kernel declares and a folder above defines (see the top). */
static bool is_seam(int from, const char *symbol, int to)
{
    return from == KERNEL &&
           ((strcmp(symbol, "ps_builtin_games") == 0 && to == GAMES) ||
            (strcmp(symbol, "ps_builtin_algorithms") == 0 &&
             to == ALGORITHMS));
}

/* The folder of an object of the build, by its path under a target's
 * CMakeFiles/T.dir/: framework/X/f.c.o, games/NAME/f.c.o, games/f.c.o;
 * -1 for any other (a test, a front end's main). */
static int object_folder(const char *path)
{
    const char *p = strstr(path, ".dir/");
    if (!p)
        return -1;
    p += 5;
    for (int f = 0; f < FOLDERS; f++) {
        size_t n = folder_path[f] ? strlen(folder_path[f]) : 0;
        if (n && f != GAMES && strncmp(p, folder_path[f], n) == 0 &&
            p[n] == '/')
            return f;
    }
    if (strncmp(p, "games/", 6) == 0)
        return strchr(p + 6, '/') ? GAME : GAMES;
    return -1;
}

#define MAX_SYMBOLS 4096

struct symbol {
    char name[128];
    char object[512];
    int folder;
};

struct symbols {
    struct symbol defined[MAX_SYMBOLS], undefined[MAX_SYMBOLS];
    int ndefined, nundefined;
};

/* Is the source of this object still in the tree? A build directory kept
 * from before a file moved or went away still holds its old object
 * (CMakeFiles/T.dir/framework/X/f.c.o), which no target links any more. */
static bool source_exists(const char *object)
{
    const char *dir = strstr(object, ".dir/");
    if (!dir)
        return true;
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/%s", PSOLVE_SOURCE_DIR, dir + 5);
    if (n < 3 || (size_t)n >= sizeof path)
        return true;
    path[n - 2] = '\0'; /* f.c.o -> f.c */
    struct stat st;
    return stat(path, &st) == 0;
}

/* Every global ps_ symbol of the build's objects of the psolve library,
 * the command line's library and psolve, defined or not (nm -A -g). */
static void read_symbols(struct symbols *t)
{
    t->ndefined = t->nundefined = 0;
    FILE *nm = popen("find " PSOLVE_BUILD_DIR "/CMakeFiles/psolve_core.dir "
                     PSOLVE_BUILD_DIR "/CMakeFiles/psolve_cli.dir "
                     PSOLVE_BUILD_DIR "/CMakeFiles/psolve.dir -name '*.o' "
                     "| sort | xargs nm -A -g", "r");
    assert_non_null(nm);
    char line[512];
    while (fgets(line, sizeof line, nm)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        if (!source_exists(line))
            continue;
        char a[128], b[128], c[128];
        int n = sscanf(colon + 1, "%127s %127s %127s", a, b, c);
        const char *type = n == 3 ? b : a, *name = n == 3 ? c : b;
        if (n < 2 || strncmp(name, "ps_", 3) != 0)
            continue;
        bool undefined = strcmp(type, "U") == 0;
        struct symbol *e = undefined ? &t->undefined[t->nundefined]
                                     : &t->defined[t->ndefined];
        if ((undefined ? t->nundefined : t->ndefined) == MAX_SYMBOLS)
            fail_msg("more than %d symbols", MAX_SYMBOLS);
        snprintf(e->name, sizeof e->name, "%s", name);
        snprintf(e->object, sizeof e->object, "%s",
                 strstr(line, ".dir/") ? strstr(line, ".dir/") + 5 : line);
        e->folder = object_folder(line);
        undefined ? t->nundefined++ : t->ndefined++;
    }
    pclose(nm);
    assert_true(t->ndefined > 100); /* the build's objects were found */
}

/* The folder that defines `name`, or -1. */
static int definer(const struct symbols *t, const char *name)
{
    for (int i = 0; i < t->ndefined; i++)
        if (strcmp(t->defined[i].name, name) == 0)
            return t->defined[i].folder;
    return -1;
}

/* Is a call from folder `from` to `name`, defined in folder `to`, one
 * the arrows allow? */
static bool link_allowed(int from, const char *name, int to)
{
    return from < 0 || to < 0 || (may_read[from] & BIT(to)) ||
           is_seam(from, name, to);
}

static void test_no_upward_call(void **state)
{
    (void)state;
    static struct symbols t;
    read_symbols(&t);
    int bad = 0;
    for (int i = 0; i < t.nundefined; i++) {
        const struct symbol *u = &t.undefined[i];
        int to = definer(&t, u->name);
        if (link_allowed(u->folder, u->name, to))
            continue;
        printf("%s uses %s, defined in %s\n", u->object, u->name,
               folder_path[to] ? folder_path[to] : "another game's folder");
        bad++;
    }
    assert_int_equal(bad, 0);
}

/* The link check sees an upward call: the kernel calling the report's
 * labs or the algorithms' playouts, rules calling an algorithm. */
static void test_the_link_check_sees_a_call(void **state)
{
    (void)state;
    assert_int_equal(object_folder("x/CMakeFiles/psolve_core.dir/framework/"
                                   "kernel/search.c.o"), KERNEL);
    assert_int_equal(object_folder("x/CMakeFiles/psolve_core.dir/games/"
                                   "samegame/samegame.c.o"), GAME);
    assert_int_equal(object_folder("x/CMakeFiles/psolve_core.dir/games/"
                                   "registry.c.o"), GAMES);
    assert_false(link_allowed(KERNEL, "ps_lab_collect", REPORT));
    assert_false(link_allowed(KERNEL, "ps_playout", ALGORITHMS));
    assert_false(link_allowed(RULES, "ps_algo_beam", ALGORITHMS));
    assert_false(link_allowed(UTIL, "ps_search_stopped", KERNEL));
    assert_true(link_allowed(KERNEL, "ps_builtin_games", GAMES));
    assert_false(link_allowed(RULES, "ps_builtin_games", GAMES));
}

/* ---- the map of docs/architecture.md ---- */

#define MAP_MAX 512

struct map_entry {
    char folder[64], name[64];
};

/* The names of the map's left column: "framework/X/" starts folder X, and
 * each entry line ("  a.[ch], b.c c.c   what they are") names files,
 * NAME.[ch] being NAME.c and NAME.h. */
static int read_map(struct map_entry *v)
{
    FILE *f = fopen(PSOLVE_SOURCE_DIR "/docs/architecture.md", "r");
    assert_non_null(f);
    char line[512], folder[64] = "";
    int n = 0;
    bool in_map = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "```", 3) == 0) {
            if (in_map)
                break;
            continue;
        }
        if (strncmp(line, "framework/util/ ", 16) == 0)
            in_map = true;
        if (!in_map)
            continue;
        if (strncmp(line, "framework/", 10) == 0) {
            sscanf(line, "%63s", folder);
            continue;
        }
        if (strncmp(line, "games/", 6) == 0)
            folder[0] = '\0'; /* games are named by pattern */
        if (!folder[0] || line[0] != ' ' || line[2] == ' ')
            continue;
        char *left = line + 2, *end = strstr(left, "  ");
        if (end)
            *end = '\0';
        for (char *t = strtok(left, " ,\n"); t; t = strtok(NULL, " ,\n")) {
            char *ch = strstr(t, ".[ch]");
            for (int k = 0; k < (ch ? 2 : 1) && n < MAP_MAX; k++, n++) {
                snprintf(v[n].folder, sizeof v[n].folder, "%s", folder);
                snprintf(v[n].name, sizeof v[n].name, "%s", t);
                if (ch)
                    strcpy(strstr(v[n].name, ".[ch]"), k ? ".h" : ".c");
            }
        }
    }
    fclose(f);
    return n;
}

static void test_the_map_names_every_file_once(void **state)
{
    (void)state;
    static struct map_entry map[MAP_MAX];
    int n = read_map(map), bad = 0;
    assert_true(n > 50);
    FILE *p = popen("cd " PSOLVE_SOURCE_DIR " && ls -d framework/*/* | sort",
                    "r");
    assert_non_null(p);
    char path[512];
    int files = 0;
    while (fgets(path, sizeof path, p)) {
        path[strcspn(path, "\n")] = '\0';
        char *slash = strrchr(path, '/');
        *slash = '\0';
        int times = 0;
        for (int i = 0; i < n; i++) {
            char folder[520];
            snprintf(folder, sizeof folder, "%s/", path);
            times += strcmp(map[i].folder, folder) == 0 &&
                     strcmp(map[i].name, slash + 1) == 0;
        }
        if (times != 1) {
            printf("docs/architecture.md's map names %s/%s %d times\n", path,
                   slash + 1, times);
            bad++;
        }
        files++;
    }
    pclose(p);
    assert_true(files > 50);
    /* And no name without its file (the map once named a pdb_cmd.[ch]). */
    for (int i = 0; i < n; i++) {
        char dir[80];
        snprintf(dir, sizeof dir, "%.*s", (int)strlen(map[i].folder) - 1,
                 map[i].folder);
        if (!exists(dir, map[i].name)) {
            printf("docs/architecture.md's map names %s%s, which does not "
                   "exist\n", map[i].folder, map[i].name);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_upward_arrow),
        cmocka_unit_test(test_the_check_sees_an_arrow),
        cmocka_unit_test(test_no_upward_call),
        cmocka_unit_test(test_the_link_check_sees_a_call),
        cmocka_unit_test(test_the_map_names_every_file_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
