/*
 * serve.c - `psolve serve`: a local HTTP server (GNU libmicrohttpd) with one
 * self-contained web app (serve.html) to pick, generate, paste or edit a
 * puzzle, play it, ask for a hint, and run searches while watching them.
 *
 * Every search, check and generation is the psolve command line itself, run
 * as a child process with the options of the request written as
 * --name=value words: the app's answers are the CLI's by construction, a
 * run can be stopped as Ctrl-C stops psolve (SIGINT: the best line so far
 * is kept), and a run that crashes or runs away takes nothing else down.
 * The child's stderr is a pseudo-terminal, so the driver prints its
 * once-a-second progress line; this file reads it and forwards it to the
 * page as Server-Sent Events.
 *
 * Safety (docs/serve.md): loopback only unless --listen; a random token on
 * every request; Host and Origin must be the server's own; request bodies
 * are capped; only whitelisted options with checked values reach the child;
 * puzzles come from the request body or the bundled list (by index, never a
 * path); runs are capped in number, time and memory, and reaped when idle.
 */
#define _GNU_SOURCE /* mkdtemp, posix_openpt, ptsname, nftw, vasprintf */
#include "serve.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <jansson.h>
#include <microhttpd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "number.h"
#include "search.h"

#ifndef PSOLVE_PUZZLE_DIR
#define PSOLVE_PUZZLE_DIR "games"
#endif
#ifndef PSOLVE_VERSION
#define PSOLVE_VERSION "0.1.0"
#endif

/* serve.html, embedded by cmake/embed.cmake. */
extern const unsigned char ps_serve_template[];
extern const size_t ps_serve_template_len;
void ps_html_page(FILE *out, const unsigned char *tmpl, size_t len,
                  void (*data)(FILE *out, const void *ctx), const void *ctx);

#define MAX_BODY (64 * 1024)   /* request bodies: puzzles are small */
#define MAX_RUNS_KEPT 64       /* finished runs kept for their downloads */
#define MAX_PUZZLES 512
#define MAX_OUTPUT (8 << 20)   /* a child's stdout kept at most */
#define MAX_STDERR 8192
#define MAX_POINTS 2000        /* progress points kept per run */
#define HINT_NODES "20000"

struct config {
    int port;
    const char *listen;  /* NULL: 127.0.0.1 and ::1 */
    bool open;
    int max_runs;        /* children running at once */
    double time_cap;     /* seconds per run */
    uint64_t memory_cap; /* MB per run */
    double idle;         /* seconds before an idle run is reaped */
    bool allow_scripts;
    const char *exe;
};

struct point {
    double t;
    uint64_t nodes;
    double rate;
    long long best;
    bool has_best;
};

enum run_state { RUN_RUNNING, RUN_DONE };

struct run {
    char id[17];
    char algo[128];
    char dir[256];
    pid_t pid;
    enum run_state state;
    bool stop_asked;
    int exit_status;     /* the CLI's (docs/cli.md), -1 = killed */
    char *out;           /* its stdout: the --json object */
    size_t out_len;
    char err[MAX_STDERR]; /* stderr without the progress lines */
    size_t err_len;
    struct point *points;
    int npoints;
    double started, ended, last_access;
    unsigned version;    /* bumped on every change (SSE waits on it) */
    struct run *next;
};

struct puzzle {
    char name[160];  /* e.g. samegame/examples/samegame-10x10.txt */
    char game[64];   /* a built-in game or lua:NAME */
    char path[800];
};

static struct config cfg;
static char token[33];
static char root_dir[160];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct run *runs;
static int nrunning;
static unsigned run_counter;
static volatile bool shutting_down;
static struct puzzle puzzles[MAX_PUZZLES];
static int npuzzles;
static char hosts[4][160]; /* the Host values this server answers to */
static int nhosts;

/* ---- small helpers ---- */

static double now_s(void)
{
    return ps_now();
}

static void random_hex(char *out, size_t bytes)
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

static void remove_tree(const char *dir)
{
    if (dir[0])
        nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static bool write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static char *read_file_all(const char *path, size_t max, size_t *len)
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

/* Words the child may get as an option value: letters, digits and
 * ",.:=_-+" (algorithm lists with their keys, rule names, numbers). */
static bool safe_word(const char *s)
{
    if (!s[0] || strlen(s) > 200)
        return false;
    for (const char *p = s; *p; p++)
        if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') ||
              ('0' <= *p && *p <= '9') || strchr(",.:=_-+", *p)))
            return false;
    return true;
}

/* ---- the child processes ---- */

struct argv_buf {
    char *v[64];
    int n;
};

static bool arg_add(struct argv_buf *a, const char *fmt, ...)
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

static void argv_free(struct argv_buf *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    a->n = 0;
}

/* fork + exec psolve with argv; stdout to a pipe (*out_fd), stderr to
 * err_path: a terminal (a pty slave's name) when pty, else a file made
 * for it. Only async-signal-safe calls between fork and exec. */
static pid_t spawn(struct argv_buf *a, int *out_fd, const char *err_path,
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
        execv(cfg.exe, a->v);
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
 * budgets; a cap kills one that is not). stdout into *out, stderr (a file
 * in dir) into *err, both malloc'd. The exit status, or -1. */
