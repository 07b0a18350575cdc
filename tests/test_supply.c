/* Inlets and sinks (src/core/supply.c, docs/supply.md).
 *
 * - Rates: an inlet that always finds room inserts, after a time t, the
 *   integer part of rate x t bodies (count rate; exact up to one body), or
 *   a mass short of rate x t by less than one body's mass (mass rate): the
 *   inlet owes rate x dt per step and inserts while it owes a body.
 * - Sizes: the radii, capsule shafts and ellipsoid semi-axes of inserted
 *   bodies against the target CDF by the Kolmogorov-Smirnov statistic
 *   D = sup |F_n - F|, required below the 1 % critical value 1.63 / sqrt(n)
 *   of the asymptotic Kolmogorov distribution (Smirnov 1948), as in
 *   tests/test_size_dist.c; seeds are fixed, so the outcome is the same
 *   every run.
 * - No overlap at insertion: in a crowded inlet region (the rate cannot be
 *   met, which the test requires, with one INLET_SHORT event), no two
 *   spheres overlap and none touches the wall, at every step.
 * - Removal: a half-space and a box sink remove exactly the bodies whose
 *   centre enters them, counted (number, mass) and evented; the bodies left
 *   keep their order; a removed body's contacts are deleted with events.
 * - Energy: a pour onto a tilted floor with insertion and removal keeps the
 *   balance error below 1e-3 (measured 1.4e-4); the booking of inserted and
 *   removed energy is what closes it: without it the error would read 0.46,
 *   checked to be above 1e-2.
 * - Restart: a world copied through the snapshot's byte form mid-run (with
 *   an inlet, a sink and bodies already removed) and run on gives bitwise
 *   the positions, counts and inlet counters of the uninterrupted run.
 * - Event times: inserted and removed events carry the step and time of
 *   the state at which they happen, like the contact pass's events of the
 *   same step (docs/outputs.md, events.csv): in a pour with an inlet and a
 *   sink, every event of a step has that step's floe_step_count and
 *   floe_time, bitwise, and steps with both kinds occur.
 * - Bad definitions give errors that name the field. */
#include "core/size_dist.h"
#include "core/snapshot.h"
#include <floe/floe_snapshot.h>
#include "core/world.h"

#include "check.h"

#include <floe/floe.h>

static floe_world *make_world(floe_vec3 g, double dt) {
    floe_world_def d = floe_default_world_def();
    d.gravity = g;
    d.dt = dt;
    d.skin = 1e-3;
    d.threads = 1;
    floe_world *w = floe_world_create(&d);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    return w;
}

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double phi(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }

/* target CDFs written from the definitions (floe.h, floe_size_dist) */
static double cdf(const floe_size_dist *d, double r) {
    double x = r < d->min ? d->min : r > d->max ? d->max : r;
    if (d->kind == FLOE_DIST_UNIFORM) return (x - d->min) / (d->max - d->min);
    if (d->kind == FLOE_DIST_NORMAL) {
        double a = phi((d->min - d->mu) / d->sigma), b = phi((d->max - d->mu) / d->sigma);
        return (phi((x - d->mu) / d->sigma) - a) / (b - a);
    }
    double a = phi((log(d->min) - d->mu) / d->sigma), b = phi((log(d->max) - d->mu) / d->sigma);
    return (phi((log(x) - d->mu) / d->sigma) - a) / (b - a);
}

static double ks(double *x, int n, const floe_size_dist *d) {
    qsort(x, (size_t)n, sizeof *x, cmp_dbl);
    double D = 0;
    for (int i = 0; i < n; i++) {
        double F = cdf(d, x[i]);
        D = fmax(D, fmax(fabs((i + 1.0) / n - F), fabs(F - (double)i / n)));
    }
    return D;
}

/* ---- rates ---------------------------------------------------------------------------- */

