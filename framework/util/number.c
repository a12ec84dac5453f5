/*
 * number.c - whole and decimal numbers read from text, range-checked
 * (number.h).
 */
#include "number.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

enum ps_number_status ps_number_scan(const char *text, size_t len,
                                     long long min, long long max,
                                     long long *out, size_t *used)
{
    size_t i = 0;
    bool negative = len > 0 && text[0] == '-';
    if (negative)
        i++;
    size_t first_digit = i;
    while (i < len && is_digit(text[i]))
        i++;
    *used = i;
    if (i == first_digit)
        return PS_NUMBER_NONE;
    /* strtoll needs a terminated string: copy the digits, dropping leading
     * zeros, so that any run too long for a long long is out of range
     * without a buffer to match. */
    size_t start = first_digit;
    while (start + 1 < i && text[start] == '0')
        start++;
    char buf[24];
    size_t ndigits = i - start;
    if (ndigits > 19)
        return PS_NUMBER_RANGE;
    size_t k = 0;
    if (negative)
        buf[k++] = '-';
    memcpy(buf + k, text + start, ndigits);
    buf[k + ndigits] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (*end != '\0')
        return PS_NUMBER_NONE;
    if (errno == ERANGE || v < min || v > max)
        return PS_NUMBER_RANGE;
    *out = v;
    return PS_NUMBER_OK;
}

bool ps_number_parse_uint(const char *arg, uint64_t min, uint64_t max,
                          uint64_t *out)
{
    /* Digits only: strtoull would take a sign ("-1" is UINT64_MAX), spaces
     * and, with base 0, hex. */
    if (!is_digit(arg[0]))
        return false;
    for (const char *p = arg; *p; p++)
        if (!is_digit(*p))
            return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 10);
    if (*end || errno == ERANGE || v < min || v > max)
        return false;
    *out = (uint64_t)v;
    return true;
}

bool ps_number_parse_decimal(const char *arg, double min, double max,
                             double *out)
{
    int digits = 0, dots = 0;
    for (const char *p = arg; *p; p++) {
        if (is_digit(*p))
            digits++;
        else if (*p == '.')
            dots++;
        else
            return false;
    }
    if (digits == 0 || dots > 1)
        return false;
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (*end || errno == ERANGE || !(v >= min && v <= max))
        return false;
    *out = v;
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

bool ps_number_fields(const char *text, int n, long long min, long long max,
                      long long *out, const char *expected,
                      struct ps_error *err)
{
    size_t len = strlen(text), i = 0;
    for (int k = 0;; k++) {
        while (i < len && is_blank(text[i]))
            i++;
        int col = (int)i + 1;
        if (k == n) {
            if (i == len)
                return true;
            return ps_error_set(err, NULL, 0, col, "expected %s, got '%s'",
                                expected, text + i);
        }
        size_t used;
        enum ps_number_status st =
            ps_number_scan(text + i, len - i, min, max, &out[k], &used);
        if (st == PS_NUMBER_OK && i + used < len && !is_blank(text[i + used]))
            st = PS_NUMBER_NONE; /* "12x" */
        if (st == PS_NUMBER_RANGE)
            return ps_error_set(err, NULL, 0, col,
                                "number '%.*s' is out of range (%lld..%lld)",
                                (int)used, text + i, min, max);
        if (st != PS_NUMBER_OK)
            return ps_error_set(err, NULL, 0, col, "expected %s, got '%s'",
                                expected, text);
        i += used;
    }
}
