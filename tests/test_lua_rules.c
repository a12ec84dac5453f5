/*
 * test_lua_rules.c - Lua rule scripts: the shipped scripts against values
 * worked out by hand, variants changing play, the sandbox, the limits, the
 * documented errors, the search path, and verify --rules through the CLI.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

#include "game.h"
#include "lua_rules.h"
#include "rules.h"
#include "search.h"
#include "suggest.h"

#define SCRIPTS PSOLVE_SOURCE_DIR "/scripts/rules/"

/* Write text to dir/name; the path goes to `path`. */
static void write_file(const struct test_dir *f, const char *name,
                       const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", f->dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static const struct ps_game *samegame(void)
{
    const struct ps_game *g = ps_game_find("samegame");
    assert_non_null(g);
    return g;
}

/* ---- reading a rules struct through the game's schema ---- */

static int64_t int_of(const struct ps_game *g, const void *rules,
                      const char *key)
{
    int64_t v;
    memcpy(&v, (const char *)rules + test_param(g, key)->offset, sizeof v);
    return v;
}

static bool bool_of(const struct ps_game *g, const void *rules,
                    const char *key)
{
    return *(const bool *)((const char *)rules + test_param(g, key)->offset);
}

static const char *enum_of(const struct ps_game *g, const void *rules,
                           const char *key)
{
    const struct ps_param *p = test_param(g, key);
    int v;
    memcpy(&v, (const char *)rules + p->offset, sizeof v);
    return p->choices[v];
}

static const int64_t *table_of(const struct ps_game *g, void *rules,
                               const char *key)
{
    return test_table(g, rules, key);
}

/* Every schema field equal: a script and a preset give the same rules. */
static void assert_same_rules(const struct ps_game *g, const void *a,
                              const void *b)
{
    for (const struct ps_param *p = g->params; p->key; p++) {
        size_t size = p->type == PS_PARAM_INT     ? sizeof(int64_t)
                      : p->type == PS_PARAM_BOOL  ? sizeof(bool)
                      : p->type == PS_PARAM_ENUM  ? sizeof(int)
                                                  : (size_t)p->table_len *
                                                       (size_t)ps_param_rows(p) *
                                                       sizeof(int64_t);
        if (memcmp((const char *)a + p->offset, (const char *)b + p->offset,
                   size) != 0)
            fail_msg("rules differ in %s", p->key);
    }
}

static void *resolve(const struct ps_game *g, const char *spec,
                     struct ps_options *opt, struct ps_error *err)
{
    ps_options_default(opt);
    ps_algo_book_init(&test_book, NULL);
    opt->book = &test_book;
    ps_error_clear(err);
    return ps_rules_resolve(g, spec, &test_book, err);
}

static void *resolve_ok(const struct ps_game *g, const char *spec,
                        struct ps_options *opt)
{
    struct ps_error err;
    void *r = resolve(g, spec, opt, &err);
    if (!r) {
        char buf[1024];
        ps_error_format(&err, buf, sizeof buf);
        fail_msg("%s: %s", spec, buf);
    }
    return r;
}

/* Resolve a script written from text; expect failure; return the error. */
static struct ps_error script_error(const struct test_dir *f,
                                    const struct ps_game *g, const char *text)
{
    char path[256];
    write_file(f, "bad.lua", text, path, sizeof path);
    struct ps_options opt;
    struct ps_error err;
    void *r = resolve(g, path, &opt, &err);
    if (r)
        fail_msg("script was accepted:\n%s", text);
    assert_string_equal(err.file, path);
    return err;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("'%s' does not contain '%s'", hay, needle);
}

/* The script's rules equal those of the C preset `spec`. */
static void assert_same_as_preset(const struct ps_game *g, const void *rules,
                                  const char *spec)
{
    struct ps_options opt;
    void *preset = resolve_ok(g, spec, &opt);
    assert_same_rules(g, rules, preset);
    free(preset);
}

/* One expected entry of a TABLE parameter. */
struct entry {
    const char *table;
    int n;
    int64_t value;
};

static void assert_entries(const struct ps_game *g, void *rules,
                           const struct entry *want, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        int64_t got = table_of(g, rules, want[i].table)[want[i].n];
        if (got != want[i].value)
            fail_msg("%s[%d] = %lld, expected %lld", want[i].table, want[i].n,
                     (long long)got, (long long)want[i].value);
    }
}

/* ---- the shipped scripts ---- */

static void test_samegame_script(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_options opt;
    void *r = resolve_ok(g, "samegame", &opt);
    /* (n-2)^2, worked out by hand. */
    static const struct entry want[] = {
        {"score", 2, 0},   {"score", 3, 1},        {"score", 4, 4},
        {"score", 10, 64}, {"score", 225, 49729},  {"score", 1024, 1044484},
        {"end_bonus", 0, 0}, {"end_bonus", 5, 0},
    };
    assert_entries(g, r, want, sizeof want / sizeof want[0]);
    assert_int_equal(int_of(g, r, "clear_bonus"), 1000);
    assert_int_equal(int_of(g, r, "min_group"), 2);
    assert_true(bool_of(g, r, "gravity"));
    assert_string_equal(enum_of(g, r, "shift"), "left");
    assert_string_equal(enum_of(g, r, "objective"), "score");
    assert_false(test_book_value(opt.book, "dfs", "no-bound"));
    assert_false(test_book_value(opt.book, "dfs", "no-memo"));
    assert_same_as_preset(g, r, "builtin:samegame");
    free(r);
}

static void test_popstar_script(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_options opt;
    void *r = resolve_ok(g, "popstar", &opt);
    /* 5*n*n; 2000 - 20*r*r for r < 10, worked out by hand. */
    static const struct entry want[] = {
        {"score", 2, 20},       {"score", 5, 125},      {"score", 10, 500},
        {"end_bonus", 0, 2000}, {"end_bonus", 1, 1980}, {"end_bonus", 5, 1500},
        {"end_bonus", 9, 380},  {"end_bonus", 10, 0},   {"end_bonus", 100, 0},
    };
    assert_entries(g, r, want, sizeof want / sizeof want[0]);
    assert_int_equal(int_of(g, r, "clear_bonus"), 0);
    assert_same_as_preset(g, r, "builtin:popstar");
    free(r);
}

static void test_clickomania_script(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_options opt;
    void *r = resolve_ok(g, "clickomania", &opt);
    assert_string_equal(enum_of(g, r, "objective"), "fewest_left");
    assert_int_equal(int_of(g, r, "clear_bonus"), 0);
    assert_same_as_preset(g, r, "builtin:clickomania");
    free(r);
}

