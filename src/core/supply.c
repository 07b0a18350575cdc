/* Inlets and sinks: bodies inserted into and removed from a running world
 * (docs/supply.md), and the removal of bodies (floe_remove_bodies), which
 * compacts the particle arrays. Everything here runs serially after a step
 * (floe__supply_step), in a fixed order, so runs are deterministic for any
 * thread count and a resumed run repeats the uninterrupted one. */
#include "base/cell_grid.h"
#include "core/bodyforces.h"
#include "core/clump.h"
#include "core/cell.h"
#include "core/energy.h"
#include "core/size_dist.h"
#include "core/supply.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INLET_COOKIE 0x1e7a11
#define SINK_COOKIE 0x5e7c0d

/* ---- events ---------------------------------------------------------------- */

static int room_for_events(floe_world *w, int n) {
    if (n > INT_MAX - w->nevents || !floe__grow((void **)&w->events, &w->evcap, w->nevents + n, sizeof *w->events)) {
        floe__error(w, "out of memory for %d events at step %lld", n, (long long)w->step);
        return 0;
    }
    return 1;
}

/* Appends an event (room made before); one of a type the world does not
 * record (floe_set_event_types) goes to a scratch record the caller may
 * fill as usual. */
static floe_event *push_event(floe_world *w, floe_event_type type, int a, int b) {
    static _Thread_local floe_event discarded;
    floe_event *ev = w->event_mask >> type & 1u ? &w->events[w->nevents++] : &discarded;
    memset(ev, 0, sizeof *ev);
    ev->type = type;
    ev->step = w->step;
    ev->time = w->time;
    ev->a = a;
    ev->b = b;
    return ev;
}

/* ---- names ------------------------------------------------------------------ */

static int name_ok(floe_world *w, const char *fn, const char *name, const char *what, int exists) {
    if (!name || !*name || strlen(name) >= 64) {
        floe__error(w, "%s: the %s's name must be 1 to 63 characters", fn, what);
        return 0;
    }
    if (exists) {
        floe__error(w, "%s: an %s named '%s' exists already", fn, what, name);
        return 0;
    }
    return 1;
}

static int coord_ok(double x) { return fabs(x) <= FLOE_MAX_COORD; }
static int vec_ok(vec3 v) { return coord_ok(v.x) && coord_ok(v.y) && coord_ok(v.z); }

/* ---- inlets ------------------------------------------------------------------ */

floe_inlet_def floe_default_inlet_def(void) {
    floe_inlet_def d;
    memset(&d, 0, sizeof d);
    d.region = FLOE_REGION_BOX;
    d.rate = 1;
    d.t_start = 0;
    d.t_end = INFINITY;
    d.shape = FLOE_SHAPE_SPHERE;
    for (int k = 0; k < 3; k++) d.size[k] = (floe_size_dist){.kind = FLOE_DIST_UNIFORM, .min = 1e-3, .max = 1e-3};
    d.max_tries = 100;
    d.recycle = -1;
    d.internal_cookie = INLET_COOKIE;
    return d;
}

int floe_inlet_count(const floe_world *w) { return w->ninlets; }

int floe_find_inlet(const floe_world *w, const char *name) {
    for (int i = 0; name && i < w->ninlets; i++)
        if (!strcmp(w->inlets[i].name, name)) return i;
    return -1;
}

/* How many of the three sizes a shape draws, and what they are called. */
static int nsizes(int shape) { return shape == FLOE_SHAPE_SPHERE ? 1 : shape == FLOE_SHAPE_CAPSULE ? 2 : 3; }
static const char *size_name(int shape, int k) {
    static const char *const caps[2] = {"radius", "shaft"}, *const ell[3] = {"semi-axis x", "semi-axis y",
                                                                             "semi-axis z"};
    return shape == FLOE_SHAPE_SPHERE ? "radius" : shape == FLOE_SHAPE_CAPSULE ? caps[k] : ell[k];
}

static void dist_to_inlet(floe_inlet *in, int k, const floe_size_dist *d) {
    in->dkind[k] = (int)d->kind;
    in->dnpts[k] = d->npts;
    in->dby_mass[k] = d->by_mass;
    in->dpar[4 * k + 0] = d->min;
    in->dpar[4 * k + 1] = d->max;
    in->dpar[4 * k + 2] = d->mu;
    in->dpar[4 * k + 3] = d->sigma;
    memcpy(&in->dsizes[k * FLOE_SIEVE_MAX_POINTS], d->sizes, sizeof d->sizes);
    memcpy(&in->dpassing[k * FLOE_SIEVE_MAX_POINTS], d->passing, sizeof d->passing);
}

static floe_size_dist dist_of_inlet(const floe_inlet *in, int k) {
    floe_size_dist d;
    memset(&d, 0, sizeof d);
    d.kind = (floe_size_dist_kind)in->dkind[k];
    d.npts = in->dnpts[k];
    d.by_mass = in->dby_mass[k];
    d.min = in->dpar[4 * k + 0];
    d.max = in->dpar[4 * k + 1];
    d.mu = in->dpar[4 * k + 2];
    d.sigma = in->dpar[4 * k + 3];
    memcpy(d.sizes, &in->dsizes[k * FLOE_SIEVE_MAX_POINTS], sizeof d.sizes);
    memcpy(d.passing, &in->dpassing[k * FLOE_SIEVE_MAX_POINTS], sizeof d.passing);
    return d;
}

static double tri_area(const floe_vec3 *v) { return 0.5 * vlen(vcross(vsub(v[1], v[0]), vsub(v[2], v[0]))); }

