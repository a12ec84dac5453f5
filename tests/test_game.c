/*
 * test_game.c - the vtable contract (framework/kernel/game.h): every built-in
 * game keeps it, and ps_game_check names the game and the slot of a game that
 * breaks it; the run-time registry (ps_game_register).
 */
#include <stddef.h>

#include "support.h"

/* A complete toy cost game whose slots are never called: the check only
 * looks at the struct. Each test copies it and breaks one thing. */
static void *toy_load(const void *rules, const char *path, const char *text,
                      size_t len, struct ps_error *err)
{
    (void)rules, (void)path, (void)text, (void)len, (void)err;
    return NULL;
}
static void toy_free(void *inst) { (void)inst; }
static size_t toy_state_size(const void *inst) { (void)inst; return 8; }
static void toy_initial(const void *inst, void *state) { (void)inst, (void)state; }
static int toy_count(const void *inst) { (void)inst; return 1; }
static uint64_t toy_hash(const void *inst, const void *state)
{
    (void)inst, (void)state;
    return 0;
}
static int toy_moves(const void *inst, const void *state, ps_move *moves,
                     ps_value *gains)
{
    (void)inst, (void)state, (void)moves, (void)gains;
    return 0;
}
static ps_value toy_apply(const void *inst, const void *state, ps_move move,
                          void *out)
{
    (void)inst, (void)state, (void)move, (void)out;
    return 1;
}
static bool toy_goal(const void *inst, const void *state)
{
    (void)inst, (void)state;
    return true;
}
static ps_value toy_value(const void *inst, const void *state)
{
    (void)inst, (void)state;
    return 0;
}
static void toy_print(const void *inst, const void *state, FILE *out, bool ansi)
{
    (void)inst, (void)state, (void)out, (void)ansi;
}
static void toy_format(const void *inst, const void *state, ps_move move,
                       char *buf, size_t len)
{
    (void)inst, (void)state, (void)move, (void)buf, (void)len;
}
static bool toy_parse(const void *inst, const void *state, const char *text,
                      ps_move *move, struct ps_error *err)
{
    (void)inst, (void)state, (void)text, (void)move, (void)err;
    return false;
}
static void toy_preset(void *rules) { (void)rules; }
static int toy_choose(const void *inst, const void *state,
                      const ps_move *moves, const ps_value *gains, int n,
                      struct ps_rng *rng)
{
    (void)inst, (void)state, (void)moves, (void)gains, (void)rng;
    return n - 1;
}

static void toy_codes(const void *inst, const void *state, const ps_move *moves,
                      int n, uint32_t *codes)
{
    (void)inst, (void)state, (void)moves, (void)n, (void)codes;
}
static const struct ps_gen_options toy_sizes[] = {{.value = {3}}, {.seed = 0}};

struct toy_rules {
    int64_t size;
    bool wrap;
    int mode;
    int64_t table[4];
};

static const char *const toy_modes[] = {"plain", "fancy", NULL};
#define TOY_PARAMS_END {NULL, 0, 0, 0, 0, NULL, 0, NULL, 0, NULL}

static const struct ps_param toy_params[] = {
    {"size", PS_PARAM_INT, offsetof(struct toy_rules, size), 1, 9, NULL, 0, "n", 0, NULL},
    {"wrap", PS_PARAM_BOOL, offsetof(struct toy_rules, wrap), 0, 1, NULL, 0, "", 0, NULL},
    {"mode", PS_PARAM_ENUM, offsetof(struct toy_rules, mode), 0, 0, toy_modes, 0, "", 0, NULL},
    {"table", PS_PARAM_TABLE, offsetof(struct toy_rules, table), 0, 9, NULL, 4, "", 0, NULL},
    TOY_PARAMS_END,
};

static const struct ps_preset toy_presets[] = {
    {"big", "a big toy", toy_preset},
    {NULL, NULL, NULL},
};

static const struct ps_game toy = {
    .name = "toy",
    .summary = "a toy",
    .flags = PS_HAS_HEURISTIC,
    .rules_size = sizeof(struct toy_rules),
    .params = toy_params,
    .presets = toy_presets,
    .load = toy_load,
    .free_instance = toy_free,
    .state_size = toy_state_size,
    .initial_state = toy_initial,
    .max_moves = toy_count,
    .max_depth = toy_count,
    .hash = toy_hash,
    .moves = toy_moves,
    .apply = toy_apply,
    .is_goal = toy_goal,
    .heuristic = toy_value,
    .print_state = toy_print,
    .format_move = toy_format,
    .parse_move = toy_parse,
};

/* ps_game_check(g) fails with a message that holds every needle. */
static void expect_refused(const struct ps_game *g, const char *needle1,
                           const char *needle2)
{
    struct ps_error err;
    ps_error_clear(&err);
    if (ps_game_check(g, &err))
        fail_msg("a broken game passed the check (expected: %s)", needle2);
    if (!strstr(err.msg, needle1) || !strstr(err.msg, needle2))
        fail_msg("message '%s' lacks '%s' or '%s'", err.msg, needle1, needle2);
}

