/* Contact-level tests of the soft-bond model: the ten cases T1-T10 of
 * docs/models/softbond.md (numbers re-derived from the model's published
 * equations), the methods, and the energy balance.
 *
 * Common data (3D): R1 = R2 = 1 mm -> R = 1 mm, A = pi R^2 = 3.14159e-6 m^2,
 * I = pi R^4/4, J = pi R^4/2; deformability E* = 1 GPa, kratio 2.5, L = 2 mm
 * -> kn = 5e11 Pa/m, ks = 2e11 Pa/m, kn A = 1.5708e6 N/m, ks A = 6.2832e5 N/m,
 * kn I = 0.392699 N m, ks J = 0.314159 N m. Unless a test says otherwise both
 * spheres are fully blocked and follow prescribed velocities, the bond is made
 * at step 0 with the spheres touching (gap 0), and loading increments are
 * 1e-4 of the critical elongation per step, so "at x" means within one
 * increment of x. Tolerances are stated at each check. */
#include "check.h"
#include "events.h"
#include "io/scene.h"
#include <floe/floe.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define PI 3.14159265358979323846
static const double R = 1e-3, KN = 5e11, KS = 2e11;
static const double AREA = PI * 1e-6, KNA = 5e11 * PI * 1e-6, KSA = 2e11 * PI * 1e-6;
static const double KNI = 5e11 * PI * 1e-12 / 4, KSJ = 2e11 * PI * 1e-12 / 2;
static const double SIG_C = 5e6;

typedef struct pair {
    floe_world *w;
    int a, b;
    int ev[FLOE_EVENT_COUNT];
    uint32_t brk_detail, slip_detail;
    double brk_value[2];
} pair;

static void on_event(const floe_event *ev, void *user) {
    pair *p = user;
    p->ev[ev->type]++;
    if (ev->type == FLOE_EVENT_BOND_BROKEN) {
        p->brk_detail = ev->detail;
        p->brk_value[0] = ev->value[0];
        p->brk_value[1] = ev->value[1];
    }
    if (ev->type == FLOE_EVENT_SLIP_CHANGE) p->slip_detail = ev->detail;
}

/* A step (or n), with p's event counts from each step's events. */
static floe_status step(pair *p) { return step_events(p->w, on_event, p); }
static floe_status run(pair *p, int n) {
    floe_status st = FLOE_OK;
    for (int i = 0; i < n && st == FLOE_OK; i++) st = step(p);
    return st;
}

/* Two spheres of radius R, B at distance 2R + gap along x. */
static void make(pair *p, int dim, double gap, double dt, int blocked) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    def.dimension = dim;
    def.threads = 1;
    *p = (pair){0};
    p->w = floe_world_create(&def);
    int m = floe_add_material(p->w, "rock", "softbond");
    floe_material_set(p->w, m, "density", 2500);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = blocked ? FLOE_DOF_ALL : 0;
    p->a = floe_add_sphere(p->w, &bd, R);
    bd.pos = (floe_vec3){2 * R + gap, 0, 0};
    p->b = floe_add_sphere(p->w, &bd, R);
}

static void set(pair *p, const char *key, double v) { CHECK(floe_model_set(p->w, "softbond", key, v) == FLOE_OK); }

/* Bonded at step 0 (before any motion) with the deformability of the test
 * data (docs/models/softbond.md#verification). */
static void bond_now(pair *p) {
    const double defo[2] = {1e9, 2.5};
    CHECK(floe_schedule_method(p->w, 0, "softbond", "deformability", -1, defo, 2) == FLOE_OK);
    CHECK(floe_schedule_method(p->w, 0, "softbond", "bond", -1, NULL, 0) == FLOE_OK);
}

static int state_index(const char *name) {
    const floe_model_info *mi = floe_model_find("softbond");
    for (int i = 0; i < mi->n_state; i++)
        if (strcmp(mi->state_names[i], name) == 0) return i;
    fprintf(stderr, "no state '%s'\n", name);
    return -1;
}

static double st(const pair *p, const char *name) {
    double v[64];
    int k = floe_contact_find(p->w, p->a, p->b), i = state_index(name);
    if (k < 0 || i < 0) return NAN;
    return floe_contact_state(p->w, k, v, 64) > i ? v[i] : NAN;
}

static floe_contact_info info(const pair *p) {
    floe_contact_info ci = {0};
    int k = floe_contact_find(p->w, p->a, p->b);
    if (k >= 0) floe_contact_get(p->w, k, &ci);
    return ci;
}

static double energy(const pair *p, floe_energy_term t) {
    double e[FLOE_E_COUNT];
    floe_energy(p->w, e);
    return e[t];
}

static void spin(pair *p, floe_vec3 w) { /* relative rotation w, split evenly: no sliding at the contact */
    floe_set_angular_velocity(p->w, p->a, (floe_vec3){-0.5 * w.x, -0.5 * w.y, -0.5 * w.z});
    floe_set_angular_velocity(p->w, p->b, (floe_vec3){0.5 * w.x, 0.5 * w.y, 0.5 * w.z});
}

/* B's velocity to slide by v along +y around A at constant distance (the
 * chord of a circle): a shear displacement without normal displacement. */
static void orbit(pair *p, double v) {
    floe_vec3 xa = floe_positions(p->w)[p->a], xb = floe_positions(p->w)[p->b];
    double dx = xb.x - xa.x, dy = xb.y - xa.y, r = hypot(dx, dy), dt = floe_dt(p->w);
    double da = v * dt / r, c = cos(da), s = sin(da);
    floe_set_velocity(p->w, p->b, (floe_vec3){(c * dx - s * dy - dx) / dt, (s * dx + c * dy - dy) / dt, 0});
}

static void parameters(pair *p, double zeta, double gamma, double beta) {
    set(p, "sb_ten", SIG_C);
    set(p, "sb_soft", zeta);
    set(p, "sb_cut", gamma);
    set(p, "sb_mcf", beta);
    set(p, "sb_coh", 1e12); /* shear failure out of the way */
}

/* ---- T1 tension softening ------------------------------------------------ */

