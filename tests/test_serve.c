/*
 * test_serve.c - psolve serve's HTTP API against a server this test starts
 * on a free loopback port (--port 0): every endpoint, the token, foreign
 * Host and Origin, bad and oversized bodies, unknown games, algorithms and
 * options, a run stopped midway (its best line verifies), the SSE stream,
 * 50 concurrent clients, the concurrent-runs cap, answers equal to
 * `psolve --json`, and a clean exit on SIGTERM. Every wait is bounded by a
 * count of polls, none asserts a speed.
 */
#define _GNU_SOURCE /* usleep */
#include "support.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

static pid_t server;
static int port;
static char token[64];
static char dir[] = "/tmp/psolve-test-serve-XXXXXX";

struct reply {
    int code;
    char *body; /* malloc'd */
};

/* One HTTP/1.0 request; extra headers end in \r\n each. */
static struct reply http(const char *method, const char *path,
                         const char *headers, const char *body, size_t blen)
{
    struct reply r = {0, NULL};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    char head[2048];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.0\r\n%s%sContent-Length: %zu\r\n\r\n", method,
                     path, headers && strstr(headers, "Host:") ? "" : "",
                     headers ? headers : "", body ? blen : 0);
    if (!headers || !strstr(headers, "Host:")) {
        char h2[2048];
        snprintf(h2, sizeof h2, "%s %s HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n%s"
                 "Content-Length: %zu\r\n\r\n", method, path, port,
                 headers ? headers : "", body ? blen : 0);
        n = snprintf(head, sizeof head, "%s", h2);
    }
    assert_int_equal(write(fd, head, (size_t)n), n);
    size_t off = 0;
    while (body && off < blen) {
        ssize_t w = write(fd, body + off, blen - off);
        if (w <= 0)
            break; /* the server may close on an oversized body */
        off += (size_t)w;
    }
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 4096 + 1 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t got = read(fd, buf + len, 4096);
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    buf[len] = '\0';
    close(fd);
    sscanf(buf, "HTTP/1.%*d %d", &r.code);
    char *b = strstr(buf, "\r\n\r\n");
    r.body = strdup(b ? b + 4 : "");
    free(buf);
    return r;
}

static char auth[128];

static struct reply api(const char *method, const char *path, const char *body)
{
    return http(method, path, auth, body, body ? strlen(body) : 0);
}

static json_t *api_json(const char *method, const char *path, const char *body,
                        int want)
{
    struct reply r = api(method, path, body);
    if (r.code != want)
        fail_msg("%s %s: HTTP %d, want %d: %s", method, path, r.code, want, r.body);
    json_t *j = json_loads(r.body, 0, NULL);
    if (!j)
        fail_msg("%s %s: not JSON: %s", method, path, r.body);
    free(r.body);
    return j;
}

static void expect_error(const char *method, const char *path,
                         const char *headers, const char *body, int want,
                         const char *words)
{
    struct reply r = http(method, path, headers, body, body ? strlen(body) : 0);
    if (r.code != want)
        fail_msg("%s %s: HTTP %d, want %d: %s", method, path, r.code, want, r.body);
    json_t *j = json_loads(r.body, 0, NULL);
    assert_non_null(j);
    const char *e = json_string_value(json_object_get(j, "error"));
    assert_non_null(e);
    if (words && !strstr(e, words))
        fail_msg("error '%s' does not say '%s'", e, words);
    json_decref(j);
    free(r.body);
}

