/*
 * test_framework.c - the kernel's utilities: PRNG, state table, line reader,
 * text files, errors, the driver's limits and solution bookkeeping, replay.
 */
#include <unistd.h>

#include "support.h"

#include "conformance.h"
#include "replay.h"
#include "search.h"
#include "table.h"
#include "textfile.h"

extern const struct ps_game samegame_game;

static void test_rng_is_fixed_and_in_range(void **unused)
{
    (void)unused;
    struct ps_rng a, b;
    ps_rng_seed(&a, 7);
    ps_rng_seed(&b, 7);
    for (int i = 0; i < 100; i++)
        assert_true(ps_rng_next(&a) == ps_rng_next(&b));
    /* Streams of one seed differ. */
    ps_rng_seed_stream(&a, 7, 0);
    ps_rng_seed_stream(&b, 7, 1);
    assert_true(ps_rng_next(&a) != ps_rng_next(&b));
    /* below(n) covers [0, n) and nothing else. */
    int seen[5] = {0};
    for (int i = 0; i < 1000; i++) {
        uint32_t v = ps_rng_below(&a, 5);
        assert_true(v < 5);
        seen[v]++;
    }
    for (int i = 0; i < 5; i++)
        assert_true(seen[i] > 100);
    double d = ps_rng_double(&a);
    assert_true(d >= 0.0 && d < 1.0);
}

/* A search context over a small SameGame board, for table tests. */
struct fixture {
    void *rules, *inst;
    struct ps_search s;
};

/* min_group 0: the default rules; else that min_group and no shift (a
 * single cell may go, as in Former). */
static void fixture_open_rules(struct fixture *f, const char *board,
                               const struct ps_limits *limits, int min_group)
{
    f->rules = test_rules(&samegame_game, NULL);
    if (min_group) {
        test_set_param(&samegame_game, f->rules, "min_group", min_group);
        test_set_param(&samegame_game, f->rules, "shift", 2 /* none */);
    }
    f->inst = test_load(&samegame_game, f->rules, board);
    ps_search_init(&f->s, &samegame_game, f->inst, limits, NULL);
}

static void fixture_open(struct fixture *f, const char *board,
                         const struct ps_limits *limits)
{
    fixture_open_rules(f, board, limits, 0);
}

static void fixture_close(struct fixture *f)
{
    ps_search_free(&f->s);
    samegame_game.free_instance(f->inst);
    free(f->rules);
}

static void test_table_insert_find_grow(void **unused)
{
    (void)unused;
    struct fixture f;
    fixture_open(&f, "1234\n1234\n", NULL);
    struct ps_table t;
    assert_true(ps_table_init(&t, &f.s, sizeof(int64_t)));
    size_t size = f.s.state_size;
    unsigned char *state = calloc(1, size);
    /* 5000 distinct blobs: more than the first arena and slot arrays. */
    for (int i = 0; i < 5000; i++) {
        memcpy(state, &i, sizeof i);
        bool added;
        int64_t idx = ps_table_insert(&t, (uint64_t)i * 0x9e3779b97f4a7c15ULL,
                                      state, &added);
        assert_true(added);
        assert_int_equal(idx, i);
        *(int64_t *)ps_table_value(&t, idx) = i * 10;
    }
    for (int i = 0; i < 5000; i++) {
        memcpy(state, &i, sizeof i);
        int64_t idx = ps_table_find(&t, (uint64_t)i * 0x9e3779b97f4a7c15ULL, state);
        assert_int_equal(idx, i);
        assert_int_equal(*(int64_t *)ps_table_value(&t, idx), i * 10);
    }
    /* Same hash, different state: a collision never merges states. */
    int other = 123456;
    memcpy(state, &other, sizeof other);
    assert_int_equal(ps_table_find(&t, 0, state), PS_TABLE_NONE);
    bool added;
    int64_t idx = ps_table_insert(&t, 0x9e3779b97f4a7c15ULL, state, &added);
    assert_true(added);
    assert_int_equal(idx, 5000);
    assert_int_equal(f.s.stats.peak_table, 5001);
    assert_true(f.s.stats.peak_memory >= 5001 * t.entry_size);
    /* A slot keeps the hash's high 32 bits only (the tag, which also picks
     * the home slot): 6000 states whose hashes share them, through a
     * growth of the slots, each found as itself. */
    for (int i = 0; i < 6000; i++) {
        int v = 1000000 + i;
        memcpy(state, &v, sizeof v);
        idx = ps_table_insert(&t, 0xabcdef0100000000ULL | (uint64_t)i, state,
                              &added);
        assert_true(added);
        assert_int_equal(idx, 5001 + i);
    }
    for (int i = 5999; i >= 0; i--) {
        int v = 1000000 + i;
        memcpy(state, &v, sizeof v);
        assert_int_equal(ps_table_find(&t, 0xabcdef0100000000ULL, state),
                         5001 + i);
    }
    ps_table_free(&t);
    assert_int_equal(f.s.stats.memory, 0);
    free(state);
    fixture_close(&f);
}

