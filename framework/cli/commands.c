/*
 * commands.c - the table of psolve's commands (commands.h): every place
 * that names a command reads it from here.
 */
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "serve.h"

/* psolve help [TOPIC]: the topic is its file argument. */
static int run_help(struct cli *c, const struct ps_game *g)
{
    (void)g;
    return cmd_help(c, c->nfiles > 0 ? c->files[0] : NULL);
}

#define ALL_OPTIONS (PS_CMD_CLI_OPTIONS | PS_CMD_ALGO_OPTIONS)

const struct ps_command ps_commands[] = {
    {.name = "solve", .synopsis = "[options] FILE", .summary = "solve a puzzle",
     .doc = "docs/cli.md#solving",
     .examples = "  psolve --game npuzzle --algo astar "
                 "games/npuzzle/examples/8-hardest.txt\n",
     .min_files = 1, .max_files = PS_CMD_ANY_FILES, .word_optional = true,
     .detects_game = true, .options = ALL_OPTIONS, .stage = PS_CMD_ON_GAME,
     .stops_on_signal = true, .run = cmd_solve},
    {.name = "lab", .synopsis = "[options] FILE|DIR...",
     .summary = "a lab: every puzzle x --algo",
     .doc = "docs/cli.md#labs-over-many-puzzles",
     .examples = "  psolve lab --game watersort --algo astar,idastar "
                 "--max-nodes 200000 \\\n"
                 "         --jobs 2 games/watersort/levels\n",
     .min_files = 1, .max_files = PS_CMD_ANY_FILES, .word_optional = true,
     .detects_game = true, .options = ALL_OPTIONS, .stage = PS_CMD_ON_GAME,
     .stops_on_signal = true, .run = cmd_lab},
    {.name = "verify", .synopsis = "[options] FILE SOLUTION",
     .summary = "replay a solution and check it", .doc = "docs/cli.md#verify",
     .examples = "  psolve games/samegame/standard/01.txt > sol.txt\n"
                 "  psolve verify games/samegame/standard/01.txt sol.txt\n",
     .min_files = 2, .max_files = 2, .detects_game = true,
     .options = PS_CMD_CLI_OPTIONS, .stage = PS_CMD_ON_GAME,
     .run = cmd_verify},
    {.name = "gen", .synopsis = "[options]", .summary = "print a random puzzle",
     .doc = "docs/cli.md",
     .examples = "  psolve gen --game watersort --colors 5 --tubes 7 "
                 "--seed 3\n"
                 "  psolve gen --rules former --seed 3\n",
     .min_files = 0, .max_files = 0,
     .options = PS_CMD_CLI_OPTIONS | PS_CMD_GEN_OPTIONS,
     .stage = PS_CMD_ON_GAME, .run = cmd_gen},
    {.name = "show", .synopsis = "[options] FILE", .summary = "draw a puzzle",
     .doc = "docs/cli.md",
     .examples = "  psolve show games/samegame/examples/samegame-5x5.txt\n",
     .min_files = 1, .max_files = 1, .detects_game = true,
     .options = PS_CMD_CLI_OPTIONS, .stage = PS_CMD_ON_GAME, .run = cmd_show},
    {.name = "import", .synopsis = "[--game G] [--json] PICTURE",
     .summary = "read a puzzle from a screenshot", .doc = "docs/import.md",
     .examples = "  psolve import games/samegame/examples/screenshot-8x8.png\n"
                 "  psolve --game samegame --algo dfs --max-nodes 20000 "
                 "games/samegame/examples/screenshot-8x8.png\n",
     .min_files = 1, .max_files = 1, .options = PS_CMD_CLI_OPTIONS,
     .stage = PS_CMD_ON_GAME, .run = cmd_import},
    {.name = "bench", .synopsis = "[options]",
     .summary = "random playouts per second", .doc = "docs/cli.md",
     .examples = "  psolve bench --game samegame --rows 10 --cols 10 "
                 "--seconds 0.5\n",
     .min_files = 0, .max_files = 0, .options = ALL_OPTIONS |
     PS_CMD_GEN_OPTIONS, .stage = PS_CMD_ON_GAME, .run = cmd_bench},
    {.name = "list", .synopsis = "", .summary = "games, algorithms, rules",
     .doc = "docs/cli.md", .examples = "  psolve list\n", .min_files = 0,
     .max_files = 0, .options = PS_CMD_CLI_OPTIONS, .stage = PS_CMD_ON_GAMES,
     .run = cmd_list},
    {.name = "pdb", .synopsis = "build [options] [FILE]",
     .summary = "pattern databases, ahead", .doc = "docs/pdb.md",
     .examples = "  psolve pdb build --game npuzzle --heuristic pdb:4-4 "
                 "--rows 3\n",
     .min_files = 1, .max_files = 2,
     .options = PS_CMD_CLI_OPTIONS | PS_CMD_GEN_OPTIONS,
     .stage = PS_CMD_ON_GAME, .stops_on_signal = true, .run = cmd_pdb},
    {.name = "check-game", .synopsis = "[options] [FILE...]",
     .summary = "check a game's conformance", .doc = "docs/writing-a-game.md#the-conformance-check",
     .examples = "  psolve check-game --game npuzzle "
                 "games/npuzzle/examples/8-hardest.txt\n"
                 "  psolve check-game --game games/lua/hanoi.lua "
                 "games/lua/hanoi-4.txt\n",
     .min_files = 0, .max_files = PS_CMD_ANY_FILES,
     .options = PS_CMD_CLI_OPTIONS | PS_CMD_GEN_OPTIONS,
     .stage = PS_CMD_ON_GAMES, .run = cmd_check_game},
    {.name = "help", .synopsis = "[ALGORITHM|COMMAND]",
     .summary = "--help, or one algorithm or command", .doc = "docs/cli.md",
     .min_files = 0, .max_files = 1, .stage = PS_CMD_ON_PARSE,
     .run = run_help},
    {.name = "serve", .synopsis = "[--port N] [--open]",
     .summary = "the web app (docs/serve.md)", .doc = "docs/serve.md",
     .min_files = 0, .max_files = 0, .stage = PS_CMD_ON_ARGV,
     .run_argv = ps_serve_main},
    {0},
};

const struct ps_command *ps_command_find(const char *name)
{
    for (const struct ps_command *k = ps_commands; k->name; k++)
        if (strcmp(k->name, name) == 0)
            return k;
    return NULL;
}
