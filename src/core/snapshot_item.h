/* The items of a snapshot and the visitor that writes and reads them
 * (docs/architecture.md#the-snapshot-of-the-world): a writer receives one
 * item at a time, a reader looks items up and reads their values. Neither
 * knows the world; the helpers below read single items with the snapshot's
 * messages (a missing item, one of the wrong class or size, an integer out
 * of range). */
#ifndef FLOE_CORE_SNAPSHOT_ITEM_H
#define FLOE_CORE_SNAPSHOT_ITEM_H

#include <floe/floe_snapshot.h> /* the item types, the visitor and the single-item helpers */

/* Bytes of one value (0 for text). */
size_t floe__snap_type_size(floe_snap_type t);
const char *floe__snap_type_name(floe_snap_type t);

/* Raw bytes: a table of rows x cols bytes of an integer item, as they are
 * (the contact model state). 0, or -1. */
int floe__snap_get_raw(floe_snap_in *in, const char *group, const char *name, size_t rows, size_t cols, void *dst);

#endif
