/*
 * cmd_help.c - psolve --help and psolve help TOPIC. The options' lines are
 * generated from the tables (the command line's in args.c, every
 * algorithm's in its own file: options.h); the prose around them is here.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "playout.h"
#include "suggest.h"

/* The usage block: a line per command of the table (commands.h). */
static void print_usage(void)
{
    for (const struct ps_command *k = ps_commands; k->name; k++) {
        char words[80];
        snprintf(words, sizeof words, k->word_optional ? "[%s] %s" : "%s %s",
                 k->name, k->synopsis);
        printf("%s psolve %-31s %s\n", k == ps_commands ? "usage:" : "      ",
               words, k->summary);
    }
    printf("\nOptions (a number is a plain decimal; out of range is an "
           "error):\n");
}

/* Choosing the heuristic and reading the counters (docs/cli.md,
 * docs/counters.md). */
static const char usage_text_counters[] =
    "\n"
    "Counters: the table shows h0 = h of the start, ebf = effective branching\n"
    "factor (N generated = b + b^2 + ... + b^d), iterations, memory, time and\n"
    "why a run stopped; --csv and --json give the raw numbers.\n"
    "docs/counters.md says what every counter means for every algorithm.\n"
    "\n"
    "Labs (several FILEs, or a DIR of *.txt puzzles; 'lab' with one FILE):\n"
    "  a row per puzzle x algorithm (text, --csv, --json), then summary rows\n"
    "  per algorithm: solved, sums, medians, geometric means, agreement of the\n"
    "  exact ones. Each run gets --threads 1 unless --threads is given. The\n"
    "  text fits 100 columns (every counter: --csv, --json); progress on\n"
    "  stderr (puzzles done, time, the last results) unless --quiet.\n"
    "\n"
    "Algorithms (psolve list; docs/algorithms.md teaches them):\n"
    "  exact, say 'optimal':  bfs astar idastar (cost games), dfs (both)\n"
    "  heuristic:             greedy wastar beam mc nmcs nrpa,\n"
    "                         dfs with --candidates or --max-depth\n"
    "  any score-game answer worth the start's upper bound (a cleared\n"
    "  board under clear rules) is proven: the run ends, 'optimal'\n"
    "\n"
    "A solution is one move per line; '#' starts a comment. Solve prints\n"
    "exactly this format, so its output can be given to verify. Moves:\n";

/* The exit statuses, said once: --help and the man page print this. */
const char ps_exit_status_text[] =
    "Exit status: 0 a verified solution was printed (whatever ended the\n"
    "search: the status line says optimal, heuristic or incomplete) or verify\n"
    "accepted one; 1 bad input or illegal move; 2 bad command line; 3 proven\n"
    "unsolvable; 4 a limit stopped the search before any solution; 5 a signal\n"
    "did (a lab or farm: rows are missing).\n";

/* After the games' move formats and the exit statuses. */
static const char usage_text_end[] =
    "\n"
    "Examples (the files are in the source tree; the test suite runs them):\n"
    "  psolve games/samegame/examples/samegame-10x10.txt     (greedy)\n"
    "  psolve --algo dfs --time 10 games/samegame/examples/samegame-7x7-4c.txt\n"
    "                                                        (proves small boards)\n"
    "  psolve --algo nrpa --time 10 games/samegame/standard/01.txt\n"
    "  psolve --rules popstar --algo beam --time 1 games/samegame/standard/02.txt\n"
    "  psolve --game watersort --algo bfs,astar,idastar,dfs \\\n"
    "         games/watersort/levels/frozenfrank-463.txt\n"
    "  psolve --game watersort --algo astar,idastar --max-nodes 200000 --jobs 2 \\\n"
    "         games/watersort/levels                       (a lab, node budget)\n"
    "  psolve gen --game samegame --rows 10 --cols 10 --colors 5 --seed 7 > board.txt\n"
    "  psolve --algo greedy board.txt > sol.txt && psolve verify board.txt sol.txt\n"
    "  psolve --game npuzzle --algo astar --heuristic zero,misplaced,manhattan \\\n"
    "         games/npuzzle/examples/8-hardest.txt         (the classic table)\n"
    "  psolve --game games/lua/hanoi.lua --algo bfs,astar,idastar games/lua/hanoi-4.txt\n"
    "  psolve --algo greedy,beam --time 2 --html replay.html board.txt\n"
    "\n"
    "A lab without a budget runs each puzzle to its end: give --max-nodes or\n"
    "--time when an algorithm may not finish (idastar on large levels).\n";

