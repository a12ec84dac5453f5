/*
 * test_limits.c - the limits hold whatever a position costs: the clock is
 * read by time spent, not by a count of calls; Monte Carlo and beam scratch
 * (NRPA's policies above all) count against --max-memory; a first beam too
 * wide for memory narrows to fit; runs stopped before any playout still
 * answer; the default memory limit follows the cgroup and the rlimits.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "support.h"

#include "memory_limit.h"
#include "replay.h"
#include "rules.h"
#include "search.h"

struct board {
    const struct ps_game *g;
    void *rules;
    void *inst;
};

static void board_gen(struct board *b, int rows, int cols, int colors)
{
    b->g = ps_game_find("samegame");
    assert_non_null(b->g);
    struct ps_gen_options o = {.value = {rows, cols, colors}, /* samegame's gen */
                               .seed = 5};
    char *text = test_generate(b->g, &o);
    b->rules = test_rules(b->g, NULL);
    b->inst = test_load(b->g, b->rules, text);
    free(text);
}

static void board_free(struct board *b)
{
    b->g->free_instance(b->inst);
    free(b->rules);
}

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The answer of a run replays to the value it claims. */
static void assert_replays(const struct board *b, const struct ps_search *s)
{
    unsigned char *final = malloc(b->g->state_size(b->inst));
    struct ps_replay rep;
    struct ps_error err;
    ps_error_clear(&err);
    assert_non_null(final);
    if (!ps_replay_moves(b->g, b->inst, s->best.moves, s->best.len, final, &rep,
                         &err))
        fail_msg("the answer does not replay: %s", err.msg);
    assert_int_equal(rep.value, s->best.value);
    free(final);
}

/* Calls that cost 2 ms each: a fixed "clock every 1024 calls" overshoots a
 * 50 ms limit by two seconds; the adaptive check stops within a few calls. */
static void test_clock_follows_the_cost_of_calls(void **unused)
{
    (void)unused;
    struct board b;
    board_gen(&b, 5, 5, 3);
    struct ps_limits lim = {.seconds = 0.05};
    struct ps_search s;
    ps_search_init(&s, b.g, b.inst, &lim, NULL);
    s.start = s.last_clock = ps_now();
    int calls = 0;
    while (!ps_search_stopped(&s) && calls < 5000) {
        nap_ms(2);
        calls++;
    }
    double took = ps_now() - s.start;
    assert_int_equal(s.stop, PS_STOP_TIME);
    assert_true(took < 0.5);
    assert_true(calls < 200);
    ps_search_free(&s);
    board_free(&b);
}

/* A game whose evaluation costs 3 ms (as playouts on a 32x32 board do):
 * beam must end within its --time, with a complete game. */
static const struct ps_game *slow_inner;
static ps_value slow_evaluate(const void *inst, const void *state)
{
    nap_ms(3);
    return slow_inner->evaluate(inst, state);
}

static void test_beam_keeps_time_when_positions_are_dear(void **unused)
{
    (void)unused;
    struct board b;
    board_gen(&b, 10, 10, 3);
    struct ps_game slow = *b.g;
    slow_inner = b.g;
    slow.evaluate = slow_evaluate;
    slow.evaluate_moves = NULL; /* else beam never calls evaluate */
    struct ps_limits lim = {.seconds = 0.2};
    struct ps_options opt;
    ps_options_default(&opt);
    opt.threads = 1;
    struct ps_search s;
    ps_search_init(&s, &slow, b.inst, &lim, &opt);
    enum ps_status st = ps_search_run(&s, ps_algorithm_find("beam"));
    assert_int_equal(st, PS_INCOMPLETE);
    assert_int_equal(s.stop, PS_STOP_TIME);
    /* 100 positions x ~20 children x 3 ms = 6 s per depth before. */
    assert_true(s.stats.seconds < 1.0);
    assert_true(s.best.found); /* the best line so far, played out */
    b.g = &slow;
    assert_replays(&b, &s);
    b.g = slow_inner;
    ps_search_free(&s);
    board_free(&b);
}

static struct ps_search run_algo(const struct board *b, const char *algo,
                                 const struct ps_limits *lim, int threads,
                                 int width)
{
    struct ps_options opt;
    ps_options_default(&opt);
    opt.threads = threads;
    if (width)
        test_option_int(&opt, "beam-width", width);
    struct ps_search s;
    ps_search_init(&s, b->g, b->inst, lim, &opt);
    ps_search_run(&s, ps_algorithm_find(algo));
    return s;
}

