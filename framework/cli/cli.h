/*
 * cli.h - what the command files of psolve share: the parsed command line
 * (struct cli), the argument parser (args.c), the helpers every command
 * uses (common.c) and one entry point per command (cmd_*.c).
 */
#ifndef PS_CLI_H
#define PS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "frontend.h"
#include "game.h"
#include "html.h"
#include "search.h"
#include "variant.h"

#define PS_CLI_MAX_GIVEN 128
#define PS_CLI_MAX_GEN_ARGS 16

struct cli {
    const char *command;
    const struct ps_command *cmd; /* the command's entry (commands.h) */
    const char *game_name;
    const char *rules_spec;
    const char *algos;
    const char *heuristics; /* --heuristic LIST, NULL = the game's default */
    const char *help_topic; /* psolve help TOPIC */
    bool json, csv, quiet, show;
    bool seed_set;
    bool trace_jsonl;       /* --trace-format jsonl */
    struct ps_limits limits;
    struct ps_options opt;    /* the options that are no algorithm's own */
    struct ps_algo_book book; /* every algorithm's own options */
    /* gen's values: a rule script's `gen = { ... }` (cli_rules), then
     * gen_args on top (cli_gen_values) */
    struct ps_gen_options gen;
    struct {
        const char *name, *value;
    } gen_args[PS_CLI_MAX_GEN_ARGS]; /* gen's --NAME V, in order */
    int ngen_args;
    bool gen_set; /* a size was given: by gen_args or by the rule script */
    double bench_seconds;
    int jobs;
    const char *trace_json; /* --trace-json FILE */
    const char *best_file;  /* --best-file FILE */
    const char *html;       /* --html FILE */
    const char *checkpoint; /* --checkpoint FILE (checkpoint.h) */
    const char *resume;     /* --resume FILE */
    double checkpoint_every; /* --checkpoint-every SECONDS, 0 = the default */
    const char *const *files; /* the file arguments (in argv) */
    int nfiles;
    const char *plugins[PS_MAX_ADDED_GAMES]; /* --plugin FILE, in order */
    char game_hint[400]; /* why this game, when no --game said it */
    int nplugins;
    /* Long options given, NULL-terminated: they win over a rule script's
     * search defaults. */
    const char *given[PS_CLI_MAX_GIVEN];
    int ngiven;
    const struct ps_frontend *fe; /* psolve-mpi's hooks (frontend.h) */
};

/* args.c: parse argv into c (fe: the front end, for its algorithms'
 * options); -1 to go on, or an exit status (--help, --version, a usage
 * error already printed). */
int ps_cli_parse(int argc, char **argv, const struct ps_frontend *fe,
                 struct cli *c);
/* The command line's own options (not an algorithm's), for help and tests. */
extern const struct ps_option ps_cli_options[];
/* gen's and bench's --NAME V into c->gen, by the game's gen_options; -1 to
 * go on, or the exit status of an error already printed (an option the game
 * does not declare, a value out of its range). */
int cli_gen_values(struct cli *c, const struct ps_game *g);
/* Calls fn for every algorithm (the registry's, then fe's). */
void ps_cli_each_algorithm(const struct ps_frontend *fe,
                           void (*fn)(const struct ps_algorithm *a, void *ctx),
                           void *ctx);
const struct ps_algorithm *ps_cli_find_algorithm(const struct ps_frontend *fe,
                                                 const char *name);

/* common.c */
bool cli_option_given(const struct cli *c, const char *name);
int cli_usage_error(const char *fmt, const char *arg);
int cli_print_error(const struct ps_error *err);
/* A run's exit status: `printed` when it printed a verified solution,
 * `interrupted` when a signal stopped it (search.h's table). */
int cli_exit_status_of(enum ps_status st, bool printed, bool interrupted);

/* A loaded puzzle: the rules it was read under and the instance. */
struct puzzle {
    const struct ps_game *game;
    void *rules;
    void *inst;
};
void *cli_rules(struct cli *c, const struct ps_game *g);
/* The rules (cli_rules: a script's gen sizes), then gen's values on top
 * (cli_gen_values), for the commands that make or measure boards: -1 with
 * *rules set, or an exit status (the error said). */
