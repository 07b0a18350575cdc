/* Contact-level checks of every Linear and LinEl6 formula: two bodies under
 * prescribed motion, forces compared with values computed by hand from
 * Woo's Linear and LinEl6 laws (docs/models/linear.md). Both bodies are fully blocked, so they follow their
 * velocities exactly and the only unknown is the contact law. */
#include "check.h"
#include <floe/floe.h>

#define PI 3.14159265358979323846

static const double R = 0.01, E = 1e8, RHO = 2000, KTKN = 0.3, TANPHI = 0.4;

typedef struct pair {
    floe_world *w;
    int a, b;
} pair;

/* A fixed at the origin, B at (2R - overlap, 0, 0) moving with v, spinning with om. */
static pair make_pair(const char *model, double overlap, floe_vec3 v, floe_vec3 om, double dt) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    pair p;
    p.w = floe_world_create(&def);
    int m = floe_add_material(p.w, "m", model);
    floe_material_set(p.w, m, "young", E);
    floe_material_set(p.w, m, "density", RHO);
    floe_material_set(p.w, m, "kt_div_kn", KTKN);
    floe_material_set(p.w, m, "tan_phi", TANPHI);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL;
    p.a = floe_add_sphere(p.w, &bd, R);
    bd.pos = (floe_vec3){2 * R - overlap, 0, 0};
    bd.vel = v;
    bd.angvel = om;
    p.b = floe_add_sphere(p.w, &bd, R);
    return p;
}

static floe_contact_info contact(const pair *p) {
    floe_contact_info ci = {0};
    int k = floe_contact_find(p->w, p->a, p->b);
    if (k >= 0) floe_contact_get(p->w, k, &ci);
    return ci;
}

static const double KN = PI * R * E / 2; /* E A / (2R), A = pi R^2, lens = (R, R) */

static void test_normal(void) {
    pair p = make_pair("linear", 1e-5, (floe_vec3){0, 0, 0}, (floe_vec3){0, 0, 0}, 1e-6);
    CHECK(floe_step(p.w) == FLOE_OK);
    floe_contact_info ci = contact(&p);
    CHECK_REL(ci.kn, KN, 1e-12);
    CHECK_REL(ci.kt, KTKN * KN, 1e-12);
    CHECK_REL(ci.area, PI * R * R, 1e-12);
    CHECK_REL(ci.force.x, -KN * 1e-5, 1e-9);              /* compression is negative */
    CHECK_REL(floe_forces(p.w)[p.a].x, -KN * 1e-5, 1e-9); /* pushes A away from B */
    CHECK_REL(floe_forces(p.w)[p.b].x, KN * 1e-5, 1e-9);
    double e[FLOE_E_COUNT];
    floe_energy(p.w, e);
    CHECK_REL(e[FLOE_E_ELASTIC], 0.5 * KN * 1e-10, 1e-9);
    floe_world_destroy(p.w);
}

/* Shear: B slides along y at v; Ft grows by dt kt v per step until it reaches
 * tan_phi |Fn|; then every further step dissipates fy (ft - fy)/kt = fy v dt
 * (docs/decisions.md#plastic-energy-with-the-mid-step-force-g5). The contact
 * is created at t = 0 and already sees the sliding in that
 * step, so after N calls of floe_step it has had N + 1 increments. */
static void test_shear_and_slip(void) {
    const double ov = 1e-5, v = 1e-3, dt = 1e-6, kt = KTKN * KN;
    pair p = make_pair("linear", ov, (floe_vec3){0, v, 0}, (floe_vec3){0, 0, 0}, dt);
    const int n = 5000; /* well below the limit: tan_phi kn ov / (kt v dt) = 13333 steps */
    for (int s = 0; s < n; s++) floe_step(p.w);
    floe_contact_info ci = contact(&p);
    double ft = sqrt(ci.force.y * ci.force.y + ci.force.z * ci.force.z);
    /* the normal tilts by v t / 2R = 1.3e-4 rad: second-order effects only */
    CHECK_REL(ft, kt * v * dt * (n + 1), 1e-7);
    CHECK_REL(floe_forces(p.w)[p.a].y, ft + ci.normal.y * ci.force.x, 1e-6); /* friction drags A along +y */
    for (int s = 0; s < 9000; s++) floe_step(p.w);
    double e0[FLOE_E_COUNT], e1[FLOE_E_COUNT];
    floe_energy(p.w, e0);
    floe_step(p.w);
    floe_energy(p.w, e1);
    ci = contact(&p);
    ft = sqrt(ci.force.y * ci.force.y + ci.force.z * ci.force.z);
    CHECK_REL(ft, TANPHI * fabs(ci.force.x), 1e-12);
    CHECK(e0[FLOE_E_PLASTIC] > 0);
    CHECK_REL(e1[FLOE_E_PLASTIC] - e0[FLOE_E_PLASTIC], ft * v * dt, 1e-3);
    CHECK_REL(e1[FLOE_E_ELASTIC], 0.5 * (ci.force.x * ci.force.x / KN + ft * ft / kt), 1e-12);
    floe_world_destroy(p.w);

    /* no_slip: the same motion keeps loading the spring past the limit */
    p = make_pair("linear", ov, (floe_vec3){0, v, 0}, (floe_vec3){0, 0, 0}, dt);
    floe_model_set(p.w, "linear", "no_slip", 1);
    for (int s = 0; s < 20000; s++) floe_step(p.w);
    ci = contact(&p);
    ft = sqrt(ci.force.y * ci.force.y + ci.force.z * ci.force.z);
    CHECK_REL(ft, kt * v * dt * 20001, 1e-5);
    CHECK(ft > 1.4 * TANPHI * fabs(ci.force.x));
    floe_energy(p.w, e1);
    CHECK(e1[FLOE_E_PLASTIC] == 0);
    floe_world_destroy(p.w);
}

