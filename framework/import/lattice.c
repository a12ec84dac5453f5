/*
 * lattice.c - find a grid's spacing without knowing where the grid is:
 * cell borders (or the gaps between cells) are edges that repeat at the
 * cell size, so the autocorrelation of the edge profile peaks there. A
 * picture's chrome adds edges too, but not periodic ones. The peak picked
 * here is only a candidate: the caller judges each by the cells it cuts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lattice.h"

/* Max minus min channel: 0 for greys, high for a game's colours. */
static int saturation(const unsigned char *p)
{
    int hi = p[0] > p[1] ? p[0] : p[1], lo = p[0] < p[1] ? p[0] : p[1];
    hi = p[2] > hi ? p[2] : hi;
    lo = p[2] < lo ? p[2] : lo;
    return hi - lo;
}

double *ps_edge_profile(const struct ps_image *img, int axis, int *n)
{
    int len = axis == 0 ? img->w : img->h;
    double *p = calloc((size_t)len, sizeof *p);
    if (!p)
        return NULL;
    *n = len;
    size_t step = axis == 0 ? 3 : (size_t)img->w * 3; /* to the next pixel along the axis */
    for (int y = 0; y + (axis == 1) < img->h; y++) {
        const unsigned char *row = img->rgb + (size_t)y * (size_t)img->w * 3;
        for (int x = 0; x + (axis == 0) < img->w; x++) {
            const unsigned char *a = row + (size_t)x * 3, *b = a + step;
            int d = abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]);
            /* Capped, so that one high-contrast text line does not
             * outweigh a board's softer borders; small steps left out (a
             * gradient's, JPEG's 8-pixel blocks: a period of their own on
             * a smooth background); and only edges with a colour on one
             * side count, so grey text, white sparkles and a night sky's
             * stars do not. */
            if (d > 24 && (saturation(a) > 60 || saturation(b) > 60))
                p[axis == 0 ? x : y] += d > 120 ? 120 : d;
        }
    }
    return p;
}

/* Sum of p over [at - half, at + half] (clipped), at rounded. */
static double window(const double *p, int n, double at, int half)
{
    int c = (int)lround(at);
    double s = 0;
    for (int i = c - half; i <= c + half; i++)
        if (i >= 0 && i < n)
            s += p[i];
    return s;
}

/* window() from prefix sums (cum[i] = p[0] + ... + p[i-1]): comb() runs
 * it for every line of thousands of trial lattices. */
static double window_sum(const double *cum, int n, double at, int half)
{
    int c = (int)(at + 0.5), lo = c - half, hi = c + half + 1;
    lo = lo < 0 ? 0 : lo > n ? n : lo;
    hi = hi < 0 ? 0 : hi > n ? n : hi;
    return hi > lo ? cum[hi] - cum[lo] : 0;
}

/* A lattice's fit to the profile: the windowed profile at its lines minus
 * midway between them, per line (to maximise). */
static double comb(const double *cum, int n, double period, double phase)
{
    int half = (int)(period / 20), k = 0;
    double on = 0, off = 0;
    for (double at = phase; at < n; at += period, k++) {
        on += window_sum(cum, n, at, half);
        off += window_sum(cum, n, at + period / 2, half);
    }
    return k ? (on - off) / k : 0;
}

static double best_phase_fit(const double *cum, int n, double per, int phases)
{
    double best = -1e300;
    for (int i = 0; i < phases; i++) {
        double c = comb(cum, n, per, per * i / phases);
        best = c > best ? c : best;
    }
    return best;
}

static double refine_period(const double *p, int n, double lag)
{
    double *cum = malloc(sizeof *cum * ((size_t)n + 1));
    if (!cum)
        return lag;
    cum[0] = 0;
    for (int i = 0; i < n; i++)
        cum[i + 1] = cum[i] + p[i];
    /* Coarsely over +-8% (a round cell's two sides also repeat, a
     * diameter apart, and that peak can stand in for the spacing's)... */
    double reach = lag * 0.08 > 1.0 ? lag * 0.08 : 1.0, best_per = lag, best = -1e300;
    for (double per = lag - reach; per <= lag + reach; per += 0.25) {
        double c = best_phase_fit(cum, n, per, 80);
        if (c > best) {
            best = c;
            best_per = per;
        }
    }
    /* ...then finely around the best: the middle of the plateau of
     * periods that fit as well (with few lines, a range does). */
    enum { STEPS = 21 };
    double fit[STEPS], from = best_per - 0.5;
    best = -1e300;
    for (int i = 0; i < STEPS; i++) {
        fit[i] = best_phase_fit(cum, n, from + i * 0.05, 160);
        best = fit[i] > best ? fit[i] : best;
    }
    free(cum);
    int at = 0;
    while (fit[at] < best)
        at++;
    int lo = at, hi = at;
    double near = best - 0.005 * fabs(best);
    while (lo > 0 && fit[lo - 1] >= near)
        lo--;
    while (hi + 1 < STEPS && fit[hi + 1] >= near)
        hi++;
    return from + (lo + hi) / 2.0 * 0.05;
}

/* Where the profile, folded onto one period, is mirror-symmetric: a cell's
 * middle or its border, whatever its shape (a star's edges lie on both
 * sides of its middle, a square's on its border). */
