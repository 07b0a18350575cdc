/* Particle generators (see generate.h). */
#include "pack/generate.h"
#include <floe/floe_shape.h>
#include "base/rng.h"
#include "base/vec.h"
#include "shapes/shape.h"
#include "base/cell_grid.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int floe__pack_err(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int floe__gen_period(const floe_gen_env *env, floe_grid_period *p) {
    floe_vec3 none = {0, 0, 0};
    if (!env) return floe_grid_period_set(p, 0, none, none);
    return floe_grid_period_set(p, env->periodic, env->cell_lo, env->cell_hi);
}

int floe__gen_interrupted(const floe_gen_env *env) {
    return env && env->interrupt && env->interrupt(env->interrupt_ctx);
}

/* ---- lattice ---------------------------------------------------------------- */

int floe_gen_lattice(const floe_lattice_def *d, floe_vec3 **pos, int64_t *n, char *err, size_t errlen) {
    *pos = NULL;
    *n = 0;
    double total = 1;
    for (int k = 0; k < 3; k++) {
        if (d->counts[k] < 0) return floe__pack_err(err, errlen, "lattice counts must be >= 0");
        total *= (double)d->counts[k];
    }
    if (total > (double)FLOE_GEN_MAX_COUNT)
        return floe__pack_err(err, errlen, "lattice of %.4g sites exceeds the limit of %lld particles", total,
                              (long long)FLOE_GEN_MAX_COUNT);
    if (!(d->spacing.x > 0 && d->spacing.y > 0 && d->spacing.z > 0))
        return floe__pack_err(err, errlen, "lattice spacing must be > 0");
    int64_t nx = d->counts[0], ny = d->counts[1], nz = d->counts[2], cnt = nx * ny * nz;
    if (cnt == 0) return 0;
    floe_vec3 *p = malloc((size_t)cnt * sizeof *p);
    if (!p) return floe__pack_err(err, errlen, "out of memory for %lld lattice sites", (long long)cnt);
    const uint64_t K = d->seed * 0xD1B54A32D192ED03ULL;
    int64_t i = 0;
    for (int64_t kz = 0; kz < nz; kz++)
        for (int64_t jy = 0; jy < ny; jy++)
            for (int64_t ix = 0; ix < nx; ix++, i++) {
                uint64_t c = (uint64_t)i;
                floe_vec3 q = {d->origin.x + (double)ix * d->spacing.x, d->origin.y + (double)jy * d->spacing.y,
                               d->origin.z + (double)kz * d->spacing.z};
                if (d->jitter.x > 0) q.x += d->jitter.x * (2 * floe_u01(floe_splitmix64(K + 2 * c)) - 1);
                if (d->jitter.y > 0) q.y += d->jitter.y * (2 * floe_u01(floe_splitmix64(K + 2 * c + 1)) - 1);
                if (d->jitter.z > 0) q.z += d->jitter.z * (2 * floe_u01(floe_splitmix64(K + (1ULL << 39) + c)) - 1);
                p[i] = q;
            }
    *pos = p;
    *n = cnt;
    return 0;
}

/* ---- random packing ----------------------------------------------------------- */

