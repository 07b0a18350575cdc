#include "core/batch.h"
#include "collide/l6geom.h"
#include "models/ice.h"
#include "models/linear.h"
#include "shapes/shape.h"

const floe_model *const floe_batch_models[FLOE_BATCH_KINDS] = {NULL, &floe_model_linear, &floe_model_ice};
_Static_assert(LP_NO_SLIP == 0, "floe_batch_kind reads no_slip as law parameter 0");

#define B FLOE_BATCH
#define get3(a, j) v3((a)[0][j], (a)[1][j], (a)[2][j])
#define put3(a, j, v) ((a)[0][j] = (v).x, (a)[1][j] = (v).y, (a)[2][j] = (v).z)

/* Lanes: one array per scalar, B long, so that the loop over contacts reads
 * and writes unit-stride vectors. What every kernel needs: */
typedef struct geo_lanes {
    double xa[3][B], va[3][B], wa[3][B], xb[3][B], vb[3][B], wb[3][B], ra[B], rb[B];
    double n[3][B], t1[3][B], c[3][B], uN[B], lmin[B], kn[B], kt[B];
    double f[3][B], F[3][B], mA[3][B], mB[3][B], el[B], pl[B], ok[B];
} geo_lanes;

typedef struct linear_lanes {
    geo_lanes g;
    double no_break[B], dp_mode[B], uN0[B], tan_phi[B], cn[B], cs[B], fy[B], fz[B], dp[B], keep[B];
} linear_lanes;

typedef struct ice_lanes {
    geo_lanes g;
    double m[3][B], area[B], brk[4][B], free[3][B], open_n[B];
    double uN0[B], kw[B], kr[B], fnb[B], ftb[B], twb[B], trb[B], tan_phi[B], mu[B], odd[B];
} ice_lanes;

static void gather_geo(const floe_world *w, const floe_contact *c, int j, geo_lanes *L) {
    int a = c->a, b = c->b;
    put3(L->xa, j, w->pos[a]);
    put3(L->va, j, w->vel[a]);
    put3(L->wa, j, w->angvel[a]);
    put3(L->xb, j, w->pos[b]);
    put3(L->vb, j, w->vel[b]);
    put3(L->wb, j, w->angvel[b]);
    L->ra[j] = w->radius[a];
    L->rb[j] = w->radius[b];
    put3(L->n, j, c->g.n);
    put3(L->t1, j, c->g.t1);
    put3(L->c, j, c->g.c);
    L->lmin[j] = floe_geom_lmin(&c->g);
    L->kn[j] = c->kn;
    L->kt[j] = c->kt;
    put3(L->f, j, c->f);
}

/* Sphere-sphere narrow phase of an existing contact (floe_sphere_sphere) and
 * the L6Geom update of lane j: the new geometry in g, the rates. */
FLOE_KERNEL void update_geo(const geo_lanes *L, int j, double dt, floe_geom *g, vec3 *vel, vec3 *angvel) {
    vec3 xa = get3(L->xa, j), xb = get3(L->xb, j);
    floe_raw_contact raw;
    floe_sphere_pair(xa, xb, L->ra[j], L->rb[j], get3(L->n, j), &raw);
    g->n = get3(L->n, j);
    g->t1 = get3(L->t1, j);
    g->c = get3(L->c, j);
    floe_l6geom_update(g, &raw, dt, 0, xa, get3(L->va, j), get3(L->wa, j), xb, get3(L->vb, j), get3(L->wb, j), vel,
                       angvel);
}

/* Global force and torques of lane j from the local force f and torque M
 * (global), as the per-contact path; stores the geometry and the results. */
