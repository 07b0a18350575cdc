/* Hertz–Mindlin (no-slip) contact model, the non-linear elastic contact of
 * LIGGGHTS's `hertz` + `tangential history` and EDEM's "Hertz-Mindlin (no
 * slip)", from the published formulas: Hertz normal force, Mindlin's no-slip
 * tangential stiffness with an incremental tangential force and a Coulomb
 * limit, viscous damping of the Tsuji form that sets the restitution, and an
 * optional elastic-plastic rolling spring (Ai et al. 2011). Documented in
 * docs/models/hertz.md; choices in docs/decisions.md#hertzmindlin-contact-model
 * and the entries after it.
 *
 * Conventions as every floe model: uN < 0 is overlap (delta = -uN), forces on
 * A in the contact frame, tension positive, so the elastic normal force is
 * -4/3 E* sqrt(R*) delta^1.5. */
#include "models/model.h"

/* The common block without kt_div_kn (Mindlin's tangential stiffness comes
 * from E and nu), then Hertz's own rows, each mixed as mat_mix says. */
static const floe_param_spec mat_params[] = {
    FLOE_MAT_DENSITY,
    FLOE_MAT_YOUNG,
    FLOE_MAT_TAN_PHI,
    {"poisson", 0.25, -1, 0.5, 1, 0, "-", "Poisson's ratio nu"},
    {"restitution", 0.5, 0, 1, 1, 0, "-", "coefficient of restitution e of a normal impact (min of the pair)"},
    {"rolling_friction", 0, 0, INFINITY, 0, 1, "-",
     "rolling friction coefficient mu_r: rolling torque limit mu_r R* |Fn| (min of the pair; 0: none)"},
};
enum { M_POISSON = MAT_COMMON_COUNT, M_RESTITUTION, M_ROLLING, N_MAT };
#define FLOE_OWN(k) [(k)-MAT_COMMON_COUNT]
/* poisson enters E* and G* with the bodies' own moduli */
static const floe_mix mat_mix[] = {
    FLOE_OWN(M_POISSON) = FLOE_MIX_NONE,
    FLOE_OWN(M_RESTITUTION) = FLOE_MIX_MIN,
    FLOE_OWN(M_ROLLING) = FLOE_MIX_MIN,
};
_Static_assert(sizeof mat_params / sizeof mat_params[0] == N_MAT - 1, "the schema less kt_div_kn");
_Static_assert(sizeof mat_mix / sizeof mat_mix[0] == N_MAT - MAT_COMMON_COUNT, "a mixing rule per own row");

enum { LP_RESTITUTION, LP_NO_TENSION, N_LAW };
static const floe_param_spec law_params[] = {
    {"restitution", 0, 0, 1, 0, 0, "-", "coefficient of restitution for this pair (0: from the materials)"},
    {"no_tension", 0, 0, 1, 0, 0, "bool", "cut the normal damping force where the total normal force would pull"},
};

static const char *const state_names[] = {"R_eff", "S_n", "S_t", "fd_n", "fd_t", "slipping", "rolling_limit"};

/* Per contact: constants of the pair (from create) and the history. */
typedef struct hertz_state {
    double rstar;    /* effective radius R* [m] */
    double kh;       /* 4/3 E* sqrt(R*): elastic normal force kh delta^1.5 [N/m^1.5] */
    double st_c;     /* 8 G* sqrt(R*): tangential stiffness st_c sqrt(delta) [N/m^1.5] */
    double gam;      /* -2 sqrt(5/6) beta sqrt(m*): damping coefficient gam sqrt(S) [N s/m] */
    double tan_phi;  /* sliding friction coefficient */
    double roll_c;   /* 2.25 mu_r^2 R*^2: rolling stiffness roll_c k_n, k_n = F/delta [N m/rad] */
    double roll_lim; /* mu_r R*: rolling torque limit roll_lim |Fn| [m] */
    double fy, fz;   /* tangential spring force (without the damping) */
    double st;       /* tangential stiffness S_t of the last step [N/m] */
    double kr;       /* rolling stiffness of the last step [N m/rad] */
    double fdn;      /* normal damping force of the last step [N] */
} hertz_state;

/* Damping ratio of the dashpots (relative to critical damping of the
 * tangent stiffness) for a restitution e: -sqrt(5/6) beta, with beta =
 * ln e / sqrt(ln^2 e + pi^2) (Tsuji et al. 1992 form, as LIGGGHTS and EDEM;
 * docs/decisions.md#hertzmindlin-restitution-through-tsuji-damping). */
static double damping_ratio(double e) {
    if (!(e < 1)) return 0;
    double l = log(e);
    return -sqrt(5.0 / 6.0) * l / sqrt(l * l + FLOE_PI * FLOE_PI);
}

/* Stiffness seen by the critical time step for a spring k with a dashpot of
 * damping ratio z: a damped oscillator is stable up to dt = 2 (sqrt(1 + z^2) -
 * z) / omega, so k is raised by 1 / (sqrt(1 + z^2) - z)^2. */
