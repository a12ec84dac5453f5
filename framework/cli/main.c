/*
 * main.c - the psolve command line: parse (args.c), check the games, pick
 * the game, and hand over to the command (cmd_NAME.c, one file each).
 * psolve-mpi compiles it with PSOLVE_CLI_LIBRARY and its own hooks
 * (frontend.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "lab.h"
#include "lua_game.h"
#include "plugin.h"
#include "rules.h"
#include "textfile.h"

/* Without --game: the game whose detect() claims the (first) puzzle file,
 * else `fallback`, with a hint kept for the error if the file then does not
 * load. */
static const struct ps_game *game_of_file(struct cli *c,
                                          const struct ps_game *fallback)
{
    if (!c->cmd->detects_game || c->nfiles < 1)
        return fallback;
    struct ps_error err;
    ps_error_clear(&err);
    char **paths = NULL;
    int npaths = 0;
    char *text = NULL;
    size_t len = 0;
    const struct ps_game *g = fallback;
    /* A directory: its first puzzle. An unreadable file is reported when
     * it is loaded. */
    if (ps_lab_collect(c->files, 1, &paths, &npaths, &err) && npaths > 0 &&
        cli_read_puzzle(paths[0], NULL, true, &text, &len, &err)) {
        char tried[200];
        const struct ps_game *found = ps_game_detect(text, len, tried,
                                                     sizeof tried);
        if (found)
            g = found;
        else
            snprintf(c->game_hint, sizeof c->game_hint,
                     "no game's format matched %.80s (tried %s), so it was "
                     "read as %s, the default: give --game NAME",
                     paths[0], tried[0] ? tried : "none", fallback->name);
    }
    free(text);
    for (int i = 0; i < npaths; i++)
        free(paths[i]);
    free(paths);
    return g;
}

static int run_command(int argc, char **argv, const struct ps_frontend *fe)
{
    static const struct ps_frontend plain = {0};
    const struct ps_command *first = argc > 1 ? ps_command_find(argv[1])
                                              : NULL;
    if (first && first->stage == PS_CMD_ON_ARGV) /* serve: docs/serve.md */
        return first->run_argv(argc - 1, argv + 1, argv[0]);
    struct cli c;
    int rc = ps_cli_parse(argc, argv, fe ? fe : &plain, &c);
    if (rc >= 0)
        return rc;
    struct ps_error err;
    ps_error_clear(&err);
    if (c.cmd->stops_on_signal)
        ps_install_interrupt_handler();
    /* A game that breaks the vtable contract is named here, before any
     * search could crash on a NULL slot (plug-ins are checked as they load). */
    if (!ps_game_check_all(&err) ||
        !ps_plugin_load_path(getenv("PSOLVE_PLUGIN_PATH"), &err))
        return cli_print_error(&err);
    for (int i = 0; i < c.nplugins; i++)
        if (!ps_plugin_load(c.plugins[i], &err))
            return cli_print_error(&err);
    if (c.cmd->stage == PS_CMD_ON_GAMES)
        return c.cmd->run(&c, NULL);
    const struct ps_game *g = ps_lua_game_is_script(c.game_name)
                                  ? ps_lua_game_open(c.game_name, &err)
                                  : ps_game_find(c.game_name);
    if (!g && err.msg[0])
        return cli_print_error(&err);
    if (!g)
        return cli_usage_error("unknown game '%s' (psolve list shows them)",
                           c.game_name);
    if (!cli_option_given(&c, "game")) {
        const struct ps_game *by_default = g;
        if (!ps_rules_game(c.rules_spec, &g, &err))
            return cli_print_error(&err);
        if (g == by_default)
            g = game_of_file(&c, g);
    }
    if ((g->flags & PS_ONE_THREAD) && c.opt.threads > 1)
        return cli_usage_error("game %s runs in one thread (a Lua game: one "
                           "interpreter per puzzle); leave out --threads or "
                           "give --threads 1 (lab --jobs N still runs N "
                           "puzzles at once)",
                           g->name);
    return c.cmd->run(&c, g);
}

int ps_cli_main(int argc, char **argv, const struct ps_frontend *fe)
{
    int rc = run_command(argc, argv, fe);
    /* A full disk or a closed pipe on stdout: the answer did not arrive. */
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_output_close(stdout, "stdout", false, &err))
        return cli_print_error(&err);
    return rc;
}

#ifndef PSOLVE_CLI_LIBRARY
int main(int argc, char **argv)
{
    return ps_cli_main(argc, argv, NULL);
}
#endif
