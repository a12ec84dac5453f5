/*
 * greedy.c - score games: play the move with the largest immediate gain until
 * the game ends. Ties go to the first move in the game's move order (for
 * SameGame: the group whose first cell, scanning columns left to right and
 * each column bottom up, comes first). Cost games: greedy best-first search
 * on the heuristic h alone (bestfirst.h), which finds a goal fast but with
 * no bound on its cost. A heuristic: it claims nothing about optimality.
 */
#include "greedy.h"

#include <stdlib.h>
#include <string.h>

#include "bestfirst.h"

bool ps_greedy_init(struct ps_greedy *gr, const struct ps_game *g,
                    const void *inst)
{
    size_t ss = g->state_size(inst);
    int max_moves = g->max_moves(inst);
    gr->game = g;
    gr->inst = inst;
    gr->moves = malloc((size_t)max_moves * sizeof *gr->moves);
    gr->gains = malloc((size_t)max_moves * sizeof *gr->gains);
    gr->cur = malloc(ss);
    gr->next = malloc(ss);
    gr->prev = malloc(ss);
    if (gr->moves && gr->gains && gr->cur && gr->next && gr->prev)
        return true;
    ps_greedy_free(gr);
    return false;
}

void ps_greedy_free(struct ps_greedy *gr)
{
    free(gr->moves);
    free(gr->gains);
    free(gr->cur);
    free(gr->next);
    free(gr->prev);
    gr->moves = NULL;
    gr->gains = NULL;
    gr->cur = gr->next = gr->prev = NULL;
}

int ps_greedy_pick(const ps_value *gains, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (gains[i] > gains[best])
            best = i;
    return best;
}

ps_value ps_greedy_play(struct ps_greedy *gr, struct ps_search *s,
                        bool trace, const void *start, ps_move *path,
                        int max_len, int *len, bool *over)
{
    const struct ps_game *g = gr->game;
    memcpy(gr->cur, start, g->state_size(gr->inst));
    ps_value total = 0;
    int depth = 0;
    *over = false;
    while (depth < max_len) {
        if (s && ps_search_stopped(s))
            break;
        int n = g->moves(gr->inst, gr->cur, gr->moves, gr->gains);
        if (s)
            s->stats.expanded++;
        if (n == 0) {
            *over = true;
            break;
        }
        if (s && (s->flags & PS_MAXIMISE) && !ps_search_line_fits(s, depth))
            break;
        int best = ps_greedy_pick(gr->gains, n);
        if (s && trace && ps_search_tracing(s)) {
            /* The state, the move that led to it, its moves and the largest
             * gain (the "key" greedy ranks by). */
            char text[64] = "";
            if (depth > 0)
                g->format_move(gr->inst, gr->prev, path[depth - 1], text,
                               sizeof text);
            ps_search_trace_event(s, &(struct ps_trace_event){
                .kind = PS_TRACE_EXPAND,
                .has = PS_TF_DEPTH | PS_TF_G | PS_TF_KEY | PS_TF_CANDIDATES,
                .depth = depth,
                .g = total,
                .key = (double)gr->gains[best],
                .candidates = (uint64_t)n,
                .move = depth > 0 ? text : NULL,
                .state = gr->cur});
            memcpy(gr->prev, gr->cur, g->state_size(gr->inst));
        }
        total += g->apply(gr->inst, gr->cur, gr->moves[best], gr->next);
        if (s)
            s->stats.generated++;
        path[depth++] = gr->moves[best];
        unsigned char *t = gr->cur;
        gr->cur = gr->next;
        gr->next = t;
    }
    /* A line stopped early is still a legal (partial) game; the end value
     * counts only once the game is over. */
    if (!*over && depth == max_len &&
        g->moves(gr->inst, gr->cur, gr->moves, NULL) == 0)
        *over = true;
    *len = depth;
    if (*over && g->end_value)
        total += g->end_value(gr->inst, gr->cur);
    return total;
}

static enum ps_status greedy_run(struct ps_search *s)
{
    if (!(s->flags & PS_MAXIMISE))
        return ps_bestfirst_run(s, PS_BF_GREEDY, 0);
    const struct ps_game *g = s->game;
    int max_depth = g->max_depth(s->inst);
    struct ps_greedy gr;
    ps_move *path = malloc((size_t)(max_depth + 1) * sizeof *path);
    unsigned char *start = malloc(s->state_size);
    if (!path || !start || !ps_greedy_init(&gr, g, s->inst)) {
        s->stop = PS_STOP_MEMORY;
        free(path);
        free(start);
        return PS_HEURISTIC;
    }
    g->initial_state(s->inst, start);
    int len;
    bool over;
    ps_value value =
        ps_greedy_play(&gr, s, true, start, path, max_depth + 1, &len, &over);
    ps_search_offer(s, path, len, value);
    ps_greedy_free(&gr);
    free(path);
    free(start);
    return PS_HEURISTIC;
}

const struct ps_algorithm ps_algo_greedy = {
    .name = "greedy",
    .summary = "largest gain first; cost games: best-first on h (heuristic)",
    .for_score = true,
    .for_cost = true,
    .uses_heuristic = true,
    .run = greedy_run,
};
