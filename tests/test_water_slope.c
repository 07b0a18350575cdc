/* Validation 4, short form: level ice against a sloping structure
 * (docs/models/water.md#level-ice-against-a-slope; the full study is
 * tools/croasdale_study.py).
 *
 * 1. Three-point bending in air of a beam cut from the bonded Ice lattice of
 *    the study (spheres R = 0.1 m, spacing 2R, E = 1e7 Pa, break_n = 2.8e-3,
 *    beta_r = 0.25): two chains side by side, one layer (h = 2R) or two
 *    (h = 4R), simply supported on two fixed frictionless spheres a span L
 *    apart, a load P at mid-span, relaxed by Cundall damping to the static
 *    answer. Euler-Bernoulli: w = P L^3 / (48 E I), I = b h^3 / 12. The
 *    lattice's own E in pure bending follows from its springs (docs): the
 *    rolling springs k_r = alpha_r kn A give each chain EI = alpha_r E pi^2
 *    R^4, and the normal springs of a layer at z_k from the mid-plane add
 *    pi R^2 E z_k^2. Tolerance 4 %: the shear springs (kt = 0.3 kn) add
 *    shear deflection (measured -0.4 % one layer, -2.9 % two layers, L/h = 20
 *    and 15) and the load and the supports act on discrete spheres.
 *    The load is then raised to 40, 60, 80, 90, 95 % and on in steps of 1 %
 *    of the load at which the first
 *    bond must break: the rolling moment of the bond next to the mid-span
 *    sphere, (P / (2 n_chains)) (L/2 - R), reaching T_rb = beta_r c_n A sqrt(A)
 *    (one layer), or the normal force of the bottom layer's bond there, its
 *    share of the moment by stiffness (two layers), reaching F_nb = c_n A. The
 *    first bond must break at that step +- one step (one layer; measured
 *    100 %), or within -2 % and +4 % (two layers; measured 102 %: the shear
 *    springs between the layers let them slip a little, so the bottom layer
 *    carries less than its Euler-Bernoulli share of the moment).
 *    sigma_f = 3 P L / (2 b h^2) is reported for the slope check.
 * 2. A floating sheet of two layers (3 x 30 spheres, h = 0.4 m), carried by
 *    a 0.4 m/s current and pushed by a driven row of spheres into a fixed
 *    ramp at 30 and at 60 degrees; the mean horizontal load per unit width on
 *    the ramp over the second half of a 3 m push is compared with Croasdale's
 *    2D bending load H_B = 0.68 xi sigma_f (rho_w g h^5 / E)^(1/4)
 *    (ISO 19906), xi = (sin a + mu cos a) / (cos a - mu sin a), E and sigma_f
 *    from part 1 (two layers). The full study measures the mean load of the
 *    two-layer sheet at 0.19 to 0.41 of H_B + H_R and 0.34 to 0.91 of H_B
 *    alone (the load is cyclic: it builds to the breaking load and falls
 *    after each break). This short push sees only a few breaking cycles, so
 *    its mean depends on where they fall in the averaging window: at 60
 *    degrees it measured 0.24 to 0.43 of H_B across summation orders of the
 *    same forces (the cut between the contact parts moved; 980 to 1745 N/m).
 *    So here the mean load must lie within a factor 5 of H_B (0.2 to 5): a
 *    sheet that does not break against the ramp, or does not reach it, is
 *    far outside. And the 60-degree slope must carry a larger mean load
 *    than the 30-degree one (H_B predicts a factor xi(60)/xi(30) = 3.08; the
 *    study measured 2.8 and 1.8 for the two-layer sheet at 0.2 and 0.4 m/s). */
#include "check.h"
#include <floe/floe.h>

#define PI 3.14159265358979323846
static const double R = 0.1, G = 9.81, RHO_I = 900, RHO_W = 1025, YOUNG = 1e7, BREAK_N = 2.8e-3, BETA_R = 0.25,
                    ALPHA_R = 1 / (4 * PI), MU = 0.1;

