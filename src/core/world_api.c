/* World lifetime, materials, model instances, particles, groups and the
 * read-only views of the public API. */
#include "core/clump.h"
#include "core/cell.h"
#include "core/bodyforces.h"
#include "core/energy.h"
#include "core/timestep.h"
#include "core/motion.h"
#include "core/threads.h"
#include "shapes/registry.h"

#include <limits.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *floe_last_error(const floe_world *w) { return w ? w->err : "no world"; }

/* A caller's string for a message: NULL printed as such, not passed to printf. */
#define NAME(s) ((s) ? (s) : "(NULL)")

/* Whether x (a coordinate, velocity component or size) is within the
 * bound that keeps sums and products finite; NaN fails. */
static int bounded(double x) { return fabs(x) <= FLOE_MAX_COORD; }
static int vbounded(vec3 v) { return bounded(v.x) && bounded(v.y) && bounded(v.z); }

/* Refuses a vector value out of bounds with a message naming fn and what. */
static int check_vec(floe_world *w, const char *fn, const char *what, vec3 v) {
    if (vbounded(v)) return 1;
    floe__error(w, "%s: %s (%g, %g, %g) must be finite and at most %g in magnitude", fn, what, v.x, v.y, v.z,
                FLOE_MAX_COORD);
    return 0;
}

/* Set by the default functions; a def without it was not made by them. */
enum { WORLD_COOKIE = 0x466c6f65, BODY_COOKIE = 0x466c6f62, WATER_COOKIE = 0x466c6f77 };

static _Thread_local char create_err[256];
const char *floe_create_error(void) { return create_err; }

floe_world_def floe_default_world_def(void) {
    return (floe_world_def){
        .gravity = {0, 0, 0},
        .dt = 0,
        .dt_safety = 0.1,
        .dyn_dt_period = 100,
        .damping = 0,
        .skin = -0.1,
        .legacy_lens = 0,
        .threads = 0,
        .renorm_period = 100,
        .dimension = 3,
        .sphere_orientation = 1,
        .energy_warn = 0.01,
        .internal_cookie = WORLD_COOKIE,
    };
}

/* The first thing wrong with def, written to create_err; 0 if none. */
static int bad_world_def(const floe_world_def *d) {
    const char *fn = "floe_world_create";
#define BAD(...) return snprintf(create_err, sizeof create_err, __VA_ARGS__), 1
    if (d->internal_cookie != WORLD_COOKIE)
        BAD("%s: the world def was not made by floe_default_world_def() (start from it, then change fields)", fn);
    if (isnan(d->dt) || isinf(d->dt)) BAD("%s: dt = %g must be finite (<= 0 for auto)", fn, d->dt);
    if (!(d->dt_safety > 0 && d->dt_safety <= 1)) BAD("%s: dt_safety = %g is out of range (0, 1]", fn, d->dt_safety);
    if (d->dyn_dt_period < 1) BAD("%s: dyn_dt_period = %d must be >= 1", fn, d->dyn_dt_period);
    if (!(d->energy_warn >= 0 && isfinite(d->energy_warn)))
        BAD("%s: energy_warn = %g must be finite and >= 0 (0: no warning)", fn, d->energy_warn);
    if (!(d->damping >= 0 && d->damping < 1)) BAD("%s: damping = %g is out of range [0, 1)", fn, d->damping);
    if (!isfinite(d->skin)) BAD("%s: skin = %g must be finite", fn, d->skin);
    if (d->legacy_lens != 0 && d->legacy_lens != 1) BAD("%s: legacy_lens = %d must be 0 or 1", fn, d->legacy_lens);
    if (d->threads < 0 || d->threads > FLOE_MAX_THREADS)
        BAD("%s: threads = %d is out of range [0, %d]", fn, d->threads, FLOE_MAX_THREADS);
    if (d->renorm_period < 1) BAD("%s: renorm_period = %d must be >= 1", fn, d->renorm_period);
    if (d->dimension != 2 && d->dimension != 3) BAD("%s: dimension = %d must be 2 or 3", fn, d->dimension);
    if (d->sphere_orientation != 0 && d->sphere_orientation != 1)
        BAD("%s: sphere_orientation = %d must be 0 or 1", fn, d->sphere_orientation);
    if (!vbounded(d->gravity))
        BAD("%s: gravity (%g, %g, %g) must be finite and at most %g in magnitude", fn, d->gravity.x, d->gravity.y,
            d->gravity.z, FLOE_MAX_COORD);
#undef BAD
    return 0;
}

floe_world *floe_world_create(const floe_world_def *def) {
    floe_world_def d = def ? *def : floe_default_world_def();
    create_err[0] = 0;
    if (bad_world_def(&d)) return NULL;
    floe_world *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(create_err, sizeof create_err, "floe_world_create: out of memory");
        return NULL;
    }
    w->def = d;
    w->water = floe_default_water_def(); /* off (has_water 0), but valid for snapshots */
    w->dt_auto = !(w->def.dt > 0);
    w->dt = w->dt_auto ? 0 : w->def.dt;
    /* one default instance per registered model */
    int nm = floe_registry_count();
    if (!floe__grow((void **)&w->insts, &w->icap, nm, sizeof *w->insts)) {
        free(w);
        snprintf(create_err, sizeof create_err, "floe_world_create: out of memory");
        return NULL;
    }
    for (int i = 0; i < nm; i++) {
        const floe_model *m = floe_registry_get(i);
        w->insts[i].model = i;
        w->insts[i].m = m;
        for (int k = 0; k < m->info.n_law_params; k++) w->insts[i].lp[k] = m->info.law_params[k].def;
    }
    w->ninsts = nm;
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) w->store[t].size = floe_shape_class_get(t)->size;
    floe__cell_reset(&w->cell);
    w->event_mask = FLOE_EVENTS_ALL;
    w->max_particles = FLOE_PARTICLE_BUDGET;
    return w;
}

void floe_set_interrupt(floe_world *w, floe_interrupt_fn *fn, void *ctx) {
    w->interrupt = fn;
    w->interrupt_ctx = ctx;
}

floe_status floe_set_particle_budget(floe_world *w, int64_t max_particles) {
    if (max_particles < 0 || max_particles > INT_MAX) {
        floe__error(w, "floe_set_particle_budget: max_particles = %lld is out of range [0, %d]",
                    (long long)max_particles, INT_MAX);
        return FLOE_ERR_ARG;
    }
    w->max_particles = max_particles;
    return FLOE_OK;
}

int64_t floe_particle_budget(const floe_world *w) { return w->max_particles; }

void floe_world_destroy(floe_world *w) {
    if (!w) return;
    void *arrays[] = {w->pos,           w->vel,        w->angvel,  w->force,  w->torque,   w->ori,
                      w->mass,          w->inertia,    w->angmom,  w->bound,  w->radius,   w->shape,
                      w->shape_idx,     w->mat,        w->blocked, w->groups, w->mats,     w->insts,
                      w->overrides,     w->pair_inst,  w->con,     w->cstate, w->bp.pairs, w->bp.ref_pos,
                      w->bp.ref_ori,    w->sched,      w->brk,     w->events, w->planes,   w->bp.cell_start,
                      w->bp.cell_items, w->bp.cell_of, w->wraps,   w->inlets, w->sinks,    w->phases,
                      w->cwarm,         w->ccold,      w->bp.load, w->bp.img, w->cgeom,    w->ftouch,
                      w->cphases};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) free(w->store[t].rec);
    free(w->clump_of);
    for (int i = 0; i < FLOE_SCRATCH; i++) free(w->scratch[i]);
    if (w->supply_room_free) w->supply_room_free(w->supply_room);
    free(w);
}