static int run_sync(struct argv_buf *a, const char *dir, char **out,
                    char **err)
{
    *out = NULL;
    *err = NULL;
    char errpath[300];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    int out_fd;
    pid_t pid = spawn(a, &out_fd, errpath, false);
    if (pid < 0)
        return -1;
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    double deadline = now_s() + cfg.time_cap + 5;
    bool killed = false;
    for (;;) {
        struct pollfd pf = {.fd = out_fd, .events = POLLIN};
        int r = poll(&pf, 1, 200);
        if (!killed && now_s() > deadline) {
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
    *err = read_file_all(errpath, MAX_STDERR, NULL);
    if (!*err)
        *err = strdup("");
    return WIFEXITED(st) && !killed ? WEXITSTATUS(st) : -1;
}

/* The child's messages name its files by path; the page knows them as
 * "puzzle" and "moves". */
static void strip_dir(char *msg, const char *dir)
{
    size_t dl = strlen(dir);
    char *at;
    while (dl && (at = strstr(msg, dir)) != NULL) {
        size_t skip = dl + (at[dl] == '/' ? 1 : 0);
        memmove(at, at + skip, strlen(at + skip) + 1);
    }
}

/* ---- runs: a search in a child, watched by a thread ---- */

static void run_touch(struct run *r)
{
    r->last_access = now_s();
}

static void parse_progress(struct run *r, const char *line)
{
    char algo[64];
    double secs, rate;
    unsigned long long nodes;
    if (sscanf(line, "[%63[^]]] %lfs nodes %llu (%lf/s)", algo, &secs, &nodes,
               &rate) != 4)
        return;
    struct point pt = {.t = now_s() - r->started, .nodes = nodes, .rate = rate};
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

/* Bytes from the child's terminal: progress lines (between '\r's) become
 * points, everything else is kept as its stderr. */
static void take_stderr(struct run *r, char *pending, size_t *plen,
                        const char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char ch = data[i];
        if (ch == '\r' || ch == '\n') {
            pending[*plen] = '\0';
            if (pending[0] == '[')
                parse_progress(r, pending);
            else if (*plen && strncmp(pending, "psolve: HTML report:", 20) != 0 &&
                     r->err_len + *plen + 2 < MAX_STDERR) {
                memcpy(r->err + r->err_len, pending, *plen);
                r->err_len += *plen;
                r->err[r->err_len++] = '\n';
                r->err[r->err_len] = '\0';
            }
            *plen = 0;
        } else if (*plen < 1023) {
            pending[(*plen)++] = ch;
        }
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

struct watch {
    struct run *run;
    int out_fd, pty_fd;
};

static void *watch_run(void *arg)
{
    struct watch *w = arg;
    struct run *r = w->run;
    char *out = malloc(65536);
    size_t out_len = 0, out_cap = out ? 65536 : 0;
    char pending[1024];
    size_t plen = 0;
    bool out_open = true, pty_open = true, sent_int = false, sent_kill = false;
    double start = now_s();
    while (out_open || pty_open) {
        struct pollfd pf[2] = {{.fd = out_open ? w->out_fd : -1, .events = POLLIN},
                               {.fd = pty_open ? w->pty_fd : -1, .events = POLLIN}};
        int k = poll(pf, 2, 250);
        double el = now_s() - start;
        /* The caps: the child's own --time ends it first; these catch a
         * child that does not stop. */
        bool over_memory = rss_bytes(r->pid) > (cfg.memory_cap << 20) * 2 +
                                                   (256u << 20);
        if (!sent_int && (el > cfg.time_cap + 5 || over_memory || shutting_down)) {
            kill(r->pid, SIGINT);
            sent_int = true;
        }
        if (!sent_kill && (el > cfg.time_cap + 15 || (over_memory && sent_int))) {
            kill(r->pid, SIGKILL);
            sent_kill = true;
        }
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
                pthread_mutex_lock(&lock);
                take_stderr(r, pending, &plen, buf, (size_t)n);
                r->version++;
                pthread_cond_broadcast(&changed);
                pthread_mutex_unlock(&lock);
            }
        }
    }
    int st = 0;
    while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
        ;
    close(w->out_fd);
    close(w->pty_fd);
    if (out)
        out[out_len] = '\0';
    pthread_mutex_lock(&lock);
    take_stderr(r, pending, &plen, "\n", 1);
    r->out = out;
    r->out_len = out_len;
    r->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r->state = RUN_DONE;
    r->ended = now_s();
    r->last_access = r->ended;
    nrunning--;
    r->version++;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    free(w);
    return NULL;
}

static void run_free(struct run *r)
{
    remove_tree(r->dir);
    free(r->out);
    free(r->points);
    free(r);
}

/* With the lock held: the run of this id, or NULL. */
static struct run *run_find(const char *id)
{
    for (struct run *r = runs; r; r = r->next)
        if (strcmp(r->id, id) == 0)
            return r;
    return NULL;
}

/* With the lock held: drop finished runs idle for cfg.idle seconds, and the
 * oldest finished ones past MAX_RUNS_KEPT; stop running ones nobody has
 * looked at for cfg.idle seconds. */
static void reap_locked(bool make_room)
{
    double t = now_s();
    int kept = 0;
    for (struct run *r = runs; r; r = r->next)
        kept++;
    struct run **pp = &runs;
    while (*pp) {
        struct run *r = *pp;
        if (r->state == RUN_RUNNING && t - r->last_access > cfg.idle &&
            !r->stop_asked) {
            kill(r->pid, SIGINT);
            r->stop_asked = true;
        }
        bool old = r->state == RUN_DONE &&
                   (t - r->last_access > cfg.idle ||
                    (make_room && kept >= MAX_RUNS_KEPT));
        if (old) {
            *pp = r->next;
            run_free(r);
            kept--;
            continue;
        }
        pp = &r->next;
    }
}

static void *reaper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!shutting_down) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&changed, &lock, &ts);
        reap_locked(false);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* ---- HTTP ---- */

struct request {
    char *body;
    size_t len;
    bool too_big;
};

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned code,
                                 const char *type, char *text, size_t len,
                                 const char *download)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        len, text, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    /* The page draws with inline script and style only: nothing is loaded
     * from anywhere, not even this server, but the API. */
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; "
                            "style-src 'unsafe-inline'; img-src data:; "
                            "connect-src 'self'; frame-src 'self'; "
                            "frame-ancestors 'self'; form-action 'none'");
    if (download) {
        char cd[200];
        snprintf(cd, sizeof cd, "attachment; filename=\"%s\"", download);
        MHD_add_response_header(resp, "Content-Disposition", cd);
    }
    enum MHD_Result ret = MHD_queue_response(c, code, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned code,
                                 json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!s)
        return MHD_NO;
    return send_text(c, code, "application/json", s, strlen(s), NULL);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned code,
                                  const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return send_json(c, code, json_pack("{s:s}", "error", msg));
}

static bool token_ok(struct MHD_Connection *c)
{
    const char *t = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                "X-Psolve-Token");
    if (!t)
        t = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
    if (!t || strlen(t) != strlen(token))
        return false;
    unsigned char diff = 0; /* the same time for every wrong token */
    for (size_t i = 0; token[i]; i++)
        diff |= (unsigned char)(t[i] ^ token[i]);
    return diff == 0;
}

static bool host_ok(const char *host)
{
    for (int i = 0; host && i < nhosts; i++)
        if (strcmp(host, hosts[i]) == 0)
            return true;
    return false;
}

static bool origin_ok(struct MHD_Connection *c)
{
    const char *o = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (!o)
        return true; /* a same-origin GET, curl, the test client */
    return strncmp(o, "http://", 7) == 0 && host_ok(o + 7);
}

/* ---- request bodies ---- */

static const struct ps_game *game_named(const char *name, char *arg,
                                        size_t arglen)
{
    if (strncmp(name, "lua:", 4) == 0) {
        /* A bundled Lua game by name: games/lua/NAME.lua. */
        const char *n = name + 4;
        if (!n[0] || strlen(n) > 40)
            return NULL;
        for (const char *p = n; *p; p++)
            if (!(('a' <= *p && *p <= 'z') || ('0' <= *p && *p <= '9') ||
                  *p == '_' || *p == '-'))
                return NULL;
        snprintf(arg, arglen, "%s/lua/%s.lua", PSOLVE_PUZZLE_DIR, n);
        return access(arg, R_OK) == 0 ? ps_game_find("samegame") : NULL;
    }
    const struct ps_game *g = ps_game_find(name);
    if (g)
        snprintf(arg, arglen, "%s", g->name);
    return g;
}

/* A request's directory for its files. */
static bool make_dir(char *dir, size_t len)
{
    snprintf(dir, len, "%s/r%u-XXXXXX", root_dir,
             __atomic_add_fetch(&run_counter, 1, __ATOMIC_RELAXED));
    return mkdtemp(dir) != NULL;
}