static double symmetry_phase(const double *p, int n, double period)
{
    /* At most one bin a pixel, so that no bin is left empty. */
    enum { MAX_BINS = 64 };
    int bins = period < MAX_BINS ? (int)period : MAX_BINS;
    double fold[MAX_BINS] = {0}, count[MAX_BINS] = {0}, mean = 0;
    for (int x = 0; x < n; x++) {
        int b = (int)(fmod(x, period) / period * bins) % bins;
        fold[b] += p[x];
        count[b]++;
    }
    for (int b = 0; b < bins; b++) {
        fold[b] = count[b] ? fold[b] / count[b] : 0;
        mean += fold[b] / bins;
    }
    int best = 0;
    double best_s = -1e300;
    for (int c = 0; c < bins; c++) {
        double sym = 0;
        for (int t = 1; t < bins / 2; t++)
            sym += (fold[(c + t) % bins] - mean) * (fold[(c - t + bins) % bins] - mean);
        if (sym > best_s) {
            best_s = sym;
            best = c;
        }
    }
    return (best + 0.5) * period / bins;
}

void ps_lattice_near(const double *profile, int n, double period,
                     struct ps_lattice out[2])
{
    /* Both symmetric phases: which one is the cells' middle is for the
     * caller's flat-cell test to say. */
    double per = refine_period(profile, n, period);
    double ph = symmetry_phase(profile, n, per);
    out[0] = (struct ps_lattice){per, ph};
    out[1] = (struct ps_lattice){per, fmod(ph + per / 2, per)};
}

int ps_lattice_candidates(const double *profile, int n, int min_period,
                          int max_period, struct ps_lattice *out, int max_out)
{
    if (max_period > n / 2)
        max_period = n / 2;
    if (min_period < 3)
        min_period = 3;
    if (max_period < min_period || max_out <= 0)
        return 0;
    /* Smoothed (a 5-tap box) and centred on its mean. */
    double *s = malloc(sizeof *s * (size_t)n);
    double *ac = calloc((size_t)max_period + 2, sizeof *ac);
    if (!s || !ac) {
        free(s);
        free(ac);
        return 0;
    }
    double mean = 0;
    for (int i = 0; i < n; i++) {
        s[i] = window(profile, n, i, 2);
        mean += s[i];
    }
    mean /= n;
    double var = 0;
    for (int i = 0; i < n; i++) {
        s[i] -= mean;
        var += s[i] * s[i];
    }
    for (int lag = min_period - 1; lag <= max_period + 1; lag++) {
        double sum = 0;
        for (int i = 0; i + lag < n; i++)
            sum += s[i] * s[i + lag];
        /* Per overlapping pair, so long lags are not penalised. */
        ac[lag] = var > 0 ? sum / var * n / (n - lag) : 0;
    }
    free(s);
    /* The autocorrelation's local maxima, strongest first. */
    double lags[8], vals[8];
    int nl = 0;
    for (int lag = min_period; lag <= max_period; lag++) {
        if (!(ac[lag] > ac[lag - 1] && ac[lag] >= ac[lag + 1]) || ac[lag] <= 0)
            continue;
        int at = nl < 8 ? nl++ : 7;
        if (at == 7 && nl == 8 && vals[7] >= ac[lag])
            continue;
        lags[at] = lag;
        vals[at] = ac[lag];
        for (int j = at; j > 0 && vals[j] > vals[j - 1]; j--) {
            double t = vals[j]; vals[j] = vals[j - 1]; vals[j - 1] = t;
            t = lags[j]; lags[j] = lags[j - 1]; lags[j - 1] = t;
        }
    }
    free(ac);
    if (getenv("PSOLVE_IMPORT_DEBUG"))
        for (int i = 0; i < nl; i++)
            fprintf(stderr, "peak %.0f: %.3f\n", lags[i], vals[i]);
    /* The grid's own spacing is the shortest strong peak (its multiples
     * are peaks as strong), unless a sparse board's is weaker than a
     * shape's own repeats: the two shortest strong peaks and the three
     * strongest, each with its halves and thirds (a board whose
     * neighbours often share a colour can show two cells as one). */
    double strong[8];
    int ns = 0;
    for (int i = 0; i < nl; i++)
        if (vals[i] >= 0.7 * vals[0])
            strong[ns++] = lags[i];
    for (int i = 1; i < ns; i++)
        for (int j = i; j > 0 && strong[j] < strong[j - 1]; j--) {
            double t = strong[j]; strong[j] = strong[j - 1]; strong[j - 1] = t;
        }
    double pick[2];
    int np = 0;
    for (int i = 0; i < ns && i < 2; i++)
        pick[np++] = strong[i];
    int m = 0;
    for (int i = 0; i < np; i++)
        for (int d = 1; d <= 3; d++) {
            double lag = pick[i] / d;
            if (lag < min_period)
                continue;
            bool dup = false;
            for (int j = 0; j < m; j++)
                dup |= fabs(out[j].period - lag) < 0.04 * lag + 1;
            if (dup || m + 2 > max_out)
                continue;
            ps_lattice_near(profile, n, lag, out + m);
            m += 2;
        }
    return m;
}
