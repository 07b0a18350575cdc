/* Convex polyhedra (docs/geometry.md, "Polyhedra"): mass properties of
 * the unit cube, a box, the regular tetrahedron and octahedron against
 * their closed forms, and of random hulls against a Monte Carlo integration
 * over an independent hull (brute-force supporting planes, no Qhull); a
 * cube resting on a wall; a block on an incline that sticks, slides at
 * g (sin theta - mu cos theta) or tips; the energy of an elastic impact
 * against the step; and a pile of polyhedra bitwise the same on 1 and 2
 * threads and after a snapshot round trip mid-run; water: the submerged
 * part of a cube against closed forms, of a random hull against the
 * waterplane (dV/dd = A_wp), and a floating cube's draft. */
#include "check.h"
#include <floe/floe_snapshot.h>
#include "core/water.h"
#include "core/world.h"
#include "shapes/polyhedron_pairs.h"
#include "shapes/polyhedron_water.h"
#include <floe/floe.h>
#include <stdlib.h>

static double rnd(uint64_t *s) { /* splitmix64 -> [0, 1) */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static floe_world *mk_damped(double dt, floe_vec3 g, double damping, int *mat) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    def.damping = damping;
    def.gravity = g;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    *mat = floe_add_material(w, "m", "linear");
    floe_material_set(w, *mat, "density", 1000);
    return w;
}

static floe_world *mk(double dt, floe_vec3 g, int *mat) { return mk_damped(dt, g, 0, mat); }

static floe_body_def body_at(int mat, floe_vec3 pos, floe_quat ori) {
    floe_body_def d = floe_default_body_def();
    d.material = mat;
    d.pos = pos;
    d.ori = ori;
    return d;
}

/* principal inertia, sorted ascending */
static void sorted(floe_vec3 I, double s[3]) {
    s[0] = I.x, s[1] = I.y, s[2] = I.z;
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && s[j] < s[j - 1]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
}

/* ---- mass properties: closed forms ---------------------------------------------- */

static void closed_form(const char *name, int n, const floe_vec3 *v, double vol, const double I_per_m[3]) {
    int mat;
    floe_world *w = mk(1e-5, (floe_vec3){0, 0, 0}, &mat);
    floe_material_set(w, mat, "density", 2.5);
    /* given about a shifted, turned frame: the body goes to the centroid */
    floe_quat q = {0.8, 0.2, -0.4, 0.4};
    double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    q = (floe_quat){q.w / l, q.x / l, q.y / l, q.z / l};
    floe_vec3 vs[32], c = {0, 0, 0};
    for (int k = 0; k < n; k++) {
        vs[k] = (floe_vec3){v[k].x + 0.3, v[k].y - 0.2, v[k].z + 0.1};
        c = (floe_vec3){c.x + vs[k].x / n, c.y + vs[k].y / n, c.z + vs[k].z / n}; /* centroid of symmetric bodies */
    }
    floe_body_def d = body_at(mat, (floe_vec3){1, 2, 3}, q);
    int id = floe_add_polyhedron(w, &d, n, vs);
    CHECK(id == 0);
    double m = floe_masses(w)[id], want_m = 2.5 * vol, s[3];
    CHECK_REL(m, want_m, 1e-12);
    sorted(floe_inertia(w)[id], s);
    for (int k = 0; k < 3; k++) CHECK_REL(s[k], I_per_m[k] * want_m, 1e-12);
    /* position: pos + R c */
    vec3 x = vadd(v3(1, 2, 3), qrotate(q, c));
    floe_vec3 p = floe_positions(w)[id];
    CHECK_NEAR(p.x, x.x, 1e-14);
    CHECK_NEAR(p.y, x.y, 1e-14);
    CHECK_NEAR(p.z, x.z, 1e-14);
    REPORT("%-12s volume %.15g (closed form %.15g), principal inertia / m %.6g %.6g %.6g\n", name, m / 2.5, vol,
           s[0] / m, s[1] / m, s[2] / m);
    floe_world_destroy(w);
}

