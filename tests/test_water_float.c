/* Validation of water in the engine (docs/models/water.md#validation):
 *
 * 1. A sphere of density rho_s floats at the draft whose spherical cap holds
 *    rho_s / rho_w of its volume (the cubic solved in closed form) and heaves
 *    with the small-amplitude period T = 2 pi sqrt(m / (rho_w g A_wp))
 *    (hydrostatic stiffness rho_w g A_wp, no added mass). An ellipsoid comes
 *    to rest with its shortest axis vertical at the draft of the same cubic
 *    (the affine map to the unit ball), a capsule with its axis horizontal at
 *    the draft of the horizontal capsule (solved by bisection on its exact
 *    volume, independent of the engine's quadrature).
 * 2. A floe (a flat ellipsoid) released in a uniform current U: quadratic
 *    drag m du/dt = K (U - u)^2 gives u(t) = U t / (t + tau), tau = m / (K U);
 *    in a wind, starting with the current, the drift excess x = u - U obeys
 *    m dx/dt = W - K x^2: x(t) = c tanh(t / tau_w), c = sqrt(W / K),
 *    tau_w = m / sqrt(K W), with K and W from the drag laws (closed forms).
 * 3. The energy balance closes with buoyancy as a potential and drag and
 *    wind as work. */
#include "check.h"
#include "core/water.h"

static const double PI = 3.14159265358979323846, G = 9.81;

/* The unit-ball draft: the surface height delta above the centre at which
 * the cap below holds the fraction f of the volume. With x = 1 + delta,
 * x^2 (3 - x) / 4 = f; y = x - 1 solves y^3 - 3y + (4f - 2) = 0, whose root
 * in [-1, 1] is 2 cos((2 pi - acos(1 - 2f)) / 3). */
static double unit_draft(double f) { return 2 * cos((2 * PI - acos(1 - 2 * f)) / 3); }

static floe_world *water_world(double dt, double damping, floe_water_def *wd) {
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -G};
    def.dt = dt;
    def.damping = damping;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "ice", "linear");
    floe_material_set(w, m, "density", 900);
    CHECK(floe_world_set_water(w, wd) == FLOE_OK);
    return w;
}

static floe_water_def still_water(void) {
    floe_water_def wd = floe_default_water_def();
    wd.level = 0.5;
    wd.skin_drag = wd.form_drag = wd.rotational_drag = 0;
    return wd;
}

static void test_sphere_heave(void) {
    floe_water_def wd = still_water();
    double R = 1, f = 900 / wd.density, delta = unit_draft(f), d = delta * R;
    double m = 900 * 4.0 / 3.0 * PI * R * R * R, awp = PI * (R * R - d * d);
    double T = 2 * PI * sqrt(m / (wd.density * G * awp));
    floe_world *w = water_world(T / 4000, 0, &wd);
    floe_body_def b = floe_default_body_def();
    double z0 = wd.level - d;
    b.pos = (floe_vec3){0, 0, z0};
    int id = floe_add_sphere(w, &b, R);
    /* at the draft: no motion */
    CHECK(floe_run(w, 2000) == FLOE_OK);
    double drift = fabs(floe_positions(w)[id].z - z0);
    CHECK(drift < 1e-12);
    /* lifted by a = 1e-3 R: heaves about z0 */
    double a = 1e-3 * R;
    floe_set_position(w, id, (floe_vec3){0, 0, z0 + a});
    double prev = a, tprev = floe_time(w), first = -1, last = -1;
    int ups = 0;
    double e[FLOE_E_COUNT], e0 = 0, worst = 0;
    floe_energy(w, e);
    e0 = e[FLOE_E_TOTAL];
    for (int s = 0; s < 4000 * 10; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        double x = floe_positions(w)[id].z - z0, t = floe_time(w);
        if (prev < 0 && x >= 0) { /* upward zero crossing, interpolated */
            double tc = tprev + (t - tprev) * (-prev) / (x - prev);
            if (first < 0) first = tc;
            last = tc;
            ups++;
        }
        prev = x;
        tprev = t;
        if (s % 100 == 0) {
            floe_energy(w, e);
            worst = fmax(worst, fabs(e[FLOE_E_TOTAL] - e0));
        }
    }
    double Tm = (last - first) / (ups - 1);
    double Eh = 0.5 * wd.density * G * awp * a * a; /* the heave's energy */
    REPORT("sphere: draft delta = %.12f R (f = %.6f); stays within %.1e m in 2000 steps; heave period %.9f s, "
           "expected %.9f s (rel %.1e); energy error %.1e of the heave energy\n",
           delta, f, drift, Tm, T, fabs(Tm - T) / T, worst / Eh);
    CHECK(ups >= 9);
    CHECK_REL(Tm, T, 1e-4);
    CHECK(worst < 1e-4 * Eh);
    floe_world_destroy(w);
}

