/*
 * import.c - from a picture's bytes to a puzzle file's text: decode,
 * shrink a large picture (detection needs about 20 pixels a cell, not a
 * phone's full resolution), run the detectors, and write what they saw as
 * the game's file format with '#' comments a player can check it against.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

/* Pictures are shrunk until the longer side is at most this. */
#define WORK_SIDE 1000

struct text {
    char *buf;
    size_t len, cap;
    bool failed;
};

static void put(struct text *t, const char *fmt, ...) PS_PRINTF(2, 3);
static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || t->failed)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap ? t->cap * 2 : 1024) + (size_t)n;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->failed = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static const char letters[] = ".RGBYPOCMW";

/* The confidence lines both games share: the lowest, and every unsure one. */
static void put_unsure(struct text *t, const char *what, int n,
                       const float *conf, const int *a, const int *b,
                       const char *a_name, const char *b_name)
{
    int unsure = 0, low = -1;
    for (int i = 0; i < n; i++) {
        unsure += conf[i] < PS_IMPORT_UNSURE;
        if (low < 0 || conf[i] < conf[low])
            low = i;
    }
    if (low < 0)
        return;
    put(t, "# lowest confidence %.2f (%s %d, %s %d); %d unsure %s (under %.2f)%s\n",
        (double)conf[low], a_name, a[low], b_name, b[low], unsure, what,
        (double)PS_IMPORT_UNSURE, unsure ? ", check them:" : "");
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (conf[i] >= PS_IMPORT_UNSURE)
            continue;
        bool first = shown % 6 == 0, last = ++shown % 6 == 0 || shown == unsure;
        put(t, "%s %s %d %s %d (%.2f)%s", first ? "#  " : "", a_name, a[i], b_name, b[i],
            (double)conf[i], last ? "\n" : ";");
    }
}

static void put_grid(struct text *t, const struct ps_grid_read *g, double f)
{
    put(t, "# a SameGame board: %d rows x %d columns, cells %.1f x %.1f px, "
           "top left corner at x %.0f, y %.0f\n",
        g->rows, g->cols, g->pitch_x * f, g->pitch_y * f, g->x0 * f, g->y0 * f);
    put(t, "# colours:");
    for (int c = 1; c <= 9; c++)
        for (int r = 0; r < g->rows; r++) {
            bool found = false;
            for (int q = 0; q < g->cols && !found; q++)
                found = g->cell[r][q] == c;
            if (found) {
                put(t, " %c #%02x%02x%02x", letters[c], g->rgb[c][0], g->rgb[c][1], g->rgb[c][2]);
                break;
            }
        }
    put(t, "\n");
    if (g->highlighted)
        put(t, "# %d cells of one group are drawn lighter than their colour (the "
               "pointer over it, or a selection): read as that colour, marked "
               "unsure\n", g->highlighted);
    float conf[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE];
    int rr[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE], cc[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE];
    int n = 0;
    for (int r = 0; r < g->rows; r++)
        for (int q = 0; q < g->cols; q++) {
            conf[n] = g->confidence[r][q];
            rr[n] = r;
            cc[n++] = q;
        }
    put_unsure(t, "cells", n, conf, rr, cc, "row", "column");
    put(t, "# rows and columns count from 0 at the top left, as moves do\n");
    for (int r = 0; r < g->rows; r++) {
        for (int q = 0; q < g->cols; q++)
            put(t, "%c", letters[g->cell[r][q]]);
        put(t, "\n");
    }
}

static void put_tubes(struct text *t, const struct ps_tubes_read *v, double f)
{
    put(t, "# a Water Sort level: %d tubes of %d units, %d colours\n", v->tubes,
        v->capacity, v->colours);
    if (v->capacity_guessed)
        put(t, "# the colours do not come equally often: the capacity is a guess "
               "from the tubes' height; check it\n");
    put(t, "# tubes at (x, y, width, height):");
    for (int i = 0; i < v->tubes; i++)
        put(t, " %d (%.0f, %.0f, %.0f, %.0f);", i + 1, v->box[i][0] * f,
            v->box[i][1] * f, v->box[i][2] * f, v->box[i][3] * f);
    put(t, "\n# colours:");
    for (int c = 1; c <= v->colours; c++)
        put(t, " %d #%02x%02x%02x", c, v->rgb[c][0], v->rgb[c][1], v->rgb[c][2]);
    put(t, "\n");
    float conf[PS_IMPORT_MAX_TUBES * PS_IMPORT_MAX_UNITS];
    int tt[PS_IMPORT_MAX_TUBES * PS_IMPORT_MAX_UNITS], uu[PS_IMPORT_MAX_TUBES * PS_IMPORT_MAX_UNITS];
    int n = 0;
    for (int i = 0; i < v->tubes; i++)
        for (int u = 0; u < v->count[i]; u++) {
            conf[n] = v->confidence[i][u];
            tt[n] = i + 1;
            uu[n++] = u + 1;
        }
    put_unsure(t, "units", n, conf, tt, uu, "tube", "unit");
    put(t, "# units count from 1 at the bottom\ncapacity %d\n", v->capacity);
    for (int i = 0; i < v->tubes; i++) {
        if (!v->count[i])
            put(t, "-");
        for (int u = 0; u < v->count[i]; u++)
            put(t, "%s%d", u ? " " : "", v->units[i][u]);
        put(t, "\n");
    }
}

