/* The output directory of a run (see output.h and docs/outputs.md): decides
 * what is due at each step and hands the work to the VTK and CSV writers. */
#define _DEFAULT_SOURCE /* flock(2) */
#include "io/output.h"
#include "base/mem.h"
#include "io/io_err.h"

#include "io/csv.h"
#include "io/vtk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define PATH_CAP 4096

/* One periodic output. period > 0: every `period` steps, `next` is the next
 * due step; period FLOE_OUTPUT_BY_TIME: every `interval` seconds, `next` is
 * the index k of the next due multiple k * interval; period 0: off. `last`
 * is the step last written, so a forced snapshot never writes a step twice. */
typedef struct stream {
    int64_t period, next, last;
    double interval;
} stream;

enum { SERIES_PARTICLES, SERIES_CONTACTS, SERIES_BOUNDARIES, SERIES_SHAPES, SERIES_COUNT };
static const char *const series_name[SERIES_COUNT] = {"particles", "contacts", "boundaries", "shapes"};
static const char *const series_ext[SERIES_COUNT] = {"vtu", "vtp", "vtp", "vtp"};

struct floe_output {
    char dir[PATH_CAP];
    stream vtk, energy, history;
    int series_on[SERIES_COUNT];
    int final_state;
    floe_history_column *hist;
    int nhist;
    floe_named_region *regions; /* measured into measurements.csv at the end */
    int nregions;
    floe_csv *energy_csv, *history_csv, *events_csv;
    floe_vtk *vtk_w;
    floe_pvd *pvd[SERIES_COUNT];
    int width;            /* digits of the step number in frame file names */
    uint32_t events_skip; /* bit t: do not write events of type t */
    uint64_t ev_serial;   /* the world's event list (floe_events) written last */
    int64_t *fr_step;     /* frames in the .pvd collections, for restarts */
    double *fr_time;
    size_t nfr, cfr;
    int lock_fd; /* DIR/.floe.lock, held while the outputs are open */
    char err[1024];
};

/* out = dir/name; -1 if that does not fit in PATH_CAP. */
static int join(char *out, const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    if (a + b + 2 > PATH_CAP) return -1;
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, name, b + 1);
    return 0;
}

/* mkdir -p; an existing non-directory anywhere on the path is an error. */
static int mkdir_p(const char *path, char *err, size_t errlen) {
    char buf[PATH_CAP];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        floe_io_err(err, errlen, "bad output directory '%s'", path);
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            floe_io_err(err, errlen, "cannot create output directory '%s': %s", buf, strerror(errno));
            return -1;
        }
        *p = c;
        if (!c) break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        floe_io_err(err, errlen, "cannot use '%s' as the output directory: it is not a directory", path);
        return -1;
    }
    return 0;
}

/* A real directory, not a link to one: only the output directory itself
 * may be a link (the user's choice); nothing inside it is followed. */
static int is_real_dir(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Creates the subdirectory `path` of the output directory if needed. */
static int make_subdir(const char *path, char *err, size_t errlen) {
    if (mkdir(path, 0777) == 0 || is_real_dir(path)) return 0;
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return floe_io_err(err, errlen,
                           "cannot write frames into %s: it is a symbolic link (floe writes only "
                           "into a real directory there; remove the link)",
                           path);
    return floe_io_err(err, errlen, "cannot create %s: %s", path,
                       errno == EEXIST ? "a file of that name is in the way" : strerror(errno));
}

/* Two runs writing one directory would interleave their rows and frames:
 * the outputs hold an exclusive flock(2) on DIR/.floe.lock while open (the
 * kernel drops it when the process dies, so a killed run leaves no stale
 * lock). The file holds the owner's pid, for the message. Filesystems
 * without locks are used unlocked. Returns the descriptor or -1. */
static int lock_dir(const char *dir, char *err, size_t errlen) {
    char path[PATH_CAP];
    if (join(path, dir, ".floe.lock")) return floe_io_err(err, errlen, "output path too long: %s", dir);
    int fd = floe_io_open_out(path, O_RDWR | O_CREAT, err, errlen);
    if (fd < 0) return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) return fd; /* no locks here (ENOLCK, ...) */
        char buf[32] = "";
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        long pid = n > 0 ? strtol(buf, NULL, 10) : 0;
        close(fd);
        if (pid > 0)
            return floe_io_err(err, errlen,
                               "%s is in use by another floe process (pid %ld); wait for it to end "
                               "or choose another output directory",
                               dir, pid);
        return floe_io_err(err, errlen,
                           "%s is in use by another floe process; wait for it to end or choose "
                           "another output directory",
                           dir);
    }
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, (size_t)n, 0) != n) { /* only the message needs it */
    }
    return fd;
}

