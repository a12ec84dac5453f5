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

/* Decode `data` (a PNG or JPEG file's bytes; `name` for messages) and read
 * the puzzle: the text (malloc'd, NUL-terminated) in the file format of the
 * game named in *game ("samegame" or "watersort", chosen by the picture
 * when kind is PS_IMPORT_ANY). */
bool ps_import_picture(const unsigned char *data, size_t len, const char *name,
                       enum ps_import_kind kind, char **text,
                       const char **game, struct ps_error *err);

#endif
