/* Particle generators (see generate.h). */
#include "generate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gen_err(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int gen_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- random numbers ------------------------------------------------------- */

uint64_t floe_splitmix64(uint64_t x)
{
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double floe_u01(uint64_t bits) { return (double)(bits >> 11) * 0x1.0p-53; }

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void floe_rng_seed(floe_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = floe_splitmix64(seed + (uint64_t)i);
}

uint64_t floe_rng_next(floe_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double floe_rng_uniform(floe_rng *r) { return floe_u01(floe_rng_next(r)); }

/* ---- lattice ---------------------------------------------------------------- */

int floe_gen_lattice(const floe_lattice_def *d, floe_vec3 **pos, int64_t *n, char *err, size_t errlen)
{
    *pos = NULL;
    *n = 0;
    double total = 1;
    for (int k = 0; k < 3; k++) {
        if (d->counts[k] < 0)
            return gen_err(err, errlen, "lattice counts must be >= 0");
        total *= (double)d->counts[k];
    }
    if (total > (double)FLOE_GEN_MAX_COUNT)
        return gen_err(err, errlen, "lattice of %.4g sites exceeds the limit of %lld particles", total,
                       (long long)FLOE_GEN_MAX_COUNT);
    if (!(d->spacing.x > 0 && d->spacing.y > 0 && d->spacing.z > 0))
        return gen_err(err, errlen, "lattice spacing must be > 0");
    int64_t nx = d->counts[0], ny = d->counts[1], nz = d->counts[2], cnt = nx * ny * nz;
    if (cnt == 0)
        return 0;
    floe_vec3 *p = malloc((size_t)cnt * sizeof *p);
    if (!p)
        return gen_err(err, errlen, "out of memory for %lld lattice sites", (long long)cnt);
    const uint64_t K = d->seed * 0xD1B54A32D192ED03ULL;
    int64_t i = 0;
    for (int64_t kz = 0; kz < nz; kz++)
        for (int64_t jy = 0; jy < ny; jy++)
            for (int64_t ix = 0; ix < nx; ix++, i++) {
                uint64_t c = (uint64_t)i;
                floe_vec3 q = {d->origin.x + (double)ix * d->spacing.x, d->origin.y + (double)jy * d->spacing.y,
                               d->origin.z + (double)kz * d->spacing.z};
                if (d->jitter.x > 0)
                    q.x += d->jitter.x * (2 * floe_u01(floe_splitmix64(K + 2 * c)) - 1);
                if (d->jitter.y > 0)
                    q.y += d->jitter.y * (2 * floe_u01(floe_splitmix64(K + 2 * c + 1)) - 1);
                if (d->jitter.z > 0)
                    q.z += d->jitter.z * (2 * floe_u01(floe_splitmix64(K + (1ULL << 39) + c)) - 1);
                p[i] = q;
            }
    *pos = p;
    *n = cnt;
    return 0;
}

/* ---- random packing ----------------------------------------------------------- */

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* Uniform cell grid over the box; cells are at least 2 rmax wide so any
 * overlapping pair lies in neighbouring cells. Per-cell linked lists. */
typedef struct grid {
    floe_vec3 lo;
    double h;
    int64_t dim[3];
    int64_t *head;  /* first sphere in each cell, -1 if none */
    int64_t *next;  /* next sphere in the same cell */
} grid;

static int64_t cell_of(const grid *g, double x, int axis)
{
    double lo = axis == 0 ? g->lo.x : axis == 1 ? g->lo.y : g->lo.z;
    int64_t c = (int64_t)((x - lo) / g->h);
    if (c < 0)
        c = 0;
    if (c >= g->dim[axis])
        c = g->dim[axis] - 1;
    return c;
}

static int grid_init(grid *g, const floe_random_def *d)
{
    floe_vec3 ext = {d->hi.x - d->lo.x, d->hi.y - d->lo.y, d->hi.z - d->lo.z};
    g->lo = d->lo;
    g->h = 2 * d->rmax;
    /* Large boxes with few spheres: widen the cells to keep memory O(count). */
    double max_cells = 2.0 * (double)d->count + 64;
    for (;;) {
        double c = ceil(ext.x / g->h) * ceil(ext.y / g->h) * ceil(ext.z / g->h);
        if (c <= max_cells)
            break;
        g->h *= fmax(1.01, cbrt(c / max_cells));
    }
    g->dim[0] = (int64_t)fmax(1, ceil(ext.x / g->h));
    g->dim[1] = (int64_t)fmax(1, ceil(ext.y / g->h));
    g->dim[2] = (int64_t)fmax(1, ceil(ext.z / g->h));
    size_t cells = (size_t)(g->dim[0] * g->dim[1] * g->dim[2]);
    g->head = malloc(cells * sizeof *g->head);
    g->next = malloc((size_t)(d->count ? d->count : 1) * sizeof *g->next);
    if (!g->head || !g->next)
        return -1;
    memset(g->head, 0xff, cells * sizeof *g->head); /* all -1 */
    return 0;
}

static int fits(const grid *g, const floe_vec3 *pos, const double *rad, floe_vec3 c, double r)
{
    int64_t cx = cell_of(g, c.x, 0), cy = cell_of(g, c.y, 1), cz = cell_of(g, c.z, 2);
    for (int64_t z = cz - 1; z <= cz + 1; z++) {
        if (z < 0 || z >= g->dim[2])
            continue;
        for (int64_t y = cy - 1; y <= cy + 1; y++) {
            if (y < 0 || y >= g->dim[1])
                continue;
            for (int64_t x = cx - 1; x <= cx + 1; x++) {
                if (x < 0 || x >= g->dim[0])
                    continue;
                for (int64_t j = g->head[x + g->dim[0] * (y + g->dim[1] * z)]; j >= 0; j = g->next[j]) {
                    double dx = c.x - pos[j].x, dy = c.y - pos[j].y, dz = c.z - pos[j].z, rr = r + rad[j];
                    if (dx * dx + dy * dy + dz * dz < rr * rr)
                        return 0;
                }
            }
        }
    }
    return 1;
}

int floe_gen_random(const floe_random_def *d, floe_vec3 **pos_out, double **rad_out, int64_t *placed, char *err,
                    size_t errlen)
{
    *pos_out = NULL;
    *rad_out = NULL;
    *placed = 0;
    if (d->count < 0 || d->count > FLOE_GEN_MAX_COUNT)
        return gen_err(err, errlen, "count %lld is out of range [0, %lld]", (long long)d->count,
                       (long long)FLOE_GEN_MAX_COUNT);
    if (!(d->rmin > 0 && d->rmin <= d->rmax && isfinite(d->rmax)))
        return gen_err(err, errlen, "radii must satisfy 0 < rmin <= rmax");
    double ex = d->hi.x - d->lo.x, ey = d->hi.y - d->lo.y, ez = d->hi.z - d->lo.z;
    if (!(ex >= 2 * d->rmax && ey >= 2 * d->rmax && ez >= 2 * d->rmax) || !isfinite(ex + ey + ez))
        return gen_err(err, errlen, "box %g x %g x %g is too small for spheres of radius %g", ex, ey, ez, d->rmax);
    if (d->count == 0)
        return 0;

    int64_t n = d->count;
    floe_vec3 *pos = malloc((size_t)n * sizeof *pos);
    double *rad = malloc((size_t)n * sizeof *rad);
    grid g = {0};
    int rc = 0;
    if (!pos || !rad || grid_init(&g, d)) {
        rc = gen_err(err, errlen, "out of memory for %lld spheres", (long long)n);
        goto done;
    }
    floe_rng rng;
    floe_rng_seed(&rng, d->seed);
    for (int64_t i = 0; i < n; i++)
        rad[i] = d->rmin + (d->rmax - d->rmin) * floe_rng_uniform(&rng);
    /* Largest first: small spheres still fit in the gaps left by big ones. */
    qsort(rad, (size_t)n, sizeof *rad, cmp_desc);

    double vol = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = rad[i];
        int ok = 0;
        for (int t = 0; t < FLOE_GEN_MAX_TRIES && !ok; t++) {
            floe_vec3 c = {d->lo.x + r + (ex - 2 * r) * floe_rng_uniform(&rng),
                           d->lo.y + r + (ey - 2 * r) * floe_rng_uniform(&rng),
                           d->lo.z + r + (ez - 2 * r) * floe_rng_uniform(&rng)};
            if (fits(&g, pos, rad, c, r)) {
                pos[i] = c;
                int64_t cell = cell_of(&g, c.x, 0) + g.dim[0] * (cell_of(&g, c.y, 1) + g.dim[1] * cell_of(&g, c.z, 2));
                g.next[i] = g.head[cell];
                g.head[cell] = i;
                ok = 1;
            }
        }
        if (!ok) {
            *placed = i;
            rc = gen_err(err, errlen,
                         "box too full: placed only %lld of %lld spheres (volume fraction %.3f) before one found no "
                         "free spot in %d tries; enlarge the box or lower the count (random placement stalls "
                         "near a volume fraction of 0.35)",
                         (long long)i, (long long)n, vol / (ex * ey * ez), FLOE_GEN_MAX_TRIES);
            goto done;
        }
        vol += 4.18879020478639098 * r * r * r; /* 4 pi / 3 */
    }
    *placed = n;
    *pos_out = pos;
    *rad_out = rad;
    pos = NULL;
    rad = NULL;
done:
    free(pos);
    free(rad);
    free(g.head);
    free(g.next);
    return rc;
}
