/*
 * test_montecarlo.c - the Monte Carlo family (mc, nmcs, nrpa) and beam on tiny
 * SameGame boards whose optimum the test finds by brute force, plus the
 * playout policies, repeatability, verification and the node limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "beam.h"
#include "game.h"
#include "playout.h"
#include "replay.h"
#include "rules.h"
#include "search.h"
#include "support.h"

struct board {
    const struct ps_game *g;
    void *rules;
    void *inst;
};

static void board_load(struct board *b, const char *preset, const char *text)
{
    struct ps_error err;
    ps_error_clear(&err);
    b->g = ps_game_find("samegame");
    assert_non_null(b->g);
    b->rules = malloc(b->g->rules_size);
    assert_non_null(b->rules);
    assert_true(ps_rules_preset(b->g, b->rules, preset, &err));
    b->inst = b->g->load(b->rules, "(test)", text, strlen(text), &err);
    if (!b->inst)
        fail_msg("load: %s", err.msg);
}

/* A generated board of rows x cols with k colours. */
static void board_gen(struct board *b, const char *preset, int rows, int cols,
                      int colors, uint64_t seed)
{
    const struct ps_game *g = ps_game_find("samegame");
    struct ps_gen_options o = {.value = {rows, cols, colors}, /* samegame's gen */
                               .seed = seed};
    char *text = test_generate(g, &o);
    board_load(b, preset, text);
    free(text);
}

static void board_free(struct board *b)
{
    b->g->free_instance(b->inst);
    free(b->rules);
}

/* The optimum by exhaustive search over every line of play. */
static ps_value brute_force(const struct ps_game *g, const void *inst,
                            const void *state)
{
    int nmax = g->max_moves(inst);
    size_t size = g->state_size(inst);
    ps_move *moves = malloc((size_t)nmax * sizeof *moves);
    unsigned char *child = malloc(size);
    int n = g->moves(inst, state, moves, NULL);
    ps_value best = g->end_value(inst, state);
    for (int i = 0; i < n; i++) {
        ps_value v = g->apply(inst, state, moves[i], child);
        v += brute_force(g, inst, child);
        if (i == 0 || v > best)
            best = v;
    }
    free(moves);
    free(child);
    return best;
}

static ps_value optimum(const struct board *b)
{
    unsigned char *start = malloc(b->g->state_size(b->inst));
    b->g->initial_state(b->inst, start);
    ps_value v = brute_force(b->g, b->inst, start);
    free(start);
    return v;
}

struct result {
    enum ps_status status;
    enum ps_stop_reason stop;
    ps_value value;
    int len;
    ps_move moves[1024];
    uint64_t expanded, generated, playouts;
    double seconds;
};

/* Run algorithm `name` and check that its answer replays to its value. */
static void run(const struct board *b, const char *name,
                const struct ps_options *opt, const struct ps_limits *lim,
                struct result *r)
{
    const struct ps_algorithm *a = ps_algorithm_find(name);
    assert_non_null(a);
    struct ps_search s;
    ps_search_init(&s, b->g, b->inst, lim, opt);
    r->status = ps_search_run(&s, a);
    r->stop = s.stop;
    assert_true(s.best.found);
    assert_true(s.best.len <= 1024);
    r->value = s.best.value;
    r->len = s.best.len;
    if (s.best.len > 0)
        memcpy(r->moves, s.best.moves, (size_t)s.best.len * sizeof *r->moves);
    r->expanded = s.stats.expanded;
    r->generated = s.stats.generated;
    r->playouts = s.stats.playouts;
    r->seconds = s.stats.seconds;
    ps_search_free(&s);

    unsigned char *final = malloc(b->g->state_size(b->inst));
    struct ps_replay rep;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_replay_moves(b->g, b->inst, r->moves, r->len, final, &rep, &err))
        fail_msg("%s: the answer does not replay: %s", name, err.msg);
    free(final);
    assert_int_equal(rep.value, r->value);
    if (r->status == PS_OPTIMAL) {
        /* Only a complete game worth the start's upper bound is proven. */
        assert_int_equal(r->stop, PS_STOP_NONE);
        assert_true(rep.over);
        unsigned char *start = malloc(b->g->state_size(b->inst));
        b->g->initial_state(b->inst, start);
        assert_int_equal(r->value, b->g->upper_bound(b->inst, start));
        free(start);
    } else if (r->stop == PS_STOP_NONE) {
        assert_true(rep.over); /* a finished run returns a finished game */
        assert_int_equal(r->status, PS_HEURISTIC);
    } else {
        assert_int_equal(r->status, PS_INCOMPLETE);
    }
}

static struct ps_options options(uint64_t seed, int threads)
{
    struct ps_options o;
    ps_options_default(&o);
    o.seed = seed;
    o.threads = threads;
    return o;
}

/* Run `algo` with options `o` (seed set per board) on 4x4 boards with 3
 * colours, seeds 1..8, and demand the brute-force optimum on each. */
