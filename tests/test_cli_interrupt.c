/* The floe command line stops within a bound when signalled inside long
 * work (docs/supply.md#interrupting):
 *
 * - SIGTERM during an inlets' insertion after a step: eight inlets whose
 *   bodies (radius 1.2 mm) fit nowhere in a lattice of 12,000 spheres
 *   (radius 1 mm, spacing 2.5 mm: the largest hole takes 1.165 mm) try a
 *   million centres each after every step. The run must exit with status
 *   130 well within 10 s of the signal (a hang detector, not a timing
 *   measurement: a search that looks at every body takes minutes for one
 *   step, and reads the signal only between steps), say that it stopped in
 *   the insertion at step 1, and leave its outputs flushed: energy.csv
 *   ending with a whole line, the final particles.csv and a restart file
 *   of step 1.
 * - SIGTERM while the scene loads (a dense packing of 100,000 spheres):
 *   status 130 with "interrupted while loading", nothing written. Without
 *   the loader's polling the signal kills the process (status 143). */
#include "check.h"
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static char tmp[256];

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_s(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Waits until `path` holds `text` or `limit` seconds pass; 1 if it did. */
static int wait_for(const char *path, const char *text, double limit) {
    for (double t0 = now(); now() - t0 < limit; sleep_s(0.02)) {
        char *s = check_slurp(path, NULL);
        int found = s && strstr(s, text);
        free(s);
        if (found) return 1;
    }
    return 0;
}

/* Sends `sig`, then waits at most `limit` seconds for the exit: its status
 * (128 + signal if killed), or -1 after a SIGKILL when it did not exit. */
static int signal_and_wait(pid_t pid, int sig, double limit, double *took) {
    kill(pid, sig);
    double t0 = now();
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) return -2;
        if (now() - t0 > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            *took = now() - t0;
            return -1;
        }
        sleep_s(0.01);
    }
    *took = now() - t0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int has_file_prefix(const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d));) found |= !strncmp(e->d_name, prefix, strlen(prefix));
    if (d) closedir(d);
    return found;
}

static void during_insertion(void) {
    char scene[512], out[512], log[512], path[700];
    snprintf(scene, sizeof scene, "%s/blocked.yaml", tmp);
    snprintf(out, sizeof out, "%s/out_blocked", tmp);
    snprintf(log, sizeof log, "%s/blocked.log", tmp);
    FILE *f = fopen(scene, "w");
    fprintf(f, "world: {gravity: [0, 0, 0], dt: auto}\nrun: {steps: 100}\n"
               "materials: [{name: m, young: 1e7, density: 2000}]\n"
               "generators:\n  - lattice: {origin: [0, 0, 0], spacing: 0.0025, counts: [20, 20, 30], "
               "radius: 0.001}\n"
               "output: {vtk: {every: 0}, energy: {every: 1}}\ninlets:\n");
    for (int k = 0; k < 8; k++)
        fprintf(f,
                "  - {name: in%d, box: [[0.005, 0.005, %g], [0.04, 0.04, %g]], rate: 1e7, radius: 0.0012, "
                "max_tries: 1000000, seed: %d}\n",
                k, 0.005 + 0.008 * k, 0.01 + 0.008 * k, k);
    fclose(f);
    const char *argv[] = {"floe", "run", scene, "--out", out, "--restart-every", "1000", "--threads", "1", NULL};
    pid_t pid = spawn_cli(argv, log);
    /* the run has begun once the CLI announces it; its first step's
     * insertion (eight inlets, a million centres each) then runs for seconds */
    CHECK(wait_for(log, " particles, ", 60));
    sleep_s(0.5);
    double took = 0;
    int rc = signal_and_wait(pid, SIGTERM, 10, &took);
    char *text = check_slurp(log, NULL);
    REPORT("SIGTERM during the insertion: exit status %d after %.2f s\n", rc, took);
    CHECK(rc == 130);
    /* which of the eight inlets the signal lands in depends on the machine's speed */
    const char *at = text ? strstr(text, "interrupted in the insertion of inlet 'in") : NULL;
    CHECK(at && strstr(at, "' after step 1") != NULL);
    CHECK(text && strstr(text, "interrupted at step 1; writing outputs"));
    if (rc != 130 && text) fprintf(stderr, "%s\n", text);
    free(text);
    snprintf(path, sizeof path, "%s/energy.csv", out);
    char *csv = check_slurp(path, NULL);
    CHECK(csv && strlen(csv) > 0 && csv[strlen(csv) - 1] == '\n');
    free(csv);
    snprintf(path, sizeof path, "%s/particles.csv", out);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size > 0);
    CHECK(has_file_prefix(out, "restart_000000000001"));
}

static void during_loading(void) {
    char scene[512], out[512], log[512];
    snprintf(scene, sizeof scene, "%s/dense.yaml", tmp);
    snprintf(out, sizeof out, "%s/out_dense", tmp);
    snprintf(log, sizeof log, "%s/dense.log", tmp);
    check_write_file(scene, "world: {gravity: [0, 0, -9.81], dt: auto}\nrun: {steps: 10}\n"
                            "materials: [{name: m, young: 1e7, density: 2000}]\n"
                            "generators:\n  - dense: {box: [[0, 0, 0], [0.3, 0.3, 0.3]], radius: 0.002, count: 100000, "
                            "solid_fraction: 0.6}\n");
    const char *argv[] = {"floe", "run", scene, "--out", out, NULL};
    pid_t pid = spawn_cli(argv, log);
    sleep_s(0.5); /* the packing takes far longer */
    double took = 0;
    int rc = signal_and_wait(pid, SIGTERM, 10, &took);
    char *text = check_slurp(log, NULL);
    REPORT("SIGTERM while loading: exit status %d after %.2f s\n", rc, took);
    CHECK(rc == 130);
    CHECK(text && strstr(text, "interrupted while loading"));
    if (rc != 130 && text) fprintf(stderr, "%s\n", text);
    free(text);
    struct stat st;
    CHECK(stat(out, &st) != 0); /* nothing was written */
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_test_cli_interrupt_XXXXXX");
    if (!mkdtemp(tmp)) return 1;
    during_insertion();
    during_loading();
    if (!check_failures) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
    }
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
