/* Internal stepping interfaces shared by step.c, integrate.c and energy.c. */
#ifndef FLOE_CORE_STEP_H
#define FLOE_CORE_STEP_H

#include "core/world.h"

/* Items per work block. Partial sums are taken per block and added in block
 * order, which makes results independent of the thread count. */
#define FLOE_BLOCK 1024

floe_status floe__integrate(floe_world *w);
void floe__law_ctx(const floe_world *w, const floe_contact *c, int fresh, floe_law_ctx *ctx);
void floe__update_dt(floe_world *w);

#endif