static void test_builtin_games_keep_the_contract(void **unused)
{
    (void)unused;
    struct ps_error err;
    ps_error_clear(&err);
    int n = 0;
    for (const struct ps_game *const *g = ps_game_list(); *g; g++, n++)
        if (!ps_game_check(*g, &err))
            fail_msg("%s", err.msg);
    assert_true(n >= 3);
    assert_true(ps_game_check_all(&err));
    assert_true(ps_game_check(&toy, &err));
}

static void test_missing_required_slot_is_named(void **unused)
{
    (void)unused;
    struct ps_game g = toy;
    g.hash = NULL;
    expect_refused(&g, "game toy", "required slot 'hash'");
    g = toy;
    g.parse_move = NULL;
    expect_refused(&g, "game toy", "'parse_move'");
    g = toy;
    g.name = NULL;
    expect_refused(&g, "(unnamed)", "'name'");
    g = toy;
    g.name = "two words";
    expect_refused(&g, "two words", "letters, digits");
    expect_refused(NULL, "no game", "");
}

static void test_objective_slots(void **unused)
{
    (void)unused;
    struct ps_game g = toy;
    g.is_goal = NULL;
    expect_refused(&g, "cost game", "'is_goal'");
    g.flags = PS_MAXIMISE; /* a score game needs no goal, nor end_value */
    struct ps_error err;
    assert_true(ps_game_check(&g, &err));
    g.flags = PS_MAXIMISE | PS_HAS_BOUND;
    expect_refused(&g, "PS_HAS_BOUND", "'upper_bound'");
    g = toy;
    g.heuristic = NULL;
    expect_refused(&g, "PS_HAS_HEURISTIC", "'heuristic'");
    g.flags = 0; /* no flag: the heuristic is optional */
    assert_true(ps_game_check(&g, &err));
    g.flags = 1u << 7;
    expect_refused(&g, "game toy", "unknown bits");
    g = toy;
    g.move_codes = toy_codes;
    expect_refused(&g, "'move_codes'", "'move_code_space'");
    /* A policy's own move codes come in pairs too. */
    static const struct ps_policy half_coded[] = {
        {"half", "codes without their space", false, toy_choose, NULL,
         toy_codes, NULL},
        {NULL, NULL, false, NULL, NULL, NULL, NULL},
    };
    g = toy;
    g.policies = half_coded;
    expect_refused(&g, "policy 'half'", "move_code_space");
    g = toy;
    g.bench_sizes = toy_sizes;
    expect_refused(&g, "'bench_sizes'", "'generate'");
}

/* The --heuristic table: each entry named, documented and callable, each
 * name once; ps_heuristic_check lists the choices. */
static void test_heuristics_table(void **unused)
{
    (void)unused;
    struct ps_game g = toy;
    static const struct ps_heuristic good[] = {
        {"zero", "h = 0", true, ps_heuristic_zero},
        {"toy", "the toy's", true, toy_value},
        {NULL, NULL, false, NULL},
    };
    g.heuristics = good;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_game_check(&g, &err));
    assert_ptr_equal(ps_heuristic_find(&g, "toy"), &good[1]);
    assert_null(ps_heuristic_find(&g, "nope"));
    assert_true(ps_heuristic_check(&g, NULL, &err));
    assert_false(ps_heuristic_check(&g, "nope", &err));
    assert_string_equal(err.msg, "unknown heuristic 'nope' for game toy "
                                 "(choices: zero, toy)");
    /* The game's own slot is the default, named by its entry. */
    assert_string_equal(ps_heuristic_default_name(&g, false), "toy");
    g.heuristic = NULL;
    assert_string_equal(ps_heuristic_default_name(&g, false), "default");
    g = toy;
    assert_false(ps_heuristic_check(&g, "zero", &err));
    assert_non_null(strstr(err.msg, "offers no named heuristics"));
    static const struct ps_heuristic twice[] = {
        {"zero", "h = 0", true, ps_heuristic_zero},
        {"zero", "again", true, ps_heuristic_zero},
        {NULL, NULL, false, NULL},
    };
    g.heuristics = twice;
    expect_refused(&g, "heuristic 'zero'", "listed twice");
    static const struct ps_heuristic no_fn[] = {
        {"broken", "no function", true, NULL},
        {NULL, NULL, false, NULL},
    };
    g.heuristics = no_fn;
    expect_refused(&g, "heuristic 'broken'", "has no fn");
    static const struct ps_heuristic no_doc[] = {
        {"broken", NULL, true, ps_heuristic_zero},
        {NULL, NULL, false, NULL},
    };
    g.heuristics = no_doc;
    expect_refused(&g, "heuristic 'broken'", "has no doc");
    static const struct ps_heuristic bad_name[] = {
        {"two words", "x", true, ps_heuristic_zero},
        {NULL, NULL, false, NULL},
    };
    g.heuristics = bad_name;
    expect_refused(&g, "heuristic 'two words'", "letters, digits");
}

