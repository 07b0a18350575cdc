/* The shapes in the snapshot (snapshot_shapes.c): the world's shape store
 * described from the shape classes' field lists, so that a new shape needs
 * no line here. Everything the snapshot knows of shapes is in that file. */
#ifndef FLOE_CORE_SNAPSHOT_SHAPES_H
#define FLOE_CORE_SNAPSHOT_SHAPES_H

#include "core/snapshot_table.h"

/* Fields per record the description holds (a class with more is refused
 * as a table that cannot be walked). */
enum { FLOE_SNAP_SHAPE_FIELDS = 8 };

/* The store's records as table entries, built from the classes for one
 * walk of the table: per shape with a record, its rows (counted by the
 * store's n), the struct of its record (the class's fields, each an item
 * "<section>/<field>") and the store member that points to the records. */
typedef struct floe_snap_shapes {
    floe_snap_rows rows[FLOE_SHAPE_COUNT];
    char count_item[FLOE_SHAPE_COUNT][96];
    floe_snap_field fields[FLOE_SHAPE_COUNT][FLOE_SNAP_SHAPE_FIELDS + 1];
    floe_snap_struct records[FLOE_SHAPE_COUNT];
    floe_snap_field stores[FLOE_SHAPE_COUNT + 1]; /* ends with member NULL */
    floe_snap_struct root;                        /* members: stores (offsets in the world) */
    const char *unusable;                         /* why the classes cannot be described */
} floe_snap_shapes;

/* Fills s from the registered classes; 0, or -1 with s->unusable set. */
int floe__snap_shapes_describe(floe_snap_shapes *s);

/* "0 sphere, 1 wall, ...": documents /particles/shape (by shape type). */
void floe__snap_shape_names(char *buf, size_t len);

/* Creates the particles of the snapshot with their shapes: each record is
 * read from its class's items, turned back into parameters (params_of) and
 * added through floe_add_body, which sizes every array and checks the
 * parameters; the exact records and the particles' values are read over
 * them afterwards. 0, or -1 with the message in `in`. */
int floe__snap_shapes_create(floe_snap_in *in, floe_world *w);

/* Radius and bounding radius a particle's shape gives it (what
 * floe_add_body sets, from the class); radius -1: free (spheres). */
void floe__snap_shape_sizes(const floe_world *w, int i, double *radius, double *bound);

/* The integer fields of particle i's record: its parameters (params_of)
 * in the class's ranges. NULL, or why not (in buf). */
const char *floe__snap_shape_check(const floe_world *w, int i, char *buf, size_t len);

#endif
