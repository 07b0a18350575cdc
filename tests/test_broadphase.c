/* Broad phase against brute force: spheres of very different sizes (grains
 * of radius 1 mm to 3 mm, a few indenters of 20 to 60 mm that stay off the
 * cell grid), a facet and walls, scattered at random. Every pair of bodies
 * within the search distance (surface gap < skin) must be in the pair list,
 * once, in narrow-phase order, and no pair farther than that: for spheres
 * the bounding spheres are exact, so the expected set is known in closed
 * form. Run for several seeds and skins. */
#include "check.h"
#include "core/broadphase.h"

#include <stdint.h>
#include <stdlib.h>

static double rnd(uint64_t *s) { /* splitmix64 -> [0, 1) */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

/* Surface gap between body i and sphere j (for the bodies of this test). */
static double gap(const floe_world *w, int i, int j) {
    double rj = w->radius[j];
    if (w->shape[i] == FLOE_SHAPE_WALL) {
        int ax = ((const floe_wall *)floe__shape_data(w, i))->axis;
        return fabs(vcomp(w->pos[j], ax) - vcomp(w->pos[i], ax)) - rj;
    }
    if (w->shape[i] == FLOE_SHAPE_FACET) {
        vec3 v[3];
        const floe_facet *f = floe__shape_data(w, i);
        floe_pose p = floe__pose(w, i);
        floe_facet_global(f, &p, v);
        return vlen(vsub(w->pos[j], floe_closest_on_triangle(w->pos[j], v[0], v[1], v[2]))) - rj - f->half_thick;
    }
    return vlen(vsub(w->pos[j], w->pos[i])) - w->radius[i] - rj;
}

static void run(uint64_t seed0, double skin, int nbig) {
    uint64_t seed = seed0;
    floe_world_def def = floe_default_world_def();
    def.skin = skin;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", "linear");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_wall(w, &bd, 2, 1);
    bd.pos = (floe_vec3){0.1, 0, 0};
    floe_add_wall(w, &bd, 0, -1);
    floe_vec3 tri[3] = {{0, 0, 0.02}, {0.1, 0, 0.03}, {0, 0.1, 0.05}};
    bd.pos = (floe_vec3){0, 0, 0};
    floe_add_facet(w, &bd, tri, 0.001);
    for (int k = 0; k < 1500; k++) {
        bd.pos = (floe_vec3){0.1 * rnd(&seed), 0.1 * rnd(&seed), 0.08 * rnd(&seed)};
        floe_add_sphere(w, &bd, 0.001 + 0.002 * rnd(&seed));
    }
    for (int k = 0; k < nbig; k++) {
        bd.pos = (floe_vec3){0.1 * rnd(&seed), 0.1 * rnd(&seed), 0.08 * rnd(&seed)};
        floe_add_sphere(w, &bd, 0.02 + 0.04 * rnd(&seed));
    }
    w->skin = skin;
    CHECK(floe__prepare(w));
    CHECK(floe_broadphase_rebuild(w) == FLOE_OK);
    int n = w->np;
    unsigned char *seen = calloc((size_t)n * n, 1);
    int dup = 0, far = 0, order = 0, missing = 0, expected = 0;
    for (int p = 0; p < w->bp.npairs; p++) {
        int a = w->bp.pairs[p].a, b = w->bp.pairs[p].b;
        dup += seen[(size_t)a * n + b]++ > 0;
        int lo = floe_shape_rank(w->shape[a]) < floe_shape_rank(w->shape[b]) ? a : b;
        order += w->shape[a] == w->shape[b] ? a > b : lo != a;
        far += !(gap(w, a, b) < skin * (1 + 1e-12) + 1e-15);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j || w->shape[j] != FLOE_SHAPE_SPHERE) continue;
            if (w->shape[i] == FLOE_SHAPE_SPHERE && j < i) continue;
            if (!(gap(w, i, j) < skin * (1 - 1e-12))) continue;
            expected++;
            missing += !seen[(size_t)i * n + j] && !seen[(size_t)j * n + i];
        }
    CHECK(dup == 0 && order == 0 && far == 0 && missing == 0);
    REPORT("seed %llu, skin %g, %d indenters: %d pairs (%d expected), missing %d, duplicate %d, too far %d, "
           "misordered %d\n",
           (unsigned long long)seed0, skin, nbig, w->bp.npairs, expected, missing, dup, far, order);
    free(seen);
    floe_world_destroy(w);
}

int main(void) {
    run(1, 0.0005, 0);
    run(2, 0.0005, 3);
    run(3, 0.002, 8);
    run(4, 0.0001, 30);
    return CHECK_DONE();
}
