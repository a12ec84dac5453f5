/* The built-in games: games/games.def made into the list the kernel's
 * registry (framework/kernel/games.c) starts from. It lives here, above the
 * kernel, so that the kernel names no game and includes nothing of games/:
 * the kernel only declares ps_builtin_games (game.h), and this layer
 * defines it. */
#include "game.h"

#define GAME(name) extern const struct ps_game name##_game;
#include "games.def"
#undef GAME

const struct ps_game *const ps_builtin_games[] = {
#define GAME(name) &name##_game,
#include "games.def"
#undef GAME
    NULL,
};