static floe_world *ice_world(double gravity, double damping) {
    floe_world_def def = floe_default_world_def();
    def.dt_safety = 0.5; /* bonded, quasi-static: impacts do not set the accuracy */
    def.damping = damping;
    def.gravity = (floe_vec3){0, 0, -gravity};
    floe_world *w = floe_world_create(&def);
    CHECK(floe_set_threads(w, 1) == FLOE_OK);
    int m = floe_add_material(w, "ice", "ice");
    floe_material_set(w, m, "density", RHO_I);
    floe_material_set(w, m, "young", YOUNG);
    floe_material_set(w, m, "kt_div_kn", 0.3);
    floe_material_set(w, m, "tan_phi", 0.3);
    floe_material_set(w, m, "break_n", BREAK_N);
    floe_material_set(w, m, "alpha_w", 1 / (2 * PI));
    floe_material_set(w, m, "alpha_r", ALPHA_R);
    floe_material_set(w, m, "beta_t", 1.0);
    floe_material_set(w, m, "beta_w", 0.5);
    floe_material_set(w, m, "beta_r", BETA_R);
    floe_material_set(w, m, "mu", 0.05);
    floe_model_set(w, "ice", "bonds0", 255);
    floe_model_set(w, "ice", "bonds1", 0);
    floe_model_set(w, "ice", "bond_tol", 1e-3);
    int s = floe_add_material(w, "steel", "linear");
    floe_material_set(w, s, "density", 7800);
    floe_material_set(w, s, "young", 1e8);
    floe_material_set(w, s, "tan_phi", MU);
    int f = floe_add_material(w, "support", "linear");
    floe_material_set(w, f, "density", 7800);
    floe_material_set(w, f, "young", 1e8);
    floe_material_set(w, f, "tan_phi", 0);
    return w;
}

/* E of the lattice in pure bending, per column of width 2R. */
static double lattice_e(int layers) {
    double zmid = R * (layers - 1), ei = 0, h = 2 * R * layers;
    for (int k = 0; k < layers; k++) {
        double z = 2 * R * k - zmid;
        ei += ALPHA_R * YOUNG * PI * PI * R * R * R * R + PI * R * R * YOUNG * z * z;
    }
    return ei / (2 * R * h * h * h / 12);
}

/* Mean of the mid-span deflection (bottom layer) relative to the spheres over the supports. */
static double deflection(floe_world *w, int nx, int ny, int ic, int i0, int i1) {
    const floe_vec3 *p = floe_positions(w);
    double zc = 0, ze = 0;
    for (int j = 0; j < ny; j++) {
        zc += p[ic + nx * j].z / ny;
        ze += (p[i0 + nx * j].z + p[i1 + nx * j].z) / (2 * ny);
    }
    return ze - zc;
}

/* Relaxes until the deflection changes by less than tol of itself over 1000 steps, or a bond breaks. */
static double relax_w(floe_world *w, int nx, int ny, int ic, int i0, int i1, double tol) {
    double prev = 0, x = 0;
    int bonds = floe_bonded_count(w);
    for (int it = 0; it < 100 && floe_bonded_count(w) == bonds; it++) {
        floe_status st = floe_run(w, 1000);
        if (st != FLOE_OK) fprintf(stderr, "relax: %s\n", floe_last_error(w));
        CHECK(st == FLOE_OK);
        x = deflection(w, nx, ny, ic, i0, i1);
        if (it > 3 && fabs(x - prev) < tol * fabs(x)) break;
        prev = x;
    }
    return x;
}

