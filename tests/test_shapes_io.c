/* I/O of capsules, ellipsoids and infinite cylinders: scene keys (values
 * read back through the API, exact error messages), the random capsule and
 * ellipsoid generator (non-overlap checked by independent computations,
 * determinism per seed), the shapes .vtp series (counts of the documented
 * tessellation, points on the surfaces, outward triangles), and the example
 * scene examples/capsules.yaml. */
#include "check.h"
#include "pack/generate.h"
#include "io/output.h"
#include "io/scene.h"
#include "io/vtk.h"
#include "vtk_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static int zeroed(const floe_scene *s) {
    static const floe_scene zero;
    return memcmp(s, &zero, sizeof zero) == 0;
}

/* Loads an inline scene that must load; 0 on success (the error printed otherwise). */
static int load_ok(const char *name, const char *yaml, floe_scene *s) {
    char path[512], err[1024];
    check_write_tmp(tmpdir, name, yaml, path, sizeof path);
    int rc = floe_scene_load(path, s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) fprintf(stderr, "%s\n", err);
    return rc;
}

/* Loads an inline scene and checks the full message "path:" + want. */
static void inline_error_at(const char *yaml, const char *want, int prefix, int line) {
    char path[512], err[1024], full[2048];
    floe_scene s;
    check_write_tmp(tmpdir, "inline.yaml", yaml, path, sizeof path);
    memset(&s, 0x5a, sizeof s);
    int rc = floe_scene_load(path, &s, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK(rc != 0);
    if (rc == 0) {
        fprintf(stderr, "test_shapes_io.c:%d: loaded but should fail with\n  %s\n", line, full);
        floe_scene_free(&s);
        return;
    }
    CHECK(zeroed(&s));
    if (prefix ? strncmp(err, full, strlen(full)) != 0 : strcmp(err, full) != 0) {
        check_failures++;
        fprintf(stderr, "test_shapes_io.c:%d: wrong message\n  got:  %s\n  want: %s%s\n", line, err, full,
                prefix ? "..." : "");
    }
}
#define INLINE_ERROR(yaml, want) inline_error_at(yaml, want, 0, __LINE__)
#define INLINE_ERROR_PREFIX(yaml, want) inline_error_at(yaml, want, 1, __LINE__)

#define HEAD "run: {steps: 1}\nmaterials: [{name: a}]\n"

static floe_vec3 rot(floe_quat q, floe_vec3 v) {
    /* R(q) v written out as a matrix product: independent of the library's form */
    double w = q.w, x = q.x, y = q.y, z = q.z;
    return (floe_vec3){(1 - 2 * (y * y + z * z)) * v.x + 2 * (x * y - w * z) * v.y + 2 * (x * z + w * y) * v.z,
                       2 * (x * y + w * z) * v.x + (1 - 2 * (x * x + z * z)) * v.y + 2 * (y * z - w * x) * v.z,
                       2 * (x * z - w * y) * v.x + 2 * (y * z + w * x) * v.y + (1 - 2 * (x * x + y * y)) * v.z};
}

static double dot(floe_vec3 a, floe_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static floe_vec3 sub(floe_vec3 a, floe_vec3 b) { return (floe_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static floe_vec3 cross(floe_vec3 a, floe_vec3 b) {
    return (floe_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static double comp(floe_vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

/* ---- scene keys ---------------------------------------------------------- */

static void test_scene_keys(void) {
    static const char yaml[] =
        "run: {steps: 1}\n"
        "materials: [{name: a, density: 2000}, {name: b}]\n"
        "walls: [{axis: z, material: b}]\n" /* id 0 */
        "capsules:\n"                       /* ids 1, 2, 3 */
        "  - {radius: 0.01, shaft: 0.04, pos: [0, 0, 0.1], axis: [0, 0, 2], material: a, group: g}\n"
        "  - {radius: 0.02, shaft: 0, pos: [1, 0, 0.1], ori: [2, 0, 0, 0], vel: [1, 2, 3], angvel: [0, 0, 1],\n"
        "     material: b, fixed: true}\n"
        "  - {radius: 0.01, shaft: 0.1, pos: [2, 0, 0.1], axis: [-1, 0, 0], material: a, block: xZ}\n"
        "ellipsoids:\n" /* id 4 */
        "  - {semi_axes: [0.03, 0.02, 0.01], pos: [3, 0, 0.1], ori: [1, 1, 0, 0], material: a, block: z}\n"
        "cylinders:\n" /* ids 5, 6 */
        "  - {axis: y, pos: [0, 5, -1], radius: 0.5, vel: [0, 0.1, 0], angvel: [0, 2, 0], material: b, group: g}\n"
        "  - {axis: 0, pos: [0, 0, -3], radius: 0.25, material: b}\n"
        "particles: [{radius: 0.01, pos: [4, 0, 0.1], material: a}]\n"; /* id 7 */
    floe_scene s;
    if (load_ok("keys.yaml", yaml, &s)) return;
    floe_world *w = s.world;
    CHECK(floe_particle_count(w) == 8);
    static const floe_shape_type want[8] = {FLOE_SHAPE_WALL,        FLOE_SHAPE_CAPSULE,   FLOE_SHAPE_CAPSULE,
                                            FLOE_SHAPE_CAPSULE,     FLOE_SHAPE_ELLIPSOID, FLOE_SHAPE_INFCYLINDER,
                                            FLOE_SHAPE_INFCYLINDER, FLOE_SHAPE_SPHERE};
    for (int i = 0; i < 8 && i < floe_particle_count(w); i++) CHECK(floe_particle_shape(w, i) == want[i]);
    const double *rad = floe_radii(w);
    const floe_vec3 *pos = floe_positions(w), *vel = floe_velocities(w), *angvel = floe_angular_velocities(w);
    const floe_quat *ori = floe_orientations(w);
    const uint32_t *blk = floe_particle_blocked(w), *grp = floe_particle_groups(w);
    const int *mat = floe_particle_materials(w);
    int g = floe_find_group(w, "g");
    CHECK(g >= 0);

    /* capsule 1: axis [0,0,2] -> the body x axis points along +z */
    CHECK_NEAR(rad[1], 0.01, 0);
    CHECK_NEAR(floe_capsule_shaft(w, 1), 0.04, 0);
    floe_vec3 ax = rot(ori[1], (floe_vec3){1, 0, 0});
    CHECK_NEAR(ax.x, 0, 1e-15);
    CHECK_NEAR(ax.y, 0, 1e-15);
    CHECK_NEAR(ax.z, 1, 1e-15);
    CHECK_NEAR(pos[1].z, 0.1, 0);
    CHECK(mat[1] == 0 && grp[1] == (1u << g) && blk[1] == 0);
    /* capsule 2: ori normalised, fixed, velocities kept */
    CHECK_NEAR(ori[2].w, 1, 0);
    CHECK(ori[2].x == 0 && ori[2].y == 0 && ori[2].z == 0);
    CHECK_NEAR(floe_capsule_shaft(w, 2), 0, 0);
    CHECK(blk[2] == FLOE_DOF_ALL && mat[2] == 1);
    CHECK(vel[2].x == 1 && vel[2].y == 2 && vel[2].z == 3 && angvel[2].z == 1);
    /* capsule 3: axis -x is a half turn; block xZ */
    ax = rot(ori[3], (floe_vec3){1, 0, 0});
    CHECK_NEAR(ax.x, -1, 1e-15);
    CHECK(blk[3] == (FLOE_DOF_X | FLOE_DOF_RZ));
    /* mass of a capsule: cylinder + sphere of density 2000 */
    double r = 0.01, sh = 0.04, m = 2000 * 3.14159265358979324 * r * r * (sh + 4.0 / 3.0 * r);
    CHECK_REL(floe_masses(w)[1], m, 1e-12);

    /* ellipsoid 4 */
    floe_vec3 sa;
    CHECK(floe_ellipsoid_semi_axes(w, 4, &sa) == FLOE_OK);
    CHECK(sa.x == 0.03 && sa.y == 0.02 && sa.z == 0.01);
    CHECK_NEAR(rad[4], 0.01, 0);
    CHECK_NEAR(ori[4].w, sqrt(0.5), 1e-15);
    CHECK_NEAR(ori[4].x, sqrt(0.5), 1e-15);
    CHECK(blk[4] == FLOE_DOF_Z);
    CHECK_REL(floe_masses(w)[4], 2000 * 4.0 / 3.0 * 3.14159265358979324 * 0.03 * 0.02 * 0.01, 1e-12);
    CHECK(floe_ellipsoid_semi_axes(w, 1, &sa) == FLOE_ERR_ARG);

    /* cylinders 5, 6 */
    CHECK(floe_infcylinder_axis(w, 5) == 1 && floe_infcylinder_axis(w, 6) == 0);
    CHECK(floe_infcylinder_axis(w, 4) == -1 && floe_capsule_shaft(w, 4) == -1);
    CHECK_NEAR(rad[5], 0.5, 0);
    CHECK_NEAR(rad[6], 0.25, 0);
    CHECK(pos[5].y == 5 && pos[5].z == -1 && vel[5].y == 0.1 && angvel[5].y == 2);
    CHECK(blk[5] == FLOE_DOF_ALL && blk[6] == FLOE_DOF_ALL && grp[5] == (1u << g) && mat[5] == 1);
    /* the sphere after them: sections in file order */
    CHECK_NEAR(rad[7], 0.01, 0);
    floe_scene_free(&s);
}

static void test_scene_errors(void) {
    /* capsules */
    INLINE_ERROR(HEAD "capsules: [{radius: -0.01, shaft: 0.1, pos: [0, 0, 0]}]\n",
                 "3:21: capsules[0].radius = -0.01 is out of range (0, 1e+12]");
    INLINE_ERROR(HEAD "capsules: [{radius: 0.01, shaft: -1, pos: [0, 0, 0]}]\n",
                 "3:34: capsules[0].shaft = -1 is out of range [0, 1e+12]");
    INLINE_ERROR(HEAD "capsules: [{radius: 0.01, pos: [0, 0, 0]}]\n",
                 "3:12: missing required key 'shaft' in capsules[0]");
    INLINE_ERROR(HEAD "capsules: [{radius: 0.01, shaft: 0.1, pos: [0, 0, 0], ori: [1, 0, 0, 0], axis: [0, 0, 1]}]\n",
                 "3:80: capsules[0].axis: give either 'ori' or 'axis', not both");
    INLINE_ERROR(HEAD "capsules: [{radius: 0.01, shaft: 0.1, pos: [0, 0, 0], axis: [0, 0, 0]}]\n",
                 "3:61: capsules[0].axis: the direction has zero length");
    INLINE_ERROR(HEAD "capsules: [{radius: 0.01, shaft: 0.1, pos: [0, 0, 0], axis: [0, 1]}]\n",
                 "3:61: capsules[0].axis: expected a list of 3 numbers [x, y, z], got a list of 2");
    INLINE_ERROR(HEAD "capsules: [{radius: 0.01, shft: 0.1, pos: [0, 0, 0]}]\n",
                 "3:27: unknown key 'shft' in capsules[0]; did you mean 'shaft'?");
    INLINE_ERROR(HEAD "capsules: [{radius: 0.01, shaft: 0.1, pos: [0, 0, 0], ori: [0, 0, 0, 0]}]\n",
                 "3:60: capsules[0].ori: quaternion has zero length");
    /* ellipsoids */
    INLINE_ERROR(HEAD "ellipsoids: [{pos: [0, 0, 0]}]\n", "3:14: missing required key 'semi_axes' in ellipsoids[0]");
    INLINE_ERROR(HEAD "ellipsoids: [{semi_axes: [0.1, 0.2], pos: [0, 0, 0]}]\n",
                 "3:26: ellipsoids[0].semi_axes: expected a list of 3 semi-axes [a, b, c]");
    INLINE_ERROR(HEAD "ellipsoids: [{semi_axes: [0.1, 0, 0.1], pos: [0, 0, 0]}]\n",
                 "3:32: ellipsoids[0].semi_axes[1] = 0 is out of range (0, 1e+12]");
    INLINE_ERROR(HEAD "ellipsoids: [{semi_axes: [0.1, 0.1, 0.1]}]\n",
                 "3:14: missing required key 'pos' in ellipsoids[0]");
    INLINE_ERROR(HEAD "ellipsoids: [{semi_axes: [0.1, 0.1, 0.1], pos: [0, 0, 0], axis: [1, 0, 0]}]\n",
                 "3:59: unknown key 'axis' in ellipsoids[0]; allowed keys: semi_axes, pos, ori, vel, angvel, "
                 "material, group, fixed, block");
    /* cylinders */
    INLINE_ERROR(HEAD "cylinders: [{axis: w, pos: [0, 0, 0], radius: 1}]\n",
                 "3:20: cylinders[0].axis: expected x, y, z or 0, 1, 2");
    INLINE_ERROR(HEAD "cylinders: [{axis: 3, pos: [0, 0, 0], radius: 1}]\n",
                 "3:20: cylinders[0].axis = 3 is out of range [0, 2]");
    INLINE_ERROR(HEAD "cylinders: [{axis: z, pos: [0, 0, 0], radius: -1}]\n",
                 "3:47: cylinders[0].radius = -1 is out of range (0, 1e+12]");
    INLINE_ERROR(HEAD "cylinders: [{axis: z, radius: 1}]\n", "3:13: missing required key 'pos' in cylinders[0]");
    INLINE_ERROR(HEAD "cylinders: [{axis: z, pos: [0, 0, 0], radius: 1, vel: [1, 0, 0.5]}]\n",
                 "3:55: cylinders[0].vel: an infinite cylinder can only move along its axis (z); got [1, 0, 0.5]");
    INLINE_ERROR(HEAD "cylinders: [{axis: x, pos: [0, 0, 0], radius: 1, angvel: [0, 1, 0]}]\n",
                 "3:58: cylinders[0].angvel: an infinite cylinder can only spin about its axis (x); got [0, 1, 0]");
    INLINE_ERROR(HEAD "cylinders: [{axis: x, pos: [0, 0, 0], radius: 1, fixed: true}]\n",
                 "3:50: unknown key 'fixed' in cylinders[0]; allowed keys: axis, pos, radius, vel, angvel, "
                 "material, group");
    /* random generator */
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: capsul, radius: 0.01, shaft: 0.01, "
                      "count: 1}}]\n",
                 "3:55: generators[0].random.shape: unknown shape 'capsul'; did you mean 'capsule'?");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: cube, radius: 0.01, count: 1}}]\n",
                 "3:55: generators[0].random.shape: unknown shape 'cube'; allowed: sphere, capsule, ellipsoid");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], radius: 0.01, shaft: 0.01, count: 1}}]\n",
                 "3:69: generators[0].random.shaft: only for shape: capsule (this generator makes spheres)");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: ellipsoid, radius: 0.01, count: 1}}]\n",
                 "3:74: generators[0].random.radius: only for shape: capsule or sphere (this generator makes "
                 "ellipsoids)");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: capsule, radius: 0.01, count: 1}}]\n",
                 "3:23: missing required key 'shaft' in generators[0].random");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: ellipsoid, count: 1}}]\n",
                 "3:23: missing required key 'semi_axes' in generators[0].random");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: capsule, radius: 0.01, "
                      "shaft: [0.02, 0.01], count: 1}}]\n",
                 "3:92: generators[0].random.shaft[1] = 0.01 is out of range [0.02, 1e+12]");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: ellipsoid, "
                      "semi_axes: [0.1, [0.2, 0.1, 0.3], 0.1], count: 1}}]\n",
                 "3:83: generators[0].random.semi_axes[1]: expected a semi-axis or a range [min, max]");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: ellipsoid, semi_axes: [0.1, 0.1], "
                      "count: 1}}]\n",
                 "3:77: generators[0].random.semi_axes: expected a list of 3 semi-axes [a, b, c], each a number, a "
                 "range [min, max] or a distribution {dist: ...}");
    INLINE_ERROR(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: capsule, radius: 0.1, shaft: 0.9, "
                      "count: 1}}]\n",
                 "3:29: generators[0].random.box: a 1 x 1 x 1 box cannot hold capsules of bounding radius 0.55 "
                 "(every side must be at least the bounding diameter)");
    INLINE_ERROR_PREFIX(HEAD "generators:\n  - random: {box: [[0,0,0],[0.1,0.1,0.1]], shape: capsule, radius: 0.01,"
                             " shaft: 0.03, count: 1000}\n",
                        "4:13: generators[0].random: box too full: placed only ");
    /* the memory guard counts the new sections */
    INLINE_ERROR_PREFIX(HEAD "generators: [{random: {box: [[0,0,0],[1,1,1]], shape: ellipsoid, semi_axes: [1e-4, "
                             "1e-4, 1e-4], count: 1e9}}]\n",
                        "3:23: generators[0].random: the scene would hold 1e+09 particles");
    /* a top-level typo gets a suggestion among the new keys */
    INLINE_ERROR(HEAD "capsule: []\n", "3:1: unknown key 'capsule' at the top level; did you mean 'capsules'?");
}

