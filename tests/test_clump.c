/* Clumps in motion (docs/clumps.md): a rigid union of spheres whose pebbles
 * make its contacts and whose body carries mass, inertia and motion.
 *
 * 1. Free tumbling of a three-pebble clump (three distinct principal
 *    moments) spun about its intermediate axis with a small perturbation:
 *    angular momentum kept to rounding (the integrator keeps L and turns
 *    the orientation by it), kinetic energy to 1e-6 relative (implicit
 *    midpoint rotation: bounded, O(dt^2)), the pebbles rigidly placed, and
 *    the intermediate-axis flip (body omega_y changing sign) when the
 *    torque-free Euler equations, integrated here by RK4 at dt/10 from the
 *    same moments, say: the first two sign changes within 1 % of the flip
 *    time.
 * 2. A tripod clump (three equal pebbles, symmetric about the xz plane)
 *    on a floor with gravity tilted by theta, Linear contacts with
 *    tan_phi = mu = 0.5: at theta = 20 deg (tan 0.36 < mu) it stays (speed
 *    below 1e-6 m/s, creep below 1e-6 m after settling); at 35 deg it
 *    slides at g (sin theta - mu cos theta) = 1.609 m/s^2, to 1e-3. A sphere
 *    of the pebbles' size at 20 deg rolls at 5/7 g sin theta (to 1e-3),
 *    which no clump resting on three pebbles can.
 * 3. A clump against a sphere and against another clump, no gravity:
 *    linear momentum kept to 1e-12 of the initial, angular momentum about
 *    the origin to 1e-6 (leapfrog with friction at contact points).
 * 4. A pile of clumps falling into a box: 1 thread and 2 threads give the
 *    same positions bit for bit; a copy made through the snapshot's byte
 *    form halfway resumes bit for bit.
 * 5. Removal takes a clump with its pebbles and refuses a pebble alone;
 *    bad pebble lists are refused with the pebble named.
 * 6. Soft-bond bonds between the facing pebbles of two clumps (none within
 *    a clump: its pebbles never form a pair); pulling one clump away drags
 *    the other, momentum kept to 1e-12. */
#include "check.h"

#include <floe/floe.h>
#include <floe/floe_snapshot.h>

#include <string.h>

typedef floe_vec3 V;
typedef floe_quat Q;

