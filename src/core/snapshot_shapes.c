/* The shape tables in the snapshot: their members (walls, facets,
 * capsules, ellipsoids, infinite cylinders), how a loaded snapshot creates
 * its particles with their shapes, and the sizes a shape gives a particle.
 * Everything the snapshot knows of shapes is here (snapshot.h). */
#include "core/snapshot_shapes.h"

#include "core/snapshot_item.h"

#include "shapes/shape.h"

#include <stdlib.h>
#include <string.h>

#define M(T, m) .member = #m, .offset = offsetof(T, m), .size = sizeof(((T *)0)->m), .align = __alignof__(((T *)0)->m)
#define STATE .role = FLOE_SNAP_STATE
#define DSET(g, n) .group = g, .name = n, .attr = 0
#define END \
    { .member = NULL }

static const floe_snap_rows rows_walls = {"wall", offsetof(floe_world, nwalls), "walls/axis"};
static const floe_snap_rows rows_facets = {"facet", offsetof(floe_world, nfacets), "facets/half_thick"};
static const floe_snap_rows rows_capsules = {"capsule", offsetof(floe_world, ncapsules), "capsules/radius"};
static const floe_snap_rows rows_ellipsoids = {"ellipsoid", offsetof(floe_world, nellipsoids), "ellipsoids/semi_axes"};
static const floe_snap_rows rows_cylinders = {"cylinder", offsetof(floe_world, ncylinders), "cylinders/axis"};

static const floe_snap_field wall_fields[] = {
    {M(floe_wall, axis), STATE, DSET("walls", "axis"), .type = FLOE_SNAP_I32, .ncomp = 1, .check = FLOE_CK_RANGE,
     .lo = 0, .hi = 2},
    {M(floe_wall, sense), STATE, DSET("walls", "sense"), .type = FLOE_SNAP_I32, .ncomp = 1, .check = FLOE_CK_RANGE,
     .lo = -1, .hi = 1},
    END,
};
/* vertices in the body frame of their particle: f x 3 x 3 */
static const floe_snap_field facet_fields[] = {
    {M(floe_facet, v), STATE, DSET("facets", "vertices"), .type = FLOE_SNAP_F64, .ncomp = 9, .shape2 = 3,
     .check = FLOE_CK_LENGTH},
    {M(floe_facet, half_thick), STATE, DSET("facets", "half_thick"), .type = FLOE_SNAP_F64, .ncomp = 1,
     .check = FLOE_CK_LENGTH_NONNEG},
    END,
};
static const floe_snap_field capsule_fields[] = {
    {M(floe_capsule, radius), STATE, DSET("capsules", "radius"), .type = FLOE_SNAP_F64, .ncomp = 1,
     .check = FLOE_CK_LENGTH_NONNEG},
    {M(floe_capsule, shaft), STATE, DSET("capsules", "shaft"), .type = FLOE_SNAP_F64, .ncomp = 1,
     .check = FLOE_CK_LENGTH_NONNEG},
    END,
};
static const floe_snap_field ellipsoid_fields[] = {
    {M(floe_ellipsoid, semi), STATE, DSET("ellipsoids", "semi_axes"), .type = FLOE_SNAP_F64, .ncomp = 3,
     .check = FLOE_CK_LENGTH_NONNEG},
    END,
};
static const floe_snap_field cylinder_fields[] = {
    {M(floe_infcyl, axis), STATE, DSET("cylinders", "axis"), .type = FLOE_SNAP_I32, .ncomp = 1, .check = FLOE_CK_RANGE,
     .lo = 0, .hi = 2},
    {M(floe_infcyl, radius), STATE, DSET("cylinders", "radius"), .type = FLOE_SNAP_F64, .ncomp = 1,
     .check = FLOE_CK_LENGTH_NONNEG},
    END,
};

#define STRUCT(T, list)                               \
    {                                                 \
#T, sizeof(T), __alignof__(T), { list, NULL } \
    }
static const floe_snap_struct wall_struct = STRUCT(floe_wall, wall_fields);
static const floe_snap_struct facet_struct = STRUCT(floe_facet, facet_fields);
static const floe_snap_struct capsule_struct = STRUCT(floe_capsule, capsule_fields);
static const floe_snap_struct ellipsoid_struct = STRUCT(floe_ellipsoid, ellipsoid_fields);
static const floe_snap_struct cylinder_struct = STRUCT(floe_infcyl, cylinder_fields);

