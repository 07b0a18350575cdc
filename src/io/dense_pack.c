/* Dense sphere packings by radius expansion (floe_gen_dense in
 * include/floe/floe_io.h; docs/decisions.md#dense-packings-by-radius-expansion).
 *
 * The spheres live in scaled coordinates, lengths over the mean final
 * radius, so that the relaxation's constants (unit spring, unit mass, the
 * FIRE time steps) do not depend on the scene's units. Every contact is a
 * frictionless linear spring on the overlap: between spheres i and j of
 * radii ri, rj at distance d the force is (ri + rj - d) along the line of
 * centres; against the region's boundary it is the depth of the sphere
 * beyond the boundary, along the boundary's inward normal. The relaxation
 * minimises the springs' energy with FIRE (Bitzek et al. 2006): inertial
 * steps whose velocity is bent towards the force and zeroed when it turns
 * against it. */
#include "base/vec.h"
#include "base/cell_grid.h"
#include "io/generate.h"
#include "io/io_err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* FIRE's constants (Bitzek et al. 2006, their recommended set) in scaled
 * units: unit spring and mass give an oscillation period of 2 pi for one
 * contact; DT_MAX keeps a sphere with 20 contacts stable (dt < 2/sqrt(20)). */
#define DT_START 0.05
#define DT_MAX 0.3
#define FIRE_NMIN 5
#define FIRE_FINC 1.1
#define FIRE_FDEC 0.5
#define FIRE_ALPHA 0.1
#define FIRE_FALPHA 0.99
#define SKIN 0.4                /* Verlet list margin, in mean radii */
#define STAGE_ITER 2000         /* relaxation iterations per intermediate stage at most */
#define JAM_FORCE 1e-4          /* largest force below JAM_FORCE x max_overlap: jammed */
#define VOL 4.18879020478639098 /* 4 pi / 3 */

typedef struct packer {
    int64_t n;
    floe_vec3 *x, *v, *f, *xref;
    double *r0, *r; /* final and current radii (scaled) */
    int cyl;
    floe_vec3 lo, hi; /* box, or the cylinder's z range (x, y unused) */
    double cx, cy, R; /* cylinder axis and radius */
    /* the periodic cell (scaled; per.axes 0: none): pairs meet through its
     * faces; along the axes of `spans` the region is one period, without a
     * boundary, and the centres are kept in it */
    floe_grid_period per;
    int spans;
    floe_vec3 *wx; /* centres wrapped into the cell, for the neighbour search */
    int64_t *pi, *pj, np, cap;
    double rmax0;
    /* the last force pass */
    double max_rel, sum_rel, max_f;
    int64_t contacts;
} packer;

static int build_list(packer *p) {
    double rmax = 0;
    for (int64_t i = 0; i < p->n; i++) rmax = fmax(rmax, p->r[i]);
    floe_cell_grid g = {0};
    floe_vec3 lo = p->lo, hi = p->hi;
    if (p->cyl) {
        lo.x = p->cx - p->R;
        lo.y = p->cy - p->R;
        hi.x = p->cx + p->R;
        hi.y = p->cy + p->R;
    }
    if (floe_cell_grid_init(&g, lo, hi, 2 * rmax + SKIN, p->n)) return -1;
    const floe_vec3 *x = p->x;
    if (p->per.axes) { /* the search runs on the centres in the cell, from their images near its faces */
        for (int64_t i = 0; i < p->n; i++) p->wx[i] = floe_period_wrap(&p->per, p->x[i]);
        x = p->wx;
    }
    for (int64_t i = p->n - 1; i >= 0; i--) floe_cell_grid_insert(&g, i, x[i]);
    p->np = 0;
    for (int64_t i = 0; i < p->n; i++) {
        floe_vec3 from[8];
        int nfrom = p->per.axes ? floe_period_images(&p->per, x[i], 2 * rmax + SKIN, from) : 1;
        if (!p->per.axes) from[0] = x[i];
        for (int q = 0; q < nfrom; q++) {
            floe_cell_iter it;
            floe_cell_grid_near(&g, from[q], &it);
            for (int64_t j; (j = floe_cell_next(&it)) >= 0;) {
                if (j <= i) continue;
                double c = p->r[i] + p->r[j] + SKIN;
                if (vlen2(vsub(x[j], from[q])) >= c * c) continue;
                if (p->np == p->cap) {
                    int64_t cap = p->cap ? 2 * p->cap : 8 * p->n + 64;
                    int64_t *a = realloc(p->pi, (size_t)cap * sizeof *a);
                    if (!a) goto oom;
                    p->pi = a;
                    int64_t *b = realloc(p->pj, (size_t)cap * sizeof *b);
                    if (!b) goto oom;
                    p->pj = b;
                    p->cap = cap;
                }
                p->pi[p->np] = i;
                p->pj[p->np++] = j;
            }
        }
        p->xref[i] = p->x[i];
    }
    floe_cell_grid_free(&g);
    return 0;
oom:
    floe_cell_grid_free(&g);
    return -1;
}

