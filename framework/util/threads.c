/*
 * threads.c - the thread fan-out of threads.h: one slot per task (its
 * thread, function and argument); the tasks that got no thread are run by
 * the caller at the join.
 */
#include "threads.h"

#include <pthread.h>
#include <stdlib.h>

struct ps_thread_slot {
    pthread_t id;
    ps_task_fn *task;
    void *arg;
};

static void *arg_of(const struct ps_threads *t, int i)
{
    return t->args + (size_t)i * t->stride;
}

static void *slot_main(void *p)
{
    struct ps_thread_slot *sl = p;
    sl->task(sl->arg);
    return NULL;
}

void ps_threads_start(struct ps_threads *t, int n, ps_task_fn *task,
                      void *args, size_t stride)
{
    *t = (struct ps_threads){.task = task, .args = args, .stride = stride,
                             .n = n > 0 ? n : 0};
    t->slot = t->n ? calloc((size_t)t->n, sizeof *t->slot) : NULL;
    for (; t->slot && t->started < t->n; t->started++) {
        struct ps_thread_slot *sl = &t->slot[t->started];
        sl->task = task;
        sl->arg = arg_of(t, t->started);
        if (pthread_create(&sl->id, NULL, slot_main, sl) != 0)
            break; /* this one and the rest run at the join */
    }
}

int ps_threads_started(const struct ps_threads *t)
{
    return t->started;
}

void ps_threads_join(struct ps_threads *t)
{
    for (int i = 0; i < t->started; i++)
        pthread_join(t->slot[i].id, NULL);
    for (int i = t->started; i < t->n; i++)
        t->task(arg_of(t, i));
    free(t->slot);
    t->slot = NULL;
    t->n = t->started = 0;
}
