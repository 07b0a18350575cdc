/* What a horizontal water surface cuts off a body: the submerged volume, its
 * centroid (the centre of buoyancy), the area of the section at the surface
 * (waterplane), sections at other heights and the submerged part of the
 * silhouette seen along a horizontal direction (frontal area). Pure
 * geometry of a shape's dimensions; the caller gives the surface in the
 * body frame (docs/models/water.md#geometry):
 *
 *   up  unit vector of the global vertical (+z) in the body frame,
 *       qrotate(qconj(q), (0, 0, 1)) for orientation q;
 *   d   height of the surface above the body's centre (level - z).
 *
 * Sphere and ellipsoid: closed forms (a plane cuts an ellipsoid in a cap
 * that the affine map to the unit ball turns into a spherical cap).
 * Capsule: the volume, centroid and sections are integrals along the axis
 * of closed-form circular segments, done by 16-point Gauss-Legendre on the
 * pieces between the points where the surface touches a cross-section, in
 * a variable that makes the square-root ends smooth; relative error below
 * 1e-10 (tests/test_water.c checks it against the exact horizontal and
 * vertical cases and an independent integration). The capsule's frontal
 * area is exact. */
#ifndef FLOE_SHAPES_SUBMERGED_H
#define FLOE_SHAPES_SUBMERGED_H

#include "base/vec.h"

typedef struct floe_submerged {
    double volume;     /* m^3 below the surface */
    vec3 centroid;     /* centre of buoyancy relative to the body centre, body frame (0 when volume is 0) */
    double waterplane; /* m^2: area of the section at the surface (0 unless the surface cuts the body) */
} floe_submerged;

void floe_sphere_submerged(double radius, vec3 up, double d, floe_submerged *out);
void floe_ellipsoid_submerged(vec3 semi, vec3 up, double d, floe_submerged *out);
/* Capsule: radius, shaft (distance between the cap centres) along body x. */
void floe_capsule_submerged(double radius, double shaft, vec3 up, double d, floe_submerged *out);

/* Area of the horizontal section at height h above the centre (0 outside). */
double floe_sphere_section(double radius, double h);
double floe_ellipsoid_section(vec3 semi, vec3 up, double h);
double floe_capsule_section(double radius, double shaft, vec3 up, double h);

/* Area of the part below the surface of the silhouette seen along the
 * horizontal unit vector m (body frame, perpendicular to up). */
double floe_sphere_frontal(double radius, double d);
double floe_ellipsoid_frontal(vec3 semi, vec3 up, vec3 m, double d);
double floe_capsule_frontal(double radius, double shaft, vec3 up, vec3 m, double d);

#endif
