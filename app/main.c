/* floe: the command-line front end. Loads a scene, runs it with progress,
 * writes outputs and restart files, stops cleanly on Ctrl-C, resumes from
 * restart files. Exit codes: 0 done (or stopped at --stop-at), 1 the run
 * failed (runaway, I/O), 2 bad usage, bad scene or unusable restart,
 * 130 interrupted. */
#include <floe/floe_io.h>
#include "render.h"

#include <errno.h>
#include <limits.h> /* PATH_MAX */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef FLOE_WITH_MPI
#include "mpi/dist.h"
#else
/* the build without MPI: one process, nothing to hand on or compare */
static int floe_dist_lead(floe_world *w, int threads) { return (void)w, (void)threads, 0; }
static int floe_dist_go(floe_world *w, int go) { return (void)w, (void)go, 0; }
#endif

static volatile sig_atomic_t interrupted = 0;
static void on_signal(int sig) { interrupted = sig; }

/* SIGINT and SIGTERM set the flag that the run loop reads between steps
 * and that the library polls inside long loops (loading, insertion). */
static void catch_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
static int poll_signals(void *ctx) {
    (void)ctx;
    return interrupted != 0;
}

/* Where the docs are: installed beside the command (make install: PREFIX/share/doc/floe for
 * PREFIX/bin/floe), else the source tree's docs/ this command was built from. */
static const char *docs_dir(void) {
    static char dir[PATH_MAX + 32];
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        for (int up = 0; up < 2; up++) { /* PREFIX/bin/floe -> PREFIX */
            char *slash = strrchr(exe, '/');
            if (slash) *slash = 0;
        }
        snprintf(dir, sizeof dir, "%s/share/doc/floe/", exe);
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return dir;
    }
    return FLOE_SOURCE_DOCS "/";
}

static void usage(FILE *f) {
    fprintf(f,
            "floe %s - discrete element method engine\n\n"
            "usage:\n"
            "  floe run SCENE [--out DIR] [--threads N] [--steps N | --time T] [--warmup N]\n"
            "                 [--restart-every N] [--stop-at S]\n"
            "                       run a scene, writing results into DIR (default: out);\n"
            "                       --threads N: OpenMP threads, 0..4096 (0: automatic, the default)\n"
            "                       --steps N: end at step N; --time T: end at simulated time T s\n"
            "                       --warmup N: also report the rate of the steps after the first N\n"
            "                       --restart-every N: a restart file every N steps, on Ctrl-C and\n"
            "                       at the end (the last two kept)\n"
            "                       --stop-at S: stop at step S with a restart file\n"
            "  floe resume DIR|FILE [--threads N] [--steps N | --time T] [--warmup N]\n"
            "                 [--restart-every N] [--stop-at S]\n"
            "                       continue a run from its newest restart file (or FILE);\n"
            "                       --steps/--time move the run's end (e.g. extend a finished run)\n"
            "  floe check SCENE     validate a scene file without running it\n"
            "  floe render DIR [--frame N | --time T] [--color speed|group|floe|stress|none]\n"
            "                 [--view auto|side|top|front|top,side] [--png FILE] [--size WxH]\n"
            "                 [--movie FILE.gif|FILE.mp4 [--fps N] [--every N]]\n"
            "                       a PNG of a frame of the run in DIR (default: the last, into\n"
            "                       DIR/render_<step>.png), or a GIF/MP4 of every frame\n"
            "                       (Python 3 with matplotlib; MP4: ffmpeg); floe render DIR --help\n"
            "  floe keys --markdown the scene's key tables (world, inlets, sinks, phases, dense) as the\n"
            "                       docs show them (docs/scene-format.md)\n"
            "  floe --version       print the version\n"
            "  floe --help          this text\n\n"
            "Options also take the form --name=value. OpenMP threads wait passively\n"
            "(OMP_WAIT_POLICY=passive) unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set.\n"
            "Manual: man floe. Scene format: scene-format.md, outputs: outputs.md, restarts: restart.md,\n"
            "Python: python.md, pictures: render.md, in %s\n",
            floe_version(), docs_dir());
}

/* libgomp reads OMP_WAIT_POLICY once, in a constructor that runs before
 * main, and by default its idle threads spin. With another busy process on
 * the machine a spinning thread holds the core that the thread it waits for
 * needs, and 2 threads run ~10x slower than 1 (docs/performance.md). So the
 * CLI executes itself again, once, with OMP_WAIT_POLICY=passive, unless the
 * user chose a policy or a spin count. The variable it sets is what stops a
 * second re-execution. If the re-execution fails, the run goes on as is. */
