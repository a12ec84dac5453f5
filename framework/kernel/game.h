/*
 * game.h - the game vtable: everything a search algorithm may ask of a puzzle.
 *
 * A game plug-in is one `const struct ps_game` (the sgt-puzzles shape). The
 * kernel never names a game; it only calls through this struct.
 *
 * Objects:
 *   instance - one loaded puzzle (board, dimensions, rules, hash keys). Opaque
 *              to the kernel, created by load(), freed by free_instance().
 *   state    - a flat, fixed-size blob of state_size(instance) bytes. States
 *              are canonical: equal positions have equal bytes (padding and
 *              unused cells zeroed), unless the game supplies equal()/hash()
 *              that canonicalise further (water sort treats tubes as a
 *              multiset).
 *   move     - a 32-bit value defined by the game. Cheap to copy; never
 *              allocated.
 *
 * Objectives (see docs/architecture.md):
 *   PS_MAXIMISE  score games: value = sum of move gains + end_value(terminal).
 *                A state with no legal move is terminal.
 *   otherwise    cost games: value = sum of move costs to reach a state where
 *                is_goal() holds; apply() returns the move's cost (>= 0).
 */
#ifndef PS_GAME_H
#define PS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "rng.h"

typedef uint32_t ps_move;
typedef int64_t ps_value;

/* Capability flags, in ps_game.flags (or returned by ps_game.instance_flags). */
enum {
    PS_MAXIMISE = 1u << 0,      /* score game (else cost game) */
    PS_HAS_HEURISTIC = 1u << 1, /* heuristic() is an admissible lower bound */
    PS_HAS_BOUND = 1u << 2,     /* upper_bound() bounds the remaining score */
};

/* A named number about a final state, printed as "# key: value". */
struct ps_fact {
    const char *key;
    int64_t value;
};

/* ---- Rules: a game's rules are a plain C struct described by a schema ----
 * The schema lets rule presets and Lua scripts fill the struct without the
 * framework knowing the game. */
enum ps_param_type {
    PS_PARAM_INT,   /* int64_t */
    PS_PARAM_BOOL,  /* bool */
    PS_PARAM_ENUM,  /* int, index into `choices` */
    PS_PARAM_TABLE, /* int64_t[table_len], indexed by a size or a count */
};

struct ps_param {
    const char *key;
    enum ps_param_type type;
    size_t offset;               /* offsetof(rules struct, field) */
    int64_t min, max;            /* INT range, and TABLE value range */
    const char *const *choices;  /* ENUM: NULL-terminated names */
    int table_len;               /* TABLE: number of entries */
    const char *doc;
};

struct ps_preset {
    const char *name;
    const char *doc;
    void (*apply)(void *rules); /* from the defaults */
};

/* Options for `psolve gen`; a game reads what it needs (0 = its default). */
struct ps_gen_options {
    int rows, cols, colors, tubes, capacity;
    uint64_t seed;
};

/* A playout policy a game offers to the Monte Carlo algorithms (--policy).
 * The kernel adds the generic ones itself ("uniform", "topk"). */
struct ps_policy {
    const char *name;
    const char *doc;
    bool wants_gains; /* choose() reads gains[] (moves() then fills them) */
    /* Return the index in [0, n) of the move to play in `state`; moves[] (and
     * gains[] when wanted) are as moves() filled them, n > 0. Must use only
     * `rng` for randomness, so that a seeded run repeats. */
    int (*choose)(const void *inst, const void *state, const ps_move *moves,
                  const ps_value *gains, int n, struct ps_rng *rng);
    /* Optional: the same knowledge as log-weights (0 = neutral, negative =
     * less likely), for algorithms that sample from a learned softmax
     * (nrpa adds them to its weights: a prior, "generalised NRPA"). */
    void (*bias)(const void *inst, const void *state, const ps_move *moves,
                 int n, double *out);
};

struct ps_game {
    const char *name;
    const char *summary;
    unsigned flags; /* PS_* capabilities common to every instance */

    /* --- rules --- */
    size_t rules_size;
    void (*rules_default)(void *rules);
    const struct ps_param *params;   /* terminated by key == NULL */
    const struct ps_preset *presets; /* terminated by name == NULL */
    /* Cross-field checks after a preset or script filled the struct. */
    bool (*rules_check)(const void *rules, struct ps_error *err);

    /* --- instances --- */
    /* Parse `text` (len bytes, from file `path`, for messages). */
    void *(*load)(const void *rules, const char *path, const char *text,
                  size_t len, struct ps_error *err);
    void (*free_instance)(void *inst);
    /* Per-instance flags may add to `flags` (e.g. a rule sets the objective). */
    unsigned (*instance_flags)(const void *inst);
    size_t (*state_size)(const void *inst);
    void (*initial_state)(const void *inst, void *state);
    /* Upper bound on the number of moves in any state (array sizes). */
    int (*max_moves)(const void *inst);
    /* Upper bound on the length of any game (path arrays). */
    int (*max_depth)(const void *inst);

