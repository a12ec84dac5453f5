/*
 * serve_api.c - psolve serve's JSON endpoints (serve_int.h): a request's
 * body checked and written as psolve's argv (whitelisted options as
 * --name=value words), then solve (runs in children, serve_run.c), check
 * (verify: load, play, undo), gen, hint, info and the bundled puzzles.
 */
#define _GNU_SOURCE /* mkdtemp, posix_openpt, ptsname, open_memstream */
#include "serve_int.h"

#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "number.h"
#include "search.h"

/* Words the child may get as an option value: letters, digits and
 * ",.:=_-+" (algorithm lists with their keys, rule names, numbers). */
bool serve_safe_word(const char *s)
{
    if (!s[0] || strlen(s) > 200)
        return false;
    for (const char *p = s; *p; p++)
        if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') ||
              ('0' <= *p && *p <= '9') || strchr(",.:=_-+", *p)))
            return false;
    return true;
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
bool serve_make_dir(char *dir, size_t len)
{
    snprintf(dir, len, "%s/r%u-XXXXXX", srv.root_dir,
             __atomic_add_fetch(&srv.run_counter, 1, __ATOMIC_RELAXED));
    return mkdtemp(dir) != NULL;
}

/* The options of a solve request, as --name=value words: the run's own
 * below, and every option an algorithm declares in its table (found there
 * by name, with its type and range), so that a new algorithm option
 * reaches the app with no line here. */
static const struct {
    const char *name;
    char kind; /* n: number, w: word, f: flag */
} run_options[] = {
    {"heuristic", 'w'}, {"time", 'n'}, {"max-nodes", 'n'}, {"max-memory", 'n'},
    {"threads", 'n'}, {"seed", 'n'}, {"trace", 'n'}, {"layers", 'f'},
};

/* The option `key` of the first algorithm that declares it (algorithms
 * that share a name share its type), or NULL. */
static const struct ps_option *algorithm_option(const char *key)
{
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++) {
        const struct ps_option *o = ps_algorithm_option(*a, key);
        if (o)
            return o;
    }
    return NULL;
}

/* The kind of the solve option `key` ('n', 'w', 'f'), or 0 when none has
 * that name; *algo_opt is its algorithm table entry, if it has one. */
static char solve_option_kind(const char *key, const struct ps_option **algo_opt)
{
    *algo_opt = NULL;
    for (size_t k = 0; k < sizeof run_options / sizeof run_options[0]; k++)
        if (strcmp(run_options[k].name, key) == 0)
            return run_options[k].kind;
    const struct ps_option *o = algorithm_option(key);
    if (!o)
        return 0;
    *algo_opt = o;
    switch (o->type) {
    case PS_OPT_FLAG:
        return 'f';
    case PS_OPT_INT:
    case PS_OPT_DOUBLE:
        return 'n';
    default:
        return 'w';
    }
}

/* Is `val` in the range of the algorithm option o? Its own parser says,
 * on a scratch struct as large as any options struct it points into. */
static bool algorithm_value_ok(const struct ps_option *o, const char *val,
                               char *msg, size_t mlen)
{
    union {
        struct ps_options run;
        unsigned char own[PS_ALGO_OPTIONS_SIZE];
        max_align_t align;
    } scratch;
    memset(&scratch, 0, sizeof scratch);
    char why[160];
    if (ps_option_set(o, &scratch, val, why, sizeof why))
        return true;
    snprintf(msg, mlen, "option '%s' %s", o->name, why);
    return false;
}

/* The common part of every child: game, rules, the puzzle file. False with
 * a message in msg. */
/* A bundled Lua game that starts where the page's moves led ("after": the
 * move texts): its script wrapped so that start() replays them, each
 * matched by its text among moves() as a solution file is. The Lua games'
 * positions cannot be written as puzzle text, so this is how a hint or a
 * solve starts from the position reached. The script's own lines keep
 * their numbers. */
