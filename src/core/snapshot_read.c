/* Reading the snapshot (snapshot.h): every item asked of the reader once
 * the rows it fills exist; what the API builds and checks (materials, model
 * instances, groups' names, particles' shapes, the schedule) rebuilt
 * through it, by model name and parameter key; then the checks of
 * snapshot_check.c. */
#include "core/clump.h"
#include "core/cell.h"
#include "core/cell_phases.h"
#include "core/step.h"
#include "core/snapshot.h"
#include "core/snapshot_flat.h"

#include "core/snapshot_members.h"
#include "core/snapshot_shapes.h"
#include "core/supply.h"
#include "core/threads.h"

#include "shapes/shape.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the world ---------------------------------------------------------------- */

enum { MAX_FILE_MODELS = 64 };

/* A model's parameter keys as the snapshot lists them. */
typedef struct file_model {
    char name[64];
    char **mat, **law;
    long nmat, nlaw;
    int64_t state_size;
} file_model;

typedef struct rd {
    floe_snap_in in;
    floe_world *w;
    table *t;
    file_model models[MAX_FILE_MODELS];
    int nmodels;
    int *inst_map; /* file instance -> world instance */
    long ninst;
    int refused; /* a value was read but refused */
    void *buf;   /* work buffer of read_items, reused */
    size_t bufsize;
} rd;

static file_model *file_model_get(rd *R, const char *name) {
    floe_snap_in *in = &R->in;
    for (int i = 0; i < R->nmodels; i++)
        if (!strcmp(R->models[i].name, name)) return &R->models[i];
    if (in->bad) return NULL;
    if (R->nmodels >= MAX_FILE_MODELS) {
        floe_snap_fail(in, "too many models");
        return NULL;
    }
    char g[96];
    snprintf(g, sizeof g, "models/%s", name);
    if (strlen(name) > 63 || !in->rd->has_group(in->rd->ctx, g)) {
        floe_snap_fail(in, "missing /models/%s", name);
        return NULL;
    }
    file_model *fm = &R->models[R->nmodels];
    memset(fm, 0, sizeof *fm);
    snprintf(fm->name, sizeof fm->name, "%s", name);
    fm->nmat = floe_snap_rows_of(in, g, "mat_params");
    fm->nlaw = floe_snap_rows_of(in, g, "law_params");
    if (!in->bad && (fm->nmat > FLOE_MAX_MAT_PARAMS || fm->nlaw > FLOE_MAX_LAW_PARAMS))
        floe_snap_fail(in, "model %s has too many parameters", name);
    if (!in->bad) {
        fm->mat = floe_snap_get_strings(in, g, "mat_params", (size_t)fm->nmat);
        fm->law = floe_snap_get_strings(in, g, "law_params", (size_t)fm->nlaw);
        fm->state_size = floe_snap_get_int(in, g, "state_size", 0, 1 << 20);
    }
    if (in->bad) {
        free(fm->mat);
        free(fm->law);
        return NULL;
    }
    R->nmodels++;
    return fm;
}

static int key_index(char **keys, long n, const char *key) {
    for (long i = 0; i < n; i++)
        if (!strcmp(keys[i], key)) return (int)i;
    return -1;
}

/* A value the API refused: `what` names the item that held it. */
static void refused(rd *R, const char *what) { floe_snap_fail(&R->in, "%s: %s", what, floe_last_error(R->w)); }

/* Materials by name and model, their parameters by key. */
static void read_materials(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe_snap_rows_of(in, "materials", "name");
    if (in->bad) return;
    char **names = floe_snap_get_strings(in, "materials", "name", (size_t)n);
    char **models = floe_snap_get_strings(in, "materials", "model", (size_t)n);
    double *p = malloc(sizeof *p * ((size_t)n + 1) * FLOE_MAX_MAT_PARAMS);
    if (!p) floe_snap_fail(in, "out of memory");
    floe_snap_get(in, "materials", "params", 0, FLOE_SNAP_F64, (size_t)n, FLOE_MAX_MAT_PARAMS, p);
    for (long i = 0; !in->bad && i < n; i++) {
        file_model *fm = file_model_get(R, models[i]);
        if (!fm) break;
        if (floe_add_material(w, names[i], models[i]) != i) {
            refused(R, "/materials");
            break;
        }
        const floe_model *m = floe_registry_get(w->mats[i].model);
        for (int k = 0; k < floe_mat_rows(m) && !in->bad; k++) {
            int j = key_index(fm->mat, fm->nmat, floe_mat_spec(m, k)->key);
            for (long o = 0; j < 0 && o < fm->nmat; o++) /* a file from before a rename */
                if (floe_param_alias(m->info.name, fm->mat[o]) &&
                    !strcmp(floe_param_alias(m->info.name, fm->mat[o]), floe_mat_spec(m, k)->key))
                    j = (int)o;
            if (j >= 0 &&
                floe_material_set(w, (int)i, fm->mat[j], p[(size_t)i * FLOE_MAX_MAT_PARAMS + (size_t)j]) != FLOE_OK)
                refused(R, "/materials");
        }
    }
    free(names);
    free(models);
    free(p);
}