#define SHAPES(T, arr, n, cap, r, s)                                                             \
    {M(T, arr), STATE, .rows = &r, .sub = &s}, {M(T, n), .role = FLOE_SNAP_COUNT, .rows = &r}, { \
        M(T, cap), .role = FLOE_SNAP_TRANSIENT, .note = "capacity"                               \
    }

/* The world's members of the shape tables (its second list of members). */
const floe_snap_field floe__snap_shape_fields[] = {
    SHAPES(floe_world, walls, nwalls, wcap, rows_walls, wall_struct),
    SHAPES(floe_world, facets, nfacets, fcap, rows_facets, facet_struct),
    SHAPES(floe_world, capsules, ncapsules, capcap, rows_capsules, capsule_struct),
    SHAPES(floe_world, ellipsoids, nellipsoids, ellcap, rows_ellipsoids, ellipsoid_struct),
    SHAPES(floe_world, cylinders, ncylinders, cylcap, rows_cylinders, cylinder_struct),
    END,
};

const floe_snap_struct *const floe__snap_shape_structs[] = {&wall_struct, &facet_struct, &capsule_struct,
                                                            &ellipsoid_struct, &cylinder_struct};
const int floe__snap_nshape_structs = (int)(sizeof floe__snap_shape_structs / sizeof *floe__snap_shape_structs);

const char floe__snap_shape_names[] = "0 sphere, 1 wall, 2 facet, 3 capsule, 4 ellipsoid, 5 infinite cylinder";

/* A value the API refused: `what` names the item that held it. */
static int refused(floe_snap_in *in, floe_world *w, const char *what) {
    return floe__snap_fail(in, "%s: %s", what, floe_last_error(w));
}

