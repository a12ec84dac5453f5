/*
 * grid.c - a SameGame board in a picture. Candidate spacings come from
 * lattice.c on each axis; each pair cuts the picture into cells, and the
 * pair whose cells are flat colours over the largest connected area wins.
 * A board's cells form one connected piece (cells rest on the bottom row
 * and columns close up), which is how the board is told from the chrome.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"
#include "import.h"
#include "lattice.h"

#define MAX_CAND 8 /* four spacings a side, two phases each */
#define VIVID 45    /* Lab chroma: a game's cell colours lie above it */
#define FLAT 0.75f      /* a cell is a flat colour when this share of its middle is */
#define SAME_COLOUR 14.0f /* L*a*b* distance under which two cells share a colour */
#define SAME_BACKGROUND 22.0f /* looser: a background may be a gradient */
#define EXACT_BACKGROUND 2.5f /* a flat background's own colour, JPEG noise and all */

/* One lattice cutting the whole picture into nx x ny cells. */
struct cut {
    struct ps_lattice lx, ly;
    int nx, ny, first_x, first_y; /* cells, and the index of the first line */
    struct ps_sample *s;          /* nx * ny samples */
    unsigned char *kind;          /* 0 patchy, 1 empty-looking, 2 filled */
    int top, left, bottom, right; /* the board's cells (inclusive) */
    bool fine;      /* finer than the board's cells (too_fine) */
    float bg_near;  /* a cell this near the background is empty */
    double same;    /* sameness(): 1 when all filled cells are one shape */
    double score;
};

static double line_at(const struct ps_lattice *l, int k)
{
    return l->phase + k * l->period;
}

/* Cells fully inside the picture along one axis. */
static void span(const struct ps_lattice *l, int n, int *first, int *count)
{
    /* A cell may stick out by a sixth: a cropped board's first line is at
     * 0, give or take the lattice's error. */
    double slack = l->period / 6;
    int k = (int)floor(-l->phase / l->period) - 1;
    while (line_at(l, k) < -slack)
        k++;
    *first = k;
    int c = 0;
    while (line_at(l, k + c + 1) <= n + slack)
        c++;
    *count = c;
}

/* The box of a cell left when `margin` of it is cut off each side. */
static struct ps_sample sample_cell_box(const struct ps_image *img, const struct cut *c,
                                        int i, int j, double margin)
{
    double x0 = line_at(&c->lx, c->first_x + i), y0 = line_at(&c->ly, c->first_y + j);
    double mx = margin * c->lx.period, my = margin * c->ly.period;
    return ps_sample_rect(img, (int)lround(x0 + mx), (int)lround(y0 + my),
                          (int)lround(x0 + c->lx.period - mx),
                          (int)lround(y0 + c->ly.period - my));
}

/* The middle 36%: clear of gaps, bevels and a star's points. */
static struct ps_sample sample_cell(const struct ps_image *img, const struct cut *c,
                                    int i, int j)
{
    return sample_cell_box(img, c, i, j, 0.32);
}

/* A lattice k times finer than the grid (k = 2, 3) cuts each cell into k
 * along an axis (dx, dy): then neighbours agree in k - 1 of every k
 * places along it, and in the k-th only as often as cells do. */
static bool too_fine(const struct cut *c, int dx, int dy)
{
    for (int k = 2; k <= 3; k++) {
        int same[3] = {0, 0, 0}, pairs[3] = {0, 0, 0};
        for (int j = c->top; j + dy <= c->bottom; j++)
            for (int i = c->left; i + dx <= c->right; i++) {
                int a = j * c->nx + i, b = (j + dy) * c->nx + i + dx;
                if (c->kind[a] != 2 || c->kind[b] != 2)
                    continue;
                int o = (dx ? i - c->left : j - c->top) % k;
                pairs[o]++;
                /* Loosely: a cell's parts differ by its shading. */
                same[o] += ps_lab_distance(c->s[a].lab, c->s[b].lab) < 1.5f * SAME_COLOUR;
            }
        int high = 0, low = 0;
        for (int o = 0; o < k; o++) {
            if (pairs[o] < 6)
                return false;
            double share = (double)same[o] / pairs[o];
            high += share > 0.95;
            low += share < 0.8;
        }
        if (high == k - 1 && low == 1)
            return true;
    }
    return false;
}

