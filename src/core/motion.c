/* Phased group motion and servo control (docs/laboratory.md). A group's
 * phases are rows of w->phases, kept in group order; its current phase,
 * when it began, the peak force and mean position measured since then and
 * the servo's last values are state of the group (restarts keep them). */
#include "core/energy.h"
#include "core/motion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The group's first row in w->phases; *n its number of phases. */
static int rows_of(const floe_world *w, int g, int *n) {
    int k = 0;
    while (k < w->nphases && w->phases[k].group < g) k++;
    int e = k;
    while (e < w->nphases && w->phases[e].group == g) e++;
    *n = e - k;
    return k;
}

static const floe_phase *phase_at(const floe_world *w, int g, int j) {
    int n, k = rows_of(w, g, &n);
    return j >= 0 && j < n ? &w->phases[k + j].p : NULL;
}

/* A group controls its members' motion: a prescribed motion, or a phase
 * that is not a load (a load-only group leaves the blocked DOFs alone). */
static int controls(const floe_world *w, int g) {
    if (w->groups_[g].has_motion) return 1;
    int n, k = rows_of(w, g, &n);
    for (int j = 0; j < n; j++)
        if (w->phases[k + j].p.kind != FLOE_PHASE_LOAD) return 1;
    return 0;
}

static uint32_t controlled_mask(const floe_world *w) {
    uint32_t m = 0;
    for (int g = 0; g < w->ngroups; g++)
        if (controls(w, g)) m |= 1u << g;
    return m;
}

static void two_groups(floe_world *w, const char *fn, int i, uint32_t both) {
    int a = __builtin_ctz(both), b = __builtin_ctz(both & (both - 1));
    floe__error(w,
                "%s: particle %d is in group '%s' and in group '%s', both motion-controlled (a prescribed motion or "
                "phases); a body follows one group's motion: take it out of one of them",
                fn, i, w->groups_[a].name, w->groups_[b].name);
}

int floe__motion_conflict(floe_world *w, int g, const char *fn) {
    uint32_t others = controlled_mask(w) & ~(1u << g);
    for (int i = 0; i < w->np; i++) {
        if (!(w->groups[i] & (1u << g)) || !(w->groups[i] & others)) continue;
        two_groups(w, fn, i, (w->groups[i] & others) | (1u << g));
        return 1;
    }
    return 0;
}

floe_status floe__motion_check(floe_world *w) {
    uint32_t m = controlled_mask(w);
    if (!(m & (m - 1))) return FLOE_OK; /* fewer than two */
    for (int i = 0; i < w->np; i++) {
        uint32_t b = w->groups[i] & m;
        if (b & (b - 1)) {
            two_groups(w, "floe_step", i, b);
            return FLOE_ERR_ARG;
        }
    }
    return FLOE_OK;
}

uint32_t floe__drives(const floe_world *w, floe_drive *dr) {
    uint32_t moving = 0;
    for (int g = 0; g < w->ngroups; g++) {
        const floe_group *gr = &w->groups_[g];
        floe_drive *d = &dr[g];
        *d = (floe_drive){0, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}};
        if (gr->has_motion) {
            moving |= 1u << g;
            if (w->time >= gr->motion.t_start && w->time < gr->motion.t_end) {
                d->v = gr->motion.vel;
                d->om = gr->motion.angvel;
            }
            continue;
        }
        const floe_phase *p = phase_at(w, g, gr->phase);
        if (!p) continue;
        switch (p->kind) {
            case FLOE_PHASE_VELOCITY:
                d->v = p->vel;
                d->om = p->angvel;
                break;
            case FLOE_PHASE_ROTATE:
                d->rotate = 1;
                d->om = p->angvel;
                d->c = p->point;
                d->q = qfrom_rotvec(p->angvel, w->dt);
                break;
            case FLOE_PHASE_SERVO:
                d->v = vscale(p->servo_dir, gr->servo[2]);
                break;
            default:
                continue;
        }
        moving |= 1u << g;
    }
    return moving;
}

/* ---- measuring ------------------------------------------------------------ */

typedef struct sums {
    int done;
    vec3 force, mean; /* summed contact force; mean member position */
} sums;

static void measure(const floe_world *w, int g, sums *s) {
    if (s->done) return;
    vec3 f = v3(0, 0, 0), p = v3(0, 0, 0);
    int n = 0;
    for (int i = 0; i < w->np; i++)
        if (w->groups[i] & (1u << g)) {
            f = vadd(f, w->force[i]);
            p = vadd(p, w->pos[i]);
            n++;
        }
    s->force = f;
    s->mean = n ? vscale(p, 1.0 / n) : p;
    s->done = 1;
}

