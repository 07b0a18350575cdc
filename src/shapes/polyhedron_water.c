/* The submerged part of a polyhedron (polyhedron_water.h): its hull in the
 * body frame clipped by the half-space below the surface. */
#include "shapes/polyhedron_water.h"

#include "shapes/polyhedron_clip.h"

/* The hull below the plane up.x = h, body frame: faces of the hull tagged 0,
 * the section tagged 1. */
static void below(floe_clip *k, const void *poly, vec3 up, double h) {
    const floe_pose id = {v3(0, 0, 0), {1, 0, 0, 0}};
    floe_clip_from_poly(k, poly, &id, v3(0, 0, 0), 0);
    floe_clip_plane(k, up, h, 1);
}

void floe_poly_submerged(const void *poly, vec3 up, double d, floe_submerged *out) {
    static _Thread_local floe_clip k;
    below(&k, poly, up, d);
    double V = 0;
    vec3 c = v3(0, 0, 0), S = v3(0, 0, 0), ac;
    if (k.nf) floe_clip_measure(&k, 1, &V, &c, &S, &ac);
    out->volume = V > 0 ? V : 0;
    out->centroid = V > 0 ? c : v3(0, 0, 0);
    out->waterplane = vlen(S);
}

double floe_poly_section(const void *poly, vec3 up, double h) {
    floe_submerged s;
    floe_poly_submerged(poly, up, h, &s);
    return s.waterplane;
}

/* The silhouette of a convex body along m is half the sum over its faces of
 * |area vector . m|: every line along m crosses its surface twice. */
double floe_poly_frontal(const void *poly, vec3 up, vec3 m, double d) {
    static _Thread_local floe_clip k;
    below(&k, poly, up, d);
    double a = 0;
    for (int f = 0; f < k.nf; f++) {
        int s = k.start[f], e = k.start[f + 1];
        vec3 S = v3(0, 0, 0);
        for (int j = s + 1; j + 1 < e; j++) S = vadd(S, vcross(vsub(k.pt[j], k.pt[s]), vsub(k.pt[j + 1], k.pt[s])));
        a += 0.5 * fabs(vdot(S, m));
    }
    return 0.5 * a;
}
