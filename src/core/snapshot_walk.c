/* The walker of items that every table of the snapshot's kind goes
 * through (snapshot_flat.h): the world's (snapshot_write.c,
 * snapshot_read.c, snapshot_check.c add what only the world has: the
 * models' keys, what the API builds, the rules between its tables) and any
 * other root's through floe_snap_table_write/read/check
 * (include/floe/floe_snapshot.h; a restart file's run settings and output
 * counters, src/io/restart_table.c). An item's values are gathered from
 * their members into rows, or scattered back and narrowed, and every leaf
 * is checked as its line says; the conversions are here, by name
 * (floe_snap_conv). The world's conversions (contact state, parameter
 * tables, the broad phase's validity) and the group mask check occur in
 * the world's table only, whose root is the world. */
#include "core/snapshot_flat.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing --------------------------------------------------------------------- */

/* Copies `bytes` from each of n rows at src to the rows at dst. */
static void gather(char *dst, size_t dstride, const char *src, size_t sstride, size_t n, size_t bytes) {
#define COPY(k) \
    for (size_t r = 0; r < n; r++) memcpy(dst + r * dstride, src + r * sstride, k)
    switch (bytes) { /* fixed sizes: the copies are inlined */
        case 1:
            COPY(1);
            break;
        case 2:
            COPY(2);
            break;
        case 4:
            COPY(4);
            break;
        case 8:
            COPY(8);
            break;
        case 16:
            COPY(16);
            break;
        case 24:
            COPY(24);
            break;
        default:
            COPY(bytes);
    }
#undef COPY
}

int floe__snap_out_fail(snap_out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe_snap_vfail(&o->bad, o->err, o->errlen, NULL, fmt, ap);
    va_end(ap);
    return -1;
}

void floe__snap_put(snap_out *o, const char *group, const char *name, int attr, floe_snap_type t, int rank, size_t d0,
                    size_t d1, const void *data, int doc) {
    if (o->bad) return;
    if (floe_snap_put(o->wr, group, name, attr, t, rank, d0, d1, data, doc) != 0) {
        char p[160];
        floe__snap_out_fail(o, "cannot write %s", floe_snap_path(group, name, attr, p, sizeof p));
    }
}

/* FLOE_CONV_MODEL_MASK: the names of the models whose bits are set. */
static void put_model_mask(snap_out *o, const item *it, uint64_t mask) {
    const char *seen[64];
    size_t n = 0;
    for (int m = 0; m < floe_registry_count() && m < 64; m++)
        if (mask >> m & 1u) seen[n++] = floe_registry_get(m)->info.name;
    floe__snap_put(o, it->group, it->name, 0, FLOE_SNAP_STR, 1, n, 0, seen, 0);
}