static double along(vec3 x, vec3 dir) { return vlen2(dir) > 0 ? vdot(x, dir) : vlen(x); }

/* Counted kinetic energy of the group's members (floe_energy's definition). */
static double members_energy(const floe_world *w, int g) {
    uint32_t loaded = floe__loaded_groups(w);
    double t = 0, r = 0;
    for (int i = 0; i < w->np; i++)
        if (w->groups[i] & (1u << g)) floe__body_kinetic(w, i, loaded, &t, &r);
    return t + r;
}

/* Whether phase p (the next one of group g) starts now. */
static int triggered(floe_world *w, int g, const floe_phase *p, sums *s) {
    floe_group *gr = &w->groups_[g];
    switch (p->trigger) {
        case FLOE_AT_TIME:
            return w->time >= p->at;
        case FLOE_AT_STEP:
            return (double)w->step >= p->at;
        case FLOE_AT_FORCE_ABOVE:
            measure(w, g, s);
            return along(s->force, p->measure_dir) >= p->at;
        case FLOE_AT_FORCE_DROP: {
            measure(w, g, s);
            double f = along(s->force, p->measure_dir);
            if (f > gr->peak) gr->peak = f;
            return gr->peak > 0 && f < p->at * gr->peak;
        }
        default: { /* displacement */
            measure(w, g, s);
            double d = along(vsub(s->mean, gr->ref), p->measure_dir);
            return p->at >= 0 ? d >= p->at : d <= p->at;
        }
    }
}

/* Group g enters phase j: the members are blocked (driven kinds) or freed
 * (free, load) when the group controls motion; a C API load is replaced. */
static void enter(floe_world *w, int g, int j, const floe_phase *p, sums *s) {
    floe_group *gr = &w->groups_[g];
    measure(w, g, s);
    gr->phase = j;
    gr->phase_t0 = w->time;
    gr->peak = 0;
    gr->ref = s->mean;
    gr->servo[0] = gr->servo[1] = gr->servo[2] = 0;
    gr->has_load = 0;
    gr->load_f = gr->load_t = v3(0, 0, 0);
    if (!controls(w, g)) return;
    int driven = p->kind == FLOE_PHASE_VELOCITY || p->kind == FLOE_PHASE_ROTATE || p->kind == FLOE_PHASE_SERVO;
    uint32_t free_dofs = w->def.dimension == 2 ? FLOE_DOF_Z | FLOE_DOF_RX | FLOE_DOF_RY : 0;
    for (int i = 0; i < w->np; i++) {
        if (!(w->groups[i] & (1u << g))) continue;
        if (!driven && w->blocked[i] != free_dofs && w->angmom)
            w->angmom[i] = v3(NAN, NAN, NAN); /* from angvel when freed */
        w->blocked[i] = driven ? FLOE_DOF_ALL : free_dofs;
    }
}

/* The servo's velocity along its direction for this step. */
static void servo(floe_world *w, int g, const floe_phase *p, sums *s) {
    floe_group *gr = &w->groups_[g];
    measure(w, g, s);
    vec3 d = p->servo_dir;
    double fc = -vdot(s->force, d); /* what the material pushes back with */
    double measured = p->area > 0 ? fc / p->area : fc;
    double ef = p->area > 0 ? (p->target - measured) * p->area : p->target - measured; /* force error */
    double v;
    if (p->gain > 0) {
        v = p->gain * ef;
    } else {
        /* K: the stiffness the members meet along d, from their contacts
         * with bodies outside the group */
        double K = 0;
        uint32_t bit = 1u << g;
        for (int k = 0; k < w->ncon; k++) {
            const floe_contact *c = &w->con[k];
            if (!(w->groups[c->a] & bit) == !(w->groups[c->b] & bit)) continue;
            double nd = vdot(floe__contact_geom(w, k).n, d);
            K += c->kn * nd * nd;
        }
        v = K > 0 ? p->alpha * ef / (K * w->dt) : (ef > 0 ? p->max_speed : ef < 0 ? -p->max_speed : 0);
    }
    if (v > p->max_speed) v = p->max_speed;
    if (v < -p->max_speed) v = -p->max_speed;
    gr->servo[0] = measured;
    gr->servo[1] = p->target;
    gr->servo[2] = v;
}

/* Enters the phases of group g whose triggers hold, in turn (several may
 * start in one step); *e0: the members' counted kinetic energy before the
 * first switch (NAN until one happens). */
