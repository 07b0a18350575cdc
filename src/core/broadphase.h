/* Broad phase: Verlet pair list over a uniform cell grid. */
#ifndef FLOE_CORE_BROADPHASE_H
#define FLOE_CORE_BROADPHASE_H

#include "core/world.h"

/* Square of the largest distance any point of body i moved since the last
 * rebuild (squared: no square root for the many round bodies), d2 being
 * the square of its reference point's displacement: through its class,
 * for a body whose surface moves when it turns. The integrator takes the
 * spheres' d2 inline and asks this for the other bodies (integrate.c). */
/* pure: reads only, so the integrator's loop need not reload what it holds */
double floe__moved2_shape(const floe_world *w, int i, double d2) __attribute__((pure));

/* 1 if some body moved more than half the skin since the last rebuild. */
int floe_broadphase_needs_rebuild(const floe_world *w);
/* The same for a largest squared displacement moved2 not yet stored in
 * w->bp.max_moved2 (the step's region decides with it, step.c). */
int floe_broadphase_rebuild_due(const floe_world *w, double moved2);
/* Rebuilds the pair list and links live contacts to their pairs. Errors
 * (with the world's message): FLOE_ERR_MEMORY, FLOE_ERR_RUNAWAY when the
 * bodies' extent or the skin is not finite. */
floe_status floe_broadphase_rebuild(floe_world *w);

/* Steps between two sorts of the contacts outside rebuilds. Contacts made
 * since the last sort sit at the end of the list, and a deleted contact's
 * place takes the last one, so a static packing whose contacts open and
 * close (dense 10k: about 66 new contacts a step) loses the order that
 * keeps each thread on its own bodies within a few hundred steps. The
 * sort moves every contact once: about as much as one contact pass. */
#define FLOE_SORT_PERIOD 64

/* Puts the contacts in the order of the bodies they belong to (each
 * rebuild does it too); deterministic, so results stay the same on any
 * thread count and across restarts. */
void floe_broadphase_sort_contacts(floe_world *w);

#endif
