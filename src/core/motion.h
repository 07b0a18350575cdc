/* Group motion: the single prescribed motion (floe_group_set_motion), the
 * phases of a group (velocity, rotation about an axis, servo, load, free)
 * and the triggers that switch them (motion.c, docs/laboratory.md). */
#ifndef FLOE_CORE_MOTION_H
#define FLOE_CORE_MOTION_H

#include "core/world.h"

/* What a driven group imposes on its fully blocked members this step: a
 * velocity and angular velocity, or a rigid rotation about the axis through
 * c (q: the step's rotation). */
typedef struct floe_drive {
    int rotate;
    vec3 v, om, c;
    quat q;
} floe_drive;

/* The drives of the groups at this time (dr by group); returns the mask of
 * driven groups. */
uint32_t floe__drives(const floe_world *w, floe_drive *dr);

/* Velocity and angular velocity of a member at p for the step dt. A
 * rotation gives the chord velocity: p + v dt is p turned about the axis. */
static inline void floe__drive_body(const floe_drive *d, vec3 p, double dt, vec3 *v, vec3 *om) {
    *om = d->om;
    if (!d->rotate) {
        *v = d->v;
        return;
    }
    vec3 pn = vadd(d->c, qrotate(d->q, vsub(p, d->c)));
    *v = vscale(vsub(pn, p), 1.0 / dt);
}

/* Start of a step (forces of time t in w->force): switches phases whose
 * triggers are met, sets the loads of load phases and the servos'
 * velocities, booking the change of counted kinetic energy as boundary work. */
floe_status floe__motion_update(floe_world *w);
/* At the start (after the forces of t = 0) and at the end of every step:
 * enters the phases whose triggers hold on the state reached, so that a
 * phase starting at time t is the group's phase at t (the history's
 * `phase` column, floe_group_phase); floe__motion_update checks again. */
floe_status floe__motion_switch(floe_world *w);
/* The first step: refuses a body in two motion-controlled groups. */
floe_status floe__motion_check(floe_world *w);
/* Whether a member of group g (about to be motion-controlled) is in another
 * motion-controlled group: writes the error (fn: naming both) and returns 1. */
int floe__motion_conflict(floe_world *w, int g, const char *fn);

/* phase_keys.c: the key tables of a phase and of its start (floe.h, "key
 * tables"), listed by floe_key_table_find (keys.c). */
extern const floe_key_table floe__phase_keys, floe__phase_start_keys;

#endif