int floe__snap_shapes_create(floe_snap_in *in, floe_world *w) {
    long n = floe__snap_rows_of(in, "particles", "pos");
    long nw = floe__snap_rows_of(in, "walls", "axis"), nf = floe__snap_rows_of(in, "facets", "half_thick");
    long nk = floe__snap_rows_of(in, "capsules", "radius"), ne = floe__snap_rows_of(in, "ellipsoids", "semi_axes");
    long ny = floe__snap_rows_of(in, "cylinders", "axis");
    if (in->bad) return -1;
    size_t N = (size_t)n;
    uint8_t *shape = malloc(N + 1);
    int32_t *sidx = malloc(sizeof *sidx * (N + 1));
    int32_t *wax = malloc(sizeof *wax * ((size_t)nw + 1)), *wse = malloc(sizeof *wse * ((size_t)nw + 1));
    double *fv = malloc(sizeof *fv * 9 * ((size_t)nf + 1)), *fh = malloc(sizeof *fh * ((size_t)nf + 1));
    double *kr = malloc(sizeof *kr * ((size_t)nk + 1)), *ks = malloc(sizeof *ks * ((size_t)nk + 1));
    double *es = malloc(sizeof *es * 3 * ((size_t)ne + 1)), *yr = malloc(sizeof *yr * ((size_t)ny + 1));
    int32_t *yax = malloc(sizeof *yax * ((size_t)ny + 1));
    if (!shape || !sidx || !wax || !wse || !fv || !fh || !kr || !ks || !es || !yr || !yax)
        floe__snap_fail(in, "out of memory for %ld particles", n);
    floe__snap_get(in, "particles", "shape", 0, FLOE_SNAP_U8, N, 1, shape);
    floe__snap_get(in, "particles", "shape_index", 0, FLOE_SNAP_I32, N, 1, sidx);
    floe__snap_get(in, "walls", "axis", 0, FLOE_SNAP_I32, (size_t)nw, 1, wax);
    floe__snap_get(in, "walls", "sense", 0, FLOE_SNAP_I32, (size_t)nw, 1, wse);
    floe__snap_get(in, "facets", "vertices", 0, FLOE_SNAP_F64, (size_t)nf, 9, fv);
    floe__snap_get(in, "facets", "half_thick", 0, FLOE_SNAP_F64, (size_t)nf, 1, fh);
    floe__snap_get(in, "capsules", "radius", 0, FLOE_SNAP_F64, (size_t)nk, 1, kr);
    floe__snap_get(in, "capsules", "shaft", 0, FLOE_SNAP_F64, (size_t)nk, 1, ks);
    floe__snap_get(in, "ellipsoids", "semi_axes", 0, FLOE_SNAP_F64, (size_t)ne, 3, es);
    floe__snap_get(in, "cylinders", "radius", 0, FLOE_SNAP_F64, (size_t)ny, 1, yr);
    floe__snap_get(in, "cylinders", "axis", 0, FLOE_SNAP_I32, (size_t)ny, 1, yax);
    if (!in->bad && n > 0 && w->nmats == 0) floe__snap_fail(in, "/materials/name: no materials, but %ld particles", n);
    /* Each particle is added through the API (so that every array is sized
     * and the shape tables filled); its stored values are read afterwards,
     * over what the API set (it normalises or clears some of them). A shape
     * index must name the next row of its table: rows are in particle order. */
    floe_body_def d = floe_default_body_def();
    for (size_t i = 0; !in->bad && i < N; i++) {
        int id = -1, k = sidx[i];
        if (shape[i] == FLOE_SHAPE_SPHERE) {
            id = floe_add_sphere(w, &d, 1.0);
        } else if (shape[i] == FLOE_SHAPE_WALL && k == w->nwalls && k < nw) {
            id = floe_add_wall(w, &d, wax[k] >= 0 && wax[k] <= 2 ? wax[k] : -1, wse[k]);
        } else if (shape[i] == FLOE_SHAPE_FACET && k == w->nfacets && k < nf) {
            const double *v = fv + 9 * (size_t)k;
            floe_vec3 vv[3] = {{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, {v[6], v[7], v[8]}};
            id = floe_add_facet(w, &d, vv, fh[k]);
        } else if (shape[i] == FLOE_SHAPE_CAPSULE && k == w->ncapsules && k < nk) {
            id = floe_add_capsule(w, &d, kr[k], ks[k]);
        } else if (shape[i] == FLOE_SHAPE_ELLIPSOID && k == w->nellipsoids && k < ne) {
            const double *e = es + 3 * (size_t)k;
            id = floe_add_ellipsoid(w, &d, (floe_vec3){e[0], e[1], e[2]});
        } else if (shape[i] == FLOE_SHAPE_INFCYLINDER && k == w->ncylinders && k < ny) {
            id = floe_add_infcylinder(w, &d, yax[k], yr[k]);
        } else {
            floe__snap_fail(in,
                            "/particles/shape: particle %zu: bad shape %d or shape index %d (%s; shape indices "
                            "count up within each shape table)",
                            i, shape[i], k, floe__snap_shape_names);
            break;
        }
        if (id != (int)i) refused(in, w, "/particles");
    }
    if (!in->bad &&
        (w->nwalls != nw || w->nfacets != nf || w->ncapsules != nk || w->nellipsoids != ne || w->ncylinders != ny))
        floe__snap_fail(in,
                        "/particles/shape: the shape tables hold %ld walls, %ld facets, %ld capsules, %ld "
                        "ellipsoids, %ld cylinders; the particles use %d, %d, %d, %d, %d",
                        nw, nf, nk, ne, ny, w->nwalls, w->nfacets, w->ncapsules, w->nellipsoids, w->ncylinders);
    free(shape);
    free(sidx);
    free(wax);
    free(wse);
    free(fv);
    free(fh);
    free(kr);
    free(ks);
    free(es);
    free(yr);
    free(yax);
    return in->bad ? -1 : 0;
}

void floe__snap_shape_sizes(const floe_world *w, int i, double *radius, double *bound) {
    int k = w->shape_idx[i];
    switch (w->shape[i]) {
        case FLOE_SHAPE_SPHERE:
            *radius = -1;
            *bound = w->radius[i];
            return;
        case FLOE_SHAPE_CAPSULE:
            *radius = w->capsules[k].radius;
            *bound = w->capsules[k].radius + 0.5 * w->capsules[k].shaft;
            return;
        case FLOE_SHAPE_ELLIPSOID: {
            vec3 s = w->ellipsoids[k].semi;
            *radius = fmin(s.x, fmin(s.y, s.z));
            *bound = fmax(s.x, fmax(s.y, s.z));
            return;
        }
        case FLOE_SHAPE_FACET:
            *radius = w->facets[k].half_thick;
            *bound = 0;
            return;
        case FLOE_SHAPE_INFCYLINDER:
            *radius = w->cylinders[k].radius;
            *bound = 0;
            return;
        default: /* walls */
            *radius = 0;
            *bound = 0;
    }
}
