/* Contact creation in parallel (step.c: find_hits, create_contacts): each
 * chunk of candidate pairs fills the contacts that follow the hits of the
 * chunks before it, so the new contacts must come out in candidate-pair
 * order, the same for 1, 2 and 3 threads element by element.
 * 1. A lattice of spheres placed just overlapping their six neighbours:
 *    thousands of contacts in the first step (the arrays grow in it), over
 *    many chunks of pairs; their number against a brute-force count of the
 *    overlapping pairs, their order against the pair list.
 * 2. That lattice beside a block whose spheres all close on their
 *    neighbours at once: thousands of contacts made in a later step, within
 *    the arrays' capacity.
 * 3. A stirred pile: a few contacts made in most steps (those the last
 *    part's thread makes alone), compared step by step across the thread
 *    counts. */
#include "check.h"
#include "core/world.h"
#include "pile.h"

#include <string.h>

enum { NX = 20, NY = 20, NZ = 8 };
static const double R = 0.005, SPACING = 1.98 * 0.005; /* 1 % of the diameter overlapping */

/* nx*ny*nz spheres of radius R at the given spacing from origin; with
 * contract > 0 moving towards the block's centre at contract times their
 * distance from it (per second), so that all neighbours close at once. */
static void block(floe_world *w, int m, floe_vec3 origin, int nx, int ny, int nz, double spacing, double contract) {
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    const floe_vec3 mid = {origin.x + (nx - 1) * spacing / 2, origin.y + (ny - 1) * spacing / 2,
                           origin.z + (nz - 1) * spacing / 2};
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                bd.pos = (floe_vec3){origin.x + i * spacing, origin.y + j * spacing, origin.z + k * spacing};
                bd.vel = (floe_vec3){-contract * (bd.pos.x - mid.x), -contract * (bd.pos.y - mid.y),
                                     -contract * (bd.pos.z - mid.z)};
                floe_add_sphere(w, &bd, R);
            }
}

/* The overlapping lattice, and with `closing` a block beside it. */
static floe_world *lattice(int threads, int closing) {
    floe_world_def def = floe_default_world_def();
    def.threads = threads;
    def.dt = 2e-6;
    floe_world *w = floe_world_create(&def);
    floe_set_thread_tuning(w, 0);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    block(w, m, (floe_vec3){0, 0, 0}, NX, NY, NZ, SPACING, 0);
    /* gaps of 1e-5 m closing at 0.25 m/s: all in about 20 steps */
    if (closing) block(w, m, (floe_vec3){1, 0, 0}, NX, NY, NZ / 2, 2 * R + 1e-5, 25);
    return w;
}

/* The contacts of a and b, element by element and record by record. */
static int same_contacts(const floe_world *a, const floe_world *b) {
    if (a->ncon != b->ncon) return 0;
    if (a->ncon == 0) return 1; /* the arrays may be NULL */
    for (int k = 0; k < a->ncon; k++)
        if (a->con[k].a != b->con[k].a || a->con[k].b != b->con[k].b || a->ccold[k].nbr != b->ccold[k].nbr) return 0;
    size_t n = (size_t)a->ncon;
    for (int k = 0; k < a->ncon; k++) { /* the warm records, kept or implied (core/world.h) */
        floe_contact_warm xa, xb;
        if (memcmp(floe__warm(a, k, &xa), floe__warm(b, k, &xb), sizeof xa)) return 0;
    }
    return memcmp(a->con, b->con, n * sizeof *a->con) == 0 && memcmp(a->ccold, b->ccold, n * sizeof *a->ccold) == 0 &&
           memcmp(a->cstate, b->cstate, n * a->cstride) == 0;
}

