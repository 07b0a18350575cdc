/* `mpirun -np N floe run SCENE` and `floe resume` under mpirun write the same
 * bytes as the command run alone (docs/mpi.md#bitwise-equal-for-any-rank-count):
 * every output file compared byte for byte against the serial run for
 * -np 1, 2, 3 (oversubscribed on a small machine) with 1 and 2 threads per
 * rank, on a 2D heap of spheres in a box of walls under gravity
 * (repose.yaml), an inlet pouring into a hopper of facets (hopper.yaml) and
 * a periodic cell in shear (periodic-shear.yaml); a run stopped and resumed
 * under mpirun, and one interrupted by Ctrl-C and resumed, give the bytes
 * of the run alone. And the ranks' comparison of their states catches a
 * rank whose state differs by one bit. */
#include "check.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Starts argv (argv[0] the program) in the examples folder, output into
 * log; returns its pid. */
static pid_t start(char *const *argv, const char *log, const char *perturb) {
    pid_t pid = fork();
    if (pid == 0) {
        if (perturb) setenv("FLOE_DIST_TEST_PERTURB", perturb, 1);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        if (chdir(FLOE_EXAMPLES) != 0) _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static int wait_for(pid_t pid) {
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* floe CMD ARGS... under mpirun -np np (np 0: alone); started, its pid
 * returned (`started`), or waited for, its exit status returned. */
static int floe_start(int started, int np, const char *log, const char *perturb, const char *a1, const char *a2,
                      const char *a3, const char *a4, const char *a5, const char *a6, const char *a7, const char *a8) {
    char *argv[32];
    int k = 0;
    char nps[16];
    snprintf(nps, sizeof nps, "%d", np);
    if (np > 0) {
        argv[k++] = (char *)FLOE_MPIEXEC;
        if (geteuid() == 0) argv[k++] = "--allow-run-as-root";
        argv[k++] = "--oversubscribe";
        argv[k++] = "-np";
        argv[k++] = nps;
        /* under the sanitizers (make sanitize): the MPI library's own
         * allocations at exit are not floe's leaks */
        if (getenv("ASAN_OPTIONS")) {
            argv[k++] = "-x";
            argv[k++] = "ASAN_OPTIONS=detect_leaks=0";
        }
        if (perturb) {
            argv[k++] = "-x";
            argv[k++] = "FLOE_DIST_TEST_PERTURB";
        }
    }
    argv[k++] = (char *)FLOE_CLI;
    const char *rest[] = {a1, a2, a3, a4, a5, a6, a7, a8};
    for (int i = 0; i < 8 && rest[i]; i++) argv[k++] = (char *)rest[i];
    argv[k] = NULL;
    pid_t pid = start(argv, log, perturb);
    return started ? (int)pid : wait_for(pid);
}
#define floe(...) floe_start(0, __VA_ARGS__)

static int skip_h5 = 0; /* same_dir leaves restart files out */

/* Every file of a and its folders (the lock aside) is in b with the same
 * bytes, and b holds no other file. */
static int same_dir(const char *a, const char *b) {
    int ok = 1, files = 0;
    for (int side = 0; side < 2; side++) {
        const char *x = side ? b : a, *y = side ? a : b;
        DIR *d = opendir(x);
        if (!d) return 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".floe.lock")) continue;
            if (skip_h5 && strstr(e->d_name, ".h5")) continue;
            char p[1024], q[1024];
            snprintf(p, sizeof p, "%s/%s", x, e->d_name);
            snprintf(q, sizeof q, "%s/%s", y, e->d_name);
            struct stat st;
            if (side == 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
                files++;
                ok &= same_dir(p, q);
            } else if (side == 0) {
                files++;
                ok &= check_same_file(p, q);
            } else if (access(q, F_OK) != 0) {
                fprintf(stderr, "%s is not in %s\n", p, y);
                ok = 0;
            }
        }
        closedir(d);
    }
    return ok && files > 0;
}

static void show(const char *log) {
    char *t = check_slurp(log, NULL);
    if (t) fprintf(stderr, "---- %s\n%s----\n", log, t);
    free(t);
}

static char dir[64];

/* SCENE run for `steps` steps alone and under mpirun with each rank count
 * and thread count of the lists: every output the same. */