static void finds_the_optimum(const char *algo, struct ps_options o)
{
    for (uint64_t seed = 1; seed <= 8; seed++) {
        struct board b;
        board_gen(&b, NULL, 4, 4, 3, seed);
        ps_value best = optimum(&b);
        o.seed = seed;
        struct result r;
        run(&b, algo, &o, NULL, &r);
        if (r.value != best)
            fail_msg("board seed %llu: %s scored %lld, optimum %lld",
                     (unsigned long long)seed, algo, (long long)r.value,
                     (long long)best);
        board_free(&b);
    }
}

/* With uniform playouts (every line possible); the tabu policy can miss the
 * optimum of tiny boards by design (a 4x5 board, seed 4: 1014 instead of
 * 1026). Level 1 fails on seed 6 (65 instead of 1034). */
static void nmcs_level2_finds_the_optimum(void **state)
{
    (void)state;
    struct ps_options o = options(1, 1);
    test_option_int(&o, "level", 2);
    o.policy = "uniform";
    finds_the_optimum("nmcs", o);
}

/* A beam wider than any depth's set of positions is an exhaustive
 * breadth-first search, so it must find the optimum. */
static void wide_beam_finds_the_optimum(void **state)
{
    (void)state;
    struct ps_options o = options(1, 1);
    test_option_int(&o, "beam-width", 100000);
    finds_the_optimum("beam", o);
}

/* The same with each position judged by a uniform playout: the playouts'
 * own lines are offered too, and every answer must replay (run() checks). */
static void wide_beam_with_playouts_finds_the_optimum(void **state)
{
    (void)state;
    struct ps_options o = options(1, 1);
    test_option_int(&o, "beam-width", 100000);
    test_option(&o, "beam-eval", "playout");
    o.policy = "uniform";
    finds_the_optimum("beam", o);
}

/* Beam search as plainly as it can be written: all children, one full
 * sort by (key, parent, move), the first `width` distinct ones kept. Returns
 * the best finished game it meets. psolve's beam ranks only the best part of
 * the candidates and spreads the work over threads; it must agree. */
struct ref_node {
    ps_value key, g;
    uint64_t hash;
    int parent;
    ps_move move;
};

static int ref_order(const void *pa, const void *pb)
{
    const struct ref_node *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    if (a->parent != b->parent)
        return a->parent < b->parent ? -1 : 1;
    return a->move < b->move ? -1 : a->move > b->move;
}

static ps_value reference_beam(const struct board *b, int width)
{
    const struct ps_game *g = b->g;
    size_t size = g->state_size(b->inst);
    int nmax = g->max_moves(b->inst);
    unsigned char *cur = malloc((size_t)width * size);
    unsigned char *next = malloc((size_t)width * size);
    unsigned char *tmp = malloc(size);
    ps_value *gs = malloc((size_t)width * sizeof *gs);
    struct ref_node *cand = malloc((size_t)width * (size_t)nmax * sizeof *cand);
    uint64_t *kept_hash = malloc((size_t)width * sizeof *kept_hash);
    ps_move *moves = malloc((size_t)nmax * sizeof *moves);
    g->initial_state(b->inst, cur);
    gs[0] = 0;
    int count = 1;
    ps_value best = INT64_MIN;
    while (count > 0) {
        int nc = 0;
        for (int i = 0; i < count; i++) {
            unsigned char *st = cur + (size_t)i * size;
            int n = g->moves(b->inst, st, moves, NULL);
            if (n == 0 && gs[i] + g->end_value(b->inst, st) > best)
                best = gs[i] + g->end_value(b->inst, st);
            for (int k = 0; k < n; k++) {
                struct ref_node *c = &cand[nc++];
                c->g = gs[i] + g->apply(b->inst, st, moves[k], tmp);
                c->key = c->g + g->evaluate(b->inst, tmp);
                c->hash = g->hash(b->inst, tmp);
                c->parent = i;
                c->move = moves[k];
            }
        }
        qsort(cand, (size_t)nc, sizeof *cand, ref_order);
        int kept = 0;
        for (int k = 0; k < nc && kept < width; k++) {
            bool dup = false;
            for (int j = 0; j < kept && !dup; j++)
                dup = (kept_hash[j] | 1) == (cand[k].hash | 1);
            if (dup)
                continue;
            kept_hash[kept] = cand[k].hash;
            g->apply(b->inst, cur + (size_t)cand[k].parent * size,
                     cand[k].move, next + (size_t)kept * size);
            gs[kept++] = cand[k].g;
        }
        unsigned char *t = cur;
        cur = next;
        next = t;
        count = kept;
    }
    free(cur);
    free(next);
    free(tmp);
    free(gs);
    free(cand);
    free(kept_hash);
    free(moves);
    return best;
}

static void beam_matches_the_plain_beam(void **state)
{
    (void)state;
    static const int widths[] = {1, 7, 40, 150};
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct board b;
        board_gen(&b, "popstar", 8, 8, 4, seed);
        for (int w = 0; w < 4; w++) {
            struct ps_options o = options(seed, 1);
            test_option_int(&o, "beam-width", widths[w]);
            struct result r;
            run(&b, "beam", &o, NULL, &r);
            ps_value want = reference_beam(&b, widths[w]);
            if (r.value != want)
                fail_msg("seed %llu width %d: beam %lld, plain beam %lld",
                         (unsigned long long)seed, widths[w],
                         (long long)r.value, (long long)want);
        }
        board_free(&b);
    }
}

