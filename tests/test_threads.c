/*
 * test_threads.c - the one thread fan-out (kernel/threads.h) and its users
 * when threads cannot be started: this test is linked with
 * -Wl,--wrap=pthread_create, so it decides how many starts succeed. Every
 * task must run exactly once (on the calling thread when its thread did not
 * start), and the Monte Carlo workers, beam's slices and a lab's --jobs
 * must give the same answer as when every thread starts.
 */
#include "support.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "lab.h"
#include "search.h"
#include "threads.h"

/* ---- the hook: how many more pthread_create calls succeed ---- */

static atomic_int starts_left = -1; /* -1: all of them */
static atomic_int starts_tried;

int __real_pthread_create(pthread_t *t, const pthread_attr_t *attr,
                          void *(*fn)(void *), void *arg);

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr,
                          void *(*fn)(void *), void *arg)
{
    atomic_fetch_add(&starts_tried, 1);
    int left = atomic_load(&starts_left);
    if (left == 0)
        return EAGAIN;
    if (left > 0)
        atomic_fetch_sub(&starts_left, 1);
    return __real_pthread_create(t, attr, fn, arg);
}

/* Let `n` more starts succeed (-1: all), and count the tries afresh. */
static void allow_starts(int n)
{
    atomic_store(&starts_left, n);
    atomic_store(&starts_tried, 0);
}

/* ---- the fan-out itself ---- */

struct task {
    atomic_int runs;
    bool on_caller;
    int order; /* when it ran on the caller: its place among those */
};

static pthread_t caller;
static int caller_runs;

static void note_task(void *arg)
{
    struct task *t = arg;
    atomic_fetch_add(&t->runs, 1);
    t->on_caller = pthread_equal(pthread_self(), caller);
    if (t->on_caller)
        t->order = caller_runs++;
}

/* n tasks with `allowed` starts: the first `allowed` on threads, the rest
 * on this thread at the join, in index order, each exactly once. */
static void check_fan_out(int n, int allowed)
{
    struct task tasks[8];
    memset(tasks, 0, sizeof tasks);
    caller = pthread_self();
    caller_runs = 0;
    allow_starts(allowed);
    struct ps_threads fan;
    ps_threads_start(&fan, n, note_task, tasks, sizeof tasks[0]);
    int started = allowed < 0 || allowed > n ? n : allowed;
    assert_int_equal(ps_threads_started(&fan), started);
    /* Nothing runs on the caller before the join. */
    assert_int_equal(caller_runs, 0);
    ps_threads_join(&fan);
    allow_starts(-1);
    for (int i = 0; i < n; i++) {
        assert_int_equal(atomic_load(&tasks[i].runs), 1);
        assert_int_equal(tasks[i].on_caller, i >= started);
        if (i >= started)
            assert_int_equal(tasks[i].order, i - started);
    }
    assert_int_equal(caller_runs, n - started);
}

static void every_task_runs_once(void **state)
{
    (void)state;
    check_fan_out(5, -1); /* all start */
    check_fan_out(5, 2);  /* the third start fails */
    check_fan_out(5, 0);  /* none starts */
    check_fan_out(1, 0);
    check_fan_out(0, -1); /* no task */
}

static atomic_int shared_runs;

static void count_shared(void *arg)
{
    assert_ptr_equal(arg, &shared_runs);
    atomic_fetch_add(&shared_runs, 1);
}

/* Stride 0: every task gets the same argument (a lab's pool). */
static void stride_zero_shares_the_argument(void **state)
{
    (void)state;
    atomic_store(&shared_runs, 0);
    allow_starts(1);
    struct ps_threads fan;
    ps_threads_start(&fan, 4, count_shared, &shared_runs, 0);
    assert_int_equal(ps_threads_started(&fan), 1);
    ps_threads_join(&fan);
    allow_starts(-1);
    assert_int_equal(atomic_load(&shared_runs), 4);
}

/* ---- its users ---- */

struct answer {
    ps_value value;
    int len;
    ps_move moves[256];
    uint64_t expanded, playouts;
    enum ps_status status;
    int tried; /* thread starts tried */
};

static const char *const board7 = "3332311\n2434443\n3412112\n2322124\n"
                                  "4414223\n1142211\n2322334\n";

/* algo on the 7x7 board with `threads` threads and a node budget, with
 * `allowed` thread starts succeeding. */
static void solve(const char *algo, int threads, int allowed,
                  struct answer *a)
{
    const struct ps_game *g = ps_game_find("samegame");
    assert_non_null(g);
    void *rules = test_rules(g, NULL);
    void *inst = test_load(g, rules, board7);
    struct ps_options o;
    ps_options_default(&o);
    o.seed = 7;
    o.threads = threads;
    struct ps_limits lim = {.max_nodes = 60000};
    struct ps_search s;
    ps_search_init(&s, g, inst, &lim, &o);
    allow_starts(allowed);
    a->status = ps_search_run(&s, ps_algorithm_find(algo));
    a->tried = atomic_load(&starts_tried);
    allow_starts(-1);
    assert_true(s.best.found);
    assert_true(s.best.len <= 256);
    a->value = s.best.value;
    a->len = s.best.len;
    memcpy(a->moves, s.best.moves, (size_t)s.best.len * sizeof *a->moves);
    a->expanded = s.stats.expanded;
    a->playouts = s.stats.playouts;
    ps_search_free(&s);
    g->free_instance(inst);
    free(rules);
}

