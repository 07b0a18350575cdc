/* Linear (Cundall) model: linear normal spring, incremental shear spring with
 * a Coulomb limit (Woo's IdealElPl, docs/decisions.md#the-linear-law-l1), plus the
 * optional viscous dashpots of PFC's linear model and stiffnesses given
 * directly instead of from Young's modulus
 * (docs/decisions.md#dashpots-and-given-stiffnesses-in-the-linear-model). */
#include "models/model.h"

enum { LP_NO_SLIP, LP_NO_BREAK, LP_INI_EQLB, LP_KN, LP_KT, LP_DP_NRATIO, LP_DP_SRATIO, LP_DP_MODE };

/* Six doubles: what the next step needs. The dashpot forces and the slip
 * state of the outputs are derived from these and the contact's force. */
typedef struct linear_state {
    double uN0, tan_phi, cn, cs; /* dashpot coefficients [N s/m] */
    double fy, fz;               /* shear spring force (without dashpot) */
} linear_state;

/* Per-step energies of one Linear contact. */
typedef struct linear_energy {
    double elastic, plastic, dashpot;
} linear_energy;

/* Force (local frame, on A) of a Linear contact that stays, from the
 * normal displacement u and the relative velocity vel; updates the shear
 * spring in s. Written with selects instead of branches so that the batched
 * kernel (below) vectorizes the same code the law runs. */
FLOE_KERNEL vec3 linear_force(double dt, double kn, double kt, double u, vec3 vel, double no_slip, double dp_mode,
                              linear_state *s, linear_energy *e) {
    double fn = kn * u; /* elastic normal force: negative in compression */
    double oy = s->fy, oz = s->fz;
    double ty = oy + dt * kt * vel.y, tz = oz + dt * kt * vel.z;
    double lim = fabs(fn) * s->tan_phi;
    double ft2 = ty * ty + tz * tz;
    /* Conditions are single comparisons selecting doubles, nested rather
     * than joined by && or ||: mixed masks stop the vectorizer. */
    double slip = s->tan_phi != 0 ? (ft2 > lim * lim ? (no_slip == 0 ? 1.0 : 0.0) : 0.0) : 0.0;
    double r = slip > 0 ? lim / sqrt(ft2) : 1.0;
    e->plastic = slip > 0 ? floe_slip_work(oy, oz, ty, tz, r, kt) : 0.0;
    s->fy = s->tan_phi != 0 ? ty * r : 0.0;
    s->fz = s->tan_phi != 0 ? tz * r : 0.0;
    /* dashpots act on the relative velocity, on top of the springs (on A:
     * F = c v, v the velocity of B relative to A); dp_mode 1 and 3: no net
     * tension from the dashpot, 2 and 3: no shear dashpot while sliding */
    double dn = s->cn * vel.x, dy = s->cs * vel.y, dz = s->cs * vel.z;
    double tension_cut = dp_mode == 1 ? 1.0 : (dp_mode == 3 ? 1.0 : 0.0);
    dn = tension_cut > 0 ? (fn + dn > 0 ? -fn : dn) : dn;
    double shear_cut = dp_mode >= 2 ? slip : 0.0;
    dy = shear_cut > 0 ? 0.0 : dy;
    dz = shear_cut > 0 ? 0.0 : dz;
    e->dashpot = (dn * vel.x + dy * vel.y + dz * vel.z) * dt;
    double el = 0.5 * fn * fn / kn;
    e->elastic = kt > 0 ? el + 0.5 * (s->fy * s->fy + s->fz * s->fz) / kt : el;
    return v3(fn + dn, s->fy + dy, s->fz + dz);
}

/* Whether a Linear contact opening to u goes (it keeps with no_break). */
static inline int linear_opens(double u, double no_break) { return u > 0 && no_break == 0; }

