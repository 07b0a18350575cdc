/* CSV tables (see csv.h and docs/outputs.md). */
#include "io/csv.h"
#include "base/mem.h"
#include "base/vec.h"
#include "io/body_arrays.h"
#include "io/atomic.h"
#include "io/io_err.h"
#include <floe/floe_shape.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Complete lines are written out once this many bytes are waiting, so the
 * buffer stays small during a long run between output events. */
#define CSV_FLUSH_AT (1u << 20)

struct floe_csv {
    int fd;
    char *path;
    floe_buf b;  /* complete lines, then the line being built; b.bad: that
                    line lost data (allocation failure) */
    size_t done; /* bytes of complete lines */
    char err[320];
};

/* A table on the descriptor fd (for `path`), or NULL with a message; fd
 * is closed on failure. */
static floe_csv *csv_new(const char *path, int fd, char *err, size_t errlen) {
    floe_csv *c = calloc(1, sizeof *c);
    size_t n = strlen(path);
    if (!c || !(c->path = malloc(n + 1))) {
        free(c);
        close(fd);
        floe_io_err(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    memcpy(c->path, path, n + 1);
    c->fd = fd;
    return c;
}

floe_csv *floe_csv_open(const char *path, char *err, size_t errlen) {
    int fd = floe_io_open_out(path, O_WRONLY | O_CREAT | O_TRUNC, err, errlen);
    return fd < 0 ? NULL : csv_new(path, fd, err, errlen);
}

floe_csv *floe_csv_reopen(const char *path, long long length, char *err, size_t errlen) {
    /* never through a link: appending would write wherever it points */
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    const char *why = NULL;
    if (fd < 0) why = errno == ELOOP ? "it is a symbolic link (floe does not write through links)" : strerror(errno);
    else if (fstat(fd, &st) != 0) why = strerror(errno);
    else if (length < 0 || st.st_size < length) why = "the file is shorter than when the restart was written";
    /* rows written after the restart step are dropped: the resumed run writes them again */
    else if (ftruncate(fd, (off_t)length) != 0 || lseek(fd, 0, SEEK_END) < 0) why = strerror(errno);
    if (why) {
        floe_io_err(err, errlen, "cannot continue %s: %s", path, why);
        if (fd >= 0) close(fd);
        return NULL;
    }
    return csv_new(path, fd, err, errlen);
}

long long floe_csv_sync(floe_csv *c) {
    if (!c || floe_csv_flush(c)) return -1;
    if (fsync(c->fd) != 0) {
        floe_io_err(c->err, sizeof c->err, "cannot sync %s: %s", c->path, strerror(errno));
        return -1;
    }
    off_t end = lseek(c->fd, 0, SEEK_CUR);
    if (end < 0) floe_io_err(c->err, sizeof c->err, "%s: %s", c->path, strerror(errno));
    return (long long)end;
}

const char *floe_csv_error(const floe_csv *c) { return c ? c->err : ""; }
size_t floe_csv_pending(const floe_csv *c) { return c ? c->done : 0; }

int floe_csv_flush(floe_csv *c) {
    if (!c || !c->b.s) return 0; /* nothing was ever buffered (a reopened file) */
    char *buf = c->b.s;
    size_t off = 0;
    while (off < c->done) {
        ssize_t k = write(c->fd, buf + off, c->done - off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            floe_io_err(c->err, sizeof c->err, "error writing %s: %s", c->path,
                        k < 0 ? strerror(errno) : "nothing written");
            /* keep the unwritten lines: a later flush may succeed */
            memmove(buf, buf + off, c->b.len - off + 1); /* with the terminating 0 */
            c->b.len -= off;
            c->done -= off;
            return -1;
        }
        off += (size_t)k;
    }
    memmove(buf, buf + off, c->b.len - off + 1); /* with the terminating 0 */
    c->b.len -= off;
    c->done = 0;
    return 0;
}

int floe_csv_close(floe_csv *c, char *err, size_t errlen) {
    if (!c) return 0;
    int rc = floe_csv_flush(c);
    if (rc) floe_io_err(err, errlen, "%s", c->err);
    if (close(c->fd) != 0 && rc == 0) {
        floe_io_err(err, errlen, "error closing %s: %s", c->path, strerror(errno));
        rc = -1;
    }
    floe__buf_free(&c->b);
    free(c->path);
    free(c);
    return rc;
}

/* ---- line building ----------------------------------------------------- */

static void put(floe_csv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(floe_csv *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe__buf_vprintf(&c->b, fmt, ap);
    va_end(ap);
}

/* A text field, quoted only when it needs to be. */
static void put_text(floe_csv *c, const char *s) {
    if (!strpbrk(s, ",\"\n\r")) {
        put(c, "%s", s);
        return;
    }
    put(c, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"') put(c, "\"\"");
        else put(c, "%c", *p);
    }
    put(c, "\"");
}

/* Ends the line: it becomes part of what the next flush writes. */
static int commit_line(floe_csv *c) {
    if (c->b.bad) {
        c->b.len = c->done; /* drop the torn line */
        if (c->b.s) c->b.s[c->b.len] = 0;
        c->b.bad = 0;
        floe_io_err(c->err, sizeof c->err, "%s: out of memory", c->path);
        return -1;
    }
    c->done = c->b.len;
    if (c->done >= CSV_FLUSH_AT) return floe_csv_flush(c);
    return 0;
}

static int end_line(floe_csv *c) {
    put(c, "\n");
    return commit_line(c);
}

/* ---- energy ------------------------------------------------------------ */

int floe_csv_energy_header(floe_csv *c) {
    put(c, "step,time");
    for (int t = 0; t < FLOE_E_COUNT; t++) {
        put(c, ",");
        put_text(c, floe_energy_name((floe_energy_term)t));
    }
    return end_line(c);
}

int floe_csv_energy_row(floe_csv *c, const floe_world *w) {
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    put(c, "%" PRId64 "," FLOE_CSV_EXACT, floe_step_count(w), floe_time(w));
    for (int t = 0; t < FLOE_E_COUNT; t++) put(c, "," FLOE_CSV_SHORT, e[t]);
    return end_line(c);
}

/* ---- history ----------------------------------------------------------- */

/* "pos.y" with prefix "pos" -> 1; -1 if q is not prefix.x|y|z. */
static int vec_component(const char *q, const char *prefix) {
    size_t n = strlen(prefix);
    if (strncmp(q, prefix, n) != 0 || q[n] != '.' || q[n + 1] == '\0' || q[n + 2] != '\0') return -1;
    switch (q[n + 1]) {
        case 'x':
            return 0;
        case 'y':
            return 1;
        case 'z':
            return 2;
        default:
            return -1;
    }
}

enum { PQ_POS, PQ_VEL, PQ_ANGVEL, PQ_FORCE, PQ_TORQUE, PQ_ORI, PQ_COUNT };
static const char *const particle_q[PQ_COUNT] = {"pos", "vel", "angvel", "force", "torque", "ori"};

/* Particle quantity -> (which array, component), or -1. */
static int particle_quantity(const char *q, int *k) {
    for (int i = 0; i < PQ_ORI; i++)
        if ((*k = vec_component(q, particle_q[i])) >= 0) return i;
    if (strncmp(q, "ori.", 4) == 0 && q[4] && !q[5]) {
        const char *p = strchr("wxyz", q[4]);
        if (p) {
            *k = (int)(p - "wxyz");
            return PQ_ORI;
        }
    }
    return -1;
}

enum { CQ_FN, CQ_FT, CQ_FTY, CQ_FTZ, CQ_TW, CQ_TR, CQ_TRY, CQ_TRZ, CQ_UN, CQ_COUNT };
static const char *const contact_q[CQ_COUNT] = {"fn", "ft", "ft.y", "ft.z", "tw", "tr", "tr.y", "tr.z", "un"};

static int contact_quantity(const char *q) {
    for (int i = 0; i < CQ_COUNT; i++)
        if (strcmp(q, contact_q[i]) == 0) return i;
    return strcmp(q, "uN") == 0 ? CQ_UN : -1;
}

/* NQ_CELL: H_ij (9), NQ_STRAIN: the cell's strain (9), NQ_CELL_VOLUME, NQ_CELL_PHASE (docs/periodic.md) */
enum {
    NQ_CONTACTS,
    NQ_STEP,
    NQ_TIME,
    NQ_PARTICLES,
    NQ_DT,
    NQ_BONDED,
    NQ_BREAKS,
    NQ_INSERTED,
    NQ_INSERTED_MASS,
    NQ_REMOVED,
    NQ_REMOVED_MASS,
    NQ_CELL,
    NQ_STRAIN = NQ_CELL + 9,
    NQ_CELL_VOLUME = NQ_STRAIN + 9,
    NQ_CELL_PHASE,
    NQ_COUNT
};
static const char *const counter_q[NQ_COUNT] = {
    "contacts",      "step",      "time",         "particles", "dt",        "bonded",      "breaks",    "inserted",
    "inserted_mass", "removed",   "removed_mass", "cell.xx",   "cell.xy",   "cell.xz",     "cell.yx",   "cell.yy",
    "cell.yz",       "cell.zx",   "cell.zy",      "cell.zz",   "strain.xx", "strain.xy",   "strain.xz", "strain.yx",
    "strain.yy",     "strain.yz", "strain.zx",    "strain.zy", "strain.zz", "cell.volume", "cell.phase"};

/* Bodies (or their mass) that every inlet inserted / every sink removed. */
static double supply_total(const floe_world *w, int q) {
    double t = 0;
    if (q == NQ_INSERTED || q == NQ_INSERTED_MASS)
        for (int k = 0; k < floe_inlet_count(w); k++) {
            floe_inlet_stats s;
            floe_inlet_get(w, k, &s, NULL);
            t += q == NQ_INSERTED ? (double)s.inserted : s.mass;
        }
    else
        for (int k = 0; k < floe_sink_count(w); k++) {
            floe_sink_stats s;
            floe_sink_get(w, k, &s, NULL);
            t += q == NQ_REMOVED ? (double)s.removed : s.mass;
        }
    return t;
}

static int counter_quantity(const char *q) {
    for (int i = 0; i < NQ_COUNT; i++)
        if (strcmp(q, counter_q[i]) == 0) return i;
    return -1;
}

static int group_quantity(const char *q, int *k) {
    if ((*k = vec_component(q, "force")) >= 0) return 0;
    if ((*k = vec_component(q, "torque")) >= 0) return 1;
    if ((*k = vec_component(q, "stress")) >= 0) return 2; /* force / area */
    /* a servo's last step (floe_group_servo) and the current phase */
    static const char *const servo[] = {"servo.measured", "servo.target", "servo.velocity"};
    for (*k = 0; *k < 3; ++*k)
        if (!strcmp(q, servo[*k])) return 3;
    *k = 0;
    if (!strcmp(q, "phase")) return 4;
    return -1;
}

/* ---- measurements (docs/measurements.md) ------------------------------- */

/* A region quantity is one value of a family that is computed whole: the
 * nine components of a tensor come from one pass over the contacts. */
enum { RF_STRESS, RF_FABRIC, RF_COORD, RF_SOLID, RF_VOLUME, RF_COUNT };
#define RF_VALUES 10

static const struct region_q {
    const char *name;
    int family, index;
} region_q[] = {
    {"stress.xx", RF_STRESS, 0},        {"stress.xy", RF_STRESS, 1},     {"stress.xz", RF_STRESS, 2},
    {"stress.yx", RF_STRESS, 3},        {"stress.yy", RF_STRESS, 4},     {"stress.yz", RF_STRESS, 5},
    {"stress.zx", RF_STRESS, 6},        {"stress.zy", RF_STRESS, 7},     {"stress.zz", RF_STRESS, 8},
    {"stress.mean", RF_STRESS, 9},      {"solid_fraction", RF_SOLID, 0}, {"coordination", RF_COORD, 0},
    {"coordination.mech", RF_COORD, 1}, {"particles", RF_COORD, 2},      {"rattlers", RF_COORD, 3},
    {"fabric.xx", RF_FABRIC, 0},        {"fabric.xy", RF_FABRIC, 1},     {"fabric.xz", RF_FABRIC, 2},
    {"fabric.yx", RF_FABRIC, 3},        {"fabric.yy", RF_FABRIC, 4},     {"fabric.yz", RF_FABRIC, 5},
    {"fabric.zx", RF_FABRIC, 6},        {"fabric.zy", RF_FABRIC, 7},     {"fabric.zz", RF_FABRIC, 8},
    {"fabric.contacts", RF_FABRIC, 9},  {"volume", RF_VOLUME, 0},
};
#define N_REGION_Q ((int)(sizeof region_q / sizeof *region_q))

static const char *const plane_q[] = {"count", "count_pos", "count_neg", "mass", "mass_pos", "mass_neg"};
#define N_PLANE_Q ((int)(sizeof plane_q / sizeof *plane_q))

int floe_history_region_quantities(const char **names, int cap) {
    for (int i = 0; i < N_REGION_Q && i < cap; i++) names[i] = region_q[i].name;
    return N_REGION_Q;
}

int floe_history_plane_quantities(const char **names, int cap) {
    for (int i = 0; i < N_PLANE_Q && i < cap; i++) names[i] = plane_q[i];
    return N_PLANE_Q;
}

static int region_quantity(const char *q) {
    for (int i = 0; i < N_REGION_Q; i++)
        if (!strcmp(q, region_q[i].name)) return i;
    return -1;
}

static int plane_quantity(const char *q) {
    for (int i = 0; i < N_PLANE_Q; i++)
        if (!strcmp(q, plane_q[i])) return i;
    return -1;
}

/* Every value of a family over region r into v[RF_VALUES]; NaN on failure. */
static void region_family(const floe_world *w, const floe_region *r, int family, double *v) {
    for (int i = 0; i < RF_VALUES; i++) v[i] = NAN;
    switch (family) {
        case RF_STRESS:
            if (floe_stress_tensor(w, r, v) == FLOE_OK) v[9] = (v[0] + v[4] + v[8]) / 3;
            break;
        case RF_FABRIC: {
            int n = 0;
            if (floe_fabric_tensor(w, r, v, &n) == FLOE_OK) v[9] = n;
            break;
        }
        case RF_COORD: {
            floe_coordination_info ci;
            if (floe_coordination(w, r, &ci) == FLOE_OK) {
                v[0] = ci.z;
                v[1] = ci.z_mech;
                v[2] = ci.particles;
                v[3] = ci.rattlers;
            }
            break;
        }
        case RF_SOLID:
            if (floe_solid_fraction(w, r, &v[0]) != FLOE_OK) v[0] = NAN;
            break;
        default:
            v[0] = (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y) * (r->hi.z - r->lo.z);
            break;
    }
}

static int region_ok(const floe_region *r) {
    const double m = FLOE_MAX_COORD;
    const floe_vec3 lo = r->lo, hi = r->hi;
    return (r->whole == 0 || r->whole == 1) && fabs(lo.x) <= m && fabs(lo.y) <= m && fabs(lo.z) <= m &&
           fabs(hi.x) <= m && fabs(hi.y) <= m && fabs(hi.z) <= m && lo.x < hi.x && lo.y < hi.y && lo.z < hi.z;
}

static int same_region(const floe_region *a, const floe_region *b) {
    return a->whole == b->whole && a->lo.x == b->lo.x && a->lo.y == b->lo.y && a->lo.z == b->lo.z &&
           a->hi.x == b->hi.x && a->hi.y == b->hi.y && a->hi.z == b->hi.z;
}

/* The families computed for one history row, so that nine stress columns
 * over one region cost one pass over the contacts. */
#define ROW_CACHE 16
typedef struct row_cache {
    int n;
    struct {
        int family;
        floe_region r;
        double v[RF_VALUES];
    } e[ROW_CACHE];
} row_cache;

static double region_value(const floe_world *w, const floe_history_column *col, row_cache *rc) {
    int q = region_quantity(col->quantity);
    if (q < 0 || !region_ok(&col->region)) return NAN;
    int fam = region_q[q].family;
    if (rc)
        for (int i = 0; i < rc->n; i++)
            if (rc->e[i].family == fam && same_region(&rc->e[i].r, &col->region)) return rc->e[i].v[region_q[q].index];
    double v[RF_VALUES];
    region_family(w, &col->region, fam, v);
    if (rc && rc->n < ROW_CACHE) {
        rc->e[rc->n].family = fam;
        rc->e[rc->n].r = col->region;
        memcpy(rc->e[rc->n].v, v, sizeof v);
        rc->n++;
    }
    return v[region_q[q].index];
}

static double plane_value(const floe_world *w, const floe_history_column *col) {
    floe_plane_count pc;
    int q = plane_quantity(col->quantity);
    if (q < 0 || col->a < 0 || col->a >= floe_plane_counter_count(w) || floe_plane_counter_get(w, col->a, &pc))
        return NAN;
    switch (q) {
        case 0:
            return (double)(pc.crossed_pos - pc.crossed_neg);
        case 1:
            return (double)pc.crossed_pos;
        case 2:
            return (double)pc.crossed_neg;
        case 3:
            return pc.mass_pos - pc.mass_neg;
        case 4:
            return pc.mass_pos;
        default:
            return pc.mass_neg;
    }
}

int floe_history_check(const floe_world *w, const floe_history_column *col, char *err, size_t errlen) {
    int np = floe_particle_count(w), k;
    switch (col->kind) {
        case FLOE_HIST_PARTICLE:
            if (particle_quantity(col->quantity, &k) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown particle quantity '%s' "
                            "(pos|vel|angvel|force|torque.x|y|z, ori.w|x|y|z)",
                            col->name, col->quantity);
                return -1;
            }
            if (col->a < 0 || col->a >= np) {
                floe_io_err(err, errlen, "history column '%s': no particle %d (the world has %d)", col->name, col->a,
                            np);
                return -1;
            }
            return 0;
        case FLOE_HIST_CONTACT:
            if (contact_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown contact quantity '%s' "
                            "(fn, ft, ft.y, ft.z, tw, tr, tr.y, tr.z, un)",
                            col->name, col->quantity);
                return -1;
            }
            if (col->a < 0 || col->a >= np || col->b < 0 || col->b >= np || col->a == col->b) {
                floe_io_err(err, errlen, "history column '%s': bad particle pair (%d, %d) (the world has %d)",
                            col->name, col->a, col->b, np);
                return -1;
            }
            return 0;
        case FLOE_HIST_GROUP:
            if (group_quantity(col->quantity, &k) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown group quantity '%s' "
                            "(force|torque|stress.x|y|z, servo.measured|target|velocity, phase)",
                            col->name, col->quantity);
                return -1;
            }
            if (group_quantity(col->quantity, &k) == 2 && !(col->area > 0 && col->area <= FLOE_MAX_COORD)) {
                floe_io_err(err, errlen,
                            "history column '%s': %s needs the area the force is divided by, positive and at "
                            "most %g (got %g)",
                            col->name, col->quantity, FLOE_MAX_COORD, col->area);
                return -1;
            }
            if (col->group < 0 || col->group >= floe_group_count(w)) {
                floe_io_err(err, errlen, "history column '%s': no group %d (the world has %d)", col->name, col->group,
                            floe_group_count(w));
                return -1;
            }
            return 0;
        case FLOE_HIST_ENERGY:
            if (col->energy < 0 || col->energy >= FLOE_E_COUNT) {
                floe_io_err(err, errlen, "history column '%s': energy term %d out of range [0, %d)", col->name,
                            col->energy, (int)FLOE_E_COUNT);
                return -1;
            }
            return 0;
        case FLOE_HIST_COUNTER:
            if (counter_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown counter '%s' "
                            "(contacts, step, time, particles, dt, bonded, breaks, inserted, inserted_mass, removed, "
                            "removed_mass, cell.xx..zz, strain.xx..zz, cell.volume, cell.phase)",
                            col->name, col->quantity);
                return -1;
            }
            return 0;
        case FLOE_HIST_REGION:
            if (region_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown region quantity '%s' (stress.xx..zz, stress.mean, "
                            "solid_fraction, coordination, coordination.mech, particles, rattlers, "
                            "fabric.xx..zz, fabric.contacts, volume)",
                            col->name, col->quantity);
                return -1;
            }
            if (!region_ok(&col->region)) {
                const floe_region *r = &col->region;
                floe_io_err(err, errlen,
                            "history column '%s': region box (%g, %g, %g) .. (%g, %g, %g) must be finite with "
                            "min < max on every axis (whole %d: 0 or 1)",
                            col->name, r->lo.x, r->lo.y, r->lo.z, r->hi.x, r->hi.y, r->hi.z, r->whole);
                return -1;
            }
            return 0;
        case FLOE_HIST_PLANE:
            if (plane_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown plane quantity '%s' "
                            "(count, count_pos, count_neg, mass, mass_pos, mass_neg)",
                            col->name, col->quantity);
                return -1;
            }
            if (col->a < 0 || col->a >= floe_plane_counter_count(w)) {
                floe_io_err(err, errlen, "history column '%s': no plane counter %d (the world has %d)", col->name,
                            col->a, floe_plane_counter_count(w));
                return -1;
            }
            return 0;
    }
    floe_io_err(err, errlen, "history column '%s': unknown kind %d", col->name, (int)col->kind);
    return -1;
}

