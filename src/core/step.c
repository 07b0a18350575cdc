/* One time step, as data flows: leapfrog -> broad phase -> contacts (narrow
 * phase, L6Geom, model law) -> force assembly -> events. Work is split in
 * fixed-size blocks whose partial sums are added in block order, so results
 * are bitwise identical for any thread count. */
#include "l6geom/l6geom.h"
#include "core/clump.h"
#include "core/batch.h"
#include "core/broadphase.h"
#include "core/cell.h"
#include "core/energy.h"
#include "core/timestep.h"
#include "core/integrate.h"
#include "core/measure.h"
#include "core/cell_phases.h"
#include "core/motion.h"
#include "core/step.h"
#include "core/size_dist.h"
#include "core/supply.h"
#include "core/threads.h"

#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline void *state_of(const floe_world *w, int k) { return w->cstate + (size_t)k * w->cstride; }

static int reserve_contacts(floe_world *w, int need) {
    if (need <= w->ccap) return 1;
    /* four arrays (three without warm records), one capacity */
    int nc = (int)floe__grown((size_t)(w->ccap ? w->ccap : 1024), (size_t)need, INT_MAX);
    floe_contact *c = realloc(w->con, (size_t)nc * sizeof *c);
    if (!c) return 0;
    w->con = c;
    if (w->warm_kept) {
        floe_contact_warm *cw = realloc(w->cwarm, (size_t)nc * sizeof *cw);
        if (!cw) return 0;
        w->cwarm = cw;
    }
    floe_contact_cold *cc = realloc(w->ccold, (size_t)nc * sizeof *cc);
    if (!cc) return 0;
    w->ccold = cc;
    if (w->geom_kept) {
        floe_contact_geo *cg = realloc(w->cgeom, (size_t)nc * sizeof *cg);
        if (!cg) return 0;
        w->cgeom = cg;
    }
    unsigned char *s = realloc(w->cstate, (size_t)nc * w->cstride);
    if (!s) return 0;
    w->cstate = s;
    w->ccap = nc;
    return 1;
}

/* Largest gap across which a, b may start a contact now (model-defined). */
static double creation_gap(const floe_world *w, int a, int b, const floe_instance *in) {
    const floe_model *m = floe_registry_get(in->model);
    if (!m->creation_gap) return 0;
    double ra = w->radius[a], rb = w->radius[b];
    double rmin = ra > 0 && rb > 0 ? fmin(ra, rb) : fmax(ra, rb);
    return m->creation_gap(in->lp, w->step, rmin);
}

/* Keeps the load law reported for the break event of contact k (rare:
 * one lock per break). */
static void keep_break_load(floe_world *w, int k, const floe_event_load *ld) {
#pragma omp critical(floe_break_load)
    {
        if (floe__grow((void **)&w->brk, &w->brkcap, w->nbrk + 1, sizeof *w->brk))
            w->brk[w->nbrk++] = (struct floe_break_load){k, *ld};
        else w->brk_oom = 1;
    }
}

static int by_contact(const void *x, const void *y) {
    int a = ((const struct floe_break_load *)x)->k, b = ((const struct floe_break_load *)y)->k;
    return (a > b) - (a < b);
}

/* Geometry, model law and force on both particles of contact k, summed into
 * f and t. Returns 0 if the contact is a runaway (non-finite force or an
 * overlap larger than a particle). */
static inline int process_contact(floe_world *w, int k, int renorm, floe_energy_acc *acc, const floe_part_sums *s) {
    floe_contact *c = &w->con[k];
    int a = c->a, b = c->b;
    floe_collide_fn *fn = floe_narrowphase(w->shape[a], w->shape[b]);
    const floe_instance *in = &w->insts[c->inst];
    const floe_model *m = in->m;
    void *st = state_of(w, k);
    int fresh = (c->flags & CF_NEW) != 0;
    floe_law_ctx ctx;
    floe__law_ctx(w, c, fresh, &ctx);
    /* a world without warm records: the law (no_warm) reads none of the
     * record but the area at creation, which floe_l6geom_create writes */
    floe_contact_warm own = {.area = 0};
    if (!ctx.warm) ctx.warm = &own;
    floe_contact_warm *wm = ctx.warm;
    floe_event_load ld = {.set = 0};
    ctx.event_load = &ld;
    floe_raw_contact raw;
    floe_geom gm, *g = &gm;
    const int follows = floe__geom_follows(w, c);
    const floe_img img = floe__contact_img(w, k);
    vec3 pb = floe__img_pos(w, b, img), vb = floe__img_vel(w, b, img); /* B's periodic image (cell.h) */
    ctx.g = g;
    if (fresh) {
        floe__collide_img(w, fn, a, b, img, NULL, creation_gap(w, a, b, in), &raw); /* established this step */
        floe_l6geom_create(g, &wm->area, ctx.lens, &raw, w->def.legacy_lens);
        /* Unlike Woo (zero rates in the creation step), the creation step sees
         * the approach: a dashpot acts from the first step of an impact, as
         * in LAMMPS, and the shear spring takes that step's displacement. */
        floe_l6geom_rates(g->c, g->n, g->t1, floe_geom_t2(g), w->dt, w->pos[a], w->vel[a], w->angvel[a], pb, vb,
                          w->angvel[b], &ctx.vel, &ctx.angvel);
        m->create(&ctx, w->mats[w->mat[a]].p, w->mats[w->mat[b]].p, c, st);
    } else {
        g->t1 = c->t1;
        if (follows) { /* the last step's normal and point where the bodies stood then (world.h) */
            floe_raw_contact before;
            floe__follow_pair(w, c, floe_before_drift(w->pos[a], w->vel[a], w->dt), floe_before_drift(pb, vb, w->dt),
                              &before);
            g->n = before.n;
            g->c = before.c;
            floe__follow_pair(w, c, w->pos[a], pb, &raw);
        } else {
            g->n = w->cgeom[k].n;
            g->c = w->cgeom[k].c;
            floe__collide_img(w, fn, a, b, img, &g->n, 0, &raw);
        }
        floe_l6geom_update(g, &raw, w->dt, renorm, w->pos[a], w->vel[a], w->angvel[a], pb, vb, w->angvel[b], &ctx.vel,
                           &ctx.angvel);
    }
    c->t1 = g->t1;
    if (fresh && w->shape[a] == FLOE_SHAPE_WALL) { /* the side, for the steps to come (floe__wall_side) */
        const floe_wall *wl = floe__shape_data(w, a);
        c->flags = (uint8_t)((c->flags & ~CF_SIDE_NEG) | (vcomp(g->n, wl->axis) < 0 ? CF_SIDE_NEG : 0));
    }
    if (w->cgeom) { /* kept: every row current */
        floe_contact_geo *x = &w->cgeom[k];
        x->n = g->n;
        x->c = g->c;
        x->uN = g->uN;
        if (fresh) x->lens[0] = ctx.lens[0], x->lens[1] = ctx.lens[1];
    }
    int keep = m->law(&ctx, c, st, acc);
    if (ld.set) keep_break_load(w, k, &ld);
    if (!keep) {
        c->flags |= CF_DELETE;
        return 1;
    }
    vec3 t2 = floe_geom_t2(g);
    vec3 F = vadd(vadd(vscale(g->n, c->f.x), vscale(g->t1, c->f.y)), vscale(t2, c->f.z));
    vec3 M = vadd(vadd(vscale(g->n, wm->m.x), vscale(g->t1, wm->m.y)), vscale(t2, wm->m.z));
    vec3 mA = vadd(vcross(vsub(g->c, w->pos[a]), F), M);
    vec3 mB = vsub(vcross(vsub(g->c, pb), vneg(F)), M);
    floe_accumulate(s, a, b, F, mA, mB);
    return visfinite(F) && visfinite(mA) && visfinite(mB) && !(g->uN < -floe_geom_lmin(ctx.lens));
}

