/*
 * commands.h - psolve's commands, declared once: the parser (args.c) finds
 * the command word and checks its file count here, main.c runs its
 * handler, --help prints its usage line, psolve help COMMAND its usage and
 * examples, and tests/test_examples.c runs those examples. A generator (a
 * man page, shell completion) walks the same table: name, synopsis,
 * one-line summary, the option tables that apply.
 */
#ifndef PS_COMMANDS_H
#define PS_COMMANDS_H

#include <stdbool.h>

struct cli;
struct ps_game;

/* When a command runs, which is what it needs. */
enum ps_command_stage {
    PS_CMD_ON_ARGV,   /* on argv, before the parse (serve: its own options) */
    PS_CMD_ON_PARSE,  /* once parsed, before plug-ins load (help) */
    PS_CMD_ON_GAMES,  /* once the games are loaded, no game picked (list,
                       * check-game) */
    PS_CMD_ON_GAME,   /* on the game picked (--game, the file's, the rules') */
};

/* The option tables a command reads (a bit each). */
enum {
    PS_CMD_CLI_OPTIONS = 1,  /* ps_cli_options (args.c) */
    PS_CMD_ALGO_OPTIONS = 2, /* every algorithm's .options, .shared_options */
    PS_CMD_GEN_OPTIONS = 4,  /* every game's .gen_options */
};

#define PS_CMD_ANY_FILES (-1)

struct ps_command {
    const char *name;
    /* What follows "psolve NAME" in a usage line. */
    const char *synopsis;
    /* One line: what it does (--help's usage block). */
    const char *summary;
    /* Where the docs explain it (a docs/ path, maybe with #anchor). */
    const char *doc;
    /* Example command lines, one a line, each "  psolve ...\n"; run by
     * tests/test_examples.c (NULL = none). */
    const char *examples;
    /* How many file arguments it takes (max PS_CMD_ANY_FILES: any);
     * args.c checks both. */
    int min_files, max_files;
    /* The command word may be left out (solve; lab, which solve becomes
     * with several files or a directory). */
    bool word_optional;
    /* Without --game, the game is the one whose format its first file has
     * (main.c). */
    bool detects_game;
    unsigned options; /* PS_CMD_*_OPTIONS */
    /* Ctrl-C, SIGTERM, SIGHUP and SIGXCPU stop it cleanly (its searches
     * print their best so far): main.c installs the handler before any
     * plug-in, Lua game or rules script is loaded, so a signal during a
     * load ends it with a message, not by the signal's default action. */
    bool stops_on_signal;
    enum ps_command_stage stage;
    /* Stages ON_PARSE, ON_GAMES (g NULL) and ON_GAME. */
    int (*run)(struct cli *c, const struct ps_game *g);
    /* Stage ON_ARGV: argv[0] is the command word, exe psolve's argv[0]. */
    int (*run_argv)(int argc, char **argv, const char *exe);
};

/* Every command, in --help's order; ends with an entry of name NULL. */
extern const struct ps_command ps_commands[];
/* The command called `name`, or NULL. */
const struct ps_command *ps_command_find(const char *name);

#endif