static void note(packer *p, double rel) {
    if (rel > p->max_rel) p->max_rel = rel;
    p->sum_rel += rel;
    p->contacts++;
}

/* Forces of the springs, and the overlap statistics. */
static void forces(packer *p) {
    p->max_rel = p->sum_rel = 0;
    p->contacts = 0;
    memset(p->f, 0, (size_t)p->n * sizeof *p->f);
    for (int64_t k = 0; k < p->np; k++) {
        int64_t i = p->pi[k], j = p->pj[k];
        floe_vec3 d = vsub(p->x[j], p->x[i]);
        if (p->per.axes) d = floe_period_delta(&p->per, d); /* through the faces: the nearest image */
        double rr = p->r[i] + p->r[j], d2 = vlen2(d);
        if (d2 >= rr * rr) continue;
        double dist = sqrt(d2), del = rr - dist;
        floe_vec3 nrm = dist > 0 ? vscale(d, 1 / dist) : (floe_vec3){1, 0, 0};
        p->f[i] = vsub(p->f[i], vscale(nrm, del));
        p->f[j] = vadd(p->f[j], vscale(nrm, del));
        note(p, del / fmin(p->r[i], p->r[j]));
    }
    for (int64_t i = 0; i < p->n; i++) {
        double r = p->r[i], del;
        floe_vec3 x = p->x[i];
        double *fx[3] = {&p->f[i].x, &p->f[i].y, &p->f[i].z};
        const double xs[3] = {x.x, x.y, x.z}, lo[3] = {p->lo.x, p->lo.y, p->lo.z}, hi[3] = {p->hi.x, p->hi.y, p->hi.z};
        for (int a = p->cyl ? 2 : 0; a < 3; a++) {
            if (p->spans >> a & 1) continue; /* one period: no boundary */
            if ((del = r - (xs[a] - lo[a])) > 0) {
                *fx[a] += del;
                note(p, del / r);
            }
            if ((del = r - (hi[a] - xs[a])) > 0) {
                *fx[a] -= del;
                note(p, del / r);
            }
        }
        if (p->cyl) {
            double dx = x.x - p->cx, dy = x.y - p->cy, rho = sqrt(dx * dx + dy * dy);
            if (rho > 0 && (del = r - (p->R - rho)) > 0) {
                p->f[i].x -= del * dx / rho;
                p->f[i].y -= del * dy / rho;
                note(p, del / r);
            }
        }
    }
    p->max_f = 0;
    for (int64_t i = 0; i < p->n; i++) p->max_f = fmax(p->max_f, vlen2(p->f[i]));
    p->max_f = sqrt(p->max_f);
}

enum { RELAXED, JAMMED, BUDGET, NOMEM, STOPPED };

/* The centre moved into the period along the axes the region spans. */
static floe_vec3 keep_in(const packer *p, floe_vec3 x) {
    floe_grid_period sp = p->per;
    sp.axes = p->spans;
    return floe_period_wrap(&sp, x);
}

/* FIRE from rest until the largest overlap is at most tol, the assembly
 * jams (forces balance with overlaps left), `cap` iterations pass, the
 * total budget *left runs out or the env's interrupt function asks to
 * stop. */
