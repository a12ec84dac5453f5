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
