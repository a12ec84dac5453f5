/*
 * test_options.c - the option tables (options.h): every option an
 * algorithm declares works as --NAME V on the command line and as
 * --algo ALGO:NAME=V, and sets the same field to the same value (in the
 * algorithm's own options struct, or in struct ps_options for the shared
 * ones); ranges are enforced by both; names shared by tables agree on type;
 * every options struct fits and has its defaults.
 */
#include <string.h>

#include "support.h"

#include "cli.h"
#include "variant.h"

extern const struct ps_game samegame_game, npuzzle_game, watersort_game;

/* A value inside the option's range, different from the algorithm's
 * default (so that setting it shows). */
static const char *sample(const struct ps_algorithm *a,
                          const struct ps_option *o, char *buf, size_t len)
{
    struct ps_options def;
    ps_options_default(&def);
    ps_algo_options_use(&def, a);
    int now;
    switch (o->type) {
    case PS_OPT_INT:
        memcpy(&now, (char *)ps_algorithm_option_base(a, o, &def) + o->offset,
               sizeof now);
        snprintf(buf, len, "%d", (int)(o->min + 1 <= o->max && o->min + 1 != now
                                           ? o->min + 1
                                           : o->min + 2 <= o->max ? o->min + 2
                                                                  : o->min));
        return buf;
    case PS_OPT_DOUBLE: {
        double was;
        memcpy(&was, (char *)ps_algorithm_option_base(a, o, &def) + o->offset,
               sizeof was);
        double v = 1.5 >= o->min && 1.5 <= o->max && was != 1.5
                       ? 1.5
                       : (o->min + o->max) / 2;
        snprintf(buf, len, "%.6f", v);
        return buf;
    }
    case PS_OPT_CHOICE: return strchr(o->choices, '|') + 1;
    case PS_OPT_STRING: return "topk";
    case PS_OPT_FLAG: return NULL;
    }
    return NULL;
}

/* Option o of algorithm a in the options of a run of a made from opt
 * (opt->own, or a's entry of opt->book, else a's defaults). */
static const char *field_of(const struct ps_algorithm *a,
                            const struct ps_option *o,
                            const struct ps_options *opt, struct ps_options *tmp)
{
    *tmp = *opt;
    ps_algo_options_use(tmp, a);
    return (const char *)ps_algorithm_option_base(a, o, tmp) + o->offset;
}

static bool field_equal(const struct ps_algorithm *alg,
                        const struct ps_option *o, const struct ps_options *a,
                        const struct ps_options *b)
{
    struct ps_options ta, tb;
    const char *fa = field_of(alg, o, a, &ta);
    const char *fb = field_of(alg, o, b, &tb);
    switch (o->type) {
    case PS_OPT_INT: return memcmp(fa, fb, sizeof(int)) == 0;
    case PS_OPT_DOUBLE: return memcmp(fa, fb, sizeof(double)) == 0;
    case PS_OPT_FLAG:
    case PS_OPT_CHOICE: return *(const bool *)fa == *(const bool *)fb;
    case PS_OPT_STRING: {
        const char *sa, *sb;
        memcpy(&sa, fa, sizeof sa);
        memcpy(&sb, fb, sizeof sb);
        return (!sa && !sb) || (sa && sb && strcmp(sa, sb) == 0);
    }
    }
    return false;
}

static const struct ps_frontend plain;

/* ps_cli_parse on the words (NULL-terminated); its status. */
static int parse(struct cli *c, const char *const *words)
{
    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)"psolve";
    for (; *words; words++)
        argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    return ps_cli_parse(argc, argv, &plain, c);
}

