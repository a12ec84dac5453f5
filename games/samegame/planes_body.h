/*
 * planes_body.h - the bit-plane playout loop, written once and compiled once
 * per instruction set and geometry: planes.h includes it with
 *   SG_FN(name)     the name with the build's suffixes
 *   SG_TARGET       the build's function attribute (or nothing)
 *   SG_BMI2         1: gravity by pext/pdep
 *   SG_POPCOUNT(x)  bits set in a uint64_t
 *   SG_SELECT(x, j) the index of the j-th (from 0) set bit of x
 *   SG_LANE         bits per column: 16 (four words) or 32 (sixteen)
 * and undefines SG_LANE at the end. No include guard, on purpose.
 */
#define SG_WORDS (SG_LANE == 16 ? 4 : 16)
#define SG_PER_WORD (64 / SG_LANE)            /* columns per word */
#define SG_CARRY (64 - SG_LANE)               /* a lane across a word edge */
#define SG_MASK (~0ull >> (64 - SG_LANE))     /* one lane */
/* The words in use: the narrow geometry's four are a constant, so its loops
 * unroll; a wide board uses only the words its columns need. */
#define SG_USED(b) (SG_LANE == 16 ? 4 : (b)->words)

SG_TARGET static void SG_FN(from_state)(const struct sg_instance *in,
                                        const void *state, struct sg_planes *b)
{
    const uint8_t *cell = C_CELLS(in, state), *height = C_HEIGHTS(in, state);
    b->colours = in->colours;
    b->left = *cells_left_of((void *)state);
    b->words = (in->cols + SG_PER_WORD - 1) / SG_PER_WORD;
    const int nw = SG_USED(b);
    for (int i = 0; i < nw; i++)
        b->occupied[i] = 0;
    for (int k = 0; k <= in->colours; k++) {
        b->count[k] = k ? colour_count(state, k) : 0;
        for (int i = 0; i < nw; i++)
            b->colour[k][i] = 0;
    }
    for (int c = 0; c < in->cols; c++)
        for (int r = 0; r < height[c]; r++) {
            int k = cell[c * in->rows + r];
            uint64_t bit = k ? 1ull << ((c % SG_PER_WORD) * SG_LANE + r) : 0;
            b->colour[k][c / SG_PER_WORD] |= bit;
            b->occupied[c / SG_PER_WORD] |= bit;
        }
}

/* The anchor candidates (planes.h, at the top); all zero: no move. above
 * marks the cells whose upper neighbour has their colour, right those
 * whose right neighbour has; the cells marked, or whose lower / left
 * neighbour is, are those in groups of two or more. */
SG_TARGET static inline void SG_FN(candidates)(const struct sg_planes *b,
                                               int min_group, uint64_t *cand)
{
    const int nw = SG_USED(b);
    uint64_t above[SG_WORDS] = {0}, right[SG_WORDS] = {0};
    for (int k = 1; k <= b->colours; k++) {
        const uint64_t *p = b->colour[k];
        for (int i = 0; i < nw; i++) {
            uint64_t next = i + 1 < nw ? p[i + 1] : 0;
            above[i] |= p[i] & (p[i] >> 1);
            right[i] |= p[i] & ((p[i] >> SG_LANE) | (next << SG_CARRY));
        }
    }
    for (int i = 0; i < nw; i++) {
        uint64_t prev = i ? right[i - 1] : 0;
        uint64_t below = above[i] << 1;
        uint64_t left = (right[i] << SG_LANE) | (prev >> SG_CARRY);
        uint64_t live = min_group <= 1 ? b->occupied[i] : above[i] | right[i];
        cand[i] = live & ~below & ~left;
    }
}

/* The group of bit `bit` of word q in plane p: dilate within p until it
 * stops growing. */
SG_TARGET static inline void SG_FN(flood)(const uint64_t *p, int nw, int q,
                                          int bit, uint64_t *g)
{
    for (int i = 0; i < nw; i++)
        g[i] = 0;
    g[q] = 1ull << bit;
    for (bool grew = true; grew;) {
        uint64_t n[SG_WORDS];
        grew = false;
        for (int i = 0; i < nw; i++) {
            uint64_t prev = i ? g[i - 1] : 0;
            uint64_t next = i + 1 < nw ? g[i + 1] : 0;
            n[i] = (g[i] | (g[i] << 1) | (g[i] >> 1) | (g[i] << SG_LANE) |
                    (g[i] >> SG_LANE) | (prev >> SG_CARRY) |
                    (next << SG_CARRY)) &
                   p[i];
            grew |= n[i] != g[i];
        }
        for (int i = 0; i < nw; i++)
            g[i] = n[i];
    }
}

/* Is bit `bit` of word q the lowest bit of g (the group's anchor)? */
SG_TARGET static inline bool SG_FN(is_lowest)(const uint64_t *g, int q, int bit)
{
    for (int i = 0; i < q; i++)
        if (g[i])
            return false;
    return (g[q] & ((1ull << bit) - 1)) == 0;
}

