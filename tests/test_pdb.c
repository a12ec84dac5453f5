/*
 * test_pdb.c - pattern databases (framework/kernel/pdb.c) on the sliding-tile
 * puzzle: every table value checked against true distances from a
 * breadth-first search written here (exact for pdb:8, never above for the
 * additive sets), the disk cache refusing corrupt, truncated and foreign
 * files, the memory limit checked before a build, psolve list and pdb
 * build, and IDA* with a pattern database solving easy instances of Korf's
 * 100 optimally within a node budget.
 */
#include "support.h"

#include <sys/stat.h>

#include "pdb.h"
#include "savefile.h"
#include "table.h"
#include "textfile.h"

extern const struct ps_game npuzzle_game;
static const struct ps_game *G = &npuzzle_game;

static struct ps_pdb *get_set(const void *inst, const char *name,
                              struct ps_pdb_stats *st)
{
    const struct ps_pattern_set *set = ps_pdb_find_set(G, name);
    assert_non_null(set);
    struct ps_pdb_options opt = {0};
    struct ps_error err;
    ps_error_clear(&err);
    struct ps_pdb *pdb = ps_pdb_get(G, inst, set, &opt, st, &err);
    if (!pdb)
        fail_msg("%s: %s", name, err.msg);
    return pdb;
}

/* Breadth-first from the goal of `inst` to depth `depth`: for every state
 * found, the pdb's h is at most its distance (and equal when `exact`).
 * Returns the number of states. */
static int64_t check_against_bfs(const void *inst, const struct ps_pdb *pdb,
                                 int depth, bool exact, int64_t *tight)
{
    struct ps_search s;
    ps_search_init(&s, G, inst, NULL, NULL);
    struct ps_table t;
    assert_true(ps_table_init(&t, &s, sizeof(int32_t)));
    size_t size = s.state_size;
    unsigned char *goal = test_initial(G, inst), *next = malloc(size);
    assert_true(G->is_goal(inst, goal));
    bool added;
    int64_t at = ps_table_insert(&t, G->hash(inst, goal), goal, &added);
    *(int32_t *)ps_table_value(&t, at) = 0;
    *tight = 0;
    for (int64_t head = 0; head < (int64_t)t.count; head++) {
        unsigned char cur[40];
        memcpy(cur, ps_table_state(&t, head), size);
        int32_t d = *(int32_t *)ps_table_value(&t, head);
        ps_value h = ps_pdb_value(pdb, inst, cur);
        if (h > d || (exact && h != d))
            fail_msg("pdb h %lld, true distance %d", (long long)h, d);
        *tight += h == d;
        /* The incremental update agrees with a fresh lookup. */
        uint64_t e[PS_PDB_MAX_PATTERNS * PS_PDB_MAX_LOOKUPS];
        ps_move moves[4];
        int n = G->moves(inst, cur, moves, NULL);
        for (int i = 0; i < n; i++) {
            G->apply(inst, cur, moves[i], next);
            ps_pdb_entries(pdb, inst, cur, e);
            ps_pdb_update(pdb, inst, cur, moves[i], next, e);
            assert_int_equal(ps_pdb_value_of(pdb, e),
                             ps_pdb_value(pdb, inst, next));
            if (d == depth)
                continue;
            int64_t idx = ps_table_insert(&t, G->hash(inst, next), next, &added);
            assert_true(idx >= 0);
            if (added)
                *(int32_t *)ps_table_value(&t, idx) = d + 1;
        }
    }
    int64_t count = (int64_t)t.count;
    ps_table_free(&t);
    free(goal);
    free(next);
    ps_search_free(&s);
    return count;
}

static void *load_goal(void **rules, int n)
{
    *rules = test_rules(G, NULL);
    return test_load(G, *rules, n == 3 ? "1 2 3\n4 5 6\n7 8 0\n"
                                       : "1 2 3 4\n5 6 7 8\n9 10 11 12\n"
                                         "13 14 15 0\n");
}

/* Free what load_goal made, and the tables. */
static void release(void *inst, void *rules)
{
    G->free_instance(inst);
    free(rules);
    ps_pdb_forget_all();
}

/* The whole 8-puzzle: pdb:8 is the true distance of all 9!/2 states,
 * pdb:4-4 never above it (and equal on many). */