int floe_thread_count(const floe_world *w) { return w->started ? w->nthreads : floe__resolve_threads(w); }

floe_status floe_set_event_types(floe_world *w, uint32_t mask) {
    if (mask & ~FLOE_EVENTS_ALL) {
        floe__error(w, "floe_set_event_types: mask 0x%x has bits beyond the %d event types (allowed: 0 to 0x%x)", mask,
                    FLOE_EVENT_COUNT, FLOE_EVENTS_ALL);
        return FLOE_ERR_ARG;
    }
    w->event_mask = mask;
    return FLOE_OK;
}

uint32_t floe_event_types(const floe_world *w) { return w->event_mask; }

floe_status floe_set_threads(floe_world *w, int threads) {
    if (threads < 0 || threads > FLOE_MAX_THREADS) {
        floe__error(w, "floe_set_threads: threads = %d is out of range [0, %d]", threads, FLOE_MAX_THREADS);
        return FLOE_ERR_ARG;
    }
    w->def.threads = threads;
    if (w->started) floe__threads_reset(w);
    return FLOE_OK;
}

void floe_set_thread_tuning(floe_world *w, int on) {
    w->tune.fixed = !on;
    if (!on) w->tune.now = w->nthreads;
}

static double all_body_energy(const floe_world *w);
floe_vec3 floe_gravity(const floe_world *w) { return w->def.gravity; }

floe_status floe_set_gravity(floe_world *w, floe_vec3 g) {
    if (!check_vec(w, __func__, "gravity", g)) return FLOE_ERR_ARG;
    /* buoyancy scales with gravity: its potential changes at once */
    int book = w->started && floe__body_forces_on(w);
    double e = book ? all_body_energy(w) : 0;
    w->def.gravity = g;
    if (book) w->e_boundary += all_body_energy(w) - e;
    return FLOE_OK;
}

/* ---- water --------------------------------------------------------------- */

floe_water_def floe_default_water_def(void) {
    return (floe_water_def){
        .level = 0,
        .density = 1025,
        .current = {0, 0, 0},
        .skin_drag = 5.5e-3,
        .form_drag = 1,
        .rotational_drag = 1,
        .air_density = 1.3,
        .wind = {0, 0, 0},
        .wind_drag = 1.2e-3,
        .internal_cookie = WATER_COOKIE,
    };
}

/* The first thing wrong with a water def, as the world's error; 0 if none. */
static int bad_water(floe_world *w, const floe_water_def *d) {
    const char *fn = "floe_world_set_water";
#define BAD(...) return floe__error(w, __VA_ARGS__), 1
#define RANGE(x, lo, hi, what)         \
    if (!((x) >= (lo) && (x) <= (hi))) \
    BAD("%s: %s = %g is out of range [%g, %g]", fn, what, (x), (double)(lo), (double)(hi))
    if (d->internal_cookie != WATER_COOKIE)
        BAD("%s: the water def was not made by floe_default_water_def() (start from it, then change fields)", fn);
    if (!bounded(d->level))
        BAD("%s: level = %g m must be finite and at most %g in magnitude", fn, d->level, FLOE_MAX_COORD);
    if (!(d->density > 0 && d->density <= 1e5))
        BAD("%s: density = %g kg/m^3 is out of range (0, 1e5] (sea water: 1025)", fn, d->density);
    RANGE(d->air_density, 0, 1e3, "air_density (kg/m^3)");
    RANGE(d->skin_drag, 0, 1, "skin_drag");
    RANGE(d->wind_drag, 0, 1, "wind_drag");
    RANGE(d->form_drag, 0, 100, "form_drag");
    RANGE(d->rotational_drag, 0, 1e3, "rotational_drag");
    const vec3 *vs[2] = {&d->current, &d->wind};
    const char *names[2] = {"current", "wind"};
    for (int k = 0; k < 2; k++) {
        vec3 u = *vs[k];
        if (!(fabs(u.x) <= 1e3 && fabs(u.y) <= 1e3 && fabs(u.z) <= 1e3))
            BAD("%s: %s (%g, %g, %g) m/s: components must be finite and at most 1e3 m/s", fn, names[k], u.x, u.y, u.z);
        if (u.z != 0)
            BAD("%s: %s (%g, %g, %g) m/s must be horizontal (z = 0): the surface is the plane z = level", fn, names[k],
                u.x, u.y, u.z);
    }
#undef RANGE
#undef BAD
    return 0;
}

floe_status floe_world_set_water(floe_world *w, const floe_water_def *def) {
    if (def && bad_water(w, def)) return FLOE_ERR_ARG;
    double e = w->started ? all_body_energy(w) : 0;
    w->has_water = def != NULL;
    w->water = def ? *def : floe_default_water_def(); /* valid even when off: snapshots check it */
    if (w->started) w->e_boundary += all_body_energy(w) - e;
    return FLOE_OK;
}

int floe_world_get_water(const floe_world *w, floe_water_def *out) {
    if (out && w->has_water) *out = w->water;
    return w->has_water;
}

/* ---- parameters ---------------------------------------------------------- */

static int in_range(const floe_param_spec *s, double v) {
    if (isnan(v)) return 0;
    if (s->min_open ? !(v > s->min) : !(v >= s->min)) return 0;
    if (s->max_open ? !(v < s->max) : !(v <= s->max)) return 0;
    return 1;
}

static void range_text(const floe_param_spec *s, char *buf, size_t n) {
    snprintf(buf, n, "%c%g, %g%c", s->min_open ? '(' : '[', s->min, s->max, s->max_open ? ')' : ']');
}

/* Sets `key` in a schema-ordered array; FLOE_ERR_ARG with a message otherwise. */
static floe_status set_param(floe_world *w, const char *what, const floe_param_spec *specs, int n, double *arr,
                             const char *key, double value) {
    if (!key) {
        floe__error(w, "%s: the parameter key is NULL", what);
        return FLOE_ERR_ARG;
    }
    for (int i = 0; i < n; i++) {
        if (strcmp(specs[i].key, key) != 0) continue;
        if (!in_range(&specs[i], value)) {
            char r[96];
            range_text(&specs[i], r, sizeof r);
            floe__error(w, "%s: %s = %g is out of range %s", what, key, value, r);
            return FLOE_ERR_ARG;
        }
        arr[i] = value;
        return FLOE_OK;
    }
    floe__error(w, "%s: unknown parameter '%s'", what, key);
    return FLOE_ERR_ARG;
}

