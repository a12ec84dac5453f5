/* Games in shared objects built outside the tree (docs/plugins.md): load
 * one with dlopen, ask it for its game through the one symbol psolve_plugin,
 * and register the game after checking its version and its contract. */
#define _GNU_SOURCE /* dladdr1, to ask whether psolve_plugin is a function */
#include <dlfcn.h>
#include <errno.h>
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dirlist.h"
#include "game.h"
#include "plugin.h"
#include "plugin_guard.h"

#define MAX_PATH_LEN 4096

typedef const struct ps_plugin *(*plugin_entry)(void);

/* Is sym the address of a function? A plug-in whose psolve_plugin is data
 * (`int psolve_plugin;`) would be called into and crash. Where the dynamic
 * linker cannot say (no symbol table entry), assume it is. */
static bool is_function(void *sym)
{
    Dl_info info;
    const ElfW(Sym) *entry = NULL;
    if (!dladdr1(sym, &info, (void **)&entry, RTLD_DL_SYMENT) || !entry)
        return true;
    int type = ELF64_ST_TYPE(entry->st_info);
    return type == STT_FUNC || type == STT_GNU_IFUNC;
}

bool ps_plugin_load(const char *path, struct ps_error *err)
{
    /* A bare name is a file in the current directory, as the user means it,
     * not a library that dlopen would look for in the system's directories. */
    char file[MAX_PATH_LEN];
    int n = snprintf(file, sizeof file, "%s%s", strchr(path, '/') ? "" : "./",
                     path);
    if (n < 0 || (size_t)n >= sizeof file)
        return ps_error_set(err, NULL, 0, 0, "plug-in path too long");
    /* dlopen would block on a FIFO until a writer came, and read a device:
     * only a regular file is a plug-in. */
    struct stat st;
    if (stat(file, &st) != 0)
        return ps_error_set(err, path, 0, 0, "cannot load the plug-in: %s",
                            strerror(errno));
    if (!S_ISREG(st.st_mode))
        return ps_error_set(err, path, 0, 0,
                            "cannot load the plug-in: not a regular file");
    /* Never closed: the game's functions and tables live in the object,
     * and the registry holds them until the process ends. */
    void *so = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!so)
        return ps_error_set(err, path, 0, 0, "cannot load the plug-in: %s",
                            dlerror());
    void *sym = dlsym(so, PS_PLUGIN_SYMBOL);
    if (!sym) {
        dlclose(so);
        return ps_error_set(err, path, 0, 0,
                            "not a psolve plug-in: no symbol '%s' (a plug-in "
                            "ends with PS_PLUGIN(its_game); docs/plugins.md)",
                            PS_PLUGIN_SYMBOL);
    }
    if (!is_function(sym)) {
        dlclose(so);
        return ps_error_set(err, path, 0, 0,
                            "not a psolve plug-in: '%s' is not a function (a "
                            "plug-in ends with PS_PLUGIN(its_game); "
                            "docs/plugins.md)",
                            PS_PLUGIN_SYMBOL);
    }
    plugin_entry entry;
    /* POSIX guarantees a function's address survives this round trip. */
    memcpy(&entry, &sym, sizeof entry);
    const struct ps_plugin *p = entry();
    int version = p ? p->api_version : -1;
    if (version != PS_API_VERSION) {
        dlclose(so); /* p points into it: read before */
        if (!p)
            return ps_error_set(err, path, 0, 0,
                                "slot '%s' returned NULL, not the plug-in",
                                PS_PLUGIN_SYMBOL);
        return ps_error_set(err, path, 0, 0,
                            "plug-in built for psolve API version %d, but this "
                            "psolve has API version %d: rebuild it against "
                            "this psolve's headers (pkg-config --cflags psolve)",
                            version, PS_API_VERSION);
    }
    /* The struct first, then the copy that checks its answers at run time
     * (plugin_guard.c), which is what the registry holds. */
    const struct ps_game *guarded = NULL;
    if (!ps_game_check(p->game, err) ||
        !(guarded = ps_plugin_guard(p->game, path, err)) ||
        !ps_game_register(guarded, err)) {
        if (!guarded)
            dlclose(so); /* a guard keeps pointers into it */
        /* The message names the game and the slot; add the file. */
        snprintf(err->file, sizeof err->file, "%s", path);
        return false;
    }
    return true;
}

static bool is_plugin_name(const char *name)
{
    size_t len = strlen(name);
    return len > 3 && strcmp(name + len - 3, ".so") == 0;
}

/* Every NAME.so in dir, in name order (so the games are listed alike on
 * every machine). */
static bool load_directory(const char *dir, struct ps_error *err)
{
    char **paths;
    int n;
    if (!ps_dir_list(dir, is_plugin_name, "plug-in directory", &paths, &n,
                     err))
        return false;
    /* One more than the registry holds: its own message names the game. */
    bool ok = n <= PS_MAX_ADDED_GAMES + 1 ||
              ps_error_set(err, dir, 0, 0, "more than %d plug-ins",
                           PS_MAX_ADDED_GAMES);
    for (int i = 0; ok && i < n; i++)
        ok = ps_plugin_load(paths[i], err);
    ps_dir_list_free(paths, n);
    return ok;
}

bool ps_plugin_load_path(const char *list, struct ps_error *err)
{
    if (!list)
        return true;
    char *copy = strdup(list);
    if (!copy)
        return ps_error_set(err, NULL, 0, 0, "out of memory");
    bool ok = true;
    for (char *save = NULL, *entry = strtok_r(copy, ":", &save); ok && entry;
         entry = strtok_r(NULL, ":", &save)) {
        struct stat st;
        if (stat(entry, &st) == 0 && S_ISDIR(st.st_mode))
            ok = load_directory(entry, err);
        else
            ok = ps_plugin_load(entry, err);
    }
    free(copy);
    return ok;
}