/* The table tests' states: number k in the first bytes of `state`; returns
 * its hash (a multiplicative one: home slots spread, clusters form). */
static uint64_t number_state(unsigned char *state, int k)
{
    memcpy(state, &k, sizeof k);
    return (uint64_t)k * 0xff51afd7ed558ccdULL;
}

/* Near --max-memory the table takes what is left: slots up to a load of
 * 3/4 where doubling them does not fit, the arena by a smaller step where
 * doubling it does not. On every limit of a range, the full table holds at
 * least 3/4 of the bytes the limit leaves it (doubling alone left up to
 * half of them unused). */
static void test_table_fills_memory_limit(void **unused)
{
    (void)unused;
    for (int kb = 100; kb <= 1600; kb += 50) {
        struct ps_limits limits = {.max_memory = (uint64_t)kb * 1024};
        struct fixture f;
        fixture_open(&f, "1234\n1234\n", &limits);
        uint64_t before = f.s.stats.memory;
        struct ps_table t;
        assert_true(ps_table_init(&t, &f.s, 8));
        unsigned char *state = calloc(1, f.s.state_size);
        int64_t last = 0;
        for (int i = 0; last != PS_TABLE_FULL; i++) {
            bool added;
            last = ps_table_insert(&t, number_state(state, i), state, &added);
        }
        uint64_t left = limits.max_memory - before,
                 used = t.slots * sizeof *t.slot + t.count * t.entry_size;
        if (4 * used < 3 * left)
            fail_msg("--max-memory %d KB: a full table used %llu of %llu "
                     "bytes", kb, (unsigned long long)used,
                     (unsigned long long)left);
        assert_true(4 * t.count <= 3 * t.slots);
        ps_table_free(&t);
        free(state);
        fixture_close(&f);
    }
}

/* ps_table_insert_evicting's test worth: the payload's first byte, 0xff
 * (pinned) never given away. */
static int64_t worth_of_first_byte(const void *value, void *arg)
{
    (void)arg;
    unsigned char b = *(const unsigned char *)value;
    return b == 0xff ? -1 : b;
}

/* A full table gives a new state the entry of least worth on its probe
 * path: the new state is found, the old one is not, every other state is
 * still found with its payload (the probe paths stay whole), a pinned
 * entry is never taken, and with only pinned entries near it the insert
 * says PS_TABLE_FULL. */
static void test_table_evicts_least_worth(void **unused)
{
    (void)unused;
    struct ps_limits limits = {.max_memory = 120 * 1024};
    struct fixture f;
    fixture_open(&f, "1234\n1234\n", &limits);
    struct ps_table t;
    assert_true(ps_table_init(&t, &f.s, 8));
    unsigned char *state = calloc(1, f.s.state_size);
    int n = 0;
    for (;; n++) {
        bool added;
        int64_t i = ps_table_insert(&t, number_state(state, n), state, &added);
        if (i == PS_TABLE_FULL)
            break;
        /* worth: n % 7; every fifth entry pinned */
        *(unsigned char *)ps_table_value(&t, i) =
            n % 5 == 0 ? 0xff : (unsigned char)(n % 7);
    }
    assert_true(n > 1000);
    size_t count = t.count;
    bool *gone = calloc((size_t)n + 2000, sizeof *gone);
    for (int k = n; k < n + 2000; k++) {
        bool added;
        int64_t i = ps_table_insert_evicting(&t, number_state(state, k), state,
                                             &added, worth_of_first_byte, NULL);
        if (i == PS_TABLE_FULL) {
            gone[k] = true;
            continue;
        }
        assert_true(added);
        assert_int_equal(*(unsigned char *)ps_table_value(&t, i), 0);
        *(unsigned char *)ps_table_value(&t, i) = 0xff; /* kept from now */
        assert_int_equal(ps_table_find(&t, number_state(state, k), state), i);
    }
    assert_int_equal(t.count, count); /* no entry more: only taken over */
    assert_true(t.evicted > 1000);
    /* Each new state took an old one's entry: the pinned old ones all
     * stay, the others that stay keep their payload. */
    size_t found = 0;
    for (int k = 0; k < n + 2000; k++) {
        int64_t i = ps_table_find(&t, number_state(state, k), state);
        if (k >= n) {
            assert_true(gone[k] ? i == PS_TABLE_NONE : i >= 0);
            continue;
        }
        if (k % 5 == 0)
            assert_true(i >= 0);
        if (i < 0)
            continue;
        found++;
        assert_int_equal(*(unsigned char *)ps_table_value(&t, i),
                         k % 5 == 0 ? 0xff : k % 7);
    }
    assert_int_equal((size_t)n - found, (size_t)t.evicted);
    /* Only pinned entries left on a path: the insert refuses. */
    for (size_t i = 0; i < t.count; i++)
        *(unsigned char *)ps_table_value(&t, (int64_t)i) = 0xff;
    bool added;
    assert_int_equal(ps_table_insert_evicting(&t, number_state(state, n + 5000),
                                              state, &added,
                                              worth_of_first_byte, NULL),
                     PS_TABLE_FULL);
    free(gone);
    ps_table_free(&t);
    free(state);
    fixture_close(&f);
}

