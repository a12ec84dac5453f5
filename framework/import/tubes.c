/*
 * tubes.c - a Water Sort (or ball sort) level in a picture. Tubes are the
 * tall, narrow outlines standing in rows with their bottoms level; inside
 * each, the middle strip is read from the bottom up as runs of one colour.
 * The unit height is the spacing every run's top sits on; a level holds
 * each colour `capacity` times, which settles an ambiguous spacing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"
#include "import.h"

#define SAME_COLOUR 14.0f
#define MAX_RUNS 64
#define MAX_COMPS 4096

struct comp {
    int x0, y0, x1, y1; /* bounding box, inclusive */
    long pixels;
};

struct run {
    int top, bottom; /* rows, inclusive */
    struct ps_lab lab;
    float uniform;
};

struct tube {
    struct comp box;
    int inner_top, inner_bottom;
    int runs;
    struct run run[MAX_RUNS];
};

static const unsigned char *px(const struct ps_image *img, long x, long y)
{
    return img->rgb + (y * img->w + x) * 3;
}

/* The picture's background (colour.c), in RGB for the per-pixel test. */
static bool border_background(const struct ps_image *img, unsigned char bg[3])
{
    struct ps_lab lab;
    if (!ps_border_colour(img, 22.0f, &lab))
        return false;
    unsigned rgb[3];
    ps_lab_to_rgb(lab, rgb);
    for (int c = 0; c < 3; c++)
        bg[c] = (unsigned char)rgb[c];
    return true;
}

static bool is_fg(const unsigned char *p, const unsigned char bg[3])
{
    /* Loose enough for a background gradient, a night sky's. */
    return abs(p[0] - bg[0]) + abs(p[1] - bg[1]) + abs(p[2] - bg[2]) > 60;
}

