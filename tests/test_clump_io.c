/* Clumps in scene files and restart files (docs/scene-format.md#clumps,
 * docs/clumps.md): a `clumps` section read back through the API (the body
 * at the template's centroid turned by `ori`, its pebbles after it at the
 * template's places: the pebble centres are where pos + ori (template
 * point) puts them, to 1e-12 m), `scale` (twice the template: eight
 * times the mass, to 1e-12), the messages of bad pebble lists at their
 * file:line:col, and a run written to an HDF5 restart file halfway that
 * resumes bit for bit (positions, velocities, orientations). */
#include "check.h"

#include <floe/floe.h>
#include <floe/floe_io.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

typedef floe_vec3 V;

static V rot(floe_quat q, V v) { /* R(q) v written out as a matrix product */
    double w = q.w, x = q.x, y = q.y, z = q.z;
    return (V){(1 - 2 * (y * y + z * z)) * v.x + 2 * (x * y - w * z) * v.y + 2 * (x * z + w * y) * v.z,
               2 * (x * y + w * z) * v.x + (1 - 2 * (x * x + z * z)) * v.y + 2 * (y * z - w * x) * v.z,
               2 * (x * z - w * y) * v.x + 2 * (y * z + w * x) * v.y + (1 - 2 * (x * x + y * y)) * v.z};
}

#define SCENE                                                                                         \
    "world: {gravity: [0, 0, -9.81], threads: 1}\n"                                                   \
    "run: {steps: 200}\n"                                                                             \
    "materials: [{name: rock, model: linear, density: 2500, young: 1e7, tan_phi: 0.5}]\n"             \
    "walls: [{axis: z, sense: 1, pos: 0}]\n"                                                          \
    "clumps:\n"                                                                                       \
    "  - {pebbles: [[0, 0, 0, 0.05], [0.06, 0, 0, 0.04], [0, 0.05, 0.02, 0.03]], pos: [0, 0, 0.1],\n" \
    "     ori: [0.9238795325112867, 0, 0.3826834323650898, 0], vel: [0.3, 0, 0]}\n"                   \
    "  - {pebbles: [[0, 0, 0, 0.04], [0, 0, 0.05, 0.04]], pos: [0.25, 0, 0.0399]}\n"                  \
    "particles: [{radius: 0.05, pos: [0.13, 0.02, 0.05]}]\n"

