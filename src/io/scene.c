/* Scene loader: YAML file -> world + run length + output settings.
 *
 * Order of work (docs/scene-format.md, "Processing order"):
 *   world -> materials -> models -> interactions -> groups
 *   -> pass 0 over the body sections (validate, read STL files, count
 *      particles and refuse absurd sizes before anything big is allocated)
 *   -> methods (groups are known now) -> run -> output (needs the particle count;
 *      its regions and plane counters come before the history columns)
 *   -> pass 1 over the body sections (add to the world)
 *   -> group motions -> run length in steps -> output defaults.
 * Nothing is left behind on error: the world is destroyed, *scene zeroed. */
#include "io/scene.h"
#include "io/scene_bodies.h"
#include "io/scene_keys.h"
#include "io/scene_check.h"
#include "io/scene_output.h"
#include "io/scene_periodic.h"
#include "io/scene_phases.h"
#include "io/scene_supply.h"
#include <floe/floe_shape.h>

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Entries of a static array. */
#define SCENE_LEN(a) ((int)(sizeof(a) / sizeof *(a)))

static int model_by_name(scene_ctx *c, sy_node *n, const char *where, const floe_model_info **out) {
    const char *name;
    if (sy_str(c->d, n, where, &name)) return -1;
    const floe_model_info *info = floe_model_find(name);
    if (info) {
        *out = info;
        return 0;
    }
    int nm = floe_model_count();
    const char **names = malloc(sizeof *names * (size_t)(nm ? nm : 1));
    char hint[512] = "";
    if (names) {
        for (int i = 0; i < nm; i++) names[i] = floe_model_get(i)->name;
        scene_name_hint(hint, sizeof hint, name, names, nm, "models");
        free(names);
    }
    return sy_error(c->d, n, "%s: unknown contact model '%s'%s", where, name, hint);
}

/* Allowed keys = fixed ones + the keys of a parameter schema. */
static const char **schema_keys(const char *const *fixed, int nf, const floe_param_spec *ps, int np, int *n) {
    const char **k = malloc(sizeof *k * (size_t)(nf + np + 1));
    if (!k) return NULL;
    for (int i = 0; i < nf; i++) k[i] = fixed[i];
    for (int i = 0; i < np; i++) k[nf + i] = ps[i].key;
    *n = nf + np;
    return k;
}

static const floe_param_spec *find_spec(const floe_param_spec *ps, int n, const char *key) {
    for (int i = 0; i < n; i++)
        if (!strcmp(ps[i].key, key)) return &ps[i];
    return NULL;
}

/* ---- world ------------------------------------------------------------------ */

static int parse_world(scene_ctx *c, sy_node *sec, floe_world_def *def) {
    sy_doc *d = c->d;
    const floe_key_table *t = floe_key_table_find("world");
    unsigned char given[64];
    c->world_node = sec;
    if (scene_keys(c, sec, "world", t, def, given, NULL)) return -1;
    c->dt_node = sy_get(d, sec, "dt");
    sy_node *n = sy_get(d, sec, "dt_check"); /* the loader's own key */
    if (n) {
        double v;
        const char *s = n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
        if (!s || !floe_key_word(&t->keys[floe_key_index(t, "dt_check")], s, &v))
            return sy_error(d, n,
                            "world.dt_check: expected 'error' (a given dt above the critical step stops the scene, "
                            "the default) or 'warn' (it is only reported), got '%s'",
                            s ? s : "a non-scalar");
        c->dt_check_warn = v == 1;
    }
    return 0;
}

/* ---- water ------------------------------------------------------------------------ */

/* The `water` section (docs/scene-format.md#water): each key sets the field of
 * floe_water_def of the same name; the API checks the ranges, and its message
 * is reported at the section. */
