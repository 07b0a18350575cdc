/* L6Geom: turns a shape pair's raw contact into the shape-agnostic contact
 * geometry every model uses (woo-models §2.2). */
#ifndef FLOE_COLLIDE_L6GEOM_H
#define FLOE_COLLIDE_L6GEOM_H

#include "shapes/shape.h"

/* First step of a contact: frame from the normal, lens and area, zero
 * relative velocities. */
void floe_l6geom_create(floe_geom *g, const floe_raw_contact *r, int legacy_lens);

/* Later steps: carry the frame with the pair's rigid motion, relative
 * velocities at the mid-step contact point. */
void floe_l6geom_update(floe_geom *g, const floe_raw_contact *r, double dt, int renormalize,
                        vec3 xa, vec3 va, vec3 wa, vec3 xb, vec3 vb, vec3 wb);

#endif