/* The names floe writes in its output directory (docs/outputs.md), and
 * nothing else: a fresh run removes exactly these. */
static const char *const own_files[] = {"energy.csv",   "history.csv",     "events.csv",   "particles.csv",
                                        "contacts.csv", "particles.pvd",   "contacts.pvd", "boundaries.pvd",
                                        "shapes.pvd",   "measurements.csv"};

/* A cadence: `steps` wins; else by simulated time (dt may change during a
 * run, so an interval is never turned into a step count); else off. */
static stream stream_of(floe_every e) {
    stream s = {0, 0, INT64_MIN, 0};
    if (e.steps > 0) s.period = e.steps;
    else if (e.interval > 0) {
        s.period = FLOE_OUTPUT_BY_TIME;
        s.interval = e.interval;
        s.next = 1; /* the first multiple after the start */
    }
    return s;
}

/* The accumulated time of a step that should fall on a multiple k * I may
 * miss it by rounding: a time that short of it by less than this reaches it
 * (docs/decisions.md, "Rounding slack of output times"). */
static double time_slack(const floe_world *w) { return 1e-6 * floe_dt(w); }

/* Multiples are counted in int64: beyond this the interval is below the
 * resolution of the time and every step is due. */
#define K_MAX 4e18

/* Whether the world's time has reached the k-th multiple of the interval. */
static int reached(const stream *s, const floe_world *w, int64_t k) {
    return floe_time(w) >= (double)k * s->interval - time_slack(w);
}

static int due(const stream *s, const floe_world *w) {
    int64_t step = floe_step_count(w);
    if (step == s->last) return 0;
    if (s->period > 0) return step >= s->next;
    return s->period == FLOE_OUTPUT_BY_TIME && reached(s, w, s->next);
}

/* Written at the world's current step: the next due step, or the first
 * multiple of the interval after the current time (several multiples
 * passed in one step give one output, none is skipped otherwise). */
static void mark(stream *s, const floe_world *w) {
    int64_t step = floe_step_count(w);
    s->last = step;
    if (s->period > 0) {
        s->next = (step / s->period + 1) * s->period;
        return;
    }
    if (s->period != FLOE_OUTPUT_BY_TIME) return;
    /* k: the last multiple reached; floor() is a guess that reached() settles */
    double q = floor((floe_time(w) + time_slack(w)) / s->interval);
    int64_t k = q > 0 && q < K_MAX ? (int64_t)q : q > 0 ? (int64_t)K_MAX : 0; /* NaN: 0 */
    while (k > 0 && !reached(s, w, k)) k--;
    while (k + 1 < (int64_t)K_MAX && reached(s, w, k + 1)) k++;
    if (k + 1 > s->next) s->next = k + 1;
}

/* ---- writers ----------------------------------------------------------- */

/* Frame file name of series s at `step` into name (relative to the directory). */
static void frame_name(const floe_output *o, int s, int64_t step, char *name, size_t n) {
    snprintf(name, n, "vtk/%s_%0*" PRId64 ".%s", series_name[s], o->width, step, series_ext[s]);
}

