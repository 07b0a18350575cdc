/* The periodic cell (docs/periodic.md), each behaviour against a closed
 * form or an exact invariant:
 * (a) a pair touching across a face of a sheared cell feels the force of the
 *     same pair placed inside the cell with B's image velocity v + L H n
 *     (the image construction, docs/periodic.md): to 1e-10 relative (the
 *     image position x + H n rounds differently from the copy inside; the
 *     overlap of 1e-2 m carries ~1e-16 m of rounding per step);
 * (b) a simple cubic lattice in a periodic cell, every particle with six
 *     neighbours, three of them possibly through the cell's faces: the
 *     Love-Weber stress of the whole cell is -f/d^2 on each axis (per
 *     lattice cell of volume d^3 one contact per axis, branch d e_k, force
 *     -f e_k on A; tension positive), to 1e-12; the same lattice compressed
 *     by the cell alone (L = -e I, bodies pushed only by images) settles at
 *     the uniform spacing d = H_xx / n and the stress -k_n (2R - d) / d^2,
 *     to 1e-6 (damped relaxation);
 * (c) a body crossing the cell 40 times keeps its velocity bitwise and its
 *     unwrapped position pos + H n = x0 + v t to 1e-9 m; two equal spheres
 *     colliding head-on across a face exchange velocities (elastic Linear
 *     law: momentum to 1e-12, kinetic energy to 1e-3 relative, the
 *     leapfrog's error of a contact of ~20 steps);
 * (d) simple shear of a gas of spheres in a Lees-Edwards cell: the mean
 *     velocity profile stays affine, slope dvx/dy = gamma_dot within 10 %
 *     after a strain of 2 (a cell whose images did not move would let the
 *     profile decay to zero slope);
 * (e) a snapshot (the restart's item table) taken across wraps and cell
 *     flips continues bitwise like the run it was taken from;
 * (f) 1 and 2 threads give bitwise the same sheared run;
 * (g) an Ice bond made across a face of a 2D cell (start-up bonding across
 *     a gap) carries the forces of the same bond inside the cell while the
 *     pair is pulled apart and oscillates (1e-10 relative, as in (a));
 * (h) stress control: the lattice of (b), touching, with all three axes
 *     servo-controlled to sigma = -P, settles (damped) where
 *     k_n (2R - d) / d^2 = P, d = H_xx / n: stress to 1e-6 relative, d
 *     against that quadratic's root to 1e-9;
 * (h2) the servo's rate against its closed form: on the lattice of (b)
 *     (overlap delta, sigma = -kn delta / d^2, stiffness along an axis
 *     K = kn / d), a servo without a gain takes, in its first step, the
 *     strain rate alpha (target - sigma) / (K dt), to 1e-9 relative; from a
 *     loose lattice (no contact) it moves at max_rate, and the cell's length
 *     after N steps is L0 (1 - max_rate dt)^N (to 1e-12) while no contact
 *     forms; with a fixed gain g a loose lattice moves at g |target|, below
 *     max_rate (the rate the scene's old gain gave); and the lattice of (h)
 *     settles under the automatic gain at the same spacing, to 1e-9;
 * (i) a sphere resting on a floor (a wall along the periodic axes) and
 *     sliding across the cell's faces keeps its one contact, with the wall
 *     itself (no image), and the contact force equals its weight m g to
 *     1e-6 once the bounce has died out (Cundall damping 0.5 acts on the
 *     vertical motion only: no horizontal force, nothing to damp);
 * (j) a spinning frictional pair in contact while A, B or both cross a
 *     face (x, y or z; a still or a sheared cell; per-contact and batched
 *     contacts), and a sphere rolling on a floor across a face: forces and
 *     torques equal those of the same pair inside the cell to 1e-12 of the
 *     peak force (rounding: the copies' coordinates differ by half a cell).
 *     The contact point kept from the last step moves with A when A wraps;
 *     left behind, the mid-step lever arm was half a cell vector long and
 *     the spin slid the shear spring for a step (0.03-0.12 of the force);
 *     both bodies crossing together keep B itself (no image: the batch's
 *     path), and 2 threads give the bits of 1;
 * (k) a sphere spinning at 30 rad/s about z driven through the x face into
 *     a fixed partner's image and bouncing back through it: the shear
 *     force at both wraps is the inside pair's to 1e-12 of the peak normal
 *     force (it was 1.178 N for 0.969 N, 1.606 N for 1.568 N);
 * (l) cell phases: a lattice compressed by L0 = -e I from time 0, then
 *     sheared by L1 (L_xy = gamma_dot) from the phase starting at time T:
 *     phase 0 is the cell's phase at step 0, phase 1 from the first state
 *     whose time is >= T, and the cell's strain is the product of the two
 *     phases' explicit steps, (I + dt L1)^N1 (1 - e dt)^N0 - I (exact for
 *     the nilpotent L1), to 1e-12; against the exponentials
 *     (I + L1 t1) exp(-e t0) - I it differs by O(e dt) only; a snapshot
 *     taken before the switch continues bitwise across it; a pressure
 *     trigger starts its phase at the first state whose cell pressure
 *     reaches the value (the state before it below); a phase with
 *     `affine` gives every free body the affine velocity of the change of
 *     L, gamma_dot (y - o_y) along x, at its start (to 1e-12), and books
 *     the kinetic energy it adds as boundary work (the balance error stays
 *     below 1e-12; unbooked, that energy would be nearly all of the
 *     kinetic energy and the error of order 1); bad phases are
 *     refused naming the phase and the value;
 * and the refusals: axes, ranges, a wall normal to a periodic axis, a cell
 * too small for its bodies, L on an axis that is not periodic. */
#include "check.h"
#include "core/snapshot.h"
#include <floe/floe_snapshot.h>
#include "core/world.h"

#include <stdint.h>

static floe_vec3 V(double x, double y, double z) { return (floe_vec3){x, y, z}; }

static floe_world *new_world(int threads, double dt) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    def.threads = threads;
    def.gravity = V(0, 0, 0);
    def.damping = 0;
    return floe_world_create(&def);
}

static void cube_cell(floe_world *w, double lo, double hi) {
    for (int k = 0; k < 3; k++) CHECK(floe_world_set_periodic(w, k, lo, hi) == FLOE_OK);
}

/* ---- (a) a pair across a face = the pair inside ------------------------------- */

static floe_world *pair_world(int across, double gdot) {
    floe_world *w = new_world(1, 2e-6);
    cube_cell(w, 0, 1);
    double l[9] = {0, gdot, 0, 0, 0, 0, 0, 0, 0};
    CHECK(floe_world_set_velocity_gradient(w, l) == FLOE_OK);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0.3);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    /* A near the top face y = 1, B near the bottom: B's image (offset +1 in
     * y) sits at y + 1 and moves at v_B + L H e_y = v_B + gdot e_x */
    bd.pos = across ? V(0.5, 0.96, 0.5) : V(0.5, 0.46, 0.5);
    bd.vel = V(0.2, -0.3, 0.1);
    bd.angvel = V(1, 2, -3);
    floe_add_sphere(w, &bd, 0.05);
    bd.pos = across ? V(0.51, 0.05, 0.503) : V(0.51, 0.55, 0.503);
    bd.vel = across ? V(-0.1, 0.2, 0) : V(-0.1 + gdot, 0.2, 0);
    bd.angvel = V(0, -1, 2);
    floe_add_sphere(w, &bd, 0.05);
    w->batch_off = 1; /* both through the same per-contact code */
    return w;
}