/* Appends an event to the world's list, which finish_contacts has made
 * room for. ld: the load to report if the law gave one, else NULL (the
 * contact's). */
static void emit(floe_world *w, floe_event_type type, const floe_contact *c, uint32_t detail,
                 const floe_event_load *ld) {
    if (!(w->event_mask >> type & 1u)) return;
    floe_event *ev = &w->events[w->nevents++];
    memset(ev, 0, sizeof *ev); /* padding too: the list's bytes depend on the run only */
    ev->type = type;
    ev->step = w->step;
    ev->time = w->time;
    ev->a = c->a;
    ev->b = c->b;
    ev->force = ld ? ld->f : c->f;
    const int k = (int)(c - w->con);
    floe_contact_warm own;
    const floe_contact_warm *wm = floe__warm(w, k, &own);
    ev->torque = ld ? ld->m : wm->m;
    ev->detail = detail;
    const floe_model *m = floe_registry_get(w->insts[c->inst].model);
    if (m->event_values) m->event_values(c, wm, state_of(w, k), type, ev->value);
}

/* Events a flagged contact produces: one per transient flag whose type the
 * world records (mask: floe_set_event_types). */
static int event_count(uint32_t flags, uint32_t mask) {
    static const struct {
        uint32_t flag;
        floe_event_type type;
    } kinds[] = {{CF_NEW, FLOE_EVENT_CONTACT_CREATED},
                 {CF_ACTIVATED, FLOE_EVENT_CONTACT_ACTIVATED},
                 {CF_SLIP, FLOE_EVENT_SLIP_CHANGE},
                 {CF_BROKE, FLOE_EVENT_BOND_BROKEN},
                 {CF_DELETE, FLOE_EVENT_CONTACT_DELETED}};
    int n = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        n += (flags & kinds[i].flag) && (mask >> kinds[i].type & 1u);
    return n;
}

/* A new list for floe_events: the last step's events are dropped. */
static void clear_events(floe_world *w) {
    w->nevents = 0;
    w->event_serial++;
}

/* A part's room for one slice: the batched contacts of one kernel, each
 * contact's kernel, and the results by the contact's place in the slice. */
typedef struct slice_work {
    floe_batch_out *out;
    int *ks, *kind;
} slice_work;

/* Runs the n contacts ks of kernel q through it, FLOE_BATCH at a time.
 * sum: ks are all the slice's contacts, summed directly until one falls
 * back to the per-contact path (batch.h). Returns how many were summed. */
static int run_kernel(floe_world *w, int q, const int *ks, int n, int renorm, int k0, floe_batch_out *out,
                      floe_batch_sum *sum) {
    int summed = 0;
    for (int i = 0; i < n; i += FLOE_BATCH) {
        int m = n - i < FLOE_BATCH ? n - i : FLOE_BATCH;
        int d = floe_batch_run(w, q, ks + i, m, renorm, k0, out, summed == i ? sum : NULL);
        summed += d;
    }
    return summed;
}

/* Contacts [k0, end): the batchable ones through their models' kernels
 * first (inst_kind: the kernel of each model instance, NULL: no batches
 * this step), then every contact in order: forces summed into f, t, energies
 * into *acc, contacts with events appended to fl. A slice whose contacts all
 * go through one kernel (most) is summed by the kernel as it goes, in the
 * same order, without the results passing through sw->out. Returns the
 * first runaway, or -1. */
static int process_slice(floe_world *w, int k0, int end, int renorm, const int *inst_kind, slice_work *sw,
                         const floe_part_sums *s, floe_energy_acc *acc, int *fl, int *nf) {
    int bad = -1, *kind = sw->kind, from = k0; /* contacts before `from` are summed */
    *acc = (floe_energy_acc){0, 0, 0, 0};
    if (inst_kind) {
        /* the first kernel met, in one pass; any other left for below */
        int q0 = 0, n = 0, again = end;
        for (int k = k0; k < end; k++) {
            const floe_contact *c = &w->con[k];
            __builtin_prefetch(c + 16); /* the slice's records are first touched here */
            int q = floe_batch_eligible(w, c) ? inst_kind[c->inst] : 0;
            kind[k - k0] = q;
            if (!q) continue;
            if (!q0) q0 = q;
            if (q == q0) sw->ks[n++] = k;
            else if (again == end) again = k;
        }
        floe_batch_sum sum = {s, acc, fl, nf, -1};
        from += run_kernel(w, q0, sw->ks, n, renorm, k0, sw->out, n == end - k0 ? &sum : NULL);
        bad = sum.bad;
        /* a slice with contacts of more kernels: one kernel after the other
         * (those done are marked negative) */
        for (int next = again; next < end;) {
            int q = kind[next - k0];
            n = 0;
            again = end;
            for (int k = next; k < end; k++) {
                int qk = kind[k - k0];
                if (qk == q) {
                    sw->ks[n++] = k;
                    kind[k - k0] = -q;
                } else if (qk > 0 && qk != q0 && again == end) {
                    again = k;
                }
            }
            run_kernel(w, q, sw->ks, n, renorm, k0, sw->out, NULL);
            next = again;
        }
    }
    for (int k = from; k < end; k++) {
        const floe_batch_out *o = inst_kind && kind[k - k0] ? &sw->out[k - k0] : NULL;
        if (o && !o->fallback) {
            if (o->keep) {
                floe_accumulate(s, w->con[k].a, w->con[k].b, o->F, o->mA, o->mB);
                acc->plastic += o->plastic;
                acc->dashpot += o->dashpot;
                acc->elastic += o->elastic;
            }
            if (!o->ok && bad < 0) bad = k;
        } else if (!process_contact(w, k, renorm, acc, s) && bad < 0) {
            bad = k;
        }
        if (w->con[k].flags & CF_TRANSIENT) fl[(*nf)++] = k;
    }
    return bad;
}

