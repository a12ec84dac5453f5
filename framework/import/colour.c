/*
 * colour.c - sRGB to L*a*b* (D65), medians of rectangles, and a leader
 * clustering refined by k-means: a game's palette is a handful of colours
 * far apart, so the simple method is the right one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"

static float linear(unsigned v)
{
    float c = (float)v / 255.0f;
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float lab_f(float t)
{
    return t > 0.008856f ? cbrtf(t) : 7.787f * t + 16.0f / 116.0f;
}

struct ps_lab ps_lab_of_rgb(unsigned r, unsigned g, unsigned b)
{
    float R = linear(r), G = linear(g), B = linear(b);
    float X = (0.4124f * R + 0.3576f * G + 0.1805f * B) / 0.95047f;
    float Y = 0.2126f * R + 0.7152f * G + 0.0722f * B;
    float Z = (0.0193f * R + 0.1192f * G + 0.9505f * B) / 1.08883f;
    float fx = lab_f(X), fy = lab_f(Y), fz = lab_f(Z);
    return (struct ps_lab){116.0f * fy - 16.0f, 500.0f * (fx - fy), 200.0f * (fy - fz)};
}

static unsigned gamma_byte(float c)
{
    c = c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    c = c < 0 ? 0 : c > 1 ? 1 : c;
    return (unsigned)lrintf(c * 255.0f);
}

static float lab_finv(float t)
{
    return t > 0.206893f ? t * t * t : (t - 16.0f / 116.0f) / 7.787f;
}

void ps_lab_to_rgb(struct ps_lab x, unsigned rgb[3])
{
    float fy = (x.l + 16.0f) / 116.0f, fx = fy + x.a / 500.0f, fz = fy - x.b / 200.0f;
    float X = lab_finv(fx) * 0.95047f, Y = lab_finv(fy), Z = lab_finv(fz) * 1.08883f;
    rgb[0] = gamma_byte(3.2406f * X - 1.5372f * Y - 0.4986f * Z);
    rgb[1] = gamma_byte(-0.9689f * X + 1.8758f * Y + 0.0415f * Z);
    rgb[2] = gamma_byte(0.0557f * X - 0.2040f * Y + 1.0570f * Z);
}

float ps_lab_distance(struct ps_lab x, struct ps_lab y)
{
    float dl = x.l - y.l, da = x.a - y.a, db = x.b - y.b;
    return sqrtf(dl * dl + da * da + db * db);
}

float ps_lab_chroma(struct ps_lab x)
{
    return sqrtf(x.a * x.a + x.b * x.b);
}

/* Median of a histogram of n values in 128 bins of 2 levels each. */
static unsigned hist_median(const unsigned *hist, unsigned n)
{
    unsigned seen = 0;
    for (unsigned v = 0; v < 128; v++) {
        seen += hist[v];
        if (2 * seen > n)
            return 2 * v + 1;
    }
    return 255;
}

struct ps_sample ps_sample_rect(const struct ps_image *img, int x0, int y0,
                                int x1, int y1)
{
    struct ps_sample s = {{0, 0, 0}, 0};
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > img->w ? img->w : x1;
    y1 = y1 > img->h ? img->h : y1;
    if (x1 <= x0 || y1 <= y0)
        return s;
    /* Half-resolution bins: a median within one level is all that is
     * needed, and this runs for every cell of every trial lattice. */
    unsigned hist[3][128];
    memset(hist, 0, sizeof hist);
    unsigned n = 0;
    for (int y = y0; y < y1; y++) {
        const unsigned char *p = img->rgb + ((size_t)y * (size_t)img->w + (size_t)x0) * 3;
        for (int x = x0; x < x1; x++, p += 3, n++) {
            hist[0][p[0] >> 1]++;
            hist[1][p[1] >> 1]++;
            hist[2][p[2] >> 1]++;
        }
    }
    unsigned m[3];
    for (int c = 0; c < 3; c++)
        m[c] = hist_median(hist[c], n);
    s.lab = ps_lab_of_rgb(m[0], m[1], m[2]);
    /* Closeness in RGB (cheap) stands in for closeness in L*a*b* here:
     * this only tells a flat cell from one cut by an edge. */
    unsigned close = 0;
    for (int y = y0; y < y1; y++) {
        const unsigned char *p = img->rgb + ((size_t)y * (size_t)img->w + (size_t)x0) * 3;
        for (int x = x0; x < x1; x++, p += 3) {
            int d = abs((int)p[0] - (int)m[0]) + abs((int)p[1] - (int)m[1]) +
                    abs((int)p[2] - (int)m[2]);
            close += d <= 45;
        }
    }
    s.uniform = (float)close / (float)n;
    return s;
}

