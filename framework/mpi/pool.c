/*
 * pool.c - the job pool of pool.h: a master loop, a worker loop, and a
 * small executor (compute threads and two queues) that both use.
 *
 * Wire format: a job is {int32 job number, bytes}, a result {int32 job
 * number, int32 ok, bytes}, both tagged, the end an empty PS_TAG_END.
 */
#include "pool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "threads.h"
#include "transport.h"

struct task {
    int job;
    bool ok;
    void *data;   /* in: the job's bytes; out: the result */
    size_t len;
    struct task *next;
};

/* Jobs waiting for a thread, results waiting for the main thread. */
struct executor {
    struct ps_pool *pool;
    pthread_mutex_t lock;
    pthread_cond_t work;
    struct task *todo, *todo_tail, *done;
    int busy;      /* submitted and not yet collected */
    bool closing;
    struct ps_threads fan;
};

static void executor_thread(void *arg);
static void executor_stop(struct executor *ex);

struct thread_arg {
    struct executor *ex;
    int index;
};

static bool executor_start(struct executor *ex, struct ps_pool *pool,
                           struct thread_arg *args)
{
    memset(ex, 0, sizeof *ex);
    ex->pool = pool;
    pthread_mutex_init(&ex->lock, NULL);
    pthread_cond_init(&ex->work, NULL);
    for (int i = 0; i < pool->threads; i++)
        args[i] = (struct thread_arg){ex, i};
    ps_threads_start(&ex->fan, pool->threads, executor_thread, args,
                     sizeof *args);
    /* The caller's loop waits for the queue: it needs one thread at least
     * (those that did not start run at the join, and find the queue shut). */
    if (ps_threads_started(&ex->fan) > 0)
        return true;
    executor_stop(ex);
    return false;
}

static void executor_stop(struct executor *ex)
{
    pthread_mutex_lock(&ex->lock);
    ex->closing = true;
    pthread_cond_broadcast(&ex->work);
    pthread_mutex_unlock(&ex->lock);
    ps_threads_join(&ex->fan);
    pthread_mutex_destroy(&ex->lock);
    pthread_cond_destroy(&ex->work);
}

static void executor_thread(void *arg)
{
    struct thread_arg *ta = arg;
    struct executor *ex = ta->ex;
    for (;;) {
        pthread_mutex_lock(&ex->lock);
        while (!ex->todo && !ex->closing)
            pthread_cond_wait(&ex->work, &ex->lock);
        struct task *t = ex->todo;
        if (!t) {
            pthread_mutex_unlock(&ex->lock);
            return;
        }
        ex->todo = t->next;
        if (!ex->todo)
            ex->todo_tail = NULL;
        pthread_mutex_unlock(&ex->lock);
        void *out = NULL;
        size_t out_len = 0;
        t->ok = ex->pool->compute(ex->pool->ctx[ta->index], t->data, t->len,
                                  &out, &out_len);
        free(t->data);
        t->data = out;
        t->len = out_len;
        pthread_mutex_lock(&ex->lock);
        t->next = ex->done;
        ex->done = t;
        pthread_mutex_unlock(&ex->lock);
    }
}

/* Takes ownership of data. */
static bool executor_submit(struct executor *ex, int job, void *data,
                            size_t len)
{
    struct task *t = malloc(sizeof *t);
    if (!t) {
        free(data);
        return false;
    }
    *t = (struct task){.job = job, .data = data, .len = len};
    pthread_mutex_lock(&ex->lock);
    if (ex->todo_tail)
        ex->todo_tail->next = t;
    else
        ex->todo = t;
    ex->todo_tail = t;
    ex->busy++;
    pthread_cond_signal(&ex->work);
    pthread_mutex_unlock(&ex->lock);
    return true;
}

/* A finished task, or NULL; the caller frees it and its data. */
static struct task *executor_collect(struct executor *ex)
{
    pthread_mutex_lock(&ex->lock);
    struct task *t = ex->done;
    if (t) {
        ex->done = t->next;
        ex->busy--;
    }
    pthread_mutex_unlock(&ex->lock);
    return t;
}

/* {int32 job, bytes} or {int32 job, int32 ok, bytes}, malloc'd. */
static void *frame(const int32_t *head, int nhead, const void *data,
                   size_t len, size_t *total)
{
    size_t hl = (size_t)nhead * sizeof *head;
    unsigned char *buf = malloc(hl + len + 1);
    if (!buf)
        return NULL;
    memcpy(buf, head, hl);
    if (len)
        memcpy(buf + hl, data, len);
    *total = hl + len;
    return buf;
}

/* ---- rank 0 ---- */

struct master {
    struct ps_pool *pool;
    int njobs, next, done;
    const int *order;
    bool (*input)(void *, int, void **, size_t *);
    void (*output)(void *, int, const void *, size_t);
    bool (*stop)(void *);
    void *arg;
    int *outstanding; /* per rank */
    bool ok, stopping;
};

/* The next job's bytes, or false when none is left to hand out. */
static bool next_job(struct master *m, int *job, void **in, size_t *len)
{
    if (!m->stopping && m->stop && m->stop(m->arg))
        m->stopping = true;
    if (m->stopping || m->next >= m->njobs)
        return false;
    *job = m->order ? m->order[m->next] : m->next;
    m->next++;
    if (!m->input(m->arg, *job, in, len)) {
        m->ok = false;
        m->stopping = true;
        return false;
    }
    return true;
}

