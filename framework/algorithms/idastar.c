/*
 * idastar.c - IDA*: depth-first searches bounded by f = g + h <= bound, the
 * bound raised each round to the smallest f that exceeded it. Exact with an
 * admissible h, and its memory is linear in the depth: the states of the
 * current path and one move list per level, no table. The price is
 * re-expanding states: every round repeats the previous ones, and a state
 * reached by several paths is searched once per path. A successor equal to
 * a state on the current path is skipped (a cycle can never be part of a
 * cheapest solution). With no cycles the tree of paths is finite, so a round
 * that exceeds no bound has searched everything: the instance is unsolvable.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define NO_BOUND INT64_MAX

/* idastar's own options (its table is at the end of the file) */
struct idastar_options {
    bool no_memo; /* the textbook IDA*: no transposition table */
};

/* Everything one level of the current path needs, allocated the first time
 * the search reaches that depth and kept for the next rounds. */
struct ida_level {
    unsigned char *state;  /* the state at this depth */
    uint64_t hash;
    ps_move taken;         /* the move played from here (the path) */
    ps_move *moves;        /* max_moves each */
    ps_value *costs;
    ps_value *h;           /* of each child */
    uint64_t *hashes;      /* of each child */
    int *order;            /* children, best h first */
    unsigned char *kids;   /* max_moves states */
    /* --heuristic pdb:...: the pattern database entries of this state, then
     * of each child (ps_pdb_entry_count each), so a child's h reads only
     * the tables its move changed. NULL without one. */
    uint64_t *entries;
    int64_t trace_id;      /* --trace: the id of this level's expansion */
};

/* The transposition table: a state searched in this iteration at cost g
 * and met again at g' >= g needs no second search of the moves the first
 * one searched, as it covered every line the second could try below them
 * (its bound was no smaller: B - g >= B - g'). The first search was
 * complete when the second comes, since a state whose search is still
 * open is on the current path (a cycle, cut before). Only the moves the
 * first search skipped as the second order of commuting moves (the game's
 * redundant_after, which reads the move into the state and the state
 * before: path knowledge) and this one does not skip are searched again;
 * a game without redundant_after has none, so the state is cut. Entries
 * hold the state and the one before it, so a hash collision never cuts.
 * Two entries per bucket: the first kept for the state with the most
 * budget left (the smallest g: the largest subtree, "replacement by
 * depth"), the second always replaced; entries of earlier iterations count
 * as empty. Bytes per entry: 24 + 2 x the state size; the table takes at
 * most IDA_TT_BYTES (less under --max-memory), --no-memo none. */
#define IDA_TT_BYTES (32u << 20)

struct ida_tt_entry {
    uint64_t hash;
    int32_t g;
    int32_t iteration; /* 0 = empty */
    ps_move taken;     /* the move into the state at its first search */
    int32_t has_parent; /* 0 at the root */
};

struct ida_tt {
    struct ida_tt_entry *e;
    unsigned char *states; /* per entry: the state, then its parent */
    uint64_t mask;         /* buckets - 1 */
    uint64_t entries_now;
};

struct ida {
    struct ps_search *s;
    int max_moves;
    struct ida_level *level;
    int levels, cap;
    ps_move *path;         /* for offering a solution */
    uint64_t reserved;
    ps_value bound, next_bound;
    bool use_h;            /* read the run's heuristic (ps_search_h_exact) */
    struct ida_tt tt;      /* e == NULL: none (--no-memo, or no memory) */
    /* cover_prepare's list: max_moves children and their hashes. */
    ps_move *cover_moves;
    unsigned char *cover_states;
    uint64_t *cover_hashes;
    int cover_n;
    int nentries;          /* pattern database entries per state, or 0 */
    int64_t traced;        /* --trace: expansions shown, the next id */
};

enum ida_result { IDA_FOUND, IDA_NOT_FOUND, IDA_STOPPED };


static size_t level_bytes(const struct ida *d)
{
    size_t m = (size_t)d->max_moves;
    return d->s->state_size * (1 + m) +
           m * (sizeof(ps_move) + 2 * sizeof(ps_value) + sizeof(uint64_t) +
                sizeof(int)) +
           (1 + m) * (size_t)d->nentries * sizeof(uint64_t) +
           sizeof(struct ida_level) + sizeof(ps_move);
}