/* The contact phase's state shared by the threads of its parallel region
 * (contact_phase). Candidate pairs are tested in chunks of HIT_CHUNK. */
enum {
    HIT_CHUNK = 1024,
    LATE_NEW = 1024 /* new contacts one thread makes rather than wait at a barrier (contact_phase) */
};
typedef struct contact_pass {
    int nc0, cap0;          /* contacts and their capacity before this step's new ones */
    int npairs, nch;        /* candidate pairs, their chunks */
    int *nhit;              /* per chunk: its pairs that start a contact */
    unsigned char *hit;     /* per pair: 1 if it starts a contact */
    int renorm;             /* a renormalization step */
    const int *inst_kind;   /* the kernel of each model instance, NULL: no batches */
    unsigned char *batch;   /* per part: a slice's batched contacts, kernels, results */
    vec3 *buf;              /* the force sums of parts 1.. */
    unsigned char *touched; /* per part 1..: its chunks of bodies with sums in buf (floe_part_sums) */
    floe_energy_acc *accs;  /* per slice */
    int *flagged;           /* each part's list at its first contact, then all of them in contact order */
    int oom;                /* growing the contact arrays failed (set in a single) */
    int bad[FLOE_PARTS], nflag[FLOE_PARTS];
} contact_pass;

/* Room for the energy blocks and flagged lists of up to n contacts: a
 * part flags only contacts of its own slices, so its list fits in their
 * rows of one array, from its first contact on, and the lists join in
 * place (gather_parts): n rows in all, the rows a step writes no more than
 * the contacts it flags (peak memory: the first step flags every contact) */
static int reserve_part_lists(floe_world *w, contact_pass *cp, int n) {
    const size_t nsl = ((size_t)n + FLOE_SLICE - 1) / FLOE_SLICE;
    cp->accs = floe__scratch(w, SCR_CONTACT_ACC, sizeof *cp->accs * (nsl + 1));
    cp->flagged = floe__scratch(w, SCR_FLAGGED, sizeof(int) * ((size_t)n + 1));
    return cp->accs && cp->flagged;
}

/* A part's room for one slice (slice_work): whole cache lines. */
static size_t part_work(void) { return floe__lines(FLOE_SLICE * (sizeof(floe_batch_out) + 2 * sizeof(int))); }

/* Every buffer of the phase, allocated before its parallel region: the
 * lists sized for the contact arrays' capacity, so that only a step whose
 * new contacts pass it grows anything inside the region. Returns 0 when
 * out of memory. */
static int prepare_pass(floe_world *w, contact_pass *cp) {
    floe_broadphase *bp = &w->bp;
    w->nbrk = 0;
    cp->nc0 = w->ncon;
    cp->cap0 = w->ccap > w->ncon ? w->ccap : w->ncon;
    cp->npairs = bp->npairs;
    cp->nch = (cp->npairs + HIT_CHUNK - 1) / HIT_CHUNK;
    cp->oom = 0;
    cp->nhit = floe__scratch(w, SCR_HITS, sizeof(int) * (size_t)cp->nch + (size_t)cp->npairs + 1);
    if (!cp->nhit) return 0;
    cp->hit = (unsigned char *)(cp->nhit + cp->nch);
    memset(cp->nhit, 0, sizeof(int) * (size_t)cp->nch); /* find_hits adds each thread's share */
    if (!reserve_part_lists(w, cp, cp->cap0)) return 0;
    /* parts 1.. sum into buffers that are kept zero between steps (zeroed
     * when allocated and as the merge reads them); part 0 into the force
     * arrays, which the integrator zeroes as it uses them */
    const int np = w->np;
    size_t nbuf = sizeof(vec3) * 2 * (size_t)np * (FLOE_PARTS - 1) + 1, had = w->scratch_size[SCR_PART_SUMS];
    cp->buf = floe__scratch(w, SCR_PART_SUMS, nbuf);
    if (!cp->buf) return 0;
    if (had < nbuf) memset(cp->buf, 0, nbuf);
    /* the chunks a part wrote: kept zero between steps as well; on lines
     * of their own, since part 1's thread writes them at every contact */
    size_t ntouch = (size_t)floe_touch_chunks(np) * (FLOE_PARTS - 1) + 1;
    had = w->scratch_size[SCR_PART_TOUCHED];
    cp->touched = floe__scratch_lines(w, SCR_PART_TOUCHED, ntouch);
    if (!cp->touched) return 0;
    if (had < floe__lines_slot(ntouch)) memset(cp->touched, 0, ntouch);
    /* the kernel of each model instance, which every thread reads at every
     * contact; then per part, on lines of its own, a slice's batched
     * contacts, their kernels and results (a part's thread writes them at
     * every contact: sharing a line with the kernels' list, part 1's made
     * every contact of the other thread wait for that line, docs/performance.md item 38) */
    const size_t kinds = floe__lines(sizeof(int) * (size_t)w->ninsts);
    unsigned char *batch = floe__scratch_lines(w, SCR_BATCH, kinds + part_work() * FLOE_PARTS);
    if (!batch) return 0;
    cp->batch = batch + kinds;
    cp->renorm = w->step % w->def.renorm_period == 0;
    int *inst_kind = w->batch_off ? NULL : (int *)batch;
    for (int i = 0; inst_kind && i < w->ninsts; i++) inst_kind[i] = floe_batch_inst_kind(&w->insts[i]);
    cp->inst_kind = inst_kind;
    return 1;
}

/* Whether spheres at pa and pb of radii ra and rb come within gap. */
static inline unsigned char spheres_touch(vec3 pa, vec3 pb, double ra, double rb, double gap) {
    double r = ra + rb + gap;
    return vlen2(vsub(pb, pa)) <= r * r;
}