/* Three-point bending: returns E; *sigma the flexural strength. */
static double bending(int layers, double *sigma) {
    enum { NY = 2 };
    int cells = layers == 1 ? 20 : 30, nx = cells + 5, i0 = 2, i1 = 2 + cells, ic = 2 + cells / 2;
    double L = 2 * R * cells, b = 2 * R * NY, h = 2 * R * layers, inertia = b * h * h * h / 12;
    floe_world *w = ice_world(0, 0.3);
    int load = floe_add_group(w, "load");
    floe_body_def bd = floe_default_body_def();
    bd.material = floe_find_material(w, "ice");
    for (int k = 0; k < layers; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < nx; i++) {
                bd.pos = (floe_vec3){2 * R * i, 2 * R * j, 2 * R * k};
                bd.blocked = FLOE_DOF_Y | FLOE_DOF_RX | FLOE_DOF_RZ | (i == ic ? FLOE_DOF_X : 0);
                bd.groups = i == ic && k == layers - 1 ? 1u << load : 0;
                floe_add_sphere(w, &bd, R);
            }
    double zs = sqrt(4 * R * R - R * R); /* a support at y = R touches both chains */
    floe_body_def sd = floe_default_body_def();
    sd.material = floe_find_material(w, "support");
    sd.blocked = FLOE_DOF_ALL;
    sd.pos = (floe_vec3){2 * R * i0, R, -zs};
    floe_add_sphere(w, &sd, R);
    sd.pos = (floe_vec3){2 * R * i1, R, -zs};
    floe_add_sphere(w, &sd, R);
    CHECK(floe_start(w) == FLOE_OK);
    int bonds = floe_bonded_count(w);
    CHECK(bonds == layers * (NY * (nx - 1) + (NY - 1) * nx) + (layers - 1) * NY * nx);

    /* the first bond to break: one layer, the rolling moment next to mid-span; two layers,
     * the normal bond of the bottom layer there, its share of the moment by stiffness */
    double area = PI * R * R, c_n = BREAK_N * YOUNG, moment;
    if (layers == 1) moment = BETA_R * c_n * area * sqrt(area);
    else moment = c_n * area * lattice_e(layers) * 2 * R * h * h * h / 12 / (R * PI * R * R * YOUNG);
    double p_break = NY * 2 * moment / (L / 2 - R);

    double P = 0.2 * p_break;
    floe_group_set_load(w, load, (floe_vec3){0, 0, -P / NY}, (floe_vec3){0, 0, 0});
    double wmid = relax_w(w, nx, NY, ic, i0, i1, 1e-6);
    double E = P * L * L * L / (48 * wmid * inertia), want = lattice_e(layers);
    REPORT("three-point bending, %d layer(s), L = %g m, b = %g m, h = %g m: P = %.4f N, w = %.6e m: E = %.5e Pa, "
           "the lattice in pure bending %.5e Pa (rel %+.2e)\n",
           layers, L, b, h, P, wmid, E, want, E / want - 1);
    CHECK_REL(E, want, 4e-2);

    static const int pcs[] = {40, 60, 80, 90, 95}; /* load steps overshoot by less than half of themselves */
    for (int k = 0; k < 5; k++) {
        floe_group_set_load(w, load, (floe_vec3){0, 0, -pcs[k] * 1e-2 * p_break / NY}, (floe_vec3){0, 0, 0});
        relax_w(w, nx, NY, ic, i0, i1, 1e-4);
    }
    CHECK(floe_bonded_count(w) == bonds);
    int step = 0;
    for (step = 96; step <= 110 && floe_bonded_count(w) == bonds; step++) {
        P = step * 1e-2 * p_break;
        floe_group_set_load(w, load, (floe_vec3){0, 0, -P / NY}, (floe_vec3){0, 0, 0});
        relax_w(w, nx, NY, ic, i0, i1, 1e-4);
    }
    *sigma = 3 * P * L / (2 * b * h * h);
    REPORT("  first bond broke at P = %.4f N (%d %% of the predicted %.4f N): sigma_f = 3 P L / (2 b h^2) = %.5e Pa\n",
           P, step - 1, p_break, *sigma);
    if (layers == 1) CHECK(step - 1 >= 99 && step - 1 <= 101);
    else CHECK(step - 1 >= 98 && step - 1 <= 104);
    floe_world_destroy(w);
    return E;
}

static double unit_draft(double f) { return 2 * cos((2 * PI - acos(1 - 2 * f)) / 3); }

