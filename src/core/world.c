/* Services on the world's state that the whole core uses: error messages,
 * the thread count, the model instance of each material pair. The public
 * functions that build and read a world are in world_api.c. */
#include "core/world.h"
#include "models/model.h"

#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void floe__error(floe_world *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
}

int floe__bad_id(const floe_world *w, const char *fn, const char *what, int id, int n) {
    /* read-only functions report through this too: worlds are always
     * allocated by floe_world_create, never const objects, so writing the
     * message buffer is defined */
    floe_world *mw = (floe_world *)w;
    if (n > 0)
        snprintf(mw->err, sizeof mw->err, "%s: %s id %d is out of range [0, %d] (the world has %d %ss)", fn, what, id,
                 n - 1, n, what);
    else snprintf(mw->err, sizeof mw->err, "%s: %s id %d does not exist: the world has no %ss", fn, what, id, what);
    return FLOE_ERR_ARG;
}

/* Cores kept busy by other processes: the 1-minute load average of Linux
 * (0 where it cannot be read). */
static int busy_cores(void) {
    FILE *f = fopen("/proc/loadavg", "r");
    double load = 0;
    if (f) {
        if (fscanf(f, "%lf", &load) != 1) load = 0;
        fclose(f);
    }
    return load > 0 ? (int)(load + 0.5) : 0;
}

/* Default: the cores nobody else is using, and at least ~4000 bodies per
 * thread. A thread on a core shared with another busy process stalls every
 * fork/join of the step (ten times slower in a measured case), and small
 * worlds gain less than the fork/join costs. Results are the same for any
 * thread count, so the choice only affects speed. */
int floe__resolve_threads(const floe_world *w) {
    if (w->def.threads > 0) return w->def.threads;
    int n = omp_get_max_threads(), idle = n - busy_cores();
    int by_size = w->np / 4000 > 1 ? w->np / 4000 : 1;
    if (idle < n) n = idle;
    if (by_size < n) n = by_size;
    return n > 1 ? n : 1;
}

floe_pair_override *floe__find_override(floe_world *w, int a, int b) {
    for (int i = 0; i < w->noverrides; i++) {
        floe_pair_override *o = &w->overrides[i];
        if ((o->a == a && o->b == b) || (o->a == b && o->b == a)) return o;
    }
    return NULL;
}

int floe__pair_inst_of(const floe_world *w, int a, int b) {
    /* same preferred model -> that model; otherwise the registry's
     * first, Linear (docs/decisions.md#model-of-a-mixed-material-pair-g7) */
    int inst = w->mats[a].model == w->mats[b].model ? w->mats[a].model : 0;
    for (int i = 0; i < w->noverrides; i++) {
        const floe_pair_override *o = &w->overrides[i];
        if ((o->a == a && o->b == b) || (o->a == b && o->b == a)) inst = o->inst;
    }
    return inst;
}

const floe_instance *floe__pair_instance(const floe_world *w, int ma, int mb) {
    return &w->insts[w->pair_inst[ma * w->pair_inst_n + mb]];
}

/* Resolves per-pair model instances and the contact state stride. */
int floe__prepare(floe_world *w) {
    int n = w->nmats;
    free(w->pair_inst);
    w->pair_inst = malloc(sizeof(int) * (size_t)(n > 0 ? n * n : 1));
    if (!w->pair_inst) {
        floe__error(w, "out of memory");
        return 0;
    }
    w->pair_inst_n = n;
    size_t stride = 8;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            int inst = floe__pair_inst_of(w, a, b);
            w->pair_inst[a * n + b] = inst;
            size_t s = floe_registry_get(w->insts[inst].model)->state_size;
            if (s > stride) stride = s;
        }
    stride = (stride + 7) & ~(size_t)7;
    if (stride != w->cstride) {
        unsigned char *ns = calloc((size_t)(w->ccap > 0 ? w->ccap : 1), stride);
        if (!ns) {
            floe__error(w, "out of memory");
            return 0;
        }
        for (int i = 0; i < w->ncon; i++)
            memcpy(ns + (size_t)i * stride, w->cstate + (size_t)i * w->cstride,
                   w->cstride < stride ? w->cstride : stride);
        free(w->cstate);
        w->cstate = ns;
        w->cstride = stride;
    }
    if ((floe__warm_needed(w) && !floe__warm_keep(w)) || (floe__geom_needed(w) && !floe__geom_keep(w))) {
        floe__error(w, "out of memory");
        return 0;
    }
    w->prepared = 1;
    return 1;
}

int floe__warm_needed(const floe_world *w) {
    if (w->def.legacy_lens) return 1; /* lens then depend on the overlap at creation */
    for (int i = 0; w->pair_inst && i < w->pair_inst_n * w->pair_inst_n; i++)
        if (!floe_registry_get(w->insts[w->pair_inst[i]].model)->no_warm) return 1;
    for (int i = 0; i < w->np; i++)
        if (w->shape[i] != FLOE_SHAPE_SPHERE && w->shape[i] != FLOE_SHAPE_WALL) return 1;
    return 0;
}

int floe__geom_needed(const floe_world *w) {
    if (w->cell.axes || w->def.legacy_lens) return 1;
    for (int i = 0; i < w->np; i++)
        if (w->shape[i] != FLOE_SHAPE_SPHERE && w->shape[i] != FLOE_SHAPE_WALL) return 1;
    return 0;
}

int floe__geom_keep(floe_world *w) {
    if (w->geom_kept) return 1;
    const size_t np = (size_t)w->pcap, nc = (size_t)w->ccap;
    quat *ro = np ? malloc(sizeof *ro * np) : NULL;
    vec3 *am = np ? malloc(sizeof *am * np) : NULL;
    floe_img *wr = np ? calloc(np, sizeof *wr) : NULL;
    floe_contact_geo *x = nc ? malloc(sizeof *x * nc) : NULL;
    if ((np && (!ro || !am || !wr)) || (nc && !x)) {
        free(ro);
        free(am);
        free(wr);
        free(x);
        return 0;
    }
    for (int i = 0; i < w->np; i++) { /* every body has been a sphere or a wall until now */
        ro[i] = floe__surface_ori(w, i);
        am[i] = v3(NAN, NAN, NAN);
    }
    for (int k = 0; k < w->ncon; k++) { /* and every contact has followed */
        floe_geom g = floe__contact_geom(w, k);
        x[k] = (floe_contact_geo){g.n, g.c, g.uN, {0, 0}, floe__contact_img(w, k)};
        floe__contact_lens(w, k, x[k].lens);
    }
    w->bp.ref_ori = ro;
    w->angmom = am;
    w->wraps = wr;
    w->cgeom = x;
    w->geom_kept = 1;
    return 1;
}

int floe__warm_keep(floe_world *w) {
    if (w->warm_kept) return 1;
    if (w->ccap > 0) {
        floe_contact_warm *x = malloc(sizeof *x * (size_t)w->ccap);
        if (!x) return 0;
        for (int k = 0; k < w->ncon; k++) {
            double lens[2];
            floe__contact_lens(w, k, lens);
            x[k] = floe__warm_implied(lens);
        }
        w->cwarm = x;
    }
    w->warm_kept = 1;
    return 1;
}
