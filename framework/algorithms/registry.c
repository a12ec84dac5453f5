/*
 * registry.c - the built-in algorithms, from algorithms.def: the one list
 * the kernel's registry reads (ps_builtin_algorithms, declared in search.h,
 * looked up by kernel/algorithms.c). It is defined here, above the kernel,
 * because it names every algorithm.
 */
#include <stddef.h>

#include "search.h"

#define ALGORITHM(name) extern const struct ps_algorithm ps_algo_##name;
#include "algorithms.def"
#undef ALGORITHM

const struct ps_algorithm *const ps_builtin_algorithms[] = {
#define ALGORITHM(name) &ps_algo_##name,
#include "algorithms.def"
#undef ALGORITHM
    NULL,
};
