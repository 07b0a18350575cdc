/* Sphere: mass properties and the sphere-sphere narrow phase. A sphere keeps
 * no record of its own: its record is its radius, the world's radius entry
 * (shape.h). */
#include "shapes/shape.h"

/* Mass and principal inertia of a solid sphere (the formulas Woo uses too). */
static void sphere_mass(double r, double density, double *mass, double *inertia) {
    *mass = 4.0 / 3.0 * FLOE_PI * r * r * r * density;
    *inertia = 0.4 * *mass * r * r;
}

/* The pair table's entry for the inline floe_sphere_sphere (shape.h). */
static int collide_sphere_sphere(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                 const vec3 *prev, double gap, floe_raw_contact *out) {
    return floe_sphere_sphere(pa->x, *(const double *)a, pb->x, *(const double *)b, prev, gap, out);
}

static int init(void *rec, const double *p, const floe_pose *pose, char *err, size_t errlen) {
    *(double *)rec = p[0];
    return 0;
}

static void params_of(const void *rec, const floe_pose *pose, double *p) { p[0] = *(const double *)rec; }

static void mass(const void *rec, double density, double *m, vec3 *inertia) {
    double I;
    sphere_mass(*(const double *)rec, density, m, &I);
    *inertia = v3(I, I, I);
}

static double radius(const void *rec) { return *(const double *)rec; }

static vec3 half_extent(const void *rec, quat q) {
    double r = *(const double *)rec;
    return v3(r, r, r);
}

static const floe_shape_param params[] = {
    {.key = "radius",
     .unit = "m",
     .kind = FLOE_PARAM_REAL,
     .n = 1,
     .lo = 0,
     .hi = FLOE_MAX_COORD,
     .open = FLOE_OPEN_LO,
     .def = NAN},
};

/* "file": a table of spheres, one per row (read by the scene loader itself) */
static const char *const keys[] = {"radius",   "pos",   "vel",   "angvel", "ori",
                                   "material", "group", "fixed", "block",  "file"};

const floe_shape_class floe_shape_sphere = {
    .type = FLOE_SHAPE_SPHERE,
    .name = "sphere",
    .title = "sphere",
    .section = "particles",
    .rank = 40,
    .size = 0,
    .params = params,
    .nparams = FLOE_LEN(params),
    .init = init,
    .params_of = params_of,
    .mass = mass,
    .radius = radius,
    .bound = radius,
    .half_extent = half_extent,
    .draw = FLOE_DRAW_POINT,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .collide = {[FLOE_SHAPE_SPHERE] = collide_sphere_sphere},
};