/* How alike the filled cells are in shape: each cell's 8x8 grid of
 * points, on where the picture has the cell's own colour, against the
 * mean of all cells. 1 when every cell is the same shape (squares, stars,
 * balls alike), lower when a lattice cuts across cells, so that what a
 * cell holds depends on its neighbours. */
static double sameness(const struct ps_image *img, const struct cut *c)
{
    enum { G = 8 };
    static double mean[G * G];
    int filled = 0;
    memset(mean, 0, sizeof mean);
    for (int pass = 0; pass < 2; pass++) {
        double diff = 0;
        for (int j = c->top; j <= c->bottom; j++)
            for (int i = c->left; i <= c->right; i++) {
                const struct ps_sample *s = &c->s[j * c->nx + i];
                if (c->kind[j * c->nx + i] != 2)
                    continue;
                unsigned rgb[3];
                ps_lab_to_rgb(s->lab, rgb);
                double x0 = line_at(&c->lx, c->first_x + i), y0 = line_at(&c->ly, c->first_y + j);
                for (int q = 0; q < G * G; q++) {
                    int x = (int)(x0 + ((q % G) + 0.5) * c->lx.period / G);
                    int y = (int)(y0 + ((q / G) + 0.5) * c->ly.period / G);
                    double on = 0;
                    if (x >= 0 && y >= 0 && x < img->w && y < img->h) {
                        const unsigned char *p = img->rgb + ((size_t)y * (size_t)img->w + (size_t)x) * 3;
                        on = abs(p[0] - (int)rgb[0]) + abs(p[1] - (int)rgb[1]) +
                             abs(p[2] - (int)rgb[2]) <= 60;
                    }
                    if (pass == 0)
                        mean[q] += on;
                    else
                        diff += fabs(on - mean[q]);
                }
                if (pass == 0)
                    filled++;
            }
        if (filled == 0)
            return 0;
        if (pass == 0)
            for (int q = 0; q < G * G; q++)
                mean[q] /= filled;
        else
            return 1 - diff / ((double)filled * G * G);
    }
    return 0;
}

/* Mark each cell, find the largest connected piece of filled cells, and
 * score the cut by the flat area it explains. */
static void judge(const struct ps_image *img, const struct ps_lab *bg, struct cut *c)
{

    int n = c->nx * c->ny;
    c->score = 0;
    for (int j = 0; j < c->ny; j++)
        for (int i = 0; i < c->nx; i++)
            c->s[j * c->nx + i] = sample_cell(img, c, i, j);
    for (int k = 0; k < n; k++) {
        const struct ps_sample *s = &c->s[k];
        bool empty = (bg && ps_lab_distance(s->lab, *bg) < c->bg_near) ||
                     (s->lab.l < 30 && ps_lab_chroma(s->lab) < 12);
        c->kind[k] = s->uniform < FLAT ? 0 : empty ? 1 : 2;
    }
    /* A cell with a mark in its middle (a dot, a face, a number) is patchy
     * there: its wider middle, if mostly one colour, says its colour
     * (kept as sampled, so its confidence stays low). */
    for (int k = 0; k < n; k++) {
        if (c->kind[k] != 0)
            continue;
        struct ps_sample wide = sample_cell_box(img, c, k % c->nx, k / c->nx, 0.15);
        bool empty = (bg && ps_lab_distance(wide.lab, *bg) < c->bg_near) ||
                     (wide.lab.l < 30 && ps_lab_chroma(wide.lab) < 12);
        if (wide.uniform >= 0.5f && !empty) {
            c->s[k].lab = wide.lab;
            c->kind[k] = 2;
        }
    }
    /* The largest 4-connected piece of filled cells (an explicit stack). */
    int *stack = malloc(sizeof *stack * (size_t)n);
    unsigned char *seen = calloc((size_t)n, 1);
    int best = 0;
    for (int start = 0; stack && seen && start < n; start++) {
        if (seen[start] || c->kind[start] != 2)
            continue;
        int top = 0, size = 0;
        int t = c->ny, l = c->nx, b = -1, r = -1;
        stack[top++] = start;
        seen[start] = 1;
        while (top) {
            int k = stack[--top], i = k % c->nx, j = k / c->nx;
            size++;
            t = j < t ? j : t; b = j > b ? j : b;
            l = i < l ? i : l; r = i > r ? i : r;
            int nb[4] = {i > 0 ? k - 1 : -1, i + 1 < c->nx ? k + 1 : -1,
                         j > 0 ? k - c->nx : -1, j + 1 < c->ny ? k + c->nx : -1};
            for (int d = 0; d < 4; d++)
                if (nb[d] >= 0 && !seen[nb[d]] && c->kind[nb[d]] == 2) {
                    seen[nb[d]] = 1;
                    stack[top++] = nb[d];
                }
        }
        if (size > best) {
            best = size;
            c->top = t; c->left = l; c->bottom = b; c->right = r;
        }
    }
    free(stack);
    free(seen);
    if (best < 2)
        return;
    int flat = 0, cells = (c->bottom - c->top + 1) * (c->right - c->left + 1);
    for (int j = c->top; j <= c->bottom; j++)
        for (int i = c->left; i <= c->right; i++)
            flat += c->kind[j * c->nx + i] != 0;
    double share = (double)flat / cells;
    c->fine = too_fine(c, 1, 0) || too_fine(c, 0, 1);
    c->same = sameness(img, c);
    double same2 = c->same * c->same;
    c->score = c->fine ? 0 : best * c->lx.period * c->ly.period * share * share * same2 * same2;
}

