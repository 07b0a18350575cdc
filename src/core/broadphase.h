/* Broad phase: Verlet pair list over a uniform cell grid. */
#ifndef FLOE_CORE_BROADPHASE_H
#define FLOE_CORE_BROADPHASE_H

#include "core/world.h"

/* Square of the largest distance any point of body i moved since the last
 * rebuild (squared: no square root for the many round bodies). Spheres
 * inline; other bodies through their class (floe__moved2_shape). */
/* pure: reads only, so the integrator's loop need not reload what it holds */
double floe__moved2_shape(const floe_world *w, int i, double d2) __attribute__((pure));
static inline double floe_moved2(const floe_world *w, int i) {
    double d2 = vlen2(vsub(w->pos[i], w->bp.ref_pos[i]));
    return w->shape[i] == FLOE_SHAPE_SPHERE ? d2 : floe__moved2_shape(w, i, d2);
}

/* 1 if some body moved more than half the skin since the last rebuild. */
int floe_broadphase_needs_rebuild(const floe_world *w);
/* Rebuilds the pair list and links live contacts to their pairs. Errors
 * (with the world's message): FLOE_ERR_MEMORY, FLOE_ERR_RUNAWAY when the
 * bodies' extent or the skin is not finite. */
floe_status floe_broadphase_rebuild(floe_world *w);

#endif
