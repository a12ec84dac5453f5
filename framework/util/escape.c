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

/* The escape of the character at text[i] into e (at most 9 characters):
 * escape_byte's, and where non-ASCII bytes are kept, also a C1 control
 * character (U+0080..U+009F, UTF-8 C2 80..C2 9F: U+009B is a CSI that some
 * terminals obey like ESC [), both bytes escaped. *used: the bytes read. */
static size_t escape_at(const char *text, size_t len, size_t i,
                        bool keep_non_ascii, char e[9], size_t *used)
{
    const unsigned char *u = (const unsigned char *)text + i;
    *used = 1;
    if (keep_non_ascii && u[0] == 0xc2 && i + 1 < len && u[1] >= 0x80 &&
        u[1] <= 0x9f) {
        escape_byte(u[0], false, e);
        escape_byte(u[1], false, e + 4);
        *used = 2;
        return 8;
    }
    return escape_byte(u[0], keep_non_ascii, e);
}

size_t ps_escape(char *out, size_t cap, const char *text, size_t len,
                 bool keep_non_ascii)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        char e[9];
        size_t used;
        size_t k = escape_at(text, len, i, keep_non_ascii, e, &used);
        const char *piece = k ? e : &text[i];
        size_t plen = k ? k : 1;
        if (n + plen >= cap)
            break;
        memcpy(out + n, piece, plen);
        n += plen;
        i += used;
    }
    out[n] = '\0';
    return n;
}

/* text[0..len) escaped onto out; newlines kept when keep_newlines. */
static void print_escaped(FILE *out, const char *text, size_t len,
                          bool keep_newlines)
{
    for (size_t i = 0; i < len;) {
        char e[9];
        size_t used = 1;
        size_t k = keep_newlines && text[i] == '\n'
                       ? 0
                       : escape_at(text, len, i, true, e, &used);
        if (k)
            fwrite(e, 1, k, out);
        else
            fputc(text[i], out);
        i += used;
    }
}

void ps_print_escaped(FILE *out, const char *s)
{
    print_escaped(out, s, strlen(s), false);
}

void ps_print_escaped_lines(FILE *out, const char *text, size_t len)
{
    print_escaped(out, text, len, true);
}
