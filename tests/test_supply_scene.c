/* The scene's inlets and sinks sections (docs/scene-format.md#inlets-and-sinks):
 * a scene with an inlet of every region and a sink of each kind loads and
 * runs (the inlet inserts rate x time bodies, within one, and the sink
 * removes them), the definitions read back through floe_inlet_get and
 * floe_sink_get equal the scene's values, and every wrong key or value is
 * refused with file:line:column, the key and the allowed range. A run of
 * the CLI with inlets and a sink, stopped at steps 250 and 600 and resumed
 * from its restart files, writes every output file (VTK frames, history
 * with the inserted and removed counters, events, energy, final tables)
 * byte for byte as the uninterrupted run, and the CLI warns once, with the
 * numbers, about an inlet that cannot keep its rate. */
#include "pack/generate.h"

#include "check.h"

#include <floe/floe.h>
#include <floe/floe_io.h>

#include "proc.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];

static const char *head = "world: {gravity: [0, 0, -9.81], dt: 1e-4, skin: 1e-3}\n"
                          "run: {steps: 100}\n"
                          "materials: [{name: grain, density: 2500, young: 1e5}]\n"
                          "groups: [{name: beads}]\n";

/* Loads head + body: NULL `want` must load (the scene is returned), else
 * the error must contain every part of want ("a|b"). */
