/* Files of a world's current state written when a program asks (floe_io.h,
 * "files of the current state, on demand"): a ParaView series that grows by
 * one frame per call, and a restart file at a given path. The writers are
 * those of a run's outputs (vtk.c, restart.c); only the naming differs. */
#include <floe/floe_io.h>

#include "io/atomic.h"
#include "io/io_err.h"
#include "io/vtk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { PARTICLES, CONTACTS, BOUNDARIES, SHAPES, NSERIES };
static const char *const series_name[NSERIES] = {"particles", "contacts", "boundaries", "shapes"};
static const char *const series_ext[NSERIES] = {"vtu", "vtp", "vtp", "vtp"};

struct floe_vtk_series {
    char *dir;
    floe_vtk *vtk;
    floe_pvd *pvd[NSERIES]; /* created when the series first has a frame */
    int64_t last_step;      /* step of the newest frame (INT64_MIN: none) */
};

/* Whether the world has bodies for series s. */
static int has_bodies(const floe_world *w, int s) {
    if (s == PARTICLES || s == CONTACTS) return 1;
    if (s == SHAPES) return floe_vtk_shape_count(w) > 0;
    for (int i = 0; i < floe_particle_count(w); i++) {
        floe_shape_type t = floe_particle_shape(w, i);
        if (t == FLOE_SHAPE_WALL || t == FLOE_SHAPE_FACET) return 1;
    }
    return 0;
}

floe_vtk_series *floe_vtk_series_open(const char *dir, char *err, size_t errlen) {
    if (!dir || !*dir) {
        floe_io_err(err, errlen, "floe_vtk_series_open: no directory");
        return NULL;
    }
    if (strlen(dir) > 3900) {
        floe_io_err(err, errlen, "%.64s...: path too long", dir);
        return NULL;
    }
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        floe_io_err(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return NULL;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        floe_io_err(err, errlen, "cannot write ParaView frames into %s: it is not a directory", dir);
        return NULL;
    }
    floe_vtk_series *s = calloc(1, sizeof *s);
    if (s) s->dir = strdup(dir);
    if (s && s->dir) s->vtk = floe_vtk_create();
    if (!s || !s->dir || !s->vtk) {
        floe_vtk_series_close(s);
        floe_io_err(err, errlen, "out of memory");
        return NULL;
    }
    s->last_step = INT64_MIN;
    return s;
}

void floe_vtk_series_close(floe_vtk_series *s) {
    if (!s) return;
    for (int k = 0; k < NSERIES; k++) floe_pvd_destroy(s->pvd[k]);
    floe_vtk_destroy(s->vtk);
    free(s->dir);
    free(s);
}

int floe_vtk_series_write(floe_vtk_series *s, const floe_world *w, char *err, size_t errlen) {
    if (!s || !w) return floe_io_err(err, errlen, "floe_vtk_series_write: no series or no world");
    int64_t step = floe_step_count(w);
    double t = floe_time(w);
    /* the collections are rebuilt from the frame list kept in each pvd; a
     * frame at the same step as the newest replaces its file, not its entry */
    int again = step == s->last_step;
    for (int k = 0; k < NSERIES; k++) {
        if (!has_bodies(w, k)) continue;
        char name[128], path[4096], pvd[4096];
        snprintf(name, sizeof name, "%s_%06" PRId64 ".%s", series_name[k], step, series_ext[k]);
        snprintf(path, sizeof path, "%s/%s", s->dir, name);
        int rc;
        if (k == PARTICLES) rc = floe_vtk_write_particles(s->vtk, path, w, err, errlen);
        else if (k == CONTACTS) rc = floe_vtk_write_contacts(s->vtk, path, w, err, errlen);
        else if (k == BOUNDARIES) rc = floe_vtk_write_boundaries(s->vtk, path, w, err, errlen);
        else rc = floe_vtk_write_shapes(s->vtk, path, w, err, errlen);
        if (rc) return -1;
        if (!s->pvd[k]) {
            snprintf(pvd, sizeof pvd, "%s/%s.pvd", s->dir, series_name[k]);
            if (!(s->pvd[k] = floe_pvd_create(pvd))) return floe_io_err(err, errlen, "out of memory");
        } else if (again) continue; /* listed already */
        if (floe_pvd_add(s->pvd[k], t, name, err, errlen)) return -1;
    }
    s->last_step = step;
    return 0;
}

int floe_restart_save_file(const char *path, const floe_restart *r, char *err, size_t errlen) {
    if (!path || !*path) return floe_io_err(err, errlen, "floe_restart_save_file: no path");
    char tmp[4200];
    if (floe_io_replace_begin(path, tmp, sizeof tmp, err, errlen)) return -1;
    int ok = floe_restart_write(tmp, r, err, errlen) == 0;
    return floe_io_replace_finish(tmp, path, ok, FLOE_IO_DURABLE, err, errlen);
}
