/* Wall: axis-aligned infinite plane (docs/geometry.md#pairs-and-their-order). A is the wall, B the
 * sphere. A two-sided wall (sense 0) keeps the side it was touched from. */
#include "shapes/shape.h"

/* The pair table's entry for the inline floe_wall_sphere (shape.h). */
static int collide_wall_sphere(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                               double gap, floe_raw_contact *out) {
    return floe_wall_sphere(a, pa->x, pb->x, *(const double *)b, prev, gap, out);
}

static int init(void *rec, const double *p, const floe_pose *pose, char *err, size_t errlen) {
    *(floe_wall *)rec = (floe_wall){(int)p[0], (int)p[1]};
    return 0;
}

static void params_of(const void *rec, const floe_pose *pose, double *p) {
    const floe_wall *wl = rec;
    p[0] = wl->axis;
    p[1] = wl->sense;
}

static double radius(const void *rec) { return 0; }

/* A gridded body within skin of the plane, by its box. */
static int near(const void *rec, const floe_pose *p, const vec3 *vert, vec3 x, vec3 ext, double bound, double skin) {
    int ax = ((const floe_wall *)rec)->axis;
    vec3 d = vsub(x, p->x);
    return fabs(vcomp(d, ax)) - vcomp(ext, ax) < skin;
}

/* A quad over the scene's box plus the margin, counterclockwise about
 * +axis; reversed for sense -1 so that its normal faces the side contacts
 * come from. */
static void picture(const void *rec, const floe_pose *p, const floe_draw_box *box, vec3 *pt, vec3 *nrm,
                    int32_t *corner) {
    const floe_wall *wl = rec;
    int k = wl->axis;
    if (k < 0 || k > 2) k = 0;
    int a1 = (k + 1) % 3, a2 = (k + 2) % 3;
    double lo1 = (box->have ? vcomp(box->lo, a1) : vcomp(p->x, a1)) - box->margin;
    double hi1 = (box->have ? vcomp(box->hi, a1) : vcomp(p->x, a1)) + box->margin;
    double lo2 = (box->have ? vcomp(box->lo, a2) : vcomp(p->x, a2)) - box->margin;
    double hi2 = (box->have ? vcomp(box->hi, a2) : vcomp(p->x, a2)) + box->margin;
    const double c1[4] = {lo1, hi1, hi1, lo1}, c2[4] = {lo2, lo2, hi2, hi2};
    for (int j = 0; j < 4; j++) {
        int jj = wl->sense < 0 ? 3 - j : j;
        pt[j] = p->x;
        vset(&pt[j], a1, c1[jj]);
        vset(&pt[j], a2, c2[jj]);
        if (nrm) {
            nrm[j] = v3(0, 0, 0);
            vset(&nrm[j], k, wl->sense < 0 ? -1 : 1);
        }
        corner[j] = j;
    }
}

static const floe_shape_param params[] = {
    {.key = "axis", .kind = FLOE_PARAM_AXIS, .n = 1, .lo = 0, .hi = 2, .def = NAN},
    {.key = "sense", .kind = FLOE_PARAM_INT, .n = 1, .lo = -1, .hi = 1, .def = 0},
};

static const floe_shape_field fields[] = {
    {.name = "axis", .type = FLOE_FIELD_I32, .offset = offsetof(floe_wall, axis)},
    {.name = "sense", .type = FLOE_FIELD_I32, .offset = offsetof(floe_wall, sense)},
};

/* pos: the plane's coordinate along its axis */
static const char *const keys[] = {"axis", "pos", "sense", "material", "group", "vel"};

const floe_shape_class floe_shape_wall = {
    .type = FLOE_SHAPE_WALL,
    .name = "wall",
    .title = "wall",
    .section = "walls",
    .rank = 10,
    .flags = FLOE_SHAPE_BOUNDARY | FLOE_SHAPE_BLOCKED,
    .size = sizeof(floe_wall),
    .params = params,
    .nparams = FLOE_LEN(params),
    .fields = fields,
    .nfields = FLOE_LEN(fields),
    .init = init,
    .params_of = params_of,
    .radius = radius,
    .near = near,
    .draw = FLOE_DRAW_BOUNDARY,
    .draw_points = 4,
    .draw_faces = 1,
    .face_size = 4,
    .picture = picture,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .scene = FLOE_SCENE_POS_ON_AXIS,
    .collide = {[FLOE_SHAPE_SPHERE] = collide_wall_sphere},
};
