/*
 * test_samegame.c - the SameGame rules on hand-worked boards: group finding,
 * gravity per column, column shift keeping order, game over, scoring
 * presets, the beam evaluation, the parser's rejections, canonical states,
 * generation.
 */
#include "support.h"
#include "beam.h"

extern const struct ps_game samegame_game;
static const struct ps_game *G = &samegame_game;

static void test_gravity_per_column_3x3(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "121\n122\n332\n");
    void *s = test_initial(G, inst);
    /* The four 2s go; the 1 at the top right falls two rows, column 0 stays
     * put: falling is per column, not per row. (4-2)^2 = 4. */
    assert_int_equal(test_play(G, inst, s, "0 1"), 4);
    assert_string_equal(test_print(G, inst, s), "1..\n1..\n331\n");
    /* The 3s go (gain 0); column 1 empties and closes up to the left. */
    assert_int_equal(test_play(G, inst, s, "2 0"), 0);
    assert_string_equal(test_print(G, inst, s), "...\n1..\n11.\n");
    /* The last three 1s: (3-2)^2 = 1, and the board is clear: +1000. */
    assert_int_equal(test_play(G, inst, s, "2 1"), 1);
    assert_string_equal(test_print(G, inst, s), "...\n...\n...\n");
    ps_move moves[16];
    assert_int_equal(G->moves(inst, s, moves, NULL), 0);
    assert_int_equal(G->end_value(inst, s), 1000);
    test_release(G, inst, s, rules);
}

static void test_columns_keep_order_5x5(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules,
                           "12345\n12345\n12345\n12345\n12345\n");
    void *s = test_initial(G, inst);
    assert_int_equal(test_play(G, inst, s, "0 1"), 9); /* five 2s: 3^2 */
    assert_string_equal(test_print(G, inst, s),
                        "1345.\n1345.\n1345.\n1345.\n1345.\n");
    assert_int_equal(test_play(G, inst, s, "4 2"), 9); /* the 4s, now column 2 */
    assert_string_equal(test_print(G, inst, s),
                        "135..\n135..\n135..\n135..\n135..\n");
    test_release(G, inst, s, rules);
}

static void test_moves_one_per_group(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    /* Groups: 1s {(0,0),(1,0)}, 2s {(0,1),(0,2)}, 3s {(1,1),(1,2),(2,2)};
     * (2,0)=2 and (2,1)=1 are singles. */
    void *inst = test_load(G, rules, "122\n133\n213\n");
    void *s = test_initial(G, inst);
    ps_move moves[16];
    ps_value gains[16];
    int n = G->moves(inst, s, moves, gains);
    assert_int_equal(n, 3);
    int sizes[3];
    for (int i = 0; i < n; i++) {
        char about[64];
        G->describe_move(inst, s, moves[i], about, sizeof about);
        assert_int_equal(sscanf(about, "group %d", &sizes[i]), 1);
    }
    /* Column-major, bottom first: the 1s (column 0) come first. */
    assert_int_equal(sizes[0], 2);
    assert_int_equal(gains[0], 0);
    int total = sizes[0] + sizes[1] + sizes[2];
    assert_int_equal(total, 7);
    test_release(G, inst, s, rules);
}

static void test_split_colour_is_game_over(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    /* Each colour has three cells, none adjacent: no move at all. */
    void *inst = test_load(G, rules, "121\n212\n");
    void *s = test_initial(G, inst);
    ps_move moves[16];
    assert_int_equal(G->moves(inst, s, moves, NULL), 0);
    assert_int_equal(G->end_value(inst, s), 0); /* not cleared: no bonus */
    struct ps_fact facts[4];
    int nf = G->facts(inst, s, facts, 4);
    assert_true(nf >= 2);
    assert_string_equal(facts[0].key, "cells_left");
    assert_int_equal(facts[0].value, 6);
    test_release(G, inst, s, rules);
    /* PopStar pays 2000 - 20*6*6 = 1280 for 6 cells left. */
    rules = test_rules(G, "popstar");
    inst = test_load(G, rules, "121\n212\n");
    s = test_initial(G, inst);
    assert_int_equal(G->end_value(inst, s), 1280);
    test_release(G, inst, s, rules);
}

/* The beam evaluation, worked by hand on
 *     121      colour 1: a group of 3 and a single (4 cells, 2 pieces)
 *     112      colour 2: two singles (2 cells, 2 pieces); 3 loose cells
 * Colour 1 is the most frequent: its pieces count as 2^0.75 = 1.68.
 * PopStar (5n^2, end bonus up to 2000, 6 cells):
 *   groups 45, joining 1s (80 - 45) / 1.68 = 20, joining 2s (20 - 0) / 2 = 10,
 *   loose cells -2 * 2000 * 3 / 6 = -2000: 45 + 20 + 10 - 2000 = -1925.
 * SameGame ((n-2)^2, +1000 for a clear): 1 + (4 - 1) / 1.68 + 0 - 1000 = -998.
 * With no group left it is the end value. */