/* The options of a solve request, as --name=value words. */
static const struct {
    const char *name;
    char kind; /* n: number, w: word, f: flag */
} solve_options[] = {
    {"heuristic", 'w'}, {"time", 'n'}, {"max-nodes", 'n'}, {"max-memory", 'n'},
    {"threads", 'n'}, {"seed", 'n'}, {"trace", 'n'}, {"candidates", 'n'},
    {"max-depth", 'n'}, {"no-memo", 'f'}, {"no-bound", 'f'}, {"weight", 'n'},
    {"rollouts", 'n'}, {"topk", 'n'}, {"select", 'w'}, {"level", 'n'},
    {"iterations", 'n'}, {"stabilise", 'n'}, {"keep-best", 'n'},
    {"policy", 'w'}, {"beam-width", 'n'}, {"beam-eval", 'w'},
    {"beam-dfs", 'n'}, {"beam-endgame", 'n'}, {"layers", 'f'},
};

/* The common part of every child: game, rules, the puzzle file. False with
 * a message in msg. */
static bool common_args(json_t *req, struct argv_buf *a, const char *dir,
                        const struct ps_game **game, char *msg, size_t mlen)
{
    const char *gname = json_string_value(json_object_get(req, "game"));
    const char *text = json_string_value(json_object_get(req, "text"));
    json_t *rules = json_object_get(req, "rules");
    const char *rules_s = json_string_value(rules);
    const char *script = json_string_value(json_object_get(req, "rules_script"));
    if (!gname) {
        snprintf(msg, mlen, "\"game\" (a string) is missing");
        return false;
    }
    char garg[600];
    const struct ps_game *g = game_named(gname, garg, sizeof garg);
    if (!g) {
        snprintf(msg, mlen, "unknown game '%.60s'", gname);
        return false;
    }
    *game = strncmp(gname, "lua:", 4) == 0 ? NULL : g;
    arg_add(a, "--game=%s", garg);
    if (rules && !json_is_null(rules)) {
        if (!rules_s || !safe_word(rules_s) || strchr(rules_s, '.') ||
            strchr(rules_s, '/')) {
            snprintf(msg, mlen, "\"rules\" must be a rule name (NAME or "
                                "builtin:NAME)");
            return false;
        }
        arg_add(a, "--rules=%s", rules_s);
    } else if (script) {
        if (!cfg.allow_scripts) {
            snprintf(msg, mlen, "Lua rule scripts are refused: start psolve "
                                "serve with --allow-scripts");
            return false;
        }
        char path[300];
        snprintf(path, sizeof path, "%s/rules.lua", dir);
        if (!write_file(path, script, strlen(script))) {
            snprintf(msg, mlen, "cannot store the rule script");
            return false;
        }
        arg_add(a, "--rules=%s", path);
    }
    if (text) {
        char path[300];
        snprintf(path, sizeof path, "%s/puzzle", dir);
        if (!write_file(path, text, strlen(text))) {
            snprintf(msg, mlen, "cannot store the puzzle");
            return false;
        }
    }
    return true;
}

static bool option_args(json_t *opts, struct argv_buf *a, char *msg,
                        size_t mlen, double *time_out)
{
    *time_out = 0;
    bool have_time = false, have_memory = false;
    if (opts && !json_is_object(opts)) {
        snprintf(msg, mlen, "\"options\" must be an object");
        return false;
    }
    const char *key;
    json_t *v;
    json_object_foreach(opts, key, v) {
        size_t k = 0, n = sizeof solve_options / sizeof solve_options[0];
        while (k < n && strcmp(solve_options[k].name, key) != 0)
            k++;
        if (k == n) {
            snprintf(msg, mlen, "unknown option '%.60s'", key);
            return false;
        }
        char val[64];
        if (solve_options[k].kind == 'f') {
            if (json_is_true(v))
                arg_add(a, "--%s", key);
            continue;
        }
        if (json_is_null(v))
            continue;
        if (solve_options[k].kind == 'n') {
            if (json_is_integer(v) && json_integer_value(v) >= 0)
                snprintf(val, sizeof val, "%lld", (long long)json_integer_value(v));
            else if (json_is_real(v) && json_real_value(v) >= 0 &&
                     json_real_value(v) < 1e9)
                snprintf(val, sizeof val, "%.3f", json_real_value(v));
            else if (json_is_string(v) && safe_word(json_string_value(v)))
                snprintf(val, sizeof val, "%s", json_string_value(v));
            else {
                snprintf(msg, mlen, "option '%s' takes a number", key);
                return false;
            }
        } else {
            if (!json_is_string(v) || !safe_word(json_string_value(v))) {
                snprintf(msg, mlen, "option '%s' takes a word", key);
                return false;
            }
            snprintf(val, sizeof val, "%s", json_string_value(v));
        }
        if (strcmp(key, "time") == 0) {
            double t;
            if (!ps_number_parse_decimal(val, 0, 1e9, &t)) {
                snprintf(msg, mlen, "option 'time' takes a number of seconds");
                return false;
            }
            if (t <= 0 || t > cfg.time_cap) /* the cap, or none: the cap */
                continue;
            have_time = true;
            *time_out = t;
        }
        if (strcmp(key, "max-memory") == 0) {
            uint64_t mb;
            if (!ps_number_parse_uint(val, 1, 1u << 30, &mb)) {
                snprintf(msg, mlen, "option 'max-memory' takes megabytes");
                return false;
            }
            if (mb > cfg.memory_cap)
                continue;
            have_memory = true;
        }
        arg_add(a, "--%s=%s", key, val);
    }
    if (!have_time) {
        arg_add(a, "--time=%g", cfg.time_cap);
        *time_out = cfg.time_cap;
    }
    if (!have_memory)
        arg_add(a, "--max-memory=%llu", (unsigned long long)cfg.memory_cap);
    return true;
}

/* An algorithm word: a registered name, optionally with :KEY=V parts. */
static bool algo_known(const char *word)
{
    char name[64];
    size_t n = strcspn(word, ":");
    if (n == 0 || n >= sizeof name || !safe_word(word) || strchr(word, ','))
        return false;
    memcpy(name, word, n);
    name[n] = '\0';
    return ps_algorithm_find(name) != NULL;
}

static json_t *run_json(struct run *r, bool full)
{
    json_t *j = json_pack("{s:s,s:s,s:s,s:f,s:b}", "id", r->id, "algo", r->algo,
                          "state", r->state == RUN_RUNNING ? "running" : "done",
                          "elapsed",
                          (r->state == RUN_RUNNING ? now_s() : r->ended) -
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
    }
    if (r->state == RUN_DONE) {
        json_object_set_new(j, "exit_status", json_integer(r->exit_status));
        json_t *res = r->out ? json_loads(r->out, 0, NULL) : NULL;
        if (json_is_object(res)) /* the page's puzzle, not the server's path */
            json_object_set_new(res, "file", json_string("puzzle"));
        json_object_set_new(j, "result", res ? res : json_null());
        char err[MAX_STDERR];
        snprintf(err, sizeof err, "%s", r->err);
        strip_dir(err, r->dir);
        json_object_set_new(j, "stderr", json_string(err));
    }
    return j;
}