static int scene_case(const char *body, const char *want, floe_scene *out, int line) {
    char yaml[4096], path[512], err[1024];
    snprintf(yaml, sizeof yaml, "%s%s", head, body);
    check_write_tmp(tmpdir, "supply.yaml", yaml, path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    if (!want) {
        if (rc) fprintf(stderr, "test_supply_scene.c:%d: unexpected error %s\n", line, err);
        CHECK(rc == 0);
        if (rc == 0) {
            if (out) *out = s;
            else floe_scene_free(&s);
        }
        return rc;
    }
    CHECK(rc != 0);
    if (rc == 0) {
        fprintf(stderr, "test_supply_scene.c:%d: loaded, expected an error with '%s'\n", line, want);
        floe_scene_free(&s);
        return 0;
    }
    char parts[512];
    snprintf(parts, sizeof parts, "%s", want);
    for (char *tok = strtok(parts, "|"); tok; tok = strtok(NULL, "|"))
        if (!strstr(err, tok)) {
            check_failures++;
            fprintf(stderr, "test_supply_scene.c:%d: error '%s' lacks '%s'\n", line, err, tok);
        }
    if (!strstr(err, "supply.yaml:")) {
        check_failures++;
        fprintf(stderr, "test_supply_scene.c:%d: error '%s' does not name the file\n", line, err);
    }
    return 0;
}

#define GOOD(body, out) scene_case(body, NULL, out, __LINE__)
#define BAD(body, want) scene_case(body, want, NULL, __LINE__)

static void test_good(void) {
    floe_scene s;
    if (GOOD("inlets:\n"
             "  - {name: top, box: [[0, 0, 0.5], [0.1, 0.1, 0.6]], rate: 1000, end: 0.05, radius: [2e-3, 3e-3],\n"
             "     vel: [0, 0, -1], vel_spread: 0.1, group: beads, seed: 3, max_tries: 50}\n"
             "  - {name: rods, cylinder: {base: [0.5, 0, 0.5], axis: [0, 0, 0.1], radius: 0.05}, mass_rate: 0.01,\n"
             "     shape: capsule, radius: 2e-3, shaft: {dist: normal, mean: 4e-3, std: 1e-3, min: 2e-3, max: 6e-3}}\n"
             "  - {name: eggs, triangles: [[[1, 0, 0.5], [1.1, 0, 0.5], [1, 0.1, 0.5]]], rate: 200, start: 0.002,\n"
             "     shape: ellipsoid, semi_axes: [3e-3, [2e-3, 2.5e-3], {dist: lognormal, median: 2e-3, sigma: 0.2,\n"
             "     min: 1e-3, max: 3e-3}]}\n"
             "sinks:\n"
             "  - {name: floor, plane: {point: [0, 0, 0], normal: [0, 0, -1]}}\n"
             "  - {name: side, box: [[2, -1, -1], [3, 1, 1]], group: beads, start: 0.001}\n",
             &s))
        return;
    floe_world *w = s.world;
    CHECK(floe_inlet_count(w) == 3 && floe_sink_count(w) == 2);
    floe_inlet_def d;
    floe_inlet_stats st;
    CHECK(floe_inlet_get(w, 1, &st, &d) == FLOE_OK);
    CHECK(d.region == FLOE_REGION_CYLINDER && d.by_mass == 1 && d.rate == 0.01 && d.shape == FLOE_SHAPE_CAPSULE);
    CHECK(d.size[1].kind == FLOE_DIST_NORMAL && d.size[1].mu == 4e-3 && d.size[1].sigma == 1e-3);
    CHECK(floe_inlet_get(w, 2, &st, &d) == FLOE_OK);
    CHECK(d.region == FLOE_REGION_TRIANGLES && d.ntri == 1 && d.t_start == 0.002);
    CHECK(d.size[1].min == 2e-3 && d.size[1].max == 2.5e-3 && d.size[2].kind == FLOE_DIST_LOGNORMAL);
    floe_sink_def sd;
    CHECK(floe_sink_get(w, 1, NULL, &sd) == FLOE_OK);
    CHECK(sd.region == FLOE_REGION_BOX && sd.group == 0 && sd.t_start == 0.001);
    CHECK(floe_run(w, 100) == FLOE_OK); /* 0.01 s: 10 bodies from `top` */
    CHECK(floe_inlet_get(w, 0, &st, &d) == FLOE_OK);
    REPORT("scene inlet 'top': %lld bodies after 0.01 s at 1000 /s\n", (long long)st.inserted);
    CHECK(st.inserted >= 9 && st.inserted <= 10);
    CHECK(floe_particle_groups(w)[0] == 1u);
    floe_scene_free(&s);
}

/* A sink's normal is a direction: any finite, non-zero length, normalised
 * by its largest component first. |(1e200, 0, 1e200)| overflows, yet the
 * normal is (1, 0, 1) / sqrt(2) (to 1e-15); (0, 0, -1e-200), whose square
 * underflows, is (0, 0, -1) exactly. */
static void test_sink_normal(void) {
    floe_scene s;
    if (GOOD("sinks:\n"
             "  - {name: a, plane: {point: [0, 0, 0], normal: [1e200, 0, 1e200]}}\n"
             "  - {name: b, plane: {point: [0, 0, 0], normal: [0, 0, -1e-200]}}\n",
             &s))
        return;
    floe_sink_def sd;
    CHECK(floe_sink_get(s.world, 0, NULL, &sd) == FLOE_OK);
    CHECK_NEAR(sd.normal.x, sqrt(0.5), 1e-15);
    CHECK_NEAR(sd.normal.z, sqrt(0.5), 1e-15);
    CHECK(sd.normal.y == 0);
    CHECK(floe_sink_get(s.world, 1, NULL, &sd) == FLOE_OK);
    CHECK(sd.normal.x == 0 && sd.normal.y == 0 && sd.normal.z == -1);
    /* the API names the point or the normal, whichever is wrong */
    sd = floe_default_sink_def();
    sd.region = FLOE_REGION_HALFSPACE;
    sd.point = (floe_vec3){1e200, 0, 0};
    CHECK(floe_add_sink(s.world, "c", &sd) < 0 &&
          strstr(floe_last_error(s.world),
                 "floe_add_sink: 'c': point (1e+200, 0, 0) must be finite and at most 1e+100 in magnitude"));
    sd.point = (floe_vec3){0, 0, 0};
    sd.normal = (floe_vec3){0, 0, 0};
    CHECK(floe_add_sink(s.world, "c", &sd) < 0 &&
          strstr(floe_last_error(s.world), "floe_add_sink: 'c': normal (0, 0, 0) must be finite and not zero"));
    floe_scene_free(&s);
}

static void test_bad(void) {
    const char *ok_inlet = "inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 10, radius: 1e-3";
    char b[1024];
#define INLET(extra) (snprintf(b, sizeof b, "%s%s}\n", ok_inlet, extra), b)
    BAD(INLET(", rat: 3"), "supply.yaml:6:|unknown key 'rat'");
    BAD(INLET(", mass_rate: 3"), "give one rate: rate or mass_rate, not both");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], radius: 1e-3}\n",
        "give rate (bodies/s) or mass_rate (kg/s), or recycle: a sink");
    BAD("inlets:\n  - {name: a, rate: 1, radius: 1e-3}\n", "give the region: box, cylinder or triangles");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: -1, radius: 1e-3}\n", "inlets[0].rate|-1");
    BAD("inlets:\n  - {name: a, box: [[1, 0, 0], [0, 1, 1]], rate: 1, radius: 1e-3}\n",
        "inlets[0].box: the first corner");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, radius: [3e-3, 1e-3]}\n",
        "inlets[0].radius: min 0.003 is above max 0.001");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, radius: {dist: gauss, min: 1, max: 2}}\n",
        "inlets[0].radius.dist: unknown distribution 'gauss'");
    BAD(INLET(", shaft: 1e-3"), "inlets[0].shaft: not a size of shape sphere");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, shape: capsule, radius: 1e-3}\n",
        "missing required key 'shaft'");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, shape: ellipsoid, semi_axes: [1, 2]}\n",
        "inlets[0].semi_axes: expected 3 semi-axes");
    BAD(INLET(", shape: cube"), "unknown shape 'cube'");
    BAD(INLET(", vel_spread: -1"), "inlets[0].vel_spread");
    BAD(INLET(", max_tries: 0"), "inlets[0].max_tries");
    BAD(INLET(", start: 2, end: 1"), "inlets[0].end: end = 1 s is before start = 2 s");
    BAD("inlets:\n  - {name: a, cylinder: {base: [0, 0, 0], axis: [0, 0, 0], radius: 1}, rate: 1, radius: 1e-3}\n",
        "inlets[0].cylinder.axis: the axis");
    BAD("inlets:\n  - {name: a, triangles: [[[0, 0, 0], [1, 0, 0]]], rate: 1, radius: 1e-3}\n",
        "inlets[0].triangles[0]: expected three vertices");
    BAD("inlets:\n  - {name: a, triangles: [[[0, 0, 0], [1, 0, 0], [2, 0, 0]]], rate: 1, radius: 1e-3}\n",
        "triangle 0 has no area");
    snprintf(b, sizeof b, "%s}\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1, radius: 1e-3}\n", ok_inlet);
    BAD(b, "inlet 'a' is defined twice");
    BAD("sinks:\n  - {name: s}\n", "give the region: box or plane");
    BAD("sinks:\n  - {name: s, plane: {point: [0, 0, 0], normal: [0, 0, 0]}}\n", "sinks[0].plane.normal");
    BAD("sinks:\n  - {name: s, plane: {point: [0, 0, 0]}}\n", "missing required key 'normal'");
    BAD("sinks:\n  - {name: s, box: [[0, 0, 0], [1, 1, 1]], plane: {point: [0, 0, 0], normal: [0, 0, 1]}}\n",
        "give one region: box or plane, not both");
    BAD("sinks:\n  - {name: s, box: [[0, 0, 0], [1, 1, 1]], group: [beads, beads]}\n", "sinks[0].group: one group");
    BAD("sinks: {name: s}\n", "sinks");
    BAD(INLET(", recycle: nowhere"), "inlets[0].recycle: no sink named 'nowhere'");
