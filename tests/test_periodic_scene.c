/* The scene's `periodic` section (docs/scene-format.md#periodic): a scene
 * sets the cell, the velocity gradient and the affine start velocities
 * v = L (x - origin) (checked against the formula for every body), the
 * history counters of the cell read them back, and bad values stop the
 * load with file:line:column, the key and the allowed range. The example
 * examples/periodic-shear.yaml run by the command line, stopped with a
 * restart file at step 600 (1 thread) and resumed (2 threads) past a cell
 * flip (strain 0.5, step ~855) to step 1200, writes particles.csv,
 * contacts.csv and history.csv byte for byte as the run that never
 * stopped. Cell phases (docs/periodic.md#phases): the phases of
 * examples/periodic-compress-shear.yaml are read as written, phase 0 is in
 * effect at step 0, and phase 1 (shear at constant sigma_yy) starts at the
 * first state whose cell pressure reaches its trigger (the state before it
 * below), with the phase's gradient and servo from then on; bad phases are
 * refused at their key. */
#include "check.h"
#include "io/scene.h"
#include "proc.h"

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/floe_test_periodic_scene_XXXXXX";

static const char *head = "run: {steps: 10}\n"
                          "world: {gravity: [0, 0, 0], dt: 1e-5}\n"
                          "materials: [{name: a, young: 1e7}]\n";

