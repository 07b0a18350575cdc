/* Facet: a triangle with optional half thickness, attached to a rigid body
 * (docs/decisions.md#facets-belong-to-rigid-bodies-g6). A is the facet, B the sphere. */
#include "shapes/shape.h"

void floe_facet_global(const floe_world *w, int id, vec3 out[3]) {
    const floe_facet *f = &w->facets[w->shape_idx[id]];
    for (int k = 0; k < 3; k++) out[k] = vadd(w->pos[id], qrotate(w->ori[id], f->v[k]));
}

/* Closest point on a triangle by Voronoi regions of its vertices and edges. */
vec3 floe_closest_on_triangle(vec3 p, vec3 a, vec3 b, vec3 c) {
    vec3 ab = vsub(b, a), ac = vsub(c, a), ap = vsub(p, a);
    double d1 = vdot(ab, ap), d2 = vdot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    vec3 bp = vsub(p, b);
    double d3 = vdot(ab, bp), d4 = vdot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return vmadd(a, ab, d1 / (d1 - d3));
    vec3 cp = vsub(p, c);
    double d5 = vdot(ab, cp), d6 = vdot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return vmadd(a, ac, d2 / (d2 - d6));
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return vmadd(b, vsub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    double den = 1.0 / (va + vb + vc);
    return vadd(a, vadd(vscale(ab, vb * den), vscale(ac, vc * den)));
}

int floe_collide_facet_sphere(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                              floe_raw_contact *out) {
    vec3 v[3];
    floe_facet_global(w, a, v);
    double h = w->facets[w->shape_idx[a]].half_thick, r = w->radius[b];
    vec3 x = w->pos[b];
    if (!prev) {
        vec3 fn = vnormalize(vcross(vsub(v[1], v[0]), vsub(v[2], v[0])));
        if (fabs(vdot(vsub(x, v[0]), fn)) > r + h + gap) return 0;
    }
    vec3 cp = floe_closest_on_triangle(x, v[0], v[1], v[2]);
    vec3 d = vsub(x, cp);
    double dist = vlen(d);
    if (!prev && dist > r + h + gap) return 0;
    out->n = dist > 0 ? vscale(d, 1.0 / dist) : (prev ? prev->g.n : v3(1, 0, 0));
    out->c = vmadd(cp, out->n, h); /* on the facet's surface */
    out->uN = dist - r - h;
    out->r1 = fmax(h, r);
    out->r2 = r;
    return 1;
}
