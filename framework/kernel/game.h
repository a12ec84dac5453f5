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
 *
 * The contract. Each slot below is marked [required], [cost] (required
 * unless `flags` has PS_MAXIMISE), [if FLAG] (required when `flags` has
 * FLAG) or [optional: what NULL means]. ps_game_check() enforces it, and
 * psolve runs it on every game it knows (built in, plug-in or Lua) before
 * using any: a missing slot is an error naming the game and the slot, never
 * a crash in the middle of a search.
 */
#ifndef PS_GAME_H
#define PS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "options.h"
#include "rng.h"

/* The version of this header's contract (struct ps_game and its helpers).
 * A plug-in records the version it was built against (PS_PLUGIN below);
 * psolve refuses a plug-in built for another version. Raised whenever
 * struct ps_game or a helper a game calls changes incompatibly. */
/* 1: the first plug-in contract. 2: the slot state_json; then, without a
 * new number (branches merged while 2 was current), the slots heuristics,
 * move_help, detect, begin_search, end_search, fault and bounded_moves
 * (after upper_bound), struct ps_policy's move_codes and the flag
 * PS_CLEARING. 3: the slot playout, and the struct of 2's last form fixed
 * under a number. 4: the slots abstraction (pattern databases) and
 * gen_options, and struct ps_gen_options holds the values the game's table
 * names. 5: the walk slots, for nrpa, and evaluate_moves. 6: the same
 * slots regrouped by concern (a plug-in built for 5 has them in another
 * order), `check` renamed `solvable`, PS_CLEARING renamed
 * PS_BOUND_OFTEN_MET (the same bit). 7: the slots state_pack and
 * state_unpack (states that travel between processes). 8: the slots
 * eval_weights and evaluate_moves_weighted (beam's --beam-weights). 9:
 * struct ps_param's table_rows and table_row (a table by size and colour,
 * SameGame's score(n, colour)); a params array of 8 has a shorter stride.
 * 10: the slot child_floors (after bounded_moves). 11: the slots key_size
 * and state_key (after equal). */
#define PS_API_VERSION 11
#define PS_MAX_EVAL_WEIGHTS 32

typedef uint32_t ps_move;
typedef int64_t ps_value;

/* The largest magnitude of one value a game returns (a move's cost or gain,
 * a heuristic, an end value, a bound): 2^48, so that the sums a search
 * forms (g + cost, g + h, a line's score) stay far inside int64_t for any
 * line shorter than 2^14 moves of the largest values. A Lua game returning
 * more ends the run with an error naming the function. */
#define PS_VALUE_LIMIT ((ps_value)1 << 48)

/* Capability flags, in ps_game.flags (or returned by ps_game.instance_flags). */
enum {
    PS_MAXIMISE = 1u << 0,      /* score game (else cost game) */
    PS_HAS_HEURISTIC = 1u << 1, /* heuristic() is an admissible lower bound */
    PS_HAS_BOUND = 1u << 2,     /* upper_bound() bounds the remaining score */
    /* The slots of one instance must be called from one thread at a time
     * (a game written in Lua: one interpreter per instance). The Monte
     * Carlo and beam searches then run one thread; --threads N > 1 is
     * refused. Different instances may still run in parallel (lab --jobs). */
    PS_ONE_THREAD = 1u << 3,
    /* A line worth the start's upper bound is common: the bound is often
     * met exactly (an objective of clearing the board, SameGame's clear
     * and fewest_left: a cleared board is worth the bound). A short exact
     * search then often finds such a line, and proves it best, at once, so
     * beam runs dfs briefly first (--beam-dfs) and caps the candidates of
     * a depth (docs/algorithms.md, beam). Needs PS_MAXIMISE and a bound to
     * matter. */
    PS_BOUND_OFTEN_MET = 1u << 4,
};

/* What fault() reports (games whose slots can fail: scripts). */
enum ps_fault {
    PS_FAULT_NONE,
    PS_FAULT_ERROR,     /* a slot failed: a bug in the script */
    PS_FAULT_TIME,      /* a slot was stopped at the search's deadline */
    PS_FAULT_INTERRUPT, /* a slot was stopped by Ctrl-C */
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
    PS_PARAM_TABLE, /* int64_t[table_len], indexed by a size or a count;
                     * with table_rows > 1, one such table per row */
};

/* At most this many parameters per game (the Lua reader's key list). */
#define PS_MAX_PARAMS 60

