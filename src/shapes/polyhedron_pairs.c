/* The narrow phase of polyhedra (docs/geometry.md, "Polyhedra"); the
 * polyhedron is always B. Three formulations:
 * - against walls, facets and polyhedra, the overlap volume V (the
 *   polyhedron clipped by the other body's half-spaces, polyhedron_clip.c):
 *   the normal along the area vector of the overlap's surface (Feng, Han and
 *   Owen's volume-based normal), the gap -V/A (the overlap's mean depth over
 *   its area A across the normal: the depth itself for a face pressed flat)
 *   and the point at the centroid of the cut (walls and facets) or of the
 *   overlap (polyhedra). Apart, the gap is the distance along a separating
 *   direction;
 * - against spheres, the exact signed distance from the centre to the hull;
 * - against capsules, ellipsoids and infinite cylinders, the largest gap of
 *   the two bodies' supports over candidate directions fixed to the bodies
 *   (the polyhedron's face normals, the capsule axis crossed with its
 *   edges, the directions to its vertices and to its edges' nearest
 *   points, the previous normal, the centre line): the exact penetration
 *   depth when a face or an edge takes the contact, a lower bound of the
 *   gap otherwise. */
#include "shapes/polyhedron_pairs.h"

/* ---- helpers ---------------------------------------------------------------- */

static void globals(const floe_polyhedron *p, const floe_pose *ps, vec3 *x) {
    for (int k = 0; k < p->nv; k++) x[k] = vadd(ps->x, qrotate(ps->q, p->v[k]));
}

/* min over the vertices of n.x, and the mean of the vertices that take it
 * (a face or an edge: the same point whatever the vertices' order) */
static double lowest(const vec3 *x, int n, vec3 d, vec3 *at) {
    double lo = INFINITY;
    for (int k = 0; k < n; k++) {
        double s = vdot(d, x[k]);
        if (s < lo) lo = s;
    }
    if (at) {
        double tol = 1e-12 * (1 + fabs(lo));
        vec3 s = v3(0, 0, 0);
        int m = 0;
        for (int k = 0; k < n; k++)
            if (vdot(d, x[k]) <= lo + tol) {
                s = vadd(s, x[k]);
                m++;
            }
        *at = vscale(s, 1.0 / m);
    }
    return lo;
}

static double bound_of(const floe_polyhedron *p) {
    double r2 = 0;
    for (int k = 0; k < p->nv; k++) r2 = fmax(r2, vlen2(p->v[k]));
    return sqrt(r2);
}

/* ---- sphere: the signed distance to the hull ----------------------------------- */

int floe_collide_sphere_poly(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                             double gap, floe_raw_contact *out) {
    const floe_polyhedron *p = b;
    double r = *(const double *)a;
    vec3 rel = vsub(pa->x, pb->x);
    double lim = bound_of(p) + r + gap;
    if (!prev && vlen2(rel) > lim * lim) return 0;
    vec3 y = qrotate(qconj(pb->q), rel); /* body frame */
    double best = -INFINITY;
    vec3 m = v3(1, 0, 0);
    for (int f = 0; f < p->nf; f++) {
        vec3 n;
        double d;
        floe_polyhedron_face_plane(p, f, &n, &d);
        double s = vdot(n, y) - d;
        if (s > best) {
            best = s;
            m = n;
        }
    }
    double sd = best;
    if (best > 0) { /* outside: the nearest point of the faces it sees */
        double d2 = INFINITY;
        vec3 z = y;
        for (int f = 0; f < p->nf; f++) {
            vec3 n;
            double d;
            floe_polyhedron_face_plane(p, f, &n, &d);
            if (vdot(n, y) - d <= 0) continue;
            int s = p->start[f], e = p->start[f + 1];
            for (int k = s + 1; k + 1 < e; k++) {
                vec3 q = floe_closest_on_triangle(y, p->v[p->corner[s]], p->v[p->corner[k]], p->v[p->corner[k + 1]]);
                double q2 = vlen2(vsub(y, q));
                if (q2 < d2) {
                    d2 = q2;
                    z = q;
                }
            }
        }
        sd = sqrt(d2);
        if (sd > 0) m = vscale(vsub(y, z), 1 / sd);
    }
    if (!prev && sd - r > gap) return 0;
    out->n = vneg(qrotate(pb->q, m));
    out->uN = sd - r;
    out->c = vmadd(pa->x, out->n, r + 0.5 * out->uN);
    out->r1 = r;
    out->r2 = vlen(vsub(out->c, pb->x));
    return 1;
}

