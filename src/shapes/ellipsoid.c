/* Ellipsoid: semi-axes along the body x, y, z axes. Mass properties and the
 * narrow phase of every pair with an ellipsoid (docs/geometry.md,
 * "Ellipsoids"). Ellipsoid pairs use the Perram-Wertheim contact function
 * (Perram and Wertheim, J. Comput. Phys. 1985, as in Woo). The other pairs are exact while the other body's core
 * (a point, segment, triangle or line) stays outside the ellipsoid: the
 * signed distance from that core to the ellipsoid, minus the core's radius. */
#include "shapes/shape.h"

/* Mass and principal inertia of a solid ellipsoid (the formulas Woo uses too). */
static void ellipsoid_mass(vec3 s, double rho, double *mass, vec3 *inertia) {
    double m = 4.0 / 3.0 * FLOE_PI * s.x * s.y * s.z * rho;
    *mass = m;
    *inertia = v3(0.2 * m * (s.y * s.y + s.z * s.z), 0.2 * m * (s.z * s.z + s.x * s.x),
                  0.2 * m * (s.x * s.x + s.y * s.y));
}

vec3 floe_ellipsoid_half_extent(vec3 s, quat q) {
    vec3 e0 = qrotate(q, v3(s.x, 0, 0)), e1 = qrotate(q, v3(0, s.y, 0)), e2 = qrotate(q, v3(0, 0, s.z));
    return v3(sqrt(e0.x * e0.x + e1.x * e1.x + e2.x * e2.x), sqrt(e0.y * e0.y + e1.y * e1.y + e2.y * e2.y),
              sqrt(e0.z * e0.z + e1.z * e1.z + e2.z * e2.z));
}

/* ---- an ellipsoid in global coordinates ---------------------------------- */

typedef struct ell {
    vec3 x;      /* centre */
    vec3 ax[3];  /* body axes, global unit vectors */
    double a[3]; /* semi-axes along them */
    double amax;
} ell;

static ell ell_get(const void *rec, const floe_pose *p) {
    ell e;
    quat q = p->q;
    vec3 s = ((const floe_ellipsoid *)rec)->semi;
    e.x = p->x;
    e.ax[0] = qrotate(q, v3(1, 0, 0));
    e.ax[1] = qrotate(q, v3(0, 1, 0));
    e.ax[2] = qrotate(q, v3(0, 0, 1));
    e.a[0] = s.x;
    e.a[1] = s.y;
    e.a[2] = s.z;
    e.amax = fmax(s.x, fmax(s.y, s.z));
    return e;
}

/* Q u with Q = sum a_k^2 ax_k ax_k^T: the ellipsoid is {x + Q u / sqrt(u.Q u)}
 * over unit u, so Q u / sqrt(u.Q u) is the surface point with outward normal u. */
static vec3 ell_Q(const ell *e, vec3 u) {
    vec3 r = v3(0, 0, 0);
    for (int k = 0; k < 3; k++) r = vmadd(r, e->ax[k], e->a[k] * e->a[k] * vdot(e->ax[k], u));
    return r;
}

/* Half width along unit u: max over the ellipsoid of u.(p - x) = sqrt(u.Q u). */
static double ell_extent(const ell *e, vec3 u) { return sqrt(vdot(u, ell_Q(e, u))); }

/* ---- signed distance from a point ---------------------------------------- */

/* In the principal frame the closest surface point to y is
 * z_k = a_k^2 y_k / (a_k^2 + t), where t is the root of the secular equation
 * S(t) = sum (a_k y_k / (a_k^2 + t))^2 = 1 with t > -min a_k^2 (unique there,
 * S decreasing; t > 0 outside, < 0 inside). Newton runs on g = S^(-1/2), which
 * is concave and increasing (a power mean with exponent -2 of affine
 * functions), so from a lower bound it climbs to the root without overshoot,
 * and it is nearly linear both near the pole and far away. The roots of the
 * sub-problems that drop the smallest axes are lower bounds, taken in turn
 * (largest axis first): a point near a principal plane, where the smallest
 * axis' term is tiny, then starts next to its root. Each stage works with
 * the distance to its pole, u = t + a2_j, so that points deep inside, where
 * the root nears the pole, keep full precision. a2 ascending, c_k = a_k |y_k| > 0.
 * Returns u = t + a2_0. */
