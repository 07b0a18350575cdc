/* Capsule: a segment of length `shaft` along the body x axis, swept by a
 * sphere of `radius`. Mass and inertia, and its narrow-phase pairs. */
#include "shapes/shape.h"

/* Mass and principal inertia of a solid capsule (the formulas Woo uses too). */
static void capsule_mass(double r, double s, double rho, double *mass, vec3 *inertia) {
    double mc = 4.0 / 3.0 * FLOE_PI * r * r * r * rho, ms = FLOE_PI * r * r * s * rho;
    double ix = 0.4 * mc * r * r + 0.5 * ms * r * r;
    double a = 0.5 * s + 0.375 * r; /* centroid of a hemisphere from the shaft centre */
    double iy = 83.0 / 320.0 * mc * r * r + mc * a * a + ms * (3 * r * r + s * s) / 12.0;
    *mass = mc + ms;
    *inertia = v3(ix, iy, iy);
}

void floe_capsule_axis(vec3 c, quat q, double shaft, vec3 *p0, vec3 *p1) {
    vec3 half = qrotate(q, v3(0.5 * shaft, 0, 0));
    *p0 = vsub(c, half);
    *p1 = vadd(c, half);
}

/* The capsule's axis segment, global: centre +- half. */
static void segment(const floe_capsule *k, const floe_pose *p, vec3 *p0, vec3 *p1) {
    floe_capsule_axis(p->x, p->q, k->shaft, p0, p1);
}

vec3 floe_capsule_half_extent(double radius, double shaft, quat q) {
    vec3 ax = qrotate(q, v3(0.5 * shaft, 0, 0));
    return v3(fabs(ax.x) + radius, fabs(ax.y) + radius, fabs(ax.z) + radius);
}

vec3 floe_closest_on_segment(vec3 p, vec3 a, vec3 b) {
    vec3 ab = vsub(b, a);
    double l2 = vlen2(ab), t = l2 > 0 ? vdot(vsub(p, a), ab) / l2 : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return vmadd(a, ab, t);
}

/* The minimum is either at an end of one segment (four point-segment
 * distances) or at an interior pair, where it is the distance of the two
 * lines. The line distance is used only when the interior parameters are
 * inside; near the border an error in them can only make the result
 * smaller. */
double floe_segments_dist2(vec3 p0, vec3 p1, vec3 q0, vec3 q1) {
    double d2 = vlen2(vsub(floe_closest_on_segment(p0, q0, q1), p0));
    d2 = fmin(d2, vlen2(vsub(floe_closest_on_segment(p1, q0, q1), p1)));
    d2 = fmin(d2, vlen2(vsub(floe_closest_on_segment(q0, p0, p1), q0)));
    d2 = fmin(d2, vlen2(vsub(floe_closest_on_segment(q1, p0, p1), q1)));
    vec3 d1 = vsub(p1, p0), e1 = vsub(q1, q0), r = vsub(p0, q0);
    double a = vdot(d1, d1), b = vdot(d1, e1), e = vdot(e1, e1), c = vdot(d1, r), f = vdot(e1, r);
    double den = a * e - b * b;
    if (den > 1e-14 * a * e && a > 0 && e > 0) {
        double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s > 0 && s < 1 && t > 0 && t < 1) {
            vec3 n = vcross(d1, e1);
            double rn = vdot(r, n);
            d2 = fmin(d2, rn * rn / vdot(n, n));
        }
    }
    return d2;
}

/* Closest points of segments [p0,p1] and [q0,q1]. Parallel segments have a
 * whole range of closest pairs: take the middle of the overlapping part, so
 * that the contact point of two capsules lying side by side does not jump
 * from end to end. */