static void test_pair_across(void) {
    const double gdot = 0.5;
    floe_world *w1 = pair_world(1, gdot), *w2 = pair_world(0, gdot);
    double worst = 0;
    int steps = 0;
    for (int s = 0; s < 400; s++) {
        CHECK(floe_step(w1) == FLOE_OK);
        CHECK(floe_step(w2) == FLOE_OK);
        if (floe_contact_count(w1) != floe_contact_count(w2)) {
            CHECK(0);
            break;
        }
        if (floe_contact_count(w1) == 0) continue;
        floe_contact_info c1, c2;
        floe_contact_get(w1, 0, &c1);
        floe_contact_get(w2, 0, &c2);
        CHECK(c1.image[1] == 1 && c2.image[1] == 0);
        double f1[6] = {c1.force.x, c1.force.y, c1.force.z, c1.torque.x, c1.torque.y, c1.torque.z};
        double f2[6] = {c2.force.x, c2.force.y, c2.force.z, c2.torque.x, c2.torque.y, c2.torque.z};
        double scale = fabs(c2.force.x);
        for (int k = 0; k < 6; k++) worst = fmax(worst, fabs(f1[k] - f2[k]) / scale);
        steps++;
    }
    CHECK(steps > 50);
    CHECK(worst <= 1e-10);
    /* the velocities the forces gave agree too */
    const floe_vec3 *v1 = floe_velocities(w1), *v2 = floe_velocities(w2);
    CHECK_NEAR(v1[0].x, v2[0].x, 1e-12);
    CHECK_NEAR(v1[1].y, v2[1].y, 1e-12);
    REPORT("(a) pair across a sheared cell's face: %d steps in contact, largest force difference %.3g relative\n",
           steps, worst);
    floe_world_destroy(w1);
    floe_world_destroy(w2);
}

/* ---- (b) lattice stress ------------------------------------------------------------ */

static floe_world *lattice(int n, double R, double d, double damping) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    def.threads = 1;
    def.gravity = V(0, 0, 0);
    def.damping = damping;
    floe_world *w = floe_world_create(&def);
    cube_cell(w, 0, n * d);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                bd.pos = V((i + 0.5) * d, (j + 0.5) * d, (k + 0.5) * d);
                floe_add_sphere(w, &bd, R);
            }
    return w;
}

static void test_lattice(void) {
    const int n = 4;
    const double R = 0.01, delta = 1e-4, d = 2 * R - delta;
    floe_world *w = lattice(n, R, d, 0);
    CHECK(floe_start(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 3 * n * n * n); /* six neighbours each */
    int across = 0;
    floe_contact_info ci;
    floe_contact_get(w, 0, &ci);
    double f = -ci.force.x;
    CHECK_REL(f, ci.kn * delta, 1e-9);
    for (int k = 0; k < floe_contact_count(w); k++) {
        floe_contact_get(w, k, &ci);
        across += ci.image[0] || ci.image[1] || ci.image[2];
        CHECK_REL(-ci.force.x, f, 1e-10);
    }
    CHECK(across == 3 * n * n);
    double s[9], want = -f / (d * d);
    floe_region all = {V(0, 0, 0), V(1, 1, 1), 1}; /* whole: the cell's volume */
    CHECK(floe_stress_tensor(w, &all, s) == FLOE_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (i == j) CHECK_REL(s[3 * i + j], want, 1e-10);
            else CHECK_NEAR(s[3 * i + j], 0, 1e-10 * fabs(want));
        }
    REPORT("(b) periodic cubic lattice: sigma = (%.10g, %.10g, %.10g) Pa, closed form -f/d^2 = %.10g Pa\n", s[0], s[4],
           s[8], want);
    /* at rest: the forces balance, nothing moves */
    CHECK(floe_run(w, 200) == FLOE_OK);
    const floe_vec3 *v = floe_velocities(w);
    double vmax = 0;
    for (int i = 0; i < n * n * n; i++) vmax = fmax(vmax, fabs(v[i].x) + fabs(v[i].y) + fabs(v[i].z));
    CHECK(vmax < 1e-9);
    floe_world_destroy(w);

    /* compressed by the cell: touching lattice, cell shrinks by e = 0.5 %,
     * then the damped lattice settles */
    const int n2 = 3;
    w = lattice(n2, R, 2 * R, 0.3);
    const double rate = -50, t1 = 1e-4; /* strain rate [1/s], time: e = 1 - exp(rate t1) ~ 0.5 % */
    double l[9] = {rate, 0, 0, 0, rate, 0, 0, 0, rate}, zero[9] = {0};
    CHECK(floe_world_set_velocity_gradient(w, l) == FLOE_OK);
    int nstep = (int)(t1 / 1e-6 + 0.5);
    CHECK(floe_run(w, nstep) == FLOE_OK);
    CHECK(floe_world_set_velocity_gradient(w, zero) == FLOE_OK);
    CHECK(floe_run(w, 40000) == FLOE_OK);
    double h[9];
    CHECK(floe_world_get_cell(w, h, NULL) == 7);
    double d2 = h[0] / n2, f2 = 0;
    CHECK_REL(h[0], h[4], 1e-15);
    CHECK_REL(h[0], 2 * R * n2 * pow(1 + rate * 1e-6, nstep), 1e-12); /* H += dt L H, step by step */
    floe_contact_get(w, 0, &ci);
    f2 = ci.kn * (2 * R - d2);
    CHECK(floe_stress_tensor(w, &all, s) == FLOE_OK);
    for (int i = 0; i < 3; i++) CHECK_REL(s[4 * i], -f2 / (d2 * d2), 1e-6);
    REPORT("(b) cell-compressed lattice (strain %.4g): sigma_xx = %.10g Pa, closed form -kn (2R - d)/d^2 = %.10g Pa\n",
           1 - d2 / (2 * R), s[0], -f2 / (d2 * d2));
    floe_world_destroy(w);
}

/* ---- (c) crossing the cell ------------------------------------------------------------ */

static void test_crossing(void) {
    floe_world *w = new_world(1, 1e-3);
    cube_cell(w, -0.5, 0.5);
    int m = floe_add_material(w, "m", "linear");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.pos = V(0.1, 0.2, -0.3);
    bd.vel = V(8, -3.3, 1.7);
    floe_add_sphere(w, &bd, 0.05);
    CHECK(floe_run(w, 5000) == FLOE_OK);                        /* 40 m along x: 40 crossings */
    CHECK(floe_world_set_periodic(w, 0, 0, 1) == FLOE_ERR_ARG); /* not after the start */
    CHECK(strstr(floe_last_error(w), "before the first step"));
    const floe_vec3 v = floe_velocities(w)[0], p = floe_positions(w)[0];
    CHECK(v.x == 8 && v.y == -3.3 && v.z == 1.7);
    int n[3];
    CHECK(floe_particle_wraps(w, 0, n) == FLOE_OK);
    double t = 5000 * 1e-3;
    CHECK(n[0] == 40 && n[1] == -16 && n[2] == 8);
    CHECK_NEAR(p.x + n[0], 0.1 + 8 * t, 1e-9);
    CHECK_NEAR(p.y + n[1], 0.2 - 3.3 * t, 1e-9);
    CHECK_NEAR(p.z + n[2], -0.3 + 1.7 * t, 1e-9);
    CHECK(p.x >= -0.5 && p.x < 0.5 && p.y >= -0.5 && p.y < 0.5 && p.z >= -0.5 && p.z < 0.5);
    REPORT("(c) one body: wraps (%d, %d, %d), unwrapped x error %.3g m\n", n[0], n[1], n[2],
           fabs(p.x + n[0] - (0.1 + 8 * t)));
    floe_world_destroy(w);

    /* head-on across the x face */
    w = new_world(1, 1e-5);
    cube_cell(w, 0, 1);
    m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0);
    bd = floe_default_body_def();
    bd.material = m;
    bd.pos = V(0.9, 0.5, 0.5);
    bd.vel = V(1, 0, 0);
    floe_add_sphere(w, &bd, 0.05);
    bd.pos = V(0.2, 0.5, 0.5);
    bd.vel = V(-0.5, 0, 0);
    floe_add_sphere(w, &bd, 0.05);
    double p0 = 1 - 0.5, e0 = 0.5 * (1 + 0.25); /* per unit mass */
    int touched = 0;
    for (int s = 0; s < 30000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        touched |= floe_contact_count(w) > 0;
    }
    const floe_vec3 *vv = floe_velocities(w);
    CHECK(touched && floe_contact_count(w) == 0);
    CHECK_NEAR(vv[0].x + vv[1].x, p0, 1e-12);
    CHECK_REL(0.5 * (vv[0].x * vv[0].x + vv[1].x * vv[1].x), e0, 1e-3);
    CHECK_NEAR(vv[0].x, -0.5, 1e-3);
    CHECK_NEAR(vv[1].x, 1, 1e-3);
    REPORT("(c) head-on across the face: velocities after (%.9g, %.9g) m/s, expected (-0.5, 1)\n", vv[0].x, vv[1].x);
    floe_world_destroy(w);
}