static enum MHD_Result api_solve(struct MHD_Connection *c, json_t *req)
{
    json_t *algos = json_object_get(req, "algos");
    if (!json_is_array(algos) || json_array_size(algos) < 1 ||
        json_array_size(algos) > 8)
        return send_error(c, 400, "\"algos\" must be a list of 1 to 8 "
                                  "algorithm names");
    size_t i;
    json_t *v;
    json_array_foreach(algos, i, v) {
        if (!json_is_string(v) || !algo_known(json_string_value(v)))
            return send_error(c, 400, "unknown algorithm '%.60s' (psolve list "
                                      "shows them)",
                              json_is_string(v) ? json_string_value(v) : "?");
    }
    if (!json_is_string(json_object_get(req, "text")))
        return send_error(c, 400, "\"text\" (the puzzle) is missing");
    size_t n = json_array_size(algos);
    pthread_mutex_lock(&lock);
    bool room = nrunning + (int)n <= cfg.max_runs;
    if (room) {
        reap_locked(true);
        nrunning += (int)n; /* reserved; each watcher gives its slot back */
    }
    pthread_mutex_unlock(&lock);
    if (!room)
        return send_error(c, 429, "%d runs are running already (the cap is "
                                  "%d: psolve serve --max-runs N)",
                          nrunning, cfg.max_runs);
    json_t *out = json_array();
    char msg[600] = "";
    size_t started = 0;
    json_array_foreach(algos, i, v) {
        struct run *r = calloc(1, sizeof *r);
        struct argv_buf a = {{0}, 0};
        const struct ps_game *g = NULL;
        double t;
        int pty = -1;
        if (!r || !make_dir(r->dir, sizeof r->dir)) {
            snprintf(msg, sizeof msg, "cannot make the run's directory");
            free(r);
            break;
        }
        arg_add(&a, "psolve");
        arg_add(&a, "solve");
        arg_add(&a, "--json");
        arg_add(&a, "--html=%s/page.html", r->dir);
        arg_add(&a, "--algo=%s", json_string_value(v));
        bool ok = common_args(req, &a, r->dir, &g, msg, sizeof msg) &&
                  option_args(json_object_get(req, "options"), &a, msg,
                              sizeof msg, &t);
        arg_add(&a, "--");
        arg_add(&a, "%s/puzzle", r->dir);
        if (ok) {
            pty = posix_openpt(O_RDWR | O_NOCTTY);
            ok = pty >= 0 && grantpt(pty) == 0 && unlockpt(pty) == 0;
            if (!ok)
                snprintf(msg, sizeof msg, "cannot open a terminal for the run");
        }
        int out_fd = -1;
        if (ok) {
            random_hex(r->id, 8);
            snprintf(r->algo, sizeof r->algo, "%s", json_string_value(v));
            r->started = r->last_access = now_s();
            r->state = RUN_RUNNING;
            r->pid = spawn(&a, &out_fd, ptsname(pty), true);
            ok = r->pid > 0;
            if (!ok)
                snprintf(msg, sizeof msg, "cannot start psolve");
        }
        argv_free(&a);
        if (!ok) {
            if (pty >= 0)
                close(pty);
            run_free(r);
            break;
        }
        struct watch *w = malloc(sizeof *w);
        pthread_t th;
        w->run = r;
        w->out_fd = out_fd;
        w->pty_fd = pty;
        pthread_mutex_lock(&lock);
        r->next = runs;
        runs = r;
        pthread_mutex_unlock(&lock);
        started++;
        if (pthread_create(&th, NULL, watch_run, w) == 0)
            pthread_detach(th);
        json_array_append_new(out, json_pack("{s:s,s:s}", "id", r->id, "algo",
                                             r->algo));
    }
    pthread_mutex_lock(&lock);
    nrunning -= (int)(n - started);
    pthread_mutex_unlock(&lock);
    if (msg[0] && started == 0) {
        json_decref(out);
        return send_error(c, 400, "%s", msg);
    }
    return send_json(c, 200, json_pack("{s:o}", "runs", out));
}

/* The data of a --html page psolve wrote (its psolve-data element). */
static json_t *html_data(const char *path)
{
    char *page = read_file_all(path, MAX_OUTPUT, NULL);
    if (!page)
        return NULL;
    const char *open = "<script id=\"psolve-data\" type=\"application/json\">";
    char *at = strstr(page, open), *end = at ? strstr(at, "</script>") : NULL;
    json_t *j = NULL;
    if (end) {
        at += strlen(open);
        j = json_loadb(at, (size_t)(end - at), 0, NULL);
    }
    free(page);
    return j;
}

/* check: load the puzzle, replay the moves (psolve verify --json --html):
 * the position after them as state_json, the value, whether it is over;
 * parse and move errors with line:col. Used to load, play, undo, redo. */
