/* Water: buoyancy, drag, rotational drag and wind (water.h; formulas,
 * defaults and their sources in docs/models/water.md). */
#include "core/water.h"

#include "shapes/polyhedron_water.h"

/* The surface seen from a body at pos with orientation q: up in the body
 * frame and the height d of the surface above the centre. The surface is the
 * plane z = level; a surface elevation eta(x, y, t) would enter here, as
 * the local level (and slope) at the body (docs/models/water.md#surface). */
static void water_surface(const floe_water_def *wd, vec3 pos, quat q, double time, vec3 *up, double *d) {
    (void)time; /* a surface elevation eta(x, y, t) would be read here */
    *up = qrotate(qconj(q), v3(0, 0, 1));
    *d = wd->level - pos.z;
}

/* Submerged volume, centroid (body frame), waterplane of the shape. */
static void water_submerged(const floe_water_shape *s, vec3 up, double d, floe_submerged *out) {
    switch (s->shape) {
        case FLOE_SHAPE_CAPSULE:
            floe_capsule_submerged(s->radius, s->shaft, up, d, out);
            break;
        case FLOE_SHAPE_ELLIPSOID:
            floe_ellipsoid_submerged(s->semi, up, d, out);
            break;
        case FLOE_SHAPE_POLYHEDRON:
            floe_poly_submerged(s->poly, up, d, out);
            break;
        default:
            floe_sphere_submerged(s->radius, up, d, out);
            break;
    }
}

double floe__water_section(const floe_water_shape *s, vec3 up, double h) {
    switch (s->shape) {
        case FLOE_SHAPE_CAPSULE:
            return floe_capsule_section(s->radius, s->shaft, up, h);
        case FLOE_SHAPE_ELLIPSOID:
            return floe_ellipsoid_section(s->semi, up, h);
        case FLOE_SHAPE_POLYHEDRON:
            return floe_poly_section(s->poly, up, h);
        default:
            return floe_sphere_section(s->radius, h);
    }
}

double floe__water_frontal(const floe_water_shape *s, vec3 up, vec3 m, double d) {
    switch (s->shape) {
        case FLOE_SHAPE_CAPSULE:
            return floe_capsule_frontal(s->radius, s->shaft, up, m, d);
        case FLOE_SHAPE_ELLIPSOID:
            return floe_ellipsoid_frontal(s->semi, up, m, d);
        case FLOE_SHAPE_POLYHEDRON:
            return floe_poly_frontal(s->poly, up, m, d);
        default:
            return floe_sphere_frontal(s->radius, d);
    }
}

/* |u| u */
static vec3 quad(vec3 u) { return vscale(u, vlen(u)); }

