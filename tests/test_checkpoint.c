/*
 * test_checkpoint.c - --checkpoint and --resume (docs/checkpoint.md): a run
 * stopped by a node budget and resumed under a larger one ends exactly as
 * the run that was never stopped (nrpa, nmcs, beam; psolve-mpi's dnrpa in
 * test_mpi.c); a checkpoint of another run, a truncated
 * one and a missing one are refused with exit 2 and the file named.
 * Budgets only: nothing here depends on the clock.
 */
#include "support.h"

#define BOARD PSOLVE_SOURCE_DIR "/games/samegame/examples/samegame-10x10.txt"
#define OTHER PSOLVE_SOURCE_DIR "/games/samegame/examples/samegame-5x5.txt"

static char out[1 << 16], again[1 << 16];

/* The lines of a report that do not depend on time. */
static void keep_timeless(char *text)
{
    char *w = text;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line + 1) : strlen(line);
        bool timed = strstr(line, "seconds") || strstr(line, "rate") ||
                     strstr(line, "memory") || strstr(line, "/s");
        if (!(line[0] == '#' && timed)) {
            memmove(w, line, n);
            w += n;
        }
        line += n;
    }
    *w = '\0';
}

/* The counter `name` of a report ("# expanded: N"); -1 when absent. */
static long long counter(const char *report, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "# %s: ", name);
    const char *at = strstr(report, key);
    return at ? atoll(at + strlen(key)) : -1;
}

/* ALGO with OPTS: budget `total` in one go, then `part` with a checkpoint
 * and the rest resumed from it; the two reports must be the same. The
 * state is copied at every safe point (--checkpoint-every 0.001), so the
 * file holds a state from late in the part run, not the start: resumed
 * under a budget of 1,000 nodes, the run stops at once with the counters
 * it read, far over 1,000 (a fresh start, or a resume that ignored the
 * file, would report about 1,000). */
static void resume_equals_uninterrupted(const char *dir, const char *algo,
                                        const char *opts, int part, int total)
{
    test_psolve(dir, out, sizeof out, false,
                "--quiet --algo %s %s --max-nodes %d %s", algo, opts, total,
                BOARD);
    assert_int_equal(test_psolve(dir, again, sizeof again, false,
                                 "--quiet --algo %s %s --max-nodes %d "
                                 "--checkpoint ck-%s.bin "
                                 "--checkpoint-every 0.001 %s",
                                 algo, opts, part, algo, BOARD),
                     4);
    test_psolve(dir, again, sizeof again, false,
                "--quiet --algo %s %s --max-nodes 1000 --resume ck-%s.bin %s",
                algo, opts, algo, BOARD);
    long long from_file = counter(again, "expanded");
    if (from_file < part / 2)
        fail_msg("%s resumed under 1,000 nodes expanded %lld: the file's "
                 "state was not used, or is the start's",
                 algo, from_file);
    test_psolve(dir, again, sizeof again, false,
                "--quiet --algo %s %s --max-nodes %d --resume ck-%s.bin %s",
                algo, opts, total, algo, BOARD);
    keep_timeless(out);
    keep_timeless(again);
    assert_string_equal(out, again);
}

static void test_nrpa_resume(void **state)
{
    struct test_dir *f = *state;
    /* --fit 0: a fitted run sizes its searches to its budget, which the
     * part run and the whole run do not share (a run with --checkpoint or
     * --resume never fits) */
    resume_equals_uninterrupted(f->dir, "nrpa", "--level 2 --seed 3 --fit 0",
                                150000, 400000);
}

static void test_nmcs_resume(void **state)
{
    struct test_dir *f = *state;
    /* nmcs's first safe point after the start comes after some 120,000
     * nodes here (a step of the top level searches every move). */
    resume_equals_uninterrupted(f->dir, "nmcs", "--level 2 --seed 3", 200000,
                                400000);
}

