/* LinEl6: purely elastic springs in all six relative DOFs, for testing
 * (Woo's LinEl6). Rotational stiffnesses follow Woo's documentation:
 * k_w = char_len*kn, k_b = char_len*kt (Woo's code divides instead;
 * docs/decisions.md#linel6-rotational-stiffness-l3). */
#include "models/model.h"

/* The common block without tan_phi (no friction), no rows of its own. */
static const floe_param_spec mat_params[] = {FLOE_MAT_DENSITY, FLOE_MAT_YOUNG, FLOE_MAT_KT_DIV_KN};

enum { LP_CHAR_LEN };
static const floe_param_spec law_params[] = {
    {"char_len", 1, 0, INFINITY, 1, 1, "m", "characteristic length: k_w = char_len*kn, k_b = char_len*kt"},
};

static const char *const state_names[] = {"k_w", "k_b"};

typedef struct linel6_state {
    double kw, kb;
} linel6_state;

extern const floe_model floe_model_linel6;

static void linel6_create(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state) {
    linel6_state *s = state;
    floe_contact_warm *x = ctx->warm;
    c->kn = floe_series_kn(ctx->lens[0], ctx->lens[1], ma[MAT_YOUNG], mb[MAT_YOUNG], x->area);
    c->kt = floe_mat_pair(&floe_model_linel6, ma, mb, MAT_KT_DIV_KN) * c->kn;
    s->kw = x->kw = ctx->lp[LP_CHAR_LEN] * c->kn;
    s->kb = x->kr = ctx->lp[LP_CHAR_LEN] * c->kt;
}

static int linel6_law(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e) {
    linel6_state *s = state;
    const floe_geom *g = ctx->g;
    floe_contact_warm *x = ctx->warm;
    double dt = ctx->dt;
    c->f.x = c->kn * g->uN; /* total formulation in the normal sense */
    c->f.y += dt * c->kt * ctx->vel.y;
    c->f.z += dt * c->kt * ctx->vel.z;
    x->m.x += dt * s->kw * ctx->angvel.x;
    x->m.y += dt * s->kb * ctx->angvel.y;
    x->m.z += dt * s->kb * ctx->angvel.z;
    double el = 0.5 * c->f.x * c->f.x / c->kn;
    if (c->kt > 0) el += 0.5 * (c->f.y * c->f.y + c->f.z * c->f.z) / c->kt;
    if (s->kw > 0) el += 0.5 * x->m.x * x->m.x / s->kw;
    if (s->kb > 0) el += 0.5 * (x->m.y * x->m.y + x->m.z * x->m.z) / s->kb;
    e->elastic += el;
    return 1; /* never deletes: the contact lives while the geometry says so */
}

static void linel6_get_state(const floe_contact *c, const floe_geom *g, const floe_contact_warm *warm,
                             const void *state, double *out) {
    (void)c, (void)warm;
    const linel6_state *s = state;
    out[0] = s->kw;
    out[1] = s->kb;
}

const floe_model floe_model_linel6 = {
    .info = {"linel6", "LinEl6: linear elastic in all 6 DOFs (testing model)", mat_params, 3, law_params, 1,
             state_names, 2},
    .state_size = sizeof(linel6_state),
    .create = linel6_create,
    .law = linel6_law,
    .get_state = linel6_get_state,
    .mat_unread = 1u << MAT_TAN_PHI,
};
