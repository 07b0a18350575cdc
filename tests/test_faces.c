/* The engine's public faces (include/floe/floe_shape.h, floe_snapshot.h,
 * floe_pack.h, the queries of floe.h that the I/O library uses), built from
 * the public headers alone and linked against the shared library libfloe.so
 * (CMakeLists.txt), so that a face the library does not export fails to
 * link. Expected values are closed forms:
 *  - the shape classes in registry order are the scene sections particles,
 *    capsules, ellipsoids, cylinders, walls, facets; a capsule has the
 *    parameters radius and shaft (2 values);
 *  - a capsule of radius 1 and shaft 2 along x has half extents (2, 1, 1) in
 *    its frame, and (1, 2, 1) turned a quarter about z (exact to 1e-15);
 *  - a floor z = 0 (wall, axis 2, sense +1): a sphere of radius 1 centred at
 *    z = 0.5 touches it, one at z = 1.5 does not; a box far from it keeps
 *    no boundary;
 *  - a facet's vertices are its 3 corners, its picture one triangle;
 *  - the snapshot's byte form gives a world whose positions, step and
 *    time are the original's, bit for bit;
 *  - floe_model_index is the i of floe_model_get(i) for every model;
 *  - ids out of range give nothing (0 vertices, zero extents). */
#include <floe/floe.h>
#include <floe/floe_pack.h>
#include <floe/floe_shape.h>
#include <floe/floe_snapshot.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c)                                                         \
    do {                                                                 \
        if (!(c)) {                                                      \
            fprintf(stderr, "%s:%d: FAIL %s\n", __FILE__, __LINE__, #c); \
            fails++;                                                     \
        }                                                                \
    } while (0)

static int near(double a, double b) { return fabs(a - b) <= 1e-15; }

static void test_shape_info(void) {
    static const char *const sections[] = {"particles", "capsules", "ellipsoids", "clumps",
                                           "cylinders", "walls",    "facets",     "polyhedra"};
    _Static_assert(sizeof sections / sizeof *sections == FLOE_SHAPE_COUNT, "a section per shape");
    for (int i = 0; i < FLOE_SHAPE_COUNT; i++) {
        const floe_shape_info *s = floe_shape_at(i);
        CHECK(s && !strcmp(s->section, sections[i]));
        CHECK(s && floe_shape_get(s->type) == s);
    }
    CHECK(floe_shape_at(FLOE_SHAPE_COUNT) == NULL && floe_shape_get(-1) == NULL);
    const floe_shape_info *c = floe_shape_get(FLOE_SHAPE_CAPSULE);
    CHECK(!strcmp(c->name, "capsule") && c->nparams == 2 && c->nvalues == 2);
    CHECK(!strcmp(c->params[0].key, "radius") && !strcmp(c->params[1].key, "shaft"));
    CHECK(c->draw == FLOE_DRAW_SURFACE && (c->flags & FLOE_SHAPE_TURNS));
    const floe_shape_info *w = floe_shape_get(FLOE_SHAPE_WALL);
    CHECK((w->flags & FLOE_SHAPE_BOUNDARY) && w->draw == FLOE_DRAW_BOUNDARY);
    for (int i = 0; i < floe_model_count(); i++) CHECK(floe_model_index(floe_model_get(i)->name) == i);
    CHECK(floe_model_index("no such model") == -1);
}

static void test_bodies(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-5;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "ice", "linear");
    floe_body_def b = floe_default_body_def();
    b.material = m;
    int floor = floe_add_wall(w, &b, 2, +1);
    b.pos = (floe_vec3){0, 0, 5};
    int cap = floe_add_capsule(w, &b, 1, 2);
    b.ori = (floe_quat){sqrt(0.5), 0, 0, sqrt(0.5)}; /* a quarter turn about z */
    b.pos = (floe_vec3){10, 0, 5};
    int turned = floe_add_capsule(w, &b, 1, 2);
    b.ori = (floe_quat){1, 0, 0, 0};
    b.pos = (floe_vec3){0, 0, 0};
    double tri[10] = {0, 0, -1, 1, 0, -1, 0, 1, -1, 0.01};
    int facet = floe_add_body(w, &b, FLOE_SHAPE_FACET, tri);
    CHECK(floor >= 0 && cap >= 0 && turned >= 0 && facet >= 0);

    floe_vec3 e = floe_body_half_extent(w, cap, 0);
    CHECK(near(e.x, 2) && near(e.y, 1) && near(e.z, 1));
    e = floe_body_half_extent(w, turned, 1);
    CHECK(near(e.x, 1) && near(e.y, 2) && near(e.z, 1));

    floe_vec3 v[FLOE_SHAPE_MAX_VERTICES];
    CHECK(floe_body_vertices(w, floor, v) == 0 && floe_body_vertices(w, cap, v) == 0);
    CHECK(floe_body_vertices(w, facet, v) == 3);
    CHECK(floe_body_vertices(w, 99, v) == 0 && floe_body_half_extent(w, -1, 0).x == 0); /* ids out of range */
    CHECK(near(v[1].x, 1) && near(v[1].z, -1) && near(v[2].y, 1));
    floe_vec3 *pt = malloc(sizeof *pt * FLOE_SHAPE_MAX_POINTS);
    int32_t *corner = malloc(sizeof *corner * FLOE_SHAPE_MAX_FACES * 4);
    floe_draw_box box = {{-1, -1, -1}, {1, 1, 1}, 1, 0.1};
    const floe_shape_info *fi = floe_shape_get(FLOE_SHAPE_FACET);
    floe_body_picture(w, facet, &box, pt, NULL, corner);
    CHECK(fi->draw_faces == 1 && fi->face_size == 3);
    for (int k = 0; k < fi->face_size; k++) CHECK(corner[k] >= 0 && corner[k] < fi->draw_points);
    free(pt);
    free(corner);

    /* the sphere tests see the floor, the facet and the capsule at z = 5 (its
     * bounding sphere, radius 2, reaches the box grown by 1), not the turned
     * capsule at x = 10 */
    floe_clear *c = floe_clear_new(w, NULL, (floe_vec3){-3, -3, -0.5}, (floe_vec3){3, 3, 3}, 1);
    CHECK(c && floe_clear_count(c) == 3);
    CHECK(floe_clear_sphere(c, (floe_vec3){-2.5, -2.5, 0.5}, 1) == 0); /* into the floor */
    CHECK(floe_clear_sphere(c, (floe_vec3){-2.5, -2.5, 1.5}, 1) == 1); /* above it */
    CHECK(floe_clear_sphere(c, (floe_vec3){0, 0, 3.5}, 1) == 0);       /* into the capsule, whose lowest z is 4 */
    CHECK(floe_clear_sphere(c, (floe_vec3){0, 0, 2.5}, 1) == 1);       /* below it */
    floe_clear_free(c);
    c = floe_clear_new(w, NULL, (floe_vec3){50, 50, 50}, (floe_vec3){60, 60, 60}, 1);
    CHECK(c && floe_clear_count(c) == 0); /* far above the floor and the facet: nothing to test */
    floe_clear_free(c);

    int body, axis;
    char why[256];
    CHECK(floe_world_cell_misfit(w, &body, &axis, why, sizeof why) == 0); /* no cell */
    CHECK(floe_stopped(w) == 0);
    floe_world_destroy(w);
}