static void test_rates(void) {
    /* count rate: 2000 /s for 0.1 s in a big box, no gravity: 200 bodies */
    floe_world *w = make_world((floe_vec3){0, 0, 0}, 1e-4);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0};
    d.hi = (floe_vec3){1, 1, 1};
    d.rate = 2000;
    d.t_end = 0.1;
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 2e-3, .max = 4e-3};
    d.seed = 7;
    CHECK(floe_add_inlet(w, "top", &d) == 0);
    CHECK(floe_run(w, 1500) == FLOE_OK); /* 0.15 s: the window ends at 0.1 s */
    floe_inlet_stats s;
    CHECK(floe_inlet_get(w, 0, &s, NULL) == FLOE_OK);
    REPORT("count rate: asked %.6f, inserted %lld bodies (2000 /s x 0.1 s = 200)\n", s.asked, (long long)s.inserted);
    CHECK_NEAR(s.asked, 200, 1e-6);
    CHECK(s.inserted >= 199 && s.inserted <= 200);
    CHECK(floe_particle_count(w) == (int)s.inserted);
    CHECK(s.failures == 0 && !s.short_of_rate);
    floe_world_destroy(w);

    /* mass rate: 0.2 kg/s for 0.1 s: 0.02 kg, short by less than one body */
    w = make_world((floe_vec3){0, 0, 0}, 1e-4);
    d.by_mass = 1;
    d.rate = 0.2;
    CHECK(floe_add_inlet(w, "top", &d) == 0);
    CHECK(floe_run(w, 1500) == FLOE_OK);
    CHECK(floe_inlet_get(w, 0, &s, NULL) == FLOE_OK);
    double mmax = 4.0 / 3.0 * 3.14159265358979323846 * 4e-3 * 4e-3 * 4e-3 * 2500, total = 0;
    for (int i = 0; i < floe_particle_count(w); i++) total += floe_masses(w)[i];
    REPORT("mass rate: asked %.6g kg, inserted %.6g kg in %lld bodies (largest body %.3g kg)\n", s.asked, s.mass,
           (long long)s.inserted, mmax);
    CHECK_NEAR(s.asked, 0.02, 1e-12);
    CHECK(s.mass <= s.asked + 1e-15 && s.mass > s.asked - mmax);
    CHECK_NEAR(total, s.mass, 1e-15);
    floe_world_destroy(w);
}

/* ---- sizes ------------------------------------------------------------------------------- */

static void size_test(floe_shape_type shape, const floe_size_dist *dist, int n, const char *what) {
    floe_world *w = make_world((floe_vec3){0, 0, 0}, 1e-4);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0};
    d.hi = (floe_vec3){3, 3, 3};
    d.rate = 1e6; /* 100 bodies a step */
    d.shape = shape;
    for (int k = 0; k < 3; k++) d.size[k] = dist[k];
    d.seed = 11;
    CHECK(floe_add_inlet(w, "top", &d) == 0);
    int steps = (n + 99) / 100;
    CHECK(floe_run(w, steps) == FLOE_OK);
    int np = floe_particle_count(w), nk = shape == FLOE_SHAPE_SPHERE ? 1 : shape == FLOE_SHAPE_CAPSULE ? 2 : 3;
    CHECK(np == steps * 100);
    double *x = malloc(sizeof(double) * (size_t)np * 3);
    for (int k = 0; k < nk; k++) {
        for (int i = 0; i < np; i++) {
            double p[4];
            floe_body_params(w, i, p, 4);
            x[i] = p[k];
        }
        double D = ks(x, np, &dist[k]), bound = 1.63 / sqrt(np);
        REPORT("%s size %d: KS D = %.4f over %d bodies (1%% bound %.4f)\n", what, k, D, np, bound);
        CHECK(D < bound);
    }
    free(x);
    floe_world_destroy(w);
}

