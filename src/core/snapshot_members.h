/* The snapshot's table of struct floe_world and the structs it stores
 * (snapshot_members.c), and the kinds of rows. */
#ifndef FLOE_CORE_SNAPSHOT_MEMBERS_H
#define FLOE_CORE_SNAPSHOT_MEMBERS_H

#include "core/snapshot_table.h"

/* The root: struct floe_world (and through it every struct it stores). */
extern const floe_snap_struct floe__snap_world;
/* Every struct described, for the tiling test. */
extern const floe_snap_struct *const floe__snap_structs[];
extern const int floe__snap_nstructs;

/* The row kinds; the shapes' are built from their classes (snapshot_shapes.c). */
extern const floe_snap_rows floe__rows_particles, floe__rows_materials, floe__rows_instances, floe__rows_overrides,
    floe__rows_groups, floe__rows_contacts, floe__rows_pairs, floe__rows_schedule, floe__rows_planes, floe__rows_inlets,
    floe__rows_sinks, floe__rows_phases, floe__rows_cell_phases;

#endif
