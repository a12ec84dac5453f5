/* Helpers over the game vtable, so callers need not test optional slots, and
 * the check of the vtable's contract (game.h marks each slot). */
#include <stdalign.h>
#include <string.h>

#include "game.h"
#include "suggest.h"

unsigned ps_game_flags(const struct ps_game *g, const void *inst)
{
    unsigned f = g->flags;
    if (g->instance_flags)
        f |= g->instance_flags(inst);
    return f;
}

bool ps_game_may_score(const struct ps_game *g)
{
    return (g->flags & PS_MAXIMISE) || g->upper_bound;
}

bool ps_game_may_cost(const struct ps_game *g)
{
    return !(g->flags & PS_MAXIMISE);
}

bool ps_game_equal(const struct ps_game *g, const void *inst, const void *a,
                   const void *b)
{
    if (g->equal)
        return g->equal(inst, a, b);
    return memcmp(a, b, g->state_size(inst)) == 0;
}

size_t ps_game_key_size(const struct ps_game *g, const void *inst)
{
    if (!g->key_size || !g->state_key)
        return 0;
    size_t n = g->key_size(inst);
    return n < g->state_size(inst) ? n : 0;
}

enum ps_fault ps_game_fault(const struct ps_game *g, const void *inst,
                            struct ps_error *err)
{
    return g->fault ? g->fault(inst, err) : PS_FAULT_NONE;
}

size_t ps_game_state_pack(const struct ps_game *g, const void *inst,
                          const void *state, void *buf, size_t cap)
{
    if (g->state_pack)
        return g->state_pack(inst, state, buf, cap);
    size_t n = g->state_size(inst);
    if (n <= cap)
        memcpy(buf, state, n);
    return n;
}

bool ps_game_state_unpack(const struct ps_game *g, const void *inst,
                          const void *buf, size_t len, void *state)
{
    if (g->state_unpack)
        return g->state_unpack(inst, buf, len, state);
    if (len != g->state_size(inst))
        return false;
    memcpy(state, buf, len);
    return true;
}

bool ps_rules_preset(const struct ps_game *g, void *rules, const char *name,
                     struct ps_error *err)
{
    memset(rules, 0, g->rules_size);
    if (g->rules_default)
        g->rules_default(rules);
    if (!name)
        return true;
    for (const struct ps_preset *p = g->presets; p && p->name; p++) {
        if (strcmp(p->name, name) == 0) {
            if (!p->apply) /* ps_game_check refuses it; never call NULL */
                return ps_error_set(err, NULL, 0, 0,
                                    "game %s: preset '%s' has no apply",
                                    g->name, name);
            p->apply(rules);
            return g->rules_check ? g->rules_check(rules, err) : true;
        }
    }
    char known[256] = "";
    for (const struct ps_preset *p = g->presets; p && p->name; p++) {
        strncat(known, known[0] ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, p->name, sizeof known - strlen(known) - 1);
    }
    return ps_error_set(err, NULL, 0, 0,
                        "unknown rules '%s' for game %s (known: %s)", name,
                        g->name, known);
}

/* ---- the contract ---- */

static const char *game_name(const struct ps_game *g)
{
    return g->name ? g->name : "(unnamed)";
}

/* A rule key is read from a Lua table: an identifier. */
static bool name_is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* Bytes and alignment of the field a parameter fills. */
static bool param_field(const struct ps_param *p, size_t *size, size_t *align)
{
    switch (p->type) {
    case PS_PARAM_INT:
        *size = sizeof(int64_t), *align = alignof(int64_t);
        return true;
    case PS_PARAM_BOOL:
        *size = sizeof(bool), *align = alignof(bool);
        return true;
    case PS_PARAM_ENUM:
        *size = sizeof(int), *align = alignof(int);
        return true;
    case PS_PARAM_TABLE:
        *size = (size_t)p->table_len * (size_t)ps_param_rows(p) *
                sizeof(int64_t);
        *align = alignof(int64_t);
        return p->table_len >= 1 && p->table_rows >= 0 &&
               (p->table_rows <= 1 || p->table_row);
    }
    return false;
}

