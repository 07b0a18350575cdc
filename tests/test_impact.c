/* Validation: head-on elastic impact of two glass spheres (Linear model).
 * R = 1 cm, rho = 2800 kg/m^3, E = 48 GPa. With lens = (R, R) and A = pi R^2
 * the series stiffness is kn = E A / (2R) = pi R E / 2 = 7.5398e8 N/m.
 * m = 4/3 pi R^3 rho, m_eff = m/2; the contact is a half period of a harmonic
 * oscillator: t_c = pi sqrt(m_eff / kn) = 8.7615 us, peak overlap
 * delta = v_rel sqrt(m_eff / kn) = 55.777 um for v_rel = 20 m/s, restitution 1.
 * Tolerances: t_c within 2 dt (the contact opens and closes on step
 * boundaries), peak overlap within 0.2%, restitution within 1e-3. */
#include "check.h"
#include <floe/floe.h>

/* Restitution with the normal dashpot (PFC-style dp_nratio = beta): a linear
 * spring-dashpot gives e = exp(-pi beta / sqrt(1 - beta^2)) when the contact
 * ends at zero overlap; beta = 0.21545 gives e = 0.5 (the peer benchmarks'
 * value). Tolerance 1e-3 (dt = t_c / 400). */
static void test_dashpot(void) {
    const double R = 0.01, rho = 2800, E = 48e9, v0 = 10, beta = 0.21545;
    const double m = 4.0 / 3.0 * 3.14159265358979323846 * R * R * R * rho, kn = 3.14159265358979323846 * R * E / 2;
    floe_world_def def = floe_default_world_def();
    def.dt = 3.14159265358979323846 * sqrt(0.5 * m / kn) / 400;
    floe_world *w = floe_world_create(&def);
    int mat = floe_add_material(w, "glass", "linear");
    floe_material_set(w, mat, "density", rho);
    floe_material_set(w, mat, "young", E);
    floe_model_set(w, "linear", "dp_nratio", beta);
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    b.pos = (floe_vec3){-R - 1e-4, 0, 0};
    b.vel = (floe_vec3){v0, 0, 0};
    int a = floe_add_sphere(w, &b, R);
    b.pos = (floe_vec3){R + 1e-4, 0, 0};
    b.vel = (floe_vec3){-v0, 0, 0};
    floe_add_sphere(w, &b, R);
    int touched = 0;
    for (int s = 0; s < 20000; s++) {
        floe_step(w);
        if (floe_contact_count(w)) touched = 1;
        else if (touched) break;
    }
    double e = -floe_velocities(w)[a].x / v0, expect = exp(-3.14159265358979323846 * beta / sqrt(1 - beta * beta));
    double en[FLOE_E_COUNT];
    floe_energy(w, en);
    REPORT("dashpot beta = %.5f: restitution %.5f (expected %.5f); dashpot energy %.5f J = %.5f J lost\n", beta, e,
           expect, en[FLOE_E_DASHPOT], m * v0 * v0 * (1 - e * e));
    CHECK_REL(e, expect, 1e-3);
    CHECK_REL(en[FLOE_E_DASHPOT], m * v0 * v0 * (1 - e * e), 1e-2);
    floe_world_destroy(w);
}

int main(void) {
    test_dashpot();
    const double R = 0.01, rho = 2800, E = 48e9, v0 = 10;
    floe_world_def def = floe_default_world_def();
    const double m = 4.0 / 3.0 * 3.14159265358979323846 * R * R * R * rho;
    const double kn = 3.14159265358979323846 * R * E / 2;
    const double tc = 3.14159265358979323846 * sqrt(0.5 * m / kn);
    def.dt = tc / 400;
    floe_world *w = floe_world_create(&def);
    int mat = floe_add_material(w, "glass", "linear");
    floe_material_set(w, mat, "density", rho);
    floe_material_set(w, mat, "young", E);
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    b.pos = (floe_vec3){-R - 1e-4, 0, 0};
    b.vel = (floe_vec3){v0, 0, 0};
    int a = floe_add_sphere(w, &b, R);
    b.pos = (floe_vec3){R + 1e-4, 0, 0};
    b.vel = (floe_vec3){-v0, 0, 0};
    floe_add_sphere(w, &b, R);
    double t_on = -1, t_off = -1, max_overlap = 0, kn_seen = 0;
    for (int s = 0; s < 20000 && t_off < 0; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        if (floe_contact_count(w) > 0) {
            floe_contact_info ci;
            floe_contact_get(w, 0, &ci);
            kn_seen = ci.kn;
            if (t_on < 0) t_on = floe_time(w);
            if (-ci.uN > max_overlap) max_overlap = -ci.uN;
        } else if (t_on >= 0) {
            t_off = floe_time(w);
        }
    }
    double dt = floe_dt(w);
    double vafter = floe_velocities(w)[a].x;
    REPORT("kn = %.6g N/m (expected %.6g)\n", kn_seen, kn);
    REPORT("contact time = %.5g us (expected %.5g us), peak overlap = %.5g um (expected %.5g um), "
           "restitution = %.6f (expected 1)\n",
           (t_off - t_on) * 1e6, tc * 1e6, max_overlap * 1e6, 2 * v0 * sqrt(0.5 * m / kn) * 1e6, -vafter / v0);
    CHECK_REL(kn_seen, 7.5398e8, 1e-4);
    CHECK_REL(tc, 8.7615e-6, 1e-4);
    CHECK_NEAR(t_off - t_on, tc, 2 * dt);
    CHECK_REL(max_overlap, 55.777e-6, 2e-3);
    CHECK_NEAR(-vafter / v0, 1.0, 1e-3);
    floe_world_destroy(w);
    return CHECK_DONE();
}