static int write_frame(floe_output *o, floe_world *w) {
    int64_t step = floe_step_count(w);
    double t = floe_time(w);
    for (int s = 0; s < SERIES_COUNT; s++) {
        if (!o->series_on[s]) continue;
        char name[256], path[PATH_CAP];
        frame_name(o, s, step, name, sizeof name);
        if (join(path, o->dir, name)) {
            floe_io_err(o->err, sizeof o->err, "output path too long: %s/%s", o->dir, name);
            return -1;
        }
        int rc;
        if (s == SERIES_PARTICLES) rc = floe_vtk_write_particles(o->vtk_w, path, w, o->err, sizeof o->err);
        else if (s == SERIES_CONTACTS) rc = floe_vtk_write_contacts(o->vtk_w, path, w, o->err, sizeof o->err);
        else if (s == SERIES_BOUNDARIES) rc = floe_vtk_write_boundaries(o->vtk_w, path, w, o->err, sizeof o->err);
        else rc = floe_vtk_write_shapes(o->vtk_w, path, w, o->err, sizeof o->err);
        /* the .pvd names a frame only once its file is complete */
        if (rc || floe_pvd_add(o->pvd[s], t, name, o->err, sizeof o->err)) return -1;
    }
    if (o->nfr == o->cfr) { /* two arrays, one capacity */
        size_t nc = floe__grown(o->cfr ? o->cfr : 64, o->nfr + 1, SIZE_MAX / sizeof(int64_t));
        int64_t *ns = realloc(o->fr_step, nc * sizeof *ns);
        if (ns) o->fr_step = ns;
        double *nt = realloc(o->fr_time, nc * sizeof *nt);
        if (nt) o->fr_time = nt;
        if (!ns || !nt) {
            floe_io_err(o->err, sizeof o->err, "out of memory");
            return -1;
        }
        o->cfr = nc;
    }
    o->fr_step[o->nfr] = step;
    o->fr_time[o->nfr++] = t;
    mark(&o->vtk, w);
    return 0;
}

static int csv_fail(floe_output *o, floe_csv *c) {
    floe_io_err(o->err, sizeof o->err, "%s", floe_csv_error(c));
    return -1;
}

static int write_energy(floe_output *o, floe_world *w) {
    mark(&o->energy, w);
    if (floe_csv_energy_row(o->energy_csv, w) || floe_csv_flush(o->energy_csv)) return csv_fail(o, o->energy_csv);
    return 0;
}

static int write_history(floe_output *o, floe_world *w) {
    mark(&o->history, w);
    if (floe_csv_history_row(o->history_csv, w, o->hist, o->nhist) || floe_csv_flush(o->history_csv))
        return csv_fail(o, o->history_csv);
    return 0;
}

/* Appends the world's event list (the last step's events) unless it was
 * written already. The list holds one step only: outputs must be stepped
 * after every floe_step, and a list that skipped steps is reported. */
static int write_events(floe_output *o, floe_world *w) {
    floe_event_list ev = floe_events(w);
    if (!o->events_csv || ev.serial == o->ev_serial) return 0;
    uint64_t missed = ev.serial - o->ev_serial - 1;
    o->ev_serial = ev.serial;
    for (int i = 0; i < ev.count; i++) {
        const floe_event *e = &ev.events[i];
        if ((unsigned)e->type < 32 && (o->events_skip >> e->type & 1u)) continue;
        if (floe_csv_event_row(o->events_csv, e)) return csv_fail(o, o->events_csv);
    }
    if (floe_csv_pending(o->events_csv) && floe_csv_flush(o->events_csv)) return csv_fail(o, o->events_csv);
    if (missed) {
        floe_io_err(o->err, sizeof o->err,
                    "events.csv misses the events of %llu step(s) before step %lld: the outputs must be "
                    "stepped (floe_output_step) after every floe_step",
                    (unsigned long long)missed, (long long)floe_step_count(w));
        return -1;
    }
    return 0;
}

/* Writes every enabled output that is due (or, with force, every one not
 * yet written at this step). */
static int write_outputs(floe_output *o, floe_world *w, int force) {
    int64_t step = floe_step_count(w);
    int rc = 0;
    if (o->vtk_w && (force ? o->vtk.last != step : due(&o->vtk, w))) rc |= write_frame(o, w);
    if (o->energy_csv && (force ? o->energy.last != step : due(&o->energy, w))) rc |= write_energy(o, w);
    if (o->history_csv && (force ? o->history.last != step : due(&o->history, w))) rc |= write_history(o, w);
    rc |= write_events(o, w);
    return rc ? -1 : 0;
}

