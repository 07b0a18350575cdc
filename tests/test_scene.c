/* Scene loader, STL reader and particle generators.
 *
 * Valid scenes are read back through the public getters; every bad input
 * must give the exact "file:line:col: message" and leave the scene zeroed. */
#include "check.h"
#include "core/world.h"
#include "pack/generate.h"
#include "io/scene.h"
#include "io/stl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DATA FLOE_TEST_DATA "/"

static char tmpdir[256];

static int zeroed(const floe_scene *s) {
    static const floe_scene zero;
    return memcmp(s, &zero, sizeof zero) == 0;
}

/* Loads `path` and checks the full error message `path` + ":" + want. */
static void expect_error_at(const char *path, const char *want, int line) {
    floe_scene s;
    char err[1024], full[2048];
    memset(&s, 0x5a, sizeof s); /* must be zeroed by the loader */
    int rc = floe_scene_load(path, &s, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK(rc != 0);
    CHECK(zeroed(&s));
    if (rc == 0) {
        fprintf(stderr, "test_scene.c:%d: %s loaded but should fail with\n  %s\n", line, path, full);
        floe_scene_free(&s);
    } else if (strcmp(err, full) != 0) {
        check_failures++;
        fprintf(stderr, "test_scene.c:%d: wrong message\n  got:  %s\n  want: %s\n", line, err, full);
    }
}
#define EXPECT_ERROR(path, want) expect_error_at(path, want, __LINE__)

/* Same for a scene given inline; `want` starts at the line number. */
static void inline_error_at(const char *yaml, const char *want, int line) {
    char path[512];
    check_write_tmp(tmpdir, "inline.yaml", yaml, path, sizeof path);
    expect_error_at(path, want, line);
}
#define INLINE_ERROR(yaml, want) inline_error_at(yaml, want, __LINE__)

/* Only the start of the message is fixed (numbers computed at run time). */
static void inline_error_prefix_at(const char *yaml, const char *want, int line) {
    char path[512], err[1024], full[1024];
    floe_scene s;
    check_write_tmp(tmpdir, "inline.yaml", yaml, path, sizeof path);
    int rc = floe_scene_load(path, &s, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK(rc != 0 && zeroed(&s));
    if (rc == 0) floe_scene_free(&s);
    else if (strncmp(err, full, strlen(full)) != 0) {
        check_failures++;
        fprintf(stderr, "test_scene.c:%d: wrong message\n  got:  %s\n  want: %s...\n", line, err, full);
    }
}
#define INLINE_ERROR_PREFIX(yaml, want) inline_error_prefix_at(yaml, want, __LINE__)

static int load_inline(const char *yaml, floe_scene *s) {
    char path[512], err[1024];
    check_write_tmp(tmpdir, "inline.yaml", yaml, path, sizeof path);
    int rc = floe_scene_load(path, s, err, sizeof err);
    if (rc) fprintf(stderr, "unexpected error: %s\n", err);
    return rc;
}

static void check_vec(floe_vec3 got, double x, double y, double z, double tol) {
    CHECK_NEAR(got.x, x, tol);
    CHECK_NEAR(got.y, y, tol);
    CHECK_NEAR(got.z, z, tol);
}

static int no_overlap(const floe_vec3 *p, const double *r, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y, dz = p[i].z - p[j].z;
            if (dx * dx + dy * dy + dz * dz < (r[i] + r[j]) * (r[i] + r[j])) return 0;
        }
    return 1;
}

/* ---- a complete scene ------------------------------------------------------ */

static void test_full_scene(void) {
    floe_scene s;
    char err[1024];
    int rc = floe_scene_load(DATA "scene_full.yaml", &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    floe_world *w = s.world;
    CHECK(strcmp(s.path, DATA "scene_full.yaml") == 0);

    /* world and run; dt_check: warn made the dt check a warning */
    CHECK(s.warnings && strstr(s.warnings, "scene_full.yaml:4:7: warning: world.dt = 5e-07 s is above the critical "
                                           "time step of this scene"));
    CHECK_REL(floe_dt(w), 5e-7, 1e-15);
    CHECK(s.steps == 0);
    CHECK_REL(s.duration, 1.25e-4, 1e-15);
    CHECK(floe_scene_total_steps(&s) == 250);

    /* materials */
    CHECK(floe_material_count(w) == 2);
    int glass = floe_find_material(w, "glass"), steel = floe_find_material(w, "steel");
    CHECK(glass == 0 && steel == 1);
    CHECK_REL(floe_material_get(w, glass, "young"), 48e9, 1e-15);
    CHECK_REL(floe_material_get(w, glass, "density"), 2800, 1e-15);
    CHECK_REL(floe_material_get(w, glass, "tan_phi"), 0.5, 1e-15);
    CHECK_REL(floe_material_get(w, steel, "young"), 2.1e11, 1e-15);
    CHECK_REL(floe_material_get(w, steel, "kt_div_kn"), 0.25, 1e-15);

    /* groups: declared first, then implicit ones in order of first use */
    static const char *const gnames[] = {"piston", "floor", "ball", "ramp", "bed"};
    CHECK(floe_group_count(w) == 5);
    for (int g = 0; g < 5 && g < floe_group_count(w); g++) CHECK(strcmp(floe_group_name(w, g), gnames[g]) == 0);

    /* particles: particles, walls, facets, meshes, generators in file order */
    CHECK(floe_particle_count(w) == 42);
    if (floe_particle_count(w) != 42) {
        floe_scene_free(&s);
        return;
    }
    const floe_vec3 *pos = floe_positions(w), *vel = floe_velocities(w), *av = floe_angular_velocities(w);
    const double *rad = floe_radii(w);
    const uint32_t *grp = floe_particle_groups(w), *blk = floe_particle_blocked(w);
    const int *mat = floe_particle_materials(w);
    CHECK(floe_particle_shape(w, 0) == FLOE_SHAPE_SPHERE);
    CHECK_NEAR(rad[0], 0.01, 0);
    check_vec(pos[0], 0, 0, 0.02, 0);
    check_vec(vel[0], 1, 0, 0, 0);
    CHECK(mat[0] == glass && grp[0] == 1u << 2 && blk[0] == 0);
    check_vec(av[1], 0, 0, 3, 0);
    CHECK(blk[1] == (FLOE_DOF_X | FLOE_DOF_Y | FLOE_DOF_RZ));
    CHECK(mat[2] == steel && blk[2] == FLOE_DOF_ALL && grp[2] == ((1u << 2) | (1u << 0)));

    int sense = 9;
    CHECK(floe_particle_shape(w, 3) == FLOE_SHAPE_WALL);
    CHECK(floe_wall_axis(w, 3, &sense) == 2 && sense == 1);
    CHECK(grp[3] == 1u << 1);
    CHECK_NEAR(pos[3].z, 0, 0);
    CHECK(floe_wall_axis(w, 4, &sense) == 0 && sense == 0);
    CHECK_NEAR(pos[4].x, -0.5, 0);

    floe_vec3 v[3];
    CHECK(floe_particle_shape(w, 5) == FLOE_SHAPE_FACET);
    CHECK(floe_facet_vertices(w, 5, v) == FLOE_OK);
    check_vec(v[0], 0, 0, 1, 1e-15);
    check_vec(v[1], 1, 0, 1, 1e-15);
    check_vec(v[2], 0, 1, 1, 1e-15);
    CHECK_NEAR(rad[5], 0.001, 0);
    CHECK(grp[5] == 1u << 0 && blk[5] == FLOE_DOF_ALL);

    /* meshes: ASCII (ids 6, 7) and binary scaled by 2, moved up by 1 (8, 9) */
    static const double ramp[2][3][3] = {{{0, 0, 0}, {1, 0, 0}, {1, 1, 0.5}}, {{0, 0, 0}, {1, 1, 0.5}, {0, 1, 0.5}}};
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < 2; t++) {
            int id = 6 + 2 * m + t;
            double sc = m ? 2 : 1, dz = m ? 1 : 0;
            CHECK(floe_particle_shape(w, id) == FLOE_SHAPE_FACET);
            CHECK(floe_facet_vertices(w, id, v) == FLOE_OK);
            for (int k = 0; k < 3; k++)
                check_vec(v[k], sc * ramp[t][k][0], sc * ramp[t][k][1], sc * ramp[t][k][2] + dz, 1e-12);
            CHECK(grp[id] == 1u << 3 && mat[id] == steel);
        }
    /* one rigid body per mesh, at the area-weighted centroid */
    check_vec(pos[6], 0.5, 0.5, 0.25, 1e-12);
    check_vec(pos[7], 0.5, 0.5, 0.25, 1e-12);
    check_vec(pos[8], 1, 1, 1.5, 1e-12);

    /* lattice: x fastest */
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 3; i++) {
                int id = 10 + i + 3 * (j + 2 * k);
                check_vec(pos[id], 0.5 + 0.011 * i, 0.5 + 0.011 * j, 0.5 + 0.011 * k, 1e-15);
                CHECK(rad[id] == 0.005 && grp[id] == 1u << 4);
            }
    /* random: inside the box, radii in range, no overlap, largest first */
    for (int id = 22; id < 42; id++) {
        CHECK(rad[id] >= 0.004 && rad[id] <= 0.006);
        CHECK(pos[id].x - rad[id] >= 2 && pos[id].x + rad[id] <= 2.1);
        CHECK(pos[id].z - rad[id] >= 2 && pos[id].z + rad[id] <= 2.1);
        CHECK(id == 22 || rad[id] <= rad[id - 1]);
    }
    CHECK(no_overlap(pos + 22, rad + 22, 20));

    /* output */
    const floe_output_config *o = &s.out;
    CHECK(o->vtk.steps == 0 && o->vtk.interval == 1e-5);
    CHECK(o->vtk_contacts == 0 && o->vtk_boundaries == 1);
    CHECK(o->energy.steps == 10 && o->energy.interval == 0);
    CHECK(o->history.steps == 5);
    CHECK(o->final_state == 0);
    CHECK(o->progress.steps == 2); /* default: 1/100 of 250 steps */
    CHECK(o->n_history_cols == 5);
    if (o->n_history_cols == 5) {
        const floe_history_column *c = o->history_cols;
        CHECK(c[0].kind == FLOE_HIST_PARTICLE && c[0].a == 0 && !strcmp(c[0].quantity, "pos.z") &&
              !strcmp(c[0].name, "z_ball"));
        CHECK(c[1].kind == FLOE_HIST_CONTACT && c[1].a == 0 && c[1].b == 1 && !strcmp(c[1].quantity, "fn"));
        CHECK(c[2].kind == FLOE_HIST_GROUP && c[2].group == 1 && !strcmp(c[2].quantity, "force.z"));
        CHECK(c[3].kind == FLOE_HIST_ENERGY && c[3].energy == FLOE_E_KINETIC);
        CHECK(c[4].kind == FLOE_HIST_COUNTER && !strcmp(c[4].quantity, "contacts"));
    }
    floe_scene_free(&s);
    CHECK(zeroed(&s));
    floe_scene_free(&s); /* freeing twice is harmless */
}

