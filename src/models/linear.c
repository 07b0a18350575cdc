/* Linear (Cundall) model: linear normal spring, incremental shear spring with
 * a Coulomb limit (woo-models §3, DECISIONS L1, G5). */
#include "models/model.h"

static const floe_param_spec mat_params[] = {
    {"density", 1000, 0, INFINITY, 1, 1, "kg/m^3", "mass density"},
    {"young", 1e9, 0, INFINITY, 1, 1, "Pa", "Young's modulus"},
    {"kt_div_kn", 0.2, 0, INFINITY, 0, 1, "-", "shear to normal stiffness ratio (averaged)"},
    {"tan_phi", 0.5, 0, INFINITY, 0, 1, "-", "tangent of the friction angle (min of the pair)"},
};

enum { LP_NO_SLIP, LP_NO_BREAK, LP_INI_EQLB };
static const floe_param_spec law_params[] = {
    {"no_slip", 0, 0, 1, 0, 0, "bool", "no Coulomb limit: shear stays elastic"},
    {"no_break", 0, 0, 1, 0, 0, "bool", "keep contacts that open (uN > 0), carrying tension"},
    {"ini_eqlb", 0, 0, 1, 0, 0, "bool", "measure uN from the overlap at creation (zero initial force)"},
};

static const char *const state_names[] = {"uN0"};

typedef struct linear_state { double uN0, tan_phi; } linear_state;

static void linear_create(const double *lp, const double *ma, const double *mb, int64_t step,
                          floe_contact *c, void *state) {
    linear_state *s = state;
    const floe_geom *g = &c->g;
    c->kn = floe_series_kn(g->lens[0], g->lens[1], ma[MAT_YOUNG], mb[MAT_YOUNG], g->area);
    c->kt = 0.5 * (ma[MAT_KT_DIV_KN] + mb[MAT_KT_DIV_KN]) * c->kn;
    s->tan_phi = fmin(ma[MAT_TAN_PHI], mb[MAT_TAN_PHI]);
    s->uN0 = lp[LP_INI_EQLB] != 0 ? g->uN : 0.0;
}

static double elastic(const floe_contact *c) {
    double e = 0.5 * c->f.x * c->f.x / c->kn;
    if (c->kt > 0) e += 0.5 * (c->f.y * c->f.y + c->f.z * c->f.z) / c->kt;
    return e;
}

static int linear_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    linear_state *s = state;
    double u = c->g.uN - s->uN0;
    if (u > 0 && ctx->lp[LP_NO_BREAK] == 0) {
        /* Opening at u = 0 releases nothing in the continuum limit: Fn -> 0 and
         * |Ft| <= tan_phi |Fn|. Only an uncapped (no_slip) shear spring takes
         * real energy with it. */
        if (ctx->lp[LP_NO_SLIP] != 0 && c->kt > 0) {
            vec3 ft = v3(0, c->f.y, c->f.z);
            e->broken += floe_deletion_loss(&c->g, ft, v3(0, 0, 0), 0.5 * vlen2(ft) / c->kt, ctx->dt);
        }
        return 0;
    }
    c->f.x = c->kn * u;
    if (s->tan_phi == 0) {
        c->f.y = c->f.z = 0;
    } else {
        double oy = c->f.y, oz = c->f.z;
        c->f.y += ctx->dt * c->kt * c->g.vel.y;
        c->f.z += ctx->dt * c->kt * c->g.vel.z;
        double fy = fabs(c->f.x) * s->tan_phi;
        double ft2 = c->f.y * c->f.y + c->f.z * c->f.z;
        if (ft2 > fy * fy && ctx->lp[LP_NO_SLIP] == 0) {
            double r = fy / sqrt(ft2);
            e->plastic += floe_slip_work(oy, oz, c->f.y, c->f.z, r, c->kt);
            c->f.y *= r;
            c->f.z *= r;
        }
    }
    c->m = v3(0, 0, 0);
    e->elastic += elastic(c);
    return 1;
}

static void linear_get_state(const floe_contact *c, const void *state, double *out) {
    const linear_state *s = state;
    out[0] = s->uN0;
}

const floe_model floe_model_linear = {
    .info = {"linear", "Linear (Cundall) elastic-frictional model",
             mat_params, 4, law_params, 3, state_names, 1},
    .state_size = sizeof(linear_state),
    .create = linear_create,
    .law = linear_law,
    .get_state = linear_get_state,
};
