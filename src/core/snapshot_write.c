/* Writing the snapshot (snapshot.h): every item of the table handed to the
 * writer, the models' parameter keys, and notes for people reading it. */
#include "core/cell.h"
#include "core/cell_phases.h"
#include "core/step.h"
#include "core/snapshot.h"
#include "core/snapshot_flat.h"

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
    floe_snap_vfail(&o->bad, o->err, o->errlen, NULL, fmt, ap);
    va_end(ap);
    return -1;
}

static void put(out *o, const char *group, const char *name, int attr, floe_snap_type t, int rank, size_t d0, size_t d1,
                const void *data, int doc) {
    if (o->bad) return;
    if (floe_snap_put(o->wr, group, name, attr, t, rank, d0, d1, data, doc) != 0) {
        char p[160];
        out_fail(o, "cannot write %s", floe_snap_path(group, name, attr, p, sizeof p));
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
        for (int k = 0; k < floe_mat_rows(m); k++) keys[k] = floe_mat_spec(m, k)->key; /* as stored */
        put(o, g, "mat_params", 0, FLOE_SNAP_STR, 1, (size_t)floe_mat_rows(m), 0, keys, 0);
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

static int snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen);

int floe_snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen) {
    const floe_world *v = floe__snap_full_view(w, 1);
    if (!v) {
        out o = {wr, err, errlen, 0, NULL, 0};
        return out_fail(&o, "out of memory");
    }
    int rc = snapshot_write(v, wr, err, errlen);
    floe__snap_full_view_free(w, v);
    return rc;
}

static int snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen) {
    out o = {wr, err, errlen, 0, NULL, 0};
    table *t = malloc(sizeof *t);
    if (!t) return out_fail(&o, "out of memory");
    if (floe__snap_table_build(t) != 0) out_fail(&o, "the snapshot's table cannot be walked: %s", t->unusable);
    put_models(&o);
    for (int i = 0; i < t->nitems && !o.bad; i++) put_item(&o, w, t, &t->items[i]);
    int64_t ndef = floe_registry_count();
    put(&o, "instances", "n_defaults", 1, FLOE_SNAP_I64, 0, 0, 0, &ndef, 0);
    put_docs(&o, w);
    free(o.buf);
    free(t);
    return o.bad ? -1 : 0;
}