static void cut_free(struct cut *c)
{
    free(c->s);
    free(c->kind);
    c->s = NULL;
    c->kind = NULL;
}

static bool cut_make(const struct ps_image *img, const struct ps_lab *bg,
                     struct ps_lattice lx, struct ps_lattice ly, float bg_near,
                     struct cut *c)
{
    memset(c, 0, sizeof *c);
    c->bg_near = bg_near;
    c->lx = lx;
    c->ly = ly;
    span(&lx, img->w, &c->first_x, &c->nx);
    span(&ly, img->h, &c->first_y, &c->ny);
    if (c->nx < 2 || c->ny < 2 || c->nx > 1024 || c->ny > 1024 || c->nx * c->ny > 16384)
        return false;
    c->s = calloc((size_t)(c->nx * c->ny), sizeof *c->s);
    c->kind = calloc((size_t)(c->nx * c->ny), 1);
    if (!c->s || !c->kind) {
        cut_free(c);
        return false;
    }
    judge(img, bg, c);
    return true;
}

/* The letters psolve's board files use, by the colour they name. */
static const struct { unsigned char rgb[3]; } named[9] = {
    {{220, 40, 40}}, {{40, 170, 60}}, {{40, 100, 220}}, {{245, 215, 40}},
    {{140, 50, 170}}, {{250, 140, 20}}, {{20, 180, 200}}, {{220, 30, 130}},
    {{240, 240, 240}}};

/* Give each cluster the colour number whose name fits it best (red
 * becomes R, and so on), greedily by distance. */
static void name_colours(const struct ps_lab *centre, int k, int *number)
{
    bool used_c[9] = {false}, used_n[9] = {false};
    for (int round = 0; round < k; round++) {
        int bc = -1, bn = -1;
        float bd = 1e30f;
        for (int i = 0; i < k; i++)
            for (int m = 0; m < 9; m++) {
                if (used_c[i] || used_n[m])
                    continue;
                float d = ps_lab_distance(centre[i], ps_lab_of_rgb(named[m].rgb[0],
                                                   named[m].rgb[1], named[m].rgb[2]));
                if (d < bd) {
                    bd = d; bc = i; bn = m;
                }
            }
        used_c[bc] = used_n[bn] = true;
        number[bc] = bn + 1;
    }
}

/* Drop top rows that break gravity (a score bar touching the board): a
 * filled cell over an empty-looking one (a patchy cell, one with a mark,
 * is a cell). */