/* ---- (d) simple shear ------------------------------------------------------------------ */

static uint64_t rng = 88172645463325252ull;
static double urand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static floe_world *shear_world(int threads, double gdot) {
    floe_world *w = new_world(threads, 5e-4);
    cube_cell(w, 0, 1);
    double l[9] = {0, gdot, 0, 0, 0, 0, 0, 0, 0};
    CHECK(floe_world_set_velocity_gradient(w, l) == FLOE_OK);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e6);
    floe_material_set(w, m, "tan_phi", 0.3);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    rng = 88172645463325252ull;
    /* a 6^3 lattice with a jitter: solid fraction 0.31 */
    for (int k = 0; k < 6; k++)
        for (int j = 0; j < 6; j++)
            for (int i = 0; i < 6; i++) {
                bd.pos = V((i + 0.5 + 0.2 * (urand() - 0.5)) / 6, (j + 0.5 + 0.2 * (urand() - 0.5)) / 6,
                           (k + 0.5 + 0.2 * (urand() - 0.5)) / 6);
                bd.vel = V(0.1 * (urand() - 0.5), 0.1 * (urand() - 0.5), 0.1 * (urand() - 0.5));
                floe_add_sphere(w, &bd, 0.07);
            }
    CHECK(floe_world_affine_velocities(w) == FLOE_OK);
    return w;
}

/* Least-squares slope of vx against y. */
static double profile_slope(const floe_world *w) {
    int n = floe_particle_count(w);
    const floe_vec3 *p = floe_positions(w), *v = floe_velocities(w);
    double sy = 0, sv = 0, syy = 0, syv = 0;
    for (int i = 0; i < n; i++) {
        sy += p[i].y;
        sv += v[i].x;
        syy += p[i].y * p[i].y;
        syv += p[i].y * v[i].x;
    }
    return (n * syv - sy * sv) / (n * syy - sy * sy);
}

static void test_shear(void) {
    const double gdot = 1;
    floe_world *w = shear_world(1, gdot);
    CHECK(floe_run(w, 4000) == FLOE_OK); /* strain 2 */
    double slope = profile_slope(w);
    CHECK_REL(slope, gdot, 0.1);
    CHECK(w->cell.flips == 2); /* the cell was flipped at strain 0.5 and 1.5 */
    double h[9];
    floe_world_get_cell(w, h, NULL);
    /* after the flips: H_xy = 2 - 2 (strain 2 less two periods), the rest the unit cube */
    CHECK_NEAR(h[1], 0, 1e-9);
    CHECK(h[0] == 1 && h[4] == 1 && h[8] == 1 && h[3] == 0 && h[2] == 0 && h[5] == 0);
    double s[9];
    floe_region all = {V(0, 0, 0), V(1, 1, 1), 1};
    CHECK(floe_stress_tensor(w, &all, s) == FLOE_OK);
    REPORT("(d) simple shear, strain 2: profile slope %.4f (gamma_dot %g), flips %lld, sigma_xy %.4g Pa\n", slope, gdot,
           (long long)w->cell.flips, s[1]);
    floe_world_destroy(w);
}

/* ---- (e) restart, (f) threads -------------------------------------------------------------- */

static void test_restart_threads(void) {
    floe_world *w = shear_world(1, 1);
    CHECK(floe_run(w, 1200) == FLOE_OK); /* strain 0.6: past a flip, many wraps */
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[512];
    CHECK(floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err) == 0);
    floe_world *r = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    CHECK(r != NULL);
    free(bytes);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        floe_world_destroy(w);
        return;
    }
    int wrapped = 0;
    for (int i = 0; i < floe_particle_count(w); i++) wrapped += w->wraps[i].n[0] != 0 || w->wraps[i].n[1] != 0;
    CHECK(wrapped > 0 && w->cell.flips >= 1);
    CHECK(floe_run(w, 1500) == FLOE_OK);
    CHECK(floe_run(r, 1500) == FLOE_OK);
    char what[512] = "";
    int diff = floe__snapshot_diff(w, r, what, sizeof what);
    CHECK(diff == 0);
    if (diff) fprintf(stderr, "restart differs: %s\n", what);
    REPORT("(e) restart at strain 0.6 (%d bodies wrapped, %lld flips): %s after 1500 more steps\n", wrapped,
           (long long)w->cell.flips, diff ? "differs" : "bitwise the same");

    floe_world *t2 = shear_world(2, 1);
    CHECK(floe_run(t2, 2700) == FLOE_OK);
    CHECK(floe_thread_count(t2) == 2);
    floe_set_threads(t2, 1); /* the setting itself is state: the same on both sides */
    diff = floe__snapshot_diff(w, t2, what, sizeof what);
    CHECK(diff == 0);
    if (diff) fprintf(stderr, "threads differ: %s\n", what);
    REPORT("(f) 1 and 2 threads: %s\n", diff ? "differ" : "bitwise the same");
    floe_world_destroy(w);
    floe_world_destroy(r);
    floe_world_destroy(t2);
}

