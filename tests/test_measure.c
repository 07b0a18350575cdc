/* Measurements (docs/measurements.md), each against a closed form or a
 * count made by hand:
 * - the exact sphere-box volume: whole, half, quarter and corner cuts and
 *   caps in closed form, the corner volume against a numerical integral of
 *   its defining disc area, random boxes against Monte Carlo;
 * - the quadrature estimator of capsules and ellipsoids against the exact
 *   volume of the sphere they reduce to;
 * - Love-Weber stress of a compressed simple cubic lattice against
 *   -f/d^2 per axis, of two contacts against the sum written out, of a
 *   static frictionless pile against the weight above;
 * - coordination and rattlers of a configuration built contact by contact;
 * - the fabric of a cubic lattice, diag(1/3, 1/3, 1/3);
 * - plane counters against the particles that crossed in a constructed
 *   run, kept by a restart file;
 * - the output keys regions and planes, history columns and measurements.csv;
 *   a whole region's or plane counter's quantities at once against each
 *   history column's value, bit for bit. */
#include "check.h"
#include "io/csv.h"
#include "io/quantity.h"
#include "io/output.h"
#include "io/restart.h"
#include "io/scene.h"
#include "pile.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#define PI 3.14159265358979323846

static char tmp[] = "/tmp/floe_test_measure_XXXXXX";

static floe_vec3 V(double x, double y, double z) { return (floe_vec3){x, y, z}; }

static double rnd(uint64_t *s) { return pile_rand(s); }

/* ---- exact volume of a sphere in a box -------------------------------------- */

/* Area of the disc of radius rho about the origin with x >= a, y >= b
 * (a, b >= 0), by Green's theorem on its boundary: the arc and the two
 * straight edges. Written independently of the engine's antiderivative. */
static double disc_corner(double rho, double a, double b) {
    if (a * a + b * b >= rho * rho) return 0;
    return 0.5 * rho * rho * (acos(a / rho) - asin(b / rho)) - 0.5 * a * sqrt(rho * rho - a * a) -
           0.5 * b * sqrt(rho * rho - b * b) + a * b;
}

/* Volume of the unit ball with x >= a, y >= b, z >= c by integrating
 * disc_corner over z (z = zm - u^2 takes out the square-root end; 3-point
 * Gauss-Legendre on 4000 cells: converged to ~1e-15). */
