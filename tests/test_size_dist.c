/* Radius distributions of the random sphere generator
 * (docs/decisions.md#radius-distributions-of-the-random-generator).
 *
 * Each distribution is sampled through floe__size_sample, the sampler
 * floe_gen_random uses (20000 draws), and through a generated packing of
 * 400 spheres; the sample is compared with the target CDF, written out here
 * from its definition, by the Kolmogorov-Smirnov statistic
 * D = sup |F_n(r) - F(r)|. The test requires D below the 1 % critical value
 * of the asymptotic Kolmogorov distribution, 1.63 / sqrt(n) (Smirnov 1948:
 * P(sqrt(n) D > 1.628) = 0.01): 0.0115 for n = 20000, 0.0815 for n = 400.
 * The draws are deterministic (fixed seeds), so the test passes or fails
 * the same way every run; a correct sampler fails a given seed with
 * probability 1 %, a wrong one (say a sigma off by 5 %) far beyond the bound.
 *
 * Sieve by mass: the number CDF the sampler inverts is checked against a
 * number CDF integrated numerically here (trapezoid rule over the number
 * density (dM/dr) / r^3, 4000 panels per interval), and the mass fraction
 * of the sample (weights r^3) against the table by a weighted KS statistic
 * with the effective size n_eff = (sum w)^2 / sum w^2 in the critical value
 * (Kish's effective sample size; an approximation for weighted samples,
 * stated as such). */
#include "pack/generate.h"

#include "check.h"

#include <floe/floe.h>
#include <floe/floe_io.h>

#include <unistd.h>

#define NDRAW 20000

static char tmpdir[256];

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef double (*cdf_fn)(const floe_size_dist *d, double r);

static double phi(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }

static double cdf_uniform(const floe_size_dist *d, double r) {
    return r <= d->min ? 0 : r >= d->max ? 1 : (r - d->min) / (d->max - d->min);
}
static double cdf_normal(const floe_size_dist *d, double r) {
    double a = phi((d->min - d->mu) / d->sigma), b = phi((d->max - d->mu) / d->sigma);
    double x = r < d->min ? d->min : r > d->max ? d->max : r;
    return (phi((x - d->mu) / d->sigma) - a) / (b - a);
}
static double cdf_lognormal(const floe_size_dist *d, double r) {
    double a = phi((log(d->min) - d->mu) / d->sigma), b = phi((log(d->max) - d->mu) / d->sigma);
    double x = r < d->min ? d->min : r > d->max ? d->max : r;
    return (phi((log(x) - d->mu) / d->sigma) - a) / (b - a);
}
/* the table itself: passing, linear in r between sizes */
static double cdf_table(const floe_size_dist *d, double r) {
    if (r <= d->sizes[0]) return 0;
    for (int k = 0; k + 1 < d->npts; k++)
        if (r <= d->sizes[k + 1])
            return d->passing[k] +
                   (d->passing[k + 1] - d->passing[k]) * (r - d->sizes[k]) / (d->sizes[k + 1] - d->sizes[k]);
    return 1;
}

/* Number CDF of a by-mass table by the trapezoid rule on n(r) = m(r) / r^3,
 * m the table's (piecewise constant) mass density. */
