/*
 * common.c - what every command of psolve shares (cli.h): usage errors and
 * exit statuses, loading a puzzle under its rules, reporting a game's
 * faults, the --algo runs, the rules stamp and the --html page.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "beam.h"
#include "escape.h"
#include "playout.h"
#include "rules.h"
#include "import.h"
#include "textfile.h"

bool cli_option_given(const struct cli *c, const char *name)
{
    for (int i = 0; i < c->ngiven; i++)
        if (strcmp(c->given[i], name) == 0)
            return true;
    return false;
}

int cli_usage_error(const char *fmt, const char *arg)
{
    /* The argument is the user's: a raw control byte would garble the line. */
    char shown[512];
    ps_escape(shown, sizeof shown, arg, strlen(arg), false);
    fprintf(stderr, "psolve: ");
    fprintf(stderr, fmt, shown);
    fprintf(stderr, "\nTry 'psolve --help'.\n");
    return PS_EXIT_USAGE;
}

int cli_print_error(const struct ps_error *err)
{
    char buf[1024];
    ps_error_format(err, buf, sizeof buf);
    fprintf(stderr, "psolve: %s\n", buf);
    return PS_EXIT_ERROR;
}

/* The rules of --rules for game g, a rule script's prune defaults into
 * the book (explicit options win); NULL when they fail, said on stderr
 * (file:line:col). free() them. */
void *cli_rules(struct cli *c, const struct ps_game *g)
{
    struct ps_error err;
    ps_error_clear(&err);
    struct ps_gen_options before = c->gen;
    void *rules = ps_rules_resolve_cli(g, c->rules_spec, &c->book, c->given,
                                       &c->gen, &err);
    c->gen_set |= memcmp(before.value, c->gen.value, sizeof before.value) != 0;
    if (!rules)
        cli_print_error(&err);
    return rules;
}

/* The built-in or plug-in game other than g that reads `text` under its
 * default rules: the one whose format detect() claims it, else the first
 * that loads it; NULL if none does. */
static const struct ps_game *other_game_reading(const struct ps_game *g,
                                                const char *path,
                                                const char *text, size_t len)
{
    char tried[200];
    const struct ps_game *found = ps_game_detect(text, len, tried, sizeof tried);
    if (found)
        return found != g ? found : NULL;
    for (const struct ps_game *const *o = ps_game_list(); *o; o++) {
        if (*o == g)
            continue;
        struct ps_error err;
        ps_error_clear(&err);
        void *rules = ps_rules_resolve(*o, NULL, NULL, &err);
        void *inst = rules ? (*o)->load(rules, path, text, len, &err) : NULL;
        if (inst)
            (*o)->free_instance(inst);
        free(rules);
        if (inst)
            return *o;
    }
    return NULL;
}

/* A puzzle that game g does not read: say which game it looks like (a
 * Water Sort level given to --game samegame). */
static void print_other_game(const struct ps_game *g, const char *path,
                             const char *text, size_t len)
{
    const struct ps_game *o = other_game_reading(g, path, text, len);
    if (!o)
        return;
    fputs("psolve: hint: ", stderr);
    ps_print_escaped(stderr, path);
    fprintf(stderr, " is not in game %s's format but reads as game %s: "
                    "give --game %s\n",
            g->name, o->name, o->name);
}

int cli_gen_rules(struct cli *c, const struct ps_game *g, void **rules)
{
    *rules = cli_rules(c, g);
    if (!*rules)
        return PS_EXIT_ERROR;
    int rc = cli_gen_values(c, g);
    if (rc < 0)
        return -1;
    free(*rules);
    *rules = NULL;
    return rc;
}

bool cli_import(const char *path, const struct ps_game *g, const char *data,
                size_t len, char **text, struct ps_import_seen *seen,
                struct ps_error *err)
{
    enum ps_import_kind kind = PS_IMPORT_ANY;
    if (g && strcmp(g->name, "samegame") == 0)
        kind = PS_IMPORT_GRID;
    else if (g && strcmp(g->name, "watersort") == 0)
        kind = PS_IMPORT_TUBES;
    else if (g)
        return ps_error_set(err, path, 0, 0,
                            "a picture: psolve reads SameGame boards and Water "
                            "Sort levels from pictures, not %s puzzles", g->name);
    struct ps_import_seen *own = seen ? NULL : malloc(sizeof *own);
    if (!seen && !own)
        return ps_error_set(err, path, 0, 0, "out of memory");
    bool ok = ps_import_picture((const unsigned char *)data, len, path, kind,
                                text, seen ? seen : own, err);
    free(own);
    return ok;
}

bool cli_read_puzzle(const char *path, const struct ps_game *g, bool quiet,
                     char **text, size_t *len, struct ps_error *err)
{
    if (!ps_read_file(path, text, len, err))
        return false;
    if (!ps_image_sniff((const unsigned char *)*text, *len)) {
        if (ps_text_check(path, *text, len, err))
            return true;
        free(*text);
        *text = NULL;
        return false;
    }
    char *puzzle;
    bool ok = cli_import(path, g, *text, *len, &puzzle, NULL, err);
    free(*text);
    *text = ok ? puzzle : NULL;
    *len = ok ? strlen(puzzle) : 0;
    if (ok && !quiet)
        fputs(puzzle, stderr);
    return ok;
}

