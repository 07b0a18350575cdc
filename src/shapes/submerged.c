/* Submerged volume, centre of buoyancy, sections and frontal areas of
 * spheres, ellipsoids and capsules under a horizontal surface
 * (submerged.h; derivations in docs/models/water.md#geometry). */
#include "shapes/submerged.h"

static double clamp1(double x) { return x < -1 ? -1 : (x > 1 ? 1 : x); }

/* Area of the unit disk below the height delta (clamped to [-1, 1]). */
static double disk_below(double delta) {
    double t = clamp1(delta);
    return asin(t) + 0.5 * FLOE_PI + t * sqrt(fmax(0, 1 - t * t));
}

/* The unit ball below the plane u.n < delta (|n| = 1): volume and the
 * centroid's coordinate along n. With H = 1 + delta the height of the cap,
 * V = pi H^2 (3 - H) / 3, and its first moment along n is
 * -pi (1 - delta^2)^2 / 4, whose ratio to V simplifies to the form below
 * (no cancellation near delta = -1). */
static void unit_cap(double delta, double *vol, double *zc) {
    if (delta <= -1) {
        *vol = *zc = 0;
    } else if (delta >= 1) {
        *vol = 4.0 / 3.0 * FLOE_PI;
        *zc = 0;
    } else {
        *vol = FLOE_PI * (1 + delta) * (1 + delta) * (2 - delta) / 3;
        *zc = -0.75 * (1 - delta) * (1 - delta) / (2 - delta);
    }
}

/* ---- ellipsoid (the sphere is the case a = b = c) -------------------------
 * x = S u maps the unit ball onto the ellipsoid (S = diag of the semi-axes).
 * The surface up.x < d becomes (S up).u < d, i.e. n.u < d / s with
 * s = |S up| and n = S up / s: a spherical cap of the unit ball. Volumes
 * scale by abc and centroids map by S, so V = abc V_cap(d / s) and the
 * centroid is S n zc = S^2 up zc / s. A plane section maps the same way:
 * the unit disk of radius sqrt(1 - delta^2) in the plane normal to n maps
 * to the area pi (1 - delta^2) abc |S^-1 n| = pi (1 - delta^2) abc / s. */

void floe_ellipsoid_submerged(vec3 semi, vec3 up, double d, floe_submerged *out) {
    vec3 su = vmul(semi, up);
    double s = vlen(su), abc = semi.x * semi.y * semi.z, delta = d / s, v, zc;
    unit_cap(delta, &v, &zc);
    out->volume = abc * v;
    out->centroid = vscale(vmul(semi, su), zc / s);
    out->waterplane = fabs(delta) < 1 ? FLOE_PI * (1 - delta * delta) * abc / s : 0;
}

void floe_sphere_submerged(double radius, vec3 up, double d, floe_submerged *out) {
    floe_ellipsoid_submerged(v3(radius, radius, radius), up, d, out);
}

double floe_ellipsoid_section(vec3 semi, vec3 up, double h) {
    double s = vlen(vmul(semi, up)), delta = h / s;
    return fabs(delta) < 1 ? FLOE_PI * (1 - delta * delta) * semi.x * semi.y * semi.z / s : 0;
}

double floe_sphere_section(double radius, double h) {
    return fabs(h) < radius ? FLOE_PI * (radius * radius - h * h) : 0;
}

/* The silhouette along m is an ellipse of area pi abc |S^-1 m| (the
 * projected area of an ellipsoid), whose vertical half-extent is the
 * ellipsoid's, s = |S up|. The surface plane contains m, so the submerged
 * part of the silhouette is the silhouette below the surface line; an
 * affine map that keeps horizontal lines horizontal takes the ellipse to
 * the unit disk, so the part below height d is the disk's part below d / s. */
double floe_ellipsoid_frontal(vec3 semi, vec3 up, vec3 m, double d) {
    double s = vlen(vmul(semi, up));
    double proj = FLOE_PI * semi.x * semi.y * semi.z * vlen(v3(m.x / semi.x, m.y / semi.y, m.z / semi.z));
    return proj * disk_below(d / s) / FLOE_PI;
}

double floe_sphere_frontal(double radius, double d) { return radius * radius * disk_below(d / radius); }

/* ---- capsule --------------------------------------------------------------
 * Slices normal to the axis (coordinate s along body x) are disks of radius
 * rho(s): the radius on the shaft, sqrt(r^2 - (s -+ shaft/2)^2) in the caps.
 * With up = (c, perpendicular part of length sn along the unit e), a point
 * s x + t e + (third coordinate) is submerged when s c + t sn < d, so each
 * slice is cut by the chord t = tau(s) = (d - s c) / sn into a circular
 * segment of closed-form area and moment. The surface touches the slice
 * (tau = +-rho) at points found in closed form; between them the integrand
 * is smooth and a Gauss-Legendre rule on x = x0 + (x1 - x0)(3w^2 - 2w^3)
 * integrates it: the map turns the (x - x0)^(1/2) and (x - x0)^(3/2) ends
 * of a chord or segment into smooth functions of w. x is s on the shaft and
 * the angle th of s = sc + r sin th in a cap, whose radius r cos th has no
 * square root at the pole. */

