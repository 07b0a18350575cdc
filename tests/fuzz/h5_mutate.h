/* Damaging an HDF5 file through the HDF5 API, for the restart tests and the
 * restart fuzzer: one value of a dataset or attribute set, an object
 * replaced by one of another type or size, a row copied over another, an
 * object deleted. Objects are named "/group/dataset" or "/group@attribute"
 * ("@attribute" for the root's). Every function returns 0, or -1 if the
 * object does not exist or the change fails. */
#ifndef FLOE_TESTS_H5_MUTATE_H
#define FLOE_TESTS_H5_MUTATE_H

#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The object of `path` opened: a dataset (*is_attr = 0) or an attribute of
 * the object *owner (opened too: HDF5 1.10 cannot write an attribute opened
 * with H5Aopen_by_name). */
/* Splits "/group@attribute" into the owner's name (obj, "/" for the root's)
 * and returns the attribute's name; NULL for a dataset path or a name too long. */
static inline const char *h5m_attr(const char *path, char obj[256]) {
    const char *at = strchr(path, '@');
    size_t k = at ? (size_t)(at - path) : 0;
    if (!at || k >= 256) return NULL;
    memcpy(obj, path, k);
    obj[k] = 0;
    if (!k) strcpy(obj, "/");
    return at + 1;
}

static inline hid_t h5m_open(hid_t file, const char *path, int *is_attr, hid_t *owner) {
    char obj[256];
    const char *attr = h5m_attr(path, obj);
    *is_attr = strchr(path, '@') != NULL;
    *owner = -1;
    if (!*is_attr) return H5Lexists(file, path, H5P_DEFAULT) > 0 ? H5Dopen2(file, path, H5P_DEFAULT) : -1;
    if (!attr || (strcmp(obj, "/") && H5Lexists(file, obj, H5P_DEFAULT) <= 0)) return -1;
    *owner = H5Oopen(file, obj, H5P_DEFAULT);
    if (*owner < 0 || H5Aexists(*owner, attr) <= 0) return -1;
    return H5Aopen(*owner, attr, H5P_DEFAULT);
}

static inline void h5m_close(hid_t id, int is_attr, hid_t owner) {
    if (id >= 0 && is_attr) H5Aclose(id);
    else if (id >= 0) H5Dclose(id);
    if (owner >= 0) H5Oclose(owner);
}

/* Number of values of the object, or -1; *is_float: floating-point class. */
static inline long long h5m_count(hid_t file, const char *path, int *is_float) {
    int is_attr;
    hid_t owner, id = h5m_open(file, path, &is_attr, &owner);
    if (id < 0) {
        h5m_close(id, is_attr, owner);
        return -1;
    }
    hid_t sp = is_attr ? H5Aget_space(id) : H5Dget_space(id);
    hid_t t = is_attr ? H5Aget_type(id) : H5Dget_type(id);
    long long n = sp >= 0 ? (long long)H5Sget_simple_extent_npoints(sp) : -1;
    H5T_class_t k = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (is_float) *is_float = k == H5T_FLOAT;
    if (k != H5T_FLOAT && k != H5T_INTEGER) n = -1; /* strings are left alone */
    if (t >= 0) H5Tclose(t);
    if (sp >= 0) H5Sclose(sp);
    h5m_close(id, is_attr, owner);
    return n;
}

/* Reads all values (as doubles or int64 by the object's class), lets `edit`
 * change them, writes them back. */
typedef void h5m_edit_fn(void *values, long long n, int is_float, void *arg);

static inline int h5m_edit(hid_t file, const char *path, h5m_edit_fn *edit, void *arg) {
    int is_float, is_attr;
    long long n = h5m_count(file, path, &is_float);
    if (n < 0) return -1;
    hid_t owner, id = h5m_open(file, path, &is_attr, &owner);
    hid_t mt = is_float ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
    void *v = calloc((size_t)n + 1, 8);
    int ok = id >= 0 && v &&
             (n == 0 || (is_attr ? H5Aread(id, mt, v) : H5Dread(id, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v)) >= 0);
    if (ok) {
        edit(v, n, is_float, arg);
        ok = n == 0 || (is_attr ? H5Awrite(id, mt, v) : H5Dwrite(id, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v)) >= 0;
    }
    free(v);
    h5m_close(id, is_attr, owner);
    return ok ? 0 : -1;
}

