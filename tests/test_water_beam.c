/* Validation: a floating bonded beam under a point load against a beam on an
 * elastic (Winkler) foundation (docs/models/water.md#validation).
 *
 * A chain of bonded Ice spheres (radius R, spacing l = 2R, density 900)
 * floats at its draft; the water under each sphere is a spring of stiffness
 * K = rho_w g A_wp (A_wp its waterplane area), a foundation of modulus
 * k = K / l per unit length. A point load P on the middle sphere bends the
 * chain as an infinite beam on a Winkler foundation (Hetenyi 1946, "Beams on
 * Elastic Foundation"):
 *     w(x) = P lambda / (2 k) exp(-lambda |x|) (cos lambda x + sin lambda x),
 *     lambda = (k / (4 EI))^(1/4),
 * with EI measured independently, in air: the same chain as a cantilever,
 * clamped at one end with a load P_t at the other, turns its tip by
 * theta = P_t L^2 / (2 EI) (Euler-Bernoulli; the shear springs change the
 * deflection, not the tip rotation: tests/test_ice_beam.c derives the chain's
 * mechanics). The chain is 121 m long, 7.5 / lambda on each side of the
 * load (the far ends see e^-7.5 of the load).
 *
 * Tolerances: 1% on the deflection under the load and 1.5% of it on the
 * whole profile: the foundation acts at the spheres (discrete springs,
 * (lambda l)^2 / 8 ~ 0.2%), the shear springs add EI lambda^2 / GA ~ 0.4%,
 * the waterplane grows with the draft (~0.2% at w = 1 mm), and the damped
 * relaxation leaves a residual. */
#include "check.h"
#include <floe/floe.h>

#define PI 3.14159265358979323846
static const double R = 0.5, G = 9.81, RHO_ICE = 900;

static floe_world *chain_world(int with_water) {
    floe_world_def def = floe_default_world_def();
    def.damping = 0.6;
    def.dt = 5e-4; /* half the critical step of the bonds (1.07e-3 s) */
    if (with_water) def.gravity = (floe_vec3){0, 0, -G};
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "ice", "ice");
    floe_material_set(w, m, "density", RHO_ICE);
    floe_material_set(w, m, "young", 1.12e8);
    floe_material_set(w, m, "kt_div_kn", 1);
    floe_material_set(w, m, "alpha_w", 1 / (2 * PI));
    floe_material_set(w, m, "alpha_r", 1 / (4 * PI));
    floe_model_set(w, "ice", "bonds0", 15);
    floe_model_set(w, "ice", "bonds1", 0);
    floe_model_set(w, "ice", "bond_tol", 1e-6);
    return w;
}

/* Relaxes until the watched coordinate changes by less than tol x its
 * value over 2000 steps. */
static double relax(floe_world *w, const double *coord, double ref, double tol) {
    double prev = 0, x = 0;
    for (int it = 0; it < 200; it++) {
        CHECK(floe_run(w, 2000) == FLOE_OK);
        x = *coord - ref;
        if (it > 5 && fabs(x - prev) < tol * fabs(x)) break;
        prev = x;
    }
    return x;
}

/* EI of the chain from a cantilever in air: tip rotation P L^2 / (2 EI). */
static double cantilever_ei(void) {
    enum { N = 20 };
    floe_world *w = chain_world(0);
    int tip = floe_add_group(w, "tip");
    floe_body_def bd = floe_default_body_def();
    for (int i = 0; i <= N; i++) {
        bd.pos = (floe_vec3){2 * R * i, 0, 0};
        bd.blocked = i == 0 ? FLOE_DOF_ALL : FLOE_DOF_Y | FLOE_DOF_RX | FLOE_DOF_RZ;
        bd.groups = i == N ? 1u << tip : 0;
        floe_add_sphere(w, &bd, R);
    }
    double P = 10, L = 2 * R * N;
    floe_group_set_load(w, tip, (floe_vec3){0, 0, -P}, (floe_vec3){0, 0, 0});
    double th = 0;
    for (int it = 0; it < 200; it++) { /* the rotation of the tip sphere about y */
        if (floe_run(w, 2000) != FLOE_OK) {
            fprintf(stderr, "cantilever: %s\n", floe_last_error(w));
            CHECK(0);
            break;
        }
        floe_quat q = floe_orientations(w)[N];
        double t = 2 * atan2(q.y, q.w), prev = th;
        th = t;
        if (it > 5 && fabs(th - prev) < 1e-8 * fabs(th)) break;
    }
    floe_contact_info ci;
    floe_contact_get(w, 0, &ci);
    double ei_springs = ci.kn * R * R / 4 * 2 * R; /* k_r l */
    double ei = P * L * L / (2 * fabs(th));
    REPORT("cantilever in air: %d bonds, tip turned %.6e rad under %g N: EI = %.6e N m^2 (k_r l = %.6e, rel %.1e)\n", N,
           th, P, ei, ei_springs, fabs(ei - ei_springs) / ei_springs);
    CHECK_REL(ei, ei_springs, 1e-4);
    floe_world_destroy(w);
    return ei;
}

int main(void) {
    double EI = cantilever_ei();
    enum { NS = 121, MID = 60 };
    floe_world *w = chain_world(1);
    floe_water_def wd = floe_default_water_def();
    wd.skin_drag = wd.form_drag = wd.rotational_drag = 0; /* the static answer: Cundall damping relaxes */
    CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    double f = RHO_ICE / wd.density, delta = 2 * cos((2 * PI - acos(1 - 2 * f)) / 3), d = delta * R;
    double z0 = wd.level - d, awp = PI * (R * R - d * d), k = wd.density * G * awp / (2 * R);
    double lam = pow(k / (4 * EI), 0.25), w0 = 1e-3, P = 2 * k * w0 / lam;
    int mid = floe_add_group(w, "load");
    floe_body_def bd = floe_default_body_def();
    for (int i = 0; i < NS; i++) {
        bd.pos = (floe_vec3){2 * R * (i - MID), 0, z0};
        bd.blocked = FLOE_DOF_Y | FLOE_DOF_RX | FLOE_DOF_RZ;
        bd.groups = i == MID ? 1u << mid : 0;
        floe_add_sphere(w, &bd, R);
    }
    floe_group_set_load(w, mid, (floe_vec3){0, 0, -P}, (floe_vec3){0, 0, 0});
    CHECK(floe_start(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == NS - 1);
    double got = -relax(w, &floe_positions(w)[MID].z, z0, 1e-7);
    double worst = 0;
    for (int i = 0; i < NS; i++) {
        double x = fabs(2 * R * (i - MID)), want = w0 * exp(-lam * x) * (cos(lam * x) + sin(lam * x));
        worst = fmax(worst, fabs((z0 - floe_positions(w)[i].z) - want));
    }
    REPORT("floating chain of %d spheres: k = %.4f N/m^2, EI = %.6e N m^2, 1/lambda = %.4f m; load %.4f N: "
           "deflection under it %.6e m, Hetenyi %.6e m (rel %.1e); profile within %.1e of it; %lld steps\n",
           NS, k, EI, 1 / lam, P, got, w0, fabs(got - w0) / w0, worst / w0, (long long)floe_step_count(w));
    CHECK_REL(got, w0, 1e-2);
    CHECK(worst < 1.5e-2 * w0);
    floe_world_destroy(w);
    return CHECK_DONE();
}
