/*
 * args.c - the command line into struct cli. The long options are built
 * from tables: the command line's own (below), every built-in game's gen
 * parameters (its .gen_options) and every algorithm's (its .options and
 * .shared_options, options.h), so an option an algorithm declares is
 * --NAME here and NAME= in --algo alike.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "memory_limit.h"
#include "number.h"
#include "suggest.h"
#include "worker.h"

#ifndef PSOLVE_VERSION
#define PSOLVE_VERSION "0.1.0"
#endif

#define F(field) offsetof(struct cli, field)

/* The command line's own options, in --help's order; the ones marked
 * "(code)" in their comment are read by parse_special below. */
const struct ps_option ps_cli_options[] = {
    {.name = "game", .type = PS_OPT_STRING, .offset = F(game_name),
     .arg = "NAME",
     .doc = "the puzzle kind (psolve list), or PATH.lua, a game written in "
            "Lua (docs/lua-games.md); without it, the game whose format the "
            "file has, else samegame"},
    /* (code) repeatable */
    {.name = "plugin", .type = PS_OPT_STRING, .arg = "FILE.so",
     .doc = "load a game built outside the tree (repeatable; also "
            "$PSOLVE_PLUGIN_PATH, ':'-separated files or directories of .so "
            "files; docs/plugins.md)"},
    {.name = "rules", .type = PS_OPT_STRING, .offset = F(rules_spec),
     .arg = "SPEC",
     .doc = "rules: NAME (scripts/rules/NAME.lua, else the built-in preset "
            "NAME), PATH.lua, or builtin:NAME; a script's `game` picks the "
            "game when --game is not given, its `prune` defaults yield to "
            "explicit options (docs/rules.md)"},
    {.name = "json", .type = PS_OPT_FLAG, .offset = F(json),
     .doc = "results as one JSON object"},
    {.name = "csv", .type = PS_OPT_FLAG, .offset = F(csv),
     .doc = "a side-by-side table or a lab as CSV"},
    {.name = "quiet", .type = PS_OPT_FLAG, .offset = F(quiet),
     .doc = "no progress lines on stderr (each second on a terminal, "
            "else a whole line each minute)"},
    /* (code) any 64-bit number */
    {.name = "seed", .type = PS_OPT_STRING, .arg = "N", .def = "1",
     .doc = "random seed 0..2^64-1 (gen, Monte Carlo)"},
    {.name = "algo", .type = PS_OPT_STRING, .offset = F(algos),
     .arg = "A[,B,...]", .def = "greedy",
     .doc = "algorithm; a comma list runs each on the same puzzle and prints "
            "a side-by-side table; A:KEY=V:... gives one run its own options "
            "(every algorithm option below is a KEY; h=NAME is --heuristic, "
            "w=W is weight), e.g. --algo astar:h=zero,dfs:no-memo,wastar:w=3"},
    {.name = "time", .type = PS_OPT_DOUBLE, .offset = F(limits.seconds),
     .min = 0, .max = 1e9, .arg = "SECONDS", .def = "0 = no limit",
     .doc = "stop after this long (+0.1 s at most) and print the best so "
            "far; numbers are plain decimals (docs/cli.md)"},
    /* (code) */
    {.name = "max-nodes", .type = PS_OPT_STRING, .arg = "N",
     .def = "no limit", .doc = "stop after N expanded nodes (1..2^63-1)"},
    /* (code) */
    {.name = "max-memory", .type = PS_OPT_STRING, .arg = "MB",
     .doc = "memory limit of tables, beams, policies (they refuse to grow "
            "past it; default: half of what the process may use: physical "
            "memory, cgroup, ulimit); a lab's --jobs share it; a search "
            "past 2 GiB says so on stderr"},
    {.name = "threads", .type = PS_OPT_INT, .offset = F(opt.threads), .min = 0,
     .max = PS_MAX_THREADS, .arg = "N",
     .def = "0 = the number of cores, at most 64",
     .doc = "mc, nmcs, nrpa, beam threads; beam gives the same answer for any "
            "N"},
    {.name = "heuristic", .type = PS_OPT_STRING, .offset = F(heuristics),
     .arg = "H,...",
     .doc = "the game's heuristic (cost games) or bound (score games) by name "
            "(psolve list shows them, marked admissible or not); a comma list "
            "runs each heuristic-using --algo once per name, side by side; an "
            "exact algorithm with an inadmissible one says 'heuristic'"},
    {.name = "bound", .type = PS_OPT_STRING, .offset = F(heuristics),
     .arg = "H,...", .doc = "the same as --heuristic"},
    {.name = "layers", .type = PS_OPT_FLAG, .offset = F(opt.layers),
     .doc = "expanded and generated per depth (bfs), per f-layer (astar), per "
            "iteration and bound (idastar, dfs on cost games)"},
    {.name = "trace", .type = PS_OPT_INT, .offset = F(opt.trace), .min = 0,
     .max = 1e9, .arg = "N",
     .doc = "print the first N events to stderr (teaching): expansions with "
            "g, h, the queue key, parent and open-list size, IDA* iterations, "
            "beam depths, Monte Carlo levels and every improvement"},
    {.name = "trace-format", .type = PS_OPT_CHOICE, .offset = F(trace_jsonl),
     .choices = "text|jsonl", .arg = "F", .def = "text",
     .doc = "jsonl: one JSON record per event"},
    /* (code) also sets jsonl and a default --trace 100 */
    {.name = "trace-json", .type = PS_OPT_STRING, .offset = F(trace_json),
     .arg = "FILE", .doc = "the trace as JSON lines into FILE (--trace N, "
                           "default 100 events)"},
    {.name = "best-file", .type = PS_OPT_STRING, .offset = F(best_file),
     .arg = "FILE",
     .doc = "while progress lines are shown (stderr a terminal), rewrite FILE "
            "with the best line so far each second, one move a line "
            "(psolve serve draws it live)"},
    {.name = "html", .type = PS_OPT_STRING, .offset = F(html), .arg = "FILE",
     .doc = "also write one self-contained HTML page: the board replayed move "
            "by move, comparison bars, anytime curves, and with --trace a "
            "step-through of the search (solve, verify and lab)"},
    {.name = "checkpoint", .type = PS_OPT_STRING, .offset = F(checkpoint),
     .arg = "FILE",
     .doc = "nrpa, nmcs, beam, dfs on a cost game: save the run's state to "
            "FILE every "
            "--checkpoint-every seconds and at its end, Ctrl-C and SIGTERM "
            "included (atomically; docs/checkpoint.md)"},
    {.name = "checkpoint-every", .type = PS_OPT_DOUBLE,
     .offset = F(checkpoint_every), .min = 0.001, .max = 1e9, .arg = "SECONDS",
     .def = "60", .doc = "seconds between two writes of --checkpoint FILE"},
    {.name = "resume", .type = PS_OPT_STRING, .offset = F(resume),
     .arg = "FILE",
     .doc = "go on from a --checkpoint FILE, with the command line that "
            "wrote it (limits may change; --max-nodes counts the nodes "
            "before too); a file of another run is refused"},
    {.name = "jobs", .type = PS_OPT_INT, .offset = F(jobs), .min = 1,
     .max = 1e9, .arg = "N", .def = "1",
     .doc = "lab: puzzles run in parallel on N threads; the rows are printed "
            "in input order, the same for any N apart from times"},
    {.name = "show", .type = PS_OPT_FLAG, .offset = F(show),
     .doc = "verify: replay the solution board by board (on a terminal: Enter "
            "steps, q runs to the end)"},
    /* (code) more than 0 */
    {.name = "seconds", .type = PS_OPT_DOUBLE, .offset = F(bench_seconds),
     .min = 0, .max = 1e9, .arg = "S", .def = "1",
     .doc = "bench: seconds per size (more than 0)"},
    /* (code) */
    {.name = "help", .type = PS_OPT_FLAG, .doc = "this text (-h)"},
    /* (code) */
    {.name = "version", .type = PS_OPT_FLAG, .doc = "the version and the commit it was built from (git describe; unknown outside a git checkout)"},
    {0},
};