static int parse_water(scene_ctx *c, sy_node *sec, double gz) {
    static const char *const keys[] = {"level",           "density",     "current", "skin_drag", "form_drag",
                                       "rotational_drag", "air_density", "wind",    "wind_drag"};
    sy_doc *d = c->d;
    if (sy_want_map(d, sec, "water")) return -1;
    if (sy_check_keys(d, sec, "water", keys, (int)(sizeof keys / sizeof *keys))) return -1;
    floe_water_def wd = floe_default_water_def();
    double *nums[] = {&wd.level,           &wd.density,     NULL, &wd.skin_drag, &wd.form_drag,
                      &wd.rotational_drag, &wd.air_density, NULL, &wd.wind_drag};
    for (int k = 0; k < (int)(sizeof keys / sizeof *keys); k++) {
        sy_node *n = sy_get(d, sec, keys[k]);
        if (!n) continue;
        char where[64];
        snprintf(where, sizeof where, "water.%s", keys[k]);
        if (nums[k] ? sy_number(d, n, where, nums[k]) : sy_vec3(d, n, where, k == 2 ? &wd.current : &wd.wind))
            return -1;
    }
    if (floe_world_set_water(c->w, &wd) != FLOE_OK) return scene_world_error(c, sec, "water");
    if (!(gz < 0))
        scene_warn(c, sec,
                   "water: world.gravity has no downward z component (%g m/s^2): nothing floats or sinks, only "
                   "drag and wind act",
                   gz);
    return 0;
}

/* ---- materials, models, interactions ------------------------------------------- */

static int parse_materials(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_seq(d, sec, "materials")) return -1;
    static const char *const fixed[] = {"name", "model"};
    for (int i = 0; i < sy_seq_size(sec); i++) {
        sy_node *item = sy_seq_item(d, sec, i);
        char where[SCENE_PATH], p[SCENE_PATH];
        scene_index(where, "materials", i);
        if (sy_want_map(d, item, where)) return -1;
        /* The model decides which keys are allowed, so read it first. */
        sy_node *mn = sy_get(d, item, "model");
        const floe_model_info *info = floe_model_find("linear");
        if (mn && model_by_name(c, mn, scene_path(p, where, "model"), &info)) return -1;
        if (!info) return sy_missing(d, item, where, "model");
        sy_node *nn = sy_get(d, item, "name");
        const char *name;
        if (!nn) return sy_missing(d, item, where, "name");
        if (sy_str(d, nn, scene_path(p, where, "name"), &name)) return -1;
        if (floe_find_material(c->w, name) >= 0) return sy_error(d, nn, "%s: material '%s' is declared twice", p, name);
        int id = floe_add_material(c->w, name, info->name);
        if (id < 0) return scene_world_error(c, nn, p);
        /* Allowed: the schema's keys, a parameter's former name
         * (docs/decisions.md#one-name-for-friction) and the common rows (the
         * Linear model's schema) that the model does not read but its
         * materials keep for a mixed pair's Linear model: those with a value
         * (docs/decisions.md#one-common-material-block-and-one-mixing-rule). */
        const floe_model_info *common = floe_model_find("linear");
        const char **keys = malloc(sizeof *keys * (size_t)(2 + info->n_mat_params + sy_map_size(item)));
        if (!keys) return sy_error(d, item, "out of memory");
        int nk = 0;
        for (int k = 0; k < 2; k++) keys[nk++] = fixed[k];
        for (int k = 0; k < info->n_mat_params; k++) keys[nk++] = info->mat_params[k].key;
        for (int k = 0; k < sy_map_size(item); k++) {
            sy_node *kn = sy_map_key(d, item, k);
            const char *key = kn->type == YAML_SCALAR_NODE ? (const char *)kn->data.scalar.value : "";
            const char *now = floe_param_alias(info->name, key);
            if (now && sy_get(d, item, now)) { /* a former name (warned below), not beside its current one */
                free((void *)keys);
                return sy_error(d, kn, "%s: give %s or its former name %s, not both", scene_path(p, where, key), now,
                                key);
            }
            if (now ||
                (!find_spec(info->mat_params, info->n_mat_params, key) &&
                 find_spec(common->mat_params, common->n_mat_params, key) && !isnan(floe_material_get(c->w, id, key))))
                keys[nk++] = key;
        }
        int bad = sy_check_keys(d, item, where, keys, nk);
        free((void *)keys);
        if (bad) return -1;
        for (int k = 0; k < sy_map_size(item); k++) {
            const char *key = (const char *)sy_map_key(d, item, k)->data.scalar.value;
            const char *now = floe_param_alias(info->name, key);
            const floe_param_spec *spec = find_spec(info->mat_params, info->n_mat_params, now ? now : key);
            int unread = !spec && strcmp(key, "name") && strcmp(key, "model");
            if (unread) spec = find_spec(common->mat_params, common->n_mat_params, key);
            sy_node *vn = sy_map_value(d, item, k);
            double v;
            if (!spec) continue; /* name, model */
            scene_path(p, where, key);
            if (now && scene_warn(c, sy_map_key(d, item, k),
                                  "%s: '%s' is the former name of model %s's '%s' (the name linear and hertz use "
                                  "too); rename it",
                                  p, key, info->name, now))
                return -1;
            if (scene_param(c, vn, p, spec, &v)) return -1;
            if (unread)
                scene_warn(c, vn,
                           "%s: model %s does not read %s; only the Linear model of a contact with another "
                           "model's material does",
                           p, info->name, key);
            if (floe_material_set(c->w, id, key, v) != FLOE_OK) return scene_world_error(c, vn, p);
        }
    }
    return 0;
}

