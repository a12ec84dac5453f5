/*
 * serve_run.c - psolve serve's searches (serve_int.h): the psolve command
 * line run as a child process (to its end for checks, hints and
 * generation; watched by a thread for a run), its progress read from the
 * child's terminal, the caps on its time and memory, idle runs reaped, a
 * run as JSON, its Server-Sent Events and its downloads.
 */
#define _GNU_SOURCE /* nftw, vasprintf */
#include "serve_int.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "search.h"

/* ---- small helpers ---- */

double serve_now_s(void)
{
    return ps_now();
}

void serve_random_hex(char *out, size_t bytes)
{
    unsigned char b[32];
    size_t got = 0;
    while (got < bytes) {
        ssize_t n = getrandom(b + got, bytes - got, 0);
        if (n > 0)
            got += (size_t)n;
    }
    for (size_t i = 0; i < bytes; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
                    struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void serve_remove_tree(const char *dir)
{
    if (dir[0])
        nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

bool serve_write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

char *serve_read_file_all(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        size_t r = fread(buf + n, 1, 4096, f);
        n += r;
        if (r == 0 || n > max)
            break;
    }
    fclose(f);
    if (!buf || n > max) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* ---- the child processes ---- */

bool serve_arg_add(struct argv_buf *a, const char *fmt, ...)
{
    if (a->n >= 62)
        return false;
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    if (!s)
        return false;
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
    return true;
}

void serve_argv_free(struct argv_buf *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    a->n = 0;
}

/* fork + exec psolve with argv; stdout to a pipe (*out_fd), stderr to
 * err_path: a terminal (a pty slave's name) when pty, else a file made
 * for it. Only async-signal-safe calls between fork and exec. */
pid_t serve_spawn(struct argv_buf *a, int *out_fd, const char *err_path,
                   bool pty)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    int errfd = pty ? open(err_path, O_RDWR | O_NOCTTY)
                    : open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int nullfd = open("/dev/null", O_RDONLY);
    if (errfd < 0 || nullfd < 0) {
        close(p[0]);
        close(p[1]);
        if (errfd >= 0)
            close(errfd);
        if (nullfd >= 0)
            close(nullfd);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        setpgid(0, 0); /* Ctrl-C at the server's terminal is the server's */
        dup2(nullfd, 0);
        dup2(p[1], 1);
        dup2(errfd, 2);
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        execv(srv.cfg.exe, a->v);
        _exit(127);
    }
    close(p[1]);
    close(errfd);
    close(nullfd);
    if (pid < 0) {
        close(p[0]);
        return -1;
    }
    *out_fd = p[0];
    return pid;
}

/* Run psolve to the end (checks, generation, hints: short by their
 * budgets; a cap, or the server stopping, kills one that is not). stdout into *out, stderr (a file
 * in dir) into *err, both malloc'd. The exit status, or -1. */
int serve_run_sync(struct argv_buf *a, const char *dir, char **out,
                    char **err)
{
    *out = NULL;
    *err = NULL;
    char errpath[300];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    int out_fd;
    pid_t pid = serve_spawn(a, &out_fd, errpath, false);
    if (pid < 0)
        return -1;
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    double deadline = serve_now_s() + srv.cfg.time_cap + 5;
    bool killed = false;
    for (;;) {
        struct pollfd pf = {.fd = out_fd, .events = POLLIN};
        int r = poll(&pf, 1, 200);
        if (!killed && (serve_now_s() > deadline || srv.shutting_down)) {
            kill(pid, SIGKILL);
            killed = true;
        }
        if (r <= 0)
            continue;
        if (n + 4096 > cap && buf && cap < MAX_OUTPUT) {
            char *nb = realloc(buf, cap * 2);
            if (nb) {
                buf = nb;
                cap *= 2;
            }
        }
        char sink[4096];
        bool room = buf && n + 4096 <= cap;
        ssize_t got = read(out_fd, room ? buf + n : sink, 4096);
        if (got <= 0)
            break;
        if (room)
            n += (size_t)got;
    }
    close(out_fd);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (buf)
        buf[n < cap ? n : cap - 1] = '\0';
    *out = buf;
    *err = serve_read_file_all(errpath, MAX_STDERR, NULL);
    if (!*err)
        *err = strdup("");
    return WIFEXITED(st) && !killed ? WEXITSTATUS(st) : -1;
}

/* The child's messages name its files by path; the page knows them as
 * "puzzle" and "moves". */
void serve_strip_dir(char *msg, const char *dir)
{
    size_t dl = strlen(dir);
    char *at;
    while (dl && (at = strstr(msg, dir)) != NULL) {
        size_t skip = dl + (at[dl] == '/' ? 1 : 0);
        memmove(at, at + skip, strlen(at + skip) + 1);
    }
}
/* ---- runs: a search in a child, watched by a thread ---- */

void serve_run_touch(struct run *r)
{
    r->last_access = serve_now_s();
}

static void parse_progress(struct run *r, const char *line)
{
    char algo[64];
    double secs, rate;
    unsigned long long nodes;
    if (sscanf(line, "[%63[^]]] %lfs nodes %llu (%lf/s)", algo, &secs, &nodes,
               &rate) != 4)
        return;
    struct point pt = {.t = serve_now_s() - r->started, .nodes = nodes, .rate = rate};
    const char *b = strstr(line, "best ");
    if (b && sscanf(b + 5, "%lld", &pt.best) == 1)
        pt.has_best = true;
    if (r->npoints < MAX_POINTS) {
        struct point *np = realloc(r->points, (size_t)(r->npoints + 1) *
                                                  sizeof *np);
        if (np) {
            r->points = np;
            r->points[r->npoints++] = pt;
        }
    }
}

/* A progress line ends in three spaces (search.c, print_progress), and the
 * '\r' that ends it on a terminal comes only with the next line: a line
 * so ended is taken at once, not a second late. */
static bool progress_complete(const char *line, size_t len)
{
    return line[0] == '[' && len >= 3 && strcmp(line + len - 3, "   ") == 0;
}

/* Bytes from the child's terminal: progress lines (between '\r's) become
 * points, everything else is kept as its stderr. *taken: the pending
 * progress line was taken already. */
static void take_stderr(struct run *r, char *pending, size_t *plen, bool *taken,
                        const char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char ch = data[i];
        if (ch == '\r' || ch == '\n') {
            pending[*plen] = '\0';
            if (pending[0] == '[' && *taken)
                ; /* taken when it was complete */
            else if (pending[0] == '[')
                parse_progress(r, pending);
            else if (*plen && strncmp(pending, "psolve: HTML report:", 20) != 0 &&
                     r->err_len + *plen + 2 < MAX_STDERR) {
                memcpy(r->err + r->err_len, pending, *plen);
                r->err_len += *plen;
                r->err[r->err_len++] = '\n';
                r->err[r->err_len] = '\0';
            }
            *plen = 0;
            *taken = false;
        } else if (*plen < 1023) {
            pending[(*plen)++] = ch;
        }
    }
    pending[*plen] = '\0';
    if (!*taken && progress_complete(pending, *plen)) {
        parse_progress(r, pending);
        *taken = true;
    }
}

static uint64_t rss_bytes(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(path, "r");
    unsigned long long size = 0, res = 0;
    if (f) {
        if (fscanf(f, "%llu %llu", &size, &res) != 2)
            res = 0;
        fclose(f);
    }
    return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The moves of a solution file (one a line, '#' comments) as a JSON array
 * of move texts, or NULL. */
static json_t *read_moves_file(const char *path)
{
    char *text = serve_read_file_all(path, MAX_LINE_TEXT, NULL);
    if (!text)
        return NULL;
    json_t *moves = json_array();
    char *save = NULL;
    for (char *p = strtok_r(text, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
        p[strcspn(p, "#")] = '\0';
        size_t n = strlen(p);
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
            p[--n] = '\0';
        if (n)
            json_array_append_new(moves, json_string(p));
    }
    free(text);
    return moves;
}

/* The run's --best-file when it changed: its new line, or NULL. */
static json_t *take_best_file(struct run *r)
{
    char path[300];
    struct stat st;
    snprintf(path, sizeof path, "%s/best.txt", r->dir);
    if (stat(path, &st) != 0 || (st.st_mtim.tv_sec == r->line_mtime.tv_sec &&
                                 st.st_mtim.tv_nsec == r->line_mtime.tv_nsec))
        return NULL;
    r->line_mtime = st.st_mtim; /* only the watcher writes it */
    return read_moves_file(path);
}

/* The complete lines of the run's --trace-json file past what was taken,
 * as events (at most MAX_TRACE in all), into `events`. */
static void take_trace_file(struct run *r, size_t have, json_t *events)
{
    char path[300];
    snprintf(path, sizeof path, "%s/trace.jsonl", r->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char buf[65536];
    if (fseek(f, r->trace_read, SEEK_SET) == 0) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        char *at = buf, *nl;
        while ((nl = strchr(at, '\n')) != NULL &&
               have + json_array_size(events) < MAX_TRACE) {
            json_t *ev = json_loadb(at, (size_t)(nl - at), 0, NULL);
            if (json_is_object(ev))
                json_array_append(events, ev);
            json_decref(ev);
            at = nl + 1;
        }
        r->trace_read += (long)(at - buf);
    }
    fclose(f);
}

/* Once a tick while the run runs, and at its end: its files' news into the
 * run (under the lock; the files are read outside it). */
static void follow_files(struct run *r)
{
    json_t *line = take_best_file(r);
    json_t *events = NULL;
    pthread_mutex_lock(&srv.lock);
    size_t have = r->trace ? json_array_size(r->trace) : 0;
    bool traced = r->trace != NULL;
    pthread_mutex_unlock(&srv.lock);
    if (traced) {
        events = json_array();
        take_trace_file(r, have, events);
    }
    if (!line && !json_array_size(events)) {
        json_decref(events);
        return;
    }
    pthread_mutex_lock(&srv.lock);
    if (line) {
        json_decref(r->line);
        r->line = line;
    }
    if (events)
        json_array_extend(r->trace, events);
    r->version++;
    pthread_cond_broadcast(&srv.changed);
    pthread_mutex_unlock(&srv.lock);
    json_decref(events);
}

void *serve_watch_run(void *arg)
{
    struct watch *w = arg;
    struct run *r = w->run;
    char *out = malloc(65536);
    size_t out_len = 0, out_cap = out ? 65536 : 0;
    char pending[1024];
    size_t plen = 0;
    bool taken = false; /* the pending progress line was parsed */
    bool out_open = true, pty_open = true, sent_int = false, sent_kill = false;
    double start = serve_now_s();
    while (out_open || pty_open) {
        struct pollfd pf[2] = {{.fd = out_open ? w->out_fd : -1, .events = POLLIN},
                               {.fd = pty_open ? w->pty_fd : -1, .events = POLLIN}};
        int k = poll(pf, 2, 250);
        double el = serve_now_s() - start;
        /* The caps: the child's own --time ends it first; these catch a
         * child that does not stop. */
        bool over_memory = rss_bytes(r->pid) > (srv.cfg.memory_cap << 20) * 2 +
                                                   (256u << 20);
        if (!sent_int && (el > srv.cfg.time_cap + 5 || over_memory || srv.shutting_down)) {
            kill(r->pid, SIGINT);
            sent_int = true;
        }
        if (!sent_kill && (el > srv.cfg.time_cap + 15 || (over_memory && sent_int))) {
            kill(r->pid, SIGKILL);
            sent_kill = true;
        }
        follow_files(r);
        if (k <= 0)
            continue;
        char buf[4096];
        if (out_open && (pf[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = read(w->out_fd, buf, sizeof buf);
            if (n <= 0) {
                out_open = false;
            } else {
                if (out_len + (size_t)n + 1 > out_cap && out_cap < MAX_OUTPUT) {
                    size_t nc = out_cap * 2;
                    while (nc < out_len + (size_t)n + 1)
                        nc *= 2;
                    char *no = realloc(out, nc);
                    if (no) {
                        out = no;
                        out_cap = nc;
                    }
                }
                if (out && out_len + (size_t)n + 1 <= out_cap) {
                    memcpy(out + out_len, buf, (size_t)n);
                    out_len += (size_t)n;
                }
            }
        }
        if (pty_open && (pf[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = read(w->pty_fd, buf, sizeof buf);
            if (n <= 0) {
                pty_open = false; /* EIO once the child closed its side */
            } else {
                pthread_mutex_lock(&srv.lock);
                take_stderr(r, pending, &plen, &taken, buf, (size_t)n);
                r->version++;
                pthread_cond_broadcast(&srv.changed);
                pthread_mutex_unlock(&srv.lock);
            }
        }
    }
    follow_files(r);
    int st = 0;
    while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
        ;
    close(w->out_fd);
    close(w->pty_fd);
    if (out)
        out[out_len] = '\0';
    pthread_mutex_lock(&srv.lock);
    take_stderr(r, pending, &plen, &taken, "\n", 1);
    r->out = out;
    r->out_len = out_len;
    r->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r->state = RUN_DONE;
    r->ended = serve_now_s();
    r->last_access = r->ended;
    srv.nrunning--;
    r->version++;
    pthread_cond_broadcast(&srv.changed);
    pthread_mutex_unlock(&srv.lock);
    free(w);
    return NULL;
}

void serve_run_free(struct run *r)
{
    serve_remove_tree(r->dir);
    free(r->out);
    free(r->points);
    json_decref(r->line);
    json_decref(r->trace);
    json_decref(r->request);
    free(r);
}

/* With the lock held: the run of this id, or NULL. */
struct run *serve_run_find(const char *id)
{
    for (struct run *r = srv.runs; r; r = r->next)
        if (strcmp(r->id, id) == 0)
            return r;
    return NULL;
}

/* With the lock held: drop finished runs idle for cfg.idle seconds, and
 * (make_room) the oldest finished ones past MAX_RUNS_KEPT; stop running
 * ones nobody has looked at for cfg.idle seconds. The list is newest
 * first: the room is made at its tail, never from a run that just ended
 * (its page may not have read its done event yet). */
void serve_reap_locked(bool make_room)
{
    double t = serve_now_s();
    int kept = 0;
    struct run **pp = &srv.runs;
    while (*pp) {
        struct run *r = *pp;
        if (r->state == RUN_RUNNING && t - r->last_access > srv.cfg.idle &&
            !r->stop_asked) {
            kill(r->pid, SIGINT);
            r->stop_asked = true;
        }
        if (r->state == RUN_DONE && t - r->last_access > srv.cfg.idle) {
            *pp = r->next;
            serve_run_free(r);
            continue;
        }
        kept++;
        pp = &r->next;
    }
    while (make_room && kept >= MAX_RUNS_KEPT) {
        struct run **oldest = NULL;
        for (pp = &srv.runs; *pp; pp = &(*pp)->next)
            if ((*pp)->state == RUN_DONE)
                oldest = pp;
        if (!oldest)
            break; /* all running: serve_api_solve's cap says no */
        struct run *r = *oldest;
        *oldest = r->next;
        serve_run_free(r);
        kept--;
    }
}

void *serve_reaper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&srv.lock);
    while (!srv.shutting_down) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&srv.changed, &srv.lock, &ts);
        serve_reap_locked(false);
        serve_sse_wake_locked(false);
    }
    serve_sse_wake_locked(true); /* they end: the daemons may stop */
    pthread_mutex_unlock(&srv.lock);
    return NULL;
}
json_t *serve_run_json(struct run *r, bool full)
{
    json_t *j = json_pack("{s:s,s:s,s:s,s:f,s:b}", "id", r->id, "algo", r->algo,
                          "state", r->state == RUN_RUNNING ? "running" : "done",
                          "elapsed",
                          (r->state == RUN_RUNNING ? serve_now_s() : r->ended) -
                              r->started,
                          "stopping", r->stop_asked);
    if (r->npoints) {
        struct point *p = &r->points[r->npoints - 1];
        json_object_set_new(j, "progress",
                            json_pack("{s:f,s:I,s:f,s:o}", "t", p->t,
                                      "nodes", (json_int_t)p->nodes, "rate",
                                      p->rate, "best",
                                      p->has_best ? json_integer(p->best)
                                                  : json_null()));
        json_object_set_new(j, "memory",
                            json_integer((json_int_t)(r->state == RUN_RUNNING
                                                          ? rss_bytes(r->pid)
                                                          : 0)));
    }
    if (full) {
        json_t *pts = json_array();
        for (int i = 0; i < r->npoints; i++)
            json_array_append_new(
                pts, json_pack("[f,I,o]", r->points[i].t,
                               (json_int_t)r->points[i].nodes,
                               r->points[i].has_best
                                   ? json_integer(r->points[i].best)
                                   : json_null()));
        json_object_set_new(j, "points", pts);
        if (r->trace)
            json_object_set(j, "trace", r->trace);
    }
    if (r->line)
        json_object_set(j, "line", r->line);
    if (r->trace)
        json_object_set_new(j, "trace_count",
                            json_integer((json_int_t)json_array_size(r->trace)));
    if (r->state == RUN_DONE) {
        json_object_set_new(j, "exit_status", json_integer(r->exit_status));
        json_t *res = r->out ? json_loads(r->out, 0, NULL) : NULL;
        if (json_is_object(res)) /* the page's puzzle, not the server's path */
            json_object_set_new(res, "file", json_string("puzzle"));
        json_object_set_new(j, "result", res ? res : json_null());
        char err[MAX_STDERR];
        snprintf(err, sizeof err, "%s", r->err);
        serve_strip_dir(err, r->dir);
        json_object_set_new(j, "stderr", json_string(err));
    }
    return j;
}

/* ---- Server-Sent Events: a run's progress while it runs ---- */

struct sse {
    char id[17];
    unsigned seen;
    int phase; /* 0: running, 1: the done event sent */
    size_t trace_sent; /* the run's trace events this stream sent */
    struct MHD_Connection *c;
    double quiet_until; /* then a keep-alive comment */
    struct sse *next_waiting; /* in srv.sse_waiting while suspended */
};

/* With the lock held: has the stream something to send, or is it over? */
static bool sse_has_news(const struct sse *s, const struct run *r)
{
    return !r || srv.shutting_down || r->version != s->seen ||
           r->state != RUN_RUNNING ||
           s->trace_sent < (r->trace ? json_array_size(r->trace) : 0);
}

/* With the lock held (the reaper, on every change and each second):
 * resume the suspended streams that have news, or a keep-alive due; all
 * of them at shutdown. */
void serve_sse_wake_locked(bool all)
{
    double t = serve_now_s();
    struct sse **pp = &srv.sse_waiting;
    while (*pp) {
        struct sse *s = *pp;
        if (all || t >= s->quiet_until || sse_has_news(s, serve_run_find(s->id))) {
            *pp = s->next_waiting;
            MHD_resume_connection(s->c);
        } else {
            pp = &s->next_waiting;
        }
    }
}

/* With the lock held: the run's trace events this stream has not sent,
 * as many as fit in about `room` bytes (at least one), into j's "trace",
 * from index "trace_from". True when some are left. */
static bool sse_trace_slice(struct sse *s, const struct run *r, json_t *j,
                            size_t room)
{
    size_t n = r->trace ? json_array_size(r->trace) : 0;
    if (s->trace_sent >= n)
        return false;
    json_t *slice = json_array();
    json_object_set_new(j, "trace_from", json_integer((json_int_t)s->trace_sent));
    size_t bytes = 0;
    while (s->trace_sent < n && (bytes < room || json_array_size(slice) == 0)) {
        json_t *ev = json_array_get(r->trace, s->trace_sent);
        char *t = json_dumps(ev, JSON_COMPACT);
        bytes += t ? strlen(t) + 1 : 0;
        free(t);
        if (bytes > room && json_array_size(slice))
            break;
        json_array_append(slice, ev);
        s->trace_sent++;
    }
    json_object_set_new(j, "trace", slice);
    return s->trace_sent < n;
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct sse *s = cls;
    pthread_mutex_lock(&srv.lock);
    struct run *r = serve_run_find(s->id);
    if (!r || s->phase == 1 || srv.shutting_down) {
        pthread_mutex_unlock(&srv.lock);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    if (!sse_has_news(s, r) && serve_now_s() < s->quiet_until) {
        /* Nothing to say: off the event loop until the run changes (the
         * suspension and the resume both happen under the lock). */
        s->next_waiting = srv.sse_waiting;
        srv.sse_waiting = s;
        MHD_suspend_connection(s->c);
        pthread_mutex_unlock(&srv.lock);
        return 0;
    }
    s->quiet_until = serve_now_s() + KEEPALIVE_S;
    serve_run_touch(r);
    ssize_t n;
    size_t traced = r->trace ? json_array_size(r->trace) : 0;
    if (r->version == s->seen && r->state == RUN_RUNNING &&
        s->trace_sent >= traced) {
        n = snprintf(buf, max, ": keep-alive\n\n");
    } else {
        s->seen = r->version;
        json_t *j = serve_run_json(r, false);
        /* The trace goes out in slices before the done event. */
        bool done = !sse_trace_slice(s, r, j, max / 2) && r->state == RUN_DONE;
        char *text = json_dumps(j, JSON_COMPACT);
        json_decref(j);
        n = snprintf(buf, max, "event: %s\ndata: %s\n\n",
                     done ? "done" : "progress", text ? text : "{}");
        free(text);
        if (done && (size_t)n < max)
            s->phase = 1;
        if ((size_t)n >= max) /* too long: only the state */
            n = snprintf(buf, max, "event: %s\ndata: {\"id\":\"%s\",\"state\":"
                                   "\"%s\"}\n\n",
                         done ? "done" : "progress", r->id,
                         done ? "done" : "running");
    }
    pthread_mutex_unlock(&srv.lock);
    return n < 0 ? MHD_CONTENT_READER_END_WITH_ERROR : n;
}

static enum MHD_Result api_events(struct MHD_Connection *c, const char *id)
{
    struct sse *s = calloc(1, sizeof *s);
    if (!s)
        return MHD_NO;
    snprintf(s->id, sizeof s->id, "%s", id);
    s->seen = (unsigned)-1;
    s->c = c;
    struct MHD_Response *resp = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 16384, sse_read, s, free);
    if (!resp) {
        free(s);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* /api/run/ID[/what] */
/* GET /api/runs: every run the server keeps, oldest first, with its
 * request's puzzle, and the cap: a page (re)loaded shows them all. */
enum MHD_Result serve_api_runs(struct MHD_Connection *c)
{
    json_t *list = json_array();
    pthread_mutex_lock(&srv.lock);
    for (struct run *r = srv.runs; r; r = r->next) { /* newest first */
        json_t *j = serve_run_json(r, false);
        json_object_del(j, "result"); /* the events stream brings it */
        if (r->request)
            json_object_set(j, "request", r->request);
        json_array_insert_new(list, 0, j);
    }
    int running = srv.nrunning;
    pthread_mutex_unlock(&srv.lock);
    return serve_send_json(c, 200, json_pack("{s:o,s:i,s:i}", "runs", list,
                                             "running", running, "max_runs",
                                             srv.cfg.max_runs));
}

enum MHD_Result serve_api_run(struct MHD_Connection *c, const char *method,
                               const char *rest)
{
    char id[17] = "";
    size_t n = strcspn(rest, "/");
    if (n == 0 || n >= sizeof id)
        return serve_send_error(c, 404, "no such run");
    memcpy(id, rest, n);
    const char *what = rest[n] == '/' ? rest + n + 1 : "";
    bool post = strcmp(method, "POST") == 0;
    if (strcmp(what, "events") == 0 && !post) {
        pthread_mutex_lock(&srv.lock);
        bool known = serve_run_find(id) != NULL;
        pthread_mutex_unlock(&srv.lock);
        return known ? api_events(c, id) : serve_send_error(c, 404, "no such run");
    }
    pthread_mutex_lock(&srv.lock);
    struct run *r = serve_run_find(id);
    if (!r) {
        pthread_mutex_unlock(&srv.lock);
        return serve_send_error(c, 404, "no such run");
    }
    serve_run_touch(r);
    if (strcmp(what, "stop") == 0) {
        if (!post) {
            pthread_mutex_unlock(&srv.lock);
            return serve_send_error(c, 405, "stop is a POST");
        }
        if (r->state == RUN_RUNNING && !r->stop_asked) {
            kill(r->pid, SIGINT); /* as Ctrl-C: the best line is kept */
            r->stop_asked = true;
            r->version++;
            pthread_cond_broadcast(&srv.changed);
        }
        json_t *j = serve_run_json(r, false);
        pthread_mutex_unlock(&srv.lock);
        return serve_send_json(c, 200, j);
    }
    if (post) {
        pthread_mutex_unlock(&srv.lock);
        return serve_send_error(c, 405, "use GET");
    }
    if (what[0] == '\0') {
        json_t *j = serve_run_json(r, true);
        pthread_mutex_unlock(&srv.lock);
        return serve_send_json(c, 200, j);
    }
    if (r->state != RUN_DONE) {
        pthread_mutex_unlock(&srv.lock);
        return serve_send_error(c, 409, "the run is still running");
    }
    char path[300], dir[256], algo[128], algo_name[128];
    snprintf(dir, sizeof dir, "%s", r->dir);
    snprintf(algo, sizeof algo, "%s", r->algo);
    snprintf(algo_name, sizeof algo_name, "%s", r->algo);
    for (char *p = algo; *p; p++)
        if (*p == ':' || *p == '=' || *p == ',')
            *p = '-';
    char *out = r->out ? strdup(r->out) : NULL;
    pthread_mutex_unlock(&srv.lock);
    json_t *res = out ? json_loads(out, 0, NULL) : NULL;
    enum MHD_Result ret;
    char name[200];
    if (strcmp(what, "json") == 0) {
        snprintf(name, sizeof name, "psolve-%s.json", algo);
        ret = out ? serve_send_text(c, 200, "application/json", out, strlen(out), name)
                  : serve_send_error(c, 404, "the run printed no result");
        out = NULL;
    } else if (strcmp(what, "html") == 0 || strcmp(what, "page") == 0) {
        snprintf(path, sizeof path, "%s/page.html", dir);
        size_t len;
        char *page = serve_read_file_all(path, MAX_OUTPUT * 4, &len);
        if (page) { /* the page names the puzzle "puzzle", not its path */
            serve_strip_dir(page, dir);
            len = strlen(page);
        }
        snprintf(name, sizeof name, "psolve-%s.html", algo);
        ret = page ? serve_send_text(c, 200, "text/html; charset=utf-8", page, len,
                               what[0] == 'h' ? name : NULL)
                   : serve_send_error(c, 404, "the run wrote no page");
    } else if (strcmp(what, "solution") == 0) {
        /* The solution file, as `psolve solve` prints it: verify takes it. */
        json_t *mv = json_object_get(res, "moves");
        if (!json_is_array(mv)) {
            ret = serve_send_error(c, 404, "the run found no solution");
        } else {
            char *sol = NULL;
            size_t sl = 0;
            FILE *f = open_memstream(&sol, &sl);
            fprintf(f, "# psolve serve: game %s, algorithm %s\n",
                    json_string_value(json_object_get(res, "game")), algo_name);
            const char *rules = json_string_value(json_object_get(res, "rules"));
            if (rules)
                fprintf(f, "# rules: %s\n", rules);
            size_t i;
            json_t *m;
            json_array_foreach(mv, i, m) fprintf(f, "%s\n", json_string_value(m));
            fclose(f);
            snprintf(name, sizeof name, "psolve-%s.txt", algo);
            ret = serve_send_text(c, 200, "text/plain; charset=utf-8", sol, sl, name);
        }
    } else {
        ret = serve_send_error(c, 404, "no such thing as '%.40s' for a run", what);
    }
    free(out);
    json_decref(res);
    return ret;
}
