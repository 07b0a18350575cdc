/* The size distributions' other half: the smallest size the inlets of a
 * world insert. The random numbers and the samplers are in base/rng.h
 * (docs/decisions.md#radius-distributions-of-the-random-generator). */
#ifndef FLOE_CORE_SIZE_DIST_H
#define FLOE_CORE_SIZE_DIST_H

#include "base/rng.h"

/* The smallest radius (sphere or capsule radius, ellipsoid semi-axis) an
 * inlet of the world can insert (src/core/supply.c), INFINITY without
 * inlets; *mat (may be NULL): that inlet's material. start() and dt: auto
 * take it into account, so that a world that starts empty and is filled by
 * inlets gets a skin and a step. */
double floe__supply_min_radius(const floe_world *w, int *mat);
/* The largest bounding radius of a body any inlet may insert (0 without
 * inlets): the periodic cell's size rule counts these bodies before they
 * exist. */
double floe__supply_max_bound(const floe_world *w);

#endif
