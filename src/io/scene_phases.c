/* A group's phases in a scene: `groups[i].phases` (a list) or
 * `groups[i].load` (a load from time 0), read into floe_phase records that
 * floe_group_set_phases takes once the bodies exist (docs/scene-format.md,
 * docs/laboratory.md). */
#include "io/scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NK(a) ((int)(sizeof(a) / sizeof *(a)))

static int vec_key(scene_ctx *c, sy_node *map, const char *where, const char *key, floe_vec3 *out) {
    sy_node *n = sy_get(c->d, map, key);
    char p[SCENE_PATH];
    return n ? sy_vec3(c->d, n, scene_path(p, where, key), out) : 0;
}

static int num_key(scene_ctx *c, sy_node *map, const char *where, const char *key, double *out, double lo, double hi,
                   int lo_open, int hi_open) {
    sy_node *n = sy_get(c->d, map, key);
    char p[SCENE_PATH];
    return n ? sy_number_in(c->d, n, scene_path(p, where, key), out, lo, hi, lo_open, hi_open) : 0;
}

/* `start: {time | step | force_above | force_drop | displacement: value, direction}` */
static int parse_start(scene_ctx *c, sy_node *n, const char *where, floe_phase *p) {
    sy_doc *d = c->d;
    static const char *const keys[] = {"time", "step", "force_above", "force_drop", "displacement", "direction"};
    if (sy_want_map(d, n, where) || sy_check_keys(d, n, where, keys, NK(keys))) return -1;
    int found = -1;
    for (int k = 0; k < 5; k++) {
        if (!sy_get(d, n, keys[k])) continue;
        if (found >= 0) return sy_error(d, n, "%s: give one trigger, found '%s' and '%s'", where, keys[found], keys[k]);
        found = k;
    }
    if (found < 0)
        return sy_error(d, n,
                        "%s: give one trigger: time (s), step, force_above (N), force_drop (fraction of the "
                        "peak) or displacement (m)",
                        where);
    static const int trig[] = {FLOE_AT_TIME, FLOE_AT_STEP, FLOE_AT_FORCE_ABOVE, FLOE_AT_FORCE_DROP,
                               FLOE_AT_DISPLACEMENT};
    p->trigger = trig[found];
    sy_node *v = sy_get(d, n, keys[found]);
    char q[SCENE_PATH];
    scene_path(q, where, keys[found]);
    if (found == 1) {
        int64_t step;
        if (sy_int(d, v, q, &step, 0, (int64_t)1 << 53)) return -1;
        p->at = (double)step;
    } else if (found == 3) {
        if (sy_number_in(d, v, q, &p->at, 0, 1, 1, 1)) return -1;
    } else if (found == 0) {
        if (sy_number_in(d, v, q, &p->at, 0, FLOE_MAX_COORD, 0, 0)) return -1;
    } else if (sy_number_in(d, v, q, &p->at, -FLOE_MAX_COORD, FLOE_MAX_COORD, 0, 0)) {
        return -1;
    }
    sy_node *dn = sy_get(d, n, "direction");
    if (dn && found < 2) return sy_error(d, dn, "%s.direction: only force and displacement triggers take one", where);
    return vec_key(c, n, where, "direction", &p->measure_dir);
}