static void same_answer(const struct answer *a, const struct answer *b)
{
    assert_int_equal(a->status, b->status);
    assert_int_equal(a->value, b->value);
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->moves, b->moves, (size_t)a->len * sizeof *a->moves);
    assert_int_equal(a->expanded, b->expanded);
    assert_int_equal(a->playouts, b->playouts);
}

/* Each Monte Carlo worker has its share of the node budget and its own
 * stream, so the workers that could not start, run afterwards on the
 * calling thread, give the answer and the counts of a run where all did. */
static void monte_carlo_workers_all_run(void **state)
{
    (void)state;
    static const char *const algos[] = {"nmcs", "nrpa", "mc"};
    for (size_t k = 0; k < sizeof algos / sizeof *algos; k++) {
        struct answer all, some, none;
        solve(algos[k], 3, -1, &all);
        solve(algos[k], 3, 1, &some);
        solve(algos[k], 3, 0, &none);
        assert_int_equal(all.tried, 3);
        assert_int_equal(some.tried, 2); /* one start, then a failure */
        assert_int_equal(none.tried, 1);
        same_answer(&all, &some);
        same_answer(&all, &none);
    }
}

/* Beam's answer does not depend on the thread count, nor on how many of
 * its slices' threads start. */
static void beam_slices_all_run(void **state)
{
    (void)state;
    struct answer one, all, some, none;
    solve("beam", 1, -1, &one);
    solve("beam", 4, -1, &all);
    solve("beam", 4, 1, &some);
    solve("beam", 4, 0, &none);
    assert_int_equal(one.tried, 0);
    assert_true(all.tried > 0 && some.tried > 0 && none.tried > 0);
    same_answer(&one, &all);
    same_answer(&one, &some);
    same_answer(&one, &none);
}

/* A lab's rows (3 puzzles x 2 algorithms), with `jobs` workers of which
 * `allowed` start. */
static void lab_rows(int jobs, int allowed, struct ps_lab_row out[6])
{
    const struct ps_game *g = ps_game_find("npuzzle");
    assert_non_null(g);
    void *rules = test_rules(g, NULL);
    struct ps_lab_setup setup = {.game = g, .rules = rules,
                                 .rules_name = "default", .nalgos = 2};
    setup.algos[0] = ps_algorithm_find("astar");
    setup.algos[1] = ps_algorithm_find("idastar");
    ps_options_default(&setup.opt);
    static const char *const paths[] = {
        PSOLVE_SOURCE_DIR "/games/npuzzle/examples/8-hardest.txt",
        PSOLVE_SOURCE_DIR "/games/npuzzle/examples/3x3-goal.txt",
        PSOLVE_SOURCE_DIR "/games/npuzzle/examples/8-unsolvable.txt",
    };
    struct ps_lab_layout lay;
    ps_lab_layout_init(&lay, PS_LAB_CSV, g, paths, 3);
    FILE *null = fopen("/dev/null", "w");
    assert_non_null(null);
    struct ps_lab_row *rows;
    int nrows;
    allow_starts(allowed);
    int status = ps_lab_run(null, &lay, &setup, paths, 3, jobs, &rows, &nrows);
    allow_starts(-1);
    fclose(null);
    assert_int_equal(status, 0);
    assert_int_equal(nrows, 6);
    memcpy(out, rows, 6 * sizeof *rows);
    free(rows);
    free(rules);
}

static void same_rows(const struct ps_lab_row *a, const struct ps_lab_row *b)
{
    for (int i = 0; i < 6; i++) {
        assert_string_equal(a[i].puzzle, b[i].puzzle);
        assert_string_equal(a[i].algo, b[i].algo);
        assert_int_equal(a[i].status, b[i].status);
        assert_int_equal(a[i].found, b[i].found);
        assert_int_equal(a[i].verified, b[i].verified);
        assert_int_equal(a[i].value, b[i].value);
        assert_int_equal(a[i].len, b[i].len);
        assert_int_equal(a[i].stats.expanded, b[i].stats.expanded);
        assert_int_equal(a[i].stats.generated, b[i].stats.generated);
    }
}

/* The puzzles of a lab whose workers do not all start are run all the same
 * (by the printer itself when none starts). */
static void lab_puzzles_all_run(void **state)
{
    (void)state;
    static struct ps_lab_row one[6], all[6], some[6], none[6];
    lab_rows(1, -1, one);
    lab_rows(3, -1, all);
    lab_rows(3, 1, some);
    lab_rows(3, 0, none);
    same_rows(one, all);
    same_rows(one, some);
    same_rows(one, none);
    assert_int_equal(one[0].status, PS_OPTIMAL);
    assert_int_equal(one[4].status, PS_UNSOLVABLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_task_runs_once),
        cmocka_unit_test(stride_zero_shares_the_argument),
        cmocka_unit_test(monte_carlo_workers_all_run),
        cmocka_unit_test(beam_slices_all_run),
        cmocka_unit_test(lab_puzzles_all_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
