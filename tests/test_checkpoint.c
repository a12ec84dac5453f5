/*
 * test_checkpoint.c - --checkpoint and --resume (docs/checkpoint.md): a run
 * stopped by a node budget and resumed under a larger one ends exactly as
 * the run that was never stopped (nrpa, nmcs, beam; psolve-mpi's dnrpa in
 * test_mpi.c), and dfs's proof of a cost game with the same optimum; a
 * checkpoint of another run, a truncated
 * one and a missing one are refused with exit 2 and the file named.
 * Budgets only: nothing here depends on the clock.
 */
#include "support.h"

#include "checkpoint.h"
#include "savefile.h"

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
                     0); /* stopped by the budget, a line printed */
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
    /* --grow (the default): one run, whose state is the top level's
     * iteration; --grow 0 --fit 0: restarts of --iterations (--fit 1 sizes
     * its searches to the budget, which the part run and the whole run do
     * not share, so a run with --checkpoint or --resume never fits) */
    resume_equals_uninterrupted(f->dir, "nrpa", "--level 2 --seed 3",
                                150000, 400000);
    resume_equals_uninterrupted(f->dir, "nrpa",
                                "--level 2 --seed 3 --grow 0 --fit 0", 150000,
                                400000);
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

/* dfs on a cost game keeps its place in a round (dfs_place.h): ARGS on
 * BOARD stopped by budgets from 40 nodes up to the whole proof, in every
 * round and at every depth, and resumed without a limit: each run proves
 * the uninterrupted run's optimum. A resume starts with an empty table,
 * so the line and the counters may differ; the cost and the status may
 * not. Returns the uninterrupted run's expansions. */
static long long dfs_resumes_to_the_optimum(const char *dir, const char *args,
                                            const char *board)
{
    test_psolve(dir, out, sizeof out, false, "--quiet %s --algo dfs %s", args,
                board);
    assert_non_null(strstr(out, "# status: optimal"));
    long long cost = counter(out, "cost"), total = counter(out, "expanded");
    assert_true(cost > 0 && total > 1000);
    for (long long budget = 40; budget < total; budget = budget * 2) {
        /* stopped by the budget: 0 with a line, 4 before the first */
        int rc = test_psolve(dir, out, sizeof out, false,
                             "--quiet %s --algo dfs --max-nodes %lld "
                             "--checkpoint ckd.bin --checkpoint-every 0.001 %s",
                             args, budget, board);
        assert_true(rc == 0 || rc == 4);
        test_psolve(dir, again, sizeof again, false,
                    "--quiet %s --algo dfs --resume ckd.bin %s", args, board);
        if (!strstr(again, "# status: optimal") ||
            counter(again, "cost") != cost)
            fail_msg("%s %s stopped at %lld nodes and resumed: cost %lld, "
                     "the optimum is %lld\n%s",
                     args, board, budget, counter(again, "cost"), cost, again);
    }
    return total;
}

/* No lines' beam: the rounds must find the goal themselves (a beam's line
 * that costs the round's bound would end a resumed run at once). */
#define NO_BEAM "--dfs-cost-beam 0"

