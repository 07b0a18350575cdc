/* Leapfrog integration (integrate.c). */
#ifndef FLOE_CORE_INTEGRATE_H
#define FLOE_CORE_INTEGRATE_H

#include "core/motion.h"
#include "core/world.h"

/* One step of the integrator, shared by the threads of a parallel region:
 * floe__integrate_begin (serial), floe__integrate_blocks (every thread of
 * the region, each its own blocks of bodies), floe__integrate_end (serial).
 * Split so that the step can run the integrator and the contact phase in
 * one region (step.c); floe__integrate runs the three in a region of its
 * own. */
typedef struct floe_integ {
    int64_t step;                   /* the step the integrator starts from */
    floe_drive dr[FLOE_MAX_GROUPS]; /* the groups' drives at this time */
    uint32_t moving, loaded;        /* driven and loaded groups */
    int bodyf;                      /* body forces (water) act */
    struct integ_acc *blocks;       /* per block of bodies: its sums (integrate.c) */
} floe_integ;

/* What the blocks found, in block order: the largest squared displacement
 * since the last rebuild, the first body that ran away (np if none), and
 * whether a blocked DOF moved. */
typedef struct floe_integ_sum {
    double moved2;
    int bad, bmoving;
} floe_integ_sum;

floe_status floe__integrate_begin(floe_world *w, floe_integ *it);
void floe__integrate_blocks(floe_world *w, const floe_integ *it);
floe_integ_sum floe__integrate_sum(const floe_world *w, const floe_integ *it);
/* Books the blocks' energies, the displacement for the broad phase, and
 * reports a runaway. */
floe_status floe__integrate_end(floe_world *w, const floe_integ *it);
floe_status floe__integrate(floe_world *w);
/* Books the boundary work of the step's end forces (after the contact pass
 * that follows floe__integrate). */
void floe__boundary_end(floe_world *w);

#endif
