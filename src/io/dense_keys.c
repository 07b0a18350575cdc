/* The key table of the `dense` generator's floe_dense_def (floe_io.h; the
 * engine's tables are src/core/keys.c): read by the scene loader
 * (scene_dense.c) and the Python module's add_dense through the same
 * table. The radius and the bodies' keys (material, group, vel, angvel)
 * are the front ends' own: they go to the size distribution and the body
 * def, not to this def. */
#include <floe/floe_io.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdarg.h>

#define NK(a) ((int)(sizeof(a) / sizeof *(a)))
#define D(m) (int)offsetof(floe_dense_def, m)
#define BIG 1e12
#define REST(...) __VA_ARGS__, .set_offset = -1
#define SETS(...) __VA_ARGS__ /* the key sets another member (set_offset) */

floe_dense_def floe_default_dense_def(void) {
    floe_dense_def d = {0};
    d.region = FLOE_DENSE_BOX;
    d.max_overlap = 0.01;
    d.max_iterations = 200000;
    return d;
}

static const floe_key cylinder_keys[] = {
    {"base", FLOE_KEY_VEC3, D(base), -BIG, BIG, 0, 0, REST("m", "required", "centre of the bottom face")},
    {"radius", FLOE_KEY_NUMBER, D(radius), 0, BIG, 1, 0, REST("m", "required", "the cylinder's radius")},
    {"height", FLOE_KEY_NUMBER, D(height), 0, BIG, 1, 0, REST("m", "required", "its height, along z")},
};
static const floe_key_table cylinder_table = {"dense.cylinder", cylinder_keys, NK(cylinder_keys), NULL};

static floe_status dense_check(void *def, const unsigned char *given, const char *where, char *why, size_t len,
                               int *bad) {
    (void)def;
    if (given[0] || given[1]) return FLOE_OK;
    if (why && len)
        snprintf(why, len,
                 "%s: give exactly one region, box: [[x0, y0, z0], [x1, y1, z1]] or cylinder: {base: [x, y, z], "
                 "radius: R, height: H}",
                 where);
    if (bad) *bad = -1;
    return FLOE_ERR_ARG;
}

static const floe_key dense_keys[] = {
    {"box", FLOE_KEY_BOX, D(lo), 0, 0, 1, 0,
     SETS("m", "-", "the region: a box [[xmin, ymin, zmin], [xmax, ymax, zmax]] ...", .choice = "region",
          .set_offset = D(region), .set_value = FLOE_DENSE_BOX)},
    {"cylinder", FLOE_KEY_MAP, -1, 0, 0, 0, 0,
     SETS("", "-", "... or a cylinder along z, from its bottom centre base up by height", .choice = "region",
          .set_offset = D(region), .set_value = FLOE_DENSE_CYLINDER, .sub = &cylinder_table)},
    {"radius", FLOE_KEY_OWN, -1, 0, 0, 0, 0,
     REST("m", "required",
          "the drawn radii (before the common scaling): as for random, a number, [rmin, rmax] or a distribution {dist: "
          "...}")},
    {"count", FLOE_KEY_INT64, D(count), 0, (double)FLOE_GEN_MAX_COUNT, 0, 0,
     REST("", "0", "spheres; 0: as many as solid_fraction needs at the drawn sizes")},
    {"solid_fraction", FLOE_KEY_NUMBER, D(target), 0, 0.9, 1, 0,
     REST(
         "", "required",
         "sum of the sphere volumes over the region's volume; at most 0.7405 (pi/sqrt(18)) for spheres of one radius")},
    {"seed", FLOE_KEY_INT64, D(seed), 0, 9223372036854775807.0, 0, 0, REST("", "0", "random seed")},
    {"max_overlap", FLOE_KEY_NUMBER, D(max_overlap), 0, 0.5, 1, 0,
     REST("", "0.01",
          "bound on the largest overlap left: pair depth over the smaller radius, or depth beyond the region over the "
          "radius")},
    {"max_iterations", FLOE_KEY_INT64, D(max_iterations), 1, 1e9, 0, 0,
     REST("", "200000", "relaxation iterations (FIRE steps) in all")},
    {"material", FLOE_KEY_OWN, -1, 0, 0, 0, 0, REST("", "the only one", "as for random")},
    {"group", FLOE_KEY_OWN, -1, 0, 0, 0, 0, REST("", "none", "as for random")},
    {"vel", FLOE_KEY_OWN, -1, 0, 0, 0, 0, REST("m/s", "[0, 0, 0]", "as for random")},
    {"angvel", FLOE_KEY_OWN, -1, 0, 0, 0, 0, REST("rad/s", "[0, 0, 0]", "as for random")},
};
static const floe_key_table dense_table = {"dense", dense_keys, NK(dense_keys), dense_check};

const floe_key_table *floe_dense_key_table(void) { return &dense_table; }
const floe_key_table *floe_dense_cylinder_key_table(void) { return &cylinder_table; }
