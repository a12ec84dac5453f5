/*
 * beam_eval.c - beam's --beam-weights: the weights of a game's weighted
 * evaluation (the eval_weights and evaluate_moves_weighted slots), read
 * from "default" (the game's) or "NAME=V,NAME=V,..." (the others the
 * game's). The spec is checked with the other options before a run (the
 * CLI's cli_parse_algos), so a run never meets a bad one.
 */
#include <stdlib.h>
#include <string.h>

#include "beam.h"
#include "game.h"
#include "number.h"

/* A decimal with an optional sign, nothing else (no exponent, no "nan"),
 * of magnitude below 1e6: the sign here, the rest number.c's decimal. */
static bool parse_weight(const char *text, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    bool negative = buf[0] == '-';
    size_t i = buf[0] == '-' || buf[0] == '+';
    if (!ps_number_parse_decimal(buf + i, 0, 999999.999999, out))
        return false;
    if (negative)
        *out = -*out;
    return true;
}

/* The index of the weight `name` (len bytes) in g's table, or -1. */
static int weight_index(const struct ps_game *g, const char *name, size_t len)
{
    for (int k = 0; g->eval_weights[k].name; k++)
        if (strlen(g->eval_weights[k].name) == len &&
            memcmp(g->eval_weights[k].name, name, len) == 0)
            return k;
    return -1;
}

static bool unknown_weight(const struct ps_game *g, const char *name,
                           size_t len, struct ps_error *err)
{
    char names[512] = "";
    for (int k = 0; g->eval_weights[k].name; k++) {
        size_t at = strlen(names);
        snprintf(names + at, sizeof names - at, "%s%s", k ? ", " : "",
                 g->eval_weights[k].name);
    }
    return ps_error_set(err, NULL, 0, 0,
                        "--beam-weights: game %s has no weight '%.*s' (it has "
                        "%s)",
                        g->name, (int)len, name, names);
}

bool ps_beam_weights_parse(const struct ps_game *g, const char *spec,
                           double *w, struct ps_error *err)
{
    if (!g->eval_weights)
        return ps_error_set(err, NULL, 0, 0,
                            "--beam-weights: game %s has no weighted "
                            "evaluation",
                            g->name);
    for (int k = 0; g->eval_weights[k].name; k++)
        w[k] = g->eval_weights[k].def;
    if (strcmp(spec, "default") == 0)
        return true;
    for (const char *p = spec;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq)
            return ps_error_set(err, NULL, 0, 0,
                                "--beam-weights: expected NAME=V, got "
                                "'%.*s' (or 'default')",
                                (int)len, p);
        int k = weight_index(g, p, (size_t)(eq - p));
        if (k < 0)
            return unknown_weight(g, p, (size_t)(eq - p), err);
        if (!parse_weight(eq + 1, len - (size_t)(eq + 1 - p), &w[k]))
            return ps_error_set(err, NULL, 0, 0,
                                "--beam-weights: weight '%s' expects a "
                                "number (digits, an optional sign and '.'), "
                                "got '%.*s'",
                                g->eval_weights[k].name,
                                (int)(len - (size_t)(eq + 1 - p)), eq + 1);
        if (!comma)
            return true;
        p = comma + 1;
    }
}