/* ---- walls and facets: the part beyond the plane -------------------------------- */

/* The area of B's largest face: the reference area that makes the
 * overlap volume a length (module comment). */
static double largest_face(const floe_polyhedron *p) {
    double best = 0;
    for (int f = 0; f < p->nf; f++) {
        vec3 s = v3(0, 0, 0);
        int a = p->start[f], b = p->start[f + 1];
        for (int k = a; k < b; k++) s = vadd(s, vcross(p->v[p->corner[k]], p->v[p->corner[k + 1 < b ? k + 1 : a]]));
        best = fmax(best, 0.5 * vlen(s));
    }
    return best;
}

/* The gap of an overlap of volume V whose surface has the area A across
 * the normal: -V A / Aref^2 (module comment). */
static double volume_gap(double V, double A, double Aref) { return -V * (A / Aref) / Aref; }

/* The part of B behind the plane n.x = d (global, n from A to B: the part
 * with n.x <= d) within the given side planes: its gap and the centroid of
 * the cut. Returns +INFINITY when nothing overlaps. */
static double cut_gap(const floe_polyhedron *p, const floe_pose *pb, vec3 n, double d, const vec3 *side_n,
                      const double *side_d, int nside, vec3 *c) {
    static _Thread_local floe_clip k;
    vec3 o = pb->x;
    floe_clip_from_poly(&k, p, pb, o, 0);
    floe_clip_plane(&k, n, d - vdot(n, o), 1);
    for (int s = 0; s < nside && k.nf; s++) floe_clip_plane(&k, side_n[s], side_d[s] - vdot(side_n[s], o), 2);
    if (!k.nf) return INFINITY;
    double V;
    vec3 g, S, ac;
    floe_clip_measure(&k, 1, &V, &g, &S, &ac);
    double A = vlen(S);
    if (!(V > 0) || !(A > 0)) return INFINITY;
    *c = vadd(o, ac);
    return volume_gap(V, A, largest_face(p));
}

int floe_collide_wall_poly(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                           double gap, floe_raw_contact *out) {
    const floe_wall *wl = a;
    const floe_polyhedron *p = b;
    int ax = wl->axis;
    double dist = vcomp(pb->x, ax) - vcomp(pa->x, ax);
    if (!prev && fabs(dist) > bound_of(p) + gap) return 0;
    double sgn = floe_wall_side(wl, prev, dist);
    vec3 n = v3(0, 0, 0);
    vset(&n, ax, sgn);
    vec3 x[FLOE_POLY_MAXV], low = pb->x;
    globals(p, pb, x);
    double w = sgn * vcomp(pa->x, ax), lo = lowest(x, p->nv, n, &low) - w;
    if (!prev && lo > gap) return 0;
    vec3 c = low;
    double un = lo < 0 ? cut_gap(p, pb, n, w, NULL, NULL, 0, &c) : INFINITY;
    if (un == INFINITY) { /* apart or touching: the nearest vertex */
        un = lo;
        c = low;
    }
    vset(&c, ax, vcomp(pa->x, ax));
    out->n = n;
    out->uN = un;
    out->c = c;
    double dd = vlen(vsub(c, pb->x));
    out->r1 = -dd;
    out->r2 = dd;
    return 1;
}