static void test_t1_t10(void) {
    const double dt = 1e-8, v = 0.1; /* 1e-9 m per step = 1e-4 of delta_c */
    pair p;
    make(&p, 3, 0, dt, 1);
    parameters(&p, 2, 0.25, 1);
    bond_now(&p);
    floe_set_velocity(p.w, p.b, (floe_vec3){v, 0, 0});
    CHECK(step(&p) == FLOE_OK);
    CHECK_REL(st(&p, "sb_kn"), KN, 1e-12);
    CHECK_REL(st(&p, "sb_ks"), KS, 1e-12);
    CHECK_REL(st(&p, "emod"), 1e9, 1e-12);
    CHECK_REL(st(&p, "kratio"), 2.5, 1e-12);
    CHECK_REL(st(&p, "sb_area"), AREA, 1e-12);
    CHECK_REL(info(&p).kn, KNA, 1e-12); /* force/length stiffness for the time step */
    double peak = 0, d_peak = 0, d_soft = NAN, f20 = NAN, f_before = 0, d_break = NAN, work = 0, f_prev = 0;
    double e_max = 0, lstar = NAN;
    int steps = 0;
    while (p.ev[FLOE_EVENT_BOND_BROKEN] == 0 && steps < 40000) {
        double d0 = info(&p).uN;
        f_before = info(&p).force.x;
        CHECK(step(&p) == FLOE_OK);
        steps++;
        floe_contact_info ci = info(&p);
        double f = ci.force.x, d = ci.uN;
        work += 0.5 * (f_prev + f) * (d - d0);
        f_prev = f;
        if (f > peak) peak = f, d_peak = d;
        if (isnan(d_soft) && st(&p, "sb_state") == 4) d_soft = d, lstar = st(&p, "sb_lstar");
        if (isnan(f20) && d >= 20e-6 - 1e-15) f20 = f;
        e_max = fmax(e_max, energy(&p, FLOE_E_ELASTIC));
        if (p.ev[FLOE_EVENT_BOND_BROKEN]) d_break = d;
    }
    REPORT("T1: peak F = %.6g N at %.6g um (expected 15.708 N at 10 um), B 3->4 at %.6g um, l* = %.6g um "
           "(30); F(20 um) = %.6g N (7.854); break at %.6g um (25) with F = %.6g N before (3.927); "
           "work to break %.6g J (2.2580e-4 J = 71.875 J/m^2 x A)\n",
           peak, d_peak * 1e6, d_soft * 1e6, lstar * 1e6, f20, d_break * 1e6, f_before, work);
    CHECK_REL(peak, SIG_C * AREA, 2e-4);
    CHECK_NEAR(d_peak, 10e-6, 1.01e-9);
    CHECK_NEAR(d_soft, 10e-6, 1.01e-9);
    CHECK_REL(lstar, 30e-6, 2e-4);
    CHECK_REL(f20, 7.853982, 1e-3);
    CHECK_NEAR(d_break, 25e-6, 3.51e-9); /* S2: l_c >= delta_c by <= 1 increment; x (1 + zeta (1 - gamma)) */
    CHECK_REL(f_before, 3.926991, 1e-3);
    CHECK_REL(work, 2.2580e-4, 1e-3);
    CHECK(st(&p, "sb_state") == 1 && p.brk_detail == 1);
    CHECK(info(&p).force.x == 0 && info(&p).torque.x == 0);
    CHECK_REL(st(&p, "sb_brk_strength"), SIG_C, 1e-12);
    CHECK_REL(st(&p, "sb_brk_energy"), 0.5 * 3.926991 * 3.926991 / KNA, 2e-3);
    /* bond_break event arguments: strength (a stress) and strain energy at failure */
    CHECK(p.brk_value[0] == SIG_C && p.brk_value[1] == st(&p, "sb_brk_energy"));

    /* T10: energy. The strain energy returns to 0 at the break, the work
     * done on the bond is all in `broken`, slip and dashpot stay >= 0. */
    double e[FLOE_E_COUNT];
    floe_energy(p.w, e);
    REPORT("T10: after the break elastic = %.3g J (max %.6g), broken = %.6g J, boundary work = %.6g J, "
           "plastic %.3g, dashpot %.3g\n",
           e[FLOE_E_ELASTIC], e_max, e[FLOE_E_BROKEN], e[FLOE_E_BOUNDARY], e[FLOE_E_PLASTIC], e[FLOE_E_DASHPOT]);
    CHECK(e[FLOE_E_ELASTIC] == 0);
    CHECK_REL(e_max, 0.5 * SIG_C * AREA * SIG_C * AREA / KNA, 1e-3);
    CHECK_REL(e[FLOE_E_BROKEN], work, 1e-7);        /* the same trapezoid (uN vs summed increments) */
    CHECK_REL(e[FLOE_E_BOUNDARY], 2.2580e-4, 2e-3); /* integrator's F(t) v dt: first order in dt */
    CHECK(e[FLOE_E_PLASTIC] >= 0 && e[FLOE_E_DASHPOT] >= 0);
    floe_world_destroy(p.w);
}

/* ---- T2 unload / reload -------------------------------------------------- */