/* Nothing can beat the optimum, and every answer is a legal finished game. */
static void answers_verify_and_never_beat_the_optimum(void **state)
{
    (void)state;
    static const char *const algos[] = {"mc", "nmcs", "nrpa", "beam"};
    static const char *const presets[] = {"samegame", "popstar"};
    for (int p = 0; p < 2; p++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            struct board b;
            board_gen(&b, presets[p], 4, 4, 3, seed);
            ps_value best = optimum(&b);
            for (int a = 0; a < 4; a++) {
                struct ps_options o = options(seed, 1);
                test_option_int(&o, "rollouts", 5);
                test_option_int(&o, "level", 1);
                test_option_int(&o, "iterations", 10);
                test_option_int(&o, "beam-width", 3);
                struct result r;
                run(&b, algos[a], &o, NULL, &r);
                assert_true(r.value <= best);
            }
            board_free(&b);
        }
}

static void same_result(const struct result *a, const struct result *b)
{
    assert_int_equal(a->value, b->value);
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->moves, b->moves, (size_t)a->len * sizeof *a->moves);
    assert_int_equal(a->playouts, b->playouts);
}

/* Beam splits each depth among threads; the answer must not depend on how
 * many, with either evaluation, with or without a node limit. */
static void beam_answer_does_not_depend_on_threads(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, "popstar", 10, 10, 5, 4);
    for (int playout = 0; playout <= 1; playout++)
        for (int limited = 0; limited <= 1; limited++) {
            struct ps_limits lim = {.max_nodes = limited ? 3000 : 0};
            struct result r1;
            for (int threads = 1; threads <= 3; threads++) {
                struct ps_options o = options(3, threads);
                test_option_int(&o, "beam-width", 300);
                test_option(&o, "beam-eval", playout ? "playout" : "game");
                struct result r;
                run(&b, "beam", &o, &lim, threads == 1 ? &r1 : &r);
                if (threads > 1)
                    same_result(&r1, &r);
            }
            if (limited)
                assert_int_equal(r1.stop, PS_STOP_NODES);
        }
    board_free(&b);
}

/* Same seed, same thread count: the same answer, move for move. */
static void fixed_seed_repeats(void **state)
{
    (void)state;
    static const char *const algos[] = {"mc", "nmcs", "nrpa"};
    struct board b;
    board_gen(&b, "popstar", 7, 7, 4, 11);
    for (int threads = 1; threads <= 2; threads++)
        for (int a = 0; a < 3; a++) {
            struct ps_options o = options(42, threads);
            test_option_int(&o, "rollouts", 10);
            test_option_int(&o, "level", 2);
            test_option_int(&o, "iterations", 10);
            struct result r1, r2;
            run(&b, algos[a], &o, NULL, &r1);
            run(&b, algos[a], &o, NULL, &r2);
            same_result(&r1, &r2);
            /* Every playout move makes a child: the counters agree with
             * the table's (serve showed nrpa's "generated 0"). */
            assert_true(r1.generated > 0);
            assert_true(r1.generated + r1.playouts >= r1.expanded);
        }
    board_free(&b);
}

/* --max-nodes stops a long run; the best so far is kept and verifies, and
 * the same limit repeats the same answer. */
static void node_limit_stops_and_keeps_the_best(void **state)
{
    (void)state;
    static const char *const algos[] = {"mc", "nmcs", "nrpa", "beam"};
    struct board b;
    board_gen(&b, NULL, 15, 15, 5, 3);
    for (int a = 0; a < 4; a++) {
        struct ps_options o = options(7, 1);
        test_option_int(&o, "level", 3);
        test_option_int(&o, "iterations", 100);
        struct ps_limits lim = {.max_nodes = 20000};
        struct result r1, r2;
        test_option_int(&o, "beam-width", 1000);
        run(&b, algos[a], &o, &lim, &r1);
        assert_int_equal(r1.stop, PS_STOP_NODES);
        /* The check runs between playouts: at most one playout over. */
        assert_true(r1.expanded >= lim.max_nodes);
        assert_true(r1.expanded < lim.max_nodes + 300);
        run(&b, algos[a], &o, &lim, &r2);
        same_result(&r1, &r2);
    }
    board_free(&b);
}

/* A Monte Carlo run nested in another (dfs's nrpa slices, through
 * ps_search_nest) goes on with its caller's counts: its --max-nodes is the
 * caller's count plus the slice, and the caller's count after it is the
 * two together. Its workers count from 0; the run's count was once set to
 * theirs alone, so a dfs that ran slices reported (and budgeted) fewer
 * nodes than it had expanded. */
