/*
 * serve_http.c - psolve serve's HTTP side (serve_int.h): answers with their
 * safety headers, the token, Host and Origin checks, the request body
 * (capped), the routes to the endpoints, and the jobs: the endpoints
 * that wait for a child run in a thread of their own while their
 * connection is suspended, so that the event loop never waits.
 */
#include "serve_int.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* serve.html, embedded by cmake/embed.cmake. */
extern const unsigned char ps_serve_template[];
extern const size_t ps_serve_template_len;
void ps_html_page(FILE *out, const unsigned char *tmpl, size_t len,
                  void (*data)(FILE *out, const void *ctx), const void *ctx);

/* ---- HTTP ---- */

struct request {
    char *body;
    size_t len;
    bool too_big;
    bool job_done;        /* its job ended: `answer` is to be sent */
    struct answer answer;
};

enum MHD_Result serve_send_text(struct MHD_Connection *c, unsigned code,
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

enum MHD_Result serve_send_json(struct MHD_Connection *c, unsigned code,
                                 json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!s)
        return MHD_NO;
    return serve_send_text(c, code, "application/json", s, strlen(s), NULL);
}

static json_t *error_json(const char *fmt, va_list ap)
{
    char msg[1200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return json_pack("{s:s}", "error", msg);
}

enum MHD_Result serve_send_error(struct MHD_Connection *c, unsigned code,
                                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *j = error_json(fmt, ap);
    va_end(ap);
    return serve_send_json(c, code, j);
}

struct answer serve_answer_json(unsigned code, json_t *j)
{
    return (struct answer){code, j};
}

struct answer serve_answer_error(unsigned code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *j = error_json(fmt, ap);
    va_end(ap);
    return (struct answer){code, j};
}

/* ---- jobs ---- */

typedef struct answer (*job_fn)(json_t *req);

struct job {
    struct MHD_Connection *c;
    struct request *rq;
    json_t *req;
    job_fn fn;
};

static void *job_thread(void *arg)
{
    struct job *j = arg;
    /* The handler suspends the connection under the lock after starting
     * this thread: resuming it before would be undefined. */
    pthread_mutex_lock(&srv.lock);
    /* Then a slot: at most cfg.max_jobs children at once; the others
     * wait here, their connections suspended. */
    while (srv.njobs_running >= srv.cfg.max_jobs && !srv.shutting_down)
        pthread_cond_wait(&srv.changed, &srv.lock);
    bool stopping = srv.shutting_down;
    if (!stopping)
        srv.njobs_running++;
    pthread_mutex_unlock(&srv.lock);
    j->rq->answer = stopping ? serve_answer_error(503, "the server is stopping")
                             : j->fn(j->req);
    json_decref(j->req);
    pthread_mutex_lock(&srv.lock);
    if (!stopping)
        srv.njobs_running--;
    j->rq->job_done = true;
    MHD_resume_connection(j->c); /* the handler sends the answer */
    srv.njobs--;
    pthread_cond_broadcast(&srv.changed);
    pthread_mutex_unlock(&srv.lock);
    free(j);
    return NULL;
}

/* Run fn(req) in a thread of its own, the connection suspended meanwhile
 * (a connection waits no one else's turn); req is taken. */
static enum MHD_Result start_job(struct MHD_Connection *c, struct request *rq,
                                 json_t *req, job_fn fn)
{
    struct job *j = malloc(sizeof *j);
    pthread_mutex_lock(&srv.lock);
    bool room = j && !srv.shutting_down && srv.njobs < MAX_JOBS;
    pthread_t th;
    if (room) {
        *j = (struct job){.c = c, .rq = rq, .req = req, .fn = fn};
        room = pthread_create(&th, NULL, job_thread, j) == 0;
    }
    if (room) {
        pthread_detach(th);
        srv.njobs++;
        MHD_suspend_connection(c);
    }
    bool stopping = srv.shutting_down;
    pthread_mutex_unlock(&srv.lock);
    if (room)
        return MHD_YES;
    free(j);
    json_decref(req);
    return stopping ? serve_send_error(c, 503, "the server is stopping")
                    : serve_send_error(c, 429, "%d checks, hints and gens are "
                                       "running or waiting already: try again",
                                       MAX_JOBS);
}

static bool token_ok(struct MHD_Connection *c)
{
    const char *t = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                "X-Psolve-Token");
    if (!t)
        t = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
    if (!t || strlen(t) != strlen(srv.token))
        return false;
    unsigned char diff = 0; /* the same time for every wrong token */
    for (size_t i = 0; srv.token[i]; i++)
        diff |= (unsigned char)(t[i] ^ srv.token[i]);
    return diff == 0;
}

