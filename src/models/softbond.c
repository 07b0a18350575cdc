/* Soft-bond model (Itasca PFC 6 `softbond`, from its documentation page, with
 * the page's typos corrected and the choices S1-S11 of docs/decisions.md#soft-bond;
 * "eq. N" is equation N of that page).
 * Unbonded: Jiang (2015)-type contact with Coulomb shear and rolling/twisting
 * limits. Bonded: parallel-bond springs over a cross-section with a bond state machine (intact, tensile
 * softening, unloaded inside the envelope) that fails in tension or shear.
 * Linear dashpots as in the Linear model. Documented in docs/models/softbond.md.
 *
 * Conventions. floe stores forces on particle A in the contact frame
 * (x = normal A->B). PFC's F_n (tension > 0) is our f.x; PFC's F_s, M_b, M_t
 * act on B, so ours are their negatives and the PFC updates
 * "F_s -= ks A dδ_s" read "fs += ks A du_s" here (du = relative displacement
 * of B w.r.t. A). Magnitudes, stresses and energies are the same. History
 * vectors are stored as frame components: the core carries the frame with
 * the pair's tilt and mean spin (S5), so no explicit rotation is needed. */
#include "models/model.h"

#include <string.h>

/* ---- parameters ---------------------------------------------------------- */

/* The common block with PFC's words and defaults for three
 * rows, then soft-bond's own rows, each mixed as mat_mix says. */
static const floe_param_spec mat_params[] = {
    FLOE_MAT_DENSITY,
    {"young", 1e9, 0, INFINITY, 1, 1, "Pa",
     "effective modulus E*: when kn is 0 on both materials, kn = 1/(l_A/E_A + l_B/E_B) (deformability)"},
    {"kt_div_kn", 0.4, 0, INFINITY, 0, 1, "-", "when ks is 0 on both materials: ks = kt_div_kn x kn (mean)"},
    {"tan_phi", 0, 0, INFINITY, 0, 1, "-",
     "friction coefficient mu (min of the pair; the common tan_phi row), as in linear and hertz; 'fric' is its "
     "former name"},
    {"kn", 0, 0, INFINITY, 0, 1, "Pa/m",
     "normal stiffness per area; pair: kn_A kn_B/(kn_A + kn_B), or the non-zero one"},
    {"ks", 0, 0, INFINITY, 0, 1, "Pa/m", "shear stiffness per area; pair: like kn"},
};
enum { M_KN = MAT_COMMON_COUNT, M_KS, N_MAT };
/* PFC's inheritance of kn and ks */
static const floe_mix mat_mix[] = {FLOE_OWN(M_KN) = FLOE_MIX_SERIES, FLOE_OWN(M_KS) = FLOE_MIX_SERIES};
_Static_assert(sizeof mat_mix / sizeof mat_mix[0] == N_MAT - MAT_COMMON_COUNT, "a mixing rule per own row");

enum {
    LP_RGAP,
    LP_PROXIMITY,
    LP_MODE,
    LP_BMUL,
    LP_TMUL,
    LP_RMUL,
    LP_USER_AREA,
    LP_SOFT,
    LP_CUT,
    LP_MCF,
    LP_TEN,
    LP_COH,
    LP_FA,
    LP_SHEAR_ZERO,
    LP_DP_NRATIO,
    LP_DP_SRATIO,
    LP_DP_MODE,
    N_LAW
};
static const floe_param_spec law_params[] = {
    {"rgap", 0, -INFINITY, INFINITY, 1, 1, "m", "reference gap g_r: active when unbonded and uN - rgap <= 0"},
    {"proximity", 0, 0, INFINITY, 0, 1, "m", "contacts are created across gaps up to max(rgap, proximity)"},
    {"sb_mode", 0, 0, 1, 0, 0, "int", "unbonded normal force: 0 absolute, 1 incremental (bond sets 1)"},
    {"sb_bmul", 1, 0, INFINITY, 0, 1, "-", "bending friction multiplier lambda_b"},
    {"sb_tmul", 1, 0, INFINITY, 0, 1, "-", "twisting friction multiplier lambda_t"},
    {"sb_rmul", 1, 0, INFINITY, 1, 1, "-", "radius multiplier lambda of the cross-section"},
    {"user_area", 0, 0, INFINITY, 0, 1, "m^2", "constant cross-section area (0: from the radii)"},
    {"sb_soft", 0, 0, INFINITY, 0, 1, "-", "softening factor zeta (0: brittle)"},
    {"sb_cut", 1, 0, 1, 0, 0, "-", "softening tensile-strength factor gamma (1: no softening)"},
    {"sb_mcf", 1, 0, 1, 0, 0, "-", "moment-contribution factor beta of the peripheral stresses"},
    {"sb_ten", 0, 0, INFINITY, 0, 1, "Pa", "bond tensile strength sigma_c"},
    {"sb_coh", 0, 0, INFINITY, 0, 1, "Pa", "bond cohesion c"},
    {"sb_fa", 0, 0, 90, 0, 1, "deg", "bond friction angle phi"},
    {"sb_shear_zero", 0, 0, 1, 0, 0, "bool", "zero force and moment on shear failure (parallel-bond style)"},
    {"dp_nratio", 0, 0, 1, 0, 0, "-", "normal dashpot: fraction of critical damping"},
    {"dp_sratio", 0, 0, 1, 0, 0, "-", "shear dashpot: fraction of critical damping"},
    {"dp_mode", 0, 0, 3, 0, 0, "int", "0 full, 1 no tension while unbonded, 2 no shear dashpot while sliding, 3 both"},
};