static void test_t2(void) {
    const double dt = 1e-8, v = 0.1;
    pair p;
    make(&p, 3, 0, dt, 1);
    parameters(&p, 2, 0.25, 1);
    bond_now(&p);
    floe_set_velocity(p.w, p.b, (floe_vec3){v, 0, 0});
    while (info(&p).uN < 20e-6 - 1e-15) step(&p);
    double f20 = info(&p).force.x;
    CHECK(st(&p, "sb_state") == 4);
    /* close 5 um */
    floe_set_velocity(p.w, p.b, (floe_vec3){-v, 0, 0});
    double d_zero = NAN, d0 = info(&p).uN, f0 = f20;
    int all5 = 1;
    while (info(&p).uN > 15e-6 + 1e-15) {
        double fb = info(&p).force.x, db = info(&p).uN;
        step(&p);
        all5 &= st(&p, "sb_state") == 5;
        if (isnan(d_zero) && info(&p).force.x <= 0) /* interpolate the zero crossing */
            d_zero = db + (info(&p).uN - db) * fb / (fb - info(&p).force.x);
    }
    double slope = (f0 - info(&p).force.x) / (d0 - info(&p).uN);
    double sig_m = st(&p, "sb_sigm");
    /* reopen */
    floe_set_velocity(p.w, p.b, (floe_vec3){v, 0, 0});
    double d_back = NAN, sig_back = NAN, f225 = NAN;
    while (info(&p).uN < 22.5e-6 - 1e-15) {
        step(&p);
        if (isnan(d_back) && st(&p, "sb_state") == 4) d_back = info(&p).uN, sig_back = st(&p, "sb_sigma");
    }
    f225 = info(&p).force.x;
    REPORT("T2: F(20 um) = %.6g N; closing: all B = 5 %d, slope %.7g N/m (kn A = 1.5708e6), F = 0 at %.6g um "
           "(15), sigma_m = %.6g MPa; reopening: B = 4 again at %.6g um (20) with sigma = %.6g MPa (2.5), "
           "F(22.5 um) = %.6g N (5.8905)\n",
           f20, all5, slope, d_zero * 1e6, sig_m * 1e-6, d_back * 1e6, sig_back * 1e-6, f225);
    CHECK(all5);
    CHECK_REL(slope, KNA, 1e-6);
    CHECK_NEAR(d_zero, 15e-6, 2.01e-9); /* S2 overshoot of l_c shifts the envelope by <= 1.5 increments */
    CHECK_REL(sig_m, 2.5e6, 1e-3);
    CHECK_NEAR(d_back, 20e-6, 2.01e-9);
    CHECK_REL(sig_back, 2.5e6, 1e-3);
    CHECK_REL(f225, SIG_C * AREA * (30 - 22.5) / 20, 1e-3);
    while (p.ev[FLOE_EVENT_BOND_BROKEN] == 0 && info(&p).uN < 30e-6) step(&p);
    CHECK_NEAR(info(&p).uN, 25e-6, 3.51e-9);
    floe_world_destroy(p.w);
}

/* ---- T3 brittle limits --------------------------------------------------- */

static void test_t3(double zeta, double gamma) {
    pair p;
    make(&p, 3, 0, 1e-8, 1);
    parameters(&p, zeta, gamma, 1);
    bond_now(&p);
    floe_set_velocity(p.w, p.b, (floe_vec3){0.1, 0, 0});
    double sig_prev = 0;
    int steps = 0;
    while (p.ev[FLOE_EVENT_BOND_BROKEN] == 0 && steps++ < 20000) {
        sig_prev = st(&p, "sb_sigma");
        step(&p);
    }
    double d = info(&p).uN;
    REPORT("T3 (zeta %g, gamma %g): B = %g at %.6g um, F = %g after; sigma before %.6g MPa (<= 5); "
           "E_k at failure %.6g J\n",
           zeta, gamma, st(&p, "sb_state"), d * 1e6, info(&p).force.x, sig_prev * 1e-6, st(&p, "sb_brk_energy"));
    CHECK(st(&p, "sb_state") == 1 && p.brk_detail == 1);
    CHECK(info(&p).force.x == 0);
    CHECK(sig_prev <= SIG_C * (1 + 1e-9) && KN * d > SIG_C * (1 - 1e-9)); /* the first step with sigma > sigma_c */
    CHECK_REL(st(&p, "sb_brk_energy"), 0.5 * KNA * d * d, 1e-6);          /* of the trial force, before zeroing */
    floe_world_destroy(p.w);
}

/* ---- T4 pure bending --------------------------------------------------- */

static void test_t4(double beta, double th_peak, double th_break) {
    const double dt = 1e-8, w = 200; /* 2e-6 rad per step */
    pair p;
    make(&p, 3, 0, dt, 1);
    parameters(&p, 2, 0.25, beta);
    bond_now(&p);
    spin(&p, (floe_vec3){0, w, 0});
    double peak = 0, th_at_peak = 0, th = 0;
    int steps = 0;
    while (p.ev[FLOE_EVENT_BOND_BROKEN] == 0 && steps++ < 30000) {
        step(&p);
        th = w * dt * steps;
        floe_contact_info ci = info(&p);
        double m = hypot(ci.torque.y, ci.torque.z);
        if (m > peak) peak = m, th_at_peak = th;
        CHECK(fabs(ci.force.x) < 1e-9 && hypot(ci.force.y, ci.force.z) < 1e-9); /* no force from bending */
    }
    REPORT("T4 (beta %g): peak M = %.6g N m at %.6g rad (expected %.6g at %g), break at %.6g rad (%g)\n", beta, peak,
           th_at_peak, KNI * th_peak, th_peak, th, th_break);
    CHECK_REL(peak, KNI * th_peak, 3e-4);
    CHECK_NEAR(th_at_peak, th_peak, 2.01e-6);
    CHECK_NEAR(th, th_break, 3.51 * 2e-6); /* S2: (2 + zeta (1 - gamma)) increments */
    CHECK(st(&p, "sb_state") == 1);
    floe_world_destroy(p.w);
}

/* ---- T5 shear ----------------------------------------------------------- */

