/* Measurements users report (docs/measurements.md): the Love-Weber stress
 * of a region, solid fraction (exact sphere-box volumes), coordination with
 * rattlers, the fabric tensor, wall tractions and plane counters. Every
 * function here only reads the world, except the plane counters, whose
 * counts are world state updated by the step (floe__planes_before/after). */
#include "core/cell.h"
#include "core/measure.h"
#include "shapes/polyhedron_clip.h"
#include "shapes/shape.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The read-only functions report bad arguments like floe__bad_id does:
 * a world is never a const object, so writing its message is defined. */
static floe_status measure_error(const floe_world *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static floe_status measure_error(const floe_world *w, const char *fmt, ...) {
    floe_world *mw = (floe_world *)w;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mw->err, sizeof mw->err, fmt, ap);
    va_end(ap);
    return FLOE_ERR_ARG;
}

/* Bodies whose centre is a material point of the packing; walls, facets and
 * cylinders are boundaries (their reference point may be anywhere). */
static int is_particle(int shape) {
    return shape == FLOE_SHAPE_SPHERE || shape == FLOE_SHAPE_CAPSULE || shape == FLOE_SHAPE_ELLIPSOID ||
           shape == FLOE_SHAPE_POLYHEDRON;
}

static int coord_ok(double x) { return fabs(x) <= FLOE_MAX_COORD; } /* NaN fails */

/* A NULL region, or (when the box matters) a box that is not finite with
 * lo < hi, is refused with a message naming the function. */
static floe_status check_region(const floe_world *w, const char *fn, const floe_region *r, int need_box) {
    if (!r) return measure_error(w, "%s: the region is NULL", fn);
    if (r->whole != 0 && r->whole != 1) return measure_error(w, "%s: region.whole = %d is not 0 or 1", fn, r->whole);
    if (!need_box && r->whole) return FLOE_OK;
    vec3 lo = r->lo, hi = r->hi;
    if (!(coord_ok(lo.x) && coord_ok(lo.y) && coord_ok(lo.z) && coord_ok(hi.x) && coord_ok(hi.y) && coord_ok(hi.z)) ||
        !(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
        return measure_error(w,
                             "%s: region box lo (%g, %g, %g), hi (%g, %g, %g) must be finite, at most %g in "
                             "magnitude, with lo < hi on every axis",
                             fn, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z, FLOE_MAX_COORD);
    return FLOE_OK;
}

static double box_volume(const floe_region *r) {
    return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y) * (r->hi.z - r->lo.z);
}

/* The volume a measurement divides by: the box's, or for the whole of a
 * periodic world the cell's over its periodic axes (cell.c). */
static double region_volume(const floe_world *w, const floe_region *r) {
    return r->whole && w->cell.axes ? floe__cell_volume(w, r->lo, r->hi) : box_volume(r);
}

static int in_box(vec3 p, vec3 lo, vec3 hi) {
    return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z;
}

/* Fraction of the segment p -> p + l inside the closed box [lo, hi]
 * (Liang-Barsky clipping of the parameter t in [0, 1]); a segment of zero
 * length counts in full if its point is inside. */
static double clip_fraction(vec3 p, vec3 l, vec3 lo, vec3 hi) {
    double t0 = 0, t1 = 1;
    for (int k = 0; k < 3; k++) {
        double pk = vcomp(p, k), lk = vcomp(l, k), a = vcomp(lo, k), b = vcomp(hi, k);
        if (lk == 0) {
            if (pk < a || pk > b) return 0;
            continue;
        }
        double ta = (a - pk) / lk, tb = (b - pk) / lk;
        if (ta > tb) {
            double t = ta;
            ta = tb;
            tb = t;
        }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        if (t1 <= t0) return 0;
    }
    return t1 - t0;
}

/* Branch vector of contact c, from A's end (returned in *from) to B's end.
 * A particle's end is its centre; a boundary's end is the contact point, so
 * a wall contact carries the arm from the contact point to the particle.
 * Periodic images enter here and only here: B's end will be the centre of
 * the image of B that the contact was made with (B's position plus the
 * cell shift the contact records), so that l stays the short vector across
 * the cell face (docs/measurements.md#stress-tensor-love-weber). */
static vec3 contact_branch(const floe_world *w, const floe_contact *c, const floe_geom *g, vec3 *from) {
    vec3 pa = is_particle(w->shape[c->a]) ? w->pos[c->a] : g->c;
    vec3 pb = is_particle(w->shape[c->b]) ? floe__img_pos(w, c->b, floe__contact_img(w, (int)(c - w->con))) : g->c;
    *from = pa;
    return vsub(pb, pa);
}

/* The contact's force on A in global axes (its local force in the L6Geom frame). */
static vec3 force_on_a(const floe_contact *c, const floe_geom *g) {
    return vadd(vadd(vscale(g->n, c->f.x), vscale(g->t1, c->f.y)), vscale(floe_geom_t2(g), c->f.z));
}

static int carries_force(const floe_contact *c) { return c->f.x != 0 || c->f.y != 0 || c->f.z != 0; }

/* ---- stress ------------------------------------------------------------------ */

floe_status floe_stress_tensor(const floe_world *w, const floe_region *r, double out[9]) {
    if (!w) return FLOE_ERR_ARG;
    if (!out) return measure_error(w, "floe_stress_tensor: out is NULL");
    floe_status st = check_region(w, "floe_stress_tensor", r, 1);
    if (st != FLOE_OK) return st;
    double s[9] = {0};
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *c = &w->con[k];
        const floe_geom g = floe__contact_geom(w, k);
        vec3 p, l = contact_branch(w, c, &g, &p);
        double wt = r->whole ? 1.0 : clip_fraction(p, l, r->lo, r->hi);
        if (wt == 0) continue;
        vec3 f = force_on_a(c, &g);
        double li[3] = {l.x, l.y, l.z}, fj[3] = {f.x, f.y, f.z};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) s[3 * i + j] += wt * li[i] * fj[j];
    }
    double v = region_volume(w, r);
    for (int i = 0; i < 9; i++) out[i] = s[i] / v;
    return FLOE_OK;
}

