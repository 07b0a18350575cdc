/* Ellipsoid contact geometry: Woo's ellipsoid-pair test at five scales
 * (Woo's testNormalDisplacementEllipsoid), exact overlaps, normals and contact points of
 * ellipsoids against walls, spheres, capsules, facets (face, edge, vertex)
 * and infinite cylinders, the new-contact rule, and a robustness sweep of
 * the narrow-phase functions (finite output for degenerate configurations).
 *
 * The analytic cases rest on one fact: for a unit u, z = x + Q u / sqrt(u.Q u)
 * (Q = R diag(a^2) R^T) is the surface point with outward normal u, so the
 * nearest surface point of z + d u is z for every d > 0 (and for d down to
 * minus the smallest radius of curvature). A body whose deepest point is
 * z + d u, with its surface tangent there, therefore has uN = d - (its radius). */
#include "check.h"
#include "core/world.h"
#include <floe/floe.h>
#include <stdlib.h>

typedef floe_vec3 V;
static V vv(double x, double y, double z) { return (V){x, y, z}; }
static V add(V a, V b) { return vv(a.x + b.x, a.y + b.y, a.z + b.z); }
static V sub(V a, V b) { return vv(a.x - b.x, a.y - b.y, a.z - b.z); }
static V scl(V a, double s) { return vv(a.x * s, a.y * s, a.z * s); }
static V mad(V a, V b, double s) { return add(a, scl(b, s)); }
static double dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static V cross(V a, V b) { return vv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double len(V a) { return sqrt(dot(a, a)); }
static V unit(V a) { return scl(a, 1 / len(a)); }
static double comp(V a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
static V axis_vec(int i) { return vv(i == 0, i == 1, i == 2); }

static floe_quat qaxis(V axis, double ang) {
    V u = unit(axis);
    double s = sin(ang / 2);
    return (floe_quat){cos(ang / 2), u.x * s, u.y * s, u.z * s};
}
/* column j of the rotation matrix: body axis j in global coordinates */
static V qcol(floe_quat q, int j) {
    double w = q.w, x = q.x, y = q.y, z = q.z;
    if (j == 0) return vv(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    if (j == 1) return vv(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    return vv(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
}
static V qrot(floe_quat q, V v) { return add(add(scl(qcol(q, 0), v.x), scl(qcol(q, 1), v.y)), scl(qcol(q, 2), v.z)); }
/* quaternion turning the body x axis onto unit u */
static floe_quat along(V u) {
    V c = cross(vv(1, 0, 0), u);
    double s = len(c);
    if (s < 1e-15) return u.x > 0 ? (floe_quat){1, 0, 0, 0} : (floe_quat){0, 0, 0, 1};
    return qaxis(c, atan2(s, u.x));
}
/* Q u and the surface point with outward normal u (module comment) */
static V Qmul(floe_quat q, V a, V u) {
    double s[3] = {a.x, a.y, a.z};
    V r = vv(0, 0, 0);
    for (int j = 0; j < 3; j++) r = mad(r, qcol(q, j), s[j] * s[j] * dot(qcol(q, j), u));
    return r;
}
static V support(V x, floe_quat q, V a, V u) {
    V qu = Qmul(q, a, u);
    return mad(x, qu, 1 / sqrt(dot(u, qu)));
}

static const floe_quat ORIS[] = {
    {1, 0, 0, 0},           {0.70710678118654752, 0, 0, 0.70710678118654752}, /* 90 deg about z */
    {0.9, 0.3, -0.2, 0.1},  {0.2, -0.5, 0.7, 0.4},
    {-0.3, 0.8, 0.1, -0.5},
};
enum { NORI = sizeof ORIS / sizeof ORIS[0] };
static floe_quat ori(int i) {
    floe_quat q = ORIS[i];
    double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return (floe_quat){q.w / l, q.x / l, q.y / l, q.z / l};
}

/* A world with one linear material; contacts survive separation so that
 * the gap of an existing contact can be read. */
static floe_world *mk(double dt) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    floe_world *w = floe_world_create(&def);
    floe_add_material(w, "m", "linear");
    floe_model_set(w, "linear", "no_break", 1);
    return w;
}
static floe_body_def body(V pos, floe_quat q) {
    floe_body_def bd = floe_default_body_def();
    bd.pos = pos;
    bd.ori = q;
    bd.material = 0;
    bd.blocked = FLOE_DOF_ALL;
    return bd;
}
static int get(floe_world *w, int a, int b, floe_contact_info *ci) {
    int k = floe_contact_find(w, a, b);
    if (k < 0) return 0;
    floe_contact_get(w, k, ci);
    return 1;
}
#define CHECK_VEC(got, want, tol)      \
    do {                               \
        V g__ = (got), w__ = (want);   \
        CHECK_NEAR(g__.x, w__.x, tol); \
        CHECK_NEAR(g__.y, w__.y, tol); \
        CHECK_NEAR(g__.z, w__.z, tol); \
    } while (0)

/* ---- Woo's ellipsoid-pair test ------------------------------------------- */

/* Ellipsoid 1 at the origin, semi-axes s (.1,.2,.1); ellipsoid 2 at
 * gOri (.3 s, 0, 0), semi-axes s (.2,.1,.1); both oriented by gOri, the
 * normalised quaternion (cos(pi/6), sin(pi/6) (.1, 1, .3)) (axis not
 * normalised first, as Woo's test writes it). They touch at gOri (.1 s, 0, 0).
 * Ellipsoid 2 moves with gOri (-.1, 0, 0), dt = 0.1; both are fully blocked
 * and keep their velocities.
 * "After one step": floe_step first computes the contacts at t = 0 (the
 * touching pair; whether F = 1 rounds to a contact does not matter), then
 * moves the bodies to t = dt, then computes the contacts again: the uN read
 * after the first floe_step is at t = dt, as in Woo, whose step runs
 * Leapfrog before the contact loop. Along the line of centres the contact
 * function is F = (|R| / (a + b))^2, so uN = |R| - (a + b) = -0.01 exactly. */
static void test_woo_scales(void) {
    const double scales[] = {0.5 / 3, 1.0 / 3, 10.0 / 3, 100.0 / 3, 1000.0 / 3};
    double h = sin(FLOE_PI / 6);
    floe_quat g = {cos(FLOE_PI / 6), 0.1 * h, 1.0 * h, 0.3 * h};
    double gl = sqrt(g.w * g.w + g.x * g.x + g.y * g.y + g.z * g.z);
    g = (floe_quat){g.w / gl, g.x / gl, g.y / gl, g.z / gl};
    for (int i = 0; i < 5; i++) {
        double s = scales[i];
        floe_world_def def = floe_default_world_def();
        def.dt = 0.1;
        def.damping = 0.4;
        floe_world *w = floe_world_create(&def);
        int m = floe_add_material(w, "m", "linear");
        floe_material_set(w, m, "density", 1e3);
        floe_material_set(w, m, "young", 1e8);
        floe_material_set(w, m, "kt_div_kn", 0.2);
        floe_material_set(w, m, "tan_phi", 0.5);
        floe_model_set(w, "linear", "no_break", 1);
        floe_body_def bd = body(vv(0, 0, 0), g);
        int e1 = floe_add_ellipsoid(w, &bd, vv(0.1 * s, 0.2 * s, 0.1 * s));
        bd.pos = qrot(g, vv(0.3 * s, 0, 0));
        bd.vel = qrot(g, vv(-0.1, 0, 0));
        int e2 = floe_add_ellipsoid(w, &bd, vv(0.2 * s, 0.1 * s, 0.1 * s));
        CHECK(floe_step(w) == FLOE_OK);
        floe_contact_info ci = {0};
        CHECK(get(w, e1, e2, &ci));
        CHECK_NEAR(ci.uN, -0.01, 1e-7);
        CHECK_NEAR(ci.uN, -0.01, 1e-12 * (1 + s)); /* tighter than Woo's tolerance */
        CHECK_VEC(ci.normal, qcol(g, 0), 1e-12);
        /* scaled ellipsoids touch at a/(a+b) of the way: x_A + |R|/3 */
        CHECK_VEC(ci.point, qrot(g, vv((0.3 * s - 0.01) / 3, 0, 0)), 1e-12 * (1 + s));
        REPORT("woo ellipsoid pair, s = %-9.6g: uN = %.15f (created at step %lld, lens %.6g %.6g)\n", s, ci.uN,
               (long long)ci.step_created, ci.lens[0], ci.lens[1]);
        floe_world_destroy(w);
    }
}

/* ---- wall ----------------------------------------------------------------- */

/* Extent along the wall axis k: sqrt(sum_j (R_kj a_j)^2); contact point: the
 * extreme point x - sgn Q e_k / extent, projected onto the wall. */
static void test_wall(void) {
    const V a = {0.3, 0.2, 0.1};
    const double d = 0.004;
    double worst = 0;
    for (int o = 0; o < NORI; o++)
        for (int ax = 0; ax < 3; ax++)
            for (int sense = -1; sense <= 1; sense++) {
                floe_quat q = ori(o);
                double ext2 = 0, s[3] = {a.x, a.y, a.z};
                for (int j = 0; j < 3; j++) ext2 += pow(comp(qcol(q, j), ax) * s[j], 2);
                double ext = sqrt(ext2), sgn = sense == 0 ? -1 : sense;
                floe_world *w = mk(1e-6);
                V wp = vv(0.5, -0.25, 1.5);
                floe_body_def bd = body(wp, (floe_quat){1, 0, 0, 0});
                int wl = floe_add_wall(w, &bd, ax, sense);
                double xc = comp(wp, ax) + sgn * (ext - d); /* overlap d */
                V x = ax == 0 ? vv(xc, 0.2, 0.3) : (ax == 1 ? vv(0.1, xc, 0.3) : vv(0.1, 0.2, xc));
                bd = body(x, q);
                int e = floe_add_ellipsoid(w, &bd, a);
                CHECK(floe_step(w) == FLOE_OK);
                floe_contact_info ci = {0};
                CHECK(get(w, wl, e, &ci));
                CHECK_NEAR(ci.uN, -d, 1e-15);
                CHECK_VEC(ci.normal, scl(axis_vec(ax), sgn), 0);
                V c = mad(x, Qmul(q, a, axis_vec(ax)), -sgn / ext);
                c = ax == 0 ? vv(wp.x, c.y, c.z) : (ax == 1 ? vv(c.x, wp.y, c.z) : vv(c.x, c.y, wp.z));
                CHECK_VEC(ci.point, c, 1e-15);
                CHECK_NEAR(ci.lens[0], len(sub(c, x)), 1e-15); /* flat: takes the ellipsoid's d */
                CHECK_NEAR(ci.lens[1], len(sub(c, x)), 1e-15);
                CHECK_NEAR(ci.area, FLOE_PI * dot(sub(c, x), sub(c, x)), 1e-14);
                worst = fmax(worst, fabs(ci.uN + d));
                floe_world_destroy(w);
            }
    REPORT("wall + ellipsoid: %d orientations x 3 axes x 3 senses, max |uN - uN_exact| = %.2g\n", NORI, worst);
}

/* ---- sphere ------------------------------------------------------------- */

static void test_sphere(void) {
    const V a = {1.0, 0.5, 0.25};
    const double R = 0.2, d = 0.003;
    double worst = 0, worst_n = 0;
    for (int o = 0; o < NORI; o++) {
        floe_quat q = ori(o);
        V x = vv(0.3, -0.2, 0.1);
        /* along the principal axes, both ends: uN = dist - a_k - R */
        for (int k = 0; k < 6; k++) {
            double sk = k < 3 ? 1 : -1, ak = comp(a, k % 3);
            V dir = scl(qcol(q, k % 3), sk);
            floe_world *w = mk(1e-6);
            floe_body_def bd = body(mad(x, dir, ak + R - d), q);
            int s = floe_add_sphere(w, &bd, R);
            bd.pos = x;
            int e = floe_add_ellipsoid(w, &bd, a);
            CHECK(floe_step(w) == FLOE_OK);
            floe_contact_info ci = {0};
            CHECK(get(w, s, e, &ci));
            CHECK(ci.a == s && ci.b == e); /* sphere first */
            CHECK_NEAR(ci.uN, -d, 1e-14);
            CHECK_VEC(ci.normal, scl(dir, -1), 1e-14);
            CHECK_VEC(ci.point, mad(x, dir, ak - d / 2), 1e-14); /* middle of the overlap */
            CHECK_NEAR(ci.lens[0], R - d / 2, 1e-14);            /* |c - x_A| */
            CHECK_NEAR(ci.lens[1], ak - d / 2, 1e-14);           /* |c - x_B| */
            floe_world_destroy(w);
        }
        /* any direction: the sphere centre on the outward normal of a surface point */
        for (int k = 0; k < 4; k++) {
            V u = unit(vv(cos(1.3 * k + o), sin(2.1 * k - o), 0.7 - 0.4 * k));
            V z = support(x, q, a, u);
            floe_world *w = mk(1e-6);
            floe_body_def bd = body(mad(z, u, R - d), q);
            int s = floe_add_sphere(w, &bd, R);
            bd.pos = x;
            int e = floe_add_ellipsoid(w, &bd, a);
            CHECK(floe_step(w) == FLOE_OK);
            floe_contact_info ci = {0};
            CHECK(get(w, s, e, &ci));
            CHECK_NEAR(ci.uN, -d, 1e-14);
            CHECK_VEC(ci.normal, scl(u, -1), 1e-13);
            worst = fmax(worst, fabs(ci.uN + d));
            worst_n = fmax(worst_n, len(add(ci.normal, u)));
            floe_world_destroy(w);
        }
    }
    REPORT("sphere + ellipsoid: principal axes and general directions, max |uN err| = %.2g, |n err| = %.2g\n", worst,
           worst_n);
}

/* ---- capsule ------------------------------------------------------------- */

static void test_capsule(void) {
    const V a = {0.5, 0.3, 0.2};
    const double R = 0.1, L = 0.6, d = 0.002;
    double worst = 0;
    for (int o = 0; o < NORI; o++) {
        floe_quat q = ori(o);
        V x = vv(-0.2, 0.1, 0.4);
        for (int k = 0; k < 6; k++) {
            V u = unit(vv(sin(0.9 * k + o), cos(1.7 * k), 0.3 * k - 0.8));
            V z = support(x, q, a, u);
            V t = unit(cross(u, vv(0.3, -0.5, 0.8)));
            floe_world *w = mk(1e-6);
            /* k even: lying across the surface (axis tangent, off-centre); odd: end-on along u */
            floe_body_def bd = k % 2 ? body(mad(z, u, R - d + L / 2), along(u))
                                     : body(mad(mad(z, u, R - d), t, 0.2 * L), along(t));
            int c = floe_add_capsule(w, &bd, R, L);
            bd = body(x, q);
            int e = floe_add_ellipsoid(w, &bd, a);
            CHECK(floe_step(w) == FLOE_OK);
            floe_contact_info ci = {0};
            CHECK(get(w, c, e, &ci));
            CHECK(ci.a == c);
            CHECK_NEAR(ci.uN, -d, 1e-14);
            CHECK_VEC(ci.normal, scl(u, -1), 1e-12);
            CHECK_VEC(ci.point, mad(z, u, -d / 2), 1e-13);
            CHECK_NEAR(ci.lens[0], R - d / 2, 1e-13);
            worst = fmax(worst, fabs(ci.uN + d));
            floe_world_destroy(w);
        }
    }
    /* a capsule lying along the top of an axis-aligned ellipsoid */
    floe_world *w = mk(1e-6);
    floe_body_def bd = body(vv(0.1, 0, 0.2 + R - d), (floe_quat){1, 0, 0, 0});
    int c = floe_add_capsule(w, &bd, R, L);
    bd.pos = vv(0, 0, 0);
    int e = floe_add_ellipsoid(w, &bd, a);
    CHECK(floe_step(w) == FLOE_OK);
    floe_contact_info ci = {0};
    CHECK(get(w, c, e, &ci));
    CHECK_NEAR(ci.uN, -d, 1e-15);
    CHECK_VEC(ci.normal, vv(0, 0, -1), 1e-15);
    CHECK_VEC(ci.point, vv(0, 0, 0.2 - d / 2), 1e-13);
    floe_world_destroy(w);
    REPORT("capsule + ellipsoid: tangent and end-on, max |uN err| = %.2g\n", worst);
}

/* ---- facet ----------------------------------------------------------------- */

/* face: a large triangle under a rotated ellipsoid; edge: an edge tangent to
 * the surface with the triangle rising away from it (a fin); vertex: a
 * vertex on the outward normal with both edges rising away. For h = 0 the
 * ellipsoid pokes through the facet's plane (face) or crosses it (fins). */
static void test_facet(void) {
    const V a = {0.4, 0.25, 0.15};
    const double d = 0.002;
    double worst[3] = {0, 0, 0};
    for (int o = 0; o < NORI; o++)
        for (int hi = 0; hi < 2; hi++) {
            double h = hi ? 0.05 : 0;
            floe_quat q = ori(o);
            V x = vv(0.1, 0.2, -0.3);
            for (int kind = 0; kind < 3; kind++)
                for (int k = 0; k < 3; k++) {
                    V u = unit(vv(cos(2.3 * k + o), sin(1.1 * k + 2 * o), 0.5 - 0.6 * k));
                    V z = support(x, q, a, u), p = mad(z, u, h - d);
                    V t = unit(cross(u, vv(0.2, 0.9, -0.4))), b = cross(u, t);
                    V tri[3];
                    if (kind == 0) {
                        tri[0] = mad(mad(p, t, -3), b, -3);
                        tri[1] = mad(mad(p, t, 3), b, -3);
                        tri[2] = mad(p, b, 3);
                    } else if (kind == 1) {
                        V up = unit(add(u, scl(b, 0.6 - 0.5 * k)));
                        tri[0] = mad(p, t, -0.3 - 0.1 * k);
                        tri[1] = mad(p, t, 0.4);
                        tri[2] = mad(p, up, 0.5);
                    } else {
                        tri[0] = p;
                        tri[1] = mad(p, unit(add(u, scl(t, 1.2))), 0.5);
                        tri[2] = mad(p, unit(add(u, scl(b, 0.8 - 0.5 * k))), 0.5);
                    }
                    floe_world *w = mk(1e-6);
                    floe_body_def bd = body(p, (floe_quat){1, 0, 0, 0});
                    int f = floe_add_facet(w, &bd, tri, h);
                    bd = body(x, q);
                    int e = floe_add_ellipsoid(w, &bd, a);
                    CHECK(floe_step(w) == FLOE_OK);
                    floe_contact_info ci = {0};
                    CHECK(get(w, f, e, &ci));
                    CHECK_NEAR(ci.uN, -d, 1e-14);
                    CHECK_VEC(ci.normal, scl(u, -1), 1e-11);
                    CHECK_VEC(ci.point, mad(z, u, -d), 1e-11); /* on the facet's surface: p - h u */
                    double dc = len(sub(ci.point, x));
                    CHECK_NEAR(ci.lens[0], fmax(h, dc), 1e-11);
                    CHECK_NEAR(ci.lens[1], dc, 1e-11);
                    worst[kind] = fmax(worst[kind], fabs(ci.uN + d));
                    floe_world_destroy(w);
                }
        }
    REPORT("facet + ellipsoid (h = 0 and 0.05): max |uN err| face %.2g, edge %.2g, vertex %.2g\n", worst[0], worst[1],
           worst[2]);
}

/* ---- infinite cylinder --------------------------------------------------- */

/* In the plane normal to the axis the ellipsoid's shadow has outward normal
 * m at the projection of the surface point with normal m: the axis through
 * support(m) + (Rc - d) m gives uN = -d, n = -m. */
static void test_cylinder(void) {
    const V a = {0.4, 0.25, 0.15};
    const double Rc = 0.3, d = 0.002;
    double worst = 0;
    for (int o = 0; o < NORI; o++)
        for (int ax = 0; ax < 3; ax++) {
            floe_quat q = ori(o);
            V x = vv(0.1, -0.2, 0.3);
            V m = unit(vv(ax == 0 ? 0 : cos(o + 0.5), ax == 1 ? 0 : sin(o + 0.5), ax == 2 ? 0 : 0.7));
            V z = support(x, q, a, m);
            floe_world *w = mk(1e-6);
            floe_body_def bd = body(mad(mad(z, m, Rc - d), axis_vec(ax), 2.0), (floe_quat){1, 0, 0, 0});
            int c = floe_add_infcylinder(w, &bd, ax, Rc);
            bd = body(x, q);
            int e = floe_add_ellipsoid(w, &bd, a);
            CHECK(floe_step(w) == FLOE_OK);
            floe_contact_info ci = {0};
            CHECK(get(w, c, e, &ci));
            CHECK_NEAR(ci.uN, -d, 1e-14);
            CHECK_VEC(ci.normal, scl(m, -1), 1e-13);
            CHECK_VEC(ci.point, mad(z, m, -d / 2), 1e-13); /* middle of the overlap, at z's axial coordinate */
            CHECK_NEAR(ci.lens[0], Rc, 0);
            CHECK_NEAR(ci.lens[1], len(sub(ci.point, x)), 1e-14);
            worst = fmax(worst, fabs(ci.uN + d));
            floe_world_destroy(w);
        }
    REPORT("cylinder + ellipsoid: %d orientations x 3 axes, max |uN err| = %.2g\n", NORI, worst);
}

/* ---- ellipsoid pairs beyond the aligned case ------------------------------ */

/* A sphere is an ellipsoid: Perram-Wertheim against the exact sphere-ellipsoid
 * distance. Equal when the normal passes through both centres (principal
 * axes); otherwise uN = |R|(1 - 1/sqrt(F)) R^.n^ is an estimate. */
static void test_pw_vs_exact(void) {
    const V a = {0.5, 0.3, 0.2};
    const double R = 0.1, d = 0.002;
    double worst_axis = 0, worst_rel = 0, worst_n = 0;
    for (int o = 0; o < NORI; o++)
        for (int k = 0; k < 9; k++) {
            floe_quat q = ori(o);
            V x = vv(0, 0, 0);
            V u = k < 3 ? qcol(q, k) : unit(vv(cos(1.1 * k + o), sin(0.7 * k), 0.4 * k - 1.5));
            V z = support(x, q, a, u);
            floe_world *w = mk(1e-6);
            floe_body_def bd = body(x, q);
            int e = floe_add_ellipsoid(w, &bd, a);
            bd = body(mad(z, u, R - d), ori((o + 2) % NORI));
            int s = floe_add_ellipsoid(w, &bd, vv(R, R, R));
            CHECK(floe_step(w) == FLOE_OK);
            floe_contact_info ci = {0};
            CHECK(get(w, e, s, &ci));
            if (k < 3) {
                CHECK_NEAR(ci.uN, -d, 1e-14);
                CHECK_VEC(ci.normal, u, 1e-13);
                worst_axis = fmax(worst_axis, fabs(ci.uN + d));
            } else {
                CHECK(ci.uN < 0);
                worst_rel = fmax(worst_rel, fabs(ci.uN + d) / d);
                worst_n = fmax(worst_n, len(sub(ci.normal, u)));
            }
            floe_world_destroy(w);
        }
    CHECK(worst_rel < 0.05); /* an estimate, but a close one for small overlaps */
    REPORT("ellipsoid pair (PW) vs exact, overlap %g: principal |err| %.2g; general max rel err %.3g, |n err| %.3g\n",
           d, worst_axis, worst_rel, worst_n);
}

/* ---- the new-contact rule and separation --------------------------------- */

/* Each pair starts with overlap d0 (or gap for the first step), body B moves
 * away along the normal with speed v. A separated pair never starts a
 * contact; an existing one keeps reporting its gap (no_break keeps it). */
enum { P_SPHERE, P_CAPSULE, P_ELL, P_WALL, P_FACET, P_CYL, P_COUNT };
static const char *const PNAME[P_COUNT] = {"sphere", "capsule", "ellipsoid", "wall", "facet", "cylinder"};

/* Ellipsoid (0.3, 0.2, 0.1) at the origin, axis-aligned, and the other body
 * along +z with gap g (uN = g exactly, normal -z from the other body, or +z
 * for the ellipsoid pair where the ellipsoid is A). */
static void add_pair(floe_world *w, int kind, double g, V vel, int *ia, int *ib) {
    floe_body_def bd = body(vv(0, 0, 0), (floe_quat){1, 0, 0, 0});
    int e = floe_add_ellipsoid(w, &bd, vv(0.3, 0.2, 0.1));
    bd.vel = vel;
    int o = -1;
    switch (kind) {
        case P_SPHERE:
            bd.pos = vv(0, 0, 0.1 + 0.05 + g);
            o = floe_add_sphere(w, &bd, 0.05);
            break;
        case P_CAPSULE:
            bd.pos = vv(0.05, 0, 0.1 + 0.05 + g);
            o = floe_add_capsule(w, &bd, 0.05, 0.4);
            break;
        case P_ELL:
            bd.pos = vv(0, 0, 0.1 + 0.15 + g);
            o = floe_add_ellipsoid(w, &bd, vv(0.1, 0.2, 0.15));
            break;
        case P_WALL:
            bd.pos = vv(0, 0, 0.1 + g);
            bd.vel = vv(0, 0, 0);
            o = floe_add_wall(w, &bd, 2, -1);
            floe_set_velocity(w, e, scl(vel, -1)); /* walls do not move: the ellipsoid leaves */
            break;
        case P_FACET: {
            V tri[3] = {{-1, -1, 0.1 + g}, {1, -1, 0.1 + g}, {0, 1, 0.1 + g}};
            bd.pos = vv(0, 0, 0.1 + g);
            o = floe_add_facet(w, &bd, tri, 0);
            floe_set_velocity(w, o, vel);
            break;
        }
        case P_CYL: /* cylinders move only along their axis: the ellipsoid leaves */
            bd.pos = vv(0, 0, 0.1 + 0.2 + g);
            bd.vel = vv(0, 0, 0);
            o = floe_add_infcylinder(w, &bd, 0, 0.2);
            floe_set_velocity(w, e, scl(vel, -1));
            break;
    }
    *ia = kind == P_ELL ? e : o;
    *ib = kind == P_ELL ? o : e;
}

static void test_new_contact_rule(void) {
    for (int kind = 0; kind < P_COUNT; kind++) {
        double sgn = kind == P_ELL ? 1 : -1; /* normal.z */
        /* separated by 1e-9: no contact */
        floe_world *w = mk(1e-3);
        int a, b;
        add_pair(w, kind, 1e-9, vv(0, 0, 0), &a, &b);
        CHECK(floe_step(w) == FLOE_OK);
        CHECK(floe_contact_count(w) == 0);
        if (floe_contact_count(w)) fprintf(stderr, "  %s: separated pair made a contact\n", PNAME[kind]);
        floe_world_destroy(w);
        /* creation across a gap (models with a creation gap): gap 1e-4 */
        w = mk(1e-3);
        add_pair(w, kind, 1e-4, vv(0, 0, 0), &a, &b);
        floe_collide_fn *fn = floe_narrowphase(floe_particle_shape(w, a), floe_particle_shape(w, b));
        floe_raw_contact raw;
        CHECK(fn && floe__collide(w, fn, a, b, NULL, 0.5e-4, &raw) == 0);
        CHECK(fn && floe__collide(w, fn, a, b, NULL, 2e-4, &raw) == 1);
        CHECK_NEAR(raw.uN, 1e-4, 1e-15);
        floe_world_destroy(w);
        /* overlap 1e-3, moving apart at 1 m/s: after 3 steps the gap is 2e-3 */
        w = mk(1e-3);
        add_pair(w, kind, -1e-3, vv(0, 0, 1), &a, &b);
        CHECK(floe_run(w, 3) == FLOE_OK);
        floe_contact_info ci = {0};
        CHECK(get(w, a, b, &ci));
        CHECK_NEAR(ci.uN, 2e-3, 1e-14);
        CHECK_NEAR(ci.normal.z, sgn, 1e-15);
        CHECK(ci.step_created == 0);
        REPORT("new-contact rule, %-9s: separated -> %d contacts; existing after separation: uN = %.6g\n", PNAME[kind],
               0, ci.uN);
        floe_world_destroy(w);
    }
}

/* ---- robustness ------------------------------------------------------------ */

/* The narrow-phase functions straight from the table, for random and
 * degenerate configurations: coincident centres, bodies deep inside each
 * other, flat and needle ellipsoids, zero-length capsules, parallel faces,
 * degenerate triangles. Every existing contact must come back finite with
 * a unit normal. */
static double rnd(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffffff) / 16777216.0;
}
static floe_quat rquat(unsigned *s) {
    floe_quat q = {rnd(s) - 0.5, rnd(s) - 0.5, rnd(s) - 0.5, rnd(s) - 0.5};
    double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return (floe_quat){q.w / l, q.x / l, q.y / l, q.z / l};
}
static int finite_out(const floe_raw_contact *o) {
    double z = o->n.x * 0 + o->n.y * 0 + o->n.z * 0 + o->c.x * 0 + o->c.y * 0 + o->c.z * 0 + o->uN * 0 + o->r1 * 0 +
               o->r2 * 0;
    return z == 0 && fabs(len(o->n) - 1) < 1e-9;
}

static void test_robustness(void) {
    floe_world *w = mk(1e-6);
    floe_body_def bd = body(vv(0, 0, 0), (floe_quat){1, 0, 0, 0});
    /* one body of each kind, moved around below; B ids first */
    int e = floe_add_ellipsoid(w, &bd, vv(1, 1, 1));
    int ids[P_COUNT];
    ids[P_ELL] = floe_add_ellipsoid(w, &bd, vv(1, 1, 1));
    ids[P_SPHERE] = floe_add_sphere(w, &bd, 1);
    ids[P_CAPSULE] = floe_add_capsule(w, &bd, 1, 1);
    V tri0[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    ids[P_FACET] = floe_add_facet(w, &bd, tri0, 0);
    ids[P_CYL] = floe_add_infcylinder(w, &bd, 2, 1);
    ids[P_WALL] = floe_add_wall(w, &bd, 2, 0);
    floe_world *W = w; /* internal state, to place shapes directly */
    unsigned seed = 12345;
    int bad[P_COUNT] = {0}, made[P_COUNT] = {0};
    vec3 prev;
    memset(&prev, 0, sizeof prev);
    for (int trial = 0; trial < 6000; trial++) {
        int mode = trial % 6; /* random, coincident, deep, needle/flat, parallel, far */
        double sc = mode == 1 ? 0 : (mode == 2 ? 0.2 : (mode == 5 ? 20 : 2));
        vec3 sa = v3(0.1 + rnd(&seed), 0.1 + rnd(&seed), 0.1 + rnd(&seed));
        if (mode == 3) sa = trial % 12 < 6 ? v3(1, 1e-3, 0.02) : v3(1e-3, 1, 1);
        quat q = mode == 4 ? (quat){1, 0, 0, 0} : rquat(&seed);
        ((floe_ellipsoid *)floe__shape_data(W, e))->semi = sa;
        W->ori[e] = q;
        W->pos[e] = v3(rnd(&seed), rnd(&seed), rnd(&seed));
        vec3 xb = vadd(W->pos[e], v3(sc * (rnd(&seed) - .5), sc * (rnd(&seed) - .5), sc * (rnd(&seed) - .5)));
        if (mode == 4) xb = vadd(W->pos[e], v3(0, 0, sa.z + 0.1 * (rnd(&seed) - 0.5))); /* flat on top */
        int o;
        o = ids[P_ELL];
        W->pos[o] = xb;
        W->ori[o] = mode == 4 ? q : rquat(&seed);
        ((floe_ellipsoid *)floe__shape_data(W, o))->semi = mode == 1 ? sa
                                                                     : v3(0.05 + rnd(&seed), 0.05 + rnd(&seed), 0.05);
        o = ids[P_SPHERE];
        W->pos[o] = xb;
        W->radius[o] = 0.01 + rnd(&seed);
        o = ids[P_CAPSULE];
        W->pos[o] = vadd(xb, v3(0, 0, 0.05));
        W->ori[o] = mode == 4 ? q : rquat(&seed);
        W->radius[o] = ((floe_capsule *)floe__shape_data(W, o))->radius = 0.05 + 0.5 * rnd(&seed);
        ((floe_capsule *)floe__shape_data(W, o))->shaft = trial % 7 ? 2 * rnd(&seed) : 0;
        o = ids[P_FACET];
        floe_facet *f = (floe_facet *)floe__shape_data(W, o);
        f->half_thick = trial % 2 ? 0 : 0.1 * rnd(&seed);
        for (int k = 0; k < 3; k++) {
            vec3 r = v3(rnd(&seed) - .5, rnd(&seed) - .5, rnd(&seed) - .5);
            f->v[k] = mode == 4 ? v3(xb.x + 3 * cos(2.1 * k), xb.y + 3 * sin(2.1 * k), xb.z) : vmadd(xb, r, sc);
        }
        if (trial % 9 == 0) f->v[2] = f->v[1];  /* degenerate triangle */
        if (trial % 27 == 0) f->v[1] = f->v[0]; /* a point */
        o = ids[P_CYL];
        W->pos[o] = xb;
        ((floe_infcyl *)floe__shape_data(W, o))->axis = trial % 3;
        ((floe_infcyl *)floe__shape_data(W, o))->radius = 0.05 + rnd(&seed);
        o = ids[P_WALL];
        W->pos[o] = xb;
        ((floe_wall *)floe__shape_data(W, o))->axis = trial % 3;
        ((floe_wall *)floe__shape_data(W, o))->sense = trial % 3 - 1;
        prev = vnormalize(v3(rnd(&seed) - .5, rnd(&seed) - .5, rnd(&seed) - .5));
        for (int kind = 0; kind < P_COUNT; kind++) {
            int A = kind == P_ELL ? e : ids[kind], B = kind == P_ELL ? ids[kind] : e;
            floe_collide_fn *fn = floe_narrowphase(W->shape[A], W->shape[B]);
            CHECK(fn != NULL);
            if (!fn) continue;
            floe_raw_contact out;
            for (int pv = 0; pv < 2; pv++) {
                int r = floe__collide(W, fn, A, B, pv ? &prev : NULL, 0, &out);
                if (r) made[kind] += !pv;
                if ((r || pv) && !finite_out(&out)) bad[kind]++;
                if (pv) CHECK(r == 1);
            }
        }
    }
    for (int kind = 0; kind < P_COUNT; kind++) {
        CHECK(bad[kind] == 0);
        REPORT("robustness, %-9s + ellipsoid: 6000 configurations, %d new contacts, %d non-finite\n", PNAME[kind],
               made[kind], bad[kind]);
    }
    floe_world_destroy(w);
}

int main(void) {
    test_woo_scales();
    test_wall();
    test_sphere();
    test_capsule();
    test_facet();
    test_cylinder();
    test_pw_vs_exact();
    test_new_contact_rule();
    test_robustness();
    return CHECK_DONE();
}
