/* The `periodic` section of a scene (docs/scene-format.md#periodic,
 * docs/periodic.md): the periods of the periodic axes, the cell's velocity
 * gradient and the affine start of the bodies' velocities. The API checks
 * the ranges; its messages are reported at the key. */
#include "io/scene_periodic.h"

#include <stdio.h>
#include <string.h>

static const char *const keys[] = {"x", "y", "z", "velocity_gradient", "affine_velocities", "servo", "phases"};
static const char *const axes[] = {"x", "y", "z"};
static const char *const servo_keys[] = {"stress", "gain", "alpha", "max_rate"};

/* One axis: {stress: -100, max_rate: 10} (gain alpha / (K dt), alpha 0.5),
 * or {stress: -100, gain: 1e-3, max_rate: 10} (a fixed gain; max_rate
 * default 1e6). */
static int servo_axis(scene_ctx *c, sy_node *n, const char *where, floe_cell_servo *s) {
    sy_doc *d = c->d;
    if (sy_want_map(d, n, where) || sy_check_keys(d, n, where, servo_keys, 4)) return -1;
    *s = floe_default_cell_servo();
    sy_node *x[4];
    char p[4][SCENE_PATH + 16];
    for (int j = 0; j < 4; j++) {
        x[j] = sy_get(d, n, servo_keys[j]);
        snprintf(p[j], sizeof p[j], "%s.%s", where, servo_keys[j]);
    }
    if (!x[0]) return sy_missing(d, n, where, "stress");
    if (sy_number_in(d, x[0], p[0], &s->stress, -FLOE_MAX_COORD, FLOE_MAX_COORD, 0, 0)) return -1;
    if (x[1] && sy_number_in(d, x[1], p[1], &s->gain, 0, FLOE_MAX_COORD, 1, 0)) return -1;
    if (x[1] && x[2])
        return sy_error(d, x[2], "%s: alpha sets the gain alpha / (K dt); give either 'gain' or 'alpha', not both",
                        p[2]);
    if (x[2] && sy_number_in(d, x[2], p[2], &s->alpha, 0, 1, 1, 1)) return -1;
    if (!x[3] && !x[1])
        return sy_error(d, n,
                        "%s: give 'max_rate' (1/s): without a fixed 'gain' the axis moves at max_rate while the "
                        "packing is loose",
                        where);
    s->max_rate = 1e6;
    if (x[3] && sy_number_in(d, x[3], p[3], &s->max_rate, 0, 1e6, 1, 0)) return -1;
    return 0;
}

/* servo: {y: {...}, ...} at `where`; *mask: the axes given. */
static int servo_map(scene_ctx *c, sy_node *sec, const char *where, floe_cell_servo s[3], int *mask) {
    sy_doc *d = c->d;
    if (sy_want_map(d, sec, where)) return -1;
    if (sy_check_keys(d, sec, where, axes, 3)) return -1;
    *mask = 0;
    for (int k = 0; k < 3; k++) {
        sy_node *n = sy_get(d, sec, axes[k]);
        if (!n) continue;
        char w2[SCENE_PATH];
        snprintf(w2, sizeof w2, "%s.%s", where, axes[k]);
        if (!(c->w && floe_world_get_cell(c->w, NULL, NULL) >> k & 1))
            return sy_error(d, n, "%s: %s is not a periodic axis of the cell (give periodic.%s: [lo, hi])", w2, axes[k],
                            axes[k]);
        if (servo_axis(c, n, w2, &s[k])) return -1;
        *mask |= 1 << k;
    }
    return 0;
}

static int servo(scene_ctx *c, sy_node *sec) {
    floe_cell_servo s[3];
    int mask;
    if (servo_map(c, sec, "periodic.servo", s, &mask)) return -1;
    for (int k = 0; k < 3; k++)
        if (mask >> k & 1 && floe_world_set_cell_servo_def(c->w, k, &s[k]) != FLOE_OK)
            return scene_world_error(c, sy_get(c->d, sec, axes[k]), "periodic.servo");
    return 0;
}

