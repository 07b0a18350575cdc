/* Validation: rolling with friction (Linear model, no damping).
 * 1. A sphere thrown sliding (v0, no spin) on a frictional floor: friction
 *    mu m g decelerates it and spins it up (I = 2/5 m R^2) until v = omega R
 *    at t* = 2 v0 / (7 mu g); then it rolls at 5/7 v0.
 * 2. A sphere on a 30 deg incline rolls without slipping (tan 30 <= 3.5 mu)
 *    with a = 5/7 g sin(theta) = 3.5036 m/s^2 (g = 9.81). Done twice: a wall
 *    with gravity tilted by 30 deg, and a facet tilted by 30 deg.
 * Tolerances: t* within 1% (the stick transition is detected on step
 * boundaries and the tangential spring adds a small oscillation), final
 * speed and acceleration within 0.5%. */
#include "check.h"
#include <floe/floe.h>

static const double R = 0.01, RHO = 2500, E = 1e8, MU = 0.5, G = 9.81;
#define PI 3.14159265358979323846

static floe_world *make_world(floe_vec3 g, int *mat) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-5;
    def.gravity = g;
    floe_world *w = floe_world_create(&def);
    *mat = floe_add_material(w, "m", "linear");
    floe_material_set(w, *mat, "density", RHO);
    floe_material_set(w, *mat, "young", E);
    floe_material_set(w, *mat, "tan_phi", MU);
    return w;
}

static void test_slide_to_roll(void) {
    int mat;
    floe_world *w = make_world((floe_vec3){0, 0, -G}, &mat);
    floe_body_def bd = floe_default_body_def();
    bd.material = mat;
    floe_add_wall(w, &bd, 2, 1);
    double m = 4.0 / 3.0 * PI * R * R * R * RHO, kn = PI * R * E / 2;
    const double v0 = 1.0;
    bd.pos = (floe_vec3){0, 0, R - m * G / kn}; /* resting overlap: Fn = m g at t = 0 */
    bd.vel = (floe_vec3){v0, 0, 0};
    int s = floe_add_sphere(w, &bd, R);
    double tstar = 2 * v0 / (7 * MU * G), t_stick = -1, vsum = 0;
    int nsum = 0;
    while (floe_time(w) < 3 * tstar) {
        CHECK(floe_step(w) == FLOE_OK);
        double v = floe_velocities(w)[s].x, om = floe_angular_velocities(w)[s].y;
        if (t_stick < 0 && v <= om * R) t_stick = floe_time(w);
        if (floe_time(w) > 2 * tstar) vsum += v, nsum++;
    }
    double vfin = vsum / nsum;
    REPORT("slide-to-roll: t* = %.5f s (expected %.5f), final speed = %.5f m/s (expected %.5f)\n", t_stick, tstar, vfin,
           5.0 / 7.0 * v0);
    CHECK_REL(t_stick, tstar, 1e-2);
    CHECK_REL(vfin, 5.0 / 7.0 * v0, 5e-3);
    floe_world_destroy(w);
}

static void test_incline(int use_facet) {
    double th = 30 * PI / 180;
    int mat;
    floe_world *w = make_world(use_facet ? (floe_vec3){0, 0, -G} : (floe_vec3){G * sin(th), 0, -G * cos(th)}, &mat);
    floe_body_def bd = floe_default_body_def();
    bd.material = mat;
    floe_vec3 n = {0, 0, 1}; /* incline normal; downhill direction d */
    floe_vec3 d = {1, 0, 0};
    if (use_facet) {
        n = (floe_vec3){sin(th), 0, cos(th)};
        d = (floe_vec3){cos(th), 0, -sin(th)};
        floe_vec3 v[3] = {
            {-1 * cos(th), -1, sin(th)}, {2 * cos(th), -1, -2 * sin(th)}, {0.5 * cos(th), 2, -0.5 * sin(th)}};
        floe_add_facet(w, &bd, v, 0);
    } else {
        floe_add_wall(w, &bd, 2, 1);
    }
    double m = 4.0 / 3.0 * PI * R * R * R * RHO, kn = PI * R * E / 2;
    double h = R - m * G * cos(th) / kn;
    bd.pos = (floe_vec3){n.x * h, 0, n.z * h};
    int s = floe_add_sphere(w, &bd, R);
    floe_vec3 x0 = bd.pos;
    const double T = 0.1;
    while (floe_time(w) < T - 1e-12) CHECK(floe_step(w) == FLOE_OK);
    floe_vec3 x = floe_positions(w)[s];
    double along = (x.x - x0.x) * d.x + (x.z - x0.z) * d.z;
    double a = 2 * along / (floe_time(w) * floe_time(w));
    double v = floe_velocities(w)[s].x * d.x + floe_velocities(w)[s].z * d.z;
    double om = fabs(floe_angular_velocities(w)[s].y);
    REPORT("incline (%s): a = %.5f m/s^2 (expected %.5f), v/(omega R) = %.5f (expected 1)\n",
           use_facet ? "facet" : "wall + tilted gravity", a, 5.0 / 7.0 * G * sin(th), v / (om * R));
    CHECK_REL(a, 3.5036, 5e-3);
    CHECK_REL(v / (om * R), 1.0, 5e-3);
    floe_world_destroy(w);
}

int main(void) {
    test_slide_to_roll();
    test_incline(0);
    test_incline(1);
    return CHECK_DONE();
}