static void test_closed_forms(void) {
    floe_vec3 cube[8], box[8];
    for (int k = 0; k < 8; k++) {
        cube[k] = (floe_vec3){k & 1, (k >> 1) & 1, (k >> 2) & 1};
        box[k] = (floe_vec3){0.3 * (k & 1), 0.2 * ((k >> 1) & 1), 0.7 * ((k >> 2) & 1)};
    }
    /* cube: I = m a^2 / 6 */
    closed_form("unit cube", 8, cube, 1, (double[]){1.0 / 6, 1.0 / 6, 1.0 / 6});
    /* box a b c: I_x = m (b^2 + c^2) / 12 */
    double a = 0.3, b = 0.2, c = 0.7;
    closed_form("box", 8, box, a * b * c, (double[]){(a * a + b * b) / 12, (b * b + c * c) / 12, (a * a + c * c) / 12});
    /* regular tetrahedron of edge e (alternate cube corners, e = sqrt 2):
     * V = e^3 / (6 sqrt 2), I = m e^2 / 20 about every axis */
    const floe_vec3 tet[4] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    double e = 2 * sqrt(2.0);
    closed_form("tetrahedron", 4, tet, e * e * e / (6 * sqrt(2.0)), (double[]){e * e / 20, e * e / 20, e * e / 20});
    /* regular octahedron of edge e = sqrt 2 (vertices +-1 on the axes):
     * V = sqrt 2 e^3 / 3, I = m e^2 / 10 */
    const floe_vec3 oct[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    e = sqrt(2.0);
    closed_form("octahedron", 6, oct, sqrt(2.0) * e * e * e / 3, (double[]){e * e / 10, e * e / 10, e * e / 10});
}

/* ---- mass properties: random hulls against Monte Carlo --------------------------- */

/* The hull's supporting planes by brute force: every plane through three
 * of the points with all the others on one side. */
static int planes(int n, const vec3 *p, vec3 *pn, double *pd) {
    int m = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            for (int k = j + 1; k < n; k++) {
                vec3 nn = vcross(vsub(p[j], p[i]), vsub(p[k], p[i]));
                if (vlen(nn) < 1e-12) continue;
                nn = vnormalize(nn);
                double d = vdot(nn, p[i]);
                int above = 0, below = 0;
                for (int l = 0; l < n; l++) {
                    double s = vdot(nn, p[l]) - d;
                    above += s > 1e-12;
                    below += s < -1e-12;
                }
                if (above && below) continue;
                if (above) nn = vneg(nn), d = -d;
                pn[m] = nn;
                pd[m++] = d;
            }
    return m;
}

static void test_random_hulls(void) {
    uint64_t s = 12345;
    enum { N = 400000 };
    for (int h = 0; h < 3; h++) {
        int n = 10 + 4 * h, mat;
        vec3 p[32];
        for (int k = 0; k < n; k++) p[k] = v3(rnd(&s) - 0.5, 0.6 * (rnd(&s) - 0.5), 0.3 * (rnd(&s) - 0.5));
        static vec3 pn[6000];
        static double pd[6000];
        int np = planes(n, p, pn, pd);
        vec3 lo = p[0], hi = p[0];
        for (int k = 1; k < n; k++) {
            lo = v3(fmin(lo.x, p[k].x), fmin(lo.y, p[k].y), fmin(lo.z, p[k].z));
            hi = v3(fmax(hi.x, p[k].x), fmax(hi.y, p[k].y), fmax(hi.z, p[k].z));
        }
        /* sums of 1, x, x x^T over uniform points of the box that fall inside */
        double cnt = 0, sx[3] = {0}, sxx[6] = {0};
        for (int t = 0; t < N; t++) {
            vec3 x = v3(lo.x + (hi.x - lo.x) * rnd(&s), lo.y + (hi.y - lo.y) * rnd(&s), lo.z + (hi.z - lo.z) * rnd(&s));
            int in = 1;
            for (int k = 0; k < np && in; k++) in = vdot(pn[k], x) <= pd[k];
            if (!in) continue;
            cnt++;
            sx[0] += x.x, sx[1] += x.y, sx[2] += x.z;
            sxx[0] += x.y * x.y + x.z * x.z, sxx[1] += x.x * x.x + x.z * x.z, sxx[2] += x.x * x.x + x.y * x.y;
        }
        double Vbox = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z), f = cnt / N, V_mc = Vbox * f;
        /* binomial standard error of the volume */
        double sig = Vbox * sqrt(f * (1 - f) / N);
        floe_world *w = mk(1e-5, (floe_vec3){0, 0, 0}, &mat);
        floe_material_set(w, mat, "density", 1);
        floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
        floe_vec3 fv[32];
        for (int k = 0; k < n; k++) fv[k] = (floe_vec3){p[k].x, p[k].y, p[k].z};
        CHECK(floe_add_polyhedron(w, &d, n, fv) == 0);
        double V = floe_masses(w)[0];
        CHECK(fabs(V - V_mc) < 5 * sig);
        /* the solid fraction of the whole world and of the box's lower half
         * (the hull clipped exactly) against the sample's */
        floe_region all = {.lo = {-1, -1, -1}, .hi = {1, 1, 1}}, half = {.lo = {-1, -1, -1}, .hi = {1, 1, 0}};
        double fw, fh, below = 0;
        CHECK(floe_solid_fraction(w, &all, &fw) == FLOE_OK && floe_solid_fraction(w, &half, &fh) == FLOE_OK);
        for (int t = 0; t < 100000; t++) {
            vec3 x = v3(lo.x + (hi.x - lo.x) * rnd(&s), lo.y + (hi.y - lo.y) * rnd(&s), lo.z + (hi.z - lo.z) * rnd(&s));
            int in = x.z < 0;
            for (int k = 0; k < np && in; k++) in = vdot(pn[k], x) <= pd[k];
            below += in;
        }
        double Vh = Vbox * below / 100000, sh = Vbox * sqrt(below / 100000 * (1 - below / 100000) / 100000);
        CHECK(fabs(fw * 8 - V) < 1e-15);   /* inside the box: the whole hull */
        CHECK(fabs(fh * 4 - Vh) < 5 * sh); /* the box's volume is 4 */
        /* centroid: the mean of the points inside; its error about
         * (extent / sqrt(12 cnt)) per axis */
        floe_vec3 c = floe_positions(w)[0];
        double cm[3] = {sx[0] / cnt, sx[1] / cnt, sx[2] / cnt}, cg[3] = {c.x, c.y, c.z};
        double ext[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
        for (int k = 0; k < 3; k++) CHECK(fabs(cg[k] - cm[k]) < 5 * ext[k] / sqrt(12 * cnt));
        /* the trace of the inertia (invariant under the principal turn) about
         * the centroid: sum_i I_ii = 2 int |x - c|^2 */
        floe_vec3 I = floe_inertia(w)[0];
        double tr = I.x + I.y + I.z;
        double r2c = (sxx[0] + sxx[1] + sxx[2]) / 2 / cnt - (cm[0] * cm[0] + cm[1] * cm[1] + cm[2] * cm[2]);
        double tr_mc = 2 * V_mc * r2c;
        CHECK_REL(tr, tr_mc, 5 * sig / V + 0.01);
        REPORT("random hull of %2d points (%3d supporting planes): volume %.6f, Monte Carlo %.6f +- %.6f (1 sigma); "
               "inertia trace %.4e, Monte Carlo %.4e; below z = 0 (solid fraction) %.6f, Monte Carlo %.6f +- %.6f\n",
               n, np, V, V_mc, sig, tr, tr_mc, fh * 4, Vh, sh);
        floe_world_destroy(w);
    }
}

/* ---- a cube resting on a wall --------------------------------------------------- */

/* A 0.1 m cube (1 kg) on a wall, kn 1e6 N/m, normal dashpot 0.3 of
 * critical, set down flat (turned about z, off the origin) or dropped 2 mm
 * tilted by 0.01 rad. */
static floe_world *cube_on_wall(double tilt, double drop, int *id) {
    int mat;
    floe_world *w = mk(2e-5, (floe_vec3){0, 0, -9.81}, &mat);
    floe_model_set(w, "linear", "kn", 1e6);
    floe_model_set(w, "linear", "dp_nratio", 0.3);
    floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
    floe_add_wall(w, &d, 2, 1);
    const double a = 0.1;
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++) v[k] = (floe_vec3){a * ((k & 1) - 0.5), a * (((k >> 1) & 1) - 0.5), a * (k >> 2)};
    double t = tilt / 2, u = 0.3;
    floe_quat q = {cos(t) * cos(u), sin(t) * cos(u), sin(t) * sin(u), cos(t) * sin(u)};
    d = body_at(mat, (floe_vec3){0.2, -0.1, drop}, q);
    *id = floe_add_polyhedron(w, &d, 8, v);
    return w;
}