int floe_add_material(floe_world *w, const char *name, const char *model) {
    /* no model named: the registry's first, the fallback of mixed pairs too
     * (docs/decisions.md#model-of-a-mixed-material-pair-g7) */
    int mi = model ? floe_registry_find(model) : 0;
    if (mi < 0) {
        floe__error(w, "unknown contact model '%s'", model);
        return -1;
    }
    if (!name || !*name || strlen(name) >= sizeof w->mats[0].name) {
        floe__error(w, "material name must have 1 to %zu characters", sizeof w->mats[0].name - 1);
        return -1;
    }
    if (floe_find_material(w, name) >= 0) {
        floe__error(w, "material '%s' is defined twice", name);
        return -1;
    }
    if (!floe__grow((void **)&w->mats, &w->mcap, w->nmats + 1, sizeof *w->mats)) {
        floe__error(w, "out of memory");
        return -1;
    }
    floe_material *m = &w->mats[w->nmats];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->model = mi;
    const floe_model *mod = floe_registry_get(mi);
    for (int k = 0; k < floe_mat_rows(mod); k++) m->p[k] = floe_mat_spec(mod, k)->def; /* the common block too */
    w->prepared = 0;
    return w->nmats++;
}

int floe_find_material(const floe_world *w, const char *name) {
    if (!name) return -1;
    for (int i = 0; i < w->nmats; i++)
        if (strcmp(w->mats[i].name, name) == 0) return i;
    return -1;
}
int floe_material_count(const floe_world *w) { return w->nmats; }
const char *floe_material_name(const floe_world *w, int mat) {
    CHECK_ID(w, mat, w->nmats, "material", NULL);
    return w->mats[mat].name;
}

const char *floe_material_model(const floe_world *w, int mat) {
    CHECK_ID(w, mat, w->nmats, "material", NULL);
    return floe_registry_get(w->mats[mat].model)->info.name;
}

/* Former names of parameters (docs/decisions.md#one-name-for-friction). */
static const struct { const char *model, *old, *key; } param_aliases[] = {{"softbond", "fric", "tan_phi"}};

const char *floe_param_alias(const char *model, const char *key) {
    for (size_t i = 0; model && key && i < sizeof param_aliases / sizeof *param_aliases; i++)
        if (!strcmp(param_aliases[i].model, model) && !strcmp(param_aliases[i].old, key)) return param_aliases[i].key;
    return NULL;
}

floe_status floe_material_set(floe_world *w, int mat, const char *key, double value) {
    CHECK_ID(w, mat, w->nmats, "material", FLOE_ERR_ARG);
    const floe_model *mod = floe_registry_get(w->mats[mat].model);
    const char *now = floe_param_alias(mod->info.name, key);
    if (now) key = now;
    char what[128];
    snprintf(what, sizeof what, "material '%s' (model %s)", w->mats[mat].name, mod->info.name);
    /* the stored rows: the schema's and the common rows the model does not read (model.h) */
    int k = floe_mat_find(mod, key);
    if (k < 0) return set_param(w, what, mod->info.mat_params, mod->info.n_mat_params, w->mats[mat].p, key, value);
    return set_param(w, what, floe_mat_spec(mod, k), 1, w->mats[mat].p + k, key, value);
}

double floe_material_get(const floe_world *w, int mat, const char *key) {
    CHECK_ID(w, mat, w->nmats, "material", NAN);
    const floe_model *mod = floe_registry_get(w->mats[mat].model);
    const char *now = floe_param_alias(mod->info.name, key);
    return floe_mat_param(mod, w->mats[mat].p, now ? now : key);
}

floe_status floe_model_set(floe_world *w, const char *model, const char *key, double value) {
    int mi = floe_registry_find(model);
    if (mi < 0) {
        floe__error(w, "unknown contact model '%s'", NAME(model));
        return FLOE_ERR_ARG;
    }
    const floe_model *mod = floe_registry_get(mi);
    char what[96];
    snprintf(what, sizeof what, "model %s", model);
    return set_param(w, what, mod->info.law_params, mod->info.n_law_params, w->insts[mi].lp, key, value);
}

floe_status floe_pair_set_model(floe_world *w, int ma, int mb, const char *model) {
    CHECK_ID(w, ma, w->nmats, "material", FLOE_ERR_ARG);
    CHECK_ID(w, mb, w->nmats, "material", FLOE_ERR_ARG);
    int mi = floe_registry_find(model);
    if (mi < 0) {
        floe__error(w, "unknown contact model '%s'", NAME(model));
        return FLOE_ERR_ARG;
    }
    floe_pair_override *o = floe__find_override(w, ma, mb);
    if (!o) {
        if (!floe__grow((void **)&w->overrides, &w->ocap, w->noverrides + 1, sizeof *w->overrides) ||
            !floe__grow((void **)&w->insts, &w->icap, w->ninsts + 1, sizeof *w->insts)) {
            floe__error(w, "out of memory");
            return FLOE_ERR_MEMORY;
        }
        o = &w->overrides[w->noverrides++];
        o->a = ma;
        o->b = mb;
        o->inst = w->ninsts++;
    }
    w->insts[o->inst] = w->insts[mi]; /* starts from the model's world-wide law parameters */
    w->prepared = 0;
    return FLOE_OK;
}

floe_status floe_pair_set(floe_world *w, int ma, int mb, const char *key, double value) {
    CHECK_ID(w, ma, w->nmats, "material", FLOE_ERR_ARG);
    CHECK_ID(w, mb, w->nmats, "material", FLOE_ERR_ARG);
    floe_pair_override *o = floe__find_override(w, ma, mb);
    if (!o) {
        floe__error(w, "no model override for this material pair; call floe_pair_set_model first");
        return FLOE_ERR_ARG;
    }
    floe_instance *in = &w->insts[o->inst];
    const floe_model *mod = floe_registry_get(in->model);
    char what[192];
    snprintf(what, sizeof what, "interaction %s-%s (model %s)", w->mats[ma].name, w->mats[mb].name, mod->info.name);
    return set_param(w, what, mod->info.law_params, mod->info.n_law_params, in->lp, key, value);
}

/* ---- particles ----------------------------------------------------------- */

floe_body_def floe_default_body_def(void) {
    return (floe_body_def){.ori = {1, 0, 0, 0}, .material = 0, .internal_cookie = BODY_COOKIE};
}

/* The checks every floe_add_* (named fn) makes on its def. */
static int check_body_def(floe_world *w, const char *fn, const floe_body_def *d) {
    if (!d) {
        floe__error(w, "%s: no body def (NULL)", fn);
        return 0;
    }
    if (d->internal_cookie != BODY_COOKIE) {
        floe__error(w, "%s: the body def was not made by floe_default_body_def() (start from it, then change fields)",
                    fn);
        return 0;
    }
    if (d->material < 0 || d->material >= w->nmats) {
        floe__bad_id(w, fn, "material", d->material, w->nmats);
        return 0;
    }
    quat q = d->ori;
    if (!check_vec(w, fn, "position", d->pos) || !check_vec(w, fn, "velocity", d->vel) ||
        !check_vec(w, fn, "angular velocity", d->angvel))
        return 0;
    if (!(bounded(q.w) && bounded(q.x) && bounded(q.y) && bounded(q.z)) ||
        q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z == 0) {
        floe__error(w, "%s: orientation (%g, %g, %g, %g) must be a finite, non-zero quaternion", fn, q.w, q.x, q.y,
                    q.z);
        return 0;
    }
    return 1;
}

/* A body's mass and principal moments must be positive and finite: its
 * size and its material's density may under- or overflow them. */