static void switch_phases(floe_world *w, int g, int k, int n, sums *s, double *e0) {
    floe_group *gr = &w->groups_[g];
    while (gr->phase + 1 < n && triggered(w, g, &w->phases[k + gr->phase + 1].p, s)) {
        if (isnan(*e0)) *e0 = members_energy(w, g);
        enter(w, g, gr->phase + 1, &w->phases[k + gr->phase + 1].p, s);
    }
}

floe_status floe__motion_switch(floe_world *w) {
    for (int g = 0; g < w->ngroups && w->nphases > 0; g++) {
        int n, k = rows_of(w, g, &n);
        if (n == 0) continue;
        sums s = {0};
        double e0 = NAN;
        switch_phases(w, g, k, n, &s, &e0);
        if (!isnan(e0)) w->e_boundary += members_energy(w, g) - e0;
    }
    return FLOE_OK;
}

floe_status floe__motion_update(floe_world *w) {
    if (w->nphases == 0) return FLOE_OK;
    for (int g = 0; g < w->ngroups; g++) {
        int n, k = rows_of(w, g, &n);
        if (n == 0) continue;
        floe_group *gr = &w->groups_[g];
        sums s = {0};
        double e0 = NAN;
        /* usually done at the end of the step before (floe__motion_switch);
         * here for phases set, or a state changed, between the steps */
        switch_phases(w, g, k, n, &s, &e0);
        const floe_phase *p = gr->phase >= 0 ? &w->phases[k + gr->phase].p : NULL;
        if (p && p->kind == FLOE_PHASE_LOAD) {
            if (isnan(e0)) e0 = members_energy(w, g);
            double t = w->time - gr->phase_t0;
            gr->load_f = vmadd(p->force, p->force_rate, t);
            gr->load_t = vmadd(p->torque, p->torque_rate, t);
            gr->has_load = vlen2(gr->load_f) > 0 || vlen2(gr->load_t) > 0;
        } else if (p && p->kind == FLOE_PHASE_SERVO) {
            servo(w, g, p, &s);
        }
        /* a switch or a load changes what floe_energy counts as kinetic */
        if (!isnan(e0)) w->e_boundary += members_energy(w, g) - e0;
    }
    return FLOE_OK;
}

/* ---- the API ------------------------------------------------------------ */

floe_phase floe_default_phase(void) {
    return (floe_phase){.kind = FLOE_PHASE_FREE, .trigger = FLOE_AT_TIME, .at = 0, .alpha = 0.5, .max_speed = 1};
}

static int bounded(double x) { return fabs(x) <= FLOE_MAX_COORD; }
static int vbounded(vec3 v) { return bounded(v.x) && bounded(v.y) && bounded(v.z); }

/* The first thing wrong with phase j (written as the world's error); 0 if none. */
static int bad_phase(floe_world *w, int g, int j, const floe_phase *p) {
    const char *fn = "floe_group_set_phases", *gn = w->groups_[g].name;
#define BAD(...)                                                          \
    do {                                                                  \
        char what_[512];                                                  \
        snprintf(what_, sizeof what_, __VA_ARGS__);                       \
        floe__error(w, "%s: group '%s', phase %d: %s", fn, gn, j, what_); \
        return 1;                                                         \
    } while (0)
    if (p->kind < 0 || p->kind >= FLOE_PHASE_KINDS)
        BAD("kind %d is not one of FLOE_PHASE_* [0, %d]", p->kind, FLOE_PHASE_KINDS - 1);
    if (p->trigger < 0 || p->trigger >= FLOE_AT_KINDS)
        BAD("trigger %d is not one of FLOE_AT_* [0, %d]", p->trigger, FLOE_AT_KINDS - 1);
    if (!bounded(p->at)) BAD("at = %g must be finite and at most %g in magnitude", p->at, FLOE_MAX_COORD);
    if ((p->trigger == FLOE_AT_TIME || p->trigger == FLOE_AT_STEP) && p->at < 0)
        BAD("a time or step trigger needs at >= 0 (got %g)", p->at);
    if (p->trigger == FLOE_AT_FORCE_DROP && !(p->at > 0 && p->at < 1))
        BAD("a force-drop trigger needs a fraction of the peak in (0, 1) (got %g)", p->at);
    const vec3 *vs[] = {&p->vel, &p->angvel, &p->point, &p->force, &p->torque, &p->force_rate, &p->torque_rate};
    static const char *const vn[] = {"vel", "angvel", "point", "force", "torque", "force_rate", "torque_rate"};
    for (int i = 0; i < 7; i++)
        if (!vbounded(*vs[i]))
            BAD("%s (%g, %g, %g) must be finite and at most %g in magnitude", vn[i], vs[i]->x, vs[i]->y, vs[i]->z,
                FLOE_MAX_COORD);
    /* directions: any finite length (normalised below) */
    const vec3 *ds[] = {&p->measure_dir, &p->servo_dir};
    static const char *const dn[] = {"measure_dir", "servo_dir"};
    for (int i = 0; i < 2; i++)
        if (!(isfinite(ds[i]->x) && isfinite(ds[i]->y) && isfinite(ds[i]->z)))
            BAD("%s (%g, %g, %g) must be finite", dn[i], ds[i]->x, ds[i]->y, ds[i]->z);
    if (p->kind == FLOE_PHASE_ROTATE && !(vlen2(vdirection(p->angvel)) > 0))
        BAD("a rotation needs a non-zero angvel (the axis times the rate, rad/s)");
    if (p->kind == FLOE_PHASE_SERVO) {
        if (!(vlen2(vdirection(p->servo_dir)) > 0)) BAD("a servo needs servo_dir, the direction in which it presses");
        if (!bounded(p->target)) BAD("target = %g must be finite", p->target);
        if (!(p->area >= 0 && bounded(p->area))) BAD("area = %g must be >= 0 (0: the target is a force)", p->area);
        if (!(p->gain >= 0 && bounded(p->gain))) BAD("gain = %g must be >= 0 (0: from alpha)", p->gain);
        if (!(p->alpha > 0 && p->alpha < 1)) BAD("alpha = %g must be in (0, 1)", p->alpha);
        if (!(p->max_speed > 0 && bounded(p->max_speed))) BAD("max_speed = %g must be positive", p->max_speed);
    }
#undef BAD
    return 0;
}

