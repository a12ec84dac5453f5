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
#include "frontend.h"
#include "game.h"
#include "html.h"
#include "lab.h"
#include "memory_limit.h"
#include "number.h"
#include "lua_game.h"
#include "playout.h"
#include "replay.h"
#include "report.h"
#include "rules.h"
#include "search.h"
#include "textfile.h"
#include "variant.h"

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
    "  --game NAME        the puzzle kind (see psolve list); without it, the\n"
    "                     game whose format the file has, else samegame\n"
    "  --game PATH.lua    a game written in Lua (docs/lua-games.md)\n"
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
    "  --trace N          print the first N events to stderr (teaching): each\n"
    "                     algorithm's part (== astar ==), expansions with g, h,\n"
    "                     the queue key, parent and open-list size, IDA*\n"
    "                     iterations, beam depths, Monte Carlo levels and every\n"
    "                     improvement\n"
    "  --trace-format F   text (default) or jsonl: one JSON record per event\n"
    "  --trace-json FILE  the trace as JSON lines into FILE (--trace N, default\n"
    "                     100 events)\n"
    "  --html FILE        also write one self-contained HTML page: the board\n"
    "                     replayed move by move, comparison bars, anytime\n"
    "                     curves, and with --trace a step-through of the search\n"
    "                     (solve, verify and lab)\n"
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
    "  --keep-best K      nrpa: restarts adapt K times to the best line (0: fresh)\n"
    "  --policy NAME      playout policy of the game\n"
    "  --threads N        mc, nmcs, nrpa, beam threads (default: number of\n"
    "                     cores); beam gives the same answer for any N\n"
    "  --beam-width W     beam: width (default 100); under --time the first\n"
    "                     beam, followed by wider ones that fit the time\n"
    "  --beam-eval E      beam: 'game' (the game's evaluation, default) or\n"
    "                     'playout' (one playout of the policy per position)\n";

/* Continued (one string would pass the 4095 characters C promises). */
static const char usage_text_beam[] =
    "  --beam-dfs N       beam, clearing objectives (clickomania): first an\n"
    "                     exact dfs of N nodes (default 20000, at most 5% of\n"
    "                     --time); a board it clears ends the run, optimal.\n"
    "                     0 = off\n"
    "  --beam-endgame N   beam: then the best line's end game, solved exactly\n"
    "                     by dfs from ever earlier positions while a search\n"
    "                     takes at most N nodes (default 0 = off)\n"
    "  --dfs-beam W       dfs: first beam width of its incumbent rounds\n"
    "                     (default 16; 0 = start from the greedy line only)\n"
    "\n";

/* Choosing the heuristic and reading the counters (docs/cli.md,
 * docs/counters.md). */
static const char usage_text_heuristics[] =
    "Heuristics, variants, counters:\n"
    "  --heuristic H,...  the game's heuristic (cost games) or bound (score\n"
    "                     games) by name (psolve list shows them, marked\n"
    "                     admissible or not); a comma list runs each\n"
    "                     heuristic-using --algo once per name, side by side.\n"
    "                     An exact algorithm with an inadmissible one says\n"
    "                     'heuristic'. --bound is the same option.\n"
    "  --algo A:KEY=V:... an algorithm with its own options, e.g.\n"
    "                     --algo astar:h=zero,astar:h=manhattan,idastar\n"
    "                     --algo dfs,dfs:no-memo,wastar:w=3; keys: h=NAME,\n"
    "                     w=W, no-memo, no-bound, candidates=K, max-depth=D,\n"
    "                     level=L, iterations=N, rollouts=R, beam-width=W,\n"
    "                     topk=K\n"
    "  --layers           expanded and generated per depth (bfs), per f-layer\n"
    "                     (astar), per iteration and bound (idastar, dfs on\n"
    "                     cost games, with the re-expansion overhead)\n"
    "  The table shows h0 = h of the start, ebf = effective branching factor\n"
    "  (N generated = b + b^2 + ... + b^d), iterations, memory, time and why a\n"
    "  run stopped; --csv and --json give the raw numbers. docs/counters.md\n"
    "  says what every counter means for every algorithm.\n"
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
    "verify: --show replays the solution board by board (on a terminal: Enter\n"
    "        steps, q runs to the end); --html FILE writes the replay page.\n"
    "gen: --rows R --cols C --colors K --tubes T --capacity C --seed S;\n"
    "     npuzzle: --rows N (size) and --moves K (K random slides from the\n"
    "     goal: an optimum of at most K, solvable in lab time)\n"
    "bench: --seconds S per size (default 1); gen's size options (--rows\n"
    "       --cols --colors ...) bench that one size instead\n"
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