typedef struct h5m_value {
    long long index;
    double f;
    int64_t i;
    int all;
} h5m_value;

static inline void h5m_put(void *values, long long n, int is_float, void *arg) {
    const h5m_value *x = arg;
    for (long long k = 0; k < n; k++) {
        if (!x->all && k != x->index) continue;
        if (is_float) ((double *)values)[k] = x->f;
        else ((int64_t *)values)[k] = x->i;
    }
}

/* Value `index` (flattened) := f (float objects) or i (integer objects). */
static inline int h5m_set(hid_t file, const char *path, long long index, double f, int64_t i) {
    h5m_value x = {index, f, i, 0};
    return h5m_edit(file, path, h5m_put, &x);
}

/* Every value := f or i. */
static inline int h5m_set_all(hid_t file, const char *path, double f, int64_t i) {
    h5m_value x = {0, f, i, 1};
    return h5m_edit(file, path, h5m_put, &x);
}

typedef struct h5m_rows {
    long long from, to, width;
} h5m_rows;

static inline void h5m_row_copy(void *values, long long n, int is_float, void *arg) {
    const h5m_rows *r = arg;
    (void)is_float;
    if ((r->from + 1) * r->width > n || (r->to + 1) * r->width > n) return;
    memcpy((char *)values + 8 * r->to * r->width, (char *)values + 8 * r->from * r->width, (size_t)(8 * r->width));
}

/* Row `to` of a table of `width` columns := row `from`. */
static inline int h5m_copy_row(hid_t file, const char *path, long long from, long long to, long long width) {
    h5m_rows r = {from, to, width};
    return h5m_edit(file, path, h5m_row_copy, &r);
}

/* Removes the object. */
static inline int h5m_delete(hid_t file, const char *path) {
    if (!strchr(path, '@')) return H5Ldelete(file, path, H5P_DEFAULT) < 0 ? -1 : 0;
    char obj[256];
    const char *attr = h5m_attr(path, obj);
    return attr && H5Adelete_by_name(file, obj, attr, H5P_DEFAULT) >= 0 ? 0 : -1;
}

/* Replaces the object by one of `rows` x `cols` values (cols 0: 1-D; both 0:
 * a scalar attribute) of type `type` (e.g. H5T_NATIVE_DOUBLE where integers
 * belong), every value f. */
static inline int h5m_replace(hid_t file, const char *path, hid_t type, hsize_t rows, hsize_t cols, double f) {
    if (h5m_delete(file, path) != 0) return -1;
    hsize_t d[2] = {rows, cols};
    int rank = cols ? 2 : 1;
    const char *at = strchr(path, '@');
    hid_t sp = !rows && !cols && at ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, d, NULL);
    size_t n = (size_t)(rows ? rows : 1) * (size_t)(cols ? cols : 1);
    double *v = malloc(sizeof *v * n);
    for (size_t k = 0; v && k < n; k++) v[k] = f;
    int ok = sp >= 0 && v;
    if (ok && !at) {
        hid_t ds = H5Dcreate2(file, path, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        ok = ds >= 0 && H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0;
        if (ds >= 0) H5Dclose(ds);
    } else if (ok) {
        char obj[256];
        const char *attr = h5m_attr(path, obj);
        hid_t a = attr ? H5Acreate_by_name(file, obj, attr, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
        ok = a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, v) >= 0;
        if (a >= 0) H5Aclose(a);
    }
    free(v);
    if (sp >= 0) H5Sclose(sp);
    return ok ? 0 : -1;
}

#endif