/* NRPA's policies (a weight per move code and level) are counted: on a
 * 32x32 board they are megabytes, not 0 bytes. */
static void test_nrpa_policies_count_against_memory(void **unused)
{
    (void)unused;
    struct board b;
    board_gen(&b, 32, 32, 9);
    struct ps_limits lim = {.max_nodes = 3000, .max_memory = 50u << 20};
    struct ps_search s = run_algo(&b, "nrpa", &lim, 2, 0);
    assert_true(s.best.found);
    /* 4 policies of 9 x 1024 x 4 codes (8 bytes each) per thread, at least */
    assert_true(s.stats.peak_memory >= 2u * 4u * 9u * 1024u * 4u * 8u);
    assert_true(s.stats.peak_memory <= lim.max_memory);
    ps_search_free(&s);
    /* Too little for even one thread's policies: a memory stop, and the
     * empty line as the answer rather than none. */
    lim.max_memory = 1u << 20;
    s = run_algo(&b, "nrpa", &lim, 2, 0);
    assert_int_equal(s.stop, PS_STOP_MEMORY);
    assert_true(s.stats.peak_memory <= lim.max_memory);
    assert_true(s.best.found);
    assert_int_equal(s.best.len, 0);
    ps_search_free(&s);
    board_free(&b);
}

/* A limit that holds the policies of a few threads, not of 16: fewer
 * threads run (the note says how many) instead of none getting enough. */
static void test_fewer_threads_when_memory_is_short(void **unused)
{
    (void)unused;
    struct board b;
    board_gen(&b, 32, 32, 9);
    struct ps_limits lim = {.max_nodes = 20000, .max_memory = 3u << 20};
    struct ps_search s = run_algo(&b, "nrpa", &lim, 16, 0);
    assert_true(s.best.found);
    assert_true(s.best.len > 0);
    assert_null(strstr(s.note, "16 threads"));
    assert_true(s.stats.peak_memory <= lim.max_memory);
    ps_search_free(&s);
    board_free(&b);
}

/* Each Monte Carlo thread's scratch counts too, and the total stays within
 * the limit however many threads share it. */
static void test_monte_carlo_threads_share_the_memory_limit(void **unused)
{
    (void)unused;
    struct board b;
    board_gen(&b, 15, 15, 5);
    struct ps_limits lim = {.max_nodes = 2000, .max_memory = 1u << 20};
    const char *algos[] = {"mc", "nmcs", "nrpa"};
    for (int i = 0; i < 3; i++) {
        struct ps_search s = run_algo(&b, algos[i], &lim, 4, 0);
        assert_true(s.stats.peak_memory > 0);
        assert_true(s.stats.peak_memory <= lim.max_memory);
        assert_true(s.best.found);
        ps_search_free(&s);
    }
    board_free(&b);
}

/* A first beam wider than --max-memory allows is narrowed until it fits:
 * an answer, not "no solution", and the same answer every time. */
static void test_first_beam_narrows_to_fit(void **unused)
{
    (void)unused;
    struct board b;
    board_gen(&b, 10, 10, 4);
    struct ps_limits lim = {.max_memory = 4u << 20};
    struct ps_search s = run_algo(&b, "beam", &lim, 1, 1000000);
    assert_true(s.best.found);
    assert_int_equal(s.stop, PS_STOP_NONE);
    assert_non_null(strstr(s.note, "narrowed to fit --max-memory"));
    assert_true(s.stats.peak_memory <= lim.max_memory);
    assert_replays(&b, &s);
    ps_value first = s.best.value;
    ps_search_free(&s);
    s = run_algo(&b, "beam", &lim, 2, 1000000);
    assert_int_equal(s.best.value, first);
    ps_search_free(&s);
    board_free(&b);
}

/* mc and nmcs with a node budget of 1 (shared by two threads): the empty
 * line is a legal answer of a score game, so there is one. */
static void test_one_node_still_answers(void **unused)
{
    (void)unused;
    struct board b;
    board_gen(&b, 3, 3, 3);
    struct ps_limits lim = {.max_nodes = 1};
    const char *algos[] = {"mc", "nmcs"};
    for (int i = 0; i < 2; i++) {
        struct ps_search s = run_algo(&b, algos[i], &lim, 2, 0);
        assert_true(s.best.found);
        assert_replays(&b, &s);
        ps_search_free(&s);
    }
    board_free(&b);
}

