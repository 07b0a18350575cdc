/* What `floe check` and `floe run` find before step 0 (issues 11.2, 11.11,
 * 12.1, 12.5, 12.6, 12.7, 12.10, 12.11): each malformed input of
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

static void test_dt(void) {
    EXPECT_ERROR(DATA "bad_dt_over_critical.yaml",
                 "4:7: world.dt = 0.01 s is above the critical time step of this scene, 1e-05 s (from its smallest, "
                 "lightest and stiffest bodies): the run would blow up within a few steps. Use dt: auto (0.9 x the "
                 "critical step, re-checked as contacts form) or a dt below 1e-05 s");
    EXPECT_ERROR(DATA "bad_dt_auto_no_bodies.yaml",
                 "2:13: world.dt: auto cannot derive a time step: it needs at least one sphere, capsule or ellipsoid, "
                 "and this scene has none (only walls, facets, meshes or cylinders); give world.dt in seconds");
    CLI_REFUSES(DATA "bad_dt_over_critical.yaml", "world.dt = 0.01 s is above the critical time step");
    CLI_REFUSES(DATA "bad_dt_auto_no_bodies.yaml", "world.dt: auto cannot derive a time step");

    /* a dt below the critical step is taken; a scene of no step needs none */
    char path[512], err[1024];
    floe_scene s;
    check_write_tmp(tmp, "ok.yaml",
                    "world: {dt: 9e-6}\nrun: {steps: 10}\nmaterials: [{name: a, young: 1e9}]\n"
                    "particles: [{radius: 0.01, pos: [0, 0, 0]}]\n",
                    path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    CHECK(s.world && floe_critical_dt(s.world) == 1e-5 && s.warnings == NULL);
    floe_scene_free(&s);
    check_write_tmp(tmp, "ok.yaml", "run: {steps: 0}\nmaterials: [{name: a}]\nwalls: [{axis: z}]\n", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    floe_scene_free(&s);
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
    EXPECT_ERROR(path, "2:1: unknown key 'x' at the top level; allowed keys: world, run, materials, models, "
                       "interactions, groups, particles, capsules, ellipsoids, cylinders, walls, facets, meshes, "
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
    test_overlaps();
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
