/*
 * serve_none.c - `psolve serve` in a build without GNU libmicrohttpd or
 * Jansson, or configured with -DPSOLVE_BUILD_SERVE=OFF: says so
 * (CMakeLists.txt picks this file or serve.c and its companions).
 */
#include <stdio.h>

#include "search.h"
#include "serve.h"

int ps_serve_main(int argc, char **argv, const char *exe)
{
    (void)argc;
    (void)argv;
    (void)exe;
    fprintf(stderr, "psolve: serve is not built: this psolve was configured "
                    "without libmicrohttpd or jansson, or with "
                    "-DPSOLVE_BUILD_SERVE=OFF (apt-get install "
                    "libmicrohttpd-dev libjansson-dev, then run cmake "
                    "again)\n");
    return PS_EXIT_USAGE;
}
