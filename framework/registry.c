/* The registries of games and algorithms, generated from the .def lists. */
#include <string.h>

#include "game.h"
#include "search.h"

#define GAME(name) extern const struct ps_game name##_game;
#include "../games/games.def"
#undef GAME

#define ALGORITHM(name) extern const struct ps_algorithm ps_algo_##name;
#include "algorithms.def"
#undef ALGORITHM

static const struct ps_game *const games[] = {
#define GAME(name) &name##_game,
#include "../games/games.def"
#undef GAME
    NULL,
};

static const struct ps_algorithm *const algorithms[] = {
#define ALGORITHM(name) &ps_algo_##name,
#include "algorithms.def"
#undef ALGORITHM
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

const struct ps_algorithm *const *ps_algorithm_list(void)
{
    return algorithms;
}

const struct ps_algorithm *ps_algorithm_find(const char *name)
{
    for (int i = 0; algorithms[i]; i++)
        if (strcmp(algorithms[i]->name, name) == 0)
            return algorithms[i];
    return NULL;
}