/* Whether candidate pair p starts a contact. */
static inline __attribute__((always_inline)) unsigned char pair_hits(const floe_world *w, int p, int any_gap) {
    const floe_broadphase *bp = &w->bp;
    const floe_pair *pr = &bp->pairs[p];
    if (pr->contact >= 0) return 0;
    double gap = any_gap ? creation_gap(w, pr->a, pr->b, floe__pair_instance(w, w->mat[pr->a], w->mat[pr->b])) : 0;
    floe_raw_contact raw;
    if (w->shape[pr->b] == FLOE_SHAPE_SPHERE && w->shape[pr->a] == FLOE_SHAPE_SPHERE) {
        /* most candidate pairs are sphere pairs that do not touch: decide here */
        return spheres_touch(w->pos[pr->a], floe__img_pos(w, pr->b, floe__pair_img(bp, p)), w->radius[pr->a],
                             w->radius[pr->b], gap);
    }
    if (w->shape[pr->b] == FLOE_SHAPE_SPHERE && w->shape[pr->a] == FLOE_SHAPE_WALL)
        return (unsigned char)floe_wall_sphere(floe__shape_data(w, pr->a), w->pos[pr->a], w->pos[pr->b],
                                               w->radius[pr->b], NULL, gap, &raw);
    floe_collide_fn *fn = floe_narrowphase(w->shape[pr->a], w->shape[pr->b]);
    return (unsigned char)floe__collide_img(w, fn, pr->a, pr->b, floe__pair_img(bp, p), NULL, gap, &raw);
}

/* Tests the pairs [from, to), with `own` only those whose body B is in
 * [lo, hi), chunk by chunk, adding each chunk's hits to its count (other
 * threads may add theirs to the same chunk). */
static void test_pairs(const floe_world *w, contact_pass *cp, int from, int to, int own, int lo, int hi, int any_gap) {
    /* the arrays in locals: a store into hit (bytes) may alias anything,
     * and the compiler would reload the world's pointers after each */
    const floe_pair *pairs = w->bp.pairs;
    const uint8_t *shape = w->shape;
    const double *radius = w->radius;
    const vec3 *pos = w->pos;
    /* sphere pairs as pair_hits takes them, without a gap or an image */
    const int plain = !any_gap && !w->bp.img;
    unsigned char *hit = cp->hit;
    for (int p = from; p < to;) {
        const int ch = p / HIT_CHUNK, end = (ch + 1) * HIT_CHUNK < to ? (ch + 1) * HIT_CHUNK : to, p0 = p;
        for (; p < end; p++) {
            const floe_pair pr = pairs[p];
            if (own && (pr.b < lo || pr.b >= hi)) continue;
            unsigned char h;
            if (pr.contact >= 0) {
                h = 0;
            } else if (plain && shape[pr.a] == FLOE_SHAPE_SPHERE && shape[pr.b] == FLOE_SHAPE_SPHERE) {
                h = spheres_touch(pos[pr.a], pos[pr.b], radius[pr.a], radius[pr.b], 0.0);
            } else {
                h = pair_hits(w, p, any_gap);
            }
            hit[p] = h;
        }
        /* counted after the test, not in it: a count kept in the loop
         * went to the stack, and every pair waited for its store (the
         * pairs another thread owns, it does not read) */
        int n = 0;
        for (int q = p0; q < end; q++) /* vectorized */
            if (!own || (pairs[q].b >= lo && pairs[q].b < hi)) n += hit[q];
        if (n) {
#pragma omp atomic
            cp->nhit[ch] += n;
        }
    }
}

/* The first pair of [lo, hi) whose body A is at least i: the grid's pairs
 * follow their first body (broadphase.c), so a thread's bodies own one run
 * of them. With bodies of other shapes in the list the order is not strict
 * and the run only mostly theirs; the runs still cut the list. */