void floe_closest_segments(vec3 p0, vec3 p1, vec3 q0, vec3 q1, vec3 *cp, vec3 *cq) {
    vec3 d1 = vsub(p1, p0), d2 = vsub(q1, q0), r = vsub(p0, q0);
    double a = vdot(d1, d1), e = vdot(d2, d2), f = vdot(d2, r);
    double s, t;
    if (a <= 0 && e <= 0) {
        *cp = p0;
        *cq = q0;
        return;
    }
    if (a <= 0) {
        s = 0;
        t = fmin(fmax(f / e, 0), 1);
    } else {
        double c = vdot(d1, r);
        if (e <= 0) {
            t = 0;
            s = fmin(fmax(-c / a, 0), 1);
        } else {
            double b = vdot(d1, d2), den = a * e - b * b;
            if (den <= 1e-12 * a * e) {
                /* parallel: overlap of the projections of q0, q1 on [p0, p1] */
                double s0 = fmin(fmax(-c / a, 0), 1), s1 = fmin(fmax((b - c) / a, 0), 1);
                s = 0.5 * (s0 + s1);
                vec3 ps = vmadd(p0, d1, s);
                t = fmin(fmax(vdot(vsub(ps, q0), d2) / e, 0), 1);
            } else {
                s = fmin(fmax((b * f - c * e) / den, 0), 1);
                t = (b * s + f) / e;
                if (t < 0) {
                    t = 0;
                    s = fmin(fmax(-c / a, 0), 1);
                } else if (t > 1) {
                    t = 1;
                    s = fmin(fmax((b - c) / a, 0), 1);
                }
            }
        }
    }
    *cp = vmadd(p0, d1, s);
    *cq = vmadd(q0, d2, t);
}

/* A round contact between the points pa (on A's axis, radius ra) and pb (on
 * B's, radius rb): normal from A to B, contact point in the middle of the
 * overlap. */
int floe_round_contact(vec3 pa, vec3 pb, double ra, double rb, const vec3 *prev, double gap, floe_raw_contact *out) {
    vec3 d = vsub(pb, pa);
    double dist = vlen(d);
    if (!prev && dist > ra + rb + gap) return 0;
    out->n = dist > 0 ? vscale(d, 1.0 / dist) : (prev ? *prev : v3(1, 0, 0));
    out->uN = dist - (ra + rb);
    out->c = vmadd(pa, out->n, ra + 0.5 * out->uN);
    out->r1 = ra;
    out->r2 = rb;
    return 1;
}

static int collide_sphere_capsule(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                  const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_capsule *k = b;
    vec3 q0, q1;
    segment(k, pb, &q0, &q1);
    vec3 p = floe_closest_on_segment(pa->x, q0, q1);
    return floe_round_contact(pa->x, p, *(const double *)a, k->radius, prev, gap, out);
}

static int collide_capsule_capsule(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                   const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_capsule *ka = a, *kb = b;
    vec3 p0, p1, q0, q1, ca, cb;
    segment(ka, pa, &p0, &p1);
    segment(kb, pb, &q0, &q1);
    floe_closest_segments(p0, p1, q0, q1, &ca, &cb);
    return floe_round_contact(ca, cb, ka->radius, kb->radius, prev, gap, out);
}

/* Wall + capsule: the two end spheres against the plane. One end in contact
 * gives the contact; both (a capsule lying on the wall) give a point
 * weighted by their overlaps, with the deeper overlap as the gap. */
static int collide_wall_capsule(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_wall *wl = a;
    const floe_capsule *k = b;
    int ax = wl->axis;
    double r = k->radius, x0 = vcomp(pa->x, ax);
    vec3 e[2];
    segment(k, pb, &e[0], &e[1]);
    double sgn;
    if (wl->sense != 0) sgn = wl->sense;
    else if (prev) sgn = vcomp(*prev, ax) >= 0 ? 1 : -1;
    else sgn = vcomp(pb->x, ax) - x0 >= 0 ? 1 : -1;
    double d0 = sgn * (vcomp(e[0], ax) - x0) - r, d1 = sgn * (vcomp(e[1], ax) - x0) - r;
    double un = fmin(d0, d1);
    if (!prev && un > gap) return 0;
    vec3 c;
    if (d0 < 0 && d1 < 0) {
        double w0 = -d0, w1 = -d1;
        c = vscale(vadd(vscale(e[0], w0), vscale(e[1], w1)), 1.0 / (w0 + w1));
    } else {
        c = d0 <= d1 ? e[0] : e[1];
    }
    vset(&c, ax, x0);
    out->n = v3(0, 0, 0);
    vset(&out->n, ax, sgn);
    out->uN = un;
    out->c = c;
    out->r1 = -r;
    out->r2 = r;
    return 1;
}

