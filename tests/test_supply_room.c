/* The inlets' insertion test at scale, with periodic cells, interrupted,
 * and its budgets (src/core/supply.c, docs/supply.md).
 *
 * - Cost: the bodies the insertion test looks at (world.supply_tests, a
 *   count, not a time) per inserted body are the same, to 1 %, in a world of
 *   4,000 bodies and in one of 40,000 that holds the same bodies near the
 *   inlet and 36,000 more (and a large ball) away from it. Looking at every
 *   body, as a plain loop does, would count n per candidate centre: 4,000
 *   against 40,000.
 * - Periodic images: an inlet over a cell periodic in x and y, and one over
 *   a cell sheared by a velocity gradient, insert no body that overlaps
 *   another through a face: every inserted body is checked against every
 *   other at its minimum-image distance (closed form: |H (f - round(f) +
 *   m)|, m in {-1, 0, 1}^2) when it is inserted.
 * - Interrupting: an interrupt function that asks to stop during an
 *   insertion of 10,000 bodies stops it (floe_step returns FLOE_INTERRUPTED
 *   with part of them inserted); the world copied then through the
 *   snapshot's byte form and run on gives bitwise the positions, velocities
 *   and inlet counters of the run that was never interrupted. floe_run
 *   polls between steps.
 * - Budgets: rate x dt above FLOE_INLET_MAX_STEP stops the step before
 *   anything is inserted (FLOE_ERR_ARG); an inlet stops at the world's
 *   particle budget (FLOE_ERR_MEMORY) with exactly that many particles. */
#include "core/snapshot.h"
#include <floe/floe_snapshot.h>
#include "core/world.h"

#include "check.h"

#include <floe/floe.h>

static floe_world *make_world(double dt) {
    floe_world_def d = floe_default_world_def();
    d.gravity = (floe_vec3){0, 0, 0};
    d.dt = dt;
    d.skin = 1e-4;
    d.threads = 1;
    floe_world *w = floe_world_create(&d);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    return w;
}

/* ---- cost ---------------------------------------------------------------------------- */

/* A lattice of fixed spheres (radius 1 mm, spacing 4 mm), nz layers, on a
 * floor of two facets; with `ball`, a large fixed ball far above. An inlet
 * over the lowest layers inserts 2000 spheres of radius 0.5 mm after the
 * first step. Returns the bodies looked at per inserted body. */
static double cost(int nz, int ball, int *n_present) {
    floe_world *w = make_world(1e-4);
    floe_body_def b = floe_default_body_def();
    b.blocked = FLOE_DOF_ALL;
    floe_vec3 f0[3] = {{-0.01, -0.01, -0.002}, {0.1, -0.01, -0.002}, {0.1, 0.1, -0.002}};
    floe_vec3 f1[3] = {{-0.01, -0.01, -0.002}, {0.1, 0.1, -0.002}, {-0.01, 0.1, -0.002}};
    floe_add_facet(w, &b, f0, 1e-4);
    floe_add_facet(w, &b, f1, 1e-4);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < 20; j++)
            for (int i = 0; i < 20; i++) {
                b.pos = (floe_vec3){0.004 * i, 0.004 * j, 0.004 * k};
                floe_add_sphere(w, &b, 1e-3);
            }
    if (ball) {
        b.pos = (floe_vec3){0.04, 0.04, 2.0};
        floe_add_sphere(w, &b, 0.05);
    }
    *n_present = floe_particle_count(w);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0};
    d.hi = (floe_vec3){0.076, 0.076, 0.016};
    d.rate = 2000 / 1e-4; /* 2000 bodies after the first step */
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 5e-4, .max = 5e-4};
    d.seed = 11;
    floe_add_inlet(w, "fill", &d);
    CHECK(floe_step(w) == FLOE_OK);
    floe_inlet_stats st;
    floe_inlet_get(w, 0, &st, NULL);
    double per = (double)w->supply_tests / (double)st.inserted;
    REPORT("cost: %d bodies present, %lld inserted in %lld tries, %lld bodies looked at: %.2f per inserted body\n",
           *n_present, (long long)st.inserted, (long long)st.tries, (long long)w->supply_tests, per);
    CHECK(st.inserted == 2000);
    floe_world_destroy(w);
    return per;
}

