/*
 * algorithms.c - the registry of algorithms and the book of every
 * algorithm's own options (search.h): what the kernel, the rules layer and
 * the command line ask of algorithms they do not name. The list itself is
 * defined above the kernel (ps_builtin_algorithms: algorithms/registry.c,
 * from algorithms.def), as the games' list is (games/registry.c).
 */
#include <stdio.h>
#include <string.h>

#include "search.h"

const struct ps_algorithm *const *ps_algorithm_list(void)
{
    return ps_builtin_algorithms;
}

const struct ps_algorithm *ps_algorithm_find(const char *name)
{
    for (int i = 0; ps_builtin_algorithms[i]; i++)
        if (strcmp(ps_builtin_algorithms[i]->name, name) == 0)
            return ps_builtin_algorithms[i];
    return NULL;
}

const struct ps_option *ps_algorithm_next_option(const struct ps_algorithm *a,
                                                 const struct ps_option *prev)
{
    const struct ps_option *o = prev ? prev + 1 : a->options;
    if (o && o->name)
        return o;
    const struct ps_option *own_end = a->options;
    while (own_end && own_end->name)
        own_end++;
    if (prev && o != own_end)
        return NULL; /* the end of the shared table */
    const struct ps_option *s = a->shared_options;
    return s && s->name ? s : NULL;
}

static int book_index(const struct ps_algo_book *b,
                      const struct ps_algorithm *a)
{
    for (int i = 0; i < b->n; i++)
        if (b->v[i].algo == a)
            return i;
    return -1;
}

static void book_add(struct ps_algo_book *b, const struct ps_algorithm *a)
{
    if (b->n == PS_MAX_ALGORITHMS || book_index(b, a) >= 0)
        return; /* tests/test_options.c checks every algorithm fits */
    ps_algo_options_default(&b->v[b->n++], a);
}

void ps_algo_book_init(struct ps_algo_book *b,
                       const struct ps_algorithm *const *extra)
{
    b->n = 0;
    for (int i = 0; ps_builtin_algorithms[i]; i++)
        book_add(b, ps_builtin_algorithms[i]);
    for (int k = 0; extra && extra[k]; k++)
        book_add(b, extra[k]);
}

const struct ps_algo_options *ps_algo_book_find(const struct ps_algo_book *b,
                                                const struct ps_algorithm *a)
{
    int i = book_index(b, a);
    return i < 0 ? NULL : &b->v[i];
}

struct ps_algo_options *ps_algo_book_entry(struct ps_algo_book *b,
                                           const struct ps_algorithm *a)
{
    int i = book_index(b, a);
    return i < 0 ? NULL : &b->v[i];
}

bool ps_algo_book_set(struct ps_algo_book *b, struct ps_options *common,
                      const char *name, const char *value, char *msg,
                      size_t len)
{
    bool found = false;
    for (int i = 0; i < b->n; i++) {
        const struct ps_algorithm *a = b->v[i].algo;
        const struct ps_option *o = ps_algorithm_option(a, name);
        if (!o)
            continue;
        found = true;
        void *base = ps_algorithm_option_is_own(a, o) ? (void *)b->v[i].u.bytes
                                                       : (void *)common;
        if (!ps_option_set(o, base, value, msg, len))
            return false;
    }
    if (!found)
        snprintf(msg, len, "is no algorithm's option");
    return found;
}
