/* Crash safety: a run with frequent restart files is killed with SIGKILL at
 * random moments (many land inside a restart write) and resumed, over and
 * over. After every kill the newest restart file must load, every CSV must
 * end with a complete row and every .pvd must be a complete document; at
 * the end every output file must equal, byte for byte, those of a run that
 * was never killed. FLOE_CRASH_TRIALS sets the number of kills (default 60,
 * 20 under sanitizers). */
#include "check.h"
#include "io/restart.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tmp[256];

static pid_t spawn(const char *const *argv) {
    pid_t pid = fork();
    if (pid == 0) {
        char log[400];
        snprintf(log, sizeof log, "%s/log.txt", tmp);
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(fd, 2);
        dup2(fd, 1);
        execv(FLOE_CLI, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static int wait_for(pid_t pid) {
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void sleep_s(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static double rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static int ends_with(const char *dir, const char *name, const char *tail) {
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    size_t len;
    char *b = check_slurp(p, &len);
    if (!b) return -1; /* not written yet */
    size_t k = strlen(tail);
    int ok = len >= k && memcmp(b + len - k, tail, k) == 0;
    free(b);
    return ok;
}

static int torn_rows = 0; /* last rows cut by a kill, repaired by the resume */

/* The invariants that must hold whenever the process dies. */
static int check_dir(const char *dir, int *tmp_seen) {
    int ok = 1;
    /* A CSV row goes out in one write(), but the kernel may stop a write
     * killed by SIGKILL at a 4 KiB page of the file, so a row straddling a
     * page can be cut. That is the one tear allowed: it is counted, and the
     * resume must cut it away (the final comparison checks that). */
    static const char *const csv[] = {"energy.csv", "history.csv", "events.csv"};
    for (int i = 0; i < 3; i++)
        if (ends_with(dir, csv[i], "\n") == 0) torn_rows++;
    static const char *const pvd[] = {"particles.pvd", "contacts.pvd"};
    for (int i = 0; i < 2; i++)
        if (ends_with(dir, pvd[i], "</VTKFile>\n") == 0) {
            fprintf(stderr, "%s/%s is incomplete\n", dir, pvd[i]);
            ok = 0;
        }
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, ".restart_", 9)) *tmp_seen = 1; /* killed inside a restart write */
    if (d) closedir(d);
    char paths[2][4096];
    int n = floe_restart_list(dir, paths, 2);
    if (n > 0) {
        floe_restart r;
        char err[1024];
        if (floe_restart_load(paths[0], &r, err, sizeof err) != 0) {
            fprintf(stderr, "the newest restart does not load: %s\n", err);
            ok = 0;
        } else {
            floe_restart_free(&r);
        }
    }
    return ok;
}

/* Every output file of ref (restart files aside) equals dir's, and dir has no extra ones. */
static int same_outputs(const char *ref, const char *dir, const char *sub) {
    char p[700], q[700];
    int ok = 1;
    for (int pass = 0; pass < 2; pass++) {
        snprintf(p, sizeof p, "%s/%s", pass ? dir : ref, sub);
        DIR *d = opendir(p);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.' || strstr(e->d_name, ".h5") || !strcmp(e->d_name, "log.txt")) continue;
            snprintf(p, sizeof p, "%s/%s/%s", ref, sub, e->d_name);
            snprintf(q, sizeof q, "%s/%s/%s", dir, sub, e->d_name);
            struct stat st;
            if (stat(pass ? q : p, &st) == 0 && S_ISDIR(st.st_mode)) {
                if (!pass) ok &= same_outputs(ref, dir, e->d_name);
                continue;
            }
            if (!check_same_file(p, q)) {
                fprintf(stderr, "%s: differs from the uninterrupted run (or is missing / extra)\n", q);
                ok = 0;
            }
        }
        if (d) closedir(d);
    }
    return ok;
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_crash_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    const char *env = getenv("FLOE_CRASH_TRIALS");
    /* sanitized builds are ~10x slower: fewer trials keep the suite short */
    int trials = env ? atoi(env) : getenv("FLOE_SANITIZED") ? 20 : 60;
    char scene[400], ref[400], dir[400];
    snprintf(scene, sizeof scene, "%s/scene.yaml", tmp);
    FILE *f = fopen(scene, "w");
    fputs(
        "world: {gravity: [0, 0, -9.81], dt: auto, dyn_dt_period: 23, damping: 0.02}\n"
        "run: {steps: 2500}\n"
        "materials:\n"
        "  - {name: ice, model: ice, density: 900, young: 3e6, break_n: 2e-3}\n"
        "models: {ice: {bonds0: 255, bond_tol: 0.1}}\n"
        "walls: [{axis: z, pos: 0, sense: 1}]\n"
        "generators:\n"
        "  - lattice: {origin: [0, 0, 0.012], spacing: 0.0201, counts: [6, 6, 4], radius: 0.01, vel: [0.2, 0, -0.5]}\n"
        "output: {vtk: {every: 250}, energy: {every: 10}, events: all,\n"
        "         history: {every: 5, columns: [{name: nc, counter: contacts}, {name: z, particle: 7, quantity: "
        "pos.z}]}}\n",
        f);
    fclose(f);
    snprintf(ref, sizeof ref, "%s/ref", tmp);
    const char *run_ref[] = {"floe", "run", scene, "--out", ref, "--threads", "1", NULL};
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    CHECK(wait_for(spawn(run_ref)) == 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double t1 = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec); /* length of a whole run */

    snprintf(dir, sizeof dir, "%s/run", tmp);
    const char *run_cmd[] = {"floe", "run", scene, "--out", dir, "--threads", "1", "--restart-every", "20", NULL};
    const char *resume_cmd[] = {"floe", "resume", dir, NULL};
    uint64_t seed = (uint64_t)time(NULL) ^ (uint64_t)getpid();
    REPORT("crash test: seed %llu, a whole run takes %.2f s\n", (unsigned long long)seed, t1);
    int kills = 0, in_write = 0, finished_early = 0, fresh_starts = 0, resumes = 0;
    for (int i = 0; i < trials; i++) {
        char paths[1][4096];
        int have = floe_restart_list(dir, paths, 1) > 0;
        fresh_starts += !have;
        resumes += have;
        pid_t pid = spawn(have ? resume_cmd : run_cmd);
        if (pid <= 0) { /* fork failed: kill(-1, ...) would signal every process we may */
            CHECK(pid > 0);
            break;
        }
        sleep_s(fmin(t1, 0.4) * rnd(&seed)); /* kills spread over start-up, steps and writes */
        kill(pid, SIGKILL);
        int st = wait_for(pid);
        if (st != 128 + SIGKILL) {
            finished_early++; /* it ended before the kill: start over to keep killing */
            CHECK(st == 0);
            char cmd[600];
            snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
            CHECK(system(cmd) == 0);
            continue;
        }
        kills++;
        int seen = 0;
        CHECK(check_dir(dir, &seen));
        in_write += seen;
    }
    /* the last resume runs to the end */
    char paths[1][4096];
    const char *const *last = floe_restart_list(dir, paths, 1) > 0 ? resume_cmd : run_cmd;
    CHECK(wait_for(spawn(last)) == 0);
    int ok = same_outputs(ref, dir, "");
    CHECK(ok);
    REPORT("crash test: %d SIGKILLs (%d inside a restart write; %d fresh starts, %d resumes, %d runs ended "
           "before their kill; %d CSV last rows cut by a kill, all repaired by the resume); after the final "
           "resume every output equals the uninterrupted run: %s\n",
           kills, in_write, fresh_starts, resumes, finished_early, torn_rows, ok ? "yes" : "NO");
    if (!check_failures) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
        CHECK(system(cmd) == 0);
    } else {
        fprintf(stderr, "kept %s for inspection\n", tmp);
    }
    return CHECK_DONE();
}
