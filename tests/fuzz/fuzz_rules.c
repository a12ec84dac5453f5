/*
 * fuzz_rules - Lua rule-script loading. Input: the script. It runs in the
 * rules sandbox (lua_sandbox.h) with a small instruction and memory budget,
 * so one input costs milliseconds; rules("NAME") finds the shipped scripts.
 * The rules are filled for the game the script names, or else for samegame
 * and watersort. Oracles: loading ends (libFuzzer's -timeout catches a hang);
 * an error has a message; the same script read twice gives the same rules
 * and search defaults, byte for byte (no clock, no unseeded randomness);
 * rules that pass the game's rules_check keep every game oracle
 * (fuzz_check_game) on a small board of that game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "lua_rules.h"
#include "search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A small board per game, played under the fuzzed rules. */
static const char *small_board(const struct ps_game *g)
{
    if (strcmp(g->name, "samegame") == 0)
        return "11223\n12233\n44553\n41153\n45553\n";
    if (strcmp(g->name, "watersort") == 0)
        return "capacity 4\n1 1 2 3\n2 3 1 2\n3 2 3 1\n-\n";
    return "1 2 3\n4 5 6\n7 . 8\n";
}

static bool find_shipped_script(const char *name, char *path, size_t len)
{
    int n = snprintf(path, len, "%s/scripts/rules/%s.lua", PSOLVE_SOURCE_DIR,
                     name);
    if (n < 0 || (size_t)n >= len)
        return false;
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    return f != NULL;
}

static const struct ps_lua_options budget = {
    .instructions = 100000,
    .memory = (size_t)8 << 20,
    .quiet = true,
    .find_script = find_shipped_script,
};

/* Run the script and fill rules (defaults first) and the algorithms'
 * options in book for g. False when the script or its rules are refused;
 * then err must say why. */
static bool fill_rules(const char *path, const struct ps_game *g, void *rules,
                       struct ps_algo_book *book)
{
    struct ps_error err;
    ps_error_clear(&err);
    memset(rules, 0, g->rules_size ? g->rules_size : 1);
    ps_algo_book_init(book, NULL);
    if (!ps_rules_preset(g, rules, NULL, &err))
        fuzz_fail(g, "the default rules: %s", err.msg);
    struct ps_lua_rules *s = ps_lua_rules_open(path, &budget, &err);
    struct ps_gen_options gen = {0};
    bool ok = s && ps_lua_rules_fill(s, g, rules, book, NULL, &gen, &err) &&
              (!g->rules_check || g->rules_check(rules, &err));
    ps_lua_rules_close(s);
    if (!ok && err.msg[0] == '\0')
        fuzz_fail(g, "a refused script without a message");
    return ok;
}

/* Run the script once for its `game` key: false when the script fails or
 * names an unknown game; *g = the named game or NULL. */
static bool script_game(const char *path, const struct ps_game **g)
{
    struct ps_error err;
    ps_error_clear(&err);
    const char *name = NULL;
    struct ps_lua_rules *s = ps_lua_rules_open(path, &budget, &err);
    bool ok = s && ps_lua_rules_game(s, &name, &err);
    *g = ok && name ? ps_game_find(name) : NULL;
    ok = ok && (!name || *g);
    ps_lua_rules_close(s);
    if (!s && err.msg[0] == '\0')
        fuzz_fail(NULL, "a failed script without a message");
    return ok;
}

static void check_for_game(const char *path, const struct ps_game *g)
{
    size_t size = g->rules_size ? g->rules_size : 1;
    void *rules = malloc(size), *again = malloc(size);
    static struct ps_algo_book book, book_again;
    if (!rules || !again)
        fuzz_fail(g, "out of memory");
    bool ok = fill_rules(path, g, rules, &book);
    bool ok_again = fill_rules(path, g, again, &book_again);
    if (ok != ok_again)
        fuzz_fail(g, "the same script accepted once and refused once");
    if (ok && (memcmp(rules, again, size) != 0 ||
               memcmp(&book, &book_again, sizeof book) != 0))
        fuzz_fail(g, "the same script gave two different sets of rules");
    if (ok) {
        const char *text = small_board(g);
        struct ps_error err;
        ps_error_clear(&err);
        void *inst = g->load(rules, "small", text, strlen(text), &err);
        if (inst) {
            fuzz_check_game(g, rules, inst, 32, 1);
            g->free_instance(inst);
        }
    }
    free(rules);
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("rules.lua", data, size);
    const struct ps_game *g;
    if (!script_game(path, &g))
        return 0;
    if (g) {
        check_for_game(path, g);
    } else {
        check_for_game(path, ps_game_find("samegame"));
        check_for_game(path, ps_game_find("watersort"));
    }
    return 0;
}
