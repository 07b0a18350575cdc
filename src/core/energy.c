/* Energy terms and the time step (docs/integration.md, "Energy" and "Time step"). */
#include "core/bodyforces.h"
#include "core/energy.h"
#include "core/size_dist.h"

#include <stdio.h>

#include <stdlib.h>

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

void floe_energy(const floe_world *w, double e[FLOE_E_COUNT]) {
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
    /* relative to the sum of the magnitudes of all terms: 0 when nothing moves */
    e[FLOE_E_ERROR] = w->started && scale > 0 ? (total - w->e_total0) / scale : 0;
}

double floe__pwave_dt(const floe_world *w) {
    double dt = INFINITY;
    for (int i = 0; i < w->np; i++) {
        if (!(w->bound[i] > 0)) continue; /* spheres, capsules, ellipsoids */
        const double *p = w->mats[w->mat[i]].p;
        dt = fmin(dt, w->radius[i] / sqrt(p[MAT_YOUNG] / p[MAT_DENSITY]));
    }
    int mat = -1;
    double r = floe__supply_min_radius(w, &mat); /* bodies the inlets will insert */
    if (mat >= 0) dt = fmin(dt, r / sqrt(w->mats[mat].p[MAT_YOUNG] / w->mats[mat].p[MAT_DENSITY]));
    return dt;
}

/* Stiffness contact c adds to body `side` (0: A, 1: B), per global axis:
 * translational kt, rotational kr, and kc, the coupling of the shear spring
 * between translation across the normal and rotation (its force kt acts at
 * the lever arm l, so the pair's stiffness matrix holds kt l off the
 * diagonal). */
static void contact_stiffness(const floe_world *w, int k, int side, vec3 *kt, vec3 *kr, vec3 *kc) {
    const floe_contact *c = &w->con[k];
    floe_contact_warm own;
    const floe_contact_warm *x = floe__warm(w, k, &own);
    vec3 n = floe__contact_geom(w, k).n, n2 = vmul(n, n);
    vec3 dk = v3(n2.x * (c->kn - c->kt) + c->kt, n2.y * (c->kn - c->kt) + c->kt, n2.z * (c->kn - c->kt) + c->kt);
    vec3 rot = v3(n2.y + n2.z, n2.z + n2.x, n2.x + n2.y);
    /* twist and rolling springs (Woo leaves them out, which lets dt grow
     * past the stability limit of stiff bonds) */
    vec3 spring = vadd(vscale(n2, x->kw), vscale(rot, x->kr));
    double lens[2];
    floe__contact_lens(w, k, lens);
    double l = lens[side];
    *kt = vadd(*kt, dk);
    *kr = vadd(*kr, vadd(vscale(rot, l * l * c->kt), spring));
    *kc = vadd(*kc, vscale(rot, l * c->kt));
}

/* Smallest m/k (or I/k) of body i's free DOFs: the Gershgorin bound of the
 * mass-scaled stiffness, each row the diagonal plus the shear coupling kc
 * scaled by sqrt(m/I) or sqrt(I/m) when the other kind of DOF is free
 * (docs/decisions.md#the-shear-spring-couples-translation-and-rotation). */
static double body_ratio(const floe_world *w, int i, vec3 kt, vec3 kr, vec3 kc) {
    uint32_t bl = w->blocked[i];
    double best = INFINITY;
    if (bl == FLOE_DOF_ALL) return best;
    double Imin = fmin(w->inertia[i].x, fmin(w->inertia[i].y, w->inertia[i].z)), m = w->mass[i];
    int trans_free = (bl & 7u) != 7u, rot_free = (bl & 56u) != 56u;
    double to_rot = rot_free && m > 0 && Imin > 0 ? sqrt(m / Imin) : 0;
    double to_trans = trans_free && m > 0 && Imin > 0 ? sqrt(Imin / m) : 0;
    for (int k = 0; k < 3; k++) {
        double kk = vcomp(kt, k) + vcomp(kc, k) * to_rot, kw = vcomp(kr, k) + vcomp(kc, k) * to_trans;
        if (!(bl & (1u << k)) && kk > 0 && m > 0) best = fmin(best, m / kk);
        if (!(bl & (8u << k)) && kw > 0 && Imin > 0) best = fmin(best, Imin / kw);
    }
    return best;
}