/* The first thing wrong with an inlet def, as the world's error; 0 if none. */
static int bad_inlet(floe_world *w, const char *fn, const char *name, const floe_inlet_def *d) {
#define BAD(...) return floe__error(w, __VA_ARGS__), 1
    if (d->internal_cookie != INLET_COOKIE)
        BAD("%s: '%s': the def was not made by floe_default_inlet_def() (start from it, then change fields)", fn, name);
    switch (d->region) {
        case FLOE_REGION_BOX:
            if (!(vec_ok(d->lo) && vec_ok(d->hi) && d->lo.x <= d->hi.x && d->lo.y <= d->hi.y && d->lo.z <= d->hi.z))
                BAD("%s: '%s': box lo (%g, %g, %g) and hi (%g, %g, %g) must be finite with lo <= hi", fn, name, d->lo.x,
                    d->lo.y, d->lo.z, d->hi.x, d->hi.y, d->hi.z);
            break;
        case FLOE_REGION_CYLINDER:
            if (!(vec_ok(d->base) && vec_ok(d->axis) && vlen2(d->axis) > 0))
                BAD("%s: '%s': cylinder base and axis must be finite, the axis not zero", fn, name);
            if (!(d->radius > 0 && d->radius <= FLOE_MAX_COORD))
                BAD("%s: '%s': cylinder radius = %g m is out of range (0, %g]", fn, name, d->radius, FLOE_MAX_COORD);
            break;
        case FLOE_REGION_TRIANGLES:
            if (d->ntri < 1 || d->ntri > FLOE_INLET_MAX_TRIANGLES)
                BAD("%s: '%s': %d triangles; an inlet takes 1 to %d", fn, name, d->ntri, FLOE_INLET_MAX_TRIANGLES);
            for (int t = 0; t < d->ntri; t++) {
                for (int j = 0; j < 3; j++)
                    if (!vec_ok(d->tri[t][j])) BAD("%s: '%s': triangle %d: a vertex is not finite", fn, name, t);
                if (!(tri_area(d->tri[t]) > 0)) BAD("%s: '%s': triangle %d has no area", fn, name, t);
            }
            break;
        default:
            BAD("%s: '%s': region %d is not a box, a cylinder or triangles", fn, name, (int)d->region);
    }
    if (!(d->rate > 0 && d->rate <= 1e12))
        BAD("%s: '%s': rate = %g %s is out of range (0, 1e12]", fn, name, d->rate, d->by_mass ? "kg/s" : "bodies/s");
    if (d->by_mass != 0 && d->by_mass != 1) BAD("%s: '%s': by_mass = %d must be 0 or 1", fn, name, d->by_mass);
    if (!(d->t_start >= 0 && isfinite(d->t_start) && !(d->t_end < d->t_start) && !isnan(d->t_end)))
        BAD("%s: '%s': the window [t_start, t_end) = [%g, %g) s needs 0 <= t_start <= t_end", fn, name, d->t_start,
            d->t_end);
    if (d->shape != FLOE_SHAPE_SPHERE && d->shape != FLOE_SHAPE_CAPSULE && d->shape != FLOE_SHAPE_ELLIPSOID)
        BAD("%s: '%s': shape %d: an inlet makes spheres, capsules or ellipsoids", fn, name, (int)d->shape);
    for (int k = 0; k < nsizes(d->shape); k++) {
        char msg[256];
        if (floe_size_dist_check(&d->size[k], msg, sizeof msg))
            BAD("%s: '%s': %s: %s", fn, name, size_name(d->shape, k), msg);
    }
    if (!vec_ok(d->vel) || !(d->vel_spread >= 0 && d->vel_spread <= FLOE_MAX_COORD))
        BAD("%s: '%s': vel must be finite and vel_spread in [0, %g] m/s", fn, name, FLOE_MAX_COORD);
    if (d->material < 0 || d->material >= w->nmats)
        BAD("%s: '%s': material %d is out of range [0, %d]", fn, name, d->material, w->nmats - 1);
    if (w->ngroups < 32 && (d->groups >> w->ngroups))
        BAD("%s: '%s': groups 0x%x name a group beyond the world's %d", fn, name, d->groups, w->ngroups);
    if (d->max_tries < 1 || d->max_tries > 1000000)
        BAD("%s: '%s': max_tries = %d is out of range [1, 1000000]", fn, name, d->max_tries);
    if (d->recycle < -1 || d->recycle >= w->nsinks)
        BAD("%s: '%s': recycle = %d names no sink (the world has %d; -1: no recycling)", fn, name, d->recycle,
            w->nsinks);
#undef BAD
    return 0;
}

int floe_add_inlet(floe_world *w, const char *name, const floe_inlet_def *d) {
    const char *fn = "floe_add_inlet";
    if (!name_ok(w, fn, name, "inlet", floe_find_inlet(w, name) >= 0)) return -1;
    if (!d) {
        floe__error(w, "%s: '%s': the def is NULL", fn, name);
        return -1;
    }
    if (w->ninlets >= FLOE_MAX_INLETS) {
        floe__error(w, "%s: at most %d inlets", fn, FLOE_MAX_INLETS);
        return -1;
    }
    if (bad_inlet(w, fn, name, d)) return -1;
    if (!floe__grow((void **)&w->inlets, &w->inlcap, w->ninlets + 1, sizeof *w->inlets)) {
        floe__error(w, "%s: out of memory", fn);
        return -1;
    }
    floe_inlet *in = &w->inlets[w->ninlets];
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", name);
    in->region = (int)d->region;
    in->shape = (int)d->shape;
    in->by_mass = d->by_mass;
    in->ntri = d->region == FLOE_REGION_TRIANGLES ? d->ntri : 0;
    in->material = d->material;
    in->max_tries = d->max_tries;
    in->groups = d->groups;
    in->lo = d->lo;
    in->hi = d->hi;
    in->base = d->base;
    in->axis = d->axis;
    in->radius = d->radius;
    for (int t = 0; t < in->ntri; t++)
        for (int j = 0; j < 3; j++) {
            in->tri[9 * t + 3 * j + 0] = d->tri[t][j].x;
            in->tri[9 * t + 3 * j + 1] = d->tri[t][j].y;
            in->tri[9 * t + 3 * j + 2] = d->tri[t][j].z;
        }
    in->rate = d->rate;
    in->t_start = d->t_start;
    in->t_end = d->t_end;
    in->spread = d->vel_spread;
    in->vel = d->vel;
    for (int k = 0; k < 3; k++) dist_to_inlet(in, k, k < nsizes(d->shape) ? &d->size[k] : &d->size[0]);
    in->seed = (int64_t)d->seed;
    in->recycle = d->recycle;
    if (d->recycle >= 0) {
        const floe_sink *sk = &w->sinks[d->recycle];
        in->recycle_seen = d->by_mass ? sk->mass : (double)sk->removed;
    }
    floe_rng r;
    floe_rng_seed(&r, d->seed);
    memcpy(in->rng, r.s, sizeof r.s);
    return w->ninlets++;
}

floe_status floe_inlet_get(const floe_world *w, int id, floe_inlet_stats *out, floe_inlet_def *def) {
    CHECK_ID((floe_world *)w, id, w->ninlets, "inlet", FLOE_ERR_ARG);
    const floe_inlet *in = &w->inlets[id];
    if (out)
        *out = (floe_inlet_stats){in->name,   in->inserted, in->mass,     in->asked,
                                  in->missed, in->tries,    in->failures, in->short_of_rate};
    if (def) {
        floe_inlet_def d = floe_default_inlet_def();
        d.region = (floe_region_kind)in->region;
        d.lo = in->lo;
        d.hi = in->hi;
        d.base = in->base;
        d.axis = in->axis;
        d.radius = in->radius;
        d.ntri = in->ntri;
        for (int t = 0; t < in->ntri; t++)
            for (int j = 0; j < 3; j++)
                d.tri[t][j] = v3(in->tri[9 * t + 3 * j], in->tri[9 * t + 3 * j + 1], in->tri[9 * t + 3 * j + 2]);
        d.rate = in->rate;
        d.by_mass = in->by_mass;
        d.t_start = in->t_start;
        d.t_end = in->t_end;
        d.shape = (floe_shape_type)in->shape;
        for (int k = 0; k < 3; k++) d.size[k] = dist_of_inlet(in, k);
        d.vel = in->vel;
        d.vel_spread = in->spread;
        d.material = in->material;
        d.groups = in->groups;
        d.seed = (uint64_t)in->seed;
        d.max_tries = in->max_tries;
        d.recycle = in->recycle;
        *def = d;
    }
    return FLOE_OK;
}

/* ---- sinks ------------------------------------------------------------------- */

floe_sink_def floe_default_sink_def(void) {
    floe_sink_def d;
    memset(&d, 0, sizeof d);
    d.region = FLOE_REGION_HALFSPACE;
    d.normal = v3(0, 0, -1);
    d.group = -1;
    d.t_end = INFINITY;
    d.internal_cookie = SINK_COOKIE;
    return d;
}

int floe_sink_count(const floe_world *w) { return w->nsinks; }

int floe_find_sink(const floe_world *w, const char *name) {
    for (int i = 0; name && i < w->nsinks; i++)
        if (!strcmp(w->sinks[i].name, name)) return i;
    return -1;
}

