/* CSV tables (see csv.h and docs/outputs.md). */
#include "io/csv.h"
#include "base/mem.h"
#include "io/body_arrays.h"
#include "io/atomic.h"
#include "io/io_err.h"
#include <floe/floe_shape.h>
#include "io/quantity.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
    floe_quantity_cache rc;
    rc.n = 0;
    put(c, "%" PRId64 "," FLOE_CSV_EXACT, floe_step_count(w), floe_time(w));
    for (int i = 0; i < n; i++) {
        if (cols[i].kind == FLOE_HIST_ENERGY && !have_e) {
            floe_energy(w, e); /* once per row, however many energy columns */
            have_e = 1;
        }
        put(c, "," FLOE_CSV_EXACT, floe_history_value_cached(w, &cols[i], have_e ? e : NULL, &rc));
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
    const char *rq[FLOE_REGION_QUANTITIES], *pq[FLOE_PLANE_QUANTITIES];
    floe_history_region_quantities(rq, FLOE_REGION_QUANTITIES);
    floe_history_plane_quantities(pq, FLOE_PLANE_QUANTITIES);
    for (int i = 0; i < n && rc == 0; i++) {
        double v[FLOE_REGION_QUANTITIES];
        floe_region_values(w, &regions[i].region, v);
        for (int q = 0; q < FLOE_REGION_QUANTITIES && rc == 0; q++) {
            put(c, "region,");
            put_text(c, regions[i].name);
            put(c, ",%s," FLOE_CSV_EXACT, rq[q], v[q]);
            rc |= end_line(c);
        }
    }
    for (int k = 0; k < floe_plane_counter_count(w) && rc == 0; k++) {
        floe_plane_count pc;
        floe_plane_counter_get(w, k, &pc);
        double v[FLOE_PLANE_QUANTITIES];
        floe_plane_values(w, k, v);
        for (int q = 0; q < FLOE_PLANE_QUANTITIES && rc == 0; q++) {
            put(c, "plane,");
            put_text(c, pc.name);
            put(c, ",%s," FLOE_CSV_EXACT, pq[q], v[q]);
            rc |= end_line(c);
        }
    }
    return finish_atomic(c, rc, tmp, path, err, errlen);
}
