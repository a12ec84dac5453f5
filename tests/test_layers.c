/*
 * test_layers.c - the arrows between folders (docs/architecture.md): every
 * #include "..." of framework/ and games/ is resolved to the folder that
 * holds the header, and that folder must be one the including folder may
 * read. The allowed reads form no circle, so neither can the tree:
 *
 *   framework/kernel       itself only (it names no game: the built-in list
 *                          is games/registry.c's)
 *   framework/rules        kernel
 *   framework/algorithms   kernel
 *   games/NAME             kernel (games/lua, the Lua adapter: also rules)
 *   games                  kernel, and games.def (games/registry.c)
 *   framework/cli          everything above but mpi
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
    KERNEL, RULES, ALGORITHMS, GAME, LUA_GAME, GAMES, CLI, MPI, FOLDERS
};
static const char *const folder_path[FOLDERS] = {
    "framework/kernel", "framework/rules", "framework/algorithms",
    NULL, /* games/NAME, one of several */
    "games/lua", "games", "framework/cli", "framework/mpi",
};
#define BIT(f) (1u << (f))
static const unsigned may_read[FOLDERS] = {
    [KERNEL] = BIT(KERNEL),
    [RULES] = BIT(KERNEL) | BIT(RULES),
    [ALGORITHMS] = BIT(KERNEL) | BIT(ALGORITHMS),
    [GAME] = BIT(KERNEL) | BIT(GAME),
    [LUA_GAME] = BIT(KERNEL) | BIT(RULES) | BIT(LUA_GAME),
    [GAMES] = BIT(KERNEL) | BIT(GAMES),
    [CLI] = BIT(KERNEL) | BIT(RULES) | BIT(ALGORITHMS) | BIT(LUA_GAME) |
            BIT(CLI),
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
        if (e->d_name[0] == '.' || strcmp(e->d_name, "lua") == 0 ||
            stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
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
    assert_int_equal(holder(KERNEL, "framework/kernel", "planes.h"), -1);
    assert_int_equal(holder(KERNEL, "framework/kernel", "../../games/games.def"),
                     -2);
    assert_int_equal(holder(GAMES, "games", "games.def"), GAMES);
    assert_int_equal(holder(CLI, "framework/cli", "lua_game.h"), LUA_GAME);
    assert_false(may_read[GAME] & BIT(LUA_GAME));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_upward_arrow),
        cmocka_unit_test(test_the_check_sees_an_arrow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