static void test_minimal_scene(void) {
    floe_scene s;
    char err[1024];
    int rc = floe_scene_load(DATA "scene_minimal.yaml", &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CHECK(floe_particle_count(s.world) == 2);
    CHECK(floe_particle_materials(s.world)[1] == 0); /* the only material is the default */
    CHECK_REL(floe_material_get(s.world, 0, "density"), 917, 1e-15);
    CHECK(floe_dt(s.world) > 0); /* auto */
    CHECK(floe_scene_total_steps(&s) == 1000);
    /* defaults: vtk every 1/100, energy every 1/1000 of the run, no history */
    CHECK(s.out.vtk.steps == 10 && s.out.energy.steps == 1 && s.out.history.steps == 0);
    CHECK(s.out.vtk_contacts == 1 && s.out.vtk_boundaries == 1 && s.out.final_state == 1);
    CHECK(s.out.n_history_cols == 0 && s.out.history_cols == NULL);
    floe_scene_free(&s);
}

/* ---- bad files: exact position and message ------------------------------------ */

static void test_bad_files(void) {
    EXPECT_ERROR(DATA "bad_unknown_key.yaml", "8:6: unknown key 'radus' in particles[2]; did you mean 'radius'?");
    EXPECT_ERROR(DATA "bad_range.yaml", "3:12: world.damping = 1.5 is out of range [0, 1)");
    EXPECT_ERROR(DATA "bad_type.yaml", "5:12: materials[0].young: expected a number, got 'stiff'");
    EXPECT_ERROR(DATA "bad_list_length.yaml",
                 "5:25: particles[0].pos: expected a list of 3 numbers [x, y, z], got a list of 2");
    EXPECT_ERROR(DATA "bad_missing_radius.yaml", "5:5: missing required key 'radius' in particles[0]");
    EXPECT_ERROR(DATA "bad_unknown_material.yaml",
                 "5:46: particles[0].material: unknown material 'glas'; did you mean 'glass'?");
    EXPECT_ERROR(DATA "bad_yaml.yaml", "3:10: missing ',' or closing '}' in a { ... } mapping (the mapping starts "
                                       "at line 2, column 6)");
    EXPECT_ERROR(DATA "bad_run_both.yaml", "2:18: run: give either 'steps' or 'time', not both");
    EXPECT_ERROR(DATA "bad_run_neither.yaml", "2:6: run: missing 'steps' or 'time' (give exactly one)");
    EXPECT_ERROR(DATA "bad_stl_truncated_binary.yaml",
                 "5:11: meshes[0].stl: " DATA "bad_truncated_binary.stl: binary STL header announces 2 triangles "
                 "(184 bytes) but the file has 177 bytes (truncated or not an STL file)");
    EXPECT_ERROR(DATA "bad_stl_truncated_ascii.yaml",
                 "5:11: meshes[0].stl: " DATA "bad_truncated_ascii.stl:10:1: unexpected end of file, expected 'outer'");
    EXPECT_ERROR(DATA "bad_stl_garbage.yaml",
                 "5:11: meshes[0].stl: " DATA "bad_garbage.stl: not an STL file (34 bytes: too short for binary STL, "
                 "and not ASCII STL text starting with 'solid')");
    EXPECT_ERROR(DATA "does_not_exist.yaml", "1:1: cannot read scene file: No such file or directory");
}

static void test_inline_errors(void) {
    INLINE_ERROR("", "1:1: empty scene file");
    INLINE_ERROR("# only a comment\n", "1:1: empty scene file");
    INLINE_ERROR("run: {steps: 1}\n---\nrun: {steps: 2}\n",
                 "3:1: a scene file holds one YAML document; found a second one");
    INLINE_ERROR("- a\n- b\n", "1:1: scene: expected a mapping (key: value pairs), got a list");
    INLINE_ERROR("rnu: {steps: 1}\n", "1:1: unknown key 'rnu' at the top level; did you mean 'run'?");
    INLINE_ERROR("materials: []\n", "1:1: missing required key 'run' at the top level (give run.steps or run.time)");
    INLINE_ERROR("run: {steps: 1.5}\n", "1:14: run.steps = 1.5 must be an integer");
    INLINE_ERROR("run: {steps: -3}\n", "1:14: run.steps = -3 is out of range [0, 9223372036854775807]");
    INLINE_ERROR("run: {steps: '10'}\n", "1:14: run.steps: expected a number, got the quoted text '10'");
    INLINE_ERROR("run: {steps: 1, steps: 2}\n", "1:17: duplicate key 'steps' in run (first given at line 1)");
    INLINE_ERROR("run: {time: 0}\n", "1:13: run.time = 0 is out of range (0, inf)");
    INLINE_ERROR("run:\n  steps: [1]\n", "2:10: run.steps: expected a number, got a list");
    INLINE_ERROR("run: {steps: .nan}\n", "1:14: run.steps: NaN is not allowed");
    INLINE_ERROR("run: {steps: 1e400}\n", "1:14: run.steps: expected a number, got '1e400'");
    INLINE_ERROR("world: {dt: fast}\nrun: {steps: 1}\n", "1:13: world.dt: expected a number (s) or 'auto', got 'fast'");
    INLINE_ERROR("world: {dt: 0}\nrun: {steps: 1}\n", "1:13: world.dt = 0 s is out of range (0, inf)");
    INLINE_ERROR("world: {gravity: [0, 0, x]}\nrun: {steps: 1}\n",
                 "1:25: world.gravity[2]: expected a number, got 'x'");
    INLINE_ERROR("world: {legacy_lens: yes}\nrun: {steps: 1}\n",
                 "1:22: world.legacy_lens: expected true or false, got 'yes'");
    INLINE_ERROR("world: {sphere_orientation: 2}\nrun: {steps: 1}\n",
                 "1:29: world.sphere_orientation: expected true or false, got '2'");
    INLINE_ERROR("world: {threads: -1}\nrun: {steps: 1}\n", "1:18: world.threads = -1 is out of range [0, 4096]");
    INLINE_ERROR("world: {dt_safety: 0}\nrun: {steps: 1}\n", "1:20: world.dt_safety = 0 is out of range (0, 1]");

    /* materials, models, interactions: keys come from the model schemas */
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a, model: linaer}]\n",
                 "2:30: materials[0].model: unknown contact model 'linaer'; did you mean 'linear'?");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a, yung: 1e9}]\n",
                 "2:23: unknown key 'yung' in materials[0]; did you mean 'young'?");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a, char_len: 1}]\n",
                 "2:23: unknown key 'char_len' in materials[0]; allowed keys: name, model, density, young, "
                 "kt_div_kn, tan_phi");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a, density: -1}]\n",
                 "2:32: materials[0].density = -1 is out of range (0, inf)");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a}, {name: a}]\n",
                 "2:31: materials[1].name: material 'a' is declared twice");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{density: 1}]\n", "2:13: missing required key 'name' in materials[0]");
    INLINE_ERROR("run: {steps: 1}\nmodels: {linear: {no_slp: true}}\n",
                 "2:19: unknown key 'no_slp' in models.linear; did you mean 'no_slip'?");
    INLINE_ERROR("run: {steps: 1}\nmodels: {linel6: {char_len: 0}}\n",
                 "2:29: models.linel6.char_len = 0 is out of range (0, inf)");
    INLINE_ERROR("run: {steps: 1}\nmodels: {linear: {no_slip: 2}}\n",
                 "2:28: models.linear.no_slip = 2 is out of range [0, 1]");
    INLINE_ERROR("run: {steps: 1}\nmodels: {linear: {no_slip: 0.5}}\n",
                 "2:28: models.linear.no_slip = 0.5 must be an integer");
    if (floe_model_find("ice")) {
        /* bit masks: integers or lists of the schema's bit names */
        INLINE_ERROR("run: {steps: 1}\nmodels: {ice: {bonds0: [bondN, bondQ]}}\n",
                     "2:32: models.ice.bonds0[1]: unknown bit 'bondQ'; did you mean 'bondN'?");
        INLINE_ERROR("run: {steps: 1}\nmodels: {ice: {bonds0: 2.5}}\n",
                     "2:24: models.ice.bonds0 = 2.5 must be an integer");
        INLINE_ERROR("run: {steps: 1}\nmodels: {ice: {bonds0: 0b100000000}}\n",
                     "2:24: models.ice.bonds0 = 0b100000000 is out of range [0, 255]");
    }
    INLINE_ERROR("run: {steps: 1}\nmodels: {lin: {}}\n", "2:10: unknown key 'lin' in models; did you mean 'linear'?");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a}, {name: b}]\ninteractions:\n"
                 "  - {materials: [a, b], model: linel6}\n  - {materials: [b, a], model: linear}\n",
                 "5:17: interactions[1].materials: the pair b-a is already given in interactions[0]");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a}]\ninteractions:\n  - {materials: [a], model: linear}\n",
                 "4:17: interactions[0].materials: expected a list of 2 material names [a, b]");
    INLINE_ERROR("run: {steps: 1}\nmaterials: [{name: a}]\ninteractions:\n"
                 "  - {materials: [a, a], model: linel6, no_slip: true}\n",
                 "4:40: unknown key 'no_slip' in interactions[0]; allowed keys: materials, model, char_len");

    /* groups */
    INLINE_ERROR("run: {steps: 1}\ngroups: [{name: g, start: 2, end: 1}]\n",
                 "2:35: groups[0].end = 1 is out of range (2, inf]");
    INLINE_ERROR("run: {steps: 1}\ngroups: [{name: g}, {name: g}]\n",
                 "2:28: groups[1].name: group 'g' is declared twice");

    /* bodies */
    static const char head[] = "run: {steps: 1}\nmaterials: [{name: a}, {name: b}]\n";
    char buf[4096];
