/* The scene's `inlets` and `sinks` sections (docs/scene-format.md#inlets-and-sinks):
 * each entry read, range-checked where it stands, and added through
 * floe_add_inlet / floe_add_sink, whose messages name the field otherwise. */
#include "io/scene_supply.h"
#include "io/scene_bodies.h"
#include "base/vec.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NKEYS(a) ((int)(sizeof(a) / sizeof *(a)))

/* A size: a number (fixed), a range [min, max] (uniform) or a distribution
 * {dist: ...} (scene_size_dist). */
static int size_of(scene_ctx *c, sy_node *n, const char *where, floe_size_dist *out) {
    sy_doc *d = c->d;
    memset(out, 0, sizeof *out);
    out->kind = FLOE_DIST_UNIFORM;
    if (sy_is_map(n)) return scene_size_dist(c, n, where, out);
    if (sy_is_seq(n)) {
        char p[SCENE_PATH];
        if (sy_seq_size(n) != 2)
            return sy_error(d, n, "%s: expected a size, a range [min, max] or a distribution {dist: ...}", where);
        if (sy_number_in(d, sy_seq_item(d, n, 0), scene_index(p, where, 0), &out->min, 0, SY_MAX_COORD, 1, 0) ||
            sy_number_in(d, sy_seq_item(d, n, 1), scene_index(p, where, 1), &out->max, 0, SY_MAX_COORD, 1, 0))
            return -1;
        if (out->min > out->max) return sy_error(d, n, "%s: min %g is above max %g", where, out->min, out->max);
        return 0;
    }
    if (sy_number_in(d, n, where, &out->min, 0, SY_MAX_COORD, 1, 0)) return -1;
    out->max = out->min;
    return 0;
}

static int box_of(scene_ctx *c, sy_node *n, const char *where, floe_vec3 *lo, floe_vec3 *hi) {
    sy_doc *d = c->d;
    char q[SCENE_PATH];
    if (!sy_is_seq(n) || sy_seq_size(n) != 2)
        return sy_error(d, n, "%s: expected two corners [[xmin, ymin, zmin], [xmax, ymax, zmax]]", where);
    if (sy_point(d, sy_seq_item(d, n, 0), scene_index(q, where, 0), lo) ||
        sy_point(d, sy_seq_item(d, n, 1), scene_index(q, where, 1), hi))
        return -1;
    if (!(lo->x <= hi->x && lo->y <= hi->y && lo->z <= hi->z))
        return sy_error(d, n, "%s: the first corner must not be above the second on any axis", where);
    return 0;
}

/* start and end [s]: 0 <= start <= end (end may be .inf). */
static int window(scene_ctx *c, sy_node *map, const char *where, double *t0, double *t1) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    *t0 = 0;
    *t1 = INFINITY;
    if ((n = sy_get(d, map, "start")) && sy_number_in(d, n, scene_path(p, where, "start"), t0, 0, 1e15, 0, 0))
        return -1;
    if ((n = sy_get(d, map, "end")) && sy_number(d, n, scene_path(p, where, "end"), t1)) return -1;
    if (n && !(*t1 >= *t0))
        return sy_error(d, n, "%s: end = %g s is before start = %g s", scene_path(p, where, "end"), *t1, *t0);
    return 0;
}

static int name_of(scene_ctx *c, sy_node *map, const char *where, const char **name) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n = sy_get(d, map, "name");
    if (!n) return sy_missing(d, map, where, "name");
    if (sy_str(d, n, scene_path(p, where, "name"), name)) return -1;
    if (!**name || strlen(*name) >= 64) return sy_error(d, n, "%s: a name of 1 to 63 characters", p);
    return 0;
}

/* Exactly one of the keys `which` (n of them) in the map; its index, or -1. */
static int one_of(scene_ctx *c, sy_node *map, const char *where, const char *const *which, int n, const char *what) {
    int found = -1;
    for (int k = 0; k < n; k++)
        if (sy_get(c->d, map, which[k])) {
            if (found >= 0)
                return sy_error(c->d, sy_get(c->d, map, which[k]), "%s: give one %s: %s or %s, not both", where, what,
                                which[found], which[k]),
                       -2;
            found = k;
        }
    return found;
}

