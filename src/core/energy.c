/* Energy terms (docs/integration.md, "Energy"). */
#include "core/bodyforces.h"
#include "core/energy.h"

#include <string.h>

static const char *const energy_names[FLOE_E_COUNT] = {
    "kinetic", "rotational", "gravity", "elastic", "plastic",  "damping", "dashpot",
    "broken",  "boundary",   "total",   "error",   "buoyancy", "drag",
};

const char *floe_energy_name(floe_energy_term t) { return (unsigned)t < FLOE_E_COUNT ? energy_names[t] : NULL; }

/* Kinetic energy of body i at the current time t, added to *trans and *rot:
 * v(t) = v(t - dt/2) + dt/2 a(t), with the forces just computed; only free
 * DOFs count (blocked ones are boundary). loaded: floe__loaded_groups(w). */
void floe__body_kinetic(const floe_world *w, int i, uint32_t loaded, double *trans, double *rot) {
    double h = 0.5 * w->dt;
    vec3 g = w->def.gravity;
    uint32_t bl = w->blocked[i];
    if (bl == FLOE_DOF_ALL) return;
    double m = w->mass[i];
    vec3 In = w->inertia[i];
    double I = In.x;
    vec3 fe, te;
    floe__external_load(w, i, loaded, &fe, &te);
    if (floe__body_forces_on(w)) { /* the forces at t include buoyancy, drag and wind */
        floe_bf bf;
        floe__body_force(w, i, &bf);
        fe = vadd(fe, vadd(bf.f, bf.fw));
        te = vadd(te, vadd(bf.t, bf.tw));
    }
    if (I > 0 && (In.x != In.y || In.y != In.z) && (bl & 56u) != 56u) {
        /* aspherical: 1/2 w.(R I R^T) w, from the angular momentum at t */
        quat q = w->ori[i];
        vec3 L = w->angmom[i];
        if (!visfinite(L)) L = qrotate(q, vmul(In, qrotate(qconj(q), w->angvel[i])));
        vec3 t = vadd(w->torque[i], te);
        for (int k = 0; k < 3; k++)
            if (bl & (8u << k)) vset(&t, k, 0);
        vec3 lb = qrotate(qconj(q), vmadd(L, t, h));
        *rot += 0.5 * (lb.x * lb.x / In.x + lb.y * lb.y / In.y + lb.z * lb.z / In.z);
        I = 0; /* done */
    }
    for (int k = 0; k < 3; k++) {
        if (!(bl & (1u << k)) && m > 0) {
            double v = vcomp(w->vel[i], k) + h * ((vcomp(w->force[i], k) + vcomp(fe, k)) / m + vcomp(g, k));
            *trans += 0.5 * m * v * v;
        }
        if (!(bl & (8u << k)) && I > 0) {
            double om = vcomp(w->angvel[i], k) + h * (vcomp(w->torque[i], k) + vcomp(te, k)) / I;
            *rot += 0.5 * I * om * om;
        }
    }
}

static void kinetic(const floe_world *w, double *trans, double *rot) {
    uint32_t loaded = floe__loaded_groups(w);
    *trans = *rot = 0;
    for (int i = 0; i < w->np; i++) floe__body_kinetic(w, i, loaded, trans, rot);
}

/* The terms into e, and the sum of their magnitudes into *scale. */
static void terms(const floe_world *w, double e[FLOE_E_COUNT], double *scale_out) {
    kinetic(w, &e[FLOE_E_KINETIC], &e[FLOE_E_ROTATIONAL]);
    e[FLOE_E_GRAVITY] = -w->e_gravity_work;
    e[FLOE_E_ELASTIC] = w->e_elastic;
    e[FLOE_E_PLASTIC] = w->e_plastic;
    e[FLOE_E_DAMPING] = w->e_damping;
    e[FLOE_E_DASHPOT] = w->e_dashpot;
    e[FLOE_E_BROKEN] = w->e_broken;
    e[FLOE_E_BOUNDARY] = w->e_boundary;
    double total = 0, scale = 0;
    for (int t = FLOE_E_KINETIC; t <= FLOE_E_BROKEN; t++) {
        total += e[t];
        scale += fabs(e[t]);
    }
    total -= e[FLOE_E_BOUNDARY];
    scale += fabs(e[FLOE_E_BOUNDARY]);
    e[FLOE_E_BUOYANCY] = e[FLOE_E_DRAG] = 0;
    /* (drag done stays in the balance after the water is taken out) */
    if (floe__body_forces_on(w) || w->e_body_work != 0) {
        e[FLOE_E_BUOYANCY] = floe__body_potential_all(w);
        e[FLOE_E_DRAG] = -w->e_body_work;
        total += e[FLOE_E_BUOYANCY] + e[FLOE_E_DRAG];
        scale += fabs(e[FLOE_E_BUOYANCY]) + fabs(e[FLOE_E_DRAG]);
    }
    e[FLOE_E_TOTAL] = total;
    *scale_out = scale;
}

void floe_energy(const floe_world *w, double e[FLOE_E_COUNT]) {
    double scale;
    terms(w, e, &scale);
    /* relative to the sum of the magnitudes of all terms, at least the
     * largest sum the balance checks have seen (a body back where it
     * started has every term near zero, and a tiny error would read as
     * 1); 0 when nothing moves */
    scale = fmax(scale, w->e_scale);
    e[FLOE_E_ERROR] = w->started && scale > 0 ? (e[FLOE_E_TOTAL] - w->e_total0) / scale : 0;
}

void floe__energy_check(floe_world *w) {
    double e[FLOE_E_COUNT], scale;
    terms(w, e, &scale);
    w->e_scale = fmax(w->e_scale, isfinite(scale) ? scale : 0);
    if (!(w->def.energy_warn > 0) || w->energy_warned || !w->started) return;
    double err = w->e_scale > 0 ? (e[FLOE_E_TOTAL] - w->e_total0) / w->e_scale : 0;
    if (!(fabs(err) > w->def.energy_warn)) return;
    w->energy_warned = 1;
    if (!(w->event_mask >> FLOE_EVENT_ENERGY_ERROR & 1u) ||
        !floe__grow((void **)&w->events, &w->evcap, w->nevents + 1, sizeof *w->events))
        return; /* not recorded (the flag still says it happened) */
    floe_event *ev = &w->events[w->nevents++];
    memset(ev, 0, sizeof *ev);
    ev->type = FLOE_EVENT_ENERGY_ERROR;
    ev->step = w->step;
    ev->time = w->time;
    ev->a = ev->b = -1;
    ev->value[0] = err;
    ev->value[1] = w->def.energy_warn;
}