/* ---- public ------------------------------------------------------------ */

static void destroy(floe_output *o) {
    if (!o) return;
    if (o->lock_fd >= 0) close(o->lock_fd); /* releases the lock */
    floe_csv_close(o->energy_csv, NULL, 0);
    floe_csv_close(o->history_csv, NULL, 0);
    floe_csv_close(o->events_csv, NULL, 0);
    floe_vtk_destroy(o->vtk_w);
    for (int s = 0; s < SERIES_COUNT; s++) floe_pvd_destroy(o->pvd[s]);
    free(o->hist);
    free(o->regions);
    free(o->fr_step);
    free(o->fr_time);
    free(o);
}

/* Whether `name` is a frame file floe writes (SERIES_<digits>.EXT); its
 * step goes to *step. */
static int frame_file(const char *name, int64_t *step) {
    for (int s = 0; s < SERIES_COUNT; s++) {
        size_t k = strlen(series_name[s]);
        if (strncmp(name, series_name[s], k) != 0 || name[k] != '_') continue;
        const char *p = name + k + 1, *q = p;
        while (*q >= '0' && *q <= '9') q++;
        if (q == p || q - p > 19 || *q != '.' || strcmp(q + 1, series_ext[s]) != 0) continue;
        *step = strtoll(p, NULL, 10);
        return 1;
    }
    return 0;
}

/* Removes the frame files in DIR/vtk whose step is >= from, except the
 * step `keep`; returns how many. Links are removed, never followed. */
static int remove_frames(const char *dir, int64_t from, int64_t keep) {
    char path[PATH_CAP];
    if (join(path, dir, "vtk") || !is_real_dir(path)) return 0;
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int64_t st;
        if (!frame_file(e->d_name, &st) || st < from || st == keep) continue;
        char name[512], full[PATH_CAP];
        snprintf(name, sizeof name, "vtk/%s", e->d_name);
        if (!join(full, dir, name) && unlink(full) == 0) n++;
    }
    closedir(d);
    return n;
}

/* Resuming at `step`: frames of the interrupted run past the restart (and a
 * snapshot at it that no collection lists) are removed; the resumed run
 * writes the frames that are due again. */
static void remove_stale_frames(const floe_output *o, int64_t step) {
    remove_frames(o->dir, step, o->nfr ? o->fr_step[o->nfr - 1] : INT64_MIN);
}

/* A fresh run: what an earlier run wrote here would mix with this run's
 * files (frames of steps this run does not write, a history.csv this scene
 * has no more), so floe's own files go: the frame series, the collections,
 * the CSVs and their temporaries. Any other file stays. */
static void remove_earlier_run(const char *dir) {
    remove_frames(dir, INT64_MIN, INT64_MIN);
    for (size_t i = 0; i < sizeof own_files / sizeof *own_files; i++) {
        char name[64], path[PATH_CAP];
        for (int tmp = 0; tmp < 2; tmp++) {
            snprintf(name, sizeof name, "%s%s", own_files[i], tmp ? ".tmp" : "");
            if (!join(path, dir, name)) unlink(path);
        }
    }
}

static floe_output *open_common(const char *dir, const floe_output_config *cfg, floe_world *w, int64_t total_steps,
                                const floe_output_state *rs, char *err, size_t errlen);

floe_output *floe_output_open(const char *dir, const floe_output_config *cfg, floe_world *w, int64_t total_steps,
                              char *err, size_t errlen) {
    return open_common(dir, cfg, w, total_steps, NULL, err, errlen);
}

floe_output *floe_output_resume(const char *dir, const floe_output_config *cfg, floe_world *w,
                                const floe_output_state *st, char *err, size_t errlen) {
    if (!st) {
        floe_io_err(err, errlen, "floe_output_resume: no output state");
        return NULL;
    }
    return open_common(dir, cfg, w, 0, st, err, errlen);
}