static int inlet(scene_ctx *c, sy_node *e, const char *where) {
    static const char *const keys[] = {"name",      "box",       "cylinder",  "triangles",  "rate",
                                       "mass_rate", "start",     "end",       "shape",      "radius",
                                       "shaft",     "semi_axes", "vel",       "vel_spread", "material",
                                       "group",     "seed",      "max_tries", "recycle"};
    static const char *const regions[] = {"box", "cylinder", "triangles"};
    static const char *const rates[] = {"rate", "mass_rate"};
    sy_doc *d = c->d;
    char p[SCENE_PATH], q[SCENE_PATH];
    sy_node *n;
    const char *name;
    if (sy_want_map(d, e, where) || sy_check_keys(d, e, where, keys, NKEYS(keys)) || name_of(c, e, where, &name))
        return -1;
    floe_inlet_def def = floe_default_inlet_def();
    int r = one_of(c, e, where, regions, 3, "region");
    if (r == -2) return -1;
    if (r < 0) return sy_error(d, e, "%s: give the region: box, cylinder or triangles", where);
    n = sy_get(d, e, regions[r]);
    scene_path(p, where, regions[r]);
    if (r == 0) {
        def.region = FLOE_REGION_BOX;
        if (box_of(c, n, p, &def.lo, &def.hi)) return -1;
    } else if (r == 1) {
        static const char *const ck[] = {"base", "axis", "radius"};
        def.region = FLOE_REGION_CYLINDER;
        sy_node *k;
        if (sy_want_map(d, n, p) || sy_check_keys(d, n, p, ck, 3)) return -1;
        if (!(k = sy_get(d, n, "base")) || sy_point(d, k, scene_path(q, p, "base"), &def.base))
            return k ? -1 : sy_missing(d, n, p, "base");
        if (!(k = sy_get(d, n, "axis")) || sy_vec3(d, k, scene_path(q, p, "axis"), &def.axis))
            return k ? -1 : sy_missing(d, n, p, "axis");
        if (!(def.axis.x != 0 || def.axis.y != 0 || def.axis.z != 0))
            return sy_error(d, k, "%s: the axis (its length is the cylinder's) must not be zero", q);
        if (!(k = sy_get(d, n, "radius")) ||
            sy_number_in(d, k, scene_path(q, p, "radius"), &def.radius, 0, SY_MAX_COORD, 1, 0))
            return k ? -1 : sy_missing(d, n, p, "radius");
    } else {
        def.region = FLOE_REGION_TRIANGLES;
        if (!sy_is_seq(n) || sy_seq_size(n) < 1 || sy_seq_size(n) > FLOE_INLET_MAX_TRIANGLES)
            return sy_error(d, n, "%s: expected a list of 1 to %d triangles [[x, y, z], [x, y, z], [x, y, z]]", p,
                            FLOE_INLET_MAX_TRIANGLES);
        def.ntri = sy_seq_size(n);
        for (int t = 0; t < def.ntri; t++) {
            sy_node *tn = sy_seq_item(d, n, t);
            scene_index(q, p, t);
            if (!sy_is_seq(tn) || sy_seq_size(tn) != 3)
                return sy_error(d, tn, "%s: expected three vertices [[x, y, z], [x, y, z], [x, y, z]]", q);
            for (int j = 0; j < 3; j++) {
                char v[SCENE_PATH];
                if (sy_point(d, sy_seq_item(d, tn, j), scene_index(v, q, j), &def.tri[t][j])) return -1;
            }
        }
    }
    int rk = one_of(c, e, where, rates, 2, "rate");
    if (rk == -2) return -1;
    if ((n = sy_get(d, e, "recycle"))) { /* re-insert what a sink removes: by count, or by mass with mass_rate */
        const char *sname;
        if (sy_str(d, n, scene_path(p, where, "recycle"), &sname)) return -1;
        def.recycle = floe_find_sink(c->w, sname);
        if (def.recycle < 0) return sy_error(d, n, "%s: no sink named '%s' (sinks: the `sinks` section)", p, sname);
        def.by_mass = rk == 1;
    } else if (rk < 0) {
        return sy_error(d, e, "%s: give rate (bodies/s) or mass_rate (kg/s), or recycle: a sink", where);
    }
    if (rk >= 0) {
        def.by_mass = rk == 1;
        n = sy_get(d, e, rates[rk]);
        if (sy_number_in(d, n, scene_path(p, where, rates[rk]), &def.rate, 0, 1e12, 1, 0)) return -1;
    }
    if (window(c, e, where, &def.t_start, &def.t_end)) return -1;
    def.shape = FLOE_SHAPE_SPHERE;
    if ((n = sy_get(d, e, "shape"))) {
        const char *s;
        if (sy_str(d, n, scene_path(p, where, "shape"), &s)) return -1;
        if (!strcmp(s, "capsule")) def.shape = FLOE_SHAPE_CAPSULE;
        else if (!strcmp(s, "ellipsoid")) def.shape = FLOE_SHAPE_ELLIPSOID;
        else if (strcmp(s, "sphere"))
            return sy_error(d, n, "%s: unknown shape '%s'; allowed: sphere, capsule, ellipsoid", p, s);
    }
    /* the size keys of the shape, and no other */
    const char *own[3] = {"radius", def.shape == FLOE_SHAPE_CAPSULE ? "shaft" : NULL, NULL};
    if (def.shape == FLOE_SHAPE_ELLIPSOID) own[0] = "semi_axes";
    static const char *const sizes[] = {"radius", "shaft", "semi_axes"};
    for (int k = 0; k < 3; k++) {
        int mine = (own[0] && !strcmp(sizes[k], own[0])) || (own[1] && !strcmp(sizes[k], own[1]));
        n = sy_get(d, e, sizes[k]);
        if (!n && mine) return sy_missing(d, e, where, sizes[k]);
        if (n && !mine)
            return sy_error(d, n, "%s: not a size of shape %s", scene_path(p, where, sizes[k]),
                            def.shape == FLOE_SHAPE_SPHERE    ? "sphere (radius)"
                            : def.shape == FLOE_SHAPE_CAPSULE ? "capsule (radius, shaft)"
                                                              : "ellipsoid (semi_axes)");
    }
    if (def.shape == FLOE_SHAPE_ELLIPSOID) {
        n = sy_get(d, e, "semi_axes");
        scene_path(p, where, "semi_axes");
        if (!sy_is_seq(n) || sy_seq_size(n) != 3)
            return sy_error(d, n, "%s: expected 3 semi-axes [a, b, c], each a size, a range or a distribution", p);
        for (int k = 0; k < 3; k++)
            if (size_of(c, sy_seq_item(d, n, k), scene_index(q, p, k), &def.size[k])) return -1;
    } else {
        if (size_of(c, sy_get(d, e, "radius"), scene_path(p, where, "radius"), &def.size[0])) return -1;
        if (def.shape == FLOE_SHAPE_CAPSULE &&
            size_of(c, sy_get(d, e, "shaft"), scene_path(p, where, "shaft"), &def.size[1]))
            return -1;
    }
    if ((n = sy_get(d, e, "vel")) && sy_vec3(d, n, scene_path(p, where, "vel"), &def.vel)) return -1;
    if ((n = sy_get(d, e, "vel_spread")) &&
        sy_number_in(d, n, scene_path(p, where, "vel_spread"), &def.vel_spread, 0, SY_MAX_COORD, 0, 0))
        return -1;
    if (scene_material(c, e, where, &def.material)) return -1;
    if ((n = sy_get(d, e, "group")) && scene_groups(c, n, scene_path(p, where, "group"), &def.groups)) return -1;
    int64_t v;
    if ((n = sy_get(d, e, "seed"))) {
        if (sy_int(d, n, scene_path(p, where, "seed"), &v, 0, INT64_MAX)) return -1;
        def.seed = (uint64_t)v;
    }
    if ((n = sy_get(d, e, "max_tries"))) {
        if (sy_int(d, n, scene_path(p, where, "max_tries"), &v, 1, 1000000)) return -1;
        def.max_tries = (int)v;
    }
    if (floe_find_inlet(c->w, name) >= 0)
        return sy_error(d, sy_get(d, e, "name"), "%s.name: inlet '%s' is defined twice", where, name);
    if (floe_add_inlet(c->w, name, &def) < 0) return scene_world_error(c, e, where);
    return 0;
}

