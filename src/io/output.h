/* Everything a run writes into its output directory: ParaView series,
 * energy.csv, history.csv, events.csv, final particles.csv / contacts.csv.
 * Documented in docs/outputs.md. */
#ifndef FLOE_IO_OUTPUT_H
#define FLOE_IO_OUTPUT_H

#include "scene.h"

typedef struct floe_output floe_output;

/* Creates `dir` if needed, locks it against other floe processes
 * (DIR/.floe.lock; "DIR is in use by another floe process (pid N)"),
 * removes the files an earlier run wrote there (floe's own names only, see
 * docs/outputs.md) and opens the writers, starts the world (floe_start:
 * the contacts and forces at t = 0) and writes the initial state with the
 * events of the start (events.csv). Do not start the world before: the
 * events of its start would miss events.csv. NULL on failure with a
 * message in err. */
floe_output *floe_output_open(const char *dir, const floe_output_config *cfg,
                              floe_world *w, int64_t total_steps, char *err, size_t errlen);
/* Call after every floe_step: writes whatever is due at the world's current
 * step, and that step's events (floe_events keeps one step's: a step not
 * followed by this call loses its events, which the next call reports as a
 * failure). */
int floe_output_step(floe_output *o, floe_world *w);
/* Forces a ParaView frame and an energy/history row now (used at the end and on stop). */
int floe_output_snapshot(floe_output *o, floe_world *w);
/* Writes the final state files, flushes and closes everything; frees o.
 * On failure returns -1 and prints the reason to stderr (o is gone). */
int floe_output_close(floe_output *o, floe_world *w);
/* What a restart file records so that a resumed run continues every output
 * seamlessly: the cadences and next due steps, the frames listed in the
 * .pvd collections, and the byte length of every CSV at the restart step. */
/* period > 0: every `period` steps, `next` is the next due step; period
 * FLOE_OUTPUT_BY_TIME: an `interval` cadence, `next` is the index k of the
 * next due time k * interval; 0: off. `last`: the step last written. */
#define FLOE_OUTPUT_BY_TIME (-1)
typedef struct floe_output_stream { int64_t period, next, last; } floe_output_stream;
typedef struct floe_output_state {
    floe_output_stream vtk, energy, history;
    int width;                 /* digits of the step in frame file names */
    size_t nframes;            /* frames listed in the .pvd collections */
    int64_t *frame_step;       /* get_state: owned by the output; resume: by the caller */
    double *frame_time;
    long long csv_bytes[3];    /* energy.csv, history.csv, events.csv; -1: not written */
    uint64_t models_seen;      /* bit m: contacts frames carry model m's state arrays */
} floe_output_state;

/* Flushes and fsyncs every CSV and fills *st (valid until the next output
 * call). 0, or -1 (see floe_output_error). */
int floe_output_get_state(floe_output *o, floe_output_state *st);
/* Reopens the outputs of an interrupted run at the world's current step
 * (locked like floe_output_open, nothing of the earlier run removed):
 * CSVs are cut back to their length in *st and appended to, the .pvd
 * collections are rewritten with the frames up to the restart, frames of
 * later steps are removed. Nothing is written for the current step. */
floe_output *floe_output_resume(const char *dir, const floe_output_config *cfg, floe_world *w,
                                const floe_output_state *st, char *err, size_t errlen);
/* Message of the latest failure of floe_output_step/snapshot ("" if none). */
const char *floe_output_error(const floe_output *o);

#endif