FLOE_KERNEL void finish_geo(geo_lanes *L, int j, const floe_geom *g, vec3 f, vec3 M) {
    vec3 t2 = vcross(g->n, g->t1);
    vec3 F = vadd(vadd(vscale(g->n, f.x), vscale(g->t1, f.y)), vscale(t2, f.z));
    vec3 mA = vadd(vcross(vsub(g->c, get3(L->xa, j)), F), M);
    vec3 mB = vsub(vcross(vsub(g->c, get3(L->xb, j)), vneg(F)), M);
    put3(L->n, j, g->n);
    put3(L->t1, j, g->t1);
    put3(L->c, j, g->c);
    L->uN[j] = g->uN;
    put3(L->f, j, f);
    put3(L->F, j, F);
    put3(L->mA, j, mA);
    put3(L->mB, j, mB);
    /* the runaway test of the per-contact path, in single comparisons */
    double z = F.x * 0.0 + F.y * 0.0 + F.z * 0.0 + mA.x * 0.0 + mA.y * 0.0 + mA.z * 0.0 + mB.x * 0.0 + mB.y * 0.0 +
               mB.z * 0.0;
    L->ok[j] = z == z ? (g->uN < -L->lmin[j] ? 0.0 : 1.0) : 0.0;
}

static void scatter_geo(floe_contact *c, const geo_lanes *L, int j, floe_batch_out *o) {
    c->g.n = get3(L->n, j);
    c->g.t1 = get3(L->t1, j);
    c->g.c = get3(L->c, j);
    c->g.uN = L->uN[j];
    o->keep = 1;
    o->fallback = 0;
    o->ok = L->ok[j] != 0;
    c->f = get3(L->f, j);
    o->F = get3(L->F, j);
    o->mA = get3(L->mA, j);
    o->mB = get3(L->mB, j);
    o->elastic = L->el[j];
    o->plastic = L->pl[j];
    o->dashpot = 0;
}

/* ---- Linear --------------------------------------------------------------- */

static void run_linear(floe_world *w, const int *ks, int n, floe_batch_out *out) {
    linear_lanes Lm, *L = &Lm;
    const double dt = w->dt;
    for (int j = 0; j < n; j++) {
        const floe_contact *c = &w->con[ks[j]];
        const linear_state *s = (const linear_state *)(w->cstate + (size_t)ks[j] * w->cstride);
        const double *lp = w->insts[c->inst].lp;
        gather_geo(w, c, j, &L->g);
        L->no_break[j] = lp[LP_NO_BREAK];
        L->dp_mode[j] = lp[LP_DP_MODE];
        L->uN0[j] = s->uN0;
        L->tan_phi[j] = s->tan_phi;
        L->cn[j] = s->cn;
        L->cs[j] = s->cs;
        L->fy[j] = s->fy;
        L->fz[j] = s->fz;
    }
    for (int j = 0; j < n; j++) { /* vectorized */
        floe_geom g;
        vec3 vel, angvel;
        update_geo(&L->g, j, dt, &g, &vel, &angvel);
        double u = g.uN - L->uN0[j];
        linear_state s;
        s.tan_phi = L->tan_phi[j];
        s.cn = L->cn[j];
        s.cs = L->cs[j];
        s.fy = L->fy[j];
        s.fz = L->fz[j];
        floe_linear_energy e;
        vec3 f = floe_linear_force(dt, L->g.kn[j], L->g.kt[j], u, vel, 0.0, L->dp_mode[j], &s, &e);
        /* the Linear model has no local torque */
        finish_geo(&L->g, j, &g, f, v3(0, 0, 0));
        L->fy[j] = s.fy;
        L->fz[j] = s.fz;
        L->g.el[j] = e.elastic;
        L->g.pl[j] = e.plastic;
        L->dp[j] = e.dashpot;
        /* floe_linear_opens in single comparisons */
        L->keep[j] = u > 0 ? (L->no_break[j] == 0 ? 0.0 : 1.0) : 1.0;
    }
    for (int j = 0; j < n; j++) {
        floe_contact *c = &w->con[ks[j]];
        linear_state *s = (linear_state *)(w->cstate + (size_t)ks[j] * w->cstride);
        floe_batch_out *o = &out[j];
        if (L->keep[j] == 0) { /* as the law: the contact goes, force and state as they were */
            c->g.n = get3(L->g.n, j);
            c->g.t1 = get3(L->g.t1, j);
            c->g.c = get3(L->g.c, j);
            c->g.uN = L->g.uN[j];
            c->flags |= CF_DELETE;
            *o = (floe_batch_out){.keep = 0, .ok = 1, .fallback = 0};
            continue;
        }
        scatter_geo(c, &L->g, j, o);
        o->dashpot = L->dp[j];
        s->fy = L->fy[j];
        s->fz = L->fz[j];
    }
}