struct ps_param {
    const char *key;             /* [required] a Lua identifier, unique */
    enum ps_param_type type;
    size_t offset;               /* offsetof(rules struct, field): the field
                                  * lies inside rules_size, aligned for its
                                  * type */
    int64_t min, max;            /* INT range, and TABLE value range; min <= max */
    const char *const *choices;  /* ENUM: [required] NULL-terminated names,
                                  * at least one */
    int table_len;               /* TABLE: number of entries, >= 1 */
    const char *doc;             /* [optional] one line for docs and errors */
    /* Appended (older tables leave them 0). TABLE with table_rows > 1:
     * int64_t[table_rows][table_len], row k (1..table_rows) first at
     * (k - 1) * table_len: a table by size *and* by what table_row names
     * (SameGame's colour). A Lua function of two parameters fills row k
     * with f(n, k); a function of n alone or a Lua table fills every row
     * alike. */
    int table_rows;
    const char *table_row; /* the second parameter's name, for messages */
};

/* How many tables a TABLE parameter holds: 1 unless it has rows. */
static inline int ps_param_rows(const struct ps_param *p)
{
    return p->table_rows > 1 ? p->table_rows : 1;
}

struct ps_preset {
    const char *name;           /* [required] */
    const char *doc;            /* [required] one line, for psolve list */
    void (*apply)(void *rules); /* [required] from the defaults */
};

/* `psolve gen`'s parameters. The kernel names none of them: a game declares
 * its own in gen_options (a table of struct ps_option, options.h), each
 * entry an INT over one value[] slot (offset PS_GEN_VALUE(k)); --NAME V on
 * the command line fills that slot, range-checked. 0 = not given (the
 * game's default). */
#define PS_MAX_GEN_OPTIONS 8
struct ps_gen_options {
    int value[PS_MAX_GEN_OPTIONS];
    uint64_t seed;
};
#define PS_GEN_VALUE(k) \
    (offsetof(struct ps_gen_options, value) + (size_t)(k) * sizeof(int))

/* A playout policy a game offers to the Monte Carlo algorithms (--policy).
 * The kernel adds the generic ones itself ("uniform", "topk"). */
struct ps_policy {
    const char *name; /* [required] */
    const char *doc;  /* [required] */
    bool wants_gains; /* choose() reads gains[] (moves() then fills them) */
    /* Return the index in [0, n) of the move to play in `state`; moves[] (and
     * gains[] when wanted) are as moves() filled them, n > 0. Must use only
     * `rng` for randomness, so that a seeded run repeats. [required] */
    int (*choose)(const void *inst, const void *state, const ps_move *moves,
                  const ps_value *gains, int n, struct ps_rng *rng);
    /* Optional: the same knowledge as log-weights (0 = neutral, negative =
     * less likely), for algorithms that sample from a learned softmax
     * (nrpa adds them to its weights: a prior, "generalised NRPA").
     * NULL: no prior. */
    void (*bias)(const void *inst, const void *state, const ps_move *moves,
                 int n, double *out);
    /* Optional, both or neither: nrpa's move codes under this policy, in
     * place of the game's move_codes/move_code_space (a policy can name
     * moves more finely than the game's default). */
    void (*move_codes)(const void *inst, const void *state,
                       const ps_move *moves, int n, uint32_t *codes);
    uint32_t (*move_code_space)(const void *inst);
};

/* A named heuristic (cost games: an estimate of the cost still to pay) or
 * bound (score games: an estimate of the score still to gain), chosen with
 * --heuristic NAME (docs/cli.md), as pyperplan and Fast Downward keep their
 * heuristics apart from the task. */
struct ps_heuristic {
    const char *name; /* [required] letters, digits, '_', '-'; unique */
    const char *doc;  /* [required] one line, for psolve list */
    /* Cost games: never above the true remaining cost (A*, IDA* and dfs stay
     * exact). Score games: never below the best remaining score (dfs may
     * prune with it and stay exact). An exact algorithm run with an entry
     * not marked admissible reports its answer as heuristic. */
    bool admissible;
    ps_value (*fn)(const void *inst, const void *state); /* [required] */
};

/* One weight of a game's weighted evaluation (the eval_weights slot), set
 * with beam's --beam-weights NAME=V,... */
struct ps_eval_weight {
    const char *name; /* [required] letters, digits, '_'; unique */
    double def;       /* the game's default */
    const char *doc;  /* [required] one line */
};

/* ---- Pattern databases (since API version 4; docs/writing-a-game.md) ----
 * A game that can project its states onto patterns (a subset of the tiles,
 * of the colours, ...) describes each pattern's abstract space; the kernel
 * (pdb.h) builds a table of abstract distances to the goal by breadth-first
 * search over it and offers the tables as heuristics named "pdb:...". */