static void test_8puzzle_tables_against_bfs(void **unused)
{
    (void)unused;
    setenv("PSOLVE_CACHE_DIR", "", 1); /* no disk: built here */
    void *rules, *inst = load_goal(&rules, 3);
    int64_t tight;
    struct ps_pdb *exact = get_set(inst, "pdb:8", NULL);
    assert_int_equal(check_against_bfs(inst, exact, 40, true, &tight), 181440);
    assert_int_equal(tight, 181440);
    ps_pdb_free(exact);
    struct ps_pdb *add = get_set(inst, "pdb:4-4", NULL);
    assert_int_equal(check_against_bfs(inst, add, 40, false, &tight), 181440);
    assert_true(tight > 1000 && tight < 181440);
    ps_pdb_free(add);
    /* The 8-puzzle's sets refuse the 15-puzzle. */
    void *rules4, *inst4 = load_goal(&rules4, 4);
    struct ps_error err;
    assert_null(ps_pdb_get(G, inst4, ps_pdb_find_set(G, "pdb:8"),
                           &(struct ps_pdb_options){0}, NULL, &err));
    assert_non_null(strstr(err.msg, "3x3"));
    G->free_instance(inst4);
    free(rules4);
    release(inst, rules);
}

/* The naive index of the hand-made space below: the cells of tiles 1 2 4 5
 * of the 8-puzzle and of the blank, base 9. */
enum { HAND_C = 9, HAND_N = 9 * 9 * 9 * 9 * 9 };

static void hand_decode(int i, int *c)
{
    for (int k = 4; k >= 0; k--) {
        c[k] = i % HAND_C;
        i /= HAND_C;
    }
}

static int hand_encode(const int *c)
{
    int i = 0;
    for (int k = 0; k < 5; k++)
        i = i * HAND_C + c[k];
    return i;
}

/* Every abstract state of a small table: its entry is the fewest counted
 * moves found by a brute-force breadth-first search over the abstract
 * space written here (tiles 1 2 4 5 of the 8-puzzle and the blank, the
 * rest indistinct). */
static void test_small_abstract_space_by_hand(void **unused)
{
    (void)unused;
    setenv("PSOLVE_CACHE_DIR", "", 1);
    void *rules, *inst = load_goal(&rules, 3);
    struct ps_pdb *pdb = get_set(inst, "pdb:4-4", NULL);
    /* 9*8*7*6*5 states, indexed naively; 0-1 distances by repeated
     * relaxation. */
    static unsigned char dist[HAND_N];
    memset(dist, 255, sizeof dist);
    dist[hand_encode((const int[]){0, 1, 3, 4, 8})] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < HAND_N; i++) {
            if (dist[i] == 255)
                continue;
            int c[5];
            hand_decode(i, c);
            int b = c[4], r = b / 3, col = b % 3;
            int nb[4], m = 0;
            if (r > 0) nb[m++] = b - 3;
            if (r < 2) nb[m++] = b + 3;
            if (col > 0) nb[m++] = b - 1;
            if (col < 2) nb[m++] = b + 1;
            for (int j = 0; j < m; j++) {
                int d[5];
                memcpy(d, c, sizeof d);
                int cost = 0;
                for (int k = 0; k < 4; k++)
                    if (d[k] == nb[j]) {
                        d[k] = b;
                        cost = 1;
                    }
                d[4] = nb[j];
                int idx = hand_encode(d);
                if (dist[i] + cost < dist[idx]) {
                    dist[idx] = (unsigned char)(dist[i] + cost);
                    changed = true;
                }
            }
        }
    }
    /* Compare through real states: put the 4 tiles and the blank, fill the
     * other tiles in order; pattern 0's lookup-0 value is its entry. */
    int checked = 0;
    for (int i = 0; i < HAND_N; i++) {
        int c[5], seen = 0;
        hand_decode(i, c);
        for (int k = 0; k < 5; k++)
            seen |= 1 << c[k];
        if (__builtin_popcount((unsigned)seen) != 5)
            continue;
        if (dist[i] == 255)
            fail_msg("abstract state %d unreached", i);
        unsigned char st[16] = {0};
        static const int tiles[4] = {1, 2, 4, 5}, others[4] = {3, 6, 7, 8};
        for (int k = 0; k < 4; k++)
            st[c[k]] = (unsigned char)tiles[k];
        int o = 0;
        for (int cell = 0; cell < 9; cell++)
            if (!((seen >> cell) & 1))
                st[cell] = (unsigned char)others[o++];
        st[c[4]] = 0;
        st[9] = (unsigned char)c[4];
        uint64_t e[PS_PDB_MAX_PATTERNS * PS_PDB_MAX_LOOKUPS];
        ps_pdb_entries(pdb, inst, st, e);
        /* The entry is the smallest over the blank's cells. */
        int best = 255;
        for (int bl = 0; bl < 9; bl++) {
            if ((seen >> bl) & 1 && bl != c[4])
                continue;
            int at[5] = {c[0], c[1], c[2], c[3], bl};
            if (dist[hand_encode(at)] < best)
                best = dist[hand_encode(at)];
        }
        assert_int_equal(ps_pdb_table_value(pdb, 0, e[0]), best);
        checked++;
    }
    assert_int_equal(checked, 9 * 8 * 7 * 6 * 5);
    ps_pdb_free(pdb);
    release(inst, rules);
}

