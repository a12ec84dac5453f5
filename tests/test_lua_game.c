/*
 * test_lua_game.c - games written in Lua (framework/providers/lua_game.c): the
 * examples in games/lua/ solved to their known optima by every exact
 * algorithm, the Lua 8-puzzle against the C one, and bad scripts refused or
 * stopped with the script's file:line (syntax, runtime errors, a missing
 * function, an endless loop stopped at --time, the memory cap).
 */
#include "support.h"

#include "lua_game.h"
#include "replay.h"
#include "report.h"
#include "search.h"
#include "textfile.h"

#define LUA_GAMES PSOLVE_SOURCE_DIR "/games/lua/"
#define HOSTILE PSOLVE_SOURCE_DIR "/tests/data/hostile/"

static const char *const exact[] = {"bfs", "astar", "idastar", "dfs"};
#define NEXACT (sizeof exact / sizeof exact[0])

/* Load the puzzle file `path` into game g (the test fails if it does not). */
static void *load_file(const struct ps_game *g, const char *path)
{
    char *text;
    size_t len;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_read_text_file(path, &text, &len, &err))
        fail_msg("%s: %s", path, err.msg);
    void *inst = g->load(NULL, path, text, len, &err);
    free(text);
    if (!inst)
        fail_msg("%s:%d: %s", err.file, err.line, err.msg);
    return inst;
}

static const struct ps_game *open_game(const char *path)
{
    struct ps_error err;
    ps_error_clear(&err);
    const struct ps_game *g = ps_lua_game_open(path, &err);
    if (!g)
        fail_msg("%s:%d: %s", err.file, err.line, err.msg);
    return g;
}

/* Run algorithm `algo` on inst; the run is captured (and replayed). */
static enum ps_status solve(const struct ps_game *g, void *inst,
                            const char *algo, double seconds,
                            struct ps_run *run, struct ps_search *out)
{
    struct ps_limits lim = {.seconds = seconds, .max_memory = 1u << 30};
    struct ps_search s;
    ps_search_init(&s, g, inst, &lim, NULL);
    s.progress = false;
    enum ps_status st = ps_search_run(&s, ps_algorithm_find(algo));
    ps_run_capture(run, &s, st);
    if (out)
        *out = s;
    else
        ps_search_free(&s);
    return st;
}

static void expect_optimum(const char *script, const char *puzzle,
                           ps_value optimum)
{
    const struct ps_game *g = open_game(script);
    void *inst = load_file(g, puzzle);
    for (size_t i = 0; i < NEXACT; i++) {
        struct ps_run run;
        enum ps_status st = solve(g, inst, exact[i], 0, &run, NULL);
        if (st != PS_OPTIMAL || run.value != optimum || !run.verified)
            fail_msg("%s on %s: status %s, value %lld (expected %lld), "
                     "verified %d",
                     exact[i], puzzle, ps_status_name(st),
                     (long long)run.value, (long long)optimum, run.verified);
        ps_run_free(&run);
    }
    g->free_instance(inst);
    ps_lua_game_close(g);
}

static void test_examples_reach_their_optima(void **unused)
{
    (void)unused;
    expect_optimum(LUA_GAMES "hanoi.lua", LUA_GAMES "hanoi-4.txt", 15);
    expect_optimum(LUA_GAMES "river.lua", LUA_GAMES "river-3.txt", 11);
    expect_optimum(LUA_GAMES "lightsout.lua", LUA_GAMES "lightsout-3x3.txt", 5);
    expect_optimum(LUA_GAMES "npuzzle.lua", LUA_GAMES "npuzzle-3x3.txt", 20);
}

