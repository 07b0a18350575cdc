/* floe: the command-line front end. Loads a scene, runs it with progress,
 * writes outputs and restart files, stops cleanly on Ctrl-C, resumes from
 * restart files. Exit codes: 0 done (or stopped at --stop-at), 1 the run
 * failed (runaway, I/O), 2 bad usage, bad scene or unusable restart,
 * 130 interrupted. */
#include "io/output.h"
#include "io/restart.h"
#include "io/scene.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted = 0;
static void on_signal(int sig) { interrupted = sig; }

static void usage(FILE *f) {
    fprintf(f,
            "floe %s - discrete element method engine\n\n"
            "usage:\n"
            "  floe run SCENE [--out DIR] [--threads N] [--steps N] [--warmup N] [--restart-every N] [--stop-at S]\n"
            "                       run a scene, writing results into DIR (default: out);\n"
            "                       --warmup N: also report the rate of the steps after the first N\n"
            "                       --restart-every N: a restart file every N steps (the last two kept);\n"
            "                       --stop-at S: stop at step S with a restart file\n"
            "  floe resume DIR|FILE [--threads N] [--restart-every N] [--stop-at S]\n"
            "                       continue a run from its newest restart file (or FILE)\n"
            "  floe check SCENE     validate a scene file without running it\n"
            "  floe --version       print the version\n"
            "  floe --help          this text\n\n"
            "Scene format: docs/scene-format.md. Outputs: docs/outputs.md. Restarts: docs/restart.md.\n",
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

/* Options shared by run and resume. */
typedef struct opts {
    const char *path;          /* scene (run) or restart file or directory (resume) */
    const char *dir;
    long long threads, steps, restart_every, stop_at, warmup;
} opts;

static int parse_opts(const char *cmd, int argc, char **argv, opts *o) {
    *o = (opts){NULL, NULL, -1, -1, -1, -1, 0};
    int run = !strcmp(cmd, "run");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_val = i + 1 < argc;
        if (run && !strcmp(a, "--out") && has_val) o->dir = argv[++i];
        else if (!strcmp(a, "--threads") && has_val) {
            if (!parse_count("--threads", argv[++i], 1, &o->threads)) return 0;
        } else if (run && !strcmp(a, "--steps") && has_val) {
            if (!parse_count("--steps", argv[++i], 0, &o->steps)) return 0;
        } else if (run && !strcmp(a, "--warmup") && has_val) {
            if (!parse_count("--warmup", argv[++i], 0, &o->warmup)) return 0;
        } else if (!strcmp(a, "--restart-every") && has_val) {
            if (!parse_count("--restart-every", argv[++i], 0, &o->restart_every)) return 0;
        } else if (!strcmp(a, "--stop-at") && has_val) {
            if (!parse_count("--stop-at", argv[++i], 0, &o->stop_at)) return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "floe %s: unknown or incomplete option '%s' (see floe --help)\n", cmd, a);
            return 0;
        } else if (!o->path) o->path = a;
        else {
            fprintf(stderr, "floe %s: more than one %s given ('%s', '%s')\n", cmd, run ? "scene" : "restart", o->path, a);
            return 0;
        }
    }
    if (!o->path) {
        fprintf(stderr, "floe %s: no %s given (see floe --help)\n", cmd, run ? "scene file" : "output directory or restart file");
        return 0;
    }
    return 1;
}

/* A running simulation: the scene (or restored restart), its outputs and
 * the run settings, as a restart file records them. */
typedef struct session {
    floe_scene *sc;
    floe_output *out;
    const char *dir;
    int64_t total;             /* steps of the whole run */
    double duration;           /* > 0: the run ends on simulated time */
    int64_t restart_every;
    int64_t last_restart;      /* step of the newest restart file written */
} session;

/* Writes DIR/PREFIX_<step>.h5 with the outputs' counters as they are now. */
static int save_restart(session *s, const char *prefix) {
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene = *s->sc; /* borrowed: r is not freed */
    r.scene.duration = s->duration;
    r.total_steps = s->total;
    r.restart_every = s->restart_every;
    char err[2048], path[4096];
    if (floe_output_get_state(s->out, &r.output) != 0) {
        fprintf(stderr, "floe: cannot write a restart: %s\n", floe_output_error(s->out));
        return -1;
    }
    r.has_output = 1;
    if (floe_restart_save(s->dir, prefix, &r, path, sizeof path, err, sizeof err) != 0) {
        fprintf(stderr, "floe: cannot write a restart: %s\n", err);
        return -1;
    }
    s->last_restart = floe_step_count(s->sc->world);
    return 0;
}