void floe__snap_put_item(snap_out *o, const void *obj, const table *t, const item *it) {
    size_t n = (size_t)count_of(obj, it->rows), cols = (size_t)it->cols, ts = floe__snap_type_size(it->type);
    const leaf *l0 = &t->leaves[it->leaf[0]];
    int rank = it->attr ? (cols > 1) : (cols > 1 ? 2 : 1);
    size_t d0 = it->attr ? cols : n, d1 = cols;
    if (l0->f->role == FLOE_SNAP_DOC) {
        floe__snap_put(o, it->group, it->name, it->attr, FLOE_SNAP_STR, 0, 0, 0, l0->f->note, 1);
        return;
    }
    if (it->conv == FLOE_CONV_MODEL_MASK) {
        put_model_mask(o, it, *(const uint64_t *)(row_ptr(obj, l0, 0) + l0->off));
        return;
    }
    if (it->conv == FLOE_CONV_STATE) {
        /* without contacts the stride says nothing (and is 0 before the
         * world is prepared): 0, so that the same state gives the same items */
        const floe_world *w = obj;
        size_t stride = n ? w->cstride : 0;
        int64_t s = (int64_t)stride;
        floe__snap_put(o, it->group, "state_stride", 1, FLOE_SNAP_I64, 0, 0, 0, &s, 0);
        floe__snap_put(o, it->group, it->name, 0, FLOE_SNAP_U8, 2, n, stride, w->cstate, 0);
        return;
    }
    if (it->type == FLOE_SNAP_STR || it->conv == FLOE_CONV_MODEL) {
        const char **s = malloc(sizeof *s * (n + 1));
        if (!s) {
            floe__snap_out_fail(o, "out of memory");
            return;
        }
        for (size_t r = 0; r < n; r++) {
            const char *p = row_ptr(obj, l0, r) + l0->off;
            s[r] = it->conv == FLOE_CONV_MODEL ? floe_registry_get(*(const int *)p)->info.name : p;
        }
        floe__snap_put(o, it->group, it->name, it->attr, FLOE_SNAP_STR, it->attr ? 0 : 1, n, 0,
                       it->attr ? (const void *)s[0] : s, 0);
        free(s);
        return;
    }
    const void *data = NULL;
    char *buf = NULL;
    int direct = it->nleaf == 1 && it->conv == FLOE_CONV_NONE && l0->f->conv == FLOE_CONV_NONE && l0->off == 0 &&
                 (!l0->rows || l0->stride == ts * cols);
    if (direct) {
        data = n ? row_ptr(obj, l0, 0) : NULL;
    } else if (!(buf = floe__reserve(&o->buf, &o->bufsize, (n * cols + 1) * ts))) {
        floe__snap_out_fail(o, "out of memory for %s", it->name);
        return;
    } else {
        data = buf;
        memset(buf, 0, (n * cols + 1) * ts);
        for (int k = 0; k < it->nleaf; k++) {
            const leaf *lf = &t->leaves[it->leaf[k]];
            size_t bytes = ts * (size_t)lf->f->ncomp, stride;
            const char *base = leaf_base(obj, lf, &stride);
            char *dst = buf + (size_t)lf->f->col * ts;
            if (lf->f->conv == FLOE_CONV_IF_VALID && !((const floe_world *)obj)->bp.valid)
                continue; /* zeros: nothing there yet */
            if (lf->f->conv == FLOE_CONV_INT_AS_F64) {
                for (size_t r = 0; r < n; r++) {
                    double d = *(const int *)(const void *)(base + r * stride);
                    memcpy(dst + r * cols * ts, &d, sizeof d);
                }
                continue;
            }
            if (lf->f->conv != FLOE_CONV_MAT_PARAMS && lf->f->conv != FLOE_CONV_LAW_PARAMS) {
                gather(dst, cols * ts, base, stride, n, bytes);
                continue;
            }
            /* parameters past the model's own are zero (never set), so
             * that the same state gives the same bytes */
            for (size_t r = 0; r < n; r++)
                memcpy(dst + r * cols * ts, base + r * stride,
                       ts * (size_t)param_count(lf, model_of_row(lf, base - lf->off + r * stride)));
        }
    }
    if (it->shape2 > 0 && !it->attr) {
        /* rows of a (cols / shape2) x shape2 table; a value of the root: the table itself */
        size_t d[3] = {n, cols / (size_t)it->shape2, (size_t)it->shape2};
        floe_snap_item x = {it->group, it->name, 0, it->type, it->rows ? 3 : 2, {0, 0, 0}, data, 0};
        memcpy(x.dims, it->rows ? d : d + 1, sizeof(size_t) * (size_t)x.rank);
        if (!o->bad && o->wr->put(o->wr->ctx, &x) != 0) floe__snap_out_fail(o, "cannot write %s", it->name);
    } else {
        floe__snap_put(o, it->group, it->name, it->attr, it->type, rank, d0, d1, data, 0);
    }
}

/* ---- reading ----------------------------------------------------------------------- */

/* Copies column `col` (nc values wide) of n rows of buf (rows of `cols`
 * 64-bit values: doubles, or integers narrowed to t) to the rows at base;
 * `whole`: doubles that must be whole numbers, into int members.
 * -1, or the index in buf of the first value that does not fit (its row
 * in *bad_r). */
