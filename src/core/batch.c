#include "core/batch.h"
#include "collide/l6geom.h"
#include "models/linear.h"
#include "shapes/shape.h"

/* Lanes: one array per scalar, FLOE_BATCH long, so that the loop over
 * contacts reads and writes unit-stride vectors. */
typedef struct lanes {
    double xa[3][FLOE_BATCH], va[3][FLOE_BATCH], wa[3][FLOE_BATCH];
    double xb[3][FLOE_BATCH], vb[3][FLOE_BATCH], wb[3][FLOE_BATCH];
    double ra[FLOE_BATCH], rb[FLOE_BATCH];
    double n[3][FLOE_BATCH], t1[3][FLOE_BATCH], c[3][FLOE_BATCH], uN[FLOE_BATCH], lmin[FLOE_BATCH];
    double kn[FLOE_BATCH], kt[FLOE_BATCH], no_break[FLOE_BATCH], dp_mode[FLOE_BATCH];
    double uN0[FLOE_BATCH], tan_phi[FLOE_BATCH], cn[FLOE_BATCH], cs[FLOE_BATCH], fy[FLOE_BATCH], fz[FLOE_BATCH];
    double fdn[FLOE_BATCH], fds[FLOE_BATCH], slipping[FLOE_BATCH];
    double f[3][FLOE_BATCH], F[3][FLOE_BATCH], mA[3][FLOE_BATCH], mB[3][FLOE_BATCH];
    double el[FLOE_BATCH], pl[FLOE_BATCH], dp[FLOE_BATCH], keep[FLOE_BATCH], ok[FLOE_BATCH];
} lanes;

const floe_model *const floe_batch_model = &floe_model_linear;
_Static_assert(LP_NO_SLIP == 0, "floe_batch_eligible reads no_slip as law parameter 0");

#define get3(a, j) v3((a)[0][j], (a)[1][j], (a)[2][j])
#define put3(a, j, v) ((a)[0][j] = (v).x, (a)[1][j] = (v).y, (a)[2][j] = (v).z)

static void gather(const floe_world *w, const int *ks, int n, lanes *L) {
    for (int j = 0; j < n; j++) {
        const floe_contact *c = &w->con[ks[j]];
        const linear_state *s = (const linear_state *)(w->cstate + (size_t)ks[j] * w->cstride);
        const double *lp = w->insts[c->inst].lp;
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
        L->no_break[j] = lp[LP_NO_BREAK];
        L->dp_mode[j] = lp[LP_DP_MODE];
        L->uN0[j] = s->uN0;
        L->tan_phi[j] = s->tan_phi;
        L->cn[j] = s->cn;
        L->cs[j] = s->cs;
        L->fy[j] = s->fy;
        L->fz[j] = s->fz;
    }
}

/* The vectorized loop: narrow phase, L6Geom update, Linear force and the
 * global force and torques, lane by lane. */
static void compute(lanes *L, int n, double dt) {
    for (int j = 0; j < n; j++) {
        vec3 xa = get3(L->xa, j), xb = get3(L->xb, j);
        /* sphere-sphere narrow phase of an existing contact (floe_sphere_sphere) */
        vec3 d = vsub(xb, xa);
        double dist = sqrt(vlen2(d));
        floe_raw_contact raw;
        raw.n = dist > 0 ? vscale(d, 1.0 / dist) : get3(L->n, j);
        raw.uN = dist - (L->ra[j] + L->rb[j]);
        raw.c = vmadd(xa, raw.n, L->ra[j] + 0.5 * raw.uN);
        floe_geom g;
        g.n = get3(L->n, j);
        g.t1 = get3(L->t1, j);
        g.c = get3(L->c, j);
        vec3 vel, angvel;
        floe_l6geom_update(&g, &raw, dt, 0, xa, get3(L->va, j), get3(L->wa, j), xb, get3(L->vb, j), get3(L->wb, j),
                           &vel, &angvel);
        (void)angvel;
        /* Linear law */
        double u = g.uN - L->uN0[j];
        linear_state s;
        s.tan_phi = L->tan_phi[j];
        s.cn = L->cn[j];
        s.cs = L->cs[j];
        s.fy = L->fy[j];
        s.fz = L->fz[j];
        floe_linear_energy e;
        vec3 f = floe_linear_force(dt, L->kn[j], L->kt[j], u, vel, 0.0, L->dp_mode[j], &s, &e);
        /* global force on A and torques (the Linear model has no local torque) */
        vec3 t2 = vcross(g.n, g.t1);
        vec3 F = vadd(vadd(vscale(g.n, f.x), vscale(g.t1, f.y)), vscale(t2, f.z));
        vec3 mA = vcross(vsub(g.c, xa), F);
        vec3 mB = vcross(vsub(g.c, xb), vneg(F));
        put3(L->n, j, g.n);
        put3(L->t1, j, g.t1);
        put3(L->c, j, g.c);
        L->uN[j] = g.uN;
        put3(L->f, j, f);
        put3(L->F, j, F);
        put3(L->mA, j, mA);
        put3(L->mB, j, mB);
        L->fy[j] = s.fy;
        L->fz[j] = s.fz;
        L->fdn[j] = s.fdn;
        L->fds[j] = s.fds;
        L->slipping[j] = s.slipping;
        L->el[j] = e.elastic;
        L->pl[j] = e.plastic;
        L->dp[j] = e.dashpot;
        /* as floe_linear_opens and the runaway test of the per-contact path,
         * in single comparisons (see floe_linear_force) */
        L->keep[j] = u > 0 ? (L->no_break[j] == 0 ? 0.0 : 1.0) : 1.0;
        double z = F.x * 0.0 + F.y * 0.0 + F.z * 0.0 + mA.x * 0.0 + mA.y * 0.0 + mA.z * 0.0 + mB.x * 0.0 +
                   mB.y * 0.0 + mB.z * 0.0;
        L->ok[j] = z == z ? (g.uN < -L->lmin[j] ? 0.0 : 1.0) : 0.0;
    }
}

static void scatter(floe_world *w, const int *ks, int n, const lanes *L, floe_batch_out *out) {
    for (int j = 0; j < n; j++) {
        floe_contact *c = &w->con[ks[j]];
        linear_state *s = (linear_state *)(w->cstate + (size_t)ks[j] * w->cstride);
        floe_batch_out *o = &out[j];
        c->g.n = get3(L->n, j);
        c->g.t1 = get3(L->t1, j);
        c->g.c = get3(L->c, j);
        c->g.uN = L->uN[j];
        o->keep = L->keep[j] != 0;
        if (!o->keep) { /* as the law: the contact goes, its state as it was */
            c->flags |= CF_DELETE;
            o->ok = 1;
            continue;
        }
        c->f = get3(L->f, j);
        s->fy = L->fy[j];
        s->fz = L->fz[j];
        s->fdn = L->fdn[j];
        s->fds = L->fds[j];
        s->slipping = L->slipping[j];
        o->F = get3(L->F, j);
        o->mA = get3(L->mA, j);
        o->mB = get3(L->mB, j);
        o->elastic = L->el[j];
        o->plastic = L->pl[j];
        o->dashpot = L->dp[j];
        o->ok = L->ok[j] != 0;
    }
}

void floe_batch_run(floe_world *w, const int *ks, int n, floe_batch_out *out) {
    lanes L;
    gather(w, ks, n, &L);
    compute(&L, n, w->dt);
    scatter(w, ks, n, &L, out);
}