/* ---- exact volume of a sphere in a box ------------------------------------- */

/* With the unit ball about the origin, V3(a, b, c) is its volume with
 * x >= a, y >= b, z >= c for a, b, c >= 0 (docs/measurements.md#sphere-box-volume):
 * the integral over z from c to zm = sqrt(1 - a^2 - b^2) of the area of
 * the disc of radius rho = sqrt(1 - z^2) beyond the lines x = a, y = b,
 *   A(z) = rho^2/2 (acos(a/rho) + acos(b/rho) - pi/2) - a t_a/2 - b t_b/2 + a b,
 * t_a = sqrt(rho^2 - a^2), in closed form. The antiderivative is written in
 * (z, t) with every angle an atan2 of the same t, so that the terms linear
 * in t cancel also in rounding near z = zm (acos(b/rho) computed from b/rho
 * loses half the digits there). */

/* Antiderivative of (1 - z^2) acos(a / rho) at (z, t = sqrt(1 - a^2 - z^2)),
 * from integration by parts; a = 0 gives pi/2 (1 - z^2) as the limit. */
static double G(double z, double t, double a) {
    double s2 = z * z + t * t; /* 1 - a^2 */
    double ac = a == 0 ? 0.5 * FLOE_PI : atan2(t, a);
    double as = atan2(z, t); /* asin(z / sqrt(1 - a^2)) */
    return (z - z * z * z / 3) * ac + a * ((s2 / 6 - 2.0 / 3) * as - z * t / 6) + 2.0 / 3 * atan2(a * z, t);
}

/* Antiderivative of t = sqrt(1 - a^2 - z^2) at (z, t). */
static double H(double z, double t) { return 0.5 * (z * t + (z * z + t * t) * atan2(z, t)); }

static double F(double z, double ta, double tb, double a, double b) {
    return 0.5 * (G(z, ta, a) + G(z, tb, b) - 0.5 * FLOE_PI * (z - z * z * z / 3)) - 0.5 * a * H(z, ta) -
           0.5 * b * H(z, tb) + a * b * z;
}

