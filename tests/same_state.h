/* Whether two worlds hold bitwise the same state: positions, velocities,
 * angular velocities, orientations, forces, torques, every energy of
 * floe_energy, the contact count and the events of the last step. For the
 * tests that run one scene two ways that must not differ. */
#ifndef FLOE_TEST_SAME_STATE_H
#define FLOE_TEST_SAME_STATE_H

#include <floe/floe.h>
#include <string.h>

static int same_state(const floe_world *a, const floe_world *b) {
    int n = floe_particle_count(a);
    if (n != floe_particle_count(b) || floe_contact_count(a) != floe_contact_count(b)) return 0;
    size_t bytes = sizeof(floe_vec3) * (size_t)n;
    double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
    floe_energy(a, ea);
    floe_energy(b, eb);
    floe_event_list va = floe_events(a), vb = floe_events(b);
    return !memcmp(floe_positions(a), floe_positions(b), bytes) &&
           !memcmp(floe_velocities(a), floe_velocities(b), bytes) &&
           !memcmp(floe_angular_velocities(a), floe_angular_velocities(b), bytes) &&
           !memcmp(floe_orientations(a), floe_orientations(b), sizeof(floe_quat) * (size_t)n) &&
           !memcmp(floe_forces(a), floe_forces(b), bytes) && !memcmp(floe_torques(a), floe_torques(b), bytes) &&
           !memcmp(ea, eb, sizeof ea) && va.count == vb.count &&
           (va.count == 0 || !memcmp(va.events, vb.events, sizeof *va.events * (size_t)va.count));
}

#endif
