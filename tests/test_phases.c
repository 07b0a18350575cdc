/* Phased group motion and servo control (src/core/motion.c,
 * docs/laboratory.md).
 *
 * 1. Rotation about an external axis: a sphere turned about the vertical
 *    axis through (1, 0, 0) stays on its circle (radius error < 1e-12 m of
 *    0.5 m over a full turn; rounding only, the step's displacement is the
 *    exact chord), at the angle w t (to 1e-9 rad), with its orientation
 *    turned by the same angle (quaternion to 1e-9).
 * 2. Objectivity: a stretched and sheared soft bond, held still, then
 *    turned rigidly a quarter turn about an axis through neither sphere,
 *    keeps its normal and shear force magnitudes and its moment, and its
 *    global force turns with the pair, to 1e-5 relative. The chord
 *    velocities and the contact's mid-step rates agree to third order in
 *    the step's angle theta: the spurious shear displacement is about
 *    theta^2 (total angle) |d| / 12 = 1e-8 * 1.57 * 2e-3 / 12 = 2.6e-12 m
 *    against the bond's 3e-6 m shear (1e-6 relative; measured 1.7e-6).
 *    The error is a property of the step, not of the rotation code: at
 *    7.85e-4 rad per step on a 3e-9 m shear it reached 5 % (measured while
 *    writing this test), and it falls as dt^2.
 * 3. Switching on time, step, displacement, force above and force drop: each
 *    phase is the group's phase from the first state that meets its
 *    trigger on (floe_group_phase right after the step that reached it; a
 *    phase at time 0 already at step 0, after floe_start), checked step by
 *    step against the closed forms of the motion.
 * 4. A ramped load F = r t on a free sphere from rest: x = r t^3 / (6 m)
 *    (to 1e-3 relative: the leapfrog error is O(dt)), and the energy
 *    balance closes (kinetic energy = boundary work to 1e-6 relative).
 * 5. Servo: a lid holds 2 kPa on an elastic packing (columns of spheres):
 *    0.01 s after it touches, the mean over the next 0.01 s is within
 *    0.1 % of the target and every step within 1 % (proportional control
 *    on an elastic, non-creeping packing has no steady-state error), and
 *    the energy balance closes (error < 1e-6).
 * 6. A body in two motion-controlled groups is refused (API, first step),
 *    naming both groups; a load-only group is not motion control.
 * 7. A snapshot in the middle of a phased servo run continues bitwise.
 * 8. A servo run gives the same bits with 1 and 2 threads. */
#include "check.h"
#include <floe/floe_snapshot.h>
#include "pile.h"

#define PI 3.14159265358979323846

static floe_world *empty_world(double dt) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    def.threads = 1;
    return floe_world_create(&def);
}

static int one_sphere(floe_world *w, floe_vec3 pos, uint32_t groups) {
    int m = floe_find_material(w, "m");
    if (m < 0) {
        m = floe_add_material(w, "m", "linear");
        floe_material_set(w, m, "density", 2500);
        floe_material_set(w, m, "young", 1e7);
    }
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.pos = pos;
    bd.groups = groups;
    return floe_add_sphere(w, &bd, 0.01);
}