/* The 15-puzzle sets never overestimate near the goal (depth 13 of the
 * breadth-first search: 30 k states), and the incremental update agrees. */
static void test_15puzzle_555_near_goal(void **unused)
{
    (void)unused;
    setenv("PSOLVE_CACHE_DIR", "", 1);
    void *rules, *inst = load_goal(&rules, 4);
    struct ps_pdb *pdb = get_set(inst, "pdb:5-5-5", NULL);
    int64_t tight;
    int64_t n = check_against_bfs(inst, pdb, 13, false, &tight);
    assert_true(n > 20000);
    assert_true(tight > n / 2); /* far sharper than a table of zeros */
    ps_pdb_free(pdb);
    release(inst, rules);
}

static int cache_files(const char *dir, char names[][600], int max)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls %s/*.pdb 2>/dev/null", dir);
    FILE *p = popen(cmd, "r");
    int n = 0;
    while (n < max && fgets(names[n], 600, p)) {
        names[n][strcspn(names[n], "\n")] = '\0';
        n++;
    }
    pclose(p);
    return n;
}

/* Saved tables are read back; a corrupt, truncated or foreign file is
 * rebuilt, and the values stay right. */
static void test_disk_cache(void **state)
{
    struct test_dir *d = *state;
    char dir[200];
    snprintf(dir, sizeof dir, "%s/cache/nested", d->dir);
    setenv("PSOLVE_CACHE_DIR", dir, 1);
    void *rules, *inst = load_goal(&rules, 3);
    struct ps_pdb_stats st;
    struct ps_pdb *pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.built, 2);
    unsigned char probe[16] = {8, 7, 6, 5, 4, 3, 2, 1, 0, 8};
    ps_value want = ps_pdb_value(pdb, inst, probe);
    assert_true(want > 0);
    ps_pdb_free(pdb);
    /* In memory: shared. */
    pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.shared, 2);
    ps_pdb_free(pdb);
    /* From disk. */
    ps_pdb_forget_all();
    pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.loaded, 2);
    assert_int_equal(st.built, 0);
    assert_int_equal(ps_pdb_value(pdb, inst, probe), want);
    ps_pdb_free(pdb);
    char files[4][600];
    assert_int_equal(cache_files(dir, files, 4), 2);
    /* Corrupt: one byte of the table flipped. */
    FILE *f = fopen(files[0], "r+b");
    assert_non_null(f);
    fseek(f, -3, SEEK_END);
    int c = fgetc(f);
    fseek(f, -3, SEEK_END);
    fputc(c ^ 0x11, f);
    fclose(f);
    /* Foreign: the other table's file under this name is another key. */
    char cmd[1400];
    ps_pdb_forget_all();
    pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.loaded, 1);
    assert_int_equal(st.built, 1);
    assert_int_equal(ps_pdb_value(pdb, inst, probe), want);
    ps_pdb_free(pdb);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", files[1], files[0]);
    assert_int_equal(system(cmd), 0);
    ps_pdb_forget_all();
    pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.loaded, 1);
    assert_int_equal(st.built, 1);
    assert_int_equal(ps_pdb_value(pdb, inst, probe), want);
    ps_pdb_free(pdb);
    /* Truncated, and a future format version. */
    snprintf(cmd, sizeof cmd, "truncate -s 100 '%s'", files[0]);
    assert_int_equal(system(cmd), 0);
    f = fopen(files[1], "r+b");
    assert_non_null(f);
    fseek(f, 10, SEEK_SET); /* the format field follows the magic */
    fputc(PS_PDB_FORMAT + 1, f);
    fclose(f);
    ps_pdb_forget_all();
    pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.loaded, 0);
    assert_int_equal(st.built, 2);
    assert_int_equal(ps_pdb_value(pdb, inst, probe), want);
    ps_pdb_free(pdb);
    /* The rebuilt files are sound again. */
    ps_pdb_forget_all();
    pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.loaded, 2);
    ps_pdb_free(pdb);
    release(inst, rules);
}


/* A forged table: its entries raised (an inadmissible heuristic: A* and
 * IDA* would call a longer line optimal) and its checksum recomputed, so
 * only its contents betray it. The cache must not read it. */
