/* Everything a run writes into its output directory: ParaView series,
 * energy.csv, history.csv, events.csv, final particles.csv / contacts.csv.
 * Documented in docs/outputs.md. */
#ifndef FLOE_IO_OUTPUT_H
#define FLOE_IO_OUTPUT_H

#include "scene.h"

typedef struct floe_output floe_output;

/* Creates `dir` if needed and opens the writers. Registers an event
 * callback on the world (events.csv). NULL on failure with a message in err. */
floe_output *floe_output_open(const char *dir, const floe_output_config *cfg,
                              floe_world *w, int64_t total_steps, char *err, size_t errlen);
/* Call after every step: writes whatever is due at the world's current step. */
int floe_output_step(floe_output *o, floe_world *w);
/* Forces a ParaView frame and an energy/history row now (used at the end and on stop). */
int floe_output_snapshot(floe_output *o, floe_world *w);
/* Writes the final state files, flushes and closes everything; frees o.
 * On failure returns -1 and prints the reason to stderr (o is gone). */
int floe_output_close(floe_output *o, floe_world *w);
/* Message of the latest failure of floe_output_step/snapshot ("" if none). */
const char *floe_output_error(const floe_output *o);

#endif