static double secular_root(int n, const double a2[], const double c[]) {
    double u = c[n - 1]; /* one axis: exact */
    for (int j = n - 2; j >= 0; j--) {
        u = fmax(u - (a2[j + 1] - a2[j]), c[j]); /* S >= (c_j / u)^2 */
        for (int it = 0; it < 60; it++) {
            double s = 0, s3 = 0;
            for (int i = j; i < n; i++) {
                double d = (a2[i] - a2[j]) + u, q = c[i] / d;
                s += q * q;
                s3 += q * q / d;
            }
            double du = s * (sqrt(s) - 1) / s3; /* (1 - g) / g' */
            if (!(du > 1e-15 * u)) {
                if (du > 0) u += du;
                break;
            }
            u += du;
        }
    }
    return u;
}

/* Signed distance from y (principal frame, n <= 3 axes a) to the surface;
 * g receives the outward normal, unnormalised: y - z = t g. Components of y
 * below 1e-100 a_max are moved off zero to the side of `hint` (+ if none): on
 * a principal plane inside the ellipsoid the closest point is not unique. */
static double axes_point(int n, const double a[], double y[], const double hint[], double g[]) {
    double amax = 0;
    for (int k = 0; k < n; k++) amax = fmax(amax, a[k]);
    double tiny = 1e-100 * amax;
    int ord[3] = {0, 1, 2};
    for (int i = 1; i < n; i++) /* ascending semi-axes */
        for (int j = i; j > 0 && a[ord[j]] < a[ord[j - 1]]; j--) {
            int tmp = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = tmp;
        }
    double a2[3], c[3];
    for (int i = 0; i < n; i++) {
        int k = ord[i];
        if (fabs(y[k]) < tiny) y[k] = hint[k] < 0 ? -tiny : tiny;
        a2[i] = a[k] * a[k];
        c[i] = a[k] * fabs(y[k]);
    }
    double u = secular_root(n, a2, c), gl = 0;
    for (int i = 0; i < n; i++) {
        int k = ord[i];
        g[k] = y[k] / ((a2[i] - a2[0]) + u);
        gl += g[k] * g[k];
    }
    return (u - a2[0]) * sqrt(gl);
}

/* Signed distance of a point to an ellipsoid, its closest surface point and
 * the outward unit normal there. */
typedef struct closest {
    double sd;
    vec3 z, m;
} closest;

static closest ell_point(const ell *e, vec3 p, vec3 hint) {
    vec3 r = vsub(p, e->x);
    double y[3], h[3], g[3];
    for (int k = 0; k < 3; k++) {
        y[k] = vdot(r, e->ax[k]);
        h[k] = vdot(hint, e->ax[k]);
    }
    closest out;
    out.sd = axes_point(3, e->a, y, h, g);
    vec3 m = vadd(vadd(vscale(e->ax[0], g[0]), vscale(e->ax[1], g[1])), vscale(e->ax[2], g[2]));
    out.m = vnormalize(m);
    out.z = vmadd(p, out.m, -out.sd);
    return out;
}

/* Point of the segment [p0, p1] nearest to (deepest in) the ellipsoid. The
 * signed distance to a convex body is convex, so its derivative along the
 * segment, m.d, increases: a sign change is bracketed and found by the
 * Illinois variant of regula falsi. *q receives the segment point. */