static int cmp_desc(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* Whether a sphere (c, r) keeps clear of every sphere placed in g: cells
 * are at least 2 rmax wide, so only the 27 around c can hold one it
 * touches. With a periodic box (per not NULL) pos holds the placed centres
 * wrapped into it, and c is looked for from its wrapped centre and its
 * images near the faces. */
static int fits(const floe_cell_grid *g, const floe_vec3 *pos, const double *rad, floe_vec3 c, double r,
                const floe_grid_period *per, double rmax) {
    floe_vec3 from[27];
    int nfrom = 1;
    from[0] = c;
    if (per) nfrom = floe_period_images(per, floe_period_wrap(per, c), r + rmax, from);
    for (int q = 0; q < nfrom; q++) {
        floe_cell_iter it;
        floe_cell_grid_near(g, from[q], &it);
        for (int64_t j; (j = floe_cell_next(&it)) >= 0;) {
            double rr = r + rad[j];
            if (vlen2(vsub(from[q], pos[j])) < rr * rr) return 0;
        }
    }
    return 1;
}

static int interrupted(char *err, size_t errlen) { return floe__pack_err(err, errlen, "interrupted"); }

int floe_gen_random(const floe_random_def *d, floe_vec3 **pos_out, double **rad_out, int64_t *placed, char *err,
                    size_t errlen) {
    return floe_gen_random_clear(d, NULL, NULL, pos_out, rad_out, placed, err, errlen);
}

int floe_gen_random_clear(const floe_random_def *d, floe_gen_clear_fn *clear, void *ctx, floe_vec3 **pos_out,
                          double **rad_out, int64_t *placed, char *err, size_t errlen) {
    *pos_out = NULL;
    *rad_out = NULL;
    *placed = 0;
    if (d->count < 0 || d->count > FLOE_GEN_MAX_COUNT)
        return floe__pack_err(err, errlen, "count %lld is out of range [0, %lld]", (long long)d->count,
                              (long long)FLOE_GEN_MAX_COUNT);
    double rmax = d->rmax;
    if (d->dist) {
        if (floe_size_dist_check(d->dist, err, errlen)) return -1;
        rmax = d->dist->kind == FLOE_DIST_SIEVE ? d->dist->sizes[d->dist->npts - 1] : d->dist->max;
    } else if (!(d->rmin > 0 && d->rmin <= d->rmax && isfinite(d->rmax)))
        return floe__pack_err(err, errlen, "radii must satisfy 0 < rmin <= rmax");
    double ex = d->hi.x - d->lo.x, ey = d->hi.y - d->lo.y, ez = d->hi.z - d->lo.z;
    if (!(ex >= 2 * rmax && ey >= 2 * rmax && ez >= 2 * rmax) || !isfinite(ex + ey + ez))
        return floe__pack_err(err, errlen, "box %g x %g x %g is too small for spheres of radius %g", ex, ey, ez, rmax);
    if (d->count == 0) return 0;

    int64_t n = d->count;
    floe_grid_period period, *per = floe__gen_period(d->env, &period) ? &period : NULL;
    floe_vec3 *pos = malloc((size_t)n * sizeof *pos);
    floe_vec3 *wpos = per ? malloc((size_t)n * sizeof *wpos) : pos; /* centres in the cell */
    double *rad = malloc((size_t)n * sizeof *rad);
    floe_cell_grid g = {0};
    int rc = 0;
    if (!pos || !wpos || !rad || floe_cell_grid_init(&g, d->lo, d->hi, 2 * rmax, n)) {
        rc = floe__pack_err(err, errlen, "out of memory for %lld spheres", (long long)n);
        goto done;
    }
    floe_rng rng;
    floe_rng_seed(&rng, d->seed);
    if (d->dist)
        for (int64_t i = 0; i < n; i++) rad[i] = floe__size_sample(d->dist, &rng);
    else
        for (int64_t i = 0; i < n; i++) rad[i] = d->rmin + (d->rmax - d->rmin) * floe_rng_uniform(&rng);
    /* Largest first: small spheres still fit in the gaps left by big ones
     * (the no-overlap test itself does not depend on the order: every
     * sphere is tested against all placed before it). */
    qsort(rad, (size_t)n, sizeof *rad, cmp_desc);

    double vol = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = rad[i];
        int ok = 0;
        if ((i & 255) == 0 && floe__gen_interrupted(d->env)) {
            *placed = i;
            rc = interrupted(err, errlen);
            goto done;
        }
        for (int t = 0; t < FLOE_GEN_MAX_TRIES && !ok; t++) {
            floe_vec3 c = {d->lo.x + r + (ex - 2 * r) * floe_rng_uniform(&rng),
                           d->lo.y + r + (ey - 2 * r) * floe_rng_uniform(&rng),
                           d->lo.z + r + (ez - 2 * r) * floe_rng_uniform(&rng)};
            if (fits(&g, wpos, rad, c, r, per, rmax) && (!clear || clear(ctx, c, r))) {
                pos[i] = c;
                if (per) wpos[i] = floe_period_wrap(per, c);
                floe_cell_grid_insert(&g, i, wpos[i]);
                ok = 1;
            }
        }
        if (!ok) {
            *placed = i;
            rc = floe__pack_err(
                err, errlen,
                "box too full: placed only %lld of %lld spheres (volume fraction %.3f) before one found no "
                "free spot in %d tries; enlarge the box or lower the count (random placement stalls "
                "near a volume fraction of 0.35%s)",
                (long long)i, (long long)n, vol / (ex * ey * ez), FLOE_GEN_MAX_TRIES,
                clear ? "; the walls, facets, cylinders, meshes and bodies in the box take room too" : "");
            goto done;
        }
        vol += 4.18879020478639098 * r * r * r; /* 4 pi / 3 */
    }
    *placed = n;
    *pos_out = pos;
    *rad_out = rad;
    if (!per) wpos = NULL;
    pos = NULL;
    rad = NULL;
done:
    if (wpos != pos) free(wpos);
    free(pos);
    free(rad);
    floe_cell_grid_free(&g);
    return rc;
}