/* The Lua 8-puzzle is the C npuzzle's twin: same optimum, same tree. */
static void test_lua_npuzzle_matches_c(void **unused)
{
    (void)unused;
    extern const struct ps_game npuzzle_game;
    const struct ps_game *lua = open_game(LUA_GAMES "npuzzle.lua");
    void *li = load_file(lua, LUA_GAMES "npuzzle-3x3.txt");
    void *ci = load_file(&npuzzle_game, LUA_GAMES "npuzzle-3x3.txt");
    for (size_t i = 0; i < NEXACT; i++) {
        struct ps_run a, b;
        solve(lua, li, exact[i], 0, &a, NULL);
        solve(&npuzzle_game, ci, exact[i], 0, &b, NULL);
        assert_int_equal(a.value, b.value);
        assert_int_equal(a.stats.expanded, b.stats.expanded);
        assert_int_equal(a.stats.generated, b.stats.generated);
        ps_run_free(&a);
        ps_run_free(&b);
    }
    lua->free_instance(li);
    npuzzle_game.free_instance(ci);
    ps_lua_game_close(lua);
}

/* A script with the given body after a sound game's functions. */
static void write_game(const char *dir, const char *name, const char *extra,
                       const char *moves_body)
{
    char text[4096];
    snprintf(text, sizeof text,
             "local g = {}\n"
             "function g.load(t) return 1 end\n"
             "function g.start(p) return 'a' end\n"
             "function g.moves(p, s)\n"
             "%s\n"
             "end\n"
             "function g.apply(p, s, m) return s .. m, 1 end\n"
             "function g.is_goal(p, s) return #s >= 3 end\n"
             "%s\n"
             "return g\n",
             moves_body, extra);
    test_write_file(dir, name, text);
}

static void expect_open_fails(const char *path, int line, const char *needle)
{
    struct ps_error err;
    ps_error_clear(&err);
    const struct ps_game *g = ps_lua_game_open(path, &err);
    if (g) {
        ps_lua_game_close(g);
        fail_msg("%s opened (expected: %s)", path, needle);
    }
    assert_string_equal(err.file, path);
    if (line)
        assert_int_equal(err.line, line);
    if (!strstr(err.msg, needle))
        fail_msg("message '%s' lacks '%s'", err.msg, needle);
}

static void test_bad_scripts_refused(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    char path[256];
    snprintf(path, sizeof path, "%s/syntax.lua", dir);
    test_write_file(dir, "syntax.lua", "local g = {}\nfunction g.load(t\n"
                                       "return g\n");
    expect_open_fails(path, 3, "expected");
    snprintf(path, sizeof path, "%s/nomoves.lua", dir);
    test_write_file(dir, "nomoves.lua",
                    "return {load = function(t) return 1 end,\n"
                    "start = function(p) return 'a' end,\n"
                    "apply = function(p, s, m) return s end,\n"
                    "is_goal = function(p, s) return true end}\n");
    expect_open_fails(path, 0, "no function 'moves'");
    snprintf(path, sizeof path, "%s/typo.lua", dir);
    write_game(dir, "typo.lua", "function g.is_gaol(p, s) return true end",
               "return {'b'}");
    expect_open_fails(path, 9, "did you mean 'is_goal'");
    snprintf(path, sizeof path, "%s/top.lua", dir);
    test_write_file(dir, "top.lua",
                    "local g = {}\nerror('broken at the top')\n");
    expect_open_fails(path, 2, "broken at the top");
    snprintf(path, sizeof path, "%s/notable.lua", dir);
    test_write_file(dir, "notable.lua", "return 42\n");
    expect_open_fails(path, 0, "must return a table");
    snprintf(path, sizeof path, "%s/admissible.lua", dir);
    write_game(dir, "admissible.lua", "g.admissible = true", "return {'b'}");
    expect_open_fails(path, 0, "no function 'heuristic'");
    /* issue 32: strings that C would cut at a NUL byte */
    snprintf(path, sizeof path, "%s/nulkey.lua", dir);
    write_game(dir, "nulkey.lua", "g['moves\\0x'] = g.moves", "return {'b'}");
    expect_open_fails(path, 0, "NUL byte");
    snprintf(path, sizeof path, "%s/nulobj.lua", dir);
    write_game(dir, "nulobj.lua", "g.objective = 'score\\0x'", "return {'b'}");
    expect_open_fails(path, 0, "game.objective must be");
}