static closest ell_segment(const ell *e, vec3 p0, vec3 p1, vec3 hint, vec3 *q) {
    vec3 d = vsub(p1, p0);
    closest c0 = ell_point(e, p0, hint);
    double f0 = vdot(c0.m, d);
    if (f0 >= 0) {
        *q = p0;
        return c0;
    }
    closest c1 = ell_point(e, p1, hint);
    double f1 = vdot(c1.m, d);
    if (f1 <= 0) {
        *q = p1;
        return c1;
    }
    double s0 = 0, s1 = 1, tol = 1e-15 * vlen(d);
    int side = 0;
    closest cs = c0;
    vec3 p = p0;
    for (int it = 0; it < 100; it++) {
        double s = (s0 * f1 - s1 * f0) / (f1 - f0);
        p = vmadd(p0, d, s);
        cs = ell_point(e, p, hint);
        double fs = vdot(cs.m, d);
        if (fabs(fs) <= tol) break;
        if (fs > 0) {
            s1 = s;
            f1 = fs;
            if (side > 0) f0 *= 0.5;
            side = 1;
        } else {
            s0 = s;
            f0 = fs;
            if (side < 0) f1 *= 0.5;
            side = -1;
        }
        if (s1 - s0 <= 1e-15) break;
    }
    *q = p;
    return cs;
}

/* Contact of A's round part (a sphere's centre or a capsule's axis point p,
 * radius r) with the ellipsoid B: normal from A to B, point in the middle of
 * the overlap, r1 = |c - p| (p acts as a sphere centre), r2 = |c - x_B|. */
static void round_out(const ell *e, vec3 p, double r, closest cl, floe_raw_contact *out) {
    out->n = vneg(cl.m);
    out->uN = cl.sd - r;
    out->c = vmadd(p, out->n, r + 0.5 * out->uN);
    out->r1 = vlen(vsub(out->c, p));
    out->r2 = vlen(vsub(out->c, e->x));
}

/* hint for degenerate points: B's outward normal of the previous step */
static vec3 prev_hint(const vec3 *prev) { return prev ? vneg(*prev) : v3(0, 0, 0); }

static int collide_sphere_ellipsoid(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                    const vec3 *prev, double gap, floe_raw_contact *out) {
    ell e = ell_get(b, pb);
    vec3 p = pa->x;
    double r = *(const double *)a;
    if (!prev && vlen2(vsub(p, e.x)) > (e.amax + r + gap) * (e.amax + r + gap)) return 0;
    closest cl = ell_point(&e, p, prev_hint(prev));
    if (!prev && cl.sd - r > gap) return 0;
    round_out(&e, p, r, cl, out);
    return 1;
}

static int collide_capsule_ellipsoid(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                     const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_capsule *k = a;
    ell e = ell_get(b, pb);
    vec3 p0, p1, q;
    floe_capsule_axis(pa->x, pa->q, k->shaft, &p0, &p1);
    double r = k->radius;
    if (!prev) {
        double lim = e.amax + r + gap;
        if (vlen2(vsub(floe_closest_on_segment(e.x, p0, p1), e.x)) > lim * lim) return 0;
    }
    closest cl = ell_segment(&e, p0, p1, prev_hint(prev), &q);
    if (!prev && cl.sd - r > gap) return 0;
    round_out(&e, q, r, cl, out);
    return 1;
}

/* Wall + ellipsoid (as in Woo): the extent along the wall axis is
 * sqrt(Q_kk); the extreme point x - sgn Q e_k / sqrt(Q_kk), projected onto
 * the plane, is the contact point. A flat body: r1 = -d, r2 = d. */
static int collide_wall_ellipsoid(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                  const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_wall *wl = a;
    int ax = wl->axis;
    ell e = ell_get(b, pb);
    vec3 u = v3(0, 0, 0);
    vset(&u, ax, 1);
    vec3 qu = ell_Q(&e, u);
    double ext = sqrt(vcomp(qu, ax));
    double dist = vcomp(e.x, ax) - vcomp(pa->x, ax);
    if (!prev && fabs(dist) - ext > gap) return 0;
    double sgn;
    if (wl->sense != 0) sgn = wl->sense;
    else if (prev) sgn = vcomp(*prev, ax) >= 0 ? 1 : -1;
    else sgn = dist >= 0 ? 1 : -1;
    double un = sgn * dist - ext;
    if (!prev && un > gap) return 0;
    out->n = v3(0, 0, 0);
    vset(&out->n, ax, sgn);
    out->uN = un;
    out->c = vmadd(e.x, qu, -sgn / ext);
    vset(&out->c, ax, vcomp(pa->x, ax));
    double d = vlen(vsub(out->c, e.x));
    out->r1 = -d;
    out->r2 = d;
    return 1;
}