/* Law parameters of one mapping (model defaults or a pair override). */
static int set_law_params(scene_ctx *c, sy_node *map, const char *where, const floe_model_info *info, int ma, int mb) {
    sy_doc *d = c->d;
    for (int k = 0; k < sy_map_size(map); k++) {
        const char *key = (const char *)sy_map_key(d, map, k)->data.scalar.value;
        const floe_param_spec *spec = find_spec(info->law_params, info->n_law_params, key);
        if (!spec) continue;
        sy_node *vn = sy_map_value(d, map, k);
        char p[SCENE_PATH];
        double v;
        scene_path(p, where, key);
        if (scene_param(c, vn, p, spec, &v)) return -1;
        floe_status st = ma < 0 ? floe_model_set(c->w, info->name, key, v) : floe_pair_set(c->w, ma, mb, key, v);
        if (st != FLOE_OK) return scene_world_error(c, vn, p);
    }
    return 0;
}

static int parse_models(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    int nm = floe_model_count();
    const char **names = malloc(sizeof *names * (size_t)(nm ? nm : 1));
    if (!names) return sy_error(d, sec, "out of memory");
    for (int i = 0; i < nm; i++) names[i] = floe_model_get(i)->name;
    int bad = sy_check_keys(d, sec, "models", names, nm);
    free((void *)names);
    if (bad) return -1;
    for (int i = 0; i < sy_map_size(sec); i++) {
        const char *model = (const char *)sy_map_key(d, sec, i)->data.scalar.value;
        const floe_model_info *info = floe_model_find(model);
        sy_node *params = sy_map_value(d, sec, i);
        char where[SCENE_PATH];
        scene_path(where, "models", model);
        int nk;
        const char **keys = schema_keys(NULL, 0, info->law_params, info->n_law_params, &nk);
        if (!keys) return sy_error(d, sec, "out of memory");
        bad = sy_check_keys(d, params, where, keys, nk);
        free((void *)keys);
        if (bad || set_law_params(c, params, where, info, -1, -1)) return -1;
    }
    return 0;
}

static int parse_interactions(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_seq(d, sec, "interactions")) return -1;
    static const char *const fixed[] = {"materials", "model"};
    int n = sy_seq_size(sec);
    int(*pairs)[2] = malloc(sizeof *pairs * (size_t)(n ? n : 1));
    if (!pairs) return sy_error(d, sec, "out of memory");
    int rc = -1;
    for (int i = 0; i < n; i++) {
        sy_node *item = sy_seq_item(d, sec, i);
        char where[SCENE_PATH], p[SCENE_PATH];
        scene_index(where, "interactions", i);
        if (sy_want_map(d, item, where)) goto done;
        sy_node *mn = sy_get(d, item, "model");
        const floe_model_info *info;
        if (!mn) {
            sy_missing(d, item, where, "model");
            goto done;
        }
        if (model_by_name(c, mn, scene_path(p, where, "model"), &info)) goto done;
        int nk;
        const char **keys = schema_keys(fixed, 2, info->law_params, info->n_law_params, &nk);
        if (!keys) {
            sy_error(d, item, "out of memory");
            goto done;
        }
        int bad = sy_check_keys(d, item, where, keys, nk);
        free((void *)keys);
        if (bad) goto done;
        sy_node *pn = sy_get(d, item, "materials");
        if (!pn) {
            sy_missing(d, item, where, "materials");
            goto done;
        }
        scene_path(p, where, "materials");
        if (!sy_is_seq(pn) || sy_seq_size(pn) != 2) {
            sy_error(d, pn, "%s: expected a list of 2 material names [a, b]", p);
            goto done;
        }
        int m[2];
        for (int k = 0; k < 2; k++) {
            char q[SCENE_PATH];
            if (scene_material_by_name(c, sy_seq_item(d, pn, k), scene_index(q, p, k), &m[k])) goto done;
        }
        for (int j = 0; j < i; j++)
            if ((pairs[j][0] == m[0] && pairs[j][1] == m[1]) || (pairs[j][0] == m[1] && pairs[j][1] == m[0])) {
                sy_error(d, pn, "%s: the pair %s-%s is already given in interactions[%d]", p,
                         floe_material_name(c->w, m[0]), floe_material_name(c->w, m[1]), j);
                goto done;
            }
        pairs[i][0] = m[0];
        pairs[i][1] = m[1];
        if (floe_pair_set_model(c->w, m[0], m[1], info->name) != FLOE_OK) {
            scene_world_error(c, mn, where);
            goto done;
        }
        if (set_law_params(c, item, where, info, m[0], m[1])) goto done;
    }
    rc = 0;
