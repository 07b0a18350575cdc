/* Restart files as files: written byte for byte the same for the same state
 * (no timestamps, no uninitialised bytes); a write that meets a full disk
 * (a file size limit here, RLIMIT_FSIZE with SIGXFSZ ignored) fails cleanly
 * with exit status 1 and a message naming the cause, keeps the previous
 * restart and leaves no temporary behind; `floe resume` works from a restart
 * file copied alone into a directory, starting the missing outputs afresh. */
#include "check.h"
#include "io/restart.h"

#include <dirent.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tmp[256];

/* Runs the CLI with stdout and stderr into `log`; fsize > 0 limits the size
 * of the files it writes (SIGXFSZ ignored: writes fail with EFBIG, as on a
 * full disk). Returns the exit status, 128 + signal if killed. */
static int cli(const char *const *argv, const char *log, long fsize) {
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        dup2(fd, 1);
        if (fsize > 0) {
            struct rlimit rl = {(rlim_t)fsize, (rlim_t)fsize};
            signal(SIGXFSZ, SIG_IGN);
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        execv(FLOE_CLI, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static const char *scene_text =
    "world: {gravity: [0, 0, -9.81], dt: auto}\n"
    "run: {steps: 60}\n"
    "materials: [{name: m, model: linear, density: 2000, young: 1e7}]\n"
    "walls: [{axis: z, pos: 0, sense: 1}]\n"
    "generators:\n"
    "  - lattice: {origin: [0, 0, 0.0101], spacing: 0.0199, counts: [3, 3, 2], radius: 0.01}\n"
    "output: {vtk: {every: 10}, energy: {every: 10}, events: all}\n";

static void path_in(char *buf, size_t n, const char *dir, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

/* Columns of /instances/law_params past each model's own parameters are 0. */
static int unused_law_params_zero(const char *path) {
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = f >= 0 ? H5Dopen2(f, "/instances/law_params", H5P_DEFAULT) : -1;
    hid_t sp = ds >= 0 ? H5Dget_space(ds) : -1;
    hsize_t d[2] = {0, 0};
    int ok = sp >= 0 && H5Sget_simple_extent_dims(sp, d, NULL) == 2;
    double *v = ok ? calloc(d[0] * d[1] + 1, sizeof *v) : NULL;
    ok = ok && v && H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0;
    int nlaw = floe_model_get(0)->n_law_params; /* instance 0: the first model's defaults */
    for (hsize_t j = (hsize_t)nlaw; ok && j < d[1]; j++) ok = v[j] == 0;
    free(v);
    if (sp >= 0) H5Sclose(sp);
    if (ds >= 0) H5Dclose(ds);
    if (f >= 0) H5Fclose(f);
    return ok;
}

/* Two identical runs, in different seconds, write identical restart files. */
static void check_deterministic(const char *scene) {
    char a[400], b[400], log[400], fa[500], fb[500];
    path_in(a, sizeof a, tmp, "det_a");
    path_in(b, sizeof b, tmp, "det_b");
    path_in(log, sizeof log, tmp, "det.log");
    const char *run_a[] = {"floe", "run", scene, "--out", a, "--restart-every", "30", "--threads", "1", NULL};
    const char *run_b[] = {"floe", "run", scene, "--out", b, "--restart-every", "30", "--threads", "1", NULL};
    CHECK(cli(run_a, log, 0) == 0);
    time_t t0 = time(NULL);
    while (time(NULL) == t0) { /* a timestamp in the file would now differ */
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    CHECK(cli(run_b, log, 0) == 0);
    int same = 1;
    for (int s = 30; s <= 60; s += 30) {
        char name[64];
        snprintf(name, sizeof name, "restart_%012d.h5", s);
        path_in(fa, sizeof fa, a, name);
        path_in(fb, sizeof fb, b, name);
        same &= check_same_file(fa, fb);
    }
    CHECK(same);
    CHECK(unused_law_params_zero(fa));
    REPORT("restart files of two identical runs identical byte for byte: %s\n", same ? "yes" : "NO");
}

/* A link planted at the restart writer's temporary name is
 * replaced, never written through. */
static void check_tmp_link(const char *scene) {
    char dir[400], log[400], victim[400], link[500], fin[500];
    path_in(dir, sizeof dir, tmp, "link");
    path_in(log, sizeof log, tmp, "link.log");
    path_in(victim, sizeof victim, tmp, "victim.txt");
    /* a fresh run clears the directory; a resumed one writes into it as it is */
    const char *first[] = {"floe", "run", scene, "--out", dir, "--restart-every", "20", "--stop-at", "20", NULL};
    CHECK(cli(first, log, 0) == 0);
    check_write_file(victim, "keep me\n");
    path_in(link, sizeof link, dir, ".restart_000000000040.h5.tmp");
    CHECK(symlink(victim, link) == 0);
    const char *resume[] = {"floe", "resume", dir, NULL};
    CHECK(cli(resume, log, 0) == 0);
    char *text = check_slurp(victim, NULL);
    int kept = text && !strcmp(text, "keep me\n");
    CHECK(kept);
    free(text);
    struct stat st;
    path_in(fin, sizeof fin, dir, "restart_000000000040.h5");
    CHECK(lstat(fin, &st) == 0 && S_ISREG(st.st_mode));
    REPORT("link at the restart temporary: target kept: %s\n", kept ? "yes" : "NO");
}

/* A restart write that meets a full disk. */
static void check_disk_full(const char *scene) {
    char dir[400], log[400], p[500];
    path_in(dir, sizeof dir, tmp, "full");
    path_in(log, sizeof log, tmp, "full.log");
    const char *first[] = {"floe", "run", scene, "--out", dir, "--restart-every", "20", "--stop-at", "20", NULL};
    CHECK(cli(first, log, 0) == 0);
    path_in(p, sizeof p, dir, "restart_000000000020.h5");
    struct stat st;
    CHECK(stat(p, &st) == 0 && st.st_size > 16384);
    /* every output file fits under the limit, the next restart file does not */
    const char *resume[] = {"floe", "resume", dir, NULL};
    int rc = cli(resume, log, 16384);
    char *msg = check_slurp(log, NULL);
    CHECK(rc == 1);
    CHECK(msg && strstr(msg, "cannot write a restart") && strstr(msg, "disk full or file size limit"));
    if (rc != 1) fprintf(stderr, "exit status %d; output:\n%s\n", rc, msg ? msg : "");
    free(msg);
    CHECK(check_count_prefix(dir, ".restart_") == 0); /* no temporary left */
    CHECK(check_count_prefix(dir, "restart_") == 1);  /* the previous restart is kept ... */
    floe_restart r;
    char err[1024];
    int loads = floe_restart_load(p, &r, err, sizeof err) == 0;
    CHECK(loads); /* ... and still loads */
    if (loads) floe_restart_free(&r);
    /* with room again, the run resumes from it and finishes */
    CHECK(cli(resume, log, 0) == 0);
    REPORT("restart write on a full disk: exit status %d (expected 1), previous restart kept: %s\n", rc,
           loads ? "yes" : "NO");
}

/* Rows of a CSV (after its header) whose step is greater than `after`, as one string. */
static char *rows_after(const char *path, long after) {
    char *text = check_slurp(path, NULL);
    if (!text) return NULL;
    char *out = calloc(strlen(text) + 1, 1), *line = strchr(text, '\n');
    while (out && line && line[1]) {
        char *next = strchr(line + 1, '\n');
        if (!next) break;
        if (strtol(line + 1, NULL, 10) > after) strncat(out, line + 1, (size_t)(next - line));
        line = next;
    }
    free(text);
    return out;
}

/* Every file="..." of a .pvd collection exists beside it; returns how many, -1 if one is missing. */
static int pvd_frames(const char *dir, const char *pvd) {
    char p[600];
    path_in(p, sizeof p, dir, pvd);
    char *text = check_slurp(p, NULL), *q = text;
    int n = 0;
    while (q && (q = strstr(q, "file=\""))) {
        q += 6;
        char *end = strchr(q, '"'), f[600];
        if (!end) break;
        snprintf(f, sizeof f, "%s/%.*s", dir, (int)(end - q), q);
        struct stat st;
        if (stat(f, &st) != 0) n = -1000000;
        n++;
    }
    free(text);
    return text ? n : -1;
}

/* A restart file copied alone into a directory resumes there;
 * the missing outputs start afresh, equal to the uninterrupted run's rows
 * after the restart step. */
static void check_resume_alone(const char *scene) {
    char ref[400], first[400], alone[400], log[400], p[600], q[600];
    path_in(ref, sizeof ref, tmp, "alone_ref");
    path_in(first, sizeof first, tmp, "alone_first");
    path_in(alone, sizeof alone, tmp, "alone");
    path_in(log, sizeof log, tmp, "alone.log");
    const char *run_ref[] = {"floe", "run", scene, "--out", ref, "--threads", "1", NULL};
    const char *run_first[] = {"floe", "run", scene, "--out", first, "--threads", "1", "--stop-at", "20", NULL};
    CHECK(cli(run_ref, log, 0) == 0);
    CHECK(cli(run_first, log, 0) == 0);
    mkdir(alone, 0777);
    path_in(p, sizeof p, first, "restart_000000000020.h5");
    path_in(q, sizeof q, alone, "restart_000000000020.h5");
    size_t len = 0;
    char *bytes = check_slurp(p, &len);
    FILE *f = fopen(q, "wb");
    CHECK(bytes && f && fwrite(bytes, 1, len, f) == len);
    if (f) fclose(f);
    free(bytes);
    const char *resume[] = {"floe", "resume", alone, NULL};
    int rc = cli(resume, log, 0);
    char *msg = check_slurp(log, NULL);
    CHECK(rc == 0);
    CHECK(msg && strstr(msg, "energy.csv") && strstr(msg, "start afresh at step 20"));
    if (rc != 0) fprintf(stderr, "exit status %d; output:\n%s\n", rc, msg ? msg : "");
    free(msg);
    int same = 1;
    static const char *const csv[] = {"energy.csv", "events.csv"};
    for (int i = 0; i < 2; i++) {
        path_in(p, sizeof p, ref, csv[i]);
        path_in(q, sizeof q, alone, csv[i]);
        char *want = rows_after(p, 20), *got = check_slurp(q, NULL), *ref_text = check_slurp(p, NULL);
        /* the header, then exactly the uninterrupted run's rows after step 20 */
        size_t hl = ref_text && strchr(ref_text, '\n') ? (size_t)(strchr(ref_text, '\n') - ref_text) + 1 : 0;
        int ok = want && got && ref_text && hl && !strncmp(got, ref_text, hl) && !strcmp(got + hl, want);
        if (!ok) fprintf(stderr, "%s: not the header plus the rows after step 20 of the uninterrupted run\n", q);
        same &= ok;
        free(want);
        free(got);
        free(ref_text);
    }
    CHECK(same);
    int frames = pvd_frames(alone, "particles.pvd");
    CHECK(frames > 0); /* every frame listed exists */
    REPORT("resume from a restart file alone: exit status %d, fresh CSVs equal the uninterrupted run after the "
           "restart: %s, %d frames listed, all present\n",
           rc, same ? "yes" : "NO", frames);
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_restart_io_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    char scene[400];
    check_write_tmp(tmp, "scene.yaml", scene_text, scene, sizeof scene);
    check_deterministic(scene);
    check_disk_full(scene);
    check_tmp_link(scene);
    check_resume_alone(scene);
    if (!check_failures) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
        CHECK(system(cmd) == 0);
    }
    return CHECK_DONE();
}
