/* The shape tables in the snapshot (snapshot_shapes.c): everything the
 * snapshot knows of shapes, in one place. */
#ifndef FLOE_CORE_SNAPSHOT_SHAPES_H
#define FLOE_CORE_SNAPSHOT_SHAPES_H

#include "core/snapshot_table.h"

/* The world's members of the shape tables (the second list of the world's
 * struct in the table) and the structs of their rows. */
extern const floe_snap_field floe__snap_shape_fields[];
extern const floe_snap_struct *const floe__snap_shape_structs[];
extern const int floe__snap_nshape_structs;
/* "0 sphere, 1 wall, ...": documents /particles/shape. */
extern const char floe__snap_shape_names[];

/* Creates the particles of the snapshot with their shapes (through the
 * public API, which sizes every array); their values are read afterwards.
 * 0, or -1 with the message in `in`. */
int floe__snap_shapes_create(floe_snap_in *in, floe_world *w);
/* Radius and bounding radius a particle's shape table gives it (what the
 * floe_add_* functions set); radius -1: free (spheres). */
void floe__snap_shape_sizes(const floe_world *w, int i, double *radius, double *bound);

#endif
