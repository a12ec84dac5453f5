/*
 * serve.c - `psolve serve`: a local HTTP server (GNU libmicrohttpd) with one
 * self-contained web app (serve.html) to pick, generate, paste or edit a
 * puzzle, play it, ask for a hint, and run searches while watching them.
 * This file is the command: its options, the listening sockets, the
 * bundled puzzles, and the shutdown on Ctrl-C or SIGTERM; serve_int.h
 * lists the other files.
 *
 * Every search, check and generation is the psolve command line itself, run
 * as a child process with the options of the request written as
 * --name=value words: the app's answers are the CLI's by construction, a
 * run can be stopped as Ctrl-C stops psolve (SIGINT: the best line so far
 * is kept), and a run that crashes or runs away takes nothing else down.
 * The child's stderr is a pseudo-terminal, so the driver prints its
 * once-a-second progress line; serve_run.c reads it and forwards it to the
 * page as Server-Sent Events.
 *
 * Safety (docs/serve.md): loopback only unless --listen; a random token on
 * every request; Host and Origin must be the server's own; request bodies
 * are capped; only whitelisted options with checked values reach the child;
 * puzzles come from the request body or the bundled list (by index, never a
 * path); runs are capped in number, time and memory, and reaped when idle.
 */
#define _GNU_SOURCE /* mkdtemp */
#include "serve.h"
#include "serve_int.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "number.h"
#include "search.h"

struct serve srv = {.lock = PTHREAD_MUTEX_INITIALIZER,
                    .changed = PTHREAD_COND_INITIALIZER};

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
    int first = srv.npuzzles;
    while ((e = readdir(d)) != NULL && srv.npuzzles < MAX_PUZZLES) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".txt") != 0)
            continue;
        struct puzzle *p = &srv.puzzles[srv.npuzzles];
        snprintf(p->name, sizeof p->name, "%.40s/%.110s", sub, e->d_name);
        snprintf(p->path, sizeof p->path, "%s/%s", path, e->d_name);
        if (game) {
            snprintf(p->game, sizeof p->game, "%s", game);
        } else { /* games/lua/NAME-size.txt is for NAME.lua */
            size_t k = strcspn(e->d_name, "-.");
            snprintf(p->game, sizeof p->game, "lua:%.*s", (int)k, e->d_name);
        }
        srv.npuzzles++;
    }
    closedir(d);
    qsort(srv.puzzles + first, (size_t)(srv.npuzzles - first), sizeof srv.puzzles[0], by_name);
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
            "  --max-jobs N     checks, hints and gens running at once\n"
            "                   (default: cores; others wait their turn)\n"
            "  --time-cap S     seconds a run may take at most (default 60)\n"
            "  --memory-cap MB  memory limit of a run (default 1024)\n"
            "  --idle S         seconds before an idle run is stopped or\n"
            "                   dropped (default 300)\n"
            "  --allow-scripts  accept Lua rule scripts in requests\n");
    return msg ? PS_EXIT_USAGE : PS_EXIT_OK;
}

#define POOL_THREADS 2 /* the event loop's: handlers are short */
#define FD_RESERVE 256 /* files kept for the runs' pipes, terminals, files */

/* MAX_CONNECTIONS, or fewer when the file limit (raised to its hard limit
 * if need be) leaves less than that beside FD_RESERVE; split between the
 * two daemons of loopback. */
