/*
 * support.h - small helpers shared by the cmocka tests: load a puzzle from a
 * string with a preset, set a rule parameter by name, play moves by text.
 */
#ifndef PS_TEST_SUPPORT_H
#define PS_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "game.h"
#include "search.h"

/* Algorithms' own options by name, as the command line sets them: --NAME
 * VALUE sets NAME in every algorithm that declares it. The options point at
 * one book per test process (tests run one at a time); the first setting on
 * options without it starts a fresh book. */
static struct ps_algo_book test_book;

static inline void test_option(struct ps_options *o, const char *name,
                               const char *value)
{
    if (o->book != &test_book) {
        ps_algo_book_init(&test_book, NULL);
        o->book = &test_book;
    }
    o->own.algo = NULL; /* the next run takes its options from the book */
    char msg[300];
    if (!ps_algo_book_set(&test_book, o, name, value, msg, sizeof msg))
        fail_msg("option %s %s: %s", name, value ? value : "", msg);
}

static inline void test_option_int(struct ps_options *o, const char *name,
                                   long long value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    test_option(o, name, text);
}

/* A FLAG option: set when on (a flag cannot be unset, as on the command
 * line). */
static inline void test_option_flag(struct ps_options *o, const char *name,
                                    bool on)
{
    if (on)
        test_option(o, name, NULL);
}

/* The value of option `name` of algorithm `algo` in book b, as a number
 * (a FLAG: 1 when set; ps_option_format's text read by strtod). */
static inline double test_book_value(const struct ps_algo_book *b,
                                     const char *algo, const char *name)
{
    const struct ps_algorithm *a = ps_algorithm_find(algo);
    assert_non_null(a);
    const struct ps_option *opt = ps_algorithm_option(a, name);
    assert_non_null(opt);
    struct ps_options o;
    ps_options_default(&o);
    o.book = b;
    ps_algo_options_use(&o, a);
    char text[128];
    ps_option_format(opt, ps_algorithm_option_base(a, opt, &o), text,
                     sizeof text);
    return strtod(text, NULL);
}

/* The value of option `name` in the options of a run (o->own's algorithm,
 * e.g. a parsed --algo variant). */
static inline double test_own_value(const struct ps_options *o,
                                    const char *name)
{
    assert_non_null(o->own.algo);
    const struct ps_algorithm *a = o->own.algo;
    const struct ps_option *opt = ps_algorithm_option(a, name);
    assert_non_null(opt);
    struct ps_options copy = *o;
    char text[128];
    ps_option_format(opt, ps_algorithm_option_base(a, opt, &copy), text,
                     sizeof text);
    return strtod(text, NULL);
}

/* The rules of `g` with `preset` applied (NULL = defaults); free() them. */
static inline void *test_rules(const struct ps_game *g, const char *preset)
{
    void *rules = calloc(1, g->rules_size);
    struct ps_error err;
    assert_non_null(rules);
    assert_true(ps_rules_preset(g, rules, preset, &err));
    return rules;
}

static inline const struct ps_param *test_param(const struct ps_game *g,
                                                const char *key)
{
    for (const struct ps_param *p = g->params; p->key; p++)
        if (strcmp(p->key, key) == 0)
            return p;
    fail_msg("no rule parameter %s", key);
    return NULL;
}

/* Set an INT, BOOL or ENUM (by index) parameter. */
static inline void test_set_param(const struct ps_game *g, void *rules,
                                  const char *key, int64_t value)
{
    const struct ps_param *p = test_param(g, key);
    char *field = (char *)rules + p->offset;
    switch (p->type) {
    case PS_PARAM_INT: memcpy(field, &value, sizeof value); break;
    case PS_PARAM_BOOL: { bool b = value != 0; memcpy(field, &b, sizeof b); break; }
    case PS_PARAM_ENUM: { int v = (int)value; memcpy(field, &v, sizeof v); break; }
    case PS_PARAM_TABLE: fail_msg("%s is a table", key);
    }
}

/* Entry i of a TABLE parameter. */
static inline int64_t *test_table(const struct ps_game *g, void *rules,
                                  const char *key)
{
    const struct ps_param *p = test_param(g, key);
    assert_int_equal(p->type, PS_PARAM_TABLE);
    return (int64_t *)((char *)rules + p->offset);
}

/* Load `text` under `rules`; the test fails with the parser's message. */
static inline void *test_load(const struct ps_game *g, const void *rules,
                              const char *text)
{
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = g->load(rules, "test", text, strlen(text), &err);
    if (!inst)
        fail_msg("load failed: %d:%d: %s", err.line, err.col, err.msg);
    return inst;
}

/* Expect load to fail at line:col (col 0 = do not check) with a message
 * containing `needle`. */
