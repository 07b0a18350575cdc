/* Ice: elasticity, cohesion and friction in four senses (normal, shear,
 * twist, roll), per-sense bonds and breakability as a bitmask, breakage,
 * plastic limits on unbonded senses, after Woo's Ice model (docs/decisions.md#ice).
 * Documented in docs/models/ice.md. */
#include "models/ice.h"

static const floe_param_spec mat_params[] = {
    {"density", 1000, 0, INFINITY, 1, 1, "kg/m^3", "mass density"},
    {"young", 1e9, 0, INFINITY, 1, 1, "Pa", "Young's modulus"},
    {"kt_div_kn", 0.2, 0, INFINITY, 0, 1, "-", "shear to normal stiffness ratio (averaged)"},
    {"tan_phi", 0.5, 0, INFINITY, 0, 1, "-", "friction coefficient (min of the pair)"},
    {"break_n", 1e-4, 0, INFINITY, 0, 1, "-", "normal breakage strain: bond strength c_n = break_n E' (averaged)"},
    {"alpha_w", 1, 0, INFINITY, 0, 1, "-", "twist stiffness factor: k_w = alpha_w kt A (averaged)"},
    {"alpha_r", 1, 0, INFINITY, 0, 1, "-", "rolling stiffness factor: k_r = alpha_r kn A (averaged)"},
    {"beta_t", 0.1, 0, INFINITY, 0, 1, "-", "shear strength factor: F_tb = beta_t c_n A (averaged)"},
    {"beta_w", 0.1, 0, INFINITY, 0, 1, "-", "twist strength factor: T_wb = beta_w F_tb sqrt(A) (averaged)"},
    {"beta_r", 0.1, 0, INFINITY, 0, 1, "-", "rolling strength factor: T_rb = beta_r F_nb sqrt(A) (averaged)"},
    {"mu", 0.05, 0, INFINITY, 0, 1, "-", "rolling friction coefficient (min of the pair)"},
};
enum { M_BREAK_N = MAT_COMMON_COUNT, M_ALPHA_W, M_ALPHA_R, M_BETA_T, M_BETA_W, M_BETA_R, M_MU };

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

static double mean(const double *ma, const double *mb, int k) { return 0.5 * (ma[k] + mb[k]); }

static void ice_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state) {
    ice_state *s = state;
    const floe_geom *g = &c->g;
    double la = g->lens[0], lb = g->lens[1], A = g->area;
    c->kn = floe_series_kn(la, lb, ma[MAT_YOUNG], mb[MAT_YOUNG], A);
    c->kt = mean(ma, mb, MAT_KT_DIV_KN) * c->kn;
    s->tan_phi = fmin(ma[MAT_TAN_PHI], mb[MAT_TAN_PHI]);
    /* min, like Woo's code: docs/decisions.md#ice-pair-averages-minimum-friction-i1 */
    s->mu = fmin(ma[M_MU], mb[M_MU]);
    c->kw = A * mean(ma, mb, M_ALPHA_W) * c->kt;
    c->kr = A * mean(ma, mb, M_ALPHA_R) * c->kn;
    double cn = mean(ma, mb, M_BREAK_N) * (la + lb) / (la / ma[MAT_YOUNG] + lb / mb[MAT_YOUNG]);
    s->fnb = cn * A;
    s->ftb = mean(ma, mb, M_BETA_T) * cn * A;
    /* twist with F_tb, rolling with F_nb: docs/decisions.md#ice-breakage-limits-from-the-final-code-g2 */
    s->twb = mean(ma, mb, M_BETA_W) * s->ftb * sqrt(A);
    s->trb = mean(ma, mb, M_BETA_R) * s->fnb * sqrt(A);
    const double *lp = ctx->lp;
    s->bonds = (int)(ctx->step < (int64_t)lp[LP_STEP01] ? lp[LP_BONDS0] : lp[LP_BONDS1]);
    s->uN0 = lp[LP_INI_EQLB] != 0 ? g->uN : 0.0;
    if (s->bonds & BONDED_ALL) c->flags |= CF_BONDED;
}

static int ice_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    ice_state *s = state;
    vec3 f0 = c->f, m0 = c->m;
    /* 1. trial values */
    floe_ice_trial(ctx->dt, c->kn, c->kt, c->kw, c->kr, s, c->g.uN, ctx->vel, ctx->angvel, &c->f, &c->m);
    /* 2. breakage on trial values: one sense over its limit unbonds all four */
    int was_bonded = s->bonds & BONDED_ALL;
    int brk = s->bonds & (s->bonds >> 4);
    uint32_t over = (uint32_t)floe_ice_over(brk & BOND_N, brk & BOND_T, brk & BOND_W, brk & BOND_R, s, c->f, c->m);
    int broke = over != 0;
    if (broke) {
        s->bonds &= ~BONDED_ALL; /* forces are kept; plasticity limits them below */
        c->flags = (uint8_t)((c->flags | CF_BROKE) & ~CF_BONDED);
        c->detail = over;    /* the senses that broke: BOND_N, _T, _W, _R bits */
        if (ctx->event_load) /* the event reports the load that broke the bond, not the limited one */
            *ctx->event_load = (floe_event_load){c->f, c->m, 1};
    }
    /* 3. unbonded in the normal sense and in tension: the contact goes */
    if (!(s->bonds & BOND_N) && c->f.x > 0) {
        /* a bond lets go of real energy; an unbonded contact opening at its
         * equilibrium gap holds none (its limits vanish with Fn) */
        if (was_bonded)
            e->broken += floe_deletion_loss(ctx, f0, m0, floe_ice_elastic(c->kn, c->kt, c->kw, c->kr, f0, m0));
        return 0;
    }
    /* 4. plastic limits on unbonded senses */
    int b = s->bonds;
    double slip = floe_ice_plastic(!(b & BOND_T), !(b & BOND_W), !(b & BOND_R), c->g.area, c->kt, c->kw, c->kr, s, f0,
                                   m0, &c->f, &c->m);
    if (broke) e->broken += slip; /* what the broken bond released */
    else e->plastic += slip;
    e->elastic += floe_ice_elastic(c->kn, c->kt, c->kw, c->kr, c->f, c->m);
    return 1;
}

static void ice_get_state(const floe_contact *c, const void *state, double *out) {
    const ice_state *s = state;
    double v[] = {s->bonds, (s->bonds & BONDED_ALL) != 0, s->uN0, c->kw, c->kr, s->fnb, s->ftb, s->twb, s->trb};
    for (int i = 0; i < 9; i++) out[i] = v[i];
}

/* Start-up bonding across small gaps: lets generated packings be cemented. */
static double ice_creation_gap(const double *lp, int64_t step, double rmin) {
    return step < (int64_t)lp[LP_STEP01] ? lp[LP_BOND_TOL] * rmin : 0.0;
}

const floe_model floe_model_ice = {
    .info = {"ice", "Ice: 4-sense elastic-cohesive-frictional model with breakable bonds", mat_params, 11, law_params,
             5, state_names, 9},
    .state_size = sizeof(ice_state),
    .create = ice_create,
    .law = ice_law,
    .get_state = ice_get_state,
    .creation_gap = ice_creation_gap,
};
