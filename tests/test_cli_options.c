/* The floe command line's options: strict whole numbers with their range,
 * did-you-mean for mistyped options, and the OpenMP wait policy that the
 * CLI's process runs with. */
#include "check.h"
#include "proc.h"

#include <stdlib.h>
#include <string.h>

static char tmp[256], err[512];

/* Runs argv; 1 if it exits with `status` and its output holds every one of
 * the (NULL-terminated) strings in `want`. */
static int gives(const char *const *argv, int status, const char *const *want) {
    int rc = run_cli(argv, err, 0);
    char *log = check_slurp(err, NULL);
    int ok = rc == status && log;
    for (int i = 0; ok && want[i]; i++) ok = strstr(log, want[i]) != NULL;
    if (!ok)
        fprintf(stderr, "floe %s ... -> status %d (want %d):\n%s\n", argv[1], rc, status, log ? log : "(no output)");
    free(log);
    return ok;
}

/* The value of `name` in the environment that process `pid` was started
 * with (its /proc/PID/environ), or "" if it has none. */
static const char *env_of(pid_t pid, const char *name, char *buf, size_t len) {
    char path[64], env[1 << 16];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    size_t n = 0; /* /proc files have no size: read until the end */
    FILE *f = fopen(path, "rb");
    for (size_t got = 1; f && got > 0 && n < sizeof env - 1; n += got) got = fread(env + n, 1, sizeof env - 1 - n, f);
    if (f) fclose(f);
    env[n] = 0;
    buf[0] = 0;
    size_t k = strlen(name);
    for (size_t i = 0; i < n; i += strlen(env + i) + 1)
        if (!strncmp(env + i, name, k) && env[i + k] == '=') snprintf(buf, len, "%s", env + i + k + 1);
    return buf;
}

/* Starts a long run with the given OMP_WAIT_POLICY in the environment (NULL:
 * none), waits for its banner (printed after any re-execution), and returns
 * the policy its process runs with. */
