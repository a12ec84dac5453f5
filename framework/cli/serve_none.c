/*
 * serve_none.c - `psolve serve` in a build without GNU libmicrohttpd or
 * Jansson: says so (CMakeLists.txt picks this file or serve.c).
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
                    "without libmicrohttpd or jansson (apt-get install "
                    "libmicrohttpd-dev libjansson-dev, then run cmake "
                    "again)\n");
    return PS_EXIT_USAGE;
}
