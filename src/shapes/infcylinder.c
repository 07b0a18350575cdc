/* Infinite cylinder along a global axis (docs/geometry.md#pairs-and-their-order): contacts are
 * computed in the plane perpendicular to the axis. A is the cylinder. */
#include "shapes/shape.h"

/* Point of the cylinder axis nearest to p, and the radial offset of p. */
static vec3 radial(const floe_infcyl *cy, const floe_pose *pc, vec3 p, vec3 *axis_point) {
    int ax = cy->axis;
    vec3 rel = vsub(p, pc->x);
    vec3 ap = pc->x;
    vset(&ap, ax, vcomp(p, ax));
    vset(&rel, ax, 0);
    *axis_point = ap;
    return rel;
}

static int cylinder_round(const floe_infcyl *cy, const floe_pose *pc, vec3 p, double r, const vec3 *prev, double gap,
                          floe_raw_contact *out) {
    vec3 ap;
    radial(cy, pc, p, &ap);
    return floe_round_contact(ap, p, cy->radius, r, prev, gap, out);
}

static int collide_infcyl_sphere(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                 const vec3 *prev, double gap, floe_raw_contact *out) {
    return cylinder_round(a, pa, pb->x, *(const double *)b, prev, gap, out);
}

/* The capsule's axis point nearest to the cylinder axis: minimise the radial
 * distance along the segment (a capsule parallel to the axis: its centre). */
static int collide_infcyl_capsule(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                  const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_capsule *k = b;
    vec3 p0, p1, ap;
    floe_capsule_axis(pb->x, pb->q, k->shaft, &p0, &p1);
    vec3 r0 = radial(a, pa, p0, &ap), r1 = radial(a, pa, p1, &ap);
    vec3 dr = vsub(r1, r0);
    double l2 = vlen2(dr), t = 0.5;
    if (l2 > 1e-24 * (vlen2(r0) + vlen2(r1) + 1e-300)) t = fmin(fmax(-vdot(r0, dr) / l2, 0), 1);
    return cylinder_round(a, pa, vmadd(p0, vsub(p1, p0), t), k->radius, prev, gap, out);
}

/* ---- the class ----------------------------------------------------------- */

static int init(void *rec, const double *p, const floe_pose *pose, char *err, size_t errlen) {
    *(floe_infcyl *)rec = (floe_infcyl){(int)p[0], p[1]};
    return 0;
}

static void params_of(const void *rec, const floe_pose *pose, double *p) {
    const floe_infcyl *cy = rec;
    p[0] = cy->axis;
    p[1] = cy->radius;
}

static double radius(const void *rec) { return ((const floe_infcyl *)rec)->radius; }

/* A gridded body whose bounding sphere may come within skin of the surface. */
static int near(const void *rec, const floe_pose *p, const vec3 *vert, vec3 x, vec3 ext, double bound, double skin) {
    const floe_infcyl *cy = rec;
    vec3 d = vsub(x, p->x);
    vset(&d, cy->axis, 0);
    return vlen(d) - cy->radius - bound < skin;
}

/* An open tube (an infinite body has no end caps) over the scene's box plus
 * the margin along the axis: up = e_k, ring plane spanned by e_(k+1), e_(k+2). */
enum { SEG = 32, RINGS = 2 };

static void picture(const void *rec, const floe_pose *p, const floe_draw_box *box, vec3 *pt, vec3 *nrm,
                    int32_t *corner) {
    const floe_infcyl *cy = rec;
    int k = cy->axis;
    if (k < 0 || k > 2) k = 0;
    double r = cy->radius, ck = vcomp(p->x, k);
    double half = fmax(0.5, 2 * r);
    double z0 = box->have ? vcomp(box->lo, k) - box->margin : ck - half;
    double z1 = box->have ? vcomp(box->hi, k) + box->margin : ck + half;
    int n = 0;
    for (int ring = 0; ring < RINGS; ring++) {
        double z = ring == 0 ? z0 : z1;
        for (int j = 0; j < SEG; j++) {
            double cp, sp;
            floe_ring_dir(j, SEG, &cp, &sp);
            vec3 d = v3(0, 0, 0);
            vset(&d, (k + 1) % 3, cp);
            vset(&d, (k + 2) % 3, sp);
            vec3 q = vadd(p->x, vscale(d, r));
            vset(&q, k, z);
            pt[n] = q;
            if (nrm) nrm[n] = d;
            n++;
        }
    }
    floe_ring_faces(corner, SEG, RINGS, 0);
}

/* A cylinder may only slide along and spin about its own axis: any other
 * component of a prescribed velocity would move an infinite body sideways. */
static int scene_check(const double *p, const floe_body_def *def, const char **key, char *msg, size_t len) {
    static const char *const axis_names[] = {"x", "y", "z"};
    int axis = (int)p[0];
    for (int which = 0; which < 2; which++) {
        vec3 v = which ? def->angvel : def->vel;
        for (int k = 0; k < 3; k++)
            if (k != axis && vcomp(v, k) != 0) {
                *key = which ? "angvel" : "vel";
                snprintf(msg, len, "an infinite cylinder can only %s its axis (%s); got [%g, %g, %g]",
                         which ? "spin about" : "move along", axis_names[axis], v.x, v.y, v.z);
                return 1;
            }
    }
    return 0;
}

static const floe_shape_param params[] = {
    {.key = "axis", .kind = FLOE_PARAM_AXIS, .n = 1, .lo = 0, .hi = 2, .def = NAN},
    {.key = "radius",
     .unit = "m",
     .kind = FLOE_PARAM_REAL,
     .n = 1,
     .lo = 0,
     .hi = FLOE_MAX_COORD,
     .open = FLOE_OPEN_LO,
     .def = NAN},
};

static const floe_shape_field fields[] = {
    {.name = "axis", .type = FLOE_FIELD_I32, .offset = offsetof(floe_infcyl, axis)},
    {.name = "radius", .type = FLOE_FIELD_F64, .offset = offsetof(floe_infcyl, radius), .length = 1},
};

static const char *const keys[] = {"axis", "pos", "radius", "vel", "angvel", "material", "group"};

const floe_shape_class floe_shape_infcylinder = {
    .type = FLOE_SHAPE_INFCYLINDER,
    .name = "cylinder",
    .title = "infinite cylinder",
    .section = "cylinders",
    .rank = 30,
    .flags = FLOE_SHAPE_BOUNDARY | FLOE_SHAPE_BLOCKED,
    .size = sizeof(floe_infcyl),
    .params = params,
    .nparams = FLOE_LEN(params),
    .fields = fields,
    .nfields = FLOE_LEN(fields),
    .init = init,
    .params_of = params_of,
    .radius = radius,
    .near = near,
    .draw = FLOE_DRAW_SURFACE,
    .draw_points = RINGS * SEG,
    .draw_faces = 2 * SEG * (RINGS - 1),
    .face_size = 3,
    .picture = picture,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .scene_check = scene_check,
    .collide = {[FLOE_SHAPE_SPHERE] = collide_infcyl_sphere, [FLOE_SHAPE_CAPSULE] = collide_infcyl_capsule},
};