/* ---- random packings of capsules and ellipsoids ------------------------------ */

/* Bounding radius of a generated body: r + shaft/2, or the largest semi-axis. */
static double body_bound(floe_shape_type shape, const floe_gen_body *b) {
    if (shape == FLOE_SHAPE_ELLIPSOID) return fmax(b->semi.x, fmax(b->semi.y, b->semi.z));
    return b->radius + 0.5 * b->shaft;
}

/* A placed (or candidate) body in the form the overlap tests need. */
typedef struct placed {
    floe_vec3 c;      /* centre */
    double bound;     /* bounding radius */
    double inner;     /* radius of a sphere inside the body, about c */
    floe_vec3 p0, p1; /* capsule: axis segment */
    double m[6];      /* ellipsoid: R diag(a^2) R^T as xx, yy, zz, xy, yz, zx */
} placed;

static placed make_placed(floe_shape_type shape, const floe_gen_body *b) {
    placed p;
    memset(&p, 0, sizeof p);
    p.c = b->pos;
    p.bound = body_bound(shape, b);
    if (shape == FLOE_SHAPE_CAPSULE) {
        floe_capsule_axis(b->pos, b->ori, b->shaft, &p.p0, &p.p1);
        p.inner = b->radius;
    } else {
        floe_vec3 ex = qrotate(b->ori, (floe_vec3){1, 0, 0}), ey = qrotate(b->ori, (floe_vec3){0, 1, 0}),
                  ez = qrotate(b->ori, (floe_vec3){0, 0, 1});
        double a2 = b->semi.x * b->semi.x, b2 = b->semi.y * b->semi.y, c2 = b->semi.z * b->semi.z;
        p.m[0] = a2 * ex.x * ex.x + b2 * ey.x * ey.x + c2 * ez.x * ez.x;
        p.m[1] = a2 * ex.y * ex.y + b2 * ey.y * ey.y + c2 * ez.y * ez.y;
        p.m[2] = a2 * ex.z * ex.z + b2 * ey.z * ey.z + c2 * ez.z * ez.z;
        p.m[3] = a2 * ex.x * ex.y + b2 * ey.x * ey.y + c2 * ez.x * ez.y;
        p.m[4] = a2 * ex.y * ex.z + b2 * ey.y * ey.z + c2 * ez.y * ez.z;
        p.m[5] = a2 * ex.z * ex.x + b2 * ey.z * ey.x + c2 * ez.z * ez.x;
        p.inner = fmin(b->semi.x, fmin(b->semi.y, b->semi.z));
    }
    return p;
}

/* Perram-Wertheim: F(l) = l (1 - l) r^T G^-1 r with G = (1 - l) A^-1 + l B^-1,
 * A^-1 = R diag(a^2) R^T. max over l in [0, 1] of F is the square of the
 * factor by which both ellipsoids can be scaled about their centres until
 * they touch, so F(l) > 1 at any single l proves them apart. */
static double pw_f(const double *A, const double *B, floe_vec3 r, double l) {
    double g[6];
    for (int k = 0; k < 6; k++) g[k] = (1 - l) * A[k] + l * B[k];
    double a = g[0], b = g[1], c = g[2], d = g[3], e = g[4], f = g[5];
    /* G is symmetric positive definite: solve through its adjugate */
    double c00 = b * c - e * e, c01 = f * e - d * c, c02 = d * e - b * f;
    double c11 = a * c - f * f, c12 = d * f - a * e, c22 = a * b - d * d;
    double det = a * c00 + d * c01 + f * c02;
    if (!(det > 0)) return 0;
    double q = c00 * r.x * r.x + c11 * r.y * r.y + c22 * r.z * r.z +
               2 * (c01 * r.x * r.y + c02 * r.x * r.z + c12 * r.y * r.z);
    return l * (1 - l) * q / det;
}

