/* Validation: a floating bonded beam and a floating bonded plate under a
 * point load against a beam and a plate on an elastic (Winkler) foundation
 * (docs/models/water.md#validation).
 *
 * Beam: a chain of bonded Ice spheres (radius R, spacing l = 2R, density
 * 900) floats at its draft; the water under each sphere is a spring of
 * stiffness K = rho_w g A_wp (A_wp its waterplane area), a foundation of
 * modulus k = K / l per unit length. A point load P on the middle sphere
 * bends the chain as an infinite beam on a Winkler foundation (Hetenyi 1946,
 * "Beams on Elastic Foundation"):
 *     w(x) = P lambda / (2 k) exp(-lambda |x|) (cos lambda x + sin lambda x),
 *     lambda = (k / (4 EI))^(1/4),
 * with EI measured independently, in air: the same chain as a cantilever,
 * clamped at one end with a load P_t at the other, turns its tip by
 * theta = P_t L^2 / (2 EI) (Euler-Bernoulli; the shear springs change the
 * deflection, not the tip rotation: tests/test_ice_beam.c derives the chain's
 * mechanics). The chain is 121 m long, 7.5 / lambda on each side of the
 * load (the far ends see e^-7.5 of the load).
 *
 * Plate: a square lattice of the same spheres (31 x 31, spacing l), bonded
 * to its four neighbours, with twist springs as stiff as the rolling ones
 * (alpha_w kt = alpha_r kn), so that the grid of chains bends like an
 * isotropic plate of rigidity D = EI / l (a grillage whose torsional
 * rigidity equals its flexural one, H = D, and no Poisson coupling). On the
 * foundation k = K / l^2 per unit area, a point load deflects the infinite
 * plate by (Hertz 1884; Timoshenko and Woinowsky-Krieger, "Theory of Plates
 * and Shells", 1959)
 *     w(r) = -P kei(r / l_c) / (2 pi sqrt(D k)),  w(0) = P / (8 sqrt(D k)),
 *     l_c = (D / k)^(1/4),
 * kei the Kelvin function (its series, Abramowitz and Stegun 9.9.12); EI from
 * the cantilever of one chain of the same material in air. The plate
 * reaches 5 l_c from the load; its profile is compared within 3 l_c, where
 * the free edges lift it by less than 0.1% of w(0) (2.4% at the edges).
 *
 * Tolerances: 1% on the deflection under the load and 1.5% (beam) or 1%
 * (plate, within 3 l_c) of it on the profile: the foundation acts at the spheres
 * (discrete springs, (l / l_c)^2 effects, 0.2% for the beam, ~1% for the
 * plate), the shear springs add EI lambda^2 / GA ~ 0.4%, the waterplane
 * grows with the draft (~0.2% at w = 1 mm), and the damped relaxation leaves
 * a residual. */
#include "check.h"
#include <floe/floe.h>

#define PI 3.14159265358979323846
static const double R = 0.5, G = 9.81, RHO_ICE = 900;