/* ---- 1. rotation about an axis ---- */
static void test_rotation_circle(void) {
    const double dt = 1e-4, om = 2 * PI; /* one turn per second */
    floe_world *w = empty_world(dt);
    int g = floe_add_group(w, "drum");
    int id = one_sphere(w, (floe_vec3){1.5, 0, 0.2}, 1u << g);
    floe_phase p = floe_default_phase();
    p.kind = FLOE_PHASE_ROTATE;
    p.angvel = (floe_vec3){0, 0, om};
    p.point = (floe_vec3){1, 0, -3}; /* any point of the axis */
    CHECK(floe_group_set_phases(w, g, &p, 1) == FLOE_OK);
    double worst_r = 0, worst_a = 0, worst_q = 0, worst_z = 0;
    for (int s = 1; s <= 10000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        floe_vec3 x = floe_positions(w)[id];
        double r = hypot(x.x - 1, x.y), ang = om * s * dt;
        worst_r = fmax(worst_r, fabs(r - 0.5));
        worst_z = fmax(worst_z, fabs(x.z - 0.2));
        double da = atan2(x.y, x.x - 1) - ang;
        da = remainder(da, 2 * PI);
        worst_a = fmax(worst_a, fabs(da));
        floe_quat q = floe_orientations(w)[id];
        double dot = q.w * cos(ang / 2) + q.z * sin(ang / 2); /* with the rotation about z by ang */
        worst_q = fmax(worst_q, fabs(fabs(dot) - 1) + fabs(q.x) + fabs(q.y));
    }
    REPORT("rotation: over one turn |r - 0.5| <= %.2e m, |z - 0.2| <= %.2e m, angle error <= %.2e rad, "
           "orientation error <= %.2e\n",
           worst_r, worst_z, worst_a, worst_q);
    CHECK(worst_r < 1e-12);
    CHECK(worst_z < 1e-15);
    CHECK(worst_a < 1e-9);
    CHECK(worst_q < 1e-9);
    CHECK(floe_group_phase(w, g) == 0);
    floe_world_destroy(w);
}

/* ---- 2. objectivity of a bonded pair under rigid rotation ---- */
static void test_rotation_objectivity(void) {
    /* both bodies are fully blocked, so dt is free of the bond's critical
     * step: 1e-5 s, a turn rate of 10 rad/s (1e-4 rad per step) */
    const double R = 1e-3, dt = 1e-5, rate = 10;
    const int N = 15708; /* about a quarter turn */
    floe_world *w = empty_world(dt);
    int g = floe_add_group(w, "pair");
    int m = floe_add_material(w, "rock", "softbond");
    floe_material_set(w, m, "density", 2500);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL;
    bd.groups = 1u << g;
    int a = floe_add_sphere(w, &bd, R);
    bd.pos = (floe_vec3){2 * R, 0, 0};
    bd.vel = (floe_vec3){2e-3, 3e-3, -1e-3}; /* stretches and shears the bond until the rotation starts */
    bd.angvel = (floe_vec3){0, 0, 2};
    int b = floe_add_sphere(w, &bd, R);
    /* strengths out of the way: the bond stays elastic (test_softbond's data) */
    CHECK(floe_model_set(w, "softbond", "sb_ten", 1e12) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "sb_coh", 1e12) == FLOE_OK);
    const double defo[2] = {1e9, 2.5};
    CHECK(floe_schedule_method(w, 0, "softbond", "deformability", -1, defo, 2) == FLOE_OK);
    CHECK(floe_schedule_method(w, 0, "softbond", "bond", -1, NULL, 0) == FLOE_OK);
    /* about an oblique axis through (3R, -2R, R) */
    floe_vec3 axis = {0.3, 0.5, 0.8};
    double al = sqrt(0.09 + 0.25 + 0.64), turn = rate * N * dt;
    /* held still from step 100 (no rate-dependent force left), turned from step 200 */
    floe_phase p[2] = {floe_default_phase(), floe_default_phase()};
    p[0].kind = FLOE_PHASE_VELOCITY;
    p[0].trigger = p[1].trigger = FLOE_AT_STEP;
    p[0].at = 100;
    p[1].kind = FLOE_PHASE_ROTATE;
    p[1].at = 200;
    p[1].angvel = (floe_vec3){axis.x / al * rate, axis.y / al * rate, axis.z / al * rate};
    p[1].point = (floe_vec3){3 * R, -2 * R, R};
    CHECK(floe_group_set_phases(w, g, p, 2) == FLOE_OK);
    CHECK(floe_run(w, 200) == FLOE_OK);
    int k = floe_contact_find(w, a, b);
    CHECK(k >= 0);
    floe_contact_info c0, c1;
    floe_contact_get(w, k, &c0);
    CHECK(floe_run(w, N) == FLOE_OK);
    CHECK(floe_group_phase(w, g) == 1);
    k = floe_contact_find(w, a, b);
    CHECK(k >= 0 && c0.bonded);
    floe_contact_get(w, k, &c1);
    double ft0 = hypot(c0.force.y, c0.force.z), ft1 = hypot(c1.force.y, c1.force.z);
    double m0 = sqrt(c0.torque.x * c0.torque.x + c0.torque.y * c0.torque.y + c0.torque.z * c0.torque.z);
    double m1 = sqrt(c1.torque.x * c1.torque.x + c1.torque.y * c1.torque.y + c1.torque.z * c1.torque.z);
    /* the global force turned by the quarter turn (Rodrigues) */
    floe_vec3 n = {axis.x / al, axis.y / al, axis.z / al}, f = c0.force_global;
    double ct = cos(turn), st = sin(turn), nf = n.x * f.x + n.y * f.y + n.z * f.z;
    floe_vec3 cr = {n.y * f.z - n.z * f.y, n.z * f.x - n.x * f.z, n.x * f.y - n.y * f.x};
    floe_vec3 fr = {f.x * ct + cr.x * st + n.x * nf * (1 - ct), f.y * ct + cr.y * st + n.y * nf * (1 - ct),
                    f.z * ct + cr.z * st + n.z * nf * (1 - ct)};
    double fm = sqrt(f.x * f.x + f.y * f.y + f.z * f.z);
    double df = sqrt(pow(c1.force_global.x - fr.x, 2) + pow(c1.force_global.y - fr.y, 2) +
                     pow(c1.force_global.z - fr.z, 2));
    REPORT("objectivity: Fn %.9e -> %.9e N, |Ft| %.9e -> %.9e N, |M| %.9e -> %.9e N m; |F - R F0| / |F0| = %.2e\n",
           c0.force.x, c1.force.x, ft0, ft1, m0, m1, df / fm);
    CHECK(fabs(c0.force.x) > 0 && ft0 > 0 && m0 > 0); /* the bond is loaded */
    CHECK_REL(c1.force.x, c0.force.x, 1e-5);
    CHECK_REL(ft1, ft0, 1e-5);
    CHECK_REL(m1, m0, 1e-5);
    CHECK(df < 1e-5 * fm);
    floe_world_destroy(w);
}

