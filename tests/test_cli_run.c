/* The floe command line: how long a run is (run.time with a fixed and an
 * automatic dt), extending a finished run with floe resume, --stop-at that
 * takes effect or is refused, and the summary of a run that failed. */
#include "check.h"
#include "proc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char tmp[256], err[512];

/* The CLI's output of the last run (freed by the next call). */
static const char *log_text(void) {
    static char *log;
    free(log);
    log = check_slurp(err, NULL);
    return log ? log : "";
}

static int has(const char *text) {
    int ok = strstr(log_text(), text) != NULL;
    if (!ok) fprintf(stderr, "expected '%s' in:\n%s\n", text, log_text());
    return ok;
}

static int same_file(const char *a_dir, const char *b_dir, const char *name) {
    char p[700], q[700];
    snprintf(p, sizeof p, "%s/%s", a_dir, name);
    snprintf(q, sizeof q, "%s/%s", b_dir, name);
    return check_same_file(p, q);
}

/* run.time with dt: auto ends at the first step at or after the time, and
 * the announced step count says that it is an estimate. */
static void time_with_auto_dt(void) {
    char scene[512], out[512], path[600];
    snprintf(scene, sizeof scene, "%s/auto.yaml", tmp);
    check_write_file(scene, "world: {gravity: [0, 0, -9.81], dt: auto}\nrun: {time: 0.02}\n"
                            "materials: [{name: m, young: 1e7, density: 2000}]\n"
                            "walls: [{axis: z, pos: 0, sense: 1}]\n"
                            "generators:\n  - lattice: {origin: [0, 0, 0.0101], spacing: 0.0201, counts: [3, 3, 2], "
                            "radius: 0.01}\n"
                            "output: {vtk: {every: 0}, energy: {every: 1}}\n");
    const char *check[] = {"floe", "check", scene, NULL};
    CHECK(run_cli(check, err, 0) == 0);
    CHECK(has("steps of ~") && has("(dt: auto, estimate"));
    snprintf(out, sizeof out, "%s/out_auto", tmp);
    const char *run[] = {"floe", "run", scene, "--out", out, NULL};
    CHECK(run_cli(run, err, 0) == 0);
    CHECK(has(" steps (dt: auto, estimate) to t = 0.02 s") && has("now at step") && has(", t = 0.02"));
    /* energy.csv has a row per step: the last at or after 0.02 s, the one before it earlier */
    snprintf(path, sizeof path, "%s/energy.csv", out);
    char *csv = check_slurp(path, NULL);
    double t_prev = -1, t_last = -1;
    for (char *line = csv ? strchr(csv, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
        t_prev = t_last;
        t_last = strtod(strchr(line + 1, ',') + 1, NULL);
    }
    free(csv);
    CHECK(t_last >= 0.02 * (1 - 1e-12) && t_prev < 0.02);
    REPORT("run: {time: 0.02}, dt: auto: the last two steps at t = %.9g and %.9g s\n", t_prev, t_last);
}

/* With dt: auto the run's step count is renewed from the current dt as the
 * run goes: each progress line "step S of ~N" has N = S + ceil((T - t_S) /
 * dt_S), the steps done plus the time left over the step in use (t_S and
 * dt_S = t_(S+1) - t_S read from energy.csv, a row per step; +-1 for the
 * rounding of the division near a whole number), and the last line's N is
 * the step the run ended at. The scene: Hertz spheres settling on a floor,
 * whose automatic step grows while they rest (by 23 % over the run when
 * this test was written: the first estimate, 2358 steps, was 11 % above
 * the 2126 run). The check holds whatever rule sets dt. */
static void auto_dt_estimate(void) {
    char scene[512], out[512], path[600];
    const double T = 0.3;
    snprintf(scene, sizeof scene, "%s/settle.yaml", tmp);
    check_write_file(scene, "world: {gravity: [0, 0, -9.81], dt: auto}\nrun: {time: 0.3}\n"
                            "materials: [{name: m, model: hertz, young: 1e7, poisson: 0.25, density: 2000, "
                            "restitution: 0.5, tan_phi: 0.5}]\n"
                            "walls: [{axis: z, pos: 0, sense: 1}]\n"
                            "generators:\n  - lattice: {origin: [0, 0, 0.0101], spacing: 0.0201, counts: [3, 3, 3], "
                            "radius: 0.01}\n"
                            "output: {vtk: {every: 0}, energy: {every: 1}, progress: {every: 100}}\n");
    snprintf(out, sizeof out, "%s/out_settle", tmp);
    const char *run[] = {"floe", "run", scene, "--out", out, NULL};
    CHECK(run_cli(run, err, 0) == 0);
    /* the time of every step */
    snprintf(path, sizeof path, "%s/energy.csv", out);
    char *csv = check_slurp(path, NULL);
    enum { CAP = 100000 };
    static double t[CAP];
    int nrows = 0;
    for (char *line = csv ? strchr(csv, '\n') : NULL; line && line[1] && nrows < CAP; line = strchr(line + 1, '\n')) {
        long s = strtol(line + 1, NULL, 10);
        if (s == nrows) t[nrows++] = strtod(strchr(line + 1, ',') + 1, NULL);
    }
    free(csv);
    long long announced = -1, final = -1, first = -1, last_n = -1, last_s = -1;
    const char *log = log_text(), *a = strstr(log, " particles, ~");
    if (a) announced = strtoll(a + 13, NULL, 10);
    const char *f = strstr(log, "now at step ");
    if (f) final = strtoll(f + 12, NULL, 10);
    int lines = 0, off = 0;
    for (const char *p = strstr(log, "  step "); p; p = strstr(p + 1, "  step ")) {
        long long s, n;
        if (sscanf(p, "  step %lld of ~%lld", &s, &n) != 2) continue;
        if (first < 0) first = n;
        last_s = s;
        last_n = n;
        lines++;
        if (s + 1 >= nrows) continue; /* the last line: checked against the end below */
        double dt = t[s + 1] - t[s];
        long long want = s + (long long)ceil((T - t[s]) / dt);
        off += llabs(n - want) > 1;
    }
    REPORT("dt: auto estimate: announced ~%lld, first progress line ~%lld, run %lld steps (dt %.4g -> %.4g s); "
           "%d progress lines, %d off the steps done + time left / current dt; last line %lld of ~%lld\n",
           announced, first, final, nrows > 1 ? t[1] - t[0] : 0.0, nrows > 1 ? t[nrows - 1] - t[nrows - 2] : 0.0, lines,
           off, last_s, last_n);
    CHECK(lines >= 10 && off == 0);
    CHECK(final > 0 && last_s == final && last_n == final);
}

/* The particle-steps a run reports are the bodies each step starts with,
 * summed over the steps: an inlet pours 10000 beads/s into an empty box
 * (a floor and the beads: 1 body at the start, about 100 after 500 steps
 * of 2e-5 s), so the sum is the history's `particles` of steps 0..499 (a row
 * per step), not the steps times the bodies at either end. Likewise after
 * --warmup 100: the rows of steps 100..499. */
static void particle_steps(void) {
    char scene[512], out[512], path[600];
    snprintf(scene, sizeof scene, "%s/pour.yaml", tmp);
    check_write_file(scene, "world: {gravity: [0, 0, -9.81], dt: 2e-5}\nrun: {steps: 500}\n"
                            "materials: [{name: m, young: 1e7, density: 2000}]\n"
                            "walls: [{axis: z, pos: 0, sense: 1}]\n"
                            "inlets:\n  - {name: feed, box: [[0, 0, 0.05], [0.2, 0.2, 0.1]], rate: 10000, "
                            "radius: 0.002, material: m, seed: 1}\n"
                            "output: {vtk: {every: 0}, history: {every: 1, columns: [{name: n, counter: "
                            "particles}]}}\n");
    snprintf(out, sizeof out, "%s/out_pour", tmp);
    const char *run[] = {"floe", "run", scene, "--out", out, "--warmup", "100", NULL};
    CHECK(run_cli(run, err, 0) == 0);
    snprintf(path, sizeof path, "%s/history.csv", out);
    char *csv = check_slurp(path, NULL);
    long long sum = 0, sum_warm = 0, first = -1, last = -1;
    int rows = 0;
    for (char *line = csv ? strchr(csv, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
        char *comma = strchr(line + 1, ','); /* step,time,n */
        comma = comma ? strchr(comma + 1, ',') : NULL;
        if (!comma) break;
        long long step = strtoll(line + 1, NULL, 10), n = strtoll(comma + 1, NULL, 10);
        if (step != rows++) break;
        if (first < 0) first = n;
        last = n;
        if (step < 500) sum += n;
        if (step >= 100 && step < 500) sum_warm += n;
    }
    free(csv);
    long long reported = -1, reported_warm = -1;
    const char *log = log_text(), *p = strstr(log, "floe: 500 steps in ");
    if (p && (p = strchr(p, '('))) reported = strtoll(p + 1, NULL, 10);
    p = strstr(log, "after 100 warm-up steps: 400 steps in ");
    if (p && (p = strchr(p, '('))) reported_warm = strtoll(p + 1, NULL, 10);
    REPORT("particle-steps: reported %lld (summed from history.csv %lld; 500 x the %lld bodies at the start = %lld, "
           "x the %lld at the end = %lld); after 100 warm-up steps %lld (summed %lld)\n",
           reported, sum, first, 500 * first, last, 500 * last, reported_warm, sum_warm);
    CHECK(rows == 501 && first == 1 && last > 90);
    CHECK(reported == sum && reported_warm == sum_warm);
}

/* run.time with a fixed dt is ceil(time/dt) steps, as docs/scene-format.md
 * says, also where the time summed step by step falls short of the product. */
static void time_with_fixed_dt(void) {
    char scene[512], out[512];
    snprintf(scene, sizeof scene, "%s/fixed.yaml", tmp);
    check_write_file(scene, "world: {dt: 1e-5}\nrun: {time: 0.9}\n"
                            "materials: [{name: m, young: 1e7, density: 2000}]\n"
                            "particles:\n  - {radius: 0.01, pos: [0, 0, 0]}\n"
                            "output: {vtk: {every: 0}, energy: {every: 0}, final_state: false}\n");
    snprintf(out, sizeof out, "%s/out_fixed", tmp);
    const char *run[] = {"floe", "run", scene, "--out", out, NULL};
    CHECK(run_cli(run, err, 0) == 0);
    CHECK(has(": 1 particles, 90000 steps,") && has("floe: 90000 steps in"));
}

/* A finished run goes on with floe resume --steps / --time; --stop-at takes
 * effect on resume or is refused; the outputs equal those of one long run. */
static void extend_finished_run(void) {
    char scene[512], ref[512], out[512], path[700];
    snprintf(scene, sizeof scene, "%s/drop.yaml", tmp);
    check_write_file(scene, "world: {gravity: [0, 0, -9.81], dt: 1e-4}\nrun: {steps: 400}\n"
                            "materials: [{name: m, young: 1e7, density: 2000}]\n"
                            "walls: [{axis: z, pos: 0, sense: 1}]\n"
                            "generators:\n  - lattice: {origin: [0, 0, 0.012], spacing: 0.0201, counts: [3, 3, 2], "
                            "radius: 0.01}\n"
                            "output: {vtk: {every: 100}, energy: {every: 50}}\n");
    snprintf(ref, sizeof ref, "%s/ref", tmp);
    const char *run_ref[] = {"floe", "run", scene, "--out", ref, "--steps", "1000", NULL};
    CHECK(run_cli(run_ref, err, 0) == 0);

    snprintf(out, sizeof out, "%s/ext", tmp);
    const char *run_past[] = {"floe", "run", scene, "--out", out, "--stop-at", "500", NULL};
    CHECK(run_cli(run_past, err, 0) == 2 && has("--stop-at 500 is after the run's end at step 400"));
    const char *run[] = {"floe", "run", scene, "--out", out, "--restart-every", "1000", NULL};
    CHECK(run_cli(run, err, 0) == 0);
    snprintf(path, sizeof path, "%s/restart_000000000400.h5", out); /* a restart at the end */
    struct stat st;
    CHECK(stat(path, &st) == 0);

    const char *stop_past[] = {"floe", "resume", out, "--stop-at", "2000", NULL};
    CHECK(run_cli(stop_past, err, 0) == 2 && has("--stop-at 2000 is after the run's end at step 400"));
    const char *too_short[] = {"floe", "resume", out, "--steps", "300", NULL};
    CHECK(run_cli(too_short, err, 0) == 2 && has("--steps 300 is before the current step 400"));
    const char *time_past[] = {"floe", "resume", out, "--time", "0.03", NULL};
    CHECK(run_cli(time_past, err, 0) == 2 && has("is not after the run's current time"));
    const char *elsewhere[] = {"floe", "resume", out, "--out", ref, NULL};
    CHECK(run_cli(elsewhere, err, 0) == 2 && has("--out is not accepted"));

    /* --time 0.1 s with dt 1e-4: 1000 steps; stopped on the way at 700 */
    const char *more[] = {"floe", "resume", out, "--time", "0.1", "--stop-at", "700", NULL};
    CHECK(run_cli(more, err, 0) == 0 && has("at step 400") && has("of 1000 steps") &&
          has("stopped at step 700 as asked"));
    const char *stop_before[] = {"floe", "resume", out, "--stop-at", "700", NULL};
    CHECK(run_cli(stop_before, err, 0) == 2 && has("--stop-at 700 is not after the current step 700"));
    const char *rest[] = {"floe", "resume", out, NULL}; /* the new end is in the restart file */
    CHECK(run_cli(rest, err, 0) == 0 && has("now at step 1000,"));
    int same = same_file(ref, out, "energy.csv") && same_file(ref, out, "particles.csv") &&
               same_file(ref, out, "contacts.csv") && same_file(ref, out, "particles.pvd");
    CHECK(same);
    REPORT("run 400 steps, resume --time 0.1 --stop-at 700, resume: outputs equal one 1000-step run: %s\n",
           same ? "yes" : "NO");
    /* and again by steps */
    const char *by_steps[] = {"floe", "resume", out, "--steps", "1200", NULL};
    CHECK(run_cli(by_steps, err, 0) == 0 && has("floe: 200 steps in") && has("now at step 1200,"));
}

/* A runaway: the summary counts the failed step, and names the last good
 * restart file only when there is one. */
static void failure_summary(void) {
    char scene[512], out[512], want[700];
    snprintf(scene, sizeof scene, "%s/crash.yaml", tmp);
    /* two spheres closing at 3 km/s (dt below the critical step, which the
     * loader checks): the overlap passes the particle size at step 6 */
    check_write_file(scene, "world: {dt: 5e-6}\nrun: {steps: 40}\n"
                            "materials: [{name: m, young: 1e9, density: 1000}]\n"
                            "particles:\n  - {radius: 0.01, pos: [0, 0, 0], vel: [1500, 0, 0]}\n"
                            "  - {radius: 0.01, pos: [0.1, 0, 0], vel: [-1500, 0, 0]}\n"
                            "output: {vtk: {every: 0}}\n");
    snprintf(out, sizeof out, "%s/out_crash", tmp);
    const char *with[] = {"floe", "run", scene, "--out", out, "--restart-every", "3", NULL};
    CHECK(run_cli(with, err, 0) == 1);
    CHECK(has("runaway at step 6:") && has("floe: 6 steps (the last one failed) in"));
    snprintf(want, sizeof want, "the last good state is in %s/restart_000000000003.h5 (step 3)", out);
    CHECK(has(want));
    const char *without[] = {"floe", "run", scene, "--out", out, "--restart-every", "10", NULL};
    CHECK(run_cli(without, err, 0) == 1);
    CHECK(has("runaway at step 6:") && has("runaway_000000000006.h5") && !strstr(log_text(), "last good state"));
}

/* A run whose energy balance error passes world.energy_warn says so once:
 * one warning line on stderr and one energy_error row in events.csv (kept
 * by default). A sphere bouncing on a floor at dt = 1.47e-5 s, 0.6 of its
 * contact's critical step 2 sqrt(m / kn) = 2.45e-5 s, where one impact
 * errs by up to 56 % of its energy. */
static void energy_warning(void) {
    char scene[512], out[512], path[700];
    snprintf(scene, sizeof scene, "%s/bounce.yaml", tmp);
    check_write_file(scene, "world: {gravity: [0, 0, -9.81], dt: 1.47e-5, energy_warn: 0.01}\nrun: {time: 0.3}\n"
                            "materials: [{name: m, young: 1e8, density: 2500, tan_phi: 0}]\n"
                            "walls: [{axis: z, pos: 0, sense: 1}]\n"
                            "particles:\n  - {radius: 0.0015, pos: [0, 0, 0.01]}\n"
                            "output: {vtk: {every: 0}}\n");
    snprintf(out, sizeof out, "%s/out_bounce", tmp);
    const char *run[] = {"floe", "run", scene, "--out", out, NULL};
    CHECK(run_cli(run, err, 0) == 0);
    const char *line = "floe: warning: the energy balance error is ";
    const char *first = strstr(log_text(), line);
    CHECK(first && !strstr(first + 1, line) && strstr(first, "above world.energy_warn = 0.01"));
    snprintf(path, sizeof path, "%s/events.csv", out);
    char *csv = check_slurp(path, NULL);
    const char *row = csv ? strstr(csv, ",energy_error,-1,-1,") : NULL;
    CHECK(row && !strstr(row + 1, ",energy_error,"));
    free(csv);
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_cli_run_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    snprintf(err, sizeof err, "%s/stderr.txt", tmp);
    time_with_auto_dt();
    auto_dt_estimate();
    particle_steps();
    time_with_fixed_dt();
    extend_finished_run();
    failure_summary();
    energy_warning();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (!check_failures) CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
