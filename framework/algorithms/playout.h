/*
 * playout.h - random playouts through the vtable, with the playout policies
 * (uniform, top-k, the game's own). A playout is the unit of work of mc,
 * nmcs, nrpa and beam, and of `psolve bench`. The threads that run them are
 * in worker.h.
 */
#ifndef PS_PLAYOUT_H
#define PS_PLAYOUT_H

#include "game.h"
#include "search.h"

/* policy and topk: the options of every algorithm that plays out. */
extern const struct ps_option ps_playout_options[];

/* Scratch space for playouts on one instance; one per thread. */
struct ps_playout {
    const struct ps_game *game;
    const void *inst;
    size_t state_size;
    bool maximise;
    ps_move *moves;      /* max_moves */
    ps_value *gains;     /* max_moves */
    ps_move *line;       /* max_depth: the moves of the last playout */
    unsigned char *a, *b;/* two states */
    int length;          /* moves played by the last playout */
    /* The last playout of a score game stopped at max_len with moves
     * left: the game broke its max_depth() promise (ps_search_line_fits). */
    bool too_long;
    /* The policy of ps_playout_run: a game's policy, or NULL with topk == 0
     * for uniform, or NULL with topk > 0 for "uniform among the k moves with
     * the largest immediate gain". Set by ps_playout_set_policy. */
    const struct ps_policy *policy;
    int topk;
};

bool ps_playout_init(struct ps_playout *p, const struct ps_game *g,
                     const void *inst);
void ps_playout_free(struct ps_playout *p);
/* The bytes ps_playout_init allocates for (g, inst): what a thread's
 * playout scratch counts against --max-memory. */
uint64_t ps_playout_bytes(const struct ps_game *g, const void *inst);

/* Play uniformly random legal moves from `start` until none is left (score
 * games) or the goal or `max_len` moves (cost games). max_len: 0 =
 * max_depth, negative = no move (a line that already fills max_depth); a
 * score game that reaches it with moves left sets too_long. Returns the
 * value of the line: gains + end value, or summed costs. */
ps_value ps_playout_uniform(struct ps_playout *p, const void *start,
                            struct ps_rng *rng, int max_len);

/* The same with the policy chosen by ps_playout_set_policy; the moves played
 * are left in p->line[0..p->length). Both let the game's playout slot play
 * the whole playout when it has one and takes it (not for topk). */
ps_value ps_playout_run(struct ps_playout *p, const void *start,
                        struct ps_rng *rng, int max_len);

/* Select the playout policy by name ("uniform", "topk", or one of the game's
 * policies; NULL = "topk" when topk > 0, else the game's first policy, else
 * uniform). False with err (listing the names) for an unknown name. */
bool ps_playout_set_policy(struct ps_playout *p, const char *name, int topk,
                           struct ps_error *err);
/* The game policy that name/topk select as ps_playout_set_policy would, or
 * NULL (uniform, topk or an unknown name). */
const struct ps_policy *ps_policy_named(const struct ps_game *g,
                                        const char *name, int topk);
/* The name of the selected policy, for notes. */
const char *ps_playout_policy_name(const struct ps_playout *p);
/* Check a --policy name for game g before a run (the command line does). */
bool ps_policy_check(const struct ps_game *g, const char *name,
                     struct ps_error *err);

#endif