/* Open the script dir/name and load a one-line puzzle into it. */
static void *open_and_load(const char *dir, const char *name,
                           const struct ps_game **g)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *g = open_game(path);
    struct ps_error err;
    void *inst = (*g)->load(NULL, "p.txt", "x\n", 2, &err);
    if (!inst)
        fail_msg("%s:%d: %s", err.file, err.line, err.msg);
    return inst;
}

/* A search on the game of dir/name ends with `stop`, the error at the
 * script's line `line`, its message containing `needle`. */
static void expect_search_stops(const char *dir, const char *name,
                                double seconds, enum ps_stop_reason stop,
                                int line, const char *needle)
{
    const struct ps_game *g;
    void *inst = open_and_load(dir, name, &g);
    for (size_t i = 0; i < NEXACT; i++) {
        struct ps_run run;
        struct ps_search s;
        enum ps_status st = solve(g, inst, exact[i], seconds, &run, &s);
        assert_int_equal(st, PS_INCOMPLETE);
        assert_int_equal(s.stop, stop);
        assert_int_equal(s.error.line, line);
        assert_non_null(strstr(s.error.file, name));
        if (!strstr(s.error.msg, needle))
            fail_msg("%s: message '%s' lacks '%s'", exact[i], s.error.msg,
                     needle);
        assert_false(run.found);
        ps_run_free(&run);
        ps_search_free(&s);
    }
    g->free_instance(inst);
    ps_lua_game_close(g);
}

static void test_failing_scripts_stop_the_search(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    write_game(dir, "runtime.lua", "",
               "  local t = nil\n  if #s == 2 then return t.x end\n"
               "  return {'b', 'c'}");
    expect_search_stops(dir, "runtime.lua", 0, PS_STOP_ERROR, 6,
                        "attempt to index a nil value");
    write_game(dir, "loop.lua", "", "  while true do end");
    expect_search_stops(dir, "loop.lua", 0.3, PS_STOP_TIME, 5, "time limit");
    write_game(dir, "memory.lua", "",
               "  local t = 'x'\n  for i = 1, 40 do t = t .. t end\n"
               "  return {t}");
    expect_search_stops(dir, "memory.lua", 0, PS_STOP_ERROR, 0,
                        "MiB of memory");
    write_game(dir, "tablestate.lua",
               "function g.start(p) return {} end", "return {'b'}");
    struct ps_error err;
    char path[256];
    snprintf(path, sizeof path, "%s/tablestate.lua", dir);
    const struct ps_game *g = open_game(path);
    ps_error_clear(&err);
    assert_null(g->load(NULL, "p.txt", "x", 1, &err));
    assert_non_null(strstr(err.msg, "key(p, s)"));
    ps_lua_game_close(g);
}

/* The memory cap reached anywhere (loading, a call, the adapter's own
 * tables of states): a clear error, never a crash. The script's top level
 * fills the cap but `room` bytes (in strings of a quarter of what is left,
 * at least 1 MiB, made of 4 KiB blocks, collecting as it goes: making a
 * string takes twice its size for a moment, and the sandbox's first
 * refused allocation is final), then a search makes new states until none
 * fit. With 0.5 MB left loading fails, with more the search does. */