static double V3(double a, double b, double c) {
    double r2 = 1 - a * a - b * b - c * c;
    if (!(r2 > 0)) return 0;
    double zm = sqrt(1 - a * a - b * b);
    /* at z = zm the arms are exactly t_a = b and t_b = a */
    double ta = sqrt(fmax(1 - a * a - c * c, 0)), tb = sqrt(fmax(1 - b * b - c * c, 0));
    double v = F(zm, b, a, a, b) - F(c, ta, tb, a, b);
    return v > 0 ? v : 0;
}

/* Volume of the unit ball with x >= a, y >= b, z >= c; -INFINITY leaves an
 * axis free. A negative bound is turned into a positive one by
 * {x >= a} = all - {-x > -a} (the ball is symmetric). */
static double corner(double a, double b, double c) {
    double q[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        if (q[k] >= 1) return 0;
        if (q[k] <= -1) q[k] = -INFINITY;
    }
    for (int k = 0; k < 3; k++) {
        if (q[k] < 0 && q[k] > -INFINITY) {
            double free_[3] = {q[0], q[1], q[2]}, flip[3] = {q[0], q[1], q[2]};
            free_[k] = -INFINITY;
            flip[k] = -q[k];
            return corner(free_[0], free_[1], free_[2]) - corner(flip[0], flip[1], flip[2]);
        }
    }
    /* every bound is free or in [0, 1) */
    double bnd[3];
    int n = 0;
    for (int k = 0; k < 3; k++)
        if (q[k] > -INFINITY) bnd[n++] = q[k];
    switch (n) {
        case 0:
            return 4.0 / 3 * FLOE_PI;
        case 1: /* a cap of height 1 - c */
            return FLOE_PI * (1 - bnd[0]) * (1 - bnd[0]) * (2 + bnd[0]) / 3;
        case 2: /* a wedge: twice the part with x >= 0 */
            return 2 * V3(0, bnd[0], bnd[1]);
        default:
            return V3(bnd[0], bnd[1], bnd[2]);
    }
}

double floe_sphere_box_volume(floe_vec3 centre, double radius, floe_vec3 lo, floe_vec3 hi) {
    if (!(radius > 0) || !(radius <= FLOE_MAX_COORD) || !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z) ||
        !(coord_ok(lo.x) && coord_ok(lo.y) && coord_ok(lo.z) && coord_ok(hi.x) && coord_ok(hi.y) && coord_ok(hi.z) &&
          coord_ok(centre.x) && coord_ok(centre.y) && coord_ok(centre.z)))
        return NAN;
    double x[2] = {(lo.x - centre.x) / radius, (hi.x - centre.x) / radius};
    double y[2] = {(lo.y - centre.y) / radius, (hi.y - centre.y) / radius};
    double z[2] = {(lo.z - centre.z) / radius, (hi.z - centre.z) / radius};
    double r3 = radius * radius * radius;
    if (x[1] <= -1 || x[0] >= 1 || y[1] <= -1 || y[0] >= 1 || z[1] <= -1 || z[0] >= 1) return 0;
    /* a box inside the ball: its own volume, not a difference of large terms */
    double far2 = fmax(x[0] * x[0], x[1] * x[1]) + fmax(y[0] * y[0], y[1] * y[1]) + fmax(z[0] * z[0], z[1] * z[1]);
    if (far2 <= 1) return (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
    /* 1[x0 <= x < x1] = 1[x >= x0] - 1[x >= x1] on each axis */
    double v = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                double s = ((i + j + k) & 1) ? -1.0 : 1.0;
                v += s * corner(x[i], y[j], z[k]);
            }
    if (v < 0) v = 0;
    return v * r3;
}

/* ---- solid fraction ---------------------------------------------------------- */

/* Points per axis of the quadrature for aspherical bodies cut by the box. */
#define BODY_QUAD_N 16

