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

/* Global force on A, torques on A and B, and the step's energies of one
 * batched contact, for the ordered force assembly. */
typedef struct floe_batch_out {
    vec3 F, mA, mB;
    double elastic, plastic, dashpot;
    int keep, ok;  /* keep: the contact stays; ok: no runaway */
} floe_batch_out;

/* 1 if contact c can go through the batched kernel this step. */
int floe_batch_eligible(const floe_world *w, const floe_contact *c, int renorm);

/* Runs contacts ks[0..n) (n <= FLOE_BATCH) and fills out[0..n). */
void floe_batch_run(floe_world *w, const int *ks, int n, floe_batch_out *out);

#endif