/* Per-contact state exported to contacts.csv and VTK. Vector properties are
 * split into components in PFC's (n, s, t) contact-plane system, acting on
 * particle B (PFC's end 2): sb_force = (-F_n, F_ss, F_st), sb_moment = (M_t,
 * M_bs, M_bt), dp_force = (-F_n^d, F_ss^d, F_st^d). */
static const char *const state_names[] = {
    "sb_state",      "sb_mode",     "sb_area",       "sb_radius",    "sb_sigma",       "sb_tau",
    "sb_shear",      "sb_slip",     "sb_slipb",      "sb_slipt",     "sb_force_n",     "sb_force_s",
    "sb_force_t",    "sb_moment_t", "sb_moment_bs",  "sb_moment_bt", "dp_force_n",     "dp_force_s",
    "dp_force_t",    "sb_kn",       "sb_ks",         "fric",         "emod",           "kratio",
    "user_area",     "sb_soft",     "sb_cut",        "sb_lc",        "sb_lstar",       "sb_elong",
    "sb_sigm",       "sb_lm",       "energy_strain", "energy_slip",  "energy_dashpot", "sb_brk_strength",
    "sb_brk_energy",
};
enum { N_STATE = (int)(sizeof state_names / sizeof state_names[0]) };

static const char *const method_names[] = {"bond", "unbond", "area", "deformability"};

/* Bond states B (PFC sb_state). */
enum { B_UNBONDED = 0, B_BROKE_TENSION, B_BROKE_SHEAR, B_BONDED, B_SOFTENING, B_COMPRESSING };
/* Slip-state bits. */
enum { SLIP_SHEAR = 1, SLIP_BEND = 2, SLIP_TWIST = 4 };

typedef struct sb_state {
    double kn, ks, fric;           /* per-area stiffnesses [Pa/m], friction (deformability may change kn, ks) */
    double user_area, zeta, gamma; /* per contact (area / bond methods may change them) */
    double L;                      /* deformability length: emod = kn L */
    double fn, fs[2], mt, mb[2];   /* spring force and moment on A, contact frame; fn > 0 tension */
    double fd[3];                  /* dashpot force on A */
    double R, A;                   /* current cross-section */
    double sigma, tau;             /* peripheral stresses (eq. 16), 0 when unbonded */
    double tau_c;                  /* bond shear strength c - min(sigma_bar, sigma_c) tan(phi) */
    double lc, lstar, dl, dthb[2], sig_m, l_m; /* softening memory (eqs. 17-21) */
    double e_strain, e_slip, e_dash;           /* per contact: stored now, dissipated so far */
    double brk_strength, brk_energy;           /* arguments of the last bond_break */
    int8_t B, mode, dim;
    uint8_t slip;     /* SLIP_* bits */
    uint8_t active;   /* the law ran last step (bonded or g_s <= 0) */
    uint8_t released; /* a bond was just lost with its springs loaded: book their release as broken */
} sb_state;

typedef struct section {
    double R, A, I, J;
} section;

/* Cross-section (eq. 4). R = lambda min(R1, R2) comes from the contact
 * area pi min(r1, r2)^2 of L6Geom, which also gives R1 for a sphere on a wall
 * or facet. user_area fixes A and derives R from it. 2D: unit thickness. */
static section cross_section(int dim, double area, const sb_state *s, const double *lp) {
    section x;
    if (s->user_area > 0) {
        x.A = s->user_area;
        x.R = dim == 2 ? 0.5 * x.A : sqrt(x.A / FLOE_PI);
    } else {
        x.R = lp[LP_RMUL] * sqrt(area / FLOE_PI);
        x.A = dim == 2 ? 2.0 * x.R : FLOE_PI * x.R * x.R;
    }
    double R2 = x.R * x.R;
    x.I = dim == 2 ? 2.0 / 3.0 * R2 * x.R : 0.25 * FLOE_PI * R2 * R2;
    x.J = dim == 2 ? 0.0 : 0.5 * FLOE_PI * R2 * R2;
    return x;
}

/* Length of the deformability method, kn = emod / L
 * (docs/decisions.md#soft-bond-deformability-length-with-a-fixed-area-s8). */
