/* The critical time step and dt: auto (docs/integration.md, "Time step";
 * docs/decisions.md#one-estimate-of-the-critical-step).
 *
 * Leapfrog is stable while dt < 2 / omega_max, omega_max^2 the largest
 * eigenvalue Lambda of the mass-scaled stiffness A = M^-1/2 K M^-1/2 over
 * the free degrees of freedom. K is the sum of the contacts' stiffness
 * matrices K_c, each positive semi-definite and acting on the DOFs of its
 * two bodies, so for any x
 *   x'Ax = sum_c x_c'A_c x_c <= sum_c lambda_c (|x_a|^2 + |x_b|^2)
 *        <= max_i (sum over the contacts c of body i of lambda_c) |x|^2,
 * lambda_c the largest eigenvalue of A_c: Lambda is at most the largest
 * such sum over the free bodies, with equality for a single contact. The
 * estimate is that bound, lambda_c exact (pair_lambda), taken
 * together with the contacts the free bodies could make next (a virtual
 * contact of each with a copy of itself and with each boundary material,
 * stiffnesses from the model's own create). */
#include "core/timestep.h"
#include "core/clump.h"
#include "core/cell.h"
#include "core/size_dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one contact ---------------------------------------------------------- */

/* One contact's stiffness and kinematics, for pair_lambda: springs
 * kn, kt (per tangent direction), kw (twist), kr (per bending direction);
 * the frame (n, t1, t1 x ... ) as n and t1; the levers ra = c - x_a,
 * rb = c - x_b; the inverse masses and inverse (smallest) moments of
 * inertia of the free DOFs (0 for a blocked or fixed group). */
typedef struct floe_dt_pair {
    double kn, kt, kw, kr;
    vec3 n, t1, ra, rb;
    double ima, iia, imb, iib;
} floe_dt_pair;

/* Largest eigenvalue of the symmetric n x n matrix a (n <= 6; a is
 * overwritten) by cyclic Jacobi rotations; what is left off the diagonal
 * is added to its row (Gershgorin), so the value is never below the exact
 * one by more than rounding. */
static double sym_max_eig(double a[6][6], int n) {
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0, diag = 0;
        for (int p = 0; p < n; p++) {
            diag += a[p][p] * a[p][p];
            for (int q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
        }
        if (!(off > 1e-30 * diag)) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                double apq = a[p][q];
                if (apq == 0) continue;
                double theta = (a[q][q] - a[p][p]) / (2 * apq);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) {
                    if (k == p || k == q) continue;
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = a[p][k] = c * akp - s * akq;
                    a[k][q] = a[q][k] = s * akp + c * akq;
                }
                a[p][p] -= t * apq;
                a[q][q] += t * apq;
                a[p][q] = a[q][p] = 0;
            }
    }
    double best = 0;
    for (int i = 0; i < n; i++) {
        double r = a[i][i];
        for (int j = 0; j < n; j++)
            if (j != i) r += fabs(a[i][j]);
        best = fmax(best, r);
    }
    return best;
}

/* A lever lies along n when its part across n vanishes (to rounding of a
 * point computed along n: spheres and walls). */
static int along(vec3 r, vec3 n) { return vlen2(vcross(r, n)) <= 1e-24 * vlen2(r); }

/* The largest eigenvalue of the pair's mass-scaled stiffness
 * (docs/integration.md#time-step): closed form when both levers lie along
 * n (spheres and walls), a 6 x 6 eigenvalue problem otherwise. */
