/* The model-independent half of the batched contacts (batch.h): gathering
 * the bodies into lanes, the geometry update, the global forces and torques,
 * and writing back. The law is the model's kernel (floe_model.batch). */
#include "core/batch.h"
#include "l6geom/l6geom.h"
#include "shapes/shape.h"

#define B FLOE_BATCH
#define get3(a, j) v3((a)[0][j], (a)[1][j], (a)[2][j])
#define put3(a, j, v) ((a)[0][j] = (v).x, (a)[1][j] = (v).y, (a)[2][j] = (v).z)

/* The bodies and frames of the contacts, and the global results; the lanes
 * the model's kernel reads and writes are in `law`. A lane is a sphere
 * pair, or a wall (A) and a sphere: wall 1, the wall's axis and the side
 * the sphere touches it from. */
typedef struct geo_lanes {
    double xa[3][B], va[3][B], wa[3][B], xb[3][B], vb[3][B], wb[3][B], ra[B], rb[B];
    double wall[B], axis[B], side[B];
    double n[3][B], t1[3][B], c[3][B], lmin[B];
    double F[3][B], mA[3][B], mB[3][B], ok[B];
    floe_lanes law;
} geo_lanes;

/* x: the contact's geometry record in a world with a periodic cell, whose
 * contacts keep their normal and point (world.h, floe__geom_follows); NULL
 * where they follow from the positions */
static void gather_geo(const floe_world *w, const floe_contact *c, const floe_contact_geo *x, int j, geo_lanes *L) {
    int a = c->a, b = c->b;
    put3(L->xa, j, w->pos[a]);
    put3(L->va, j, w->vel[a]);
    put3(L->wa, j, w->angvel[a]);
    put3(L->xb, j, w->pos[b]);
    put3(L->vb, j, w->vel[b]);
    put3(L->wb, j, w->angvel[b]);
    L->ra[j] = w->radius[a];
    L->rb[j] = w->radius[b];
    put3(L->t1, j, c->t1);
    if (x) {
        put3(L->n, j, x->n);
        put3(L->c, j, x->c);
    }
}

/* Lane j's wall, if A is one (batch.h: else both are spheres). Returns 1
 * for a wall. */
static int gather_wall(const floe_world *w, const floe_contact *c, int j, geo_lanes *L) {
    int wall = !(c->flags & CF_SPHERES);
    L->wall[j] = wall;
    L->axis[j] = L->side[j] = 0;
    if (wall) {
        const floe_wall *wl = floe__shape_data(w, c->a);
        L->axis[j] = wl->axis;
        L->side[j] = floe__wall_side(wl, c);
    }
    return wall;
}

/* The narrow phase of lane j with A at xa, B at xb: floe__follow_pair in
 * selects (floe_sphere_pair, and in a batch with walls also
 * floe_wall_pair, each lane keeping its own). */
FLOE_KERNEL void lane_pair(const geo_lanes *L, int j, vec3 xa, vec3 xb, int walls, floe_raw_contact *raw) {
    floe_sphere_pair(xa, xb, L->ra[j], L->rb[j], v3(1, 0, 0), raw);
    if (walls) {
        floe_raw_contact rw;
        floe_wall_pair(xa, xb, L->rb[j], L->axis[j], L->side[j], &rw);
        int on = L->wall[j] != 0;
        raw->n = v3(on ? rw.n.x : raw->n.x, on ? rw.n.y : raw->n.y, on ? rw.n.z : raw->n.z);
        raw->c = v3(on ? rw.c.x : raw->c.x, on ? rw.c.y : raw->c.y, on ? rw.c.z : raw->c.z);
        raw->uN = on ? rw.uN : raw->uN;
    }
}

/* The narrow phase of an existing contact and the L6Geom update of lane
 * j: the last step's normal and point where the bodies stood before this
 * step's drift (the geometry follows from the positions, world.h), this
 * step's from where they stand; the new frame, gap and rates into the
 * lanes. */