static double history_value(const floe_world *w, const floe_history_column *col, const double *energy, row_cache *rc);

double floe_history_value(const floe_world *w, const floe_history_column *col, const double *energy) {
    return history_value(w, col, energy, NULL);
}

static double history_value(const floe_world *w, const floe_history_column *col, const double *energy, row_cache *rc) {
    int np = floe_particle_count(w), k = 0;
    switch (col->kind) {
        case FLOE_HIST_PARTICLE: {
            int q = particle_quantity(col->quantity, &k), i = col->a;
            if (q < 0 || i < 0 || i >= np) return NAN;
            switch (q) {
                case PQ_POS:
                    return vcomp(floe_positions(w)[i], k);
                case PQ_VEL:
                    return vcomp(floe_velocities(w)[i], k);
                case PQ_ANGVEL:
                    return vcomp(floe_angular_velocities(w)[i], k);
                case PQ_FORCE:
                    return vcomp(floe_forces(w)[i], k);
                case PQ_TORQUE:
                    return vcomp(floe_torques(w)[i], k);
                default: {
                    floe_quat o = floe_orientations(w)[i];
                    return k == 0 ? o.w : k == 1 ? o.x : k == 2 ? o.y : o.z;
                }
            }
        }
        case FLOE_HIST_CONTACT: {
            int q = contact_quantity(col->quantity);
            if (q < 0) return NAN;
            int ci = floe_contact_find(w, col->a, col->b);
            floe_contact_info c;
            if (ci < 0 || floe_contact_get(w, ci, &c) != FLOE_OK) return 0.0; /* no contact: 0 */
            switch (q) {
                case CQ_FN:
                    return c.force.x;
                case CQ_FT:
                    return hypot(c.force.y, c.force.z);
                case CQ_FTY:
                    return c.force.y;
                case CQ_FTZ:
                    return c.force.z;
                case CQ_TW:
                    return c.torque.x;
                case CQ_TR:
                    return hypot(c.torque.y, c.torque.z);
                case CQ_TRY:
                    return c.torque.y;
                case CQ_TRZ:
                    return c.torque.z;
                default:
                    return c.uN;
            }
        }
        case FLOE_HIST_GROUP: {
            int q = group_quantity(col->quantity, &k);
            if (q < 0 || col->group < 0 || col->group >= floe_group_count(w)) return NAN;
            if (q == 2) return vcomp(floe_group_stress(w, col->group, col->area), k);
            if (q == 3) {
                double sv[3];
                floe_group_servo(w, col->group, sv);
                return sv[k];
            }
            if (q == 4) return floe_group_phase(w, col->group);
            return vcomp(q == 0 ? floe_group_force(w, col->group) : floe_group_torque(w, col->group), k);
        }
        case FLOE_HIST_ENERGY: {
            if (col->energy < 0 || col->energy >= FLOE_E_COUNT) return NAN;
            if (energy) return energy[col->energy];
            double e[FLOE_E_COUNT];
            floe_energy(w, e);
            return e[col->energy];
        }
        case FLOE_HIST_COUNTER:
            switch (counter_quantity(col->quantity)) {
                case NQ_CONTACTS:
                    return floe_contact_count(w);
                case NQ_STEP:
                    return (double)floe_step_count(w);
                case NQ_TIME:
                    return floe_time(w);
                case NQ_PARTICLES:
                    return np;
                case NQ_DT:
                    return floe_dt(w);
                case NQ_BONDED:
                    return floe_bonded_count(w);
                case NQ_BREAKS:
                    return (double)floe_break_count(w);
                case NQ_INSERTED:
                case NQ_INSERTED_MASS:
                case NQ_REMOVED:
                case NQ_REMOVED_MASS:
                    return supply_total(w, counter_quantity(col->quantity));
                default: {
                    int q = counter_quantity(col->quantity);
                    double m[9];
                    if (q >= NQ_CELL && q < NQ_STRAIN)
                        return floe_world_get_cell(w, m, NULL) >= 0 ? m[q - NQ_CELL] : NAN;
                    if (q >= NQ_STRAIN && q < NQ_CELL_VOLUME) {
                        floe_world_cell_strain(w, m);
                        return m[q - NQ_STRAIN];
                    }
                    if (q == NQ_CELL_VOLUME) return floe_world_cell_volume(w);
                    if (q == NQ_CELL_PHASE) return floe_world_cell_phase(w);
                    return NAN;
                }
            }
        case FLOE_HIST_REGION:
            return region_value(w, col, rc);
        case FLOE_HIST_PLANE:
            return plane_value(w, col);
    }
    return NAN;
}