static void exec_with_passive_wait(char **argv) {
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return;
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || n >= (ssize_t)sizeof self - 1) return;
    self[n] = 0;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
    execv(self, argv);
    unsetenv("OMP_WAIT_POLICY"); /* still here: libgomp keeps its default */
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

/* Columns of the terminal on stderr; COLUMNS, then 80, when it cannot say. */
static int term_columns(void) {
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *c = getenv("COLUMNS");
    long v = c ? strtol(c, NULL, 10) : 0;
    return v > 0 && v < 10000 ? (int)v : 80;
}

/* The fields of the progress bar line, in screen order. */
enum { F_PCT, F_STEP, F_TIME, F_RATE, F_ETA, F_CONTACTS, F_ERR, NFIELDS };
enum { BAR_MIN = 8, BAR_MAX = 24 };

/* Lays out the bar line in fewer than `cols` columns (text in the last
 * column would wrap and scroll): the least useful fields go first, then the
 * bar shrinks and goes; the percentage, step and ETA stay. */
static void fit_line(char *line, size_t n, char field[NFIELDS][48], double frac, int cols) {
    static const int drop[] = {F_ERR, F_CONTACTS, F_RATE, F_TIME};
    int keep[NFIELDS], len = -2, avail = cols - 1;
    for (int i = 0; i < NFIELDS; i++) {
        keep[i] = 1;
        len += (int)strlen(field[i]) + 2;
    }
    for (size_t k = 0; k < sizeof drop / sizeof *drop && len + BAR_MIN + 4 > avail; k++) {
        keep[drop[k]] = 0;
        len -= (int)strlen(field[drop[k]]) + 2;
    }
    int bar = avail - len - 4, pos = 0; /* "[" bar "]" and a separator */
    if (bar > BAR_MAX) bar = BAR_MAX;
    line[0] = 0;
    if (bar >= BAR_MIN) {
        int fill = (int)(bar * frac);
        line[pos++] = '[';
        for (int i = 0; i < bar; i++) line[pos++] = i < fill ? '#' : '.';
        line[pos++] = ']';
        line[pos] = 0;
    }
    for (int i = 0; i < NFIELDS; i++)
        if (keep[i] && pos < (int)n) pos += snprintf(line + pos, n - pos, "%s%s", pos ? "  " : "", field[i]);
    if (avail >= 0 && avail < (int)n) line[avail] = 0; /* a very narrow terminal: cut */
}

/* One progress report: a bar redrawn in place on a terminal, a plain line
 * otherwise. `total`: the run's last step; `approx`: it is an estimate
 * (dt: auto), which the caller updates from the current dt. The ETA is the
 * steps left at this process's rate of steps. */
static void progress(floe_world *w, int64_t done, double frac, int64_t total, int approx, double t0, int tty,
                     int final) {
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    double el = now() - t0, rate = el > 0 ? done / el : 0;
    long long step = floe_step_count(w), left = total > step ? total - step : 0;
    char eta[32];
    fmt_duration(rate > 0 ? (double)left / rate : -1, eta, sizeof eta);
    const char *ap = approx ? "~" : "";
    if (!tty) {
        fprintf(stderr,
                "%5.1f%%  step %lld of %s%lld  t=%.6g s  %.0f steps/s  ETA %s%s  contacts %d  energy_error %.3e\n",
                100 * frac, step, ap, (long long)total, floe_time(w), rate, ap, eta, floe_contact_count(w),
                e[FLOE_E_ERROR]);
        fflush(stderr);
        return;
    }
    char f[NFIELDS][48], line[512];
    snprintf(f[F_PCT], sizeof f[0], "%3d%%", (int)(100 * frac));
    snprintf(f[F_STEP], sizeof f[0], "step %lld/%s%lld", step, ap, (long long)total);
    snprintf(f[F_TIME], sizeof f[0], "t=%.4g s", floe_time(w));
    snprintf(f[F_RATE], sizeof f[0], "%.0f steps/s", rate);
    snprintf(f[F_ETA], sizeof f[0], "ETA %s%s", ap, eta);
    snprintf(f[F_CONTACTS], sizeof f[0], "contacts %d", floe_contact_count(w));
    snprintf(f[F_ERR], sizeof f[0], "E.err %+.1e", e[FLOE_E_ERROR]);
    fit_line(line, sizeof line, f, frac, term_columns());
    /* \033[K clears the rest of the line: a shorter line leaves nothing behind */
    fprintf(stderr, "\r%s\033[K%s", line, final ? "\n" : "");
    fflush(stderr);
}

/* The world's dt is chosen during the run (dt: auto): a run given in
 * simulated time then has no step count known in advance. */

/* Steps that `duration` seconds take with the world's current dt, rounded
 * as the scene loader does (docs/scene-format.md). */