static double omega(const floe_world *w, int id) {
    floe_vec3 om = floe_angular_velocities(w)[id];
    return sqrt(om.x * om.x + om.y * om.y + om.z * om.z);
}

static void test_rest(void) {
    int id;
    floe_world *w = cube_on_wall(0, 0, &id);
    double m = floe_masses(w)[id];
    CHECK_REL(m, 1, 1e-12);
    CHECK(floe_run(w, 20000) == FLOE_OK); /* 0.4 s: the bounce of the set-down damped */
    floe_vec3 x0 = floe_positions(w)[id];
    floe_quat q0 = floe_orientations(w)[id];
    double fz = 0, wmax = 0, zmin = INFINITY, zmax = -INFINITY;
    const int steps = 10000;
    for (int s = 0; s < steps; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        floe_contact_info ci;
        CHECK(floe_contact_count(w) == 1);
        floe_contact_get(w, 0, &ci);
        fz += -ci.force_global.z / steps; /* on the cube */
        wmax = fmax(wmax, omega(w, id));
        zmin = fmin(zmin, floe_positions(w)[id].z);
        zmax = fmax(zmax, floe_positions(w)[id].z);
    }
    floe_vec3 x1 = floe_positions(w)[id];
    floe_quat q1 = floe_orientations(w)[id];
    CHECK_REL(fz, m * 9.81, 1e-9);
    CHECK(wmax < 1e-12);
    CHECK(fabs(x1.x - x0.x) < 1e-15 && fabs(x1.y - x0.y) < 1e-15 && zmax - zmin < 1e-12);
    CHECK(fabs(q1.w - q0.w) + fabs(q1.x - q0.x) + fabs(q1.y - q0.y) + fabs(q1.z - q0.z) < 1e-15);
    CHECK_REL(0.05 - x1.z, m * 9.81 / 1e6, 1e-6); /* centroid half a side up, less the overlap m g / kn */
    REPORT("cube set down flat on a wall: contact force %.12g N (m g %.12g N); over the next %d steps |omega| <= "
           "%.1e rad/s, x, y moved %.1e m, z within %.1e m; overlap %.6e m (m g / kn %.6e m)\n",
           fz, m * 9.81, steps, wmax, fabs(x1.x - x0.x) + fabs(x1.y - x0.y), zmax - zmin, 0.05 - x1.z, m * 9.81 / 1e6);
    floe_world_destroy(w);
    /* dropped tilted: it rocks, and the rocking dies out */
    w = cube_on_wall(0.01, 0.002, &id);
    double first = 0, last = 0;
    for (int s = 0; s < 50000; s++) { /* 1 s */
        CHECK(floe_step(w) == FLOE_OK);
        if (s < 5000) first = fmax(first, omega(w, id));
        if (s >= 45000) last = fmax(last, omega(w, id));
    }
    floe_quat q = floe_orientations(w)[id];
    double flat = 0;
    for (int k = 0; k < 3; k++) flat = fmax(flat, fabs(qrotate(q, v3(k == 0, k == 1, k == 2)).z));
    CHECK(last < 0.05 * first);
    CHECK(1 - flat < 1e-6);
    REPORT("cube dropped 2 mm tilted by 0.01 rad: largest |omega| %.3f rad/s in the first 0.1 s, %.2e rad/s in the "
           "last 0.1 s of 1 s; a face down to 1 - cos = %.1e\n",
           first, last, 1 - flat);
    floe_world_destroy(w);
}

/* ---- a block on an incline ------------------------------------------------------ */

/* A block of base b and height h on a wall under gravity tilted by theta
 * about y (the incline), friction mu, contact stiffness kn: its
 * acceleration along x and its tilt after `time`. The incline rises from 0
 * to theta over 0.1 s (a load applied at once overshoots to twice the
 * static tilting moment). */