/* ---- (g) a bond across a face, 2D ------------------------------------------------------------ */

static floe_world *bond_world(int across) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    def.threads = 1;
    def.gravity = V(0, 0, 0);
    def.dimension = 2;
    floe_world *w = floe_world_create(&def);
    CHECK(floe_world_set_periodic(w, 0, 0, 1) == FLOE_OK);
    CHECK(floe_world_set_periodic(w, 1, 0, 1) == FLOE_OK);
    CHECK(floe_model_set(w, "ice", "bonds0", 255) == FLOE_OK);
    CHECK(floe_model_set(w, "ice", "bond_tol", 0.1) == FLOE_OK);
    int m = floe_add_material(w, "ice", "ice");
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "break_n", 1e3); /* never breaks here */
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.pos = across ? V(0.95, 0.3, 0) : V(0.45, 0.3, 0);
    bd.vel = V(-0.1, 0.02, 0);
    bd.angvel = V(0, 0, 1);
    floe_add_sphere(w, &bd, 0.05);
    bd.pos = across ? V(0.051, 0.302, 0) : V(0.551, 0.302, 0); /* gap 1e-3 m, within bond_tol R */
    bd.vel = V(0.1, -0.02, 0);
    bd.angvel = V(0, 0, 0);
    floe_add_sphere(w, &bd, 0.05);
    w->batch_off = 1;
    return w;
}

static void test_bond_across(void) {
    floe_world *w1 = bond_world(1), *w2 = bond_world(0);
    double worst = 0, fmax_ = 0;
    for (int s = 0; s < 3000; s++) {
        CHECK(floe_step(w1) == FLOE_OK);
        CHECK(floe_step(w2) == FLOE_OK);
        if (floe_contact_count(w1) != 1 || floe_contact_count(w2) != 1) {
            CHECK(0);
            break;
        }
        floe_contact_info c1, c2;
        floe_contact_get(w1, 0, &c1);
        floe_contact_get(w2, 0, &c2);
        CHECK(c1.bonded && c2.bonded && c1.image[0] == 1);
        fmax_ = fmax(fmax_, fabs(c2.force.x));
        double d[6] = {c1.force.x - c2.force.x,   c1.force.y - c2.force.y,   c1.force.z - c2.force.z,
                       c1.torque.x - c2.torque.x, c1.torque.y - c2.torque.y, c1.torque.z - c2.torque.z};
        for (int k = 0; k < 6; k++) worst = fmax(worst, fabs(d[k]));
    }
    CHECK(fmax_ > 0);
    CHECK(worst <= 1e-10 * fmax_);
    REPORT("(g) Ice bond across a 2D cell's face: largest force difference %.3g of the peak bond force %.4g N\n",
           worst / fmax_, fmax_);
    floe_world_destroy(w1);
    floe_world_destroy(w2);
}

/* ---- (h) stress control ------------------------------------------------------------------------ */

static void test_servo(void) {
    const int n = 3;
    const double R = 0.01, P = 2e4;
    floe_world *w = lattice(n, R, 2 * R, 0.3);
    CHECK(floe_world_set_cell_servo(w, 3, -P, 1e-3, 10) == FLOE_ERR_ARG);
    CHECK(floe_world_set_cell_servo(w, 0, -P, -1, 10) == FLOE_ERR_ARG);
    for (int k = 0; k < 3; k++) CHECK(floe_world_set_cell_servo(w, k, -P, 2e-3, 20) == FLOE_OK);
    CHECK(floe_run(w, 60000) == FLOE_OK);
    double h[9], s[9];
    floe_world_get_cell(w, h, NULL);
    floe_region all = {V(0, 0, 0), V(1, 1, 1), 1};
    CHECK(floe_stress_tensor(w, &all, s) == FLOE_OK);
    floe_contact_info ci;
    floe_contact_get(w, 0, &ci);
    /* kn (2R - d) = P d^2: d = (-kn + sqrt(kn^2 + 8 R kn P)) / (2 P) */
    double kn = ci.kn, d = (-kn + sqrt(kn * kn + 8 * R * kn * P)) / (2 * P);
    for (int k = 0; k < 3; k++) {
        CHECK_REL(s[4 * k], -P, 1e-6);
        CHECK_REL(h[4 * k] / n, d, 1e-9);
    }
    REPORT("(h) servo to sigma = %g Pa: sigma = (%.8g, %.8g, %.8g) Pa, spacing %.10g m, closed form %.10g m\n", -P,
           s[0], s[4], s[8], h[0] / n, d);
    floe_world_destroy(w);
}

/* ---- (h2) the servo's rate --------------------------------------------------------------------- */

