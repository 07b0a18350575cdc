/* Ice: elasticity, cohesion and friction in four senses (normal, shear,
 * twist, roll), per-sense bonds and breakability as a bitmask, breakage,
 * plastic limits on unbonded senses, after Woo's Ice model (docs/decisions.md#ice).
 * Documented in docs/models/ice.md. */
#include "models/model.h"

/* The steps are those of Woo's Ice law, in the order of
 * docs/decisions.md#ice-law-order-in-one-step-i4; the pieces are inline so
 * that the batched kernel (below) runs the same code as the law. */
enum { BOND_N = 1, BOND_T = 2, BOND_W = 4, BOND_R = 8, BONDED_ALL = 15 };

/* The twist and rolling stiffnesses k_w, k_r live in the contact (kw, kr),
 * which the time step reads too. */
typedef struct ice_state {
    double uN0, fnb, ftb, twb, trb, tan_phi, mu;
    int bonds;
} ice_state;

/* 1. Trial values: total normal force, incremental shear, twist, roll. */
FLOE_KERNEL void ice_trial(double dt, double kn, double kt, double kw, double kr, const ice_state *s, double uN,
                           vec3 vel, vec3 angvel, vec3 *f, vec3 *m) {
    f->x = kn * (uN - s->uN0);
    f->y += dt * kt * vel.y;
    f->z += dt * kt * vel.z;
    m->x += dt * kw * angvel.x;
    m->y += dt * kr * angvel.y;
    m->z += dt * kr * angvel.z;
}

/* 2. The senses that break: those bonded and breakable (brk_*: 1 or 0)
 * whose trial value exceeds the strength (compression never breaks), as
 * the sum of their BOND_* bits. Selects on doubles: the batched kernel
 * vectorizes it. */
FLOE_KERNEL double ice_over(double brk_n, double brk_t, double brk_w, double brk_r, const ice_state *s, vec3 f,
                            vec3 m) {
    double over = brk_n != 0 ? (f.x > s->fnb ? BOND_N : 0.0) : 0.0;
    over += brk_t != 0 ? (f.y * f.y + f.z * f.z > s->ftb * s->ftb ? BOND_T : 0.0) : 0.0;
    over += brk_w != 0 ? (fabs(m.x) > s->twb ? BOND_W : 0.0) : 0.0;
    over += brk_r != 0 ? (m.y * m.y + m.z * m.z > s->trb * s->trb ? BOND_R : 0.0) : 0.0;
    return over;
}

/* (y, z) back to the limit `lim` if beyond it (on = 0: untouched); returns
 * the slip work. Selects, not branches: the batched kernel vectorizes it. */
FLOE_KERNEL double ice_limit2(double on, double *y, double *z, double oy, double oz, double lim, double k) {
    double n2 = *y * *y + *z * *z;
    double slip = on != 0 ? (n2 > lim * lim ? 1.0 : 0.0) : 0.0;
    double r = slip > 0 ? lim / sqrt(n2) : 1.0;
    double work = slip > 0 ? floe_slip_work(oy, oz, *y, *z, r, k) : 0.0;
    *y = slip > 0 ? *y * r : *y;
    *z = slip > 0 ? *z * r : *z;
    return work;
}

/* 4. Plastic limits on the unbonded senses (free_t, free_w, free_r: 1 if
 * unbonded); yield values vanish in tension. Returns the slip work. */
FLOE_KERNEL double ice_plastic(double free_t, double free_w, double free_r, double area, double kt, double kw,
                               double kr, const ice_state *s, vec3 f0, vec3 m0, vec3 *f, vec3 *m) {
    double p = -f->x > 0.0 ? -f->x : 0.0, rc = sqrt(area / FLOE_PI), dummy = 0;
    double slip = 0;
    slip += ice_limit2(free_t, &f->y, &f->z, f0.y, f0.z, p * s->tan_phi, kt);
    slip += ice_limit2(free_w, &m->x, &dummy, m0.x, 0, rc * p * s->tan_phi, kw); /* symmetric (I3) */
    slip += ice_limit2(free_r, &m->y, &m->z, m0.y, m0.z, rc * p * s->mu, kr);
    return slip;
}

FLOE_KERNEL double ice_elastic(double kn, double kt, double kw, double kr, vec3 f, vec3 m) {
    double e = 0.5 * f.x * f.x / kn;
    e = kt > 0 ? e + 0.5 * (f.y * f.y + f.z * f.z) / kt : e;
    e = kw > 0 ? e + 0.5 * m.x * m.x / kw : e;
    e = kr > 0 ? e + 0.5 * (m.y * m.y + m.z * m.z) / kr : e;
    return e;
}

