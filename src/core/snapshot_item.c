/* Items of a snapshot one at a time (snapshot_item.h): the messages for a
 * missing item, one of the wrong class or size, and the range checks of
 * integers before they are narrowed. */
#include "core/snapshot_item.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t floe__snap_type_size(floe_snap_type t) {
    static const size_t size[FLOE_SNAP_NTYPES] = {8, 8, 4, 4, 2, 1, 0};
    return (unsigned)t < FLOE_SNAP_NTYPES ? size[t] : 0;
}

const char *floe__snap_type_name(floe_snap_type t) {
    static const char *const name[FLOE_SNAP_NTYPES] = {"a 64-bit float",
                                                       "a 64-bit integer",
                                                       "a 32-bit integer",
                                                       "an unsigned 32-bit integer",
                                                       "an unsigned 16-bit integer",
                                                       "a byte",
                                                       "text"};
    return (unsigned)t < FLOE_SNAP_NTYPES ? name[t] : "?";
}

const char *floe_snap_path(const char *group, const char *name, int attr, char *buf, size_t n) {
    /* the root's attributes are "@name" */
    snprintf(buf, n, "%s%s%s%s", *group || !attr ? "/" : "", group, attr ? "@" : (*group ? "/" : ""), name);
    return buf;
}

int floe_snap_put(const floe_snap_writer *wr, const char *group, const char *name, int attr, floe_snap_type t, int rank,
                  size_t d0, size_t d1, const void *data, int doc) {
    floe_snap_item it = {group, name, attr, t, rank, {d0, d1, 0}, data, doc};
    return wr->put(wr->ctx, &it);
}

/* ---- reading single items ----------------------------------------------------------- */

int floe_snap_vfail(int *bad, char *err, size_t errlen, const char *where, const char *fmt, va_list ap) {
    if (*bad) return -1;
    *bad = 1;
    if (!err || !errlen) return -1;
    int n = where ? snprintf(err, errlen, "%s: ", where) : 0;
    if (n >= 0 && (size_t)n < errlen) vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    return -1;
}

int floe_snap_fail(floe_snap_in *in, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe_snap_vfail(&in->bad, in->err, in->errlen, NULL, fmt, ap);
    va_end(ap);
    return -1;
}

int floe_snap_has(floe_snap_in *in, const char *group, const char *name, int attr) {
    floe_snap_found f;
    return !in->bad && in->rd->find(in->rd->ctx, group, name, attr, &f) == 1;
}

/* Finds an item or says what is missing. */
static int find(floe_snap_in *in, const char *group, const char *name, int attr, floe_snap_found *f) {
    if (in->bad) return -1;
    memset(f, 0, sizeof *f);
    if (in->rd->find(in->rd->ctx, group, name, attr, f) == 1) return 0;
    char p[200];
    if (!in->rd->has_group(in->rd->ctx, group))
        return floe_snap_fail(in, "missing group '/%s' (not a floe restart file or snapshot, or a damaged one)", group);
    return floe_snap_fail(in, "missing %s '%s'", attr ? "attribute" : "dataset",
                          floe_snap_path(group, name, attr, p, sizeof p));
}

long floe_snap_rows_of(floe_snap_in *in, const char *group, const char *name) {
    floe_snap_found f;
    if (find(in, group, name, 0, &f) != 0) return -1;
    char p[200];
    floe_snap_path(group, name, 0, p, sizeof p);
    if (f.rank < 1 || f.rank > 3) return floe_snap_fail(in, "dataset '%s' is unreadable or has an unexpected shape", p);
    if (f.dims[0] > (size_t)1 << 30) return floe_snap_fail(in, "dataset '%s' has %zu rows: too many", p, f.dims[0]);
    return (long)f.dims[0];
}

/* The class an item must have to be read as t. */
static int class_ok(char klass, floe_snap_type t) {
    return t == FLOE_SNAP_F64 ? klass == 'f' : t == FLOE_SNAP_STR ? klass == 's' : klass == 'i';
}

static int class_error(floe_snap_in *in, const char *p, int attr, floe_snap_type t) {
    const char *kind = attr ? "attribute" : "dataset";
    if (t == FLOE_SNAP_STR) return floe_snap_fail(in, "%s '%s' is not text", kind, p);
    if (t == FLOE_SNAP_F64)
        return floe_snap_fail(in, "%s '%s' holds %s, expected %s", kind, p,
                              attr ? "non-float values" : "integers (or other non-float values)",
                              attr ? "a floating-point number" : "floating-point numbers");
    return floe_snap_fail(in, "%s '%s' holds non-integer values, expected %s", kind, p,
                          attr ? "an integer" : "integers");
}

/* Narrows n values to t at dst; the index of the first that does not fit, or -1. */
static long narrow(const int64_t *v, size_t n, floe_snap_type t, void *dst) {
#define NARROW(T, lo, hi)                                   \
    do {                                                    \
        T *d = dst;                                         \
        for (size_t k = 0; k < n; k++) {                    \
            if (v[k] < (lo) || v[k] > (hi)) return (long)k; \
            d[k] = (T)v[k];                                 \
        }                                                   \
    } while (0)
    switch (t) {
        case FLOE_SNAP_I32:
            NARROW(int32_t, INT32_MIN, INT32_MAX);
            break;
        case FLOE_SNAP_U32:
            NARROW(uint32_t, 0, (int64_t)UINT32_MAX);
            break;
        case FLOE_SNAP_U16:
            NARROW(uint16_t, 0, UINT16_MAX);
            break;
        case FLOE_SNAP_U8:
            NARROW(uint8_t, 0, UINT8_MAX);
            break;
        default:
            memcpy(dst, v, 8 * n);
    }
#undef NARROW
    return -1;
}