static double defo_length(int dim, const double lens[2], const sb_state *s) {
    if (s->user_area > 0) return dim == 2 ? s->user_area : 2.0 * sqrt(s->user_area / FLOE_PI);
    return lens[0] + lens[1];
}

/* Spring stiffness raised for the critical time step when a dashpot of
 * critical-damping ratio b acts on it (PFC: k / (sqrt(1 + b^2) - b)^2). */
static double damped(double k, double b) {
    double d = sqrt(1.0 + b * b) - b;
    return k / (d * d);
}

static void set_step_stiffness(floe_contact *c, floe_contact_warm *warm, const sb_state *s, const section *x,
                               const double *lp) {
    c->kn = damped(s->kn * x->A, lp[LP_DP_NRATIO]);
    c->kt = damped(s->ks * x->A, lp[LP_DP_SRATIO]);
    warm->kw = s->ks * x->J;
    warm->kr = s->kn * x->I;
}

extern const floe_model floe_model_softbond;

static void sb_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state) {
    sb_state *s = state;
    const double *lens = ctx->lens;
    const double *lp = ctx->lp;
    s->dim = (int8_t)ctx->dim;
    const floe_model *m = &floe_model_softbond;
    s->kn = floe_mat_pair(m, ma, mb, M_KN);
    if (!(s->kn > 0)) s->kn = 1.0 / (lens[0] / ma[MAT_YOUNG] + lens[1] / mb[MAT_YOUNG]);
    s->ks = floe_mat_pair(m, ma, mb, M_KS);
    if (!(ma[M_KS] > 0) && !(mb[M_KS] > 0)) s->ks = floe_mat_pair(m, ma, mb, MAT_KT_DIV_KN) * s->kn;
    s->fric = floe_mat_pair(m, ma, mb, MAT_TAN_PHI);
    s->user_area = lp[LP_USER_AREA];
    s->zeta = lp[LP_SOFT];
    s->gamma = lp[LP_CUT];
    s->mode = (int8_t)lp[LP_MODE];
    s->L = defo_length(ctx->dim, lens, s);
    section x = cross_section(ctx->dim, ctx->warm->area, s, lp);
    s->R = x.R;
    s->A = x.A;
    set_step_stiffness(c, ctx->warm, s, &x, lp);
}

/* ---- energies ------------------------------------------------------------ */

static inline double quad(double f2, double k) { return k > 0 ? 0.5 * f2 / k : 0.0; }

/* Strain energy E_k (eq. 24) of a force/moment set with the given springs. */
static double strain(double fn, const double *fs, double mt, const double *mb, double Kn, double Ks, double Kb,
                     double Kt) {
    return quad(fn * fn, Kn) + quad(fs[0] * fs[0] + fs[1] * fs[1], Ks) + quad(mb[0] * mb[0] + mb[1] * mb[1], Kb) +
           quad(mt * mt, Kt);
}

/* Work the pair put into one spring during the step minus what the spring
 * stores more than before: the energy the return map (slip, softening,
 * failure) took out. With the mid-step force of leapfrog this is exactly the
 * PFC slip energy of eq. 25 (sign fixed) and the rule of
 * docs/decisions.md#plastic-energy-with-the-mid-step-force-g5, and it
 * keeps the global balance closed for every non-elastic update. */
static double lost1(double f0, double f1, double du, double k) {
    return 0.5 * (f0 + f1) * du - (quad(f1 * f1, k) - quad(f0 * f0, k));
}
static double lost2(const double *f0, const double *f1, double u0, double u1, double k) {
    return lost1(f0[0], f1[0], u0, k) + lost1(f0[1], f1[1], u1, k);
}

/* ---- helpers ------------------------------------------------------------- */

/* |(a, b)|: sqrt, not hypot, which is several times slower on the hot path;
 * contact forces are far from overflow. */
static inline double norm2(double a, double b) { return sqrt(a * a + b * b); }

/* Returns the 2-vector v to the limit lim if longer; 1 if it was capped. */
static int cap2(double *v, double lim) {
    double n2 = v[0] * v[0] + v[1] * v[1];
    if (!(n2 > lim * lim)) return 0;
    double r = lim / sqrt(n2);
    v[0] *= r;
    v[1] *= r;
    return 1;
}

/* slip_change mode (the PFC page's table): 1 shear, 2 bend, 3 twist, 4 shear+bend,
 * 5 shear+twist, 6 bend+twist, 7 all; indexed by the changed SLIP_* bits. */
static const uint8_t slip_mode[8] = {0, 1, 2, 4, 3, 5, 6, 7};

static void zero_springs(sb_state *s) {
    s->fn = s->mt = 0;
    s->fs[0] = s->fs[1] = s->mb[0] = s->mb[1] = 0;
}