#define PANELS 4000
static double num_grid[FLOE_SIEVE_MAX_POINTS * PANELS + 1], num_r[FLOE_SIEVE_MAX_POINTS * PANELS + 1];
static int num_len;
static void build_number_cdf(const floe_size_dist *d) {
    num_len = 0;
    num_r[0] = d->sizes[0];
    num_grid[0] = 0;
    for (int k = 0; k + 1 < d->npts; k++) {
        double a = d->sizes[k], b = d->sizes[k + 1], m = (d->passing[k + 1] - d->passing[k]) / (b - a);
        for (int j = 1; j <= PANELS; j++) {
            double r0 = a + (b - a) * (j - 1) / PANELS, r1 = a + (b - a) * j / PANELS;
            num_r[num_len + 1] = r1;
            num_grid[num_len + 1] = num_grid[num_len] + 0.5 * (r1 - r0) * (m / (r0 * r0 * r0) + m / (r1 * r1 * r1));
            num_len++;
        }
    }
    for (int i = 1; i <= num_len; i++) num_grid[i] /= num_grid[num_len];
}
static double cdf_number_of_mass(const floe_size_dist *d, double r) {
    (void)d;
    if (r <= num_r[0]) return 0;
    if (r >= num_r[num_len]) return 1;
    int lo = 0, hi = num_len;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (num_r[mid] <= r) lo = mid;
        else hi = mid;
    }
    return num_grid[lo] + (num_grid[hi] - num_grid[lo]) * (r - num_r[lo]) / (num_r[hi] - num_r[lo]);
}

/* KS statistic of x[0..n) (sorted in place) against F. */
static double ks(double *x, int64_t n, const floe_size_dist *d, cdf_fn F) {
    qsort(x, (size_t)n, sizeof *x, cmp_dbl);
    double D = 0;
    for (int64_t i = 0; i < n; i++) {
        double f = F(d, x[i]);
        D = fmax(D, fmax(f - (double)i / (double)n, (double)(i + 1) / (double)n - f));
    }
    return D;
}

/* Weighted KS (weights r^3) against F; *neff = (sum w)^2 / sum w^2. */
static double ks_mass(double *x, int64_t n, const floe_size_dist *d, cdf_fn F, double *neff) {
    qsort(x, (size_t)n, sizeof *x, cmp_dbl);
    double W = 0, W2 = 0;
    for (int64_t i = 0; i < n; i++) {
        double w = x[i] * x[i] * x[i];
        W += w;
        W2 += w * w;
    }
    double D = 0, acc = 0;
    for (int64_t i = 0; i < n; i++) {
        double f = F(d, x[i]);
        D = fmax(D, f - acc / W);
        acc += x[i] * x[i] * x[i];
        D = fmax(D, acc / W - f);
    }
    *neff = W * W / W2;
    return D;
}

static int no_overlap(const floe_vec3 *p, const double *r, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y, dz = p[i].z - p[j].z, rr = r[i] + r[j];
            if (dx * dx + dy * dy + dz * dz < rr * rr) return 0;
        }
    return 1;
}