/* Finds an item of rows x cols values of a class readable as t; its path in p. */
static int check_item(floe_snap_in *in, const char *group, const char *name, int attr, floe_snap_type t, size_t rows,
                      size_t cols, char *p, size_t plen) {
    floe_snap_found f;
    if (find(in, group, name, attr, &f) != 0) return -1;
    floe_snap_path(group, name, attr, p, plen);
    if (f.rank < 0 || f.rank > 3) return floe_snap_fail(in, "%s '%s' is unreadable", attr ? "attribute" : "dataset", p);
    size_t total = 1;
    for (int k = 0; k < f.rank; k++) total *= f.dims[k];
    if (!class_ok(f.klass, t)) return class_error(in, p, attr, t);
    if (attr) {
        if (total != rows * cols)
            return floe_snap_fail(in, "attribute '%s' is unreadable or has %zu values (expected %zu)", p, total,
                                  rows * cols);
    } else if (f.rank < 1 || f.dims[0] != rows || total != rows * cols ||
               (cols > 1 && f.rank == 2 && f.dims[1] != cols)) {
        return floe_snap_fail(in, "dataset '%s' has %zu values, expected %zu x %zu", p, f.rank < 1 ? 0 : total, rows,
                              cols);
    }
    return 0;
}

int floe_snap_get(floe_snap_in *in, const char *group, const char *name, int attr, floe_snap_type t, size_t rows,
                  size_t cols, void *dst) {
    char p[200];
    if (check_item(in, group, name, attr, t, rows, cols, p, sizeof p) != 0) return -1;
    size_t n = rows * cols;
    if (n == 0) return 0;
    if (t == FLOE_SNAP_F64 || t == FLOE_SNAP_I64) {
        if (in->rd->read(in->rd->ctx, group, name, attr, t, dst) != 0)
            return floe_snap_fail(in, "cannot read %s '%s'", attr ? "attribute" : "dataset", p);
        return 0;
    }
    int64_t *v = malloc(sizeof *v * n);
    if (!v) return floe_snap_fail(in, "out of memory reading '%s'", p);
    if (in->rd->read(in->rd->ctx, group, name, attr, FLOE_SNAP_I64, v) != 0) {
        floe_snap_fail(in, "cannot read %s '%s'", attr ? "attribute" : "dataset", p);
    } else {
        long k = narrow(v, n, t, dst);
        if (k >= 0)
            floe_snap_fail(in, "%s '%s': %" PRId64 " (value %ld) does not fit in %s", attr ? "attribute" : "dataset", p,
                           v[k], k, floe__snap_type_name(t));
    }
    free(v);
    return in->bad ? -1 : 0;
}

int floe__snap_get_raw(floe_snap_in *in, const char *group, const char *name, size_t rows, size_t cols, void *dst) {
    char p[200];
    if (check_item(in, group, name, 0, FLOE_SNAP_U8, rows, cols, p, sizeof p) != 0) return -1;
    if (rows > 0 && cols > 0 && in->rd->read(in->rd->ctx, group, name, 0, FLOE_SNAP_U8, dst) != 0)
        return floe_snap_fail(in, "cannot read dataset '%s'", p);
    return 0;
}

int64_t floe_snap_get_int(floe_snap_in *in, const char *group, const char *name, int64_t lo, int64_t hi) {
    int64_t v = lo;
    char p[200];
    if (floe_snap_get(in, group, name, 1, FLOE_SNAP_I64, 1, 1, &v) != 0) return lo;
    if (v < lo || v > hi) {
        floe_snap_fail(in, "attribute '%s': %" PRId64 " is outside [%" PRId64 ", %" PRId64 "]",
                       floe_snap_path(group, name, 1, p, sizeof p), v, lo, hi);
        return lo;
    }
    return v;
}

double floe_snap_get_f64(floe_snap_in *in, const char *group, const char *name) {
    double v = 0;
    floe_snap_get(in, group, name, 1, FLOE_SNAP_F64, 1, 1, &v);
    return v;
}

void floe_snap_get_text(floe_snap_in *in, const char *group, const char *name, char *buf, size_t cap) {
    buf[0] = 0;
    char p[200];
    floe_snap_found f;
    if (find(in, group, name, 1, &f) != 0) return;
    floe_snap_path(group, name, 1, p, sizeof p);
    char **s = f.klass == 's' && f.rank == 0 ? in->rd->read_strings(in->rd->ctx, group, name, 1, 1) : NULL;
    if (!s) floe_snap_fail(in, "attribute '%s' is not a readable string", p);
    else snprintf(buf, cap, "%s", s[0]);
    free(s);
}

char **floe_snap_get_strings(floe_snap_in *in, const char *group, const char *name, size_t n) {
    char p[200];
    floe_snap_found f;
    if (find(in, group, name, 0, &f) != 0) return NULL;
    floe_snap_path(group, name, 0, p, sizeof p);
    if (f.rank != 1 || f.dims[0] != n) {
        floe_snap_fail(in, "dataset '%s' has %zu strings, expected %zu", p, f.rank == 1 ? f.dims[0] : 0, n);
        return NULL;
    }
    char **s = f.klass == 's' ? in->rd->read_strings(in->rd->ctx, group, name, 0, n) : NULL;
    if (!s) floe_snap_fail(in, "dataset '%s' is not readable as strings", p);
    return s;
}
