/* A phase's keys, described in the key tables "phases" and "phases.start"
 * (floe.h, "key tables"; the docs' phase table is written from them), and a
 * phase from the keys of a scene's groups[].phases entry
 * (docs/scene-format.md#groups), checked key by key: the one reader of
 * both front ends, the scene loader (src/io/scene_phases.c) and the Python
 * module's set_phases (python/floe/motion.c), so that a value is refused
 * with the same words in both. The front ends only turn their syntax (YAML
 * nodes, dict items) into keys and numbers. The values' ranges are those
 * floe_group_set_phases takes; directions (a servo's, a rotation axis, a
 * trigger's) are taken at any finite, non-zero length and normalised. */
#include "base/vec.h"
#include "core/motion.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX FLOE_MAX_COORD
#define REST(...) __VA_ARGS__, .set_offset = -1
#define SETS(...) __VA_ARGS__ /* the key sets another member (set_offset) */
#define P(m) (int)offsetof(floe_phase, m)
#define NK(a) ((int)(sizeof(a) / sizeof *(a)))

/* The start's keys: one trigger (in floe_phase_trigger order) and a direction. */
static const floe_key start_keys[] = {
    {"time", FLOE_KEY_NUMBER, P(at), 0, MAX, 0, 0,
     SETS("s", "-", "the time reaches it", .choice = "trigger", .set_offset = P(trigger), .set_value = FLOE_AT_TIME)},
    {"step", FLOE_KEY_INT64, P(at), 0, 9007199254740992.0, 0, 0,
     SETS("", "-", "the step count reaches it", .choice = "trigger", .set_offset = P(trigger),
          .set_value = FLOE_AT_STEP)},
    {"force_above", FLOE_KEY_NUMBER, P(at), -MAX, MAX, 0, 0,
     SETS("N", "-", "the group's contact force along direction (its magnitude without one) reaches it",
          .choice = "trigger", .set_offset = P(trigger), .set_value = FLOE_AT_FORCE_ABOVE)},
    {"force_drop", FLOE_KEY_NUMBER, P(at), 0, 1, 1, 1,
     SETS("", "-", "that force falls below this fraction of its peak since the current phase began",
          .choice = "trigger", .set_offset = P(trigger), .set_value = FLOE_AT_FORCE_DROP)},
    {"displacement", FLOE_KEY_NUMBER, P(at), -MAX, MAX, 0, 0,
     SETS("m", "-",
          "the members' mean displacement since the current phase began, along direction (magnitude without), "
          "passes it (upwards for a value >= 0, downwards for a negative one)",
          .choice = "trigger", .set_offset = P(trigger), .set_value = FLOE_AT_DISPLACEMENT)},
    {"direction", FLOE_KEY_VEC3, P(measure_dir), -INFINITY, INFINITY, 1, 1,
     REST("", "none: the magnitude",
          "force and displacement triggers: the component along it; any finite, non-zero length (normalised)")},
};
const floe_key_table floe__phase_start_keys = {"phases.start", start_keys, NK(start_keys), NULL};