static void clear_softening(sb_state *s) {
    s->lc = s->lstar = s->dl = s->sig_m = s->l_m = 0;
    s->dthb[0] = s->dthb[1] = 0;
}

static double bond_sigma(const sb_state *s, const section *x, double beta) {
    return s->fn / x->A + beta * norm2(s->mb[0], s->mb[1]) * x->R / x->I;
}

static double bond_tau(const sb_state *s, const section *x, double beta) {
    double t = norm2(s->fs[0], s->fs[1]) / x->A;
    if (x->J > 0) t += beta * fabs(s->mt) * x->R / x->J;
    return t;
}

/* Shear strength c - min(sigma_bar, sigma_c) tan(phi) (eq. 23, sigma capped as in PFC's parallel bond). */
static double shear_strength(const sb_state *s, const section *x, const double *lp, double tan_fa) {
    double sbar = s->fn / x->A;
    return lp[LP_COH] - fmin(sbar, lp[LP_TEN]) * tan_fa;
}

/* ---- the law ------------------------------------------------------------- */

/* What one step of the law works with: the stiffnesses of this step's
 * section, the relative displacement and rotation of B w.r.t. A that load
 * the springs (on activation, the part of the approach after touching) and
 * the springs as the step found them. */
typedef struct sb_step {
    double Kn, Ks, Kb, Kt;
    vec3 du, dth;
    double fn0, mt0, fs0[2], mb0[2];
    int d3; /* a twist spring (3D) */
} sb_step;

/* The energy the return map took out of all the springs this step. */
static double springs_lost(const sb_state *s, const sb_step *st) {
    return lost1(st->fn0, s->fn, st->du.x, st->Kn) + lost2(st->fs0, s->fs, st->du.y, st->du.z, st->Ks) +
           lost1(st->mt0, s->mt, st->dth.x, st->Kt) + lost2(st->mb0, s->mb, st->dth.y, st->dth.z, st->Kb);
}

/* A contact neither bonded nor touching (g_s > 0): springs and dashpots let
 * go; the dashpot's last half step is dissipation, a just-released bond's
 * springs are a loss. Returns whether the contact is kept: while within
 * reach of re-activation, as PFC keeps proximity contacts. */
static int sb_let_go(const floe_law_ctx *ctx, floe_contact *c, sb_state *s, const sb_step *st, floe_energy_acc *e) {
    const double *lp = ctx->lp;
    const double gap_max = fmax(0.0, fmax(lp[LP_RGAP], lp[LP_PROXIMITY]));
    if (s->active) {
        double fdu = 0.5 * (s->fd[0] * st->du.x + s->fd[1] * st->du.y + s->fd[2] * st->du.z);
        e->dashpot += fdu;
        s->e_dash += fdu;
        if (s->released) {
            double zf[2] = {0, 0};
            double loss = lost1(s->fn, 0, st->du.x, st->Kn) + lost2(s->fs, zf, st->du.y, st->du.z, st->Ks) +
                          lost1(s->mt, 0, st->dth.x, st->Kt) + lost2(s->mb, zf, st->dth.y, st->dth.z, st->Kb);
            e->broken += loss;
        }
    }
    zero_springs(s);
    s->fd[0] = s->fd[1] = s->fd[2] = 0;
    s->sigma = s->tau = s->e_strain = 0;
    s->slip = 0; /* no force, no slip: cleared without an event */
    s->active = 0;
    s->released = 0;
    c->f = ctx->warm->m = v3(0, 0, 0);
    return !(ctx->g->uN > gap_max);
}

/* A contact that starts to act this step. PFC's activation correction:
 * only the part of this step's approach made after touching loads the
 * springs. */
static void sb_activate(const floe_law_ctx *ctx, floe_contact *c, sb_state *s, double gs, int bonded0, sb_step *st) {
    c->flags |= CF_ACTIVATED;
    if (!ctx->fresh && !bonded0 && st->du.x < 0) {
        double corr = gs / st->du.x;
        if (corr >= 0 && corr < 1) {
            st->du = vscale(st->du, corr);
            st->dth = vscale(st->dth, corr);
        }
    }
    s->active = 1;
}

/* Unbonded: Jiang-type limits. Returns the energy the limits took; on the
 * first step after a shear failure or an unbond, whatever they strip from
 * the bond's loaded springs is bond damage (*to_broken). */
