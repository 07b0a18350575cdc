/* Size distributions: their checks, and the smallest size the inlets insert (see size_dist.h). */
#include "core/size_dist.h"
#include "core/world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* Writes the message into err and returns -1. */
static int dist_err(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- radius distributions ------------------------------------------------------ */

/* Fraction of N(0, 1) between a and b. */
static double normal_mass(double a, double b) { return 0.5 * (erfc(a / sqrt(2.0)) - erfc(b / sqrt(2.0))); }

#define DIST_MIN_MASS 1e-3 /* truncated normals: rejection needs this much mass inside [min, max] */

int floe_size_dist_check(const floe_size_dist *d, char *err, size_t errlen) {
    if (d->kind == FLOE_DIST_SIEVE) {
        int n = d->npts;
        if (n < 2 || n > FLOE_SIEVE_MAX_POINTS)
            return dist_err(err, errlen, "sizes has %d points; a sieve table needs 2 to %d", n, FLOE_SIEVE_MAX_POINTS);
        for (int i = 0; i < n; i++) {
            if (!(d->sizes[i] > 0 && d->sizes[i] <= 1e12))
                return dist_err(err, errlen, "sizes[%d] = %g is out of range (0, 1e+12]", i, d->sizes[i]);
            if (i > 0 && !(d->sizes[i] > d->sizes[i - 1]))
                return dist_err(err, errlen,
                                "sizes[%d] = %g is not above sizes[%d] = %g (sizes must be strictly increasing)", i,
                                d->sizes[i], i - 1, d->sizes[i - 1]);
            if (!(d->passing[i] >= 0 && d->passing[i] <= 1))
                return dist_err(err, errlen, "passing[%d] = %g is out of range [0, 1]", i, d->passing[i]);
            if (i > 0 && d->passing[i] < d->passing[i - 1])
                return dist_err(err, errlen,
                                "passing[%d] = %g is below passing[%d] = %g (passing must be non-decreasing)", i,
                                d->passing[i], i - 1, d->passing[i - 1]);
        }
        if (d->passing[0] != 0)
            return dist_err(err, errlen,
                            "passing[0] = %g must be 0 (the first size is the smallest radius in the packing)",
                            d->passing[0]);
        if (d->passing[n - 1] != 1)
            return dist_err(err, errlen,
                            "passing[%d] = %g must be 1 (the last size is the largest radius in the packing)", n - 1,
                            d->passing[n - 1]);
        return 0;
    }
    if (!(d->min > 0 && d->min <= 1e12)) return dist_err(err, errlen, "min = %g is out of range (0, 1e+12]", d->min);
    if (!(d->max <= 1e12)) return dist_err(err, errlen, "max = %g is out of range (0, 1e+12]", d->max);
    if (!(d->min <= d->max))
        return dist_err(err, errlen, "min = %g is above max = %g (need 0 < min <= max)", d->min, d->max);
    if (d->kind == FLOE_DIST_NORMAL) {
        if (!(d->sigma > 0 && d->sigma <= 1e12))
            return dist_err(err, errlen, "std = %g is out of range (0, 1e+12]", d->sigma);
        double m = normal_mass((d->min - d->mu) / d->sigma, (d->max - d->mu) / d->sigma);
        if (!(m >= DIST_MIN_MASS))
            return dist_err(err, errlen,
                            "[min, max] = [%g, %g] holds a fraction %.3g of the normal distribution (mean = %g, "
                            "std = %g); truncation by rejection needs at least %g",
                            d->min, d->max, m, d->mu, d->sigma, DIST_MIN_MASS);
    } else if (d->kind == FLOE_DIST_LOGNORMAL) {
        if (!(d->sigma > 0 && d->sigma <= 10))
            return dist_err(err, errlen, "sigma = %g is out of range (0, 10]", d->sigma);
        if (!isfinite(d->mu)) return dist_err(err, errlen, "median or mean must be in (0, 1e+12]");
        double m = normal_mass((log(d->min) - d->mu) / d->sigma, (log(d->max) - d->mu) / d->sigma);
        if (!(m >= DIST_MIN_MASS))
            return dist_err(err, errlen,
                            "[min, max] = [%g, %g] holds a fraction %.3g of the log-normal distribution (median = "
                            "%g, sigma = %g); truncation by rejection needs at least %g",
                            d->min, d->max, m, exp(d->mu), d->sigma, DIST_MIN_MASS);
    } else if (d->kind != FLOE_DIST_UNIFORM) {
        return dist_err(err, errlen, "unknown distribution kind %d", (int)d->kind);
    }
    return 0;
}

double floe__supply_min_radius(const floe_world *w, int *mat) {
    double r = INFINITY;
    for (int k = 0; k < w->ninlets; k++) {
        const floe_inlet *in = &w->inlets[k];
        int n = in->shape == FLOE_SHAPE_ELLIPSOID ? 3 : 1; /* a capsule's radius, not its shaft */
        for (int j = 0; j < n; j++) {
            double m = in->dkind[j] == FLOE_DIST_SIEVE ? in->dsizes[j * FLOE_SIEVE_MAX_POINTS] : in->dpar[4 * j];
            if (m < r) {
                r = m;
                if (mat) *mat = in->material;
            }
        }
    }
    return r;
}

double floe__supply_max_bound(const floe_world *w) {
    double bmax = 0;
    for (int k = 0; k < w->ninlets; k++) {
        const floe_inlet *in = &w->inlets[k];
        double m[3] = {0, 0, 0};
        int n = in->shape == FLOE_SHAPE_SPHERE ? 1 : in->shape == FLOE_SHAPE_CAPSULE ? 2 : 3;
        for (int j = 0; j < n; j++)
            m[j] = in->dkind[j] == FLOE_DIST_SIEVE ? in->dsizes[j * FLOE_SIEVE_MAX_POINTS + in->dnpts[j] - 1]
                                                   : in->dpar[4 * j + 1];
        double b = in->shape == FLOE_SHAPE_SPHERE    ? m[0]
                   : in->shape == FLOE_SHAPE_CAPSULE ? m[0] + 0.5 * m[1]             /* radius + half the shaft */
                                                     : fmax(m[0], fmax(m[1], m[2])); /* the longest semi-axis */
        bmax = fmax(bmax, b);
    }
    return bmax;
}