done:
    free(pairs);
    return rc;
}

/* ---- groups ---------------------------------------------------------------------- */

static int parse_groups(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_seq(d, sec, "groups")) return -1;
    static const char *const keys[] = {"name", "velocity", "angular_velocity", "start", "end", "phases", "load"};
    for (int i = 0; i < sy_seq_size(sec); i++) {
        sy_node *item = sy_seq_item(d, sec, i);
        char where[SCENE_PATH], p[SCENE_PATH];
        scene_index(where, "groups", i);
        if (sy_check_keys(d, item, where, keys, 7)) return -1;
        sy_node *nn = sy_get(d, item, "name");
        const char *name;
        if (!nn) return sy_missing(d, item, where, "name");
        if (sy_str(d, nn, scene_path(p, where, "name"), &name)) return -1;
        if (floe_find_group(c->w, name) >= 0) return sy_error(d, nn, "%s: group '%s' is declared twice", p, name);
        int g = floe_add_group(c->w, name);
        if (g < 0) return scene_world_error(c, nn, p);
        floe_motion m = floe_default_motion();
        sy_node *vn = sy_get(d, item, "velocity"), *an = sy_get(d, item, "angular_velocity");
        sy_node *sn = sy_get(d, item, "start"), *en = sy_get(d, item, "end");
        int has = vn || an || sn || en;
        if (vn && sy_vec3(d, vn, scene_path(p, where, "velocity"), &m.vel)) return -1;
        if (an && sy_vec3(d, an, scene_path(p, where, "angular_velocity"), &m.angvel)) return -1;
        if (sn && sy_number_in(d, sn, scene_path(p, where, "start"), &m.t_start, 0, INFINITY, 0, 1)) return -1;
        if (en && sy_number_in(d, en, scene_path(p, where, "end"), &m.t_end, m.t_start, INFINITY, 1, 0)) return -1;
        scene_motion *sm = &c->motions[c->n_motions];
        memset(sm, 0, sizeof *sm);
        if (scene_group_phases(c, item, where, sm)) return -1;
        if (sm->nphases && has)
            return sy_error(d,
                            vn   ? vn
                            : an ? an
                            : sn ? sn
                                 : en,
                            "%s: give either phases/load or velocity, "
                            "angular_velocity, start, end (the one-phase shorthand), not both",
                            where);
        if (has || sm->nphases) {
            /* Applied after every body exists: motion blocks the members. */
            sm->group = g;
            sm->node = item;
            sm->m = m;
            c->n_motions++;
        }
    }
    return 0;
}

/* ---- methods -------------------------------------------------------------------------- */

/* `methods: [{step, model, method, group, args}]`: model methods applied at
 * the start of a step (floe_schedule_method). Read after the bodies, so that
 * groups used only by bodies are known. */