static void test_sizes(void) {
    floe_size_dist logn = {.kind = FLOE_DIST_LOGNORMAL, .min = 2e-3, .max = 8e-3, .mu = log(4e-3), .sigma = 0.3};
    floe_size_dist sph[3] = {logn, logn, logn};
    size_test(FLOE_SHAPE_SPHERE, sph, 1000, "sphere radius");
    floe_size_dist caps[3] = {{.kind = FLOE_DIST_UNIFORM, .min = 2e-3, .max = 3e-3},
                              {.kind = FLOE_DIST_NORMAL, .min = 2e-3, .max = 1e-2, .mu = 6e-3, .sigma = 2e-3},
                              logn};
    size_test(FLOE_SHAPE_CAPSULE, caps, 600, "capsule (radius, shaft)");
    floe_size_dist ell[3] = {{.kind = FLOE_DIST_UNIFORM, .min = 4e-3, .max = 6e-3},
                             {.kind = FLOE_DIST_NORMAL, .min = 2e-3, .max = 5e-3, .mu = 3e-3, .sigma = 1e-3},
                             {.kind = FLOE_DIST_LOGNORMAL, .min = 1e-3, .max = 4e-3, .mu = log(2e-3), .sigma = 0.4}};
    size_test(FLOE_SHAPE_ELLIPSOID, ell, 600, "ellipsoid (a, b, c)");
}

/* ---- no overlaps ------------------------------------------------------------------------------ */

static void test_no_overlap(void) {
    /* a small box over a wall (z = 0), far too small for the rate */
    floe_world *w = make_world((floe_vec3){0, 0, -9.81}, 1e-4);
    floe_body_def b = floe_default_body_def();
    floe_add_wall(w, &b, 2, 1);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0};
    d.hi = (floe_vec3){0.03, 0.03, 0.01};
    d.rate = 1e5;
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 2e-3, .max = 3e-3};
    d.max_tries = 20;
    d.seed = 3;
    CHECK(floe_add_inlet(w, "crowd", &d) == 0);
    int bad = 0, shorts = 0, inserted = 0;
    for (int s = 0; s < 200; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        floe_event_list ev = floe_events(w);
        for (int e = 0; e < ev.count; e++) {
            shorts += ev.events[e].type == FLOE_EVENT_INLET_SHORT;
            if (ev.events[e].type != FLOE_EVENT_BODY_INSERTED) continue;
            inserted++;
            int i = ev.events[e].a;
            const floe_vec3 *x = floe_positions(w);
            const double *r = floe_radii(w);
            if (x[i].z < r[i]) bad++; /* touches the wall z = 0 */
            for (int j = 1; j < floe_particle_count(w); j++) {
                if (j == i) continue;
                double dx = x[i].x - x[j].x, dy = x[i].y - x[j].y, dz = x[i].z - x[j].z;
                if (dx * dx + dy * dy + dz * dz <= (r[i] + r[j]) * (r[i] + r[j])) bad++;
            }
        }
    }
    floe_inlet_stats st;
    floe_inlet_get(w, 0, &st, NULL);
    REPORT("crowded inlet: asked %.0f, inserted %lld, %lld tries, %lld failures, missed %.0f, overlaps %d\n", st.asked,
           (long long)st.inserted, (long long)st.tries, (long long)st.failures, st.missed, bad);
    CHECK(inserted == (int)st.inserted && inserted > 10);
    CHECK(bad == 0);
    CHECK(st.short_of_rate == 1 && shorts == 1 && st.failures > 0);
    CHECK(st.inserted + st.missed + 1 >= st.asked - 1e-6); /* everything asked is inserted, missed or owed */
    floe_world_destroy(w);
}

/* ---- removal --------------------------------------------------------------------------------- */