/* The common block, then Ice's own rows, each mixed as mat_mix says. */
static const floe_param_spec mat_params[] = {
    FLOE_MAT_DENSITY,
    FLOE_MAT_YOUNG,
    FLOE_MAT_KT_DIV_KN,
    FLOE_MAT_TAN_PHI,
    {"break_n", 1e-4, 0, INFINITY, 0, 1, "-", "normal breakage strain: bond strength c_n = break_n E' (averaged)"},
    {"alpha_w", 1, 0, INFINITY, 0, 1, "-", "twist stiffness factor: k_w = alpha_w kt A (averaged)"},
    {"alpha_r", 1, 0, INFINITY, 0, 1, "-", "rolling stiffness factor: k_r = alpha_r kn A (averaged)"},
    {"beta_t", 0.1, 0, INFINITY, 0, 1, "-", "shear strength factor: F_tb = beta_t c_n A (averaged)"},
    {"beta_w", 0.1, 0, INFINITY, 0, 1, "-", "twist strength factor: T_wb = beta_w F_tb sqrt(A) (averaged)"},
    {"beta_r", 0.1, 0, INFINITY, 0, 1, "-", "rolling strength factor: T_rb = beta_r F_nb sqrt(A) (averaged)"},
    {"mu", 0.05, 0, INFINITY, 0, 1, "-", "rolling friction coefficient (min of the pair)"},
};
enum { M_BREAK_N = MAT_COMMON_COUNT, M_ALPHA_W, M_ALPHA_R, M_BETA_T, M_BETA_W, M_BETA_R, M_MU, N_MAT };
#define FLOE_OWN(k) [(k)-MAT_COMMON_COUNT]
/* mu by its minimum, like Woo's code: docs/decisions.md#ice-pair-averages-minimum-friction-i1 */
static const floe_mix mat_mix[] = {
    FLOE_OWN(M_BREAK_N) = FLOE_MIX_MEAN, FLOE_OWN(M_ALPHA_W) = FLOE_MIX_MEAN, FLOE_OWN(M_ALPHA_R) = FLOE_MIX_MEAN,
    FLOE_OWN(M_BETA_T) = FLOE_MIX_MEAN,  FLOE_OWN(M_BETA_W) = FLOE_MIX_MEAN,  FLOE_OWN(M_BETA_R) = FLOE_MIX_MEAN,
    FLOE_OWN(M_MU) = FLOE_MIX_MIN,
};
_Static_assert(sizeof mat_params / sizeof mat_params[0] == N_MAT, "one schema row per stored row");
_Static_assert(sizeof mat_mix / sizeof mat_mix[0] == N_MAT - MAT_COMMON_COUNT, "a mixing rule per own row");

static const char *const bond_bits = "bondN,bondT,bondW,bondR,brkN,brkT,brkW,brkR";
static const floe_param_spec law_params[] = {
    {"bonds0", 0, 0, 255, 0, 0, "mask", "bonds of contacts created while step < step01", bond_bits},
    {"bonds1", 0, 0, 255, 0, 0, "mask", "bonds of contacts created later", bond_bits},
    {"step01", 3, 0, 9.0e15, 0, 0, "step", "first step whose new contacts take bonds1"},
    {"ini_eqlb", 1, 0, 1, 0, 0, "bool", "measure the normal displacement from the gap at creation"},
    {"bond_tol", 0, 0, 1, 0, 0, "-",
     "while step < step01, contacts are also created across gaps up to bond_tol x the smaller radius"},
};
enum { LP_BONDS0, LP_BONDS1, LP_STEP01, LP_INI_EQLB, LP_BOND_TOL };

static const char *const state_names[] = {"bonds", "bonded", "uN0", "k_w", "k_r", "F_nb", "F_tb", "T_wb", "T_rb"};

extern const floe_model floe_model_ice;

/* The pair's value of row k by its rule in the tables. */
static double pair(const double *ma, const double *mb, int k) { return floe_mat_pair(&floe_model_ice, ma, mb, k); }

