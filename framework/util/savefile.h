/*
 * savefile.h - versioned, checksummed files written atomically: the one
 * format behind the pattern-database cache (pdb.c) and the Monte Carlo
 * checkpoints (checkpoint.c).
 *
 * A file is a fixed header, then the payload:
 *   magic[10]   what kind of file ("psolvepdb", "psolveckpt"), NUL padded
 *   format      u16, the kind's layout version
 *   endian      u32 0x01020304 as written: a file of the other byte order
 *               is refused, never misread
 *   info        u32, the kind's own word (pdb: bits per entry)
 *   reserved    u32, 0
 *   count       u64, the kind's own count (pdb: entries; checkpoint: the
 *               payload's bytes)
 *   checksum    u64, ps_hash_bytes of the payload
 *   key[200]    NUL-terminated text naming what the payload is for
 * in the machine's byte order (the mark says which), no padding between
 * fields (the layout is fixed by the field sizes).
 *
 * Writing goes to PATH.PID.tmp in the same directory, is flushed to disk
 * (fsync) and renamed over PATH, so a reader sees the old file or the new
 * one, never half of one; on any failure the temporary is removed.
 */
#ifndef PS_SAVEFILE_H
#define PS_SAVEFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define PS_SAVEFILE_ENDIAN 0x01020304u
#define PS_SAVEFILE_KEY 200

struct ps_savefile_header {
    char magic[10];
    uint16_t format;
    uint32_t endian;
    uint32_t info;
    uint32_t reserved;
    uint64_t count;
    uint64_t checksum;
    char key[PS_SAVEFILE_KEY];
};

enum ps_savefile_status {
    PS_SAVEFILE_OK,
    PS_SAVEFILE_MISSING,    /* cannot be opened */
    PS_SAVEFILE_NOT_REGULAR, /* a pipe, a device, a directory: never read */
    PS_SAVEFILE_FOREIGN,    /* shorter than a header, or another magic */
    PS_SAVEFILE_VERSION,    /* another format version */
    PS_SAVEFILE_BYTE_ORDER, /* written on a machine of the other byte order */
    PS_SAVEFILE_CORRUPT,    /* the checksum does not match the payload */
    PS_SAVEFILE_NO_MEMORY,
};

/* A sentence for the status ("is not a psolve file of this kind", ...). */
const char *ps_savefile_status_text(enum ps_savefile_status st);

/* Write h (magic, format, info, count and key filled by the caller; the
 * endian mark and checksum are set here) and data[0..size) to path,
 * atomically. False with err (naming path) when anything fails; path is
 * then untouched and no temporary is left. */
bool ps_savefile_write(const char *path, const struct ps_savefile_header *h,
                       const void *data, uint64_t size, struct ps_error *err);

/* Read path: its header into *h and the rest of the file into *data
 * (malloc'd, *size bytes; free it), checked against magic and format,
 * the byte order and the checksum. The key, info and count are the
 * caller's to check. */
enum ps_savefile_status ps_savefile_read(const char *path, const char *magic,
                                         uint16_t format,
                                         struct ps_savefile_header *h,
                                         void **data, uint64_t *size);

#endif
