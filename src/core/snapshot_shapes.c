/* The shapes in the snapshot: the world's shape store described from the
 * shape classes' field lists (each field an item "<section>/<field>", rows
 * counted by the store), how a loaded snapshot creates its particles with
 * their shapes, the sizes and parameter ranges a class gives a particle.
 * Nothing here names a shape: a new one is described by its class
 * (docs/decisions.md#a-restart-file-without-a-shapes-group-holds-none-of-it). */
#include "core/snapshot_shapes.h"

#include "core/snapshot_item.h"

#include "shapes/shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t field_type_size(int type) { return type == FLOE_FIELD_I32 ? sizeof(int32_t) : sizeof(double); }

static int field_values(const floe_shape_field *f) { return (f->rows > 0 ? f->rows : 1) * (f->cols > 0 ? f->cols : 1); }

int floe__snap_shapes_describe(floe_snap_shapes *s) {
    memset(s, 0, sizeof *s);
    int ns = 0;
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        if (!c) {
            s->unusable = "a shape type without a class";
            return -1;
        }
        if (!c->size) continue; /* spheres: the record is the particle's radius */
        if (c->nfields < 1 || c->nfields > FLOE_SNAP_SHAPE_FIELDS) {
            s->unusable = "a shape class without fields, or with more than FLOE_SNAP_SHAPE_FIELDS";
            return -1;
        }
        snprintf(s->count_item[t], sizeof s->count_item[t], "%s/%s", c->section, c->fields[0].name);
        s->rows[t] = (floe_snap_rows){
            c->name, offsetof(floe_world, store) + (size_t)t * sizeof(floe_shape_store) + offsetof(floe_shape_store, n),
            s->count_item[t]};
        size_t align = 1;
        for (int k = 0; k < c->nfields; k++) {
            const floe_shape_field *f = &c->fields[k];
            size_t ts = field_type_size(f->type);
            int nv = field_values(f);
            if (ts > align) align = ts;
            s->fields[t][k] = (floe_snap_field){
                .member = f->name,
                .offset = f->offset,
                .size = ts * (size_t)nv,
                .align = ts,
                .role = FLOE_SNAP_STATE,
                .group = c->section,
                .name = f->name,
                .type = f->type == FLOE_FIELD_I32 ? FLOE_SNAP_I32 : FLOE_SNAP_F64,
                .ncomp = nv,
                .shape2 = f->rows > 0 && f->cols > 0 ? f->cols : 0, /* rows x cols per record */
                /* integers: floe__snap_shape_check, through the class's parameter ranges */
                .check = f->type == FLOE_FIELD_I32 ? FLOE_CK_NONE
                         : f->length               ? FLOE_CK_LENGTH
                                                   : FLOE_CK_FINITE,
            };
        }
        s->records[t] = (floe_snap_struct){c->name, c->size, align, {s->fields[t], NULL}};
        s->stores[ns++] = (floe_snap_field){
            .member = "store",
            .offset = offsetof(floe_world, store) + (size_t)t * sizeof(floe_shape_store) +
                      offsetof(floe_shape_store, rec),
            .size = sizeof(void *),
            .align = __alignof__(void *),
            .role = FLOE_SNAP_STATE,
            .rows = &s->rows[t],
            .sub = &s->records[t],
        };
    }
    s->root = (floe_snap_struct){"floe_shape_store",
                                 sizeof(floe_shape_store) * FLOE_SHAPE_COUNT,
                                 __alignof__(floe_shape_store),
                                 {s->stores, NULL}};
    return 0;
}

void floe__snap_shape_names(char *buf, size_t len) {
    size_t used = 0;
    buf[0] = 0;
    for (int t = 0; t < FLOE_SHAPE_COUNT && used < len; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        int k = snprintf(buf + used, len - used, "%s%d %s", t ? ", " : "", t, c ? c->title : "?");
        if (k < 0) break;
        used += (size_t)k;
    }
}

/* A value the API refused: `what` names the item that held it. */
static int refused(floe_snap_in *in, floe_world *w, const char *what) {
    return floe_snap_fail(in, "%s: %s", what, floe_last_error(w));
}

/* The records of every shape as the snapshot holds them (recs[t]: n[t]
 * records of the class's size). */
static void read_records(floe_snap_in *in, unsigned char *recs[], long n[]) {
    for (int t = 0; t < FLOE_SHAPE_COUNT && !in->bad; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        if (!c || !c->size) continue;
        /* a snapshot without the shape's group holds none of it (written
         * before the shape existed: docs/decisions.md#a-restart-file-without-a-shapes-group-holds-none-of-it) */
        if (!in->rd->has_group(in->rd->ctx, c->section)) continue;
        n[t] = floe_snap_rows_of(in, c->section, c->fields[0].name);
        if (in->bad) return;
        size_t N = (size_t)n[t];
        if (!(recs[t] = calloc(N + 1, c->size))) {
            floe_snap_fail(in, "out of memory for %ld %ss", n[t], c->name);
            return;
        }
        for (int k = 0; k < c->nfields && !in->bad; k++) {
            const floe_shape_field *f = &c->fields[k];
            size_t bytes = field_type_size(f->type) * (size_t)field_values(f);
            unsigned char *buf = malloc(bytes * (N + 1));
            if (!buf) {
                floe_snap_fail(in, "out of memory for %ld %ss", n[t], c->name);
                return;
            }
            floe_snap_get(in, c->section, f->name, 0, f->type == FLOE_FIELD_I32 ? FLOE_SNAP_I32 : FLOE_SNAP_F64, N,
                          (size_t)field_values(f), buf);
            for (size_t r = 0; !in->bad && r < N; r++)
                memcpy(recs[t] + r * c->size + f->offset, buf + r * bytes, bytes);
            free(buf);
        }
    }
}

