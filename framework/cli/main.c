/*
 * main.c - the psolve command line: solve, verify, gen, show, bench, list.
 * The only place that prints usage errors and decides exit statuses.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "escape.h"
#include "game.h"
#include "lab.h"
#include "memory_limit.h"
#include "number.h"
#include "playout.h"
#include "replay.h"
#include "report.h"
#include "rules.h"
#include "search.h"
#include "textfile.h"

#ifndef PSOLVE_VERSION
#define PSOLVE_VERSION "0.1.0"
#endif

#define MAX_ALGOS PS_LAB_MAX_ALGOS

static const char usage_text[] =
    "usage: psolve [solve] [options] FILE        solve a puzzle\n"
    "       psolve [lab] [options] FILE|DIR...    a lab: every puzzle x --algo\n"
    "       psolve verify [options] FILE SOLUTION replay a solution and check it\n"
    "       psolve gen [options]                  print a random puzzle\n"
    "       psolve show [options] FILE            draw a puzzle\n"
    "       psolve bench [options]                random playouts per second\n"
    "       psolve list                           games, algorithms, rules\n"
    "\n"
    "Common options:\n"
    "  --game NAME        the puzzle kind (default samegame; see psolve list)\n"
    "  --plugin FILE.so   load a game built outside the tree (repeatable; also\n"
    "                     $PSOLVE_PLUGIN_PATH, ':'-separated files or\n"
    "                     directories of .so files; docs/plugins.md)\n"
    "  --rules SPEC       rules: NAME (scripts/rules/NAME.lua, else the built-in\n"
    "                     preset NAME), PATH.lua, or builtin:NAME; a script's\n"
    "                     `game` picks the game when --game is not given, its\n"
    "                     `prune` defaults yield to explicit options (docs/rules.md)\n"
    "  --json             results as one JSON object\n"
    "  --quiet            no progress lines on stderr\n"
    "  --seed N           random seed 0..2^64-1 (gen, Monte Carlo; default 1)\n"
    "  -h, --help         this text;  --version  the version\n"
    "\n"
    "Solving:\n"
    "  --algo A[,B,...]   algorithm (default greedy); a comma list runs each on\n"
    "                     the same puzzle and prints a side-by-side table\n"
    "  --csv              the side-by-side table as CSV\n"
    "  --time SECONDS     stop after this long (+0.1 s at most) and print the\n"
    "                     best so far; numbers are plain decimals (docs/cli.md)\n"
    "  --max-nodes N      stop after N expanded nodes\n"
    "  --max-memory MB    memory limit of tables, beams, policies (they refuse\n"
    "                     to grow past it; default: half of what the process\n"
    "                     may use: physical memory, cgroup, ulimit)\n"
    "  --trace N          print the first N expansions to stderr (teaching)\n"
    "  --candidates K     dfs: only the K best moves per node (heuristic)\n"
    "  --max-depth D      dfs: depth cap\n"
    "  --no-memo          dfs: no transposition table\n"
    "  --no-bound         dfs: no upper-bound pruning\n"
    "  --weight W         wastar: weight of h (default 2)\n"
    "  --rollouts R       mc: rollouts per move (default 200)\n"
    "  --topk K           mc: playouts choose among the K largest moves\n"
    "  --select max|mean  mc: how moves are compared\n"
    "  --level L          nmcs, nrpa: nesting level (default: nmcs 2, nrpa 3)\n"
    "  --iterations N     nrpa: iterations per level (default 30)\n"
    "  --stabilise S      nrpa: S playouts per level-1 iteration, the best\n"
    "                     adapts (stabilised NRPA; default 1)\n"
    "  --policy NAME      playout policy of the game\n"
    "  --threads N        mc, nmcs, nrpa, beam threads (default: number of\n"
    "                     cores); beam gives the same answer for any N\n"
    "  --beam-width W     beam: width (default 100); under --time the first\n"
    "                     beam, followed by wider ones that fit the time\n"
    "  --beam-eval E      beam: 'game' (the game's evaluation, default) or\n"
    "                     'playout' (one playout of the policy per position)\n"
    "\n";

/* The rest of --help (one literal would pass the 4095 characters C11
 * promises to support). */