static void incline(double theta, double mu, double b, double h, double kn, double time, double *acc, double *tilt) {
    int mat;
    double g = 9.81;
    floe_world *w = mk(1e-5, (floe_vec3){0, 0, -g}, &mat);
    floe_material_set(w, mat, "tan_phi", mu);
    floe_model_set(w, "linear", "kn", kn);
    floe_model_set(w, "linear", "dp_nratio", 0.5);
    floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
    floe_add_wall(w, &d, 2, 1);
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++) v[k] = (floe_vec3){b * ((k & 1) - 0.5), 0.1 * (((k >> 1) & 1) - 0.5), h * (k >> 2)};
    /* resting at its static overlap, at rest */
    double m = 1000 * b * 0.1 * h;
    d = body_at(mat, (floe_vec3){0, 0, -m * g / kn}, (floe_quat){1, 0, 0, 0});
    int id = floe_add_polyhedron(w, &d, 8, v);
    for (int k = 1; k <= 100; k++) {
        double a = theta * k / 100;
        floe_set_gravity(w, (floe_vec3){g * sin(a), 0, -g * cos(a)});
        CHECK(floe_run(w, 100) == FLOE_OK);
    }
    int n1 = (int)(0.05 / 1e-5), n2 = (int)(time / 1e-5);
    CHECK(floe_run(w, n1) == FLOE_OK);
    double x1 = floe_positions(w)[id].x, v1 = floe_velocities(w)[id].x;
    CHECK(floe_run(w, n2) == FLOE_OK);
    double x2 = floe_positions(w)[id].x, t = n2 * 1e-5;
    *acc = 2 * (x2 - x1 - v1 * t) / (t * t);
    floe_quat q = floe_orientations(w)[id];
    *tilt = 2 * asin(fmin(1, sqrt(q.x * q.x + q.y * q.y + q.z * q.z)));
    floe_world_destroy(w);
}

static void test_incline(void) {
    double acc, tilt, g = 9.81, th = 0.35, mu;
    /* sticks: tan theta < mu (and a squat block) */
    mu = 0.5;
    incline(th, mu, 0.2, 0.1, 1e7, 0.2, &acc, &tilt);
    CHECK(fabs(acc) < 1e-3 && tilt < 1e-3);
    REPORT("incline %.2f rad, mu %.2f > tan %.3f: sticks (acceleration %.2e m/s^2, tilt %.1e rad)\n", th, mu, tan(th),
           acc, tilt);
    /* slides: a = g (sin - mu cos) */
    mu = 0.2;
    incline(th, mu, 0.2, 0.1, 1e7, 0.2, &acc, &tilt);
    double want = g * (sin(th) - mu * cos(th));
    CHECK_REL(acc, want, 2e-3);
    CHECK(tilt < 1e-3);
    REPORT("incline %.2f rad, mu %.2f < tan %.3f: slides at %.5f m/s^2 (g (sin - mu cos) = %.5f)\n", th, mu, tan(th),
           acc, want);
    /* a tall block (b / h = 0.25, 1 kg) with mu 0.8 > tan theta: it stands
     * while the weight's line passes inside its lower edge, and tips beyond,
     * tan theta > b / h (14.0 deg). An edge pressed in is soft (its force
     * grows as the cube of the depth, docs/geometry.md#polyhedra), so it
     * tips somewhat before that: at kn = 1e9 N/m between 12 and 13 deg. */
    double stand, tip;
    incline(0.21, 0.8, 0.05, 0.2, 1e9, 0.3, &acc, &stand); /* 12.0 deg */
    incline(0.30, 0.8, 0.05, 0.2, 1e9, 0.3, &acc, &tip);   /* 17.2 deg */
    CHECK(tan(0.21) < 0.25 && tan(0.30) > 0.25);
    CHECK(stand < 0.01);
    CHECK(tip > 0.3);
    REPORT("tall block, b/h 0.25 (atan 14.0 deg), mu 0.8: at 12.0 deg stands (tilt %.1e rad), at 17.2 deg tips (tilt "
           "%.2f rad after 0.3 s)\n",
           stand, tip);
}

/* ---- energy of an elastic impact -------------------------------------------------- */

/* A cube falling face down (and one corner first) on a wall without gravity
 * or damping: the relative change of its kinetic energy over the impact. */
static double impact(double dt, int corner, double lift) {
    int mat;
    floe_world *w = mk(dt, (floe_vec3){0, 0, 0}, &mat);
    floe_model_set(w, "linear", "kn", 1e6);
    floe_model_set(w, "linear", "kt_div_kn", 0);
    floe_material_set(w, mat, "kt_div_kn", 0);
    floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
    floe_add_wall(w, &d, 2, 1);
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++) v[k] = (floe_vec3){0.1 * ((k & 1) - 0.5), 0.1 * (((k >> 1) & 1) - 0.5), 0.1 * (k >> 2)};
    floe_quat q = corner ? (floe_quat){0.88047623, 0.27984814, 0.36470519, 0.115916} : (floe_quat){1, 0, 0, 0};
    double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    q = (floe_quat){q.w / l, q.x / l, q.y / l, q.z / l};
    /* the lowest point 1 mm above the wall */
    double low = INFINITY;
    for (int k = 0; k < 8; k++) low = fmin(low, qrotate(q, v3(v[k].x, v[k].y, v[k].z)).z);
    if (corner == 2) low = -cbrt(3e-3 / (4 * FLOE_PI));
    d = body_at(mat, (floe_vec3){0, 0, 0.001 + lift - low}, q);
    d.vel = (floe_vec3){0, 0, -1};
    /* corner 2: a sphere of the cube's mass instead, the same stiffness */
    int id = corner == 2 ? floe_add_sphere(w, &d, cbrt(3e-3 / (4 * FLOE_PI))) : floe_add_polyhedron(w, &d, 8, v);
    double m = floe_masses(w)[id], E0 = 0.5 * m;
    /* 1 ms to the wall, about 3 ms on it (pi sqrt(m / kn)) face down, longer
     * on a corner, then apart */
    CHECK(floe_run(w, (int64_t)((corner == 1 ? 0.1 : 0.012) / dt)) == FLOE_OK);
    floe_vec3 vel = floe_velocities(w)[id], om = floe_angular_velocities(w)[id];
    floe_quat qq = floe_orientations(w)[id];
    floe_vec3 I = floe_inertia(w)[id];
    vec3 ob = qrotate(qconj(qq), v3(om.x, om.y, om.z));
    double E1 = 0.5 * m * (vel.x * vel.x + vel.y * vel.y + vel.z * vel.z) +
                0.5 * (I.x * ob.x * ob.x + I.y * ob.y * ob.y + I.z * ob.z * ob.z);
    CHECK(vel.z > 0);
    floe_world_destroy(w);
    return (E1 - E0) / E0;
}