static bool write_lua_after(const char *script, json_t *after, const char *out,
                            char *msg, size_t mlen)
{
    size_t len;
    char *text = serve_read_file_all(script, MAX_BODY * 4, &len);
    char *w = NULL;
    size_t wl = 0;
    FILE *f = text ? open_memstream(&w, &wl) : NULL;
    if (!f) {
        free(text);
        snprintf(msg, mlen, "cannot read the Lua game");
        return false;
    }
    fprintf(f, "local psolve_game = (function () %s\nend)()\n"
               "local psolve_after = {", text);
    size_t i;
    json_t *m;
    json_array_foreach(after, i, m) {
        fputc('"', f); /* a Lua string: every byte but letters and digits as \ddd */
        for (const unsigned char *p = (const unsigned char *)json_string_value(m); *p; p++)
            fprintf(f, ('a' <= *p && *p <= 'z') || ('0' <= *p && *p <= '9') ||
                               ('A' <= *p && *p <= 'Z')
                           ? "%c" : "\\%03u",
                    *p);
        fputs("\", ", f);
    }
    fputs("}\n"
          "local psolve_start = psolve_game.start\n"
          "local function psolve_text(p, s, m)\n"
          "  if psolve_game.format_move then return tostring(psolve_game.format_move(p, s, m)) end\n"
          "  return tostring(m)\n"
          "end\n"
          "function psolve_game.start(p)\n"
          "  local s = psolve_start(p)\n"
          "  for k, text in ipairs(psolve_after) do\n"
          "    local found\n"
          "    for _, m in ipairs(psolve_game.moves(p, s) or {}) do\n"
          "      if psolve_text(p, s, m) == text then found = m break end\n"
          "    end\n"
          "    if found == nil then error('move ' .. k .. ' (' .. text .. ') is not legal') end\n"
          "    s = (psolve_game.apply(p, s, found))\n"
          "  end\n"
          "  return s\n"
          "end\n"
          "return psolve_game\n", f);
    fclose(f);
    free(text);
    bool ok = serve_write_file(out, w, wl);
    free(w);
    if (!ok)
        snprintf(msg, mlen, "cannot store the Lua game");
    return ok;
}

/* "after" (the moves played, for a position a Lua game cannot write as
 * text): checked, then the wrapped script in dir/game.lua replaces garg. */
static bool after_args(json_t *req, const char *gname, char *garg, size_t glen,
                       const char *dir, char *msg, size_t mlen)
{
    json_t *after = json_object_get(req, "after");
    if (!after || json_is_null(after) ||
        (json_is_array(after) && json_array_size(after) == 0))
        return true;
    if (strncmp(gname, "lua:", 4) != 0) {
        snprintf(msg, mlen, "\"after\" is for the Lua games (the built-in "
                            "games' positions are puzzle texts)");
        return false;
    }
    size_t i;
    json_t *m;
    bool ok = json_is_array(after) && json_array_size(after) <= 5000;
    json_array_foreach(after, i, m) ok = ok && json_is_string(m) &&
                                         strlen(json_string_value(m)) <= 60;
    if (!ok) {
        snprintf(msg, mlen, "\"after\" must be a list of move texts");
        return false;
    }
    char path[300];
    snprintf(path, sizeof path, "%s/game.lua", dir);
    if (!write_lua_after(garg, after, path, msg, mlen))
        return false;
    snprintf(garg, glen, "%s", path);
    return true;
}

/* "rules": a rule name (NAME or builtin:NAME, never a path) as --rules. */
static bool rules_name_arg(json_t *rules, struct argv_buf *a, char *msg,
                           size_t mlen)
{
    const char *name = json_string_value(rules);
    if (!name || !serve_safe_word(name) || strchr(name, '.') ||
        strchr(name, '/')) {
        snprintf(msg, mlen, "\"rules\" must be a rule name (NAME or "
                            "builtin:NAME)");
        return false;
    }
    serve_arg_add(a, "--rules=%s", name);
    return true;
}

bool serve_common_args(json_t *req, struct argv_buf *a, const char *dir,
                        const struct ps_game **game, char *msg, size_t mlen)
{
    const char *gname = json_string_value(json_object_get(req, "game"));
    const char *text = json_string_value(json_object_get(req, "text"));
    json_t *rules = json_object_get(req, "rules");
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
    if (!after_args(req, gname, garg, sizeof garg, dir, msg, mlen))
        return false;
    serve_arg_add(a, "--game=%s", garg);
    if (rules && !json_is_null(rules)) {
        if (!rules_name_arg(rules, a, msg, mlen))
            return false;
    } else if (script) {
        if (!srv.cfg.allow_scripts) {
            snprintf(msg, mlen, "Lua rule scripts are refused: start psolve "
                                "serve with --allow-scripts");
            return false;
        }
        char path[300];
        snprintf(path, sizeof path, "%s/rules.lua", dir);
        if (!serve_write_file(path, script, strlen(script))) {
            snprintf(msg, mlen, "cannot store the rule script");
            return false;
        }
        serve_arg_add(a, "--rules=%s", path);
    }
    if (text) {
        char path[300];
        snprintf(path, sizeof path, "%s/puzzle", dir);
        if (!serve_write_file(path, text, strlen(text))) {
            snprintf(msg, mlen, "cannot store the puzzle");
            return false;
        }
    }
    return true;
}

