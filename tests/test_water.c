/* Water's formulas (src/shapes/submerged.c, src/core/water.c) against
 * closed forms and an independent integration: submerged volume, centre of
 * buoyancy, waterplane, sections and frontal areas of spheres, ellipsoids
 * and capsules in any orientation; buoyancy as the gradient of its
 * potential; drag, wind and rotational drag (docs/models/water.md). */
#include "check.h"
#include "core/water.h"

static const double PI = 3.14159265358979323846;

static quat qaxis(vec3 axis, double angle) { return qfrom_rotvec(vnormalize(axis), angle); }
static vec3 up_of(quat q) { return qrotate(qconj(q), v3(0, 0, 1)); }

/* ---- independent reference: vertical lines through the body -------------
 * For each (x, y) of an n x n grid over the body's box, the vertical line
 * meets the convex body in an interval [z0, z1] (exact per line); the part
 * below the surface adds to the volume and its moments (midpoint rule in x
 * and y). Error ~ n^-1.5 from the boundary cells. */
typedef int (*line_fn)(const void *body, double x, double y, double *z0, double *z1);

typedef struct ellb {
    vec3 semi;
    quat q;
} ellb;
static int ell_line(const void *b, double x, double y, double *z0, double *z1) {
    const ellb *e = b;
    /* body coordinates of (x, y, z) = p + z k; |S^-1 u|^2 = 1 */
    vec3 p = qrotate(qconj(e->q), v3(x, y, 0)), k = up_of(e->q);
    vec3 ps = v3(p.x / e->semi.x, p.y / e->semi.y, p.z / e->semi.z);
    vec3 ks = v3(k.x / e->semi.x, k.y / e->semi.y, k.z / e->semi.z);
    double a = vdot(ks, ks), bb = 2 * vdot(ps, ks), c = vdot(ps, ps) - 1, disc = bb * bb - 4 * a * c;
    if (disc <= 0) return 0;
    *z0 = (-bb - sqrt(disc)) / (2 * a);
    *z1 = (-bb + sqrt(disc)) / (2 * a);
    return 1;
}

typedef struct capb {
    double r, L;
    quat q;
} capb;
/* the line p + z k against the sphere of centre c */
static int sphere_line(vec3 p, vec3 k, vec3 c, double r, double *z0, double *z1) {
    vec3 dp = vsub(p, c);
    double bb = vdot(dp, k), cc = vdot(dp, dp) - r * r, disc = bb * bb - cc;
    if (disc < 0) return 0;
    *z0 = -bb - sqrt(disc);
    *z1 = -bb + sqrt(disc);
    return 1;
}
static int cap_line(const void *b, double x, double y, double *z0, double *z1) {
    const capb *cp = b;
    vec3 e = qrotate(cp->q, v3(1, 0, 0)), p = v3(x, y, 0), k = v3(0, 0, 1);
    double lo = INFINITY, hi = -INFINITY, a0, a1;
    for (int s = -1; s <= 1; s += 2)
        if (sphere_line(p, k, vscale(e, 0.5 * s * cp->L), cp->r, &a0, &a1)) {
            lo = fmin(lo, a0);
            hi = fmax(hi, a1);
        }
    /* infinite cylinder: |(p + z k) x e|^2 = r^2, then the slab |(.).e| <= L/2 */
    vec3 pe = vsub(p, vscale(e, vdot(p, e))), ke = vsub(k, vscale(e, vdot(k, e)));
    double A = vdot(ke, ke), B = 2 * vdot(pe, ke), C = vdot(pe, pe) - cp->r * cp->r, disc = B * B - 4 * A * C;
    if (A > 1e-300 && disc > 0) {
        double c0 = (-B - sqrt(disc)) / (2 * A), c1 = (-B + sqrt(disc)) / (2 * A);
        double pz = vdot(p, e), kz = vdot(k, e); /* axial coordinate pz + z kz within +-L/2 */
        double s0 = -INFINITY, s1 = INFINITY;
        if (fabs(kz) > 0) {
            s0 = fmin((-0.5 * cp->L - pz) / kz, (0.5 * cp->L - pz) / kz);
            s1 = fmax((-0.5 * cp->L - pz) / kz, (0.5 * cp->L - pz) / kz);
        } else if (fabs(pz) > 0.5 * cp->L) {
            s0 = INFINITY;
        }
        double l0 = fmax(c0, s0), l1 = fmin(c1, s1);
        if (l0 < l1) {
            lo = fmin(lo, l0);
            hi = fmax(hi, l1);
        }
    }
    if (!(lo < hi)) return 0;
    *z0 = lo;
    *z1 = hi;
    return 1;
}

