/* Dense packings by radius expansion (floe_gen_dense,
 * docs/decisions.md#dense-packings-by-radius-expansion) and random
 * placement clear of the scene's boundaries and bodies.
 *
 * Every property is measured here from the returned spheres, not taken
 * from the generator's own report:
 *  - solid fraction: the sum of the spheres' volumes inside the box,
 *    floe_sphere_box_volume (the exact sphere-box intersection of
 *    src/core/measure.c), minus the volume counted twice in every
 *    overlapping pair (the lens of two spheres at distance d,
 *    V = pi (R + r - d)^2 (d^2 + 2 d r - 3 r^2 + 2 d R + 6 R r - 3 R^2) / (12 d),
 *    the textbook sphere-sphere intersection), over the box volume;
 *  - residual overlap: every pair by brute force (depth over the smaller
 *    radius) and every sphere against the region's boundary (depth over
 *    its radius);
 *  - monodisperse target: 0.62, a little below random close packing, about
 *    0.64 for frictionless spheres without walls (O'Hern et al. 2003: 0.639
 *    at jamming); the box's walls lower the density of the layers next to
 *    them, so a box of 15 diameters jams near 0.61 with no overlap and
 *    reaches 0.62 with overlaps up to a few % of a radius: the bound here
 *    is 5 %;
 *  - radius distribution: the final radii are the drawn ones times one
 *    factor, checked radius by radius against the generator's own sampler
 *    (same seed), and the drawn shape against the target CDF by the
 *    Kolmogorov-Smirnov statistic below the 1 % critical value
 *    1.63 / sqrt(n) (Smirnov 1948), as tests/test_size_dist.c does. */
#include "pack/generate.h"

#include "check.h"

#include <floe/floe.h>
#include <floe/floe_io.h>

#include <unistd.h>

static char tmpdir[256];

#define PI 3.14159265358979323846

static double lens(double R, double r, double d) {
    if (d >= R + r) return 0;
    if (d <= fabs(R - r)) return 4.0 / 3.0 * PI * pow(fmin(R, r), 3);
    double h = R + r - d;
    return PI * h * h * (d * d + 2 * d * r - 3 * r * r + 2 * d * R + 6 * R * r - 3 * R * R) / (12 * d);
}

typedef struct stats {
    double max_pair, max_wall, lens_vol, vol;
} stats;

/* Brute-force overlaps of n spheres (pairs and the box or z-cylinder). */
static stats measure(const floe_vec3 *x, const double *r, int64_t n, int cyl, floe_vec3 lo, floe_vec3 hi, double cx,
                     double cy, double R) {
    stats s = {0};
    for (int64_t i = 0; i < n; i++) {
        s.vol += 4.0 / 3.0 * PI * r[i] * r[i] * r[i];
        for (int64_t j = i + 1; j < n; j++) {
            double dx = x[j].x - x[i].x, dy = x[j].y - x[i].y, dz = x[j].z - x[i].z, rr = r[i] + r[j];
            double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 >= rr * rr) continue;
            double d = sqrt(d2);
            s.max_pair = fmax(s.max_pair, (rr - d) / fmin(r[i], r[j]));
            s.lens_vol += lens(r[i], r[j], d);
        }
        double out = fmax(fmax(lo.z - (x[i].z - r[i]), (x[i].z + r[i]) - hi.z), 0);
        if (cyl) {
            double rho = sqrt((x[i].x - cx) * (x[i].x - cx) + (x[i].y - cy) * (x[i].y - cy));
            out = fmax(out, rho + r[i] - R);
        } else {
            out = fmax(out, fmax(lo.x - (x[i].x - r[i]), (x[i].x + r[i]) - hi.x));
            out = fmax(out, fmax(lo.y - (x[i].y - r[i]), (x[i].y + r[i]) - hi.y));
        }
        s.max_wall = fmax(s.max_wall, out / r[i]);
    }
    return s;
}