SG_TARGET static inline int SG_FN(colour_at)(const struct sg_planes *b, int q,
                                             int bit)
{
    for (int k = 1; k < b->colours; k++)
        if (b->colour[k][q] >> bit & 1)
            return k;
    return b->colours;
}

#if SG_BMI2
/* Gravity in word i in one step per plane: gather the cells that stay
 * (pext), put them back at the bottom of their lanes (pdep). */
SG_TARGET static inline void SG_FN(fall)(struct sg_planes *b, int i,
                                         uint64_t removed)
{
    uint64_t keep = b->occupied[i] & ~removed, dest = keep;
    for (int l = 0; l < SG_PER_WORD; l++) {
        uint64_t lane = SG_MASK << (l * SG_LANE);
        if (removed & lane) {
            int n = SG_POPCOUNT(keep & lane);
            dest = (dest & ~lane) | (((1ull << n) - 1) << (l * SG_LANE));
        }
    }
    for (int k = 1; k <= b->colours; k++)
        b->colour[k][i] = _pdep_u64(_pext_u64(b->colour[k][i], keep), dest);
    b->occupied[i] = dest;
}
#else
/* Gravity in word i without pdep/pext: each removed bit, from the highest
 * down, lets the cells above it in its lane fall by one. */
SG_TARGET static inline void SG_FN(fall)(struct sg_planes *b, int i,
                                         uint64_t removed)
{
    b->occupied[i] &= ~removed;
    while (removed) {
        int bit = 63 - __builtin_clzll(removed);
        removed &= ~(1ull << bit);
        uint64_t lane = SG_MASK << (bit & ~(SG_LANE - 1));
        uint64_t upper = lane & (~1ull << bit);
        for (int k = 1; k <= b->colours; k++) {
            uint64_t x = b->colour[k][i];
            b->colour[k][i] = (x & ~upper) | ((x & upper) >> 1);
        }
        uint64_t x = b->occupied[i];
        b->occupied[i] = (x & ~upper) | ((x & upper) >> 1);
    }
}
#endif

/* Take lane (column) L out of plane w: the columns right of it move one
 * lane down, an empty one comes in at the right. */
SG_TARGET static inline void SG_FN(drop_lane)(uint64_t *w, int nw, int L)
{
    int q = L / SG_PER_WORD, sh = (L % SG_PER_WORD) * SG_LANE;
    uint64_t low_mask = (1ull << sh) - 1, low = w[q] & low_mask;
    for (int i = q; i < nw; i++) {
        uint64_t next = i + 1 < nw ? w[i + 1] : 0;
        w[i] = (w[i] >> SG_LANE) | (next << SG_CARRY);
    }
    w[q] = (w[q] & ~low_mask) | low;
}

/* The same for the shift right: the columns left of L move one lane up,
 * an empty one comes in at the left. */
SG_TARGET static inline void SG_FN(drop_lane_right)(uint64_t *w, int L)
{
    int q = L / SG_PER_WORD, sh = (L % SG_PER_WORD) * SG_LANE;
    uint64_t low_mask = (1ull << sh) - 1;
    uint64_t high = w[q] & ~low_mask & ~(SG_MASK << sh); /* lanes above L */
    uint64_t prev = q ? w[q - 1] : 0;
    w[q] = high | ((w[q] & low_mask) << SG_LANE) | (prev >> SG_CARRY);
    for (int i = q - 1; i >= 0; i--) {
        prev = i ? w[i - 1] : 0;
        w[i] = (w[i] << SG_LANE) | (prev >> SG_CARRY);
    }
}

/* Close up the columns the group emptied (touched: a bit per lane): to
 * the left from the highest, so the lower indices stay valid, or to the
 * right from the lowest. */
SG_TARGET static inline void SG_FN(close_columns)(struct sg_planes *b,
                                                  uint32_t touched, bool right)
{
    while (touched) {
        int L = right ? __builtin_ctz(touched) : 31 - __builtin_clz(touched);
        touched &= ~(1u << L);
        uint64_t word = b->occupied[L / SG_PER_WORD];
        if (word >> ((L % SG_PER_WORD) * SG_LANE) & SG_MASK)
            continue;
        for (int k = 1; k <= b->colours; k++) {
            if (right)
                SG_FN(drop_lane_right)(b->colour[k], L);
            else
                SG_FN(drop_lane)(b->colour[k], SG_USED(b), L);
        }
        if (right)
            SG_FN(drop_lane_right)(b->occupied, L);
        else
            SG_FN(drop_lane)(b->occupied, SG_USED(b), L);
    }
}

/* SG_SELECT by halves, with this build's popcount. */
SG_TARGET static inline int SG_FN(select_by_halves)(uint64_t x, unsigned j)
{
    int base = 0;
    for (int width = 32; width >= 8; width /= 2) {
        uint64_t low = x & ((1ull << width) - 1);
        unsigned n = (unsigned)SG_POPCOUNT(low);
        if (j >= n) {
            j -= n;
            x >>= width;
            base += width;
        } else {
            x = low;
        }
    }
    for (; j; j--)
        x &= x - 1;
    return base + __builtin_ctzll(x);
}

