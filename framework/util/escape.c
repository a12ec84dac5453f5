/*
 * escape.c - bytes made safe to print in messages and '#' lines (escape.h).
 */
#include "escape.h"

#include <string.h>

/* The escape of byte c into e (at most 5 characters), or 0 when c stands
 * for itself. */
static size_t escape_byte(unsigned char c, bool keep_non_ascii, char e[5])
{
    static const char hex[] = "0123456789abcdef";
    const char *named = NULL;
    switch (c) {
    case '\n': named = "\\n"; break;
    case '\r': named = "\\r"; break;
    case '\t': named = "\\t"; break;
    default: break;
    }
    if (named) {
        memcpy(e, named, 2);
        return 2;
    }
    if (c >= 32 && c != 127 && (c < 128 || keep_non_ascii))
        return 0;
    e[0] = '\\';
    e[1] = 'x';
    e[2] = hex[c >> 4];
    e[3] = hex[c & 15];
    return 4;
}

size_t ps_escape(char *out, size_t cap, const char *text, size_t len,
                 bool keep_non_ascii)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char e[5];
        size_t k = escape_byte((unsigned char)text[i], keep_non_ascii, e);
        const char *piece = k ? e : &text[i];
        size_t plen = k ? k : 1;
        if (n + plen >= cap)
            break;
        memcpy(out + n, piece, plen);
        n += plen;
    }
    out[n] = '\0';
    return n;
}

void ps_print_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        char e[5];
        size_t k = escape_byte((unsigned char)*s, true, e);
        if (k)
            fwrite(e, 1, k, out);
        else
            fputc(*s, out);
    }
}