/* Model instances: the defaults by model name, then the pair overrides. */
static void read_instances(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe_snap_rows_of(in, "instances", "model");
    long ndef = in->bad ? 0 : (long)floe_snap_get_int(in, "instances", "n_defaults", 0, n);
    long nov = floe_snap_rows_of(in, "instances", "overrides");
    if (in->bad) return;
    char **models = floe_snap_get_strings(in, "instances", "model", (size_t)n);
    double *p = malloc(sizeof *p * ((size_t)n + 1) * FLOE_MAX_LAW_PARAMS);
    int32_t *ov = malloc(sizeof *ov * 3 * ((size_t)nov + 1));
    R->inst_map = malloc(sizeof *R->inst_map * ((size_t)n + 1));
    R->ninst = n;
    if (!p || !ov || !R->inst_map) floe_snap_fail(in, "out of memory");
    floe_snap_get(in, "instances", "law_params", 0, FLOE_SNAP_F64, (size_t)n, FLOE_MAX_LAW_PARAMS, p);
    floe_snap_get(in, "instances", "overrides", 0, FLOE_SNAP_I32, (size_t)nov, 3, ov);
    for (long i = 0; !in->bad && i < n; i++) R->inst_map[i] = -1;
    for (int pass = 0; pass < 2 && !in->bad; pass++) {
        /* pass 0: the defaults; pass 1: overrides, which start from them */
        for (long i = 0; !in->bad && i < (pass ? nov : ndef); i++) {
            long fi = pass ? ov[3 * i + 2] : i;
            if (fi < 0 || fi >= n || (pass && fi < ndef)) {
                floe_snap_fail(in,
                               "/instances/overrides: override %ld names instance %ld (instances %ld to %ld are "
                               "overrides)",
                               i, fi, ndef, n - 1);
                break;
            }
            file_model *fm = file_model_get(R, models[fi]);
            int mi = floe_registry_find(models[fi]);
            if (!fm) break;
            if (mi < 0) {
                floe_snap_fail(in, "the snapshot uses contact model '%s', which this floe does not have", models[fi]);
                break;
            }
            int ma = pass ? ov[3 * i] : -1, mb = pass ? ov[3 * i + 1] : -1;
            if (pass) {
                if (floe_pair_set_model(w, ma, mb, models[fi]) != FLOE_OK) {
                    refused(R, "/instances");
                    break;
                }
                R->inst_map[fi] = w->ninsts - 1;
            } else {
                R->inst_map[fi] = mi;
            }
            const floe_model *m = floe_registry_get(mi);
            for (int k = 0; k < m->info.n_law_params && !in->bad; k++) {
                int j = key_index(fm->law, fm->nlaw, m->info.law_params[k].key);
                if (j < 0) continue;
                double v = p[(size_t)fi * FLOE_MAX_LAW_PARAMS + (size_t)j];
                floe_status st = pass ? floe_pair_set(w, ma, mb, fm->law[j], v)
                                      : floe_model_set(w, models[fi], fm->law[j], v);
                if (st != FLOE_OK) refused(R, "/instances");
            }
        }
    }
    free(models);
    free(p);
    free(ov);
}

static void read_group_names(rd *R) {
    floe_snap_in *in = &R->in;
    long n = floe_snap_rows_of(in, "groups", "name");
    if (!in->bad && n > FLOE_MAX_GROUPS) floe_snap_fail(in, "/groups/name: %ld groups, at most %d", n, FLOE_MAX_GROUPS);
    if (in->bad) return;
    char **gn = floe_snap_get_strings(in, "groups", "name", (size_t)n);
    for (long i = 0; !in->bad && i < n; i++)
        if (floe_add_group(R->w, gn[i]) != i) refused(R, "/groups/name");
    free(gn);
}

