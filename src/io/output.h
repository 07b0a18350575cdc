/* Everything a run writes into its output directory: ParaView series,
 * energy.csv, history.csv, events.csv, final particles.csv / contacts.csv.
 * Documented in docs/outputs.md. The declarations are public, in
 * include/floe/floe_io.h (with the output configuration types that the
 * scene loader fills and the writers read). */
#ifndef FLOE_IO_OUTPUT_H
#define FLOE_IO_OUTPUT_H

#include <floe/floe_io.h>

#endif