/* The face-down force switches on with a kink at first touch (as a
 * sphere's does), so the error depends on where in a step the touch falls:
 * the root mean square over 8 touches spread over one step, against a
 * sphere of the same mass on the same wall. Corner first, the force grows
 * as the overlap volume times its area (as depth^5), smoothly, and the
 * leapfrog's error vanishes once the bodies part. */
static void test_impact(void) {
    double first = 0, e = 0;
    for (int k = 0; k < 4; k++) {
        double dt = 4e-5 / (1 << k), es = 0;
        e = 0;
        for (int j = 0; j < 8; j++) {
            double x = impact(dt, 0, dt * j / 8), y = impact(dt, 2, dt * j / 8);
            e += x * x / 8;
            es += y * y / 8;
        }
        e = sqrt(e);
        es = sqrt(es);
        double ec = impact(dt, 1, 0);
        REPORT("elastic impact, dt %.1e s: kinetic energy change face down %.3e (rms; a sphere %.3e), corner first "
               "%+.1e\n",
               dt, e, es, ec);
        CHECK(fabs(e - es) < 0.05 * es);
        CHECK(fabs(ec) < 1e-9);
        if (k == 0) first = e;
    }
    CHECK(e < first / 40); /* second order: 64x over three halvings */
}

/* ---- threads and snapshots ------------------------------------------------------ */

static floe_world *pile(int threads) {
    int mat;
    floe_world *w = mk(1e-4, (floe_vec3){0, 0, -9.81}, &mat);
    floe_set_threads(w, threads);
    floe_set_thread_tuning(w, 0); /* the count given, not a trial's choice */
    floe_model_set(w, "linear", "kn", 1e5);
    floe_model_set(w, "linear", "dp_nratio", 0.2);
    floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
    floe_add_wall(w, &d, 2, 1);
    uint64_t s = 5;
    for (int i = 0; i < 24; i++) {
        floe_vec3 v[10];
        for (int k = 0; k < 10; k++) v[k] = (floe_vec3){0.04 * (rnd(&s) - 0.5), 0.04 * (rnd(&s) - 0.5), 0.04 * rnd(&s)};
        d = body_at(mat, (floe_vec3){0.03 * (i % 4), 0.03 * ((i / 4) % 2), 0.02 + 0.035 * (i / 8)},
                    (floe_quat){1, 0, 0, 0});
        d.vel = (floe_vec3){0.1 * (rnd(&s) - 0.5), 0.1 * (rnd(&s) - 0.5), 0};
        CHECK(floe_add_polyhedron(w, &d, 10, v) >= 0);
    }
    for (int i = 0; i < 6; i++) {
        d = body_at(mat, (floe_vec3){0.015 + 0.03 * i / 2, 0.015, 0.16}, (floe_quat){1, 0, 0, 0});
        CHECK(floe_add_sphere(w, &d, 0.01) >= 0);
    }
    return w;
}

static int same(const floe_world *a, const floe_world *b) {
    int n = floe_particle_count(a);
    return n == floe_particle_count(b) && !memcmp(floe_positions(a), floe_positions(b), sizeof(floe_vec3) * n) &&
           !memcmp(floe_orientations(a), floe_orientations(b), sizeof(floe_quat) * n) &&
           !memcmp(floe_velocities(a), floe_velocities(b), sizeof(floe_vec3) * n);
}

static void test_threads_snapshot(void) {
    floe_world *w1 = pile(1), *w2 = pile(2);
    CHECK(floe_run(w1, 800) == FLOE_OK && floe_run(w2, 800) == FLOE_OK);
    CHECK(floe__threads(w2) == 2);
    int contacts = floe_contact_count(w1);
    CHECK(contacts > 20);
    CHECK(same(w1, w2));
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[256];
    CHECK(floe_snapshot_to_bytes(w1, &bytes, &len, err, sizeof err) == 0);
    floe_world *w3 = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    CHECK(w3 != NULL);
    if (!w3) fprintf(stderr, "%s\n", err);
    free(bytes);
    CHECK(floe_run(w1, 200) == FLOE_OK && floe_run(w2, 200) == FLOE_OK);
    if (w3) CHECK(floe_run(w3, 200) == FLOE_OK);
    CHECK(same(w1, w2));
    if (w3) CHECK(same(w1, w3));
    REPORT("pile of 24 polyhedra and 6 spheres, %d contacts at step 800: 1 and 2 threads bitwise the same at steps "
           "800 and 1000: %s; resumed from a snapshot at step 800, bitwise the same at 1000: %s\n",
           contacts, same(w1, w2) ? "yes" : "no", w3 && same(w1, w3) ? "yes" : "no");
    floe_world_destroy(w1);
    floe_world_destroy(w2);
    if (w3) floe_world_destroy(w3);
}

