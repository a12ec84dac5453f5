/* Helpers over the game vtable, so callers need not test optional slots. */
#include <string.h>

#include "game.h"

unsigned ps_game_flags(const struct ps_game *g, const void *inst)
{
    unsigned f = g->flags;
    if (g->instance_flags)
        f |= g->instance_flags(inst);
    return f;
}

bool ps_game_equal(const struct ps_game *g, const void *inst, const void *a,
                   const void *b)
{
    if (g->equal)
        return g->equal(inst, a, b);
    return memcmp(a, b, g->state_size(inst)) == 0;
}

bool ps_rules_preset(const struct ps_game *g, void *rules, const char *name,
                     struct ps_error *err)
{
    memset(rules, 0, g->rules_size);
    g->rules_default(rules);
    if (!name)
        return true;
    for (const struct ps_preset *p = g->presets; p && p->name; p++) {
        if (strcmp(p->name, name) == 0) {
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
