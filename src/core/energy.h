/* Energy terms (energy.c): kinetic energy as floe_energy counts it. The
 * time step is timestep.h's. */
#ifndef FLOE_CORE_ENERGY_H
#define FLOE_CORE_ENERGY_H

#include "core/world.h"

/* Body i's kinetic and rotational energy as floe_energy counts them, added
 * to *trans and *rot (loaded: floe__loaded_groups(w)). */
void floe__body_kinetic(const floe_world *w, int i, uint32_t loaded, double *trans, double *rot);
/* The balance check (every dyn_dt_period steps and at the start): keeps
 * the largest sum of the magnitudes of the terms (the scale of the error)
 * and, the first time |error| passes def.energy_warn, records a
 * FLOE_EVENT_ENERGY_ERROR event (docs/integration.md#energy). */
void floe__energy_check(floe_world *w);

#endif
