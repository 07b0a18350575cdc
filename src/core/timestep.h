/* The critical time step and dt: auto (timestep.c; docs/integration.md,
 * "Time step"): one estimate, from the contacts the world has and from the
 * contacts its free bodies could make, used by dt: auto, floe_critical_dt,
 * the new-contact screen and the runaway message. */
#ifndef FLOE_CORE_TIMESTEP_H
#define FLOE_CORE_TIMESTEP_H

#include "core/world.h"

/* The critical step: 2 / sqrt(Lambda), Lambda the larger of the bound on
 * the largest eigenvalue of the mass-scaled stiffness of the contacts and
 * that of the prospective contacts of the free bodies; INFINITY when no
 * free body has or can make a contact (nothing can become unstable), NAN
 * when out of memory. */
double floe__crit_dt(const floe_world *w);
/* dt: auto before the first step: dt_safety times the critical step, or
 * the p-wave estimate when that is infinite. */
double floe__auto_dt(const floe_world *w);
/* Auto dt re-check: never above dt_safety times the critical step,
 * growing by at most 1e-4 per step since the last check. */
void floe__update_dt(floe_world *w);
/* Whether contact c, new this step, is too stiff for the step in use on
 * its own: dt above dt_safety times its own critical step. */
int floe__contact_too_stiff(const floe_world *w, const floe_contact *c);
/* The likely cause of a runaway (dt above the critical step, an overlap
 * that existed at the start: of contact c, or of one of particle's
 * contacts), as text to append to the message ("; likely cause: ..."), or "". */
void floe__runaway_cause(const floe_world *w, const floe_contact *c, int particle, char *buf, size_t n);

#endif
