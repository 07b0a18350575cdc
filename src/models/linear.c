/* Linear (Cundall) model: linear normal spring, incremental shear spring with
 * a Coulomb limit (woo-models §3, DECISIONS L1, G5), plus the optional
 * viscous dashpots of PFC's linear model (softbond-model §8) and stiffnesses
 * given directly instead of from Young's modulus. */
#include "models/model.h"

static const floe_param_spec mat_params[] = {
    {"density", 1000, 0, INFINITY, 1, 1, "kg/m^3", "mass density"},
    {"young", 1e9, 0, INFINITY, 1, 1, "Pa", "Young's modulus"},
    {"kt_div_kn", 0.2, 0, INFINITY, 0, 1, "-", "shear to normal stiffness ratio (averaged)"},
    {"tan_phi", 0.5, 0, INFINITY, 0, 1, "-", "tangent of the friction angle (min of the pair)"},
};

enum { LP_NO_SLIP, LP_NO_BREAK, LP_INI_EQLB, LP_KN, LP_KT, LP_DP_NRATIO, LP_DP_SRATIO, LP_DP_MODE };
static const floe_param_spec law_params[] = {
    {"no_slip", 0, 0, 1, 0, 0, "bool", "no Coulomb limit: shear stays elastic"},
    {"no_break", 0, 0, 1, 0, 0, "bool", "keep contacts that open (uN > 0), carrying tension"},
    {"ini_eqlb", 0, 0, 1, 0, 0, "bool", "measure uN from the overlap at creation (zero initial force)"},
    {"kn", 0, 0, INFINITY, 0, 1, "N/m", "normal stiffness given directly (0: from the materials)"},
    {"kt", 0, 0, INFINITY, 0, 1, "N/m", "shear stiffness given directly (0: kt_div_kn x kn)"},
    {"dp_nratio", 0, 0, 1, 0, 0, "-", "normal dashpot: fraction of critical damping"},
    {"dp_sratio", 0, 0, 1, 0, 0, "-", "shear dashpot: fraction of critical damping"},
    {"dp_mode", 0, 0, 3, 0, 0, "int", "0 full, 1 no tension, 2 no shear dashpot while sliding, 3 both"},
};

static const char *const state_names[] = {"uN0", "fd_n", "fd_s", "slipping"};

typedef struct linear_state {
    double uN0, tan_phi, cn, cs; /* dashpot coefficients [N s/m] */
    double fy, fz;               /* shear spring force (without dashpot) */
    double fdn, fds;             /* dashpot force magnitudes, for output */
    int slipping;
} linear_state;

static void linear_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c,
                          void *state) {
    linear_state *s = state;
    const floe_geom *g = &c->g;
    const double *lp = ctx->lp;
    c->kn = lp[LP_KN] > 0 ? lp[LP_KN] : floe_series_kn(g->lens[0], g->lens[1], ma[MAT_YOUNG], mb[MAT_YOUNG], g->area);
    c->kt = lp[LP_KT] > 0 ? lp[LP_KT] : 0.5 * (ma[MAT_KT_DIV_KN] + mb[MAT_KT_DIV_KN]) * c->kn;
    s->tan_phi = fmin(ma[MAT_TAN_PHI], mb[MAT_TAN_PHI]);
    s->uN0 = lp[LP_INI_EQLB] != 0 ? g->uN : 0.0;
    double mc = floe_contact_mass(ctx);
    s->cn = isfinite(mc) ? 2 * lp[LP_DP_NRATIO] * sqrt(mc * c->kn) : 0;
    s->cs = isfinite(mc) ? 2 * lp[LP_DP_SRATIO] * sqrt(mc * c->kt) : 0;
}

static double elastic(const floe_contact *c, const linear_state *s, double fn) {
    double e = 0.5 * fn * fn / c->kn;
    if (c->kt > 0) e += 0.5 * (s->fy * s->fy + s->fz * s->fz) / c->kt;
    return e;
}

static int linear_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    linear_state *s = state;
    const floe_geom *g = &c->g;
    const double *lp = ctx->lp;
    double u = g->uN - s->uN0;
    if (u > 0 && lp[LP_NO_BREAK] == 0) {
        /* Opening at u = 0 releases nothing in the continuum limit: Fn -> 0 and
         * |Ft| <= tan_phi |Fn|. Only an uncapped (no_slip) shear spring takes
         * real energy with it. */
        if (lp[LP_NO_SLIP] != 0 && c->kt > 0) {
            vec3 ft = v3(0, s->fy, s->fz);
            e->broken += floe_deletion_loss(ctx, ft, v3(0, 0, 0), 0.5 * vlen2(ft) / c->kt);
        }
        return 0;
    }
    double fn = c->kn * u; /* elastic normal force: negative in compression */
    int slipping = 0;
    if (s->tan_phi == 0) {
        s->fy = s->fz = 0;
    } else {
        double oy = s->fy, oz = s->fz;
        s->fy += ctx->dt * c->kt * ctx->vel.y;
        s->fz += ctx->dt * c->kt * ctx->vel.z;
        double fy = fabs(fn) * s->tan_phi;
        double ft2 = s->fy * s->fy + s->fz * s->fz;
        if (ft2 > fy * fy && lp[LP_NO_SLIP] == 0) {
            double r = fy / sqrt(ft2);
            e->plastic += floe_slip_work(oy, oz, s->fy, s->fz, r, c->kt);
            s->fy *= r;
            s->fz *= r;
            slipping = 1;
        }
    }
    /* dashpots act on the relative velocity, on top of the springs (on A:
     * F = c v, v the velocity of B relative to A) */
    double dn = s->cn * ctx->vel.x, dy = s->cs * ctx->vel.y, dz = s->cs * ctx->vel.z;
    int mode = (int)lp[LP_DP_MODE];
    if ((mode & 1) && fn + dn > 0) dn = -fn; /* no net tension from the dashpot */
    if ((mode & 2) && slipping) dy = dz = 0;  /* no shear dashpot while sliding */
    e->dashpot += (dn * ctx->vel.x + dy * ctx->vel.y + dz * ctx->vel.z) * ctx->dt;
    c->f = v3(fn + dn, s->fy + dy, s->fz + dz);
    c->m = v3(0, 0, 0);
    s->fdn = dn;
    s->fds = sqrt(dy * dy + dz * dz);
    s->slipping = slipping;
    e->elastic += elastic(c, s, fn);
    return 1;
}

static void linear_get_state(const floe_contact *c, const void *state, double *out) {
    const linear_state *s = state;
    out[0] = s->uN0;
    out[1] = s->fdn;
    out[2] = s->fds;
    out[3] = s->slipping;
}

const floe_model floe_model_linear = {
    .info = {"linear", "Linear (Cundall) elastic-frictional model with optional dashpots",
             mat_params, 4, law_params, 8, state_names, 4},
    .state_size = sizeof(linear_state),
    .create = linear_create,
    .law = linear_law,
    .get_state = linear_get_state,
};