/* Dashpots and the exported state: A fixed, B free (m_c = m_B), approaching
 * at vn and sliding at vt. After the first step the dashpot forces are
 * c_n vn and c_s vt with c = 2 ratio sqrt(m_c k) (PFC's linear dashpots), the
 * state reads them back (fd_n, fd_s), and the slip flag follows the Coulomb
 * limit: off at vt = 1 mm/s, on at 5 m/s (2 dt kt vt > tan_phi kn ov); when
 * slipping the shear force is the limit plus the dashpot (parallel). In a
 * step B is kicked by its contact force: dt F / m = 2e-5 of vn, and its spin
 * dt F R^2 / I = 1e-4 of vt at the contact point: tolerance 5e-4. */
static void test_dashpot_state(void) {
    const double ov = 1e-8, vn = -1, dt = 1e-8, kt = KTKN * KN, rn = 0.3, rs = 0.2;
    const double vts[2] = {1e-3, 5};
    for (int i = 0; i < 2; i++) {
        pair p = make_pair("linear", ov, (floe_vec3){vn, vts[i], 0}, (floe_vec3){0, 0, 0}, dt);
        floe_set_blocked(p.w, p.b, 0);
        floe_model_set(p.w, "linear", "dp_nratio", rn);
        floe_model_set(p.w, "linear", "dp_sratio", rs);
        CHECK(floe_step(p.w) == FLOE_OK);
        double m = floe_masses(p.w)[p.b], st[4];
        CHECK(floe_contact_state(p.w, floe_contact_find(p.w, p.a, p.b), st, 4) == 4);
        double cn = 2 * rn * sqrt(m * KN), cs = 2 * rs * sqrt(m * kt);
        CHECK_REL(st[1], cn * vn, 5e-4);
        CHECK_REL(st[2], cs * vts[i], 5e-4);
        CHECK(st[3] == i);
        floe_contact_info ci = contact(&p);
        double ft = sqrt(ci.force.y * ci.force.y + ci.force.z * ci.force.z), fn = ci.force.x - st[1];
        if (i == 1) CHECK_REL(ft, TANPHI * fabs(fn) + st[2], 1e-9);
        else CHECK(ft < TANPHI * fabs(fn) + st[2]);
        floe_world_destroy(p.w);
    }
}

/* Separation: deleted when uN > 0 unless no_break (then tension Fn = kn uN). */
static void test_break_and_ini_eqlb(void) {
    const double v = 1e-2, dt = 1e-6, ov = 1e-7;
    pair p = make_pair("linear", ov, (floe_vec3){v, 0, 0}, (floe_vec3){0, 0, 0}, dt);
    int calls = 0;
    do floe_step(p.w), calls++;
    while (floe_contact_count(p.w) > 0 && calls < 1000);
    /* uN = -ov + v dt k turns positive at k = ov / (v dt) = 10 (+1 for round-off) */
    CHECK(calls >= 10 && calls <= 11);
    floe_world_destroy(p.w);

    p = make_pair("linear", ov, (floe_vec3){v, 0, 0}, (floe_vec3){0, 0, 0}, dt);
    floe_model_set(p.w, "linear", "no_break", 1);
    for (int s = 0; s < 100; s++) floe_step(p.w);
    floe_contact_info ci = contact(&p);
    CHECK(floe_contact_count(p.w) == 1);
    CHECK_REL(ci.force.x, KN * (v * 100 * dt - ov), 1e-6); /* tension is positive */
    CHECK_REL(ci.force.x, KN * ci.uN, 1e-12);
    floe_world_destroy(p.w);

    /* ini_eqlb: force measured from the creation overlap; deleted once uN > uN0 */
    p = make_pair("linear", 1e-5, (floe_vec3){-v, 0, 0}, (floe_vec3){0, 0, 0}, dt);
    floe_model_set(p.w, "linear", "ini_eqlb", 1);
    for (int s = 0; s < 10; s++) floe_step(p.w);
    CHECK_REL(contact(&p).force.x, -KN * v * dt * 10, 1e-6); /* without ini_eqlb: -kn (1e-5 + 10 v dt) */
    floe_set_velocity(p.w, p.b, (floe_vec3){v, 0, 0});
    for (int s = 0; s < 9; s++) floe_step(p.w);
    CHECK(floe_contact_count(p.w) == 1 && contact(&p).force.x < 0);
    floe_step(p.w);
    floe_step(p.w);
    CHECK(floe_contact_count(p.w) == 0);
    floe_world_destroy(p.w);
}

