/* Restart files in HDF5 (see restart.h and docs/restart.md).
 *
 * Everything that step() reads is written as it is in memory, so a loaded
 * world continues bit for bit: particle arrays, contacts in their order
 * (the order of force summation) with their raw model state, the broad-phase
 * pair list in its order (the order in which new contacts are created) with
 * its reference positions, dt and the step of the last dt check, and every
 * energy accumulator. Derived tables (material pair -> instance, cell grid)
 * are rebuilt. Model parameters are stored and restored by key, and models
 * by name, so a file survives a change of the registry order. */
#include "io/restart.h"

#include "core/world.h"
#include "io/atomic.h"
#include "io/csv.h"
#include "io/io_err.h"
#include "io/restart_check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(sizeof(vec3) == 3 * sizeof(double), "vec3 must be 3 packed doubles");
_Static_assert(sizeof(quat) == 4 * sizeof(double), "quat must be 4 packed doubles");

/* ---- small HDF5 layer: the first failure is kept, later calls do nothing ---- */

enum { T_F64, T_I64, T_I32, T_U32, T_U16, T_U8, T_I8 };

static hid_t mem_type(int t) {
    switch (t) {
        case T_F64:
            return H5T_NATIVE_DOUBLE;
        case T_I64:
            return H5T_NATIVE_INT64;
        case T_I32:
            return H5T_NATIVE_INT32;
        case T_U32:
            return H5T_NATIVE_UINT32;
        case T_U16:
            return H5T_NATIVE_UINT16;
        case T_U8:
            return H5T_NATIVE_UINT8;
        default:
            return H5T_NATIVE_INT8;
    }
}

/* Little-endian IEEE / two's complement on disk, whatever the host. */
static hid_t file_type(int t) {
    switch (t) {
        case T_F64:
            return H5T_IEEE_F64LE;
        case T_I64:
            return H5T_STD_I64LE;
        case T_I32:
            return H5T_STD_I32LE;
        case T_U32:
            return H5T_STD_U32LE;
        case T_U16:
            return H5T_STD_U16LE;
        case T_U8:
            return H5T_STD_U8LE;
        default:
            return H5T_STD_I8LE;
    }
}

typedef struct h5 {
    hid_t file;
    hid_t fcpl, gcpl, dcpl; /* writing: the root group, groups and datasets without timestamps */
    const char *path;
    int bad;
    char *err;
    size_t errlen;
} h5;