/* After the games' move formats. */
static const char usage_text_end[] =
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
    "  psolve gen --game samegame --rows 10 --cols 10 --colors 5 --seed 7\n"
    "  psolve --game npuzzle --algo astar --heuristic zero,misplaced,manhattan \\\n"
    "         games/npuzzle/examples/8-hardest.txt         (the classic table)\n"
    "  psolve --game games/lua/hanoi.lua --algo bfs,astar,idastar games/lua/hanoi-4.txt\n"
    "  psolve --algo greedy,beam --time 2 --html replay.html board.txt\n";

/* psolve-mpi's part of --help (docs/distributed.md). */
static const char usage_text_mpi[] =
    "\n"
    "On a cluster (psolve-mpi, built beside psolve when CMake finds Open MPI;\n"
    "docs/distributed.md): mpirun -np N psolve-mpi [options] FILE|DIR...\n"
    "takes these options and prints the same results, once, from rank 0:\n"
    "  several FILEs or a DIR  a job farm: puzzles handed out to the ranks,\n"
    "                     largest first; the rows are psolve's rows\n"
    "  --algo hdastar     hash-distributed A* (cost games, exact)\n"
    "  --algo dnrpa       distributed nrpa (score games): --level, --iterations\n"
    "  --tasks T          dnrpa: level L-1 searches per top-level step\n"
    "                     (default 8); the same --seed, --level, --iterations\n"
    "                     and --tasks give the same answer on any ranks\n"
    "  --algo dnmcs       distributed nmcs (score games): a task per move\n"
    "  --threads N        compute threads per rank (default 1); --jobs N:\n"
    "                     puzzles per rank at once in a farm\n";

enum {
    OPT_GAME = 256, OPT_RULES, OPT_ALGO, OPT_JSON, OPT_CSV, OPT_QUIET, OPT_SEED,
    OPT_TIME, OPT_MAX_NODES, OPT_MAX_MEMORY, OPT_TRACE, OPT_CANDIDATES,
    OPT_MAX_DEPTH, OPT_NO_MEMO, OPT_NO_BOUND, OPT_WEIGHT, OPT_ROLLOUTS,
    OPT_TOPK, OPT_SELECT, OPT_LEVEL, OPT_ITERATIONS, OPT_POLICY, OPT_THREADS,
    OPT_BEAM_WIDTH, OPT_BEAM_EVAL, OPT_SHOW, OPT_ROWS, OPT_COLS, OPT_COLORS, OPT_TUBES,
    OPT_CAPACITY, OPT_SECONDS, OPT_VERSION, OPT_JOBS, OPT_PLUGIN,
    OPT_HEURISTIC, OPT_LAYERS, OPT_MOVES, OPT_BEAM_DFS,
    OPT_TRACE_FORMAT, OPT_TRACE_JSON, OPT_HTML,
    OPT_TASKS,
    OPT_STABILISE,
    OPT_BEAM_ENDGAME,
    OPT_KEEP_BEST,
    OPT_DFS_BEAM,
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
    {"keep-best", required_argument, 0, OPT_KEEP_BEST},
    {"policy", required_argument, 0, OPT_POLICY},
    {"threads", required_argument, 0, OPT_THREADS},
    {"beam-width", required_argument, 0, OPT_BEAM_WIDTH},
    {"beam-eval", required_argument, 0, OPT_BEAM_EVAL},
    {"beam-dfs", required_argument, 0, OPT_BEAM_DFS},
    {"beam-endgame", required_argument, 0, OPT_BEAM_ENDGAME},
    {"dfs-beam", required_argument, 0, OPT_DFS_BEAM},
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
    {"heuristic", required_argument, 0, OPT_HEURISTIC},
    {"bound", required_argument, 0, OPT_HEURISTIC},
    {"layers", no_argument, 0, OPT_LAYERS},
    {"moves", required_argument, 0, OPT_MOVES},
    {"trace-format", required_argument, 0, OPT_TRACE_FORMAT},
    {"trace-json", required_argument, 0, OPT_TRACE_JSON},
    {"html", required_argument, 0, OPT_HTML},
    {"tasks", required_argument, 0, OPT_TASKS},
    {0, 0, 0, 0},
};

