/* The types of the snapshot's table
 * (docs/architecture.md#the-snapshot-of-the-world): a member of a struct
 * with its offset, size and role, and for state the item that carries it
 * and the check a loaded value must pass. The tables are in
 * snapshot_members.c; the shape store's entries are built from the shape
 * classes in snapshot_shapes.c. */
#ifndef FLOE_CORE_SNAPSHOT_TABLE_H
#define FLOE_CORE_SNAPSHOT_TABLE_H

#include "core/snapshot_item.h"
#include "core/world.h"

/* The table's types (floe_snap_field, floe_snap_struct, floe_snap_rows, the
 * roles, checks and conversions) and FLOE_SNAP_MAX_LENGTH and
 * FLOE_SNAP_MAX_COUNT, the limits of loaded values, are public
 * (include/floe/floe_snapshot.h): other structs have tables of the same
 * kind, walked by the same walker (snapshot_walk.c). */

#endif
