/*
 * test_lua_sandbox.c - the sandbox holds whatever a script does: each
 * reproducer of issue 13 (finalizers, xpcall handlers, long C loops, the
 * memory storm, the quadratic key check, the clock seed, slow C work) is
 * loaded in a child process that is killed if it overruns, so a hang fails
 * the test instead of hanging the suite.
 */
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

#include "rules.h"
#include "search.h"

static void write_script(const struct test_dir *f, const char *text, char *path,
                         size_t len)
{
    snprintf(path, len, "%s/script.lua", f->dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* How loading a script in a child process ended. */
struct outcome {
    bool finished;   /* within the time given */
    int exit_status; /* of the child: 0 rules, 1 error (also the watchdog) */
    double seconds;
    char text[2048]; /* "ok min_group=N" or the error, and stderr */
};

/* Resolve samegame rules from the script at path in a child; kill it after
 * `limit` seconds. The child writes its result and its stderr to a pipe. */
static struct outcome load_in_child(const char *path, double limit)
{
    struct outcome o = {0};
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    double start = ps_now();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 2);
        const struct ps_game *g = ps_game_find("samegame");
        struct ps_error err;
        ps_error_clear(&err);
        void *rules = ps_rules_resolve(g, path, NULL, &err);
        char buf[1024];
        if (rules) {
            int64_t min_group;
            memcpy(&min_group,
                   (char *)rules + test_param(g, "min_group")->offset,
                   sizeof min_group);
            snprintf(buf, sizeof buf, "ok min_group=%lld", (long long)min_group);
        } else {
            ps_error_format(&err, buf, sizeof buf);
        }
        free(rules);
        if (write(fd[1], buf, strlen(buf)) < 0)
            _exit(3);
        _exit(rules ? 0 : 1);
    }
    close(fd[1]);
    size_t n = 0;
    int status = 0;
    for (;;) {
        struct pollfd p = {fd[0], POLLIN, 0};
        double left = start + limit - ps_now();
        if (left <= 0)
            break;
        if (poll(&p, 1, (int)(left * 1000) + 1) > 0) {
            ssize_t k = read(fd[0], o.text + n, sizeof o.text - 1 - n);
            if (k > 0) {
                n += (size_t)k;
                continue;
            }
            /* End of file: the child has finished. */
            waitpid(pid, &status, 0);
            o.finished = true;
            break;
        }
    }
    close(fd[0]);
    o.seconds = ps_now() - start;
    if (!o.finished) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    o.text[n] = '\0';
    o.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return o;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("'%s' does not contain '%s'", hay, needle);
}

/* The script ends within `limit` seconds with an error containing
 * `needle` (at line `line` of the script when line > 0). */
static void expect_error(const struct test_dir *f, const char *text,
                         double limit, int line, const char *needle)
{
    char path[256];
    write_script(f, text, path, sizeof path);
    struct outcome o = load_in_child(path, limit);
    if (!o.finished)
        fail_msg("still running after %.1f s:\n%s", limit, text);
    assert_int_equal(o.exit_status, 1);
    assert_contains(o.text, needle);
    if (line > 0) {
        char at[300];
        snprintf(at, sizeof at, "%s:%d: error: ", path, line);
        assert_contains(o.text, at);
    }
}

static void expect_rules(const struct test_dir *f, const char *text,
                         double limit, int min_group)
{
    char path[256];
    write_script(f, text, path, sizeof path);
    struct outcome o = load_in_child(path, limit);
    if (!o.finished)
        fail_msg("still running after %.1f s:\n%s", limit, text);
    char want[64];
    snprintf(want, sizeof want, "ok min_group=%d", min_group);
    assert_string_equal(o.text, want);
}

/* ---- the reproducers (../shared/reliability/lua_*.lua) ---- */