static double sb_unbonded(const floe_law_ctx *ctx, sb_state *s, const sb_step *st, const section *x, double gs,
                          int *to_broken) {
    const double *lp = ctx->lp;
    const double Kn = st->Kn, Ks = st->Ks, Kb = st->Kb, Kt = st->Kt;
    const vec3 du = st->du, dth = st->dth;
    double lost = 0;
    if (ctx->fresh || s->mode == 0) s->fn = gs < 0 ? Kn * gs : 0.0; /* eq. 5; a new contact starts absolute */
    else s->fn = fmin(s->fn + Kn * du.x, 0.0);                      /* eq. 6, its typo fixed (min) */
    s->fs[0] += Ks * du.y;
    s->fs[1] += Ks * du.z;
    s->mt = st->d3 ? s->mt + Kt * dth.x : 0.0;
    s->mb[0] += Kb * dth.y;
    s->mb[1] += Kb * dth.z;
    const double p = -s->fn; /* >= 0 */
    uint8_t slip = 0;
    if (cap2(s->fs, s->fric * p)) slip |= SLIP_SHEAR;
    if (cap2(s->mb, 0.525 * lp[LP_BMUL] * p * x->R)) slip |= SLIP_BEND; /* 2.1/4 */
    if (st->d3) {
        double lim = 0.65 * lp[LP_TMUL] * s->fric * p * x->R;
        if (fabs(s->mt) > lim) {
            s->mt = copysign(lim, s->mt);
            slip |= SLIP_TWIST;
        }
    }
    s->slip = slip;
    s->sigma = s->tau = 0;
    if (s->released) {
        lost = springs_lost(s, st);
        *to_broken = 1;
        s->released = 0;
    } else {
        if (slip & SLIP_SHEAR) lost += lost2(st->fs0, s->fs, du.y, du.z, Ks);
        if (slip & SLIP_BEND) lost += lost2(st->mb0, s->mb, dth.y, dth.z, Kb);
        if (slip & SLIP_TWIST) lost += lost1(st->mt0, s->mt, dth.x, Kt);
    }
    return lost;
}

/* A bond's springs loaded incrementally; in softening or compressing, the
 * elongation since softening began (eq. 20) and the bending as the vector
 * sum carried with the contact plane (S1). */
static void bond_load(sb_state *s, const sb_step *st) {
    const int B0 = s->B;
    s->fn += st->Kn * st->du.x;
    s->fs[0] += st->Ks * st->du.y;
    s->fs[1] += st->Ks * st->du.z;
    s->mb[0] += st->Kb * st->dth.y;
    s->mb[1] += st->Kb * st->dth.z;
    s->mt = st->d3 ? s->mt + st->Kt * st->dth.x : 0.0;
    if (B0 == B_SOFTENING || B0 == B_COMPRESSING) {
        s->dl += st->du.x;
        s->dthb[0] += st->dth.y;
        s->dthb[1] += st->dth.z;
    }
}

/* The tensile envelope of a bond at trial stress *sig (eqs. 17-22, S2):
 * softening begins when it passes the strength sig_c, a softening bond's
 * stress is projected back on the envelope (*sig, *damaged) or the bond
 * turns to compressing when it unloads. Returns B_BROKE_TENSION when the
 * bond fails in tension, else 0. */
static int bond_soften(sb_state *s, const section *x, double sig_c, double *sig, int *damaged) {
    int broke = 0;
    if (s->B == B_BONDED && *sig > sig_c) {
        if (!(s->zeta > 0) || !(s->gamma < 1) || !(s->kn > 0)) {
            broke = B_BROKE_TENSION; /* zeta = 0 or gamma = 1: parallel-bond brittle failure */
        } else {
            /* onset of softening (eq. 17, S2): l_c from this step's trial stress */
            s->B = B_SOFTENING;
            s->lc = *sig / s->kn;
            s->lstar = (1.0 + s->zeta) * s->lc;
            s->dl = 0;
            s->dthb[0] = s->dthb[1] = 0;
        }
    } else if (s->B == B_COMPRESSING && *sig > s->sig_m) {
        s->B = B_SOFTENING; /* re-entry 5 -> 4 */
    }
    if (s->B == B_SOFTENING && !broke) {
        double l = s->lc + s->dl + x->R * norm2(s->dthb[0], s->dthb[1]);      /* eq. 19 */
        double sstar = fmax(0.0, sig_c * (s->lstar - l) / (s->zeta * s->lc)); /* eq. 18 */
        if (*sig >= sstar) {
            /* project back on the envelope (eq. 21): scale F_n and M_b */
            double r = *sig > 0 ? sstar / *sig : 0.0;
            s->fn *= r;
            s->mb[0] *= r;
            s->mb[1] *= r;
            *sig = sstar;
            *damaged = 1;
            if (*sig <= s->gamma * sig_c) broke = B_BROKE_TENSION; /* eq. 22 */
        } else {
            s->B = B_COMPRESSING;
            s->sig_m = *sig;
            s->l_m = l;
        }
    }
    return broke;
}

/* The shear test of a bond that held in tension (eq. 23), the stresses it
 * reports, and a failure (broke, if not 0): its strain energy and strength,
 * the state, flags and event detail; the springs zeroed (tension, or shear
 * with the S3 option: returns 1) or kept for the unbonded limits from the
 * next step. */