static void test_memory_cap_anywhere(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static const size_t rooms[] = {500000, 6000000};
    for (size_t r = 0; r < sizeof rooms / sizeof rooms[0]; r++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "hog = {}\n"
                 "local block, left = string.rep('x', 4096), %zu\n"
                 "while left >= 4096 do\n"
                 "  local k = math.min(left // 4096, math.max(256, left // "
                 "16384))\n"
                 "  hog[#hog + 1] = string.rep(block, k)\n"
                 "  collectgarbage()\n"
                 "  left = left - k * 4096\n"
                 "end\n"
                 "local g = {}\n"
                 "function g.load(t) return 1 end\n"
                 "function g.start(p) return 1 end\n"
                 "function g.moves(p, s) return {1, 2, 3} end\n"
                 "function g.apply(p, s, m) return s * 3 + m, 1 end\n"
                 "function g.is_goal(p, s) return false end\n"
                 "return g\n",
                 PS_LUA_GAME_MEMORY - rooms[r]);
        test_write_file(dir, "hog.lua", text);
        char path[256];
        snprintf(path, sizeof path, "%s/hog.lua", dir);
        struct ps_error err;
        ps_error_clear(&err);
        const struct ps_game *g = ps_lua_game_open(path, &err);
        void *inst = g ? g->load(NULL, "p.txt", "x", 1, &err) : NULL;
        if (r > 0 && !inst)
            fail_msg("room %zu: the load failed: %s", rooms[r], err.msg);
        if (inst) {
            struct ps_run run;
            struct ps_search s;
            solve(g, inst, "bfs", 0, &run, &s);
            assert_int_equal(s.stop, PS_STOP_ERROR);
            err = s.error;
            ps_run_free(&run);
            ps_search_free(&s);
            g->free_instance(inst);
        }
        if (!strstr(err.msg, "MiB of memory"))
            fail_msg("room %zu: '%s'", rooms[r], err.msg);
        if (g)
            ps_lua_game_close(g);
    }
}

/* A heuristic not marked admissible (here it overestimates at B) guides
 * greedy, but the exact searches ignore it and stay exact: S -a-> A -g->
 * goal costs 11, S -b-> B -g-> goal costs 2. */
static void test_inadmissible_heuristic(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    test_write_file(dir, "trap.lua",
                    "local g = {}\n"
                    "local next = {S = {a = 'A', b = 'B'}, A = {g = 'G'}, "
                    "B = {g = 'G'}, G = {}}\n"
                    "local cost = {A = 10, B = 1}\n"
                    "function g.load(t) return 1 end\n"
                    "function g.start(p) return 'S' end\n"
                    "function g.moves(p, s)\n"
                    "  local list = {}\n"
                    "  for m in pairs(next[s]) do list[#list + 1] = m end\n"
                    "  table.sort(list)\n"
                    "  return list\n"
                    "end\n"
                    "function g.apply(p, s, m) return next[s][m], cost[s] or 1 "
                    "end\n"
                    "function g.is_goal(p, s) return s == 'G' end\n"
                    "function g.heuristic(p, s) return s == 'B' and 100 or 0 "
                    "end\n"
                    "return g\n");
    char path[256];
    snprintf(path, sizeof path, "%s/trap.lua", dir);
    const struct ps_game *g = open_game(path);
    assert_false(g->flags & PS_HAS_HEURISTIC);
    struct ps_error err;
    void *inst = g->load(NULL, "p.txt", "x", 1, &err);
    assert_non_null(inst);
    for (size_t i = 0; i < NEXACT; i++) {
        struct ps_run run;
        assert_int_equal(solve(g, inst, exact[i], 0, &run, NULL), PS_OPTIMAL);
        assert_int_equal(run.value, 2);
        ps_run_free(&run);
    }
    struct ps_run run;
    solve(g, inst, "greedy", 0, &run, NULL);
    assert_int_equal(run.value, 11); /* led by h into the trap */
    ps_run_free(&run);
    g->free_instance(inst);
    ps_lua_game_close(g);
}

/* A bad puzzle file is named with the line load() gave. */
static void test_bad_puzzle_names_its_line(void **unused)
{
    (void)unused;
    const struct ps_game *g = open_game(LUA_GAMES "river.lua");
    struct ps_error err;
    ps_error_clear(&err);
    const char *text = "missionaries 3\nboats 2\n";
    assert_null(g->load(NULL, "bad.txt", text, strlen(text), &err));
    assert_string_equal(err.file, "bad.txt");
    assert_int_equal(err.line, 2);
    ps_lua_game_close(g);
}

