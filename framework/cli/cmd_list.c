/*
 * cmd_list.c - psolve list: the games with their presets, the games
 * written in Lua, the rule scripts, the heuristics and bounds, the
 * algorithms with their options.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lua_game.h"
#include "rules.h"

/* One algorithm: its summary, then its options (options.h). */
static void list_algorithm(const struct ps_algorithm *a)
{
    printf("  %-12s %s%s%s\n", a->name, a->summary,
           a->for_score ? " [score games]" : "",
           a->for_cost ? " [cost games]" : "");
    int col = 0;
    for (const struct ps_option *o = NULL;
         (o = ps_algorithm_next_option(a, o));) {
        char word[64];
        int w = snprintf(word, sizeof word, "--%s%s%s", o->name,
                         o->arg ? " " : "", o->arg ? o->arg : "");
        if (col == 0)
            col = printf("%15s", "");
        else if (col + w + 1 > 78)
            col = printf("\n%15s", "") - 1;
        col += printf(" %s", word);
    }
    if (col)
        printf("\n");
}


/* A Lua game's "NAME: SUMMARY" for psolve list; false if it does not load. */
static bool describe_lua_game(const char *path, char *buf, size_t len)
{
    struct ps_error err;
    ps_error_clear(&err);
    const struct ps_game *g = ps_lua_game_open(path, &err);
    if (!g)
        return false;
    snprintf(buf, len, "%s: %s", g->name, g->summary);
    ps_lua_game_close(g);
    return true;
}
int cmd_list(struct cli *c, const struct ps_game *unused)
{
    (void)unused;
    printf("games:\n");
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        printf("  %-12s %s\n", (*g)->name, (*g)->summary);
        for (const struct ps_preset *p = (*g)->presets; p && p->name; p++)
            printf("    --rules builtin:%-12s %s\n", p->name, p->doc);
        for (const struct ps_option *o = (*g)->gen_options; o && o->name; o++)
            ps_option_help(stdout, o, "gen: ");
        for (const struct ps_eval_weight *w = (*g)->eval_weights; w && w->name;
             w++) {
            char set[64];
            snprintf(set, sizeof set, "%s=%g", w->name, w->def);
            printf("    --beam-weights %-18s %s\n", set, w->doc);
        }
    }
    ps_rules_list_lua_games(stdout, describe_lua_game);
    ps_rules_list_scripts(stdout);
    printf("heuristics (cost games) and bounds (score games), --heuristic "
           "NAME:\n");
    for (const struct ps_game *const *g = ps_game_list(); *g; g++) {
        const struct ps_heuristic *h = (*g)->heuristics;
        if (!h || !h->name)
            continue;
        /* A game whose rules choose the kind (SameGame) has a default of
         * each kind. */
        bool score = ps_game_may_score(*g), cost = ps_game_may_cost(*g);
        const char *def_score =
            score ? ps_heuristic_default_name(*g, true) : "";
        const char *def_cost =
            cost ? ps_heuristic_default_name(*g, false) : "";
        printf("  %s:\n", (*g)->name);
        for (; h->name; h++) {
            bool is_score = strcmp(def_score, h->name) == 0;
            bool is_cost = strcmp(def_cost, h->name) == 0;
            printf("    %-17s %-14s %s%s\n", h->name,
                   h->admissible ? "[admissible]" : "[inadmissible]", h->doc,
                   !is_score && !is_cost ? ""
                   : score && cost       ? (is_score ? " [default: score]"
                                                     : " [default: cost]")
                                         : " [default]");
        }
        cli_list_pattern_sets(stdout, *g);
    }
    printf("algorithms:\n");
    for (const struct ps_algorithm *const *a = ps_algorithm_list(); *a; a++)
        list_algorithm(*a);
    for (const struct ps_algorithm *const *a = c->fe->algorithms; a && *a; a++)
        list_algorithm(*a);
    return PS_EXIT_OK;
}