static void read_schedule(rd *R) {
    floe_snap_in *in = &R->in;
    long n = floe_snap_rows_of(in, "schedule", "step");
    if (in->bad) return;
    size_t N = (size_t)n;
    int64_t *st = malloc(sizeof *st * (N + 1));
    int32_t *gi = malloc(sizeof *gi * 2 * (N + 1));
    double *args = malloc(sizeof *args * FLOE_MAX_METHOD_ARGS * (N + 1));
    char **model = floe_snap_get_strings(in, "schedule", "model", N);
    char **method = floe_snap_get_strings(in, "schedule", "method", N);
    if (!st || !gi || !args) floe_snap_fail(in, "out of memory");
    floe_snap_get(in, "schedule", "step", 0, FLOE_SNAP_I64, N, 1, st);
    floe_snap_get(in, "schedule", "group", 0, FLOE_SNAP_I32, N, 1, gi);
    floe_snap_get(in, "schedule", "nargs", 0, FLOE_SNAP_I32, N, 1, gi + N);
    floe_snap_get(in, "schedule", "args", 0, FLOE_SNAP_F64, N, FLOE_MAX_METHOD_ARGS, args);
    for (size_t i = 0; !in->bad && i < N; i++)
        if (floe_schedule_method(R->w, st[i], model[i], method[i], gi[i], args + i * FLOE_MAX_METHOD_ARGS, gi[N + i]) !=
            FLOE_OK)
            refused(R, "/schedule");
    free(st);
    free(gi);
    free(args);
    free(model);
    free(method);
}

static void read_items(rd *R, floe_world *w, const floe_snap_rows *rows, int def_only, int skip_def);

/* Plane counters: their names, then every other item of their rows. */
static void read_planes(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe_snap_rows_of(in, "measure", "plane_name");
    if (in->bad) return;
    size_t N = (size_t)n;
    char **names = floe_snap_get_strings(in, "measure", "plane_name", N);
    floe_plane_counter *p = calloc(N + 1, sizeof *p);
    if (!p) floe_snap_fail(in, "out of memory for %ld plane counters", n);
    if (in->bad) {
        free(p);
        free(names);
        return;
    }
    free(w->planes);
    w->planes = p;
    w->plcap = (int)N + 1;
    w->nplanes = (int)N;
    for (size_t i = 0; i < N; i++) snprintf(p[i].name, sizeof p[i].name, "%s", names[i]);
    free(names);
    read_items(R, w, &floe__rows_planes, 0, 0);
}

/* Inlets and sinks (supply.c): their names, then every other item of their
 * rows. A snapshot of a format before them has none. */
static void read_supply_rows(rd *R, const char *name_item, const floe_snap_rows *rows, void **arr, int *n_out, int *cap,
                             size_t size, size_t name_size) {
    floe_snap_in *in = &R->in;
    long n = floe_snap_rows_of(in, "supply", name_item);
    if (in->bad) return;
    size_t N = (size_t)n;
    char **names = floe_snap_get_strings(in, "supply", name_item, N);
    char *p = calloc(N + 1, size);
    if (!p) floe_snap_fail(in, "out of memory for %ld %ss", n, rows->noun);
    if (in->bad) {
        free(p);
        free(names);
        return;
    }
    free(*arr);
    *arr = p;
    *cap = (int)N + 1;
    *n_out = (int)N;
    for (size_t i = 0; i < N; i++) snprintf(p + i * size, name_size, "%s", names[i]);
    free(names);
    read_items(R, R->w, rows, 0, 0);
}

static void read_supply(rd *R) {
    floe_world *w = R->w;
    read_supply_rows(R, "inlet_name", &floe__rows_inlets, (void **)&w->inlets, &w->ninlets, &w->inlcap,
                     sizeof *w->inlets, sizeof w->inlets->name);
    if (!R->in.bad)
        read_supply_rows(R, "sink_name", &floe__rows_sinks, (void **)&w->sinks, &w->nsinks, &w->skcap, sizeof *w->sinks,
                         sizeof w->sinks->name);
}