static void nested_run_keeps_the_callers_counts(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, NULL, 15, 15, 5, 3);
    for (int threads = 1; threads <= 2; threads++) {
        struct ps_options o = options(7, threads);
        struct ps_search s, sub;
        ps_search_init(&s, b.g, b.inst, NULL, &o);
        s.start = ps_now();
        s.stats.expanded = 1000000;
        s.stats.playouts = 700;
        const struct ps_algorithm *nrpa = ps_algorithm_find("nrpa");
        ps_search_nest(&sub, &s, nrpa);
        sub.limits.max_nodes = 1000000 + 20000;
        nrpa->run(&sub);
        assert_int_equal(sub.stop, PS_STOP_NODES);
        ps_search_unnest(&s, &sub);
        /* each worker stops within a playout of its share; a playout here
         * is some 50-80 nodes, so 20,000 nodes are a few hundred (once the
         * workers shared all 1,020,000 out, with over 10,000 playouts,
         * and the count ended right by losing the caller's) */
        if (s.stats.expanded < 1020000 ||
            s.stats.expanded >= 1020000 + 300 * (uint64_t)threads ||
            s.stats.playouts <= 700 || s.stats.playouts > 700 + 1000)
            fail_msg("%d threads: %llu expanded, %llu playouts", threads,
                     (unsigned long long)s.stats.expanded,
                     (unsigned long long)s.stats.playouts);
        ps_search_free(&s);
    }
    board_free(&b);
}

/* An anytime run ends as soon as its answer is proven: on a board with no
 * move (1x1), and on a Clickomania board once it is cleared (the best
 * possible). Each takes milliseconds; a run that did not stop would use its
 * whole 30 s (the bound of 15 s is generous for a loaded machine). */
static void proven_answer_ends_the_run(void **state)
{
    (void)state;
    static const char *const algos[] = {"mc", "nmcs", "nrpa", "beam"};
    struct board one, clear;
    board_load(&one, NULL, "1\n");
    board_gen(&clear, "clickomania", 8, 8, 3, 4);
    for (int a = 0; a < 4; a++) {
        struct ps_options o = options(3, 2);
        struct ps_limits lim = {.seconds = 30};
        struct result r;
        run(&one, algos[a], &o, &lim, &r);
        assert_int_equal(r.status, PS_OPTIMAL);
        assert_int_equal(r.len, 0);
        assert_true(r.seconds < 15);
        run(&clear, algos[a], &o, &lim, &r);
        assert_int_equal(r.status, PS_OPTIMAL);
        assert_int_equal(r.value, 64); /* all 64 cells removed */
        assert_true(r.seconds < 15);
    }
    board_free(&one);
    board_free(&clear);
}

/* Clearing objectives: beam's dfs first (opt.beam_dfs nodes) clears a
 * board that a beam of width 1 alone leaves with 4 cells, and the run ends
 * proven, for 1 and 2 threads; with the option 0 the beam is on its own.
 * A score objective never runs the dfs: the default and 0 agree move for
 * move and node for node. */
static void beam_dfs_first_clears_and_proves(void **state)
{
    (void)state;
    struct board b;
    board_load(&b, "clickomania",
               "12122\n21231\n13232\n12313\n33222\n");
    const struct ps_algorithm *beam = ps_algorithm_find("beam");
    for (int threads = 1; threads <= 2; threads++)
        for (int dfs = 0; dfs <= 1; dfs++) {
            struct ps_options o = options(5, threads);
            test_option_int(&o, "beam-width", 1);
            test_option_int(&o, "beam-dfs", dfs ? 20000 : 0);
            struct ps_search s;
            ps_search_init(&s, b.g, b.inst, NULL, &o);
            enum ps_status st = ps_search_run(&s, beam);
            assert_true(s.best.found);
            if (dfs) {
                assert_int_equal(st, PS_OPTIMAL);
                assert_int_equal(s.best.value, 25); /* every cell removed */
                assert_non_null(strstr(s.note, "beam's dfs first"));
                assert_true(s.stats.expanded <= 20000 + 25);
            } else {
                assert_int_equal(st, PS_HEURISTIC);
                assert_int_equal(s.best.value, 21); /* 4 cells left */
                assert_null(strstr(s.note, "dfs"));
            }
            ps_search_free(&s);
        }
    board_free(&b);

    board_gen(&b, NULL, 8, 8, 3, 4);
    struct result on, off;
    struct ps_options o = options(5, 1);
    test_option_int(&o, "beam-width", 20);
    run(&b, "beam", &o, NULL, &on);
    test_option_int(&o, "beam-dfs", 0);
    run(&b, "beam", &o, NULL, &off);
    same_result(&on, &off);
    assert_int_equal(on.expanded, off.expanded);
    board_free(&b);
}

/* Clearing objectives: beam stops expanding a depth once it has enough
 * candidates, in rounds of parents cut by index, not by thread: still the
 * same answer for 1, 2 and 3 threads, with and without a node limit, with
 * and without the dfs first (which does not clear this board in 5,000
 * nodes). The cut must have happened: fewer children made than a full
 * expansion of every depth would make (every parent's moves). */
