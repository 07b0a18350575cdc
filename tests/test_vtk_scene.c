/* What the ParaView frames show besides the bodies (docs/outputs.md), so
 * that particles.pvd with boundaries.pvd shows the scene `floe render`
 * draws: the water surface, a quad at z = level in boundaries.vtp over the
 * bodies plus the margin (shape -1, id -1, the current as velocity); a
 * periodic cell's 12 edges as lines (shape -2) from its origin along its
 * vectors; and a particles frame without particles, which holds one
 * placeholder point (id -1, radius 0, no vertex cell) so that every point
 * array has a tuple for ParaView to list. The writer copies the world's
 * numbers: compared exactly. */
#include "check.h"
#include "io/vtk.h"
#include "vtk_read.h"

#include <unistd.h>

static char tmp[] = "/tmp/floe_vtk_scene_XXXXXX";

static int32_t i32(const vtk_file *f, const char *section, const char *name, size_t i) {
    const vtk_arr *a = vtk_find_in(f, section, name);
    int32_t x = 0;
    if (a) memcpy(&x, f->app + a->offset + 8 + 4 * i, 4);
    else CHECK(!"array missing");
    return x;
}

static double f64(const vtk_file *f, const char *section, const char *name, size_t i) {
    const vtk_arr *a = vtk_find_in(f, section, name);
    CHECK(a != NULL);
    return a ? vtk_f64(f, a, i) : NAN;
}

static int64_t i64(const vtk_file *f, const char *section, const char *name, size_t i) {
    const vtk_arr *a = vtk_find_in(f, section, name);
    int64_t x = 0;
    if (a) memcpy(&x, f->app + a->offset + 8 + 8 * i, 8);
    else CHECK(!"array missing");
    return x;
}

static floe_world *new_world(void) {
    floe_world *w = floe_world_create(NULL);
    CHECK(floe_add_material(w, "ice", "linear") == 0);
    return w;
}

static int sphere(floe_world *w, double x, double y, double z, double r) {
    floe_body_def b = floe_default_body_def();
    b.pos = (floe_vec3){x, y, z};
    return floe_add_sphere(w, &b, r);
}

static int floor_wall(floe_world *w) {
    floe_body_def b = floe_default_body_def();
    return floe_add_wall(w, &b, 2, 1);
}

/* An inlet's scene at its start: walls and facets, no particle; the frame
 * holds the placeholder, not 0 points with point arrays of 0 tuples. */
static void test_empty_frame(void) {
    floe_world *w = new_world();
    CHECK(floor_wall(w) == 0);
    floe_body_def b = floe_default_body_def();
    floe_vec3 tri[3] = {{0, 0, 1}, {2, 0, 1}, {0, 4, 3}};
    CHECK(floe_add_facet(w, &b, tri, 0.0) == 1);
    floe_vtk *v = floe_vtk_create();
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/p0.vtu", tmp);
    CHECK(floe_vtk_write_particles(v, path, w, err, sizeof err) == 0);
    vtk_file f;
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.points == 1 && f.cells == 0);
    CHECK(i32(&f, "PointData", "id", 0) == -1);
    CHECK(i32(&f, "PointData", "shape", 0) == -1);
    CHECK(f64(&f, "PointData", "radius", 0) == 0.0);
    CHECK(f64(&f, "PointData", "orientation", 0) == 1.0);
    /* at the centre of the facet's box (the wall is infinite) */
    CHECK(f64(&f, "Points", "Points", 0) == 1.0 && f64(&f, "Points", "Points", 1) == 2.0);
    CHECK(f64(&f, "Points", "Points", 2) == 2.0);
    int npd = 0;
    for (int i = 0; i < f.narr; i++) npd += !strcmp(f.arr[i].section, "PointData");
    CHECK(npd == 13); /* every point array of a frame with particles */
    free(f.buf);

    /* with a particle, no placeholder */
    CHECK(sphere(w, 5, 5, 5, 0.1) == 2);
    CHECK(floe_vtk_write_particles(v, path, w, err, sizeof err) == 0);
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.points == 1 && f.cells == 1 && i32(&f, "PointData", "id", 0) == 2);
    free(f.buf);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

/* Water at z = 0.3 with a current and no wall or facet: the surface is
 * the frame's only polygon. */