static void test_beam_resume(void **state)
{
    struct test_dir *f = *state;
    /* about 2,000 nodes a depth: the part run stops half way down */
    resume_equals_uninterrupted(f->dir, "beam", "--beam-width 2000", 25000,
                                60000);
    /* One part for the whole search: another --threads resumes it too, to
     * the same answer (the beam is the same for every thread count). That
     * it really resumes: under 1,000 nodes it reports the file's work. */
    test_psolve(f->dir, again, sizeof again, false,
                "--quiet --algo beam --beam-width 2000 --max-nodes 1000 "
                "--threads 2 --resume ck-beam.bin %s",
                BOARD);
    assert_true(counter(again, "expanded") >= 25000 / 2);
    test_psolve(f->dir, out, sizeof out, false,
                "--quiet --algo beam --beam-width 2000 --max-nodes 60000 %s",
                BOARD);
    test_psolve(f->dir, again, sizeof again, false,
                "--quiet --algo beam --beam-width 2000 --max-nodes 60000 "
                "--threads 2 --resume ck-beam.bin %s",
                BOARD);
    keep_timeless(out);
    keep_timeless(again);
    assert_int_equal(counter(out, "score"), counter(again, "score"));
    assert_int_equal(counter(out, "expanded"), counter(again, "expanded"));
}

/* Each refusal: exit 2, the checkpoint file named, the reason said. */
static void refused(const char *dir, const char *args, const char *why)
{
    assert_int_equal(test_psolve(dir, out, sizeof out, true, "--quiet %s", args),
                     2);
    assert_non_null(strstr(out, "error: cannot resume"));
    assert_non_null(strstr(out, why));
}

static void test_refusals(void **state)
{
    struct test_dir *f = *state;
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --algo nrpa --level 2 --seed 3 "
                                 "--max-nodes 20000 --checkpoint ck.bin %s",
                                 BOARD),
                     4);
    refused(f->dir, "--algo nrpa --level 2 --seed 3 --resume ck.bin " OTHER,
            "its board is");
    refused(f->dir, "--algo nmcs --level 2 --seed 3 --resume ck.bin " BOARD,
            "its algorithm is 'nrpa'");
    refused(f->dir, "--algo beam --resume ck.bin " BOARD,
            "its algorithm is 'nrpa'");
    refused(f->dir, "--algo nrpa --level 3 --seed 3 --resume ck.bin " BOARD,
            "its options is");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "head -c 200 %s/ck.bin > %s/cut.bin", f->dir,
             f->dir);
    assert_int_equal(system(cmd), 0);
    refused(f->dir, "--algo nrpa --level 2 --seed 3 --resume cut.bin " BOARD,
            "cut.bin");
    refused(f->dir, "--algo nrpa --resume no-such.bin " BOARD, "no-such.bin");
    /* A Lua game's start is an id, the same for every board: the key
     * holds the start's value (ps_game_state_pack), so another board is
     * refused. The game: the hostile pick without its loop. */
    snprintf(cmd, sizeof cmd,
             "sed '/while true/d' " PSOLVE_SOURCE_DIR
             "/tests/data/hostile/s_moves_loop.lua > %s/pick.lua && "
             "echo 'count 12' > %s/p12.txt && echo 'count 11' > %s/p11.txt",
             f->dir, f->dir, f->dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --game pick.lua --algo nrpa --level 2 "
                                 "--max-nodes 500 --checkpoint lua.bin p12.txt"),
                     0);
    refused(f->dir, "--game pick.lua --algo nrpa --level 2 --resume lua.bin "
                    "p11.txt",
            "its board is");
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --game pick.lua --algo nrpa --level 2 "
                                 "--max-nodes 500 --resume lua.bin p12.txt"),
                     0);
    /* An algorithm that keeps no checkpoint says so. */
    assert_int_equal(test_psolve(f->dir, out, sizeof out, true,
                                 "--quiet --algo dfs --checkpoint x.bin %s",
                                 BOARD),
                     2);
    assert_non_null(strstr(out, "keeps no checkpoint"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nrpa_resume),
        cmocka_unit_test(test_nmcs_resume),
        cmocka_unit_test(test_beam_resume),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