static void inline_error(const char *yaml, const char *want, int line) {
    char path[512], err[1024], full[2048];
    floe_scene s;
    check_write_tmp(tmpdir, "bad.yaml", yaml, path, sizeof path);
    int rc = floe_scene_load(path, &s, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK(rc != 0);
    if (rc == 0) floe_scene_free(&s);
    else if (strncmp(err, full, strlen(full)) != 0) {
        check_failures++;
        fprintf(stderr, "test_clump_io.c:%d: wrong message\n  got:  %s\n  want: %s...\n", line, err, full);
    }
}

#define HEAD "run: {steps: 1}\nmaterials: [{name: a}]\n"

static void test_scene(void) {
    char path[512], err[1024];
    check_write_tmp(tmpdir, "clumps.yaml", SCENE, path, sizeof path);
    floe_scene s;
    if (floe_scene_load(path, &s, err, sizeof err) != 0) {
        check_failures++;
        fprintf(stderr, "%s\n", err);
        return;
    }
    floe_world *w = s.world;
    /* wall, clump (3 pebbles), clump (2 pebbles), sphere */
    CHECK(floe_particle_count(w) == 1 + 4 + 3 + 1);
    CHECK(floe_particle_shape(w, 1) == FLOE_SHAPE_CLUMP && floe_particle_shape(w, 5) == FLOE_SHAPE_CLUMP);
    CHECK(floe_particle_shape(w, 2) == FLOE_SHAPE_SPHERE && floe_particle_shape(w, 8) == FLOE_SHAPE_SPHERE);
    const floe_quat q = {0.9238795325112867, 0, 0.3826834323650898, 0};
    const double tp[3][4] = {{0, 0, 0, 0.05}, {0.06, 0, 0, 0.04}, {0, 0.05, 0.02, 0.03}};
    double off = 0;
    for (int k = 0; k < 3; k++) {
        V want = rot(q, (V){tp[k][0], tp[k][1], tp[k][2]});
        want = (V){want.x, want.y, want.z + 0.1};
        V got = floe_positions(w)[2 + k];
        off = fmax(off, fabs(got.x - want.x) + fabs(got.y - want.y) + fabs(got.z - want.z));
        CHECK(floe_radii(w)[2 + k] == tp[k][3]);
        CHECK(floe_masses(w)[2 + k] == 0); /* the clump carries the mass */
    }
    /* the dumbbell: its centroid on the line of centres, halfway (0.0399 + 0.025) */
    V c2 = floe_positions(w)[5];
    REPORT("clumps section: pebbles where pos + ori (template) puts them to %.1e m; dumbbell centroid (%.6f, %.6f, "
           "%.6f)\n",
           off, c2.x, c2.y, c2.z);
    CHECK(off < 1e-12);
    CHECK_NEAR(c2.x, 0.25, 1e-12);
    CHECK_NEAR(c2.z, 0.0649, 1e-5); /* the quadrature's error (docs/clumps.md) */
    CHECK(floe_masses(w)[1] > 0 && floe_velocities(w)[1].x == 0.3);

    /* a run, a restart file halfway, the resumed run bit for bit */
    int most = 0; /* contacts at some step of the first half */
    for (int k = 0; k < 100; k++) {
        CHECK(floe_step(w) == FLOE_OK);
        most = floe_contact_count(w) > most ? floe_contact_count(w) : most;
    }
    floe_restart r = {0};
    r.scene = s;
    r.total_steps = 200;
    char rpath[600];
    snprintf(rpath, sizeof rpath, "%s/half.h5", tmpdir);
    CHECK(floe_restart_write(rpath, &r, err, sizeof err) == 0);
    floe_restart back = {0};
    CHECK(floe_restart_load(rpath, &back, err, sizeof err) == 0);
    floe_world *b = back.scene.world;
    CHECK(b != NULL);
    CHECK(floe_run(w, 100) == FLOE_OK);
    if (b) CHECK(floe_run(b, 100) == FLOE_OK);
    int n = floe_particle_count(w), same = b && n == floe_particle_count(b);
    same = same && !memcmp(floe_positions(w), floe_positions(b), sizeof(V) * (size_t)n) &&
           !memcmp(floe_velocities(w), floe_velocities(b), sizeof(V) * (size_t)n) &&
           !memcmp(floe_orientations(w), floe_orientations(b), sizeof(floe_quat) * (size_t)n);
    REPORT("restart file at step 100 (up to %d contacts before), resumed to 200: bitwise the same: %s\n", most,
           same ? "yes" : "no");
    CHECK(same);
    CHECK(most >= 2); /* the dumbbell on the floor, the first clump against the sphere */
    floe_restart_free(&back);
    floe_scene_free(&s);

    inline_error(HEAD "clumps: [{pebbles: [[0, 0, 0]], pos: [0, 0, 0]}]\n",
                 "3:21: clumps[0].pebbles[0]: expected a row [x, y, z, r]", __LINE__);
    inline_error(HEAD "clumps: [{pebbles: [[0, 0, 0, -1]], pos: [0, 0, 0]}]\n",
                 "3:31: clumps[0].pebbles[0][3] = -1 is out of range (0, ", __LINE__);
    inline_error(HEAD "clumps: [{pebbles: [], pos: [0, 0, 0]}]\n",
                 "3:20: clumps[0].pebbles: expected [[x, y, z, r], ...], 1 to 16 rows", __LINE__);
    inline_error(HEAD "clumps: [{pos: [0, 0, 0]}]\n", "3:10: missing required key 'pebbles' in clumps[0]", __LINE__);
    inline_error(HEAD "clumps: [{pebbles: [[0, 0, 0, 1]], scale: 0, pos: [0, 0, 0]}]\n",
                 "3:43: clumps[0].scale = 0 is out of range (0, ", __LINE__);
    inline_error(HEAD "clumps: [{pebbles: [[0, 0, 0, 1]], count: 1, pos: [0, 0, 0]}]\n",
                 "3:36: unknown key 'count' in clumps[0]", __LINE__);

    /* scale: the template twice as large, the mass eight times */
    check_write_tmp(tmpdir, "scaled.yaml",
                    "run: {steps: 1}\nmaterials: [{name: a, density: 1000}]\nclumps:\n"
                    "  - {pebbles: [[0, 0, 0, 0.01], [0.01, 0, 0, 0.01]], pos: [0, 0, 0]}\n"
                    "  - {pebbles: [[0, 0, 0, 0.01], [0.01, 0, 0, 0.01]], pos: [1, 0, 0], scale: 2}\n",
                    path, sizeof path);
    floe_scene t;
    if (floe_scene_load(path, &t, err, sizeof err) == 0) {
        const double *m = floe_masses(t.world);
        CHECK_REL(m[3], 8 * m[0], 1e-12);
        CHECK(floe_radii(t.world)[4] == 0.02 && floe_positions(t.world)[5].x == 1.02);
        floe_scene_free(&t);
    } else {
        check_failures++;
        fprintf(stderr, "%s\n", err);
    }
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/floe_test_clump_io_%ld", (long)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", tmpdir, tmpdir);
    if (system(cmd) != 0) return 2;
    test_scene();
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (!check_failures && system(cmd) != 0) return 2;
    return check_failures != 0;
}
