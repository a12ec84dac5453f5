/*
 * textfile.c - reading a whole input file, refusing what is not text
 * (textfile.h).
 */
#include "textfile.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool check_text(const char *path, const char *text, size_t len,
                       struct ps_error *err)
{
    int line = 1, col = 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            line++;
            col = 1;
            continue;
        }
        if (c == '\r' && i + 1 < len && text[i + 1] != '\n')
            return ps_error_set(err, path, line, col,
                                "a carriage return without a line feed (old "
                                "Mac line ends?): use LF or CR LF line ends");
        if (c < 32 && c != '\t' && c != '\r')
            return ps_error_set(err, path, line, col,
                                "not a text file (byte 0x%02x)", c);
        col++;
    }
    return true;
}

/* A stream (stdin, a pipe, a FIFO, <(...)) can be read only once, but a
 * file is read twice without --game (format detection, then the load): the
 * bytes of the last stream read are kept here and handed out again. */
static pthread_mutex_t stream_lock = PTHREAD_MUTEX_INITIALIZER;
static char *stream_path;
static char *stream_text;
static size_t stream_len;

static bool is_stream(const char *path, FILE *f)
{
    struct stat st;
    return strcmp(path, "-") == 0 ||
           (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode));
}

/* A copy of the kept text of stream `path`, if it was read before. */
static bool stream_again(const char *path, char **text, size_t *len)
{
    bool found = false;
    pthread_mutex_lock(&stream_lock);
    if (stream_path && strcmp(stream_path, path) == 0) {
        char *copy = malloc(stream_len + 1);
        if (copy) {
            memcpy(copy, stream_text, stream_len + 1);
            *text = copy;
            *len = stream_len;
            found = true;
        }
    }
    pthread_mutex_unlock(&stream_lock);
    return found;
}

static void stream_keep(const char *path, const char *text, size_t len)
{
    char *p = malloc(strlen(path) + 1), *t = malloc(len + 1);
    pthread_mutex_lock(&stream_lock);
    free(stream_path);
    free(stream_text);
    stream_path = p;
    stream_text = t;
    stream_len = len;
    if (p && t) {
        memcpy(p, path, strlen(path) + 1);
        memcpy(t, text, len + 1);
    } else {
        free(p);
        free(t);
        stream_path = stream_text = NULL;
    }
    pthread_mutex_unlock(&stream_lock);
}

/* What an opened file is when it cannot hold a puzzle: a directory, a
 * device (/dev/zero would be read up to the size limit, /dev/null reads as
 * empty); NULL for a file, a pipe, a FIFO or a terminal (one may type a
 * board). */
static const char *special_kind(FILE *f)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return NULL;
    if (S_ISDIR(st.st_mode))
        return "a directory";
    if (S_ISBLK(st.st_mode))
        return "a block device";
    if (S_ISCHR(st.st_mode) && !isatty(fileno(f)))
        return "a character device";
    return NULL;
}

bool ps_read_file(const char *path, char **text, size_t *len,
                  struct ps_error *err)
{
    if (stream_again(path, text, len))
        return true;
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return ps_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
    const char *kind = special_kind(f);
    if (kind) {
        if (!is_stdin)
            fclose(f);
        return ps_error_set(err, path, 0, 0, "is %s, not a text file", kind);
    }
    bool stream = is_stream(path, f);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        if (!is_stdin)
            fclose(f);
        return ps_error_set(err, path, 0, 0, "out of memory");
    }
    for (;;) {
        if (n == cap) {
            if (cap >= PS_MAX_INPUT_BYTES) {
                free(buf);
                if (!is_stdin)
                    fclose(f);
                return ps_error_set(err, path, 0, 0,
                                    "file is larger than %u bytes",
                                    PS_MAX_INPUT_BYTES);
            }
            cap *= 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                if (!is_stdin)
                    fclose(f);
                return ps_error_set(err, path, 0, 0, "out of memory");
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int read_errno = errno;
    bool failed = ferror(f);
    if (!is_stdin)
        fclose(f);
    if (failed) {
        free(buf);
        return ps_error_set(err, path, 0, 0, "read error: %s",
                            strerror(read_errno));
    }
    buf[n] = '\0';
    if (stream)
        stream_keep(path, buf, n);
    *text = buf;
    *len = n;
    return true;
}

bool ps_text_check(const char *path, char *text, size_t *len,
                   struct ps_error *err)
{
    /* A UTF-8 byte order mark (some editors write one) is no content. */
    if (*len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        memmove(text, text + 3, *len - 3 + 1);
        *len -= 3;
    }
    return check_text(path, text, *len, err);
}

bool ps_read_text_file(const char *path, char **text, size_t *len,
                       struct ps_error *err)
{
    if (!ps_read_file(path, text, len, err))
        return false;
    if (ps_text_check(path, *text, len, err))
        return true;
    free(*text);
    *text = NULL;
    return false;
}

bool ps_output_close(FILE *f, const char *name, bool close,
                     struct ps_error *err)
{
    int before = errno;
    errno = 0;
    bool ok = fflush(f) == 0 && !ferror(f);
    /* A write that failed earlier (the buffer went out mid-run) leaves only
     * the error flag: its errno is kept if nothing has changed it since to
     * a cause that no write gives. */
    int e = errno ? errno : before;
    if (e != ENOSPC && e != EDQUOT && e != EFBIG && e != EPIPE && e != EROFS)
        e = EIO;
    if (close && fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok)
        return ps_error_set(err, NULL, 0, 0, "writing %s: %s", name,
                            strerror(e));
    return true;
}

void ps_lines_begin(struct ps_line_reader *r, const char *text, size_t len)
{
    r->pos = text;
    r->end = text + len;
    r->number = 0;
}

bool ps_lines_next(struct ps_line_reader *r, struct ps_line *line)
{
    while (r->pos < r->end) {
        const char *start = r->pos;
        const char *nl = memchr(start, '\n', (size_t)(r->end - start));
        const char *stop = nl ? nl : r->end;
        r->pos = nl ? nl + 1 : r->end;
        r->number++;
        const char *hash = memchr(start, '#', (size_t)(stop - start));
        if (hash)
            stop = hash;
        while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t' ||
                                stop[-1] == '\r'))
            stop--;
        const char *first = start;
        while (first < stop && (*first == ' ' || *first == '\t'))
            first++;
        if (first == stop)
            continue;
        line->text = start;
        line->len = (size_t)(stop - start);
        line->number = r->number;
        return true;
    }
    return false;
}