static void test_bytes(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-5;
    def.gravity = (floe_vec3){0, 0, -9.81};
    floe_world *w = floe_world_create(&def);
    floe_body_def b = floe_default_body_def();
    b.material = floe_add_material(w, "glass", "linear");
    floe_add_wall(w, &b, 2, +1);
    b.pos = (floe_vec3){0, 0, 0.0101};
    floe_add_sphere(w, &b, 0.01);
    for (int i = 0; i < 50; i++) CHECK(floe_step(w) == FLOE_OK);
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[512];
    CHECK(floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err) == 0 && len > 0);
    floe_world *r = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    CHECK(r != NULL);
    if (r) {
        CHECK(floe_step_count(r) == 50 && floe_time(r) == floe_time(w));
        CHECK(!memcmp(floe_positions(r), floe_positions(w), sizeof(floe_vec3) * 2));
        CHECK(floe_step(r) == FLOE_OK && floe_step(w) == FLOE_OK);
        CHECK(!memcmp(floe_positions(r), floe_positions(w), sizeof(floe_vec3) * 2)); /* resumes bitwise */
        floe_world_destroy(r);
    }
    CHECK(floe_snapshot_from_bytes(bytes, len / 2, err, sizeof err) == NULL); /* cut short: refused */
    free(bytes);
    floe_world_destroy(w);
}

int main(void) {
    test_shape_info();
    test_bodies();
    test_bytes();
    if (fails) return 1;
    printf("test_faces: shape info, body queries, floe_clear and the snapshot's byte form through libfloe.so\n");
    return 0;
}