/* 16-point Gauss-Legendre on [-1, 1]: nodes and weights of one half. */
static const double gl16[8][2] = {
    {0.98940093499164994, 0.027152459411754058}, {0.9445750230732326, 0.062253523938647776},
    {0.86563120238783176, 0.095158511682492897}, {0.755404408355003, 0.12462897125553395},
    {0.61787624440264377, 0.14959598881657682},  {0.45801677765722737, 0.16915651939500256},
    {0.28160355077925892, 0.18260341504492361},  {0.095012509837637441, 0.18945061045506847},
};

/* Below this perpendicular part of up the axis counts as vertical: the
 * volume then changes by O(sn^2) relative, the centroid's sideways shift
 * (O(sn) r) is left out. */
#define CAPSULE_VERTICAL 1e-8

typedef struct cap_geo {
    double r, half; /* radius, half the shaft */
    double c, sn;   /* up along the axis, perpendicular part */
    double d;
} cap_geo;

static double cap_rho(const cap_geo *g, double s) {
    double u = s > g->half ? s - g->half : (s < -g->half ? s + g->half : 0);
    return sqrt(fmax(0, g->r * g->r - u * u));
}

typedef struct cap_sums {
    double v, ms, mt, wp; /* volume, moments along the axis and along e, waterplane */
} cap_sums;

/* The slice at s, weighted by wt. */
static void cap_slice(const cap_geo *g, double s, double wt, cap_sums *acc) {
    double rho = cap_rho(g, s), x = g->d - s * g->c;
    if (x >= rho * g->sn) {
        double a = FLOE_PI * rho * rho;
        acc->v += wt * a;
        acc->ms += wt * s * a;
    } else if (x > -rho * g->sn) {
        double tau = x / g->sn, q = sqrt(fmax(0, rho * rho - tau * tau));
        double a = rho * rho * (asin(clamp1(tau / rho)) + 0.5 * FLOE_PI) + tau * q;
        acc->v += wt * a;
        acc->ms += wt * s * a;
        acc->mt -= wt * (2.0 / 3.0) * q * q * q;
        acc->wp += wt * 2 * q / g->sn;
    }
}

/* Breakpoints of the axial integral: the ends of the shaft and caps and the
 * points where the surface touches a slice; sorted, returns their count. */
static int cap_breaks(const cap_geo *g, double *br) {
    double r = g->r, h = g->half, c = g->c, sn = g->sn, d = g->d;
    int n = 0;
    br[n++] = -h - r;
    br[n++] = -h;
    br[n++] = h;
    br[n++] = h + r;
    /* shaft: d - s c = +-r sn */
    if (c != 0)
        for (int k = -1; k <= 1; k += 2) {
            double s = (d + k * r * sn) / c;
            if (s > -h && s < h) br[n++] = s;
        }
    /* caps centred at sc: (d - s c)^2 = sn^2 (r^2 - (s - sc)^2), with
     * s = sc + u and x0 = d - sc c: u = x0 c +- sn sqrt(r^2 - x0^2) */
    for (int k = -1; k <= 1; k += 2) {
        double sc = k * h, x0 = d - sc * c;
        if (fabs(x0) > r) continue;
        double root = sn * sqrt(r * r - x0 * x0);
        for (int j = -1; j <= 1; j += 2) {
            double s = sc + x0 * c + j * root;
            if (k < 0 ? (s > -h - r && s < -h) : (s > h && s < h + r)) br[n++] = s;
        }
    }
    for (int i = 1; i < n; i++) /* insertion sort of at most 8 values */
        for (int j = i; j > 0 && br[j - 1] > br[j]; j--) {
            double t = br[j];
            br[j] = br[j - 1];
            br[j - 1] = t;
        }
    return n;
}

static void cap_integrate(const cap_geo *g, cap_sums *acc) {
    double br[12];
    int n = cap_breaks(g, br);
    *acc = (cap_sums){0, 0, 0, 0};
    for (int k = 0; k + 1 < n; k++) {
        double s0 = br[k], s1 = br[k + 1];
        if (!(s1 > s0)) continue;
        /* in a cap, the variable is the angle th with s = sc + r sin th: the
         * radius r cos th is then smooth up to the pole */
        double sc = s1 <= -g->half ? -g->half : (s0 >= g->half ? g->half : NAN);
        int cap = !isnan(sc);
        double a = cap ? asin(clamp1((s0 - sc) / g->r)) : s0, len = (cap ? asin(clamp1((s1 - sc) / g->r)) : s1) - a;
        for (int i = 0; i < 8; i++)
            for (int side = -1; side <= 1; side += 2) {
                double w = 0.5 * (1 + side * gl16[i][0]); /* node on [0, 1] */
                double phi = w * w * (3 - 2 * w), dphi = 6 * w * (1 - w);
                double x = a + len * phi, wt = 0.5 * gl16[i][1] * len * dphi;
                if (cap) cap_slice(g, sc + g->r * sin(x), wt * g->r * cos(x), acc);
                else cap_slice(g, x, wt, acc);
            }
    }
}

