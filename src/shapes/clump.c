/* Clumps: rigid unions of overlapping spheres (pebbles). This file holds
 * the union's mass properties (volume, centroid and inertia counted once
 * where pebbles overlap, and the principal axes) and the clump body's
 * class. The clump body is off the grid and meets nothing itself: its
 * pebbles, sphere bodies that follow it, make its contacts
 * (src/core/clump.c, docs/clumps.md). */
#include "shapes/shape.h"

#include <string.h>

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

/* The last lists integrated on this thread and their results: piles and
 * inlets add one template many times (its body-frame list does not change
 * with the orientation). A hit returns the very numbers the integration
 * gives, so results do not depend on what was added before. */
#define UNION_CACHE 8
typedef struct union_entry {
    int n, cells;
    double peb[FLOE_UNION_MAX][4];
    double vol, J[9];
    vec3 g;
} union_entry;
static _Thread_local union_entry cache[UNION_CACHE];
static _Thread_local int cache_next;

static void integrate(int n, const double (*peb)[4], int cells, double *vol, vec3 *centroid, double J[9]);

void floe_union_moments(int n, const double (*peb)[4], int cells, double *vol, vec3 *centroid, double J[9]) {
    if (cells <= 0) cells = UNION_CELLS;
    if (n > FLOE_UNION_MAX) n = FLOE_UNION_MAX;
    for (int e = 0; e < UNION_CACHE; e++) {
        const union_entry *c = &cache[e];
        if (c->n != n || c->cells != cells || memcmp(c->peb, peb, sizeof(double) * 4 * (size_t)n)) continue;
        *vol = c->vol;
        *centroid = c->g;
        memcpy(J, c->J, sizeof c->J);
        return;
    }
    integrate(n, peb, cells, vol, centroid, J);
    union_entry *c = &cache[cache_next];
    cache_next = (cache_next + 1) % UNION_CACHE;
    c->n = n;
    c->cells = cells;
    memcpy(c->peb, peb, sizeof(double) * 4 * (size_t)n);
    c->vol = *vol;
    c->g = *centroid;
    memcpy(c->J, J, sizeof c->J);
}