static void test_removal(void) {
    /* 10 spheres falling freely at different heights over a sink z < 0:
     * sphere k (z_k = 0.01 (k + 1)) crosses after sqrt(2 z_k / g) */
    floe_world *w = make_world((floe_vec3){0, 0, -9.81}, 1e-4);
    double mass = 0;
    for (int k = 0; k < 10; k++) {
        floe_body_def b = floe_default_body_def();
        b.pos = (floe_vec3){0.1 * k, 0, 0.01 * (k + 1)};
        int id = floe_add_sphere(w, &b, 2e-3 + 1e-4 * k);
        if (k < 6) mass += floe_masses(w)[id];
    }
    floe_sink_def sd = floe_default_sink_def();
    sd.point = (floe_vec3){0, 0, 0};
    sd.normal = (floe_vec3){0, 0, -2}; /* normalised */
    CHECK(floe_add_sink(w, "floor", &sd) == 0);
    double t_end = sqrt(2 * 0.0605 / 9.81); /* between the 6th (0.06 m) and 7th (0.07 m) */
    int steps = (int)(t_end / 1e-4), removed_ev = 0;
    double ev_mass = 0;
    for (int s = 0; s < steps; s++) {
        floe_step(w);
        floe_event_list ev = floe_events(w);
        for (int e = 0; e < ev.count; e++)
            if (ev.events[e].type == FLOE_EVENT_BODY_REMOVED) {
                removed_ev++;
                ev_mass += ev.events[e].value[0];
                CHECK(ev.events[e].b == 0);
            }
    }
    floe_sink_stats ss;
    floe_sink_get(w, 0, &ss, NULL);
    REPORT("half-space sink: removed %lld bodies, %.6g kg (expected 6, %.6g kg)\n", (long long)ss.removed, ss.mass,
           mass);
    CHECK(ss.removed == 6 && removed_ev == 6);
    CHECK_NEAR(ss.mass, mass, 1e-15);
    CHECK_NEAR(ev_mass, mass, 1e-15);
    CHECK(floe_particle_count(w) == 4);
    /* the four left keep their order: x = 0.6, 0.7, 0.8, 0.9 */
    for (int i = 0; i < 4; i++) CHECK_NEAR(floe_positions(w)[i].x, 0.1 * (i + 6), 1e-12);
    floe_world_destroy(w);

    /* a body in contact: two spheres resting on each other, the top one
     * removed through the API; the contact goes with an event, the other
     * body keeps its place and id 0 */
    w = make_world((floe_vec3){0, 0, 0}, 1e-5);
    floe_body_def b = floe_default_body_def();
    b.pos = (floe_vec3){0, 0, 0};
    floe_add_sphere(w, &b, 1e-2);
    b.pos = (floe_vec3){0, 0, 0.0199};
    floe_add_sphere(w, &b, 1e-2);
    b.pos = (floe_vec3){0.1, 0, 0};
    floe_add_capsule(w, &b, 1e-2, 2e-2);
    CHECK(floe_step(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 1);
    double e_out = 0;
    int ids[1] = {1};
    CHECK(floe_remove_bodies(w, ids, 1, &e_out) == FLOE_OK);
    floe_event_list ev = floe_events(w);
    int del = 0, rem = 0;
    for (int e = 0; e < ev.count; e++) {
        del += ev.events[e].type == FLOE_EVENT_CONTACT_DELETED;
        rem += ev.events[e].type == FLOE_EVENT_BODY_REMOVED && ev.events[e].a == 1 && ev.events[e].b == -1;
    }
    CHECK(del == 1 && rem == 1);
    CHECK(floe_contact_count(w) == 0 && floe_particle_count(w) == 2);
    CHECK(floe_particle_shape(w, 1) == FLOE_SHAPE_CAPSULE);
    CHECK_NEAR(floe_capsule_shaft(w, 1), 2e-2, 0);
    CHECK(e_out > 0);
    CHECK(floe_step(w) == FLOE_OK);
    /* bad removals: nothing changes */
    int twice[2] = {0, 0}, out[1] = {5};
    CHECK(floe_remove_bodies(w, twice, 2, NULL) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "twice") != NULL);
    CHECK(floe_remove_bodies(w, out, 1, NULL) == FLOE_ERR_ARG);
    CHECK(floe_particle_count(w) == 2);
    floe_world_destroy(w);
}

/* ---- energy ---------------------------------------------------------------------------------- */

/* A pour onto a floor tilted by gravity along +x; bodies leave at x > 0.3.
 * The floor is fixed, so the boundary term holds only what insertion and
 * removal booked: the balance without it reads error + boundary / scale. */