static void trim_floating(struct cut *c)
{
    for (;;) {
        bool floating = false;
        for (int j = c->top; j < c->bottom && !floating; j++)
            for (int i = c->left; i <= c->right; i++)
                if (c->kind[j * c->nx + i] == 2 && c->kind[(j + 1) * c->nx + i] == 1) {
                    floating = true;
                    break;
                }
        if (!floating || c->top == c->bottom)
            return;
        c->top++;
    }
}

/* What was read must be a position play can reach, as psolve's board
 * files require (docs/samegame.md): cells rest on cells, and empty columns
 * have closed up to the right. Otherwise a cell was misread, or the
 * picture is no SameGame position. */
static bool playable(const struct ps_grid_read *b, struct ps_error *err)
{
    bool seen_empty_column = false;
    for (int q = 0; q < b->cols; q++) {
        bool any = false;
        for (int r = 0; r < b->rows; r++) {
            any |= b->cell[r][q] != 0;
            if (r + 1 < b->rows && b->cell[r][q] && !b->cell[r + 1][q])
                return ps_error_set(err, NULL, 0, 0,
                                    "the board read has a cell over an empty one "
                                    "(row %d, column %d): a cell was misread, or "
                                    "this is no SameGame position", r, q);
        }
        if (any && seen_empty_column)
            return ps_error_set(err, NULL, 0, 0,
                                "the board read has an empty column left of "
                                "column %d: a cell was misread, or this is no "
                                "SameGame position", q);
        seen_empty_column |= !any;
    }
    return true;
}

/* A colour that is one connected group and a lighter shade of another
 * colour is that colour drawn highlighted: the group under a desktop
 * game's pointer (Swell Foop), a selected group. Measured on
 * the real screenshots (tests/data/import-real, swellfoop-09): the
 * hovered group read as a fifth colour. Its cells take the darker colour,
 * and are marked unsure in *lit (a board may really hold one group of a
 * lighter shade). labels are renumbered; the colours left are returned. */
static int merge_highlight(const int *at, int n, int *label, struct ps_lab *centre,
                           int k, bool *lit)
{
    for (int a = 0; a < k; a++) {
        int size = 0, first = -1;
        for (int i = 0; i < n; i++)
            if (label[i] == a) {
                size++;
                first = first < 0 ? i : first;
            }
        if (size < 2 || ps_lab_chroma(centre[a]) < 10)
            continue;
        /* One group? A flood over its cells by their board positions. */
        int *stack = malloc(sizeof *stack * (size_t)size);
        bool *seen = calloc((size_t)n, sizeof *seen);
        int top = 0, reached = 0;
        if (stack && seen) {
            stack[top++] = first;
            seen[first] = true;
            while (top) {
                int i = stack[--top];
                reached++;
                for (int j = 0; j < n; j++) {
                    int dr = at[i] / PS_IMPORT_MAX_SIDE - at[j] / PS_IMPORT_MAX_SIDE,
                        dq = at[i] % PS_IMPORT_MAX_SIDE - at[j] % PS_IMPORT_MAX_SIDE;
                    if (!seen[j] && label[j] == a && abs(dr) + abs(dq) == 1) {
                        seen[j] = true;
                        stack[top++] = j;
                    }
                }
            }
        }
        free(stack);
        free(seen);
        if (reached != size)
            continue;
        int to = -1;
        float best = 40.0f; /* a highlight lightens a colour, not more */
        for (int b = 0; b < k; b++) {
            if (b == a || ps_lab_chroma(centre[b]) < 10 || centre[a].l < centre[b].l + 5)
                continue;
            float ha = atan2f(centre[a].b, centre[a].a), hb = atan2f(centre[b].b, centre[b].a);
            float dh = fabsf(ha - hb);
            dh = dh > 3.14159265f ? 6.28318531f - dh : dh;
            float d = ps_lab_distance(centre[a], centre[b]);
            /* A highlight keeps the hue (Swell Foop's within 1 degree);
             * red beside orange, 20 degrees apart, are two colours. */
            if (dh < 0.105f && d < best) { /* within 6 degrees of hue */
                best = d;
                to = b;
            }
        }
        if (to < 0)
            continue;
        for (int i = 0; i < n; i++) {
            if (label[i] == a) {
                label[i] = to > a ? to - 1 : to;
                lit[i] = true;
            } else if (label[i] > a) {
                label[i]--;
            }
        }
        memmove(centre + a, centre + a + 1, sizeof *centre * (size_t)(k - a - 1));
        return k - 1; /* one highlight a picture */
    }
    return k;
}