static bool check_param(const struct ps_game *g, const struct ps_param *p,
                        struct ps_error *err)
{
    const char *name = game_name(g);
    if (!name_is_identifier(p->key) || strcmp(p->key, "game") == 0 ||
        strcmp(p->key, "prune") == 0)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: rule parameter '%s' is not a Lua "
                            "identifier, or is the reserved 'game'/'prune'",
                            name, p->key);
    for (const struct ps_param *q = g->params; q != p; q++)
        if (strcmp(q->key, p->key) == 0)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: rule parameter '%s' is listed twice",
                                name, p->key);
    size_t size, align;
    if (!param_field(p, &size, &align))
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: rule parameter '%s' has a bad type (%d), "
                            "a TABLE without entries (table_len %d) or rows "
                            "without a table_row name (table_rows %d)",
                            name, p->key, (int)p->type, p->table_len,
                            p->table_rows);
    if (p->offset > g->rules_size || size > g->rules_size - p->offset ||
        p->offset % align)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: rule parameter '%s': its field (offset "
                            "%zu, %zu bytes) is not an aligned field inside "
                            "rules_size (%zu bytes); use offsetof()",
                            name, p->key, p->offset, size, g->rules_size);
    if ((p->type == PS_PARAM_INT || p->type == PS_PARAM_TABLE) &&
        p->min > p->max)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: rule parameter '%s': min %lld > max %lld",
                            name, p->key, (long long)p->min,
                            (long long)p->max);
    if (p->type == PS_PARAM_ENUM && (!p->choices || !p->choices[0]))
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: rule parameter '%s' is an ENUM without "
                            "choices",
                            name, p->key);
    return true;
}

static bool check_rules(const struct ps_game *g, struct ps_error *err)
{
    const char *name = game_name(g);
    int n = 0;
    for (const struct ps_param *p = g->params; p && p->key; p++, n++)
        if (n == PS_MAX_PARAMS)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: more than %d rule parameters", name,
                                PS_MAX_PARAMS);
        else if (!check_param(g, p, err))
            return false;
    for (const struct ps_preset *p = g->presets; p && p->name; p++) {
        if (!p->apply || !p->doc)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: preset '%s' has no %s", name, p->name,
                                p->apply ? "doc" : "apply");
        for (const struct ps_preset *q = g->presets; q != p; q++)
            if (strcmp(q->name, p->name) == 0)
                return ps_error_set(err, NULL, 0, 0,
                                    "game %s: preset '%s' is listed twice",
                                    name, p->name);
    }
    return true;
}

/* The heuristics table: named, documented, callable, each name once. */
static bool check_heuristics(const struct ps_game *g, struct ps_error *err)
{
    const char *name = game_name(g);
    for (const struct ps_heuristic *h = g->heuristics; h && h->name; h++) {
        if (!ps_name_is_plain(h->name))
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: heuristic '%s': a name is letters, "
                                "digits, '_' and '-'",
                                name, h->name);
        if (!h->fn || !h->doc)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: heuristic '%s' has no %s", name,
                                h->name, h->fn ? "doc" : "fn");
        for (const struct ps_heuristic *k = g->heuristics; k != h; k++)
            if (strcmp(k->name, h->name) == 0)
                return ps_error_set(err, NULL, 0, 0,
                                    "game %s: heuristic '%s' is listed twice",
                                    name, h->name);
    }
    return true;
}

ps_value ps_heuristic_zero(const void *inst, const void *state)
{
    (void)inst;
    (void)state;
    return 0;
}

const struct ps_heuristic *ps_heuristic_find(const struct ps_game *g,
                                             const char *name)
{
    for (const struct ps_heuristic *h = g->heuristics; h && h->name; h++)
        if (strcmp(h->name, name) == 0)
            return h;
    return NULL;
}

