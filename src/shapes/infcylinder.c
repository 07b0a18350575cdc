/* Infinite cylinder along a global axis (docs/geometry.md#pairs-and-their-order): contacts are
 * computed in the plane perpendicular to the axis. A is the cylinder. */
#include "shapes/shape.h"

/* Point of the cylinder axis nearest to p, and the radial offset of p. */
static vec3 radial(const floe_world *w, int cyl, vec3 p, vec3 *axis_point) {
    int ax = w->cylinders[w->shape_idx[cyl]].axis;
    vec3 rel = vsub(p, w->pos[cyl]);
    vec3 ap = w->pos[cyl];
    vset(&ap, ax, vcomp(p, ax));
    vset(&rel, ax, 0);
    *axis_point = ap;
    return rel;
}

static int cylinder_round(const floe_world *w, int a, vec3 p, double r, const floe_contact *prev, double gap,
                          floe_raw_contact *out) {
    vec3 ap;
    radial(w, a, p, &ap);
    return floe_round_contact(ap, p, w->cylinders[w->shape_idx[a]].radius, r, prev, gap, out);
}

int floe_collide_infcyl_sphere(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                               floe_raw_contact *out) {
    return cylinder_round(w, a, w->pos[b], w->radius[b], prev, gap, out);
}

/* The capsule's axis point nearest to the cylinder axis: minimise the radial
 * distance along the segment (a capsule parallel to the axis: its centre). */
int floe_collide_infcyl_capsule(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                                floe_raw_contact *out) {
    vec3 p0, p1, ap;
    floe_capsule_segment(w, b, &p0, &p1);
    vec3 r0 = radial(w, a, p0, &ap), r1 = radial(w, a, p1, &ap);
    vec3 dr = vsub(r1, r0);
    double l2 = vlen2(dr), t = 0.5;
    if (l2 > 1e-24 * (vlen2(r0) + vlen2(r1) + 1e-300)) t = fmin(fmax(-vdot(r0, dr) / l2, 0), 1);
    return cylinder_round(w, a, vmadd(p0, vsub(p1, p0), t), w->radius[b], prev, gap, out);
}
