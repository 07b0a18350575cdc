/* Batched contact kernels for the commonest contacts: two spheres under the
 * Linear or the Ice model. Contacts are gathered into lanes, run through one
 * loop the compiler vectorizes, and written back. The loops call the same
 * inline functions as the per-contact path (narrow phase, L6Geom update,
 * the model's law), so results are bitwise identical to it
 * (tests/test_batch.c). A contact whose step is out of the ordinary (an Ice
 * bond breaking, a contact opening) is left untouched and handed back to
 * the per-contact path. */
#ifndef FLOE_CORE_BATCH_H
#define FLOE_CORE_BATCH_H

#include "core/world.h"

/* Contacts per batch: a multiple of the widest vector (8 doubles). */
#define FLOE_BATCH 64

enum { FLOE_BATCH_NONE, FLOE_BATCH_LINEAR, FLOE_BATCH_ICE, FLOE_BATCH_KINDS };

/* The models the kernels run; Linear's law parameter 0 is no_slip. */
extern const floe_model *const floe_batch_models[FLOE_BATCH_KINDS];

/* Global force on A, torques on A and B, and the step's energies of one
 * batched contact, for the ordered force assembly. */
typedef struct floe_batch_out {
    vec3 F, mA, mB;
    double elastic, plastic, dashpot;
    int keep;     /* the contact stays (else: deleted, no force) */
    int ok;       /* no runaway */
    int fallback; /* untouched: run it through the per-contact path */
} floe_batch_out;

/* The kernel contact c goes through this step, or FLOE_BATCH_NONE. Not
 * batched: a contact's first step (creation), the frame's renormalization
 * steps, Linear no_slip contacts (their spring releases energy on opening). */
static inline int floe_batch_kind(const floe_world *w, const floe_contact *c, int renorm) {
    if ((c->flags & (CF_SPHERES | CF_NEW)) != CF_SPHERES || renorm) return FLOE_BATCH_NONE;
    const floe_instance *in = &w->insts[c->inst];
    if (in->m == floe_batch_models[FLOE_BATCH_LINEAR]) return in->lp[0] == 0 ? FLOE_BATCH_LINEAR : FLOE_BATCH_NONE;
    return in->m == floe_batch_models[FLOE_BATCH_ICE] ? FLOE_BATCH_ICE : FLOE_BATCH_NONE;
}

/* Runs contacts ks[0..n) (n <= FLOE_BATCH) of one kind and fills out[0..n). */
void floe_batch_run(floe_world *w, int kind, const int *ks, int n, floe_batch_out *out);

#endif