static void test_dfs_resume_keeps_the_optimum(void **state)
{
    struct test_dir *f = *state;
    /* 6x6 Former boards (gen) of 3,710 to 27,880 expansions in 4 to 6
     * rounds, and two 15-puzzles */
    const int seeds[] = {5, 9, 10};
    for (size_t b = 0; b < sizeof seeds / sizeof *seeds; b++) {
        char board[32];
        snprintf(board, sizeof board, "f%d.txt", seeds[b]);
        test_psolve(f->dir, out, sizeof out, false,
                    "gen --rules former --rows 6 --cols 6 --colors 5 "
                    "--seed %d > %s",
                    seeds[b], board);
        dfs_resumes_to_the_optimum(f->dir, "--rules former " NO_BEAM, board);
    }
    const char *puzzle = PSOLVE_SOURCE_DIR "/games/npuzzle/examples/15-36.txt";
    dfs_resumes_to_the_optimum(
        f->dir, NO_BEAM, PSOLVE_SOURCE_DIR "/games/npuzzle/examples/15-40.txt");
    long long total = dfs_resumes_to_the_optimum(f->dir, NO_BEAM, puzzle);
    /* It goes on from the file's place, not from its round's start: 15-36
     * (54,518 nodes, the last round 35,976) stopped late in its last round
     * (a place at `from` nodes), the rest costs about what the
     * uninterrupted run had left, not a whole round. */
    test_psolve(f->dir, out, sizeof out, false,
                "--quiet --algo dfs " NO_BEAM " --max-nodes 50000 "
                "--checkpoint ckd.bin --checkpoint-every 0.001 %s",
                puzzle);
    test_psolve(f->dir, again, sizeof again, false,
                "--quiet --algo dfs " NO_BEAM " --max-nodes 1 --resume ckd.bin %s",
                puzzle);
    long long from = counter(again, "expanded");
    assert_true(from >= 45000 && from < total);
    test_psolve(f->dir, again, sizeof again, false,
                "--quiet --algo dfs " NO_BEAM " --resume ckd.bin %s", puzzle);
    long long rest = counter(again, "expanded") - from;
    if (rest > 2 * (total - from) + 2048)
        fail_msg("resumed at %lld of %lld nodes, the rest took %lld", from,
                 total, rest);
    /* A score game: dfs keeps no checkpoint there. */
    assert_int_equal(test_psolve(f->dir, out, sizeof out, true,
                                 "--quiet --algo dfs --checkpoint x.bin %s",
                                 BOARD),
                     2);
    assert_non_null(strstr(out, "only on a cost game"));
}

/* Each refusal: exit 2, the checkpoint file named, the reason said. */
static void refused(const char *dir, const char *args, const char *why)
{
    assert_int_equal(test_psolve(dir, out, sizeof out, true, "--quiet %s", args),
                     2);
    assert_non_null(strstr(out, "error: cannot resume"));
    assert_non_null(strstr(out, why));
}

/* A growing nrpa run (--grow, under a budget) saved past its top level's
 * --iterations, resumed without a budget (so without growing): an error
 * that says why and how to resume it, not "corrupt"; with a budget it
 * resumes. */
static void test_grown_run_needs_a_budget(void **state)
{
    struct test_dir *f = *state;
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --algo nrpa --level 2 --iterations 3 "
                                 "--seed 3 --max-nodes 20000 --checkpoint "
                                 "grown.bin --checkpoint-every 0.001 %s",
                                 BOARD),
                     0);
    assert_int_equal(test_psolve(f->dir, out, sizeof out, true,
                                 "--quiet --algo nrpa --level 2 --iterations 3 "
                                 "--seed 3 --resume grown.bin %s",
                                 BOARD),
                     1);
    assert_non_null(strstr(out, "past this run's 3"));
    assert_non_null(strstr(out, "resume it with --time or --max-nodes"));
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --algo nrpa --level 2 --iterations 3 "
                                 "--seed 3 --resume grown.bin --max-nodes "
                                 "30000 %s",
                                 BOARD),
                     0);
}

static void test_refusals(void **state)
{
    struct test_dir *f = *state;
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --algo nrpa --level 2 --seed 3 "
                                 "--max-nodes 20000 --checkpoint ck.bin %s",
                                 BOARD),
                     0); /* stopped by the budget, a line printed */
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
                                 "--quiet --algo greedy --checkpoint x.bin %s",
                                 BOARD),
                     2);
    assert_non_null(strstr(out, "keeps no checkpoint"));
}


/* ---- forged checkpoints: the checksum right, the contents not ---- */

/* Where the parts of a checkpoint's payload lie (docs/checkpoint.md):
 * the file's best line, then each part. */
struct ckpt_map {
    unsigned char *p;
    size_t len;
    size_t best;    /* the file's best line: found, value, len, moves */
    int nparts;
    size_t part[4]; /* each part's first byte */
    size_t part_len[4];
};

static uint64_t at_u64(const unsigned char *p, size_t at)
{
    uint64_t v;
    memcpy(&v, p + at, sizeof v);
    return v;
}

static void put_u64(unsigned char *p, size_t at, uint64_t v)
{
    memcpy(p + at, &v, sizeof v);
}