static const char *policy_seen(const char *scene, const char *policy, char *buf, size_t len) {
    if (policy) setenv("OMP_WAIT_POLICY", policy, 1);
    else unsetenv("OMP_WAIT_POLICY");
    unsetenv("GOMP_SPINCOUNT");
    char out[600];
    snprintf(out, sizeof out, "%s/out_wait", tmp);
    const char *argv[] = {"floe", "run", scene, "--out", out, NULL};
    unlink(err); /* the banner of an earlier run must not be taken for this one's */
    pid_t pid = spawn_cli(argv, err);
    setenv("OMP_WAIT_POLICY", "passive", 1); /* the test's own, as CTest sets it */
    buf[0] = 0;
    for (int i = 0; i < 1000; i++) { /* up to 20 s under sanitizers */
        char *log = check_slurp(err, NULL);
        int started = log && strstr(log, "floe 0.");
        free(log);
        if (started) {
            env_of(pid, "OMP_WAIT_POLICY", buf, len);
            break;
        }
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    CHECK(wait_cli(pid, 0.05) == 130);
    return buf;
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_cli_opts_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    snprintf(err, sizeof err, "%s/stderr.txt", tmp);
    /* a short scene for the options (one taken by mistake ends soon), a long one to watch */
#define ONE_SPHERE(steps)                                 \
    "world: {dt: 1e-4}\nrun: {steps: " steps "}\n"        \
    "materials: [{name: m, young: 1e7, density: 2000}]\n" \
    "particles:\n  - {radius: 0.01, pos: [0, 0, 0]}\n"    \
    "output: {vtk: {every: 0}, energy: {every: 0}, final_state: false}\n"
    char scene[512], long_scene[512], out[512];
    check_write_tmp(tmp, "short.yaml", ONE_SPHERE("10"), scene, sizeof scene);
    check_write_tmp(tmp, "long.yaml", ONE_SPHERE("1000000000"), long_scene, sizeof long_scene);
    snprintf(out, sizeof out, "%s/out", tmp);

    /* --threads: the scene key's range [0, 4096], whole numbers only */
    const char *bad_threads[] = {"2147483648", "1e3", "-1", "99999999999999999999", "4097", "+2"};
    for (size_t i = 0; i < sizeof bad_threads / sizeof *bad_threads; i++) {
        const char *argv[] = {"floe", "run", scene, "--threads", bad_threads[i], "--out", out, NULL};
        const char *want[] = {"--threads", "[0, 4096]", bad_threads[i], NULL};
        CHECK(gives(argv, 2, want));
    }
    /* 0 = automatic is accepted, as in the scene file */
    const char *auto_threads[] = {"floe", "run", scene, "--threads", "0", "--steps", "5", "--out", out, NULL};
    const char *ran[] = {"floe: 5 steps in", NULL};
    CHECK(gives(auto_threads, 0, ran));
    const char *eq_form[] = {"floe", "run", scene, "--threads=1", "--steps=5", "--out", out, NULL};
    CHECK(gives(eq_form, 0, ran));

    /* the same strict parsing for every whole-number option */
    const char *int_opts[] = {"--steps", "--warmup", "--restart-every", "--stop-at"};
    const char *bad_counts[] = {"1e3", "-1", "99999999999999999999", "1.5"};
    for (size_t i = 0; i < sizeof int_opts / sizeof *int_opts; i++) {
        const char *argv[] = {"floe", "run", scene, int_opts[i], bad_counts[i], "--out", out, NULL};
        const char *want[] = {int_opts[i], "[0, 9223372036854775807]", bad_counts[i], NULL};
        CHECK(gives(argv, 2, want));
    }
    const char *bad_times[] = {"0", "nan", "1s"};
    for (size_t j = 0; j < sizeof bad_times / sizeof *bad_times; j++) {
        const char *argv[] = {"floe", "run", scene, "--time", bad_times[j], "--out", out, NULL};
        const char *want[] = {"--time", "seconds > 0", NULL};
        CHECK(gives(argv, 2, want));
    }
    const char *resume_bad[] = {"floe", "resume", tmp, "--threads", "2147483648", NULL};
    const char *want_range[] = {"[0, 4096]", NULL};
    CHECK(gives(resume_bad, 2, want_range));

    /* mistyped options and commands: a suggestion, as for scene keys */
    const char *typo1[] = {"floe", "run", scene, "--thread", "2", NULL};
    const char *want1[] = {"unknown option '--thread'", "did you mean '--threads'?", NULL};
    CHECK(gives(typo1, 2, want1));
    const char *typo2[] = {"floe", "resume", tmp, "--restart_every", "5", NULL};
    const char *want2[] = {"did you mean '--restart-every'?", NULL};
    CHECK(gives(typo2, 2, want2));
    const char *typo3[] = {"floe", "run", scene, "--stopat=5", NULL};
    const char *want3[] = {"did you mean '--stop-at'?", NULL};
    CHECK(gives(typo3, 2, want3));
    const char *typo4[] = {"floe", "rn", scene, NULL};
    const char *want4[] = {"unknown command 'rn'", "did you mean 'run'?", NULL};
    CHECK(gives(typo4, 2, want4));
    const char *novalue[] = {"floe", "run", scene, "--threads", NULL};
    const char *want5[] = {"--threads needs a value", NULL};
    CHECK(gives(novalue, 2, want5));

    /* the run's threads wait passively unless the user chose otherwise */
    char policy[64];
    CHECK(!strcmp(policy_seen(long_scene, NULL, policy, sizeof policy), "passive"));
    REPORT("OMP_WAIT_POLICY unset: the CLI runs with '%s'\n", policy);
    CHECK(!strcmp(policy_seen(long_scene, "active", policy, sizeof policy), "active"));
    REPORT("OMP_WAIT_POLICY=active: the CLI runs with '%s'\n", policy);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