static int linear_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    linear_state *s = state;
    const double *lp = ctx->lp;
    double u = ctx->g->uN - s->uN0;
    if (linear_opens(u, lp[LP_NO_BREAK])) {
        /* The shear spring lets go of what it holds and of its last step's
         * work (docs/decisions.md#a-frictional-contact-that-opens-books-its-shear-spring):
         * an uncapped (no_slip) spring real energy, booked as broken; a
         * capped one what the slip of a continuous opening would take as
         * Fn -> 0 (|Ft| <= tan_phi |Fn|), booked as plastic. The normal
         * spring's part is the sampling error of the opening step. */
        if (c->kt > 0 && (s->fy != 0 || s->fz != 0)) {
            vec3 ft = v3(0, s->fy, s->fz);
            double lost = floe_deletion_loss(ctx, ft, v3(0, 0, 0), 0.5 * vlen2(ft) / c->kt);
            if (lp[LP_NO_SLIP] != 0) e->broken += lost;
            else e->plastic += lost;
        }
        return 0;
    }
    linear_energy le;
    c->f = linear_force(ctx->dt, c->kn, c->kt, u, ctx->vel, lp[LP_NO_SLIP], lp[LP_DP_MODE], s, &le);
    ctx->warm->m = v3(0, 0, 0);
    e->plastic += le.plastic;
    e->dashpot += le.dashpot;
    e->elastic += le.elastic;
    return 1;
}

/* The common block, no rows of its own. */
static const floe_param_spec mat_params[] = {FLOE_MAT_DENSITY, FLOE_MAT_YOUNG, FLOE_MAT_KT_DIV_KN, FLOE_MAT_TAN_PHI};

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

extern const floe_model floe_model_linear;

static void linear_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state) {
    linear_state *s = state;
    const floe_geom *g = ctx->g;
    const double *lens = ctx->lens;
    const double *lp = ctx->lp;
    c->kn = lp[LP_KN] > 0 ? lp[LP_KN] : floe_series_kn(lens[0], lens[1], ma[MAT_YOUNG], mb[MAT_YOUNG], ctx->warm->area);
    c->kt = lp[LP_KT] > 0 ? lp[LP_KT] : floe_mat_pair(&floe_model_linear, ma, mb, MAT_KT_DIV_KN) * c->kn;
    s->tan_phi = floe_mat_pair(&floe_model_linear, ma, mb, MAT_TAN_PHI);
    s->uN0 = lp[LP_INI_EQLB] != 0 ? g->uN : 0.0;
    double mc = floe_contact_mass(ctx);
    s->cn = isfinite(mc) ? 2 * lp[LP_DP_NRATIO] * sqrt(mc * c->kn) : 0;
    s->cs = isfinite(mc) ? 2 * lp[LP_DP_SRATIO] * sqrt(mc * c->kt) : 0;
}

/* The dashpots lower the stable step: the springs as the critical step
 * counts them, raised for the damping ratios (set as fractions of critical
 * damping of the pair, model.h floe_damped_stiffness). */
static void linear_dt_stiffness(const double *lp, const floe_contact *c, const floe_contact_warm *warm,
                                const void *state, double k[4]) {
    const linear_state *s = state;
    k[0] = s->cn > 0 ? floe_damped_stiffness(c->kn, lp[LP_DP_NRATIO]) : c->kn;
    k[1] = s->cs > 0 ? floe_damped_stiffness(c->kt, lp[LP_DP_SRATIO]) : c->kt;
    k[2] = warm->kw;
    k[3] = warm->kr;
}

/* fd_n, fd_s: the dashpot parts of the contact force (its total less the
 * springs); slipping: the shear spring sits on the Coulomb limit. */
static void linear_get_state(const floe_contact *c, const floe_geom *g, const floe_contact_warm *warm,
                             const void *state, double *out) {
    (void)warm;
    const linear_state *s = state;
    double fn = c->kn * (g->uN - s->uN0), dy = c->f.y - s->fy, dz = c->f.z - s->fz;
    double ft2 = s->fy * s->fy + s->fz * s->fz, lim = fabs(fn) * s->tan_phi;
    out[0] = s->uN0;
    out[1] = c->f.x - fn;
    out[2] = sqrt(dy * dy + dz * dz);
    out[3] = s->tan_phi > 0 && ft2 > 0 && fabs(sqrt(ft2) - lim) <= 1e-9 * lim;
}

