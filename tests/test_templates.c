/*
 * test_templates.c - the templates of examples/ build and work: the game
 * (examples/game/jugs.c) passes the conformance check and bfs solves its
 * puzzle; the algorithm (examples/algorithm/sample.c) finds a line on a
 * SameGame board and counts its playouts.
 */
#include "support.h"

#include "conformance.h"
#include "search.h"
#include "textfile.h"

extern const struct ps_game jugs_game, samegame_game;
extern const struct ps_algorithm ps_algo_sample;

static void *load_file(const struct ps_game *g, const void *rules,
                       const char *path)
{
    char *text = NULL;
    size_t len = 0;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_read_text_file(path, &text, &len, &err));
    void *inst = g->load(rules, path, text, len, &err);
    if (!inst)
        fail_msg("%s: %s", path, err.msg);
    free(text);
    return inst;
}

static void test_the_game_conforms(void **state)
{
    (void)state;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_game_check(&jugs_game, &err));
    void *inst = load_file(&jugs_game, NULL, PSOLVE_SOURCE_DIR
                           "/examples/game/jugs-3-5-4.txt");
    for (uint64_t seed = 1; seed <= 5; seed++)
        if (!ps_game_conforms(&jugs_game, NULL, inst, 50, seed, &err))
            fail_msg("%s", err.msg);
    struct ps_search s;
    ps_search_init(&s, &jugs_game, inst, NULL, NULL);
    assert_int_equal(ps_search_run(&s, ps_algorithm_find("bfs")), PS_OPTIMAL);
    assert_int_equal(s.best.value, 6); /* the classic: 6 steps */
    ps_search_free(&s);
    jugs_game.free_instance(inst);
}

static void test_the_algorithm_plays(void **state)
{
    (void)state;
    void *rules = test_rules(&samegame_game, NULL);
    void *inst = load_file(&samegame_game, rules, PSOLVE_SOURCE_DIR
                           "/games/samegame/examples/samegame-10x10.txt");
    struct ps_options opt;
    ps_options_default(&opt);
    ps_algo_options_default(&opt.own, &ps_algo_sample);
    struct ps_search s;
    ps_search_init(&s, &samegame_game, inst, NULL, &opt);
    assert_int_equal(ps_search_run(&s, &ps_algo_sample), PS_HEURISTIC);
    assert_true(s.best.found);
    assert_int_equal(s.stats.playouts, 100); /* --samples' default */
    ps_search_free(&s);
    samegame_game.free_instance(inst);
    free(rules);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_game_conforms),
        cmocka_unit_test(test_the_algorithm_plays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