static void test_servo_rate(void) {
    const int n = 3;
    const double R = 0.01, delta = 1e-4, d = 2 * R - delta, P = 2e4, dt = 1e-6;
    /* overlapping lattice: one step's rate from the stress error */
    floe_world *w = lattice(n, R, d, 0);
    floe_cell_servo s = floe_default_cell_servo();
    s.stress = -P;
    s.max_rate = 1e6;
    CHECK(floe_world_set_cell_servo_def(w, 0, &s) == FLOE_OK);
    s.alpha = 1.5;
    CHECK(floe_world_set_cell_servo_def(w, 0, &s) == FLOE_ERR_ARG && strstr(floe_last_error(w), "alpha"));
    s.alpha = 0.5;
    s.max_rate = 0; /* no default: the pace from a loose state */
    CHECK(floe_world_set_cell_servo_def(w, 1, &s) == FLOE_ERR_ARG && strstr(floe_last_error(w), "max_rate"));
    CHECK(floe_step(w) == FLOE_OK);
    floe_contact_info ci;
    floe_contact_get(w, 0, &ci);
    double sigma = -ci.kn * delta / (d * d), K = ci.kn / d, want = 0.5 * (-P - sigma) / (K * dt);
    double got = w->cell.l[0];
    REPORT("(h2) servo without a gain, first step: L_xx = %.10g 1/s, alpha (target - sigma) / (K dt) = %.10g 1/s "
           "(sigma %.6g Pa, K %.6g Pa)\n",
           got, want, sigma, K);
    CHECK_REL(got, want, 1e-9);
    CHECK(w->cell.l[4] == 0 && w->cell.l[8] == 0); /* the other axes: no servo */
    floe_world_destroy(w);

    /* loose lattice (gaps of 1 mm): max_rate until the first contact */
    const double rate = 7, gap = 1e-3;
    w = lattice(n, R, 2 * R + gap, 0);
    s.max_rate = rate;
    for (int k = 0; k < 3; k++) CHECK(floe_world_set_cell_servo_def(w, k, &s) == FLOE_OK);
    const int N = 40; /* 1 - (1 - 7e-6)^40 of 0.063 m: 18 um of each 1 mm gap */
    CHECK(floe_run(w, N) == FLOE_OK);
    double h[9];
    floe_world_get_cell(w, h, NULL);
    double L0 = n * (2 * R + gap), Lw = L0 * pow(1 - rate * dt, N);
    REPORT("(h2) loose lattice, no gain: L_xx = %g 1/s (max_rate %g), cell %.15g m after %d steps, closed form "
           "%.15g m, %d contacts\n",
           w->cell.l[0], -rate, h[0], N, Lw, floe_contact_count(w));
    CHECK(w->cell.l[0] == -rate && w->cell.l[4] == -rate && w->cell.l[8] == -rate);
    CHECK(floe_contact_count(w) == 0);
    for (int k = 0; k < 3; k++) CHECK_REL(h[4 * k], Lw, 1e-12);
    floe_world_destroy(w);

    /* a fixed gain: a loose lattice moves at gain |target| */
    w = lattice(n, R, 2 * R + gap, 0);
    CHECK(floe_world_set_cell_servo(w, 0, -P, 1e-5, rate) == FLOE_OK);
    CHECK(floe_step(w) == FLOE_OK);
    REPORT("(h2) loose lattice, gain 1e-5 1/(Pa s): L_xx = %g 1/s = gain x target (max_rate %g)\n", w->cell.l[0], rate);
    CHECK_REL(w->cell.l[0], -1e-5 * P, 1e-12);
    floe_world_destroy(w);

    /* (h)'s lattice under the automatic gain: the same spacing */
    w = lattice(n, R, 2 * R, 0.3);
    s.max_rate = 20;
    for (int k = 0; k < 3; k++) CHECK(floe_world_set_cell_servo_def(w, k, &s) == FLOE_OK);
    CHECK(floe_run(w, 10000) == FLOE_OK);
    floe_world_get_cell(w, h, NULL);
    double st[9];
    floe_region all = {V(0, 0, 0), V(1, 1, 1), 1};
    CHECK(floe_stress_tensor(w, &all, st) == FLOE_OK);
    floe_contact_get(w, 0, &ci);
    double kn = ci.kn, dd = (-kn + sqrt(kn * kn + 8 * R * kn * P)) / (2 * P);
    REPORT("(h2) lattice under the automatic gain: sigma = (%.8g, %.8g, %.8g) Pa, spacing %.10g m, closed form "
           "%.10g m\n",
           st[0], st[4], st[8], h[0] / n, dd);
    for (int k = 0; k < 3; k++) {
        CHECK_REL(st[4 * k], -P, 1e-6);
        CHECK_REL(h[4 * k] / n, dd, 1e-9);
    }
    floe_world_destroy(w);
}

/* ---- (l) cell phases ---------------------------------------------------------------------------- */

static void test_cell_phases(void) {
    const int n = 3;
    const double R = 0.01, e = 5, gd = 20, T = 0.01, dt = 1e-6;
    floe_world *w = lattice(n, R, 2 * R + 1e-4, 0);
    floe_cell_phase p[2] = {floe_default_cell_phase(), floe_default_cell_phase()};
    for (int k = 0; k < 3; k++) p[0].velocity_gradient[4 * k] = -e;
    p[1].trigger = FLOE_CELL_AT_TIME;
    p[1].at = T;
    p[1].velocity_gradient[1] = gd;
    /* refusals, naming the phase and the value */
    p[1].velocity_gradient[2] = 2e6;
    CHECK(floe_world_set_cell_phases(w, p, 2) == FLOE_ERR_ARG &&
          strstr(floe_last_error(w), "phase 1: velocity_gradient[0][2] = 2e+06"));
    p[1].velocity_gradient[2] = 0;
    p[1].servo_axes = 2;
    CHECK(floe_world_set_cell_phases(w, p, 2) == FLOE_ERR_ARG && strstr(floe_last_error(w), "phase 1: y: max_rate"));
    p[1].servo_axes = 0;
    p[0].trigger = FLOE_CELL_AT_STRAIN;
    p[0].component = 9;
    CHECK(floe_world_set_cell_phases(w, p, 2) == FLOE_ERR_ARG && strstr(floe_last_error(w), "phase 0: component"));
    p[0].trigger = FLOE_CELL_AT_TIME;
    p[0].component = 0;
    CHECK(floe_world_set_cell_phases(w, p, 2) == FLOE_OK);
    CHECK(floe_start(w) == FLOE_OK);
    double l[9];
    floe_world_velocity_gradient(w, l);
    int ph0 = floe_world_cell_phase(w);
    CHECK(ph0 == 0 && l[0] == -e && l[4] == -e && l[8] == -e && l[1] == 0);
    /* the switch: at the first state whose summed time is >= T */
    int k1 = -1, want_k1 = -1;
    double t = 0;
    floe_world *copy = NULL;
    for (int s = 1; s <= 2 * 10000; s++) {
        if (s == 9000) { /* a snapshot before the switch */
            unsigned char *bytes = NULL;
            size_t len = 0;
            char err[512];
            CHECK(floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err) == 0);
            copy = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
            CHECK(copy != NULL);
            free(bytes);
        }
        CHECK(floe_step(w) == FLOE_OK);
        t += dt;
        if (want_k1 < 0 && t >= T) want_k1 = s;
        if (k1 < 0 && floe_world_cell_phase(w) == 1) k1 = s;
    }
    floe_world_velocity_gradient(w, l);
    CHECK(k1 == want_k1 && l[1] == gd && l[0] == 0 && l[4] == 0);
    double st[9], h[9];
    floe_world_cell_strain(w, st);
    floe_world_get_cell(w, h, NULL);
    const int N0 = k1, N1 = 20000 - k1;
    double s0 = pow(1 - e * dt, N0), t0 = N0 * dt, t1 = N1 * dt;
    double want[9] = {s0 - 1, s0 * N1 * dt * gd, 0, 0, s0 - 1, 0, 0, 0, s0 - 1};
    double worst = 0, worst_exp = 0, sx = exp(-e * t0);
    double wexp[9] = {sx - 1, sx * gd * t1, 0, 0, sx - 1, 0, 0, 0, sx - 1};
    for (int k = 0; k < 9; k++) {
        worst = fmax(worst, fabs(st[k] - want[k]));
        worst_exp = fmax(worst_exp, fabs(st[k] - wexp[k]));
    }
    REPORT("(l) cell phases: phase %d at step 0; shear from step %d (first state with t >= %g s: step %d); strain "
           "xx %.12g xy %.12g, steps' closed form %.12g %.12g (largest difference %.2g), exponentials %.12g %.12g "
           "(%.2g, e dt = %g); %d contacts\n",
           ph0, k1, T, want_k1, st[0], st[1], want[0], want[1], worst, wexp[0], wexp[1], worst_exp, e * dt,
           floe_contact_count(w));
    CHECK(worst < 1e-12);
    CHECK(worst_exp < 1e-5 && worst_exp > 0);
    CHECK(floe_contact_count(w) > 0); /* the compression brought the spheres together */
    if (copy) {
        CHECK(floe_world_cell_phase(copy) == 0);
        CHECK(floe_run(copy, 20000 - 8999) == FLOE_OK);
        char what[512] = "";
        int diff = floe__snapshot_diff(w, copy, what, sizeof what);
        CHECK(diff == 0 && floe_world_cell_phase(copy) == 1);
        if (diff) fprintf(stderr, "cell phases: restart differs: %s\n", what);
        REPORT("(l) snapshot at step 8999, run across the switch at step %d to 20000: %s\n", k1,
               diff ? "differs" : "bitwise the same");
        floe_world_destroy(copy);
    }
    floe_world_destroy(w);

    /* a pressure trigger: compressed until the cell's pressure reaches 1e4 Pa, then held */
    const double P = 1e4;
    w = lattice(n, R, 2 * R + 1e-4, 0);
    p[1] = floe_default_cell_phase();
    p[1].trigger = FLOE_CELL_AT_PRESSURE;
    p[1].at = P;
    CHECK(floe_world_set_cell_phases(w, p, 2) == FLOE_OK);
    double before = NAN, at_switch = NAN, prev = 0;
    for (int s = 0; s < 4000 && floe_world_cell_phase(w) < 1; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        double sg[9];
        floe_region all = {V(0, 0, 0), V(1, 1, 1), 1};
        floe_stress_tensor(w, &all, sg);
        double pr = -(sg[0] + sg[4] + sg[8]) / 3;
        if (floe_world_cell_phase(w) == 1) before = prev, at_switch = pr;
        prev = pr;
    }
    floe_world_velocity_gradient(w, l);
    REPORT("(l) pressure trigger at %g Pa: the cell's pressure %.6g Pa at the switch, %.6g Pa the state before; "
           "L_xx then %g\n",
           P, at_switch, before, l[0]);
    CHECK(at_switch >= P && before < P && l[0] == 0);
    floe_world_destroy(w);

    /* affine: two free spheres far apart, sheared from step 10 on */
    w = new_world(1, 1e-4);
    cube_cell(w, 0, 1);
    int m = floe_add_material(w, "m", "linear");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.pos = V(0.2, 0.3, 0.5);
    bd.vel = V(0.1, 0, 0);
    floe_add_sphere(w, &bd, 0.01);
    bd.pos = V(0.7, 0.8, 0.5);
    bd.vel = V(0, 0.05, 0);
    floe_add_sphere(w, &bd, 0.01);
    p[0] = floe_default_cell_phase();
    p[1] = floe_default_cell_phase();
    p[1].trigger = FLOE_CELL_AT_STEP;
    p[1].at = 10;
    p[1].velocity_gradient[1] = 2;
    p[1].affine = 1;
    CHECK(floe_world_set_cell_phases(w, p, 2) == FLOE_OK);
    CHECK(floe_run(w, 10) == FLOE_OK);
    const floe_vec3 *x = floe_positions(w), *v = floe_velocities(w);
    double en[FLOE_E_COUNT];
    floe_energy(w, en);
    double dv0 = v[0].x - 0.1 - 2 * x[0].y, dv1 = v[1].x - 2 * x[1].y;
    REPORT("(l) affine start of a shear phase: v_x - v0_x - gamma_dot y = %.3g, %.3g m/s; kinetic %.6g J, boundary "
           "%.6g J, balance error %.3g\n",
           dv0, dv1, en[FLOE_E_KINETIC], en[FLOE_E_BOUNDARY], en[FLOE_E_ERROR]);
    CHECK(floe_world_cell_phase(w) == 1 && fabs(dv0) < 1e-12 && fabs(dv1) < 1e-12 && v[1].y == 0.05);
    CHECK(en[FLOE_E_BOUNDARY] > 0 && fabs(en[FLOE_E_ERROR]) < 1e-12);
    floe_world_destroy(w);
}