/* Load the rules and the puzzle named by files[0]; on failure print why
 * (file:line:col) and return false. */
bool cli_puzzle_open(struct cli *c, const struct ps_game *g,
                        struct puzzle *pz)
{
    struct ps_error err;
    ps_error_clear(&err);
    pz->game = g;
    pz->inst = NULL;
    pz->rules = cli_rules(c, g);
    if (!pz->rules)
        return false;
    char *text = NULL;
    size_t len;
    bool read = cli_read_puzzle(c->files[0], g, c->quiet, &text, &len, &err);
    if (read)
        pz->inst = g->load(pz->rules, c->files[0], text, len, &err);
    if (pz->inst) {
        free(text);
        return true;
    }
    free(pz->rules);
    cli_print_error(&err);
    if (read && c->game_hint[0]) /* the file is not the default game's */
        fprintf(stderr, "psolve: %s\n", c->game_hint);
    else if (read)
        print_other_game(g, c->files[0], text, len);
    free(text);
    return false;
}

void cli_puzzle_close(struct puzzle *pz)
{
    if (pz->inst)
        pz->game->free_instance(pz->inst);
    free(pz->rules);
}

/* A game's slot that failed in the search (a script's error: an error) or
 * was stopped there by the limit (a note: where the time went). True for
 * an error. */
bool cli_report_search_fault(const struct ps_search *s)
{
    if (!s->error.msg[0])
        return false;
    if (s->stop == PS_STOP_ERROR) {
        cli_print_error(&s->error);
        return true;
    }
    /* Only a script's slot has a place to name; a limit met elsewhere
     * (a pattern database too large for --max-memory) says what it was. */
    if (s->error.file[0])
        fprintf(stderr, "psolve: note: the search stopped inside the game at "
                        "%s:%d: %s\n",
                s->error.file, s->error.line, s->error.msg);
    else
        fprintf(stderr, "psolve: note: the search stopped: %s\n",
                s->error.msg);
    return false;
}

/* A game's slot that failed outside a search (drawing, replaying): print
 * it; true if there was one. */
bool cli_report_game_fault(const struct ps_game *g, const void *inst)
{
    struct ps_error err;
    if (ps_game_fault(g, inst, &err) == PS_FAULT_NONE)
        return false;
    cli_print_error(&err);
    return true;
}

int cli_exit_status_of(enum ps_status st, bool printed, bool interrupted)
{
    switch (st) {
    case PS_OPTIMAL:
    case PS_HEURISTIC: return PS_EXIT_OK;
    case PS_UNSOLVABLE: return PS_EXIT_UNSOLVABLE;
    case PS_INCOMPLETE:
        return printed ? PS_EXIT_OK
                       : interrupted ? PS_EXIT_INTERRUPTED : PS_EXIT_INCOMPLETE;
    }
    return PS_EXIT_ERROR;
}

/* beam's --beam-weights (or a run that nests beam with its options):
 * parsed against the game's weights before the run. */
static bool cli_check_beam_weights(const struct ps_game *g,
                                   const struct ps_variant *v,
                                   struct ps_error *err)
{
    if (v->opt.own.algo != v->algo || strcmp(v->algo->name, "beam") != 0)
        return true;
    const struct ps_beam_options *bo = (const void *)v->opt.own.u.bytes;
    double w[PS_MAX_EVAL_WEIGHTS];
    return !bo->weights || ps_beam_weights_parse(g, bo->weights, w, err);
}

/* The runs of --algo (with their variants and --heuristic lists) and the
 * --policy check, shared by solve and lab; returns -1 to go on, or an exit
 * status. `base` is the common options (after the rule script's). */
int cli_parse_algos(const struct cli *c, const struct ps_game *g,
                       const struct ps_options *base,
                       struct ps_variant *variants, int *nalgos)
{
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_variants_parse(c->algos, c->heuristics, g, c->fe->algorithms, base,
                           variants, PS_LAB_MAX_ALGOS, nalgos, &err))
        return cli_usage_error("%s", err.msg);
    /* --policy, or an item's policy=NAME. */
    for (int i = 0; i < *nalgos; i++) {
        const char *policy = variants[i].opt.policy;
        if (policy && !ps_policy_check(g, policy, &err)) {
            fprintf(stderr, "psolve: %s\n", err.msg);
            return PS_EXIT_USAGE;
        }
        if (!cli_check_beam_weights(g, &variants[i], &err)) {
            fprintf(stderr, "psolve: %s\n", err.msg);
            return PS_EXIT_USAGE;
        }
    }
    return -1;
}

/* The "# rules:" stamp of the rules a puzzle was loaded under. */
void cli_rules_stamp(const struct cli *c, const struct ps_game *g,
                        const void *rules, char *buf, size_t len)
{
    ps_rules_stamp(g, c->rules_spec, rules, buf, len);
}

/* --html: the page, and its path on stderr (a run's results stay alone on
 * stdout). */
bool cli_write_html(const struct cli *c, const struct ps_html_report *rep)
{
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_html_write_file(c->html, rep, &err)) {
        cli_print_error(&err);
        return false;
    }
    if (!c->quiet)
        fprintf(stderr, "psolve: HTML report: %s\n", c->html);
    return true;
}