static int parse_methods(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_seq(d, sec, "methods")) return -1;
    static const char *const keys[] = {"step", "model", "method", "group", "args"};
    for (int i = 0; i < sy_seq_size(sec); i++) {
        sy_node *item = sy_seq_item(d, sec, i);
        char where[SCENE_PATH], p[SCENE_PATH];
        scene_index(where, "methods", i);
        if (sy_check_keys(d, item, where, keys, (int)(sizeof keys / sizeof *keys))) return -1;
        sy_node *sn = sy_get(d, item, "step"), *mn = sy_get(d, item, "model"), *fn = sy_get(d, item, "method");
        sy_node *gn = sy_get(d, item, "group"), *an = sy_get(d, item, "args");
        if (!sn) return sy_missing(d, item, where, "step");
        if (!mn) return sy_missing(d, item, where, "model");
        if (!fn) return sy_missing(d, item, where, "method");
        int64_t step;
        if (sy_int(d, sn, scene_path(p, where, "step"), &step, 0, INT64_MAX)) return -1;
        const floe_model_info *info;
        if (model_by_name(c, mn, scene_path(p, where, "model"), &info)) return -1;
        const char *method;
        if (sy_str(d, fn, scene_path(p, where, "method"), &method)) return -1;
        int group = -1;
        if (gn) {
            const char *gname;
            if (sy_str(d, gn, scene_path(p, where, "group"), &gname)) return -1;
            group = floe_find_group(c->w, gname);
            if (group < 0) {
                int ng = floe_group_count(c->w);
                const char *names[FLOE_MAX_GROUPS];
                char hint[512];
                for (int g = 0; g < ng; g++) names[g] = floe_group_name(c->w, g);
                scene_name_hint(hint, sizeof hint, gname, names, ng, "groups");
                return sy_error(d, gn, "%s: unknown group '%s'%s", p, gname, hint);
            }
        }
        double args[FLOE_MAX_METHOD_ARGS];
        int nargs = 0;
        if (an) {
            scene_path(p, where, "args");
            if (!sy_is_seq(an)) return sy_error(d, an, "%s: expected a list of numbers", p);
            nargs = sy_seq_size(an);
            if (nargs > FLOE_MAX_METHOD_ARGS)
                return sy_error(d, an, "%s: at most %d arguments", p, FLOE_MAX_METHOD_ARGS);
            for (int k = 0; k < nargs; k++) {
                char q[SCENE_PATH];
                if (sy_number(d, sy_seq_item(d, an, k), scene_index(q, p, k), &args[k])) return -1;
            }
        }
        if (floe_schedule_method(c->w, step, info->name, method, group, args, nargs) != FLOE_OK)
            return scene_world_error(c, fn, where);
    }
    return 0;
}

/* ---- run ---------------------------------------------------------------------------- */

static int parse_run(scene_ctx *c, sy_node *root, floe_scene *s) {
    sy_doc *d = c->d;
    sy_node *sec = sy_get(d, root, "run");
    if (!sec) return sy_error(d, root, "missing required key 'run' at the top level (give run.steps or run.time)");
    static const char *const keys[] = {"steps", "time"};
    if (sy_check_keys(d, sec, "run", keys, 2)) return -1;
    sy_node *st = sy_get(d, sec, "steps"), *tm = sy_get(d, sec, "time");
    if (st && tm) {
        sy_node *second = sy_map_key(d, sec, 1);
        return sy_error(d, second, "run: give either 'steps' or 'time', not both");
    }
    if (!st && !tm) return sy_error(d, sec, "run: missing 'steps' or 'time' (give exactly one)");
    if (st) return sy_int(d, st, "run.steps", &s->steps, 0, INT64_MAX);
    c->run_time = tm;
    return sy_number_in(d, tm, "run.time", &s->duration, 0, INFINITY, 1, 1);
}

int64_t floe_scene_total_steps(const floe_scene *s) {
    if (!s) return 0;
    if (!(s->duration > 0)) return s->steps;
    if (!s->world) return 0;
    double dt = floe_dt(s->world);
    if (!(dt > 0) || !isfinite(dt)) return 0;
    double n = s->duration / dt;
    /* time: 0.5 with dt 1e-4 is 5000 steps, not 5001 from rounding noise. */
    double f = floor(n);
    n = n - f <= 1e-9 * n ? f : ceil(n);
    return n >= 9.2e18 ? INT64_MAX : (int64_t)n;
}

/* ---- loading -------------------------------------------------------------------------- */