static void grid_submerged(line_fn f, const void *b, double ext, double d, int n, floe_submerged *out, vec3 *cg) {
    double h = 2 * ext / n, v = 0, mx = 0, my = 0, mz = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double x = -ext + (i + 0.5) * h, y = -ext + (j + 0.5) * h, z0, z1;
            if (!f(b, x, y, &z0, &z1)) continue;
            z1 = fmin(z1, d);
            if (z1 <= z0) continue;
            double len = z1 - z0;
            v += len;
            mx += x * len;
            my += y * len;
            mz += 0.5 * (z1 * z1 - z0 * z0);
        }
    out->volume = v * h * h;
    *cg = v > 0 ? v3(mx / v, my / v, mz / v) : v3(0, 0, 0); /* global frame, about the centre */
}

/* ---- sphere ---------------------------------------------------------------- */

static void test_sphere(void) {
    double R = 0.7;
    for (int k = 0; k <= 20; k++) {
        double d = -R + 2 * R * k / 20.0;
        floe_submerged s;
        floe_sphere_submerged(R, v3(0, 0, 1), d, &s);
        /* slices pi (R^2 - z^2) from -R to d */
        double V = PI * (R * R * (d + R) - (d * d * d + R * R * R) / 3);
        double M = PI * (R * R * d * d / 2 - d * d * d * d / 4 - R * R * R * R / 4);
        CHECK_NEAR(s.volume, V, 1e-14);
        if (V > 1e-12) CHECK_NEAR(s.centroid.z, M / V, 1e-12);
        CHECK_NEAR(s.waterplane, k == 0 || k == 20 ? 0 : PI * (R * R - d * d), 1e-14);
        /* the submerged frontal area is the disk below the surface */
        double seg = R * R * acos(-d / R) + d * sqrt(R * R - d * d);
        CHECK_NEAR(floe_sphere_frontal(R, d), seg, 1e-14);
    }
    /* half submerged: 2/3 pi R^3, centroid 3R/8 below */
    floe_submerged s;
    floe_sphere_submerged(R, v3(0, 0, 1), 0, &s);
    CHECK_REL(s.volume, 2.0 / 3.0 * PI * R * R * R, 1e-15);
    CHECK_REL(s.centroid.z, -3.0 / 8.0 * R, 1e-15);
    REPORT("sphere: cap volume, centroid, waterplane, frontal area exact\n");
}

/* ---- ellipsoid ------------------------------------------------------------- */

