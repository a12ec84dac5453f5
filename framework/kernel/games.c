/* The registry of games: the built-in ones, generated from games/games.def
 * (the one place where the kernel meets the game plug-ins, by name only),
 * then the games added at run time (shared-object plug-ins, Lua games). */
#include <stdio.h>
#include <string.h>

#include "game.h"

#define GAME(name) extern const struct ps_game name##_game;
#include "../../games/games.def"
#undef GAME

enum {
    BUILTIN_GAMES = 0
#define GAME(name) +1
#include "../../games/games.def"
#undef GAME
};

/* Built-in games first, then up to PS_MAX_ADDED_GAMES added ones, then NULL.
 * The registry is the kernel's one piece of process-wide mutable state: it
 * is filled once, by main at start-up, before any search or thread starts,
 * and only read after that. */
static const struct ps_game *games[BUILTIN_GAMES + PS_MAX_ADDED_GAMES + 1] = {
#define GAME(name) &name##_game,
#include "../../games/games.def"
#undef GAME
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

bool ps_game_check_all(struct ps_error *err)
{
    for (int i = 0; games[i]; i++)
        if (!ps_game_check(games[i], err))
            return false;
    return true;
}

bool ps_game_register(const struct ps_game *g, struct ps_error *err)
{
    if (!ps_game_check(g, err))
        return false;
    int n = 0;
    for (; games[n]; n++)
        if (games[n] == g)
            return true; /* loaded twice: the same game */
        else if (strcmp(games[n]->name, g->name) == 0)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s is already known (psolve list shows "
                                "the games); a game's name must be unique",
                                g->name);
    if (n == BUILTIN_GAMES + PS_MAX_ADDED_GAMES)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: too many added games (at most %d)",
                            g->name, PS_MAX_ADDED_GAMES);
    games[n] = g;
    return true;
}

const struct ps_game *ps_game_detect(const char *text, size_t len, char *tried,
                                     size_t tried_len)
{
    size_t k = 0;
    if (tried_len)
        tried[0] = '\0';
    for (int i = 0; games[i]; i++) {
        if (!games[i]->detect)
            continue;
        if (games[i]->detect(text, len))
            return games[i];
        int n = snprintf(tried + k, tried_len - k, "%s%s", k ? ", " : "",
                         games[i]->name);
        if (n > 0 && (size_t)n < tried_len - k)
            k += (size_t)n;
    }
    return NULL;
}