static int relax(packer *p, double tol, int64_t cap, int64_t *left, int64_t *used, const floe_gen_env *env) {
    double dt = DT_START, alpha = FIRE_ALPHA;
    int npos = 0;
    memset(p->v, 0, (size_t)p->n * sizeof *p->v);
    for (int64_t it = 0;; it++) {
        if ((it & 15) == 0 && floe__gen_interrupted(env)) return STOPPED;
        forces(p);
        if (p->max_rel <= tol) return RELAXED;
        if (p->max_f < JAM_FORCE * tol) return JAMMED;
        if (it >= cap || *left <= 0) return BUDGET;
        (*left)--;
        (*used)++;
        double P = 0, fn = 0, vn = 0;
        for (int64_t i = 0; i < p->n; i++) {
            P += vdot(p->f[i], p->v[i]);
            fn += vlen2(p->f[i]);
            vn += vlen2(p->v[i]);
        }
        fn = sqrt(fn);
        vn = sqrt(vn);
        if (P > 0) {
            double mix = fn > 0 ? alpha * vn / fn : 0;
            for (int64_t i = 0; i < p->n; i++) p->v[i] = vadd(vscale(p->v[i], 1 - alpha), vscale(p->f[i], mix));
            if (++npos > FIRE_NMIN) {
                dt = fmin(dt * FIRE_FINC, DT_MAX);
                alpha *= FIRE_FALPHA;
            }
        } else {
            memset(p->v, 0, (size_t)p->n * sizeof *p->v);
            dt *= FIRE_FDEC;
            alpha = FIRE_ALPHA;
            npos = 0;
        }
        double moved = 0;
        for (int64_t i = 0; i < p->n; i++) {
            p->v[i] = vadd(p->v[i], vscale(p->f[i], dt));
            p->x[i] = vadd(p->x[i], vscale(p->v[i], dt));
            floe_vec3 dx = vsub(p->x[i], p->xref[i]);
            if (p->per.axes) {
                if (p->spans) p->x[i] = keep_in(p, p->x[i]);
                dx = floe_period_delta(&p->per, dx);
            }
            moved = fmax(moved, vlen2(dx));
        }
        if (moved > 0.25 * SKIN * SKIN && build_list(p)) return NOMEM;
    }
}

/* The cube root of a > 0 by Newton's method from 1 on the mantissa, a
 * fixed number of steps: only + - * / (and exact frexp, ldexp), so the
 * growth factors, and with them the packing, are the same whatever the
 * platform's libm (its cbrt need not be correctly rounded). */
static double cube_root(double a) {
    int e;
    double m = frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    while (e % 3) {
        m *= 2;
        e--;
    }
    double x = 1;
    for (int i = 0; i < 40; i++) x -= (x * x * x - m) / (3 * x * x);
    return ldexp(x, e / 3);
}

static void packer_free(packer *p) {
    free(p->wx);
    free(p->x);
    free(p->v);
    free(p->f);
    free(p->xref);
    free(p->r0);
    free(p->r);
    free(p->pi);
    free(p->pj);
}

static double draw_radius(const floe_dense_def *d, floe_rng *rng) {
    return d->dist ? floe__size_sample(d->dist, rng) : d->rmin + (d->rmax - d->rmin) * floe_rng_uniform(rng);
}

static double comp(floe_vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }
static void set_comp(floe_vec3 *v, int k, double x) { *(k == 0 ? &v->x : k == 1 ? &v->y : &v->z) = x; }

/* Checks the definition and draws the radii (count of them, or as many as
 * the target's volume needs): *rad (malloc'd) holds *n of them. *spans: the
 * periodic axes the region spans, where it is one period of the cell
 * (floe_dense_def.env). */
