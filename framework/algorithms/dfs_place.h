/*
 * dfs_place.h - where dfs's iterative deepening on a cost game stands, for
 * --checkpoint and --resume (checkpoint.h): the round's bound, the least f
 * it has cut so far, and the child each depth of the current path is
 * searching. Every child before those has been searched in full within the
 * bound, so a resumed round skips them and goes on down the path.
 *
 * The table is not saved (it may hold billions of entries): a resumed
 * round starts with an empty one, so it searches again the states the
 * table would have found done (a game rich in transpositions, such as
 * Former, loses most of the saving; docs/checkpoint.md has figures). The
 * answer's cost is the same as the uninterrupted run's; its line and
 * counters may differ.
 */
#ifndef PS_DFS_PLACE_H
#define PS_DFS_PLACE_H

#include "search.h"

struct dfs_place {
    ps_value bound;      /* the round's threshold */
    ps_value next_bound; /* the least f the round has cut (PS_NO_BOUND: none) */
    bool depth_cut;      /* a --max-depth cut happened in the round */
    bool sound;          /* the rounds' bounds are lower bounds (h admissible) */
    int beam_width;      /* the lines' beam schedule (dfs.c, cost_beam_now) */
    uint64_t beam_at;
    uint64_t iterations; /* the rounds counted, the file's one included */
    int len;             /* the depth of the node the round had reached */
    int *at;             /* len: the child (its index among the game's moves)
                          * each depth of the path is searching */
    ps_move *path;       /* len: those children's moves */
};

/* Hand p to the checkpoint (with the search's counters and best line)
 * when a copy is wanted now. */
void dfs_place_save(struct ps_search *s, const struct dfs_place *p);

/* The saved place, when the run resumes: true with *p filled (free it with
 * dfs_place_free). False for a fresh start, or with s->stop set to
 * PS_STOP_ERROR and s->error naming the file when the part does not read
 * back or its path does not replay from `root` through the game's own
 * moves, or when the file's rounds were not sound and this run's are
 * (`sound`: h admissible). */
bool dfs_place_load(struct ps_search *s, const void *root, bool sound,
                    struct dfs_place *p);

void dfs_place_free(struct dfs_place *p);

#endif