static int sink(scene_ctx *c, sy_node *e, const char *where) {
    static const char *const keys[] = {"name", "box", "plane", "group", "start", "end"};
    static const char *const regions[] = {"box", "plane"};
    sy_doc *d = c->d;
    char p[SCENE_PATH], q[SCENE_PATH];
    sy_node *n;
    const char *name;
    if (sy_want_map(d, e, where) || sy_check_keys(d, e, where, keys, NKEYS(keys)) || name_of(c, e, where, &name))
        return -1;
    floe_sink_def def = floe_default_sink_def();
    int r = one_of(c, e, where, regions, 2, "region");
    if (r == -2) return -1;
    if (r < 0) return sy_error(d, e, "%s: give the region: box or plane", where);
    n = sy_get(d, e, regions[r]);
    scene_path(p, where, regions[r]);
    if (r == 0) {
        def.region = FLOE_REGION_BOX;
        if (box_of(c, n, p, &def.lo, &def.hi)) return -1;
    } else {
        static const char *const pk[] = {"point", "normal"};
        def.region = FLOE_REGION_HALFSPACE;
        sy_node *k;
        if (sy_want_map(d, n, p) || sy_check_keys(d, n, p, pk, 2)) return -1;
        if (!(k = sy_get(d, n, "point")) || sy_point(d, k, scene_path(q, p, "point"), &def.point))
            return k ? -1 : sy_missing(d, n, p, "point");
        if (!(k = sy_get(d, n, "normal")) || sy_vec3(d, k, scene_path(q, p, "normal"), &def.normal))
            return k ? -1 : sy_missing(d, n, p, "normal");
        if (!(def.normal.x != 0 || def.normal.y != 0 || def.normal.z != 0))
            return sy_error(d, k, "%s: the normal (pointing into the removed side) must not be zero", q);
    }
    if ((n = sy_get(d, e, "group"))) {
        uint32_t mask = 0;
        if (sy_is_seq(n)) return sy_error(d, n, "%s: one group name", scene_path(p, where, "group"));
        if (scene_groups(c, n, scene_path(p, where, "group"), &mask)) return -1;
        def.group = __builtin_ctz(mask);
    }
    if (window(c, e, where, &def.t_start, &def.t_end)) return -1;
    if (floe_find_sink(c->w, name) >= 0)
        return sy_error(d, sy_get(d, e, "name"), "%s.name: sink '%s' is defined twice", where, name);
    if (floe_add_sink(c->w, name, &def) < 0) return scene_world_error(c, e, where);
    return 0;
}