int floe_csv_history_header(floe_csv *c, const floe_history_column *cols, int n) {
    put(c, "step,time");
    for (int i = 0; i < n; i++) {
        put(c, ",");
        put_text(c, cols[i].name);
    }
    return end_line(c);
}

int floe_csv_history_row(floe_csv *c, const floe_world *w, const floe_history_column *cols, int n) {
    double e[FLOE_E_COUNT];
    int have_e = 0;
    row_cache rc;
    rc.n = 0;
    put(c, "%" PRId64 "," FLOE_CSV_EXACT, floe_step_count(w), floe_time(w));
    for (int i = 0; i < n; i++) {
        if (cols[i].kind == FLOE_HIST_ENERGY && !have_e) {
            floe_energy(w, e); /* once per row, however many energy columns */
            have_e = 1;
        }
        put(c, "," FLOE_CSV_EXACT, history_value(w, &cols[i], have_e ? e : NULL, &rc));
    }
    return end_line(c);
}

/* ---- events ------------------------------------------------------------ */

const char *floe_event_type_name(floe_event_type t) {
    switch (t) {
        case FLOE_EVENT_CONTACT_CREATED:
            return "created";
        case FLOE_EVENT_CONTACT_DELETED:
            return "deleted";
        case FLOE_EVENT_BOND_BROKEN:
            return "broken";
        case FLOE_EVENT_CONTACT_ACTIVATED:
            return "activated";
        case FLOE_EVENT_SLIP_CHANGE:
            return "slip_change";
        case FLOE_EVENT_BODY_INSERTED:
            return "inserted";
        case FLOE_EVENT_BODY_REMOVED:
            return "removed";
        case FLOE_EVENT_INLET_SHORT:
            return "inlet_short";
        case FLOE_EVENT_ENERGY_ERROR:
            return "energy_error";
        default:
            return "unknown";
    }
}