static void feed_rank(struct master *m, struct executor *ex, int rank)
{
    while (m->outstanding[rank] < m->pool->threads) {
        int job;
        void *in;
        size_t len;
        if (!next_job(m, &job, &in, &len))
            return;
        m->outstanding[rank]++;
        if (rank == 0) {
            if (!executor_submit(ex, job, in, len)) {
                m->ok = false;
                m->outstanding[rank]--;
            }
            continue;
        }
        int32_t head = job;
        size_t total;
        void *msg = frame(&head, 1, in, len, &total);
        free(in);
        if (!msg) {
            m->ok = false;
            m->outstanding[rank]--;
            return;
        }
        ps_mpi_send(rank, PS_TAG_JOB, msg, total);
        free(msg);
    }
}

bool ps_pool_map(struct ps_pool *p, int njobs, const int *order,
                 bool (*input)(void *arg, int job, void **in, size_t *len),
                 void (*output)(void *arg, int job, const void *out,
                                size_t len),
                 bool (*stop)(void *arg), void *arg)
{
    int ranks = ps_mpi_size();
    struct master m = {.pool = p, .njobs = njobs, .order = order,
                       .input = input, .output = output, .stop = stop,
                       .arg = arg, .ok = true};
    m.outstanding = calloc((size_t)ranks, sizeof *m.outstanding);
    struct thread_arg *args = calloc((size_t)p->threads, sizeof *args);
    struct executor ex;
    if (!m.outstanding || !args || !executor_start(&ex, p, args)) {
        free(m.outstanding);
        free(args);
        return false;
    }
    for (int r = ranks - 1; r >= 0; r--) /* workers first: they wait */
        feed_rank(&m, &ex, r);
    unsigned naps = 0;
    for (;;) {
        int busy = 0;
        for (int r = 0; r < ranks; r++)
            busy += m.outstanding[r];
        if (busy == 0)
            break;
        bool progress = false;
        int src, tag;
        size_t len;
        ps_mpi_relay_signal(); /* a rank's signal stops the map (stop()) */
        if (ps_mpi_probe(PS_TAG_RESULT, &src, &tag, &len)) {
            unsigned char *buf = malloc(len + 1);
            if (!buf)
                abort(); /* cannot even receive: nothing sane is left */
            ps_mpi_recv(src, tag, buf, len);
            int32_t head[2];
            memcpy(head, buf, sizeof head);
            m.outstanding[src]--;
            if (head[1])
                output(arg, head[0], buf + sizeof head, len - sizeof head);
            else
                m.ok = false;
            free(buf);
            feed_rank(&m, &ex, src);
            progress = true;
        }
        struct task *t = executor_collect(&ex);
        if (t) {
            m.outstanding[0]--;
            if (t->ok)
                output(arg, t->job, t->data, t->len);
            else
                m.ok = false;
            free(t->data);
            free(t);
            feed_rank(&m, &ex, 0);
            progress = true;
        }
        ps_mpi_idle(&naps, progress);
    }
    executor_stop(&ex);
    free(args);
    free(m.outstanding);
    return m.ok;
}

void ps_pool_end(void)
{
    for (int r = 1; r < ps_mpi_size(); r++)
        ps_mpi_send(r, PS_TAG_END, NULL, 0);
}

/* ---- ranks > 0 ---- */

bool ps_pool_serve(struct ps_pool *p)
{
    struct thread_arg *args = calloc((size_t)p->threads, sizeof *args);
    struct executor ex;
    if (!args || !executor_start(&ex, p, args)) {
        free(args);
        return false;
    }
    bool ok = true, ending = false;
    unsigned naps = 0;
    while (!ending || ex.busy > 0) {
        bool progress = false;
        int src, tag;
        size_t len;
        ps_mpi_relay_signal(); /* before the probe of any tag: not stuck on it */
        if (!ending && ps_mpi_probe(-1, &src, &tag, &len) &&
            (tag == PS_TAG_JOB || tag == PS_TAG_END)) {
            unsigned char *buf = malloc(len + 1);
            if (!buf)
                abort();
            ps_mpi_recv(src, tag, buf, len);
            if (tag == PS_TAG_END) {
                free(buf);
                ending = true;
            } else {
                int32_t job;
                memcpy(&job, buf, sizeof job);
                void *data = malloc(len - sizeof job + 1);
                if (data)
                    memcpy(data, buf + sizeof job, len - sizeof job);
                free(buf);
                if (!data || !executor_submit(&ex, job, data, len - sizeof job)) {
                    /* Answer anyway, so the master does not wait forever. */
                    int32_t head[2] = {job, 0};
                    ps_mpi_send(0, PS_TAG_RESULT, head, sizeof head);
                    ok = false;
                }
            }
            progress = true;
        }
        struct task *t = executor_collect(&ex);
        if (t) {
            int32_t head[2] = {t->job, t->ok};
            size_t total;
            void *msg = frame(head, 2, t->data, t->ok ? t->len : 0, &total);
            if (!msg) {
                total = sizeof head;
                head[1] = 0;
                ps_mpi_send(0, PS_TAG_RESULT, head, total);
            } else {
                ps_mpi_send(0, PS_TAG_RESULT, msg, total);
            }
            ok = ok && t->ok && msg;
            free(msg);
            free(t->data);
            free(t);
            progress = true;
        }
        ps_mpi_idle(&naps, progress);
    }
    executor_stop(&ex);
    free(args);
    return ok;
}
