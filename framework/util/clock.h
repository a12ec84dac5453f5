/*
 * clock.h - the one clock of psolve: monotonic seconds, for limits, the
 * trace's times and the anytime curve. Its own file, so that the trace
 * (trace.c) and the driver (search.c) both read it without including each
 * other.
 */
#ifndef PS_CLOCK_H
#define PS_CLOCK_H

double ps_now(void); /* monotonic seconds */

#endif