static enum MHD_Result api_check(struct MHD_Connection *c, json_t *req)
{
    json_t *moves = json_object_get(req, "moves");
    if (moves && (!json_is_array(moves) || json_array_size(moves) > 5000))
        return send_error(c, 400, "\"moves\" must be a list of move texts");
    if (!json_is_string(json_object_get(req, "text")))
        return send_error(c, 400, "\"text\" (the puzzle) is missing");
    char dir[256], msg[600] = "", path[300];
    if (!make_dir(dir, sizeof dir))
        return send_error(c, 500, "cannot make a directory");
    struct argv_buf a = {{0}, 0};
    const struct ps_game *g;
    arg_add(&a, "psolve");
    arg_add(&a, "verify");
    arg_add(&a, "--json");
    arg_add(&a, "--quiet");
    arg_add(&a, "--html=%s/page.html", dir);
    bool ok = common_args(req, &a, dir, &g, msg, sizeof msg);
    /* The moves file: one move per line, as a solution file. */
    char *sol = NULL;
    size_t sl = 0;
    FILE *f = open_memstream(&sol, &sl);
    size_t i;
    json_t *v;
    json_array_foreach(moves, i, v) {
        const char *m = json_string_value(v);
        if (!m || strchr(m, '\n') || strlen(m) > 60) {
            ok = false;
            snprintf(msg, sizeof msg, "move %zu is not a move text", i + 1);
        } else {
            fprintf(f, "%s\n", m);
        }
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/moves", dir);
    ok = ok && write_file(path, sol, sl);
    free(sol);
    arg_add(&a, "--");
    arg_add(&a, "%s/puzzle", dir);
    arg_add(&a, "%s/moves", dir);
    char *out = NULL, *err = NULL;
    int rc = ok ? run_sync(&a, dir, &out, &err) : -1;
    argv_free(&a);
    enum MHD_Result ret;
    json_t *res = out ? json_loads(out, 0, NULL) : NULL;
    snprintf(path, sizeof path, "%s/page.html", dir);
    json_t *data = res ? html_data(path) : NULL;
    if (!ok) {
        ret = send_error(c, 400, "%s", msg);
    } else if (!res || !data) {
        strip_dir(err ? err : msg, dir);
        char *e = err ? err : msg;
        if (strncmp(e, "psolve: ", 8) == 0)
            e += 8;
        e[strcspn(e, "\n")] = '\0';
        /* The puzzle does not load or a move is illegal: an answer, not a
         * bad request (the page shows it; the server stays quiet). */
        if (rc == -1)
            ret = send_error(c, 500, "%s", e[0] ? e : "psolve failed");
        else
            ret = send_json(c, 200, json_pack("{s:b,s:s}", "legal", 0, "error",
                                              e[0] ? e : "psolve failed"));
    } else {
        json_t *run0 = json_array_get(json_object_get(data, "runs"), 0);
        json_t *frames = json_object_get(run0, "frames");
        json_t *last = json_array_get(frames, json_array_size(frames) - 1);
        json_object_set(res, "state", json_object_get(last, "state"));
        /* The position before the last move with that move drawn on it
         * (the page shows a hint so). */
        if (json_array_size(frames) >= 2)
            json_object_set(res, "before",
                            json_object_get(json_array_get(
                                                frames, json_array_size(frames) - 2),
                                            "state"));
        json_object_set(res, "objective", json_object_get(data, "objective"));
        json_object_set(res, "move_texts", json_object_get(run0, "moves"));
        ret = send_json(c, 200, json_incref(res));
    }
    json_decref(res);
    json_decref(data);
    free(out);
    free(err);
    remove_tree(dir);
    return ret;
}

/* gen: a random puzzle (psolve gen), sizes bounded here. */
static enum MHD_Result api_gen(struct MHD_Connection *c, json_t *req)
{
    static const struct {
        const char *name;
        long long max;
    } keys[] = {{"rows", 30}, {"cols", 30}, {"colors", 20}, {"tubes", 30},
                {"capacity", 12}, {"moves", 1000},
                {"seed", 9007199254740991LL}};
    const char *gname = json_string_value(json_object_get(req, "game"));
    char garg[600];
    if (!gname || strncmp(gname, "lua:", 4) == 0 ||
        !game_named(gname, garg, sizeof garg))
        return send_error(c, 400, "unknown game '%.60s'", gname ? gname : "?");
    char dir[256];
    if (!make_dir(dir, sizeof dir))
        return send_error(c, 500, "cannot make a directory");
    struct argv_buf a = {{0}, 0};
    arg_add(&a, "psolve");
    arg_add(&a, "gen");
    arg_add(&a, "--game=%s", garg);
    char msg[200] = "";
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_t *v = json_object_get(req, keys[k].name);
        if (!v || json_is_null(v))
            continue;
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > keys[k].max)
            snprintf(msg, sizeof msg, "\"%s\" must be a whole number 0..%lld",
                     keys[k].name, keys[k].max);
        else
            arg_add(&a, "--%s=%lld", keys[k].name,
                    (long long)json_integer_value(v));
    }
    char *out = NULL, *err = NULL;
    int rc = msg[0] ? -1 : run_sync(&a, dir, &out, &err);
    argv_free(&a);
    remove_tree(dir);
    enum MHD_Result ret;
    if (msg[0])
        ret = send_error(c, 400, "%s", msg);
    else if (rc != 0) {
        char *e = err && strncmp(err, "psolve: ", 8) == 0 ? err + 8 : err;
        if (e)
            e[strcspn(e, "\n")] = '\0';
        ret = send_error(c, 400, "%s", e && e[0] ? e : "gen failed");
    } else
        ret = send_json(c, 200, json_pack("{s:s,s:s}", "game", garg, "text", out));
    free(out);
    free(err);
    return ret;
}

/* hint: the first move of a short search with a fixed budget from the
 * given position (a puzzle text): beam of width 10 on score games, A* of
 * HINT_NODES expansions on cost games, greedy when that finds nothing. */
static enum MHD_Result api_hint(struct MHD_Connection *c, json_t *req)
{
    if (!json_is_string(json_object_get(req, "text")))
        return send_error(c, 400, "\"text\" (the position) is missing");
    enum MHD_Result ret = MHD_NO;
    for (int attempt = 0; attempt < 2; attempt++) {
        char dir[256], msg[600] = "";
        if (!make_dir(dir, sizeof dir))
            return send_error(c, 500, "cannot make a directory");
        struct argv_buf a = {{0}, 0};
        const struct ps_game *g = NULL;
        arg_add(&a, "psolve");
        arg_add(&a, "solve");
        arg_add(&a, "--json");
        arg_add(&a, "--quiet");
        arg_add(&a, "--threads=1");
        bool ok = common_args(req, &a, dir, &g, msg, sizeof msg);
        bool score = g && (g->flags & PS_MAXIMISE);
        if (attempt == 1)
            arg_add(&a, "--algo=greedy");
        else if (score)
            arg_add(&a, "--algo=beam:beam-width=10");
        else
            arg_add(&a, "--algo=astar");
        arg_add(&a, "--max-nodes=" HINT_NODES);
        arg_add(&a, "--time=%g", cfg.time_cap < 10 ? cfg.time_cap : 10.0);
        arg_add(&a, "--");
        arg_add(&a, "%s/puzzle", dir);
        char *out = NULL, *err = NULL;
        if (ok)
            run_sync(&a, dir, &out, &err);
        argv_free(&a);
        json_t *res = out ? json_loads(out, 0, NULL) : NULL;
        json_t *mv = json_array_get(json_object_get(res, "moves"), 0);
        if (!ok) {
            ret = send_error(c, 400, "%s", msg);
        } else if (mv || attempt == 1) {
            if (!res) {
                strip_dir(err, dir);
                char *e = strncmp(err, "psolve: ", 8) == 0 ? err + 8 : err;
                e[strcspn(e, "\n")] = '\0';
                ret = send_error(c, 400, "%s", e[0] ? e : "no hint");
            } else {
                ret = send_json(c, 200, json_pack("{s:o,s:O,s:O}", "move",
                                                  mv ? json_incref(mv) : json_null(),
                                                  "algorithm",
                                                  json_object_get(res, "algorithm"),
                                                  "status",
                                                  json_object_get(res, "status")));
            }
        }
        json_decref(res);
        free(out);
        free(err);
        remove_tree(dir);
        if (!ok || mv || attempt == 1)
            break;
    }
    return ret;
}

