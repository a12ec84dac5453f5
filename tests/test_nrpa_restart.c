/*
 * test_nrpa_restart.c - nrpa's restarts under a node budget (--keep-best):
 * a restart that keeps the best line never falls below it, a run repeats
 * for a fixed seed, and a line worth the start's bound still ends the run,
 * optimal; --fit sizes one run to the budget instead of restarting; --grow
 * makes one run that a larger budget only continues. Budgets only (node
 * limits), never the clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "rules.h"
#include "search.h"
#include "support.h"

#define MAX_LEVEL_EVENTS 4096

struct restart_run {
    enum ps_status status;
    enum ps_stop_reason stop;
    ps_value value;
    int len;
    ps_move moves[512];
    uint64_t playouts, expanded;
    /* The top level's best after each of its iterations, in order, and
     * where each run (restart) began in that list. */
    ps_value level_value[MAX_LEVEL_EVENTS];
    int levels;
    int run_start[MAX_LEVEL_EVENTS];
    int runs;
};

struct board {
    const struct ps_game *g;
    void *rules, *inst;
};

static void board_gen(struct board *b, const char *preset, int rows, int cols,
                      int colors, uint64_t seed)
{
    b->g = ps_game_find("samegame");
    assert_non_null(b->g);
    struct ps_gen_options o = {.value = {rows, cols, colors}, /* samegame's gen */
                               .seed = seed};
    char *text = test_generate(b->g, &o);
    b->rules = test_rules(b->g, preset);
    b->inst = test_load(b->g, b->rules, text);
    free(text);
}

static void board_free(struct board *b)
{
    test_release(b->g, b->inst, NULL, b->rules);
}

/* The number after `"key":` in a JSON line (0 when absent). */
static long json_number(const char *line, const char *key)
{
    char pattern[32];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(line, pattern);
    return p ? strtol(p + strlen(pattern), NULL, 10) : 0;
}

/* nrpa level 2 with `iterations` on one thread, --keep-best `keep`, --fit
 * `fit`, --grow `grow`, within `max_nodes` (0: one run), its top-level
 * trace read back from JSON lines. */
static void run_nrpa_grow(const struct board *b, uint64_t seed, int iterations,
                          int keep, int fit, int grow, uint64_t max_nodes,
                          struct restart_run *r)
{
    struct ps_options o;
    ps_options_default(&o);
    o.seed = seed;
    o.threads = 1;
    test_option_int(&o, "level", 2);
    test_option_int(&o, "iterations", iterations);
    test_option_int(&o, "keep-best", keep);
    test_option_int(&o, "fit", fit);
    test_option_int(&o, "grow", grow);
    o.trace = MAX_LEVEL_EVENTS;
    o.trace_format = PS_TRACE_JSONL;
    struct ps_limits lim = {.max_nodes = max_nodes};
    struct ps_search s;
    ps_search_init(&s, b->g, b->inst, &lim, &o);
    char *text = NULL;
    size_t size = 0;
    s.trace.out = open_memstream(&text, &size);
    assert_non_null(s.trace.out);
    r->status = ps_search_run(&s, ps_algorithm_find("nrpa"));
    fclose(s.trace.out);
    r->stop = s.stop;
    assert_true(s.best.found);
    assert_true(s.best.len <= 512);
    r->value = s.best.value;
    r->len = s.best.len;
    if (r->len > 0)
        memcpy(r->moves, s.best.moves, (size_t)r->len * sizeof *r->moves);
    r->playouts = s.stats.playouts;
    r->expanded = s.stats.expanded;
    ps_search_free(&s);

    r->levels = r->runs = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strstr(line, "\"event\":\"level\""))
            continue;
        assert_true(r->levels < MAX_LEVEL_EVENTS);
        if (json_number(line, "iteration") == 1)
            r->run_start[r->runs++] = r->levels;
        r->level_value[r->levels++] = json_number(line, "value");
    }
    free(text);
}

/* The same with runs of a fixed size (--grow 0). */
static void run_nrpa_fit(const struct board *b, uint64_t seed, int iterations,
                         int keep, int fit, uint64_t max_nodes,
                         struct restart_run *r)
{
    run_nrpa_grow(b, seed, iterations, keep, fit, 0, max_nodes, r);
}

/* The same with restarts of `iterations` (--fit 0): what --keep-best is
 * about. */