int floe_add_sink(floe_world *w, const char *name, const floe_sink_def *d) {
    const char *fn = "floe_add_sink";
    if (!name_ok(w, fn, name, "sink", floe_find_sink(w, name) >= 0)) return -1;
#define BAD(...) return floe__error(w, __VA_ARGS__), -1
    if (!d) BAD("%s: '%s': the def is NULL", fn, name);
    if (d->internal_cookie != SINK_COOKIE)
        BAD("%s: '%s': the def was not made by floe_default_sink_def() (start from it, then change fields)", fn, name);
    if (w->nsinks >= FLOE_MAX_SINKS) BAD("%s: at most %d sinks", fn, FLOE_MAX_SINKS);
    vec3 nn = v3(0, 0, 0);
    if (d->region == FLOE_REGION_BOX) {
        if (!(vec_ok(d->lo) && vec_ok(d->hi) && d->lo.x <= d->hi.x && d->lo.y <= d->hi.y && d->lo.z <= d->hi.z))
            BAD("%s: '%s': box lo (%g, %g, %g) and hi (%g, %g, %g) must be finite with lo <= hi", fn, name, d->lo.x,
                d->lo.y, d->lo.z, d->hi.x, d->hi.y, d->hi.z);
    } else if (d->region == FLOE_REGION_HALFSPACE) {
        if (!vec_ok(d->point))
            BAD("%s: '%s': point (%g, %g, %g) must be finite and at most %g in magnitude", fn, name, d->point.x,
                d->point.y, d->point.z, FLOE_MAX_COORD);
        /* a direction: any finite, non-zero length (vdirection neither
         * overflows nor underflows) */
        nn = vdirection(d->normal);
        if (!(vlen2(nn) > 0))
            BAD("%s: '%s': normal (%g, %g, %g) must be finite and not zero", fn, name, d->normal.x, d->normal.y,
                d->normal.z);
    } else {
        BAD("%s: '%s': region %d: a sink is a box or a half-space", fn, name, (int)d->region);
    }
    if (d->group != -1) CHECK_ID(w, d->group, w->ngroups, "group", -1);
    if (!(d->t_start >= 0 && isfinite(d->t_start) && !(d->t_end < d->t_start) && !isnan(d->t_end)))
        BAD("%s: '%s': the window [t_start, t_end) = [%g, %g) s needs 0 <= t_start <= t_end", fn, name, d->t_start,
            d->t_end);
    if (!floe__grow((void **)&w->sinks, &w->skcap, w->nsinks + 1, sizeof *w->sinks)) BAD("%s: out of memory", fn);
#undef BAD
    floe_sink *s = &w->sinks[w->nsinks];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->region = (int)d->region;
    s->group = d->group;
    s->lo = d->lo;
    s->hi = d->hi;
    s->point = d->point;
    s->normal = nn;
    s->t_start = d->t_start;
    s->t_end = d->t_end;
    return w->nsinks++;
}

floe_status floe_sink_get(const floe_world *w, int id, floe_sink_stats *out, floe_sink_def *def) {
    CHECK_ID((floe_world *)w, id, w->nsinks, "sink", FLOE_ERR_ARG);
    const floe_sink *s = &w->sinks[id];
    if (out) *out = (floe_sink_stats){s->name, s->removed, s->mass, s->energy};
    if (def) {
        floe_sink_def d = floe_default_sink_def();
        d.region = (floe_region_kind)s->region;
        d.lo = s->lo;
        d.hi = s->hi;
        d.point = s->point;
        d.normal = s->normal;
        d.group = s->group;
        d.t_start = s->t_start;
        d.t_end = s->t_end;
        *def = d;
    }
    return FLOE_OK;
}

/* ---- removal ------------------------------------------------------------------ */

/* The body's energy as the balance counts it: kinetic and rotational at the
 * current time, and the potential of the body forces (buoyancy). */
static double body_energy(const floe_world *w, int i, uint32_t loaded) {
    double t = 0, r = 0;
    floe__body_kinetic(w, i, loaded, &t, &r);
    return floe__body_forces_on(w) ? t + r + floe__body_potential(w, i) : t + r;
}

/* The elastic energy a contact stores, from its force and stiffnesses:
 * exact for linear springs (the Linear model's normal and shear springs,
 * and twist and rolling springs), the linear-spring estimate for the
 * others (docs/decisions.md#removed-bodies-leave-through-the-boundary-term). */
static double contact_elastic(const floe_contact *c, const floe_contact_warm *x) {
    double e = 0;
    if (c->kn > 0) e += 0.5 * c->f.x * c->f.x / c->kn;
    if (c->kt > 0) e += 0.5 * (c->f.y * c->f.y + c->f.z * c->f.z) / c->kt;
    if (x->kw > 0) e += 0.5 * x->m.x * x->m.x / x->kw;
    if (x->kr > 0) e += 0.5 * (x->m.y * x->m.y + x->m.z * x->m.z) / x->kr;
    return isfinite(e) ? e : 0;
}

/* Takes contact c's force and torques off the body `side` (0: A, 1: B). */
static void unapply_contact(floe_world *w, const floe_contact *c, int side) {
    const floe_geom gc = floe__contact_geom(w, (int)(c - w->con)), *g = &gc;
    floe_contact_warm own;
    const vec3 m = floe__warm(w, (int)(c - w->con), &own)->m;
    vec3 t2 = floe_geom_t2(g);
    vec3 F = vadd(vadd(vscale(g->n, c->f.x), vscale(g->t1, c->f.y)), vscale(t2, c->f.z));
    vec3 M = vadd(vadd(vscale(g->n, m.x), vscale(g->t1, m.y)), vscale(t2, m.z));
    if (side == 0) {
        w->force[c->a] = vsub(w->force[c->a], F);
        w->torque[c->a] = vsub(w->torque[c->a], vadd(vcross(vsub(g->c, w->pos[c->a]), F), M));
    } else {
        w->force[c->b] = vadd(w->force[c->b], F);
        w->torque[c->b] = vsub(w->torque[c->b], vsub(vcross(vsub(g->c, w->pos[c->b]), vneg(F)), M));
    }
}

static inline void *cstate_of(const floe_world *w, int k) { return w->cstate + (size_t)k * w->cstride; }

/* Removes the bodies marked in `dead` (np entries, 1: removed; n of them),
 * after the checks. sink: the sink removing them (-1: the API). *energy:
 * the energy taken out. 0, or FLOE_ERR_MEMORY before anything changed. */
static floe_status remove_marked_all(floe_world *w, const unsigned char *dead, int n, int sink, double *energy);

/* As remove_marked_all, a clump marked taking its pebbles (the bodies
 * after it) with it. */
static floe_status remove_marked(floe_world *w, const unsigned char *dead, int n, int sink, double *energy) {
    if (!w->clump_of) return remove_marked_all(w, dead, n, sink, energy);
    unsigned char *all = malloc((size_t)w->np + 1);
    if (!all) {
        floe__error(w, "out of memory removing %d bodies", n);
        return FLOE_ERR_MEMORY;
    }
    memcpy(all, dead, (size_t)w->np + 1);
    for (int i = 0; i < w->np; i++)
        if (w->clump_of[i] >= 0 && dead[w->clump_of[i]] && !all[i]) {
            all[i] = 1;
            n++;
        }
    floe_status st = remove_marked_all(w, all, n, sink, energy);
    free(all);
    if (st == FLOE_OK && !floe__clumps_index(w)) st = FLOE_ERR_MEMORY; /* the ids moved */
    return st;
}