/* ---- 3. switching ---- */
static void test_switching(void) {
    const double dt = 1e-4;
    floe_world *w = empty_world(dt);
    int g = floe_add_group(w, "probe");
    int id = one_sphere(w, (floe_vec3){0, 0, 0}, 1u << g);
    floe_phase p[3];
    for (int j = 0; j < 3; j++) p[j] = floe_default_phase();
    p[0].kind = FLOE_PHASE_VELOCITY; /* at time 0 */
    p[0].vel = (floe_vec3){1, 0, 0};
    p[1].kind = FLOE_PHASE_VELOCITY;
    p[1].trigger = FLOE_AT_STEP;
    p[1].at = 100;
    p[1].vel = (floe_vec3){0, 2, 0};
    p[2].kind = FLOE_PHASE_FREE;
    p[2].trigger = FLOE_AT_DISPLACEMENT;
    p[2].at = 0.05;
    p[2].measure_dir = (floe_vec3){0, 1, 0};
    CHECK(floe_group_set_phases(w, g, p, 3) == FLOE_OK);
    /* the phase at time 0 is the group's phase at step 0 (the history row of step 0) */
    CHECK(floe_start(w) == FLOE_OK);
    int ph0 = floe_group_phase(w, g);
    CHECK(ph0 == 0);
    /* phase 1 from state 100 on, x then 100 dt; phase 2 from the first
     * state with y >= 0.05, i.e. y = 2 dt n >= 0.05 after n = 250 steps of
     * phase 1 (rounding may put it at 251) */
    int step1 = -1, step2 = -1;
    for (int s = 0; s < 400; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        int ph = floe_group_phase(w, g), now = (int)floe_step_count(w);
        if (ph == 1 && step1 < 0) step1 = now;
        if (ph == 2 && step2 < 0) step2 = now;
    }
    floe_vec3 x = floe_positions(w)[id], v = floe_velocities(w)[id];
    REPORT("switching: phase %d at step 0 (want 0), step trigger at step %d (want 100), displacement trigger at "
           "step %d (want 350 or 351); then free: v = (%g, %g, %g)\n",
           ph0, step1, step2, v.x, v.y, v.z);
    CHECK(step1 == 100);
    CHECK(step2 == 350 || step2 == 351);
    CHECK_NEAR(x.x, 100 * dt, 1e-12);
    CHECK_NEAR(v.y, 2, 1e-12); /* free flight keeps the last velocity */
    CHECK_NEAR(x.y, 2 * 300 * dt, 1e-9);
    CHECK(floe_particle_blocked(w)[id] == 0);
    floe_world_destroy(w);

    /* force triggers: a platen pressed on a fixed sphere, reversed once the
     * force reaches 5 N, stopped when it has dropped below half its peak */
    w = empty_world(1e-6);
    g = floe_add_group(w, "platen");
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL;
    floe_add_sphere(w, &bd, 0.01);
    bd.blocked = 0;
    bd.groups = 1u << g;
    bd.pos = (floe_vec3){0, 0, 0.0101};
    floe_add_wall(w, &bd, 2, -1);
    for (int j = 0; j < 3; j++) p[j] = floe_default_phase();
    p[0].kind = p[1].kind = p[2].kind = FLOE_PHASE_VELOCITY;
    p[0].vel = (floe_vec3){0, 0, -0.1};
    p[1].vel = (floe_vec3){0, 0, 0.05};
    p[1].trigger = FLOE_AT_FORCE_ABOVE;
    p[1].at = 5;
    p[1].measure_dir = (floe_vec3){0, 0, 1}; /* the sphere pushes the platen up */
    p[2].trigger = FLOE_AT_FORCE_DROP;
    p[2].at = 0.5;
    p[2].measure_dir = (floe_vec3){0, 0, 1};
    CHECK(floe_group_set_phases(w, g, p, 3) == FLOE_OK);
    double prev = 0, peak = 0, at1 = NAN, before1 = NAN, at2 = NAN, before2 = NAN;
    int ph_prev = -1;
    for (int s = 0; s < 20000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        double f = floe_group_force(w, g).z; /* the state reached, on which the triggers are checked */
        int ph = floe_group_phase(w, g);
        if (ph == 1 && ph_prev == 0) at1 = f, before1 = prev;
        if (ph == 2 && ph_prev == 1) at2 = f, before2 = prev;
        if (ph == 1) peak = fmax(peak, f);
        ph_prev = ph;
        prev = f;
    }
    REPORT("force triggers: above 5 N at F = %.4f N (previous step %.4f N); drop below half the peak %.4f N at "
           "F = %.4f N (previous %.4f N)\n",
           at1, before1, peak, at2, before2);
    CHECK(at1 >= 5 && before1 < 5);
    CHECK(at2 < 0.5 * peak && before2 >= 0.5 * peak);
    CHECK(floe_group_phase(w, g) == 2);
    floe_world_destroy(w);
}