static int check_mass(floe_world *w, const char *fn, double m, vec3 I, int mat) {
    if (m > 0 && isfinite(m) && I.x > 0 && I.y > 0 && I.z > 0 && visfinite(I)) return 1;
    floe__error(w,
                "%s: the size and the density (%g kg/m^3) give a mass of %g kg and moments of inertia (%g, %g, %g) "
                "kg m^2, which must be positive and finite",
                fn, w->mats[mat].p[MAT_DENSITY], m, I.x, I.y, I.z);
    return 0;
}

/* The body's kinetic and rotational energy as the energy balance counts it,
 * and the potential of the body forces on it (buoyancy). */
static double body_energy(const floe_world *w, int i) {
    double t = 0, r = 0;
    floe__body_kinetic(w, i, floe__loaded_groups(w), &t, &r);
    return floe__body_forces_on(w) ? t + r + floe__body_potential(w, i) : t + r;
}

static double all_body_energy(const floe_world *w) {
    double e = 0;
    for (int i = 0; i < w->np; i++) e += body_energy(w, i);
    return e;
}

/* After the first step, energy brought in through the API (e_before: the
 * body's energy before the change) is booked as boundary work: the balance
 * then shows no jump (docs/integration.md). */
static void book_input(floe_world *w, int i, double e_before) {
    if (w->started) w->e_boundary += body_energy(w, i) - e_before;
}

/* Moves the particle arrays (the structure of arrays: one capacity for all
 * of them) to room for nc particles; 0 if memory ran out (the arrays that
 * did move keep the old contents, the capacity stays). */
static int grow_particles(floe_world *w, int nc) {
    int ok = 1;
#define GROW(arr)                                                \
    do {                                                         \
        void *q_ = realloc(w->arr, (size_t)nc * sizeof *w->arr); \
        if (q_) w->arr = q_;                                     \
        else ok = 0;                                             \
    } while (0);
    FLOE_PARTICLE_ARRAYS(GROW)
    if (w->geom_kept) {
        FLOE_PARTICLE_ARRAYS_KEPT(GROW)
    }
#undef GROW
    if (ok) w->pcap = nc;
    return ok;
}

const char *floe_version(void) { return FLOE_VERSION; }

int floe_particle_capacity(const floe_world *w) { return w->pcap; }

floe_status floe_reserve_particles(floe_world *w, int n) {
    if (n < 0) {
        floe__error(w, "floe_reserve_particles: n = %d must be >= 0", n);
        return FLOE_ERR_ARG;
    }
    if (n <= w->pcap) return FLOE_OK;
    if (!grow_particles(w, n)) {
        floe__error(w, "floe_reserve_particles: out of memory reserving room for %d particles", n);
        return FLOE_ERR_MEMORY;
    }
    return FLOE_OK;
}

/* mass, inertia: of the body (0 for boundaries); bound: bounding-sphere
 * radius for the broad-phase grid (0 keeps the body off the grid). The def
 * has passed check_body_def. */
static int add_particle(floe_world *w, const floe_body_def *d, floe_shape_type shape, int idx, double radius,
                        double mass, vec3 inertia, double bound) {
    int n = w->np;
    /* a body other than a sphere or a wall may make contacts of any warm
     * record, and reads the particles' kept rows */
    if (shape != FLOE_SHAPE_SPHERE && shape != FLOE_SHAPE_WALL && (!floe__warm_keep(w) || !floe__geom_keep(w))) {
        floe__error(w, "out of memory adding particle %d", n);
        return -1;
    }
    if (n + 1 > w->pcap) {
        /* the structure of arrays: one capacity for all of them */
        int nc = (int)floe__grown((size_t)(w->pcap ? w->pcap : 64), (size_t)n + 1, INT_MAX);
        if (!grow_particles(w, nc)) {
            floe__error(w, "out of memory adding particle %d", n);
            return -1;
        }
    }
    w->pos[n] = d->pos;
    w->vel[n] = d->vel;
    w->angvel[n] = d->angvel;
    w->force[n] = w->torque[n] = v3(0, 0, 0);
    w->ori[n] = qnormalize(d->ori);
    w->radius[n] = radius;
    w->shape[n] = (uint8_t)shape;
    w->shape_idx[n] = idx;
    w->mat[n] = d->material;
    w->blocked[n] = d->blocked & FLOE_DOF_ALL;
    if (w->def.dimension == 2) { /* plane world: no motion out of the xy plane */
        w->blocked[n] |= FLOE_DOF_Z | FLOE_DOF_RX | FLOE_DOF_RY;
        w->vel[n].z = 0;
        w->angvel[n].x = w->angvel[n].y = 0;
    }
    w->groups[n] = d->groups;
    w->mass[n] = mass;
    w->inertia[n] = inertia;
    if (w->geom_kept) { /* as floe__geom_keep writes them */
        w->bp.ref_ori[n] = floe__surface_ori(w, n);
        w->angmom[n] = v3(NAN, NAN, NAN);
        w->wraps[n] = (floe_img){{0, 0, 0}};
    }
    w->bound[n] = bound;
    w->bp.valid = 0;
    w->np = n + 1;
    book_input(w, n, 0);
    return n;
}

/* A parameter's range as text: "(0, 1e+100]". */
static const char *shape_range(const floe_shape_param *p, char *buf, size_t len) {
    snprintf(buf, len, "%c%g, %g%c", p->open & FLOE_OPEN_LO ? '(' : '[', p->lo, p->hi,
             p->open & FLOE_OPEN_HI ? ')' : ']');
    return buf;
}

/* Every value of the shape's parameters in its range (integers for INT and
 * AXIS, finite coordinates for points); the first wrong one is named. */
static int check_params(floe_world *w, const char *fn, const floe_shape_class *c, const double *params) {
    const double *v = params;
    char range[96];
    for (int k = 0; k < c->nparams; v += c->params[k++].n) {
        const floe_shape_param *p = &c->params[k];
        if (p->kind == FLOE_PARAM_POINT) {
            for (int j = 0; j + 2 < p->n; j += 3)
                if (!check_vec(w, fn, p->item ? p->item : p->key, v3(v[j], v[j + 1], v[j + 2]))) return 0;
            continue;
        }
        for (int j = 0; j < p->n; j++) {
            double x = v[j];
            int ok = x >= p->lo && x <= p->hi && !((p->open & FLOE_OPEN_LO) && x == p->lo) &&
                     !((p->open & FLOE_OPEN_HI) && x == p->hi);
            if (ok && p->kind != FLOE_PARAM_REAL) ok = x == floor(x);
            if (ok) continue;
            char what[64];
            if (p->n > 1) snprintf(what, sizeof what, "%s %d", p->item ? p->item : p->key, j);
            else snprintf(what, sizeof what, "%s", p->key);
            floe__error(w, "%s: %s %s = %g is %s %s%s%s", fn, c->title, what, x,
                        p->kind == FLOE_PARAM_REAL ? "out of range" : "not an integer in",
                        shape_range(p, range, sizeof range), p->unit && *p->unit ? " " : "", p->unit ? p->unit : "");
            return 0;
        }
    }
    return 1;
}