static bool host_ok(const char *host)
{
    for (int i = 0; host && i < srv.nhosts; i++)
        if (strcmp(host, srv.hosts[i]) == 0)
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
    struct page_ctx ctx = {srv.token};
    ps_html_page(f, ps_serve_template, ps_serve_template_len, page_data, &ctx);
    fclose(f);
    return serve_send_text(c, 200, "text/html; charset=utf-8", page, len, NULL);
}

enum MHD_Result serve_handle(void *cls, struct MHD_Connection *c,
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
    if (rq->job_done) { /* resumed: its job's answer */
        json_t *j = rq->answer.json;
        rq->answer.json = NULL;
        return j ? serve_send_json(c, rq->answer.code, j) : MHD_NO;
    }
    if (*upload_size) {
        size_t limit = strcmp(url, "/api/import") == 0 ? MAX_IMPORT_BODY : MAX_BODY;
        if (!rq->too_big && rq->len + *upload_size <= limit) {
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
        return serve_send_error(c, 403, "foreign Host header: this server answers "
                                  "only to its own address");
    if (!origin_ok(c))
        return serve_send_error(c, 403, "foreign Origin: requests from other pages "
                                  "are refused");
    if (!token_ok(c))
        return serve_send_error(c, 403, "missing or wrong token: open the URL "
                                  "psolve serve printed");
    if (rq->too_big)
        return serve_send_error(c, 413, "request body over %d bytes",
                                strcmp(url, "/api/import") == 0 ? MAX_IMPORT_BODY
                                                                : MAX_BODY);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    bool post = strcmp(method, "POST") == 0;
    if (strcmp(url, "/") == 0 && get)
        return serve_page(c);
    if (strcmp(url, "/api/info") == 0 && get)
        return serve_api_info(c);
    if (strcmp(url, "/api/puzzle") == 0 && get)
        return serve_api_puzzle(c);
    if (strcmp(url, "/api/runs") == 0 && get)
        return serve_api_runs(c);
    if (strncmp(url, "/api/run/", 9) == 0 && (get || post))
        return serve_api_run(c, method, url + 9);
    /* solve answers at once (its runs are watched by threads of their
     * own); the others wait for a child: jobs. */
    static const struct {
        const char *url;
        enum MHD_Result (*now)(struct MHD_Connection *, json_t *);
        job_fn job;
    } posts[] = {{"/api/solve", serve_api_solve, NULL},
                 {"/api/check", NULL, serve_api_check},
                 {"/api/gen", NULL, serve_api_gen},
                 {"/api/hint", NULL, serve_api_hint},
                 {"/api/import", NULL, serve_api_import}};
    for (size_t i = 0; i < sizeof posts / sizeof posts[0]; i++) {
        if (strcmp(url, posts[i].url) != 0)
            continue;
        if (!post)
            return serve_send_error(c, 405, "%s takes a POST with a JSON body", url);
        json_error_t jerr;
        json_t *req = rq->body ? json_loadb(rq->body, rq->len, 0, &jerr) : NULL;
        if (!req)
            return serve_send_error(c, 400, "the body is not JSON: %s (line %d, "
                                      "column %d)",
                              rq->body ? jerr.text : "empty body",
                              rq->body ? jerr.line : 0,
                              rq->body ? jerr.column : 0);
        if (!json_is_object(req)) {
            json_decref(req);
            return serve_send_error(c, 400, "the body must be a JSON object");
        }
        if (posts[i].job)
            return start_job(c, rq, req, posts[i].job);
        enum MHD_Result ret = posts[i].now(c, req);
        json_decref(req);
        return ret;
    }
    return serve_send_error(c, 404, "no such page or endpoint: %.80s", url);
}

void serve_request_done(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    struct request *rq = *con_cls;
    if (rq) {
        free(rq->body);
        json_decref(rq->answer.json);
        free(rq);
    }
    *con_cls = NULL;
}