/* Group phases (motion.c): rows of every item of "phases". */
static void read_phases(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe_snap_rows_of(in, "phases", "group");
    if (in->bad) return;
    floe_phase_row *p = calloc((size_t)n + 1, sizeof *p);
    if (!p) floe_snap_fail(in, "out of memory for %ld phases", n);
    if (in->bad) return;
    free(w->phases);
    w->phases = p;
    w->phcap = (int)n + 1;
    w->nphases = (int)n;
    read_items(R, w, &floe__rows_phases, 0, 0);
}

/* The cell's phases (cell_phases.c): rows of every item of "cell_phases". */
static void read_cell_phases(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long n = floe_snap_rows_of(in, "cell_phases", "trigger");
    if (in->bad) return;
    floe_cell_phase *p = calloc((size_t)n + 1, sizeof *p);
    if (!p) floe_snap_fail(in, "out of memory for %ld cell phases", n);
    if (in->bad) return;
    free(w->cphases);
    w->cphases = p;
    w->cphcap = (int)n + 1;
    w->ncphases = (int)n;
    read_items(R, w, &floe__rows_cell_phases, 0, 0);
}

/* Reads every item of the table with rows `rows` (NULL: the world's own
 * values) that the API did not build, into w, through the walker of items
 * (snapshot_walk.c); `def_only` limits the world's values to its
 * definition, `skip_def` leaves it out. */
static void read_items(rd *R, floe_world *w, const floe_snap_rows *rows, int def_only, int skip_def) {
    size_t d0 = offsetof(floe_world, def), d1 = d0 + sizeof(floe_world_def);
    floe__snap_read_items(&R->in, R->t, w, rows, d0, def_only || skip_def ? d1 : d0, def_only, &R->buf, &R->bufsize);
}

/* The contacts: their table, instances (mapped), model state. */
static void read_contacts(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long nc = floe_snap_rows_of(in, "contacts", "a");
    int64_t fstride = in->bad ? 0 : floe_snap_get_int(in, "contacts", "state_stride", 0, 1 << 20);
    /* material pair -> instance table and the state stride of this build */
    if (!in->bad && !floe__prepare(w)) refused(R, "/contacts");
    if (in->bad) return;
    size_t n = (size_t)nc;
    floe_contact *con = calloc(n + 1, sizeof *con);
    floe_contact_warm *warm = calloc(n + 1, sizeof *warm);
    floe_contact_cold *cold = calloc(n + 1, sizeof *cold);
    floe_contact_geo *geo = calloc(n + 1, sizeof *geo);
    unsigned char *cs = calloc(n + 1, w->cstride),
                  *fs = (size_t)fstride == w->cstride ? malloc(1) : malloc(n * (size_t)fstride + 1);
    uint16_t *fi = malloc(sizeof *fi * (n + 1));
    if (!con || !warm || !cold || !geo || !cs || !fs || !fi) {
        free(con);
        free(warm);
        free(cold);
        free(geo);
        free(cs);
        free(fs);
        free(fi);
        floe_snap_fail(in, "out of memory for %ld contacts", nc);
        return;
    }
    free(w->con);
    free(w->cwarm);
    free(w->ccold);
    free(w->cgeom);
    free(w->cstate);
    w->con = con;
    w->cwarm = warm;
    w->warm_kept = 1; /* until the records read prove to be the implied ones (below) */
    w->ccold = cold;
    w->cgeom = geo;
    w->geom_kept = 1; /* until the check (floe_snapshot_read) */
    w->cstate = cs;
    w->ccap = nc + 1;
    w->ncon = nc;
    read_items(R, w, &floe__rows_contacts, 0, 0);
    for (size_t k = 0; k < n; k++) w->con[k].imaged = !floe__img_zero(w->cgeom[k].img); /* derived */
    /* a wall contact's side from its normal (floe__wall_side), whatever the file's flags say */
    for (size_t k = 0; k < n; k++) {
        floe_contact *c = &w->con[k];
        c->flags &= (uint8_t)~CF_SIDE_NEG;
        vec3 nk = w->cgeom[k].n; /* +-e_axis: no shape record read before the checks */
        if (c->a >= 0 && c->a < w->np && w->shape[c->a] == FLOE_SHAPE_WALL && nk.x + nk.y + nk.z < 0)
            c->flags |= CF_SIDE_NEG;
    }
    floe_snap_get(in, "contacts", "instance", 0, FLOE_SNAP_U16, n, 1, fi);
    for (size_t k = 0; !in->bad && k < n; k++) {
        if (fi[k] >= R->ninst || R->inst_map[fi[k]] < 0)
            floe_snap_fail(in, "/contacts/instance: contact %zu: bad instance %d", k, fi[k]);
        else w->con[k].inst = (uint16_t)R->inst_map[fi[k]];
    }
    /* raw model state, checked against this build's layout (straight into
     * place when the strides agree, as they do between builds of one floe) */
    int direct = (size_t)fstride == w->cstride;
    floe__snap_get_raw(in, "contacts", "state", n, (size_t)fstride, direct ? w->cstate : fs);
    for (size_t k = 0; !in->bad && k < n; k++) {
        const floe_model *m = floe_registry_get(w->insts[w->con[k].inst].model);
        file_model *fm = file_model_get(R, m->info.name);
        if (!fm) break;
        if ((size_t)fm->state_size != m->state_size || m->state_size > (size_t)fstride) {
            floe_snap_fail(in,
                           "model %s keeps %" PRId64 " bytes of contact state in this snapshot but %zu in this "
                           "floe: it was written by an incompatible version",
                           m->info.name, fm->state_size, m->state_size);
            break;
        }
        if (!direct) memcpy(w->cstate + k * w->cstride, fs + k * (size_t)fstride, m->state_size);
    }
    free(fs);
    free(fi);
    if (in->bad) w->ncon = 0;
    /* no warm records kept where the world cannot need them and every
     * contact's is the one it implies (core/world.h): the file's then
     * loses nothing */
    int implied = !in->bad && !floe__warm_needed(w);
    for (size_t k = 0; implied && k < n; k++) {
        floe_contact_warm x = floe__warm_implied(w->cgeom[k].lens);
        implied = !memcmp(&x, &w->cwarm[k], sizeof x);
    }
    if (implied) {
        free(w->cwarm);
        w->cwarm = NULL;
        w->warm_kept = 0;
    }
}

