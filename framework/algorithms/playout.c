/*
 * playout.c - random playouts through the vtable and the playout policies
 * (playout.h): the kernel's loop, or the game's own engine when it offers
 * one.
 */
#include "playout.h"

#include <stdlib.h>
#include <string.h>

#define TOPK_DEFAULT 3

bool ps_playout_init(struct ps_playout *p, const struct ps_game *g,
                     const void *inst)
{
    memset(p, 0, sizeof *p);
    size_t size = g->state_size(inst);
    p->game = g;
    p->inst = inst;
    p->state_size = size;
    p->maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    size_t nmoves = (size_t)g->max_moves(inst);
    p->moves = malloc(nmoves * sizeof *p->moves);
    p->gains = malloc(nmoves * sizeof *p->gains);
    p->line = malloc(((size_t)g->max_depth(inst) + 1) * sizeof *p->line);
    p->a = malloc(size);
    p->b = malloc(size);
    if (!p->moves || !p->gains || !p->line || !p->a || !p->b) {
        ps_playout_free(p);
        return false;
    }
    return true;
}

uint64_t ps_playout_bytes(const struct ps_game *g, const void *inst)
{
    uint64_t nmoves = (uint64_t)g->max_moves(inst);
    uint64_t depth = (uint64_t)g->max_depth(inst) + 1;
    return nmoves * (sizeof(ps_move) + sizeof(ps_value)) +
           depth * sizeof(ps_move) + 2 * (uint64_t)g->state_size(inst);
}

void ps_playout_free(struct ps_playout *p)
{
    free(p->moves);
    free(p->gains);
    free(p->line);
    free(p->a);
    free(p->b);
    p->moves = NULL;
    p->gains = NULL;
    p->line = NULL;
    p->a = p->b = NULL;
}

/* Uniform among the k moves with the largest gains: draw a rank, then find
 * the move of that rank (ties broken by move order). n and k are small. */
static int choose_topk(const ps_value *gains, int n, int k, struct ps_rng *rng)
{
    if (k > n)
        k = n;
    int rank = (int)ps_rng_below(rng, (uint32_t)k);
    int best = -1;
    /* Walk down the ranks: each round takes the best move below the last. */
    ps_value bound = 0;
    int bound_index = -1;
    for (int r = 0; r <= rank; r++) {
        best = -1;
        for (int i = 0; i < n; i++) {
            bool below = bound_index < 0 || gains[i] < bound ||
                         (gains[i] == bound && i > bound_index);
            if (below && (best < 0 || gains[i] > gains[best]))
                best = i;
        }
        bound = gains[best];
        bound_index = best;
    }
    return best;
}

/* One playout. `policy`/`topk` as in struct ps_playout; `record` keeps the
 * line. The uniform case is the same loop with no policy. */
static ps_value playout(struct ps_playout *p, const void *start,
                        struct ps_rng *rng, int max_len,
                        const struct ps_policy *policy, int topk)
{
    const struct ps_game *g = p->game;
    const void *inst = p->inst;
    bool want_gains = topk > 0 || (policy && policy->wants_gains);
    if (max_len == 0)
        max_len = g->max_depth(inst);
    if (max_len < 0)
        max_len = 0;
    p->too_long = false;
    ps_value whole;
    if (g->playout && topk == 0 &&
        g->playout(inst, start, policy, rng, max_len, p->line, &p->length,
                   &whole))
        return whole;
    memcpy(p->a, start, p->state_size);
    ps_value value = 0;
    int len = 0;
    for (;;) {
        if (!p->maximise && (g->is_goal(inst, p->a) || len >= max_len))
            break;
        int n = g->moves(inst, p->a, p->moves, want_gains ? p->gains : NULL);
        if (n == 0) {
            if (p->maximise && g->end_value)
                value += g->end_value(inst, p->a);
            break;
        }
        if (len >= max_len) { /* score games: a broken promise */
            p->too_long = true;
            break;
        }
        int pick;
        if (topk > 0)
            pick = choose_topk(p->gains, n, topk, rng);
        else if (policy)
            pick = policy->choose(inst, p->a, p->moves, p->gains, n, rng);
        else
            pick = (int)ps_rng_below(rng, (uint32_t)n);
        ps_move m = p->moves[pick];
        p->line[len++] = m;
        value += g->apply(inst, p->a, m, p->b);
        unsigned char *t = p->a;
        p->a = p->b;
        p->b = t;
    }
    p->length = len;
    return value;
}

ps_value ps_playout_uniform(struct ps_playout *p, const void *start,
                            struct ps_rng *rng, int max_len)
{
    return playout(p, start, rng, max_len, NULL, 0);
}

ps_value ps_playout_run(struct ps_playout *p, const void *start,
                        struct ps_rng *rng, int max_len)
{
    return playout(p, start, rng, max_len, p->policy, p->topk);
}

/* ---- policy names ---- */

static const struct ps_policy *find_policy(const struct ps_game *g,
                                           const char *name, int topk,
                                           int *topk_out, bool *ok)
{
    *ok = true;
    *topk_out = 0;
    if (!name) {
        if (topk > 0) {
            *topk_out = topk;
            return NULL;
        }
        return g->policies && g->policies[0].name ? &g->policies[0] : NULL;
    }
    if (strcmp(name, "uniform") == 0)
        return NULL;
    if (strcmp(name, "topk") == 0) {
        *topk_out = topk > 0 ? topk : TOPK_DEFAULT;
        return NULL;
    }
    for (const struct ps_policy *q = g->policies; q && q->name; q++)
        if (strcmp(q->name, name) == 0)
            return q;
    *ok = false;
    return NULL;
}

static bool unknown_policy(const struct ps_game *g, const char *name,
                           struct ps_error *err)
{
    char known[256] = "uniform, topk";
    for (const struct ps_policy *q = g->policies; q && q->name; q++) {
        strncat(known, ", ", sizeof known - strlen(known) - 1);
        strncat(known, q->name, sizeof known - strlen(known) - 1);
    }
    return ps_error_set(err, NULL, 0, 0,
                        "unknown playout policy '%s' for game %s (known: %s)",
                        name, g->name, known);
}

bool ps_policy_check(const struct ps_game *g, const char *name,
                     struct ps_error *err)
{
    bool ok;
    int k;
    find_policy(g, name, 0, &k, &ok);
    return ok || unknown_policy(g, name, err);
}

const struct ps_policy *ps_policy_named(const struct ps_game *g,
                                        const char *name, int topk)
{
    bool ok;
    int k;
    return find_policy(g, name, topk, &k, &ok);
}

bool ps_playout_set_policy(struct ps_playout *p, const char *name, int topk,
                           struct ps_error *err)
{
    bool ok;
    p->policy = find_policy(p->game, name, topk, &p->topk, &ok);
    return ok || unknown_policy(p->game, name, err);
}

const char *ps_playout_policy_name(const struct ps_playout *p)
{
    if (p->policy)
        return p->policy->name;
    return p->topk > 0 ? "topk" : "uniform";
}

/* The playout options mc, nmcs, nrpa and beam share (options.h). */
const struct ps_option ps_playout_options[] = {
    {.name = "policy",
     .type = PS_OPT_STRING,
     .offset = offsetof(struct ps_options, policy),
     .arg = "NAME",
     .def = "the game's",
     .doc = "playout policy (psolve list shows the games' policies)"},
    {.name = "topk",
     .type = PS_OPT_INT,
     .offset = offsetof(struct ps_options, topk),
     .min = 0,
     .max = 1e9,
     .arg = "K",
     .def = "0 = all",
     .doc = "playouts choose among the K moves of largest gain"},
    {0},
};