static double corner_by_quadrature(double a, double b, double c) {
    double zm2 = 1 - a * a - b * b;
    if (zm2 <= c * c) return 0;
    double zm = sqrt(zm2), U = sqrt(zm - c), h = U / 4000, s = 0;
    const double x[3] = {-sqrt(0.6), 0, sqrt(0.6)}, wt[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    for (int i = 0; i < 4000; i++)
        for (int k = 0; k < 3; k++) {
            double u = (i + 0.5 + 0.5 * x[k]) * h, z = zm - u * u;
            s += wt[k] * 0.5 * h * disc_corner(sqrt(fmax(1 - z * z, 0)), a, b) * 2 * u;
        }
    return s;
}

static void test_sphere_box(void) {
    const double R = 0.37, v0 = 4.0 / 3 * PI * R * R * R;
    const floe_vec3 c = V(1.1, -2.3, 0.7);
    double big = 10;
#define BOX(x0, y0, z0, x1, y1, z1) \
    floe_sphere_box_volume(c, R, V(c.x + (x0), c.y + (y0), c.z + (z0)), V(c.x + (x1), c.y + (y1), c.z + (z1)))
    /* closed forms: whole sphere, half, quarter, eighth */
    CHECK_REL(BOX(-big, -big, -big, big, big, big), v0, 1e-14);
    CHECK_REL(BOX(0, -big, -big, big, big, big), v0 / 2, 1e-13);
    CHECK_REL(BOX(-big, 0, -big, big, big, 0 + big), v0 / 2, 1e-13);
    CHECK_REL(BOX(0, 0, -big, big, big, big), v0 / 4, 1e-13);
    CHECK_REL(BOX(-big, -big, -big, 0, big, 0), v0 / 4, 1e-13);
    CHECK_REL(BOX(0, 0, 0, big, big, big), v0 / 8, 1e-13);
    CHECK_REL(BOX(-big, 0, -big, 0, big, 0), v0 / 8, 1e-13);
    /* caps: a slab x >= h holds pi (R - h)^2 (2R + h) / 3, for h of either sign */
    for (double h = -0.9; h < 0.95; h += 0.3) {
        double cap = PI * (R - h * R) * (R - h * R) * (2 * R + h * R) / 3;
        CHECK_REL(BOX(h * R, -big, -big, big, big, big), cap, 1e-12);
        CHECK_REL(BOX(-big, -big, -big, big, big, -h * R), cap, 1e-12); /* z <= -h R: the same cap */
    }
    /* a slab through the middle, |x| <= R/2: the sphere minus two caps */
    double cap_half = PI * (R / 2) * (R / 2) * (2.5 * R) / 3;
    CHECK_REL(BOX(-R / 2, -big, -big, R / 2, big, big), v0 - 2 * cap_half, 1e-13);
    /* a box inside the sphere is itself; a box away from it is empty */
    CHECK_REL(BOX(-0.1 * R, -0.2 * R, 0, 0.3 * R, 0.1 * R, 0.2 * R), 0.4 * 0.3 * 0.2 * R * R * R, 1e-14);
    CHECK(BOX(R, -big, -big, big, big, big) == 0);
    CHECK(BOX(-big, -big, -big, big, -1.01 * R, big) == 0);
    CHECK(isnan(floe_sphere_box_volume(c, 0, V(0, 0, 0), V(1, 1, 1))));
    CHECK(isnan(floe_sphere_box_volume(c, R, V(0, 0, 0), V(-1, 1, 1))));
    CHECK(isnan(floe_sphere_box_volume(V(NAN, 0, 0), R, V(0, 0, 0), V(1, 1, 1))));

    /* corner volumes (three cuts) against the integral of the disc area */
    uint64_t s = 7;
    double worst = 0;
    for (int i = 0; i < 40; i++) {
        double a = 0.9 * rnd(&s), b = 0.9 * rnd(&s), cz = 0.9 * rnd(&s);
        if (i == 0) a = 0, b = 0.6, cz = 0.2; /* a cut through the centre */
        double want = corner_by_quadrature(a, b, cz) * R * R * R;
        double got = BOX(a * R, b * R, cz * R, big, big, big);
        worst = fmax(worst, fabs(got - want) / (R * R * R));
        CHECK_NEAR(got, want, 1e-13 * R * R * R);
    }
    REPORT("sphere-box: corner volumes against quadrature, worst |error| %.2g R^3 (40 corners)\n", worst);

    /* the sphere over a grid of boxes that tile space adds up to the sphere */
    double sum = 0, h = 0.31 * R;
    for (int i = -4; i < 4; i++)
        for (int j = -4; j < 4; j++)
            for (int k = -4; k < 4; k++)
                sum += BOX(i * h + 0.05 * R, j * h - 0.11 * R, k * h + 0.02 * R, (i + 1) * h + 0.05 * R,
                           (j + 1) * h - 0.11 * R, (k + 1) * h + 0.02 * R);
    CHECK_REL(sum, v0, 1e-13);

    /* random boxes cutting the sphere against Monte Carlo: N points in the
     * intersection of the box with the sphere's bounding cube, standard
     * error sqrt(p (1 - p) / N) of the share p; 4 standard errors allowed */
    const int N = 400000;
    double worst_sig = 0;
    for (int t = 0; t < 8; t++) {
        floe_vec3 lo = V(c.x + R * (2 * rnd(&s) - 1.5), c.y + R * (2 * rnd(&s) - 1.5), c.z + R * (2 * rnd(&s) - 1.5));
        floe_vec3 hi = V(lo.x + R * (0.3 + rnd(&s)), lo.y + R * (0.3 + rnd(&s)), lo.z + R * (0.3 + rnd(&s)));
        floe_vec3 a = V(fmax(lo.x, c.x - R), fmax(lo.y, c.y - R), fmax(lo.z, c.z - R));
        floe_vec3 b = V(fmin(hi.x, c.x + R), fmin(hi.y, c.y + R), fmin(hi.z, c.z + R));
        double got = floe_sphere_box_volume(c, R, lo, hi);
        if (!(a.x < b.x && a.y < b.y && a.z < b.z)) {
            CHECK(got == 0);
            continue;
        }
        double vs = (b.x - a.x) * (b.y - a.y) * (b.z - a.z);
        long in = 0;
        for (int i = 0; i < N; i++) {
            double x = a.x + (b.x - a.x) * rnd(&s) - c.x, y = a.y + (b.y - a.y) * rnd(&s) - c.y,
                   z = a.z + (b.z - a.z) * rnd(&s) - c.z;
            in += x * x + y * y + z * z < R * R;
        }
        double p = (double)in / N, sig = vs * sqrt(p * (1 - p) / N) + 1e-300;
        worst_sig = fmax(worst_sig, fabs(got - vs * p) / sig);
        CHECK(fabs(got - vs * p) <= 4 * sig);
    }
    REPORT("sphere-box: 8 random boxes against Monte Carlo (%d points each): worst %.2f standard errors\n", N,
           worst_sig);
#undef BOX
}

/* ---- solid fraction of aspherical bodies -------------------------------------- */

/* An ellipsoid with equal semi-axes and a capsule with no shaft are spheres:
 * the quadrature's volume in a box against the exact one. */
static void test_aspherical_estimate(void) {
    floe_body_def bd = floe_default_body_def();
    bd.material = 0;
    bd.pos = V(0.3, 0.2, -0.1);
    const double r = 0.05, v0 = 4.0 / 3 * PI * r * r * r;
    double worst[2] = {0, 0};
    uint64_t s = 11;
    for (int shape = 0; shape < 2; shape++) {
        floe_world *one = floe_world_create(NULL);
        floe_add_material(one, "m", "linear");
        /* a turned body: the quadrature lattice is not aligned with the box */
        double ang = 0.7;
        bd.ori = (floe_quat){cos(ang / 2), sin(ang / 2) * 0.48, sin(ang / 2) * 0.6, sin(ang / 2) * 0.64};
        int id = shape == 0 ? floe_add_ellipsoid(one, &bd, V(r, r, r)) : floe_add_capsule(one, &bd, r, 0);
        CHECK(id == 0);
        for (int t = 0; t < 200; t++) {
            floe_region reg = {V(bd.pos.x + r * (2.4 * rnd(&s) - 2.2), bd.pos.y + r * (2.4 * rnd(&s) - 2.2),
                                 bd.pos.z + r * (2.4 * rnd(&s) - 2.2)),
                               V(0, 0, 0), 0};
            reg.hi = V(reg.lo.x + r * (0.5 + 2 * rnd(&s)), reg.lo.y + r * (0.5 + 2 * rnd(&s)),
                       reg.lo.z + r * (0.5 + 2 * rnd(&s)));
            double phi = -1;
            CHECK(floe_solid_fraction(one, &reg, &phi) == FLOE_OK);
            double vol = phi * (reg.hi.x - reg.lo.x) * (reg.hi.y - reg.lo.y) * (reg.hi.z - reg.lo.z);
            double exact = floe_sphere_box_volume(bd.pos, r, reg.lo, reg.hi);
            worst[shape] = fmax(worst[shape], fabs(vol - exact) / v0);
        }
        /* inside and outside: exact */
        floe_region in = {V(-1, -1, -1), V(1, 1, 1), 0}, out = {V(2, 2, 2), V(3, 3, 3), 0};
        double phi;
        CHECK(floe_solid_fraction(one, &in, &phi) == FLOE_OK);
        CHECK_REL(phi * 8, v0, 1e-14);
        CHECK(floe_solid_fraction(one, &out, &phi) == FLOE_OK && phi == 0);
        floe_world_destroy(one);
    }
    /* docs/measurements.md#solid-fraction states 1 % of the body's volume */
    REPORT("aspherical estimate: worst error over 200 random cuts: ellipsoid %.3g, capsule %.3g of the volume\n",
           worst[0], worst[1]);
    CHECK(worst[0] < 0.01);
    CHECK(worst[1] < 0.01);
}

/* ---- Love-Weber stress and fabric of a cubic lattice ------------------------- */

/* n^3 spheres of radius R on a simple cubic lattice of spacing d = 2R - delta:
 * every neighbour pair overlaps by delta and carries the same normal force f.
 * Per lattice cell (volume d^3) there is one contact along each axis, whose
 * branch vector d e_k and force -f e_k on its first particle give
 * sigma_kk = -f d / d^3 = -f / d^2 (tension positive), off-diagonals 0. A
 * box whose faces lie half-way between centres takes half of each branch
 * that crosses it, so it holds exactly one contact per axis and cell. */
static void test_lattice(void) {
    const int n = 5;
    const double R = 0.01, delta = 1e-4, d = 2 * R - delta;
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                bd.pos = V(i * d, j * d, k * d);
                floe_add_sphere(w, &bd, R);
            }
    CHECK(floe_start(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 3 * n * n * (n - 1));
    floe_contact_info ci;
    floe_contact_get(w, 0, &ci);
    double f = -ci.force.x; /* compression: Fn < 0 */
    CHECK_REL(f, ci.kn * delta, 1e-9);
    for (int k = 0; k < floe_contact_count(w); k++) {
        floe_contact_get(w, k, &ci);
        CHECK_REL(-ci.force.x, f, 1e-12);
    }
    double s[9], want = -f / (d * d);
    /* interior cells: centres 1..3, faces half-way to the neighbours */
    floe_region r = {V(0.5 * d, 0.5 * d, 0.5 * d), V(3.5 * d, 3.5 * d, 3.5 * d), 0};
    CHECK(floe_stress_tensor(w, &r, s) == FLOE_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (i == j) CHECK_REL(s[3 * i + j], want, 1e-12);
            else CHECK_NEAR(s[3 * i + j], 0, 1e-12 * fabs(want));
        }
    REPORT("cubic lattice: sigma_xx = %.10g Pa, closed form -f/d^2 = %.10g Pa (f = %.6g N, d = %g m)\n", s[0], want, f,
           d);
    /* the whole lattice: every contact in a box of (n d)^3, one row of
     * contacts fewer than cells along each axis: -f (n - 1) / (n d^2) */
    floe_region all = {V(-0.5 * d, -0.5 * d, -0.5 * d), V((n - 0.5) * d, (n - 0.5) * d, (n - 0.5) * d), 1};
    CHECK(floe_stress_tensor(w, &all, s) == FLOE_OK);
    CHECK_REL(s[4], want * (n - 1) / n, 1e-12);
    CHECK_REL(s[8], want * (n - 1) / n, 1e-12);

    /* fabric: as many contacts along x, y and z */
    double fab[9];
    int nc = 0;
    CHECK(floe_fabric_tensor(w, &all, fab, &nc) == FLOE_OK);
    CHECK(nc == 3 * n * n * (n - 1));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) CHECK_NEAR(fab[3 * i + j], i == j ? 1.0 / 3 : 0, 1e-15);
    /* a box holding the contact points of one x-row only */
    floe_region row = {V(0, -0.1 * d, -0.1 * d), V((n - 1) * d, 0.1 * d, 0.1 * d), 0};
    CHECK(floe_fabric_tensor(w, &row, fab, &nc) == FLOE_OK);
    CHECK(nc == n - 1);
    CHECK_NEAR(fab[0], 1, 1e-15);
    CHECK_NEAR(fab[4] + fab[8], 0, 1e-15);
    /* solid fraction of the interior box: the 27 spheres inside lose caps of
     * height delta/2 through its faces and the neighbours outside bring the
     * same caps in (overlaps count once per body), so phi = (4/3 pi R^3) / d^3 */
    double phi;
    CHECK(floe_solid_fraction(w, &r, &phi) == FLOE_OK);
    CHECK_REL(phi, 4.0 / 3 * PI * R * R * R / (d * d * d), 1e-12);
    /* coordination: interior particles have 6 contacts, corners 3 */
    floe_coordination_info co;
    CHECK(floe_coordination(w, &all, &co) == FLOE_OK);
    CHECK(co.particles == n * n * n && co.rattlers == 0);
    CHECK_REL(co.z, 2.0 * 3 * n * n * (n - 1) / (n * n * n), 1e-15);

    /* a whole region at once (measurements.csv) gives each quantity bit for
     * bit as its history column does, alone and through a row's cache, in
     * the order of the names; stress.xx is the closed form above */
    const char *qn[FLOE_REGION_QUANTITIES];
    CHECK(floe_history_region_quantities(qn, FLOE_REGION_QUANTITIES) == FLOE_REGION_QUANTITIES);
    double v[FLOE_REGION_QUANTITIES];
    floe_region_values(w, &r, v);
    floe_quantity_cache qc = {0};
    for (int q = 0; q < FLOE_REGION_QUANTITIES; q++) {
        floe_history_column col;
        memset(&col, 0, sizeof col);
        col.kind = FLOE_HIST_REGION;
        col.region = r;
        snprintf(col.quantity, sizeof col.quantity, "%s", qn[q]);
        double one = floe_history_value(w, &col, NULL), cached = floe_history_value_cached(w, &col, NULL, &qc);
        CHECK(memcmp(&one, &v[q], sizeof one) == 0 && memcmp(&cached, &v[q], sizeof cached) == 0);
    }
    CHECK(!strcmp(qn[0], "stress.xx"));
    CHECK_REL(v[0], want, 1e-12);
    floe_world_destroy(w);
}