static unsigned connection_limit(void)
{
    struct rlimit rl;
    rlim_t want = 2 * MAX_CONNECTIONS + FD_RESERVE;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 64;
    if (rl.rlim_cur < want && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    rlim_t per = rl.rlim_cur > 2 * 64 + FD_RESERVE ? (rl.rlim_cur - FD_RESERVE) / 2 : 64;
    return per < MAX_CONNECTIONS ? (unsigned)per : MAX_CONNECTIONS;
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
    /* An event loop (epoll where there is one) with a few threads: no
     * handler blocks it (serve_int.h), so an idle connection costs a file
     * descriptor, not a thread, and is closed after CONNECTION_TIMEOUT s.
     * No limit per IP address: on loopback every client is 127.0.0.1. */
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG;
    if (family == AF_INET6)
        flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, serve_handle, NULL,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
                            MHD_OPTION_NOTIFY_COMPLETED, serve_request_done, NULL,
                            MHD_OPTION_THREAD_POOL_SIZE, (unsigned)POOL_THREADS,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
                            MHD_OPTION_CONNECTION_TIMEOUT,
                            (unsigned)CONNECTION_TIMEOUT,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024),
                            MHD_OPTION_END);
}

static int daemon_port(struct MHD_Daemon *d)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The options of serve into srv.cfg: -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv)
{
    enum { O_PORT = 300, O_LISTEN, O_OPEN, O_MAX_RUNS, O_MAX_JOBS, O_TIME_CAP, O_MEM_CAP,
           O_IDLE, O_SCRIPTS, O_HELP };
    static const struct option opts[] = {
        {"port", required_argument, 0, O_PORT},
        {"listen", required_argument, 0, O_LISTEN},
        {"open", no_argument, 0, O_OPEN},
        {"max-runs", required_argument, 0, O_MAX_RUNS},
        {"max-jobs", required_argument, 0, O_MAX_JOBS},
        {"time-cap", required_argument, 0, O_TIME_CAP},
        {"memory-cap", required_argument, 0, O_MEM_CAP},
        {"idle", required_argument, 0, O_IDLE},
        {"allow-scripts", no_argument, 0, O_SCRIPTS},
        {"help", no_argument, 0, O_HELP},
        {0, 0, 0, 0},
    };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    srv.cfg = (struct config){.port = 8080,
                              .max_runs = cores > 0 ? (int)cores : 1,
                              .max_jobs = cores > 0 ? (int)cores : 1,
                              .cores = cores > 0 ? (int)cores : 1,
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
            srv.cfg.port = (int)u;
            break;
        case O_LISTEN: srv.cfg.listen = optarg; break;
        case O_OPEN: srv.cfg.open = true; break;
        case O_MAX_RUNS:
        case O_MAX_JOBS:
            if (!ps_number_parse_uint(optarg, 1, 256, &u))
                return usage("--max-runs and --max-jobs expect 1..256");
            if (ch == O_MAX_RUNS)
                srv.cfg.max_runs = (int)u;
            else
                srv.cfg.max_jobs = (int)u;
            break;
        case O_TIME_CAP:
        case O_IDLE:
            if (!ps_number_parse_decimal(optarg, 0.1, 1e7, &d))
                return usage("--time-cap and --idle expect seconds (0.1 or more)");
            if (ch == O_TIME_CAP)
                srv.cfg.time_cap = d;
            else
                srv.cfg.idle = d;
            break;
        case O_MEM_CAP:
            if (!ps_number_parse_uint(optarg, 16, 1u << 20, &u))
                return usage("--memory-cap expects 16..1048576 (MB)");
            srv.cfg.memory_cap = u;
            break;
        case O_SCRIPTS: srv.cfg.allow_scripts = true; break;
        case 'h':
        case O_HELP: return usage(NULL);
        default: return usage("unknown option or missing value");
        }
    }
    if (optind < argc)
        return usage("serve takes no file arguments");
    return -1;
}

/* The executable the runs start (this one), the private directory, the
 * bundled puzzles, the token. False when the directory cannot be made. */
static bool prepare(const char *exe)
{
    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        srv.cfg.exe = self;
    } else {
        srv.cfg.exe = exe;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(srv.root_dir, sizeof srv.root_dir, "%.120s/psolve-serve-XXXXXX",
             tmp && tmp[0] && strlen(tmp) < 150 ? tmp : "/tmp");
    if (!mkdtemp(srv.root_dir)) {
        fprintf(stderr, "psolve serve: cannot make a directory in %s\n",
                tmp ? tmp : "/tmp");
        return false;
    }
    scan_dir("samegame/examples", "samegame");
    scan_dir("samegame/standard", "samegame");
    scan_dir("watersort/levels", "watersort");
    scan_dir("npuzzle/examples", "npuzzle");
    scan_dir("lua", NULL);
    serve_random_hex(srv.token, 16);
    return true;
}