static void test_t5(double precompress, double phi_deg, double tau_c) {
    const double dt = 1e-8, v = 0.1;
    pair p;
    make(&p, 3, 0, dt, 1);
    set(&p, "sb_ten", 1e12);
    set(&p, "sb_coh", 2e6);
    set(&p, "sb_fa", phi_deg);
    floe_world *w = p.w;
    int m = floe_find_material(w, "rock");
    floe_material_set(w, m, "tan_phi", 0.5);
    bond_now(&p);
    if (precompress > 0) {
        floe_set_velocity(w, p.b, (floe_vec3){-v, 0, 0});
        while (info(&p).uN > -precompress + 1e-15) step(&p);
        floe_set_velocity(w, p.b, (floe_vec3){0, 0, 0});
        step(&p);
    }
    double fn = info(&p).force.x, us = 0, fs_before = 0;
    int steps = 0;
    while (p.ev[FLOE_EVENT_BOND_BROKEN] == 0 && steps++ < 40000) {
        floe_contact_info ci = info(&p);
        fs_before = hypot(ci.force.y, ci.force.z);
        orbit(&p, v);
        step(&p);
        us += v * dt;
    }
    floe_contact_info ci = info(&p);
    double fs_after = hypot(ci.force.y, ci.force.z);
    REPORT("T5 (sigma_bar %.4g MPa, phi %g): break B = %g at u_s = %.6g um (expected %.6g), |F_s| before "
           "%.6g N (%.6g), strength %.6g MPa (%.6g); F kept at the break: |F_s| = %.6g N\n",
           fn / AREA * 1e-6, phi_deg, st(&p, "sb_state"), us * 1e6, tau_c / KS * 1e6, fs_before, tau_c * AREA,
           st(&p, "sb_brk_strength") * 1e-6, tau_c * 1e-6, fs_after);
    CHECK(st(&p, "sb_state") == 2 && p.brk_detail == 2);
    CHECK_REL(p.brk_value[0], tau_c, 1e-4);
    CHECK_NEAR(us, tau_c / KS, 1.01e-9);
    CHECK_REL(fs_before, tau_c * AREA, 2e-4);
    CHECK_REL(st(&p, "sb_brk_strength"), tau_c, 1e-4);
    CHECK_REL(fs_after, tau_c * AREA, 2e-4); /* S3: kept on the breaking step */
    double broken0 = energy(&p, FLOE_E_BROKEN);
    orbit(&p, v);
    step(&p); /* now unbonded: the Coulomb limit strips the shear spring */
    ci = info(&p);
    CHECK_NEAR(hypot(ci.force.y, ci.force.z), 0.5 * fmax(0, -ci.force.x), 1e-9);
    CHECK(energy(&p, FLOE_E_BROKEN) > broken0); /* the release is bond damage */
    floe_world_destroy(w);
}

/* ---- T6 unbonded limits -------------------------------------------------- */

typedef enum { DRIVE_SHEAR, DRIVE_BEND, DRIVE_TWIST } drive;

static void test_t6(drive how) {
    const double dt = 1e-8;
    pair p;
    make(&p, 3, -1e-6, dt, 1);
    floe_world *w = p.w;
    int m = floe_find_material(w, "rock");
    floe_material_set(w, m, "young", 1e9); /* kn = E/L = 5e11, ks = 0.4 kn = 2e11 */
    floe_material_set(w, m, "kt_div_kn", 0.4);
    floe_material_set(w, m, "tan_phi", 0.5);
    CHECK(step(&p) == FLOE_OK);
    CHECK_REL(st(&p, "sb_kn"), KN, 1e-12);
    CHECK_REL(st(&p, "sb_ks"), KS, 1e-12);
    const double fn = KNA * 1e-6; /* 1.5708 N */
    CHECK_REL(info(&p).force.x, -fn, 1e-9);
    CHECK(p.ev[FLOE_EVENT_CONTACT_ACTIVATED] == 1);
    double lim, k, rate;
    const char *flag;
    if (how == DRIVE_SHEAR) lim = 0.5 * fn, k = KSA, rate = 0.1, flag = "sb_slip";
    else if (how == DRIVE_BEND) lim = 0.525 * fn * R, k = KNI, rate = 200, flag = "sb_slipb";
    else lim = 0.65 * 0.5 * fn * R, k = KSJ, rate = 200, flag = "sb_slipt";
    if (how == DRIVE_BEND) spin(&p, (floe_vec3){0, rate, 0});
    if (how == DRIVE_TWIST) spin(&p, (floe_vec3){rate, 0, 0});
    double u = 0, u_slip = NAN, peak = 0;
    for (int s = 0; s < 4000; s++) {
        if (how == DRIVE_SHEAR) orbit(&p, rate);
        step(&p);
        u += rate * dt;
        floe_contact_info ci = info(&p);
        double load = how == DRIVE_SHEAR  ? hypot(ci.force.y, ci.force.z)
                      : how == DRIVE_BEND ? hypot(ci.torque.y, ci.torque.z)
                                          : fabs(ci.torque.x);
        peak = fmax(peak, load);
        if (isnan(u_slip) && st(&p, flag) == 1) u_slip = u;
    }
    uint32_t bit = how == DRIVE_SHEAR ? 1u << 3 : how == DRIVE_BEND ? 1u << 5 : 1u << 4;
    uint32_t mode = how == DRIVE_SHEAR ? 1 : how == DRIVE_BEND ? 2 : 3;
    REPORT("T6 (%s): limit %.6g (expected %.6g) reached at %.6g (expected %.6g); slip event mode %u\n", flag, peak, lim,
           u_slip, lim / k, p.slip_detail & 7);
    CHECK_REL(peak, lim, 1e-6); /* the overlap 1 um is 2R - |x_B| in floating point */
    CHECK_NEAR(u_slip, lim / k, 1.01 * rate * dt);
    CHECK(p.ev[FLOE_EVENT_SLIP_CHANGE] == 1 && (p.slip_detail & 7) == mode && (p.slip_detail & 0x38) == bit);
    floe_world_destroy(w);
}

/* Incremental mode: the normal force never turns tensile; an opening contact
 * goes inactive (no force) and, beyond the creation gap, away. */
static void test_t6_incremental(void) {
    pair p;
    make(&p, 3, -1e-6, 1e-8, 1);
    floe_world *w = p.w;
    set(&p, "sb_mode", 1);
    floe_material_set(w, floe_find_material(w, "rock"), "tan_phi", 0.5);
    step(&p);
    CHECK_REL(info(&p).force.x, -1.570796, 1e-6); /* a new contact starts from its overlap */
    floe_set_velocity(w, p.b, (floe_vec3){0.1, 0, 0});
    double fmax_ = -INFINITY;
    int steps = 0;
    while (floe_contact_count(w) > 0 && steps++ < 5000) {
        step(&p);
        if (floe_contact_count(w)) fmax_ = fmax(fmax_, info(&p).force.x);
    }
    REPORT(
        "T6 incremental: largest F_n = %g N while opening; contact gone after %d steps (overlap 1 um at 1 nm/step)\n",
        fmax_, steps);
    CHECK(fmax_ <= 0);
    CHECK(floe_contact_count(w) == 0 && steps >= 1000 && steps <= 1002);
    floe_world_destroy(w);
}

/* ---- T7 2D ------------------------------------------------------------- */

