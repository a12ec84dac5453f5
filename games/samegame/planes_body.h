/*
 * planes_body.h - the bit-plane playout loop, written once and compiled once
 * per instruction set: planes.h includes it with
 *   SG_FN(name)              the name with the build's suffix
 *   SG_TARGET                the build's function attribute (or nothing)
 *   SG_POPCOUNT(x)           bits set in a uint64_t
 *   SG_SELECT(x, j)          the index of the j-th (from 0) set bit of x
 *   SG_FALL(b, i, removed)   gravity in word i after `removed` went
 * and undefines them at the end. No include guard, on purpose.
 */

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

/* Play from b to the end; the line goes to line[], the gains to *gained;
 * returns its length. */
SG_TARGET static int SG_FN(planes_playout)(const struct sg_instance *in,
                                           struct sg_planes *b, bool tabu,
                                           struct ps_rng *rng, ps_move *line,
                                           ps_value *gained)
{
    const int min_group = (int)in->rules.min_group, R = in->rows;
    const bool gravity = in->rules.gravity;
    const bool shift = in->rules.shift == SG_SHIFT_LEFT;
    ps_value total = 0;
    int len = 0;
    for (;;) {
        uint64_t cand[SG_PLANE_WORDS];
        planes_candidates(b, min_group, cand);
        if (tabu) {
            const uint64_t *avoid = b->colour[planes_most_frequent(b)];
            uint64_t other[SG_PLANE_WORDS], any = 0;
            for (int i = 0; i < SG_PLANE_WORDS; i++)
                any |= other[i] = cand[i] & ~avoid[i];
            for (int i = 0; any && i < SG_PLANE_WORDS; i++)
                cand[i] = other[i];
        }
        unsigned in_word[SG_PLANE_WORDS], all = 0;
        for (int i = 0; i < SG_PLANE_WORDS; i++)
            all += in_word[i] = (unsigned)SG_POPCOUNT(cand[i]);
        if (all == 0)
            break;
        uint64_t g[SG_PLANE_WORDS];
        int q, bit, k;
        do { /* rejection: accept a drawn cell only if it is an anchor */
            unsigned j = ps_rng_below(rng, all);
            for (q = 0; j >= in_word[q]; q++)
                j -= in_word[q];
            bit = SG_SELECT(cand[q], j);
            k = planes_colour_at(b, q, bit);
            planes_flood(b->colour[k], q, bit, g);
        } while (!planes_is_lowest(g, q, bit));
        int size = 0;
        unsigned touched = 0;
        for (int i = 0; i < SG_PLANE_WORDS; i++) {
            size += SG_POPCOUNT(g[i]);
            touched |= planes_lanes_of(g[i], i);
            b->colour[k][i] &= ~g[i];
        }
        line[len++] = (ps_move)(((q << 2) + (bit >> 4)) * R + (bit & 15));
        total += sg_gain(&in->rules, size);
        b->count[k] -= size;
        b->left -= size;
        for (int i = 0; i < SG_PLANE_WORDS; i++) {
            if (!g[i])
                continue;
            if (gravity)
                SG_FALL(b, i, g[i]);
            else
                b->occupied[i] &= ~g[i];
        }
        if (shift)
            planes_close_columns(b, touched);
    }
    *gained = total;
    return len;
}

#undef SG_FN
#undef SG_TARGET
#undef SG_POPCOUNT
#undef SG_SELECT
#undef SG_FALL