/* Facet + capsule: the closest points of the triangle and the capsule's
 * axis; a capsule lying on the face (both end spheres over the face and in
 * contact) gets a point weighted by the two overlaps, like a wall. */
static int collide_facet_capsule(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb,
                                 const vec3 *prev, double gap, floe_raw_contact *out) {
    const floe_facet *f = a;
    const floe_capsule *cap = b;
    vec3 v[3], e[2];
    floe_facet_global(f, pa, v);
    segment(cap, pb, &e[0], &e[1]);
    double h = f->half_thick, r = cap->radius;
    vec3 fn = vnormalize(vcross(vsub(v[1], v[0]), vsub(v[2], v[0])));
    /* candidates: each end against the triangle, the axis against each edge */
    vec3 best_c = e[0], best_f = floe_closest_on_triangle(e[0], v[0], v[1], v[2]);
    double best = vlen2(vsub(best_c, best_f));
    vec3 f1 = floe_closest_on_triangle(e[1], v[0], v[1], v[2]);
    double d1 = vlen2(vsub(e[1], f1));
    int both_on_face = 0;
    {
        /* both ends project inside the face and overlap: lying flat */
        double s0 = vdot(vsub(e[0], v[0]), fn), s1 = vdot(vsub(e[1], v[0]), fn);
        vec3 p0 = vmadd(e[0], fn, -s0), p1 = vmadd(e[1], fn, -s1);
        int in0 = vlen2(vsub(p0, best_f)) < 1e-24 * (1 + vlen2(p0));
        int in1 = vlen2(vsub(p1, f1)) < 1e-24 * (1 + vlen2(p1));
        double o0 = r + h - fabs(s0), o1 = r + h - fabs(s1);
        if (in0 && in1 && o0 > 0 && o1 > 0 && s0 * s1 > 0) {
            both_on_face = 1;
            double sg = s0 > 0 ? 1 : -1;
            vec3 p = vscale(vadd(vscale(p0, o0), vscale(p1, o1)), 1.0 / (o0 + o1));
            out->n = vscale(fn, sg);
            out->uN = -fmax(o0, o1);
            out->c = vmadd(p, out->n, h);
        }
    }
    if (!both_on_face) {
        if (d1 < best) {
            best = d1;
            best_c = e[1];
            best_f = f1;
        }
        for (int k = 0; k < 3; k++) {
            vec3 pc, pf;
            floe_closest_segments(e[0], e[1], v[k], v[(k + 1) % 3], &pc, &pf);
            double d = vlen2(vsub(pc, pf));
            if (d < best) {
                best = d;
                best_c = pc;
                best_f = pf;
            }
        }
        double dist = sqrt(best);
        if (!prev && dist > r + h + gap) return 0;
        vec3 d = vsub(best_c, best_f);
        out->n = dist > 0 ? vscale(d, 1.0 / dist) : (prev ? *prev : fn);
        out->uN = dist - r - h;
        out->c = vmadd(best_f, out->n, h);
    } else if (!prev && out->uN > gap) {
        return 0;
    }
    out->r1 = fmax(h, r);
    out->r2 = r;
    return 1;
}

/* ---- the class ----------------------------------------------------------- */

static int init(void *rec, const double *p, const floe_pose *pose, char *err, size_t errlen) {
    *(floe_capsule *)rec = (floe_capsule){p[0], p[1]};
    return 0;
}

static void params_of(const void *rec, const floe_pose *pose, double *p) {
    const floe_capsule *k = rec;
    p[0] = k->radius;
    p[1] = k->shaft;
}