static long scatter(char *base, size_t stride, const void *buf, size_t cols, size_t col, size_t n, size_t nc,
                    floe_snap_type t, int whole, size_t *bad_r) {
    if (whole) {
        const double *src = (const double *)buf + col;
        for (size_t r = 0; r < n; r++)
            for (size_t c = 0; c < nc; c++) {
                double v = src[r * cols + c];
                if (!(v >= INT32_MIN && v <= INT32_MAX && v == (double)(int32_t)v))
                    return *bad_r = r, (long)(r * cols + col + c);
                ((int *)(void *)(base + r * stride))[c] = (int)v;
            }
        return -1;
    }
    if (t == FLOE_SNAP_F64) {
        const double *src = (const double *)buf + col;
#define COPY(k) \
    for (size_t r = 0; r < n; r++) memcpy(base + r * stride, src + r * cols, 8 * (k))
        switch (nc) { /* fixed sizes: the copies are inlined */
            case 1:
                COPY(1);
                break;
            case 2:
                COPY(2);
                break;
            case 3:
                COPY(3);
                break;
            case 4:
                COPY(4);
                break;
            default:
                COPY(nc);
        }
#undef COPY
        return -1;
    }
    const int64_t *src = (const int64_t *)buf + col;
#define NARROW(T, lo, hi)                                                            \
    for (size_t r = 0; r < n; r++) {                                                 \
        T *d = (T *)(void *)(base + r * stride);                                     \
        for (size_t c = 0; c < nc; c++) {                                            \
            int64_t v = src[r * cols + c];                                           \
            if (v < (lo) || v > (hi)) return *bad_r = r, (long)(r * cols + col + c); \
            d[c] = (T)v;                                                             \
        }                                                                            \
    }
    switch (t) {
        case FLOE_SNAP_I64:
            NARROW(int64_t, INT64_MIN, INT64_MAX);
            break;
        case FLOE_SNAP_I32:
            NARROW(int32_t, INT32_MIN, INT32_MAX);
            break;
        case FLOE_SNAP_U32:
            NARROW(uint32_t, 0, (int64_t)UINT32_MAX);
            break;
        case FLOE_SNAP_U16:
            NARROW(uint16_t, 0, UINT16_MAX);
            break;
        default:
            NARROW(uint8_t, 0, UINT8_MAX);
    }
#undef NARROW
    return -1;
}

/* Text members: one attribute, or a table of n strings (each cut to the
 * member's size). */
static void read_text(floe_snap_in *in, const item *it, void *obj, const leaf *l0, size_t n) {
    size_t cap = (size_t)l0->f->ncomp;
    if (it->attr) {
        floe_snap_get_text(in, it->group, it->name, (char *)row_ptr(obj, l0, 0) + l0->off, cap);
        return;
    }
    char **s = floe_snap_get_strings(in, it->group, it->name, n);
    for (size_t r = 0; s && r < n; r++) snprintf((char *)row_ptr(obj, l0, r) + l0->off, cap, "%s", s[r]);
    free(s);
}

/* FLOE_CONV_MODEL_MASK: a table of names, any number of rows; names this
 * floe lacks are dropped (their contacts frames stay as they were). */
static void read_model_mask(floe_snap_in *in, const item *it, void *obj, const leaf *l0) {
    long n = floe_snap_rows_of(in, it->group, it->name);
    char **s = n >= 0 ? floe_snap_get_strings(in, it->group, it->name, (size_t)n) : NULL;
    uint64_t mask = 0;
    for (long i = 0; s && i < n; i++) {
        int m = floe_registry_find(s[i]);
        if (m >= 0 && m < 64) mask |= 1ull << m;
    }
    free(s);
    if (!in->bad) *(uint64_t *)(void *)((char *)row_ptr(obj, l0, 0) + l0->off) = mask;
}