/* The pebbles of clump `id`, just added: sphere bodies without mass of
 * their own, the n particles after it, where its pose puts them, of its
 * material and groups, free (they follow the clump: core/clump.h). Out of
 * memory, the clump and its pebbles are taken back. */
static int add_pebbles(floe_world *w, const char *fn, int id, const floe_body_def *d) {
    const floe_clump *r = floe__shape_data(w, id);
    floe_body_def pd = *d;
    pd.blocked = 0;
    for (int k = 0; k < r->n; k++) {
        floe__pebble_at(r, k, w->pos[id], w->ori[id], w->vel[id], w->angvel[id], &pd.pos, &pd.vel);
        pd.angvel = w->angvel[id];
        pd.ori = w->ori[id];
        if (add_particle(w, &pd, FLOE_SHAPE_SPHERE, -1, r->peb[k][3], 0, v3(0, 0, 0), r->peb[k][3]) < 0) {
            w->np = id;
            w->store[FLOE_SHAPE_CLUMP].n--;
            floe__error(w, "%s: out of memory adding the pebbles of a clump", fn);
            return 0;
        }
    }
    if (!floe__clumps_index(w)) {
        w->np = id;
        w->store[FLOE_SHAPE_CLUMP].n--;
        floe__error(w, "%s: out of memory adding the pebbles of a clump", fn);
        return 0;
    }
    return 1;
}

/* A body of class c from its parameters: checks them, builds the record
 * (the class's init), mass and inertia from the material's density, radius
 * and bound, and stores the record as row shape_idx of its shape. fn names
 * the public function in messages. */
static int add_shape(floe_world *w, const char *fn, const floe_body_def *def, int type, const double *params) {
    if (!check_body_def(w, fn, def)) return -1;
    const floe_shape_class *c = floe_shape_class_get(type);
    if (!c) {
        floe__error(w, "%s: shape %d is not one of the %d shapes (floe_shape_type)", fn, type, FLOE_SHAPE_COUNT);
        return -1;
    }
    if (!params) {
        floe__error(w, "%s: the parameters of a %s are NULL", fn, c->title);
        return -1;
    }
    if (!check_params(w, fn, c, params)) return -1;
    floe_body_def d = *def;
    if (c->flags & FLOE_SHAPE_BLOCKED) d.blocked = FLOE_DOF_ALL;
    else if ((c->flags & FLOE_SHAPE_BOUNDARY) && d.blocked == 0) d.blocked = FLOE_DOF_ALL;
    floe_shape_store *st = &w->store[type];
    double radius_rec;
    void *rec = &radius_rec;
    if (c->size) {
        if (!floe__grow((void **)&st->rec, &st->cap, st->n + 1, c->size)) {
            floe__error(w, "%s: out of memory adding a %s", fn, c->title);
            return -1;
        }
        rec = st->rec + (size_t)st->n * c->size;
    }
    floe_pose pose = {d.pos, qnormalize(d.ori)};
    char msg[256];
    if (c->init(rec, params, &pose, msg, sizeof msg)) {
        floe__error(w, "%s: %s", fn, msg);
        return -1;
    }
    if (c->reframe) {
        c->reframe(rec, &pose);
        d.pos = pose.x;
        d.ori = pose.q;
    }
    double m = 0;
    vec3 I = v3(0, 0, 0);
    if (c->mass) {
        c->mass(rec, w->mats[d.material].p[MAT_DENSITY], &m, &I);
        if (!check_mass(w, fn, m, I, d.material)) return -1;
    }
    int id = add_particle(w, &d, type, c->size ? st->n : -1, c->radius(rec), m, I, c->bound ? c->bound(rec) : 0);
    if (id >= 0 && c->size) st->n++;
    if (id >= 0 && type == FLOE_SHAPE_CLUMP && !add_pebbles(w, fn, id, &d)) return -1;
    return id;
}

int floe_add_body(floe_world *w, const floe_body_def *def, floe_shape_type shape, const double *params) {
    return add_shape(w, __func__, def, shape, params);
}

int floe_add_sphere(floe_world *w, const floe_body_def *def, double radius) {
    return add_shape(w, __func__, def, FLOE_SHAPE_SPHERE, (const double[]){radius});
}

int floe_add_capsule(floe_world *w, const floe_body_def *def, double radius, double shaft) {
    return add_shape(w, __func__, def, FLOE_SHAPE_CAPSULE, (const double[]){radius, shaft});
}

int floe_add_ellipsoid(floe_world *w, const floe_body_def *def, floe_vec3 s) {
    return add_shape(w, __func__, def, FLOE_SHAPE_ELLIPSOID, (const double[]){s.x, s.y, s.z});
}

int floe_add_polyhedron(floe_world *w, const floe_body_def *def, int n, const floe_vec3 *v) {
    if (!v || n < 4 || n > FLOE_POLYHEDRON_MAX_VERTICES) {
        floe__error(w, "%s: %d vertices%s; a polyhedron takes 4 to %d", __func__, n, v ? "" : " (NULL)",
                    FLOE_POLYHEDRON_MAX_VERTICES);
        return -1;
    }
    double p[3 * FLOE_POLYHEDRON_MAX_VERTICES];
    for (int k = 0; k < FLOE_POLYHEDRON_MAX_VERTICES; k++) { /* the last vertex fills the list */
        floe_vec3 x = v[k < n ? k : n - 1];
        p[3 * k] = x.x;
        p[3 * k + 1] = x.y;
        p[3 * k + 2] = x.z;
    }
    return add_shape(w, __func__, def, FLOE_SHAPE_POLYHEDRON, p);
}

int floe_add_infcylinder(floe_world *w, const floe_body_def *def, int axis, double radius) {
    return add_shape(w, __func__, def, FLOE_SHAPE_INFCYLINDER, (const double[]){axis, radius});
}

int floe_add_clump(floe_world *w, const floe_body_def *def, int n, const double *pebbles) {
    if (!pebbles || n < 1 || n > FLOE_CLUMP_MAX_PEBBLES) {
        floe__error(w, "%s: %d pebbles (a list %s): a clump holds 1 to %d", __func__, n, pebbles ? "given" : "NULL",
                    FLOE_CLUMP_MAX_PEBBLES);
        return -1;
    }
    if (!check_body_def(w, __func__, def)) return -1;
    double peb[FLOE_CLUMP_MAX_PEBBLES][4];
    for (int k = 0; k < n; k++)
        for (int j = 0; j < 4; j++) {
            peb[k][j] = pebbles[4 * k + j];
            if (!isfinite(peb[k][j]) || fabs(peb[k][j]) > FLOE_MAX_COORD || (j == 3 && !(peb[k][j] > 0))) {
                floe__error(w, "%s: pebble %d: %s = %g must be %s", __func__, k, j == 3 ? "radius" : "coordinate",
                            peb[k][j], j == 3 ? "> 0 and at most 1e100 m" : "finite and at most 1e100 m");
                return -1;
            }
        }
    /* the body frame: the union's centroid, its principal axes */
    double vol, J[9], ev[3], R[9];
    vec3 g;
    floe_union_moments(n, (const double(*)[4])peb, 0, &vol, &g, J);
    floe_sym3_eigen(J, ev, R);
    double params[4 * FLOE_CLUMP_MAX_PEBBLES] = {0};
    for (int k = 0; k < n; k++) {
        vec3 p = vsub(v3(peb[k][0], peb[k][1], peb[k][2]), g); /* R^T (p - g) */
        params[4 * k] = R[0] * p.x + R[3] * p.y + R[6] * p.z;
        params[4 * k + 1] = R[1] * p.x + R[4] * p.y + R[7] * p.z;
        params[4 * k + 2] = R[2] * p.x + R[5] * p.y + R[8] * p.z;
        params[4 * k + 3] = peb[k][3];
    }
    floe_body_def d = *def;
    quat q0 = qnormalize(def->ori);
    d.pos = vadd(def->pos, qrotate(q0, g));
    d.ori = qmul(q0, floe_quat_of_matrix(R));
    return add_shape(w, __func__, &d, FLOE_SHAPE_CLUMP, params);
}