static void test_noshift_script(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_options opt;
    void *r = resolve_ok(g, "samegame-noshift", &opt);
    assert_string_equal(enum_of(g, r, "shift"), "none");
    assert_int_equal(table_of(g, r, "score")[6], 16);
    assert_int_equal(int_of(g, r, "clear_bonus"), 1000);
    free(r);
}

/* Water Sort lands on another branch: these run once the game exists. */
static void test_watersort_scripts(void **state)
{
    const struct ps_game *g = ps_game_find("watersort");
    if (!g)
        skip();
    struct ps_options opt;
    void *r = resolve_ok(g, "watersort", &opt);
    assert_int_equal(int_of(g, r, "capacity"), 4);
    assert_string_equal(enum_of(g, r, "pour"), "all");
    assert_string_equal(enum_of(g, r, "goal"), "full");
    assert_string_equal(enum_of(g, r, "cost"), "pours");
    assert_true(bool_of(g, r, "prune_complete"));
    assert_false(test_book_value(opt.book, "dfs", "no-memo"));
    assert_same_as_preset(g, r, "builtin:watersort");
    free(r);
    r = resolve_ok(g, "ballsort", &opt);
    assert_int_equal(int_of(g, r, "capacity"), 4);
    assert_string_equal(enum_of(g, r, "pour"), "one");
    assert_same_as_preset(g, r, "builtin:ballsort");
    free(r);
    /* The game's own prune keys live in prune = {...}; a cost game has no
     * upper bound. */
    struct test_dir *f = *state;
    char path[256];
    write_file(f, "ws.lua",
               "return { game = 'watersort',\n"
               "  prune = { commute = false, single_to_empty = false } }\n",
               path, sizeof path);
    r = resolve_ok(g, path, &opt);
    assert_false(bool_of(g, r, "prune_commute"));
    assert_false(bool_of(g, r, "prune_single_to_empty"));
    assert_true(bool_of(g, r, "prune_empty_targets"));
    free(r);
    struct ps_error e = script_error(f, g, "return { prune = { comute = false } }\n");
    assert_contains(e.msg, "unknown prune key 'comute' for game watersort "
                           "(did you mean 'commute'?)");
    e = script_error(f, g, "return { prune_commute = false }\n");
    assert_contains(e.msg, "unknown key 'prune_commute'");
    e = script_error(f, g, "return { prune = { upper_bound = true } }\n");
    assert_contains(e.msg, "is not supported by game watersort");
}

/* `game` selects the game when --game is not given. */
static void test_script_selects_game(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = NULL;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_rules_game("popstar", &g, &err));
    assert_ptr_equal(g, samegame());
    g = NULL;
    assert_true(ps_rules_game("builtin:popstar", &g, &err));
    assert_null(g);
    char path[256];
    write_file(f, "other.lua", "return { game = 'nosuchgame' }\n", path,
               sizeof path);
    assert_false(ps_rules_game(path, &g, &err));
    assert_contains(err.msg, "unknown game 'nosuchgame'");
    if (ps_game_find("watersort")) {
        assert_true(ps_rules_game("watersort", &g, &err));
        assert_string_equal(g->name, "watersort");
    }
    /* With --game samegame, a script for another game is an error. */
    struct ps_error e = script_error(f, samegame(),
                                     "return {\n  game = 'watersort',\n}\n");
    assert_int_equal(e.line, 2);
    assert_contains(e.msg, "for game watersort, but the game is samegame");
}

/* ---- variants change play ---- */

/* Best score from `state` by brute force through the vtable. */
static ps_value best_score(const struct ps_game *g, const void *inst,
                           const void *state)
{
    ps_move moves[64];
    assert_true(g->max_moves(inst) <= 64);
    int n = g->moves(inst, state, moves, NULL);
    if (n == 0)
        return g->end_value(inst, state);
    ps_value best = INT64_MIN;
    uint64_t next[32];
    assert_true(g->state_size(inst) <= sizeof next);
    for (int i = 0; i < n; i++) {
        ps_value v = g->apply(inst, state, moves[i], next);
        v += best_score(g, inst, next);
        if (v > best)
            best = v;
    }
    return best;
}

/* The board printed after playing the move at "row col". */
static const char *after_move(const struct ps_game *g, const void *inst,
                              const char *move_text)
{
    void *s = test_initial(g, inst);
    test_play(g, inst, s, move_text);
    const char *text = test_print(g, inst, s);
    free(s);
    return text;
}

/* The best score from the start, by brute force. */
static ps_value best_from_start(const struct ps_game *g, const void *inst)
{
    void *s = test_initial(g, inst);
    ps_value v = best_score(g, inst, s);
    free(s);
    return v;
}

/* Board  1 2 1 / 1 2 1. Shift left: take the 2s (0), the 1s meet: one group
 * of 4 (4) and a clear (1000) = 1004. No shift: the empty middle column
 * stays, the 1s stay apart: 0 + 0 + 0 + 1000 = 1000. */
static void test_noshift_changes_play(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    const char *board = "121\n121\n";
    struct ps_options opt;
    void *left = resolve_ok(g, "samegame", &opt);
    void *none = resolve_ok(g, "samegame-noshift", &opt);
    void *il = test_load(g, left, board), *in = test_load(g, none, board);
    assert_string_equal(after_move(g, il, "0 1"), "11.\n11.\n");
    assert_string_equal(after_move(g, in, "0 1"), "1.1\n1.1\n");
    assert_int_equal(best_from_start(g, il), 1004);
    assert_int_equal(best_from_start(g, in), 1000);
    g->free_instance(il);
    g->free_instance(in);
    free(left);
    free(none);
}

/* Board 1 1 2 2 2 (one row): PopStar scores 5*2*2 + 5*3*3 + 2000 = 2065,
 * SameGame 0 + 1 + 1000 = 1001, Clickomania 5 cells removed = 5. */