/* LinEl6: six linear springs; k_w = char_len kn and k_b = char_len kt
 * (docs/decisions.md#linel6-rotational-stiffness-l3). */
static void test_linel6(void) {
    const double L = 0.05, dt = 1e-6, om = 0.3;
    /* twist: B spins about the normal (x) */
    pair p = make_pair("linel6", 1e-5, (floe_vec3){0, 0, 0}, (floe_vec3){om, 0, 0}, dt);
    floe_model_set(p.w, "linel6", "char_len", L);
    for (int s = 0; s < 100; s++) floe_step(p.w);
    floe_contact_info ci = contact(&p);
    double kw = L * KN, kb = L * KTKN * KN;
    CHECK_REL(ci.torque.x, kw * om * dt * 101, 1e-9); /* creation step + 100 steps */
    CHECK_NEAR(ci.torque.y, 0, 1e-15);
    CHECK_REL(floe_torques(p.w)[p.a].x, kw * om * dt * 101, 1e-9); /* A is twisted along */
    CHECK_REL(ci.force.x, KN * ci.uN, 1e-12);
    double e[FLOE_E_COUNT];
    floe_energy(p.w, e);
    CHECK_REL(e[FLOE_E_ELASTIC], 0.5 * ci.force.x * ci.force.x / KN + 0.5 * ci.torque.x * ci.torque.x / kw, 1e-9);
    floe_world_destroy(p.w);

    /* bending: B spins about z; the spring resists the relative rotation */
    p = make_pair("linel6", 1e-5, (floe_vec3){0, 0, 0}, (floe_vec3){0, 0, om}, dt);
    floe_model_set(p.w, "linel6", "char_len", L);
    for (int s = 0; s < 100; s++) floe_step(p.w);
    ci = contact(&p);
    double tb = sqrt(ci.torque.y * ci.torque.y + ci.torque.z * ci.torque.z);
    CHECK_REL(tb, kb * om * dt * 101, 1e-6);
    CHECK(floe_torques(p.w)[p.a].z > 0); /* A is bent along with B */
    /* the spinning surface also shears the contact: Ft = kt * R om t */
    double ft = sqrt(ci.force.y * ci.force.y + ci.force.z * ci.force.z);
    CHECK_REL(ft, KTKN * KN * R * om * dt * 101, 1e-3);
    /* LinEl6 never deletes: pull B away and the contact stays, in tension */
    floe_set_velocity(p.w, p.b, (floe_vec3){1e-1, 0, 0});
    floe_set_angular_velocity(p.w, p.b, (floe_vec3){0, 0, 0});
    for (int s = 0; s < 200; s++) floe_step(p.w);
    ci = contact(&p);
    CHECK(floe_contact_count(p.w) == 1 && ci.uN > 0 && ci.force.x > 0);
    floe_world_destroy(p.w);
}

/* The worked examples of Woo's Linear model documentation
 * (docs/decisions.md#contact-lengths-and-area-the-lens-rule-g3). The capsule's end cap is a
 * sphere of the capsule radius, so a sphere of radius 0.2 stands in for the
 * capsule; the sphere is particle A (functor order Sphere+Capsule). */
