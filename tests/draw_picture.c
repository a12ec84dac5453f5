/*
 * draw_picture.c - the test pictures of draw_picture.h, drawn pixel by
 * pixel with 3x3 supersampling (edges blend as in a real screenshot) and
 * encoded with libpng and libjpeg-turbo (what psolve decodes with).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <turbojpeg.h>

#include "draw_picture.h"

#define PI 3.14159265358979323846

static const unsigned char palettes[3][17][3] = {
    {{0, 0, 0}, {0xe5, 0x39, 0x35}, {0x43, 0xa0, 0x47}, {0x1e, 0x88, 0xe5}, {0xfd, 0xd8, 0x35},
     {0x8e, 0x24, 0xaa}, {0x00, 0xac, 0xc1}, {0xfb, 0x8c, 0x00}, {0xd8, 0x1b, 0x60},
     {0x6d, 0x4c, 0x41}, {0x7c, 0xb3, 0x42}, {0x39, 0x49, 0xab}, {0xc0, 0xca, 0x33},
     {0x00, 0x89, 0x7b}, {0x54, 0x6e, 0x7a}, {0xf0, 0x62, 0x92}, {0x21, 0x21, 0x21}},
    {{0, 0, 0}, {255, 60, 70}, {60, 220, 90}, {50, 140, 255}, {255, 215, 40},
     {190, 80, 255}, {40, 220, 230}, {255, 150, 30}, {255, 80, 200}, {240, 240, 240}},
    {{0, 0, 0}, {180, 70, 60}, {90, 150, 90}, {70, 100, 170}, {210, 190, 90},
     {130, 90, 150}, {80, 160, 170}, {200, 130, 70}, {170, 80, 120}, {200, 200, 190}},
};

static unsigned rng_next(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

struct canvas {
    int w, h;
    float *px; /* w * h * 3 */
};

static void fill_rect(struct canvas *c, double x0, double y0, double x1, double y1,
                      const float rgb[3])
{
    for (int y = (int)floor(y0); y < (int)ceil(y1); y++)
        for (int x = (int)floor(x0); x < (int)ceil(x1); x++) {
            if (x < 0 || y < 0 || x >= c->w || y >= c->h)
                continue;
            /* Coverage of the pixel by the rectangle, for soft edges. */
            double cx = fmin(x + 1, x1) - fmax(x, x0), cy = fmin(y + 1, y1) - fmax(y, y0);
            if (cx <= 0 || cy <= 0)
                continue;
            float a = (float)(cx * cy);
            float *p = c->px + ((size_t)y * (size_t)c->w + (size_t)x) * 3;
            for (int k = 0; k < 3; k++)
                p[k] = p[k] * (1 - a) + rgb[k] * a;
        }
}

/* Is (u, v), in a cell's own coordinates -1..1, inside the shape? */
static bool inside(enum draw_shape shape, double u, double v)
{
    switch (shape) {
    case SHAPE_SQUARE:
    case SHAPE_BEVEL:
        return fabs(u) <= 1 && fabs(v) <= 1;
    case SHAPE_ROUNDED: {
        double r = 0.35, ax = fabs(u) - (1 - r), ay = fabs(v) - (1 - r);
        if (fabs(u) > 1 || fabs(v) > 1)
            return false;
        return ax <= 0 || ay <= 0 || ax * ax + ay * ay <= r * r;
    }
    case SHAPE_CIRCLE:
        return u * u + v * v <= 1;
    case SHAPE_STAR: {
        double r = sqrt(u * u + v * v), a = atan2(v, u) + PI / 2;
        double k = fmod(a * 5 / (2 * PI) + 10, 1.0); /* 5 points */
        double edge = 0.5 + 0.5 * fabs(2 * k - 1);      /* 0.5 .. 1 */
        return r <= edge * 1.0;
    }
    }
    return false;
}

