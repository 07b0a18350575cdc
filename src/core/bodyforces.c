/* The table of body forces and their sums (bodyforces.h). */
#include "core/bodyforces.h"

extern const floe_body_force floe__water_force;

static const floe_body_force *const table[] = {&floe__water_force};
enum { NFORCES = sizeof table / sizeof table[0] };

int floe__body_forces_on(const floe_world *w) {
    for (int k = 0; k < NFORCES; k++)
        if (table[k]->active(w)) return 1;
    return 0;
}

void floe__body_force(const floe_world *w, int i, floe_bf *out) {
    *out = (floe_bf){{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    if (w->blocked[i] == FLOE_DOF_ALL) return;
    for (int k = 0; k < NFORCES; k++)
        if (table[k]->active(w)) table[k]->eval(w, i, out);
}

double floe__body_potential(const floe_world *w, int i) {
    double e = 0;
    if (w->blocked[i] == FLOE_DOF_ALL) return 0;
    for (int k = 0; k < NFORCES; k++)
        if (table[k]->active(w) && table[k]->potential) e += table[k]->potential(w, i);
    return e;
}

double floe__body_potential_all(const floe_world *w) {
    double e = 0;
    if (!floe__body_forces_on(w)) return 0;
    for (int i = 0; i < w->np; i++) e += floe__body_potential(w, i);
    return e;
}
