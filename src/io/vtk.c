/* VTK XML writers (see vtk.h and docs/outputs.md).
 *
 * A frame is built in two phases: every array is declared first (name, type,
 * components, tuples), which fixes the appended-data offsets, and the XML
 * header goes out; then the arrays are filled in windows of a few thousand
 * particles or contacts at a time, each window's part of every array
 * written at its place in the file. No per-value formatting, and the memory
 * a frame takes is one window, not the frame (a contacts frame of 230k
 * contacts is 70 MB). */
#include "io/vtk.h"
#include "base/mem.h"
#include "base/vec.h"
#include "io/body_arrays.h"
#include <floe/floe_shape.h>
#include "io/atomic.h"
#include "io/io_err.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(floe_vec3) == 3 * sizeof(double), "floe_vec3 must be 3 packed doubles");
_Static_assert(sizeof(floe_quat) == 4 * sizeof(double), "floe_quat must be 4 packed doubles");

enum vtk_type { T_F64, T_I64, T_I32, T_U32, T_U8 };
static const char *const type_name[] = {"Float64", "Int64", "Int32", "UInt32", "UInt8"};
static const size_t type_size[] = {8, 8, 4, 4, 1};

/* Where an array goes in the XML; the order of this enum is the element order. */
enum vtk_section { S_FIELD, S_POINTDATA, S_CELLDATA, S_POINTS, S_CELLS, S_LINES, S_POLYS, S_COUNT };

typedef struct vtk_array {
    char name[96];
    int type, ncomp, section;
    size_t ntuples;
    size_t offset;  /* of the block's UInt64 byte count, from the byte after '_' */
    size_t t0, win; /* the window: its first tuple, its place in `data` */
} vtk_array;

struct floe_vtk {
    vtk_array *arr;
    int narr, carr;
    size_t dlen;         /* bytes of all appended blocks, headers included */
    unsigned char *data; /* the window of every array */
    size_t dcap;
    floe_buf xml; /* the XML header */
    int oom;      /* an allocation failed while building this frame */
    int fd;       /* the frame's file, while it is written */
    size_t at;    /* where the appended data starts in it */
    int werr;     /* errno of a failed write, 0 if none */
    int *idx;     /* particle or contact scratch indices */
    size_t idx_cap;
    double *state; /* one contact's model state */
    int state_cap;
    unsigned char *seen; /* per registered model: appeared in some contacts frame */
    int nmodels;
    int *colmap; /* per model, per state name: state column, or -1 */
    char (*colname)[96];
    const char *normals; /* name of the point array that holds normals, or NULL */
};

struct floe_pvd {
    char *path, *tmp;
    floe_buf body; /* the <DataSet .../> lines written so far */
};

/* ---- small helpers ----------------------------------------------------- */

/* Window sizes of the large frames, in particles and contacts: a few MB. */
#define VTK_WINDOW 8192