static void test_t7(int bend) {
    const double dt = 1e-8;
    pair p;
    make(&p, 2, 0, dt, 1);
    parameters(&p, 2, 0.25, 1);
    bond_now(&p);
    if (bend) spin(&p, (floe_vec3){0, 0, 200});
    else floe_set_velocity(p.w, p.b, (floe_vec3){0.1, 0, 0});
    double peak = 0, ms = NAN, mt = NAN, fss = NAN;
    step(&p);
    CHECK_REL(st(&p, "sb_area"), 2e-3, 1e-12);
    CHECK_REL(st(&p, "sb_radius"), 1e-3, 1e-12);
    CHECK_REL(info(&p).kn, 1e9, 1e-12);
    int steps = 0;
    while (p.ev[FLOE_EVENT_BOND_BROKEN] == 0 && steps++ < 20000) {
        floe_contact_info ci = info(&p);
        double load = bend ? fabs(ci.torque.z) : ci.force.x;
        if (load > peak)
            peak = load, ms = st(&p, "sb_moment_bs"), mt = st(&p, "sb_moment_bt"), fss = st(&p, "sb_force_s");
        step(&p);
    }
    double want = bend ? SIG_C * (2.0 / 3.0 * 1e-9) / R : SIG_C * 2e-3;
    REPORT("T7 2D %s: peak %.6g (expected %.6g); components at the peak: M_bs %.6g, M_bt %g, F_ss %g\n",
           bend ? "bending" : "tension", peak, want, ms, mt, fss);
    CHECK_REL(peak, want, 3e-4);
    CHECK(mt == 0 && fss == 0); /* 2D: no M_bt, no F_ss */
    if (bend) CHECK_REL(fabs(ms), want, 3e-4);
    floe_world_destroy(p.w);
}

/* ---- T8 dashpots -------------------------------------------------------- */

static void test_t8(int mode) {
    const double v0 = 0.1, m = 4.0 / 3.0 * PI * R * R * R * 2500, mc = 0.5 * m;
    const double om = sqrt(KNA / mc), dt = 2e-3 / om, cn = 2 * sqrt(mc * KNA);
    pair p;
    make(&p, 3, 0, dt, 0);
    floe_world *w = p.w;
    floe_material_set(w, floe_find_material(w, "rock"), "young", 1e9);
    set(&p, "dp_nratio", 1);
    set(&p, "dp_mode", mode);
    floe_set_velocity(w, p.a, (floe_vec3){0.5 * v0, 0, 0});
    floe_set_velocity(w, p.b, (floe_vec3){-0.5 * v0, 0, 0});
    step(&p);
    /* c_n = 2 sqrt(m_c kn A) times the relative approach speed (velocities
     * are the mid-step ones the contact saw), on B: -F_n^d */
    CHECK_REL(st(&p, "dp_force_n"), cn * (floe_velocities(w)[p.a].x - floe_velocities(w)[p.b].x), 1e-9);
    double maxov = 0, maxf = -INFINITY;
    int n = (int)(10.0 / (om * dt));
    for (int s = 0; s < n && floe_contact_count(w) > 0; s++) {
        step(&p);
        if (floe_contact_count(w) == 0) break;
        maxov = fmax(maxov, -info(&p).uN);
        maxf = fmax(maxf, info(&p).force.x);
    }
    double vrel = floe_velocities(w)[p.b].x - floe_velocities(w)[p.a].x;
    if (mode == 0) {
        REPORT("T8 mode 0: max overlap %.6g m (v0/(e w) = %.6g), relative velocity after 10/w: %.3g v0, "
               "contact kept %d; largest net F_n %.3g N (tension by the dashpot)\n",
               maxov, v0 / (om * exp(1.0)), vrel / v0, floe_contact_count(w), maxf);
        /* 0.4 %: the dashpot acts from the creation step, and the first kick
         * spans a whole step (the given velocities are those of -dt/2) */
        CHECK_REL(maxov, v0 / (om * exp(1.0)), 5e-3);
        CHECK(floe_contact_count(w) == 1 && fabs(vrel) < 1e-3 * v0); /* no rebound */
        CHECK(maxf > 0);
    } else {
        while (floe_contact_count(w) > 0) step(&p);
        vrel = floe_velocities(w)[p.b].x - floe_velocities(w)[p.a].x;
        REPORT("T8 mode %d: max overlap %.6g m, largest net F_n %.3g N (<= 0), rebound %.5g v0 (e^-2 = %.5g)\n", mode,
               maxov, maxf, vrel / v0, exp(-2.0));
        CHECK(maxf <= 0);
        CHECK_REL(vrel / v0, exp(-2.0), 5e-3);
    }
    floe_world_destroy(w);
}

/* Bonded, mode 1: the dashpot may pull (S4). A is fixed, B free and moving away. */
static void test_t8_bonded(void) {
    const double v0 = 0.1, m = 4.0 / 3.0 * PI * R * R * R * 2500;
    pair p;
    make(&p, 3, 0, 1e-9, 0);
    floe_world *w = p.w;
    floe_set_blocked(w, p.a, FLOE_DOF_ALL);
    set(&p, "dp_nratio", 1);
    set(&p, "dp_mode", 1);
    set(&p, "sb_ten", 1e12);
    set(&p, "sb_coh", 1e12);
    bond_now(&p);
    floe_set_velocity(w, p.b, (floe_vec3){v0, 0, 0});
    for (int s = 0; s < 20; s++) step(&p);
    floe_contact_info ci = info(&p);
    double vb = floe_velocities(w)[p.b].x, cn = 2 * sqrt(m * KNA);
    REPORT("T8 bonded, mode 1: F_n = %.6g N (spring %.6g + dashpot %.6g), dashpot c_n v = %.6g\n", ci.force.x,
           ci.force.x + st(&p, "dp_force_n"), -st(&p, "dp_force_n"), cn * vb);
    CHECK(ci.force.x > 0 && -st(&p, "dp_force_n") > 0);
    CHECK_REL(-st(&p, "dp_force_n"), cn * vb, 1e-6);
    floe_world_destroy(w);
}

/* ---- T9 objectivity ----------------------------------------------------- */