/* Make levels 0..depth usable. */
static bool ida_grow(struct ida *d, int depth)
{
    while (d->levels <= depth) {
        if (d->levels == d->cap) {
            int cap = d->cap ? d->cap * 2 : 64;
            struct ida_level *lv = realloc(d->level, (size_t)cap * sizeof *lv);
            ps_move *path = realloc(d->path, (size_t)cap * sizeof *path);
            if (lv)
                d->level = lv;
            if (path)
                d->path = path;
            if (!lv || !path) {
                d->s->stop = PS_STOP_MEMORY;
                return false;
            }
            d->cap = cap;
        }
        if (!ps_memory_reserve(d->s, level_bytes(d))) {
            d->s->stop = PS_STOP_MEMORY;
            return false;
        }
        d->reserved += level_bytes(d);
        size_t m = (size_t)d->max_moves, size = d->s->state_size;
        struct ida_level *l = &d->level[d->levels];
        memset(l, 0, sizeof *l);
        l->state = malloc(size);
        l->moves = malloc(m * sizeof *l->moves);
        l->costs = malloc(m * sizeof *l->costs);
        l->h = malloc(m * sizeof *l->h);
        l->hashes = malloc(m * sizeof *l->hashes);
        l->order = malloc(m * sizeof *l->order);
        l->kids = malloc(m * size);
        if (d->nentries)
            l->entries = malloc((1 + m) * (size_t)d->nentries * sizeof(uint64_t));
        d->levels++; /* freed by idastar_run even when incomplete */
        if (!l->state || !l->moves || !l->costs || !l->h || !l->hashes ||
            !l->order || !l->kids || (d->nentries && !l->entries)) {
            d->s->stop = PS_STOP_MEMORY;
            return false;
        }
    }
    return true;
}

static bool on_path(struct ida *d, int depth, uint64_t hash, const void *state)
{
    for (int k = 0; k < depth; k++)
        if (d->level[k].hash == hash &&
            ps_game_equal(d->s->game, d->s->inst, d->level[k].state, state))
            return true;
    return false;
}

/* Children in order of increasing h, so the last round meets a goal
 * early (insertion sort: a few dozen children). */
static void order_children(struct ida_level *l, int n)
{
    for (int i = 0; i < n; i++) {
        int k = l->order[i], j = i;
        while (j > 0 && l->h[l->order[j - 1]] > l->h[k]) {
            l->order[j] = l->order[j - 1];
            j--;
        }
        l->order[j] = k;
    }
}

/* The children the first search of a transposition searched: the moves of
 * its state as it was then that redundant_after did not skip there. Its
 * tube numbers (say) may differ from the state's now (equal() states), so
 * ida_children compares children, not moves. */
static void cover_prepare(struct ida *d, const unsigned char *first_state,
                          const unsigned char *first_parent, ps_move first_move)
{
    struct ps_search *s = d->s;
    const struct ps_game *game = s->game;
    ps_move *moves = d->cover_moves;
    int n = game->moves(s->inst, first_state, moves, NULL);
    d->cover_n = 0;
    for (int i = 0; i < n; i++) {
        if (game->redundant_after(s->inst, first_parent, first_move,
                                  first_state, moves[i]))
            continue;
        unsigned char *kid = d->cover_states + (size_t)d->cover_n * s->state_size;
        game->apply(s->inst, first_state, moves[i], kid);
        d->cover_hashes[d->cover_n++] = game->hash(s->inst, kid);
    }
}

static bool covered(const struct ida *d, uint64_t hash, const void *kid)
{
    for (int i = 0; i < d->cover_n; i++)
        if (d->cover_hashes[i] == hash &&
            ps_game_equal(d->s->game, d->s->inst,
                          d->cover_states + (size_t)i * d->s->state_size, kid))
            return true;
    return false;
}

/* Generate the children of level `depth` that survive the pruning and the
 * cycle check (and, when `partial`, that the state's first search in this
 * iteration did not search: cover_prepare); returns how many are listed in
 * order[]. */