struct cli {
    const char *command;
    const char *game_name;
    const char *rules_spec;
    const char *algos;
    const char *heuristics; /* --heuristic LIST, NULL = the game's default */
    bool json, csv, quiet, show;
    bool seed_set;
    struct ps_limits limits;
    struct ps_options opt;
    struct ps_gen_options gen;
    double bench_seconds;
    int jobs;
    const char *trace_json; /* --trace-json FILE */
    const char *html;       /* --html FILE */
    const char *const *files; /* the file arguments (in argv) */
    int nfiles;
    const char *plugins[PS_MAX_ADDED_GAMES]; /* --plugin FILE, in order */
    char game_hint[400]; /* why this game, when no --game said it */
    int nplugins;
    /* Long options given, NULL-terminated: they win over a rule script's
     * search defaults. */
    const char *given[sizeof long_options / sizeof long_options[0]];
    int ngiven;
    const struct ps_frontend *fe; /* psolve-mpi's hooks (frontend.h) */
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
            fputs(usage_text_beam, stdout);
            fputs(usage_text_heuristics, stdout);
            fputs(usage_text_labs, stdout);
            for (const struct ps_game *const *g = ps_game_list(); *g; g++)
                if ((*g)->move_help)
                    printf("  %-10s %s\n", (*g)->name, (*g)->move_help);
            fputs(usage_text_end, stdout);
            fputs(usage_text_mpi, stdout);
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
        case OPT_HTML: c->html = optarg; break;
        case OPT_TRACE_JSON:
            c->trace_json = optarg;
            c->opt.trace_format = PS_TRACE_JSONL;
            break;
        case OPT_TRACE_FORMAT:
            if (strcmp(optarg, "text") && strcmp(optarg, "jsonl"))
                return usage_error("--trace-format takes text or jsonl, not '%s'",
                                   optarg);
            c->opt.trace_format = strcmp(optarg, "jsonl") == 0 ? PS_TRACE_JSONL
                                                               : PS_TRACE_TEXT;
            break;
        case OPT_ALGO: c->algos = optarg; break;
        case OPT_HEURISTIC: c->heuristics = optarg; break;
        case OPT_LAYERS: c->opt.layers = true; break;
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
            case OPT_KEEP_BEST: c->opt.keep_best = iv; break;
            case OPT_THREADS: c->opt.threads = iv; break;
            case OPT_TASKS: c->opt.tasks = iv; break;
            case OPT_BEAM_WIDTH: c->opt.beam_width = iv; break;
            case OPT_BEAM_DFS: c->opt.beam_dfs = iv; break;
            case OPT_BEAM_ENDGAME: c->opt.beam_endgame = iv; break;
            case OPT_DFS_BEAM: c->opt.dfs_beam = iv; break;
            case OPT_ROWS: c->gen.rows = iv; break;
            case OPT_COLS: c->gen.cols = iv; break;
            case OPT_COLORS: c->gen.colors = iv; break;
            case OPT_TUBES: c->gen.tubes = iv; break;
            case OPT_CAPACITY: c->gen.capacity = iv; break;
            case OPT_MOVES: c->gen.moves = iv; break;
            case OPT_JOBS: c->jobs = iv; break;
            default: return usage_error("%s", "internal: unhandled option");
            }
        }
        }
    }
    if (!c->limits.max_memory)
        c->limits.max_memory = default_max_memory();
    if (c->trace_json) {
        c->opt.trace_format = PS_TRACE_JSONL;
        if (!option_given(c, "trace"))
            c->opt.trace = 100;
    }
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
    bool read = pz->rules && ps_read_text_file(c->files[0], &text, &len, &err);
    if (read)
        pz->inst = g->load(pz->rules, c->files[0], text, len, &err);
    free(text);
    if (pz->inst)
        return true;
    free(pz->rules);
    print_error(&err);
    if (read && c->game_hint[0]) /* the file is not the default game's */
        fprintf(stderr, "psolve: %s\n", c->game_hint);
    return false;
}