static void test_lattice(void) {
    floe_world *w[3];
    for (int t = 0; t < 3; t++) {
        w[t] = lattice(t + 1, 0);
        CHECK(floe_start(w[t]) == FLOE_OK); /* the first contact pass */
    }
    /* every overlapping pair (brute force) has its contact, no other pair */
    const int n = NX * NY * NZ;
    const floe_vec3 *x = floe_positions(w[0]);
    int overlapping = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double dx = x[i].x - x[j].x, dy = x[i].y - x[j].y, dz = x[i].z - x[j].z;
            overlapping += dx * dx + dy * dy + dz * dz <= 4 * R * R;
        }
    CHECK(overlapping == 3 * NX * NY * NZ - NY * NZ - NX * NZ - NX * NY);
    CHECK(w[0]->ncon == overlapping);
    CHECK(w[0]->bp.npairs > 3 * 1024); /* more chunks of pairs than threads */
    /* in pair order: the pair list's contact links back, pairs ascend */
    int ordered = 1;
    for (int k = 0; k < w[0]->ncon; k++) {
        int p = w[0]->ccold[k].nbr;
        ordered = ordered && p >= 0 && w[0]->bp.pairs[p].contact == k && (k == 0 || p > w[0]->ccold[k - 1].nbr) &&
                  w[0]->bp.pairs[p].a == w[0]->con[k].a && w[0]->bp.pairs[p].b == w[0]->con[k].b;
    }
    CHECK(ordered);
    CHECK(same_contacts(w[0], w[1]));
    CHECK(same_contacts(w[0], w[2]));
    REPORT("lattice: %d contacts made in one step from %d candidate pairs, %s for 1, 2, 3 threads\n", w[0]->ncon,
           w[0]->bp.npairs, same_contacts(w[0], w[1]) && same_contacts(w[0], w[2]) ? "identical" : "DIFFERENT");
    for (int t = 0; t < 3; t++) floe_world_destroy(w[t]);
}

/* Many contacts made in one later step, within the capacity the first
 * step gave: the parallel creation without growth. */
static void test_closing(void) {
    floe_world *w[3];
    for (int t = 0; t < 3; t++) {
        w[t] = lattice(t + 1, 1);
        CHECK(floe_start(w[t]) == FLOE_OK);
    }
    int same = 1, most = 0, big_within = 0;
    for (int s = 0; s < 60; s++) {
        int cap = w[0]->ccap, before = w[0]->ncon;
        for (int t = 0; t < 3; t++) CHECK(floe_step(w[t]) == FLOE_OK);
        int fresh = 0;
        for (int k = 0; k < w[0]->ncon; k++) fresh += w[0]->ccold[k].step_created == w[0]->step;
        if (fresh > most) most = fresh;
        big_within += fresh > 1024 && w[0]->ccap == cap && w[0]->ncon == before + fresh;
        same = same && same_contacts(w[0], w[1]) && same_contacts(w[0], w[2]);
    }
    CHECK(same);
    CHECK(big_within >= 1);
    REPORT("closing block: up to %d contacts made in one step, %d such steps within the capacity, %s for 1, 2, 3 "
           "threads\n",
           most, big_within, same ? "identical" : "DIFFERENT");
    for (int t = 0; t < 3; t++) floe_world_destroy(w[t]);
}

static void test_pile(void) {
    floe_world *w[3];
    for (int t = 0; t < 3; t++) {
        w[t] = make_pile(16, 16, 6, 0.1, 0.5, t + 1);
        uint64_t seed = 7; /* stirred, so that contacts keep forming */
        for (int i = 0; i < floe_particle_count(w[t]); i++)
            if (floe_particle_shape(w[t], i) == FLOE_SHAPE_SPHERE)
                floe_set_velocity(w[t], i,
                                  (floe_vec3){4 * (pile_rand(&seed) - 0.5), 4 * (pile_rand(&seed) - 0.5),
                                              4 * (pile_rand(&seed) - 0.5)});
    }
    int same = 1, made_within = 0, made = 0;
    for (int s = 0; s < 400; s++) {
        int cap = w[0]->ccap;
        for (int t = 0; t < 3; t++) CHECK(floe_step(w[t]) == FLOE_OK);
        int fresh = 0;
        for (int k = 0; k < w[0]->ncon; k++) fresh += w[0]->ccold[k].step_created == w[0]->step;
        made += fresh;
        made_within += fresh > 0 && w[0]->ccap == cap;
        same = same && same_contacts(w[0], w[1]) && same_contacts(w[0], w[2]);
    }
    CHECK(same);
    CHECK(made_within > 10);
    REPORT("pile: %d contacts made over 400 steps, in %d steps within the capacity, %s for 1, 2, 3 threads\n", made,
           made_within, same ? "identical" : "DIFFERENT");
    for (int t = 0; t < 3; t++) floe_world_destroy(w[t]);
}

int main(void) {
    test_lattice();
    test_closing();
    test_pile();
    return CHECK_DONE();
}