static floe_world *chain_world(int with_water, double young, double alpha_w) {
    floe_world_def def = floe_default_world_def();
    def.damping = 0.6;
    def.dt = 5e-4; /* half the critical step of the bonds (1.07e-3 s) */
    if (with_water) def.gravity = (floe_vec3){0, 0, -G};
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "ice", "ice");
    floe_material_set(w, m, "density", RHO_ICE);
    floe_material_set(w, m, "young", young);
    floe_material_set(w, m, "kt_div_kn", 1);
    floe_material_set(w, m, "alpha_w", alpha_w);
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
static double cantilever_ei(double young, double alpha_w) {
    enum { N = 20 };
    floe_world *w = chain_world(0, young, alpha_w);
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

/* Kelvin function kei (Abramowitz and Stegun 9.9.12), x > 0: with q = x^2/4,
 * kei = -ln(x/2) bei - (pi/4) ber + sum (-1)^k psi(2k+2) q^(2k+1) / ((2k+1)!)^2. */
static double kei(double x) {
    double q = x * x / 4, ber = 0, bei = 0, sum = 0, t0 = 1, psi = -0.5772156649015329 + 1; /* psi(2) */
    for (int k = 0; k < 30; k++) {
        /* t0 = q^(2k) / ((2k)!)^2, t1 = q^(2k+1) / ((2k+1)!)^2 */
        double t1 = t0 * q / ((2.0 * k + 1) * (2.0 * k + 1)), sg = k % 2 ? -1 : 1;
        ber += sg * t0;
        bei += sg * t1;
        sum += sg * psi * t1;
        t0 = t1 * q / ((2.0 * k + 2) * (2.0 * k + 2));
        psi += 1 / (2.0 * k + 2) + 1 / (2.0 * k + 3); /* psi(2k + 4) */
    }
    return -log(x / 2) * bei - PI / 4 * ber + sum;
}

static void test_plate(void) {
    enum { H = 15 }; /* (2H + 1)^2 spheres */
    floe_water_def wd = floe_default_water_def();
    wd.skin_drag = wd.form_drag = wd.rotational_drag = 0;
    double f = RHO_ICE / wd.density, delta = 2 * cos((2 * PI - acos(1 - 2 * f)) / 3), d = delta * R;
    double z0 = wd.level - d, l = 2 * R, k = wd.density * G * PI * (R * R - d * d) / (l * l);
    /* a rigidity of l_c = 3 m: k_r = E pi R^3 / 8 = k l_c^4 */
    double young = k * 81 / (PI * R * R * R / 8), aw = 1 / (4 * PI);
    double D = cantilever_ei(young, aw) / l, lc = pow(D / k, 0.25), w0 = 1e-3, P = 8 * sqrt(D * k) * w0;
    floe_world *w = chain_world(1, young, aw);
    CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    int g = floe_add_group(w, "load"), mid = -1;
    floe_body_def bd = floe_default_body_def();
    bd.blocked = FLOE_DOF_RZ;
    for (int i = -H; i <= H; i++)
        for (int j = -H; j <= H; j++) {
            bd.pos = (floe_vec3){l * i, l * j, z0};
            bd.groups = i == 0 && j == 0 ? 1u << g : 0;
            int id = floe_add_sphere(w, &bd, R);
            if (i == 0 && j == 0) mid = id;
        }
    floe_group_set_load(w, g, (floe_vec3){0, 0, -P}, (floe_vec3){0, 0, 0});
    CHECK(floe_start(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 2 * (2 * H + 1) * 2 * H);
    /* the profile within 3 l_c: farther out, the free edges (at 5 l_c) lift the plate by ~2% of w0 */
    double got = -relax(w, &floe_positions(w)[mid].z, z0, 1e-6), worst = 0, edge = 0;
    int n = floe_particle_count(w);
    for (int i = 0; i < n; i++) {
        floe_vec3 p = floe_positions(w)[i];
        double r = sqrt(p.x * p.x + p.y * p.y);
        double want = r > 0 ? -P * kei(r / lc) / (2 * PI * sqrt(D * k)) : w0;
        if (r <= 3 * lc) worst = fmax(worst, fabs((z0 - p.z) - want));
        else edge = fmax(edge, fabs((z0 - p.z) - want));
    }
    REPORT("floating plate of %d spheres: k = %.4f N/m^3, D = %.6e N m (cantilever EI / l), l_c = %.4f m; load "
           "%.4f N: deflection under it %.6e m, Hertz P / (8 sqrt(D k)) = %.6e m (rel %.1e); profile within 3 l_c "
           "within %.1e of it, beyond (free edges) %.1e (kei(1) = %.8f); %lld steps\n",
           n, k, D, lc, P, got, w0, fabs(got - w0) / w0, worst / w0, edge / w0, kei(1), (long long)floe_step_count(w));
    CHECK_NEAR(kei(1), -0.49499464, 1e-8); /* Abramowitz and Stegun, table 9.12 */
    CHECK_REL(got, w0, 1e-2);
    CHECK(worst < 1e-2 * w0);
    floe_world_destroy(w);
}

int main(void) {
    test_plate();
    double EI = cantilever_ei(1.12e8, 1 / (2 * PI));
    enum { NS = 121, MID = 60 };
    floe_world *w = chain_world(1, 1.12e8, 1 / (2 * PI));
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