/* ---- generator -------------------------------------------------------------- */

/* Squared distance between segments by a route unlike the generator's:
 * t(s) is the clamped projection, and |P(s) - Q(t(s))|^2 is convex in s, so a
 * ternary search on s converges to the minimum. */
static double seg_dist2_ternary(floe_vec3 p0, floe_vec3 p1, floe_vec3 q0, floe_vec3 q1) {
    floe_vec3 d = sub(p1, p0), e = sub(q1, q0);
    double ee = dot(e, e);
    double lo = 0, hi = 1, best = INFINITY;
    for (int it = 0; it < 200; it++) {
        double s[2] = {lo + (hi - lo) / 3, hi - (hi - lo) / 3}, f[2];
        for (int k = 0; k < 2; k++) {
            floe_vec3 p = {p0.x + s[k] * d.x, p0.y + s[k] * d.y, p0.z + s[k] * d.z};
            double t = ee > 0 ? dot(sub(p, q0), e) / ee : 0;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            floe_vec3 q = {q0.x + t * e.x, q0.y + t * e.y, q0.z + t * e.z};
            f[k] = dot(sub(p, q), sub(p, q));
            if (f[k] < best) best = f[k];
        }
        if (f[0] < f[1]) hi = s[1];
        else lo = s[0];
    }
    return best;
}

