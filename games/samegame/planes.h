/*
 * planes.h - whole SameGame playouts in bit planes (the `playout` slot), for
 * samegame.c only: it includes this file once, after the byte engine, whose
 * rules, gains and end value it reuses.
 *
 * A board of up to 15 rows and 16 columns is one 256-bit plane per colour:
 * four uint64_t, column c in word c / 4 as the 16-bit lane c % 4, row r (0 =
 * bottom) as bit r of its lane. Bit 15 of every lane stays 0, a guard, so a
 * shift by one row never carries into the next column. Boards up to 31 x 32
 * use 32-bit lanes in sixteen words the same way. The playout is
 * played in the planes from start to end; only the line goes back out.
 *
 * Choosing a group uniformly without listing the groups. A group's anchor
 * (its move: its lowest cell c*rows + r) has no cell of its colour below it
 * or to its left, as both would have a lower index. So the cells with no
 * same-coloured neighbour below or to the left, in groups (of two or more,
 * unless min_group is 1), hold every group's anchor exactly once, and a few
 * other cells (the lower ends of a U-shaped group's arms). One such cell is
 * drawn uniformly; its group is flood-filled in its colour's plane; it is
 * accepted if the drawn cell is its anchor and the group has min_group
 * cells, else it leaves the draw (with its whole group if that is too
 * small) and another is drawn. The accepting cells stay in the draw, each
 * as likely as the others at every draw, so the accepted group is exactly
 * uniform over the groups, as the generic loop's uniform index into moves()
 * is; and nearly every draw is accepted. The tabu policy draws among the
 * candidates of the other colours, and of the tabu colour only when those
 * have no group, as sg_choose_tabu does among the moves.
 *
 * Three builds of the loop per geometry (planes_body.h): portable C, POPCNT,
 * and POPCNT with BMI2's pdep/pext (select a bit; gravity as pext then
 * pdep), chosen at load from the CPU, or by $PSOLVE_SAMEGAME_PLAYOUT
 * (docs/samegame.md).
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SG_PLANES_X86 1
#include <immintrin.h>
#endif

/* Two geometries: up to 15 rows x 16 columns in four words (16-bit lanes),
 * and up to 31 x 32 in sixteen (32-bit lanes). */
#define SG_PLANE_MAX_WORDS 16

struct sg_planes {
    uint64_t colour[SG_MAX_COLORS + 1][SG_PLANE_MAX_WORDS]; /* 1..colours */
    uint64_t occupied[SG_PLANE_MAX_WORDS];
    int count[SG_MAX_COLORS + 1];
    int colours, left;
    int words; /* words per plane the columns use */
};

/* The groups of a position, listed in bit planes (SG_FN(list)): per group
 * its move (anchor cell), size, colour, the anchor's word and bit in the
 * planes, its shape bits (sg_move_codes) and, when asked, the hash of its
 * cells (sg_cell_codes); the cells in no group, per colour. */
struct sg_group {
    ps_move move;
    uint32_t code; /* sg_move_codes' */
    uint16_t size;
    uint8_t colour, col, row, maxcol, shape;
};

struct sg_listed {
    int n;
    int loose[SG_MAX_COLORS + 1];
    struct sg_group g[SG_MAX_CELLS + 1];
    uint64_t hash[SG_MAX_CELLS + 1];
};

/* The window of relist and evaluate_moves (planes_body.h): the columns
 * lo..hi that columns cmin - 1 .. cmax + 1 of listing `old` become after
 * its move `played`, which emptied e columns; dl, dr: how far the columns
 * left and right of the group move. */
#define SG_WINDOW(in, old, played, e)                                          \
    const int cmin = (old)->g[played].col, cmax = (old)->g[played].maxcol;   \
    const int dl = (in)->rules.shift == SG_SHIFT_RIGHT ? (e) : 0;             \
    const int dr = (in)->rules.shift == SG_SHIFT_LEFT ? -(e) : 0;             \
    const int lo = cmin - 1 + dl, hi = cmax + 1 + dr

/* The listed groups' cells (SG_FN(list)'s lab): of[] names the group of
 * each cell in one (by bit, word * 64 + bit), for the cells set in in[];
 * group j's cells in word i are cells[at[j] + i], for its words: from the
 * one of its anchor's column to the one of its last column. A group spans
 * no more words than it has cells, so cells[] has room for them all. */
struct sg_labels {
    uint64_t in[SG_PLANE_MAX_WORDS];
    uint16_t of[SG_PLANE_MAX_WORDS * 64];
    int used, at[SG_MAX_CELLS + 1];
    uint64_t cells[SG_MAX_CELLS];
};

