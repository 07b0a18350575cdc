/* floe: the command-line front end. Loads a scene, runs it with progress,
 * writes outputs, stops cleanly on Ctrl-C. Exit codes: 0 done, 1 the run
 * failed (runaway, I/O), 2 bad usage or bad scene, 130 interrupted. */
#include "io/output.h"
#include "io/scene.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted = 0;
static void on_signal(int sig) { interrupted = sig; }

static void usage(FILE *f) {
    fprintf(f,
            "floe %s - discrete element method engine\n\n"
            "usage:\n"
            "  floe run SCENE [--out DIR] [--threads N] [--steps N]\n"
            "                       run a scene, writing results into DIR (default: out)\n"
            "  floe check SCENE     validate a scene file without running it\n"
            "  floe --version       print the version\n"
            "  floe --help          this text\n\n"
            "Scene format: docs/scene-format.md. Outputs: docs/outputs.md.\n",
            FLOE_VERSION);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void fmt_duration(double s, char *buf, size_t n) {
    if (!(s >= 0) || s > 1e7) snprintf(buf, n, "--:--");
    else if (s >= 3600) snprintf(buf, n, "%d:%02d:%02d", (int)s / 3600, ((int)s / 60) % 60, (int)s % 60);
    else snprintf(buf, n, "%d:%02d", (int)s / 60, (int)s % 60);
}

/* Fraction of the run done: by simulated time for `run: time` (the step
 * may change with dt: auto), by steps otherwise. */
static double fraction(const floe_world *w, int64_t done, int64_t total, double duration) {
    if (duration > 0) return fmin(1.0, floe_time(w) / duration);
    return total > 0 ? (double)done / total : 1.0;
}

/* One progress report: a redrawn bar on a terminal, a plain line otherwise. */
static void progress(floe_world *w, int64_t done, double frac, double t0, int tty, int final) {
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    double el = now() - t0, rate = el > 0 ? done / el : 0;
    char eta[32];
    fmt_duration(frac > 0 ? el * (1 - frac) / frac : -1, eta, sizeof eta);
    int64_t step = floe_step_count(w);
    if (tty) {
        int width = 24, fill = (int)(width * frac);
        char bar[32];
        for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
        bar[width] = 0;
        fprintf(stderr, "\r[%s] %3d%% step %lld  t=%.4g s  %.0f steps/s  ETA %s  contacts %d  E.err %+.1e ",
                bar, (int)(100 * frac), (long long)step, floe_time(w), rate, eta,
                floe_contact_count(w), e[FLOE_E_ERROR]);
        if (final) fputc('\n', stderr);
    } else {
        fprintf(stderr, "%5.1f%%  step %lld  t=%.6g s  %.0f steps/s  ETA %s  contacts %d  energy_error %.3e\n",
                100 * frac, (long long)step, floe_time(w), rate, eta, floe_contact_count(w), e[FLOE_E_ERROR]);
    }
    fflush(stderr);
}

static int cmd_check(const char *path) {
    floe_scene sc;
    char err[2048];
    if (floe_scene_load(path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    printf("%s: ok: %d particles, %d materials, %d groups, %lld steps of %.4g s\n", path,
           floe_particle_count(sc.world), floe_material_count(sc.world), floe_group_count(sc.world),
           (long long)floe_scene_total_steps(&sc), floe_dt(sc.world));
    floe_scene_free(&sc);
    return 0;
}

static int parse_count(const char *opt, const char *s, long long lo, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || end == s || v < lo) {
        fprintf(stderr, "floe: %s expects an integer >= %lld, got '%s'\n", opt, lo, s);
        return 0;
    }
    *out = v;
    return 1;
}

static int cmd_run(int argc, char **argv) {
    const char *path = NULL, *dir = "out";
    long long threads = -1, steps = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_val = i + 1 < argc;
        if (!strcmp(a, "--out") && has_val) dir = argv[++i];
        else if (!strcmp(a, "--threads") && has_val) {
            if (!parse_count("--threads", argv[++i], 1, &threads)) return 2;
        } else if (!strcmp(a, "--steps") && has_val) {
            if (!parse_count("--steps", argv[++i], 0, &steps)) return 2;
        } else if (a[0] == '-') {
            fprintf(stderr, "floe run: unknown or incomplete option '%s' (see floe --help)\n", a);
            return 2;
        } else if (!path) path = a;
        else {
            fprintf(stderr, "floe run: more than one scene given ('%s', '%s')\n", path, a);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "floe run: no scene file given (see floe --help)\n");
        return 2;
    }
    floe_scene sc;
    char err[2048];
    if (floe_scene_load(path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    floe_world *w = sc.world;
    if (threads > 0) floe_set_threads(w, (int)threads);
    int64_t total = steps >= 0 ? steps : floe_scene_total_steps(&sc);
    double duration = steps >= 0 ? 0 : sc.duration; /* run: time ends on simulated time */
    floe_output *out = floe_output_open(dir, &sc.out, w, total, err, sizeof err);
    if (!out) {
        fprintf(stderr, "floe: %s\n", err);
        floe_scene_free(&sc);
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    int tty = isatty(STDERR_FILENO);
    fprintf(stderr, "floe %s: %s -> %s/: %d particles, %lld steps\n", FLOE_VERSION, path, dir,
            floe_particle_count(w), (long long)total);
    double t0 = now(), last = t0;
    int64_t log_every = sc.out.progress.steps > 0 ? sc.out.progress.steps : 0;
    int rc = 0;
    int64_t done = 0;
    for (; (duration > 0 ? floe_time(w) < duration * (1 - 1e-12) : done < total) && !interrupted; done++) {
        floe_status st = floe_step(w);
        if (st != FLOE_OK) {
            if (tty) fputc('\n', stderr);
            fprintf(stderr, "floe: %s\n", floe_last_error(w));
            rc = 1;
            break;
        }
        if (floe_output_step(out, w) != 0) {
            fprintf(stderr, "floe: writing outputs failed at step %lld\n", (long long)floe_step_count(w));
            rc = 1;
            break;
        }
        if ((done & 63) == 0 || log_every) {
            double t = now();
            int due = log_every ? (done + 1) % log_every == 0 : t - last >= (tty ? 0.25 : 10.0);
            if (due) {
                progress(w, done + 1, fraction(w, done + 1, total, duration), t0, tty, 0);
                last = t;
            }
        }
    }
    if (rc == 0) progress(w, done, fraction(w, done, total, duration), t0, tty, 1);
    if (interrupted) {
        fprintf(stderr, "floe: interrupted at step %lld; writing outputs\n", (long long)floe_step_count(w));
        rc = 130;
    }
    if (rc != 0) floe_output_snapshot(out, w);
    if (floe_output_close(out, w) != 0 && rc == 0) {
        fprintf(stderr, "floe: closing outputs failed\n");
        rc = 1;
    }
    double el = now() - t0;
    fprintf(stderr, "floe: %lld steps in %.2f s (%.3g particle-steps/s); outputs in %s/\n", (long long)done, el,
            el > 0 ? done * (double)floe_particle_count(w) / el : 0, dir);
    floe_scene_free(&sc);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("floe %s\n", FLOE_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "check")) {
        if (argc != 3) {
            fprintf(stderr, "usage: floe check SCENE\n");
            return 2;
        }
        return cmd_check(argv[2]);
    }
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    fprintf(stderr, "floe: unknown command '%s' (see floe --help)\n", cmd);
    return 2;
}