/* Draws through the sampler and through a packing; KS of both. */
static void check_dist(const char *name, const floe_size_dist *d, cdf_fn F, uint64_t seed) {
    char err[512];
    CHECK(floe_size_dist_check(d, err, sizeof err) == 0);
    double *x = malloc(NDRAW * sizeof *x);
    floe_rng rng;
    floe_rng_seed(&rng, seed);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < NDRAW; i++) {
        x[i] = floe__size_sample(d, &rng);
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
    }
    double rmin = d->kind == FLOE_DIST_SIEVE ? d->sizes[0] : d->min;
    double rmax = d->kind == FLOE_DIST_SIEVE ? d->sizes[d->npts - 1] : d->max;
    CHECK(lo >= rmin && hi <= rmax);
    double D = ks(x, NDRAW, d, F), crit = 1.63 / sqrt((double)NDRAW);
    REPORT("%-16s sampler n = %d: D = %.5f (1 %% critical %.5f)\n", name, NDRAW, D, crit);
    CHECK(D < crit);
    if (d->kind == FLOE_DIST_SIEVE && d->by_mass) {
        double neff, Dm = ks_mass(x, NDRAW, d, cdf_table, &neff), cm = 1.63 / sqrt(neff);
        REPORT("%-16s mass-weighted: D = %.5f (n_eff = %.0f, critical %.5f)\n", name, Dm, neff, cm);
        CHECK(Dm < cm);
    }
    free(x);

    /* a packing of 400 spheres, box volume fraction about 0.1 */
    floe_random_def rd = {.lo = {0, 0, 0}, .hi = {1, 1, 1}, .count = 400, .seed = seed, .dist = d};
    floe_vec3 *p, *p2;
    double *r, *r2;
    int64_t n, n2;
    int rc = floe_gen_random(&rd, &p, &r, &n, err, sizeof err);
    CHECK(rc == 0 && n == 400);
    if (rc) {
        fprintf(stderr, "%s: %s\n", name, err);
        return;
    }
    CHECK(floe_gen_random(&rd, &p2, &r2, &n2, err, sizeof err) == 0 && n2 == n);
    CHECK(memcmp(p, p2, (size_t)n * sizeof *p) == 0 && memcmp(r, r2, (size_t)n * sizeof *r) == 0);
    int inside = 1, ordered = 1;
    for (int64_t i = 0; i < n; i++) {
        inside &= p[i].x - r[i] >= 0 && p[i].x + r[i] <= 1 && p[i].y - r[i] >= 0 && p[i].y + r[i] <= 1 &&
                  p[i].z - r[i] >= 0 && p[i].z + r[i] <= 1 && r[i] >= rmin && r[i] <= rmax;
        if (i > 0) ordered &= r[i] <= r[i - 1]; /* placed largest first */
    }
    CHECK(inside && ordered);
    CHECK(no_overlap(p, r, n));
    double Dp = ks(r, n, d, F), cp = 1.63 / sqrt((double)n);
    REPORT("%-16s packing n = %lld: D = %.5f (1 %% critical %.5f)\n", name, (long long)n, Dp, cp);
    CHECK(Dp < cp);
    free(p), free(r), free(p2), free(r2);
}

static void test_distributions(void) {
    floe_size_dist u = {.kind = FLOE_DIST_UNIFORM, .min = 0.02, .max = 0.05};
    check_dist("uniform", &u, cdf_uniform, 11);

    /* truncated on both sides: [mean - 1.5 std, mean + 2 std] */
    floe_size_dist nm = {.kind = FLOE_DIST_NORMAL, .mu = 0.04, .sigma = 0.01, .min = 0.025, .max = 0.06};
    check_dist("normal", &nm, cdf_normal, 12);

    floe_size_dist ln = {.kind = FLOE_DIST_LOGNORMAL, .mu = log(0.03), .sigma = 0.4, .min = 0.015, .max = 0.07};
    check_dist("lognormal", &ln, cdf_lognormal, 13);

    floe_size_dist sn = {.kind = FLOE_DIST_SIEVE,
                         .npts = 5,
                         .sizes = {0.01, 0.02, 0.03, 0.045, 0.06},
                         .passing = {0, 0.1, 0.5, 0.5, 1}, /* an empty interval (gap grading) */
                         .by_mass = 0};
    check_dist("sieve by number", &sn, cdf_table, 14);

    floe_size_dist sm = sn;
    sm.by_mass = 1;
    build_number_cdf(&sm);
    check_dist("sieve by mass", &sm, cdf_number_of_mass, 15);

    /* the table read by number where it is by mass must fail the check:
     * a wrong reading is caught */
    {
        double *x = malloc(NDRAW * sizeof *x);
        floe_rng rng;
        floe_rng_seed(&rng, 15);
        for (int i = 0; i < NDRAW; i++) x[i] = floe__size_sample(&sm, &rng);
        double D = ks(x, NDRAW, &sm, cdf_table);
        REPORT("sieve by mass read as by number: D = %.4f (must exceed %.4f)\n", D, 1.63 / sqrt((double)NDRAW));
        CHECK(D > 1.63 / sqrt((double)NDRAW));
        free(x);
    }

    /* uniform {min, max} is the range form [rmin, rmax], bit for bit */
    floe_random_def a = {.lo = {0, 0, 0}, .hi = {1, 1, 1}, .rmin = 0.02, .rmax = 0.05, .count = 300, .seed = 5};
    floe_random_def b = a;
    b.dist = &u;
    b.rmin = b.rmax = 0;
    floe_vec3 *pa, *pb;
    double *ra, *rb;
    int64_t na, nb;
    char err[512];
    CHECK(floe_gen_random(&a, &pa, &ra, &na, err, sizeof err) == 0);
    CHECK(floe_gen_random(&b, &pb, &rb, &nb, err, sizeof err) == 0);
    CHECK(na == nb && memcmp(pa, pb, (size_t)na * sizeof *pa) == 0 && memcmp(ra, rb, (size_t)na * sizeof *ra) == 0);
    free(pa), free(pb), free(ra), free(rb);
}