static double body_volume(const floe_world *w, int i) {
    switch (w->shape[i]) {
        case FLOE_SHAPE_SPHERE:
            return 4.0 / 3 * FLOE_PI * w->radius[i] * w->radius[i] * w->radius[i];
        case FLOE_SHAPE_CAPSULE: {
            const floe_capsule *k = floe__shape_data(w, i);
            return FLOE_PI * k->radius * k->radius * (k->shaft + 4.0 / 3 * k->radius);
        }
        case FLOE_SHAPE_ELLIPSOID: {
            vec3 s = ((const floe_ellipsoid *)floe__shape_data(w, i))->semi;
            return 4.0 / 3 * FLOE_PI * s.x * s.y * s.z;
        }
        case FLOE_SHAPE_POLYHEDRON: { /* the hull in an unbounded box */
            floe_pose p = floe__pose(w, i);
            return floe_poly_box_volume(floe__shape_data(w, i), &p, v3(-INFINITY, -INFINITY, -INFINITY),
                                        v3(INFINITY, INFINITY, INFINITY));
        }
        default:
            return 0;
    }
}

/* Volume of a capsule or ellipsoid inside the box: exact when its bounding
 * box is inside or outside; otherwise its volume times the share of the
 * BODY_QUAD_N^3 cell centres of its body-frame bounding box that lie in
 * the body and in the box (docs/measurements.md#solid-fraction). */
static double aspherical_in_box(const floe_world *w, int i, vec3 lo, vec3 hi) {
    vec3 c = w->pos[i], he, half;
    quat q = w->ori[i];
    double rad = 0, shaft = 0;
    vec3 semi = v3(0, 0, 0);
    int capsule = w->shape[i] == FLOE_SHAPE_CAPSULE;
    if (capsule) {
        const floe_capsule *k = floe__shape_data(w, i);
        rad = k->radius;
        shaft = k->shaft;
        he = floe_capsule_half_extent(rad, shaft, q);
        half = v3(rad + 0.5 * shaft, rad, rad);
    } else {
        semi = ((const floe_ellipsoid *)floe__shape_data(w, i))->semi;
        he = floe_ellipsoid_half_extent(semi, q);
        half = semi;
    }
    double vol = body_volume(w, i);
    vec3 blo = vsub(c, he), bhi = vadd(c, he);
    if (blo.x >= lo.x && bhi.x <= hi.x && blo.y >= lo.y && bhi.y <= hi.y && blo.z >= lo.z && bhi.z <= hi.z) return vol;
    if (bhi.x < lo.x || blo.x > hi.x || bhi.y < lo.y || blo.y > hi.y || bhi.z < lo.z || blo.z > hi.z) return 0;
    long in_body = 0, in_both = 0;
    const int n = BODY_QUAD_N;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            for (int d = 0; d < n; d++) {
                vec3 u = v3(half.x * (2.0 * (a + 0.5) / n - 1), half.y * (2.0 * (b + 0.5) / n - 1),
                            half.z * (2.0 * (d + 0.5) / n - 1));
                int inside;
                if (capsule) {
                    double dx = fmax(fabs(u.x) - 0.5 * shaft, 0);
                    inside = dx * dx + u.y * u.y + u.z * u.z <= rad * rad;
                } else {
                    double ex = u.x / semi.x, ey = u.y / semi.y, ez = u.z / semi.z;
                    inside = ex * ex + ey * ey + ez * ez <= 1;
                }
                if (!inside) continue;
                in_body++;
                if (in_box(vadd(c, qrotate(q, u)), lo, hi)) in_both++;
            }
    return in_body ? vol * (double)in_both / (double)in_body : 0;
}

floe_status floe_solid_fraction(const floe_world *w, const floe_region *r, double *out) {
    if (!w) return FLOE_ERR_ARG;
    if (!out) return measure_error(w, "floe_solid_fraction: out is NULL");
    floe_status st = check_region(w, "floe_solid_fraction", r, 1);
    if (st != FLOE_OK) return st;
    double v = 0;
    for (int i = 0; i < w->np; i++) {
        int s = w->shape[i];
        if (!is_particle(s)) continue;
        if (r->whole) v += body_volume(w, i);
        else if (s == FLOE_SHAPE_SPHERE) v += floe_sphere_box_volume(w->pos[i], w->radius[i], r->lo, r->hi);
        else if (s == FLOE_SHAPE_POLYHEDRON) {
            floe_pose p = floe__pose(w, i);
            v += floe_poly_box_volume(floe__shape_data(w, i), &p, r->lo, r->hi);
        } else v += aspherical_in_box(w, i, r->lo, r->hi);
    }
    *out = v / region_volume(w, r);
    return FLOE_OK;
}