static void test_energy(void) {
    floe_world *w = make_world((floe_vec3){3, 0, -9.81}, 2e-5);
    /* soft and without dashpots: the balance error of the impacts themselves
     * (first order in dt sqrt(k/m) with a dashpot) stays well below the bound */
    floe_material_set(w, 0, "young", 1e5);
    floe_body_def b = floe_default_body_def();
    floe_add_wall(w, &b, 2, 1);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0.01};
    d.hi = (floe_vec3){0.05, 0.05, 0.03};
    d.rate = 400;
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 2e-3, .max = 3e-3};
    d.vel = (floe_vec3){0.2, 0, -0.1};
    d.vel_spread = 0.1;
    d.seed = 5;
    CHECK(floe_add_inlet(w, "in", &d) == 0);
    floe_sink_def sd = floe_default_sink_def();
    sd.point = (floe_vec3){0.3, 0, 0};
    sd.normal = (floe_vec3){1, 0, 0};
    CHECK(floe_add_sink(w, "out", &sd) == 0);
    double e[FLOE_E_COUNT], worst = 0, raw = 0;
    for (int s = 0; s < 25000; s++) { /* 0.5 s */
        CHECK(floe_step(w) == FLOE_OK);
        if (s % 100 == 99) {
            floe_energy(w, e);
            double sc = 0;
            for (int t = FLOE_E_KINETIC; t <= FLOE_E_BOUNDARY; t++) sc += fabs(e[t]);
            worst = fmax(worst, fabs(e[FLOE_E_ERROR]));
            raw = fmax(raw, fabs(e[FLOE_E_ERROR] + e[FLOE_E_BOUNDARY] / sc));
        }
    }
    floe_sink_stats ss;
    floe_sink_get(w, 0, &ss, NULL);
    floe_inlet_stats is;
    floe_inlet_get(w, 0, &is, NULL);
    REPORT("pour: inserted %lld, removed %lld (%.4g J out), boundary %.4g J, worst |error| %.3g (%.3g unbooked)\n",
           (long long)is.inserted, (long long)ss.removed, ss.energy, e[FLOE_E_BOUNDARY], worst, raw);
    CHECK(ss.removed > 10 && ss.energy > 0);
    CHECK(worst < 1e-3);
    CHECK(raw > 1e-2);
    floe_world_destroy(w);
}

/* ---- restart ---------------------------------------------------------------------------------- */

static floe_world *restart_world(void) {
    floe_world *w = make_world((floe_vec3){0, 0, -9.81}, 5e-5);
    floe_body_def b = floe_default_body_def();
    floe_add_wall(w, &b, 2, 1);
    floe_inlet_def d = floe_default_inlet_def();
    d.region = FLOE_REGION_CYLINDER;
    d.base = (floe_vec3){0, 0, 0.03};
    d.axis = (floe_vec3){0, 0, 0.02};
    d.radius = 0.02;
    d.rate = 3000;
    d.shape = FLOE_SHAPE_CAPSULE;
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 1.5e-3, .max = 2e-3};
    d.size[1] = (floe_size_dist){.kind = FLOE_DIST_NORMAL, .min = 1e-3, .max = 4e-3, .mu = 2e-3, .sigma = 1e-3};
    d.vel_spread = 0.2;
    d.seed = 99;
    floe_add_inlet(w, "capsules", &d);
    d = floe_default_inlet_def();
    d.region = FLOE_REGION_TRIANGLES;
    d.ntri = 2;
    floe_vec3 q[4] = {{0.03, 0, 0.02}, {0.06, 0, 0.02}, {0.06, 0.03, 0.02}, {0.03, 0.03, 0.02}};
    d.tri[0][0] = q[0], d.tri[0][1] = q[1], d.tri[0][2] = q[2];
    d.tri[1][0] = q[0], d.tri[1][1] = q[2], d.tri[1][2] = q[3];
    d.by_mass = 1;
    d.rate = 0.05;
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_LOGNORMAL, .min = 1e-3, .max = 3e-3, .mu = log(2e-3), .sigma = 0.3};
    d.seed = 4;
    floe_add_inlet(w, "beads", &d);
    floe_sink_def sd = floe_default_sink_def();
    sd.region = FLOE_REGION_BOX;
    sd.lo = (floe_vec3){-1, -1, -1};
    sd.hi = (floe_vec3){1, 1, 0.004};
    floe_add_sink(w, "bottom", &sd);
    return w;
}