void floe__snap_read_items(floe_snap_in *in, const table *t, void *obj, const floe_snap_rows *rows, size_t skip_lo,
                           size_t skip_hi, int def_only, void **rbuf, size_t *rbufsize) {
    for (int i = 0; i < t->nitems && !in->bad; i++) {
        const item *it = &t->items[i];
        if (it->rows != rows || it->built || it->conv == FLOE_CONV_STATE) continue;
        const leaf *l0 = &t->leaves[it->leaf[0]];
        if (l0->f->role == FLOE_SNAP_DOC) continue; /* for people only */
        int in_def = !rows && l0->off >= skip_lo && l0->off < skip_hi;
        if ((def_only && !in_def) || (!def_only && in_def)) continue;
        if (it->optional && !floe_snap_has(in, it->group, it->name, it->attr)) continue; /* an earlier version's file */
        size_t n = (size_t)count_of(obj, rows), cols = (size_t)it->cols, ts = floe__snap_type_size(it->type);
        if (it->conv == FLOE_CONV_MODEL_MASK) {
            read_model_mask(in, it, obj, l0);
            continue;
        }
        if (it->type == FLOE_SNAP_STR) {
            read_text(in, it, obj, l0, n);
            continue;
        }
        int wide_f = it->type == FLOE_SNAP_F64;
        if (it->nleaf == 1 && l0->off == 0 && (!rows || l0->stride == ts * cols) && it->conv == FLOE_CONV_NONE &&
            l0->f->conv == FLOE_CONV_NONE && rows) { /* straight into the array */
            floe_snap_get(in, it->group, it->name, it->attr, it->type, n, cols, n ? (void *)row_ptr(obj, l0, 0) : NULL);
            continue;
        }
        void *buf = floe__reserve(rbuf, rbufsize, 8 * (n * cols + 1));
        if (!buf) {
            floe_snap_fail(in, "out of memory reading %s", it->name);
            return;
        }
        /* a value of the root stored as a table (shape2): its rows and columns */
        size_t get_rows = it->attr ? 1 : rows || it->shape2 <= 0 ? n : cols / (size_t)it->shape2;
        size_t get_cols = !it->attr && !rows && it->shape2 > 0 ? (size_t)it->shape2 : cols;
        if (floe_snap_get(in, it->group, it->name, it->attr, wide_f ? FLOE_SNAP_F64 : FLOE_SNAP_I64, get_rows, get_cols,
                          buf) == 0) {
            for (int k = 0; k < it->nleaf && !in->bad; k++) {
                const leaf *lf = &t->leaves[it->leaf[k]];
                size_t stride, bad_r = 0;
                char *base = (char *)leaf_base(obj, lf, &stride);
                int whole = lf->f->conv == FLOE_CONV_INT_AS_F64;
                long bad_at = scatter(base, stride, buf, cols, (size_t)lf->f->col, n, (size_t)lf->f->ncomp, it->type,
                                      whole, &bad_r);
                if (bad_at >= 0) {
                    char p[200], row[64] = "", v[64];
                    floe_snap_path(it->group, it->name, it->attr, p, sizeof p);
                    if (rows) snprintf(row, sizeof row, "%s %zu: ", rows->noun, bad_r);
                    if (whole) snprintf(v, sizeof v, "%g is not a whole number", ((const double *)buf)[bad_at]);
                    else snprintf(v, sizeof v, "%" PRId64, ((const int64_t *)buf)[bad_at]);
                    floe_snap_fail(in, "%s: %s%s %s %s", p, row, v, whole ? "within" : "does not fit in",
                                   floe__snap_type_name(whole ? FLOE_SNAP_I32 : it->type));
                }
            }
        }
    }
}

/* ---- checks ------------------------------------------------------------------------------ */