int floe_collide_facet_poly(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                            double gap, floe_raw_contact *out) {
    const floe_facet *ft = a;
    const floe_polyhedron *p = b;
    vec3 v[3];
    floe_facet_global(ft, pa, v);
    vec3 nf = vnormalize(vcross(vsub(v[1], v[0]), vsub(v[2], v[0])));
    double h = ft->half_thick, side = vdot(nf, vsub(pb->x, v[0]));
    double R = bound_of(p);
    if (!prev) {
        vec3 q = floe_closest_on_triangle(pb->x, v[0], v[1], v[2]);
        if (vlen(vsub(pb->x, q)) > R + h + gap) return 0;
    }
    double sgn = prev ? (vdot(*prev, nf) >= 0 ? 1 : -1) : (side >= 0 ? 1 : -1);
    vec3 n = vscale(nf, sgn);
    /* the prism over the triangle: its sides' outward normals */
    vec3 sn[3];
    double sd[3];
    for (int k = 0; k < 3; k++) {
        vec3 e = vnormalize(vcross(vsub(v[(k + 1) % 3], v[k]), nf));
        if (vdot(e, vsub(v[(k + 2) % 3], v[k])) > 0) e = vneg(e);
        sn[k] = e;
        sd[k] = vdot(e, v[k]);
    }
    vec3 x[FLOE_POLY_MAXV], low = pb->x;
    globals(p, pb, x);
    double top = vdot(n, v[0]) + h, lo = lowest(x, p->nv, n, &low) - top;
    vec3 c = low;
    double un = lo < 0 ? cut_gap(p, pb, n, top, sn, sd, 3, &c) : INFINITY;
    if (un == INFINITY) { /* nothing over the triangle: the nearest vertex's distance */
        double d2 = INFINITY;
        for (int k = 0; k < p->nv; k++) {
            vec3 q = floe_closest_on_triangle(x[k], v[0], v[1], v[2]);
            double q2 = vlen2(vsub(x[k], q));
            if (q2 < d2) {
                d2 = q2;
                c = q;
            }
        }
        un = sqrt(d2) - h;
        if (!prev && un > gap) return 0;
    } else {
        c = vmadd(c, n, -h); /* onto the triangle's plane */
    }
    out->n = n;
    out->uN = un;
    out->c = c;
    double dd = vlen(vsub(c, pb->x));
    out->r1 = -dd;
    out->r2 = dd;
    return 1;
}

/* ---- polyhedron pairs: the overlap volume ------------------------------------- */

/* The largest gap of the supports along a face normal of either body or the
 * centre line (exact for a face's separation), with the supports' midpoint. */
static double separation(const vec3 *xa, int na, const floe_polyhedron *pa_, const floe_pose *pa, const vec3 *xb,
                         int nb, const floe_polyhedron *pb_, const floe_pose *pb, const vec3 *prev, vec3 *n_out,
                         vec3 *c_out) {
    double best = -INFINITY;
    int ncand = pa_->nf + pb_->nf + 2;
    for (int i = 0; i < ncand; i++) {
        vec3 n;
        double d;
        if (i < pa_->nf) {
            floe_polyhedron_face_plane(pa_, i, &n, &d);
            n = qrotate(pa->q, n);
        } else if (i < pa_->nf + pb_->nf) {
            floe_polyhedron_face_plane(pb_, i - pa_->nf, &n, &d);
            n = vneg(qrotate(pb->q, n));
        } else if (i == ncand - 2) {
            if (!(vlen2(vsub(pb->x, pa->x)) > 0)) continue;
            n = vnormalize(vsub(pb->x, pa->x));
        } else {
            if (!prev) continue;
            n = *prev;
        }
        double ha = -lowest(xa, na, vneg(n), NULL), lb = lowest(xb, nb, n, NULL);
        if (lb - ha > best) {
            best = lb - ha;
            *n_out = n;
        }
    }
    vec3 sa = pa->x, sb = pb->x;
    lowest(xa, na, vneg(*n_out), &sa);
    lowest(xb, nb, *n_out, &sb);
    *c_out = vscale(vadd(sa, sb), 0.5);
    return best;
}