/* ---- 4. ramped load ---- */
static void test_ramped_load(void) {
    const double dt = 1e-5, rate = 3.0; /* N/s */
    floe_world *w = empty_world(dt);
    int g = floe_add_group(w, "pulled");
    int id = one_sphere(w, (floe_vec3){0, 0, 0}, 1u << g);
    double mass = floe_masses(w)[id];
    floe_phase p = floe_default_phase();
    p.kind = FLOE_PHASE_LOAD;
    p.force_rate = (floe_vec3){rate, 0, 0};
    CHECK(floe_group_set_phases(w, g, &p, 1) == FLOE_OK);
    CHECK(floe_run(w, 20000) == FLOE_OK);
    double t = floe_time(w), want = rate * t * t * t / (6 * mass), x = floe_positions(w)[id].x;
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    REPORT("ramped load: x = %.9e m, r t^3 / (6 m) = %.9e m (rel %.2e); kinetic %.6e J, boundary work %.6e J\n", x,
           want, fabs(x - want) / want, e[FLOE_E_KINETIC], e[FLOE_E_BOUNDARY]);
    CHECK_REL(x, want, 1e-3);
    CHECK_REL(e[FLOE_E_KINETIC], e[FLOE_E_BOUNDARY], 1e-6);
    floe_world_destroy(w);
}