/* ---- water ----------------------------------------------------------------- */

static void test_water(void) {
    int mat;
    floe_world *w = mk(1e-3, (floe_vec3){0, 0, -9.81}, &mat);
    floe_material_set(w, mat, "density", 900);
    const double a = 0.5;
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++) v[k] = (floe_vec3){a * ((k & 1) - 0.5), a * (((k >> 1) & 1) - 0.5), a * (k >> 2)};
    floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
    int id = floe_add_polyhedron(w, &d, 8, v);
    const void *rec = floe__shape_data(w, id);
    /* upright (its principal frame is the given one): V = a^2 (d + a/2),
     * centre of buoyancy (d - a/2) / 2 above the centroid, waterplane a^2 */
    double worst = 0;
    for (int k = 0; k <= 10; k++) {
        double h = -0.6 * a + 1.2 * a * k / 10, want = a * a * fmin(fmax(h + a / 2, 0), a);
        floe_submerged sub;
        floe_poly_submerged(rec, v3(0, 0, 1), h, &sub);
        worst = fmax(worst, fabs(sub.volume - want));
        if (want > 0) worst = fmax(worst, fabs(sub.centroid.z - (fmin(h, a / 2) - a / 2) / 2));
        if (fabs(h) < a / 2) worst = fmax(worst, fabs(sub.waterplane - a * a));
        if (fabs(h) < a / 2) worst = fmax(worst, fabs(floe_poly_frontal(rec, v3(0, 0, 1), v3(1, 0, 0), h) - want / a));
    }
    CHECK(worst < 1e-15);
    /* a random hull, turned: the volume's derivative is the waterplane */
    uint64_t s = 77;
    floe_vec3 p[16];
    for (int k = 0; k < 16; k++) p[k] = (floe_vec3){rnd(&s) - 0.5, rnd(&s) - 0.5, rnd(&s) - 0.5};
    int h2 = floe_add_polyhedron(w, &d, 16, p);
    rec = floe__shape_data(w, h2);
    vec3 up = vnormalize(v3(0.3, -0.5, 0.8));
    double dmax = 0;
    for (int k = 1; k < 10; k++) {
        double hh = -0.4 + 0.08 * k, e = 1e-6;
        floe_submerged s0, s1, sm;
        floe_poly_submerged(rec, up, hh - e, &s0);
        floe_poly_submerged(rec, up, hh + e, &s1);
        floe_poly_submerged(rec, up, hh, &sm);
        if (sm.waterplane > 0)
            dmax = fmax(dmax, fabs((s1.volume - s0.volume) / (2 * e) - sm.waterplane) / sm.waterplane);
    }
    CHECK(dmax < 1e-6);
    floe_world_destroy(w);
    /* a cube of ice (900) on sea water (1025) floats upright (stable for
     * density ratios above 0.79) at the draft rho / rho_w a */
    w = mk_damped(1e-3, (floe_vec3){0, 0, -9.81}, 0.7, &mat); /* damped: it comes to rest */
    floe_material_set(w, mat, "density", 900);
    floe_water_def wd = floe_default_water_def();
    wd.level = 0;
    CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    double want = 900.0 / wd.density * a;
    d = body_at(mat, (floe_vec3){0, 0, 0.01 - want}, (floe_quat){1, 0, 0, 0}); /* 1 cm high */
    id = floe_add_polyhedron(w, &d, 8, v);
    CHECK(floe_run(w, 30000) == FLOE_OK); /* 30 s */
    double z = floe_positions(w)[id].z, draft = a / 2 - z;
    floe_vec3 vel = floe_velocities(w)[id];
    CHECK_REL(draft, want, 1e-9);
    REPORT("water: upright cube's submerged volume, centre of buoyancy, waterplane and frontal area exact to %.1e; a "
           "random hull's dV/dd = waterplane to %.1e; floating ice cube: draft %.12f m (rho / rho_w a = %.12f m), "
           "heave speed %.1e m/s\n",
           worst, dmax, draft, want, fabs(vel.z));
    floe_world_destroy(w);
}

/* ---- periodic cell ------------------------------------------------------------ */

/* Two cubes in a cell periodic along x, approaching each other across its
 * faces (x = 0 and x = 0.5): they meet through the boundary, bounce
 * (elastic, no gravity) and keep their momentum and kinetic energy; 1 and 2
 * threads give the same bits. */
static floe_world *periodic_pair(int threads) {
    int mat;
    floe_world *w = mk(1e-5, (floe_vec3){0, 0, 0}, &mat);
    floe_set_threads(w, threads);
    floe_set_thread_tuning(w, 0);
    floe_model_set(w, "linear", "kn", 1e6);
    floe_material_set(w, mat, "kt_div_kn", 0);
    CHECK(floe_world_set_periodic(w, 0, 0, 0.5) == FLOE_OK);
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++)
        v[k] = (floe_vec3){0.1 * ((k & 1) - 0.5), 0.1 * (((k >> 1) & 1) - 0.5), 0.1 * ((k >> 2) - 0.5)};
    floe_body_def d = body_at(mat, (floe_vec3){0.06, 0, 0}, (floe_quat){1, 0, 0, 0});
    d.vel = (floe_vec3){-0.5, 0, 0};
    CHECK(floe_add_polyhedron(w, &d, 8, v) == 0);
    d = body_at(mat, (floe_vec3){0.44, 0.01, 0}, (floe_quat){1, 0, 0, 0});
    d.vel = (floe_vec3){0.5, 0, 0};
    CHECK(floe_add_polyhedron(w, &d, 8, v) == 1);
    return w;
}