#define WITH_HEAD(body) (snprintf(buf, sizeof buf, "%s%s", head, body), buf)
    INLINE_ERROR(WITH_HEAD("particles: [{radius: 1, pos: [0, 0, 0]}]\n"),
                 "3:13: missing required key 'material' in particles[0] (required when more than one material is "
                 "declared)");
    INLINE_ERROR(WITH_HEAD("particles: [{radius: 0, pos: [0, 0, 0], material: a}]\n"),
                 "3:22: particles[0].radius = 0 is out of range (0, 1e+12]");
    INLINE_ERROR(WITH_HEAD("particles: [{radius: 1, pos: [0, 0, 0], material: a, block: xq}]\n"),
                 "3:61: particles[0].block: unknown degree of freedom 'q' in 'xq' (x y z block translations, X Y Z "
                 "rotations)");
    INLINE_ERROR(WITH_HEAD("particles: [{radius: 1, pos: [0, 0, 0], material: a, ori: [0, 0, 0, 0]}]\n"),
                 "3:59: particles[0].ori: quaternion has zero length");
    INLINE_ERROR(WITH_HEAD("particles: {radius: 1}\n"), "3:12: particles: expected a list, got a mapping");
    INLINE_ERROR(WITH_HEAD("walls: [{axis: w, material: a}]\n"), "3:16: walls[0].axis: expected x, y, z or 0, 1, 2");
    INLINE_ERROR(WITH_HEAD("walls: [{axis: 3, material: a}]\n"), "3:16: walls[0].axis = 3 is out of range [0, 2]");
    INLINE_ERROR(WITH_HEAD("walls: [{axis: x, sense: 2, material: a}]\n"),
                 "3:26: walls[0].sense = 2 is out of range [-1, 1]");
    INLINE_ERROR(WITH_HEAD("facets: [{vertices: [[0,0,0], [1,1,1], [2,2,2]], material: a}]\n"),
                 "3:21: facets[0].vertices: the triangle is degenerate (zero area)");
    INLINE_ERROR(WITH_HEAD("generators: [{lattice: {spacing: 1, counts: [2, 2], radius: 0.4, material: a}}]\n"),
                 "3:45: generators[0].lattice.counts: expected a list of 3 integers [nx, ny, nz]");
    INLINE_ERROR(
        WITH_HEAD("generators: [{lattice: {spacing: 1, counts: [1, 1, 1], radius: 0.4, material: a, fixed: 2}}]\n"),
        "3:89: generators[0].lattice.fixed: expected true or false, got '2'");
    INLINE_ERROR(WITH_HEAD("generators: [{lattice: {spacing: 1, counts: [2, 2, 2.5], radius: 0.4, material: a}}]\n"),
                 "3:52: generators[0].lattice.counts[2] = 2.5 must be an integer");
    INLINE_ERROR(
        WITH_HEAD("generators: [{lattice: {spacing: [1, 0, 1], counts: [2, 2, 2], radius: 0.4, material: a}}]\n"),
        "3:34: generators[0].lattice.spacing: every component must be > 0 (got 0)");
    INLINE_ERROR(WITH_HEAD("generators: [{lattice: {spacing: 1, counts: [1, 1, 1], material: a}, random: {}}]\n"),
                 "3:70: generators[0]: give exactly one generator (lattice, random or dense) per list item");
    INLINE_ERROR(WITH_HEAD("generators: [{lattise: {}}]\n"),
                 "3:15: unknown key 'lattise' in generators[0]; did you mean 'lattice'?");
    INLINE_ERROR(WITH_HEAD("generators: [{random: {box: [[0,0,0],[1,1,1]], radius: [0.2, 0.1], count: 3, "
                           "material: a}}]\n"),
                 "3:62: generators[0].random.radius[1] = 0.1 is out of range [0.2, 1e+12]");
    INLINE_ERROR(WITH_HEAD("generators: [{random: {box: [[0,0,0],[1,1,1]], radius: 0.6, count: 3, material: a}}]\n"),
                 "3:29: generators[0].random.box: a 1 x 1 x 1 box cannot hold spheres of radius 0.6");
    INLINE_ERROR(WITH_HEAD("generators: [{random: {box: [[0,0,0],[1,-1,1]], radius: 0.1, count: 3, material: a}}]\n"),
                 "3:29: generators[0].random.box: the first corner must be below the second on every axis");

    /* absurd sizes are refused before allocating */
    INLINE_ERROR(
        WITH_HEAD("particles: [{radius: 1, pos: [9, 9, 9], material: a}]\n"
                  "generators:\n  - lattice: {spacing: 1, counts: [10000, 10000, 10000], radius: 0.4, "
                  "material: b}\n"),
        "5:14: generators[0].lattice: the scene would hold 1e+12 particles, needing about 372529.0 GiB of memory "
        "(limits: 200000000 particles, 16 GiB); refusing to allocate");
    /* a box too full for random placement */
    INLINE_ERROR_PREFIX(WITH_HEAD("generators:\n  - random: {box: [[0,0,0],[0.1,0.1,0.1]], radius: 0.01, count: 1000, "
                                  "material: a}\n"),
                        "4:13: generators[0].random: box too full: placed only ");

    /* output */
    static const char two[] = "run: {steps: 100}\nmaterials: [{name: a}]\nparticles:\n"
                              "  - {radius: 1, pos: [0, 0, 0]}\n  - {radius: 1, pos: [3, 0, 0]}\n";
