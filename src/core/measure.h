/* Measurements (measure.c): the per-step part of the plane counters. The
 * public measurement functions are declared in include/floe/floe.h. */
#ifndef FLOE_CORE_MEASURE_H
#define FLOE_CORE_MEASURE_H

#include "core/world.h"

/* Before the step's motion (only when there are plane counters): records
 * on which side of each counter's plane every body is. FLOE_OK, or
 * FLOE_ERR_MEMORY (with the world's error) when the record cannot be
 * kept: the step must not run, or its crossings would go uncounted. */
floe_status floe__planes_before(floe_world *w);
/* After the motion: counts the bodies whose side changed. */
void floe__planes_after(floe_world *w);

#endif
