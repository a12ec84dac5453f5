/*
 * transport.c - MPI calls behind transport.h.
 */
#include "transport.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h" /* ps_interrupted, ps_signal_name */

/* Set once in ps_mpi_init, read-only after: the process's place in the
 * world communicator. */
static int world_rank, world_size = 1;

bool ps_mpi_init(int *argc, char ***argv)
{
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
        return false;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    return provided >= MPI_THREAD_FUNNELED;
}

void ps_mpi_finalize(void)
{
    MPI_Finalize();
}

int ps_mpi_rank(void)
{
    return world_rank;
}

int ps_mpi_size(void)
{
    return world_size;
}

void ps_mpi_send(int dest, int tag, const void *buf, size_t len)
{
    MPI_Send(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

bool ps_mpi_probe(int tag, int *src, int *tag_out, size_t *len)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, tag < 0 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD,
               &flag, &st);
    if (!flag)
        return false;
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    *src = st.MPI_SOURCE;
    *tag_out = st.MPI_TAG;
    *len = (size_t)count;
    return true;
}

void ps_mpi_recv(int src, int tag, void *buf, size_t len)
{
    MPI_Recv(buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}

void ps_mpi_idle(unsigned *naps, bool busy)
{
    if (busy) {
        *naps = 0;
        return;
    }
    long us = 20L << (*naps < 4 ? *naps : 4); /* 20 us .. 320 us */
    (*naps)++;
    struct timespec nap = {0, us * 1000};
    nanosleep(&nap, NULL);
}

void ps_mpi_wait(int tag, int *src, int *tag_out, size_t *len)
{
    unsigned naps = 0;
    while (!ps_mpi_probe(tag, src, tag_out, len))
        ps_mpi_idle(&naps, false);
}

/* A reduction that naps while it waits: Open MPI's blocking collectives
 * spin, and a rank waiting for the others (while rank 0 runs a search
 * alone) would take a core from them. */
static void allreduce_napping(void *v, int n, MPI_Datatype type, MPI_Op op)
{
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, v, n, type, op, MPI_COMM_WORLD, &req);
    unsigned naps = 0;
    for (int done = 0;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            break;
        ps_mpi_idle(&naps, false);
    }
}

void ps_mpi_sum(int64_t *v, int n)
{
    allreduce_napping(v, n, MPI_INT64_T, MPI_SUM);
}

void ps_mpi_max(int64_t *v, int n)
{
    allreduce_napping(v, n, MPI_INT64_T, MPI_MAX);
}

/* One round of the agreement: v[0] = min over ranks of `entering`,
 * v[1] = max. */
static void agreement_round(int entering, int *all, int *any)
{
    int v[2] = {-entering, entering};
    allreduce_napping(v, 2, MPI_INT, MPI_MAX);
    *all = -v[0];
    *any = v[1];
}

bool ps_mpi_agree(void)
{
    int all, any;
    agreement_round(1, &all, &any);
    return all == 1;
}

void ps_mpi_leave(void)
{
    int all, any;
    do
        agreement_round(0, &all, &any);
    while (any);
    ps_mpi_relay_signal(); /* take the relays still in flight */
}

/* Main thread only (funneled), like every MPI call here. */
static bool signal_passed_on;
static int32_t signal_hit = -1; /* the rank the signal hit; -1: this one */