/* Body sections: one per shape (registry order), meshes, generators. */
static int is_body_key(const char *k) {
    return scene_shape_section(k) || !strcmp(k, "meshes") || !strcmp(k, "generators");
}

/* Runs one pass over the body sections in the order they appear in the file:
 * that order defines the particle ids. */
static int body_pass(scene_ctx *c, sy_node *root, int build) {
    c->build = build;
    for (int i = 0; i < sy_map_size(root); i++) {
        const char *k = (const char *)sy_map_key(c->d, root, i)->data.scalar.value;
        if (is_body_key(k) && scene_bodies(c, k, sy_map_value(c->d, root, i))) return -1;
    }
    return 0;
}

static int load(scene_ctx *c, floe_scene *s) {
    sy_doc *d = c->d;
    sy_node *root = sy_root(d);
    /* the shapes' sections between groups and meshes */
    static const char *const head[] = {"world", "run", "materials", "models", "interactions", "groups"};
    static const char *const tail[] = {"meshes", "generators", "output", "methods",
                                       "water",  "periodic",   "inlets", "sinks"};
    const char *top[SCENE_LEN(head) + FLOE_SHAPE_COUNT + SCENE_LEN(tail)];
    int ntop = 0;
    for (int i = 0; i < SCENE_LEN(head); i++) top[ntop++] = head[i];
    for (int i = 0; i < FLOE_SHAPE_COUNT; i++) top[ntop++] = floe_shape_at(i)->section;
    for (int i = 0; i < SCENE_LEN(tail); i++) top[ntop++] = tail[i];
    if (sy_check_keys(d, root, "", top, ntop)) return -1;

    scene_output_init(&s->out);
    floe_world_def def = floe_default_world_def();
    sy_node *n;
    if ((n = sy_get(d, root, "world")) && parse_world(c, n, &def)) return -1;
    c->w = s->world = floe_world_create(&def);
    if (!c->w) return sy_error(d, n ? n : root, "world: %s", floe_create_error());
    floe_set_interrupt(c->w, c->interrupt, c->interrupt_ctx);
    /* inlets may fill the world up to the memory guard's count */
    double budget = fmin(SCENE_MAX_PARTICLES, floor(c->max_bytes / SCENE_BYTES_PER_PARTICLE));
    floe_set_particle_budget(c->w, (int64_t)fmin(budget, INT_MAX));

    if ((n = sy_get(d, root, "water")) && parse_water(c, n, def.gravity.z)) return -1;
    if ((n = sy_get(d, root, "periodic")) && scene_periodic(c, n)) return -1;
    double h[9];
    c->env.periodic = floe_world_get_cell(c->w, h, &c->env.cell_lo); /* diagonal before the run */
    c->env.cell_hi = (floe_vec3){c->env.cell_lo.x + h[0], c->env.cell_lo.y + h[4], c->env.cell_lo.z + h[8]};
    if ((n = sy_get(d, root, "materials")) && parse_materials(c, n)) return -1;
    if ((n = sy_get(d, root, "models")) && parse_models(c, n)) return -1;
    if ((n = sy_get(d, root, "interactions")) && parse_interactions(c, n)) return -1;
    if ((n = sy_get(d, root, "groups")) && parse_groups(c, n)) return -1;
    if (body_pass(c, root, 0)) return -1;
    if ((n = sy_get(d, root, "methods")) && parse_methods(c, n)) return -1;
    if (parse_run(c, root, s)) return -1;
    n = sy_get(d, root, "output");
    if (n && scene_output(c, n, &s->out)) return -1;
    if (body_pass(c, root, 1)) return -1;
    if ((n = sy_get(d, root, "periodic")) && scene_periodic_bodies(c, n)) return -1;
    if ((double)c->added != c->count) /* both passes must agree: history ids depend on it */
        return sy_error(d, root, "internal error: counted %.0f particles but created %lld", c->count,
                        (long long)c->added);
    for (int i = 0; i < c->n_motions; i++) {
        const scene_motion *m = &c->motions[i];
        floe_status st = m->nphases ? floe_group_set_phases(c->w, m->group, m->phases, m->nphases)
                                    : floe_group_set_motion(c->w, m->group, &m->m);
        if (st != FLOE_OK) return scene_world_error(c, m->node, "groups");
    }
    if (scene_supply(c, root)) return -1; /* inlets and sinks (scene_supply.c) */
    if (scene_supply_budget(c, s)) return -1;
    if (scene_diagnose(c, s)) return -1;
    double n_steps = c->run_time ? s->duration / floe_dt(c->w) : 0;
    if (!(n_steps < 9.2e18)) { /* floe_scene_total_steps would clamp */
        char how_many[64];
        snprintf(how_many, sizeof how_many, isfinite(n_steps) ? "%.3g" : "more than 1e308", n_steps);
        return sy_error(d, c->run_time,
                        "run.time = %s s is %s steps of %g s, out of range [0, %lld] steps (give a "
                        "shorter time or a larger world.dt)",
                        (const char *)c->run_time->data.scalar.value, how_many, floe_dt(c->w), (long long)INT64_MAX);
    }
    int64_t total = floe_scene_total_steps(s);
    scene_output_defaults(c, &s->out, total);
    return 0;
}