static void make_dirs(const char *root, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    mkdir(path, 0755);
}

/* The cgroup limit of this process: v2 (its own cgroup or an ancestor,
 * "max" meaning none), hybrid (v2 under unified/), v1. */
static void test_cgroup_memory_limit(void **state)
{
    const char *root = ((struct test_dir *)*state)->dir;
    char rel[256];
    make_dirs(root, "proc/self");
    make_dirs(root, "sys/fs/cgroup/a/b");
    test_write_file(root, "proc/self/cgroup", "0::/a/b\n");
    assert_true(ps_cgroup_memory_limit(root) == UINT64_MAX);
    test_write_file(root, "sys/fs/cgroup/a/b/memory.max", "max\n");
    test_write_file(root, "sys/fs/cgroup/a/memory.max", "104857600\n");
    assert_true(ps_cgroup_memory_limit(root) == 104857600u);
    test_write_file(root, "sys/fs/cgroup/a/b/memory.max", "52428800\n");
    assert_true(ps_cgroup_memory_limit(root) == 52428800u);
    /* hybrid: v2 beside v1, both limited; the smaller wins */
    snprintf(rel, sizeof rel, "sys/fs/cgroup/unified/c");
    make_dirs(root, rel);
    make_dirs(root, "sys/fs/cgroup/memory/m");
    test_write_file(root, "proc/self/cgroup",
                    "4:memory:/m\n1:cpu:/\n0::/c\n");
    test_write_file(root, "sys/fs/cgroup/unified/c/memory.max", "41943040\n");
    assert_true(ps_cgroup_memory_limit(root) == 41943040u);
    test_write_file(root, "sys/fs/cgroup/memory/m/memory.limit_in_bytes",
                    "31457280\n");
    assert_true(ps_cgroup_memory_limit(root) == 31457280u);
}

/* The bytes of data the process maps now (VmData), 0 if unknown. Under
 * AddressSanitizer it is the shadow memory, about 15 TiB. */
static uint64_t data_mapped_now(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    unsigned long long kb = 0;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmData: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (uint64_t)kb << 10;
}

/* RLIMIT_DATA lowers the default (in a child: the limit stays there). The
 * limit set is below physical memory, so a ps_memory_limit that ignored
 * RLIMIT_DATA would answer more; and above what is mapped already, or the
 * child could allocate nothing more (ASan's shadow counts as data, about
 * 15 TiB: there no such limit exists and the test is skipped). */
static void test_rlimit_lowers_the_memory_limit(void **unused)
{
    (void)unused;
    uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) *
                    (uint64_t)sysconf(_SC_PAGESIZE);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl, as;
        getrlimit(RLIMIT_DATA, &rl);
        getrlimit(RLIMIT_AS, &as);
        uint64_t want = data_mapped_now() + ((uint64_t)1 << 30);
        if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want)
            want = rl.rlim_cur;
        if (want >= phys)
            _exit(3);
        rl.rlim_cur = (rlim_t)want;
        if (setrlimit(RLIMIT_DATA, &rl) != 0)
            _exit(2);
        /* The smallest of the four wins; here RLIMIT_DATA, unless the
         * cgroup or RLIMIT_AS is smaller still. */
        uint64_t expect = want;
        uint64_t cg = ps_cgroup_memory_limit("");
        if (cg < expect)
            expect = cg;
        if (as.rlim_cur != RLIM_INFINITY && (uint64_t)as.rlim_cur < expect)
            expect = as.rlim_cur;
        _exit(ps_memory_limit() == expect ? 0 : 1);
    }
    int st;
    assert_true(waitpid(pid, &st, 0) == pid);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 3)
        skip(); /* more is mapped than there is memory (ASan) */
    assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_follows_the_cost_of_calls),
        cmocka_unit_test(test_beam_keeps_time_when_positions_are_dear),
        cmocka_unit_test(test_nrpa_policies_count_against_memory),
        cmocka_unit_test(test_fewer_threads_when_memory_is_short),
        cmocka_unit_test(test_monte_carlo_threads_share_the_memory_limit),
        cmocka_unit_test(test_first_beam_narrows_to_fit),
        cmocka_unit_test(test_one_node_still_answers),
        cmocka_unit_test(test_cgroup_memory_limit),
        cmocka_unit_test(test_rlimit_lowers_the_memory_limit),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