/* Gap between the projections of the thick triangle and the ellipsoid on
 * n = -m (from the facet towards the ellipsoid), where q on edge k is the
 * edge point deepest in the ellipsoid, sd its signed distance and m the
 * normal there. The gap bounds the signed distance from below for any
 * direction and equals it along the best one. The ellipsoid's side gives
 * n.z = n.q + sd; the edge's own ends lie no deeper along n than q (q is
 * optimal on the edge), so only the opposite vertex can: leaving the ends
 * out keeps the value smooth in q (second order in the search tolerance). */
static double facet_sep(const vec3 v[3], int k, double h, vec3 n, vec3 q, double sd) {
    return sd - h - fmax(0, vdot(n, vsub(v[(k + 2) % 3], q)));
}

/* Facet + ellipsoid (absent in Woo). Let s be the centre's distance from the
 * facet's mid-plane and e the ellipsoid's extent along its normal.
 * - The ellipsoid on one side (|s| >= e): if its extreme point towards the
 *   plane projects inside the triangle, the face gives the contact
 *   (uN = |s| - e - h); otherwise the deepest point lies on an edge facing
 *   that projection, found by the segment search (uN = sd - h). Exact.
 * - The ellipsoid through the plane (a thin facet, or an overlap beyond h):
 *   if the plane section (an ellipse) lies inside the triangle, the face
 *   (push out along the normal) is exact. Otherwise the candidates are the
 *   face and the edges that the section crosses; each candidate direction's
 *   projection gap (facet_sep; |s| - e - h for the face) bounds the signed
 *   distance from below, and the largest one wins.
 * The contact point lies on the facet's surface; r1 = max(h, d), r2 = d with
 * d = |c - x| (the facet rule of docs/geometry.md#pairs-and-their-order, length d). */
static int collide_facet_ellipsoid(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                   const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_facet *f = a;
    vec3 v[3];
    floe_facet_global(f, pa, v);
    double h = f->half_thick;
    ell e = ell_get(b, pb);
    vec3 hint = prev_hint(prev), q;
    vec3 fn = vcross(vsub(v[1], v[0]), vsub(v[2], v[0]));
    double fl = vlen(fn);
    if (!(fl > 0)) { /* degenerate triangle: its longest edge */
        int k = 0;
        for (int i = 1; i < 3; i++)
            if (vlen2(vsub(v[(i + 1) % 3], v[i])) > vlen2(vsub(v[(k + 1) % 3], v[k]))) k = i;
        closest cl = ell_segment(&e, v[k], v[(k + 1) % 3], hint, &q);
        out->n = vneg(cl.m);
        out->uN = cl.sd - h;
        out->c = vmadd(q, out->n, h);
    } else {
        fn = vscale(fn, 1.0 / fl);
        double s = vdot(vsub(e.x, v[0]), fn);
        double sgn = s > 0 ? 1 : (s < 0 ? -1 : (prev && vdot(*prev, fn) < 0 ? -1 : 1));
        vec3 nf = vscale(fn, sgn); /* from the facet towards the ellipsoid centre */
        vec3 qn = ell_Q(&e, nf);
        double as = fabs(s), ext = sqrt(vdot(nf, qn));
        if (!prev) {
            if (as - ext > h + gap) return 0;
            double lim = e.amax + h + gap;
            if (vlen2(vsub(floe_closest_on_triangle(e.x, v[0], v[1], v[2]), e.x)) > lim * lim) return 0;
        }
        vec3 ps = vmadd(vmadd(e.x, qn, -1.0 / ext), nf, ext - as); /* extreme point, on the plane */
        int crossing = as < ext, edge[3], nedge = 0;
        /* plane section: centre x - (|s|/e^2) Q nf; support along an in-plane unit o:
         * sqrt(1 - s^2/e^2) sqrt(o.Q o - (o.Q nf)^2 / e^2) */
        vec3 sc = vmadd(e.x, qn, -as / (ext * ext));
        double sr = crossing ? sqrt(1 - (as / ext) * (as / ext)) : 0;
        for (int k = 0; k < 3; k++) {
            vec3 o = vnormalize(vcross(vsub(v[(k + 1) % 3], v[k]), fn)); /* outward edge normal */
            if (!crossing) {
                edge[k] = vdot(o, vsub(ps, v[k])) > 0;
            } else {
                double qo = vdot(o, qn), sup = sr * sqrt(fmax(vdot(o, ell_Q(&e, o)) - qo * qo / (ext * ext), 0));
                edge[k] = vdot(o, vsub(sc, v[k])) + sup > 0;
            }
            nedge += edge[k];
        }
        out->n = nf; /* the face */
        out->uN = as - ext - h;
        out->c = vmadd(ps, nf, h);
        if (nedge) {
            /* one side: the deepest edge point; through the plane: the largest separation */
            double best = crossing ? out->uN : INFINITY;
            if (crossing) out->c = vmadd(floe_closest_on_triangle(ps, v[0], v[1], v[2]), nf, h);
            for (int k = 0; k < 3; k++) {
                if (!edge[k]) continue;
                closest cl = ell_segment(&e, v[k], v[(k + 1) % 3], hint, &q);
                vec3 n = vneg(cl.m);
                double val = crossing ? facet_sep(v, k, h, n, q, cl.sd) : cl.sd - h;
                if (crossing ? val > best : val < best) {
                    best = val;
                    out->n = n;
                    out->uN = val;
                    out->c = vmadd(q, n, h);
                }
            }
        }
    }
    if (!prev && out->uN > gap) return 0;
    double d = vlen(vsub(out->c, e.x));
    out->r1 = fmax(h, d);
    out->r2 = d;
    return 1;
}

