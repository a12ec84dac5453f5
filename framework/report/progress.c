/*
 * progress.c - the progress line of labs and job farms (progress.h). The
 * puzzles report as they finish (from any thread); a ticker thread wakes
 * every second and prints a line when something changed, so a long run
 * shows where it is without one line per puzzle.
 */
#include "progress.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "search.h"

static void print_line(struct ps_progress *p)
{
    char line[PS_PROGRESS_WIDTH];
    ps_progress_format(p, line, sizeof line);
    fprintf(p->out, "%s\n", line);
    fflush(p->out);
    p->changed = false;
}

static void *tick(void *arg)
{
    struct ps_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        int rc = 0;
        while (!p->stop && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (!p->stop && p->changed)
            print_line(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void ps_progress_begin(struct ps_progress *p, FILE *out, const char *what,
                       int total, bool on)
{
    memset(p, 0, sizeof *p);
    p->on = on;
    p->out = out;
    p->what = what;
    p->total = total;
    p->start = ps_now();
    if (!on)
        return;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    p->ticking = pthread_create(&p->ticker, NULL, tick, p) == 0;
}

/* The file name without its directories. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

void ps_progress_puzzle(struct ps_progress *p, const struct ps_lab_row *rows,
                        int nrows)
{
    if (!p->on)
        return;
    char last[PS_PROGRESS_WIDTH];
    /* A long name keeps its end, so the results still fit the line. */
    const char *name = nrows > 0 ? base_name(rows[0].puzzle) : "";
    size_t len = strlen(name);
    int k = len > PS_PROGRESS_NAME
                ? snprintf(last, sizeof last, "...%s",
                           name + len - (PS_PROGRESS_NAME - 3))
                : snprintf(last, sizeof last, "%s", name);
    for (int i = 0; i < nrows && k >= 0 && (size_t)k < sizeof last; i++) {
        const struct ps_lab_row *r = &rows[i];
        const char *status = r->error ? "error" : ps_status_name(r->status);
        if (r->found)
            k += snprintf(last + k, sizeof last - (size_t)k, "%s %s %s %lld",
                          i ? "," : "", r->algo, status, (long long)r->value);
        else
            k += snprintf(last + k, sizeof last - (size_t)k, "%s %s %s",
                          i ? "," : "", r->algo, status);
    }
    pthread_mutex_lock(&p->lock);
    p->done++;
    memcpy(p->last, last, sizeof last);
    p->changed = true;
    pthread_mutex_unlock(&p->lock);
}

void ps_progress_end(struct ps_progress *p)
{
    if (!p->on)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    if (p->ticking)
        pthread_join(p->ticker, NULL);
    print_line(p);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
}

void ps_progress_format(const struct ps_progress *p, char *buf, size_t len)
{
    int k = snprintf(buf, len, "psolve: %s: %d/%d puzzles done, %.1f s%s%s",
                     p->what, p->done, p->total, ps_now() - p->start,
                     p->last[0] ? "; last: " : "", p->last);
    /* Cut, and say so, rather than wrap on a 100-column terminal. */
    if (k >= (int)len && len > 4)
        memcpy(buf + len - 4, "...", 4);
}
