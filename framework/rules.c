#include "rules.h"

#include <stdlib.h>

void *ps_rules_resolve(const struct ps_game *g, const char *spec,
                       struct ps_options *opt, struct ps_error *err)
{
    (void)opt;
    void *rules = calloc(1, g->rules_size);
    if (!rules) {
        ps_error_set(err, NULL, 0, 0, "out of memory");
        return NULL;
    }
    if (!ps_rules_preset(g, rules, spec, err)) {
        free(rules);
        return NULL;
    }
    return rules;
}
