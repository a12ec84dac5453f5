/*
 * variant.h - the runs of one side-by-side table: --algo items with their
 * own options (`astar:h=manhattan`, `dfs:no-memo`, `wastar:w=3`) crossed
 * with --heuristic lists (`--algo astar,idastar --heuristic zero,manhattan`
 * makes four runs). docs/cli.md documents the syntax.
 */
#ifndef PS_VARIANT_H
#define PS_VARIANT_H

#include "search.h"

#define PS_VARIANT_LABEL 48

struct ps_variant {
    const struct ps_algorithm *algo;
    char label[PS_VARIANT_LABEL]; /* "astar", "astar:h=zero", "dfs:no-memo" */
    struct ps_options opt;        /* the common options, the algorithm's own
                                   * (from base's book), then the item's */
};

/* Parse `algos` (a comma list of NAME[:KEY[=VALUE]]...) and `heuristics`
 * (NULL, or a comma list of the game's heuristic names) into at most `max`
 * runs, each starting from `base`, with its algorithm's own options from
 * base->book (its defaults without one). An item without h= that uses a heuristic
 * (uses_heuristic in cost games, uses_bound in score games) is run once per
 * name of a list of two or more, labelled ITEM:h=NAME; with one name it
 * simply uses it. False with err saying what is wrong (an unknown
 * algorithm, key or heuristic, with the choices). Names point into static
 * tables (the game's heuristics, the algorithms), so a variant may be
 * copied freely. `extra` (NULL-terminated, or NULL) lists a front end's
 * own algorithms (psolve-mpi's), looked up before the registry's. */
bool ps_variants_parse(const char *algos, const char *heuristics,
                       const struct ps_game *g,
                       const struct ps_algorithm *const *extra,
                       const struct ps_options *base,
                       struct ps_variant *out, int max, int *n,
                       struct ps_error *err);

#endif