static double pair_lambda(const floe_dt_pair *p) {
    const double ima = p->ima, iia = p->iia, imb = p->imb, iib = p->iib;
    if ((iia == 0 || along(p->ra, p->n)) && (iib == 0 || along(p->rb, p->n))) {
        /* levers along n: rotations do not move the contact point along n,
         * so the normal spring acts on the translations alone and the twist
         * spring on the spins about n alone; each tangent direction t
         * couples the translations along t and the spins about s = n x t
         * through K = kt g g' + kr h h', g = (-1, -la, 1, -lb) on
         * (u_a.t, th_a.s, u_b.t, th_b.s) and h = (0, -1, 0, 1). Its two
         * non-zero eigenvalues are those of the Gram matrix of the
         * mass-scaled g, h (weighted by kt, kr). */
        const double la = vdot(p->ra, p->n), lb = -vdot(p->rb, p->n);
        const double ln = p->kn * (ima + imb), lw = p->kw * (iia + iib);
        const double g11 = p->kt * (ima + imb + la * la * iia + lb * lb * iib), g22 = p->kr * (iia + iib);
        const double g12 = sqrt(p->kt * p->kr) * (la * iia - lb * iib);
        const double ls = 0.5 * (g11 + g22) + sqrt(0.25 * (g11 - g22) * (g11 - g22) + g12 * g12);
        return fmax(ln, fmax(lw, ls));
    }
    /* any levers: the 6 x 6 Gram matrix of the springs' rows, each row the
     * DOFs' part in one spring's displacement (u_a, th_a, u_b, th_b):
     * force rows (-e, -ra x e, e, rb x e) for e = n, t1, t2 (kn, kt, kt),
     * rotation rows (0, -e, 0, e) (kw, kr, kr), weighted by the inverse
     * masses and moments */
    const vec3 t2 = vcross(p->n, p->t1), e[3] = {p->n, p->t1, t2};
    vec3 row[6][4];
    double k[6];
    int nr = 0;
    for (int j = 0; j < 3; j++) {
        k[nr] = j ? p->kt : p->kn;
        row[nr][0] = vneg(e[j]);
        row[nr][1] = vneg(vcross(p->ra, e[j]));
        row[nr][2] = e[j];
        row[nr][3] = vcross(p->rb, e[j]);
        if (k[nr] > 0) nr++;
    }
    for (int j = 0; j < 3; j++) {
        k[nr] = j ? p->kr : p->kw;
        row[nr][0] = row[nr][2] = v3(0, 0, 0);
        row[nr][1] = vneg(e[j]);
        row[nr][3] = e[j];
        if (k[nr] > 0) nr++;
    }
    const double wgt[4] = {ima, iia, imb, iib};
    double a[6][6];
    for (int i = 0; i < nr; i++)
        for (int j = i; j < nr; j++) {
            double s = 0;
            for (int b = 0; b < 4; b++) s += wgt[b] * vdot(row[i][b], row[j][b]);
            a[i][j] = a[j][i] = sqrt(k[i] * k[j]) * s;
        }
    return sym_max_eig(a, nr);
}

/* Inverse mass and inverse smallest principal moment of body i's free
 * DOFs: 0 for a fully blocked group, or without mass. A partly blocked
 * group counts as free: a bound on the whole group bounds its part
 * (interlacing), and the smallest moment bounds an aspherical body. */
static void inverse_mass(const floe_world *w, int i, double *im, double *ii) {
    if (w->clump_of && w->clump_of[i] >= 0) i = w->clump_of[i]; /* a pebble moves with its clump */
    const uint32_t bl = w->blocked[i];
    const double m = w->mass[i];
    const vec3 I = w->inertia[i];
    const double imin = fmin(I.x, fmin(I.y, I.z));
    *im = (bl & 7u) != 7u && m > 0 ? 1 / m : 0;
    *ii = (bl & 56u) != 56u && imin > 0 ? 1 / imin : 0;
}

/* The stiffnesses the step counts for contact k: kn, kt, kw, kr as the
 * model reports them (its dt_stiffness raises them for its dashpots). */
static void contact_springs(const floe_world *w, int k, double s[4]) {
    const floe_contact *c = &w->con[k];
    floe_contact_warm own;
    const floe_contact_warm *x = floe__warm(w, k, &own);
    const floe_instance *in = &w->insts[c->inst];
    if (in->m->dt_stiffness) {
        in->m->dt_stiffness(in->lp, c, x, w->cstate + (size_t)k * w->cstride, s);
        return;
    }
    s[0] = c->kn;
    s[1] = c->kt;
    s[2] = x->kw;
    s[3] = x->kr;
}

/* A lever no longer than the body's bounding radius (0: a boundary, not
 * bounded): the contact point of a sound contact lies within it, that of
 * a runaway's anywhere, and the runaway message reports the step. */
static vec3 within(vec3 r, double bound) {
    double l2 = vlen2(r);
    return bound > 0 && l2 > bound * bound ? vscale(r, bound / sqrt(l2)) : r;
}

/* The farthest surface point of clump c from its centre: the lever of its
 * pebbles' contacts. */
static double lever_of(const floe_world *w, int c) {
    const floe_shape_class *cl = floe__class_of(w, c);
    return cl->reach ? cl->reach(floe__shape_data(w, c)) : w->bound[c];
}