static void test_finalizers_refused(void **state)
{
    struct test_dir *f = *state;
    /* lua_gc_finalizer_loop.lua: a finalizer runs with the hook off. */
    expect_error(f,
                 "-- a looping finalizer\n"
                 "setmetatable({}, {__gc = function() while true do end end})\n"
                 "collectgarbage()\nreturn {}\n",
                 10, 2, "__gc (finalizers) is not allowed");
    /* lua_gc_loop_at_close.lua: at lua_close, after the rules were read. */
    expect_error(f,
                 "return setmetatable({ min_group = 3 }, {__gc = function() "
                 "while true do end end})\n",
                 10, 1, "__gc (finalizers) is not allowed");
    /* A placeholder __gc, replaced later, is refused too (Lua marks the
     * object when the metatable is set). */
    expect_error(f, "local mt = {__gc = true}\nsetmetatable({}, mt)\n", 10, 2,
                 "__gc");
    /* Other metatables still work. */
    expect_rules(f,
                 "local t = setmetatable({}, {__index = function() return 4 "
                 "end})\nreturn { min_group = t.anything }\n",
                 10, 4);
}

static void test_xpcall_handler_hooked(void **state)
{
    struct test_dir *f = *state;
    /* lua_xpcall_handler_loop.lua */
    expect_error(f,
                 "xpcall(function() while true do end end, function() while "
                 "true do end end)\nreturn {}\n",
                 10, 0, "Lua instructions (the rules sandbox limit");
    /* xpcall still calls its handler on the error and passes arguments. */
    expect_rules(f,
                 "local ok, m = xpcall(function(a) error('x' .. a, 0) end,\n"
                 "  function(e) return 'handled ' .. e end, 'y')\n"
                 "local ok2, v = xpcall(function(a, b) return a + b end, print, 2, 3)\n"
                 "assert(not ok and m == 'handled xy' and ok2 and v == 5)\n"
                 "return { min_group = 6 }\n",
                 10, 6);
}

static void test_long_c_loops(void **state)
{
    struct test_dir *f = *state;
    /* lua_rep_empty.lua, lua_rep_empty_1e9.lua: an empty result at once. */
    expect_rules(f,
                 "local s = string.rep('', math.maxinteger)\n"
                 "local u = ('x'):rep(0) .. string.rep('', 1e9, '')\n"
                 "return { min_group = #s + #u + 2 }\n",
                 5, 2);
    /* A result over the memory cap is refused before the loop. */
    expect_error(f, "local s = string.rep('ab', 1 << 40, ',')\nreturn {}\n", 5,
                 0, "32 MiB of memory");
    /* lua_table_move.lua: 2^40 elements, charged one each. */
    expect_error(f, "table.move({}, 1, 1 << 40, 2)\nreturn {}\n", 10, 1,
                 "the script ran for more than");
    /* table.insert / table.remove over a __len of 2^40. */
    expect_error(f,
                 "local t = setmetatable({}, {__len = function() return 1 << "
                 "40 end})\ntable.insert(t, 1, 'x')\nreturn {}\n",
                 10, 2, "the script ran for more than");
    expect_error(f,
                 "local t = setmetatable({}, {__len = function() return 1 << "
                 "40 end})\ntable.remove(t, 1)\nreturn {}\n",
                 10, 2, "the script ran for more than");
    /* The bounded versions still do what Lua's do. */
    expect_rules(f,
                 "local t = {1, 2, 3}\n"
                 "table.insert(t, 4)\ntable.insert(t, 1, 0)\n"
                 "assert(table.remove(t) == 4 and table.remove(t, 1) == 0)\n"
                 "local m = table.move(t, 1, 3, 2, {})\n"
                 "assert(m[1] == nil and m[2] == 1 and m[4] == 3)\n"
                 "table.move(t, 1, 3, 2)\n"
                 "assert(t[1] == 1 and t[2] == 1 and t[4] == 3)\n"
                 "local s = {5, 3, 9, 1}\ntable.sort(s)\n"
                 "assert(table.concat(s, ',') == '1,3,5,9')\n"
                 "table.sort(s, function(a, b) return a > b end)\n"
                 "assert(table.concat(s, ',') == '9,5,3,1')\n"
                 "assert(select('#', table.remove({})) == 1)\n"
                 "return { min_group = #t + #s }\n",
                 10, 8);
}

static void test_memory_error_final(void **state)
{
    struct test_dir *f = *state;
    /* lua_pcall_memory_storm.lua: each caught memory error used to cost a
     * full emergency collection, for hours. */
    expect_error(f,
                 "local t = {}\n"
                 "while true do pcall(function() t[#t + 1] = string.rep('x', "
                 "1000) end) end\n",
                 10, 0, "the script needs more than 32 MiB of memory");
}