/* The pattern set of g called `name` ("pdb:..."), or NULL. */
static const struct ps_pattern_set *find_pattern_set(const struct ps_game *g,
                                                     const char *name)
{
    for (const struct ps_pattern_set *p = g->abstraction ? g->abstraction->sets
                                                         : NULL;
         p && p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

const char *ps_heuristic_canonical(const struct ps_game *g, const char *name)
{
    const struct ps_heuristic *h = ps_heuristic_find(g, name);
    if (h)
        return h->name;
    const struct ps_pattern_set *p = find_pattern_set(g, name);
    return p ? p->name : NULL;
}

/* Append `name` to the list of choices (", " between). */
static void list_choice(char *list, size_t len, size_t *used, const char *name)
{
    int n = snprintf(list + *used, len - *used, "%s%s", *used ? ", " : "",
                     name);
    if (n > 0 && (size_t)n < len - *used)
        *used += (size_t)n;
}

bool ps_heuristic_check(const struct ps_game *g, const char *name,
                        struct ps_error *err)
{
    if (!name || ps_heuristic_canonical(g, name))
        return true;
    char list[512] = "";
    size_t used = 0;
    for (const struct ps_heuristic *h = g->heuristics; h && h->name; h++)
        list_choice(list, sizeof list, &used, h->name);
    for (const struct ps_pattern_set *p = g->abstraction ? g->abstraction->sets
                                                         : NULL;
         p && p->name; p++)
        list_choice(list, sizeof list, &used, p->name);
    if (!used)
        return ps_error_set(err, NULL, 0, 0,
                            "unknown heuristic '%s': game %s offers no "
                            "named heuristics",
                            name, g->name);
    return ps_error_set(err, NULL, 0, 0,
                        "unknown heuristic '%s' for game %s (choices: %s)",
                        name, g->name, list);
}

const char *ps_heuristic_default_name(const struct ps_game *g, bool maximise)
{
    ps_value (*fn)(const void *, const void *) =
        maximise ? g->upper_bound : g->heuristic;
    for (const struct ps_heuristic *h = g->heuristics; fn && h && h->name; h++)
        if (h->fn == fn)
            return h->name;
    return "default";
}

/* The abstraction: its slots, and sets named "pdb:..." once each, with
 * counts in range. */
static bool check_abstraction(const struct ps_game *g, struct ps_error *err)
{
    const struct ps_abstraction *a = g->abstraction;
    const char *name = game_name(g);
    if (!a)
        return true;
    if (!a->sets || !a->space || !a->goals || !a->predecessors || !a->entries)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: the abstraction needs sets, space, "
                            "goals, predecessors and entries",
                            name);
    for (const struct ps_pattern_set *p = a->sets; p->name; p++) {
        if (strncmp(p->name, "pdb:", 4) != 0 || !ps_name_is_plain(p->name + 4))
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: pattern set '%s': a name is 'pdb:' "
                                "then letters, digits, '_' and '-'",
                                name, p->name);
        if (!p->doc || p->patterns < 1 || p->patterns > PS_PDB_MAX_PATTERNS ||
            p->lookups < 1 || p->lookups > PS_PDB_MAX_LOOKUPS)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: pattern set '%s' needs a doc, "
                                "1..%d patterns and 1..%d lookups",
                                name, p->name, PS_PDB_MAX_PATTERNS,
                                PS_PDB_MAX_LOOKUPS);
        if (find_pattern_set(g, p->name) != p)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: pattern set '%s' is listed twice",
                                name, p->name);
    }
    return true;
}

/* Two slots that come together: both set or neither. */
static bool slots_paired(const char *game, bool has_a, const char *a,
                         bool has_b, const char *b, struct ps_error *err)
{
    if (has_a == has_b)
        return true;
    return ps_error_set(err, NULL, 0, 0,
                        "game %s: slot '%s' is set but '%s' is NULL (the two "
                        "come together)",
                        game, has_a ? a : b, has_a ? b : a);
}