int floe_clump_of(const floe_world *w, int id) {
    if (id < 0 || id >= w->np || !floe__has_clumps(w)) return -1;
    /* from the records: the index may be stale between a removal and the next step */
    for (int c = id - 1; c >= 0 && id - c <= FLOE_CLUMP_MAX_PEBBLES; c--)
        if (w->shape[c] == FLOE_SHAPE_CLUMP) return ((const floe_clump *)floe__shape_data(w, c))->n >= id - c ? c : -1;
    return -1;
}

int floe_add_wall(floe_world *w, const floe_body_def *def, int axis, int sense) {
    return add_shape(w, __func__, def, FLOE_SHAPE_WALL, (const double[]){axis, sense});
}

int floe_add_facet(floe_world *w, const floe_body_def *def, const floe_vec3 v[3], double half_thick) {
    if (!v) return add_shape(w, __func__, def, FLOE_SHAPE_FACET, NULL);
    return add_shape(
        w, __func__, def, FLOE_SHAPE_FACET,
        (const double[]){v[0].x, v[0].y, v[0].z, v[1].x, v[1].y, v[1].z, v[2].x, v[2].y, v[2].z, half_thick});
}

int floe_body_params(const floe_world *w, int id, double *out, int cap) {
    CHECK_ID(w, id, w->np, "particle", 0);
    const floe_shape_class *c = floe__class_of(w, id);
    int n = floe_shape_param_values(c);
    if (!out || cap < n) {
        floe__error((floe_world *)w, "floe_body_params: a %s has %d parameter values; room for %d given", c->title, n,
                    out ? cap : 0);
        return 0;
    }
    floe_pose p = floe__pose(w, id);
    c->params_of(floe__shape_data(w, id), &p, out);
    return n;
}

int floe_particle_count(const floe_world *w) { return w->np; }
floe_shape_type floe_particle_shape(const floe_world *w, int id) {
    CHECK_ID(w, id, w->np, "particle", FLOE_SHAPE_COUNT);
    return (floe_shape_type)w->shape[id];
}
const floe_vec3 *floe_positions(const floe_world *w) { return w->pos; }
const floe_vec3 *floe_velocities(const floe_world *w) { return w->vel; }
/* A body moved through this pointer counts at the next step as if it had
 * moved in a step (the broad phase measures from the last rebuild). */
floe_vec3 *floe_positions_mut(floe_world *w) { return w->pos; }
floe_vec3 *floe_velocities_mut(floe_world *w) { return w->vel; }

floe_status floe_check_bodies(floe_world *w) {
    for (int i = 0; i < w->np; i++) {
        const char *what = !vbounded(w->pos[i]) ? "position" : !vbounded(w->vel[i]) ? "velocity" : NULL;
        if (!what) continue;
        vec3 v = what[0] == 'p' ? w->pos[i] : w->vel[i];
        floe__error(w, "particle %d: %s (%g, %g, %g) must be finite and at most %g in magnitude", i, what, v.x, v.y,
                    v.z, FLOE_MAX_COORD);
        return FLOE_ERR_ARG;
    }
    return FLOE_OK;
}
const floe_vec3 *floe_angular_velocities(const floe_world *w) { return w->angvel; }
const floe_quat *floe_orientations(const floe_world *w) { return w->ori; }
const floe_vec3 *floe_forces(const floe_world *w) { return w->force; }
const floe_vec3 *floe_torques(const floe_world *w) { return w->torque; }
const double *floe_radii(const floe_world *w) { return w->radius; }
const floe_vec3 *floe_inertia(const floe_world *w) { return w->inertia; }

double floe_capsule_shaft(const floe_world *w, int id) {
    CHECK_ID(w, id, w->np, "particle", -1);
    if (w->shape[id] != FLOE_SHAPE_CAPSULE) return -1;
    return ((const floe_capsule *)floe__shape_data(w, id))->shaft;
}

floe_status floe_ellipsoid_semi_axes(const floe_world *w, int id, floe_vec3 *out) {
    CHECK_ID(w, id, w->np, "particle", FLOE_ERR_ARG);
    if (w->shape[id] != FLOE_SHAPE_ELLIPSOID) {
        floe__error((floe_world *)w, "floe_ellipsoid_semi_axes: particle %d is not an ellipsoid", id);
        return FLOE_ERR_ARG;
    }
    *out = ((const floe_ellipsoid *)floe__shape_data(w, id))->semi;
    return FLOE_OK;
}

int floe_infcylinder_axis(const floe_world *w, int id) {
    CHECK_ID(w, id, w->np, "particle", -1);
    if (w->shape[id] != FLOE_SHAPE_INFCYLINDER) return -1;
    return ((const floe_infcyl *)floe__shape_data(w, id))->axis;
}
const double *floe_masses(const floe_world *w) { return w->mass; }
const int *floe_particle_materials(const floe_world *w) { return w->mat; }
const uint32_t *floe_particle_groups(const floe_world *w) { return w->groups; }
const uint32_t *floe_particle_blocked(const floe_world *w) { return w->blocked; }

int floe_wall_axis(const floe_world *w, int id, int *sense) {
    CHECK_ID(w, id, w->np, "particle", -1);
    if (w->shape[id] != FLOE_SHAPE_WALL) return -1;
    const floe_wall *wl = floe__shape_data(w, id);
    if (sense) *sense = wl->sense;
    return wl->axis;
}

floe_status floe_facet_vertices(const floe_world *w, int id, floe_vec3 out[3]) {
    CHECK_ID(w, id, w->np, "particle", FLOE_ERR_ARG);
    if (w->shape[id] != FLOE_SHAPE_FACET) {
        floe__error((floe_world *)w, "floe_facet_vertices: particle %d is not a facet", id);
        return FLOE_ERR_ARG;
    }
    floe_pose p = floe__pose(w, id);
    floe_facet_global(floe__shape_data(w, id), &p, out);
    return FLOE_OK;
}

