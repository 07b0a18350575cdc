/* Restart files in HDF5 (see restart.h and docs/restart.md).
 *
 * A restart file holds the world's snapshot (include/floe/floe_snapshot.h: every
 * item of its state, written and read through the snapshot's visitor; this
 * file is its HDF5 writer and reader), the run settings and the output
 * configuration of the scene, and where the outputs stood (tables of the
 * same kind, restart_table.c, walked by the same walker). A table item
 * "group/name" becomes the dataset /group/name, an item "group@name" the
 * attribute name of /group; the snapshot's table checks what is read. */
#include "io/restart.h"

#include <floe/floe_snapshot.h>

#include "io/atomic.h"
#include "io/csv.h"
#include "io/io_err.h"
#include "io/restart_check.h"
#include "io/restart_table.h"

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

_Static_assert(FLOE_RESTART_FORMAT == FLOE_SNAPSHOT_FORMAT, "a restart file's version is its snapshot's");

/* ---- HDF5 types ----------------------------------------------------------------- */

static hid_t mem_type(floe_snap_type t) {
    switch (t) {
        case FLOE_SNAP_F64:
            return H5T_NATIVE_DOUBLE;
        case FLOE_SNAP_I64:
            return H5T_NATIVE_INT64;
        case FLOE_SNAP_I32:
            return H5T_NATIVE_INT32;
        case FLOE_SNAP_U32:
            return H5T_NATIVE_UINT32;
        case FLOE_SNAP_U16:
            return H5T_NATIVE_UINT16;
        default:
            return H5T_NATIVE_UINT8;
    }
}

/* Little-endian IEEE / two's complement on disk, whatever the host. */
static hid_t file_type(floe_snap_type t) {
    switch (t) {
        case FLOE_SNAP_F64:
            return H5T_IEEE_F64LE;
        case FLOE_SNAP_I64:
            return H5T_STD_I64LE;
        case FLOE_SNAP_I32:
            return H5T_STD_I32LE;
        case FLOE_SNAP_U32:
            return H5T_STD_U32LE;
        case FLOE_SNAP_U16:
            return H5T_STD_U16LE;
        default:
            return H5T_STD_U8LE;
    }
}

static hid_t str_type(size_t len) {
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0) {
        H5Tset_size(t, len);
        H5Tset_strpad(t, H5T_STR_NULLTERM);
        H5Tset_cset(t, H5T_CSET_UTF8);
    }
    return t;
}

typedef struct h5 {
    hid_t file;
    hid_t fcpl, gcpl, dcpl; /* writing: the root group, groups and datasets without timestamps */
    const char *path;
    int bad;
    char *err;
    size_t errlen;
    char gpath[200]; /* the group open in g ("": the root, g is the file) */
    hid_t g;
} h5;

static int fail(h5 *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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

static void group_release(h5 *c) {
    if (c->g >= 0 && c->g != c->file) H5Gclose(c->g);
    c->g = -1;
    c->gpath[0] = 0;
}

/* The group of `path` ("a/b/c"), made if `create`; -1 if it does not exist. */
static hid_t group_at(h5 *c, const char *path, int create) {
    if (c->g >= 0 && !strcmp(c->gpath, path)) return c->g;
    group_release(c);
    if (strlen(path) >= sizeof c->gpath) return -1;
    hid_t g = c->file;
    char part[200];
    const char *p = path;
    while (*p && g >= 0) {
        size_t k = strcspn(p, "/");
        if (k == 0 || k >= sizeof part) {
            g = -1;
            break;
        }
        memcpy(part, p, k);
        part[k] = 0;
        hid_t next = -1;
        if (H5Lexists(g, part, H5P_DEFAULT) > 0) {
            next = H5Gopen2(g, part, H5P_DEFAULT); /* fails on a dataset of that name */
        } else if (create) {
            next = H5Gcreate2(g, part, H5P_DEFAULT, c->gcpl, H5P_DEFAULT);
        }
        if (g != c->file) H5Gclose(g);
        g = next;
        p += k + (p[k] == '/');
    }
    if (g >= 0) {
        c->g = g;
        snprintf(c->gpath, sizeof c->gpath, "%s", path);
    }
    return g;
}

/* ---- the snapshot's writer -------------------------------------------------------- */

/* A 1-D dataset of n fixed-length strings. */
static int put_strings(h5 *c, hid_t loc, const char *name, const char *const *s, size_t n) {
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        if (strlen(s[i]) + 1 > len) len = strlen(s[i]) + 1;
    char *buf = calloc(n ? n : 1, len);
    if (!buf) return -1;
    for (size_t i = 0; i < n; i++) memcpy(buf + i * len, s[i], strlen(s[i]));
    hsize_t d[1] = {n};
    hid_t t = str_type(len);
    hid_t sp = H5Screate_simple(1, d, NULL);
    hid_t ds = t >= 0 && sp >= 0 ? H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, c->dcpl, H5P_DEFAULT) : -1;
    int rc = ds >= 0 && H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0 ? 0 : -1;
    if (ds >= 0) H5Dclose(ds);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    free(buf);
    return rc;
}