static floe_status remove_marked_all(floe_world *w, const unsigned char *dead, int n, int sink, double *energy) {
    int ncut = 0, nbr_bodies = 0;
    for (int k = 0; k < w->ncon; k++) ncut += dead[w->con[k].a] || dead[w->con[k].b];
    if (!room_for_events(w, ncut + n)) return FLOE_ERR_MEMORY;
    int *newid = malloc(sizeof(int) * ((size_t)w->np + 1));
    int *touched = malloc(sizeof(int) * (2 * (size_t)ncut + 1));
    if (!newid || !touched) {
        free(newid);
        free(touched);
        floe__error(w, "out of memory removing %d bodies", n);
        return FLOE_ERR_MEMORY;
    }
    uint32_t loaded = floe__loaded_groups(w);
    double out = 0;
    /* surviving bodies whose contact with a removed one goes: the force of
     * that contact leaves their force arrays, and the change of their
     * kinetic energy at t is booked too */
    unsigned char *mark = calloc((size_t)w->np + 1, 1);
    if (!mark) {
        free(newid);
        free(touched);
        floe__error(w, "out of memory removing %d bodies", n);
        return FLOE_ERR_MEMORY;
    }
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *c = &w->con[k];
        if (!(dead[c->a] || dead[c->b])) continue;
        for (int s = 0; s < 2; s++) {
            int i = s ? c->b : c->a;
            if (!dead[i] && !mark[i]) {
                mark[i] = 1;
                touched[nbr_bodies++] = i;
            }
        }
    }
    double before = 0, after = 0;
    if (w->started)
        for (int j = 0; j < nbr_bodies; j++) before += body_energy(w, touched[j], loaded);
    /* contacts: events in contact order, elastic energy, forces off the survivors */
    double elastic = 0;
    for (int k = 0; k < w->ncon; k++) {
        floe_contact *c = &w->con[k];
        if (!(dead[c->a] || dead[c->b])) continue;
        floe_event *ev = push_event(w, FLOE_EVENT_CONTACT_DELETED, c->a, c->b);
        ev->force = c->f;
        floe_contact_warm own;
        const floe_contact_warm *wm = floe__warm(w, k, &own);
        ev->torque = wm->m;
        const floe_model *m = w->insts[c->inst].m;
        if (m && m->event_values) m->event_values(c, wm, cstate_of(w, k), FLOE_EVENT_CONTACT_DELETED, ev->value);
        elastic += contact_elastic(c, wm);
        if (!dead[c->a]) unapply_contact(w, c, 0);
        if (!dead[c->b]) unapply_contact(w, c, 1);
    }
    if (w->started) {
        for (int j = 0; j < nbr_bodies; j++) after += body_energy(w, touched[j], loaded);
        out += elastic + (before - after);
    }
    w->e_elastic -= elastic;
    /* bodies: events, energy, then the arrays compacted in order */
    int id = 0;
    for (int i = 0; i < w->np; i++) {
        if (!dead[i]) {
            newid[i] = id++;
            continue;
        }
        newid[i] = -1;
        double e = w->started ? body_energy(w, i, loaded) : 0;
        out += e;
        floe_event *ev = push_event(w, FLOE_EVENT_BODY_REMOVED, i, sink);
        ev->value[0] = w->mass[i];
        ev->value[1] = e;
    }
    if (w->started) w->e_boundary -= out;
    /* shape records: the removed bodies' rows go, the others keep their order */
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) {
        floe_shape_store *st = &w->store[t];
        if (!st->size || !st->n) continue;
        int *row = calloc((size_t)st->n, sizeof *row); /* 1: removed */
        if (!row) { /* cannot happen for small stores in practice; keep the world whole */
            floe__error(w, "out of memory removing %d bodies", n);
            free(newid);
            free(touched);
            free(mark);
            return FLOE_ERR_MEMORY;
        }
        for (int i = 0; i < w->np; i++)
            if (dead[i] && w->shape[i] == t) row[w->shape_idx[i]] = 1;
        int r = 0;
        for (int q = 0; q < st->n; q++) {
            if (row[q]) {
                row[q] = -1;
                continue;
            }
            if (r != q) memmove(st->rec + (size_t)r * st->size, st->rec + (size_t)q * st->size, st->size);
            row[q] = r++;
        }
        for (int i = 0; i < w->np; i++)
            if (!dead[i] && w->shape[i] == t) w->shape_idx[i] = row[w->shape_idx[i]];
        st->n = r;
        free(row);
    }
    for (int i = 0; i < w->np; i++) {
        int j = newid[i];
        if (j < 0 || j == i) continue;
#define MOVE(arr) w->arr[j] = w->arr[i];
        FLOE_PARTICLE_ARRAYS(MOVE)
        if (w->geom_kept) {
            FLOE_PARTICLE_ARRAYS_KEPT(MOVE)
        }
#undef MOVE
    }
    w->np -= n;
    floe__forces_unknown(w); /* the sums moved with their bodies */
    /* contacts: the others keep their order and state, renumbered */
    int kk = 0;
    for (int k = 0; k < w->ncon; k++) {
        floe_contact c = w->con[k];
        if (newid[c.a] < 0 || newid[c.b] < 0) continue;
        c.a = newid[c.a];
        c.b = newid[c.b];
        floe_contact_cold x = w->ccold[k];
        x.nbr = -1;
        if (kk != k) memmove(cstate_of(w, kk), cstate_of(w, k), w->cstride);
        if (w->cwarm) w->cwarm[kk] = w->cwarm[k];
        if (w->cgeom) w->cgeom[kk] = w->cgeom[k];
        w->ccold[kk] = x;
        w->con[kk++] = c;
    }
    w->ncon = kk;
    /* the pair list names old ids: rebuilt at the next step */
    w->bp.valid = 0;
    w->bp.npairs = 0;
    if (energy) *energy = out;
    free(newid);
    free(touched);
    free(mark);
    return FLOE_OK;
}

/* A clump goes as a whole, named by its own id: its pebbles are not
 * removable by themselves (remove_marked takes them with it). */
static int removable(const floe_world *w, int i) {
    int s = w->shape[i];
    if (w->clump_of && w->clump_of[i] >= 0) return 0;
    return s == FLOE_SHAPE_SPHERE || s == FLOE_SHAPE_CAPSULE || s == FLOE_SHAPE_ELLIPSOID || s == FLOE_SHAPE_CLUMP;
}

floe_status floe_remove_bodies(floe_world *w, const int *ids, int n, double *energy) {
    const char *fn = "floe_remove_bodies";
    if (energy) *energy = 0;
    if (n < 0 || (n > 0 && !ids)) {
        floe__error(w, "%s: n = %d must be >= 0 with ids not NULL", fn, n);
        return FLOE_ERR_ARG;
    }
    if (n == 0) return FLOE_OK;
    unsigned char *dead = calloc((size_t)w->np + 1, 1);
    if (!dead) {
        floe__error(w, "%s: out of memory", fn);
        return FLOE_ERR_MEMORY;
    }
    for (int k = 0; k < n; k++) {
        int i = ids[k];
        if (i < 0 || i >= w->np) {
            free(dead);
            return (floe_status)floe__bad_id(w, fn, "particle", i, w->np);
        }
        if (dead[i] || !removable(w, i)) {
            floe__error(w, "%s: particle %d %s", fn, i,
                        dead[i] ? "is listed twice"
                        : w->clump_of && w->clump_of[i] >= 0
                            ? "is a pebble of a clump (remove the clump, its id)"
                            : "is not a sphere, capsule, ellipsoid or clump (boundaries stay)");
            free(dead);
            return FLOE_ERR_ARG;
        }
        dead[i] = 1;
    }
    floe_status st = remove_marked(w, dead, n, -1, energy);
    free(dead);
    return st;
}

/* ---- inserting ------------------------------------------------------------------ */

