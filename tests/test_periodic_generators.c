/* Generators, dense packings and the overlap check before the run see the
 * images of a periodic cell (docs/periodic.md#generators-and-checks):
 *
 * - random spheres and random capsules in a box that reaches 10 mm past the
 *   faces of a cell periodic in x and y ([0, 0.05] m): no two overlap at
 *   their minimum-image distance (d_k - L_k round(d_k / L_k) along x and y;
 *   for capsules the distance between the axis segments, one of them moved
 *   by that image's offset, must exceed the sum of the radii);
 * - a dense packing whose box spans the cell in x and y: the region is one
 *   period there (no boundary along x and y; centres in [0, 0.05)), the
 *   solid fraction is the target over the cell's volume, and the deepest
 *   overlap at the minimum-image distance, through a face or not, is at most
 *   max_overlap of the smaller radius;
 * - the scene's check: two spheres 1.5 mm from a face on either side of it,
 *   radius 3 mm, overlap by 3 mm through it (100 % of the radius): an error
 *   naming both, from the scene lines that made them; a pair 0.1 mm apart
 *   through the face loads. */
#include "pack/generate.h"
#include "shapes/shape.h"

#include "check.h"

#include <floe/floe.h>
#include <floe/floe_io.h>
#include <unistd.h>

static const double L = 0.05;

/* the minimum image of a difference along x and y */
static floe_vec3 mi(floe_vec3 d) {
    d.x -= L * round(d.x / L);
    d.y -= L * round(d.y / L);
    return d;
}

static floe_gen_env cell_xy(void) {
    floe_gen_env e = {.periodic = 3, .cell_lo = {0, 0, 0}, .cell_hi = {L, L, 1}};
    return e;
}

static void test_random_spheres(void) {
    floe_gen_env env = cell_xy();
    floe_random_def d = {.lo = {-0.01, -0.01, 0}, .hi = {0.06, 0.06, 0.02}, .rmin = 1.5e-3, .rmax = 2.5e-3};
    d.count = 300;
    d.seed = 7;
    d.env = &env;
    floe_vec3 *x;
    double *r;
    int64_t n;
    char err[512];
    int rc = floe_gen_random(&d, &x, &r, &n, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    int bad = 0;
    double deepest = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            floe_vec3 s = mi((floe_vec3){x[j].x - x[i].x, x[j].y - x[i].y, x[j].z - x[i].z});
            double gap = sqrt(s.x * s.x + s.y * s.y + s.z * s.z) - r[i] - r[j];
            if (gap < 0) bad++, deepest = fmax(deepest, -gap);
        }
    REPORT("random spheres in a periodic cell: %lld placed, %d overlaps at the minimum image (deepest %g m)\n",
           (long long)n, bad, deepest);
    CHECK(n == 300 && bad == 0);
    free(x);
    free(r);
}

static void test_random_capsules(void) {
    floe_gen_env env = cell_xy();
    floe_random_shape_def d = {.lo = {-0.01, -0.01, 0}, .hi = {0.06, 0.06, 0.02}, .shape = FLOE_SHAPE_CAPSULE};
    d.rmin = 1e-3, d.rmax = 1.5e-3, d.smin = 2e-3, d.smax = 4e-3;
    d.count = 400;
    d.seed = 9;
    d.env = &env;
    floe_gen_body *b;
    int64_t n;
    char err[512];
    int rc = floe_gen_random_shapes(&d, &b, &n, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        floe_vec3 a0, a1;
        floe_capsule_axis(b[i].pos, b[i].ori, b[i].shaft, &a0, &a1);
        for (int64_t j = i + 1; j < n; j++) {
            floe_vec3 c0, c1;
            floe_capsule_axis(b[j].pos, b[j].ori, b[j].shaft, &c0, &c1);
            floe_vec3 dc = {b[j].pos.x - b[i].pos.x, b[j].pos.y - b[i].pos.y, 0}, m = mi(dc);
            floe_vec3 shift = {m.x - dc.x, m.y - dc.y, 0}; /* j's image nearest to i */
            c0 = vadd(c0, shift);
            c1 = vadd(c1, shift);
            double rr = b[i].radius + b[j].radius;
            if (floe_segments_dist2(a0, a1, c0, c1) <= rr * rr) bad++;
        }
    }
    REPORT("random capsules in a periodic cell: %lld placed, %d overlaps at the minimum image\n", (long long)n, bad);
    CHECK(n == 400 && bad == 0);
    free(b);
}