#define WITH_TWO(out) (snprintf(buf, sizeof buf, "%s%s", two, out), buf)
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: x, particle: 2, quantity: pos.x}]\n"),
                 "8:35: output.history.columns[0].particle = 2 is out of range [0, 1]");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: x, particle: 1, quantity: pos.w}]\n"),
                 "8:48: output.history.columns[0].quantity: unknown quantity 'pos.w'; did you mean 'pos.x'?");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: e, energy: kinetik}]\n"),
                 "8:33: output.history.columns[0].energy: unknown energy term 'kinetik'; did you mean 'kinetic'?");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: e, energy: kinetic, quantity: x}]\n"),
                 "8:52: output.history.columns[0].quantity: not used with 'energy'");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: e, particle: 0, group: g, quantity: pos.x}]\n"),
                 "8:15: output.history.columns[0]: give only one of particle, contact, group, energy, counter (found "
                 "'particle' and 'group')");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: e, group: nope, quantity: force.x}]\n"),
                 "8:32: output.history.columns[0].group: unknown group 'nope' (none are defined)");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: c, contact: [1, 1], quantity: fn}]\n"),
                 "8:34: output.history.columns[0].contact: a contact needs two different particles");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns:\n      - {name: a, counter: step}\n"
                          "      - {name: a, counter: time}\n"),
                 "10:16: output.history.columns[1].name: column 'a' is defined twice");
    /* history.csv starts with step,time: a column of either name would head a second one */
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns:\n      - {name: x, counter: step}\n"
                          "      - {name: time, counter: time}\n"),
                 "10:16: output.history.columns[1].name: 'time' duplicates the built-in column 'time' of "
                 "history.csv (every row starts with step, time); remove this entry, or give it another name");
    INLINE_ERROR(WITH_TWO("output:\n  history:\n    columns: [{name: step, particle: 0, quantity: pos.x}]\n"),
                 "8:22: output.history.columns[0].name: 'step' duplicates the built-in column 'step' of "
                 "history.csv (every row starts with step, time); remove this entry, or give it another name");
    INLINE_ERROR(WITH_TWO("output:\n  history: {every: 5}\n"),
                 "7:12: missing required key 'columns' in output.history");
    INLINE_ERROR(WITH_TWO("output:\n  vtk: {every: 5, interval: 0.1}\n"),
                 "7:29: output.vtk: give either 'every' (steps) or 'interval' (seconds), not both");
    INLINE_ERROR(WITH_TWO("output:\n  vtk: {evry: 5}\n"),
                 "7:9: unknown key 'evry' in output.vtk; did you mean 'every'?");
    INLINE_ERROR(WITH_TWO("output:\n  energy: {interval: -1}\n"),
                 "7:22: output.energy.interval = -1 is out of range (0, inf)");

    /* a run needs a time step; auto dt has none without spheres */
    INLINE_ERROR_PREFIX("run: {time: 1}\nmaterials: [{name: a}]\nwalls: [{axis: z}]\n",
                        "1:1: world.dt: auto cannot derive a time step: it needs at least one sphere");
    /* too many groups */
    {
        char yaml[4096] = "run: {steps: 1}\ngroups:\n";
        for (int g = 0; g <= FLOE_MAX_GROUPS; g++) {
            size_t k = strlen(yaml);
            snprintf(yaml + k, sizeof yaml - k, "  - {name: g%d}\n", g);
        }
        INLINE_ERROR_PREFIX(yaml, "35:12: groups[32].name: at most 32 groups");
    }