/* x^T M^-1 x for the ellipsoid's shape matrix: < 1 strictly inside. */
static double ellipsoid_level(const floe_gen_body *b, floe_vec3 x) {
    floe_quat c = {b->ori.w, -b->ori.x, -b->ori.y, -b->ori.z};
    floe_vec3 l = rot(c, sub(x, b->pos));
    return l.x * l.x / (b->semi.x * b->semi.x) + l.y * l.y / (b->semi.y * b->semi.y) +
           l.z * l.z / (b->semi.z * b->semi.z);
}

static void test_generator_capsules(void) {
    floe_random_shape_def d = {.lo = {0, 0, 0},
                               .hi = {0.3, 0.2, 0.2},
                               .shape = FLOE_SHAPE_CAPSULE,
                               .rmin = 0.004,
                               .rmax = 0.008,
                               .smin = 0.005,
                               .smax = 0.03,
                               .count = 800,
                               .seed = 11};
    floe_gen_body *a = NULL, *b = NULL, *c = NULL;
    int64_t na, nb, nc;
    char err[512];
    CHECK(floe_gen_random_shapes(&d, &a, &na, err, sizeof err) == 0 && na == 800);
    CHECK(floe_gen_random_shapes(&d, &b, &nb, err, sizeof err) == 0 && nb == 800);
    d.seed = 12;
    CHECK(floe_gen_random_shapes(&d, &c, &nc, err, sizeof err) == 0 && nc == 800);
    if (!a || !b || !c) return;
    CHECK(memcmp(a, b, (size_t)na * sizeof *a) == 0); /* same seed: bit for bit */
    CHECK(memcmp(a, c, (size_t)na * sizeof *a) != 0); /* another seed: another packing */
    int overlaps = 0, outside = 0, unsorted = 0, badsize = 0;
    double close = INFINITY; /* smallest gap / (r1 + r2) */
    floe_vec3 mean = {0, 0, 0}, mean2 = {0, 0, 0};
    for (int64_t i = 0; i < na; i++) {
        const floe_gen_body *p = &a[i];
        if (!(p->radius >= d.rmin && p->radius <= d.rmax && p->shaft >= d.smin && p->shaft <= d.smax)) badsize++;
        if (i > 0 && p->radius + 0.5 * p->shaft > a[i - 1].radius + 0.5 * a[i - 1].shaft) unsorted++;
        floe_vec3 u = rot(p->ori, (floe_vec3){0.5 * p->shaft, 0, 0});
        floe_vec3 p0 = sub(p->pos, u), p1 = {p->pos.x + u.x, p->pos.y + u.y, p->pos.z + u.z};
        for (int k = 0; k < 3; k++) {
            double lo = fmin(comp(p0, k), comp(p1, k)) - p->radius, hi = fmax(comp(p0, k), comp(p1, k)) + p->radius;
            if (lo < comp(d.lo, k) - 1e-15 || hi > comp(d.hi, k) + 1e-15) outside++;
        }
        floe_vec3 x = rot(p->ori, (floe_vec3){1, 0, 0});
        mean = (floe_vec3){mean.x + x.x / na, mean.y + x.y / na, mean.z + x.z / na};
        mean2 = (floe_vec3){mean2.x + x.x * x.x / na, mean2.y + x.y * x.y / na, mean2.z + x.z * x.z / na};
        for (int64_t j = 0; j < i; j++) {
            const floe_gen_body *q = &a[j];
            double rr = p->radius + q->radius;
            if (dot(sub(p->pos, q->pos), sub(p->pos, q->pos)) >
                pow(p->radius + q->radius + 0.5 * (p->shaft + q->shaft), 2))
                continue;
            floe_vec3 v = rot(q->ori, (floe_vec3){0.5 * q->shaft, 0, 0});
            floe_vec3 q0 = sub(q->pos, v), q1 = {q->pos.x + v.x, q->pos.y + v.y, q->pos.z + v.z};
            double dist = sqrt(seg_dist2_ternary(p0, p1, q0, q1));
            if (!(dist > rr)) overlaps++;
            close = fmin(close, dist / rr - 1);
        }
    }
    CHECK(overlaps == 0 && outside == 0 && unsorted == 0 && badsize == 0);
    /* orientations uniform: the shaft direction averages to 0, its squares to 1/3 */
    CHECK(fabs(mean.x) < 0.1 && fabs(mean.y) < 0.1 && fabs(mean.z) < 0.1);
    CHECK(fabs(mean2.x - 1.0 / 3) < 0.05 && fabs(mean2.y - 1.0 / 3) < 0.05 && fabs(mean2.z - 1.0 / 3) < 0.05);
    REPORT("random capsules: 800 placed, no overlap (closest relative gap %.3g), inside the box, "
           "<x>=(%.3f %.3f %.3f) <x^2>=(%.3f %.3f %.3f)\n",
           close, mean.x, mean.y, mean.z, mean2.x, mean2.y, mean2.z);
    free(a);
    free(b);
    free(c);

    /* a full box reports how many fitted */
    floe_random_shape_def full = {.lo = {0, 0, 0},
                                  .hi = {0.05, 0.05, 0.05},
                                  .shape = FLOE_SHAPE_CAPSULE,
                                  .rmin = 0.005,
                                  .rmax = 0.005,
                                  .smin = 0.02,
                                  .smax = 0.02,
                                  .count = 500};
    CHECK(floe_gen_random_shapes(&full, &a, &na, err, sizeof err) != 0 && a == NULL && na > 0 && na < 500);
    CHECK(strstr(err, "box too full") != NULL);
}

