/* The shape seam (docs/architecture.md, "Shapes"). A shape is one file
 * (sphere.c, wall.c, ...) exposing one const floe_shape_class: its
 * parameters, the record it keeps per body and that record's restart
 * fields, mass and inertia, radius, bound and extents, the broad-phase test
 * of a boundary, a picture for the VTK writers, its scene keys and its
 * narrow-phase functions. registry.c lists the classes (registry.h finds
 * them by type and by pair). Nothing here reads the world: a narrow-phase
 * function takes each body's record and pose, so it can be called alone
 * (tests/test_shape_classes.c). */
#ifndef FLOE_SHAPES_SHAPE_H
#define FLOE_SHAPES_SHAPE_H

#include "l6geom/geom.h"
#include <floe/floe_shape.h> /* the class's public half: parameters, flags, drawing */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where a body is: its reference point and orientation (body to global). */
typedef struct floe_pose {
    vec3 x;
    quat q;
} floe_pose;

/* A narrow-phase function: a and b are the records of bodies A and B (A has
 * the lower rank, floe_shape_rank), pa and pb their poses. For a new contact
 * (prev == NULL) returns 1 only if the gap between the shapes is at most
 * `gap` (0: they must overlap); for an existing one, prev is its normal at
 * the last step (what keeps a side, or seeds a search), and the function
 * always fills `out` and returns 1. */
typedef int floe_collide_fn(const void *a, const floe_pose *pa, const void *b, const floe_pose *pb, const vec3 *prev,
                            double gap, floe_raw_contact *out);

/* ---- records of the built-in shapes ------------------------------------- */

/* A sphere keeps no record: its radius is its record (the world's radius
 * entry), so a sphere's data pointer points to a double. */
typedef struct floe_wall {
    int axis, sense;
} floe_wall; /* normal along a global axis; sense 0: either side */
typedef struct floe_facet {
    vec3 v[3];
    double half_thick;
} floe_facet; /* vertices in the body frame */
typedef struct floe_capsule {
    double radius, shaft;
} floe_capsule; /* shaft along the body x axis */
typedef struct floe_ellipsoid {
    vec3 semi;
} floe_ellipsoid; /* semi-axes along body x, y, z */
typedef struct floe_infcyl {
    int axis;
    double radius;
} floe_infcyl; /* along a global axis */
/* floe_polyhedron: shapes/polyhedron.h */
/* A clump: up to FLOE_CLUMP_MAX_PEBBLES overlapping spheres (x, y, z, r in
 * the body frame, whose origin is the union's centroid and whose axes are
 * its principal axes), and the union's volume and principal moments of
 * volume (inertia per unit density), computed by init (clump.c). The
 * pebbles are sphere bodies of their own, the n particles after the clump,
 * that follow it (src/core/clump.c). */
typedef struct floe_clump {
    int32_t n, pad;
    double peb[FLOE_CLUMP_MAX_PEBBLES][4];
    double vol, mom[3];
} floe_clump;

/* ---- the class ----------------------------------------------------------- */

/* The parameters, flags, drawing kinds and limits of a class are public
 * (include/floe/floe_shape.h: floe_shape_info shows them). */

/* One field of the record, saved in restart files as the dataset `name` of
 * the class's group: rows x cols values per record (0 x 0: one value). */
enum { FLOE_FIELD_F64, FLOE_FIELD_I32 };
typedef struct floe_shape_field {
    const char *name;
    int type; /* FLOE_FIELD_F64 (double), FLOE_FIELD_I32 (int) */
    int rows, cols;
    size_t offset; /* in the record */
    int length;    /* lengths or coordinates [m]: a restart file's must be finite and not huge */
} floe_shape_field;

/* Entries of a static array (parameter, field and key lists). */
#define FLOE_LEN(a) ((int)(sizeof(a) / sizeof *(a)))