static void puzzle_close(struct puzzle *pz)
{
    if (pz->inst)
        pz->game->free_instance(pz->inst);
    free(pz->rules);
}

/* A game's slot that failed in the search (a script's error: an error) or
 * was stopped there by the limit (a note: where the time went). True for
 * an error. */
static bool report_search_fault(const struct ps_search *s)
{
    if (!s->error.msg[0])
        return false;
    if (s->stop == PS_STOP_ERROR) {
        print_error(&s->error);
        return true;
    }
    fprintf(stderr, "psolve: note: the search stopped inside the game at "
                    "%s:%d: %s\n",
            s->error.file, s->error.line, s->error.msg);
    return false;
}

/* A game's slot that failed outside a search (drawing, replaying): print
 * it; true if there was one. */
static bool report_game_fault(const struct ps_game *g, const void *inst)
{
    struct ps_error err;
    if (ps_game_fault(g, inst, &err) == PS_FAULT_NONE)
        return false;
    print_error(&err);
    return true;
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

/* The runs of --algo (with their variants and --heuristic lists) and the
 * --policy check, shared by solve and lab; returns -1 to go on, or an exit
 * status. `base` is the common options (after the rule script's). */
static int parse_algos(const struct cli *c, const struct ps_game *g,
                       const struct ps_options *base,
                       struct ps_variant *variants, int *nalgos)
{
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_variants_parse(c->algos, c->heuristics, g, c->fe->algorithms, base,
                           variants, MAX_ALGOS, nalgos, &err))
        return usage_error("%s", err.msg);
    if (c->opt.policy && !ps_policy_check(g, c->opt.policy, &err)) {
        fprintf(stderr, "psolve: %s\n", err.msg);
        return PS_EXIT_USAGE;
    }
    return -1;
}

/* The "# rules:" stamp of the rules a puzzle was loaded under. */
static void rules_stamp(const struct cli *c, const struct ps_game *g,
                        const void *rules, char *buf, size_t len)
{
    ps_rules_stamp(g, c->rules_spec, rules, buf, len);
}

/* --html: the page, and its path on stderr (a run's results stay alone on
 * stdout). */
static bool write_html(const struct cli *c, const struct ps_html_report *rep)
{
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_html_write_file(c->html, rep, &err)) {
        print_error(&err);
        return false;
    }
    if (!c->quiet)
        fprintf(stderr, "psolve: HTML report: %s\n", c->html);
    return true;
}

