/* The body-force seam: forces a body feels from its own state (position,
 * orientation, velocity) rather than from contacts. Water (water.c) is the
 * first. A body force is one file exposing one `const floe_body_force`,
 * listed in the table of bodyforces.c; the integrator adds the sum to the
 * contact forces of every body that is not fully blocked, on its free DOFs,
 * next to gravity and group loads (docs/architecture.md, "A new body
 * force"). Its energy enters the balance in two parts: the conservative
 * part through a potential evaluated from the state (FLOE_E_BUOYANCY), the
 * rest through its accumulated work (FLOE_E_DRAG). */
#ifndef FLOE_CORE_BODYFORCE_H
#define FLOE_CORE_BODYFORCE_H

#include "core/world.h"

/* Force and torque (global frame, torque about the body's centre). */
typedef struct floe_bf {
    vec3 f, t;   /* conservative part: its energy is the potential */
    vec3 fw, tw; /* the rest (drag, wind): its work is accumulated */
} floe_bf;

typedef struct floe_body_force {
    const char *name;
    int (*active)(const floe_world *w);
    /* Adds what body i feels at the world's current state (position and
     * orientation at t, velocity at t - dt/2, as the leapfrog has them). */
    void (*eval)(const floe_world *w, int i, floe_bf *out);
    /* Potential energy of the conservative part on body i (J). */
    double (*potential)(const floe_world *w, int i);
} floe_body_force;

#endif
