/* Restart files: the complete state of a run in one HDF5 file, from which
 * the run continues bit for bit (docs/restart.md describes the layout; any
 * HDF5 tool reads it: h5dump, h5py).
 *
 * A file holds the world's snapshot (src/core/snapshot.h: particles,
 * shape tables, materials, model instances and pair overrides, groups,
 * contacts with their model state, the broad-phase pair list, scheduled
 * methods, step, time, dt, energy accumulators), the run settings and
 * output configuration of the scene, and the output counters, so that a
 * resumed run needs nothing else.
 * The declarations are public, in include/floe/floe_io.h; this header adds
 * the file format version. */
#ifndef FLOE_IO_RESTART_H
#define FLOE_IO_RESTART_H

#include <floe/floe_io.h>

/* The version of the snapshot's items (FLOE_SNAPSHOT_FORMAT in
 * src/core/snapshot.h), which a change of the run items below bumps too. */
#define FLOE_RESTART_FORMAT 9

#endif