int scene_supply(scene_ctx *c, sy_node *root) {
    sy_doc *d = c->d;
    static const char *const secs[] = {"sinks", "inlets"}; /* sinks first: an inlet may recycle one */
    for (int s = 0; s < 2; s++) {
        sy_node *sec = sy_get(d, root, secs[s]);
        if (!sec) continue;
        if (sy_want_seq(d, sec, secs[s])) return -1;
        for (int i = 0; i < sy_seq_size(sec); i++) {
            char p[SCENE_PATH];
            scene_index(p, secs[s], i);
            if ((s ? inlet : sink)(c, sy_seq_item(d, sec, i), p)) return -1;
        }
    }
    return 0;
}

/* The largest mass a body of the inlet can have: its sizes at their
 * largest, at the material's density. */
static double largest_mass(scene_ctx *c, const floe_inlet_def *d) {
    double a[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) a[k] = floe__size_max(&d->size[k]);
    double rho = floe_material_get(c->w, d->material, "density"), v;
    if (d->shape == FLOE_SHAPE_CAPSULE) v = FLOE_PI * a[0] * a[0] * (a[1] + 4.0 / 3.0 * a[0]);
    else if (d->shape == FLOE_SHAPE_ELLIPSOID) v = 4.0 / 3.0 * FLOE_PI * a[0] * a[1] * a[2];
    else v = 4.0 / 3.0 * FLOE_PI * a[0] * a[0] * a[0];
    return rho * v;
}