static void test_evaluate_hand_worked(void **unused)
{
    (void)unused;
    static const struct {
        const char *preset, *board;
        ps_value want;
    } cases[] = {
        {"popstar", "121\n112\n", -1925},
        {"samegame", "121\n112\n", -998},
        {"popstar", "121\n212\n", 1280},
        /* Clearing: the 1s (2 cells), and the lone 2 and 3 can never go:
         * each is taken off twice, as a cell not gained and a leftover. */
        {"clickomania", "11\n23\n", 2 - 2 * 2},
        {"clickomania", "112\n122\n", 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *rules = test_rules(G, cases[i].preset);
        void *inst = test_load(G, rules, cases[i].board);
        void *s = test_initial(G, inst);
        assert_int_equal(G->evaluate(inst, s), cases[i].want);
        test_release(G, inst, s, rules);
    }
}

/* The weighted evaluation's terms one at a time (every other weight 0),
 * worked by hand on the child of
 *     31214      after the 3s go (gain 0):   1214
 *     31125      the column closes up:       1125
 * colour 1: a group of 3 (gain 1 on the research rules) and a single,
 *           4 cells, 2 pieces, the most frequent colour;
 * colour 2: two singles, 2 cells, 2 pieces, the second;
 * colours 4 and 5: one cell each, dead. 5 loose cells, 8 cells of the 10
 * left; one cell's share of the end value: 1000 / 10 = 100 (research
 * rules), 2000 / 10 = 200 (PopStar). */
static void test_weighted_terms_hand_worked(void **unused)
{
    (void)unused;
    static const struct {
        const char *preset, *weights;
        ps_value want;
    } cases[] = {
        {"samegame", "groups=1", 1},
        {"samegame", "join_top=1,share_top=1", 3 / 2}, /* (4 - 1) / 2 pieces */
        {"samegame", "join_top=1,share_top=0", 3},
        {"samegame", "join_top=2,share_top=0", 6},
        {"popstar", "join_top=1,share_top=0", 80 - 45},
        {"popstar", "join_second=1,share_second=1", 20 / 2},
        {"popstar", "join_second=1,share_second=0", 20},
        {"popstar", "join_other=1,share_other=0", 0}, /* no other alive */
        {"samegame", "loose=1", -5 * 100},
        {"samegame", "dead=1", -2 * 100},
        {"samegame", "alive=1", -2 * 100},
        {"samegame", "pieces=1", -4 * 100},
        {"popstar", "pieces=0.5", -4 * 200 / 2},
        {"samegame", "groups=1,loose=1,dead=-1", 1 - 500 + 200},
        /* clearing: 2 + dead points per dead cell, no end value */
        {"clickomania", "dead=1", -2 * 3},
    };
    double w[PS_MAX_EVAL_WEIGHTS];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *rules = test_rules(G, cases[i].preset);
        void *inst = test_load(G, rules, "31214\n31125\n");
        void *s = test_initial(G, inst);
        struct ps_error err;
        assert_true(ps_beam_weights_parse(G, cases[i].weights, w, &err));
        /* every weight not named: 0 */
        for (int k = 0; G->eval_weights[k].name; k++)
            if (!strstr(cases[i].weights, G->eval_weights[k].name))
                w[k] = 0;
        ps_move m;
        assert_true(G->parse_move(inst, s, "0 0", &m, &err));
        ps_value v;
        G->evaluate_moves_weighted(inst, w, s, &m, 1, &v);
        if (v != cases[i].want)
            fail_msg("%s %s: %lld, want %lld", cases[i].preset,
                     cases[i].weights, (long long)v,
                     (long long)cases[i].want);
        test_release(G, inst, s, rules);
    }
}

/* --beam-weights' spellings: the game's defaults, NAME=V overriding them,
 * and the errors. */
