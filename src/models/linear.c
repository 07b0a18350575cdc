/* Linear (Cundall) model: linear normal spring, incremental shear spring with
 * a Coulomb limit (Woo's IdealElPl, docs/decisions.md#the-linear-law-l1), plus the
 * optional viscous dashpots of PFC's linear model and stiffnesses given
 * directly instead of from Young's modulus
 * (docs/decisions.md#dashpots-and-given-stiffnesses-in-the-linear-model). */
#include "models/linear.h"

static const floe_param_spec mat_params[] = {
    {"density", 1000, 0, INFINITY, 1, 1, "kg/m^3", "mass density"},
    {"young", 1e9, 0, INFINITY, 1, 1, "Pa", "Young's modulus"},
    {"kt_div_kn", 0.2, 0, INFINITY, 0, 1, "-", "shear to normal stiffness ratio (averaged)"},
    {"tan_phi", 0.5, 0, INFINITY, 0, 1, "-", "tangent of the friction angle (min of the pair)"},
};

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

static void linear_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state) {
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

static int linear_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    return floe_linear_law(ctx, c, state, e);
}

/* fd_n, fd_s: the dashpot parts of the contact force (its total less the
 * springs); slipping: the shear spring sits on the Coulomb limit. */
static void linear_get_state(const floe_contact *c, const void *state, double *out) {
    const linear_state *s = state;
    double fn = c->kn * (c->g.uN - s->uN0), dy = c->f.y - s->fy, dz = c->f.z - s->fz;
    double ft2 = s->fy * s->fy + s->fz * s->fz, lim = fabs(fn) * s->tan_phi;
    out[0] = s->uN0;
    out[1] = c->f.x - fn;
    out[2] = sqrt(dy * dy + dz * dz);
    out[3] = s->tan_phi > 0 && ft2 > 0 && fabs(sqrt(ft2) - lim) <= 1e-9 * lim;
}

const floe_model floe_model_linear = {
    .info = {"linear", "Linear (Cundall) elastic-frictional model with optional dashpots", mat_params, 4, law_params, 8,
             state_names, 4},
    .state_size = sizeof(linear_state),
    .create = linear_create,
    .law = linear_law,
    .get_state = linear_get_state,
};