static char *file_text(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

/* {"game":G,"text":...,<rest>} */
static char *body_with_text(const char *game, const char *path, const char *rest)
{
    char *text = file_text(path);
    json_t *j = json_loads(rest, 0, NULL);
    assert_non_null(j);
    json_object_set_new(j, "game", json_string(game));
    json_object_set_new(j, "text", json_string(text));
    free(text);
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return s;
}

static int start_server(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return 1;
    int p[2];
    if (pipe(p) != 0)
        return 1;
    server = fork();
    if (server == 0) {
        dup2(p[1], 1);
        close(p[0]);
        execl(PSOLVE_BIN, PSOLVE_BIN, "serve", "--port", "0", "--max-runs", "4",
              "--time-cap", "30", "--idle", "120", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    FILE *f = fdopen(p[0], "r");
    char line[512] = "";
    if (!fgets(line, sizeof line, f))
        return 1;
    /* stdout stays open: the server's later lines are none. */
    if (sscanf(line, "http://127.0.0.1:%d/?token=%63s", &port, token) != 2)
        return 1;
    snprintf(auth, sizeof auth, "X-Psolve-Token: %s\r\n", token);
    return 0;
}

static int stop_server(void **state)
{
    (void)state;
    kill(server, SIGTERM);
    int st = -1;
    for (int i = 0; i < 300; i++) { /* bounded: 30 s of polls */
        if (waitpid(server, &st, WNOHANG) == server)
            break;
        usleep(100000);
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

static void test_token_host_origin(void **state)
{
    (void)state;
    expect_error("GET", "/api/info", NULL, NULL, 403, "token");
    expect_error("GET", "/api/info", "X-Psolve-Token: 0123\r\n", NULL, 403, "token");
    char wrong[128];
    snprintf(wrong, sizeof wrong, "X-Psolve-Token: %.31sx\r\n", token);
    expect_error("GET", "/api/info", wrong, NULL, 403, "token");
    expect_error("GET", "/", NULL, NULL, 403, "token");
    char h[300];
    snprintf(h, sizeof h, "Host: evil.example:%d\r\n%s", port, auth);
    expect_error("GET", "/api/info", h, NULL, 403, "Host");
    snprintf(h, sizeof h, "Host: 127.0.0.1:%d\r\n%s", port + 1, auth);
    expect_error("GET", "/api/info", h, NULL, 403, "Host");
    snprintf(h, sizeof h, "Origin: http://evil.example\r\n%s", auth);
    expect_error("GET", "/api/info", h, NULL, 403, "Origin");
    snprintf(h, sizeof h, "Origin: null\r\n%s", auth);
    expect_error("POST", "/api/check", h, "{}", 403, "Origin");
    /* The server's own origin, and the token as a query word, pass. */
    snprintf(h, sizeof h, "Origin: http://localhost:%d\r\n%s", port, auth);
    struct reply r = http("GET", "/api/info", h, NULL, 0);
    assert_int_equal(r.code, 200);
    free(r.body);
    char path[200];
    snprintf(path, sizeof path, "/?token=%s", token);
    r = http("GET", path, NULL, NULL, 0);
    assert_int_equal(r.code, 200);
    assert_non_null(strstr(r.body, "psolve serve"));
    assert_non_null(strstr(r.body, token));
    assert_non_null(strstr(r.body, "psolveCommon")); /* board.js is in */
    assert_null(strstr(r.body, "http://")); /* no network resource */
    free(r.body);
}

static void test_bad_requests(void **state)
{
    (void)state;
    expect_error("POST", "/api/check", auth, "{\"game\": ", 400, "not JSON");
    expect_error("POST", "/api/check", auth, "", 400, "not JSON");
    expect_error("POST", "/api/check", auth, "[1,2]", 400, "object");
    expect_error("GET", "/api/check", auth, NULL, 405, "POST");
    expect_error("GET", "/api/nothing", auth, NULL, 404, NULL);
    expect_error("GET", "/../etc/passwd", auth, NULL, 404, NULL);
    size_t big = 200 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    huge[big] = '\0';
    expect_error("POST", "/api/check", auth, huge, 413, "body");
    free(huge);
    expect_error("POST", "/api/check", auth, "{\"game\":\"chess\",\"text\":\"x\"}",
                 400, "unknown game");
    expect_error("POST", "/api/check", auth, "{\"game\":\"lua:../../x\",\"text\":\"x\"}",
                 400, "unknown game");
    expect_error("POST", "/api/solve", auth,
                 "{\"game\":\"samegame\",\"text\":\"12\\n\",\"algos\":[\"magic\"]}",
                 400, "unknown algorithm");
    expect_error("POST", "/api/solve", auth,
                 "{\"game\":\"samegame\",\"text\":\"12\\n\",\"algos\":[\"greedy\"],"
                 "\"options\":{\"html\":\"/etc/x\"}}",
                 400, "unknown option");
    expect_error("POST", "/api/solve", auth,
                 "{\"game\":\"samegame\",\"text\":\"12\\n\",\"algos\":[\"greedy\"],"
                 "\"options\":{\"time\":\"--html=/x\"}}",
                 400, "number");
    expect_error("POST", "/api/check", auth,
                 "{\"game\":\"samegame\",\"text\":\"12\\n\",\"rules\":\"/etc/passwd\"}",
                 400, "rule name");
    expect_error("POST", "/api/check", auth,
                 "{\"game\":\"samegame\",\"text\":\"12\\n\",\"rules_script\":\"return {}\"}",
                 400, "--allow-scripts");
    expect_error("GET", "/api/puzzle?id=99999", auth, NULL, 404, NULL);
    expect_error("GET", "/api/puzzle?id=-1", auth, NULL, 404, NULL);
    expect_error("GET", "/api/run/nope", auth, NULL, 404, "no such run");
    expect_error("POST", "/api/gen", auth, "{\"game\":\"samegame\",\"rows\":100000}",
                 400, "rows");
    /* Still serving. */
    json_t *j = api_json("GET", "/api/info", NULL, 200);
    json_decref(j);
}

static void test_info_puzzle_gen(void **state)
{
    (void)state;
    json_t *info = api_json("GET", "/api/info", NULL, 200);
    assert_true(json_array_size(json_object_get(info, "games")) >= 3);
    assert_true(json_array_size(json_object_get(info, "algorithms")) >= 8);
    size_t np = json_array_size(json_object_get(info, "puzzles"));
    assert_true(np > 20);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(info, "limits"), "max_runs")), 4);
    json_decref(info);
    json_t *p = api_json("GET", "/api/puzzle?id=0", NULL, 200);
    assert_non_null(json_string_value(json_object_get(p, "text")));
    json_decref(p);
    json_t *g = api_json("POST", "/api/gen",
                         "{\"game\":\"samegame\",\"rows\":5,\"cols\":6,\"colors\":3,"
                         "\"seed\":7}", 200);
    const char *text = json_string_value(json_object_get(g, "text"));
    assert_non_null(text);
    /* The same as psolve gen. */
    char out[4096];
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "gen --game samegame --rows 5 --cols 6 --colors 3 "
                                 "--seed 7"), 0);
    assert_string_equal(text, out);
    json_decref(g);
}