#define PS_PDB_MAX_PATTERNS 8
#define PS_PDB_MAX_LOOKUPS 4
#define PS_PDB_MAX_NEIGHBOURS 64

/* One named heuristic made of pattern databases ("pdb:6-6-3"). */
struct ps_pattern_set {
    const char *name; /* [required] "pdb:" + letters, digits, '_', '-'; unique */
    const char *doc;  /* [required] one line, for psolve list */
    int patterns;     /* 1..PS_PDB_MAX_PATTERNS tables */
    /* 1..PS_PDB_MAX_LOOKUPS ways to read the tables: lookup 0 reads the
     * state itself, lookup l > 0 an image of it under a symmetry of the
     * game that keeps the distance to the goal (a reflection); h is the
     * largest of the lookups. */
    int lookups;
    /* true: h of a lookup is the sum over the patterns, which is admissible
     * when every move is counted (predecessors' counted[]) by at most one
     * pattern: disjoint patterns. false: the largest. */
    bool additive;
};

/* The abstract space of one pattern. Abstract states are ranked
 * 0..size-1 (a perfect hash); the `group` ranks r with the same r / group
 * share one table entry, the smallest distance among them (the positions
 * of a pattern's tiles, for every cell the blank may be on). */
struct ps_pattern_space {
    uint64_t size;  /* > 0, a multiple of group */
    uint64_t group; /* >= 1 */
    /* Names the space, for sharing a table between instances and for the
     * disk cache: two spaces with the same game and key are the same. */
    char key[160];
};

struct ps_abstraction {
    /* [required] The sets offered, terminated by name == NULL. */
    const struct ps_pattern_set *sets;
    /* [required] Describe pattern p of `set` for this instance; false with
     * err when the instance has none (a board of another size). */
    bool (*space)(const void *inst, const struct ps_pattern_set *set, int p,
                  struct ps_pattern_space *out, struct ps_error *err);
    /* [required] The ranks of the abstract goal states into ranks[] (at
     * most max); their number, >= 1. */
    int (*goals)(const void *inst, const struct ps_pattern_set *set, int p,
                 uint64_t *ranks, int max);
    /* [required] The abstract states one move away from `rank` towards it:
     * predecessors (for a game whose moves can be undone, its neighbours).
     * counted[i] is 1 when that move costs 1 in this pattern, 0 when it is
     * free (a move of a tile outside the pattern, in an additive set). At
     * most PS_PDB_MAX_NEIGHBOURS; returns how many. Every move of the game
     * costs at least what its abstract move counts, so table values are
     * lower bounds. */
    int (*predecessors)(const void *inst, const struct ps_pattern_set *set,
                        int p, uint64_t rank, uint64_t *ranks,
                        unsigned char *counted);
    /* [required] The table entries of `state`: out[l * set->patterns + p] is
     * the rank / group of the abstraction of lookup l's image of `state` for
     * pattern p. */
    void (*entries)(const void *inst, const struct ps_pattern_set *set,
                    const void *state, uint64_t *out);
    /* [optional: NULL = entries() on the child] After `move` took `before`
     * to `after`, update out[] (entries of `before`) to those of `after`,
     * recomputing only the patterns the move touches (IDA* calls it per
     * node). */
    void (*update_entries)(const void *inst, const struct ps_pattern_set *set,
                           const void *before, ps_move move, const void *after,
                           uint64_t *out);
};

/* The slots, grouped by concern. Each group opens with a heading; inside a
 * group each slot says [required], [cost], [if FLAG] or [optional: what NULL
 * means], and a knowledge slot says which algorithm reads it.
 *
 *   1. The game and its instances: name, flags, rules, loading, sizes, and
 *      the instances made or recognised without a search (gen, detect).
 *   2. Moves and states: the hot loop every algorithm runs (hash, moves,
 *      apply, the objective), and the bracket around a search for games
 *      whose slots can fail.
 *   3. Search knowledge: what a game knows beyond its rules, all optional,
 *      one path per kind of knowledge:
 *        what is left to pay or gain    heuristic / upper_bound (the
 *                                       default), heuristics (by name),
 *                                       abstraction (pdb:, built by pdb.c)
 *                                       - every algorithm reads the one the
 *                                       driver chose, as ps_search_h()
 *        bounds of the children         bounded_moves, child_floors (dfs)
 *        how promising a position is    evaluate, evaluate_moves (beam)
 *        how to play on at random       policies, playout (mc, nmcs, nrpa,
 *                                       beam's playouts, bench)
 *        what nrpa learns on            move_codes + move_code_space, the
 *                                       walk slots (nrpa)
 *   4. Presentation: text forms that round-trip, comments, facts, drawing.
 */
