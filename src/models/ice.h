/* The Ice model's contact state and the pieces of its law, inline so that
 * the batched kernel (core/batch.c) runs the same code as ice.c. The steps
 * are those of Woo's Ice law, in the order of docs/decisions.md#ice-law-order-in-one-step-i4. */
#ifndef FLOE_MODELS_ICE_H
#define FLOE_MODELS_ICE_H

#include "models/model.h"

enum { BOND_N = 1, BOND_T = 2, BOND_W = 4, BOND_R = 8, BONDED_ALL = 15 };

/* The twist and rolling stiffnesses k_w, k_r live in the contact (kw, kr),
 * which the time step reads too. */
typedef struct ice_state {
    double uN0, fnb, ftb, twb, trb, tan_phi, mu;
    int bonds;
} ice_state;

/* 1. Trial values: total normal force, incremental shear, twist, roll. */
FLOE_KERNEL void floe_ice_trial(double dt, double kn, double kt, double kw, double kr, const ice_state *s, double uN,
                                vec3 vel, vec3 angvel, vec3 *f, vec3 *m) {
    f->x = kn * (uN - s->uN0);
    f->y += dt * kt * vel.y;
    f->z += dt * kt * vel.z;
    m->x += dt * kw * angvel.x;
    m->y += dt * kr * angvel.y;
    m->z += dt * kr * angvel.z;
}

/* 2. The senses that break: those bonded and breakable (brk_*: 1 or 0)
 * whose trial value exceeds the strength (compression never breaks), as
 * the sum of their BOND_* bits. Selects on doubles: the batched kernel
 * vectorizes it. */
FLOE_KERNEL double floe_ice_over(double brk_n, double brk_t, double brk_w, double brk_r, const ice_state *s, vec3 f,
                                 vec3 m) {
    double over = brk_n != 0 ? (f.x > s->fnb ? BOND_N : 0.0) : 0.0;
    over += brk_t != 0 ? (f.y * f.y + f.z * f.z > s->ftb * s->ftb ? BOND_T : 0.0) : 0.0;
    over += brk_w != 0 ? (fabs(m.x) > s->twb ? BOND_W : 0.0) : 0.0;
    over += brk_r != 0 ? (m.y * m.y + m.z * m.z > s->trb * s->trb ? BOND_R : 0.0) : 0.0;
    return over;
}

/* (y, z) back to the limit `lim` if beyond it (on = 0: untouched); returns
 * the slip work. Selects, not branches: the batched kernel vectorizes it. */
FLOE_KERNEL double floe_ice_limit2(double on, double *y, double *z, double oy, double oz, double lim, double k) {
    double n2 = *y * *y + *z * *z;
    double slip = on != 0 ? (n2 > lim * lim ? 1.0 : 0.0) : 0.0;
    double r = slip > 0 ? lim / sqrt(n2) : 1.0;
    double work = slip > 0 ? floe_slip_work(oy, oz, *y, *z, r, k) : 0.0;
    *y = slip > 0 ? *y * r : *y;
    *z = slip > 0 ? *z * r : *z;
    return work;
}

/* 4. Plastic limits on the unbonded senses (free_t, free_w, free_r: 1 if
 * unbonded); yield values vanish in tension. Returns the slip work. */
FLOE_KERNEL double floe_ice_plastic(double free_t, double free_w, double free_r, double area, double kt, double kw,
                                    double kr, const ice_state *s, vec3 f0, vec3 m0, vec3 *f, vec3 *m) {
    double p = -f->x > 0.0 ? -f->x : 0.0, rc = sqrt(area / FLOE_PI), dummy = 0;
    double slip = 0;
    slip += floe_ice_limit2(free_t, &f->y, &f->z, f0.y, f0.z, p * s->tan_phi, kt);
    slip += floe_ice_limit2(free_w, &m->x, &dummy, m0.x, 0, rc * p * s->tan_phi, kw); /* symmetric (I3) */
    slip += floe_ice_limit2(free_r, &m->y, &m->z, m0.y, m0.z, rc * p * s->mu, kr);
    return slip;
}

FLOE_KERNEL double floe_ice_elastic(double kn, double kt, double kw, double kr, vec3 f, vec3 m) {
    double e = 0.5 * f.x * f.x / kn;
    e = kt > 0 ? e + 0.5 * (f.y * f.y + f.z * f.z) / kt : e;
    e = kw > 0 ? e + 0.5 * m.x * m.x / kw : e;
    e = kr > 0 ? e + 0.5 * (m.y * m.y + m.z * m.z) / kr : e;
    return e;
}

extern const floe_model floe_model_ice;

#endif