static int nearest(struct ps_lab x, const struct ps_lab *centre, int k)
{
    int best = 0;
    for (int j = 1; j < k; j++)
        if (ps_lab_distance(x, centre[j]) < ps_lab_distance(x, centre[best]))
            best = j;
    return best;
}

int ps_cluster_colours(const struct ps_lab *lab, const float *weight, int n,
                       float apart, int max_clusters, struct ps_lab *centre,
                       int *label)
{
    int *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
    if (!order)
        return -1;
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* The surest samples found the clusters (insertion sort: n <= 1024). */
    for (int i = 1; i < n; i++) {
        int v = order[i], j = i;
        while (j > 0 && weight[order[j - 1]] < weight[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        struct ps_lab x = lab[order[i]];
        if (k > 0 && ps_lab_distance(x, centre[nearest(x, centre, k)]) < apart)
            continue;
        if (k == max_clusters) {
            free(order);
            return -1;
        }
        centre[k++] = x;
    }
    free(order);
    /* A few rounds of k-means move each centre to its members' mean. */
    for (int round = 0; round < 4 && k > 0; round++) {
        struct ps_lab sum[64];
        int count[64];
        memset(sum, 0, sizeof sum);
        memset(count, 0, sizeof count);
        for (int i = 0; i < n; i++) {
            int j = nearest(lab[i], centre, k);
            label[i] = j;
            sum[j].l += lab[i].l;
            sum[j].a += lab[i].a;
            sum[j].b += lab[i].b;
            count[j]++;
        }
        for (int j = 0; j < k; j++)
            if (count[j])
                centre[j] = (struct ps_lab){sum[j].l / (float)count[j],
                                            sum[j].a / (float)count[j],
                                            sum[j].b / (float)count[j]};
    }
    for (int i = 0; i < n; i++)
        label[i] = nearest(lab[i], centre, k);
    return k;
}

bool ps_border_colour(const struct ps_image *img, float apart, struct ps_lab *out)
{
    long w = img->w, h = img->h, perimeter = 2 * (w + h), step = perimeter / 2000 + 1;
    int cap = (int)(perimeter / step) + 4, n = 0;
    struct ps_lab *lab = calloc((size_t)cap, sizeof *lab), centre[64];
    float *weight = calloc((size_t)cap, sizeof *weight);
    int *label = calloc((size_t)cap, sizeof *label), count[64] = {0};
    bool found = false;
    if (lab && weight && label) {
        /* Walk the border once: top, bottom, left, right. */
        for (long k = 0; k < perimeter && n < cap; k += step) {
            long x = k < 2 * w ? k % w : (k - 2 * w < h ? 0 : w - 1);
            long y = k < w ? 0 : k < 2 * w ? h - 1 : (k - 2 * w) % h;
            const unsigned char *p = img->rgb + (y * w + x) * 3;
            lab[n] = ps_lab_of_rgb(p[0], p[1], p[2]);
            weight[n++] = 1;
        }
        int k = ps_cluster_colours(lab, weight, n, apart, 64, centre, label);
        int best = 0;
        for (int i = 0; i < n && k > 0; i++)
            if (++count[label[i]] > count[best])
                best = label[i];
        if (k > 0 && 2 * count[best] >= n) {
            *out = centre[best];
            found = true;
        }
    }
    free(lab);
    free(weight);
    free(label);
    return found;
}