#undef F

const struct ps_algorithm *ps_cli_find_algorithm(const struct ps_frontend *fe,
                                                 const char *name)
{
    for (int k = 0; fe && fe->algorithms && fe->algorithms[k]; k++)
        if (strcmp(fe->algorithms[k]->name, name) == 0)
            return fe->algorithms[k];
    return ps_algorithm_find(name);
}

void ps_cli_each_algorithm(const struct ps_frontend *fe,
                           void (*fn)(const struct ps_algorithm *a, void *ctx),
                           void *ctx)
{
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++)
        fn(*a, ctx);
    for (int k = 0; fe && fe->algorithms && fe->algorithms[k]; k++)
        fn(fe->algorithms[k], ctx);
}

/* Every long option once: its name and the first table entry that
 * declares it (an algorithm option several algorithms declare is set in
 * each of them by ps_algo_book_set). */
#define MAX_LONG 128

struct long_opt {
    const char *name;
    const struct ps_option *spec;
    enum { ON_CLI, ON_OPTIONS, ON_GEN } on; /* the cli's own, an algorithm
                                              * option, or a game's gen value
                                              * (applied once the game is
                                              * known) */
};

struct long_table {
    struct long_opt v[MAX_LONG];
    int n;
};

static void add_long(struct long_table *t, const char *name,
                     const struct ps_option *o, int on)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->v[i].name, name) == 0)
            return;
    if (t->n == MAX_LONG)
        return; /* tests/test_options.c checks every name fits */
    t->v[t->n++] = (struct long_opt){.name = name, .spec = o, .on = on};
}