/* ---- (i) a floor under a periodic cell ------------------------------------------------------------ */

static void test_floor(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-5;
    def.threads = 1;
    def.gravity = V(0, 0, -9.81);
    def.damping = 0.5;
    floe_world *w = floe_world_create(&def);
    CHECK(floe_world_set_periodic(w, 0, 0, 1) == FLOE_OK);
    CHECK(floe_world_set_periodic(w, 1, 0, 1) == FLOE_OK);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0); /* frictionless: it slides on */
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    CHECK(floe_add_wall(w, &bd, 2, 1) >= 0); /* the floor z = 0, normal up: along no periodic axis */
    bd.pos = V(0.9, 0.95, 0.05);
    bd.vel = V(3, 2, 0);
    int s = floe_add_sphere(w, &bd, 0.05);
    CHECK(floe_run(w, 50000) == FLOE_OK); /* 0.5 s: 2 crossings in x, 1 in y */
    int n[3];
    floe_particle_wraps(w, s, n);
    CHECK(n[0] == 2 && n[1] == 1);
    CHECK(floe_contact_count(w) == 1);
    floe_contact_info ci;
    floe_contact_get(w, 0, &ci);
    CHECK(ci.image[0] == 0 && ci.image[1] == 0 && ci.image[2] == 0);
    double weight = floe_masses(w)[s] * 9.81;
    REPORT("(i) floor under a periodic cell: wraps (%d, %d), contact force %.10g N, weight %.10g N\n", n[0], n[1],
           -ci.force.x, weight);
    CHECK_REL(fabs(ci.force.x), weight, 1e-6);
    CHECK_NEAR(floe_velocities(w)[s].x, 3, 1e-12); /* no friction: the slide goes on */
    floe_world_destroy(w);
}

/* ---- (j) a spinning contact through a wrap ------------------------------------------------------ */

/* Who crosses a face of the cell [-0.05, 0.05)^3 during the contact. */
enum { WRAP_A, WRAP_B, WRAP_BOTH, WRAP_FLOOR };
static const char *const wrap_name[] = {"A", "B", "A and B", "B on a floor"};

static floe_vec3 Va(const double x[3]) { return (floe_vec3){x[0], x[1], x[2]}; }

/* Two spheres (r = 0.01 m, frictional Linear, both spinning) in contact
 * about along the axis `axis`. WRAP_A: A just below the face +axis moves
 * through it, into B's image (B itself near the opposite face); WRAP_B: B
 * just above the face -axis moves out through it, A following slowly (the
 * contact goes from B's image to B itself); WRAP_BOTH: A and B side by
 * side across the axis cross the face +axis in the same step (B's image
 * stays B itself); WRAP_FLOOR: a sphere B rolling and sliding on a floor
 * z = 0 (a wall, A; the cell periodic in x and y only) through the face
 * +axis. inside: the same pair shifted half a cell along the axis, B's copy
 * moving with the velocity of the image A touches: no wrap, no image. L:
 * simple shear L_xy = gdot. */