floe_status floe_set_position(floe_world *w, int id, floe_vec3 p) {
    CHECK_ID(w, id, w->np, "particle", FLOE_ERR_ARG);
    if (!check_vec(w, __func__, "position", p)) return FLOE_ERR_ARG;
    if (w->started) {
        /* gravity potential (-work of gravity) changes on the free DOFs,
         * where gravity acts: the change is booked as an input */
        vec3 d = vsub(p, w->pos[id]), g = w->def.gravity;
        double work = 0;
        for (int k = 0; k < 3; k++)
            if (!(w->blocked[id] & (1u << k))) work += w->mass[id] * vcomp(g, k) * vcomp(d, k);
        w->e_gravity_work += work;
        w->e_boundary -= work;
    }
    /* with body forces, the body's energy depends on its position too */
    int book = w->started && floe__body_forces_on(w);
    double e = book ? body_energy(w, id) : 0;
    w->pos[id] = p;
    w->bp.valid = 0;
    if (book) book_input(w, id, e);
    return FLOE_OK;
}

floe_status floe_set_velocity(floe_world *w, int id, floe_vec3 v) {
    CHECK_ID(w, id, w->np, "particle", FLOE_ERR_ARG);
    if (!check_vec(w, __func__, "velocity", v)) return FLOE_ERR_ARG;
    double e = w->started ? body_energy(w, id) : 0;
    w->vel[id] = v;
    book_input(w, id, e);
    return FLOE_OK;
}

floe_status floe_set_angular_velocity(floe_world *w, int id, floe_vec3 v) {
    CHECK_ID(w, id, w->np, "particle", FLOE_ERR_ARG);
    if (!check_vec(w, __func__, "angular velocity", v)) return FLOE_ERR_ARG;
    double e = w->started ? body_energy(w, id) : 0;
    w->angvel[id] = v;
    if (w->angmom) w->angmom[id] = v3(NAN, NAN, NAN); /* re-derived from the new angular velocity */
    book_input(w, id, e);
    return FLOE_OK;
}

floe_status floe_set_blocked(floe_world *w, int id, uint32_t b) {
    CHECK_ID(w, id, w->np, "particle", FLOE_ERR_ARG);
    double e = w->started ? body_energy(w, id) : 0;
    w->blocked[id] = b & FLOE_DOF_ALL;
    book_input(w, id, e); /* blocked DOFs leave the kinetic energy */
    return FLOE_OK;
}

/* ---- groups -------------------------------------------------------------- */

int floe_add_group(floe_world *w, const char *name) {
    int g = floe_find_group(w, name);
    if (g >= 0) return g;
    if (w->ngroups >= FLOE_MAX_GROUPS) {
        floe__error(w, "at most %d groups", FLOE_MAX_GROUPS);
        return -1;
    }
    if (!name || !*name || strlen(name) >= sizeof w->groups_[0].name) {
        floe__error(w, "group name must have 1 to %zu characters", sizeof w->groups_[0].name - 1);
        return -1;
    }
    floe_group *gr = &w->groups_[w->ngroups];
    memset(gr, 0, sizeof *gr);
    gr->phase = -1; /* no phases yet (motion.c) */
    snprintf(gr->name, sizeof gr->name, "%s", name);
    return w->ngroups++;
}

int floe_find_group(const floe_world *w, const char *name) {
    if (!name) return -1;
    for (int i = 0; i < w->ngroups; i++)
        if (strcmp(w->groups_[i].name, name) == 0) return i;
    return -1;
}
int floe_group_count(const floe_world *w) { return w->ngroups; }
const char *floe_group_name(const floe_world *w, int g) {
    CHECK_ID(w, g, w->ngroups, "group", NULL);
    return w->groups_[g].name;
}

floe_motion floe_default_motion(void) { return (floe_motion){.t_start = 0, .t_end = INFINITY}; }

floe_status floe_group_set_motion(floe_world *w, int g, const floe_motion *m) {
    CHECK_ID(w, g, w->ngroups, "group", FLOE_ERR_ARG);
    if (!m || !vbounded(m->vel) || !vbounded(m->angvel) || !(m->t_end >= m->t_start)) {
        floe__error(w, "floe_group_set_motion: group '%s': the motion needs velocities within +-%g and end >= start",
                    w->groups_[g].name, FLOE_MAX_COORD);
        return FLOE_ERR_ARG;
    }
    if (floe_group_phases(w, g, NULL, 0) > 0) {
        floe__error(w,
                    "floe_group_set_motion: group '%s' has phases (floe_group_set_phases); give the motion as a "
                    "velocity phase instead",
                    w->groups_[g].name);
        return FLOE_ERR_ARG;
    }
    if (floe__motion_conflict(w, g, "floe_group_set_motion")) return FLOE_ERR_ARG;
    w->groups_[g].has_motion = 1;
    w->groups_[g].motion = *m;
    for (int i = 0; i < w->np; i++)
        if (w->groups[i] & (1u << g)) w->blocked[i] = FLOE_DOF_ALL;
    return FLOE_OK;
}

int floe_group_motion(const floe_world *w, int g, floe_motion *out) {
    CHECK_ID(w, g, w->ngroups, "group", -1);
    if (!w->groups_[g].has_motion) return 0;
    if (out) *out = w->groups_[g].motion;
    return 1;
}

floe_status floe_group_set_load(floe_world *w, int g, floe_vec3 force, floe_vec3 torque) {
    CHECK_ID(w, g, w->ngroups, "group", FLOE_ERR_ARG);
    if (!check_vec(w, __func__, "force", force) || !check_vec(w, __func__, "torque", torque)) return FLOE_ERR_ARG;
    floe_group *gr = &w->groups_[g];
    gr->load_f = force;
    gr->load_t = torque;
    gr->has_load = vlen2(force) > 0 || vlen2(torque) > 0;
    return FLOE_OK;
}

floe_vec3 floe_group_force(const floe_world *w, int g) {
    CHECK_ID(w, g, w->ngroups, "group", v3(NAN, NAN, NAN));
    vec3 s = v3(0, 0, 0);
    for (int i = 0; i < w->np; i++)
        if (w->groups[i] & (1u << g)) s = vadd(s, w->force[i]);
    return s;
}

floe_vec3 floe_group_torque(const floe_world *w, int g) {
    CHECK_ID(w, g, w->ngroups, "group", v3(NAN, NAN, NAN));
    vec3 s = v3(0, 0, 0);
    for (int i = 0; i < w->np; i++)
        if (w->groups[i] & (1u << g)) s = vadd(s, vadd(w->torque[i], vcross(w->pos[i], w->force[i])));
    return s;
}

/* ---- contacts ------------------------------------------------------------ */

int floe_contact_count(const floe_world *w) { return w->ncon; }

int floe_bonded_count(const floe_world *w) {
    int n = 0;
    for (int k = 0; k < w->ncon; k++) n += (w->con[k].flags & CF_BONDED) != 0;
    return n;
}

int64_t floe_break_count(const floe_world *w) { return w->n_breaks; }

