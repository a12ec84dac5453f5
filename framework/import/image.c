/*
 * image.c - decoding with Debian's libpng (its simplified API) and
 * libjpeg-turbo (the TurboJPEG API), both fuzzed for years upstream, behind
 * a psolve-shaped interface: errors are ps_error values naming the file,
 * and the size is read from the header and checked before a byte of pixels
 * is allocated. (stb_image was tried first; Debian 12's v2.27 predates the
 * fixes for JPEG memory errors its fuzzers found, and psolve's found one
 * within a minute.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <turbojpeg.h>

#include "image.h"

static bool size_ok(int w, int h, const char *name, struct ps_error *err)
{
    if (w > 0 && h > 0 && w <= PS_IMAGE_MAX_SIDE && h <= PS_IMAGE_MAX_SIDE &&
        (uint64_t)w * (uint64_t)h <= PS_IMAGE_MAX_PIXELS)
        return true;
    return ps_error_set(err, name, 0, 0,
                        "the picture says it is %dx%d pixels; psolve reads "
                        "pictures up to %dx%d and %u million pixels",
                        w, h, PS_IMAGE_MAX_SIDE, PS_IMAGE_MAX_SIDE,
                        PS_IMAGE_MAX_PIXELS / 1000000u);
}

static bool decode_png(const unsigned char *data, size_t len, const char *name,
                       struct ps_image *img, struct ps_error *err)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&pi, data, len))
        return ps_error_set(err, name, 0, 0, "unreadable PNG: %s", pi.message);
    if (!size_ok((int)pi.width, (int)pi.height, name, err) ||
        pi.width > PS_IMAGE_MAX_SIDE || pi.height > PS_IMAGE_MAX_SIDE) {
        png_image_free(&pi);
        return false;
    }
    /* Transparency is composed over white, as a browser shows it. */
    pi.format = PNG_FORMAT_RGB;
    png_color white = {255, 255, 255};
    img->rgb = malloc(PNG_IMAGE_SIZE(pi));
    if (!img->rgb) {
        png_image_free(&pi);
        return ps_error_set(err, name, 0, 0, "out of memory decoding %ux%u",
                            pi.width, pi.height);
    }
    if (!png_image_finish_read(&pi, &white, img->rgb, 0, NULL)) {
        free(img->rgb);
        img->rgb = NULL;
        return ps_error_set(err, name, 0, 0,
                            "the PNG does not decode: %s (a truncated or "
                            "damaged file?)", pi.message);
    }
    img->w = (int)pi.width;
    img->h = (int)pi.height;
    return true;
}

static bool decode_jpeg(const unsigned char *data, size_t len, const char *name,
                        struct ps_image *img, struct ps_error *err)
{
    if (len > (size_t)UINT32_MAX)
        return ps_error_set(err, name, 0, 0, "the file is too large to decode");
    tjhandle tj = tjInitDecompress();
    if (!tj)
        return ps_error_set(err, name, 0, 0, "cannot start the JPEG decoder");
    int w = 0, h = 0, sub, space;
    bool ok = false;
    if (tjDecompressHeader3(tj, data, (unsigned long)len, &w, &h, &sub, &space) != 0) {
        ps_error_set(err, name, 0, 0, "unreadable JPEG: %s", tjGetErrorStr2(tj));
    } else if (w <= 0 || h <= 0) { /* a file cut before its frame header */
        ps_error_set(err, name, 0, 0, "unreadable JPEG: no frame header (a "
                     "truncated file?)");
    } else if (size_ok(w, h, name, err)) {
        img->rgb = malloc((size_t)w * (size_t)h * 3);
        if (!img->rgb) {
            ps_error_set(err, name, 0, 0, "out of memory decoding %dx%d", w, h);
        } else if (tjDecompress2(tj, data, (unsigned long)len, img->rgb, w, 0, h,
                                 TJPF_RGB,
                                 TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS) != 0) {
            /* A warning (a truncated file) is an error too: half a board is
             * no board. */
            ps_error_set(err, name, 0, 0, "the JPEG does not decode: %s (a "
                         "truncated or damaged file?)", tjGetErrorStr2(tj));
            free(img->rgb);
            img->rgb = NULL;
        } else {
            img->w = w;
            img->h = h;
            ok = true;
        }
    }
    tjDestroy(tj);
    return ok;
}

bool ps_image_decode(const unsigned char *data, size_t len, const char *name,
                     struct ps_image *img, struct ps_error *err)
{
    img->w = img->h = 0;
    img->rgb = NULL;
    if (!ps_image_sniff(data, len))
        return ps_error_set(err, name, 0, 0,
                            "not a PNG or JPEG picture (its first bytes are "
                            "neither a PNG nor a JPEG signature)");
    return data[0] == 0x89 ? decode_png(data, len, name, img, err)
                           : decode_jpeg(data, len, name, img, err);
}

bool ps_image_shrink(struct ps_image *img, int f, struct ps_error *err)
{
    if (f <= 1)
        return true;
    int w = img->w / f, h = img->h / f;
    if (w < 1 || h < 1)
        return ps_error_set(err, NULL, 0, 0, "the picture is too small");
    unsigned char *out = malloc((size_t)w * (size_t)h * 3);
    unsigned *sum = malloc(sizeof *sum * (size_t)w * 3);
    if (!out || !sum) {
        free(out);
        free(sum);
        return ps_error_set(err, NULL, 0, 0, "out of memory shrinking the picture");
    }
    unsigned area = (unsigned)(f * f);
    for (int y = 0; y < h; y++) {
        memset(sum, 0, sizeof *sum * (size_t)w * 3);
        for (int dy = 0; dy < f; dy++) {
            const unsigned char *row = img->rgb + (size_t)(y * f + dy) * (size_t)img->w * 3;
            for (int x = 0; x < w; x++)
                for (int dx = 0; dx < f; dx++) {
                    const unsigned char *p = row + ((size_t)x * f + (size_t)dx) * 3;
                    sum[x * 3] += p[0];
                    sum[x * 3 + 1] += p[1];
                    sum[x * 3 + 2] += p[2];
                }
        }
        unsigned char *o = out + (size_t)y * (size_t)w * 3;
        for (int i = 0; i < w * 3; i++)
            o[i] = (unsigned char)((sum[i] + area / 2) / area);
    }
    free(sum);
    free(img->rgb);
    img->rgb = out;
    img->w = w;
    img->h = h;
    return true;
}

void ps_image_free(struct ps_image *img)
{
    free(img->rgb);
    img->rgb = NULL;
    img->w = img->h = 0;
}