/* A number option past what the server allows (trace: the events it
 * keeps; threads: the cores): the cap in val, and in `clamped` under the option's name, which
 * the answer carries. Values that are no whole number are the child's to
 * refuse. */
static void clamp_option(const char *key, char *val, size_t vlen, uint64_t cap,
                         json_t *clamped)
{
    uint64_t n;
    if (!ps_number_parse_uint(val, 0, UINT64_MAX, &n) || n <= cap)
        return;
    snprintf(val, vlen, "%llu", (unsigned long long)cap);
    json_object_set_new(clamped, key, json_integer((json_int_t)cap));
}

static bool option_args(json_t *opts, struct argv_buf *a, char *msg,
                        size_t mlen, double *time_out, json_t *clamped)
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
        const struct ps_option *algo_opt;
        char kind = solve_option_kind(key, &algo_opt);
        if (!kind) {
            snprintf(msg, mlen, "unknown option '%.60s'", key);
            return false;
        }
        char val[64];
        if (kind == 'f') {
            if (json_is_true(v))
                serve_arg_add(a, "--%s", key);
            continue;
        }
        if (json_is_null(v))
            continue;
        if (kind == 'n') {
            if (json_is_integer(v) && json_integer_value(v) >= 0)
                snprintf(val, sizeof val, "%lld", (long long)json_integer_value(v));
            else if (json_is_real(v) && json_real_value(v) >= 0 &&
                     json_real_value(v) < 1e9)
                snprintf(val, sizeof val, "%.3f", json_real_value(v));
            else if (json_is_string(v) && serve_safe_word(json_string_value(v)))
                snprintf(val, sizeof val, "%s", json_string_value(v));
            else {
                snprintf(msg, mlen, "option '%s' takes a number", key);
                return false;
            }
        } else {
            if (!json_is_string(v) || !serve_safe_word(json_string_value(v))) {
                snprintf(msg, mlen, "option '%s' takes a word", key);
                return false;
            }
            snprintf(val, sizeof val, "%s", json_string_value(v));
        }
        if (algo_opt && !algorithm_value_ok(algo_opt, val, msg, mlen))
            return false;
        if (strcmp(key, "trace") == 0) /* more would be read and dropped */
            clamp_option(key, val, sizeof val, MAX_TRACE, clamped);
        if (strcmp(key, "threads") == 0) /* more only share the cores */
            clamp_option(key, val, sizeof val, (uint64_t)srv.cfg.cores, clamped);
        if (strcmp(key, "time") == 0) {
            double t;
            if (!ps_number_parse_decimal(val, 0, 1e9, &t)) {
                snprintf(msg, mlen, "option 'time' takes a number of seconds");
                return false;
            }
            if (t <= 0 || t > srv.cfg.time_cap) /* the cap, or none: the cap */
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
            if (mb > srv.cfg.memory_cap)
                continue;
            have_memory = true;
        }
        serve_arg_add(a, "--%s=%s", key, val);
    }
    if (!have_time) {
        serve_arg_add(a, "--time=%g", srv.cfg.time_cap);
        *time_out = srv.cfg.time_cap;
    }
    if (!have_memory)
        serve_arg_add(a, "--max-memory=%llu", (unsigned long long)srv.cfg.memory_cap);
    return true;
}

/* An algorithm word: a registered name, optionally with :KEY=V parts. */
static bool algo_known(const char *word)
{
    char name[64];
    size_t n = strcspn(word, ":");
    if (n == 0 || n >= sizeof name || !serve_safe_word(word) || strchr(word, ','))
        return false;
    memcpy(name, word, n);
    name[n] = '\0';
    return ps_algorithm_find(name) != NULL;
}
/* Does the request ask for a trace (options.trace > 0)? */
static bool wants_trace(json_t *req)
{
    json_t *t = json_object_get(json_object_get(req, "options"), "trace");
    return (json_is_integer(t) && json_integer_value(t) > 0) ||
           (json_is_real(t) && json_real_value(t) >= 1) ||
           (json_is_string(t) && atoi(json_string_value(t)) > 0);
}

/* One run of a solve request: its directory and files, the child on a
 * pseudo-terminal, its watcher. The run (in srv.runs), or NULL with a
 * message in msg; the options lowered to the server's caps in clamped. */