static void put_u32(unsigned char *p, size_t at, uint32_t v)
{
    memcpy(p + at, &v, sizeof v);
}

/* A line's end (found, value, len, then len 4-byte moves). */
static size_t line_end(const unsigned char *p, size_t at)
{
    return at + 24 + 4 * (size_t)at_u64(p, at + 16);
}

static void map_read(const char *dir, const char *name, struct ps_savefile_header *h,
                     struct ckpt_map *m)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    void *data;
    uint64_t size;
    assert_int_equal(ps_savefile_read(path, PS_CHECKPOINT_MAGIC,
                                      PS_CHECKPOINT_FORMAT, h, &data, &size),
                     PS_SAVEFILE_OK);
    memset(m, 0, sizeof *m);
    m->p = data;
    m->len = (size_t)size;
    m->best = 8 + (size_t)at_u64(m->p, 0) + 8;
    size_t at = line_end(m->p, m->best);
    m->nparts = (int)at_u64(m->p, at);
    assert_true(m->nparts >= 1 && m->nparts <= 4);
    at += 8;
    for (int i = 0; i < m->nparts; i++) {
        m->part_len[i] = (size_t)at_u64(m->p, at);
        m->part[i] = at + 8;
        at += 8 + m->part_len[i];
    }
    assert_int_equal(at, m->len);
}

/* Write m's payload to dir/name with its checksum recomputed. */
static void map_write(const char *dir, const char *name,
                      const struct ps_savefile_header *h,
                      const struct ckpt_map *m)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct ps_savefile_header nh = *h;
    nh.count = m->len;
    struct ps_error err;
    assert_true(ps_savefile_write(path, &nh, m->p, m->len, &err));
}

/* The real file resumed: not refused (the checks pass an honest file). */
static void honest_resumes(const char *dir, const char *args)
{
    test_psolve(dir, out, sizeof out, true, "--quiet %s", args);
    if (strstr(out, "cannot resume") || strstr(out, "Sanitizer"))
        fail_msg("'%s' refused an honest checkpoint: %s", args, out);
}

/* A forged file resumed: refused with the reason, the forged score never
 * printed, nothing a sanitizer reports, no `optimal`. */
static void forged_refused(const char *dir, const char *args, const char *why)
{
    int rc = test_psolve(dir, out, sizeof out, true, "--quiet %s", args);
    if (!strstr(out, why))
        fail_msg("'%s' did not say '%s': %s", args, why, out);
    assert_int_not_equal(rc, 0);
    assert_null(strstr(out, "Sanitizer"));
    assert_null(strstr(out, "runtime error"));
    assert_null(strstr(out, "# score: 99999"));
    assert_null(strstr(out, "optimal"));
}

/* The head of a part: the PRNG (nrpa, nmcs), 15 counters, the best line. */
static size_t part_line(const struct ckpt_map *m, int part, bool rng)
{
    return m->part[part] + (rng ? 32 : 0) + 15 * 8;
}

#define NRPA "--algo nrpa --level 2 --seed 3 "
#define NMCS "--algo nmcs --level 1 --seed 3 "

