/* Weighted recursive coordinate bisection: the spatial decomposition of the
 * distributed layer (docs/mpi.md#decomposition). Needs no MPI: every rank
 * computes the same parts from the same inputs. */
#ifndef FLOE_MPI_RCB_H
#define FLOE_MPI_RCB_H

#include <floe/floe.h>

/* Cuts the n bodies (positions pos, weights weight > 0, global ids id, all
 * distinct) into `parts` parts of nearly equal weight and writes each
 * body's part (0 .. parts - 1) to part_of. Each cut halves the part count
 * (the lower half gets parts / 2), goes across the longest side of the
 * set's bounding box and falls where the weight below it first reaches
 * its share, in the order of (coordinate, id): so the result depends on
 * positions, weights and ids only, never on the order of the input.
 * 0, or -1 (bad arguments, no memory). */
int floe_rcb(const floe_vec3 *pos, const double *weight, const int64_t *id, int n, int parts, int *part_of);

/* Each body's cost, the weight of floe_rcb: 1 for the body, plus 1 for each
 * contact it has and 1 more for each bond (a bonded contact's law is the
 * longer one). weight holds floe_particle_count(w) values. 0, or -1. */
int floe_rcb_weights(const floe_world *w, double *weight);

/* The heaviest part's weight over the mean part weight (1: balanced): the
 * measure the rebalancing threshold is compared with. */
double floe_rcb_imbalance(const double *weight, const int *part_of, int n, int parts);

#endif