static int load_file(const char *path, double max_bytes, floe_interrupt_fn *interrupt, void *ctx, floe_scene *scene,
                     char *err, size_t errlen);

int floe_scene_load(const char *path, floe_scene *scene, char *err, size_t errlen) {
    return load_file(path, 0, NULL, NULL, scene, err, errlen);
}

int floe_scene_load_interruptible(const char *path, floe_interrupt_fn *interrupt, void *ctx, floe_scene *scene,
                                  char *err, size_t errlen) {
    return load_file(path, 0, interrupt, ctx, scene, err, errlen);
}

int floe_scene_load_limited(const char *path, double max_bytes, floe_scene *scene, char *err, size_t errlen) {
    return load_file(path, max_bytes, NULL, NULL, scene, err, errlen);
}

static int load_file(const char *path, double max_bytes, floe_interrupt_fn *interrupt, void *ctx, floe_scene *scene,
                     char *err, size_t errlen) {
    char local[512];
    if (!err || !errlen) {
        err = local;
        errlen = sizeof local;
    }
    err[0] = 0;
    if (!scene) return -1;
    memset(scene, 0, sizeof *scene);
    if (!path) {
        snprintf(err, errlen, "floe_scene_load: no path given");
        return -1;
    }
    if (strlen(path) >= sizeof scene->path) {
        snprintf(err, errlen, "%s: path longer than %zu characters", path, sizeof scene->path - 1);
        return -1;
    }
    sy_doc d;
    if (sy_load(&d, path, err, errlen)) return -1;

    scene_ctx c;
    memset(&c, 0, sizeof c);
    c.max_bytes = max_bytes > 0 && max_bytes < SCENE_MAX_BYTES ? max_bytes : SCENE_MAX_BYTES;
    c.d = &d;
    c.interrupt = interrupt;
    c.interrupt_ctx = ctx;
    if (interrupt) {
        c.env.interrupt = scene_interrupted;
        c.env.interrupt_ctx = &c;
    }
    const char *slash = strrchr(path, '/');
    if (slash) {
        size_t len = (size_t)(slash - path);
        if (len == 0) len = 1; /* "/scene.yaml": the root directory */
        memcpy(c.dir, path, len);
        c.dir[len] = 0;
    }
    floe_scene tmp;
    memset(&tmp, 0, sizeof tmp);
    int rc = load(&c, &tmp);

    for (int i = 0; i < c.n_meshes; i++) floe_mesh_free(&c.meshes[i]);
    free(c.meshes);
    free(c.file_rows);
    free(c.src);
    sy_free(&d);
    tmp.warnings = c.warnings.s; /* owned by the scene */
    if (rc) {
        free(tmp.warnings);
        free(tmp.run_error);
        if (tmp.world) floe_world_destroy(tmp.world);
        free(tmp.out.history_cols);
        free(tmp.out.regions);
        memset(scene, 0, sizeof *scene);
        return -1;
    }
    snprintf(tmp.path, sizeof tmp.path, "%s", path);
    *scene = tmp;
    return 0;
}

void floe_scene_free(floe_scene *scene) {
    if (!scene) return;
    if (scene->world) floe_world_destroy(scene->world);
    free(scene->out.history_cols);
    free(scene->out.regions);
    free(scene->warnings);
    free(scene->run_error);
    memset(scene, 0, sizeof *scene);
}
