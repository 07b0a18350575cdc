/* The narrow phase of polyhedra (polyhedron_pairs.c), listed by the
 * polyhedron's class (polyhedron.c). */
#ifndef FLOE_SHAPES_POLYHEDRON_PAIRS_H
#define FLOE_SHAPES_POLYHEDRON_PAIRS_H

#include "shapes/polyhedron_clip.h"

/* The narrow phase (polyhedron_pairs.c): the polyhedron is always B. */
floe_collide_fn floe_collide_sphere_poly, floe_collide_wall_poly, floe_collide_facet_poly, floe_collide_capsule_poly,
    floe_collide_ellipsoid_poly, floe_collide_infcyl_poly, floe_collide_poly_poly;

#endif