/* Runs a damped body until it stopped heaving, rolling and pitching;
 * returns 1 when it did. (Drift and spin about the vertical, which no force
 * restores, decay only as 1/t under quadratic drag and are left.) */
static int settle(floe_world *w, int id, int steps) {
    for (int s = 0; s < steps; s++)
        if (floe_step(w) != FLOE_OK) return 0;
    vec3 v = floe_velocities(w)[id], om = floe_angular_velocities(w)[id];
    return fabs(v.z) < 1e-7 && fabs(om.x) < 1e-6 && fabs(om.y) < 1e-6;
}

static void test_ellipsoid_rest(void) {
    floe_water_def wd = floe_default_water_def(); /* with drag: it damps the motion */
    wd.level = 0.5;
    floe_world *w = water_world(2e-3, 0.2, &wd);
    floe_body_def b = floe_default_body_def();
    b.pos = (floe_vec3){0, 0, 0.8};
    b.ori = qfrom_rotvec(vnormalize(v3(1, 0.5, 0)), 0.6);
    vec3 S = v3(1.0, 0.7, 0.4);
    int id = floe_add_ellipsoid(w, &b, S);
    CHECK(settle(w, id, 40000));
    double delta = unit_draft(900 / wd.density), zeq = wd.level - delta * S.z;
    vec3 axis = qrotate(floe_orientations(w)[id], v3(0, 0, 1));
    REPORT("ellipsoid: rests at z = %.9f m, expected %.9f (shortest axis vertical, delta = %.9f); "
           "shortest axis tilted %.1e rad\n",
           floe_positions(w)[id].z, zeq, delta, acos(fmin(1, fabs(axis.z))));
    CHECK_NEAR(floe_positions(w)[id].z, zeq, 1e-6);
    CHECK(fabs(axis.z) > 1 - 1e-10);
    floe_world_destroy(w);
}

/* Exact volume of a horizontal capsule below a surface d above its axis. */
static double horizontal_capsule(double r, double L, double d) {
    floe_submerged c;
    floe_sphere_submerged(r, v3(0, 0, 1), d, &c);
    return L * (r * r * acos(-d / r) + d * sqrt(r * r - d * d)) + c.volume;
}

static void test_capsule_rest(void) {
    floe_water_def wd = floe_default_water_def();
    wd.level = 0.5;
    double r = 0.3, L = 1.2;
    floe_world *w = water_world(2e-3, 0.2, &wd);
    floe_body_def b = floe_default_body_def();
    b.pos = (floe_vec3){0, 0, 0.7};
    b.ori = qfrom_rotvec(vnormalize(v3(0.3, 1, 0)), 0.7);
    int id = floe_add_capsule(w, &b, r, L);
    CHECK(settle(w, id, 40000));
    /* the draft: bisection on the exact volume */
    double V = 900 / wd.density * PI * r * r * (L + 4.0 / 3.0 * r), lo = -r, hi = r;
    for (int k = 0; k < 200; k++) {
        double mid = 0.5 * (lo + hi);
        if (horizontal_capsule(r, L, mid) < V) lo = mid;
        else hi = mid;
    }
    double zeq = wd.level - 0.5 * (lo + hi);
    vec3 axis = qrotate(floe_orientations(w)[id], v3(1, 0, 0));
    REPORT("capsule: rests at z = %.9f m, expected %.9f (axis horizontal); axis tilted %.1e rad\n",
           floe_positions(w)[id].z, zeq, asin(fabs(axis.z)));
    CHECK_NEAR(floe_positions(w)[id].z, zeq, 1e-6);
    CHECK(fabs(axis.z) < 1e-6);
    /* horizontal is the stable orientation: its potential at its draft is
     * below the vertical one's (m g s |zc| for the upright body, zc the
     * centroid height of the submerged part) */
    floe_water_shape s = {FLOE_SHAPE_CAPSULE, r, L, {0, 0, 0}};
    double m = floe_masses(w)[id];
    double uh = m * G * (zeq - wd.level) + floe__water_potential(&wd, G, &s, v3(0, 0, zeq), qidentity(), 0);
    lo = -0.5 * L - r, hi = 0.5 * L + r;
    for (int k = 0; k < 200; k++) {
        double mid = 0.5 * (lo + hi);
        floe_submerged sub;
        floe_capsule_submerged(r, L, v3(1, 0, 0), mid, &sub);
        if (sub.volume < V) lo = mid;
        else hi = mid;
    }
    double zv = wd.level - 0.5 * (lo + hi);
    quat up = qfrom_rotvec(v3(0, 1, 0), -0.5 * PI); /* body x up */
    double uv = m * G * (zv - wd.level) + floe__water_potential(&wd, G, &s, v3(0, 0, zv), up, 0);
    REPORT("capsule: potential at rest, horizontal %.6f J < vertical %.6f J\n", uh, uv);
    CHECK(uh < uv);
    floe_world_destroy(w);
}