/* Infinite cylinder + ellipsoid: in the plane normal to the axis the
 * ellipsoid's shadow is the ellipse with matrix Q restricted to that plane
 * (its support function is the ellipsoid's); the cylinder is a disc there.
 * The exact point-ellipse distance in 2D gives uN and the normal; the
 * ellipsoid's surface point with that normal gives the axial coordinate. */
static int collide_infcyl_ellipsoid(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                    const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_infcyl *cy = a;
    int k = cy->axis, i = (k + 1) % 3, j = (k + 2) % 3;
    double rc = cy->radius;
    ell e = ell_get(b, pb);
    vec3 rel = vsub(pa->x, e.x); /* from the ellipsoid centre to the axis */
    double pi = vcomp(rel, i), pj = vcomp(rel, j);
    if (!prev && pi * pi + pj * pj > (e.amax + rc + gap) * (e.amax + rc + gap)) return 0;
    vec3 ui = v3(0, 0, 0), uj = v3(0, 0, 0);
    vset(&ui, i, 1);
    vset(&uj, j, 1);
    vec3 qi = ell_Q(&e, ui);
    double qii = vcomp(qi, i), qij = vcomp(qi, j), qjj = vcomp(ell_Q(&e, uj), j);
    /* principal axes of the shadow: eigenvalues l1 >= l2 (l2 = det / l1, no cancellation) */
    double mean = 0.5 * (qii + qjj), dif = 0.5 * (qii - qjj), rad = sqrt(dif * dif + qij * qij);
    double l1 = mean + rad, l2 = (qii * qjj - qij * qij) / l1;
    double th = 0.5 * atan2(qij, dif), ct = cos(th), st = sin(th); /* e1 = (ct, st) for l1 */
    double ax2[2] = {sqrt(l1), sqrt(fmax(l2, 1e-30 * l1))};
    double y[2] = {ct * pi + st * pj, -st * pi + ct * pj}, g[2], hnt[2] = {0, 0};
    if (prev) { /* hint: the ellipsoid's previous outward normal, -n */
        hnt[0] = -(ct * vcomp(*prev, i) + st * vcomp(*prev, j));
        hnt[1] = -(-st * vcomp(*prev, i) + ct * vcomp(*prev, j));
    }
    double sd = axes_point(2, ax2, y, hnt, g);
    double gx = ct * g[0] - st * g[1], gy = st * g[0] + ct * g[1], gl = sqrt(gx * gx + gy * gy);
    vec3 m = v3(0, 0, 0); /* outward normal of the shadow, towards the axis */
    vset(&m, i, gx / gl);
    vset(&m, j, gy / gl);
    double un = sd - rc;
    if (!prev && un > gap) return 0;
    vec3 zs = vmadd(e.x, ell_Q(&e, m), 1.0 / ell_extent(&e, m)); /* surface point with normal m */
    vec3 ap = pa->x;
    vset(&ap, k, vcomp(zs, k));
    out->n = vneg(m);
    out->uN = un;
    out->c = vmadd(ap, out->n, rc + 0.5 * un);
    out->r1 = rc;
    out->r2 = vlen(vsub(out->c, e.x));
    return 1;
}

