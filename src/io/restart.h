/* Restart files: the complete state of a run in one HDF5 file, from which
 * the run continues bit for bit (docs/restart.md describes the layout; any
 * HDF5 tool reads it: h5dump, h5py).
 *
 * A file holds the world (particles, walls, facets, materials, model
 * instances and pair overrides, groups, contacts with their model state,
 * the broad-phase pair list, scheduled methods, step, time, dt, energy
 * accumulators), the run settings and output configuration of the scene,
 * and the output counters, so that a resumed run needs nothing else. */
#ifndef FLOE_IO_RESTART_H
#define FLOE_IO_RESTART_H

#include "output.h"
#include "scene.h"

#define FLOE_RESTART_FORMAT 2

typedef struct floe_restart {
    floe_scene scene;          /* world, run length, output configuration, scene path */
    int64_t total_steps;       /* run length in steps when the run started */
    int64_t restart_every;     /* steps between restart files (0: none) */
    int stopped;               /* load: the world had stopped at a runaway */
    int has_output;            /* `output` holds the output counters */
    floe_output_state output;
} floe_restart;

/* Writes `path` (not atomically; see floe_restart_save). 0, or -1 with a
 * message in err. */
int floe_restart_write(const char *path, const floe_restart *r, char *err, size_t errlen);

/* Writes DIR/PREFIX_<step>.h5 atomically: a temporary file, fsync, rename,
 * fsync of the directory. With prefix "restart", only the two newest
 * restart files are kept. The final path goes to `path` (may be NULL). */
int floe_restart_save(const char *dir, const char *prefix, const floe_restart *r, char *path, size_t pathlen,
                      char *err, size_t errlen);

/* Reads a restart file into *r (a new world, owned by r->scene; frame
 * arrays owned by r). 0, or -1 with a message in err and *r empty. */
int floe_restart_load(const char *path, floe_restart *r, char *err, size_t errlen);
void floe_restart_free(floe_restart *r);

/* Before floe_output_resume into `dir`: outputs that r records but whose
 * files are missing (a restart file copied alone into a directory, deleted
 * outputs) start afresh at the restart step: a CSV with its header and no
 * earlier rows, the ParaView collections with no earlier frames. r->output
 * is adjusted to match. `note` gets a sentence naming them ("" if nothing
 * was missing). 0, or -1 with a message in err. */
int floe_restart_fresh_outputs(const char *dir, floe_restart *r, char *note, size_t notelen, char *err,
                               size_t errlen);

/* Restart files in `dir`, newest first: fills up to `max` paths (each
 * PATH_MAX-sized buffers in `paths`) and returns how many exist. */
int floe_restart_list(const char *dir, char (*paths)[4096], int max);
/* Removes the restart and runaway files of `dir` (a new run starts there);
 * returns how many. */
int floe_restart_clear(const char *dir);

#endif
