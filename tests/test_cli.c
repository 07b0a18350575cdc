/* The floe command line: exit codes, messages, outputs, Ctrl-C and blow-ups. */
#include "check.h"
#include "proc.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[256];

static char *slurp(const char *path) {
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int exists(const char *dir, const char *name) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat st;
    return stat(p, &st) == 0 && st.st_size > 0;
}

/* The last line of a text file ends with a newline (no torn record). */
static int complete_lines(const char *path) {
    FILE *f = fopen(path, "r");
    int c = EOF;
    if (f && fseek(f, -1, SEEK_END) == 0) c = fgetc(f);
    if (f) fclose(f);
    return c == '\n';
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_cli_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    char err[512], scene[512], out[512], path[600];
    snprintf(err, sizeof err, "%s/stderr.txt", tmp);

    const char *version[] = {"floe", "--version", NULL};
    CHECK(run_cli(version, err, 0) == 0);
    CHECK(strstr(slurp(err), "floe 0.") != NULL);
    const char *nothing[] = {"floe", "frobnicate", NULL};
    CHECK(run_cli(nothing, err, 0) == 2);

    /* a bad scene: refused with file:line:col and exit status 2, nothing written */
    snprintf(scene, sizeof scene, "%s/bad.yaml", tmp);
    check_write_file(scene, "run: {steps: 10}\nmaterials:\n  - {name: m, density: -5}\n");
    const char *check_bad[] = {"floe", "check", scene, NULL};
    CHECK(run_cli(check_bad, err, 0) == 2);
    char want[1200];
    snprintf(want, sizeof want, "%s:3:", scene);
    CHECK(strstr(slurp(err), want) != NULL && strstr(slurp(err), "density") != NULL);
    snprintf(out, sizeof out, "%s/out_bad", tmp);
    const char *run_bad[] = {"floe", "run", scene, "--out", out, NULL};
    CHECK(run_cli(run_bad, err, 0) == 2);
    struct stat st;
    CHECK(stat(out, &st) != 0);

    /* a good scene runs and writes every output */
    snprintf(scene, sizeof scene, "%s/drop.yaml", tmp);
    check_write_file(
        scene, "world: {gravity: [0, 0, -9.81]}\nrun: {steps: 2000}\n"
               "materials: [{name: m, young: 1e7, density: 2000}]\n"
               "walls: [{axis: z, pos: 0, sense: 1}]\n"
               "generators:\n  - lattice: {origin: [0, 0, 0.02], spacing: 0.025, counts: [4, 4, 4], radius: 0.01}\n"
               "output: {vtk: {every: 500}, energy: {every: 100}}\n");
    snprintf(out, sizeof out, "%s/out_drop", tmp);
    const char *run_ok[] = {"floe", "run", scene, "--out", out, "--threads", "1", NULL};
    CHECK(run_cli(run_ok, err, 0) == 0);
    CHECK(exists(out, "energy.csv") && exists(out, "particles.pvd") && exists(out, "particles.csv") &&
          exists(out, "contacts.csv") && exists(out, "boundaries.pvd"));
    snprintf(path, sizeof path, "%s/energy.csv", out);
    CHECK(complete_lines(path));
    const char *bad_opt[] = {"floe", "run", scene, "--threads", "zero", NULL};
    CHECK(run_cli(bad_opt, err, 0) == 2);
    /* --warmup: the rate of the steps after the warm-up is reported too */
    const char *run_warm[] = {"floe", "run", scene, "--out", out, "--steps", "300", "--warmup", "100", NULL};
    CHECK(run_cli(run_warm, err, 0) == 0);
    char *log = check_slurp(err, NULL);
    CHECK(log && strstr(log, "floe: 300 steps in ") && strstr(log, "floe: after 100 warm-up steps: 200 steps in "));
    free(log);
    const char *bad_warm[] = {"floe", "run", scene, "--warmup", "-3", NULL};
    CHECK(run_cli(bad_warm, err, 0) == 2);

    /* Ctrl-C: stops cleanly with status 130 and complete outputs */
    snprintf(scene, sizeof scene, "%s/long.yaml", tmp);
    check_write_file(
        scene, "world: {gravity: [0, 0, -9.81], dt: 1e-6}\nrun: {steps: 100000000}\n"
               "materials: [{name: m, young: 1e7, density: 2000}]\n"
               "walls: [{axis: z, pos: 0, sense: 1}]\n"
               "generators:\n  - lattice: {origin: [0, 0, 0.02], spacing: 0.025, counts: [10, 10, 10], radius: 0.01}\n"
               "output: {vtk: {every: 1000000}, energy: {every: 10}}\n");
    snprintf(out, sizeof out, "%s/out_int", tmp);
    const char *run_long[] = {"floe", "run", scene, "--out", out, NULL};
    CHECK(run_cli(run_long, err, 1.0) == 130);
    CHECK(strstr(slurp(err), "interrupted") != NULL);
    /* no restart file: the message says so and how to get one */
    CHECK(strstr(slurp(err), "no restart file exists") && strstr(slurp(err), "--restart-every"));
    CHECK(exists(out, "particles.csv") && exists(out, "energy.csv"));
    snprintf(path, sizeof path, "%s/energy.csv", out);
    CHECK(complete_lines(path));
    /* with --restart-every: a restart at the interrupted step, and how to continue */
    const char *run_long_rs[] = {"floe", "run", scene, "--out", out, "--restart-every", "100000000", NULL};
    CHECK(run_cli(run_long_rs, err, 1.0) == 130);
    snprintf(want, sizeof want, "continue with: floe resume %s (restart file %s/restart_", out, out);
    CHECK(strstr(slurp(err), want) != NULL);

    /* a blow-up (a sphere thrown into a wall at 10 km/s: one radius per step) stops with status 1, names
     * the step, keeps outputs; a dt over the critical step is refused at load (test_scene_check.c) */
    snprintf(scene, sizeof scene, "%s/boom.yaml", tmp);
    check_write_file(scene, "world: {dt: 1e-6}\nrun: {steps: 1000}\n"
                            "materials: [{name: m, young: 1e9, density: 1000}]\n"
                            "walls: [{axis: z, pos: 0, sense: 1}, {axis: z, pos: 0.0199, sense: -1}]\n"
                            "particles:\n  - {radius: 0.01, pos: [0, 0, 0.0099], vel: [0, 0, -1e4]}\n");
    snprintf(out, sizeof out, "%s/out_boom", tmp);
    const char *run_boom[] = {"floe", "run", scene, "--out", out, NULL};
    CHECK(run_cli(run_boom, err, 0) == 1);
    CHECK(strstr(slurp(err), "runaway at step") != NULL);
    CHECK(exists(out, "energy.csv") && exists(out, "particles.csv"));

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
