/* Validation: a cantilever made of a straight chain of bonded Ice spheres.
 *
 * Spheres 0..N (radius R, spacing l = 2R) on the x axis; sphere 0 is clamped,
 * a load P along y acts on sphere N. Contact j (between j-1 and j) sits at
 * x_j = (j - 1/2) l and carries the shear force P and the bending moment
 * M_j = P l (N - j + 1/2). Its rolling spring turns by M_j / k_r and its shear
 * spring, which measures y_j - y_{j-1} - R (theta_{j-1} + theta_j), by P / k_t.
 * Summing, the tip deflection is
 *     delta = P l^2 / k_r * sum_{m=1..N} (m - 1/2)^2 + N P / k_t
 *           = P L^3 / (3 EI) (1 - 1/(4 N^2)) + P L / (GA),
 * with L = N l, EI = k_r l and GA = k_t l. With alpha_r = 1/(4 pi),
 * k_r = alpha_r kn A = kn R^2 / 4, so EI = E pi R^4 / 4, the second moment
 * of the sphere's cross-section; alpha_w = 1/(2 pi) does the same for torsion.
 *
 * The root contact carries the largest moment, so under a slowly growing
 * load it breaks first, in rolling, when M_1 = T_rb: P = T_rb / (l (N - 1/2)).
 *
 * Static solution by Cundall damping (it does not change equilibria).
 * Tolerances: deflection 0.2% (geometric non-linearity is ~1e-5 at this
 * load; the rest is the residual of the damped relaxation); break load 1%
 * (a ramp over ~80 periods of the beam's first mode). */
#include "check.h"
#include "events.h"
#include <floe/floe.h>

#define PI 3.14159265358979323846
enum { N = 10 };
static const double R = 0.01;

static floe_world *make_chain(int bonds, int *tip_group) {
    floe_world_def def = floe_default_world_def();
    def.damping = 0.5;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "ice", "ice");
    floe_material_set(w, m, "alpha_w", 1 / (2 * PI));
    floe_material_set(w, m, "alpha_r", 1 / (4 * PI));
    floe_model_set(w, "ice", "bonds0", bonds);
    floe_model_set(w, "ice", "bonds1", 0);
    floe_model_set(w, "ice", "bond_tol", 1e-6); /* spheres just touch: bond across round-off gaps */
    *tip_group = floe_add_group(w, "tip");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    for (int i = 0; i <= N; i++) {
        bd.pos = (floe_vec3){2 * R * i, 0, 0};
        bd.blocked = i == 0 ? FLOE_DOF_ALL : 0;
        bd.groups = i == N ? 1u << *tip_group : 0;
        floe_add_sphere(w, &bd, R);
    }
    return w;
}

typedef struct brk {
    int count, a, b;
    uint32_t detail;
} brk;
static void on_event(const floe_event *ev, void *user) {
    brk *b = user;
    if (ev->type != FLOE_EVENT_BOND_BROKEN || b->count++) return;
    b->a = ev->a;
    b->b = ev->b;
    b->detail = ev->detail;
}

static void test_deflection(void) {
    int tip;
    floe_world *w = make_chain(15, &tip);
    const double P = 0.01;
    floe_group_set_load(w, tip, (floe_vec3){0, P, 0}, (floe_vec3){0, 0, 0});
    floe_step(w);
    CHECK(floe_contact_count(w) == N);
    floe_contact_info ci;
    floe_contact_get(w, 0, &ci);
    double s[16];
    floe_contact_state(w, 0, s, 16);
    double kr = s[4], kt = ci.kt, l = 2 * R, L = N * l;
    CHECK_REL(kr, ci.kn * R * R / 4, 1e-12);
    double EI = kr * l, GA = kt * l;
    CHECK_REL(EI, 1e9 * PI * R * R * R * R / 4, 1e-12);
    double expect = P * L * L * L / (3 * EI) * (1 - 1.0 / (4 * N * N)) + P * L / GA;
    double prev = 0, y = 0;
    for (int it = 0; it < 400; it++) {
        floe_run(w, 1000);
        y = floe_positions(w)[N].y;
        if (it > 20 && fabs(y - prev) < 1e-7 * fabs(y)) break;
        prev = y;
    }
    REPORT("cantilever of %d bonds: tip deflection %.6e m (closed form %.6e m, bending %.4e + shear %.4e), "
           "%lld steps\n",
           N, y, expect, P * L * L * L / (3 * EI) * (1 - 1.0 / (4 * N * N)), P * L / GA, (long long)floe_step_count(w));
    CHECK_REL(y, expect, 2e-3);
    floe_world_destroy(w);
}

static void test_root_break(void) {
    int tip;
    floe_world *w = make_chain(255, &tip);
    brk b = {0};
    step_events(w, on_event, &b);
    double s[16];
    floe_contact_state(w, 0, s, 16);
    double trb = s[8], l = 2 * R, expect = trb / (l * (N - 0.5));
    /* ramp to 1.5x the expected load over ~1 s (period of the first mode ~12 ms) */
    double dt = floe_dt(w), rate = 1.5 * expect / 1.0, P = 0;
    while (b.count == 0 && floe_time(w) < 1.0) {
        P = rate * floe_time(w);
        floe_group_set_load(w, tip, (floe_vec3){0, P, 0}, (floe_vec3){0, 0, 0});
        step_events(w, on_event, &b);
    }
    REPORT("cantilever root break at P = %.5f N (expected T_rb / (l (N - 1/2)) = %.5f N), contact %d-%d, "
           "senses 0x%x, dt %.3g\n",
           P, expect, b.a, b.b, b.detail, dt);
    CHECK(b.count >= 1);
    CHECK(b.a == 0 && b.b == 1);
    CHECK(b.detail & 8); /* rolling */
    CHECK_REL(P, expect, 1e-2);
    floe_world_destroy(w);
}

int main(void) {
    test_deflection();
    test_root_break();
    return CHECK_DONE();
}
