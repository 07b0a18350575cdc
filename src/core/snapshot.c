/* The snapshot: comparing two worlds (snapshot.h). Writing, reading and
 * checking are snapshot_write.c, snapshot_read.c and snapshot_check.c, the
 * table they walk snapshot_flat.c, through the table of
 * snapshot_members.c; the walker of items they share with every other
 * table of the kind is snapshot_walk.c.
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

_Static_assert(sizeof(vec3) == 3 * sizeof(double), "vec3 must be 3 packed doubles");
_Static_assert(sizeof(quat) == 4 * sizeof(double), "quat must be 4 packed doubles");
_Static_assert(sizeof(floe_pair) == 3 * sizeof(int32_t), "a pair must be 3 packed ints");
_Static_assert(sizeof(int) == sizeof(int32_t), "int must be 32 bits");

/* ---- comparing two worlds ------------------------------------------------------------------ */

static int snapshot_diff(const floe_world *a, const floe_world *b, char *what, size_t whatlen);

int floe__snapshot_diff(const floe_world *a, const floe_world *b, char *what, size_t whatlen) {
    const floe_world *va = floe__snap_full_view(a, 1), *vb = floe__snap_full_view(b, 1);
    int diff = 1;
    if (va && vb) diff = snapshot_diff(va, vb, what, whatlen);
    else snprintf(what, whatlen, "out of memory");
    floe__snap_full_view_free(a, va);
    floe__snap_full_view_free(b, vb);
    return diff;
}

static int snapshot_diff(const floe_world *a, const floe_world *b, char *what, size_t whatlen) {
    table *t = malloc(sizeof *t);
    if (!t) {
        snprintf(what, whatlen, "out of memory");
        return 1;
    }
    int diff = 0;
    if (floe__snap_table_build(t) != 0) {
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
                         floe_snap_path(f->group, f->name, f->attr, p, sizeof p), f->member, lf->rows ? ": " : "",
                         lf->rows ? lf->rows->noun : "", r);
                diff = 1;
            }
        }
    }
    free(t);
    return diff;
}