static struct run *start_run(json_t *req, const char *algo, json_t *clamped,
                             char *msg, size_t mlen)
{
    struct run *r = calloc(1, sizeof *r);
    if (!r || !serve_make_dir(r->dir, sizeof r->dir)) {
        snprintf(msg, mlen, "cannot make the run's directory");
        free(r);
        return NULL;
    }
    struct argv_buf a = {{0}, 0};
    const struct ps_game *g = NULL;
    double t;
    serve_arg_add(&a, "psolve");
    serve_arg_add(&a, "solve");
    serve_arg_add(&a, "--json");
    serve_arg_add(&a, "--html=%s/page.html", r->dir);
    /* Followed while the run runs (serve_run.c): the live best line and
     * the trace. */
    serve_arg_add(&a, "--best-file=%s/best.txt", r->dir);
    if (wants_trace(req)) {
        serve_arg_add(&a, "--trace-json=%s/trace.jsonl", r->dir);
        r->trace = json_array();
    }
    serve_arg_add(&a, "--algo=%s", algo);
    bool ok = serve_common_args(req, &a, r->dir, &g, msg, mlen) &&
              option_args(json_object_get(req, "options"), &a, msg, mlen, &t,
                          clamped);
    serve_arg_add(&a, "--");
    serve_arg_add(&a, "%s/puzzle", r->dir);
    int pty = -1, out_fd = -1;
    if (ok) {
        pty = posix_openpt(O_RDWR | O_NOCTTY);
        ok = pty >= 0 && grantpt(pty) == 0 && unlockpt(pty) == 0;
        if (!ok)
            snprintf(msg, mlen, "cannot open a terminal for the run");
    }
    if (ok) {
        serve_random_hex(r->id, 8);
        snprintf(r->algo, sizeof r->algo, "%s", algo);
        r->request = json_object();
        static const char *const keep[] = {"game", "rules", "rules_script", "text", "after"};
        for (size_t k = 0; k < sizeof keep / sizeof *keep; k++) {
            json_t *v = json_object_get(req, keep[k]);
            if (v && !json_is_null(v))
                json_object_set(r->request, keep[k], v);
        }
        r->started = r->last_access = serve_now_s();
        r->state = RUN_RUNNING;
        r->pid = serve_spawn(&a, &out_fd, ptsname(pty), true);
        ok = r->pid > 0;
        if (!ok)
            snprintf(msg, mlen, "cannot start psolve");
    }
    serve_argv_free(&a);
    struct watch *w = ok ? malloc(sizeof *w) : NULL;
    if (!w) {
        if (pty >= 0)
            close(pty);
        if (ok) { /* no memory for the watcher: the child cannot be left */
            kill(r->pid, SIGKILL);
            waitpid(r->pid, NULL, 0);
            close(out_fd);
        }
        serve_run_free(r);
        return NULL;
    }
    *w = (struct watch){.run = r, .out_fd = out_fd, .pty_fd = pty};
    pthread_mutex_lock(&srv.lock);
    r->next = srv.runs;
    srv.runs = r;
    pthread_mutex_unlock(&srv.lock);
    pthread_t th;
    if (pthread_create(&th, NULL, serve_watch_run, w) == 0)
        pthread_detach(th);
    return r;
}

enum MHD_Result serve_api_solve(struct MHD_Connection *c, json_t *req)
{
    json_t *algos = json_object_get(req, "algos");
    if (!json_is_array(algos) || json_array_size(algos) < 1 ||
        json_array_size(algos) > 8)
        return serve_send_error(c, 400, "\"algos\" must be a list of 1 to 8 "
                                        "algorithm names");
    size_t i;
    json_t *v;
    json_array_foreach(algos, i, v) {
        if (!json_is_string(v) || !algo_known(json_string_value(v)))
            return serve_send_error(c, 400, "unknown algorithm '%.60s' (psolve "
                                            "list shows them)",
                                    json_is_string(v) ? json_string_value(v)
                                                      : "?");
    }
    if (!json_is_string(json_object_get(req, "text")))
        return serve_send_error(c, 400, "\"text\" (the puzzle) is missing");
    size_t n = json_array_size(algos);
    pthread_mutex_lock(&srv.lock);
    bool room = srv.nrunning + (int)n <= srv.cfg.max_runs;
    if (room) {
        serve_reap_locked(true);
        srv.nrunning += (int)n; /* reserved; each watcher gives its slot back */
    }
    pthread_mutex_unlock(&srv.lock);
    if (!room)
        return serve_send_error(c, 429, "%zu %s asked with %d running: at most %d "
                                        "run at once (psolve serve --max-runs N); "
                                        "stop one or wait",
                                n, n == 1 ? "run" : "runs", srv.nrunning,
                                srv.cfg.max_runs);
    json_t *out = json_array(), *clamped = json_object();
    char msg[600] = "";
    size_t started = 0;
    json_array_foreach(algos, i, v) {
        struct run *r = start_run(req, json_string_value(v), clamped, msg,
                                  sizeof msg);
        if (!r)
            break;
        started++;
        json_array_append_new(out, json_pack("{s:s,s:s}", "id", r->id, "algo",
                                             r->algo));
    }
    pthread_mutex_lock(&srv.lock);
    srv.nrunning -= (int)(n - started);
    pthread_mutex_unlock(&srv.lock);
    if (msg[0] && started == 0) {
        json_decref(out);
        json_decref(clamped);
        return serve_send_error(c, 400, "%s", msg);
    }
    json_t *ans = json_pack("{s:o}", "runs", out);
    if (json_object_size(clamped)) /* the values the runs got instead */
        json_object_set(ans, "clamped", clamped);
    json_decref(clamped);
    return serve_send_json(c, 200, ans);
}