static void check_option(const struct ps_algorithm *a,
                         const struct ps_option *o)
{
    const struct ps_game *g = a->for_score ? &samegame_game : &npuzzle_game;
    char buf[32], item[96];
    const char *value = sample(a, o, buf, sizeof buf);
    /* --NAME V */
    struct cli c;
    const char *words[] = {"--" "x", value, "board.txt", NULL};
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", o->name);
    words[0] = flag;
    if (!value) {
        words[1] = "board.txt";
        words[2] = NULL;
    }
    if (parse(&c, words) != -1)
        fail_msg("%s: --%s %s refused", a->name, o->name, value ? value : "");
    struct ps_options def;
    ps_options_default(&def);
    if (field_equal(a, o, &c.opt, &def))
        fail_msg("%s: --%s %s left the field alone", a->name, o->name,
                 value ? value : "");
    /* --algo ALGO:NAME=V sets the same */
    snprintf(item, sizeof item, "%s:%s%s%s", a->name, o->name,
             value ? "=" : "", value ? value : "");
    struct ps_variant v[4];
    int n;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_variants_parse(item, NULL, g, NULL, &def, v, 4, &n, &err))
        fail_msg("--algo %s refused: %s", item, err.msg);
    assert_int_equal(n, 1);
    if (!field_equal(a, o, &c.opt, &v[0].opt))
        fail_msg("--%s and --algo %s set different values", o->name, item);
    /* Out of range: refused by both. */
    if (o->type == PS_OPT_INT && o->max < 1e9) {
        snprintf(buf, sizeof buf, "%d", (int)o->max + 1);
        const char *bad[] = {flag, buf, "board.txt", NULL};
        assert_int_equal(parse(&c, bad), PS_EXIT_USAGE);
        snprintf(item, sizeof item, "%s:%s=%s", a->name, o->name, buf);
        assert_false(ps_variants_parse(item, NULL, g, NULL, &def, v, 4, &n,
                                       &err));
    }
    if (o->type == PS_OPT_INT && o->min > 0) {
        snprintf(buf, sizeof buf, "%d", (int)o->min - 1);
        const char *bad[] = {flag, buf, "board.txt", NULL};
        assert_int_equal(parse(&c, bad), PS_EXIT_USAGE);
        snprintf(item, sizeof item, "%s:%s=%s", a->name, o->name, buf);
        assert_false(ps_variants_parse(item, NULL, g, NULL, &def, v, 4, &n,
                                       &err));
    }
}

static void test_every_option_both_ways(void **unused)
{
    (void)unused;
    int checked = 0;
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++) {
        const struct ps_option *tables[] = {(*a)->options,
                                            (*a)->shared_options};
        for (int t = 0; t < 2; t++)
            for (const struct ps_option *o = tables[t]; o && o->name; o++) {
                check_option(*a, o);
                checked++;
            }
    }
    assert_true(checked >= 18);
}

/* A name two tables declare has one type (the field may be another
 * algorithm's struct's); no algorithm option shadows one of the command
 * line's own. */
static void test_names_agree(void **unused)
{
    (void)unused;
    const struct ps_option *seen[128];
    int n = 0;
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++) {
        const struct ps_option *tables[] = {(*a)->options,
                                            (*a)->shared_options};
        for (int t = 0; t < 2; t++)
            for (const struct ps_option *o = tables[t]; o && o->name; o++) {
                bool gen = false;
                for (const struct ps_game *const *g = ps_game_list(); *g; g++)
                    gen |= ps_option_find((*g)->gen_options, o->name) != NULL;
                if (ps_option_find(ps_cli_options, o->name) || gen)
                    fail_msg("%s's option %s is also the command line's",
                             (*a)->name, o->name);
                assert_non_null(o->doc);
                for (int i = 0; i < n; i++)
                    if (strcmp(seen[i]->name, o->name) == 0 &&
                        seen[i]->type != o->type)
                        fail_msg("option %s: two tables disagree", o->name);
                assert_true(n < 128);
                seen[n++] = o;
            }
    }
}

/* Every algorithm's options struct fits struct ps_algo_options and has its
 * defaults; the book holds every algorithm; a run of another algorithm
 * takes its own options from the book, not the last run's. */
static void test_options_structs(void **unused)
{
    (void)unused;
    int n = 0;
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++) {
        n++;
        assert_true((*a)->options_size <= PS_ALGO_OPTIONS_SIZE);
        if ((*a)->options && (*a)->options->name)
            assert_true((*a)->options_size > 0 && (*a)->options_default);
        for (const struct ps_option *o = (*a)->options; o && o->name; o++)
            assert_true(o->offset < (*a)->options_size);
    }
    struct ps_algo_book book;
    ps_algo_book_init(&book, NULL);
    assert_int_equal(book.n, n);
    struct ps_options o;
    ps_options_default(&o);
    char msg[200];
    assert_true(ps_algo_book_set(&book, &o, "level", "4", msg, sizeof msg));
    assert_false(ps_algo_book_set(&book, &o, "levle", "4", msg, sizeof msg));
    o.book = &book;
    const struct ps_algorithm *nrpa = ps_algorithm_find("nrpa");
    const struct ps_algorithm *nmcs = ps_algorithm_find("nmcs");
    assert_true(ps_algo_option_set(&o, nrpa, "iterations", "7", msg,
                                   sizeof msg));
    assert_int_equal(test_own_value(&o, "iterations"), 7);
    assert_int_equal(test_own_value(&o, "level"), 4); /* the book's */
    ps_algo_options_use(&o, nmcs);
    assert_int_equal(test_own_value(&o, "level"), 4);
    ps_algo_options_use(&o, nrpa);
    assert_int_equal(test_own_value(&o, "iterations"), 30); /* not 7 */
    assert_false(ps_algo_option_set(&o, nrpa, "weight", "2", msg, sizeof msg));
}