static void test_table_respects_memory_limit(void **unused)
{
    (void)unused;
    struct ps_limits limits = {.max_memory = 200 * 1024};
    struct fixture f;
    fixture_open(&f, "1234\n1234\n", &limits);
    struct ps_table t;
    assert_true(ps_table_init(&t, &f.s, 0));
    unsigned char *state = calloc(1, f.s.state_size);
    int64_t last = 0;
    int i;
    for (i = 0; i < 1000000; i++) {
        bool added;
        last = ps_table_insert(&t, number_state(state, i), state, &added);
        if (last == PS_TABLE_FULL)
            break;
    }
    assert_int_equal(last, PS_TABLE_FULL);
    assert_true(i > 1000);
    /* The table reports; whether that ends the search is the algorithm's
     * call (dfs searches on, A* stops). */
    assert_int_equal(f.s.stop, PS_STOP_NONE);
    assert_true(f.s.stats.peak_memory <= limits.max_memory);
    ps_table_free(&t);
    free(state);
    fixture_close(&f);
}

/* States of the fixture's board reached by random clicks; some are alike
 * (every walk starts from the same board). */
#define KEYED_WALKS 200
#define SG_TEST_KEY_MAX 64 /* bytes: the largest key tested below */
#define SG_TEST_MAX_MOVES 128 /* groups: one a cell on the boards below */
static int walk_states(struct fixture *f, unsigned char *out, int cap)
{
    const struct ps_game *g = &samegame_game;
    size_t size = f->s.state_size;
    ps_move moves[SG_TEST_MAX_MOVES];
    assert_true(g->max_moves(f->inst) <= SG_TEST_MAX_MOVES);
    struct ps_rng rng;
    ps_rng_seed(&rng, 5);
    int n = 0;
    for (int w = 0; w < KEYED_WALKS && n < cap; w++) {
        g->initial_state(f->inst, out + (size_t)n * size);
        for (int m; n + 1 < cap &&
                    (m = g->moves(f->inst, out + (size_t)n * size, moves,
                                  NULL)) > 0;
             n++)
            g->apply(f->inst, out + (size_t)n * size,
                     moves[ps_rng_below(&rng, (uint32_t)m)],
                     out + (size_t)(n + 1) * size);
        n++;
    }
    return n;
}

/* A keyed table finds and adds exactly what a table of whole states does,
 * on states met by random clicks, many of them alike; a key that merged
 * two states, or split one, would differ. Every key is also set against
 * the start's, whatever the hashes: the same key exactly when the same
 * state. Run on each of SameGame's key layouts (samegame.c,
 * sg_prepare_key), `key_bytes` long. */