    /* --- the hot loop --- */
    uint64_t (*hash)(const void *inst, const void *state);
    /* NULL means memcmp over state_size bytes. */
    bool (*equal)(const void *inst, const void *a, const void *b);
    /* Fill moves[] (and gains[] if not NULL: the value apply() would return)
     * and return how many. Order is the game's preferred order. */
    int (*moves)(const void *inst, const void *state, ps_move *moves,
                 ps_value *gains);
    /* Write the successor to `out` (never aliasing `state`); return the gain
     * (score games) or cost (cost games) of the move. */
    ps_value (*apply)(const void *inst, const void *state, ps_move move,
                      void *out);
    bool (*is_goal)(const void *inst, const void *state);        /* cost */
    ps_value (*end_value)(const void *inst, const void *state);  /* score */
    ps_value (*heuristic)(const void *inst, const void *state);  /* cost */
    ps_value (*upper_bound)(const void *inst, const void *state);/* score */
    /* Optional. Is `move` legal in `state` by the rules? Needed when moves()
     * prunes: it may skip legal moves that a search never needs (a pour that
     * only permutes tubes), but a user's solution may still play them, and
     * verify must accept them. NULL = legal iff moves() lists it. */
    bool (*legal)(const void *inst, const void *state, ps_move move);
    /* Optional, for tree searches (IDA*, DFS) that see each path: may
     * `second`, a move of `after` = apply(before, first), be skipped right
     * after `first`? Only when playing `second` first from `before`, then
     * `first`, is also searched and reaches the same position at the same
     * cost (the two moves commute), and the game orders each such pair one
     * way only, so one of the two orders always survives. */
    bool (*redundant_after)(const void *inst, const void *before,
                            ps_move first, const void *after, ps_move second);
    /* Optional. Can the instance be solved at all, judged without search
     * (counts, sizes)? False = proven unsolvable: `why` (len bytes) says
     * which part fails and why. The driver asks before every search. */
    bool (*check)(const void *inst, char *why, size_t len);

    /* --- text forms (round-trip) --- */
    void (*print_state)(const void *inst, const void *state, FILE *out,
                        bool ansi);
    /* "row col" / "from to": readable back by parse_move on the same state. */
    void (*format_move)(const void *inst, const void *state, ps_move move,
                        char *buf, size_t len);
    /* Parse text into a legal move of `state`; on failure fill err->msg. */
    bool (*parse_move)(const void *inst, const void *state, const char *text,
                       ps_move *move, struct ps_error *err);
    /* Optional comment for a move in a printed solution ("group 12"). */
    void (*describe_move)(const void *inst, const void *state, ps_move move,
                          char *buf, size_t len);
    /* Facts about a final state: cells left, cleared, ... */
    int (*facts)(const void *inst, const void *state, struct ps_fact *out,
                 int max);

    /* --- Monte Carlo knowledge (all optional) --- */
    /* Playout policies, terminated by name == NULL; the first is the game's
     * default for nmcs and nrpa. NULL: only the kernel's generic ones. */
    const struct ps_policy *policies;
    /* NRPA move codes: codes[i] for moves[i] of `state`, each below
     * move_code_space(inst). A code names "the same move" across the states
     * of different playouts, so the policy can be a flat array of weights.
     * Without them nrpa hashes the raw move value. */
    void (*move_codes)(const void *inst, const void *state,
                       const ps_move *moves, int n, uint32_t *codes);
    uint32_t (*move_code_space)(const void *inst);
    /* beam: how promising a state is for ranking (higher = better), added to
     * the score so far. NULL: the score so far alone. */
    ps_value (*evaluate)(const void *inst, const void *state);

    /* --- generation and benchmarking --- */
    /* Write a new instance in the file format to `out`. */
    bool (*generate)(const struct ps_gen_options *opt, FILE *out,
                     struct ps_error *err);
    const struct ps_gen_options *bench_sizes; /* terminated by rows == 0 */
};

/* The registry (games/games.def lists every game once). */
const struct ps_game *ps_game_find(const char *name);
const struct ps_game *const *ps_game_list(void); /* NULL-terminated */

/* Helpers over the vtable, so callers need not test optional slots. */
unsigned ps_game_flags(const struct ps_game *g, const void *inst);
bool ps_game_equal(const struct ps_game *g, const void *inst, const void *a,
                   const void *b);

/* Rules: fill `rules` with the defaults then the named preset (NULL = none).
 * Returns false and fills err for an unknown preset name. */
bool ps_rules_preset(const struct ps_game *g, void *rules, const char *name,
                     struct ps_error *err);

#endif