static int bond_fail(floe_contact *c, sb_state *s, const sb_step *st, const section *x, const double *lp, double tan_fa,
                     double sig, int broke) {
    double tau = bond_tau(s, x, lp[LP_MCF]);
    if (!broke) {
        double tau_c = shear_strength(s, x, lp, tan_fa); /* mean normal stress F_n/A, tension > 0 */
        if (tau > tau_c) {                               /* eq. 23 */
            broke = B_BROKE_SHEAR;
            s->brk_strength = tau_c;
        }
    } else {
        s->brk_strength = lp[LP_TEN];
    }
    s->sigma = sig;
    s->tau = tau;
    if (!broke) return 0;
    s->brk_energy = strain(s->fn, s->fs, s->mt, s->mb, st->Kn, st->Ks, st->Kb, st->Kt);
    s->B = (int8_t)broke;
    clear_softening(s);
    s->sigma = s->tau = 0;
    c->flags = (uint8_t)((c->flags | CF_BROKE) & ~CF_BONDED);
    c->detail |= (uint32_t)broke;
    if (broke == B_BROKE_TENSION || lp[LP_SHEAR_ZERO] != 0) {
        zero_springs(s); /* eq. 22; S3 option for shear */
        return 1;
    }
    s->released = 1; /* S3: kept; the unbonded limits act from the next step */
    return 0;
}

/* Bonded: incremental springs and the bond's states. Returns the energy
 * softening or failure took out, all of it bond damage (*to_broken). */
static double sb_bonded(const floe_law_ctx *ctx, floe_contact *c, sb_state *s, const sb_step *st, const section *x,
                        double tan_fa, int *to_broken) {
    const double *lp = ctx->lp;
    bond_load(s, st);
    s->slip = 0;
    double sig = bond_sigma(s, x, lp[LP_MCF]);
    int damaged = 0;
    int broke = bond_soften(s, x, lp[LP_TEN], &sig, &damaged);
    if (bond_fail(c, s, st, x, lp, tan_fa, sig, broke)) damaged = 1;
    if (!damaged) return 0;
    *to_broken = 1;
    return springs_lost(s, st);
}

/* Dashpots (as in the Linear model): the new force into fd and s->fd;
 * returns the work of the mid-step dashpot force over the step's raw
 * displacement du_raw, as leapfrog applies it (closes the balance). */
static double sb_dashpots(const floe_law_ctx *ctx, sb_state *s, const sb_step *st, vec3 du_raw, double fd[3]) {
    const double *lp = ctx->lp;
    double cn = 0, cs = 0, mc = floe_contact_mass(ctx);
    if (isfinite(mc) && mc > 0) {
        cn = 2.0 * lp[LP_DP_NRATIO] * sqrt(mc * st->Kn);
        cs = 2.0 * lp[LP_DP_SRATIO] * sqrt(mc * st->Ks);
    }
    fd[0] = cn * ctx->vel.x;
    fd[1] = cs * ctx->vel.y;
    fd[2] = cs * ctx->vel.z;
    int dpm = (int)lp[LP_DP_MODE];
    if ((dpm & 1) && s->B < B_BONDED && s->fn + fd[0] > 0) fd[0] = -s->fn; /* no net tension (not while bonded, S4) */
    if ((dpm & 2) && (s->slip & SLIP_SHEAR)) fd[1] = fd[2] = 0;            /* slip-cut */
    double edash = 0.5 *
                   ((s->fd[0] + fd[0]) * du_raw.x + (s->fd[1] + fd[1]) * du_raw.y + (s->fd[2] + fd[2]) * du_raw.z);
    memcpy(s->fd, fd, 3 * sizeof *fd);
    return edash;
}

/* The step's energies (eqs. 24-26, S6: dissipation as non-negative
 * magnitudes): what the return map took (bond damage or friction), the
 * dashpots' work, the springs' strain energy. */
static void sb_energies(sb_state *s, const sb_step *st, double lost, int to_broken, double edash, floe_energy_acc *e) {
    if (to_broken) {
        e->broken += lost;
    } else {
        e->plastic += lost;
        s->e_slip += lost;
    }
    e->dashpot += edash;
    s->e_dash += edash;
    s->e_strain = strain(s->fn, s->fs, s->mt, s->mb, st->Kn, st->Ks, st->Kb, st->Kt);
    e->elastic += s->e_strain;
}

/* A slip_change event when the slip flags changed (S7 argument order:
 * shear, twist, bend). */
static void sb_slip_event(floe_contact *c, uint8_t slip0, uint8_t slip) {
    uint8_t changed = (uint8_t)(slip0 ^ slip);
    if (!changed) return;
    uint32_t d = slip_mode[changed & 7] |
                 /* & 7: a restored state may hold other bits */ (uint32_t)((slip & SLIP_SHEAR) != 0) << 3 |
                 (uint32_t)((slip & SLIP_TWIST) != 0) << 4 | (uint32_t)((slip & SLIP_BEND) != 0) << 5;
    c->flags |= CF_SLIP;
    c->detail |= d << 8;
}

