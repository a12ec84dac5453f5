/*
 * cost_beam.h - a quick line for a cost game, for the exact searches that
 * want one before their proof (dfs on cost games): a beam over f = g + h.
 */
#ifndef PS_COST_BEAM_H
#define PS_COST_BEAM_H

#include <stdbool.h>

#include "search.h"

/* How a cost beam ranks its states. */
enum ps_cost_beam_rank {
    /* by g + h (the run's heuristic; 0 without one), then by fewer legal
     * moves */
    PS_COST_BEAM_BY_F,
    /* by g less the game's evaluate() (for a cost game: how much less is
     * left to pay, higher = better; SameGame's fewest clicks: minus the
     * groups left), neither h nor the legal moves computed: a cheaper
     * step, and another beam than f's. Needs the evaluate slot. */
    PS_COST_BEAM_BY_EVALUATION,
    /* by g + h less evaluate() (SameGame's fewest clicks: the groups
     * left + the bound), ties in the order made: the second rank of the
     * narrow beams at the start of dfs's proof (dfs.c, cost_ladder).
     * Needs the evaluate slot. */
    PS_COST_BEAM_BY_EVALUATION_AND_H,
};

/* What cost beams learned of the states they ranked (the game's
 * evaluation, h, the count of legal moves), kept across the beams of one
 * search from one root: beams that grow meet the same states again (dfs's
 * ladder on Former board 08 ranks 11,775 children, 4,337 of them
 * distinct). A fixed number of slots, one state each, found by hash (a
 * state whose hash equals another's gets its values: a worse rank at
 * worst, as the beam's own merging of equal hashes). */
struct ps_cost_beam_memo;
struct ps_cost_beam_memo *ps_cost_beam_memo_new(struct ps_search *s);
void ps_cost_beam_memo_free(struct ps_search *s, struct ps_cost_beam_memo *m);

/* A beam of `width` states per depth from `root`, ranked by `rank`, then
 * in the order made; a state met twice in a depth (equal hashes) is kept
 * once. Goes at most `max_len` moves deep. Offers the cheapest goal it
 * meets (ps_search_offer) and returns true when it met one; its expansions
 * count in s->stats. Stops with the search (limits, Ctrl-C), and after
 * `budget` expansions of its own (a beam that finds no goal, on a game
 * whose moves can undo each other, would walk on to max_len). A
 * heuristic: the line may cost more than the optimum. `memo` (or NULL)
 * spares the ranking of states another beam ranked. The ranks with h make
 * h known only for the children they reach in key order where the game
 * gives floors under its children's costs (child_floors) and the run's
 * heuristic is the game's own: a child is first ranked with its floor for
 * h, and the rank's h is the larger of the two (the same as h where, as on
 * SameGame, h is never below the floor). */
bool ps_cost_beam(struct ps_search *s, const void *root, int width,
                  int max_len, uint64_t budget, enum ps_cost_beam_rank rank,
                  struct ps_cost_beam_memo *memo);

#endif