#undef WITH_HEAD
#undef WITH_TWO
}

static void test_missing_stl(void) {
    char path[512], want[1024];
    check_write_tmp(tmpdir, "mesh.yaml", "run: {steps: 1}\nmaterials: [{name: a}]\nmeshes: [{stl: nowhere.stl}]\n",
                    path, sizeof path);
    /* relative STL paths are relative to the scene file's directory */
    snprintf(want, sizeof want, "3:16: meshes[0].stl: %s/nowhere.stl: cannot open: No such file or directory", tmpdir);
    EXPECT_ERROR(path, want);
}

/* ---- valid inline scenes ---------------------------------------------------------- */

static void test_inline_valid(void) {
    floe_scene s;
    /* YAML number forms and integral step counts (a run without bodies needs a given dt) */
    CHECK(load_inline("world: {dt: 1}\nrun: {steps: 1e3}\n", &s) == 0);
    CHECK(s.steps == 1000);
    CHECK(s.world->def.sphere_orientation == 1); /* the default */
    floe_scene_free(&s);
    CHECK(load_inline("world: {dt: 1, sphere_orientation: false}\nrun: {steps: 1}\n", &s) == 0);
    CHECK(s.world->def.sphere_orientation == 0);
    floe_scene_free(&s);
    CHECK(load_inline("world: {dt: 1}\nrun: {steps: 0x10}\n", &s) == 0);
    CHECK(s.steps == 16);
    floe_scene_free(&s);
    CHECK(load_inline("world: {dt: 1}\nrun: {steps: '0b1010'}\n", &s) == 0);
    CHECK(s.steps == 10);
    floe_scene_free(&s);
    CHECK(load_inline("run: {steps: 0}\nmaterials: [{name: a, tan_phi: .5, young: 2.5E9, density: +1e3}]\n", &s) == 0);
    CHECK_REL(floe_material_get(s.world, 0, "young"), 2.5e9, 1e-15);
    CHECK_REL(floe_material_get(s.world, 0, "tan_phi"), 0.5, 1e-15);
    floe_scene_free(&s);

    if (floe_model_find("ice")) {
        CHECK(
            load_inline("world: {dt: 1}\nrun: {steps: 1}\nmodels:\n  ice: {bonds0: [bondN, bondT, bondW, bondR, brkT], "
                        "bonds1: '0b00101111', step01: 5}\n",
                        &s) == 0);
        floe_scene_free(&s);
    }

    /* time with a fixed dt, rounding noise does not add a step */
    CHECK(load_inline("world: {dt: 1e-4}\nrun: {time: 0.5}\n", &s) == 0);
    CHECK(floe_scene_total_steps(&s) == 5000);
    CHECK(s.out.vtk.steps == 50 && s.out.energy.steps == 5);
    floe_scene_free(&s);

    /* switched-off and explicit outputs */
    CHECK(load_inline("world: {dt: 1}\nrun: {steps: 10}\noutput: {vtk: false, energy: true, progress: {every: 0}}\n",
                      &s) == 0);
    CHECK(s.out.vtk.steps == 0 && s.out.vtk.interval == 0);
    CHECK(s.out.energy.steps == 1);
    CHECK(s.out.progress.steps == 0);
    floe_scene_free(&s);

    /* prescribed motion blocks the group's members; aliases work */
    CHECK(load_inline("run: {steps: 10}\nmaterials: [{name: a}]\n"
                      "groups: [{name: lid, velocity: [0, 0, -1], end: 2}]\n"
                      "particles:\n  - &p {radius: 1, pos: [0, 0, 0], group: lid}\n"
                      "  - {radius: 1, pos: [5, 0, 0]}\n",
                      &s) == 0);
    CHECK(floe_particle_count(s.world) == 2);
    CHECK(floe_particle_blocked(s.world)[0] == FLOE_DOF_ALL);
    CHECK(floe_particle_blocked(s.world)[1] == 0);
    floe_scene_free(&s);

    /* a lattice can be fixed or have blocked DOFs, like a particles entry */
    CHECK(load_inline("run: {steps: 1}\nmaterials: [{name: a}]\n"
                      "generators:\n  - lattice: {spacing: 1, counts: [2, 1, 1], radius: 0.4, fixed: true}\n"
                      "  - lattice: {origin: [0, 5, 0], spacing: 1, counts: [1, 1, 1], radius: 0.4, block: xZ}\n",
                      &s) == 0);
    CHECK(floe_particle_count(s.world) == 3);
    CHECK(floe_particle_blocked(s.world)[0] == FLOE_DOF_ALL && floe_particle_blocked(s.world)[1] == FLOE_DOF_ALL);
    CHECK(floe_particle_blocked(s.world)[2] == (FLOE_DOF_X | FLOE_DOF_RZ));
    floe_scene_free(&s);

    /* lattice jitter reproduces the peer benchmark recipe (seed 0) */
    CHECK(load_inline("run: {steps: 1}\nmaterials: [{name: a, density: 2500}]\n"
                      "generators:\n  - lattice: {origin: [0.0055, 0.0055, 0.0055], spacing: 0.011, counts: [4, 3, 2],"
                      " radius: 0.005, jitter: [0.0004, 0.0004, 0]}\n",
                      &s) == 0);
    CHECK(floe_particle_count(s.world) == 24);
    if (floe_particle_count(s.world) == 24) {
        const floe_vec3 *p = floe_positions(s.world);
        for (int k = 0, id = 0; k < 2; k++)
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 4; i++, id++) {
                    /* independent re-implementation of splitmix64 from bench/README.md */
                    uint64_t u[2];
                    for (int c = 0; c < 2; c++) {
                        uint64_t z = (uint64_t)(2 * id + c) + 0x9E3779B97F4A7C15ULL;
                        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
                        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
                        u[c] = z ^ (z >> 31);
                    }
                    double ux = (double)(u[0] >> 11) * 0x1.0p-53, uy = (double)(u[1] >> 11) * 0x1.0p-53;
                    check_vec(p[id], (i + 0.5) * 0.011 + 0.0004 * (2 * ux - 1),
                              (j + 0.5) * 0.011 + 0.0004 * (2 * uy - 1), (k + 0.5) * 0.011, 1e-15);
                }
    }
    floe_scene_free(&s);
}

