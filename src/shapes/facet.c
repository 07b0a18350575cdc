/* Facet: a triangle with optional half thickness, attached to a rigid body
 * (docs/decisions.md#facets-belong-to-rigid-bodies-g6). A is the facet, B the sphere. */
#include "shapes/shape.h"

void floe_facet_global(const floe_facet *f, const floe_pose *p, vec3 out[3]) {
    for (int k = 0; k < 3; k++) out[k] = vadd(p->x, qrotate(p->q, f->v[k]));
}

double floe_triangle_area2(const vec3 v[3]) {
    vec3 e1 = vsub(v[1], v[0]), e2 = vsub(v[2], v[0]);
    double a2 = sqrt(vdot(vcross(e1, e2), vcross(e1, e2)));
    double scale = fmax(vdot(e1, e1), vdot(e2, e2));
    return a2 > 1e-12 * scale && isfinite(a2) ? a2 : 0;
}

/* Closest point on a triangle by Voronoi regions of its vertices and edges. */
vec3 floe_closest_on_triangle(vec3 p, vec3 a, vec3 b, vec3 c) {
    vec3 ab = vsub(b, a), ac = vsub(c, a), ap = vsub(p, a);
    double d1 = vdot(ab, ap), d2 = vdot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    vec3 bp = vsub(p, b);
    double d3 = vdot(ab, bp), d4 = vdot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return vmadd(a, ab, d1 / (d1 - d3));
    vec3 cp = vsub(p, c);
    double d5 = vdot(ab, cp), d6 = vdot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return vmadd(a, ac, d2 / (d2 - d6));
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return vmadd(b, vsub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    double den = 1.0 / (va + vb + vc);
    return vadd(a, vadd(vscale(ab, vb * den), vscale(ac, vc * den)));
}

static int collide_facet_sphere(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_facet *f = a;
    vec3 v[3];
    floe_facet_global(f, pa, v);
    double h = f->half_thick, r = *(const double *)b;
    vec3 x = pb->x;
    if (!prev) {
        vec3 fn = vnormalize(vcross(vsub(v[1], v[0]), vsub(v[2], v[0])));
        if (fabs(vdot(vsub(x, v[0]), fn)) > r + h + gap) return 0;
    }
    vec3 cp = floe_closest_on_triangle(x, v[0], v[1], v[2]);
    vec3 d = vsub(x, cp);
    double dist = vlen(d);
    if (!prev && dist > r + h + gap) return 0;
    out->n = dist > 0 ? vscale(d, 1.0 / dist) : (prev ? *prev : v3(1, 0, 0));
    out->c = vmadd(cp, out->n, h); /* on the facet's surface */
    out->uN = dist - r - h;
    out->r1 = fmax(h, r);
    out->r2 = r;
    return 1;
}

/* ---- the class ----------------------------------------------------------- */

/* Global vertices (params 0-8) to the body frame of the pose. */
static int init(void *rec, const double *p, const floe_pose *pose, char *err, size_t errlen) {
    floe_facet *f = rec;
    vec3 v[3] = {v3(p[0], p[1], p[2]), v3(p[3], p[4], p[5]), v3(p[6], p[7], p[8])};
    if (vlen(vcross(vsub(v[1], v[0]), vsub(v[2], v[0]))) <= 0) {
        snprintf(err, errlen, "the facet is degenerate (zero area)");
        return -1;
    }
    quat inv = qconj(pose->q);
    for (int k = 0; k < 3; k++) f->v[k] = qrotate(inv, vsub(v[k], pose->x));
    f->half_thick = p[9];
    return 0;
}

static void params_of(const void *rec, const floe_pose *pose, double *p) {
    const floe_facet *f = rec;
    vec3 v[3];
    floe_facet_global(f, pose, v);
    for (int k = 0; k < 3; k++) {
        p[3 * k] = v[k].x;
        p[3 * k + 1] = v[k].y;
        p[3 * k + 2] = v[k].z;
    }
    p[9] = f->half_thick;
}

static double radius(const void *rec) { return ((const floe_facet *)rec)->half_thick; }

/* Turning moves the vertices by up to the angle times their distance. */
static double reach(const void *rec) {
    const floe_facet *f = rec;
    return fmax(vlen(f->v[0]), fmax(vlen(f->v[1]), vlen(f->v[2])));
}

static void vertices(const void *rec, const floe_pose *p, vec3 *out) { floe_facet_global(rec, p, out); }

/* A gridded body whose bounding sphere may come within skin of the thick triangle. */
static int near(const void *rec, const floe_pose *p, const vec3 *v, vec3 x, vec3 ext, double bound, double skin) {
    vec3 cp = floe_closest_on_triangle(x, v[0], v[1], v[2]);
    double lim = bound + ((const floe_facet *)rec)->half_thick + skin;
    return vlen2(vsub(x, cp)) < lim * lim;
}

static void picture(const void *rec, const floe_pose *p, const floe_draw_box *box, vec3 *pt, vec3 *nrm,
                    int32_t *corner) {
    floe_facet_global(rec, p, pt);
    vec3 n = vnormalize(vcross(vsub(pt[1], pt[0]), vsub(pt[2], pt[0])));
    for (int k = 0; k < 3; k++) {
        if (nrm) nrm[k] = n;
        corner[k] = k;
    }
}

/* Scenes: the reference point defaults to the centroid. */
static void scene_place(const double *p, vec3 *pos) {
    *pos = v3((p[0] + p[3] + p[6]) / 3, (p[1] + p[4] + p[7]) / 3, (p[2] + p[5] + p[8]) / 3);
}

/* Scenes refuse triangles too thin to have a normal (floe_triangle_area2). */
static int scene_check(const double *p, const floe_body_def *def, const char **key, char *msg, size_t len) {
    vec3 v[3] = {v3(p[0], p[1], p[2]), v3(p[3], p[4], p[5]), v3(p[6], p[7], p[8])};
    if (floe_triangle_area2(v) > 0) return 0;
    *key = "vertices";
    snprintf(msg, len, "the triangle is degenerate (zero area)");
    return 1;
}

static const floe_shape_param params[] = {
    {.key = "vertices",
     .item = "vertex",
     .unit = "m",
     .kind = FLOE_PARAM_POINT,
     .n = 9,
     .lo = -FLOE_MAX_COORD,
     .hi = FLOE_MAX_COORD,
     .def = NAN,
     .list = "a list of 3 vertices [[x,y,z], [x,y,z], [x,y,z]]"},
    {.key = "half_thick", .unit = "m", .kind = FLOE_PARAM_REAL, .n = 1, .lo = 0, .hi = FLOE_MAX_COORD, .def = 0},
};

static const floe_shape_field fields[] = {
    {.name = "half_thick", .type = FLOE_FIELD_F64, .offset = offsetof(floe_facet, half_thick), .length = 1},
    {.name = "vertices", .type = FLOE_FIELD_F64, .rows = 3, .cols = 3, .offset = offsetof(floe_facet, v), .length = 1},
};

static const char *const keys[] = {"vertices", "half_thick", "material", "group", "vel", "angvel", "center"};

const floe_shape_class floe_shape_facet = {
    .type = FLOE_SHAPE_FACET,
    .name = "facet",
    .title = "facet",
    .section = "facets",
    .rank = 20,
    .flags = FLOE_SHAPE_BOUNDARY | FLOE_SHAPE_TURNS,
    .size = sizeof(floe_facet),
    .params = params,
    .nparams = FLOE_LEN(params),
    .fields = fields,
    .nfields = FLOE_LEN(fields),
    .frame = "vertices in the body frame of their particle",
    .init = init,
    .params_of = params_of,
    .radius = radius,
    .reach = reach,
    .nvertices = 3,
    .vertices = vertices,
    .near = near,
    .draw = FLOE_DRAW_BOUNDARY,
    .draw_points = 3,
    .draw_faces = 1,
    .face_size = 3,
    .picture = picture,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .scene_place = scene_place,
    .scene_check = scene_check,
    .collide = {[FLOE_SHAPE_SPHERE] = collide_facet_sphere},
};