static void test_dense(void) {
    floe_gen_env env = cell_xy();
    floe_dense_def d = {.region = FLOE_DENSE_BOX, .lo = {-0.01, -0.01, 0}, .hi = {0.06, 0.06, 0.03}};
    d.rmin = 1.5e-3, d.rmax = 2.5e-3;
    d.target = 0.55;
    d.seed = 3;
    d.max_overlap = 0.01;
    d.max_iterations = 200000;
    d.env = &env;
    floe_vec3 *x;
    double *r;
    floe_dense_info info;
    char err[768];
    int rc = floe_gen_dense(&d, &x, &r, &info, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    int64_t n = info.count, across = 0, outside = 0;
    double worst = 0, worst_across = 0, vol = 0;
    for (int64_t i = 0; i < n; i++) {
        vol += 4.0 / 3.0 * FLOE_PI * r[i] * r[i] * r[i];
        outside += !(x[i].x >= 0 && x[i].x < L && x[i].y >= 0 && x[i].y < L);
        for (int64_t j = i + 1; j < n; j++) {
            floe_vec3 raw = {x[j].x - x[i].x, x[j].y - x[i].y, x[j].z - x[i].z}, s = mi(raw);
            double ov = (r[i] + r[j] - sqrt(s.x * s.x + s.y * s.y + s.z * s.z)) / fmin(r[i], r[j]);
            int through = s.x != raw.x || s.y != raw.y;
            if (ov > 0 && through) across++, worst_across = fmax(worst_across, ov);
            worst = fmax(worst, ov);
        }
    }
    double fraction = vol / (L * L * 0.03);
    REPORT("dense packing spanning a periodic cell: %lld spheres, fraction %.6f, %lld overlaps through a face, "
           "deepest %.4g (through a face %.4g), max_overlap %g\n",
           (long long)n, fraction, (long long)across, worst, worst_across, d.max_overlap);
    CHECK_REL(fraction, 0.55, 1e-9);
    CHECK(outside == 0 && across > 0);
    CHECK(worst <= d.max_overlap * (1 + 1e-9));
    free(x);
    free(r);
}

static char tmpdir[] = "/tmp/floe_test_periodic_generators_XXXXXX";

static void test_scene_check(void) {
    static const char *head = "run: {steps: 10}\nworld: {gravity: [0, 0, 0], dt: 1e-5}\n"
                              "materials: [{name: a, young: 1e7, density: 2000}]\nperiodic: {x: [0, 0.05]}\n";
    char text[1024], path[512], err[1024];
    snprintf(text, sizeof text,
             "%sparticles:\n  - {pos: [0.0015, 0, 0], radius: 0.003}\n  - {pos: [0.0485, 0, 0], radius: 0.003}\n",
             head);
    check_write_tmp(tmpdir, "deep.yaml", text, path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    REPORT("two spheres through a face: %s\n", rc ? err : "loaded");
    CHECK(rc != 0 && strstr(err, "deep.yaml:7:") &&
          strstr(err, "particle 0 (line 6) and particle 1 (line 7) overlap") && strstr(err, "100%"));
    if (!rc) floe_scene_free(&s);
    snprintf(text, sizeof text,
             "%sparticles:\n  - {pos: [0.003, 0, 0], radius: 0.003}\n  - {pos: [0.0469, 0, 0], radius: 0.003}\n", head);
    check_write_tmp(tmpdir, "apart.yaml", text, path, sizeof path);
    rc = floe_scene_load(path, &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) fprintf(stderr, "%s\n", err);
    else floe_scene_free(&s);
}

int main(void) {
    if (!mkdtemp(tmpdir)) return 1;
    test_random_spheres();
    test_random_capsules();
    test_dense();
    test_scene_check();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) return 1;
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