int floe_output_get_state(floe_output *o, floe_output_state *st) {
    memset(st, 0, sizeof *st);
    stream *ss[3] = {&o->vtk, &o->energy, &o->history};
    floe_output_stream *ds[3] = {&st->vtk, &st->energy, &st->history};
    for (int i = 0; i < 3; i++) *ds[i] = (floe_output_stream){ss[i]->period, ss[i]->next, ss[i]->last};
    st->width = o->width;
    st->nframes = o->nfr;
    st->frame_step = o->fr_step;
    st->frame_time = o->fr_time;
    floe_csv *files[3] = {o->energy_csv, o->history_csv, o->events_csv};
    int rc = 0; /* events.csv holds no unwritten rows: write_events flushes them */
    for (int i = 0; i < 3; i++) {
        st->csv_bytes[i] = -1;
        if (!files[i]) continue;
        /* synced: a restart never points past what is on disk */
        st->csv_bytes[i] = floe_csv_sync(files[i]);
        if (st->csv_bytes[i] < 0) rc = csv_fail(o, files[i]);
    }
    for (int m = 0; m < floe_model_count() && m < 64; m++)
        if (floe_vtk_model_seen(o->vtk_w, m)) st->models_seen |= 1ull << m;
    return rc ? -1 : 0;
}

/* The configuration's own errors, found before anything is made. */
static int config_error(const char *dir, const floe_output_config *cfg, const floe_world *w, char *err, size_t errlen) {
    if (!dir || !*dir || !cfg || !w) {
        floe_io_err(err, errlen, "floe_output_open: missing output directory, configuration or world");
        return -1;
    }
    if (cfg->vtk.steps < 0 || cfg->energy.steps < 0 || cfg->history.steps < 0 || cfg->vtk.interval < 0 ||
        cfg->energy.interval < 0 || cfg->history.interval < 0) {
        floe_io_err(err, errlen, "output cadence must not be negative");
        return -1;
    }
    if (cfg->n_history_cols < 0 || (cfg->n_history_cols > 0 && !cfg->history_cols)) {
        floe_io_err(err, errlen, "history: %d columns but no column list", cfg->n_history_cols);
        return -1;
    }
    if (strlen(dir) + 64 >= PATH_CAP) {
        floe_io_err(err, errlen, "output directory path too long");
        return -1;
    }
    if (!isfinite(cfg->vtk.interval) || !isfinite(cfg->energy.interval) || !isfinite(cfg->history.interval)) {
        floe_io_err(err, errlen, "output interval must be finite");
        return -1;
    }
    return 0;
}

/* Where the streams of the original run stood; a stream by time takes its
 * interval from the configuration. */
static int resume_streams(floe_output *o, const floe_output_config *cfg, const floe_output_state *rs, char *err,
                          size_t errlen) {
    stream *ss[3] = {&o->vtk, &o->energy, &o->history};
    const floe_output_stream *src[3] = {&rs->vtk, &rs->energy, &rs->history};
    for (int i = 0; i < 3; i++) {
        double iv = ss[i]->interval;
        *ss[i] = (stream){src[i]->period, src[i]->next, src[i]->last, iv};
        if (ss[i]->period < 0 && (ss[i]->period != FLOE_OUTPUT_BY_TIME || !(iv > 0) || ss[i]->next < 0)) {
            floe_io_err(err, errlen,
                        "restart: output stream %d (%" PRId64 ", %" PRId64 ") does not match the "
                        "output configuration",
                        i, src[i]->period, src[i]->next);
            return -1;
        }
    }
    if (o->history.period != 0 && cfg->n_history_cols == 0) o->history.period = 0;
    return 0;
}

/* The regions measured into measurements.csv at the end. */
static int copy_regions(floe_output *o, const floe_output_config *cfg, char *err, size_t errlen) {
    if (cfg->n_regions < 0 || (cfg->n_regions > 0 && !cfg->regions)) {
        floe_io_err(err, errlen, "output regions: %d regions but no region list", cfg->n_regions);
        return -1;
    }
    if (cfg->n_regions > 0) {
        if (!(o->regions = malloc((size_t)cfg->n_regions * sizeof *o->regions))) {
            floe_io_err(err, errlen, "out of memory");
            return -1;
        }
        memcpy(o->regions, cfg->regions, (size_t)cfg->n_regions * sizeof *o->regions);
        o->nregions = cfg->n_regions;
    }
    return 0;
}

