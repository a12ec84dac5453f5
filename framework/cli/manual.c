/*
 * manual.c - psolve's man page (psolve help man) and bash completion
 * (psolve help bash-completion), written from the same tables as --help:
 * the commands (commands.c), the command line's options (args.c), every
 * game's gen parameters, heuristics and presets, every algorithm's options.
 * The build writes both (CMakeLists.txt), so they cannot drift from the
 * program; tests/test_cli.c checks that every command and option is there.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "playout.h"

/* Text for troff: a backslash doubled, a leading '.' or '\'' escaped. */
static void roff(const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", stdout);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", stdout);
        else if (*s == '-')
            fputs("\\-", stdout);
        else
            putchar(*s);
    }
}

static void man_options(const struct ps_option *table, const char *who)
{
    for (const struct ps_option *o = table; o && o->name; o++) {
        char range[96];
        ps_option_range(o, range, sizeof range);
        fputs(o->arg ? ".TP\n.BI \"\\-\\-" : ".TP\n.B \\-\\-", stdout);
        roff(o->name);
        if (o->arg) {
            fputs(" \" \"", stdout);
            roff(o->arg);
            putchar('"');
        }
        putchar('\n');
        if (who)
            roff(who);
        roff(o->doc);
        if (o->def || range[0]) {
            fputs(" (", stdout);
            if (o->def) {
                fputs("default ", stdout);
                roff(o->def);
            }
            if (o->def && range[0])
                fputs("; ", stdout);
            roff(range);
            putchar(')');
        }
        putchar('\n');
    }
}

static void man_algorithm(const struct ps_algorithm *a, void *ctx)
{
    (void)ctx;
    fputs(".TP\n.B ", stdout);
    roff(a->name);
    putchar('\n');
    roff(a->summary);
    fputs(a->for_score ? " [score games]" : "", stdout);
    fputs(a->for_cost ? " [cost games]" : "", stdout);
    putchar('\n');
    if (a->options || a->shared_options) {
        fputs(".RS\n", stdout);
        man_options(a->options, NULL);
        man_options(a->shared_options, NULL);
        fputs(".RE\n", stdout);
    }
}

int cli_print_man(const struct ps_frontend *fe)
{
    fputs(".TH PSOLVE 1 \"\" \"psolve " PSOLVE_VERSION "\" \"User Commands\"\n"
          ".SH NAME\npsolve \\- solve SameGame, Water Sort, n-puzzle and Lua "
          "puzzles with search\n.SH SYNOPSIS\n", stdout);
    for (const struct ps_command *k = ps_commands; k->name; k++) {
        fputs(".B psolve\n", stdout);
        if (k->word_optional)
            fputs("[", stdout);
        fputs(k->word_optional ? "" : ".B ", stdout);
        roff(k->name);
        fputs(k->word_optional ? "]" : "", stdout);
        putchar(' ');
        roff(k->synopsis);
        fputs("\n.br\n", stdout);
    }
    fputs(".SH DESCRIPTION\npsolve runs a generic search kernel (BFS, A*, IDA*, "
          "DFS with bounds, greedy, beam, Monte Carlo, NMCS, NRPA, pattern "
          "databases) over puzzle games. Results go to stdout in a stable "
          "format (\\-\\-json for machines), progress to stderr. The full "
          "documentation is in the docs/ folder of the source tree.\n"
          ".SH COMMANDS\n", stdout);
    for (const struct ps_command *k = ps_commands; k->name; k++) {
        fputs(".TP\n.B ", stdout);
        roff(k->name);
        putchar('\n');
        roff(k->summary);
        fputs(" (", stdout);
        roff(k->doc);
        fputs(")\n", stdout);
        if (k->examples) {
            fputs(".nf\n", stdout);
            roff(k->examples);
            fputs(".fi\n", stdout);
        }
    }
    fputs(".SH OPTIONS\n", stdout);
    man_options(ps_cli_options, NULL);
    fputs(".SS Generated puzzles (gen, bench)\n", stdout);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        char who[32];
        snprintf(who, sizeof who, "%s: ", (*g)->name);
        man_options((*g)->gen_options, who);
    }
    fputs(".SH ALGORITHMS\nEach option is also \\-\\-algo ALGO:NAME=V for "
          "one run.\n", stdout);
    ps_cli_each_algorithm(fe, man_algorithm, NULL);
    fputs(".SS Playouts (mc, nmcs, nrpa, beam)\n", stdout);
    man_options(ps_playout_options, NULL);
    fputs(".SH GAMES\n", stdout);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        fputs(".TP\n.B ", stdout);
        roff((*g)->name);
        putchar('\n');
        if ((*g)->move_help) {
            fputs("Moves: ", stdout);
            roff((*g)->move_help);
            putchar('\n');
        }
        for (const struct ps_heuristic *h = (*g)->heuristics; h && h->name; h++) {
            fputs(".br\n\\-\\-heuristic ", stdout);
            roff(h->name);
            fputs(": ", stdout);
            roff(h->doc);
            putchar('\n');
        }
    }
    fputs(".SH EXIT STATUS\n", stdout);
    roff(ps_exit_status_text);
    fputs("\n.SH SEE ALSO\n.BR mpirun (1);\nthe docs/ folder: cli.md, "
          "algorithms.md, samegame.md, watersort.md, import.md, serve.md\n",
          stdout);
    return PS_EXIT_OK;
}