/* One cell's shape, shaded, supersampled 3x3 over its pixels. */
static void draw_cell(struct canvas *c, double x0, double y0, double size,
                      const struct draw_style *s, const unsigned char col[3])
{
    for (int y = (int)floor(y0); y < (int)ceil(y0 + size); y++)
        for (int x = (int)floor(x0); x < (int)ceil(x0 + size); x++) {
            if (x < 0 || y < 0 || x >= c->w || y >= c->h)
                continue;
            float acc[3] = {0, 0, 0};
            int hits = 0;
            for (int sy = 0; sy < 3; sy++)
                for (int sx = 0; sx < 3; sx++) {
                    double u = ((x + (sx + 0.5) / 3) - x0) / size * 2 - 1;
                    double v = ((y + (sy + 0.5) / 3) - y0) / size * 2 - 1;
                    if (!inside(s->shape, u, v))
                        continue;
                    float shade = 1.0f;
                    if (s->gradient) /* lighter top left, a soft highlight */
                        shade = (float)(1.08 - 0.12 * (u + v) / 2 +
                                        0.10 * exp(-((u + 0.4) * (u + 0.4) + (v + 0.5) * (v + 0.5)) * 6));
                    if (s->shape == SHAPE_BEVEL && (fabs(u) > 0.82 || fabs(v) > 0.82))
                        shade = (u + v < 0) ? 1.35f : 0.65f;
                    for (int k = 0; k < 3; k++) {
                        float val = col[k] * shade;
                        acc[k] += val > 255 ? 255 : val;
                    }
                    hits++;
                }
            if (!hits)
                continue;
            float a = (float)hits / 9.0f;
            float *p = c->px + ((size_t)y * (size_t)c->w + (size_t)x) * 3;
            for (int k = 0; k < 3; k++)
                p[k] = p[k] * (1 - a) + acc[k] / (float)hits * a;
        }
}

static bool canvas_make(struct canvas *c, int w, int h, bool dark, unsigned seed)
{
    c->w = w;
    c->h = h;
    c->px = malloc(sizeof *c->px * (size_t)w * (size_t)h * 3);
    if (!c->px)
        return false;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float *p = c->px + ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (dark) { /* a night-sky gradient, as PopStar's */
                p[0] = 20 + 15.0f * (float)y / (float)h;
                p[1] = 24 + 10.0f * (float)y / (float)h;
                p[2] = 58 + 30.0f * (float)y / (float)h;
            } else {
                p[0] = p[1] = p[2] = 250;
            }
        }
    unsigned r = seed;
    if (dark) /* stars */
        for (int i = 0; i < w * h / 900; i++) {
            int x = (int)(rng_next(&r) % (unsigned)w), y = (int)(rng_next(&r) % (unsigned)h);
            float *p = c->px + ((size_t)y * (size_t)w + (size_t)x) * 3;
            p[0] = p[1] = p[2] = 200;
        }
    return true;
}

/* A status bar at the top, "text" (blocks of strokes) and buttons. */
static void draw_chrome(struct canvas *c, int top, int bottom, unsigned seed)
{
    static const float bar[3] = {30, 30, 30}, ink[3] = {235, 235, 235},
                       button[3] = {250, 170, 40}, gold[3] = {255, 215, 0};
    unsigned r = seed;
    fill_rect(c, 0, 0, c->w, 24, bar);
    for (int i = 0; i < 6; i++) /* clock, battery */
        fill_rect(c, 10 + i * 9, 7, 16 + i * 9, 17, ink);
    fill_rect(c, c->w - 40, 7, c->w - 12, 17, ink);
    /* A score line: digits as strokes. */
    for (int i = 0; i < 12; i++) {
        double x = c->w * 0.3 + i * 11;
        fill_rect(c, x, top - 40, x + 3 + rng_next(&r) % 5, top - 22, gold);
    }
    for (int i = 0; i < 3; i++) {
        double x = c->w * (0.1 + 0.3 * i);
        fill_rect(c, x, bottom + 20, x + c->w * 0.2, bottom + 50, button);
        fill_rect(c, x + 10, bottom + 30, x + c->w * 0.2 - 10, bottom + 38, ink);
    }
}

static unsigned char *canvas_bytes(struct canvas *c)
{
    size_t n = (size_t)c->w * (size_t)c->h * 3;
    unsigned char *out = malloc(n);
    for (size_t i = 0; out && i < n; i++) {
        float v = c->px[i];
        out[i] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5f);
    }
    free(c->px);
    return out;
}

unsigned char *draw_board(const unsigned char *cells, int rows, int cols,
                          const struct draw_style *s, int *w, int *h)
{
    int chrome_top = s->chrome ? 90 : 0, chrome_bottom = s->chrome ? 80 : 0;
    double pitch = s->cell + s->gap;
    int bw = (int)ceil(cols * pitch), bh = (int)ceil(rows * pitch);
    *w = bw + 2 * s->margin;
    *h = bh + 2 * s->margin + chrome_top + chrome_bottom;
    struct canvas c;
    if (!canvas_make(&c, *w, *h, s->dark, s->seed))
        return NULL;
    double ox = s->margin, oy = s->margin + chrome_top;
    static const float line[3] = {0xdd, 0xdd, 0xdd}, white[3] = {255, 255, 255};
    for (int r = 0; r < rows; r++)
        for (int q = 0; q < cols; q++) {
            unsigned char v = cells[r * cols + q];
            double x = ox + q * pitch + s->gap / 2, y = oy + r * pitch + s->gap / 2;
            if (s->grid_lines) /* psolve's page: white empties, grey lines */
                fill_rect(&c, x, y, x + s->cell, y + s->cell, v ? white : white);
            if (v)
                draw_cell(&c, x, y, s->cell, s, palettes[s->palette][v]);
            if (s->grid_lines) {
                fill_rect(&c, x, y, x + s->cell, y + 1, line);
                fill_rect(&c, x, y, x + 1, y + s->cell, line);
            }
        }
    if (s->chrome)
        draw_chrome(&c, (int)oy, (int)(oy + bh), s->seed);
    return canvas_bytes(&c);
}

