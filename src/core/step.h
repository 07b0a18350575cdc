/* Constants of the contact pass (step.c), and the search distance the start resolves. */
#ifndef FLOE_CORE_STEP_H
#define FLOE_CORE_STEP_H

#include "core/world.h"

/* Fixed number of contact parts summed separately in the force assembly
 * (the parallelism of that phase; fixed so results do not depend on threads;
 * each extra part costs a force buffer the size of the particle arrays), and
 * the slice of contacts dealt to the parts in turn. */
#define FLOE_PARTS 2
#define FLOE_SLICE 256

/* The pair search distance beyond twice the largest bounding radius that
 * the first step's pair search uses (the skin the start resolves and the
 * models' creation margin at this step), as the start would find it; once
 * started, the one in use. */
double floe__start_search_skin(const floe_world *w);

#endif
