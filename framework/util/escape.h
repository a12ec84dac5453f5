/*
 * escape.h - bytes made safe to print: in error messages (a raw CR or a
 * stray UTF-8 byte from a bad input file) and in '#' comment lines of
 * psolve's own output (a newline in a path would end the comment and break
 * the solution file it is part of).
 */
#ifndef PS_ESCAPE_H
#define PS_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Copy text[0..len) into out (capacity cap >= 1, always terminated), with
 * control characters and DEL as C escapes ('\r', '\n', '\t', '\x7f') and,
 * unless keep_non_ascii, every byte >= 0x80 as '\xNN'. The result is
 * printable ASCII (plus the kept bytes), so escaping twice changes nothing.
 * Returns the length written; output that does not fit is cut at a whole
 * escape. */
size_t ps_escape(char *out, size_t cap, const char *text, size_t len,
                 bool keep_non_ascii);

/* Print s with control characters escaped (non-ASCII kept): for one line. */
void ps_print_escaped(FILE *out, const char *s);
/* The same for text[0..len) of several lines: newlines kept (a Lua game's
 * drawing of a state, whose escape sequences must not reach a terminal). */
void ps_print_escaped_lines(FILE *out, const char *text, size_t len);

#endif
