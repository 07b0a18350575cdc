/* Clumps: rigid unions of overlapping spheres (pebbles). This file holds
 * the union's mass properties: volume, centroid and inertia counted once
 * where pebbles overlap, and the principal axes (docs/clumps.md). */
#include "shapes/shape.h"

#include <stdlib.h>

/* Columns per side of the quadrature's grid by default. */
#define UNION_CELLS 512

/* ---- the union's moments ---------------------------------------------------
 * Along z the union of the spheres a column (x, y) crosses is a union of
 * intervals, merged exactly, so the moments in z are exact; across (x, y)
 * the midpoint rule on a square grid over the union's box. A chord's
 * length goes as a square root at the silhouette, which limits the rule's
 * error to about cells^-1.5 of the volume (docs/clumps.md: the lens of two
 * spheres, 512 cells: relative errors below 1e-5 in volume and 1e-4 in
 * inertia, tests/test_clump.c). */

typedef struct span {
    double a, b;
} span;

static int by_start(const void *x, const void *y) {
    double a = ((const span *)x)->a, b = ((const span *)y)->a;
    return (a > b) - (a < b);
}

void floe_union_moments(int n, const double (*peb)[4], int cells, double *vol, vec3 *centroid, double J[9]) {
    if (cells <= 0) cells = UNION_CELLS;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < n; k++)
        for (int d = 0; d < 2; d++) {
            lo[d] = fmin(lo[d], peb[k][d] - peb[k][3]);
            hi[d] = fmax(hi[d], peb[k][d] + peb[k][3]);
        }
    const double hx = (hi[0] - lo[0]) / cells, hy = (hi[1] - lo[1]) / cells, dA = hx * hy;
    /* sums of 1, x, y, z, xx, yy, zz, xy, xz, yz over the volume */
    double s[10] = {0};
    span sp[FLOE_UNION_MAX];
    for (int i = 0; i < cells; i++) {
        const double x = lo[0] + (i + 0.5) * hx;
        double c[10] = {0}; /* this row's sums, added once: less rounding */
        for (int j = 0; j < cells; j++) {
            const double y = lo[1] + (j + 0.5) * hy;
            int m = 0;
            for (int k = 0; k < n && k < FLOE_UNION_MAX; k++) {
                double dx = x - peb[k][0], dy = y - peb[k][1], h2 = peb[k][3] * peb[k][3] - dx * dx - dy * dy;
                if (h2 <= 0) continue;
                double h = sqrt(h2);
                sp[m++] = (span){peb[k][2] - h, peb[k][2] + h};
            }
            if (!m) continue;
            if (m > 1) qsort(sp, (size_t)m, sizeof *sp, by_start);
            double L = 0, Z = 0, ZZ = 0, a = sp[0].a, b = sp[0].b;
            for (int k = 1; k <= m; k++) {
                if (k < m && sp[k].a <= b) {
                    b = fmax(b, sp[k].b);
                    continue;
                }
                L += b - a;
                Z += 0.5 * (b * b - a * a);
                ZZ += (b * b * b - a * a * a) / 3.0;
                if (k < m) {
                    a = sp[k].a;
                    b = sp[k].b;
                }
            }
            c[0] += L;
            c[1] += x * L;
            c[2] += y * L;
            c[3] += Z;
            c[4] += x * x * L;
            c[5] += y * y * L;
            c[6] += ZZ;
            c[7] += x * y * L;
            c[8] += x * Z;
            c[9] += y * Z;
        }
        for (int k = 0; k < 10; k++) s[k] += c[k] * dA;
    }
    *vol = s[0];
    vec3 g = v3(s[1] / s[0], s[2] / s[0], s[3] / s[0]);
    *centroid = g;
    /* second moments about the centroid, then I = tr(S) 1 - S */
    double xx = s[4] - s[0] * g.x * g.x, yy = s[5] - s[0] * g.y * g.y, zz = s[6] - s[0] * g.z * g.z;
    double xy = s[7] - s[0] * g.x * g.y, xz = s[8] - s[0] * g.x * g.z, yz = s[9] - s[0] * g.y * g.z;
    J[0] = yy + zz;
    J[4] = xx + zz;
    J[8] = xx + yy;
    J[1] = J[3] = -xy;
    J[2] = J[6] = -xz;
    J[5] = J[7] = -yz;
}

void floe_sym3_eigen(const double J[9], double ev[3], double R[9]) {
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a[i][j] = J[3 * i + j];
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double scale = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (off <= 1e-300 || off <= 1e-17 * scale) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0) continue;
                double th = 0.5 * (a[q][q] - a[p][p]) / a[p][q];
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) { /* A <- A G */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* A <- G^T A */
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int o[3] = {0, 1, 2}; /* ascending */
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[o[j]][o[j]] < a[o[i]][o[i]]) {
                int t = o[i];
                o[i] = o[j];
                o[j] = t;
            }
    for (int j = 0; j < 3; j++) {
        ev[j] = a[o[j]][o[j]];
        for (int i = 0; i < 3; i++) R[3 * i + j] = v[i][o[j]];
    }
    /* right-handed: the third column is the cross product of the first two */
    vec3 c0 = v3(R[0], R[3], R[6]), c1 = v3(R[1], R[4], R[7]), c2 = vcross(c0, c1);
    R[2] = c2.x;
    R[5] = c2.y;
    R[8] = c2.z;
}

quat floe_quat_of_matrix(const double R[9]) {
    double tr = R[0] + R[4] + R[8];
    quat q;
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q = (quat){0.25 * s, (R[7] - R[5]) / s, (R[2] - R[6]) / s, (R[3] - R[1]) / s};
    } else if (R[0] > R[4] && R[0] > R[8]) {
        double s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
        q = (quat){(R[7] - R[5]) / s, 0.25 * s, (R[1] + R[3]) / s, (R[2] + R[6]) / s};
    } else if (R[4] > R[8]) {
        double s = 2 * sqrt(1 + R[4] - R[0] - R[8]);
        q = (quat){(R[2] - R[6]) / s, (R[1] + R[3]) / s, 0.25 * s, (R[5] + R[7]) / s};
    } else {
        double s = 2 * sqrt(1 + R[8] - R[0] - R[4]);
        q = (quat){(R[3] - R[1]) / s, (R[2] + R[6]) / s, (R[5] + R[7]) / s, 0.25 * s};
    }
    return qnormalize(q);
}