#undef INLET
    /* budgets, certain before the run (head: dt 1e-4 s, 100 steps): 1e12
     * bodies/s x 1e-4 s = 1e8 bodies after one step; 5e9 bodies/s over the
     * run's 0.01 s = 5e7 bodies, 20 GB at 400 bytes each; 2e5 kg/s x 1e-4 s
     * = 20 kg after one step of spheres of at most 2500 x 4/3 pi (1e-3)^3 =
     * 1.047e-5 kg, so at least 1.91e6 bodies */
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 1e12, radius: 1e-3}\n",
        "supply.yaml:6:50: inlets[0].rate: 1e+12 bodies/s x dt 0.0001 s asks for 1e+08 bodies after each step, more "
        "than the 1000000 an inlet may add after one step (FLOE_INLET_MAX_STEP)");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 5e9, radius: 1e-3}\n",
        "supply.yaml:6:50: inlets[0].rate: 5e+09 bodies/s over the 0.01 s it works in this run asks for 5e+07 "
        "bodies|limits: 200000000 particles, 16 GiB");
    BAD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], mass_rate: 2e5, radius: [5e-4, 1e-3]}\n",
        "supply.yaml:6:55: inlets[0].mass_rate: 200000 kg/s x dt 0.0001 s asks for at least 1.91e+06 bodies");
    /* the same inlet working for a tenth of the run is within the guard */
    GOOD("inlets:\n  - {name: a, box: [[0, 0, 0], [1, 1, 1]], rate: 5e9, radius: 1e-3, end: 0.001}\n", NULL);
}

