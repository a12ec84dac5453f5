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
#ifdef SG_PLANES_X86
    /* SSE2 (every x86-64): a column's bytes against each colour at once,
     * read in place where the state has 16 (32) bytes from the column's
     * start, else from a copy of the column. */
    {
        const int R = in->rows;
        const size_t room = in->state_size - (size_t)(cell - (const uint8_t *)state);
        uint8_t last[32] = {0};
        const uint64_t rows = (1ull << R) - 1;
        for (int c = 0; c < in->cols; c++) {
            if (!height[c])
                continue;
            const uint8_t *col = cell + c * R;
            if ((size_t)(c * R) + (SG_LANE == 32 ? 32 : 16) > room) {
                memcpy(last, col, (size_t)R);
                col = last;
            }
            __m128i lo = _mm_loadu_si128((const __m128i *)col);
            __m128i hi = SG_LANE == 32
                             ? _mm_loadu_si128((const __m128i *)(col + 16))
                             : _mm_setzero_si128();
            const int q = c / SG_PER_WORD;
            const int sh = (c % SG_PER_WORD) * SG_LANE;
            uint64_t any = 0;
            for (int k = 1; k <= in->colours; k++) {
                __m128i kk = _mm_set1_epi8((char)k);
                uint64_t m =
                    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, kk));
                if (SG_LANE == 32)
                    m |= (uint64_t)(unsigned)_mm_movemask_epi8(
                             _mm_cmpeq_epi8(hi, kk))
                         << 16;
                m &= rows;
                any |= m;
                b->colour[k][q] |= m << sh;
            }
            b->occupied[q] |= any << sh;
        }
        return;
    }
#endif
    for (int c = 0; c < in->cols; c++)
        for (int r = 0; r < height[c]; r++) {
            int k = cell[c * in->rows + r];
            uint64_t bit = k ? 1ull << ((c % SG_PER_WORD) * SG_LANE + r) : 0;
            b->colour[k][c / SG_PER_WORD] |= bit;
            b->occupied[c / SG_PER_WORD] |= bit;
        }
}

/* above[]: the cells whose upper neighbour has their colour; right[]: the
 * cells whose right neighbour has it. */
SG_TARGET static inline void SG_FN(same_neighbours)(const struct sg_planes *b,
                                                    uint64_t *above,
                                                    uint64_t *right)
{
    const int nw = SG_USED(b);
    for (int i = 0; i < nw; i++)
        above[i] = right[i] = 0;
    for (int k = 1; k <= b->colours; k++) {
        const uint64_t *p = b->colour[k];
        for (int i = 0; i < nw; i++) {
            uint64_t next = i + 1 < nw ? p[i + 1] : 0;
            above[i] |= p[i] & (p[i] >> 1);
            right[i] |= p[i] & ((p[i] >> SG_LANE) | (next << SG_CARRY));
        }
    }
}

/* The anchor candidates (planes.h, at the top); all zero: no move. above
 * marks the cells whose upper neighbour has their colour, right those
 * whose right neighbour has; the cells marked, or whose lower / left
 * neighbour is, are those in groups of two or more. */
SG_TARGET static inline void SG_FN(candidates_live)(const struct sg_planes *b,
                                                    int min_group,
                                                    uint64_t *cand,
                                                    uint64_t *live_out)
{
    const int nw = SG_USED(b);
    uint64_t above[SG_WORDS], right[SG_WORDS];
    SG_FN(same_neighbours)(b, above, right);
    for (int i = 0; i < nw; i++) {
        uint64_t prev = i ? right[i - 1] : 0;
        uint64_t below = above[i] << 1;
        uint64_t left = (right[i] << SG_LANE) | (prev >> SG_CARRY);
        uint64_t live = min_group <= 1 ? b->occupied[i]
                                       : above[i] | right[i] | below | left;
        cand[i] = live & ~below & ~left;
        if (live_out)
            live_out[i] = live;
    }
}

SG_TARGET static inline void SG_FN(candidates)(const struct sg_planes *b,
                                               int min_group, uint64_t *cand)
{
    SG_FN(candidates_live)(b, min_group, cand, NULL);
}

