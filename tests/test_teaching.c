/*
 * test_teaching.c - what a lab leans on: the --algo variant syntax and
 * --heuristic lists (labels, cross products, bad input with the choices),
 * an inadmissible heuristic never claiming optimal, the agreement line,
 * `psolve list` showing the heuristics, and solutions recording the rules
 * they were solved under (verify warns under other rules).
 */
#include "support.h"

#include "report.h"
#include "rules.h"
#include "variant.h"

extern const struct ps_game npuzzle_game, samegame_game;

/* Parse and expect `n` runs with these labels. */
static void expect_runs(const struct ps_game *g, const char *algos,
                        const char *heuristics, int n, const char *const *labels,
                        struct ps_variant *v)
{
    struct ps_options base;
    ps_options_default(&base);
    struct ps_error err;
    ps_error_clear(&err);
    int got;
    if (!ps_variants_parse(algos, heuristics, g, NULL, &base, v, 16, &got, &err))
        fail_msg("'%s' / '%s': %s", algos, heuristics ? heuristics : "-",
                 err.msg);
    assert_int_equal(got, n);
    for (int i = 0; i < n; i++)
        assert_string_equal(v[i].label, labels[i]);
}

static void expect_refused(const struct ps_game *g, const char *algos,
                           const char *heuristics, const char *message)
{
    struct ps_options base;
    ps_options_default(&base);
    struct ps_variant v[16];
    struct ps_error err;
    ps_error_clear(&err);
    int got;
    assert_false(ps_variants_parse(algos, heuristics, g, NULL, &base, v, 16, &got,
                                   &err));
    if (!strstr(err.msg, message))
        fail_msg("'%s' / '%s': expected '%s' in '%s'", algos,
                 heuristics ? heuristics : "-", message, err.msg);
}

static void test_variant_syntax(void **unused)
{
    (void)unused;
    const struct ps_game *g = &npuzzle_game;
    struct ps_variant v[16];
    /* A heuristic list crosses the algorithms that use one. */
    const char *cross[] = {"astar:h=zero", "astar:h=manhattan", "idastar:h=zero",
                           "idastar:h=manhattan"};
    expect_runs(g, "astar,idastar", "zero,manhattan", 4, cross, v);
    assert_string_equal(v[1].opt.heuristic, "manhattan");
    assert_string_equal(v[2].opt.heuristic, "zero");
    /* bfs reads no heuristic: it runs once, with the game's default. */
    const char *mixed[] = {"bfs", "astar:h=zero", "astar:h=misplaced"};
    expect_runs(g, "bfs,astar", "zero,misplaced", 3, mixed, v);
    assert_null(v[0].opt.heuristic);
    /* One name: no extra label, every run uses it. */
    const char *one[] = {"astar", "idastar"};
    expect_runs(g, "astar,idastar", "linear-conflict", 2, one, v);
    assert_string_equal(v[1].opt.heuristic, "linear-conflict");
    /* Items with their own options keep their text as the label. */
    const char *items[] = {"astar:h=misplaced", "dfs:no-memo", "wastar:w=3",
                           "dfs:candidates=2:max-depth=5", "astar"};
    expect_runs(g, "astar:h=misplaced,dfs:no-memo,wastar:w=3,"
                   "dfs:candidates=2:max-depth=5,astar",
                "zero", 5, items, v);
    assert_string_equal(v[0].opt.heuristic, "misplaced"); /* the item's own */
    assert_true(test_own_value(&v[1].opt, "no-memo"));
    assert_true(v[0].opt.own.algo == ps_algorithm_find("astar"));
    assert_false(test_own_value(&v[3].opt, "no-memo"));
    assert_true(test_own_value(&v[2].opt, "weight") == 3.0);
    assert_int_equal(test_own_value(&v[3].opt, "candidates"), 2);
    assert_int_equal(test_own_value(&v[3].opt, "max-depth"), 5);
    assert_string_equal(v[4].opt.heuristic, "zero");
    /* Score games: the list names bounds, and dfs is the one that uses them. */
    const char *bounds[] = {"greedy", "dfs:h=dead-cells", "dfs:h=colours"};
    expect_runs(&samegame_game, "greedy,dfs", "dead-cells,colours", 3, bounds,
                v);
    /* SameGame's rules may make it a cost game (fewest_clicks): astar,
     * for cost games only, takes each name of the list. */
    const char *clicks[] = {"astar:h=colour-runs", "astar:h=colours-left"};
    expect_runs(&samegame_game, "astar", "colour-runs,colours-left", 2, clicks,
                v);
}