static floe_dense_def box_def(double side, double r, double target, double max_ov, uint64_t seed) {
    floe_dense_def d;
    memset(&d, 0, sizeof d);
    d.region = FLOE_DENSE_BOX;
    d.lo = (floe_vec3){0, 0, 0};
    d.hi = (floe_vec3){side, side, side};
    d.rmin = d.rmax = r;
    d.target = target;
    d.max_overlap = max_ov;
    d.max_iterations = 200000;
    d.seed = seed;
    return d;
}

/* Equal spheres in a box of 15 diameters (~4000 spheres) to 0.62. */
static void test_mono_box(void) {
    floe_dense_def d = box_def(0.03, 0.001, 0.62, 0.05, 1);
    floe_vec3 *x;
    double *r;
    floe_dense_info in;
    char err[1024];
    int rc = floe_gen_dense(&d, &x, &r, &in, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    stats s = measure(x, r, in.count, 0, d.lo, d.hi, 0, 0, 0);
    double V = 0.03 * 0.03 * 0.03, inside = 0;
    for (int64_t i = 0; i < in.count; i++) inside += floe_sphere_box_volume(x[i], r[i], d.lo, d.hi);
    double phi_nominal = s.vol / V, phi_inside = inside / V, phi_true = (inside - s.lens_vol) / V;
    printf("mono box: n %lld, scale %.6f, fraction %.5f (inside the box %.5f, overlaps removed %.5f), reached %.3f, "
           "overlap mean %.4f max %.4f (pairs %.4f, walls %.4f), %lld iterations, %d stages\n",
           (long long)in.count, in.scale, phi_nominal, phi_inside, phi_true, in.reached, in.mean_overlap,
           in.max_overlap, s.max_pair, s.max_wall, (long long)in.iterations, in.stages);
    CHECK(phi_nominal >= 0.62 - 1e-12);
    CHECK_NEAR(in.fraction, phi_nominal, 1e-12);
    /* what sticks out of the walls (at most 5 % of a radius) and the lenses
     * (mean overlap under 1 % of a radius) cost less than 0.005 */
    CHECK(phi_inside >= 0.62 - 0.005 && phi_true >= 0.62 - 0.005);
    CHECK(s.max_pair <= 0.05 + 1e-12 && s.max_wall <= 0.05 + 1e-12);
    CHECK(in.max_overlap <= 0.05 && in.mean_overlap < 0.01);
    CHECK(in.reached == 0.62);
    for (int64_t i = 0; i < in.count; i++) CHECK(r[i] == r[0]);
    free(x);
    free(r);
}

/* A cylinder R = 15 r, H = 30 r to 0.60. */
static void test_cylinder(void) {
    floe_dense_def d = box_def(1, 1, 0.60, 0.02, 2);
    d.region = FLOE_DENSE_CYLINDER;
    d.base = (floe_vec3){5, -3, 1};
    d.radius = 15;
    d.height = 30;
    floe_vec3 *x;
    double *r;
    floe_dense_info in;
    char err[1024];
    int rc = floe_gen_dense(&d, &x, &r, &in, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    stats s = measure(x, r, in.count, 1, (floe_vec3){0, 0, 1}, (floe_vec3){0, 0, 31}, 5, -3, 15);
    double V = PI * 15 * 15 * 30;
    printf("cylinder: n %lld, fraction %.5f, overlap mean %.4f max %.4f (pairs %.4f, wall %.4f), %lld iterations\n",
           (long long)in.count, s.vol / V, in.mean_overlap, in.max_overlap, s.max_pair, s.max_wall,
           (long long)in.iterations);
    /* count: the target volume 0.6 V over one sphere's, rounded up */
    CHECK(in.count == (int64_t)ceil(0.6 * V / (4.0 / 3.0 * PI)));
    CHECK(s.vol / V >= 0.60 - 1e-12 && s.vol / V < 0.60 + 1e-9);
    CHECK(s.max_pair <= 0.02 + 1e-12 && s.max_wall <= 0.02 + 1e-12);
    free(x);
    free(r);
}

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double phi_n(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }
static double cdf_lognormal(const floe_size_dist *d, double r) {
    double a = phi_n((log(d->min) - d->mu) / d->sigma), b = phi_n((log(d->max) - d->mu) / d->sigma);
    double x = r < d->min ? d->min : r > d->max ? d->max : r;
    return (phi_n((log(x) - d->mu) / d->sigma) - a) / (b - a);
}
static double cdf_sieve_number(const floe_size_dist *d, double r) {
    if (r <= d->sizes[0]) return 0;
    for (int k = 0; k + 1 < d->npts; k++)
        if (r <= d->sizes[k + 1])
            return d->passing[k] +
                   (d->passing[k + 1] - d->passing[k]) * (r - d->sizes[k]) / (d->sizes[k + 1] - d->sizes[k]);
    return 1;
}

/* KS statistic of radii/scale against cdf. */
static double ks(const double *r, int64_t n, double scale, const floe_size_dist *d,
                 double (*cdf)(const floe_size_dist *, double)) {
    double *s = malloc((size_t)n * sizeof *s), D = 0;
    for (int64_t i = 0; i < n; i++) s[i] = r[i] / scale;
    qsort(s, (size_t)n, sizeof *s, cmp_dbl);
    for (int64_t i = 0; i < n; i++) {
        double F = cdf(d, s[i]);
        D = fmax(D, fmax(fabs((double)(i + 1) / (double)n - F), fabs(F - (double)i / (double)n)));
    }
    free(s);
    return D;
}

static void test_polydisperse(void) {
    /* log-normal, count given: every radius is the sampler's draw times the
     * common factor; and the shape passes KS */
    floe_size_dist ln = {.kind = FLOE_DIST_LOGNORMAL, .min = 0.5, .max = 2, .mu = 0, .sigma = 0.3};
    floe_dense_def d = box_def(25, 1, 0.60, 0.03, 5);
    d.dist = &ln;
    d.count = 1500;
    floe_vec3 *x;
    double *r;
    floe_dense_info in;
    char err[1024];
    int rc = floe_gen_dense(&d, &x, &r, &in, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    floe_rng rng;
    floe_rng_seed(&rng, 5);
    int same = 1;
    for (int64_t i = 0; i < in.count; i++) same &= fabs(r[i] - in.scale * floe__size_sample(&ln, &rng)) <= 1e-15 * r[i];
    CHECK(in.count == 1500 && same);
    stats s = measure(x, r, in.count, 0, d.lo, d.hi, 0, 0, 0);
    double D = ks(r, in.count, in.scale, &ln, cdf_lognormal);
    printf("lognormal: n %lld, scale %.5f, fraction %.5f, KS D %.4f (bound %.4f), overlap max %.4f, %lld "
           "iterations\n",
           (long long)in.count, in.scale, s.vol / (25.0 * 25 * 25), D, 1.63 / sqrt(1500.0),
           fmax(s.max_pair, s.max_wall), (long long)in.iterations);
    CHECK(D < 1.63 / sqrt(1500.0));
    CHECK_NEAR(s.vol / (25.0 * 25 * 25), 0.60, 1e-12);
    CHECK(s.max_pair <= 0.03 + 1e-12 && s.max_wall <= 0.03 + 1e-12);
    free(x);
    free(r);

    /* sieve by number, count from the target: the radii are the draws
     * times a factor just below 1 (the last draw overshoots the volume) */
    floe_size_dist sv = {.kind = FLOE_DIST_SIEVE, .npts = 3, .sizes = {0.5, 1, 2}, .passing = {0, 0.6, 1}};
    sv.min = 0.5;
    sv.max = 2;
    d = box_def(25, 1, 0.6, 0.02, 6);
    d.dist = &sv;
    rc = floe_gen_dense(&d, &x, &r, &in, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    /* the factor: (target volume / drawn volume)^(1/3), within one sphere of
     * the largest size of the target */
    CHECK(in.scale <= 1 && in.scale > 1 - 4.0 / 3.0 * PI * 8 / (0.6 * 25 * 25 * 25));
    D = ks(r, in.count, in.scale, &sv, cdf_sieve_number);
    printf("sieve: n %lld, scale %.6f, KS D %.4f (bound %.4f), overlap max %.4f\n", (long long)in.count, in.scale, D,
           1.63 / sqrt((double)in.count), in.max_overlap);
    CHECK(D < 1.63 / sqrt((double)in.count));
    free(x);
    free(r);
}

static void test_determinism(void) {
    floe_vec3 *x[3];
    double *r[3];
    floe_dense_info in[3];
    char err[1024];
    for (int k = 0; k < 3; k++) {
        floe_dense_def d = box_def(12, 1, 0.5, 0.02, k < 2 ? 11 : 12);
        int rc = floe_gen_dense(&d, &x[k], &r[k], &in[k], err, sizeof err);
        CHECK(rc == 0);
        if (rc) {
            fprintf(stderr, "%s\n", err);
            return;
        }
    }
    size_t n = (size_t)in[0].count;
    CHECK(in[1].count == in[0].count && in[1].iterations == in[0].iterations);
    CHECK(!memcmp(x[0], x[1], n * sizeof *x[0]) && !memcmp(r[0], r[1], n * sizeof *r[0]));
    CHECK(in[2].count == in[0].count && memcmp(x[0], x[2], n * sizeof *x[0]) != 0);
    for (int k = 0; k < 3; k++) free(x[k]), free(r[k]);
}

/* ---- scenes ---------------------------------------------------------------- */

/* Loads yaml; want NULL: must load (returns the scene), else the message
 * must hold every string of want (NULL-terminated). */
static int load(const char *yaml, floe_scene *s, const char *const *want, int line) {
    char path[512], err[2048];
    check_write_tmp(tmpdir, "pack.yaml", yaml, path, sizeof path);
    int rc = floe_scene_load(path, s, err, sizeof err);
    if (!want) {
        if (rc) {
            check_failures++;
            fprintf(stderr, "test_packing.c:%d: unexpected error %s\n", line, err);
        }
        return rc;
    }
    if (!rc) {
        check_failures++;
        fprintf(stderr, "test_packing.c:%d: loaded, expected an error\n", line);
        floe_scene_free(s);
        return -1;
    }
    for (int k = 0; want[k]; k++)
        if (!strstr(err, want[k])) {
            check_failures++;
            fprintf(stderr, "test_packing.c:%d: wrong message\n  got:  %s\n  want: ...%s\n", line, err, want[k]);
        }
    return -1;
}

#define HEAD "run: {steps: 1}\nmaterials: [{name: a}]\ngenerators:\n"
#define ERR(gen, ...)                                         \
    do {                                                      \
        floe_scene s_;                                        \
        const char *const w_[] = {__VA_ARGS__, NULL};         \
        load(HEAD "  - dense: " gen "\n", &s_, w_, __LINE__); \
    } while (0)

static void test_scene_errors(void) {
    char at[600];
    snprintf(at, sizeof at, "%s/pack.yaml:4:", tmpdir);
    ERR("{box: [[0,0,0],[1,1,1]], radius: 0.05, solid_fraction: 0.8}", at,
        "generators[0].dense.solid_fraction: 0.8 is impossible for spheres of one radius: allowed (0, 0.7405]");
    ERR("{box: [[0,0,0],[1,1,1]], radius: [0.04, 0.05], solid_fraction: 0.95}", at,
        "generators[0].dense.solid_fraction", "(0, 0.9]");
    ERR("{box: [[0,0,0],[1,1,1]], cylinder: {base: [0,0,0], radius: 1, height: 1}, radius: 0.05, "
        "solid_fraction: 0.5}",
        at, "give one region: box or cylinder, not both");
    ERR("{radius: 0.05, solid_fraction: 0.5}", at, "give exactly one region");
    ERR("{cylinder: {base: [0,0,0], radius: 0, height: 1}, radius: 0.05, solid_fraction: 0.5}", at,
        "generators[0].dense.cylinder.radius");
    ERR("{box: [[0,0,0],[1,1,1]], radius: 0.05, solid_fraction: 0.5, max_overlap: 0}", at,
        "generators[0].dense.max_overlap", "(0, 0.5]");
    ERR("{box: [[0,0,0],[1,1,1]], radius: 0.05, solid_fraction: 0.5, max_iterations: 0}", at,
        "generators[0].dense.max_iterations");
    ERR("{box: [[0,0,0],[1,1,1]], radius: 0.05, solid_fraction: 0.5, porosity: 0.4}", at, "porosity");
    ERR("{box: [[0,0,0],[1,1,1]], radius: {dist: lognormal, median: 0.05, sigma: 0.3, min: 0.06, max: 0.04}, "
        "solid_fraction: 0.5}",
        at, "min = 0.06 is above max = 0.04");
    ERR("{box: [[0,0,0],[0.1,0.1,0.1]], radius: 0.01, count: 1, solid_fraction: 0.6}", at, "do not fit in the region");
    /* equal spheres cannot reach 0.70 (random packings jam near 0.64):
     * the message gives what was reached */
    ERR("{box: [[0,0,0],[0.2,0.2,0.2]], radius: 0.01, solid_fraction: 0.70, max_iterations: 5000}", at,
        "did not reach solid_fraction 0.7", "the densest stage relaxed below the bound had solid fraction 0.");
}

/* Random spheres in a box cut by a wall, a tilted facet, an infinite
 * cylinder and a cube mesh: none overlaps any of them (measured here
 * against the geometry written in the scene), while the same generator
 * without the boundaries does put spheres across them. */
static double seg_dist(floe_vec3 p, floe_vec3 a, floe_vec3 b) {
    floe_vec3 ab = {b.x - a.x, b.y - a.y, b.z - a.z}, ap = {p.x - a.x, p.y - a.y, p.z - a.z};
    double t = (ap.x * ab.x + ap.y * ab.y + ap.z * ab.z) / (ab.x * ab.x + ab.y * ab.y + ab.z * ab.z);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    floe_vec3 q = {ap.x - t * ab.x, ap.y - t * ab.y, ap.z - t * ab.z};
    return sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
}
static floe_vec3 sub(floe_vec3 a, floe_vec3 b) { return (floe_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static floe_vec3 cross(floe_vec3 a, floe_vec3 b) {
    return (floe_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static double dot(floe_vec3 a, floe_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/* distance from p to triangle abc: the plane's if the projection is inside, else the nearest edge's */
static double tri_dist(floe_vec3 p, floe_vec3 a, floe_vec3 b, floe_vec3 c) {
    floe_vec3 n = cross(sub(b, a), sub(c, a));
    double nn = sqrt(dot(n, n)), h = dot(sub(p, a), n) / nn;
    floe_vec3 q = {p.x - h * n.x / nn, p.y - h * n.y / nn, p.z - h * n.z / nn};
    double u = dot(cross(sub(b, a), sub(q, a)), n), v = dot(cross(sub(c, b), sub(q, b)), n),
           w = dot(cross(sub(a, c), sub(q, c)), n);
    if (u >= 0 && v >= 0 && w >= 0) return fabs(h);
    return fmin(seg_dist(p, a, b), fmin(seg_dist(p, b, c), seg_dist(p, c, a)));
}

/* cube [0.55, 0.85]^3 as 12 triangles */
static const double CUBE_LO = 0.55, CUBE_HI = 0.85;
static void cube_tris(floe_vec3 t[12][3]) {
    int k = 0;
    for (int ax = 0; ax < 3; ax++)
        for (int side = 0; side < 2; side++) {
            double c = side ? CUBE_HI : CUBE_LO;
            floe_vec3 q[4];
            const double uv[4][2] = {{CUBE_LO, CUBE_LO}, {CUBE_HI, CUBE_LO}, {CUBE_HI, CUBE_HI}, {CUBE_LO, CUBE_HI}};
            for (int m = 0; m < 4; m++) {
                double v[3];
                v[ax] = c;
                v[(ax + 1) % 3] = uv[m][0];
                v[(ax + 2) % 3] = uv[m][1];
                q[m] = (floe_vec3){v[0], v[1], v[2]};
            }
            t[k][0] = q[0], t[k][1] = q[1], t[k][2] = q[2], k++;
            t[k][0] = q[0], t[k][1] = q[2], t[k][2] = q[3], k++;
        }
}

static const floe_vec3 FACET[3] = {{-0.2, -0.2, 0.1}, {1.2, -0.2, 0.5}, {-0.2, 1.2, 0.3}};

/* How many of n spheres overlap a boundary of the scene below. */
static int64_t crossing(const floe_vec3 *x, const double *r, int64_t n) {
    floe_vec3 cube[12][3];
    cube_tris(cube);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        int hit = fabs(x[i].x - 0.3) < r[i];                                                         /* wall x = 0.3 */
        hit |= sqrt((x[i].y - 0.7) * (x[i].y - 0.7) + (x[i].z - 0.8) * (x[i].z - 0.8)) < 0.1 + r[i]; /* cylinder */
        hit |= tri_dist(x[i], FACET[0], FACET[1], FACET[2]) < r[i];
        for (int t = 0; t < 12; t++) hit |= tri_dist(x[i], cube[t][0], cube[t][1], cube[t][2]) < r[i];
        bad += hit;
    }
    return bad;
}

static void test_obstacles(void) {
    floe_vec3 cube[12][3];
    cube_tris(cube);
    char stl[8192], path[512];
    int k = snprintf(stl, sizeof stl, "solid cube\n");
    for (int t = 0; t < 12; t++) {
        k += snprintf(stl + k, sizeof stl - (size_t)k, " facet normal 0 0 0\n  outer loop\n");
        for (int m = 0; m < 3; m++)
            k += snprintf(stl + k, sizeof stl - (size_t)k, "   vertex %.17g %.17g %.17g\n", cube[t][m].x, cube[t][m].y,
                          cube[t][m].z);
        k += snprintf(stl + k, sizeof stl - (size_t)k, "  endloop\n endfacet\n");
    }
    snprintf(stl + k, sizeof stl - (size_t)k, "endsolid cube\n");
    check_write_tmp(tmpdir, "cube.stl", stl, path, sizeof path);
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "run: {steps: 1}\nmaterials: [{name: a}]\n"
             "walls: [{axis: x, pos: 0.3}]\n"
             "cylinders: [{axis: x, pos: [0, 0.7, 0.8], radius: 0.1}]\n"
             "facets: [{vertices: [[%g, %g, %g], [%g, %g, %g], [%g, %g, %g]]}]\n"
             "meshes: [{stl: cube.stl}]\n"
             "generators:\n  - random: {box: [[0, 0, 0], [1, 1, 1]], radius: [0.02, 0.04], count: 1500, seed: 9}\n",
             FACET[0].x, FACET[0].y, FACET[0].z, FACET[1].x, FACET[1].y, FACET[1].z, FACET[2].x, FACET[2].y,
             FACET[2].z);
    floe_scene s;
    if (load(yaml, &s, NULL, __LINE__)) return;
    int np = floe_particle_count(s.world), ns = 0;
    const floe_vec3 *pos = floe_positions(s.world);
    const double *rad = floe_radii(s.world);
    floe_vec3 *x = malloc((size_t)np * sizeof *x);
    double *r = malloc((size_t)np * sizeof *r);
    for (int i = 0; i < np; i++)
        if (floe_particle_shape(s.world, i) == FLOE_SHAPE_SPHERE) {
            x[ns] = pos[i];
            r[ns++] = rad[i];
        }
    CHECK(ns == 1500 && np == 1500 + 1 + 1 + 1 + 12);
    int64_t bad = crossing(x, r, ns);
    CHECK(bad == 0);
    floe_scene_free(&s);
    /* the same generator alone */
    floe_random_def rd = {.lo = {0, 0, 0}, .hi = {1, 1, 1}, .rmin = 0.02, .rmax = 0.04, .count = 1500, .seed = 9};
    floe_vec3 *x2;
    double *r2;
    int64_t placed;
    char err[512];
    CHECK(floe_gen_random(&rd, &x2, &r2, &placed, err, sizeof err) == 0);
    int64_t bad2 = crossing(x2, r2, placed);
    printf("obstacles: %lld of 1500 spheres cross a boundary without the test, %lld with it\n", (long long)bad2,
           (long long)bad);
    CHECK(bad2 > 100);
    free(x), free(r), free(x2), free(r2);
    remove(path);
}

/* Bodies already in the world are obstacles of a random packing too: big
 * spheres and a capsule given in their sections, inside the generator's
 * box, and in a periodic cell a sphere across a face. Overlaps measured
 * here: centre distance below the radii's sum (spheres; in the cell at the
 * smallest distance over the images, d - L round(d / L) per axis), axis
 * distance below the radii's sum (the capsule). */
static void test_body_obstacles(void) {
    floe_scene s;
    char yaml[2048];
    int k = snprintf(yaml, sizeof yaml,
                     "run: {steps: 1}\nmaterials: [{name: a}]\n"
                     "capsules: [{radius: 0.05, shaft: 0.4, pos: [0.5, 0.5, 0.5], axis: [1, 1, 0]}]\n"
                     "particles:\n");
    for (int i = 0; i < 27; i++)
        k += snprintf(yaml + k, sizeof yaml - (size_t)k, "  - {radius: 0.08, pos: [%g, %g, %g]}\n",
                      0.15 + 0.35 * (i % 3), 0.15 + 0.35 * (i / 3 % 3), 0.15 + 0.35 * (i / 9) + (i == 13 ? 0.14 : 0));
    snprintf(yaml + k, sizeof yaml - (size_t)k,
             "generators:\n  - random: {box: [[0, 0, 0], [1, 1, 1]], radius: [0.02, 0.04], count: 1000, seed: 9}\n");
    if (load(yaml, &s, NULL, __LINE__)) return;
    int np = floe_particle_count(s.world);
    const floe_vec3 *x = floe_positions(s.world);
    const double *r = floe_radii(s.world);
    CHECK(np == 1 + 27 + 1000);
    floe_vec3 a = {0.5 - 0.2 / sqrt(2), 0.5 - 0.2 / sqrt(2), 0.5}, b = {0.5 + 0.2 / sqrt(2), 0.5 + 0.2 / sqrt(2), 0.5};
    int64_t bad = 0;
    for (int i = 28; i < np; i++) {
        int hit = seg_dist(x[i], a, b) < 0.05 + r[i];
        for (int j = 1; j < 28; j++) {
            floe_vec3 d = sub(x[i], x[j]);
            hit |= dot(d, d) < (r[i] + r[j]) * (r[i] + r[j]);
        }
        bad += hit;
    }
    floe_scene_free(&s);
    /* periodic: the sphere at x = 0.02 reaches past the face x = 0 */
    CHECK(load("run: {steps: 1}\nmaterials: [{name: a}]\nperiodic: {x: [0, 1], y: [0, 1], z: [0, 1]}\n"
               "particles: [{radius: 0.15, pos: [0.02, 0.5, 0.5]}]\n"
               "generators:\n  - random: {box: [[0, 0, 0], [1, 1, 1]], radius: [0.02, 0.04], count: 1000, "
               "seed: 9}\n",
               &s, NULL, __LINE__) == 0);
    if (!s.world) return;
    np = floe_particle_count(s.world);
    x = floe_positions(s.world);
    r = floe_radii(s.world);
    int64_t bad_cell = 0;
    for (int i = 1; i < np; i++) {
        floe_vec3 d = sub(x[i], x[0]);
        d = (floe_vec3){d.x - round(d.x), d.y - round(d.y), d.z - round(d.z)}; /* L = 1 */
        bad_cell += dot(d, d) < (r[i] + r[0]) * (r[i] + r[0]);
    }
    printf("body obstacles: %lld of 1000 generated spheres overlap a given body, %lld of 1000 in the periodic cell\n",
           (long long)bad, (long long)bad_cell);
    CHECK(np == 1001);
    CHECK(bad == 0);
    CHECK(bad_cell == 0);
    floe_scene_free(&s);
}

/* A dense generator in a scene: the spheres and their count. */
static void test_scene_dense(void) {
    floe_scene s;
    if (load(HEAD "  - dense: {cylinder: {base: [0, 0, 0], radius: 0.01, height: 0.02}, radius: {dist: uniform, "
                  "min: 0.0008, max: 0.0012}, solid_fraction: 0.6, seed: 4, max_overlap: 0.03}\n",
             &s, NULL, __LINE__))
        return;
    int n = floe_particle_count(s.world);
    const double *r = floe_radii(s.world);
    double v = 0;
    for (int i = 0; i < n; i++) v += 4.0 / 3.0 * PI * r[i] * r[i] * r[i];
    CHECK_NEAR(v / (PI * 0.01 * 0.01 * 0.02), 0.6, 1e-12);
    floe_scene_free(&s);
}

/* examples/rock-specimen.yaml: the dense specimen its header describes
 * (4201 spheres at 0.60, overlaps within 0.2 % of a radius, inside the box
 * between its platens). */
static void test_rock_example(void) {
    floe_scene s;
    char err[2048];
    int rc = floe_scene_load(FLOE_EXAMPLES "/rock-specimen.yaml", &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    int np = floe_particle_count(s.world), ns = 0;
    const floe_vec3 *pos = floe_positions(s.world);
    const double *rad = floe_radii(s.world);
    floe_vec3 *x = calloc((size_t)np, sizeof *x);
    double *r = calloc((size_t)np, sizeof *r);
    for (int i = 0; i < np; i++)
        if (floe_particle_shape(s.world, i) == FLOE_SHAPE_SPHERE) {
            x[ns] = pos[i];
            r[ns++] = rad[i];
        }
    stats st = measure(x, r, ns, 0, (floe_vec3){0, 0, 0}, (floe_vec3){0.02, 0.02, 0.04}, 0, 0, 0);
    printf("rock-specimen.yaml: %d spheres, solid fraction %.5f, max overlap %.5f (pairs) %.5f (box)\n", ns,
           st.vol / (0.02 * 0.02 * 0.04), st.max_pair, st.max_wall);
    CHECK(ns == 4201 && np == 4203);
    CHECK_NEAR(st.vol / (0.02 * 0.02 * 0.04), 0.6, 1e-12);
    CHECK(st.max_pair <= 0.002 + 1e-12 && st.max_wall <= 0.002 + 1e-12);
    free(x), free(r);
    floe_scene_free(&s);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/floe_test_pack_XXXXXX");
    const char *t = getenv("TMPDIR");
    if (t && *t) snprintf(tmpdir, sizeof tmpdir, "%s/floe_test_pack_XXXXXX", t);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_mono_box();
    test_cylinder();
    test_polydisperse();
    test_determinism();
    test_scene_errors();
    test_obstacles();
    test_body_obstacles();
    test_scene_dense();
    test_rock_example();
    char p[512];
    snprintf(p, sizeof p, "%s/pack.yaml", tmpdir);
    remove(p);
    rmdir(tmpdir);
    return CHECK_DONE();
}
