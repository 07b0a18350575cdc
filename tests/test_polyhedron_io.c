/* I/O of polyhedra: the scene section `polyhedra` (values read back
 * through the API, exact error messages), the shapes .vtp series (the
 * documented point and triangle counts, points on the hull, outward
 * normals), a restart file in mid-run resumed bit for bit (with water), and
 * a damaged record refused. */
#include "check.h"
#include "core/snapshot_shapes.h"
#include "core/world.h"
#include "io/scene.h"
#include "io/vtk.h"
#include "shapes/polyhedron_clip.h"
#include "vtk_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double f64(const unsigned char *p, size_t i) {
    double x;
    memcpy(&x, p + 8 * i, 8);
    return x;
}

static char tmp[] = "/tmp/floe_test_polyhedron_io_XXXXXX";

static void expect_error(const char *yaml, const char *want, int line) {
    char path[512], err[1024], full[2048];
    floe_scene s;
    check_write_tmp(tmp, "bad.yaml", yaml, path, sizeof path);
    int rc = floe_scene_load(path, &s, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK(rc != 0);
    if (rc == 0) {
        floe_scene_free(&s);
        return;
    }
    if (strncmp(err, full, strlen(full)) != 0) {
        check_failures++;
        fprintf(stderr, "test_polyhedron_io.c:%d: wrong message\n  got:  %s\n  want: %s...\n", line, err, full);
    }
}
#define EXPECT_ERROR(yaml, want) expect_error(yaml, want, __LINE__)

#define HEAD "run: {steps: 1}\nmaterials: [{name: a, density: 900}]\n"

static const char *scene_text =
    "run: {steps: 400}\n"
    "world: {gravity: [0, 0, -9.81], dt: 1e-4}\n"
    "materials: [{name: a, density: 900, young: 1e6}]\n"
    "water: {level: 0.05}\n"
    "walls: [{axis: z, pos: 0, material: a}]\n"
    "polyhedra:\n"
    "  - {vertices: [[0,0,0], [0.2,0,0], [0.2,0.2,0], [0,0.2,0], [0,0,0.2], [0.2,0,0.2], [0.2,0.2,0.2], "
    "[0,0.2,0.2]],\n"
    "     pos: [1, 0, 0.001], ori: [1, 0.1, 0, 0], vel: [0.1, 0, 0], material: a}\n"
    "  - {vertices: [[0,0,0], [0.1,0,0], [0,0.1,0], [0,0,0.1]], pos: [1.05, 0.05, 0.23], material: a}\n"
    "  - {vertices: [[0,0,0], [0.1,0,0], [0,0.1,0], [0,0,0.1], [0.05,0.05,0.01]], pos: [1.3, 0, 0], "
    "material: a, fixed: true}\n"
    "particles: [{radius: 0.05, pos: [1.35, 0.03, 0.16], material: a}]\n";

static void test_scene(void) {
    char path[512], err[1024];
    check_write_tmp(tmp, "poly.yaml", scene_text, path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    floe_world *w = s.world;
    CHECK(floe_particle_count(w) == 5);
    CHECK(floe_particle_shape(w, 1) == FLOE_SHAPE_POLYHEDRON && floe_particle_shape(w, 3) == FLOE_SHAPE_POLYHEDRON);
    /* the cube: mass rho a^3, its centre half a side from pos along the turned axes */
    CHECK_REL(floe_masses(w)[1], 900 * 0.008, 1e-12);
    /* the tetrahedron: volume a^3 / 6, centroid a/4 from its corner */
    CHECK_REL(floe_masses(w)[2], 900 * 0.001 / 6, 1e-12);
    floe_vec3 p = floe_positions(w)[2];
    CHECK_NEAR(p.x, 1.05 + 0.025, 1e-15);
    CHECK_NEAR(p.y, 0.05 + 0.025, 1e-15);
    CHECK_NEAR(p.z, 0.23 + 0.025, 1e-15);
    /* the vertices back: given order, relative to the given frame; a
     * shorter list ends repeating its last vertex */
    double par[FLOE_SHAPE_MAX_PARAMS];
    CHECK(floe_body_params(w, 3, par, FLOE_SHAPE_MAX_PARAMS) == 96);
    const double want[15] = {0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1, 0.05, 0.05, 0.01};
    double worst = 0;
    for (int k = 0; k < 96; k++) worst = fmax(worst, fabs(par[k] - want[k < 15 ? k : 12 + k % 3]));
    CHECK(worst < 1e-15);
    CHECK(floe_particle_blocked(w)[3] == FLOE_DOF_ALL);
    REPORT("scene: polyhedra section read (cube, tetrahedron, a hull with an inner point); masses and centroids "
           "exact, the vertices back to %.1e\n",
           worst);
    floe_scene_free(&s);
}

static void test_errors(void) {
    EXPECT_ERROR(HEAD "polyhedra: [{vertices: [[0,0,0], [1,0,0], [0,1,0]], pos: [0, 0, 0]}]\n",
                 "3:24: polyhedra[0].vertices: expected a list of 4 to 32 vertices [[x,y,z], ...]");
    EXPECT_ERROR(HEAD "polyhedra: [{vertices: [[0,0,0], [1,0,0], [0,1,0], [1,1,0]], pos: [0, 0, 0]}]\n",
                 "3:13: polyhedra[0]: floe_add_body: the vertices span no volume (Qhull: QH6154");
    EXPECT_ERROR(HEAD "polyhedra: [{vertices: [[0,0,0], [1,0,0], [0,1,0], [0,0,1]]}]\n",
                 "3:13: missing required key 'pos' in polyhedra[0]");
    EXPECT_ERROR(HEAD "polyhedra: [{vertices: [[0,0,0], [1,0,0], [0,1,0], [0,0,nan]], pos: [0, 0, 0]}]\n",
                 "3:57: polyhedra[0].vertices[3][2]: expected a number, got 'nan'");
    /* a record read back that indexes past its vertices is refused */
    floe_world *w = floe_world_create(NULL);
    int m = floe_add_material(w, "m", "linear");
    floe_body_def d = floe_default_body_def();
    d.material = m;
    const floe_vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    CHECK(floe_add_polyhedron(w, &d, 4, v) == 0);
    CHECK(floe_add_polyhedron(w, &d, 3, v) == -1 && strstr(floe_last_error(w), "3 vertices"));
    char why[200];
    CHECK(floe__snap_shape_check(w, 0, why, sizeof why) == NULL);
    floe_polyhedron *rec = (floe_polyhedron *)floe__shape_data(w, 0);
    rec->corner[2] = 7;
    CHECK(floe__snap_shape_check(w, 0, why, sizeof why) != NULL && strstr(why, "vertex 7 of 4"));
    rec->corner[2] = 2;
    rec->start[1] = rec->start[0] + 2;
    CHECK(floe__snap_shape_check(w, 0, why, sizeof why) != NULL && strstr(why, "corners"));
    floe_world_destroy(w);
    REPORT("scene errors: too few vertices, coplanar vertices, no pos, a bad coordinate; damaged records refused\n");
}

/* The shapes series: 180 points and 60 triangles per polyhedron (a face's
 * corners with its normal, fans; the rest repeat the first point); every
 * point on the hull, every normal outward. */
static void test_vtk(void) {
    floe_world *w = floe_world_create(NULL);
    int m = floe_add_material(w, "m", "linear");
    floe_body_def d = floe_default_body_def();
    d.material = m;
    d.pos = (floe_vec3){1, 2, 3};
    d.ori = (floe_quat){cos(0.3), 0, sin(0.3), 0};
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++) v[k] = (floe_vec3){0.3 * ((k & 1) - 0.5), 0.2 * (((k >> 1) & 1) - 0.5), 0.1 * (k >> 2)};
    CHECK(floe_add_polyhedron(w, &d, 8, v) == 0);
    CHECK(floe_vtk_shape_count(w) == 1);
    floe_vtk *vw = floe_vtk_create();
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/shapes.vtp", tmp);
    CHECK(floe_vtk_write_shapes(vw, path, w, err, sizeof err) == 0);
    floe_vtk_destroy(vw);
    vtk_file f;
    CHECK(vtk_parse(path, &f) == 0);
    CHECK(f.points == 180 && f.polys == 60);
    const unsigned char *pts = vtk_block(&f, vtk_find_in(&f, "Points", "Points"), 180, 8);
    const unsigned char *nrm = vtk_block(&f, vtk_find_in(&f, "PointData", "normals"), 180, 8);
    int on = 0, out = 0;
    floe_quat q = floe_orientations(w)[0];
    floe_vec3 c = floe_positions(w)[0];
    for (int i = 0; pts && nrm && i < 180; i++) {
        vec3 x = v3(f64(pts, 3 * i) - c.x, f64(pts, 3 * i + 1) - c.y, f64(pts, 3 * i + 2) - c.z);
        vec3 n = v3(f64(nrm, 3 * i), f64(nrm, 3 * i + 1), f64(nrm, 3 * i + 2));
        vec3 b = qrotate(qconj(q), x), nb = qrotate(qconj(q), n);
        /* the box's principal frame: half sides 0.15, 0.1, 0.05 in some order */
        double h[3] = {fabs(b.x), fabs(b.y), fabs(b.z)}, hs = 0;
        int face = 0;
        for (int k = 0; k < 3; k++) {
            hs = fmax(hs, h[k]);
            double e = k == 0 ? nb.x : k == 1 ? nb.y : nb.z;
            face += fabs(fabs(e) - 1) < 1e-12 &&
                    e * vcomp(b, k) > 0; /* the normal along the axis the point is out on */
        }
        on += hs <= 0.15 + 1e-12 &&
              (fabs(h[0] - 0.15) < 1e-12 || fabs(h[0] - 0.1) < 1e-12 || fabs(h[0] - 0.05) < 1e-12 ||
               fabs(h[1] - 0.15) < 1e-12 || fabs(h[1] - 0.1) < 1e-12 || fabs(h[1] - 0.05) < 1e-12 ||
               fabs(h[2] - 0.15) < 1e-12 || fabs(h[2] - 0.1) < 1e-12 || fabs(h[2] - 0.05) < 1e-12);
        out += face == 1;
    }
    CHECK(on == 180 && out == 180);
    REPORT("shapes.vtp: a box as 180 points and 60 triangles, every point on its surface (%d), every normal "
           "outward (%d)\n",
           on, out);
    free(f.buf);
    floe_world_destroy(w);
}

/* 1000 steps, a restart file, 1000 more: the same bits as 2000 straight. */
static void test_restart(void) {
    char path[512], err[1024], rpath[600];
    check_write_tmp(tmp, "poly.yaml", scene_text, path, sizeof path);
    floe_scene a, b;
    if (floe_scene_load(path, &a, err, sizeof err) || floe_scene_load(path, &b, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
        return;
    }
    CHECK(floe_run(a.world, 2000) == FLOE_OK);
    CHECK(floe_run(b.world, 1000) == FLOE_OK);
    int contacts = floe_contact_count(b.world);
    snprintf(rpath, sizeof rpath, "%s/r.h5", tmp);
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene = b;
    r.total_steps = 2000;
    CHECK(floe_restart_write(rpath, &r, err, sizeof err) == 0);
    floe_scene_free(&b);
    floe_restart back;
    if (floe_restart_load(rpath, &back, err, sizeof err) != 0) {
        fprintf(stderr, "restart load: %s\n", err);
        CHECK(0);
        floe_scene_free(&a);
        return;
    }
    floe_world *w = back.scene.world;
    CHECK(floe_run(w, 1000) == FLOE_OK);
    int n = floe_particle_count(w);
    CHECK(n == floe_particle_count(a.world));
    int same = memcmp(floe_positions(w), floe_positions(a.world), sizeof(floe_vec3) * (size_t)n) == 0 &&
               memcmp(floe_velocities(w), floe_velocities(a.world), sizeof(floe_vec3) * (size_t)n) == 0 &&
               memcmp(floe_orientations(w), floe_orientations(a.world), sizeof(floe_quat) * (size_t)n) == 0;
    CHECK(same);
    CHECK(contacts >= 3);
    REPORT("restart of a scene of polyhedra on a wall in water (%d contacts at step 1000): 1000 + 1000 steps "
           "bitwise equal to 2000: %s\n",
           contacts, same ? "yes" : "no");
    floe_restart_free(&back);
    floe_scene_free(&a);
}

int main(void) {
    if (!mkdtemp(tmp)) return 2;
    test_scene();
    test_errors();
    test_vtk();
    test_restart();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (!check_failures && system(cmd) != 0) return 2;
    return CHECK_DONE();
}
