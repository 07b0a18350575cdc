/* The snapshot: writing, reading, checking and comparing the world's state
 * through the table of snapshot_table.c (snapshot.h).
 *
 * The table is flattened into leaves (one state member each, with where
 * its rows are) and the leaves into items (a named table or value set; the
 * members of a struct that share an item are its columns). Writing hands
 * every item to the writer; reading asks the reader for every item once
 * the rows it fills exist, then checks every leaf as the table says and the
 * rules between tables. What the API builds and checks (materials, model
 * instances, groups' names, particles' shapes, the schedule) is rebuilt
 * through it, by model name and parameter key. */
#include "core/cell.h"
#include "core/cell_phases.h"
#include "core/step.h"
#include "core/snapshot.h"

#include "core/snapshot_members.h"
#include "core/snapshot_shapes.h"
#include "core/supply.h"
#include "core/threads.h"

#include "shapes/shape.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(vec3) == 3 * sizeof(double), "vec3 must be 3 packed doubles");
_Static_assert(sizeof(quat) == 4 * sizeof(double), "quat must be 4 packed doubles");
_Static_assert(sizeof(floe_pair) == 3 * sizeof(int32_t), "a pair must be 3 packed ints");
_Static_assert(sizeof(int) == sizeof(int32_t), "int must be 32 bits");

/* ---- the table, flattened -------------------------------------------------------- */

typedef struct leaf {
    const floe_snap_field *f;
    const floe_snap_rows *rows; /* NULL: a value of the world itself */
    size_t arr;                 /* offset in the world of the rows' pointer (inline: of row 0) */
    int inline_arr;
    size_t stride; /* bytes from row to row (0: the world's contact state stride) */
    size_t off;    /* of the value in its row, or in the world */
} leaf;

enum { MAX_LEAVES = 256, MAX_ITEM_LEAVES = 4 };

typedef struct item {
    const char *group, *name;
    int attr;
    const floe_snap_rows *rows;
    floe_snap_type type;
    int cols, shape2;
    floe_snap_conv conv;
    int built, optional;
    int leaf[MAX_ITEM_LEAVES], nleaf;
} item;

typedef struct table {
    leaf leaves[MAX_LEAVES];
    int nleaves;
    item items[MAX_LEAVES];
    int nitems;
    const char *unusable;    /* why the table cannot be walked (a limit below; a programming error) */
    floe_snap_shapes shapes; /* the shape store's entries, from the classes */
} table;

typedef struct frame {
    const floe_snap_rows *rows;
    size_t arr, stride;
    int inline_arr;
} frame;

static void flatten(table *t, const floe_snap_struct *s, size_t base, frame fr) {
    for (int l = 0; l < 2; l++)
        for (const floe_snap_field *f = s->fields[l]; f && f->member; f++) {
            if (f->role != FLOE_SNAP_STATE) continue;
            if (f->rows && fr.rows) t->unusable = "an array inside the rows of another";
            if (f->rows) { /* an array: its rows start here */
                frame in = {f->rows, base + f->offset, 0, f->inline_array};
                in.stride = f->sub                       ? f->sub->size
                            : f->conv == FLOE_CONV_STATE ? 0
                                                         : floe__snap_type_size(f->type) * (size_t)f->ncomp;
                if (f->sub) flatten(t, f->sub, 0, in);
                else if (t->nleaves < MAX_LEAVES)
                    t->leaves[t->nleaves++] = (leaf){f, in.rows, in.arr, in.inline_arr, in.stride, 0};
                else t->unusable = "more state members than MAX_LEAVES";
            } else if (f->sub) {
                flatten(t, f->sub, base + f->offset, fr);
            } else if (t->nleaves < MAX_LEAVES) {
                t->leaves[t->nleaves++] = (leaf){f, fr.rows, fr.arr, fr.inline_arr, fr.stride, base + f->offset};
            } else {
                t->unusable = "more state members than MAX_LEAVES";
            }
        }
}

/* The table flattened; 0, or -1 with t->unusable set. */
static int build_table(table *t) {
    t->nleaves = t->nitems = 0;
    t->unusable = NULL;
    flatten(t, &floe__snap_world, 0, (frame){0});
    /* the shape store (the world's member `store`), from the classes */
    if (floe__snap_shapes_describe(&t->shapes) != 0) t->unusable = t->shapes.unusable;
    else flatten(t, &t->shapes.root, 0, (frame){0});
    for (int i = 0; i < t->nleaves; i++) {
        const floe_snap_field *f = t->leaves[i].f;
        item *it = NULL;
        for (int k = 0; k < t->nitems && !it; k++)
            if (t->items[k].attr == f->attr && !strcmp(t->items[k].group, f->group) &&
                !strcmp(t->items[k].name, f->name))
                it = &t->items[k];
        if (!it) {
            it = &t->items[t->nitems++];
            *it = (item){f->group, f->name,   f->attr, t->leaves[i].rows, f->type,
                         0,        f->shape2, f->conv, f->built,          f->optional};
        }
        int cols = f->type == FLOE_SNAP_STR || f->conv == FLOE_CONV_MODEL ? 1 : f->col + f->ncomp;
        if (cols > it->cols) it->cols = cols;
        if (it->nleaf < MAX_ITEM_LEAVES) it->leaf[it->nleaf++] = i;
        else t->unusable = "more members in one item than MAX_ITEM_LEAVES";
        if (it->rows != t->leaves[i].rows || it->type != f->type || it->conv != f->conv)
            t->unusable = "members of one item with different rows, types or conversions";
    }
    return t->unusable ? -1 : 0;
}

static int count_of(const floe_world *w, const floe_snap_rows *r) {
    return r ? *(const int *)((const char *)w + r->count_offset) : 1;
}

/* Row 0 of a leaf's array (the world itself for a value of the world), and
 * the bytes from row to row. */
static const char *rows_base(const floe_world *w, const leaf *lf, size_t *stride) {
    *stride = lf->stride ? lf->stride : w->cstride;
    if (!lf->rows) return (const char *)w;
    return lf->inline_arr ? (const char *)w + lf->arr : *(char *const *)((const char *)w + lf->arr);
}

/* The leaf's member in row 0; NULL when the array holds nothing (a table
 * without rows may have no array, and NULL + offset is undefined). */
static const char *leaf_base(const floe_world *w, const leaf *lf, size_t *stride) {
    const char *b = rows_base(w, lf, stride);
    return b ? b + lf->off : NULL;
}

/* Row r of a leaf's array. */
static const char *row_ptr(const floe_world *w, const leaf *lf, size_t r) {
    size_t stride;
    const char *base = rows_base(w, lf, &stride);
    return base + r * stride;
}

static int model_of_row(const leaf *lf, const char *row) {
    /* the struct of the row holds its model index: materials and instances */
    return lf->f->conv == FLOE_CONV_MAT_PARAMS ? ((const floe_material *)row)->model
                                               : ((const floe_instance *)row)->model;
}

static int param_count(const leaf *lf, int model) {
    const floe_model *m = floe_registry_get(model);
    return lf->f->conv == FLOE_CONV_MAT_PARAMS ? m->info.n_mat_params : m->info.n_law_params;
}

/* ---- writing ---------------------------------------------------------------------- */

typedef struct out {
    const floe_snap_writer *wr;
    char *err;
    size_t errlen;
    int bad;
    void *buf; /* work buffer of put_item, reused */
    size_t bufsize;
} out;

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