static int first_pair_of(const floe_pair *pairs, int lo, int hi, int i) {
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (pairs[mid].a < i) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* In the region: per candidate pair whether it starts a contact, per chunk
 * how many do (nhit, zeroed before the region), so that creation skips the
 * quiet chunks. A thread tests the pairs of the bodies it integrates:
 * reading positions another core has just written costs each line a trip
 * between the cores, and another when its integrator writes it again
 * (settle 10k on 2 threads: with static chunks of the list every block of
 * the integrator took 1.7 times its one-thread time). The list starts with
 * the boundaries' pairs, whose body is B, in boundary order: each thread
 * takes those of its bodies; the grid's pairs after them follow body A, and
 * each thread takes its run of them. Which thread tests a pair changes no
 * result. */
static void find_hits(floe_world *w, contact_pass *cp) {
    const floe_broadphase *bp = &w->bp;
    const floe_pair *pairs = bp->pairs;
    const int np = cp->npairs, any_gap = bp->margin > 0, t = omp_get_thread_num(), nt = omp_get_num_threads();
    int b0, b1;
    floe__thread_blocks(w, t, nt, &b0, &b1);
    const int lo = b0 * FLOE_BLOCK, hi = t == nt - 1 ? INT_MAX : b1 * FLOE_BLOCK;
    int g = 0, top = nt > 1 ? np : 0; /* the boundaries' pairs: [0, g); one thread takes all as they come */
    while (g < top) {
        int mid = g + (top - g) / 2;
        if (floe__class_of(w, pairs[mid].a)->flags & FLOE_SHAPE_BOUNDARY) g = mid + 1;
        else top = mid;
    }
    /* the grid's runs, each thread's from where the one before it ends */
    int from = g, to = g;
    for (int u = 0; u <= t; u++) {
        int c0, c1;
        floe__thread_blocks(w, u, nt, &c0, &c1);
        from = to;
        to = u == nt - 1 ? np : first_pair_of(pairs, from, np, c1 * FLOE_BLOCK);
    }
    test_pairs(w, cp, 0, g, 1, lo, hi, any_gap); /* the boundaries' pairs of the thread's bodies */
    test_pairs(w, cp, from, to, 0, lo, hi, any_gap);
#pragma omp barrier
}

/* Contact k, new, for candidate pair p. */
static void new_contact(floe_world *w, int k, int p) {
    floe_broadphase *bp = &w->bp;
    floe_contact *c = &w->con[k];
    floe_contact_cold *x = &w->ccold[k];
    memset(c, 0, sizeof *c);
    if (w->cwarm) memset(&w->cwarm[k], 0, sizeof w->cwarm[k]);
    memset(x, 0, sizeof *x);
    memset(state_of(w, k), 0, w->cstride);
    c->a = bp->pairs[p].a;
    c->b = bp->pairs[p].b;
    x->nbr = p;
    const floe_img img = floe__pair_img(bp, p);
    if (w->cgeom) {
        memset(&w->cgeom[k], 0, sizeof w->cgeom[k]);
        w->cgeom[k].img = img;
    }
    c->imaged = !floe__img_zero(img);
    c->inst = (uint16_t)(floe__pair_instance(w, w->mat[c->a], w->mat[c->b]) - w->insts);
    x->step_created = w->step;
    c->flags = CF_NEW;
    if (w->shape[c->a] == FLOE_SHAPE_SPHERE && w->shape[c->b] == FLOE_SHAPE_SPHERE) c->flags |= CF_SPHERES;
    bp->pairs[p].contact = k;
}

/* The new contacts of chunk ch, from contact k on; returns the next. */
static int create_chunk(floe_world *w, const contact_pass *cp, int ch, int k) {
    const int np = cp->npairs, end = (ch + 1) * HIT_CHUNK < np ? (ch + 1) * HIT_CHUNK : np;
    if (cp->nhit[ch])
        for (int p = ch * HIT_CHUNK; p < end; p++)
            if (cp->hit[p]) new_contact(w, k++, p);
    return k;
}

/* In the region: a contact for every pair that starts one, appended in
 * pair order. Chunk ch's first contact is nc0 plus the hits of the chunks
 * before it, so each chunk fills its own contacts, with the indices a
 * serial pass would give. Same static chunks as find_hits. */
static void create_contacts(floe_world *w, contact_pass *cp) {
    int k = 0, next = -1; /* the thread's next contact, valid for chunk `next` */
#pragma omp for schedule(static)
    for (int ch = 0; ch < cp->nch; ch++) {
        if (ch != next) {
            k = cp->nc0;
            for (int i = 0; i < ch; i++) k += cp->nhit[i];
        }
        next = ch + 1;
        k = create_chunk(w, cp, ch, k);
    }
}

_Static_assert(FLOE_PARTS == 2, "part_start splits the contacts in two");

/* The first slice of part p (p = FLOE_PARTS: the end). Part 1 starts at
 * the slice nearest to the contacts of the second thread's bodies as the
 * last sort left them (bp.split), so that the thread that integrates a
 * range of bodies also sums their contacts; halfway while no sort has
 * seen contacts (split 0: the first rebuild comes before the first contacts,
 * and a trial of the thread tuner at the start must see two threads work).
 * A function of the world's state only: the same on any thread count and
 * after a restart. */
static int part_start(const floe_world *w, int p, int nsl) {
    if (p <= 0) return 0;
    if (p >= FLOE_PARTS) return nsl;
    int s = w->bp.split > 0 ? (w->bp.split + FLOE_SLICE / 2) / FLOE_SLICE : nsl / 2;
    return s < nsl ? s : nsl;
}

/* In the region: contacts and force assembly in one pass. The nc contacts
 * are cut into slices of FLOE_SLICE; part p takes the contiguous run of
 * slices from part_start(p). Contacts are sorted by the bodies they belong
 * to, so a part's contacts touch one range of bodies: the range the same
 * thread integrates (integrate.c), and its data stays in that core's cache
 * (docs/decisions.md#results-independent-of-the-thread-count).
 * Each part processes its slices in contact order and sums forces into its
 * own buffer (part 0 into the force arrays), energies per slice; buffers
 * are then added in order (here) and slices (gather_parts): the same
 * arithmetic for any thread count. Contacts with events or deletions are
 * listed for the serial pass. */
static void process_parts(floe_world *w, contact_pass *cp, int nc, int late) {
    const int np = w->np, nsl = (nc + FLOE_SLICE - 1) / FLOE_SLICE, ntc = floe_touch_chunks(np);
    const size_t work = part_work();
    vec3 *buf = cp->buf;
#pragma omp for schedule(static, 1)
    for (int p = 0; p < FLOE_PARTS; p++) {
        vec3 *f = p ? buf + (size_t)2 * np * (p - 1) : w->force;
        /* part 0 marks the chunks it adds to in the world's (floe_world.ftouch) */
        const floe_part_sums sums = {f, p ? f + np : w->torque, p ? cp->touched + (size_t)ntc * (p - 1) : w->ftouch};
        slice_work sw;
        sw.out = (floe_batch_out *)(cp->batch + work * p);
        sw.ks = (int *)(sw.out + FLOE_SLICE);
        sw.kind = sw.ks + FLOE_SLICE;
        int b = -1, nf = 0, *fl = cp->flagged + (size_t)part_start(w, p, nsl) * FLOE_SLICE;
        for (int ch = 0, k = cp->nc0; late && p == FLOE_PARTS - 1 && ch < cp->nch; ch++) k = create_chunk(w, cp, ch, k);
        for (int sl = part_start(w, p, nsl); sl < part_start(w, p + 1, nsl); sl++) {
            int k0 = sl * FLOE_SLICE, end = k0 + FLOE_SLICE < nc ? k0 + FLOE_SLICE : nc;
            int bs = process_slice(w, k0, end, cp->renorm, cp->inst_kind, &sw, &sums, &cp->accs[sl], fl, &nf);
            if (b < 0) b = bs;
        }
        cp->bad[p] = b;
        cp->nflag[p] = nf;
    }
    if (FLOE_PARTS > 1) {
        /* no barrier of its own: the region's end follows (contact_phase);
         * by the integrator's blocks, so that a thread adds up the forces
         * it will integrate; only the chunks some part touched. A chunk
         * none touched holds +0 in every buffer, and f + 0 is f: the force
         * sums start from +0 and a sum from +0 is never -0 in round to
         * nearest, so skipping it changes no bit. */
        int b0, b1;
        floe__thread_blocks(w, omp_get_thread_num(), omp_get_num_threads(), &b0, &b1);
        const int c0 = b0 * (FLOE_BLOCK >> FLOE_TOUCH_SHIFT), c1 = b1 * (FLOE_BLOCK >> FLOE_TOUCH_SHIFT);
        for (int ch = c0; ch < c1 && ch < ntc; ch++) {
            int any = 0;
            for (int p = 1; p < FLOE_PARTS; p++) any |= cp->touched[(size_t)ntc * (p - 1) + ch];
            if (!any) continue;
            const int i0 = ch << FLOE_TOUCH_SHIFT,
                      end = i0 + (1 << FLOE_TOUCH_SHIFT) < np ? i0 + (1 << FLOE_TOUCH_SHIFT) : np;
            for (int i = i0; i < end; i++) {
                vec3 f = w->force[i], t = w->torque[i];
                for (int p = 1; p < FLOE_PARTS; p++) {
                    vec3 *bf = &buf[(size_t)2 * np * (p - 1) + i], *bt = bf + np;
                    f = vadd(f, *bf);
                    t = vadd(t, *bt);
                    *bf = *bt = v3(0, 0, 0);
                }
                w->force[i] = f;
                w->torque[i] = t;
            }
            if (w->ftouch) w->ftouch[ch] = 1;
            for (int p = 1; p < FLOE_PARTS; p++) cp->touched[(size_t)ntc * (p - 1) + ch] = 0;
        }
    }
}

/* Serial, after the region: the slices' energies in slice order, the
 * break loads in contact order, the first runaway, and the parts' flagged
 * lists merged into contact order. */
static floe_status gather_parts(floe_world *w, contact_pass *cp) {
    const int nc = w->ncon, nsl = (nc + FLOE_SLICE - 1) / FLOE_SLICE;
    const floe_energy_acc *accs = cp->accs;
    int *flagged = cp->flagged;
    w->e_elastic = 0;
    for (int sl = 0; sl < nsl; sl++) {
        w->e_elastic += accs[sl].elastic;
        w->e_plastic += accs[sl].plastic;
        w->e_dashpot += accs[sl].dashpot;
        w->e_broken += accs[sl].broken;
    }
    if (w->brk_oom) {
        w->brk_oom = 0;
        floe__error(w, "out of memory in the contact phase at step %lld", (long long)w->step);
        return FLOE_ERR_MEMORY;
    }
    if (w->nbrk > 1) qsort(w->brk, (size_t)w->nbrk, sizeof *w->brk, by_contact); /* contact order */
    int first_bad = -1;
    for (int p = 0; p < FLOE_PARTS; p++)
        if (cp->bad[p] >= 0 && (first_bad < 0 || cp->bad[p] < first_bad)) first_bad = cp->bad[p];
    if (first_bad >= 0) {
        const floe_contact *c = &w->con[first_bad];
        char cause[320];
        floe__runaway_cause(w, c, -1, cause, sizeof cause);
        const double uN = floe__contact_geom(w, first_bad).uN;
        double lens[2];
        floe__contact_lens(w, first_bad, lens);
        floe__error(w, "runaway at step %lld: contact between particles %d and %d has %s (uN = %g, Fn = %g)%s",
                    (long long)w->step, c->a, c->b,
                    uN < -floe_geom_lmin(lens) ? "an overlap larger than the particle size" : "a non-finite force", uN,
                    c->f.x, cause);
        w->stopped = 1;
        return FLOE_ERR_RUNAWAY;
    }
    /* the parts' lists (each ascending, each part's contacts after those of
     * the parts before it) joined in part order are in contact order; a
     * list moves down only (the lists before it hold no more rows than
     * their parts' contacts) */
    int n = 0;
    for (int p = 0; p < FLOE_PARTS; p++) {
        const int *from = flagged + (size_t)part_start(w, p, nsl) * FLOE_SLICE;
        if (cp->nflag[p] && from != flagged + n) memmove(flagged + n, from, sizeof(int) * (size_t)cp->nflag[p]);
        n += cp->nflag[p];
    }
    w->nflagged = n;
    return FLOE_OK;
}

/* Serial: events in contact order, transient flags cleared, deleted contacts
 * removed (descending swap-remove keeps the order deterministic). */
static floe_status finish_contacts(floe_world *w) {
    const int *flagged = w->scratch[SCR_FLAGGED];
    floe_broadphase *bp = &w->bp;
    /* room for this step's events first, so that nothing below can fail */
    int need = 0;
    for (int j = 0; j < w->nflagged; j++) need += event_count(w->con[flagged[j]].flags, w->event_mask);
    if (need > INT_MAX - w->nevents ||
        !floe__grow((void **)&w->events, &w->evcap, w->nevents + need, sizeof *w->events)) {
        floe__error(w, "out of memory for the %d events of step %lld", need, (long long)w->step);
        return FLOE_ERR_MEMORY;
    }
    int nb = 0; /* the next break load (both lists ascend by contact) */
    for (int j = 0; j < w->nflagged; j++) {
        floe_contact *c = &w->con[flagged[j]];
        const floe_event_load *ld = NULL;
        while (nb < w->nbrk && w->brk[nb].k < flagged[j]) nb++;
        if (nb < w->nbrk && w->brk[nb].k == flagged[j]) ld = &w->brk[nb].ld;
        if (c->flags & CF_NEW) {
            emit(w, FLOE_EVENT_CONTACT_CREATED, c, 0, NULL);
            /* auto dt is re-checked every dyn_dt_period steps; a contact
             * too stiff for the step in use makes it re-check now */
            if (w->dt_auto && !(c->flags & CF_DELETE) && floe__contact_too_stiff(w, c)) w->dt_recheck = 1;
        }
        if (c->flags & CF_ACTIVATED) emit(w, FLOE_EVENT_CONTACT_ACTIVATED, c, 0, NULL);
        if (c->flags & CF_SLIP) emit(w, FLOE_EVENT_SLIP_CHANGE, c, (c->detail >> 8) & 0xff, NULL);
        if (c->flags & CF_BROKE) {
            w->n_breaks++;
            emit(w, FLOE_EVENT_BOND_BROKEN, c, c->detail & 0xff, ld);
        }
        if (c->flags & CF_DELETE) emit(w, FLOE_EVENT_CONTACT_DELETED, c, 0, NULL);
        else c->flags &= ~CF_TRANSIENT;
    }
    for (int j = w->nflagged - 1; j >= 0; j--) {
        int k = flagged[j];
        if (!(w->con[k].flags & CF_DELETE)) continue;
        if (w->ccold[k].nbr >= 0) bp->pairs[w->ccold[k].nbr].contact = -1;
        int last = --w->ncon;
        if (k != last) {
            w->con[k] = w->con[last];
            if (w->cwarm) w->cwarm[k] = w->cwarm[last];
            if (w->cgeom) w->cgeom[k] = w->cgeom[last];
            w->ccold[k] = w->ccold[last];
            memcpy(state_of(w, k), state_of(w, last), w->cstride);
            if (w->ccold[k].nbr >= 0) bp->pairs[w->ccold[k].nbr].contact = k;
        }
    }
    return FLOE_OK;
}

/* In a parallel region, the contact phase's parallel work: the pair
 * tests, creation, the parts and the merge of their sums. Every
 * work-sharing loop keeps the static schedule it had as a region of its
 * own, so each thread keeps its pairs, chunks and parts; barriers only
 * where the data needs them (after the pair tests, after a large creation,
 * after the parts). Only new contacts beyond the arrays' capacity grow
 * them, in a single, whose failure the threads all see after its barrier. */
static void contact_work(floe_world *w, contact_pass *cp) {
    find_hits(w, cp); /* ends in a barrier: every thread reads every chunk's count */
    int added = 0;
    for (int ch = 0; ch < cp->nch; ch++) added += cp->nhit[ch];
    if (added > cp->cap0 - cp->nc0) {
#pragma omp single
        if (added > INT_MAX - cp->nc0 || !reserve_contacts(w, cp->nc0 + added) || !reserve_part_lists(w, cp, w->ccap))
            cp->oom = 1;
    }
    /* a few new contacts, all in the last part's slices: its thread makes
     * them before its slices, and the other parts need not wait */
    const int nc = cp->nc0 + added, nsl = (nc + FLOE_SLICE - 1) / FLOE_SLICE;
    const int late = added > 0 && added <= LATE_NEW && part_start(w, FLOE_PARTS - 1, nsl) * FLOE_SLICE <= cp->nc0;
    if (!cp->oom) {
        if (added && !late) create_contacts(w, cp); /* ends in a barrier */
        process_parts(w, cp, nc, late);
    }
}

static floe_status contact_oom(floe_world *w) {
    floe__error(w, "out of memory in the contact phase at step %lld", (long long)w->step);
    return FLOE_ERR_MEMORY;
}

/* Serial, after the region: the new contacts counted, energies, events,
 * deletions. */
static floe_status contact_finish(floe_world *w, contact_pass *cp) {
    if (cp->oom) return contact_oom(w);
    for (int ch = 0; ch < cp->nch; ch++) w->ncon += cp->nhit[ch];
    floe_status st = gather_parts(w, cp);
    return st == FLOE_OK ? finish_contacts(w) : st;
}

/* Creates contacts for overlapping candidate pairs, then updates every
 * contact, applies the laws, assembles particle forces and removes deleted
 * contacts, the parallel work in one region
 * (docs/decisions.md#one-parallel-region-for-the-contact-phase). Buffers
 * are allocated before it. */
static floe_status contact_phase(floe_world *w) {
    contact_pass cp;
    if (!prepare_pass(w, &cp)) return contact_oom(w);
#pragma omp parallel num_threads(floe__threads(w))
    contact_work(w, &cp);
    return contact_finish(w, &cp);
}

/* While models may connect across gaps, the pair search must reach that
 * far: the largest creation gap of the instances at this step. */
static double creation_margin(const floe_world *w, double rmax) {
    double m = 0;
    for (int i = 0; i < w->ninsts; i++) {
        const floe_model *mo = floe_registry_get(w->insts[i].model);
        if (mo->creation_gap) m = fmax(m, mo->creation_gap(w->insts[i].lp, w->step, rmax));
    }
    return m;
}

static void update_margin(floe_world *w) {
    double m = creation_margin(w, w->rmax);
    if (m != w->bp.margin) {
        w->bp.margin = m;
        w->bp.valid = 0;
    }
}

static floe_status collide(floe_world *w) {
    update_margin(w);
    if (floe_broadphase_needs_rebuild(w)) {
        floe_status st = floe_broadphase_rebuild(w);
        if (st != FLOE_OK) return st;
    } else if (w->step % FLOE_SORT_PERIOD == 0) {
        floe_broadphase_sort_contacts(w);
    }
    floe_status st = contact_phase(w);
    floe__clumps_gather(w); /* the pebbles' forces on their clumps */
    return st;
}

/* The integrator and the contact phase of a step in one parallel region
 * (docs/decisions.md#one-parallel-region-per-step): a fork wakes every
 * thread of the team, a barrier inside the region costs half as much
 * (and under OMP_WAIT_POLICY=passive each is a system call). Taken when
 * nothing runs between the two: the caller leaves steps with plane
 * counters or a periodic cell to the two regions. The broad phase's
 * rebuild (its test needs the integrator's displacements) and the
 * periodic sort of the contacts run between them: in such a step every
 * thread, having read the same block sums, skips the contact phase, and
 * collide runs it after the region. Nothing else changes: the same
 * functions on the same blocks, parts and chunks as in two regions. */
static floe_status integrate_and_collide(floe_world *w) {
    floe_integ it;
    floe_status st = floe__integrate_begin(w, &it);
    if (st != FLOE_OK) return st;
    const int64_t step0 = w->step;
    const double time0 = w->time;
    w->step++; /* the contact phase computes this step */
    w->time += w->dt;
    update_margin(w);
    contact_pass cp;
    /* out of memory for the phase: collide reports it after the region */
    const int may = w->step % FLOE_SORT_PERIOD != 0 && w->bp.valid && prepare_pass(w, &cp);
    int ran = 0;
#pragma omp parallel num_threads(floe__threads(w))
    {
        floe__integrate_blocks(w, &it);
        if (may) {
#pragma omp barrier
            const floe_integ_sum sum = floe__integrate_sum(w, &it);
            if (sum.bad == w->np && !floe_broadphase_rebuild_due(w, sum.moved2)) {
                if (omp_get_thread_num() == 0) ran = 1;
                contact_work(w, &cp);
            }
        }
    }
    /* the integrator's sums and errors as of the step it started from */
    w->step = step0;
    w->time = time0;
    st = floe__integrate_end(w, &it);
    if (st != FLOE_OK) return st;
    w->step++;
    w->time += w->dt;
    w->fused_steps += ran;
    return ran ? contact_finish(w, &cp) : collide(w);
}

/* The largest sphere radius and the Verlet skin the start resolves: the
 * skin given, or |skin| times the smallest sphere radius, that of the
 * bodies the inlets will insert included. */
static void start_sizes(const floe_world *w, double *rmax, double *skin) {
    double rmin = INFINITY;
    *rmax = 0;
    for (int i = 0; i < w->np; i++)
        if (w->shape[i] == FLOE_SHAPE_SPHERE) {
            rmin = fmin(rmin, w->radius[i]);
            *rmax = fmax(*rmax, w->radius[i]);
        }
    rmin = fmin(rmin, floe__supply_min_radius(w, NULL)); /* bodies the inlets will insert */
    *skin = w->def.skin >= 0 ? w->def.skin : (isfinite(rmin) ? -w->def.skin * rmin : 0);
}

double floe__start_search_skin(const floe_world *w) {
    if (w->started) return w->skin + w->bp.margin;
    double rmax, skin;
    start_sizes(w, &rmax, &skin);
    return skin + creation_margin(w, rmax);
}

/* First call: resolve settings, then forces at t = 0 before any update
 * (docs/decisions.md#forces-act-from-the-first-step-g4). */
static floe_status start(floe_world *w) {
    if (!w->prepared && !floe__prepare(w)) return FLOE_ERR_MEMORY;
    if (!floe__clumps_index(w)) return FLOE_ERR_MEMORY;
    floe__clumps_follow(w);
    if (w->clump_of && w->cell.axes) {
        /* the cell wraps bodies one by one; a clump and its pebbles would part */
        floe__error(w, "clumps in a periodic cell are not supported: a clump and its pebbles would wrap apart; "
                       "use walls instead of the periodic cell");
        return FLOE_ERR_ARG;
    }
    if (w->clump_of && w->has_water) {
        /* buoyancy per pebble would count the overlaps twice */
        floe__error(w, "clumps in water are not supported: the buoyancy of overlapping pebbles is not computed; "
                       "leave the water out or use spheres, capsules or ellipsoids");
        return FLOE_ERR_ARG;
    }
    floe__threads_reset(w);
    floe_status ms = floe__motion_check(w); /* a body in two motion-controlled groups */
    if (ms != FLOE_OK) return ms;
    start_sizes(w, &w->rmax, &w->skin);
    if (w->dt_auto) {
        w->dt = floe__auto_dt(w);
        if (!(w->dt > 0) || !isfinite(w->dt)) {
            floe__error(w, "dt: auto needs at least one sphere with a finite stiffness; give dt explicitly");
            return FLOE_ERR_ARG;
        }
    }
    if (w->np > 0) { /* the contact pass sums into zeroed force arrays */
        memset(w->force, 0, sizeof(vec3) * (size_t)w->np);
        memset(w->torque, 0, sizeof(vec3) * (size_t)w->np);
    }
    floe_status st = floe__cell_start(w);
    if (st == FLOE_OK) st = collide(w);
    if (st != FLOE_OK) return st;
    if (w->dt_auto) floe__update_dt(w);
    w->dt_recheck = 0;
    w->started = 1;
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    w->e_total0 = e[FLOE_E_TOTAL];
    floe__energy_check(w); /* the scale at the start */
    floe__cell_switch(w);  /* a phase starting at time 0 is the phase of step 0 */
    return floe__motion_switch(w);
}

static double wall_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What follows the inlets and sinks at the end of a step: the automatic
 * time step's update. An interrupted insertion leaves it (and dt_recheck)
 * to the end of that insertion, at the next floe_step. */
static floe_status end_step(floe_world *w, floe_status st) {
    if (st == FLOE_INTERRUPTED) return st;
    if (st == FLOE_OK && w->dt_auto && (w->dt_recheck || w->step % w->def.dyn_dt_period == 0)) floe__update_dt(w);
    if (st == FLOE_OK && w->step % w->def.dyn_dt_period == 0) floe__energy_check(w);
    w->dt_recheck = 0;
    if (st == FLOE_OK) st = floe__motion_switch(w); /* phases whose start is the state reached */
    if (st == FLOE_OK) st = floe__cell_switch(w);
    if (st == FLOE_ERR_RUNAWAY) w->stopped = 1;
    return st;
}

floe_status floe_step(floe_world *w) {
    if (w->stopped) return FLOE_ERR_RUNAWAY;
    if (!w->prepared && w->started && !floe__prepare(w)) return FLOE_ERR_MEMORY;
    clear_events(w);
    floe_status st = FLOE_OK;
    if (w->supply_next && (st = end_step(w, floe__supply_step(w))) != FLOE_OK) return st; /* an interrupted step's */
    if (st == FLOE_OK && !floe__clumps_index(w)) st = FLOE_ERR_MEMORY; /* bodies added or removed since */
    if (st == FLOE_OK && !w->started) st = start(w);
    /* the thread count of this step (threads.h), timed only in a trial */
    const int64_t step0 = w->step;
    const int timed = floe__threads_before(w);
    const double t0 = timed ? wall_seconds() : 0;
    for (int i = 0; i < w->nsched && st == FLOE_OK; i++) {
        const floe_scheduled *s = &w->sched[i];
        if (s->step == w->step) st = floe_apply_method(w, s->model, s->method, s->group, s->args, s->nargs, NULL);
    }
    if (st == FLOE_OK) st = floe__motion_update(w); /* phases, servos, ramped loads */
    if (st == FLOE_OK) st = floe__cell_switch(w);   /* cell phases set since the last step */
    /* plane counters compare each body's side before and after the motion */
    int planes = w->nplanes > 0 && st == FLOE_OK;
    if (planes) st = floe__planes_before(w);
    /* clumps: their pebbles follow them between the integrator and the contact phase */
    const int clumps = w->clump_of != NULL;
    if (st == FLOE_OK && !planes && !w->cell.axes && !w->fuse_off && !clumps) {
        st = integrate_and_collide(w);
    } else if (st == FLOE_OK) {
        st = floe__integrate(w);
        if (st == FLOE_OK) floe__clumps_follow(w);
        if (st == FLOE_OK && planes) floe__planes_after(w);
        if (st == FLOE_OK) floe__cell_advance(w); /* the periodic cell deforms, bodies wrap */
        if (st == FLOE_OK) {
            w->step++;
            w->time += w->dt;
            st = collide(w);
        }
    }
    if (st == FLOE_OK) floe__boundary_end(w);
    /* inlets and sinks: bodies in and out after the step (supply.c) */
    if (st == FLOE_OK && (w->ninlets || w->nsinks)) st = floe__supply_step(w);
    if (st == FLOE_OK && !floe__clumps_index(w)) st = FLOE_ERR_MEMORY;
    st = end_step(w, st);
    if (st == FLOE_OK && timed) floe__threads_after(w, step0, wall_seconds() - t0);
    return st;
}

floe_status floe_start(floe_world *w) {
    if (w->stopped) return FLOE_ERR_RUNAWAY;
    if (w->started) return FLOE_OK;
    clear_events(w);
    floe_status st = start(w);
    if (st == FLOE_ERR_RUNAWAY) w->stopped = 1; /* as in floe_step */
    return st;
}

floe_event_list floe_events(const floe_world *w) {
    return (floe_event_list){w->nevents ? w->events : NULL, w->nevents, w->event_serial};
}

floe_status floe_run(floe_world *w, int64_t steps) {
    for (int64_t i = 0; i < steps; i++) {
        if (floe__interrupted(w)) {
            floe__error(w, "interrupted before step %lld", (long long)w->step + 1);
            return FLOE_INTERRUPTED;
        }
        floe_status st = floe_step(w);
        if (st != FLOE_OK) return st;
    }
    return FLOE_OK;
}