static bool read_board(struct cut *c, struct ps_grid_read *out, struct ps_error *err)
{
    trim_floating(c);
    int rows = c->bottom - c->top + 1, cols = c->right - c->left + 1;
    if (rows > PS_IMPORT_MAX_SIDE || cols > PS_IMPORT_MAX_SIDE)
        return ps_error_set(err, NULL, 0, 0,
                            "the grid found has %d rows and %d columns; a "
                            "board has at most %d of each", rows, cols,
                            PS_IMPORT_MAX_SIDE);
    memset(out, 0, sizeof *out);
    out->rows = rows;
    out->cols = cols;
    out->pitch_x = c->lx.period;
    out->pitch_y = c->ly.period;
    out->x0 = line_at(&c->lx, c->first_x + c->left);
    out->y0 = line_at(&c->ly, c->first_y + c->top);
    struct ps_lab lab[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE], centre[64];
    float w[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE];
    int label[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE], at[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE];
    int n = 0;
    for (int r = 0; r < rows; r++)
        for (int q = 0; q < cols; q++) {
            int k = (c->top + r) * c->nx + c->left + q;
            if (c->kind[k] == 1)
                continue; /* empty */
            lab[n] = c->s[k].lab;
            w[n] = c->s[k].uniform;
            at[n++] = r * PS_IMPORT_MAX_SIDE + q;
        }
    int k = ps_cluster_colours(lab, w, n, SAME_COLOUR, 64, centre, label);
    if (k < 0 || k > 9)
        return ps_error_set(err, NULL, 0, 0,
                            "the board shows %s colours; SameGame boards have "
                            "at most 9", k < 0 ? "over 64" : k == 10 ? "10" : "more than 9");
    /* A cropped picture has no background to tell empty cells by: a grey
     * or white that only ever sits on top of its column, as empty cells
     * do, is the board's empty colour. */
    for (int j = 0; j < k; j++) {
        if (ps_lab_chroma(centre[j]) > 10 || (centre[j].l > 30 && centre[j].l < 85))
            continue;
        bool on_top = true;
        for (int i = 0; i < n && on_top; i++) {
            int r = at[i] / PS_IMPORT_MAX_SIDE, q = at[i] % PS_IMPORT_MAX_SIDE;
            for (int i2 = 0; i2 < n && on_top; i2++)
                if (at[i2] % PS_IMPORT_MAX_SIDE == q && at[i2] / PS_IMPORT_MAX_SIDE < r)
                    on_top = !(label[i] == j && label[i2] != j);
        }
        if (!on_top)
            continue;
        int kept = 0;
        for (int i = 0; i < n; i++)
            if (label[i] != j) {
                lab[kept] = lab[i];
                w[kept] = w[i];
                at[kept++] = at[i];
            }
        n = kept;
        k = ps_cluster_colours(lab, w, n, SAME_COLOUR, 64, centre, label);
        break;
    }
    bool lit[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE] = {0};
    k = merge_highlight(at, n, label, centre, k, lit);
    if (k > 9)
        return ps_error_set(err, NULL, 0, 0, "the board shows %d colours; "
                            "SameGame boards have at most 9", k);
    int number[64];
    name_colours(centre, k, number);
    out->colours = k;
    for (int i = 0; i < k; i++)
        ps_lab_to_rgb(centre[i], out->rgb[number[i]]);
    for (int r = 0; r < rows; r++)
        for (int q = 0; q < cols; q++)
            out->confidence[r][q] = 1.0f;
    for (int i = 0; i < n; i++) {
        int r = at[i] / PS_IMPORT_MAX_SIDE, q = at[i] % PS_IMPORT_MAX_SIDE;
        out->cell[r][q] = (unsigned char)number[label[i]];
        /* Sure when near its own colour and far from every other. */
        float d1 = ps_lab_distance(lab[i], centre[label[i]]), d2 = 1e30f;
        for (int j = 0; j < k; j++)
            if (j != label[i] && ps_lab_distance(lab[i], centre[j]) < d2)
                d2 = ps_lab_distance(lab[i], centre[j]);
        float margin = k > 1 ? (d2 - d1) / (d2 + d1 + 1e-6f) : 1.0f;
        float flat = w[i] < FLAT ? w[i] / FLAT : 1.0f;
        out->confidence[r][q] = margin * flat;
        if (lit[i]) {
            out->confidence[r][q] = PS_IMPORT_UNSURE * 0.9f;
            out->highlighted++;
        }
    }
    /* A colour of one cell alone is far from its nearest colour by
     * definition, yet it is more often a misread (a cell half covered, a
     * highlight, an animation caught midway) than a colour of its own:
     * unsure, so that the player looks. */
    int members[64] = {0};
    for (int i = 0; i < n; i++)
        members[label[i]]++;
    for (int i = 0; i < n && n > 1; i++) {
        int r = at[i] / PS_IMPORT_MAX_SIDE, q = at[i] % PS_IMPORT_MAX_SIDE;
        if (members[label[i]] == 1 && out->confidence[r][q] >= PS_IMPORT_UNSURE)
            out->confidence[r][q] = PS_IMPORT_UNSURE * 0.98f;
    }
    return playable(out, err);
}