static int out_fail(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int out_fail(out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe__snap_vfail(&o->bad, o->err, o->errlen, NULL, fmt, ap);
    va_end(ap);
    return -1;
}

static void put(out *o, const char *group, const char *name, int attr, floe_snap_type t, int rank, size_t d0, size_t d1,
                const void *data, int doc) {
    if (o->bad) return;
    if (floe__snap_put(o->wr, group, name, attr, t, rank, d0, d1, data, doc) != 0) {
        char p[160];
        out_fail(o, "cannot write %s", floe__snap_path(group, name, attr, p, sizeof p));
    }
}

static void put_item(out *o, const floe_world *w, const table *t, const item *it) {
    size_t n = (size_t)count_of(w, it->rows), cols = (size_t)it->cols, ts = floe__snap_type_size(it->type);
    const leaf *l0 = &t->leaves[it->leaf[0]];
    int rank = it->attr ? (cols > 1) : (cols > 1 ? 2 : 1);
    size_t d0 = it->attr ? cols : n, d1 = cols;
    if (it->conv == FLOE_CONV_STATE) {
        /* without contacts the stride says nothing (and is 0 before the
         * world is prepared): 0, so that the same state gives the same items */
        size_t stride = n ? w->cstride : 0;
        int64_t s = (int64_t)stride;
        put(o, it->group, "state_stride", 1, FLOE_SNAP_I64, 0, 0, 0, &s, 0);
        put(o, it->group, it->name, 0, FLOE_SNAP_U8, 2, n, stride, w->cstate, 0);
        return;
    }
    if (it->type == FLOE_SNAP_STR || it->conv == FLOE_CONV_MODEL) {
        const char **s = malloc(sizeof *s * (n + 1));
        if (!s) {
            out_fail(o, "out of memory");
            return;
        }
        for (size_t r = 0; r < n; r++) {
            const char *p = row_ptr(w, l0, r) + l0->off;
            s[r] = it->conv == FLOE_CONV_MODEL ? floe_registry_get(*(const int *)p)->info.name : p;
        }
        put(o, it->group, it->name, it->attr, FLOE_SNAP_STR, it->attr ? 0 : 1, n, 0, it->attr ? (const void *)s[0] : s,
            0);
        free(s);
        return;
    }
    const void *data = NULL;
    char *buf = NULL;
    int direct = it->nleaf == 1 && it->conv == FLOE_CONV_NONE && l0->off == 0 && (!l0->rows || l0->stride == ts * cols);
    if (direct) {
        data = n ? row_ptr(w, l0, 0) : NULL;
    } else if (!(buf = floe__reserve(&o->buf, &o->bufsize, (n * cols + 1) * ts))) {
        out_fail(o, "out of memory for %s", it->name);
        return;
    } else {
        data = buf;
        memset(buf, 0, (n * cols + 1) * ts);
        for (int k = 0; k < it->nleaf; k++) {
            const leaf *lf = &t->leaves[it->leaf[k]];
            size_t bytes = ts * (size_t)lf->f->ncomp, stride;
            const char *base = leaf_base(w, lf, &stride);
            char *dst = buf + (size_t)lf->f->col * ts;
            if (lf->f->conv == FLOE_CONV_IF_VALID && !w->bp.valid) continue; /* zeros: nothing there yet */
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
        floe_snap_item x = {it->group, it->name, 0, it->type, 3, {n, cols / (size_t)it->shape2, (size_t)it->shape2},
                            data,      0};
        if (!o->bad && o->wr->put(o->wr->ctx, &x) != 0) out_fail(o, "cannot write %s", it->name);
    } else {
        put(o, it->group, it->name, it->attr, it->type, rank, d0, d1, data, 0);
    }
}

/* Every registered model: its parameter keys (the column order of the
 * parameter tables) and the size and exported names of its state. */
static void put_models(out *o) {
    for (int i = 0; i < floe_registry_count() && !o->bad; i++) {
        const floe_model *m = floe_registry_get(i);
        char g[96];
        snprintf(g, sizeof g, "models/%s", m->info.name);
        const char *keys[FLOE_MAX_MAT_PARAMS + FLOE_MAX_LAW_PARAMS + 1];
        for (int k = 0; k < m->info.n_mat_params; k++) keys[k] = m->info.mat_params[k].key;
        put(o, g, "mat_params", 0, FLOE_SNAP_STR, 1, (size_t)m->info.n_mat_params, 0, keys, 0);
        for (int k = 0; k < m->info.n_law_params; k++) keys[k] = m->info.law_params[k].key;
        put(o, g, "law_params", 0, FLOE_SNAP_STR, 1, (size_t)m->info.n_law_params, 0, keys, 0);
        put(o, g, "state_names", 0, FLOE_SNAP_STR, 1, (size_t)m->info.n_state, 0, m->info.state_names, 1);
        int64_t v = (int64_t)m->state_size;
        put(o, g, "state_size", 1, FLOE_SNAP_I64, 0, 0, 0, &v, 0);
        v = i;
        put(o, g, "registry_index", 1, FLOE_SNAP_I64, 0, 0, 0, &v, 1);
    }
}

/* For people reading the file: the contact state as named values, and notes. */
static void put_docs(out *o, const floe_world *w) {
    char shape_names[256];
    floe__snap_shape_names(shape_names, sizeof shape_names);
    const char *const notes[][3] = {
        {"particles", "shape_values", shape_names},
        {"particles", "inertia_frame", "principal moments, body frame; angmom: global (NaN: from angvel)"},
        {"particles", "ori_order", "w, x, y, z (body to global)"},
        {"materials", "params_order", "the keys of /models/<model>/mat_params, then unused slots"},
        {"instances", "doc",
         "the first n_defaults instances are the models' world-wide defaults; overrides rows are (material a, "
         "material b, instance)"},
        {"contacts", "frame", "force, torque: local (normal, t1, t2 = normal x t1) on A"},
        {"contacts", "state_doc",
         "row k: the raw state of contact k's model (/models/<model>/state_size bytes); model_state/<model> holds "
         "the same state as named values"},
        {"broadphase", "pairs_doc",
         "candidate pairs in list order: a, b, live contact index or -1 (B's periodic image: pair_image)"},
    };
    for (size_t i = 0; i < sizeof notes / sizeof *notes; i++)
        put(o, notes[i][0], notes[i][1], 1, FLOE_SNAP_STR, 0, 0, 0, notes[i][2], 1);
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        if (c && c->frame) put(o, c->section, "frame", 1, FLOE_SNAP_STR, 0, 0, 0, c->frame, 1);
    }
    size_t n = (size_t)w->ncon;
    for (int m = 0; m < floe_registry_count() && !o->bad; m++) {
        const floe_model *mod = floe_registry_get(m);
        size_t cnt = 0;
        for (size_t k = 0; k < n; k++) cnt += w->insts[w->con[k].inst].model == m;
        if (!cnt || mod->info.n_state <= 0) continue;
        int ns = mod->info.n_state;
        int32_t *idx = malloc(sizeof *idx * cnt);
        double *val = malloc(sizeof *val * cnt * (size_t)ns);
        if (!idx || !val) out_fail(o, "out of memory");
        for (size_t k = 0, j = 0; !o->bad && k < n; k++) {
            if (w->insts[w->con[k].inst].model != m) continue;
            idx[j] = (int32_t)k;
            const floe_geom gk = floe__contact_geom(w, (int)k);
            mod->get_state(&w->con[k], &gk, &w->cwarm[k], w->cstate + k * w->cstride, val + j * (size_t)ns);
            j++;
        }
        char g[96];
        snprintf(g, sizeof g, "contacts/model_state/%s", mod->info.name);
        put(o, g, "contact", 0, FLOE_SNAP_I32, 1, cnt, 0, idx, 1);
        put(o, g, "values", 0, FLOE_SNAP_F64, 2, cnt, (size_t)ns, val, 1);
        put(o, g, "names", 0, FLOE_SNAP_STR, 1, (size_t)ns, 0, mod->info.state_names, 1);
        free(idx);
        free(val);
    }
}

/* The world as the snapshot's walkers read it: a world that keeps no warm
 * records (core/world.h, floe__warm) or no pair images (no periodic cell,
 * floe__pair_img) is read through a copy that holds the records its
 * contacts imply and zero images, and a world whose contacts' geometry,
 * lens and images follow from the positions and radii and that keeps no
 * geometry records (core/world.h) through records that hold them and the
 * particle rows its spheres imply (floe__geom_keep), so that files,
 * checks and comparisons see the same rows whether a world keeps them or
 * not. Returns w itself, or the copy (release it with full_view_free), or
 * NULL when out of memory. */
static void full_view_free(const floe_world *w, const floe_world *v);

static const floe_world *full_view(const floe_world *w, int written) {
    const int warm = !w->cwarm && w->ncon > 0, img = !w->bp.img && w->bp.npairs > 0;
    const int implied = !w->geom_kept && (w->np > 0 || w->ncon > 0);
    /* kept records of contacts whose geometry follows hold the frame's
     * normal as the step left it, which nothing reads back: `written` (a
     * file, a comparison) as the positions give it, as a world without
     * records writes it; the checks see the records as they are */
    const int follow = written && w->cgeom && w->ncon > 0 && !w->cell.axes;
    if (!warm && !img && !implied && !follow) return w;
    floe_world *v = malloc(sizeof *v);
    floe_contact_warm *x = warm ? malloc(sizeof *x * (size_t)w->ncon) : NULL;
    floe_img *s = img ? calloc((size_t)w->bp.npairs, sizeof *s) : NULL;
    floe_contact_geo *g = follow ? malloc(sizeof *g * (size_t)w->ncon) : NULL;
    if (!v || (warm && !x) || (img && !s) || (follow && !g)) {
        free(v);
        free(x);
        free(s);
        free(g);
        return NULL;
    }
    memcpy(v, w, sizeof *v);
    for (int k = 0; warm && k < w->ncon; k++) floe__warm(w, k, &x[k]); /* none kept: writes the implied one */
    if (warm) v->cwarm = x;
    if (img) v->bp.img = s;
    for (int k = 0; follow && k < w->ncon; k++) {
        g[k] = w->cgeom[k];
        if (!floe__geom_follows(w, &w->con[k])) continue;
        floe_geom gk = floe__contact_geom(w, k);
        g[k].n = gk.n;
        g[k].c = gk.c;
        g[k].uN = gk.uN;
    }
    if (follow) v->cgeom = g;
    /* the geometry records and particle rows of a world of spheres and
     * walls (floe__geom_keep), one row per contact and per particle */
    v->pcap = w->np;
    v->ccap = w->ncon;
    if (implied && !floe__geom_keep(v)) {
        full_view_free(w, v);
        return NULL;
    }
    return v;
}

static void full_view_free(const floe_world *w, const floe_world *v) {
    if (!v || v == w) return;
    if (v->cwarm != w->cwarm) free(v->cwarm);
    if (v->cgeom != w->cgeom) free(v->cgeom);
    if (v->bp.img != w->bp.img) free(v->bp.img);
    if (v->bp.ref_ori != w->bp.ref_ori) free(v->bp.ref_ori);
    if (v->angmom != w->angmom) free(v->angmom);
    if (v->wraps != w->wraps) free(v->wraps);
    free((void *)v);
}

static int snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen);

