/*
 * farm.c - the job farm: a lab (lab.h) whose puzzles are handed out to the
 * ranks, largest file first, while rank 0 prints the rows in input order as
 * soon as they and all before them are in. A row is computed by
 * ps_lab_run_puzzle, the same call as psolve's lab, and travels as the
 * plain bytes of struct ps_lab_row; so the rows are psolve's rows.
 *
 * A lab with a distributed algorithm (hdastar, dnrpa, dnmcs) is not farmed:
 * its puzzles run one after another, each spread over all the ranks
 * (ps_lab_run on every rank; rank 0's rows are printed).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mpi_frontend.h"
#include "pool.h"
#include "progress.h"
#include "transport.h"

struct farm {
    const struct ps_lab_setup *setup;
    const char *const *paths;
    int npaths;
    FILE *out;
    const struct ps_lab_layout *lay;
    struct ps_lab_row *rows; /* npaths x nalgos */
    bool *done, *ok;
    int printed_puzzles, printed_rows;
    int stopped_rows; /* rows a rank's own signal cut short */
    struct ps_progress progress; /* rank 0's line on stderr */
};

/* A job is the puzzle's index; its result, the puzzle's rows. */
static bool farm_compute(void *ctx, const void *in, size_t len, void **out,
                         size_t *out_len)
{
    const struct farm *f = ctx;
    int32_t i;
    if (len != sizeof i)
        return false;
    memcpy(&i, in, sizeof i);
    size_t n = (size_t)f->setup->nalgos;
    struct ps_lab_row *rows = calloc(n, sizeof *rows);
    int32_t *buf = malloc(sizeof(int32_t) + n * sizeof *rows);
    if (!rows || !buf || i < 0 || i >= f->npaths) {
        free(rows);
        free(buf);
        return false;
    }
    buf[0] = ps_lab_run_puzzle(f->setup, f->paths[i], rows);
    memcpy(buf + 1, rows, n * sizeof *rows);
    free(rows);
    *out = buf;
    *out_len = sizeof(int32_t) + n * sizeof *rows;
    return true;
}

static bool farm_input(void *arg, int job, void **in, size_t *len)
{
    (void)arg;
    int32_t *v = malloc(sizeof *v);
    if (!v)
        return false;
    *v = job;
    *in = v;
    *len = sizeof *v;
    return true;
}

/* Print every puzzle that is done and has all before it done. */
static void farm_print_ready(struct farm *f)
{
    int n = f->setup->nalgos;
    while (f->printed_puzzles < f->npaths && f->done[f->printed_puzzles]) {
        int i = f->printed_puzzles++;
        for (int k = 0; k < n; k++) {
            const struct ps_lab_row *r = &f->rows[(size_t)i * (size_t)n + (size_t)k];
            ps_lab_print_row(f->out, f->lay, r, f->printed_rows++);
            if (r->error && k == 0)
                fprintf(stderr, "psolve: %s\n", r->message);
        }
        fflush(f->out);
    }
}

static void farm_output(void *arg, int job, const void *out, size_t len)
{
    struct farm *f = arg;
    size_t n = (size_t)f->setup->nalgos;
    if (len != sizeof(int32_t) + n * sizeof *f->rows)
        return; /* the puzzle stays not done: reported as missing */
    int32_t ok;
    memcpy(&ok, out, sizeof ok);
    memcpy(&f->rows[(size_t)job * n], (const char *)out + sizeof ok,
           n * sizeof *f->rows);
    f->ok[job] = ok;
    f->done[job] = true;
    for (size_t k = 0; k < n; k++)
        f->stopped_rows += f->rows[(size_t)job * n + k].stop == PS_STOP_INTERRUPT;
    ps_progress_puzzle(&f->progress, &f->rows[(size_t)job * n], (int)n);
    farm_print_ready(f);
}

static bool farm_stop(void *arg)
{
    (void)arg;
    return ps_interrupted;
}

static off_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : 0;
}

struct sized {
    off_t size;
    int index;
};

/* Largest first (the long jobs start early, the short ones fill the gaps
 * at the end), input order among equals. */
