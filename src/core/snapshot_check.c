/* Checking a world as the snapshot's table says (snapshot.h): every leaf's
 * check, then the rules between tables. */
#include "core/cell.h"
#include "core/cell_phases.h"
#include "core/step.h"
#include "core/snapshot.h"
#include "core/snapshot_flat.h"

#include "core/snapshot_members.h"
#include "core/snapshot_shapes.h"
#include "core/supply.h"
#include "core/threads.h"

#include "shapes/shape.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- checks ------------------------------------------------------------------------------ */

typedef struct ck {
    char *err;
    size_t errlen;
    int bad;
} ck;

static int bad(ck *c, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(ck *c, const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe_snap_vfail(&c->bad, c->err, c->errlen, where, fmt, ap);
    va_end(ap);
    return 0;
}

static int length_ok(double x) { return isfinite(x) && fabs(x) <= FLOE_SNAP_MAX_LENGTH; }

/* Rules between values of the world itself and of its groups. */
static void check_world_rules(ck *c, const floe_world *w) {
    /* before the first step start() resolves dt; after it, dt is the step */
    int dt_set = w->started || !w->dt_auto;
    if (dt_set && !(w->dt > 0)) bad(c, "/world@dt", "%g is not a finite time step > 0", w->dt);
    if (w->last_dyn_dt > w->step)
        bad(c, "/world@last_dyn_dt", "%lld is outside [0, step = %lld]", (long long)w->last_dyn_dt, (long long)w->step);
    for (int g = 0; g < w->ngroups && !c->bad; g++) {
        const floe_motion *m = &w->groups_[g].motion;
        if (!(m->t_end >= m->t_start))
            bad(c, "/groups/motion_window", "group %d: [%g, %g] is not a time window", g, m->t_start, m->t_end);
    }
    if (w->has_water && (w->water.current.z != 0 || w->water.wind.z != 0))
        bad(c, "/water@current", "current (z %g) and wind (z %g) must be horizontal", w->water.current.z,
            w->water.wind.z);
}

/* Sizes the shape gives, and bodies with mass. */
static void check_particle_rules(ck *c, const floe_world *w) {
    for (int i = 0; i < w->np && !c->bad; i++) {
        vec3 I = w->inertia[i];
        /* a clump's pebble has no mass of its own (core/clump.h) */
        int body = floe_shape_class_get(w->shape[i])->mass != NULL && !(w->clump_of && w->clump_of[i] >= 0);
        if (body && !(w->mass[i] > 0 && I.x > 0 && I.y > 0 && I.z > 0))
            return (void)bad(c, "/particles/mass", "particle %d: a body without mass or moments of inertia", i);
        if (w->shape[i] == FLOE_SHAPE_CLUMP) { /* its pebbles: the spheres after it (core/clump.h) */
            const floe_clump *r = floe__shape_data(w, i);
            for (int k = 0; k < r->n; k++)
                if (i + 1 + k >= w->np || w->shape[i + 1 + k] != FLOE_SHAPE_SPHERE ||
                    w->radius[i + 1 + k] != r->peb[k][3] || w->mass[i + 1 + k] != 0)
                    return (void)bad(c, "/particles/shape",
                                     "particle %d: clump pebble %d is not particle %d, a "
                                     "sphere of radius %g without mass of its own",
                                     i, k, i + 1 + k, r->peb[k][3]);
        }
        char why[200];
        if (floe__snap_shape_check(w, i, why, sizeof why))
            return (void)bad(c, "/particles/shape_index", "particle %d: %s", i, why);
        double radius, bound;
        floe__snap_shape_sizes(w, i, &radius, &bound);
        if (radius < 0 && !(w->radius[i] > 0 && length_ok(w->radius[i])))
            return (void)bad(c, "/particles/radius", "particle %d: sphere radius %g is not in (0, %g] m", i,
                             w->radius[i], FLOE_SNAP_MAX_LENGTH);
        if (radius >= 0 && w->radius[i] != radius)
            return (void)bad(c, "/particles/radius", "particle %d: %g, but its shape record gives %g", i, w->radius[i],
                             radius);
        /* the broad phase sizes its grid from these: a wrong one lists pairs twice */
        if (w->bound[i] != bound)
            return (void)bad(c, "/particles/bound", "particle %d: %g, but its shape gives a bounding radius of %g", i,
                             w->bound[i], bound);
    }
}

/* Ids a, b in range, distinct, in narrow-phase order, of shapes that collide. */
static int pair_ok(const floe_world *w, int a, int b) {
    if (a < 0 || a >= w->np || b < 0 || b >= w->np || a == b) return 0;
    int ra = floe_shape_rank(w->shape[a]), rb = floe_shape_rank(w->shape[b]);
    if (ra > rb || (ra == rb && a > b)) return 0;
    return floe_narrowphase(w->shape[a], w->shape[b]) != NULL;
}

typedef struct ab {
    int32_t a, b, k;
} ab;

static int by_ab(const void *x, const void *y) {
    const ab *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* Index of the first repeated (a, b) in list, or -1. */
static int first_repeat(ab *list, int n) {
    if (n < 2) return -1;
    qsort(list, (size_t)n, sizeof *list, by_ab);
    int rep = -1;
    for (int i = 1; i < n; i++)
        if (list[i].a == list[i - 1].a && list[i].b == list[i - 1].b && (rep < 0 || list[i].k < rep)) rep = list[i].k;
    return rep;
}

static void check_contact(ck *c, const floe_world *w, int k, double *vals) {
    const floe_contact *ct = &w->con[k];
    if (!pair_ok(w, ct->a, ct->b))
        return (void)bad(c, "/contacts/a", "contact %d: particles %d, %d cannot be in contact (ids, order, shapes)", k,
                         ct->a, ct->b);
    int spheres = w->shape[ct->a] == FLOE_SHAPE_SPHERE && w->shape[ct->b] == FLOE_SHAPE_SPHERE;
    if (!!(ct->flags & CF_SPHERES) != spheres || ((ct->flags & CF_SIDE_NEG) && w->shape[ct->a] != FLOE_SHAPE_WALL))
        return (void)bad(c, "/contacts/flags", "contact %d: 0x%x is not a valid flag set for its bodies", k, ct->flags);
    const floe_contact_cold *x = &w->ccold[k];
    if (x->step_created > w->step)
        return (void)bad(c, "/contacts/step_created", "contact %d: %lld is outside [0, step = %lld]", k,
                         (long long)x->step_created, (long long)w->step);
    const floe_model *m = floe_registry_get(w->insts[ct->inst].model);
    if (m->get_state && m->info.n_state > 0) {
        const floe_geom g = floe__contact_geom(w, k);
        m->get_state(ct, &g, &w->cwarm[k], w->cstate + (size_t)k * w->cstride, vals);
        for (int j = 0; j < m->info.n_state; j++)
            if (!isfinite(vals[j]))
                return (void)bad(c, "/contacts/state", "contact %d: %s state '%s' is %g", k, m->info.name,
                                 m->info.state_names[j], vals[j]);
    }
}

/* Contacts and pairs: links both ways, bodies that can touch, each once. */
static void check_contact_rules(ck *c, const floe_world *w) {
    const floe_broadphase *bp = &w->bp;
    for (int p = 0; p < bp->npairs && !c->bad; p++) {
        const floe_pair *pr = &bp->pairs[p];
        if (pr->contact >= 0 && w->ccold[pr->contact].nbr != p)
            bad(c, "/broadphase/pairs", "pair %d (%d, %d, contact %d): the contact does not name this pair", p, pr->a,
                pr->b, pr->contact);
    }
    for (int k = 0; k < w->ncon && !c->bad; k++)
        if (w->ccold[k].nbr >= 0 && bp->pairs[w->ccold[k].nbr].contact != k)
            bad(c, "/contacts/pair", "contact %d names pair %d, which names contact %d", k, w->ccold[k].nbr,
                bp->pairs[w->ccold[k].nbr].contact);
    if (c->bad) return;
    int nmax = 1;
    for (int i = 0; i < floe_registry_count(); i++)
        if (floe_registry_get(i)->info.n_state > nmax) nmax = floe_registry_get(i)->info.n_state;
    double *vals = malloc(sizeof *vals * (size_t)nmax);
    int n = w->ncon > bp->npairs ? w->ncon : bp->npairs;
    ab *list = malloc(sizeof *list * (size_t)(n + 1));
    if (!vals || !list) {
        bad(c, "/contacts", "out of memory while checking %d contacts", w->ncon);
        goto out;
    }
    for (int k = 0; k < w->ncon && !c->bad; k++) check_contact(c, w, k, vals);
    for (int k = 0; k < w->ncon && !c->bad; k++) list[k] = (ab){w->con[k].a, w->con[k].b, k};
    int rep = c->bad ? -1 : first_repeat(list, w->ncon);
    if (rep >= 0)
        bad(c, "/contacts/a", "contact %d: particles %d, %d have an earlier contact already", rep, w->con[rep].a,
            w->con[rep].b);
    for (int p = 0; p < bp->npairs && !c->bad; p++) {
        const floe_pair *pr = &bp->pairs[p];
        if (!pair_ok(w, pr->a, pr->b))
            bad(c, "/broadphase/pairs", "pair %d: particles %d, %d cannot be a pair (ids, order, shapes)", p, pr->a,
                pr->b);
        else if (pr->contact >= 0 && (w->con[pr->contact].a != pr->a || w->con[pr->contact].b != pr->b))
            bad(c, "/broadphase/pairs", "pair %d links contact %d of other particles", p, pr->contact);
        list[p] = (ab){pr->a, pr->b, p};
    }
    rep = c->bad ? -1 : first_repeat(list, bp->npairs);
    if (rep >= 0)
        bad(c, "/broadphase/pairs", "pair %d: particles %d, %d are listed twice", rep, bp->pairs[rep].a,
            bp->pairs[rep].b);
    for (int i = 0; bp->valid && i < w->np && !c->bad; i++) {
        vec3 p = bp->ref_pos[i];
        quat q = bp->ref_ori[i];
        if (!length_ok(p.x) || !length_ok(p.y) || !length_ok(p.z))
            bad(c, "/broadphase/ref_pos", "particle %d: not a finite position", i);
        else if (!isfinite(q.w) || !isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z))
            bad(c, "/broadphase/ref_ori", "particle %d: not finite", i);
    }
out:
    free(vals);
    free(list);
}

static int snapshot_check(const floe_world *w, char *err, size_t errlen);

int floe__snapshot_check(const floe_world *w, char *err, size_t errlen) {
    const floe_world *v = floe__snap_full_view(w, 0);
    if (!v) {
        ck c = {err, errlen, 0};
        return bad(&c, "/", "out of memory"), -1;
    }
    int rc = snapshot_check(v, err, errlen);
    floe__snap_full_view_free(w, v);
    return rc;
}

static int snapshot_check(const floe_world *w, char *err, size_t errlen) {
    ck c = {err, errlen, 0};
    table *t = malloc(sizeof *t);
    if (!t) return bad(&c, "/", "out of memory"), -1;
    if (floe__snap_table_build(t) != 0) bad(&c, "the snapshot's table", "cannot be walked: %s", t->unusable);
    if (!c.bad) floe__snap_check_leaves(&c.bad, c.err, c.errlen, w, t); /* snapshot_walk.c */
    if (!c.bad) check_world_rules(&c, w);
    if (!c.bad) check_particle_rules(&c, w);
    if (!c.bad) check_contact_rules(&c, w);
    if (!c.bad) { /* the periodic cell (cell.c), as the engine needs it */
        const char *where;
        char why[512];
        if (floe__cell_state_bad(w, floe__start_search_skin(w), &where, why, sizeof why)) bad(&c, where, "%s", why);
    }
    if (!c.bad && floe__supply_check(w, err, errlen)) c.bad = 1;      /* inlets and sinks (supply.c) */
    if (!c.bad && floe__cell_phases_check(w, err, errlen)) c.bad = 1; /* cell_phases.c */
    free(t);
    return c.bad ? -1 : 0;
}
