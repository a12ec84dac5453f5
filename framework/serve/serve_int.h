/*
 * serve_int.h - what the files of `psolve serve` share (docs/serve.md):
 * the server's configuration and state, a run (a search in a child
 * process), and the functions each file offers the others.
 *
 *   serve.c       the command: options, listening sockets, bundled
 *                 puzzles, shutdown
 *   serve_http.c  HTTP: answers, the token, Host and Origin checks, routes,
 *                 jobs (the endpoints that wait for a child, off the loop)
 *   serve_api.c   the JSON endpoints: a request's body to psolve's argv
 *   serve_run.c   child processes, runs watched by a thread, reaping, the
 *                 run's JSON, Server-Sent Events, downloads
 *
 * Everything in `srv` is shared by the event loop's threads, the jobs,
 * the watchers and the reaper: the run list and counters only under
 * srv.lock. No handler blocks the event loop: an endpoint that waits for
 * a child runs as a job in a thread of its own while its connection is
 * suspended, and an event stream with nothing to say is suspended until
 * its run changes (serve_sse_wake_locked).
 */
#ifndef PS_SERVE_INT_H
#define PS_SERVE_INT_H

#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "game.h"

#ifndef PSOLVE_PUZZLE_DIR
#define PSOLVE_PUZZLE_DIR "games"
#endif
#ifndef PSOLVE_VERSION
#define PSOLVE_VERSION "0.1.0"
#endif

#define MAX_BODY (64 * 1024)   /* request bodies: puzzles are small */
#define MAX_IMPORT_BODY (16 << 20) /* /api/import: a screenshot in base64 */
#define MAX_RUNS_KEPT 64       /* finished runs kept for their downloads */
#define MAX_PUZZLES 512
#define MAX_OUTPUT (8 << 20)   /* a child's stdout kept at most */
#define MAX_STDERR 8192
#define MAX_POINTS 2000        /* progress points kept per run */
#define MAX_TRACE 4000         /* --trace events kept per run */
#define MAX_LINE_TEXT 65536    /* a live best line's text kept at most */
#define HINT_NODES "20000"
/* Connections: an event loop (epoll) holds many at little cost, so idle
 * ones cannot crowd out real clients; those idle this long are closed. */
#define MAX_CONNECTIONS 2048   /* at once, if the file limit allows */
#define CONNECTION_TIMEOUT 10  /* seconds */
#define KEEPALIVE_S 5          /* an event stream's comment when quiet */
#define MAX_JOBS 64            /* checks, hints and gens running or
                                  waiting for one of cfg.max_jobs slots */

struct config {
    int port;
    const char *listen;  /* NULL: 127.0.0.1 and ::1 */
    bool open;
    int max_runs;        /* searches running at once */
    int max_jobs;        /* checks, hints and gens running at once */
    int cores;           /* the most threads a run gets */
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
    /* Followed while it runs (serve_run.c, follow_files): the best line so
     * far from its --best-file (a JSON array of move texts, NULL = none
     * yet), and its --trace events from its --trace-json file (an array,
     * NULL = no trace asked). */
    json_t *line;
    struct timespec line_mtime;
    json_t *trace;
    long trace_read;     /* bytes of the trace file taken */
    /* The puzzle part of its request ({game, rules, rules_script, text,
     * after}): a page reloaded lists the run and replays its line. */
    json_t *request;
    struct run *next;
};

struct puzzle {
    char name[160];  /* e.g. samegame/examples/samegame-10x10.txt */
    char game[64];   /* a built-in game or lua:NAME */
    char path[800];
};

struct serve {
    struct config cfg;
    char token[33];
    char root_dir[160];
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a run changed (or shutdown): under lock */
    struct run *runs;
    int nrunning;
    unsigned run_counter;
    volatile bool shutting_down;
    int njobs;              /* jobs running or waiting (serve_http.c) */
    int njobs_running;      /* of them, those with a slot: a child */
    struct sse *sse_waiting; /* suspended event streams (serve_run.c) */
    struct puzzle puzzles[MAX_PUZZLES];
    int npuzzles;
    char hosts[4][160]; /* the Host values this server answers to */
    int nhosts;
};

extern struct serve srv;

/* serve_run.c: files and processes */
double serve_now_s(void);
void serve_random_hex(char *out, size_t bytes);
void serve_remove_tree(const char *dir);
bool serve_write_file(const char *path, const char *text, size_t len);
char *serve_read_file_all(const char *path, size_t max, size_t *len);
void serve_strip_dir(char *msg, const char *dir);

/* A child's argv, each word malloc'd. */
struct argv_buf {
    char *v[64];
    int n;
};
bool serve_arg_add(struct argv_buf *a, const char *fmt, ...);
void serve_argv_free(struct argv_buf *a);
pid_t serve_spawn(struct argv_buf *a, int *out_fd, const char *err_path,
                  bool pty);
int serve_run_sync(struct argv_buf *a, const char *dir, char **out,
                   char **err);

/* serve_run.c: runs (the lock held where it says so) */
struct watch {
    struct run *run;
    int out_fd, pty_fd;
};
void *serve_watch_run(void *arg);
void serve_run_free(struct run *r);
struct run *serve_run_find(const char *id);
void serve_run_touch(struct run *r);
void serve_reap_locked(bool make_room);
void *serve_reaper(void *arg);
void serve_sse_wake_locked(bool all);
json_t *serve_run_json(struct run *r, bool full);
enum MHD_Result serve_api_run(struct MHD_Connection *c, const char *method,
                              const char *rest);
enum MHD_Result serve_api_runs(struct MHD_Connection *c);

/* serve_http.c */
/* What a job answers: the connection's answer once it is resumed. */
struct answer {
    unsigned code;
    json_t *json;
};
struct answer serve_answer_json(unsigned code, json_t *j);
struct answer serve_answer_error(unsigned code, const char *fmt, ...);
enum MHD_Result serve_send_text(struct MHD_Connection *c, unsigned code,
                                const char *type, char *text, size_t len,
                                const char *download);
enum MHD_Result serve_send_json(struct MHD_Connection *c, unsigned code,
                                json_t *j);
enum MHD_Result serve_send_error(struct MHD_Connection *c, unsigned code,
                                 const char *fmt, ...);
enum MHD_Result serve_handle(void *cls, struct MHD_Connection *c,
                             const char *url, const char *method,
                             const char *version, const char *upload,
                             size_t *upload_size, void **con_cls);
void serve_request_done(void *cls, struct MHD_Connection *c, void **con_cls,
                        enum MHD_RequestTerminationCode toe);

/* serve_api.c */
bool serve_make_dir(char *dir, size_t len);
enum MHD_Result serve_api_solve(struct MHD_Connection *c, json_t *req);
struct answer serve_api_check(json_t *req);
struct answer serve_api_gen(json_t *req);
struct answer serve_api_hint(json_t *req);
struct answer serve_api_import(json_t *req);
enum MHD_Result serve_api_info(struct MHD_Connection *c);
enum MHD_Result serve_api_puzzle(struct MHD_Connection *c);

#endif
