/* The registry of algorithms, generated from algorithms.def. */
#include <string.h>

#include "search.h"

#define ALGORITHM(name) extern const struct ps_algorithm ps_algo_##name;
#include "algorithms.def"
#undef ALGORITHM

static const struct ps_algorithm *const algorithms[] = {
#define ALGORITHM(name) &ps_algo_##name,
#include "algorithms.def"
#undef ALGORITHM
    NULL,
};

const struct ps_algorithm *const *ps_algorithm_list(void)
{
    return algorithms;
}

const struct ps_algorithm *ps_algorithm_find(const char *name)
{
    for (int i = 0; algorithms[i]; i++)
        if (strcmp(algorithms[i]->name, name) == 0)
            return algorithms[i];
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