static void expect_error(const char *body, const char *want, int line) {
    char text[2048], path[512], err[1024];
    snprintf(text, sizeof text, "%s%s", head, body);
    check_write_tmp(tmpdir, "p.yaml", text, path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    CHECK(rc != 0);
    if (rc == 0) floe_scene_free(&s);
    else if (!strstr(err, want)) {
        check_failures++;
        fprintf(stderr, "test_periodic_scene.c:%d: wrong message\n  got:  %s\n  want: ...%s...\n", line, err, want);
    }
}
#define EXPECT_ERROR(body, want) expect_error(body, want, __LINE__)

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* The cell's checks before the run (docs/scene-format.md#checks-before-the-run):
 * `floe check` refuses the scene (status 2) with path:want, and `floe run`
 * refuses it with the same message, creating no output directory. */
static void cli_refuses(const char *body, const char *want, int line) {
    char text[2048], path[512], log[600], out[600];
    snprintf(text, sizeof text, "%s%s", head, body);
    check_write_tmp(tmpdir, "cell.yaml", text, path, sizeof path);
    snprintf(log, sizeof log, "%s/cell.log", tmpdir);
    snprintf(out, sizeof out, "%s/cell_out", tmpdir);
    const char *check[] = {FLOE_CLI, "check", path, NULL};
    const char *run[] = {FLOE_CLI, "run", path, "--out", out, NULL};
    char full[1200];
    snprintf(full, sizeof full, "%s:%s", path, want);
    int rc = run_cli(check, log, 0);
    char *msg = check_slurp(log, NULL);
    if (rc != 2 || !msg || !strstr(msg, full)) {
        check_failures++;
        fprintf(stderr, "test_periodic_scene.c:%d: floe check: status %d, output\n%s  wanted status 2 and\n  %s\n",
                line, rc, msg ? msg : "", full);
    }
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf '%s'", out);
    if (system(rm)) check_failures++;
    rc = run_cli(run, log, 0);
    char *msg_run = check_slurp(log, NULL);
    if (rc != 2 || !msg_run || !msg || strcmp(msg, msg_run) != 0 || exists(out)) {
        check_failures++;
        fprintf(stderr,
                "test_periodic_scene.c:%d: floe run: status %d, output directory %s, output\n%s  wanted status 2, "
                "no output directory and check's message\n",
                line, rc, exists(out) ? "created" : "absent", msg_run ? msg_run : "");
    }
    free(msg);
    free(msg_run);
}
#define CLI_REFUSES(body, want) cli_refuses(body, want, __LINE__)

/* What the run refuses at step 0, refused by the checks before it, at the
 * scene key: a cell narrower than twice the pair search distance, a wall
 * normal to a periodic axis, facets, meshes and infinite cylinders (no
 * images), and spheres overlapping deeply through a face of the cell or
 * at the same place once wrapped into it. The numbers: a sphere of radius
 * 0.03 m has bounding radius 0.03 m and skin 0.1 x 0.03 m (the default
 * skin, -0.1: a tenth of the smallest radius), so the search distance is
 * 2 x 0.03 + 0.003 = 0.063 m and a cell 0.1 m wide is less than twice it.
 * Spheres of radius 0.05 m at x = 0.01 and 0.99 m in a cell [0, 1) are
 * 0.02 m apart through the face: overlap 0.08 m, 160 % of the radius. */
static void test_cell_checks(void) {
    const char *one = "particles: [{pos: [0.05, 0, 0], radius: 0.03, material: a}]\n";
    char body[1024];
    snprintf(body, sizeof body, "periodic: {x: [0, 0.1]}\n%s", one);
    CLI_REFUSES(body, "4:15: periodic.x: periodic cell at step 0: the cell is 0.1 m wide across axis x, less than "
                      "twice the pair search distance 0.063 m (2 x the largest bounding radius of a body or of a "
                      "body an inlet inserts, 0.03 m, + skin 0.003 m): bodies must be smaller than about a quarter of "
                      "the cell; enlarge the cell or use "
                      "smaller bodies");
    /* the bodies an inlet will insert count before they exist: a sphere of
     * radius 0.03 m from an inlet in the same cell (inserted into a cell that
     * small, it would meet its own images through both faces) */
    CLI_REFUSES("periodic: {x: [0, 0.1]}\n"
                "inlets: [{name: in, box: [[0, 0, 0], [0.1, 1, 1]], rate: 10, radius: 0.03, material: a}]\n",
                "4:15: periodic.x: periodic cell at step 0: the cell is 0.1 m wide across axis x, less than twice "
                "the pair search distance 0.063 m (2 x the largest bounding radius of a body or of a body an inlet "
                "inserts, 0.03 m, + skin 0.003 m)");
    /* a wall normal to an axis that is not periodic is no fault of the cell's */
    snprintf(body, sizeof body, "periodic: {x: [0, 0.1]}\n%swalls: [{axis: z, pos: -1}]\n", one);
    CLI_REFUSES(body, "4:15: periodic.x: periodic cell at step 0: the cell is 0.1 m wide across axis x");
    snprintf(body, sizeof body, "periodic: {x: [0, 1]}\n%swalls: [{axis: y}, {axis: x, pos: 0.5}]\n", one);
    CLI_REFUSES(body, "6:20: walls[1]: periodic cell: wall (body 2) is normal to the periodic axis x: a wall would "
                      "cut the cell; make the axis not periodic or remove the wall");
    snprintf(body, sizeof body, "periodic: {x: [0, 1]}\n%sfacets: [{vertices: [[0, 0, 1], [1, 0, 1], [0, 1, 1]]}]\n",
             one);
    CLI_REFUSES(body, "6:10: facets[0]: periodic cell: facet (body 1) cannot be used with a periodic cell (only "
                      "walls normal to an axis that is not periodic can)");
    snprintf(body, sizeof body, "periodic: {y: [0, 1]}\n%smeshes: [{stl: %s/ramp_ascii.stl}]\n", one, FLOE_TEST_DATA);
    CLI_REFUSES(body, "6:10: meshes[0]: periodic cell: facet (body 1) cannot be used with a periodic cell");
    snprintf(body, sizeof body, "periodic: {z: [0, 1]}\n%scylinders: [{axis: x, pos: [0, 0.5, 0.5], radius: 0.1}]\n",
             one);
    CLI_REFUSES(body, "6:13: cylinders[0]: periodic cell: infinite cylinder (body 1) cannot be used with a periodic "
                      "cell");
    /* through the face x = 0 / 1 */
    CLI_REFUSES("periodic: {x: [0, 1]}\n"
                "particles:\n"
                "  - {pos: [0.01, 0, 0], radius: 0.05, material: a}\n"
                "  - {pos: [0.99, 0, 0], radius: 0.05, material: a}\n",
                "7:5: particle 0 (line 6) and particle 1 (line 7) overlap by 0.08 m, 160% of the smaller radius "
                "0.05 m");
    /* x = 1.05 is x = 0.05 in the cell [0, 0.1) (to round-off: 1.05 - 10 x
     * 0.1 is not 0.05 exactly, so the distance is not 0) */
    CLI_REFUSES("periodic: {x: [0, 0.1]}\n"
                "particles:\n"
                "  - {pos: [1.05, 0, 0], radius: 0.01, material: a}\n"
                "  - {pos: [0.05, 0, 0], radius: 0.01, material: a}\n",
                "7:5: particle 0 (line 6) and particle 1 (line 7) overlap by 0.02 m, 200% of the smaller radius "
                "0.01 m");
}

int main(void) {
    if (!mkdtemp(tmpdir)) return 1;
    char text[2048], path[512], err[1024];
    snprintf(text, sizeof text,
             "%s"
             "periodic:\n"
             "  x: [-0.5, 0.5]\n"
             "  y: [0, 2]\n"
             "  velocity_gradient: [[0, 3, 0], [0, 0, 0], [0, 0, 0]]\n"
             "  affine_velocities: true\n"
             "particles:\n"
             "  - {pos: [0.1, 0.5, 0], radius: 0.05, material: a, vel: [1, 0, 0]}\n"
             "  - {pos: [-0.2, 1.5, 0.3], radius: 0.05, material: a}\n",
             head);
    check_write_tmp(tmpdir, "ok.yaml", text, path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc) fprintf(stderr, "%s\n", err);
    else {
        double h[9];
        floe_vec3 o;
        CHECK(floe_world_get_cell(s.world, h, &o) == 3);
        CHECK(h[0] == 1 && h[4] == 2 && h[8] == 1 && h[1] == 0);
        CHECK(o.x == -0.5 && o.y == 0);
        const floe_vec3 *v = floe_velocities(s.world);
        /* v_x += L_xy (y - o_y) = 3 y */
        CHECK_NEAR(v[0].x, 1 + 3 * 0.5, 1e-15);
        CHECK_NEAR(v[1].x, 3 * 1.5, 1e-15);
        CHECK(v[0].y == 0 && v[1].z == 0);
        CHECK(floe_run(s.world, 10) == FLOE_OK);
        double e[9];
        floe_world_cell_strain(s.world, e);
        CHECK_NEAR(e[1], 3 * 10 * 1e-5 * 2 / 2, 1e-15); /* H_xy = 3 t H_yy; strain = H_xy / H_yy */
        CHECK_NEAR(floe_world_cell_volume(s.world), 2, 1e-15);
        floe_scene_free(&s);
    }
    EXPECT_ERROR("periodic: {x: [1, 0]}\n", "p.yaml:4:15: periodic.x: the period [1, 0] m needs lo < hi");
    EXPECT_ERROR("periodic: {x: [0, 1, 2]}\n", "periodic.x: give the period as [lo, hi] in m");
    EXPECT_ERROR("periodic: {affine_velocities: true}\n", "periodic: give the period of at least one axis");
    EXPECT_ERROR("periodic: {x: [0, 1], velocity_gradient: [[0, 1, 0], [0, 0, 0], [0, 0, 0]]}\n",
                 "L[0][1] = 1 1/s (dv_x/dy) needs both x and y periodic");
    EXPECT_ERROR("periodic: {x: [0, 1], velocity_gradient: [[0, 1, 0], [0, 0, 0]]}\n",
                 "periodic.velocity_gradient: give L as 3 rows of 3 numbers");
    EXPECT_ERROR("periodic: {x: [0, 1], veloctiy_gradient: 1}\n", "velocity_gradient");
    /* the servo's message at the value that is wrong, naming it alone */
    EXPECT_ERROR("periodic: {x: [0, 1], servo: {x: {stress: -100, gain: -1e-3}}}\n",
                 "p.yaml:4:55: periodic.servo.x.gain = -1e-3 is out of range (0, 1e+100]");
    EXPECT_ERROR("periodic: {x: [0, 1], servo: {x: {stress: -1e200, gain: 1e-3}}}\n",
                 "p.yaml:4:43: periodic.servo.x.stress = -1e200 is out of range [-1e+100, 1e+100]");
    EXPECT_ERROR("periodic: {x: [0, 1], servo: {x: {stress: -100, gain: 1e-3, max_rate: 2e6}}}\n",
                 "p.yaml:4:71: periodic.servo.x.max_rate = 2e6 is out of range (0, 1000000]");
    /* a servo without a gain: max_rate is its pace from a loose state, so it is required */
    EXPECT_ERROR("periodic: {x: [0, 1], servo: {x: {stress: -100}}}\n",
                 "p.yaml:4:34: periodic.servo.x: give 'max_rate' (1/s): without a fixed 'gain' the axis moves at "
                 "max_rate while the packing is loose");
    EXPECT_ERROR("periodic: {x: [0, 1], servo: {x: {stress: -100, gain: 1e-3, alpha: 0.3}}}\n",
                 "periodic.servo.x.alpha: alpha sets the gain alpha / (K dt); give either 'gain' or 'alpha'");
    EXPECT_ERROR("periodic: {x: [0, 1], servo: {x: {stress: -100, alpha: 1, max_rate: 1}}}\n",
                 "periodic.servo.x.alpha = 1 is out of range (0, 1)");
    EXPECT_ERROR("periodic: {y: [0, 1], servo: {x: {stress: -100, max_rate: 1}}}\n",
                 "periodic.servo.x: x is not a periodic axis of the cell (give periodic.x: [lo, hi])");
    {
        char t2[512], p2[512];
        snprintf(t2, sizeof t2,
                 "run: {steps: 1}\nworld: {dimension: 2, dt: 1e-5}\nmaterials: [{name: a}]\nperiodic: {z: [0, 1]}\n");
        check_write_tmp(tmpdir, "d2.yaml", t2, p2, sizeof p2);
        CHECK(floe_scene_load(p2, &s, err, sizeof err) != 0 && strstr(err, "d2.yaml:4:") &&
              strstr(err, "z cannot be periodic"));
    }
    test_cell_checks();
    /* cell phases: compression, then shear at constant pressure */
    EXPECT_ERROR("periodic: {x: [0, 1], phases: [{}, {velocity_gradient: [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}]}\n",
                 "p.yaml:4:36: periodic.phases[1]: missing 'start' (when the phase begins; only the first phase "
                 "defaults to time 0)");
    EXPECT_ERROR("periodic: {x: [0, 1], y: [0, 1], phases: [{start: {strain: 0.1}}]}\n",
                 "p.yaml:4:51: missing required key 'component' in periodic.phases[0].start");
    EXPECT_ERROR("periodic: {x: [0, 1], y: [0, 1], phases: [{start: {strain: 0.1, component: xw}}]}\n",
                 "periodic.phases[0].start.component: 'xw' is not a strain entry (xx, xy, ..., zz)");
    EXPECT_ERROR("periodic: {x: [0, 1], phases: [{start: {time: 1, step: 2}}]}\n",
                 "periodic.phases[0].start: give one trigger, found 'time' and 'step'");
    EXPECT_ERROR("periodic: {x: [0, 1], phases: [{servo: {y: {stress: -1, max_rate: 1}}}]}\n",
                 "periodic.phases[0].servo.y: y is not a periodic axis of the cell");
    EXPECT_ERROR("periodic: {x: [0, 1], phases: [{velocity_gradient: [[0, 1, 0], [0, 0, 0], [0, 0, 0]]}]}\n",
                 "periodic.phases: floe_world_set_cell_phases: phase 0: velocity_gradient[0][1] = 1 1/s (dv_x/dy) "
                 "needs both x and y periodic");
    EXPECT_ERROR("periodic: {x: [0, 1], velocity_gradient: [[1, 0, 0], [0, 0, 0], [0, 0, 0]], phases: [{}]}\n",
                 "periodic.velocity_gradient: with 'phases' give it in a phase (periodic.phases[0].velocity_gradient), "
                 "not beside them");
    {
        rc = floe_scene_load(FLOE_EXAMPLES "/periodic-compress-shear.yaml", &s, err, sizeof err);
        CHECK(rc == 0);
        if (rc) fprintf(stderr, "%s\n", err);
        else {
            floe_world *w = s.world;
            floe_cell_phase ph[4];
            CHECK(floe_world_cell_phases(w, ph, 4) == 2);
            CHECK(ph[0].trigger == FLOE_CELL_AT_TIME && ph[0].at == 0 && ph[0].servo_axes == 7);
            for (int k = 0; k < 3; k++)
                CHECK(ph[0].servo[k].stress == -1e4 && ph[0].servo[k].max_rate == 5 && ph[0].servo[k].gain == 0 &&
                      ph[0].servo[k].alpha == 0.5);
            CHECK(ph[1].trigger == FLOE_CELL_AT_PRESSURE && ph[1].at == 9.5e3 && ph[1].servo_axes == 2);
            CHECK(ph[1].velocity_gradient[1] == 10 && ph[1].affine == 1);
            floe_set_threads(w, 1);
            CHECK(floe_start(w) == FLOE_OK && floe_world_cell_phase(w) == 0);
            double before = NAN, at = NAN, prev = 0, l[9];
            int step = -1;
            for (int i = 0; i < 3000 && step < 0; i++) {
                CHECK(floe_step(w) == FLOE_OK);
                double sg[9];
                floe_region all = {{0, 0, 0}, {1, 1, 1}, 1};
                floe_stress_tensor(w, &all, sg);
                double p = -(sg[0] + sg[4] + sg[8]) / 3;
                if (floe_world_cell_phase(w) == 1) step = (int)floe_step_count(w), before = prev, at = p;
                prev = p;
            }
            CHECK(floe_step(w) == FLOE_OK);
            floe_world_velocity_gradient(w, l);
            REPORT("periodic-compress-shear.yaml: shear from step %d, cell pressure %.6g Pa there, %.6g Pa the state "
                   "before (trigger 9500 Pa); then L_xy = %g, L_xx = %g, L_zz = %g 1/s\n",
                   step, at, before, l[1], l[0], l[8]);
            CHECK(step > 0 && at >= 9.5e3 && before < 9.5e3);
            CHECK(l[1] == 10 && l[0] == 0 && l[8] == 0);
            floe_scene_free(&s);
        }
    }
    /* restart across wraps and a flip, by the command line */
    {
        char a[600], b[600], log[600];
        snprintf(a, sizeof a, "%s/a", tmpdir);
        snprintf(b, sizeof b, "%s/b", tmpdir);
        snprintf(log, sizeof log, "%s/cli.log", tmpdir);
        const char *scene = FLOE_EXAMPLES "/periodic-shear.yaml";
        const char *straight[] = {FLOE_CLI, "run", scene, "--out", a, "--steps", "1200", "--threads", "1", NULL};
        const char *stop[] = {FLOE_CLI, "run",       scene, "--out",     b,     "--steps",
                              "1200",   "--threads", "1",   "--stop-at", "600", NULL};
        const char *resume[] = {FLOE_CLI, "resume", b, "--threads", "2", NULL};
        CHECK(run_cli(straight, log, 0) == 0);
        CHECK(run_cli(stop, log, 0) == 0);
        CHECK(run_cli(resume, log, 0) == 0);
        const char *files[] = {"particles.csv", "contacts.csv", "history.csv"};
        for (int k = 0; k < 3; k++) {
            char pa[700], pb[700];
            snprintf(pa, sizeof pa, "%s/%s", a, files[k]);
            snprintf(pb, sizeof pb, "%s/%s", b, files[k]);
            size_t la = 0, lb = 0;
            char *ta = check_slurp(pa, &la), *tb = check_slurp(pb, &lb);
            CHECK(ta && tb && la > 0 && la == lb && memcmp(ta, tb, la) == 0);
            free(ta);
            free(tb);
        }
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd)) return 1;
    return check_failures ? 1 : 0;
}