static bool check_knowledge(const struct ps_game *g, struct ps_error *err)
{
    const char *name = game_name(g);
    if (!check_heuristics(g, err) || !check_abstraction(g, err))
        return false;
    for (const struct ps_policy *p = g->policies; p && p->name; p++)
        if (!p->choose || !p->doc)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: policy '%s' has no %s", name, p->name,
                                p->choose ? "doc" : "choose");
    for (const struct ps_policy *p = g->policies; p && p->name; p++)
        if (!p->move_codes != !p->move_code_space)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: policy '%s' has only one of "
                                "move_codes and move_code_space",
                                name, p->name);
    if (!slots_paired(name, g->move_codes != NULL, "move_codes",
                      g->move_code_space != NULL, "move_code_space", err) ||
        !slots_paired(name, g->state_pack != NULL, "state_pack",
                      g->state_unpack != NULL, "state_unpack", err) ||
        !slots_paired(name, g->key_size != NULL, "key_size",
                      g->state_key != NULL, "state_key", err) ||
        !slots_paired(name, g->eval_weights != NULL, "eval_weights",
                      g->evaluate_moves_weighted != NULL,
                      "evaluate_moves_weighted", err))
        return false;
    int weights = 0;
    for (const struct ps_eval_weight *w = g->eval_weights; w && w->name; w++)
        if (!w->doc || ++weights > PS_MAX_EVAL_WEIGHTS)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: weight '%s': %s", name, w->name,
                                w->doc ? "more than PS_MAX_EVAL_WEIGHTS"
                                       : "no doc");
    int walk = !!g->walk_size + !!g->walk_start + !!g->walk_moves +
               !!g->walk_play + !!g->walk_end;
    if (walk != 0 && walk != 5)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: the walk slots (walk_size, walk_start, "
                            "walk_moves, walk_play, walk_end) come all "
                            "together or not at all",
                            name);
    if (g->evaluate_moves && !g->evaluate)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: slot 'evaluate_moves' needs slot "
                            "'evaluate'",
                            name);
    if (g->bench_sizes && !g->generate)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: slot 'bench_sizes' needs slot 'generate'",
                            name);
    if (g->gen_options && !g->generate)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: slot 'gen_options' needs slot 'generate'",
                            name);
    for (int k = 0; g->gen_options && g->gen_options[k].name; k++) {
        const struct ps_option *o = &g->gen_options[k];
        if (k == PS_MAX_GEN_OPTIONS || o->type != PS_OPT_INT ||
            o->offset != PS_GEN_VALUE(k) || !(o->min >= 1) ||
            !(o->max >= o->min) || !o->doc)
            return ps_error_set(err, NULL, 0, 0,
                                "game %s: gen option '%s' must be entry %d of "
                                "at most %d, an INT over PS_GEN_VALUE(%d) with "
                                "1 <= min <= max and a doc",
                                name, o->name, k, PS_MAX_GEN_OPTIONS, k);
    }
    return true;
}

/* One line per required slot, so the message names it. */
#define REQUIRE(slot)                                                          \
    do {                                                                       \
        if (!g->slot)                                                          \
            return ps_error_set(err, NULL, 0, 0,                               \
                                "game %s: required slot '" #slot "' is NULL",  \
                                game_name(g));                                 \
    } while (0)

bool ps_game_check(const struct ps_game *g, struct ps_error *err)
{
    if (!g)
        return ps_error_set(err, NULL, 0, 0, "no game (a NULL ps_game)");
    REQUIRE(name);
    if (!ps_name_is_plain(g->name))
        return ps_error_set(err, NULL, 0, 0,
                            "game '%s': a name is letters, digits, '_' and '-'",
                            g->name);
    REQUIRE(summary);
    REQUIRE(load);
    REQUIRE(free_instance);
    REQUIRE(state_size);
    REQUIRE(initial_state);
    REQUIRE(max_moves);
    REQUIRE(max_depth);
    REQUIRE(hash);
    REQUIRE(moves);
    REQUIRE(apply);
    REQUIRE(print_state);
    REQUIRE(format_move);
    REQUIRE(parse_move);
    /* The objective: instance_flags may only add bits, so a game whose
     * flags lack PS_MAXIMISE may have cost instances. */
    if (!(g->flags & PS_MAXIMISE) && !g->is_goal)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: a cost game (flags without PS_MAXIMISE) "
                            "needs slot 'is_goal'",
                            g->name);
    if ((g->flags & PS_HAS_HEURISTIC) && !g->heuristic)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: flag PS_HAS_HEURISTIC needs slot "
                            "'heuristic'",
                            g->name);
    if ((g->flags & PS_HAS_BOUND) && !g->upper_bound)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: flag PS_HAS_BOUND needs slot 'upper_bound'",
                            g->name);
    if (!g->begin_search != !g->end_search)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: slot '%s' is set but '%s' is NULL (the "
                            "two come together)",
                            g->name,
                            g->begin_search ? "begin_search" : "end_search",
                            g->begin_search ? "end_search" : "begin_search");
    if (g->flags & ~(unsigned)(PS_MAXIMISE | PS_HAS_HEURISTIC | PS_HAS_BOUND |
                               PS_ONE_THREAD | PS_BOUND_OFTEN_MET))
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: unknown bits in flags (0x%x)", g->name,
                            g->flags);
    if (g->params && g->params->key && g->rules_size == 0)
        return ps_error_set(err, NULL, 0, 0,
                            "game %s: rule parameters need a rules struct "
                            "(rules_size is 0)",
                            g->name);
    return check_rules(g, err) && check_knowledge(g, err);
}
