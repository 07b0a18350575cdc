/* Validation of a loaded restart file (src/io/restart_check.c): a restart
 * file is input like any other, and neither the engine nor the outputs may
 * run from values they cannot handle. The world's snapshot is checked by
 * its table as it is read (src/core/snapshot.h); this checks the rest. */
#ifndef FLOE_IO_RESTART_CHECK_H
#define FLOE_IO_RESTART_CHECK_H

#include "floe/floe_io.h"

/* Checks the run settings, output configuration and output counters of r
 * (loaded by floe_restart_load) and their consistency with the world. 0,
 * or -1 with "<dataset or attribute>: <what is wrong>" in err. */
int floe_restart_check(const floe_restart *r, char *err, size_t errlen);

#endif