static void clearing_beam_does_not_depend_on_threads(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, "clickomania", 12, 12, 5, 6);
    const struct ps_algorithm *beam = ps_algorithm_find("beam");
    for (int run_dfs = 0; run_dfs <= 1; run_dfs++) {
        for (int limited = 0; limited <= 1; limited++) {
            struct ps_limits lim = {.max_nodes = limited ? 9000 : 0};
            struct result r1, r;
            for (int threads = 1; threads <= 3; threads++) {
                struct ps_options o = options(3, threads);
                test_option_int(&o, "beam-width", 300);
                test_option_int(&o, "beam-dfs", run_dfs ? 5000 : 0);
                run(&b, "beam", &o, &lim, threads == 1 ? &r1 : &r);
                if (threads > 1) {
                    same_result(&r1, &r);
                    assert_int_equal(r1.expanded, r.expanded);
                }
            }
        }
    }
    /* A full expansion makes every parent's children (about 20 each on
     * this board); the cut makes about BEAM_ENOUGH x width per depth. */
    struct ps_options o = options(3, 1);
    test_option_int(&o, "beam-width", 300);
    test_option_int(&o, "beam-dfs", 0);
    struct ps_search s;
    ps_search_init(&s, b.g, b.inst, NULL, &o);
    ps_search_run(&s, beam);
    uint64_t per_parent = s.stats.generated / s.stats.expanded;
    ps_search_free(&s);
    assert_true(per_parent < 8);
    board_free(&b);
}

/* Beam's end-game pass (--beam-endgame): the line it returns is never worse
 * than the beam's own and replays to its value (run() replays it), it
 * improves some lines, and with nodes enough to search back to the start
 * it is the optimum, which a beam of width 1 alone misses on some of these
 * boards. */
static void beam_endgame_only_improves(void **state)
{
    (void)state;
    int improved = 0, missed = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct board b;
        board_gen(&b, "popstar", 8, 8, 4, seed);
        struct result plain, pass;
        struct ps_options o = options(seed, 1);
        test_option_int(&o, "beam-width", 2);
        run(&b, "beam", &o, NULL, &plain);
        test_option_int(&o, "beam-endgame", 20000);
        run(&b, "beam", &o, NULL, &pass);
        assert_true(pass.value >= plain.value);
        improved += pass.value > plain.value;
        /* Deeper: more nodes, never a worse line. */
        struct result deeper;
        test_option_int(&o, "beam-endgame", 200000);
        run(&b, "beam", &o, NULL, &deeper);
        assert_true(deeper.value >= pass.value);
        board_free(&b);
    }
    assert_true(improved > 0);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        struct board b;
        board_gen(&b, "popstar", 4, 4, 3, seed);
        ps_value best = optimum(&b);
        struct result plain, pass;
        struct ps_options o = options(seed, 1);
        test_option_int(&o, "beam-width", 1);
        run(&b, "beam", &o, NULL, &plain);
        missed += plain.value < best;
        test_option_int(&o, "beam-endgame", 1000000);
        run(&b, "beam", &o, NULL, &pass);
        assert_int_equal(pass.value, best);
        board_free(&b);
    }
    assert_true(missed > 0);
}

/* The pass is searched by node budget, so a run repeats: the same line for
 * every thread count, also under a node limit that cuts the pass. */
static void beam_endgame_does_not_depend_on_threads(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, "popstar", 10, 10, 5, 4);
    for (int limited = 0; limited <= 1; limited++) {
        struct ps_limits lim = {.max_nodes = limited ? 40000 : 0};
        struct result r1, r;
        for (int threads = 1; threads <= 2; threads++) {
            struct ps_options o = options(3, threads);
            test_option_int(&o, "beam-width", 100);
            test_option_int(&o, "beam-endgame", 20000);
            run(&b, "beam", &o, &lim, threads == 1 ? &r1 : &r);
            if (threads > 1) {
                same_result(&r1, &r);
                assert_int_equal(r1.expanded, r.expanded);
            }
        }
        if (limited)
            assert_true(r1.expanded <= 40000);
    }
    board_free(&b);
}

/* Clearing objectives rank equal keys by a salted hash (seed and width):
 * beams of one width with other seeds keep other lines, where a score
 * objective's beam (ties by parent and move) is the same for every seed. */
static bool same_line(const struct result *a, const struct result *b)
{
    return a->len == b->len &&
           memcmp(a->moves, b->moves, (size_t)a->len * sizeof *a->moves) == 0;
}

static void clearing_beam_ties_follow_the_seed(void **state)
{
    (void)state;
    for (int clearing = 0; clearing <= 1; clearing++) {
        struct board b;
        board_gen(&b, clearing ? "clickomania" : NULL, 12, 12, 5, 6);
        struct result first, r;
        int other = 0;
        for (uint64_t seed = 1; seed <= 4; seed++) {
            struct ps_options o = options(seed, 1);
            test_option_int(&o, "beam-width", 50);
            test_option_int(&o, "beam-dfs", 0);
            run(&b, "beam", &o, NULL, seed == 1 ? &first : &r);
            if (seed > 1)
                other += !same_line(&first, &r);
        }
        if (clearing)
            assert_true(other > 0);
        else
            assert_int_equal(other, 0);
        board_free(&b);
    }
}