static void test_forged(void **state)
{
    struct test_dir *f = *state;
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet " NRPA "--max-nodes 20000 "
                                 "--checkpoint real.bin --checkpoint-every "
                                 "0.001 %s", BOARD),
                     0); /* stopped by the budget, a line printed */
    struct ps_savefile_header h;
    struct ckpt_map m;
    map_read(f->dir, "real.bin", &h, &m);
    assert_int_equal(at_u64(m.p, m.best), 1); /* the file has a best line */
    honest_resumes(f->dir, NRPA "--max-nodes 30000 --resume real.bin " BOARD);
    unsigned char *honest = malloc(m.len);
    assert_non_null(honest);
    memcpy(honest, m.p, m.len);
    /* the file's best line: a move id of 4e9 */
    put_u32(m.p, m.best + 24, 4000000000u);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NRPA "--resume f.bin " BOARD, "does not replay");
    /* its score forged */
    memcpy(m.p, honest, m.len);
    put_u64(m.p, m.best + 8, 99999);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NRPA "--resume f.bin " BOARD, "does not replay");
    /* a move on an empty cell: the line played twice over */
    memcpy(m.p, honest, m.len);
    size_t len = (size_t)at_u64(m.p, m.best + 16);
    assert_true(len >= 2);
    memcpy(m.p + m.best + 24 + 4, m.p + m.best + 24, 4);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NRPA "--resume f.bin " BOARD, "does not replay");
    /* a part's best line (the worker's head) */
    memcpy(m.p, honest, m.len);
    size_t line = part_line(&m, 0, true);
    assert_int_equal(at_u64(m.p, line), 1);
    put_u32(m.p, line + 24, 4000000000u);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NRPA "--resume f.bin " BOARD, "state is corrupt");
    /* the top level's best line, then a weight made infinite */
    memcpy(m.p, honest, m.len);
    size_t level = line_end(m.p, line);
    put_u32(m.p, level + 32, 4000000000u);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NRPA "--resume f.bin " BOARD, "state is corrupt");
    memcpy(m.p, honest, m.len);
    size_t pol = level + 32 + 4 * (size_t)at_u64(m.p, level + 24);
    assert_true(at_u64(m.p, pol) > 0);
    double inf = 1.0 / 0.0;
    memcpy(m.p + pol + 16, &inf, sizeof inf);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NRPA "--resume f.bin " BOARD, "state is corrupt");
    free(m.p);
    /* a best line of 10,000 moves in a file grown to hold them */
    size_t grown = 10000 * 4;
    unsigned char *big = calloc(1, m.len + grown);
    assert_non_null(big);
    size_t head = m.best + 24, tail = line_end(honest, m.best);
    memcpy(big, honest, head);
    put_u64(big, m.best + 16, 10000);
    for (size_t k = 0; k < 10000; k++)
        put_u32(big, head + 4 * k, 5);
    memcpy(big + head + grown, honest + tail, m.len - tail);
    m.p = big;
    m.len = head + grown + (m.len - tail);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NRPA "--resume f.bin " BOARD, "does not replay");
    free(big);
    free(honest);

    /* nmcs: its best line, whose first moves it plays again */
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet " NMCS "--max-nodes 200000 "
                                 "--checkpoint nmcs.bin --checkpoint-every "
                                 "0.001 %s", BOARD),
                     0); /* stopped by the budget, a line printed */
    honest_resumes(f->dir, NMCS "--max-nodes 300000 --resume nmcs.bin " BOARD);
    map_read(f->dir, "nmcs.bin", &h, &m);
    size_t top = line_end(m.p, part_line(&m, 0, true));
    size_t played = (size_t)at_u64(m.p, top);
    assert_true(played >= 1 && at_u64(m.p, top + 8) == 1);
    put_u32(m.p, top + 32, 4000000000u);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, NMCS "--resume f.bin " BOARD, "state is corrupt");
    free(m.p);

    /* beam: a position's move, then its score */
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --algo beam --beam-width 200 "
                                 "--max-nodes 3000 --checkpoint beam.bin "
                                 "--checkpoint-every 0.001 %s", BOARD),
                     0); /* stopped by the budget, a line printed */
    honest_resumes(f->dir, "--algo beam --beam-width 200 --max-nodes 6000 "
                           "--resume beam.bin " BOARD);
    map_read(f->dir, "beam.bin", &h, &m);
    honest = malloc(m.len);
    assert_non_null(honest);
    memcpy(honest, m.p, m.len);
    size_t bs = line_end(m.p, part_line(&m, 0, false));
    size_t count = (size_t)at_u64(m.p, bs + 24);
    assert_true(at_u64(m.p, bs + 16) >= 1 && count >= 1);
    size_t steps = bs + 32 + 8 * count;
    put_u32(m.p, steps + 4, 4000000000u); /* the first step's move */
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, "--algo beam --beam-width 200 --resume f.bin " BOARD,
                   "beam's state is corrupt");
    memcpy(m.p, honest, m.len);
    put_u64(m.p, bs + 32, 99999); /* the first position's score */
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, "--algo beam --beam-width 200 --resume f.bin " BOARD,
                   "beam's state is corrupt");
    free(honest);
    free(m.p);
}

