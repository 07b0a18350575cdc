/* What the snapshot's files share (snapshot.c, snapshot_write.c,
 * snapshot_read.c, snapshot_check.c, snapshot_walk.c): a table flattened
 * into leaves (one state member each, with where its rows are) and items (a
 * named table or value set; the members of a struct that share an item are
 * its columns), the rows of a leaf in the table's root struct (the world,
 * or another root), the walker of items that every table goes through
 * (snapshot_walk.c), and the full view of a world that its walkers read
 * (snapshot_flat.c). */
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

enum { MAX_LEAVES = 256, MAX_ITEM_LEAVES = 8 };

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

/* The world's table flattened; 0, or -1 with t->unusable set. */
int floe__snap_table_build(table *t);
/* The table of another root struct (no shape store), the same way. */
int floe__snap_table_build_root(table *t, const floe_snap_struct *root);

/* The functions below take the table's root struct: the world, or the
 * struct of another table. */
static inline int count_of(const void *obj, const floe_snap_rows *r) {
    if (!r) return 1;
    const char *p = (const char *)obj + r->count_offset;
    return r->count_size == sizeof(size_t) && sizeof(size_t) != sizeof(int) ? (int)*(const size_t *)p : *(const int *)p;
}

/* Row 0 of a leaf's array (the root itself for a value of the root), and
 * the bytes from row to row (rows of stride 0 are the world's contact
 * state, of the world's stride: only the world's table has them). */
static inline const char *rows_base(const void *obj, const leaf *lf, size_t *stride) {
    *stride = lf->stride || !lf->rows ? lf->stride : ((const floe_world *)obj)->cstride;
    if (!lf->rows) return (const char *)obj;
    return lf->inline_arr ? (const char *)obj + lf->arr : *(char *const *)((const char *)obj + lf->arr);
}

/* The leaf's member in row 0; NULL when the array holds nothing (a table
 * without rows may have no array, and NULL + offset is undefined). */
static inline const char *leaf_base(const void *obj, const leaf *lf, size_t *stride) {
    const char *b = rows_base(obj, lf, stride);
    return b ? b + lf->off : NULL;
}

/* Row r of a leaf's array. */
static inline const char *row_ptr(const void *w, const leaf *lf, size_t r) {
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

/* ---- the walker of items (snapshot_walk.c): every table's ---- */

/* Where items are written. */
typedef struct snap_out {
    const floe_snap_writer *wr;
    char *err;
    size_t errlen;
    int bad;
    void *buf; /* work buffer of floe__snap_put_item, reused */
    size_t bufsize;
} snap_out;

int floe__snap_out_fail(snap_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One item through the writer ("cannot write <path>" on failure). */
void floe__snap_put(snap_out *o, const char *group, const char *name, int attr, floe_snap_type t, int rank, size_t d0,
                    size_t d1, const void *data, int doc);
/* Item `it` of table t, its values gathered from the root at obj. */
void floe__snap_put_item(snap_out *o, const void *obj, const table *t, const item *it);

/* Reads every item of t with rows `rows` (NULL: the root's own values) that
 * the API does not build, into the root at obj, whose arrays of those rows
 * exist and hold their counts. Values of the root whose member lies in
 * [skip_lo, skip_hi) are left out (def_only: only those). buf, bufsize: a
 * work buffer, reused. */
void floe__snap_read_items(floe_snap_in *in, const table *t, void *obj, const floe_snap_rows *rows, size_t skip_lo,
                           size_t skip_hi, int def_only, void **buf, size_t *bufsize);

/* Every leaf's check on the root at obj; the first failure into err
 * ("<item>: <noun> r: component k: why"), *bad set. */
void floe__snap_check_leaves(int *bad, char *err, size_t errlen, const void *obj, const table *t);

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
