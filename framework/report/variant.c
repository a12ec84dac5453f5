/*
 * variant.c - --algo items with options, crossed with --heuristic lists
 * (variant.h).
 */
#include "variant.h"

#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* The keys of algorithm a, for messages: "h=NAME, level=L, ...". */
static void list_keys(const struct ps_algorithm *a, char *buf, size_t len)
{
    int n = snprintf(buf, len, "h=NAME");
    for (const struct ps_option *o = NULL;
         (o = ps_algorithm_next_option(a, o));)
        if (n >= 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, ", %s%s%s", o->name,
                          o->arg ? "=" : "", o->arg ? o->arg : "");
}

/* The nearest key of algorithm a to `key`, or NULL. */
static const char *near_key(const struct ps_algorithm *a, const char *key)
{
    const char *names[64] = {"h", "heuristic", "bound"};
    size_t n = 3;
    for (const struct ps_option *o = NULL;
         n < 64 && (o = ps_algorithm_next_option(a, o));)
        names[n++] = o->name;
    return ps_suggest(key, names, n);
}

/* Apply one KEY[=VALUE] of `item` to v->opt: h= (the heuristic), or an
 * option of the item's algorithm's tables (options.h): its own (in
 * v->opt.own) or a shared one. */
static bool apply_key(struct ps_variant *v, const struct ps_game *g,
                      const char *item, char *key, struct ps_error *err)
{
    char *value = strchr(key, '=');
    if (value)
        *value++ = '\0';
    struct ps_options *o = &v->opt;
    if (!strcmp(key, "h") || !strcmp(key, "heuristic") || !strcmp(key, "bound")) {
        if (!value || !*value)
            return ps_error_set(err, NULL, 0, 0,
                                "--algo item '%s': key '%s' needs a value",
                                item, key);
        if (!ps_heuristic_check(g, value, err))
            return false;
        o->heuristic = ps_heuristic_canonical(g, value);
        return true;
    }
    const struct ps_option *opt = ps_algorithm_option(v->algo, key);
    if (!opt) {
        char keys[400];
        list_keys(v->algo, keys, sizeof keys);
        const char *near = near_key(v->algo, key);
        return ps_error_set(err, NULL, 0, 0,
                            "--algo item '%s': unknown key '%s' for %s%s%s%s "
                            "(keys: %s)",
                            item, key, v->algo->name,
                            near ? " (did you mean " : "", near ? near : "",
                            near ? "?)" : "", keys);
    }
    char msg[300];
    if (!ps_option_set(opt, ps_algorithm_option_base(v->algo, opt, o), value,
                       msg, sizeof msg))
        return ps_error_set(err, NULL, 0, 0, "--algo item '%s': key '%s' %s",
                            item, key, msg);
    return true;
}

/* One item NAME[:KEY[=VALUE]]... into *v; *has_h says whether it set h. */
/* A front end's own algorithms (extra, NULL-terminated) come first. */
static const struct ps_algorithm *find_algorithm(
    const struct ps_algorithm *const *extra, const char *name)
{
    for (int k = 0; extra && extra[k]; k++)
        if (strcmp(extra[k]->name, name) == 0)
            return extra[k];
    return ps_algorithm_find(name);
}

/* The next field of *rest up to `sep`, cut in place; NULL after the last.
 * Unlike strtok, an empty field comes back as "": 'astar:' and 'a,,b' are
 * mistakes to report, not to skip. */
static char *next_field(char **rest, char sep)
{
    char *field = *rest;
    if (!field)
        return NULL;
    char *end = strchr(field, sep);
    if (end) {
        *end = '\0';
        *rest = end + 1;
    } else {
        *rest = NULL;
    }
    return field;
}

