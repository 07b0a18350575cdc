/* Non-spherical shapes: mass properties, the capsule example of Woo's Linear
 * model documentation, exact overlaps and normals of capsule and cylinder pairs,
 * torque-free rotation (docs/decisions.md#reversible-rotation-of-aspherical-bodies)
 * and a capsule settling on a floor. */
#include "check.h"
#include <floe/floe.h>

#define PI 3.14159265358979323846

static double vlen(floe_vec3 v) { return sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

static floe_world *world(double dt, int legacy, floe_vec3 g) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    def.legacy_lens = legacy;
    def.gravity = g;
    def.threads = 1; /* tiny worlds: threads would only add overhead */
    return floe_world_create(&def);
}

static floe_contact_info contact(floe_world *w, int a, int b) {
    floe_contact_info ci = {0};
    int k = floe_contact_find(w, a, b);
    CHECK(k >= 0);
    if (k >= 0) floe_contact_get(w, k, &ci);
    return ci;
}

/* quaternion turning the body x axis onto unit vector u */
static floe_quat along(floe_vec3 u) {
    double c = u.x, ax = 0, ay = -u.z, az = u.y; /* axis = x cross u */
    double s = sqrt(ay * ay + az * az);
    if (s < 1e-15) return c > 0 ? (floe_quat){1, 0, 0, 0} : (floe_quat){0, 0, 0, 1};
    double ang = atan2(s, c);
    return (floe_quat){cos(ang / 2), ax / s * sin(ang / 2), ay / s * sin(ang / 2), az / s * sin(ang / 2)};
}

static void test_mass(void) {
    floe_world *w = world(1e-6, 0, (floe_vec3){0, 0, 0});
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "density", 1);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    int e = floe_add_ellipsoid(w, &bd, (floe_vec3){1, 2, 3});
    double me = 8 * PI;
    CHECK_REL(floe_masses(w)[e], me, 1e-14);
    CHECK_REL(floe_inertia(w)[e].x, me / 5 * 13, 1e-14);
    CHECK_REL(floe_inertia(w)[e].y, me / 5 * 10, 1e-14);
    CHECK_REL(floe_inertia(w)[e].z, me / 5 * 5, 1e-14);
    /* capsule R = 0.5, shaft 2: caps make a sphere of R, the shaft a cylinder;
     * about the long axis each is a solid of revolution, across it the caps
     * are hemispheres whose centroids sit 3R/8 beyond the shaft ends */
    const double R = 0.5, s = 2;
    int c = floe_add_capsule(w, &bd, R, s);
    double mc = 4.0 / 3 * PI * R * R * R, ms = PI * R * R * s;
    double ix = 0.4 * mc * R * R + 0.5 * ms * R * R;
    double d = s / 2 + 3 * R / 8, icap = (0.4 - 9.0 / 64) * mc * R * R; /* both caps, each about its own centroid */
    double iy = icap + mc * d * d + ms * (3 * R * R + s * s) / 12;
    CHECK_REL(floe_masses(w)[c], mc + ms, 1e-14);
    CHECK_REL(floe_inertia(w)[c].x, ix, 1e-14);
    CHECK_REL(floe_inertia(w)[c].y, iy, 1e-12);
    CHECK_REL(floe_inertia(w)[c].z, iy, 1e-12);
    REPORT("ellipsoid (1,2,3): m = %.10g (8 pi), I = (%.8g, %.8g, %.8g); capsule: m = %.8g, I = (%.8g, %.8g)\n",
           floe_masses(w)[e], floe_inertia(w)[e].x, floe_inertia(w)[e].y, floe_inertia(w)[e].z, floe_masses(w)[c],
           floe_inertia(w)[c].x, floe_inertia(w)[c].y);
    floe_world_destroy(w);
}

/* Seed 003: Capsule(r = .2, E = 10 MPa) + Sphere(r = .1, E = 30 MPa), uN = -.001;
 * the pair is ordered sphere first. */