static void add_table(struct long_table *t, const struct ps_option *table,
                      int on)
{
    for (const struct ps_option *o = table; o && o->name; o++) {
        add_long(t, o->name, o, on);
        /* A cli or gen alias is a long option too (--colours); an
         * algorithm's alias is an --algo shorthand only (w for weight). */
        if (on != ON_OPTIONS && o->alias)
            add_long(t, o->alias, o, on);
    }
}

static void add_algorithm(const struct ps_algorithm *a, void *ctx)
{
    add_table(ctx, a->options, ON_OPTIONS);
    add_table(ctx, a->shared_options, ON_OPTIONS);
}

static void build_long(struct long_table *t, const struct ps_frontend *fe)
{
    t->n = 0;
    add_table(t, ps_cli_options, ON_CLI);
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        add_table(t, (*g)->gen_options, ON_GEN);
    ps_cli_each_algorithm(fe, add_algorithm, t);
}

/* Every number on the command line that no table reads (the limits that
 * take 64-bit values) is read here, with the same message. */
static int cli_whole(const char *option, const char *arg, uint64_t min,
                     uint64_t max, uint64_t *out)
{
    if (ps_number_parse_uint(arg, min, max, out))
        return -1;
    char msg[200];
    snprintf(msg, sizeof msg, "--%s expects a whole number %llu..%llu, "
             "got '%%s'", option, (unsigned long long)min,
             (unsigned long long)max);
    return cli_usage_error(msg, arg);
}

#define NOT_SPECIAL (-2)

/* The options a table cannot say; -1 to go on, NOT_SPECIAL if `name` is
 * not one of them, or an exit status. */
static int parse_special(struct cli *c, const char *name, const char *arg)
{
    uint64_t u;
    int rc;
    if (strcmp(name, "help") == 0)
        return cmd_help(c, NULL) == 0 ? PS_EXIT_OK : PS_EXIT_ERROR;
    if (strcmp(name, "version") == 0) {
        printf("psolve %s (commit %s)\n", PSOLVE_VERSION, ps_build_commit);
        return PS_EXIT_OK;
    }
    if (strcmp(name, "plugin") == 0) {
        if (c->nplugins == PS_MAX_ADDED_GAMES)
            return cli_usage_error("%s", "too many --plugin options");
        c->plugins[c->nplugins++] = arg;
        return -1;
    }
    if (strcmp(name, "seed") == 0) {
        /* Any 64-bit seed, taken exactly (gen prints it back). */
        if ((rc = cli_whole(name, arg, 0, UINT64_MAX, &u)) >= 0)
            return rc;
        c->opt.seed = u;
        c->gen.seed = u;
        c->seed_set = true;
        return -1;
    }
    if (strcmp(name, "max-nodes") == 0) {
        if ((rc = cli_whole(name, arg, 1, INT64_MAX, &u)) >= 0)
            return rc;
        c->limits.max_nodes = u;
        return -1;
    }
    if (strcmp(name, "max-memory") == 0) {
        if ((rc = cli_whole(name, arg, 1, 1 << 30, &u)) >= 0)
            return rc;
        c->limits.max_memory = u << 20;
        return -1;
    }
    return NOT_SPECIAL;
}

