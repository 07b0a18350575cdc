/* Broad phase: Verlet pair list over a uniform cell grid. */
#ifndef FLOE_CORE_BROADPHASE_H
#define FLOE_CORE_BROADPHASE_H

#include "core/world.h"

/* Square of the largest distance any point of body i moved since the last
 * rebuild (squared: no square root for the many round bodies). */
static inline double floe_moved2(const floe_world *w, int i) {
    double d2 = vlen2(vsub(w->pos[i], w->bp.ref_pos[i]));
    const floe_shape_class *c;
    if (w->shape[i] != FLOE_SHAPE_SPHERE && ((c = floe__class_of(w, i))->flags & FLOE_SHAPE_TURNS)) {
        /* rotation moves the surface: bound by angle x farthest point, which
         * is what re-bins a body whose oriented box may have left its skin */
        quat dq = qmul(w->ori[i], qconj(w->bp.ref_ori[i]));
        double ang = 2.0 * acos(fmin(1.0, fabs(dq.w)));
        double ext = c->reach ? c->reach(floe__shape_data(w, i)) : w->bound[i];
        double d = sqrt(d2) + ang * ext;
        d2 = d * d;
    }
    return d2;
}

/* 1 if some body moved more than half the skin since the last rebuild. */
int floe_broadphase_needs_rebuild(const floe_world *w);
/* Rebuilds the pair list and links live contacts to their pairs. Errors
 * (with the world's message): FLOE_ERR_MEMORY, FLOE_ERR_RUNAWAY when the
 * bodies' extent or the skin is not finite. */
floe_status floe_broadphase_rebuild(floe_world *w);

#endif