static void test_periodic(void) {
    floe_world *w = periodic_pair(1), *w2 = periodic_pair(2);
    int met = 0;
    for (int s = 0; s < 4000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        met |= floe_contact_count(w) == 1;
    }
    CHECK(floe_run(w2, 4000) == FLOE_OK);
    const floe_vec3 *v = floe_velocities(w);
    CHECK(met);
    CHECK(v[0].x > 0 && v[1].x < 0);
    CHECK(fabs(v[0].x + v[1].x) < 1e-12 && fabs(v[0].y + v[1].y) < 1e-12); /* momentum */
    /* kinetic energy, the spin the offset contact gives them included */
    double e = 0;
    for (int i = 0; i < 2; i++) {
        floe_vec3 om = floe_angular_velocities(w)[i], I = floe_inertia(w)[i];
        vec3 ob = qrotate(qconj(floe_orientations(w)[i]), v3(om.x, om.y, om.z));
        e += 0.5 * floe_masses(w)[i] * (v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z) +
             0.5 * (I.x * ob.x * ob.x + I.y * ob.y * ob.y + I.z * ob.z * ob.z);
    }
    e /= 0.5 * floe_masses(w)[0] * 0.5;
    CHECK(fabs(e - 1) < 1e-3);
    CHECK(!memcmp(floe_positions(w), floe_positions(w2), 2 * sizeof(floe_vec3)));
    REPORT("periodic cell: two cubes meet across its faces and bounce back (velocities %+.6f, %+.6f m/s, kinetic "
           "energy ratio %.6f), 1 and 2 threads bitwise the same\n",
           v[0].x, v[1].x, e);
    floe_world_destroy(w);
    floe_world_destroy(w2);
}

/* ---- bonds ---------------------------------------------------------------- */

/* Two cubes bonded face to face by the Ice model (bonded in every sense,
 * breakable in tension), the second pulled away at 1 mm/s: the bond
 * carries tension across the opening gap (uN > 0 from the supports' gap,
 * continuous with the overlap's) and breaks once, at the strength
 * c_n A = break_n E A (A = pi r^2 of the creation's lens). */
static void test_bond(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    int mat = floe_add_material(w, "ice", "ice");
    floe_material_set(w, mat, "young", 1e8);
    floe_model_set(w, "ice", "bonds0", 31);
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++)
        v[k] = (floe_vec3){0.1 * ((k & 1) - 0.5), 0.1 * (((k >> 1) & 1) - 0.5), 0.1 * ((k >> 2) - 0.5)};
    floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
    d.blocked = FLOE_DOF_ALL;
    CHECK(floe_add_polyhedron(w, &d, 8, v) == 0);
    d.pos = (floe_vec3){0.1 - 1e-7, 0, 0};
    d.vel = (floe_vec3){1e-3, 0, 0};
    CHECK(floe_add_polyhedron(w, &d, 8, v) == 1);
    double ften = 0, unmax = 0;
    int bonded = 0, steps = 0;
    for (; steps < 20000 && floe_break_count(w) == 0; steps++) {
        CHECK(floe_step(w) == FLOE_OK);
        if (floe_contact_count(w) != 1) continue;
        floe_contact_info ci;
        floe_contact_get(w, 0, &ci);
        bonded |= ci.bonded;
        unmax = fmax(unmax, ci.uN);
        ften = fmax(ften, ci.force.x); /* on A, local: positive pulls A towards B */
    }
    double strength = 1e-4 * 1e8 * FLOE_PI * 0.05 * 0.05;
    CHECK(bonded && floe_break_count(w) == 1);
    CHECK(unmax > 0);
    CHECK_REL(ften, strength, 0.01);
    REPORT("Ice bond between two cubes pulled apart: tension up to %.4g N (c_n A = %.4g N) at a gap of %.3e m, then "
           "it breaks (step %d)\n",
           ften, strength, unmax, steps);
    floe_world_destroy(w);
}

/* ---- apart across edges ------------------------------------------------------ */

/* Bodies apart whose nearest features are edges: the polyhedra's face
 * normals alone all show an overlap (no face separates them), so the gap
 * must come from elsewhere. Two cubes (side 0.1) with crossed edges, A's
 * edge along x on top, B's along y below, 1 mm apart and B off to the side
 * (the centre line no separating direction either): no new contact, and
 * an existing one opens (uN >= 0). A sphere (an ellipsoid of equal
 * semi-axes, and a capsule of no shaft) 1 mm from a cube's edge, on the
 * bisector of its two faces: the gap is 1 mm exactly (the direction to the
 * edge's nearest point). */