/* x (cells of p) grown within word p to the cells of p it reaches there. */
SG_TARGET static inline uint64_t SG_FN(grow_in_word)(uint64_t x, uint64_t p)
{
    for (;;) {
        uint64_t n =
            (x | (x << 1) | (x >> 1) | (x << SG_LANE) | (x >> SG_LANE)) & p;
        if (n == x)
            return x;
        x = n;
    }
}

/* Does x, cells of word q of plane p, touch cells of p in the words beside? */
SG_TARGET static inline bool SG_FN(leaves_word)(const uint64_t *p, int nw,
                                                int q, uint64_t x)
{
    return (q > 0 && (((x & SG_MASK) << SG_CARRY) & p[q - 1])) ||
           (q + 1 < nw && ((x >> SG_CARRY) & p[q + 1]));
}

/* g (of plane p, grown within its words) grown across the words from word
 * q, the only one that may touch cells of p it lacks in the words beside:
 * while a word's part of it does, grown within that word from them. */
SG_TARGET static inline void SG_FN(spread)(const uint64_t *p, int nw, int q,
                                           uint64_t *g)
{
    uint32_t spread = 1u << q; /* words whose part may reach a neighbour */
    while (spread) {
        const int i = __builtin_ctz(spread);
        spread &= spread - 1;
        if (i > 0) {
            uint64_t in = ((g[i] & SG_MASK) << SG_CARRY) & p[i - 1] & ~g[i - 1];
            if (in) {
                g[i - 1] = SG_FN(grow_in_word)(g[i - 1] | in, p[i - 1]);
                spread |= 1u << (i - 1);
            }
        }
        if (i + 1 < nw) {
            uint64_t in = (g[i] >> SG_CARRY) & p[i + 1] & ~g[i + 1];
            if (in) {
                g[i + 1] = SG_FN(grow_in_word)(g[i + 1] | in, p[i + 1]);
                spread |= 1u << (i + 1);
            }
        }
    }
}

/* The group of bit `bit` of word q in plane p: grown within word q, then
 * across the words (spread). Most groups never leave word q; one that does
 * crosses a word edge a time or two. */
