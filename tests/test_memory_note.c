/*
 * test_memory_note.c - a search about to hold gigabytes says so once on
 * stderr, with its cap and the way to lower it (--max-memory); below the
 * mark, or over its cap, it says nothing. Only the accounting of
 * ps_memory_reserve is used: nothing is allocated.
 */
#include <fcntl.h>
#include <unistd.h>

#include "support.h"

#include "search.h"

extern const struct ps_game npuzzle_game;

/* Run fn(s) with stderr going to a file; the text it printed into buf. */
static void capture_stderr(void (*fn)(struct ps_search *), struct ps_search *s,
                           char *buf, size_t len)
{
    char path[] = "/tmp/psolve_memory_note_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fd, STDERR_FILENO) >= 0);
    fn(s);
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    ssize_t n = pread(fd, buf, len - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
}

/* Reserve 3 x 1 GiB, release, reserve again: the mark is passed twice. */
static void reserve_gigabytes(struct ps_search *s)
{
    for (int i = 0; i < 3; i++)
        assert_true(ps_memory_reserve(s, (uint64_t)1 << 30));
    ps_memory_release(s, (uint64_t)3 << 30);
    for (int i = 0; i < 3; i++)
        assert_true(ps_memory_reserve(s, (uint64_t)1 << 30));
}

static void reserve_little(struct ps_search *s)
{
    assert_true(ps_memory_reserve(s, (uint64_t)1 << 30));
    assert_true(ps_memory_reserve(s, ((uint64_t)1 << 30) - 1));
    /* Over the cap: refused, no note either. */
    assert_false(ps_memory_reserve(s, (uint64_t)8 << 30));
}

static void *load_8_puzzle(void)
{
    void *rules = test_rules(&npuzzle_game, NULL);
    void *inst = test_load(&npuzzle_game, rules, "1 2 3\n4 5 6\n7 0 8\n");
    free(rules);
    return inst;
}

/* What fn prints for a search on the 8-puzzle capped at cap_gib GiB. */
static void search_stderr(void (*fn)(struct ps_search *), int cap_gib,
                          char *out, size_t len)
{
    void *inst = load_8_puzzle();
    struct ps_limits limits = {.max_memory = (uint64_t)cap_gib << 30};
    struct ps_search s;
    ps_search_init(&s, &npuzzle_game, inst, &limits, NULL);
    s.algo_name = "bfs";
    capture_stderr(fn, &s, out, len);
    ps_search_free(&s);
    npuzzle_game.free_instance(inst);
}

static void test_note_once_past_two_gib(void **unused)
{
    (void)unused;
    static char out[4096];
    search_stderr(reserve_gigabytes, 16, out, sizeof out);
    const char *note = strstr(out, "psolve: note: bfs holds 3072 MiB of "
                                   "tables and buffers and may grow to 16384 "
                                   "MiB (--max-memory; the default is half "
                                   "of the memory this process may use); "
                                   "give --max-memory MB to cap it lower");
    if (!note)
        fail_msg("no memory note in:\n%s", out);
    assert_null(strstr(note + 1, "psolve: note:"));
}

static void test_no_note_below_the_mark(void **unused)
{
    (void)unused;
    static char out[4096];
    search_stderr(reserve_little, 4, out, sizeof out);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_note_once_past_two_gib),
        cmocka_unit_test(test_no_note_below_the_mark),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
