/* The registry of games, generated from games/games.def: the one place where
 * the kernel meets the game plug-ins, by name only. */
#include <string.h>

#include "game.h"

#define GAME(name) extern const struct ps_game name##_game;
#include "../../games/games.def"
#undef GAME

static const struct ps_game *const games[] = {
#define GAME(name) &name##_game,
#include "../../games/games.def"
#undef GAME
    NULL,
};

const struct ps_game *const *ps_game_list(void)
{
    return games;
}

const struct ps_game *ps_game_find(const char *name)
{
    for (int i = 0; games[i]; i++)
        if (strcmp(games[i]->name, name) == 0)
            return games[i];
    return NULL;
}
