/* Internal stepping interfaces shared by step.c, integrate.c and energy.c. */
#ifndef FLOE_CORE_STEP_H
#define FLOE_CORE_STEP_H

#include "core/world.h"

/* Items per work block. Partial sums are taken per block and added in block
 * order, which makes results independent of the thread count. */
#define FLOE_BLOCK 1024
/* Fixed number of contact parts summed separately in the force assembly
 * (the parallelism of that phase; fixed so results do not depend on threads;
 * each extra part costs a force buffer the size of the particle arrays), and
 * the slice of contacts dealt to the parts in turn. */
#define FLOE_PARTS 2
#define FLOE_SLICE 256

floe_status floe__integrate(floe_world *w);
/* integrate.c: books the boundary work of the step's end forces (after the
 * contact pass that follows floe__integrate). */
void floe__boundary_end(floe_world *w);

/* What a model sees of the world for contact c. */
static inline void floe__law_ctx(const floe_world *w, const floe_contact *c, int fresh, floe_law_ctx *ctx) {
    ctx->dt = w->dt;
    ctx->step = w->step;
    ctx->fresh = fresh;
    ctx->dim = w->def.dimension;
    ctx->lp = w->insts[c->inst].lp;
    /* bodies that cannot translate freely act as infinitely heavy */
    ctx->mass[0] = w->mass[c->a] > 0 && (w->blocked[c->a] & 7u) != 7u ? w->mass[c->a] : INFINITY;
    ctx->mass[1] = w->mass[c->b] > 0 && (w->blocked[c->b] & 7u) != 7u ? w->mass[c->b] : INFINITY;
    ctx->event_load = NULL;
}
void floe__update_dt(floe_world *w);
double floe__contact_crit_dt(const floe_world *w, const floe_contact *c);
/* step.c: the likely cause of a runaway (dt above the critical step, an
 * overlap that existed at the start: of contact c, or of one of particle's
 * contacts), as text to append to the message ("; likely cause: ..."), or "". */
void floe__runaway_cause(const floe_world *w, const floe_contact *c, int particle, char *buf, size_t n);
/* energy.c: body i's kinetic and rotational energy as floe_energy counts
 * them, added to *trans and *rot (loaded: floe__loaded_groups(w)). */
void floe__body_kinetic(const floe_world *w, int i, uint32_t loaded, double *trans, double *rot);

#endif
