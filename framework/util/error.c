/*
 * error.c - errors as values (error.h): filling a ps_error with file:line
 * and message.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

void ps_error_clear(struct ps_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

_Bool ps_error_set(struct ps_error *err, const char *file, int line, int col,
                   const char *fmt, ...)
{
    if (!err)
        return 0;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    char raw[sizeof err->msg];
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* A message may quote bytes of a bad input (a CR, a stray UTF-8 byte):
     * printed raw they would garble the terminal or hide the cause. */
    size_t len = n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1;
    ps_escape(err->msg, sizeof err->msg, raw, len, false);
    return 0;
}

void ps_error_format(const struct ps_error *err, char *buf, unsigned long len)
{
    char where[1100] = "", file[1030];
    /* A path may hold a newline too: keep the message on one line. */
    ps_escape(file, sizeof file, err->file, strlen(err->file), true);
    if (file[0] && err->line > 0 && err->col > 0)
        snprintf(where, sizeof where, "%s:%d:%d: ", file, err->line, err->col);
    else if (file[0] && err->line > 0)
        snprintf(where, sizeof where, "%s:%d: ", file, err->line);
    else if (file[0])
        snprintf(where, sizeof where, "%s: ", file);
    snprintf(buf, len, "%serror: %s", where, err->msg);
}