/* Apply one table option: the cli's own, or an algorithm option, which
 * every algorithm that declares it must accept (ranges may differ: nmcs
 * and nrpa both read --level) and which is set in each of them (the book)
 * or, when shared (policy, topk), in the options every run starts from. */
static int parse_table_option(struct cli *c, const struct long_opt *lo,
                              const char *arg)
{
    if (lo->on == ON_GEN) {
        /* Read by cli_gen_values once the game is known. */
        if (c->ngen_args == PS_CLI_MAX_GEN_ARGS)
            return cli_usage_error("%s", "too many gen options");
        c->gen_args[c->ngen_args].name = lo->name;
        c->gen_args[c->ngen_args++].value = arg;
        return -1;
    }
    char msg[300];
    bool ok = lo->on == ON_CLI
                  ? ps_option_set(lo->spec, c, arg, msg, sizeof msg)
                  : ps_algo_book_set(&c->book, &c->opt, lo->name, arg, msg,
                                     sizeof msg);
    if (!ok) {
        fprintf(stderr, "psolve: --%s %s\nTry 'psolve --help'.\n", lo->name,
                msg);
        return PS_EXIT_USAGE;
    }
    if (strcmp(lo->name, "seconds") == 0 && c->bench_seconds <= 0)
        return cli_usage_error("--seconds must be more than 0, got '%s'", arg);
    return -1;
}

/* getopt_long's '?' or ':': one message, with a suggestion. */
static int unknown_option(const struct long_table *t, char **argv, int ch)
{
    const char *word = argv[optind - 1];
    if (optopt && ch == ':')
        return cli_usage_error("option '-%s' needs a value",
                               (char[]){(char)optopt, 0});
    if (optopt)
        return cli_usage_error("unknown option '-%s'",
                               (char[]){(char)optopt, 0});
    char name[64];
    snprintf(name, sizeof name, "%s", word + (strncmp(word, "--", 2) ? 0 : 2));
    name[strcspn(name, "=")] = '\0';
    if (ch == ':')
        return cli_usage_error("option '--%s' needs a value", name);
    const char *names[MAX_LONG];
    for (int i = 0; i < t->n; i++)
        names[i] = t->v[i].name;
    const char *near = ps_suggest(name, names, (size_t)t->n);
    char msg[200];
    snprintf(msg, sizeof msg, "unknown option '--%%s'%s%s%s", near ? " (did "
             "you mean --" : "", near ? near : "", near ? "?)" : "");
    return cli_usage_error(msg, name);
}

/* A first word that is no file but close to a command's name (psolve
 * verfy ...): a usage error with the command meant, not a missing puzzle. */
static int mistyped_command(const char *word)
{
    const char *names[32];
    size_t n = 0;
    for (const struct ps_command *k = ps_commands; k->name && n < 32; k++)
        names[n++] = k->name;
    const char *near = ps_suggest(word, names, n);
    if (!near || access(word, F_OK) == 0)
        return -1;
    char msg[120];
    snprintf(msg, sizeof msg, "unknown command '%%s' (did you mean %s?)", near);
    return cli_usage_error(msg, word);
}

/* The command word and the file arguments after it, checked against the
 * command's file counts; -1 to go on, or an exit status. */
static int parse_command(struct cli *c, int argc, char **argv)
{
    c->files = (const char *const *)argv + optind;
    c->nfiles = argc - optind;
    /* The command is the first word that is no option, wherever the options
     * stand (getopt_long moved the words after them, in order). */
    const struct ps_command *k = c->nfiles > 0 ? ps_command_find(c->files[0])
                                               : NULL;
    if (k) {
        c->files++;
        c->nfiles--;
    } else {
        int rc = c->nfiles > 0 ? mistyped_command(c->files[0]) : -1;
        if (rc >= 0)
            return rc;
        k = ps_command_find("solve");
    }
    c->command = k->name;
    c->cmd = k;
    if (k->stage == PS_CMD_ON_ARGV) /* main.c runs it before the parse */
        return cli_usage_error("'%s' reads its own options: give it as the "
                               "first word", k->name);
    if (k->max_files != PS_CMD_ANY_FILES && c->nfiles > k->max_files)
        return cli_usage_error("too many file arguments ('%s')",
                               argv[argc - 1]);
    if (k->stage == PS_CMD_ON_PARSE)
        return k->run(c, NULL);
    if (c->nfiles < k->min_files) {
        char msg[200];
        snprintf(msg, sizeof msg, "%%s needs %d file argument%s (psolve %s%s%s)",
                 k->min_files, k->min_files > 1 ? "s" : "", k->name,
                 k->synopsis[0] ? " " : "", k->synopsis);
        return cli_usage_error(msg, k->name);
    }
    int stdin_files = 0;
    for (int i = 0; i < c->nfiles; i++)
        stdin_files += strcmp(c->files[i], "-") == 0;
    if (stdin_files > 1)
        return cli_usage_error("%s: standard input can be read only once; "
                               "give one of the files by name",
                               "-");
    return cli_check_outputs(c);
}

