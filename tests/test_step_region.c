/* A step runs the integrator and the contact phase in one parallel region
 * when nothing runs between them (step.c, integrate_and_collide); a step
 * that rebuilds the broad phase or sorts the contacts leaves the contact
 * phase to a region of its own after the integrator's. The run is compared
 * bitwise, step by step, with the same run in two regions every step
 * (w->fuse_off), on 1 and 2 threads:
 * - a block of 2400 packed spheres (three blocks of bodies: both threads
 *   integrate some) thrown apart at up to 0.5 m/s, with damping, above a
 *   floor: contacts made (all at the first step, then a few per step as
 *   the spheres meet), deleted as they part, rebuilds as they fly (at
 *   this speed, every few dozen steps), and sorts;
 * - positions, velocities, angular velocities, orientations (renormalized
 *   every 64 steps: the integrator's step), forces, torques, the contact
 *   count, every energy of floe_energy and the events of the step;
 * - the run had steps of both kinds: in one region and not;
 * - a body set off at 1e300 m/s: the integrator reports the runaway at
 *   the same step, with the same message, leaving the step and time as
 *   they were (the region advances them for its contact phase). */
#include "check.h"
#include "core/world.h"
#include "pile.h"
#include "same_state.h"

#include <string.h>

enum { LAYER = 10, N = 2400, STEPS = 600 };

static floe_world *block(int threads, int fuse_off) {
    const double r = 0.005, s = 1.98 * r; /* neighbours overlap */
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.dt = 1e-5;
    def.damping = 0.1;
    def.threads = threads;
    floe_body_def bd;
    floe_world *w = pile_world(&def, "linear", 0.4, &bd);
    w->fuse_off = fuse_off;
    uint64_t seed = 11;
    for (int k = 0; k < N; k++) {
        int i = k % LAYER, j = (k / LAYER) % LAYER, l = k / (LAYER * LAYER);
        bd.pos = (floe_vec3){(i + 0.5) * s, (j + 0.5) * s, 0.99 * r + l * s};
        bd.vel = (floe_vec3){pile_rand(&seed) - 0.5, pile_rand(&seed) - 0.5, pile_rand(&seed) - 0.5};
        floe_add_sphere(w, &bd, r);
    }
    return w;
}

static void run(int threads) {
    floe_world *a = block(threads, 0), *b = block(threads, 1);
    floe_set_event_types(a, FLOE_EVENTS_ALL);
    floe_set_event_types(b, FLOE_EVENTS_ALL);
    int differ = 0, made = 0, gone = 0;
    for (int s = 0; s < STEPS; s++) {
        CHECK(floe_step(a) == FLOE_OK);
        CHECK(floe_step(b) == FLOE_OK);
        differ += !same_state(a, b);
        floe_event_list ev = floe_events(a);
        for (int e = 0; e < ev.count; e++) {
            made += ev.events[e].type == FLOE_EVENT_CONTACT_CREATED;
            gone += ev.events[e].type == FLOE_EVENT_CONTACT_DELETED;
        }
    }
    fprintf(stderr, "fused %lld made %d gone %d differ %d\n", (long long)a->fused_steps, made, gone, differ);
    CHECK(differ == 0);
    CHECK(made > N && gone > 0);
    /* both kinds of step: in one region, and rebuilds or sorts after it */
    CHECK(a->fused_steps > STEPS / 2 && a->fused_steps < STEPS);
    CHECK(b->fused_steps == 0);
    /* a runaway found by the integrator */
    floe_velocities_mut(a)[700].x = 1e300;
    floe_velocities_mut(b)[700].x = 1e300;
    const int64_t step = floe_step_count(a);
    const double time = floe_time(a);
    CHECK(floe_step(a) == FLOE_ERR_RUNAWAY);
    CHECK(floe_step(b) == FLOE_ERR_RUNAWAY);
    CHECK(floe_step_count(a) == step && floe_step_count(b) == step);
    CHECK(floe_time(a) == time && floe_time(b) == time);
    CHECK(strcmp(floe_last_error(a), floe_last_error(b)) == 0);
    CHECK(strstr(floe_last_error(a), "particle 700") != NULL);
    floe_world_destroy(a);
    floe_world_destroy(b);
}

int main(void) {
    run(1);
    run(2);
    return CHECK_DONE();
}