static double contact_lambda(const floe_world *w, int k) {
    const floe_contact *c = &w->con[k];
    floe_dt_pair p;
    double s[4];
    contact_springs(w, k, s);
    p.kn = s[0], p.kt = s[1], p.kw = s[2], p.kr = s[3];
    inverse_mass(w, c->a, &p.ima, &p.iia);
    inverse_mass(w, c->b, &p.imb, &p.iib);
    if (p.ima == 0 && p.iia == 0 && p.imb == 0 && p.iib == 0) return 0;
    const floe_geom g = floe__contact_geom(w, k);
    p.n = g.n;
    p.t1 = g.t1;
    const int ba = floe__mass_body(w, c->a), bb = floe__mass_body(w, c->b);
    if (ba != c->a || bb != c->b) { /* a pebble's lever from its clump's centre (no periodic cell) */
        p.ra = within(vsub(g.c, w->pos[ba]), ba != c->a ? lever_of(w, ba) : w->bound[c->a]);
        p.rb = within(vsub(g.c, w->pos[bb]), bb != c->b ? lever_of(w, bb) : w->bound[c->b]);
        return pair_lambda(&p);
    }
    p.ra = within(vsub(g.c, w->pos[c->a]), w->bound[c->a]);
    p.rb = within(vsub(g.c, floe__img_pos(w, c->b, floe__contact_img(w, k))), w->bound[c->b]);
    return pair_lambda(&p);
}

/* ---- contacts to come --------------------------------------------------------- */

/* What a free body may touch: the materials of the other bodies that move
 * or can (bit m: material m, for m < 64; ~0 beyond) and of the boundaries
 * (walls, facets, cylinders). */
typedef struct partners {
    uint64_t bodies, bounds;
    int nbodies; /* bodies on the grid (spheres, capsules, ellipsoids) and bodies the inlets will insert */
} partners;

static uint64_t mat_bit(int m) { return m < 64 ? 1ull << m : ~0ull; }

static partners find_partners(const floe_world *w) {
    partners p = {0, 0, 0};
    for (int i = 0; i < w->np; i++) {
        if (w->bound[i] > 0) {
            p.bodies |= mat_bit(w->mat[i]);
            p.nbodies++;
        } else {
            p.bounds |= mat_bit(w->mat[i]);
        }
    }
    for (int k = 0; k < w->ninlets; k++) {
        p.bodies |= mat_bit(w->inlets[k].material);
        p.nbodies += 2; /* an inlet's bodies can touch each other */
    }
    return p;
}

/* The model instance of a material pair as floe__prepare resolves it
 * (world.c), without its table, which exists only once prepared. */
static const floe_instance *pair_instance(const floe_world *w, int a, int b) {
    return &w->insts[floe__pair_inst_of(w, a, b)];
}

/* A prospective body: what a virtual contact needs of it. */
typedef struct prospect {
    int mat;
    double radius, lever, mass, im, ii;
} prospect;

/* lambda of a virtual contact of body x (material x->mat) with a partner
 * of material `other`: a copy of x (copy = 1) or a fixed flat boundary.
 * The model's create gives the stiffnesses, for lens (r, r) and area
 * pi r^2 (a boundary takes the body's lens, as L6Geom does), the contact
 * normal along x with the levers r along it. A model that has no stiffness
 * before an impact (Hertz, whose stiffness grows with the overlap) is
 * given the p-wave estimate of the body's material instead. */