SG_TARGET static inline void SG_FN(flood)(const uint64_t *p, int nw, int q,
                                          int bit, uint64_t *g)
{
    for (int i = 0; i < nw; i++)
        g[i] = 0;
    g[q] = SG_FN(grow_in_word)(1ull << bit, p[q]);
    SG_FN(spread)(p, nw, q, g);
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
SG_TARGET static inline int SG_FN(close_columns)(struct sg_planes *b,
                                                 uint32_t touched, bool right)
{
    int closed = 0;
    while (touched) {
        int L = right ? __builtin_ctz(touched) : 31 - __builtin_clz(touched);
        touched &= ~(1u << L);
        uint64_t word = b->occupied[L / SG_PER_WORD];
        if (word >> ((L % SG_PER_WORD) * SG_LANE) & SG_MASK)
            continue;
        closed++;
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
    return closed;
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

/* The move (cell index c * rows + r) of bit `bit` of word q. */
SG_TARGET static inline ps_move SG_FN(anchor_move)(int R, int q, int bit)
{
    int col = q * SG_PER_WORD + bit / SG_LANE;
    return (ps_move)(col * R + bit % SG_LANE);
}

/* Take group g (size cells of colour k) off b: gravity, then the columns
 * it emptied close up, as the rules say; returns how many closed up. */
SG_TARGET static inline int SG_FN(remove)(const struct sg_instance *in,
                                           struct sg_planes *b,
                                           const uint64_t *g, int k, int size)
{
    const int nw = SG_USED(b);
    uint32_t touched = 0;
    for (int i = 0; i < nw; i++) {
        if (!g[i])
            continue;
        for (int l = 0; l < SG_PER_WORD; l++)
            touched |= (g[i] >> (l * SG_LANE) & SG_MASK)
                           ? 1u << (SG_PER_WORD * i + l)
                           : 0u;
        b->colour[k][i] &= ~g[i];
    }
    b->count[k] -= size;
    b->left -= size;
    for (int i = 0; i < nw; i++) {
        if (!g[i])
            continue;
        if (in->rules.gravity)
            SG_FN(fall)(b, i, g[i]);
        else
            b->occupied[i] &= ~g[i];
    }
    if (in->rules.shift == SG_SHIFT_NONE)
        return 0;
    return SG_FN(close_columns)(b, touched, in->rules.shift == SG_SHIFT_RIGHT);
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
        line[len++] = SG_FN(anchor_move)(R, q, bit);
        total += sg_gain(&in->rules, size, k);
        SG_FN(remove)(in, b, g, k, size);
    }
    *gained = total;
    return len;
}

/* ---- listing every group (moves, beam, dfs, nrpa) ---- */

/* The anchors of the groups of exactly two cells: a cell whose only
 * same-coloured neighbour is the one above it or the one to its right,
 * that neighbour having no other. */
SG_TARGET static inline void SG_FN(pairs)(const struct sg_planes *b,
                                          uint64_t *pair)
{
    const int nw = SG_USED(b);
    uint64_t above[SG_WORDS], right[SG_WORDS];
    SG_FN(same_neighbours)(b, above, right);
    uint64_t one[SG_WORDS]; /* exactly one same-coloured neighbour */
    for (int i = 0; i < nw; i++) {
        uint64_t prev = i ? right[i - 1] : 0;
        uint64_t below = above[i] << 1;
        uint64_t left = (right[i] << SG_LANE) | (prev >> SG_CARRY);
        uint64_t a = above[i], r = right[i];
        uint64_t odd = a ^ below ^ r ^ left;
        uint64_t two = (a & below) | (a & r) | (a & left) | (below & r) |
                       (below & left) | (r & left);
        one[i] = odd & ~two;
    }
    for (int i = 0; i < nw; i++) {
        uint64_t next = i + 1 < nw ? one[i + 1] : 0;
        uint64_t one_right = (one[i] >> SG_LANE) | (next << SG_CARRY);
        pair[i] = one[i] & ((above[i] & (one[i] >> 1)) | (right[i] & one_right));
    }
}

/* Entry j of `from` into entry n of `to`, its columns moved by d (and its
 * move and code with them: R rows a column). */
SG_TARGET static inline void SG_FN(copy)(struct sg_listed *to, int n,
                                         const struct sg_listed *from, int j,
                                         int d, int R)
{
    struct sg_group x = from->g[j];
    x.move += (ps_move)(d * R);
    x.code += (uint32_t)(d * R * SG_SHAPES);
    x.col = (uint8_t)(x.col + d);
    x.maxcol = (uint8_t)(x.maxcol + d);
    to->g[n] = x;
}

/* sg_move_codes' code of a group. */
SG_TARGET static inline uint32_t SG_FN(code)(const struct sg_instance *in,
                                             const struct sg_group *x)
{
    return ((uint32_t)(x->colour - 1) * (uint32_t)in->ncells + x->move) *
               SG_SHAPES +
           x->shape;
}

/* Put the group g (size cells of colour k, anchor bit `bit` of word q) in
 * L as entry n: its move, size, colour, columns and the anchor's shape bits
 * (its upper and right neighbours in the group: sg_move_codes). */
SG_TARGET static inline void SG_FN(record)(const struct sg_instance *in,
                                           struct sg_listed *L, int n, int nw,
                                           int q, int bit, int k, int size,
                                           const uint64_t *g)
{
    int rbit = bit + SG_LANE, rq = q;
    if (rbit >= 64) {
        rbit -= 64;
        rq++;
    }
    uint32_t up = (uint32_t)(g[q] >> (bit + 1) & 1);
    uint32_t rt = rq < nw ? (uint32_t)(g[rq] >> rbit & 1) : 0;
    int top = nw - 1;
    while (!g[top])
        top--;
    L->g[n].move = SG_FN(anchor_move)(in->rows, q, bit);
    L->g[n].size = (uint16_t)size;
    L->g[n].colour = (uint8_t)k;
    L->g[n].col = (uint8_t)(q * SG_PER_WORD + bit / SG_LANE);
    L->g[n].row = (uint8_t)(bit % SG_LANE);
    L->g[n].maxcol =
        (uint8_t)(top * SG_PER_WORD + (63 - __builtin_clzll(g[top])) / SG_LANE);
    L->g[n].shape = (uint8_t)(up + 2 * rt);
    L->g[n].code = SG_FN(code)(in, &L->g[n]);
}

/* sg_cell_codes' hash of group g of colour k. */
SG_TARGET static inline uint64_t SG_FN(cells_hash)(int R, int nw, int k,
                                                   const uint64_t *g)
{
    uint64_t h = ps_hash_mix((uint64_t)k);
    for (int i = 0; i < nw; i++)
        for (uint64_t x = g[i]; x; x &= x - 1)
            h += ps_hash_mix(
                (uint64_t)SG_FN(anchor_move)(R, i, __builtin_ctzll(x)) + 1);
    return ps_hash_mix(h);
}

/* Every group of at least min_group cells of b, in the order of their
 * anchors (sg_moves' order: column-major, bottom first), into L; the cells
 * in no such group counted per colour in L->loose. A cell with no
 * same-coloured neighbour below or to the left that is the lowest cell
 * not yet in a listed group is its group's anchor: the candidates are
 * taken lowest first, and each fill takes its whole group out. With
 * want_hash, L->hash[i] is sg_cell_codes' hash of group i's cells; with
 * lab, the listed groups' cells are labelled with their entries. */
SG_TARGET static int SG_FN(list)(const struct sg_instance *in,
                                 const struct sg_planes *b, struct sg_listed *L,
                                 bool want_hash, struct sg_labels *lab)
{
    const int nw = SG_USED(b), min_group = (int)in->rules.min_group;
    uint64_t cand[SG_WORDS], live[SG_WORDS], g[SG_WORDS];
    SG_FN(candidates_live)(b, min_group, cand, live);
    for (int i = 0; lab && i < nw; i++)
        lab->in[i] = 0;
    if (lab)
        lab->used = 0;
    for (int k = 0; k <= SG_MAX_COLORS; k++)
        L->loose[k] = 0;
    if (min_group > 1)
        for (int k = 1; k <= b->colours; k++)
            for (int i = 0; i < nw; i++)
                L->loose[k] += SG_POPCOUNT(b->colour[k][i] & ~live[i]);
    /* The groups of exactly two cells need no fill: an anchor whose one
     * same-coloured neighbour (above or to the right) has no other. */
    uint64_t pair[SG_WORDS] = {0};
    if (!want_hash)
        SG_FN(pairs)(b, pair);
    int n = 0;
    for (int q = 0; q < nw; q++) {
        while (cand[q]) {
            int bit = __builtin_ctzll(cand[q]);
            int k = SG_FN(colour_at)(b, q, bit), size = 0;
            cand[q] &= cand[q] - 1;
            if (pair[q] >> bit & 1) {
                if (min_group > 2) {
                    L->loose[k] += 2;
                    continue;
                }
                bool up = b->colour[k][q] >> (bit + 1) & 1;
                int col = q * SG_PER_WORD + bit / SG_LANE;
                L->g[n].move = SG_FN(anchor_move)(in->rows, q, bit);
                L->g[n].size = 2;
                L->g[n].colour = (uint8_t)k;
                L->g[n].col = (uint8_t)col;
                L->g[n].row = (uint8_t)(bit % SG_LANE);
                L->g[n].maxcol = (uint8_t)(up ? col : col + 1);
                L->g[n].shape = up ? 1 : 2;
                L->g[n].code = SG_FN(code)(in, &L->g[n]);
                if (lab) {
                    /* the other cell: above, or right (maybe next word) */
                    const int other = bit + (up ? 1 : SG_LANE);
                    const uint64_t w[2] = {
                        1ull << bit | (other < 64 ? 1ull << other : 0),
                        other < 64 ? 0 : 1ull << (other - 64)};
                    sg_label(lab, n, w, q, other < 64 ? q : q + 1);
                }
                n++;
                continue;
            }
            SG_FN(flood)(b->colour[k], nw, q, bit, g);
            for (int i = q; i < nw; i++) {
                size += SG_POPCOUNT(g[i]);
                cand[i] &= ~g[i];
            }
            if (size < min_group) {
                L->loose[k] += size;
                continue;
            }
            SG_FN(record)(in, L, n, nw, q, bit, k, size, g);
            if (want_hash)
                L->hash[n] = SG_FN(cells_hash)(in->rows, nw, k, g);
            if (lab) {
                int top = nw - 1;
                while (!g[top])
                    top--;
                sg_label(lab, n, g + q, q, top);
            }
            n++;
        }
    }
    L->n = n;
    return n;
}

/* Remove listed group i of L from b (a move of sg_walk); the number of
 * columns it emptied (that closed up, under a shift) to *emptied. */
SG_TARGET static void SG_FN(play_listed)(const struct sg_instance *in,
                                         struct sg_planes *b,
                                         const struct sg_listed *L, int i,
                                         int *emptied)
{
    uint64_t g[SG_WORDS];
    int k = L->g[i].colour, col = L->g[i].col;
    const int nw = SG_USED(b);
    SG_FN(flood)(b->colour[k], nw, col / SG_PER_WORD,
                 (col % SG_PER_WORD) * SG_LANE + L->g[i].row, g);
    *emptied = SG_FN(remove)(in, b, g, k, L->g[i].size);
}

/* The lanes of columns lo..hi in word i. */
SG_TARGET static inline uint64_t SG_FN(lanes)(int i, int lo, int hi)
{
    int a = lo - i * SG_PER_WORD, z = hi - i * SG_PER_WORD;
    a = a < 0 ? 0 : a;
    z = z > SG_PER_WORD - 1 ? SG_PER_WORD - 1 : z;
    if (a > z)
        return 0;
    return (~0ull >> (64 - (z - a + 1) * SG_LANE)) << (a * SG_LANE);
}

/* The groups of b with a cell in columns lo..hi, into F (unsorted), and
 * their order by anchor in ord[]; their number. */
SG_TARGET static int SG_FN(found)(const struct sg_instance *in,
                                  const struct sg_planes *b, int lo, int hi,
                                  struct sg_listed *F, int *ord)
{
    const int nw = SG_USED(b), min_group = (int)in->rules.min_group;
    lo = lo < 0 ? 0 : lo;
    hi = hi > in->cols - 1 ? in->cols - 1 : hi;
    if (lo > hi)
        return 0;
    int nf = 0;
    uint64_t cand[SG_WORDS], live[SG_WORDS], todo[SG_WORDS], g[SG_WORDS];
    SG_FN(candidates_live)(b, min_group, cand, live);
    for (int i = 0; i < nw; i++)
        todo[i] = live[i] & SG_FN(lanes)(i, lo, hi);
    for (int q = 0; q < nw; q++)
        while (todo[q]) {
            int bit = __builtin_ctzll(todo[q]);
            int k = SG_FN(colour_at)(b, q, bit), size = 0;
            SG_FN(flood)(b->colour[k], nw, q, bit, g);
            int aq = -1;
            for (int i = 0; i < nw; i++) {
                size += SG_POPCOUNT(g[i]);
                todo[i] &= ~g[i];
                if (aq < 0 && g[i])
                    aq = i;
            }
            if (size < min_group)
                continue;
            SG_FN(record)(in, F, nf, nw, aq, __builtin_ctzll(g[aq]), k, size, g);
            int j = nf;
            for (; j > 0 && F->g[ord[j - 1]].move > F->g[nf].move; j--)
                ord[j] = ord[j - 1];
            ord[j] = nf++;
        }
    return nf;
}

/* The groups after move `played` of `old` (its listing) was played on b,
 * into L, as list() would give them (no loose counts, no hashes),
 * relisting only near the columns the move changed. The move's group
 * spanned columns cmin..cmax and emptied e of them. A group of the old
 * listing that lay wholly left of cmin - 1 or right of cmax + 1 is still a
 * group, the same cells shifted by the columns that closed up on its side
 * (dl, dr: cells fall only in cmin..cmax; cmin - 1 and cmax + 1 are the
 * columns whose neighbours change); every other group has a cell in the
 * window of columns that cmin - 1 .. cmax + 1 became, and is found again
 * by filling from its cells there. The kept groups on the left, and those
 * found, come before the kept ones on the right in anchor order. scratch:
 * room for the groups found. */
SG_TARGET static int SG_FN(relist)(const struct sg_instance *in,
                                   const struct sg_planes *b,
                                   const struct sg_listed *old, int played,
                                   int e, struct sg_listed *L,
                                   struct sg_listed *scratch)
{
    const int R = in->rows;
    SG_WINDOW(in, old, played, e);
    struct sg_listed *F = scratch;
    int ord[SG_MAX_CELLS + 1];
    const int nf = SG_FN(found)(in, b, lo, hi, F, ord);
    /* the kept groups on the right are the old list's tail */
    int tail = old->n;
    while (tail > 0 && old->g[tail - 1].col > cmax + 1)
        tail--;
    int n = 0, f = 0;
    for (int j = 0; j < tail; j++)
        if (old->g[j].maxcol < cmin - 1) {
            ps_move m = old->g[j].move + (ps_move)(dl * R);
            for (; f < nf && F->g[ord[f]].move < m; f++)
                L->g[n++] = F->g[ord[f]];
            SG_FN(copy)(L, n++, old, j, dl, R);
        }
    for (; f < nf; f++)
        L->g[n++] = F->g[ord[f]];
    memcpy(L->g + n, old->g + tail, (size_t)(old->n - tail) * sizeof *L->g);
    if (dr)
        for (int j = n; j < n + old->n - tail; j++)
            SG_FN(copy)(L, j, L, j, dr, R);
    n += old->n - tail;
    L->n = n;
    return n;
}

/* b into c: the words and counts in use. */
SG_TARGET static inline void SG_FN(copy_planes)(struct sg_planes *c,
                                                const struct sg_planes *b)
{
    const int nw = SG_USED(b);
    c->colours = b->colours;
    c->left = b->left;
    c->words = b->words;
    for (int i = 0; i < nw; i++)
        c->occupied[i] = b->occupied[i];
    for (int k = 0; k <= b->colours; k++) {
        c->count[k] = b->count[k];
        for (int i = 0; i < nw; i++)
            c->colour[k][i] = b->colour[k][i];
    }
}

/* Into t, the groups of b with a cell in area (its words qlo..qhi), as
 * found() would find them, counted (sg_tally_group) but not listed. A cell
 * starts a fill if it is in area and, unless min_group is 1, has a
 * neighbour of its colour (a group of one is never counted then); each
 * fill takes its group out of what is left to start from. */
SG_TARGET static void SG_FN(tally_area)(const struct sg_instance *in,
                                        const struct sg_planes *b,
                                        const uint64_t *area, int qlo, int qhi,
                                        struct sg_tally *t)
{
    const int nw = SG_USED(b), min_group = (int)in->rules.min_group;
    uint64_t done[SG_WORDS]; /* cells of the groups found from earlier words */
    for (int i = qlo; i <= qhi; i++)
        done[i] = 0;
    for (int q = qlo; q <= qhi; q++) {
        uint64_t todo = b->occupied[q] & area[q] & ~done[q];
        if (min_group > 1 && todo) {
            uint64_t paired = 0; /* cells with a neighbour of their colour */
            for (int k = 1; k <= b->colours; k++) {
                const uint64_t *p = b->colour[k];
                uint64_t prev = q ? p[q - 1] : 0;
                uint64_t next = q + 1 < nw ? p[q + 1] : 0;
                paired |= p[q] & ((p[q] << 1) | (p[q] >> 1) | (p[q] << SG_LANE) |
                                  (p[q] >> SG_LANE) | (prev >> SG_CARRY) |
                                  (next << SG_CARRY));
            }
            todo &= paired;
        }
        while (todo) {
            const int k = SG_FN(colour_at)(b, q, __builtin_ctzll(todo));
            const uint64_t *p = b->colour[k];
            /* within word q first: most groups never leave it */
            uint64_t x = SG_FN(grow_in_word)(todo & -todo, p[q]);
            int size = 0;
            if (SG_FN(leaves_word)(p, nw, q, x)) {
                uint64_t g[SG_WORDS];
                for (int i = 0; i < nw; i++)
                    g[i] = i == q ? x : 0;
                SG_FN(spread)(p, nw, q, g);
                for (int i = 0; i < nw; i++)
                    size += SG_POPCOUNT(g[i]);
                for (int i = q + 1; i <= qhi; i++)
                    done[i] |= g[i];
                x = g[q];
            } else {
                size = SG_POPCOUNT(x);
            }
            todo &= ~x;
            if (size < min_group)
                continue;
            t->gained[k] += sg_gain(&in->rules, size, k);
            t->grouped[k] += size;
            t->groups[k]++;
        }
    }
}

/* Out of t, the groups of L (labelled in lab) with a cell in area (its
 * words qlo..qhi); seen[j] == stamp once group j is out. */
SG_TARGET static void SG_FN(untally_area)(const struct sg_instance *in,
                                          const struct sg_listed *L,
                                          const struct sg_labels *lab,
                                          const uint64_t *area, int qlo,
                                          int qhi, int *seen, int stamp,
                                          struct sg_tally *t)
{
    for (int i = qlo; i <= qhi; i++)
        for (uint64_t x = area[i] & lab->in[i]; x;) {
            const int j = lab->of[i * 64 + __builtin_ctzll(x)];
            x &= ~lab->cells[lab->at[j] + i];
            if (seen[j] != stamp) {
                seen[j] = stamp;
                sg_tally_group(in, t, &L->g[j], -1);
            }
        }
}

/* The cells of each lane of x from its lowest cell of x up: those that go
 * or fall when x goes, under gravity. */
SG_TARGET static inline uint64_t SG_FN(lanes_up)(uint64_t x)
{
    for (int s = 1; s < SG_LANE; s *= 2) {
        /* per lane, the bits at s and above: a shift by s stays in its lane */
        const uint64_t keep = (~0ull / SG_MASK) * ((SG_MASK << s) & SG_MASK);
        x |= (x << s) & keep;
    }
    return x;
}

/* The cells whose group may differ after group g goes (with gravity, the
 * cells above it too), when no column closes up: those cells and their
 * neighbours, in words qlo..qhi (the columns cmin - 1 .. cmax + 1 of g). */
SG_TARGET static inline void SG_FN(changed_area)(const struct sg_instance *in,
                                                 const uint64_t *g, int qlo,
                                                 int qhi, uint64_t *area)
{
    /* bits 0..14 (0..30) of every lane: no guard bit */
    const uint64_t cells = (~0ull / SG_MASK) * (SG_MASK >> 1);
    uint64_t r[SG_WORDS + 2] = {0}, *gone = r + 1; /* 0 beside qlo..qhi */
    for (int i = qlo; i <= qhi; i++)
        gone[i] = (in->rules.gravity ? SG_FN(lanes_up)(g[i]) : g[i]) & cells;
    for (int i = qlo; i <= qhi; i++) {
        const uint64_t x = gone[i];
        area[i] = x | (x << 1) | (x >> 1) | (x << SG_LANE) | (x >> SG_LANE) |
                  (gone[i - 1] >> SG_CARRY) | (gone[i + 1] << SG_CARRY);
    }
}

/* sg_evaluate of each child of the position b, out[i] for moves[i] (moves
 * of b), or with weights w (not NULL) tally_value_weighted: one listing of b (into L), then per child its tally as b's, less
 * the listed groups with a cell where the move may change the groups, plus
 * the child's groups with a cell there. Where no column closes up, that is
 * the cells the move takes or lets fall and their neighbours (the groups
 * elsewhere are the same cells and neighbours before and after); where one
 * does, relist's window of columns. */
SG_TARGET static void SG_FN(evaluate_planes)(const struct sg_instance *in,
                                             const struct sg_planes *b,
                                             const ps_move *moves, int n,
                                             const double *w, ps_value *out,
                                             struct sg_listed *L)
{
    struct sg_labels lab;
    const int ng = SG_FN(list)(in, b, L, false, &lab);
    const int nw = SG_USED(b);
    struct sg_tally t;
    memset(&t, 0, sizeof t);
    for (int k = 1; k <= b->colours; k++)
        t.count[k] = b->count[k];
    t.left = b->left;
    int seen[SG_MAX_CELLS + 1];
    for (int j = 0; j < ng; j++) {
        sg_tally_group(in, &t, &L->g[j], 1);
        seen[j] = -1;
    }
    struct sg_planes c;
    for (int i = 0; i < n; i++) {
        int j = i < ng && L->g[i].move == moves[i] ? i : 0;
        while (j < ng && L->g[j].move != moves[i])
            j++;
        if (j == ng) { /* not a move of this position */
            out[i] = 0;
            continue;
        }
        const struct sg_group *x = &L->g[j];
        uint64_t g[SG_WORDS], before[SG_WORDS], after[SG_WORDS];
        for (int w = 0; w < nw; w++) /* its cells, as listed */
            g[w] = 0;
        for (int w = x->col / SG_PER_WORD; w <= x->maxcol / SG_PER_WORD; w++)
            g[w] = lab.cells[lab.at[j] + w];
        SG_FN(copy_planes)(&c, b);
        const int e = SG_FN(remove)(in, &c, g, x->colour, x->size);
        SG_WINDOW(in, L, j, e);
        (void)dl;
        (void)dr;
        struct sg_tally u = t;
        u.count[x->colour] -= x->size;
        u.left -= x->size;
        /* the area, before (parent's columns) and after (child's) */
        const int a = cmin - 1 > 0 ? cmin - 1 : 0;
        const int z = cmax + 1 < in->cols ? cmax + 1 : in->cols - 1;
        const int qlo = a / SG_PER_WORD, qhi = z / SG_PER_WORD;
        const uint64_t *area_after = before;
        int alo = qlo, ahi = qhi;
        if (e == 0) {
            SG_FN(changed_area)(in, g, qlo, qhi, before);
        } else {
            for (int q = qlo; q <= qhi; q++)
                before[q] = SG_FN(lanes)(q, a, z);
            const int la = lo > 0 ? lo : 0;
            const int lz = hi < in->cols - 1 ? hi : in->cols - 1;
            alo = la / SG_PER_WORD;
            ahi = lz / SG_PER_WORD;
            for (int q = alo; q <= ahi; q++)
                after[q] = SG_FN(lanes)(q, la, lz);
            area_after = after;
        }
        SG_FN(untally_area)(in, L, &lab, before, qlo, qhi, seen, i, &u);
        if (alo <= ahi)
            SG_FN(tally_area)(in, &c, area_after, alo, ahi, &u);
        out[i] = w ? tally_value_weighted(in, w, &u) : tally_value(in, &u);
    }
}

/* sg_evaluate (w NULL) or the weighted evaluation of each child of `state`
 * (evaluate_planes); L: room for the listing. */
SG_TARGET static void SG_FN(evaluate_moves)(const struct sg_instance *in,
                                            const void *state,
                                            const ps_move *moves, int n,
                                            const double *w, ps_value *out,
                                            struct sg_listed *L)
{
    struct sg_planes b;
    SG_FN(from_state)(in, state, &b);
    SG_FN(evaluate_planes)(in, &b, moves, n, w, out, L);
}

#undef SG_WORDS
#undef SG_PER_WORD
#undef SG_CARRY
#undef SG_MASK
#undef SG_USED
#undef SG_LANE
