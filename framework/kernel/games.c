/* The registry of games: the built-in ones, from the list the layer above
 * defines (ps_builtin_games: games/registry.c, from games/games.def; the
 * kernel names no game), then the games added at run time (shared-object
 * plug-ins, Lua games). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

/* At most this many built-in games (games/games.def). */
#define MAX_BUILTIN_GAMES 64

/* Built-in games first, then up to PS_MAX_ADDED_GAMES added ones, then NULL.
 * The registry is the kernel's one piece of process-wide mutable state: the
 * built-in games are copied in once (pthread_once, on the first call of any
 * function below), the added ones by main at start-up, before any search or
 * thread starts, and it is only read after that. */
static const struct ps_game
    *registered[MAX_BUILTIN_GAMES + PS_MAX_ADDED_GAMES + 1];
static int builtin_games;
static bool builtin_overflow; /* more than MAX_BUILTIN_GAMES: check_all says so */
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static void registry_fill(void)
{
    for (; ps_builtin_games[builtin_games]; builtin_games++) {
        if (builtin_games == MAX_BUILTIN_GAMES) {
            builtin_overflow = true;
            break;
        }
        registered[builtin_games] = ps_builtin_games[builtin_games];
    }
}

static const struct ps_game **registry(void)
{
    pthread_once(&registry_once, registry_fill);
    return registered;
}

const struct ps_game *const *ps_game_list(void)
{
    return registry();
}

const struct ps_game *const *ps_game_list_added(void)
{
    return registry() + builtin_games;
}

const struct ps_game *ps_game_find(const char *name)
{
    const struct ps_game **games = registry();
    for (int i = 0; games[i]; i++)
        if (strcmp(games[i]->name, name) == 0)
            return games[i];
    return NULL;
}

bool ps_game_check_all(struct ps_error *err)
{
    const struct ps_game **games = registry();
    if (builtin_overflow)
        return ps_error_set(err, NULL, 0, 0,
                            "too many built-in games (at most %d)",
                            MAX_BUILTIN_GAMES);
    for (int i = 0; games[i]; i++)
        if (!ps_game_check(games[i], err))
            return false;
    return true;
}

bool ps_game_register(const struct ps_game *g, struct ps_error *err)
{
    if (!ps_game_check(g, err))
        return false;
    const struct ps_game **games = registry();
    int n = 0;
    for (; games[n]; n++)
        if (games[n] == g)
            return true; /* loaded twice: the same game */
        else if (strcmp(games[n]->name, g->name) == 0)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s is already known (psolve list shows "
                                "the games); a game's name must be unique",
                                g->name);
    if (n == builtin_games + PS_MAX_ADDED_GAMES)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: too many added games (at most %d)",
                            g->name, PS_MAX_ADDED_GAMES);
    games[n] = g;
    return true;
}

const struct ps_game *ps_game_detect(const char *text, size_t len, char *tried,
                                     size_t tried_len)
{
    const struct ps_game **games = registry();
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
