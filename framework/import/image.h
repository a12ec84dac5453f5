/*
 * image.h - pictures for psolve import: decode a PNG or JPEG held in memory
 * into 8-bit RGB, refusing forged or enormous headers before decoding.
 */
#ifndef PS_IMAGE_H
#define PS_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Largest picture decoded: a side of 16384 pixels, 40 million pixels in all
 * (a 1440x3200 phone screenshot is 4.6 million). */
#define PS_IMAGE_MAX_SIDE 16384
#define PS_IMAGE_MAX_PIXELS (40u * 1000u * 1000u)

struct ps_image {
    int w, h;
    unsigned char *rgb; /* w * h * 3 bytes, row-major, top row first */
};

/* True when the bytes start like a PNG or a JPEG file (inline: a build
 * without picture import still tells a picture from a text file). */
static inline bool ps_image_sniff(const unsigned char *data, size_t len)
{
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (len >= 8) {
        bool is_png = true;
        for (int i = 0; i < 8; i++)
            is_png &= data[i] == png[i];
        if (is_png)
            return true;
    }
    return len >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff;
}

/* Decode data (a PNG or JPEG file's bytes); `name` is for messages. */
bool ps_image_decode(const unsigned char *data, size_t len, const char *name,
                     struct ps_image *img, struct ps_error *err);

/* Shrink by an integer factor (a box average), in place; factor 1 keeps it. */
bool ps_image_shrink(struct ps_image *img, int factor, struct ps_error *err);

void ps_image_free(struct ps_image *img);

#endif
