/* Broad phase: Verlet pair list over a uniform cell grid. */
#ifndef FLOE_COLLIDE_BROADPHASE_H
#define FLOE_COLLIDE_BROADPHASE_H

#include "core/world.h"

/* 1 if some body moved more than half the skin since the last rebuild. */
int floe_broadphase_needs_rebuild(const floe_world *w);
/* Rebuilds the pair list and links live contacts to their pairs; 0 on OOM. */
int floe_broadphase_rebuild(floe_world *w);

#endif