/* The command line: the side-by-side table, verify, show, a lab over two
 * files on two jobs, --threads refused, an endless loop ended at --time. */
static void test_cli(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    const char *hanoi = "--game " LUA_GAMES "hanoi.lua";
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "%s --algo bfs,astar,idastar,dfs "
                                 LUA_GAMES "hanoi-4.txt", hanoi), 0);
    assert_non_null(strstr(out, "exact algorithms agree"));
    assert_non_null(strstr(out, "idastar    optimal         15"));
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "%s --algo astar " LUA_GAMES
                                 "hanoi-4.txt > sol.txt && %s verify "
                                 "%s " LUA_GAMES "hanoi-4.txt sol.txt",
                                 hanoi, PSOLVE_BIN, hanoi), 0);
    assert_non_null(strstr(out, "cost: 15"));
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "show %s " LUA_GAMES "hanoi-4.txt",
                                 hanoi), 0);
    assert_non_null(strstr(out, "peg 1: 4 3 2 1"));
    test_write_file(dir, "h3.txt", "disks 3\n");
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "%s --algo astar --jobs 2 --csv h3.txt "
                                 LUA_GAMES "hanoi-4.txt", hanoi), 0);
    assert_non_null(strstr(out, "h3.txt,hanoi,default,astar,optimal,,7,7,"));
    assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                 "%s --algo bfs --threads 2 h3.txt",
                                 hanoi), 2);
    assert_non_null(strstr(out, "runs in one thread"));
    write_game(dir, "loop.lua", "", "  while true do end");
    assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                 "--game loop.lua --algo bfs --time "
                                 "0.3 h3.txt"), 4);
    assert_non_null(strstr(out, "loop.lua:5:"));
    assert_non_null(strstr(out, "time limit"));
    write_game(dir, "runtime.lua", "", "  return nil .. 'x'");
    assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                 "--game runtime.lua --algo bfs "
                                 "h3.txt"), 1);
    assert_non_null(strstr(out, "runtime.lua:5: error: moves:"));
}

/* A stuck C function (a pathological pattern) past --time, and Ctrl-C in
 * an endless loop without --time: both end, never a hang. */