/* Words for completion, space-separated. */
static void words_options(const struct ps_option *table)
{
    for (const struct ps_option *o = table; o && o->name; o++)
        printf(" --%s", o->name);
}

static void word_algorithm_options(const struct ps_algorithm *a, void *ctx)
{
    (void)ctx;
    words_options(a->options);
    words_options(a->shared_options);
}

static void word_algorithm(const struct ps_algorithm *a, void *ctx)
{
    (void)ctx;
    printf(" %s", a->name);
}

int cli_print_bash_completion(const struct ps_frontend *fe)
{
    fputs("# bash completion for psolve, written by psolve help bash-completion\n"
          "# (zsh: autoload -U bashcompinit && bashcompinit, then source this)\n"
          "_psolve() {\n"
          "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "  local commands=\"", stdout);
    for (const struct ps_command *k = ps_commands; k->name; k++)
        printf("%s%s", k == ps_commands ? "" : " ", k->name);
    fputs("\"\n  local options=\"--help --version", stdout);
    words_options(ps_cli_options);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        words_options((*g)->gen_options);
    ps_cli_each_algorithm(fe, word_algorithm_options, NULL);
    words_options(ps_playout_options);
    fputs("\"\n  local games=\"", stdout);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        printf("%s%s", g == ps_game_list() ? "" : " ", (*g)->name);
    fputs("\"\n  local algos=\"", stdout);
    ps_cli_each_algorithm(fe, word_algorithm, NULL);
    fputs("\"\n  local heuristics=\"", stdout);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        for (const struct ps_heuristic *h = (*g)->heuristics; h && h->name; h++)
            printf(" %s", h->name);
    fputs("\"\n  local rules=\"", stdout);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        for (const struct ps_preset *p = (*g)->presets; p && p->name; p++)
            printf(" %s", p->name);
    fputs("\"\n"
          "  case $prev in\n"
          "    --game) COMPREPLY=($(compgen -W \"$games\" -f -- \"$cur\")); return;;\n"
          "    --algo) COMPREPLY=($(compgen -W \"$algos\" -- \"$cur\")); return;;\n"
          "    --heuristic) COMPREPLY=($(compgen -W \"$heuristics\" -- \"$cur\")); return;;\n"
          "    --rules) COMPREPLY=($(compgen -W \"$rules\" -f -- \"$cur\")); return;;\n"
          "    help) COMPREPLY=($(compgen -W \"$commands $algos\" -- \"$cur\")); return;;\n"
          "  esac\n"
          "  if [[ $cur == -* ]]; then\n"
          "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
          "  elif [[ $COMP_CWORD -eq 1 ]]; then\n"
          "    COMPREPLY=($(compgen -W \"$commands\" -f -- \"$cur\"))\n"
          "  else\n"
          "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "  fi\n"
          "}\n"
          "complete -o filenames -F _psolve psolve psolve-mpi\n", stdout);
    return PS_EXIT_OK;
}