static void test_restart(void) {
    floe_world *a = restart_world();
    CHECK(floe_run(a, 1500) == FLOE_OK);
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[512];
    CHECK(floe_snapshot_to_bytes(a, &bytes, &len, err, sizeof err) == 0);
    floe_world *b = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    if (!b) fprintf(stderr, "restore: %s\n", err);
    CHECK(b != NULL);
    free(bytes);
    if (!b) {
        floe_world_destroy(a);
        return;
    }
    CHECK(floe_run(a, 1500) == FLOE_OK);
    CHECK(floe_run(b, 1500) == FLOE_OK);
    CHECK(floe_particle_count(a) == floe_particle_count(b));
    int n = floe_particle_count(a);
    CHECK(memcmp(floe_positions(a), floe_positions(b), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_velocities(a), floe_velocities(b), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_orientations(a), floe_orientations(b), sizeof(floe_quat) * (size_t)n) == 0);
    for (int k = 0; k < 2; k++) {
        floe_inlet_stats sa, sb;
        floe_inlet_get(a, k, &sa, NULL);
        floe_inlet_get(b, k, &sb, NULL);
        CHECK(sa.inserted == sb.inserted && sa.tries == sb.tries && sa.mass == sb.mass && sa.asked == sb.asked);
        REPORT("restart: inlet %d inserted %lld (resumed %lld)\n", k, (long long)sa.inserted, (long long)sb.inserted);
    }
    floe_sink_stats ra, rb;
    floe_sink_get(a, 0, &ra, NULL);
    floe_sink_get(b, 0, &rb, NULL);
    REPORT("restart: sink removed %lld (resumed %lld), %d bodies\n", (long long)ra.removed, (long long)rb.removed, n);
    CHECK(ra.removed == rb.removed && ra.mass == rb.mass && ra.removed > 0);
    double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
    floe_energy(a, ea);
    floe_energy(b, eb);
    CHECK(memcmp(ea, eb, sizeof ea) == 0);
    /* a snapshot whose inlet distribution or sink normal is damaged is refused */
    CHECK(floe__snapshot_check(b, err, sizeof err) == 0);
    b->inlets[1].dpar[0] = 5e-3; /* min above max */
    CHECK(floe__snapshot_check(b, err, sizeof err) != 0 && strstr(err, "inlet 1, radius: min = 0.005 is above max"));
    b->inlets[1].dpar[0] = 1e-3;
    b->sinks[0].region = 7;
    CHECK(floe__snapshot_check(b, err, sizeof err) != 0 && strstr(err, "sink_region"));
    floe_world_destroy(a);
    floe_world_destroy(b);
}

/* ---- bad definitions ------------------------------------------------------------------------- */