/* Group `group`'s cells w[0..to - from], its words from..to, into lab. */
static inline void sg_label(struct sg_labels *lab, int group, const uint64_t *w,
                            int from, int to)
{
    lab->at[group] = lab->used - from;
    for (int i = from; i <= to; i++) {
        const uint64_t x = w[i - from];
        lab->cells[lab->used++] = x;
        lab->in[i] |= x;
        for (uint64_t y = x; y; y &= y - 1)
            lab->of[i * 64 + __builtin_ctzll(y)] = (uint16_t)group;
    }
}

/* Group x counted into (sign 1) or out of (-1) tally t. */
static inline void sg_tally_group(const struct sg_instance *in,
                                  struct sg_tally *t, const struct sg_group *x,
                                  int sign)
{
    t->gained[x->colour] += sign * sg_gain(&in->rules, x->size, x->colour);
    t->grouped[x->colour] += sign * x->size;
    t->groups[x->colour] += sign;
}

static bool planes_narrow(const struct sg_instance *in)
{
    return in->rows <= 15 && in->cols <= 16;
}

/* Does the bit-plane engine play these rules on this board? */
static bool planes_fit(const struct sg_instance *in)
{
    return in->rows <= 31 && in->cols <= 32;
}

/* The engine for this machine, or the one $PSOLVE_SAMEGAME_PLAYOUT names
 * (bytes: never the planes; portable, popcnt, bmi2), where the CPU has it. */
static int planes_engine_choice(const struct sg_instance *in)
{
    if (!planes_fit(in))
        return SG_ENGINE_BYTES;
    int best = SG_ENGINE_PORTABLE;
#ifdef SG_PLANES_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt")) {
        best = SG_ENGINE_POPCNT;
        /* pdep/pext are microcoded, hundreds of cycles, before Zen 3 */
        if (__builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") &&
            !__builtin_cpu_is("znver2"))
            best = SG_ENGINE_BMI2;
    }
#endif
    const char *want = getenv("PSOLVE_SAMEGAME_PLAYOUT");
    static const char *const names[] = {"bytes", "portable", "popcnt", "bmi2"};
    for (int e = 0; want && e <= SG_ENGINE_BMI2; e++)
        if (strcmp(want, names[e]) == 0 && e < best)
            return e;
    return best;
}

/* The most frequent colour, the lowest on a tie (most_frequent_colour). */
static int planes_most_frequent(const struct sg_planes *b)
{
    int top = 0;
    for (int k = 1; k <= b->colours; k++)
        if (b->count[k] > (top ? b->count[top] : 0))
            top = k;
    return top;
}

#ifdef SG_PLANES_X86
__attribute__((target("popcnt"))) static inline int popcount_popcnt(uint64_t x)
{
    return __builtin_popcountll(x);
}

__attribute__((target("popcnt,bmi2"))) static inline int
select_bmi2(uint64_t x, unsigned j)
{
    return __builtin_ctzll(_pdep_u64(1ull << j, x));
}
#endif

/* ---- the loop, once per instruction set and geometry ---- */

#define SG_CAT3(a, b, c) a##_##b##_##c
#define SG_XCAT3(a, b, c) SG_CAT3(a, b, c)
#define SG_FN(name) SG_XCAT3(name, SG_ISA, SG_LANE)

#define SG_ISA portable
#define SG_TARGET
#define SG_BMI2 0
#define SG_POPCOUNT(x) popcount_portable(x)
#define SG_SELECT(x, j) SG_FN(select_by_halves)(x, j)
#include "planes_isa.h"

#ifdef SG_PLANES_X86
#define SG_ISA popcnt
#define SG_TARGET __attribute__((target("popcnt")))
#define SG_BMI2 0
#define SG_POPCOUNT(x) popcount_popcnt(x)
#define SG_SELECT(x, j) SG_FN(select_by_halves)(x, j)
#include "planes_isa.h"

#define SG_ISA bmi2
#define SG_TARGET __attribute__((target("popcnt,bmi2")))
#define SG_BMI2 1
#define SG_POPCOUNT(x) popcount_popcnt(x)
#define SG_SELECT(x, j) select_bmi2(x, j)
#include "planes_isa.h"
#endif

/* The playout slot: uniform, or any of the tabu policies (they share
 * sg_choose_tabu's playouts); the byte engine for the rest. */