/* ---- two contacts by hand ------------------------------------------------------- */

static void test_by_hand(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    const double R = 0.01;
    floe_vec3 n = V(2.0 / 7, 3.0 / 7, 6.0 / 7), pa = V(0.1, 0.2, 0.3);
    double dist = 1.98 * R;
    bd.pos = V(0, 0, -0.5);
    int wall = floe_add_wall(w, &bd, 2, 1);
    bd.pos = pa;
    int a = floe_add_sphere(w, &bd, R);
    bd.pos = V(pa.x + dist * n.x, pa.y + dist * n.y, pa.z + dist * n.z);
    bd.vel = V(0.3, -0.2, 0.05); /* sliding: a shear force too */
    int b = floe_add_sphere(w, &bd, R);
    bd.pos = V(0.5, 0.5, -0.5 + R - 2e-5);
    bd.vel = V(0.1, 0, 0);
    int c = floe_add_sphere(w, &bd, R);
    CHECK(floe_run(w, 5) == FLOE_OK);
    CHECK(floe_contact_count(w) == 2);
    /* sigma_ij = (1/V) sum l_i f_j, l from A's end (a centre, or the
     * contact point for the wall) to B's centre, f the force on A */
    const floe_vec3 *x = floe_positions(w);
    floe_contact_info ab, cw;
    floe_contact_get(w, floe_contact_find(w, a, b), &ab);
    floe_contact_get(w, floe_contact_find(w, wall, c), &cw);
    CHECK(ab.a == a && cw.a == wall);
    CHECK(fabs(ab.force.y) + fabs(ab.force.z) > 1e-3 * fabs(ab.force.x)); /* it does carry shear */
    double lab[3] = {x[b].x - x[a].x, x[b].y - x[a].y, x[b].z - x[a].z};
    double lcw[3] = {x[c].x - cw.point.x, x[c].y - cw.point.y, x[c].z - cw.point.z};
    double fab[3] = {ab.force_global.x, ab.force_global.y, ab.force_global.z};
    double fcw[3] = {cw.force_global.x, cw.force_global.y, cw.force_global.z};
    floe_region all = {V(-1, -1, -1), V(1, 1, 1), 1};
    double s[9], vol = 8;
    CHECK(floe_stress_tensor(w, &all, s) == FLOE_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            CHECK_NEAR(s[3 * i + j], (lab[i] * fab[j] + lcw[i] * fcw[j]) / vol, 1e-15 * fabs(fab[0]) / vol + 1e-300);
    /* a box that holds the branch a -> b from 40 % of its height in z up
     * (and not the wall contact): 60 % of the branch counts */
    double z0 = x[a].z + 0.4 * lab[2];
    floe_region cut = {V(-1, -1, z0), V(1, 1, 1), 0};
    double vcut = 2 * 2 * (1 - z0);
    CHECK(floe_stress_tensor(w, &cut, s) == FLOE_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            CHECK_NEAR(s[3 * i + j], 0.6 * lab[i] * fab[j] / vcut, 1e-12 * fabs(lab[i] * fab[j]) / vcut + 1e-300);
    /* bad arguments: a clear refusal */
    floe_region flat = {V(0, 0, 0), V(1, 0, 1), 0};
    CHECK(floe_stress_tensor(w, &flat, s) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "lo < hi") != NULL);
    CHECK(floe_stress_tensor(w, NULL, s) == FLOE_ERR_ARG);
    CHECK(floe_stress_tensor(w, &all, NULL) == FLOE_ERR_ARG);
    floe_region inf = {V(0, 0, 0), V(INFINITY, 1, 1), 0}, odd = {V(0, 0, 0), V(1, 1, 1), 2};
    double phi;
    CHECK(floe_solid_fraction(w, &inf, &phi) == FLOE_ERR_ARG);
    floe_region nobox = {V(0, 0, 0), V(0, 0, 0), 1};
    CHECK(floe_solid_fraction(w, &nobox, &phi) == FLOE_ERR_ARG); /* whole still needs the volume */
    floe_coordination_info co;
    CHECK(floe_coordination(w, &nobox, &co) == FLOE_OK); /* ... but coordination does not */
    CHECK(floe_coordination(w, &odd, &co) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "whole = 2") != NULL);
    CHECK(floe_fabric_tensor(w, &flat, s, NULL) == FLOE_ERR_ARG);
    floe_plane_count pc;
    CHECK(floe_plane_counter_get(w, 0, &pc) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "plane counter id 0") != NULL);
    CHECK(isnan(floe_group_stress(w, 3, 1).x));
    int g = floe_add_group(w, "g");
    CHECK(isnan(floe_group_stress(w, g, 0).x) && strstr(floe_last_error(w), "area") != NULL);
    CHECK(floe_group_stress(w, g, 1).x == 0);
    floe_world_destroy(w);
}

