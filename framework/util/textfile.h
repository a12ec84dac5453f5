/*
 * textfile.h - read a whole input file, refusing what is not text; check
 * that an output file was written in full.
 */
#ifndef PS_TEXTFILE_H
#define PS_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* Largest input file psolve reads (bytes). */
#define PS_MAX_INPUT_BYTES (16u * 1024u * 1024u)

/* Read `path` ("-" = stdin) into a NUL-terminated malloc'd buffer. Rejects a
 * missing or unreadable file, one over PS_MAX_INPUT_BYTES, and a binary file
 * (a NUL byte or another control character), naming line and column. A
 * UTF-8 byte order mark at the start is skipped, for every file format.
 * A directory or a device (not a terminal) is refused as such. A stream (stdin, a pipe, a FIFO) is read
 * once: a second call with the same path gets a copy of the same text. */
bool ps_read_text_file(const char *path, char **text, size_t *len,
                       struct ps_error *err);

/* The same reading without the text checks (a picture's bytes, NUL
 * terminated all the same); ps_text_check then makes it
 * ps_read_text_file: the byte order mark skipped, binary refused. */
bool ps_read_file(const char *path, char **data, size_t *len,
                  struct ps_error *err);
bool ps_text_check(const char *path, char *text, size_t *len,
                   struct ps_error *err);

/* Flush an output stream (and fclose it if `close`) and check that every
 * write reached it: false with "writing NAME: REASON" (a full disk, a
 * closed pipe) if not. */
bool ps_output_close(FILE *f, const char *name, bool close,
                     struct ps_error *err);



/* Line-by-line reading for parsers: yields each line that is not blank once
 * a '#' comment and trailing white space are cut, with its 1-based number.
 * `text` keeps pointing into the buffer (not NUL-terminated: use len). */
struct ps_line_reader {
    const char *pos;
    const char *end;
    int number;
};

struct ps_line {
    const char *text;
    size_t len;
    int number;
};

void ps_lines_begin(struct ps_line_reader *r, const char *text, size_t len);
bool ps_lines_next(struct ps_line_reader *r, struct ps_line *line);
#endif
