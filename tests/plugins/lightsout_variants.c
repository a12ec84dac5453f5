/*
 * lightsout_variants.c - the example plug-in (examples/plugin/lightsout.c),
 * built once per VARIANT_* by tests/CMakeLists.txt: the sound one, and one
 * broken on purpose in each way psolve must refuse with a clear error
 * (tests/test_plugin.c).
 */
#include "game.h"
#include "rng.h"

/* Replace the example's entry point by the variant's below. */
#undef PS_PLUGIN
#define PS_PLUGIN(game_struct)
#include "../../examples/plugin/lightsout.c"

#ifdef VARIANT_sound
/* Refer to every helper a game may call, so that loading this plug-in
 * (dlopen with RTLD_NOW) proves the psolve executable exports them all. */
void lightsout_uses_every_helper(void);
void lightsout_uses_every_helper(void)
{
    struct ps_error err;
    char buf[64], *text;
    size_t len;
    struct ps_rng rng;
    struct ps_line_reader rd;
    struct ps_line ln;
    ps_error_clear(&err);
    ps_error_set(&err, NULL, 0, 0, "x");
    ps_error_format(&err, buf, sizeof buf);
    ps_rng_seed(&rng, 1);
    ps_rng_seed_stream(&rng, 1, 2);
    (void)ps_rng_next(&rng), (void)ps_rng_below(&rng, 2),
        (void)ps_rng_double(&rng);
    if (ps_read_text_file("-", &text, &len, &err))
        free(text);
    ps_lines_begin(&rd, "", 0);
    (void)ps_lines_next(&rd, &ln);
    (void)ps_game_flags(&lightsout_game, NULL);
    (void)ps_game_equal(&lightsout_game, NULL, buf, buf);
    (void)ps_rules_preset(&lightsout_game, buf, NULL, &err);
    (void)ps_game_check(&lightsout_game, &err);
    (void)ps_game_find("lightsout");
    (void)ps_game_list();
}
#endif

#ifndef VARIANT_no_symbol
/* The run-time contract (framework/providers/plugin_guard.c): slots that
 * return what the struct cannot show to be wrong. */
static void *variant_load_silent(const void *rules, const char *path,
                                 const char *text, size_t len,
                                 struct ps_error *err)
{
    (void)rules, (void)path, (void)text, (void)len, (void)err;
    return NULL; /* a failure without a message */
}
static size_t variant_state_zero(const void *inst)
{
    (void)inst;
    return 0;
}
static size_t variant_state_huge(const void *inst)
{
    (void)inst;
    return SIZE_MAX;
}
static int variant_minus_five(const void *inst)
{
    (void)inst;
    return -5;
}
static int variant_one(const void *inst)
{
    (void)inst;
    return 1; /* a lie: every light can be pressed */
}
/* A knowledge slot: the instance proven unsolvable without search. */
static bool variant_unsolvable(const void *inst, char *why, size_t len)
{
    (void)inst;
    snprintf(why, len, "the variant says no press can solve it");
    return false;
}
static int variant_moves_negative(const void *inst, const void *state,
                                  ps_move *moves, ps_value *gains)
{
    (void)inst, (void)state, (void)moves, (void)gains;
    return -3;
}

/* Costs a search cannot live with: below 0 (bfs, A*, IDA* and dfs went on
 * until killed), near 2^62 (g + cost overflowed), and an estimate near 2^62
 * (g + h overflowed). */
static ps_value variant_cost_negative(const void *inst, const void *state,
                                      ps_move move, void *out)
{
    lo_apply(inst, state, move, out);
    return -1;
}
static ps_value variant_cost_huge(const void *inst, const void *state,
                                  ps_move move, void *out)
{
    lo_apply(inst, state, move, out);
    return (ps_value)1 << 62;
}
static ps_value variant_heuristic_huge(const void *inst, const void *state)
{
    (void)inst, (void)state;
    return (ps_value)1 << 62;
}

/* A floor under the children's costs (dfs cuts by it) near 2^62. */
static void variant_floors_huge(const void *inst, const void *state,
                                const ps_move *moves, int n, ps_value *floor)
{
    (void)inst, (void)state, (void)moves;
    for (int i = 0; i < n; i++)
        floor[i] = (ps_value)1 << 62;
}

static const struct ps_preset variant_presets[] = {
    {"broken", "a preset without apply", NULL},
    {NULL, NULL, NULL},
};

const struct ps_plugin *psolve_plugin(void)
{
    static struct ps_game game;
    static struct ps_plugin plugin = {PS_API_VERSION, &game};
    game = lightsout_game;
#if defined(VARIANT_no_hash)
    game.hash = NULL;
#elif defined(VARIANT_preset_without_apply)
    game.presets = variant_presets;
#elif defined(VARIANT_wrong_version)
    plugin.api_version = PS_API_VERSION + 1000;
#elif defined(VARIANT_previous_version)
    /* Built for the struct before the slots were regrouped (version 5). */
    plugin.api_version = PS_API_VERSION - 1;
#elif defined(VARIANT_unsolvable)
    game.solvable = variant_unsolvable;
#elif defined(VARIANT_name_clash)
    game.name = "samegame";
#elif defined(VARIANT_null_game)
    plugin.game = NULL;
#elif defined(VARIANT_load_silent)
    game.load = variant_load_silent;
#elif defined(VARIANT_state_zero)
    game.state_size = variant_state_zero;
#elif defined(VARIANT_state_huge)
    game.state_size = variant_state_huge;
#elif defined(VARIANT_max_moves_negative)
    game.max_moves = variant_minus_five;
#elif defined(VARIANT_max_depth_negative)
    game.max_depth = variant_minus_five;
#elif defined(VARIANT_max_moves_lie)
    game.max_moves = variant_one;
#elif defined(VARIANT_moves_negative)
    game.moves = variant_moves_negative;
#elif defined(VARIANT_cost_negative)
    game.apply = variant_cost_negative;
#elif defined(VARIANT_cost_huge)
    game.apply = variant_cost_huge;
#elif defined(VARIANT_heuristic_huge)
    game.heuristic = variant_heuristic_huge;
#elif defined(VARIANT_floors_huge)
    game.child_floors = variant_floors_huge;
#endif
    (void)variant_presets, (void)variant_load_silent, (void)variant_state_zero,
        (void)variant_state_huge, (void)variant_minus_five, (void)variant_one,
        (void)variant_moves_negative, (void)variant_unsolvable,
        (void)variant_cost_negative, (void)variant_cost_huge,
        (void)variant_heuristic_huge, (void)variant_floors_huge;
    return &plugin;
}
#endif