/* A lab: every puzzle of the file and directory arguments x every --algo. */
static int cmd_lab(struct cli *c, const struct ps_game *g)
{
    if (c->nfiles < 1)
        return usage_error("%s", "lab needs puzzle FILEs or a DIRectory");
    struct ps_lab_setup setup = {.game = g, .limits = c->limits, .opt = c->opt};
    struct ps_error err;
    ps_error_clear(&err);
    void *rules = ps_rules_resolve_cli(g, c->rules_spec, &setup.opt, c->given,
                                       &err);
    if (!rules)
        return print_error(&err);
    /* Parallel puzzles, not parallel runs: one thread per run unless asked,
     * which also keeps Monte Carlo runs the same on every machine. */
    if (!option_given(c, "threads"))
        setup.opt.threads = 1;
    int rc = parse_algos(c, g, &setup.opt, setup.variant, &setup.nalgos);
    if (rc >= 0) {
        free(rules);
        return rc;
    }
    for (int i = 0; i < setup.nalgos; i++)
        setup.algos[i] = setup.variant[i].algo;
    setup.rules = rules;
    setup.rules_name = c->rules_spec ? c->rules_spec : "default";
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
    for (int i = 0; i < setup.nalgos; i++)
        if ((int)strlen(setup.variant[i].label) > lay.algo_width)
            lay.algo_width = (int)strlen(setup.variant[i].label);
    if (c->trace_json) {
        free(rules);
        return usage_error("%s", "--trace-json is for one puzzle; a lab traces "
                                 "to stderr (--trace-format jsonl)");
    }
    ps_install_interrupt_handler();
    struct ps_lab_row *rows = NULL;
    int nrows = 0;
    int jobs = c->jobs > 0 ? c->jobs : 1;
    int status;
    if (c->fe->run_lab) {
        if (c->html)
            fprintf(stderr, "psolve: --html: a distributed lab writes no page; "
                            "its rows are the same as psolve's\n");
        status = c->fe->run_lab(stdout, &lay, &setup,
                                (const char *const *)paths, npaths, jobs);
    } else {
        status = ps_lab_run(stdout, &lay, &setup, (const char *const *)paths,
                            npaths, jobs, c->html ? &rows : NULL,
                            c->html ? &nrows : NULL);
    }
    if (c->html && !c->fe->run_lab) {
        struct ps_html_report rep = {.command = "lab", .game = g,
                                     .rows = rows, .nrows = nrows};
        if (!write_html(c, &rep) && status == PS_EXIT_OK)
            status = PS_EXIT_ERROR;
        free(rows);
    }
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
    struct puzzle pz;
    if (!puzzle_open(c, g, &pz))
        return PS_EXIT_ERROR;
    struct ps_variant variants[MAX_ALGOS];
    const struct ps_algorithm *algos[MAX_ALGOS];
    int nalgos;
    int rc = parse_algos(c, g, &c->opt, variants, &nalgos);
    if (rc >= 0) {
        puzzle_close(&pz);
        return rc;
    }
    for (int i = 0; i < nalgos; i++)
        algos[i] = variants[i].algo;
    void *inst = pz.inst;
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    for (int i = 0; i < nalgos; i++)
        if (maximise ? !algos[i]->for_score : !algos[i]->for_cost) {
            fprintf(stderr, "psolve: algorithm %s does not run on %s games (%s)\n",
                    algos[i]->name, maximise ? "score" : "cost", g->name);
            puzzle_close(&pz);
            return PS_EXIT_USAGE;
        }

    FILE *trace_file = NULL;
    if (c->trace_json && !(trace_file = fopen(c->trace_json, "w"))) {
        fprintf(stderr, "psolve: %s: cannot write the trace\n", c->trace_json);
        puzzle_close(&pz);
        return PS_EXIT_ERROR;
    }
    ps_install_interrupt_handler();
    struct ps_run runs[MAX_ALGOS];
    struct ps_html_capture captures[MAX_ALGOS];
    int status = PS_EXIT_OK;
    for (int i = 0; i < nalgos; i++) {
        struct ps_search s;
        ps_search_init(&s, g, inst, &c->limits, &variants[i].opt);
        s.progress = !c->quiet && isatty(STDERR_FILENO);
        s.trace.out = trace_file ? trace_file : stderr;
        if (c->html)
            ps_html_capture_begin(&captures[i], &s);
        enum ps_status st = c->fe->run_search ? c->fe->run_search(&s, algos[i])
                                              : ps_search_run(&s, algos[i]);
        if (report_search_fault(&s))
            status = PS_EXIT_ERROR;
        if (c->html)
            ps_html_capture_end(&captures[i], &s);
        ps_run_capture(&runs[i], &s, st);
        runs[i].algo = variants[i].label;
        rules_stamp(c, g, pz.rules, runs[i].rules, sizeof runs[i].rules);
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
    if (trace_file)
        fclose(trace_file);
    if (c->html) {
        struct ps_html_report rep = {.command = "solve", .game = g, .inst = inst,
                                     .puzzle = c->files[0], .runs = runs,
                                     .captures = captures, .nruns = nalgos};
        if (!write_html(c, &rep))
            status = PS_EXIT_ERROR;
        for (int i = 0; i < nalgos; i++)
            ps_html_capture_free(&captures[i]);
    }
    for (int i = 0; i < nalgos; i++)
        ps_run_free(&runs[i]);
    puzzle_close(&pz);
    return status;
}

/* Does the solution's "# rules:" stamp name other rules than the ones it
 * is replayed under? Then say so on stderr: the moves may be legal under
 * both and score differently (a PopStar line under the default rules). */
static bool solved_under_other_rules(const struct cli *c,
                                     const struct ps_game *g,
                                     const void *rules, bool maximise,
                                     const char *text, size_t len, char *now,
                                     size_t now_len,
                                     char *was, size_t was_len)
{
    rules_stamp(c, g, rules, now, now_len);
    uint64_t hash;
    int line;
    char name[64];
    if (!ps_rules_stamp_find(text, len, name, sizeof name, &hash, &line) ||
        hash == ps_rules_hash(g, rules))
        return false;
    snprintf(was, was_len, "%s hash %016llx", name, (unsigned long long)hash);
    fprintf(stderr,
            "psolve: warning: %s:%d: solved under rules '%s' (hash %016llx), "
            "replayed under rules %s: the %s may differ (give --rules %s)\n",
            c->files[1], line, name, (unsigned long long)hash, now,
            maximise ? "score" : "cost", name);
    return true;
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
        if (!report_game_fault(g, inst))
            print_error(&err);
        goto done;
    }
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    const char *over_key = maximise ? "game_over" : "solved";
    struct ps_fact facts[PS_MAX_FACTS];
    int nfacts = g->facts ? g->facts(inst, final, facts, PS_MAX_FACTS) : 0;
    char now[96], was[96] = "";
    bool other_rules = solved_under_other_rules(c, g, pz.rules, maximise, text,
                                                len, now, sizeof now, was,
                                                sizeof was);
    if (c->json) {
        printf("{\"game\":");
        ps_json_string(stdout, g->name);
        printf(",\"rules\":");
        ps_json_string(stdout, now);
        if (other_rules) {
            printf(",\"solved_under_rules\":");
            ps_json_string(stdout, was);
        }
        printf(",\"legal\":true,\"%s\":%lld,\"moves\":%d,\"game_over\":%s",
               maximise ? "score" : "cost", (long long)res.value, res.len,
               res.over ? "true" : "false");
        for (int i = 0; i < nfacts; i++)
            printf(",\"%s\":%lld", facts[i].key, (long long)facts[i].value);
        printf("}\n");
    } else {
        if (c->show)
            ps_print_replay(stdout, g, inst, moves, n, isatty(STDOUT_FILENO),
                            isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)
                                ? stdin
                                : NULL);
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
    if (report_game_fault(g, inst))
        status = PS_EXIT_ERROR;
    if (c->html) {
        struct ps_run run = {.algo = "verify", .status = PS_HEURISTIC,
                             .moves = moves, .len = n, .found = true,
                             .value = res.value, .verified = true,
                             .replay = res};
        snprintf(run.note, sizeof run.note, "replay of %s", c->files[1]);
        struct ps_html_report rep = {.command = "verify", .game = g,
                                     .inst = inst, .puzzle = c->files[0],
                                     .runs = &run, .nruns = 1};
        if (!write_html(c, &rep))
            status = PS_EXIT_ERROR;
    }
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
        ok = !report_game_fault(g, pz.inst);
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
    bool one_size = c->gen.rows || c->gen.cols || c->gen.colors ||
                    c->gen.tubes || c->gen.capacity;
    bool ok = ps_bench_playouts(stdout, g, rules, c->bench_seconds, c->opt.seed,
                                one_size ? &c->gen : NULL, &err);
    free(rules);
    return ok ? PS_EXIT_OK : print_error(&err);
}

