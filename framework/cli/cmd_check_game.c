/*
 * cmd_check_game.c - psolve check-game: the conformance check
 * (conformance.h) on a game, for its author: on the puzzle FILEs given,
 * else on puzzles its generator makes. Which games: --game NAME or
 * --game PATH.lua, else the games of the --plugin files, else every
 * registered game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"
#include "lua_game.h"
#include "textfile.h"

/* Walks per puzzle, and the moves of each. */
#define CHECK_WALKS 3
#define CHECK_STEPS 60
/* Puzzles generated for a game when no FILE is given. */
#define CHECK_GENERATED 3

/* The conformance walks on one loaded puzzle; false with the failure said. */
static bool check_puzzle(const struct ps_game *g, const void *rules,
                         void *inst, const char *what)
{
    struct ps_error err;
    ps_error_clear(&err);
    for (uint64_t seed = 1; seed <= CHECK_WALKS; seed++)
        if (!ps_game_conforms(g, rules, inst, CHECK_STEPS, seed, &err)) {
            fprintf(stderr, "psolve: check-game: %s: %s\n", what, err.msg);
            return false;
        }
    printf("%s %s: ok\n", g->name, what);
    return true;
}

/* The puzzle `text` loaded under rules, then checked. */
static bool check_text(const struct ps_game *g, const void *rules,
                       const char *what, const char *text, size_t len)
{
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = g->load(rules, what, text, len, &err);
    if (!inst) {
        cli_print_error(&err);
        return false;
    }
    bool ok = check_puzzle(g, rules, inst, what);
    g->free_instance(inst);
    return ok;
}

static bool check_file(const struct ps_game *g, const void *rules,
                       const char *path)
{
    struct ps_error err;
    ps_error_clear(&err);
    char *text = NULL;
    size_t len = 0;
    bool ok = ps_read_text_file(path, &text, &len, &err)
                  ? check_text(g, rules, path, text, len)
                  : cli_print_error(&err) == 0;
    free(text);
    return ok;
}

/* Puzzles of the game's generator, seeds 1..CHECK_GENERATED, at its
 * default sizes (or the gen options given). */
static bool check_generated(struct cli *c, const struct ps_game *g,
                            const void *rules)
{
    if (!g->generate) {
        fprintf(stderr, "psolve: check-game: %s has no generator: give "
                        "puzzle FILEs\n", g->name);
        return false;
    }
    bool ok = true;
    for (uint64_t seed = 1; seed <= CHECK_GENERATED && ok; seed++) {
        char *text = NULL, what[64];
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        struct ps_error err;
        ps_error_clear(&err);
        struct ps_gen_options gen = c->gen;
        gen.seed = seed;
        snprintf(what, sizeof what, "(generated, seed %llu)",
                 (unsigned long long)seed);
        ok = out && g->generate(&gen, out, &err);
        if (out)
            fclose(out);
        if (!ok)
            fprintf(stderr, "psolve: check-game: %s: gen: %s\n", g->name,
                    err.msg);
        else
            ok = check_text(g, rules, what, text, len);
        free(text);
    }
    return ok;
}

static bool check_one_game(struct cli *c, const struct ps_game *g)
{
    void *rules = NULL;
    if (cli_gen_rules(c, g, &rules) >= 0)
        return false;
    bool ok = true;
    for (int i = 0; i < c->nfiles && ok; i++)
        ok = check_file(g, rules, c->files[i]);
    if (c->nfiles == 0)
        ok = check_generated(c, g, rules);
    free(rules);
    return ok;
}

/* The games to check: --game's, else the plug-ins', else all. */
static int chosen_games(struct cli *c, const struct ps_game **v, int max,
                        struct ps_error *err)
{
    if (cli_option_given(c, "game")) {
        v[0] = ps_lua_game_is_script(c->game_name)
                   ? ps_lua_game_open(c->game_name, err)
                   : ps_game_find(c->game_name);
        return v[0] ? 1 : -1;
    }
    int n = 0;
    const struct ps_game *const *all =
        c->nplugins > 0 ? ps_game_list_added() : ps_game_list();
    for (int i = 0; all[i] && n < max; i++)
        v[n++] = all[i];
    return n;
}

int cmd_check_game(struct cli *c, const struct ps_game *unused)
{
    (void)unused;
    struct ps_error err;
    ps_error_clear(&err);
    const struct ps_game *games[PS_MAX_ADDED_GAMES + 32];
    int n = chosen_games(c, games, (int)(sizeof games / sizeof *games), &err);
    if (n < 0 && err.msg[0])
        return cli_print_error(&err);
    if (n < 0)
        return cli_usage_error("unknown game '%s' (psolve list shows them)",
                               c->game_name);
    if (c->nfiles > 0 && n > 1)
        return cli_usage_error("%s", "check-game with puzzle FILEs checks one "
                                     "game: give --game NAME");
    int failed = 0;
    for (int i = 0; i < n; i++)
        failed += !check_one_game(c, games[i]);
    if (cli_option_given(c, "game") && ps_lua_game_is_script(c->game_name))
        ps_lua_game_close(games[0]);
    printf("# check-game: %d game%s, %d conform%s\n", n, n == 1 ? "" : "s",
           n - failed, n - failed == 1 ? "s" : "");
    return failed ? PS_EXIT_ERROR : PS_EXIT_OK;
}
