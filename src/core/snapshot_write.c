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

/* Every registered model: its parameter keys (the column order of the
 * parameter tables) and the size and exported names of its state. */
static void put_models(snap_out *o) {
    for (int i = 0; i < floe_registry_count() && !o->bad; i++) {
        const floe_model *m = floe_registry_get(i);
        char g[96];
        snprintf(g, sizeof g, "models/%s", m->info.name);
        const char *keys[FLOE_MAX_MAT_PARAMS + FLOE_MAX_LAW_PARAMS + 1];
        for (int k = 0; k < floe_mat_rows(m); k++) keys[k] = floe_mat_spec(m, k)->key; /* as stored */
        floe__snap_put(o, g, "mat_params", 0, FLOE_SNAP_STR, 1, (size_t)floe_mat_rows(m), 0, keys, 0);
        for (int k = 0; k < m->info.n_law_params; k++) keys[k] = m->info.law_params[k].key;
        floe__snap_put(o, g, "law_params", 0, FLOE_SNAP_STR, 1, (size_t)m->info.n_law_params, 0, keys, 0);
        floe__snap_put(o, g, "state_names", 0, FLOE_SNAP_STR, 1, (size_t)m->info.n_state, 0, m->info.state_names, 1);
        int64_t v = (int64_t)m->state_size;
        floe__snap_put(o, g, "state_size", 1, FLOE_SNAP_I64, 0, 0, 0, &v, 0);
        v = i;
        floe__snap_put(o, g, "registry_index", 1, FLOE_SNAP_I64, 0, 0, 0, &v, 1);
    }
}

/* For people reading the file: the contact state as named values, and notes. */
static void put_docs(snap_out *o, const floe_world *w) {
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
        floe__snap_put(o, notes[i][0], notes[i][1], 1, FLOE_SNAP_STR, 0, 0, 0, notes[i][2], 1);
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        if (c && c->frame) floe__snap_put(o, c->section, "frame", 1, FLOE_SNAP_STR, 0, 0, 0, c->frame, 1);
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
        if (!idx || !val) floe__snap_out_fail(o, "out of memory");
        for (size_t k = 0, j = 0; !o->bad && k < n; k++) {
            if (w->insts[w->con[k].inst].model != m) continue;
            idx[j] = (int32_t)k;
            const floe_geom gk = floe__contact_geom(w, (int)k);
            mod->get_state(&w->con[k], &gk, &w->cwarm[k], w->cstate + k * w->cstride, val + j * (size_t)ns);
            j++;
        }
        char g[96];
        snprintf(g, sizeof g, "contacts/model_state/%s", mod->info.name);
        floe__snap_put(o, g, "contact", 0, FLOE_SNAP_I32, 1, cnt, 0, idx, 1);
        floe__snap_put(o, g, "values", 0, FLOE_SNAP_F64, 2, cnt, (size_t)ns, val, 1);
        floe__snap_put(o, g, "names", 0, FLOE_SNAP_STR, 1, (size_t)ns, 0, mod->info.state_names, 1);
        free(idx);
        free(val);
    }
}

static int snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen);

int floe_snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen) {
    const floe_world *v = floe__snap_full_view(w, 1);
    if (!v) {
        snap_out o = {wr, err, errlen, 0, NULL, 0};
        return floe__snap_out_fail(&o, "out of memory");
    }
    int rc = snapshot_write(v, wr, err, errlen);
    floe__snap_full_view_free(w, v);
    return rc;
}

static int snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen) {
    snap_out o = {wr, err, errlen, 0, NULL, 0};
    table *t = malloc(sizeof *t);
    if (!t) return floe__snap_out_fail(&o, "out of memory");
    if (floe__snap_table_build(t) != 0)
        floe__snap_out_fail(&o, "the snapshot's table cannot be walked: %s", t->unusable);
    put_models(&o);
    for (int i = 0; i < t->nitems && !o.bad; i++) floe__snap_put_item(&o, w, t, &t->items[i]); /* snapshot_walk.c */
    int64_t ndef = floe_registry_count();
    floe__snap_put(&o, "instances", "n_defaults", 1, FLOE_SNAP_I64, 0, 0, 0, &ndef, 0);
    put_docs(&o, w);
    free(o.buf);
    free(t);
    return o.bad ? -1 : 0;
}