static void test_beam_weights_parse(void **unused)
{
    (void)unused;
    double w[PS_MAX_EVAL_WEIGHTS];
    struct ps_error err;
    assert_true(ps_beam_weights_parse(G, "default", w, &err));
    assert_true(w[0] == G->eval_weights[0].def);
    assert_true(ps_beam_weights_parse(G, "loose=-1.5,groups=.5", w, &err));
    assert_true(w[0] == 0.5);
    for (int k = 0; G->eval_weights[k].name; k++)
        if (strcmp(G->eval_weights[k].name, "loose") == 0)
            assert_true(w[k] == -1.5);
    static const char *const bad[] = {"", "loose", "loose=", "loose=1e3",
                                      "nope=1", "loose=1,", "loose=--1",
                                      "loose=nan", "loose=1.2.3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (ps_beam_weights_parse(G, bad[i], w, &err))
            fail_msg("'%s' accepted", bad[i]);
    assert_non_null(strstr(err.msg, "--beam-weights"));
}

static void test_score_presets(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, "samegame");
    int64_t *score = test_table(G, rules, "score");
    assert_int_equal(score[2], 0);
    assert_int_equal(score[3], 1);
    assert_int_equal(score[7], 25);
    free(rules);

    rules = test_rules(G, "popstar");
    score = test_table(G, rules, "score");
    int64_t *end = test_table(G, rules, "end_bonus");
    assert_int_equal(score[2], 20);
    assert_int_equal(score[10], 500);
    assert_int_equal(end[0], 2000);
    assert_int_equal(end[9], 2000 - 20 * 81);
    assert_int_equal(end[10], 0);
    /* PopStar on the 3x3 board: 5*16 + 5*4 + 5*9 + 2000 for the clear. */
    void *inst = test_load(G, rules, "121\n122\n332\n");
    void *s = test_initial(G, inst);
    ps_value total = test_play(G, inst, s, "0 1") + test_play(G, inst, s, "2 0") +
                     test_play(G, inst, s, "2 1") + G->end_value(inst, s);
    assert_int_equal(total, 80 + 20 + 45 + 2000);
    test_release(G, inst, s, rules);

    /* Clickomania: one point per cell removed, no bonus. */
    rules = test_rules(G, "clickomania");
    inst = test_load(G, rules, "121\n122\n332\n");
    s = test_initial(G, inst);
    assert_int_equal(test_play(G, inst, s, "0 1"), 4);
    assert_int_equal(test_play(G, inst, s, "2 0"), 2);
    assert_int_equal(test_play(G, inst, s, "2 1"), 3);
    assert_int_equal(G->end_value(inst, s), 0);
    test_release(G, inst, s, rules);
}

static void test_min_group_rule(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    test_set_param(G, rules, "min_group", 3);
    void *inst = test_load(G, rules, "122\n133\n213\n");
    void *s = test_initial(G, inst);
    ps_move moves[16];
    assert_int_equal(G->moves(inst, s, moves, NULL), 1); /* only the 3s */
    ps_move m;
    struct ps_error err;
    assert_false(G->parse_move(inst, s, "0 1", &m, &err));
    assert_non_null(strstr(err.msg, "at least 3"));
    test_release(G, inst, s, rules);
}

static void test_no_gravity_no_shift(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    test_set_param(G, rules, "gravity", 0);
    test_set_param(G, rules, "shift", 2); /* none */
    void *inst = test_load(G, rules, "121\n121\n331\n");
    void *s = test_initial(G, inst);
    test_play(G, inst, s, "0 1"); /* the 2s leave holes that stay holes */
    assert_string_equal(test_print(G, inst, s), "1.1\n1.1\n331\n");
    test_play(G, inst, s, "0 0"); /* 1s of column 0: no fall */
    assert_string_equal(test_print(G, inst, s), "..1\n..1\n331\n");
    test_release(G, inst, s, rules);

    rules = test_rules(G, NULL);
    test_set_param(G, rules, "shift", 1); /* right */
    inst = test_load(G, rules, "12\n12\n");
    s = test_initial(G, inst);
    test_play(G, inst, s, "0 1");
    assert_string_equal(test_print(G, inst, s), ".1\n.1\n");
    test_release(G, inst, s, rules);
}

static void test_canonical_hash_two_orders(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "1122\n3434\n3434\n");
    void *a = test_initial(G, inst), *b = test_initial(G, inst);
    test_play(G, inst, a, "0 0"); /* the 1s, then the 2s */
    test_play(G, inst, a, "0 2");
    test_play(G, inst, b, "0 2"); /* the 2s, then the 1s */
    test_play(G, inst, b, "0 0");
    assert_memory_equal(a, b, G->state_size(inst));
    assert_true(G->hash(inst, a) == G->hash(inst, b));
    void *start = test_initial(G, inst);
    assert_true(G->hash(inst, start) != G->hash(inst, a));
    free(start);
    free(a);
    free(b);
    G->free_instance(inst);
    free(rules);
}