static void test_cli_stuck_and_interrupted(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    test_write_file(dir, "h3.txt", "disks 3\n");
    /* Issue 32: a format_move that loops once the search has found its
     * line (printing it) ran for the sandbox's 9 s past --time 0.5; what
     * follows a timed search keeps a deadline (1 s at least). A generous
     * bound: this checks that the limit holds, not speed. */
    write_game(dir, "fmloop.lua",
               "function g.format_move(p, s, m) if #s >= 2 then while true do "
               "end end return m end",
               "  return {'b'}");
    double t0 = ps_now();
    assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                 "--game fmloop.lua --algo bfs --time 0.5 h3.txt"),
                     1);
    assert_true(ps_now() - t0 < 6);
    assert_non_null(strstr(out, "format_move: the script was still running at the "
                                "search's time limit"));
    write_game(dir, "pattern.lua", "",
               "  local r = ('a'):rep(3000):find('.-.-.-b')\n  return {'b'}");
    assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                 "--game pattern.lua --algo bfs --time 0.2 "
                                 "h3.txt"), 1);
    assert_non_null(strstr(out, "inside one C function"));
    write_game(dir, "loop.lua", "", "  while true do end");
    assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                 "--game loop.lua --algo bfs h3.txt 2>&1 & "
                                 "p=$!; sleep 2; kill -INT $p; wait $p"),
                     5); /* a signal, no solution */
    assert_non_null(strstr(out, "# stopped: interrupted"));
    assert_non_null(strstr(out, "stopped inside the game at "));
    assert_non_null(strstr(out, "loop.lua:5: moves: interrupted (Ctrl-C)"));
    /* Issue 32: a signal while the game loads (before any search) killed
     * psolve by the signal's default action; it now stops the script with
     * a message naming the signal */
    test_write_file(dir, "slowload.lua",
                    "local g = {}\n"
                    "function g.load(t) while true do end end\n"
                    "function g.start(p) return 'a' end\n"
                    "function g.moves(p, s) return {} end\n"
                    "function g.apply(p, s, m) return s, 1 end\n"
                    "function g.is_goal(p, s) return true end\n"
                    "return g\n");
    int st = test_psolve(dir, out, sizeof out, true,
                         "--game slowload.lua h3.txt 2>&1 & p=$!; sleep 1; "
                         "kill -TERM $p; wait $p");
    if (st != 1 || !strstr(out, "slowload.lua:2: error: load: interrupted "
                                "(SIGTERM)"))
        fail_msg("SIGTERM while loading: exit %d:\n%s", st, out);
    /* Issue 32: a game's drawing reached the terminal raw: its control
     * bytes (ESC, the C1 CSI) are shown escaped, its lines kept */
    write_game(dir, "showesc.lua",
               "function g.show(p, s) return s .. '\\27[31m\\194\\155x\\n2nd' "
               "end",
               "return {'b'}");
    assert_int_equal(test_psolve(dir, out, sizeof out, false,
                                 "show --game showesc.lua h3.txt"),
                     0);
    if (strchr(out, '\033') || strstr(out, "\xc2\x9b") ||
        !strstr(out, "a\\x1b[31m\\xc2\\x9bx\n2nd\n"))
        fail_msg("show printed:\n%s", out);
}


/* A score game: sell wines 2 3 5 1 4 from either end of the row, the one
 * sold in year y bringing y times its price; the best is 50. */
static const char wine_game[] =
    "local g = {objective = 'score', max_moves = 2}\n"
    "function g.load(t) return t:gsub('%s', '') end\n"
    "function g.start(p) return p end\n"
    "function g.moves(p, s)\n"
    "  if #s == 0 then return {} end\n"
    "  if #s == 1 then return {'L'} end\n"
    "  return {'L', 'R'}\n"
    "end\n"
    "function g.apply(p, s, m)\n"
    "  local year = #p - #s + 1\n"
    "  if m == 'L' then return s:sub(2), year * tonumber(s:sub(1, 1)) end\n"
    "  return s:sub(1, -2), year * tonumber(s:sub(-1))\n"
    "end\n"
    "function g.upper_bound(p, s)\n"
    "  local sum = 0\n"
    "  for d in s:gmatch('%d') do sum = sum + tonumber(d) end\n"
    "  return sum * #p\n"
    "end\n"
    "return g\n";

/* Issue 32: a score game whose lines run past the max_depth it declares.
 * Every algorithm sizes its lines by max_depth, and each overflowed a heap
 * buffer (dfs, beam, nrpa, nmcs, mc). Now the first line that goes past it
 * stops the search with the game's error, named, exit 1, for every
 * algorithm and the depths 1 to 3 (the sanitizer suite runs this too). */
static const char short_game[] =
    "local g = {}\n"
    "g.objective = 'score'\n"
    "g.max_depth = %d\n"
    "function g.load(t) return tonumber(t) end\n"
    "function g.start(p) return p end\n"
    "function g.moves(p, s) if s > 0 then return {1, 2} end return {} end\n"
    "function g.apply(p, s, m) return math.max(s - m, 0), m end\n"
    "return g\n";