static void raise_entries(const char *path)
{
    struct ps_savefile_header h;
    void *data;
    uint64_t size;
    assert_int_equal(ps_savefile_read(path, "psolvepdb", PS_PDB_FORMAT, &h,
                                      &data, &size),
                     PS_SAVEFILE_OK);
    unsigned char *p = data;
    for (uint64_t i = 0; i < size; i++)
        if (h.info == 8)
            p[i] = (unsigned char)(p[i] + 4);
        else /* two 4-bit entries a byte, each raised to 15 */
            p[i] = 0xFF;
    struct ps_error err;
    assert_true(ps_savefile_write(path, &h, data, size, &err));
    free(data);
}

static void test_forged_table(void **state)
{
    struct test_dir *d = *state;
    char dir[200];
    snprintf(dir, sizeof dir, "%s/forged", d->dir);
    setenv("PSOLVE_CACHE_DIR", dir, 1);
    void *rules, *inst = load_goal(&rules, 3);
    struct ps_pdb_stats st;
    ps_pdb_forget_all();
    struct ps_pdb *pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.built, 2);
    unsigned char probe[16] = {8, 7, 6, 5, 4, 3, 2, 1, 0, 8};
    ps_value want = ps_pdb_value(pdb, inst, probe);
    ps_pdb_free(pdb);
    char files[4][600];
    assert_int_equal(cache_files(dir, files, 4), 2);
    raise_entries(files[0]);
    raise_entries(files[1]);
    ps_pdb_forget_all();
    pdb = get_set(inst, "pdb:4-4", &st);
    assert_int_equal(st.loaded, 0); /* not believed: built afresh */
    assert_int_equal(st.built, 2);
    assert_int_equal(ps_pdb_value(pdb, inst, probe), want);
    ps_pdb_free(pdb);
    /* and on the command line: the optimum, from sound tables */
    char out[16384];
    raise_entries(files[0]);
    raise_entries(files[1]);
    ps_pdb_forget_all();
    assert_int_equal(test_psolve(d->dir, out, sizeof out, false,
                                 "--game npuzzle --algo astar,idastar "
                                 "--heuristic pdb:4-4 " PSOLVE_SOURCE_DIR
                                 "/games/npuzzle/examples/8-hardest.txt"),
                     0);
    const char *first = strstr(out, "optimal         31");
    if (!first || !strstr(first + 1, "optimal         31"))
        fail_msg("astar and idastar did not both find 31:\n%s", out);
    release(inst, rules);
}

/* --max-memory is checked before a build starts, and a search that cannot
 * have its tables stops with the reason. */
static void test_memory_limit(void **unused)
{
    (void)unused;
    setenv("PSOLVE_CACHE_DIR", "", 1);
    void *rules, *inst = load_goal(&rules, 4);
    struct ps_pdb_options opt = {.max_memory = 1000000};
    struct ps_error err;
    ps_error_clear(&err);
    assert_null(ps_pdb_get(G, inst, ps_pdb_find_set(G, "pdb:6-6-3"), &opt,
                           NULL, &err));
    assert_non_null(strstr(err.msg, "max-memory"));
    struct ps_options o;
    ps_options_default(&o);
    o.heuristic = "pdb:6-6-3";
    struct ps_limits lim = {.max_memory = 1000000};
    struct ps_search s;
    ps_search_init(&s, G, inst, &lim, &o);
    assert_int_equal(ps_search_run(&s, ps_algorithm_find("idastar")),
                     PS_INCOMPLETE);
    assert_int_equal(s.stop, PS_STOP_MEMORY);
    assert_non_null(strstr(s.note, "max-memory"));
    ps_search_free(&s);
    G->free_instance(inst);
    free(rules);
}

/* Easy instances of Korf's 100 (the published optimal lengths), IDA* with
 * pdb:5-5-5 inside a node budget. */
static void test_korf_easy_instances(void **unused)
{
    (void)unused;
    setenv("PSOLVE_CACHE_DIR", "", 1);
    static const struct {
        const char *file;
        int optimal;
    } korf[] = {{"012.txt", 45}, {"042.txt", 42}, {"055.txt", 41},
                {"079.txt", 42}};
    void *rules = test_rules(G, NULL);
    for (size_t i = 0; i < sizeof korf / sizeof korf[0]; i++) {
        char path[512], *text;
        size_t len;
        struct ps_error err;
        snprintf(path, sizeof path, "%s/games/npuzzle/korf100/%s",
                 PSOLVE_SOURCE_DIR, korf[i].file);
        assert_true(ps_read_text_file(path, &text, &len, &err));
        void *inst = G->load(rules, path, text, len, &err);
        free(text);
        assert_non_null(inst);
        struct ps_options o;
        ps_options_default(&o);
        o.heuristic = "pdb:5-5-5";
        struct ps_limits lim = {.max_nodes = 3000000};
        struct ps_search s;
        ps_search_init(&s, G, inst, &lim, &o);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find("idastar")),
                         PS_OPTIMAL);
        assert_int_equal(s.best.value, korf[i].optimal);
        assert_true(s.used_heuristic);
        /* A* with the same tables agrees. */
        ps_search_free(&s);
        ps_search_init(&s, G, inst, &lim, &o);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find("astar")),
                         PS_OPTIMAL);
        assert_int_equal(s.best.value, korf[i].optimal);
        ps_search_free(&s);
        G->free_instance(inst);
    }
    free(rules);
    ps_pdb_forget_all();
}