static void list_algorithm(const struct ps_algorithm *a)
{
    printf("  %-12s %s%s%s\n", a->name, a->summary,
           a->for_score ? " [score games]" : "",
           a->for_cost ? " [cost games]" : "");
}

static int cmd_list(const struct ps_frontend *fe)
{
    printf("games:\n");
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        printf("  %-12s %s\n", (*g)->name, (*g)->summary);
        for (const struct ps_preset *p = (*g)->presets; p && p->name; p++)
            printf("    --rules builtin:%-12s %s\n", p->name, p->doc);
    }
    ps_rules_list_scripts(stdout);
    printf("heuristics (cost games) and bounds (score games), --heuristic "
           "NAME:\n");
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        const struct ps_heuristic *h = (*g)->heuristics;
        if (!h || !h->name)
            continue;
        bool maximise = (*g)->flags & PS_MAXIMISE;
        const char *def = ps_heuristic_default_name(*g, maximise);
        printf("  %s:\n", (*g)->name);
        for (; h->name; h++)
            printf("    %-17s %-14s %s%s\n", h->name,
                   h->admissible ? "[admissible]" : "[inadmissible]", h->doc,
                   strcmp(def, h->name) == 0 ? " [default]" : "");
    }
    printf("algorithms:\n");
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++)
        list_algorithm(*a);
    for (const struct ps_algorithm *const *a = fe->algorithms; a && *a; a++)
        list_algorithm(*a);
    return PS_EXIT_OK;
}