/* ---- ellipsoid pairs: Perram-Wertheim ------------------------------------ */

typedef struct sym3 {
    double xx, yy, zz, xy, xz, yz;
} sym3;

static sym3 ell_Qmat(const ell *e) {
    sym3 q = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 3; k++) {
        vec3 u = e->ax[k];
        double s = e->a[k] * e->a[k];
        q.xx += s * u.x * u.x;
        q.yy += s * u.y * u.y;
        q.zz += s * u.z * u.z;
        q.xy += s * u.x * u.y;
        q.xz += s * u.x * u.z;
        q.yz += s * u.y * u.z;
    }
    return q;
}

static vec3 symmul(const sym3 *m, vec3 v) {
    return v3(m->xx * v.x + m->xy * v.y + m->xz * v.z, m->xy * v.x + m->yy * v.y + m->yz * v.z,
              m->xz * v.x + m->yz * v.y + m->zz * v.z);
}

/* Inverse of a symmetric positive-definite matrix by its adjugate. */
static sym3 syminv(const sym3 *m) {
    sym3 r = {m->yy * m->zz - m->yz * m->yz, m->xx * m->zz - m->xz * m->xz, m->xx * m->yy - m->xy * m->xy,
              m->xz * m->yz - m->xy * m->zz, m->xy * m->yz - m->xz * m->yy, m->xy * m->xz - m->xx * m->yz};
    double det = m->xx * r.xx + m->xy * r.xy + m->xz * r.xz, id = 1.0 / det;
    r.xx *= id;
    r.yy *= id;
    r.zz *= id;
    r.xy *= id;
    r.xz *= id;
    r.yz *= id;
    return r;
}

/* With Q_A, Q_B the ellipsoids' Q matrices (inverse shape matrices),
 * R = x_B - x_A and G(l) = (1-l) Q_A + l Q_B, the contact function is
 * F(l) = l (1-l) R.G^-1 R, concave on [0, 1]; its maximum F* is the square of
 * the factor by which both ellipsoids must be scaled about their centres to
 * touch. With s = G^-1 R, D = Q_B - Q_A and phi = R.s:
 *   phi' = -s.D s,  phi'' = 2 (D s).G^-1 (D s),
 *   F' = (1-2l) phi + l(1-l) phi',  F'' = -2 phi + 2(1-2l) phi' + l(1-l) phi''.
 * Newton on F' = 0, kept inside the bracket that F' > 0 > F' defines
 * (bisection otherwise), starts from e_A / (e_A + e_B) with e the extents
 * along R: exact for aligned ellipsoids (and spheres). At l*, the scaled
 * ellipsoids touch at x_A + (1-l) Q_A s with normal s (from A to B), so
 *   uN = |R| (1 - 1/sqrt(F*)) (R^.n^) = (1 - 1/sqrt(F*)) R.n^:
 * the distance by which the centres would have to separate along R for the
 * unscaled ellipsoids to touch, projected on the normal. */
