/* The table of body forces (bodyforce.h) and their sums over it. */
#ifndef FLOE_CORE_BODYFORCES_H
#define FLOE_CORE_BODYFORCES_H

#include "core/bodyforce.h"

/* 1 if some body force is active in this world. */
int floe__body_forces_on(const floe_world *w);
/* The sum of the active body forces on body i (zero for a fully blocked body). */
void floe__body_force(const floe_world *w, int i, floe_bf *out);
/* Potential energy of the active body forces on body i, and on every body. */
double floe__body_potential(const floe_world *w, int i);
double floe__body_potential_all(const floe_world *w);

#endif
