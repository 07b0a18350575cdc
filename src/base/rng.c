/* Random numbers and the size samplers (see rng.h). */
#include "base/rng.h"

#include <math.h>

/* ---- random numbers ------------------------------------------------------- */

uint64_t floe_splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double floe_u01(uint64_t bits) { return (double)(bits >> 11) * 0x1.0p-53; }

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void floe_rng_seed(floe_rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = floe_splitmix64(seed + (uint64_t)i);
}

uint64_t floe_rng_next(floe_rng *r) {
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

floe_quat floe_rng_rotation(floe_rng *r) {
    for (int k = 0; k < 1000; k++) {
        double q[4], s = 0;
        for (int i = 0; i < 4; i++) {
            q[i] = 2 * floe_rng_uniform(r) - 1;
            s += q[i] * q[i];
        }
        /* antipodal quaternions are the same rotation: uniform on S^3 is
         * uniform on SO(3) */
        if (s > 1e-6 && s <= 1) {
            double n = sqrt(s);
            return (floe_quat){q[0] / n, q[1] / n, q[2] / n, q[3] / n};
        }
    }
    return (floe_quat){1, 0, 0, 0};
}

/* ---- radius distributions ------------------------------------------------------ */

/* Standard normal by Marsaglia's polar method (only log and sqrt, both
 * correctly rounded in the usual libms); the second value is dropped so
 * that every draw starts from the generator's state alone. */
static double std_normal(floe_rng *r) {
    for (;;) {
        double x = 2 * floe_rng_uniform(r) - 1, y = 2 * floe_rng_uniform(r) - 1, s = x * x + y * y;
        if (s > 0 && s < 1) return x * sqrt(-2 * log(s) / s);
    }
}

/* Sieve table: the radius at which the number CDF reaches u. By number the
 * CDF is linear between points. By mass the table's mass CDF M is linear,
 * so the mass density is c_k = dM_k / dr_k on interval k and the number
 * density c_k / r^3: interval k holds a number share c_k (a^-2 - b^-2) / 2
 * and, inside it, N(r) ∝ a^-2 - r^-2, inverted in closed form. */
static double sieve_sample(const floe_size_dist *d, double u) {
    int n = d->npts;
    double w[FLOE_SIEVE_MAX_POINTS] = {0}, tot = 0;
    for (int k = 0; k + 1 < n; k++) {
        double a = d->sizes[k], b = d->sizes[k + 1], dm = d->passing[k + 1] - d->passing[k];
        w[k] = d->by_mass ? dm / (b - a) * (1 / (a * a) - 1 / (b * b)) : dm;
        tot += w[k];
    }
    int last = n - 2;
    while (last > 0 && !(w[last] > 0)) last--;
    double target = u * tot, acc = 0;
    int k = 0;
    for (; k < last; k++) { /* the last weighted interval takes the rest (round-off) */
        if (w[k] > 0 && target < acc + w[k]) break;
        acc += w[k];
    }
    double a = d->sizes[k], b = d->sizes[k + 1], v = (target - acc) / w[k];
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    if (!d->by_mass) return a + (b - a) * v;
    double ia = 1 / (a * a), ib = 1 / (b * b), r = 1 / sqrt(ia - v * (ia - ib));
    return r < a ? a : r > b ? b : r;
}

double floe__size_sample(const floe_size_dist *d, floe_rng *r) {
    switch (d->kind) {
        case FLOE_DIST_NORMAL:
        case FLOE_DIST_LOGNORMAL:
            /* truncation by rejection; the check guarantees at least 1e-3 of the
         * mass inside, so 10^6 rejections in a row (probability below
         * e^-1000) do not happen: the uniform fallback only keeps the loop
         * bounded */
            for (int t = 0; t < 1000000; t++) {
                double z = d->mu + d->sigma * std_normal(r);
                double x = d->kind == FLOE_DIST_NORMAL ? z : exp(z);
                if (x >= d->min && x <= d->max) return x;
            }
            return d->min + (d->max - d->min) * floe_rng_uniform(r);
        case FLOE_DIST_SIEVE:
            return sieve_sample(d, floe_rng_uniform(r));
        default:
            return d->min + (d->max - d->min) * floe_rng_uniform(r);
    }
}

double floe__size_max(const floe_size_dist *d) { return d->kind == FLOE_DIST_SIEVE ? d->sizes[d->npts - 1] : d->max; }
