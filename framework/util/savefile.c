/*
 * savefile.c - versioned, checksummed files written atomically (savefile.h):
 * the pattern-database cache and the checkpoints share this one copy.
 */
#include "savefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"

const char *ps_savefile_status_text(enum ps_savefile_status st)
{
    switch (st) {
    case PS_SAVEFILE_OK:
        return "ok";
    case PS_SAVEFILE_MISSING:
        return "cannot be read";
    case PS_SAVEFILE_NOT_REGULAR:
        return "is not a regular file (a pipe, a device, a directory)";
    case PS_SAVEFILE_FOREIGN:
        return "is not a file of this kind (no or another magic)";
    case PS_SAVEFILE_VERSION:
        return "has another format version";
    case PS_SAVEFILE_BYTE_ORDER:
        return "was written on a machine of the other byte order";
    case PS_SAVEFILE_CORRUPT:
        return "is corrupt or truncated (its checksum does not match)";
    case PS_SAVEFILE_NO_MEMORY:
        return "does not fit in memory";
    }
    return "?";
}

/* fsync the directory holding path, so the rename itself is on disk; a
 * file system that cannot (some network ones) only loses that promise. */
static void sync_directory(const char *path)
{
    char dir[1024];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + (slash == path)),
                 path);
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

bool ps_savefile_write(const char *path, const struct ps_savefile_header *h,
                       const void *data, uint64_t size, struct ps_error *err)
{
    char tmp[1100];
    int n = snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp)
        return ps_error_set(err, path, 0, 0, "the file name is too long");
    struct ps_savefile_header out = *h;
    out.endian = PS_SAVEFILE_ENDIAN;
    out.reserved = 0;
    out.checksum = ps_hash_bytes(data, (size_t)size);
    out.key[sizeof out.key - 1] = '\0';
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return ps_error_set(err, path, 0, 0, "cannot write %s: %s", tmp,
                            strerror(errno));
    bool ok = fwrite(&out, sizeof out, 1, f) == 1 &&
              (size == 0 || fwrite(data, 1, (size_t)size, f) == size) &&
              fflush(f) == 0 && fsync(fileno(f)) == 0;
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        remove(tmp);
        return ps_error_set(err, path, 0, 0, "cannot write: %s",
                            strerror(saved));
    }
    sync_directory(path);
    return true;
}

/* The rest of f into a malloc'd buffer. */
static bool read_rest(FILE *f, void **data, uint64_t *size)
{
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return false;
    for (;;) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        unsigned char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            return false;
        }
        buf = bigger;
        cap *= 2;
    }
    *data = buf;
    *size = len;
    return true;
}

/* path opened for reading when it is a regular file; NULL otherwise, errno
 * EINVAL for a pipe, a device or a directory. A FIFO is opened without
 * blocking (no writer need ever come) and refused before any read, which
 * would wait for one. */
static FILE *open_regular(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f)
        close(fd);
    return f;
}

enum ps_savefile_status ps_savefile_read(const char *path, const char *magic,
                                         uint16_t format,
                                         struct ps_savefile_header *h,
                                         void **data, uint64_t *size)
{
    *data = NULL;
    *size = 0;
    FILE *f = open_regular(path);
    if (!f)
        return errno == EINVAL ? PS_SAVEFILE_NOT_REGULAR : PS_SAVEFILE_MISSING;
    char want[sizeof h->magic] = {0};
    memcpy(want, magic, strnlen(magic, sizeof want));
    enum ps_savefile_status st = PS_SAVEFILE_OK;
    if (fread(h, sizeof *h, 1, f) != 1 ||
        memcmp(h->magic, want, sizeof want) != 0)
        st = PS_SAVEFILE_FOREIGN;
    else if (h->endian != PS_SAVEFILE_ENDIAN)
        st = PS_SAVEFILE_BYTE_ORDER;
    else if (h->format != format)
        st = PS_SAVEFILE_VERSION;
    else if (!read_rest(f, data, size))
        st = PS_SAVEFILE_NO_MEMORY;
    else if (ps_hash_bytes(*data, (size_t)*size) != h->checksum)
        st = PS_SAVEFILE_CORRUPT;
    fclose(f);
    h->key[sizeof h->key - 1] = '\0';
    if (st != PS_SAVEFILE_OK) {
        free(*data);
        *data = NULL;
        *size = 0;
    }
    return st;
}