static void ice_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state) {
    ice_state *s = state;
    const floe_geom *g = ctx->g;
    floe_contact_warm *x = ctx->warm;
    double la = ctx->lens[0], lb = ctx->lens[1], A = x->area;
    c->kn = floe_series_kn(la, lb, ma[MAT_YOUNG], mb[MAT_YOUNG], A);
    c->kt = pair(ma, mb, MAT_KT_DIV_KN) * c->kn;
    s->tan_phi = pair(ma, mb, MAT_TAN_PHI);
    s->mu = pair(ma, mb, M_MU);
    x->kw = A * pair(ma, mb, M_ALPHA_W) * c->kt;
    x->kr = A * pair(ma, mb, M_ALPHA_R) * c->kn;
    double cn = pair(ma, mb, M_BREAK_N) * (la + lb) / (la / ma[MAT_YOUNG] + lb / mb[MAT_YOUNG]);
    s->fnb = cn * A;
    s->ftb = pair(ma, mb, M_BETA_T) * cn * A;
    /* twist with F_tb, rolling with F_nb: docs/decisions.md#ice-breakage-limits-from-the-final-code-g2 */
    s->twb = pair(ma, mb, M_BETA_W) * s->ftb * sqrt(A);
    s->trb = pair(ma, mb, M_BETA_R) * s->fnb * sqrt(A);
    const double *lp = ctx->lp;
    s->bonds = (int)(ctx->step < (int64_t)lp[LP_STEP01] ? lp[LP_BONDS0] : lp[LP_BONDS1]);
    s->uN0 = lp[LP_INI_EQLB] != 0 ? g->uN : 0.0;
    if (s->bonds & BONDED_ALL) c->flags |= CF_BONDED;
}

static int ice_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    ice_state *s = state;
    floe_contact_warm *x = ctx->warm; /* torque, kw, kr, area */
    vec3 f0 = c->f, m0 = x->m;
    /* 1. trial values */
    ice_trial(ctx->dt, c->kn, c->kt, x->kw, x->kr, s, ctx->g->uN, ctx->vel, ctx->angvel, &c->f, &x->m);
    /* 2. breakage on trial values: one sense over its limit unbonds all four */
    int was_bonded = s->bonds & BONDED_ALL;
    int brk = s->bonds & (s->bonds >> 4);
    uint32_t over = (uint32_t)ice_over(brk & BOND_N, brk & BOND_T, brk & BOND_W, brk & BOND_R, s, c->f, x->m);
    int broke = over != 0;
    if (broke) {
        s->bonds &= ~BONDED_ALL; /* forces are kept; plasticity limits them below */
        c->flags = (uint8_t)((c->flags | CF_BROKE) & ~CF_BONDED);
        c->detail = over;    /* the senses that broke: BOND_N, _T, _W, _R bits */
        if (ctx->event_load) /* the event reports the load that broke the bond, not the limited one */
            *ctx->event_load = (floe_event_load){c->f, x->m, 1};
    }
    /* 3. unbonded in the normal sense and in tension: the contact goes */
    if (!(s->bonds & BOND_N) && c->f.x > 0) {
        /* a bond lets go of real energy (broken); an unbonded contact's
         * shear, twist and rolling springs let go of what slip would take
         * as Fn -> 0, their limits vanishing with it (plastic; the normal
         * spring's part is the sampling error of the opening step:
         * docs/decisions.md#a-frictional-contact-that-opens-books-its-shear-spring) */
        if (was_bonded) {
            e->broken += floe_deletion_loss(ctx, f0, m0, ice_elastic(c->kn, c->kt, x->kw, x->kr, f0, m0));
        } else {
            vec3 fs = v3(0, f0.y, f0.z);
            e->plastic += floe_deletion_loss(ctx, fs, m0, ice_elastic(c->kn, c->kt, x->kw, x->kr, fs, m0));
        }
        return 0;
    }
    /* 4. plastic limits on unbonded senses */
    int b = s->bonds;
    double slip = ice_plastic(!(b & BOND_T), !(b & BOND_W), !(b & BOND_R), x->area, c->kt, x->kw, x->kr, s, f0, m0,
                              &c->f, &x->m);
    if (broke) e->broken += slip; /* what the broken bond released */
    else e->plastic += slip;
    e->elastic += ice_elastic(c->kn, c->kt, x->kw, x->kr, c->f, x->m);
    return 1;
}

static void ice_get_state(const floe_contact *c, const floe_geom *g, const floe_contact_warm *x, const void *state,
                          double *out) {
    (void)c;
    const ice_state *s = state;
    double v[] = {s->bonds, (s->bonds & BONDED_ALL) != 0, s->uN0, x->kw, x->kr, s->fnb, s->ftb, s->twb, s->trb};
    for (int i = 0; i < 9; i++) out[i] = v[i];
}

/* Start-up bonding across small gaps: lets generated packings be cemented. */
static double ice_creation_gap(const double *lp, int64_t step, double rmin) {
    return step < (int64_t)lp[LP_STEP01] ? lp[LP_BOND_TOL] * rmin : 0.0;
}

/* The batched kernel: the law of contacts whose bonds hold and that do not
 * open; a bond breaking or an unbonded contact opening is left to the law
 * (odd). */
