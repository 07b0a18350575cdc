/* Test helper: the exact stability limit of one contact between two
 * bodies, from the 12 x 12 stiffness matrix of the pair built here from
 * first principles and its eigenvalues by Jacobi rotations: independent of
 * the engine's own estimate (src/core/timestep.c).
 *
 * The relative displacement at the contact point c of bodies A (at xa) and
 * B (at xb), DOFs (u_a, th_a, u_b, th_b), is
 *   d = u_b + th_b x (c - xb) - u_a - th_a x (c - xa),
 * and the relative rotation th_b - th_a. Springs: kn on d.n, kt on d.t1 and
 * d.t2, kw on the relative rotation about n, kr about t1 and t2; K =
 * sum k b b' over their rows b. Leapfrog is stable for dt < 2 / sqrt(Lambda),
 * Lambda the largest eigenvalue of M^-1/2 K M^-1/2 over the free DOFs
 * (a fixed body: its rows and columns left out). */
#ifndef FLOE_TEST_PAIR_MODES_H
#define FLOE_TEST_PAIR_MODES_H

#include <floe/floe.h>
#include <math.h>
#include <string.h>

typedef struct pm_vec {
    double v[3];
} pm_vec;

static pm_vec pm_cross(const double a[3], const double b[3]) {
    pm_vec r = {{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
    return r;
}

/* Largest eigenvalue of the symmetric n x n matrix a (row-major, n <= 12;
 * overwritten), by cyclic Jacobi sweeps until the off-diagonal part
 * vanishes to rounding. */
static double pm_max_eig(double *a, int n) {
    for (int sweep = 0; sweep < 100; sweep++) {
        double off = 0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
        if (off < 1e-40) break;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++) {
                double apq = a[p * n + q];
                if (fabs(apq) < 1e-300) continue;
                double th = (a[q * n + q] - a[p * n + p]) / (2 * apq);
                double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < n; k++) {
                    double akp = a[k * n + p], akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for (int k = 0; k < n; k++) {
                    double apk = a[p * n + k], aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
            }
    }
    double best = 0;
    for (int i = 0; i < n; i++) best = fmax(best, a[i * n + i]);
    return best;
}

/* The exact critical step of one contact: bodies of mass ma, mb and
 * (isotropic) moments Ia, Ib at xa, xb, contact point c, normal n, tangent
 * t1; b_fixed: B does not move (a wall, a fixed body). */
static double pm_exact_dt(double ma, double Ia, double mb, double Ib, const double xa[3], const double xb[3],
                          const double c[3], const double n[3], const double t1[3], double kn, double kt, double kw,
                          double kr, int b_fixed) {
    double ra[3], rb[3];
    for (int k = 0; k < 3; k++) ra[k] = c[k] - xa[k], rb[k] = c[k] - xb[k];
    pm_vec t2 = pm_cross(n, t1);
    const double *e[3] = {n, t1, t2.v};
    double K[144];
    memset(K, 0, sizeof K);
    for (int r = 0; r < 6; r++) {
        double b[12] = {0}, k;
        int j = r % 3;
        if (r < 3) { /* force rows: d.e = e.u_b + th_b.(rb x e) - e.u_a - th_a.(ra x e) */
            k = j ? kt : kn;
            pm_vec xa_e = pm_cross(ra, e[j]), xb_e = pm_cross(rb, e[j]);
            for (int q = 0; q < 3; q++) {
                b[q] = -e[j][q];
                b[3 + q] = -xa_e.v[q];
                b[6 + q] = e[j][q];
                b[9 + q] = xb_e.v[q];
            }
        } else { /* rotation rows: (th_b - th_a).e */
            k = j ? kr : kw;
            for (int q = 0; q < 3; q++) {
                b[3 + q] = -e[j][q];
                b[9 + q] = e[j][q];
            }
        }
        for (int p = 0; p < 12; p++)
            for (int q = 0; q < 12; q++) K[p * 12 + q] += k * b[p] * b[q];
    }
    const double inv[4] = {1 / sqrt(ma), 1 / sqrt(Ia), 1 / sqrt(mb), 1 / sqrt(Ib)};
    int nf = b_fixed ? 6 : 12;
    double A[144];
    for (int p = 0; p < nf; p++)
        for (int q = 0; q < nf; q++) A[p * nf + q] = K[p * 12 + q] * inv[p / 3] * inv[q / 3];
    return 2 / sqrt(pm_max_eig(A, nf));
}

#endif