static const char usage_text_labs[] =
    "Labs (several FILEs, or a DIR of *.txt puzzles; 'lab' with one FILE):\n"
    "  --jobs N           puzzles run in parallel on N threads (default 1); the\n"
    "                     rows are printed in input order, so the output is the\n"
    "                     same for any N apart from times. A row per puzzle x\n"
    "                     algorithm (text, --csv, --json), then summary rows per\n"
    "                     algorithm: solved, sums, medians, geometric means,\n"
    "                     agreement of the exact ones. Each run gets --threads 1\n"
    "                     unless --threads is given.\n"
    "\n"
    "verify: --show prints the final board.\n"
    "gen: --rows R --cols C --colors K --tubes T --capacity C --seed S\n"
    "bench: --seconds S per size (default 1)\n"
    "\n"
    "Algorithms (psolve list; docs/algorithms.md teaches them):\n"
    "  exact, say 'optimal':  bfs astar idastar (cost games), dfs (both)\n"
    "  heuristic:             greedy wastar beam mc nmcs nrpa,\n"
    "                         dfs with --candidates or --max-depth\n"
    "  any score-game answer worth the start's upper bound (a cleared\n"
    "  board under clear rules) is proven: the run ends, 'optimal'\n"
    "\n"
    "A solution is one move per line; '#' starts a comment. SameGame: 'row\n"
    "col', 0-based, row 0 = top, of the board before that move. Water Sort:\n"
    "'from to', tube numbers 1-based as in the level file. npuzzle: the tile\n"
    "that slides. Solve prints exactly this format, so its output can be\n"
    "given to verify.\n"
    "\n"
    "Exit status: 0 solved or verified; 1 bad input or illegal move; 2 bad\n"
    "command line; 3 proven unsolvable; 4 stopped by a limit or Ctrl-C (the\n"
    "best solution so far is printed).\n"
    "\n"
    "Examples:\n"
    "  psolve games/samegame/examples/samegame-10x10.txt     (greedy)\n"
    "  psolve --algo dfs --time 10 board.txt                 (proves small boards)\n"
    "  psolve --algo nrpa --time 10 games/samegame/standard/01.txt\n"
    "  psolve --rules popstar --algo beam --time 1 board.txt\n"
    "  psolve --game watersort --algo bfs,astar,idastar,dfs level.txt\n"
    "  psolve --game watersort --algo astar,idastar --jobs 2 games/watersort/levels\n"
    "  psolve --algo greedy board.txt > sol.txt && psolve verify board.txt sol.txt\n"
    "  psolve gen --game samegame --rows 10 --cols 10 --colors 5 --seed 7\n";

enum {
    OPT_GAME = 256, OPT_RULES, OPT_ALGO, OPT_JSON, OPT_CSV, OPT_QUIET, OPT_SEED,
    OPT_TIME, OPT_MAX_NODES, OPT_MAX_MEMORY, OPT_TRACE, OPT_CANDIDATES,
    OPT_MAX_DEPTH, OPT_NO_MEMO, OPT_NO_BOUND, OPT_WEIGHT, OPT_ROLLOUTS,
    OPT_TOPK, OPT_SELECT, OPT_LEVEL, OPT_ITERATIONS, OPT_POLICY, OPT_THREADS,
    OPT_BEAM_WIDTH, OPT_BEAM_EVAL, OPT_SHOW, OPT_ROWS, OPT_COLS, OPT_COLORS, OPT_TUBES,
    OPT_CAPACITY, OPT_SECONDS, OPT_VERSION, OPT_JOBS, OPT_PLUGIN,
    OPT_STABILISE,
};