/* A count, then that many bytes (a part of the file): the bound is what
 * follows the count. Measured before the count was read, a part could end
 * 8 bytes past the file and the next part's bound wrap around: a hang that
 * fuzz_checkpoint found. The buffer is exactly the file, so a sanitizer
 * sees any read past it. */
/* dfs's place on a cost game (dfs_place.h), forged: a best line with a
 * move code no game lists (the 15-puzzle formatted it, reading outside
 * the board, until the replay named such moves by their code), a path
 * move at an index the game does not have, a next bound under the
 * round's, rounds said to be unsound. */
#define DFS15 "--algo dfs " PSOLVE_SOURCE_DIR "/games/npuzzle/examples/15-36.txt"

static void test_forged_dfs(void **state)
{
    struct test_dir *f = *state;
    assert_int_equal(test_psolve(f->dir, out, sizeof out, false,
                                 "--quiet --max-nodes 30000 --checkpoint "
                                 "dfs.bin --checkpoint-every 0.001 " DFS15),
                     0); /* the lines' beam has given a line */
    struct ps_savefile_header h;
    struct ckpt_map m;
    map_read(f->dir, "dfs.bin", &h, &m);
    assert_int_equal(at_u64(m.p, m.best), 1);
    honest_resumes(f->dir, "--max-nodes 40000 --resume dfs.bin " DFS15);
    unsigned char *honest = malloc(m.len);
    assert_non_null(honest);
    memcpy(honest, m.p, m.len);
    /* the place: bound, next bound, depth cut, sound, beam width, beam at,
     * len, then (index, move) per depth */
    size_t place = line_end(m.p, part_line(&m, 0, false));
    assert_true(at_u64(m.p, place + 48) >= 1); /* a place below the root */
    put_u32(m.p, m.best + 24, 4000000000u);
    map_write(f->dir, "f.bin", &h, &m);
    forged_refused(f->dir, "--resume f.bin " DFS15, "does not replay");
    const struct {
        size_t at;
        uint64_t value;
        const char *why;
    } forged[] = {
        {place + 56, 7, "dfs's path is corrupt"}, /* a 5th move of 4 */
        {place + 8, at_u64(m.p, place), "dfs's round is corrupt"},
        {place + 24, 0, "not admissible"},
    };
    for (size_t k = 0; k < sizeof forged / sizeof *forged; k++) {
        memcpy(m.p, honest, m.len);
        put_u64(m.p, forged[k].at, forged[k].value);
        map_write(f->dir, "f.bin", &h, &m);
        forged_refused(f->dir, "--resume f.bin " DFS15, forged[k].why);
    }
    free(honest);
    free(m.p);
}

static void test_counted_bytes_stay_inside(void **state)
{
    (void)state;
    unsigned char *file = malloc(8 + 4);
    assert_non_null(file);
    uint64_t n = 4;
    memcpy(file, &n, 8);
    memcpy(file + 8, "abcd", 4);
    struct ps_ckpt_reader r = {.p = file, .len = 12};
    size_t got;
    const unsigned char *bytes = ps_ckpt_get_bytes(&r, &got);
    assert_non_null(bytes);
    assert_int_equal(got, 4);
    assert_memory_equal(bytes, "abcd", 4);
    assert_int_equal(r.pos, r.len);
    /* 12: what was left before the count, 8 more than after it */
    n = 12;
    memcpy(file, &n, 8);
    r = (struct ps_ckpt_reader){.p = file, .len = 12};
    assert_null(ps_ckpt_get_bytes(&r, &got));
    assert_true(r.bad);
    assert_int_equal(got, 0);
    assert_true(r.pos <= r.len);
    free(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nrpa_resume),
        cmocka_unit_test(test_nmcs_resume),
        cmocka_unit_test(test_beam_resume),
        cmocka_unit_test(test_dfs_resume_keeps_the_optimum),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_grown_run_needs_a_budget),
        cmocka_unit_test(test_forged),
        cmocka_unit_test(test_forged_dfs),
        cmocka_unit_test(test_counted_bytes_stay_inside),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