static double damped(double k, double z) {
    double d = sqrt(1.0 + z * z) - z;
    return k / (d * d);
}

/* Radius of curvature of a body at the contact (model.h: 0 unknown -> the
 * contact's lens, INFINITY flat). */
static double curvature(double curv, double lens) { return curv > 0 ? curv : lens; }

extern const floe_model floe_model_hertz;

/* The pair's value of row k by its rule in the tables. */
static double pair(const double *ma, const double *mb, int k) { return floe_mat_pair(&floe_model_hertz, ma, mb, k); }

static void hertz_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state) {
    hertz_state *s = state;
    (void)c;
    const double *lens = ctx->lens;
    double ra = curvature(ctx->curv[0], lens[0]), rb = curvature(ctx->curv[1], lens[1]);
    /* 1/R* = 1/R_A + 1/R_B; a flat body adds nothing */
    s->rstar = 1.0 / ((isinf(ra) ? 0 : 1.0 / ra) + (isinf(rb) ? 0 : 1.0 / rb));
    double na = ma[M_POISSON], nb = mb[M_POISSON], ea = ma[MAT_YOUNG], eb = mb[MAT_YOUNG];
    double estar = 1.0 / ((1 - na * na) / ea + (1 - nb * nb) / eb);
    /* G = E / (2 (1 + nu)); 1/G* = (2 - nu_A)/G_A + (2 - nu_B)/G_B */
    double gstar = 1.0 / (2 * (2 - na) * (1 + na) / ea + 2 * (2 - nb) * (1 + nb) / eb);
    double sr = sqrt(s->rstar);
    s->kh = 4.0 / 3.0 * estar * sr;
    s->st_c = 8.0 * gstar * sr;
    double e = ctx->lp[LP_RESTITUTION] > 0 ? ctx->lp[LP_RESTITUTION] : pair(ma, mb, M_RESTITUTION);
    double mc = floe_contact_mass(ctx);
    s->gam = isfinite(mc) ? 2.0 * damping_ratio(e) * sqrt(mc) : 0;
    s->tan_phi = pair(ma, mb, MAT_TAN_PHI);
    double mur = pair(ma, mb, M_ROLLING);
    s->roll_c = 2.25 * mur * mur * s->rstar * s->rstar;
    s->roll_lim = mur * s->rstar;
    s->fy = s->fz = s->st = s->kr = s->fdn = 0;
}

/* A two-component spring (y, z) whose stiffness changes from k0 to k over
 * the step: the force before the step (y0, z0), scaled down with the
 * stiffness while it falls
 * (docs/decisions.md#hertzmindlin-tangential-spring-under-a-changing-stiffness),
 * the increment k (dy, dz), then the limit lim (lim < 0: none). Returns the
 * energy the spring did not keep: the work of the mid-step force over the
 * displacement less the change of its stored energy (slip work, and the
 * micro-slip of a stiffness that changes under a loaded spring). */
static double spring2(double k0, double k, double y0, double z0, double dy, double dz, double lim, double *y, double *z,
                      int *at_limit) {
    double r = k < k0 ? k / k0 : 1.0;
    double ty = r * y0 + k * dy, tz = r * z0 + k * dz, t2 = ty * ty + tz * tz;
    *at_limit = lim >= 0 && t2 > lim * lim;
    double q = *at_limit ? lim / sqrt(t2) : 1.0;
    *y = q * ty;
    *z = q * tz;
    double e0 = k0 > 0 ? 0.5 * (y0 * y0 + z0 * z0) / k0 : 0, e1 = k > 0 ? 0.5 * (*y * *y + *z * *z) / k : 0;
    double work = 0.5 * ((y0 + *y) * dy + (z0 + *z) * dz) * (k > 0 ? 1.0 : 0.0);
    return k > 0 ? work - (e1 - e0) : e0; /* a spring that vanishes lets go of what it held */
}

/* Overlap at which the contact's normal kinetic energy, turned into Hertz
 * elastic energy, stops the approach: the largest overlap the contact can
 * reach if nothing else acts (the peak overlap of an impact). */
static double peak_overlap(const floe_law_ctx *ctx, const hertz_state *s, double delta) {
    double mc = floe_contact_mass(ctx), en = 0.4 * s->kh * pow(delta, 2.5);
    if (isfinite(mc)) en += 0.5 * mc * ctx->vel.x * ctx->vel.x;
    return en > 0 ? pow(en / (0.4 * s->kh), 0.4) : delta;
}