static bool parse_item(const char *item, const struct ps_game *g,
                       const struct ps_algorithm *const *extra,
                       const struct ps_options *base, struct ps_variant *v,
                       bool *has_h, struct ps_error *err)
{
    char buf[128];
    if (strlen(item) >= sizeof buf || strlen(item) >= PS_VARIANT_LABEL)
        return ps_error_set(err, NULL, 0, 0, "--algo item '%s' is too long",
                            item);
    memset(v, 0, sizeof *v);
    snprintf(buf, sizeof buf, "%s", item);
    snprintf(v->label, sizeof v->label, "%s", item);
    v->opt = *base;
    char *rest = buf, *name = next_field(&rest, ':');
    if (!*name)
        return ps_error_set(err, NULL, 0, 0,
                            "--algo item '%s' has no algorithm name before "
                            "':'",
                            item);
    v->algo = find_algorithm(extra, name);
    if (!v->algo)
        return ps_error_set(err, NULL, 0, 0,
                            "unknown algorithm '%s' (psolve list shows them)",
                            name);
    ps_algo_options_use(&v->opt, v->algo); /* base's book, else defaults */
    const char *h_before = v->opt.heuristic;
    v->opt.heuristic = NULL;
    for (char *key = next_field(&rest, ':'); key; key = next_field(&rest, ':')) {
        if (!*key)
            return ps_error_set(err, NULL, 0, 0,
                                "--algo item '%s' has an empty option after "
                                "':' (write NAME or NAME:KEY=VALUE)",
                                item);
        if (!apply_key(v, g, item, key, err))
            return false;
    }
    *has_h = v->opt.heuristic != NULL;
    if (!*has_h)
        v->opt.heuristic = h_before;
    return true;
}

static bool uses_h(const struct ps_algorithm *a, const struct ps_game *g)
{
    /* A game whose rules choose its kind (SameGame's fewest_clicks): an
     * algorithm for one kind reads that kind's estimate; one for both
     * (dfs, greedy) is taken as under the default rules, a score game. */
    bool score = ps_game_may_score(g), cost = ps_game_may_cost(g);
    if (score && cost && !a->for_score)
        return a->uses_heuristic;
    return score ? a->uses_bound : a->uses_heuristic;
}

bool ps_variants_parse(const char *algos, const char *heuristics,
                       const struct ps_game *g,
                       const struct ps_algorithm *const *extra,
                       const struct ps_options *base,
                       struct ps_variant *out, int max, int *n,
                       struct ps_error *err)
{
    *n = 0;
    /* The --heuristic names, checked first: the message lists the choices. */
    const char *names[16];
    int nnames = 0;
    char hbuf[256];
    if (heuristics && strlen(heuristics) >= sizeof hbuf)
        return ps_error_set(err, NULL, 0, 0, "--heuristic is too long");
    snprintf(hbuf, sizeof hbuf, "%s", heuristics ? heuristics : "");
    char *hrest = heuristics ? hbuf : NULL;
    for (char *h = next_field(&hrest, ','); h; h = next_field(&hrest, ',')) {
        if (!*h)
            return ps_error_set(err, NULL, 0, 0,
                                "--heuristic '%s' has an empty name",
                                heuristics);
        if (!ps_heuristic_check(g, h, err))
            return false;
        if (nnames == (int)(sizeof names / sizeof names[0]))
            return ps_error_set(err, NULL, 0, 0,
                                "too many names in --heuristic");
        names[nnames++] = ps_heuristic_canonical(g, h);
    }
    if (heuristics && nnames == 0)
        return ps_error_set(err, NULL, 0, 0, "--heuristic needs a name");
    struct ps_options common = *base;
    common.heuristic = nnames == 1 ? names[0] : NULL;
    char list[512];
    if (!*algos)
        return ps_error_set(err, NULL, 0, 0,
                            "--algo needs at least one algorithm");
    if (strlen(algos) >= sizeof list)
        return ps_error_set(err, NULL, 0, 0, "--algo is too long");
    snprintf(list, sizeof list, "%s", algos);
    char *rest = list;
    for (char *item = next_field(&rest, ','); item;
         item = next_field(&rest, ',')) {
        if (!*item)
            return ps_error_set(err, NULL, 0, 0,
                                "--algo '%s' has an empty item (a ',' too "
                                "many?)",
                                algos);
        struct ps_variant v;
        bool has_h;
        if (!parse_item(item, g, extra, &common, &v, &has_h, err))
            return false;
        int copies = !has_h && nnames > 1 && uses_h(v.algo, g) ? nnames : 1;
        for (int k = 0; k < copies; k++) {
            if (*n == max)
                return ps_error_set(err, NULL, 0, 0,
                                    "too many runs: at most %d algorithms x "
                                    "heuristics",
                                    max);
            out[*n] = v;
            if (copies > 1) {
                out[*n].opt.heuristic = names[k];
                snprintf(out[*n].label, sizeof out[*n].label, "%.28s:h=%.16s",
                         item, names[k]);
            }
            (*n)++;
        }
    }
    if (*n == 0)
        return ps_error_set(err, NULL, 0, 0,
                            "--algo needs at least one algorithm");
    return true;
}