/* The command line: list marks the sets admissible, a wrong name lists the
 * choices, pdb build makes the tables and a solve reads them. */
static void test_command_line(void **state)
{
    struct test_dir *d = *state;
    char out[16384], dir[200];
    snprintf(dir, sizeof dir, "%s/cli-cache", d->dir);
    setenv("PSOLVE_CACHE_DIR", dir, 1);
    assert_int_equal(test_psolve(d->dir, out, sizeof out, false, "list"), 0);
    assert_non_null(strstr(out, "pdb:6-6-3         [admissible]"));
    test_write_file(d->dir, "p.txt", "8 7 6\n5 4 3\n2 1 0\n");
    assert_int_equal(test_psolve(d->dir, out, sizeof out, true,
                                 "--game npuzzle --heuristic pdb:9 p.txt"),
                     2);
    assert_non_null(strstr(out, "pdb:4-4"));
    assert_int_equal(test_psolve(d->dir, out, sizeof out, true,
                                 "pdb build --game npuzzle --heuristic "
                                 "pdb:4-4 p.txt"),
                     0);
    assert_non_null(strstr(out, "pdb:4-4: 2 built"));
    assert_int_equal(test_psolve(d->dir, out, sizeof out, false,
                                 "pdb build --game npuzzle --rows 3"),
                     0);
    assert_non_null(strstr(out, "pdb:4-4: 0 built"));
    assert_non_null(strstr(out, "pdb:8: 1 built"));
    assert_int_equal(test_psolve(d->dir, out, sizeof out, true,
                                 "--game npuzzle --algo idastar,astar "
                                 "--heuristic pdb:8 p.txt"),
                     0);
    assert_non_null(strstr(out, "read npuzzle 3x3"));
    assert_non_null(strstr(out, "optimal         30"));
    assert_int_equal(test_psolve(d->dir, out, sizeof out, true,
                                 "pdb build --game npuzzle --heuristic "
                                 "pdb:7-8 --max-memory 100 --rows 4"),
                     1);
    assert_non_null(strstr(out, "over --max-memory"));
    /* issue 32: a search whose table does not fit said "stopped inside the
     * game at :0:"; it says what stopped it */
    test_psolve(d->dir, out, sizeof out, true,
                "--game npuzzle --algo astar --heuristic pdb:7-8 "
                "--max-memory 100 " PSOLVE_SOURCE_DIR
                "/games/npuzzle/examples/15-36.txt");
    assert_null(strstr(out, "inside the game"));
    assert_non_null(strstr(out, "the search stopped: building npuzzle"));
    /* issue 32: Ctrl-C during a build was ignored for the whole build (11 s
     * on pdb:7-8); it stops it, and nothing half-built is saved. pdb:6-6-3
     * takes about 10 s here; the signal comes after 1 s. */
    int st = test_psolve(d->dir, out, sizeof out, true,
                         "pdb build --game npuzzle --heuristic pdb:6-6-3 "
                         "--rows 4 2>&1 & p=$!; sleep 1; kill -INT $p; wait $p");
    if (st != 5 || !strstr(out, "interrupted (SIGINT) while building"))
        fail_msg("Ctrl-C during a build: exit %d:\n%s", st, out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_8puzzle_tables_against_bfs),
        cmocka_unit_test(test_small_abstract_space_by_hand),
        cmocka_unit_test(test_15puzzle_555_near_goal),
        cmocka_unit_test(test_memory_limit),
        cmocka_unit_test(test_korf_easy_instances),
    };
    const struct CMUnitTest with_dir[] = {
        cmocka_unit_test(test_disk_cache),
        cmocka_unit_test(test_forged_table),
        cmocka_unit_test(test_command_line),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    return failed + cmocka_run_group_tests(with_dir, test_dir_setup,
                                            test_dir_teardown);
}