static int failf(int *bad, char *err, size_t errlen, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int failf(int *bad, char *err, size_t errlen, const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe_snap_vfail(bad, err, errlen, where, fmt, ap);
    va_end(ap);
    return -1;
}

static double as_double(const char *p, floe_snap_type t) {
    double d;
    switch (t) {
        case FLOE_SNAP_F64:
            memcpy(&d, p, 8);
            return d;
        default:
            return 0;
    }
}

static int64_t as_int(const char *p, floe_snap_type t) {
    switch (t) {
        case FLOE_SNAP_I64: {
            int64_t v;
            memcpy(&v, p, 8);
            return v;
        }
        case FLOE_SNAP_I32: {
            int32_t v;
            memcpy(&v, p, 4);
            return v;
        }
        case FLOE_SNAP_U32: {
            uint32_t v;
            memcpy(&v, p, 4);
            return v;
        }
        case FLOE_SNAP_U16: {
            uint16_t v;
            memcpy(&v, p, 2);
            return v;
        }
        case FLOE_SNAP_U8:
            return (uint8_t)*p;
        default:
            return 0;
    }
}

/* Why a row of values fails check `ck` (NULL if it passes); *bad_k: the component. */
static const char *check_row(const void *obj, const floe_snap_field *f, const char *p, int *bad_k, char *why,
                             size_t n) {
    /* a FLOE_CONV_INT_AS_F64 member is an int in memory */
    floe_snap_type t = f->conv == FLOE_CONV_INT_AS_F64 ? FLOE_SNAP_I32 : f->type;
    size_t ts = floe__snap_type_size(t);
    int nc = f->ncomp;
    *bad_k = 0;
    if (f->check == FLOE_CK_UNIT) {
        double s = 0;
        int fin = 1;
        for (int k = 0; k < nc; k++) {
            double x = as_double(p + k * ts, t);
            s += x * x;
            fin &= isfinite(x);
        }
        *bad_k = -1;
        if (fin && fabs(s - 1) < 1e-6) return NULL;
        snprintf(why, n, "not a unit %s (norm^2 %g)", nc == 4 ? "quaternion" : "vector", s);
        return why;
    }
    if (f->check == FLOE_CK_FINITE_OR_UNSET) {
        int fin = 1, nan = 1;
        for (int k = 0; k < nc; k++) {
            double x = as_double(p + k * ts, t);
            fin &= isfinite(x);
            nan &= isnan(x);
        }
        *bad_k = -1;
        return fin || nan ? NULL : "neither finite nor NaN (unset) in every component";
    }
    for (int k = 0; k < nc; k++) {
        *bad_k = k;
        if (t == FLOE_SNAP_F64) {
            double x = as_double(p + k * ts, t);
            int ok = 1;
            const char *what = "";
            switch (f->check) {
                case FLOE_CK_FINITE:
                    ok = isfinite(x), what = "is not finite";
                    break;
                case FLOE_CK_NOT_NAN:
                    ok = !isnan(x), what = "is NaN";
                    break;
                case FLOE_CK_NONNEG:
                    ok = x >= 0, what = "is not >= 0";
                    break;
                case FLOE_CK_FINITE_NONNEG:
                    ok = x >= 0 && isfinite(x), what = "is not finite >= 0";
                    break;
                case FLOE_CK_LENGTH:
                    ok = isfinite(x) && fabs(x) <= FLOE_SNAP_MAX_LENGTH, what = "is not finite, or beyond 1e15 m";
                    break;
                case FLOE_CK_LENGTH_NONNEG:
                    ok = x >= 0 && x <= FLOE_SNAP_MAX_LENGTH, what = "is not a finite length >= 0, at most 1e15 m";
                    break;
                case FLOE_CK_RANGE:
                    ok = x >= f->lo && x <= f->hi;
                    break;
                case FLOE_CK_RANGE_LO_OPEN:
                    ok = x > f->lo && x <= f->hi;
                    break;
                case FLOE_CK_RANGE_HI_OPEN:
                    ok = x >= f->lo && x < f->hi;
                    break;
                default:
                    break;
            }
            if (ok) continue;
            if (f->check == FLOE_CK_RANGE || f->check == FLOE_CK_RANGE_LO_OPEN || f->check == FLOE_CK_RANGE_HI_OPEN)
                snprintf(why, n, "%g is outside %c%g, %g%c", x, f->check == FLOE_CK_RANGE_LO_OPEN ? '(' : '[', f->lo,
                         f->hi, f->check == FLOE_CK_RANGE_HI_OPEN ? ')' : ']');
            else snprintf(why, n, "%g %s", x, what);
            return why;
        }
        int64_t v = as_int(p + k * ts, t);
        switch (f->check) {
            case FLOE_CK_FLAG:
                if (v == 0 || v == 1) continue;
                snprintf(why, n, "%" PRId64 " is not 0 or 1", v);
                return why;
            case FLOE_CK_COUNTER:
                if (v >= 0 && v <= FLOE_SNAP_MAX_COUNT) continue;
                snprintf(why, n, "%" PRId64 " is outside [0, 2^60]", v);
                return why;
            case FLOE_CK_RANGE:
                if (v >= f->lo && v <= f->hi) continue;
                snprintf(why, n, "%" PRId64 " is outside [%.0f, %.0f]", v, f->lo, f->hi);
                return why;
            case FLOE_CK_ID:
            case FLOE_CK_ID_OR_NONE: {
                int cnt = count_of(obj, f->ref);
                if ((v >= 0 && v < cnt) || (v == -1 && f->check == FLOE_CK_ID_OR_NONE)) continue;
                snprintf(why, n, "%s %" PRId64 " does not exist (%d %s%s)", f->ref->noun, v, cnt, f->ref->noun,
                         cnt == 1 ? "" : "s");
                return why;
            }
            case FLOE_CK_MASK:
                if (!((uint64_t)v & ~(uint64_t)f->lo)) continue;
                snprintf(why, n, "bits 0x%" PRIx64 " beyond the mask 0x%" PRIx64, (uint64_t)v & ~(uint64_t)f->lo,
                         (uint64_t)f->lo);
                return why;
            case FLOE_CK_GROUP_MASK: { /* the world's table only */
                const floe_world *w = obj;
                uint64_t known = w->ngroups >= 32 ? 0xffffffffu : (1u << w->ngroups) - 1;
                if (!((uint64_t)v & ~known)) continue;
                snprintf(why, n, "mask 0x%" PRIx64 " names groups that do not exist (%d groups)", (uint64_t)v,
                         w->ngroups);
                return why;
            }
            default:
                continue;
        }
    }
    return NULL;
}

void floe__snap_check_leaves(int *bad, char *err, size_t errlen, const void *obj, const table *t) {
    for (int i = 0; i < t->nleaves && !*bad; i++) {
        const leaf *lf = &t->leaves[i];
        const floe_snap_field *f = lf->f;
        if (f->check == FLOE_CK_NONE || f->type == FLOE_SNAP_STR ||
            (f->conv != FLOE_CONV_NONE && f->conv != FLOE_CONV_INT_AS_F64))
            continue;
        int n = count_of(obj, lf->rows);
        size_t stride;
        const char *base = leaf_base(obj, lf, &stride);
        for (int r = 0; r < n && !*bad; r++) {
            char buf[200], p[200];
            int k;
            const char *why = check_row(obj, f, base + (size_t)r * stride, &k, buf, sizeof buf);
            if (!why) continue;
            floe_snap_path(f->group, f->name, f->attr, p, sizeof p);
            char row[64] = "", comp[32] = "", col[80] = "";
            if (lf->rows) snprintf(row, sizeof row, "%s %d: ", lf->rows->noun, r);
            /* a state member's note names its columns in an item it shares */
            if (f->role == FLOE_SNAP_STATE && f->note) snprintf(col, sizeof col, "%s: ", f->note);
            if (f->ncomp > 1 && k >= 0) snprintf(comp, sizeof comp, "component %d: ", k);
            failf(bad, err, errlen, p, "%s%s%s%s", row, col, comp, why);
        }
    }
}

/* ---- any root: floe_snap_table_write, _read, _check ------------------------------------ */

int floe_snap_table_write(const floe_snap_struct *root, const void *obj, const floe_snap_writer *wr, char *err,
                          size_t errlen) {
    snap_out o = {wr, err, errlen, 0, NULL, 0};
    table *t = malloc(sizeof *t);
    if (!t) return floe__snap_out_fail(&o, "out of memory");
    if (floe__snap_table_build_root(t, root) != 0)
        floe__snap_out_fail(&o, "the table of %s cannot be walked: %s", root->name, t->unusable);
    for (int i = 0; i < t->nitems && !o.bad; i++) floe__snap_put_item(&o, obj, t, &t->items[i]);
    free(o.buf);
    free(t);
    return o.bad ? -1 : 0;
}

/* The item named "group/name" (a count item) split at its last '/'. */
static void split_item(const char *path, char *group, size_t n, const char **name) {
    const char *slash = strrchr(path, '/');
    size_t k = slash ? (size_t)(slash - path) : 0;
    if (k >= n) k = n - 1;
    memcpy(group, path, k);
    group[k] = 0;
    *name = slash ? slash + 1 : path;
}

/* Allocates the arrays of rows `rows` in obj, their count from the count
 * item. */
static void make_rows(floe_snap_in *in, const table *t, void *obj, const floe_snap_rows *rows) {
    char group[160];
    const char *name;
    split_item(rows->count_item, group, sizeof group, &name);
    long n = floe_snap_rows_of(in, group, name);
    if (in->bad) return;
    char *cnt = (char *)obj + rows->count_offset;
    if (rows->count_size == sizeof(size_t)) *(size_t *)(void *)cnt = (size_t)n;
    else *(int *)(void *)cnt = (int)n;
    for (int i = 0; i < t->nleaves && !in->bad; i++) {
        const leaf *lf = &t->leaves[i];
        if (lf->rows != rows || lf->inline_arr) continue;
        int made = 0; /* by an earlier member of the same structs */
        for (int k = 0; k < i && !made; k++) made = t->leaves[k].rows == rows && t->leaves[k].arr == lf->arr;
        void **arr = (void **)(void *)((char *)obj + lf->arr);
        if (!made && !(*arr = calloc((size_t)n + 1, lf->stride)))
            floe_snap_fail(in, "out of memory for %ld %ss", n, rows->noun);
    }
    if (in->bad) { /* the count stays with arrays that hold it, or none */
        if (rows->count_size == sizeof(size_t)) *(size_t *)(void *)cnt = 0;
        else *(int *)(void *)cnt = 0;
    }
}

int floe_snap_table_read(const floe_snap_struct *root, void *obj, floe_snap_in *in) {
    table *t = malloc(sizeof *t);
    if (!t) return floe_snap_fail(in, "out of memory");
    void *buf = NULL;
    size_t bufsize = 0;
    if (floe__snap_table_build_root(t, root) != 0)
        floe_snap_fail(in, "the table of %s cannot be walked: %s", root->name, t->unusable);
    /* the root's own values, then each kind of rows in the order of its first item */
    if (!in->bad) floe__snap_read_items(in, t, obj, NULL, 0, 0, 0, &buf, &bufsize);
    for (int i = 0; i < t->nitems && !in->bad; i++) {
        const floe_snap_rows *r = t->items[i].rows;
        int first = r != NULL;
        for (int k = 0; k < i && first; k++) first = t->items[k].rows != r;
        if (!first) continue;
        make_rows(in, t, obj, r);
        if (!in->bad) floe__snap_read_items(in, t, obj, r, 0, 0, 0, &buf, &bufsize);
    }
    free(buf);
    free(t);
    return in->bad ? -1 : 0;
}

int floe_snap_table_check(const floe_snap_struct *root, const void *obj, char *err, size_t errlen) {
    int bad = 0;
    table *t = malloc(sizeof *t);
    if (!t) return failf(&bad, err, errlen, NULL, "out of memory");
    if (floe__snap_table_build_root(t, root) != 0)
        failf(&bad, err, errlen, NULL, "the table of %s cannot be walked: %s", root->name, t->unusable);
    if (!bad) floe__snap_check_leaves(&bad, err, errlen, obj, t);
    free(t);
    return bad ? -1 : 0;
}
