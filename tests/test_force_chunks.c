/* The integrator skips reading and zeroing the force and torque sums of a
 * chunk of bodies no contact added to (floe_world.ftouch,
 * docs/performance.md item 33). A run that uses the skip is compared
 * bitwise, step by step, with the same run told before every step that
 * every chunk may hold forces (floe__forces_unknown), which reads them all:
 * - a column of spheres, a touching packing at the bottom (contacts from
 *   the first step, with the floor and each other), free spheres above it
 *   (chunks with no contact), and a second touching packing at the top
 *   whose first body starts a chunk;
 * - on 1 and 2 threads (the second part's sums reach the world through
 *   the merge, which must mark its chunks);
 * - across floe_remove_bodies of five free spheres: the ids above shift
 *   down by five, so the top packing's first bodies, with their forces,
 *   move into the chunk before, which had no contact; and of five bottom
 *   spheres, whose contacts' forces come off their neighbours;
 * - the run shows chunks of both kinds, so that the skip is taken. */
#include "check.h"
#include "core/batch.h"
#include "core/world.h"
#include "pile.h"
#include "same_state.h"

enum { LAYER = 10, BOTTOM = 300, TOP_START = 2560, TOP = 300 };

static void add_packed(floe_world *w, floe_body_def *bd, int n, double z0, double r, uint64_t *seed) {
    const double s = 1.98 * r; /* neighbours overlap */
    for (int k = 0; k < n; k++) {
        int i = k % LAYER, j = (k / LAYER) % LAYER, l = k / (LAYER * LAYER);
        bd->pos = (floe_vec3){(i + 0.5) * s, (j + 0.5) * s, z0 + l * s};
        bd->vel = (floe_vec3){0.05 * (pile_rand(seed) - 0.5), 0.05 * (pile_rand(seed) - 0.5), 0};
        floe_add_sphere(w, bd, r);
    }
}

static floe_world *column(int threads) {
    const double r = 0.005, s = 2.4 * r;
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.dt = 2e-6;
    def.threads = threads;
    floe_body_def bd;
    floe_world *w = pile_world(&def, "linear", 0.4, &bd); /* the floor is id 0; the spheres are 1.. */
    uint64_t seed = 7;
    add_packed(w, &bd, BOTTOM, 0.99 * r, r, &seed);
    /* free spheres up to the top packing's first id, a chunk's first */
    const int nfree = TOP_START - 1 - BOTTOM;
    const double zf = 3 * 1.98 * r + 3 * r;
    for (int k = 0; k < nfree; k++) {
        int i = k % LAYER, j = (k / LAYER) % LAYER, l = k / (LAYER * LAYER);
        bd.pos = (floe_vec3){(i + 0.5) * s, (j + 0.5) * s, zf + l * s};
        bd.vel = (floe_vec3){0.05 * (pile_rand(&seed) - 0.5), 0.05 * (pile_rand(&seed) - 0.5), 0};
        floe_add_sphere(w, &bd, r);
    }
    add_packed(w, &bd, TOP, zf + (nfree / (LAYER * LAYER) + 2) * s, r, &seed);
    CHECK(floe_particle_count(w) == TOP_START + TOP);
    return w;
}

static void run(int threads) {
    floe_world *a = column(threads), *b = column(threads);
    int quiet_seen = 0, written_seen = 0, differ = 0;
    for (int s = 0; s < 600; s++) {
        if (s == 200 || s == 400) { /* five free, then five bottom spheres out */
            int ids[5] = {1, 2, 3, 4, 5};
            for (int k = 0; s == 200 && k < 5; k++) ids[k] += 1000;
            CHECK(floe_remove_bodies(a, ids, 5, NULL) == FLOE_OK);
            CHECK(floe_remove_bodies(b, ids, 5, NULL) == FLOE_OK);
        }
        CHECK(floe_step(a) == FLOE_OK);
        floe__forces_unknown(b);
        CHECK(floe_step(b) == FLOE_OK);
        differ += !same_state(a, b);
        if (a->ftouch) {
            int q = 0, t = 0;
            for (int ch = 0; ch < a->ftouch_n; ch++) q += !a->ftouch[ch], t += a->ftouch[ch] != 0;
            quiet_seen |= q > 0;
            written_seen |= t > 0;
        }
    }
    CHECK(differ == 0);
    CHECK(quiet_seen);   /* chunks without contacts: the skip was taken */
    CHECK(written_seen); /* and chunks with them */
    CHECK(floe_contact_count(a) > 0 && floe_contact_count(a) == floe_contact_count(b));
    /* the bottom and top packings' contacts, none among the free spheres */
    floe_world_destroy(a);
    floe_world_destroy(b);
}

int main(void) {
    run(1);
    run(2);
    return CHECK_DONE();
}