floe_status floe_contact_get(const floe_world *w, int i, floe_contact_info *o) {
    CHECK_ID(w, i, w->ncon, "contact", FLOE_ERR_ARG);
    const floe_contact *c = &w->con[i];
    const floe_contact_cold *x = &w->ccold[i];
    floe_contact_warm own;
    const floe_contact_warm *wm = floe__warm(w, i, &own);
    const floe_geom gc = floe__contact_geom(w, i), *g = &gc;
    o->a = c->a;
    o->b = c->b;
    o->model = floe_registry_get(w->insts[c->inst].model)->info.name;
    o->normal = g->n;
    o->point = g->c;
    o->uN = g->uN;
    floe__contact_lens(w, i, o->lens);
    o->area = wm->area;
    o->force = c->f;
    o->torque = wm->m;
    o->force_global = vadd(vadd(vscale(g->n, c->f.x), vscale(g->t1, c->f.y)), vscale(floe_geom_t2(g), c->f.z));
    o->kn = c->kn;
    o->kt = c->kt;
    o->step_created = x->step_created;
    o->bonded = (c->flags & CF_BONDED) != 0;
    const floe_img img = floe__contact_img(w, i);
    for (int k = 0; k < 3; k++) o->image[k] = img.n[k];
    o->t1 = g->t1;
    o->image_shift = floe__img_zero(img) ? v3(0, 0, 0) : floe__img_shift(w, img);
    /* the torques as the contact pass sums them (step.c, batch.c) */
    const vec3 t2 = floe_geom_t2(g), F = o->force_global;
    const vec3 M = vadd(vadd(vscale(g->n, wm->m.x), vscale(g->t1, wm->m.y)), vscale(t2, wm->m.z));
    o->torque_a = vadd(vcross(vsub(g->c, w->pos[c->a]), F), M);
    o->torque_b = vsub(vcross(vsub(g->c, floe__img_pos(w, c->b, img)), vneg(F)), M);
    return FLOE_OK;
}

int floe_contact_find(const floe_world *w, int a, int b) {
    CHECK_ID(w, a, w->np, "particle", -1);
    CHECK_ID(w, b, w->np, "particle", -1);
    for (int i = 0; i < w->ncon; i++)
        if ((w->con[i].a == a && w->con[i].b == b) || (w->con[i].a == b && w->con[i].b == a)) return i;
    return -1;
}

int floe_contact_state(const floe_world *w, int i, double *out, int cap) {
    CHECK_ID(w, i, w->ncon, "contact", 0);
    const floe_model *m = floe_registry_get(w->insts[w->con[i].inst].model);
    double buf[64];
    int n = m->info.n_state < 64 ? m->info.n_state : 64;
    floe_contact_warm own;
    const floe_geom g = floe__contact_geom(w, i);
    m->get_state(&w->con[i], &g, floe__warm(w, i, &own), w->cstate + (size_t)i * w->cstride, buf);
    if (n > cap) n = cap;
    memcpy(out, buf, sizeof(double) * (size_t)n);
    return n;
}

/* ---- model methods -------------------------------------------------------- */

floe_status floe_apply_method(floe_world *w, const char *model, const char *method, int group, const double *args,
                              int nargs, int *applied) {
    int mi = floe_registry_find(model);
    const floe_model *m = floe_registry_get(mi);
    if (applied) *applied = 0;
    if (!m || !m->method) {
        floe__error(w, m ? "model %s has no methods" : "unknown contact model '%s'", NAME(model));
        return FLOE_ERR_ARG;
    }
    if (!method || (nargs > 0 && !args)) {
        floe__error(w, "floe_apply_method: %s is NULL", method ? "args" : "the method name");
        return FLOE_ERR_ARG;
    }
    if (group >= 0) CHECK_ID(w, group, w->ngroups, "group", FLOE_ERR_ARG);
    if (nargs < 0 || nargs > FLOE_MAX_METHOD_ARGS) {
        floe__error(w, "method %s.%s: %d arguments, at most %d", model, method, nargs, FLOE_MAX_METHOD_ARGS);
        return FLOE_ERR_ARG;
    }
    uint32_t gm = group < 0 ? ~0u : 1u << group;
    int n = 0;
    for (int k = 0; k < w->ncon; k++) {
        floe_contact *c = &w->con[k];
        if (w->insts[c->inst].model != mi) continue;
        if (group >= 0 && !((w->groups[c->a] | w->groups[c->b]) & gm)) continue;
        floe_law_ctx ctx;
        floe__law_ctx(w, c, 0, &ctx);
        const floe_geom g = floe__contact_geom(w, k);
        ctx.g = &g;
        floe_contact_warm own = floe__warm_implied(ctx.lens);
        if (!ctx.warm) ctx.warm = &own; /* a model with methods keeps warm records (no_warm 0) */
        int r = m->method(method, args, nargs, &ctx, c, w->cstate + (size_t)k * w->cstride);
        if (r == -1) {
            floe__error(w, "model %s has no method '%s'", model, method);
            return FLOE_ERR_ARG;
        }
        if (r == -2) {
            floe__error(w, "method %s.%s: bad arguments", model, method);
            return FLOE_ERR_ARG;
        }
        n++;
    }
    if (applied) *applied = n;
    return FLOE_OK;
}

floe_status floe_schedule_method(floe_world *w, int64_t step, const char *model, const char *method, int group,
                                 const double *args, int nargs) {
    const floe_model *m = floe_registry_get(floe_registry_find(model));
    int known = 0;
    for (int i = 0; m && method && i < m->n_methods; i++) known |= strcmp(m->method_names[i], method) == 0;
    if (nargs > 0 && !args) {
        floe__error(w, "floe_schedule_method: args is NULL");
        return FLOE_ERR_ARG;
    }
    if (group >= 0) CHECK_ID(w, group, w->ngroups, "group", FLOE_ERR_ARG);
    if (!known || step < 0 || nargs < 0 || nargs > FLOE_MAX_METHOD_ARGS) {
        floe__error(w, !m ? "unknown contact model '%s'" : "model %s has no method '%s' (or bad step/group/args)",
                    NAME(model), NAME(method));
        return FLOE_ERR_ARG;
    }
    /* arguments are checked now, not when the step comes (c == NULL: check only) */
    if (m->method && m->method(method, args, nargs, NULL, NULL, NULL) == -2) {
        floe__error(w, "method %s.%s: bad arguments", model, method);
        return FLOE_ERR_ARG;
    }
    if (!floe__grow((void **)&w->sched, &w->schedcap, w->nsched + 1, sizeof *w->sched)) return FLOE_ERR_MEMORY;
    floe_scheduled *s = &w->sched[w->nsched++];
    memset(s, 0, sizeof *s);
    s->step = step;
    snprintf(s->model, sizeof s->model, "%s", model);
    snprintf(s->method, sizeof s->method, "%s", method);
    s->group = group;
    s->nargs = nargs;
    for (int i = 0; i < nargs; i++) s->args[i] = args[i];
    return FLOE_OK;
}

/* ---- time ---------------------------------------------------------------- */

int64_t floe_step_count(const floe_world *w) { return w->step; }
double floe_time(const floe_world *w) { return w->time; }
int floe_stopped(const floe_world *w) { return w->stopped; }

double floe_critical_dt(const floe_world *w) { return floe__crit_dt(w); }

int floe_dt_is_auto(const floe_world *w) { return w->dt_auto; }

double floe_dt(const floe_world *w) {
    if (w->dt > 0) return w->dt;
    /* auto dt before the first step: what start() sets before the contacts of step 0 */
    return floe__auto_dt(w);
}

floe_status floe_set_dt(floe_world *w, double dt) {
    if (!(dt > 0) || !isfinite(dt)) {
        floe__error(w, "dt must be > 0 (got %g)", dt);
        return FLOE_ERR_ARG;
    }
    w->dt = dt;
    w->dt_auto = 0;
    return FLOE_OK;
}