static void test_scoring_changes_value(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    static const struct {
        const char *spec;
        ps_value best;
    } cases[] = {{"popstar", 2065}, {"samegame", 1001}, {"clickomania", 5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ps_options opt;
        void *r = resolve_ok(g, cases[i].spec, &opt);
        void *inst = test_load(g, r, "11222\n");
        assert_int_equal(best_from_start(g, inst), cases[i].best);
        g->free_instance(inst);
        free(r);
    }
}

/* The clone scripts on hand-worked boards. "1122" then "222" in a row of
 * 1 1 2 2 2: Jawbreaker n(n-1): 2*1 + 3*2 = 8 (no clear bonus); Swell
 * Foop: (2-2)^2 + (3-2)^2 + 1000 = 1001; Klickety: 5 pieces gone. On
 * "1 1 2 2 / 1 2 2 1" (top row first): Jawbreaker's best takes the four
 * 2s first (12); the 1s fall and the columns close up into one group of
 * four (12): 24. The 1s first (three: 6) leave four 2s (12) and a single
 * 1: 18. */
static void test_clone_scripts(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    static const struct {
        const char *spec, *board;
        ps_value best;
    } cases[] = {{"jawbreaker", "11222\n", 8},
                 {"swellfoop", "11222\n", 1001},
                 {"klickety", "11222\n", 5},
                 {"jawbreaker", "1122\n1221\n", 24}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ps_options opt;
        void *r = resolve_ok(g, cases[i].spec, &opt);
        void *inst = test_load(g, r, cases[i].board);
        assert_int_equal(best_from_start(g, inst), cases[i].best);
        g->free_instance(inst);
        free(r);
    }
}

/* Former: any group (a single cell too), no column shift, fewest clicks,
 * a cost game. "121" takes 3 clicks (the emptied middle column keeps the
 * 1s apart), where a shift to the left would take 2; "11222" takes 2;
 * "12 / 21" takes 3 (the bottom-left 2 first: the 1s fall together). */
static void test_former_script(void **state)
{
    (void)state;
    const struct ps_game *g = samegame();
    struct ps_options opt;
    void *r = resolve_ok(g, "former", &opt);
    assert_int_equal(int_of(g, r, "min_group"), 1);
    assert_string_equal(enum_of(g, r, "shift"), "none");
    assert_string_equal(enum_of(g, r, "objective"), "fewest_clicks");
    static const struct {
        const char *board;
        ps_value clicks;
    } cases[] = {{"121\n", 3}, {"11222\n", 2}, {"12\n21\n", 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *inst = test_load(g, r, cases[i].board);
        assert_false(ps_game_flags(g, inst) & PS_MAXIMISE);
        struct ps_search s;
        struct ps_limits lim = {0};
        ps_options_default(&opt);
        ps_search_init(&s, g, inst, &lim, &opt);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find("bfs")),
                         PS_OPTIMAL);
        assert_int_equal(s.best.value, cases[i].clicks);
        ps_search_free(&s);
        g->free_instance(inst);
    }
    free(r);
}

/* A rule function that declares a parameter psolve does not pass is an
 * error at the line that defines it, never a silent nil: end_bonus(n) is
 * called with n alone, score with n and the colour. */
