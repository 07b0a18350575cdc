/* The shape seam: per shape, mass properties and a bounding radius for the
 * broad phase; per shape pair, a narrow-phase function (src/collide). */
#ifndef FLOE_SHAPES_SHAPE_H
#define FLOE_SHAPES_SHAPE_H

#include "core/world.h"

/* What a narrow-phase function reports: the equivalent two-sphere contact
 * (woo-models §2.2). r1 < 0 marks a flat body that takes the other's length. */
typedef struct floe_raw_contact {
    vec3 n;          /* unit normal from A to B */
    vec3 c;          /* contact point */
    double uN;       /* gap, < 0 overlap */
    double r1, r2;   /* radii controlling lens and area */
} floe_raw_contact;

/* For a new contact (prev == NULL) returns 1 only if the gap between the
 * shapes is at most `gap` (0: they must overlap); for an existing one always
 * fills `out` and returns 1. */
typedef int floe_collide_fn(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                            floe_raw_contact *out);

/* sphere.c, wall.c, facet.c */
void floe_sphere_mass(double radius, double density, double *mass, double *inertia);
floe_collide_fn floe_collide_sphere_sphere, floe_collide_wall_sphere, floe_collide_facet_sphere;
/* Closest point on triangle (v0,v1,v2) to p. */
vec3 floe_closest_on_triangle(vec3 p, vec3 v0, vec3 v1, vec3 v2);
/* Facet vertices in global coordinates. */
void floe_facet_global(const floe_world *w, int id, vec3 out[3]);

#endif