static int collide_ellipsoid_ellipsoid(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                       const vec3 *prev, double gap, floe_raw_contact *out) {
    ell ea = ell_get(a, pa), eb = ell_get(b, pb);
    vec3 R = vsub(eb.x, ea.x);
    double L = vlen(R), reach = ea.amax + eb.amax;
    if (!prev && L > reach + gap) return 0;
    if (!(L > 1e-12 * reach)) {
        /* coincident centres: keep the previous normal (x for a new contact)
         * and take the overlap of the extents along it */
        vec3 n = prev ? *prev : v3(1, 0, 0);
        double ra = ell_extent(&ea, n), rb = ell_extent(&eb, n);
        out->n = n;
        out->uN = vdot(R, n) - ra - rb;
        out->c = vmadd(ea.x, n, ra + 0.5 * out->uN);
        out->r1 = vlen(vsub(out->c, ea.x));
        out->r2 = vlen(vsub(out->c, eb.x));
        return 1;
    }
    sym3 qa = ell_Qmat(&ea), qb = ell_Qmat(&eb);
    sym3 dq = {qb.xx - qa.xx, qb.yy - qa.yy, qb.zz - qa.zz, qb.xy - qa.xy, qb.xz - qa.xz, qb.yz - qa.yz};
    vec3 rh = vscale(R, 1.0 / L);
    double ra = sqrt(vdot(rh, symmul(&qa, rh))), rb = sqrt(vdot(rh, symmul(&qb, rh)));
    double l = ra / (ra + rb), lo = 0, hi = 1;
    vec3 s = R;
    for (int it = 0; it < 60; it++) {
        sym3 g = {(1 - l) * qa.xx + l * qb.xx, (1 - l) * qa.yy + l * qb.yy, (1 - l) * qa.zz + l * qb.zz,
                  (1 - l) * qa.xy + l * qb.xy, (1 - l) * qa.xz + l * qb.xz, (1 - l) * qa.yz + l * qb.yz};
        sym3 gi = syminv(&g);
        s = symmul(&gi, R);
        double phi = vdot(R, s);
        if (it == 0 && !prev && gap <= 0 && l * (1 - l) * phi > 1) return 0; /* F* >= F(l0) > 1 */
        vec3 ds = symmul(&dq, s);
        double d1 = -vdot(s, ds), d2 = 2 * vdot(ds, symmul(&gi, ds));
        double f1 = (1 - 2 * l) * phi + l * (1 - l) * d1;
        double f2 = -2 * phi + 2 * (1 - 2 * l) * d1 + l * (1 - l) * d2;
        if (f1 > 0) lo = l;
        else hi = l;
        double ln = f2 < 0 ? l - f1 / f2 : -1;
        if (!(ln > lo && ln < hi)) ln = 0.5 * (lo + hi);
        double step = fabs(ln - l);
        l = ln;
        if (step < 1e-14) break;
    }
    sym3 g = {(1 - l) * qa.xx + l * qb.xx, (1 - l) * qa.yy + l * qb.yy, (1 - l) * qa.zz + l * qb.zz,
              (1 - l) * qa.xy + l * qb.xy, (1 - l) * qa.xz + l * qb.xz, (1 - l) * qa.yz + l * qb.yz};
    sym3 gi = syminv(&g);
    s = symmul(&gi, R);
    double F = l * (1 - l) * vdot(R, s);
    vec3 n = vnormalize(s);
    double un = (1 - 1 / sqrt(F)) * vdot(R, n);
    if (!prev && un > gap) return 0;
    out->n = n;
    out->uN = un;
    out->c = vmadd(ea.x, symmul(&qa, s), 1 - l);
    out->r1 = vlen(vsub(out->c, ea.x));
    out->r2 = vlen(vsub(out->c, eb.x));
    return 1;
}

/* ---- the class ----------------------------------------------------------- */

static int init(void *rec, const double *p, const floe_pose *pose, char *err, size_t errlen) {
    ((floe_ellipsoid *)rec)->semi = v3(p[0], p[1], p[2]);
    return 0;
}

static void params_of(const void *rec, const floe_pose *pose, double *p) {
    vec3 s = ((const floe_ellipsoid *)rec)->semi;
    p[0] = s.x;
    p[1] = s.y;
    p[2] = s.z;
}

static void mass(const void *rec, double density, double *m, vec3 *inertia) {
    ellipsoid_mass(((const floe_ellipsoid *)rec)->semi, density, m, inertia);
}