void ps_mpi_relay_signal(void)
{
    int src, tag;
    size_t len;
    while (ps_mpi_probe(PS_TAG_SIGNAL, &src, &tag, &len)) {
        int32_t msg[2] = {0, 0};
        unsigned char *buf = malloc(len + 1);
        if (!buf)
            abort(); /* as everywhere here: an unreceived message blocks */
        ps_mpi_recv(src, tag, buf, len);
        if (len == sizeof msg)
            memcpy(msg, buf, sizeof msg);
        free(buf);
        if (ps_interrupted || msg[0] <= 0 || msg[1] < 0 ||
            msg[1] >= world_size)
            continue; /* stopping already, or not a relay of this program */
        ps_interrupted = msg[0];
        signal_hit = msg[1];
        if (world_rank == 0)
            fprintf(stderr, "psolve: error: rank %d was stopped by %s: every "
                            "rank stops, and the run ends as if interrupted\n",
                    (int)signal_hit, ps_signal_name(msg[0]));
    }
    if (!ps_interrupted || signal_passed_on)
        return;
    signal_passed_on = true;
    int32_t msg[2] = {ps_interrupted, signal_hit >= 0 ? signal_hit
                                                      : world_rank};
    if (world_rank != 0) {
        if (signal_hit < 0) /* this rank's own signal: rank 0 passes it on */
            ps_mpi_send(0, PS_TAG_SIGNAL, msg, sizeof msg);
        return;
    }
    for (int r = 1; r < world_size; r++)
        if (r != msg[1])
            ps_mpi_send(r, PS_TAG_SIGNAL, msg, sizeof msg);
}

struct ps_mpi_sends {
    MPI_Request *req;
    void **buf;
    int count, cap;
};

struct ps_mpi_sends *ps_mpi_sends_new(void)
{
    return calloc(1, sizeof(struct ps_mpi_sends));
}

bool ps_mpi_isend(struct ps_mpi_sends *q, int dest, int tag, void *buf,
                  size_t len)
{
    if (q->count == q->cap) {
        int cap = q->cap ? 2 * q->cap : 64;
        MPI_Request *req = realloc(q->req, (size_t)cap * sizeof *req);
        if (req)
            q->req = req;
        void **bufs = req ? realloc(q->buf, (size_t)cap * sizeof *bufs) : NULL;
        if (!bufs) {
            free(buf);
            return false;
        }
        q->buf = bufs;
        q->cap = cap;
    }
    MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD,
              &q->req[q->count]);
    q->buf[q->count++] = buf;
    return true;
}

void ps_mpi_sends_progress(struct ps_mpi_sends *q)
{
    for (int i = 0; i < q->count;) {
        int done = 0;
        MPI_Test(&q->req[i], &done, MPI_STATUS_IGNORE);
        if (!done) {
            i++;
            continue;
        }
        free(q->buf[i]);
        q->count--;
        q->req[i] = q->req[q->count];
        q->buf[i] = q->buf[q->count];
    }
}

void ps_mpi_sends_free(struct ps_mpi_sends *q)
{
    if (!q)
        return;
    unsigned naps = 0;
    for (ps_mpi_sends_progress(q); q->count > 0; ps_mpi_sends_progress(q))
        ps_mpi_idle(&naps, false);
    free(q->req);
    free(q->buf);
    free(q);
}

struct ps_mpi_reduction {
    MPI_Request req;
    int n;
    int64_t v[];
};

struct ps_mpi_reduction *ps_mpi_reduce_start(const int64_t *v, int n,
                                             enum ps_mpi_op op)
{
    struct ps_mpi_reduction *r = malloc(sizeof *r + (size_t)n * sizeof *v);
    if (!r)
        return NULL;
    r->n = n;
    memcpy(r->v, v, (size_t)n * sizeof *v);
    MPI_Op mop = op == PS_MPI_SUM ? MPI_SUM : op == PS_MPI_MIN ? MPI_MIN
                                                               : MPI_MAX;
    MPI_Iallreduce(MPI_IN_PLACE, r->v, n, MPI_INT64_T, mop, MPI_COMM_WORLD,
                   &r->req);
    return r;
}

bool ps_mpi_reduce_test(struct ps_mpi_reduction *r, int64_t *out)
{
    int done = 0;
    MPI_Test(&r->req, &done, MPI_STATUS_IGNORE);
    if (!done)
        return false;
    memcpy(out, r->v, (size_t)r->n * sizeof *out);
    free(r);
    return true;
}