static void same_as_alone(const char *scene, const char *steps, const int *np, const char *const *threads, int n) {
    char ref[512], out[512], log[512];
    snprintf(ref, sizeof ref, "%s/%s-alone", dir, scene);
    snprintf(log, sizeof log, "%s/log", dir);
    int rc = floe(0, log, NULL, "run", scene, "--out", ref, "--steps", steps, "--threads", "1");
    CHECK(rc == 0);
    if (rc) show(log);
    for (int k = 0; k < n; k++) {
        snprintf(out, sizeof out, "%s/%s-np%d-t%s", dir, scene, np[k], threads[k]);
        rc = floe(np[k], log, NULL, "run", scene, "--out", out, "--steps", steps, "--threads", threads[k]);
        CHECK(rc == 0);
        char *t = check_slurp(log, NULL);
        /* more than one rank: their states were compared, and agreed */
        CHECK(np[k] == 1 || (t && strstr(t, "their states were bitwise equal")));
        free(t);
        int same = same_dir(ref, out);
        CHECK(same);
        if (rc || !same) show(log);
        fprintf(stderr, "%s, %s steps, -np %d, %s thread(s): %s\n", scene, steps, np[k], threads[k],
                same ? "the serial run's bytes" : "DIFFERENT");
    }
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/floe_mpi_run_XXXXXX");
    if (!mkdtemp(dir)) return 1;
    static const int np_all[] = {1, 2, 3, 2};
    static const char *const th_all[] = {"1", "1", "1", "2"};
    same_as_alone("repose.yaml", "300", np_all, th_all, 4);
    static const int np3[] = {3};
    static const char *const th2[] = {"2"};
    same_as_alone("hopper.yaml", "300", np3, th2, 1);
    same_as_alone("periodic-shear.yaml", "200", np3, th2, 1);

    /* resume under mpirun: stopped at step 150 with a restart file by 2
     * ranks, resumed to 300 by 3, the same bytes as stopped and resumed
     * alone */
    char a[512], b[512], log[512];
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(a, sizeof a, "%s/resume-alone", dir);
    snprintf(b, sizeof b, "%s/resume-np", dir);
    CHECK(floe(0, log, NULL, "run", "repose.yaml", "--out", a, "--steps", "300", "--stop-at", "150") == 0);
    CHECK(floe(0, log, NULL, "resume", a, NULL, NULL, NULL, NULL, NULL, NULL) == 0);
    CHECK(floe(2, log, NULL, "run", "repose.yaml", "--out", b, "--steps", "300", "--stop-at", "150") == 0);
    int rc = floe(3, log, NULL, "resume", b, NULL, NULL, NULL, NULL, NULL, NULL);
    CHECK(rc == 0);
    if (rc) show(log);
    CHECK(same_dir(a, b));

    /* Ctrl-C under mpirun (SIGINT to mpirun, which passes it to every
     * rank): rank 0 stops at the end of its step with a restart file, the
     * others with it; resumed by 3 ranks for 200 more steps, the outputs are
     * those of the run alone, uninterrupted, to that step (restart files
     * aside: their steps differ) */
    snprintf(a, sizeof a, "%s/interrupted-alone", dir);
    snprintf(b, sizeof b, "%s/interrupted", dir);
    pid_t pid = (pid_t)floe_start(1, 2, log, NULL, "run", "triaxial.yaml", "--out", b, "--steps", "20000",
                                  "--restart-every", "100000");
    char *t = NULL;
    for (int i = 0; i < 600 && !(t && strstr(t, "triaxial.yaml -> ")); i++) { /* the run has begun */
        free(t);
        nanosleep(&(struct timespec){0, 100000000}, NULL);
        t = check_slurp(log, NULL);
    }
    free(t);
    nanosleep(&(struct timespec){0, 500000000}, NULL);
    kill(pid, SIGINT);
    wait_for(pid);
    t = check_slurp(log, NULL);
    const char *at = t ? strstr(t, "interrupted at step ") : NULL;
    long k = at ? strtol(at + strlen("interrupted at step "), NULL, 10) : -1;
    CHECK(k > 0 && k < 20000);
    CHECK(t && strstr(t, "their states were bitwise equal"));
    if (k <= 0) show(log);
    free(t);
    if (k > 0) {
        char end[32];
        snprintf(end, sizeof end, "%ld", k + 200);
        CHECK(floe(3, log, NULL, "resume", b, "--steps", end, NULL, NULL, NULL, NULL) == 0);
        CHECK(floe(0, log, NULL, "run", "triaxial.yaml", "--out", a, "--steps", end, "--threads", "1") == 0);
        skip_h5 = 1;
        CHECK(same_dir(a, b));
        skip_h5 = 0;
        fprintf(stderr, "interrupted at step %ld by Ctrl-C, resumed to %s: the serial run's bytes\n", k, end);
    }

    /* a rank whose world is one bit off (one position's last bit) is found
     * at the first comparison (step 64) and the run fails with status 1 */
    snprintf(b, sizeof b, "%s/perturbed", dir);
    rc = floe(3, log, "2", "run", "repose.yaml", "--out", b, "--steps", "300", "--threads", "1");
    CHECK(rc == 1);
    t = check_slurp(log, NULL);
    CHECK(t && strstr(t, "states differ at step 64") && strstr(t, "rank 2's is not rank 0's") &&
          !strstr(t, "rank 1's is not"));
    if (check_failures) show(log);
    free(t);

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