/* Can ::1 be bound here (has this machine IPv6's loopback)? */
static bool has_ipv6_loopback(void)
{
    int fd = socket(AF_INET6, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    bool ok = bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

/* Both loopback addresses on one port (only 127.0.0.1 on a machine with
 * no IPv6). Half is an error: with ::1 taken by another program, a
 * browser sent to localhost:PORT would reach that one, token and all.
 * With --port 0 a port that is free on 127.0.0.1 but not on ::1 is given
 * back and another tried. */
static bool listen_loopback(struct MHD_Daemon **d4, struct MHD_Daemon **d6)
{
    bool v6 = has_ipv6_loopback();
    for (int attempt = 0;; attempt++) {
        *d4 = start_daemon(AF_INET, "127.0.0.1", srv.cfg.port);
        if (!*d4) {
            fprintf(stderr, "psolve serve: cannot listen on 127.0.0.1 port %d "
                            "(in use by another program?)\n", srv.cfg.port);
            return false;
        }
        int port = daemon_port(*d4);
        *d6 = v6 ? start_daemon(AF_INET6, "::1", port) : NULL;
        if (!v6 || *d6) {
            srv.cfg.port = port;
            return true;
        }
        MHD_stop_daemon(*d4);
        *d4 = NULL;
        if (srv.cfg.port != 0 || attempt == 9) {
            fprintf(stderr, "psolve serve: cannot listen on [::1] port %d (in use "
                            "by another program?): a browser sent to "
                            "localhost:%d could reach that one; give another "
                            "--port, or --listen 127.0.0.1 for IPv4 only\n",
                    port, port);
            return false;
        }
    }
}

/* Listen (--listen ADDR, else 127.0.0.1 and ::1) and note the Host values
 * this server answers to. *shown: the address of the printed URL. False
 * with a message when an address cannot be had. */
static bool listen_all(struct MHD_Daemon **d4, struct MHD_Daemon **d6,
                       const char **shown)
{
    *d6 = NULL;
    if (!srv.cfg.listen) {
        if (!listen_loopback(d4, d6))
            return false;
        *shown = "127.0.0.1";
        snprintf(srv.hosts[srv.nhosts++], sizeof srv.hosts[0], "127.0.0.1:%d",
                 srv.cfg.port);
        snprintf(srv.hosts[srv.nhosts++], sizeof srv.hosts[0], "localhost:%d",
                 srv.cfg.port);
        if (*d6)
            snprintf(srv.hosts[srv.nhosts++], sizeof srv.hosts[0], "[::1]:%d",
                     srv.cfg.port);
        return true;
    }
    const char *addr = srv.cfg.listen;
    bool v6 = strchr(addr, ':') != NULL;
    *d4 = start_daemon(v6 ? AF_INET6 : AF_INET, addr, srv.cfg.port);
    if (!*d4) {
        fprintf(stderr, "psolve serve: cannot listen on %s port %d\n", addr,
                srv.cfg.port);
        return false;
    }
    srv.cfg.port = daemon_port(*d4);
    *shown = addr;
    snprintf(srv.hosts[srv.nhosts++], sizeof srv.hosts[0],
             v6 ? "[%s]:%d" : "%s:%d", addr, srv.cfg.port);
    if (strcmp(addr, "127.0.0.1") != 0 && strcmp(addr, "::1") != 0)
        fprintf(stderr, "psolve serve: warning: listening on %s, not only on "
                        "this machine's loopback: anyone who can reach it and "
                        "has the token can run searches here\n",
                addr);
    return true;
}

/* --open: the desktop's browser, sent to a page in the server's private
 * directory (mode 0600) that redirects to the URL. The token is never on
 * a command line, which any user of the machine can read (ps, /proc). */
static void open_browser(const char *url)
{
    char path[300];
    snprintf(path, sizeof path, "%s/open.html", srv.root_dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        fprintf(stderr, "psolve serve: --open: cannot write %s: open the URL "
                        "above yourself\n", path);
        return;
    }
    /* The URL is digits, hex, dots and colons: nothing to escape. */
    fprintf(f, "<!doctype html><meta charset=\"utf-8\">"
               "<meta http-equiv=\"refresh\" content=\"0; url=%s\">"
               "<title>psolve serve</title><a href=\"%s\">psolve serve</a>\n",
            url, url);
    if (fclose(f) != 0)
        return;
    pid_t p = fork();
    if (p == 0) {
        int nullfd = open("/dev/null", O_RDWR);
        dup2(nullfd, 1);
        dup2(nullfd, 2);
        execlp("xdg-open", "xdg-open", path, (char *)NULL);
        _exit(127);
    }
}

/* Ctrl-C or SIGTERM came: interrupt every run, wait for them to end
 * (killed after 10 s), then free what is left. */
static void shut_down(pthread_t reap)
{
    fprintf(stderr, "psolve serve: stopping\n");
    pthread_mutex_lock(&srv.lock);
    srv.shutting_down = true;
    for (struct run *r = srv.runs; r; r = r->next)
        if (r->state == RUN_RUNNING)
            kill(r->pid, SIGINT);
    pthread_cond_broadcast(&srv.changed);
    pthread_mutex_unlock(&srv.lock);
    /* The runs and jobs end (the watchers see the pipes close; the jobs
     * resume their connections); then stop. */
    double until = serve_now_s() + 10;
    for (;;) {
        pthread_mutex_lock(&srv.lock);
        int left = srv.nrunning + srv.njobs; /* jobs kill their children */
        if (left && serve_now_s() > until)
            for (struct run *r = srv.runs; r; r = r->next)
                if (r->state == RUN_RUNNING)
                    kill(r->pid, SIGKILL);
        pthread_cond_broadcast(&srv.changed);
        pthread_mutex_unlock(&srv.lock);
        if (!left)
            break;
        usleep(20000);
    }
    pthread_join(reap, NULL);
}

int ps_serve_main(int argc, char **argv, const char *exe)
{
    int rc = parse_options(argc, argv);
    if (rc >= 0)
        return rc;
    if (!prepare(exe))
        return PS_EXIT_ERROR;
    /* SIGINT and SIGTERM are waited for below: blocked in every thread. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct MHD_Daemon *d4, *d6;
    const char *shown;
    if (!listen_all(&d4, &d6, &shown)) {
        serve_remove_tree(srv.root_dir);
        return PS_EXIT_ERROR;
    }
    char url[300];
    snprintf(url, sizeof url,
             strchr(shown, ':') ? "http://[%s]:%d/?token=%s"
                                : "http://%s:%d/?token=%s",
             shown, srv.cfg.port, srv.token);
    printf("%s\n", url);
    fflush(stdout);
    fprintf(stderr, "psolve serve: %d bundled puzzles; at most %d runs at once, "
                    "%g s and %llu MB each; Ctrl-C stops\n",
            srv.npuzzles, srv.cfg.max_runs, srv.cfg.time_cap,
            (unsigned long long)srv.cfg.memory_cap);
    pthread_t reap;
    pthread_create(&reap, NULL, serve_reaper, NULL);
    if (srv.cfg.open)
        open_browser(url);
    int sig = 0;
    while (sigwait(&stop, &sig) != 0)
        ;
    shut_down(reap);
    if (d6)
        MHD_stop_daemon(d6);
    MHD_stop_daemon(d4);
    while (srv.runs) {
        struct run *r = srv.runs;
        srv.runs = r->next;
        serve_run_free(r);
    }
    serve_remove_tree(srv.root_dir);
    return PS_EXIT_OK;
}