int floe__snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen) {
    const floe_world *v = full_view(w, 1);
    if (!v) {
        out o = {wr, err, errlen, 0, NULL, 0};
        return out_fail(&o, "out of memory");
    }
    int rc = snapshot_write(v, wr, err, errlen);
    full_view_free(w, v);
    return rc;
}

static int snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen) {
    out o = {wr, err, errlen, 0, NULL, 0};
    table *t = malloc(sizeof *t);
    if (!t) return out_fail(&o, "out of memory");
    if (build_table(t) != 0) out_fail(&o, "the snapshot's table cannot be walked: %s", t->unusable);
    put_models(&o);
    for (int i = 0; i < t->nitems && !o.bad; i++) put_item(&o, w, t, &t->items[i]);
    int64_t ndef = floe_registry_count();
    put(&o, "instances", "n_defaults", 1, FLOE_SNAP_I64, 0, 0, 0, &ndef, 0);
    put_docs(&o, w);
    free(o.buf);
    free(t);
    return o.bad ? -1 : 0;
}

/* ---- reading the world ---------------------------------------------------------------- */

enum { MAX_FILE_MODELS = 64 };

/* A model's parameter keys as the snapshot lists them. */
typedef struct file_model {
    char name[64];
    char **mat, **law;
    long nmat, nlaw;
    int64_t state_size;
} file_model;

typedef struct rd {
    floe_snap_in in;
    floe_world *w;
    table *t;
    file_model models[MAX_FILE_MODELS];
    int nmodels;
    int *inst_map; /* file instance -> world instance */
    long ninst;
    int refused; /* a value was read but refused */
    void *buf;   /* work buffer of read_items, reused */
    size_t bufsize;
} rd;

static file_model *file_model_get(rd *R, const char *name) {
    floe_snap_in *in = &R->in;
    for (int i = 0; i < R->nmodels; i++)
        if (!strcmp(R->models[i].name, name)) return &R->models[i];
    if (in->bad) return NULL;
    if (R->nmodels >= MAX_FILE_MODELS) {
        floe__snap_fail(in, "too many models");
        return NULL;
    }
    char g[96];
    snprintf(g, sizeof g, "models/%s", name);
    if (strlen(name) > 63 || !in->rd->has_group(in->rd->ctx, g)) {
        floe__snap_fail(in, "missing /models/%s", name);
        return NULL;
    }
    file_model *fm = &R->models[R->nmodels];
    memset(fm, 0, sizeof *fm);
    snprintf(fm->name, sizeof fm->name, "%s", name);
    fm->nmat = floe__snap_rows_of(in, g, "mat_params");
    fm->nlaw = floe__snap_rows_of(in, g, "law_params");
    if (!in->bad && (fm->nmat > FLOE_MAX_MAT_PARAMS || fm->nlaw > FLOE_MAX_LAW_PARAMS))
        floe__snap_fail(in, "model %s has too many parameters", name);
    if (!in->bad) {
        fm->mat = floe__snap_get_strings(in, g, "mat_params", (size_t)fm->nmat);
        fm->law = floe__snap_get_strings(in, g, "law_params", (size_t)fm->nlaw);
        fm->state_size = floe__snap_get_int(in, g, "state_size", 0, 1 << 20);
    }
    if (in->bad) {
        free(fm->mat);
        free(fm->law);
        return NULL;
    }
    R->nmodels++;
    return fm;
}

static int key_index(char **keys, long n, const char *key) {
    for (long i = 0; i < n; i++)
        if (!strcmp(keys[i], key)) return (int)i;
    return -1;
}

/* A value the API refused: `what` names the item that held it. */
static void refused(rd *R, const char *what) { floe__snap_fail(&R->in, "%s: %s", what, floe_last_error(R->w)); }

/* Materials by name and model, their parameters by key. */
static void read_materials(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe__snap_rows_of(in, "materials", "name");
    if (in->bad) return;
    char **names = floe__snap_get_strings(in, "materials", "name", (size_t)n);
    char **models = floe__snap_get_strings(in, "materials", "model", (size_t)n);
    double *p = malloc(sizeof *p * ((size_t)n + 1) * FLOE_MAX_MAT_PARAMS);
    if (!p) floe__snap_fail(in, "out of memory");
    floe__snap_get(in, "materials", "params", 0, FLOE_SNAP_F64, (size_t)n, FLOE_MAX_MAT_PARAMS, p);
    for (long i = 0; !in->bad && i < n; i++) {
        file_model *fm = file_model_get(R, models[i]);
        if (!fm) break;
        if (floe_add_material(w, names[i], models[i]) != i) {
            refused(R, "/materials");
            break;
        }
        const floe_model *m = floe_registry_get(w->mats[i].model);
        for (int k = 0; k < m->info.n_mat_params && !in->bad; k++) {
            int j = key_index(fm->mat, fm->nmat, m->info.mat_params[k].key);
            for (long o = 0; j < 0 && o < fm->nmat; o++) /* a file from before a rename */
                if (floe_param_alias(m->info.name, fm->mat[o]) &&
                    !strcmp(floe_param_alias(m->info.name, fm->mat[o]), m->info.mat_params[k].key))
                    j = (int)o;
            if (j >= 0 &&
                floe_material_set(w, (int)i, fm->mat[j], p[(size_t)i * FLOE_MAX_MAT_PARAMS + (size_t)j]) != FLOE_OK)
                refused(R, "/materials");
        }
    }
    free(names);
    free(models);
    free(p);
}

