/* The automatic time step against contact stiffness.
 *
 * LinEl6 on a wall (issue 12.12): a glass bead (R = 3 mm, rho = 2500, E = 5e7,
 * kt/kn = 0.3) falls onto a wall, both LinEl6 with char_len = 1 m, dt: auto,
 * dt_safety 0.5. Before the contact the step is the p-wave estimate,
 * 0.5 R / sqrt(E/rho) = 1.06e-5 s. The contact's twist spring
 * k_w = char_len kn = pi R E / 2 = 2.36e5 N m/rad against I = 2/5 m R^2 =
 * 1.02e-9 kg m^2 has the critical step sqrt(2 I / k_w) = 9.3e-8 s, 114 times
 * below the step in use. Rechecked only every dyn_dt_period (100) steps, the bead's spin
 * grew by (omega dt)^2 ~ 2.6e4 per step and ran away 4 steps after impact;
 * the step must drop as soon as the contact exists. */
#include "check.h"
#include <floe/floe.h>

static const double PI = 3.14159265358979323846;

static void test_linel6_on_wall(void) {
    const double R = 0.003, rho = 2500, E = 5e7;
    floe_world_def def = floe_default_world_def();
    def.dt_safety = 0.5;
    floe_world *w = floe_world_create(&def);
    floe_set_gravity(w, (floe_vec3){0, 0, -9.81});
    int mat = floe_add_material(w, "glass", "linel6");
    floe_material_set(w, mat, "density", rho);
    floe_material_set(w, mat, "young", E);
    floe_material_set(w, mat, "kt_div_kn", 0.3);
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    floe_add_wall(w, &b, 2, 1);
    b.pos = (floe_vec3){0, 0, R + 1e-4};
    b.vel = (floe_vec3){0.3, 0, -1.0};
    int s = floe_add_sphere(w, &b, R);
    const double m = floe_masses(w)[s], I = floe_inertia(w)[s].x, kw = 1.0 * PI * R * E / 2;
    const double crit_rot = sqrt(2 * I / kw), dt0 = floe_dt(w);
    double e0[FLOE_E_COUNT], e[FLOE_E_COUNT];
    floe_energy(w, e0);
    floe_status st = FLOE_OK;
    int steps = 0;
    double dt_in_contact = 0, rot_max = 0;
    for (; steps < 400 && st == FLOE_OK; steps++) {
        st = floe_step(w);
        if (st == FLOE_OK && floe_contact_count(w) > 0) {
            dt_in_contact = fmax(dt_in_contact, floe_dt(w));
            floe_energy(w, e);
            rot_max = fmax(rot_max, e[FLOE_E_ROTATIONAL]);
        }
    }
    REPORT("LinEl6 bead on a wall: dt before contact %.3g s, twist critical step %.3g s, largest dt in contact "
           "%.3g s; %d steps, status %d; rotational energy at most %.3g J (kinetic at start %.3g J, m = %.4g kg)\n",
           dt0, crit_rot, dt_in_contact, steps, (int)st, rot_max, e0[FLOE_E_KINETIC], m);
    CHECK(st == FLOE_OK);
    CHECK(dt_in_contact > 0 && dt_in_contact <= 0.5 * crit_rot * (1 + 1e-9));
    CHECK(rot_max < e0[FLOE_E_KINETIC]);
    floe_world_destroy(w);
}

int main(void) {
    test_linel6_on_wall();
    return check_failures ? 1 : 0;
}