/* The score of the cut by lattices a (x) and b (y), 0 when none is made;
 * its sameness (sameness()) in *same. */
static double cut_score(const struct ps_image *img, const struct ps_lab *bg,
                        struct ps_lattice a, struct ps_lattice b, double *same,
                        bool debug)
{
    double aspect = a.period / b.period;
    struct cut c;
    *same = 0;
    if (aspect < 0.5 || aspect > 2.0 || !cut_make(img, bg, a, b, SAME_BACKGROUND, &c))
        return 0;
    *same = c.same;
    if (debug)
        fprintf(stderr, "cut %.2f+%.2f x %.2f+%.2f: %dx%d cells, board "
                "%d..%d x %d..%d, same %.3f, %sscore %.0f\n", c.lx.period,
                c.lx.phase, c.ly.period, c.ly.phase, c.nx, c.ny, c.left,
                c.right, c.top, c.bottom, c.same, c.fine ? "too fine, " : "", c.score);
    double score = c.score;
    cut_free(&c);
    return score;
}

/* A cut whose cells are twice as long one way as the other (half a cell
 * along one axis; tried from 4:3 on) often scores as well as the true one
 * on a sparse board: too few filled neighbours for too_fine to judge.
 * Cells are square in every game read here, so the square lattices near
 * the long side's spacing (on the short axis) and near the short side's
 * (on the long one) are scored too, and the best square one wins if it
 * scores within 15% and its cells are as alike in shape.
 * Measured on test_import's generated boards: a sparse 5x5 in psolve's
 * report style and a sparse star 10x10 were read at half their spacing. */
static void prefer_square(const struct ps_image *img, const struct ps_lab *bg,
                          const double *px, int lx, const double *py, int ly,
                          struct ps_lattice *x, struct ps_lattice *y, double *score,
                          double same, bool debug)
{
    double aspect = x->period / y->period;
    if (aspect > 0.75 && aspect < 1.33)
        return;
    /* Only where the cut found cells alike in shape: text and chrome cut
     * anyhow (a victory screen's banner, same 0.67) stay as they were. */
    if (same < 0.8)
        return;
    enum { TRIES = 4 }; /* two phases of each axis's square spacing */
    struct ps_lattice tx[TRIES], ty[TRIES];
    if (aspect <= 0.75) { /* x too fine, or y too coarse */
        ps_lattice_near(px, lx, y->period, tx);
        ty[0] = ty[1] = *y;
        ps_lattice_near(py, ly, x->period, ty + 2);
        tx[2] = tx[3] = *x;
    } else {
        ps_lattice_near(py, ly, x->period, ty);
        tx[0] = tx[1] = *x;
        ps_lattice_near(px, lx, y->period, tx + 2);
        ty[2] = ty[3] = *y;
    }
    double best = 0;
    int at = -1;
    for (int i = 0; i < TRIES; i++) {
        double a = tx[i].period / ty[i].period, same_i;
        if (a <= 0.75 || a >= 1.33)
            continue;
        double sc = cut_score(img, bg, tx[i], ty[i], &same_i, debug);
        if (debug)
            fprintf(stderr, "square try: same %.3f against %.3f\n", same_i, same);
        /* whole cells are at least as alike in shape as half cells */
        if (sc > best && same_i >= same - 0.01) {
            best = sc;
            at = i;
        }
    }
    if (at >= 0 && best >= 0.85 * *score) {
        *x = tx[at];
        *y = ty[at];
        *score = best;
    }
}