static const floe_key phase_keys[] = {
    {"kind", FLOE_KEY_ENUM, P(kind), 0, 0, 0, 0,
     REST("", "required", "what the members do", .words = "free=0,velocity=1,rotate=2,servo=3,load=4")},
    {"start", FLOE_KEY_MAP, -1, 0, 0, 0, 0,
     REST("", "first phase: {time: 0}; others: required",
          "when the phase begins: the first state on which its one trigger holds", .sub = &floe__phase_start_keys)},
    {"velocity", FLOE_KEY_VEC3, P(vel), -MAX, MAX, 0, 0,
     REST("m/s", "[0, 0, 0]", "imposed velocity", .only = "velocity")},
    {"angular_velocity", FLOE_KEY_VEC3, P(angvel), -MAX, MAX, 0, 0,
     REST("rad/s", "[0, 0, 0]", "imposed spin about each body's centre", .only = "velocity")},
    {"axis", FLOE_KEY_VEC3, -1, -INFINITY, INFINITY, 1, 1,
     REST("", "required", "direction of the axis (right-hand rule), any finite, non-zero length", .only = "rotate")},
    {"rate", FLOE_KEY_NUMBER, -1, -MAX, MAX, 0, 0,
     REST("rad/s", "required", "turn rate about axis, not 0 (the rotation vector is the unit axis times it)",
          .only = "rotate")},
    {"point", FLOE_KEY_VEC3, P(point), -MAX, MAX, 0, 0,
     REST("m", "[0, 0, 0]", "a point of the axis", .only = "rotate")},
    {"direction", FLOE_KEY_VEC3, P(servo_dir), -INFINITY, INFINITY, 1, 1,
     REST("", "required",
          "the direction in which the group presses on the material, any finite, non-zero length (normalised)",
          .only = "servo")},
    {"force", FLOE_KEY_VEC3, -1, -MAX, MAX, 0, 0,
     REST("N", "servo: one of force, stress; load: [0, 0, 0]",
          "servo: the target force, one number (the material's push back along -direction); load: the force on "
          "each member at the phase's start, 3 numbers",
          .only = "servo,load")},
    {"stress", FLOE_KEY_NUMBER, -1, -MAX, MAX, 0, 0,
     REST("Pa", "one of force, stress", "target stress, with area", .only = "servo")},
    {"area", FLOE_KEY_NUMBER, P(area), 0, MAX, 1, 0,
     REST("m^2", "required with stress", "area the force is divided by", .only = "servo")},
    {"gain", FLOE_KEY_NUMBER, P(gain), 0, MAX, 0, 0,
     REST("m/(s N)", "0", "fixed gain; 0: alpha/(K dt) from the contacts each step", .only = "servo")},
    {"alpha", FLOE_KEY_NUMBER, P(alpha), 0, 1, 1, 1,
     REST("", "0.5", "fraction of the error closed per step (automatic gain)", .only = "servo")},
    {"max_speed", FLOE_KEY_NUMBER, P(max_speed), 0, MAX, 1, 0, REST("m/s", "1", "speed limit", .only = "servo")},
    {"torque", FLOE_KEY_VEC3, P(torque), -MAX, MAX, 0, 0,
     REST("N m", "[0, 0, 0]", "on each member at the phase's start", .only = "load")},
    {"force_rate", FLOE_KEY_VEC3, P(force_rate), -MAX, MAX, 0, 0,
     REST("N/s", "[0, 0, 0]", "change of the force per second from the phase's start", .only = "load")},
    {"torque_rate", FLOE_KEY_VEC3, P(torque_rate), -MAX, MAX, 0, 0,
     REST("N m/s", "[0, 0, 0]", "change of the torque per second from the phase's start", .only = "load")},
};
const floe_key_table floe__phase_keys = {"phases", phase_keys, NK(phase_keys), NULL};

static const char *const kind_names[FLOE_PHASE_KINDS] = {"free", "velocity", "rotate", "servo", "load"};
static const char *const trigger_names[FLOE_AT_KINDS] = {"time", "step", "force_above", "force_drop", "displacement"};

/* One key of a phase as the reader sees it, from the tables: the kinds
 * that take it, how many numbers (3: a vector; 0: the force, 1 for a
 * servo and 3 for a load), its range, and for a direction (any finite,
 * non-zero length) the hint after "has no direction". */
typedef struct spec {
    const char *key; /* "velocity", ..., "start.time", ... */
    unsigned kinds;
    int n;
    double lo, hi;
    int lo_open, hi_open;
    const char *dir;
} spec;

enum { NSPEC = NK(phase_keys) - 2 + NK(start_keys), FIRST_TRIGGER = NSPEC - NK(start_keys) };
/* The reader's view of the tables, built on each call (no state shared
 * between threads): a phase's keys flattened, the start's as "start.<key>". */
typedef struct specset {
    spec specs[NSPEC];
    char start_names[NK(start_keys)][32];
    char known[512], kind_keys[FLOE_PHASE_KINDS][160];
} specset;

/* The kinds a key's `only` names (NULL: all). */
static unsigned kinds_of(const char *only) {
    if (!only) return (1u << FLOE_PHASE_KINDS) - 1u;
    unsigned m = 0;
    for (int q = 0; q < FLOE_PHASE_KINDS; q++) {
        size_t n = strlen(kind_names[q]);
        for (const char *p = only; (p = strstr(p, kind_names[q])); p += n)
            if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n])) m |= 1u << q;
    }
    return m;
}