static floe_vec3 rotate(floe_vec3 v, floe_vec3 k, double a) { /* Rodrigues */
    double c = cos(a), s = sin(a), kv = k.x * v.x + k.y * v.y + k.z * v.z;
    floe_vec3 kx = {k.y * v.z - k.z * v.y, k.z * v.x - k.x * v.z, k.x * v.y - k.y * v.x};
    return (floe_vec3){v.x * c + kx.x * s + k.x * kv * (1 - c), v.y * c + kx.y * s + k.y * kv * (1 - c),
                       v.z * c + kx.z * s + k.z * kv * (1 - c)};
}

static void test_t9(void) {
    pair p;
    make(&p, 3, 0, 1e-8, 1);
    floe_world *w = p.w;
    set(&p, "sb_ten", 1e12);
    set(&p, "sb_coh", 1e12);
    bond_now(&p);
    /* load: tension, shear, bending and twist */
    floe_set_velocity(w, p.b, (floe_vec3){0.2, 0.4, -0.3});
    floe_set_angular_velocity(w, p.b, (floe_vec3){10, 20, 30});
    for (int s = 0; s < 1000; s++) step(&p);
    floe_set_velocity(w, p.b, (floe_vec3){0, 0, 0});
    floe_set_angular_velocity(w, p.b, (floe_vec3){0, 0, 0});
    step(&p);
    floe_contact_info c0 = info(&p);
    double fs0 = hypot(c0.force.y, c0.force.z), mb0 = hypot(c0.torque.y, c0.torque.z), B0 = st(&p, "sb_state");
    /* rigid rotation about an oblique axis through A: a quarter turn. B
     * moves along the chord of each step's arc; the spin that matches that
     * chord at mid-step is om tan(a)/a, a = om dt / 2 (else the test itself
     * shears the contact by om r dt (om dt)^2 / 12 per step) */
    const double om = 1000, dt = 1e-6, a = 0.5 * om * dt, om_spin = om * tan(a) / a;
    floe_set_dt(w, dt);
    floe_vec3 k = {1 / sqrt(14.0), 2 / sqrt(14.0), 3 / sqrt(14.0)};
    floe_vec3 omv = {om_spin * k.x, om_spin * k.y, om_spin * k.z};
    floe_set_angular_velocity(w, p.a, omv);
    floe_set_angular_velocity(w, p.b, omv);
    int n = (int)(0.5 * PI / (om * dt));
    for (int s = 0; s < n; s++) {
        floe_vec3 xb = floe_positions(w)[p.b], xn = rotate(xb, k, om * dt);
        floe_set_velocity(w, p.b, (floe_vec3){(xn.x - xb.x) / dt, (xn.y - xb.y) / dt, (xn.z - xb.z) / dt});
        step(&p);
    }
    floe_contact_info c1 = info(&p);
    double fs1 = hypot(c1.force.y, c1.force.z), mb1 = hypot(c1.torque.y, c1.torque.z);
    floe_vec3 g0 = c0.force_global, g1 = c1.force_global, g0r = rotate(g0, k, om * dt * n);
    double gerr = hypot(hypot(g1.x - g0r.x, g1.y - g0r.y), g1.z - g0r.z) / hypot(hypot(g0.x, g0.y), g0.z);
    REPORT("T9: quarter turn about (1,2,3): |F_s| %.9g -> %.9g N, |M_b| %.9g -> %.9g N m, F_n %.9g -> %.9g N, "
           "M_t %.9g -> %.9g N m, B %g -> %g; global force rotated with the pair to %.2g\n",
           fs0, fs1, mb0, mb1, c0.force.x, c1.force.x, c0.torque.x, c1.torque.x, B0, st(&p, "sb_state"), gerr);
    CHECK(fs0 > 1 && mb0 > 1e-5 && fabs(c0.torque.x) > 1e-6);
    CHECK_REL(fs1, fs0, 1e-6);
    CHECK_REL(mb1, mb0, 1e-6);
    CHECK_REL(c1.force.x, c0.force.x, 1e-6);
    CHECK_REL(c1.torque.x, c0.torque.x, 1e-6);
    CHECK(st(&p, "sb_state") == B0);
    CHECK(gerr < 1e-6);
    floe_world_destroy(w);
}

/* ---- energy balance with free bodies ---------------------------------------
 * Leapfrog makes the balance exact for forces that change linearly over a
 * step; every non-elastic update (softening, failure, slip) books what it
 * removes, so kinetic + elastic + dissipated must stay at its initial value.
 * Tolerance: 1e-6 of the initial kinetic energy for the bond, 1e-3 for the
 * sliding contact (docs/decisions.md#plastic-energy-with-the-mid-step-force-g5). */

static void test_energy_bond(void) {
    pair p;
    make(&p, 3, 0, 1e-9, 0);
    floe_world *w = p.w;
    floe_set_blocked(w, p.a, FLOE_DOF_ALL);
    parameters(&p, 2, 0.25, 1);
    set(&p, "sb_coh", 20e6);
    set(&p, "sb_fa", 30);
    set(&p, "dp_nratio", 0.2);
    set(&p, "dp_sratio", 0.2);
    floe_material_set(w, floe_find_material(w, "rock"), "tan_phi", 0.5);
    bond_now(&p);
    floe_set_velocity(w, p.b, (floe_vec3){10, 3, 0});
    floe_set_angular_velocity(w, p.b, (floe_vec3){1000, 0, 2000});
    double e[FLOE_E_COUNT], e0 = 0, worst = 0;
    int broke_at = -1;
    for (int s = 0; s < 20000; s++) {
        step(&p);
        floe_energy(w, e);
        if (s == 0) e0 = e[FLOE_E_TOTAL];
        worst = fmax(worst, fabs(e[FLOE_E_TOTAL] - e0));
        if (broke_at < 0 && p.ev[FLOE_EVENT_BOND_BROKEN]) broke_at = s;
    }
    double ke0 = 0.5 * 4.0 / 3.0 * PI * R * R * R * 2500 * (100 + 9);
    REPORT("energy, bond pulled apart by a free sphere: broke at step %d (mode %u); broken %.6g J, dashpot %.4g J, "
           "plastic %.4g J, kinetic %.6g J of %.6g J; worst |total - total0| = %.3g J = %.2g of the initial energy\n",
           broke_at, p.brk_detail, e[FLOE_E_BROKEN], e[FLOE_E_DASHPOT], e[FLOE_E_PLASTIC],
           e[FLOE_E_KINETIC] + e[FLOE_E_ROTATIONAL], ke0, worst, worst / ke0);
    CHECK(broke_at > 0 && e[FLOE_E_BROKEN] > 1e-4 && e[FLOE_E_DASHPOT] > 0);
    CHECK(worst < 1e-6 * ke0);
    floe_world_destroy(w);
}