/* The lattice candidates of both axes (nx, ny of them) and the edge
 * profiles they came from (the caller frees *px and *py). */
static void lattice_candidates(const struct ps_image *img, struct ps_lattice *cx,
                               int *nx, struct ps_lattice *cy, int *ny,
                               double **px, int *lx, double **py, int *ly)
{
    *nx = *ny = 0;
    *px = ps_edge_profile(img, 0, lx);
    *py = ps_edge_profile(img, 1, ly);
    if (!*px || !*py)
        return;
    *nx = ps_lattice_candidates(*px, *lx, 6, *lx / 2, cx, MAX_CAND);
    *ny = ps_lattice_candidates(*py, *ly, 6, *ly / 2, cy, MAX_CAND);
    /* Cells are square in most games: each axis's first spacing is
     * tried on the other too (a sparse board can hide its spacing
     * along one axis under its cells' own shapes). */
    double from_y = *ny > 0 ? cy[0].period : 0, from_x = *nx > 0 ? cx[0].period : 0;
    if (from_y > 0 && from_y < *lx / 2) {
        ps_lattice_near(*px, *lx, from_y, cx + *nx);
        *nx += 2;
    }
    if (from_x > 0 && from_x < *ly / 2) {
        ps_lattice_near(*py, *ly, from_x, cy + *ny);
        *ny += 2;
    }
}

/* A cell colour near the background (#f0f0f0 cells on a #fafafa page)
 * reads as empty, and the board read is no position (a cell over an empty
 * one, an empty column left of a filled one): read again with only the
 * background's own colour empty. Taken only if the cells that revives are
 * one colour (a gradient or a shadow in the background would give many)
 * and the board is a position of 3x3 cells or more. Measured on
 * test_import's generated boards: a cropped sparse 10x20 was refused. */
static bool read_near_background(const struct ps_image *img, const struct ps_lab *bg,
                                 const struct cut *loose, struct ps_grid_read *out)
{
    struct cut exact;
    if (!cut_make(img, bg, loose->lx, loose->ly, EXACT_BACKGROUND, &exact))
        return false;
    struct ps_lab mean = {0, 0, 0};
    int revived = 0;
    for (int k = 0; k < loose->nx * loose->ny; k++)
        if (loose->kind[k] == 1 && exact.kind[k] == 2) {
            mean.l += exact.s[k].lab.l;
            mean.a += exact.s[k].lab.a;
            mean.b += exact.s[k].lab.b;
            revived++;
        }
    bool alike = revived > 0;
    if (alike) {
        mean.l /= (float)revived;
        mean.a /= (float)revived;
        mean.b /= (float)revived;
    }
    for (int k = 0; alike && k < loose->nx * loose->ny; k++)
        if (loose->kind[k] == 1 && exact.kind[k] == 2)
            alike = ps_lab_distance(exact.s[k].lab, mean) < EXACT_BACKGROUND;
    struct ps_error again;
    ps_error_clear(&again);
    /* A rescue, so not for a scrap: a digit's unlit segments on a dark
     * sprite read as a 2x2 "board" (onemoresamegame's score_9.png). */
    bool ok = alike && read_board(&exact, out, &again) && out->rows * out->cols >= 9;
    cut_free(&exact);
    return ok;
}