static void test_check_play_hint(void **state)
{
    (void)state;
    json_t *c = api_json("POST", "/api/check",
                         "{\"game\":\"samegame\",\"text\":\"11x23\\n\"}", 200);
    const char *e = json_string_value(json_object_get(c, "error"));
    assert_non_null(strstr(e, "puzzle:1:3"));
    assert_true(json_is_false(json_object_get(c, "legal")));
    json_decref(c);
    c = api_json("POST", "/api/check",
                 "{\"game\":\"samegame\",\"text\":\"11223\\n12233\\n\","
                 "\"moves\":[\"0 0\"]}", 200);
    assert_int_equal(json_integer_value(json_object_get(c, "score")), 1);
    assert_int_equal(json_integer_value(json_object_get(c, "moves")), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(c, "state"), "kind")), "grid");
    json_decref(c);
    c = api_json("POST", "/api/check",
                 "{\"game\":\"samegame\",\"text\":\"11223\\n12233\\n\","
                 "\"moves\":[\"0 0\",\"7 7\"]}", 200);
    assert_non_null(strstr(json_string_value(json_object_get(c, "error")),
                           "moves:2"));
    json_decref(c);
    /* Water Sort and the 8-puzzle. */
    char *b = body_with_text("npuzzle", PSOLVE_SOURCE_DIR
                             "/games/npuzzle/examples/8-hardest.txt", "{}");
    c = api_json("POST", "/api/hint", b, 200);
    assert_non_null(json_string_value(json_object_get(c, "move")));
    json_decref(c);
    free(b);
    c = api_json("POST", "/api/hint",
                 "{\"game\":\"samegame\",\"text\":\"11223\\n12233\\n44553\\n41153\\n\"}",
                 200);
    assert_non_null(json_string_value(json_object_get(c, "move")));
    json_decref(c);
}

/* Poll a run until it is done (bounded), return its JSON. */
static json_t *wait_done(const char *id)
{
    char path[200];
    snprintf(path, sizeof path, "/api/run/%s", id);
    for (int i = 0; i < 1200; i++) {
        json_t *j = api_json("GET", path, NULL, 200);
        if (strcmp(json_string_value(json_object_get(j, "state")), "done") == 0)
            return j;
        json_decref(j);
        usleep(100000);
    }
    fail_msg("run %s did not end", id);
    return NULL;
}