static void test_energy_sliding(void) {
    const double load = 1.0, dt = 2e-8;
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "rock", "softbond");
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "tan_phi", 0.3);
    floe_model_set(w, "softbond", "dp_nratio", 0.3);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_wall(w, &bd, 2, 1);
    int g = floe_add_group(w, "pressed");
    bd.groups = 1u << g;
    bd.pos = (floe_vec3){0, 0, R - load / KNA};
    bd.vel = (floe_vec3){1, 0.3, -0.05}; /* sliding, spinning, and bouncing on the dashpot */
    bd.angvel = (floe_vec3){0, 0, 50};
    int b = floe_add_sphere(w, &bd, R);
    floe_group_set_load(w, g, (floe_vec3){0, 0, -load}, (floe_vec3){0, 0, 0});
    double e[FLOE_E_COUNT], e0 = 0, worst = 0, ke0 = 0;
    for (int s = 0; s < 40000; s++) {
        floe_step(w);
        floe_energy(w, e);
        if (s == 0) e0 = e[FLOE_E_TOTAL], ke0 = e[FLOE_E_KINETIC] + e[FLOE_E_ROTATIONAL];
        worst = fmax(worst, fabs(e[FLOE_E_TOTAL] - e0));
    }
    floe_vec3 v = floe_velocities(w)[b];
    REPORT(
        "energy, sphere sliding, bouncing, then rolling on a wall: plastic %.6g J, dashpot %.3g J, kinetic left %.3g J "
        "of %.6g J, speed %.3g m/s; worst |total - total0| = %.3g J = %.2g of the initial energy\n",
        e[FLOE_E_PLASTIC], e[FLOE_E_DASHPOT], e[FLOE_E_KINETIC] + e[FLOE_E_ROTATIONAL], ke0, hypot(v.x, v.y), worst,
        worst / ke0);
    CHECK(e[FLOE_E_PLASTIC] > 0.5 * ke0 && e[FLOE_E_DASHPOT] > 0);
    CHECK(worst < 1e-3 * ke0);
    floe_world_destroy(w);
}

/* ---- methods, proximity, rgap ---------------------------------------------- */

static void test_methods(void) {
    pair p;
    make(&p, 3, 5e-6, 1e-8, 1); /* 5 um apart */
    floe_world *w = p.w;
    set(&p, "proximity", 1e-5);
    set(&p, "sb_ten", 1e12);
    set(&p, "sb_coh", 1e12);
    step(&p);
    CHECK(floe_contact_count(w) == 1);                                       /* created across the gap ... */
    CHECK(info(&p).force.x == 0 && p.ev[FLOE_EVENT_CONTACT_ACTIVATED] == 0); /* ... but inactive */
    int n = -1;
    const double small[1] = {1e-6}, wide[2] = {0, 1e-5}, defo[2] = {1e9, 2.5};
    CHECK(floe_apply_method(w, "softbond", "bond", -1, small, 1, &n) == FLOE_OK && st(&p, "sb_state") == 0);
    CHECK(floe_apply_method(w, "softbond", "bond", -1, wide, 2, &n) == FLOE_OK && n == 1 && st(&p, "sb_state") == 3);
    CHECK(st(&p, "sb_mode") == 1); /* bond switches to the incremental mode */
    CHECK(floe_apply_method(w, "softbond", "deformability", -1, defo, 2, NULL) == FLOE_OK);
    floe_set_velocity(w, p.b, (floe_vec3){0.1, 0, 0});
    for (int s = 0; s < 100; s++) step(&p);
    CHECK(p.ev[FLOE_EVENT_CONTACT_ACTIVATED] == 1);
    CHECK_REL(info(&p).force.x, KNA * 1e-7, 1e-6); /* tension across the gap, from the bonding state */
    /* area fixes A; deformability with it uses L = 2 sqrt(A/pi) = 2R: same kn */
    CHECK(floe_apply_method(w, "softbond", "area", -1, NULL, 0, NULL) == FLOE_OK);
    CHECK_REL(st(&p, "user_area"), AREA, 1e-12);
    CHECK(floe_apply_method(w, "softbond", "deformability", -1, defo, 1, NULL) == FLOE_OK);
    CHECK_REL(st(&p, "sb_kn"), KN, 1e-12);
    CHECK_REL(st(&p, "sb_ks"), KS, 1e-12);
    /* unbond: outside the interval nothing happens; inside, B = 0 and the
     * unbonded law (no tension) takes over at the next step */
    const double neg[2] = {-1, 0};
    CHECK(floe_apply_method(w, "softbond", "unbond", -1, neg, 2, NULL) == FLOE_OK && st(&p, "sb_state") == 3);
    CHECK(floe_apply_method(w, "softbond", "unbond", -1, wide, 2, NULL) == FLOE_OK && st(&p, "sb_state") == 0);
    double broken0 = energy(&p, FLOE_E_BROKEN);
    step(&p);
    CHECK(floe_contact_count(w) == 1 && info(&p).force.x == 0);
    CHECK(energy(&p, FLOE_E_BROKEN) > broken0); /* the bond's stored energy was released */
    /* bad arguments and unknown methods */
    const double bad[2] = {1, 0};
    CHECK(floe_apply_method(w, "softbond", "bond", -1, bad, 2, NULL) == FLOE_ERR_ARG);
    CHECK(floe_apply_method(w, "softbond", "deformability", -1, NULL, 0, NULL) == FLOE_ERR_ARG);
    CHECK(floe_apply_method(w, "softbond", "glue", -1, NULL, 0, NULL) == FLOE_ERR_ARG);
    CHECK(floe_schedule_method(w, 10, "softbond", "glue", -1, NULL, 0) == FLOE_ERR_ARG);
    floe_world_destroy(w);

    /* bond on a softening bond is a no-op (S9); soft and cut arguments */
    make(&p, 3, 0, 1e-8, 1);
    w = p.w;
    parameters(&p, 0, 1, 1);
    const double args[4] = {-INFINITY, 0, 2, 0.25};
    CHECK(floe_schedule_method(w, 0, "softbond", "deformability", -1, defo, 2) == FLOE_OK);
    CHECK(floe_schedule_method(w, 0, "softbond", "bond", -1, args, 4) == FLOE_OK);
    floe_set_velocity(w, p.b, (floe_vec3){0.1, 0, 0});
    while (info(&p).uN < 15e-6) step(&p);
    CHECK(st(&p, "sb_state") == 4 && st(&p, "sb_soft") == 2 && st(&p, "sb_cut") == 0.25);
    double lc = st(&p, "sb_lc");
    CHECK(floe_apply_method(w, "softbond", "bond", -1, NULL, 0, NULL) == FLOE_OK);
    CHECK(st(&p, "sb_state") == 4 && st(&p, "sb_lc") == lc);
    floe_world_destroy(w);

    /* rgap: an unbonded contact pushes from uN = rgap on */
    make(&p, 3, 2e-6, 1e-8, 1);
    w = p.w;
    set(&p, "rgap", 3e-6);
    floe_material_set(w, floe_find_material(w, "rock"), "young", 1e9);
    step(&p);
    CHECK_REL(info(&p).force.x, -KNA * 1e-6, 1e-6);
    floe_world_destroy(w);
}