/* A centre uniform in the inlet's region. */
static vec3 random_centre(const floe_inlet *in, floe_rng *r) {
    if (in->region == FLOE_REGION_BOX) {
        double u = floe_rng_uniform(r), v = floe_rng_uniform(r), s = floe_rng_uniform(r);
        return v3(in->lo.x + u * (in->hi.x - in->lo.x), in->lo.y + v * (in->hi.y - in->lo.y),
                  in->lo.z + s * (in->hi.z - in->lo.z));
    }
    if (in->region == FLOE_REGION_CYLINDER) {
        vec3 a = vnormalize(in->axis);
        vec3 e1 = vnormalize(vcross(a, fabs(a.x) < 0.9 ? v3(1, 0, 0) : v3(0, 1, 0)));
        vec3 e2 = vcross(a, e1);
        double x, y; /* uniform in the unit disc by rejection (no sin, cos) */
        do {
            x = 2 * floe_rng_uniform(r) - 1;
            y = 2 * floe_rng_uniform(r) - 1;
        } while (x * x + y * y > 1);
        double s = floe_rng_uniform(r);
        return vadd(vadd(in->base, vscale(in->axis, s)), vadd(vscale(e1, in->radius * x), vscale(e2, in->radius * y)));
    }
    /* triangles: one by area, then a point uniform in it */
    double tot = 0;
    for (int t = 0; t < in->ntri; t++) {
        const double *p = &in->tri[9 * t];
        vec3 v[3] = {v3(p[0], p[1], p[2]), v3(p[3], p[4], p[5]), v3(p[6], p[7], p[8])};
        tot += tri_area(v);
    }
    double target = floe_rng_uniform(r) * tot, acc = 0;
    int t = 0;
    vec3 v[3];
    for (;; t++) {
        const double *p = &in->tri[9 * t];
        v[0] = v3(p[0], p[1], p[2]);
        v[1] = v3(p[3], p[4], p[5]);
        v[2] = v3(p[6], p[7], p[8]);
        acc += tri_area(v);
        if (target < acc || t == in->ntri - 1) break;
    }
    double u = floe_rng_uniform(r), s = floe_rng_uniform(r);
    if (u + s > 1) {
        u = 1 - u;
        s = 1 - s;
    }
    return vadd(v[0], vadd(vscale(vsub(v[1], v[0]), u), vscale(vsub(v[2], v[0]), s)));
}

/* The shape's parameters from the drawn sizes. */
static int params_of(const floe_inlet *in, const double *sz, double *p) {
    for (int k = 0; k < nsizes(in->shape); k++) p[k] = sz[k];
    return nsizes(in->shape);
}

/* Record, mass of a body of the inlet's shape with sizes sz at pose; 0, or
 * -1 if the class refuses it. rec: room for any record. */
static int make_record(const floe_world *w, const floe_inlet *in, const double *sz, const floe_pose *pose, double *rec,
                       double *mass) {
    const floe_shape_class *c = floe_shape_class_get(in->shape);
    double p[3];
    params_of(in, sz, p);
    char msg[128];
    if (c->size > 64 * sizeof(double) || c->init(rec, p, pose, msg, sizeof msg)) return -1;
    vec3 I;
    c->mass(rec, w->mats[in->material].p[MAT_DENSITY], mass, &I);
    return 0;
}

/* The largest body of the inlet, its sizes at their largest: its mass
 * (0 if the class refuses it) and its bounding radius. */
static double largest_body(const floe_world *w, const floe_inlet *in, double *bound) {
    double sz[3] = {0, 0, 0}, rec[64], mass = 0;
    for (int k = 0; k < nsizes(in->shape); k++) {
        floe_size_dist d = dist_of_inlet(in, k);
        sz[k] = floe__size_max(&d);
    }
    floe_pose pose = {v3(0, 0, 0), (quat){1, 0, 0, 0}};
    int bad = make_record(w, in, sz, &pose, rec, &mass);
    if (bound) *bound = bad ? INFINITY : floe_shape_class_get(in->shape)->bound(rec);
    return bad ? 0 : mass;
}

/* ---- the insertion test's search ------------------------------------------------------ */

/* What a candidate body could touch, found without looking at every body
 * (docs/decisions.md#an-inlets-overlap-test-looks-only-near-the-candidate):
 * every gridded body, and every finite boundary (a facet: the centroid of
 * its corners, reaching to the farthest corner plus its radius), is a point
 * with a reach on one of several hashed grids (base/cell_grid.h) by the
 * size of that reach: level k holds the reaches in [4^k, 4^(k+1)) m on
 * cells 2 x 4^(k+1) m wide, so that a few large bodies do not crowd the
 * cells of many small ones, and a candidate looks at the cells within its
 * bound plus the level's largest reach on each level. Infinite boundaries
 * (walls, cylinders) are tested always. With a periodic cell the points are
 * wrapped into the cell and a candidate searches from its wrapped centre
 * and from the points of floe__cell_near_images, so it meets the images of
 * the bodies across the faces. The search is built in one pass over the
 * bodies when the first inlet of a step has a body to place, from those
 * within reach of an inlet's region (without a cell), and each inserted
 * body joins it: a candidate's cost depends on the bodies near it, not on
 * how many the world holds. Its memory stays with the world. */
#define ROOM_LEVELS 64

typedef struct room_level {
    int key;          /* reaches in [4^key, 4^(key+1)) m */
    double rmax;      /* its largest reach */
    floe_cell_grid g; /* grid ids index item[] */
    int *item;        /* the room's points on this level */
    int n, cap;
} room_level;

typedef struct room {
    int built, periodic;
    double hinv[9]; /* H^-1 of the periodic cell */
    vec3 *c;        /* points: centre (wrapped into the cell) */
    double *reach;  /* how far the body reaches from it */
    int *body;      /* the body */
    int n, cap;     /* points */
    room_level lv[ROOM_LEVELS];
    int nlv;                /* levels in use */
    int nmade;              /* levels whose memory is kept, from step to step (>= nlv) */
    int *far, nfar, farcap; /* infinite boundaries */
    double reach_max;
    vec3 lo, hi; /* about the inlets' regions and the cell: the grids' box (points beyond share edge cells) */
} room;

/* The world frees it through the pointer (floe_world_destroy). */
static void room_free(void *p) {
    room *r = p;
    if (!r) return;
    free(r->c);
    free(r->reach);
    free(r->body);
    free(r->far);
    for (int l = 0; l < r->nmade; l++) {
        floe_cell_grid_free(&r->lv[l].g);
        free(r->lv[l].item);
    }
    free(r);
}

/* The world's room, its memory kept from step to step (so that a world of
 * millions of bodies does not map and fault in fresh pages at every step
 * an inlet inserts); marked not built. NULL when out of memory. */
static room *room_of(floe_world *w) {
    room *r = w->supply_room;
    if (!r && (r = calloc(1, sizeof *r))) {
        w->supply_room = r;
        w->supply_room_free = room_free;
    }
    if (r) r->built = 0;
    return r;
}

/* floor(log4(x)) for x > 0, from the binary exponent (exact) */
static int level_key(double x) {
    int e;
    frexp(x, &e); /* x in [2^(e-1), 2^e) */
    int l2 = e - 1;
    return l2 >= 0 ? l2 / 2 : -((1 - l2) / 2);
}

static void grow_box(room *r, vec3 p) {
    r->lo = v3(fmin(r->lo.x, p.x), fmin(r->lo.y, p.y), fmin(r->lo.z, p.z));
    r->hi = v3(fmax(r->hi.x, p.x), fmax(r->hi.y, p.y), fmax(r->hi.z, p.z));
}

/* The level of reach `x`, made (with room for n points) if it is new; -1
 * when out of memory. */
static int level_of(room *r, double x, int64_t n) {
    int key = level_key(x), l = 0;
    while (l < r->nlv && r->lv[l].key != key) l++;
    if (l < r->nlv) return l;
    if (r->nlv == ROOM_LEVELS) { /* more sizes than levels: the nearest level (correct, slower) */
        l = 0;
        for (int k = 1; k < r->nlv; k++)
            if (abs(r->lv[k].key - key) < abs(r->lv[l].key - key)) l = k;
        return l;
    }
    room_level *nl = &r->lv[r->nlv];
    if (r->nlv == r->nmade) { /* a level never made */
        memset(nl, 0, sizeof *nl);
        if (floe_cell_grid_init(&nl->g, r->lo, r->hi, ldexp(1, 2 * key + 3), n)) return -1;
        r->nmade++;
    } else if (floe_cell_grid_reset(&nl->g, r->lo, r->hi, ldexp(1, 2 * key + 3), n)) {
        free(nl->item); /* the grid is freed: drop the level */
        *nl = r->lv[--r->nmade];
        memset(&r->lv[r->nmade], 0, sizeof *nl);
        return -1;
    }
    nl->key = key;
    nl->rmax = 0;
    nl->n = 0;
    return r->nlv++;
}

