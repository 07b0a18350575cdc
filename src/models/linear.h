/* The Linear model's contact state and law, inline: the contact pass calls
 * the law directly (step.c) and the batched kernel runs its force
 * (core/batch.c). */
#ifndef FLOE_MODELS_LINEAR_H
#define FLOE_MODELS_LINEAR_H

#include "models/model.h"

enum { LP_NO_SLIP, LP_NO_BREAK, LP_INI_EQLB, LP_KN, LP_KT, LP_DP_NRATIO, LP_DP_SRATIO, LP_DP_MODE };

/* Six doubles: what the next step needs. The dashpot forces and the slip
 * state of the outputs are derived from these and the contact's force. */
typedef struct linear_state {
    double uN0, tan_phi, cn, cs; /* dashpot coefficients [N s/m] */
    double fy, fz;               /* shear spring force (without dashpot) */
} linear_state;

/* Per-step energies of one Linear contact. */
typedef struct floe_linear_energy {
    double elastic, plastic, dashpot;
} floe_linear_energy;

/* Force (local frame, on A) of a Linear contact that stays, from the
 * normal displacement u and the relative velocity vel; updates the shear
 * spring in s. Written with selects instead of branches so that the batched
 * kernel vectorizes the same code the law runs. */
FLOE_KERNEL vec3 floe_linear_force(double dt, double kn, double kt, double u, vec3 vel, double no_slip, double dp_mode,
                                   linear_state *s, floe_linear_energy *e) {
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
static inline int floe_linear_opens(double u, double no_break) { return u > 0 && no_break == 0; }

static inline int floe_linear_law(const floe_law_ctx *ctx, floe_contact *c, linear_state *s, floe_energy_acc *e) {
    const double *lp = ctx->lp;
    double u = c->g.uN - s->uN0;
    if (floe_linear_opens(u, lp[LP_NO_BREAK])) {
        /* Opening at u = 0 releases nothing in the continuum limit: Fn -> 0 and
         * |Ft| <= tan_phi |Fn|. Only an uncapped (no_slip) shear spring takes
         * real energy with it. */
        if (lp[LP_NO_SLIP] != 0 && c->kt > 0) {
            vec3 ft = v3(0, s->fy, s->fz);
            e->broken += floe_deletion_loss(ctx, ft, v3(0, 0, 0), 0.5 * vlen2(ft) / c->kt);
        }
        return 0;
    }
    floe_linear_energy le;
    c->f = floe_linear_force(ctx->dt, c->kn, c->kt, u, ctx->vel, lp[LP_NO_SLIP], lp[LP_DP_MODE], s, &le);
    c->m = v3(0, 0, 0);
    e->plastic += le.plastic;
    e->dashpot += le.dashpot;
    e->elastic += le.elastic;
    return 1;
}

extern const floe_model floe_model_linear;

#endif
