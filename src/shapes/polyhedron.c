/* Convex polyhedron: the convex hull of 4 to 32 given vertices, computed by
 * Qhull (reentrant libqhull_r) when the body is made; exact mass
 * properties by tetrahedra; the body frame at the hull's centroid along its
 * principal axes (docs/geometry.md, "Polyhedra"). Its narrow phase is in
 * polyhedron_pairs.c. */
#include "shapes/polyhedron_pairs.h"

#include <libqhull_r/qhull_ra.h>
#include <string.h>

/* ---- mass properties ------------------------------------------------------ */

/* A tetrahedron (0, a, b, c): volume V = a.(b x c)/6, centroid (a+b+c)/4,
 * and integral of x x^T = V/20 (a a^T + b b^T + c c^T + s s^T), s = a+b+c
 * (the exact second moment of a simplex with a vertex at the origin). */
/* Volume, centroid and second moments about the centroid (xx, yy, zz, xy,
 * xz, yz: the integrals of x_i x_j) of the hull, by tetrahedra from an
 * inner point over the faces' fans. */
static void polyhedron_props(const floe_polyhedron *p, double *vol, vec3 *centroid, double m[6]) {
    vec3 r = v3(0, 0, 0);
    for (int k = 0; k < p->nv; k++) r = vadd(r, p->v[k]);
    r = vscale(r, 1.0 / p->nv);
    double V6 = 0, s[6] = {0, 0, 0, 0, 0, 0};
    vec3 g = v3(0, 0, 0);
    for (int f = 0; f < p->nf; f++) {
        int a0 = p->start[f], b0 = p->start[f + 1];
        vec3 a = vsub(p->v[p->corner[a0]], r);
        for (int k = a0 + 1; k + 1 < b0; k++) {
            vec3 b = vsub(p->v[p->corner[k]], r), c = vsub(p->v[p->corner[k + 1]], r);
            double v6 = vdot(a, vcross(b, c));
            vec3 sum = vadd(a, vadd(b, c));
            V6 += v6;
            g = vmadd(g, sum, v6 / 4);
            const vec3 q[4] = {a, b, c, sum};
            for (int j = 0; j < 4; j++) {
                s[0] += v6 * q[j].x * q[j].x;
                s[1] += v6 * q[j].y * q[j].y;
                s[2] += v6 * q[j].z * q[j].z;
                s[3] += v6 * q[j].x * q[j].y;
                s[4] += v6 * q[j].x * q[j].z;
                s[5] += v6 * q[j].y * q[j].z;
            }
        }
    }
    double V = V6 / 6;
    g = vscale(g, 1 / V6); /* centroid relative to r */
    *vol = V;
    *centroid = vadd(r, g);
    /* about r: s/120 (V/20 with V = v6/6); then to the centroid */
    m[0] = s[0] / 120 - V * g.x * g.x;
    m[1] = s[1] / 120 - V * g.y * g.y;
    m[2] = s[2] / 120 - V * g.z * g.z;
    m[3] = s[3] / 120 - V * g.x * g.y;
    m[4] = s[4] / 120 - V * g.x * g.z;
    m[5] = s[5] / 120 - V * g.y * g.z;
}

/* Eigenvectors of a symmetric 3x3 matrix by cyclic Jacobi rotations:
 * columns of e; a diagonal matrix is left as it is (e = identity), so a
 * body already in its principal frame keeps it. */
static void jacobi(double a[3][3], double e[3][3]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) e[i][j] = i == j;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double diag = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (off <= 1e-300 || off < 1e-17 * diag) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0) continue;
                double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) { /* a <- a J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* a <- J^T a */
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    double ekp = e[k][p], ekq = e[k][q];
                    e[k][p] = c * ekp - s * ekq;
                    e[k][q] = s * ekp + c * ekq;
                }
            }
    }
}