int floe__snap_shapes_create(floe_snap_in *in, floe_world *w) {
    long n = floe_snap_rows_of(in, "particles", "pos");
    if (in->bad) return -1;
    unsigned char *recs[FLOE_SHAPE_COUNT] = {0};
    long nrec[FLOE_SHAPE_COUNT] = {0};
    size_t N = (size_t)n;
    uint8_t *shape = malloc(N + 1);
    int32_t *sidx = malloc(sizeof *sidx * (N + 1));
    if (!shape || !sidx) floe_snap_fail(in, "out of memory for %ld particles", n);
    floe_snap_get(in, "particles", "shape", 0, FLOE_SNAP_U8, N, 1, shape);
    floe_snap_get(in, "particles", "shape_index", 0, FLOE_SNAP_I32, N, 1, sidx);
    read_records(in, recs, nrec);
    if (!in->bad && n > 0 && w->nmats == 0) floe_snap_fail(in, "/materials/name: no materials, but %ld particles", n);
    /* Each particle is added through the API from its record's parameters
     * (so that every array is sized, the store filled and the parameters
     * checked); the exact records and the particles' stored values are read
     * afterwards, over what the API set. A shape index must name the next
     * row of its shape: rows are in particle order. */
    floe_body_def d = floe_default_body_def();
    floe_pose pose = {d.pos, d.ori};
    double params[FLOE_SHAPE_MAX_PARAMS * 3 + 1];
    for (size_t i = 0; !in->bad && i < N; i++) {
        int t = shape[i], k = sidx[i];
        const floe_shape_class *c = t < FLOE_SHAPE_COUNT ? floe_shape_class_get(t) : NULL;
        int id = -1;
        if (c && !c->size) {
            id = floe_add_body(w, &d, (floe_shape_type)t, (const double[]){1.0});
        } else if (c && k == w->store[t].n && k < nrec[t] && floe_shape_param_values(c) <= FLOE_LEN(params)) {
            c->params_of(recs[t] + (size_t)k * c->size, &pose, params);
            id = floe_add_body(w, &d, (floe_shape_type)t, params);
        } else {
            char names[256];
            floe__snap_shape_names(names, sizeof names);
            floe_snap_fail(in,
                           "/particles/shape: particle %zu: bad shape %d or shape index %d (%s; shape indices "
                           "count up within each shape)",
                           i, shape[i], k, names);
            break;
        }
        if (id != (int)i) refused(in, w, "/particles");
        /* a clump brings its pebbles, the spheres after it in the file too */
        for (size_t j = i + 1; !in->bad && j < (size_t)w->np; j++)
            if (j >= N || shape[j] != FLOE_SHAPE_SPHERE)
                floe_snap_fail(in, "/particles/shape: particle %zu: the pebble of clump %zu is not a sphere", j, i);
        if (!in->bad) i = (size_t)w->np - 1;
    }
    for (int t = 0; t < FLOE_SHAPE_COUNT && !in->bad; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        if (c && c->size && w->store[t].n != nrec[t])
            floe_snap_fail(in, "/%s/%s: %ld %ss, but the particles use %d", c->section, c->fields[0].name, nrec[t],
                           c->name, w->store[t].n);
    }
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) free(recs[t]);
    free(shape);
    free(sidx);
    return in->bad ? -1 : 0;
}

void floe__snap_shape_sizes(const floe_world *w, int i, double *radius, double *bound) {
    const floe_shape_class *c = floe_shape_class_get(w->shape[i]);
    if (!c->size) { /* the record is the radius: free */
        *radius = -1;
        *bound = w->radius[i];
        return;
    }
    const void *rec = floe__shape_data(w, i);
    *radius = c->radius(rec);
    *bound = c->bound ? c->bound(rec) : 0;
}

const char *floe__snap_shape_check(const floe_world *w, int i, char *buf, size_t len) {
    const floe_shape_class *c = floe_shape_class_get(w->shape[i]);
    if (!c->size) return NULL;
    if (c->check && c->check(floe__shape_data(w, i), buf, len)) return buf;
    int has_int = 0;
    for (int k = 0; k < c->nfields; k++) has_int |= c->fields[k].type == FLOE_FIELD_I32;
    if (!has_int) return NULL;
    double params[FLOE_SHAPE_MAX_PARAMS * 3 + 1];
    if (floe_shape_param_values(c) > FLOE_LEN(params)) return snprintf(buf, len, "too many parameters"), buf;
    floe_pose pose = floe__pose(w, i);
    c->params_of(floe__shape_data(w, i), &pose, params);
    const double *v = params;
    for (int k = 0; k < c->nparams; v += c->params[k++].n) {
        const floe_shape_param *p = &c->params[k];
        if (p->kind != FLOE_PARAM_INT && p->kind != FLOE_PARAM_AXIS) continue;
        for (int j = 0; j < p->n; j++) {
            double x = v[j];
            int ok = x >= p->lo && x <= p->hi && x == floor(x) && !((p->open & FLOE_OPEN_LO) && x == p->lo) &&
                     !((p->open & FLOE_OPEN_HI) && x == p->hi);
            if (ok) continue;
            snprintf(buf, len, "%s %s = %g is not an integer in %c%g, %g%c", c->title, p->key, x,
                     p->open & FLOE_OPEN_LO ? '(' : '[', p->lo, p->hi, p->open & FLOE_OPEN_HI ? ')' : ']');
            return buf;
        }
    }
    return NULL;
}
