/*
 * options.h - options declared as data. An algorithm (and a game, for its
 * gen parameters) lists its options in a table of struct ps_option: name,
 * type, range, default and one doc line, over the fields of the struct it
 * reads (an algorithm's own options struct, search.h). Every reader works
 * from the tables: the command line's long options (--NAME V), --algo
 * ALGO:NAME=V, the prune = {...} keys of Lua rule scripts, --help, psolve
 * help ALGO and psolve list. A range is enforced where the value is read:
 * out of range is an error naming the range, never a clamped or replaced
 * value.
 */
#ifndef PS_OPTIONS_H
#define PS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum ps_option_type {
    PS_OPT_INT,    /* int, a whole number in [min, max] */
    PS_OPT_DOUBLE, /* double, a plain decimal number in [min, max] */
    PS_OPT_FLAG,   /* bool set to true by the bare option; takes no value */
    PS_OPT_CHOICE, /* bool: choices "A|B", A = false, B = true */
    PS_OPT_STRING, /* const char *, pointing into the argument */
};

struct ps_option {
    const char *name;      /* --NAME and --algo ALGO:NAME=V; NULL ends a table */
    enum ps_option_type type;
    size_t offset;         /* of the field in the struct the table is over */
    double min, max;       /* INT, DOUBLE */
    const char *choices;   /* CHOICE: "false-word|true-word" */
    const char *arg;       /* the value's name in help ("K"); NULL for FLAG */
    const char *def;       /* the default as help shows it, NULL = none */
    const char *doc;       /* one line, lower case, no final full stop */
    const char *alias;     /* a short --algo key ("w" for weight), or NULL */
    /* Lua rule scripts: prune = { KEY = value } sets this option unless the
     * command line gave it (docs/rules.md); NULL = not a prune key. */
    const char *prune;
    bool prune_negated;    /* FLAG: prune KEY = true means the flag is off */
    bool prune_score_only; /* the prune key is refused on cost games */
};

/* The entry of `table` called `name` (or whose alias it is), or NULL. */
const struct ps_option *ps_option_find(const struct ps_option *table,
                                       const char *name);

/* Set the option's field in `base` from the text `value` (NULL for a bare
 * FLAG). False with msg set to what is wrong ("expects a whole number
 * 1..6, got '0'"; the value escaped), for the caller to prefix with where
 * the value came from. */
bool ps_option_set(const struct ps_option *o, void *base, const char *value,
                   char *msg, size_t len);

/* The option's value in `base` as text that names it exactly: "3",
 * "0.10000000000000001" (every digit of a double), "1" for a set FLAG or
 * CHOICE's second word, "-" for an unset STRING. */
void ps_option_format(const struct ps_option *o, const void *base, char *buf,
                      size_t len);

/* The option's range or choices as help and errors show them: "1..6",
 * "0..1e+09", "mean|max"; "" for FLAG and STRING. */
void ps_option_range(const struct ps_option *o, char *buf, size_t len);

/* One help line for the option: "  --NAME ARG   DOC (default D; RANGE)"
 * wrapped at 78 columns, with `who` ("nrpa: ") before the doc. */
void ps_option_help(FILE *out, const struct ps_option *o, const char *who);

#endif