/* Puts point p (in the point arrays) on the grid of level l; 0, or -1
 * when out of memory. */
static int room_place(room *r, int p, int l) {
    room_level *lv = &r->lv[l];
    if (!floe__grow((void **)&lv->item, &lv->cap, lv->n + 1, sizeof *lv->item) ||
        floe_cell_grid_reserve(&lv->g, lv->n + 1))
        return -1;
    lv->item[lv->n] = p;
    floe_cell_grid_insert(&lv->g, lv->n++, r->c[p]);
    lv->rmax = fmax(lv->rmax, r->reach[p]);
    r->reach_max = fmax(r->reach_max, r->reach[p]);
    return 0;
}

/* The point of body i, or 0 for an infinite boundary; reach 0: not a point. */
static vec3 point_of(const floe_world *w, const room *r, int i, double *reach) {
    *reach = 0;
    if (w->bound[i] > 0) {
        *reach = w->bound[i];
        return r->periodic ? floe__cell_wrap_point(w, r->hinv, w->pos[i]) : w->pos[i];
    }
    const floe_shape_class *cl = floe__class_of(w, i);
    if (!cl->nvertices) return v3(0, 0, 0);
    vec3 v[FLOE_SHAPE_MAX_VERTICES], m = v3(0, 0, 0);
    floe_pose pose = floe__pose(w, i);
    cl->vertices(floe__shape_data(w, i), &pose, v);
    for (int k = 0; k < cl->nvertices; k++) m = vadd(m, v[k]);
    m = vscale(m, 1.0 / cl->nvertices);
    double d2 = 0;
    for (int k = 0; k < cl->nvertices; k++) d2 = fmax(d2, vlen2(vsub(v[k], m)));
    /* a margin for rounding: the test must never skip a boundary the candidate touches */
    *reach = (sqrt(d2) + w->radius[i]) * (1 + 1e-9) + 1e-300;
    return m;
}

/* Room for cap points (their centres, reaches and bodies): 0, or -1 out of
 * memory (what was grown is kept). */
static int room_reserve(room *r, int cap) {
    vec3 *nc = realloc(r->c, sizeof *nc * (size_t)cap);
    if (nc) r->c = nc;
    double *nr = realloc(r->reach, sizeof *nr * (size_t)cap);
    if (nr) r->reach = nr;
    int *nb = realloc(r->body, sizeof *nb * (size_t)cap);
    if (nb) r->body = nb;
    if (!nc || !nr || !nb) return -1;
    r->cap = cap;
    return 0;
}

/* Adds body i to the room; 0, or -1 when out of memory. */
static int room_add(const floe_world *w, room *r, int i) {
    double reach;
    vec3 c = point_of(w, r, i, &reach);
    if (!(reach > 0)) {
        if (!floe__grow((void **)&r->far, &r->farcap, r->nfar + 1, sizeof *r->far)) return -1;
        r->far[r->nfar++] = i;
        return 0;
    }
    if (r->n == r->cap && room_reserve(r, r->cap ? 2 * r->cap : 64)) return -1;
    r->c[r->n] = c;
    r->reach[r->n] = reach;
    r->body[r->n] = i;
    int l = level_of(r, reach, 16);
    return l < 0 ? -1 : room_place(r, r->n++, l);
}

/* The box of an inlet's region, grown by e, added to [*lo, *hi]. */
static void region_box(const floe_inlet *in, double e, vec3 *lo, vec3 *hi) {
    vec3 p[2 * FLOE_INLET_MAX_TRIANGLES * 3 > 4 ? 2 * FLOE_INLET_MAX_TRIANGLES * 3 : 4];
    int n = 0;
    if (in->region == FLOE_REGION_BOX) {
        p[n++] = in->lo;
        p[n++] = in->hi;
    } else if (in->region == FLOE_REGION_CYLINDER) {
        double r = in->radius;
        for (int s = 0; s < 2; s++) {
            vec3 c = s ? vadd(in->base, in->axis) : in->base;
            p[n++] = v3(c.x - r, c.y - r, c.z - r);
            p[n++] = v3(c.x + r, c.y + r, c.z + r);
        }
    } else {
        for (int t = 0; t < 3 * in->ntri; t++) p[n++] = v3(in->tri[3 * t], in->tri[3 * t + 1], in->tri[3 * t + 2]);
    }
    for (int k = 0; k < n; k++) {
        *lo = v3(fmin(lo->x, p[k].x - e), fmin(lo->y, p[k].y - e), fmin(lo->z, p[k].z - e));
        *hi = v3(fmax(hi->x, p[k].x + e), fmax(hi->y, p[k].y + e), fmax(hi->z, p[k].z + e));
    }
}

static floe_status room_build(floe_world *w, room *r) {
    r->built = 1;
    r->n = r->nlv = r->nfar = 0;
    r->reach_max = 0;
    r->periodic = w->cell.axes != 0;
    if (r->periodic) floe__cell_inverse(w->cell.h, r->hinv);
    r->lo = v3(INFINITY, INFINITY, INFINITY);
    r->hi = v3(-INFINITY, -INFINITY, -INFINITY);
    /* without a cell only the bodies a candidate can reach go on the grids:
     * those within an inlet's largest bounding radius of its region (with a
     * cell every body, whose images may reach a region through a face) */
    vec3 flo = r->lo, fhi = r->hi;
    for (int k = 0; k < w->ninlets; k++) {
        double b;
        largest_body(w, &w->inlets[k], &b);
        region_box(&w->inlets[k], 0, &r->lo, &r->hi);
        region_box(&w->inlets[k], b * (1 + 1e-9), &flo, &fhi); /* a margin for rounding */
    }
    if (r->periodic) {
        grow_box(r, w->cell.origin);
        grow_box(r, vadd(w->cell.origin, floe__mat_vec(w->cell.h, v3(1, 1, 1))));
    }
    /* the points, then each level's grid made for its count at once */
    int ok = 1;
    if (r->cap < w->np) ok = !room_reserve(r, w->np);
    for (int i = 0; ok && i < w->np; i++) {
        double reach = w->bound[i];
        vec3 c = w->pos[i];
        if (!(reach > 0) || r->periodic) c = point_of(w, r, i, &reach);
        if (!r->periodic && reach > 0 &&
            !(c.x >= flo.x - reach && c.x <= fhi.x + reach && c.y >= flo.y - reach && c.y <= fhi.y + reach &&
              c.z >= flo.z - reach && c.z <= fhi.z + reach))
            continue; /* out of every candidate's reach */
        if (!(reach > 0)) {
            ok = floe__grow((void **)&r->far, &r->farcap, r->nfar + 1, sizeof *r->far);
            if (ok) r->far[r->nfar++] = i;
            continue;
        }
        r->c[r->n] = c;
        r->reach[r->n] = reach;
        r->body[r->n++] = i;
    }
    /* the level of every point, then each level's grid made for its count at once */
    int *lvl = ok ? malloc(sizeof *lvl * (size_t)(r->n + 1)) : NULL, key[ROOM_LEVELS], nk = 0, k = 0;
    int64_t per[ROOM_LEVELS] = {0};
    ok = lvl != NULL;
    for (int p = 0; ok && p < r->n; p++) {
        int kp = level_key(r->reach[p]);
        if (!(nk && key[k] == kp)) { /* most points share the last one's */
            for (k = 0; k < nk && key[k] != kp; k++) {}
            if (k == nk && nk < ROOM_LEVELS) key[nk++] = kp;
            else if (k == nk) /* more sizes than levels: the nearest (correct, slower) */
                for (int q = k = 0; q < nk; q++)
                    if (abs(key[q] - kp) < abs(key[k] - kp)) k = q;
        }
        lvl[p] = k;
        per[k]++;
    }
    for (int l = 0; ok && l < nk; l++) ok = level_of(r, ldexp(1, 2 * key[l]), per[l]) == l;
    for (int p = 0; ok && p < r->n; p++) ok = room_place(r, p, lvl[p]) == 0;
    free(lvl);
    if (!ok) {
        floe__error(w, "out of memory for the insertion test of the inlets at step %lld", (long long)w->step);
        return FLOE_ERR_MEMORY;
    }
    return FLOE_OK;
}