static void cat(char *buf, size_t len, const char *s) {
    size_t k = strlen(buf);
    snprintf(buf + k, len - k, "%s%s", k ? ", " : "", s);
}

/* specs[] and the key lists of the messages, from the tables. */
static void make_specs(specset *ss) {
    memset(ss, 0, sizeof *ss);
    spec *specs = ss->specs;
    char(*start_names)[32] = ss->start_names, *known = ss->known;
    char(*kind_keys)[160] = ss->kind_keys;
    int q = 0;
    for (int i = 0; i < NK(phase_keys) + NK(start_keys); i++) {
        int st = i >= NK(phase_keys);
        const floe_key *k = st ? &start_keys[i - NK(phase_keys)] : &phase_keys[i];
        if (!st) cat(known, sizeof ss->known, k->key);
        if (!st && (k->kind == FLOE_KEY_ENUM || k->kind == FLOE_KEY_MAP)) continue; /* kind, start */
        spec *s = &specs[q++];
        if (st) {
            snprintf(start_names[i - NK(phase_keys)], sizeof ss->start_names[0], "start.%s", k->key);
            s->key = start_names[i - NK(phase_keys)];
        } else s->key = k->key;
        s->kinds = kinds_of(k->only);
        s->n = !strcmp(k->key, "force") && !st ? 0 : k->kind == FLOE_KEY_VEC3 ? 3 : 1;
        s->lo = k->min, s->hi = k->max, s->lo_open = k->min_open, s->hi_open = k->max_open;
        if (k->kind == FLOE_KEY_VEC3 && isinf(k->min))
            s->dir = st                             ? "; give the one the force or displacement is measured along, "
                                                      "or leave it out (the magnitude)"
                     : !strcmp(k->key, "direction") ? "; give the one the group presses in"
                                                    : "";
    }
    for (int kd = 0; kd < FLOE_PHASE_KINDS; kd++) {
        snprintf(kind_keys[kd], sizeof kind_keys[kd], "kind, start");
        for (int i = 2; i < NK(phase_keys); i++)
            if (kinds_of(phase_keys[i].only) >> kd & 1u) cat(kind_keys[kd], sizeof kind_keys[kd], phase_keys[i].key);
    }
}

typedef struct rd {
    const char *where;
    char *why;
    size_t len;
    int *bad;
} rd;

static floe_status fail(const rd *r, int at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static floe_status fail(const rd *r, int at, const char *fmt, ...) {
    if (r->why && r->len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why, r->len, fmt, ap);
        va_end(ap);
    }
    if (r->bad) *r->bad = at;
    return FLOE_ERR_ARG;
}

static void fmt_bound(char *buf, size_t len, double v) {
    if (isinf(v)) snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
    else snprintf(buf, len, "%.10g", v);
}

static int in_range(const spec *s, double x) {
    return (s->lo_open ? x > s->lo : x >= s->lo) && (s->hi_open ? x < s->hi : x <= s->hi);
}

/* Checks key k's numbers against its spec (count, range, direction). */
static floe_status check_value(const rd *r, int k, const spec *s, const floe_phase_key *e, int kind) {
    const char *w = r->where;
    int n = s->n ? s->n : kind == FLOE_PHASE_SERVO ? 1 : 3;
    if (e->n != n) {
        if (!strcmp(s->key, "force") && kind == FLOE_PHASE_SERVO)
            return fail(r, k, "%s.force: a servo's force is a number (N)", w);
        if (n == 1) return fail(r, k, "%s.%s: expected a number, got %d", w, s->key, e->n);
        return fail(r, k, "%s.%s: expected a list of 3 numbers [x, y, z], got %s%d", w, s->key,
                    e->n == 1 ? "one number, not a list of " : "", e->n);
    }
    const double *v = e->v;
    if (s->dir) {
        if (!(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2])))
            return fail(r, k, "%s.%s: (%g, %g, %g) is not a direction: its components must be finite", w, s->key, v[0],
                        v[1], v[2]);
        if (v[0] == 0 && v[1] == 0 && v[2] == 0)
            return fail(r, k, "%s.%s: (0, 0, 0) has no direction%s", w, s->key, s->dir);
        return FLOE_OK;
    }
    char a[32], b[32];
    fmt_bound(a, sizeof a, s->lo);
    fmt_bound(b, sizeof b, s->hi);
    if (n == 3) {
        for (int c = 0; c < 3; c++)
            if (!in_range(s, v[c]))
                return fail(r, k, "%s.%s: (%g, %g, %g) is out of range: each component in [%s, %s]", w, s->key, v[0],
                            v[1], v[2], a, b);
        return FLOE_OK;
    }
    if (!in_range(s, v[0]))
        return fail(r, k, "%s.%s = %g is out of range %c%s, %s%c", w, s->key, v[0], s->lo_open ? '(' : '[', a, b,
                    s->hi_open ? ')' : ']');
    if (!strcmp(s->key, "start.step") && v[0] != floor(v[0]))
        return fail(r, k, "%s.start.step = %g must be an integer", w, v[0]);
    if (!strcmp(s->key, "rate") && v[0] == 0)
        return fail(r, k, "%s.rate: 0 rad/s turns nothing (use a velocity phase)", w);
    return FLOE_OK;
}

