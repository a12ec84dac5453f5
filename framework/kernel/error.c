#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return 0;
}

void ps_error_format(const struct ps_error *err, char *buf, unsigned long len)
{
    char where[300] = "";
    if (err->file[0] && err->line > 0 && err->col > 0)
        snprintf(where, sizeof where, "%s:%d:%d: ", err->file, err->line, err->col);
    else if (err->file[0] && err->line > 0)
        snprintf(where, sizeof where, "%s:%d: ", err->file, err->line);
    else if (err->file[0])
        snprintf(where, sizeof where, "%s: ", err->file);
    snprintf(buf, len, "%serror: %s", where, err->msg);
}