/* The width schedule under --time: wider while a wider beam fits; then,
 * for the clearing objectives only, another beam as wide as the time left
 * allows down to --beam-width (narrower than the last), and none below. */
static void beam_width_schedule(void **state)
{
    (void)state;
    /* 1 s; a beam of 1,000 took 0.1 s with 0.8 s left: 6,800 fit */
    assert_int_equal(ps_beam_next_width(1, 0.8, 1000, 0.1, 0), 6800);
    assert_int_equal(ps_beam_next_width(1, 0.8, 1000, 0.1, 100), 6800);
    /* a fast first beam: at most 8 times wider */
    assert_int_equal(ps_beam_next_width(1, 0.99, 100, 0.001, 0), 800);
    /* 0.45 s left after a beam of 1,000 that took 0.5 s: 765 fit */
    assert_int_equal(ps_beam_next_width(1, 0.45, 1000, 0.5, 0), 0);
    assert_int_equal(ps_beam_next_width(1, 0.45, 1000, 0.5, 100), 765);
    assert_int_equal(ps_beam_next_width(1, 0.45, 1000, 0.5, 800), 0);
    /* 0.01 s left: 17 fit, below --beam-width */
    assert_int_equal(ps_beam_next_width(1, 0.01, 1000, 0.5, 100), 0);
}

/* More budget never gives a lower score (issue 29): under --time the
 * score objectives' beams double whatever the clock says, and every depth's
 * best position is finished and offered, so a run cut later makes every
 * offer a run cut sooner made. Cut here by a node limit under a --time that
 * never comes, so the test does not depend on the machine's load. Before
 * the change, on these PopStar boards, a longer budget lost up to 895
 * points (a cut beam's one finish from a later, worse position). */
static void beam_longer_budget_never_scores_less(void **state)
{
    (void)state;
    for (uint64_t seed = 501; seed <= 503; seed++) {
        struct board b;
        board_gen(&b, "popstar", 10, 10, 5, seed);
        ps_value prev = 0;
        for (uint64_t nodes = 300; nodes <= 15000; nodes += 300) {
            struct ps_options o = options(1, 1);
            test_option_int(&o, "beam-width", 10);
            struct ps_limits lim = {.seconds = 1000, .max_nodes = nodes};
            struct result r;
            run(&b, "beam", &o, &lim, &r);
            if (r.value < prev)
                fail_msg("board %llu: %llu nodes scored %lld, fewer gave %lld",
                         (unsigned long long)seed, (unsigned long long)nodes,
                         (long long)r.value, (long long)prev);
            prev = r.value;
        }
        board_free(&b);
    }
}

/* The tabu policy never takes the most frequent colour (1 here) while
 * another group exists, and takes it when nothing else is left. */
static void tabu_policy_spares_the_most_frequent_colour(void **state)
{
    (void)state;
    struct board b;
    board_load(&b, NULL, "1122\n1133\n1111\n");
    struct ps_playout p;
    assert_true(ps_playout_init(&p, b.g, b.inst));
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_playout_set_policy(&p, "tabu", 0, &err));
    assert_string_equal(ps_playout_policy_name(&p), "tabu");
    unsigned char *start = malloc(b.g->state_size(b.inst));
    b.g->initial_state(b.inst, start);
    struct ps_rng rng;
    ps_rng_seed(&rng, 5);
    for (int k = 0; k < 50; k++) {
        ps_value v = ps_playout_run(&p, start, &rng, 0);
        /* 2s (0), 3s (0), then the eight 1s: 36, and the board is clear. */
        assert_int_equal(p.length, 3);
        assert_int_equal(v, 36 + 1000);
    }
    free(start);
    ps_playout_free(&p);
    board_free(&b);
}

/* topk with k = 1 is greedy: the same line as the greedy algorithm. */
static void topk_one_is_greedy(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, "popstar", 10, 10, 5, 9);
    struct ps_playout p;
    assert_true(ps_playout_init(&p, b.g, b.inst));
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_playout_set_policy(&p, "topk", 1, &err));
    unsigned char *start = malloc(b.g->state_size(b.inst));
    b.g->initial_state(b.inst, start);
    struct ps_rng rng;
    ps_rng_seed(&rng, 5);
    ps_value v = ps_playout_run(&p, start, &rng, 0);
    struct ps_options o = options(1, 1);
    struct result r;
    run(&b, "greedy", &o, NULL, &r);
    assert_int_equal(v, r.value);
    assert_int_equal(p.length, r.len);
    assert_memory_equal(p.line, r.moves, (size_t)r.len * sizeof *r.moves);
    free(start);
    ps_playout_free(&p);
    board_free(&b);
}

/* The samegame policy `name`, found in the game's table. */
static const struct ps_policy *game_policy(const struct ps_game *g,
                                           const char *name)
{
    for (const struct ps_policy *q = g->policies; q && q->name; q++)
        if (strcmp(q->name, name) == 0)
            return q;
    fail_msg("no policy %s", name);
    return NULL;
}