static int hertz_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    hertz_state *s = state;
    const double dt = ctx->dt, delta = -ctx->g->uN;
    const vec3 v = ctx->vel, w = ctx->angvel;
    if (!(delta > 0)) {
        /* the contact opens: the damping force of the last step still did
         * its half step of work; the springs hold nothing in the limit
         * delta -> 0 (Fn -> 0, |Ft| <= mu |Fn|), what is left is the
         * sampling error of the opening step */
        e->dashpot += 0.5 * s->fdn * v.x * dt + 0.5 * ((c->f.y - s->fy) * v.y + (c->f.z - s->fz) * v.z) * dt;
        return 0;
    }
    const double sd = sqrt(delta);
    const double fe = -s->kh * delta * sd; /* elastic normal force, on A: compression < 0 */
    const double sn = 1.5 * s->kh * sd;    /* S_n = 2 E* sqrt(R* delta) = dF/d(delta) */
    const double st = s->st_c * sd;        /* S_t = 8 G* sqrt(R* delta) */

    /* normal damping: gamma_n = gam sqrt(S_n), on A along the relative velocity */
    double fdn = s->gam * sqrt(sn) * v.x;
    if (ctx->lp[LP_NO_TENSION] != 0 && fe + fdn > 0) fdn = -fe;

    /* tangential: incremental spring, scaled while unloading, Coulomb limit on the elastic normal force */
    const double fdy0 = c->f.y - s->fy, fdz0 = c->f.z - s->fz; /* last step's tangential damping */
    double fy, fz;
    int slip;
    double lost = spring2(s->st, st, s->fy, s->fz, v.y * dt, v.z * dt, s->tan_phi * -fe, &fy, &fz, &slip);
    /* tangential damping while sticking (as LIGGGHTS: none while sliding) */
    double gt = slip ? 0.0 : s->gam * sqrt(st), fdy = gt * v.y, fdz = gt * v.z;

    /* rolling: elastic-plastic spring k_r = 2.25 mu_r^2 R*^2 k_n with the
     * normal stiffness k_n = F/delta, limit mu_r R* |Fn| (Ai et al. 2011) */
    double kr = s->roll_c * s->kh * sd, my = 0, mz = 0;
    int rlim = 0;
    if (s->roll_c > 0)
        lost += spring2(s->kr, kr, ctx->warm->m.y, ctx->warm->m.z, w.y * dt, w.z * dt, s->roll_lim * -fe, &my, &mz,
                        &rlim);

    /* energies: the Hertz spring stores 2/5 F delta; damping work by the
     * trapezoid of this and the last step's force, as leapfrog applies them */
    e->elastic += 0.4 * -fe * delta + (st > 0 ? 0.5 * (fy * fy + fz * fz) / st : 0) +
                  (kr > 0 ? 0.5 * (my * my + mz * mz) / kr : 0);
    e->plastic += lost;
    e->dashpot += 0.5 * ((s->fdn + fdn) * v.x + (fdy0 + fdy) * v.y + (fdz0 + fdz) * v.z) * dt;

    c->f = v3(fe + fdn, fy + fdy, fz + fdz);
    ctx->warm->m = v3(0, my, mz);
    s->fy = fy;
    s->fz = fz;
    s->st = st;
    s->fdn = fdn;
    s->kr = kr;
    /* the critical step sees the stiffness at the peak overlap this contact
     * can reach, raised for its damping
     * (docs/decisions.md#hertzmindlin-critical-step-at-the-peak-overlap) */
    double sp = sqrt(peak_overlap(ctx, s, delta)), z = s->gam > 0 ? s->gam / (2.0 * sqrt(floe_contact_mass(ctx))) : 0;
    c->kn = damped(1.5 * s->kh * sp, z);
    c->kt = damped(s->st_c * sp, z);
    ctx->warm->kr = s->roll_c * s->kh * sp;
    return 1;
}

static void hertz_get_state(const floe_contact *c, const floe_geom *g, const floe_contact_warm *x, const void *state,
                            double *out) {
    const hertz_state *s = state;
    double delta = g->uN < 0 ? -g->uN : 0, sd = sqrt(delta);
    double fe = s->kh * delta * sd, dy = c->f.y - s->fy, dz = c->f.z - s->fz;
    double ft2 = s->fy * s->fy + s->fz * s->fz, lim = s->tan_phi * fe;
    double m2 = x->m.y * x->m.y + x->m.z * x->m.z, mlim = s->roll_lim * fe;
    out[0] = s->rstar;
    out[1] = 1.5 * s->kh * sd;
    out[2] = s->st_c * sd;
    out[3] = s->fdn;
    out[4] = sqrt(dy * dy + dz * dz);
    out[5] = s->tan_phi > 0 && ft2 > 0 && fabs(sqrt(ft2) - lim) <= 1e-9 * lim;
    out[6] = s->roll_lim > 0 && m2 > 0 && fabs(sqrt(m2) - mlim) <= 1e-9 * mlim;
}

const floe_model floe_model_hertz = {
    .info = {"hertz", "Hertz-Mindlin (no slip): Hertz normal force, Mindlin tangential stiffness, Tsuji damping",
             mat_params, N_MAT - 1, law_params, N_LAW, state_names, 7},
    .state_size = sizeof(hertz_state),
    .create = hertz_create,
    .law = hertz_law,
    .get_state = hertz_get_state,
    .mat_unread = 1u << MAT_KT_DIV_KN,
    .mat_mix = mat_mix,
};