/* A flat ellipsoid floe afloat at its draft. */
typedef struct floe_case {
    floe_world *w;
    int id;
    double m, K, wind;
} floe_case;

static floe_case drifting_floe(floe_water_def *wd, double dt) {
    floe_case c;
    vec3 S = v3(2, 2, 0.3);
    double delta = unit_draft(900 / wd->density), d = delta * S.z;
    c.w = water_world(dt, 0, wd);
    floe_body_def b = floe_default_body_def();
    b.pos = (floe_vec3){0, 0, wd->level - d};
    c.id = floe_add_ellipsoid(c.w, &b, S);
    c.m = floe_masses(c.w)[c.id];
    /* K: skin drag on the wet footprint (the central section: d > 0) and
     * form drag on the submerged frontal area, the ellipse b x c below d */
    floe_water_shape s = {FLOE_SHAPE_ELLIPSOID, S.z, 0, S};
    double a_wet = PI * S.x * S.y, front = S.y * S.z * (acos(-delta) + delta * sqrt(1 - delta * delta));
    double a_dry = PI * S.x * S.y * (1 - delta * delta);
    CHECK_REL(floe__water_section(&s, v3(0, 0, 1), 0), a_wet, 1e-14);
    CHECK_REL(floe__water_frontal(&s, v3(0, 0, 1), v3(1, 0, 0), d), front, 1e-13);
    c.K = wd->density * (wd->skin_drag * a_wet + 0.5 * wd->form_drag * front);
    c.wind = wd->air_density * wd->wind_drag * a_dry * vlen(wd->wind) * wd->wind.x;
    return c;
}

static void test_current(void) {
    floe_water_def wd = floe_default_water_def();
    double U = 0.2;
    wd.current = (floe_vec3){U, 0, 0};
    floe_case probe = drifting_floe(&wd, 1);
    double tau = probe.m / (probe.K * U);
    floe_world_destroy(probe.w);
    double dt = tau / 10000;
    floe_case c = drifting_floe(&wd, dt);
    double worst = 0, t_half = -1, uprev = 0, tprev = 0;
    double e[FLOE_E_COUNT], e0;
    floe_energy(c.w, e);
    e0 = e[FLOE_E_TOTAL];
    for (int s = 1; s <= 30000; s++) {
        CHECK(floe_step(c.w) == FLOE_OK);
        double t = floe_time(c.w) - 0.5 * dt; /* velocities are at half steps */
        double u = floe_velocities(c.w)[c.id].x, want = U * t / (t + tau);
        worst = fmax(worst, fabs(u - want) / U);
        if (t_half < 0 && u >= 0.5 * U) t_half = tprev + (t - tprev) * (0.5 * U - uprev) / (u - uprev);
        uprev = u;
        tprev = t;
    }
    floe_energy(c.w, e);
    double drift = fabs(e[FLOE_E_TOTAL] - e0) / fabs(e[FLOE_E_DRAG]);
    REPORT("floe in a current of %.2f m/s: tau = m / (K U) = %.4f s (K = %.3f kg/m); u(t) = U t / (t + tau) to "
           "%.1e of U over 3 tau; half speed at %.4f s (rel %.1e); energy balance %.1e of the drag work\n",
           U, tau, c.K, worst, t_half, fabs(t_half - tau) / tau, drift);
    CHECK(worst < 2e-4);
    CHECK_REL(t_half, tau, 1e-3);
    CHECK(drift < 1e-3);
    CHECK(fabs(floe_velocities(c.w)[c.id].y) < 1e-15 && fabs(floe_velocities(c.w)[c.id].z) < 1e-12);
    floe_world_destroy(c.w);
}

