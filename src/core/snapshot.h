/* One snapshot of the world's state (docs/architecture.md#the-snapshot-of-the-world).
 *
 * A table describes every member of struct floe_world and of the structs
 * it stores (snapshot_members.c; the shape store from the classes in snapshot_shapes.c;
 * their types in snapshot_table.h): its offset and size, whether it is
 * state (saved), a count of rows, derived (recomputed on load) or
 * transient (scratch, capacities, this step's events), and for state the
 * item that carries it: a stable name, an element type, components per
 * row, the count of rows and the check a loaded value must pass.
 * Everything else is driven by that table:
 *
 * - floe_snapshot_write (public: include/floe/floe_snapshot.h) walks it and hands every item to a writer (the
 *   visitor floe_snap_writer of snapshot_item.h: one call per item,
 *   format-neutral). The HDF5 restart writer (src/io/restart.c) and the
 *   byte form of snapshot_bytes.c are two writers.
 * - floe_snapshot_read builds a new world from a reader (floe_snap_reader:
 *   look an item up, read its values), checking every value as the table
 *   says, then the rules between tables (floe__snapshot_check).
 * - floe__snapshot_diff compares two worlds member by member, state only.
 * - tests/test_snapshot.c checks that the listed members tile each struct,
 *   so a member added to the world without a table entry fails a test.
 *
 * Items are named "group/name" (a table of rows: an HDF5 dataset) or
 * "group@name" (a small set of values: an HDF5 attribute). A later partial
 * snapshot (a particle with its contacts, for another MPI rank) writes the
 * same items with a selection of rows; the gather and scatter of
 * snapshot.c work row by row for that reason. */
#ifndef FLOE_CORE_SNAPSHOT_H
#define FLOE_CORE_SNAPSHOT_H

#include "core/snapshot_item.h"
#include "core/world.h"

/* FLOE_SNAPSHOT_FORMAT, floe_snapshot_write and floe_snapshot_read are
 * public (include/floe/floe_snapshot.h). */

/* The table's checks and the rules between tables on a world. 0, or -1
 * with "<item>: <row>: <what is wrong>" in err. A world built through the
 * API passes. */
int floe__snapshot_check(const floe_world *w, char *err, size_t errlen);

/* Compares the state of two worlds member by member through the table
 * (bytes of every state member of every row; model state by its size; text
 * up to its end). 0 if equal; 1 with the first difference in what. */
int floe__snapshot_diff(const floe_world *a, const floe_world *b, char *what, size_t whatlen);

#endif