static int h5_put(void *ctx, const floe_snap_item *it) {
    h5 *c = ctx;
    if (c->bad) return -1;
    hid_t g = group_at(c, it->group, 1);
    if (g < 0) return fail(c, "cannot create group /%s", it->group);
    hsize_t d[3] = {it->dims[0], it->dims[1], it->dims[2]};
    int rc = -1;
    if (it->type == FLOE_SNAP_STR && !it->attr) {
        rc = put_strings(c, g, it->name, (const char *const *)it->data, it->dims[0]);
    } else if (it->type == FLOE_SNAP_STR) { /* one string */
        const char *s = it->data;
        hid_t t = str_type(strlen(s) + 1), sp = H5Screate(H5S_SCALAR);
        hid_t a = t >= 0 && sp >= 0 ? H5Acreate2(g, it->name, t, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
        rc = a >= 0 && H5Awrite(a, t, s) >= 0 ? 0 : -1;
        if (a >= 0) H5Aclose(a);
        if (sp >= 0) H5Sclose(sp);
        if (t >= 0) H5Tclose(t);
    } else if (it->attr) {
        hid_t sp = it->rank ? H5Screate_simple(it->rank, d, NULL) : H5Screate(H5S_SCALAR);
        hid_t a = sp >= 0 ? H5Acreate2(g, it->name, file_type(it->type), sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
        rc = a >= 0 && H5Awrite(a, mem_type(it->type), it->data) >= 0 ? 0 : -1;
        if (a >= 0) H5Aclose(a);
        if (sp >= 0) H5Sclose(sp);
    } else {
        static const double dummy[1] = {0};
        hid_t sp = H5Screate_simple(it->rank, d, NULL);
        hid_t ds = sp >= 0 ? H5Dcreate2(g, it->name, file_type(it->type), sp, H5P_DEFAULT, c->dcpl, H5P_DEFAULT) : -1;
        rc = ds >= 0 &&
                     H5Dwrite(ds, mem_type(it->type), H5S_ALL, H5S_ALL, H5P_DEFAULT, it->data ? it->data : dummy) >= 0
                 ? 0
                 : -1;
        if (ds >= 0) H5Dclose(ds);
        if (sp >= 0) H5Sclose(sp);
    }
    char p[200];
    if (rc != 0)
        fail(c, "cannot write %s %s", it->attr ? "attribute" : "dataset",
             floe_snap_path(it->group, it->name, it->attr, p, sizeof p));
    return rc;
}

/* ---- the snapshot's reader ------------------------------------------------------------ */

static int h5_has_group(void *ctx, const char *group) { return group_at(ctx, group, 0) >= 0; }

/* The dataset or attribute of an item, opened: *space and *type too. */
static hid_t h5_open(h5 *c, const char *group, const char *name, int attr, hid_t *space, hid_t *type) {
    *space = *type = -1;
    hid_t g = group_at(c, group, 0);
    hid_t o = -1;
    if (g < 0) return -1;
    if (attr) {
        if (H5Aexists(g, name) > 0) o = H5Aopen(g, name, H5P_DEFAULT);
    } else if (H5Lexists(g, name, H5P_DEFAULT) > 0) {
        o = H5Dopen2(g, name, H5P_DEFAULT); /* fails on a group of that name */
    }
    if (o >= 0) {
        *space = attr ? H5Aget_space(o) : H5Dget_space(o);
        *type = attr ? H5Aget_type(o) : H5Dget_type(o);
    }
    return o;
}

static void h5_close(hid_t o, int attr, hid_t space, hid_t type) {
    if (type >= 0) H5Tclose(type);
    if (space >= 0) H5Sclose(space);
    if (o >= 0 && attr) H5Aclose(o);
    else if (o >= 0) H5Dclose(o);
}

static int h5_find(void *ctx, const char *group, const char *name, int attr, floe_snap_found *f) {
    h5 *c = ctx;
    hid_t sp, t, o = h5_open(c, group, name, attr, &sp, &t);
    if (o < 0) {
        /* a link that is not a dataset (a group where a table belongs) */
        hid_t g = group_at(c, group, 0);
        int there = g >= 0 && (attr ? H5Aexists(g, name) > 0 : H5Lexists(g, name, H5P_DEFAULT) > 0);
        if (there) *f = (floe_snap_found){'?', -1, {0}};
        return there;
    }
    H5T_class_t k = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    f->klass = k == H5T_FLOAT ? 'f' : k == H5T_INTEGER ? 'i' : k == H5T_STRING && !H5Tis_variable_str(t) ? 's' : '?';
    hsize_t d[3] = {0, 0, 0};
    int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (rank > 3 || (rank > 0 && H5Sget_simple_extent_dims(sp, d, NULL) < 0)) rank = -1;
    f->rank = rank;
    for (int i = 0; i < 3; i++) f->dims[i] = (size_t)d[i];
    h5_close(o, attr, sp, t);
    return 1;
}

static int h5_read(void *ctx, const char *group, const char *name, int attr, floe_snap_type t, void *dst) {
    h5 *c = ctx;
    hid_t sp, ft, o = h5_open(c, group, name, attr, &sp, &ft);
    int rc = o >= 0 && (attr ? H5Aread(o, mem_type(t), dst)
                             : H5Dread(o, mem_type(t), H5S_ALL, H5S_ALL, H5P_DEFAULT, dst)) >= 0
                 ? 0
                 : -1;
    h5_close(o, attr, sp, ft);
    return rc;
}

static char **h5_read_strings(void *ctx, const char *group, const char *name, int attr, size_t n) {
    h5 *c = ctx;
    hid_t sp, ft, o = h5_open(c, group, name, attr, &sp, &ft);
    size_t len = ft >= 0 && H5Tget_class(ft) == H5T_STRING && !H5Tis_variable_str(ft) ? H5Tget_size(ft) : 0;
    char **out = NULL;
    char *text = len && len < 65536 ? calloc(n ? n : 1, len + 1) : NULL;
    hid_t mt = len ? str_type(len + 1) : -1;
    int ok = o >= 0 && text && mt >= 0 &&
             (n == 0 || (attr ? H5Aread(o, mt, text) : H5Dread(o, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, text)) >= 0);
    if (ok && (out = malloc(sizeof *out * (n ? n : 1) + n * (len + 1) + 1))) {
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
    h5_close(o, attr, sp, ft);
    return out;
}

/* ---- the run: settings, output configuration, where the outputs stood ------------------ */

/* Their tables (restart_table.c), through the walker the world's snapshot
 * goes through; /output only when r has the output counters. */
static void write_run(h5 *c, const floe_snap_writer *wr, const floe_restart *r) {
    char why[1024];
    if (floe_snap_table_write(&floe_io_run_table, r, wr, why, sizeof why) != 0 ||
        (r->has_output && floe_snap_table_write(&floe_io_output_table, &r->output, wr, why, sizeof why) != 0))
        fail(c, "%s", why);
}

static void read_run(floe_snap_in *in, floe_restart *r) {
    floe_snap_table_read(&floe_io_run_table, r, in);
    if (in->bad || !in->rd->has_group(in->rd->ctx, "output")) return;
    floe_snap_table_read(&floe_io_output_table, &r->output, in);
    r->has_output = !in->bad;
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
    h5 c = {.file = -1, .fcpl = -1, .gcpl = -1, .dcpl = -1, .path = path, .err = err, .errlen = errlen, .g = -1};
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
        floe_snap_writer wr = {&c, h5_put};
        int64_t ver = FLOE_RESTART_FORMAT;
        floe_snap_put(&wr, "", "format", 1, FLOE_SNAP_STR, 0, 0, 0, "floe restart", 0);
        floe_snap_put(&wr, "", "format_version", 1, FLOE_SNAP_I64, 0, 0, 0, &ver, 0);
        floe_snap_put(&wr, "", "floe_version", 1, FLOE_SNAP_STR, 0, 0, 0, FLOE_VERSION, 0);
        /* for people reading the file: where the run stood */
        int64_t step = floe_step_count(w);
        double time = floe_time(w);
        floe_snap_put(&wr, "", "step", 1, FLOE_SNAP_I64, 0, 0, 0, &step, 1);
        floe_snap_put(&wr, "", "time", 1, FLOE_SNAP_F64, 0, 0, 0, &time, 1);
        char why[1024];
        if (!c.bad && floe_snapshot_write(w, &wr, why, sizeof why) != 0) fail(&c, "%s", why);
        if (!c.bad) write_run(&c, &wr, r);
        group_release(&c);
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

/* ---- reading ------------------------------------------------------------------------ */

/* The file's format and version: a file of another version is refused,
 * naming both. */
static void check_format(h5 *c, floe_snap_in *in) {
    char fmt[64], ver_text[64] = "";
    floe_snap_get_text(in, "", "format", fmt, sizeof fmt);
    int64_t ver = floe_snap_get_int(in, "", "format_version", INT64_MIN, INT64_MAX);
    if (in->bad) return;
    if (strcmp(fmt, "floe restart") != 0) {
        floe_snap_fail(in, "not a floe restart file (its format attribute says '%s')", fmt);
        return;
    }
    if (ver == FLOE_RESTART_FORMAT) return;
    if (floe_snap_has(in, "", "floe_version", 1)) floe_snap_get_text(in, "", "floe_version", ver_text, sizeof ver_text);
    floe_snap_fail(in,
                   "restart format version %" PRId64 "%s%s%s: this floe (%s) reads version %d only; continue the "
                   "run with the floe that wrote it",
                   ver, *ver_text ? " (written by floe " : "", ver_text, *ver_text ? ")" : "", FLOE_VERSION,
                   FLOE_RESTART_FORMAT);
    (void)c;
}

int floe_restart_load(const char *path, floe_restart *r, char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    h5 c = {.file = -1, .fcpl = -1, .gcpl = -1, .dcpl = -1, .path = path, .err = err, .errlen = errlen, .g = -1};
    if (err && errlen) err[0] = 0;
    H5E_auto2_t efn;
    void *edata;
    hdf5_quiet(&efn, &edata);
    hid_t fapl = file_access();
    c.file = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : -1;
    if (c.file < 0) {
        struct stat st;
        if (stat(path, &st) != 0) fail(&c, "cannot open: %s", strerror(errno));
        else fail(&c, "not an HDF5 file, or a damaged one");
    }
    char why[1024] = "";
    floe_snap_reader rd = {&c, h5_has_group, h5_find, h5_read, h5_read_strings};
    floe_snap_in in = {&rd, why, sizeof why, 0};
    if (!c.bad) check_format(&c, &in);
    int damaged = 0;
    if (!c.bad && !in.bad && !(r->scene.world = floe_snapshot_read(&rd, why, sizeof why, &damaged))) in.bad = 1;
    if (!c.bad && !in.bad) read_run(&in, r);
    if (!c.bad && in.bad) fail(&c, "%s%s", why, damaged ? " (the file is damaged)" : "");
    group_release(&c);
    if (c.file >= 0) H5Fclose(c.file);
    if (fapl >= 0) H5Pclose(fapl);
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    if (r->scene.world) r->stopped = floe_stopped(r->scene.world);
    if (!c.bad && floe_restart_check(r, why, sizeof why) != 0) fail(&c, "%s (the file is damaged)", why);
    if (c.bad) {
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
    int64_t step = r && r->scene.world ? floe_step_count(r->scene.world) : 0;
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