/* --prior-weight B: the policy's prior counts B times. B = 1 is the
 * default run; B = 0 is the uniform policy's run (the same line, playout
 * for playout: the tabu policy keeps the game's move codes); B = 0.25
 * changes the run. */
static void nrpa_prior_weight_scales_the_prior(void **state)
{
    (void)state;
    struct board b;
    board_gen(&b, NULL, 10, 10, 4, 12);
    struct ps_options o = options(5, 1);
    test_option_int(&o, "level", 2);
    test_option_int(&o, "iterations", 10);
    struct result plain, one, zero, uniform, quarter;
    run(&b, "nrpa", &o, NULL, &plain);
    test_option(&o, "prior-weight", "1");
    run(&b, "nrpa", &o, NULL, &one);
    same_result(&plain, &one);
    test_option(&o, "prior-weight", "0");
    run(&b, "nrpa", &o, NULL, &zero);
    struct ps_options u = o;
    u.policy = "uniform";
    test_option(&u, "prior-weight", "1");
    run(&b, "nrpa", &u, NULL, &uniform);
    same_result(&zero, &uniform);
    test_option(&o, "prior-weight", "0.25");
    run(&b, "nrpa", &o, NULL, &quarter);
    assert_true(quarter.value != plain.value || quarter.len != plain.len ||
                memcmp(quarter.moves, plain.moves,
                       (size_t)plain.len * sizeof *plain.moves) != 0);
    board_free(&b);
}

/* nrpa's options (the policy variants and --stabilise) repeat for a fixed
 * seed, and each changes what the run does against the default (policy
 * tabu: a prior against the tabu colour, anchor codes; one playout per
 * level-1 iteration). */
static void nrpa_options_repeat_and_change_the_run(void **state)
{
    (void)state;
    static const char *const policies[] = {"tabu-strict", "tabu-cells"};
    struct board b;
    board_gen(&b, NULL, 10, 10, 4, 12);
    struct ps_options o = options(3, 1);
    test_option_int(&o, "level", 2);
    test_option_int(&o, "iterations", 12);
    struct result base, r1, r2;
    run(&b, "nrpa", &o, NULL, &base);
    assert_int_equal(base.playouts, 12 * 12);
    for (int k = 0; k < 3; k++) {
        struct ps_options v = o;
        if (k < 2)
            v.policy = policies[k];
        else
            test_option_int(&v, "stabilise", 3);
        run(&b, "nrpa", &v, NULL, &r1);
        run(&b, "nrpa", &v, NULL, &r2);
        same_result(&r1, &r2);
        /* Stabilised: three playouts per level-1 iteration. */
        assert_int_equal(r1.playouts, k < 2 ? 12 * 12 : 3 * 12 * 12);
        bool same = r1.len == base.len && r1.expanded == base.expanded &&
                    memcmp(r1.moves, base.moves,
                           (size_t)r1.len * sizeof *r1.moves) == 0;
        if (same)
            fail_msg("option %d changed nothing", k);
    }
    board_free(&b);
}

/* The tabu-strict prior forbids the most frequent colour while another
 * move exists, and never forbids the last legal moves: on random states of
 * random boards some move always keeps weight 0 (allowed). */
static void strict_tabu_never_forbids_every_move(void **state)
{
    (void)state;
    struct board b;
    board_load(&b, NULL, "1122\n1133\n1111\n");
    const struct ps_policy *strict = game_policy(b.g, "tabu-strict");
    ps_move moves[64];
    double bias[64];
    unsigned char *s = malloc(b.g->state_size(b.inst));
    unsigned char *t = malloc(b.g->state_size(b.inst));
    b.g->initial_state(b.inst, s);
    int n = b.g->moves(b.inst, s, moves, NULL);
    assert_int_equal(n, 3); /* the 1s, the 2s, the 3s */
    strict->bias(b.inst, s, moves, n, bias);
    assert_true(bias[0] < -1e100);
    assert_true(bias[1] == 0.0 && bias[2] == 0.0);
    /* Take the 2s and the 3s: only the 1s are left, and allowed. */
    b.g->apply(b.inst, s, moves[1], t);
    n = b.g->moves(b.inst, t, moves, NULL);
    int other = moves[0] == 0 ? 1 : 0;
    b.g->apply(b.inst, t, moves[other], s);
    n = b.g->moves(b.inst, s, moves, NULL);
    assert_int_equal(n, 1);
    strict->bias(b.inst, s, moves, n, bias);
    assert_true(bias[0] == 0.0);
    free(s);
    free(t);
    board_free(&b);
    /* nrpa under it still finishes the game and clears that board. */
    board_load(&b, NULL, "1122\n1133\n1111\n");
    struct ps_options o = options(1, 1);
    o.policy = "tabu-strict";
    test_option_int(&o, "level", 1);
    test_option_int(&o, "iterations", 5);
    struct result r;
    run(&b, "nrpa", &o, NULL, &r);
    assert_int_equal(r.value, 36 + 1000);
    board_free(&b);

    for (uint64_t seed = 1; seed <= 20; seed++) {
        board_gen(&b, NULL, 8, 8, 3, seed);
        struct ps_playout p;
        assert_true(ps_playout_init(&p, b.g, b.inst));
        unsigned char *st = malloc(b.g->state_size(b.inst));
        unsigned char *nx = malloc(b.g->state_size(b.inst));
        b.g->initial_state(b.inst, st);
        ps_move *mv = malloc((size_t)b.g->max_moves(b.inst) * sizeof *mv);
        double *w = malloc((size_t)b.g->max_moves(b.inst) * sizeof *w);
        struct ps_rng rng;
        ps_rng_seed(&rng, seed);
        while ((n = b.g->moves(b.inst, st, mv, NULL)) > 0) {
            strict->bias(b.inst, st, mv, n, w);
            bool allowed = false;
            for (int i = 0; i < n; i++)
                allowed |= w[i] == 0.0;
            assert_true(allowed);
            b.g->apply(b.inst, st, mv[ps_rng_below(&rng, (uint32_t)n)], nx);
            memcpy(st, nx, b.g->state_size(b.inst));
        }
        free(mv);
        free(w);
        free(st);
        free(nx);
        ps_playout_free(&p);
        board_free(&b);
    }
}