static void test_variant_bad_input(void **unused)
{
    (void)unused;
    const struct ps_game *g = &npuzzle_game;
    const char *choices = "(choices: zero, misplaced, manhattan, "
                          "linear-conflict, double-manhattan, pdb:8, pdb:4-4, "
                          "pdb:5-5-5, pdb:6-6-3, pdb:7-8)";
    expect_refused(g, "astar", "manhatan", "unknown heuristic 'manhatan'");
    expect_refused(g, "astar", "manhatan", choices);
    expect_refused(g, "astar:h=nope", NULL, "unknown heuristic 'nope'");
    expect_refused(g, "astar:h=nope", NULL, choices);
    expect_refused(g, "astar:h=", NULL, "key 'h' needs a value");
    expect_refused(g, "astar:frobnicate", NULL, "unknown key 'frobnicate'");
    expect_refused(g, "astar:frobnicate", NULL, "keys: h=NAME");
    expect_refused(g, "dfs:candidates=x", NULL,
                   "key 'candidates' expects a whole number 0..1000000000, "
                   "got 'x'");
    expect_refused(g, "dfs:candidates=-1", NULL, "got '-1'");
    expect_refused(g, "wastar:w=abc", NULL, "key 'w' expects a number 0..1e+09");
    expect_refused(g, "dfs:candidates", NULL, "key 'candidates' needs a value");
    /* Each algorithm takes its own keys, with the nearest suggested. */
    expect_refused(g, "dfs:candidate=3", NULL, "(did you mean candidates?)");
    expect_refused(g, "astar:level=2", NULL, "unknown key 'level' for astar");
    expect_refused(g, "dfs:no-memo=1", NULL, "'no-memo' takes no value");
    expect_refused(g, "astra", NULL, "unknown algorithm 'astra'");
    expect_refused(g, "", NULL, "at least one algorithm");
    expect_refused(g, ",", NULL, "empty item");
    expect_refused(g, "astar", ",", "has an empty name");
    expect_refused(g, "astar,idastar,dfs,wastar,greedy",
                   "zero,misplaced,manhattan,linear-conflict", "too many runs");
    expect_refused(&samegame_game, "dfs", "manhattan",
                   "(choices: dead-cells, colours, column-strings, "
                   "empty-chain, runs-ahead, colour-runs, colours-left)");
}

/* An exact algorithm run with an entry not marked admissible says
 * heuristic, whatever it finds; with an admissible one it stays optimal. */
static void test_inadmissible_is_no_proof(void **unused)
{
    (void)unused;
    const struct ps_game *g = &npuzzle_game;
    void *rules = test_rules(g, NULL);
    void *inst = test_load(g, rules, "1 2 3\n4 5 6\n0 7 8\n");
    const char *algos[] = {"astar", "idastar", "dfs"};
    for (int a = 0; a < 3; a++) {
        struct ps_options o;
        ps_options_default(&o);
        o.heuristic = "double-manhattan";
        struct ps_search s;
        ps_search_init(&s, g, inst, NULL, &o);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find(algos[a])),
                         PS_HEURISTIC);
        assert_non_null(strstr(s.note, "'double-manhattan' is not admissible"));
        assert_int_equal(s.best.value, 2);
        ps_search_free(&s);
        o.heuristic = "linear-conflict";
        ps_search_init(&s, g, inst, NULL, &o);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find(algos[a])),
                         PS_OPTIMAL);
        assert_true(s.stats.has_h_start);
        assert_int_equal(s.stats.h_start, 2);
        ps_search_free(&s);
    }
    /* A library caller naming no entry gets a run that says why. */
    struct ps_options o;
    ps_options_default(&o);
    o.heuristic = "nope";
    struct ps_search s;
    ps_search_init(&s, g, inst, NULL, &o);
    assert_int_equal(ps_search_run(&s, ps_algorithm_find("astar")),
                     PS_INCOMPLETE);
    assert_non_null(strstr(s.note, "unknown heuristic 'nope'"));
    ps_search_free(&s);
    g->free_instance(inst);
    free(rules);
}

static const char *agreement(struct ps_run *runs, int n)
{
    static char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    ps_report_agreement(f, runs, n);
    fclose(f);
    return buf;
}