static void test_lines_past_max_depth(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 16];
    test_write_file(dir, "six.txt", "6\n");
    static const char *const algos[] = {
        "greedy", "dfs", "dfs:dfs-beam=0", "beam", "beam:beam-eval=playout",
        "nrpa", "nmcs", "mc"};
    for (int depth = 1; depth <= 3; depth++) {
        char text[600], name[32];
        snprintf(text, sizeof text, short_game, depth);
        snprintf(name, sizeof name, "short%d.lua", depth);
        test_write_file(dir, name, text);
        for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
            /* greedy's 2-move steps end within 3 moves: no breach there */
            if (depth == 3 && strcmp(algos[i], "greedy") == 0)
                continue;
            int st = test_psolve(dir, out, sizeof out, true,
                                 "--game ./%s --algo %s --max-nodes 3000 six.txt",
                                 name, algos[i]);
            if (st != 1 || !strstr(out, "past its max_depth()"))
                fail_msg("depth %d, %s: exit %d:\n%s", depth, algos[i], st,
                         out);
        }
    }
}

static void test_score_game(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    test_write_file(dir, "wine.lua", wine_game);
    char path[256];
    snprintf(path, sizeof path, "%s/wine.lua", dir);
    const struct ps_game *g = open_game(path);
    assert_true(g->flags & PS_MAXIMISE);
    assert_true(g->flags & PS_HAS_BOUND);
    struct ps_error err;
    void *inst = g->load(NULL, "w.txt", "23514\n", 6, &err);
    assert_non_null(inst);
    struct ps_run run;
    assert_int_equal(solve(g, inst, "dfs", 0, &run, NULL), PS_OPTIMAL);
    assert_int_equal(run.value, 50);
    assert_true(run.verified);
    ps_run_free(&run);
    /* The others, Monte Carlo threads included (one: PS_ONE_THREAD). */
    static const char *const others[] = {"greedy", "beam", "mc", "nmcs",
                                          "nrpa"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        solve(g, inst, others[i], 0.5, &run, NULL);
        if (!run.found || !run.verified || run.value > 50 || run.value < 30)
            fail_msg("%s: found %d verified %d value %lld", others[i],
                     run.found, run.verified, (long long)run.value);
        ps_run_free(&run);
    }
    g->free_instance(inst);
    ps_lua_game_close(g);
}

/* Issue 23 #4: costs, gains and heuristics near 2^62..2^63 (hostile-2's
 * lua_overflow.sh) overflowed the searches' sums (UBSan aborts, "optimal"
 * with negative costs). Every algorithm now ends with an error naming the
 * function and the range, never a status "optimal". */
static void test_huge_values_refused(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 14];
    static const char *const cost_algos[] = {"astar", "bfs", "dfs",
                                             "idastar", "greedy"};
    for (size_t i = 0; i < sizeof cost_algos / sizeof *cost_algos; i++) {
        for (int h = 0; h < 2; h++) {
            const char *game = h ? "g_heur_huge.lua" : "g_apply_cost_huge.lua";
            if (h && i == 1)
                continue; /* bfs asks no heuristic: its optimum is true */
            assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                         "--game " HOSTILE "%s --algo %s "
                                         HOSTILE "walk.txt", game,
                                         cost_algos[i]), 1);
            if (!strstr(out, "outside -2^48..2^48"))
                fail_msg("%s %s: %s", game, cost_algos[i], out);
            assert_null(strstr(out, "optimal"));
            assert_non_null(strstr(out, h ? ": heuristic: returned "
                                          : ": apply: returned "));
        }
    }
    static const char *const score_algos[] = {"dfs", "beam", "nmcs",
                                              "nrpa"};
    for (size_t i = 0; i < sizeof score_algos / sizeof *score_algos; i++) {
        assert_int_equal(test_psolve(dir, out, sizeof out, true,
                                     "--game " HOSTILE "s_gain_huge.lua "
                                     "--algo %s --max-nodes 10000 "
                                     HOSTILE "pick.txt", score_algos[i]), 1);
        if (!strstr(out, "apply: returned 9223372036854775807, outside"))
            fail_msg("%s: %s", score_algos[i], out);
        assert_null(strstr(out, "optimal"));
    }
}