static void read_pairs(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *w = R->w;
    long np = floe_snap_rows_of(in, "broadphase", "pairs");
    if (in->bad) return;
    floe_pair *pairs = malloc(sizeof *pairs * ((size_t)np + 1));
    floe_img *img = calloc((size_t)np + 1, sizeof *img); /* dropped after the checks without a cell */
    if (!pairs || !img) {
        free(pairs);
        free(img);
        floe_snap_fail(in, "out of memory for %ld pairs", np);
        return;
    }
    free(w->bp.pairs);
    free(w->bp.img);
    w->bp.pairs = pairs;
    w->bp.img = img;
    w->bp.cap = w->bp.img_cap = (int)np + 1;
    w->bp.npairs = (int)np;
    read_items(R, w, &floe__rows_pairs, 0, 0);
    if (in->bad) w->bp.npairs = 0;
}

/* The world definition; the message of a refused one names its item. */
static floe_world *read_world(rd *R) {
    floe_snap_in *in = &R->in;
    floe_world *tmp = calloc(1, sizeof *tmp);
    if (!tmp) {
        floe_snap_fail(in, "out of memory");
        return NULL;
    }
    tmp->def = floe_default_world_def();
    read_items(R, tmp, NULL, 1, 0);
    floe_world *w = NULL;
    if (!in->bad && !(w = floe_world_create(&tmp->def))) {
        /* the engine names the def field it refused ("dt_safety = 5 is ...");
         * the snapshot stores dt and skin as def_dt and def_skin */
        const char *e = floe_create_error(), *k = strstr(e, ": ");
        k = k ? k + 2 : e;
        size_t n = strspn(k, "abcdefghijklmnopqrstuvwxyz_");
        int def_prefix = (n == 2 && !strncmp(k, "dt", 2)) || (n == 4 && !strncmp(k, "skin", 4));
        floe_snap_fail(in, "attribute '/world@%s%.*s': %s", def_prefix ? "def_" : "", (int)n, k, e);
        R->refused = 1;
    }
    free(tmp);
    return w;
}

