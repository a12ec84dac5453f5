/*
 * mcjob.c - the jobs of dnrpa and dnmcs (mcjob.h).
 */
#include "mcjob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_frontend.h"

bool ps_mcjob_encode(bool found, ps_value value, const ps_move *line, int len,
                     const struct ps_search *job, void **out, size_t *out_len)
{
    struct ps_mcjob_result r;
    memset(&r, 0, sizeof r);
    r.value = value;
    r.found = found;
    r.len = found ? len : 0;
    r.stats = job->stats;
    struct ps_error err;
    memset(&err, 0, sizeof err); /* no uninitialised bytes on the wire */
    r.fault = (int32_t)ps_game_fault(job->game, job->inst, &err);
    size_t moves = (size_t)r.len * sizeof *line;
    size_t total = sizeof r + moves + (r.fault ? sizeof err : 0);
    unsigned char *buf = malloc(total);
    if (!buf)
        return false;
    memcpy(buf, &r, sizeof r);
    if (r.len)
        memcpy(buf + sizeof r, line, moves);
    if (r.fault)
        memcpy(buf + sizeof r + moves, &err, sizeof err);
    *out = buf;
    *out_len = total;
    return true;
}

bool ps_mcjob_decode(const void *buf, size_t len, struct ps_mcjob_result *r,
                     const ps_move **line, struct ps_error *err)
{
    if (len < sizeof *r)
        return false;
    memcpy(r, buf, sizeof *r);
    size_t moves = (size_t)(r->len < 0 ? 0 : r->len) * sizeof **line;
    if (r->len < 0 || r->fault < PS_FAULT_NONE || r->fault > PS_FAULT_INTERRUPT ||
        len != sizeof *r + moves + (r->fault ? sizeof *err : 0))
        return false;
    *line = (const ps_move *)((const unsigned char *)buf + sizeof *r);
    if (r->fault) {
        memcpy(err, (const unsigned char *)buf + sizeof *r + moves, sizeof *err);
        err->file[sizeof err->file - 1] = err->msg[sizeof err->msg - 1] = '\0';
    }
    return true;
}

void ps_mcjob_add_stats(struct ps_stats *t, const struct ps_stats *a)
{
    t->expanded += a->expanded;
    t->generated += a->generated;
    t->duplicates += a->duplicates;
    t->pruned += a->pruned;
    t->playouts += a->playouts;
}

void ps_mcjob_contexts(struct ps_mcjob_ctx *ctx, struct ps_search *s,
                       void **ctxs, int threads)
{
    ctx->s = s;
    for (int t = 0; t < threads; t++)
        ctxs[t] = ctx;
}

int ps_mcjob_threads(const struct ps_search *s)
{
    int t = s->opt.threads > 0 ? s->opt.threads : 1;
    return t > PS_MPI_MAX_THREADS ? PS_MPI_MAX_THREADS : t;
}

bool ps_mcjob_batch_init(struct ps_mcjob_batch *b, struct ps_search *s,
                         int cap)
{
    memset(b, 0, sizeof *b);
    b->s = s;
    b->cap = cap;
    /* Reserved against --max-memory before anything is allocated: a huge
     * --tasks is refused at once, not allocated for minutes. */
    uint64_t bytes = (uint64_t)cap * (sizeof *b->res + sizeof *b->lines +
                                      sizeof *b->got);
    if (!ps_memory_reserve(s, bytes)) {
        snprintf(s->note, sizeof s->note,
                 "%d tasks' results (%.0f MB) pass --max-memory", cap,
                 (double)bytes / 1e6);
        return false;
    }
    b->reserved = bytes;
    b->res = calloc((size_t)cap, sizeof *b->res);
    b->lines = calloc((size_t)cap, sizeof *b->lines);
    b->got = calloc((size_t)cap, sizeof *b->got);
    return b->res && b->lines && b->got;
}

void ps_mcjob_batch_clear(struct ps_mcjob_batch *b)
{
    for (int k = 0; k < b->cap && b->lines; k++) {
        free(b->lines[k]);
        b->lines[k] = NULL;
    }
    ps_memory_release(b->s, b->line_bytes);
    b->line_bytes = 0;
    if (b->got)
        memset(b->got, 0, (size_t)b->cap * sizeof *b->got);
}

void ps_mcjob_batch_free(struct ps_mcjob_batch *b)
{
    ps_mcjob_batch_clear(b);
    if (b->s)
        ps_memory_release(b->s, b->reserved);
    b->reserved = 0;
    free(b->res);
    free(b->lines);
    free(b->got);
}

void ps_mcjob_output(void *arg, int job, const void *out, size_t len)
{
    struct ps_mcjob_batch *b = arg;
    const ps_move *line;
    struct ps_error err;
    if (job < 0 || job >= b->cap ||
        !ps_mcjob_decode(out, len, &b->res[job], &line, &err)) {
        b->bad = true;
        return;
    }
    /* The first fault a task met is the run's; a task that failed on an
     * error brings no line (it was made of the slots' harmless answers),
     * and the run stops (ps_mcjob_stop). */
    if (b->res[job].fault && b->s->stop != PS_STOP_ERROR)
        ps_search_fault(b->s, (enum ps_fault)b->res[job].fault, &err);
    if (b->res[job].fault == PS_FAULT_ERROR)
        return;
    size_t n = (size_t)b->res[job].len;
    uint64_t bytes = (uint64_t)(n ? n : 1) * sizeof *line;
    if (!ps_memory_reserve(b->s, bytes)) {
        b->bad = true;
        b->s->stop = PS_STOP_MEMORY;
        return;
    }
    b->line_bytes += bytes;
    b->lines[job] = malloc((size_t)bytes);
    if (!b->lines[job]) {
        b->bad = true;
        return;
    }
    memcpy(b->lines[job], line, n * sizeof *line);
    b->got[job] = true;
}

bool ps_mcjob_stop(void *arg)
{
    struct ps_mcjob_batch *b = arg;
    return ps_search_poll(b->s);
}