static int sb_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    sb_state *s = state;
    floe_contact_warm *warm = ctx->warm; /* torque, kw, kr, area: read and written every step */
    const double *lp = ctx->lp;
    s->dim = (int8_t)ctx->dim;
    section x = cross_section(ctx->dim, warm->area, s, lp);
    s->R = x.R;
    s->A = x.A;
    set_step_stiffness(c, ctx->warm, s, &x, lp);
    sb_step st = {.Kn = s->kn * x.A, .Ks = s->ks * x.A, .Kb = s->kn * x.I, .Kt = s->ks * x.J, .d3 = ctx->dim != 2};
    const double tan_fa = lp[LP_FA] > 0 ? tan(lp[LP_FA] * FLOE_PI / 180.0) : 0.0;
    st.du = vscale(ctx->vel, ctx->dt);
    st.dth = vscale(ctx->angvel, ctx->dt);
    const vec3 du_raw = st.du;
    const double gs = ctx->g->uN - lp[LP_RGAP];
    const int bonded0 = s->B >= B_BONDED;
    c->detail = 0;

    /* active while bonded or g_s <= 0 */
    if (!bonded0 && gs > 0) return sb_let_go(ctx, c, s, &st, e);
    if (!s->active) sb_activate(ctx, c, s, gs, bonded0, &st);

    st.fn0 = s->fn;
    st.mt0 = s->mt;
    st.fs0[0] = s->fs[0];
    st.fs0[1] = s->fs[1];
    st.mb0[0] = s->mb[0];
    st.mb0[1] = s->mb[1];
    const uint8_t slip0 = s->slip;
    int to_broken = 0; /* book the return map's energy as bond damage rather than friction */
    double lost = bonded0 ? sb_bonded(ctx, c, s, &st, &x, tan_fa, &to_broken)
                          : sb_unbonded(ctx, s, &st, &x, gs, &to_broken);
    double fd[3];
    double edash = sb_dashpots(ctx, s, &st, du_raw, fd);
    sb_energies(s, &st, lost, to_broken, edash, e);
    s->tau_c = shear_strength(s, &x, lp, tan_fa);
    sb_slip_event(c, slip0, s->slip);

    c->f = v3(s->fn + fd[0], s->fs[0] + fd[1], s->fs[1] + fd[2]);
    warm->m = v3(s->mt, s->mb[0], s->mb[1]);
    return 1;
}

/* ---- state for outputs --------------------------------------------------- */

static void sb_get_state(const floe_contact *c, const floe_geom *g, const floe_contact_warm *warm, const void *state,
                         double *out) {
    const sb_state *s = state;
    (void)c, (void)warm;
    /* PFC reports (n, s, t) components of what acts on B. Our frame is
     * (n, t1, t2) with the values on A. 3D: s = t1, t = t2. 2D: s is the
     * out-of-plane axis (= -t2 in floe's 2D frames) and t = t1. */
    double f[3] = {-s->fn, -s->fs[0], -s->fs[1]}, m[3] = {-s->mt, -s->mb[0], -s->mb[1]};
    double d[3] = {-s->fd[0], -s->fd[1], -s->fd[2]};
    if (s->dim == 2) {
        double t;
        t = f[1];
        f[1] = -f[2];
        f[2] = t;
        t = m[1];
        m[1] = -m[2];
        m[2] = t;
        t = d[1];
        d[1] = -d[2];
        d[2] = t;
    }
    double l = s->B == B_SOFTENING || s->B == B_COMPRESSING ? s->lc + s->dl + s->R * norm2(s->dthb[0], s->dthb[1]) : 0;
    double v[N_STATE] = {
        s->B,
        s->mode,
        s->A,
        s->R,
        s->sigma,
        s->tau,
        s->tau_c,
        (s->slip & SLIP_SHEAR) != 0,
        (s->slip & SLIP_BEND) != 0,
        (s->slip & SLIP_TWIST) != 0,
        f[0],
        f[1],
        f[2],
        m[0],
        m[1],
        m[2],
        d[0],
        d[1],
        d[2],
        s->kn,
        s->ks,
        s->fric,
        s->kn * s->L,
        s->kn > 0 && s->ks > 0 ? s->kn / s->ks : 0.0,
        s->user_area,
        s->zeta,
        s->gamma,
        s->lc,
        s->lstar,
        l,
        s->sig_m,
        s->l_m,
        s->e_strain,
        s->e_slip,
        s->e_dash,
        s->brk_strength,
        s->brk_energy,
    };
    memcpy(out, v, sizeof v);
}

/* ---- creation gap and methods ---------------------------------------------- */

static double sb_creation_gap(const double *lp, int64_t step, double rmin) {
    (void)step;
    (void)rmin;
    return fmax(0.0, fmax(lp[LP_RGAP], lp[LP_PROXIMITY]));
}