static inline void test_load_fails(const struct ps_game *g, const void *rules,
                                   const char *text, int line, int col,
                                   const char *needle)
{
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = g->load(rules, "bad.txt", text, strlen(text), &err);
    if (inst) {
        g->free_instance(inst);
        fail_msg("load of a bad board succeeded (expected: %s)", needle);
    }
    if (line)
        assert_int_equal(err.line, line);
    if (col)
        assert_int_equal(err.col, col);
    if (!strstr(err.msg, needle))
        fail_msg("message '%s' lacks '%s'", err.msg, needle);
    assert_string_equal(err.file, "bad.txt");
}

/* Apply the move given as text to `state` in place; returns its gain/cost. */
static inline ps_value test_play(const struct ps_game *g, const void *inst,
                                 void *state, const char *text)
{
    ps_move m;
    struct ps_error err;
    ps_error_clear(&err);
    if (!g->parse_move(inst, state, text, &m, &err))
        fail_msg("move '%s' rejected: %s", text, err.msg);
    size_t size = g->state_size(inst);
    void *next = malloc(size);
    assert_non_null(next);
    ps_value v = g->apply(inst, state, m, next);
    memcpy(state, next, size);
    free(next);
    return v;
}

/* The state printed without colours, into a static buffer. */
static inline const char *test_print(const struct ps_game *g, const void *inst,
                                     const void *state)
{
    static char buf[8192];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    g->print_state(inst, state, f, false);
    fclose(f);
    return buf;
}

static inline void *test_initial(const struct ps_game *g, const void *inst)
{
    void *s = malloc(g->state_size(inst));
    assert_non_null(s);
    g->initial_state(inst, s);
    return s;
}

/* Free what test_initial, test_load and test_rules gave (any may be NULL). */
static inline void test_release(const struct ps_game *g, void *inst,
                                void *state, void *rules)
{
    free(state);
    if (inst)
        g->free_instance(inst);
    free(rules);
}

/* The text `g` generates with options `o`; free() it. */
static inline char *test_generate(const struct ps_game *g,
                                  const struct ps_gen_options *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(g->generate(o, mem, &err));
    fclose(mem);
    return text;
}

/* Run shell command `cmd`; its stdout goes into out. Returns the exit
 * status. */
static inline int test_run_shell(const char *cmd, char *out, size_t outlen)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    /* Read to the end whatever does not fit: closing the pipe early would
     * kill psolve with SIGPIPE, and the exit status would be the signal's. */
    char rest[4096];
    while (fread(rest, 1, sizeof rest, p) > 0)
        ;
    int st = pclose(p);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* Run `psolve ARGS` through the shell in directory `dir`; stdout (and stderr
 * if merge, else it is dropped) goes into out. Returns the exit status. */
static inline int test_psolve_v(const char *dir, char *out, size_t outlen,
                                bool merge, const char *fmt, va_list ap)
{
    char args[4096], cmd[8192];
    vsnprintf(args, sizeof args, fmt, ap);
    snprintf(cmd, sizeof cmd, "cd %s && %s %s%s", dir, PSOLVE_BIN, args,
             merge ? " 2>&1" : " 2>/dev/null");
    return test_run_shell(cmd, out, outlen);
}

/* test_psolve_v with the arguments given directly. */
static inline int test_psolve(const char *dir, char *out, size_t outlen,
                              bool merge, const char *fmt, ...)
    PS_PRINTF(5, 6);
static inline int test_psolve(const char *dir, char *out, size_t outlen,
                              bool merge, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = test_psolve_v(dir, out, outlen, merge, fmt, ap);
    va_end(ap);
    return rc;
}

/* The text of the file at path (at most 64 KiB), malloc'd. */
static inline char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

/* Write `text` to dir/name. */
static inline void test_write_file(const char *dir, const char *name,
                                   const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* What Open MPI needs to run as root, oversubscribed (CI), and, under
 * LeakSanitizer, Open MPI's own blocks kept until exit told apart from
 * psolve's leaks (tests/mpi-lsan.supp): for tests that run mpirun. */
static inline void test_mpi_environment(void)
{
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
    setenv("LSAN_OPTIONS",
           "suppressions=" PSOLVE_SOURCE_DIR "/tests/mpi-lsan.supp:"
           "fast_unwind_on_malloc=0:print_suppressions=0",
           1);
}

/* A temporary directory for one group of tests, as cmocka group setup and
 * teardown: *state is a struct test_dir. */
struct test_dir {
    char dir[64];
};

static inline int test_dir_setup(void **state)
{
    struct test_dir *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/psolve-test-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    *state = f;
    return 0;
}

static inline int test_dir_teardown(void **state)
{
    struct test_dir *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    int rc = system(cmd);
    free(f);
    return rc == 0 ? 0 : -1;
}

#endif
