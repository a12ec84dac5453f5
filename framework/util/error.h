/*
 * error.h - errors are values: a function that can fail fills a ps_error
 * and returns a status; only main() decides to exit.
 */
#ifndef PS_ERROR_H
#define PS_ERROR_H

struct ps_error {
    char file[256]; /* "" when the error is not about a file */
    int line;       /* 1-based, 0 = unknown */
    int col;        /* 1-based, 0 = unknown */
    char msg[512];
};

#if defined(__GNUC__)
#define PS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PS_PRINTF(a, b)
#endif

void ps_error_clear(struct ps_error *err);
/* Fill err; file may be NULL. Always returns false, so `return ps_error_set(...)`
 * reads as a failure. */
_Bool ps_error_set(struct ps_error *err, const char *file, int line, int col,
                   const char *fmt, ...) PS_PRINTF(5, 6);
/* "file:line:col: error: msg" (parts that are unknown are left out). */
void ps_error_format(const struct ps_error *err, char *buf, unsigned long len);

#endif
