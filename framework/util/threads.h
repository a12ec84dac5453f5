/*
 * threads.h - the one thread fan-out of psolve: n tasks, task(arg i), each
 * on a thread of its own, then joined. Beam search's slices, the Monte
 * Carlo workers, a lab's --jobs and psolve-mpi's compute threads all start
 * their threads here.
 *
 * A thread that cannot be started (pthread_create fails: no memory, a
 * thread limit) is not an error: its task runs on the calling thread, in
 * ps_threads_join, after the started threads are joined, in index order. So
 * every task runs exactly once, whatever the system allows, and a run whose
 * answer does not depend on timing (a node budget, a beam) gives the same
 * answer; only the parallelism is lost. A caller whose own loop waits on
 * the tasks before it joins (a queue it feeds, rows it prints in order)
 * asks ps_threads_started and does the work itself when it is 0.
 */
#ifndef PS_THREADS_H
#define PS_THREADS_H

#include <stddef.h>

typedef void ps_task_fn(void *arg);

struct ps_thread_slot;

struct ps_threads {
    ps_task_fn *task;
    char *args;          /* task i's argument: args + i * stride */
    size_t stride;       /* 0: every task gets args */
    int n, started;      /* tasks [0, started) run on threads */
    struct ps_thread_slot *slot;
};

/* Start task(args + i * stride) for i in [0, n) on n threads (n >= 0). */
void ps_threads_start(struct ps_threads *t, int n, ps_task_fn *task,
                      void *args, size_t stride);
/* How many of the tasks have threads of their own. */
int ps_threads_started(const struct ps_threads *t);
/* Wait for the started tasks, then run the others here, in index order. */
void ps_threads_join(struct ps_threads *t);

#endif