struct ps_game {
    /* ==== 1. The game and its instances ==== */
    /* [required] the --game name: letters, digits, '_', '-'; unique. */
    const char *name;
    const char *summary; /* [required] one line, for psolve list */
    unsigned flags; /* PS_* capabilities common to every instance */
    /* [optional: NULL = `flags` alone] Per-instance flags added to `flags`
     * (e.g. a rule sets the objective). A bit it adds needs its slots too:
     * PS_MAXIMISE end_value (or none), PS_HAS_HEURISTIC heuristic,
     * PS_HAS_BOUND upper_bound. */
    unsigned (*instance_flags)(const void *inst);

    /* --- rules: a plain C struct the schema describes (all optional) --- */
    /* Size of the game's rules struct; 0 = the game has no rules. */
    size_t rules_size;
    /* [optional: NULL = all fields zero] Fill the defaults into a zeroed
     * struct. */
    void (*rules_default)(void *rules);
    /* [optional: NULL = no parameter] terminated by key == NULL; needs
     * rules_size > 0. */
    const struct ps_param *params;
    /* [optional: NULL = no preset] terminated by name == NULL. */
    const struct ps_preset *presets;
    /* [optional: NULL = any filled struct is valid] Cross-field checks after
     * a preset or script filled the struct. */
    bool (*rules_check)(const void *rules, struct ps_error *err);

    /* --- instances --- */
    /* [required] Parse `text` (len bytes, from file `path`, for messages). */
    void *(*load)(const void *rules, const char *path, const char *text,
                  size_t len, struct ps_error *err);
    void (*free_instance)(void *inst); /* [required] */
    size_t (*state_size)(const void *inst);               /* [required] */
    void (*initial_state)(const void *inst, void *state); /* [required] */
    /* [required] Upper bound on the number of moves in any state (array
     * sizes). */
    int (*max_moves)(const void *inst);
    /* [required] Upper bound on the length of any game (path arrays). Score
     * games end by themselves, so this is a true bound. Cost games may cycle:
     * this is the longest solution worth looking for (greedy and the Monte
     * Carlo playouts stop there; bfs, A*, IDA* and dfs are not limited by it). */
    int (*max_depth)(const void *inst);
    /* [optional: NULL = never picked from a file] Does this text (a puzzle
     * file) say it is this game's format? Only formats that say so (a
     * keyword, a shape no other game reads), so that psolve can pick the
     * game when --game is not given; must not claim other games' files. */
    bool (*detect)(const char *text, size_t len);

    /* --- new instances: psolve gen and psolve bench --- */
    /* [optional: NULL = psolve gen refuses] Write a new instance in the file
     * format to `out`. */
    bool (*generate)(const struct ps_gen_options *opt, FILE *out,
                     struct ps_error *err);
    /* [optional: NULL = gen takes no parameter; needs generate] gen's
     * --NAME V options (and bench's one size), terminated by name == NULL:
     * at most PS_MAX_GEN_OPTIONS INT entries, entry k over PS_GEN_VALUE(k),
     * min >= 1. generate() reads opt->value[k]. */
    const struct ps_option *gen_options;
    /* [optional: NULL = psolve bench has no sizes] terminated by
     * value[0] == 0; needs generate. */
    const struct ps_gen_options *bench_sizes;

