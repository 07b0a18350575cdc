/* The mass properties of a union of overlapping spheres
 * (floe_union_moments, src/shapes/clump.c) against closed forms.
 *
 * Two spheres on the z axis (radii R1, R2, centres z1 < z2, overlapping):
 * every plane z = const cuts both in concentric discs, so the union's
 * section is the larger disc, a(z)^2 = max(R1^2 - (z - z1)^2,
 * R2^2 - (z - z2)^2). The two parabolas cross at the radical plane
 * z0 = (d^2 + R1^2 - R2^2) / (2 d) + z1. Volume and moments are then
 * integrals of polynomials in z on [z1 - R1, z0] and [z0, z2 + R2],
 * integrated exactly below: V = int pi a^2, S_z = int pi a^2 z,
 * S_zz = int pi a^2 z^2, and about the axis int (x^2 + y^2) = int pi a^4 / 2.
 * This is the union counted once (the lens of the two spheres once), i.e.
 * V = V1 + V2 - V_lens with the lens volume
 * pi (R1 + R2 - d)^2 (d^2 + 2 d (R1 + R2) - 3 (R1 - R2)^2) / (12 d),
 * which is checked too.
 *
 * Tolerances: the quadrature's documented error (docs/clumps.md): 1e-5
 * relative on the volume, 1e-4 on the moments, at the default 512 columns
 * per side; a coarser grid (64) must be worse than the fine one, so the
 * test also sees the rule converge. */
#include "check.h"
#include "shapes/shape.h"

/* int_{lo}^{hi} pi (R^2 - (z - c)^2) z^p dz, and of pi/2 (R^2 - (z - c)^2)^2 (p = -1) */
static double slab(double R, double c, double lo, double hi, int p) {
    /* substitute u = z - c: the polynomial in u, its antiderivative exact */
    double s = 0;
    for (int side = 0; side < 2; side++) {
        double u = (side ? hi : lo) - c, v;
        double R2 = R * R;
        if (p == 0) v = R2 * u - u * u * u / 3;
        else if (p == 1) /* (R^2 - u^2)(u + c) */ v = R2 * u * u / 2 - u * u * u * u / 4 + c * (R2 * u - u * u * u / 3);
        else if (p == 2) /* (R^2 - u^2)(u + c)^2 */
            v = R2 * (u * u * u / 3 + c * u * u + c * c * u) -
                (u * u * u * u * u / 5 + c * u * u * u * u / 2 + c * c * u * u * u / 3);
        else /* (R^2 - u^2)^2 / 2 */ v = 0.5 * (R2 * R2 * u - 2 * R2 * u * u * u / 3 + u * u * u * u * u / 5);
        s += side ? v : -v;
    }
    return FLOE_PI * s;
}

typedef struct exact {
    double V, zc, Iaxis, Iperp; /* per unit density; Iperp about the centroid */
} exact;

static exact two_spheres(double R1, double z1, double R2, double z2) {
    double d = z2 - z1, z0 = z1 + (d * d + R1 * R1 - R2 * R2) / (2 * d);
    double lo = z1 - R1, hi = z2 + R2;
    double m[4];
    for (int p = 0; p < 3; p++) m[p] = slab(R1, z1, lo, z0, p) + slab(R2, z2, z0, hi, p);
    m[3] = slab(R1, z1, lo, z0, 3) + slab(R2, z2, z0, hi, 3);
    exact e;
    e.V = m[0];
    e.zc = m[1] / m[0];
    e.Iaxis = m[3];
    /* about a transverse axis through the centroid: int x^2 + int z^2 - V zc^2, int x^2 = int pi a^4 / 4 */
    e.Iperp = 0.5 * m[3] + m[2] - m[0] * e.zc * e.zc;
    return e;
}