static void test_cost(void) {
    int n1, n2;
    double a = cost(10, 0, &n1), b = cost(100, 1, &n2);
    CHECK(n2 > 9.9 * n1);
    /* the same candidates meet the same bodies; only the order within a
     * cell (and so where a search that found a touch stops) may differ:
     * measured 29.27 and 29.13 */
    CHECK(fabs(b - a) <= 0.01 * a);
    CHECK(a < 100); /* a plain loop: n1 = 4002 per candidate */
}

/* ---- periodic images ------------------------------------------------------------------- */

/* The smallest distance between the centres of bodies i and j over their
 * images: f = H^-1 d reduced to [-1/2, 1/2] along the periodic axes, then
 * the neighbouring offsets (a sheared cell's nearest image may be one of
 * them). */
static double min_image(const floe_world *w, int i, int j) {
    double h[9], hi[9];
    floe_vec3 o;
    int axes = floe_world_get_cell(w, h, &o);
    double det = h[0] * (h[4] * h[8] - h[5] * h[7]) - h[1] * (h[3] * h[8] - h[5] * h[6]) +
                 h[2] * (h[3] * h[7] - h[4] * h[6]);
    hi[0] = (h[4] * h[8] - h[5] * h[7]) / det, hi[1] = (h[2] * h[7] - h[1] * h[8]) / det;
    hi[2] = (h[1] * h[5] - h[2] * h[4]) / det, hi[3] = (h[5] * h[6] - h[3] * h[8]) / det;
    hi[4] = (h[0] * h[8] - h[2] * h[6]) / det, hi[5] = (h[2] * h[3] - h[0] * h[5]) / det;
    hi[6] = (h[3] * h[7] - h[4] * h[6]) / det, hi[7] = (h[1] * h[6] - h[0] * h[7]) / det;
    hi[8] = (h[0] * h[4] - h[1] * h[3]) / det;
    const floe_vec3 *x = floe_positions(w);
    double d[3] = {x[j].x - x[i].x, x[j].y - x[i].y, x[j].z - x[i].z}, f[3];
    for (int k = 0; k < 3; k++) f[k] = hi[3 * k] * d[0] + hi[3 * k + 1] * d[1] + hi[3 * k + 2] * d[2];
    for (int k = 0; k < 3; k++)
        if (axes >> k & 1) f[k] -= round(f[k]);
    double best = INFINITY;
    for (int m0 = -1; m0 <= 1; m0++)
        for (int m1 = -1; m1 <= 1; m1++)
            for (int m2 = -1; m2 <= 1; m2++) {
                int m[3] = {m0, m1, m2};
                double g[3], s = 0;
                int ok = 1;
                for (int k = 0; k < 3; k++) {
                    ok &= m[k] == 0 || (axes >> k & 1);
                    g[k] = f[k] + m[k];
                }
                if (!ok) continue;
                for (int r = 0; r < 3; r++) {
                    double c = h[3 * r] * g[0] + h[3 * r + 1] * g[1] + h[3 * r + 2] * g[2];
                    s += c * c;
                }
                best = fmin(best, sqrt(s));
            }
    return best;
}

/* Steps the world, checking every inserted body against every other body
 * at their smallest image distance; returns the overlaps found (relative to
 * the sum of the radii, the deepest in *deepest). */