    /* ==== 2. Moves and states: the hot loop ==== */
    /* [required] Equal states (by equal(), or by bytes) hash equal. */
    uint64_t (*hash)(const void *inst, const void *state);
    /* [optional: NULL = memcmp over state_size bytes] */
    bool (*equal)(const void *inst, const void *a, const void *b);
    /* [optional, together: NULL = tables keep whole states] A state's key:
     * key_size(inst) bytes (0: this instance has none) that two states
     * share exactly when they are equal, compared by memcmp. dfs's table
     * keeps keys instead of states, so a key smaller than the state holds
     * more states in the same --max-memory (SameGame: 3 bits a cell).
     * Tables that give states back (A*, bfs) keep whole states. Use
     * ps_game_key_size. */
    size_t (*key_size)(const void *inst);
    void (*state_key)(const void *inst, const void *state, void *key);
    /* [required] Fill moves[] (and gains[] if not NULL: the value apply()
     * would return) and return how many. Order is the game's preferred
     * order. */
    int (*moves)(const void *inst, const void *state, ps_move *moves,
                 ps_value *gains);
    /* [required] Write the successor to `out` (never aliasing `state`);
     * return the gain (score games) or cost (cost games) of the move. */
    ps_value (*apply)(const void *inst, const void *state, ps_move move,
                      void *out);
    /* [cost] Is the state solved? */
    bool (*is_goal)(const void *inst, const void *state);
    /* Score games [optional: NULL = 0]: the value added at a state with no
     * move left (a bonus, or a penalty for what remains). */
    ps_value (*end_value)(const void *inst, const void *state);
    /* [optional: NULL = legal iff moves() lists it] Is `move` legal in
     * `state` by the rules? Needed when moves() prunes: it may skip legal
     * moves that a search never needs (a pour that only permutes tubes),
     * but a user's solution may still play them, and verify must accept
     * them. */
    bool (*legal)(const void *inst, const void *state, ps_move move);
    /* [optional: NULL = never skip] For tree searches that see each path
     * (idastar reads it): may `second`, a move of `after` =
     * apply(before, first), be skipped right after `first`? Only when
     * playing `second` first from `before`, then `first`, is also searched
     * and reaches the same position at the same cost (the two moves
     * commute), and the game orders each such pair one way only, so one of
     * the two orders always survives. */
    bool (*redundant_after)(const void *inst, const void *before,
                            ps_move first, const void *after, ps_move second);
    /* [optional: NULL = assume it can] Can the instance be solved at all,
     * judged without search (counts, sizes, parity)? False = proven
     * unsolvable: `why` (len bytes) says which part fails and why. The
     * driver asks before every search (and then runs none). */
    bool (*solvable)(const void *inst, char *why, size_t len);

    /* --- games whose slots can fail (a script; all optional) --- */
    /* The driver brackets every search: begin_search with the monotonic
     * time (ps_now) at which the search must end (0 = no time limit), so
     * that a slot stuck in a loop stops there; end_search after it, so that
     * the best line can be replayed and printed. They come together. */
    void (*begin_search)(const void *inst, double deadline);
    void (*end_search)(const void *inst);
    /* Has a slot failed since the last begin_search (or load)? A slot that
     * fails returns a harmless value (no move, cost 0, not a goal) and
     * fault() then says why, with err naming the script's file:line. The
     * driver stops the search and reports the error (PS_FAULT_ERROR) or
     * the limit. err may be NULL. May be called from another thread than
     * the failing slot.
     * NULL: slots never fail. */
    enum ps_fault (*fault)(const void *inst, struct ps_error *err);

    /* --- states that travel (since API version 7) --- */
    /* [optional, both or none: NULL = a state's state_size bytes are the
     * state, in any process] For a game whose state bytes mean something
     * only in the process that made them (a Lua game's are ids into its
     * interpreter), the state as bytes another process of the same
     * program, with the same instance loaded, can read (psolve-mpi sends
     * states between ranks so). state_pack writes at most `cap` bytes to
     * buf and returns the length the state needs (more than cap: nothing
     * usable was written, call again with that much room), 0 when it
     * cannot be packed (the fault slot says why). state_unpack rebuilds
     * the state from len bytes into `state`; false when they are not one
     * (the fault slot says why). Its hash must then be the same in every
     * process too. Use ps_game_state_pack/_unpack. */
    size_t (*state_pack)(const void *inst, const void *state, void *buf,
                         size_t cap);
    bool (*state_unpack)(const void *inst, const void *buf, size_t len,
                         void *state);

    /* ==== 3. Search knowledge (all optional) ==== */
    /* --- what is left: the estimate the driver picks for a run ---
     * Without --heuristic the run reads `heuristic` (cost games) or
     * `upper_bound` (score games); --heuristic NAME picks an entry of
     * `heuristics` or a "pdb:" set of `abstraction` instead. Algorithms
     * never read these slots themselves: they call ps_search_h() (search.h)
     * and get the one chosen. */
    /* [if PS_HAS_HEURISTIC] an estimate of the cost still to pay; the
     * flag promises it is admissible (a lower bound). NULL = 0 (A* runs as
     * uniform cost). The exact searches (astar, idastar, dfs, wastar with
     * w <= 1) use it only with the flag; greedy and wastar whenever it is
     * set, so an inadmissible one may be set without the flag. */
    ps_value (*heuristic)(const void *inst, const void *state);
    /* [if PS_HAS_BOUND] an upper bound on the score still to gain (dfs
     * prunes with it; the driver proves a line worth the start's bound
     * best). Without the flag it is not called: no pruning. */
    ps_value (*upper_bound)(const void *inst, const void *state);
    /* [optional: NULL = only the heuristic/upper_bound slot] The heuristics
     * (cost games) or bounds (score games) a user may pick with --heuristic,
     * terminated by name == NULL. Without --heuristic the `heuristic` (cost)
     * or `upper_bound` (score) slot above is used; list it here too to give
     * it a name in reports. */
    const struct ps_heuristic *heuristics;
    /* [optional: NULL = no "pdb:" heuristics] The game's abstractions, for
     * the pattern databases the kernel builds (pdb.h, docs/pdb.md). */
    const struct ps_abstraction *abstraction;

