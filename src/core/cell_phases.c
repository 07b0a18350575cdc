/* Phases of the periodic cell (docs/periodic.md#phases): a list of cell
 * motions, each a velocity gradient and a set of stress-controlled axes,
 * switched by triggers as a group's phases are (motion.c), so that a
 * packing is compressed and then sheared in one run. A switch only sets
 * what floe_world_set_velocity_gradient and floe_world_set_cell_servo_def
 * set (cell.l and the servo of each axis); floe__cell_advance (cell.c)
 * moves the cell from them as it always does. The phases and the current
 * index are world state (snapshot_members.c). */
#include "core/cell_phases.h"
#include "core/cell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char axis_name[3] = {'x', 'y', 'z'};

floe_cell_phase floe_default_cell_phase(void) {
    floe_cell_phase p;
    memset(&p, 0, sizeof p);
    p.trigger = FLOE_CELL_AT_TIME;
    for (int k = 0; k < 3; k++) p.servo[k] = floe_default_cell_servo();
    return p;
}

/* The first thing wrong with phase j (written to why): 1, or 0. */
static int bad_phase(const floe_world *w, int j, const floe_cell_phase *p, char *why, size_t n) {
    int axes = w->cell.axes;
    size_t at = (size_t)snprintf(why, n, "phase %d: ", j);
    char *b = why + (at < n ? at : n);
    size_t m = at < n ? n - at : 0;
    if (p->trigger < 0 || p->trigger >= FLOE_CELL_AT_KINDS)
        return snprintf(b, m, "trigger %d is not one of FLOE_CELL_AT_* [0, %d]", p->trigger, FLOE_CELL_AT_KINDS - 1), 1;
    if (!(fabs(p->at) <= FLOE_MAX_COORD))
        return snprintf(b, m, "at = %g must be finite and at most %g in magnitude", p->at, FLOE_MAX_COORD), 1;
    if ((p->trigger == FLOE_CELL_AT_TIME || p->trigger == FLOE_CELL_AT_STEP) && p->at < 0)
        return snprintf(b, m, "a time or step trigger needs at >= 0 (got %g)", p->at), 1;
    if (p->trigger == FLOE_CELL_AT_STRAIN && (p->component < 0 || p->component > 8))
        return snprintf(b, m, "component = %d is not a strain entry 3 i + j in [0, 8]", p->component), 1;
    if (p->trigger == FLOE_CELL_AT_STRAIN && !((axes >> (p->component / 3) & 1) && (axes >> (p->component % 3) & 1)))
        return snprintf(b, m, "the strain %c%c needs both axes periodic", axis_name[p->component / 3],
                        axis_name[p->component % 3]),
               1;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            double x = p->velocity_gradient[3 * i + k];
            if (!(fabs(x) <= 1e6))
                return snprintf(b, m, "velocity_gradient[%d][%d] = %g 1/s must be finite and at most 1e6", i, k, x), 1;
            if (x != 0 && !((axes >> i & 1) && (axes >> k & 1)))
                return snprintf(b, m,
                                "velocity_gradient[%d][%d] = %g 1/s (dv_%c/d%c) needs both %c and %c periodic: the "
                                "cell deforms only along its periodic axes",
                                i, k, x, axis_name[i], axis_name[k], axis_name[i], axis_name[k]),
                       1;
        }
    if (p->servo_axes & ~7) return snprintf(b, m, "servo_axes = %d has bits beyond x, y, z (0 to 7)", p->servo_axes), 1;
    for (int k = 0; k < 3; k++)
        if (p->servo_axes >> k & 1 && floe__cell_servo_bad(w, k, &p->servo[k], b, m)) return 1;
    if (p->affine != 0 && p->affine != 1) return snprintf(b, m, "affine = %d must be 0 or 1", p->affine), 1;
    return 0;
}

floe_status floe_world_set_cell_phases(floe_world *w, const floe_cell_phase *p, int n) {
    const char *fn = "floe_world_set_cell_phases";
    if (!w->cell.axes) {
        floe__error(w, "%s: the world has no periodic cell (floe_world_set_periodic first)", fn);
        return FLOE_ERR_ARG;
    }
    if (n < 0 || n > FLOE_MAX_PHASES || (n > 0 && !p)) {
        floe__error(w, "%s: %d phases, expected 0 to %d (and a list for n > 0)", fn, n, FLOE_MAX_PHASES);
        return FLOE_ERR_ARG;
    }
    char why[512];
    for (int j = 0; j < n; j++)
        if (bad_phase(w, j, &p[j], why, sizeof why)) {
            floe__error(w, "%s: %s", fn, why);
            return FLOE_ERR_ARG;
        }
    if (n > w->cphcap && !floe__grow((void **)&w->cphases, &w->cphcap, n, sizeof *w->cphases)) {
        floe__error(w, "%s: out of memory for %d phases", fn, n);
        return FLOE_ERR_MEMORY;
    }
    for (int j = 0; j < n; j++) {
        w->cphases[j] = p[j];
        for (int k = 0; k < 3; k++) /* an axis without servo keeps nothing of one */
            if (!(p[j].servo_axes >> k & 1)) w->cphases[j].servo[k] = floe_default_cell_servo();
    }
    w->ncphases = n;
    w->cell.phase = -1;
    return FLOE_OK;
}

