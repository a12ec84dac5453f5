/*
 * options.c - reading and describing options declared as tables
 * (options.h): one parser and one help format for every table.
 */
#include "options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "number.h"

const struct ps_option *ps_option_find(const struct ps_option *table,
                                       const char *name)
{
    for (const struct ps_option *o = table; o && o->name; o++)
        if (strcmp(o->name, name) == 0 ||
            (o->alias && strcmp(o->alias, name) == 0))
            return o;
    return NULL;
}

void ps_option_range(const struct ps_option *o, char *buf, size_t len)
{
    switch (o->type) {
    case PS_OPT_INT:
        snprintf(buf, len, "%.0f..%.0f", o->min, o->max);
        break;
    case PS_OPT_DOUBLE:
        snprintf(buf, len, "%g..%g", o->min, o->max);
        break;
    case PS_OPT_CHOICE:
        snprintf(buf, len, "%s", o->choices);
        break;
    default:
        snprintf(buf, len, "%s", "");
    }
}

void ps_option_format(const struct ps_option *o, const void *base, char *buf,
                      size_t len)
{
    const char *field = (const char *)base + o->offset;
    switch (o->type) {
    case PS_OPT_INT:
        snprintf(buf, len, "%d", *(const int *)(const void *)field);
        break;
    case PS_OPT_DOUBLE:
        snprintf(buf, len, "%.17g", *(const double *)(const void *)field);
        break;
    case PS_OPT_FLAG:
    case PS_OPT_CHOICE:
        snprintf(buf, len, "%d", *(const bool *)(const void *)field ? 1 : 0);
        break;
    case PS_OPT_STRING: {
        const char *v = *(const char *const *)(const void *)field;
        snprintf(buf, len, "%s", v ? v : "-");
        break;
    }
    }
}

/* Is `word` the n-th (0 or 1) of the choices "A|B"? */
static bool choice_is(const char *choices, int n, const char *word)
{
    const char *bar = strchr(choices, '|');
    const char *start = n == 0 ? choices : bar + 1;
    size_t wlen = n == 0 ? (size_t)(bar - choices) : strlen(bar + 1);
    return strlen(word) == wlen && strncmp(start, word, wlen) == 0;
}

bool ps_option_set(const struct ps_option *o, void *base, const char *value,
                   char *msg, size_t len)
{
    char *field = (char *)base + o->offset;
    char shown[128];
    if (value)
        ps_escape(shown, sizeof shown, value, strlen(value), false);
    if (o->type == PS_OPT_FLAG) {
        if (value) {
            snprintf(msg, len, "takes no value");
            return false;
        }
        *(bool *)field = true;
        return true;
    }
    if (!value) {
        snprintf(msg, len, "needs a value");
        return false;
    }
    switch (o->type) {
    case PS_OPT_INT: {
        uint64_t u;
        if (!ps_number_parse_uint(value, (uint64_t)o->min, (uint64_t)o->max,
                                  &u)) {
            snprintf(msg, len, "expects a whole number %.0f..%.0f, got '%s'",
                     o->min, o->max, shown);
            return false;
        }
        int v = (int)u;
        memcpy(field, &v, sizeof v);
        return true;
    }
    case PS_OPT_DOUBLE: {
        double d;
        if (!ps_number_parse_decimal(value, o->min, o->max, &d)) {
            snprintf(msg, len, "expects a number %g..%g (digits and an "
                     "optional '.'), got '%s'", o->min, o->max, shown);
            return false;
        }
        memcpy(field, &d, sizeof d);
        return true;
    }
    case PS_OPT_CHOICE: {
        bool second = choice_is(o->choices, 1, value);
        if (!second && !choice_is(o->choices, 0, value)) {
            const char *bar = strchr(o->choices, '|');
            snprintf(msg, len, "takes %.*s or %s, not '%s'",
                     (int)(bar - o->choices), o->choices, bar + 1, shown);
            return false;
        }
        *(bool *)field = second;
        return true;
    }
    case PS_OPT_STRING:
        memcpy(field, &value, sizeof value);
        return true;
    case PS_OPT_FLAG:
        break;
    }
    return false;
}

void ps_option_help(FILE *out, const struct ps_option *o, const char *who)
{
    char head[64], range[64], text[400];
    snprintf(head, sizeof head, "--%s%s%s", o->name, o->arg ? " " : "",
             o->arg ? o->arg : "");
    ps_option_range(o, range, sizeof range);
    char extra[160] = "";
    if (o->def && range[0])
        snprintf(extra, sizeof extra, " (default %s; %s)", o->def, range);
    else if (o->def)
        snprintf(extra, sizeof extra, " (default %s)", o->def);
    else if (range[0])
        snprintf(extra, sizeof extra, " (%s)", range);
    snprintf(text, sizeof text, "%s%s%s", who ? who : "", o->doc, extra);
    /* The doc wraps at 78 columns under column 21. */
    int col = fprintf(out, "  %-18s", head);
    if (col > 21) {
        fputc('\n', out);
        col = fprintf(out, "%21s", "");
    } else {
        fputc(' ', out);
        col++;
    }
    const char *p = text;
    bool first = true;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (!first && col + 1 + (int)word > 78) {
            fprintf(out, "\n%21s", "");
            col = 21;
        } else if (!first) {
            col += fprintf(out, " ");
        }
        col += fprintf(out, "%.*s", (int)word, p);
        first = false;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}
