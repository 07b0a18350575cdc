/* Wall: axis-aligned infinite plane (woo-models §2.4). A is the wall, B the
 * sphere. A two-sided wall (sense 0) keeps the side it was touched from. */
#include "shapes/shape.h"

int floe_collide_wall_sphere(const floe_world *w, int a, int b, const floe_contact *prev,
                             double gap, floe_raw_contact *out) {
    const floe_wall *wl = &w->walls[w->shape_idx[a]];
    int ax = wl->axis;
    double r = w->radius[b];
    double dist = vcomp(w->pos[b], ax) - vcomp(w->pos[a], ax);
    if (!prev && fabs(dist) > r + gap) return 0;
    double sgn;
    if (wl->sense != 0) sgn = wl->sense;
    else if (prev) sgn = vcomp(prev->g.n, ax) >= 0 ? 1 : -1;
    else sgn = dist >= 0 ? 1 : -1;
    out->n = v3(0, 0, 0);
    vset(&out->n, ax, sgn);
    out->uN = sgn * dist - r;
    out->c = w->pos[b];
    vset(&out->c, ax, vcomp(w->pos[a], ax)); /* sphere centre projected on the plane */
    out->r1 = -r;                             /* flat: takes the sphere's length */
    out->r2 = r;
    return 1;
}