static int ida_children(struct ida *d, int depth, bool partial)
{
    struct ps_search *s = d->s;
    const struct ps_game *game = s->game;
    struct ida_level *l = &d->level[depth];
    int n = game->moves(s->inst, l->state, l->moves, l->costs), kept = 0;
    for (int i = 0; i < n; i++) {
        if (depth > 0 && game->redundant_after &&
            game->redundant_after(s->inst, d->level[depth - 1].state,
                                  d->level[depth - 1].taken, l->state,
                                  l->moves[i])) {
            s->stats.pruned++;
            s->stats.pruned_commuting++;
            continue;
        }

        unsigned char *kid = l->kids + (size_t)i * s->state_size;
        game->apply(s->inst, l->state, l->moves[i], kid);
        s->stats.generated++;
        /* The move straight back, the commonest cycle, costs a memcmp. */
        bool back = depth > 0 &&
                    memcmp(kid, d->level[depth - 1].state, s->state_size) == 0;
        if (!back)
            l->hashes[i] = game->hash(s->inst, kid);
        if (back || on_path(d, depth + 1, l->hashes[i], kid)) {
            s->stats.duplicates++;
            s->stats.cycles++;
            continue;
        }
        /* A transposition (tt_probe): only what its first search skipped. */
        if (partial && covered(d, l->hashes[i], kid)) {
            s->stats.duplicates++;
            continue;
        }
        if (d->nentries) {
            uint64_t *e = l->entries + (size_t)(1 + i) * (size_t)d->nentries;
            memcpy(e, l->entries, (size_t)d->nentries * sizeof *e);
            ps_pdb_update(s->pdb, s->inst, l->state, l->moves[i], kid, e);
            l->h[i] = ps_pdb_value_of(s->pdb, e);
        } else {
            l->h[i] = d->use_h ? ps_search_h(s, kid) : 0;
        }
        l->order[kept++] = i;
    }
    order_children(l, kept);
    return kept;
}

/* The node ids of a trace number the expansions of the whole run, so the
 * tree of each round hangs from its own root. */
static void ida_trace_expand(struct ida *d, int depth, ps_value g, ps_value h)
{
    struct ps_search *s = d->s;
    struct ida_level *l = &d->level[depth];
    char move[64] = "";
    if (depth > 0) {
        struct ida_level *up = &d->level[depth - 1];
        s->game->format_move(s->inst, up->state, up->taken, move, sizeof move);
    }
    l->trace_id = d->traced++;
    ps_search_trace_event(s, &(struct ps_trace_event){
        .kind = PS_TRACE_EXPAND,
        .has = PS_TF_ID | (depth > 0 ? PS_TF_PARENT : 0) | PS_TF_DEPTH |
               PS_TF_G | PS_TF_H | PS_TF_KEY | PS_TF_BOUND,
        .id = l->trace_id,
        .parent = depth > 0 ? d->level[depth - 1].trace_id : 0,
        .depth = depth,
        .g = g,
        .h = h,
        .key = (double)(g + h),
        .bound = d->bound,
        .move = depth > 0 ? move : NULL,
        .state = l->state});
}

static bool tt_init(struct ida *d)
{
    struct ps_search *s = d->s;
    uint64_t per = sizeof(struct ida_tt_entry) + 2 * s->state_size;
    uint64_t n = 1u << 20;
    while (n > 1024 && n * per > IDA_TT_BYTES)
        n /= 2;
    const struct idastar_options *io = ps_search_algo_options(s);
    if (io->no_memo)
        return false;
    while (n >= 1024 && !ps_memory_reserve(s, n * per))
        n /= 2;
    if (n < 1024)
        return false; /* IDA* runs on without: the table only saves time */
    d->tt.e = calloc(n, sizeof *d->tt.e);
    d->tt.states = malloc(n * 2 * s->state_size);
    if (!d->tt.e || !d->tt.states) {
        free(d->tt.e);
        free(d->tt.states);
        d->tt.e = NULL;
        ps_memory_release(s, n * per);
        return false;
    }
    size_t m = (size_t)d->max_moves;
    d->cover_moves = malloc(m * sizeof *d->cover_moves);
    d->cover_states = malloc(m * s->state_size);
    d->cover_hashes = malloc(m * sizeof *d->cover_hashes);
    if (!d->cover_moves || !d->cover_states || !d->cover_hashes) {
        free(d->tt.e);
        d->tt.e = NULL;
        ps_memory_release(s, n * per);
        return false;
    }
    d->reserved += n * per;
    d->tt.mask = n / 2 - 1;
    return true;
}