static int run_checked(floe_world *w, int steps, int *inserted, double *deepest) {
    int bad = 0;
    *inserted = 0;
    *deepest = 0;
    for (int s = 0; s < steps; s++) {
        floe_status st = floe_step(w);
        CHECK(st == FLOE_OK);
        if (st != FLOE_OK) { /* a runaway from an overlap inserted */
            bad++;
            break;
        }
        floe_event_list ev = floe_events(w);
        const double *r = floe_radii(w);
        for (int e = 0; e < ev.count; e++) {
            if (ev.events[e].type != FLOE_EVENT_BODY_INSERTED) continue;
            int i = ev.events[e].a;
            (*inserted)++;
            for (int j = 0; j < floe_particle_count(w); j++) {
                if (j == i || floe_particle_shape(w, j) != FLOE_SHAPE_SPHERE) continue;
                double gap = min_image(w, i, j) - (r[i] + r[j]);
                if (gap < 0) {
                    bad++;
                    *deepest = fmax(*deepest, -gap / (r[i] + r[j]));
                }
            }
        }
    }
    return bad;
}

static floe_world *periodic_world(double shear) {
    floe_world *w = make_world(1e-5);
    CHECK(floe_world_set_periodic(w, 0, 0, 0.05) == FLOE_OK);
    CHECK(floe_world_set_periodic(w, 1, 0, 0.05) == FLOE_OK);
    if (shear != 0) {
        double l[9] = {0, shear, 0, 0, 0, 0, 0, 0, 0};
        CHECK(floe_world_set_velocity_gradient(w, l) == FLOE_OK);
    }
    floe_body_def b = floe_default_body_def();
    floe_add_wall(w, &b, 2, 1);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0.002};
    d.hi = (floe_vec3){0.05, 0.05, 0.012};
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 2e-3, .max = 2.5e-3};
    d.max_tries = 50;
    d.seed = 5;
    d.rate = shear != 0 ? 3e5 : 1e7;
    floe_add_inlet(w, "layer", &d);
    return w;
}

static void test_periodic(void) {
    int n;
    double deep;
    floe_world *w = periodic_world(0);
    int bad = run_checked(w, 5, &n, &deep);
    REPORT("periodic x, y: %d bodies inserted, %d overlaps through a face (deepest %.3g of r_i + r_j)\n", n, bad, deep);
    CHECK(n > 100 && bad == 0);
    floe_world_destroy(w);
    /* sheared: H_xy grows by 5e-4 m a step (L_xy = 1000 /s), flipped back
     * by 0.05 m past 0.025 m: after 270 steps 0.135 - 0.15 = -0.015 m */
    w = periodic_world(1000);
    bad = run_checked(w, 270, &n, &deep);
    double h[9];
    floe_world_get_cell(w, h, NULL);
    REPORT("sheared cell (H_xy = %.4g m, 3 flips): %d bodies inserted, %d overlaps (deepest %.3g)\n", h[1], n, bad,
           deep);
    CHECK(n > 50 && bad == 0 && fabs(h[1] + 0.015) < 1e-6);
    floe_world_destroy(w);
}

/* ---- interrupting ---------------------------------------------------------------------- */

static int polls, trip_at;
static int trip(void *ctx) {
    (void)ctx;
    return ++polls == trip_at;
}

static floe_world *busy_world(void) {
    floe_world *w = make_world(1e-4);
    floe_body_def b = floe_default_body_def();
    floe_add_wall(w, &b, 2, 1);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0.002};
    d.hi = (floe_vec3){0.4, 0.4, 0.1};
    d.rate = 1e8; /* 10,000 bodies after each step */
    d.shape = FLOE_SHAPE_ELLIPSOID;
    for (int k = 0; k < 3; k++) d.size[k] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 1e-3, .max = 2e-3};
    d.vel = (floe_vec3){0, 0, -0.1};
    d.seed = 17;
    floe_add_inlet(w, "rain", &d);
    return w;
}

