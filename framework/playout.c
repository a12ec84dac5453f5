#include "playout.h"

#include <stdlib.h>
#include <string.h>

bool ps_playout_init(struct ps_playout *p, const struct ps_game *g,
                     const void *inst)
{
    size_t size = g->state_size(inst);
    p->game = g;
    p->inst = inst;
    p->moves = malloc((size_t)g->max_moves(inst) * sizeof *p->moves);
    p->a = malloc(size);
    p->b = malloc(size);
    p->length = 0;
    if (!p->moves || !p->a || !p->b) {
        ps_playout_free(p);
        return false;
    }
    return true;
}

void ps_playout_free(struct ps_playout *p)
{
    free(p->moves);
    free(p->a);
    free(p->b);
    p->moves = NULL;
    p->a = p->b = NULL;
}

ps_value ps_playout_uniform(struct ps_playout *p, const void *start,
                            struct ps_rng *rng, int max_len)
{
    const struct ps_game *g = p->game;
    bool maximise = ps_game_flags(g, p->inst) & PS_MAXIMISE;
    if (max_len <= 0)
        max_len = g->max_depth(p->inst);
    memcpy(p->a, start, g->state_size(p->inst));
    ps_value value = 0;
    int len = 0;
    for (;;) {
        if (!maximise && (g->is_goal(p->inst, p->a) || len >= max_len))
            break;
        int n = g->moves(p->inst, p->a, p->moves, NULL);
        if (n == 0) {
            if (maximise && g->end_value)
                value += g->end_value(p->inst, p->a);
            break;
        }
        ps_move m = p->moves[ps_rng_below(rng, (uint32_t)n)];
        value += g->apply(p->inst, p->a, m, p->b);
        unsigned char *t = p->a;
        p->a = p->b;
        p->b = t;
        len++;
    }
    p->length = len;
    return value;
}
