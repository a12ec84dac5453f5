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
 *   framework/serve        everything above
 *   framework/cli          everything above
 *   framework/mpi          everything
 */
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The folders, lowest first; a folder may read the folders of its mask. */
enum {
    UTIL, KERNEL, RULES, ALGORITHMS, GAME, GAMES, PROVIDERS, REPORT, SERVE,
    CLI, MPI, FOLDERS
};
static const char *const folder_path[FOLDERS] = {
    "framework/util", "framework/kernel", "framework/rules",
    "framework/algorithms", NULL, /* games/NAME, one of several */
    "games", "framework/providers", "framework/report", "framework/serve",
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_upward_arrow),
        cmocka_unit_test(test_the_check_sees_an_arrow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