#define SEP_REL 1e-9 /* required clearance, relative to the contact distance */

static int ellipsoids_apart(const placed *p, const placed *q) {
    const double thr = (1 + SEP_REL) * (1 + SEP_REL);
    floe_vec3 r = vsub(q->c, p->c);
    /* golden-section search for the maximum of the unimodal F; stop at the
     * first certificate F > 1 */
    const double g = 0.38196601125010515; /* 2 - golden ratio */
    double lo = 0, hi = 1, x1 = g, x2 = 1 - g;
    double f1 = pw_f(p->m, q->m, r, x1), f2 = pw_f(p->m, q->m, r, x2);
    for (int it = 0; it < 60; it++) {
        if (f1 > thr || f2 > thr) return 1;
        if (f1 >= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = lo + g * (hi - lo);
            f1 = pw_f(p->m, q->m, r, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = hi - g * (hi - lo);
            f2 = pw_f(p->m, q->m, r, x2);
        }
    }
    return f1 > thr || f2 > thr;
}

static int apart(floe_shape_type shape, const placed *p, const placed *q) {
    floe_vec3 d = vsub(q->c, p->c);
    double d2 = vdot(d, d), rb = (p->bound + q->bound) * (1 + SEP_REL), ri = p->inner + q->inner;
    if (d2 > rb * rb) return 1;  /* bounding spheres apart */
    if (d2 <= ri * ri) return 0; /* inner spheres overlap */
    if (shape == FLOE_SHAPE_CAPSULE) {
        double rr = ri * (1 + SEP_REL); /* inner = radius for capsules */
        return floe_segments_dist2(p->p0, p->p1, q->p0, q->p1) > rr * rr;
    }
    return ellipsoids_apart(p, q);
}

/* Half extents of the body's axis-aligned bounding box (exact). */
static floe_vec3 half_extent(floe_shape_type shape, const floe_gen_body *b) {
    if (shape == FLOE_SHAPE_CAPSULE) return floe_capsule_half_extent(b->radius, b->shaft, b->ori);
    return floe_ellipsoid_half_extent(b->semi, b->ori);
}

static double body_volume(floe_shape_type shape, const floe_gen_body *b) {
    if (shape == FLOE_SHAPE_CAPSULE) return FLOE_PI * b->radius * b->radius * (b->shaft + 4.0 / 3.0 * b->radius);
    return 4.0 / 3.0 * FLOE_PI * b->semi.x * b->semi.y * b->semi.z;
}

typedef struct size_key {
    double bound;
    int64_t index;
} size_key;

static int cmp_size(const void *a, const void *b) {
    const size_key *x = a, *y = b;
    if (x->bound != y->bound) return x->bound < y->bound ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index); /* ties in draw order: qsort is not stable */
}

/* The body moved by d. */
static placed moved(placed p, floe_vec3 d) {
    p.c = vadd(p.c, d);
    p.p0 = vadd(p.p0, d);
    p.p1 = vadd(p.p1, d);
    return p;
}

/* Whether a candidate keeps clear of every body placed in g (cells at
 * least two bounding radii wide). With a periodic box (per not NULL) the
 * placed bodies are there wrapped into it, and the candidate is tested from
 * its wrapped centre and its images near the faces. */
static int shapes_fit(const floe_cell_grid *g, const placed *pl, floe_shape_type shape, const placed *cand,
                      const floe_grid_period *per, double rmax) {
    floe_vec3 from[27];
    int nfrom = 1;
    from[0] = cand->c;
    if (per) nfrom = floe_period_images(per, floe_period_wrap(per, cand->c), cand->bound + rmax, from);
    for (int q = 0; q < nfrom; q++) {
        placed at = per ? moved(*cand, vsub(from[q], cand->c)) : *cand;
        floe_cell_iter it;
        floe_cell_grid_near(g, at.c, &it);
        for (int64_t j; (j = floe_cell_next(&it)) >= 0;)
            if (!apart(shape, &at, &pl[j])) return 0;
    }
    return 1;
}