/* The VTK series the run writes. Only worlds with non-spherical bodies, or
 * inlets that will insert them (the series then exists from the start, so
 * that a resumed run writes the same files), get a shapes series. */
static void choose_series(floe_output *o, const floe_output_config *cfg, const floe_world *w) {
    o->series_on[SERIES_PARTICLES] = o->vtk.period != 0;
    o->series_on[SERIES_CONTACTS] = o->vtk.period != 0 && cfg->vtk_contacts;
    o->series_on[SERIES_BOUNDARIES] = o->vtk.period != 0 && cfg->vtk_boundaries;
    int shape_inlet = 0;
    for (int k = 0; k < floe_inlet_count(w); k++) {
        floe_inlet_def id;
        if (floe_inlet_get(w, k, NULL, &id) == FLOE_OK && id.shape != FLOE_SHAPE_SPHERE) shape_inlet = 1;
    }
    o->series_on[SERIES_SHAPES] = o->vtk.period != 0 && cfg->vtk_shapes && (floe_vtk_shape_count(w) > 0 || shape_inlet);
}

/* The outputs' settings, nothing on disk yet: streams (where a resumed
 * run's stood), regions, series, the digits of the step in frame names. */
static floe_output *output_new(const char *dir, const floe_output_config *cfg, const floe_world *w, int64_t total_steps,
                               const floe_output_state *rs, char *err, size_t errlen) {
    floe_output *o = calloc(1, sizeof *o);
    if (!o) {
        floe_io_err(err, errlen, "out of memory");
        return NULL;
    }
    o->lock_fd = -1;
    memcpy(o->dir, dir, strlen(dir) + 1);
    o->vtk = stream_of(cfg->vtk);
    o->energy = stream_of(cfg->energy);
    o->history = stream_of(cfg->n_history_cols > 0 ? cfg->history : (floe_every){0, 0});
    if ((rs && resume_streams(o, cfg, rs, err, errlen)) || copy_regions(o, cfg, err, errlen)) {
        destroy(o);
        return NULL;
    }
    o->final_state = cfg->final_state;
    o->events_skip = cfg->events_skip;
    choose_series(o, cfg, w);
    char digits[32];
    o->width = snprintf(digits, sizeof digits, "%" PRId64, total_steps > 0 ? total_steps : 0);
    if (o->width < 6) o->width = 6;
    if (rs) o->width = rs->width > 0 && rs->width < 20 ? rs->width : 6;
    return o;
}

/* history.csv: its columns checked, the file created with its header, or
 * that of the original run cut back to the restart's length. */
static int open_history(floe_output *o, const floe_output_config *cfg, const floe_world *w, const floe_output_state *rs,
                        char *err, size_t errlen) {
    if (o->history.period == 0) return 0;
    o->nhist = cfg->n_history_cols;
    o->hist = malloc((size_t)o->nhist * sizeof *o->hist);
    if (!o->hist) {
        floe_io_err(err, errlen, "out of memory");
        return -1;
    }
    memcpy(o->hist, cfg->history_cols, (size_t)o->nhist * sizeof *o->hist);
    for (int i = 0; i < o->nhist; i++) {
        if (floe_history_check(w, &o->hist[i], err, errlen)) return -1;
        /* the header starts with step,time; a resumed run keeps the header its file already has */
        if (!rs && (!strcmp(o->hist[i].name, "step") || !strcmp(o->hist[i].name, "time"))) {
            floe_io_err(err, errlen,
                        "history column '%s' duplicates the built-in column '%s' of history.csv (every row "
                        "starts with step, time); remove it or give it another name",
                        o->hist[i].name, o->hist[i].name);
            return -1;
        }
    }
    char path[PATH_CAP];
    join(path, o->dir, "history.csv");
    if (rs) return (o->history_csv = floe_csv_reopen(path, rs->csv_bytes[1], err, errlen)) ? 0 : -1;
    if (!(o->history_csv = floe_csv_open(path, err, errlen))) return -1;
    if (floe_csv_history_header(o->history_csv, o->hist, o->nhist)) {
        floe_io_err(err, errlen, "%s", floe_csv_error(o->history_csv));
        return -1;
    }
    return 0;
}