static V add(V a, V b) { return (V){a.x + b.x, a.y + b.y, a.z + b.z}; }
static V sub(V a, V b) { return (V){a.x - b.x, a.y - b.y, a.z - b.z}; }
static V scl(V a, double s) { return (V){a.x * s, a.y * s, a.z * s}; }
static double dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static V crs(V a, V b) { return (V){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static double len(V a) { return sqrt(dot(a, a)); }
static V rot(Q q, V v) { /* q v q* */
    V u = {q.x, q.y, q.z};
    V t = scl(crs(u, v), 2);
    return add(add(v, scl(t, q.w)), crs(u, t));
}
static Q qconj_(Q q) { return (Q){q.w, -q.x, -q.y, -q.z}; }

static floe_world *world(double dt, V g, int threads) {
    floe_world_def wd = floe_default_world_def();
    wd.dt = dt;
    wd.gravity = g;
    wd.threads = threads;
    wd.damping = 0;
    return floe_world_create(&wd);
}

static int material(floe_world *w, double mu, double dp) {
    int m = floe_add_material(w, "rock", "linear");
    CHECK(floe_material_set(w, m, "density", 2000) == FLOE_OK);
    CHECK(floe_material_set(w, m, "young", 1e7) == FLOE_OK);
    CHECK(floe_material_set(w, m, "tan_phi", mu) == FLOE_OK);
    CHECK(floe_model_set(w, "linear", "dp_nratio", dp) == FLOE_OK);
    return m;
}

/* ---- 1. free tumbling ------------------------------------------------------------ */

/* torque-free Euler equations in the body frame */
static V euler_rhs(V I, V w) {
    return (V){(I.y - I.z) * w.y * w.z / I.x, (I.z - I.x) * w.z * w.x / I.y, (I.x - I.y) * w.x * w.y / I.z};
}
static V rk4(V I, V w, double h) {
    V k1 = euler_rhs(I, w), k2 = euler_rhs(I, add(w, scl(k1, h / 2))), k3 = euler_rhs(I, add(w, scl(k2, h / 2))),
      k4 = euler_rhs(I, add(w, scl(k3, h)));
    return add(w, scl(add(add(k1, k4), scl(add(k2, k3), 2)), h / 6));
}

static void test_tumbling(void) {
    const double dt = 1e-3;
    floe_world *w = world(dt, (V){0, 0, 0}, 1);
    int m = material(w, 0.5, 0);
    floe_body_def d = floe_default_body_def();
    d.material = m;
    d.pos = (V){1, 2, 3};
    const double peb[12] = {0, 0, 0, 0.1, 0.13, 0, 0, 0.08, 0, 0.08, 0.01, 0.06};
    int c = floe_add_clump(w, &d, 3, peb);
    CHECK(c == 0 && floe_particle_count(w) == 4);
    V I = floe_inertia(w)[c];
    CHECK(I.x < I.y && I.y < I.z); /* ascending principal moments, three distinct */
    REPORT("tumbling clump: principal moments %.6g %.6g %.6g kg m^2\n", I.x, I.y, I.z);
    const double Om = 10, eps = 0.05 * Om;
    Q q0 = floe_orientations(w)[c];
    V wb0 = {eps, Om, eps};
    CHECK(floe_set_angular_velocity(w, c, rot(q0, wb0)) == FLOE_OK);
    /* the pebbles' separations, kept by a rigid body */
    double sep01 = len(sub(floe_positions(w)[2], floe_positions(w)[1]));
    double L0n = 0, E0 = 0, dL = 0, dE = 0, rigid = 0;
    V L0 = {0, 0, 0};
    double flip[2] = {0, 0};
    int nflip = 0, prev = 1;
    const int nsteps = 6000;
    for (int s = 1; s <= nsteps; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        Q q = floe_orientations(w)[c];
        V om = floe_angular_velocities(w)[c], wb = rot(qconj_(q), om);
        V L = rot(q, (V){I.x * wb.x, I.y * wb.y, I.z * wb.z});
        double E = 0.5 * dot(om, L);
        if (s == 1) {
            L0 = L;
            L0n = len(L);
            E0 = E;
        }
        dL = fmax(dL, len(sub(L, L0)) / L0n);
        dE = fmax(dE, fabs(E - E0) / E0);
        rigid = fmax(rigid, fabs(len(sub(floe_positions(w)[2], floe_positions(w)[1])) - sep01));
        int sg = wb.y > 0;
        if (sg != prev && nflip < 2) flip[nflip++] = (s - 0.5) * dt; /* omega at half steps */
        prev = sg;
    }
    /* the same spin by RK4 on Euler's equations, from omega at t = dt/2 */
    double ref[2] = {0, 0};
    int nref = 0, rprev = 1;
    V wb = wb0;
    const double h = dt / 10;
    for (int s = 1; s <= nsteps * 10 && nref < 2; s++) {
        wb = rk4(I, wb, h);
        int sg = wb.y > 0;
        if (sg != rprev) ref[nref++] = s * h;
        rprev = sg;
    }
    REPORT("tumbling, %d steps of %g s: |L - L0|/|L0| <= %.2e, |E - E0|/E0 <= %.2e, pebble separation kept to "
           "%.2e m; omega_y flips at %.4f s and %.4f s (RK4 on Euler's equations: %.4f s and %.4f s)\n",
           nsteps, dt, dL, dE, rigid, flip[0], flip[1], ref[0], ref[1]);
    CHECK(dL < 1e-12);
    CHECK(dE < 1e-6);
    CHECK(rigid < 1e-12);
    CHECK(nflip == 2 && nref == 2);
    CHECK_NEAR(flip[0], ref[0], 0.01 * ref[0]);
    CHECK_NEAR(flip[1], ref[1], 0.01 * ref[0]);
    floe_world_destroy(w);
}

/* ---- 2. the incline ------------------------------------------------------------- */

/* Returns the clump's speed along x at the end; *acc the mean acceleration
 * over the last half, *creep the displacement over it. */
static double incline(double theta_deg, double mu, double *acc, double *creep) {
    const double th = theta_deg * 3.14159265358979323846 / 180, g = 9.81;
    floe_world *w = world(0, (V){g * sin(th), 0, -g * cos(th)}, 1);
    int m = material(w, mu, 0.5);
    floe_body_def d = floe_default_body_def();
    d.material = m;
    CHECK(floe_add_wall(w, &d, 2, 1) == 0);
    const double r = 0.05, a = 0.06, z = r - 2e-5; /* pebbles just sunk into the floor */
    const double peb[12] = {a, 0, z, r, -a / 2, a * 0.8660254037844386, z, r, -a / 2, -a * 0.8660254037844386, z, r};
    int c = floe_add_clump(w, &d, 3, peb);
    CHECK(c == 1);
    CHECK(floe_start(w) == FLOE_OK);
    const double dt = floe_dt(w);
    const int half = (int)(0.25 / dt);
    for (int s = 0; s < half; s++) CHECK(floe_step(w) == FLOE_OK);
    double v1 = floe_velocities(w)[c].x, x1 = floe_positions(w)[c].x;
    for (int s = 0; s < half; s++) CHECK(floe_step(w) == FLOE_OK);
    double v2 = floe_velocities(w)[c].x, x2 = floe_positions(w)[c].x;
    *acc = (v2 - v1) / (half * dt);
    *creep = x2 - x1;
    CHECK(floe_contact_count(w) == 3);
    floe_world_destroy(w);
    return v2;
}

/* A sphere of the pebbles' size on the same floor rolls without slipping
 * (mu = 0.5 > 2/7 tan theta): a = 5/7 g sin theta; its acceleration over
 * the second 0.25 s. */
static double rolling_sphere(double theta_deg, double mu) {
    const double th = theta_deg * 3.14159265358979323846 / 180, g = 9.81;
    floe_world *w = world(0, (V){g * sin(th), 0, -g * cos(th)}, 1);
    int m = material(w, mu, 0.5);
    floe_body_def d = floe_default_body_def();
    d.material = m;
    CHECK(floe_add_wall(w, &d, 2, 1) == 0);
    d.pos = (V){0, 0, 0.05 - 2e-5};
    int s = floe_add_sphere(w, &d, 0.05);
    CHECK(floe_start(w) == FLOE_OK);
    const int half = (int)(0.25 / floe_dt(w));
    for (int k = 0; k < half; k++) CHECK(floe_step(w) == FLOE_OK);
    double v1 = floe_velocities(w)[s].x;
    for (int k = 0; k < half; k++) CHECK(floe_step(w) == FLOE_OK);
    double a = (floe_velocities(w)[s].x - v1) / (half * floe_dt(w));
    floe_world_destroy(w);
    return a;
}

static void test_incline(void) {
    const double mu = 0.5, g = 9.81;
    double acc, creep;
    double v = incline(20, mu, &acc, &creep);
    REPORT("incline 20 deg (tan %.3f < mu %.1f): speed %.2e m/s, creep over 0.25 s %.2e m\n",
           tan(20 * 3.14159265358979323846 / 180), mu, v, creep);
    CHECK(fabs(v) < 1e-6 && fabs(creep) < 1e-6);
    /* a sphere there rolls: what makes heaps of spheres spread and heaps of clumps stand */
    double roll = rolling_sphere(20, mu), want_roll = 5.0 / 7.0 * g * sin(20 * 3.14159265358979323846 / 180);
    REPORT("a sphere on the same slope rolls at %.6f m/s^2, 5/7 g sin theta = %.6f m/s^2\n", roll, want_roll);
    CHECK_REL(roll, want_roll, 1e-3);
    v = incline(35, mu, &acc, &creep);
    const double th = 35 * 3.14159265358979323846 / 180, want = g * (sin(th) - mu * cos(th));
    REPORT("incline 35 deg: slides at %.6f m/s^2, g (sin - mu cos) = %.6f m/s^2 (rel %.1e)\n", acc, want,
           fabs(acc - want) / want);
    CHECK_REL(acc, want, 1e-3);
}

/* ---- 3. collisions keep momentum ------------------------------------------------- */

static void momenta(floe_world *w, V *p, V *L) {
    *p = *L = (V){0, 0, 0};
    const int n = floe_particle_count(w);
    for (int i = 0; i < n; i++) {
        double m = floe_masses(w)[i];
        V x = floe_positions(w)[i], v = floe_velocities(w)[i], I = floe_inertia(w)[i];
        if (!(m > 0)) continue; /* pebbles: their clump carries them */
        Q q = floe_orientations(w)[i];
        V wb = rot(qconj_(q), floe_angular_velocities(w)[i]);
        *p = add(*p, scl(v, m));
        *L = add(*L, add(scl(crs(x, v), m), rot(q, (V){I.x * wb.x, I.y * wb.y, I.z * wb.z})));
    }
}

static void test_collisions(void) {
    for (int other = 0; other < 2; other++) {
        floe_world *w = world(2e-5, (V){0, 0, 0}, 1);
        int m = material(w, 0.4, 0);
        floe_body_def d = floe_default_body_def();
        d.material = m;
        const double peb[12] = {0, 0, 0, 0.05, 0.06, 0, 0, 0.04, 0, 0.05, 0.02, 0.03};
        d.pos = (V){0, 0, 0};
        d.vel = (V){1, 0.1, 0};
        d.angvel = (V){0, 0, 3};
        CHECK(floe_add_clump(w, &d, 3, peb) >= 0);
        d.pos = (V){0.2, 0.03, 0.01};
        d.vel = (V){-0.5, 0, 0};
        d.angvel = (V){1, 0, 0};
        if (other) CHECK(floe_add_clump(w, &d, 3, peb) >= 0);
        else CHECK(floe_add_sphere(w, &d, 0.05) >= 0);
        V p0, L0, p, L;
        CHECK(floe_start(w) == FLOE_OK);
        momenta(w, &p0, &L0);
        int touched = 0;
        double dp = 0, dl = 0;
        for (int s = 0; s < 8000; s++) {
            CHECK(floe_step(w) == FLOE_OK);
            touched = touched > floe_contact_count(w) ? touched : floe_contact_count(w);
            momenta(w, &p, &L);
            dp = fmax(dp, len(sub(p, p0)) / len(p0));
            dl = fmax(dl, len(sub(L, L0)) / len(L0));
        }
        REPORT("clump against %s: up to %d contacts; momentum kept to %.1e, angular momentum to %.1e\n",
               other ? "a clump" : "a sphere", touched, dp, dl);
        CHECK(touched >= 1);
        CHECK(dp < 1e-12);
        CHECK(dl < 1e-6);
        floe_world_destroy(w);
    }
}

/* ---- 4. threads and restarts ------------------------------------------------------ */

static floe_world *pile(int threads) {
    floe_world *w = world(0, (V){0, 0, -9.81}, threads);
    int m = material(w, 0.5, 0.3);
    CHECK(floe_material_set(w, m, "young", 1e6) == FLOE_OK); /* soft: a longer step */
    floe_body_def d = floe_default_body_def();
    d.material = m;
    CHECK(floe_add_wall(w, &d, 2, 1) >= 0);
    CHECK(floe_add_wall(w, &d, 0, 1) >= 0);
    CHECK(floe_add_wall(w, &d, 1, 1) >= 0);
    d.pos = (V){1.2, 0, 0};
    CHECK(floe_add_wall(w, &d, 0, -1) >= 0);
    d.pos = (V){0, 1.2, 0};
    CHECK(floe_add_wall(w, &d, 1, -1) >= 0);
    uint64_t s = 5;
    for (int k = 0; k < 360; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(s >> 11) * 0x1p-53;
        d.pos = (V){0.1 + 0.2 * (k % 6), 0.1 + 0.2 * ((k / 6) % 6), 0.06 + 0.14 * (k / 36)};
        d.ori = (Q){cos(u * 3), sin(u * 3) * 0.6, sin(u * 3) * 0.8, 0};
        d.vel = (V){u - 0.5, 0.5 - u, -0.5};
        const double peb[12] = {0, 0, 0, 0.05, 0.05, 0, 0, 0.045, 0, 0.05, 0.02, 0.03}; /* one template */
        CHECK(floe_add_clump(w, &d, 3, peb) >= 0);
    }
    return w;
}

static int same(floe_world *a, floe_world *b) {
    int n = floe_particle_count(a);
    return n == floe_particle_count(b) && !memcmp(floe_positions(a), floe_positions(b), sizeof(V) * (size_t)n) &&
           !memcmp(floe_velocities(a), floe_velocities(b), sizeof(V) * (size_t)n) &&
           !memcmp(floe_orientations(a), floe_orientations(b), sizeof(Q) * (size_t)n);
}

static void test_threads_restart(void) {
    floe_world *a = pile(1), *b = pile(2);
    for (int s = 0; s < 150; s++) {
        CHECK(floe_step(a) == FLOE_OK);
        CHECK(floe_step(b) == FLOE_OK);
    }
    unsigned char *bytes = NULL;
    size_t nb = 0;
    char err[256];
    CHECK(floe_snapshot_to_bytes(a, &bytes, &nb, err, sizeof err) == 0);
    floe_world *c = floe_snapshot_from_bytes(bytes, nb, err, sizeof err);
    CHECK(c != NULL);
    free(bytes);
    int ok = 1;
    for (int s = 0; s < 250 && ok; s++) {
        ok = floe_step(a) == FLOE_OK && floe_step(b) == FLOE_OK && (!c || floe_step(c) == FLOE_OK);
        if (!ok) fprintf(stderr, "step %d: %s | %s\n", s, floe_last_error(a), floe_last_error(b));
    }
    CHECK(ok);
    int threads = same(a, b), resumed = c && same(a, c);
    REPORT("pile of 360 clumps (1440 particles), 400 steps: %d contacts; 1 thread = 2 threads bitwise: %s; resumed "
           "from the byte form at step 150: bitwise: %s\n",
           floe_contact_count(a), threads ? "yes" : "no", resumed ? "yes" : "no");
    CHECK(threads && resumed);
    CHECK(floe_contact_count(a) > 50);
    floe_world_destroy(a);
    floe_world_destroy(b);
    if (c) floe_world_destroy(c);
}

/* ---- 5. removal and bad input ------------------------------------------------------ */

static void test_removal(void) {
    floe_world *w = world(1e-5, (V){0, 0, -9.81}, 1);
    int m = material(w, 0.5, 0);
    floe_body_def d = floe_default_body_def();
    d.material = m;
    const double peb[8] = {0, 0, 0, 0.05, 0.06, 0, 0, 0.04};
    int a = floe_add_clump(w, &d, 2, peb);
    d.pos = (V){1, 0, 0};
    int b = floe_add_clump(w, &d, 2, peb);
    d.pos = (V){2, 0, 0};
    int s = floe_add_sphere(w, &d, 0.05);
    CHECK(a == 0 && b == 3 && s == 6);
    CHECK(floe_clump_of(w, 1) == 0 && floe_clump_of(w, 5) == 3 && floe_clump_of(w, 3) == -1 &&
          floe_clump_of(w, 6) == -1);
    /* a clump moved through the API before the start takes its pebbles along */
    V p4 = floe_positions(w)[4];
    floe_positions_mut(w)[b].y += 0.5;
    CHECK(floe_start(w) == FLOE_OK);
    CHECK(floe_positions(w)[4].y == p4.y + 0.5 && floe_positions(w)[4].x == p4.x);
    CHECK(floe_step(w) == FLOE_OK);
    const V xb = floe_positions(w)[b];
    /* a pebble alone is refused; the clump goes with its pebbles */
    CHECK(floe_remove_bodies(w, (int[]){1}, 1, NULL) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "pebble of a clump") != NULL);
    CHECK(floe_remove_bodies(w, (int[]){0}, 1, NULL) == FLOE_OK);
    CHECK(floe_particle_count(w) == 4);
    CHECK(floe_particle_shape(w, 0) == FLOE_SHAPE_CLUMP && floe_clump_of(w, 2) == 0 && floe_clump_of(w, 3) == -1);
    CHECK(!memcmp(&floe_positions(w)[0], &xb, sizeof xb) && floe_radii(w)[3] == 0.05);
    CHECK(floe_step(w) == FLOE_OK);
    /* bad lists: a clear error, no body */
    CHECK(floe_add_clump(w, &d, 0, peb) == -1 && strstr(floe_last_error(w), "1 to 16"));
    CHECK(floe_add_clump(w, &d, 2, (double[]){0, 0, 0, 0.05, 0, 0, 0, -1}) == -1);
    CHECK(strstr(floe_last_error(w), "pebble 1: radius = -1") != NULL);
    /* a body-frame list not about its centroid */
    double off[64] = {0.1, 0, 0, 0.05};
    CHECK(floe_add_body(w, &d, FLOE_SHAPE_CLUMP, off) == -1 && strstr(floe_last_error(w), "centroid"));
    CHECK(floe_particle_count(w) == 4);
    REPORT("removal: a clump goes with its pebbles, a pebble alone is refused; bad pebble lists refused\n");
    floe_world_destroy(w);
}

/* ---- 6. bonds between the pebbles of different clumps ---------------------------- */

/* Two dumbbells side by side, 0.2 mm apart, soft-bond: `bond` bonds the two
 * pairs of facing pebbles and none within a clump (no such pairs); pulling
 * one clump away drags the other through the bonds (the bonds' forces act
 * on the clumps). */
static void test_bonds(void) {
    floe_world *w = world(1e-6, (V){0, 0, 0}, 1);
    int m = floe_add_material(w, "cement", "softbond");
    CHECK(floe_material_set(w, m, "density", 2000) == FLOE_OK);
    CHECK(floe_material_set(w, m, "kn", 1e9) == FLOE_OK);
    CHECK(floe_material_set(w, m, "ks", 5e8) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "proximity", 1e-3) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "sb_ten", 1e7) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "sb_coh", 1e7) == FLOE_OK);
    floe_body_def d = floe_default_body_def();
    d.material = m;
    const double peb[8] = {0, 0, 0, 0.05, 0.08, 0, 0, 0.05};
    int a = floe_add_clump(w, &d, 2, peb);
    d.pos = (V){0, 0.1002, 0};
    d.vel = (V){0, 0.01, 0};
    int b = floe_add_clump(w, &d, 2, peb);
    CHECK(floe_start(w) == FLOE_OK);
    double gap = 1e-3;
    int applied = 0;
    CHECK(floe_apply_method(w, "softbond", "bond", -1, &gap, 1, &applied) == FLOE_OK);
    int across = 1;
    for (int k = 0; k < floe_contact_count(w); k++) {
        floe_contact_info ci;
        CHECK(floe_contact_get(w, k, &ci) == FLOE_OK);
        across &= floe_clump_of(w, ci.a) != floe_clump_of(w, ci.b);
    }
    for (int s = 0; s < 2000; s++) CHECK(floe_step(w) == FLOE_OK);
    double va = floe_velocities(w)[a].y, vb = floe_velocities(w)[b].y;
    REPORT("bonds between clumps: %d contacts, %d bonded, all between pebbles of different clumps: %s; pulled "
           "apart at 0.01 m/s, after 2 ms: clump velocities %.5f and %.5f m/s (momentum %.2e of the start)\n",
           floe_contact_count(w), floe_bonded_count(w), across ? "yes" : "no", va, vb,
           fabs(floe_masses(w)[a] * va + floe_masses(w)[b] * vb - floe_masses(w)[b] * 0.01) /
               (floe_masses(w)[b] * 0.01));
    CHECK(floe_contact_count(w) == 2 && floe_bonded_count(w) == 2 && across);
    CHECK(va > 1e-3); /* dragged along */
    CHECK_NEAR(floe_masses(w)[a] * va + floe_masses(w)[b] * vb, floe_masses(w)[b] * 0.01,
               1e-12 * floe_masses(w)[b] * 0.01);
    floe_world_destroy(w);
}

int main(void) {
    test_tumbling();
    test_incline();
    test_collisions();
    test_threads_restart();
    test_removal();
    test_bonds();
    return check_failures != 0;
}