static enum MHD_Result api_info(struct MHD_Connection *c)
{
    json_t *games = json_array();
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        json_t *hs = json_array(), *ps = json_array();
        for (const struct ps_heuristic *h = (*g)->heuristics; h && h->name; h++)
            json_array_append_new(hs, json_pack("{s:s,s:b}", "name", h->name,
                                                "admissible", h->admissible));
        for (const struct ps_preset *p = (*g)->presets; p && p->name; p++)
            json_array_append_new(ps, json_pack("{s:s,s:s}", "name", p->name,
                                                "doc", p->doc));
        json_array_append_new(
            games, json_pack("{s:s,s:s,s:s,s:o,s:o,s:b}", "name", (*g)->name,
                             "summary", (*g)->summary, "objective",
                             (*g)->flags & PS_MAXIMISE ? "score" : "cost",
                             "heuristics", hs, "presets", ps, "generate",
                             (*g)->generate != NULL));
    }
    json_t *algos = json_array();
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++)
        json_array_append_new(algos, json_pack("{s:s,s:s,s:b,s:b}", "name",
                                               (*a)->name, "summary",
                                               (*a)->summary, "score",
                                               (*a)->for_score, "cost",
                                               (*a)->for_cost));
    json_t *pz = json_array();
    for (int i = 0; i < npuzzles; i++)
        json_array_append_new(pz, json_pack("{s:i,s:s,s:s}", "id", i, "name",
                                            puzzles[i].name, "game",
                                            puzzles[i].game));
    return send_json(c, 200,
                     json_pack("{s:s,s:o,s:o,s:o,s:{s:i,s:f,s:I,s:f,s:i,s:b}}",
                               "psolve", PSOLVE_VERSION, "games", games,
                               "algorithms", algos, "puzzles", pz, "limits",
                               "max_runs", cfg.max_runs, "time_cap",
                               cfg.time_cap, "memory_cap_mb",
                               (json_int_t)cfg.memory_cap, "idle", cfg.idle,
                               "max_body", MAX_BODY, "allow_scripts",
                               cfg.allow_scripts));
}

static enum MHD_Result api_puzzle(struct MHD_Connection *c)
{
    const char *id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
    uint64_t k;
    if (!id || !ps_number_parse_uint(id, 0, (uint64_t)(npuzzles ? npuzzles - 1 : 0),
                                     &k) || npuzzles == 0)
        return send_error(c, 404, "no bundled puzzle '%.20s'", id ? id : "");
    char *text = read_file_all(puzzles[k].path, MAX_BODY, NULL);
    if (!text)
        return send_error(c, 500, "cannot read the bundled puzzle");
    json_t *j = json_pack("{s:I,s:s,s:s,s:s}", "id", (json_int_t)k, "name",
                          puzzles[k].name, "game", puzzles[k].game, "text", text);
    free(text);
    return send_json(c, 200, j);
}

/* ---- Server-Sent Events: a run's progress while it runs ---- */

struct sse {
    char id[17];
    unsigned seen;
    int phase; /* 0: running, 1: the done event sent */
};

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct sse *s = cls;
    pthread_mutex_lock(&lock);
    struct run *r = run_find(s->id);
    if (!r || s->phase == 1 || shutting_down) {
        pthread_mutex_unlock(&lock);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 5; /* then a keep-alive comment */
    while (r->version == s->seen && r->state == RUN_RUNNING) {
        int w = pthread_cond_timedwait(&changed, &lock, &ts);
        r = run_find(s->id);
        if (!r || shutting_down) {
            pthread_mutex_unlock(&lock);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        if (w == ETIMEDOUT)
            break;
    }
    run_touch(r);
    ssize_t n;
    if (r->version == s->seen && r->state == RUN_RUNNING) {
        n = snprintf(buf, max, ": keep-alive\n\n");
    } else {
        s->seen = r->version;
        bool done = r->state == RUN_DONE;
        json_t *j = run_json(r, false);
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
    pthread_mutex_unlock(&lock);
    return n < 0 ? MHD_CONTENT_READER_END_WITH_ERROR : n;
}

static enum MHD_Result api_events(struct MHD_Connection *c, const char *id)
{
    struct sse *s = calloc(1, sizeof *s);
    if (!s)
        return MHD_NO;
    snprintf(s->id, sizeof s->id, "%s", id);
    s->seen = (unsigned)-1;
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
static enum MHD_Result api_run(struct MHD_Connection *c, const char *method,
                               const char *rest)
{
    char id[17] = "";
    size_t n = strcspn(rest, "/");
    if (n == 0 || n >= sizeof id)
        return send_error(c, 404, "no such run");
    memcpy(id, rest, n);
    const char *what = rest[n] == '/' ? rest + n + 1 : "";
    bool post = strcmp(method, "POST") == 0;
    if (strcmp(what, "events") == 0 && !post) {
        pthread_mutex_lock(&lock);
        bool known = run_find(id) != NULL;
        pthread_mutex_unlock(&lock);
        return known ? api_events(c, id) : send_error(c, 404, "no such run");
    }
    pthread_mutex_lock(&lock);
    struct run *r = run_find(id);
    if (!r) {
        pthread_mutex_unlock(&lock);
        return send_error(c, 404, "no such run");
    }
    run_touch(r);
    if (strcmp(what, "stop") == 0) {
        if (!post) {
            pthread_mutex_unlock(&lock);
            return send_error(c, 405, "stop is a POST");
        }
        if (r->state == RUN_RUNNING && !r->stop_asked) {
            kill(r->pid, SIGINT); /* as Ctrl-C: the best line is kept */
            r->stop_asked = true;
            r->version++;
            pthread_cond_broadcast(&changed);
        }
        json_t *j = run_json(r, false);
        pthread_mutex_unlock(&lock);
        return send_json(c, 200, j);
    }
    if (post) {
        pthread_mutex_unlock(&lock);
        return send_error(c, 405, "use GET");
    }
    if (what[0] == '\0') {
        json_t *j = run_json(r, true);
        pthread_mutex_unlock(&lock);
        return send_json(c, 200, j);
    }
    if (r->state != RUN_DONE) {
        pthread_mutex_unlock(&lock);
        return send_error(c, 409, "the run is still running");
    }
    char path[300], dir[256], algo[128], algo_name[128];
    snprintf(dir, sizeof dir, "%s", r->dir);
    snprintf(algo, sizeof algo, "%s", r->algo);
    snprintf(algo_name, sizeof algo_name, "%s", r->algo);
    for (char *p = algo; *p; p++)
        if (*p == ':' || *p == '=' || *p == ',')
            *p = '-';
    char *out = r->out ? strdup(r->out) : NULL;
    pthread_mutex_unlock(&lock);
    json_t *res = out ? json_loads(out, 0, NULL) : NULL;
    enum MHD_Result ret;
    char name[200];
    if (strcmp(what, "json") == 0) {
        snprintf(name, sizeof name, "psolve-%s.json", algo);
        ret = out ? send_text(c, 200, "application/json", out, strlen(out), name)
                  : send_error(c, 404, "the run printed no result");
        out = NULL;
    } else if (strcmp(what, "html") == 0 || strcmp(what, "page") == 0) {
        snprintf(path, sizeof path, "%s/page.html", dir);
        size_t len;
        char *page = read_file_all(path, MAX_OUTPUT * 4, &len);
        if (page) { /* the page names the puzzle "puzzle", not its path */
            strip_dir(page, dir);
            len = strlen(page);
        }
        snprintf(name, sizeof name, "psolve-%s.html", algo);
        ret = page ? send_text(c, 200, "text/html; charset=utf-8", page, len,
                               what[0] == 'h' ? name : NULL)
                   : send_error(c, 404, "the run wrote no page");
    } else if (strcmp(what, "solution") == 0) {
        /* The solution file, as `psolve solve` prints it: verify takes it. */
        json_t *mv = json_object_get(res, "moves");
        if (!json_is_array(mv)) {
            ret = send_error(c, 404, "the run found no solution");
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
            ret = send_text(c, 200, "text/plain; charset=utf-8", sol, sl, name);
        }
    } else {
        ret = send_error(c, 404, "no such thing as '%.40s' for a run", what);
    }
    free(out);
    json_decref(res);
    return ret;
}

struct page_ctx {
    const char *token;
};

static void page_data(FILE *out, const void *ctx)
{
    const struct page_ctx *p = ctx;
    fprintf(out, "{\"token\":\"%s\",\"psolve\":\"%s\"}", p->token, PSOLVE_VERSION);
}

static enum MHD_Result serve_page(struct MHD_Connection *c)
{
    char *page = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    struct page_ctx ctx = {token};
    ps_html_page(f, ps_serve_template, ps_serve_template_len, page_data, &ctx);
    fclose(f);
    return send_text(c, 200, "text/html; charset=utf-8", page, len, NULL);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    (void)cls;
    (void)version;
    struct request *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!rq->too_big && rq->len + *upload_size <= MAX_BODY) {
            char *nb = realloc(rq->body, rq->len + *upload_size + 1);
            if (nb) {
                rq->body = nb;
                memcpy(rq->body + rq->len, upload, *upload_size);
                rq->len += *upload_size;
                rq->body[rq->len] = '\0';
            }
        } else {
            rq->too_big = true;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!host_ok(host))
        return send_error(c, 403, "foreign Host header: this server answers "
                                  "only to its own address");
    if (!origin_ok(c))
        return send_error(c, 403, "foreign Origin: requests from other pages "
                                  "are refused");
    if (!token_ok(c))
        return send_error(c, 403, "missing or wrong token: open the URL "
                                  "psolve serve printed");
    if (rq->too_big)
        return send_error(c, 413, "request body over %d bytes", MAX_BODY);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    bool post = strcmp(method, "POST") == 0;
    if (strcmp(url, "/") == 0 && get)
        return serve_page(c);
    if (strcmp(url, "/api/info") == 0 && get)
        return api_info(c);
    if (strcmp(url, "/api/puzzle") == 0 && get)
        return api_puzzle(c);
    if (strncmp(url, "/api/run/", 9) == 0 && (get || post))
        return api_run(c, method, url + 9);
    static const struct {
        const char *url;
        enum MHD_Result (*fn)(struct MHD_Connection *, json_t *);
    } posts[] = {{"/api/solve", api_solve}, {"/api/check", api_check},
                 {"/api/gen", api_gen}, {"/api/hint", api_hint}};
    for (size_t i = 0; i < sizeof posts / sizeof posts[0]; i++) {
        if (strcmp(url, posts[i].url) != 0)
            continue;
        if (!post)
            return send_error(c, 405, "%s takes a POST with a JSON body", url);
        json_error_t jerr;
        json_t *req = rq->body ? json_loadb(rq->body, rq->len, 0, &jerr) : NULL;
        if (!req)
            return send_error(c, 400, "the body is not JSON: %s (line %d, "
                                      "column %d)",
                              rq->body ? jerr.text : "empty body",
                              rq->body ? jerr.line : 0,
                              rq->body ? jerr.column : 0);
        if (!json_is_object(req)) {
            json_decref(req);
            return send_error(c, 400, "the body must be a JSON object");
        }
        enum MHD_Result ret = posts[i].fn(c, req);
        json_decref(req);
        return ret;
    }
    return send_error(c, 404, "no such page or endpoint: %.80s", url);
}

static void request_done(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    struct request *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq);
    }
    *con_cls = NULL;
}

