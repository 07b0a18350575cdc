/* Determinism: the same pile run with 1 and with 2 threads must give
 * bitwise identical particle states, contact forces and energies. Work is
 * split in fixed blocks and reduced in block order, so the thread count
 * cannot change the arithmetic. 2560 particles span several blocks. */
#include "check.h"
#include "pile.h"

#include <stdlib.h>
#include <string.h>

static floe_world *run(int threads) {
    floe_world *w = make_pile(16, 16, 10, 0.1, 0.5, threads);
    uint64_t seed = 99; /* stir the lattice so that contacts form at once */
    for (int i = 0; i < floe_particle_count(w); i++)
        if (floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE)
            floe_set_velocity(w, i,
                              (floe_vec3){pile_rand(&seed) - 0.5, pile_rand(&seed) - 0.5, pile_rand(&seed) - 0.5});
    for (int s = 0; s < 3000; s++) CHECK(floe_step(w) == FLOE_OK);
    return w;
}

#define SAME(arr) CHECK(memcmp(arr(a), arr(b), sizeof *arr(a) * (size_t)n) == 0)

int main(void) {
    floe_world *a = run(1), *b = run(2);
    int n = floe_particle_count(a);
    CHECK(n == floe_particle_count(b));
    SAME(floe_positions);
    SAME(floe_velocities);
    SAME(floe_angular_velocities);
    SAME(floe_orientations);
    SAME(floe_forces);
    SAME(floe_torques);
    int nc = floe_contact_count(a);
    CHECK(nc == floe_contact_count(b) && nc > 100);
    for (int k = 0; k < nc && k < floe_contact_count(b); k++) {
        floe_contact_info ca, cb;
        floe_contact_get(a, k, &ca);
        floe_contact_get(b, k, &cb);
        CHECK(ca.a == cb.a && ca.b == cb.b && memcmp(&ca.force, &cb.force, sizeof ca.force) == 0 &&
              memcmp(&ca.torque, &cb.torque, sizeof ca.torque) == 0);
    }
    double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
    floe_energy(a, ea);
    floe_energy(b, eb);
    CHECK(memcmp(ea, eb, sizeof ea) == 0);
    REPORT("1 vs 2 threads: %d particles, %d contacts after 3000 steps: %s\n", n, nc,
           check_failures ? "DIFFERENT" : "bitwise identical");
    floe_world_destroy(a);
    floe_world_destroy(b);
    return CHECK_DONE();
}