/* Every file of `ref` (restart files aside) exists in `dir` with the same
 * bytes, and `dir` has no other (as tests/test_restart.c checks). */
static int same_tree(const char *ref, const char *dir, const char *sub) {
    char p[1024], q[1024];
    snprintf(p, sizeof p, "%s/%s", ref, sub);
    DIR *d = opendir(p);
    if (!d) return 0;
    int ok = 1, files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".h5") || strstr(e->d_name, ".lock")) continue;
        char name[600];
        snprintf(name, sizeof name, "%s%s%s", sub, *sub ? "/" : "", e->d_name);
        snprintf(p, sizeof p, "%s/%s", ref, name);
        snprintf(q, sizeof q, "%s/%s", dir, name);
        struct stat st;
        stat(p, &st);
        if (S_ISDIR(st.st_mode)) {
            ok &= same_tree(ref, dir, name);
            continue;
        }
        files++;
        ok &= check_same_file(p, q);
    }
    closedir(d);
    snprintf(q, sizeof q, "%s/%s", dir, sub);
    d = opendir(q);
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".h5") || strstr(e->d_name, ".lock")) continue;
        snprintf(p, sizeof p, "%s/%s/%s", ref, sub, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0) {
            fprintf(stderr, "%s/%s/%s is not in the uninterrupted run\n", dir, sub, e->d_name);
            ok = 0;
        }
    }
    if (d) closedir(d);
    return ok && files > 0;
}