static void test_extra_parameter_is_an_error(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    char path[256];
    struct ps_error err;
    static const struct {
        const char *text, *says;
    } cases[] = {
        {"local r = rules(\"samegame\")\n"
         "r.end_bonus = function(n, colour)\n  return n\nend\nreturn r\n",
         "calls it as end_bonus(n) with one: 'colour' would always be nil"},
        {"local r = rules(\"samegame\")\n"
         "r.score = function(n, colour, row)\n  return n\nend\nreturn r\n",
         "calls it as score(n, colour) with two: 'row' would always be nil"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_file(f, "extra.lua", cases[i].text, path, sizeof path);
        ps_error_clear(&err);
        assert_null(ps_rules_resolve(g, path, NULL, &err));
        assert_string_equal(err.file, path);
        assert_int_equal(err.line, 2);
        assert_contains(err.msg, cases[i].says);
    }
    /* a vararg function takes what it is given: allowed, and for score
     * given the colour */
    write_file(f, "vararg.lua",
               "return { score = function(n, ...) return n * select('#', ...) end }\n",
               path, sizeof path);
    void *r = ps_rules_resolve(g, path, NULL, &err);
    assert_non_null(r);
    assert_int_equal(table_of(g, r, "score")[5], 5);
    free(r);
}

/* score(n, colour): each colour its own table. Board "11222" (one row):
 * colour 1 is worth 10 per cell, colour 2 one per cell: the 1s give 20,
 * the 2s give 3, and the clear 1000: 1023 whichever comes first. The same
 * gains for every colour (a function of n alone) would give 1050. */
static void test_colour_scores(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    char path[256];
    write_file(f, "colour.lua",
               "local r = rules(\"samegame\")\n"
               "r.score = function(n, colour)\n"
               "  if n < 2 then return 0 end\n"
               "  if colour == 1 then return 10 * n end\n"
               "  return n\n"
               "end\n"
               "return r\n",
               path, sizeof path);
    struct ps_options opt;
    void *r = resolve_ok(g, path, &opt);
    const struct ps_param *p = test_param(g, "score");
    assert_int_equal(p->table_rows, 9);
    const int64_t *score = table_of(g, r, "score");
    assert_int_equal(score[3], 30);                     /* colour 1 */
    assert_int_equal(score[p->table_len + 3], 3);       /* colour 2 */
    assert_int_equal(score[8 * p->table_len + 3], 3);   /* colour 9 */
    void *inst = test_load(g, r, "11222\n");
    void *s = test_initial(g, inst);
    uint64_t next[32];
    assert_true(g->state_size(inst) <= sizeof next);
    ps_move m;
    struct ps_error err;
    assert_true(g->parse_move(inst, s, "0 0", &m, &err));
    assert_int_equal(g->apply(inst, s, m, next), 20);
    assert_true(g->parse_move(inst, s, "0 4", &m, &err));
    assert_int_equal(g->apply(inst, s, m, next), 3);
    assert_int_equal(best_from_start(g, inst), 1023);
    free(s);
    g->free_instance(inst);
    /* The stamp solution files carry: colour-free rules keep theirs, and
     * these rules have another. */
    void *plain = resolve_ok(g, "samegame", &opt);
    char a[128], b[128];
    ps_rules_stamp(g, "x", plain, a, sizeof a);
    ps_rules_stamp(g, "x", r, b, sizeof b);
    assert_string_equal(a, "x hash 7c6867e8861e736a");
    assert_string_not_equal(a, b);
    free(plain);
    free(r);
}

/* dfs stays exact under colour scores: its bound is worked out per colour.
 * Colour 3 is worth far more than colour 1 and colour 2 loses points, so
 * a bound from one colour's table cut the best lines (dfs returned less
 * than brute force). 40 random 4x4 boards of 3 colours. */
static void test_colour_scores_keep_dfs_exact(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    char path[256];
    write_file(f, "colour-dfs.lua",
               "local r = rules(\"samegame\")\n"
               "r.score = function(n, colour)\n"
               "  if n < 2 then return 0 end\n"
               "  if colour == 2 then return 3 - 2 * n end\n"
               "  if colour == 3 then return 40 * (n - 1)^2 end\n"
               "  return (n - 2)^2\n"
               "end\n"
               "r.clear_bonus = 5\n"
               "return r\n",
               path, sizeof path);
    struct ps_options opt;
    void *r = resolve_ok(g, path, &opt);
    uint32_t seed = 12345;
    for (int b = 0; b < 40; b++) {
        char text[4 * 5 + 1];
        for (int i = 0; i < 4 * 5; i++) {
            seed = seed * 1103515245u + 12345u;
            text[i] = i % 5 == 4 ? '\n' : (char)('1' + (seed >> 16) % 3);
        }
        text[20] = '\0';
        void *inst = test_load(g, r, text);
        ps_value want = best_from_start(g, inst);
        void *start = test_initial(g, inst);
        assert_true(g->upper_bound(inst, start) >= want);
        free(start);
        struct ps_search s;
        struct ps_limits lim = {0};
        ps_options_default(&opt);
        ps_search_init(&s, g, inst, &lim, &opt);
        assert_int_equal(ps_search_run(&s, ps_algorithm_find("dfs")),
                         PS_OPTIMAL);
        if (s.best.value != want)
            fail_msg("board %d:\n%s dfs %lld, brute force %lld", b, text,
                     (long long)s.best.value, (long long)want);
        ps_search_free(&s);
        g->free_instance(inst);
    }
    free(r);
}

/* ---- writing rules ---- */

static void test_table_forms(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    char path[256];
    write_file(f, "tables.lua",
               "return {\n"
               "  score = { [0] = 7, 0, 10, 20 },\n"
               "  end_bonus = function(r) return r == 3 and -5 or 2.0 end,\n"
               "}\n",
               path, sizeof path);
    struct ps_options opt;
    void *r = resolve_ok(g, path, &opt);
    const int64_t *score = table_of(g, r, "score");
    assert_int_equal(score[0], 7);
    assert_int_equal(score[1], 0);
    assert_int_equal(score[2], 10);
    assert_int_equal(score[3], 20);
    assert_int_equal(score[4], 0); /* left out: 0 */
    assert_int_equal(table_of(g, r, "end_bonus")[3], -5);
    assert_int_equal(table_of(g, r, "end_bonus")[4], 2);
    /* Keys left out keep the game's defaults. */
    assert_int_equal(int_of(g, r, "clear_bonus"), 1000);
    assert_string_equal(enum_of(g, r, "shift"), "left");
    free(r);
}

/* Prune defaults go to the algorithms' options (the book); explicit
 * command-line options win. */
static void test_prune_and_cli(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    char path[256];
    write_file(f, "teach.lua",
               "return { prune = { memo = false, upper_bound = false,\n"
               "                   candidates = 8, max_depth = 12 } }\n",
               path, sizeof path);
    struct ps_options opt;
    void *r = resolve_ok(g, path, &opt);
    assert_true(test_book_value(opt.book, "dfs", "no-memo"));
    assert_true(test_book_value(opt.book, "dfs", "no-bound"));
    assert_int_equal(test_book_value(opt.book, "dfs", "candidates"), 8);
    assert_int_equal(test_book_value(opt.book, "dfs", "max-depth"), 12);
    free(r);

    /* As main() does: options parsed first, then the rules. */
    ps_options_default(&opt);
    test_option_int(&opt, "candidates", 3);
    const char *given[] = {"candidates", "max-depth", NULL};
    struct ps_error err;
    ps_error_clear(&err);
    r = ps_rules_resolve_cli(g, path, &test_book, given, NULL, &err);
    assert_non_null(r);
    assert_int_equal(test_book_value(opt.book, "dfs", "candidates"), 3); /* --candidates 3 wins */
    assert_int_equal(test_book_value(opt.book, "dfs", "max-depth"), 0);  /* --max-depth 0 wins */
    assert_true(test_book_value(opt.book, "dfs", "no-memo"));            /* not given: the script's */
    free(r);

    struct ps_error e =
        script_error(f, g, "return {\n  prune = { memoo = true },\n}\n");
    assert_int_equal(e.line, 2);
    assert_string_equal(e.msg, "unknown prune key 'memoo' for game samegame "
                               "(did you mean 'memo'?)");
    e = script_error(f, g, "return { prune = { dead_colour = true } }\n");
    /* The valid keys are every algorithm's, from their option tables. */
    char want[400];
    int k = snprintf(want, sizeof want, "unknown prune key 'dead_colour' for "
                                        "game samegame (valid keys: ");
    const char *key;
    for (int i = 0; (key = ps_lua_prune_key(i)); i++)
        k += snprintf(want + k, sizeof want - (size_t)k, "%s%s", i ? ", " : "",
                      key);
    snprintf(want + k, sizeof want - (size_t)k, ")");
    assert_contains(e.msg, want);
    e = script_error(f, g, "return { prune = { candidates = -1 } }\n");
    assert_string_equal(e.msg, "key 'candidates': expected an integer in "
                               "0..1000000000, got -1");
    e = script_error(f, g, "return { prune = { memo = 'yes' } }\n");
    assert_string_equal(e.msg, "key 'memo': expected true or false, got the "
                               "string \"yes\"");
    e = script_error(f, g, "return { prune = true }\n");
    assert_contains(e.msg, "key 'prune': expected a table");
}

static void test_bad_keys_and_values(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    /* script, expected line (0: none), the message (or a part of it) */
    static const struct {
        const char *script;
        int line;
        const char *msg;
    } cases[] = {
        {"return {\n  min_group = 2,\n  min_grup = 3,\n}\n", 3,
         "unknown key 'min_grup' for game samegame (did you mean "
         "'min_group'?)"},
        {"return { shfit = 'none' }\n", 1, "did you mean 'shift'?"},
        {"return { colours = 3 }\n", 1,
         "unknown key 'colours' for game samegame (valid keys: game, prune, "
         "min_group, gravity, shift, objective, clear_bonus, score, "
         "end_bonus, gen)"},
        {"return { [1] = 3 }\n", 0, "keys must be names, got the key 1"},
        {"return {\n\n  shift = 'lft' }\n", 3,
         "key 'shift': expected one of \"left\", \"right\", \"none\", got "
         "the string \"lft\" (did you mean \"left\"?)"},
        {"return { shift = 1 }\n", 1, "key 'shift': expected one of"},
        {"return { min_group = 0 }\n", 1,
         "key 'min_group': expected an integer in 1..1024, got 0"},
        {"return { min_group = 2.5 }\n", 1,
         "key 'min_group': expected an integer in 1..1024, got 2.5"},
        {"return { min_group = '3' }\n", 1, "got the string \"3\""},
        {"return { gravity = 1 }\n", 1,
         "key 'gravity': expected true or false, got 1"},
        {"return { score = 'n*n' }\n", 1,
         "key 'score': expected a function of n (or of n and colour) or a table indexed by n "
         "(0..1024), got the string \"n*n\""},
        {"return {\n score = function(n) return n / 2 end }\n", 2,
         "key 'score': score(1) returned 0.5, expected an integer in "
         "-1000000000..1000000000"},
        {"return { score = function(n) end }\n", 1, "score(0) returned nil"},
        {"return { score = function(n) return 2^40 end }\n", 1,
         "returned 1099511627776, expected an integer in "
         "-1000000000..1000000000"},
        {"return { score = { [2000] = 1 } }\n", 1,
         "needs indices n in 0..1024, got index 2000"},
        {"return { score = { [2] = 'x' } }\n", 1,
         "key 'score': expected an integer"},
        {"return 42\n", 0, "must return a table of rules"},
        {"return { game = 7 }\n", 1, "key 'game': expected a game name"},
        /* issue 32: C would read these cut at the NUL, as 'samegame' */
        {"return rules('samegame\\0x')\n", 1, "the name has a NUL byte"},
        {"return { game = 'samegame\\0x' }\n", 1,
         "game: the name has a NUL byte"},
        {"return { shift = 'left\\0x' }\n", 1, "key 'shift': expected one of"},
        {"return { ['shift\\0x'] = 'left' }\n", 0, "keys must be names"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ps_error e = script_error(f, g, cases[i].script);
        assert_contains(e.msg, cases[i].msg);
        assert_int_equal(e.line, cases[i].line);
    }
}

static void test_lua_errors_name_line(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    struct ps_error e = script_error(f, g, "-- a comment\nreturn { x = = 1 }\n");
    assert_int_equal(e.line, 2);
    assert_contains(e.msg, "unexpected symbol near '='");
    e = script_error(f, g, "local t\n\nlocal y = t.x\nreturn {}\n");
    assert_int_equal(e.line, 3);
    assert_contains(e.msg, "attempt to index a nil value (local 't')");
    e = script_error(f, g,
                     "local function check(n)\n"
                     "  if n > 3 then error('group too big: ' .. n) end\n"
                     "  return n\n"
                     "end\n"
                     "return { score = function(n) local v = check(n) "
                     "return v end }\n");
    assert_int_equal(e.line, 2);
    assert_string_equal(e.msg, "score(4): group too big: 4 (called from line 5)");
    /* The full message, as psolve prints it. */
    char buf[1024];
    ps_error_format(&e, buf, sizeof buf);
    char want[512];
    snprintf(want, sizeof want, "%s/bad.lua:2: error: score(4)", f->dir);
    assert_contains(buf, want);
}

/* ---- the sandbox ---- */

static void test_sandbox_escapes(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    static const struct {
        const char *script, *error;
    } cases[] = {
        {"os.execute('touch /tmp/psolve-escaped')", "global 'os'"},
        {"io.open('/etc/passwd')", "global 'io'"},
        {"require('os')", "global 'require'"},
        {"dofile('/etc/passwd')", "global 'dofile'"},
        {"loadfile('/etc/passwd')", "global 'loadfile'"},
        {"package.loadlib('libc.so.6', 'system')", "global 'package'"},
        {"debug.getregistry()", "global 'debug'"},
        {"coroutine.wrap(print)", "global 'coroutine'"},
        {"local f = string.dump(function() return 1 end)", "field 'dump'"},
        {"local f = ('').dump(print)", "field 'dump'"},
        /* A binary chunk written by hand: load() is text-only. */
        {"assert(load('\\27Lua\\84\\0\\25\\147\\13\\10\\26\\10'))",
         "attempt to load a binary chunk (mode is 't')"},
        {"assert(load('\\27Lua', 'x', 'b'))", "attempt to load a binary chunk"},
        {"assert(load(function() return '\\27Lua' end, 'x', 'bt'))",
         "attempt to load a binary chunk"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s\nreturn {}\n", cases[i].script);
        struct ps_error e = script_error(f, g, text);
        assert_int_equal(e.line, 1);
        assert_contains(e.msg, cases[i].error);
    }
    assert_int_equal(access("/tmp/psolve-escaped", F_OK), -1);
    /* From inside, all of it is absent; text chunks still load. */
    char path[256];
    write_file(f, "inside.lua",
               "local absent = os == nil and io == nil and package == nil and\n"
               "  debug == nil and require == nil and dofile == nil and\n"
               "  loadfile == nil and string.dump == nil and coroutine == nil\n"
               "local three = load('return 3')()\n"
               "return { min_group = absent and three or 9 }\n",
               path, sizeof path);
    struct ps_options opt;
    void *r = resolve_ok(g, path, &opt);
    assert_int_equal(int_of(g, r, "min_group"), 3);
    free(r);
}

static void test_runaway_scripts(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    /* The documented default limits, through the normal path. */
    struct ps_error e = script_error(f, g, "local n = 0\nwhile true do n = n + 1 end\n");
    assert_int_equal(e.line, 2);
    assert_contains(e.msg, "the script ran for more than 20000000 Lua "
                           "instructions");
    /* Catching the limit error with pcall does not get further. */
    e = script_error(f, g, "while true do pcall(function() while true do end "
                           "end) end\n");
    assert_contains(e.msg, "Lua instructions (the rules sandbox limit");
    e = script_error(f, g, "return { score = function(n) while true do end end }\n");
    assert_contains(e.msg, "score(0): the script ran for more than");
    e = script_error(f, g,
                     "local t = {}\n"
                     "while true do t[#t + 1] = string.rep('x', 1000) .. #t end\n");
    assert_string_equal(e.msg, "the script needs more than 32 MiB of memory "
                               "(the rules sandbox limit)");
    e = script_error(f, g, "local s = string.rep('x', 1 << 30)\n");
    assert_contains(e.msg, "32 MiB of memory");

    /* Smaller limits through the API. */
    char path[256];
    write_file(f, "count.lua",
               "local n = 0 for i = 1, 100000 do n = n + i end return {}\n",
               path, sizeof path);
    struct ps_lua_options small = {.instructions = 10000};
    e = (struct ps_error){0};
    assert_null(ps_lua_rules_open(path, &small, &e));
    assert_contains(e.msg, "the script ran for more than 10000 Lua instructions");
    struct ps_lua_rules *s = ps_lua_rules_open(path, NULL, &e);
    assert_non_null(s);
    ps_lua_rules_close(s);
}

/* ---- the generic loader on a made-up game ---- */

struct toy_rules {
    int64_t size;
    bool fast;
    int mode;
    int64_t cost[4];
    bool dead_colour;
};

static const char *const toy_modes[] = {"slow", "quick", NULL};

static const struct ps_param toy_params[] = {
    {"size", PS_PARAM_INT, offsetof(struct toy_rules, size), 2, 8, NULL, 0, "", 0, NULL},
    {"fast", PS_PARAM_BOOL, offsetof(struct toy_rules, fast), 0, 1, NULL, 0, "", 0, NULL},
    {"mode", PS_PARAM_ENUM, offsetof(struct toy_rules, mode), 0, 0, toy_modes, 0,
     "", 0, NULL},
    {"cost", PS_PARAM_TABLE, offsetof(struct toy_rules, cost), 0, 100, NULL, 4,
     "", 0, NULL},
    {"prune_dead_colour", PS_PARAM_BOOL,
     offsetof(struct toy_rules, dead_colour), 0, 1, NULL, 0, "", 0, NULL},
    {NULL, 0, 0, 0, 0, NULL, 0, NULL, 0, NULL},
};

static void toy_default(void *p)
{
    struct toy_rules *r = p;
    r->size = 4;
}

static const struct ps_game toy_game = {
    .name = "toy",
    .flags = 0, /* a cost game */
    .rules_size = sizeof(struct toy_rules),
    .rules_default = toy_default,
    .params = toy_params,
};

static bool toy_fill(const struct test_dir *f, const char *text,
                     struct toy_rules *r, struct ps_options *opt,
                     struct ps_error *err)
{
    char path[256];
    write_file(f, "toy.lua", text, path, sizeof path);
    memset(r, 0, sizeof *r);
    toy_default(r);
    ps_options_default(opt);
    ps_algo_book_init(&test_book, NULL);
    opt->book = &test_book;
    ps_error_clear(err);
    struct ps_lua_rules *s = ps_lua_rules_open(path, NULL, err);
    if (!s)
        return false;
    bool ok = ps_lua_rules_fill(s, &toy_game, r, &test_book, NULL, NULL, err);
    ps_lua_rules_close(s);
    return ok;
}

static void test_generic_schema(void **state)
{
    struct test_dir *f = *state;
    struct toy_rules r;
    struct ps_options opt;
    struct ps_error e;
    assert_true(toy_fill(f,
                         "return { game = 'toy', size = 8, fast = true,\n"
                         "  mode = 'quick', cost = function(n) return n * n end,\n"
                         "  prune = { dead_colour = true, memo = false } }\n",
                         &r, &opt, &e));
    assert_int_equal(r.size, 8);
    assert_true(r.fast);
    assert_int_equal(r.mode, 1);
    assert_int_equal(r.cost[0], 0);
    assert_int_equal(r.cost[3], 9);
    assert_true(r.dead_colour); /* a game's own prune key, in its struct */
    assert_true(test_book_value(opt.book, "dfs", "no-memo"));
    assert_false(toy_fill(f, "return { size = 9 }", &r, &opt, &e));
    assert_string_equal(e.msg, "key 'size': expected an integer in 2..8, got 9");
    assert_false(toy_fill(f, "return { cost = function(n) return n * 40 end }",
                          &r, &opt, &e));
    assert_contains(e.msg, "cost(3) returned 120, expected an integer in 0..100");
    assert_false(toy_fill(f, "return { dead_colour = true }", &r, &opt, &e));
    assert_contains(e.msg, "unknown key 'dead_colour' for game toy");
    assert_false(toy_fill(f, "return { prune = { upper_bound = true } }", &r,
                          &opt, &e));
    assert_string_equal(e.msg, "prune key 'upper_bound' is not supported by "
                               "game toy (only score games have it)");
    assert_false(toy_fill(f, "return { prune = { dead_color = true } }", &r,
                          &opt, &e));
    assert_contains(e.msg, "did you mean 'dead_colour'?");
}

/* A real cost game: memo is a search default, an upper bound is not. */
static void test_cost_game_prune(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = ps_game_find("npuzzle");
    if (!g)
        skip();
    char path[256];
    write_file(f, "np.lua", "return { game = 'npuzzle', prune = { memo = false } }\n",
               path, sizeof path);
    struct ps_options opt;
    void *r = resolve_ok(g, path, &opt);
    assert_true(test_book_value(opt.book, "dfs", "no-memo"));
    free(r);
    struct ps_error e = script_error(
        f, g, "return {\n  prune = {\n    upper_bound = false } }\n");
    assert_int_equal(e.line, 3);
    assert_string_equal(e.msg, "prune key 'upper_bound' is not supported by "
                               "game npuzzle (only score games have it)");
    e = script_error(f, g, "return { min_group = 2 }\n");
    assert_string_equal(e.msg, "unknown key 'min_group' for game npuzzle "
                               "(valid keys: game, prune, gen)");
}

static void test_suggest(void **state)
{
    (void)state;
    assert_int_equal(ps_edit_distance("shfit", "shift"), 1);
    assert_int_equal(ps_edit_distance("min_grup", "min_group"), 1);
    assert_int_equal(ps_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(ps_edit_distance("", "abc"), 3);
    const char *names[] = {"score", "shift", "gravity"};
    assert_string_equal(ps_suggest("scroe", names, 3), "score");
    assert_string_equal(ps_suggest("gravty", names, 3), "gravity");
    assert_null(ps_suggest("colours", names, 3));
    assert_null(ps_suggest("xy", names, 3));
    /* The one plain-name check (game names, heuristics, --rules NAME). */
    assert_true(ps_name_is_plain("ball-sort_2"));
    assert_false(ps_name_is_plain(""));
    assert_false(ps_name_is_plain("../x"));
    assert_false(ps_name_is_plain("a.lua"));
    assert_false(ps_name_is_plain("pdb:6-6-3"));
}

/* ---- finding scripts ---- */

static void test_search_path(void **state)
{
    struct test_dir *f = *state;
    const struct ps_game *g = samegame();
    char path[256];
    write_file(f, "samegame.lua", "return { clear_bonus = 7 }\n", path,
               sizeof path);
    write_file(f, "mine.lua", "return { min_group = 3 }\n", path, sizeof path);
    char env[256];
    snprintf(env, sizeof env, "/nonexistent:%s", f->dir);
    setenv("PSOLVE_RULES_PATH", env, 1);
    struct ps_options opt;
    void *r = resolve_ok(g, "mine", &opt);
    assert_int_equal(int_of(g, r, "min_group"), 3);
    free(r);
    r = resolve_ok(g, "samegame", &opt); /* the env directory comes first */
    assert_int_equal(int_of(g, r, "clear_bonus"), 7);
    free(r);
    /* rules("NAME") starts from another script, found the same way. */
    write_file(f, "derived.lua",
               "local r = rules('mine')\nr.gravity = false\nreturn r\n", path,
               sizeof path);
    r = resolve_ok(g, "derived", &opt);
    assert_int_equal(int_of(g, r, "min_group"), 3);
    assert_false(bool_of(g, r, "gravity"));
    free(r);
    write_file(f, "cycle.lua", "return rules('cycle')\n", path, sizeof path);
    struct ps_error err;
    assert_null(resolve(g, "cycle", &opt, &err));
    assert_contains(err.msg, "rule scripts include each other more than 8 "
                             "deep (a cycle?)");
    struct ps_error e = script_error(f, g, "return rules('../mine')\n");
    assert_string_equal(e.msg, "rules('../mine'): no rule script of that name");
    e = script_error(f, g, "return rules('/etc/passwd')\n");
    assert_contains(e.msg, "no rule script of that name");
    r = resolve_ok(g, "builtin:samegame", &opt); /* never a script */
    assert_int_equal(int_of(g, r, "clear_bonus"), 1000);
    free(r);
    unsetenv("PSOLVE_RULES_PATH");
    r = resolve_ok(g, "samegame", &opt); /* the source tree's */
    assert_int_equal(int_of(g, r, "clear_bonus"), 1000);
    free(r);
    assert_null(resolve(g, "nosuch", &opt, &err));
    assert_contains(err.msg, "no rules 'nosuch': no nosuch.lua in ");
    assert_contains(err.msg, "scripts/rules");
    assert_contains(err.msg, "(presets: samegame, popstar, clickomania)");
    assert_null(resolve(g, "builtin:nosuch", &opt, &err));
    assert_contains(err.msg, "unknown rules 'nosuch'");
    assert_null(resolve(g, "a b", &opt, &err));
    assert_contains(err.msg, "bad --rules 'a b'");
    assert_null(resolve(g, "/nonexistent/x.lua", &opt, &err));
    assert_string_equal(err.file, "/nonexistent/x.lua");
}

/* docs/rules.md documents every key of every registered game. */
static void test_docs_list_every_key(void **state)
{
    (void)state;
    FILE *fp = fopen(PSOLVE_SOURCE_DIR "/docs/rules.md", "r");
    assert_non_null(fp);
    static char doc[1 << 16];
    size_t n = fread(doc, 1, sizeof doc - 1, fp);
    doc[n] = '\0';
    fclose(fp);
    char want[128];
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        snprintf(want, sizeof want, "`game = \"%s\"`", (*g)->name);
        if (!strstr(doc, want))
            fail_msg("docs/rules.md has no section for game %s", (*g)->name);
        for (const struct ps_param *p = (*g)->params; p && p->key; p++) {
            const char *key = strncmp(p->key, "prune_", 6) == 0 ? p->key + 6
                                                                 : p->key;
            snprintf(want, sizeof want, "| `%s` |", key);
            if (!strstr(doc, want))
                fail_msg("docs/rules.md lacks key %s of game %s", key,
                         (*g)->name);
        }
    }
    const char *key;
    for (int i = 0; (key = ps_lua_prune_key(i)); i++) {
        snprintf(want, sizeof want, "| `%s` |", key);
        if (!strstr(doc, want))
            fail_msg("docs/rules.md lacks prune key %s", key);
    }
}

/* ---- the command line ---- */

/* Run a shell command; its exit status. */
static int run(const char *fmt, ...) PS_PRINTF(1, 2);
static int run(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static void read_all(const char *path, char *buf, size_t len)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    size_t n = fread(buf, 1, len - 1, fp);
    buf[n] = '\0';
    fclose(fp);
}

static void test_cli_verify_rules(void **state)
{
    struct test_dir *f = *state;
    char board[256], sol[256], out[256], errf[256], text[4096];
    write_file(f, "board.txt", "121\n121\n", board, sizeof board);
    /* No shift, worked by hand: 2s at (0,1), then the 1s at (0,0) and (0,2)
     * with the empty column still between them: 0+0+0+1000. */
    write_file(f, "noshift.sol", "0 1\n0 0\n0 2\n", sol, sizeof sol);
    snprintf(out, sizeof out, "%s/out.txt", f->dir);
    snprintf(errf, sizeof errf, "%s/err.txt", f->dir);
    assert_int_equal(run("%s verify --rules samegame-noshift %s %s >%s 2>%s",
                         PSOLVE_BIN, board, sol, out, errf),
                     0);
    read_all(out, text, sizeof text);
    assert_contains(text, "score: 1000\n");
    assert_contains(text, "cells_left: 0\n");
    /* Under the standard rules the 1s have moved: (0,2) is empty. */
    assert_int_equal(run("%s verify --rules samegame %s %s >%s 2>%s", PSOLVE_BIN,
                         board, sol, out, errf),
                     1);
    read_all(errf, text, sizeof text);
    assert_contains(text, "is empty");
    /* A solution found under a variant verifies under the same variant. */
    char found[256];
    snprintf(found, sizeof found, "%s/found.sol", f->dir);
    assert_int_equal(run("%s --quiet --rules samegame-noshift %s >%s 2>%s",
                         PSOLVE_BIN, board, found, errf),
                     0);
    assert_int_equal(run("%s verify --rules samegame-noshift %s %s >%s 2>%s",
                         PSOLVE_BIN, board, found, out, errf),
                     0);
    read_all(out, text, sizeof text);
    assert_contains(text, "legal: yes\n");
    /* PopStar by path, the game chosen by the script. */
    assert_int_equal(run("%s --quiet --rules %s %s >%s 2>%s", PSOLVE_BIN,
                         SCRIPTS "popstar.lua", board, found, errf),
                     0);
    assert_int_equal(run("%s verify --rules %s %s %s >%s 2>%s", PSOLVE_BIN,
                         SCRIPTS "popstar.lua", board, found, out, errf),
                     0);
    read_all(out, text, sizeof text);
    assert_contains(text, "score: 2060\n"); /* 3 groups of 2: 3*20 + 2000 */
}

static void test_cli_errors(void **state)
{
    struct test_dir *f = *state;
    char board[256], script[256], errf[256], text[4096];
    write_file(f, "board.txt", "121\n121\n", board, sizeof board);
    write_file(f, "typo.lua", "return {\n  min_group = 2,\n  shfit = 'none',\n}\n",
               script, sizeof script);
    snprintf(errf, sizeof errf, "%s/err.txt", f->dir);
    assert_int_equal(run("%s --rules %s %s >/dev/null 2>%s", PSOLVE_BIN, script,
                         board, errf),
                     1);
    read_all(errf, text, sizeof text);
    char want[512];
    snprintf(want, sizeof want,
             "psolve: %s:3: error: unknown key 'shfit' for game samegame (did "
             "you mean 'shift'?)\n",
             script);
    assert_string_equal(text, want);
    /* print() goes to stderr, once, and stdout keeps the solution format. */
    write_file(f, "talk.lua", "print('hello from lua')\nreturn {}\n", script,
               sizeof script);
    char out[256];
    snprintf(out, sizeof out, "%s/out.txt", f->dir);
    assert_int_equal(run("%s --quiet --rules %s %s >%s 2>%s", PSOLVE_BIN, script,
                         board, out, errf),
                     0);
    read_all(errf, text, sizeof text);
    assert_string_equal(text, "lua: hello from lua\n");
    read_all(out, text, sizeof text);
    assert_null(strstr(text, "hello"));
    /* With --game given, a script for another game is refused. */
    assert_int_equal(run("%s --game samegame --rules %s %s >/dev/null 2>%s",
                         PSOLVE_BIN, SCRIPTS "watersort.lua", board, errf),
                     1);
    read_all(errf, text, sizeof text);
    assert_contains(text, "these rules are for game watersort, but the game is "
                          "samegame");
    /* psolve list shows the scripts. */
    assert_int_equal(run("%s list >%s", PSOLVE_BIN, out), 0);
    read_all(out, text, sizeof text);
    assert_contains(text, "--rules samegame-noshift\n");
}

/* A script's `gen` table sets psolve gen's size (Former: 9 rows of 7
 * cells, 4 shapes); a size on the command line wins; a bad table is an
 * error at its line, for every command, not only gen. */
static void test_gen_sizes(void **state)
{
    struct test_dir *f = *state;
    char out[256], errf[256], text[4096], board[256];
    snprintf(out, sizeof out, "%s/gen.txt", f->dir);
    snprintf(errf, sizeof errf, "%s/err.txt", f->dir);
    assert_int_equal(run("%s gen --rules former --seed 4 >%s", PSOLVE_BIN, out),
                     0);
    read_all(out, text, sizeof text);
    assert_contains(text, "--rows 9 --cols 7 --colors 4 --seed 4\n");
    int rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        rows++;
        assert_int_equal(strlen(line), 7);
        assert_int_equal(strspn(line, "1234"), 7);
    }
    assert_int_equal(rows, 9);
    assert_int_equal(run("%s gen --rules former --seed 4 --rows 3 "
                         "--colours 2 >%s",
                         PSOLVE_BIN, out),
                     0);
    read_all(out, text, sizeof text);
    assert_contains(text, "--rows 3 --cols 7 --colors 2 --seed 4\n");

    const struct ps_game *g = samegame();
    static const struct {
        const char *script;
        int line; /* 0: not checked */
        const char *msg;
    } bad[] = {
        {"return {\n  gen = { rowz = 9 },\n}\n", 2,
         "unknown gen key 'rowz' for game samegame (did you mean 'rows'?)"},
        {"return {\n  gen = { colours = 0 },\n}\n", 2,
         "key 'colours': expected an integer in 1..9, got 0"},
        {"return { gen = { colors = 3, colours = 3 } }\n", 1,
         "key 'colours': the same option as 'colors': give one of them"},
        {"return { gen = 9 }\n", 0, "key 'gen': expected a table"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct ps_error e = script_error(f, g, bad[i].script);
        if (bad[i].line)
            assert_int_equal(e.line, bad[i].line);
        assert_contains(e.msg, bad[i].msg);
    }
    char script[256];
    write_file(f, "badgen.lua", "return {\n  gen = { rows = 99 },\n}\n",
               script, sizeof script);
    write_file(f, "board.txt", "121\n121\n", board, sizeof board);
    assert_int_equal(run("%s --rules %s %s >/dev/null 2>%s", PSOLVE_BIN, script,
                         board, errf),
                     1);
    read_all(errf, text, sizeof text);
    assert_contains(text, ":2: error: key 'rows': expected an integer in 1..");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samegame_script),
        cmocka_unit_test(test_popstar_script),
        cmocka_unit_test(test_clickomania_script),
        cmocka_unit_test(test_noshift_script),
        cmocka_unit_test(test_watersort_scripts),
        cmocka_unit_test(test_script_selects_game),
        cmocka_unit_test(test_noshift_changes_play),
        cmocka_unit_test(test_scoring_changes_value),
        cmocka_unit_test(test_clone_scripts),
        cmocka_unit_test(test_former_script),
        cmocka_unit_test(test_table_forms),
        cmocka_unit_test(test_extra_parameter_is_an_error),
        cmocka_unit_test(test_colour_scores),
        cmocka_unit_test(test_colour_scores_keep_dfs_exact),
        cmocka_unit_test(test_prune_and_cli),
        cmocka_unit_test(test_bad_keys_and_values),
        cmocka_unit_test(test_lua_errors_name_line),
        cmocka_unit_test(test_sandbox_escapes),
        cmocka_unit_test(test_runaway_scripts),
        cmocka_unit_test(test_generic_schema),
        cmocka_unit_test(test_cost_game_prune),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_search_path),
        cmocka_unit_test(test_docs_list_every_key),
        cmocka_unit_test(test_cli_verify_rules),
        cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_gen_sizes),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
