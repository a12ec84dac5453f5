/*
 * lattice.h - the regular spacing of a grid in a picture, one axis at a
 * time: lines at phase + k * period along a profile of edge strengths.
 */
#ifndef PS_LATTICE_H
#define PS_LATTICE_H

#include "image.h"

struct ps_lattice {
    double period; /* pixels between grid lines (fractional: scaled pictures) */
    double phase;  /* where one line lies, 0 <= phase < period */
};

/* Edge strength summed along each column (axis 0: profile[x], n = w) or
 * along each row (axis 1: profile[y], n = h); malloc'd, NULL if out of
 * memory. */
double *ps_edge_profile(const struct ps_image *img, int axis, int *n);

/* Up to max_out plausible lattices for a profile: the two shortest strong
 * autocorrelation peaks and their halves and thirds, each refined to a
 * fractional period (ps_lattice_near) with its two symmetric phases. */
int ps_lattice_candidates(const double *profile, int n, int min_period,
                          int max_period, struct ps_lattice *out, int max_out);

/* The two lattices (both symmetric phases) of the spacing that fits the
 * profile best within 8% of `period`. */
void ps_lattice_near(const double *profile, int n, double period,
                     struct ps_lattice out[2]);

#endif