static void test_ellipsoid(void) {
    vec3 S = v3(1.3, 0.8, 0.5);
    double c = S.z;
    /* upright (z axis vertical): slices pi a b (1 - z^2 / c^2) */
    for (int k = 1; k < 10; k++) {
        double d = -c + 2 * c * k / 10.0;
        floe_submerged s;
        floe_ellipsoid_submerged(S, v3(0, 0, 1), d, &s);
        double V = PI * S.x * S.y * (d + c - (d * d * d + c * c * c) / (3 * c * c));
        double M = PI * S.x * S.y * (d * d / 2 - d * d * d * d / (4 * c * c) - c * c / 4);
        CHECK_REL(s.volume, V, 1e-13);
        CHECK_NEAR(s.centroid.z, M / V, 1e-13);
        CHECK_REL(s.waterplane, PI * S.x * S.y * (1 - d * d / (c * c)), 1e-13);
        /* frontal along x: the ellipse of semi-axes b, c below d */
        double seg = S.y * c * (acos(-d / c) + (d / c) * sqrt(1 - d * d / (c * c)));
        CHECK_REL(floe_ellipsoid_frontal(S, v3(0, 0, 1), v3(1, 0, 0), d), seg, 1e-13);
    }
    /* tilted: against the vertical-line integration */
    quat q = qaxis(v3(0.3, -1, 0.4), 0.9);
    ellb b = {S, q};
    vec3 up = up_of(q);
    double s_up = vlen(vmul(S, up));
    double worst_v = 0, worst_c = 0;
    for (int k = 1; k < 6; k++) {
        double d = -s_up + 2 * s_up * k / 6.0;
        floe_submerged s, g;
        vec3 cg;
        floe_ellipsoid_submerged(S, up, d, &s);
        grid_submerged(ell_line, &b, 1.35, d, 1200, &g, &cg);
        worst_v = fmax(worst_v, fabs(s.volume - g.volume) / g.volume);
        worst_c = fmax(worst_c, vlen(vsub(qrotate(q, s.centroid), cg)));
        /* the waterplane is dV/dd */
        floe_submerged p, m;
        double h = 1e-5;
        floe_ellipsoid_submerged(S, up, d + h, &p);
        floe_ellipsoid_submerged(S, up, d - h, &m);
        CHECK_REL(s.waterplane, (p.volume - m.volume) / (2 * h), 1e-8);
        CHECK_REL(floe_ellipsoid_section(S, up, d), s.waterplane, 1e-15);
    }
    CHECK(worst_v < 2e-5);
    CHECK(worst_c < 2e-5);
    REPORT("ellipsoid tilted: volume vs grid rel %.2e, centroid %.2e m\n", worst_v, worst_c);
}

/* ---- capsule --------------------------------------------------------------- */

/* circular segment below t of a disk of radius r, and its moment along t */
static double seg_area(double r, double t) { return r * r * acos(-t / r) + t * sqrt(r * r - t * t); }