/* The index of the key given for spec `name`, or -1. */
static int at_key(const spec *specs, const int at[NSPEC], const char *name) {
    for (int q = 0; q < NSPEC; q++)
        if (!strcmp(specs[q].key, name)) return at[q];
    return -1;
}

floe_status floe_phase_from_keys(const floe_phase_key *keys, int nkeys, int first, const char *where, floe_phase *out,
                                 char *why, size_t len, int *bad) {
    rd r = {where ? where : "phase", why, len, bad};
    const char *w = r.where;
    if (bad) *bad = -1;
    if (why && len) why[0] = 0;
    if (nkeys < 0 || (nkeys > 0 && !keys) || !out) return fail(&r, -1, "%s: no keys or no phase to read into", w);
    floe_phase p = floe_default_phase();
    specset ss;
    make_specs(&ss);
    const spec *specs = ss.specs;
    /* the kind first: it decides which keys the phase takes */
    int kind = -1, at_kind = -1;
    for (int k = 0; k < nkeys; k++)
        if (keys[k].key && !strcmp(keys[k].key, "kind")) at_kind = k;
    if (at_kind < 0) return fail(&r, -1, "missing required key 'kind' in %s", w);
    const char *kn = keys[at_kind].text ? keys[at_kind].text : "";
    for (int q = 0; q < FLOE_PHASE_KINDS; q++)
        if (!strcmp(kn, kind_names[q])) kind = q;
    if (kind < 0)
        return fail(&r, at_kind, "%s.kind: unknown kind '%s'; allowed: free, velocity, rotate, servo, load", w, kn);
    p.kind = kind;
    int at[NSPEC], at_start = -1, trigger = -1, at_trigger = -1;
    for (int q = 0; q < NSPEC; q++) at[q] = -1;
    for (int k = 0; k < nkeys; k++) {
        const floe_phase_key *e = &keys[k];
        const char *key = e->key ? e->key : "";
        if (!strcmp(key, "kind")) {
            if (k != at_kind) return fail(&r, k, "%s.kind: given twice", w);
            continue;
        }
        if (!strcmp(key, "start")) {
            if (at_start >= 0) return fail(&r, k, "%s.start: given twice", w);
            at_start = k;
            continue;
        }
        int q = 0;
        while (q < NSPEC && strcmp(key, specs[q].key)) q++;
        if (q == NSPEC) {
            if (!strncmp(key, "start.", 6))
                return fail(&r, k,
                            "%s.start: unknown key '%s' (known: time, step, force_above, force_drop, displacement, "
                            "direction)",
                            w, key + 6);
            return fail(&r, k, "%s.%s: unknown key (known: %s)", w, key, ss.known);
        }
        const spec *s = &specs[q];
        if (at[q] >= 0) return fail(&r, k, "%s.%s: given twice", w, key);
        if (!(s->kinds >> kind & 1u))
            return fail(&r, k, "%s.%s: a %s phase does not take it (it takes: %s)", w, key, kind_names[kind],
                        ss.kind_keys[kind]);
        if (q >= FIRST_TRIGGER && q < FIRST_TRIGGER + FLOE_AT_KINDS) {
            if (trigger >= 0)
                return fail(&r, k, "%s.start: give one trigger, found '%s' and '%s'", w, trigger_names[trigger],
                            key + 6);
            trigger = q - FIRST_TRIGGER;
            at_trigger = k;
        }
        floe_status st = check_value(&r, k, s, e, kind);
        if (st != FLOE_OK) return st;
        at[q] = k;
    }
    /* the start: one trigger, a direction only with a force or displacement trigger */
    int at_dir = at[NSPEC - 1];
    if (at_start < 0 && (trigger >= 0 || at_dir >= 0)) at_start = trigger >= 0 ? at_trigger : at_dir;
    if (at_start >= 0 && trigger < 0)
        return fail(&r, at_start,
                    "%s.start: give one trigger: time (s), step, force_above (N), force_drop (fraction of the "
                    "peak) or displacement (m)",
                    w);
    if (at_start < 0 && !first)
        return fail(&r, -1, "%s: missing 'start' (when the phase begins; only the first phase defaults to time 0)", w);
    if (at_dir >= 0 && trigger != FLOE_AT_FORCE_ABOVE && trigger != FLOE_AT_FORCE_DROP &&
        trigger != FLOE_AT_DISPLACEMENT)
        return fail(&r, at_dir, "%s.start.direction: only force and displacement triggers take one", w);
    if (trigger >= 0) {
        p.trigger = trigger;
        p.at = keys[at_trigger].v[0];
    }
    if (at_dir >= 0) p.measure_dir = vdirection(v3(keys[at_dir].v[0], keys[at_dir].v[1], keys[at_dir].v[2]));
        /* the kind's keys, and those it needs together */
#define AT(name) at_key(specs, at, name)
    int iv = AT("velocity"), ia = AT("angular_velocity"), iax = AT("axis"), ir = AT("rate"), ipt = AT("point"),
        idir = AT("direction"), iforce = AT("force"), istress = AT("stress"), iarea = AT("area"), igain = AT("gain"),
        ialpha = AT("alpha"), ispeed = AT("max_speed"), itorque = AT("torque"), ifr = AT("force_rate"),
        itr = AT("torque_rate");
#undef AT
#define VEC(i) v3(keys[i].v[0], keys[i].v[1], keys[i].v[2])
    switch (kind) {
        case FLOE_PHASE_VELOCITY:
            if (iv >= 0) p.vel = VEC(iv);
            if (ia >= 0) p.angvel = VEC(ia);
            break;
        case FLOE_PHASE_ROTATE:
            if (iax < 0) return fail(&r, -1, "missing required key 'axis' in %s", w);
            if (ir < 0) return fail(&r, -1, "missing required key 'rate' in %s", w);
            p.angvel = vscale(vdirection(VEC(iax)), keys[ir].v[0]);
            if (ipt >= 0) p.point = VEC(ipt);
            break;
        case FLOE_PHASE_SERVO:
            if (idir < 0) return fail(&r, -1, "missing required key 'direction' in %s", w);
            p.servo_dir = vdirection(VEC(idir));
            if ((iforce < 0) == (istress < 0))
                return fail(&r, -1, "%s: give the target as either 'force' (N) or 'stress' (Pa, with 'area')", w);
            if (iforce >= 0 && iarea >= 0) return fail(&r, iarea, "%s.area: only a stress target takes an area", w);
            if (istress >= 0 && iarea < 0) return fail(&r, -1, "%s: a stress target needs 'area' (m^2)", w);
            p.target = keys[iforce >= 0 ? iforce : istress].v[0];
            if (iarea >= 0) p.area = keys[iarea].v[0];
            if (igain >= 0) p.gain = keys[igain].v[0];
            if (ialpha >= 0) p.alpha = keys[ialpha].v[0];
            if (ispeed >= 0) p.max_speed = keys[ispeed].v[0];
            break;
        case FLOE_PHASE_LOAD:
            if (iforce >= 0) p.force = VEC(iforce);
            if (itorque >= 0) p.torque = VEC(itorque);
            if (ifr >= 0) p.force_rate = VEC(ifr);
            if (itr >= 0) p.torque_rate = VEC(itr);
            break;
        default:
            break;
    }
#undef VEC
    *out = p;
    return FLOE_OK;
}