static bool sg_playout(const void *p, const void *start,
                       const struct ps_policy *policy, struct ps_rng *rng,
                       int max_len, ps_move *line, int *length,
                       ps_value *value)
{
    const struct sg_instance *in = p;
    (void)max_len; /* a score game: played to the end */
    if (in->engine == SG_ENGINE_BYTES ||
        (policy && policy->choose != sg_choose_tabu))
        return false;
    struct sg_planes b;
    bool tabu = policy != NULL, narrow = planes_narrow(in);
    int len;
    ps_value gained;
    switch (in->engine) {
#ifdef SG_PLANES_X86
    case SG_ENGINE_BMI2:
        len = narrow ? planes_playout_bmi2_16(in, start, &b, tabu, rng, line,
                                              &gained)
                     : planes_playout_bmi2_32(in, start, &b, tabu, rng, line,
                                              &gained);
        break;
    case SG_ENGINE_POPCNT:
        len = narrow ? planes_playout_popcnt_16(in, start, &b, tabu, rng, line,
                                                &gained)
                     : planes_playout_popcnt_32(in, start, &b, tabu, rng, line,
                                                &gained);
        break;
#endif
    default:
        len = narrow ? planes_playout_portable_16(in, start, &b, tabu, rng,
                                                  line, &gained)
                     : planes_playout_portable_32(in, start, &b, tabu, rng,
                                                  line, &gained);
        break;
    }
    *length = len;
    *value = gained + end_value_with(in, b.left);
    return true;
}

/* The build of SG_FN(name) for this instance's engine and geometry (the
 * portable one when the engine is bytes: callers check that first). */