/* A scene with one random generator whose radius is `radius`; the loader's
 * message must contain `want` (NULL: must load, with `count` spheres). */
static void scene_case(const char *radius, const char *want, int count, int line) {
    char yaml[2048], path[512], err[1024];
    snprintf(yaml, sizeof yaml,
             "run: {steps: 1}\nmaterials: [{name: a}]\ngenerators:\n  - random: {box: [[0,0,0],[1,1,1]], "
             "count: %d, seed: 3, radius: %s}\n",
             count, radius);
    check_write_tmp(tmpdir, "psd.yaml", yaml, path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    if (!want) {
        CHECK(rc == 0);
        if (rc) fprintf(stderr, "test_size_dist.c:%d: unexpected error %s\n", line, err);
        else {
            CHECK(floe_particle_count(s.world) == count);
            floe_scene_free(&s);
        }
        return;
    }
    CHECK(rc != 0);
    if (rc == 0) floe_scene_free(&s);
    else if (!strstr(err, want)) {
        check_failures++;
        fprintf(stderr, "test_size_dist.c:%d: wrong message\n  got:  %s\n  want: ...%s\n", line, err, want);
    }
}
#define SCENE_OK(radius, count) scene_case(radius, NULL, count, __LINE__)
#define SCENE_ERR(radius, want) scene_case(radius, want, 10, __LINE__)

static void test_scene_keys(void) {
    SCENE_OK("{dist: uniform, min: 0.01, max: 0.02}", 50);
    SCENE_OK("{dist: normal, mean: 0.02, std: 0.005, min: 0.01, max: 0.03}", 50);
    SCENE_OK("{dist: lognormal, median: 0.02, sigma: 0.3, min: 0.01, max: 0.04}", 50);
    SCENE_OK("{dist: lognormal, mean: 0.02, sigma: 0.3, min: 0.01, max: 0.04}", 50);
    SCENE_OK("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 0.3, 1], by: mass}", 50);
    SCENE_OK("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 0.3, 1], by: number}", 50);

    SCENE_ERR("{dist: uniform, min: 0.02, max: 0.01}",
              "generators[0].random.radius: min = 0.02 is above max = 0.01 (need 0 < min <= max)");
    SCENE_ERR("{dist: unifrom, min: 0.01, max: 0.02}",
              "generators[0].random.radius.dist: unknown distribution 'unifrom'; did you mean 'uniform'?");
    SCENE_ERR("{dist: normal, mean: 0.02, std: 0, min: 0.01, max: 0.03}",
              "generators[0].random.radius.std = 0 is out of range (0, 1e+12]");
    SCENE_ERR("{dist: normal, mean: 0.02, std: 0.001, min: 0.03, max: 0.04}",
              "generators[0].random.radius: [min, max] = [0.03, 0.04] holds a fraction ");
    SCENE_ERR("{dist: normal, mean: 0.02, min: 0.01, max: 0.03}",
              "missing required key 'std' in generators[0].random.radius");
    SCENE_ERR("{dist: normal, mean: 0.02, std: 0.01, sigma: 0.1, min: 0.01, max: 0.03}",
              "unknown key 'sigma' in generators[0].random.radius");
    SCENE_ERR("{dist: lognormal, median: 0.02, mean: 0.02, sigma: 0.3, min: 0.01, max: 0.04}",
              "generators[0].random.radius: give exactly one of median and mean");
    SCENE_ERR("{dist: lognormal, median: 0.02, sigma: 11, min: 0.01, max: 0.04}",
              "generators[0].random.radius.sigma = 11 is out of range (0, 10]");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 0.5, 0.3], by: mass}",
              "generators[0].random.radius: passing[2] = 0.3 is below passing[1] = 0.5 (passing must be "
              "non-decreasing)");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 0.5, 1.5], by: mass}",
              "generators[0].random.radius.passing[2] = 1.5 is out of range [0, 1]");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.02], passing: [0, 0.5, 1], by: mass}",
              "generators[0].random.radius: sizes[2] = 0.02 is not above sizes[1] = 0.02 (sizes must be strictly "
              "increasing)");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0.1, 0.5, 1], by: mass}",
              "generators[0].random.radius: passing[0] = 0.1 must be 0");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 0.5, 0.9], by: mass}",
              "generators[0].random.radius: passing[2] = 0.9 must be 1");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 1], by: mass}",
              "generators[0].random.radius.passing: 2 values for 3 sizes");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 0.5, 1], by: volume}",
              "generators[0].random.radius.by: 'volume' is neither 'mass' nor 'number'");
    SCENE_ERR("{dist: sieve, sizes: [0.01, 0.02, 0.04], passing: [0, 0.5, 1]}",
              "missing required key 'by' in generators[0].random.radius");
    SCENE_ERR("{dist: uniform, min: 0.01, max: 0.02}, shape: capsule, shaft: {dist: gauss}",
              "generators[0].random.shaft.dist: unknown distribution 'gauss'");
    SCENE_ERR("0.01, shape: capsule, shaft: {dist: uniform, min: 0.02, max: 0.01}",
              "generators[0].random.shaft: min = 0.02 is above max = 0.01");
    SCENE_ERR("{dist: uniform, min: 0.2, max: 0.6}",
              "generators[0].random.box: a 1 x 1 x 1 box cannot hold spheres of radius 0.6");
}