static double virtual_lambda(const floe_world *w, const prospect *x, int other, int copy) {
    const floe_instance *in = pair_instance(w, x->mat, other);
    const floe_model *m = in->m;
    _Alignas(16) unsigned char local[512];
    void *state = m->state_size <= sizeof local ? (void *)local : calloc(1, m->state_size);
    if (!state) return 0;
    if (state == local) memset(local, 0, sizeof local);
    const double r = x->radius;
    floe_geom g = {.n = v3(1, 0, 0), .t1 = v3(0, 1, 0), .c = v3(x->lever, 0, 0), .uN = 0};
    floe_contact_warm warm = {.m = v3(0, 0, 0), .kw = 0, .kr = 0, .area = FLOE_PI * r * r};
    floe_contact c;
    memset(&c, 0, sizeof c);
    c.inst = (uint16_t)(in - w->insts);
    floe_law_ctx ctx = {.dt = w->dt, .step = w->step, .fresh = 1, .dim = w->def.dimension, .lp = in->lp};
    ctx.mass[0] = x->im > 0 ? 1 / x->im : INFINITY;
    ctx.mass[1] = copy ? ctx.mass[0] : INFINITY;
    ctx.curv[0] = r;
    ctx.curv[1] = copy ? r : INFINITY;
    ctx.lens[0] = ctx.lens[1] = r;
    ctx.warm = &warm;
    ctx.g = &g;
    m->create(&ctx, w->mats[x->mat].p, w->mats[other].p, &c, state);
    double s[4] = {c.kn, c.kt, warm.kw, warm.kr};
    if (m->dt_stiffness) m->dt_stiffness(in->lp, &c, &warm, state, s);
    if (state != local) free(state);
    if (!(s[0] > 0 || s[1] > 0 || s[2] > 0 || s[3] > 0)) {
        const double *mp = w->mats[x->mat].p;
        double dt = r / sqrt(mp[MAT_YOUNG] / mp[MAT_DENSITY]);
        return dt > 0 ? 4 / (dt * dt) : 0; /* crit = 2 / sqrt(lambda) = dt */
    }
    floe_dt_pair p = {.kn = s[0], .kt = s[1], .kw = s[2], .kr = s[3]};
    p.n = g.n;
    p.t1 = g.t1;
    p.ra = vscale(g.n, x->lever);
    p.rb = vscale(g.n, -x->lever);
    p.ima = x->im;
    p.iia = x->ii;
    p.imb = copy ? x->im : 0;
    p.iib = copy ? x->ii : 0;
    return pair_lambda(&p);
}

/* The largest lambda of the virtual contacts of body x: with a copy of
 * itself of each material of the bodies, with each boundary material. */
static double prospect_lambda(const floe_world *w, const prospect *x, const partners *pt) {
    double best = 0;
    for (int m = 0; m < w->nmats; m++) {
        if (pt->nbodies >= 2 && (pt->bodies & mat_bit(m))) best = fmax(best, virtual_lambda(w, x, m, 1));
        if (pt->bounds & mat_bit(m)) best = fmax(best, virtual_lambda(w, x, m, 0));
    }
    return best;
}

static int same_prospect(const prospect *a, const prospect *b) {
    return a->mat == b->mat && a->radius == b->radius && a->lever == b->lever && a->mass == b->mass && a->im == b->im &&
           a->ii == b->ii;
}

/* The largest lambda of the contacts the free bodies (and those the inlets
 * will insert) could make. Bodies in a row that are alike (a generator's
 * of one size) share one evaluation. */
static double prospective_lambda(const floe_world *w) {
    const partners pt = find_partners(w);
    if (pt.nbodies < 2 && !pt.bounds) return 0; /* a body alone: nothing to touch */
    double best = 0, last_l = 0;
    prospect last = {-1, 0, 0, 0, 0, 0};
    for (int i = 0; i < w->np; i++) {
        if (!(w->bound[i] > 0)) continue;
        prospect x = {
            w->mat[i], w->radius[i], w->shape[i] == FLOE_SHAPE_SPHERE ? w->radius[i] : w->bound[i], w->mass[i], 0, 0};
        const int bi = floe__mass_body(w, i);
        if (bi != i) { /* a pebble: its clump's mass and lever */
            x.lever = lever_of(w, bi);
            x.mass = w->mass[bi];
        }
        inverse_mass(w, i, &x.im, &x.ii);
        if (x.im == 0 && x.ii == 0) continue; /* fixed: it cannot move */
        if (!same_prospect(&x, &last)) {
            last = x;
            last_l = prospect_lambda(w, &x, &pt);
        }
        best = fmax(best, last_l);
    }
    int mat = -1;
    double r = floe__supply_min_radius(w, &mat);
    if (mat >= 0 && isfinite(r) && r > 0) { /* a sphere of the smallest size an inlet inserts */
        double rho = w->mats[mat].p[MAT_DENSITY], m = 4.0 / 3.0 * FLOE_PI * r * r * r * rho, I = 0.4 * m * r * r;
        prospect x = {mat, r, r, m, 1 / m, 1 / I};
        if (m > 0 && I > 0) best = fmax(best, prospect_lambda(w, &x, &pt));
    }
    return best;
}

/* ---- the estimate ------------------------------------------------------------- */

