/*
 * plugin.h - games in shared objects built outside the tree (docs/plugins.md):
 * psolve_plugin() of a NAME.so, checked (plugin_guard.h) and added to the
 * registry of games. A plug-in itself needs only game.h.
 */
#ifndef PS_PLUGIN_H
#define PS_PLUGIN_H

#include <stdbool.h>

#include "error.h"

/* Load the plug-in at `path` (dlopen), check its version and its game, and
 * add the game to the registry (ps_game_register). False with err (naming
 * the file) when the file cannot be loaded, lacks psolve_plugin, was built
 * for another PS_API_VERSION, or its game breaks the contract. */
bool ps_plugin_load(const char *path, struct ps_error *err);
/* Load each entry of a ':'-separated list ($PSOLVE_PLUGIN_PATH): a file as
 * ps_plugin_load, a directory as every NAME.so in it, in name order. NULL or
 * "" loads nothing. False with err at the first failure. */
bool ps_plugin_load_path(const char *list, struct ps_error *err);

#endif