/* A stream on a new output file that is not a symbolic link (io_err.h). */
static FILE *open_out(const char *path, int flags, char *err, size_t errlen) {
    int fd = floe_io_open_out(path, flags, err, errlen);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        floe_io_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

static const char *byte_order(void) {
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first ? "LittleEndian" : "BigEndian";
}

/* Typed stores into the byte buffer: blocks are not aligned, so go through memcpy. */
static inline void put_f64(unsigned char *p, size_t i, double x) { memcpy(p + 8 * i, &x, 8); }
static inline void put_i64(unsigned char *p, size_t i, int64_t x) { memcpy(p + 8 * i, &x, 8); }
static inline void put_i32(unsigned char *p, size_t i, int32_t x) { memcpy(p + 4 * i, &x, 4); }
static inline void put_u32(unsigned char *p, size_t i, uint32_t x) { memcpy(p + 4 * i, &x, 4); }
static inline void put_vec(unsigned char *p, size_t i, floe_vec3 x) { memcpy(p + 24 * i, &x, 24); }

/* The shape class of body i. */
static const floe_shape_info *class_of(const floe_world *w, int i) { return floe_shape_get(floe_particle_shape(w, i)); }

/* Bodies whose reference point says nothing about where they are
 * (boundaries): not particle points; a contact line ends at the contact
 * point on them. */
static int is_fixed_geometry(const floe_world *w, int i) { return (class_of(w, i)->flags & FLOE_SHAPE_BOUNDARY) != 0; }

/* Half extents along the body axes (the box in the body's own frame, the
 * class's half extents in the identity orientation): a sphere's radius
 * thrice, an ellipsoid's semi-axes, a capsule's (r + shaft/2, r, r). */
static floe_vec3 body_half_extents(const floe_world *w, int i) { return floe_body_half_extent(w, i, 0); }

/* ---- frame builder ----------------------------------------------------- */

floe_vtk *floe_vtk_create(void) {
    floe_vtk *v = calloc(1, sizeof(floe_vtk));
    if (v) v->fd = -1;
    return v;
}

void floe_vtk_destroy(floe_vtk *v) {
    if (!v) return;
    if (v->fd >= 0) close(v->fd);
    free(v->arr);
    free(v->data);
    floe__buf_free(&v->xml);
    free(v->idx);
    free(v->state);
    free(v->seen);
    free(v->colmap);
    free(v->colname);
    free(v);
}

static int vtk_decl(floe_vtk *v, int section, const char *name, int type, int ncomp, size_t ntuples);

/* Starts a frame with the arrays every frame has: TimeValue (the name
 * ParaView's XML readers take as the frame's time) and Step, arrays 0 and
 * 1, which vtk_start writes. */
static void vtk_begin(floe_vtk *v) {
    v->narr = 0;
    v->dlen = 0;
    floe__buf_reset(&v->xml);
    v->oom = 0;
    v->normals = NULL;
    vtk_decl(v, S_FIELD, "TimeValue", T_F64, 1, 1);
    vtk_decl(v, S_FIELD, "Step", T_I64, 1, 1);
}

/* Keeps names to what XML attributes and ParaView's calculator accept. */
static void clean_name(char *dst, size_t cap, const char *src) {
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++) {
        char c = src[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                 c == '-';
        dst[i] = ok ? c : '_';
    }
    dst[i] = '\0';
}

/* Declares an array; returns its index (or -1 after an allocation failure). */
static int vtk_decl(floe_vtk *v, int section, const char *name, int type, int ncomp, size_t ntuples) {
    if (!floe__grow((void **)&v->arr, &v->carr, v->narr + 1, sizeof(vtk_array))) {
        v->oom = 1;
        return -1;
    }
    vtk_array *a = &v->arr[v->narr];
    clean_name(a->name, sizeof a->name, name);
    a->type = type;
    a->ncomp = ncomp;
    a->section = section;
    a->ntuples = ntuples;
    a->offset = v->dlen;
    v->dlen += 8 + ntuples * (size_t)ncomp * type_size[type];
    return v->narr++;
}

static void xml_add(floe_vtk *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void xml_add(floe_vtk *v, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe__buf_vprintf(&v->xml, fmt, ap);
    va_end(ap);
}

static void xml_section(floe_vtk *v, int section, const char *tag, const char *indent, int always) {
    int any = 0;
    for (int i = 0; i < v->narr; i++) any |= v->arr[i].section == section;
    if (!any && !always) return;
    /* the Normals attribute makes ParaView shade the surface smoothly */
    if (section == S_POINTDATA && v->normals) xml_add(v, "%s<%s Normals=\"%s\">\n", indent, tag, v->normals);
    else xml_add(v, "%s<%s>\n", indent, tag);
    for (int i = 0; i < v->narr; i++) {
        const vtk_array *a = &v->arr[i];
        if (a->section != section) continue;
        xml_add(v, "%s  <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"", indent, type_name[a->type],
                a->name, a->ncomp);
        if (section == S_FIELD) xml_add(v, " NumberOfTuples=\"%zu\"", a->ntuples);
        xml_add(v, " format=\"appended\" offset=\"%zu\"/>\n", a->offset);
    }
    xml_add(v, "%s</%s>\n", indent, tag);
}

static int oom(char *err, size_t errlen, const char *path) {
    floe_io_err(err, errlen, "%s: out of memory", path);
    return -1;
}

/* Writes bytes p[0..n) at `at` in the appended data; a failure is kept
 * in v->werr and ends the frame's writes. */
static void put_bytes(floe_vtk *v, const void *p, size_t n, size_t at) {
    const unsigned char *q = p;
    at += v->at;
    while (n > 0 && !v->werr) {
        ssize_t k = pwrite(v->fd, q, n, (off_t)at);
        if (k > 0) {
            q += k;
            n -= (size_t)k;
            at += (size_t)k;
        } else if (k < 0 && errno != EINTR) {
            v->werr = errno;
        } else if (k == 0) {
            v->werr = ENOSPC; /* no progress: nothing more fits */
        }
    }
}

/* Creates `path` and writes the XML header for `type` ("UnstructuredGrid"
 * or "PolyData") with the given Piece attributes, every block's byte count
 * and the frame's time and step; the arrays follow window by window
 * (vtk_window, vtk_flush), the end with vtk_finish. */
static int vtk_start(floe_vtk *v, const floe_world *w, const char *path, const char *type, const char *piece_attrs,
                     const char *comment, char *err, size_t errlen) {
    floe__buf_reset(&v->xml);
    v->xml.bad = v->oom; /* an array that could not be declared fails the frame too */
    xml_add(v, "<?xml version=\"1.0\"?>\n");
    xml_add(v, "<VTKFile type=\"%s\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\">\n", type, byte_order());
    if (comment) xml_add(v, "  <!-- %s -->\n", comment);
    xml_add(v, "  <%s>\n", type);
    xml_section(v, S_FIELD, "FieldData", "    ", 0);
    xml_add(v, "    <Piece %s>\n", piece_attrs);
    xml_section(v, S_POINTDATA, "PointData", "      ", 1);
    xml_section(v, S_CELLDATA, "CellData", "      ", 1);
    xml_section(v, S_POINTS, "Points", "      ", 1);
    xml_section(v, S_CELLS, "Cells", "      ", 0);
    xml_section(v, S_LINES, "Lines", "      ", 0);
    xml_section(v, S_POLYS, "Polys", "      ", 0);
    xml_add(v, "    </Piece>\n  </%s>\n  <AppendedData encoding=\"raw\">\n   _", type);
    if (v->xml.bad) return oom(err, errlen, path);
    v->fd = floe_io_open_out(path, O_WRONLY | O_CREAT | O_TRUNC, err, errlen);
    if (v->fd < 0) return -1;
    v->at = 0;
    v->werr = 0;
    put_bytes(v, v->xml.s, v->xml.len, 0);
    v->at = v->xml.len;
    for (int i = 0; i < v->narr; i++) {
        const vtk_array *a = &v->arr[i];
        uint64_t nbytes = (uint64_t)(a->ntuples * (size_t)a->ncomp * type_size[a->type]);
        put_bytes(v, &nbytes, 8, a->offset);
    }
    double t = floe_time(w);
    int64_t step = floe_step_count(w);
    put_bytes(v, &t, 8, v->arr[0].offset + 8);
    put_bytes(v, &step, 8, v->arr[1].offset + 8);
    return 0;
}

/* The window of items [k0, k1) of m: every array but the field data holds
 * ntuples / m tuples per item (the writers declare them so), and gets
 * those of the window. A frame written in one window takes (0, 1, 1).
 * Returns -1 when out of memory. */
static int vtk_window(floe_vtk *v, size_t k0, size_t k1, size_t m) {
    size_t bytes = 1;
    for (int i = 0; i < v->narr; i++) {
        vtk_array *a = &v->arr[i];
        if (a->section == S_FIELD) continue;
        size_t per = m ? a->ntuples / m : 0, tb = (size_t)a->ncomp * type_size[a->type];
        a->t0 = k0 * per;
        a->win = bytes;
        bytes += (k1 - k0) * per * tb;
    }
    return floe__grow_size((void **)&v->data, &v->dcap, bytes, 1) ? 0 : -1;
}

/* Window of array i: tuple j of it is tuple t0 + j of the array. */
static unsigned char *vtk_ptr(floe_vtk *v, int i) { return v->data + v->arr[i].win; }

/* Writes the window of every array at its place in the file. */
static void vtk_flush(floe_vtk *v, size_t k0, size_t k1, size_t m) {
    for (int i = 0; i < v->narr; i++) {
        const vtk_array *a = &v->arr[i];
        if (a->section == S_FIELD) continue;
        size_t per = m ? a->ntuples / m : 0, tb = (size_t)a->ncomp * type_size[a->type];
        put_bytes(v, v->data + a->win, (k1 - k0) * per * tb, a->offset + 8 + a->t0 * tb);
    }
}

/* Writes the end of the file and closes it; rc -1: a window could not be
 * allocated. Returns 0, or -1 with the message in err. */
static int vtk_finish(floe_vtk *v, const char *path, int rc, char *err, size_t errlen) {
    static const char tail[] = "\n  </AppendedData>\n</VTKFile>\n";
    put_bytes(v, tail, sizeof tail - 1, v->dlen);
    int saved = v->werr;
    if (close(v->fd) != 0 && !saved) saved = errno;
    v->fd = -1;
    if (rc) return oom(err, errlen, path);
    if (saved) {
        floe_io_err(err, errlen, "error writing %s: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}

/* The arrays of every body drawn in the boundaries and shapes frames, in
 * this order (the particles frame has its own), `n` tuples in `section`. */
typedef struct body_arrays {
    int id, shape, mat, grp, vel, angvel;
} body_arrays;

static body_arrays decl_body(floe_vtk *v, int section, size_t n) {
    body_arrays a;
    a.id = vtk_decl(v, section, "id", T_I32, 1, n);
    a.shape = vtk_decl(v, section, "shape", T_I32, 1, n);
    a.mat = vtk_decl(v, section, "material", T_I32, 1, n);
    a.grp = vtk_decl(v, section, "groups", T_U32, 1, n);
    a.vel = vtk_decl(v, section, "velocity", T_F64, 3, n);
    a.angvel = vtk_decl(v, section, "angular_velocity", T_F64, 3, n);
    return a;
}

/* Tuple k of those arrays: body i. */
static void put_body(floe_vtk *v, const body_arrays *a, size_t k, const floe_world *w, int i) {
    put_i32(vtk_ptr(v, a->id), k, i);
    put_i32(vtk_ptr(v, a->shape), k, (int32_t)floe_particle_shape(w, i));
    put_i32(vtk_ptr(v, a->mat), k, floe_particle_materials(w)[i]);
    put_u32(vtk_ptr(v, a->grp), k, floe_particle_groups(w)[i]);
    put_vec(vtk_ptr(v, a->vel), k, floe_velocities(w)[i]);
    put_vec(vtk_ptr(v, a->angvel), k, floe_angular_velocities(w)[i]);
}

/* The Piece attributes of a PolyData frame of npts points and nlines lines
 * or npolys polygons. */
static void polydata_attrs(char *attrs, size_t cap, size_t npts, size_t nlines, size_t npolys) {
    snprintf(attrs, cap,
             "NumberOfPoints=\"%zu\" NumberOfVerts=\"0\" NumberOfLines=\"%zu\" "
             "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\"",
             npts, nlines, npolys);
}

/* ---- particles --------------------------------------------------------- */

static floe_draw_box scene_extent(const floe_world *w);

/* A frame without particles (an inlet's scene at its start, a silo that a
 * sink emptied) holds one placeholder point and no vertex cell: id -1,
 * shape -1, radius and mass 0, at rest, identity orientation, at the centre
 * of the scene's box. ParaView lists the point arrays of the frame it
 * shows, and an empty frame has none to list
 * (docs/decisions.md#a-particles-frame-is-never-empty). */
int floe_vtk_write_particles(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen) {
    int n = floe_particle_count(w);
    if (!floe__grow_size((void **)&v->idx, &v->idx_cap, (size_t)n + 1, sizeof(int))) return oom(err, errlen, path);
    size_t m = 0;
    for (int i = 0; i < n; i++)
        if (!is_fixed_geometry(w, i)) v->idx[m++] = i;

    size_t np = m ? m : 1; /* points: the placeholder of an empty frame */
    vtk_begin(v);
    int a_pts = vtk_decl(v, S_POINTS, "Points", T_F64, 3, np);
    int a_id = vtk_decl(v, S_POINTDATA, "id", T_I32, 1, np);
    int a_shape = vtk_decl(v, S_POINTDATA, "shape", T_I32, 1, np);
    int a_rad = vtk_decl(v, S_POINTDATA, "radius", T_F64, 1, np);
    int a_half = vtk_decl(v, S_POINTDATA, "half_extents", T_F64, 3, np);
    int a_mass = vtk_decl(v, S_POINTDATA, "mass", T_F64, 1, np);
    int a_vel = vtk_decl(v, S_POINTDATA, "velocity", T_F64, 3, np);
    int a_angvel = vtk_decl(v, S_POINTDATA, "angular_velocity", T_F64, 3, np);
    int a_force = vtk_decl(v, S_POINTDATA, "force", T_F64, 3, np);
    int a_torque = vtk_decl(v, S_POINTDATA, "torque", T_F64, 3, np);
    int a_ori = vtk_decl(v, S_POINTDATA, "orientation", T_F64, 4, np);
    int a_mat = vtk_decl(v, S_POINTDATA, "material", T_I32, 1, np);
    int a_grp = vtk_decl(v, S_POINTDATA, "groups", T_U32, 1, np);
    int a_blk = vtk_decl(v, S_POINTDATA, "blocked", T_U32, 1, np);
    int a_conn = vtk_decl(v, S_CELLS, "connectivity", T_I64, 1, m);
    int a_off = vtk_decl(v, S_CELLS, "offsets", T_I64, 1, m);
    int a_types = vtk_decl(v, S_CELLS, "types", T_U8, 1, m);
    char attrs[128];
    snprintf(attrs, sizeof attrs, "NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\"", np, m);
    if (vtk_start(v, w, path, "UnstructuredGrid", attrs, NULL, err, errlen)) return -1;
    floe_body_arrays B = floe_body_arrays_of(w);
    int rc = 0;
    if (m == 0 && (rc = vtk_window(v, 0, 1, 1)) == 0) {
        floe_draw_box box = scene_extent(w);
        memset(v->data, 0, v->dcap);
        put_vec(vtk_ptr(v, a_pts), 0, vscale(vadd(box.lo, box.hi), 0.5));
        put_i32(vtk_ptr(v, a_id), 0, -1);
        put_i32(vtk_ptr(v, a_shape), 0, -1);
        put_f64(vtk_ptr(v, a_ori), 0, 1.0); /* w of (w, x, y, z) */
        vtk_flush(v, 0, 1, 1);
    }
    for (size_t k0 = 0; k0 < m && !rc && !v->werr; k0 += VTK_WINDOW) {
        size_t k1 = m - k0 < VTK_WINDOW ? m : k0 + VTK_WINDOW;
        if ((rc = vtk_window(v, k0, k1, m)) != 0) break;
        unsigned char *p_pts = vtk_ptr(v, a_pts), *p_id = vtk_ptr(v, a_id);
        unsigned char *p_rad = vtk_ptr(v, a_rad), *p_mass = vtk_ptr(v, a_mass);
        unsigned char *p_vel = vtk_ptr(v, a_vel), *p_angvel = vtk_ptr(v, a_angvel);
        unsigned char *p_force = vtk_ptr(v, a_force), *p_torque = vtk_ptr(v, a_torque);
        unsigned char *p_ori = vtk_ptr(v, a_ori), *p_mat = vtk_ptr(v, a_mat);
        unsigned char *p_grp = vtk_ptr(v, a_grp), *p_blk = vtk_ptr(v, a_blk);
        unsigned char *p_conn = vtk_ptr(v, a_conn), *p_off = vtk_ptr(v, a_off);
        unsigned char *p_types = vtk_ptr(v, a_types);
        for (size_t k = k0; k < k1; k++) {
            int i = v->idx[k];
            size_t j = k - k0; /* in the window */
            put_vec(p_pts, j, B.pos[i]);
            put_i32(p_id, j, i);
            put_i32(vtk_ptr(v, a_shape), j, (int32_t)floe_particle_shape(w, i));
            put_f64(p_rad, j, B.rad[i]);
            put_vec(vtk_ptr(v, a_half), j, body_half_extents(w, i));
            put_f64(p_mass, j, B.mass[i]);
            put_vec(p_vel, j, B.vel[i]);
            put_vec(p_angvel, j, B.angvel[i]);
            put_vec(p_force, j, B.force[i]);
            put_vec(p_torque, j, B.torque[i]);
            memcpy(p_ori + 32 * j, &B.ori[i], 32); /* (w, x, y, z) */
            put_i32(p_mat, j, B.mat[i]);
            put_u32(p_grp, j, B.grp[i]);
            put_u32(p_blk, j, B.blk[i]);
            put_i64(p_conn, j, (int64_t)k);
            put_i64(p_off, j, (int64_t)k + 1);
            p_types[j] = 1; /* VTK_VERTEX */
        }
        vtk_flush(v, k0, k1, m);
    }
    return vtk_finish(v, path, rc, err, errlen);
}

/* ---- contacts ---------------------------------------------------------- */

static int model_index(int nmodels, const char *name) {
    if (!name) return -1;
    for (int m = 0; m < nmodels; m++) {
        const floe_model_info *mi = floe_model_get(m);
        if (mi && (mi->name == name || strcmp(mi->name, name) == 0)) return m;
    }
    return -1;
}

/* Fixed contact arrays; a model state name equal to one of these is written
 * as "state_<name>" so the two never collide. */
static const char *const contact_fixed[] = {
    "id_a",        "id_b",         "model",        "fn", "ft", "tw",   "tr",           "uN",        "normal", "point",
    "force_local", "torque_local", "force_global", "kn", "kt", "area", "step_created", "TimeValue", "Step",   NULL};

static int is_fixed_contact_name(const char *s) {
    for (int i = 0; contact_fixed[i]; i++)
        if (strcmp(contact_fixed[i], s) == 0) return 1;
    return 0;
}

/* Builds the state columns: the union, by name, of the state names of every
 * model seen so far, in registry order. Returns the column count or -1. */
static int build_state_columns(floe_vtk *v) {
    size_t total = 0;
    for (int m = 0; m < v->nmodels; m++) {
        const floe_model_info *mi = floe_model_get(m);
        if (mi && mi->n_state > 0) total += (size_t)mi->n_state;
    }
    free(v->colmap);
    free(v->colname);
    v->colmap = malloc((total + 1) * sizeof *v->colmap);
    v->colname = malloc((total + 1) * sizeof *v->colname);
    if (!v->colmap || !v->colname) return -1;
    int ncol = 0;
    size_t base = 0;
    int maxstate = 1;
    for (int m = 0; m < v->nmodels; m++) {
        const floe_model_info *mi = floe_model_get(m);
        int ns = mi && mi->n_state > 0 ? mi->n_state : 0;
        if (ns > maxstate) maxstate = ns;
        for (int k = 0; k < ns; k++) {
            v->colmap[base + (size_t)k] = -1;
            if (!v->seen[m] || !mi->state_names || !mi->state_names[k]) continue;
            char name[96];
            if (is_fixed_contact_name(mi->state_names[k])) snprintf(name, sizeof name, "state_%s", mi->state_names[k]);
            else snprintf(name, sizeof name, "%s", mi->state_names[k]);
            clean_name(name, sizeof name, name);
            int c = 0;
            while (c < ncol && strcmp(v->colname[c], name) != 0) c++;
            if (c == ncol) memcpy(v->colname[ncol++], name, sizeof name);
            v->colmap[base + (size_t)k] = c;
        }
        base += (size_t)ns;
    }
    if (!floe__grow((void **)&v->state, &v->state_cap, maxstate, sizeof *v->state)) return -1;
    return ncol;
}

static size_t model_base(int model) {
    size_t base = 0;
    for (int m = 0; m < model; m++) {
        const floe_model_info *mi = floe_model_get(m);
        if (mi && mi->n_state > 0) base += (size_t)mi->n_state;
    }
    return base;
}

/* The end of a contact line on particle `id`: its centre for a sphere-like
 * particle; the contact point for a wall or facet, whose reference point
 * may be far away. */
static floe_vec3 line_end(const floe_world *w, int id, const floe_contact_info *ci) {
    if (id < 0 || id >= floe_particle_count(w) || is_fixed_geometry(w, id)) return ci->point;
    return floe_positions(w)[id];
}

static int alloc_seen(floe_vtk *v) {
    if (v->seen) return 0;
    v->nmodels = floe_model_count();
    v->seen = calloc((size_t)v->nmodels + 1, 1);
    return v->seen ? 0 : -1;
}

int floe_vtk_model_seen(const floe_vtk *v, int model) {
    return v && v->seen && model >= 0 && model < v->nmodels && v->seen[model];
}

int floe_vtk_set_model_seen(floe_vtk *v, int model) {
    if (alloc_seen(v)) return -1;
    if (model >= 0 && model < v->nmodels) v->seen[model] = 1;
    return 0;
}

int floe_vtk_write_contacts(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen) {
    if (alloc_seen(v)) return oom(err, errlen, path);
    int nc = floe_contact_count(w);
    if (nc < 0) nc = 0;
    size_t m = (size_t)nc;
    if (!floe__grow_size((void **)&v->idx, &v->idx_cap, m + 1, sizeof(int))) return oom(err, errlen, path);
    floe_contact_info ci;
    for (int i = 0; i < nc; i++) {
        int mod = -1;
        if (floe_contact_get(w, i, &ci) == FLOE_OK) mod = model_index(v->nmodels, ci.model);
        v->idx[i] = mod;
        if (mod >= 0) v->seen[mod] = 1;
    }
    int ncol = build_state_columns(v);
    if (ncol < 0) return oom(err, errlen, path);

    vtk_begin(v);
    int a_pts = vtk_decl(v, S_POINTS, "Points", T_F64, 3, 2 * m);
    int a_a = vtk_decl(v, S_CELLDATA, "id_a", T_I32, 1, m);
    int a_b = vtk_decl(v, S_CELLDATA, "id_b", T_I32, 1, m);
    int a_model = vtk_decl(v, S_CELLDATA, "model", T_I32, 1, m);
    int a_fn = vtk_decl(v, S_CELLDATA, "fn", T_F64, 1, m);
    int a_ft = vtk_decl(v, S_CELLDATA, "ft", T_F64, 1, m);
    int a_tw = vtk_decl(v, S_CELLDATA, "tw", T_F64, 1, m);
    int a_tr = vtk_decl(v, S_CELLDATA, "tr", T_F64, 1, m);
    int a_un = vtk_decl(v, S_CELLDATA, "uN", T_F64, 1, m);
    int a_normal = vtk_decl(v, S_CELLDATA, "normal", T_F64, 3, m);
    int a_point = vtk_decl(v, S_CELLDATA, "point", T_F64, 3, m);
    int a_fl = vtk_decl(v, S_CELLDATA, "force_local", T_F64, 3, m);
    int a_tl = vtk_decl(v, S_CELLDATA, "torque_local", T_F64, 3, m);
    int a_fg = vtk_decl(v, S_CELLDATA, "force_global", T_F64, 3, m);
    int a_kn = vtk_decl(v, S_CELLDATA, "kn", T_F64, 1, m);
    int a_kt = vtk_decl(v, S_CELLDATA, "kt", T_F64, 1, m);
    int a_area = vtk_decl(v, S_CELLDATA, "area", T_F64, 1, m);
    int a_created = vtk_decl(v, S_CELLDATA, "step_created", T_I64, 1, m);
    int a_state0 = v->narr;
    for (int c = 0; c < ncol; c++) vtk_decl(v, S_CELLDATA, v->colname[c], T_F64, 1, m);
    int a_conn = vtk_decl(v, S_LINES, "connectivity", T_I64, 1, 2 * m);
    int a_off = vtk_decl(v, S_LINES, "offsets", T_I64, 1, m);
    /* The cell array "model" holds registry indices; name them for readers. */
    char comment[1024];
    int len = snprintf(comment, sizeof comment, "model ids:");
    for (int mod = 0; mod < v->nmodels && len > 0 && (size_t)len < sizeof comment - 100; mod++) {
        const floe_model_info *mi = floe_model_get(mod);
        char name[64];
        clean_name(name, sizeof name, mi && mi->name ? mi->name : "?");
        for (char *q = name; *q; q++)
            if (*q == '-') *q = '_'; /* "--" may not appear in an XML comment */
        len += snprintf(comment + len, sizeof comment - (size_t)len, "%s %d %s", mod ? "," : "", mod, name);
    }
    char attrs[192];
    polydata_attrs(attrs, sizeof attrs, 2 * m, m, 0);
    if (vtk_start(v, w, path, "PolyData", attrs, comment, err, errlen)) return -1;
    int rc = 0;
    for (size_t k0 = 0; k0 < m && !rc && !v->werr; k0 += VTK_WINDOW) {
        size_t k1 = m - k0 < VTK_WINDOW ? m : k0 + VTK_WINDOW;
        if ((rc = vtk_window(v, k0, k1, m)) != 0) break;
        unsigned char *p_pts = vtk_ptr(v, a_pts), *p_a = vtk_ptr(v, a_a), *p_b = vtk_ptr(v, a_b);
        unsigned char *p_model = vtk_ptr(v, a_model), *p_fn = vtk_ptr(v, a_fn), *p_ft = vtk_ptr(v, a_ft);
        unsigned char *p_tw = vtk_ptr(v, a_tw), *p_tr = vtk_ptr(v, a_tr), *p_un = vtk_ptr(v, a_un);
        unsigned char *p_normal = vtk_ptr(v, a_normal), *p_point = vtk_ptr(v, a_point);
        unsigned char *p_fl = vtk_ptr(v, a_fl), *p_tl = vtk_ptr(v, a_tl), *p_fg = vtk_ptr(v, a_fg);
        unsigned char *p_kn = vtk_ptr(v, a_kn), *p_kt = vtk_ptr(v, a_kt), *p_area = vtk_ptr(v, a_area);
        unsigned char *p_created = vtk_ptr(v, a_created);
        unsigned char *p_conn = vtk_ptr(v, a_conn), *p_off = vtk_ptr(v, a_off);
        for (size_t i = k0; i < k1; i++) {
            size_t j = i - k0; /* in the window */
            if (floe_contact_get(w, (int)i, &ci) != FLOE_OK) {
                memset(&ci, 0, sizeof ci);
                ci.a = ci.b = -1;
                ci.uN = ci.kn = ci.kt = ci.area = NAN;
            }
            put_vec(p_pts, 2 * j, line_end(w, ci.a, &ci));
            /* across a periodic cell's face, B's end is the contact point: the
             * line stays inside the cell (docs/periodic.md) */
            int img = ci.image[0] || ci.image[1] || ci.image[2];
            put_vec(p_pts, 2 * j + 1, img ? ci.point : line_end(w, ci.b, &ci));
            put_i32(p_a, j, ci.a);
            put_i32(p_b, j, ci.b);
            put_i32(p_model, j, v->idx[i]);
            put_f64(p_fn, j, ci.force.x);
            put_f64(p_ft, j, hypot(ci.force.y, ci.force.z));
            put_f64(p_tw, j, ci.torque.x);
            put_f64(p_tr, j, hypot(ci.torque.y, ci.torque.z));
            put_f64(p_un, j, ci.uN);
            put_vec(p_normal, j, ci.normal);
            put_vec(p_point, j, ci.point);
            put_vec(p_fl, j, ci.force);
            put_vec(p_tl, j, ci.torque);
            put_vec(p_fg, j, ci.force_global);
            put_f64(p_kn, j, ci.kn);
            put_f64(p_kt, j, ci.kt);
            put_f64(p_area, j, ci.area);
            put_i64(p_created, j, ci.step_created);
            put_i64(p_conn, 2 * j, (int64_t)(2 * i));
            put_i64(p_conn, 2 * j + 1, (int64_t)(2 * i + 1));
            put_i64(p_off, j, (int64_t)(2 * i + 2));
            /* Not-applicable state is NaN: ParaView shows it in the NaN colour. */
            for (int c = 0; c < ncol; c++) put_f64(vtk_ptr(v, a_state0 + c), j, NAN);
            int mod = v->idx[i];
            if (mod >= 0 && ncol > 0) {
                int ns = floe_contact_state(w, (int)i, v->state, v->state_cap);
                const floe_model_info *mi = floe_model_get(mod);
                if (ns > mi->n_state) ns = mi->n_state;
                size_t base = model_base(mod);
                for (int k = 0; k < ns; k++) {
                    int c = v->colmap[base + (size_t)k];
                    if (c >= 0) put_f64(vtk_ptr(v, a_state0 + c), j, v->state[k]);
                }
            }
        }
        vtk_flush(v, k0, k1, m);
    }
    return vtk_finish(v, path, rc, err, errlen);
}

/* ---- boundaries -------------------------------------------------------- */

/* Bounding box of every body but the infinite ones (walls, cylinders):
 * bodies by their exact boxes, finite boundaries (facets) by their
 * corners. Non-finite values (a runaway) are skipped. Returns 0 when the box
 * is empty. */
static int scene_box(const floe_world *w, floe_vec3 *lo, floe_vec3 *hi) {
    int n = floe_particle_count(w), any = 0;
    for (int i = 0; i < n; i++) {
        floe_vec3 pts[FLOE_SHAPE_MAX_VERTICES];
        int np = 0;
        floe_vec3 ext = {0, 0, 0}; /* half extent about each point */
        if (is_fixed_geometry(w, i)) {
            np = floe_body_vertices(w, i, pts);
            if (np == 0) continue; /* infinite */
        } else {
            /* the exact box of the rotated body */
            ext = floe_body_half_extent(w, i, 1);
            pts[0] = floe_positions(w)[i];
            np = 1;
        }
        for (int j = 0; j < np; j++) {
            if (!isfinite(pts[j].x) || !isfinite(pts[j].y) || !isfinite(pts[j].z)) continue;
            if (!isfinite(ext.x) || !isfinite(ext.y) || !isfinite(ext.z)) ext = (floe_vec3){0, 0, 0};
            for (int k = 0; k < 3; k++) {
                double x = vcomp(pts[j], k), e = vcomp(ext, k);
                if (!any || x - e < vcomp(*lo, k)) vset(lo, k, x - e);
                if (!any || x + e > vcomp(*hi, k)) vset(hi, k, x + e);
            }
            any = 1;
        }
    }
    return any;
}

/* Infinite bodies (walls, cylinders) are drawn over the scene's box
 * (box.have: whether there is one; lo, hi: zero if not) plus the margin:
 * 10 % of its largest side. */
static floe_draw_box scene_extent(const floe_world *w) {
    floe_draw_box b;
    b.lo = b.hi = v3(0, 0, 0);
    b.have = scene_box(w, &b.lo, &b.hi);
    double ext = 0;
    for (int k = 0; k < 3; k++) ext = fmax(ext, vcomp(b.hi, k) - vcomp(b.lo, k));
    b.margin = b.have && ext > 0 ? 0.1 * ext : 0.5;
    return b;
}

/* The picture of body i (its class draws it): points, normals (may be
 * NULL) and corners, room for the largest class's. */
typedef struct picture {
    floe_vec3 pt[FLOE_SHAPE_MAX_POINTS], nrm[FLOE_SHAPE_MAX_POINTS];
    int32_t corner[FLOE_SHAPE_MAX_FACES * 4];
} picture;

static const floe_shape_info *draw_body(const floe_world *w, int i, const floe_draw_box *box, picture *pic) {
    floe_body_picture(w, i, box, pic->pt, pic->nrm, pic->corner);
    return class_of(w, i);
}

/* Bodies drawn as boundaries (walls, facets: polygons) or as surfaces. */
static int draws(const floe_world *w, int i, int how) { return class_of(w, i)->draw == how; }

/* The periodic cell's corners: the parallelepiped on the cell vectors
 * from its origin along the periodic axes, the scene's box plus the margin
 * along the others. Corner c has bit k set for the far side along axis k. */
static void cell_corners(const floe_world *w, int axes, const floe_draw_box *box, floe_vec3 corner[8]) {
    double h[9];
    floe_vec3 o, e[3];
    floe_world_get_cell(w, h, &o);
    for (int k = 0; k < 3; k++) {
        if (axes >> k & 1) {
            e[k] = v3(h[k], h[3 + k], h[6 + k]); /* column k */
        } else {
            vset(&o, k, vcomp(box->lo, k) - box->margin);
            e[k] = v3(0, 0, 0);
            vset(&e[k], k, vcomp(box->hi, k) - vcomp(box->lo, k) + 2 * box->margin);
        }
    }
    for (int c = 0; c < 8; c++) {
        floe_vec3 p = o;
        for (int k = 0; k < 3; k++)
            if (c >> k & 1) p = vadd(p, e[k]);
        corner[c] = p;
    }
}

/* Cell data of what is not a body (the water surface, the periodic
 * cell's edges): id -1, the given shape code, material -1, no groups. */
static void put_not_body(floe_vtk *v, const body_arrays *a, size_t k, int shape, floe_vec3 vel) {
    put_i32(vtk_ptr(v, a->id), k, -1);
    put_i32(vtk_ptr(v, a->shape), k, shape);
    put_i32(vtk_ptr(v, a->mat), k, -1);
    put_u32(vtk_ptr(v, a->grp), k, 0);
    put_vec(vtk_ptr(v, a->vel), k, vel);
    put_vec(vtk_ptr(v, a->angvel), k, v3(0, 0, 0));
}

/* Shape codes of boundaries.vtp beyond the bodies' (docs/outputs.md). */
enum { VTK_WATER_SURFACE = -1, VTK_PERIODIC_CELL = -2 };

int floe_vtk_write_boundaries(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen) {
    int n = floe_particle_count(w);
    if (!floe__grow_size((void **)&v->idx, &v->idx_cap, (size_t)n + 1, sizeof(int))) return oom(err, errlen, path);
    size_t nb = 0, ncell = 0, npts = 0, nconn = 0;
    for (int i = 0; i < n; i++) {
        if (!draws(w, i, FLOE_DRAW_BOUNDARY)) continue;
        const floe_shape_info *c = class_of(w, i);
        npts += (size_t)c->draw_points;
        ncell += (size_t)c->draw_faces;
        nconn += (size_t)c->draw_faces * (size_t)c->face_size;
        v->idx[nb++] = i;
    }
    /* The water surface, a quad, and the periodic cell, its 12 edges as
     * lines: drawn so that ParaView shows the scene the pictures of `floe
     * render` show (docs/decisions.md#the-water-surface-and-the-periodic-cell-are-drawn-with-the-boundaries). */
    floe_water_def water;
    int wet = floe_world_get_water(w, &water);
    int axes = floe_world_get_cell(w, NULL, NULL);
    size_t nlines = axes ? 12 : 0, npolys = ncell + (wet ? 1 : 0);
    size_t nbody_pts = npts;
    npts += (wet ? 4 : 0) + (axes ? 8 : 0);
    /* Walls are infinite: draw them over the scene's extent plus 10 %. */
    floe_draw_box box = scene_extent(w);

    vtk_begin(v);
    int a_pts = vtk_decl(v, S_POINTS, "Points", T_F64, 3, npts);
    int a_pvel = vtk_decl(v, S_POINTDATA, "velocity", T_F64, 3, npts);
    /* cell data: the lines first, then the polygons (VTK's order) */
    body_arrays a_body = decl_body(v, S_CELLDATA, nlines + npolys);
    int a_force = vtk_decl(v, S_CELLDATA, "force", T_F64, 3, nlines + npolys);
    int a_torque = vtk_decl(v, S_CELLDATA, "torque", T_F64, 3, nlines + npolys);
    int a_thick = vtk_decl(v, S_CELLDATA, "half_thickness", T_F64, 1, nlines + npolys);
    int a_lconn = axes ? vtk_decl(v, S_LINES, "connectivity", T_I64, 1, 2 * nlines) : -1;
    int a_loff = axes ? vtk_decl(v, S_LINES, "offsets", T_I64, 1, nlines) : -1;
    int a_conn = vtk_decl(v, S_POLYS, "connectivity", T_I64, 1, nconn + (wet ? 4 : 0));
    int a_off = vtk_decl(v, S_POLYS, "offsets", T_I64, 1, npolys);
    char attrs[192];
    polydata_attrs(attrs, sizeof attrs, npts, nlines, npolys);
    const char *ids = wet || axes ? "shape ids: 1 wall, 2 facet, -1 water surface, -2 periodic cell" : NULL;
    if (vtk_start(v, w, path, "PolyData", attrs, ids, err, errlen)) return -1;
    int rc = vtk_window(v, 0, 1, 1); /* one window: a few bodies */
    picture *pic = rc || nb == 0 ? NULL : malloc(sizeof *pic);
    if (nb > 0 && !pic) rc = -1;
    if (!rc) {
        /* force, torque and half thickness are zero where not set below */
        memset(v->data, 0, v->dcap);
    }
    if (pic) {
        floe_body_arrays B = floe_body_arrays_of(w);
        unsigned char *p_pts = vtk_ptr(v, a_pts), *p_pvel = vtk_ptr(v, a_pvel);
        unsigned char *p_conn = vtk_ptr(v, a_conn), *p_off = vtk_ptr(v, a_off);
        size_t ip = 0, ic = 0, cell = nlines;
        for (size_t b = 0; b < nb; b++) {
            int i = v->idx[b];
            const floe_shape_info *c = draw_body(w, i, &box, pic);
            for (int j = 0; j < c->draw_points; j++) {
                put_vec(p_pts, ip + (size_t)j, pic->pt[j]);
                /* rigid-body velocity at the vertex (docs/geometry.md#every-later-step); bodies that do not turn
                 * (walls) translate only */
                floe_vec3 pv = B.vel[i];
                if (c->flags & FLOE_SHAPE_TURNS) pv = vadd(pv, vcross(B.angvel[i], vsub(pic->pt[j], B.pos[i])));
                put_vec(p_pvel, ip + (size_t)j, pv);
            }
            for (int f = 0; f < c->draw_faces; f++, cell++) {
                for (int k = 0; k < c->face_size; k++, ic++)
                    put_i64(p_conn, ic, (int64_t)ip + pic->corner[f * c->face_size + k]);
                put_i64(p_off, cell - nlines, (int64_t)ic);
                put_body(v, &a_body, cell, w, i);
                put_vec(vtk_ptr(v, a_force), cell, B.force[i]);
                put_vec(vtk_ptr(v, a_torque), cell, B.torque[i]);
                put_f64(vtk_ptr(v, a_thick), cell, B.rad[i]);
            }
            ip += (size_t)c->draw_points;
        }
        free(pic);
    }
    if (!rc && wet) {
        /* the surface z = level over the scene's box plus the margin,
         * counterclockwise seen from above; it moves with the current */
        double x0 = box.lo.x - box.margin, x1 = box.hi.x + box.margin;
        double y0 = box.lo.y - box.margin, y1 = box.hi.y + box.margin;
        floe_vec3 q[4] = {v3(x0, y0, water.level), v3(x1, y0, water.level), v3(x1, y1, water.level),
                          v3(x0, y1, water.level)};
        for (int k = 0; k < 4; k++) {
            put_vec(vtk_ptr(v, a_pts), nbody_pts + (size_t)k, q[k]);
            put_vec(vtk_ptr(v, a_pvel), nbody_pts + (size_t)k, water.current);
            put_i64(vtk_ptr(v, a_conn), nconn + (size_t)k, (int64_t)(nbody_pts + (size_t)k));
        }
        put_i64(vtk_ptr(v, a_off), ncell, (int64_t)(nconn + 4));
        put_not_body(v, &a_body, nlines + ncell, VTK_WATER_SURFACE, water.current);
    }
    if (!rc && axes) {
        /* the 12 edges: corner c to corner c | bit k, for c without bit k;
         * a corner moves with the cell, L (x - origin) */
        floe_vec3 corner[8];
        cell_corners(w, axes, &box, corner);
        double l[9];
        floe_world_velocity_gradient(w, l);
        size_t p0 = nbody_pts + (wet ? 4 : 0), e = 0;
        for (int c = 0; c < 8; c++) {
            floe_vec3 d = vsub(corner[c], corner[0]);
            floe_vec3 cv = v3(l[0] * d.x + l[1] * d.y + l[2] * d.z, l[3] * d.x + l[4] * d.y + l[5] * d.z,
                              l[6] * d.x + l[7] * d.y + l[8] * d.z);
            put_vec(vtk_ptr(v, a_pts), p0 + (size_t)c, corner[c]);
            put_vec(vtk_ptr(v, a_pvel), p0 + (size_t)c, cv);
            for (int k = 0; k < 3; k++) {
                if (c >> k & 1) continue;
                put_i64(vtk_ptr(v, a_lconn), 2 * e, (int64_t)(p0 + (size_t)c));
                put_i64(vtk_ptr(v, a_lconn), 2 * e + 1, (int64_t)(p0 + (size_t)(c | 1 << k)));
                put_i64(vtk_ptr(v, a_loff), e, (int64_t)(2 * e + 2));
                put_not_body(v, &a_body, e, VTK_PERIODIC_CELL, v3(0, 0, 0));
                e++;
            }
        }
    }
    if (!rc) vtk_flush(v, 0, 1, 1);
    return vtk_finish(v, path, rc, err, errlen);
}

/* ---- shapes: capsules, ellipsoids, cylinders as surfaces --------------------- */

/* Each is drawn by its class (src/shapes); counts are in docs/outputs.md,
 * test_shapes_io checks them. */
int floe_vtk_shape_count(const floe_world *w) {
    int n = floe_particle_count(w), c = 0;
    for (int i = 0; i < n; i++) c += draws(w, i, FLOE_DRAW_SURFACE);
    return c;
}

int floe_vtk_write_shapes(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen) {
    int n = floe_particle_count(w);
    if (!floe__grow_size((void **)&v->idx, &v->idx_cap, (size_t)n + 1, sizeof(int))) return oom(err, errlen, path);
    size_t nb = 0, npts = 0, ntri = 0;
    for (int i = 0; i < n; i++) {
        if (!draws(w, i, FLOE_DRAW_SURFACE)) continue;
        const floe_shape_info *c = class_of(w, i);
        npts += (size_t)c->draw_points;
        ntri += (size_t)c->draw_faces;
        v->idx[nb++] = i;
    }
    floe_draw_box box = scene_extent(w);

    vtk_begin(v);
    int a_pts = vtk_decl(v, S_POINTS, "Points", T_F64, 3, npts);
    int a_nrm = vtk_decl(v, S_POINTDATA, "normals", T_F64, 3, npts);
    body_arrays a_body = decl_body(v, S_POINTDATA, npts);
    int a_conn = vtk_decl(v, S_POLYS, "connectivity", T_I64, 1, 3 * ntri);
    int a_off = vtk_decl(v, S_POLYS, "offsets", T_I64, 1, ntri);
    v->normals = "normals";
    /* the "shape" point array holds shape ids: name those drawn here */
    char comment[256];
    int len = snprintf(comment, sizeof comment, "shape ids:");
    for (int t = 0; t < FLOE_SHAPE_COUNT && len > 0 && (size_t)len < sizeof comment; t++) {
        const floe_shape_info *c = floe_shape_get(t);
        if (c->draw == FLOE_DRAW_SURFACE)
            len += snprintf(comment + len, sizeof comment - (size_t)len, "%s %d %s", len > 10 ? "," : "", t, c->name);
    }
    char attrs[192];
    polydata_attrs(attrs, sizeof attrs, npts, 0, ntri);
    if (vtk_start(v, w, path, "PolyData", attrs, comment, err, errlen)) return -1;
    int rc = vtk_window(v, 0, 1, 1); /* one window */
    picture *pic = rc || nb == 0 ? NULL : malloc(sizeof *pic);
    if (nb > 0 && !pic) rc = -1;
    if (pic) {
        unsigned char *p_pts = vtk_ptr(v, a_pts), *p_nrm = vtk_ptr(v, a_nrm);
        unsigned char *p_conn = vtk_ptr(v, a_conn), *p_off = vtk_ptr(v, a_off);
        size_t ip = 0, it = 0;
        for (size_t b = 0; b < nb; b++) {
            int i = v->idx[b];
            const floe_shape_info *c = draw_body(w, i, &box, pic);
            for (int k = 0; k < c->draw_points; k++) {
                put_vec(p_pts, ip + (size_t)k, pic->pt[k]);
                put_vec(p_nrm, ip + (size_t)k, pic->nrm[k]);
                put_body(v, &a_body, ip + (size_t)k, w, i);
            }
            for (int t = 0; t < c->draw_faces; t++, it++) {
                for (int k = 0; k < 3; k++) put_i64(p_conn, 3 * it + (size_t)k, (int64_t)ip + pic->corner[3 * t + k]);
                put_i64(p_off, it, (int64_t)(3 * (it + 1)));
            }
            ip += (size_t)c->draw_points;
        }
        free(pic);
    }
    if (!rc) vtk_flush(v, 0, 1, 1);
    return vtk_finish(v, path, rc, err, errlen);
}

/* ---- .pvd collections -------------------------------------------------- */

floe_pvd *floe_pvd_create(const char *path) {
    floe_pvd *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    size_t n = strlen(path);
    p->path = malloc(n + 1);
    p->tmp = malloc(n + 5);
    if (!p->path || !p->tmp) {
        floe_pvd_destroy(p);
        return NULL;
    }
    memcpy(p->path, path, n + 1); /* p->tmp: PATH.tmp, named by floe_io_replace_begin */
    return p;
}

void floe_pvd_destroy(floe_pvd *p) {
    if (!p) return;
    free(p->path);
    free(p->tmp);
    floe__buf_free(&p->body);
    free(p);
}

int floe_pvd_append(floe_pvd *p, double time, const char *file, char *err, size_t errlen) {
    char line[1200];
    int len = snprintf(line, sizeof line, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n", time,
                       file);
    if (len < 0 || (size_t)len >= sizeof line) {
        floe_io_err(err, errlen, "%s: file name too long", p->path);
        return -1;
    }
    floe__buf_append(&p->body, line, (size_t)len);
    return p->body.bad ? oom(err, errlen, p->path) : 0;
}

int floe_pvd_add(floe_pvd *p, double time, const char *file, char *err, size_t errlen) {
    if (floe_pvd_append(p, time, file, err, errlen)) return -1;
    return floe_pvd_write(p, err, errlen);
}

int floe_pvd_write(floe_pvd *p, char *err, size_t errlen) {
    /* Readers see either the old or the new complete collection (atomic.h).
     * Not synced: it is rewritten after every frame, and the frames it
     * names are not synced either. */
    if (floe_io_replace_begin(p->path, p->tmp, strlen(p->path) + 5, err, errlen)) return -1;
    FILE *f = open_out(p->tmp, O_WRONLY | O_CREAT | O_EXCL, err, errlen);
    if (!f) return -1;
    int ok = fprintf(f,
                     "<?xml version=\"1.0\"?>\n"
                     "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"%s\">\n"
                     "  <Collection>\n",
                     byte_order()) > 0;
    ok = ok && (p->body.len == 0 ||
                fwrite(p->body.s, 1, p->body.len, f) == p->body.len); /* an empty collection has no body */
    ok = ok && fputs("  </Collection>\n</VTKFile>\n", f) >= 0;
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (!ok) floe_io_err(err, errlen, "error writing %s: %s", p->tmp, strerror(saved));
    return floe_io_replace_finish(p->tmp, p->path, ok, 0, err, errlen);
}