static const struct option long_options[] = {
    {"game", required_argument, 0, OPT_GAME},
    {"rules", required_argument, 0, OPT_RULES},
    {"algo", required_argument, 0, OPT_ALGO},
    {"json", no_argument, 0, OPT_JSON},
    {"csv", no_argument, 0, OPT_CSV},
    {"quiet", no_argument, 0, OPT_QUIET},
    {"seed", required_argument, 0, OPT_SEED},
    {"time", required_argument, 0, OPT_TIME},
    {"max-nodes", required_argument, 0, OPT_MAX_NODES},
    {"max-memory", required_argument, 0, OPT_MAX_MEMORY},
    {"trace", required_argument, 0, OPT_TRACE},
    {"candidates", required_argument, 0, OPT_CANDIDATES},
    {"max-depth", required_argument, 0, OPT_MAX_DEPTH},
    {"no-memo", no_argument, 0, OPT_NO_MEMO},
    {"no-bound", no_argument, 0, OPT_NO_BOUND},
    {"weight", required_argument, 0, OPT_WEIGHT},
    {"rollouts", required_argument, 0, OPT_ROLLOUTS},
    {"topk", required_argument, 0, OPT_TOPK},
    {"select", required_argument, 0, OPT_SELECT},
    {"level", required_argument, 0, OPT_LEVEL},
    {"iterations", required_argument, 0, OPT_ITERATIONS},
    {"stabilise", required_argument, 0, OPT_STABILISE},
    {"policy", required_argument, 0, OPT_POLICY},
    {"threads", required_argument, 0, OPT_THREADS},
    {"beam-width", required_argument, 0, OPT_BEAM_WIDTH},
    {"beam-eval", required_argument, 0, OPT_BEAM_EVAL},
    {"show", no_argument, 0, OPT_SHOW},
    {"rows", required_argument, 0, OPT_ROWS},
    {"cols", required_argument, 0, OPT_COLS},
    {"colors", required_argument, 0, OPT_COLORS},
    {"colours", required_argument, 0, OPT_COLORS},
    {"tubes", required_argument, 0, OPT_TUBES},
    {"capacity", required_argument, 0, OPT_CAPACITY},
    {"seconds", required_argument, 0, OPT_SECONDS},
    {"jobs", required_argument, 0, OPT_JOBS},
    {"help", no_argument, 0, 'h'},
    {"version", no_argument, 0, OPT_VERSION},
    {"plugin", required_argument, 0, OPT_PLUGIN},
    {0, 0, 0, 0},
};

struct cli {
    const char *command;
    const char *game_name;
    const char *rules_spec;
    const char *algos;
    bool json, csv, quiet, show;
    bool seed_set;
    struct ps_limits limits;
    struct ps_options opt;
    struct ps_gen_options gen;
    double bench_seconds;
    int jobs;
    const char *const *files; /* the file arguments (in argv) */
    int nfiles;
    const char *plugins[PS_MAX_ADDED_GAMES]; /* --plugin FILE, in order */
    int nplugins;
    /* Long options given, NULL-terminated: they win over a rule script's
     * search defaults. */
    const char *given[sizeof long_options / sizeof long_options[0]];
    int ngiven;
};

static bool option_given(const struct cli *c, const char *name)
{
    for (int i = 0; i < c->ngiven; i++)
        if (strcmp(c->given[i], name) == 0)
            return true;
    return false;
}

static int usage_error(const char *fmt, const char *arg)
{
    /* The argument is the user's: a raw control byte would garble the line. */
    char shown[512];
    ps_escape(shown, sizeof shown, arg, strlen(arg), false);
    fprintf(stderr, "psolve: ");
    fprintf(stderr, fmt, shown);
    fprintf(stderr, "\nTry 'psolve --help'.\n");
    return PS_EXIT_USAGE;
}

/* Every number on the command line is read here: a whole number in
 * [min, max] (exactly, up to 2^64 - 1) or, when `decimal`, a plain decimal
 * number (digits and one '.'; no hex, exponent, sign, inf or nan). Out of
 * range or malformed: a usage error naming the option and the range. */
static int cli_number(const char *option, const char *arg, bool decimal,
                      double min, double max, uint64_t umin, uint64_t umax,
                      double *d, uint64_t *u)
{
    if (decimal ? ps_number_parse_decimal(arg, min, max, d)
                : ps_number_parse_uint(arg, umin, umax, u))
        return -1;
    char msg[200];
    if (decimal)
        snprintf(msg, sizeof msg, "--%s expects a number %g..%g (digits and "
                 "an optional '.'), got '%%s'", option, min, max);
    else
        snprintf(msg, sizeof msg, "--%s expects a whole number %llu..%llu, "
                 "got '%%s'", option, (unsigned long long)umin,
                 (unsigned long long)umax);
    return usage_error(msg, arg);
}