static void test_capsule(void) {
    double r = 0.4, L = 1.5, Vtot = PI * r * r * (L + 4.0 / 3.0 * r);
    /* horizontal (axis x horizontal): cylinder segments plus a sphere cap */
    for (int k = 1; k < 10; k++) {
        double d = -r + 2 * r * k / 10.0;
        floe_submerged s, sph;
        floe_capsule_submerged(r, L, v3(0, 0, 1), d, &s);
        floe_sphere_submerged(r, v3(0, 0, 1), d, &sph);
        double V = L * seg_area(r, d) + sph.volume;
        double M = L * (-2.0 / 3.0) * pow(r * r - d * d, 1.5) + sph.volume * sph.centroid.z;
        CHECK_REL(s.volume, V, 1e-11);
        CHECK_NEAR(s.centroid.z, M / V, 1e-11);
        CHECK_NEAR(s.centroid.x, 0, 1e-12);
        CHECK_REL(s.waterplane, 2 * sqrt(r * r - d * d) * L + PI * (r * r - d * d), 1e-11);
        double front = seg_area(r, d); /* along x: the end-on disk */
        CHECK_REL(floe_capsule_frontal(r, L, v3(0, 0, 1), v3(1, 0, 0), d), front, 1e-13);
        /* along y: the stadium below d: a rectangle L wide plus the disk */
        CHECK_REL(floe_capsule_frontal(r, L, v3(0, 0, 1), v3(0, 1, 0), d), L * (d + r) + seg_area(r, d), 1e-13);
    }
    /* vertical (axis along up): a cap, then the shaft, then a cap */
    for (int k = 1; k < 12; k++) {
        double ext = 0.5 * L + r, d = -ext + 2 * ext * k / 12.0;
        floe_submerged s;
        floe_capsule_submerged(r, L, v3(1, 0, 0), d, &s);
        double lo = -0.5 * L, hi = 0.5 * L, V;
        if (d <= lo) {
            floe_submerged c;
            floe_sphere_submerged(r, v3(0, 0, 1), d - lo, &c);
            V = c.volume;
        } else if (d <= hi) {
            V = 2.0 / 3.0 * PI * r * r * r + PI * r * r * (d - lo);
        } else {
            floe_submerged c;
            floe_sphere_submerged(r, v3(0, 0, 1), d - hi, &c);
            V = 2.0 / 3.0 * PI * r * r * r + PI * r * r * L + c.volume - 2.0 / 3.0 * PI * r * r * r;
        }
        CHECK_REL(s.volume, V, 1e-12);
        /* upside down: the same with d mirrored */
        floe_submerged m;
        floe_capsule_submerged(r, L, v3(-1, 0, 0), d, &m);
        CHECK_REL(m.volume, V, 1e-12);
    }
    /* a capsule of shaft 0 is a sphere, in any tilt: the caps' quadrature */
    double worst = 0;
    for (int t = 0; t < 7; t++) {
        quat q = qaxis(v3(0.2, 1, 0.3 * t), 0.25 * t + 0.1);
        vec3 up = up_of(q);
        for (int k = 1; k < 9; k++) {
            double d = -r + 2 * r * k / 9.0;
            floe_submerged s, e;
            floe_capsule_submerged(r, 0, up, d, &s);
            floe_sphere_submerged(r, up, d, &e);
            worst = fmax(worst, fabs(s.volume - e.volume) / e.volume);
            worst = fmax(worst, vlen(vsub(s.centroid, e.centroid)) / r);
            worst = fmax(worst, fabs(s.waterplane - e.waterplane) / e.waterplane);
        }
    }
    CHECK(worst < 1e-10);
    REPORT("capsule of shaft 0 in 56 poses vs the sphere: worst relative error %.2e\n", worst);
    /* tilted, surface across the shaft only: the bottom hemisphere plus the
     * cylinder up to where the surface crosses the axis (the two wedges of
     * the oblique cut cancel) */
    {
        quat q = qaxis(v3(0, 1, 0), -1.2); /* axis x tilted 1.2 rad from horizontal, +x up */
        vec3 up = up_of(q);
        double d = 0.1, s_axis = d / up.x; /* crosses the axis at s = d / c */
        floe_submerged s;
        floe_capsule_submerged(r, L, up, d, &s);
        CHECK(fabs(s_axis) + r * sqrt(1 - up.x * up.x) / up.x < 0.5 * L);
        CHECK_REL(s.volume, 2.0 / 3.0 * PI * r * r * r + PI * r * r * (s_axis + 0.5 * L), 1e-11);
    }
    /* general tilts: the vertical-line integration, dV/dd and the complement */
    capb b = {r, L, qaxis(v3(1, 2, -0.5), 0.7)};
    vec3 up = up_of(b.q);
    double wv = 0, wc = 0;
    for (int k = 1; k < 8; k++) {
        double ext = 0.5 * L * fabs(up.x) + r, d = -ext + 2 * ext * k / 8.0;
        floe_submerged s, g, p, m, above;
        vec3 cg;
        floe_capsule_submerged(r, L, up, d, &s);
        grid_submerged(cap_line, &b, 1.2, d, 1200, &g, &cg);
        wv = fmax(wv, fabs(s.volume - g.volume) / g.volume);
        wc = fmax(wc, vlen(vsub(qrotate(b.q, s.centroid), cg)));
        double h = 1e-5;
        floe_capsule_submerged(r, L, up, d + h, &p);
        floe_capsule_submerged(r, L, up, d - h, &m);
        CHECK_REL(s.waterplane, (p.volume - m.volume) / (2 * h), 1e-7);
        floe_capsule_submerged(r, L, vneg(up), -d, &above);
        CHECK_REL(s.volume + above.volume, Vtot, 1e-11);
        CHECK_NEAR(vlen(vadd(vscale(s.centroid, s.volume), vscale(above.centroid, above.volume))), 0, 1e-11);
        CHECK_REL(floe_capsule_section(r, L, up, d), s.waterplane, 1e-15);
    }
    CHECK(wv < 2e-5);
    CHECK(wc < 2e-5);
    REPORT("capsule tilted: volume vs grid rel %.2e, centroid %.2e m\n", wv, wc);
    /* nearly vertical: continuous with the vertical case */
    floe_submerged a, v;
    floe_capsule_submerged(r, L, up_of(qaxis(v3(0, 1, 0), -0.5 * PI + 1e-7)), 0.3, &a);
    floe_capsule_submerged(r, L, v3(1, 0, 0), 0.3, &v);
    CHECK_REL(a.volume, v.volume, 1e-12);
    /* the chord integral loses ~1e-16 / sn to rounding at a tilt sn */
    CHECK_REL(a.waterplane, v.waterplane, 1e-9);
}

/* Frontal areas of tilted bodies against a grid over the silhouette: a point
 * of the plane normal to m is in it when the line along m meets the body. */