static long find(long *parent, long i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* The 8-connected pieces of foreground, as bounding boxes. */
static int components(const struct ps_image *img, const unsigned char bg[3],
                      struct comp *out, int max)
{
    long w = img->w, h = img->h, n = w * h;
    long *parent = malloc(sizeof *parent * (size_t)n);
    if (!parent)
        return -1;
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++) {
            long i = y * w + x;
            parent[i] = is_fg(px(img, x, y), bg) ? i : -1;
            if (parent[i] < 0)
                continue;
            long nb[4] = {x > 0 ? i - 1 : -1, y > 0 ? i - w : -1,
                          y > 0 && x > 0 ? i - w - 1 : -1,
                          y > 0 && x + 1 < w ? i - w + 1 : -1};
            for (int d = 0; d < 4; d++)
                if (nb[d] >= 0 && parent[nb[d]] >= 0) {
                    long a = find(parent, i), b = find(parent, nb[d]);
                    if (a != b)
                        parent[a > b ? a : b] = a > b ? b : a;
                }
        }
    /* Roots get a component number: parent[root] = -2 - index. */
    int m = 0;
    long *slot = malloc(sizeof *slot * (size_t)n);
    if (!slot) {
        free(parent);
        return -1;
    }
    for (long i = 0; i < n; i++) {
        slot[i] = -1;
        if (parent[i] < 0)
            continue;
        long r = find(parent, i);
        if (slot[r] < 0) {
            if (m == max)
                continue;
            slot[r] = m;
            out[m++] = (struct comp){(int)(i % w), (int)(i / w), (int)(i % w), (int)(i / w), 0};
        }
        struct comp *c = &out[slot[r]];
        int x = (int)(i % w), y = (int)(i / w);
        c->x0 = x < c->x0 ? x : c->x0;
        c->x1 = x > c->x1 ? x : c->x1;
        c->y0 = y < c->y0 ? y : c->y0;
        c->y1 = y > c->y1 ? y : c->y1;
        c->pixels++;
    }
    free(slot);
    free(parent);
    return m;
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* A tube has walls: across it, the colour at its left edge is unlike the
 * colour in its middle (a column of one colour's cells is one colour
 * through). The edge is the first foreground pixel, one pixel in when the
 * wall is thick (antialiasing blends the outermost). Tried at five heights;
 * three must say so. */
static bool walled(const struct ps_image *img, const unsigned char bg[3],
                   const struct comp *c, bool grey)
{
    int differ = 0, w = c->x1 - c->x0 + 1;
    for (int k = 1; k <= 5; k++) {
        int y = c->y0 + (c->y1 - c->y0) * k / 6, x = c->x0;
        while (x < c->x0 + w / 4 && !is_fg(px(img, x, y), bg))
            x++;
        if (!grey && x + 1 < c->x1 && is_fg(px(img, x + 1, y), bg))
            x++;
        const unsigned char *wall = px(img, x, y), *mid = px(img, (c->x0 + c->x1) / 2, y);
        int hi = wall[0] > wall[1] ? wall[0] : wall[1], lo = wall[0] < wall[1] ? wall[0] : wall[1];
        hi = wall[2] > hi ? wall[2] : hi;
        lo = wall[2] < lo ? wall[2] : lo;
        differ += (!grey || hi - lo < 60) &&
                  abs(wall[0] - mid[0]) + abs(wall[1] - mid[1]) + abs(wall[2] - mid[2]) > 60;
    }
    return differ >= 3;
}

/* Tube outlines: tall, narrow, hollow, and about the size most are. */
static int pick_tubes(const struct comp *c, int n, const struct ps_image *img,
                      const unsigned char bg[3], bool solid_ok, struct tube *t, int max)
{
    int heights[MAX_COMPS], m = 0;
    bool cand[MAX_COMPS];
    for (int i = 0; i < n; i++) {
        int w = c[i].x1 - c[i].x0 + 1, h = c[i].y1 - c[i].y0 + 1;
        double fill = (double)c[i].pixels / ((double)w * h);
        /* At least 12 x 40 pixels: a digit or a bar of text is no tube. */
        /* A tube full to a thin outline is a solid piece, as a column of
         * one colour's bevelled cells is: taken only when the caller
         * says the picture is a level, and with grey walls. */
        cand[i] = h >= 3 * w / 2 && w >= 12 && h >= 40 && h >= img->h / 20 &&
                  (fill < 0.88 ? walled(img, bg, &c[i], false)
                               : solid_ok && walled(img, bg, &c[i], true));
        if (cand[i])
            heights[m++] = h;
        if (getenv("PSOLVE_IMPORT_DEBUG") && h > 40 && w > 10)
            fprintf(stderr, "piece %d,%d %dx%d fill %.2f: %s\n", c[i].x0, c[i].y0, w, h,
                    fill, cand[i] ? "a tube" : "no");
    }
    if (m < 2)
        return 0;
    qsort(heights, (size_t)m, sizeof *heights, cmp_int);
    int median = heights[m / 2], k = 0;
    for (int i = 0; i < n && k < max; i++) {
        int h = c[i].y1 - c[i].y0 + 1;
        if (cand[i] && h * 5 >= median * 4 && h * 4 <= median * 5)
            t[k++].box = c[i];
    }
    /* Tubes stand in rows, their bottoms level: one standing alone is not
     * a tube. */
    int kept = 0;
    for (int i = 0; i < k; i++) {
        bool mate = false;
        for (int j = 0; j < k && !mate; j++)
            mate = j != i && abs(t[i].box.y1 - t[j].box.y1) * 10 <= median;
        if (mate)
            t[kept++] = t[i];
    }
    return kept;
}

/* Order tubes by rows (overlapping vertically), then left to right. */
static int cmp_tube(const void *a, const void *b)
{
    const struct comp *x = &((const struct tube *)a)->box, *y = &((const struct tube *)b)->box;
    bool same_row = x->y0 <= y->y1 && y->y0 <= x->y1;
    if (!same_row)
        return x->y0 < y->y0 ? -1 : 1;
    return (x->x0 > y->x0) - (x->x0 < y->x0);
}

/* Read one tube's middle strip from the bottom up into runs of colour. */
static void read_runs(const struct ps_image *img, const unsigned char bg[3],
                      struct tube *t)
{
    int w = t->box.x1 - t->box.x0 + 1;
    int sx0 = t->box.x0 + w * 3 / 10, sx1 = t->box.x1 + 1 - w * 3 / 10;
    /* Inside the outline: skip the rows of the outline itself. */
    /* Inside the outline: skip the rows of the outline's own colour. */
    int top = t->box.y0, bottom = t->box.y1, mid = (sx0 + sx1) / 2;
    const unsigned char *rim = px(img, mid, top);
    while (top < bottom && is_fg(px(img, mid, top), bg) && !is_fg(px(img, mid, top), rim) &&
           top - t->box.y0 < w / 3)
        top++;
    rim = px(img, mid, bottom);
    while (bottom > top && is_fg(px(img, mid, bottom), bg) &&
           !is_fg(px(img, mid, bottom), rim) && t->box.y1 - bottom < w / 3)
        bottom--;
    t->inner_top = top;
    t->inner_bottom = bottom;
    t->runs = 0;
    struct ps_lab bg_lab = ps_lab_of_rgb(bg[0], bg[1], bg[2]);
    struct run *cur = NULL;
    struct ps_lab prev = bg_lab;
    for (int y = bottom; y >= top; y--) {
        struct ps_sample s = ps_sample_rect(img, sx0, y, sx1, y + 1);
        bool content = s.uniform >= 0.6f && ps_lab_distance(s.lab, bg_lab) > SAME_COLOUR;
        if (!content) {
            cur = NULL;
            continue;
        }
        /* One run while the colour stays, or changes only gradually (a
         * ball's shading): two layers meet in a step. */
        bool gradual = ps_lab_distance(s.lab, prev) < 6;
        prev = s.lab;
        if (cur && (gradual || ps_lab_distance(s.lab, cur->lab) < SAME_COLOUR)) {
            cur->top = y;
            continue;
        }
        if (t->runs == MAX_RUNS)
            return;
        cur = &t->run[t->runs++];
        *cur = (struct run){y, y, s.lab, 1.0f};
    }
    /* Each run's colour: the median of its middle rows. */
    for (int i = 0; i < t->runs; i++) {
        struct run *r = &t->run[i];
        int h = r->bottom - r->top + 1, cut = h / 4;
        struct ps_sample s = ps_sample_rect(img, sx0, r->top + cut, sx1, r->bottom + 1 - cut);
        r->lab = s.lab;
        r->uniform = s.uniform;
    }
}

/* Drop runs too thin to be a unit: the tube's bottom outline, an edge, a
 * reflection (under a third of a typical run's thickness). */
static void drop_thin_runs(struct tube *t, int nt)
{
    int thick[PS_IMPORT_MAX_TUBES * MAX_RUNS], n = 0;
    for (int i = 0; i < nt; i++)
        for (int r = 0; r < t[i].runs; r++)
            thick[n++] = t[i].run[r].bottom - t[i].run[r].top + 1;
    if (n == 0)
        return;
    qsort(thick, (size_t)n, sizeof *thick, cmp_int);
    /* The upper quartile: slivers of noise can outnumber the units. */
    int least = thick[3 * n / 4] / 3 > 3 ? thick[3 * n / 4] / 3 : 3;
    for (int i = 0; i < nt; i++) {
        int kept = 0;
        for (int r = 0; r < t[i].runs; r++)
            if (t[i].run[r].bottom - t[i].run[r].top + 1 >= least)
                t[i].run[kept++] = t[i].run[r];
        t[i].runs = kept;
    }
}

/* How far a run's top sits from a multiple of u above its tube's floor. */
static double misfit(const struct tube *t, int nt, double u, int *worst_units)
{
    double cost = 0;
    int n = 0;
    *worst_units = 0;
    for (int i = 0; i < nt; i++)
        for (int r = 0; r < t[i].runs; r++) {
            double x = (t[i].inner_bottom + 1 - t[i].run[r].top) / u;
            cost += fabs(x - lround(x));
            n++;
            if (lround(x) < 1)
                *worst_units = -1;
        }
    return n ? cost / n : 1;
}

/* Units per run once u is known; false if a tube overflows. */
static bool count_units(const struct tube *t, int nt, double u, int capacity,
                        int counts[][MAX_RUNS])
{
    for (int i = 0; i < nt; i++) {
        long below = 0;
        for (int r = 0; r < t[i].runs; r++) {
            long level = lround((t[i].inner_bottom + 1 - t[i].run[r].top) / u);
            /* A run that ends on the level below is a sliver of the unit
             * under it (a JPEG block, a glint): no units of its own. */
            counts[i][r] = level > below ? (int)(level - below) : 0;
            if (level > capacity)
                return false;
            below = level > below ? level : below;
        }
    }
    return true;
}

bool ps_tubes_detect(const struct ps_image *img, bool solid_ok,
                     struct ps_tubes_read *out, struct ps_error *err)
{
    unsigned char bg[3];
    struct comp *comps = malloc(sizeof *comps * MAX_COMPS);
    struct tube *t = malloc(sizeof *t * PS_IMPORT_MAX_TUBES);
    int (*counts)[MAX_RUNS] = malloc(sizeof *counts * PS_IMPORT_MAX_TUBES);
    bool ok = false;
    if (!comps || !t || !counts) {
        ps_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    if (!border_background(img, bg)) {
        ps_error_set(err, NULL, 0, 0, "no tubes found (no background colour "
                                      "around them)");
        goto done;
    }
    int nc = components(img, bg, comps, MAX_COMPS);
    int nt = nc > 0 ? pick_tubes(comps, nc, img, bg, solid_ok, t, PS_IMPORT_MAX_TUBES) : 0;
    if (nt < 2) {
        ps_error_set(err, NULL, 0, 0, "no tubes found (no row of tall outlines "
                                      "of the same size)");
        goto done;
    }
    qsort(t, (size_t)nt, sizeof *t, cmp_tube);
    int inner = 0;
    bool debug = getenv("PSOLVE_IMPORT_DEBUG") != NULL;
    for (int i = 0; i < nt; i++)
        read_runs(img, bg, &t[i]);
    drop_thin_runs(t, nt);
    for (int i = 0; i < nt; i++) {
        int h = t[i].inner_bottom - t[i].inner_top + 1;
        inner = h > inner ? h : inner;
        if (debug) {
            fprintf(stderr, "tube %d: box %d,%d..%d,%d inner %d..%d runs", i, t[i].box.x0,
                    t[i].box.y0, t[i].box.x1, t[i].box.y1, t[i].inner_top, t[i].inner_bottom);
            for (int r = 0; r < t[i].runs; r++)
                fprintf(stderr, " %d..%d", t[i].run[r].top, t[i].run[r].bottom);
            fprintf(stderr, "\n");
        }
    }
    /* Every spacing from 4 px up to a quarter of the tube (capacity >= 2
     * fits twice): the best fit, and among equal fits the one where
     * every colour fills exactly one tube. */
    double best_u = 0, best_cost = 1e9;
    bool best_even = false;
    int best_cap = 0;
    for (double u = 4; u <= inner / 2.0 + 0.01; u += 0.25) {
        int bad;
        double cost = misfit(t, nt, u, &bad);
        /* A tube holds at most its height in units, less a neck. */
        int room = (int)floor(inner / u + 0.35);
        if (bad < 0 || cost > 0.12 || room < 2)
            continue;
        if (!count_units(t, nt, u, room, counts))
            continue;
        /* Does each colour come equally often? Then that is the capacity. */
        struct ps_lab seen[64];
        int total[64] = {0}, k = 0, top = 0;
        bool even = true;
        for (int i = 0; i < nt && even; i++) {
            int level = 0;
            for (int r = 0; r < t[i].runs && even; r++) {
                if (counts[i][r] == 0)
                    continue;
                int j = 0;
                while (j < k && ps_lab_distance(seen[j], t[i].run[r].lab) >= SAME_COLOUR)
                    j++;
                if (j == k) {
                    if (k == 64)
                        even = false;
                    else
                        seen[k++] = t[i].run[r].lab;
                }
                if (even)
                    total[j] += counts[i][r];
                level += counts[i][r];
            }
            top = level > top ? level : top;
        }
        for (int j = 1; j < k && even; j++)
            even = total[j] == total[0];
        even = even && k > 0 && total[0] >= top && total[0] <= room;
        int cap = even ? total[0] : room;
        if (cap < 2 || cap > PS_IMPORT_MAX_UNITS)
            continue;
        /* Prefer an even count, then larger units at a near-equal fit. */
        bool take = best_u == 0 || (even && !best_even) ||
                    (even == best_even && cost < best_cost + 0.03);
        if (take) {
            best_u = u;
            best_cost = cost;
            best_even = even;
            best_cap = cap;
        }
    }
    if (best_u == 0) {
        ps_error_set(err, NULL, 0, 0, "%d tubes found, but no unit height fits "
                                      "the colours inside them", nt);
        goto done;
    }
    count_units(t, nt, best_u, best_cap, counts);
    memset(out, 0, sizeof *out);
    out->tubes = nt;
    out->capacity = best_cap;
    out->capacity_guessed = !best_even;
    struct ps_lab lab[PS_IMPORT_MAX_TUBES * MAX_RUNS], centre[64];
    float w[PS_IMPORT_MAX_TUBES * MAX_RUNS];
    int label[PS_IMPORT_MAX_TUBES * MAX_RUNS], n = 0;
    for (int i = 0; i < nt; i++)
        for (int r = 0; r < t[i].runs; r++)
            if (counts[i][r] > 0) { /* slivers have no colour of their own */
                lab[n] = t[i].run[r].lab;
                w[n++] = t[i].run[r].uniform;
            }
    int k = ps_cluster_colours(lab, w, n, SAME_COLOUR, 64, centre, label);
    if (k < 0) {
        ps_error_set(err, NULL, 0, 0, "over 64 colours in the tubes");
        goto done;
    }
    /* Colours numbered in reading order: tube 1's bottom unit is 1. */
    int number[64], next = 0;
    for (int j = 0; j < k; j++)
        number[j] = 0;
    for (int i = 0; i < n; i++)
        if (!number[label[i]])
            number[label[i]] = ++next;
    out->colours = k;
    for (int j = 0; j < k; j++)
        ps_lab_to_rgb(centre[j], out->rgb[number[j]]);
    n = 0;
    for (int i = 0; i < nt; i++) {
        out->box[i][0] = t[i].box.x0;
        out->box[i][1] = t[i].box.y0;
        out->box[i][2] = t[i].box.x1 - t[i].box.x0 + 1;
        out->box[i][3] = t[i].box.y1 - t[i].box.y0 + 1;
        for (int r = 0; r < t[i].runs; r++) {
            if (counts[i][r] == 0)
                continue;
            float d1 = ps_lab_distance(lab[n], centre[label[n]]), d2 = 1e30f;
            for (int j = 0; j < k; j++)
                if (j != label[n] && ps_lab_distance(lab[n], centre[j]) < d2)
                    d2 = ps_lab_distance(lab[n], centre[j]);
            float margin = k > 1 ? (d2 - d1) / (d2 + d1 + 1e-6f) : 1.0f;
            float flat = w[n] < 0.6f ? w[n] / 0.6f : 1.0f;
            for (int u = 0; u < counts[i][r]; u++) {
                out->units[i][out->count[i]] = (unsigned char)number[label[n]];
                out->confidence[i][out->count[i]++] = margin * flat;
            }
            n++;
        }
    }
    /* Colours that do not come equally often: the read is wrong somewhere
     * (a unit missed or split, tubes run together). The units of every
     * colour whose count is not the commonest one are unsure, so that the
     * player looks, rather than a level that reads well and is not. */
    if (out->capacity_guessed) {
        int total[65] = {0}, common = 0, votes = 0;
        for (int i = 0; i < nt; i++)
            for (int u = 0; u < out->count[i]; u++)
                total[out->units[i][u]]++;
        for (int c = 1; c <= k; c++) {
            int same = 0;
            for (int d = 1; d <= k; d++)
                same += total[d] == total[c];
            if (same > votes) {
                votes = same;
                common = total[c];
            }
        }
        for (int i = 0; i < nt; i++)
            for (int u = 0; u < out->count[i]; u++)
                if (total[out->units[i][u]] != common &&
                    out->confidence[i][u] >= PS_IMPORT_UNSURE)
                    out->confidence[i][u] = PS_IMPORT_UNSURE * 0.98f;
    }
    ok = true;
done:
    free(comps);
    free(t);
    free(counts);
    return ok;
}