/* ---- STL reader -------------------------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *b = malloc(1 << 16);
    *len = b ? fread(b, 1, 1 << 16, f) : 0;
    fclose(f);
    return b;
}

static void test_stl(void) {
    floe_stl a, b;
    char err[512];
    CHECK(floe_stl_read(DATA "ramp_ascii.stl", &a, err, sizeof err) == 0);
    CHECK(floe_stl_read(DATA "ramp_binary.stl", &b, err, sizeof err) == 0); /* header starts with "solid" */
    CHECK(a.n_tri == 2 && !a.binary);
    CHECK(b.n_tri == 2 && b.binary);
    if (a.n_tri == 2 && b.n_tri == 2)
        for (int i = 0; i < 6; i++) check_vec(a.v[i], b.v[i].x, b.v[i].y, b.v[i].z, 0);
    floe_stl_free(&a);

    /* every truncation and some corruption of both files: an error or a
     * mesh, never a crash (run under ASan) */
    static const char *const files[] = {DATA "ramp_ascii.stl", DATA "ramp_binary.stl"};
    for (int f = 0; f < 2; f++) {
        size_t len;
        unsigned char *buf = slurp(files[f], &len);
        CHECK(buf != NULL);
        if (!buf) continue;
        for (size_t n = 0; n < len; n++) {
            floe_stl t;
            int rc = floe_stl_parse("trunc.stl", buf, n, &t, err, sizeof err);
            CHECK(rc != 0 || t.n_tri <= 2);
            CHECK(rc == 0 || (strncmp(err, "trunc.stl:", 10) == 0 && t.v == NULL));
            floe_stl_free(&t);
        }
        uint64_t x = 12345;
        for (int trial = 0; trial < 2000; trial++) {
            unsigned char *m = malloc(len);
            memcpy(m, buf, len);
            for (int k = 0; k < 3; k++) {
                x = floe_splitmix64(x);
                m[x % len] = (unsigned char)(x >> 32);
            }
            floe_stl t;
            if (floe_stl_parse("fuzz.stl", m, len, &t, err, sizeof err) == 0) CHECK(t.n_tri <= 2);
            floe_stl_free(&t);
            free(m);
        }
        free(buf);
    }

    /* binary with a NaN coordinate */
    unsigned char nanbin[134] = {0};
    nanbin[80] = 1;
    memset(nanbin + 84 + 12, 0xff, 4);
    CHECK(floe_stl_parse("nan.stl", nanbin, sizeof nanbin, &a, err, sizeof err) != 0);
    CHECK(strcmp(err, "nan.stl: binary STL triangle 0 (byte offset 96) has a non-finite vertex coordinate") == 0);
    /* ASCII with a bad number and with a quad */
    static const char bad_num[] = "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 nan\n";
    CHECK(floe_stl_parse("n.stl", (const unsigned char *)bad_num, strlen(bad_num), &a, err, sizeof err) != 0);
    CHECK(strcmp(err, "n.stl:5:12: expected a finite decimal number, got 'nan'") == 0);
    static const char quad[] = "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\n"
                               "vertex 0 1 0\nendloop\nendfacet\nendsolid\n";
    CHECK(floe_stl_parse("q.stl", (const unsigned char *)quad, strlen(quad), &a, err, sizeof err) != 0);
    CHECK(strcmp(err, "q.stl:7:1: expected 'endloop', got 'vertex'") == 0);
    /* empty solid: valid, no triangles (the scene loader rejects it) */
    static const char empty[] = "solid e\nendsolid e\n";
    CHECK(floe_stl_parse("e.stl", (const unsigned char *)empty, strlen(empty), &a, err, sizeof err) == 0);
    CHECK(a.n_tri == 0);
    floe_stl_free(&a);
    floe_stl_free(&b);
}