/* Critical step from the stiffness every free body feels through its
 * contacts (Woo's DynDt rule, docs/decisions.md#automatic-time-step-g8). */
double floe__crit_dt(const floe_world *w) {
    if (w->ncon == 0 || w->np == 0) return INFINITY;
    vec3 *kt = calloc((size_t)w->np * 3, sizeof *kt);
    if (!kt) return INFINITY;
    vec3 *kr = kt + w->np, *kc = kr + w->np;
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *c = &w->con[k];
        contact_stiffness(w, k, 0, &kt[c->a], &kr[c->a], &kc[c->a]);
        contact_stiffness(w, k, 1, &kt[c->b], &kr[c->b], &kc[c->b]);
    }
    double best = INFINITY;
    for (int i = 0; i < w->np; i++) best = fmin(best, body_ratio(w, i, kt[i], kr[i], kc[i]));
    free(kt);
    return sqrt(2.0 * best);
}

/* The critical step of contact c alone (its two bodies with no other
 * contact): a new contact that is stiffer than the step in use cannot wait
 * for the periodic re-check (LinEl6's rotational springs diverge within a
 * few steps). */
double floe__contact_crit_dt(const floe_world *w, const floe_contact *c) {
    double best = INFINITY;
    int ids[2] = {c->a, c->b};
    for (int s = 0; s < 2; s++) {
        vec3 kt = v3(0, 0, 0), kr = v3(0, 0, 0), kc = v3(0, 0, 0);
        contact_stiffness(w, (int)(c - w->con), s, &kt, &kr, &kc);
        best = fmin(best, body_ratio(w, ids[s], kt, kr, kc));
    }
    return sqrt(2.0 * best);
}

/* Auto dt: never above safety x the contact critical step, and growing by at
 * most 1e-4 per step since the last check. */
void floe__update_dt(floe_world *w) {
    double crit = floe__crit_dt(w);
    if (!isfinite(crit)) {
        w->last_dyn_dt = w->step;
        return;
    }
    double grown = w->dt * pow(1.0 + 1e-4, (double)(w->step - w->last_dyn_dt));
    w->dt = fmin(w->def.dt_safety * crit, grown);
    w->last_dyn_dt = w->step;
}

void floe__runaway_cause(const floe_world *w, const floe_contact *c, int particle, char *buf, size_t n) {
    size_t at = 0;
    buf[0] = 0;
#define ADD(...) (at += (size_t)snprintf(buf + at, at < n ? n - at : 0, __VA_ARGS__), at = at < n ? at : n)
    /* the critical step dt: auto works from: the contacts' stiffness, or
     * the p-wave estimate while there are none */
    double crit = floe__crit_dt(w);
    if (!isfinite(crit)) crit = floe__pwave_dt(w);
    if (w->dt > crit && crit > 0)
        ADD("; likely cause: dt = %g s is %.3g times the critical time step %g s%s", w->dt, w->dt / crit, crit,
            w->dt_auto ? "" : " (give a smaller dt, or dt: auto)");
    /* a contact that exists since the start of the run: the bodies were
     * placed overlapping (for a particle, the first such contact it has) */
    for (int k = 0; !c && particle >= 0 && k < w->ncon; k++)
        if ((w->con[k].a == particle || w->con[k].b == particle) && w->ccold[k].step_created == 0 &&
            floe__contact_geom(w, k).uN < 0)
            c = &w->con[k];
    if (c && w->ccold[c - w->con].step_created == 0 && w->step <= 1)
        ADD("; likely cause: particles %d and %d overlapped when the run started (initial overlap): check their "
            "positions and sizes",
            c->a, c->b);
#undef ADD
}