int floe_collide_poly_poly(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                           double gap, floe_raw_contact *out) {
    const floe_polyhedron *A = a, *B = b;
    double lim = bound_of(A) + bound_of(B) + gap;
    if (!prev && vlen2(vsub(pb->x, pa->x)) > lim * lim) return 0;
    vec3 xa[FLOE_POLY_MAXV], xb[FLOE_POLY_MAXV];
    globals(A, pa, xa);
    globals(B, pb, xb);
    static _Thread_local floe_clip k;
    vec3 o = pb->x;
    /* B's face planes that cut A, the deepest cut first: what is left of A
     * is then small and the rest cut little. A wholly beyond one of them:
     * apart (no overlap). */
    vec3 pn[FLOE_POLY_MAXF];
    double pd[FLOE_POLY_MAXF], cut[FLOE_POLY_MAXF];
    int ord[FLOE_POLY_MAXF], m = 0, apart = 0;
    for (int f = 0; f < B->nf && !apart; f++) {
        vec3 n;
        double d, hi = -INFINITY, lo = INFINITY;
        floe_polyhedron_face_plane(B, f, &n, &d);
        n = qrotate(pb->q, n);
        for (int j = 0; j < A->nv; j++) {
            double s = vdot(n, vsub(xa[j], o));
            hi = fmax(hi, s);
            lo = fmin(lo, s);
        }
        apart = lo > d;
        if (hi <= d) continue;
        pn[m] = n;
        pd[m] = d;
        cut[m] = hi - d;
        int j = m++;
        for (; j > 0 && cut[ord[j - 1]] < cut[m - 1]; j--) ord[j] = ord[j - 1];
        ord[j] = m - 1;
    }
    floe_clip_from_poly(&k, A, pa, o, 0);
    if (apart) k.nf = k.np = 0;
    for (int j = 0; j < m && k.nf; j++) floe_clip_plane(&k, pn[ord[j]], pd[ord[j]], 1);
    double V = 0;
    vec3 g = o, S0 = v3(0, 0, 0), S1 = v3(0, 0, 0), c0 = o, c1 = o;
    if (k.nf) {
        floe_clip_measure(&k, 0, &V, &g, &S0, &c0);
        floe_clip_measure(&k, 1, &V, &g, &S1, &c1);
    }
    /* A's surface inside B faces B, B's inside A faces A: the normal along
     * their difference (equal and opposite but for rounding) */
    vec3 S = vsub(S0, S1);
    double area = 0.5 * vlen(S);
    if (V > 0 && area > 0) {
        vec3 n = vscale(S, 0.5 / area);
        out->n = n;
        out->uN = volume_gap(V, area, fmin(largest_face(A), largest_face(B)));
        /* The force's line of action: moving B rigidly changes V by the flux
         * of its velocity through A's surface inside B, so the torque on B
         * is the moment of that surface's area vectors M (and on A the
         * opposite: the closed surface has none). The line carries M but for
         * its twist about n; the point is where it passes nearest the middle
         * of the two surfaces' centroids. */
        vec3 M = vsub(floe_clip_moment(&k, 0), floe_clip_moment(&k, 1)), S0h = vscale(S, 0.5);
        vec3 line = vscale(vcross(S0h, M), 0.5 / vlen2(S0h)), mid = vscale(vadd(c0, c1), 0.5);
        out->c = vadd(o, vmadd(line, n, vdot(n, vsub(mid, line))));
    } else {
        /* Nothing left of A: apart, and the supports' gap along the best of
         * the face normals is a lower bound of their distance, which may
         * come out negative (a separating direction across two edges is not
         * among them): apart is at least 0. A left whole (V > 0, no cut):
         * one inside the other, the least overlap of the supports. */
        vec3 n = v3(1, 0, 0), c = o;
        double un = separation(xa, A->nv, A, pa, xb, B->nv, B, pb, prev, &n, &c);
        if (!k.nf) {
            if (!prev && gap <= 0) return 0;
            un = fmax(un, 0);
        }
        if (!prev && un > gap) return 0;
        out->n = n;
        out->uN = un;
        out->c = c;
    }
    out->r1 = vlen(vsub(out->c, pa->x));
    out->r2 = vlen(vsub(out->c, pb->x));
    return 1;
}

/* ---- capsules, ellipsoids, cylinders: supports --------------------------------- */

