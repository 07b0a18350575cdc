/* What `floe check` and `floe run` find before step 0: each malformed input of
 * tests/data gets its exact message "file:line:col: ..." from the loader,
 * and the CLI refuses it with status 2 in check and in run alike, before
 * any output exists. Warnings do not stop a scene; check and run print
 * them. */
#include "check.h"
#include "io/scene.h"
#include "io/stl.h"
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DATA FLOE_TEST_DATA "/"

static char tmp[256];

/* Loads `path`; the error must be path + ":" + want. */
static void expect_error_at(const char *path, const char *want, int line) {
    floe_scene s;
    char err[2048], full[2048];
    int rc = floe_scene_load(path, &s, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK(rc != 0);
    if (rc == 0) {
        fprintf(stderr, "test_scene_check.c:%d: %s loaded but should fail with\n  %s\n", line, path, full);
        floe_scene_free(&s);
    } else if (strcmp(err, full) != 0) {
        check_failures++;
        fprintf(stderr, "test_scene_check.c:%d: wrong message\n  got:  %s\n  want: %s\n", line, err, full);
    }
}
#define EXPECT_ERROR(path, want) expect_error_at(path, want, __LINE__)

/* The whole error message must be `want` (for errors about other files). */
static void expect_message_at(const char *path, const char *want, int line) {
    floe_scene s;
    char err[2048];
    int rc = floe_scene_load(path, &s, err, sizeof err);
    CHECK(rc != 0);
    if (rc == 0) floe_scene_free(&s);
    else if (strcmp(err, want) != 0) {
        check_failures++;
        fprintf(stderr, "test_scene_check.c:%d: wrong message\n  got:  %s\n  want: %s\n", line, err, want);
    }
}
#define EXPECT_MESSAGE(path, want) expect_message_at(path, want, __LINE__)

static char *slurp(const char *path) {
    static char *last;
    free(last);
    last = check_slurp(path, NULL);
    return last ? last : (char *)"";
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* `floe check SCENE` and `floe run SCENE --out DIR` both refuse with
 * status 2 and the same message, and run creates nothing. */
static void cli_refuses_at(const char *scene, const char *want, int line) {
    char err[512], out[512], msg_check[4096];
    snprintf(err, sizeof err, "%s/cli.txt", tmp);
    snprintf(out, sizeof out, "%s/out_refused", tmp);
    const char *check[] = {"floe", "check", scene, NULL};
    const char *run[] = {"floe", "run", scene, "--out", out, NULL};
    int rc = run_cli(check, err, 0);
    snprintf(msg_check, sizeof msg_check, "%s", slurp(err));
    if (rc != 2 || !strstr(msg_check, want)) {
        check_failures++;
        fprintf(stderr, "test_scene_check.c:%d: floe check %s: status %d, output\n%s  wanted status 2 and '%s'\n", line,
                scene, rc, msg_check, want);
    }
    rc = run_cli(run, err, 0);
    if (rc != 2 || strcmp(slurp(err), msg_check) != 0 || exists(out)) {
        check_failures++;
        fprintf(stderr,
                "test_scene_check.c:%d: floe run %s: status %d, output directory %s, output\n%s  wanted "
                "status 2, no output directory and check's message\n",
                line, scene, rc, exists(out) ? "created" : "absent", slurp(err));
    }
}
#define CLI_REFUSES(scene, want) cli_refuses_at(scene, want, __LINE__)

/* ---- 11.2, 12.6: the time step --------------------------------------------------- */

/* A bonded Ice pair (R 0.01 m, E 1 GPa, rho 900, no twist or rolling
 * spring, bonded in all senses) at dt and with the run length `run`. Its
 * exact critical step is 2 / omega of the normal mode, sqrt(2 m / kn) =
 * 2.19e-5 s (kn = pi R E / 2; the shear-spin mode, 7 kt / m with
 * kt = kn / 5, is slower); the p-wave estimate R / sqrt(E / rho) is 9.49e-6 s. */
static void write_ice_pair(const char *name, double dt, const char *run, const char *extra, char *path, size_t len) {
    char text[1024];
    snprintf(text, sizeof text,
             "world: {dt: %.10g%s}\nrun: %s\n"
             "materials: [{name: ice, model: ice, density: 900, young: 1e9, alpha_w: 0, alpha_r: 0}]\n"
             "models: {ice: {bonds0: 15}}\n"
             "particles:\n  - {pos: [0, 0, 0], radius: 0.01}\n  - {pos: [0.01999998, 0, 0], radius: 0.01}\n",
             dt, extra, run);
    check_write_tmp(tmp, name, text, path, len);
}

static void test_dt(void) {
    /* sphere on a wall: kn = pi R E / 2, the normal mode kn / m (the shear-spin
     * mode 3.5 kt / m = 0.7 kn / m is slower): 2 sqrt(m / kn) = 3.27e-5 s */
    EXPECT_ERROR(DATA "bad_dt_over_critical.yaml",
                 "4:7: world.dt = 0.01 s is above the critical time step of this scene, 3.27e-05 s (from its "
                 "lightest and stiffest bodies that can move and touch something, and the contacts of its first "
                 "step): the run would blow up within a few steps. Use dt: auto (world.dt_safety x the critical "
                 "step, re-checked as contacts form) or a dt below 3.27e-05 s; world.dt_check: warn runs it anyway");
    EXPECT_ERROR(DATA "bad_dt_auto_no_bodies.yaml",
                 "2:13: world.dt: auto cannot derive a time step: it needs at least one sphere, capsule or ellipsoid, "
                 "and this scene has none (only walls, facets, meshes or cylinders); give world.dt in seconds");
    CLI_REFUSES(DATA "bad_dt_over_critical.yaml", "world.dt = 0.01 s is above the critical time step");
    CLI_REFUSES(DATA "bad_dt_auto_no_bodies.yaml", "world.dt: auto cannot derive a time step");

    /* scenes that cannot blow up load at any dt: a sphere alone (nothing to
     * touch: its young plays no part), two fixed spheres (nothing moves);
     * a scene of no step needs none */
    char path[512], err[2048];
    floe_scene s;
    check_write_tmp(tmp, "ok.yaml",
                    "world: {dt: 1e-3, gravity: [0, 0, -9.81]}\nrun: {steps: 10}\nmaterials: [{name: a, young: 1e9}]\n"
                    "particles: [{radius: 0.01, pos: [0, 0, 0]}]\n",
                    path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    CHECK(s.world && isinf(floe_critical_dt(s.world)) && s.warnings == NULL);
    floe_scene_free(&s);
    check_write_tmp(tmp, "ok.yaml",
                    "world: {dt: 1e-3}\nrun: {steps: 10}\nmaterials: [{name: a, young: 2e11, density: 7800}]\n"
                    "particles:\n  - {radius: 0.01, pos: [0, 0, 0], fixed: true}\n"
                    "  - {radius: 0.01, pos: [0.05, 0, 0], fixed: true}\n",
                    path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    CHECK(s.world && isinf(floe_critical_dt(s.world)));
    floe_scene_free(&s);
    check_write_tmp(tmp, "ok.yaml", "run: {steps: 0}\nmaterials: [{name: a}]\nwalls: [{axis: z}]\n", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    floe_scene_free(&s);

    /* the bonded Ice pair at 0.5 of its exact critical step loads; at 1.02
     * it is refused, its critical step the exact one to 1 % */
    write_ice_pair("pair.yaml", 0.5 * 2.19089e-5, "{steps: 10}", "", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    if (s.world) {
        double crit = floe_critical_dt(s.world);
        REPORT("bonded Ice pair: critical step %.6g s (exact 2.19089e-5 s)\n", crit);
        CHECK(crit <= 2.19089e-5 * (1 + 1e-5) && crit >= 0.99 * 2.19089e-5);
    }
    floe_scene_free(&s);
    write_ice_pair("pair.yaml", 1.02 * 2.19089e-5, "{steps: 10}", "", path, sizeof path);
    EXPECT_ERROR(path, "1:13: world.dt = 2.23471e-05 s is above the critical time step of this scene, 2.19e-05 s "
                       "(from its lightest and stiffest bodies that can move and touch something, and the contacts of "
                       "its first step): the run would blow up within a few steps. Use dt: auto (world.dt_safety x the "
                       "critical step, re-checked as contacts form) or a dt below 2.19e-05 s; world.dt_check: warn "
                       "runs it anyway");

    /* world.dt_check: warn: the same finding, as a warning */
    write_ice_pair("pair.yaml", 1.02 * 2.19089e-5, "{steps: 10}", ", dt_check: warn", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    CHECK(s.warnings && strstr(s.warnings, "warning: world.dt = 2.23471e-05 s is above the critical time step") &&
          strstr(s.warnings, "it may blow up (world.dt_check: warn)"));
    floe_scene_free(&s);
    check_write_tmp(tmp, "bad.yaml", "world: {dt_check: maybe}\nrun: {steps: 0}\n", path, sizeof path);
    EXPECT_ERROR(path, "1:19: world.dt_check: expected 'error' (a given dt above the critical step stops the scene, "
                       "the default) or 'warn' (it is only reported), got 'maybe'");
}

/* A scene of run length 0 meets the checks of a run when the command line
 * gives it one: `floe run SCENE --steps 3000` (or --time) refuses the pair
 * at 1.02 of its critical step, which `floe check` and a run of 0 steps
 * let through (the run blew up at step 38). */
static void test_dt_run_override(void) {
    char path[512], err[2048], errf[512], out[512];
    floe_scene s;
    write_ice_pair("pair0.yaml", 1.02 * 2.19089e-5, "{steps: 0}", "", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    CHECK(s.run_error && strstr(s.run_error, "world.dt = 2.23471e-05 s is above the critical time step"));
    CHECK(floe_scene_check_run(&s, 0, 0, err, sizeof err) == 0);
    CHECK(floe_scene_check_run(&s, -1, 0, err, sizeof err) == 0);
    CHECK(floe_scene_check_run(&s, 3000, 0, err, sizeof err) != 0 && !strcmp(err, s.run_error));
    CHECK(floe_scene_check_run(&s, -1, 0.01, err, sizeof err) != 0);
    floe_scene_free(&s);
    snprintf(errf, sizeof errf, "%s/cli.txt", tmp);
    snprintf(out, sizeof out, "%s/out_override", tmp);
    const char *check[] = {"floe", "check", path, NULL};
    CHECK(run_cli(check, errf, 0) == 0);
    const char *by_steps[] = {"floe", "run", path, "--steps", "3000", "--out", out, NULL};
    CHECK(run_cli(by_steps, errf, 0) == 2);
    CHECK(strstr(slurp(errf), "pair0.yaml:1:13: world.dt = 2.23471e-05 s is above the critical time step"));
    CHECK(!exists(out));
    const char *by_time[] = {"floe", "run", path, "--time", "0.01", "--out", out, NULL};
    CHECK(run_cli(by_time, errf, 0) == 2);
    CHECK(strstr(slurp(errf), "is above the critical time step") && !exists(out));
    /* a pair that passes runs as asked */
    write_ice_pair("pair0.yaml", 0.5 * 2.19089e-5, "{steps: 0}", "", path, sizeof path);
    CHECK(run_cli(by_steps, errf, 0) == 0);
}

/* ---- 11.2: initial overlaps -------------------------------------------------------- */

static void test_overlaps(void) {
    EXPECT_ERROR(DATA "bad_overlap_coincident.yaml",
                 "7:5: particle 0 (line 5) and particle 2 (line 7) are at the same position (0, 0, 0): the first "
                 "step would blow up; move one of them");
    EXPECT_ERROR(DATA "bad_overlap_deep.yaml",
                 "6:5: particle 0 (line 5) and particle 1 (line 6) overlap by 0.006 m, 60% of the smaller radius "
                 "0.01 m: the first step would blow up (initial overlaps over 50% are refused); move them apart");
    CLI_REFUSES(DATA "bad_overlap_coincident.yaml", "are at the same position");

    /* generated spheres are named by their generator */
    char path[512], want[1024];
    check_write_tmp(tmp, "gen.yaml",
                    "run: {steps: 1}\nmaterials: [{name: a}]\ngenerators:\n"
                    "  - lattice: {origin: [0, 0, 0], spacing: 0.01, counts: [3, 1, 1], radius: 0.01}\n",
                    path, sizeof path);
    snprintf(want, sizeof want,
             "4:14: particle 0 (number 1 of the generator at line 4) and particle 1 (number 2 of the "
             "generator at line 4) overlap by 0.01 m, 100%% of the smaller radius 0.01 m: the first step would blow up "
             "(initial overlaps over 50%% are refused); move them apart");
    EXPECT_ERROR(path, want);

    /* a small overlap is a warning: the scene loads, check and run print it */
    floe_scene s;
    char err[1024];
    CHECK(floe_scene_load(DATA "warn_overlap_small.yaml", &s, err, sizeof err) == 0);
    const char *w = DATA
        "warn_overlap_small.yaml:6:5: warning: particle 0 (line 5) and particle 1 (line 6) overlap "
        "by 0.0005 m, 5.0% of the smaller radius: they start with a contact force pushing them apart\n";
    CHECK(s.warnings && !strcmp(s.warnings, w));
    floe_scene_free(&s);
    char errf[512], out[512];
    snprintf(errf, sizeof errf, "%s/cli.txt", tmp);
    snprintf(out, sizeof out, "%s/out_warn", tmp);
    const char *check[] = {"floe", "check", DATA "warn_overlap_small.yaml", NULL};
    const char *run[] = {"floe", "run", DATA "warn_overlap_small.yaml", "--out", out, NULL};
    CHECK(run_cli(check, errf, 0) == 0 && strstr(slurp(errf), w));
    CHECK(run_cli(run, errf, 0) == 0 && strncmp(slurp(errf), w, strlen(w)) == 0); /* first, before the run */
}

/* ---- 11.2: initial overlaps among spheres of very different sizes ------------------------ */

typedef struct ball {
    double r, x, y, z;
    int fixed;
} ball;

/* A scene of the spheres b[0 .. n-1]: particle i on line 4 + i, at column 5. */
static void write_balls(const char *name, const ball *b, int n, int steps, char *path, size_t len) {
    size_t cap = 256 + (size_t)n * 200, k = 0;
    char *text = malloc(cap);
    k += (size_t)snprintf(text, cap, "run: {steps: %d}\nmaterials: [{name: a}]\nparticles:\n", steps);
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(text + k, cap - k, "  - {radius: %.17g, pos: [%.17g, %.17g, %.17g]%s}\n", b[i].r, b[i].x,
                              b[i].y, b[i].z, b[i].fixed ? ", fixed: true" : "");
    check_write_tmp(tmp, name, text, path, len);
    free(text);
}

/* The reference: what the overlap check of the scene at `path` must say,
 * found by testing every pair of spheres of the world `w` (the same scene
 * loaded without a step, so unchecked) in id order, with the thresholds of
 * docs/decisions.md#initial-overlap-thresholds. `err` gets the error ("" if
 * none), `warn` the warnings ("" if none). Returns the number of pairs over
 * the warning limit, error pairs included. */
static int brute_force_overlaps(const char *path, const floe_world *w, char *err, size_t elen, char *warn,
                                size_t wlen) {
    int np = floe_particle_count(w), over = 0, named = 0, deep = 0;
    long long more = 0;
    const floe_vec3 *x = floe_positions(w);
    const double *r = floe_radii(w);
    const uint32_t *blocked = floe_particle_blocked(w);
    size_t k = 0;
    err[0] = warn[0] = 0;
    for (int a = 0; a < np; a++)
        for (int b = a + 1; b < np; b++) {
            if (floe_particle_shape(w, a) != FLOE_SHAPE_SPHERE || floe_particle_shape(w, b) != FLOE_SHAPE_SPHERE)
                continue;
            double dx = x[b].x - x[a].x, dy = x[b].y - x[a].y, dz = x[b].z - x[a].z;
            double dist = sqrt(dx * dx + dy * dy + dz * dz), ov = r[a] + r[b] - dist, rmin = fmin(r[a], r[b]);
            int both_fixed = blocked[a] == FLOE_DOF_ALL && blocked[b] == FLOE_DOF_ALL;
            if (!(ov > 0)) continue;
            if (ov > (both_fixed ? 1.0 : 0.5) * rmin) {
                over++;
                if (deep++) continue; /* the first pair by ids is named */
                if (dist == 0)
                    snprintf(err, elen,
                             "%s:%d:5: particle %d (line %d) and particle %d (line %d) are at the same position (%g, "
                             "%g, %g): the first step would blow up; move one of them",
                             path, 4 + b, a, 4 + a, b, 4 + b, x[a].x, x[a].y, x[a].z);
                else
                    snprintf(err, elen,
                             "%s:%d:5: particle %d (line %d) and particle %d (line %d) overlap by %g m, %.0f%% of the "
                             "smaller radius %g m: the first step would blow up (initial overlaps over 50%% are "
                             "refused); move them apart",
                             path, 4 + b, a, 4 + a, b, 4 + b, ov, 100 * ov / rmin, rmin);
            } else if (!both_fixed && ov > 0.01 * rmin) {
                over++;
                if (named == 3) {
                    more++;
                    continue;
                }
                named++;
                k += (size_t)snprintf(warn + k, wlen - k,
                                      "%s:%d:5: warning: particle %d (line %d) and particle %d (line %d) overlap by "
                                      "%g m, %.1f%% of the smaller radius: they start with a contact force pushing "
                                      "them apart\n",
                                      path, 4 + b, a, 4 + a, b, 4 + b, ov, 100 * ov / rmin);
            }
        }
    if (more)
        snprintf(warn + k, wlen - k,
                 "%s:1:1: warning: %lld more pairs of spheres overlap by more than 1%% of the smaller radius\n", path,
                 more);
    if (deep) warn[0] = 0; /* the error comes alone */
    return over;
}

/* Loading the spheres b[0 .. n-1] gives the messages of the reference,
 * error or warnings; returns the reference's count of pairs over the
 * warning limit (for the caller to check that its scene is the one it
 * meant). */
static int expect_overlaps_at(const ball *b, int n, int line) {
    char p0[512], p1[512], err[2048], want_err[2048];
    static char want_warn[8192];
    floe_scene s;
    write_balls("ref.yaml", b, n, 0, p0, sizeof p0);
    write_balls("balls.yaml", b, n, 1, p1, sizeof p1);
    if (floe_scene_load(p0, &s, err, sizeof err) != 0) {
        check_failures++;
        fprintf(stderr, "test_scene_check.c:%d: the scene without a step does not load: %s\n", line, err);
        return -1;
    }
    int over = brute_force_overlaps(p1, s.world, want_err, sizeof want_err, want_warn, sizeof want_warn);
    floe_scene_free(&s);
    int rc = floe_scene_load(p1, &s, err, sizeof err);
    if (want_err[0]) {
        if (rc == 0) floe_scene_free(&s);
        if (rc == 0 || strcmp(err, want_err)) {
            check_failures++;
            fprintf(stderr, "test_scene_check.c:%d: wrong overlap error\n  got:  %s\n  want: %s\n", line,
                    rc ? err : "(loaded)", want_err);
        }
        return over;
    }
    const char *got = rc == 0 && s.warnings ? s.warnings : "";
    if (rc != 0 || strcmp(got, want_warn)) {
        check_failures++;
        fprintf(stderr, "test_scene_check.c:%d: wrong overlap warnings\n  got:\n%s\n  want:\n%s\n", line,
                rc ? err : got, want_warn);
    }
    if (rc == 0) floe_scene_free(&s);
    return over;
}
#define EXPECT_OVERLAPS(b, n) expect_overlaps_at(b, n, __LINE__)

/* nx x ny x 2 spheres of radius 0.01 touching on a square lattice (the
 * sheet of the ice benchmark), site (i, j, k) at b[i + nx (j + ny k)]. */
static int sheet(ball *b, int nx, int ny) {
    int n = 0;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                b[n++] = (ball){0.01, (2 * i - (nx - 1)) * 0.01, (2 * j - (ny - 1)) * 0.01, 2 * k * 0.01, i == 0};
    return n;
}

/* Spheres of radii 0.005 .. 0.5 (from the finest level of the search to
 * three levels up), each placed touching an earlier one with an overlap of
 * up to 30 % of the smaller radius and overlapping no other one deeper, a
 * fifth of them fixed; the last `deep` ones free and 60 to 90 % into an
 * earlier one (errors). */
static double rnd(unsigned long long *st) { /* uniform in [0, 1) */
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*st >> 11) * (1.0 / 9007199254740992.0);
}

static int random_balls(ball *b, int n, int deep, unsigned long long st) {
    int m = 0;
    for (int t = 0; m < n && t < 50 * n; t++) {
        int err = m >= n - deep;
        double u1 = rnd(&st), u2 = rnd(&st);
        ball c = {0.005 * pow(100, u1 * u2), 0, 0, 0, !err && rnd(&st) < 0.2}; /* mostly small */
        if (m > 0) {
            const ball *e = &b[(int)(rnd(&st) * m)];
            double u = 2 * rnd(&st) - 1, phi = 2 * 3.141592653589793 * rnd(&st), s = sqrt(1 - u * u);
            double d = e->r + c.r - (err ? 0.6 + 0.3 * rnd(&st) : 0.3 * rnd(&st)) * fmin(e->r, c.r);
            c.x = e->x + d * s * cos(phi), c.y = e->y + d * s * sin(phi), c.z = e->z + d * u;
        }
        int ok = 1;
        for (int i = 0; i < m && ok && !err; i++) {
            double dx = c.x - b[i].x, dy = c.y - b[i].y, dz = c.z - b[i].z;
            ok = b[i].r + c.r - sqrt(dx * dx + dy * dy + dz * dz) <= 0.3 * fmin(b[i].r, c.r);
        }
        if (ok) b[m++] = c;
    }
    return m;
}

static void test_overlaps_sizes(void) {
    enum { NX = 16, NY = 16, N = 2 * NX * NY };
    static ball b[N + 8];
    /* an ice sheet under a ball 20 times larger that touches one sphere (4 %),
     * and two small spheres overlapping far from the ball (3 %) */
    int n = sheet(b, NX, NY), top = 8 + NX * (8 + NY); /* the site under the ball: (0.01, 0.01, 0.02) */
    b[n++] = (ball){0.2, b[top].x, b[top].y, b[top].z + 0.21 - 0.0004, 0};
    b[1 + NX].x += 0.0003; /* site (1, 1, 0) into (2, 1, 0) */
    CHECK(EXPECT_OVERLAPS(b, n) == 2);
    /* two more balls, a bit larger (same level as the first) and much larger
     * (one level up): the first touches the second, which touches the third;
     * one more pair of small spheres, so that one pair is counted, not named */
    b[n] = (ball){0.25, b[n - 1].x + 0.45 - 0.009, b[n - 1].y, b[n - 1].z, 0};
    b[n + 1] = (ball){1.0, b[n].x, b[n].y, b[n].z + 1.25 - 0.01, 0};
    n += 2;
    b[NX - 3 + NX * (NY - 2)].y += 0.0005; /* site (13, 14, 0) into (13, 15, 0) */
    CHECK(EXPECT_OVERLAPS(b, n) == 5);
    /* an error: the first ball sinks into its sphere (52 %), and touches 20
     * more around it */
    b[N].z -= 0.0048;
    CHECK(EXPECT_OVERLAPS(b, n) == 25);
    /* a deeper small pair with later ids does not change which pair is
     * named; an earlier one does */
    b[450].x += 0.015;
    CHECK(EXPECT_OVERLAPS(b, n) == 26);
    b[3].x += 0.015;
    CHECK(EXPECT_OVERLAPS(b, n) == 27);

    /* spheres of radii over two decades, touching each other at random:
     * warnings only, then with errors */
    static ball rb[1200];
    int m = random_balls(rb, 1200, 0, 12345);
    CHECK(m == 1200 && EXPECT_OVERLAPS(rb, m) > 100);
    m = random_balls(rb, 1200, 3, 777);
    CHECK(m == 1200 && EXPECT_OVERLAPS(rb, m) > 100);
}

/* A small sphere deep in a ball 20 times larger lies 10 cells of the small
 * spheres' grid away from the ball's centre: the search must find it from
 * either side (the ball first or last), wherever the cells begin; a search
 * on cells sized by the small spheres, or too small for the ball, would
 * not. */
static void test_overlaps_far_cells(void) {
    static ball b[1200];
    int n = 0;
    b[n++] = (ball){0.2, 0, 0, 0, 0};
    for (int j = -15; j <= 15; j++) /* a ring of small spheres around the ball, in the plane z = 0 */
        for (int i = -15; i <= 15; i++)
            if (hypot(i * 0.02, j * 0.02) > 0.211) b[n++] = (ball){0.01, i * 0.02, j * 0.02, 0, 0};
    b[n++] = (ball){0.01, 0, 0, 0.204, 0}; /* 60 %, straight above the centre */
    char path[512], want[1024];
    write_balls("far.yaml", b, n, 1, path, sizeof path);
    snprintf(want, sizeof want,
             "%d:5: particle 0 (line %d) and particle %d (line %d) overlap by 0.006 m, 60%% of the smaller radius "
             "0.01 m: the first step would blow up (initial overlaps over 50%% are refused); move them apart",
             4 + n - 1, 4, n - 1, 4 + n - 1);
    EXPECT_ERROR(path, want);
    CHECK(EXPECT_OVERLAPS(b, n) == 1);
    /* a far sphere below sets the corner of the grids: the ball's centre
     * moves across its cell (to 1 mm below the top of a cell half as wide
     * as the ball's level needs) */
    for (int k = 0; k < 20; k++) {
        b[n] = (ball){0.01, 1.0, 0, -(0.009 + 0.01 * k), 0};
        write_balls("far.yaml", b, n + 1, 1, path, sizeof path);
        EXPECT_ERROR(path, want);
    }
    /* a warning (5 %), along the diagonal, the ball last */
    double d = (0.21 - 0.0005) / sqrt(3);
    b[n - 1] = (ball){0.01, d, d, d, 0};
    b[0] = b[n - 1];
    b[n - 1] = (ball){0.2, 0, 0, 0, 0};
    write_balls("far.yaml", b, n, 1, path, sizeof path);
    floe_scene s;
    char err[1024];
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    snprintf(want, sizeof want,
             "%s:%d:5: warning: particle 0 (line 4) and particle %d (line %d) overlap by 0.0005 m, 5.0%% of the "
             "smaller radius: they start with a contact force pushing them apart\n",
             path, 4 + n - 1, n - 1, 4 + n - 1);
    CHECK(s.warnings && !strcmp(s.warnings, want));
    if (s.warnings && strcmp(s.warnings, want)) fprintf(stderr, "got:\n%swant:\n%s", s.warnings, want);
    floe_scene_free(&s);
    CHECK(EXPECT_OVERLAPS(b, n) == 1);
}

/* ---- 11.2: implausible material values -------------------------------------------------- */

static void test_materials(void) {
    floe_scene s;
    char err[1024];
    CHECK(floe_scene_load(DATA "warn_materials.yaml", &s, err, sizeof err) == 0);
    const char *w = DATA
        "warn_materials.yaml:4:26: warning: materials[0].density = 2.7 kg/m^3 is implausibly low (below 100 "
        "kg/m^3): was it given in g/cm^3? 2.7 g/cm^3 is 2700 kg/m^3\n" DATA
        "warn_materials.yaml:4:38: warning: materials[0].young = 70 Pa is implausibly soft (below 1e4 Pa): was it "
        "given in MPa or GPa? 70 GPa is 7e+10 Pa\n" DATA
        "warn_materials.yaml:4:51: warning: materials[0].tan_phi = 30 is the tangent of a friction angle of 88.1 "
        "degrees (above 3, 71.6 degrees): was an angle in degrees typed? tan(30 degrees) = 0.577\n";
    CHECK(s.warnings && !strcmp(s.warnings, w));
    if (s.warnings && strcmp(s.warnings, w)) fprintf(stderr, "got:\n%swant:\n%s", s.warnings, w);
    floe_scene_free(&s);
    char path[512];
    check_write_tmp(tmp, "ok.yaml",
                    "run: {steps: 0}\nmaterials: [{name: a, density: 25001}, {name: b, density: 100, "
                    "young: 1e4, tan_phi: 3}]\n",
                    path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    CHECK(s.warnings && strstr(s.warnings, "materials[0].density = 25001 kg/m^3 is above the density of any solid") &&
          !strstr(s.warnings, "materials[1]"));
    floe_scene_free(&s);
}

/* ---- 12.7: run length ------------------------------------------------------------------- */

static void test_run_length(void) {
    EXPECT_ERROR(DATA "bad_run_time_steps.yaml",
                 "3:13: run.time = 1e300 s is more than 1e308 steps of 1e-300 s, out of range [0, "
                 "9223372036854775807] steps (give a shorter time or a larger world.dt)");
    EXPECT_ERROR(DATA "bad_run_steps_range.yaml", "1:14: run.steps = 1e19 is out of range [0, 9223372036854775807]");
    char path[512];
    check_write_tmp(tmp, "t.yaml", "world: {dt: 1e-3}\nrun: {time: 1e16}\n", path, sizeof path);
    EXPECT_ERROR(path, "2:13: run.time = 1e16 s is 1e+19 steps of 0.001 s, out of range [0, 9223372036854775807] "
                       "steps (give a shorter time or a larger world.dt)");
    CLI_REFUSES(DATA "bad_run_time_steps.yaml", "run.time = 1e300 s is more than 1e308 steps");
}

/* ---- 11.11, 12.5: YAML syntax ---------------------------------------------------------------- */

static void test_yaml(void) {
    EXPECT_ERROR(DATA "bad_yaml_tab.yaml", "2:1: tabs are not allowed for indentation in YAML; indent with spaces");
    EXPECT_ERROR(DATA "bad_yaml_quote.yaml", "2:12: unclosed quote: the quoted text that starts here has no closing "
                                             "quote");
    EXPECT_ERROR(DATA "bad_yaml_indent.yaml",
                 "3:2: bad indentation: this line is not aligned with the keys of the mapping above it; indent every "
                 "key of a mapping by the same number of spaces (the mapping starts at line 1, column 1)");
    EXPECT_ERROR(DATA "bad_yaml_colon.yaml", "3:12: unexpected ':' here: a value that contains ': ' must be quoted, or "
                                             "the line is indented more than the keys above it");
    const char *deep = "lists and mappings nested more than 64 deep (a scene needs a handful of levels; is a closing "
                       "']' or '}' missing, or is this not a scene file?)";
    char want[512];
    snprintf(want, sizeof want, "2:69: %s", deep);
    EXPECT_ERROR(DATA "bad_yaml_nesting.yaml", want);
    /* 100,000 nested '[' (libyaml alone takes tens of seconds on them): refused at the 65th */
    size_t n = 100000;
    char *text = malloc(2 * n + 16);
    memcpy(text, "run: ", 5);
    memset(text + 5, '[', n);
    memset(text + 5 + n, ']', n);
    strcpy(text + 5 + 2 * n, "\n");
    char path[512];
    check_write_tmp(tmp, "deep.yaml", text, path, sizeof path);
    free(text);
    snprintf(want, sizeof want, "1:69: %s", deep); /* the top-level mapping is the first level */
    EXPECT_ERROR(path, want);
    /* 64 levels are fine */
    char ok[256] = "run: {steps: 1}\nx: ";
    size_t k = strlen(ok);
    for (int i = 0; i < 63; i++) ok[k++] = '[';
    for (int i = 0; i < 63; i++) ok[k++] = ']';
    strcpy(ok + k, "\n");
    check_write_tmp(tmp, "deep.yaml", ok, path, sizeof path);
    EXPECT_ERROR(
        path,
        "2:1: unknown key 'x' at the top level; allowed keys: world, run, materials, models, "
        "interactions, groups, particles, capsules, ellipsoids, clumps, cylinders, walls, facets, polyhedra, meshes, "
        "generators, output, methods, water, periodic, inlets, sinks");
}

/* ---- 12.10: what is not a regular file ---------------------------------------------------------- */

static void test_special_files(void) {
    EXPECT_ERROR(DATA "bad_stl_device.yaml", "3:16: meshes[0].stl: /dev/zero: cannot open: it is a character device "
                                             "(such as /dev/zero), not a regular file");
    EXPECT_ERROR(DATA "bad_particles_device.yaml", "3:20: particles[0].file: /dev/zero: cannot open: it is a character "
                                                   "device (such as /dev/zero), not a regular file");
    EXPECT_MESSAGE("/dev/zero", "/dev/zero:1:1: cannot read scene file: it is a character device (such as /dev/zero), "
                                "not a regular file");
    CLI_REFUSES("/dev/zero", "cannot read scene file: it is a character device");
    /* a FIFO would block the reader: refused before opening */
    char fifo[512], path[512], want[1024];
    snprintf(fifo, sizeof fifo, "%s/pipe", tmp);
    CHECK(mkfifo(fifo, 0600) == 0);
    check_write_tmp(tmp, "fifo.yaml", "run: {steps: 1}\nmaterials: [{name: a}]\nmeshes: [{stl: pipe}]\n", path,
                    sizeof path);
    snprintf(want, sizeof want,
             "3:16: meshes[0].stl: %s/pipe: cannot open: it is a FIFO (named pipe), not a regular "
             "file",
             tmp);
    EXPECT_ERROR(path, want);
    check_write_tmp(tmp, "fifo.yaml", "run: {steps: 1}\nmaterials: [{name: a}]\nparticles: [{file: pipe}]\n", path,
                    sizeof path);
    snprintf(want, sizeof want,
             "3:20: particles[0].file: %s/pipe: cannot open: it is a FIFO (named pipe), not a "
             "regular file",
             tmp);
    EXPECT_ERROR(path, want);
    snprintf(want, sizeof want, "%s:1:1: cannot read scene file: it is a FIFO (named pipe), not a regular file", fifo);
    EXPECT_MESSAGE(fifo, want);
    remove(fifo);
}

/* ---- 12.11: numbers and quotes of data files ------------------------------------------------------ */

static void test_data_files(void) {
    EXPECT_MESSAGE(DATA "bad_particles_hex.yaml", DATA "hex.csv:2:5: z: expected a number, got '0x10'");
    EXPECT_ERROR(DATA "bad_stl_hex.yaml", "3:16: meshes[0].stl: " DATA "hex_ascii.stl:5:11: expected a finite decimal "
                                          "number, got '0x10'");
    /* the same number syntax in both: no inf, nan, hex floats */
    static const char *const bad[] = {"inf", "nan", "0x1p4", "1e999", " 1"};
    for (int i = 0; i < 5; i++) {
        char stl[256], err[512], want[512];
        floe_stl m;
        snprintf(stl, sizeof stl, "solid x\nfacet normal 0 0 1\nouter loop\nvertex %s 0 0\n", bad[i]);
        CHECK(floe_stl_parse("b.stl", (const unsigned char *)stl, strlen(stl), &m, err, sizeof err) != 0);
        snprintf(want, sizeof want, "b.stl:4:%d: expected a finite decimal number, got '%s'", i == 4 ? 9 : 8,
                 i == 4 ? "1" : bad[i]);
        if (i < 4 && strcmp(err, want)) {
            check_failures++;
            fprintf(stderr, "STL number '%s': got %s, want %s\n", bad[i], err, want);
        }
    }
    /* a file that is not a table: the message quotes its first name characters only */
    EXPECT_MESSAGE(DATA "bad_particles_not_table.yaml",
                   DATA "not_a_table.txt:1:1: unknown column 'root...'; known columns: x, y, z, radius, vx, vy, vz, "
                        "wx, wy, wz, material, group");
    /* nor is a scene whose top level is text, or an STL with a long token */
    char path[512], want[1024], err[512];
    check_write_tmp(tmp, "passwd", "root:x:0:0:root:/root:/bin/bash\n", path, sizeof path);
    snprintf(want, sizeof want,
             "%s:1:1: scene: expected a mapping (key: value pairs), got text (this is not a scene "
             "file)",
             path);
    EXPECT_MESSAGE(path, want);
    static const char longtok[] =
        "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nsecret-abcdefghijklmnopqrstuvwxyz"
        "0123456789\n";
    floe_stl m;
    CHECK(floe_stl_parse("l.stl", (const unsigned char *)longtok, strlen(longtok), &m, err, sizeof err) != 0);
    CHECK(!strcmp(err, "l.stl:5:1: expected 'vertex', got 'secret-abcdefghijklmnopqrstuvwxy...'"));
}

/* ---- 12.1: positions and extents whose arithmetic overflows ---------------------------------------- */

static void test_bounds(void) {
    EXPECT_ERROR(DATA "bad_pos_overflow.yaml", "6:26: particles[1].pos[0] = 1e308 is out of range [-1e+12, 1e+12]");
    EXPECT_ERROR(DATA "bad_lattice_overflow.yaml",
                 "4:65: generators[0].lattice.counts: the lattice spans (0, 0, 0) to (9.9e+12, 0, 0), beyond the "
                 "limit of 1e+12 m on coordinates");
    EXPECT_ERROR(DATA "bad_mesh_overflow.yaml",
                 "3:16: meshes[0].stl: vertex 1 of triangle 0 of 'ramp_ascii.stl' lies at (2e+12, 0, 0) after scale "
                 "and translate, beyond the limit of 1e+12 m on coordinates");
    CLI_REFUSES(DATA "bad_pos_overflow.yaml", "particles[1].pos[0] = 1e308 is out of range");
    char path[512];
    check_write_tmp(tmp, "b.yaml", "run: {steps: 1}\nmaterials: [{name: a}]\nwalls: [{axis: z, pos: -1e300}]\n", path,
                    sizeof path);
    EXPECT_ERROR(path, "3:24: walls[0].pos = -1e300 is out of range [-1e+12, 1e+12]");
    check_write_tmp(tmp, "b.yaml",
                    "run: {steps: 1}\nmaterials: [{name: a}]\nparticles: [{radius: 1e300, pos: [0, 0, "
                    "0]}]\n",
                    path, sizeof path);
    EXPECT_ERROR(path, "3:22: particles[0].radius = 1e300 is out of range (0, 1e+12]");
}

int main(void) {
    snprintf(tmp, sizeof tmp, "%s/floe_test_scene_check_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 2;
    }
    test_dt();
    test_dt_run_override();
    test_overlaps();
    test_overlaps_sizes();
    test_overlaps_far_cells();
    test_materials();
    test_run_length();
    test_yaml();
    test_special_files();
    test_data_files();
    test_bounds();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
