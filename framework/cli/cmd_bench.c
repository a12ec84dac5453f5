/*
 * cmd_bench.c - psolve bench: random playouts per second per size (bench.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cli.h"
#include "rules.h"

int cmd_bench(struct cli *c, const struct ps_game *g)
{
    void *rules;
    int rc = cli_gen_rules(c, g, &rules);
    if (rc >= 0)
        return rc;
    struct ps_error err;
    ps_error_clear(&err);
    bool one_size = c->gen_set;
    bool ok = ps_bench_playouts(stdout, g, rules, c->bench_seconds, c->opt.seed,
                                one_size ? &c->gen : NULL, &err);
    free(rules);
    return ok ? PS_EXIT_OK : cli_print_error(&err);
}
