/* Spheres from a CSV table: a `particles` entry `{file: beads.csv, ...}`
 * (docs/scene-format.md, "Spheres from a file").
 *
 * Valid tables are read back exactly (bit for bit) through the public
 * getters; every bad table or entry must give the exact
 * "file:line:col: message" and leave the scene zeroed. The last part checks
 * the scene loader's own YAML tree (anchors, aliases, libyaml's errors). */
#include "check.h"
#include "io/particle_file.h"
#include "io/scene.h"

#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];

static int zeroed(const floe_scene *s) {
    static const floe_scene zero;
    return memcmp(s, &zero, sizeof zero) == 0;
}

/* Writes len bytes to tmpdir/name; path receives the full name. */
static void write_bytes(const char *name, const char *data, size_t len, char *path, size_t plen) {
    snprintf(path, plen, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fwrite(data, 1, len, f);
    fclose(f);
}

static void write_text(const char *name, const char *text) {
    char path[512];
    write_bytes(name, text, strlen(text), path, sizeof path);
}

/* Loads tmpdir/scene and checks the message: `file` (a name in tmpdir, the
 * scene or the table) followed by ":" and want. */
static void expect_error_at(const char *scene, const char *file, const char *want, int line) {
    floe_scene s;
    char path[512], err[2048], full[2048];
    snprintf(path, sizeof path, "%s/%s", tmpdir, scene);
    snprintf(full, sizeof full, "%s/%s:%s", tmpdir, file, want);
    memset(&s, 0x5a, sizeof s); /* must be zeroed by the loader */
    int rc = floe_scene_load(path, &s, err, sizeof err);
    CHECK(rc != 0);
    CHECK(zeroed(&s));
    if (rc == 0) {
        check_failures++;
        fprintf(stderr, "test_particle_file.c:%d: %s loaded but should fail with\n  %s\n", line, path, full);
        floe_scene_free(&s);
    } else if (strcmp(err, full) != 0) {
        check_failures++;
        fprintf(stderr, "test_particle_file.c:%d: wrong message\n  got:  %s\n  want: %s\n", line, err, full);
    }
}

/* The default scene: two materials, one entry reading beads.csv. */
static const char scene_glass[] = "run: {steps: 1}\n"
                                  "materials: [{name: glass}, {name: steel}]\n"
                                  "particles:\n"
                                  "  - {file: beads.csv, material: glass}\n";

/* An error in beads.csv (text `csv`), read by scene_glass. */
static void csv_error_at(const char *csv, const char *want, int line) {
    write_text("s.yaml", scene_glass);
    write_text("beads.csv", csv);
    expect_error_at("s.yaml", "beads.csv", want, line);
}
#define CSV_ERROR(csv, want) csv_error_at(csv, want, __LINE__)

/* Same with a table holding NUL bytes. */
static void csv_error_bytes_at(const char *csv, size_t len, const char *want, int line) {
    char path[512];
    write_text("s.yaml", scene_glass);
    write_bytes("beads.csv", csv, len, path, sizeof path);
    expect_error_at("s.yaml", "beads.csv", want, line);
}

/* An error in the scene file `yaml` (beads.csv as given, or left as is if NULL). */
static void scene_error_at(const char *yaml, const char *csv, const char *want, int line) {
    write_text("s.yaml", yaml);
    if (csv) write_text("beads.csv", csv);
    expect_error_at("s.yaml", "s.yaml", want, line);
}
#define SCENE_ERROR(yaml, csv, want) scene_error_at(yaml, csv, want, __LINE__)

static int load(const char *name, floe_scene *s) {
    char path[512], err[2048];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    int rc = floe_scene_load(path, s, err, sizeof err);
    if (rc) fprintf(stderr, "unexpected error: %s\n", err);
    return rc;
}

static int same_vec(floe_vec3 a, double x, double y, double z) { return a.x == x && a.y == y && a.z == z; }

/* ---- valid tables --------------------------------------------------------------- */

static void test_full_table(void) {
    write_text("s.yaml", "run: {steps: 1}\n"
                         "materials: [{name: glass, density: 2500}, {name: steel, density: 7800}]\n"
                         "groups: [{name: lid}]\n"
                         "particles:\n"
                         "  - {radius: 0.5, pos: [-1, -1, -1], material: steel}\n"
                         "  - {file: beads.csv, material: glass, group: bed}\n"
                         "  - {radius: 0.25, pos: [9, 9, 9], material: glass}\n");
    /* byte-order mark, CRLF, comments, blank lines, blanks around fields,
     * quoted fields, every column in an unusual order */
    write_text("beads.csv", "\xEF\xBB\xBF# beads for the test\r\n"
                            "\r\n"
                            "x, y ,z,radius,vx,vy,vz,wx,wy,wz,material,group\r\n"
                            "0.30000000000000004,1e-3,-2.5E2,0.125,1,2,3,4,5,6,,\n"
                            "  # an indented comment\n"
                            "\t\n"
                            "0.1,0.2,0.3,\"0.0625\",-1,-2,-3,-4,-5,-6,steel,lid;probe\n"
                            "1e12,-4.9406564584124654e-324,-1e12,1e-30,0,0,0,0,0,0,\"glass\",  lid ; bed ");
    floe_scene s;
    CHECK(load("s.yaml", &s) == 0);
    if (!s.world) return;
    floe_world *w = s.world;
    int glass = floe_find_material(w, "glass"), steel = floe_find_material(w, "steel");
    CHECK(floe_particle_count(w) == 5);
    CHECK(floe_group_count(w) == 3);
    int lid = floe_find_group(w, "lid"), bed = floe_find_group(w, "bed"), probe = floe_find_group(w, "probe");
    CHECK(lid == 0 && bed == 1 && probe == 2); /* declared, then in order of first use */
    if (floe_particle_count(w) != 5 || floe_group_count(w) != 3) {
        floe_scene_free(&s);
        return;
    }
    const floe_vec3 *x = floe_positions(w), *v = floe_velocities(w), *av = floe_angular_velocities(w);
    const double *r = floe_radii(w);
    const int *m = floe_particle_materials(w);
    const uint32_t *g = floe_particle_groups(w);
    for (int i = 0; i < 5; i++) CHECK(floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE);
    /* ids: the entries in list order, the table's rows in file order */
    CHECK(same_vec(x[0], -1, -1, -1) && r[0] == 0.5 && m[0] == steel);
    CHECK(same_vec(x[1], 0.1 + 0.2, 1e-3, -250) && r[1] == 0.125);
    CHECK(same_vec(v[1], 1, 2, 3) && same_vec(av[1], 4, 5, 6));
    CHECK(m[1] == glass && g[1] == 1u << bed); /* empty fields: the entry's material and group */
    CHECK(same_vec(x[2], 0.1, 0.2, 0.3) && r[2] == 0.0625);
    CHECK(same_vec(v[2], -1, -2, -3) && same_vec(av[2], -4, -5, -6));
    CHECK(m[2] == steel && g[2] == (1u << lid | 1u << probe)); /* the row's group replaces the entry's */
    CHECK(same_vec(x[3], 1e12, -4.9406564584124654e-324, -1e12) && r[3] == 1e-30); /* the coordinate limit */
    CHECK(m[3] == glass && g[3] == (1u << lid | 1u << bed));
    CHECK(same_vec(x[4], 9, 9, 9) && r[4] == 0.25 && m[4] == glass);
    floe_scene_free(&s);

    /* a doubled quote in a quoted field is a quote */
    write_text("beads.csv", "x,y,z,radius,material\n1,2,3,4,\"st\"\"eel\"\n");
    expect_error_at("s.yaml", "beads.csv", "2:9: material: unknown material 'st\"eel'; did you mean 'steel'?",
                    __LINE__);
    /* blanks around fields; the decimal number forms */
    write_text("beads.csv", "x,y,z,radius,vx,vy,vz\n  7 ,8,9 ,  2 ,.5,+1,16.\n");
    CHECK(load("s.yaml", &s) == 0);
    if (s.world) {
        CHECK(floe_particle_count(s.world) == 3);
        CHECK(same_vec(floe_positions(s.world)[1], 7, 8, 9) && floe_radii(s.world)[1] == 2);
        CHECK(same_vec(floe_velocities(s.world)[1], 0.5, 1, 16));
        CHECK(floe_particle_groups(s.world)[1] == 1u << 1); /* the entry's group */
        floe_scene_free(&s);
    }
}

static void test_entry_defaults(void) {
    char path[512], yaml[1024];
    snprintf(path, sizeof path, "%s/sub", tmpdir);
    mkdir(path, 0700);
    write_text("sub/b.csv", "x,y,z,radius\n1,2,3,0.5\n4,5,6,0.25\n");
    /* one material: no material key needed; the entry's keys apply to every row;
     * relative paths are relative to the scene file's directory */
    write_text("s.yaml", "run: {steps: 1}\nmaterials: [{name: only}]\nparticles:\n"
                         "  - {file: sub/b.csv, vel: [1, 2, 3], angvel: [0, 0, 1], ori: [0, 0, 0, 2], block: xZ}\n");
    floe_scene s;
    CHECK(load("s.yaml", &s) == 0);
    if (s.world) {
        floe_world *w = s.world;
        CHECK(floe_particle_count(w) == 2);
        for (int i = 0; i < 2 && floe_particle_count(w) == 2; i++) {
            CHECK(same_vec(floe_velocities(w)[i], 1, 2, 3));
            CHECK(same_vec(floe_angular_velocities(w)[i], 0, 0, 1));
            floe_quat q = floe_orientations(w)[i];
            CHECK(q.w == 0 && q.x == 0 && q.y == 0 && q.z == 1);
            CHECK(floe_particle_blocked(w)[i] == (FLOE_DOF_X | FLOE_DOF_RZ));
            CHECK(floe_particle_materials(w)[i] == 0);
        }
        CHECK(same_vec(floe_positions(w)[1], 4, 5, 6) && floe_radii(w)[1] == 0.25);
        floe_scene_free(&s);
    }
    /* absolute path, fixed; a table with a header only adds nothing */
    snprintf(yaml, sizeof yaml,
             "run: {steps: 1}\nmaterials: [{name: only}]\nparticles:\n"
             "  - {file: %s/sub/b.csv, fixed: true}\n  - {file: empty.csv}\n",
             tmpdir);
    write_text("s.yaml", yaml);
    write_text("empty.csv", "# nothing yet\nx,y,z,radius\n\n");
    CHECK(load("s.yaml", &s) == 0);
    if (s.world) {
        CHECK(floe_particle_count(s.world) == 2);
        CHECK(floe_particle_blocked(s.world)[0] == FLOE_DOF_ALL);
        floe_scene_free(&s);
    }
    /* an alias repeats the entry: the table is read again, new ids */
    write_text("s.yaml", "run: {steps: 0}  # no step: the repeated spheres may coincide\nmaterials: [{name: only}]\n"
                         "particles:\n  - &t {file: sub/b.csv}\n  - {radius: 1, pos: [0, 0, 0]}\n  - *t\n");
    CHECK(load("s.yaml", &s) == 0);
    if (s.world) {
        CHECK(floe_particle_count(s.world) == 5);
        if (floe_particle_count(s.world) == 5)
            CHECK(same_vec(floe_positions(s.world)[4], 4, 5, 6) && same_vec(floe_positions(s.world)[2], 0, 0, 0));
        floe_scene_free(&s);
    }
}

/* A long table is streamed; the memory guard counts its rows. */
static void test_long_table(void) {
    enum { N = 30000 };
    char path[512];
    snprintf(path, sizeof path, "%s/beads.csv", tmpdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fprintf(f, "x,y,z,radius,material\n");
    for (int i = 0; i < N; i++)
        fprintf(f, "%.17g,%.17g,%.17g,%.17g,%s\n", i / 7.0, -i / 3.0, 1e-3 * i, 0.01 + i / 1e7,
                i % 3 ? "glass" : "steel");
    fclose(f);
    write_text("s.yaml", scene_glass);
    floe_scene s;
    CHECK(load("s.yaml", &s) == 0);
    if (s.world) {
        CHECK(floe_particle_count(s.world) == N);
        const floe_vec3 *x = floe_positions(s.world);
        const double *r = floe_radii(s.world);
        const int *m = floe_particle_materials(s.world);
        int bad = 0;
        for (int i = 0; i < N && floe_particle_count(s.world) == N; i++)
            bad += !same_vec(x[i], i / 7.0, -i / 3.0, 1e-3 * i) || r[i] != 0.01 + i / 1e7 || m[i] != (i % 3 ? 0 : 1);
        CHECK(bad == 0);
        floe_scene_free(&s);
    }
    char err[1024], want[1024];
    snprintf(path, sizeof path, "%s/s.yaml", tmpdir);
    CHECK(floe_scene_load_limited(path, 400.0 * 1000, &s, err, sizeof err) != 0 && zeroed(&s));
    snprintf(want, sizeof want, "%s:4:5: particles[0]: the scene would hold 1001 particles", path);
    if (strncmp(err, want, strlen(want))) {
        check_failures++;
        fprintf(stderr, "memory guard: got %s\n  want %s...\n", err, want);
    }
}

/* ---- errors in the table ---------------------------------------------------------- */

static void test_table_errors(void) {
    /* header */
    CSV_ERROR("", "1:1: no header row (the file is empty or holds only comments); the first line must name the "
                  "columns, e.g. x,y,z,radius");
    CSV_ERROR("# only a comment\n\n", "1:1: no header row (the file is empty or holds only comments); the first line "
                                      "must name the columns, e.g. x,y,z,radius");
    CSV_ERROR("x,y,z,radus\n", "1:7: unknown column 'radus'; did you mean 'radius'?");
    CSV_ERROR("x,y,z,radius,groups\n", "1:14: unknown column 'groups'; did you mean 'group'?");
    CSV_ERROR("x,y,z,radius,colour\n", "1:14: unknown column 'colour'; known columns: x, y, z, radius, vx, vy, vz, wx, "
                                       "wy, wz, material, group");
    CSV_ERROR("0.1,0.2,0.3,0.5\n", "1:1: expected a header row naming the columns (e.g. x,y,z,radius), got the number "
                                   "'0.1'");
    CSV_ERROR("x,y,x,radius\n", "1:5: duplicate column 'x' (first given at column 1)");
    CSV_ERROR("x,,z,radius\n", "1:3: empty column name in the header");
    CSV_ERROR("x,y,z,radius,\n1,2,3,4,\n", "1:14: empty column name in the header");
    CSV_ERROR("# positions only\nx,y,z\n1,2,3\n", "2:1: missing required column 'radius' in the header (x, y, z and "
                                                  "radius are required)");
    CSV_ERROR("x,y,z,radius,vx,vy\n", "1:14: columns vx, vy, vz go together: 'vz' is missing");
    CSV_ERROR("x,y,z,radius,wz,wy\n", "1:17: columns wx, wy, wz go together: 'wx' is missing");
    CSV_ERROR("\xEF\xBB\xBFx,y,z,radus\r\n", "1:7: unknown column 'radus'; did you mean 'radius'?");

    /* fields */
    CSV_ERROR("x,y,z,radius\n1,2,3\n", "2:6: too few fields: 3 of 4, no value for column 'radius'");
    CSV_ERROR("x,y,z,radius\n1,2,3,4,5\n", "2:9: too many fields: the header has 4 columns (x, y, z, radius)");
    CSV_ERROR("x,y,z,radius\n1,2,3,4,\n", "2:9: too many fields: the header has 4 columns (x, y, z, radius)");
    CSV_ERROR("x,y,z,radius\n1,2,\"3,4\n", "2:5: unterminated quoted field (a quoted field must end on the same line)");
    CSV_ERROR("x,y,z,radius\n1,2,3\"x\",4\n", "2:6: quote inside an unquoted field (quote the whole field: \"...\")");
    CSV_ERROR("x,y,z,radius\n1,2,\"3\" x,4\n", "2:9: unexpected text after the closing quote of a field");
    csv_error_bytes_at("x,y,z,radius\n1,2\0,3,4\n", 22, "2:4: NUL byte in the line (not a text table?)", __LINE__);
    {
        size_t n = 13 + 70000 + 1;
        char *big = malloc(n + 1);
        memcpy(big, "x,y,z,radius\n", 13);
        memset(big + 13, '1', 70000);
        big[n - 1] = '\n';
        big[n] = 0;
        CSV_ERROR(big, "2:1: line longer than 65536 bytes (not a text table?)");
        free(big);
    }

    /* numbers: finite, radius > 0 */
    CSV_ERROR("x,y,z,radius\n1,abc,3,4\n", "2:3: y: expected a number, got 'abc'");
    CSV_ERROR("x,y,z,radius\n1,,3,4\n", "2:3: y: expected a number, got nothing");
    CSV_ERROR("x,y,z,radius\n1,2,nan,4\n", "2:5: z: NaN is not allowed");
    CSV_ERROR("x,y,z,radius\n1,2,.nan,4\n", "2:5: z: NaN is not allowed");
    CSV_ERROR("x,y,z,radius\ninf,2,3,4\n", "2:1: x = inf is out of range [-1e+12, 1e+12]");
    CSV_ERROR("x,y,z,radius\n1,-.inf,3,4\n", "2:3: y = -.inf is out of range [-1e+12, 1e+12]");
    CSV_ERROR("x,y,z,radius\n1,2,3,1e400\n", "2:7: radius: expected a number, got '1e400'");
    CSV_ERROR("x,y,z,radius\n1,2,3,0\n", "2:7: radius = 0 is out of range (0, 1e+12]");
    CSV_ERROR("x,y,z,radius\n1,2,3,-1e-3\n", "2:7: radius = -1e-3 is out of range (0, 1e+12]");
    CSV_ERROR("x,y,z,radius\n1,2,3,.inf\n", "2:7: radius = .inf is out of range (0, 1e+12]");
    CSV_ERROR("x,y,z,radius,vx,vy,vz\n1,2,3,4,0,1 2,0\n", "2:11: vy: expected a number, got '1 2'");
    CSV_ERROR("x,y,z,radius,wx,wy,wz\n1,2,3,4,0,0,-INF\n", "2:13: wz = -INF is out of range (-inf, inf)");
    /* lines are counted with comments, blank lines and CRLF; columns in characters */
    CSV_ERROR("# c\r\n\r\nx,y,z,radius\r\n1,2,3,4\r\n\r\n1,2,3,-4\r\n", "6:7: radius = -4 is out of range (0, 1e+12]");
    CSV_ERROR("material,x,y,z,radius\n\"\xC3\xBC\",1,2,3,-4\n", "2:11: radius = -4 is out of range (0, 1e+12]");

    /* names */
    CSV_ERROR("x,y,z,radius,material\n# c\n1,2,3,4,glas\n", "3:9: material: unknown material 'glas'; did you mean "
                                                            "'glass'?");
    CSV_ERROR("x,y,z,radius,material\n1,2,3,4,glass\n1,2,3,4,wood\n", "3:9: material: unknown material 'wood'; known "
                                                                      "materials: glass, steel");
    CSV_ERROR("x,y,z,radius,group\n1,2,3,4,a;;b\n", "2:9: group: empty group name in 'a;;b' (names are separated by "
                                                    "';')");
    {
        char csv[4096] = "x,y,z,radius,group\n";
        for (int g = 0; g <= FLOE_MAX_GROUPS; g++) {
            size_t k = strlen(csv);
            snprintf(csv + k, sizeof csv - k, "1,2,3,4,g%d\n", g);
        }
        CSV_ERROR(csv, "34:9: group: 'g32': at most 32 groups");
    }
}

/* ---- errors in the scene entry ------------------------------------------------------ */

static void test_entry_errors(void) {
    static const char head[] = "run: {steps: 1}\nmaterials: [{name: glass}, {name: steel}]\nparticles:\n";
    char yaml[1024], want[1024];
#define ENTRY(e) (snprintf(yaml, sizeof yaml, "%s%s", head, e), yaml)
    static const char ok_csv[] = "x,y,z,radius\n1,2,3,4\n";

    /* a missing file: the position of the file name and the system's reason */
    snprintf(want, sizeof want, "4:12: particles[0].file: %s/nowhere.csv: cannot open: No such file or directory",
             tmpdir);
    SCENE_ERROR(ENTRY("  - {file: nowhere.csv, material: glass}\n"), NULL, want);
    snprintf(want, sizeof want, "5:12: particles[1].file: %s/.: cannot open: it is a directory, not a regular file",
             tmpdir);
    SCENE_ERROR(ENTRY("  - {radius: 1, pos: [0, 0, 0], material: steel}\n  - {file: ., material: glass}\n"), NULL,
                want);

    SCENE_ERROR(ENTRY("  - {file: beads.csv, material: glass, radius: 1}\n"), ok_csv,
                "4:48: particles[0].radius: not used with 'file' (the radius of each sphere is in the file's radius "
                "column)");
    SCENE_ERROR(ENTRY("  - {file: beads.csv, pos: [0, 0, 0]}\n"), ok_csv,
                "4:28: particles[0].pos: not used with 'file' (the positions are in the file's x, y, z columns)");
    SCENE_ERROR(ENTRY("  - {file: beads.csv, materail: glass}\n"), ok_csv,
                "4:23: unknown key 'materail' in particles[0]; did you mean 'material'?");
    SCENE_ERROR(ENTRY("  - {fiel: beads.csv, material: glass}\n"), ok_csv,
                "4:6: unknown key 'fiel' in particles[0]; did you mean 'file'?");
    SCENE_ERROR(ENTRY("  - {file: [beads.csv], material: glass}\n"), ok_csv,
                "4:12: particles[0].file: expected a name (text), got a list");
    /* the entry's own keys are checked before the file is read */
    SCENE_ERROR(ENTRY("  - {file: nowhere.csv, material: glas}\n"), NULL,
                "4:35: particles[0].material: unknown material 'glas'; did you mean 'glass'?");
    SCENE_ERROR(ENTRY("  - {file: nowhere.csv, material: glass, vel: [1, 2]}\n"), NULL,
                "4:47: particles[0].vel: expected a list of 3 numbers [x, y, z], got a list of 2");
    /* which material: the entry's, else a material column */
    SCENE_ERROR(ENTRY("  - {file: beads.csv}\n"), ok_csv,
                "4:5: missing required key 'material' in particles[0] (required when more than one material is "
                "declared)");
    write_text("s.yaml", ENTRY("  - {file: beads.csv}\n"));
    write_text("beads.csv", "x,y,z,radius,material\n1,2,3,4,steel\n1,2,3,4,\n");
    expect_error_at("s.yaml", "beads.csv",
                    "3:9: material: the field is empty and particles[0] has no 'material' key "
                    "(required when more than one material is declared)",
                    __LINE__);
#undef ENTRY
}

/* ---- the reader on its own ------------------------------------------------------------ */

static void test_reader(void) {
    char path[512], err[1024];
    static const char csv[] = "x,y,z,radius,group\n1,2,3,4,a;b\n5,6,7,8,\n";
    write_bytes("r.csv", csv, strlen(csv), path, sizeof path);
    int os = -1;
    floe_pfile *f = floe_pfile_open(path, &os, err, sizeof err);
    CHECK(f && os == 0);
    if (!f) return;
    CHECK(floe_pfile_has(f, PF_GROUP) && !floe_pfile_has(f, PF_MATERIAL) && !floe_pfile_has(f, PF_VX));
    pf_row row;
    CHECK(floe_pfile_next(f, &row, err, sizeof err) == 1);
    CHECK(row.line == 2 && row.v[PF_X] == 1 && row.v[PF_RADIUS] == 4 && !strcmp(row.group, "a;b"));
    CHECK(!strcmp(row.material, "") && row.v[PF_VX] == 0);
    /* errors about a field of the last row */
    floe_pfile_error(f, PF_GROUP, err, sizeof err, "group: %s", "bad");
    char want[1024];
    snprintf(want, sizeof want, "%s:2:9: group: bad", path);
    CHECK(!strcmp(err, want));
    CHECK(floe_pfile_next(f, &row, err, sizeof err) == 1);
    CHECK(row.line == 3 && row.v[PF_Z] == 7 && !strcmp(row.group, ""));
    CHECK(floe_pfile_next(f, &row, err, sizeof err) == 0);
    CHECK(floe_pfile_rows(f) == 2);
    floe_pfile_close(f);
    snprintf(path, sizeof path, "%s/none.csv", tmpdir);
    CHECK(floe_pfile_open(path, &os, err, sizeof err) == NULL);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    CHECK(os != 0 && !strcmp(err, want));
    remove(path);
}

/* ---- the loader's YAML tree ----------------------------------------------------------- */

/* The loader builds its own compact tree from libyaml's events; it must read
 * what libyaml's document loader read, with the same messages. */
static void test_yaml_tree(void) {
    floe_scene s;
    write_text("s.yaml", "run: &r {steps: 0}\nmaterials: [&m {name: a, density: 2000}]\n"
                         "particles:\n  - &p {radius: 1, pos: &o [0, 0, 0]}\n  - {radius: 2, pos: *o}\n  - *p\n");
    CHECK(load("s.yaml", &s) == 0);
    if (s.world) {
        CHECK(s.steps == 0 && floe_particle_count(s.world) == 3); /* no step: the spheres may coincide */
        CHECK(floe_radii(s.world)[1] == 2 && floe_radii(s.world)[2] == 1);
        floe_scene_free(&s);
    }
    SCENE_ERROR("run: {steps: 1}\nmaterials: [{name: &a a}, {name: &a b}]\n", NULL,
                "2:34: YAML syntax error: second occurrence (found duplicate anchor; first occurrence at line 2, "
                "column 20)");
    SCENE_ERROR("run: {steps: *nope}\n", NULL, "1:14: YAML syntax error: found undefined alias");
    SCENE_ERROR("run: {steps: 1}\n---\nrun: [\n", NULL,
                "4:1: YAML syntax error: did not find expected node content (while parsing a flow node at line 4, "
                "column 1)");
    SCENE_ERROR("run: {steps: 1}\n...\n---\n", NULL, "4:1: a scene file holds one YAML document; found a second one");
    SCENE_ERROR("run: {steps: 1}\n\"ke\\u0000y\": 1\n", NULL, "2:1: keys must be plain names at the top level");
    SCENE_ERROR("run: {steps: 1}\nworld: {gravity: [0, 0, \xff]}\n", NULL,
                "2:25: YAML error: invalid leading UTF-8 octet");
    write_text("s.yaml", "\xEF\xBB\xBF%YAML 1.1\n--- !!map\nworld: {dt: 1}\nrun: {steps: !!int 7}\n...\n");
    CHECK(load("s.yaml", &s) == 0);
    CHECK(s.steps == 7);
    floe_scene_free(&s);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/floe_test_pfile_XXXXXX");
    const char *t = getenv("TMPDIR");
    if (t && *t) snprintf(tmpdir, sizeof tmpdir, "%s/floe_test_pfile_XXXXXX", t);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_full_table();
    test_entry_defaults();
    test_long_table();
    test_table_errors();
    test_entry_errors();
    test_reader();
    test_yaml_tree();

    static const char *const files[] = {"s.yaml", "beads.csv", "empty.csv", "r.csv", "sub/b.csv", "sub"};
    for (int i = 0; i < (int)(sizeof files / sizeof *files); i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", tmpdir, files[i]);
        remove(p);
    }
    rmdir(tmpdir);
    return CHECK_DONE();
}