/* energy.csv, created with its header or continued as history.csv is. */
static int open_energy(floe_output *o, const floe_output_state *rs, char *err, size_t errlen) {
    if (o->energy.period == 0) return 0;
    char path[PATH_CAP];
    join(path, o->dir, "energy.csv");
    if (rs) return (o->energy_csv = floe_csv_reopen(path, rs->csv_bytes[0], err, errlen)) ? 0 : -1;
    if (!(o->energy_csv = floe_csv_open(path, err, errlen))) return -1;
    if (floe_csv_energy_header(o->energy_csv)) {
        floe_io_err(err, errlen, "%s", floe_csv_error(o->energy_csv));
        return -1;
    }
    return 0;
}

/* events.csv. Granular flows create and delete contacts by the million: a
 * scene may keep only some event types, or none (then no file). */
static int open_events(floe_output *o, const floe_output_state *rs, char *err, size_t errlen) {
    const uint32_t all_events = (1u << FLOE_EVENT_COUNT) - 1;
    if ((o->events_skip & all_events) == all_events) return 0;
    char path[PATH_CAP];
    join(path, o->dir, "events.csv");
    if (rs) return (o->events_csv = floe_csv_reopen(path, rs->csv_bytes[2], err, errlen)) ? 0 : -1;
    if (!(o->events_csv = floe_csv_open(path, err, errlen))) return -1;
    if (floe_csv_events_header(o->events_csv) || floe_csv_flush(o->events_csv)) {
        floe_io_err(err, errlen, "%s", floe_csv_error(o->events_csv));
        return -1;
    }
    return 0;
}