static void test_edges(void) {
    const floe_shape_class *c = floe_shape_class_get(FLOE_SHAPE_POLYHEDRON);
    static floe_polyhedron A, B;
    double p[96];
    char err[256];
    for (int k = 0; k < 32; k++) {
        int j = k < 8 ? k : 7;
        p[3 * k] = 0.1 * ((j & 1) - 0.5), p[3 * k + 1] = 0.1 * (((j >> 1) & 1) - 0.5),
              p[3 * k + 2] = 0.1 * ((j >> 2) - 0.5);
    }
    double h = 0.05 * sqrt(2.0), s = sin(FLOE_PI / 8), co = cos(FLOE_PI / 8);
    floe_pose pa = {v3(0, 0, 0), {co, s, 0, 0}};                  /* 45 deg about x: an edge along x on top, at z = h */
    floe_pose pb = {v3(0.03, 0.03, 2 * h + 1e-3), {co, 0, s, 0}}; /* 45 deg about y: an edge along y below */
    CHECK(c->init(&A, p, &pa, err, sizeof err) == 0 && c->init(&B, p, &pb, err, sizeof err) == 0);
    floe_raw_contact o;
    vec3 prev = vnormalize(v3(0.3, 0.2, 1));
    CHECK(floe_collide_poly_poly(&A, &pa, &B, &pb, NULL, 0, &o) == 0);
    CHECK(floe_collide_poly_poly(&A, &pa, &B, &pb, &prev, 0, &o) == 1 && o.uN >= 0);
    double un_pair = o.uN;
    /* a sphere beside a cube's edge (the cube axis-aligned at the origin, the
     * edge x = y = 0.05 along z) */
    floe_pose pc = {v3(0, 0, 0), {1, 0, 0, 0}};
    CHECK(c->init(&A, p, &pc, err, sizeof err) == 0);
    double r = 0.03, dist = 1e-3, e = (r + dist) / sqrt(2.0);
    floe_pose ps = {v3(0.05 + e, 0.05 + e, 0.01), {1, 0, 0, 0}};
    floe_ellipsoid ell = {v3(r, r, r)};
    floe_capsule cap = {r, 0};
    floe_raw_contact oe, oc, os;
    CHECK(floe_collide_ellipsoid_poly(&ell, &ps, &A, &pc, NULL, 0, &oe) == 0);
    CHECK(floe_collide_capsule_poly(&cap, &ps, &A, &pc, NULL, 0, &oc) == 0);
    CHECK(floe_collide_sphere_poly(&r, &ps, &A, &pc, NULL, 0, &os) == 0);
    CHECK(floe_collide_ellipsoid_poly(&ell, &ps, &A, &pc, &prev, 0, &oe) == 1);
    CHECK(floe_collide_capsule_poly(&cap, &ps, &A, &pc, &prev, 0, &oc) == 1);
    CHECK(floe_collide_sphere_poly(&r, &ps, &A, &pc, &prev, 0, &os) == 1);
    CHECK_NEAR(oe.uN, dist, 1e-12);
    CHECK_NEAR(oc.uN, dist, 1e-12);
    CHECK_NEAR(os.uN, dist, 1e-12);
    REPORT("apart across edges: crossed cubes 1 mm apart, no new contact, an existing one at uN %.2e >= 0; a sphere, "
           "ellipsoid and capsule 1 mm from a cube's edge: gaps %.12f, %.12f, %.12f m\n",
           un_pair, os.uN, oe.uN, oc.uN);
}

/* ---- a corner into a face --------------------------------------------------- */

/* A cube falls corner first, off-centre, onto a free cube lying face up
 * (no gravity, no damping, no friction): the overlap's surface on the
 * falling cube is three faces, not a plane, so the force's point must be
 * on the line that carries their moment, or the pair gains or loses
 * energy. Kinetic energy (spin included) after the bounce against before. */
static double corner_into_face(double dt) {
    int mat;
    floe_world *w = mk(dt, (floe_vec3){0, 0, 0}, &mat);
    floe_model_set(w, "linear", "kn", 1e6);
    floe_material_set(w, mat, "kt_div_kn", 0);
    floe_vec3 v[8];
    for (int k = 0; k < 8; k++)
        v[k] = (floe_vec3){0.1 * ((k & 1) - 0.5), 0.1 * (((k >> 1) & 1) - 0.5), 0.1 * ((k >> 2) - 0.5)};
    floe_body_def d = body_at(mat, (floe_vec3){0, 0, 0}, (floe_quat){1, 0, 0, 0});
    CHECK(floe_add_polyhedron(w, &d, 8, v) == 0);
    floe_quat q = {0.88047623, 0.27984814, 0.36470519, 0.115916};
    double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    q = (floe_quat){q.w / l, q.x / l, q.y / l, q.z / l};
    double low = INFINITY;
    for (int k = 0; k < 8; k++) low = fmin(low, qrotate(q, v3(v[k].x, v[k].y, v[k].z)).z);
    d = body_at(mat, (floe_vec3){0.02, -0.015, 0.05 + 0.001 - low}, q);
    d.vel = (floe_vec3){0, 0, -1};
    CHECK(floe_add_polyhedron(w, &d, 8, v) == 1);
    double E0 = 0.5 * floe_masses(w)[1];
    CHECK(floe_run(w, (int64_t)(0.1 / dt)) == FLOE_OK);
    CHECK(floe_contact_count(w) == 0);
    double E = 0;
    for (int i = 0; i < 2; i++) {
        floe_vec3 u = floe_velocities(w)[i], om = floe_angular_velocities(w)[i], I = floe_inertia(w)[i];
        vec3 ob = qrotate(qconj(floe_orientations(w)[i]), v3(om.x, om.y, om.z));
        E += 0.5 * floe_masses(w)[i] * (u.x * u.x + u.y * u.y + u.z * u.z) +
             0.5 * (I.x * ob.x * ob.x + I.y * ob.y * ob.y + I.z * ob.z * ob.z);
    }
    floe_world_destroy(w);
    return (E - E0) / E0;
}

static void test_corner_into_face(void) {
    double e1 = corner_into_face(2e-5), e2 = corner_into_face(1e-5);
    CHECK(fabs(e1) < 1e-6 && fabs(e2) < 1e-6);
    REPORT("cube falling corner first onto a free cube: kinetic energy change %+.1e (dt 2e-5 s), %+.1e (dt 1e-5 s)\n",
           e1, e2);
}

int main(void) {
    test_closed_forms();
    test_random_hulls();
    test_rest();
    test_incline();
    test_impact();
    test_threads_snapshot();
    test_water();
    test_periodic();
    test_bond();
    test_edges();
    test_corner_into_face();
    return CHECK_DONE();
}