    /* --- the children's bounds (dfs) --- */
    /* [optional, with PS_HAS_BOUND: NULL = dfs makes each child to bound
     * it] moves() that also fills child_bounds[i] =
     * upper_bound(apply(state, moves[i])), exactly, without making the
     * children: dfs orders and cuts them by it, and makes only the ones it
     * searches (only when the run's bound is the game's upper_bound). */
    int (*bounded_moves)(const void *inst, const void *state, ps_move *moves,
                         ps_value *gains, ps_value *child_bounds);
    /* [optional, cost games: NULL = dfs makes each child to cut it]
     * floor[i] = a lower bound on the cost from apply(state, moves[i]) to a
     * goal (never above it, whatever the heuristic says: a floor that
     * overestimates makes dfs's answers wrong), for moves of `state` as
     * moves() lists them, without making the children, each in 0..2^48:
     * dfs's cost mode cuts a child whose g + cost + floor passes the
     * round's threshold before making it (only when the run's heuristic is
     * the game's own). Worth it when it is cheaper than apply + heuristic
     * per child and often above h of the state minus the move's cost. */
    void (*child_floors)(const void *inst, const void *state,
                         const ps_move *moves, int n, ps_value *floor);

    /* --- how promising a position is (beam; dfs's cost beams) --- */
    /* [optional: NULL = the score so far alone] How promising a state is for
     * ranking (higher = better), added to the score so far. On a cost game
     * the score so far is minus the cost paid: evaluate() says how much
     * less is left to pay, in any units that rank well (SameGame's fewest
     * clicks: minus the groups left), and dfs's cost beams run once ranked
     * by it besides by g + h (cost_beam.h). Never read as a bound. */
    ps_value (*evaluate)(const void *inst, const void *state);
    /* [optional: NULL = apply() and evaluate() per child] out[i] =
     * evaluate() of the child of `state` after moves[i], for moves of
     * `state` (as moves() lists them, in any order, all or some): exactly
     * the values the slots would give, in one call that can share the work
     * between the children (beam's evaluation). Only with evaluate. */
    void (*evaluate_moves)(const void *inst, const void *state,
                           const ps_move *moves, int n, ps_value *out);
    /* [optional: NULL = no weighted evaluation] The weights of a second
     * evaluation whose terms the user (or a tuning script) weighs, with
     * beam's --beam-weights; terminated by name == NULL, at most
     * PS_MAX_EVAL_WEIGHTS. */
    const struct ps_eval_weight *eval_weights;
    /* [with eval_weights] as evaluate_moves, under the weights w (one per
     * entry of eval_weights, in its order). */
    void (*evaluate_moves_weighted)(const void *inst, const double *w,
                                    const void *state, const ps_move *moves,
                                    int n, ps_value *out);

    /* --- how to play on at random (mc, nmcs, nrpa, beam, bench) --- */
    /* [optional: NULL = only the kernel's generic ones] Playout policies,
     * terminated by name == NULL; the first is the game's default for nmcs
     * and nrpa. */
    const struct ps_policy *policies;
    /* [optional: NULL = the kernel's loop always] Play one whole playout
     * from `start` in the game's own engine, with the same distribution
     * over lines as the kernel's loop (docs/writing-a-game.md): moves
     * uniform among moves() when `policy` is NULL, else as one of this
     * game's policies chooses; until no move is left (score games), or the
     * goal or max_len moves (cost games; max_len >= 1). The moves go to
     * line[] (room for max_depth + 1), their number to *length, the value
     * (gains + end value, or summed costs) to *value; true. Return false
     * before drawing from rng to decline (a rule, size or policy the engine
     * does not handle): the kernel then plays the playout itself. Called
     * for the uniform policy and the game's policies, never for topk nor
     * by nrpa. */
    bool (*playout)(const void *inst, const void *start,
                    const struct ps_policy *policy, struct ps_rng *rng,
                    int max_len, ps_move *line, int *length, ps_value *value);