/* A fuzzed script: large strings made and dropped at once by a caught
 * error never reach the memory cap, and ran until the 10 s time limit at
 * a few instructions a turn. string.rep is charged by the bytes it makes:
 * the instruction limit ends it (the time limit's message is another). */
static void test_dropped_large_strings_are_charged(void **state)
{
    struct test_dir *f = *state;
    expect_error(f,
                 "local t = {}\n"
                 "while true do pcall(function() t[#t] = 1 + "
                 "string.rep('x', 81000) end) end\n",
                 30, 0, "Lua instructions");
}

/* make_unknown_keys_quadratic.sh: 20,000 unknown keys after a 1 MB
 * comment; the line of each was found by a scan of the whole text. */
static void test_unknown_keys_linear(void **state)
{
    struct test_dir *f = *state;
    size_t big = 1000000;
    char *text = malloc(big + 512);
    assert_non_null(text);
    memcpy(text, "-- ", 3);
    memset(text + 3, 'x', big);
    strcpy(text + 3 + big,
           "\nlocal t = {}\nfor i = 1, 20000 do t[\"key\" .. i] = true end\n"
           "t.key7 = true\nreturn t\n");
    expect_error(f, text, 10, 4, "unknown key 'key7' for game samegame");
    free(text);
}

static void test_randomseed_deterministic(void **state)
{
    struct test_dir *f = *state;
    /* lua_randomseed.lua: without a seed, the clock. */
    expect_error(f, "math.randomseed()\nreturn { min_group = math.random(2, 5) }\n",
                 10, 1, "math.randomseed() needs a seed");
    /* The fixed seed, and an explicit one, give the same rules each run. */
    const char *seeded = "math.randomseed(7)\n"
                         "return { min_group = math.random(2, 500) }\n";
    char path[256];
    write_script(f, seeded, path, sizeof path);
    struct outcome a = load_in_child(path, 10), b = load_in_child(path, 10);
    assert_true(a.finished && b.finished);
    assert_string_equal(a.text, b.text);
    assert_contains(a.text, "ok min_group=");
}

static void test_slow_c_work_counted(void **state)
{
    struct test_dir *f = *state;
    /* lua_rules_many.lua: each rules() compiles a file in C. */
    expect_error(f,
                 "for i = 1, 100000 do rules('samegame') end\n"
                 "return rules('samegame')\n",
                 10, 1, "more than 64 rules() calls in one load");
    /* lua_sort_cfunc.lua: C comparators are charged per comparison. */
    expect_error(f,
                 "local t = {}\n"
                 "for i = 1, 1000000 do t[i] = (i * 7919) % 1000003 end\n"
                 "table.sort(t, rawequal)\ntable.sort(t, math.max)\n"
                 "return {}\n",
                 15, 0, "the script ran for more than");
    /* A big load() is charged by its length. */
    expect_error(f,
                 "local chunk = string.rep(' ', 10000000)\n"
                 "for i = 1, 3 do load(chunk) end\nreturn {}\n",
                 10, 2, "Lua instructions");
}

/* lua_find_pathological.lua: one C call the hook never interrupts. The
 * watchdog ends the process at PS_LUA_MAX_SECONDS (10 s). */
static void test_watchdog_ends_stuck_c(void **state)
{
    struct test_dir *f = *state;
    char path[256];
    write_script(f,
                 "local r = ('a'):rep(3000):find('.-.-.-b')\nreturn {}\n",
                 path, sizeof path);
    struct outcome o = load_in_child(path, 30);
    assert_true(o.finished);
    assert_int_equal(o.exit_status, 1);
    assert_contains(o.text, "error: the script is still running after 10 s "
                            "(the rules sandbox limit)");
    assert_true(o.seconds >= 9.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finalizers_refused),
        cmocka_unit_test(test_xpcall_handler_hooked),
        cmocka_unit_test(test_long_c_loops),
        cmocka_unit_test(test_memory_error_final),
        cmocka_unit_test(test_dropped_large_strings_are_charged),
        cmocka_unit_test(test_unknown_keys_linear),
        cmocka_unit_test(test_randomseed_deterministic),
        cmocka_unit_test(test_slow_c_work_counted),
        cmocka_unit_test(test_watchdog_ends_stuck_c),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
