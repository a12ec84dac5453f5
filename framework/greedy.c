/*
 * greedy.c - score games: play the move with the largest immediate gain until
 * the game ends. Ties go to the first move in the game's move order (for
 * SameGame: the group whose first cell, scanning columns left to right and
 * each column bottom up, comes first). Cost games: greedy best-first search
 * on the heuristic h alone (bestfirst.h), which finds a goal fast but with
 * no bound on its cost. A heuristic: it claims nothing about optimality.
 */
#include <stdlib.h>

#include "bestfirst.h"
#include "search.h"

static enum ps_status greedy_run(struct ps_search *s)
{
    if (!(s->flags & PS_MAXIMISE))
        return ps_bestfirst_run(s, PS_BF_GREEDY);
    const struct ps_game *g = s->game;
    int max_moves = g->max_moves(s->inst), max_depth = g->max_depth(s->inst);
    ps_move *moves = malloc((size_t)max_moves * sizeof *moves);
    ps_value *gains = malloc((size_t)max_moves * sizeof *gains);
    ps_move *path = malloc((size_t)(max_depth + 1) * sizeof *path);
    unsigned char *cur = malloc(s->state_size), *next = malloc(s->state_size);
    enum ps_status st = PS_HEURISTIC;
    if (!moves || !gains || !path || !cur || !next) {
        s->stop = PS_STOP_MEMORY;
        goto done;
    }
    g->initial_state(s->inst, cur);
    ps_value total = 0;
    int depth = 0;
    bool over = false;
    for (;;) {
        if (ps_search_stopped(s))
            break;
        int n = g->moves(s->inst, cur, moves, gains);
        s->stats.expanded++;
        if (n == 0) {
            over = true;
            break;
        }
        int best = 0;
        for (int i = 1; i < n; i++)
            if (gains[i] > gains[best])
                best = i;
        if (ps_search_tracing(s)) {
            char text[64];
            g->format_move(s->inst, cur, moves[best], text, sizeof text);
            ps_search_trace(s, cur, depth, total, 0, text);
        }
        total += g->apply(s->inst, cur, moves[best], next);
        s->stats.generated++;
        path[depth++] = moves[best];
        unsigned char *t = cur;
        cur = next;
        next = t;
    }
    /* Even when stopped early, the line so far is a legal (partial) game;
     * the end bonus counts only once the game is over. */
    ps_search_offer(s, path, depth, over ? ps_final_value(s, cur, total) : total);
done:
    free(moves);
    free(gains);
    free(path);
    free(cur);
    free(next);
    return st;
}

const struct ps_algorithm ps_algo_greedy = {
    .name = "greedy",
    .summary = "largest gain first; cost games: best-first on h (heuristic)",
    .for_score = true,
    .for_cost = true,
    .run = greedy_run,
};