static void test_frontal(void) {
    double r = 0.4, L = 1.5;
    quat q = qaxis(v3(1, 2, -0.5), 0.7);
    vec3 up = up_of(q), mg = vnormalize(v3(0.6, -0.8, 0)), m = qrotate(qconj(q), mg);
    vec3 wg = vcross(v3(0, 0, 1), mg); /* horizontal, in the plane */
    vec3 S = v3(1.3, 0.8, 0.5);
    int n = 1500;
    double ext = 1.3, h = 2 * ext / n, worst = 0;
    for (int k = 1; k < 6; k++) {
        double d = -0.6 + 1.2 * k / 6.0, ac = 0, ae = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double a = -ext + (i + 0.5) * h, z = -ext + (j + 0.5) * h;
                if (z >= d) continue;
                vec3 p = vadd(vscale(wg, a), v3(0, 0, z)), pb = qrotate(qconj(q), p);
                /* capsule: distance from the line p + t mg to the segment */
                vec3 e = qrotate(q, v3(1, 0, 0));
                vec3 n1 = vcross(mg, e);
                double dist;
                if (vlen(n1) < 1e-12) {
                    dist = vlen(vsub(p, vscale(mg, vdot(p, mg))));
                } else {
                    /* closest points of the line and the segment's line, clamped */
                    double b = vdot(mg, e), dd = vdot(mg, p), ee = vdot(e, p);
                    double se = (ee - b * dd) / (1 - b * b);
                    se = fmax(-0.5 * L, fmin(0.5 * L, se));
                    vec3 c = vscale(e, se), rel = vsub(p, c);
                    dist = vlen(vsub(rel, vscale(mg, vdot(rel, mg))));
                }
                if (dist <= r) ac += h * h;
                /* ellipsoid: the line pb + t mb meets |S^-1 x| = 1 */
                vec3 ps = v3(pb.x / S.x, pb.y / S.y, pb.z / S.z), ms = v3(m.x / S.x, m.y / S.y, m.z / S.z);
                double A = vdot(ms, ms), B = vdot(ps, ms), C = vdot(ps, ps) - 1;
                if (B * B - A * C >= 0) ae += h * h;
            }
        double fc = floe_capsule_frontal(r, L, up, m, d), fe = floe_ellipsoid_frontal(S, up, m, d);
        worst = fmax(worst, fabs(fc - ac) / ac);
        worst = fmax(worst, fabs(fe - ae) / ae);
    }
    CHECK(worst < 2e-3);
    REPORT("frontal areas, tilted capsule and ellipsoid vs grid: rel %.2e\n", worst);
    /* exact: the axis tilted by al in the plane normal to m, the surface line
     * across the long sides only: the lower half-disk plus the rectangle up
     * to where the line crosses the axis (the two triangles cancel) */
    double al = 1.0, d = 0.1;
    vec3 u = up_of(qaxis(v3(0, 1, 0), -al));
    double sa = d / u.x;
    CHECK(fabs(sa) + r / tan(al) < 0.5 * L);
    CHECK_REL(floe_capsule_frontal(r, L, u, v3(0, 1, 0), d), 0.5 * PI * r * r + 2 * r * (sa + 0.5 * L), 1e-13);
}

/* ---- forces ---------------------------------------------------------------- */

/* Buoyancy is minus the gradient of its potential: force by a displacement
 * along z, torque by small rotations about each axis. */
static void check_gradient(const floe_water_def *wd, const floe_water_shape *s, vec3 pos, quat q, const char *what) {
    double g = 9.81, h = 1e-6;
    floe_bf bf = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    floe__water_forces(wd, g, s, pos, q, v3(0, 0, 0), v3(0, 0, 0), 0, &bf);
    double up_ = floe__water_potential(wd, g, s, vadd(pos, v3(0, 0, h)), q, 0);
    double dn_ = floe__water_potential(wd, g, s, vadd(pos, v3(0, 0, -h)), q, 0);
    double fz = -(up_ - dn_) / (2 * h), scale = fabs(bf.f.z);
    CHECK_NEAR(bf.f.z, fz, 1e-6 * scale);
    double worst = fabs(bf.f.z - fz) / scale;
    for (int k = 0; k < 3; k++) {
        vec3 ax = v3(k == 0, k == 1, k == 2);
        double ep = floe__water_potential(wd, g, s, pos, qmul(qfrom_rotvec(ax, h), q), 0);
        double em = floe__water_potential(wd, g, s, pos, qmul(qfrom_rotvec(ax, -h), q), 0);
        double tk = -(ep - em) / (2 * h);
        CHECK_NEAR(vcomp(bf.t, k), tk, 1e-6 * scale);
        worst = fmax(worst, fabs(vcomp(bf.t, k) - tk) / scale);
    }
    REPORT("%s: buoyancy force and torque = -grad potential to %.1e (of the force)\n", what, worst);
}