/* Read the board with background bg (NULL: none, every flat cell a colour)
 * from the best cut of the candidates. */
static bool read_with_background(const struct ps_image *img, const struct ps_lab *bg,
                                 const struct ps_lattice *cx, int nx,
                                 const struct ps_lattice *cy, int ny,
                                 const double *px, int lx, const double *py, int ly,
                                 struct ps_grid_read *out, struct ps_error *err)
{
    /* Score every pair, then take the finest lattice within 15% of the best
     * score: a lattice two or three times too coarse can find flat cells
     * too, one too fine is refused by too_fine. */
    double score[MAX_CAND + 2][MAX_CAND + 2], same[MAX_CAND + 2][MAX_CAND + 2], top = 0;
    bool debug = getenv("PSOLVE_IMPORT_DEBUG") != NULL;
    for (int i = 0; debug && i < (nx > ny ? nx : ny); i++)
        fprintf(stderr, "candidate %d: x %.2f+%.2f, y %.2f+%.2f\n", i,
                i < nx ? cx[i].period : 0, i < nx ? cx[i].phase : 0,
                i < ny ? cy[i].period : 0, i < ny ? cy[i].phase : 0);
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            score[i][j] = cut_score(img, bg, cx[i], cy[j], &same[i][j], debug);
            top = score[i][j] > top ? score[i][j] : top;
        }
    int bi = -1, bj = -1;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            if (score[i][j] <= 0 || score[i][j] < 0.85 * top)
                continue;
            double area = cx[i].period * cy[j].period;
            if (bi < 0 || area < 0.95 * cx[bi].period * cy[bj].period ||
                (area < 1.05 * cx[bi].period * cy[bj].period && score[i][j] > score[bi][bj])) {
                bi = i;
                bj = j;
            }
        }
    struct cut best;
    struct ps_lattice bx, by;
    if (bi >= 0) {
        bx = cx[bi];
        by = cy[bj];
        double sc = score[bi][bj];
        prefer_square(img, bg, px, lx, py, ly, &bx, &by, &sc, same[bi][bj], debug);
    }
    if (bi < 0 || !cut_make(img, bg, bx, by, SAME_BACKGROUND, &best))
        return ps_error_set(err, NULL, 0, 0,
                            "no grid of cells found (no regular spacing of "
                            "flat coloured cells in the picture)");
    /* read_board trims rows off best, never changes its cells' kinds:
     * the retry compares them with a stricter cut's. */
    bool ok = read_board(&best, out, err);
    if (!ok && bg)
        ok = read_near_background(img, bg, &best, out);
    cut_free(&best);
    return ok;
}

bool ps_grid_detect(const struct ps_image *img, struct ps_grid_read *out,
                    struct ps_error *err)
{
    struct ps_lattice cx[MAX_CAND + 2], cy[MAX_CAND + 2];
    int nx, ny, lx = 0, ly = 0;
    double *px, *py;
    lattice_candidates(img, cx, &nx, cy, &ny, &px, &lx, &py, &ly);
    /* Empty cells show the background; a picture cropped to the board has
     * a border of many colours, and no background. */
    struct ps_lab bg;
    bool have_bg = ps_border_colour(img, SAME_BACKGROUND, &bg);
    bool ok = read_with_background(img, have_bg ? &bg : NULL, cx, nx, cy, ny, px,
                                   lx, py, ly, out, err);
    /* A board cropped to its edges whose border is mostly one colour of
     * cells gives that colour as the background, and its cells read as
     * empty: if that reads no board and the "background" is as vivid as
     * a cell's colour (a page's white, grey or night sky is not, nor a
     * Water Sort game's pale blue), the picture is read again with no
     * background (test_import's cropped 5x5). */
    if (!ok && have_bg && ps_lab_chroma(bg) > VIVID) {
        struct ps_error again;
        ps_error_clear(&again);
        ok = read_with_background(img, NULL, cx, nx, cy, ny, px, lx, py, ly, out,
                                  &again);
    }
    free(px);
    free(py);
    return ok;
}
