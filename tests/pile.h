/* A small frictional pile shared by validation tests: nx*ny*nz spheres on a
 * jittered cubic lattice above a floor, inside four side walls. */
#ifndef FLOE_TEST_PILE_H
#define FLOE_TEST_PILE_H

#include <floe/floe.h>
#include <stdint.h>

static double pile_rand(uint64_t *s) { /* splitmix64 -> [0, 1) */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

/* A world of def, one material "grain" of the model (density 2500, Young's
 * modulus 1e7, tan_phi) set in *bd, and a floor at z = 0 (body 0). */
static floe_world *pile_world(const floe_world_def *def, const char *model, double tan_phi, floe_body_def *bd) {
    floe_world *w = floe_world_create(def);
    floe_set_thread_tuning(w, 0); /* every step on the given count: tests compare counts */
    int m = floe_add_material(w, "grain", model);
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", tan_phi);
    *bd = floe_default_body_def();
    bd->material = m;
    floe_add_wall(w, bd, 2, 1);
    return w;
}

/* The pile with its grains (and walls) of a material of the given model. */
static floe_world *make_pile_of(const char *model, int nx, int ny, int nz, double damping, double tan_phi,
                                int threads) {
    const double r = 0.005, s = 2.4 * r;
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.damping = damping;
    def.threads = threads;
    def.dt = 2e-6;
    floe_body_def bd;
    floe_world *w = pile_world(&def, model, tan_phi, &bd);
    floe_add_wall(w, &bd, 0, 1);
    floe_add_wall(w, &bd, 1, 1);
    bd.pos = (floe_vec3){nx * s, ny * s, 0};
    floe_add_wall(w, &bd, 0, -1);
    floe_add_wall(w, &bd, 1, -1);
    uint64_t seed = 12345;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                bd.pos = (floe_vec3){(i + 0.5) * s + 0.2 * r * (pile_rand(&seed) - 0.5),
                                     (j + 0.5) * s + 0.2 * r * (pile_rand(&seed) - 0.5), (k + 0.6) * s};
                bd.vel = (floe_vec3){0.1 * (pile_rand(&seed) - 0.5), 0.1 * (pile_rand(&seed) - 0.5), 0};
                floe_add_sphere(w, &bd, r);
            }
    return w;
}

static inline floe_world *make_pile(int nx, int ny, int nz, double damping, double tan_phi, int threads) {
    return make_pile_of("linear", nx, ny, nz, damping, tan_phi, threads);
}

#endif
