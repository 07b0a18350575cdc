/* Validation of a loaded restart file (src/io/restart_check.c): a restart
 * file is input like any other, and the engine must never run from values
 * it cannot handle (NaN, overflowing sizes, ids out of range, a pair list
 * that names a pair twice, ...). */
#ifndef FLOE_IO_RESTART_CHECK_H
#define FLOE_IO_RESTART_CHECK_H

#include "floe/floe_io.h"

/* Coordinates and sizes beyond this [m] are refused: far past any physical
 * domain, and small enough that distances, their squares and masses stay
 * finite in double precision. */
#define FLOE_RESTART_MAX_LENGTH 1e15

/* Checks every value of r (loaded by floe_restart_load) that step() and the
 * outputs rely on, and the consistency between them. 0, or -1 with
 * "<dataset or attribute>: <what is wrong>" in err. */
int floe_restart_check(const floe_restart *r, char *err, size_t errlen);

#endif