static void check_keyed_matches_states(const char *board, bool gravity,
                                       size_t key_bytes)
{
    struct fixture f;
    f.rules = test_rules(&samegame_game, NULL);
    test_set_param(&samegame_game, f.rules, "min_group", 1);
    test_set_param(&samegame_game, f.rules, "shift", 2 /* none */);
    test_set_param(&samegame_game, f.rules, "gravity", gravity);
    f.inst = test_load(&samegame_game, f.rules, board);
    ps_search_init(&f.s, &samegame_game, f.inst, NULL, NULL);
    enum { CAP = 6000 };
    unsigned char *states = calloc(CAP, f.s.state_size);
    assert_non_null(states);
    int n = walk_states(&f, states, CAP);
    assert_true(n > 2000);
    struct ps_table whole, keyed;
    assert_true(ps_table_init(&whole, &f.s, 8));
    assert_true(ps_table_init_keyed(&keyed, &f.s, 8));
    assert_int_equal(keyed.state_size, key_bytes);
    assert_true(keyed.entry_size < whole.entry_size);
    int repeats = 0;
    for (int i = 0; i < n; i++) {
        const unsigned char *st = states + (size_t)i * f.s.state_size;
        uint64_t h = samegame_game.hash(f.inst, st);
        bool a1, a2;
        int64_t i1 = ps_table_insert(&whole, h, st, &a1);
        int64_t i2 = ps_table_insert(&keyed, h, st, &a2);
        assert_int_equal(i1, i2);
        assert_int_equal(a1, a2);
        assert_int_equal(ps_table_find(&keyed, h, st), i2);
        repeats += !a1;
    }
    assert_true(repeats > 100); /* every walk starts alike, at least */
    unsigned char k1[SG_TEST_KEY_MAX], k2[SG_TEST_KEY_MAX];
    assert_true(key_bytes <= sizeof k1);
    samegame_game.state_key(f.inst, states, k1);
    for (int i = 1; i < n; i++) {
        const unsigned char *st = states + (size_t)i * f.s.state_size;
        samegame_game.state_key(f.inst, st, k2);
        assert_int_equal(memcmp(k1, k2, key_bytes) == 0,
                         ps_game_equal(&samegame_game, f.inst, states, st));
    }
    ps_table_free(&whole);
    ps_table_free(&keyed);
    free(states);
    fixture_close(&f);
}

static void test_table_keyed_matches_states(void **unused)
{
    (void)unused;
    /* 7x9, four colours (Former): by column, a column in a word: 7 columns
     * of 9 x 2 + 1 bits = 17 bytes (by cell: 24; the state: 80) */
    const char *former = "3313221\n3414334\n3111433\n3314434\n1214314\n"
                         "4232222\n2332322\n4133243\n1433334\n";
    check_keyed_matches_states(former, true, 17);
    /* without gravity a column may hold gaps: by cell, 3 bits */
    check_keyed_matches_states(former, false, 24);
    /* 12 rows of 5 colours: 12 x 3 + 1 = 37 bits a column, past a word:
     * by column, a cell at a time, 6 x 37 bits = 28 bytes (by cell: 32) */
    check_keyed_matches_states("512345\n234515\n345152\n451523\n515234\n"
                               "152345\n523451\n234512\n345125\n451253\n"
                               "512534\n125345\n",
                               true, 28);
}

/* psolve check-game's walk catches a key that merges states: SameGame
 * with a key that keeps two cells of the left column fails, SameGame as
 * it is passes. */
static void key_of_left_column(const void *inst, const void *state, void *key)
{
    samegame_game.state_key(inst, state, key);
    unsigned char *k = key;
    k[0] &= 0x03; /* its first 2 bits: the left column's bottom 2 cells */
    memset(k + 1, 0, samegame_game.key_size(inst) - 1);
}

static void test_conformance_checks_keys(void **unused)
{
    (void)unused;
    struct fixture f;
    fixture_open(&f, "112\n122\n211\n", NULL);
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_game_conforms(&samegame_game, f.rules, f.inst, 200, 1,
                                 &err));
    struct ps_game broken = samegame_game;
    broken.state_key = key_of_left_column;
    ps_error_clear(&err);
    assert_false(ps_game_conforms(&broken, f.rules, f.inst, 200, 1, &err));
    assert_non_null(strstr(err.msg, "one key"));
    fixture_close(&f);
}

static void test_line_reader(void **unused)
{
    (void)unused;
    const char *text = "# head\n\n  a b  # c\r\nlast";
    struct ps_line_reader r;
    struct ps_line ln;
    ps_lines_begin(&r, text, strlen(text));
    assert_true(ps_lines_next(&r, &ln));
    assert_int_equal(ln.number, 3);
    assert_int_equal(ln.len, 5);
    assert_memory_equal(ln.text, "  a b", 5);
    assert_true(ps_lines_next(&r, &ln));
    assert_int_equal(ln.number, 4);
    assert_int_equal(ln.len, 4);
    assert_false(ps_lines_next(&r, &ln));
}

static void test_text_file_rejections(void **unused)
{
    (void)unused;
    char *text;
    size_t len;
    struct ps_error err;
    assert_false(ps_read_text_file("/nonexistent/board.txt", &text, &len, &err));
    assert_non_null(strstr(err.msg, "cannot open"));
    char path[] = "/tmp/psolve_test_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "12\n1\0002\n", 7), 7);
    close(fd);
    assert_false(ps_read_text_file(path, &text, &len, &err));
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 2);
    assert_non_null(strstr(err.msg, "not a text file"));
    unlink(path);
}