/* The API's run and `psolve --json` with the same options: the same
 * answer and counters (times apart). A non-empty cli_opts is
 * --max-nodes 200000 on both sides (Monte Carlo restarts until a limit). */
static void same_as_cli(const char *game, const char *file, const char *algo,
                        const char *cli_opts)
{
    char rest[400];
    snprintf(rest, sizeof rest,
             "{\"algos\":[\"%s\"],\"options\":{\"threads\":1,\"seed\":3,"
             "\"time\":25,\"max-memory\":512%s}}", algo,
             cli_opts[0] ? ",\"max-nodes\":200000" : "");
    char *b = body_with_text(game, file, rest);
    json_t *s = api_json("POST", "/api/solve", b, 200);
    free(b);
    const char *id = json_string_value(json_object_get(
        json_array_get(json_object_get(s, "runs"), 0), "id"));
    json_t *done = wait_done(id);
    json_decref(s);
    json_t *res = json_object_get(done, "result");
    assert_non_null(res);
    static char out[1 << 20];
    test_psolve(dir, out, sizeof out, false,
                "--json --game %s --algo %s --threads 1 --seed 3 --time 25 "
                "--max-memory 512 %s %s", game, algo, cli_opts, file);
    json_t *cli = json_loads(out, 0, NULL);
    assert_non_null(cli);
    const char *keys[] = {"status", "found", "length", "moves", "score", "cost",
                          "rules", "verified"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_t *a = json_object_get(res, keys[k]), *c = json_object_get(cli, keys[k]);
        if (!json_equal(a, c) && (a || c))
            fail_msg("%s %s: '%s' differs", game, algo, keys[k]);
    }
    json_t *sa = json_object_get(res, "stats"), *sc = json_object_get(cli, "stats");
    json_object_del(sa, "seconds");
    json_object_del(sc, "seconds");
    if (!json_equal(sa, sc)) {
        char *x = json_dumps(sa, JSON_SORT_KEYS), *y = json_dumps(sc, JSON_SORT_KEYS);
        fail_msg("%s %s: the counters differ:\n  serve %s\n  cli   %s", game,
                 algo, x, y);
    }
    json_decref(cli);
    json_decref(done);
}

static void test_same_as_cli(void **state)
{
    (void)state;
    same_as_cli("samegame", PSOLVE_SOURCE_DIR "/games/samegame/examples/samegame-10x10.txt",
                "greedy", "");
    same_as_cli("samegame", PSOLVE_SOURCE_DIR "/games/samegame/examples/samegame-7x7-4c.txt",
                "nmcs:level=1", "--max-nodes 200000");
    same_as_cli("npuzzle", PSOLVE_SOURCE_DIR "/games/npuzzle/examples/8-hardest.txt",
                "astar", "");
    same_as_cli("npuzzle", PSOLVE_SOURCE_DIR "/games/npuzzle/examples/8-hardest.txt",
                "idastar", "");
    same_as_cli("watersort", PSOLVE_SOURCE_DIR "/games/watersort/levels/frozenfrank-212.txt",
                "greedy", "");
}

