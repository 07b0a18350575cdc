/* Clumps in the core (docs/decisions.md#clumps-pebbles-are-spheres-that-follow-one-rigid-body):
 * a clump body (shapes/clump.c) is followed in the particle arrays by its
 * n pebbles, sphere bodies without mass of their own that make its
 * contacts. The contact pass's forces on the pebbles are summed into the
 * clump; the integrator moves the clump, and the pebbles are put where it
 * says. */
#ifndef FLOE_CORE_CLUMP_H
#define FLOE_CORE_CLUMP_H

#include "core/world.h"

/* Whether the world holds a clump. */
static inline int floe__has_clumps(const floe_world *w) { return w->store[FLOE_SHAPE_CLUMP].n > 0; }

/* The body whose mass and motion body i's contacts see: its clump for a
 * pebble, else i itself. */
static inline int floe__mass_body(const floe_world *w, int i) {
    return w->clump_of && w->clump_of[i] >= 0 ? w->clump_of[i] : i;
}

/* Pebble k of clump record k at the clump's pose (x, q) and velocities:
 * its centre and velocity. */
static inline void floe__pebble_at(const floe_clump *r, int k, vec3 x, quat q, vec3 v, vec3 om, vec3 *xp, vec3 *vp) {
    vec3 arm = qrotate(q, v3(r->peb[k][0], r->peb[k][1], r->peb[k][2]));
    *xp = vadd(x, arm);
    *vp = vadd(v, vcross(om, arm));
}

/* Rebuilds clump_of (each pebble's clump, -1 for other bodies) after
 * bodies were added or removed; frees it in a world without clumps. 0 when
 * out of memory. */
int floe__clumps_index(floe_world *w);
/* After a contact pass: every pebble's force and torque summed into its
 * clump (in particle order), the pebble's zeroed. */
void floe__clumps_gather(floe_world *w);
/* After the integrator (and at the start, so that a clump moved or set in
 * motion through the API takes its pebbles along): every pebble where its
 * clump's pose puts it, with its velocities; the broad phase's
 * displacement test sees the moves. */
void floe__clumps_follow(floe_world *w);

#endif
