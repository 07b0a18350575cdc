/* What a horizontal water surface cuts off a polyhedron (submerged.h has
 * the conventions: up is the global vertical in the body frame, d the
 * surface's height above the centroid). Exact: the hull clipped at the
 * surface (polyhedron_clip.c). */
#ifndef FLOE_SHAPES_POLYHEDRON_WATER_H
#define FLOE_SHAPES_POLYHEDRON_WATER_H

#include "shapes/submerged.h"

void floe_poly_submerged(const void *poly, vec3 up, double d, floe_submerged *out);
double floe_poly_section(const void *poly, vec3 up, double h);
double floe_poly_frontal(const void *poly, vec3 up, vec3 m, double d);

#endif