int ps_cli_parse(int argc, char **argv, const struct ps_frontend *fe,
                 struct cli *c)
{
    memset(c, 0, sizeof *c);
    c->fe = fe;
    ps_options_default(&c->opt);
    ps_algo_book_init(&c->book, fe ? fe->algorithms : NULL);
    c->opt.book = &c->book;
    c->command = "solve";
    c->game_name = "samegame";
    c->algos = "greedy";
    c->bench_seconds = 1.0;
    static struct long_table t; /* rebuilt per call: the same every time */
    build_long(&t, fe);
    struct option longs[MAX_LONG + 1];
    for (int i = 0; i < t.n; i++) {
        const struct ps_option *o = t.v[i].spec;
        longs[i] = (struct option){t.v[i].name,
                                   o->type == PS_OPT_FLAG ? no_argument
                                                          : required_argument,
                                   0, 256 + i};
    }
    longs[t.n] = (struct option){0, 0, 0, 0};
    optind = 1;
    opterr = 0;
    int ch, rc;
    while ((ch = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        if (ch == 'h')
            return cmd_help(c, NULL) == 0 ? PS_EXIT_OK : PS_EXIT_ERROR;
        if (ch == '?' || ch == ':')
            return unknown_option(&t, argv, ch);
        const struct long_opt *lo = &t.v[ch - 256];
        if (!cli_option_given(c, lo->name) && c->ngiven < PS_CLI_MAX_GIVEN - 1)
            c->given[c->ngiven++] = lo->name;
        rc = parse_special(c, lo->name, optarg);
        if (rc == NOT_SPECIAL)
            rc = parse_table_option(c, lo, optarg);
        if (rc >= 0)
            return rc;
    }
    if (c->json && c->csv)
        return cli_usage_error("--json and --csv%s exclude each other: give "
                               "one", "");
    c->opt.trace_format = c->trace_jsonl ? PS_TRACE_JSONL : PS_TRACE_TEXT;
    if (!c->limits.max_memory)
        c->limits.max_memory = ps_memory_limit() / 2;
    if (c->trace_json) {
        c->opt.trace_format = PS_TRACE_JSONL;
        if (!cli_option_given(c, "trace"))
            c->opt.trace = 100;
    }
    return parse_command(c, argc, argv);
}

int cli_gen_values(struct cli *c, const struct ps_game *g)
{
    for (int i = 0; i < c->ngen_args; i++) {
        const char *name = c->gen_args[i].name;
        const struct ps_option *o = ps_option_find(g->gen_options, name);
        char msg[300];
        if (!o) {
            int k = snprintf(msg, sizeof msg, "game %s has no gen option --%s",
                             g->name, name);
            for (const struct ps_option *e = g->gen_options; e && e->name;
                 e++)
                k += snprintf(msg + k, sizeof msg - (size_t)k, "%s--%s",
                              e == g->gen_options ? " (its options: " : ", ",
                              e->name);
            fprintf(stderr, "psolve: %s%s\nTry 'psolve --help'.\n", msg,
                    g->gen_options && g->gen_options->name ? ")" : "");
            return PS_EXIT_USAGE;
        }
        if (!ps_option_set(o, &c->gen, c->gen_args[i].value, msg,
                           sizeof msg)) {
            fprintf(stderr, "psolve: --%s %s\nTry 'psolve --help'.\n", name,
                    msg);
            return PS_EXIT_USAGE;
        }
        c->gen_set = true;
    }
    return -1;
}