/* ---- a pile: stress against the weight above -------------------------------- */

/* Frictional spheres poured into a box whose walls are frictionless. The
 * particles whose centres lie above a height z receive, besides the
 * sideways pushes of the walls, only the forces of the contacts whose
 * branch vectors cross z; so those contacts carry sum_{z_p > z} F_p,z, the
 * vertical contact force on the particles above (at rest: their weight
 * W(z)). The branch weighting of a slab z0..z1 spanning the box then gives
 *   sigma_zz = -(1/(A h)) sum_p F_p,z clamp(z_p - z0, 0, h)
 * exactly at any instant (docs/measurements.md#stress-tensor-love-weber),
 * and with F_p,z = m_p g at rest the weight above, integrated over the
 * slab. The hydrostatic W(z_mid)/A differs from that by the steps of W(z)
 * at each particle's centre, less than one layer's weight. */
static void test_pile(void) {
    const int nx = 3, ny = 3, nz = 8;
    const double r = 0.005, s = 2.2 * r, g = 9.81;
    floe_world_def def = floe_default_world_def();
    def.gravity = V(0, 0, -g);
    def.damping = 0.8;
    def.threads = 1;
    def.dt = 3.5e-5; /* half the critical step */
    floe_world *w = floe_world_create(&def);
    int grain = floe_add_material(w, "grain", "linear"), smooth = floe_add_material(w, "smooth", "linear");
    floe_material_set(w, grain, "density", 2500);
    floe_material_set(w, grain, "young", 1e7);
    floe_material_set(w, smooth, "young", 1e7);
    floe_material_set(w, smooth, "tan_phi", 0); /* a pair takes the smaller tan_phi */
    floe_body_def bd = floe_default_body_def();
    bd.material = smooth;
    floe_add_wall(w, &bd, 2, 1);
    floe_add_wall(w, &bd, 0, 1);
    floe_add_wall(w, &bd, 1, 1);
    bd.pos = V(nx * s, ny * s, 0);
    floe_add_wall(w, &bd, 0, -1);
    floe_add_wall(w, &bd, 1, -1);
    bd.material = grain;
    uint64_t seed = 99;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                bd.pos = V((i + 0.5) * s + 0.1 * r * (rnd(&seed) - 0.5), (j + 0.5) * s + 0.1 * r * (rnd(&seed) - 0.5),
                           (k + 0.5) * s);
                floe_add_sphere(w, &bd, r * (0.9 + 0.1 * rnd(&seed)));
            }
    /* until every grain's contact forces balance its weight (about 80000
     * steps; the run is deterministic) */
    const int np = floe_particle_count(w);
    const floe_vec3 *x = floe_positions(w), *f = floe_forces(w);
    const double *mass = floe_masses(w);
    double top = 0, mtot = 0, imbalance = 0;
    int steps = 0;
    do {
        CHECK(floe_run(w, 4000) == FLOE_OK);
        steps += 4000;
        top = mtot = imbalance = 0;
        for (int i = 0; i < np; i++)
            if (floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE) {
                top = fmax(top, x[i].z);
                mtot += mass[i];
                imbalance += fabs(f[i].z - mass[i] * g);
            }
    } while (imbalance > 1e-7 * mtot * g && steps < 200000);
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    double A = nx * s * ny * s, zmid = 0.5 * top, h = 4 * r, z0 = zmid - h / 2;
    floe_region slab = {V(0, 0, z0), V(nx * s, ny * s, z0 + h), 0};
    double sig[9];
    CHECK(floe_stress_tensor(w, &slab, sig) == FLOE_OK);
    double by_force = 0, by_weight = 0, above = 0;
    for (int i = 0; i < np; i++) {
        if (floe_particle_shape(w, i) != FLOE_SHAPE_SPHERE) continue;
        double in = fmin(fmax(x[i].z - z0, 0), h);
        by_force += f[i].z * in;
        by_weight += mass[i] * g * in;
        if (x[i].z > zmid) above += mass[i];
    }
    double exact = -by_force / (A * h), weight = -by_weight / (A * h), hydro = -g * above / A;
    REPORT("pile (%d grains, weight %.4g N, after %d steps: kinetic %.2g J, sum |F_z - m g| = %.2g N): "
           "sigma_zz at mid-height "
           "%.6g Pa; contact forces above %.6g Pa (rel %.2g); weight above, over the slab %.6g Pa (rel %.2g); "
           "weight above / area %.6g Pa (rel %.2g)\n",
           nx * ny * nz, mtot * g, steps, e[FLOE_E_KINETIC], imbalance, sig[8], exact, fabs(sig[8] / exact - 1), weight,
           fabs(sig[8] / weight - 1), hydro, fabs(sig[8] / hydro - 1));
    /* the bookkeeping identity: only rounding */
    CHECK_REL(sig[8], exact, 1e-10);
    /* at rest: within the remaining force imbalance of the grains */
    CHECK(imbalance < 1e-7 * mtot * g);
    CHECK_REL(sig[8], weight, 1e-6);
    /* hydrostatic: within the weight of one layer of grains, 1/nz of the column */
    CHECK_REL(sig[8], hydro, 1.0 / nz);
    floe_world_destroy(w);
}

