/*
 * dirlist.h - the one directory listing: the files of a directory whose
 * names a filter keeps, as paths, in name order (so a lab's puzzles and the
 * plug-ins of $PSOLVE_PLUGIN_PATH come in the same order on every machine,
 * whatever order the file system keeps).
 */
#ifndef PS_DIRLIST_H
#define PS_DIRLIST_H

#include <stdbool.h>

#include "error.h"

/* The entries of `dir` whose name keep(name) accepts, as paths "dir/name"
 * ("dirname" when dir ends with '/'), sorted by strcmp: *paths is malloc'd,
 * *n of them (free with ps_dir_list_free). False with err when the
 * directory cannot be read ("cannot read the <what>", file = dir) or out of
 * memory. */
bool ps_dir_list(const char *dir, bool (*keep)(const char *name),
                 const char *what, char ***paths, int *n,
                 struct ps_error *err);
void ps_dir_list_free(char **paths, int n);

#endif