static floe_world *spin_pair(int axis, int who, int inside, double gdot, int threads, int batch) {
    const double r = 0.01, half = 0.05, d = 2 * r - 2e-5, e = 2e-5; /* centre distance (overlap e); e from a face */
    floe_world *w = new_world(threads, 5e-6);
    for (int k = 0; k < (who == WRAP_FLOOR ? 2 : 3); k++) CHECK(floe_world_set_periodic(w, k, -half, half) == FLOE_OK);
    double l[9] = {0, gdot, 0, 0, 0, 0, 0, 0, 0};
    CHECK(floe_world_set_velocity_gradient(w, l) == FLOE_OK);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0.5);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    const int q = (axis + 1) % 3;               /* an axis across */
    const double tilt[3] = {0.11, -0.07, 0.09}; /* the normal off the axis */
    double xa[3] = {0.003, -0.002, 0.001}, xb[3], va[3], vb[3], off[3] = {0, 0, 0}, n[3];
    double wa[3] = {4, -6, 30}, wb[3] = {-3, 20, -8}; /* spins */
    int across = 0; /* B itself sits `across` cell vectors along the axis from the image A touches */
    if (who == WRAP_A || who == WRAP_B) {
        double ln = 0;
        for (int k = 0; k < 3; k++) ln += pow((n[k] = (k == axis) + tilt[k] * (k != axis)), 2);
        xa[axis] = who == WRAP_A ? half - e : half + e - d * (n[axis] / sqrt(ln));
        for (int k = 0; k < 3; k++) {
            n[k] /= sqrt(ln);
            xb[k] = xa[k] + d * n[k];
            /* A into B's image; or B out of the cell into A */
            va[k] = who == WRAP_A ? (k == axis) + 0.1 * tilt[(k + 1) % 3] : -0.3 * (k == axis);
            vb[k] = who == WRAP_A ? 0.5 * tilt[(k + 2) % 3] : -0.5 * (k == axis) + 0.1 * (k == q);
            off[k] = -half * (k == axis);
        }
        across = -1;
    } else if (who == WRAP_BOTH) {
        xa[axis] = half - e;
        /* spins about the normal q, opposite: no sliding, and the frame
         * does not turn about the normal, so both bodies move alike along
         * the axis, bit for bit, and wrap in the same step (the spin across
         * the axis is what a point left behind by a cell vector turns into
         * sliding) */
        for (int k = 0; k < 3; k++) wa[k] = -(wb[k] = 30.0 * (k == q));
        for (int k = 0; k < 3; k++) {
            xb[k] = xa[k] + d * (k == q); /* the same coordinate along the axis */
            va[k] = (k == axis);
            vb[k] = va[k] - 0.3 * (k == q);
            off[k] = -half * (k == axis);
        }
    } else {
        for (int k = 0; k < 3; k++) {
            xb[k] = k == axis ? half - e : k == 2 ? r - e : xa[k];
            vb[k] = (k == axis) - 0.05 * (k == 2);
            wb[k] = k == 2 ? 7 : (k == 0 ? 40 : -40) * (k != axis); /* rolling faster than it slides */
            off[k] = -half * (k == axis);
        }
    }
    if (who == WRAP_FLOOR) {
        CHECK(floe_add_wall(w, &bd, 2, 1) == 0); /* the floor is A */
    } else {
        double x[3];
        for (int k = 0; k < 3; k++) x[k] = xa[k] + (inside ? off[k] : 0);
        bd.pos = Va(x);
        bd.vel = Va(va);
        bd.angvel = Va(wa);
        CHECK(floe_add_sphere(w, &bd, r) == 0);
    }
    double x[3], v[3];
    for (int k = 0; k < 3; k++) {
        x[k] = inside ? xb[k] + off[k] : xb[k] + across * 2 * half * (k == axis);
        /* the body moves at the image's velocity less L H s, s = -across
         * along the axis: L H s = gdot H_yy s_y along x */
        v[k] = vb[k] + (inside || k != 0 || axis != 1 ? 0 : across * gdot * 2 * half);
    }
    bd.pos = Va(x);
    bd.vel = Va(v);
    bd.angvel = Va(wb);
    CHECK(floe_add_sphere(w, &bd, r) == 1);
    w->batch_off = !batch;
    return w;
}

/* Runs the pair across and the pair inside for `steps`; returns the largest
 * difference of the forces and torques on A and B (torques over the
 * radius) relative to the force's magnitude; *wrapped: the step at which a
 * body first wrapped (-1: none), *jump: the difference at that step. */
static double spin_pair_diff(int axis, int who, double gdot, int batch, int steps, int *wrapped, double *jump) {
    floe_world *w[2] = {spin_pair(axis, who, 0, gdot, 1, batch), spin_pair(axis, who, 1, gdot, 1, batch)};
    double worst = 0, peak = 0;
    *wrapped = -1;
    *jump = 0;
    int contact = 0;
    for (int s = 1; s <= steps; s++) {
        CHECK(floe_step(w[0]) == FLOE_OK);
        CHECK(floe_step(w[1]) == FLOE_OK);
        int n0[3], n1[3];
        floe_particle_wraps(w[0], 0, n0);
        floe_particle_wraps(w[0], 1, n1);
        int now = n0[0] | n0[1] | n0[2] | n1[0] | n1[1] | n1[2];
        if (floe_contact_count(w[0]) != 1 || floe_contact_count(w[1]) != 1) {
            CHECK(floe_contact_count(w[0]) == floe_contact_count(w[1]));
            break;
        }
        contact++;
        double g[2][12];
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) {
                floe_vec3 f = floe_forces(w[j])[i], t = floe_torques(w[j])[i];
                double *o = &g[j][6 * i];
                o[0] = f.x, o[1] = f.y, o[2] = f.z, o[3] = t.x / 0.01, o[4] = t.y / 0.01, o[5] = t.z / 0.01;
            }
        peak = fmax(peak, sqrt(g[1][6] * g[1][6] + g[1][7] * g[1][7] + g[1][8] * g[1][8]));
        double diff = 0;
        /* a wall's torque is about its own reference point: the copy's contact lies elsewhere on it */
        for (int k = who == WRAP_FLOOR ? 6 : 0; k < 12; k++) diff = fmax(diff, fabs(g[0][k] - g[1][k]) / peak);
        if (now && *wrapped < 0) {
            *wrapped = s;
            *jump = diff;
        }
        worst = fmax(worst, diff);
    }
    CHECK(contact > 40);
    floe_world_destroy(w[0]);
    floe_world_destroy(w[1]);
    return worst;
}