static int64_t steps_for(const floe_scene *sc, double duration) {
    floe_scene tmp = *sc;
    tmp.steps = 0;
    tmp.duration = duration;
    return floe_scene_total_steps(&tmp);
}

static int cmd_check(const char *path) {
    floe_scene sc;
    char err[2048];
    if (floe_scene_load(path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    if (sc.warnings) fputs(sc.warnings, stderr); /* likely mistakes that do not stop a run */
    int est = sc.duration > 0 && floe_dt_is_auto(sc.world);
    int np = floe_particle_count(sc.world), nm = floe_material_count(sc.world), ng = floe_group_count(sc.world);
    printf("%s: ok: %d particle%s, %d material%s, %d group%s, %s%lld steps of %s%.4g s%s\n", path, np,
           np == 1 ? "" : "s", nm, nm == 1 ? "" : "s", ng, ng == 1 ? "" : "s", est ? "~" : "",
           (long long)floe_scene_total_steps(&sc), est ? "~" : "", floe_dt(sc.world),
           est ? " (dt: auto, estimate: the step changes during the run)" : "");
    floe_scene_free(&sc);
    return 0;
}

/* A whole number in [lo, hi], digits only (and a leading '-'): "1e3",
 * "+5", " 5", "0x10" and anything that overflows are refused with the range. */
static int parse_int(const char *opt, const char *s, long long lo, long long hi, const char *note, long long *out) {
    const char *p = s + (*s == '-');
    int ok = *p != 0;
    for (; *p; p++) ok &= *p >= '0' && *p <= '9';
    errno = 0;
    long long v = ok ? strtoll(s, NULL, 10) : 0;
    if (!ok || errno == ERANGE || v < lo || v > hi) {
        fprintf(stderr, "floe: %s expects a whole number in [%lld, %lld]%s, got '%s'\n", opt, lo, hi, note, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* A finite number of seconds > 0. */
static int parse_seconds(const char *opt, const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v) || !(v > 0)) {
        fprintf(stderr, "floe: %s expects a time in seconds > 0 (e.g. 0.5 or 2e-3), got '%s'\n", opt, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* Options shared by run and resume. */
typedef struct opts {
    const char *path; /* scene (run) or restart file or directory (resume) */
    const char *dir;
    long long threads, steps, restart_every, stop_at, warmup;
    double time; /* --time, or 0 */
} opts;

static const char *const option_names[] = {"--out",    "--threads",       "--steps",  "--time",
                                           "--warmup", "--restart-every", "--stop-at"};
enum { NOPTIONS = sizeof option_names / sizeof *option_names };

/* "; did you mean 'X'?" for a mistyped word, or "". */
static const char *did_you_mean(const char *word, const char *const *names, int n, char *buf, size_t len) {
    const char *s = floe_suggest(word, names, n);
    snprintf(buf, len, "%s%s%s", s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
    return buf;
}

/* One option: its value parsed into *o. 0 (with a message) if refused. */
static int set_option(const char *cmd, const char *name, const char *val, opts *o) {
    if (!strcmp(name, "--out")) {
        if (strcmp(cmd, "run") != 0) {
            fprintf(stderr, "floe resume: --out is not accepted: a resumed run continues the outputs in the "
                            "directory of its restart file (copy that directory to continue elsewhere)\n");
            return 0;
        }
        o->dir = val;
        return 1;
    }
    if (!strcmp(name, "--threads")) return parse_int(name, val, 0, 4096, " (0: automatic)", &o->threads);
    if (!strcmp(name, "--steps")) return parse_int(name, val, 0, INT64_MAX, "", &o->steps);
    if (!strcmp(name, "--time")) return parse_seconds(name, val, &o->time);
    if (!strcmp(name, "--warmup")) return parse_int(name, val, 0, INT64_MAX, "", &o->warmup);
    if (!strcmp(name, "--restart-every")) return parse_int(name, val, 0, INT64_MAX, " (0: none)", &o->restart_every);
    return parse_int(name, val, 0, INT64_MAX, "", &o->stop_at); /* --stop-at */
}

/* 1: parsed; 0: refused (exit 2); -1: --help was asked for. */
static int parse_opts(const char *cmd, int argc, char **argv, opts *o) {
    *o = (opts){NULL, NULL, -1, -1, -1, -1, 0, 0};
    int run = !strcmp(cmd, "run");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) {
            if (o->path) {
                fprintf(stderr, "floe %s: more than one %s given ('%s', '%s')\n", cmd, run ? "scene" : "restart",
                        o->path, a);
                return 0;
            }
            o->path = a;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return -1;
        /* --name value, or --name=value */
        char name[64];
        const char *val = NULL, *eq = strchr(a, '=');
        size_t len = eq && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), a);
        if (eq && a[1] == '-') val = eq + 1;
        int known = 0;
        for (int k = 0; k < NOPTIONS; k++) known |= !strcmp(name, option_names[k]);
        if (!known) {
            char hint[96];
            fprintf(stderr, "floe %s: unknown option '%s'%s (see floe --help)\n", cmd, a,
                    did_you_mean(name, option_names, NOPTIONS, hint, sizeof hint));
            return 0;
        }
        if (!val && i + 1 >= argc) {
            fprintf(stderr, "floe %s: %s needs a value (see floe --help)\n", cmd, name);
            return 0;
        }
        if (!set_option(cmd, name, val ? val : argv[++i], o)) return 0;
    }
    if (o->steps >= 0 && o->time > 0) {
        fprintf(stderr, "floe %s: give --steps or --time, not both\n", cmd);
        return 0;
    }
    if (!o->path) {
        fprintf(stderr, "floe %s: no %s given (see floe --help)\n", cmd,
                run ? "scene file" : "output directory or restart file");
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
    int64_t total;   /* steps of the whole run; an estimate when on_time */
    double duration; /* > 0: the run was asked for in simulated seconds */
    int on_time;     /* it ends on simulated time (dt: auto), not at step `total` */
    int64_t restart_every;
    int64_t last_restart;    /* step of the newest restart file of this run (-1: none) */
    char restart_path[4096]; /* ... and its path ("": none) */
} session;

/* A run that ends on simulated time with dt: auto: its last step estimated
 * as the steps done plus the time left over the current dt. The step
 * changes during the run (contacts form and stiffen, or open), so the
 * estimate is renewed at every progress report and the bar's total and
 * ETA follow it; the run still ends on the time, not on this count. */
static void update_estimate(session *s) {
    if (!s->on_time) return;
    floe_world *w = s->sc->world;
    int64_t step = floe_step_count(w),
            rest = s->duration > floe_time(w) ? steps_for(s->sc, s->duration - floe_time(w)) : 0;
    s->total = rest > INT64_MAX - step ? INT64_MAX : step + rest;
}

/* Where the run ends: at step `steps`, or after `duration` seconds (> 0).
 * With a fixed dt a duration is ceil(duration/dt) steps, as the scene
 * format says; with dt: auto the step changes during the run, so the run
 * ends at the first step whose time is at or after `duration`, and `total`
 * is an estimate from the current dt. */
static void set_end(session *s, int64_t steps, double duration) {
    floe_world *w = s->sc->world;
    s->duration = duration > 0 ? duration : 0;
    s->on_time = s->duration > 0 && floe_dt_is_auto(w);
    if (!(s->duration > 0)) s->total = steps;
    else if (!s->on_time) s->total = steps_for(s->sc, duration);
    else update_estimate(s);
}

static int run_ended(const session *s, const floe_world *w) {
    /* 1e-12: the time summed over many steps may fall short of T by rounding */
    if (s->on_time) return !(floe_time(w) < s->duration * (1 - 1e-12));
    return floe_step_count(w) >= s->total;
}

/* Fraction of the run done: by simulated time when the run ends on it, by
 * steps otherwise. */
static double fraction(const session *s, const floe_world *w) {
    if (s->on_time) return fmin(1.0, floe_time(w) / s->duration);
    return s->total > 0 ? fmin(1.0, (double)floe_step_count(w) / (double)s->total) : 1.0;
}

/* "N steps" or "~N steps (dt: auto, estimate) to t = T s". */
static const char *describe_end(const session *s, char *buf, size_t n) {
    if (s->on_time) snprintf(buf, n, "~%lld steps (dt: auto, estimate) to t = %g s", (long long)s->total, s->duration);
    else snprintf(buf, n, "%lld steps", (long long)s->total);
    return buf;
}

/* Refuses (exit 2) an end or a --stop-at that could not take effect from
 * where the world stands (`resuming`: a restored run goes on). */
static int check_end(const session *s, const opts *o, int resuming) {
    const char *cmd = resuming ? "floe resume" : "floe run";
    floe_world *w = s->sc->world;
    long long step = floe_step_count(w);
    if (resuming && o->steps >= 0 && o->steps < step) {
        fprintf(stderr,
                "%s: --steps %lld is before the current step %lld (--steps is the run's whole length, "
                "counted from step 0)\n",
                cmd, o->steps, step);
        return 0;
    }
    if (resuming && o->time > 0 && (s->on_time ? !(o->time > floe_time(w)) : s->total < step)) {
        fprintf(stderr, "%s: --time %g s is not after the run's current time %.9g s (step %lld)\n", cmd, o->time,
                floe_time(w), step);
        return 0;
    }
    if (s->duration > 0 && !s->on_time && s->total == INT64_MAX) {
        fprintf(stderr, "%s: the run would take more than 2^63 steps of %g s\n", cmd, floe_dt(w));
        return 0;
    }
    if (o->stop_at < 0) return 1;
    if (resuming && o->stop_at <= step) {
        fprintf(stderr, "%s: --stop-at %lld is not after the current step %lld\n", cmd, o->stop_at, step);
        return 0;
    }
    if (!s->on_time && o->stop_at > s->total) {
        fprintf(stderr,
                "%s: --stop-at %lld is after the run's end at step %lld, so it would never take effect "
                "(give --steps or --time to make the run longer)\n",
                cmd, o->stop_at, (long long)s->total);
        return 0;
    }
    return 1;
}

/* Writes DIR/PREFIX_<step>.h5 with the outputs' counters as they are now;
 * its path goes to `path`. */
static int save_restart(session *s, const char *prefix, char *path, size_t pathlen) {
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene = *s->sc; /* borrowed: r is not freed */
    r.scene.duration = s->duration;
    r.total_steps = s->total;
    r.restart_every = s->restart_every;
    char err[2048];
    if (floe_output_get_state(s->out, &r.output) != 0) {
        fprintf(stderr, "floe: cannot write a restart: %s\n", floe_output_error(s->out));
        return -1;
    }
    r.has_output = 1;
    if (floe_restart_save(s->dir, prefix, &r, path, pathlen, err, sizeof err) != 0) {
        fprintf(stderr, "floe: cannot write a restart: %s\n", err);
        return -1;
    }
    return 0;
}

static int save_checkpoint(session *s) {
    if (save_restart(s, "restart", s->restart_path, sizeof s->restart_path) != 0) return -1;
    s->last_restart = floe_step_count(s->sc->world);
    return 0;
}

/* After Ctrl-C: how (and whether) the run can go on. */
static void say_how_to_continue(const session *s, int64_t step) {
    if (s->restart_path[0] && s->last_restart == step)
        fprintf(stderr, "floe: continue with: floe resume %s (restart file %s)\n", s->dir, s->restart_path);
    else if (s->restart_path[0])
        fprintf(stderr, "floe: the newest restart file is %s (step %lld): floe resume %s continues from there\n",
                s->restart_path, (long long)s->last_restart, s->dir);
    else
        fprintf(stderr,
                "floe: no restart file exists, so this run cannot be continued; run with --restart-every N "
                "(a restart file every N steps and on Ctrl-C) to be able to continue with floe resume %s\n",
                s->dir);
}

/* The world records only the events someone reads: those the scene's
 * events.csv keeps, and inlet_short and energy_error for warn_events. A dense packing's
 * first step creates every contact at once; recording their creation
 * events for nobody cost 24 MB at 100k spheres. */
static void record_wanted_events(floe_world *w, const floe_output_config *out) {
    floe_set_event_types(w, (~out->events_skip & FLOE_EVENTS_ALL) | 1u << FLOE_EVENT_INLET_SHORT |
                                1u << FLOE_EVENT_ENERGY_ERROR);
}

/* An inlet that cannot keep its rate says so once (its inlet_short
 * event), and so does a run whose energy balance error passed the scene's
 * world.energy_warn (its energy_error event). */
static void warn_events(floe_world *w, int tty) {
    floe_event_list ev = floe_events(w);
    for (int i = 0; i < ev.count; i++) {
        const floe_event *e = &ev.events[i];
        if (e->type == FLOE_EVENT_ENERGY_ERROR) {
            fprintf(
                stderr,
                "%sfloe: warning: the energy balance error is %.3g at step %lld (t = %g s), above world.energy_warn "
                "= %g: the time step is too long for the accuracy this run needs (lower world.dt_safety or "
                "world.dt; docs/integration.md#time-step-accuracy)\n",
                tty ? "\n" : "", e->value[0], (long long)e->step, e->time, e->value[1]);
            continue;
        }
        if (e->type != FLOE_EVENT_INLET_SHORT) continue;
        floe_inlet_stats st;
        floe_inlet_def d;
        if (floe_inlet_get(w, e->b, &st, &d) != FLOE_OK) continue;
        const char *u = d.by_mass ? "kg" : "bodies";
        fprintf(stderr,
                "%sfloe: warning: inlet '%s' cannot keep its rate of %g %s/s at t = %g s: a body found no room in "
                "%d tries; %.6g %s asked for so far, %.6g inserted (%lld failed attempts, %lld tries); the "
                "missed amount is dropped (lower the rate or enlarge the region)\n",
                tty ? "\n" : "", st.name, d.rate, u, e->time, d.max_tries, e->value[0], u, e->value[1],
                (long long)st.failures, (long long)st.tries);
    }
}

/* The run loop of `run` and `resume`: runs until the end (or stop_at); the
 * rate of the steps after the first `warmup` of this process is reported
 * too (timing without start-up). */
static int run_loop(session *s, long long stop_at, long long warmup, int tty) {
    floe_world *w = s->sc->world;
    catch_signals();
    floe_set_interrupt(w, poll_signals, NULL);

    double t0 = now(), last = t0, t_warm = warmup == 0 ? t0 : -1;
    /* output.progress sets the plain log lines; a terminal's bar is redrawn 4 times a second */
    int64_t log_every = !tty && s->sc->out.progress.steps > 0 ? s->sc->out.progress.steps : 0;
    int rc = 0, stopped = 0, runaway = 0, failed = 0, cut = 0;
    int64_t done = 0; /* steps in this process, a failed one included */
    /* particle-steps: the bodies each step starts with, summed over the steps
     * (inlets and sinks change the count as the run goes) */
    int64_t psteps = 0, psteps_warm = warmup == 0 ? 0 : -1;
    for (;;) {
        int64_t step = floe_step_count(w);
        if (interrupted) break;
        if (stop_at >= 0 && step >= stop_at) { /* before the end: --stop-at at the last step takes effect */
            stopped = 1;
            break;
        }
        if (run_ended(s, w)) break;
        if (floe_dist_go(w, 1) != 0) { /* under mpirun: another rank's state differs */
            failed = rc = 1;
            break;
        }
        psteps += floe_particle_count(w);
        floe_status st = floe_step(w);
        done++;
        if (st == FLOE_INTERRUPTED) { /* within the inlets' insertion: the state is whole */
            cut = 1;
            if (tty) fputc('\n', stderr);
            fprintf(stderr, "floe: %s\n", floe_last_error(w));
            break;
        }
        if (st != FLOE_OK) {
            if (tty) fputc('\n', stderr);
            fprintf(stderr, "floe: %s\n", floe_last_error(w));
            runaway = st == FLOE_ERR_RUNAWAY;
            failed = rc = 1;
            break;
        }
        warn_events(w, tty);
        if (floe_output_step(s->out, w) != 0) {
            fprintf(stderr, "floe: writing outputs failed at step %lld: %s\n", (long long)floe_step_count(w),
                    floe_output_error(s->out));
            rc = 1;
            break;
        }
        if (done == warmup) t_warm = now(), psteps_warm = psteps;
        step = floe_step_count(w);
        if (s->restart_every > 0 && step % s->restart_every == 0 && save_checkpoint(s) != 0) {
            rc = 1; /* a run that cannot checkpoint should not go on for days */
            break;
        }
        if ((done & 63) == 1 || log_every) {
            double t = now();
            int due = log_every ? (step % log_every) == 0 : t - last >= (tty ? 0.25 : 10.0);
            if (due) {
                update_estimate(s);
                progress(w, done, fraction(s, w), s->total, s->on_time, t0, tty, 0);
                last = t;
            }
        }
    }
    if (floe_dist_go(w, cut ? -1 : 0) != 0 && rc == 0) rc = 1; /* the other ranks stop too */
    int64_t step = floe_step_count(w);
    update_estimate(s);
    if (rc == 0) progress(w, done, fraction(s, w), s->total, s->on_time, t0, tty, 1);
    int finished = rc == 0 && !interrupted && !stopped;
    if (interrupted) {
        fprintf(stderr, "floe: interrupted at step %lld; writing outputs\n", (long long)step);
        rc = 130;
    }
    /* the restart before the final snapshot: a resumed run drops that snapshot.
     * One at the end lets `floe resume DIR --steps N` extend a finished run. */
    int want = stopped || (s->restart_every > 0 && (interrupted || finished));
    if (want && s->last_restart != step && save_checkpoint(s) != 0) rc = rc ? rc : 1;
    if (interrupted) say_how_to_continue(s, step);
    if (runaway) {
        /* the state that blew up, for inspection; resume uses the last good restart */
        char path[4096];
        if (save_restart(s, "runaway", path, sizeof path) == 0)
            fprintf(stderr, "floe: the state at the failure is in %s\n", path);
        if (s->restart_path[0])
            fprintf(stderr, "floe: the last good state is in %s (step %lld)\n", s->restart_path,
                    (long long)s->last_restart);
    }
    if (stopped)
        fprintf(stderr, "floe: stopped at step %lld as asked; continue with: floe resume %s\n", (long long)step,
                s->dir);
    else if (finished && stop_at >= 0)
        fprintf(stderr, "floe: the run reached its end at step %lld (t = %.9g s) before --stop-at %lld\n",
                (long long)step, floe_time(w), stop_at);
    if (rc != 0 || stopped) floe_output_snapshot(s->out, w);
    if (floe_output_close(s->out, w) != 0 && rc == 0) {
        fprintf(stderr, "floe: closing outputs failed\n");
        rc = 1;
    }
    s->out = NULL;
    double t1 = now(), el = t1 - t0;
    fprintf(stderr,
            "floe: %lld step%s%s in %.2f s (%lld particle-steps, %.3g particle-steps/s); now at step %lld, t = %.9g "
            "s; outputs in %s/\n",
            (long long)done, done == 1 ? "" : "s", failed ? " (the last one failed)" : "", el, (long long)psteps,
            el > 0 ? (double)psteps / el : 0, (long long)step, floe_time(w), s->dir);
    if (warmup > 0 && t_warm >= 0 && psteps_warm >= 0 && done > warmup)
        fprintf(stderr,
                "floe: after %lld warm-up steps: %lld steps in %.3f s (%lld particle-steps, %.3g particle-steps/s)\n",
                warmup, (long long)(done - warmup), t1 - t_warm, (long long)(psteps - psteps_warm),
                t1 > t_warm ? (double)(psteps - psteps_warm) / (t1 - t_warm) : 0);
    return rc;
}

static int cmd_run(int argc, char **argv) {
    opts o;
    int p = parse_opts("run", argc, argv, &o);
    if (p <= 0) {
        if (p < 0) usage(stdout);
        return p < 0 ? 0 : 2;
    }
    const char *dir = o.dir ? o.dir : "out";
    floe_scene sc;
    char err[2048];
    catch_signals(); /* generators, dense packings and large tables can take a while */
    if (floe_scene_load_interruptible(o.path, poll_signals, NULL, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return interrupted ? 130 : 2;
    }
    if (interrupted) { /* between two polls of the loader: nothing written yet */
        fprintf(stderr, "floe: interrupted while loading %s\n", o.path);
        floe_scene_free(&sc);
        return 130;
    }
    if (sc.warnings) fputs(sc.warnings, stderr); /* as floe check prints them */
    /* a scene of run length 0 made to run by --steps / --time meets the
     * checks of a run now (its time step, its initial overlaps) */
    if (floe_scene_check_run(&sc, o.steps, o.time, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        floe_scene_free(&sc);
        return 2;
    }
    floe_world *w = sc.world;
    if (o.threads >= 0) floe_set_threads(w, (int)o.threads);
    record_wanted_events(w, &sc.out);
    session s = {.sc = &sc, .dir = dir, .restart_every = o.restart_every > 0 ? o.restart_every : 0, .last_restart = -1};
    if (o.steps >= 0) set_end(&s, o.steps, 0);
    else set_end(&s, sc.steps, o.time > 0 ? o.time : sc.duration);
    if (!check_end(&s, &o, 0)) {
        floe_scene_free(&sc);
        return 2;
    }
    s.out = floe_output_open(dir, &sc.out, w, s.total, err, sizeof err);
    if (!s.out) {
        fprintf(stderr, "floe: %s\n", err);
        floe_scene_free(&sc);
        return 1;
    }
    update_estimate(&s); /* the world has started: dt: auto has seen the contacts of t = 0 */
    if (floe_dist_lead(w, (int)o.threads) != 0) {
        floe_output_close(s.out, w);
        floe_scene_free(&sc);
        return 1;
    }
    char len[160];
    fprintf(stderr, "floe %s: %s -> %s/: %d particles, %s, %d thread%s\n", FLOE_VERSION, o.path, dir,
            floe_particle_count(w), describe_end(&s, len, sizeof len), floe_thread_count(w),
            floe_thread_count(w) > 1 ? "s" : "");
    /* restart files of an earlier run here would be taken for this run's */
    int stale = floe_restart_clear(dir);
    if (stale > 0) fprintf(stderr, "floe: removed %d restart file(s) of an earlier run in %s/\n", stale, dir);
    int rc = run_loop(&s, o.stop_at, o.warmup, isatty(STDERR_FILENO));
    floe_scene_free(&sc);
    return rc;
}

/* floe resume DIR|FILE: the newest restart file that loads (an older one if
 * the newest is damaged), outputs continued in the file's directory. */
static int cmd_resume(int argc, char **argv) {
    opts o;
    int p = parse_opts("resume", argc, argv, &o);
    if (p <= 0) {
        if (p < 0) usage(stdout);
        return p < 0 ? 0 : 2;
    }
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
    session s = {.sc = &r.scene,
                 .dir = dir,
                 .restart_every = o.restart_every >= 0 ? o.restart_every : r.restart_every,
                 .last_restart = floe_step_count(w)};
    snprintf(s.restart_path, sizeof s.restart_path, "%s", files[got]);
    /* the run's end: as the restart file records it, or moved by --steps / --time */
    if (o.steps >= 0) set_end(&s, o.steps, 0);
    else set_end(&s, r.total_steps, o.time > 0 ? o.time : r.scene.duration);
    if (why) fprintf(stderr, "floe resume: cannot resume from %s: %s\n", files[got], why);
    if (why || !check_end(&s, &o, 1)) {
        floe_restart_free(&r);
        free(files);
        return 2;
    }
    if (o.threads >= 0) floe_set_threads(w, (int)o.threads);
    record_wanted_events(w, &r.scene.out);
    char note[1024];
    if (floe_restart_fresh_outputs(dir, &r, note, sizeof note, err, sizeof err) != 0) {
        fprintf(stderr, "floe resume: %s\n", err);
        floe_restart_free(&r);
        free(files);
        return 1;
    }
    if (note[0]) fprintf(stderr, "floe resume: note: %s\n", note);
    s.out = floe_output_resume(dir, &r.scene.out, w, &r.output, err, sizeof err);
    if (!s.out) {
        fprintf(stderr, "floe resume: %s\n", err);
        floe_restart_free(&r);
        free(files);
        return 1;
    }
    if (floe_dist_lead(w, (int)o.threads) != 0) {
        floe_output_close(s.out, w);
        floe_restart_free(&r);
        free(files);
        return 1;
    }
    char len[160];
    fprintf(stderr, "floe %s: resuming %s from %s at step %lld (t = %.9g s) of %s: %d particles, %d thread%s\n",
            FLOE_VERSION, r.scene.path, files[got], (long long)floe_step_count(w), floe_time(w),
            describe_end(&s, len, sizeof len), floe_particle_count(w), floe_thread_count(w),
            floe_thread_count(w) > 1 ? "s" : "");
    free(files);
    int rc = run_loop(&s, o.stop_at, o.warmup, isatty(STDERR_FILENO));
    floe_restart_free(&r);
    return rc;
}

/* How many processes a launcher started this one among: mpirun (Open MPI's
 * OMPI_COMM_WORLD_SIZE) or a PMI launcher (MPICH's Hydra, Slurm: PMI_SIZE);
 * 0 when started alone. */
static long launched_among(void) {
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return strtol(v, NULL, 10);
    }
    return 0;
}

/* `run` and `resume` as one of the ranks of mpirun (docs/mpi.md): rank 0
 * runs the command as alone, the others follow it. A build without MPI
 * refuses: its N copies would all write the same output folder. */
static int run_ranked(int run, int argc, char **argv) {
    long among = launched_among();
#ifdef FLOE_WITH_MPI
    if (among >= 1) {
        int rank = floe_dist_init(&argc, &argv);
        if (rank < 0) return 1;
        if (rank > 0) return floe_dist_follow();
        return floe_dist_finish(run ? cmd_run(argc - 2, argv + 2) : cmd_resume(argc - 2, argv + 2));
    }
#else
    if (among > 1) {
        fprintf(stderr,
                "floe %s: started as one of %ld processes (by mpirun or another MPI launcher), but this floe "
                "was built without MPI: each process would run the whole scene into the same output folder. "
                "Run it alone, or build floe with MPI (Debian: libopenmpi-dev; CMake option FLOE_MPI, "
                "docs/mpi.md)\n",
                argv[1], among);
        return 2;
    }
#endif
    return run ? cmd_run(argc - 2, argv + 2) : cmd_resume(argc - 2, argv + 2);
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
        printf("floe %s\n", floe_version()); /* the library's */
        return 0;
    }
    if (!strcmp(cmd, "check")) {
        if (argc != 3) {
            fprintf(stderr, "usage: floe check SCENE\n");
            return 2;
        }
        return cmd_check(argv[2]);
    }
    if (!strcmp(cmd, "render")) return floe_cli_render(argc - 1, argv + 1);
    if (!strcmp(cmd, "keys")) {
        if (argc != 3 || strcmp(argv[2], "--markdown")) {
            fprintf(stderr, "usage: floe keys --markdown\n");
            return 2;
        }
        floe_key_tables_markdown(stdout);
        return 0;
    }
    int run = !strcmp(cmd, "run"), resume = !strcmp(cmd, "resume");
    if (run || resume) {
        exec_with_passive_wait(argv);
        return run_ranked(run, argc, argv);
    }
    static const char *const commands[] = {"run", "resume", "check", "render", "keys", "--help", "--version"};
    char hint[96];
    fprintf(stderr, "floe: unknown command '%s'%s (see floe --help)\n", cmd,
            did_you_mean(cmd, commands, 7, hint, sizeof hint));
    return 2;
}