static void test_error_format(void **unused)
{
    (void)unused;
    struct ps_error err;
    char buf[600];
    ps_error_set(&err, "b.txt", 3, 7, "bad %s", "cell");
    ps_error_format(&err, buf, sizeof buf);
    assert_string_equal(buf, "b.txt:3:7: error: bad cell");
    ps_error_set(&err, NULL, 0, 0, "plain");
    ps_error_format(&err, buf, sizeof buf);
    assert_string_equal(buf, "error: plain");
}

static void test_offer_keeps_the_best(void **unused)
{
    (void)unused;
    struct fixture f;
    fixture_open(&f, "12\n12\n", NULL);
    ps_move a[2] = {1, 2}, b[1] = {3};
    assert_true(ps_search_offer(&f.s, a, 2, 10));
    assert_false(ps_search_offer(&f.s, b, 1, 10)); /* not better */
    assert_false(ps_search_offer(&f.s, b, 1, 5));
    assert_true(ps_search_offer(&f.s, b, 1, 11));
    assert_int_equal(f.s.best.len, 1);
    assert_int_equal(f.s.best.value, 11);
    fixture_close(&f);
}

static void test_node_limit_stops(void **unused)
{
    (void)unused;
    struct ps_limits limits = {.max_nodes = 3};
    struct fixture f;
    fixture_open(&f, "11223\n12233\n44553\n41153\n", &limits);
    enum ps_status st = ps_search_run(&f.s, ps_algorithm_find("greedy"));
    assert_int_equal(st, PS_INCOMPLETE);
    assert_int_equal(f.s.stop, PS_STOP_NODES);
    assert_true(f.s.best.found);
    assert_int_equal(f.s.best.len, 3);
    /* The partial line is legal and worth what it claims. */
    unsigned char *final = malloc(f.s.state_size);
    struct ps_replay res;
    struct ps_error err;
    assert_true(ps_replay_moves(&samegame_game, f.inst, f.s.best.moves,
                                f.s.best.len, final, &res, &err));
    assert_int_equal(res.value, f.s.best.value);
    free(final);
    fixture_close(&f);
}

static void test_greedy_takes_the_largest_gain(void **unused)
{
    (void)unused;
    struct fixture f;
    /* Greedy takes the 2s (5 cells, gain 9) before the 1s (3 cells); the
     * board is then clear, 1010, which is the start's upper bound (each
     * colour taken whole, plus the clear bonus): proven optimal. */
    fixture_open(&f, "2221\n2211\n", NULL);
    assert_int_equal(ps_search_run(&f.s, ps_algorithm_find("greedy")),
                     PS_OPTIMAL);
    assert_int_equal(f.s.best.value, 1010);
    char text[32];
    unsigned char *start = test_initial(&samegame_game, f.inst);
    samegame_game.format_move(f.inst, start, f.s.best.moves[0], text, sizeof text);
    assert_string_equal(text, "1 0");
    assert_int_equal(f.s.best.value, 9 + 1 + 1000);
    free(start);
    fixture_close(&f);
}

static void test_replay_rejects_illegal_move(void **unused)
{
    (void)unused;
    struct fixture f;
    fixture_open(&f, "12\n11\n", NULL);
    const char *sol = "1 0\n0 1   # the single 2: illegal\n";
    ps_move *moves;
    int n;
    struct ps_error err;
    ps_error_clear(&err);
    assert_false(ps_read_solution(&samegame_game, f.inst, "s.txt", sol,
                                  strlen(sol), &moves, &n, &err));
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.msg, "move 2"));
    /* A move code that is not a group's canonical cell is refused too. */
    ps_move bogus = 3;
    unsigned char *final = malloc(f.s.state_size);
    struct ps_replay res;
    assert_false(ps_replay_moves(&samegame_game, f.inst, &bogus, 1, final, &res,
                                 &err));
    assert_non_null(strstr(err.msg, "move 1"));
    free(final);
    fixture_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_is_fixed_and_in_range),
        cmocka_unit_test(test_table_insert_find_grow),
        cmocka_unit_test(test_table_respects_memory_limit),
        cmocka_unit_test(test_table_keyed_matches_states),
        cmocka_unit_test(test_table_fills_memory_limit),
        cmocka_unit_test(test_table_evicts_least_worth),
        cmocka_unit_test(test_conformance_checks_keys),
        cmocka_unit_test(test_line_reader),
        cmocka_unit_test(test_text_file_rejections),
        cmocka_unit_test(test_error_format),
        cmocka_unit_test(test_offer_keeps_the_best),
        cmocka_unit_test(test_node_limit_stops),
        cmocka_unit_test(test_greedy_takes_the_largest_gain),
        cmocka_unit_test(test_replay_rejects_illegal_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
