/* Leapfrog integration (integrate.c). */
#ifndef FLOE_CORE_INTEGRATE_H
#define FLOE_CORE_INTEGRATE_H

#include "core/world.h"

floe_status floe__integrate(floe_world *w);
/* Books the boundary work of the step's end forces (after the contact pass
 * that follows floe__integrate). */
void floe__boundary_end(floe_world *w);

#endif