/* ---- scene file: world.dimension, schema checks, methods ------------------- */

static char tmpdir[64];

static int load(const char *text, floe_scene *sc, char *err, size_t n) {
    char path[128];
    snprintf(path, sizeof path, "%s/scene.yaml", tmpdir);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    return floe_scene_load(path, sc, err, n);
}

static void test_scene(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/floe_softbond_XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    const char *head = "world: {dt: 1e-8, dimension: 2, threads: 1}\n"
                       "run: {steps: 1500}\n"
                       "materials: [{name: rock, model: softbond, density: 2500, young: 1e9, kt_div_kn: 0.4}]\n"
                       "groups: [{name: pull, velocity: [1, 0, 0]}]\n"
                       "particles:\n"
                       "  - {radius: 1e-3, pos: [0, 0, 0], fixed: true}\n"
                       "  - {radius: 1e-3, pos: [2.0005e-3, 0, 0], group: pull}\n";
    char text[2048], err[512];
    floe_scene sc;
    snprintf(text, sizeof text,
             "%smodels:\n  softbond: {sb_ten: 5e6, sb_coh: 1e12, sb_soft: 2, sb_cut: 0.25, proximity: 1e-6}\n"
             "methods:\n"
             "  - {step: 0, model: softbond, method: deformability, args: [1e9, 2.5]}\n"
             "  - {step: 0, model: softbond, method: bond, group: pull, args: [-.inf, 1e-6]}\n",
             head);
    int rc = load(text, &sc, err, sizeof err);
    CHECK(rc == 0);
    if (rc == 0) {
        pair p = {.w = sc.world, .a = 0, .b = 1};
        CHECK(run(&p, 1200) == FLOE_OK);
        /* 2D bond made across a 0.5 um gap at step 0, then pulled 12 um: peak
         * 1e4 N at 10 um, on the softening branch since: 0.9 x 1e4 N */
        CHECK(st(&p, "sb_state") == 4);
        CHECK_REL(st(&p, "sb_area"), 2e-3, 1e-12);
        CHECK_REL(info(&p).force.x, 9e3, 2e-3);
        CHECK(run(&p, 2000) == FLOE_OK);
        /* broken in tension at 25 um, then deleted once beyond the proximity */
        CHECK(p.ev[FLOE_EVENT_BOND_BROKEN] == 1 && p.brk_detail == 1 && floe_contact_count(p.w) == 0);
        floe_scene_free(&sc);
    } else {
        fprintf(stderr, "%s\n", err);
    }
    /* errors name the key and the range or the reason */
    static const struct {
        const char *tail, *want;
    } bad[] = {
        {"models: {softbond: {sb_cut: 1.5}}\n", "models.softbond.sb_cut = 1.5 is out of range [0, 1]"},
        {"models: {softbond: {sb_mode: 0.5}}\n", "models.softbond.sb_mode = 0.5 must be an integer"},
        {"methods: [{step: 0, model: softbond, method: glue}]\n", "model softbond has no method 'glue'"},
        {"methods: [{step: 0, model: softbond, method: bond, args: [1, 0]}]\n", "method softbond.bond: bad arguments"},
        {"methods: [{step: 0, model: softbond, method: bond, group: pul}]\n",
         "unknown group 'pul'; did you mean 'pull'?"},
        {"methods: [{model: softbond, method: bond}]\n", "missing required key 'step'"},
        {"methods: [{step: 0, model: softbond, method: deformability, args: [1, 2, 3]}]\n", "bad arguments"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i].tail);
        rc = load(text, &sc, err, sizeof err);
        CHECK(rc != 0 && strstr(err, bad[i].want) != NULL);
        if (rc == 0 || !strstr(err, bad[i].want)) fprintf(stderr, "  got: %s\n", err);
        if (rc == 0) floe_scene_free(&sc);
    }
    snprintf(text, sizeof text, "%s", head);
    char *dim = strstr(text, "dimension: 2");
    if (dim) dim[11] = '4';
    rc = load(text, &sc, err, sizeof err);
    CHECK(rc != 0 && strstr(err, "world.dimension = 4 must be 2 or 3") != NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    CHECK(system(cmd) == 0);
}

int main(void) {
    test_t1_t10();
    test_t2();
    test_t3(0, 0.25);
    test_t3(2, 1);
    test_t4(1, 0.01, 0.025);
    test_t4(0.5, 0.02, 0.035);
    test_t5(0, 0, 2e6);
    test_t5(2e-6, 30, 2e6 + 1e6 * tan(30 * PI / 180));
    test_t6(DRIVE_SHEAR);
    test_t6(DRIVE_BEND);
    test_t6(DRIVE_TWIST);
    test_t6_incremental();
    test_t7(0);
    test_t7(1);
    test_t8(0);
    test_t8(1);
    test_t8_bonded();
    test_t9();
    test_energy_bond();
    test_energy_sliding();
    test_methods();
    test_scene();
    return CHECK_DONE();
}
