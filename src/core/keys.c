/* The key tables of the engine's defs (floe.h, "key tables"): every option
 * of floe_world_def, floe_inlet_def and floe_sink_def once, with its range,
 * unit, default and doc line. The scene loader (src/io/scene_keys.c) and the
 * Python module (python/floe/keys.c) read them through these tables, and
 * `floe keys --markdown` writes docs/scene-format.md's key tables from them.
 * The rules between keys (one region, the sizes of the shape, end after
 * start) are the tables' check functions, so both front ends refuse the
 * same things in the same words. */
#include "base/vec.h"
#include "core/motion.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NK(a) ((int)(sizeof(a) / sizeof *(a)))
#define MAXC FLOE_MAX_COORD
#define BIG 1e12 /* the scene's largest coordinate or length (SY_MAX_COORD) */
/* A key's fields after kind and offset: range, unit, default, doc, and the rest zero. */
#define RANGE(lo, hi, lo_open, hi_open) lo, hi, lo_open, hi_open
#define ANY RANGE(-INFINITY, INFINITY, 1, 1)
#define NONE RANGE(0, 0, 0, 0)
#define REST(...) __VA_ARGS__, .set_offset = -1
#define SETS(...) __VA_ARGS__ /* the key sets another member (set_offset) */

static floe_status fail(char *why, size_t len, int *bad, int at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static floe_status fail(char *why, size_t len, int *bad, int at, const char *fmt, ...) {
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    if (bad) *bad = at;
    return FLOE_ERR_ARG;
}

/* ---- world ------------------------------------------------------------------------ */

#define W(m) (int)offsetof(floe_world_def, m)
static const floe_key world_keys[] = {
    {"gravity", FLOE_KEY_VEC3, W(gravity), RANGE(-MAXC, MAXC, 0, 0),
     REST("m/s^2", "[0, 0, 0]", "gravitational acceleration")},
    {"dt", FLOE_KEY_NUMBER, W(dt), RANGE(0, INFINITY, 1, 1),
     REST("s", "auto",
          "time step; auto: dt_safety x the critical step, from the contacts' stiffness and from the contacts the free "
          "bodies could make, exact for one contact ([integration](integration.md#time-step)), re-checked every "
          "dyn_dt_period steps and as soon as a new contact is too stiff for the step in use",
          .words = "auto=0")},
    {"dt_safety", FLOE_KEY_NUMBER, W(dt_safety), RANGE(0, 1, 1, 0),
     REST("", "0.1",
          "safety factor of the automatic time step. It sets the accuracy of impacts: an isolated impact takes dt/t_c "
          "= 2 dt_safety/pi steps of its contact time t_c and may gain or lose up to q/(1-q), q = dt_safety^2, of its "
          "energy: 1.0 % at 0.1 (15.7 steps per contact), 4.2 % at 0.2, 33 % at 0.5. Any value below 1 is stable "
          "([integration](integration.md#time-step-accuracy))")},
    {"dyn_dt_period", FLOE_KEY_INT, W(dyn_dt_period), RANGE(1, 1e9, 0, 0),
     REST("steps", "100", "steps between re-checks of the automatic time step and of the energy balance")},
    {"damping", FLOE_KEY_NUMBER, W(damping), RANGE(0, 1, 0, 1),
     REST("", "0", "Cundall non-viscous damping coefficient")},
    {"skin", FLOE_KEY_NUMBER, W(skin), ANY,
     REST("m", "-0.1", "Verlet skin of the neighbour search; negative: |skin| x the smallest sphere radius")},
    {"legacy_lens", FLOE_KEY_BOOL, W(legacy_lens), RANGE(0, 1, 0, 0),
     REST("", "false", "contact lengths r + uN/2 (Woo <= 2021) instead of r")},
    {"threads", FLOE_KEY_INT, W(threads), RANGE(0, FLOE_MAX_THREADS, 0, 0),
     REST(
         "", "0",
         "OpenMP threads; 0 = automatic: the idle cores (OMP_NUM_THREADS or all cores, minus the 1-minute load average "
         "of other processes), at most one thread per 4000 bodies. Results do not depend on the thread count")},
    {"renorm_period", FLOE_KEY_INT, W(renorm_period), RANGE(1, 1e9, 0, 0),
     REST("steps", "100", "steps between re-orthonormalisations of the contact frames")},
    {"dimension", FLOE_KEY_INT, W(dimension), RANGE(2, 3, 0, 0),
     REST("", "3",
          "2: a plane world: every body moves in the xy plane only (z, rotations about x and y blocked); models with a "
          "2D formulation (soft-bond) use it")},
    {"sphere_orientation", FLOE_KEY_BOOL, W(sphere_orientation), RANGE(0, 1, 0, 0),
     REST("", "true",
          "false: a sphere keeps the orientation it was given instead of turning with its spin. No force reads a "
          "sphere's orientation, so results are otherwise bitwise the same, and a granular step does 5-10 % less work "
          "([decision](decisions.md#sphere-orientation-only-when-wanted))")},
    {"energy_warn", FLOE_KEY_NUMBER, W(energy_warn), RANGE(0, INFINITY, 0, 1),
     REST("", "0.01",
          "the run says so once (a warning line, an energy_error event) when the energy balance error passes it, "
          "checked every dyn_dt_period steps; 0: never ([integration](integration.md#energy))")},
    {"dt_check", FLOE_KEY_OWN, -1, NONE,
     REST("", "error",
          "a given dt above the critical step stops the scene (error), or is only reported (warn) "
          "([checks](#checks-before-the-run)); the scene loader's own key",
          .words = "error=0,warn=1")},
};
#undef W
static const floe_key_table world_table = {"world", world_keys, NK(world_keys), NULL};

/* ---- sinks ------------------------------------------------------------------------ */

#define S(m) (int)offsetof(floe_sink_def, m)
static floe_status plane_check(void *def, const unsigned char *given, const char *where, char *why, size_t len,
                               int *bad) {
    (void)given;
    floe_sink_def *d = def;
    if (!(d->normal.x != 0 || d->normal.y != 0 || d->normal.z != 0))
        return fail(why, len, bad, 1, "%s.normal: the normal (pointing into the removed side) must not be zero", where);
    return FLOE_OK;
}
static const floe_key plane_keys[] = {
    {"point", FLOE_KEY_VEC3, S(point), RANGE(-BIG, BIG, 0, 0), REST("m", "required", "a point of the plane")},
    {"normal", FLOE_KEY_VEC3, S(normal), ANY,
     REST("", "required",
          "a direction: finite, not zero, any length (normalised, scaled by its largest component first)")},
};
static const floe_key_table plane_table = {"sinks.plane", plane_keys, NK(plane_keys), plane_check};

/* start [s] and end: 0 <= start <= end; keys k0 and k0 + 1 of the table. */
static floe_status window(double t0, double t1, const unsigned char *given, int k0, const char *where, char *why,
                          size_t len, int *bad) {
    if (given[k0 + 1] && !(t1 >= t0))
        return fail(why, len, bad, k0 + 1, "%s.end: end = %g s is before start = %g s", where, t1, t0);
    return FLOE_OK;
}

enum { SINK_BOX = 1, SINK_START = 4 };
static floe_status sink_check(void *def, const unsigned char *given, const char *where, char *why, size_t len,
                              int *bad) {
    floe_sink_def *d = def;
    if (!given[SINK_BOX] && !given[SINK_BOX + 1])
        return fail(why, len, bad, -1, "%s: give the region: box or plane", where);
    return window(d->t_start, d->t_end, given, SINK_START, where, why, len, bad);
}
static const floe_key sink_keys[] = {
    {"name", FLOE_KEY_NAME, -1, NONE,
     REST("", "required", "the sink's name, unique among sinks (an inlet's recycle names it)")},
    {"box", FLOE_KEY_BOX, S(lo), NONE,
     SETS("m", "-", "removes centres inside the box [[xmin, ymin, zmin], [xmax, ymax, zmax]]", .choice = "region",
          .set_offset = S(region), .set_value = FLOE_REGION_BOX)},
    {"plane", FLOE_KEY_MAP, -1, NONE,
     SETS("", "-", "removes centres on the side the normal points to", .choice = "region", .set_offset = S(region),
          .set_value = FLOE_REGION_HALFSPACE, .sub = &plane_table)},
    {"group", FLOE_KEY_GROUP, S(group), NONE, REST("", "every body", "only members of the group")},
    {"start", FLOE_KEY_NUMBER, S(t_start), RANGE(0, 1e15, 0, 0), REST("s", "0", "the sink works from this time ...")},
    {"end", FLOE_KEY_NUMBER, S(t_end), RANGE(0, INFINITY, 0, 0),
     REST("s", ".inf", "... until this time, at or after start")},
};
#undef S
static const floe_key_table sink_table = {"sinks", sink_keys, NK(sink_keys), sink_check};

/* ---- inlets ----------------------------------------------------------------------- */

#define I(m) (int)offsetof(floe_inlet_def, m)
static floe_status cylinder_check(void *def, const unsigned char *given, const char *where, char *why, size_t len,
                                  int *bad) {
    (void)given;
    floe_inlet_def *d = def;
    if (!(d->axis.x != 0 || d->axis.y != 0 || d->axis.z != 0))
        return fail(why, len, bad, 1, "%s.axis: the axis (its length is the cylinder's) must not be zero", where);
    return FLOE_OK;
}
static const floe_key cylinder_keys[] = {
    {"base", FLOE_KEY_VEC3, I(base), RANGE(-BIG, BIG, 0, 0), REST("m", "required", "centre of one end")},
    {"axis", FLOE_KEY_VEC3, I(axis), ANY,
     REST("m", "required", "to the other end's centre: the cylinder's length and direction, not zero")},
    {"radius", FLOE_KEY_NUMBER, I(radius), RANGE(0, BIG, 1, 0), REST("m", "required", "its radius")},
};
static const floe_key_table cylinder_table = {"inlets.cylinder", cylinder_keys, NK(cylinder_keys), cylinder_check};

enum { IN_BOX = 1, IN_RATE = 4, IN_START = 6, IN_RADIUS = 9, IN_RECYCLE = 18 };
static floe_status inlet_check(void *def, const unsigned char *given, const char *where, char *why, size_t len,
                               int *bad) {
    floe_inlet_def *d = def;
    if (!given[IN_BOX] && !given[IN_BOX + 1] && !given[IN_BOX + 2])
        return fail(why, len, bad, -1, "%s: give the region: box, cylinder or triangles", where);
    if (!given[IN_RATE] && !given[IN_RATE + 1] && !given[IN_RECYCLE])
        return fail(why, len, bad, -1, "%s: give rate (bodies/s) or mass_rate (kg/s), or recycle: a sink", where);
    floe_status st = window(d->t_start, d->t_end, given, IN_START, where, why, len, bad);
    if (st != FLOE_OK) return st;
    /* the size keys of the shape, and no other: radius, shaft, semi_axes */
    static const unsigned own[] = {[FLOE_SHAPE_SPHERE] = 1, [FLOE_SHAPE_CAPSULE] = 3, [FLOE_SHAPE_ELLIPSOID] = 4};
    static const char *const sizes[] = {"radius", "shaft", "semi_axes"};
    const char *shape = d->shape == FLOE_SHAPE_SPHERE    ? "sphere (radius)"
                        : d->shape == FLOE_SHAPE_CAPSULE ? "capsule (radius, shaft)"
                                                         : "ellipsoid (semi_axes)";
    for (int k = 0; k < 3; k++) {
        int mine = own[d->shape] >> k & 1u;
        if (given[IN_RADIUS + k] && !mine)
            return fail(why, len, bad, IN_RADIUS + k, "%s.%s: not a size of shape %s", where, sizes[k], shape);
        if (!given[IN_RADIUS + k] && mine)
            return fail(why, len, bad, -1, "missing required key '%s' in %s (a size of shape %s)", sizes[k], where,
                        shape);
    }
    return FLOE_OK;
}
static const floe_key inlet_keys[] = {
    {"name", FLOE_KEY_NAME, -1, NONE, REST("", "required", "the inlet's name, unique among inlets")},
    {"box", FLOE_KEY_BOX, I(lo), NONE,
     SETS("m", "-", "centres uniform in the box [[xmin, ymin, zmin], [xmax, ymax, zmax]]", .choice = "region",
          .set_offset = I(region), .set_value = FLOE_REGION_BOX)},
    {"cylinder", FLOE_KEY_MAP, -1, NONE,
     SETS("", "-", "centres uniform in the cylinder from base to base + axis", .choice = "region",
          .set_offset = I(region), .set_value = FLOE_REGION_CYLINDER, .sub = &cylinder_table)},
    {"triangles", FLOE_KEY_TRIANGLES, I(tri), RANGE(1, FLOE_INLET_MAX_TRIANGLES, 0, 0),
     SETS("m", "-",
          "a planar region or a mesh: centres uniform over the area of the triangles [[x, y, z], [x, y, z], [x, y, "
          "z]], each with an area",
          .choice = "region", .set_offset = I(region), .set_value = FLOE_REGION_TRIANGLES, .offset2 = I(ntri))},
    {"rate", FLOE_KEY_NUMBER, I(rate), RANGE(0, 1e12, 1, 0),
     SETS("bodies/s", "-", "count rate", .choice = "rate", .set_offset = I(by_mass), .set_value = 0)},
    {"mass_rate", FLOE_KEY_NUMBER, I(rate), RANGE(0, 1e12, 1, 0),
     SETS("kg/s", "-", "mass rate", .choice = "rate", .set_offset = I(by_mass), .set_value = 1)},
    {"start", FLOE_KEY_NUMBER, I(t_start), RANGE(0, 1e15, 0, 0), REST("s", "0", "the inlet works from this time ...")},
    {"end", FLOE_KEY_NUMBER, I(t_end), RANGE(0, INFINITY, 0, 0),
     REST("s", ".inf", "... until this time, at or after start")},
    {"shape", FLOE_KEY_ENUM, I(shape), NONE,
     REST("", "sphere", "what to insert", .words = "sphere=0,capsule=3,ellipsoid=4")},
    {"radius", FLOE_KEY_SIZE, I(size[0]), RANGE(0, BIG, 1, 0),
     REST("m", "-", "sphere or capsule radius (spheres and capsules: required)")},
    {"shaft", FLOE_KEY_SIZE, I(size[1]), RANGE(0, BIG, 1, 0), REST("m", "-", "capsule shaft (capsules: required)")},
    {"semi_axes", FLOE_KEY_SIZES3, I(size), RANGE(0, BIG, 1, 0),
     REST("m", "-",
          "[a, b, c], semi-axes along the body x, y, z axes, each drawn independently (ellipsoids: required)")},
    {"vel", FLOE_KEY_VEC3, I(vel), RANGE(-MAXC, MAXC, 0, 0), REST("m/s", "[0, 0, 0]", "initial velocity")},
    {"vel_spread", FLOE_KEY_NUMBER, I(vel_spread), RANGE(0, BIG, 0, 0),
     REST("m/s", "0", "each velocity component gets a uniform term in [-vel_spread, vel_spread]")},
    {"material", FLOE_KEY_MATERIAL, I(material), NONE,
     REST("", "the only one", "material of the bodies; required when more than one is declared")},
    {"group", FLOE_KEY_GROUPS, I(groups), NONE, REST("", "none", "groups of the bodies")},
    {"seed", FLOE_KEY_INT64, I(seed), RANGE(0, 9223372036854775807.0, 0, 0),
     REST("", "0", "seed of the inlet's random numbers")},
    {"max_tries", FLOE_KEY_INT, I(max_tries), RANGE(1, 1e6, 0, 0), REST("", "100", "centres tried per body")},
    {"recycle", FLOE_KEY_SINK, I(recycle), NONE,
     REST("", "none",
          "re-insert what that sink removes (its count; its mass with mass_rate, whose value is then unused) instead "
          "of a rate: a constant head; rate is then optional")},
};
#undef I
static const floe_key_table inlet_table = {"inlets", inlet_keys, NK(inlet_keys), inlet_check};

/* ---- lookup ----------------------------------------------------------------------- */

static const floe_key_table *const tables[] = {&world_table, &inlet_table,      &cylinder_table,        &sink_table,
                                               &plane_table, &floe__phase_keys, &floe__phase_start_keys};

int floe_key_table_count(void) { return NK(tables); }
const floe_key_table *floe_key_table_at(int i) { return i >= 0 && i < NK(tables) ? tables[i] : NULL; }
const floe_key_table *floe_key_table_find(const char *name) {
    for (int i = 0; name && i < NK(tables); i++)
        if (!strcmp(tables[i]->name, name)) return tables[i];
    return NULL;
}

int floe_key_index(const floe_key_table *t, const char *key) {
    for (int i = 0; t && key && i < t->n; i++)
        if (!strcmp(t->keys[i].key, key)) return i;
    return -1;
}

int floe_key_word(const floe_key *k, const char *word, double *v) {
    if (!k->words || !word) return 0;
    size_t n = strlen(word);
    for (const char *p = k->words; *p;) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if (eq && eq < end && (size_t)(eq - p) == n && !strncmp(p, word, n)) {
            if (v) sscanf(eq + 1, "%lf", v);
            return 1;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

int floe_key_in_range(const floe_key *k, double x) {
    return (k->min_open ? x > k->min : x >= k->min) && (k->max_open ? x < k->max : x <= k->max);
}

static void bound(char *buf, size_t len, double v) {
    if (isinf(v)) snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
    else if (v == 9223372036854775807.0) snprintf(buf, len, "2^63 - 1"); /* INT64_MAX, as a double */
    else if (v == floor(v) && fabs(v) >= 1e5) { /* 1e+09, or every digit where %g would round */
        snprintf(buf, len, "%g", v);
        if (strtod(buf, NULL) != v) snprintf(buf, len, "%.17g", v);
    } else snprintf(buf, len, "%.10g", v);
}

/* "sphere, capsule or ellipsoid" from "sphere=0,capsule=3,ellipsoid=4" */
static void word_list(const char *words, const char *q, char *buf, size_t len) {
    size_t k = 0;
    buf[0] = 0;
    int n = 1;
    for (const char *p = words; *p; p++) n += *p == ',';
    int i = 0;
    for (const char *p = words; *p && k + 1 < len; i++) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        int m = (int)((eq && eq < end ? eq : end) - p);
        int w = snprintf(buf + k, len - k, "%s%s%.*s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", q, m, p, q);
        if (w < 0) break;
        k += (size_t)w;
        p = *end ? end + 1 : end;
    }
}

void floe_key_range_text(const floe_key *k, char *buf, size_t len) {
    char a[32], b[32];
    bound(a, sizeof a, k->min);
    bound(b, sizeof b, k->max);
    switch (k->kind) {
        case FLOE_KEY_BOOL:
            snprintf(buf, len, "true or false");
            return;
        case FLOE_KEY_ENUM:
        case FLOE_KEY_OWN:
            if (k->words) word_list(k->words, "", buf, len);
            else snprintf(buf, len, "-");
            return;
        case FLOE_KEY_INT:
        case FLOE_KEY_INT64:
            if (k->max == k->min + 1) {
                snprintf(buf, len, "%s or %s", a, b);
                return;
            }
            break;
        case FLOE_KEY_NUMBER:
        case FLOE_KEY_VEC3:
        case FLOE_KEY_SIZE:
        case FLOE_KEY_SIZES3:
            if (k->min == -INFINITY && k->max == INFINITY && k->min_open && k->max_open) {
                snprintf(buf, len, "finite");
                return;
            }
            break;
        default:
            snprintf(buf, len, "-");
            return;
    }
    snprintf(buf, len, "%c%s, %s%c", k->min_open ? '(' : '[', a, b, k->max_open ? ')' : ']');
}

int floe_key_check_number(const floe_key *k, double x, const char *text, const char *where, char *buf, size_t len) {
    int whole = k->kind == FLOE_KEY_INT || k->kind == FLOE_KEY_INT64;
    if (whole && floe_key_in_range(k, x) && x != floor(x)) {
        snprintf(buf, len, "%s = %s must be an integer", where, text);
        return 1;
    }
    if (floe_key_in_range(k, x)) return 0;
    char r[64];
    floe_key_range_text(k, r, sizeof r);
    const char *u = k->unit && *k->unit ? k->unit : "";
    if (whole && k->max == k->min + 1) snprintf(buf, len, "%s = %s must be %s", where, text, r);
    else if (!strcmp(r, "finite")) snprintf(buf, len, "%s = %s%s%s must be finite", where, text, *u ? " " : "", u);
    else snprintf(buf, len, "%s = %s%s%s is out of range %s", where, text, *u ? " " : "", u, r);
    return 1;
}

void floe_key_words_text(const floe_key *k, char *buf, size_t len) {
    if (k->words) word_list(k->words, "'", buf, len);
    else if (len) buf[0] = 0;
}