/* The run loop of `run` and `resume`. */
/* Runs until the end (or stop_at); the rate of the steps after the first
 * `warmup` of this process is reported too (timing without start-up). */
static int run_loop(session *s, long long stop_at, long long warmup, int tty) {
    floe_world *w = s->sc->world;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    double t0 = now(), last = t0, t_warm = warmup == 0 ? t0 : -1;
    int64_t log_every = s->sc->out.progress.steps > 0 ? s->sc->out.progress.steps : 0;
    int rc = 0, stopped = 0, runaway = 0;
    int64_t done = 0; /* steps in this process */
    for (;; done++) {
        int64_t step = floe_step_count(w);
        if (s->duration > 0 ? !(floe_time(w) < s->duration * (1 - 1e-12)) : step >= s->total) break;
        if (interrupted) break;
        if (stop_at >= 0 && step >= stop_at) {
            stopped = 1;
            break;
        }
        floe_status st = floe_step(w);
        if (st != FLOE_OK) {
            if (tty) fputc('\n', stderr);
            fprintf(stderr, "floe: %s\n", floe_last_error(w));
            runaway = st == FLOE_ERR_RUNAWAY;
            rc = 1;
            break;
        }
        if (floe_output_step(s->out, w) != 0) {
            fprintf(stderr, "floe: writing outputs failed at step %lld: %s\n", (long long)floe_step_count(w),
                    floe_output_error(s->out));
            rc = 1;
            break;
        }
        if (done + 1 == warmup) t_warm = now();
        step = floe_step_count(w);
        if (s->restart_every > 0 && step % s->restart_every == 0 && save_restart(s, "restart") != 0) {
            rc = 1; /* a run that cannot checkpoint should not go on for days */
            break;
        }
        if ((done & 63) == 0 || log_every) {
            double t = now();
            int due = log_every ? (step % log_every) == 0 : t - last >= (tty ? 0.25 : 10.0);
            if (due) {
                progress(w, done + 1, fraction(w, step, s->total, s->duration), t0, tty, 0);
                last = t;
            }
        }
    }
    int64_t step = floe_step_count(w);
    if (rc == 0) progress(w, done, fraction(w, step, s->total, s->duration), t0, tty, 1);
    if (interrupted) {
        fprintf(stderr, "floe: interrupted at step %lld; writing outputs\n", (long long)step);
        rc = 130;
    }
    /* a restart before the final snapshot: the resumed run drops that snapshot */
    int want = (interrupted && s->restart_every > 0) || stopped;
    if (want && s->last_restart != step && save_restart(s, "restart") != 0) rc = rc ? rc : 1;
    if (runaway) {
        /* the state that blew up, for inspection; resume uses the last good restart */
        if (save_restart(s, "runaway") == 0)
            fprintf(stderr, "floe: the state at the failure is in %s/runaway_%012lld.h5%s\n", s->dir, (long long)step,
                    s->restart_every > 0 ? "; the last good state is in the newest restart_*.h5" : "");
    }
    if (stopped)
        fprintf(stderr, "floe: stopped at step %lld as asked; continue with: floe resume %s\n", (long long)step, s->dir);
    if (rc != 0 || stopped) floe_output_snapshot(s->out, w);
    if (floe_output_close(s->out, w) != 0 && rc == 0) {
        fprintf(stderr, "floe: closing outputs failed\n");
        rc = 1;
    }
    s->out = NULL;
    double t1 = now(), el = t1 - t0;
    fprintf(stderr, "floe: %lld steps in %.2f s (%.3g particle-steps/s); outputs in %s/\n", (long long)done, el,
            el > 0 ? done * (double)floe_particle_count(w) / el : 0, s->dir);
    if (warmup > 0 && t_warm >= 0 && done > warmup)
        fprintf(stderr, "floe: after %lld warm-up steps: %lld steps in %.3f s (%.3g particle-steps/s)\n", warmup,
                (long long)(done - warmup), t1 - t_warm,
                t1 > t_warm ? (done - warmup) * (double)floe_particle_count(w) / (t1 - t_warm) : 0);
    return rc;
}