/* The batched kernel: the law of contacts that stay, vectorized; no_slip
 * contacts stay out (unless_params), since their spring releases energy
 * when they open. */
typedef struct linear_lanes {
    double kn[FLOE_BATCH], kt[FLOE_BATCH], no_break[FLOE_BATCH], dp_mode[FLOE_BATCH], uN0[FLOE_BATCH];
    double tan_phi[FLOE_BATCH], cn[FLOE_BATCH], cs[FLOE_BATCH], fy[FLOE_BATCH], fz[FLOE_BATCH];
} linear_lanes;

/* The lanes' records into M, lane by lane (FLOE_GATHER_LANES). */
FLOE_GATHER_LANES void linear_gather(const floe_batch_in *in, linear_lanes *M) {
    for (int j = 0; j < in->n; j++) {
        const floe_contact *c = in->c[j];
        const linear_state *s = in->state[j];
        M->kn[j] = c->kn;
        M->kt[j] = c->kt;
        M->no_break[j] = in->lp[j][LP_NO_BREAK];
        M->dp_mode[j] = in->lp[j][LP_DP_MODE];
        M->uN0[j] = s->uN0;
        M->tan_phi[j] = s->tan_phi;
        M->cn[j] = s->cn;
        M->cs[j] = s->cs;
        M->fy[j] = s->fy;
        M->fz[j] = s->fz;
    }
}

static void linear_batch(const floe_batch_in *in, floe_lanes *L) {
    linear_lanes Mm, *M = &Mm;
    const int n = in->n;
    const double dt = in->dt;
    linear_gather(in, M);
    for (int j = 0; j < n; j++) { /* vectorized */
        double u = L->uN[j] - M->uN0[j];
        vec3 vel = v3(L->vel[0][j], L->vel[1][j], L->vel[2][j]);
        linear_state s;
        s.tan_phi = M->tan_phi[j];
        s.cn = M->cn[j];
        s.cs = M->cs[j];
        s.fy = M->fy[j];
        s.fz = M->fz[j];
        linear_energy e;
        vec3 f = linear_force(dt, M->kn[j], M->kt[j], u, vel, 0.0, M->dp_mode[j], &s, &e);
        L->f[0][j] = f.x;
        L->f[1][j] = f.y;
        L->f[2][j] = f.z;
        M->fy[j] = s.fy;
        M->fz[j] = s.fz;
        L->elastic[j] = e.elastic;
        L->plastic[j] = e.plastic;
        L->dashpot[j] = e.dashpot;
        /* linear_opens in single comparisons; an opening contact whose shear
         * spring holds a force books it in the law (odd) */
        L->keep[j] = u > 0 ? (M->no_break[j] == 0 ? 0.0 : 1.0) : 1.0;
        L->odd[j] = L->keep[j] == 0 ? (M->fy[j] != 0 ? 1.0 : (M->fz[j] != 0 ? 1.0 : 0.0)) : 0.0;
    }
    for (int j = 0; j < n; j++)
        if (L->keep[j] != 0) { /* a contact that goes keeps its state as it was, as in the law */
            linear_state *s = in->state[j];
            s->fy = M->fy[j];
            s->fz = M->fz[j];
        }
}

static const floe_batch_kernel linear_kernel = {
    .run = linear_batch,
    .unless_params = 1u << LP_NO_SLIP,
};

const floe_model floe_model_linear = {
    .info = {"linear", "Linear (Cundall) elastic-frictional model with optional dashpots", mat_params, 4, law_params, 8,
             state_names, 4},
    .state_size = sizeof(linear_state),
    .create = linear_create,
    .dt_stiffness = linear_dt_stiffness,
    .law = linear_law,
    .get_state = linear_get_state,
    .batch = &linear_kernel,
    .no_warm = 1,
};