static double seed003_capsule(int legacy) {
    floe_world *w = world(1e-7, legacy, (floe_vec3){0, 0, 0});
    int m1 = floe_add_material(w, "e1", "linear"), m2 = floe_add_material(w, "e2", "linear");
    floe_material_set(w, m1, "young", 10e6);
    floe_material_set(w, m2, "young", 30e6);
    floe_body_def bd = floe_default_body_def();
    bd.blocked = FLOE_DOF_ALL;
    bd.material = m1;
    int cap = floe_add_capsule(w, &bd, 0.2, 0.1);
    bd.material = m2;
    bd.pos = (floe_vec3){0, 0, 0.2 + 0.1 - 0.001};
    int sph = floe_add_sphere(w, &bd, 0.1);
    floe_step(w);
    floe_contact_info ci = contact(w, sph, cap);
    CHECK(ci.a == sph && ci.b == cap);
    CHECK_REL(ci.uN, -0.001, 1e-9);
    floe_world_destroy(w);
    return ci.kn;
}

static void test_seed003(void) {
    double legacy = seed003_capsule(1), current = seed003_capsule(0);
    REPORT("seed 003 capsule + sphere: kn = %.8f (legacy lens), %.8f (default)\n", legacy, current);
    CHECK_REL(legacy, 1350254.7221732636, 1e-9);
    CHECK_REL(current, 1346396.8515384828, 1e-9);
}

/* Exact geometry of capsule and cylinder pairs (all bodies fixed). */
static void test_geometry(void) {
    floe_world *w = world(1e-7, 0, (floe_vec3){0, 0, 0});
    int m = floe_add_material(w, "m", "linear");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL;
    /* infinite cylinder along z through (0, 0), R = 1; sphere r = 0.5 at radial distance 1.4 */
    int cyl = floe_add_infcylinder(w, &bd, 2, 1.0);
    bd.pos = (floe_vec3){1.4 * 0.6, 1.4 * 0.8, 7};
    int s1 = floe_add_sphere(w, &bd, 0.5);
    /* capsule along x at (10, 0, 0), R = 0.5, shaft 2: sphere r = 0.3 over its shaft and beyond its end */
    bd.pos = (floe_vec3){10, 0, 0};
    int cap = floe_add_capsule(w, &bd, 0.5, 2);
    bd.pos = (floe_vec3){10.3, 0, 0.79};
    int s2 = floe_add_sphere(w, &bd, 0.3);
    bd.pos = (floe_vec3){11 + 0.78 * 0.6, 0, -0.78 * 0.8};
    int s3 = floe_add_sphere(w, &bd, 0.3);
    /* a capsule parallel to the first, beside it (overlap 0.01), offset along the axis */
    bd.pos = (floe_vec3){10.5, -0.99, 0};
    int capp = floe_add_capsule(w, &bd, 0.5, 2);
    /* a crossed capsule above the first (along y), 0.02 overlap */
    bd.ori = along((floe_vec3){0, 1, 0});
    bd.pos = (floe_vec3){9.6, 0, 0.98};
    int capx = floe_add_capsule(w, &bd, 0.5, 2);
    bd.ori = (floe_quat){1, 0, 0, 0};
    /* thick facet (h = 0.1) in the plane z = 20, sphere r = 0.2 on its face, edge and vertex */
    floe_vec3 tri[3] = {{0, 0, 20}, {1, 0, 20}, {0, 1, 20}};
    bd.pos = (floe_vec3){0, 0, 20};
    int fac = floe_add_facet(w, &bd, tri, 0.1);
    bd.pos = (floe_vec3){0.3, 0.3, 20 + 0.29};
    int f1 = floe_add_sphere(w, &bd, 0.2);
    bd.pos = (floe_vec3){0.5, -0.29, 20};
    int f2 = floe_add_sphere(w, &bd, 0.2);
    bd.pos = (floe_vec3){-0.29 / sqrt(2), -0.29 / sqrt(2), 20};
    int f3 = floe_add_sphere(w, &bd, 0.2);
    floe_step(w);
    floe_contact_info ci = contact(w, cyl, s1);
    CHECK(ci.a == cyl);
    CHECK_NEAR(ci.uN, -0.1, 1e-12);
    CHECK_NEAR(ci.normal.x, 0.6, 1e-12);
    CHECK_NEAR(ci.normal.y, 0.8, 1e-12);
    CHECK_NEAR(ci.normal.z, 0, 1e-15);
    CHECK_NEAR(ci.point.z, 7, 1e-12);
    CHECK_REL(ci.area, PI * 0.25, 1e-12); /* min(R_cyl, r)^2 */
    ci = contact(w, s2, cap);
    CHECK(ci.a == s2 && ci.b == cap); /* sphere first */
    CHECK_NEAR(ci.uN, -0.01, 1e-12);
    CHECK_NEAR(ci.normal.z, -1, 1e-12);
    ci = contact(w, s3, cap);
    CHECK_NEAR(ci.uN, -0.02, 1e-12);
    CHECK_NEAR(ci.normal.x, -0.6, 1e-12);
    CHECK_NEAR(ci.normal.z, 0.8, 1e-12);
    ci = contact(w, cap, capp);
    CHECK_NEAR(ci.uN, -0.01, 1e-12);
    CHECK_NEAR(ci.normal.y, -1, 1e-12);
    CHECK_NEAR(ci.point.x, 10.25, 1e-12); /* middle of the overlapping stretch [9.5, 11] */
    ci = contact(w, cap, capx);
    CHECK_NEAR(ci.uN, -0.02, 1e-12);
    CHECK_NEAR(ci.normal.z, 1, 1e-12);
    CHECK_NEAR(ci.point.x, 9.6, 1e-12);
    ci = contact(w, fac, f1);
    CHECK_NEAR(ci.uN, -0.01, 1e-12);
    CHECK_NEAR(ci.normal.z, 1, 1e-12);
    CHECK_NEAR(ci.point.z, 20.1, 1e-12);
    CHECK_REL(ci.lens[0], 0.2, 1e-12); /* max(h, r) */
    ci = contact(w, fac, f2);
    CHECK_NEAR(ci.uN, -0.01, 1e-12);
    CHECK_NEAR(ci.normal.y, -1, 1e-12);
    ci = contact(w, fac, f3);
    CHECK_NEAR(ci.uN, -0.01, 1e-12);
    CHECK_NEAR(ci.normal.x, -1 / sqrt(2), 1e-12);
    floe_world_destroy(w);
}

