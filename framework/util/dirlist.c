/*
 * dirlist.c - the directory listing of dirlist.h: readdir, filter, join,
 * sort.
 */
#include "dirlist.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "dir/name", or "dirname" when dir already ends with '/'. */
static char *join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), len = dl + 1 + strlen(name) + 1;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/",
                 name);
    return p;
}

bool ps_dir_list(const char *dir, bool (*keep)(const char *name),
                 const char *what, char ***paths, int *n,
                 struct ps_error *err)
{
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return ps_error_set(err, dir, 0, 0, "cannot read the %s", what);
    int cap = 0;
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d)) != NULL;) {
        if (!keep(e->d_name))
            continue;
        if (*n == cap) {
            int ncap = cap ? 2 * cap : 16;
            char **np = realloc(*paths, (size_t)ncap * sizeof *np);
            if (!np) {
                ok = false;
                break;
            }
            *paths = np;
            cap = ncap;
        }
        char *p = join(dir, e->d_name);
        if (p)
            (*paths)[(*n)++] = p;
        ok = p != NULL;
    }
    closedir(d);
    if (!ok) {
        ps_dir_list_free(*paths, *n);
        *paths = NULL;
        *n = 0;
        return ps_error_set(err, dir, 0, 0, "out of memory");
    }
    if (*n > 1)
        qsort(*paths, (size_t)*n, sizeof **paths, compare_paths);
    return true;
}

void ps_dir_list_free(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}