static int parse_phase(scene_ctx *c, sy_node *item, const char *where, int first, floe_phase *p) {
    sy_doc *d = c->d;
    static const char *const kinds[] = {"free", "velocity", "rotate", "servo", "load"};
    static const char *const keys[] = {
        "kind",       "start",       "velocity",  "angular_velocity", "axis", "rate", "point", "force",    "torque",
        "force_rate", "torque_rate", "direction", "stress",           "area", "gain", "alpha", "max_speed"};
    /* which keys each kind takes: bits of keys[] (kind and start: all) */
    static const unsigned takes[] = {0x3, 0xf, 0x73, 0x3u | 0x80u | 0x1f800u, 0x783};
    if (sy_want_map(d, item, where) || sy_check_keys(d, item, where, keys, NK(keys))) return -1;
    *p = floe_default_phase();
    char q[SCENE_PATH];
    sy_node *kn = sy_get(d, item, "kind");
    if (!kn) return sy_missing(d, item, where, "kind");
    const char *kind;
    if (sy_str(d, kn, scene_path(q, where, "kind"), &kind)) return -1;
    p->kind = -1;
    for (int k = 0; k < NK(kinds); k++)
        if (!strcmp(kind, kinds[k])) p->kind = k;
    if (p->kind < 0)
        return sy_error(d, kn, "%s: unknown kind '%s'; allowed: free, velocity, rotate, servo, load", q, kind);
    unsigned allowed = takes[p->kind]; /* a servo's force is its force target */
    for (int k = 2; k < NK(keys); k++) {
        sy_node *n = sy_get(d, item, keys[k]);
        if (n && !(allowed & (1u << k)))
            return sy_error(d, n, "%s.%s: a %s phase does not take it", where, keys[k], kinds[p->kind]);
    }
    sy_node *sn = sy_get(d, item, "start");
    if (sn) {
        if (parse_start(c, sn, scene_path(q, where, "start"), p)) return -1;
    } else if (!first) {
        return sy_error(d, item, "%s: missing 'start' (when the phase begins; only the first phase defaults to time 0)",
                        where);
    }
    switch (p->kind) {
        case FLOE_PHASE_VELOCITY:
            if (vec_key(c, item, where, "velocity", &p->vel) || vec_key(c, item, where, "angular_velocity", &p->angvel))
                return -1;
            break;
        case FLOE_PHASE_ROTATE: {
            floe_vec3 axis = {0, 0, 0};
            double rate = NAN;
            sy_node *an = sy_get(d, item, "axis"), *rn = sy_get(d, item, "rate");
            if (!an) return sy_missing(d, item, where, "axis");
            if (!rn) return sy_missing(d, item, where, "rate");
            if (vec_key(c, item, where, "axis", &axis) ||
                num_key(c, item, where, "rate", &rate, -FLOE_MAX_COORD, FLOE_MAX_COORD, 0, 0) ||
                vec_key(c, item, where, "point", &p->point))
                return -1;
            double l = sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
            if (!(l > 0)) return sy_error(d, an, "%s.axis: (0, 0, 0) has no direction", where);
            if (rate == 0) return sy_error(d, rn, "%s.rate: 0 rad/s turns nothing (use a velocity phase)", where);
            p->angvel = (floe_vec3){axis.x / l * rate, axis.y / l * rate, axis.z / l * rate};
            break;
        }
        case FLOE_PHASE_LOAD:
            if (vec_key(c, item, where, "force", &p->force) || vec_key(c, item, where, "torque", &p->torque) ||
                vec_key(c, item, where, "force_rate", &p->force_rate) ||
                vec_key(c, item, where, "torque_rate", &p->torque_rate))
                return -1;
            break;
        case FLOE_PHASE_SERVO: {
            sy_node *dn = sy_get(d, item, "direction"), *fn = sy_get(d, item, "force"),
                    *sn2 = sy_get(d, item, "stress");
            sy_node *arn = sy_get(d, item, "area");
            if (!dn) return sy_missing(d, item, where, "direction");
            if (vec_key(c, item, where, "direction", &p->servo_dir)) return -1;
            if (p->servo_dir.x == 0 && p->servo_dir.y == 0 && p->servo_dir.z == 0)
                return sy_error(d, dn, "%s.direction: (0, 0, 0) has no direction; give the one the group presses in",
                                where);
            if (!fn == !sn2)
                return sy_error(d, item, "%s: give the target as either 'force' (N) or 'stress' (Pa, with 'area')",
                                where);
            if (fn) {
                if (!sy_is_seq(fn) && sy_number_in(d, fn, scene_path(q, where, "force"), &p->target, -FLOE_MAX_COORD,
                                                   FLOE_MAX_COORD, 0, 0))
                    return -1;
                if (sy_is_seq(fn)) return sy_error(d, fn, "%s.force: a servo's force is a number (N)", where);
                if (arn) return sy_error(d, arn, "%s.area: only a stress target takes an area", where);
            } else {
                if (!arn) return sy_error(d, item, "%s: a stress target needs 'area' (m^2)", where);
                if (num_key(c, item, where, "stress", &p->target, -FLOE_MAX_COORD, FLOE_MAX_COORD, 0, 0) ||
                    num_key(c, item, where, "area", &p->area, 0, FLOE_MAX_COORD, 1, 0))
                    return -1;
            }
            if (num_key(c, item, where, "gain", &p->gain, 0, FLOE_MAX_COORD, 0, 0) ||
                num_key(c, item, where, "alpha", &p->alpha, 0, 1, 1, 1) ||
                num_key(c, item, where, "max_speed", &p->max_speed, 0, FLOE_MAX_COORD, 1, 0))
                return -1;
            break;
        }
        default:
            break;
    }
    return 0;
}

int scene_group_phases(scene_ctx *c, sy_node *item, const char *where, scene_motion *m) {
    sy_doc *d = c->d;
    sy_node *pn = sy_get(d, item, "phases"), *ln = sy_get(d, item, "load");
    char p[SCENE_PATH];
    if (pn && ln)
        return sy_error(d, ln, "%s.load: give the load as a phase of 'phases' ({kind: load, ...}), not both", where);
    if (ln) { /* a load from time 0: one load phase */
        scene_path(p, where, "load");
        static const char *const keys[] = {"force", "torque", "force_rate", "torque_rate"};
        if (sy_want_map(d, ln, p) || sy_check_keys(d, ln, p, keys, NK(keys))) return -1;
        floe_phase *ph = &m->phases[0];
        *ph = floe_default_phase();
        ph->kind = FLOE_PHASE_LOAD;
        if (vec_key(c, ln, p, "force", &ph->force) || vec_key(c, ln, p, "torque", &ph->torque) ||
            vec_key(c, ln, p, "force_rate", &ph->force_rate) || vec_key(c, ln, p, "torque_rate", &ph->torque_rate))
            return -1;
        m->nphases = 1;
        return 0;
    }
    if (!pn) return 0;
    scene_path(p, where, "phases");
    if (sy_want_seq(d, pn, p)) return -1;
    int n = sy_seq_size(pn);
    if (n == 0) return sy_error(d, pn, "%s: the list is empty", p);
    if (n > FLOE_MAX_PHASES) return sy_error(d, pn, "%s: %d phases, at most %d", p, n, FLOE_MAX_PHASES);
    for (int j = 0; j < n; j++) {
        char q[SCENE_PATH];
        if (parse_phase(c, sy_seq_item(d, pn, j), scene_index(q, p, j), j == 0, &m->phases[j])) return -1;
    }
    m->nphases = n;
    return 0;
}
