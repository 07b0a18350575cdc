/* Validation of a loaded restart file (see restart_check.h).
 *
 * floe_restart_load already refuses what it cannot even build (a missing or
 * misshapen dataset, a value of the wrong type, an unknown model, an id the
 * API refuses). What is left is checked here on the loaded world, table by
 * table, with the name of the dataset or attribute that holds the value:
 * ranges and finiteness of every number step() uses, then consistency
 * between tables (sizes derived from the shape tables, ids in range, a pair
 * or contact listed once, links between pairs and contacts). */
#include "io/restart_check.h"

#include "core/world.h"
#include "io/csv.h"
#include "io/io_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXLEN FLOE_RESTART_MAX_LENGTH
/* Counters (steps, rebuilds, bytes) are at most 2^60 (1.2e18): their sums
 * and the next multiple of a period stay far from overflowing. */
#define MAXCOUNT ((int64_t)1 << 60)

typedef struct ck {
    char *err;
    size_t errlen;
    int bad;
} ck;

/* Records the first failure: "<where>: <why>"; returns 0. */
static int bad(ck *c, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(ck *c, const char *where, const char *fmt, ...) {
    if (c->bad) return 0;
    c->bad = 1;
    if (!c->err || !c->errlen) return 0;
    int n = snprintf(c->err, c->errlen, "%s: ", where);
    if (n >= 0 && (size_t)n < c->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static int finite3(vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
static int length_ok(double x) { return isfinite(x) && fabs(x) <= MAXLEN; }
static int position_ok(vec3 v) { return length_ok(v.x) && length_ok(v.y) && length_ok(v.z); }
static int flag_ok(int v) { return v == 0 || v == 1; }

/* ---- /world, /energy ----------------------------------------------------- */

static void check_world(ck *c, const floe_world *w) {
    const floe_world_def *d = &w->def;
    if (!finite3(d->gravity)) bad(c, "/world@gravity", "not finite");
    if (!isfinite(d->dt)) bad(c, "/world@def_dt", "%g is not finite", d->dt);
    if (!(d->dt_safety > 0 && d->dt_safety <= 1)) bad(c, "/world@dt_safety", "%g is outside (0, 1]", d->dt_safety);
    if (!(d->damping >= 0 && d->damping < 1)) bad(c, "/world@damping", "%g is outside [0, 1)", d->damping);
    if (!isfinite(d->skin) || fabs(d->skin) > MAXLEN) bad(c, "/world@def_skin", "%g is not a finite length", d->skin);
    if (!flag_ok(d->legacy_lens)) bad(c, "/world@legacy_lens", "%d is not 0 or 1", d->legacy_lens);
    if (d->threads < 0 || d->threads > 4096) bad(c, "/world@threads", "%d is outside [0, 4096]", d->threads);
    if (d->dimension != 2 && d->dimension != 3) bad(c, "/world@dimension", "%d is not 2 or 3", d->dimension);
    if (w->step < 0 || w->step > MAXCOUNT) bad(c, "/world@step", "%lld is out of range", (long long)w->step);
    if (!(w->time >= 0) || !isfinite(w->time)) bad(c, "/world@time", "%g is not a finite time >= 0", w->time);
    if (!flag_ok(w->dt_auto)) bad(c, "/world@dt_auto", "%d is not 0 or 1", w->dt_auto);
    if (!flag_ok(w->started)) bad(c, "/world@started", "%d is not 0 or 1", w->started);
    if (!flag_ok(w->stopped)) bad(c, "/world@stopped", "%d is not 0 or 1", w->stopped);
    /* before the first step start() resolves dt; after it, dt is the step */
    int dt_set = w->started || !w->dt_auto;
    if (!isfinite(w->dt) || w->dt < 0 || (dt_set && !(w->dt > 0)))
        bad(c, "/world@dt", "%g is not a finite time step%s", w->dt, dt_set ? " > 0" : " >= 0");
    if (w->last_dyn_dt < 0 || w->last_dyn_dt > w->step)
        bad(c, "/world@last_dyn_dt", "%lld is outside [0, step = %lld]", (long long)w->last_dyn_dt, (long long)w->step);
    if (!(w->rmax >= 0) || !length_ok(w->rmax)) bad(c, "/world@rmax", "%g is not a finite radius >= 0", w->rmax);
    if (!(w->skin >= 0) || !length_ok(w->skin)) bad(c, "/world@skin", "%g is not a finite length >= 0", w->skin);
    if (w->n_breaks < 0 || w->n_breaks > MAXCOUNT)
        bad(c, "/world@n_breaks", "%lld is out of range", (long long)w->n_breaks);
    if (!position_ok(w->box_centre)) bad(c, "/world@box_centre", "not a finite position");
    if (!(w->box_reach2 >= 0)) bad(c, "/world@box_reach2", "%g is not >= 0", w->box_reach2); /* inf: no limit */
    const double e[] = {w->e_elastic, w->e_plastic,  w->e_damping,      w->e_dashpot,
                        w->e_broken,  w->e_boundary, w->e_gravity_work, w->e_total0};
    static const char *const en[] = {"elastic", "plastic",  "damping",      "dashpot",
                                     "broken",  "boundary", "gravity_work", "total0"};
    for (int i = 0; i < 8; i++)
        if (!isfinite(e[i])) {
            char where[64];
            snprintf(where, sizeof where, "/energy@%s", en[i]);
            bad(c, where, "%g is not finite", e[i]);
        }
}

/* ---- /groups ------------------------------------------------------------- */

static void check_groups(ck *c, const floe_world *w) {
    for (int g = 0; g < w->ngroups && !c->bad; g++) {
        const floe_group *gr = &w->groups_[g];
        if (!finite3(gr->motion.vel)) bad(c, "/groups/motion_vel", "group %d: not finite", g);
        if (!finite3(gr->motion.angvel)) bad(c, "/groups/motion_angvel", "group %d: not finite", g);
        if (isnan(gr->motion.t_start) || !(gr->motion.t_end >= gr->motion.t_start))
            bad(c, "/groups/motion_window", "group %d: [%g, %g] is not a time window", g, gr->motion.t_start,
                gr->motion.t_end);
        if (!finite3(gr->load_f)) bad(c, "/groups/load_force", "group %d: not finite", g);
        if (!finite3(gr->load_t)) bad(c, "/groups/load_torque", "group %d: not finite", g);
    }
}

/* ---- /particles and the shape tables ------------------------------------- */

/* Radius and bounding radius a particle of this shape must have (what the
 * shape's class gives for its record): -1 for a sphere's radius, which is
 * its record and free. */
static void shape_sizes(const floe_world *w, int i, double *radius, double *bound) {
    const floe_shape_class *cls = floe__class_of(w, i);
    const void *rec = floe__shape_data(w, i);
    *radius = cls->size ? cls->radius(rec) : -1;
    *bound = cls->bound ? cls->bound(rec) : 0;
}

/* Every length in the shape tables finite and not huge (the fields that
 * the classes mark as lengths). */
static void check_shape_tables(ck *c, const floe_world *w) {
    for (int t = 0; t < FLOE_SHAPE_COUNT && !c->bad; t++) {
        const floe_shape_class *cls = floe_shape_class_get(t);
        const floe_shape_store *st = &w->store[t];
        for (int f = 0; f < cls->nfields && !c->bad; f++) {
            const floe_shape_field *fd = &cls->fields[f];
            if (!fd->length || fd->type != FLOE_FIELD_F64) continue;
            int m = (fd->rows > 0 ? fd->rows : 1) * (fd->cols > 0 ? fd->cols : 1);
            for (int k = 0; k < st->n && !c->bad; k++)
                for (int j = 0; j < m; j++) {
                    double x;
                    memcpy(&x, st->rec + (size_t)k * cls->size + fd->offset + (size_t)j * sizeof x, sizeof x);
                    if (length_ok(x)) continue;
                    char where[128];
                    snprintf(where, sizeof where, "/%s/%s", cls->section, fd->name);
                    bad(c, where, "%s %d: %g is not finite or farther than %g m", cls->title, k, x, MAXLEN);
                    break;
                }
        }
    }
}

static void check_particle(ck *c, const floe_world *w, int i) {
    if (!position_ok(w->pos[i]))
        return (void)bad(c, "/particles/pos", "particle %d: not finite, or farther than %g m from the origin", i,
                         MAXLEN);
    if (!finite3(w->vel[i])) return (void)bad(c, "/particles/vel", "particle %d: not finite", i);
    if (!finite3(w->angvel[i])) return (void)bad(c, "/particles/angvel", "particle %d: not finite", i);
    if (!finite3(w->force[i])) return (void)bad(c, "/particles/force", "particle %d: not finite", i);
    if (!finite3(w->torque[i])) return (void)bad(c, "/particles/torque", "particle %d: not finite", i);
    quat q = w->ori[i];
    double q2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (!(fabs(q2 - 1) < 1e-6))
        return (void)bad(c, "/particles/ori", "particle %d: not a unit quaternion (norm^2 %g)", i, q2);
    vec3 I = w->inertia[i];
    if (!(w->mass[i] >= 0) || !isfinite(w->mass[i]))
        return (void)bad(c, "/particles/mass", "particle %d: %g is not a finite mass >= 0", i, w->mass[i]);
    if (!(I.x >= 0 && I.y >= 0 && I.z >= 0) || !finite3(I))
        return (void)bad(c, "/particles/inertia", "particle %d: not finite moments >= 0", i);
    int body = !(floe__class_of(w, i)->flags & FLOE_SHAPE_BOUNDARY);
    if (body && !(w->mass[i] > 0 && I.x > 0 && I.y > 0 && I.z > 0))
        return (void)bad(c, "/particles/mass", "particle %d: a body without mass or moments of inertia", i);
    vec3 L = w->angmom[i];
    if (!finite3(L) && !(isnan(L.x) && isnan(L.y) && isnan(L.z))) /* all NaN: from angvel */
        return (void)bad(c, "/particles/angmom", "particle %d: neither finite nor NaN (unset)", i);
    double radius, bound;
    shape_sizes(w, i, &radius, &bound);
    if (radius < 0 && !(w->radius[i] > 0 && length_ok(w->radius[i])))
        return (void)bad(c, "/particles/radius", "particle %d: sphere radius %g is not in (0, %g] m", i, w->radius[i],
                         MAXLEN);
    if (radius >= 0 && w->radius[i] != radius)
        return (void)bad(c, "/particles/radius", "particle %d: %g, but its shape table gives %g", i, w->radius[i],
                         radius);
    /* the broad phase sizes its grid from these: a wrong one lists pairs twice */
    if (w->bound[i] != bound)
        return (void)bad(c, "/particles/bound", "particle %d: %g, but its shape gives a bounding radius of %g", i,
                         w->bound[i], bound);
    if (w->blocked[i] & ~(uint32_t)FLOE_DOF_ALL)
        return (void)bad(c, "/particles/blocked", "particle %d: bits 0x%x beyond the six degrees of freedom", i,
                         w->blocked[i]);
    uint32_t known = w->ngroups >= 32 ? 0xffffffffu : (1u << w->ngroups) - 1;
    if (w->groups[i] & ~known)
        return (void)bad(c, "/particles/groups", "particle %d: mask 0x%x names groups that do not exist (%d groups)", i,
                         w->groups[i], w->ngroups);
}

static void check_particles(ck *c, const floe_world *w) {
    check_shape_tables(c, w);
    for (int i = 0; i < w->np && !c->bad; i++) check_particle(c, w, i);
}

/* ---- /contacts, /broadphase ---------------------------------------------- */

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

/* Index of the first repeated (a, b) in list, or -1 (-2: out of memory). */
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
    if ((ct->flags & ~127u) || !!(ct->flags & CF_SPHERES) != spheres)
        return (void)bad(c, "/contacts/flags", "contact %d: 0x%x is not a valid flag set for its bodies", k, ct->flags);
    if (ct->side < -1 || ct->side > 1)
        return (void)bad(c, "/contacts/side", "contact %d: %d is not -1, 0 or 1", k, ct->side);
    if (ct->step_created < 0 || ct->step_created > w->step)
        return (void)bad(c, "/contacts/step_created", "contact %d: %lld is outside [0, step = %lld]", k,
                         (long long)ct->step_created, (long long)w->step);
    const floe_geom *g = &ct->g;
    if (!isfinite(g->uN)) return (void)bad(c, "/contacts/uN", "contact %d: not finite", k);
    if (!(g->area >= 0) || !isfinite(g->area)) return (void)bad(c, "/contacts/area", "contact %d: not finite >= 0", k);
    if (!(g->lens[0] >= 0 && g->lens[1] >= 0) || !isfinite(g->lens[0]) || !isfinite(g->lens[1]))
        return (void)bad(c, "/contacts/lens", "contact %d: not finite >= 0", k);
    double n2 = vlen2(g->n);
    if (!finite3(g->n) || !(fabs(n2 - 1) < 1e-6))
        return (void)bad(c, "/contacts/normal", "contact %d: not a unit vector", k);
    if (!finite3(g->t1)) return (void)bad(c, "/contacts/t1", "contact %d: not finite", k);
    if (!finite3(g->c)) return (void)bad(c, "/contacts/point", "contact %d: not finite", k);
    if (!finite3(ct->f)) return (void)bad(c, "/contacts/force", "contact %d: not finite", k);
    if (!finite3(ct->m)) return (void)bad(c, "/contacts/torque", "contact %d: not finite", k);
    const double st[4] = {ct->kn, ct->kt, ct->kw, ct->kr};
    static const char *const sn[4] = {"/contacts/kn", "/contacts/kt", "/contacts/kw", "/contacts/kr"};
    for (int j = 0; j < 4; j++)
        if (!(st[j] >= 0) || !isfinite(st[j]))
            return (void)bad(c, sn[j], "contact %d: %g is not finite >= 0", k, st[j]);
    const floe_model *m = floe_registry_get(w->insts[ct->inst].model);
    if (m->get_state && m->info.n_state > 0) {
        m->get_state(ct, w->cstate + (size_t)k * w->cstride, vals);
        for (int j = 0; j < m->info.n_state; j++)
            if (!isfinite(vals[j]))
                return (void)bad(c, "/contacts/state", "contact %d: %s state '%s' is %g", k, m->info.name,
                                 m->info.state_names[j], vals[j]);
    }
}

static void check_contacts(ck *c, const floe_world *w) {
    int nmax = 1;
    for (int i = 0; i < floe_registry_count(); i++)
        if (floe_registry_get(i)->info.n_state > nmax) nmax = floe_registry_get(i)->info.n_state;
    double *vals = malloc(sizeof *vals * (size_t)nmax);
    int n = w->ncon > w->bp.npairs ? w->ncon : w->bp.npairs;
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

    const floe_broadphase *bp = &w->bp;
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
    if (!(bp->margin >= 0) || !length_ok(bp->margin))
        bad(c, "/broadphase@margin", "%g is not a finite length >= 0", bp->margin);
    if (!(bp->max_moved2 >= 0)) bad(c, "/broadphase@max_moved2", "%g is not >= 0", bp->max_moved2); /* inf: rebuild */
    if (!flag_ok(bp->valid)) bad(c, "/broadphase@valid", "%d is not 0 or 1", bp->valid);
    if (bp->rebuilds < 0 || bp->rebuilds > MAXCOUNT)
        bad(c, "/broadphase@rebuilds", "%lld is out of range", (long long)bp->rebuilds);
    for (int i = 0; bp->valid && i < w->np && !c->bad; i++) {
        if (!position_ok(bp->ref_pos[i])) bad(c, "/broadphase/ref_pos", "particle %d: not a finite position", i);
        quat q = bp->ref_ori[i];
        if (!isfinite(q.w) || !isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z))
            bad(c, "/broadphase/ref_ori", "particle %d: not finite", i);
    }
out:
    free(vals);
    free(list);
}

/* ---- /schedule ------------------------------------------------------------ */

/* The methods checked their arguments when the schedule was rebuilt; an
 * infinite one can be meant (a gap without limit), NaN never. */
static void check_schedule(ck *c, const floe_world *w) {
    for (int i = 0; i < w->nsched && !c->bad; i++)
        for (int j = 0; j < w->sched[i].nargs; j++)
            if (isnan(w->sched[i].args[j])) bad(c, "/schedule/args", "entry %d: argument %d is NaN", i, j);
}

/* ---- /run, /output_config, /output ---------------------------------------- */

static void check_every(ck *c, const char *which, floe_every e) {
    if (e.steps < 0 || e.steps > MAXCOUNT)
        bad(c, "/output_config@every_steps", "%s: %lld is out of range", which, (long long)e.steps);
    if (!(e.interval >= 0) || !isfinite(e.interval))
        bad(c, "/output_config@every_interval", "%s: %g is not a finite interval >= 0", which, e.interval);
}

static void check_run(ck *c, const floe_restart *r) {
    const floe_world *w = r->scene.world;
    if (r->scene.steps < 0 || r->scene.steps > MAXCOUNT)
        bad(c, "/run@steps", "%lld is out of range", (long long)r->scene.steps);
    if (!(r->scene.duration >= 0) || !isfinite(r->scene.duration))
        bad(c, "/run@duration", "%g is not a finite time >= 0", r->scene.duration);
    if (r->total_steps < 0 || r->total_steps > MAXCOUNT)
        bad(c, "/run@total_steps", "%lld is out of range", (long long)r->total_steps);
    if (r->restart_every < 0 || r->restart_every > MAXCOUNT)
        bad(c, "/run@restart_every", "%lld is out of range", (long long)r->restart_every);
    const floe_output_config *o = &r->scene.out;
    check_every(c, "vtk", o->vtk);
    check_every(c, "energy", o->energy);
    check_every(c, "history", o->history);
    check_every(c, "progress", o->progress);
    if (!flag_ok(o->vtk_contacts)) bad(c, "/output_config@vtk_contacts", "%d is not 0 or 1", o->vtk_contacts);
    if (!flag_ok(o->vtk_boundaries)) bad(c, "/output_config@vtk_boundaries", "%d is not 0 or 1", o->vtk_boundaries);
    if (!flag_ok(o->vtk_shapes)) bad(c, "/output_config@vtk_shapes", "%d is not 0 or 1", o->vtk_shapes);
    if (!flag_ok(o->final_state)) bad(c, "/output_config@final_state", "%d is not 0 or 1", o->final_state);
    for (int i = 0; i < o->n_history_cols && !c->bad; i++) {
        char why[512];
        const floe_history_column *h = &o->history_cols[i];
        if (h->kind < FLOE_HIST_PARTICLE || h->kind > FLOE_HIST_COUNTER)
            bad(c, "/output_config/history_columns/kind_a_b_group_energy", "column %d: kind %d is unknown", i,
                (int)h->kind);
        else if (floe_history_check(w, h, why, sizeof why) != 0) bad(c, "/output_config/history_columns", "%s", why);
    }
    if (!r->has_output) return;
    const floe_output_state *s = &r->output;
    const floe_output_stream *st[3] = {&s->vtk, &s->energy, &s->history};
    /* period: steps between writes, 0 never, or FLOE_OUTPUT_BY_TIME (next is
     * then the index of the next multiple of the configured interval) */
    for (int i = 0; i < 3; i++)
        if ((st[i]->period < 0 && st[i]->period != FLOE_OUTPUT_BY_TIME) || st[i]->next < 0 ||
            st[i]->period > MAXCOUNT || st[i]->next > MAXCOUNT ||
            (st[i]->last != INT64_MIN && (st[i]->last < 0 || st[i]->last > w->step)))
            bad(c, "/output/streams", "row %d: period %lld, next %lld, last %lld: out of range", i,
                (long long)st[i]->period, (long long)st[i]->next, (long long)st[i]->last);
    if (s->width < 1 || s->width > 19) bad(c, "/output@width", "%d is outside [1, 19]", s->width);
    for (int i = 0; i < 3; i++)
        if (s->csv_bytes[i] < -1 || s->csv_bytes[i] > MAXCOUNT)
            bad(c, "/output@csv_bytes", "%lld is not a length (or -1)", s->csv_bytes[i]);
    for (size_t i = 0; i < s->nframes && !c->bad; i++) {
        if (s->frame_step[i] < 0 || s->frame_step[i] > w->step || (i > 0 && s->frame_step[i] <= s->frame_step[i - 1]))
            bad(c, "/output/frame_step", "frame %zu: step %lld is out of order or past the restart step", i,
                (long long)s->frame_step[i]);
        else if (!isfinite(s->frame_time[i])) bad(c, "/output/frame_time", "frame %zu: not finite", i);
    }
}

int floe_restart_check(const floe_restart *r, char *err, size_t errlen) {
    ck c = {err, errlen, 0};
    const floe_world *w = r->scene.world;
    if (!w) return floe_io_err(err, errlen, "no world");
    check_world(&c, w);
    if (!c.bad) check_groups(&c, w);
    if (!c.bad) check_particles(&c, w);
    if (!c.bad) check_contacts(&c, w);
    if (!c.bad) check_schedule(&c, w);
    if (!c.bad) check_run(&c, r);
    return c.bad ? -1 : 0;
}