static void check_pair(double R1, double R2, double d, int cells, double tv, double ti) {
    exact e = two_spheres(R1, 0.0, R2, d);
    double lens = FLOE_PI * (R1 + R2 - d) * (R1 + R2 - d) * (d * d + 2 * d * (R1 + R2) - 3 * (R1 - R2) * (R1 - R2)) /
                  (12 * d);
    CHECK_REL(e.V, 4.0 / 3.0 * FLOE_PI * (R1 * R1 * R1 + R2 * R2 * R2) - lens, 1e-13); /* the slices agree */
    /* the pair placed off the axes and turned: the quadrature does not
     * lean on the grid's alignment */
    vec3 ax = vnormalize(v3(0.3, -0.5, 0.8)), o = v3(0.2, 0.1, -0.3);
    double peb[2][4] = {{o.x, o.y, o.z, R1}, {o.x + d * ax.x, o.y + d * ax.y, o.z + d * ax.z, R2}};
    double V, J[9], ev[3], R[9];
    vec3 g;
    floe_union_moments(2, (const double(*)[4])peb, cells, &V, &g, J);
    floe_sym3_eigen(J, ev, R);
    vec3 gw = vmadd(o, ax, e.zc);
    REPORT("R1 %g R2 %g d %g cells %d: V %.10g (exact %.10g, rel %.2e), Iaxis rel %.2e, Iperp rel %.2e, centroid "
           "off %.2e\n",
           R1, R2, d, cells, V, e.V, fabs(V - e.V) / e.V, fabs(ev[0] - e.Iaxis) / e.Iaxis,
           fabs(ev[2] - e.Iperp) / e.Iperp, vlen(vsub(g, gw)));
    CHECK_REL(V, e.V, tv);
    CHECK_NEAR(vlen(vsub(g, gw)), 0, tv * (R1 + R2 + d));
    /* the axial moment is the smallest (the union is longer than wide), the two transverse ones equal */
    CHECK_REL(ev[0], e.Iaxis, ti);
    CHECK_REL(ev[1], e.Iperp, ti);
    CHECK_REL(ev[2], e.Iperp, ti);
    /* the principal axis of the smallest moment is the line of centres */
    CHECK_NEAR(fabs(R[0] * ax.x + R[3] * ax.y + R[6] * ax.z), 1, ti);
}

int main(void) {
    /* equal spheres half overlapping, unequal ones, a slight overlap */
    check_pair(1.0, 1.0, 1.0, 0, 1e-5, 1e-4);
    check_pair(1.0, 0.6, 0.9, 0, 1e-5, 1e-4);
    check_pair(0.5, 0.5, 0.95, 0, 1e-5, 1e-4);
    /* coarse grid: worse, but still within a percent */
    check_pair(1.0, 1.0, 1.0, 64, 1e-2, 1e-2);

    /* one sphere: 4/3 pi r^3 and 2/5 V r^2 */
    double one[1][4] = {{0.3, -0.2, 0.1, 0.5}}, V, J[9];
    vec3 g;
    floe_union_moments(1, (const double(*)[4])one, 0, &V, &g, J);
    CHECK_REL(V, 4.0 / 3.0 * FLOE_PI * 0.125, 1e-5);
    CHECK_REL(J[0], 0.4 * V * 0.25, 1e-4);
    CHECK_NEAR(J[1], 0, 1e-6 * J[0]);

    /* a sphere inside another counts once: the union is the big one */
    double nested[2][4] = {{0, 0, 0, 1}, {0.2, 0.1, 0, 0.5}};
    floe_union_moments(2, (const double(*)[4])nested, 0, &V, &g, J);
    CHECK_REL(V, 4.0 / 3.0 * FLOE_PI, 1e-5);

    /* the quaternion of the eigenvectors turns the body axes onto them */
    double Js[9] = {3, 1, 0.5, 1, 2, 0.2, 0.5, 0.2, 1}, ev[3], R[9];
    floe_sym3_eigen(Js, ev, R);
    quat q = floe_quat_of_matrix(R);
    for (int j = 0; j < 3; j++) {
        vec3 e = qrotate(q, v3(j == 0, j == 1, j == 2));
        CHECK_NEAR(vlen(vsub(e, v3(R[j], R[3 + j], R[6 + j]))), 0, 1e-12);
        /* J r = ev r */
        vec3 Jr = v3(Js[0] * e.x + Js[1] * e.y + Js[2] * e.z, Js[3] * e.x + Js[4] * e.y + Js[5] * e.z,
                     Js[6] * e.x + Js[7] * e.y + Js[8] * e.z);
        CHECK_NEAR(vlen(vsub(Jr, vscale(e, ev[j]))), 0, 1e-12);
    }
    CHECK(ev[0] <= ev[1] && ev[1] <= ev[2]);
    return check_failures != 0;
}
