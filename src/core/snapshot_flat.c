/* The snapshot's table flattened into leaves and items, and the full view
 * of a world that the snapshot's walkers read (snapshot_flat.h). */
#include "core/cell.h"
#include "core/cell_phases.h"
#include "core/step.h"
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

/* ---- the table, flattened -------------------------------------------------------- */

static void flatten(table *t, const floe_snap_struct *s, size_t base, frame fr) {
    for (int l = 0; l < 2; l++)
        for (const floe_snap_field *f = s->fields[l]; f && f->member; f++) {
            if (f->role == FLOE_SNAP_DOC) { /* a text of its own, no member */
                if (t->nleaves < MAX_LEAVES) t->leaves[t->nleaves++] = (leaf){f, NULL, 0, 0, 0, 0};
                else t->unusable = "more state members than MAX_LEAVES";
                continue;
            }
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

/* Leaves into items: the members that share an item are its columns. */
static int make_items(table *t) {
    for (int i = 0; i < t->nleaves; i++) {
        const floe_snap_field *f = t->leaves[i].f;
        item *it = NULL;
        for (int k = 0; k < t->nitems && !it; k++)
            if (t->items[k].attr == f->attr && !strcmp(t->items[k].group, f->group) &&
                !strcmp(t->items[k].name, f->name))
                it = &t->items[k];
        /* an int in a column of doubles joins the item's other columns */
        floe_snap_conv conv = f->conv == FLOE_CONV_INT_AS_F64 ? FLOE_CONV_NONE : f->conv;
        if (!it) {
            it = &t->items[t->nitems++];
            *it = (item){f->group, f->name,   f->attr, t->leaves[i].rows, f->type,
                         0,        f->shape2, conv,    f->built,          f->optional};
        }
        int cols = f->type == FLOE_SNAP_STR || f->conv == FLOE_CONV_MODEL ? 1 : f->col + f->ncomp;
        if (cols > it->cols) it->cols = cols;
        if (it->nleaf < MAX_ITEM_LEAVES) it->leaf[it->nleaf++] = i;
        else t->unusable = "more members in one item than MAX_ITEM_LEAVES";
        if (it->rows != t->leaves[i].rows || it->type != f->type || it->conv != conv)
            t->unusable = "members of one item with different rows, types or conversions";
        if (it->nleaf > 1 && (f->role == FLOE_SNAP_DOC || t->leaves[it->leaf[0]].f->role == FLOE_SNAP_DOC))
            t->unusable = "a doc text sharing its item";
        if (f->conv == FLOE_CONV_INT_AS_F64 && (f->type != FLOE_SNAP_F64 || f->size != sizeof(int) * (size_t)f->ncomp))
            t->unusable = "an int stored as doubles that is not an int member in an F64 item";
    }
    return t->unusable ? -1 : 0;
}

int floe__snap_table_build(table *t) {
    t->nleaves = t->nitems = 0;
    t->unusable = NULL;
    flatten(t, &floe__snap_world, 0, (frame){0});
    /* the shape store (the world's member `store`), from the classes */
    if (floe__snap_shapes_describe(&t->shapes) != 0) t->unusable = t->shapes.unusable;
    else flatten(t, &t->shapes.root, 0, (frame){0});
    return make_items(t) != 0 || t->unusable ? -1 : 0;
}

int floe__snap_table_build_root(table *t, const floe_snap_struct *root) {
    t->nleaves = t->nitems = 0;
    t->unusable = NULL;
    flatten(t, root, 0, (frame){0});
    return make_items(t) != 0 || t->unusable ? -1 : 0;
}

/* ---- the full view ------------------------------------------------------------------ */

const floe_world *floe__snap_full_view(const floe_world *w, int written) {
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
        floe__snap_full_view_free(w, v);
        return NULL;
    }
    return v;
}

void floe__snap_full_view_free(const floe_world *w, const floe_world *v) {
    if (!v || v == w) return;
    if (v->cwarm != w->cwarm) free(v->cwarm);
    if (v->cgeom != w->cgeom) free(v->cgeom);
    if (v->bp.img != w->bp.img) free(v->bp.img);
    if (v->bp.ref_ori != w->bp.ref_ori) free(v->bp.ref_ori);
    if (v->angmom != w->angmom) free(v->angmom);
    if (v->wraps != w->wraps) free(v->wraps);
    free((void *)v);
}