void floe__water_forces(const floe_water_def *wd, double g, const floe_water_shape *s, vec3 pos, quat q, vec3 v,
                        vec3 om, double time, floe_bf *out) {
    vec3 up;
    double d;
    water_surface(wd, pos, q, time, &up, &d);
    floe_submerged sub;
    water_submerged(s, up, d, &sub);
    double rho = wd->density;
    /* buoyancy at the centre of buoyancy */
    vec3 fb = v3(0, 0, rho * g * sub.volume);
    out->f = vadd(out->f, fb);
    out->t = vadd(out->t, vcross(qrotate(q, sub.centroid), fb));
    /* the largest horizontal sections below and above the surface: through
     * the centre, or at the surface when it does not reach the centre (the
     * central section is the largest of a centrally symmetric convex body) */
    double a_mid = floe__water_section(s, up, 0); /* the surface's section is sub.waterplane */
    double a_wet = d < 0 ? sub.waterplane : a_mid, a_dry = d > 0 ? sub.waterplane : a_mid;
    vec3 rel = vsub(wd->current, v), relh = v3(rel.x, rel.y, 0);
    vec3 f = v3(0, 0, 0);
    double sh = vlen(relh);
    if (sh > 0 && (a_wet > 0 || sub.volume > 0)) {
        vec3 m = qrotate(qconj(q), vscale(relh, 1 / sh));
        double a_front = floe__water_frontal(s, up, m, d);
        /* skin drag on the wetted footprint, form drag on the frontal area */
        f = vscale(quad(relh), rho * (wd->skin_drag * a_wet + 0.5 * wd->form_drag * a_front));
    }
    /* vertical motion: form drag on the footprint */
    f.z += 0.5 * rho * wd->form_drag * a_wet * fabs(rel.z) * rel.z;
    /* wind stress on the emerged footprint */
    f = vadd(f, vscale(quad(wd->wind), wd->air_density * wd->wind_drag * a_dry));
    out->fw = vadd(out->fw, f);
    /* rotational drag: the skin law integrated over a disk of the wetted
     * footprint's area spinning about its centre, (2/5) rho C_w A R^3 |w|w,
     * and the form law over the same disk turning about a diameter,
     * (4/15) rho C_d R^5 |w|w */
    if (wd->rotational_drag > 0 && a_wet > 0) {
        double r2 = a_wet / FLOE_PI, r3 = r2 * sqrt(r2);
        double kz = wd->rotational_drag * 0.4 * rho * wd->skin_drag * a_wet * r3;
        double kh = wd->rotational_drag * (4.0 / 15.0) * rho * wd->form_drag * r2 * r3;
        vec3 omh = v3(om.x, om.y, 0);
        out->tw = vadd(out->tw, vadd(vscale(quad(omh), -kh), v3(0, 0, -kz * fabs(om.z) * om.z)));
    }
}

double floe__water_potential(const floe_water_def *wd, double g, const floe_water_shape *s, vec3 pos, quat q,
                             double time) {
    vec3 up;
    double d;
    water_surface(wd, pos, q, time, &up, &d);
    floe_submerged sub;
    water_submerged(s, up, d, &sub);
    if (!(sub.volume > 0)) return 0;
    return wd->density * g * sub.volume * (d - qrotate(q, sub.centroid).z);
}

/* 1 and *s filled if water acts on body i (a sphere, capsule, ellipsoid or
 * polyhedron). The shape's dimensions, read here only, from the body's record in the
 * world's shape store. (The public accessors
 * floe_capsule_shaft and floe_ellipsoid_semi_axes live in world_api.c,
 * which calls the body forces: using them here would close a cycle.) */
static int water_body(const floe_world *w, int i, floe_water_shape *s) {
    int t = w->shape[i];
    s->shape = (floe_shape_type)t;
    s->radius = w->radius[i];
    s->shaft = 0;
    s->semi = v3(0, 0, 0);
    s->poly = NULL;
    if (t == FLOE_SHAPE_SPHERE) return 1;
    if (t == FLOE_SHAPE_POLYHEDRON) {
        s->poly = floe__shape_data(w, i);
        return 1;
    }
    if (t == FLOE_SHAPE_CAPSULE) {
        s->shaft = ((const floe_capsule *)floe__shape_data(w, i))->shaft;
        return 1;
    }
    if (t == FLOE_SHAPE_ELLIPSOID) {
        s->semi = ((const floe_ellipsoid *)floe__shape_data(w, i))->semi;
        return 1;
    }
    return 0;
}

static int water_active(const floe_world *w) { return w->has_water; }

static double gz(const floe_world *w) { return -w->def.gravity.z; }

static void water_eval(const floe_world *w, int i, floe_bf *out) {
    floe_water_shape s;
    if (!water_body(w, i, &s)) return;
    floe__water_forces(&w->water, gz(w), &s, w->pos[i], floe__surface_ori(w, i), w->vel[i], w->angvel[i], w->time, out);
}

static double water_potential(const floe_world *w, int i) {
    floe_water_shape s;
    if (!water_body(w, i, &s)) return 0;
    return floe__water_potential(&w->water, gz(w), &s, w->pos[i], floe__surface_ori(w, i), w->time);
}

const floe_body_force floe__water_force = {"water", water_active, water_eval, water_potential};