static int cli_whole(const char *option, const char *arg, uint64_t min,
                     uint64_t max, uint64_t *out)
{
    return cli_number(option, arg, false, 0, 0, min, max, NULL, out);
}

static int cli_decimal(const char *option, const char *arg, double min,
                       double max, double *out)
{
    return cli_number(option, arg, true, min, max, 0, 0, out, NULL);
}

/* Without --max-memory, tables may take half of the memory the process may
 * use (physical memory, the cgroup limit, RLIMIT_AS/RLIMIT_DATA: the
 * smallest): an exact search left unbounded would otherwise grow until the
 * kernel's out-of-memory killer ends it, losing the best solution so far. */
static uint64_t default_max_memory(void)
{
    return ps_memory_limit() / 2;
}

/* Parse argv into cli; returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct cli *c)
{
    memset(c, 0, sizeof *c);
    ps_options_default(&c->opt);
    c->command = "solve";
    c->game_name = "samegame";
    c->algos = "greedy";
    c->bench_seconds = 1.0;
    optind = 1;
    int ch, li = -1;
    uint64_t u;
    double d;
    int rc;
    while ((ch = getopt_long(argc, argv, "h", long_options, &li)) != -1) {
        const char *name = li >= 0 ? long_options[li].name : "?";
        if (li >= 0 && !option_given(c, name))
            c->given[c->ngiven++] = name;
        li = -1;
        switch (ch) {
        case 'h':
            fputs(usage_text, stdout);
            fputs(usage_text_labs, stdout);
            return PS_EXIT_OK;
        case OPT_VERSION:
            printf("psolve %s\n", PSOLVE_VERSION);
            return PS_EXIT_OK;
        case OPT_GAME: c->game_name = optarg; break;
        case OPT_PLUGIN:
            if (c->nplugins == PS_MAX_ADDED_GAMES)
                return usage_error("%s", "too many --plugin options");
            c->plugins[c->nplugins++] = optarg;
            break;
        case OPT_RULES: c->rules_spec = optarg; break;
        case OPT_ALGO: c->algos = optarg; break;
        case OPT_JSON: c->json = true; break;
        case OPT_CSV: c->csv = true; break;
        case OPT_QUIET: c->quiet = true; break;
        case OPT_SHOW: c->show = true; break;
        case OPT_NO_MEMO: c->opt.no_memo = true; break;
        case OPT_NO_BOUND: c->opt.no_bound = true; break;
        case OPT_POLICY: c->opt.policy = optarg; break;
        case OPT_BEAM_EVAL:
            if (strcmp(optarg, "game") && strcmp(optarg, "playout"))
                return usage_error("--beam-eval takes game or playout, not '%s'",
                                   optarg);
            c->opt.beam_playout = strcmp(optarg, "playout") == 0;
            break;
        case OPT_SELECT:
            if (strcmp(optarg, "max") && strcmp(optarg, "mean"))
                return usage_error("--select takes max or mean, not '%s'", optarg);
            c->opt.select_max = strcmp(optarg, "max") == 0;
            break;
        case OPT_TIME:
        case OPT_WEIGHT:
        case OPT_SECONDS:
            if ((rc = cli_decimal(name, optarg, 0, 1e9, &d)) >= 0)
                return rc;
            if (ch == OPT_TIME)
                c->limits.seconds = d;
            else if (ch == OPT_WEIGHT)
                c->opt.weight = d;
            else if (d > 0)
                c->bench_seconds = d;
            else
                return usage_error("--seconds must be more than 0, got '%s'",
                                   optarg);
            break;
        case OPT_SEED:
            /* Any 64-bit seed, taken exactly (gen prints it back). */
            if ((rc = cli_whole(name, optarg, 0, UINT64_MAX, &u)) >= 0)
                return rc;
            c->opt.seed = u;
            c->gen.seed = u;
            c->seed_set = true;
            break;
        case OPT_MAX_NODES:
            if ((rc = cli_whole(name, optarg, 1, INT64_MAX, &u)) >= 0)
                return rc;
            c->limits.max_nodes = u;
            break;
        case OPT_MAX_MEMORY:
            if ((rc = cli_whole(name, optarg, 1, 1 << 30, &u)) >= 0)
                return rc;
            c->limits.max_memory = u << 20;
            break;
        default: {
            /* Every other option takes a whole number. */
            if (ch == '?')
                return usage_error("%s", "unknown option or missing value");
            uint64_t min = ch == OPT_JOBS ? 1 : 0;
            if ((rc = cli_whole(name, optarg, min, 1000000000, &u)) >= 0)
                return rc;
            int iv = (int)u;
            switch (ch) {
            case OPT_TRACE: c->opt.trace = iv; break;
            case OPT_CANDIDATES: c->opt.candidates = iv; break;
            case OPT_MAX_DEPTH: c->opt.max_depth = iv; break;
            case OPT_ROLLOUTS: c->opt.rollouts = iv; break;
            case OPT_TOPK: c->opt.topk = iv; break;
            case OPT_LEVEL: c->opt.level = iv; break;
            case OPT_ITERATIONS: c->opt.iterations = iv; break;
            case OPT_STABILISE: c->opt.stabilise = iv; break;
            case OPT_THREADS: c->opt.threads = iv; break;
            case OPT_BEAM_WIDTH: c->opt.beam_width = iv; break;
            case OPT_ROWS: c->gen.rows = iv; break;
            case OPT_COLS: c->gen.cols = iv; break;
            case OPT_COLORS: c->gen.colors = iv; break;
            case OPT_TUBES: c->gen.tubes = iv; break;
            case OPT_CAPACITY: c->gen.capacity = iv; break;
            case OPT_JOBS: c->jobs = iv; break;
            default: return usage_error("%s", "internal: unhandled option");
            }
        }
        }
    }
    if (!c->limits.max_memory)
        c->limits.max_memory = default_max_memory();
    c->files = (const char *const *)argv + optind;
    c->nfiles = argc - optind;
    /* The command is the first word that is no option, wherever the options
     * stand (getopt_long moved the words after them, in order). */
    static const char *const commands[] = {"solve", "verify", "gen", "show",
                                           "bench", "list", "lab", NULL};
    for (int i = 0; c->nfiles > 0 && commands[i]; i++)
        if (strcmp(c->files[0], commands[i]) == 0) {
            c->command = commands[i];
            c->files++;
            c->nfiles--;
            break;
        }
    if (strcmp(c->command, "verify") == 0 ? c->nfiles > 2
        : c->nfiles > 1 && strcmp(c->command, "solve") != 0 &&
              strcmp(c->command, "lab") != 0)
        return usage_error("too many file arguments ('%s')",
                           argv[argc - 1]);
    return -1;
}