/* The unsure cells or units of a read into seen (already zeroed). */
static void seen_unsure(struct ps_import_seen *seen, int a, int b, float conf)
{
    int cap = (int)(sizeof seen->unsure / sizeof seen->unsure[0]);
    if (conf >= PS_IMPORT_UNSURE || seen->nunsure >= cap)
        return;
    seen->unsure[seen->nunsure][0] = a;
    seen->unsure[seen->nunsure][1] = b;
    seen->unsure_confidence[seen->nunsure++] = conf;
}

static void seen_grid(struct ps_import_seen *seen, const struct ps_grid_read *g,
                      double f)
{
    seen->game = "samegame";
    seen->rows = g->rows;
    seen->cols = g->cols;
    seen->x0 = g->x0 * f;
    seen->y0 = g->y0 * f;
    seen->pitch_x = g->pitch_x * f;
    seen->pitch_y = g->pitch_y * f;
    seen->colours = 9; /* the letters' values; those not seen are black */
    memcpy(seen->rgb, g->rgb, sizeof g->rgb);
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++)
            seen_unsure(seen, r, c, g->confidence[r][c]);
}

static void seen_tubes(struct ps_import_seen *seen,
                       const struct ps_tubes_read *v, double f)
{
    seen->game = "watersort";
    seen->tubes = v->tubes;
    seen->colours = v->colours;
    memcpy(seen->rgb, v->rgb, sizeof v->rgb);
    for (int t = 0; t < v->tubes; t++) {
        for (int k = 0; k < 4; k++)
            seen->box[t][k] = (int)(v->box[t][k] * f);
        for (int u = 0; u < v->count[t]; u++)
            seen_unsure(seen, t, u, v->confidence[t][u]);
    }
}

bool ps_import_picture(const unsigned char *data, size_t len, const char *name,
                       enum ps_import_kind kind, char **text,
                       struct ps_import_seen *seen, struct ps_error *err)
{
    *text = NULL;
    memset(seen, 0, sizeof *seen);
    struct ps_image img;
    if (!ps_image_decode(data, len, name, &img, err))
        return false;
    int w = img.w, h = img.h;
    int side = w > h ? w : h, f = (side + WORK_SIDE - 1) / WORK_SIDE;
    if (!ps_image_shrink(&img, f, err)) {
        ps_image_free(&img);
        return false;
    }
    struct ps_grid_read *grid = malloc(sizeof *grid);
    struct ps_tubes_read *tubes = malloc(sizeof *tubes);
    struct ps_error grid_err, tubes_err;
    ps_error_clear(&grid_err);
    ps_error_clear(&tubes_err);
    bool have_grid = false, have_tubes = false;
    if (grid && tubes) {
        have_grid = kind != PS_IMPORT_TUBES && ps_grid_detect(&img, grid, &grid_err);
        have_tubes = kind != PS_IMPORT_GRID && ps_tubes_detect(&img, kind == PS_IMPORT_TUBES,
                                                                     tubes, &tubes_err);
    }
    ps_image_free(&img);
    /* Both read: tubes are the pickier find (hollow outlines of one size,
     * standing level, whose contents fit one unit height); a row of tubes
     * also cuts into cells that look like a board, not the other way. */
    if (have_grid && have_tubes)
        have_grid = false;
    struct text t = {0};
    bool ok = grid && tubes && (have_grid || have_tubes);
    if (ok) {
        put(&t, "# psolve import: %s, a %dx%d picture\n", name, w, h);
        seen->width = w;
        seen->height = h;
        if (have_grid) {
            put_grid(&t, grid, f);
            seen_grid(seen, grid, f);
        } else {
            put_tubes(&t, tubes, f);
            seen_tubes(seen, tubes, f);
        }
        if (t.failed) {
            free(t.buf);
            t.buf = NULL;
            ok = ps_error_set(err, name, 0, 0, "out of memory");
        }
        *text = t.buf;
    } else if (!grid || !tubes) {
        ps_error_set(err, name, 0, 0, "out of memory");
    } else {
        const struct ps_error *why = kind == PS_IMPORT_TUBES ? &tubes_err : &grid_err;
        if (kind == PS_IMPORT_ANY)
            ps_error_set(err, name, 0, 0, "%s; nor a row of tubes (%s)",
                         grid_err.msg, tubes_err.msg);
        else
            ps_error_set(err, name, 0, 0, "%s", why->msg);
    }
    free(grid);
    free(tubes);
    return ok;
}
