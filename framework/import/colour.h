/*
 * colour.h - colours for psolve import: CIE L*a*b* (perceptual: equal
 * distances look about equally different), the sample of a cell, and the
 * clustering that turns samples into a puzzle's colours.
 */
#ifndef PS_COLOUR_H
#define PS_COLOUR_H

#include <stdbool.h>

#include "image.h"

struct ps_lab {
    float l, a, b;
};

struct ps_lab ps_lab_of_rgb(unsigned r, unsigned g, unsigned b);
/* CIE76 colour difference: about 2.3 is just noticeable, under 10 reads
 * as "the same colour" in a game's flat palette, 25 and up as different. */
float ps_lab_distance(struct ps_lab x, struct ps_lab y);
float ps_lab_chroma(struct ps_lab x);
void ps_lab_to_rgb(struct ps_lab x, unsigned rgb[3]);

/* The colour of a rectangle's middle (x0..x1, y0..y1 exclusive, clipped):
 * the per-channel median of its pixels, robust to a highlight or a mark
 * painted on a cell; `uniform` is the share of those pixels within
 * 15 units of it (1 for a flat cell, low for a rectangle across an edge). */
struct ps_sample {
    struct ps_lab lab;
    float uniform;
};
struct ps_sample ps_sample_rect(const struct ps_image *img, int x0, int y0,
                                int x1, int y1);

/* Group n colours into clusters no closer than `apart`: centre[] gets the
 * cluster centres (at most max_clusters), label[i] the cluster of colour i,
 * weight[i] orders who founds a cluster (higher first). Returns the number
 * of clusters, or -1 if more than max_clusters were needed. */
int ps_cluster_colours(const struct ps_lab *lab, const float *weight, int n,
                       float apart, int max_clusters, struct ps_lab *centre,
                       int *label);

/* The colour most of the picture's border has, within `apart` (a gradient
 * is one colour): false if no colour holds half the border. */
bool ps_border_colour(const struct ps_image *img, float apart, struct ps_lab *out);

#endif