int floe_csv_events_header(floe_csv *c) {
    put(c, "step,time,type,a,b,fn,ft_y,ft_z,tw,tr_y,tr_z,detail,value1,value2");
    return end_line(c);
}

/* One formatting call per row: granular runs can produce millions of events. */
int floe_csv_event_row(floe_csv *c, const floe_event *ev) {
    put(c,
        "%" PRId64 "," FLOE_CSV_EXACT ",%s,%d,%d," FLOE_CSV_SHORT "," FLOE_CSV_SHORT "," FLOE_CSV_SHORT
        "," FLOE_CSV_SHORT "," FLOE_CSV_SHORT "," FLOE_CSV_SHORT ",%" PRIu32 "," FLOE_CSV_SHORT "," FLOE_CSV_SHORT "\n",
        ev->step, ev->time, floe_event_type_name(ev->type), ev->a, ev->b, ev->force.x, ev->force.y, ev->force.z,
        ev->torque.x, ev->torque.y, ev->torque.z, ev->detail, ev->value[0], ev->value[1]);
    return commit_line(c);
}

/* ---- final state ------------------------------------------------------- */

static const char *shape_name(floe_shape_type s) {
    const floe_shape_info *c = floe_shape_get(s);
    return c ? c->name : "unknown";
}

/* Opens the temporary of `path` (atomic.h); the caller finishes with
 * finish_atomic(). */