/* ---- bundled puzzles ---- */

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct puzzle *)a)->name,
                  ((const struct puzzle *)b)->name);
}

static void scan_dir(const char *sub, const char *game)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", PSOLVE_PUZZLE_DIR, sub);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    int first = npuzzles;
    while ((e = readdir(d)) != NULL && npuzzles < MAX_PUZZLES) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".txt") != 0)
            continue;
        struct puzzle *p = &puzzles[npuzzles];
        snprintf(p->name, sizeof p->name, "%.40s/%.110s", sub, e->d_name);
        snprintf(p->path, sizeof p->path, "%s/%s", path, e->d_name);
        if (game) {
            snprintf(p->game, sizeof p->game, "%s", game);
        } else { /* games/lua/NAME-size.txt is for NAME.lua */
            size_t k = strcspn(e->d_name, "-.");
            snprintf(p->game, sizeof p->game, "lua:%.*s", (int)k, e->d_name);
        }
        npuzzles++;
    }
    closedir(d);
    qsort(puzzles + first, (size_t)(npuzzles - first), sizeof puzzles[0], by_name);
}

/* ---- main ---- */

static int usage(const char *msg)
{
    if (msg)
        fprintf(stderr, "psolve serve: %s\n", msg);
    fprintf(stderr,
            "usage: psolve serve [--port N] [--listen ADDR] [--open]\n"
            "  --port N         port (default 8080; 0: a free one)\n"
            "  --listen ADDR    listen on ADDR (an IPv4 or IPv6 address)\n"
            "                   instead of 127.0.0.1 and ::1 (a warning)\n"
            "  --open           open the URL in the desktop's browser\n"
            "  --max-runs N     searches running at once (default: cores)\n"
            "  --time-cap S     seconds a run may take at most (default 60)\n"
            "  --memory-cap MB  memory limit of a run (default 1024)\n"
            "  --idle S         seconds before an idle run is stopped or\n"
            "                   dropped (default 300)\n"
            "  --allow-scripts  accept Lua rule scripts in requests\n");
    return msg ? PS_EXIT_USAGE : PS_EXIT_OK;
}

static struct MHD_Daemon *start_daemon(int family, const char *addr, int port)
{
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    socklen_t len;
    if (family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)&ss;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t)port);
        if (inet_pton(AF_INET, addr, &in->sin_addr) != 1)
            return NULL;
        len = sizeof *in;
    } else {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, addr, &in6->sin6_addr) != 1)
            return NULL;
        len = sizeof *in6;
    }
    (void)len;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_ERROR_LOG;
    if (family == AF_INET6)
        flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, NULL,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
                            MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)256,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)128,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024),
                            MHD_OPTION_END);
}

static int daemon_port(struct MHD_Daemon *d)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