FLOE_KERNEL void update_geo(geo_lanes *L, int j, double dt, int walls, int renorm, int follow) {
    vec3 xa = get3(L->xa, j), xb = get3(L->xb, j), va = get3(L->va, j), vb = get3(L->vb, j), vel, angvel;
    floe_raw_contact raw;
    floe_geom g;
    g.t1 = get3(L->t1, j);
    if (follow) {
        floe_raw_contact before;
        lane_pair(L, j, floe_before_drift(xa, va, dt), floe_before_drift(xb, vb, dt), walls, &before);
        g.n = before.n;
        g.c = before.c;
    } else { /* kept in the geometry record */
        g.n = get3(L->n, j);
        g.c = get3(L->c, j);
    }
    lane_pair(L, j, xa, xb, walls, &raw);
    floe_l6geom_update(&g, &raw, dt, renorm, xa, va, get3(L->wa, j), xb, vb, get3(L->wb, j), &vel, &angvel);
    put3(L->n, j, g.n);
    put3(L->t1, j, g.t1);
    put3(L->c, j, g.c);
    L->law.uN[j] = g.uN;
    put3(L->law.vel, j, vel);
    put3(L->law.angvel, j, angvel);
}

/* Global force and torques of lane j from the local force and torque, as
 * the per-contact path computes them. torque 0: the model has no local
 * torque (a zero vector, as the per-contact path adds). */
FLOE_KERNEL void finish_geo(geo_lanes *L, int j, int torque) {
    vec3 n = get3(L->n, j), t1 = get3(L->t1, j), c = get3(L->c, j);
    vec3 f = get3(L->law.f, j), t2 = vcross(n, t1);
    vec3 F = vadd(vadd(vscale(n, f.x), vscale(t1, f.y)), vscale(t2, f.z));
    vec3 M = v3(0, 0, 0);
    if (torque) {
        vec3 m = get3(L->law.m, j);
        M = vadd(vadd(vscale(n, m.x), vscale(t1, m.y)), vscale(t2, m.z));
    }
    vec3 mA = vadd(vcross(vsub(c, get3(L->xa, j)), F), M);
    vec3 mB = vsub(vcross(vsub(c, get3(L->xb, j)), vneg(F)), M);
    put3(L->F, j, F);
    put3(L->mA, j, mA);
    put3(L->mB, j, mB);
    /* the runaway test of the per-contact path, in single comparisons */
    double z = F.x * 0.0 + F.y * 0.0 + F.z * 0.0 + mA.x * 0.0 + mA.y * 0.0 + mA.z * 0.0 + mB.x * 0.0 + mB.y * 0.0 +
               mB.z * 0.0;
    L->ok[j] = z == z ? (L->law.uN[j] < -L->lmin[j] ? 0.0 : 1.0) : 0.0;
}

/* x: the contact's geometry record where the world keeps them (every
 * row current, world.h), else NULL */
static void store_geo(floe_contact *c, floe_contact_geo *x, const geo_lanes *L, int j) {
    c->t1 = get3(L->t1, j);
    if (x) {
        x->n = get3(L->n, j);
        x->c = get3(L->c, j);
        x->uN = L->law.uN[j];
    }
}

/* How many lanes ahead the gather asks for body B's data. Contacts follow
 * body A's order, so A's data arrives in sequence, but B is met first as
 * the B of contacts far apart in the list: in a large packing its
 * position and velocities have left L2 since, and the gather would wait for
 * each. */
#define FLOE_GATHER_AHEAD 8