/* Draw a group uniformly among those of at least min_group cells whose
 * anchors are in cand (which it uses up): a candidate uniformly, accepted
 * if it is its group's anchor and the group is large enough. A rejected
 * candidate leaves cand, and a small group's cells all leave it: the
 * accepting candidates stay, each as likely as any other at every draw, so
 * the one accepted is uniform among them. False when none is left. */
SG_TARGET static inline bool SG_FN(draw)(const struct sg_planes *b, int nw,
                                         int min_group, uint64_t *cand,
                                         struct ps_rng *rng, uint64_t *g,
                                         int *q_out, int *bit_out, int *k_out,
                                         int *size_out)
{
    unsigned in_word[SG_WORDS], all = 0;
    for (int i = 0; i < nw; i++)
        all += in_word[i] = (unsigned)SG_POPCOUNT(cand[i]);
    while (all) {
        unsigned j = ps_rng_below(rng, all);
        int q = 0;
        for (; j >= in_word[q]; q++)
            j -= in_word[q];
        int bit = SG_SELECT(cand[q], j);
        int k = SG_FN(colour_at)(b, q, bit), size = 0;
        SG_FN(flood)(b->colour[k], nw, q, bit, g);
        for (int i = 0; i < nw; i++)
            size += SG_POPCOUNT(g[i]);
        if (size >= min_group && SG_FN(is_lowest)(g, q, bit)) {
            *q_out = q;
            *bit_out = bit;
            *k_out = k;
            *size_out = size;
            return true;
        }
        if (size >= min_group) { /* not the anchor */
            cand[q] &= ~(1ull << bit);
            in_word[q]--;
            all--;
            continue;
        }
        all = 0;
        for (int i = 0; i < nw; i++) {
            cand[i] &= ~g[i];
            all += in_word[i] = (unsigned)SG_POPCOUNT(cand[i]);
        }
    }
    return false;
}

/* Play from `start` (converted into b) to the end; the line goes to line[],
 * the gains to *gained; returns its length. b is left at the end. */
SG_TARGET static int SG_FN(planes_playout)(const struct sg_instance *in,
                                           const void *start,
                                           struct sg_planes *b, bool tabu,
                                           struct ps_rng *rng, ps_move *line,
                                           ps_value *gained)
{
    const int min_group = (int)in->rules.min_group, R = in->rows;
    const bool gravity = in->rules.gravity;
    const bool shift = in->rules.shift != SG_SHIFT_NONE;
    const bool right = in->rules.shift == SG_SHIFT_RIGHT;
    ps_value total = 0;
    int len = 0;
    SG_FN(from_state)(in, start, b);
    const int nw = SG_USED(b);
    for (;;) {
        uint64_t cand[SG_WORDS], g[SG_WORDS];
        int q, bit, k, size;
        SG_FN(candidates)(b, min_group, cand);
        bool found;
        if (tabu) {
            /* the other colours' groups; if they have none, the tabu
             * colour's (the only ones left) */
            const uint64_t *avoid = b->colour[planes_most_frequent(b)];
            uint64_t other[SG_WORDS];
            for (int i = 0; i < nw; i++) {
                other[i] = cand[i] & ~avoid[i];
                cand[i] &= avoid[i];
            }
            found = SG_FN(draw)(b, nw, min_group, other, rng, g, &q, &bit, &k,
                                &size) ||
                    SG_FN(draw)(b, nw, min_group, cand, rng, g, &q, &bit, &k,
                                &size);
        } else {
            found = SG_FN(draw)(b, nw, min_group, cand, rng, g, &q, &bit, &k,
                                &size);
        }
        if (!found)
            break;
        uint32_t touched = 0;
        for (int i = 0; i < nw; i++) {
            for (int l = 0; l < SG_PER_WORD; l++)
                touched |= (g[i] >> (l * SG_LANE) & SG_MASK)
                               ? 1u << (SG_PER_WORD * i + l)
                               : 0u;
            b->colour[k][i] &= ~g[i];
        }
        int col = q * SG_PER_WORD + bit / SG_LANE;
        line[len++] = (ps_move)(col * R + bit % SG_LANE);
        total += sg_gain(&in->rules, size);
        b->count[k] -= size;
        b->left -= size;
        for (int i = 0; i < nw; i++) {
            if (!g[i])
                continue;
            if (gravity)
                SG_FN(fall)(b, i, g[i]);
            else
                b->occupied[i] &= ~g[i];
        }
        if (shift)
            SG_FN(close_columns)(b, touched, right);
    }
    *gained = total;
    return len;
}

#undef SG_WORDS
#undef SG_PER_WORD
#undef SG_CARRY
#undef SG_MASK
#undef SG_USED
#undef SG_LANE