/* lognormal mean = median exp(sigma^2 / 2) (untruncated law): the two
 * forms give the same packing up to the rounding of ln. */
static void test_mean_form(void) {
    const double sigma = 0.3, median = 0.02, mean = median * exp(0.5 * sigma * sigma);
    char a[256], b[256], yaml[1024], path[512], err[1024];
    snprintf(a, sizeof a, "{dist: lognormal, median: %.17g, sigma: %g, min: 0.01, max: 0.04}", median, sigma);
    snprintf(b, sizeof b, "{dist: lognormal, mean: %.17g, sigma: %g, min: 0.01, max: 0.04}", mean, sigma);
    double *ra = NULL;
    int n = 0, same = 1;
    for (int k = 0; k < 2; k++) {
        snprintf(yaml, sizeof yaml,
                 "run: {steps: 1}\nmaterials: [{name: a}]\ngenerators:\n  - random: {box: [[0,0,0],[1,1,1]], "
                 "count: 100, seed: 4, radius: %s}\n",
                 k ? b : a);
        check_write_tmp(tmpdir, "psd.yaml", yaml, path, sizeof path);
        floe_scene s;
        if (floe_scene_load(path, &s, err, sizeof err)) {
            CHECK(0);
            fprintf(stderr, "%s\n", err);
            break;
        }
        const double *r = floe_radii(s.world);
        n = floe_particle_count(s.world);
        if (!k) {
            ra = malloc((size_t)n * sizeof *ra);
            memcpy(ra, r, (size_t)n * sizeof *ra);
        } else
            for (int i = 0; i < n; i++) same &= fabs(r[i] - ra[i]) <= 1e-12 * ra[i];
        floe_scene_free(&s);
    }
    CHECK(n == 100 && same);
    free(ra);
}