/* Gap interval of bond/unbond: none = (-inf, 0], one value = (-inf, g],
 * two = [lo, hi]. Returns 0, or -2 for bad arguments. */
static int gap_interval(const double *args, int nargs, double *lo, double *hi) {
    *lo = -INFINITY;
    *hi = 0;
    if (nargs >= 1) *hi = args[nargs >= 2 ? 1 : 0];
    if (nargs >= 2) *lo = args[0];
    if (isnan(*lo) || isnan(*hi) || *lo > *hi) return -2;
    return 0;
}

static int sb_method(const char *name, const double *args, int nargs, const floe_law_ctx *ctx, floe_contact *c,
                     void *state) {
    sb_state *s = state;
    double lo, hi;
    if (strcmp(name, "bond") == 0) {
        /* args: [gap] | [lo, hi] | [lo, hi, soft] | [lo, hi, soft, cut]; NaN keeps soft/cut */
        if (nargs > 4 || gap_interval(args, nargs < 2 ? nargs : 2, &lo, &hi)) return -2;
        double soft = nargs >= 3 ? args[2] : NAN, cut = nargs >= 4 ? args[3] : NAN;
        if (!isnan(soft) && !(soft >= 0 && isfinite(soft))) return -2;
        if (!isnan(cut) && !(cut >= 0 && cut <= 1)) return -2;
        if (!c) return 0;
        if (s->B >= B_BONDED) return 0;                        /* already bonded, softening included: no-op (S9) */
        if (!(ctx->g->uN >= lo && ctx->g->uN <= hi)) return 0; /* contact gap g_c, not g_s */
        s->B = B_BONDED;
        s->mode = 1;
        if (!isnan(soft)) s->zeta = soft;
        if (!isnan(cut)) s->gamma = cut;
        clear_softening(s);
        s->slip = 0;
        s->released = 0;
        c->flags |= CF_BONDED;
        return 0;
    }
    if (strcmp(name, "unbond") == 0) {
        if (nargs > 2 || gap_interval(args, nargs, &lo, &hi)) return -2;
        if (!c) return 0;
        if (s->B == B_UNBONDED || !(ctx->g->uN >= lo && ctx->g->uN <= hi)) return 0;
        if (s->B >= B_BONDED) s->released = 1; /* loaded springs now meet the friction limits */
        s->B = B_UNBONDED;
        clear_softening(s);
        s->sigma = s->tau = 0;
        c->flags &= (uint8_t)~CF_BONDED;
        return 0;
    }
    if (strcmp(name, "area") == 0) {
        if (nargs != 0) return -2;
        if (!c) return 0;
        s->user_area = cross_section(ctx->dim, ctx->warm->area, s, ctx->lp).A;
        s->L = defo_length(ctx->dim, ctx->lens, s);
        return 0;
    }
    if (strcmp(name, "deformability") == 0) {
        /* args: [emod] | [emod, kratio]; kratio 0 sets ks = 0 (PFC convention) */
        if (nargs < 1 || nargs > 2 || !(args[0] >= 0 && isfinite(args[0]))) return -2;
        if (nargs == 2 && !(args[1] >= 0 && isfinite(args[1]))) return -2;
        if (!c) return 0;
        double kratio = nargs == 2 ? args[1] : (s->kn > 0 && s->ks > 0 ? s->kn / s->ks : 0.0);
        s->L = defo_length(ctx->dim, ctx->lens, s);
        s->kn = s->L > 0 ? args[0] / s->L : 0.0;
        s->ks = kratio > 0 ? s->kn / kratio : 0.0;
        section x = cross_section(ctx->dim, ctx->warm->area, s, ctx->lp);
        set_step_stiffness(c, ctx->warm, s, &x, ctx->lp);
        return 0;
    }
    return -1;
}

/* bond_break carries the failure strength (sigma_c or tau_c: a stress, which the
 * page labels a force) and the bond's strain energy at the onset of failure (S7). */
static void sb_event_values(const floe_contact *c, const floe_contact_warm *warm, const void *state, int type,
                            double out[2]) {
    const sb_state *s = state;
    (void)c, (void)warm;
    if (type != FLOE_EVENT_BOND_BROKEN) return;
    out[0] = s->brk_strength;
    out[1] = s->brk_energy;
}

const floe_model floe_model_softbond = {
    .info = {"softbond", "Soft-bond (PFC): Jiang-type unbonded contact, bond with tensile softening", mat_params, N_MAT,
             law_params, N_LAW, state_names, N_STATE},
    .state_size = sizeof(sb_state),
    .create = sb_create,
    .law = sb_law,
    .get_state = sb_get_state,
    .creation_gap = sb_creation_gap,
    .method = sb_method,
    .method_names = method_names,
    .n_methods = 4,
    .event_values = sb_event_values,
    .mat_mix = mat_mix,
};