static void test_errors(void) {
    floe_world *w = make_world((floe_vec3){0, 0, 0}, 1e-4);
    floe_inlet_def d = floe_default_inlet_def();
    d.rate = -1;
    CHECK(floe_add_inlet(w, "x", &d) == -1 && strstr(floe_last_error(w), "rate = -1"));
    d = floe_default_inlet_def();
    d.size[0].min = 0;
    CHECK(floe_add_inlet(w, "x", &d) == -1 && strstr(floe_last_error(w), "radius: min = 0"));
    d = floe_default_inlet_def();
    d.shape = FLOE_SHAPE_CAPSULE;
    d.size[1] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 2, .max = 1};
    CHECK(floe_add_inlet(w, "x", &d) == -1 && strstr(floe_last_error(w), "shaft: min = 2"));
    d = floe_default_inlet_def();
    d.material = 3;
    CHECK(floe_add_inlet(w, "x", &d) == -1 && strstr(floe_last_error(w), "material 3"));
    d = floe_default_inlet_def();
    d.shape = FLOE_SHAPE_WALL;
    CHECK(floe_add_inlet(w, "x", &d) == -1 && strstr(floe_last_error(w), "spheres, capsules or ellipsoids"));
    d = floe_default_inlet_def();
    d.region = FLOE_REGION_TRIANGLES;
    d.ntri = 1;
    CHECK(floe_add_inlet(w, "x", &d) == -1 && strstr(floe_last_error(w), "triangle 0 has no area"));
    d = floe_default_inlet_def();
    CHECK(floe_add_inlet(w, "x", &d) == 0);
    CHECK(floe_add_inlet(w, "x", &d) == -1 && strstr(floe_last_error(w), "exists already"));
    floe_sink_def s = floe_default_sink_def();
    s.normal = (floe_vec3){0, 0, 0};
    CHECK(floe_add_sink(w, "s", &s) == -1 &&
          strstr(floe_last_error(w), "normal (0, 0, 0) must be finite and not zero"));
    s = floe_default_sink_def();
    s.group = 4;
    CHECK(floe_add_sink(w, "s", &s) == -1 && strstr(floe_last_error(w), "group"));
    CHECK(floe_inlet_get(w, 1, NULL, NULL) == FLOE_ERR_ARG);
    floe_world_destroy(w);
}

/* Recycling: an inlet that re-inserts what a sink removes keeps the count
 * constant (every removed body is owed at once and, with room, inserted in
 * the same step). */
static void test_recycle(void) {
    floe_world *w = make_world((floe_vec3){0, 0, -9.81}, 1e-4);
    for (int k = 0; k < 50; k++) {
        floe_body_def b = floe_default_body_def();
        b.pos = (floe_vec3){0.01 * (k % 10), 0.01 * (k / 10), 0.02 + 0.001 * k};
        floe_add_sphere(w, &b, 2e-3);
    }
    floe_sink_def sd = floe_default_sink_def();
    CHECK(floe_add_sink(w, "floor", &sd) == 0); /* z < 0 */
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0.05};
    d.hi = (floe_vec3){0.2, 0.2, 0.06};
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 2e-3, .max = 2e-3};
    d.recycle = 0;
    CHECK(floe_add_inlet(w, "loop", &d) == 0);
    d.recycle = 3;
    CHECK(floe_add_inlet(w, "bad", &d) == -1 && strstr(floe_last_error(w), "recycle = 3 names no sink"));
    int constant = 1;
    for (int s = 0; s < 3000; s++) {
        floe_step(w);
        constant &= floe_particle_count(w) == 50;
    }
    floe_sink_stats ss;
    floe_inlet_stats is;
    floe_sink_get(w, 0, &ss, NULL);
    floe_inlet_get(w, 0, &is, NULL);
    REPORT("recycling: %lld removed, %lld re-inserted, 50 bodies at every step: %s\n", (long long)ss.removed,
           (long long)is.inserted, constant ? "yes" : "NO");
    CHECK(constant && ss.removed >= 50 && is.inserted == ss.removed);
    floe_world_destroy(w);
}

/* Removal moves every per-particle array with its body: in a cell periodic
 * in x ([0, 0.1)), sphere 2 moving at 1 m/s wraps once in 0.06 s; after
 * sphere 0 is removed it is sphere 1 and keeps its wrap count, position,
 * velocity and radius. */
/* ---- event times ----------------------------------------------------------------------------- */