/* Without --game: the game whose detect() claims the (first) puzzle file,
 * else `fallback`, with a hint kept for the error if the file then does not
 * load. */
static const struct ps_game *game_of_file(struct cli *c,
                                          const struct ps_game *fallback)
{
    static const char *const with_files[] = {"solve", "lab", "verify", "show",
                                             NULL};
    bool takes_file = false;
    for (int i = 0; with_files[i]; i++)
        takes_file = takes_file || strcmp(c->command, with_files[i]) == 0;
    if (!takes_file || c->nfiles < 1)
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
        ps_read_text_file(paths[0], &text, &len, &err)) {
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

int ps_cli_main(int argc, char **argv, const struct ps_frontend *fe)
{
    static const struct ps_frontend plain = {0};
    struct cli c;
    int rc = parse_args(argc, argv, &c);
    if (rc >= 0)
        return rc;
    c.fe = fe ? fe : &plain;
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
        return cmd_list(c.fe);
    const struct ps_game *g = ps_lua_game_is_script(c.game_name)
                                  ? ps_lua_game_open(c.game_name, &err)
                                  : ps_game_find(c.game_name);
    if (!g && err.msg[0])
        return print_error(&err);
    if (!g)
        return usage_error("unknown game '%s' (psolve list shows them)",
                           c.game_name);
    if (!option_given(&c, "game")) {
        const struct ps_game *by_default = g;
        if (!ps_rules_game(c.rules_spec, &g, &err))
            return print_error(&err);
        if (g == by_default)
            g = game_of_file(&c, g);
    }
    if ((g->flags & PS_ONE_THREAD) && c.opt.threads > 1)
        return usage_error("game %s runs in one thread (a Lua game: one "
                           "interpreter per puzzle); leave out --threads or "
                           "give --threads 1 (lab --jobs N still runs N "
                           "puzzles at once)",
                           g->name);
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

#ifndef PSOLVE_CLI_LIBRARY
int main(int argc, char **argv)
{
    return ps_cli_main(argc, argv, NULL);
}
#endif
