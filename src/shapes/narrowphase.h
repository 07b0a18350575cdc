/* The shape x shape table of narrow-phase functions. */
#ifndef FLOE_SHAPES_NARROWPHASE_H
#define FLOE_SHAPES_NARROWPHASE_H

#include "shapes/shape.h"

/* Function for the ordered pair (shape of A, shape of B), NULL if the pair
 * never collides (e.g. wall-wall) or is not in rank order (floe_shape_rank). */
floe_collide_fn *floe_narrowphase(int shape_a, int shape_b);
/* Position of a shape in the pair order: A has the lower rank. */
int floe_shape_rank(int shape);

#endif