static void test_agreement_line(void **unused)
{
    (void)unused;
    struct ps_run runs[3];
    memset(runs, 0, sizeof runs);
    runs[0] = (struct ps_run){.algo = "astar", .status = PS_OPTIMAL, .value = 31};
    runs[1] = (struct ps_run){.algo = "idastar", .status = PS_OPTIMAL, .value = 31};
    runs[2] = (struct ps_run){.algo = "greedy", .status = PS_HEURISTIC, .value = 45};
    assert_string_equal(agreement(runs, 3),
                        "# exact algorithms agree (2 runs, optimum 31)\n");
    runs[1].status = PS_INCOMPLETE;
    runs[1].stop = PS_STOP_TIME;
    assert_string_equal(agreement(runs, 3),
                        "# only astar finished exactly: nothing to compare it "
                        "with; did not finish: idastar (time limit)\n");
    runs[0].status = PS_INCOMPLETE;
    runs[0].stop = PS_STOP_MEMORY;
    assert_string_equal(agreement(runs, 3),
                        "# no exact answer; did not finish: astar (memory "
                        "limit), idastar (time limit)\n");
    /* what an unfinished proof got to */
    runs[0].stats.has_lower_bound = true;
    runs[0].stats.lower_bound = 29;
    assert_string_equal(agreement(runs, 3),
                        "# no exact answer; did not finish: astar (memory "
                        "limit, lower_bound 29), idastar (time limit)\n");
    runs[0].status = runs[1].status = PS_OPTIMAL;
    runs[1].value = 30;
    assert_non_null(strstr(agreement(runs, 3), "ERROR"));
}

/* ---- through the binary ---- */

static int run(void **state, char *out, size_t len, bool merge,
               const char *fmt, ...)
{
    struct test_dir *d = *state;
    va_list ap;
    va_start(ap, fmt);
    int st = test_psolve_v(d->dir, out, len, merge, fmt, ap);
    va_end(ap);
    return st;
}

static void test_cli_heuristics(void **state)
{
    struct test_dir *d = *state;
    static char out[1 << 16];
    test_write_file(d->dir, "p.txt", "1 2 3\n4 5 6\n0 7 8\n");
    assert_int_equal(run(state, out, sizeof out, true,
                         "--game npuzzle --algo astar --heuristic manhatan p.txt"),
                     PS_EXIT_USAGE);
    assert_non_null(strstr(out, "unknown heuristic 'manhatan' for game npuzzle "
                                "(choices: zero, misplaced, manhattan,"));
    assert_int_equal(run(state, out, sizeof out, false, "list"), 0);
    assert_non_null(strstr(out, "linear-conflict   [admissible]"));
    assert_non_null(strstr(out, "double-manhattan  [inadmissible]"));
    assert_non_null(strstr(out, "[default]"));
    assert_int_equal(run(state, out, sizeof out, false,
                         "--game npuzzle --algo astar,bfs --heuristic "
                         "zero,double-manhattan p.txt"),
                     0);
    assert_non_null(strstr(out, "astar:h=zero"));
    assert_non_null(strstr(out, "astar:h=double-manhattan heuristic"));
    assert_non_null(strstr(out, "# exact algorithms agree (2 runs, optimum 2)"));
    /* CSV keeps the old columns first and adds the new ones. */
    assert_int_equal(run(state, out, sizeof out, false,
                         "--game npuzzle --algo astar:h=misplaced,idastar "
                         "--csv p.txt"),
                     0);
    assert_non_null(strstr(out, "algorithm,status,cost,moves,expanded,generated,"
                                "duplicates,pruned,playouts,peak_table,"
                                "peak_memory,seconds,verified,heuristic,h_start,"
                                "ebf,iterations,stopped,cycles,reexpanded,"));
    assert_non_null(strstr(out, "astar:h=misplaced,optimal,2,2,"));
    /* ... and ends with what each run proved: the optimum here */
    assert_non_null(strstr(out, ",lower_bound\n"));
    assert_non_null(strstr(out, ",2\nidastar,optimal,2,2,"));
    assert_int_equal(run(state, out, sizeof out, false,
                         "lab --game npuzzle --algo astar --csv p.txt"),
                     0);
    assert_non_null(strstr(out, ",seconds,verified,lower_bound\n"));
    assert_non_null(strstr(out, ",yes,2\n"));
    /* A lab: a row per puzzle x label and a summary row per label. */
    test_write_file(d->dir, "q.txt", "1 2 3\n4 5 6\n7 0 8\n");
    assert_int_equal(run(state, out, sizeof out, false,
                         "lab --game npuzzle --algo astar,bfs --heuristic "
                         "zero,misplaced --jobs 2 p.txt q.txt"),
                     0);
    assert_non_null(strstr(out, "# lab: 2 puzzles x 3 algorithms"));
    assert_non_null(strstr(out, "p.txt  astar:h=zero      optimal"));
    assert_non_null(strstr(out, "q.txt  astar:h=misplaced optimal"));
    assert_non_null(strstr(out, "\nastar:h=misplaced    2      2       2"));
    assert_non_null(strstr(out, "\nbfs                  2      2       2"));
}