/* Model instances: the defaults by model name, then the pair overrides. */
static void read_instances(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe__snap_rows_of(in, "instances", "model");
    long ndef = in->bad ? 0 : (long)floe__snap_get_int(in, "instances", "n_defaults", 0, n);
    long nov = floe__snap_rows_of(in, "instances", "overrides");
    if (in->bad) return;
    char **models = floe__snap_get_strings(in, "instances", "model", (size_t)n);
    double *p = malloc(sizeof *p * ((size_t)n + 1) * FLOE_MAX_LAW_PARAMS);
    int32_t *ov = malloc(sizeof *ov * 3 * ((size_t)nov + 1));
    R->inst_map = malloc(sizeof *R->inst_map * ((size_t)n + 1));
    R->ninst = n;
    if (!p || !ov || !R->inst_map) floe__snap_fail(in, "out of memory");
    floe__snap_get(in, "instances", "law_params", 0, FLOE_SNAP_F64, (size_t)n, FLOE_MAX_LAW_PARAMS, p);
    floe__snap_get(in, "instances", "overrides", 0, FLOE_SNAP_I32, (size_t)nov, 3, ov);
    for (long i = 0; !in->bad && i < n; i++) R->inst_map[i] = -1;
    for (int pass = 0; pass < 2 && !in->bad; pass++) {
        /* pass 0: the defaults; pass 1: overrides, which start from them */
        for (long i = 0; !in->bad && i < (pass ? nov : ndef); i++) {
            long fi = pass ? ov[3 * i + 2] : i;
            if (fi < 0 || fi >= n || (pass && fi < ndef)) {
                floe__snap_fail(in,
                                "/instances/overrides: override %ld names instance %ld (instances %ld to %ld are "
                                "overrides)",
                                i, fi, ndef, n - 1);
                break;
            }
            file_model *fm = file_model_get(R, models[fi]);
            int mi = floe_registry_find(models[fi]);
            if (!fm) break;
            if (mi < 0) {
                floe__snap_fail(in, "the snapshot uses contact model '%s', which this floe does not have", models[fi]);
                break;
            }
            int ma = pass ? ov[3 * i] : -1, mb = pass ? ov[3 * i + 1] : -1;
            if (pass) {
                if (floe_pair_set_model(w, ma, mb, models[fi]) != FLOE_OK) {
                    refused(R, "/instances");
                    break;
                }
                R->inst_map[fi] = w->ninsts - 1;
            } else {
                R->inst_map[fi] = mi;
            }
            const floe_model *m = floe_registry_get(mi);
            for (int k = 0; k < m->info.n_law_params && !in->bad; k++) {
                int j = key_index(fm->law, fm->nlaw, m->info.law_params[k].key);
                if (j < 0) continue;
                double v = p[(size_t)fi * FLOE_MAX_LAW_PARAMS + (size_t)j];
                floe_status st = pass ? floe_pair_set(w, ma, mb, fm->law[j], v)
                                      : floe_model_set(w, models[fi], fm->law[j], v);
                if (st != FLOE_OK) refused(R, "/instances");
            }
        }
    }
    free(models);
    free(p);
    free(ov);
}

static void read_group_names(rd *R) {
    floe_snap_in *in = &R->in;
    long n = floe__snap_rows_of(in, "groups", "name");
    if (!in->bad && n > FLOE_MAX_GROUPS)
        floe__snap_fail(in, "/groups/name: %ld groups, at most %d", n, FLOE_MAX_GROUPS);
    if (in->bad) return;
    char **gn = floe__snap_get_strings(in, "groups", "name", (size_t)n);
    for (long i = 0; !in->bad && i < n; i++)
        if (floe_add_group(R->w, gn[i]) != i) refused(R, "/groups/name");
    free(gn);
}

static void read_schedule(rd *R) {
    floe_snap_in *in = &R->in;
    long n = floe__snap_rows_of(in, "schedule", "step");
    if (in->bad) return;
    size_t N = (size_t)n;
    int64_t *st = malloc(sizeof *st * (N + 1));
    int32_t *gi = malloc(sizeof *gi * 2 * (N + 1));
    double *args = malloc(sizeof *args * FLOE_MAX_METHOD_ARGS * (N + 1));
    char **model = floe__snap_get_strings(in, "schedule", "model", N);
    char **method = floe__snap_get_strings(in, "schedule", "method", N);
    if (!st || !gi || !args) floe__snap_fail(in, "out of memory");
    floe__snap_get(in, "schedule", "step", 0, FLOE_SNAP_I64, N, 1, st);
    floe__snap_get(in, "schedule", "group", 0, FLOE_SNAP_I32, N, 1, gi);
    floe__snap_get(in, "schedule", "nargs", 0, FLOE_SNAP_I32, N, 1, gi + N);
    floe__snap_get(in, "schedule", "args", 0, FLOE_SNAP_F64, N, FLOE_MAX_METHOD_ARGS, args);
    for (size_t i = 0; !in->bad && i < N; i++)
        if (floe_schedule_method(R->w, st[i], model[i], method[i], gi[i], args + i * FLOE_MAX_METHOD_ARGS, gi[N + i]) !=
            FLOE_OK)
            refused(R, "/schedule");
    free(st);
    free(gi);
    free(args);
    free(model);
    free(method);
}

static void read_items(rd *R, floe_world *w, const floe_snap_rows *rows, int def_only, int skip_def);

/* Plane counters: their names, then every other item of their rows. */
static void read_planes(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe__snap_rows_of(in, "measure", "plane_name");
    if (in->bad) return;
    size_t N = (size_t)n;
    char **names = floe__snap_get_strings(in, "measure", "plane_name", N);
    floe_plane_counter *p = calloc(N + 1, sizeof *p);
    if (!p) floe__snap_fail(in, "out of memory for %ld plane counters", n);
    if (in->bad) {
        free(p);
        free(names);
        return;
    }
    free(w->planes);
    w->planes = p;
    w->plcap = (int)N + 1;
    w->nplanes = (int)N;
    for (size_t i = 0; i < N; i++) snprintf(p[i].name, sizeof p[i].name, "%s", names[i]);
    free(names);
    read_items(R, w, &floe__rows_planes, 0, 0);
}

/* Inlets and sinks (supply.c): their names, then every other item of their
 * rows. A snapshot of a format before them has none. */
static void read_supply_rows(rd *R, const char *name_item, const floe_snap_rows *rows, void **arr, int *n_out, int *cap,
                             size_t size, size_t name_size) {
    floe_snap_in *in = &R->in;
    long n = floe__snap_rows_of(in, "supply", name_item);
    if (in->bad) return;
    size_t N = (size_t)n;
    char **names = floe__snap_get_strings(in, "supply", name_item, N);
    char *p = calloc(N + 1, size);
    if (!p) floe__snap_fail(in, "out of memory for %ld %ss", n, rows->noun);
    if (in->bad) {
        free(p);
        free(names);
        return;
    }
    free(*arr);
    *arr = p;
    *cap = (int)N + 1;
    *n_out = (int)N;
    for (size_t i = 0; i < N; i++) snprintf(p + i * size, name_size, "%s", names[i]);
    free(names);
    read_items(R, R->w, rows, 0, 0);
}