    /* --- what nrpa learns on (nrpa) --- */
    /* [optional, both or neither: NULL = nrpa hashes the raw move value]
     * NRPA move codes: codes[i] for moves[i] of `state`, each below
     * move_code_space(inst). A code names "the same move" across the states
     * of different playouts, so the policy can be a flat array of weights.
     * A policy's own move_codes replace them under that policy. */
    void (*move_codes)(const void *inst, const void *state,
                       const ps_move *moves, int n, uint32_t *codes);
    uint32_t (*move_code_space)(const void *inst);
    /* [optional, all five or none: NULL = nrpa steps with moves/apply]
     * A walk plays a line move by move in the game's own representation,
     * listing at each position the moves with nrpa's move codes and prior.
     * walk_size: the bytes of a walk. walk_start: begin one at `state`
     * under `policy` (NULL: no policy, the game's move codes, no prior);
     * false, to decline (a policy or engine it does not serve), and nrpa
     * steps through the slots instead. walk_moves: the moves of the
     * current position exactly as moves() lists them (order included),
     * their codes as the policy's move_codes (or the game's) would give,
     * and, when prior is not NULL, the policy's bias; their number (0: the
     * end). walk_play: play moves[i] of the last listing, returning its
     * gain as apply() would. walk_end: end_value() of the position. A
     * walk's memory starts zeroed, and is kept between walks (a game may
     * keep what it learnt of an earlier start in it). */
    size_t (*walk_size)(const void *inst);
    bool (*walk_start)(const void *inst, const struct ps_policy *policy,
                       const void *state, void *walk);
    int (*walk_moves)(const void *inst, void *walk, ps_move *moves,
                      uint32_t *codes, double *prior);
    ps_value (*walk_play)(const void *inst, void *walk, int i);
    ps_value (*walk_end)(const void *inst, const void *walk);

    /* ==== 4. Presentation: text forms (round-trip) and drawing ==== */
    /* [required] Draw a state; colours only when `ansi`. */
    void (*print_state)(const void *inst, const void *state, FILE *out,
                        bool ansi);
    /* [required] "row col" / "from to": readable back by parse_move on the
     * same state. */
    void (*format_move)(const void *inst, const void *state, ps_move move,
                        char *buf, size_t len);
    /* [required] Parse text into a legal move of `state`; on failure fill
     * err->msg. */
    bool (*parse_move)(const void *inst, const void *state, const char *text,
                       ps_move *move, struct ps_error *err);
    /* [optional: NULL = not listed] How a move is written in a solution
     * file, one line for psolve --help ("'row col', 0-based, ..."). */
    const char *move_help;
    /* [optional: NULL = no comment] Comment for a move in a printed solution
     * ("group 12"). */
    void (*describe_move)(const void *inst, const void *state, ps_move move,
                          char *buf, size_t len);
    /* [optional: NULL = none] Facts about a final state: cells left,
     * cleared, ... */
    int (*facts)(const void *inst, const void *state, struct ps_fact *out,
                 int max);
    /* [optional: NULL = the HTML report and JSON traces show print_state's
     * text] Write `state` as one JSON object for the HTML report to draw
     * (docs/cli.md, "The HTML report"): a grid
     *   {"kind":"grid","rows":R,"cols":C,"style":"colours"|"tiles",
     *    "cells":[R*C numbers, row-major from the top, 0 = empty]}
     * or tubes
     *   {"kind":"tubes","capacity":K,"tubes":[[colours bottom to top],...]}
     * and, when `next` is not NULL, "highlight":[the cell or tube indices
     * the move *next touches]. No I/O but `out`; never in the hot loop. */
    void (*state_json)(const void *inst, const void *state,
                       const ps_move *next, FILE *out);
};

/* Does g keep the contract above? False with err naming the game and the
 * slot ("game lightsout: required slot 'hash' is NULL"). Looks only at the
 * struct and its tables, never calls the game. */
bool ps_game_check(const struct ps_game *g, struct ps_error *err);

/* The registry: the built-in games, then the games added at run time with
 * ps_game_register. The built-in list is not the kernel's: the layer above
 * defines it (games/registry.c, from games/games.def, which lists each game
 * once), so that the kernel names no game. NULL-terminated. */
extern const struct ps_game *const ps_builtin_games[];
const struct ps_game *ps_game_find(const char *name);
const struct ps_game *const *ps_game_list(void); /* NULL-terminated */
/* The games added at run time (plug-ins), NULL-terminated: the tail of
 * ps_game_list after the built-in ones. */