static void test_water_surface(void) {
    floe_world *w = new_world();
    CHECK(sphere(w, -1, 0, 0.3, 0.5) == 0);
    CHECK(sphere(w, 3, 1, 0.3, 0.5) == 1);
    floe_water_def wd = floe_default_water_def();
    wd.level = 0.3;
    wd.current = (floe_vec3){0.25, -0.5, 0};
    CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    floe_vtk *v = floe_vtk_create();
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/b.vtp", tmp);
    CHECK(floe_vtk_write_boundaries(v, path, w, err, sizeof err) == 0);
    vtk_file f;
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.points == 4 && f.polys == 1 && f.lines == 0);
    CHECK(i32(&f, "CellData", "shape", 0) == -1 && i32(&f, "CellData", "id", 0) == -1);
    CHECK(strstr(f.buf, "-1 water surface") != NULL);
    /* the box of the spheres, x in [-1.5, 3.5], y in [-0.5, 1.5], plus 10 % of its largest side (5 m) */
    double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
    for (size_t k = 0; k < 4; k++) {
        double x = f64(&f, "Points", "Points", 3 * k), y = f64(&f, "Points", "Points", 3 * k + 1);
        CHECK(f64(&f, "Points", "Points", 3 * k + 2) == 0.3);
        CHECK(f64(&f, "PointData", "velocity", 3 * k) == 0.25 && f64(&f, "PointData", "velocity", 3 * k + 1) == -0.5);
        xmin = fmin(xmin, x), xmax = fmax(xmax, x), ymin = fmin(ymin, y), ymax = fmax(ymax, y);
        CHECK(i64(&f, "Polys", "connectivity", k) == (int64_t)k);
    }
    CHECK_NEAR(xmin, -2.0, 1e-12);
    CHECK_NEAR(xmax, 4.0, 1e-12);
    CHECK_NEAR(ymin, -1.0, 1e-12);
    CHECK_NEAR(ymax, 2.0, 1e-12);
    free(f.buf);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

/* A cell periodic in x and y, with a wall under it: 12 edges, each along
 * one axis, between the corners of [0, 1] x [0, 2] and the box of the
 * bodies (z) plus the margin. */
static void test_periodic_cell(void) {
    floe_world *w = new_world();
    CHECK(floor_wall(w) == 0);
    CHECK(sphere(w, 0.5, 0.5, 0.1, 0.1) == 1);
    CHECK(sphere(w, 0.5, 1.5, 0.3, 0.1) == 2);
    CHECK(floe_world_set_periodic(w, 0, 0.0, 1.0) == FLOE_OK);
    CHECK(floe_world_set_periodic(w, 1, 0.0, 2.0) == FLOE_OK);
    floe_vtk *v = floe_vtk_create();
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/c.vtp", tmp);
    CHECK(floe_vtk_write_boundaries(v, path, w, err, sizeof err) == 0);
    vtk_file f;
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.lines == 12 && f.polys == 1 && f.points == 4 + 8);
    /* cell data: the 12 lines first, then the wall's quad */
    for (size_t e = 0; e < 12; e++) CHECK(i32(&f, "CellData", "shape", e) == -2);
    CHECK(i32(&f, "CellData", "shape", 12) == 1 && i32(&f, "CellData", "id", 12) == 0);
    /* z: the box of the spheres (0 .. 0.4) plus 10 % of its largest side (y: 0.4 .. 1.6) */
    const double lo[3] = {0, 0, -0.12}, hi[3] = {1, 2, 0.52};
    for (size_t e = 0; e < 12; e++) {
        int64_t a = i64(&f, "Lines", "connectivity", 2 * e), c = i64(&f, "Lines", "connectivity", 2 * e + 1);
        CHECK(i64(&f, "Lines", "offsets", e) == (int64_t)(2 * e + 2));
        int differ = 0;
        for (int k = 0; k < 3; k++) {
            double pa = f64(&f, "Points", "Points", 3 * (size_t)a + (size_t)k);
            double pc = f64(&f, "Points", "Points", 3 * (size_t)c + (size_t)k);
            CHECK(fabs(pa - lo[k]) < 1e-12 || fabs(pa - hi[k]) < 1e-12);
            differ += fabs(pa - pc) > 1e-12;
        }
        CHECK(differ == 1);
    }
    free(f.buf);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

int main(void) {
    CHECK(mkdtemp(tmp) != NULL);
    test_empty_frame();
    test_water_surface();
    test_periodic_cell();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