enum tt_answer { TT_NEW, TT_CUT, TT_PARTIAL };

/* Was the state at `depth` (cost g) searched in this iteration at no
 * larger g? TT_CUT: all its moves were; TT_PARTIAL: all but those the
 * earlier search skipped as commuting (*first_state, as it was then, with
 * *first_parent and *first_move: cover_prepare lists the children it
 * searched). TT_NEW: search it; it is remembered. */
static enum tt_answer tt_probe(struct ida *d, int depth, ps_value g,
                               const unsigned char **first_state,
                               const unsigned char **first_parent,
                               ps_move *first_move)
{
    struct ps_search *s = d->s;
    struct ida_tt *tt = &d->tt;
    struct ida_level *l = &d->level[depth];
    size_t size = s->state_size;
    int32_t it = s->stats.iterations;
    uint64_t b = (l->hash & tt->mask) * 2, at = b;
    s->stats.table_probes++;
    bool found = false;
    for (uint64_t i = b; i < b + 2 && !found; i++) {
        struct ida_tt_entry *e = &tt->e[i];
        if (e->iteration == it && e->hash == l->hash &&
            ps_game_equal(s->game, s->inst, tt->states + i * 2 * size,
                          l->state)) {
            found = true;
            at = i;
        }
    }
    struct ida_tt_entry *e = &tt->e[at];
    if (found && e->g <= g) {
        if (!e->has_parent || !s->game->redundant_after) {
            s->stats.table_hits++;
            return TT_CUT;
        }
        s->stats.table_hits++;
        *first_state = tt->states + at * 2 * size;
        *first_parent = tt->states + at * 2 * size + size;
        *first_move = e->taken;
        return TT_PARTIAL;
    }
    if (!found) {
        /* Slot b keeps the smallest g of this iteration; b + 1 the rest. */
        struct ida_tt_entry *keep = &tt->e[b];
        at = keep->iteration != it || g <= keep->g ? b : b + 1;
        e = &tt->e[at];
        if (e->iteration == 0) {
            tt->entries_now++;
            s->stats.table_entries = tt->entries_now;
            if (tt->entries_now > s->stats.peak_table)
                s->stats.peak_table = tt->entries_now;
        }
        e->hash = l->hash;
        e->iteration = it;
        memcpy(tt->states + at * 2 * size, l->state, size);
    }
    /* New, or reached more cheaply: searched in full from here. */
    e->g = (int32_t)g;
    e->has_parent = depth > 0;
    if (depth > 0) {
        e->taken = d->level[depth - 1].taken;
        memcpy(tt->states + at * 2 * size + size, d->level[depth - 1].state,
               size);
    }
    return TT_NEW;
}

/* Search below level `depth` (its state in place, reached at cost g, with
 * heuristic h) for a goal within the bound. */
static enum ida_result ida_search(struct ida *d, int depth, ps_value g,
                                  ps_value h)
{
    struct ps_search *s = d->s;
    const struct ps_game *game = s->game;
    if (g + h > d->bound) {
        if (g + h < d->next_bound)
            d->next_bound = g + h;
        s->stats.pruned++;
        s->stats.pruned_bound++;
        return IDA_NOT_FOUND;
    }
    if (game->is_goal(s->inst, d->level[depth].state)) {
        for (int k = 0; k < depth; k++)
            d->path[k] = d->level[k].taken;
        ps_search_offer(s, d->path, depth, g);
        return IDA_FOUND;
    }
    if (ps_search_stopped(s) || !ida_grow(d, depth + 1))
        return IDA_STOPPED;
    bool partial = false;
    if (d->tt.e && g <= INT32_MAX) {
        const unsigned char *first_state, *first_parent;
        ps_move first_move;
        enum tt_answer a = tt_probe(d, depth, g, &first_state, &first_parent,
                                    &first_move);
        if (a == TT_CUT) {
            s->stats.duplicates++;
            return IDA_NOT_FOUND;
        }
        if (a == TT_PARTIAL) {
            cover_prepare(d, first_state, first_parent, first_move);
            partial = true;
        }
    }
    if (ps_search_tracing(s))
        ida_trace_expand(d, depth, g, h);
    s->stats.expanded++;
    int n = ida_children(d, depth, partial);
    for (int k = 0; k < n; k++) {
        struct ida_level *l = &d->level[depth];
        int i = l->order[k];
        struct ida_level *next = &d->level[depth + 1];
        memcpy(next->state, l->kids + (size_t)i * s->state_size, s->state_size);
        next->hash = l->hashes[i];
        if (d->nentries)
            memcpy(next->entries,
                   l->entries + (size_t)(1 + i) * (size_t)d->nentries,
                   (size_t)d->nentries * sizeof *next->entries);
        l->taken = l->moves[i];
        enum ida_result r = ida_search(d, depth + 1, g + l->costs[i], l->h[i]);
        if (r != IDA_NOT_FOUND)
            return r;
    }
    return IDA_NOT_FOUND;
}