static int print_error(const struct ps_error *err)
{
    char buf[1024];
    ps_error_format(err, buf, sizeof buf);
    fprintf(stderr, "psolve: %s\n", buf);
    return PS_EXIT_ERROR;
}

/* A loaded puzzle: the rules it was read under and the instance. */
struct puzzle {
    const struct ps_game *game;
    void *rules;
    void *inst;
};

/* Load the rules and the puzzle named by files[0]; on failure print why
 * (file:line:col) and return false. */
static bool puzzle_open(struct cli *c, const struct ps_game *g,
                        struct puzzle *pz)
{
    struct ps_error err;
    ps_error_clear(&err);
    pz->game = g;
    pz->inst = NULL;
    pz->rules = ps_rules_resolve_cli(g, c->rules_spec, &c->opt, c->given, &err);
    char *text = NULL;
    size_t len;
    if (pz->rules && ps_read_text_file(c->files[0], &text, &len, &err))
        pz->inst = g->load(pz->rules, c->files[0], text, len, &err);
    free(text);
    if (pz->inst)
        return true;
    free(pz->rules);
    print_error(&err);
    return false;
}

static void puzzle_close(struct puzzle *pz)
{
    if (pz->inst)
        pz->game->free_instance(pz->inst);
    free(pz->rules);
}

static int exit_status_of(enum ps_status st)
{
    switch (st) {
    case PS_OPTIMAL:
    case PS_HEURISTIC: return PS_EXIT_OK;
    case PS_UNSOLVABLE: return PS_EXIT_UNSOLVABLE;
    case PS_INCOMPLETE: return PS_EXIT_INCOMPLETE;
    }
    return PS_EXIT_ERROR;
}