static floe_csv *open_atomic(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen) {
    if (floe_io_replace_begin(path, tmp, tmplen, err, errlen)) return NULL;
    return floe_csv_open(tmp, err, errlen);
}

/* Closes the temporary and, if every line went out (rc 0), puts it in
 * place, synced: the final state is written once a run. */
static int finish_atomic(floe_csv *c, int rc, const char *tmp, const char *path, char *err, size_t errlen) {
    if (rc) floe_io_err(err, errlen, "%s", floe_csv_error(c));
    if (floe_csv_close(c, rc ? NULL : err, errlen) != 0) rc = -1;
    return floe_io_replace_finish(tmp, path, rc == 0, FLOE_IO_DURABLE, err, errlen);
}

static void put_vec(floe_csv *c, floe_vec3 v) {
    put(c, "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT, v.x, v.y, v.z);
}

int floe_csv_write_particles(const char *path, const floe_world *w, char *err, size_t errlen) {
    char tmp[4200];
    floe_csv *c = open_atomic(path, tmp, sizeof tmp, err, errlen);
    if (!c) return -1;
    int rc = 0;
    put(c, "id,shape,material,groups,blocked,x,y,z,vx,vy,vz,wx,wy,wz,qw,qx,qy,qz,"
           "fx,fy,fz,tx,ty,tz,radius,mass");
    rc |= end_line(c);
    int n = floe_particle_count(w);
    if (n > 0) {
        floe_body_arrays B = floe_body_arrays_of(w);
        for (int i = 0; i < n && rc == 0; i++) {
            put(c, "%d,%s,%d,%" PRIu32 ",%" PRIu32, i, shape_name(floe_particle_shape(w, i)), B.mat[i], B.grp[i],
                B.blk[i]);
            put_vec(c, B.pos[i]);
            put_vec(c, B.vel[i]);
            put_vec(c, B.angvel[i]);
            put(c, "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT, B.ori[i].w, B.ori[i].x,
                B.ori[i].y, B.ori[i].z);
            put_vec(c, B.force[i]);
            put_vec(c, B.torque[i]);
            put(c, "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT, B.rad[i], B.mass[i]);
            rc |= end_line(c);
        }
    }
    return finish_atomic(c, rc, tmp, path, err, errlen);
}

/* The fixed contacts.csv columns; a model state name equal to one of them
 * gets a "state_" prefix. */
static const char *const contact_cols[] = {
    "a",   "b",   "model", "uN",  "nx",    "ny",    "nz",   "px",           "py", "pz", "fn", "fty", "ftz", "tw",
    "try", "trz", "kn",    "kt",  "lens0", "lens1", "area", "step_created", "fx", "fy", "fz", "tax", "tay", "taz",
    "tbx", "tby", "tbz",   "t1x", "t1y",   "t1z",   "ix",   "iy",           "iz", "sx", "sy", "sz",  NULL};

int floe_csv_write_contacts(const char *path, const floe_world *w, char *err, size_t errlen) {
    int nm = floe_model_count(), nc = floe_contact_count(w);
    /* Which models have contacts now; state columns are the union of their
     * names, in registry order. */
    unsigned char *present = calloc((size_t)nm + 1, 1);
    size_t total = 0;
    int maxstate = 1;
    for (int m = 0; m < nm; m++) {
        const floe_model_info *mi = floe_model_get(m);
        if (mi && mi->n_state > 0) {
            total += (size_t)mi->n_state;
            if (mi->n_state > maxstate) maxstate = mi->n_state;
        }
    }
    int *model_of = malloc(((size_t)(nc > 0 ? nc : 0) + 1) * sizeof(int));
    int *colmap = malloc((total + 1) * sizeof(int));
    size_t *base = malloc(((size_t)nm + 1) * sizeof(size_t));
    char(*colname)[96] = malloc((total + 1) * sizeof *colname);
    double *state = malloc((size_t)maxstate * sizeof(double));
    double *row = malloc((total + 1) * sizeof(double));
    char *have = malloc(total + 1);
    floe_csv *c = NULL;
    char tmp[4200];
    int rc = -1;
    if (!present || !model_of || !colmap || !base || !colname || !state || !row || !have) {
        floe_io_err(err, errlen, "%s: out of memory", path);
        goto out;
    }
    floe_contact_info ci;
    for (int i = 0; i < nc; i++) {
        model_of[i] = -1;
        if (floe_contact_get(w, i, &ci) != FLOE_OK || !ci.model) continue;
        for (int m = 0; m < nm; m++) {
            const floe_model_info *mi = floe_model_get(m);
            if (mi && (mi->name == ci.model || strcmp(mi->name, ci.model) == 0)) {
                model_of[i] = m;
                present[m] = 1;
                break;
            }
        }
    }
    int ncol = 0;
    size_t b = 0;
    for (int m = 0; m < nm; m++) {
        const floe_model_info *mi = floe_model_get(m);
        int ns = mi && mi->n_state > 0 ? mi->n_state : 0;
        base[m] = b;
        for (int k = 0; k < ns; k++) {
            colmap[b + (size_t)k] = -1;
            if (!present[m] || !mi->state_names || !mi->state_names[k]) continue;
            const char *s = mi->state_names[k];
            int fixed = 0;
            for (int f = 0; contact_cols[f]; f++) fixed |= strcmp(contact_cols[f], s) == 0;
            char name[96];
            snprintf(name, sizeof name, "%s%s", fixed ? "state_" : "", s);
            int col = 0;
            while (col < ncol && strcmp(colname[col], name) != 0) col++;
            if (col == ncol) memcpy(colname[ncol++], name, sizeof name);
            colmap[b + (size_t)k] = col;
        }
        b += (size_t)ns;
    }

    c = open_atomic(path, tmp, sizeof tmp, err, errlen);
    if (!c) goto out;
    rc = 0;
    for (int f = 0; contact_cols[f]; f++) put(c, f ? ",%s" : "%s", contact_cols[f]);
    for (int col = 0; col < ncol; col++) {
        put(c, ",");
        put_text(c, colname[col]);
    }
    rc |= end_line(c);
    for (int i = 0; i < nc && rc == 0; i++) {
        if (floe_contact_get(w, i, &ci) != FLOE_OK) continue;
        put(c, "%d,%d,", ci.a, ci.b);
        put_text(c, ci.model ? ci.model : "");
        put(c, "," FLOE_CSV_EXACT, ci.uN);
        put_vec(c, ci.normal);
        put_vec(c, ci.point);
        put_vec(c, ci.force);
        put_vec(c, ci.torque);
        put(c,
            "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT "," FLOE_CSV_EXACT ",%" PRId64,
            ci.kn, ci.kt, ci.lens[0], ci.lens[1], ci.area, ci.step_created);
        /* what the Love-Weber stress and the bodies' sums are made of
         * (docs/outputs.md#contactscsv-final-state) */
        put_vec(c, ci.force_global);
        put_vec(c, ci.torque_a);
        put_vec(c, ci.torque_b);
        put_vec(c, ci.t1);
        put(c, ",%d,%d,%d", ci.image[0], ci.image[1], ci.image[2]);
        put_vec(c, ci.image_shift);
        memset(have, 0, total + 1);
        int m = model_of[i];
        if (m >= 0) {
            const floe_model_info *mi = floe_model_get(m);
            int ns = floe_contact_state(w, i, state, maxstate);
            if (ns > mi->n_state) ns = mi->n_state;
            for (int k = 0; k < ns; k++) {
                int col = colmap[base[m] + (size_t)k];
                if (col >= 0) {
                    row[col] = state[k];
                    have[col] = 1;
                }
            }
        }
        /* empty field: this contact's model has no such state */
        for (int col = 0; col < ncol; col++) {
            if (have[col]) put(c, "," FLOE_CSV_EXACT, row[col]);
            else put(c, ",");
        }
        rc |= end_line(c);
    }
    rc = finish_atomic(c, rc, tmp, path, err, errlen);
out:
    free(present);
    free(model_of);
    free(colmap);
    free(base);
    free(colname);
    free(state);
    free(row);
    free(have);
    return rc;
}

int floe_csv_write_measurements(const char *path, const floe_world *w, const floe_named_region *regions, int n,
                                char *err, size_t errlen) {
    char tmp[4200];
    floe_csv *c = open_atomic(path, tmp, sizeof tmp, err, errlen);
    if (!c) return -1;
    int rc = 0;
    put(c, "source,name,quantity,value");
    rc |= end_line(c);
    for (int i = 0; i < n && rc == 0; i++) {
        double v[RF_COUNT][RF_VALUES];
        for (int f = 0; f < RF_COUNT; f++) region_family(w, &regions[i].region, f, v[f]);
        for (int q = 0; q < N_REGION_Q && rc == 0; q++) {
            put(c, "region,");
            put_text(c, regions[i].name);
            put(c, ",%s," FLOE_CSV_EXACT, region_q[q].name, v[region_q[q].family][region_q[q].index]);
            rc |= end_line(c);
        }
    }
    for (int k = 0; k < floe_plane_counter_count(w) && rc == 0; k++) {
        floe_history_column col;
        memset(&col, 0, sizeof col);
        col.kind = FLOE_HIST_PLANE;
        col.a = k;
        floe_plane_count pc;
        floe_plane_counter_get(w, k, &pc);
        for (int q = 0; q < N_PLANE_Q && rc == 0; q++) {
            snprintf(col.quantity, sizeof col.quantity, "%s", plane_q[q]);
            put(c, "plane,");
            put_text(c, pc.name);
            put(c, ",%s," FLOE_CSV_EXACT, plane_q[q], plane_value(w, &col));
            rc |= end_line(c);
        }
    }
    return finish_atomic(c, rc, tmp, path, err, errlen);
}
