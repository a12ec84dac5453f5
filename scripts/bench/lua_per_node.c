/*
 * lua_per_node.c - what a Lua callback per search node would cost.
 *
 * psolve reads rule scripts once and never calls Lua while searching. This
 * program measures the alternative, the optional per-node callbacks of
 * issue 6 (`order(moves)`, `heuristic(state)`), on SameGame playouts where
 * every step orders the moves by gain and picks one of the best three:
 *   c          the ordering in C (what psolve does)
 *   order      the gains go to Lua's order(gains), which returns the order
 *   heuristic  as c, plus the state as text to Lua's heuristic(state)
 * Same boards, same seed, same number of steps in every mode.
 *   scripts/bench_lua_per_node.sh [SECONDS]
 */
#define _GNU_SOURCE
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "rules.h"
#include "search.h"

enum mode { MODE_C, MODE_ORDER, MODE_HEURISTIC };

static const char lua_source[] =
    "function order(gains)\n"
    "  local idx = {}\n"
    "  for i = 1, #gains do idx[i] = i end\n"
    "  table.sort(idx, function(a, b) return gains[a] > gains[b] end)\n"
    "  return idx\n"
    "end\n"
    "function heuristic(state)\n"
    "  local _, empty = state:gsub('%.', '')\n"
    "  return empty\n"
    "end\n";

struct bench {
    const struct ps_game *g;
    void *inst;
    lua_State *L;
    ps_move moves[1024];
    ps_value gains[1024];
    int order[1024];
    unsigned char a[4096], b[4096];
    char text[4096];
};

static void order_in_c(struct bench *b, int n)
{
    for (int i = 0; i < n; i++) {
        int j = i;
        b->order[i] = i;
        for (; j > 0 && b->gains[b->order[j - 1]] < b->gains[i]; j--)
            b->order[j] = b->order[j - 1];
        b->order[j] = i;
    }
}

static void order_in_lua(struct bench *b, int n)
{
    lua_State *L = b->L;
    lua_getglobal(L, "order");
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, b->gains[i]);
        lua_rawseti(L, -2, i + 1);
    }
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        fprintf(stderr, "order: %s\n", lua_tostring(L, -1));
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, i + 1);
        b->order[i] = (int)lua_tointeger(L, -1) - 1;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static void heuristic_in_lua(struct bench *b, const void *state)
{
    FILE *f = fmemopen(b->text, sizeof b->text, "w");
    b->g->print_state(b->inst, state, f, false);
    long len = ftell(f);
    fclose(f);
    lua_getglobal(b->L, "heuristic");
    lua_pushlstring(b->L, b->text, (size_t)len);
    if (lua_pcall(b->L, 1, 1, 0) != LUA_OK) {
        fprintf(stderr, "heuristic: %s\n", lua_tostring(b->L, -1));
        exit(1);
    }
    lua_pop(b->L, 1);
}

/* One playout from the start; returns the number of steps (nodes). */
static long playout(struct bench *b, enum mode mode, struct ps_rng *rng)
{
    const struct ps_game *g = b->g;
    size_t size = g->state_size(b->inst);
    g->initial_state(b->inst, b->a);
    long steps = 0;
    for (;;) {
        int n = g->moves(b->inst, b->a, b->moves, b->gains);
        if (n == 0)
            return steps;
        if (mode == MODE_ORDER)
            order_in_lua(b, n);
        else
            order_in_c(b, n);
        if (mode == MODE_HEURISTIC)
            heuristic_in_lua(b, b->a);
        int pick = b->order[ps_rng_below(rng, (uint32_t)(n < 3 ? n : 3))];
        g->apply(b->inst, b->a, b->moves[pick], b->b);
        memcpy(b->a, b->b, size);
        steps++;
    }
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    static struct bench b;
    b.g = ps_game_find("samegame");
    struct ps_options opt;
    ps_options_default(&opt);
    struct ps_error err;
    void *rules = ps_rules_resolve(b.g, "builtin:samegame", &opt, &err);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    struct ps_gen_options gen = {.rows = 10, .cols = 10, .colors = 5, .seed = 1};
    if (!rules || !mem || !b.g->generate(&gen, mem, &err))
        return 1;
    fclose(mem);
    b.inst = b.g->load(rules, "(generated)", text, len, &err);
    b.L = luaL_newstate();
    luaL_openlibs(b.L);
    if (!b.inst || luaL_dostring(b.L, lua_source) != LUA_OK)
        return 1;
    static const char *const names[] = {"c", "order", "heuristic"};
    double base = 0;
    for (int mode = MODE_C; mode <= MODE_HEURISTIC; mode++) {
        struct ps_rng rng;
        ps_rng_seed(&rng, 1);
        long nodes = 0, playouts = 0;
        double start = ps_now(), now = start;
        while (now - start < seconds) {
            nodes += playout(&b, (enum mode)mode, &rng);
            playouts++;
            now = ps_now();
        }
        double rate = (double)nodes / (now - start);
        if (mode == MODE_C)
            base = rate;
        printf("%-10s %10.0f nodes/s  %6.2f us/node  x%.2f slower than C "
               "(%ld playouts, 10x10 5 colours)\n",
               names[mode], rate, 1e6 / rate, base / rate, playouts);
    }
    lua_close(b.L);
    b.g->free_instance(b.inst);
    free(rules);
    free(text);
    return 0;
}