static void preset_apply_null_case(const struct ps_preset *presets)
{
    struct ps_game g = toy;
    g.presets = presets;
    expect_refused(&g, "preset 'broken'", "apply");
    /* Even unchecked, ps_rules_preset refuses instead of calling NULL. */
    struct toy_rules r;
    struct ps_error err;
    ps_error_clear(&err);
    assert_false(ps_rules_preset(&g, &r, "broken", &err));
    assert_non_null(strstr(err.msg, "has no apply"));
}

static void test_preset_without_apply(void **unused)
{
    (void)unused;
    static const struct ps_preset broken[] = {
        {"fine", "fine", toy_preset},
        {"broken", "no apply", NULL},
        {NULL, NULL, NULL},
    };
    preset_apply_null_case(broken);
    static const struct ps_preset twice[] = {
        {"big", "a", toy_preset},
        {"big", "b", toy_preset},
        {NULL, NULL, NULL},
    };
    struct ps_game g = toy;
    g.presets = twice;
    expect_refused(&g, "preset 'big'", "twice");
}

static void test_param_sanity(void **unused)
{
    (void)unused;
    struct ps_game g = toy;
    static const struct ps_param outside[] = {
        {"size", PS_PARAM_INT, sizeof(struct toy_rules), 1, 9, NULL, 0, "", 0, NULL},
        TOY_PARAMS_END,
    };
    g.params = outside;
    expect_refused(&g, "'size'", "offsetof");
    static const struct ps_param misaligned[] = {
        {"size", PS_PARAM_INT, 1, 1, 9, NULL, 0, "", 0, NULL},
        TOY_PARAMS_END,
    };
    g.params = misaligned;
    expect_refused(&g, "'size'", "aligned");
    static const struct ps_param table_too_long[] = {
        {"table", PS_PARAM_TABLE, offsetof(struct toy_rules, table), 0, 9,
         NULL, 5, "", 0, NULL},
        TOY_PARAMS_END,
    };
    g.params = table_too_long;
    expect_refused(&g, "'table'", "rules_size");
    static const struct ps_param no_choices[] = {
        {"mode", PS_PARAM_ENUM, offsetof(struct toy_rules, mode), 0, 0, NULL, 0, "", 0, NULL},
        TOY_PARAMS_END,
    };
    g.params = no_choices;
    expect_refused(&g, "'mode'", "without choices");
    static const struct ps_param empty_range[] = {
        {"size", PS_PARAM_INT, offsetof(struct toy_rules, size), 9, 1, NULL, 0, "", 0, NULL},
        TOY_PARAMS_END,
    };
    g.params = empty_range;
    expect_refused(&g, "'size'", "min 9 > max 1");
    static const struct ps_param twice[] = {
        {"size", PS_PARAM_INT, offsetof(struct toy_rules, size), 1, 9, NULL, 0, "", 0, NULL},
        {"size", PS_PARAM_INT, offsetof(struct toy_rules, size), 1, 9, NULL, 0, "", 0, NULL},
        TOY_PARAMS_END,
    };
    g.params = twice;
    expect_refused(&g, "'size'", "twice");
    static const struct ps_param reserved[] = {
        {"game", PS_PARAM_INT, offsetof(struct toy_rules, size), 1, 9, NULL, 0, "", 0, NULL},
        TOY_PARAMS_END,
    };
    g.params = reserved;
    expect_refused(&g, "'game'", "reserved");
    g = toy;
    g.rules_size = 0;
    expect_refused(&g, "game toy", "rules_size is 0");
}

static void test_register_adds_checked_games(void **unused)
{
    (void)unused;
    struct ps_error err;
    ps_error_clear(&err);
    static struct ps_game broken;
    broken = toy;
    broken.name = "broken";
    broken.apply = NULL;
    assert_false(ps_game_register(&broken, &err));
    assert_non_null(strstr(err.msg, "'apply'"));
    assert_null(ps_game_find("broken"));

    static struct ps_game clash;
    clash = toy;
    clash.name = "samegame";
    assert_false(ps_game_register(&clash, &err));
    assert_non_null(strstr(err.msg, "already known"));

    assert_null(ps_game_find("toy"));
    assert_true(ps_game_register(&toy, &err));
    assert_true(ps_game_register(&toy, &err)); /* the same struct: no-op */
    assert_ptr_equal(ps_game_find("toy"), &toy);
    int n = 0;
    for (const struct ps_game *const *g = ps_game_list(); *g; g++)
        n += *g == &toy;
    assert_int_equal(n, 1);
    assert_non_null(ps_game_find("samegame"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_games_keep_the_contract),
        cmocka_unit_test(test_missing_required_slot_is_named),
        cmocka_unit_test(test_objective_slots),
        cmocka_unit_test(test_heuristics_table),
        cmocka_unit_test(test_preset_without_apply),
        cmocka_unit_test(test_param_sanity),
        cmocka_unit_test(test_register_adds_checked_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