static void test_generator_ellipsoids(void) {
    floe_random_shape_def d = {.lo = {0, 0, 0},
                               .hi = {0.25, 0.25, 0.2},
                               .shape = FLOE_SHAPE_ELLIPSOID,
                               .amin = {0.01, 0.004, 0.004},
                               .amax = {0.02, 0.01, 0.006},
                               .count = 600,
                               .seed = 5};
    floe_gen_body *a = NULL, *b = NULL;
    int64_t na, nb;
    char err[512];
    CHECK(floe_gen_random_shapes(&d, &a, &na, err, sizeof err) == 0 && na == 600);
    CHECK(floe_gen_random_shapes(&d, &b, &nb, err, sizeof err) == 0 && nb == 600);
    if (!a || !b) return;
    CHECK(memcmp(a, b, (size_t)na * sizeof *a) == 0);
    /* non-overlap, checked two independent ways for every pair within
     * bounding reach: (1) no sampled surface point of one lies inside the
     * other; (2) the Perram-Wertheim function, maximised on a fine lambda
     * grid with a Cholesky solve, exceeds 1 */
    int inside = 0, pw_bad = 0, outside = 0, pairs = 0;
    for (int64_t i = 0; i < na; i++) {
        const floe_gen_body *p = &a[i];
        double rp = fmax(p->semi.x, fmax(p->semi.y, p->semi.z));
        /* the box holds the ellipsoid: its support along each axis */
        for (int k = 0; k < 3; k++) {
            floe_vec3 e = {k == 0, k == 1, k == 2};
            floe_quat c = {p->ori.w, -p->ori.x, -p->ori.y, -p->ori.z};
            floe_vec3 l = rot(c, e);
            double h = sqrt(pow(p->semi.x * l.x, 2) + pow(p->semi.y * l.y, 2) + pow(p->semi.z * l.z, 2));
            if (comp(p->pos, k) - h < comp(d.lo, k) - 1e-15 || comp(p->pos, k) + h > comp(d.hi, k) + 1e-15) outside++;
        }
        for (int64_t j = 0; j < i; j++) {
            const floe_gen_body *q = &a[j];
            double rq = fmax(q->semi.x, fmax(q->semi.y, q->semi.z));
            floe_vec3 r = sub(q->pos, p->pos);
            if (dot(r, r) >= (rp + rq) * (rp + rq)) continue;
            pairs++;
            for (int s = 0; s < 2; s++) {
                const floe_gen_body *x = s ? q : p, *y = s ? p : q;
                for (int it = 0; it < 24; it++)
                    for (int jt = 0; jt < 48; jt++) {
                        double th = 3.14159265358979324 * (it + 0.5) / 24, ph = 6.28318530717958648 * jt / 48;
                        floe_vec3 u = {x->semi.x * sin(th) * cos(ph), x->semi.y * sin(th) * sin(ph),
                                       x->semi.z * cos(th)};
                        floe_vec3 w = rot(x->ori, u);
                        if (ellipsoid_level(y, (floe_vec3){x->pos.x + w.x, x->pos.y + w.y, x->pos.z + w.z}) < 1)
                            inside++;
                    }
            }
            /* A^-1 = R diag(a^2) R^T for both */
            double A[2][3][3];
            for (int s = 0; s < 2; s++) {
                const floe_gen_body *x = s ? q : p;
                floe_vec3 col[3] = {rot(x->ori, (floe_vec3){1, 0, 0}), rot(x->ori, (floe_vec3){0, 1, 0}),
                                    rot(x->ori, (floe_vec3){0, 0, 1})};
                double a2[3] = {x->semi.x * x->semi.x, x->semi.y * x->semi.y, x->semi.z * x->semi.z};
                for (int m = 0; m < 3; m++)
                    for (int n = 0; n < 3; n++)
                        A[s][m][n] = a2[0] * comp(col[0], m) * comp(col[0], n) +
                                     a2[1] * comp(col[1], m) * comp(col[1], n) +
                                     a2[2] * comp(col[2], m) * comp(col[2], n);
            }
            double fmax_ = 0;
            for (int k = 1; k < 2000; k++) {
                double l = k / 2000.0, G[3][3], L[3][3] = {{0}};
                for (int m = 0; m < 3; m++)
                    for (int n = 0; n < 3; n++) G[m][n] = (1 - l) * A[0][m][n] + l * A[1][m][n];
                for (int m = 0; m < 3; m++)
                    for (int n = 0; n <= m; n++) {
                        double sum = G[m][n];
                        for (int t = 0; t < n; t++) sum -= L[m][t] * L[n][t];
                        L[m][n] = m == n ? sqrt(sum) : sum / L[n][n];
                    }
                double rv[3] = {r.x, r.y, r.z}, y[3];
                for (int m = 0; m < 3; m++) {
                    double sum = rv[m];
                    for (int t = 0; t < m; t++) sum -= L[m][t] * y[t];
                    y[m] = sum / L[m][m];
                }
                double f = l * (1 - l) * (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
                fmax_ = fmax(fmax_, f);
            }
            if (!(fmax_ > 1)) pw_bad++;
        }
    }
    CHECK(inside == 0 && pw_bad == 0 && outside == 0);
    CHECK(pairs > 100); /* the checks saw close neighbours */
    REPORT("random ellipsoids: 600 placed, %d close pairs, no overlap (sampling and PW grid), inside the box\n", pairs);
    free(a);
    free(b);
}

/* the generator through a scene: ids in placement order, materials, velocity */
static void test_generator_scene(void) {
    static const char yaml[] =
        "run: {steps: 1}\n"
        "materials: [{name: a}]\n"
        "generators:\n"
        "  - random: {box: [[0, 0, 0], [0.2, 0.2, 0.2]], shape: capsule, radius: [0.005, 0.01], shaft: [0, 0.02],\n"
        "             count: 100, seed: 3, vel: [0, 0, -1]}\n"
        "  - random: {box: [[0, 0, 1], [0.2, 0.2, 1.2]], shape: ellipsoid, semi_axes: [[0.01, 0.02], 0.01, 0.008],\n"
        "             count: 100, seed: 3}\n";
    floe_scene s;
    if (load_ok("gen.yaml", yaml, &s)) return;
    floe_world *w = s.world;
    CHECK(floe_particle_count(w) == 200);
    double prev = INFINITY;
    int order = 0, shapes = 0;
    for (int i = 0; i < floe_particle_count(w); i++) {
        floe_shape_type sh = floe_particle_shape(w, i);
        shapes += sh == (i < 100 ? FLOE_SHAPE_CAPSULE : FLOE_SHAPE_ELLIPSOID);
        double bound;
        if (sh == FLOE_SHAPE_CAPSULE) {
            bound = floe_radii(w)[i] + 0.5 * floe_capsule_shaft(w, i);
            CHECK(floe_velocities(w)[i].z == -1);
        } else {
            floe_vec3 sa;
            floe_ellipsoid_semi_axes(w, i, &sa);
            bound = fmax(sa.x, fmax(sa.y, sa.z));
            CHECK(sa.y == 0.01 && sa.z == 0.008 && sa.x >= 0.01 && sa.x <= 0.02);
        }
        if (i == 100) prev = INFINITY;
        order += bound <= prev;
        prev = bound;
    }
    CHECK(shapes == 200 && order == 200);
    floe_scene_free(&s);
}

/* ---- VTK ------------------------------------------------------------------------ */

static double f64(const unsigned char *p, size_t i) {
    double x;
    memcpy(&x, p + 8 * i, 8);
    return x;
}
static int64_t i64(const unsigned char *p, size_t i) {
    int64_t x;
    memcpy(&x, p + 8 * i, 8);
    return x;
}
static int32_t i32(const unsigned char *p, size_t i) {
    int32_t x;
    memcpy(&x, p + 4 * i, 4);
    return x;
}

static void test_vtk_shapes(void) {
    floe_world *w = floe_world_create(NULL);
    int mat = floe_add_material(w, "m", "linear");
    floe_body_def d = floe_default_body_def();
    d.material = mat;
    /* a capsule along (1, 1, 0)/sqrt 2: rotation of pi/4 about z */
    d.pos = (floe_vec3){0, 0, 1};
    d.ori = (floe_quat){cos(3.14159265358979324 / 8), 0, 0, sin(3.14159265358979324 / 8)};
    d.vel = (floe_vec3){1, 2, 3};
    int cap = floe_add_capsule(w, &d, 0.1, 0.4);
    d.pos = (floe_vec3){1, 0, 1};
    d.ori = (floe_quat){cos(0.3), sin(0.3), 0, 0};
    d.vel = (floe_vec3){0, 0, 0};
    d.angvel = (floe_vec3){0, 0, 5};
    int ell = floe_add_ellipsoid(w, &d, (floe_vec3){0.3, 0.2, 0.1});
    d = floe_default_body_def();
    d.material = mat;
    d.pos = (floe_vec3){0.5, 0, -1};
    int cyl = floe_add_infcylinder(w, &d, 1, 0.5);
    d.pos = (floe_vec3){2, 0, 1};
    int sph = floe_add_sphere(w, &d, 0.05);
    CHECK(cap == 0 && ell == 1 && cyl == 2 && sph == 3);
    CHECK(floe_vtk_shape_count(w) == 3);

    floe_vtk *vw = floe_vtk_create();
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/shapes.vtp", tmpdir);
    CHECK(floe_vtk_write_shapes(vw, path, w, err, sizeof err) == 0);
    vtk_file v;
    CHECK(vtk_parse(path, &v) == 0);
    /* documented tessellation: capsule 130 points / 256 triangles, ellipsoid
     * 114 / 224, cylinder 64 / 64 */
    const long np = 130 + 114 + 64, nt = 256 + 224 + 64;
    CHECK(v.points == np && v.polys == nt);
    CHECK(strstr(v.buf, "<PointData Normals=\"normals\">") != NULL);
    const unsigned char *pts = vtk_block(&v, vtk_find_in(&v, "Points", "Points"), (uint64_t)np, 8);
    const unsigned char *nrm = vtk_block(&v, vtk_find_in(&v, "PointData", "normals"), (uint64_t)np, 8);
    const unsigned char *ids = vtk_block(&v, vtk_find_in(&v, "PointData", "id"), (uint64_t)np, 4);
    const unsigned char *shp = vtk_block(&v, vtk_find_in(&v, "PointData", "shape"), (uint64_t)np, 4);
    const unsigned char *vel = vtk_block(&v, vtk_find_in(&v, "PointData", "velocity"), (uint64_t)np, 8);
    const unsigned char *avl = vtk_block(&v, vtk_find_in(&v, "PointData", "angular_velocity"), (uint64_t)np, 8);
    const unsigned char *mt = vtk_block(&v, vtk_find_in(&v, "PointData", "material"), (uint64_t)np, 4);
    const unsigned char *conn = vtk_block(&v, vtk_find_in(&v, "Polys", "connectivity"), (uint64_t)(3 * nt), 8);
    const unsigned char *off = vtk_block(&v, vtk_find_in(&v, "Polys", "offsets"), (uint64_t)nt, 8);
    CHECK(pts && nrm && ids && shp && vel && avl && mt && conn && off);
    if (pts && nrm && ids && shp && vel && avl && mt && conn && off) {
        /* points on each surface, unit normals, per-point body data */
        int on_surface = 0, unit = 0, data = 0;
        floe_vec3 cdir = {sqrt(0.5), sqrt(0.5), 0};
        for (long i = 0; i < np; i++) {
            floe_vec3 p = {f64(pts, 3 * i), f64(pts, 3 * i + 1), f64(pts, 3 * i + 2)};
            floe_vec3 n = {f64(nrm, 3 * i), f64(nrm, 3 * i + 1), f64(nrm, 3 * i + 2)};
            unit += fabs(dot(n, n) - 1) < 1e-12;
            int id = i32(ids, i);
            double err_s = INFINITY;
            if (i < 130) {
                data += id == cap && i32(shp, i) == FLOE_SHAPE_CAPSULE && f64(vel, 3 * i + 1) == 2;
                floe_vec3 rel = sub(p, (floe_vec3){0, 0, 1});
                double t = fmax(-0.2, fmin(0.2, dot(rel, cdir)));
                floe_vec3 rad = sub(rel, (floe_vec3){t * cdir.x, t * cdir.y, t * cdir.z});
                err_s = fabs(sqrt(dot(rad, rad)) - 0.1);
                /* the normal is the radial direction from the axis */
                err_s = fmax(err_s, fabs(dot(rad, n) - 0.1));
            } else if (i < 244) {
                data += id == ell && i32(shp, i) == FLOE_SHAPE_ELLIPSOID && f64(avl, 3 * i + 2) == 5;
                floe_gen_body b = {.pos = {1, 0, 1}, .ori = {cos(0.3), sin(0.3), 0, 0}, .semi = {0.3, 0.2, 0.1}};
                err_s = fabs(ellipsoid_level(&b, p) - 1);
            } else {
                data += id == cyl && i32(shp, i) == FLOE_SHAPE_INFCYLINDER && i32(mt, i) == mat;
                err_s = fabs(hypot(p.x - 0.5, p.z + 1) - 0.5) + fabs(n.y);
            }
            on_surface += err_s < 1e-12;
        }
        CHECK(on_surface == np && unit == np && data == np);
        /* the cylinder spans the other bodies along y (+-0.3 for the
         * ellipsoid) plus 10 % of the largest extent (x: -0.24 .. 2.05) */
        double ylo = INFINITY, yhi = -INFINITY;
        for (long i = 244; i < np; i++) {
            ylo = fmin(ylo, f64(pts, 3 * i + 1));
            yhi = fmax(yhi, f64(pts, 3 * i + 1));
        }
        CHECK(ylo < -0.3 && yhi > 0.3 && yhi - ylo < 2);
        /* triangles: valid indices, within one body, offsets 3, 6, ...,
         * counterclockwise seen from outside (normal agrees with the point normals) */
        int valid = 0, outward = 0;
        for (long t = 0; t < nt; t++) {
            int64_t a = i64(conn, 3 * t), b = i64(conn, 3 * t + 1), c = i64(conn, 3 * t + 2);
            int ok = a >= 0 && b >= 0 && c >= 0 && a < np && b < np && c < np && i64(off, t) == 3 * (t + 1);
            ok = ok && i32(ids, a) == i32(ids, b) && i32(ids, a) == i32(ids, c);
            valid += ok;
            if (!ok) continue;
            floe_vec3 pa = {f64(pts, 3 * a), f64(pts, 3 * a + 1), f64(pts, 3 * a + 2)};
            floe_vec3 pb = {f64(pts, 3 * b), f64(pts, 3 * b + 1), f64(pts, 3 * b + 2)};
            floe_vec3 pc = {f64(pts, 3 * c), f64(pts, 3 * c + 1), f64(pts, 3 * c + 2)};
            floe_vec3 nsum = {0, 0, 0};
            int64_t idx[3] = {a, b, c};
            for (int k = 0; k < 3; k++)
                nsum = (floe_vec3){nsum.x + f64(nrm, 3 * idx[k]), nsum.y + f64(nrm, 3 * idx[k] + 1),
                                   nsum.z + f64(nrm, 3 * idx[k] + 2)};
            outward += dot(cross(sub(pb, pa), sub(pc, pa)), nsum) > 0;
        }
        CHECK(valid == nt && outward == nt);
    }
    free(v.buf);

    /* particles.vtu: the sphere, capsule and ellipsoid as points; the
     * cylinder is only a surface */
    snprintf(path, sizeof path, "%s/particles.vtu", tmpdir);
    CHECK(floe_vtk_write_particles(vw, path, w, err, sizeof err) == 0);
    CHECK(vtk_parse(path, &v) == 0);
    CHECK(v.points == 3 && v.cells == 3);
    const unsigned char *he = vtk_block(&v, vtk_find_in(&v, "PointData", "half_extents"), 3, 8);
    const unsigned char *ps = vtk_block(&v, vtk_find_in(&v, "PointData", "shape"), 3, 4);
    const unsigned char *pi = vtk_block(&v, vtk_find_in(&v, "PointData", "id"), 3, 4);
    CHECK(he && ps && pi && vtk_find_in(&v, "PointData", "orientation"));
    if (he && ps && pi) {
        CHECK(i32(pi, 0) == cap && i32(pi, 1) == ell && i32(pi, 2) == sph);
        CHECK(i32(ps, 0) == FLOE_SHAPE_CAPSULE && i32(ps, 1) == FLOE_SHAPE_ELLIPSOID && i32(ps, 2) == 0);
        CHECK_NEAR(f64(he, 0), 0.3, 1e-15); /* capsule: r + shaft / 2 */
        CHECK(f64(he, 1) == 0.1 && f64(he, 2) == 0.1);
        CHECK(f64(he, 3) == 0.3 && f64(he, 4) == 0.2 && f64(he, 5) == 0.1 && f64(he, 6) == 0.05);
    }
    free(v.buf);

    /* contacts.vtp: a contact line ends at the contact point on an infinite
     * cylinder (its reference point says nothing about where it is) */
    d = floe_default_body_def();
    d.material = mat;
    d.pos = (floe_vec3){0.5, 7, -1 + 0.5 + 0.05 - 0.001};
    int s2 = floe_add_sphere(w, &d, 0.05);
    CHECK(floe_step(w) == FLOE_OK);
    int ci = floe_contact_find(w, cyl, s2);
    CHECK(ci >= 0);
    snprintf(path, sizeof path, "%s/contacts.vtp", tmpdir);
    CHECK(floe_vtk_write_contacts(vw, path, w, err, sizeof err) == 0);
    CHECK(vtk_parse(path, &v) == 0);
    floe_contact_info info;
    const unsigned char *cp = vtk_block(&v, vtk_find_in(&v, "Points", "Points"), 2, 8);
    if (ci >= 0 && floe_contact_count(w) == 1 && cp && floe_contact_get(w, ci, &info) == FLOE_OK) {
        int end_cyl = info.a == cyl ? 0 : 1;
        floe_vec3 pc = {f64(cp, 3 * end_cyl), f64(cp, 3 * end_cyl + 1), f64(cp, 3 * end_cyl + 2)};
        floe_vec3 psph = {f64(cp, 3 * (1 - end_cyl)), f64(cp, 3 * (1 - end_cyl) + 1), f64(cp, 3 * (1 - end_cyl) + 2)};
        CHECK(pc.x == info.point.x && pc.y == info.point.y && pc.z == info.point.z);
        CHECK(psph.x == floe_positions(w)[s2].x && psph.z == floe_positions(w)[s2].z);
    } else {
        CHECK(!"one cylinder-sphere contact expected");
    }
    free(v.buf);
    floe_vtk_destroy(vw);

    /* output directory: shapes.pvd next to the other series */
    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.vtk.steps = 1;
    cfg.vtk_shapes = 1;
    cfg.events_skip = ~0u;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/out", tmpdir);
    floe_output *o = floe_output_open(dir, &cfg, w, 1, err, sizeof err);
    CHECK(o != NULL);
    if (o) CHECK(floe_output_close(o, w) == 0);
    snprintf(path, sizeof path, "%s/shapes.pvd", dir);
    CHECK(access(path, F_OK) == 0);
    snprintf(path, sizeof path, "%s/vtk/shapes_%06lld.vtp", dir, (long long)floe_step_count(w));
    CHECK(access(path, F_OK) == 0);
    floe_world_destroy(w);

    /* a world of spheres gets no shapes series */
    w = floe_world_create(NULL);
    floe_add_material(w, "m", "linear");
    d = floe_default_body_def();
    floe_add_sphere(w, &d, 0.1);
    snprintf(dir, sizeof dir, "%s/out_spheres", tmpdir);
    o = floe_output_open(dir, &cfg, w, 1, err, sizeof err);
    CHECK(o != NULL);
    if (o) CHECK(floe_output_close(o, w) == 0);
    snprintf(path, sizeof path, "%s/shapes.pvd", dir);
    CHECK(access(path, F_OK) != 0);
    floe_world_destroy(w);
}

/* ---- the example scene ----------------------------------------------------------- */

static void test_example(void) {
    floe_scene s;
    char err[1024];
    int rc = floe_scene_load(FLOE_EXAMPLES "/capsules.yaml", &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    int n = floe_particle_count(s.world), caps = 0, ells = 0;
    for (int i = 0; i < n; i++) {
        caps += floe_particle_shape(s.world, i) == FLOE_SHAPE_CAPSULE;
        ells += floe_particle_shape(s.world, i) == FLOE_SHAPE_ELLIPSOID;
    }
    CHECK(caps + ells >= 1900 && caps + ells <= 2100);
    CHECK(s.out.vtk_shapes == 1);
    REPORT("examples/capsules.yaml: %d capsules, %d ellipsoids, %d bodies in all\n", caps, ells, n);
    floe_scene_free(&s);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/floe_test_shapes_io_%ld", (long)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", tmpdir, tmpdir);
    if (system(cmd) != 0) return 2;
    test_scene_keys();
    test_scene_errors();
    test_generator_capsules();
    test_generator_ellipsoids();
    test_generator_scene();
    test_vtk_shapes();
    test_example();
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (!check_failures && system(cmd) != 0) return 2;
    return CHECK_DONE();
}
