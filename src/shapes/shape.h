/* The shape seam: per shape, mass properties and a bounding radius for the
 * broad phase; per shape pair, a narrow-phase function (src/collide). */
#ifndef FLOE_SHAPES_SHAPE_H
#define FLOE_SHAPES_SHAPE_H

#include "core/world.h"

/* For a new contact (prev == NULL) returns 1 only if the gap between the
 * shapes is at most `gap` (0: they must overlap); for an existing one always
 * fills `out` and returns 1. */
typedef int floe_collide_fn(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                            floe_raw_contact *out);

/* The two narrow phases of granular scenes, inline so that the contact pass
 * can call them directly (sphere.c and wall.c export them for the table). */
/* Contact of spheres at xa, xb: the normal, gap and mid-overlap point; nprev
 * is the normal kept when the centres coincide. The batched kernel calls it
 * too. */
FLOE_KERNEL void floe_sphere_pair(vec3 xa, vec3 xb, double ra, double rb, vec3 nprev, floe_raw_contact *out) {
    double dist = sqrt(vlen2(vsub(xb, xa)));
    out->n = dist > 0 ? vscale(vsub(xb, xa), 1.0 / dist) : nprev;
    out->uN = dist - (ra + rb);
    out->c = vmadd(xa, out->n, ra + 0.5 * out->uN); /* middle of the overlap */
    out->r1 = ra;
    out->r2 = rb;
}

static inline int floe_sphere_sphere(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                                     floe_raw_contact *out) {
    double ra = w->radius[a], rb = w->radius[b];
    if (!prev && vlen2(vsub(w->pos[b], w->pos[a])) > (ra + rb + gap) * (ra + rb + gap)) return 0;
    /* coincident centres: keep the previous normal (or pick x for a new contact) */
    floe_sphere_pair(w->pos[a], w->pos[b], ra, rb, prev ? prev->g.n : v3(1, 0, 0), out);
    return 1;
}

static inline int floe_wall_sphere(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                                   floe_raw_contact *out) {
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
    out->r1 = -r;                            /* flat: takes the sphere's length */
    out->r2 = r;
    return 1;
}

/* Mass and principal inertia of solid bodies (the formulas Woo uses too). */
void floe_sphere_mass(double radius, double density, double *mass, double *inertia);
void floe_capsule_mass(double radius, double shaft, double density, double *mass, vec3 *inertia);
void floe_ellipsoid_mass(vec3 semi, double density, double *mass, vec3 *inertia);
floe_collide_fn floe_collide_sphere_sphere, floe_collide_wall_sphere, floe_collide_facet_sphere;
/* capsule.c, infcylinder.c */
floe_collide_fn floe_collide_sphere_capsule, floe_collide_capsule_capsule, floe_collide_wall_capsule,
    floe_collide_facet_capsule, floe_collide_infcyl_sphere, floe_collide_infcyl_capsule;
/* ellipsoid.c */
floe_collide_fn floe_collide_sphere_ellipsoid, floe_collide_capsule_ellipsoid, floe_collide_ellipsoid_ellipsoid,
    floe_collide_wall_ellipsoid, floe_collide_facet_ellipsoid, floe_collide_infcyl_ellipsoid;
/* The axis segment of a capsule centred at c in orientation q: c -+ q (shaft/2, 0, 0). */
void floe_capsule_axis(vec3 c, quat q, double shaft, vec3 *p0, vec3 *p1);
void floe_capsule_segment(const floe_world *w, int id, vec3 *p0, vec3 *p1);
/* Half extents of the axis-aligned box around a body in orientation q
 * (exact): what the broad phase, the packing generator and the VTK scene
 * extent use. A capsule: its rotated half shaft, plus the radius. */
vec3 floe_capsule_half_extent(double radius, double shaft, quat q);
/* An ellipsoid: sqrt(sum over body axes k of (q a_k e_k)^2) per global axis. */
vec3 floe_ellipsoid_half_extent(vec3 semi, quat q);
/* Contact of two round bodies around the points pa (A, radius ra) and pb (B, rb). */
int floe_round_contact(vec3 pa, vec3 pb, double ra, double rb, const floe_contact *prev, double gap,
                       floe_raw_contact *out);
vec3 floe_closest_on_segment(vec3 p, vec3 a, vec3 b);
void floe_closest_segments(vec3 p0, vec3 p1, vec3 q0, vec3 q1, vec3 *cp, vec3 *cq);
/* Squared distance between the segments [p0, p1] and [q0, q1], for
 * placement tests: rounding can only make it smaller than the true one, so
 * a test "apart if > limit" errs on the safe side. floe_closest_segments
 * serves contacts instead: it picks the pair of points that keeps a
 * contact point steady (the middle of the overlap of parallel segments). */
double floe_segments_dist2(vec3 p0, vec3 p1, vec3 q0, vec3 q1);
/* Closest point on triangle (v0,v1,v2) to p. */
vec3 floe_closest_on_triangle(vec3 p, vec3 v0, vec3 v1, vec3 v2);
/* Facet vertices in global coordinates. */
void floe_facet_global(const floe_world *w, int id, vec3 out[3]);

#endif