static void mass(const void *rec, double density, double *m, vec3 *inertia) {
    const floe_capsule *k = rec;
    capsule_mass(k->radius, k->shaft, density, m, inertia);
}

static double radius(const void *rec) { return ((const floe_capsule *)rec)->radius; }

static double bound(const void *rec) {
    const floe_capsule *k = rec;
    return k->radius + 0.5 * k->shaft;
}

static vec3 half_extent(const void *rec, quat q) {
    const floe_capsule *k = rec;
    return floe_capsule_half_extent(k->radius, k->shaft, q);
}

/* The surface: up = body x; hemisphere rings at angle al from the pole, the
 * shaft between the two equators. 4 rings per hemisphere. */
enum { SEG = 16, RINGS = 8 };

static void picture(const void *rec, const floe_pose *p, const floe_draw_box *box, vec3 *pt, vec3 *nrm,
                    int32_t *corner) {
    const floe_capsule *k = rec;
    double r = k->radius, h = 0.5 * k->shaft;
    const int half = RINGS / 2;
    int n = 0;
    for (int ring = -1; ring <= RINGS; ring++) {
        int pole = ring < 0 || ring == RINGS;
        int top = ring >= half;
        int step = top ? RINGS - ring : ring + 1; /* 1 .. half from the pole, 0 at the pole */
        double al = 0.5 * FLOE_PI * (pole ? 0 : step) / half;
        double ax = top ? cos(al) : -cos(al), rho = sin(al), x0 = top ? h : -h;
        for (int j = 0; j < (pole ? 1 : SEG); j++) {
            double cp, sp;
            floe_ring_dir(j, SEG, &cp, &sp);
            vec3 nb = v3(ax, rho * cp, rho * sp);
            pt[n] = vadd(p->x, qrotate(p->q, v3(x0 + r * nb.x, r * nb.y, r * nb.z)));
            if (nrm) nrm[n] = qrotate(p->q, nb);
            n++;
        }
    }
    floe_ring_faces(corner, SEG, RINGS, 1);
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
    {.key = "shaft", .unit = "m", .kind = FLOE_PARAM_REAL, .n = 1, .lo = 0, .hi = FLOE_MAX_COORD, .def = NAN},
};

static const floe_shape_field fields[] = {
    {.name = "radius", .type = FLOE_FIELD_F64, .offset = offsetof(floe_capsule, radius), .length = 1},
    {.name = "shaft", .type = FLOE_FIELD_F64, .offset = offsetof(floe_capsule, shaft), .length = 1},
};

/* axis: the direction of the shaft, instead of ori */
static const char *const keys[] = {"radius", "shaft",    "pos",   "ori",   "axis", "vel",
                                   "angvel", "material", "group", "fixed", "block"};

const floe_shape_class floe_shape_capsule = {
    .type = FLOE_SHAPE_CAPSULE,
    .name = "capsule",
    .title = "capsule",
    .section = "capsules",
    .rank = 50,
    .flags = FLOE_SHAPE_TURNS,
    .size = sizeof(floe_capsule),
    .params = params,
    .nparams = FLOE_LEN(params),
    .fields = fields,
    .nfields = FLOE_LEN(fields),
    .init = init,
    .params_of = params_of,
    .mass = mass,
    .radius = radius,
    .bound = bound,
    .half_extent = half_extent,
    .draw = FLOE_DRAW_SURFACE,
    .draw_points = 2 + RINGS * SEG,
    .draw_faces = 2 * SEG * (RINGS - 1) + 2 * SEG,
    .face_size = 3,
    .picture = picture,
    .keys = keys,
    .nkeys = FLOE_LEN(keys),
    .collide = {[FLOE_SHAPE_SPHERE] = collide_sphere_capsule,
                [FLOE_SHAPE_CAPSULE] = collide_capsule_capsule,
                [FLOE_SHAPE_WALL] = collide_wall_capsule,
                [FLOE_SHAPE_FACET] = collide_facet_capsule},
};