static void test_rules_recorded_and_checked(void **state)
{
    struct test_dir *d = *state;
    static char out[1 << 16];
    /* Colours 1 and 2 in two columns: legal and scoring under both rules. */
    test_write_file(d->dir, "b.txt", "1122\n1122\n2211\n2211\n");
    assert_int_equal(run(state, out, sizeof out, false,
                         "--rules popstar --algo greedy b.txt > pop.txt"),
                     0);
    assert_int_equal(run(state, out, sizeof out, false, "--algo greedy b.txt > "
                                                        "def.txt"),
                     0);
    assert_int_equal(run(state, out, sizeof out, false, "--algo greedy b.txt"),
                     0);
    char stamp[96];
    void *rules = test_rules(&samegame_game, NULL);
    ps_rules_stamp(&samegame_game, NULL, rules, stamp, sizeof stamp);
    free(rules);
    char line[128];
    snprintf(line, sizeof line, "# rules: %s\n", stamp);
    assert_non_null(strstr(out, line));
    /* The PopStar line under the default rules: legal, another score, and a
     * warning naming the file, the line and both rules. */
    assert_int_equal(run(state, out, sizeof out, true, "verify b.txt pop.txt"),
                     0);
    assert_non_null(strstr(out, "warning: pop.txt:2: solved under rules "
                                "'popstar'"));
    assert_non_null(strstr(out, "replayed under rules default hash"));
    assert_int_equal(run(state, out, sizeof out, true,
                         "verify --rules popstar b.txt pop.txt"),
                     0);
    assert_null(strstr(out, "warning"));
    assert_int_equal(run(state, out, sizeof out, true, "verify b.txt def.txt"),
                     0);
    assert_null(strstr(out, "warning"));
    assert_int_equal(run(state, out, sizeof out, true,
                         "verify --json b.txt pop.txt"),
                     0);
    assert_non_null(strstr(out, "\"solved_under_rules\":\"popstar hash "));
    /* A hand-written solution without a stamp verifies quietly. */
    test_write_file(d->dir, "hand.txt", "0 0\n");
    assert_int_equal(run(state, out, sizeof out, true, "verify b.txt hand.txt"),
                     0);
    assert_null(strstr(out, "warning"));
}

/* The hash reads the values, not where they came from: the built-in preset
 * and the script of the same rules agree, different rules differ. */
static void test_rules_hash(void **unused)
{
    (void)unused;
    const struct ps_game *g = &samegame_game;
    struct ps_error err;
    ps_error_clear(&err);
    void *def = ps_rules_resolve(g, NULL, NULL, &err);
    void *pop = ps_rules_resolve(g, "builtin:popstar", NULL, &err);
    void *script = ps_rules_resolve(g, "popstar", NULL, &err);
    assert_non_null(def);
    assert_non_null(pop);
    assert_non_null(script);
    assert_true(ps_rules_hash(g, def) != ps_rules_hash(g, pop));
    assert_true(ps_rules_hash(g, pop) == ps_rules_hash(g, script));
    char name[64];
    uint64_t hash;
    int line;
    const char text[] = "3 4\n# rules: popstar hash 00000000000000ff\n1 1\n";
    assert_true(ps_rules_stamp_find(text, strlen(text), name, sizeof name,
                                    &hash, &line));
    assert_string_equal(name, "popstar");
    assert_int_equal(hash, 255);
    assert_int_equal(line, 2);
    assert_false(ps_rules_stamp_find("# rules: x\n", 11, name, sizeof name,
                                     &hash, &line));
    free(def);
    free(pop);
    free(script);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variant_syntax),
        cmocka_unit_test(test_variant_bad_input),
        cmocka_unit_test(test_inadmissible_is_no_proof),
        cmocka_unit_test(test_agreement_line),
        cmocka_unit_test(test_rules_hash),
        cmocka_unit_test_setup_teardown(test_cli_heuristics, test_dir_setup,
                                        test_dir_teardown),
        cmocka_unit_test_setup_teardown(test_rules_recorded_and_checked,
                                        test_dir_setup, test_dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