/* ---- coordination and fabric ------------------------------------------------ */

floe_status floe_coordination(const floe_world *w, const floe_region *r, floe_coordination_info *out) {
    if (!w) return FLOE_ERR_ARG;
    if (!out) return measure_error(w, "floe_coordination: out is NULL");
    floe_status st = check_region(w, "floe_coordination", r, 0);
    if (st != FLOE_OK) return st;
    memset(out, 0, sizeof *out);
    int *n = calloc((size_t)w->np + 1, sizeof *n);
    if (!n) {
        measure_error(w, "floe_coordination: out of memory");
        return FLOE_ERR_MEMORY;
    }
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *c = &w->con[k];
        if (!carries_force(c)) continue;
        n[c->a]++;
        n[c->b]++;
    }
    int64_t sum = 0, sum_mech = 0;
    int mech = 0;
    for (int i = 0; i < w->np; i++) {
        if (!is_particle(w->shape[i]) || (!r->whole && !in_box(w->pos[i], r->lo, r->hi))) continue;
        out->particles++;
        sum += n[i];
        if (n[i] < 2) out->rattlers++;
        else {
            mech++;
            sum_mech += n[i];
        }
    }
    free(n);
    out->z = out->particles ? (double)sum / out->particles : 0;
    out->z_mech = mech ? (double)sum_mech / mech : 0;
    return FLOE_OK;
}

floe_status floe_fabric_tensor(const floe_world *w, const floe_region *r, double out[9], int *contacts) {
    if (!w) return FLOE_ERR_ARG;
    if (!out) return measure_error(w, "floe_fabric_tensor: out is NULL");
    floe_status st = check_region(w, "floe_fabric_tensor", r, 0);
    if (st != FLOE_OK) return st;
    double s[9] = {0};
    int m = 0;
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *c = &w->con[k];
        if (!carries_force(c) || !is_particle(w->shape[c->a]) || !is_particle(w->shape[c->b])) continue;
        const floe_geom g = floe__contact_geom(w, k);
        if (!r->whole && !in_box(g.c, r->lo, r->hi)) continue;
        double n[3] = {g.n.x, g.n.y, g.n.z};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) s[3 * i + j] += n[i] * n[j];
        m++;
    }
    for (int i = 0; i < 9; i++) out[i] = m ? s[i] / m : 0;
    if (contacts) *contacts = m;
    return FLOE_OK;
}

floe_vec3 floe_group_stress(const floe_world *w, int g, double area) {
    const floe_vec3 nan3 = {NAN, NAN, NAN};
    if (!w) return nan3;
    CHECK_ID(w, g, w->ngroups, "group", nan3);
    if (!(area > 0) || !(area <= FLOE_MAX_COORD)) {
        measure_error(w, "floe_group_stress: area = %g must be positive and at most %g", area, FLOE_MAX_COORD);
        return nan3;
    }
    return vscale(floe_group_force(w, g), 1.0 / area);
}

/* ---- plane counters ---------------------------------------------------------- */