/* ---- Ice ------------------------------------------------------------------- */

static void run_ice(floe_world *w, const int *ks, int n, floe_batch_out *out) {
    ice_lanes Lm, *L = &Lm;
    const double dt = w->dt;
    for (int j = 0; j < n; j++) {
        const floe_contact *c = &w->con[ks[j]];
        const ice_state *s = (const ice_state *)(w->cstate + (size_t)ks[j] * w->cstride);
        gather_geo(w, c, j, &L->g);
        put3(L->m, j, c->m);
        L->area[j] = c->g.area;
        int b = s->bonds, brk = b & (b >> 4);
        L->brk[0][j] = brk & BOND_N, L->brk[1][j] = brk & BOND_T, L->brk[2][j] = brk & BOND_W;
        L->brk[3][j] = brk & BOND_R;
        L->free[0][j] = !(b & BOND_T), L->free[1][j] = !(b & BOND_W), L->free[2][j] = !(b & BOND_R);
        L->open_n[j] = !(b & BOND_N);
        L->uN0[j] = s->uN0, L->kw[j] = c->kw, L->kr[j] = c->kr, L->fnb[j] = s->fnb, L->ftb[j] = s->ftb;
        L->twb[j] = s->twb, L->trb[j] = s->trb, L->tan_phi[j] = s->tan_phi, L->mu[j] = s->mu;
    }
    for (int j = 0; j < n; j++) { /* vectorized */
        floe_geom g;
        vec3 vel, angvel;
        update_geo(&L->g, j, dt, &g, &vel, &angvel);
        g.area = L->area[j];
        ice_state s;
        s.uN0 = L->uN0[j], s.fnb = L->fnb[j], s.ftb = L->ftb[j];
        s.twb = L->twb[j], s.trb = L->trb[j], s.tan_phi = L->tan_phi[j], s.mu = L->mu[j];
        vec3 f0 = get3(L->g.f, j), m0 = get3(L->m, j), f = f0, m = m0;
        double kn = L->g.kn[j], kt = L->g.kt[j];
        double kw = L->kw[j], kr = L->kr[j];
        floe_ice_trial(dt, kn, kt, kw, kr, &s, g.uN, vel, angvel, &f, &m);
        /* a bond breaking or the contact opening: out of the ordinary */
        double over = floe_ice_over(L->brk[0][j], L->brk[1][j], L->brk[2][j], L->brk[3][j], &s, f, m);
        double opens = L->open_n[j] != 0 ? (f.x > 0 ? 1.0 : 0.0) : 0.0;
        L->odd[j] = over + opens;
        double slip = floe_ice_plastic(L->free[0][j], L->free[1][j], L->free[2][j], g.area, kt, kw, kr, &s, f0, m0, &f,
                                       &m);
        L->g.pl[j] = slip;
        L->g.el[j] = floe_ice_elastic(kn, kt, kw, kr, f, m);
        vec3 t2 = vcross(g.n, g.t1);
        vec3 M = vadd(vadd(vscale(g.n, m.x), vscale(g.t1, m.y)), vscale(t2, m.z));
        finish_geo(&L->g, j, &g, f, M);
        put3(L->m, j, m);
    }
    for (int j = 0; j < n; j++) {
        floe_contact *c = &w->con[ks[j]];
        if (L->odd[j] != 0) { /* untouched: the per-contact path takes it */
            out[j] = (floe_batch_out){.keep = 1, .ok = 1, .fallback = 1};
            continue;
        }
        scatter_geo(c, &L->g, j, &out[j]);
        c->m = get3(L->m, j);
    }
}

void floe_batch_run(floe_world *w, int kind, const int *ks, int n, floe_batch_out *out) {
    if (kind == FLOE_BATCH_LINEAR) run_linear(w, ks, n, out);
    else run_ice(w, ks, n, out);
}