/* The unit quaternion of a rotation matrix (columns: the rotated axes). */
static quat quat_of(double m[3][3]) {
    double tr = m[0][0] + m[1][1] + m[2][2];
    quat q;
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q = (quat){0.25 * s, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s};
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double s = 2 * sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
        q = (quat){(m[2][1] - m[1][2]) / s, 0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s};
    } else if (m[1][1] > m[2][2]) {
        double s = 2 * sqrt(1 + m[1][1] - m[0][0] - m[2][2]);
        q = (quat){(m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s};
    } else {
        double s = 2 * sqrt(1 + m[2][2] - m[0][0] - m[1][1]);
        q = (quat){(m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s};
    }
    return qnormalize(q);
}

/* ---- the hull --------------------------------------------------------------- */

/* Qhull's message (its first line) into err. */
static void qhull_message(const char *buf, char *err, size_t errlen) {
    const char *nl = buf ? strchr(buf, '\n') : NULL;
    int n = buf ? (nl ? (int)(nl - buf) : (int)strlen(buf)) : 0;
    snprintf(err, errlen, "the vertices span no volume (Qhull: %.*s)", n > 0 ? n : 7, n > 0 ? buf : "no hull");
}

/* The hull of the record's nv vertices into its faces: Qhull's facets
 * (coplanar ones merged), each facet's vertices sorted by angle about its
 * outward normal. */
static int hull(floe_polyhedron *p, char *err, size_t errlen) {
    double pts[3 * FLOE_POLY_MAXV];
    for (int k = 0; k < p->nv; k++) {
        pts[3 * k] = p->v[k].x;
        pts[3 * k + 1] = p->v[k].y;
        pts[3 * k + 2] = p->v[k].z;
    }
    char *buf = NULL;
    size_t size = 0;
    FILE *ef = open_memstream(&buf, &size);
    if (!ef) return snprintf(err, errlen, "out of memory computing a hull"), -1;
    qhT qh_qh, *qh = &qh_qh;
    qh_zero(qh, ef);
    int bad = qh_new_qhull(qh, 3, p->nv, pts, False, "qhull", NULL, ef);
    if (bad) {
        fflush(ef); /* buf holds what was written */
        qhull_message(buf, err, errlen);
    }
    int nf = 0, nc = 0;
    if (!bad) {
        facetT *facet;
        vertexT *vertex, **vertexp;
        FORALLfacets {
            int idx[FLOE_POLY_MAXV], m = 0;
            FOREACHvertex_(facet->vertices) if (m < FLOE_POLY_MAXV) idx[m++] = qh_pointid(qh, vertex->point);
            if (nf >= FLOE_POLY_MAXF || nc + m > FLOE_POLY_MAXC) {
                snprintf(err, errlen, "the hull has more faces than %d vertices can make", FLOE_POLY_MAXV);
                bad = 1;
                break;
            }
            vec3 n = v3(facet->normal[0], facet->normal[1], facet->normal[2]), c = v3(0, 0, 0);
            for (int j = 0; j < m; j++) c = vadd(c, p->v[idx[j]]);
            c = vscale(c, 1.0 / m);
            vec3 u = vnormalize(vsub(p->v[idx[0]], c)), w = vcross(n, u);
            double ang[FLOE_POLY_MAXV];
            for (int j = 0; j < m; j++) {
                vec3 d = vsub(p->v[idx[j]], c);
                ang[j] = atan2(vdot(d, w), vdot(d, u));
            }
            for (int i = 1; i < m; i++) /* counterclockwise about n */
                for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
                    double ta = ang[j];
                    ang[j] = ang[j - 1];
                    ang[j - 1] = ta;
                    int ti = idx[j];
                    idx[j] = idx[j - 1];
                    idx[j - 1] = ti;
                }
            p->start[nf++] = nc;
            for (int j = 0; j < m; j++) p->corner[nc++] = idx[j];
        }
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    fclose(ef);
    free(buf);
    if (bad) return -1;
    p->nf = nf;
    for (int f = nf; f < FLOE_LEN(p->start); f++) p->start[f] = nc;
    for (int k = nc; k < FLOE_POLY_MAXC; k++) p->corner[k] = 0;
    return 0;
}

/* ---- the class ----------------------------------------------------------- */

/* The given vertices (the list's last one repeated to the end is one
 * vertex), their hull, then the frame: centroid and principal axes. */
static int init(void *rec, const double *par, const floe_pose *pose, char *err, size_t errlen) {
    floe_polyhedron *p = rec;
    memset(p, 0, sizeof *p);
    int n = FLOE_POLY_MAXV;
    while (n > 1 && par[3 * (n - 1)] == par[3 * (n - 2)] && par[3 * (n - 1) + 1] == par[3 * (n - 2) + 1] &&
           par[3 * (n - 1) + 2] == par[3 * (n - 2) + 2])
        n--;
    if (n < 4) return snprintf(err, errlen, "a polyhedron needs 4 or more distinct vertices; %d given", n), -1;
    p->nv = n;
    for (int k = 0; k < n; k++) p->v[k] = v3(par[3 * k], par[3 * k + 1], par[3 * k + 2]);
    if (hull(p, err, errlen)) return -1;
    double V, s[6];
    vec3 c;
    polyhedron_props(p, &V, &c, s);
    if (!(V > 0)) return snprintf(err, errlen, "the vertices span no volume"), -1;
    /* inertia per density: trace(S) 1 - S */
    double tr = s[0] + s[1] + s[2];
    double I[3][3] = {{tr - s[0], -s[3], -s[4]}, {-s[3], tr - s[1], -s[5]}, {-s[4], -s[5], tr - s[2]}}, e[3][3];
    jacobi(I, e);
    double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                 e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    if (det < 0)
        for (int k = 0; k < 3; k++) e[k][2] = -e[k][2];
    p->shift = c;
    p->turn = quat_of(e);
    quat back = qconj(p->turn);
    for (int k = 0; k < n; k++) p->v[k] = qrotate(back, vsub(p->v[k], c));
    return 0;
}

/* The counts and indices of a record read from a file: what the narrow
 * phase and the mass properties index by. */
static const char *check(const void *rec, char *buf, size_t len) {
    const floe_polyhedron *p = rec;
    if (p->nv < 4 || p->nv > FLOE_POLY_MAXV || p->nf < 4 || p->nf > FLOE_POLY_MAXF)
        return snprintf(buf, len, "polyhedron with %d vertices and %d faces (4 to %d, 4 to %d)", p->nv, p->nf,
                        FLOE_POLY_MAXV, FLOE_POLY_MAXF),
               buf;
    if (p->start[0] != 0 || p->start[p->nf] > FLOE_POLY_MAXC)
        return snprintf(buf, len, "polyhedron face_start runs from %d to %d (0 to at most %d)", p->start[0],
                        p->start[p->nf], FLOE_POLY_MAXC),
               buf;
    for (int f = 0; f < p->nf; f++)
        if (p->start[f + 1] - p->start[f] < 3)
            return snprintf(buf, len, "polyhedron face %d has %d corners (3 or more)", f,
                            p->start[f + 1] - p->start[f]),
                   buf;
    for (int k = 0; k < p->start[p->nf]; k++)
        if (p->corner[k] < 0 || p->corner[k] >= p->nv)
            return snprintf(buf, len, "polyhedron corner %d is vertex %d of %d", k, p->corner[k], p->nv), buf;
    return NULL;
}

static void reframe(void *rec, floe_pose *pose) {
    const floe_polyhedron *p = rec;
    pose->x = vadd(pose->x, qrotate(pose->q, p->shift));
    pose->q = qnormalize(qmul(pose->q, p->turn));
}

/* The given vertices relative to the given frame, which the pose's body
 * frame places: g = shift + turn v. */
static void params_of(const void *rec, const floe_pose *pose, double *par) {
    const floe_polyhedron *p = rec;
    int n = p->nv < 1 ? 1 : p->nv > FLOE_POLY_MAXV ? FLOE_POLY_MAXV : p->nv;
    for (int k = 0; k < FLOE_POLY_MAXV; k++) {
        vec3 g = vadd(p->shift, qrotate(p->turn, p->v[k < n ? k : n - 1]));
        par[3 * k] = g.x;
        par[3 * k + 1] = g.y;
        par[3 * k + 2] = g.z;
    }
}

static void mass(const void *rec, double density, double *m, vec3 *inertia) {
    double V, s[6];
    vec3 c;
    polyhedron_props(rec, &V, &c, s);
    *m = density * V;
    *inertia = vscale(v3(s[1] + s[2], s[0] + s[2], s[0] + s[1]), density);
}

/* The radius of the sphere of the same volume. */
static double radius(const void *rec) {
    double V, s[6];
    vec3 c;
    polyhedron_props(rec, &V, &c, s);
    return cbrt(3 * V / (4 * FLOE_PI));
}

/* The farthest vertex (the farthest point of a hull is a vertex). */
static double bound(const void *rec) {
    const floe_polyhedron *p = rec;
    double r2 = 0;
    for (int k = 0; k < p->nv; k++) r2 = fmax(r2, vlen2(p->v[k]));
    return sqrt(r2);
}

static vec3 half_extent(const void *rec, quat q) {
    const floe_polyhedron *p = rec;
    vec3 h = v3(0, 0, 0);
    for (int k = 0; k < p->nv; k++) {
        vec3 x = qrotate(q, p->v[k]);
        h = v3(fmax(h.x, fabs(x.x)), fmax(h.y, fabs(x.y)), fmax(h.z, fabs(x.z)));
    }
    return h;
}

/* Each face's corners with its normal (flat faces), fans of triangles;
 * the room left over repeats the first point and triangle (0, 0, 0). */
static void picture(const void *rec, const floe_pose *ps, const floe_draw_box *box, vec3 *pt, vec3 *nrm,
                    int32_t *corner) {
    const floe_polyhedron *p = rec;
    int np = 0, nt = 0;
    for (int f = 0; f < p->nf; f++) {
        vec3 n;
        double d;
        floe_polyhedron_face_plane(p, f, &n, &d);
        int a = p->start[f], b = p->start[f + 1], first = np;
        for (int k = a; k < b; k++) {
            pt[np] = vadd(ps->x, qrotate(ps->q, p->v[p->corner[k]]));
            if (nrm) nrm[np] = qrotate(ps->q, n);
            np++;
        }
        for (int k = 1; k + 1 < b - a; k++) {
            corner[3 * nt] = first;
            corner[3 * nt + 1] = first + k;
            corner[3 * nt + 2] = first + k + 1;
            nt++;
        }
    }
    for (; np < FLOE_POLY_MAXC; np++) {
        pt[np] = pt[0];
        if (nrm) nrm[np] = nrm[0];
    }
    for (; nt < FLOE_POLY_MAXF; nt++) corner[3 * nt] = corner[3 * nt + 1] = corner[3 * nt + 2] = 0;
}

static const floe_shape_param params[] = {
    {.key = "vertices",
     .item = "vertex",
     .unit = "m",
     .kind = FLOE_PARAM_POINT,
     .n = 3 * FLOE_POLY_MAXV,
     .lo = -FLOE_MAX_COORD,
     .hi = FLOE_MAX_COORD,
     .def = NAN,
     .list = "a list of 4 to 32 vertices [[x,y,z], ...]",
     .min_items = 4},
};

static const floe_shape_field fields[] = {
    {.name = "vertices",
     .type = FLOE_FIELD_F64,
     .rows = FLOE_POLY_MAXV,
     .cols = 3,
     .offset = offsetof(floe_polyhedron, v),
     .length = 1},
    {.name = "shift", .type = FLOE_FIELD_F64, .rows = 3, .offset = offsetof(floe_polyhedron, shift), .length = 1},
    {.name = "turn", .type = FLOE_FIELD_F64, .rows = 4, .offset = offsetof(floe_polyhedron, turn)},
    {.name = "nvertices", .type = FLOE_FIELD_I32, .offset = offsetof(floe_polyhedron, nv)},
    {.name = "nfaces", .type = FLOE_FIELD_I32, .offset = offsetof(floe_polyhedron, nf)},
    {.name = "face_start",
     .type = FLOE_FIELD_I32,
     .rows = FLOE_POLY_MAXF + 4,
     .offset = offsetof(floe_polyhedron, start)},
    {.name = "corners", .type = FLOE_FIELD_I32, .rows = FLOE_POLY_MAXC, .offset = offsetof(floe_polyhedron, corner)},
};

static const char *const keys[] = {"vertices", "pos", "ori", "vel", "angvel", "material", "group", "fixed", "block"};

const floe_shape_class floe_shape_polyhedron = {
    .type = FLOE_SHAPE_POLYHEDRON,
    .name = "polyhedron",
    .title = "polyhedron",
    .section = "polyhedra",
    .rank = 70,
    .flags = FLOE_SHAPE_TURNS,
    .size = sizeof(floe_polyhedron),
    .params = params,
    .nparams = FLOE_LEN(params),
    .fields = fields,
    .nfields = FLOE_LEN(fields),
    .frame = "vertices in the body frame (centroid, principal axes); given vertex = shift + turn vertex",
    .init = init,
    .reframe = reframe,
    .check = check,
    .params_of = params_of,
    .mass = mass,
    .radius = radius,
    .bound = bound,
    .half_extent = half_extent,
    .draw = FLOE_DRAW_SURFACE,
    .draw_points = FLOE_POLY_MAXC,
    .draw_faces = FLOE_POLY_MAXF,
    .face_size = 3,
    .picture = picture,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .collide = {[FLOE_SHAPE_SPHERE] = floe_collide_sphere_poly,
                [FLOE_SHAPE_WALL] = floe_collide_wall_poly,
                [FLOE_SHAPE_FACET] = floe_collide_facet_poly,
                [FLOE_SHAPE_CAPSULE] = floe_collide_capsule_poly,
                [FLOE_SHAPE_ELLIPSOID] = floe_collide_ellipsoid_poly,
                [FLOE_SHAPE_INFCYLINDER] = floe_collide_infcyl_poly,
                [FLOE_SHAPE_POLYHEDRON] = floe_collide_poly_poly},
};
