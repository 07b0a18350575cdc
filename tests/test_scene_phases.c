/* Scene keys of phased motion (docs/scene-format.md#groups): groups[].phases
 * and groups[].load read into floe_phase records (checked field by field
 * against the file), the errors with file:line:column naming the key, the
 * allowed range and the likely cause, a body in two motion-controlled
 * groups refused naming both, and examples/servo-phases.yaml: the servo
 * lid holds its target (history quantities servo.* and phase through
 * floe_group_servo / floe_group_phase). */
#include "check.h"
#include "io/scene.h"
#include "proc.h"
#include <stdlib.h>
#include <unistd.h>

static char tmpdir[256];

static const char *head = "run: {steps: 1}\n"
                          "materials: [{name: m, model: linear, density: 1000, young: 1e7}]\n";

static char *scene_text(const char *rest) {
    static char buf[8192];
    snprintf(buf, sizeof buf, "%s%s", head, rest);
    return buf;
}

/* The load of head + rest fails with path:want. */
static void error_at(const char *rest, const char *want, int line) {
    char path[512], err[1024], full[2048];
    check_write_tmp(tmpdir, "phases.yaml", scene_text(rest), path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK(rc != 0);
    if (rc == 0) {
        fprintf(stderr, "test_scene_phases.c:%d: loaded but should fail with\n  %s\n", line, full);
        floe_scene_free(&s);
    } else if (strcmp(err, full) != 0) {
        check_failures++;
        fprintf(stderr, "test_scene_phases.c:%d: wrong message\n  got:  %s\n  want: %s\n", line, err, full);
    }
}
#define ERROR_AT(rest, want) error_at(rest, want, __LINE__)

static void test_valid(void) {
    char path[512], err[1024];
    check_write_tmp(tmpdir, "phases.yaml",
                    scene_text("groups:\n"
                               "  - name: lid\n"
                               "    phases:\n"
                               "      - {kind: servo, direction: [0, 0, -2], stress: 2e3, area: 1.6e-3, alpha: 0.25,"
                               " max_speed: 0.1}\n"
                               "      - {kind: velocity, start: {force_drop: 0.5, direction: [0, 0, 3]},"
                               " velocity: [0, 0, 0.05], angular_velocity: [0, 1, 0]}\n"
                               "      - {kind: rotate, start: {step: 40}, axis: [0, 3, 4], rate: 2, point: [1, 2, 3]}\n"
                               "      - {kind: load, start: {displacement: -0.01}, force: [1, 0, 0], torque_rate:"
                               " [0, 0, 2]}\n"
                               "      - {kind: free, start: {time: 0.5}}\n"
                               "      - {kind: servo, start: {force_above: 7}, direction: [1, 0, 0], force: 3,"
                               " gain: 1e-3}\n"
                               "  - {name: probe, load: {force_rate: [0.5, 0, 0], torque: [0, 1, 0]}}\n"
                               "walls: [{axis: z, pos: 0.1, sense: -1, group: lid}]\n"
                               "particles: [{pos: [0, 0, 0], radius: 0.01, group: probe}]\n"),
                    path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    if (rc) fprintf(stderr, "unexpected error: %s\n", err);
    CHECK(rc == 0);
    if (rc) return;
    floe_world *w = s.world;
    floe_phase p[8];
    int g = floe_find_group(w, "lid");
    CHECK(floe_group_phases(w, g, p, 8) == 6);
    CHECK(p[0].kind == FLOE_PHASE_SERVO && p[0].trigger == FLOE_AT_TIME && p[0].at == 0);
    CHECK(p[0].servo_dir.z == -1 && p[0].target == 2e3 && p[0].area == 1.6e-3 && p[0].alpha == 0.25);
    CHECK(p[0].max_speed == 0.1 && p[0].gain == 0);
    CHECK(p[1].kind == FLOE_PHASE_VELOCITY && p[1].trigger == FLOE_AT_FORCE_DROP && p[1].at == 0.5);
    CHECK(p[1].measure_dir.z == 1 && p[1].vel.z == 0.05 && p[1].angvel.y == 1);
    CHECK(p[2].kind == FLOE_PHASE_ROTATE && p[2].trigger == FLOE_AT_STEP && p[2].at == 40);
    CHECK_NEAR(p[2].angvel.y, 2 * 0.6, 1e-15); /* the unit axis (0, 0.6, 0.8) times the rate */
    CHECK_NEAR(p[2].angvel.z, 2 * 0.8, 1e-15);
    CHECK(p[2].point.x == 1 && p[2].point.y == 2 && p[2].point.z == 3);
    CHECK(p[3].kind == FLOE_PHASE_LOAD && p[3].trigger == FLOE_AT_DISPLACEMENT && p[3].at == -0.01);
    CHECK(p[3].force.x == 1 && p[3].torque_rate.z == 2);
    CHECK(p[4].kind == FLOE_PHASE_FREE && p[4].trigger == FLOE_AT_TIME && p[4].at == 0.5);
    CHECK(p[5].trigger == FLOE_AT_FORCE_ABOVE && p[5].at == 7 && p[5].target == 3 && p[5].area == 0);
    CHECK(p[5].gain == 1e-3);
    g = floe_find_group(w, "probe");
    CHECK(floe_group_phases(w, g, p, 8) == 1);
    CHECK(p[0].kind == FLOE_PHASE_LOAD && p[0].force_rate.x == 0.5 && p[0].torque.y == 1);
    floe_scene_free(&s);
}

static void test_errors(void) {
    const char *walls = "walls: [{axis: z, pos: 0.1, sense: -1, group: [a, b]}]\n";
    char text[2048];
    /* a body in two motion-controlled groups: at the second group's entry */
    snprintf(text, sizeof text,
             "groups:\n  - {name: a, velocity: [0, 0, 1]}\n  - name: b\n    phases: [{kind: free}]\n%s", walls);
    ERROR_AT(text, "5:5: groups: floe_group_set_phases: particle 0 is in group 'a' and in group 'b', both "
                   "motion-controlled (a prescribed motion or phases); a body follows one group's motion: take it "
                   "out of one of them");
    /* a load-only group combines with a motion */
    snprintf(
        text, sizeof text,
        "world: {dt: 1e-5}\ngroups:\n  - {name: a, velocity: [0, 0, 1]}\n  - {name: b, load: {force: [1, 0, 0]}}\n%s",
        walls);
    char path[512], err[1024];
    floe_scene s;
    check_write_tmp(tmpdir, "phases.yaml", scene_text(text), path, sizeof path);
    int rc = floe_scene_load(path, &s, err, sizeof err);
    if (rc) fprintf(stderr, "unexpected error: %s\n", err);
    CHECK(rc == 0);
    if (rc == 0) floe_scene_free(&s);

    ERROR_AT("groups: [{name: a, phases: [{kind: spin}]}]\n",
             "3:36: groups[0].phases[0].kind: unknown kind 'spin'; allowed: free, velocity, rotate, servo, load");
    ERROR_AT("groups: [{name: a, phases: [{kind: velocity, rate: 2}]}]\n",
             "3:52: groups[0].phases[0].rate: a velocity phase does not take it (it takes: kind, start, velocity, "
             "angular_velocity)");
    ERROR_AT("groups: [{name: a, phases: [{kind: free}, {kind: free}]}]\n",
             "3:43: groups[0].phases[1]: missing 'start' (when the phase begins; only the first phase defaults to "
             "time 0)");
    ERROR_AT("groups: [{name: a, phases: [{kind: free, start: {time: 1, step: 2}}]}]\n",
             "3:65: groups[0].phases[0].start: give one trigger, found 'time' and 'step'");
    ERROR_AT("groups: [{name: a, phases: [{kind: free, start: {force_drop: 1.5}}]}]\n",
             "3:62: groups[0].phases[0].start.force_drop = 1.5 is out of range (0, 1)");
    ERROR_AT("groups: [{name: a, phases: [{kind: free, start: {time: 1, direction: [0, 0, 1]}}]}]\n",
             "3:70: groups[0].phases[0].start.direction: only force and displacement triggers take one");
    ERROR_AT("groups: [{name: a, phases: [{kind: servo, direction: [0, 0, 1], force: 1, stress: 2}]}]\n",
             "3:29: groups[0].phases[0]: give the target as either 'force' (N) or 'stress' (Pa, with 'area')");
    ERROR_AT("groups: [{name: a, phases: [{kind: servo, direction: [0, 0, 1], stress: 2}]}]\n",
             "3:29: groups[0].phases[0]: a stress target needs 'area' (m^2)");
    ERROR_AT("groups: [{name: a, phases: [{kind: servo, direction: [0, 0, 0], force: 1}]}]\n",
             "3:54: groups[0].phases[0].direction: (0, 0, 0) has no direction; give the one the group presses in");
    ERROR_AT("groups: [{name: a, phases: [{kind: servo, direction: [0, 0, 1], force: 1, alpha: 1}]}]\n",
             "3:82: groups[0].phases[0].alpha = 1 is out of range (0, 1)");
    ERROR_AT("groups: [{name: a, phases: [{kind: rotate, axis: [0, 0, 1]}]}]\n",
             "3:29: missing required key 'rate' in groups[0].phases[0]");
    ERROR_AT("groups: [{name: a, phases: [{kind: rotate, axis: [0, 0, 0], rate: 1}]}]\n",
             "3:50: groups[0].phases[0].axis: (0, 0, 0) has no direction");
    ERROR_AT("groups: [{name: a, load: {force: [1, 0, 0]}, phases: [{kind: free}]}]\n",
             "3:26: groups[0].load: give the load as a phase of 'phases' ({kind: load, ...}), not both");
    ERROR_AT("groups: [{name: a, velocity: [1, 0, 0], phases: [{kind: free}]}]\n",
             "3:30: groups[0]: give either phases/load or velocity, angular_velocity, start, end (the one-phase "
             "shorthand), not both");
    ERROR_AT("groups: [{name: a, phases: []}]\n", "3:28: groups[0].phases: the list is empty");
    /* a force trigger's direction is one, as a servo's is */
    ERROR_AT("groups: [{name: a, phases: [{kind: free, start: {force_above: 1, direction: [0, 0, 0]}}]}]\n",
             "3:77: groups[0].phases[0].start.direction: (0, 0, 0) has no direction; give the one the force or "
             "displacement is measured along, or leave it out (the magnitude)");
    /* a stress servo's area, with its range (0 would make the stress a force) */
    ERROR_AT("groups: [{name: a, phases: [{kind: servo, direction: [0, 0, -1], stress: 1e3, area: 0}]}]\n",
             "3:85: groups[0].phases[0].area = 0 is out of range (0, 1e+100]");
    ERROR_AT("groups: [{name: a, phases: [{kind: servo, direction: [0, 0, -1], stress: 1e3, area: 1e300}]}]\n",
             "3:85: groups[0].phases[0].area = 1e+300 is out of range (0, 1e+100]");
    /* vectors beyond the engine's bound, at the key */
    ERROR_AT("groups: [{name: a, phases: [{kind: load, force: [0, 0, 1e200]}]}]\n",
             "3:49: groups[0].phases[0].force: (0, 0, 1e+200) is out of range: each component in [-1e+100, "
             "1e+100]");
}

/* Directions are taken at any finite, non-zero length and normalised (by
 * the largest component first): a rotation axis whose length overflows
 * (|(1e200, 1e200, 0)| = 1.4e200 squared is beyond 1e308) and a servo
 * direction whose square underflows (1e-400) give the unit vectors
 * (1, 1, 0) / sqrt(2) (angvel: that times the rate 2 rad/s, to 1e-15) and
 * (0, 0, -1) exactly; the API takes a servo_dir of that size alike. */
static void test_directions(void) {
    char path[512], err[1024];
    check_write_tmp(tmpdir, "phases.yaml",
                    scene_text("groups:\n"
                               "  - name: lid\n"
                               "    phases:\n"
                               "      - {kind: rotate, axis: [1e200, 1e200, 0], rate: 2}\n"
                               "      - {kind: servo, start: {time: 1}, direction: [0, 0, -1e-200], force: 1}\n"
                               "particles: [{pos: [0, 0, 0], radius: 0.01, group: lid}]\n"),
                    path, sizeof path);
    floe_scene s;
    int rc = floe_scene_load(path, &s, err, sizeof err);
    if (rc) fprintf(stderr, "unexpected error: %s\n", err);
    CHECK(rc == 0);
    if (rc) return;
    floe_phase p[2];
    int g = floe_find_group(s.world, "lid");
    CHECK(floe_group_phases(s.world, g, p, 2) == 2);
    CHECK_NEAR(p[0].angvel.x, 2 * sqrt(0.5), 1e-15);
    CHECK_NEAR(p[0].angvel.y, 2 * sqrt(0.5), 1e-15);
    CHECK(p[0].angvel.z == 0);
    CHECK(p[1].servo_dir.x == 0 && p[1].servo_dir.y == 0 && p[1].servo_dir.z == -1);
    p[1].servo_dir = (floe_vec3){0, -1e-200, 0};
    CHECK(floe_group_set_phases(s.world, g, p, 2) == FLOE_OK);
    CHECK(floe_group_phases(s.world, g, p, 2) == 2 && p[1].servo_dir.y == -1);
    floe_scene_free(&s);
}

/* The example: the lid holds 2 kPa (the servo of docs/laboratory.md). */
static void test_example(void) {
    char err[1024];
    floe_scene s;
    int rc = floe_scene_load(FLOE_EXAMPLES "/servo-phases.yaml", &s, err, sizeof err);
    if (rc) fprintf(stderr, "servo-phases.yaml: %s\n", err);
    CHECK(rc == 0);
    if (rc) return;
    int g = floe_find_group(s.world, "lid");
    CHECK(floe_run(s.world, 15000) == FLOE_OK); /* 0.03 s: touched at ~0.02 s */
    double sv[3];
    floe_group_servo(s.world, g, sv);
    REPORT("examples/servo-phases.yaml: at t = %g s the lid measures %.3f Pa (target %.0f Pa), phase %d\n",
           floe_time(s.world), sv[0], sv[1], floe_group_phase(s.world, g));
    CHECK(fabs(sv[0] - 2000) < 20); /* 1 % */
    CHECK(floe_group_phase(s.world, g) == 0);
    CHECK(floe_run(s.world, 11000) == FLOE_OK); /* past 0.05 s: lifted */
    CHECK(floe_group_phase(s.world, g) == 1);
    floe_scene_free(&s);
}

/* The CLI stopped in the middle of the servo phase (step 10300: the lid
 * touched at ~10000) and again after the switch to the lift (step 26000)
 * and resumed: history.csv identical to the uninterrupted run's. Also: the
 * triaxial example loads with its five phased groups. */
static void test_cli_restart(void) {
    char ref[600], cut[600], err[600];
    snprintf(ref, sizeof ref, "%s/ref", tmpdir);
    snprintf(cut, sizeof cut, "%s/cut", tmpdir);
    snprintf(err, sizeof err, "%s/err.txt", tmpdir);
    const char *scene = FLOE_EXAMPLES "/servo-phases.yaml";
    const char *run_ref[] = {"floe", "run", scene, "--out", ref, "--threads", "1", NULL};
    CHECK(run_cli(run_ref, err, 0) == 0);
    const char *run_cut[] = {"floe", "run",       scene,   "--out", cut, "--threads", "1", "--restart-every",
                             "2000", "--stop-at", "10300", NULL};
    CHECK(run_cli(run_cut, err, 0) == 0);
    const char *resume1[] = {"floe", "resume", cut, "--stop-at", "26000", NULL};
    CHECK(run_cli(resume1, err, 0) == 0);
    const char *resume2[] = {"floe", "resume", cut, "--threads", "2", NULL};
    CHECK(run_cli(resume2, err, 0) == 0);
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/history.csv", ref);
    snprintf(b, sizeof b, "%s/history.csv", cut);
    int same = check_same_file(a, b);
    REPORT("CLI: servo-phases.yaml stopped at steps 10300 and 26000 and resumed: history.csv identical: %s\n",
           same ? "yes" : "NO");
    CHECK(same);
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' '%s'", ref, cut, err);
    CHECK(system(cmd) == 0);

    floe_scene s;
    char msg[1024];
    int rc = floe_scene_load(FLOE_EXAMPLES "/triaxial.yaml", &s, msg, sizeof msg);
    if (rc) fprintf(stderr, "triaxial.yaml: %s\n", msg);
    CHECK(rc == 0);
    if (rc) return;
    static const char *const groups[] = {"top", "xlo", "xhi", "ylo", "yhi"};
    static const int counts[] = {3, 2, 2, 2, 2};
    for (int i = 0; i < 5; i++)
        CHECK(floe_group_phases(s.world, floe_find_group(s.world, groups[i]), NULL, 0) == counts[i]);
    floe_scene_free(&s);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/floe_test_phases_XXXXXX");
    const char *t = getenv("TMPDIR");
    if (t && *t) snprintf(tmpdir, sizeof tmpdir, "%s/floe_test_phases_XXXXXX", t);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_valid();
    test_errors();
    test_directions();
    test_example();
    test_cli_restart();
    char p[512];
    snprintf(p, sizeof p, "%s/phases.yaml", tmpdir);
    remove(p);
    rmdir(tmpdir);
    return CHECK_DONE();
}