int floe_add_plane_counter(floe_world *w, const char *name, floe_vec3 point, floe_vec3 normal, int group) {
    const char *fn = "floe_add_plane_counter";
    if (!w) return -1;
    if (!name || !*name || strlen(name) >= sizeof w->planes[0].name) {
        floe__error(w, "%s: the name must be 1 to %zu characters", fn, sizeof w->planes[0].name - 1);
        return -1;
    }
    if (floe_find_plane_counter(w, name) >= 0) {
        floe__error(w, "%s: a plane counter named '%s' exists already", fn, name);
        return -1;
    }
    if (w->nplanes >= FLOE_MAX_PLANE_COUNTERS) {
        floe__error(w, "%s: at most %d plane counters", fn, FLOE_MAX_PLANE_COUNTERS);
        return -1;
    }
    if (!(coord_ok(point.x) && coord_ok(point.y) && coord_ok(point.z) && coord_ok(normal.x) && coord_ok(normal.y) &&
          coord_ok(normal.z))) {
        floe__error(w, "%s: '%s': point and normal must be finite and at most %g in magnitude", fn, name,
                    FLOE_MAX_COORD);
        return -1;
    }
    /* scaled first, so that a tiny or huge normal's length does not over- or underflow */
    double big = fmax(fabs(normal.x), fmax(fabs(normal.y), fabs(normal.z)));
    if (!(big > 0)) {
        floe__error(w, "%s: '%s': the normal (0, 0, 0) has no direction", fn, name);
        return -1;
    }
    vec3 nn = vnormalize(vscale(normal, 1.0 / big));
    if (group != -1) CHECK_ID(w, group, w->ngroups, "group", -1);
    if (!floe__grow((void **)&w->planes, &w->plcap, w->nplanes + 1, sizeof *w->planes)) {
        floe__error(w, "%s: out of memory", fn);
        return -1;
    }
    floe_plane_counter *p = &w->planes[w->nplanes];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->point = point;
    p->normal = nn;
    p->group = group;
    return w->nplanes++;
}

int floe_plane_counter_count(const floe_world *w) { return w ? w->nplanes : 0; }

int floe_find_plane_counter(const floe_world *w, const char *name) {
    if (!w || !name) return -1;
    for (int i = 0; i < w->nplanes; i++)
        if (!strcmp(w->planes[i].name, name)) return i;
    return -1;
}

floe_status floe_plane_counter_get(const floe_world *w, int id, floe_plane_count *out) {
    if (!w) return FLOE_ERR_ARG;
    CHECK_ID(w, id, w->nplanes, "plane counter", FLOE_ERR_ARG);
    if (!out) return measure_error(w, "floe_plane_counter_get: out is NULL");
    const floe_plane_counter *p = &w->planes[id];
    *out = (floe_plane_count){p->name, p->point, p->normal, p->group, p->n[0], p->n[1], p->m[0], p->m[1]};
    return FLOE_OK;
}

/* Bit k of byte i: body i is on the positive side of counter k (k < 8 per
 * byte; FLOE_MAX_PLANE_COUNTERS / 8 bytes per body at most). */
static int plane_bytes(const floe_world *w) { return (w->nplanes + 7) / 8; }

static int counted(const floe_world *w, const floe_plane_counter *p, int i) {
    return is_particle(w->shape[i]) && (p->group < 0 || (w->groups[i] >> p->group & 1u));
}

static int positive_side(const floe_plane_counter *p, vec3 x) { return vdot(vsub(x, p->point), p->normal) >= 0; }

floe_status floe__planes_before(floe_world *w) {
    int nb = plane_bytes(w);
    uint8_t *side = floe__scratch(w, SCR_PLANE_SIDES, (size_t)w->np * (size_t)nb + 1);
    if (!side) {
        floe__error(w, "plane counters: out of memory for the sides of %d bodies", w->np);
        return FLOE_ERR_MEMORY;
    }
    memset(side, 0, (size_t)w->np * (size_t)nb);
    for (int k = 0; k < w->nplanes; k++) {
        const floe_plane_counter *p = &w->planes[k];
        for (int i = 0; i < w->np; i++)
            if (counted(w, p, i) && positive_side(p, w->pos[i]))
                side[(size_t)i * (size_t)nb + (size_t)(k >> 3)] |= (uint8_t)(1u << (k & 7));
    }
    return FLOE_OK;
}

void floe__planes_after(floe_world *w) {
    int nb = plane_bytes(w);
    const uint8_t *side = w->scratch[SCR_PLANE_SIDES];
    /* in body order, so the mass sums do not depend on the thread count */
    for (int k = 0; k < w->nplanes; k++) {
        floe_plane_counter *p = &w->planes[k];
        for (int i = 0; i < w->np; i++) {
            if (!counted(w, p, i)) continue;
            int before = side[(size_t)i * (size_t)nb + (size_t)(k >> 3)] >> (k & 7) & 1;
            int now = positive_side(p, w->pos[i]);
            if (before == now) continue;
            int to = now ? 0 : 1;
            p->n[to]++;
            p->m[to] += w->mass[i];
        }
    }
}