/* The algorithms of --algo and the --policy check, shared by solve and lab;
 * returns -1 to go on, or an exit status. */
static int parse_algos(const struct cli *c, const struct ps_game *g,
                       const struct ps_algorithm **algos, int *nalgos)
{
    *nalgos = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", c->algos);
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        const struct ps_algorithm *a = ps_algorithm_find(name);
        if (!a)
            return usage_error("unknown algorithm '%s' (psolve list shows them)",
                               name);
        if (*nalgos == MAX_ALGOS)
            return usage_error("%s", "too many algorithms in --algo");
        algos[(*nalgos)++] = a;
    }
    if (*nalgos == 0)
        return usage_error("%s", "--algo needs at least one algorithm");
    struct ps_error err;
    ps_error_clear(&err);
    if (c->opt.policy && !ps_policy_check(g, c->opt.policy, &err)) {
        fprintf(stderr, "psolve: %s\n", err.msg);
        return PS_EXIT_USAGE;
    }
    return -1;
}

/* A lab: every puzzle of the file and directory arguments x every --algo. */
static int cmd_lab(struct cli *c, const struct ps_game *g)
{
    if (c->nfiles < 1)
        return usage_error("%s", "lab needs puzzle FILEs or a DIRectory");
    struct ps_lab_setup setup = {.game = g, .limits = c->limits, .opt = c->opt};
    int rc = parse_algos(c, g, setup.algos, &setup.nalgos);
    if (rc >= 0)
        return rc;
    struct ps_error err;
    ps_error_clear(&err);
    void *rules = ps_rules_resolve_cli(g, c->rules_spec, &setup.opt, c->given,
                                       &err);
    if (!rules)
        return print_error(&err);
    setup.rules = rules;
    setup.rules_name = c->rules_spec ? c->rules_spec : "default";
    /* Parallel puzzles, not parallel runs: one thread per run unless asked,
     * which also keeps Monte Carlo runs the same on every machine. */
    if (!option_given(c, "threads"))
        setup.opt.threads = 1;
    char **paths;
    int npaths;
    if (!ps_lab_collect(c->files, c->nfiles, &paths, &npaths, &err)) {
        free(rules);
        return print_error(&err);
    }
    struct ps_lab_layout lay;
    ps_lab_layout_init(&lay, c->json ? PS_LAB_JSON : c->csv ? PS_LAB_CSV
                                                            : PS_LAB_TEXT,
                       g, (const char *const *)paths, npaths);
    ps_install_interrupt_handler();
    int status = ps_lab_run(stdout, &lay, &setup, (const char *const *)paths,
                            npaths, c->jobs > 0 ? c->jobs : 1, NULL, NULL);
    for (int i = 0; i < npaths; i++)
        free(paths[i]);
    free(paths);
    free(rules);
    return status;
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmd_solve(struct cli *c, const struct ps_game *g)
{
    if (c->nfiles > 1 || (c->nfiles == 1 && is_directory(c->files[0])))
        return cmd_lab(c, g);
    if (c->nfiles != 1)
        return usage_error("%s", "solve needs a puzzle FILE");
    const struct ps_algorithm *algos[MAX_ALGOS];
    int nalgos;
    int rc = parse_algos(c, g, algos, &nalgos);
    if (rc >= 0)
        return rc;
    struct puzzle pz;
    if (!puzzle_open(c, g, &pz))
        return PS_EXIT_ERROR;
    void *inst = pz.inst;
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    for (int i = 0; i < nalgos; i++)
        if (maximise ? !algos[i]->for_score : !algos[i]->for_cost) {
            fprintf(stderr, "psolve: algorithm %s does not run on %s games (%s)\n",
                    algos[i]->name, maximise ? "score" : "cost", g->name);
            puzzle_close(&pz);
            return PS_EXIT_USAGE;
        }

    ps_install_interrupt_handler();
    struct ps_run runs[MAX_ALGOS];
    int status = PS_EXIT_OK;
    for (int i = 0; i < nalgos; i++) {
        struct ps_search s;
        ps_search_init(&s, g, inst, &c->limits, &c->opt);
        s.progress = !c->quiet && isatty(STDERR_FILENO);
        s.trace_out = stderr;
        enum ps_status st = ps_search_run(&s, algos[i]);
        ps_run_capture(&runs[i], &s, st);
        ps_search_free(&s);
        if (runs[i].found && !runs[i].verified) {
            fprintf(stderr, "psolve: internal error: %s returned a solution that "
                            "does not verify: %s\n",
                    algos[i]->name, runs[i].verify_error);
            status = PS_EXIT_ERROR;
        }
        int es = exit_status_of(st);
        if (status == PS_EXIT_OK)
            status = es;
        if (ps_interrupted) {
            /* Ctrl-C ends the whole comparison, not only this run. */
            nalgos = i + 1;
            break;
        }
    }
    if (nalgos == 1) {
        if (c->json)
            ps_report_json(stdout, g, inst, &runs[0], c->files[0]);
        else
            ps_report_text(stdout, g, inst, &runs[0], c->files[0]);
    } else {
        if (c->json)
            ps_report_table_json(stdout, g, inst, runs, nalgos, c->files[0]);
        else
            ps_report_table(stdout, g, inst, runs, nalgos, c->csv);
        if (!ps_runs_agree(runs, nalgos, NULL)) {
            fprintf(stderr, "psolve: error: the exact algorithms disagree\n");
            status = PS_EXIT_ERROR;
        }
    }
    for (int i = 0; i < nalgos; i++)
        ps_run_free(&runs[i]);
    puzzle_close(&pz);
    return status;
}

static int cmd_verify(struct cli *c, const struct ps_game *g)
{
    if (c->nfiles != 2)
        return usage_error("%s", "verify needs a puzzle FILE and a SOLUTION file");
    struct puzzle pz;
    if (!puzzle_open(c, g, &pz))
        return PS_EXIT_ERROR;
    void *inst = pz.inst;
    struct ps_error err;
    ps_error_clear(&err);
    char *text = NULL;
    size_t len;
    ps_move *moves = NULL;
    int n = 0;
    int status = PS_EXIT_ERROR;
    unsigned char *final = malloc(g->state_size(inst));
    struct ps_replay res;
    if (!final || !ps_read_text_file(c->files[1], &text, &len, &err) ||
        !ps_read_solution(g, inst, c->files[1], text, len, &moves, &n, &err) ||
        !ps_replay_moves(g, inst, moves, n, final, &res, &err)) {
        if (!final)
            ps_error_set(&err, NULL, 0, 0, "out of memory");
        print_error(&err);
        goto done;
    }
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    const char *over_key = maximise ? "game_over" : "solved";
    struct ps_fact facts[PS_MAX_FACTS];
    int nfacts = g->facts ? g->facts(inst, final, facts, PS_MAX_FACTS) : 0;
    if (c->json) {
        printf("{\"game\":");
        ps_json_string(stdout, g->name);
        printf(",\"legal\":true,\"%s\":%lld,\"moves\":%d,\"game_over\":%s",
               maximise ? "score" : "cost", (long long)res.value, res.len,
               res.over ? "true" : "false");
        for (int i = 0; i < nfacts; i++)
            printf(",\"%s\":%lld", facts[i].key, (long long)facts[i].value);
        printf("}\n");
    } else {
        if (c->show || isatty(STDOUT_FILENO)) {
            printf("final position:\n");
            g->print_state(inst, final, stdout, isatty(STDOUT_FILENO));
        }
        printf("legal: yes\n%s: %lld\nmoves: %d\n%s: %s\n",
               maximise ? "score" : "cost", (long long)res.value, res.len,
               over_key, res.over ? "yes" : "no");
        /* A game's fact may repeat that line (Water Sort's "solved"). */
        for (int i = 0; i < nfacts; i++)
            if (strcmp(facts[i].key, over_key) != 0)
                printf("%s: %lld\n", facts[i].key, (long long)facts[i].value);
    }
    /* A cost-game solution that does not reach the goal is not a solution. */
    status = (!maximise && !res.over) ? PS_EXIT_ERROR : PS_EXIT_OK;
    if (status != PS_EXIT_OK) {
        fputs("psolve: ", stderr);
        ps_print_escaped(stderr, c->files[1]);
        fputs(": the moves are legal but do not solve the puzzle\n", stderr);
    }
done:
    free(final);
    free(text);
    free(moves);
    puzzle_close(&pz);
    return status;
}

static int cmd_show(struct cli *c, const struct ps_game *g)
{
    if (c->nfiles != 1)
        return usage_error("%s", "show needs one puzzle FILE");
    struct puzzle pz;
    if (!puzzle_open(c, g, &pz))
        return PS_EXIT_ERROR;
    unsigned char *state = malloc(g->state_size(pz.inst));
    bool ok = state != NULL; /* a freed pointer may not even be compared */
    if (ok) {
        g->initial_state(pz.inst, state);
        g->print_state(pz.inst, state, stdout, isatty(STDOUT_FILENO));
    }
    free(state);
    puzzle_close(&pz);
    return ok ? PS_EXIT_OK : PS_EXIT_ERROR;
}

static int cmd_gen(struct cli *c, const struct ps_game *g)
{
    if (c->nfiles)
        return usage_error("gen takes no file ('%s')", c->files[0]);
    if (!g->generate)
        return usage_error("game %s cannot generate puzzles", g->name);
    struct ps_error err;
    ps_error_clear(&err);
    if (!c->seed_set)
        c->gen.seed = 1;
    if (!g->generate(&c->gen, stdout, &err)) {
        fprintf(stderr, "psolve: gen: %s\n", err.msg);
        return PS_EXIT_USAGE;
    }
    return PS_EXIT_OK;
}

static int cmd_bench(struct cli *c, const struct ps_game *g)
{
    struct ps_error err;
    ps_error_clear(&err);
    void *rules = ps_rules_resolve_cli(g, c->rules_spec, &c->opt, c->given,
                                       &err);
    if (!rules)
        return print_error(&err);
    bool ok = ps_bench_playouts(stdout, g, rules, c->bench_seconds, c->opt.seed,
                                &err);
    free(rules);
    return ok ? PS_EXIT_OK : print_error(&err);
}

static int cmd_list(void)
{
    printf("games:\n");
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        printf("  %-12s %s\n", (*g)->name, (*g)->summary);
        for (const struct ps_preset *p = (*g)->presets; p && p->name; p++)
            printf("    --rules builtin:%-12s %s\n", p->name, p->doc);
    }
    ps_rules_list_scripts(stdout);
    printf("algorithms:\n");
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++)
        printf("  %-12s %s%s%s\n", (*a)->name, (*a)->summary,
               (*a)->for_score ? " [score games]" : "",
               (*a)->for_cost ? " [cost games]" : "");
    return PS_EXIT_OK;
}

