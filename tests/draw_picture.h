/*
 * draw_picture.h - screenshots made to order for the import tests: SameGame
 * boards and Water Sort levels drawn in several styles (cell shapes, gaps,
 * gradients, palettes, chrome around the puzzle, scale, JPEG), so that every
 * detector path is tried on a picture whose puzzle is known.
 */
#ifndef DRAW_PICTURE_H
#define DRAW_PICTURE_H

#include <stdbool.h>
#include <stddef.h>

enum draw_shape { SHAPE_SQUARE, SHAPE_ROUNDED, SHAPE_CIRCLE, SHAPE_STAR, SHAPE_BEVEL };

struct draw_style {
    double cell;          /* pixels per cell (fractional: a scaled picture) */
    double gap;           /* pixels between cells */
    enum draw_shape shape;
    int palette;          /* 0 psolve's, 1 bright (PopStar-like), 2 muted */
    bool dark;            /* a dark background (else light) */
    bool gradient;        /* shading and a highlight inside each cell */
    bool chrome;          /* a status bar, score texts and buttons around */
    bool grid_lines;      /* thin lines between cells (psolve's page) */
    int margin;           /* pixels around the puzzle */
    unsigned seed;        /* the chrome's and the noise's */
};

/* A board (rows x cols, 0 empty, 1..9) as an RGB picture; *w, *h its size. */
unsigned char *draw_board(const unsigned char *cells, int rows, int cols,
                          const struct draw_style *s, int *w, int *h);

/* A level: tube t holds count[t] units units[t*16 + k] (bottom first,
 * 1..16); balls draws round balls, water merges a run of one colour. */
struct draw_tubes_style {
    int unit;      /* pixels per unit */
    int width;     /* tube width */
    int per_row;   /* tubes per row (two rows when fewer than the tubes) */
    bool balls, water, dark, chrome;
    unsigned seed;
};
unsigned char *draw_tubes(const unsigned char *units, const int *count, int tubes,
                          int capacity, const struct draw_tubes_style *s, int *w,
                          int *h);

/* PNG (quality 0) or JPEG (quality 1..100) file bytes, malloc'd. */
unsigned char *draw_encode(const unsigned char *rgb, int w, int h, int quality,
                           size_t *len);

#endif