static void test_spin_wrap(void) {
    double worst = 0;
    for (int who = WRAP_A; who <= WRAP_FLOOR; who++)
        for (int axis = 0; axis < (who == WRAP_FLOOR ? 2 : 3); axis++)
            for (int sheared = 0; sheared < 2; sheared++)
                for (int batch = 0; batch < 2; batch++) {
                    /* a floor does not ride with the sheared images: a sphere
                     * crossing the y face of a sheared cell changes its
                     * velocity over the floor by L H e_y (Lees-Edwards) */
                    if (who == WRAP_FLOOR && sheared && axis == 1) continue;
                    int at;
                    double jump, diff = spin_pair_diff(axis, who, sheared ? 2.0 : 0, batch, 200, &at, &jump);
                    REPORT("(j) %s through the %c face%s%s: wrap at step %d, force difference there %.3g, largest "
                           "%.3g relative\n",
                           wrap_name[who], "xyz"[axis], sheared ? ", sheared cell" : "", batch ? ", batch" : "", at,
                           jump, diff);
                    CHECK(at > 0);
                    worst = fmax(worst, diff);
                }
    REPORT("(j) largest force difference %.3g relative\n", worst);
    CHECK(worst <= 1e-12);
    /* A and B crossing together keep B itself (no image): the batch's contact */
    floe_world *w = spin_pair(1, WRAP_BOTH, 0, 2.0, 1, 1);
    int both = 0;
    for (int s = 0; s < 10; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        int n0[3], n1[3];
        floe_particle_wraps(w, 0, n0);
        floe_particle_wraps(w, 1, n1);
        CHECK(n0[1] == n1[1]);
        both |= n0[1] != 0;
    }
    floe_contact_info ci;
    CHECK(floe_contact_get(w, 0, &ci) == FLOE_OK);
    CHECK(both && ci.image[0] == 0 && ci.image[1] == 0 && ci.image[2] == 0);
    floe_world_destroy(w);
    /* threads: a wrap across a sheared face, bitwise as on one thread */
    floe_world *t[2] = {spin_pair(1, WRAP_A, 0, 2.0, 1, 1), spin_pair(1, WRAP_A, 0, 2.0, 2, 1)};
    CHECK(floe_run(t[0], 60) == FLOE_OK && floe_run(t[1], 60) == FLOE_OK);
    CHECK(!memcmp(floe_forces(t[0]), floe_forces(t[1]), 2 * sizeof(floe_vec3)) &&
          !memcmp(floe_torques(t[0]), floe_torques(t[1]), 2 * sizeof(floe_vec3)));
    floe_world_destroy(t[0]);
    floe_world_destroy(t[1]);
}

/* ---- (k) a spinning sphere through the face and back ------------------------------------ */

/* A (r = 0.01 m) at x = 0.0499 m, moving at 1 m/s along +x and spinning at
 * 30 rad/s about z, against B's image across the face x = 0.05 of the cell
 * [-0.05, 0.05) periodic in x (B held fixed, overlap 1.4e-5 m; inside: the pair
 * shifted by -0.05 m). A passes the face, bounces off B's image and passes
 * it again on its way back. */
static floe_world *spin_repro(int inside) {
    const double r = 0.01, xa = 0.0499, xb = xa + 2 * r - 2e-5;
    floe_world *w = new_world(1, 5e-6);
    CHECK(floe_world_set_periodic(w, 0, -0.05, 0.05) == FLOE_OK);
    int m = floe_add_material(w, "m", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0.5);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.pos = V(inside ? xa - 0.05 : xa, 0, 0);
    bd.vel = V(1, 0, 0);
    bd.angvel = V(0, 0, 30);
    CHECK(floe_add_sphere(w, &bd, r) == 0);
    bd.pos = V(inside ? xb - 0.05 : xb - 0.1, 0.0005, 0);
    bd.vel = bd.angvel = V(0, 0, 0);
    bd.blocked = FLOE_DOF_ALL;
    CHECK(floe_add_sphere(w, &bd, r) == 1);
    return w;
}

static void test_spin_repro(void) {
    floe_world *w[2] = {spin_repro(0), spin_repro(1)};
    int wraps = 0, last = 0;
    double worst = 0, peak = 0;
    for (int s = 1; s <= 400; s++) {
        CHECK(floe_step(w[0]) == FLOE_OK && floe_step(w[1]) == FLOE_OK);
        CHECK(floe_contact_count(w[0]) == floe_contact_count(w[1]));
        if (floe_contact_count(w[0]) != 1 || floe_contact_count(w[1]) != 1) break;
        floe_contact_info c[2];
        floe_contact_get(w[0], 0, &c[0]);
        floe_contact_get(w[1], 0, &c[1]);
        peak = fmax(peak, fabs(c[1].force.x));
        worst = fmax(worst, fmax(fabs(c[0].force.y - c[1].force.y), fabs(c[0].force.z - c[1].force.z)));
        int n[3];
        floe_particle_wraps(w[0], 0, n);
        if (n[0] != last) {
            REPORT("(k) A wraps (x %+d) at step %d: shear force ft.y %.4f N, the pair inside %.4f N\n", n[0] - last, s,
                   c[0].force.y, c[1].force.y);
            CHECK_NEAR(c[0].force.y, c[1].force.y, 1e-12 * peak);
            last = n[0];
            wraps++;
        }
    }
    REPORT("(k) %d wraps, largest shear force difference %.3g of the peak normal force %.4g N\n", wraps, worst / peak,
           peak);
    CHECK(wraps == 2);
    CHECK(worst <= 1e-12 * peak);
    floe_world_destroy(w[0]);
    floe_world_destroy(w[1]);
}

/* ---- refusals ------------------------------------------------------------------------------ */

static void test_refusals(void) {
    floe_world *w = new_world(1, 1e-4);
    CHECK(floe_world_set_periodic(w, 3, 0, 1) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "axis = 3"));
    CHECK(floe_world_set_periodic(w, 0, 1, 1) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "lo < hi"));
    CHECK(floe_world_set_periodic(w, 0, 0, NAN) == FLOE_ERR_ARG);
    double l[9] = {0, 1, 0, 0, 0, 0, 0, 0, 0};
    CHECK(floe_world_set_velocity_gradient(w, l) == FLOE_ERR_ARG); /* no axis periodic yet */
    CHECK(strstr(floe_last_error(w), "needs both x and y periodic"));
    CHECK(floe_world_set_periodic(w, 0, 0, 1) == FLOE_OK);
    int m = floe_add_material(w, "m", "linear");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_wall(w, &bd, 0, 0);
    bd.pos = V(0.5, 0, 0);
    floe_add_sphere(w, &bd, 0.05);
    CHECK(floe_start(w) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "normal to the periodic axis x"));
    floe_world_destroy(w);

    w = new_world(1, 1e-4);
    CHECK(floe_world_set_periodic(w, 1, 0, 1) == FLOE_OK);
    bd.material = floe_add_material(w, "m", "linear");
    bd.pos = V(0, 0.5, 0);
    floe_add_wall(w, &bd, 0, 0); /* normal x: fine with y periodic */
    bd.pos = V(0.5, 0.5, 0);
    floe_add_sphere(w, &bd, 0.3); /* 2 x 0.3 + skin > 1/2 */
    CHECK(floe_start(w) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "wide across axis y"));
    floe_world_destroy(w);

    floe_world_def def = floe_default_world_def();
    def.dimension = 2;
    w = floe_world_create(&def);
    CHECK(floe_world_set_periodic(w, 2, 0, 1) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "z cannot be periodic"));
    floe_world_destroy(w);
}

int main(void) {
    test_refusals();
    test_pair_across();
    test_lattice();
    test_crossing();
    test_shear();
    test_restart_threads();
    test_bond_across();
    test_servo();
    test_servo_rate();
    test_cell_phases();
    test_floor();
    test_spin_wrap();
    test_spin_repro();
    return check_failures ? 1 : 0;
}