static double radius(const void *rec) {
    vec3 s = ((const floe_ellipsoid *)rec)->semi;
    return fmin(s.x, fmin(s.y, s.z));
}

static double bound(const void *rec) {
    vec3 s = ((const floe_ellipsoid *)rec)->semi;
    return fmax(s.x, fmax(s.y, s.z));
}

static vec3 half_extent(const void *rec, quat q) {
    return floe_ellipsoid_half_extent(((const floe_ellipsoid *)rec)->semi, q);
}

/* The surface: the unit sphere u (poles on body z, 8 latitude bands) mapped
 * to S u, normals along S^-1 u. */
enum { SEG = 16, RINGS = 7 };

static void picture(const void *rec, const floe_pose *p, const floe_draw_box *box, vec3 *pt, vec3 *nrm,
                    int32_t *corner) {
    vec3 a = ((const floe_ellipsoid *)rec)->semi;
    int n = 0;
    for (int k = -1; k <= RINGS; k++) {
        int pole = k < 0 || k == RINGS;
        double th = FLOE_PI * (k + 1) / (RINGS + 1), st = sin(th), ct = -cos(th);
        for (int j = 0; j < (pole ? 1 : SEG); j++) {
            double cp, sp;
            floe_ring_dir(j, SEG, &cp, &sp);
            vec3 u = pole ? v3(0, 0, k < 0 ? -1 : 1) : v3(st * cp, st * sp, ct);
            vec3 q = vmul(a, u), g = v3(u.x / a.x, u.y / a.y, u.z / a.z);
            double gl = vlen(g);
            pt[n] = vadd(p->x, qrotate(p->q, q));
            if (nrm) nrm[n] = qrotate(p->q, vscale(g, 1 / gl));
            n++;
        }
    }
    floe_ring_faces(corner, SEG, RINGS, 1);
}

static const floe_shape_param params[] = {
    {.key = "semi_axes",
     .item = "semi-axis",
     .unit = "m",
     .kind = FLOE_PARAM_REAL,
     .n = 3,
     .lo = 0,
     .hi = FLOE_MAX_COORD,
     .open = FLOE_OPEN_LO,
     .def = NAN,
     .list = "a list of 3 semi-axes [a, b, c]"},
};

static const floe_shape_field fields[] = {
    {.name = "semi_axes", .type = FLOE_FIELD_F64, .rows = 3, .offset = offsetof(floe_ellipsoid, semi), .length = 1},
};

static const char *const keys[] = {"semi_axes", "pos", "ori", "vel", "angvel", "material", "group", "fixed", "block"};

const floe_shape_class floe_shape_ellipsoid = {
    .type = FLOE_SHAPE_ELLIPSOID,
    .name = "ellipsoid",
    .title = "ellipsoid",
    .section = "ellipsoids",
    .rank = 60,
    .flags = FLOE_SHAPE_TURNS,
    .size = sizeof(floe_ellipsoid),
    .params = params,
    .nparams = FLOE_LEN(params),
    .fields = fields,
    .nfields = FLOE_LEN(fields),
    .init = init,
    .params_of = params_of,
    .mass = mass,
    .radius = radius,
    .bound = bound,
    .half_extent = half_extent,
    .draw = FLOE_DRAW_SURFACE,
    .draw_points = 2 + RINGS * SEG,
    .draw_faces = 2 * SEG * (RINGS - 1) + 2 * SEG,
    .face_size = 3,
    .picture = picture,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .collide = {[FLOE_SHAPE_SPHERE] = collide_sphere_ellipsoid,
                [FLOE_SHAPE_CAPSULE] = collide_capsule_ellipsoid,
                [FLOE_SHAPE_ELLIPSOID] = collide_ellipsoid_ellipsoid,
                [FLOE_SHAPE_WALL] = collide_wall_ellipsoid,
                [FLOE_SHAPE_FACET] = collide_facet_ellipsoid,
                [FLOE_SHAPE_INFCYLINDER] = collide_infcyl_ellipsoid},
};