/* [lo, hi] at `where` */
static int period(sy_doc *d, sy_node *n, const char *where, double *lo, double *hi) {
    if (sy_want_seq(d, n, where)) return -1;
    if (sy_seq_size(n) != 2)
        return sy_error(d, n, "%s: give the period as [lo, hi] in m (2 numbers, lo < hi), not %d", where,
                        sy_seq_size(n));
    char w2[64];
    snprintf(w2, sizeof w2, "%s[0]", where);
    if (sy_number(d, sy_seq_item(d, n, 0), w2, lo)) return -1;
    snprintf(w2, sizeof w2, "%s[1]", where);
    if (sy_number(d, sy_seq_item(d, n, 1), w2, hi)) return -1;
    if (!(*lo < *hi)) return sy_error(d, n, "%s: the period [%g, %g] m needs lo < hi", where, *lo, *hi);
    return 0;
}

/* three rows of three numbers [1/s] */
static int gradient(sy_doc *d, sy_node *n, const char *where, double l[9]) {
    if (sy_want_seq(d, n, where)) return -1;
    if (sy_seq_size(n) != 3)
        return sy_error(d, n, "%s: give L as 3 rows of 3 numbers in 1/s, [[dvx/dx, dvx/dy, dvx/dz], ...], not %d rows",
                        where, sy_seq_size(n));
    for (int i = 0; i < 3; i++) {
        sy_node *row = sy_seq_item(d, n, i);
        char w2[64];
        snprintf(w2, sizeof w2, "%s[%d]", where, i);
        if (sy_want_seq(d, row, w2)) return -1;
        if (sy_seq_size(row) != 3)
            return sy_error(d, row, "%s: a row of L has 3 numbers, not %d", w2, sy_seq_size(row));
        for (int j = 0; j < 3; j++) {
            snprintf(w2, sizeof w2, "%s[%d][%d]", where, i, j);
            if (sy_number(d, sy_seq_item(d, row, j), w2, &l[3 * i + j])) return -1;
        }
    }
    return 0;
}

/* `start: {time | step | pressure | strain: value, component: xy}` */
static int phase_start(scene_ctx *c, sy_node *n, const char *where, floe_cell_phase *p) {
    sy_doc *d = c->d;
    static const char *const tk[] = {"time", "step", "pressure", "strain", "component"};
    if (sy_want_map(d, n, where) || sy_check_keys(d, n, where, tk, 5)) return -1;
    int found = -1;
    for (int k = 0; k < 4; k++) {
        if (!sy_get(d, n, tk[k])) continue;
        if (found >= 0) return sy_error(d, n, "%s: give one trigger, found '%s' and '%s'", where, tk[found], tk[k]);
        found = k;
    }
    if (found < 0)
        return sy_error(d, n,
                        "%s: give one trigger: time (s), step, pressure (Pa, compression positive) or strain "
                        "(with component)",
                        where);
    p->trigger = found; /* FLOE_CELL_AT_TIME, _STEP, _PRESSURE, _STRAIN in this order */
    sy_node *v = sy_get(d, n, tk[found]), *cn = sy_get(d, n, "component");
    char q[SCENE_PATH];
    snprintf(q, sizeof q, "%s.%s", where, tk[found]);
    if (found == 1) {
        int64_t step;
        if (sy_int(d, v, q, &step, 0, (int64_t)1 << 53)) return -1;
        p->at = (double)step;
    } else if (sy_number_in(d, v, q, &p->at, found == 0 ? 0 : -FLOE_MAX_COORD, FLOE_MAX_COORD, 0, 0)) {
        return -1;
    }
    if (cn && found != 3) return sy_error(d, cn, "%s.component: only a strain trigger takes one", where);
    if (found == 3) {
        static const char *const comps[] = {"xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz"};
        if (!cn) return sy_missing(d, n, where, "component");
        const char *s;
        snprintf(q, sizeof q, "%s.component", where);
        if (sy_str(d, cn, q, &s)) return -1;
        p->component = -1;
        for (int k = 0; k < 9; k++)
            if (!strcmp(s, comps[k])) p->component = k;
        if (p->component < 0) return sy_error(d, cn, "%s: '%s' is not a strain entry (xx, xy, ..., zz)", q, s);
    }
    return 0;
}