typedef struct floe_shape_class {
    int type;            /* FLOE_SHAPE_* */
    const char *name;    /* particles.csv, VTK comments: "capsule" */
    const char *title;   /* messages, restart attribute: "infinite cylinder" */
    const char *section; /* scene section and restart group: "capsules" */
    int rank;            /* pair order: A has the lower rank */
    unsigned flags;      /* FLOE_SHAPE_* */
    size_t size;         /* record size; 0: the record is the radius (spheres) */
    const floe_shape_param *params;
    int nparams;
    const floe_shape_field *fields; /* every field of the record */
    int nfields;
    const char *frame; /* restart: the group's "frame" attribute, or NULL */

    /* The record from parameters already in range and the pose; 0, or -1
     * with a message (e.g. a degenerate triangle). */
    int (*init)(void *rec, const double *params, const floe_pose *pose, char *err, size_t errlen);
    /* Optional: moves the pose to the frame the record keeps its body in
     * (a polyhedron: its centroid and principal axes), after init. */
    void (*reframe)(void *rec, floe_pose *pose);
    /* Optional: a record read from a file (restart, snapshot) that other
     * functions may index by: NULL, or what is wrong with it (in buf). */
    const char *(*check)(const void *rec, char *buf, size_t len);
    /* The parameters back (floe_body_params). */
    void (*params_of)(const void *rec, const floe_pose *pose, double *params);
    /* Mass and principal inertia (body frame) at this density; NULL: none. */
    void (*mass)(const void *rec, double density, double *mass, vec3 *inertia);
    double (*radius)(const void *rec); /* characteristic radius (floe_radii) */
    double (*bound)(const void *rec);  /* bounding radius about the reference point; NULL: off the grid */
    double (*reach)(const void *rec);  /* farthest surface point, if not the bound (floe__moved2_shape) */
    /* Half extents of the axis-aligned box about the reference point in
     * orientation q (exact): the broad phase and the VTK scene extent. */
    vec3 (*half_extent)(const void *rec, quat q);

    /* Boundaries in the broad phase. A finite one has corners whose box,
     * grown by its radius, holds it; an infinite one (nvertices 0) is tested
     * against every gridded body. near(): whether a gridded body at x
     * (half extents ext, bounding radius bound) may come within skin;
     * vert: the corners (finite ones). */
    int nvertices;
    void (*vertices)(const void *rec, const floe_pose *p, vec3 *out);
    int (*near)(const void *rec, const floe_pose *p, const vec3 *vert, vec3 x, vec3 ext, double bound, double skin);

    /* Pictures: draw_points points (with outward unit normals for
     * surfaces; nrm may be NULL) and draw_faces polygons of face_size
     * corners, indices into those points. */
    int draw, draw_points, draw_faces, face_size;
    void (*picture)(const void *rec, const floe_pose *p, const floe_draw_box *box, vec3 *pt, vec3 *nrm,
                    int32_t *corner);

    /* Scenes (scene_bodies.c): the keys allowed in an item, in the order
     * messages list them (parameters and body keys: pos, ori, axis, vel,
     * angvel, material, group, fixed, block, center). */
    const char *const *keys;
    int nkeys;
    unsigned scene;                                       /* FLOE_SCENE_* */
    void (*scene_place)(const double *params, vec3 *pos); /* default reference point, or NULL */
    /* A scene-only check: 0, or non-zero with the key to blame and a message. */
    int (*scene_check)(const double *params, const floe_body_def *def, const char **key, char *msg, size_t len);

    /* Narrow phase against every shape it meets: collide[t] for the pair
     * with shape t, A being the one of lower rank. Either class of a pair
     * may list it (the shape added later does). */
    floe_collide_fn *collide[FLOE_SHAPE_COUNT];
} floe_shape_class;

/* ---- the two narrow phases of granular scenes ---------------------------- */

/* Inline so that the contact pass can call them on the world's arrays
 * directly (sphere.c and wall.c export them for the table). */
/* Contact of spheres at xa, xb: the normal, gap and mid-overlap point; nprev
 * is the normal kept when the centres coincide. The batched kernel calls it
 * too. */
FLOE_KERNEL void floe_sphere_pair(vec3 xa, vec3 xb, double ra, double rb, vec3 nprev, floe_raw_contact *out) {
    double dist = sqrt(vlen2(vsub(xb, xa)));
    out->n = dist > 0 ? vscale(vsub(xb, xa), 1.0 / dist) : nprev;
    out->uN = dist - (ra + rb);
    out->c = vmadd(xa, out->n, ra + 0.5 * out->uN); /* middle of the overlap */
    out->r1 = ra;
    out->r2 = rb;
}

static inline int floe_sphere_sphere(vec3 xa, double ra, vec3 xb, double rb, const vec3 *prev, double gap,
                                     floe_raw_contact *out) {
    if (!prev && vlen2(vsub(xb, xa)) > (ra + rb + gap) * (ra + rb + gap)) return 0;
    /* coincident centres: keep the previous normal (or pick x for a new contact) */
    floe_sphere_pair(xa, xb, ra, rb, prev ? *prev : v3(1, 0, 0), out);
    return 1;
}

/* The contact of a wall along axis ax (0, 1, 2), touched from side sgn
 * (+1, -1), through xw, with the sphere of radius r at xs. In selects, not
 * vset: the batch (core/batch.c) runs this in lanes the compiler
 * vectorizes, and the per-contact path below the same arithmetic. */
FLOE_KERNEL void floe_wall_pair(vec3 xw, vec3 xs, double r, double ax, double sgn, floe_raw_contact *out) {
    double dist = (ax == 0 ? xs.x : ax == 1 ? xs.y : xs.z) - (ax == 0 ? xw.x : ax == 1 ? xw.y : xw.z);
    out->n = v3(ax == 0 ? sgn : 0, ax == 1 ? sgn : 0, ax == 2 ? sgn : 0);
    out->uN = sgn * dist - r;
    out->c = v3(ax == 0 ? xw.x : xs.x, ax == 1 ? xw.y : xs.y,
                ax == 2 ? xw.z : xs.z); /* centre projected on the plane */
    out->r1 = -r;                       /* flat: takes the sphere's length */
    out->r2 = r;
}