static void read_shape_items(rd *R) {
    /* a shape without records may have no group (floe__snap_shapes_create) */
    for (const floe_snap_field *f = R->t->shapes.stores; f->member && !R->in.bad; f++)
        if (count_of(R->w, f->rows) > 0) read_items(R, R->w, f->rows, 0, 0);
}

floe_world *floe_snapshot_read(const floe_snap_reader *rdr, char *err, size_t errlen, int *damaged) {
    rd *R = calloc(1, sizeof *R);
    table *t = malloc(sizeof *t);
    if (damaged) *damaged = 0;
    if (err && errlen) err[0] = 0;
    if (!R || !t) {
        free(R);
        free(t);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NULL;
    }
    R->t = t;
    R->in = (floe_snap_in){rdr, err, errlen, 0};
    floe_snap_in *in = &R->in;
    if (floe__snap_table_build(t) != 0) floe_snap_fail(in, "the snapshot's table cannot be walked: %s", t->unusable);
    if (!in->bad) R->w = read_world(R);
    if (!in->bad) read_materials(R);
    if (!in->bad) read_instances(R);
    if (!in->bad) read_group_names(R);
    if (!in->bad) read_items(R, R->w, &floe__rows_groups, 0, 0);
    if (!in->bad) floe__snap_shapes_create(in, R->w);
    /* every particle row read, the kept ones too, until the checks (below) */
    if (!in->bad && !floe__geom_keep(R->w)) floe_snap_fail(in, "out of memory");
    if (!in->bad) read_items(R, R->w, &floe__rows_particles, 0, 0);
    if (!in->bad) read_shape_items(R);
    if (!in->bad) read_contacts(R);
    if (!in->bad) read_pairs(R);
    if (!in->bad) read_schedule(R);
    if (!in->bad) read_planes(R);
    if (!in->bad) read_supply(R);
    if (!in->bad) read_phases(R);
    if (!in->bad) read_cell_phases(R);
    if (!in->bad) read_items(R, R->w, NULL, 0, 1);
    floe_world *w = R->w;
    if (!in->bad) {
        /* start() is not run again: resolve what it would have */
        floe__threads_reset(w);
        if (!floe__clumps_index(w)) floe_snap_fail(in, "out of memory");
        char why[1024];
        if (floe__snapshot_check(w, why, sizeof why) != 0) {
            floe_snap_fail(in, "%s", why);
            R->refused = 1;
        }
    }
    /* geometry records and the particles' kept rows are kept only where a
     * contact or body may need them (core/world.h): otherwise dropped once
     * checked, the positions and radii giving what they hold (lens, images,
     * angular momenta and wraps as the file has them: a file that says
     * otherwise keeps its records; a sphere never reads its reference
     * orientation) */
    int implied = !in->bad && !floe__geom_needed(w);
    for (int k = 0; implied && k < w->ncon; k++) {
        double l[2];
        floe__lens_implied(w, &w->con[k], l);
        implied = floe__img_zero(w->cgeom[k].img) && l[0] == w->cgeom[k].lens[0] && l[1] == w->cgeom[k].lens[1];
    }
    for (int i = 0; implied && i < w->np; i++)
        implied = floe__img_zero(w->wraps[i]) && isnan(w->angmom[i].x) && isnan(w->angmom[i].y) &&
                  isnan(w->angmom[i].z);
    if (implied) {
        free(w->cgeom);
        free(w->bp.ref_ori);
        free(w->angmom);
        free(w->wraps);
        w->cgeom = NULL;
        w->bp.ref_ori = NULL;
        w->angmom = NULL;
        w->wraps = NULL;
        w->geom_kept = 0;
    }
    /* pair images are kept only with a periodic cell (core/world.h): without
     * one, dropped when all zero, as every world writes them (nothing lost) */
    int zero = !in->bad && !w->cell.axes;
    for (int p = 0; zero && p < w->bp.npairs; p++) zero = floe__img_zero(w->bp.img[p]);
    if (zero) {
        free(w->bp.img);
        w->bp.img = NULL;
        w->bp.img_cap = 0;
    }
    if (damaged) *damaged = R->refused;
    for (int i = 0; i < R->nmodels; i++) {
        free(R->models[i].mat);
        free(R->models[i].law);
    }
    free(R->inst_map);
    free(R->buf);
    int bad = in->bad;
    free(R);
    free(t);
    if (bad) {
        floe_world_destroy(w);
        return NULL;
    }
    return w;
}