/* The vtk folder, the frame writer and the .pvd collection of each series. */
static int open_vtk(floe_output *o, char *err, size_t errlen) {
    if (o->vtk.period == 0) return 0;
    char path[PATH_CAP];
    join(path, o->dir, "vtk");
    if (make_subdir(path, err, errlen)) return -1;
    if (!(o->vtk_w = floe_vtk_create())) {
        floe_io_err(err, errlen, "out of memory");
        return -1;
    }
    for (int s = 0; s < SERIES_COUNT; s++) {
        if (!o->series_on[s]) continue;
        char name[64];
        snprintf(name, sizeof name, "%s.pvd", series_name[s]);
        join(path, o->dir, name);
        if (!(o->pvd[s] = floe_pvd_create(path))) {
            floe_io_err(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* A resumed run's collections list exactly the frames written up to the
 * restart, its frame writer knows the models seen; later frames go. */
static int resume_frames(floe_output *o, const floe_world *w, const floe_output_state *rs, char *err, size_t errlen) {
    if (rs->nframes > 0 && (!rs->frame_step || !rs->frame_time)) {
        floe_io_err(err, errlen, "restart: frame list missing");
        return -1;
    }
    if (rs->nframes > 0 && o->vtk.period != 0) {
        o->fr_step = malloc(rs->nframes * sizeof *o->fr_step);
        o->fr_time = malloc(rs->nframes * sizeof *o->fr_time);
        if (!o->fr_step || !o->fr_time) {
            floe_io_err(err, errlen, "out of memory");
            return -1;
        }
        memcpy(o->fr_step, rs->frame_step, rs->nframes * sizeof *o->fr_step);
        memcpy(o->fr_time, rs->frame_time, rs->nframes * sizeof *o->fr_time);
        o->nfr = o->cfr = rs->nframes;
    }
    for (int s = 0; s < SERIES_COUNT; s++) {
        if (!o->pvd[s]) continue;
        for (size_t i = 0; i < o->nfr; i++) {
            char name[256];
            frame_name(o, s, o->fr_step[i], name, sizeof name);
            if (floe_pvd_append(o->pvd[s], o->fr_time[i], name, err, errlen)) return -1;
        }
        if (floe_pvd_write(o->pvd[s], err, errlen)) return -1;
    }
    for (int m = 0; m < floe_model_count() && m < 64 && o->vtk_w; m++)
        if ((rs->models_seen >> m & 1u) && floe_vtk_set_model_seen(o->vtk_w, m)) {
            floe_io_err(err, errlen, "out of memory");
            return -1;
        }
    remove_stale_frames(o, floe_step_count(w));
    return 0;
}

static floe_output *open_common(const char *dir, const floe_output_config *cfg, floe_world *w, int64_t total_steps,
                                const floe_output_state *rs, char *err, size_t errlen) {
    if (config_error(dir, cfg, w, err, errlen)) return NULL;
    floe_output *o = output_new(dir, cfg, w, total_steps, rs, err, errlen);
    if (!o) return NULL;
    if (mkdir_p(dir, err, errlen)) goto fail;
    /* before anything is written or removed */
    if ((o->lock_fd = lock_dir(dir, err, errlen)) < 0) goto fail;
    if (!rs) remove_earlier_run(dir);
    if (open_history(o, cfg, w, rs, err, errlen) || open_energy(o, rs, err, errlen) ||
        open_events(o, rs, err, errlen) || open_vtk(o, err, errlen))
        goto fail;
    if (rs && resume_frames(o, w, rs, err, errlen)) goto fail;
    /* events.csv takes the events of the steps from now on (and of the
     * start below): not those of a list the world had before */
    o->ev_serial = floe_events(w).serial;
    if (!rs) {
        /* The initial state is that of t = 0 with its contacts (bonds made at
         * the start) and forces: the world starts now, with the events of
         * its start in events.csv. If it cannot start, the first step says
         * why and the state is written as it is. */
        floe_start(w);
        if (write_outputs(o, w, 1)) {
            floe_io_err(err, errlen, "%s", o->err);
            goto fail;
        }
    }
    return o;

fail:
    destroy(o);
    return NULL;
}

const char *floe_output_error(const floe_output *o) { return o ? o->err : ""; }

int floe_output_step(floe_output *o, floe_world *w) {
    if (!o) return 0;
    return write_outputs(o, w, 0);
}

int floe_output_snapshot(floe_output *o, floe_world *w) {
    if (!o) return 0;
    return write_outputs(o, w, 1);
}

int floe_output_close(floe_output *o, floe_world *w) {
    if (!o) return 0;
    int rc = write_outputs(o, w, 1);
    if (o->final_state) {
        char path[PATH_CAP], msg[1024];
        join(path, o->dir, "particles.csv");
        if (floe_csv_write_particles(path, w, msg, sizeof msg)) {
            rc = -1;
            floe_io_err(o->err, sizeof o->err, "%s", msg);
        }
        join(path, o->dir, "contacts.csv");
        if (floe_csv_write_contacts(path, w, msg, sizeof msg)) {
            rc = -1;
            floe_io_err(o->err, sizeof o->err, "%s", msg);
        }
        join(path, o->dir, "measurements.csv");
        if ((o->nregions > 0 || floe_plane_counter_count(w) > 0) &&
            floe_csv_write_measurements(path, w, o->regions, o->nregions, msg, sizeof msg)) {
            rc = -1;
            floe_io_err(o->err, sizeof o->err, "%s", msg);
        }
    }
    floe_csv **files[3] = {&o->energy_csv, &o->history_csv, &o->events_csv};
    for (int i = 0; i < 3; i++) {
        char msg[1024];
        if (floe_csv_close(*files[i], msg, sizeof msg)) {
            rc = -1;
            floe_io_err(o->err, sizeof o->err, "%s", msg);
        }
        *files[i] = NULL;
    }
    /* close frees o, so the message has no other way out */
    if (rc) fprintf(stderr, "floe: output: %s\n", o->err);
    destroy(o);
    return rc ? -1 : 0;
}