/* Mean horizontal load per unit width on a ramp at alpha degrees. */
static double slope_load(int layers, double alpha_deg) {
    enum { NX = 30, NY = 3 };
    const double v = 0.4, push = 3.0, a = alpha_deg * PI / 180, width = 2 * R * NY;
    double f_top = layers * RHO_I / RHO_W - (layers - 1);
    double level = 2 * R * (layers - 1) + unit_draft(f_top) * R;
    floe_world *w = ice_world(G, 0);
    floe_water_def wd = floe_default_water_def();
    wd.level = level;
    wd.density = RHO_W;
    wd.current = (floe_vec3){v, 0, 0};
    CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    int pusher = floe_add_group(w, "pusher"), ramp = floe_add_group(w, "ramp");
    floe_motion mo = floe_default_motion();
    mo.vel = (floe_vec3){v, 0, 0};
    CHECK(floe_group_set_motion(w, pusher, &mo) == FLOE_OK);
    floe_body_def bd = floe_default_body_def();
    bd.material = floe_find_material(w, "ice");
    bd.vel = (floe_vec3){v, 0, 0};
    for (int k = 0; k < layers; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                bd.pos = (floe_vec3){2 * R * i, R + 2 * R * j, 2 * R * k};
                bd.groups = i == 0 ? 1u << pusher : 0;
                bd.blocked = i == 0 ? FLOE_DOF_ALL : FLOE_DOF_Y | FLOE_DOF_RX | FLOE_DOF_RZ;
                floe_add_sphere(w, &bd, R);
            }
    /* the ramp crosses the water level 0.3 m in front of the sheet and rises to 0.3 m above it */
    double x_w = 2 * R * (NX - 1) + R + 0.2, zb = -1.0, zt = level + 0.3;
    double xb = x_w - (level - zb) / tan(a), xt = x_w + 0.3 / tan(a);
    floe_body_def fd = floe_default_body_def();
    fd.material = floe_find_material(w, "steel");
    fd.groups = 1u << ramp;
    floe_vec3 t1[3] = {{xb, -1, zb}, {xt, -1, zt}, {xb, width + 1, zb}};
    floe_vec3 t2[3] = {{xt, -1, zt}, {xt, width + 1, zt}, {xb, width + 1, zb}};
    CHECK(floe_add_facet(w, &fd, t1, 0) >= 0);
    CHECK(floe_add_facet(w, &fd, t2, 0) >= 0);
    CHECK(floe_start(w) == FLOE_OK);
    double t_end = push / v, sum = 0;
    long n = 0;
    while (floe_time(w) < t_end) {
        CHECK(floe_run(w, 10) == FLOE_OK);
        if (floe_time(w) >= t_end / 2) {
            sum += floe_group_force(w, ramp).x;
            n++;
        }
    }
    floe_world_destroy(w);
    return sum / n / width;
}

static double xi(double a) { return (sin(a) + MU * cos(a)) / (cos(a) - MU * sin(a)); }

int main(void) {
    double s1, s2;
    bending(1, &s1);
    double E2 = bending(2, &s2), h = 4 * R;
    double h30 = slope_load(2, 30), h60 = slope_load(2, 60);
    double hb30 = 0.68 * xi(PI / 6) * s2 * pow(RHO_W * G * pow(h, 5) / E2, 0.25);
    double hb60 = 0.68 * xi(PI / 3) * s2 * pow(RHO_W * G * pow(h, 5) / E2, 0.25);
    REPORT("two-layer sheet (h = %g m) at 0.4 m/s: 30 degrees mean load %.1f N/m, Croasdale H_B %.1f N/m (ratio %.3f); "
           "60 degrees %.1f N/m, H_B %.1f N/m (ratio %.3f); 60 / 30 = %.3f (xi ratio %.3f)\n",
           h, h30, hb30, h30 / hb30, h60, hb60, h60 / hb60, h60 / h30, xi(PI / 3) / xi(PI / 6));
    CHECK(h30 > 0.2 * hb30 && h30 < 5 * hb30);
    CHECK(h60 > 0.2 * hb60 && h60 < 5 * hb60);
    CHECK(h60 > h30);
    return CHECK_DONE();
}
