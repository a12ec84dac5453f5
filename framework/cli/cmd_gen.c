/*
 * cmd_gen.c - psolve gen: print a random puzzle of the game's generator,
 * of the size given or of the rule script's `gen` sizes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cmd_gen(struct cli *c, const struct ps_game *g)
{
    if (!g->generate)
        return cli_usage_error("game %s cannot generate puzzles", g->name);
    void *rules; /* read for the script's gen sizes (and checked) */
    int rc = cli_gen_rules(c, g, &rules);
    if (rc >= 0)
        return rc;
    free(rules);
    struct ps_error err;
    ps_error_clear(&err);
    if (!c->seed_set)
        c->gen.seed = 1;
    if (!g->generate(&c->gen, stdout, &err)) {
        fprintf(stderr, "psolve: gen: %s\n", err.msg);
        return PS_EXIT_USAGE;
    }
    return PS_EXIT_OK;
}