static int prepare(const floe_dense_def *d, floe_rng *rng, double **rad_out, int64_t *n_out, double *vol_out,
                   floe_vec3 *lo_out, floe_vec3 *hi_out, int *spans, char *err, size_t errlen) {
    *rad_out = NULL;
    *n_out = 0;
    *spans = 0;
    const int cyl = d->region == FLOE_DENSE_CYLINDER;
    if (!cyl && d->region != FLOE_DENSE_BOX) return floe_io_err(err, errlen, "unknown region kind %d", (int)d->region);
    double vol_region;
    floe_vec3 lo = d->lo, hi = d->hi;
    floe_grid_period per;
    floe__gen_period(d->env, &per);
    if (cyl) {
        if (!(d->radius > 0 && d->height > 0 && isfinite(d->radius + d->height)))
            return floe_io_err(err, errlen, "the cylinder needs radius > 0 and height > 0");
        lo = (floe_vec3){d->base.x - d->radius, d->base.y - d->radius, d->base.z};
        hi = (floe_vec3){d->base.x + d->radius, d->base.y + d->radius, d->base.z + d->height};
        double h = d->height;
        if ((per.axes >> 2 & 1) && h >= per.len[2]) { /* a column through the cell */
            *spans = 4;
            lo.z = per.lo[2];
            hi.z = per.lo[2] + per.len[2];
            h = per.len[2];
        }
        vol_region = FLOE_PI * d->radius * d->radius * h;
    } else {
        if (!(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z) || !isfinite(hi.x - lo.x + hi.y - lo.y + hi.z - lo.z))
            return floe_io_err(err, errlen, "the box's first corner must be below the second on every axis");
        for (int k = 0; k < 3; k++)
            if ((per.axes >> k & 1) && comp(hi, k) - comp(lo, k) >= per.len[k]) {
                *spans |= 1 << k;
                set_comp(&lo, k, per.lo[k]);
                set_comp(&hi, k, per.lo[k] + per.len[k]);
            }
        vol_region = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
    }
    *vol_out = vol_region;
    *lo_out = lo;
    *hi_out = hi;
    double rmin = d->rmin, rmax = d->rmax;
    if (d->dist) {
        if (floe_size_dist_check(d->dist, err, errlen)) return -1;
        rmin = d->dist->kind == FLOE_DIST_SIEVE ? d->dist->sizes[0] : d->dist->min;
        rmax = d->dist->kind == FLOE_DIST_SIEVE ? d->dist->sizes[d->dist->npts - 1] : d->dist->max;
    } else if (!(rmin > 0 && rmin <= rmax && isfinite(rmax)))
        return floe_io_err(err, errlen, "radii must satisfy 0 < rmin <= rmax");
    const int mono = rmin == rmax;
    if (!(d->target > 0 && d->target <= 0.9))
        return floe_io_err(err, errlen, "solid_fraction = %g is out of range (0, 0.9]", d->target);
    if (mono && d->target > FLOE_DENSE_MONO_MAX)
        return floe_io_err(err, errlen,
                           "solid_fraction = %g is impossible for spheres of one radius: no packing of equal "
                           "spheres is denser than pi/sqrt(18) = %g (and a random one jams near 0.64)",
                           d->target, FLOE_DENSE_MONO_MAX);
    if (!(d->max_overlap > 0 && d->max_overlap <= 0.5))
        return floe_io_err(err, errlen, "max_overlap = %g is out of range (0, 0.5]", d->max_overlap);
    if (d->max_iterations < 1) return floe_io_err(err, errlen, "max_iterations must be >= 1");
    if (d->count < 0 || d->count > FLOE_GEN_MAX_COUNT)
        return floe_io_err(err, errlen, "count %lld is out of range [0, %lld]", (long long)d->count,
                           (long long)FLOE_GEN_MAX_COUNT);
    /* the spheres the target needs at the smallest radius: refuse absurd counts before drawing */
    if (!d->count && d->target * vol_region / (VOL * rmin * rmin * rmin) > (double)FLOE_GEN_MAX_COUNT &&
        d->target * vol_region / (VOL * rmax * rmax * rmax) > (double)FLOE_GEN_MAX_COUNT)
        return floe_io_err(err, errlen, "the target needs more than %lld spheres of these sizes",
                           (long long)FLOE_GEN_MAX_COUNT);
    double want = d->target * vol_region, sum = 0;
    int64_t n = 0, cap = d->count ? d->count : 1024;
    double *rad = malloc((size_t)cap * sizeof *rad);
    if (!rad) return floe_io_err(err, errlen, "out of memory for %lld spheres", (long long)cap);
    for (;;) {
        if (d->count ? n == d->count : sum >= want) break;
        if (n == FLOE_GEN_MAX_COUNT) {
            free(rad);
            return floe_io_err(err, errlen, "the target needs more than %lld spheres of these sizes",
                               (long long)FLOE_GEN_MAX_COUNT);
        }
        if (n == cap) {
            cap *= 2;
            double *t = realloc(rad, (size_t)cap * sizeof *t);
            if (!t) {
                free(rad);
                return floe_io_err(err, errlen, "out of memory for %lld spheres", (long long)cap);
            }
            rad = t;
        }
        double r = draw_radius(d, rng);
        rad[n++] = r;
        sum += VOL * r * r * r;
    }
    *rad_out = rad;
    *n_out = n;
    return 0;
}