static int cmd_run(int argc, char **argv) {
    opts o;
    if (!parse_opts("run", argc, argv, &o)) return 2;
    const char *dir = o.dir ? o.dir : "out";
    floe_scene sc;
    char err[2048];
    if (floe_scene_load(o.path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    floe_world *w = sc.world;
    if (o.threads > 0) floe_set_threads(w, (int)o.threads);
    int64_t total = o.steps >= 0 ? o.steps : floe_scene_total_steps(&sc);
    double duration = o.steps >= 0 ? 0 : sc.duration; /* run: time ends on simulated time */
    floe_output *out = floe_output_open(dir, &sc.out, w, total, err, sizeof err);
    if (!out) {
        fprintf(stderr, "floe: %s\n", err);
        floe_scene_free(&sc);
        return 1;
    }
    fprintf(stderr, "floe %s: %s -> %s/: %d particles, %lld steps, %d thread%s\n", FLOE_VERSION, o.path, dir,
            floe_particle_count(w), (long long)total, floe_thread_count(w), floe_thread_count(w) > 1 ? "s" : "");
    /* restart files of an earlier run here would be taken for this run's */
    int stale = floe_restart_clear(dir);
    if (stale > 0) fprintf(stderr, "floe: removed %d restart file(s) of an earlier run in %s/\n", stale, dir);
    session s = {&sc, out, dir, total, duration, o.restart_every > 0 ? o.restart_every : 0, -1};
    int rc = run_loop(&s, o.stop_at, o.warmup, isatty(STDERR_FILENO));
    floe_scene_free(&sc);
    return rc;
}

/* floe resume DIR|FILE: the newest restart file that loads (an older one if
 * the newest is damaged), outputs continued in the file's directory. */
static int cmd_resume(int argc, char **argv) {
    opts o;
    if (!parse_opts("resume", argc, argv, &o)) return 2;
    struct stat st;
    if (stat(o.path, &st) != 0) {
        fprintf(stderr, "floe resume: %s: %s\n", o.path, strerror(errno));
        return 2;
    }
    enum { MAXR = 8 };
    char(*files)[4096] = malloc(sizeof *files * MAXR);
    char dir[4096];
    if (!files) return 1;
    int n = 0;
    if (S_ISDIR(st.st_mode)) {
        snprintf(dir, sizeof dir, "%s", o.path);
        n = floe_restart_list(dir, files, MAXR);
        if (n > MAXR) n = MAXR;
        if (n == 0) fprintf(stderr, "floe resume: no restart_*.h5 in %s (run with --restart-every N)\n", dir);
    } else {
        snprintf(files[0], sizeof files[0], "%s", o.path);
        snprintf(dir, sizeof dir, "%s", o.path);
        char *slash = strrchr(dir, '/');
        if (!slash) snprintf(dir, sizeof dir, ".");
        else if (slash == dir) dir[1] = 0;
        else *slash = 0;
        n = 1;
    }
    floe_restart r;
    char err[2048];
    int got = -1;
    for (int i = 0; i < n && got < 0; i++) {
        if (floe_restart_load(files[i], &r, err, sizeof err) == 0) got = i;
        else fprintf(stderr, "floe resume: %s%s\n", err, i + 1 < n ? "; trying the previous restart" : "");
    }
    if (got < 0) {
        free(files);
        return 2;
    }
    floe_world *w = r.scene.world;
    const char *why = NULL;
    if (r.stopped) why = "it holds the state of a run that blew up (resume from a restart_*.h5 instead)";
    else if (!r.has_output) why = "it has no output counters (not written by floe run)";
    if (why) {
        fprintf(stderr, "floe resume: cannot resume from %s: %s\n", files[got], why);
        floe_restart_free(&r);
        free(files);
        return 2;
    }
    if (o.threads > 0) floe_set_threads(w, (int)o.threads);
    char note[1024];
    if (floe_restart_fresh_outputs(dir, &r, note, sizeof note, err, sizeof err) != 0) {
        fprintf(stderr, "floe resume: %s\n", err);
        floe_restart_free(&r);
        free(files);
        return 1;
    }
    if (note[0]) fprintf(stderr, "floe resume: note: %s\n", note);
    floe_output *out = floe_output_resume(dir, &r.scene.out, w, &r.output, err, sizeof err);
    if (!out) {
        fprintf(stderr, "floe resume: %s\n", err);
        floe_restart_free(&r);
        free(files);
        return 1;
    }
    fprintf(stderr, "floe %s: resuming %s from %s at step %lld of %lld: %d particles\n", FLOE_VERSION,
            r.scene.path, files[got], (long long)floe_step_count(w), (long long)r.total_steps,
            floe_particle_count(w));
    free(files);
    int64_t every = o.restart_every >= 0 ? o.restart_every : r.restart_every;
    session s = {&r.scene, out, dir, r.total_steps, r.scene.duration, every, floe_step_count(w)};
    int rc = run_loop(&s, o.stop_at, o.warmup, isatty(STDERR_FILENO));
    floe_restart_free(&r);
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
    if (!strcmp(cmd, "resume")) return cmd_resume(argc - 2, argv + 2);
    fprintf(stderr, "floe: unknown command '%s' (see floe --help)\n", cmd);
    return 2;
}