static double seed003_kn(int facet, int legacy) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-7;
    def.legacy_lens = legacy;
    floe_world *w = floe_world_create(&def);
    int m1 = floe_add_material(w, "e1", "linear"), m2 = floe_add_material(w, "e2", "linear");
    floe_material_set(w, m1, "young", 10e6);
    floe_material_set(w, m2, "young", 30e6);
    floe_body_def bd = floe_default_body_def();
    bd.blocked = FLOE_DOF_ALL;
    const double r1 = 0.2, r2 = 0.1, uN = -0.001;
    if (facet) {
        bd.material = m1;
        floe_vec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        floe_add_facet(w, &bd, v, 0);
        bd.material = m2;
        bd.pos = (floe_vec3){0.2, 0.2, r2 + uN};
        floe_add_sphere(w, &bd, r2);
    } else {
        bd.material = m2;
        floe_add_sphere(w, &bd, r2);
        bd.material = m1;
        bd.pos = (floe_vec3){0, 0, r1 + r2 + uN};
        floe_add_sphere(w, &bd, r1);
    }
    floe_step(w);
    floe_contact_info ci = {0};
    floe_contact_get(w, 0, &ci);
    CHECK(floe_contact_count(w) == 1);
    CHECK_REL(ci.uN, uN, 1e-9);
    CHECK_REL(ci.area, 0.031415926535897934, 1e-12);
    floe_world_destroy(w);
    return ci.kn;
}

static void test_seed003(void) {
    double k[4] = {seed003_kn(0, 1), seed003_kn(1, 1), seed003_kn(0, 0), seed003_kn(1, 0)};
    REPORT("seed 003: legacy lens kn = %.8f, %.8f; default lens kn = %.8f, %.8f\n", k[0], k[1], k[2], k[3]);
    /* Woo's printed outputs (its Linear model page) and the same formula with lens = r */
    CHECK_REL(k[0], 1350254.7221732636, 1e-9);
    CHECK_REL(k[1], 2368034.663509894, 1e-9);
    CHECK_REL(k[2], 1346396.8515384828, 1e-9);
    CHECK_REL(k[3], 2356194.4901923449, 1e-9);
}

/* Wall and facet (face, edge, vertex) against a sphere: gap, normal, stiffness. */
static void test_boundaries(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-7;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", E);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL;
    bd.pos = (floe_vec3){0, 0, 1};
    int wall = floe_add_wall(w, &bd, 2, -1); /* ceiling at z = 1 facing down */
    floe_vec3 tri[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    bd.pos = (floe_vec3){0, 0, 0};
    int facet = floe_add_facet(w, &bd, tri, 0);
    bd.pos = (floe_vec3){0.3, 5, 1 - R + 2e-5}; /* under the ceiling only */
    int s_wall = floe_add_sphere(w, &bd, R);
    bd.pos = (floe_vec3){0.2, 0.2, R - 1e-5}; /* above the facet's face */
    int s_face = floe_add_sphere(w, &bd, R);
    double d = R - 3e-5;
    bd.pos = (floe_vec3){0.5, -d, 0}; /* beside edge v0-v1, in the facet's plane */
    int s_edge = floe_add_sphere(w, &bd, R);
    bd.pos = (floe_vec3){1 + d / sqrt(3), -d / sqrt(3), d / sqrt(3)}; /* beyond vertex v1 */
    int s_vert = floe_add_sphere(w, &bd, R);
    floe_step(w);
    CHECK(floe_contact_count(w) == 4);
    floe_contact_info ci;
    floe_contact_get(w, floe_contact_find(w, wall, s_wall), &ci);
    CHECK(ci.a == wall);
    CHECK_REL(ci.uN, -2e-5, 1e-9);
    CHECK_NEAR(ci.normal.z, -1, 0);
    CHECK_REL(ci.kn, KN, 1e-12);                           /* lens (R, R): the wall borrows the sphere's length */
    CHECK_REL(floe_forces(w)[s_wall].z, -KN * 2e-5, 1e-9); /* pushed down, away from the wall */
    floe_contact_get(w, floe_contact_find(w, facet, s_face), &ci);
    CHECK(ci.a == facet);
    CHECK_REL(ci.uN, -1e-5, 1e-9);
    CHECK_NEAR(ci.normal.z, 1, 1e-15);
    floe_contact_get(w, floe_contact_find(w, facet, s_edge), &ci);
    CHECK_REL(ci.uN, -3e-5, 1e-9);
    CHECK_NEAR(ci.normal.y, -1, 1e-12);
    CHECK_NEAR(ci.point.y, 0, 1e-15);
    floe_contact_get(w, floe_contact_find(w, facet, s_vert), &ci);
    CHECK_REL(ci.uN, -3e-5, 1e-9);
    CHECK_NEAR(ci.normal.x, 1 / sqrt(3), 1e-12);
    CHECK_NEAR(ci.normal.y, -1 / sqrt(3), 1e-12);
    CHECK_NEAR(ci.point.x, 1, 1e-15);
    floe_world_destroy(w);
}

int main(void) {
    test_normal();
    test_shear_and_slip();
    test_dashpot_state();
    test_break_and_ini_eqlb();
    test_linel6();
    test_seed003();
    test_boundaries();
    return CHECK_DONE();
}