static int fail(h5 *c, const char *fmt, ...) {
    if (c->bad) return -1;
    c->bad = 1;
    if (c->err && c->errlen) {
        int n = snprintf(c->err, c->errlen, "%s: ", c->path);
        if (n >= 0 && (size_t)n < c->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

/* "/group/name" (sep '/': a dataset or group) or "/group@name" (an attribute). */
static const char *full_name(hid_t loc, const char *name, char sep, char *buf, size_t n) {
    char g[200] = "";
    if (H5Iget_name(loc, g, sizeof g) < 0) g[0] = 0;
    int root = !strcmp(g, "/") || !g[0];
    if (root && sep == '/') snprintf(buf, n, "/%s", name);
    else snprintf(buf, n, "%s%c%s", root ? "" : g, sep, name);
    return buf;
}

/* The class a stored value must have to be read as type t. */
static int class_ok(hid_t ft, int t) {
    H5T_class_t k = ft >= 0 ? H5Tget_class(ft) : H5T_NO_CLASS;
    return t == T_F64 ? k == H5T_FLOAT : k == H5T_INTEGER;
}

static hid_t group_new(h5 *c, hid_t loc, const char *name) {
    if (c->bad) return -1;
    hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, c->gcpl, H5P_DEFAULT);
    if (g < 0) fail(c, "cannot create group %s", name);
    return g;
}

static hid_t group_open(h5 *c, hid_t loc, const char *name) {
    if (c->bad) return -1;
    hid_t g = H5Lexists(loc, name, H5P_DEFAULT) > 0 ? H5Gopen2(loc, name, H5P_DEFAULT) : -1;
    char where[256];
    if (g < 0)
        fail(c, "missing group '%s' (not a floe restart file, or a damaged one)",
             full_name(loc, name, '/', where, sizeof where));
    return g;
}

static void group_close(hid_t g) {
    if (g >= 0) H5Gclose(g);
}

/* Dataset of rank 1-3; dims[0] may be 0. */
static void put(h5 *c, hid_t loc, const char *name, int t, int rank, const hsize_t *dims, const void *data) {
    if (c->bad) return;
    static const double dummy[1] = {0};
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t ds = sp >= 0 ? H5Dcreate2(loc, name, file_type(t), sp, H5P_DEFAULT, c->dcpl, H5P_DEFAULT) : -1;
    if (ds < 0 || H5Dwrite(ds, mem_type(t), H5S_ALL, H5S_ALL, H5P_DEFAULT, data ? data : dummy) < 0)
        fail(c, "cannot write dataset %s", name);
    if (ds >= 0) H5Dclose(ds);
    if (sp >= 0) H5Sclose(sp);
}

static void put1(h5 *c, hid_t loc, const char *name, int t, size_t n, const void *data) {
    hsize_t d[1] = {n};
    put(c, loc, name, t, 1, d, data);
}

static void put2(h5 *c, hid_t loc, const char *name, int t, size_t n, size_t m, const void *data) {
    hsize_t d[2] = {n, m};
    put(c, loc, name, t, 2, d, data);
}

/* Attribute with n values (n == 0: a scalar). */
static void attr(h5 *c, hid_t loc, const char *name, int t, size_t n, const void *data) {
    if (c->bad) return;
    hsize_t d[1] = {n};
    hid_t sp = n ? H5Screate_simple(1, d, NULL) : H5Screate(H5S_SCALAR);
    hid_t a = sp >= 0 ? H5Acreate2(loc, name, file_type(t), sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (a < 0 || H5Awrite(a, mem_type(t), data) < 0) fail(c, "cannot write attribute %s", name);
    if (a >= 0) H5Aclose(a);
    if (sp >= 0) H5Sclose(sp);
}

static void attr_f(h5 *c, hid_t loc, const char *name, double v) { attr(c, loc, name, T_F64, 0, &v); }
static void attr_i(h5 *c, hid_t loc, const char *name, int64_t v) { attr(c, loc, name, T_I64, 0, &v); }

static hid_t str_type(size_t len) {
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0) {
        H5Tset_size(t, len);
        H5Tset_strpad(t, H5T_STR_NULLTERM);
        H5Tset_cset(t, H5T_CSET_UTF8);
    }
    return t;
}

static void attr_s(h5 *c, hid_t loc, const char *name, const char *s) {
    if (c->bad) return;
    hid_t t = str_type(strlen(s) + 1);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = t >= 0 && sp >= 0 ? H5Acreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (a < 0 || H5Awrite(a, t, s) < 0) fail(c, "cannot write attribute %s", name);
    if (a >= 0) H5Aclose(a);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
}

/* A 1-D dataset of n fixed-length strings. */
static void put_strings(h5 *c, hid_t loc, const char *name, const char *const *s, size_t n) {
    if (c->bad) return;
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        if (strlen(s[i]) + 1 > len) len = strlen(s[i]) + 1;
    char *buf = calloc(n ? n : 1, len);
    if (!buf) {
        fail(c, "out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) memcpy(buf + i * len, s[i], strlen(s[i]));
    hsize_t d[1] = {n};
    hid_t t = str_type(len);
    hid_t sp = H5Screate_simple(1, d, NULL);
    hid_t ds = t >= 0 && sp >= 0 ? H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, c->dcpl, H5P_DEFAULT) : -1;
    if (ds < 0 || H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) fail(c, "cannot write dataset %s", name);
    if (ds >= 0) H5Dclose(ds);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    free(buf);
}

/* Rank and dimensions of a dataset; -1 if it is missing. */
static int shape_of(h5 *c, hid_t loc, const char *name, hsize_t dims[3]) {
    if (c->bad) return -1;
    char where[256];
    full_name(loc, name, '/', where, sizeof where);
    if (H5Lexists(loc, name, H5P_DEFAULT) <= 0) return fail(c, "missing dataset '%s'", where);
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t sp = ds >= 0 ? H5Dget_space(ds) : -1;
    int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (rank < 1 || rank > 3 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0) rank = -1;
    if (sp >= 0) H5Sclose(sp);
    if (ds >= 0) H5Dclose(ds);
    if (rank < 0) return fail(c, "dataset '%s' is unreadable or has an unexpected shape", where);
    return rank;
}

/* Length of a 1-D (or first dimension of an N-D) dataset, refusing sizes
 * that do not fit in an int (the world's counters). */
static int count_of(h5 *c, hid_t loc, const char *name) {
    hsize_t d[3];
    if (shape_of(c, loc, name, d) < 0) return -1;
    char where[256];
    if (d[0] > (hsize_t)(1 << 30))
        return fail(c, "dataset '%s' has %llu rows: too many", full_name(loc, name, '/', where, sizeof where),
                    (unsigned long long)d[0]);
    return (int)d[0];
}

/* Reads a dataset that must have exactly n x m elements (m = 1: rank 1). */
static void get(h5 *c, hid_t loc, const char *name, int t, size_t n, size_t m, void *data) {
    hsize_t d[3];
    int rank = shape_of(c, loc, name, d);
    if (rank < 0) return;
    hsize_t total = 1;
    char where[256];
    full_name(loc, name, '/', where, sizeof where);
    for (int k = 0; k < rank; k++) total *= d[k];
    /* rows of m values: a 2-D table of m columns, or a 1-D list if m == 1 */
    if (d[0] != n || total != (hsize_t)n * m || (m > 1 && rank == 2 && d[1] != m)) {
        fail(c, "dataset '%s' has %llu values, expected %zu x %zu", where, (unsigned long long)total, n, m);
        return;
    }
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t ft = ds >= 0 ? H5Dget_type(ds) : -1;
    if (!class_ok(ft, t))
        fail(c, "dataset '%s' holds %s, expected %s", where,
             t == T_F64 ? "integers (or other non-float values)" : "non-integer values",
             t == T_F64 ? "floating-point numbers" : "integers");
    else if (total > 0 && H5Dread(ds, mem_type(t), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        fail(c, "cannot read dataset '%s'", where);
    if (ft >= 0) H5Tclose(ft);
    if (ds >= 0) H5Dclose(ds);
}

static int has_attr(hid_t loc, const char *name) { return H5Aexists(loc, name) > 0; }

/* Reads an attribute of exactly n values (0: scalar). */
static void get_attr(h5 *c, hid_t loc, const char *name, int t, size_t n, void *data) {
    if (c->bad) return;
    char where[256];
    full_name(loc, name, '@', where, sizeof where);
    if (!has_attr(loc, name)) {
        fail(c, "missing attribute '%s'", where);
        return;
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t sp = a >= 0 ? H5Aget_space(a) : -1;
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    hssize_t np = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (!class_ok(ft, t))
        fail(c, "attribute '%s' holds %s, expected %s", where, t == T_F64 ? "non-float values" : "non-integer values",
             t == T_F64 ? "a floating-point number" : "an integer");
    else if (np != (hssize_t)(n ? n : 1) || H5Aread(a, mem_type(t), data) < 0)
        fail(c, "attribute '%s' is unreadable or has %lld values (expected %zu)", where, (long long)np, n ? n : 1);
    if (ft >= 0) H5Tclose(ft);
    if (sp >= 0) H5Sclose(sp);
    if (a >= 0) H5Aclose(a);
}

static double get_f(h5 *c, hid_t loc, const char *name) {
    double v = 0;
    get_attr(c, loc, name, T_F64, 0, &v);
    return v;
}

static int64_t get_i(h5 *c, hid_t loc, const char *name) {
    int64_t v = 0;
    get_attr(c, loc, name, T_I64, 0, &v);
    return v;
}

/* An integer attribute that must lie in [lo, hi] (checked before it is
 * narrowed to an int); lo if it does not. */
static int64_t get_in(h5 *c, hid_t loc, const char *name, int64_t lo, int64_t hi) {
    int64_t v = get_i(c, loc, name);
    char where[256];
    if (!c->bad && (v < lo || v > hi))
        fail(c, "attribute '%s': %lld is outside [%lld, %lld]", full_name(loc, name, '@', where, sizeof where),
             (long long)v, (long long)lo, (long long)hi);
    return c->bad ? lo : v;
}

/* A string attribute into buf (truncated to cap - 1). */
static void get_s(h5 *c, hid_t loc, const char *name, char *buf, size_t cap) {
    buf[0] = 0;
    if (c->bad) return;
    char where[256];
    full_name(loc, name, '@', where, sizeof where);
    if (!has_attr(loc, name)) {
        fail(c, "missing attribute '%s'", where);
        return;
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    size_t len = ft >= 0 && H5Tget_class(ft) == H5T_STRING && !H5Tis_variable_str(ft) ? H5Tget_size(ft) : 0;
    char *tmp = len ? calloc(len + 1, 1) : NULL;
    hid_t mt = len ? str_type(len) : -1;
    if (!tmp || mt < 0 || H5Aread(a, mt, tmp) < 0) fail(c, "attribute '%s' is not a readable string", where);
    else snprintf(buf, cap, "%s", tmp);
    free(tmp);
    if (mt >= 0) H5Tclose(mt);
    if (ft >= 0) H5Tclose(ft);
    if (a >= 0) H5Aclose(a);
}

/* n fixed-length strings; returns one block: n pointers followed by the
 * text (free() once), or NULL. */
static char **get_strings(h5 *c, hid_t loc, const char *name, size_t n) {
    hsize_t d[3];
    int rank = shape_of(c, loc, name, d);
    if (rank < 0) return NULL;
    char where[256];
    full_name(loc, name, '/', where, sizeof where);
    if (rank != 1 || d[0] != n) {
        fail(c, "dataset '%s' has %llu strings, expected %zu", where, (unsigned long long)d[0], n);
        return NULL;
    }
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t ft = ds >= 0 ? H5Dget_type(ds) : -1;
    size_t len = ft >= 0 && H5Tget_class(ft) == H5T_STRING && !H5Tis_variable_str(ft) ? H5Tget_size(ft) : 0;
    char **out = NULL;
    char *text = len && len < 65536 ? calloc(n ? n : 1, len + 1) : NULL;
    hid_t mt = len ? str_type(len + 1) : -1;
    if (!text || mt < 0 || (n && H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, text) < 0)) {
        fail(c, "dataset '%s' is not readable as strings", where);
    } else if (!(out = malloc(sizeof *out * (n ? n : 1) + n * (len + 1) + 1))) {
        fail(c, "out of memory");
    } else {
        char *dst = (char *)(out + (n ? n : 1));
        for (size_t i = 0; i < n; i++) {
            memcpy(dst, text + i * (len + 1), len + 1);
            dst[len] = 0;
            out[i] = dst;
            dst += len + 1;
        }
    }
    free(text);
    if (mt >= 0) H5Tclose(mt);
    if (ft >= 0) H5Tclose(ft);
    if (ds >= 0) H5Dclose(ds);
    return out;
}

/* ---- writing ---------------------------------------------------------------- */

/* "0 sphere, 1 wall, ...": the values of /particles/shape, from the shape classes. */
static const char *shape_names(char *buf, size_t len) {
    int n = 0;
    buf[0] = 0;
    for (int t = 0; t < FLOE_SHAPE_COUNT && n >= 0 && (size_t)n < len; t++)
        n += snprintf(buf + n, len - (size_t)n, "%s%d %s", t ? ", " : "", t, floe_shape_class_get(t)->title);
    return buf;
}

/* Values per record of a shape field, and the dataset's dimensions after the
 * first (records): rank 1, 2 or 3. */
static size_t field_values(const floe_shape_field *f, hsize_t *dims, int *rank) {
    *rank = 1 + (f->rows > 0) + (f->cols > 0);
    dims[1] = (hsize_t)f->rows;
    dims[2] = (hsize_t)f->cols;
    return (size_t)(f->rows > 0 ? f->rows : 1) * (size_t)(f->cols > 0 ? f->cols : 1);
}

/* The shape records of one class as the datasets of its fields (a loop over
 * the classes replaces per-shape code: a new shape needs nothing here). */
static void write_shape_table(h5 *c, const floe_world *w, const floe_shape_class *cls) {
    const floe_shape_store *st = &w->store[cls->type];
    size_t n = (size_t)st->n;
    hid_t g = group_new(c, c->file, cls->section);
    for (int f = 0; f < cls->nfields && !c->bad; f++) {
        const floe_shape_field *fd = &cls->fields[f];
        hsize_t d[3];
        int rank;
        size_t m = field_values(fd, d, &rank);
        d[0] = n;
        void *buf = malloc(sizeof(double) * (n * m + 1));
        if (!buf) {
            fail(c, "out of memory");
            break;
        }
        for (size_t k = 0; k < n; k++) {
            const unsigned char *r = st->rec + k * cls->size + fd->offset;
            for (size_t j = 0; j < m; j++)
                if (fd->type == FLOE_FIELD_F64)
                    memcpy((double *)buf + k * m + j, r + j * sizeof(double), sizeof(double));
                else {
                    int v;
                    memcpy(&v, r + j * sizeof(int), sizeof v);
                    ((int32_t *)buf)[k * m + j] = v;
                }
        }
        put(c, g, fd->name, fd->type == FLOE_FIELD_F64 ? T_F64 : T_I32, rank, d, buf);
        free(buf);
    }
    if (cls->frame) attr_s(c, g, "frame", cls->frame);
    group_close(g);
}

static void write_world_attrs(h5 *c, const floe_world *w) {
    hid_t g = group_new(c, c->file, "world");
    if (g < 0) return;
    const floe_world_def *d = &w->def;
    attr(c, g, "gravity", T_F64, 3, &d->gravity);
    attr_f(c, g, "def_dt", d->dt);
    attr_f(c, g, "dt_safety", d->dt_safety);
    attr_i(c, g, "dyn_dt_period", d->dyn_dt_period);
    attr_f(c, g, "damping", d->damping);
    attr_f(c, g, "def_skin", d->skin);
    attr_i(c, g, "legacy_lens", d->legacy_lens);
    attr_i(c, g, "threads", d->threads);
    attr_i(c, g, "renorm_period", d->renorm_period);
    attr_i(c, g, "dimension", d->dimension);
    attr_i(c, g, "step", w->step);
    attr_f(c, g, "time", w->time);
    attr_f(c, g, "dt", w->dt);
    attr_i(c, g, "dt_auto", w->dt_auto);
    attr_i(c, g, "last_dyn_dt", w->last_dyn_dt);
    attr_i(c, g, "started", w->started);
    attr_i(c, g, "stopped", w->stopped);
    attr_f(c, g, "rmax", w->rmax);
    attr_f(c, g, "skin", w->skin);
    attr_i(c, g, "n_breaks", w->n_breaks);
    attr(c, g, "box_centre", T_F64, 3, &w->box_centre);
    attr_f(c, g, "box_reach2", w->box_reach2);
    group_close(g);

    g = group_new(c, c->file, "energy");
    attr_f(c, g, "elastic", w->e_elastic);
    attr_f(c, g, "plastic", w->e_plastic);
    attr_f(c, g, "damping", w->e_damping);
    attr_f(c, g, "dashpot", w->e_dashpot);
    attr_f(c, g, "broken", w->e_broken);
    attr_f(c, g, "boundary", w->e_boundary);
    attr_f(c, g, "gravity_work", w->e_gravity_work);
    attr_f(c, g, "total0", w->e_total0);
    group_close(g);
}

/* Every registered model: its parameter keys (the order of the stored
 * parameter rows) and the size and exported names of its contact state. */
static void write_models(h5 *c) {
    hid_t g = group_new(c, c->file, "models");
    for (int i = 0; i < floe_registry_count() && !c->bad; i++) {
        const floe_model *m = floe_registry_get(i);
        hid_t mg = group_new(c, g, m->info.name);
        const char *keys[FLOE_MAX_MAT_PARAMS + FLOE_MAX_LAW_PARAMS + 1];
        for (int k = 0; k < m->info.n_mat_params; k++) keys[k] = m->info.mat_params[k].key;
        put_strings(c, mg, "mat_params", keys, (size_t)m->info.n_mat_params);
        for (int k = 0; k < m->info.n_law_params; k++) keys[k] = m->info.law_params[k].key;
        put_strings(c, mg, "law_params", keys, (size_t)m->info.n_law_params);
        put_strings(c, mg, "state_names", (const char *const *)m->info.state_names, (size_t)m->info.n_state);
        attr_i(c, mg, "state_size", (int64_t)m->state_size);
        attr_i(c, mg, "registry_index", i);
        group_close(mg);
    }
    group_close(g);
}

static void write_setup(h5 *c, const floe_world *w) {
    size_t n = (size_t)w->nmats;
    const char **names = malloc(sizeof *names * (n + w->ninsts + 1));
    const char **models = malloc(sizeof *models * (n + w->ninsts + 1));
    /* zeroed: the slots past a model's own parameters hold nothing (and
     * were never initialised), yet the file must be the same byte for byte */
    double *p = calloc((n + 1) * (FLOE_MAX_MAT_PARAMS + FLOE_MAX_LAW_PARAMS), sizeof *p);
    if (!names || !models || !p) {
        fail(c, "out of memory");
        goto out;
    }
    hid_t g = group_new(c, c->file, "materials");
    for (size_t i = 0; i < n; i++) {
        names[i] = w->mats[i].name;
        models[i] = floe_registry_get(w->mats[i].model)->info.name;
        int np = floe_registry_get(w->mats[i].model)->info.n_mat_params;
        memcpy(p + i * FLOE_MAX_MAT_PARAMS, w->mats[i].p, sizeof *p * (size_t)np);
    }
    put_strings(c, g, "name", names, n);
    put_strings(c, g, "model", models, n);
    put2(c, g, "params", T_F64, n, FLOE_MAX_MAT_PARAMS, p);
    attr_s(c, g, "params_order", "the keys of /models/<model>/mat_params, then unused slots");
    group_close(g);

    g = group_new(c, c->file, "instances");
    size_t ni = (size_t)w->ninsts;
    free(p);
    p = calloc((ni + 1) * FLOE_MAX_LAW_PARAMS, sizeof *p);
    if (!p) {
        fail(c, "out of memory");
        group_close(g);
        goto out;
    }
    for (size_t i = 0; i < ni; i++) {
        models[i] = floe_registry_get(w->insts[i].model)->info.name;
        int np = floe_registry_get(w->insts[i].model)->info.n_law_params;
        memcpy(p + i * FLOE_MAX_LAW_PARAMS, w->insts[i].lp, sizeof *p * (size_t)np);
    }
    put_strings(c, g, "model", models, ni);
    put2(c, g, "law_params", T_F64, ni, FLOE_MAX_LAW_PARAMS, p);
    attr_i(c, g, "n_defaults", floe_registry_count());
    attr_s(c, g, "doc",
           "the first n_defaults instances are the models' world-wide defaults; "
           "overrides rows are (material a, material b, instance)");
    int32_t *ov = malloc(sizeof *ov * 3 * ((size_t)w->noverrides + 1));
    if (!ov) fail(c, "out of memory");
    for (int i = 0; ov && i < w->noverrides; i++) {
        ov[3 * i] = w->overrides[i].a;
        ov[3 * i + 1] = w->overrides[i].b;
        ov[3 * i + 2] = w->overrides[i].inst;
    }
    put2(c, g, "overrides", T_I32, (size_t)w->noverrides, 3, ov);
    free(ov);
    group_close(g);

    /* groups */
    g = group_new(c, c->file, "groups");
    int ng = w->ngroups;
    int32_t flags[2 * FLOE_MAX_GROUPS];
    double vec[5 * 3 * FLOE_MAX_GROUPS], tw[2 * FLOE_MAX_GROUPS];
    const char *gn[FLOE_MAX_GROUPS];
    for (int i = 0; i < ng; i++) {
        const floe_group *gr = &w->groups_[i];
        gn[i] = gr->name;
        flags[i] = gr->has_motion;
        flags[FLOE_MAX_GROUPS + i] = gr->has_load;
        memcpy(vec + 3 * i, &gr->motion.vel, sizeof(vec3));
        memcpy(vec + 3 * (FLOE_MAX_GROUPS + i), &gr->motion.angvel, sizeof(vec3));
        memcpy(vec + 3 * (2 * FLOE_MAX_GROUPS + i), &gr->load_f, sizeof(vec3));
        memcpy(vec + 3 * (3 * FLOE_MAX_GROUPS + i), &gr->load_t, sizeof(vec3));
        tw[2 * i] = gr->motion.t_start;
        tw[2 * i + 1] = gr->motion.t_end;
    }
    put_strings(c, g, "name", gn, (size_t)ng);
    put1(c, g, "has_motion", T_I32, (size_t)ng, flags);
    put1(c, g, "has_load", T_I32, (size_t)ng, flags + FLOE_MAX_GROUPS);
    put2(c, g, "motion_vel", T_F64, (size_t)ng, 3, vec);
    put2(c, g, "motion_angvel", T_F64, (size_t)ng, 3, vec + 3 * FLOE_MAX_GROUPS);
    put2(c, g, "motion_window", T_F64, (size_t)ng, 2, tw);
    put2(c, g, "load_force", T_F64, (size_t)ng, 3, vec + 6 * FLOE_MAX_GROUPS);
    put2(c, g, "load_torque", T_F64, (size_t)ng, 3, vec + 9 * FLOE_MAX_GROUPS);
    group_close(g);

    /* scheduled methods */
    g = group_new(c, c->file, "schedule");
    size_t ns = (size_t)w->nsched;
    int64_t *st = malloc(sizeof *st * (ns + 1));
    int32_t *gi = malloc(sizeof *gi * 2 * (ns + 1));
    double *args = malloc(sizeof *args * FLOE_MAX_METHOD_ARGS * (ns + 1));
    const char **mm = malloc(sizeof *mm * 2 * (ns + 1));
    if (!st || !gi || !args || !mm) fail(c, "out of memory");
    for (size_t i = 0; !c->bad && i < ns; i++) {
        const floe_scheduled *s = &w->sched[i];
        st[i] = s->step;
        gi[i] = s->group;
        gi[ns + i] = s->nargs;
        memcpy(args + i * FLOE_MAX_METHOD_ARGS, s->args, sizeof s->args);
        mm[i] = s->model;
        mm[ns + i] = s->method;
    }
    if (!c->bad) {
        put1(c, g, "step", T_I64, ns, st);
        put_strings(c, g, "model", mm, ns);
        put_strings(c, g, "method", mm + ns, ns);
        put1(c, g, "group", T_I32, ns, gi);
        put1(c, g, "nargs", T_I32, ns, gi + ns);
        put2(c, g, "args", T_F64, ns, FLOE_MAX_METHOD_ARGS, args);
    }
    free(st);
    free(gi);
    free(args);
    free(mm);
    group_close(g);
out:
    free(names);
    free(models);
    free(p);
}

static void write_particles(h5 *c, const floe_world *w) {
    size_t n = (size_t)w->np;
    hid_t g = group_new(c, c->file, "particles");
    put2(c, g, "pos", T_F64, n, 3, w->pos);
    put2(c, g, "vel", T_F64, n, 3, w->vel);
    put2(c, g, "angvel", T_F64, n, 3, w->angvel);
    put2(c, g, "ori", T_F64, n, 4, w->ori);
    put2(c, g, "force", T_F64, n, 3, w->force);
    put2(c, g, "torque", T_F64, n, 3, w->torque);
    put1(c, g, "mass", T_F64, n, w->mass);
    put2(c, g, "inertia", T_F64, n, 3, w->inertia);
    put2(c, g, "angmom", T_F64, n, 3, w->angmom);
    put1(c, g, "bound", T_F64, n, w->bound);
    put1(c, g, "radius", T_F64, n, w->radius);
    put1(c, g, "shape", T_U8, n, w->shape);
    put1(c, g, "shape_index", T_I32, n, w->shape_idx);
    put1(c, g, "material", T_I32, n, w->mat);
    put1(c, g, "blocked", T_U32, n, w->blocked);
    put1(c, g, "groups", T_U32, n, w->groups);
    char names[256];
    attr_s(c, g, "shape_values", shape_names(names, sizeof names));
    attr_s(c, g, "inertia_frame", "principal moments, body frame; angmom: global (NaN: from angvel)");
    attr_s(c, g, "ori_order", "w, x, y, z (body to global)");
    group_close(g);

    for (int t = 0; t < FLOE_SHAPE_COUNT; t++)
        if (floe_shape_class_get(t)->size) write_shape_table(c, w, floe_shape_class_get(t));
}

/* Copies one field of every contact into buf (stride = field size). */
#define GATHER(buf, type, expr)                   \
    do {                                          \
        type *b_ = (type *)(buf);                 \
        for (size_t k_ = 0; k_ < n; k_++) {       \
            const floe_contact *ct = &w->con[k_]; \
            b_[k_] = (expr);                      \
        }                                         \
    } while (0)

static void write_contacts(h5 *c, const floe_world *w) {
    size_t n = (size_t)w->ncon;
    hid_t g = group_new(c, c->file, "contacts");
    void *buf = malloc(sizeof(double) * 3 * (n + 1));
    if (!buf) {
        fail(c, "out of memory");
        group_close(g);
        return;
    }
    GATHER(buf, int32_t, ct->a);
    put1(c, g, "a", T_I32, n, buf);
    GATHER(buf, int32_t, ct->b);
    put1(c, g, "b", T_I32, n, buf);
    GATHER(buf, int32_t, ct->inst);
    put1(c, g, "instance", T_I32, n, buf);
    GATHER(buf, int32_t, ct->nbr);
    put1(c, g, "pair", T_I32, n, buf);
    GATHER(buf, uint8_t, ct->flags);
    put1(c, g, "flags", T_U8, n, buf);
    GATHER(buf, int8_t, ct->side);
    put1(c, g, "side", T_I8, n, buf);
    GATHER(buf, uint32_t, ct->detail);
    put1(c, g, "detail", T_U32, n, buf);
    GATHER(buf, int64_t, ct->step_created);
    put1(c, g, "step_created", T_I64, n, buf);
    GATHER(buf, double, ct->g.uN);
    put1(c, g, "uN", T_F64, n, buf);
    GATHER(buf, double, ct->g.area);
    put1(c, g, "area", T_F64, n, buf);
    GATHER(buf, double, ct->kn);
    put1(c, g, "kn", T_F64, n, buf);
    GATHER(buf, double, ct->kt);
    put1(c, g, "kt", T_F64, n, buf);
    GATHER(buf, double, ct->kw);
    put1(c, g, "kw", T_F64, n, buf);
    GATHER(buf, double, ct->kr);
    put1(c, g, "kr", T_F64, n, buf);
    for (size_t k = 0; k < n; k++) memcpy((double *)buf + 2 * k, w->con[k].g.lens, sizeof w->con[k].g.lens);
    put2(c, g, "lens", T_F64, n, 2, buf);
    static const char *const vnames[] = {"normal", "t1", "point", "force", "torque"};
    for (int f = 0; f < 5; f++) {
        vec3 *b = buf;
        for (size_t k = 0; k < n; k++) {
            const floe_contact *ct = &w->con[k];
            const vec3 src[5] = {ct->g.n, ct->g.t1, ct->g.c, ct->f, ct->m};
            b[k] = src[f];
        }
        put2(c, g, vnames[f], T_F64, n, 3, buf);
    }
    free(buf);
    attr_s(c, g, "frame", "force, torque: local (normal, t1, t2 = normal x t1) on A");
    /* raw model state, exact; the exported values below are for reading */
    put2(c, g, "state", T_U8, n, w->cstride, w->cstate);
    attr_i(c, g, "state_stride", (int64_t)w->cstride);
    attr_s(c, g, "state_doc",
           "row k: the raw state of contact k's model (/models/<model>/state_size bytes); "
           "model_state/<model> holds the same state as named values");
    hid_t ms = group_new(c, g, "model_state");
    for (int m = 0; m < floe_registry_count() && !c->bad; m++) {
        const floe_model *mod = floe_registry_get(m);
        size_t cnt = 0;
        for (size_t k = 0; k < n; k++) cnt += w->insts[w->con[k].inst].model == m;
        if (!cnt || mod->info.n_state <= 0) continue;
        int ns = mod->info.n_state;
        int32_t *idx = malloc(sizeof *idx * cnt);
        double *val = malloc(sizeof *val * cnt * (size_t)ns);
        if (!idx || !val) fail(c, "out of memory");
        for (size_t k = 0, j = 0; idx && val && k < n; k++) {
            if (w->insts[w->con[k].inst].model != m) continue;
            idx[j] = (int32_t)k;
            mod->get_state(&w->con[k], w->cstate + k * w->cstride, val + j * (size_t)ns);
            j++;
        }
        hid_t mg = group_new(c, ms, mod->info.name);
        put1(c, mg, "contact", T_I32, cnt, idx);
        put2(c, mg, "values", T_F64, cnt, (size_t)ns, val);
        put_strings(c, mg, "names", (const char *const *)mod->info.state_names, (size_t)ns);
        group_close(mg);
        free(idx);
        free(val);
    }
    group_close(ms);
    group_close(g);

    g = group_new(c, c->file, "broadphase");
    const floe_broadphase *bp = &w->bp;
    put2(c, g, "pairs", T_I32, (size_t)bp->npairs, 3, bp->pairs);
    attr_s(c, g, "pairs_doc", "candidate pairs in list order: a, b, live contact index or -1");
    size_t np = (size_t)w->np;
    /* before the first rebuild the reference arrays hold nothing */
    vec3 *rp = bp->valid ? bp->ref_pos : calloc(np + 1, sizeof *rp);
    quat *ro = bp->valid ? bp->ref_ori : calloc(np + 1, sizeof *ro);
    if (!rp || !ro) fail(c, "out of memory");
    put2(c, g, "ref_pos", T_F64, np, 3, rp);
    put2(c, g, "ref_ori", T_F64, np, 4, ro);
    if (!bp->valid) {
        free(rp);
        free(ro);
    }
    attr_f(c, g, "margin", bp->margin);
    attr_f(c, g, "max_moved2", bp->max_moved2);
    attr_i(c, g, "valid", bp->valid);
    attr_i(c, g, "rebuilds", bp->rebuilds);
    group_close(g);
}

static void write_run(h5 *c, const floe_restart *r) {
    hid_t g = group_new(c, c->file, "run");
    attr_i(c, g, "steps", r->scene.steps);
    attr_f(c, g, "duration", r->scene.duration);
    attr_i(c, g, "total_steps", r->total_steps);
    attr_i(c, g, "restart_every", r->restart_every);
    attr_s(c, g, "scene", r->scene.path);
    group_close(g);

    const floe_output_config *o = &r->scene.out;
    g = group_new(c, c->file, "output_config");
    int64_t iv[] = {o->vtk.steps, o->energy.steps, o->history.steps, o->progress.steps};
    double dv[] = {o->vtk.interval, o->energy.interval, o->history.interval, o->progress.interval};
    attr(c, g, "every_steps", T_I64, 4, iv);
    attr(c, g, "every_interval", T_F64, 4, dv);
    attr_s(c, g, "every_order", "vtk, energy, history, progress");
    attr_i(c, g, "vtk_contacts", o->vtk_contacts);
    attr_i(c, g, "vtk_boundaries", o->vtk_boundaries);
    attr_i(c, g, "vtk_shapes", o->vtk_shapes);
    attr_i(c, g, "final_state", o->final_state);
    attr_i(c, g, "events_skip", o->events_skip);
    size_t nh = (size_t)(o->n_history_cols > 0 ? o->n_history_cols : 0);
    const char **names = malloc(sizeof *names * 2 * (nh + 1));
    int32_t *iv2 = malloc(sizeof *iv2 * 5 * (nh + 1));
    if (!names || !iv2) fail(c, "out of memory");
    for (size_t i = 0; names && iv2 && i < nh; i++) {
        const floe_history_column *h = &o->history_cols[i];
        names[i] = h->name;
        names[nh + i] = h->quantity;
        iv2[5 * i] = (int32_t)h->kind;
        iv2[5 * i + 1] = h->a;
        iv2[5 * i + 2] = h->b;
        iv2[5 * i + 3] = h->group;
        iv2[5 * i + 4] = h->energy;
    }
    if (names && iv2) {
        hid_t hg = group_new(c, g, "history_columns");
        put_strings(c, hg, "name", names, nh);
        put_strings(c, hg, "quantity", names + nh, nh);
        put2(c, hg, "kind_a_b_group_energy", T_I32, nh, 5, iv2);
        group_close(hg);
    }
    free(names);
    free(iv2);
    group_close(g);

    if (!r->has_output) return;
    const floe_output_state *s = &r->output;
    g = group_new(c, c->file, "output");
    int64_t streams[9] = {s->vtk.period,  s->vtk.next,       s->vtk.last,     s->energy.period, s->energy.next,
                          s->energy.last, s->history.period, s->history.next, s->history.last};
    put2(c, g, "streams", T_I64, 3, 3, streams);
    attr_s(c, g, "streams_doc",
           "rows vtk, energy, history; columns period, next due step, last step written; "
           "period -1: by time, next is the index k of the time k * interval");
    attr_i(c, g, "width", s->width);
    attr(c, g, "csv_bytes", T_I64, 3, s->csv_bytes);
    attr_s(c, g, "csv_doc", "bytes of energy.csv, history.csv, events.csv at this step (-1: none)");
    put1(c, g, "frame_step", T_I64, s->nframes, s->frame_step);
    put1(c, g, "frame_time", T_F64, s->nframes, s->frame_time);
    const char *seen[64];
    size_t nseen = 0;
    for (int m = 0; m < floe_registry_count() && m < 64; m++)
        if (s->models_seen >> m & 1u) seen[nseen++] = floe_registry_get(m)->info.name;
    put_strings(c, g, "models_seen", seen, nseen);
    group_close(g);
}

static void hdf5_quiet(H5E_auto2_t *fn, void **data) {
    H5Eget_auto2(H5E_DEFAULT, fn, data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors are reported through err */
}

static hid_t file_access(void) {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* no lock files: a killed writer must not block the next reader */
    if (fapl >= 0) H5Pset_file_locking(fapl, 0, 1);
    /* closing the file closes whatever a failed read left open */
    if (fapl >= 0) H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
    return fapl;
}

/* The file is built in memory (HDF5's core driver) and written out by
 * write_image(): a full disk or a file size limit then fails in a plain
 * write() with its errno, never inside HDF5. (HDF5 1.10 cannot recover from
 * a write error in H5Fclose: the file stays half-closed and the library
 * crashes when it shuts down at exit.) The callbacks keep the driver's
 * buffer at close instead of freeing it, so the image is not copied. */
typedef struct image {
    unsigned char *buf;
    size_t size, cap; /* bytes the driver uses (its end of file); allocated */
    int keep;         /* set for our own H5Fclose: the buffer outlives the file */
} image;

static void *image_realloc(void *p, size_t n, H5FD_file_image_op_t op, void *udata) {
    (void)op;
    image *im = udata;
    if (p != im->buf) return NULL; /* one file, one buffer */
    if (n > im->cap) {             /* geometric growth: the driver grows it write by write */
        size_t cap = im->cap * 2 > n ? im->cap * 2 : n;
        unsigned char *q = realloc(im->buf, cap);
        if (!q) return NULL;
        im->buf = q;
        im->cap = cap;
    }
    im->size = n;
    return im->buf;
}

static void *image_malloc(size_t n, H5FD_file_image_op_t op, void *udata) {
    image *im = udata;
    return im->buf ? NULL : image_realloc(NULL, n, op, udata);
}

static void *image_memcpy(void *dst, const void *src, size_t n, H5FD_file_image_op_t op, void *udata) {
    (void)op;
    (void)udata;
    return memcpy(dst, src, n);
}

/* H5Fcreate may first open an existing file of that name, and close it:
 * only the buffer of the file we close ourselves is kept. */
static herr_t image_free(void *p, H5FD_file_image_op_t op, void *udata) {
    image *im = udata;
    if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && im->keep && p == im->buf) return 0;
    if (p == im->buf) *im = (image){0};
    free(p);
    return 0;
}

static void *image_udata_copy(void *udata) { return udata; }
static herr_t image_udata_free(void *udata) {
    (void)udata;
    return 0;
}

/* The message for a failed write: a full disk is named as such. */
static const char *write_error(int e) {
#ifdef EDQUOT
    if (e == EDQUOT) return "disk full or file size limit reached (disk quota exceeded)";
#endif
    if (e == ENOSPC) return "disk full or file size limit reached (no space left on the device)";
    if (e == EFBIG) return "disk full or file size limit reached (file too large)";
    return strerror(e);
}

/* Writes the image to `path` and fsyncs it; on failure the file is removed. */
static int write_image(h5 *c, const image *im) {
    /* never through a link: floe_restart_save removes its temporary first */
    int fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return fail(c, "cannot create: %s", errno == ELOOP ? "it is a symbolic link" : strerror(errno));
    size_t off = 0;
    int e = 0;
    while (off < im->size && !e) {
        ssize_t k = write(fd, im->buf + off, im->size - off);
        if (k > 0) off += (size_t)k;
        else if (k < 0 && errno != EINTR) e = errno;
        else if (k == 0) e = ENOSPC; /* no progress: nothing more fits */
    }
    if (!e && fsync(fd) != 0) e = errno;
    if (close(fd) != 0 && !e) e = errno;
    if (!e) return 0;
    remove(c->path);
    return fail(c, "cannot write %zu bytes: %s", im->size, write_error(e));
}

/* Property lists of a file built in memory, with no timestamps in its
 * objects (a restart file is the same byte for byte for the same state). */
/* The 1.8 object format checksums the file's metadata (superblock, object
 * headers, heaps): a flipped bit is found by HDF5 before it parses it. */
static int writer_plists(h5 *c, hid_t *fapl, image *im) {
    H5FD_file_image_callbacks_t cb = {
        image_malloc, image_memcpy, image_realloc, image_free, image_udata_copy, image_udata_free, im};
    *fapl = H5Pcreate(H5P_FILE_ACCESS);
    c->fcpl = H5Pcreate(H5P_FILE_CREATE);
    c->gcpl = H5Pcreate(H5P_GROUP_CREATE);
    c->dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (*fapl < 0 || c->fcpl < 0 || c->gcpl < 0 || c->dcpl < 0 || H5Pset_fapl_core(*fapl, 4096, 0) < 0 ||
        H5Pset_libver_bounds(*fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 ||
        H5Pset_file_image_callbacks(*fapl, &cb) < 0 || H5Pset_obj_track_times(c->fcpl, 0) < 0 ||
        H5Pset_obj_track_times(c->gcpl, 0) < 0 || H5Pset_obj_track_times(c->dcpl, 0) < 0)
        return fail(c, "cannot set up the HDF5 file (out of memory?)");
    return 0;
}

int floe_restart_write(const char *path, const floe_restart *r, char *err, size_t errlen) {
    h5 c = {.file = -1, .fcpl = -1, .gcpl = -1, .dcpl = -1, .path = path, .err = err, .errlen = errlen};
    const floe_world *w = r ? r->scene.world : NULL;
    if (!w) return fail(&c, "no world to write");
    H5E_auto2_t efn;
    void *edata;
    hdf5_quiet(&efn, &edata);
    image im = {0};
    hid_t fapl = -1;
    if (writer_plists(&c, &fapl, &im) == 0) {
        c.file = H5Fcreate(path, H5F_ACC_TRUNC, c.fcpl, fapl);
        if (c.file < 0) fail(&c, "cannot create the HDF5 file in memory (out of memory?)");
    }
    if (c.file >= 0) {
        attr_s(&c, c.file, "format", "floe restart");
        attr_i(&c, c.file, "format_version", FLOE_RESTART_FORMAT);
        attr_s(&c, c.file, "floe_version", FLOE_VERSION);
        attr_i(&c, c.file, "step", w->step);
        attr_f(&c, c.file, "time", w->time);
        write_world_attrs(&c, w);
        write_models(&c);
        write_setup(&c, w);
        write_particles(&c, w);
        write_contacts(&c, w);
        write_run(&c, r);
        /* in memory: closing only fails if memory runs out */
        im.keep = 1;
        if (H5Fclose(c.file) < 0) fail(&c, "cannot finish the HDF5 file (out of memory?)");
    }
    if (fapl >= 0) H5Pclose(fapl);
    if (c.fcpl >= 0) H5Pclose(c.fcpl);
    if (c.gcpl >= 0) H5Pclose(c.gcpl);
    if (c.dcpl >= 0) H5Pclose(c.dcpl);
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    if (!c.bad) write_image(&c, &im);
    free(im.buf);
    return c.bad ? -1 : 0;
}

/* ---- reading ---------------------------------------------------------------- */

/* Parameter keys of model `name` in the file (one block, free once). */
typedef struct file_model {
    char name[64];
    char **mat, **law;
    int nmat, nlaw;
    int64_t state_size;
} file_model;

static file_model *file_model_get(h5 *c, file_model *cache, int *n, int cap, const char *name) {
    for (int i = 0; i < *n; i++)
        if (!strcmp(cache[i].name, name)) return &cache[i];
    if (c->bad) return NULL;
    if (*n >= cap) {
        fail(c, "too many models");
        return NULL;
    }
    hid_t g = group_open(c, c->file, "models");
    hid_t mg = g >= 0 && H5Lexists(g, name, H5P_DEFAULT) > 0 ? H5Gopen2(g, name, H5P_DEFAULT) : -1;
    if (mg < 0) fail(c, "missing /models/%s", name);
    file_model *fm = &cache[*n];
    memset(fm, 0, sizeof *fm);
    snprintf(fm->name, sizeof fm->name, "%s", name);
    fm->nmat = mg >= 0 ? count_of(c, mg, "mat_params") : -1;
    fm->nlaw = mg >= 0 ? count_of(c, mg, "law_params") : -1;
    if (!c->bad && (fm->nmat > FLOE_MAX_MAT_PARAMS || fm->nlaw > FLOE_MAX_LAW_PARAMS))
        fail(c, "model %s has too many parameters", name);
    if (!c->bad) {
        fm->mat = get_strings(c, mg, "mat_params", (size_t)fm->nmat);
        fm->law = get_strings(c, mg, "law_params", (size_t)fm->nlaw);
        fm->state_size = get_i(c, mg, "state_size");
    }
    group_close(mg);
    group_close(g);
    if (c->bad) {
        free(fm->mat);
        free(fm->law);
        return NULL;
    }
    (*n)++;
    return fm;
}

static int key_index(char **keys, int n, const char *key) {
    for (int i = 0; i < n; i++)
        if (!strcmp(keys[i], key)) return i;
    return -1;
}

/* A value the API refused: `what` names the dataset that held it. */
static void world_error(h5 *c, floe_world *w, const char *what) { fail(c, "%s: %s", what, floe_last_error(w)); }

enum { MAX_FILE_MODELS = 64 };

typedef struct reader {
    h5 c;
    floe_world *w;
    file_model models[MAX_FILE_MODELS];
    int nmodels;
    int *inst_map; /* file instance -> world instance */
    int ninst;
} reader;

static void read_setup(reader *R) {
    h5 *c = &R->c;
    floe_world *w = R->w;
    /* materials: by model name and parameter key */
    hid_t g = group_open(c, c->file, "materials");
    int n = count_of(c, g, "name");
    char **names = n >= 0 ? get_strings(c, g, "name", (size_t)n) : NULL;
    char **models = n >= 0 ? get_strings(c, g, "model", (size_t)n) : NULL;
    double *p = n >= 0 ? malloc(sizeof *p * ((size_t)n + 1) * FLOE_MAX_MAT_PARAMS) : NULL;
    if (n >= 0 && !p) fail(c, "out of memory");
    if (p) get(c, g, "params", T_F64, (size_t)n, FLOE_MAX_MAT_PARAMS, p);
    for (int i = 0; !c->bad && i < n; i++) {
        file_model *fm = file_model_get(c, R->models, &R->nmodels, MAX_FILE_MODELS, models[i]);
        if (!fm) break;
        if (floe_add_material(w, names[i], models[i]) != i) {
            world_error(c, w, "/materials");
            break;
        }
        const floe_model *m = floe_registry_get(w->mats[i].model);
        for (int k = 0; k < m->info.n_mat_params && !c->bad; k++) {
            int j = key_index(fm->mat, fm->nmat, m->info.mat_params[k].key);
            if (j >= 0 &&
                floe_material_set(w, i, fm->mat[j], p[(size_t)i * FLOE_MAX_MAT_PARAMS + (size_t)j]) != FLOE_OK)
                world_error(c, w, "/materials");
        }
    }
    free(names);
    free(models);
    free(p);
    group_close(g);

    /* model instances: defaults by model name, then pair overrides */
    g = group_open(c, c->file, "instances");
    n = count_of(c, g, "model");
    int ndef = (int)get_i(c, g, "n_defaults");
    models = n >= 0 ? get_strings(c, g, "model", (size_t)n) : NULL;
    p = n >= 0 ? malloc(sizeof *p * ((size_t)n + 1) * FLOE_MAX_LAW_PARAMS) : NULL;
    R->inst_map = n >= 0 ? malloc(sizeof *R->inst_map * ((size_t)n + 1)) : NULL;
    R->ninst = n;
    if (n >= 0 && (!p || !R->inst_map)) fail(c, "out of memory");
    if (!c->bad) get(c, g, "law_params", T_F64, (size_t)n, FLOE_MAX_LAW_PARAMS, p);
    if (!c->bad && (ndef < 0 || ndef > n)) fail(c, "/instances@n_defaults: %d is outside [0, %d]", ndef, n);
    int nov = count_of(c, g, "overrides");
    int32_t *ov = nov >= 0 ? malloc(sizeof *ov * 3 * ((size_t)nov + 1)) : NULL;
    if (nov >= 0 && !ov) fail(c, "out of memory");
    if (ov) get(c, g, "overrides", T_I32, (size_t)nov, 3, ov);
    for (int i = 0; !c->bad && i < n; i++) R->inst_map[i] = -1;
    for (int pass = 0; pass < 2 && !c->bad; pass++) {
        /* pass 0: the defaults; pass 1: overrides, which start from them */
        for (int i = 0; !c->bad && i < (pass ? nov : ndef); i++) {
            int fi = pass ? ov[3 * i + 2] : i;
            if (fi < 0 || fi >= n || (pass && fi < ndef)) {
                fail(c, "/instances/overrides: override %d names instance %d (instances %d to %d are overrides)", i, fi,
                     ndef, n - 1);
                break;
            }
            file_model *fm = file_model_get(c, R->models, &R->nmodels, MAX_FILE_MODELS, models[fi]);
            int mi = floe_registry_find(models[fi]);
            if (!fm) break;
            if (mi < 0) {
                fail(c, "the restart uses contact model '%s', which this floe does not have", models[fi]);
                break;
            }
            int ma = pass ? ov[3 * i] : -1, mb = pass ? ov[3 * i + 1] : -1;
            if (pass) {
                if (floe_pair_set_model(w, ma, mb, models[fi]) != FLOE_OK) {
                    world_error(c, w, "/instances");
                    break;
                }
                R->inst_map[fi] = w->ninsts - 1;
            } else {
                R->inst_map[fi] = mi;
            }
            const floe_model *m = floe_registry_get(mi);
            for (int k = 0; k < m->info.n_law_params && !c->bad; k++) {
                int j = key_index(fm->law, fm->nlaw, m->info.law_params[k].key);
                if (j < 0) continue;
                double v = p[(size_t)fi * FLOE_MAX_LAW_PARAMS + (size_t)j];
                floe_status st = pass ? floe_pair_set(w, ma, mb, fm->law[j], v)
                                      : floe_model_set(w, models[fi], fm->law[j], v);
                if (st != FLOE_OK) world_error(c, w, "/instances");
            }
        }
    }
    free(models);
    free(p);
    free(ov);
    group_close(g);

    /* groups */
    g = group_open(c, c->file, "groups");
    n = count_of(c, g, "name");
    if (!c->bad && n > FLOE_MAX_GROUPS) fail(c, "/groups/name: %d groups, at most %d", n, FLOE_MAX_GROUPS);
    if (!c->bad) {
        size_t ng = (size_t)n;
        char **gn = get_strings(c, g, "name", ng);
        int32_t hm[FLOE_MAX_GROUPS], hl[FLOE_MAX_GROUPS];
        double mv[3 * FLOE_MAX_GROUPS], ma[3 * FLOE_MAX_GROUPS], tw[2 * FLOE_MAX_GROUPS];
        double lf[3 * FLOE_MAX_GROUPS], lt[3 * FLOE_MAX_GROUPS];
        get(c, g, "has_motion", T_I32, ng, 1, hm);
        get(c, g, "has_load", T_I32, ng, 1, hl);
        get(c, g, "motion_vel", T_F64, ng, 3, mv);
        get(c, g, "motion_angvel", T_F64, ng, 3, ma);
        get(c, g, "motion_window", T_F64, ng, 2, tw);
        get(c, g, "load_force", T_F64, ng, 3, lf);
        get(c, g, "load_torque", T_F64, ng, 3, lt);
        for (int i = 0; !c->bad && i < n; i++) {
            if (floe_add_group(w, gn[i]) != i) {
                world_error(c, w, "/groups/name");
                break;
            }
            /* set as stored: members' blocked flags come with the particles */
            floe_group *gr = &w->groups_[i];
            gr->has_motion = hm[i] != 0;
            gr->has_load = hl[i] != 0;
            gr->motion.vel = v3(mv[3 * i], mv[3 * i + 1], mv[3 * i + 2]);
            gr->motion.angvel = v3(ma[3 * i], ma[3 * i + 1], ma[3 * i + 2]);
            gr->motion.t_start = tw[2 * i];
            gr->motion.t_end = tw[2 * i + 1];
            gr->load_f = v3(lf[3 * i], lf[3 * i + 1], lf[3 * i + 2]);
            gr->load_t = v3(lt[3 * i], lt[3 * i + 1], lt[3 * i + 2]);
        }
        free(gn);
    }
    group_close(g);
}

/* The records of one shape class as stored (a group that is missing holds
 * none: a file from before the shape existed); *n receives their count. */
static unsigned char *read_shape_table(h5 *c, const floe_shape_class *cls, int *n) {
    *n = 0;
    if (c->bad || H5Lexists(c->file, cls->section, H5P_DEFAULT) <= 0) return NULL;
    hid_t g = group_open(c, c->file, cls->section);
    int count = cls->nfields ? count_of(c, g, cls->fields[0].name) : 0;
    unsigned char *tab = NULL;
    void *buf = NULL;
    if (count > 0) {
        tab = calloc((size_t)count, cls->size);
        if (!tab) fail(c, "out of memory");
    }
    for (int f = 0; f < cls->nfields && count > 0 && !c->bad; f++) {
        const floe_shape_field *fd = &cls->fields[f];
        hsize_t d[3];
        int rank;
        size_t m = field_values(fd, d, &rank);
        buf = malloc(sizeof(double) * ((size_t)count * m + 1));
        if (!buf) {
            fail(c, "out of memory");
            break;
        }
        get(c, g, fd->name, fd->type == FLOE_FIELD_F64 ? T_F64 : T_I32, (size_t)count, m, buf);
        for (size_t k = 0; k < (size_t)count && !c->bad; k++) {
            unsigned char *r = tab + k * cls->size + fd->offset;
            for (size_t j = 0; j < m; j++)
                if (fd->type == FLOE_FIELD_F64)
                    memcpy(r + j * sizeof(double), (double *)buf + k * m + j, sizeof(double));
                else {
                    int v = ((int32_t *)buf)[k * m + j];
                    memcpy(r + j * sizeof(int), &v, sizeof v);
                }
        }
        free(buf);
        buf = NULL;
    }
    group_close(g);
    if (c->bad) {
        free(tab);
        return NULL;
    }
    *n = count;
    return tab;
}

static void read_particles(reader *R) {
    h5 *c = &R->c;
    floe_world *w = R->w;
    hid_t g = group_open(c, c->file, "particles");
    int n = count_of(c, g, "pos");
    unsigned char *tab[FLOE_SHAPE_COUNT] = {0};
    int ntab[FLOE_SHAPE_COUNT] = {0};
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++)
        if (floe_shape_class_get(t)->size) tab[t] = read_shape_table(c, floe_shape_class_get(t), &ntab[t]);
    uint8_t *shape = NULL;
    int32_t *sidx = NULL;
    if (c->bad) goto out;
    size_t N = (size_t)n;
    shape = malloc(N + 1);
    sidx = malloc(sizeof *sidx * (N + 1));
    if (!shape || !sidx) fail(c, "out of memory");
    if (!c->bad) {
        get(c, g, "shape", T_U8, N, 1, shape);
        get(c, g, "shape_index", T_I32, N, 1, sidx);
    }
    if (!c->bad && n > 0 && w->nmats == 0) fail(c, "/materials/name: no materials, but %d particles", n);
    /* Particles are added through the API from their stored records (so
     * every array is sized and the records are checked), then overwritten
     * with the stored values: the API would normalise or clear some of them.
     * A sphere, whose record is its radius, is added with radius 1. */
    floe_body_def d = floe_default_body_def();
    const floe_pose origin = {{0, 0, 0}, {1, 0, 0, 0}};
    for (size_t i = 0; !c->bad && i < N; i++) {
        const floe_shape_class *cls = floe_shape_class_get(shape[i]);
        const int t = shape[i];
        if (!cls || (cls->size && (sidx[i] != w->store[t].n || sidx[i] >= ntab[t]))) {
            char names[256];
            fail(c,
                 "/particles/shape: particle %zu: bad shape %d or shape index %d (%s; shape indices count up "
                 "within each shape table)",
                 i, shape[i], sidx[i], shape_names(names, sizeof names));
            break;
        }
        const double one = 1.0;
        const void *rec = &one;
        if (cls->size) rec = tab[t] + (size_t)sidx[i] * cls->size;
        double params[FLOE_SHAPE_MAX_PARAMS];
        cls->params_of(rec, &origin, params);
        int id = floe_add_body(w, &d, cls->type, params);
        if (id >= 0 && cls->size) memcpy(w->store[t].rec + (size_t)sidx[i] * cls->size, rec, cls->size); /* exact */
        if (id != (int)i) world_error(c, w, "/particles");
    }
    for (int t = 0; t < FLOE_SHAPE_COUNT && !c->bad; t++)
        if (w->store[t].n != ntab[t])
            fail(c, "/particles/shape: the shape table /%s holds %d %ss; the particles use %d",
                 floe_shape_class_get(t)->section, ntab[t], floe_shape_class_get(t)->title, w->store[t].n);
    if (!c->bad) {
        get(c, g, "pos", T_F64, N, 3, w->pos);
        get(c, g, "vel", T_F64, N, 3, w->vel);
        get(c, g, "angvel", T_F64, N, 3, w->angvel);
        get(c, g, "ori", T_F64, N, 4, w->ori);
        get(c, g, "force", T_F64, N, 3, w->force);
        get(c, g, "torque", T_F64, N, 3, w->torque);
        get(c, g, "mass", T_F64, N, 1, w->mass);
        get(c, g, "inertia", T_F64, N, 3, w->inertia);
        get(c, g, "angmom", T_F64, N, 3, w->angmom);
        get(c, g, "bound", T_F64, N, 1, w->bound);
        get(c, g, "radius", T_F64, N, 1, w->radius);
        get(c, g, "material", T_I32, N, 1, w->mat);
        get(c, g, "blocked", T_U32, N, 1, w->blocked);
        get(c, g, "groups", T_U32, N, 1, w->groups);
    }
    for (size_t i = 0; !c->bad && i < N; i++)
        if (w->mat[i] < 0 || w->mat[i] >= w->nmats)
            fail(c, "/particles/material: particle %zu: material %d does not exist (%d materials)", i, w->mat[i],
                 w->nmats);
out:
    free(shape);
    free(sidx);
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) free(tab[t]);
    group_close(g);
}

#define SCATTER(buf, type, lhs)               \
    do {                                      \
        const type *b_ = (const type *)(buf); \
        for (size_t k_ = 0; k_ < n; k_++) {   \
            floe_contact *ct = &w->con[k_];   \
            lhs = b_[k_];                     \
        }                                     \
    } while (0)

static void read_contacts(reader *R) {
    h5 *c = &R->c;
    floe_world *w = R->w;
    hid_t g = group_open(c, c->file, "contacts"), gb = group_open(c, c->file, "broadphase");
    int nc = count_of(c, g, "a"), npairs = count_of(c, gb, "pairs");
    int64_t fstride = c->bad ? 0 : get_i(c, g, "state_stride");
    if (!c->bad && (fstride < 0 || fstride > (1 << 20)))
        fail(c, "/contacts@state_stride: %lld is outside [0, 2^20]", (long long)fstride);
    /* material pair -> instance table and the state stride of this build */
    if (!c->bad && !floe__prepare(w)) world_error(c, w, "/contacts");
    if (c->bad) goto out;
    size_t n = (size_t)nc;
    floe_contact *con = calloc(n + 1, sizeof *con);
    unsigned char *cs = calloc(n + 1, w->cstride);
    unsigned char *fs = malloc(n * (size_t)fstride + 1);
    void *buf = malloc(sizeof(double) * 3 * (n + 1));
    floe_pair *pairs = malloc(sizeof *pairs * ((size_t)npairs + 1));
    if (!con || !cs || !fs || !buf || !pairs) {
        free(con);
        free(cs);
        free(fs);
        free(buf);
        free(pairs);
        fail(c, "out of memory for %d contacts", nc);
        goto out;
    }
    free(w->con);
    free(w->cstate);
    w->con = con;
    w->cstate = cs;
    w->ccap = nc + 1;
    free(w->bp.pairs);
    w->bp.pairs = pairs;
    w->bp.cap = npairs + 1;

    get(c, gb, "pairs", T_I32, (size_t)npairs, 3, w->bp.pairs);
    get(c, g, "a", T_I32, n, 1, buf);
    SCATTER(buf, int32_t, ct->a);
    get(c, g, "b", T_I32, n, 1, buf);
    SCATTER(buf, int32_t, ct->b);
    get(c, g, "pair", T_I32, n, 1, buf);
    SCATTER(buf, int32_t, ct->nbr);
    get(c, g, "instance", T_I32, n, 1, buf);
    for (size_t k = 0; !c->bad && k < n; k++) {
        int fi = ((const int32_t *)buf)[k];
        if (fi < 0 || fi >= R->ninst || R->inst_map[fi] < 0)
            fail(c, "/contacts/instance: contact %zu: bad instance %d", k, fi);
        else w->con[k].inst = (uint16_t)R->inst_map[fi];
    }
    get(c, g, "flags", T_U8, n, 1, buf);
    SCATTER(buf, uint8_t, ct->flags);
    get(c, g, "side", T_I8, n, 1, buf);
    SCATTER(buf, int8_t, ct->side);
    get(c, g, "detail", T_U32, n, 1, buf);
    SCATTER(buf, uint32_t, ct->detail);
    get(c, g, "step_created", T_I64, n, 1, buf);
    SCATTER(buf, int64_t, ct->step_created);
    get(c, g, "uN", T_F64, n, 1, buf);
    SCATTER(buf, double, ct->g.uN);
    get(c, g, "area", T_F64, n, 1, buf);
    SCATTER(buf, double, ct->g.area);
    get(c, g, "kn", T_F64, n, 1, buf);
    SCATTER(buf, double, ct->kn);
    get(c, g, "kt", T_F64, n, 1, buf);
    SCATTER(buf, double, ct->kt);
    get(c, g, "kw", T_F64, n, 1, buf);
    SCATTER(buf, double, ct->kw);
    get(c, g, "kr", T_F64, n, 1, buf);
    SCATTER(buf, double, ct->kr);
    get(c, g, "lens", T_F64, n, 2, buf);
    for (size_t k = 0; !c->bad && k < n; k++) {
        w->con[k].g.lens[0] = ((const double *)buf)[2 * k];
        w->con[k].g.lens[1] = ((const double *)buf)[2 * k + 1];
    }
    static const char *const vnames[] = {"normal", "t1", "point", "force", "torque"};
    for (int f = 0; f < 5 && !c->bad; f++) {
        get(c, g, vnames[f], T_F64, n, 3, buf);
        for (size_t k = 0; !c->bad && k < n; k++) {
            floe_contact *ct = &w->con[k];
            vec3 *dst[5] = {&ct->g.n, &ct->g.t1, &ct->g.c, &ct->f, &ct->m};
            *dst[f] = ((const vec3 *)buf)[k];
        }
    }
    /* raw model state, checked against this build's layout */
    get(c, g, "state", T_U8, n, (size_t)fstride, fs);
    for (size_t k = 0; !c->bad && k < n; k++) {
        floe_contact *ct = &w->con[k];
        const floe_model *m = floe_registry_get(w->insts[ct->inst].model);
        file_model *fm = file_model_get(c, R->models, &R->nmodels, MAX_FILE_MODELS, m->info.name);
        if (!fm) break;
        if ((size_t)fm->state_size != m->state_size || m->state_size > (size_t)fstride) {
            fail(c,
                 "model %s keeps %lld bytes of contact state in this file but %zu in this floe: "
                 "the file was written by an incompatible version",
                 m->info.name, (long long)fm->state_size, m->state_size);
            break;
        }
        memcpy(w->cstate + k * w->cstride, fs + k * (size_t)fstride, m->state_size);
        if (ct->a < 0 || ct->a >= w->np || ct->b < 0 || ct->b >= w->np || ct->a == ct->b)
            fail(c, "/contacts/a: contact %zu: particles %d, %d (out of range, or the same)", k, ct->a, ct->b);
        if (ct->nbr < -1 || ct->nbr >= npairs)
            fail(c, "/contacts/pair: contact %zu: pair %d is outside [-1, %d)", k, ct->nbr, npairs);
    }
    w->ncon = c->bad ? 0 : nc;

    for (int p = 0; !c->bad && p < npairs; p++) {
        const floe_pair *pr = &w->bp.pairs[p];
        if (pr->a < 0 || pr->a >= w->np || pr->b < 0 || pr->b >= w->np || pr->contact < -1 || pr->contact >= nc ||
            (pr->contact >= 0 && w->con[pr->contact].nbr != p))
            fail(c,
                 "/broadphase/pairs: pair %d (%d, %d, contact %d): ids out of range, or the contact does not "
                 "name this pair",
                 p, pr->a, pr->b, pr->contact);
    }
    for (int k = 0; !c->bad && k < nc; k++)
        if (w->con[k].nbr >= 0 && w->bp.pairs[w->con[k].nbr].contact != k)
            fail(c, "/contacts/pair: contact %d names pair %d, which names contact %d", k, w->con[k].nbr,
                 w->bp.pairs[w->con[k].nbr].contact);
    w->bp.npairs = c->bad ? 0 : npairs;
    get(c, gb, "ref_pos", T_F64, (size_t)w->np, 3, w->bp.ref_pos);
    get(c, gb, "ref_ori", T_F64, (size_t)w->np, 4, w->bp.ref_ori);
    w->bp.margin = get_f(c, gb, "margin");
    w->bp.max_moved2 = get_f(c, gb, "max_moved2");
    w->bp.valid = (int)get_in(c, gb, "valid", 0, 1);
    w->bp.rebuilds = get_i(c, gb, "rebuilds");
    if (c->bad) w->bp.valid = 0;
    free(fs);
    free(buf);
out:
    group_close(g);
    group_close(gb);
}

static void read_schedule(reader *R) {
    h5 *c = &R->c;
    hid_t g = group_open(c, c->file, "schedule");
    int n = count_of(c, g, "step");
    if (c->bad) {
        group_close(g);
        return;
    }
    size_t N = (size_t)n;
    int64_t *st = malloc(sizeof *st * (N + 1));
    int32_t *gi = malloc(sizeof *gi * 2 * (N + 1));
    double *args = malloc(sizeof *args * FLOE_MAX_METHOD_ARGS * (N + 1));
    char **model = get_strings(c, g, "model", N), **method = get_strings(c, g, "method", N);
    if (!st || !gi || !args) fail(c, "out of memory");
    get(c, g, "step", T_I64, N, 1, st);
    get(c, g, "group", T_I32, N, 1, gi);
    get(c, g, "nargs", T_I32, N, 1, gi + N);
    get(c, g, "args", T_F64, N, FLOE_MAX_METHOD_ARGS, args);
    for (size_t i = 0; !c->bad && i < N; i++)
        if (floe_schedule_method(R->w, st[i], model[i], method[i], gi[i], args + i * FLOE_MAX_METHOD_ARGS, gi[N + i]) !=
            FLOE_OK)
            world_error(c, R->w, "/schedule");
    free(st);
    free(gi);
    free(args);
    free(model);
    free(method);
    group_close(g);
}

static void read_state(reader *R) {
    h5 *c = &R->c;
    floe_world *w = R->w;
    hid_t g = group_open(c, c->file, "world");
    if (g >= 0) {
        w->step = get_i(c, g, "step");
        w->time = get_f(c, g, "time");
        w->dt = get_f(c, g, "dt");
        w->dt_auto = (int)get_in(c, g, "dt_auto", 0, 1);
        w->last_dyn_dt = get_i(c, g, "last_dyn_dt");
        w->started = (int)get_in(c, g, "started", 0, 1);
        w->stopped = (int)get_in(c, g, "stopped", 0, 1);
        w->rmax = get_f(c, g, "rmax");
        w->skin = get_f(c, g, "skin");
        w->n_breaks = get_i(c, g, "n_breaks");
        get_attr(c, g, "box_centre", T_F64, 3, &w->box_centre);
        w->box_reach2 = get_f(c, g, "box_reach2");
    }
    group_close(g);
    g = group_open(c, c->file, "energy");
    if (g >= 0) {
        w->e_elastic = get_f(c, g, "elastic");
        w->e_plastic = get_f(c, g, "plastic");
        w->e_damping = get_f(c, g, "damping");
        w->e_dashpot = get_f(c, g, "dashpot");
        w->e_broken = get_f(c, g, "broken");
        w->e_boundary = get_f(c, g, "boundary");
        w->e_gravity_work = get_f(c, g, "gravity_work");
        w->e_total0 = get_f(c, g, "total0");
    }
    group_close(g);
    /* start() is not run again: resolve what it would have */
    w->nthreads = floe__resolve_threads(w);
}

static void read_run(reader *R, floe_restart *r) {
    h5 *c = &R->c;
    hid_t g = group_open(c, c->file, "run");
    if (g >= 0) {
        r->scene.steps = get_i(c, g, "steps");
        r->scene.duration = get_f(c, g, "duration");
        r->total_steps = get_i(c, g, "total_steps");
        r->restart_every = get_i(c, g, "restart_every");
        get_s(c, g, "scene", r->scene.path, sizeof r->scene.path);
    }
    group_close(g);

    floe_output_config *o = &r->scene.out;
    g = group_open(c, c->file, "output_config");
    if (g >= 0) {
        int64_t iv[4] = {0};
        double dv[4] = {0};
        get_attr(c, g, "every_steps", T_I64, 4, iv);
        get_attr(c, g, "every_interval", T_F64, 4, dv);
        o->vtk = (floe_every){iv[0], dv[0]};
        o->energy = (floe_every){iv[1], dv[1]};
        o->history = (floe_every){iv[2], dv[2]};
        o->progress = (floe_every){iv[3], dv[3]};
        o->vtk_contacts = (int)get_in(c, g, "vtk_contacts", 0, 1);
        o->vtk_boundaries = (int)get_in(c, g, "vtk_boundaries", 0, 1);
        o->vtk_shapes = has_attr(g, "vtk_shapes") ? (int)get_in(c, g, "vtk_shapes", 0, 1) : 1;
        o->final_state = (int)get_in(c, g, "final_state", 0, 1);
        o->events_skip = (uint32_t)get_in(c, g, "events_skip", 0, UINT32_MAX);
        hid_t hg = group_open(c, g, "history_columns");
        int nh = count_of(c, hg, "name");
        if (!c->bad) {
            size_t N = (size_t)nh;
            char **names = get_strings(c, hg, "name", N), **q = get_strings(c, hg, "quantity", N);
            int32_t *iv2 = malloc(sizeof *iv2 * 5 * (N + 1));
            o->history_cols = calloc(N + 1, sizeof *o->history_cols);
            if (!iv2 || !o->history_cols) fail(c, "out of memory");
            get(c, hg, "kind_a_b_group_energy", T_I32, N, 5, iv2);
            for (size_t i = 0; !c->bad && i < N; i++) {
                floe_history_column *h = &o->history_cols[i];
                snprintf(h->name, sizeof h->name, "%s", names[i]);
                snprintf(h->quantity, sizeof h->quantity, "%s", q[i]);
                h->kind = (floe_history_kind)iv2[5 * i];
                h->a = iv2[5 * i + 1];
                h->b = iv2[5 * i + 2];
                h->group = iv2[5 * i + 3];
                h->energy = iv2[5 * i + 4];
            }
            if (!c->bad) o->n_history_cols = nh;
            free(names);
            free(q);
            free(iv2);
        }
        group_close(hg);
    }
    group_close(g);

    if (c->bad || H5Lexists(c->file, "output", H5P_DEFAULT) <= 0) return;
    floe_output_state *s = &r->output;
    g = group_open(c, c->file, "output");
    int64_t streams[9];
    get(c, g, "streams", T_I64, 3, 3, streams);
    s->vtk = (floe_output_stream){streams[0], streams[1], streams[2]};
    s->energy = (floe_output_stream){streams[3], streams[4], streams[5]};
    s->history = (floe_output_stream){streams[6], streams[7], streams[8]};
    s->width = (int)get_in(c, g, "width", 1, 19);
    get_attr(c, g, "csv_bytes", T_I64, 3, s->csv_bytes);
    int nf = count_of(c, g, "frame_step");
    if (!c->bad) {
        s->nframes = (size_t)nf;
        s->frame_step = malloc(sizeof *s->frame_step * ((size_t)nf + 1));
        s->frame_time = malloc(sizeof *s->frame_time * ((size_t)nf + 1));
        if (!s->frame_step || !s->frame_time) fail(c, "out of memory");
        get(c, g, "frame_step", T_I64, (size_t)nf, 1, s->frame_step);
        get(c, g, "frame_time", T_F64, (size_t)nf, 1, s->frame_time);
    }
    int ns = count_of(c, g, "models_seen");
    char **seen = ns >= 0 ? get_strings(c, g, "models_seen", (size_t)ns) : NULL;
    for (int i = 0; seen && i < ns; i++) {
        int m = floe_registry_find(seen[i]);
        if (m >= 0 && m < 64) s->models_seen |= 1ull << m;
    }
    free(seen);
    group_close(g);
    r->has_output = !c->bad;
}

int floe_restart_load(const char *path, floe_restart *r, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    reader R;
    memset(&R, 0, sizeof R);
    R.c = (h5){.path = path, .err = err, .errlen = errlen};
    h5 *c = &R.c;
    if (err && errlen) err[0] = 0;
    H5E_auto2_t efn;
    void *edata;
    hdf5_quiet(&efn, &edata);
    hid_t fapl = file_access();
    c->file = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : -1;
    if (c->file < 0) {
        struct stat st;
        if (stat(path, &st) != 0) fail(c, "cannot open: %s", strerror(errno));
        else fail(c, "not an HDF5 file, or a damaged one");
    }
    char fmt[64];
    get_s(c, c->file, "format", fmt, sizeof fmt);
    int64_t ver = get_i(c, c->file, "format_version");
    if (!c->bad && (strcmp(fmt, "floe restart") != 0 || ver != FLOE_RESTART_FORMAT))
        fail(c, "not a floe restart file of a format this floe reads (format '%s', version %lld)", fmt, (long long)ver);

    hid_t g = group_open(c, c->file, "world");
    floe_world_def def = floe_default_world_def();
    if (g >= 0) {
        get_attr(c, g, "gravity", T_F64, 3, &def.gravity);
        def.dt = get_f(c, g, "def_dt");
        def.dt_safety = get_f(c, g, "dt_safety");
        def.dyn_dt_period = (int)get_in(c, g, "dyn_dt_period", 1, 1000000000);
        def.damping = get_f(c, g, "damping");
        def.skin = get_f(c, g, "def_skin");
        def.legacy_lens = (int)get_in(c, g, "legacy_lens", 0, 1);
        def.threads = (int)get_in(c, g, "threads", 0, 4096);
        def.renorm_period = (int)get_in(c, g, "renorm_period", 1, 1000000000);
        def.dimension = (int)get_in(c, g, "dimension", 2, 3);
    }
    group_close(g);
    if (!c->bad && !(R.w = floe_world_create(&def))) {
        /* the engine names the def field it refused ("dt_safety = 5 is ...");
         * the file stores dt and skin as def_dt and def_skin */
        const char *e = floe_create_error(), *k = strstr(e, ": ");
        k = k ? k + 2 : e;
        size_t n = strspn(k, "abcdefghijklmnopqrstuvwxyz_");
        int def_prefix = (n == 2 && !strncmp(k, "dt", 2)) || (n == 4 && !strncmp(k, "skin", 4));
        fail(c, "attribute '/world@%s%.*s': %s (the file is damaged)", def_prefix ? "def_" : "", (int)n, k, e);
    }
    if (!c->bad) read_setup(&R);
    if (!c->bad) read_particles(&R);
    if (!c->bad) read_contacts(&R);
    if (!c->bad) read_schedule(&R);
    if (!c->bad) read_state(&R);
    if (!c->bad) read_run(&R, r);
    if (c->file >= 0) H5Fclose(c->file);
    if (fapl >= 0) H5Pclose(fapl);
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    for (int i = 0; i < R.nmodels; i++) {
        free(R.models[i].mat);
        free(R.models[i].law);
    }
    free(R.inst_map);
    r->scene.world = R.w;
    if (R.w) r->stopped = R.w->stopped;
    char why[1024];
    if (!c->bad && floe_restart_check(r, why, sizeof why) != 0) fail(c, "%s (the file is damaged)", why);
    if (c->bad) {
        floe_restart_free(r);
        return -1;
    }
    return 0;
}

void floe_restart_free(floe_restart *r) {
    if (!r) return;
    floe_scene_free(&r->scene);
    free(r->output.frame_step);
    free(r->output.frame_time);
    memset(r, 0, sizeof *r);
}

/* ---- outputs missing beside a restart file ----------------------------------- */

static int missing(const char *dir, const char *name) {
    char p[4400];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) != 0 && errno == ENOENT;
}

/* Creates dir/name holding only its header (kind: 0 energy, 1 history,
 * 2 events); its length, or -1. */
static long long fresh_csv(const char *dir, const char *name, int kind, const floe_output_config *o, char *err,
                           size_t errlen) {
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    floe_csv *f = floe_csv_open(p, err, errlen);
    if (!f) return -1;
    int rc = kind == 0   ? floe_csv_energy_header(f)
             : kind == 1 ? floe_csv_history_header(f, o->history_cols, o->n_history_cols)
                         : floe_csv_events_header(f);
    long long len = rc == 0 ? floe_csv_sync(f) : -1;
    if (len < 0) floe_io_err(err, errlen, "%s", floe_csv_error(f));
    if (floe_csv_close(f, err, errlen) != 0) len = -1;
    return len;
}

int floe_restart_fresh_outputs(const char *dir, floe_restart *r, char *note, size_t notelen, char *err, size_t errlen) {
    static const char *const csv[3] = {"energy.csv", "history.csv", "events.csv"};
    char names[256] = "";
    size_t used = 0;
    if (note && notelen) note[0] = 0;
    for (int i = 0; i < 3; i++) {
        if (r->output.csv_bytes[i] < 0 || !missing(dir, csv[i])) continue; /* not written, or there */
        long long len = fresh_csv(dir, csv[i], i, &r->scene.out, err, errlen);
        if (len < 0) return -1;
        r->output.csv_bytes[i] = len;
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", csv[i]);
    }
    /* frames listed in the collections live in vtk/: without it, none exist */
    if (r->output.nframes > 0 && missing(dir, "vtk")) {
        r->output.nframes = 0;
        used += (size_t)snprintf(names + used, sizeof names - used, "%sthe ParaView frames (vtk/)", used ? ", " : "");
    }
    if (used && note && notelen)
        snprintf(note, notelen,
                 "%s/ lacks the earlier outputs of this run (%s): they start afresh at step %lld, without "
                 "what came before",
                 dir, names, (long long)floe_step_count(r->scene.world));
    return 0;
}

/* ---- files in a directory ------------------------------------------------------ */

/* Step of "PREFIX_<digits>.h5", or -1. */
static long long file_step(const char *name, const char *prefix) {
    size_t k = strlen(prefix);
    if (strncmp(name, prefix, k) != 0 || name[k] != '_') return -1;
    const char *p = name + k + 1, *q = p;
    while (*q >= '0' && *q <= '9') q++;
    if (q == p || q - p > 18 || strcmp(q, ".h5") != 0) return -1;
    return strtoll(p, NULL, 10);
}

typedef struct entry {
    long long step;
    char name[256];
} entry;

static int by_step_desc(const void *a, const void *b) {
    long long x = ((const entry *)a)->step, y = ((const entry *)b)->step;
    return (x < y) - (x > y);
}

/* Restart files of `prefix` in dir, newest first (malloc'd; *n entries). */
static entry *scan(const char *dir, const char *prefix, int *n) {
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    entry *e = NULL;
    int cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        long long s = file_step(de->d_name, prefix);
        if (s < 0 || strlen(de->d_name) >= sizeof e->name) continue;
        if (*n == cap) {
            int nc = cap ? 2 * cap : 8;
            entry *ne = realloc(e, sizeof *e * (size_t)nc);
            if (!ne) break;
            e = ne;
            cap = nc;
        }
        e[*n].step = s;
        snprintf(e[*n].name, sizeof e[*n].name, "%s", de->d_name);
        (*n)++;
    }
    closedir(d);
    if (*n > 1) qsort(e, (size_t)*n, sizeof *e, by_step_desc);
    return e;
}

int floe_restart_clear(const char *dir) {
    int removed = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        int tmpfile = !strncmp(de->d_name, ".restart_", 9) && len > 7 && !strcmp(de->d_name + len - 7, ".h5.tmp");
        if (!tmpfile && file_step(de->d_name, "restart") < 0 && file_step(de->d_name, "runaway") < 0) continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        removed += remove(p) == 0 && !tmpfile;
    }
    if (d) closedir(d);
    return removed;
}

int floe_restart_list(const char *dir, char (*paths)[4096], int max) {
    int n;
    entry *e = scan(dir, "restart", &n);
    for (int i = 0; i < n && i < max; i++) snprintf(paths[i], sizeof paths[i], "%s/%s", dir, e[i].name);
    free(e);
    return n;
}

int floe_restart_save(const char *dir, const char *prefix, const floe_restart *r, char *path, size_t pathlen, char *err,
                      size_t errlen) {
    char final[4096], tmp[4160];
    int64_t step = r && r->scene.world ? r->scene.world->step : 0;
    if ((size_t)snprintf(final, sizeof final, "%s/%s_%012" PRId64 ".h5", dir, prefix, step) >= sizeof final) {
        snprintf(err, errlen, "%s: path too long", dir);
        return -1;
    }
    /* a hidden temporary (the rotation below finds those of killed writes);
     * whatever is at its name, a leftover or a link, is replaced */
    snprintf(tmp, sizeof tmp, "%s/.%s_%012" PRId64 ".h5.tmp", dir, prefix, step);
    remove(tmp);
    /* a complete file appears under its final name, or nothing does */
    int ok = floe_restart_write(tmp, r, err, errlen) == 0;
    if (floe_io_replace_finish(tmp, final, ok, FLOE_IO_DURABLE, err, errlen) != 0) return -1;
    if (path && pathlen) snprintf(path, pathlen, "%s", final);
    if (strcmp(prefix, "restart") != 0) return 0;
    /* keep the two newest; drop temporaries of writes that were killed */
    int n;
    entry *e = scan(dir, "restart", &n);
    for (int i = 2; i < n; i++) {
        char old[4400];
        snprintf(old, sizeof old, "%s/%s", dir, e[i].name);
        remove(old);
    }
    free(e);
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, ".restart_", 9) == 0 && len > 7 && !strcmp(de->d_name + len - 7, ".h5.tmp")) {
            char old[4400];
            snprintf(old, sizeof old, "%s/%s", dir, de->d_name);
            remove(old);
        }
    }
    if (d) closedir(d);
    return 0;
}
