/* Energy terms and the time step (energy.c): the critical step, dt: auto,
 * kinetic energy as floe_energy counts it and the likely cause of a
 * runaway. */
#ifndef FLOE_CORE_ENERGY_H
#define FLOE_CORE_ENERGY_H

#include "core/world.h"

double floe__crit_dt(const floe_world *w);
double floe__pwave_dt(const floe_world *w);
void floe__update_dt(floe_world *w);
double floe__contact_crit_dt(const floe_world *w, const floe_contact *c);
/* The likely cause of a runaway (dt above the critical step, an overlap
 * that existed at the start: of contact c, or of one of particle's
 * contacts), as text to append to the message ("; likely cause: ..."), or "". */
void floe__runaway_cause(const floe_world *w, const floe_contact *c, int particle, char *buf, size_t n);
/* Body i's kinetic and rotational energy as floe_energy counts them, added
 * to *trans and *rot (loaded: floe__loaded_groups(w)). */
void floe__body_kinetic(const floe_world *w, int i, uint32_t loaded, double *trans, double *rot);

#endif