/* The data of a --html page psolve wrote (its psolve-data element). */
static json_t *html_data(const char *path)
{
    char *page = serve_read_file_all(path, MAX_OUTPUT, NULL);
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

/* The names of the algorithms that solve games of this objective ("score"
 * or "cost"): the rules decide it for some games (SameGame's
 * fewest_clicks is a cost game), so the page asks per position. */
static json_t *applicable_algorithms(const char *objective)
{
    bool score = objective && strcmp(objective, "score") == 0;
    json_t *names = json_array();
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++)
        if (score ? (*a)->for_score : (*a)->for_cost)
            json_array_append_new(names, json_string((*a)->name));
    return names;
}

/* check: load the puzzle, replay the moves (psolve verify --json --html):
 * the position after them as state_json, the value, whether it is over;
 * parse and move errors with line:col. Used to load, play, undo, redo. */
struct answer serve_api_check(json_t *req)
{
    json_t *moves = json_object_get(req, "moves");
    if (moves && (!json_is_array(moves) || json_array_size(moves) > 5000))
        return serve_answer_error(400, "\"moves\" must be a list of move texts");
    if (!json_is_string(json_object_get(req, "text")))
        return serve_answer_error(400, "\"text\" (the puzzle) is missing");
    char dir[256], msg[600] = "", path[300];
    if (!serve_make_dir(dir, sizeof dir))
        return serve_answer_error(500, "cannot make a directory");
    struct argv_buf a = {{0}, 0};
    const struct ps_game *g;
    serve_arg_add(&a, "psolve");
    serve_arg_add(&a, "verify");
    serve_arg_add(&a, "--json");
    serve_arg_add(&a, "--quiet");
    serve_arg_add(&a, "--html=%s/page.html", dir);
    bool ok = serve_common_args(req, &a, dir, &g, msg, sizeof msg);
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
    ok = ok && serve_write_file(path, sol, sl);
    free(sol);
    serve_arg_add(&a, "--");
    serve_arg_add(&a, "%s/puzzle", dir);
    serve_arg_add(&a, "%s/moves", dir);
    char *out = NULL, *err = NULL;
    int rc = ok ? serve_run_sync(&a, dir, &out, &err) : -1;
    serve_argv_free(&a);
    struct answer ret;
    json_t *res = out ? json_loads(out, 0, NULL) : NULL;
    snprintf(path, sizeof path, "%s/page.html", dir);
    json_t *data = res ? html_data(path) : NULL;
    if (!ok) {
        ret = serve_answer_error(400, "%s", msg);
    } else if (!res || !data) {
        serve_strip_dir(err ? err : msg, dir);
        char *e = err ? err : msg;
        if (strncmp(e, "psolve: ", 8) == 0)
            e += 8;
        e[strcspn(e, "\n")] = '\0';
        /* The puzzle does not load or a move is illegal: an answer, not a
         * bad request (the page shows it; the server stays quiet). */
        if (rc == -1)
            ret = serve_answer_error(500, "%s", e[0] ? e : "psolve failed");
        else
            ret = serve_answer_json(200, json_pack("{s:b,s:s}", "legal", 0, "error",
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
        /* Every position of the line, each with its next move drawn (the
         * page steps through a run's live best line so). */
        if (json_is_true(json_object_get(req, "frames"))) {
            json_t *states = json_array();
            size_t k;
            json_t *fr;
            json_array_foreach(frames, k, fr)
                json_array_append(states, json_object_get(fr, "state"));
            json_object_set_new(res, "frames", states);
        }
        json_object_set(res, "objective", json_object_get(data, "objective"));
        json_object_set_new(res, "algorithms",
                            applicable_algorithms(json_string_value(
                                json_object_get(data, "objective"))));
        json_object_set(res, "move_texts", json_object_get(run0, "moves"));
        ret = serve_answer_json(200, json_incref(res));
    }
    json_decref(res);
    json_decref(data);
    free(out);
    free(err);
    serve_remove_tree(dir);
    return ret;
}

/* Standard base64 (RFC 4648) into out (room for len * 3 / 4 bytes), with
 * a data URL's "data:...;base64," prefix skipped; -1 when it is not base64. */
static long decode_base64(const char *in, size_t len, unsigned char *out)
{
    const char *comma = memchr(in, ',', len < 100 ? len : 100);
    if (strncmp(in, "data:", 5) == 0 && comma) {
        len -= (size_t)(comma + 1 - in);
        in = comma + 1;
    }
    unsigned bits = 0;
    int have = 0;
    long n = 0;
    size_t i = 0;
    /* A table, not a search of the alphabet per character: a picture is
     * up to 16 MB of text. */
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    signed char value[256];
    memset(value, -1, sizeof value);
    for (int k = 0; k < 64; k++)
        value[(unsigned char)alphabet[k]] = (signed char)k;
    for (; i < len && in[i] != '='; i++) {
        int v = value[(unsigned char)in[i]];
        if (v < 0)
            return -1;
        bits = (bits << 6) | (unsigned)v;
        if ((have += 6) >= 8) {
            have -= 8;
            out[n++] = (unsigned char)(bits >> have);
        }
    }
    for (; i < len; i++) /* only padding may follow */
        if (in[i] != '=')
            return -1;
    return n;
}

/* import: a screenshot (base64, or a data URL) read by `psolve import
 * --json` in a child, as every picture psolve decodes: the puzzle's text
 * and where it was seen, for the page to mark unsure cells and draw moves
 * on the picture (docs/import.md, docs/serve.md). */
struct answer serve_api_import(json_t *req)
{
    json_t *image = json_object_get(req, "image");
    const char *gname = json_string_value(json_object_get(req, "game"));
    if (!json_is_string(image) || json_string_length(image) == 0)
        return serve_answer_error(400, "\"image\" (the picture, base64) is missing");
    if (gname && gname[0] && strcmp(gname, "samegame") != 0 &&
        strcmp(gname, "watersort") != 0)
        return serve_answer_error(400, "pictures are read as samegame or "
                                       "watersort, not '%.60s'", gname);
    size_t blen = json_string_length(image);
    unsigned char *bytes = malloc(blen / 4 * 3 + 3);
    if (!bytes)
        return serve_answer_error(500, "out of memory");
    long n = decode_base64(json_string_value(image), blen, bytes);
    if (n <= 0) {
        free(bytes);
        return serve_answer_error(400, "\"image\" is not base64 (nor a data URL)");
    }
    char dir[256], path[300];
    if (!serve_make_dir(dir, sizeof dir)) {
        free(bytes);
        return serve_answer_error(500, "cannot make a directory");
    }
    snprintf(path, sizeof path, "%s/picture", dir);
    bool written = serve_write_file(path, (const char *)bytes, (size_t)n);
    free(bytes);
    struct argv_buf a = {{0}, 0};
    serve_arg_add(&a, "psolve");
    serve_arg_add(&a, "import");
    serve_arg_add(&a, "--json");
    if (gname && gname[0])
        serve_arg_add(&a, "--game=%s", gname);
    serve_arg_add(&a, "--");
    serve_arg_add(&a, "%s", path);
    char *out = NULL, *err = NULL;
    int rc = written ? serve_run_sync(&a, dir, &out, &err) : -1;
    serve_argv_free(&a);
    json_t *res = rc == 0 && out ? json_loads(out, 0, NULL) : NULL;
    struct answer ret;
    const char *text = json_string_value(json_object_get(res, "text"));
    char *own = text ? strdup(text) : NULL;
    if (own) { /* the picture's name in the text is the server's scratch file */
        serve_strip_dir(own, dir);
        json_object_set_new(res, "text", json_string(own));
        free(own);
    }
    if (res) {
        ret = serve_answer_json(200, res);
    } else {
        char *e = err;
        if (e) {
            serve_strip_dir(e, dir);
            if (strncmp(e, "psolve: ", 8) == 0)
                e += 8;
            if (strncmp(e, "picture: error: ", 16) == 0) /* the scratch file */
                e += 16;
            e[strcspn(e, "\n")] = '\0';
        }
        ret = serve_answer_error(rc > 0 ? 400 : 500, "%s",
                                 e && e[0] ? e : "the picture could not be read");
    }
    free(out);
    free(err);
    serve_remove_tree(dir);
    return ret;
}

/* gen: a random puzzle (psolve gen). Its parameters are the game's own
 * (its gen_options table, which psolve gen, --help and /api/info also
 * read), each bounded by the table's range; "seed" is everyone's; "rules"
 * names a rule script whose `gen` sizes are the defaults (Former's 7x9). */
struct answer serve_api_gen(json_t *req)
{
    const char *gname = json_string_value(json_object_get(req, "game"));
    char garg[600];
    if (gname && strncmp(gname, "lua:", 4) == 0)
        return serve_answer_error(400, "Lua games have no generator: load one "
                                       "of their bundled puzzles or paste a puzzle's text");
    const struct ps_game *g = gname ? game_named(gname, garg, sizeof garg) : NULL;
    if (!g)
        return serve_answer_error(400, "unknown game '%.60s'", gname ? gname : "?");
    if (!g->generate)
        return serve_answer_error(400, "%s has no generator: load a bundled "
                                       "puzzle or paste one", g->name);
    struct argv_buf a = {{0}, 0};
    serve_arg_add(&a, "psolve");
    serve_arg_add(&a, "gen");
    serve_arg_add(&a, "--game=%s", garg);
    char msg[200] = "";
    const char *key;
    json_t *v;
    json_object_foreach(req, key, v) {
        if (strcmp(key, "game") == 0 || json_is_null(v))
            continue;
        if (strcmp(key, "rules") == 0) {
            if (!msg[0])
                rules_name_arg(v, &a, msg, sizeof msg);
            continue;
        }
        const struct ps_option *o = strcmp(key, "seed") == 0
                                        ? NULL
                                        : ps_option_find(g->gen_options, key);
        double lo = o ? o->min : 0, hi = o ? o->max : 9007199254740991.0;
        if (!o && strcmp(key, "seed") != 0)
            snprintf(msg, sizeof msg, "%s's generator takes no \"%.40s\"", g->name, key);
        else if (!json_is_integer(v) || (double)json_integer_value(v) < lo ||
                 (double)json_integer_value(v) > hi)
            snprintf(msg, sizeof msg, "\"%.40s\" must be a whole number %.0f..%.0f",
                     key, lo, hi);
        else
            serve_arg_add(&a, "--%s=%lld", o ? o->name : "seed",
                          (long long)json_integer_value(v));
    }
    char dir[256];
    if (!msg[0] && !serve_make_dir(dir, sizeof dir))
        snprintf(msg, sizeof msg, "cannot make a directory");
    char *out = NULL, *err = NULL;
    int rc = msg[0] ? -1 : serve_run_sync(&a, dir, &out, &err);
    serve_argv_free(&a);
    if (!msg[0])
        serve_remove_tree(dir);
    struct answer ret;
    if (msg[0])
        ret = serve_answer_error(400, "%s", msg);
    else if (rc != 0) {
        char *e = err && strncmp(err, "psolve: ", 8) == 0 ? err + 8 : err;
        if (e)
            e[strcspn(e, "\n")] = '\0';
        ret = serve_answer_error(400, "%s", e && e[0] ? e : "gen failed");
    } else
        ret = serve_answer_json(200, json_pack("{s:s,s:s}", "game", garg, "text", out));
    free(out);
    free(err);
    return ret;
}

/* hint: the first move of a short search with a fixed budget from the
 * given position (a puzzle text): beam of width 10 on score games, A* of
 * HINT_NODES expansions on cost games, greedy when that finds nothing. */
struct answer serve_api_hint(json_t *req)
{
    if (!json_is_string(json_object_get(req, "text")))
        return serve_answer_error(400, "\"text\" (the position) is missing");
    struct answer ret = {0, NULL};
    for (int attempt = 0; attempt < 2; attempt++) {
        char dir[256], msg[600] = "";
        if (!serve_make_dir(dir, sizeof dir))
            return serve_answer_error(500, "cannot make a directory");
        struct argv_buf a = {{0}, 0};
        const struct ps_game *g = NULL;
        serve_arg_add(&a, "psolve");
        serve_arg_add(&a, "solve");
        serve_arg_add(&a, "--json");
        serve_arg_add(&a, "--quiet");
        serve_arg_add(&a, "--threads=1");
        bool ok = serve_common_args(req, &a, dir, &g, msg, sizeof msg);
        /* The page says the position's objective (from its last check):
         * a game's rules may choose it (SameGame's fewest_clicks). */
        const char *said = json_string_value(json_object_get(req, "objective"));
        bool score = said ? strcmp(said, "score") == 0
                          : g && ps_game_may_score(g);
        if (attempt == 1)
            serve_arg_add(&a, "--algo=greedy");
        else if (score)
            serve_arg_add(&a, "--algo=beam:beam-width=10");
        else
            serve_arg_add(&a, "--algo=astar");
        serve_arg_add(&a, "--max-nodes=" HINT_NODES);
        serve_arg_add(&a, "--time=%g", srv.cfg.time_cap < 10 ? srv.cfg.time_cap : 10.0);
        serve_arg_add(&a, "--");
        serve_arg_add(&a, "%s/puzzle", dir);
        char *out = NULL, *err = NULL;
        if (ok)
            serve_run_sync(&a, dir, &out, &err);
        serve_argv_free(&a);
        json_t *res = out ? json_loads(out, 0, NULL) : NULL;
        json_t *mv = json_array_get(json_object_get(res, "moves"), 0);
        if (!ok) {
            ret = serve_answer_error(400, "%s", msg);
        } else if (mv || attempt == 1) {
            if (!res) {
                serve_strip_dir(err, dir);
                char *e = strncmp(err, "psolve: ", 8) == 0 ? err + 8 : err;
                e[strcspn(e, "\n")] = '\0';
                ret = serve_answer_error(400, "%s", e[0] ? e : "no hint");
            } else {
                ret = serve_answer_json(200, json_pack("{s:o,s:O,s:O}", "move",
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
        serve_remove_tree(dir);
        if (!ok || mv || attempt == 1)
            break;
    }
    return ret;
}

enum MHD_Result serve_api_info(struct MHD_Connection *c)
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
        /* "objective": the default rules' kind; "objectives": every kind
         * the game's rules can choose (a check tells a position's). */
        json_t *kinds = json_array();
        if (ps_game_may_score(*g))
            json_array_append_new(kinds, json_string("score"));
        if (ps_game_may_cost(*g))
            json_array_append_new(kinds, json_string("cost"));
        /* gen's parameters, from the game's table (the page's form). */
        json_t *gen = json_array();
        for (const struct ps_option *o = (*g)->generate ? (*g)->gen_options : NULL;
             o && o->name; o++)
            json_array_append_new(gen, json_pack("{s:s,s:f,s:f,s:s,s:s}", "name", o->name,
                                                 "min", o->min, "max", o->max, "default",
                                                 o->def ? o->def : "", "doc",
                                                 o->doc ? o->doc : ""));
        json_array_append_new(
            games, json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:b,s:o}", "name",
                             (*g)->name, "summary", (*g)->summary, "objective",
                             ps_game_may_score(*g) ? "score" : "cost",
                             "objectives", kinds, "heuristics", hs, "presets",
                             ps, "generate", (*g)->generate != NULL,
                             "gen_options", gen));
    }
    json_t *algos = json_array();
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++)
        json_array_append_new(algos, json_pack("{s:s,s:s,s:b,s:b}", "name",
                                               (*a)->name, "summary",
                                               (*a)->summary, "score",
                                               (*a)->for_score, "cost",
                                               (*a)->for_cost));
    json_t *pz = json_array();
    for (int i = 0; i < srv.npuzzles; i++)
        json_array_append_new(pz, json_pack("{s:i,s:s,s:s}", "id", i, "name",
                                            srv.puzzles[i].name, "game",
                                            srv.puzzles[i].game));
    return serve_send_json(c, 200,
                     json_pack("{s:s,s:o,s:o,s:o,s:{s:i,s:i,s:i,s:f,s:I,s:f,s:i,s:b}}",
                               "psolve", PSOLVE_VERSION, "games", games,
                               "algorithms", algos, "puzzles", pz, "limits",
                               "max_runs", srv.cfg.max_runs, "max_jobs",
                               srv.cfg.max_jobs, "cores", srv.cfg.cores, "time_cap",
                               srv.cfg.time_cap, "memory_cap_mb",
                               (json_int_t)srv.cfg.memory_cap, "idle", srv.cfg.idle,
                               "max_body", MAX_BODY, "allow_scripts",
                               srv.cfg.allow_scripts));
}

enum MHD_Result serve_api_puzzle(struct MHD_Connection *c)
{
    const char *id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
    uint64_t k;
    if (!id || !ps_number_parse_uint(id, 0, (uint64_t)(srv.npuzzles ? srv.npuzzles - 1 : 0),
                                     &k) || srv.npuzzles == 0)
        return serve_send_error(c, 404, "no bundled puzzle '%.20s'", id ? id : "");
    char *text = serve_read_file_all(srv.puzzles[k].path, MAX_BODY, NULL);
    if (!text)
        return serve_send_error(c, 500, "cannot read the bundled puzzle");
    json_t *j = json_pack("{s:I,s:s,s:s,s:s}", "id", (json_int_t)k, "name",
                          srv.puzzles[k].name, "game", srv.puzzles[k].game, "text", text);
    free(text);
    return serve_send_json(c, 200, j);
}
