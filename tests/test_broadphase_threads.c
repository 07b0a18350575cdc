/* The broad phase on several threads: each thread searches a range of
 * bodies into a list of its own and the lists are joined in range order,
 * so the pair list, its links to the contacts and the contacts' order must
 * equal, element by element, those of one thread. The world has several
 * thousand spheres on a jittered lattice that overlap their neighbours
 * (contacts form in the first step), walls (infinite boundaries), facets
 * among the first and the last bodies (finite ones, searched whole by one
 * thread) and a few spheres large enough to stay off the grid. Before the
 * compared rebuild, bodies swap places, so that some contacts lose their
 * pair and the others change order. */
#include "check.h"
#include "core/broadphase.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double rnd(uint64_t *s) { /* splitmix64 -> [0, 1) */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

enum { NX = 18, NY = 16, NZ = 14, NBIG = 4 }; /* 4032 grains: 4 blocks of FLOE_BLOCK bodies and some */

/* A facet just above the lattice (gaps from 0.15 mm to 0.75 mm, within the
 * skin), tilted by dz0, dz1 (0 to 0.5 mm), over a triangle of the top. */
static void add_facet(floe_world *w, floe_body_def *bd, double dz0, double dz1) {
    const double L = NX * 0.0099, z = NZ * 0.0099 + 0.0008;
    floe_vec3 tri[3] = {{0, 0, z + dz0}, {L, 0, z + dz1}, {0, L, z + 0.5 * (dz0 + dz1)}};
    bd->pos = (floe_vec3){0, 0, 0};
    floe_add_facet(w, bd, tri, 0.0005);
}

static floe_world *make(void) {
    const double r = 0.005, s = 1.98 * r; /* neighbours overlap by 1 % of the radius */
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    def.skin = 0.001;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    floe_set_thread_tuning(w, 0);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_wall(w, &bd, 2, 1);
    floe_add_wall(w, &bd, 0, 1);
    floe_add_wall(w, &bd, 1, 1);
    add_facet(w, &bd, 0, 0.0004);
    uint64_t seed = 7;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                bd.pos = (floe_vec3){(i + 0.5) * s + 0.02 * r * (rnd(&seed) - 0.5),
                                     (j + 0.5) * s + 0.02 * r * (rnd(&seed) - 0.5), (k + 0.5) * s};
                floe_add_sphere(w, &bd, r * (0.98 + 0.04 * rnd(&seed)));
            }
    bd.pos = (floe_vec3){NX * s, NY * s, 0};
    floe_add_wall(w, &bd, 0, -1);
    floe_add_wall(w, &bd, 1, -1);
    add_facet(w, &bd, 0.0003, 0);
    add_facet(w, &bd, 0.0001, 0.0002);
    for (int k = 0; k < NBIG; k++) { /* above the lattice, moved into it before the rebuild */
        bd.pos = (floe_vec3){(k + 0.5) * 0.04, 0.08, NZ * s + 0.2};
        floe_add_sphere(w, &bd, 0.015);
    }
    return w;
}

typedef struct result {
    int npairs, ncon;
    floe_pair *pairs;
    int *con; /* per contact: a, b, pair */
} result;

/* The world after two steps on one thread and the stir, rebuilt on
 * `threads` threads. */
static result rebuilt(int threads) {
    floe_world *w = make();
    for (int s = 0; s < 2; s++) {
        floe_status st = floe_step(w);
        if (st != FLOE_OK) fprintf(stderr, "step: %s\n", floe_last_error(w));
        CHECK(st == FLOE_OK);
    }
    CHECK(w->ncon > 1000);
    uint64_t seed = 3;
    int first = 4, last = w->np - NBIG - 4; /* the grains' ids */
    for (int k = 0; k < 300; k++) {         /* swap the places of grains far apart */
        int i = first + (int)(rnd(&seed) * (last - first)), j = first + (int)(rnd(&seed) * (last - first));
        vec3 t = w->pos[i];
        w->pos[i] = w->pos[j];
        w->pos[j] = t;
    }
    for (int k = 0; k < NBIG; k++) w->pos[w->np - NBIG + k] = v3((k + 0.5) * 0.04, 0.06, 0.06);
    CHECK(floe_set_threads(w, threads) == FLOE_OK);
    CHECK(floe__threads(w) == threads);
    CHECK(floe_broadphase_rebuild(w) == FLOE_OK);
    result r = {w->bp.npairs, w->ncon, malloc(sizeof(floe_pair) * (size_t)w->bp.npairs),
                malloc(sizeof(int) * 3 * (size_t)w->ncon)};
    memcpy(r.pairs, w->bp.pairs, sizeof(floe_pair) * (size_t)w->bp.npairs);
    for (int k = 0; k < w->ncon; k++) {
        r.con[3 * k] = w->con[k].a;
        r.con[3 * k + 1] = w->con[k].b;
        r.con[3 * k + 2] = w->ccold[k].nbr;
    }
    floe_world_destroy(w);
    return r;
}

int main(void) {
    result one = rebuilt(1);
    /* the test means something: every kind of pair is there, and contacts
     * with and without a pair */
    int walls = 0, facets = 0, big = 0, grains = 0, linked = 0, unlinked = 0;
    for (int p = 0; p < one.npairs; p++) {
        int a = one.pairs[p].a, b = one.pairs[p].b;
        walls += a < 3 || a == 4 + NX * NY * NZ;
        facets += a == 3 || a == 6 + NX * NY * NZ;
        big += b >= 8 + NX * NY * NZ;
        grains += a >= 4 && b < 4 + NX * NY * NZ;
    }
    for (int k = 0; k < one.ncon; k++) {
        linked += one.con[3 * k + 2] >= 0;
        unlinked += one.con[3 * k + 2] < 0;
    }
    printf("1 thread: %d pairs (%d wall, %d facet, %d large-body, %d grain), %d contacts (%d without a pair)\n",
           one.npairs, walls, facets, big, grains, one.ncon, unlinked);
    CHECK(walls > 0 && facets > 0 && big > 0 && grains > 10000 && linked > 1000 && unlinked > 100);
    for (int t = 2; t <= 3; t++) {
        result r = rebuilt(t);
        CHECK(r.npairs == one.npairs);
        CHECK(r.ncon == one.ncon);
        int first = -1;
        for (int p = 0; p < r.npairs && p < one.npairs; p++)
            if (first < 0 && (r.pairs[p].a != one.pairs[p].a || r.pairs[p].b != one.pairs[p].b ||
                              r.pairs[p].contact != one.pairs[p].contact))
                first = p;
        if (first >= 0) fprintf(stderr, "%d threads: pair %d differs\n", t, first);
        CHECK(first < 0);
        CHECK(r.npairs != one.npairs || memcmp(r.pairs, one.pairs, sizeof(floe_pair) * (size_t)r.npairs) == 0);
        CHECK(r.ncon != one.ncon || memcmp(r.con, one.con, sizeof(int) * 3 * (size_t)r.ncon) == 0);
        free(r.pairs);
        free(r.con);
    }
    free(one.pairs);
    free(one.con);
    return CHECK_DONE();
}