int floe__dense_count(const floe_dense_def *d, int64_t *n, char *err, size_t errlen) {
    floe_rng rng;
    floe_rng_seed(&rng, d->seed);
    double *rad, vol;
    floe_vec3 lo, hi;
    int spans;
    if (prepare(d, &rng, &rad, n, &vol, &lo, &hi, &spans, err, errlen)) return -1;
    free(rad);
    return 0;
}

int floe_gen_dense(const floe_dense_def *d, floe_vec3 **pos_out, double **rad_out, floe_dense_info *info, char *err,
                   size_t errlen) {
    *pos_out = NULL;
    *rad_out = NULL;
    memset(info, 0, sizeof *info);
    const int cyl = d->region == FLOE_DENSE_CYLINDER;
    floe_rng rng;
    floe_rng_seed(&rng, d->seed);
    packer p;
    memset(&p, 0, sizeof p);
    int rc = 0;
    double *rad, vol_region, sum = 0;
    int64_t n;
    floe_vec3 lo, hi;
    int spans;
    if (prepare(d, &rng, &rad, &n, &vol_region, &lo, &hi, &spans, err, errlen)) return -1;
    const double want = d->target * vol_region;
    for (int64_t i = 0; i < n; i++) sum += VOL * rad[i] * rad[i] * rad[i];
    p.r0 = rad;
    p.n = n;
    info->count = n;
    if (n == 0) goto done;
    const double s = cube_root(want / sum);
    info->scale = s;
    double big = 0, mean = 0;
    for (int64_t i = 0; i < n; i++) {
        big = fmax(big, rad[i] * s);
        mean += rad[i] * s;
    }
    mean /= (double)n;
    double room = cyl ? fmin(d->radius, 0.5 * (hi.z - lo.z)) : 0.5 * fmin(hi.x - lo.x, fmin(hi.y - lo.y, hi.z - lo.z));
    if (big > room) {
        rc = floe_io_err(err, errlen,
                         "%lld spheres at solid fraction %g need radii up to %g (the drawn radii times %g), which "
                         "do not fit in the region (half its smallest side is %g); give a larger count or a "
                         "larger region",
                         (long long)n, d->target, big, s, room);
        goto done;
    }
    /* scaled coordinates: (X - lo) / mean */
    const double L = mean;
    p.cyl = cyl;
    p.lo = (floe_vec3){0, 0, 0};
    p.hi = vscale(vsub(hi, lo), 1 / L);
    floe__gen_period(d->env, &p.per);
    p.spans = spans;
    for (int k = 0; k < 3; k++) {
        if (!(p.per.axes >> k & 1)) continue;
        /* the size rule of a periodic world (docs/periodic.md): a pair meets through one image at most */
        if (!(2 * (2 * big + SKIN * L) < p.per.len[k])) {
            rc = floe_io_err(err, errlen,
                             "the periodic cell is %g m wide along %c, less than twice the neighbour search "
                             "distance %g m of these spheres (2 x the largest radius %g m + a margin %g m): "
                             "use smaller spheres or a wider cell",
                             p.per.len[k], "xyz"[k], 2 * big + SKIN * L, big, SKIN * L);
            goto done;
        }
        p.per.lo[k] = (p.per.lo[k] - comp(lo, k)) / L;
        p.per.len[k] /= L;
    }
    if (cyl) {
        p.cx = d->radius / L;
        p.cy = d->radius / L;
        p.R = d->radius / L;
    }
    p.x = malloc((size_t)n * sizeof *p.x);
    p.v = malloc((size_t)n * sizeof *p.v);
    p.f = malloc((size_t)n * sizeof *p.f);
    p.xref = malloc((size_t)n * sizeof *p.xref);
    p.r = malloc((size_t)n * sizeof *p.r);
    if (p.per.axes) p.wx = malloc((size_t)n * sizeof *p.wx);
    if (!p.x || !p.v || !p.f || !p.xref || !p.r || (p.per.axes && !p.wx)) {
        rc = floe_io_err(err, errlen, "out of memory for %lld spheres", (long long)n);
        goto done;
    }
    for (int64_t i = 0; i < n; i++) rad[i] *= s / L;
    double phi = fmin(FLOE_DENSE_START, d->target);
    double k0 = cube_root(phi / d->target);
    for (int64_t i = 0; i < n; i++) {
        double r = rad[i] * k0;
        floe_vec3 c;
        if (cyl) {
            double a, b, R = p.R - r;
            do {
                a = 2 * floe_rng_uniform(&rng) - 1;
                b = 2 * floe_rng_uniform(&rng) - 1;
            } while (a * a + b * b > 1);
            c = (floe_vec3){p.cx + R * a, p.cy + R * b, r + (p.hi.z - 2 * r) * floe_rng_uniform(&rng)};
        } else {
            c = (floe_vec3){r + (p.hi.x - 2 * r) * floe_rng_uniform(&rng),
                            r + (p.hi.y - 2 * r) * floe_rng_uniform(&rng),
                            r + (p.hi.z - 2 * r) * floe_rng_uniform(&rng)};
        }
        p.x[i] = c;
    }
    int64_t left = d->max_iterations, used = 0;
    double tol = d->max_overlap, reached = 0;
    int how = RELAXED;
    for (;;) {
        double k = cube_root(phi / d->target);
        for (int64_t i = 0; i < n; i++) p.r[i] = rad[i] * k;
        info->stages++;
        if (build_list(&p)) {
            rc = floe_io_err(err, errlen, "out of memory for the neighbour list of %lld spheres", (long long)n);
            goto done;
        }
        int last = phi >= d->target;
        how = relax(&p, tol, last ? INT64_MAX : STAGE_ITER, &left, &used, d->env);
        if (how == STOPPED) {
            rc = floe_io_err(err, errlen, "interrupted");
            goto done;
        }
        if (how == NOMEM) {
            rc = floe_io_err(err, errlen, "out of memory for the neighbour list of %lld spheres", (long long)n);
            goto done;
        }
        if (how == RELAXED) reached = phi;
        if (last || left <= 0) break;
        phi = fmin(phi + FLOE_DENSE_STEP, d->target);
        if (d->target - phi < 1e-9 * d->target) phi = d->target;
    }
    info->iterations = used;
    info->reached = reached;
    info->max_overlap = p.max_rel;
    info->mean_overlap = p.contacts ? p.sum_rel / (double)p.contacts : 0;
    info->contacts = p.contacts;
    double vs = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = rad[i] * L;
        vs += VOL * r * r * r;
    }
    info->fraction = vs / vol_region;
    if (how != RELAXED) {
        rc = floe_io_err(err, errlen,
                         "the packing did not reach solid_fraction %g: after %lld relaxation iterations the largest "
                         "overlap is %.3g of a radius, above max_overlap = %g; the densest stage relaxed below the "
                         "bound had solid fraction %.4f. %s",
                         d->target, (long long)used, p.max_rel, tol, reached,
                         how == JAMMED ? "The spheres jammed (forces balance with overlaps left): lower "
                                         "solid_fraction or raise max_overlap"
                                       : "Raise max_iterations, lower solid_fraction or raise max_overlap");
        goto done;
    }
    floe_vec3 *pos = malloc((size_t)n * sizeof *pos);
    if (!pos) {
        rc = floe_io_err(err, errlen, "out of memory for %lld spheres", (long long)n);
        goto done;
    }
    for (int64_t i = 0; i < n; i++) {
        pos[i] = vadd(lo, vscale(p.x[i], L));
        rad[i] *= L;
    }
    *pos_out = pos;
    *rad_out = rad;
    p.r0 = NULL;
done:
    packer_free(&p);
    return rc;
}