/* Torque-free rotation of an ellipsoid with semi-axes (1, 2, 3): the angular
 * momentum L = R I R^T w is constant and the kinetic energy bounded over
 * 1e5 steps; spun about the intermediate axis it tumbles (w_y changes sign). */
static void test_free_rotation(void) {
    floe_world *w = world(1e-3, 0, (floe_vec3){0, 0, 0});
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "density", 1);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.angvel = (floe_vec3){0.3, 1.0, 0.2};
    int a = floe_add_ellipsoid(w, &bd, (floe_vec3){1, 2, 3});
    bd.pos = (floe_vec3){100, 0, 0};
    bd.angvel = (floe_vec3){1e-3, 1.0, 1e-3}; /* nearly about the intermediate axis (y) */
    int b = floe_add_ellipsoid(w, &bd, (floe_vec3){1, 2, 3});
    double L0[3] = {0}, e0 = 0, emax = 0, emin = INFINITY, lerr = 0;
    int flips = 0;
    double prev_wy = 1.0;
    for (int s = 0; s <= 100000; s++) {
        if (s > 0) floe_step(w);
        floe_quat q = floe_orientations(w)[a];
        floe_vec3 om = floe_angular_velocities(w)[a], I = floe_inertia(w)[a];
        /* L = R I R^T w, rotating with the quaternion by hand */
        double R[3][3] = {{1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y - q.w * q.z), 2 * (q.x * q.z + q.w * q.y)},
                          {2 * (q.x * q.y + q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z - q.w * q.x)},
                          {2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y)}};
        double wg[3] = {om.x, om.y, om.z}, wb[3], L[3], Iv[3] = {I.x, I.y, I.z};
        for (int i = 0; i < 3; i++) wb[i] = R[0][i] * wg[0] + R[1][i] * wg[1] + R[2][i] * wg[2];
        for (int i = 0; i < 3; i++) L[i] = R[i][0] * Iv[0] * wb[0] + R[i][1] * Iv[1] * wb[1] + R[i][2] * Iv[2] * wb[2];
        double e = 0.5 * (Iv[0] * wb[0] * wb[0] + Iv[1] * wb[1] * wb[1] + Iv[2] * wb[2] * wb[2]);
        if (s == 0) {
            for (int i = 0; i < 3; i++) L0[i] = L[i];
            e0 = e;
        }
        double dl = sqrt((L[0] - L0[0]) * (L[0] - L0[0]) + (L[1] - L0[1]) * (L[1] - L0[1]) +
                         (L[2] - L0[2]) * (L[2] - L0[2]));
        lerr = fmax(lerr, dl / sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]));
        emax = fmax(emax, e);
        emin = fmin(emin, e);
        /* body-frame y component of b's angular velocity */
        floe_quat qb = floe_orientations(w)[b];
        floe_vec3 ob = floe_angular_velocities(w)[b];
        double yb[3] = {2 * (qb.x * qb.y - qb.w * qb.z), 1 - 2 * (qb.x * qb.x + qb.z * qb.z),
                        2 * (qb.y * qb.z + qb.w * qb.x)};
        double wy = yb[0] * ob.x + yb[1] * ob.y + yb[2] * ob.z;
        if (wy * prev_wy < 0) flips++;
        prev_wy = wy;
    }
    REPORT("free rotation, 1e5 steps: max |L - L0|/|L0| = %.2e; kinetic energy in [%.9f, %.9f] (start %.9f); "
           "intermediate-axis spin flipped %d times\n",
           lerr, emin, emax, e0, flips);
    CHECK(lerr < 1e-9);
    CHECK((emax - emin) / e0 < 1e-3);
    CHECK(flips >= 2);
    floe_world_destroy(w);
}

