#include "l6geom/l6geom.h"

void floe_l6geom_create(floe_geom *g, double *area, double lens[2], const floe_raw_contact *r, int legacy_lens) {
    vec3 n = r->n;
    /* first tangent: perpendicular to n, built from the axis least aligned with it */
    vec3 aux = fabs(n.y) < fabs(n.z) ? v3(0, 1, 0) : v3(0, 0, 1);
    vec3 t = vcross(n, aux);
    t = vnormalize(vsub(t, vscale(n, vdot(t, n))));
    g->n = n;
    g->t1 = t;
    g->c = r->c;
    g->uN = r->uN;
    double r1 = fabs(r->r1), r2 = fabs(r->r2);
    lens[0] = legacy_lens ? r1 + 0.5 * r->uN : r1;
    lens[1] = legacy_lens ? r2 + 0.5 * r->uN : r2;
    if (lens[0] < 0) lens[0] = lens[1];
    if (lens[1] < 0) lens[1] = lens[0];
    /* area from the raw radii, never reduced by the overlap
     * (docs/decisions.md#contact-lengths-and-area-the-lens-rule-g3) */
    double rho = (r->r1 > 0 && r->r2 > 0) ? fmin(r->r1, r->r2) : (r->r1 > 0 ? r->r1 : r->r2);
    *area = FLOE_PI * rho * rho;
}
