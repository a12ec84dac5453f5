/*
 * transport.h - the little psolve-mpi needs from MPI, in one place: ranks,
 * tagged byte messages, polling without burning a core, and the agreement
 * that keeps every rank's collective calls in step.
 *
 * Everything goes over MPI_COMM_WORLD, from the main thread of each rank
 * only (MPI_THREAD_FUNNELED): compute threads hand their results to it.
 */
#ifndef PS_MPI_TRANSPORT_H
#define PS_MPI_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Message tags; each protocol owns a range. */
enum {
    PS_TAG_JOB = 1,      /* pool: master -> worker, a job */
    PS_TAG_RESULT,       /* pool: worker -> master, a job's result */
    PS_TAG_END,          /* pool: master -> worker, no more jobs */
    PS_TAG_NODES,        /* hdastar: a batch of states for their owner */
    PS_TAG_INCUMBENT,    /* hdastar: a better solution cost */
    PS_TAG_TRACE,        /* hdastar: ask an entry of the owner (path) */
    PS_TAG_TRACE_REPLY,  /* hdastar: the entry's state and parent */
    PS_TAG_ERROR,        /* hdastar: a rank's error (struct ps_error) */
    PS_TAG_SIGNAL,       /* any run: {int32 signal, int32 rank it hit} */
};

/* MPI_Init_thread (funneled) and the rank/size of this process. False when
 * MPI cannot give what psolve-mpi needs. */
bool ps_mpi_init(int *argc, char ***argv);
void ps_mpi_finalize(void);
int ps_mpi_rank(void);
int ps_mpi_size(void);

/* Blocking send of len bytes (a small message, or one the receiver is
 * ready for). */
void ps_mpi_send(int dest, int tag, const void *buf, size_t len);
/* Is a message there (tag < 0: any tag)? Then *src, *tag and *len say what. */
bool ps_mpi_probe(int tag, int *src, int *tag_out, size_t *len);
/* Receive the message just probed into buf (len bytes). */
void ps_mpi_recv(int src, int tag, void *buf, size_t len);
/* Wait for a message (tag < 0: any), napping between polls: an idle rank
 * must not take a core from the busy ones on an oversubscribed machine. */
void ps_mpi_wait(int tag, int *src, int *tag_out, size_t *len);
/* The nap of an idle polling loop (grows from 20 us to 320 us while idle;
 * pass busy = true to reset it after work was found). */
void ps_mpi_idle(unsigned *naps, bool busy);

/* Non-blocking sends that own their buffers until MPI is done with them. */
struct ps_mpi_sends;
struct ps_mpi_sends *ps_mpi_sends_new(void);
/* Start sending buf (malloc'd; the queue frees it). False when out of
 * memory (buf is freed, nothing is sent). */
bool ps_mpi_isend(struct ps_mpi_sends *q, int dest, int tag, void *buf,
                  size_t len);
/* Free the buffers of the sends that are done. */
void ps_mpi_sends_progress(struct ps_mpi_sends *q);
/* Wait for all (napping), then free the queue. */
void ps_mpi_sends_free(struct ps_mpi_sends *q);

/* A non-blocking reduction in progress (sum, min or max of int64 values). */
struct ps_mpi_reduction;
enum ps_mpi_op { PS_MPI_SUM, PS_MPI_MIN, PS_MPI_MAX };
/* Start reducing v[0..n) (copied) over all ranks. NULL when out of memory. */
struct ps_mpi_reduction *ps_mpi_reduce_start(const int64_t *v, int n,
                                             enum ps_mpi_op op);
/* Done? Then the result is in out[0..n) and r is freed. */
bool ps_mpi_reduce_test(struct ps_mpi_reduction *r, int64_t *out);

/* Sum (or take the max of) n int64 values over all ranks, blocking. */
void ps_mpi_sum(int64_t *v, int n);
void ps_mpi_max(int64_t *v, int n);

/*
 * Every rank runs the same command line, so they reach the same
 * distributed runs in the same order; but a rank may fail earlier (a file
 * it cannot read) and go straight to the end. ps_mpi_agree() is called by
 * every rank on entering a distributed run: true when all ranks entered it.
 * ps_mpi_leave() is called once by every rank at the end: it answers the
 * agreements of the others (with "not entering") until all have left.
 * Both are the same collective, so the calls always pair up.
 */
bool ps_mpi_agree(void);
void ps_mpi_leave(void);

/*
 * A signal to one rank (kill PID, a batch system taking one node back) stops
 * the whole run, as one to mpirun does: the rank it hit tells rank 0, rank 0
 * tells every rank, and each sets ps_interrupted to that signal, so every
 * search stops by its usual test and rank 0 prints the best line so far.
 * Without it the other ranks ran on to their own limits (dnrpa 20 s,
 * hdastar's waves never closing) while the stopped one answered nothing.
 * Called by the main thread of every polling loop of a distributed run.
 */
void ps_mpi_relay_signal(void);

#endif
