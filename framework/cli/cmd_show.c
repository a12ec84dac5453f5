/*
 * cmd_show.c - psolve show FILE: draw a puzzle's start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

int cmd_show(struct cli *c, const struct ps_game *g)
{
    struct puzzle pz;
    if (!cli_puzzle_open(c, g, &pz))
        return PS_EXIT_ERROR;
    unsigned char *state = malloc(g->state_size(pz.inst));
    bool ok = state != NULL; /* a freed pointer may not even be compared */
    if (ok) {
        g->initial_state(pz.inst, state);
        g->print_state(pz.inst, state, stdout, isatty(STDOUT_FILENO));
        ok = !cli_report_game_fault(g, pz.inst);
    }
    free(state);
    cli_puzzle_close(&pz);
    return ok ? PS_EXIT_OK : PS_EXIT_ERROR;
}