typedef struct convex {
    int kind; /* 0 capsule, 1 ellipsoid, 2 infinite cylinder */
    vec3 p0, p1, x, axis;
    double r;
    vec3 ax[3];
    double semi[3];
} convex;

/* support: max over the body of n.x, and the point */
static double support(const convex *k, vec3 n, vec3 *at) {
    if (k->kind == 0) {
        double s0 = vdot(n, k->p0), s1 = vdot(n, k->p1), L = vlen(vsub(k->p1, k->p0));
        vec3 p = fabs(s0 - s1) <= 1e-12 * L ? vscale(vadd(k->p0, k->p1), 0.5) : s0 > s1 ? k->p0 : k->p1;
        *at = vmadd(p, n, k->r);
        return fmax(s0, s1) + k->r;
    }
    if (k->kind == 1) {
        vec3 qn = v3(0, 0, 0);
        for (int j = 0; j < 3; j++) qn = vmadd(qn, k->ax[j], k->semi[j] * k->semi[j] * vdot(k->ax[j], n));
        double e = sqrt(fmax(vdot(n, qn), 0));
        *at = e > 0 ? vmadd(k->x, qn, 1 / e) : k->x;
        return vdot(n, k->x) + e;
    }
    *at = vmadd(k->x, n, k->r);
    return vdot(n, k->x) + k->r;
}

/* n kept in the plane across a cylinder's axis */
static vec3 admissible(const convex *k, vec3 n) {
    if (k->kind == 2) n = vsub(n, vscale(k->axis, vdot(n, k->axis)));
    return vlen2(n) > 1e-30 ? vnormalize(n) : v3(0, 0, 0);
}

/* Towards a vertex y: from the capsule axis' nearest point, the cylinder
 * axis, or along the ellipsoid's normal where the ray from its centre meets
 * its surface. */
static vec3 vertex_dir(const convex *k, vec3 y) {
    if (k->kind == 0) return vsub(y, floe_closest_on_segment(y, k->p0, k->p1));
    if (k->kind == 2) return vsub(y, k->x);
    vec3 d = vsub(y, k->x), g = v3(0, 0, 0);
    for (int j = 0; j < 3; j++) g = vmadd(g, k->ax[j], vdot(k->ax[j], d) / (k->semi[j] * k->semi[j]));
    return g;
}

/* Towards the edge [a, b]: from the capsule's axis to the nearest points
 * of the two segments; from the cylinder's axis to the edge's point
 * nearest it across the axis; along the ellipsoid's normal where the ray
 * from its centre to the edge's point nearest in its metric meets it. */
static vec3 edge_dir(const convex *k, vec3 a, vec3 b) {
    if (k->kind == 0) {
        vec3 cp, cq;
        floe_closest_segments(k->p0, k->p1, a, b, &cp, &cq);
        return vsub(cq, cp);
    }
    vec3 d = vsub(b, a), r = vsub(a, k->x);
    double t;
    if (k->kind == 2) {
        vec3 dp = vsub(d, vscale(k->axis, vdot(d, k->axis))), rp = vsub(r, vscale(k->axis, vdot(r, k->axis)));
        double dd = vlen2(dp);
        t = dd > 0 ? -vdot(rp, dp) / dd : 0;
    } else {
        double num = 0, den = 0;
        for (int j = 0; j < 3; j++) {
            double s2 = k->semi[j] * k->semi[j], dj = vdot(k->ax[j], d), rj = vdot(k->ax[j], r);
            num += rj * dj / s2;
            den += dj * dj / s2;
        }
        t = den > 0 ? -num / den : 0;
    }
    t = fmin(1, fmax(0, t));
    return vertex_dir(k, vmadd(a, d, t));
}

static double gap_along(const convex *k, const vec3 *xb, int nb, vec3 n, vec3 *ka) {
    return lowest(xb, nb, n, NULL) - support(k, n, ka);
}