typedef struct ice_lanes {
    double f0[3][FLOE_BATCH], m0[3][FLOE_BATCH], kn[FLOE_BATCH], kt[FLOE_BATCH], area[FLOE_BATCH];
    int32_t bonds[FLOE_BATCH]; /* the state's bond bits, read as flags in the vectorized loop */
    double uN0[FLOE_BATCH], kw[FLOE_BATCH], kr[FLOE_BATCH], fnb[FLOE_BATCH], ftb[FLOE_BATCH], twb[FLOE_BATCH];
    double trb[FLOE_BATCH], tan_phi[FLOE_BATCH], mu[FLOE_BATCH];
} ice_lanes;

/* The lanes' records into M, lane by lane (FLOE_GATHER_LANES). */
FLOE_GATHER_LANES void ice_gather(const floe_batch_in *in, ice_lanes *M) {
    for (int j = 0; j < in->n; j++) {
        const floe_contact *c = in->c[j];
        const floe_contact_warm *x = in->warm[j];
        const ice_state *s = in->state[j];
        M->f0[0][j] = c->f.x, M->f0[1][j] = c->f.y, M->f0[2][j] = c->f.z;
        M->m0[0][j] = x->m.x, M->m0[1][j] = x->m.y, M->m0[2][j] = x->m.z;
        M->kn[j] = c->kn, M->kt[j] = c->kt, M->area[j] = x->area;
        M->bonds[j] = s->bonds;
        M->uN0[j] = s->uN0, M->kw[j] = x->kw, M->kr[j] = x->kr, M->fnb[j] = s->fnb, M->ftb[j] = s->ftb;
        M->twb[j] = s->twb, M->trb[j] = s->trb, M->tan_phi[j] = s->tan_phi, M->mu[j] = s->mu;
    }
}

static void ice_batch(const floe_batch_in *in, floe_lanes *L) {
    ice_lanes Mm, *M = &Mm;
    const int n = in->n;
    const double dt = in->dt;
    ice_gather(in, M);
    for (int j = 0; j < n; j++) { /* vectorized */
        vec3 vel = v3(L->vel[0][j], L->vel[1][j], L->vel[2][j]);
        vec3 angvel = v3(L->angvel[0][j], L->angvel[1][j], L->angvel[2][j]);
        ice_state s;
        s.uN0 = M->uN0[j], s.fnb = M->fnb[j], s.ftb = M->ftb[j];
        s.twb = M->twb[j], s.trb = M->trb[j], s.tan_phi = M->tan_phi[j], s.mu = M->mu[j];
        vec3 f0 = v3(M->f0[0][j], M->f0[1][j], M->f0[2][j]), m0 = v3(M->m0[0][j], M->m0[1][j], M->m0[2][j]);
        vec3 f = f0, m = m0;
        double kn = M->kn[j], kt = M->kt[j], kw = M->kw[j], kr = M->kr[j];
        ice_trial(dt, kn, kt, kw, kr, &s, L->uN[j], vel, angvel, &f, &m);
        /* a bond breaking or the contact opening: out of the ordinary */
        const int32_t b = M->bonds[j], brk = b & (b >> 4);
        double over = ice_over(brk & BOND_N, brk & BOND_T, brk & BOND_W, brk & BOND_R, &s, f, m);
        double opens = !(b & BOND_N) ? (f.x > 0 ? 1.0 : 0.0) : 0.0;
        L->odd[j] = over + opens;
        L->keep[j] = 1;
        L->plastic[j] = ice_plastic(!(b & BOND_T), !(b & BOND_W), !(b & BOND_R), M->area[j], kt, kw, kr, &s, f0, m0, &f,
                                    &m);
        L->elastic[j] = ice_elastic(kn, kt, kw, kr, f, m);
        L->dashpot[j] = 0;
        L->f[0][j] = f.x, L->f[1][j] = f.y, L->f[2][j] = f.z;
        L->m[0][j] = m.x, L->m[1][j] = m.y, L->m[2][j] = m.z;
    }
    /* the state does not change in an ordinary step: nothing to write back */
}

static const floe_batch_kernel ice_kernel = {.run = ice_batch, .torque = 1, .warm = 1};

const floe_model floe_model_ice = {
    .info = {"ice", "Ice: 4-sense elastic-cohesive-frictional model with breakable bonds", mat_params, N_MAT,
             law_params, 5, state_names, 9},
    .state_size = sizeof(ice_state),
    .create = ice_create,
    .law = ice_law,
    .get_state = ice_get_state,
    .creation_gap = ice_creation_gap,
    .batch = &ice_kernel,
    .mat_mix = mat_mix,
};