/* ---- coordination and rattlers ------------------------------------------------- */

/* Built contact by contact: a triangle of touching spheres 0, 1, 2; sphere
 * 3 touching 2 only; sphere 4 alone; sphere 5 on the floor only. Contacts
 * per particle: 2, 2, 3, 1, 0, 1. */
static void test_coordination(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", "linear");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    const double R = 0.01, d = 2 * R - 1e-4;
    bd.pos = V(0, 0, -1);
    floe_add_wall(w, &bd, 2, 1); /* id 0 */
    floe_vec3 p[6] = {V(0, 0, 0),
                      V(d, 0, 0),
                      V(0.5 * d, 0.5 * sqrt(3) * d, 0),
                      V(0.5 * d, 0.5 * sqrt(3) * d + d, 0),
                      V(0.5, 0.5, 0.5),
                      V(0.5, 0.5, -1 + R - 1e-4)};
    for (int i = 0; i < 6; i++) {
        bd.pos = p[i];
        CHECK(floe_add_sphere(w, &bd, R) == i + 1);
    }
    CHECK(floe_start(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 5);
    floe_coordination_info co;
    floe_region all = {V(0, 0, 0), V(0, 0, 0), 1};
    CHECK(floe_coordination(w, &all, &co) == FLOE_OK);
    /* z = 9 / 6; z_mech over the three with 2 or more: (2 + 2 + 3) / 3 */
    CHECK(co.particles == 6 && co.rattlers == 3);
    CHECK_NEAR(co.z, 9.0 / 6, 1e-15);
    CHECK_NEAR(co.z_mech, 7.0 / 3, 1e-15);
    /* the four of the cluster: Thornton's (2C - N1) / (N - N0 - N1) with
     * C = 4, N = 4, N1 = 1, N0 = 0 is 7/3 too; z = 8/4 */
    floe_region cluster = {V(-0.1, -0.1, -0.1), V(0.1, 0.1, 0.1), 0};
    CHECK(floe_coordination(w, &cluster, &co) == FLOE_OK);
    CHECK(co.particles == 4 && co.rattlers == 1);
    CHECK_NEAR(co.z, 2, 1e-15);
    CHECK_NEAR(co.z_mech, 7.0 / 3, 1e-15);
    /* the fabric skips the floor contact: four contacts in the xy plane */
    double fab[9];
    int nc;
    CHECK(floe_fabric_tensor(w, &all, fab, &nc) == FLOE_OK);
    CHECK(nc == 4);
    CHECK_NEAR(fab[0] + fab[4] + fab[8], 1, 1e-15);
    CHECK_NEAR(fab[8], 0, 1e-15);
    /* triangle edges along 0, 60, 120 degrees and one more along 90: xx = (1 + 1/4 + 1/4 + 0) / 4 */
    CHECK_NEAR(fab[0], 1.5 / 4, 1e-12);
    floe_region nothing = {V(5, 5, 5), V(6, 6, 6), 0};
    CHECK(floe_coordination(w, &nothing, &co) == FLOE_OK && co.particles == 0 && co.z == 0 && co.z_mech == 0);
    CHECK(floe_fabric_tensor(w, &nothing, fab, &nc) == FLOE_OK && nc == 0 && fab[0] == 0);
    floe_world_destroy(w);
}

/* ---- plane counters --------------------------------------------------------------- */

/* Spheres fall under gravity through z = 0, some thrown up through it from
 * below (they cross twice), far enough apart never to touch. The test
 * follows every centre step by step and counts the crossings itself. */
static void test_plane_counter(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-4;
    def.gravity = V(0, 0, -9.81);
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", "linear");
    int grp = floe_add_group(w, "tagged");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    uint64_t s = 3;
    const int n = 30;
    for (int i = 0; i < n; i++) {
        bd.pos = V(0.1 * i, 0, i % 3 == 0 ? -0.05 * rnd(&s) : 0.2 * rnd(&s));
        bd.vel = V(0, 0, i % 3 == 0 ? 1.5 * rnd(&s) : 0);
        bd.groups = i % 2 ? 1u << grp : 0;
        floe_add_sphere(w, &bd, 0.002 * (1 + rnd(&s)));
    }
    int all = floe_add_plane_counter(w, "floor", V(0, 0, 0), V(0, 0, 2), -1);
    int tagged = floe_add_plane_counter(w, "tagged", V(5, 5, 0), V(0, 0, 1), grp);
    int tilted = floe_add_plane_counter(w, "tilted", V(0, 0, 0.05), V(0.3, 0, -1), -1);
    CHECK(all == 0 && tagged == 1 && tilted == 2 && floe_plane_counter_count(w) == 3);
    CHECK(floe_find_plane_counter(w, "tilted") == 2 && floe_find_plane_counter(w, "none") == -1);
    /* refused: a duplicate name, no direction, a bad group */
    CHECK(floe_add_plane_counter(w, "floor", V(0, 0, 0), V(0, 0, 1), -1) == -1);
    CHECK(strstr(floe_last_error(w), "exists already") != NULL);
    CHECK(floe_add_plane_counter(w, "z", V(0, 0, 0), V(0, 0, 0), -1) == -1);
    CHECK(floe_add_plane_counter(w, "z", V(0, 0, 0), V(0, 0, 1), 7) == -1);
    CHECK(floe_add_plane_counter(w, "z", V(NAN, 0, 0), V(0, 0, 1), -1) == -1);
    const double *mass = floe_masses(w);
    int64_t want[3][2] = {{0}};
    double want_m[3][2] = {{0}};
    floe_vec3 nt = V(0.3 / sqrt(1.09), 0, -1 / sqrt(1.09));
    for (int step = 0; step < 2000; step++) {
        int before[3][64];
        const floe_vec3 *x = floe_positions(w);
        for (int i = 0; i < n; i++) {
            before[0][i] = x[i].z >= 0;
            before[2][i] = nt.x * x[i].x + nt.z * (x[i].z - 0.05) >= 0;
        }
        CHECK(floe_step(w) == FLOE_OK);
        x = floe_positions(w);
        for (int i = 0; i < n; i++) {
            int now0 = x[i].z >= 0, now2 = nt.x * x[i].x + nt.z * (x[i].z - 0.05) >= 0;
            if (now0 != before[0][i]) {
                want[0][!now0]++;
                want_m[0][!now0] += mass[i];
                if (i % 2) {
                    want[1][!now0]++;
                    want_m[1][!now0] += mass[i];
                }
            }
            if (now2 != before[2][i]) {
                want[2][!now2]++;
                want_m[2][!now2] += mass[i];
            }
        }
    }
    CHECK(floe_contact_count(w) == 0);
    for (int k = 0; k < 3; k++) {
        floe_plane_count pc;
        CHECK(floe_plane_counter_get(w, k, &pc) == FLOE_OK);
        CHECK(pc.crossed_pos == want[k][0] && pc.crossed_neg == want[k][1]);
        CHECK(pc.mass_pos == want_m[k][0] && pc.mass_neg == want_m[k][1]);
        REPORT("plane '%s': %lld crossed down (%.4g kg), %lld up; counted by the test: %lld, %lld\n", pc.name,
               (long long)pc.crossed_neg, pc.mass_neg, (long long)pc.crossed_pos, (long long)want[k][1],
               (long long)want[k][0]);
    }
    CHECK(want[0][1] > 10 && want[0][0] > 3); /* the run does make crossings both ways */
    /* every quantity of a counter at once (measurements.csv): the history
     * column's, named in the same order; count: crossings to the positive side less those back */
    for (int k = 0; k < 3; k++) {
        const char *qn[FLOE_PLANE_QUANTITIES];
        double v[FLOE_PLANE_QUANTITIES];
        CHECK(floe_history_plane_quantities(qn, FLOE_PLANE_QUANTITIES) == FLOE_PLANE_QUANTITIES);
        floe_plane_values(w, k, v);
        for (int q = 0; q < FLOE_PLANE_QUANTITIES; q++) {
            floe_history_column col;
            memset(&col, 0, sizeof col);
            col.kind = FLOE_HIST_PLANE;
            col.a = k;
            snprintf(col.quantity, sizeof col.quantity, "%s", qn[q]);
            double one = floe_history_value(w, &col, NULL);
            CHECK(memcmp(&one, &v[q], sizeof one) == 0);
        }
        CHECK(!strcmp(qn[0], "count") && v[0] == (double)(want[k][0] - want[k][1]));
    }
    /* a move through the API is not a crossing */
    floe_plane_count before, after;
    floe_plane_counter_get(w, all, &before);
    floe_vec3 p = floe_positions(w)[1];
    CHECK(floe_set_position(w, 1, V(p.x, p.y, -p.z + 1)) == FLOE_OK);
    floe_plane_counter_get(w, all, &after);
    CHECK(after.crossed_pos == before.crossed_pos);

    /* a restart file keeps the counters; both worlds go on counting alike */
    char path[600], err[1024];
    snprintf(path, sizeof path, "%s/planes.h5", tmp);
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene.world = w;
    r.scene.steps = r.total_steps = 4000;
    CHECK(floe_restart_write(path, &r, err, sizeof err) == 0);
    floe_restart back;
    if (floe_restart_load(path, &back, err, sizeof err) != 0) {
        fprintf(stderr, "restart load: %s\n", err);
        CHECK(0);
    } else {
        floe_world *w2 = back.scene.world;
        CHECK(floe_plane_counter_count(w2) == 3);
        CHECK(floe_run(w, 500) == FLOE_OK && floe_run(w2, 500) == FLOE_OK);
        for (int k = 0; k < 3; k++) {
            floe_plane_count a, b;
            floe_plane_counter_get(w, k, &a);
            floe_plane_counter_get(w2, k, &b);
            CHECK(!strcmp(a.name, b.name) && a.group == b.group);
            CHECK(a.crossed_pos == b.crossed_pos && a.crossed_neg == b.crossed_neg);
            CHECK(a.mass_pos == b.mass_pos && a.mass_neg == b.mass_neg);
            CHECK(a.normal.x == b.normal.x && a.normal.z == b.normal.z && a.point.z == b.point.z);
        }
        floe_restart_free(&back);
    }
    floe_world_destroy(w);
}

/* ---- output keys, history columns, measurements.csv ---------------------------- */

static const char *scene_text = "world: {gravity: [0, 0, -9.81], dt: 1e-5}\n"
                                "run: {steps: 200}\n"
                                "materials: [{name: m, model: linear, density: 2500, young: 1e7}]\n"
                                "groups: [{name: lid}]\n"
                                "walls: [{axis: z, sense: 1, pos: 0},\n"
                                "        {axis: z, sense: -1, pos: 0.0395, group: lid}]\n"
                                "particles: [{radius: 0.01, pos: [0, 0, 0.00995]},\n"
                                "            {radius: 0.01, pos: [0, 0, 0.0297]},\n"
                                "            {radius: 0.005, pos: [0.5, 0, 0.20001]}]\n"
                                "output:\n"
                                "  regions:\n"
                                "    - {name: column, min: [-0.02, -0.02, 0], max: [0.02, 0.02, 0.04]}\n"
                                "    - {name: box, min: [-0.02, -0.02, 0], max: [0.02, 0.02, 0.04], whole: true}\n"
                                "  planes:\n"
                                "    - {name: drop, point: [0.5, 0, 0.2], normal: [0, 0, 1]}\n"
                                "  vtk: false\n"
                                "  energy: false\n"
                                "  history:\n"
                                "    every: 50\n"
                                "    columns:\n"
                                "      - {name: szz, region: column, quantity: stress.zz}\n"
                                "      - {name: sxx, region: column, quantity: stress.xx}\n"
                                "      - {name: phi, region: column, quantity: solid_fraction}\n"
                                "      - {name: z, region: box, quantity: coordination}\n"
                                "      - {name: fzz, region: box, quantity: fabric.zz}\n"
                                "      - {name: p_lid, group: lid, quantity: stress.z, area: 0.0016}\n"
                                "      - {name: down, plane: drop, quantity: count_neg}\n"
                                "      - {name: down_kg, plane: drop, quantity: mass}\n";

/* Value of `col` in the last row of a CSV file. */
static double last_value(const char *path, const char *col) {
    char *t = check_slurp(path, NULL);
    if (!t) return NAN;
    int idx = -1, k = 0;
    char *line = t, *nl = strchr(t, '\n');
    if (!nl) return free(t), NAN;
    *nl = 0;
    for (char *f = strtok(line, ","); f; f = strtok(NULL, ","), k++)
        if (!strcmp(f, col)) idx = k;
    char *last = nl + 1, *p = last;
    while ((p = strchr(p, '\n')) && p[1]) last = ++p;
    double v = NAN;
    k = 0;
    for (char *f = strtok(last, ",\n"); f; f = strtok(NULL, ",\n"), k++)
        if (k == idx) v = strtod(f, NULL);
    free(t);
    return v;
}

static void test_scene(void) {
    char path[600], dir[600], err[2048];
    check_write_tmp(tmp, "measure.yaml", scene_text, path, sizeof path);
    floe_scene sc;
    if (floe_scene_load(path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "scene: %s\n", err);
        CHECK(0);
        return;
    }
    CHECK(sc.out.n_regions == 2 && sc.out.n_history_cols == 8);
    CHECK(floe_plane_counter_count(sc.world) == 1);
    snprintf(dir, sizeof dir, "%s/out", tmp);
    floe_output *o = floe_output_open(dir, &sc.out, sc.world, 200, err, sizeof err);
    CHECK(o != NULL);
    if (!o) {
        fprintf(stderr, "output: %s\n", err);
        floe_scene_free(&sc);
        return;
    }
    for (int i = 0; i < 200; i++) {
        CHECK(floe_step(sc.world) == FLOE_OK);
        CHECK(floe_output_step(o, sc.world) == 0);
    }
    floe_world *w = sc.world;
    floe_region column = sc.out.regions[0].region, box = sc.out.regions[1].region;
    double sig[9], phi, fab[9];
    floe_coordination_info co;
    floe_plane_count pc;
    CHECK(floe_stress_tensor(w, &column, sig) == FLOE_OK);
    CHECK(floe_solid_fraction(w, &column, &phi) == FLOE_OK);
    CHECK(floe_coordination(w, &box, &co) == FLOE_OK);
    CHECK(floe_fabric_tensor(w, &box, fab, NULL) == FLOE_OK);
    CHECK(floe_plane_counter_get(w, 0, &pc) == FLOE_OK);
    floe_vec3 lid = floe_group_stress(w, floe_find_group(w, "lid"), 0.0016);
    CHECK(floe_output_close(o, w) == 0);
    char hist[700], meas[700];
    snprintf(hist, sizeof hist, "%s/history.csv", dir);
    snprintf(meas, sizeof meas, "%s/measurements.csv", dir);
    /* the columns are what the API gives (printed with 17 digits) */
    CHECK(last_value(hist, "szz") == sig[8] && last_value(hist, "sxx") == sig[0]);
    CHECK(last_value(hist, "phi") == phi && last_value(hist, "z") == co.z && last_value(hist, "fzz") == fab[8]);
    CHECK(last_value(hist, "p_lid") == lid.z);
    CHECK(last_value(hist, "down") == (double)pc.crossed_neg);
    CHECK(last_value(hist, "down_kg") == pc.mass_pos - pc.mass_neg);
    /* the column is squeezed: compression, and the lid is pushed up */
    CHECK(sig[8] < 0 && lid.z > 0);
    CHECK(pc.crossed_neg == 1 && pc.crossed_pos == 0); /* the small sphere fell through */
    CHECK(pc.mass_neg == floe_masses(w)[4]);
    char *mt = check_slurp(meas, NULL);
    CHECK(mt && !strncmp(mt, "source,name,quantity,value\n", 27));
    CHECK(mt && strstr(mt, "\nregion,column,stress.zz,") && strstr(mt, "\nregion,box,rattlers,") &&
          strstr(mt, "\nplane,drop,count_neg,1\n"));
    free(mt);
    floe_scene_free(&sc);

    /* stopped at step 80 with a restart file and resumed from it: history.csv
     * and measurements.csv byte for byte those of the run that never stopped
     * (regions, areas and plane counts come back from the file) */
    char dir2[600], file[700];
    snprintf(dir2, sizeof dir2, "%s/resumed", tmp);
    CHECK(floe_scene_load(path, &sc, err, sizeof err) == 0);
    o = floe_output_open(dir2, &sc.out, sc.world, 200, err, sizeof err);
    CHECK(o != NULL);
    if (!o) return;
    for (int i = 0; i < 80; i++) {
        CHECK(floe_step(sc.world) == FLOE_OK);
        CHECK(floe_output_step(o, sc.world) == 0);
    }
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene = sc; /* borrowed */
    r.total_steps = 200;
    CHECK(floe_output_get_state(o, &r.output) == 0);
    r.has_output = 1;
    snprintf(file, sizeof file, "%s/at80.h5", tmp);
    CHECK(floe_restart_write(file, &r, err, sizeof err) == 0);
    CHECK(floe_output_close(o, sc.world) == 0); /* what it writes after step 80 is cut back on resume */
    floe_scene_free(&sc);
    floe_restart back;
    if (floe_restart_load(file, &back, err, sizeof err) != 0) {
        fprintf(stderr, "restart: %s\n", err);
        CHECK(0);
        return;
    }
    CHECK(back.scene.out.n_regions == 2 && !strcmp(back.scene.out.regions[1].name, "box") &&
          back.scene.out.regions[1].region.whole == 1);
    CHECK(back.scene.out.history_cols[5].area == 0.0016);
    o = floe_output_resume(dir2, &back.scene.out, back.scene.world, &back.output, err, sizeof err);
    CHECK(o != NULL);
    if (o) {
        while (floe_step_count(back.scene.world) < 200) {
            CHECK(floe_step(back.scene.world) == FLOE_OK);
            CHECK(floe_output_step(o, back.scene.world) == 0);
        }
        CHECK(floe_output_close(o, back.scene.world) == 0);
        char a[700], b[700];
        const char *names[] = {"history.csv", "measurements.csv"};
        for (int i = 0; i < 2; i++) {
            snprintf(a, sizeof a, "%s/%s", dir, names[i]);
            snprintf(b, sizeof b, "%s/%s", dir2, names[i]);
            if (!check_same_file(a, b)) {
                fprintf(stderr, "%s differs after a resume\n", names[i]);
                CHECK(0);
            }
        }
    } else fprintf(stderr, "resume: %s\n", err);
    floe_restart_free(&back);

    /* mistakes in the keys: refused with the key and the choices */
    struct {
        const char *from, *to, *msg;
    } bad[] = {
        {"region: column, quantity: stress.zz", "region: colum, quantity: stress.zz", "did you mean 'column'"},
        {"quantity: stress.xx", "quantity: stress.x", "unknown quantity 'stress.x'"},
        {", area: 0.0016", "", "give 'area'"},
        {"normal: [0, 0, 1]", "normal: [0, 0, 0]", "has no direction"},
        {"max: [0.02, 0.02, 0.04]}\n    - {name: box", "max: [0.02, -0.03, 0.04]}\n    - {name: box",
         "larger than in min"},
        {"quantity: count_neg", "quantity: crossed", "unknown quantity 'crossed'"},
        {"{name: z, region: box, quantity: coordination}", "{name: z, counter: step, area: 1}", "area"},
        {"{name: z, region: box, quantity: coordination}", "{name: z, region: box, group: lid, quantity: particles}",
         "a 'region' column takes no 'group'"},
        {"{name: z, region: box, quantity: coordination}", "{name: z, region: box, plane: drop, quantity: count}",
         "either 'region' or 'plane'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *at = strstr(scene_text, bad[i].from);
        CHECK(at != NULL);
        if (!at) continue;
        char text[4096];
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - scene_text), scene_text, bad[i].to,
                 at + strlen(bad[i].from));
        check_write_tmp(tmp, "bad.yaml", text, path, sizeof path);
        int rc = floe_scene_load(path, &sc, err, sizeof err);
        CHECK(rc != 0);
        if (rc == 0) floe_scene_free(&sc);
        else if (!strstr(err, bad[i].msg)) {
            fprintf(stderr, "case %zu: message '%s' lacks '%s'\n", i, err, bad[i].msg);
            CHECK(0);
        }
    }
}

int main(void) {
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_sphere_box();
    test_aspherical_estimate();
    test_lattice();
    test_by_hand();
    test_pile();
    test_coordination();
    test_plane_counter();
    test_scene();
    if (check_failures == 0) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
    } else fprintf(stderr, "files kept in %s\n", tmp);
    return CHECK_DONE();
}
