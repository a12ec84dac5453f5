/*
 * planes.h - whole SameGame playouts in bit planes (the `playout` slot), for
 * samegame.c only: it includes this file once, after the byte engine, whose
 * rules, gains and end value it reuses.
 *
 * A board of up to 15 rows and 16 columns is one 256-bit plane per colour:
 * four uint64_t, column c in word c / 4 as the 16-bit lane c % 4, row r (0 =
 * bottom) as bit r of its lane. Bit 15 of every lane stays 0, a guard, so a
 * shift by one row never carries into the next column. The playout is
 * played in the planes from start to end; only the line goes back out.
 *
 * Choosing a group uniformly without listing the groups. A group's anchor
 * (its move: its lowest cell c*rows + r) has no cell of its colour below it
 * or to its left, as both would have a lower index. So the cells with no
 * same-coloured neighbour below or to the left, in groups of at least
 * min_group, hold every group's anchor exactly once, and a few other cells
 * (the lower ends of a U-shaped group's arms). One such cell is drawn
 * uniformly; its group is flood-filled in its colour's plane; it is
 * accepted if the drawn cell is its anchor, else drawn again. Each draw
 * accepts each group with the same probability (1 / candidates), so the
 * accepted group is exactly uniform over the groups, as the generic loop's
 * uniform index into moves() is; and nearly every draw is accepted. The
 * tabu policy draws among the candidates of the other colours while there
 * are any, as sg_choose_tabu does among the moves.
 *
 * Three builds of the loop (planes_body.h): portable C, POPCNT, and POPCNT
 * with BMI2's pdep/pext (select a bit; gravity as pext then pdep), chosen at
 * load from the CPU, or by $PSOLVE_SAMEGAME_PLAYOUT (docs/samegame.md).
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SG_PLANES_X86 1
#include <immintrin.h>
#endif

#define SG_PLANE_ROWS 15
#define SG_PLANE_COLS 16
#define SG_PLANE_WORDS 4
#define SG_LANE 16
#define SG_LANE_MASK 0xFFFFull

struct sg_planes {
    uint64_t colour[SG_MAX_COLORS + 1][SG_PLANE_WORDS]; /* 1..colours */
    uint64_t occupied[SG_PLANE_WORDS];
    int count[SG_MAX_COLORS + 1];
    int colours, left;
};