/* periodic.phases: a list of cell motions (docs/periodic.md#phases). */
static int phases(scene_ctx *c, sy_node *pn) {
    sy_doc *d = c->d;
    static const char *const pk[] = {"start", "velocity_gradient", "servo", "affine_velocities"};
    const char *where = "periodic.phases";
    if (sy_want_seq(d, pn, where)) return -1;
    int n = sy_seq_size(pn);
    if (n == 0) return sy_error(d, pn, "%s: the list is empty", where);
    if (n > FLOE_MAX_PHASES) return sy_error(d, pn, "%s: %d phases, at most %d", where, n, FLOE_MAX_PHASES);
    floe_cell_phase p[FLOE_MAX_PHASES];
    for (int j = 0; j < n; j++) {
        sy_node *item = sy_seq_item(d, pn, j), *x;
        char w[SCENE_PATH], q[SCENE_PATH];
        scene_index(w, where, j);
        if (sy_want_map(d, item, w) || sy_check_keys(d, item, w, pk, 4)) return -1;
        p[j] = floe_default_cell_phase();
        if ((x = sy_get(d, item, "start"))) {
            if (phase_start(c, x, scene_path(q, w, "start"), &p[j])) return -1;
        } else if (j > 0) {
            return sy_error(d, item,
                            "%s: missing 'start' (when the phase begins; only the first phase defaults to "
                            "time 0)",
                            w);
        }
        if ((x = sy_get(d, item, "velocity_gradient")) &&
            gradient(d, x, scene_path(q, w, "velocity_gradient"), p[j].velocity_gradient))
            return -1;
        if ((x = sy_get(d, item, "servo")) && servo_map(c, x, scene_path(q, w, "servo"), p[j].servo, &p[j].servo_axes))
            return -1;
        if ((x = sy_get(d, item, "affine_velocities")) &&
            sy_bool(d, x, scene_path(q, w, "affine_velocities"), &p[j].affine))
            return -1;
    }
    if (floe_world_set_cell_phases(c->w, p, n) != FLOE_OK) return scene_world_error(c, pn, where);
    return 0;
}

int scene_periodic(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_map(d, sec, "periodic")) return -1;
    if (sy_check_keys(d, sec, "periodic", keys, (int)(sizeof keys / sizeof *keys))) return -1;
    int any = 0;
    for (int k = 0; k < 3; k++) {
        sy_node *n = sy_get(d, sec, keys[k]);
        if (!n) continue;
        char where[32];
        snprintf(where, sizeof where, "periodic.%s", keys[k]);
        double lo, hi;
        if (period(d, n, where, &lo, &hi)) return -1;
        if (floe_world_set_periodic(c->w, k, lo, hi) != FLOE_OK) return scene_world_error(c, n, where);
        any = 1;
    }
    if (!any) return sy_error(d, sec, "periodic: give the period of at least one axis (x, y or z: [lo, hi] in m)");
    sy_node *n = sy_get(d, sec, "velocity_gradient");
    if (n) {
        double l[9];
        if (gradient(d, n, "periodic.velocity_gradient", l)) return -1;
        if (floe_world_set_velocity_gradient(c->w, l) != FLOE_OK)
            return scene_world_error(c, n, "periodic.velocity_gradient");
    }
    if ((n = sy_get(d, sec, "servo")) && servo(c, n)) return -1;
    sy_node *pn = sy_get(d, sec, "phases");
    if (pn) {
        /* the phases give the whole motion of the cell */
        static const char *const single[] = {"velocity_gradient", "servo", "affine_velocities"};
        for (int k = 0; k < 3; k++)
            if ((n = sy_get(d, sec, single[k])))
                return sy_error(d, n,
                                "periodic.%s: with 'phases' give it in a phase (periodic.phases[0].%s), not beside "
                                "them",
                                single[k], single[k]);
        if (phases(c, pn)) return -1;
    }
    int affine = 0;
    if ((n = sy_get(d, sec, "affine_velocities")) && sy_bool(d, n, "periodic.affine_velocities", &affine)) return -1;
    return 0;
}

int scene_periodic_bodies(scene_ctx *c, sy_node *sec) {
    sy_node *n = sy_get(c->d, sec, "affine_velocities");
    int affine = 0;
    if (n && sy_bool(c->d, n, "periodic.affine_velocities", &affine)) return -1;
    if (affine && floe_world_affine_velocities(c->w) != FLOE_OK)
        return scene_world_error(c, n, "periodic.affine_velocities");
    return 0;
}
