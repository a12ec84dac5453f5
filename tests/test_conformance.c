/*
 * test_conformance.c - every game psolve knows passes the conformance
 * check (conformance.h, psolve check-game): each registered game on every
 * bundled puzzle (games/NAME/, all folders) and on puzzles its generator
 * makes; each Lua game of games/lua on its puzzles; the example plug-in
 * (tests/plugins/lightsout_variants.c, VARIANT_sound) on its puzzle. A new
 * game is checked by being registered: nothing here names one.
 */
#include "support.h"

#include "conformance.h"
#include "lua_game.h"
#include "textfile.h"

#define WALKS 2
#define STEPS 40

static int nchecked;

/* The walks on the puzzle `text`, under the game's default rules. */
static void check_text(const struct ps_game *g, const char *what,
                       const char *text, size_t len)
{
    size_t size = g->rules_size ? g->rules_size : 1;
    void *rules = calloc(1, size);
    struct ps_error err;
    ps_error_clear(&err);
    assert_non_null(rules);
    if (!ps_rules_preset(g, rules, NULL, &err))
        fail_msg("%s: rules: %s", g->name, err.msg);
    void *inst = g->load(rules, what, text, len, &err);
    if (!inst)
        fail_msg("%s: %s does not load: %d:%d: %s", g->name, what, err.line,
                 err.col, err.msg);
    for (uint64_t seed = 1; seed <= WALKS; seed++)
        if (!ps_game_conforms(g, rules, inst, STEPS, seed, &err))
            fail_msg("%s: %s", what, err.msg);
    nchecked++;
    g->free_instance(inst);
    free(rules);
}

static void check_file(const struct ps_game *g, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_read_text_file(path, &text, &len, &err))
        fail_msg("%s: %s", path, err.msg);
    check_text(g, path, text, len);
    free(text);
}

/* Every file `find ARGS` lists, checked with game g. */
static void check_found(const struct ps_game *g, const char *args)
{
    char cmd[1024], path[1024];
    snprintf(cmd, sizeof cmd, "find %s | sort", args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    while (fgets(path, sizeof path, p)) {
        path[strcspn(path, "\n")] = '\0';
        check_file(g, path);
    }
    pclose(p);
}

static void check_generated(const struct ps_game *g)
{
    for (uint64_t seed = 1; g->generate && seed <= 3; seed++) {
        struct ps_gen_options gen;
        memset(&gen, 0, sizeof gen);
        gen.seed = seed;
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        struct ps_error err;
        ps_error_clear(&err);
        assert_non_null(out);
        bool made = g->generate(&gen, out, &err);
        fclose(out);
        if (!made)
            fail_msg("%s: gen: %s", g->name, err.msg);
        check_text(g, "(generated)", text, len);
        free(text);
    }
}

static void test_every_registered_game(void **state)
{
    (void)state;
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        char args[512];
        /* best/: solution files (the records, docs/records.md), not puzzles */
        snprintf(args, sizeof args, "%s/games/%s -name '*.txt' -not -path '*/best/*'",
                 PSOLVE_SOURCE_DIR, (*g)->name);
        int before = nchecked;
        check_found(*g, args);
        check_generated(*g);
        printf("%s: %d puzzles conform\n", (*g)->name, nchecked - before);
        assert_true(nchecked > before);
    }
}

static void test_every_lua_game(void **state)
{
    (void)state;
    FILE *p = popen("ls " PSOLVE_SOURCE_DIR "/games/lua/*.lua", "r");
    assert_non_null(p);
    char script[1024];
    int games = 0;
    while (fgets(script, sizeof script, p)) {
        script[strcspn(script, "\n")] = '\0';
        struct ps_error err;
        ps_error_clear(&err);
        const struct ps_game *g = ps_lua_game_open(script, &err);
        if (!g)
            fail_msg("%s: %s", script, err.msg);
        /* Its puzzles: NAME-*.txt beside it. */
        char args[1100];
        snprintf(args, sizeof args, "%.*s-*.txt",
                 (int)(strlen(script) - 4), script);
        int before = nchecked;
        check_found(g, args);
        assert_true(nchecked > before);
        ps_lua_game_close(g);
        games++;
    }
    pclose(p);
    assert_true(games >= 4);
}

/* The example plug-in, through psolve check-game (a plug-in calls the
 * executable's helpers, which only psolve exports). */
static void test_the_example_plugin(void **state)
{
    (void)state;
    static char out[1 << 14];
    assert_int_equal(test_psolve(".", out, sizeof out, false,
                                 "check-game --plugin " PSOLVE_PLUGIN_DIR
                                 "/plugin_sound.so " PSOLVE_SOURCE_DIR
                                 "/examples/plugin/corners.txt"),
                     0);
    assert_non_null(strstr(out, "# check-game: 1 game, 1 conforms"));
    assert_int_equal(test_psolve(".", out, sizeof out, false,
                                 "check-game --plugin " PSOLVE_PLUGIN_DIR
                                 "/plugin_sound.so"),
                     0);
    assert_non_null(strstr(out, "lightsout (generated, seed 3): ok"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_registered_game),
        cmocka_unit_test(test_every_lua_game),
        cmocka_unit_test(test_the_example_plugin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