static enum ps_status idastar_run(struct ps_search *s)
{
    struct ida d;
    memset(&d, 0, sizeof d);
    d.s = s;
    d.max_moves = s->game->max_moves(s->inst);
    /* Only an admissible h keeps IDA* exact (ps_search_h_exact). */
    d.use_h = ps_search_h_exact(s);
    d.nentries = d.use_h && s->pdb ? ps_pdb_entry_count(s->pdb) : 0;
    enum ps_status st = PS_OPTIMAL;
    if (!ida_grow(&d, 0))
        goto done;
    struct ida_level *root = &d.level[0];
    s->game->initial_state(s->inst, root->state);
    root->hash = s->game->hash(s->inst, root->state);
    if (d.nentries)
        ps_pdb_entries(s->pdb, s->inst, root->state, root->entries);
    /* A probe costs about what making a child or two does (a cache miss),
     * so it pays where states have many moves (Water Sort) and not where
     * they have few: on the sliding-tile puzzle (at most 4, one of them
     * back) it saved nodes but no time (Korf's 100 with pdb:6-6-3: 28.4 M
     * expanded without the table, 17.4 M with it, CPU time no better,
     * docs/pdb.md), so games with fewer than 8 moves get none. */
    if (d.max_moves >= 8)
        tt_init(&d);
    s->used_heuristic = d.use_h;
    ps_value h0 = d.use_h ? ps_search_h(s, root->state) : 0;
    d.bound = h0;
    for (;;) {
        s->stats.iterations++;
        ps_search_trace_event(s, &(struct ps_trace_event){
                                     .kind = PS_TRACE_ITERATION,
                                     .has = PS_TF_ITERATION | PS_TF_BOUND,
                                     .iteration = s->stats.iterations,
                                     .bound = d.bound});
        d.next_bound = NO_BOUND;
        uint64_t expanded = s->stats.expanded, generated = s->stats.generated;
        enum ida_result r = ida_search(&d, 0, 0, h0);
        ps_iteration_done(s, d.bound, expanded, generated);
        if (r != IDA_NOT_FOUND)
            break;
        if (d.next_bound == NO_BOUND) {
            st = PS_UNSOLVABLE;
            break;
        }
        d.bound = d.next_bound;
    }
done:
    ps_memory_release(s, d.reserved);
    for (int k = 0; k < d.levels; k++) {
        struct ida_level *l = &d.level[k];
        free(l->state);
        free(l->moves);
        free(l->costs);
        free(l->h);
        free(l->hashes);
        free(l->order);
        free(l->kids);
        free(l->entries);
    }
    free(d.level);
    free(d.path);
    free(d.tt.e);
    free(d.tt.states);
    free(d.cover_moves);
    free(d.cover_states);
    free(d.cover_hashes);
    return st;
}

static const struct idastar_options idastar_defaults = {0};

static const struct ps_option idastar_options[] = {
    {.name = "no-memo",
     .type = PS_OPT_FLAG,
     .offset = offsetof(struct idastar_options, no_memo),
     .doc = "no transposition table (the textbook IDA*; games with fewer "
            "than 8 moves per state never have one)"},
    {0},
};

const struct ps_algorithm ps_algo_idastar = {
    .name = "idastar",
    .summary = "IDA*: iterative deepening on g + h, memory linear in depth "
               "(exact)",
    .for_score = false,
    .for_cost = true,
    .uses_heuristic = true,
    .run = idastar_run,
    .options = idastar_options,
    .options_size = sizeof(struct idastar_options),
    .options_default = &idastar_defaults,
};
