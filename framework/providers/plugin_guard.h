/* plugin_guard.h - the plug-in contract checked at run time
 * (plugin_guard.c). */
#ifndef PS_PLUGIN_GUARD_H
#define PS_PLUGIN_GUARD_H

#include "game.h"

/* The game psolve registers for the plug-in game g (which keeps the
 * contract: ps_game_check) loaded from `path`: a copy whose load, moves and
 * bounded_moves slots check what g's return, and whose fault slot reports
 * a breach as an error naming `path` and the slot. The same g twice gives
 * the same copy. NULL with err when PS_MAX_ADDED_GAMES are guarded
 * already. */
const struct ps_game *ps_plugin_guard(const struct ps_game *g,
                                      const char *path, struct ps_error *err);

#endif