static void test_wind(void) {
    floe_water_def wd = floe_default_water_def();
    double U = 0.1;
    wd.current = (floe_vec3){U, 0, 0};
    wd.wind = (floe_vec3){20, 0, 0};
    floe_case probe = drifting_floe(&wd, 1);
    double cx = sqrt(probe.wind / probe.K), tau = probe.m / sqrt(probe.K * probe.wind);
    floe_world_destroy(probe.w);
    double dt = tau / 10000;
    floe_case c = drifting_floe(&wd, dt);
    floe_set_velocity(c.w, c.id, (floe_vec3){U, 0, 0});
    double worst = 0;
    for (int s = 1; s <= 30000; s++) {
        CHECK(floe_step(c.w) == FLOE_OK);
        double t = floe_time(c.w) - 0.5 * dt;
        double x = floe_velocities(c.w)[c.id].x - U;
        worst = fmax(worst, fabs(x - cx * tanh(t / tau)) / cx);
    }
    double u = floe_velocities(c.w)[c.id].x, uinf = U + cx;
    REPORT("floe in a wind of 20 m/s over a current of %.2f m/s: drift %.6f m/s after 3 tau_w, free drift "
           "U + sqrt(W / K) = %.6f m/s (wind factor %.4f); tanh profile to %.1e of the excess (tau_w = %.3f s)\n",
           U, u, uinf, cx / 20, worst, tau);
    CHECK(worst < 2e-4);
    CHECK_REL(u - U, cx * tanh(3), 2e-4);
    floe_world_destroy(c.w);
}

/* Energy with everything on: a sphere dropped into moving water in a wind. */
static void test_energy(void) {
    floe_water_def wd = floe_default_water_def();
    wd.current = (floe_vec3){0.3, -0.1, 0};
    wd.wind = (floe_vec3){-8, 5, 0};
    /* the drag is explicit: the balance closes to O(dt / t_drag), t_drag =
     * m / (rho_w C_d A |v|) ~ 0.03 s at the entry speed (1.1e-3, 5.9e-4,
     * 3.0e-4 of the released energy at dt = 1e-3, 5e-4, 2.5e-4 s) */
    double dt = 2.5e-4;
    floe_world *w = water_world(dt, 0, &wd);
    floe_body_def b = floe_default_body_def();
    b.pos = (floe_vec3){0, 0, 1.2};
    b.angvel = (floe_vec3){0.5, -1, 2};
    int id = floe_add_ellipsoid(w, &b, v3(0.8, 0.5, 0.3));
    double e[FLOE_E_COUNT], e0, worst = 0, scale = 0;
    CHECK(floe_start(w) == FLOE_OK);
    floe_energy(w, e);
    e0 = e[FLOE_E_TOTAL];
    for (int s = 0; s < (int)(20 / dt); s++) {
        CHECK(floe_step(w) == FLOE_OK);
        if (s % 50) continue;
        floe_energy(w, e);
        worst = fmax(worst, fabs(e[FLOE_E_TOTAL] - e0));
        scale = fmax(scale, fabs(e[FLOE_E_GRAVITY]));
    }
    REPORT("ellipsoid dropped into moving water in a wind: buoyancy %.3e J, drag %.3e J, worst |total - total0| "
           "%.2e of the gravity released (%.3e J)\n",
           e[FLOE_E_BUOYANCY], e[FLOE_E_DRAG], worst / scale, scale);
    CHECK(e[FLOE_E_BUOYANCY] > 0 && e[FLOE_E_DRAG] != 0);
    CHECK(worst < 1e-3 * scale);
    (void)id;
    floe_world_destroy(w);
}

int main(void) {
    test_sphere_heave();
    test_ellipsoid_rest();
    test_capsule_rest();
    test_current();
    test_wind();
    test_energy();
    return CHECK_DONE();
}