int ps_serve_main(int argc, char **argv, const char *exe)
{
    enum { O_PORT = 300, O_LISTEN, O_OPEN, O_MAX_RUNS, O_TIME_CAP, O_MEM_CAP,
           O_IDLE, O_SCRIPTS, O_HELP };
    static const struct option opts[] = {
        {"port", required_argument, 0, O_PORT},
        {"listen", required_argument, 0, O_LISTEN},
        {"open", no_argument, 0, O_OPEN},
        {"max-runs", required_argument, 0, O_MAX_RUNS},
        {"time-cap", required_argument, 0, O_TIME_CAP},
        {"memory-cap", required_argument, 0, O_MEM_CAP},
        {"idle", required_argument, 0, O_IDLE},
        {"allow-scripts", no_argument, 0, O_SCRIPTS},
        {"help", no_argument, 0, O_HELP},
        {0, 0, 0, 0},
    };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cfg = (struct config){.port = 8080, .max_runs = cores > 0 ? (int)cores : 1,
                          .time_cap = 60, .memory_cap = 1024, .idle = 300};
    optind = 1;
    int ch;
    uint64_t u;
    double d;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (ch) {
        case O_PORT:
            if (!ps_number_parse_uint(optarg, 0, 65535, &u))
                return usage("--port expects 0..65535");
            cfg.port = (int)u;
            break;
        case O_LISTEN: cfg.listen = optarg; break;
        case O_OPEN: cfg.open = true; break;
        case O_MAX_RUNS:
            if (!ps_number_parse_uint(optarg, 1, 256, &u))
                return usage("--max-runs expects 1..256");
            cfg.max_runs = (int)u;
            break;
        case O_TIME_CAP:
        case O_IDLE:
            if (!ps_number_parse_decimal(optarg, 0.1, 1e7, &d))
                return usage("--time-cap and --idle expect seconds (0.1 or more)");
            if (ch == O_TIME_CAP)
                cfg.time_cap = d;
            else
                cfg.idle = d;
            break;
        case O_MEM_CAP:
            if (!ps_number_parse_uint(optarg, 16, 1u << 20, &u))
                return usage("--memory-cap expects 16..1048576 (MB)");
            cfg.memory_cap = u;
            break;
        case O_SCRIPTS: cfg.allow_scripts = true; break;
        case 'h':
        case O_HELP: return usage(NULL);
        default: return usage("unknown option or missing value");
        }
    }
    if (optind < argc)
        return usage("serve takes no file arguments");
    /* The executable the runs start: this one. */
    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        cfg.exe = self;
    } else {
        cfg.exe = exe;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(root_dir, sizeof root_dir, "%.120s/psolve-serve-XXXXXX",
             tmp && tmp[0] && strlen(tmp) < 150 ? tmp : "/tmp");
    if (!mkdtemp(root_dir)) {
        fprintf(stderr, "psolve serve: cannot make a directory in %s\n",
                tmp ? tmp : "/tmp");
        return PS_EXIT_ERROR;
    }
    scan_dir("samegame/examples", "samegame");
    scan_dir("samegame/standard", "samegame");
    scan_dir("watersort/levels", "watersort");
    scan_dir("npuzzle/examples", "npuzzle");
    scan_dir("lua", NULL);
    random_hex(token, 16);

    /* SIGINT and SIGTERM are waited for below: blocked in every thread. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct MHD_Daemon *d4 = NULL, *d6 = NULL;
    const char *shown;
    if (cfg.listen) {
        bool v6 = strchr(cfg.listen, ':') != NULL;
        d4 = start_daemon(v6 ? AF_INET6 : AF_INET, cfg.listen, cfg.port);
        if (!d4) {
            fprintf(stderr, "psolve serve: cannot listen on %s port %d\n",
                    cfg.listen, cfg.port);
            remove_tree(root_dir);
            return PS_EXIT_ERROR;
        }
        cfg.port = daemon_port(d4);
        shown = cfg.listen;
        snprintf(hosts[nhosts++], sizeof hosts[0], v6 ? "[%s]:%d" : "%s:%d",
                 cfg.listen, cfg.port);
        fprintf(stderr, "psolve serve: warning: listening on %s, not only on "
                        "this machine's loopback: anyone who can reach it and "
                        "has the token can run searches here\n",
                cfg.listen);
    } else {
        d4 = start_daemon(AF_INET, "127.0.0.1", cfg.port);
        if (!d4) {
            fprintf(stderr, "psolve serve: cannot listen on 127.0.0.1 port %d\n",
                    cfg.port);
            remove_tree(root_dir);
            return PS_EXIT_ERROR;
        }
        cfg.port = daemon_port(d4);
        d6 = start_daemon(AF_INET6, "::1", cfg.port); /* none: IPv4 only */
        shown = "127.0.0.1";
        snprintf(hosts[nhosts++], sizeof hosts[0], "127.0.0.1:%d", cfg.port);
        snprintf(hosts[nhosts++], sizeof hosts[0], "localhost:%d", cfg.port);
        snprintf(hosts[nhosts++], sizeof hosts[0], "[::1]:%d", cfg.port);
    }
    bool v6 = strchr(shown, ':') != NULL;
    printf(v6 ? "http://[%s]:%d/?token=%s\n" : "http://%s:%d/?token=%s\n", shown,
           cfg.port, token);
    fflush(stdout);
    fprintf(stderr, "psolve serve: %d bundled puzzles; at most %d runs at once, "
                    "%g s and %llu MB each; Ctrl-C stops\n",
            npuzzles, cfg.max_runs, cfg.time_cap,
            (unsigned long long)cfg.memory_cap);
    pthread_t reap;
    pthread_create(&reap, NULL, reaper, NULL);
    if (cfg.open) {
        char url[300];
        snprintf(url, sizeof url, "http://%s:%d/?token=%s", shown, cfg.port, token);
        pid_t p = fork();
        if (p == 0) {
            int nullfd = open("/dev/null", O_RDWR);
            dup2(nullfd, 1);
            dup2(nullfd, 2);
            execlp("xdg-open", "xdg-open", url, (char *)NULL);
            _exit(127);
        }
    }
    int sig = 0;
    while (sigwait(&stop, &sig) != 0)
        ;
    fprintf(stderr, "psolve serve: stopping\n");
    pthread_mutex_lock(&lock);
    shutting_down = true;
    for (struct run *r = runs; r; r = r->next)
        if (r->state == RUN_RUNNING)
            kill(r->pid, SIGINT);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    /* The runs end (their watchers see the pipes close); then stop. */
    double until = now_s() + 10;
    for (;;) {
        pthread_mutex_lock(&lock);
        int left = nrunning;
        if (left && now_s() > until)
            for (struct run *r = runs; r; r = r->next)
                if (r->state == RUN_RUNNING)
                    kill(r->pid, SIGKILL);
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
        if (!left)
            break;
        usleep(20000);
    }
    pthread_join(reap, NULL);
    if (d6)
        MHD_stop_daemon(d6);
    MHD_stop_daemon(d4);
    while (runs) {
        struct run *r = runs;
        runs = r->next;
        run_free(r);
    }
    remove_tree(root_dir);
    return PS_EXIT_OK;
}