/* ---- generators ------------------------------------------------------------------------ */

static void test_generators(void) {
    char err[512];
    floe_lattice_def ld = {.origin = {1, 2, 3}, .spacing = {0.1, 0.2, 0.3}, .counts = {4, 3, 2}};
    floe_vec3 *p;
    int64_t n;
    CHECK(floe_gen_lattice(&ld, &p, &n, err, sizeof err) == 0);
    CHECK(n == 24);
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 4; i++) check_vec(p[i + 4 * (j + 3 * k)], 1 + 0.1 * i, 2 + 0.2 * j, 3 + 0.3 * k, 1e-15);
    free(p);
    ld.counts[1] = 0;
    CHECK(floe_gen_lattice(&ld, &p, &n, err, sizeof err) == 0 && n == 0 && p == NULL);
    ld.counts[0] = ld.counts[1] = ld.counts[2] = 1000000;
    CHECK(floe_gen_lattice(&ld, &p, &n, err, sizeof err) != 0 && p == NULL);

    /* random packing: non-overlapping, inside, deterministic per seed */
    floe_random_def rd = {
        .lo = {0, 0, 0}, .hi = {0.2, 0.1, 0.1}, .rmin = 0.003, .rmax = 0.006, .count = 1500, .seed = 7};
    floe_vec3 *p1, *p2, *p3;
    double *r1, *r2, *r3;
    int64_t n1, n2, n3;
    CHECK(floe_gen_random(&rd, &p1, &r1, &n1, err, sizeof err) == 0);
    CHECK(floe_gen_random(&rd, &p2, &r2, &n2, err, sizeof err) == 0);
    rd.seed = 8;
    CHECK(floe_gen_random(&rd, &p3, &r3, &n3, err, sizeof err) == 0);
    CHECK(n1 == 1500 && n2 == 1500 && n3 == 1500);
    if (n1 == 1500 && n2 == 1500 && n3 == 1500) {
        CHECK(no_overlap(p1, r1, n1));
        CHECK(no_overlap(p3, r3, n3));
        int inside = 1;
        for (int64_t i = 0; i < n1; i++)
            inside &= p1[i].x - r1[i] >= 0 && p1[i].x + r1[i] <= 0.2 && p1[i].y - r1[i] >= 0 &&
                      p1[i].y + r1[i] <= 0.1 && p1[i].z - r1[i] >= 0 && p1[i].z + r1[i] <= 0.1 && r1[i] >= 0.003 &&
                      r1[i] <= 0.006;
        CHECK(inside);
        CHECK(memcmp(p1, p2, (size_t)n1 * sizeof *p1) == 0 && memcmp(r1, r2, (size_t)n1 * sizeof *r1) == 0);
        CHECK(memcmp(p1, p3, (size_t)n1 * sizeof *p1) != 0);
    }
    free(p1), free(p2), free(p3), free(r1), free(r2), free(r3);

    /* too full: reports how many fitted */
    floe_random_def full = {.lo = {0, 0, 0}, .hi = {0.1, 0.1, 0.1}, .rmin = 0.01, .rmax = 0.01, .count = 1000};
    CHECK(floe_gen_random(&full, &p1, &r1, &n1, err, sizeof err) != 0);
    CHECK(p1 == NULL && r1 == NULL && n1 > 50 && n1 < 1000);
    CHECK(strncmp(err, "box too full: placed only ", 26) == 0);

    /* 100k monodisperse spheres at a volume fraction of 0.25 (timed for the log only) */
    floe_random_def big = {
        .lo = {0, 0, 0}, .hi = {0.8, 0.8, 0.41}, .rmin = 0.005, .rmax = 0.005, .count = 100000, .seed = 1};
    clock_t t0 = clock();
    CHECK(floe_gen_random(&big, &p1, &r1, &n1, err, sizeof err) == 0 && n1 == 100000);
    REPORT("random packing of 100000 spheres: %.3f s CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(p1);
    free(r1);
}