/* The bound over the contacts: the largest sum of lambda_c over the
 * contacts of a free body; NAN when out of memory. */
static double contacts_lambda(const floe_world *w) {
    if (w->ncon == 0 || w->np == 0) return 0;
    double *sum = calloc((size_t)w->np, sizeof *sum);
    if (!sum) return NAN;
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *c = &w->con[k];
        double l = contact_lambda(w, k);
        sum[floe__mass_body(w, c->a)] += l; /* a pebble's contacts all act on its clump */
        sum[floe__mass_body(w, c->b)] += l;
    }
    double best = 0;
    for (int i = 0; i < w->np; i++)
        if (w->blocked[i] != FLOE_DOF_ALL) best = fmax(best, sum[i]);
    free(sum);
    return best;
}

double floe__crit_dt(const floe_world *w) {
    double lc = contacts_lambda(w);
    if (isnan(lc)) return NAN; /* out of memory: no figure to give */
    double l = fmax(lc, prospective_lambda(w));
    return l > 0 ? 2 / sqrt(l) : INFINITY;
}

/* The p-wave estimate min r / sqrt(E/rho) over the free bodies (all
 * bodies if none is free) and those the inlets will insert: the step dt:
 * auto takes when nothing bounds it (INFINITY without bodies). */
static double pwave_dt(const floe_world *w) {
    double dt = INFINITY, all = INFINITY;
    for (int i = 0; i < w->np; i++) {
        if (!(w->bound[i] > 0)) continue; /* spheres, capsules, ellipsoids */
        const double *p = w->mats[w->mat[i]].p, d = w->radius[i] / sqrt(p[MAT_YOUNG] / p[MAT_DENSITY]);
        all = fmin(all, d);
        if (w->blocked[i] != FLOE_DOF_ALL) dt = fmin(dt, d);
    }
    int mat = -1;
    double r = floe__supply_min_radius(w, &mat); /* bodies the inlets will insert */
    if (mat >= 0) dt = fmin(dt, r / sqrt(w->mats[mat].p[MAT_YOUNG] / w->mats[mat].p[MAT_DENSITY]));
    return isfinite(dt) ? dt : all;
}

double floe__auto_dt(const floe_world *w) {
    double crit = floe__crit_dt(w);
    return w->def.dt_safety * (isfinite(crit) ? crit : pwave_dt(w));
}

void floe__update_dt(floe_world *w) {
    double crit = floe__crit_dt(w);
    if (!isfinite(crit)) { /* nothing bounds it, or out of memory: the step stays */
        w->last_dyn_dt = w->step;
        return;
    }
    double grown = w->dt * pow(1.0 + 1e-4, (double)(w->step - w->last_dyn_dt));
    w->dt = fmin(w->def.dt_safety * crit, grown);
    w->last_dyn_dt = w->step;
}

int floe__contact_too_stiff(const floe_world *w, const floe_contact *c) {
    double l = contact_lambda(w, (int)(c - w->con));
    return l > 0 && w->dt > w->def.dt_safety * 2 / sqrt(l);
}

void floe__runaway_cause(const floe_world *w, const floe_contact *c, int particle, char *buf, size_t n) {
    size_t at = 0;
    buf[0] = 0;
#define ADD(...) (at += (size_t)snprintf(buf + at, at < n ? n - at : 0, __VA_ARGS__), at = at < n ? at : n)
    /* the critical step dt: auto works from */
    double crit = floe__crit_dt(w);
    if (w->dt > crit && crit > 0)
        ADD("; likely cause: dt = %g s is %.3g times the critical time step %g s%s", w->dt, w->dt / crit, crit,
            w->dt_auto ? "" : " (give a smaller dt, or dt: auto)");
    /* a contact that exists since the start of the run: the bodies were
     * placed overlapping (for a particle, the first such contact it has) */
    for (int k = 0; !c && particle >= 0 && k < w->ncon; k++)
        if ((w->con[k].a == particle || w->con[k].b == particle) && w->ccold[k].step_created == 0 &&
            floe__contact_geom(w, k).uN < 0)
            c = &w->con[k];
    if (c && w->ccold[c - w->con].step_created == 0 && w->step <= 1)
        ADD("; likely cause: particles %d and %d overlapped when the run started (initial overlap): check their "
            "positions and sizes",
            c->a, c->b);
#undef ADD
}