static void test_stop_midway_and_events(void **state)
{
    (void)state;
    char *b = body_with_text("samegame", PSOLVE_SOURCE_DIR "/games/samegame/standard/01.txt",
                             "{\"algos\":[\"nrpa\",\"greedy\"],\"options\":"
                             "{\"threads\":1,\"time\":25}}");
    json_t *s = api_json("POST", "/api/solve", b, 200);
    free(b);
    json_t *runs = json_object_get(s, "runs");
    assert_int_equal(json_array_size(runs), 2);
    const char *id = json_string_value(json_object_get(json_array_get(runs, 0), "id"));
    char path[200];
    /* Wait for a progress line with a best value (bounded polls). */
    snprintf(path, sizeof path, "/api/run/%s", id);
    bool seen = false;
    for (int i = 0; i < 600 && !seen; i++) {
        json_t *j = api_json("GET", path, NULL, 200);
        json_t *p = json_object_get(j, "progress");
        seen = p && json_is_integer(json_object_get(p, "best"));
        json_decref(j);
        if (!seen)
            usleep(100000);
    }
    assert_true(seen);
    /* Downloads wait for the end. */
    snprintf(path, sizeof path, "/api/run/%s/solution", id);
    struct reply r = api("GET", path, NULL);
    assert_int_equal(r.code, 409);
    free(r.body);
    snprintf(path, sizeof path, "/api/run/%s/stop", id);
    expect_error("GET", path, auth, NULL, 405, "POST");
    json_t *st = api_json("POST", path, "{}", 200);
    json_decref(st);
    /* The SSE stream runs to its done event. */
    snprintf(path, sizeof path, "/api/run/%s/events", id);
    r = api("GET", path, NULL);
    assert_int_equal(r.code, 200);
    assert_non_null(strstr(r.body, "event: done"));
    free(r.body);
    json_t *done = wait_done(id);
    assert_int_equal(json_integer_value(json_object_get(done, "exit_status")), 4);
    json_t *res = json_object_get(done, "result");
    assert_string_equal(json_string_value(json_object_get(res, "stopped")),
                        "interrupted");
    assert_true(json_is_true(json_object_get(res, "found")));
    json_int_t score = json_integer_value(json_object_get(res, "score"));
    json_decref(done);
    /* The solution file verifies with psolve verify, at the same score. */
    snprintf(path, sizeof path, "/api/run/%s/solution", id);
    r = api("GET", path, NULL);
    assert_int_equal(r.code, 200);
    test_write_file(dir, "sol.txt", r.body);
    free(r.body);
    char out[4096];
    assert_int_equal(test_psolve(dir, out, sizeof out, false, "verify --json %s %s/sol.txt",
                                 PSOLVE_SOURCE_DIR "/games/samegame/standard/01.txt",
                                 dir), 0);
    json_t *v = json_loads(out, 0, NULL);
    assert_int_equal(json_integer_value(json_object_get(v, "score")), score);
    json_decref(v);
    snprintf(path, sizeof path, "/api/run/%s/json", id);
    r = api("GET", path, NULL);
    assert_int_equal(r.code, 200);
    assert_non_null(strstr(r.body, "\"algorithm\":\"nrpa\""));
    free(r.body);
    snprintf(path, sizeof path, "/api/run/%s/html", id);
    r = api("GET", path, NULL);
    assert_int_equal(r.code, 200);
    assert_non_null(strstr(r.body, "psolve-data"));
    free(r.body);
    snprintf(path, sizeof path, "/api/run/%s/what", id);
    expect_error("GET", path, auth, NULL, 404, NULL);
    json_t *g = wait_done(json_string_value(json_object_get(json_array_get(runs, 1), "id")));
    json_decref(g);
    json_decref(s);
}

static void test_runs_cap(void **state)
{
    (void)state;
    char *b = body_with_text("samegame", PSOLVE_SOURCE_DIR "/games/samegame/standard/01.txt",
                             "{\"algos\":[\"greedy\",\"greedy\",\"greedy\",\"greedy\","
                             "\"greedy\"],\"options\":{\"threads\":1}}");
    json_t *j = api_json("POST", "/api/solve", b, 429);
    json_decref(j);
    free(b);
}

static void *client(void *arg)
{
    int *fails = arg;
    for (int k = 0; k < 4; k++) {
        struct reply r = api("GET", "/api/info", NULL);
        if (r.code != 200)
            (*fails)++;
        free(r.body);
        r = api("POST", "/api/check", "{\"game\":\"samegame\",\"text\":\"1122\\n\","
                                      "\"moves\":[\"0 0\"]}");
        if (r.code != 200 || !strstr(r.body, "\"score\":"))
            (*fails)++;
        free(r.body);
    }
    return NULL;
}

static void test_fifty_clients(void **state)
{
    (void)state;
    pthread_t th[50];
    int fails[50] = {0};
    for (int i = 0; i < 50; i++)
        assert_int_equal(pthread_create(&th[i], NULL, client, &fails[i]), 0);
    int total = 0;
    for (int i = 0; i < 50; i++) {
        pthread_join(th[i], NULL);
        total += fails[i];
    }
    assert_int_equal(total, 0);
    json_t *j = api_json("GET", "/api/info", NULL, 200);
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_token_host_origin),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_info_puzzle_gen),
        cmocka_unit_test(test_check_play_hint),
        cmocka_unit_test(test_same_as_cli),
        cmocka_unit_test(test_stop_midway_and_events),
        cmocka_unit_test(test_runs_cap),
        cmocka_unit_test(test_fifty_clients),
    };
    return cmocka_run_group_tests(tests, start_server, stop_server);
}