/* A capsule or an ellipsoid dropped tilted on a floor comes to rest lying on
 * its long side; the floor carries its weight (1e-4). */
static void test_settles(int ellipsoid) {
    const double g = 9.81;
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -g};
    def.damping = 0.3;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "density", 2000);
    floe_material_set(w, m, "young", 1e7);
    int floor = floe_add_group(w, "floor");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.groups = 1u << floor;
    floe_add_wall(w, &bd, 2, 1);
    bd.groups = 0;
    bd.pos = (floe_vec3){0, 0, 0.03};
    bd.ori = along((floe_vec3){0.8, 0, 0.6}); /* long axis = body x, tilted */
    int c = ellipsoid ? floe_add_ellipsoid(w, &bd, (floe_vec3){0.03, 0.015, 0.01})
                      : floe_add_capsule(w, &bd, 0.01, 0.04);
    for (int s = 0; s < 100000; s++) {
        floe_step(w);
        if (s > 2000 && vlen(floe_velocities(w)[c]) < 1e-9 && vlen(floe_angular_velocities(w)[c]) < 1e-7) break;
    }
    floe_quat q = floe_orientations(w)[c];
    double uz = 2 * (q.x * q.z - q.w * q.y); /* z component of the body x axis */
    double weight = floe_masses(w)[c] * g, fz = -floe_group_force(w, floor).z;
    /* an ellipsoid lies on its flattest side: the shortest axis (body z) vertical */
    double zz = 1 - 2 * (q.x * q.x + q.y * q.y);
    REPORT("%s at rest: long axis z-component %.2e, body z axis z-component %.6f, floor reaction %.8g N, "
           "weight %.8g N, %.2f s\n",
           ellipsoid ? "ellipsoid" : "capsule", uz, zz, fz, weight, floe_time(w));
    CHECK(fabs(uz) < 1e-3);
    if (ellipsoid) CHECK(fabs(zz) > 1 - 1e-3);
    CHECK_REL(fz, weight, 1e-4);
    floe_world_destroy(w);
}

int main(void) {
    test_mass();
    test_seed003();
    test_geometry();
    test_free_rotation();
    test_settles(0);
    test_settles(1);
    return CHECK_DONE();
}