int cli_gen_rules(struct cli *c, const struct ps_game *g, void **rules);
bool cli_puzzle_open(struct cli *c, const struct ps_game *g, struct puzzle *pz);
/* A puzzle file's text: the file, or the puzzle read from a picture (a PNG
 * or JPEG: docs/import.md) as game g's format (g NULL: whichever the
 * picture shows); unless quiet, what was read goes to stderr. */
bool cli_read_puzzle(const char *path, const struct ps_game *g, bool quiet,
                     char **text, size_t *len, struct ps_error *err);
/* The puzzle a picture's bytes show, as cli_read_puzzle reads it, and
 * where in the picture it was seen (*seen; NULL: not wanted). */
struct ps_import_seen;
bool cli_import(const char *path, const struct ps_game *g, const char *data,
                size_t len, char **text, struct ps_import_seen *seen,
                struct ps_error *err);
void cli_puzzle_close(struct puzzle *pz);
bool cli_report_search_fault(const struct ps_search *s);
bool cli_report_game_fault(const struct ps_game *g, const void *inst);
int cli_parse_algos(const struct cli *c, const struct ps_game *g,
                    const struct ps_options *base, struct ps_variant *variants,
                    int *nalgos);
void cli_rules_stamp(const struct cli *c, const struct ps_game *g,
                     const void *rules, char *buf, size_t len);
bool cli_write_html(const struct cli *c, const struct ps_html_report *rep);

/* --checkpoint / --resume (checkpoint_cli.c): refuse what cannot
 * checkpoint (a lab, several runs, another algorithm), set up ck for the
 * run s of algorithm a and read the file to resume; -1 to go on (s then
 * points at ck when either option is given), or the exit status of an
 * error already printed. */
int cli_checkpoint_setup(const struct cli *c, const struct ps_algorithm *a,
                         int nalgos, const char *rules_stamp,
                         struct ps_search *s, struct ps_checkpoint *ck);
/* After the run: 0, or PS_EXIT_ERROR when the checkpoint could not be
 * written (said on stderr). */
int cli_checkpoint_finish(struct ps_checkpoint *ck);

/* outputs.c: -1 when no file the command line writes is one it reads or
 * another output, and --checkpoint and --best-file are not devices or
 * directories; else the usage error, printed. */
int cli_check_outputs(const struct cli *c);

/* One function per command, in cmd_NAME.c. */
int cmd_solve(struct cli *c, const struct ps_game *g);
int cmd_lab(struct cli *c, const struct ps_game *g);
int cmd_verify(struct cli *c, const struct ps_game *g);
int cmd_show(struct cli *c, const struct ps_game *g);
int cmd_import(struct cli *c, const struct ps_game *g);
/* The exit statuses' paragraph (cmd_help.c), for --help and the man page. */
extern const char ps_exit_status_text[];
/* psolve help man / bash-completion (manual.c): the man page in troff and
 * the completion script, from the same tables as --help. */
int cli_print_man(const struct ps_frontend *fe);
int cli_print_bash_completion(const struct ps_frontend *fe);
int cmd_gen(struct cli *c, const struct ps_game *g);
int cmd_bench(struct cli *c, const struct ps_game *g);
int cmd_list(struct cli *c, const struct ps_game *g);
/* psolve check-game: cmd_check_game.c (g unused: it picks its games). */
int cmd_check_game(struct cli *c, const struct ps_game *g);
/* psolve pdb build: cmd_pdb.c, which also lists a game's pattern sets for
 * cmd_list. */
int cmd_pdb(struct cli *c, const struct ps_game *g);
void cli_list_pattern_sets(FILE *out, const struct ps_game *g);
/* psolve --help (topic NULL) or psolve help TOPIC (an algorithm or a
 * command): cmd_help.c. */
int cmd_help(const struct cli *c, const char *topic);

/* The commit psolve was built from ("unknown" outside git), for --version:
 * defined in the build directory's psolve_commit.c (cmake/commit.cmake). */
extern const char ps_build_commit[];

#endif