/* An unknown option is refused with the nearest name, once. */
static void test_unknown_and_range_errors(void **unused)
{
    (void)unused;
    struct cli c;
    const char *tme[] = {"--tme", "3", "board.txt", NULL};
    assert_int_equal(parse(&c, tme), PS_EXIT_USAGE);
    const char *zero_time[] = {"--time", "0", "board.txt", NULL};
    assert_int_equal(parse(&c, zero_time), -1); /* 0 = no limit */
    /* gen's sizes are the game's: checked once the game is known. */
    const char *rows[] = {"gen", "--rows", "0", NULL};
    assert_int_equal(parse(&c, rows), -1);
    assert_int_equal(cli_gen_values(&c, &samegame_game), PS_EXIT_USAGE);
    const char *rows_ok[] = {"gen", "--rows", "4", "--colours", "3", NULL};
    assert_int_equal(parse(&c, rows_ok), -1);
    assert_int_equal(cli_gen_values(&c, &samegame_game), -1);
    assert_int_equal(c.gen.value[0], 4);
    assert_int_equal(c.gen.value[2], 3);
    /* A size the game does not declare is refused, not ignored. */
    assert_int_equal(cli_gen_values(&c, &watersort_game) == -1, false);
    const char *cap[] = {"gen", "--capacity", "1", NULL};
    assert_int_equal(parse(&c, cap), -1);
    assert_int_equal(cli_gen_values(&c, &watersort_game), PS_EXIT_USAGE);
    const char *level[] = {"--level", "7", "board.txt", NULL};
    assert_int_equal(parse(&c, level), PS_EXIT_USAGE);
    const char *ok[] = {"--level", "6", "--stabilise", "3", "board.txt", NULL};
    assert_int_equal(parse(&c, ok), -1);
    assert_int_equal(test_book_value(&c.book, "nrpa", "level"), 6);
    assert_int_equal(test_book_value(&c.book, "nmcs", "level"), 6);
    assert_int_equal(test_book_value(&c.book, "nrpa", "stabilise"), 3);
}

/* Empty parts of --algo and --heuristic are mistakes, never skipped:
 * 'astar:' was once accepted as astar, and 'greedy,,nrpa' as two runs. */
static void test_empty_items_refused(void **unused)
{
    (void)unused;
    static const char *const bad[] = {"astar:", ":astar", "astar::w=2",
                                      "astar,,idastar", "astar,", ",astar"};
    struct ps_options def;
    ps_options_default(&def);
    struct ps_variant v[4];
    int n;
    struct ps_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ps_error_clear(&err);
        if (ps_variants_parse(bad[i], NULL, &npuzzle_game, NULL, &def, v, 4,
                              &n, &err))
            fail_msg("--algo '%s' accepted", bad[i]);
        assert_non_null(strstr(err.msg, "empty") ? err.msg
                        : strstr(err.msg, "no algorithm name"));
    }
    ps_error_clear(&err);
    assert_false(ps_variants_parse("astar", "manhattan,", &npuzzle_game, NULL,
                                   &def, v, 4, &n, &err));
    assert_true(ps_variants_parse("astar,idastar", "manhattan", &npuzzle_game,
                                  NULL, &def, v, 4, &n, &err));
    assert_int_equal(n, 2);
    char longer[600];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    assert_false(ps_variants_parse(longer, NULL, &npuzzle_game, NULL, &def, v,
                                   4, &n, &err));
    assert_non_null(strstr(err.msg, "too long"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_option_both_ways),
        cmocka_unit_test(test_options_structs),
        cmocka_unit_test(test_names_agree),
        cmocka_unit_test(test_unknown_and_range_errors),
        cmocka_unit_test(test_empty_items_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