int floe_gen_random_shapes(const floe_random_shape_def *def, floe_gen_body **out, int64_t *placed_n, char *err,
                           size_t errlen) {
    *out = NULL;
    *placed_n = 0;
    /* size distributions replace their ranges */
    floe_random_shape_def dd = *def;
    const floe_random_shape_def *d = &dd;
    for (int k = 0; k < 3; k++) {
        const floe_size_dist *s = def->dist[k];
        if (!s) continue;
        if (floe_size_dist_check(s, err, errlen)) return -1;
        double lo = s->kind == FLOE_DIST_SIEVE ? s->sizes[0] : s->min, hi = floe__size_max(s);
        if (def->shape == FLOE_SHAPE_CAPSULE && k == 0) dd.rmin = lo, dd.rmax = hi;
        else if (def->shape == FLOE_SHAPE_CAPSULE && k == 1) dd.smin = lo, dd.smax = hi;
        else if (def->shape == FLOE_SHAPE_ELLIPSOID) {
            double *amin = k == 0 ? &dd.amin.x : k == 1 ? &dd.amin.y : &dd.amin.z;
            double *amax = k == 0 ? &dd.amax.x : k == 1 ? &dd.amax.y : &dd.amax.z;
            *amin = lo;
            *amax = hi;
        }
    }
    const int caps = d->shape == FLOE_SHAPE_CAPSULE;
    if (!caps && d->shape != FLOE_SHAPE_ELLIPSOID)
        return floe__pack_err(err, errlen, "random shapes: the shape must be a capsule or an ellipsoid");
    if (d->count < 0 || d->count > FLOE_GEN_MAX_COUNT)
        return floe__pack_err(err, errlen, "count %lld is out of range [0, %lld]", (long long)d->count,
                              (long long)FLOE_GEN_MAX_COUNT);
    double rmax_bound;
    if (caps) {
        if (!(d->rmin > 0 && d->rmin <= d->rmax && isfinite(d->rmax)))
            return floe__pack_err(err, errlen, "radii must satisfy 0 < rmin <= rmax");
        if (!(d->smin >= 0 && d->smin <= d->smax && isfinite(d->smax)))
            return floe__pack_err(err, errlen, "shafts must satisfy 0 <= smin <= smax");
        rmax_bound = d->rmax + 0.5 * d->smax;
    } else {
        const double lo[3] = {d->amin.x, d->amin.y, d->amin.z}, hi[3] = {d->amax.x, d->amax.y, d->amax.z};
        rmax_bound = 0;
        for (int k = 0; k < 3; k++) {
            if (!(lo[k] > 0 && lo[k] <= hi[k] && isfinite(hi[k])))
                return floe__pack_err(err, errlen, "semi-axes must satisfy 0 < min <= max");
            rmax_bound = fmax(rmax_bound, hi[k]);
        }
    }
    const char *what = caps ? "capsules" : "ellipsoids";
    double ex = d->hi.x - d->lo.x, ey = d->hi.y - d->lo.y, ez = d->hi.z - d->lo.z;
    if (!(ex >= 2 * rmax_bound && ey >= 2 * rmax_bound && ez >= 2 * rmax_bound) || !isfinite(ex + ey + ez))
        return floe__pack_err(err, errlen, "box %g x %g x %g is too small for %s of bounding radius %g", ex, ey, ez,
                              what, rmax_bound);
    if (d->count == 0) return 0;

    int64_t n = d->count;
    floe_gen_body *drawn = malloc((size_t)n * sizeof *drawn), *bodies = malloc((size_t)n * sizeof *bodies);
    size_key *order = malloc((size_t)n * sizeof *order);
    placed *pl = malloc((size_t)n * sizeof *pl);
    floe_grid_period period, *per = floe__gen_period(d->env, &period) ? &period : NULL;
    floe_cell_grid g = {0};
    int rc = 0;
    if (!drawn || !bodies || !order || !pl || floe_cell_grid_init(&g, d->lo, d->hi, 2 * rmax_bound, n)) {
        rc = floe__pack_err(err, errlen, "out of memory for %lld %s", (long long)n, what);
        goto done;
    }
    floe_rng rng;
    floe_rng_seed(&rng, d->seed);
    for (int64_t i = 0; i < n; i++) {
        floe_gen_body *b = &drawn[i];
        memset(b, 0, sizeof *b);
        /* a size from its distribution, or uniform in its range */
#define DRAW(k, lo, hi) \
    (d->dist[k] ? floe__size_sample(d->dist[k], &rng) : (lo) + ((hi) - (lo)) * floe_rng_uniform(&rng))
        if (caps) {
            b->radius = DRAW(0, d->rmin, d->rmax);
            b->shaft = DRAW(1, d->smin, d->smax);
        } else {
            b->semi.x = DRAW(0, d->amin.x, d->amax.x);
            b->semi.y = DRAW(1, d->amin.y, d->amax.y);
            b->semi.z = DRAW(2, d->amin.z, d->amax.z);
        }
#undef DRAW
        order[i] = (size_key){body_bound(d->shape, b), i};
    }
    /* Largest first: small bodies still fit in the gaps left by big ones. */
    qsort(order, (size_t)n, sizeof *order, cmp_size);

    double vol = 0;
    for (int64_t i = 0; i < n; i++) {
        floe_gen_body b = drawn[order[i].index];
        int ok = 0;
        if ((i & 255) == 0 && floe__gen_interrupted(d->env)) {
            *placed_n = i;
            rc = interrupted(err, errlen);
            goto done;
        }
        for (int t = 0; t < FLOE_GEN_MAX_TRIES && !ok; t++) {
            b.ori = floe_rng_rotation(&rng);
            floe_vec3 h = half_extent(d->shape, &b);
            /* the bounding box lies inside the box: h <= bound <= half a side */
            b.pos = (floe_vec3){d->lo.x + h.x + fmax(0, ex - 2 * h.x) * floe_rng_uniform(&rng),
                                d->lo.y + h.y + fmax(0, ey - 2 * h.y) * floe_rng_uniform(&rng),
                                d->lo.z + h.z + fmax(0, ez - 2 * h.z) * floe_rng_uniform(&rng)};
            placed cand = make_placed(d->shape, &b);
            if (shapes_fit(&g, pl, d->shape, &cand, per, rmax_bound)) {
                bodies[i] = b;
                pl[i] = per ? moved(cand, vsub(floe_period_wrap(per, cand.c), cand.c)) : cand;
                floe_cell_grid_insert(&g, i, pl[i].c);
                ok = 1;
            }
        }
        if (!ok) {
            *placed_n = i;
            rc = floe__pack_err(err, errlen,
                                "box too full: placed only %lld of %lld %s (volume fraction %.3f) before one found no "
                                "free spot in %d tries; enlarge the box or lower the count (random placement of "
                                "elongated bodies stalls at lower volume fractions than spheres)",
                                (long long)i, (long long)n, what, vol / (ex * ey * ez), FLOE_GEN_MAX_TRIES);
            goto done;
        }
        vol += body_volume(d->shape, &b);
    }
    *placed_n = n;
    *out = bodies;
    bodies = NULL;
done:
    free(drawn);
    free(bodies);
    free(order);
    free(pl);
    floe_cell_grid_free(&g);
    return rc;
}

static int clear_test(void *ctx, floe_vec3 centre, double r) { return floe_clear_sphere(ctx, centre, r); }

int floe_gen_random_world(const floe_random_def *def, const floe_world *w, floe_vec3 **pos, double **radius,
                          int64_t *nplaced, char *err, size_t errlen) {
    char e[8];
    double rmax = !def->dist                                     ? def->rmax
                  : floe_size_dist_check(def->dist, e, sizeof e) ? NAN
                                                                 : floe__size_max(def->dist);
    /* bad sizes: the generator refuses them, with its message */
    if (!(rmax > 0 && isfinite(rmax))) return floe_gen_random_clear(def, NULL, NULL, pos, radius, nplaced, err, errlen);
    floe_clear *clr = floe_clear_new(w, def->env, def->lo, def->hi, rmax);
    if (!clr) {
        *pos = NULL;
        *radius = NULL;
        *nplaced = 0;
        snprintf(err, errlen, "out of memory for the obstacles of %d bodies", floe_particle_count(w));
        return -1;
    }
    int rc = floe_gen_random_clear(def, floe_clear_count(clr) ? clear_test : NULL, clr, pos, radius, nplaced, err,
                                   errlen);
    floe_clear_free(clr);
    return rc;
}
