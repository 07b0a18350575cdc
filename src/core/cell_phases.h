/* Phases of the periodic cell (cell_phases.c, docs/periodic.md#phases). */
#ifndef FLOE_CORE_CELL_PHASES_H
#define FLOE_CORE_CELL_PHASES_H

#include "core/world.h"

/* At the start (after the forces of t = 0), at the start of every step and
 * at its end: enters the cell phases whose triggers hold on the state the
 * world is in, in turn, so that a phase starting at t is the cell's phase
 * at t and drives the step that leaves t. */
floe_status floe__cell_switch(floe_world *w);
/* The snapshot's rules for the cell phases (every phase as
 * floe_world_set_cell_phases checks it, the current index among them):
 * 0, or -1 with why. */
int floe__cell_phases_check(const floe_world *w, char *why, size_t n);

#endif