/* Every move code, the game's and each policy's own, stays below its code
 * space, on boards from 1x1 to 32x32 with 9 colours, along random games. */
static void move_codes_stay_below_their_space(void **state)
{
    (void)state;
    static const int sizes[][3] = {{1, 1, 1}, {4, 7, 2}, {15, 15, 5},
                                   {32, 32, 9}, {32, 5, 9}};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        struct board b;
        board_gen(&b, NULL, sizes[k][0], sizes[k][1], sizes[k][2], 7 + k);
        const struct ps_game *g = b.g;
        int max = g->max_moves(b.inst);
        ps_move *mv = malloc((size_t)max * sizeof *mv);
        uint32_t *codes = malloc((size_t)max * sizeof *codes);
        unsigned char *st = malloc(g->state_size(b.inst));
        unsigned char *nx = malloc(g->state_size(b.inst));
        g->initial_state(b.inst, st);
        struct ps_rng rng;
        ps_rng_seed(&rng, k);
        int n;
        while ((n = g->moves(b.inst, st, mv, NULL)) > 0) {
            g->move_codes(b.inst, st, mv, n, codes);
            for (int i = 0; i < n; i++)
                assert_true(codes[i] < g->move_code_space(b.inst));
            for (const struct ps_policy *q = g->policies; q->name; q++) {
                if (!q->move_codes)
                    continue;
                q->move_codes(b.inst, st, mv, n, codes);
                for (int i = 0; i < n; i++)
                    assert_true(codes[i] < q->move_code_space(b.inst));
            }
            g->apply(b.inst, st, mv[ps_rng_below(&rng, (uint32_t)n)], nx);
            memcpy(st, nx, g->state_size(b.inst));
        }
        free(mv);
        free(codes);
        free(st);
        free(nx);
        board_free(&b);
    }
}

static void unknown_policy_is_an_error(void **state)
{
    (void)state;
    const struct ps_game *g = ps_game_find("samegame");
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_policy_check(g, "tabu", &err));
    assert_true(ps_policy_check(g, "uniform", &err));
    assert_false(ps_policy_check(g, "nosuch", &err));
    assert_non_null(strstr(err.msg, "tabu"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nmcs_level2_finds_the_optimum),
        cmocka_unit_test(wide_beam_finds_the_optimum),
        cmocka_unit_test(wide_beam_with_playouts_finds_the_optimum),
        cmocka_unit_test(answers_verify_and_never_beat_the_optimum),
        cmocka_unit_test(beam_matches_the_plain_beam),
        cmocka_unit_test(beam_longer_budget_never_scores_less),
        cmocka_unit_test(beam_answer_does_not_depend_on_threads),
        cmocka_unit_test(beam_dfs_first_clears_and_proves),
        cmocka_unit_test(clearing_beam_does_not_depend_on_threads),
        cmocka_unit_test(beam_endgame_only_improves),
        cmocka_unit_test(beam_endgame_does_not_depend_on_threads),
        cmocka_unit_test(clearing_beam_ties_follow_the_seed),
        cmocka_unit_test(beam_width_schedule),
        cmocka_unit_test(fixed_seed_repeats),
        cmocka_unit_test(nested_run_keeps_the_callers_counts),
        cmocka_unit_test(node_limit_stops_and_keeps_the_best),
        cmocka_unit_test(proven_answer_ends_the_run),
        cmocka_unit_test(tabu_policy_spares_the_most_frequent_colour),
        cmocka_unit_test(topk_one_is_greedy),
        cmocka_unit_test(unknown_policy_is_an_error),
        cmocka_unit_test(nrpa_options_repeat_and_change_the_run),
        cmocka_unit_test(nrpa_prior_weight_scales_the_prior),
        cmocka_unit_test(strict_tabu_never_forbids_every_move),
        cmocka_unit_test(move_codes_stay_below_their_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