unsigned char *draw_tubes(const unsigned char *units, const int *count, int tubes,
                          int capacity, const struct draw_tubes_style *s, int *w,
                          int *h)
{
    int per_row = s->per_row > 0 && s->per_row < tubes ? s->per_row : tubes;
    int rows = (tubes + per_row - 1) / per_row, gap = s->width / 2 + 8;
    int th = capacity * s->unit + s->width / 2 + 10; /* tube height, with headroom */
    int top = s->chrome ? 100 : 20;
    *w = per_row * (s->width + gap) + gap + 20;
    *h = top + rows * (th + 40) + (s->chrome ? 90 : 20);
    struct canvas c;
    if (!canvas_make(&c, *w, *h, s->dark, s->seed))
        return NULL;
    const float glass[3] = {s->dark ? 200.f : 90.f, s->dark ? 200.f : 90.f,
                            s->dark ? 210.f : 100.f};
    for (int t = 0; t < tubes; t++) {
        double x = 10 + gap + (t % per_row) * (s->width + gap);
        double y = top + (t / per_row) * (th + 40);
        double bottom = y + th - 4;
        /* The outline: two sides and a bottom (an open top, as a test tube). */
        fill_rect(&c, x, y, x + 3, y + th, glass);
        fill_rect(&c, x + s->width - 3, y, x + s->width, y + th, glass);
        fill_rect(&c, x, y + th - 3, x + s->width, y + th, glass);
        for (int k = 0; k < count[t]; k++) {
            const unsigned char *col = palettes[0][units[t * 16 + k]];
            double uy = bottom - (k + 1) * s->unit;
            if (s->balls) {
                struct draw_style ball = {.shape = SHAPE_CIRCLE, .gradient = true};
                double d = fmin(s->unit - 2, s->width - 10);
                draw_cell(&c, x + (s->width - d) / 2, uy + (s->unit - d) / 2, d, &ball, col);
            } else {
                bool merge = s->water && k + 1 < count[t] && units[t * 16 + k + 1] == units[t * 16 + k];
                float f[3] = {col[0], col[1], col[2]};
                fill_rect(&c, x + 5, uy + (merge ? 0 : 2), x + s->width - 5, uy + s->unit, f);
            }
        }
    }
    if (s->chrome) {
        static const float bar[3] = {30, 30, 30}, ink[3] = {235, 235, 235};
        fill_rect(&c, 0, 0, c.w, 24, bar);
        fill_rect(&c, 10, 7, 60, 17, ink);
        fill_rect(&c, c.w / 2 - 50, 50, c.w / 2 + 50, 75, ink);
    }
    return canvas_bytes(&c);
}

unsigned char *draw_encode(const unsigned char *rgb, int w, int h, int quality,
                           size_t *len)
{
    if (quality > 0) {
        tjhandle tj = tjInitCompress();
        unsigned char *jpeg = NULL;
        unsigned long size = 0;
        int rc = tj ? tjCompress2(tj, rgb, w, 0, h, TJPF_RGB, &jpeg, &size, TJSAMP_420,
                                  quality, 0)
                    : -1;
        if (tj)
            tjDestroy(tj);
        unsigned char *out = rc == 0 ? malloc(size) : NULL;
        if (out)
            memcpy(out, jpeg, size);
        tjFree(jpeg);
        *len = size;
        return out;
    }
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    pi.width = (png_uint_32)w;
    pi.height = (png_uint_32)h;
    pi.format = PNG_FORMAT_RGB;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&pi, NULL, &size, 0, rgb, 0, NULL))
        return NULL;
    unsigned char *out = malloc(size);
    if (out && !png_image_write_to_memory(&pi, out, &size, 0, rgb, 0, NULL)) {
        free(out);
        return NULL;
    }
    *len = size;
    return out;
}