/* The side a contact of wall wl with a sphere is on: the wall's sense; a
 * two-sided wall (sense 0) keeps that of the contact's normal n (NULL for
 * a new contact: the side of the centre, dist from the plane). */
static inline double floe_wall_side(const floe_wall *wl, const vec3 *n, double dist) {
    if (wl->sense != 0) return wl->sense;
    if (n) return vcomp(*n, wl->axis) >= 0 ? 1 : -1;
    return dist >= 0 ? 1 : -1;
}

/* Wall wl through xw, sphere of radius r at xs. */
static inline int floe_wall_sphere(const floe_wall *wl, vec3 xw, vec3 xs, double r, const vec3 *prev, double gap,
                                   floe_raw_contact *out) {
    int ax = wl->axis;
    double dist = vcomp(xs, ax) - vcomp(xw, ax);
    if (!prev && fabs(dist) > r + gap) return 0;
    floe_wall_pair(xw, xs, r, ax, floe_wall_side(wl, prev ? prev : NULL, dist), out);
    return 1;
}

/* ---- shape files' functions that other shapes or io share ----------------- */

/* The axis segment of a capsule centred at c in orientation q: c -+ q (shaft/2, 0, 0). */
void floe_capsule_axis(vec3 c, quat q, double shaft, vec3 *p0, vec3 *p1);
/* Half extents of the axis-aligned box around a body in orientation q
 * (exact): what the broad phase, the packing generator and the VTK scene
 * extent use. A capsule: its rotated half shaft, plus the radius. */
vec3 floe_capsule_half_extent(double radius, double shaft, quat q);
/* An ellipsoid: sqrt(sum over body axes k of (q a_k e_k)^2) per global axis. */
vec3 floe_ellipsoid_half_extent(vec3 semi, quat q);
/* Contact of two round bodies around the points pa (A, radius ra) and pb (B, rb). */
int floe_round_contact(vec3 pa, vec3 pb, double ra, double rb, const vec3 *prev, double gap, floe_raw_contact *out);
vec3 floe_closest_on_segment(vec3 p, vec3 a, vec3 b);
/* The closest points cp, cq of the segments [p0, p1] and [q0, q1]. */
void floe_closest_segments(vec3 p0, vec3 p1, vec3 q0, vec3 q1, vec3 *cp, vec3 *cq);
/* Squared distance between the segments [p0, p1] and [q0, q1], for
 * placement tests: rounding can only make it smaller than the true one, so
 * a test "apart if > limit" errs on the safe side. Contacts use capsule.c's
 * closest_segments instead: it picks the pair of points that keeps a
 * contact point steady (the middle of the overlap of parallel segments). */
double floe_segments_dist2(vec3 p0, vec3 p1, vec3 q0, vec3 q1);
/* Closest point on triangle (v0,v1,v2) to p. */
vec3 floe_closest_on_triangle(vec3 p, vec3 v0, vec3 v1, vec3 v2);
/* Facet vertices in global coordinates. */
void floe_facet_global(const floe_facet *f, const floe_pose *p, vec3 out[3]);

/* clump.c: the union of n <= FLOE_UNION_MAX overlapping spheres (x, y, z,
 * r rows; more are left out): volume,
 * centroid and the inertia tensor per unit density about the centroid
 * (row-major), by the column quadrature of docs/clumps.md (relative
 * error below 1e-4 at the default resolution `cells` = 0). */
enum { FLOE_UNION_MAX = 64 };
void floe_union_moments(int n, const double (*peb)[4], int cells, double *vol, vec3 *centroid, double J[9]);
/* Eigenvalues (ascending) and eigenvectors (columns of R, right-handed) of
 * a symmetric 3x3 matrix, by Jacobi rotations. */
void floe_sym3_eigen(const double J[9], double ev[3], double R[9]);
/* The unit quaternion of rotation matrix R (row-major, proper). */
quat floe_quat_of_matrix(const double R[9]);

/* picture.c: surfaces of revolution (capsules, ellipsoids, cylinders): optional
 * poles at both ends and `rings` rings of `seg` points in between, ring points
 * counterclockwise about the axis. Writes the triangles' corners (point
 * indices from 0; the poles are the first and the last point) and returns
 * their count; triangles are counterclockwise seen from outside. */
int floe_ring_faces(int32_t *corner, int seg, int rings, int poles);
/* cos and sin of 2 pi j / seg (a picture: libm differences do not matter). */
void floe_ring_dir(int j, int seg, double *c, double *s);

#endif