int main(int argc, char **argv)
{
    struct cli c;
    int rc = parse_args(argc, argv, &c);
    if (rc >= 0)
        return rc;
    struct ps_error err;
    ps_error_clear(&err);
    /* A game that breaks the vtable contract is named here, before any
     * search could crash on a NULL slot (plug-ins are checked as they load). */
    if (!ps_game_check_all(&err) ||
        !ps_plugin_load_path(getenv("PSOLVE_PLUGIN_PATH"), &err))
        return print_error(&err);
    for (int i = 0; i < c.nplugins; i++)
        if (!ps_plugin_load(c.plugins[i], &err))
            return print_error(&err);
    if (strcmp(c.command, "list") == 0)
        return cmd_list();
    const struct ps_game *g = ps_game_find(c.game_name);
    if (!g)
        return usage_error("unknown game '%s' (psolve list shows them)",
                           c.game_name);
    if (!option_given(&c, "game") && !ps_rules_game(c.rules_spec, &g, &err))
        return print_error(&err);
    if (strcmp(c.command, "verify") == 0)
        return cmd_verify(&c, g);
    if (strcmp(c.command, "show") == 0)
        return cmd_show(&c, g);
    if (strcmp(c.command, "gen") == 0)
        return cmd_gen(&c, g);
    if (strcmp(c.command, "bench") == 0)
        return cmd_bench(&c, g);
    if (strcmp(c.command, "lab") == 0)
        return cmd_lab(&c, g);
    return cmd_solve(&c, g);
}
