/* The Linear model's contact state and law, inline so that the contact
 * pass calls the law directly for the most common contacts (step.c). */
#ifndef FLOE_MODELS_LINEAR_H
#define FLOE_MODELS_LINEAR_H

#include "models/model.h"

enum { LP_NO_SLIP, LP_NO_BREAK, LP_INI_EQLB, LP_KN, LP_KT, LP_DP_NRATIO, LP_DP_SRATIO, LP_DP_MODE };

typedef struct linear_state {
    double uN0, tan_phi, cn, cs; /* dashpot coefficients [N s/m] */
    double fy, fz;               /* shear spring force (without dashpot) */
    double fdn, fds;             /* dashpot force magnitudes, for output */
    int slipping;
} linear_state;

static inline double floe_linear_elastic(const floe_contact *c, const linear_state *s, double fn) {
    double e = 0.5 * fn * fn / c->kn;
    if (c->kt > 0) e += 0.5 * (s->fy * s->fy + s->fz * s->fz) / c->kt;
    return e;
}

static inline int floe_linear_law(const floe_law_ctx *ctx, floe_contact *c, linear_state *s, floe_energy_acc *e) {
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
    e->elastic += floe_linear_elastic(c, s, fn);
    return 1;
}

extern const floe_model floe_model_linear;

#endif