static int compare_size(const void *a, const void *b)
{
    const struct sized *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The order of hand-out; false when out of memory. */
static bool largest_first(const char *const *paths, int npaths, int *order)
{
    struct sized *v = malloc(((size_t)npaths + 1) * sizeof *v);
    if (!v)
        return false;
    for (int i = 0; i < npaths; i++)
        v[i] = (struct sized){file_size(paths[i]), i};
    qsort(v, (size_t)npaths, sizeof *v, compare_size);
    for (int i = 0; i < npaths; i++)
        order[i] = v[i].index;
    free(v);
    return true;
}

int ps_mpi_run_lab(FILE *out, const struct ps_lab_layout *lay,
                   const struct ps_lab_setup *setup, const char *const *paths,
                   int npaths, int jobs)
{
    if (!ps_mpi_agree())
        return ps_mpi_not_agreed();
    for (int i = 0; i < setup->nalgos; i++)
        if (ps_mpi_is_distributed(setup->algos[i])) {
            struct ps_lab_setup one = *setup; /* progress from rank 0 only */
            one.progress = setup->progress && ps_mpi_rank() == 0;
            return ps_lab_run(out, lay, &one, paths, npaths, 1, NULL, NULL);
        }
    struct farm f = {.setup = setup, .paths = paths, .npaths = npaths,
                     .out = out, .lay = lay};
    struct farm *ctx[PS_MPI_MAX_THREADS];
    if (jobs > PS_MPI_MAX_THREADS)
        jobs = PS_MPI_MAX_THREADS;
    for (int t = 0; t < jobs; t++)
        ctx[t] = &f; /* read-only to the compute threads */
    struct ps_pool pool = {farm_compute, (void **)ctx, jobs};
    if (ps_mpi_rank() != 0)
        return ps_pool_serve(&pool) ? PS_EXIT_OK : PS_EXIT_ERROR;

    size_t nrows = (size_t)npaths * (size_t)setup->nalgos;
    f.rows = calloc(nrows ? nrows : 1, sizeof *f.rows);
    f.done = calloc((size_t)npaths + 1, sizeof *f.done);
    f.ok = calloc((size_t)npaths + 1, sizeof *f.ok);
    int *order = malloc(((size_t)npaths + 1) * sizeof *order);
    int status = PS_EXIT_OK;
    if (!f.rows || !f.done || !f.ok || !order ||
        !largest_first(paths, npaths, order)) {
        fprintf(stderr, "psolve: out of memory\n");
        status = PS_EXIT_ERROR;
        npaths = 0; /* hand out nothing, but still release the workers */
    }
    if (status == PS_EXIT_OK)
        ps_lab_print_begin(out, lay, setup, npaths);
    ps_progress_begin(&f.progress, stderr, "farm", npaths, setup->progress);
    if (!ps_pool_map(&pool, npaths, order, farm_input, farm_output, farm_stop,
                     &f))
        status = PS_EXIT_ERROR;
    ps_pool_end();
    ps_progress_end(&f.progress);
    for (int i = 0; i < f.printed_puzzles; i++)
        if (!f.ok[i])
            status = PS_EXIT_ERROR;
    if (f.rows && !ps_lab_print_summary(out, lay, setup, f.rows,
                                        f.printed_rows)) {
        fprintf(stderr, "psolve: error: the exact algorithms disagree\n");
        status = PS_EXIT_ERROR;
    }
    /* Rows are missing: not a complete lab. A signal to rank 0 (or to
     * mpirun, which passes it on) says so itself; a rank stopped alone
     * (SIGTERM to its pid) answers every job it still gets with a row cut
     * short, or its rows never come. */
    if (status == PS_EXIT_OK && !ps_interrupted &&
        (f.printed_puzzles < npaths || f.stopped_rows > 0)) {
        fprintf(stderr, "psolve: error: a rank was stopped by a signal or lost: "
                        "%d of %d puzzles have no row, %d rows were cut short\n",
                npaths - f.printed_puzzles, npaths, f.stopped_rows);
        status = PS_EXIT_INTERRUPTED;
    }
    if (ps_interrupted && status == PS_EXIT_OK)
        status = PS_EXIT_INTERRUPTED;
    free(order);
    free(f.rows);
    free(f.done);
    free(f.ok);
    return status;
}