/* ---- 5. servo ---- */

/* An elastic packing: 4 x 4 x 4 spheres of radius r in columns touching
 * each other and a floor (no gravity, so nothing moves until the lid
 * arrives), a lid in group "lid" above them under servo control: it
 * approaches at max_speed and then holds `target` on the 8r x 8r top. */
static floe_world *servo_pack(double target, int threads) {
    const double r = 0.005;
    floe_world_def def = floe_default_world_def();
    def.damping = 0.3;
    def.threads = threads;
    def.dt = 2e-6;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0.5);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_wall(w, &bd, 2, 1);
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                bd.pos = (floe_vec3){(2 * i + 1) * r, (2 * j + 1) * r, (2 * k + 1) * r};
                floe_add_sphere(w, &bd, r);
            }
    int g = floe_add_group(w, "lid");
    bd.groups = 1u << g;
    bd.pos = (floe_vec3){0, 0, 8 * r + 0.002};
    floe_add_wall(w, &bd, 2, -1);
    floe_phase p = floe_default_phase();
    p.kind = FLOE_PHASE_SERVO;
    p.servo_dir = (floe_vec3){0, 0, -1};
    p.target = target;
    p.area = 64 * r * r;
    p.alpha = 0.5;
    p.max_speed = 0.1;
    CHECK(floe_group_set_phases(w, g, &p, 1) == FLOE_OK);
    return w;
}

static void test_servo(void) {
    const double target = 2000;
    floe_world *w = servo_pack(target, 1);
    int g = floe_find_group(w, "lid");
    /* the lid touches at t = 0.002 / 0.1 = 0.02 s; 0.01 s to settle */
    CHECK(floe_run(w, 15000) == FLOE_OK);
    double sum = 0, worst = 0, sv[3], e[FLOE_E_COUNT], worst_e = 0;
    int n = 0;
    for (int s = 0; s < 5000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        floe_group_servo(w, g, sv);
        sum += sv[0];
        n++;
        worst = fmax(worst, fabs(sv[0] - target));
        if (s % 100 == 0) {
            floe_energy(w, e);
            worst_e = fmax(worst_e, fabs(e[FLOE_E_ERROR]));
        }
    }
    floe_energy(w, e);
    REPORT("servo: target %.0f Pa; over 0.03..0.04 s mean %.4f Pa, worst |error| %.4f Pa; last velocity %.3e m/s; "
           "energy error <= %.2e (boundary work %.4e J)\n",
           target, sum / n, worst, sv[2], worst_e, e[FLOE_E_BOUNDARY]);
    CHECK(fabs(sum / n - target) < 1e-3 * target);
    CHECK(worst < 0.01 * target);
    CHECK(worst_e < 1e-6);
    CHECK(e[FLOE_E_BOUNDARY] > 0);
    CHECK(sv[1] == target);
    floe_world_destroy(w);
}