static void test_forces(void) {
    floe_water_def wd = floe_default_water_def();
    wd.level = 0.2;
    double R = 0.5, g = 9.81, rho = wd.density;
    floe_water_shape sph = {FLOE_SHAPE_SPHERE, R, 0, {0, 0, 0}};
    /* half submerged, at rest, in a current along x, wind along x, rising */
    wd.current = v3(0.3, 0, 0);
    wd.wind = v3(10, 0, 0);
    vec3 v = v3(0, 0, 0.2), om = v3(0.5, 0, 2);
    floe_bf bf = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    floe__water_forces(&wd, g, &sph, v3(1, 2, wd.level), qaxis(v3(1, 1, 0), 0.3), v, om, 0, &bf);
    double A = PI * R * R;
    CHECK_REL(bf.f.z, rho * g * 2.0 / 3.0 * PI * R * R * R, 1e-14);
    CHECK_NEAR(vlen(bf.t), 0, 1e-9);
    /* skin on pi R^2 and form drag on the half disk, current 0.3 m/s */
    double fx = rho * (wd.skin_drag * A + 0.5 * wd.form_drag * 0.5 * A) * 0.3 * 0.3 +
                wd.air_density * wd.wind_drag * A * 10 * 10;
    CHECK_REL(bf.fw.x, fx, 1e-13);
    CHECK_NEAR(bf.fw.y, 0, 1e-12);
    CHECK_REL(bf.fw.z, -0.5 * rho * wd.form_drag * A * 0.2 * 0.2, 1e-13);
    /* spin: (2/5) rho C_w A R^3 w^2 about z, (4/15) rho C_d R^5 w^2 about x */
    CHECK_REL(bf.tw.z, -0.4 * rho * wd.skin_drag * A * R * R * R * 4, 1e-13);
    CHECK_REL(bf.tw.x, -4.0 / 15.0 * rho * wd.form_drag * pow(R, 5) * 0.25, 1e-13);
    /* potential: rho g V (level - z_B) with z_B 3R/8 below the surface */
    CHECK_REL(floe__water_potential(&wd, g, &sph, v3(0, 0, wd.level), qidentity(), 0),
              rho * g * 2.0 / 3.0 * PI * R * R * R * 3.0 / 8.0 * R, 1e-14);
    /* out of the water: only the wind, on the full footprint */
    floe_bf air = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    floe__water_forces(&wd, g, &sph, v3(0, 0, wd.level + 2 * R), qidentity(), v, om, 0, &air);
    CHECK(air.f.z == 0 && air.fw.z == 0 && vlen(air.tw) == 0);
    CHECK_REL(air.fw.x, wd.air_density * wd.wind_drag * A * 100, 1e-14);
    /* tilted ellipsoid and capsule: torque and force from the potential */
    floe_water_shape ell = {FLOE_SHAPE_ELLIPSOID, 0.3, 0, {1.0, 0.6, 0.3}};
    floe_water_shape cap = {FLOE_SHAPE_CAPSULE, 0.3, 1.2, {0, 0, 0}};
    check_gradient(&wd, &ell, v3(0, 0, 0.25), qaxis(v3(1, 0.4, 0.2), 0.5), "ellipsoid");
    check_gradient(&wd, &cap, v3(0, 0, 0.05), qaxis(v3(0.2, 1, 0.3), 0.6), "capsule");
}

int main(void) {
    test_sphere();
    test_ellipsoid();
    test_capsule();
    test_frontal();
    test_forces();
    return CHECK_DONE();
}