int floe_batch_run(floe_world *w, int kind, const int *ks, int n, int renorm, int k0, floe_batch_out *out,
                   floe_batch_sum *sum) {
    geo_lanes Lm, *L = &Lm;
    const floe_model *model = floe_registry_get(kind - 1);
    const floe_batch_kernel *kernel = model->batch;
    floe_batch_in in;
    in.dt = w->dt;
    in.n = n;
    int walls = 0;
    /* the batch takes no contact through an image (batch.h), so in a world
     * without a periodic cell every contact it takes follows the positions */
    const int follow = !w->cell.axes;
    for (int j = 0; j < n; j++) {
        floe_contact *c = &w->con[ks[j]];
        if (j + FLOE_GATHER_AHEAD < n) { /* body B of a later lane: its data is rarely in L2 (see below) */
            int b = w->con[ks[j + FLOE_GATHER_AHEAD]].b;
            __builtin_prefetch(&w->pos[b]);
            __builtin_prefetch(&w->vel[b]);
            __builtin_prefetch(&w->angvel[b]);
        }
        if (sum) { /* B's sums, written once the lanes are done: as far off in memory as its data */
            __builtin_prefetch(&sum->s->f[c->b], 1);
            __builtin_prefetch(&sum->s->t[c->b], 1);
        }
        in.c[j] = c;
        in.state[j] = w->cstate + (size_t)ks[j] * w->cstride;
        /* read by the kernel after the geometry, and first touched there */
        __builtin_prefetch(in.state[j]);
        __builtin_prefetch((const char *)in.state[j] + w->cstride - 1);
        in.lp[j] = w->insts[c->inst].lp;
        gather_geo(w, c, follow ? NULL : &w->cgeom[ks[j]], j, L);
        walls |= gather_wall(w, c, j, L);
    }
    for (int j = 0; j < n; j++) in.warm[j] = kernel->warm ? &w->cwarm[ks[j]] : NULL;
    for (int j = 0; kernel->warm && j < n; j++) { /* likewise */
        __builtin_prefetch(in.warm[j]);
        __builtin_prefetch((const char *)(in.warm[j] + 1) - 1);
    }
    /* lmin, the shorter lens, is the runaway threshold. Without legacy lens
     * the lens of a sphere pair are its two radii (floe_l6geom_create of
     * floe_sphere_pair: r1 = ra, r2 = rb), those of a wall and a sphere
     * the sphere's radius twice (floe_wall_pair: r1 = -r, r2 = r), which
     * are gathered anyway (floe__contact_lens; tests/test_batch.c checks
     * the equality). Legacy lens are kept in the geometry records. */
    if (w->def.legacy_lens)
        for (int j = 0; j < n; j++) L->lmin[j] = floe_geom_lmin(w->cgeom[ks[j]].lens);
    else
        for (int j = 0; j < n; j++) /* vectorized */
            L->lmin[j] = L->wall[j] != 0 ? L->rb[j] : L->ra[j] < L->rb[j] ? L->ra[j] : L->rb[j];
    const double dt = w->dt;
    /* each loop vectorized, with the flags constant in it (one line each: clang-format would take eight each) */
    /* clang-format off */
#define UPDATE(wl, rn, fl) for (int j = 0; j < n; j++) update_geo(L, j, dt, wl, rn, fl)
    switch ((walls != 0) << 2 | (renorm != 0) << 1 | follow) {
    case 0: UPDATE(0, 0, 0); break;
    case 1: UPDATE(0, 0, 1); break;
    case 2: UPDATE(0, 1, 0); break;
    case 3: UPDATE(0, 1, 1); break;
    case 4: UPDATE(1, 0, 0); break;
    case 5: UPDATE(1, 0, 1); break;
    case 6: UPDATE(1, 1, 0); break;
    default: UPDATE(1, 1, 1); break;
    }
#undef UPDATE
    /* clang-format on */
    kernel->run(&in, &L->law);
    if (kernel->torque)
        for (int j = 0; j < n; j++) finish_geo(L, j, 1); /* vectorized */
    else
        for (int j = 0; j < n; j++) finish_geo(L, j, 0); /* vectorized */
    int summed = 0;
    for (int j = 0; j < n; j++) {
        floe_contact *c = in.c[j];
        if (L->law.odd[j] != 0) { /* untouched: the per-contact path takes it */
            out[ks[j] - k0] = (floe_batch_out){.keep = 1, .ok = 1, .fallback = 1};
            sum = NULL; /* it comes before the contacts after it */
            continue;
        }
        store_geo(c, w->cgeom ? &w->cgeom[ks[j]] : NULL, L, j);
        int keep = L->law.keep[j] != 0;
        if (!keep) c->flags |= CF_DELETE; /* as the law: the contact goes, force and state as they were */
        else {
            c->f = get3(L->law.f, j);
            if (kernel->torque) w->cwarm[ks[j]].m = get3(L->law.m, j);
        }
        if (sum) { /* what the ordered assembly (step.c) does with out */
            if (keep) {
                floe_accumulate(sum->s, c->a, c->b, get3(L->F, j), get3(L->mA, j), get3(L->mB, j));
                sum->acc->plastic += L->law.plastic[j];
                sum->acc->dashpot += L->law.dashpot[j];
                sum->acc->elastic += L->law.elastic[j];
                if (L->ok[j] == 0 && sum->bad < 0) sum->bad = ks[j];
            }
            if (c->flags & CF_TRANSIENT) sum->fl[(*sum->nf)++] = ks[j];
            summed++;
        } else if (!keep) {
            out[ks[j] - k0] = (floe_batch_out){.keep = 0, .ok = 1, .fallback = 0};
        } else {
            out[ks[j] - k0] = (floe_batch_out){.F = get3(L->F, j),
                                               .mA = get3(L->mA, j),
                                               .mB = get3(L->mB, j),
                                               .elastic = L->law.elastic[j],
                                               .plastic = L->law.plastic[j],
                                               .dashpot = L->law.dashpot[j],
                                               .keep = 1,
                                               .ok = L->ok[j] != 0,
                                               .fallback = 0};
        }
    }
    return summed;
}
