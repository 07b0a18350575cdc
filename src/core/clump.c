/* Clumps in the core: the pebbles' index, the forces summed into the clump
 * and the pebbles moved with it (core/clump.h). Serial passes in particle
 * order, so that the sums do not depend on the thread count; a pass is one
 * visit of each pebble, the cost of the spheres' own integration. */
#include "core/clump.h"
#include "core/batch.h"
#include "core/broadphase.h"

#include <stdlib.h>

int floe__clumps_index(floe_world *w) {
    if (!floe__has_clumps(w)) {
        free(w->clump_of);
        w->clump_of = NULL;
        w->clump_cap = 0;
        return 1;
    }
    if (!floe__grow((void **)&w->clump_of, &w->clump_cap, w->np > 0 ? w->np : 1, sizeof *w->clump_of)) return 0;
    for (int i = 0; i < w->np; i++) w->clump_of[i] = -1;
    for (int i = 0; i < w->np; i++) {
        if (w->shape[i] != FLOE_SHAPE_CLUMP) continue;
        const floe_clump *r = floe__shape_data(w, i);
        for (int k = 1; k <= r->n && i + k < w->np; k++) w->clump_of[i + k] = i;
        i += r->n;
    }
    return 1;
}

void floe__clumps_gather(floe_world *w) {
    if (!w->clump_of) return;
    for (int c = 0; c < w->np; c++) {
        if (w->shape[c] != FLOE_SHAPE_CLUMP) continue;
        const floe_clump *r = floe__shape_data(w, c);
        vec3 f = w->force[c], t = w->torque[c];
        for (int k = 0; k < r->n; k++) {
            int i = c + 1 + k;
            vec3 arm = qrotate(w->ori[c], v3(r->peb[k][0], r->peb[k][1], r->peb[k][2]));
            f = vadd(f, w->force[i]);
            t = vadd(t, vadd(w->torque[i], vcross(arm, w->force[i])));
            w->force[i] = w->torque[i] = v3(0, 0, 0);
        }
        w->force[c] = f;
        w->torque[c] = t;
        /* the integrator reads the sums of a chunk marked written only */
        if (w->ftouch && (c >> FLOE_TOUCH_SHIFT) < w->ftouch_n) w->ftouch[c >> FLOE_TOUCH_SHIFT] = 1;
        c += r->n;
    }
}

void floe__clumps_follow(floe_world *w) {
    if (!w->clump_of) return;
    double moved2 = w->bp.max_moved2;
    for (int c = 0; c < w->np; c++) {
        if (w->shape[c] != FLOE_SHAPE_CLUMP) continue;
        const floe_clump *r = floe__shape_data(w, c);
        const vec3 x = w->pos[c], v = w->vel[c], om = w->angvel[c];
        const quat q = w->ori[c];
        for (int k = 0; k < r->n; k++) {
            int i = c + 1 + k;
            floe__pebble_at(r, k, x, q, v, om, &w->pos[i], &w->vel[i]);
            w->angvel[i] = om;
            w->ori[i] = q;
            if (!w->bp.valid) continue; /* a rebuild is due anyway (and ref_pos may not be set) */
            double d2 = vlen2(vsub(w->pos[i], w->bp.ref_pos[i]));
            if (!(d2 <= moved2)) moved2 = d2; /* a NaN forces a rebuild */
        }
        c += r->n;
    }
    w->bp.max_moved2 = moved2;
}
