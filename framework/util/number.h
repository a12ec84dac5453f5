/*
 * number.h - whole and decimal numbers read from text, range-checked. Every
 * number psolve reads goes through here: the file formats (a number inside a
 * line, with the column of its first character) and the command line (a
 * whole argument). A value out of range is an error, never a wrapped or
 * clamped one.
 */
#ifndef PS_NUMBER_H
#define PS_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ps_number_status {
    PS_NUMBER_OK,
    PS_NUMBER_NONE,  /* no digits where a number was expected */
    PS_NUMBER_RANGE, /* digits, but outside [min, max] */
};

/* Scan a decimal whole number at the start of text[0..len): an optional '-'
 * followed by digits (no '+', no spaces, no 0x). *used is set to the
 * characters it spans (also when out of range, so a caller can name the
 * whole token); *out only on PS_NUMBER_OK. */
enum ps_number_status ps_number_scan(const char *text, size_t len,
                                     long long min, long long max,
                                     long long *out, size_t *used);

/* A line of exactly n whole numbers in [min, max] separated by blanks (a
 * move such as "row col"). On failure err gets the 1-based column of the
 * offending token (no file or line: the caller knows them) and a message:
 * "expected <expected>, got ..." or "number ... is out of range". */
struct ps_error;
bool ps_number_fields(const char *text, int n, long long min, long long max,
                      long long *out, const char *expected,
                      struct ps_error *err);

/* A whole command-line argument as an unsigned whole number in [min, max]
 * (up to UINT64_MAX, taken exactly): digits only. */
bool ps_number_parse_uint(const char *arg, uint64_t min, uint64_t max,
                          uint64_t *out);

/* A whole command-line argument as a plain decimal number in [min, max]:
 * digits with at most one '.', nothing else (no sign, exponent, hex, inf or
 * nan). */
bool ps_number_parse_decimal(const char *arg, double min, double max,
                             double *out);

#endif
