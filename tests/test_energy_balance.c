/* Validation of the energy bookkeeping
 * (docs/decisions.md#plastic-energy-with-the-mid-step-force-g5): an undamped
 * frictional pile (Linear model, tan_phi = 0.5) falls and settles in a box.
 * Gravity potential is converted into kinetic, elastic, friction (plastic)
 * and broken-contact energy; their sum must stay equal to the initial total.
 * Tolerance: |total - total0| < 1e-3 of the gravitational energy released
 * (the source of every other term), at every sampled step. Leapfrog makes
 * the bookkeeping exact for gravity; the error comes from the contact springs
 * being sampled once per step (O(dt) per impact). */
#include "check.h"
#include "pile.h"

int main(void) {
    floe_world *w = make_pile(6, 6, 6, 0.0, 0.5, 0);
    double e[FLOE_E_COUNT], worst = 0, released = 0, e0 = 0;
    for (int s = 0; s < 60000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        if (s % 100 != 0) continue;
        floe_energy(w, e);
        if (s == 0) e0 = e[FLOE_E_TOTAL];
        released = fmax(released, -e[FLOE_E_GRAVITY]);
        worst = fmax(worst, fabs(e[FLOE_E_TOTAL] - e0));
    }
    floe_energy(w, e);
    REPORT("pile: released %.4e J; kinetic %.3e, elastic %.3e, plastic %.3e, broken %.3e; "
           "worst |total - total0| = %.3e J = %.2e of released\n",
           released, e[FLOE_E_KINETIC] + e[FLOE_E_ROTATIONAL], e[FLOE_E_ELASTIC], e[FLOE_E_PLASTIC], e[FLOE_E_BROKEN],
           worst, worst / released);
    CHECK(e[FLOE_E_PLASTIC] > 0.05 * released); /* friction really worked */
    CHECK(worst < 1e-3 * released);
    floe_world_destroy(w);
    return CHECK_DONE();
}