/* Whether body j (posed at x) and a candidate (shape, record rec, pose)
 * touch, through the shape classes' narrow phase with no gap. */
static int touch(const floe_world *w, int j, vec3 x, int shape, const void *rec, const floe_pose *pose) {
    floe_pose pj = floe__pose(w, j);
    pj.x = x;
    floe_raw_contact raw;
    floe_collide_fn *fn = floe_narrowphase(shape, w->shape[j]);
    if (fn) return fn(rec, pose, floe__shape_data(w, j), &pj, NULL, 0, &raw) != 0;
    fn = floe_narrowphase(w->shape[j], shape);
    return fn && fn(floe__shape_data(w, j), &pj, rec, pose, NULL, 0, &raw);
}

/* Whether a candidate (shape, record rec, pose, bounding radius bound)
 * touches a body of the world or an image of one. */
static int touches_any(floe_world *w, const room *r, int shape, const void *rec, const floe_pose *pose, double bound) {
    for (int k = 0; k < r->nfar; k++)
        if (touch(w, r->far[k], w->pos[r->far[k]], shape, rec, pose)) return 1;
    vec3 from[27];
    int nfrom = 1;
    from[0] = pose->x;
    if (r->periodic) {
        from[0] = floe__cell_wrap_point(w, r->hinv, pose->x);
        nfrom = floe__cell_near_images(w, r->hinv, from[0], bound + r->reach_max, from);
    }
    floe_pose at = *pose;
    for (int l = 0; l < r->nlv; l++) {
        const room_level *lv = &r->lv[l];
        double e = bound + lv->rmax;
        for (int q = 0; q < nfrom; q++) {
            vec3 p = from[q];
            /* a margin for rounding: the cells must hold every point within e */
            vec3 m = v3(e + 1e-12 * (fabs(p.x) + e), e + 1e-12 * (fabs(p.y) + e), e + 1e-12 * (fabs(p.z) + e));
            floe_cell_iter it;
            floe_cell_grid_box(&lv->g, vsub(p, m), vadd(p, m), &it);
            for (int64_t g; (g = floe_cell_next(&it)) >= 0;) {
                int k = lv->item[g], j = r->body[k];
                w->supply_tests++;
                double rr = r->reach[k] + bound;
                if (vlen2(vsub(r->c[k], p)) > rr * rr) continue;
                /* bodies at their wrapped centre; a facet (no cell) where it is */
                at.x = p;
                if (touch(w, j, w->bound[j] > 0 ? r->c[k] : w->pos[j], shape, rec, &at)) return 1;
            }
        }
    }
    return 0;
}

/* ---- inserting, continued ---------------------------------------------------------------- */

/* The budget of one step (FLOE_INLET_MAX_STEP): refused before anything is
 * inserted when the amount owed makes it certain (a count, or a mass that
 * even bodies of the largest size would exceed the count with). */
static int over_step_budget(floe_world *w, const floe_inlet *in, double owed) {
    double bodies = in->by_mass ? owed / largest_body(w, in, NULL) : owed;
    if (!(bodies >= FLOE_INLET_MAX_STEP + 1.0)) return 0;
    char many[64] = "";
    if (in->by_mass) snprintf(many, sizeof many, " kg, at least %.4g bodies,", bodies);
    floe__error(w,
                "inlet '%s' at step %lld: it owes %.4g%s after this step of %g s at a rate of %g %s, more than the %d "
                "bodies an inlet may add after one step (FLOE_INLET_MAX_STEP); lower the rate or dt",
                in->name, (long long)w->step, owed, in->by_mass ? many : " bodies", w->dt, in->rate,
                in->by_mass ? "kg/s" : "bodies/s", FLOE_INLET_MAX_STEP);
    return 1;
}

/* One inlet after a step. resume: its insertion in this step was
 * interrupted; what it owes is counted already. */
static floe_status run_inlet(floe_world *w, int id, room *rm, int resume) {
    floe_inlet *in = &w->inlets[id];
    if (!resume) {
        if (!(w->time > in->t_start && w->time - w->dt < in->t_end)) return FLOE_OK;
        /* the part of the step inside the window */
        double t0 = fmax(w->time - w->dt, in->t_start), t1 = fmin(w->time, in->t_end);
        double add = in->rate * (t1 - t0), seen = in->recycle_seen;
        if (in->recycle >= 0) { /* what the sink removed since the last step (sinks run first) */
            const floe_sink *sk = &w->sinks[in->recycle];
            double now = in->by_mass ? sk->mass : (double)sk->removed;
            add = now - seen;
            seen = now;
        }
        if (over_step_budget(w, in, in->owed + add)) return FLOE_ERR_ARG;
        in->recycle_seen = seen;
        in->owed += add;
        in->asked += add;
    }
    floe_rng r;
    memcpy(r.s, in->rng, sizeof r.s);
    const floe_shape_class *cls = floe_shape_class_get(in->shape);
    floe_status st = FLOE_OK;
    int64_t done = 0; /* bodies inserted in this call */
    for (;;) {
        if (!in->pending) {
            for (int k = 0; k < nsizes(in->shape); k++) {
                floe_size_dist d = dist_of_inlet(in, k);
                in->psize[k] = floe__size_sample(&d, &r);
            }
            in->pending = 1;
            in->ptries = 0;
        }
        double rec[64], mass = 0;
        floe_pose pose = {v3(0, 0, 0), (quat){1, 0, 0, 0}};
        if (make_record(w, in, in->psize, &pose, rec, &mass)) {
            floe__error(w, "inlet '%s': the class refused a drawn body", in->name);
            st = FLOE_ERR_ARG;
            break;
        }
        double q = in->by_mass ? mass : 1;
        if (in->owed < q) break;
        if (done >= FLOE_INLET_MAX_STEP) { /* a mass rate of bodies smaller than the largest */
            floe__error(w,
                        "inlet '%s' at step %lld: it has added %d bodies after this step and owes %.4g %s more: "
                        "that is the most an inlet may add after one step (FLOE_INLET_MAX_STEP); lower the rate or dt",
                        in->name, (long long)w->step, FLOE_INLET_MAX_STEP, in->owed, in->by_mass ? "kg" : "bodies");
            st = FLOE_ERR_ARG;
            break;
        }
        if (w->np >= w->max_particles) {
            floe__error(w,
                        "inlet '%s' at step %lld: the world holds %d particles, its particle budget (%lld; "
                        "floe_set_particle_budget, by default what the scene loader's memory guard allows); the "
                        "inlet has inserted %lld bodies and owes %.4g %s more: lower its rate or shorten its window",
                        in->name, (long long)w->step, w->np, (long long)w->max_particles, (long long)in->inserted,
                        in->owed, in->by_mass ? "kg" : "bodies");
            st = FLOE_ERR_MEMORY;
            break;
        }
        if (!rm->built && (st = room_build(w, rm)) != FLOE_OK) break;
        int placed = 0, stop = 0;
        for (int t = in->ptries; t < in->max_tries && !placed; t++) {
            if ((in->tries & 63) == 63 && floe__interrupted(w)) { /* every 64 centres */
                in->ptries = t;
                stop = 1;
                break;
            }
            in->tries++;
            pose.x = random_centre(in, &r);
            pose.q = in->shape == FLOE_SHAPE_SPHERE ? (quat){1, 0, 0, 0} : floe_rng_rotation(&r);
            if (make_record(w, in, in->psize, &pose, rec, &mass)) continue;
            double bound = cls->bound(rec);
            placed = !touches_any(w, rm, in->shape, rec, &pose, bound);
        }
        if (stop) {
            w->supply_next = id + 1;
            floe__error(w,
                        "interrupted in the insertion of inlet '%s' after step %lld (%lld bodies inserted so far); "
                        "the next step finishes it first",
                        in->name, (long long)w->step, (long long)in->inserted);
            st = FLOE_INTERRUPTED;
            break;
        }
        in->ptries = 0;
        if (!placed) {
            in->failures++;
            if (in->owed > q) in->missed += in->owed - q;
            in->owed = q;
            if (!in->short_of_rate) {
                in->short_of_rate = 1;
                if (room_for_events(w, 1)) {
                    floe_event *ev = push_event(w, FLOE_EVENT_INLET_SHORT, -1, id);
                    ev->value[0] = in->asked;
                    ev->value[1] = in->by_mass ? in->mass : (double)in->inserted;
                }
            }
            break;
        }
        floe_body_def d = floe_default_body_def();
        d.pos = pose.x;
        d.ori = pose.q;
        d.material = in->material;
        d.groups = in->groups;
        d.vel = in->vel;
        if (in->spread > 0) {
            d.vel.x += in->spread * (2 * floe_rng_uniform(&r) - 1);
            d.vel.y += in->spread * (2 * floe_rng_uniform(&r) - 1);
            d.vel.z += in->spread * (2 * floe_rng_uniform(&r) - 1);
        }
        double p[3];
        params_of(in, in->psize, p);
        int b = floe_add_body(w, &d, (floe_shape_type)in->shape, p);
        if (b < 0 || room_add(w, rm, b)) {
            if (b >= 0) floe__error(w, "out of memory for the insertion test of the inlets");
            st = FLOE_ERR_MEMORY;
            break;
        }
        done++;
        in->pending = 0;
        in->owed -= q;
        in->inserted++;
        in->mass += w->mass[b];
        if (!room_for_events(w, 1)) {
            st = FLOE_ERR_MEMORY;
            break;
        }
        floe_event *ev = push_event(w, FLOE_EVENT_BODY_INSERTED, b, id);
        ev->value[0] = w->mass[b];
    }
    memcpy(in->rng, r.s, sizeof r.s);
    return st;
}