const struct ps_game *const *ps_game_list_added(void);
/* Check every game of the list; false with err at the first broken one. */
bool ps_game_check_all(struct ps_error *err);
/* Add a game loaded at run time (a plug-in, a Lua game) after checking it
 * (ps_game_check) and its name (unique). g must outlive every use of the
 * registry. Call it at start-up only, before any search or thread starts:
 * the list is not locked. Registering the same struct twice is a no-op. */
#define PS_MAX_ADDED_GAMES 16
bool ps_game_register(const struct ps_game *g, struct ps_error *err);

/* h = 0: the heuristic every cost game can offer as "zero" (A* becomes
 * uniform-cost search). */
ps_value ps_heuristic_zero(const void *inst, const void *state);

/* The entry of g->heuristics called `name`, or NULL. */
const struct ps_heuristic *ps_heuristic_find(const struct ps_game *g,
                                             const char *name);
/* The stable spelling of a name --heuristic accepts: the table entry's
 * name, or the pattern set's ("pdb:..."); NULL for an unknown name. */
const char *ps_heuristic_canonical(const struct ps_game *g, const char *name);
/* NULL or a known name (a table entry or a pattern set): true; else false
 * with err listing the choices. */
bool ps_heuristic_check(const struct ps_game *g, const char *name,
                        struct ps_error *err);
/* The name of the default (the entry whose fn is the game's heuristic or
 * upper_bound slot, for its kind of game), or "default". */
const char *ps_heuristic_default_name(const struct ps_game *g, bool maximise);

/* Helpers over the vtable, so callers need not test optional slots. */
unsigned ps_game_flags(const struct ps_game *g, const void *inst);
/* Before an instance is loaded: may the game's instances be score games
 * (its flags say so, or it has an upper_bound slot, which only score
 * instances read), and may they be cost games (flags without PS_MAXIMISE:
 * instance_flags may add it)? SameGame is both: its rules choose. */
bool ps_game_may_score(const struct ps_game *g);
bool ps_game_may_cost(const struct ps_game *g);
bool ps_game_equal(const struct ps_game *g, const void *inst, const void *a,
                   const void *b);
/* The size of the instance's state keys (key_size), or 0 when it has none
 * or they are no smaller than its states (then a table keeps states). */
size_t ps_game_key_size(const struct ps_game *g, const void *inst);
/* The instance's fault (PS_FAULT_NONE when the game has no fault slot). */
enum ps_fault ps_game_fault(const struct ps_game *g, const void *inst,
                            struct ps_error *err);
/* A state as bytes for another process (state_pack, or its own bytes):
 * the length it needs, written to buf when <= cap; 0 on failure. */
size_t ps_game_state_pack(const struct ps_game *g, const void *inst,
                          const void *state, void *buf, size_t cap);
/* The state from such bytes; false when they are not one. */
bool ps_game_state_unpack(const struct ps_game *g, const void *inst,
                          const void *buf, size_t len, void *state);
/* The first game whose detect() claims the file text, or NULL; `tried`
 * (len bytes) lists the names of the games that were asked. */
const struct ps_game *ps_game_detect(const char *text, size_t len, char *tried,
                                     size_t tried_len);

/* Rules: fill `rules` with the defaults then the named preset (NULL = none).
 * Returns false and fills err for an unknown preset name. */
bool ps_rules_preset(const struct ps_game *g, void *rules, const char *name,
                     struct ps_error *err);

/* ---- Games built outside the tree (docs/plugins.md) ----
 * A shared object built against the installed headers
 * (cc -shared -fPIC $(pkg-config --cflags psolve) mygame.c -o mygame.so)
 * ends with one line, PS_PLUGIN(mygame_game), which defines the one symbol
 * psolve looks up, psolve_plugin, returning the game and the version of
 * this header it was compiled with. `psolve --plugin ./mygame.so` loads it.
 * The plug-in calls the helpers of game.h, error.h, rng.h, hash.h and
 * textfile.h, which the psolve executable exports: it links no library. */
struct ps_plugin {
    int api_version; /* PS_API_VERSION; always the first field */
    const struct ps_game *game;
};

#define PS_PLUGIN_SYMBOL "psolve_plugin"
const struct ps_plugin *psolve_plugin(void);

#define PS_PLUGIN(game_struct)                                                 \
    const struct ps_plugin *psolve_plugin(void)                                \
    {                                                                          \
        static const struct ps_plugin plugin = {PS_API_VERSION, &game_struct}; \
        return &plugin;                                                        \
    }

#endif
