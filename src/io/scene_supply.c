/* The scene's `inlets` and `sinks` sections (docs/scene-format.md#inlets-and-sinks):
 * each entry read through its key table (scene_keys.c), range-checked where
 * it stands, and added through floe_add_inlet / floe_add_sink, whose
 * messages name the field otherwise; the inlets' budgets. */
#include "io/scene_supply.h"
#include "io/scene_keys.h"
#include "base/vec.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One entry of `inlets` or `sinks`, read through its key table
 * (src/core/keys.c) and added to the world. */
static int entry(scene_ctx *c, sy_node *e, const char *where, int inlet) {
    const char *name = NULL;
    unsigned char given[64];
    floe_inlet_def in = floe_default_inlet_def();
    floe_sink_def sk = floe_default_sink_def();
    void *def = inlet ? (void *)&in : (void *)&sk;
    if (scene_keys(c, e, where, floe_key_table_find(inlet ? "inlets" : "sinks"), def, given, &name)) return -1;
    const char *what = inlet ? "inlet" : "sink";
    if ((inlet ? floe_find_inlet(c->w, name) : floe_find_sink(c->w, name)) >= 0)
        return sy_error(c->d, sy_get(c->d, e, "name"), "%s.name: %s '%s' is defined twice", where, what, name);
    if ((inlet ? floe_add_inlet(c->w, name, &in) : floe_add_sink(c->w, name, &sk)) < 0)
        return scene_world_error(c, e, where);
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
            if (entry(c, sy_seq_item(d, sec, i), p, s)) return -1;
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
