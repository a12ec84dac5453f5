/*
 * draw_picture_main.c - draw_picture: a screenshot made to order, for the
 * import benchmark (scripts/bench-import.sh) and the docs' example:
 *   draw_picture board ROWS COLS COLOURS CELL SEED OUT.png|OUT.jpg [popstar|phone]
 *   draw_picture tubes COLOURS CAPACITY SEED OUT.png|OUT.jpg
 * "popstar" draws a PopStar-like board (bevelled cells on a night sky, a
 * status bar and buttons); "phone" pads that to a 1080x2400 portrait
 * screenshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw_picture.h"

static unsigned next(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static int save(const char *path, const unsigned char *rgb, int w, int h)
{
    size_t n = strlen(path), len;
    int quality = n > 4 && strcmp(path + n - 4, ".jpg") == 0 ? 90 : 0;
    unsigned char *file = draw_encode(rgb, w, h, quality, &len);
    FILE *f = fopen(path, "wb");
    if (!file || !f || fwrite(file, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "draw_picture: cannot write %s\n", path);
        return 1;
    }
    free(file);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 8 && strcmp(argv[1], "board") == 0) {
        int rows = atoi(argv[2]), cols = atoi(argv[3]), colours = atoi(argv[4]);
        unsigned seed = (unsigned)atoi(argv[6]);
        if (rows < 1 || rows > 32 || cols < 1 || cols > 32 || colours < 1 || colours > 9)
            return 2;
        unsigned char cells[32 * 32];
        for (int i = 0; i < rows * cols; i++)
            cells[i] = (unsigned char)(1 + next(&seed) % (unsigned)colours);
        bool phone = argc > 8 && strcmp(argv[8], "phone") == 0;
        bool popstar = phone || (argc > 8 && strcmp(argv[8], "popstar") == 0);
        struct draw_style st = {.cell = atof(argv[5]), .margin = 16, .seed = seed};
        if (popstar)
            st = (struct draw_style){.cell = atof(argv[5]), .gap = 2, .shape = SHAPE_BEVEL,
                                     .palette = 1, .dark = true, .gradient = true,
                                     .chrome = true, .margin = 8, .seed = seed};
        int w, h;
        unsigned char *rgb = draw_board(cells, rows, cols, &st, &w, &h);
        if (!rgb)
            return 1;
        if (phone && w <= 1080 && h <= 2400) { /* pad: night sky above and below */
            unsigned char *big = malloc((size_t)1080 * 2400 * 3);
            if (!big)
                return 1;
            for (int y = 0; y < 2400; y++)
                for (int x = 0; x < 1080; x++) {
                    unsigned char *p = big + ((size_t)y * 1080 + (size_t)x) * 3;
                    int sy = y - (2400 - h) / 2, sx = x - (1080 - w) / 2;
                    if (sy >= 0 && sy < h && sx >= 0 && sx < w)
                        memcpy(p, rgb + ((size_t)sy * (size_t)w + (size_t)sx) * 3, 3);
                    else
                        p[0] = 22, p[1] = 26, p[2] = 64;
                }
            free(rgb);
            rgb = big;
            w = 1080;
            h = 2400;
        }
        int rc = save(argv[7], rgb, w, h);
        free(rgb);
        return rc;
    }
    if (argc >= 6 && strcmp(argv[1], "tubes") == 0) {
        int colours = atoi(argv[2]), capacity = atoi(argv[3]);
        unsigned seed = (unsigned)atoi(argv[4]);
        if (colours < 1 || colours > 16 || capacity < 2 || capacity > 16 || colours + 2 > 32)
            return 2;
        unsigned char units[32 * 16] = {0}, pool[16 * 16];
        int count[32] = {0}, n = colours * capacity, tubes = colours + 2;
        for (int i = 0; i < n; i++)
            pool[i] = (unsigned char)(1 + i / capacity);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(next(&seed) % (unsigned)(i + 1));
            unsigned char t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        for (int i = 0; i < n; i++)
            units[(i / capacity) * 16 + i % capacity] = pool[i];
        for (int t = 0; t < colours; t++)
            count[t] = capacity;
        struct draw_tubes_style st = {.unit = 30, .width = 46, .per_row = tubes > 8 ? (tubes + 1) / 2 : 0,
                                      .chrome = true, .seed = seed};
        int w, h;
        unsigned char *rgb = draw_tubes(units, count, tubes, capacity, &st, &w, &h);
        if (!rgb)
            return 1;
        int rc = save(argv[5], rgb, w, h);
        free(rgb);
        return rc;
    }
    fprintf(stderr, "usage: draw_picture board ROWS COLS COLOURS CELL SEED OUT [popstar|phone]\n"
                    "       draw_picture tubes COLOURS CAPACITY SEED OUT\n");
    return 2;
}