#ifdef SG_PLANES_X86
#define SG_DISPATCH(in, name, ...)                                             \
    ((in)->engine == SG_ENGINE_BMI2                                            \
         ? (planes_narrow(in) ? name##_bmi2_16(__VA_ARGS__)                    \
                              : name##_bmi2_32(__VA_ARGS__))                   \
     : (in)->engine == SG_ENGINE_POPCNT                                        \
         ? (planes_narrow(in) ? name##_popcnt_16(__VA_ARGS__)                  \
                              : name##_popcnt_32(__VA_ARGS__))                 \
         : (planes_narrow(in) ? name##_portable_16(__VA_ARGS__)                \
                              : name##_portable_32(__VA_ARGS__)))
#else
#define SG_DISPATCH(in, name, ...)                                             \
    (planes_narrow(in) ? name##_portable_16(__VA_ARGS__)                       \
                       : name##_portable_32(__VA_ARGS__))
#endif

/* The evaluate_moves_weighted slot (w: SG_W_COUNT weights), and with w
 * NULL the evaluate_moves slot: the planes' incremental tallies, or the
 * byte engine's apply and evaluation per child. */
static void sg_evaluate_moves_weighted(const void *p, const double *w,
                                       const void *state, const ps_move *moves,
                                       int n, ps_value *out)
{
    const struct sg_instance *in = p;
    if (in->engine == SG_ENGINE_BYTES) {
        uint64_t child[(SG_MAX_CELLS + 2 * SG_MAX_COLS + 64) / 8];
        for (int i = 0; i < n; i++) {
            sg_apply(p, state, moves[i], child);
            out[i] = sg_evaluate_with(in, w, child);
        }
        return;
    }
    struct sg_listed L;
    SG_DISPATCH(in, evaluate_moves, in, state, moves, n, w, out, &L);
}

static void sg_evaluate_moves(const void *p, const void *state,
                              const ps_move *moves, int n, ps_value *out)
{
    sg_evaluate_moves_weighted(p, NULL, state, moves, n, out);
}

/* ---- nrpa's walk (the walk_* slots) ---- */

/* How a walk names moves and weighs them: the policy's codes and prior. */
enum { SG_CODES_ANCHOR, SG_CODES_CELLS };
enum { SG_PRIOR_NONE, SG_PRIOR_TABU, SG_PRIOR_TABU_STRICT };

struct sg_walk {
    struct sg_planes b;
    int codes, prior;
    /* the last listing is lists[cur]; played >= 0: its move `played` has
     * been played since, emptying `emptied` columns (sg_walk_play) */
    int cur, played, emptied;
    struct sg_listed lists[3];
    /* The first position walked from, its planes and its listing (nrpa
     * walks every playout from the same start): first_listed once its
     * listing is in first; a walk starts zeroed. listed: lists[cur] is
     * the current position's already. */
    bool first_set, first_listed, listed;
    int first_codes;
    struct sg_planes first_b;
    struct sg_listed first;
    uint64_t first_state[(SG_MAX_CELLS + 2 * SG_MAX_COLS + 64) / 8];
};

/* The groups of a listing and their hashes into another. */
static void sg_listed_copy(struct sg_listed *to, const struct sg_listed *from,
                           bool hashes)
{
    to->n = from->n;
    memcpy(to->loose, from->loose, sizeof to->loose);
    memcpy(to->g, from->g, (size_t)from->n * sizeof *to->g);
    if (hashes)
        memcpy(to->hash, from->hash, (size_t)from->n * sizeof *to->hash);
}

static size_t sg_walk_size(const void *p)
{
    (void)p;
    return sizeof(struct sg_walk);
}

/* Walk from `state` under `policy` (NULL: uniform, no prior): the policies
 * of sg_policies with the game's or their own codes. False for the byte
 * engine and a policy it does not know. */
static bool sg_walk_start(const void *p, const struct ps_policy *policy,
                          const void *state, void *walk)
{
    const struct sg_instance *in = p;
    struct sg_walk *w = walk;
    if (in->engine == SG_ENGINE_BYTES)
        return false;
    w->codes = SG_CODES_ANCHOR;
    w->prior = SG_PRIOR_NONE;
    if (policy) {
        if (policy->move_codes == sg_cell_codes)
            w->codes = SG_CODES_CELLS;
        else if (policy->move_codes)
            return false;
        if (policy->bias == sg_bias_tabu)
            w->prior = SG_PRIOR_TABU;
        else if (policy->bias == sg_bias_tabu_strict)
            w->prior = in->rules.objective == SG_OBJ_SCORE ? SG_PRIOR_TABU_STRICT
                                                           : SG_PRIOR_TABU;
        else if (policy->bias)
            return false;
    }
    w->cur = 0;
    w->played = -1;
    w->listed = false;
    if (w->first_set && w->first_listed && w->first_codes == w->codes &&
        memcmp(state, w->first_state, in->state_size) == 0) {
        w->b = w->first_b;
        sg_listed_copy(&w->lists[0], &w->first, w->codes == SG_CODES_CELLS);
        w->listed = true;
        return true;
    }
    SG_DISPATCH(in, from_state, in, state, &w->b);
    w->first_set = in->state_size <= sizeof w->first_state;
    w->first_listed = false;
    w->first_codes = w->codes;
    if (w->first_set) {
        memcpy(w->first_state, state, in->state_size);
        w->first_b = w->b;
    }
    return true;
}

/* The moves of the walk's position, in sg_moves' order, with the codes
 * (sg_move_codes or sg_cell_codes) and the prior (sg_bias_tabu or
 * sg_bias_tabu_strict, when prior is not NULL) that those give. */
static int sg_walk_moves(const void *p, void *walk, ps_move *moves,
                         uint32_t *codes, double *prior)
{
    const struct sg_instance *in = p;
    struct sg_walk *w = walk;
    struct sg_listed *L;
    int n;
    if (w->played >= 0 && w->codes != SG_CODES_CELLS) {
        /* relist near the move just played (hashes: the whole board) */
        const struct sg_listed *old = &w->lists[w->cur];
        w->cur = !w->cur;
        L = &w->lists[w->cur];
        n = SG_DISPATCH(in, relist, in, &w->b, old, w->played, w->emptied, L,
                        &w->lists[2]);
    } else if (w->listed) {
        L = &w->lists[w->cur];
        n = L->n;
    } else {
        L = &w->lists[w->cur];
        n = SG_DISPATCH(in, list, in, &w->b, L, w->codes == SG_CODES_CELLS,
                        NULL);
        if (w->first_set && !w->first_listed) {
            sg_listed_copy(&w->first, L, w->codes == SG_CODES_CELLS);
            w->first_listed = true;
        }
    }
    w->played = -1;
    w->listed = false;
    if (w->codes == SG_CODES_CELLS)
        for (int i = 0; i < n; i++)
            L->g[i].code = (uint32_t)L->g[i].move * SG_CELL_HASHES +
                           (uint32_t)(L->hash[i] % SG_CELL_HASHES);
    if (!prior || w->prior == SG_PRIOR_NONE) {
        for (int i = 0; i < n; i++) {
            moves[i] = L->g[i].move;
            codes[i] = L->g[i].code;
        }
        return n;
    }
    const int tabu = planes_most_frequent(&w->b);
    /* the hard rule forbids the tabu colour only while another has a
     * group (b->count alone cannot tell) */
    bool other = w->prior == SG_PRIOR_TABU;
    for (int i = 0; i < n && !other; i++)
        other = L->g[i].colour != tabu;
    const double against = w->prior == SG_PRIOR_TABU ? SG_TABU_BIAS
                           : other                   ? SG_TABU_FORBID
                                                     : 0.0;
    for (int i = 0; i < n; i++) {
        moves[i] = L->g[i].move;
        codes[i] = L->g[i].code;
        prior[i] = L->g[i].colour == tabu ? against : 0.0;
    }
    return n;
}

/* Play move i of the last sg_walk_moves; its gain. */
static ps_value sg_walk_play(const void *p, void *walk, int i)
{
    const struct sg_instance *in = p;
    struct sg_walk *w = walk;
    SG_DISPATCH(in, play_listed, in, &w->b, &w->lists[w->cur], i, &w->emptied);
    w->played = i;
    const struct sg_group *x = &w->lists[w->cur].g[i];
    return sg_gain(&in->rules, x->size, x->colour);
}

static ps_value sg_walk_end(const void *p, const void *walk)
{
    const struct sg_walk *w = walk;
    return end_value_with(p, w->b.left);
}
