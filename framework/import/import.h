/*
 * import.h - psolve import: read a SameGame board or a Water Sort level
 * from a screenshot (docs/import.md). The result is the puzzle as text in
 * the game's own file format, with '#' comments saying what was seen, so
 * everything after the import is the ordinary file path.
 */
#ifndef PS_IMPORT_H
#define PS_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "image.h"

#define PS_IMPORT_MAX_SIDE 32   /* rows, columns (SameGame's limit) */
#define PS_IMPORT_MAX_TUBES 32
#define PS_IMPORT_MAX_UNITS 16  /* tube capacity */
#define PS_IMPORT_UNSURE 0.5f   /* a cell under this confidence is flagged */

/* A board read from a picture. Geometry is in the picture's own pixels:
 * cell (r, c) spans x0 + c*pitch_x .. x0 + (c+1)*pitch_x, likewise y. */
struct ps_grid_read {
    int rows, cols, colours;
    double x0, y0, pitch_x, pitch_y;
    unsigned char cell[PS_IMPORT_MAX_SIDE][PS_IMPORT_MAX_SIDE]; /* 0 empty, 1..9 */
    float confidence[PS_IMPORT_MAX_SIDE][PS_IMPORT_MAX_SIDE];   /* 0..1 */
    unsigned rgb[10][3];  /* the colour seen for each colour number */
    int highlighted;      /* cells of a group drawn lighter, read as its colour */
};

/* A level read from a picture: tube t holds units[t][0..count[t]-1], bottom
 * first; its box in the picture is x, y, w, h. */
struct ps_tubes_read {
    int tubes, capacity, colours;
    bool capacity_guessed; /* from the tubes' height: colours are uneven */
    int count[PS_IMPORT_MAX_TUBES];
    unsigned char units[PS_IMPORT_MAX_TUBES][PS_IMPORT_MAX_UNITS]; /* 1..colours */
    float confidence[PS_IMPORT_MAX_TUBES][PS_IMPORT_MAX_UNITS];
    int box[PS_IMPORT_MAX_TUBES][4];
    unsigned rgb[65][3];
};

bool ps_grid_detect(const struct ps_image *img, struct ps_grid_read *out,
                    struct ps_error *err);
/* solid_ok: also tubes full to a thin outline (solid pieces), which a
 * column of one colour's cells can look like: for pictures said to be a
 * level. */
bool ps_tubes_detect(const struct ps_image *img, bool solid_ok,
                     struct ps_tubes_read *out, struct ps_error *err);

/* Which games a picture can become. */
enum ps_import_kind { PS_IMPORT_ANY, PS_IMPORT_GRID, PS_IMPORT_TUBES };

/* Where the puzzle was seen, in the picture's own pixels: what psolve
 * serve needs to mark the unsure cells and draw the moves on the player's
 * screenshot (psolve import --json prints it). */
struct ps_import_seen {
    const char *game;        /* "samegame" or "watersort" */
    int width, height;       /* the picture's */
    int rows, cols;          /* a board: cell (r, c) spans x0 + c*pitch_x .. */
    double x0, y0, pitch_x, pitch_y;
    int colours;             /* cell or unit values 1..colours were seen */
    unsigned rgb[65][3];     /* as rgb[value] */
    int tubes;               /* a level: tube t's box is box[t] (x, y, w, h) */
    int box[PS_IMPORT_MAX_TUBES][4];
    /* The cells (row, column) or units (tube, unit from the bottom), all
     * from 0, under PS_IMPORT_UNSURE, and their confidences. */
    int nunsure;
    int unsure[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE][2];
    float unsure_confidence[PS_IMPORT_MAX_SIDE * PS_IMPORT_MAX_SIDE];
};

/* Decode `data` (a PNG or JPEG file's bytes; `name` for messages) and read
 * the puzzle: the text (malloc'd, NUL-terminated) in the file format of the
 * game named in seen->game ("samegame" or "watersort", chosen by the
 * picture when kind is PS_IMPORT_ANY), and where it was seen. */
bool ps_import_picture(const unsigned char *data, size_t len, const char *name,
                       enum ps_import_kind kind, char **text,
                       struct ps_import_seen *seen, struct ps_error *err);

#endif