static void integrate(int n, const double (*peb)[4], int cells, double *vol, vec3 *centroid, double J[9]) {
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
        /* the pebbles this row crosses, with their squared radii in the row */
        int row[FLOE_UNION_MAX], nr = 0;
        double rho2[FLOE_UNION_MAX];
        for (int k = 0; k < n && k < FLOE_UNION_MAX; k++) {
            double dx = x - peb[k][0], r2 = peb[k][3] * peb[k][3] - dx * dx;
            if (r2 > 0) {
                rho2[nr] = r2;
                row[nr++] = k;
            }
        }
        for (int j = 0; j < cells && nr; j++) {
            const double y = lo[1] + (j + 0.5) * hy;
            int m = 0;
            for (int u = 0; u < nr; u++) {
                const int k = row[u];
                double dy = y - peb[k][1], h2 = rho2[u] - dy * dy;
                if (h2 <= 0) continue;
                double h = sqrt(h2);
                span t = {peb[k][2] - h, peb[k][2] + h};
                int v = m++; /* insertion by start: few pebbles per column */
                for (; v > 0 && sp[v - 1].a > t.a; v--) sp[v] = sp[v - 1];
                sp[v] = t;
            }
            if (!m) continue;
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

/* ---- the class ------------------------------------------------------------ */

/* A body-frame list must be about its centroid in principal axes: the
 * integrator takes the inertia as diagonal in the body frame. Allowed off
 * by ten times the quadrature's error (1e-4 of the size, of the trace), so
 * that floe_add_clump's lists, integrated again on a turned grid, pass. */
static int init(void *rec, const double *p, const floe_pose *pose, char *err, size_t errlen) {
    floe_clump *k = rec;
    memset(k, 0, sizeof *k);
    int n = 0; /* the rows up to the first of radius 0 */
    while (n < FLOE_CLUMP_MAX_PEBBLES && p[4 * n + 3] != 0) n++;
    k->n = n;
    double size = 0;
    for (int i = 0; i < FLOE_CLUMP_MAX_PEBBLES; i++) {
        for (int d = 0; d < 4; d++) k->peb[i][d] = p[4 * i + d];
        if (i < n && !(k->peb[i][3] > 0)) {
            snprintf(err, errlen, "pebble %d: radius %g must be > 0", i, k->peb[i][3]);
            return -1;
        }
        if (i >= n && (k->peb[i][0] != 0 || k->peb[i][1] != 0 || k->peb[i][2] != 0 || k->peb[i][3] != 0)) {
            snprintf(err, errlen,
                     "pebble %d: after the %d pebbles (the rows up to the first of radius 0) a row must "
                     "be zeros",
                     i, n);
            return -1;
        }
        if (i < n) size = fmax(size, vlen(v3(k->peb[i][0], k->peb[i][1], k->peb[i][2])) + k->peb[i][3]);
    }
    if (n == 0) {
        snprintf(err, errlen, "no pebbles: the first row's radius is 0");
        return -1;
    }
    vec3 g;
    double J[9];
    floe_union_moments(n, (const double(*)[4])k->peb, 0, &k->vol, &g, J);
    double tol = 1e-4 * size, off = 1e-4 * (J[0] + J[4] + J[8]);
    if (vlen(g) > tol || fabs(J[1]) > off || fabs(J[2]) > off || fabs(J[5]) > off) {
        snprintf(err, errlen,
                 "the pebbles must be given about their union's centroid (off by (%g, %g, %g) m) in its principal "
                 "axes (products of inertia %g, %g, %g per unit density); floe_add_clump places any list",
                 g.x, g.y, g.z, J[1], J[2], J[5]);
        return -1;
    }
    k->mom[0] = J[0];
    k->mom[1] = J[4];
    k->mom[2] = J[8];
    return 0;
}

static void params_of(const void *rec, const floe_pose *pose, double *p) {
    const floe_clump *k = rec;
    for (int i = 0; i < FLOE_CLUMP_MAX_PEBBLES; i++)
        for (int d = 0; d < 4; d++) p[4 * i + d] = k->peb[i][d];
}

static void mass(const void *rec, double density, double *m, vec3 *inertia) {
    const floe_clump *k = rec;
    *m = density * k->vol;
    *inertia = v3(density * k->mom[0], density * k->mom[1], density * k->mom[2]);
}

/* The radius of the sphere of the union's volume. */
static double radius(const void *rec) { return cbrt(0.75 * ((const floe_clump *)rec)->vol / FLOE_PI); }

/* The farthest pebble surface from the centroid: how far the pebbles reach
 * (the clump body itself is off the grid; its pebbles are on it). */
static double reach(const void *rec) {
    const floe_clump *k = rec;
    double r = 0;
    for (int i = 0; i < k->n; i++) r = fmax(r, vlen(v3(k->peb[i][0], k->peb[i][1], k->peb[i][2])) + k->peb[i][3]);
    return r;
}

static vec3 half_extent(const void *rec, quat q) {
    const floe_clump *k = rec;
    vec3 e = v3(0, 0, 0);
    for (int i = 0; i < k->n; i++) {
        vec3 c = qrotate(q, v3(k->peb[i][0], k->peb[i][1], k->peb[i][2]));
        double r = k->peb[i][3];
        e = v3(fmax(e.x, fabs(c.x) + r), fmax(e.y, fabs(c.y) + r), fmax(e.z, fabs(c.z) + r));
    }
    return e;
}

static const floe_shape_param params[] = {
    {.key = "pebbles",
     .item = "pebble value",
     .unit = "m",
     .kind = FLOE_PARAM_REAL,
     .n = 4 * FLOE_CLUMP_MAX_PEBBLES,
     .lo = -FLOE_MAX_COORD,
     .hi = FLOE_MAX_COORD,
     .def = NAN,
     .list = "[[x, y, z, r], ...]"},
};

static const floe_shape_field fields[] = {
    {.name = "count", .type = FLOE_FIELD_I32, .offset = offsetof(floe_clump, n)}, /* derived by init */
    {.name = "pebbles",
     .type = FLOE_FIELD_F64,
     .rows = FLOE_CLUMP_MAX_PEBBLES,
     .cols = 4,
     .offset = offsetof(floe_clump, peb),
     .length = 1},
    {.name = "volume", .type = FLOE_FIELD_F64, .offset = offsetof(floe_clump, vol)},
    {.name = "moments", .type = FLOE_FIELD_F64, .rows = 1, .cols = 3, .offset = offsetof(floe_clump, mom)},
};

/* scale: the template's size factor (read by the scene loader) */
static const char *const keys[] = {"pebbles", "scale",    "pos",   "ori",   "vel",
                                   "angvel",  "material", "group", "fixed", "block"};

const floe_shape_class floe_shape_clump = {
    .type = FLOE_SHAPE_CLUMP,
    .name = "clump",
    .title = "clump",
    .section = "clumps",
    .rank = 45,
    .flags = FLOE_SHAPE_TURNS | FLOE_SHAPE_COMPOUND,
    .size = sizeof(floe_clump),
    .params = params,
    .nparams = FLOE_LEN(params),
    .fields = fields,
    .nfields = FLOE_LEN(fields),
    .frame = "body: centroid and principal axes",
    .init = init,
    .params_of = params_of,
    .mass = mass,
    .radius = radius,
    .reach = reach,
    .half_extent = half_extent,
    .draw = FLOE_DRAW_POINT,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .scene = FLOE_SCENE_PEBBLES,
};