/* Whether body i's centre is in sink s. */
static int in_sink(const floe_world *w, const floe_sink *s, int i) {
    if (!removable(w, i) || w->blocked[i] == FLOE_DOF_ALL) return 0;
    if (s->group >= 0 && !(w->groups[i] & (1u << s->group))) return 0;
    vec3 x = w->pos[i];
    if (s->region == FLOE_REGION_BOX)
        return x.x >= s->lo.x && x.x <= s->hi.x && x.y >= s->lo.y && x.y <= s->hi.y && x.z >= s->lo.z && x.z <= s->hi.z;
    return vdot(vsub(x, s->point), s->normal) > 0;
}

static floe_status run_sink(floe_world *w, int id) {
    floe_sink *s = &w->sinks[id];
    if (!(w->time >= s->t_start && w->time < s->t_end)) return FLOE_OK;
    int n = 0;
    for (int i = 0; i < w->np; i++) n += in_sink(w, s, i);
    if (!n) return FLOE_OK;
    unsigned char *dead = calloc((size_t)w->np + 1, 1);
    if (!dead) {
        floe__error(w, "sink '%s': out of memory", s->name);
        return FLOE_ERR_MEMORY;
    }
    double m = 0;
    for (int i = 0; i < w->np; i++)
        if (in_sink(w, s, i)) {
            dead[i] = 1;
            m += w->mass[i];
        }
    double e = 0;
    floe_status st = remove_marked(w, dead, n, id, &e);
    free(dead);
    if (st == FLOE_OK) {
        s->removed += n;
        s->mass += m;
        s->energy += e;
    }
    return st;
}

floe_status floe__supply_step(floe_world *w) {
    floe_status st = FLOE_OK;
    int k0 = 0, resume = w->supply_next > 0;
    if (resume) k0 = w->supply_next - 1; /* the sinks and the inlets before it are done */
    else
        for (int k = 0; k < w->nsinks && st == FLOE_OK; k++) st = run_sink(w, k);
    w->supply_next = 0;
    room *rm = w->ninlets > k0 ? room_of(w) : NULL;
    if (w->ninlets > k0 && !rm) {
        floe__error(w, "out of memory for the insertion test of the inlets at step %lld", (long long)w->step);
        return FLOE_ERR_MEMORY;
    }
    for (int k = k0; k < w->ninlets && st == FLOE_OK; k++) st = run_inlet(w, k, rm, resume && k == k0);
    return st;
}

int floe__supply_check(const floe_world *w, char *why, size_t len) {
    for (int k = 0; k < w->ninlets; k++) {
        const floe_inlet *in = &w->inlets[k];
        if (in->shape != FLOE_SHAPE_SPHERE && in->shape != FLOE_SHAPE_CAPSULE && in->shape != FLOE_SHAPE_ELLIPSOID)
            return snprintf(why, len, "/supply/inlet_shape: inlet %d: shape %d is not a sphere, capsule or ellipsoid",
                            k, in->shape),
                   -1;
        if (in->region == FLOE_REGION_TRIANGLES && in->ntri < 1)
            return snprintf(why, len, "/supply/inlet_ntri: inlet %d has no triangles", k), -1;
        if (in->region == FLOE_REGION_CYLINDER && !(in->radius > 0 && vlen2(in->axis) > 0))
            return snprintf(why, len, "/supply: inlet %d: a cylinder without radius or axis", k), -1;
        if (in->region == FLOE_REGION_BOX && !(in->lo.x <= in->hi.x && in->lo.y <= in->hi.y && in->lo.z <= in->hi.z))
            return snprintf(why, len, "/supply/inlet_lo: inlet %d: lo is above hi", k), -1;
        if (!(in->t_end >= in->t_start))
            return snprintf(why, len, "/supply/inlet_t_end: inlet %d: end before start", k), -1;
        if (in->ptries >= in->max_tries || (in->ptries > 0 && !in->pending))
            return snprintf(why, len, "/supply/inlet_pending_tries: inlet %d: %d tries of %d for %s", k, in->ptries,
                            in->max_tries, in->pending ? "the pending body" : "no pending body"),
                   -1;
        for (int j = 0; j < nsizes(in->shape); j++) {
            floe_size_dist d = dist_of_inlet(in, j);
            char msg[256];
            if (floe_size_dist_check(&d, msg, sizeof msg))
                return snprintf(why, len, "/supply/inlet_dist_*: inlet %d, %s: %s", k, size_name(in->shape, j), msg),
                       -1;
        }
    }
    if (w->supply_next > w->ninlets)
        return snprintf(why, len, "/world@supply_unfinished: %d names no inlet (the world has %d)", w->supply_next - 1,
                        w->ninlets),
               -1;
    for (int k = 0; k < w->nsinks; k++) {
        const floe_sink *s = &w->sinks[k];
        if (s->region != FLOE_REGION_BOX && s->region != FLOE_REGION_HALFSPACE)
            return snprintf(why, len, "/supply/sink_region: sink %d: region %d is not a box or a half-space", k,
                            s->region),
                   -1;
        if (s->region == FLOE_REGION_HALFSPACE && !(fabs(vlen2(s->normal) - 1) < 1e-9))
            return snprintf(why, len, "/supply/sink_normal: sink %d: the normal is not a unit vector", k), -1;
        if (!(s->t_end >= s->t_start))
            return snprintf(why, len, "/supply/sink_t_end: sink %d: end before start", k), -1;
    }
    return 0;
}