/* Issue 23 #8: a script's slot answering with the wrong type or value
 * (format_move a table, a newline or one text for two moves; is_goal 0 or
 * "no"; heuristic "3" or -5; show an endless loop under --html) is an error
 * naming the script's file:line and the slot, exit 1, never `optimal`. */
static void test_wrong_answers_are_errors(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 15];
    static const struct {
        const char *script, *expect;
    } cases[] = {
        {"g_format_move_table", "g_format_move_table.lua:36: error: "
                                "format_move: returned table, not a string"},
        {"g_format_move_newline", "g_format_move_newline.lua:36: error: "
                                  "format_move: gave a move text with the "
                                  "control character 0x0a"},
        {"g_format_move_dup", "reads back as another legal move"},
        {"g_goal_number", "g_goal_number.lua:28: error: is_goal: returned "
                          "0, not true or false"},
        {"g_goal_string", "g_goal_string.lua:28: error: is_goal: returned "
                          "no, not true or false"},
        {"g_heur_string", "g_heur_string.lua:32: error: heuristic: returned "
                          "string where a whole number was expected"},
        {"g_heur_negative", "g_heur_negative.lua:32: error: heuristic: "
                            "returned a negative estimate (-5)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = test_psolve(dir, out, sizeof out, true,
                             "--game " HOSTILE "%s.lua --algo astar " HOSTILE
                             "walk.txt",
                             cases[i].script);
        if (rc != 1 || !strstr(out, cases[i].expect) ||
            strstr(out, "optimal"))
            fail_msg("%s: exit %d, output:\n%s", cases[i].script, rc, out);
        /* No move line is printed: the output holds no "# cost" line. */
        assert_null(strstr(out, "# cost "));
    }
    int rc = test_psolve(dir, out, sizeof out, true,
                         "--game " HOSTILE "g_show_loop.lua --algo astar "
                         "--html page.html " HOSTILE "walk.txt");
    if (rc != 1 || !strstr(out, "g_show_loop.lua:36: error: show:"))
        fail_msg("show loop: exit %d, output:\n%s", rc, out);
}

/* Issue 23 #2: a score game looping in moves or end_value under --time 1:
 * the run ends (stopped inside the game, the replay of its best line given
 * a short slack, not the sandbox's 10 s) and says incomplete, never
 * "optimal" beside "verified: error", never an internal error. */
static void test_score_loop_stops_honestly(void **state)
{
    const char *dir = ((struct test_dir *)*state)->dir;
    static char out[1 << 15];
    static const char *const scripts[] = {"s_moves_loop", "s_end_value_loop"};
    for (size_t i = 0; i < 2; i++) {
        int rc = test_psolve(dir, out, sizeof out, true,
                             "--game " HOSTILE "%s.lua --algo dfs --time 1 "
                             HOSTILE "pick.txt",
                             scripts[i]);
        if (rc != 4 || !strstr(out, "# status: incomplete") ||
            !strstr(out, "# stopped: time limit") || strstr(out, "optimal") ||
            strstr(out, "internal error") || strstr(out, "verified: error") ||
            strstr(out, "?  "))
            fail_msg("%s: exit %d, output:\n%s", scripts[i], rc, out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_reach_their_optima),
        cmocka_unit_test(test_lua_npuzzle_matches_c),
        cmocka_unit_test(test_bad_scripts_refused),
        cmocka_unit_test(test_failing_scripts_stop_the_search),
        cmocka_unit_test(test_memory_cap_anywhere),
        cmocka_unit_test(test_inadmissible_heuristic),
        cmocka_unit_test(test_bad_puzzle_names_its_line),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_cli_stuck_and_interrupted),
        cmocka_unit_test(test_lines_past_max_depth),
        cmocka_unit_test(test_score_game),
        cmocka_unit_test(test_huge_values_refused),
        cmocka_unit_test(test_wrong_answers_are_errors),
        cmocka_unit_test(test_score_loop_stops_honestly),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
