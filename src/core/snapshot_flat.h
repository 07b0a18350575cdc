/* What the snapshot's files share (snapshot.c, snapshot_write.c,
 * snapshot_read.c, snapshot_check.c): the table flattened into leaves (one
 * state member each, with where its rows are) and items (a named table or
 * value set; the members of a struct that share an item are its columns),
 * the rows of a leaf in a world, and the full view of a world that its
 * walkers read (snapshot_flat.c). */
#ifndef FLOE_CORE_SNAPSHOT_FLAT_H
#define FLOE_CORE_SNAPSHOT_FLAT_H

#include "core/snapshot_shapes.h"
#include "core/snapshot_table.h"

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

/* The table flattened; 0, or -1 with t->unusable set. */
int floe__snap_table_build(table *t);

static inline int count_of(const floe_world *w, const floe_snap_rows *r) {
    return r ? *(const int *)((const char *)w + r->count_offset) : 1;
}

/* Row 0 of a leaf's array (the world itself for a value of the world), and
 * the bytes from row to row. */
static inline const char *rows_base(const floe_world *w, const leaf *lf, size_t *stride) {
    *stride = lf->stride ? lf->stride : w->cstride;
    if (!lf->rows) return (const char *)w;
    return lf->inline_arr ? (const char *)w + lf->arr : *(char *const *)((const char *)w + lf->arr);
}

/* The leaf's member in row 0; NULL when the array holds nothing (a table
 * without rows may have no array, and NULL + offset is undefined). */
static inline const char *leaf_base(const floe_world *w, const leaf *lf, size_t *stride) {
    const char *b = rows_base(w, lf, stride);
    return b ? b + lf->off : NULL;
}

/* Row r of a leaf's array. */
static inline const char *row_ptr(const floe_world *w, const leaf *lf, size_t r) {
    size_t stride;
    const char *base = rows_base(w, lf, &stride);
    return base + r * stride;
}

static inline int model_of_row(const leaf *lf, const char *row) {
    /* the struct of the row holds its model index: materials and instances */
    return lf->f->conv == FLOE_CONV_MAT_PARAMS ? ((const floe_material *)row)->model
                                               : ((const floe_instance *)row)->model;
}

static inline int param_count(const leaf *lf, int model) {
    const floe_model *m = floe_registry_get(model);
    return lf->f->conv == FLOE_CONV_MAT_PARAMS ? floe_mat_rows(m) : m->info.n_law_params;
}

/* The world as the snapshot's walkers read it: a world that keeps no warm
 * records (core/world.h, floe__warm) or no pair images (no periodic cell,
 * floe__pair_img) is read through a copy that holds the records its
 * contacts imply and zero images, and a world whose contacts' geometry,
 * lens and images follow from the positions and radii and that keeps no
 * geometry records (core/world.h) through records that hold them and the
 * particle rows its spheres imply (floe__geom_keep), so that files,
 * checks and comparisons see the same rows whether a world keeps them or
 * not. Returns w itself, or the copy (release it with floe__snap_full_view_free), or
 * NULL when out of memory. */
const floe_world *floe__snap_full_view(const floe_world *w, int written);
void floe__snap_full_view_free(const floe_world *w, const floe_world *v);

#endif