/* Does the bit-plane engine play these rules on this board? */
static bool planes_fit(const struct sg_instance *in)
{
    return in->rows <= SG_PLANE_ROWS && in->cols <= SG_PLANE_COLS &&
           in->rules.min_group <= 2 && in->rules.shift != SG_SHIFT_RIGHT;
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

static void planes_from_state(const struct sg_instance *in, const void *state,
                              struct sg_planes *b)
{
    const uint8_t *cell = C_CELLS(in, state), *height = C_HEIGHTS(in, state);
    memset(b, 0, sizeof *b);
    b->colours = in->colours;
    b->left = *cells_left_of((void *)state);
    for (int k = 1; k <= in->colours; k++)
        b->count[k] = colour_count(state, k);
    for (int c = 0; c < in->cols; c++)
        for (int r = 0; r < height[c]; r++) {
            int k = cell[c * in->rows + r];
            uint64_t bit = 1ull << ((c & 3) * SG_LANE + r);
            b->colour[k][c >> 2] |= k ? bit : 0;
            b->occupied[c >> 2] |= k ? bit : 0;
        }
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

/* above: the cells whose upper neighbour has their colour; right: those
 * whose right neighbour has. */
static inline void planes_pairs(const struct sg_planes *b, uint64_t *above,
                                uint64_t *right)
{
    for (int i = 0; i < SG_PLANE_WORDS; i++)
        above[i] = right[i] = 0;
    for (int k = 1; k <= b->colours; k++) {
        const uint64_t *p = b->colour[k];
        for (int i = 0; i < SG_PLANE_WORDS; i++) {
            uint64_t next = i + 1 < SG_PLANE_WORDS ? p[i + 1] : 0;
            above[i] |= p[i] & (p[i] >> 1);
            right[i] |= p[i] & ((p[i] >> SG_LANE) | (next << 48));
        }
    }
}

/* The anchor candidates (see the top of the file); all zero: no move. */
static inline void planes_candidates(const struct sg_planes *b, int min_group,
                                     uint64_t *cand)
{
    uint64_t above[SG_PLANE_WORDS], right[SG_PLANE_WORDS];
    planes_pairs(b, above, right);
    for (int i = 0; i < SG_PLANE_WORDS; i++) {
        uint64_t prev = i ? right[i - 1] : 0;
        uint64_t below = above[i] << 1, left = (right[i] << SG_LANE) | (prev >> 48);
        uint64_t live = min_group <= 1 ? b->occupied[i] : above[i] | right[i];
        cand[i] = live & ~below & ~left;
    }
}

/* The group of bit `bit` of word q in plane p: dilate within p until it
 * stops growing. */
static inline void planes_flood(const uint64_t *p, int q, int bit, uint64_t *g)
{
    for (int i = 0; i < SG_PLANE_WORDS; i++)
        g[i] = 0;
    g[q] = 1ull << bit;
    for (bool grew = true; grew;) {
        uint64_t n[SG_PLANE_WORDS];
        grew = false;
        for (int i = 0; i < SG_PLANE_WORDS; i++) {
            uint64_t prev = i ? g[i - 1] : 0;
            uint64_t next = i + 1 < SG_PLANE_WORDS ? g[i + 1] : 0;
            n[i] = (g[i] | (g[i] << 1) | (g[i] >> 1) | (g[i] << SG_LANE) |
                    (g[i] >> SG_LANE) | (prev >> 48) | (next << 48)) &
                   p[i];
            grew |= n[i] != g[i];
        }
        for (int i = 0; i < SG_PLANE_WORDS; i++)
            g[i] = n[i];
    }
}

/* Is bit `bit` of word q the lowest bit of g (the group's anchor)? */
static inline bool planes_is_lowest(const uint64_t *g, int q, int bit)
{
    for (int i = 0; i < q; i++)
        if (g[i])
            return false;
    return (g[q] & ((1ull << bit) - 1)) == 0;
}

static inline int planes_colour_at(const struct sg_planes *b, int q, int bit)
{
    for (int k = 1; k < b->colours; k++)
        if (b->colour[k][q] >> bit & 1)
            return k;
    return b->colours;
}

/* Gravity in word i without pdep/pext: each removed bit, from the highest
 * down, lets the cells above it in its lane fall by one. */
static inline void planes_fall_by_bits(struct sg_planes *b, int i,
                                       uint64_t removed)
{
    b->occupied[i] &= ~removed;
    while (removed) {
        int bit = 63 - __builtin_clzll(removed);
        removed &= ~(1ull << bit);
        uint64_t lane = SG_LANE_MASK << (bit & ~(SG_LANE - 1));
        uint64_t upper = lane & (~1ull << bit);
        for (int k = 1; k <= b->colours; k++) {
            uint64_t x = b->colour[k][i];
            b->colour[k][i] = (x & ~upper) | ((x & upper) >> 1);
        }
        uint64_t x = b->occupied[i];
        b->occupied[i] = (x & ~upper) | ((x & upper) >> 1);
    }
}

/* Take lane (column) L out of plane w: the columns right of it move one
 * lane down, an empty one comes in at the right. */
static inline void planes_drop_lane(uint64_t *w, int L)
{
    int q = L >> 2, sh = (L & 3) * SG_LANE;
    uint64_t low_mask = (1ull << sh) - 1, low = w[q] & low_mask;
    for (int i = q; i < SG_PLANE_WORDS; i++) {
        uint64_t next = i + 1 < SG_PLANE_WORDS ? w[i + 1] : 0;
        w[i] = (w[i] >> SG_LANE) | (next << 48);
    }
    w[q] = (w[q] & ~low_mask) | low;
}

/* Close up the columns the group emptied (touched: a bit per lane). */
static inline void planes_close_columns(struct sg_planes *b, unsigned touched)
{
    while (touched) {
        int L = 31 - __builtin_clz(touched);
        touched &= ~(1u << L);
        if (b->occupied[L >> 2] >> ((L & 3) * SG_LANE) & SG_LANE_MASK)
            continue;
        for (int k = 1; k <= b->colours; k++)
            planes_drop_lane(b->colour[k], L);
        planes_drop_lane(b->occupied, L);
    }
}

/* The bit of each lane of word i that g touches, at bit 4i + lane. */
static inline unsigned planes_lanes_of(uint64_t g, int i)
{
    unsigned t = 0;
    for (int l = 0; l < 4; l++)
        t |= (g >> (l * SG_LANE) & SG_LANE_MASK) ? 1u << (4 * i + l) : 0u;
    return t;
}

static inline int popcount_portable(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
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

/* Gravity in word i in one step per plane: gather the cells that stay
 * (pext), put them back at the bottom of their lanes (pdep). */
__attribute__((target("popcnt,bmi2"))) static inline void
planes_fall_bmi2(struct sg_planes *b, int i, uint64_t removed)
{
    uint64_t keep = b->occupied[i] & ~removed, dest = keep;
    for (int l = 0; l < 4; l++) {
        uint64_t lane = SG_LANE_MASK << (l * SG_LANE);
        if (removed & lane) {
            int n = __builtin_popcountll(keep & lane);
            dest = (dest & ~lane) | (((1ull << n) - 1) << (l * SG_LANE));
        }
    }
    for (int k = 1; k <= b->colours; k++)
        b->colour[k][i] = _pdep_u64(_pext_u64(b->colour[k][i], keep), dest);
    b->occupied[i] = dest;
}
#endif

/* ---- the loop, once per instruction set ---- */

#define SG_FN(name) name##_portable
#define SG_TARGET
#define SG_POPCOUNT(x) popcount_portable(x)
#define SG_SELECT(x, j) SG_FN(select_by_halves)(x, j)
#define SG_FALL(b, i, removed) planes_fall_by_bits(b, i, removed)
#include "planes_body.h"

#ifdef SG_PLANES_X86
#define SG_FN(name) name##_popcnt
#define SG_TARGET __attribute__((target("popcnt")))
#define SG_POPCOUNT(x) popcount_popcnt(x)
#define SG_SELECT(x, j) SG_FN(select_by_halves)(x, j)
#define SG_FALL(b, i, removed) planes_fall_by_bits(b, i, removed)
#include "planes_body.h"

#define SG_FN(name) name##_bmi2
#define SG_TARGET __attribute__((target("popcnt,bmi2")))
#define SG_POPCOUNT(x) popcount_popcnt(x)
#define SG_SELECT(x, j) select_bmi2(x, j)
#define SG_FALL(b, i, removed) planes_fall_bmi2(b, i, removed)
#include "planes_body.h"
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
    planes_from_state(in, start, &b);
    bool tabu = policy != NULL;
    int len;
    ps_value gained;
    switch (in->engine) {
#ifdef SG_PLANES_X86
    case SG_ENGINE_BMI2:
        len = planes_playout_bmi2(in, &b, tabu, rng, line, &gained);
        break;
    case SG_ENGINE_POPCNT:
        len = planes_playout_popcnt(in, &b, tabu, rng, line, &gained);
        break;
#endif
    default:
        len = planes_playout_portable(in, &b, tabu, rng, line, &gained);
        break;
    }
    *length = len;
    *value = gained + end_value_with(in, b.left);
    return true;
}