/* ---- robustness: truncated scene files ----------------------------------------------------- */

static void test_truncated_scenes(void) {
    size_t len;
    unsigned char *buf = slurp(DATA "scene_full.yaml", &len);
    CHECK(buf != NULL);
    if (!buf) return;
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/trunc.yaml", tmpdir);
    int ok = 0, bad = 0;
    for (size_t n = 0; n < len; n += 5) {
        FILE *f = fopen(path, "wb");
        fwrite(buf, 1, n, f);
        fclose(f);
        floe_scene s;
        if (floe_scene_load(path, &s, err, sizeof err) == 0) {
            ok++;
            floe_scene_free(&s);
            continue;
        }
        bad++;
        /* every message is "path:line:col: ..." */
        unsigned line = 0, col = 0;
        int m = 0;
        CHECK(strncmp(err, path, strlen(path)) == 0 && sscanf(err + strlen(path), ":%u:%u: %n", &line, &col, &m) == 2 &&
              m > 0 && line >= 1 && col >= 1);
        CHECK(zeroed(&s));
    }
    CHECK(bad > 0);
    REPORT("truncated scenes: %d loaded, %d rejected\n", ok, bad);
    free(buf);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/floe_test_scene_XXXXXX");
    const char *t = getenv("TMPDIR");
    if (t && *t) snprintf(tmpdir, sizeof tmpdir, "%s/floe_test_scene_XXXXXX", t);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_full_scene();
    test_minimal_scene();
    test_bad_files();
    test_inline_errors();
    test_missing_stl();
    test_inline_valid();
    test_stl();
    test_generators();
    test_truncated_scenes();

    static const char *const files[] = {"inline.yaml", "mesh.yaml", "trunc.yaml"};
    for (int i = 0; i < 3; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", tmpdir, files[i]);
        remove(p);
    }
    rmdir(tmpdir);
    return CHECK_DONE();
}