/* The capsule's geometry for the surface; 0 when the axis is vertical. */
static int cap_setup(double radius, double shaft, vec3 up, double d, cap_geo *g, vec3 *e) {
    *g = (cap_geo){radius, 0.5 * shaft, up.x, sqrt(up.y * up.y + up.z * up.z), d};
    if (g->sn < CAPSULE_VERTICAL) {
        g->sn = 0;
        g->c = up.x >= 0 ? 1 : -1;
        *e = v3(0, 0, 0);
        return 0;
    }
    *e = v3(0, up.y / g->sn, up.z / g->sn);
    return 1;
}

void floe_capsule_submerged(double radius, double shaft, vec3 up, double d, floe_submerged *out) {
    cap_geo g;
    vec3 e;
    int tilted = cap_setup(radius, shaft, up, d, &g, &e);
    double ext = g.half * fabs(up.x) + radius; /* vertical half-extent */
    double total = FLOE_PI * radius * radius * (shaft + 4.0 / 3.0 * radius);
    *out = (floe_submerged){0, v3(0, 0, 0), 0};
    if (d <= -ext) return;
    if (d >= ext) {
        out->volume = total;
        return;
    }
    cap_sums acc;
    cap_integrate(&g, &acc);
    out->volume = acc.v;
    if (acc.v > 0) out->centroid = vadd(v3(acc.ms / acc.v, 0, 0), vscale(e, acc.mt / acc.v));
    if (tilted) {
        out->waterplane = acc.wp;
    } else {
        double rho = cap_rho(&g, d * g.c); /* the level on the axis */
        out->waterplane = FLOE_PI * rho * rho;
    }
}

double floe_capsule_section(double radius, double shaft, vec3 up, double h) {
    floe_submerged s;
    floe_capsule_submerged(radius, shaft, up, h, &s);
    return s.waterplane;
}

/* The silhouette along m is a 2-D capsule: the axis projected on the plane
 * normal to m (length shaft * l) swept by the radius. Its part below the
 * surface line is integrated exactly along the projected axis: each slice
 * is a segment of half-length rho(s) cut at t = tau(s), linear in s; its
 * wet length is 2 rho, tau + rho or 0 between the touching points, and
 * rho integrates in closed form (F below for the caps). */
static double half_disk_int(double r, double u) { /* integral of sqrt(r^2 - u^2) du */
    double t = clamp1(u / r);
    return 0.5 * r * r * (t * sqrt(fmax(0, 1 - t * t)) + asin(t));
}

static double rho_int(const cap_geo *g, double s0, double s1) {
    double h = g->half;
    if (s1 <= -h) return half_disk_int(g->r, s1 + h) - half_disk_int(g->r, s0 + h);
    if (s0 >= h) return half_disk_int(g->r, s1 - h) - half_disk_int(g->r, s0 - h);
    return g->r * (s1 - s0);
}

double floe_capsule_frontal(double radius, double shaft, vec3 up, vec3 m, double d) {
    vec3 w = vcross(up, m); /* horizontal, normal to m */
    double ez = up.x, ew = w.x, l = sqrt(ez * ez + ew * ew);
    if (l * shaft < 1e-12 * radius) return floe_sphere_frontal(radius, d);
    /* slices along the projected axis (ez, ew) / l, their normal (-ew, ez) / l */
    cap_geo g = {radius, 0.5 * shaft * l, ez / l, fabs(ew) / l, d};
    double br[12];
    int n = cap_breaks(&g, br);
    double area = 0;
    for (int k = 0; k + 1 < n; k++) {
        double s0 = br[k], s1 = br[k + 1];
        if (!(s1 > s0)) continue;
        double sm = 0.5 * (s0 + s1), rho = cap_rho(&g, sm), x = d - sm * g.c;
        if (x >= rho * g.sn) {
            area += 2 * rho_int(&g, s0, s1);
        } else if (x > -rho * g.sn) {
            /* tau = (d - s c) / sn integrated over [s0, s1] */
            area += ((d - 0.5 * (s0 + s1) * g.c) * (s1 - s0)) / g.sn + rho_int(&g, s0, s1);
        }
    }
    return area;
}