int floe_world_cell_phases(const floe_world *w, floe_cell_phase *out, int cap) {
    for (int j = 0; out && j < w->ncphases && j < cap; j++) out[j] = w->cphases[j];
    return w->ncphases;
}

int floe_world_cell_phase(const floe_world *w) { return w->ncphases > 0 ? w->cell.phase : -1; }

int floe__cell_phases_check(const floe_world *w, char *why, size_t n) {
    if (w->ncphases > 0 && !w->cell.axes) return snprintf(why, n, "/cell_phases: cell phases without a cell"), -1;
    if (w->ncphases > FLOE_MAX_PHASES)
        return snprintf(why, n, "/cell_phases: %d phases, at most %d", w->ncphases, FLOE_MAX_PHASES), -1;
    if (w->cell.phase < -1 || w->cell.phase >= w->ncphases)
        return snprintf(why, n, "/cell@phase: %d is not a phase of the cell's %d", w->cell.phase, w->ncphases), -1;
    char b[512];
    for (int j = 0; j < w->ncphases; j++)
        if (bad_phase(w, j, &w->cphases[j], b, sizeof b)) return snprintf(why, n, "/cell_phases: %s", b), -1;
    return 0;
}

/* ---- switching ------------------------------------------------------------------------------ */

/* Whether phase p starts on the state the world is in. */
static int triggered(const floe_world *w, const floe_cell_phase *p) {
    switch (p->trigger) {
        case FLOE_CELL_AT_TIME:
            return w->time >= p->at;
        case FLOE_CELL_AT_STEP:
            return (double)w->step >= p->at;
        case FLOE_CELL_AT_PRESSURE: {
            double s[3], sum = 0;
            int n = 0;
            floe__cell_stress_diag(w, s, NULL);
            for (int k = 0; k < 3; k++)
                if (w->cell.axes >> k & 1) sum += s[k], n++;
            return n > 0 && -sum / n >= p->at;
        }
        default: { /* strain */
            double e[9];
            floe_world_cell_strain(w, e);
            double x = e[p->component];
            return p->at >= 0 ? x >= p->at : x <= p->at;
        }
    }
}

/* The cell takes phase p's motion. With `affine`, every free body gains
 * the affine field of the change of L (a servo axis's diagonal left out:
 * the servo sets it), its kinetic energy's change booked as boundary work
 * (docs/decisions.md#phase-switches-and-ramped-loads-book-boundary-work). */
static void enter(floe_world *w, const floe_cell_phase *p) {
    floe_cell *c = &w->cell;
    double l[9];
    memcpy(l, p->velocity_gradient, sizeof l);
    for (int k = 0; k < 3; k++)
        if (p->servo_axes >> k & 1) l[4 * k] = c->l[4 * k]; /* the servo goes on from where L_kk is */
    if (p->affine) {
        double dl[9];
        for (int k = 0; k < 9; k++) dl[k] = l[k] - c->l[k];
        for (int i = 0; i < w->np; i++) {
            if (!(w->bound[i] > 0) || !(w->mass[i] > 0)) continue;
            vec3 dv = floe__mat_vec(dl, vsub(w->pos[i], c->origin)), v0 = w->vel[i];
            uint32_t b = w->blocked[i];
            w->vel[i] = v3(v0.x + (b & FLOE_DOF_X ? 0 : dv.x), v0.y + (b & FLOE_DOF_Y ? 0 : dv.y),
                           v0.z + (b & FLOE_DOF_Z ? 0 : dv.z));
            if (w->started) w->e_boundary += 0.5 * w->mass[i] * (vlen2(w->vel[i]) - vlen2(v0));
        }
    }
    memcpy(c->l, l, sizeof l);
    for (int k = 0; k < 3; k++) floe__cell_servo_put(c, k, p->servo_axes >> k & 1 ? &p->servo[k] : NULL);
}

floe_status floe__cell_switch(floe_world *w) {
    /* several phases may start on one state; each is entered in turn */
    while (w->cell.phase + 1 < w->ncphases && triggered(w, &w->cphases[w->cell.phase + 1])) {
        w->cell.phase++;
        enter(w, &w->cphases[w->cell.phase]);
    }
    return FLOE_OK;
}