static void read_supply(rd *R) {
    floe_world *w = R->w;
    read_supply_rows(R, "inlet_name", &floe__rows_inlets, (void **)&w->inlets, &w->ninlets, &w->inlcap,
                     sizeof *w->inlets, sizeof w->inlets->name);
    if (!R->in.bad)
        read_supply_rows(R, "sink_name", &floe__rows_sinks, (void **)&w->sinks, &w->nsinks, &w->skcap, sizeof *w->sinks,
                         sizeof w->sinks->name);
}

/* Group phases (motion.c): rows of every item of "phases". */
static void read_phases(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe__snap_rows_of(in, "phases", "group");
    if (in->bad) return;
    floe_phase_row *p = calloc((size_t)n + 1, sizeof *p);
    if (!p) floe__snap_fail(in, "out of memory for %ld phases", n);
    if (in->bad) return;
    free(w->phases);
    w->phases = p;
    w->phcap = (int)n + 1;
    w->nphases = (int)n;
    read_items(R, w, &floe__rows_phases, 0, 0);
}

/* The cell's phases (cell_phases.c): rows of every item of "cell_phases". */
static void read_cell_phases(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe__snap_rows_of(in, "cell_phases", "trigger");
    if (in->bad) return;
    floe_cell_phase *p = calloc((size_t)n + 1, sizeof *p);
    if (!p) floe__snap_fail(in, "out of memory for %ld cell phases", n);
    if (in->bad) return;
    free(w->cphases);
    w->cphases = p;
    w->cphcap = (int)n + 1;
    w->ncphases = (int)n;
    read_items(R, w, &floe__rows_cell_phases, 0, 0);
}

/* Copies column `col` (nc values wide) of n rows of buf (rows of `cols`
 * 64-bit values: doubles, or integers narrowed to t) to the rows at base.
 * -1, or the index in buf of the first integer that does not fit (its row
 * in *bad_r). */