static void run_nrpa(const struct board *b, uint64_t seed, int iterations,
                     int keep, uint64_t max_nodes, struct restart_run *r)
{
    run_nrpa_fit(b, seed, iterations, keep, 0, max_nodes, r);
}

/* Did the top level's best ever fall, from one iteration to the next (a
 * restart's first iteration included)? */
static bool top_level_fell(const struct restart_run *r)
{
    for (int i = 1; i < r->levels; i++)
        if (r->level_value[i] < r->level_value[i - 1])
            return true;
    return false;
}

/* With --keep-best, every restart goes on from the best line so far: the
 * top level's best never falls, so a restart's first iteration is worth at
 * least the last run's best, and the answer is at least the first run's
 * line (the same seed makes the same first run). Fresh restarts (0) start
 * again from nothing: their top level falls at a restart on some seed,
 * which is what keeping the best avoids. */
static void keep_best_restarts_never_fall_below_the_best(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, NULL, 10, 10, 4, 12);
    int fresh_fell = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct restart_run *first = malloc(sizeof *first);
        struct restart_run *kept = malloc(sizeof *kept);
        struct restart_run *fresh = malloc(sizeof *fresh);
        run_nrpa(&b, seed, 6, 1, 0, first);
        assert_int_equal(first->runs, 1);
        run_nrpa(&b, seed, 6, 1, 12000, kept);
        assert_int_equal(kept->stop, PS_STOP_NODES);
        assert_true(kept->runs >= 4); /* the budget spans several runs */
        assert_false(top_level_fell(kept));
        assert_true(kept->value >= first->value);
        assert_true(kept->value >= kept->level_value[kept->levels - 1]);
        run_nrpa(&b, seed, 6, 0, 12000, fresh);
        assert_true(fresh->runs >= 4);
        fresh_fell += top_level_fell(fresh);
        free(first);
        free(kept);
        free(fresh);
    }
    assert_true(fresh_fell > 0);
    board_free(&b);
}

/* The same seed and budget repeat move for move, playout for playout; and
 * the option changes what the restarts do (against fresh restarts). */
static void keep_best_repeats_for_a_fixed_seed(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, NULL, 10, 10, 4, 7);
    struct restart_run *r1 = malloc(sizeof *r1), *r2 = malloc(sizeof *r2),
                       *fresh = malloc(sizeof *fresh);
    run_nrpa(&b, 5, 6, 3, 15000, r1);
    run_nrpa(&b, 5, 6, 3, 15000, r2);
    assert_int_equal(r1->value, r2->value);
    assert_int_equal(r1->len, r2->len);
    assert_memory_equal(r1->moves, r2->moves, (size_t)r1->len * sizeof *r1->moves);
    assert_int_equal(r1->playouts, r2->playouts);
    assert_int_equal(r1->expanded, r2->expanded);
    assert_int_equal(r1->levels, r2->levels);
    assert_memory_equal(r1->level_value, r2->level_value,
                        (size_t)r1->levels * sizeof *r1->level_value);
    run_nrpa(&b, 5, 6, 0, 15000, fresh);
    assert_true(fresh->levels != r1->levels ||
                memcmp(fresh->level_value, r1->level_value,
                       (size_t)r1->levels * sizeof *r1->level_value) != 0);
    free(r1);
    free(r2);
    free(fresh);
    board_free(&b);
}

/* A line worth the start's upper bound ends a keep-best run under a node
 * budget, optimal (a Clickomania board cleared, a board with no move)
 * long before the budget: restarts do not go on past a proof. */
static void keep_best_run_ends_optimal_at_the_bound(void **state)
{
    (void)state;
    struct board clear, one;
    board_gen(&clear, "clickomania", 8, 8, 3, 4);
    board_gen(&one, NULL, 1, 1, 1, 1);
    struct restart_run *r = malloc(sizeof *r);
    uint64_t budget = 100000000;
    run_nrpa(&clear, 3, 10, 1, budget, r);
    assert_int_equal(r->status, PS_OPTIMAL);
    assert_int_equal(r->value, 64); /* all 64 cells removed */
    assert_true(r->expanded < budget / 10);
    run_nrpa(&one, 3, 10, 1, budget, r);
    assert_int_equal(r->status, PS_OPTIMAL);
    assert_int_equal(r->len, 0);
    assert_true(r->expanded < 10);
    free(r);
    board_free(&clear);
    board_free(&one);
}

