/*
 * mcjob.c - the jobs of dnrpa and dnmcs (mcjob.h).
 */
#include "mcjob.h"

#include <stdlib.h>
#include <string.h>

#include "mpi_frontend.h"

bool ps_mcjob_encode(bool found, ps_value value, const ps_move *line, int len,
                     const struct ps_stats *stats, void **out, size_t *out_len)
{
    struct ps_mcjob_result r;
    memset(&r, 0, sizeof r);
    r.value = value;
    r.found = found;
    r.len = found ? len : 0;
    r.stats = *stats;
    size_t total = sizeof r + (size_t)r.len * sizeof *line;
    unsigned char *buf = malloc(total);
    if (!buf)
        return false;
    memcpy(buf, &r, sizeof r);
    if (r.len)
        memcpy(buf + sizeof r, line, (size_t)r.len * sizeof *line);
    *out = buf;
    *out_len = total;
    return true;
}

bool ps_mcjob_decode(const void *buf, size_t len, struct ps_mcjob_result *r,
                     const ps_move **line)
{
    if (len < sizeof *r)
        return false;
    memcpy(r, buf, sizeof *r);
    if (r->len < 0 || len != sizeof *r + (size_t)r->len * sizeof **line)
        return false;
    *line = (const ps_move *)((const unsigned char *)buf + sizeof *r);
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