/* ---- 6. two groups ---- */
static void test_two_groups(void) {
    floe_world *w = empty_world(1e-4);
    int a = floe_add_group(w, "spinner"), b = floe_add_group(w, "slider"), c = floe_add_group(w, "pushed");
    one_sphere(w, (floe_vec3){0, 0, 0}, (1u << a) | (1u << b) | (1u << c));
    floe_motion mo = floe_default_motion();
    mo.vel = (floe_vec3){1, 0, 0};
    CHECK(floe_group_set_motion(w, a, &mo) == FLOE_OK);
    floe_phase p = floe_default_phase();
    p.kind = FLOE_PHASE_VELOCITY;
    CHECK(floe_group_set_phases(w, b, &p, 1) == FLOE_ERR_ARG);
    const char *msg = floe_last_error(w);
    REPORT("two groups: %s\n", msg);
    CHECK(strstr(msg, "'spinner'") && strstr(msg, "'slider'"));
    /* a load-only group is no motion control */
    p.kind = FLOE_PHASE_LOAD;
    p.force = (floe_vec3){0, 1, 0};
    CHECK(floe_group_set_phases(w, c, &p, 1) == FLOE_OK);
    CHECK(floe_step(w) == FLOE_OK);
    floe_world_destroy(w);

    /* a body put in both groups after their phases: the first step refuses */
    w = empty_world(1e-4);
    a = floe_add_group(w, "left");
    b = floe_add_group(w, "right");
    p.kind = FLOE_PHASE_VELOCITY;
    CHECK(floe_group_set_phases(w, a, &p, 1) == FLOE_OK);
    p.kind = FLOE_PHASE_FREE;
    CHECK(floe_group_set_phases(w, b, &p, 1) == FLOE_OK);
    one_sphere(w, (floe_vec3){0, 0, 0}, (1u << a) | (1u << b));
    CHECK(floe_step(w) == FLOE_ERR_ARG);
    msg = floe_last_error(w);
    REPORT("two groups at the first step: %s\n", msg);
    CHECK(strstr(msg, "'left'") && strstr(msg, "'right'"));
    /* bad values name the phase */
    p.kind = FLOE_PHASE_SERVO;
    CHECK(floe_group_set_phases(w, a, &p, 1) == FLOE_ERR_ARG); /* no direction */
    CHECK(strstr(floe_last_error(w), "phase 0") && strstr(floe_last_error(w), "servo_dir"));
    p.servo_dir = (floe_vec3){0, 0, -1};
    p.alpha = 1.5;
    CHECK(floe_group_set_phases(w, a, &p, 1) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "alpha"));
    p.kind = FLOE_PHASE_ROTATE;
    CHECK(floe_group_set_phases(w, a, &p, 1) == FLOE_ERR_ARG);
    CHECK(floe_group_set_phases(w, 7, &p, 1) == FLOE_ERR_ARG);
    floe_world_destroy(w);
}

/* ---- 7. restart in the middle ---- */
static void test_restart_mid_run(void) {
    floe_world *a = servo_pack(2000, 1);
    CHECK(floe_run(a, 10500) == FLOE_OK); /* the lid has just arrived */
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[512];
    CHECK(floe_snapshot_to_bytes(a, &bytes, &len, err, sizeof err) == 0);
    floe_world *b = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    CHECK(b != NULL);
    free(bytes);
    if (!b) return;
    CHECK(floe_run(a, 3000) == FLOE_OK);
    CHECK(floe_run(b, 3000) == FLOE_OK);
    int np = floe_particle_count(a), same = np == floe_particle_count(b);
    for (int i = 0; same && i < np; i++)
        same = !memcmp(&floe_positions(a)[i], &floe_positions(b)[i], sizeof(floe_vec3));
    double sa[3], sb[3];
    int g = floe_find_group(a, "lid");
    floe_group_servo(a, g, sa);
    floe_group_servo(b, g, sb);
    REPORT("restart mid-run: positions bitwise equal after 3000 more steps: %s; servo %.6g Pa vs %.6g Pa\n",
           same ? "yes" : "no", sa[0], sb[0]);
    CHECK(same);
    CHECK(!memcmp(sa, sb, sizeof sa));
    floe_world_destroy(a);
    floe_world_destroy(b);
}

/* ---- 8. threads ---- */
static void test_threads(void) {
    floe_world *a = servo_pack(2000, 1), *b = servo_pack(2000, 2);
    CHECK(floe_run(a, 12000) == FLOE_OK);
    CHECK(floe_run(b, 12000) == FLOE_OK);
    int np = floe_particle_count(a), same = 1;
    for (int i = 0; i < np; i++) same &= !memcmp(&floe_positions(a)[i], &floe_positions(b)[i], sizeof(floe_vec3));
    REPORT("threads: servo run with 1 and 2 threads bitwise equal: %s\n", same ? "yes" : "no");
    CHECK(same);
    floe_world_destroy(a);
    floe_world_destroy(b);
}

int main(void) {
    test_rotation_circle();
    test_rotation_objectivity();
    test_switching();
    test_ramped_load();
    test_servo();
    test_two_groups();
    test_restart_mid_run();
    test_threads();
    return CHECK_DONE();
}