/* psolve-mpi's part of --help (docs/distributed.md). */
static const char usage_text_mpi[] =
    "\n"
    "On a cluster (psolve-mpi, built beside psolve when CMake finds Open MPI;\n"
    "docs/distributed.md): mpirun -np N psolve-mpi [options] FILE|DIR...\n"
    "takes these options and prints the same results, once, from rank 0:\n"
    "  several FILEs or a DIR  a job farm: puzzles handed out to the ranks,\n"
    "                     largest first; the rows are psolve's rows\n"
    "  --algo hdastar     hash-distributed A* (cost games, exact)\n"
    "  --algo dnrpa       distributed nrpa (score games): --level, --iterations,\n"
    "                     --tasks T: level L-1 searches per top-level step\n"
    "                     (default 8); the same --seed, --level, --iterations\n"
    "                     and --tasks give the same answer on any ranks\n"
    "  --algo dnmcs       distributed nmcs (score games): a task per move\n"
    "  --threads N        compute threads per rank (default 1); --jobs N:\n"
    "                     puzzles per rank at once in a farm\n";

static void print_table(const struct ps_option *table, const char *who)
{
    for (const struct ps_option *o = table; o && o->name; o++)
        ps_option_help(stdout, o, who);
}

/* One algorithm's part: its own options (the playout's shared ones are
 * printed once, after all algorithms). */
static void help_algorithm_options(const struct ps_algorithm *a, void *ctx)
{
    (void)ctx;
    char who[32];
    snprintf(who, sizeof who, "%s: ", a->name);
    print_table(a->options, who);
}

static int help_one_algorithm(const struct ps_algorithm *a)
{
    printf("%s: %s%s%s\n", a->name, a->summary,
           a->for_score ? " [score games]" : "",
           a->for_cost ? " [cost games]" : "");
    if (!a->options && !a->shared_options)
        printf("No options of its own (the common ones: psolve --help).\n");
    else
        printf("Options (--NAME V, or --algo %s:NAME=V for one run):\n",
               a->name);
    print_table(a->options, NULL);
    print_table(a->shared_options, NULL);
    if (a->uses_heuristic || a->uses_bound)
        printf("  h=NAME             in --algo: the heuristic or bound of this "
               "run (--heuristic)\n");
    return PS_EXIT_OK;
}

/* psolve help COMMAND: its usage line, where the docs explain it, and
 * examples that the test suite runs (tests/test_examples.c). */
static int help_command(const struct ps_command *k)
{
    printf("usage: psolve %s%s%s%s%s: %s (%s)\n", k->word_optional ? "[" : "",
           k->name, k->word_optional ? "]" : "", k->synopsis[0] ? " " : "",
           k->synopsis, k->summary, k->doc);
    if (k->examples)
        printf("\nExamples:\n%s", k->examples);
    printf("\nEvery option: psolve --help.\n");
    return PS_EXIT_OK;
}

struct names {
    const char *v[64];
    size_t n;
};

static void add_name(const struct ps_algorithm *a, void *ctx)
{
    struct names *names = ctx;
    if (names->n < sizeof names->v / sizeof names->v[0])
        names->v[names->n++] = a->name;
}

static int unknown_topic(const struct ps_frontend *fe, const char *topic)
{
    struct names names = {.n = 0};
    ps_cli_each_algorithm(fe, add_name, &names);
    for (const struct ps_command *k = ps_commands; k->name; k++)
        if (names.n < sizeof names.v / sizeof names.v[0])
            names.v[names.n++] = k->name;
    const char *near = ps_suggest(topic, names.v, names.n);
    char msg[160];
    snprintf(msg, sizeof msg, "help: '%%s' is no algorithm or command (%s%s%s)",
             near ? "did you mean " : "psolve list shows them",
             near ? near : "", near ? "?" : "");
    return cli_usage_error(msg, topic);
}

int cmd_help(const struct cli *c, const char *topic)
{
    static const struct ps_frontend plain = {0};
    const struct ps_frontend *fe = c && c->fe ? c->fe : &plain;
    /* What the build writes (manual.c): not topics a reader asks for. */
    if (topic && strcmp(topic, "man") == 0)
        return cli_print_man(fe);
    if (topic && strcmp(topic, "bash-completion") == 0)
        return cli_print_bash_completion(fe);
    if (topic) {
        const struct ps_algorithm *a = ps_cli_find_algorithm(fe, topic);
        if (a)
            return help_one_algorithm(a);
        const struct ps_command *k = ps_command_find(topic);
        if (k)
            return help_command(k);
        return unknown_topic(fe, topic);
    }
    print_usage();
    print_table(ps_cli_options, NULL);
    printf("\ngen's parameters, declared by each game (bench: one size "
           "instead of the game's list):\n");
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        char who[32];
        snprintf(who, sizeof who, "%s: ", (*g)->name);
        print_table((*g)->gen_options, who);
    }
    printf("\nAlgorithm options (each also --algo ALGO:NAME=V for one run; "
           "psolve help ALGO):\n");
    ps_cli_each_algorithm(fe, help_algorithm_options, NULL);
    print_table(ps_playout_options, "mc, nmcs, nrpa, beam: ");
    fputs(usage_text_counters, stdout);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        if ((*g)->move_help)
            printf("  %-10s %s\n", (*g)->name, (*g)->move_help);
    printf("\n%s", ps_exit_status_text);
    fputs(usage_text_end, stdout);
    fputs(usage_text_mpi, stdout);
    return PS_EXIT_OK;
}