static void test_event_times(void) {
    /* beads poured onto a floor; the sink is a box over half of it, open
     * from 0.02 s, so it removes beads that rest on the floor (in contact) */
    floe_world *w = make_world((floe_vec3){0, 0, -9.81}, 1e-4);
    floe_body_def b = floe_default_body_def();
    b.blocked = FLOE_DOF_ALL;
    floe_add_wall(w, &b, 2, 1);
    floe_inlet_def d = floe_default_inlet_def();
    d.lo = (floe_vec3){0, 0, 0.005};
    d.hi = (floe_vec3){0.1, 0.1, 0.01};
    d.rate = 4000;
    d.size[0] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 2e-3, .max = 2e-3};
    d.seed = 3;
    CHECK(floe_add_inlet(w, "feed", &d) == 0);
    floe_sink_def sd = floe_default_sink_def();
    sd.region = FLOE_REGION_BOX;
    sd.lo = (floe_vec3){0, 0, -1};
    sd.hi = (floe_vec3){0.05, 0.1, 0.0021};
    sd.t_start = 0.02;
    CHECK(floe_add_sink(w, "half", &sd) == 0);
    int counts[FLOE_EVENT_COUNT] = {0}, off = 0, both = 0;
    for (int s = 0; s < 600; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        floe_event_list ev = floe_events(w);
        int contact = 0, supply = 0;
        for (int e = 0; e < ev.count; e++) {
            const floe_event *x = &ev.events[e];
            if (x->step == 0) continue; /* the start's, before this step */
            off += x->step != floe_step_count(w) || x->time != floe_time(w);
            counts[x->type]++;
            contact |= x->type == FLOE_EVENT_CONTACT_CREATED;
            supply |= x->type == FLOE_EVENT_BODY_INSERTED || x->type == FLOE_EVENT_BODY_REMOVED;
        }
        both += contact && supply;
    }
    REPORT("event times: %d created, %d deleted, %d inserted, %d removed; %d events off their step's time; %d steps "
           "with contact and supply events\n",
           counts[FLOE_EVENT_CONTACT_CREATED], counts[FLOE_EVENT_CONTACT_DELETED], counts[FLOE_EVENT_BODY_INSERTED],
           counts[FLOE_EVENT_BODY_REMOVED], off, both);
    CHECK(counts[FLOE_EVENT_CONTACT_CREATED] > 0 && counts[FLOE_EVENT_CONTACT_DELETED] > 0);
    CHECK(counts[FLOE_EVENT_BODY_INSERTED] > 0 && counts[FLOE_EVENT_BODY_REMOVED] > 0);
    CHECK(off == 0 && both > 0);
    floe_world_destroy(w);
}

static void test_removal_keeps_rows(void) {
    floe_world *w = make_world((floe_vec3){0, 0, 0}, 1e-4);
    CHECK(floe_world_set_periodic(w, 0, 0.0, 0.1) == FLOE_OK);
    floe_body_def b = floe_default_body_def();
    for (int k = 0; k < 3; k++) {
        b.pos = (floe_vec3){0.05, 0.03 * k, 0};
        b.vel = (floe_vec3){k == 2 ? 1.0 : 0.0, 0, 0};
        floe_add_sphere(w, &b, 0.005 + 0.001 * k);
    }
    CHECK(floe_run(w, 600) == FLOE_OK);
    int n[3];
    CHECK(floe_particle_wraps(w, 2, n) == FLOE_OK && n[0] == 1);
    floe_vec3 p2 = floe_positions(w)[2];
    int dead = 0;
    CHECK(floe_remove_bodies(w, &dead, 1, NULL) == FLOE_OK);
    CHECK(floe_particle_count(w) == 2);
    CHECK(floe_particle_wraps(w, 1, n) == FLOE_OK && n[0] == 1 && n[1] == 0);
    CHECK(floe_positions(w)[1].x == p2.x && floe_velocities(w)[1].x == 1.0);
    CHECK(floe_radii(w)[1] == 0.007);
    CHECK(floe_particle_wraps(w, 0, n) == FLOE_OK && n[0] == 0);
    floe_world_destroy(w);
}

int main(void) {
    test_removal_keeps_rows();
    test_errors();
    test_rates();
    test_sizes();
    test_no_overlap();
    test_removal();
    test_energy();
    test_restart();
    test_recycle();
    test_event_times();
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