static long scatter(char *base, size_t stride, const void *buf, size_t cols, size_t col, size_t n, size_t nc,
                    floe_snap_type t, size_t *bad_r) {
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

/* Reads every item of the table with rows `rows` (NULL: the world's own
 * values) that the API did not build, into w; `def_only` limits the world's
 * values to its definition, `skip_def` leaves it out. */
static void read_items(rd *R, floe_world *w, const floe_snap_rows *rows, int def_only, int skip_def) {
    floe_snap_in *in = &R->in;
    const table *t = R->t;
    size_t d0 = offsetof(floe_world, def), d1 = d0 + sizeof(floe_world_def);
    for (int i = 0; i < t->nitems && !in->bad; i++) {
        const item *it = &t->items[i];
        if (it->rows != rows || it->built || it->conv == FLOE_CONV_STATE) continue;
        const leaf *l0 = &t->leaves[it->leaf[0]];
        int in_def = !rows && l0->off >= d0 && l0->off < d1;
        if ((def_only && !in_def) || (skip_def && in_def)) continue;
        if (it->optional && !floe__snap_has(in, it->group, it->name, it->attr))
            continue; /* an earlier version's file */
        size_t n = (size_t)count_of(w, rows), cols = (size_t)it->cols, ts = floe__snap_type_size(it->type);
        int wide_f = it->type == FLOE_SNAP_F64;
        if (it->nleaf == 1 && l0->off == 0 && (!rows || l0->stride == ts * cols) && it->conv == FLOE_CONV_NONE &&
            rows) { /* straight into the array */
            floe__snap_get(in, it->group, it->name, it->attr, it->type, n, cols, n ? (void *)row_ptr(w, l0, 0) : NULL);
            continue;
        }
        void *buf = floe__reserve(&R->buf, &R->bufsize, 8 * (n * cols + 1));
        if (!buf) {
            floe__snap_fail(in, "out of memory reading %s", it->name);
            return;
        }
        if (floe__snap_get(in, it->group, it->name, it->attr, wide_f ? FLOE_SNAP_F64 : FLOE_SNAP_I64, it->attr ? 1 : n,
                           cols, buf) == 0) {
            for (int k = 0; k < it->nleaf && !in->bad; k++) {
                const leaf *lf = &t->leaves[it->leaf[k]];
                size_t stride, bad_r = 0;
                char *base = (char *)leaf_base(w, lf, &stride);
                long bad_at = scatter(base, stride, buf, cols, (size_t)lf->f->col, n, (size_t)lf->f->ncomp, it->type,
                                      &bad_r);
                if (bad_at >= 0) {
                    char p[200];
                    int64_t v = ((const int64_t *)buf)[bad_at];
                    floe__snap_path(it->group, it->name, it->attr, p, sizeof p);
                    if (rows)
                        floe__snap_fail(in, "%s: %s %zu: %" PRId64 " does not fit in %s", p, rows->noun, bad_r, v,
                                        floe__snap_type_name(it->type));
                    else
                        floe__snap_fail(in, "%s: %" PRId64 " does not fit in %s", p, v, floe__snap_type_name(it->type));
                }
            }
        }
    }
}

/* The contacts: their table, instances (mapped), model state. */
static void read_contacts(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long nc = floe__snap_rows_of(in, "contacts", "a");
    int64_t fstride = in->bad ? 0 : floe__snap_get_int(in, "contacts", "state_stride", 0, 1 << 20);
    /* material pair -> instance table and the state stride of this build */
    if (!in->bad && !floe__prepare(w)) refused(R, "/contacts");
    if (in->bad) return;
    size_t n = (size_t)nc;
    floe_contact *con = calloc(n + 1, sizeof *con);
    floe_contact_warm *warm = calloc(n + 1, sizeof *warm);
    floe_contact_cold *cold = calloc(n + 1, sizeof *cold);
    floe_contact_geo *geo = calloc(n + 1, sizeof *geo);
    unsigned char *cs = calloc(n + 1, w->cstride),
                  *fs = (size_t)fstride == w->cstride ? malloc(1) : malloc(n * (size_t)fstride + 1);
    uint16_t *fi = malloc(sizeof *fi * (n + 1));
    if (!con || !warm || !cold || !geo || !cs || !fs || !fi) {
        free(con);
        free(warm);
        free(cold);
        free(geo);
        free(cs);
        free(fs);
        free(fi);
        floe__snap_fail(in, "out of memory for %ld contacts", nc);
        return;
    }
    free(w->con);
    free(w->cwarm);
    free(w->ccold);
    free(w->cgeom);
    free(w->cstate);
    w->con = con;
    w->cwarm = warm;
    w->warm_kept = 1; /* until the records read prove to be the implied ones (below) */
    w->ccold = cold;
    w->cgeom = geo;
    w->geom_kept = 1; /* until the check (floe__snapshot_read) */
    w->cstate = cs;
    w->ccap = nc + 1;
    w->ncon = nc;
    read_items(R, w, &floe__rows_contacts, 0, 0);
    for (size_t k = 0; k < n; k++) w->con[k].imaged = !floe__img_zero(w->cgeom[k].img); /* derived */
    /* a wall contact's side from its normal (floe__wall_side), whatever the file's flags say */
    for (size_t k = 0; k < n; k++) {
        floe_contact *c = &w->con[k];
        c->flags &= (uint8_t)~CF_SIDE_NEG;
        vec3 nk = w->cgeom[k].n; /* +-e_axis: no shape record read before the checks */
        if (c->a >= 0 && c->a < w->np && w->shape[c->a] == FLOE_SHAPE_WALL && nk.x + nk.y + nk.z < 0)
            c->flags |= CF_SIDE_NEG;
    }
    floe__snap_get(in, "contacts", "instance", 0, FLOE_SNAP_U16, n, 1, fi);
    for (size_t k = 0; !in->bad && k < n; k++) {
        if (fi[k] >= R->ninst || R->inst_map[fi[k]] < 0)
            floe__snap_fail(in, "/contacts/instance: contact %zu: bad instance %d", k, fi[k]);
        else w->con[k].inst = (uint16_t)R->inst_map[fi[k]];
    }
    /* raw model state, checked against this build's layout (straight into
     * place when the strides agree, as they do between builds of one floe) */
    int direct = (size_t)fstride == w->cstride;
    floe__snap_get_raw(in, "contacts", "state", n, (size_t)fstride, direct ? w->cstate : fs);
    for (size_t k = 0; !in->bad && k < n; k++) {
        const floe_model *m = floe_registry_get(w->insts[w->con[k].inst].model);
        file_model *fm = file_model_get(R, m->info.name);
        if (!fm) break;
        if ((size_t)fm->state_size != m->state_size || m->state_size > (size_t)fstride) {
            floe__snap_fail(in,
                            "model %s keeps %" PRId64 " bytes of contact state in this snapshot but %zu in this "
                            "floe: it was written by an incompatible version",
                            m->info.name, fm->state_size, m->state_size);
            break;
        }
        if (!direct) memcpy(w->cstate + k * w->cstride, fs + k * (size_t)fstride, m->state_size);
    }
    free(fs);
    free(fi);
    if (in->bad) w->ncon = 0;
    /* no warm records kept where the world cannot need them and every
     * contact's is the one it implies (core/world.h): the file's then
     * loses nothing */
    int implied = !in->bad && !floe__warm_needed(w);
    for (size_t k = 0; implied && k < n; k++) {
        floe_contact_warm x = floe__warm_implied(w->cgeom[k].lens);
        implied = !memcmp(&x, &w->cwarm[k], sizeof x);
    }
    if (implied) {
        free(w->cwarm);
        w->cwarm = NULL;
        w->warm_kept = 0;
    }
}

static void read_pairs(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long np = floe__snap_rows_of(in, "broadphase", "pairs");
    if (in->bad) return;
    floe_pair *pairs = malloc(sizeof *pairs * ((size_t)np + 1));
    floe_img *img = calloc((size_t)np + 1, sizeof *img); /* dropped after the checks without a cell */
    if (!pairs || !img) {
        free(pairs);
        free(img);
        floe__snap_fail(in, "out of memory for %ld pairs", np);
        return;
    }
    free(w->bp.pairs);
    free(w->bp.img);
    w->bp.pairs = pairs;
    w->bp.img = img;
    w->bp.cap = w->bp.img_cap = (int)np + 1;
    w->bp.npairs = (int)np;
    read_items(R, w, &floe__rows_pairs, 0, 0);
    if (in->bad) w->bp.npairs = 0;
}

/* The world definition; the message of a refused one names its item. */
static floe_world *read_world(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *tmp = calloc(1, sizeof *tmp);
    if (!tmp) {
        floe__snap_fail(in, "out of memory");
        return NULL;
    }
    tmp->def = floe_default_world_def();
    read_items(R, tmp, NULL, 1, 0);
    floe_world *w = NULL;
    if (!in->bad && !(w = floe_world_create(&tmp->def))) {
        /* the engine names the def field it refused ("dt_safety = 5 is ...");
         * the snapshot stores dt and skin as def_dt and def_skin */
        const char *e = floe_create_error(), *k = strstr(e, ": ");
        k = k ? k + 2 : e;
        size_t n = strspn(k, "abcdefghijklmnopqrstuvwxyz_");
        int def_prefix = (n == 2 && !strncmp(k, "dt", 2)) || (n == 4 && !strncmp(k, "skin", 4));
        floe__snap_fail(in, "attribute '/world@%s%.*s': %s", def_prefix ? "def_" : "", (int)n, k, e);
        R->refused = 1;
    }
    free(tmp);
    return w;
}

static void read_shape_items(rd *R) {
    /* a shape without records may have no group (floe__snap_shapes_create) */
    for (const floe_snap_field *f = R->t->shapes.stores; f->member && !R->in.bad; f++)
        if (count_of(R->w, f->rows) > 0) read_items(R, R->w, f->rows, 0, 0);
}

floe_world *floe__snapshot_read(const floe_snap_reader *rdr, char *err, size_t errlen, int *damaged) {
    rd *R = calloc(1, sizeof *R);
    table *t = malloc(sizeof *t);
    if (damaged) *damaged = 0;
    if (err && errlen) err[0] = 0;
    if (!R || !t) {
        free(R);
        free(t);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NULL;
    }
    R->t = t;
    R->in = (floe_snap_in){rdr, err, errlen, 0};
    floe_snap_in *in = &R->in;
    if (build_table(t) != 0) floe__snap_fail(in, "the snapshot's table cannot be walked: %s", t->unusable);
    if (!in->bad) R->w = read_world(R);
    if (!in->bad) read_materials(R);
    if (!in->bad) read_instances(R);
    if (!in->bad) read_group_names(R);
    if (!in->bad) read_items(R, R->w, &floe__rows_groups, 0, 0);
    if (!in->bad) floe__snap_shapes_create(in, R->w);
    /* every particle row read, the kept ones too, until the checks (below) */
    if (!in->bad && !floe__geom_keep(R->w)) floe__snap_fail(in, "out of memory");
    if (!in->bad) read_items(R, R->w, &floe__rows_particles, 0, 0);
    if (!in->bad) read_shape_items(R);
    if (!in->bad) read_contacts(R);
    if (!in->bad) read_pairs(R);
    if (!in->bad) read_schedule(R);
    if (!in->bad) read_planes(R);
    if (!in->bad) read_supply(R);
    if (!in->bad) read_phases(R);
    if (!in->bad) read_cell_phases(R);
    if (!in->bad) read_items(R, R->w, NULL, 0, 1);
    floe_world *w = R->w;
    if (!in->bad) {
        /* start() is not run again: resolve what it would have */
        floe__threads_reset(w);
        char why[1024];
        if (floe__snapshot_check(w, why, sizeof why) != 0) {
            floe__snap_fail(in, "%s", why);
            R->refused = 1;
        }
    }
    /* geometry records and the particles' kept rows are kept only where a
     * contact or body may need them (core/world.h): otherwise dropped once
     * checked, the positions and radii giving what they hold (lens, images,
     * angular momenta and wraps as the file has them: a file that says
     * otherwise keeps its records; a sphere never reads its reference
     * orientation) */
    int implied = !in->bad && !floe__geom_needed(w);
    for (int k = 0; implied && k < w->ncon; k++) {
        double l[2];
        floe__lens_implied(w, &w->con[k], l);
        implied = floe__img_zero(w->cgeom[k].img) && l[0] == w->cgeom[k].lens[0] && l[1] == w->cgeom[k].lens[1];
    }
    for (int i = 0; implied && i < w->np; i++)
        implied = floe__img_zero(w->wraps[i]) && isnan(w->angmom[i].x) && isnan(w->angmom[i].y) &&
                  isnan(w->angmom[i].z);
    if (implied) {
        free(w->cgeom);
        free(w->bp.ref_ori);
        free(w->angmom);
        free(w->wraps);
        w->cgeom = NULL;
        w->bp.ref_ori = NULL;
        w->angmom = NULL;
        w->wraps = NULL;
        w->geom_kept = 0;
    }
    /* pair images are kept only with a periodic cell (core/world.h): without
     * one, dropped when all zero, as every world writes them (nothing lost) */
    int zero = !in->bad && !w->cell.axes;
    for (int p = 0; zero && p < w->bp.npairs; p++) zero = floe__img_zero(w->bp.img[p]);
    if (zero) {
        free(w->bp.img);
        w->bp.img = NULL;
        w->bp.img_cap = 0;
    }
    if (damaged) *damaged = R->refused;
    for (int i = 0; i < R->nmodels; i++) {
        free(R->models[i].mat);
        free(R->models[i].law);
    }
    free(R->inst_map);
    free(R->buf);
    int bad = in->bad;
    free(R);
    free(t);
    if (bad) {
        floe_world_destroy(w);
        return NULL;
    }
    return w;
}

/* ---- checks ------------------------------------------------------------------------------ */

typedef struct ck {
    char *err;
    size_t errlen;
    int bad;
} ck;

static int bad(ck *c, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(ck *c, const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe__snap_vfail(&c->bad, c->err, c->errlen, where, fmt, ap);
    va_end(ap);
    return 0;
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
static const char *check_row(const floe_world *w, const floe_snap_field *f, const char *p, int *bad_k, char *why,
                             size_t n) {
    floe_snap_type t = f->type;
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
                int cnt = count_of(w, f->ref);
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
            case FLOE_CK_GROUP_MASK: {
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

static void check_leaves(ck *c, const floe_world *w, const table *t) {
    for (int i = 0; i < t->nleaves && !c->bad; i++) {
        const leaf *lf = &t->leaves[i];
        const floe_snap_field *f = lf->f;
        if (f->check == FLOE_CK_NONE || f->type == FLOE_SNAP_STR || f->conv != FLOE_CONV_NONE) continue;
        int n = count_of(w, lf->rows);
        size_t stride;
        const char *base = leaf_base(w, lf, &stride);
        for (int r = 0; r < n && !c->bad; r++) {
            char buf[200], p[200];
            int k;
            const char *why = check_row(w, f, base + (size_t)r * stride, &k, buf, sizeof buf);
            if (!why) continue;
            floe__snap_path(f->group, f->name, f->attr, p, sizeof p);
            char row[64] = "", comp[32] = "";
            if (lf->rows) snprintf(row, sizeof row, "%s %d: ", lf->rows->noun, r);
            if (f->ncomp > 1 && k >= 0) snprintf(comp, sizeof comp, "component %d: ", k);
            bad(c, p, "%s%s%s", row, comp, why);
        }
    }
}

static int length_ok(double x) { return isfinite(x) && fabs(x) <= FLOE_SNAP_MAX_LENGTH; }

/* Rules between values of the world itself and of its groups. */
static void check_world_rules(ck *c, const floe_world *w) {
    /* before the first step start() resolves dt; after it, dt is the step */
    int dt_set = w->started || !w->dt_auto;
    if (dt_set && !(w->dt > 0)) bad(c, "/world@dt", "%g is not a finite time step > 0", w->dt);
    if (w->last_dyn_dt > w->step)
        bad(c, "/world@last_dyn_dt", "%lld is outside [0, step = %lld]", (long long)w->last_dyn_dt, (long long)w->step);
    for (int g = 0; g < w->ngroups && !c->bad; g++) {
        const floe_motion *m = &w->groups_[g].motion;
        if (!(m->t_end >= m->t_start))
            bad(c, "/groups/motion_window", "group %d: [%g, %g] is not a time window", g, m->t_start, m->t_end);
    }
    if (w->has_water && (w->water.current.z != 0 || w->water.wind.z != 0))
        bad(c, "/water@current", "current (z %g) and wind (z %g) must be horizontal", w->water.current.z,
            w->water.wind.z);
}

/* Sizes the shape gives, and bodies with mass. */
static void check_particle_rules(ck *c, const floe_world *w) {
    for (int i = 0; i < w->np && !c->bad; i++) {
        vec3 I = w->inertia[i];
        int body = floe_shape_class_get(w->shape[i])->mass != NULL;
        if (body && !(w->mass[i] > 0 && I.x > 0 && I.y > 0 && I.z > 0))
            return (void)bad(c, "/particles/mass", "particle %d: a body without mass or moments of inertia", i);
        char why[200];
        if (floe__snap_shape_check(w, i, why, sizeof why))
            return (void)bad(c, "/particles/shape_index", "particle %d: %s", i, why);
        double radius, bound;
        floe__snap_shape_sizes(w, i, &radius, &bound);
        if (radius < 0 && !(w->radius[i] > 0 && length_ok(w->radius[i])))
            return (void)bad(c, "/particles/radius", "particle %d: sphere radius %g is not in (0, %g] m", i,
                             w->radius[i], FLOE_SNAP_MAX_LENGTH);
        if (radius >= 0 && w->radius[i] != radius)
            return (void)bad(c, "/particles/radius", "particle %d: %g, but its shape record gives %g", i, w->radius[i],
                             radius);
        /* the broad phase sizes its grid from these: a wrong one lists pairs twice */
        if (w->bound[i] != bound)
            return (void)bad(c, "/particles/bound", "particle %d: %g, but its shape gives a bounding radius of %g", i,
                             w->bound[i], bound);
    }
}

/* Ids a, b in range, distinct, in narrow-phase order, of shapes that collide. */
static int pair_ok(const floe_world *w, int a, int b) {
    if (a < 0 || a >= w->np || b < 0 || b >= w->np || a == b) return 0;
    int ra = floe_shape_rank(w->shape[a]), rb = floe_shape_rank(w->shape[b]);
    if (ra > rb || (ra == rb && a > b)) return 0;
    return floe_narrowphase(w->shape[a], w->shape[b]) != NULL;
}

typedef struct ab {
    int32_t a, b, k;
} ab;

static int by_ab(const void *x, const void *y) {
    const ab *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* Index of the first repeated (a, b) in list, or -1. */
static int first_repeat(ab *list, int n) {
    if (n < 2) return -1;
    qsort(list, (size_t)n, sizeof *list, by_ab);
    int rep = -1;
    for (int i = 1; i < n; i++)
        if (list[i].a == list[i - 1].a && list[i].b == list[i - 1].b && (rep < 0 || list[i].k < rep)) rep = list[i].k;
    return rep;
}

static void check_contact(ck *c, const floe_world *w, int k, double *vals) {
    const floe_contact *ct = &w->con[k];
    if (!pair_ok(w, ct->a, ct->b))
        return (void)bad(c, "/contacts/a", "contact %d: particles %d, %d cannot be in contact (ids, order, shapes)", k,
                         ct->a, ct->b);
    int spheres = w->shape[ct->a] == FLOE_SHAPE_SPHERE && w->shape[ct->b] == FLOE_SHAPE_SPHERE;
    if (!!(ct->flags & CF_SPHERES) != spheres || ((ct->flags & CF_SIDE_NEG) && w->shape[ct->a] != FLOE_SHAPE_WALL))
        return (void)bad(c, "/contacts/flags", "contact %d: 0x%x is not a valid flag set for its bodies", k, ct->flags);
    const floe_contact_cold *x = &w->ccold[k];
    if (x->step_created > w->step)
        return (void)bad(c, "/contacts/step_created", "contact %d: %lld is outside [0, step = %lld]", k,
                         (long long)x->step_created, (long long)w->step);
    const floe_model *m = floe_registry_get(w->insts[ct->inst].model);
    if (m->get_state && m->info.n_state > 0) {
        const floe_geom g = floe__contact_geom(w, k);
        m->get_state(ct, &g, &w->cwarm[k], w->cstate + (size_t)k * w->cstride, vals);
        for (int j = 0; j < m->info.n_state; j++)
            if (!isfinite(vals[j]))
                return (void)bad(c, "/contacts/state", "contact %d: %s state '%s' is %g", k, m->info.name,
                                 m->info.state_names[j], vals[j]);
    }
}

/* Contacts and pairs: links both ways, bodies that can touch, each once. */
static void check_contact_rules(ck *c, const floe_world *w) {
    const floe_broadphase *bp = &w->bp;
    for (int p = 0; p < bp->npairs && !c->bad; p++) {
        const floe_pair *pr = &bp->pairs[p];
        if (pr->contact >= 0 && w->ccold[pr->contact].nbr != p)
            bad(c, "/broadphase/pairs", "pair %d (%d, %d, contact %d): the contact does not name this pair", p, pr->a,
                pr->b, pr->contact);
    }
    for (int k = 0; k < w->ncon && !c->bad; k++)
        if (w->ccold[k].nbr >= 0 && bp->pairs[w->ccold[k].nbr].contact != k)
            bad(c, "/contacts/pair", "contact %d names pair %d, which names contact %d", k, w->ccold[k].nbr,
                bp->pairs[w->ccold[k].nbr].contact);
    if (c->bad) return;
    int nmax = 1;
    for (int i = 0; i < floe_registry_count(); i++)
        if (floe_registry_get(i)->info.n_state > nmax) nmax = floe_registry_get(i)->info.n_state;
    double *vals = malloc(sizeof *vals * (size_t)nmax);
    int n = w->ncon > bp->npairs ? w->ncon : bp->npairs;
    ab *list = malloc(sizeof *list * (size_t)(n + 1));
    if (!vals || !list) {
        bad(c, "/contacts", "out of memory while checking %d contacts", w->ncon);
        goto out;
    }
    for (int k = 0; k < w->ncon && !c->bad; k++) check_contact(c, w, k, vals);
    for (int k = 0; k < w->ncon && !c->bad; k++) list[k] = (ab){w->con[k].a, w->con[k].b, k};
    int rep = c->bad ? -1 : first_repeat(list, w->ncon);
    if (rep >= 0)
        bad(c, "/contacts/a", "contact %d: particles %d, %d have an earlier contact already", rep, w->con[rep].a,
            w->con[rep].b);
    for (int p = 0; p < bp->npairs && !c->bad; p++) {
        const floe_pair *pr = &bp->pairs[p];
        if (!pair_ok(w, pr->a, pr->b))
            bad(c, "/broadphase/pairs", "pair %d: particles %d, %d cannot be a pair (ids, order, shapes)", p, pr->a,
                pr->b);
        else if (pr->contact >= 0 && (w->con[pr->contact].a != pr->a || w->con[pr->contact].b != pr->b))
            bad(c, "/broadphase/pairs", "pair %d links contact %d of other particles", p, pr->contact);
        list[p] = (ab){pr->a, pr->b, p};
    }
    rep = c->bad ? -1 : first_repeat(list, bp->npairs);
    if (rep >= 0)
        bad(c, "/broadphase/pairs", "pair %d: particles %d, %d are listed twice", rep, bp->pairs[rep].a,
            bp->pairs[rep].b);
    for (int i = 0; bp->valid && i < w->np && !c->bad; i++) {
        vec3 p = bp->ref_pos[i];
        quat q = bp->ref_ori[i];
        if (!length_ok(p.x) || !length_ok(p.y) || !length_ok(p.z))
            bad(c, "/broadphase/ref_pos", "particle %d: not a finite position", i);
        else if (!isfinite(q.w) || !isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z))
            bad(c, "/broadphase/ref_ori", "particle %d: not finite", i);
    }
out:
    free(vals);
    free(list);
}

static int snapshot_check(const floe_world *w, char *err, size_t errlen);

int floe__snapshot_check(const floe_world *w, char *err, size_t errlen) {
    const floe_world *v = full_view(w, 0);
    if (!v) {
        ck c = {err, errlen, 0};
        return bad(&c, "/", "out of memory"), -1;
    }
    int rc = snapshot_check(v, err, errlen);
    full_view_free(w, v);
    return rc;
}

static int snapshot_check(const floe_world *w, char *err, size_t errlen) {
    ck c = {err, errlen, 0};
    table *t = malloc(sizeof *t);
    if (!t) return bad(&c, "/", "out of memory"), -1;
    if (build_table(t) != 0) bad(&c, "the snapshot's table", "cannot be walked: %s", t->unusable);
    if (!c.bad) check_leaves(&c, w, t);
    if (!c.bad) check_world_rules(&c, w);
    if (!c.bad) check_particle_rules(&c, w);
    if (!c.bad) check_contact_rules(&c, w);
    if (!c.bad) { /* the periodic cell (cell.c), as the engine needs it */
        const char *where;
        char why[512];
        if (floe__cell_state_bad(w, floe__start_search_skin(w), &where, why, sizeof why)) bad(&c, where, "%s", why);
    }
    if (!c.bad && floe__supply_check(w, err, errlen)) c.bad = 1;      /* inlets and sinks (supply.c) */
    if (!c.bad && floe__cell_phases_check(w, err, errlen)) c.bad = 1; /* cell_phases.c */
    free(t);
    return c.bad ? -1 : 0;
}

/* ---- comparing two worlds ------------------------------------------------------------------ */

static int snapshot_diff(const floe_world *a, const floe_world *b, char *what, size_t whatlen);

int floe__snapshot_diff(const floe_world *a, const floe_world *b, char *what, size_t whatlen) {
    const floe_world *va = full_view(a, 1), *vb = full_view(b, 1);
    int diff = 1;
    if (va && vb) diff = snapshot_diff(va, vb, what, whatlen);
    else snprintf(what, whatlen, "out of memory");
    full_view_free(a, va);
    full_view_free(b, vb);
    return diff;
}

static int snapshot_diff(const floe_world *a, const floe_world *b, char *what, size_t whatlen) {
    table *t = malloc(sizeof *t);
    if (!t) {
        snprintf(what, whatlen, "out of memory");
        return 1;
    }
    int diff = 0;
    if (build_table(t) != 0) {
        snprintf(what, whatlen, "the snapshot's table cannot be walked: %s", t->unusable);
        diff = 1;
    }
    /* the counts first: the arrays are compared over them */
    for (int i = 0; i < t->nleaves && !diff; i++) {
        const floe_snap_rows *r = t->leaves[i].rows;
        if (r && count_of(a, r) != count_of(b, r)) {
            snprintf(what, whatlen, "the number of %ss: %d and %d", r->noun, count_of(a, r), count_of(b, r));
            diff = 1;
        }
    }
    for (int i = 0; i < t->nleaves && !diff; i++) {
        const leaf *lf = &t->leaves[i];
        const floe_snap_field *f = lf->f;
        int n = count_of(a, lf->rows);
        if (f->conv == FLOE_CONV_IF_VALID && !a->bp.valid && !b->bp.valid) continue; /* nothing there yet */
        for (int r = 0; r < n && !diff; r++) {
            const char *pa = row_ptr(a, lf, (size_t)r) + lf->off, *pb = row_ptr(b, lf, (size_t)r) + lf->off;
            size_t bytes = f->rows && !f->sub ? floe__snap_type_size(f->type) * (size_t)f->ncomp : f->size;
            if (f->conv == FLOE_CONV_STATE) /* the model's own bytes of the row */
                bytes = floe_registry_get(a->insts[a->con[r].inst].model)->state_size;
            if (f->conv == FLOE_CONV_MAT_PARAMS || f->conv == FLOE_CONV_LAW_PARAMS)
                bytes = sizeof(double) * (size_t)param_count(lf, model_of_row(lf, row_ptr(a, lf, (size_t)r)));
            int same = f->type == FLOE_SNAP_STR ? !strncmp(pa, pb, (size_t)f->ncomp) : !memcmp(pa, pb, bytes);
            if (!same) {
                char p[200];
                snprintf(what, whatlen, "%s (member %s)%s%s %d",
                         floe__snap_path(f->group, f->name, f->attr, p, sizeof p), f->member, lf->rows ? ": " : "",
                         lf->rows ? lf->rows->noun : "", r);
                diff = 1;
            }
        }
    }
    free(t);
    return diff;
}