/* Capsule radii and shafts and ellipsoid semi-axes of the random shape
 * generator drawn from distributions: 400 bodies each, every size against
 * its CDF with the same KS bound (1.63 / sqrt(400) = 0.0815). */
static void test_shape_dists(void) {
    const floe_size_dist caps_r = {.kind = FLOE_DIST_UNIFORM, .min = 0.004, .max = 0.006};
    const floe_size_dist caps_s = {
        .kind = FLOE_DIST_LOGNORMAL, .min = 0.005, .max = 0.03, .mu = log(0.012), .sigma = 0.4};
    const floe_size_dist ell_a = {.kind = FLOE_DIST_NORMAL, .min = 0.006, .max = 0.012, .mu = 0.009, .sigma = 0.0015};
    floe_size_dist ell_b = {
        .kind = FLOE_DIST_SIEVE, .npts = 3, .sizes = {0.003, 0.005, 0.008}, .passing = {0, 0.3, 1}, .by_mass = 0};
    ell_b.min = 0.003;
    ell_b.max = 0.008;
    const floe_size_dist ell_c = {.kind = FLOE_DIST_UNIFORM, .min = 0.002, .max = 0.004};
    for (int caps = 1; caps >= 0; caps--) {
        floe_random_shape_def d;
        memset(&d, 0, sizeof d);
        d.lo = (floe_vec3){0, 0, 0};
        d.hi = (floe_vec3){0.6, 0.6, 0.6};
        d.shape = caps ? FLOE_SHAPE_CAPSULE : FLOE_SHAPE_ELLIPSOID;
        d.count = 400;
        d.seed = 21;
        if (caps) {
            d.dist[0] = &caps_r;
            d.dist[1] = &caps_s;
        } else {
            d.dist[0] = &ell_a;
            d.dist[1] = &ell_b;
            d.dist[2] = &ell_c;
        }
        floe_gen_body *b = NULL;
        int64_t placed = 0;
        char err[512];
        CHECK(floe_gen_random_shapes(&d, &b, &placed, err, sizeof err) == 0 && placed == 400);
        if (placed != 400) {
            free(b);
            continue;
        }
        double x[400];
        for (int k = 0; k < (caps ? 2 : 3); k++) {
            for (int i = 0; i < 400; i++)
                x[i] = caps ? (k ? b[i].shaft : b[i].radius)
                            : (k == 0   ? b[i].semi.x
                               : k == 1 ? b[i].semi.y
                                        : b[i].semi.z);
            const floe_size_dist *sd = d.dist[k];
            cdf_fn F = sd->kind == FLOE_DIST_UNIFORM  ? cdf_uniform
                       : sd->kind == FLOE_DIST_NORMAL ? cdf_normal
                       : sd->kind == FLOE_DIST_SIEVE  ? cdf_table
                                                      : cdf_lognormal;
            double D = ks(x, 400, sd, F), bound = 1.63 / sqrt(400.0);
            printf("random %s %s: KS D = %.4f (bound %.4f)\n", caps ? "capsules" : "ellipsoids",
                   caps ? (k ? "shaft" : "radius")
                        : (k == 0   ? "semi-axis a"
                           : k == 1 ? "semi-axis b"
                                    : "semi-axis c"),
                   D, bound);
            CHECK(D < bound);
        }
        free(b);
    }
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/floe_test_psd_XXXXXX");
    const char *t = getenv("TMPDIR");
    if (t && *t) snprintf(tmpdir, sizeof tmpdir, "%s/floe_test_psd_XXXXXX", t);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_distributions();
    test_scene_keys();
    test_mean_form();
    test_shape_dists();
    char p[512];
    snprintf(p, sizeof p, "%s/psd.yaml", tmpdir);
    remove(p);
    rmdir(tmpdir);
    return CHECK_DONE();
}