int scene_supply_budget(scene_ctx *c, const floe_scene *s) {
    sy_doc *d = c->d;
    sy_node *sec = sy_get(d, sy_root(d), "inlets");
    if (!sec || !(s->steps > 0 || s->duration > 0)) return 0; /* no run length: the engine's checks apply */
    const int given = !floe_dt_is_auto(c->w);
    const double dt = floe_dt(c->w);
    /* the run's end time: certain with run.time, or steps of a given dt */
    double end = s->duration > 0 ? s->duration : given ? (double)s->steps * dt : NAN;
    double total = c->count; /* particles of the scene */
    for (int i = 0; i < sy_seq_size(sec) && i < floe_inlet_count(c->w); i++) {
        floe_inlet_def def;
        if (floe_inlet_get(c->w, i, NULL, &def) != FLOE_OK || def.recycle >= 0) continue;
        sy_node *item = sy_seq_item(d, sec, i), *at = sy_get(d, item, def.by_mass ? "mass_rate" : "rate");
        char where[SCENE_PATH], p[SCENE_PATH];
        scene_path(p, scene_index(where, "inlets", i), def.by_mass ? "mass_rate" : "rate");
        if (!at) continue;
        const double body = def.by_mass ? largest_mass(c, &def) : 1; /* bodies per unit of the rate, at least */
        const char *unit = def.by_mass ? "kg/s" : "bodies/s";
        if (!(def.t_start < (isnan(end) ? INFINITY : end))) continue; /* never works in this run */
        /* after one step */
        double step = def.rate * dt * (1 - 1e-12) / body;
        if (given && step >= FLOE_INLET_MAX_STEP + 1.0)
            return sy_error(d, at,
                            "%s: %g %s x dt %g s asks for %s%.4g bodies after each step, more than the %d an inlet "
                            "may add after one step (FLOE_INLET_MAX_STEP); lower the rate or dt",
                            p, def.rate, unit, dt, def.by_mass ? "at least " : "", step, FLOE_INLET_MAX_STEP);
        /* over the run, with what the scene holds: the memory guard */
        if (isnan(end)) continue;
        double active = fmin(def.t_end, end) - def.t_start, bodies = floor(def.rate * active * (1 - 1e-12) / body);
        if (!(bodies > 0)) continue;
        total += bodies;
        double bytes = total * SCENE_BYTES_PER_PARTICLE;
        if (total > SCENE_MAX_PARTICLES || bytes > c->max_bytes)
            return sy_error(d, at,
                            "%s: %g %s over the %g s it works in this run asks for %s%.4g bodies, so the world would "
                            "grow to %.4g particles, needing about %.1f GiB of memory (limits: %.0f particles, "
                            "%.3g GiB); lower the rate, shorten the inlet's window (end) or the run",
                            p, def.rate, unit, active, def.by_mass ? "at least " : "", bodies, total,
                            bytes / (1024.0 * 1024 * 1024), SCENE_MAX_PARTICLES, c->max_bytes / (1024.0 * 1024 * 1024));
    }
    return 0;
}
