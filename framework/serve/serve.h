/*
 * serve.h - `psolve serve`: a local web app (docs/serve.md). Built when CMake
 * finds GNU libmicrohttpd and Jansson (serve.c); otherwise serve_none.c says
 * it is not built.
 */
#ifndef PS_SERVE_H
#define PS_SERVE_H

/* argv[0] is "serve"; `exe` is the psolve executable every run is started
 * from (argv[0] of psolve). Returns the exit status. */
int ps_serve_main(int argc, char **argv, const char *exe);

#endif