static void test_move_text_round_trip(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "11223\n12233\n44553\n41153\n");
    void *s = test_initial(G, inst);
    ps_move moves[32];
    int n = G->moves(inst, s, moves, NULL);
    assert_true(n >= 5);
    for (int i = 0; i < n; i++) {
        char text[32];
        ps_move back;
        struct ps_error err;
        G->format_move(inst, s, moves[i], text, sizeof text);
        assert_true(G->parse_move(inst, s, text, &back, &err));
        assert_int_equal(back, moves[i]);
    }
    /* Any cell of a group names the same move. */
    ps_move m1, m2;
    struct ps_error err;
    assert_true(G->parse_move(inst, s, "0 0", &m1, &err));
    assert_true(G->parse_move(inst, s, "1 0", &m2, &err));
    assert_int_equal(m1, m2);
    test_release(G, inst, s, rules);
}

static void test_letters_and_comments(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "# a board\n\nRGB   # top\nrgy\n");
    void *s = test_initial(G, inst);
    assert_string_equal(test_print(G, inst, s), "123\n124\n");
    test_release(G, inst, s, rules);
}

static void test_parser_rejections(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    test_load_fails(G, rules, "123\n12\n", 2, 0, "rows must be equally long");
    test_load_fails(G, rules, "123\n1x3\n", 2, 2, "unknown cell 'x'");
    test_load_fails(G, rules, "", 0, 0, "no board rows");
    test_load_fails(G, rules, "# only a comment\n\n", 0, 0, "no board rows");
    test_load_fails(G, rules, "1R\n11\n", 1, 2, "mixes digit colours and letter");
    /* Gravity: a cell above a hole. */
    test_load_fails(G, rules, "12\n.2\n", 1, 1, "floats above an empty cell");
    /* Column shift left: an empty column left of a full one. */
    test_load_fails(G, rules, ".2\n.2\n", 2, 2, "empty column lies to its left");
    char big[2048];
    size_t k = 0;
    for (int r = 0; r < 33; r++) {
        big[k++] = '1';
        big[k++] = '\n';
    }
    big[k] = '\0';
    test_load_fails(G, rules, big, 33, 1, "more than 32 rows");
    k = 0;
    for (int c = 0; c < 33; c++)
        big[k++] = '1';
    big[k++] = '\n';
    big[k] = '\0';
    test_load_fails(G, rules, big, 1, 33, "more than 32 columns");
    free(rules);
}

static void test_parse_move_rejections(void **unused)
{
    (void)unused;
    void *rules = test_rules(G, NULL);
    void *inst = test_load(G, rules, "12\n11\n");
    void *s = test_initial(G, inst);
    ps_move m;
    struct ps_error err;
    assert_false(G->parse_move(inst, s, "0 1", &m, &err));
    assert_non_null(strstr(err.msg, "has 1 cell"));
    assert_false(G->parse_move(inst, s, "5 0", &m, &err));
    assert_non_null(strstr(err.msg, "outside"));
    assert_false(G->parse_move(inst, s, "0", &m, &err));
    assert_non_null(strstr(err.msg, "row col"));
    assert_false(G->parse_move(inst, s, "0 0 0", &m, &err));
    test_release(G, inst, s, rules);
}

static void test_gen_is_deterministic(void **unused)
{
    (void)unused;
    struct ps_gen_options o = {.value = {3, 4, 3}, .seed = 42} /* rows, cols, colors */;
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    struct ps_error err;
    assert_true(G->generate(&o, f, &err));
    fclose(f);
    /* Fixed for every platform: the PRNG is psolve's own. */
    assert_string_equal(buf, "# psolve gen --game samegame --rows 3 --cols 4 "
                             "--colors 3 --seed 42\n"
                             "1233\n3333\n3231\n");
    o.value[2] = 10; /* colors */
    f = fmemopen(buf, sizeof buf, "w");
    assert_false(G->generate(&o, f, &err));
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gravity_per_column_3x3),
        cmocka_unit_test(test_columns_keep_order_5x5),
        cmocka_unit_test(test_moves_one_per_group),
        cmocka_unit_test(test_split_colour_is_game_over),
        cmocka_unit_test(test_evaluate_hand_worked),
        cmocka_unit_test(test_weighted_terms_hand_worked),
        cmocka_unit_test(test_beam_weights_parse),
        cmocka_unit_test(test_score_presets),
        cmocka_unit_test(test_min_group_rule),
        cmocka_unit_test(test_no_gravity_no_shift),
        cmocka_unit_test(test_canonical_hash_two_orders),
        cmocka_unit_test(test_move_text_round_trip),
        cmocka_unit_test(test_letters_and_comments),
        cmocka_unit_test(test_parser_rejections),
        cmocka_unit_test(test_parse_move_rejections),
        cmocka_unit_test(test_gen_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