static void same(floe_world *a, floe_world *c, const char *what) {
    int n = floe_particle_count(a);
    CHECK(n == floe_particle_count(c));
    if (n != floe_particle_count(c)) return;
    CHECK(memcmp(floe_positions(a), floe_positions(c), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_velocities(a), floe_velocities(c), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_orientations(a), floe_orientations(c), sizeof(floe_quat) * (size_t)n) == 0);
    floe_inlet_stats sa, sc;
    floe_inlet_get(a, 0, &sa, NULL);
    floe_inlet_get(c, 0, &sc, NULL);
    CHECK(sa.inserted == sc.inserted && sa.tries == sc.tries && sa.asked == sc.asked && sa.mass == sc.mass);
    REPORT("%s: %d bodies, %lld inserted in %lld tries, as without the interruption\n", what, n, (long long)sc.inserted,
           (long long)sc.tries);
}

static void test_interrupt(void) {
    floe_world *a = busy_world(), *b = busy_world();
    CHECK(floe_run(a, 3) == FLOE_OK);
    CHECK(floe_step(b) == FLOE_OK);
    polls = 0;
    trip_at = 40; /* after about 40 x 64 candidate centres of the second step's 10,000 bodies */
    floe_set_interrupt(b, trip, NULL);
    CHECK(floe_step(b) == FLOE_INTERRUPTED);
    floe_inlet_stats st;
    floe_inlet_get(b, 0, &st, NULL);
    REPORT("interrupted at step %lld: %lld of 20000 inserted; %s\n", (long long)floe_step_count(b),
           (long long)st.inserted, floe_last_error(b));
    CHECK(floe_step_count(b) == 2 && st.inserted > 10000 && st.inserted < 20000);
    CHECK(strstr(floe_last_error(b), "interrupted in the insertion of inlet 'rain'") != NULL);
    /* a restart taken now finishes the insertion at its next step */
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[512];
    CHECK(floe_snapshot_to_bytes(b, &bytes, &len, err, sizeof err) == 0);
    floe_world *c = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    free(bytes);
    CHECK(c != NULL && c->supply_next == 1);
    if (c) {
        CHECK(floe_step(c) == FLOE_OK);
        same(a, c, "interrupted, restarted and run on");
        floe_world_destroy(c);
    }
    /* the same world goes on too */
    CHECK(floe_step(b) == FLOE_OK);
    same(a, b, "interrupted and run on");
    /* floe_run polls before each step */
    polls = 0;
    trip_at = 1;
    CHECK(floe_run(b, 5) == FLOE_INTERRUPTED && floe_step_count(b) == 3);
    floe_world_destroy(a);
    floe_world_destroy(b);
}

/* ---- budgets ----------------------------------------------------------------------------- */

static void test_budgets(void) {
    floe_world *w = make_world(1e-5);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0};
    d.hi = (floe_vec3){10, 10, 10};
    d.rate = 2e11; /* 2e6 bodies after a step of 1e-5 s */
    floe_add_inlet(w, "flood", &d);
    CHECK(floe_step(w) == FLOE_ERR_ARG);
    floe_inlet_stats st;
    floe_inlet_get(w, 0, &st, NULL);
    REPORT("per step: %s\n", floe_last_error(w));
    CHECK(strstr(floe_last_error(w), "FLOE_INLET_MAX_STEP") && st.inserted == 0 && st.asked == 0);
    CHECK(floe_particle_count(w) == 0);
    floe_world_destroy(w);

    w = make_world(1e-5);
    d.rate = 1e7; /* 100 bodies a step */
    floe_add_inlet(w, "flood", &d);
    CHECK(floe_set_particle_budget(w, -1) == FLOE_ERR_ARG);
    CHECK(floe_set_particle_budget(w, 150) == FLOE_OK);
    CHECK(floe_step(w) == FLOE_OK && floe_particle_count(w) == 100);
    CHECK(floe_step(w) == FLOE_ERR_MEMORY && floe_particle_count(w) == 150);
    REPORT("particle budget: %s\n", floe_last_error(w));
    CHECK(strstr(floe_last_error(w), "particle budget (150"));
    floe_world_destroy(w);
}

int main(void) {
    test_budgets();
    test_cost();
    test_periodic();
    test_interrupt();
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