static int convex_poly(const convex *k, const floe_polyhedron *p, const floe_pose *pb, vec3 core, const vec3 *prev,
                       double gap, floe_raw_contact *out) {
    vec3 xb[FLOE_POLY_MAXV];
    globals(p, pb, xb);
    double best = -INFINITY;
    vec3 bn = v3(0, 0, 0), ka = core;
    int C = p->start[p->nf], base1 = p->nf + 2 + p->nv, base2 = base1 + C, nc = base2 + C;
    for (int i = 0; i < nc; i++) {
        vec3 n = v3(0, 0, 0);
        double d;
        if (i < p->nf) {
            floe_polyhedron_face_plane(p, i, &n, &d);
            n = vneg(qrotate(pb->q, n));
        } else if (i == p->nf) {
            n = vsub(pb->x, core);
        } else if (i == p->nf + 1) {
            if (prev) n = *prev;
        } else if (i < base1) {
            n = vertex_dir(k, xb[i - p->nf - 2]);
        } else { /* each edge (corner e to the next of its face) */
            int e = i < base2 ? i - base1 : i - base2, f = 0;
            while (p->start[f + 1] <= e) f++;
            int nx = e + 1 < p->start[f + 1] ? e + 1 : p->start[f];
            vec3 a = xb[p->corner[e]], b = xb[p->corner[nx]];
            if (i < base2) { /* a capsule's axis crossed with it */
                if (k->kind != 0) continue;
                n = vcross(vsub(k->p1, k->p0), vsub(b, a));
                if (vdot(n, vsub(pb->x, core)) < 0) n = vneg(n);
            } else {
                n = edge_dir(k, a, b);
            }
        }
        n = admissible(k, n);
        if (vlen2(n) == 0) continue;
        vec3 s;
        double g = gap_along(k, xb, p->nv, n, &s);
        if (g > best) {
            best = g;
            bn = n;
            ka = s;
        }
    }
    if (!prev && best > gap) return 0;
    out->n = bn;
    out->uN = best;
    out->c = vmadd(ka, bn, 0.5 * best);
    out->r1 = k->kind == 1 ? vlen(vsub(out->c, k->x)) : k->r;
    out->r2 = vlen(vsub(out->c, pb->x));
    return 1;
}

int floe_collide_capsule_poly(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                              double gap, floe_raw_contact *out) {
    const floe_capsule *cp = a;
    convex k = {.kind = 0, .r = cp->radius};
    floe_capsule_axis(pa->x, pa->q, cp->shaft, &k.p0, &k.p1);
    vec3 core = floe_closest_on_segment(pb->x, k.p0, k.p1);
    double lim = bound_of(b) + cp->radius + gap;
    if (!prev && vlen2(vsub(pb->x, core)) > lim * lim) return 0;
    return convex_poly(&k, b, pb, core, prev, gap, out);
}

int floe_collide_ellipsoid_poly(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                const vec3 *prev, double gap, floe_raw_contact *out) {
    vec3 s = ((const floe_ellipsoid *)a)->semi;
    convex k = {.kind = 1, .x = pa->x, .semi = {s.x, s.y, s.z}};
    k.ax[0] = qrotate(pa->q, v3(1, 0, 0));
    k.ax[1] = qrotate(pa->q, v3(0, 1, 0));
    k.ax[2] = qrotate(pa->q, v3(0, 0, 1));
    double lim = bound_of(b) + fmax(s.x, fmax(s.y, s.z)) + gap;
    if (!prev && vlen2(vsub(pb->x, pa->x)) > lim * lim) return 0;
    return convex_poly(&k, b, pb, pa->x, prev, gap, out);
}

int floe_collide_infcyl_poly(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                             double gap, floe_raw_contact *out) {
    const floe_infcyl *cy = a;
    convex k = {.kind = 2, .r = cy->radius};
    vset(&k.axis, cy->axis, 1);
    k.x = pb->x; /* the axis point level with B's centre */
    for (int j = 0; j < 3; j++)
        if (j != cy->axis) vset(&k.x, j, vcomp(pa->x, j));
    double lim = bound_of(b) + cy->radius + gap;
    if (!prev && vlen2(vsub(pb->x, k.x)) > lim * lim) return 0;
    return convex_poly(&k, b, pb, k.x, prev, gap, out);
}