/* The top level's iterations in run k of r. */
static int run_length(const struct restart_run *r, int k)
{
    return (k + 1 < r->runs ? r->run_start[k + 1] : r->levels) -
           r->run_start[k];
}

/* --fit 1 (the default) under a node budget: the first run is sized to the
 * budget, so it has more top-level iterations than --iterations, and the
 * budget holds fewer runs than with restarts of --iterations (--fit 0, all
 * but the cut last one exactly that long). The run repeats for a seed, and
 * under a budget too small to grow a run it is the --fit 0 run. */
static void fit_sizes_one_run_to_the_budget(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, NULL, 10, 10, 4, 12);
    struct restart_run *fit = malloc(sizeof *fit), *again = malloc(sizeof *again),
                       *fixed = malloc(sizeof *fixed);
    const uint64_t budget = 40000;
    run_nrpa_fit(&b, 3, 4, 0, 1, budget, fit);
    run_nrpa_fit(&b, 3, 4, 0, 1, budget, again);
    run_nrpa_fit(&b, 3, 4, 0, 0, budget, fixed);
    assert_true(fixed->runs >= 4);
    for (int k = 0; k + 1 < fixed->runs; k++)
        assert_int_equal(run_length(fixed, k), 4);
    /* about 1,500 playouts of about 25 moves: one run of sqrt(1,500) = 38
     * iterations, and a small one in what the estimate left over */
    assert_true(run_length(fit, 0) > 4 * 4);
    assert_true(fit->runs < fixed->runs);
    assert_int_equal(fit->value, again->value);
    assert_int_equal(fit->len, again->len);
    assert_memory_equal(fit->moves, again->moves,
                        (size_t)fit->len * sizeof *fit->moves);
    assert_int_equal(fit->playouts, again->playouts);
    assert_int_equal(fit->levels, again->levels);
    /* A budget that holds no run larger than --iterations: the probe that
     * measured the playouts' cost leaves no trace, the line is --fit 0's. */
    for (uint64_t small = 150; small <= 450; small += 150) {
        run_nrpa_fit(&b, 3, 4, 0, 1, small, fit);
        run_nrpa_fit(&b, 3, 4, 0, 0, small, fixed);
        assert_int_equal(fit->value, fixed->value);
        assert_int_equal(fit->len, fixed->len);
        assert_memory_equal(fit->moves, fixed->moves,
                            (size_t)fit->len * sizeof *fit->moves);
    }
    free(fit);
    free(again);
    free(fixed);
    board_free(&b);
}

/* --grow 1 (the default) under a node budget: one run, whose top level
 * goes on until the budget ends; the run at a larger budget is the run at
 * a smaller one continued (the same top-level trace, but for the smaller
 * run's last iteration, which its budget cut), so its score never falls
 * as the budget grows. --fit 1's runs are sized to the budget, other runs
 * at other budgets: on the same boards and budgets, a larger budget
 * scores lower somewhere. */
static void grow_never_scores_lower_on_a_larger_budget(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, NULL, 10, 10, 4, 12);
    struct restart_run *small = malloc(sizeof *small),
                       *large = malloc(sizeof *large);
    int fit_fell = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        for (uint64_t budget = 4000; budget <= 32000; budget *= 2) {
            run_nrpa_grow(&b, seed, 4, 0, 1, 1, budget, small);
            run_nrpa_grow(&b, seed, 4, 0, 1, 1, 2 * budget, large);
            assert_int_equal(small->runs, 1);
            assert_int_equal(large->runs, 1);
            assert_true(large->levels > small->levels);
            assert_memory_equal(large->level_value, small->level_value,
                                (size_t)(small->levels - 1) *
                                    sizeof *small->level_value);
            assert_true(large->value >= small->value);
            run_nrpa_fit(&b, seed, 4, 0, 1, budget, small);
            run_nrpa_fit(&b, seed, 4, 0, 1, 2 * budget, large);
            fit_fell += large->value < small->value;
        }
    }
    assert_true(fit_fell > 0);
    free(small);
    free(large);
    board_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keep_best_restarts_never_fall_below_the_best),
        cmocka_unit_test(keep_best_repeats_for_a_fixed_seed),
        cmocka_unit_test(keep_best_run_ends_optimal_at_the_bound),
        cmocka_unit_test(fit_sizes_one_run_to_the_budget),
        cmocka_unit_test(grow_never_scores_lower_on_a_larger_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
