/* Batched contact kernel for the commonest contact of granular scenes: two
 * spheres under the Linear model. Contacts are gathered into lanes, run
 * through one loop the compiler vectorizes, and written back. The loop calls
 * the same inline functions as the per-contact path (narrow phase, L6Geom
 * update, Linear force), so results are bitwise identical to it
 * (tests/test_batch.c). */
#ifndef FLOE_CORE_BATCH_H
#define FLOE_CORE_BATCH_H

#include "core/world.h"

/* Contacts per batch: a multiple of the widest vector (8 doubles). */
#define FLOE_BATCH 64

/* The model the kernel runs (Linear); its law parameter 0 is no_slip. */
extern const floe_model *const floe_batch_model;

/* Global force on A, torques on A and B, and the step's energies of one
 * batched contact, for the ordered force assembly. */
typedef struct floe_batch_out {
    vec3 F, mA, mB;
    double elastic, plastic, dashpot;
    int keep, ok;  /* keep: the contact stays; ok: no runaway */
} floe_batch_out;

/* 1 if contact c can go through the batched kernel this step. Not batched:
 * a contact's first step (creation), the frame's renormalization steps, and
 * no_slip contacts (their shear spring releases energy on opening). */
static inline int floe_batch_eligible(const floe_world *w, const floe_contact *c, int renorm) {
    const floe_instance *in = &w->insts[c->inst];
    return (c->flags & (CF_SPHERES | CF_NEW)) == CF_SPHERES && !renorm && in->m == floe_batch_model &&
           in->lp[0] == 0;
}

/* Runs contacts ks[0..n) (n <= FLOE_BATCH) and fills out[0..n). */
void floe_batch_run(floe_world *w, const int *ks, int n, floe_batch_out *out);

#endif