static void test_cli_restart(void) {
    char scene[512], ref[512], out[512], err[512];
    snprintf(err, sizeof err, "%s/stderr.txt", tmpdir);
    snprintf(scene, sizeof scene, "%s/pour.yaml", tmpdir);
    check_write_file(scene,
                     "world: {gravity: [0, 0, -9.81], dt: auto, dt_safety: 0.5, dyn_dt_period: 29}\n"
                     "run: {time: 0.08}\n"
                     "materials: [{name: grain, density: 2500, young: 1e6}]\n"
                     "walls: [{axis: z, pos: 0, sense: 1}]\n"
                     "inlets:\n"
                     "  - {name: beads, box: [[0, 0, 0.02], [0.04, 0.04, 0.04]], rate: 3000, "
                     "radius: {dist: lognormal, median: 2e-3, sigma: 0.2, min: 1.5e-3, max: 3e-3}, "
                     "vel: [0.5, 0, -0.2], vel_spread: 0.2, seed: 5}\n"
                     "  - {name: rods, cylinder: {base: [0.02, 0.02, 0.05], axis: [0, 0, 0.01], radius: 0.01}, "
                     "mass_rate: 0.05, shape: capsule, radius: 1.5e-3, shaft: [2e-3, 4e-3], vel: [0.5, 0, 0], "
                     "seed: 6}\n"
                     "  - {name: crowd, box: [[0, 0.1, 0.01], [0.01, 0.11, 0.011]], rate: 1e5, radius: 2e-3, "
                     "max_tries: 5}\n"
                     "sinks:\n"
                     "  - {name: side, plane: {point: [0.05, 0, 0], normal: [1, 0, 0]}}\n"
                     "output:\n"
                     "  vtk: {interval: 0.02}\n"
                     "  energy: {every: 25}\n"
                     "  events: all\n"
                     "  history: {every: 10, columns: [{name: n, counter: particles}, {name: in, counter: inserted},"
                     " {name: min, counter: inserted_mass}, {name: out, counter: removed}, "
                     "{name: mout, counter: removed_mass}]}\n");
    snprintf(ref, sizeof ref, "%s/ref", tmpdir);
    const char *run_ref[] = {"floe", "run", scene, "--out", ref, "--threads", "1", NULL};
    CHECK(run_cli(run_ref, err, 0) == 0);
    char *msg = check_slurp(err, NULL);
    const char *w1 = msg ? strstr(msg, "warning: inlet 'crowd' cannot keep its rate of 100000 bodies/s") : NULL;
    CHECK(w1 && !strstr(w1 + 1, "warning: inlet"));
    free(msg);
    snprintf(out, sizeof out, "%s/cut", tmpdir);
    const char *run_cut[] = {"floe", "run",       scene, "--out", out, "--threads", "1", "--restart-every",
                             "97",   "--stop-at", "250", NULL};
    CHECK(run_cli(run_cut, err, 0) == 0);
    const char *resume1[] = {"floe", "resume", out, "--stop-at", "600", NULL};
    CHECK(run_cli(resume1, err, 0) == 0);
    const char *resume2[] = {"floe", "resume", out, "--threads", "2", NULL};
    CHECK(run_cli(resume2, err, 0) == 0);
    int ok = same_tree(ref, out, "");
    CHECK(ok);
    /* the run did insert and remove: the last history row */
    char p[700];
    snprintf(p, sizeof p, "%s/history.csv", ref);
    char *h = check_slurp(p, NULL);
    double step = 0, t = 0, n = 0, in = 0, min = 0, outn = 0, mout = 0;
    const char *row = h ? strrchr(h, '\n') : NULL;
    if (row && row > h) {
        const char *r = row - 1;
        while (r > h && r[-1] != '\n') r--;
        CHECK(sscanf(r, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &step, &t, &n, &in, &min, &outn, &mout) == 7);
    }
    free(h);
    REPORT("CLI with inlets and a sink: %.0f inserted (%.4g kg), %.0f removed (%.4g kg), %.0f left at t = %.3g s; "
           "stopped at steps 250 and 600 and resumed: every output file identical: %s\n",
           in, min, outn, mout, n, t, ok ? "yes" : "NO");
    CHECK(in > 100 && outn > 10 && n == in - outn + 1); /* + the wall */
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' '%s' '%s'", ref, out, scene, err);
    CHECK(system(cmd) == 0);
}

/* examples/hopper.yaml loads and its inlet pours at its rate. */
static void test_hopper_example(void) {
    floe_scene s;
    char err[1024];
    int rc = floe_scene_load(FLOE_EXAMPLES "/hopper.yaml", &s, err, sizeof err);
    if (rc) fprintf(stderr, "hopper.yaml: %s\n", err);
    CHECK(rc == 0);
    if (rc) return;
    floe_world *w = s.world;
    CHECK(floe_particle_count(w) == 10 && floe_inlet_count(w) == 1 && floe_sink_count(w) == 1);
    CHECK(floe_group_motion(w, floe_find_group(w, "gate"), NULL) == 1);
    CHECK(floe_run(w, 2000) == FLOE_OK);
    floe_inlet_stats st;
    floe_inlet_get(w, 0, &st, NULL);
    REPORT("hopper.yaml: %lld beads after %.4g s at 4000 /s (asked %.3f)\n", (long long)st.inserted, floe_time(w),
           st.asked);
    CHECK(st.inserted >= (int64_t)(4000 * floe_time(w)) - 1 && (double)st.inserted <= st.asked);
    CHECK(floe_particle_count(w) == 10 + (int)st.inserted);
    floe_scene_free(&s);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/floe_test_supply_XXXXXX");
    const char *t = getenv("TMPDIR");
    if (t && *t) snprintf(tmpdir, sizeof tmpdir, "%s/floe_test_supply_XXXXXX", t);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_good();
    test_bad();
    test_sink_normal();
    test_cli_restart();
    test_hopper_example();
    char p[512];
    snprintf(p, sizeof p, "%s/supply.yaml", tmpdir);
    unlink(p);
    rmdir(tmpdir);
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
