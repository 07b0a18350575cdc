/* L6Geom: turns a shape pair's raw contact into the shape-agnostic contact
 * geometry every model uses (as Woo's L6Geom; docs/geometry.md). */
#ifndef FLOE_L6GEOM_L6GEOM_H
#define FLOE_L6GEOM_L6GEOM_H

#include "l6geom/geom.h"

/* First step of a contact: frame from the normal into g, its area and lens. */
void floe_l6geom_create(floe_geom *g, double *area, double lens[2], const floe_raw_contact *r, int legacy_lens);

/* Relative velocity of B with respect to A at the (mid-step) contact point
 * cm and relative angular velocity, in the frame (n, t1, t2). Positions are
 * at t+dt, velocities at t+dt/2, so the bodies stood at x - dt/2 v. */
FLOE_KERNEL void floe_l6geom_rates(vec3 cm, vec3 n, vec3 t1, vec3 t2, double dt, vec3 xa, vec3 va, vec3 wa, vec3 xb,
                                   vec3 vb, vec3 wb, vec3 *vel, vec3 *angvel) {
    vec3 ba = vsub(cm, vmadd(xa, va, -0.5 * dt));
    vec3 bb = vsub(cm, vmadd(xb, vb, -0.5 * dt));
    vec3 vrel = vsub(vadd(vb, vcross(wb, bb)), vadd(va, vcross(wa, ba)));
    vec3 wrel = vsub(wb, wa);
    *vel = v3(vdot(n, vrel), vdot(t1, vrel), vdot(t2, vrel));
    *angvel = v3(vdot(n, wrel), vdot(t1, wrel), vdot(t2, wrel));
}

/* Later steps: carry the frame with the pair's rigid motion, relative
 * velocities at the mid-step contact point into vel, angvel. Inline: it
 * runs for every contact every step. */
FLOE_KERNEL void floe_l6geom_update(floe_geom *g, const floe_raw_contact *r, double dt, int renormalize, vec3 xa,
                                    vec3 va, vec3 wa, vec3 xb, vec3 vb, vec3 wb, vec3 *vel, vec3 *angvel) {
    vec3 n0 = g->n, n = r->n, t1 = g->t1;
    vec3 nm = vadd(n0, n);
    double l = vlen(nm);
    nm = l > 0 ? vscale(nm, 1.0 / l) : n;
    /* rigid rotation of the frame: tilt of the normal plus the mean spin about it */
    vec3 rho = vadd(vcross(n0, n), vscale(nm, 0.5 * dt * vdot(nm, vadd(wa, wb))));
    vec3 tm1 = vsub(t1, vscale(vcross(t1, rho), 0.5));
    vec3 tm2 = vcross(nm, tm1);
    vec3 t1n = vsub(t1, vcross(tm1, rho));
    if (renormalize) {
        n = vnormalize(n);
        t1n = vnormalize(vsub(t1n, vscale(n, vdot(t1n, n))));
    }
    floe_l6geom_rates(vscale(vadd(g->c, r->c), 0.5), nm, tm1, tm2, dt, xa, va, wa, xb, vb, wb, vel, angvel);
    g->n = n;
    g->t1 = t1n;
    g->c = r->c;
    g->uN = r->uN;
}

#endif