floe_status floe_group_set_phases(floe_world *w, int g, const floe_phase *p, int n) {
    CHECK_ID(w, g, w->ngroups, "group", FLOE_ERR_ARG);
    if (n < 0 || n > FLOE_MAX_PHASES || (n > 0 && !p)) {
        floe__error(w, "floe_group_set_phases: group '%s': %d phases, expected 0 to %d (and a list for n > 0)",
                    w->groups_[g].name, n, FLOE_MAX_PHASES);
        return FLOE_ERR_ARG;
    }
    int driven = 0;
    for (int j = 0; j < n; j++) {
        if (bad_phase(w, g, j, &p[j])) return FLOE_ERR_ARG;
        driven |= p[j].kind != FLOE_PHASE_LOAD;
    }
    if (n > 0 && w->groups_[g].has_motion) {
        floe__error(w,
                    "floe_group_set_phases: group '%s' has a prescribed motion (floe_group_set_motion); give the "
                    "motion as a velocity phase instead",
                    w->groups_[g].name);
        return FLOE_ERR_ARG;
    }
    if (driven && floe__motion_conflict(w, g, "floe_group_set_phases")) return FLOE_ERR_ARG;
    int had, k = rows_of(w, g, &had);
    if (n > had && !floe__grow((void **)&w->phases, &w->phcap, w->nphases - had + n, sizeof *w->phases)) {
        floe__error(w, "floe_group_set_phases: out of memory for %d phases", n);
        return FLOE_ERR_MEMORY;
    }
    memmove(&w->phases[k + n], &w->phases[k + had], sizeof *w->phases * (size_t)(w->nphases - k - had));
    w->nphases += n - had;
    for (int j = 0; j < n; j++) {
        floe_phase q = p[j];
        q.measure_dir = vdirection(q.measure_dir); /* zero stays zero: the magnitude */
        q.servo_dir = vdirection(q.servo_dir);
        memset(&w->phases[k + j], 0, sizeof w->phases[k + j]);
        w->phases[k + j].group = g;
        w->phases[k + j].p = q;
    }
    floe_group *gr = &w->groups_[g];
    gr->phase = -1;
    gr->phase_t0 = gr->peak = 0;
    gr->ref = v3(0, 0, 0);
    gr->servo[0] = gr->servo[1] = gr->servo[2] = 0;
    return FLOE_OK;
}

int floe_group_phases(const floe_world *w, int g, floe_phase *out, int cap) {
    CHECK_ID(w, g, w->ngroups, "group", -1);
    int n, k = rows_of(w, g, &n);
    for (int j = 0; out && j < n && j < cap; j++) out[j] = w->phases[k + j].p;
    return n;
}

int floe_group_phase(const floe_world *w, int g) {
    CHECK_ID(w, g, w->ngroups, "group", -1);
    return w->groups_[g].phase;
}

floe_status floe_group_servo(const floe_world *w, int g, double out[3]) {
    CHECK_ID(w, g, w->ngroups, "group", FLOE_ERR_ARG);
    for (int k = 0; k < 3; k++) out[k] = w->groups_[g].servo[k];
    return FLOE_OK;
}
