/* floe shapes: what each shape class is (its parameters, scene keys, how it
 * is drawn), mirroring floe_model_info for the contact models, and the
 * queries on bodies that readers and writers of worlds need: a body's
 * picture, its box, and whether a sphere placed among the boundaries would
 * touch one. Part of the engine, libfloe. */
#ifndef FLOE_SHAPE_H
#define FLOE_SHAPE_H

#include <floe/floe.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the classes ---------------------------------------------------------- */

/* What a parameter holds: a real number, an integer, a global axis (an
 * integer 0, 1, 2; "x", "y", "z" in scenes) or points (3 coordinates each,
 * finite and at most FLOE_MAX_COORD in magnitude). */
enum { FLOE_PARAM_REAL, FLOE_PARAM_INT, FLOE_PARAM_AXIS, FLOE_PARAM_POINT };
enum { FLOE_OPEN_LO = 1, FLOE_OPEN_HI = 2 }; /* range ends left out */

/* One parameter of floe_add_body: `n` values in the params array (1; 3 for
 * a vector; 3 per point), each in the range [lo, hi] (ends open as `open`
 * says). Scenes read it under `key`, with lengths limited to the scene's
 * coordinate limit. */
typedef struct floe_shape_param {
    const char *key;  /* API and scene key */
    const char *item; /* one value of a list, for messages: "semi-axis", "vertex" (n > 1) */
    const char *unit; /* "m", or "" */
    int kind;         /* FLOE_PARAM_* */
    int n;
    double lo, hi;
    unsigned open;    /* FLOE_OPEN_* */
    double def;       /* default of an optional parameter; NAN: required */
    const char *list; /* what a list of n values looks like in a scene (n > 1) */
    int min_items;    /* > 0: a scene's list may hold min_items to n items; the last one fills the rest */
} floe_shape_param;

enum {
    /* no mass; fixed geometry: off the grid (bound 0), not a point of the
     * particle pictures; fully blocked when the def blocks nothing */
    FLOE_SHAPE_BOUNDARY = 1,
    FLOE_SHAPE_BLOCKED = 2, /* always fully blocked (an infinite body) */
    FLOE_SHAPE_TURNS = 4,   /* its surface moves when it turns (floe_moved2, vertex velocities) */
    /* meets nothing itself, off the grid: bodies of its own that follow it
     * make its contacts (a clump's pebbles, spheres) */
    FLOE_SHAPE_COMPOUND = 8,
};

/* How the VTK writers show a body: as a point of the particles series only,
 * as polygons of the boundaries series, or as a surface of triangles (with
 * normals) in the shapes series. */
enum { FLOE_DRAW_POINT, FLOE_DRAW_BOUNDARY, FLOE_DRAW_SURFACE };

/* Infinite bodies are drawn over the box [lo, hi] of the finite ones (if
 * `have`) plus `margin`. */
typedef struct floe_draw_box {
    floe_vec3 lo, hi;
    int have;
    double margin;
} floe_draw_box;

/* Scene options (scene_bodies.c): "pos" is a coordinate along the first
 * axis parameter, not a point. */
/* FLOE_SCENE_PEBBLES: the list parameter is read as 1 to n/4 rows
 * [x, y, z, r] in a template frame, placed by floe_add_clump. */
enum { FLOE_SCENE_POS_ON_AXIS = 1, FLOE_SCENE_PEBBLES = 2 };

/* Limits every class keeps (tests/test_shape_classes.c checks them). */
enum {
    FLOE_SHAPE_MAX_PARAMS = 96, /* parameter values: a polyhedron's 32 vertices */
    FLOE_SHAPE_MAX_VERTICES = 8,
    FLOE_SHAPE_MAX_POINTS = 256,
    FLOE_SHAPE_MAX_FACES = 512
};

/* One shape class as the public sees it (src/shapes: the class behind it). */
typedef struct floe_shape_info {
    floe_shape_type type;
    const char *name;               /* particles.csv, VTK comments: "capsule" */
    const char *title;              /* messages, restart attribute: "infinite cylinder" */
    const char *section;            /* scene section and restart group: "capsules" */
    unsigned flags;                 /* FLOE_SHAPE_BOUNDARY, FLOE_SHAPE_BLOCKED, FLOE_SHAPE_TURNS */
    const floe_shape_param *params; /* the parameters of floe_add_body, in order */
    int nparams;
    int nvalues;             /* values in the params array (the sum of the parameters' n) */
    const char *const *keys; /* every scene key of a body of this shape */
    int nkeys;
    unsigned scene;              /* FLOE_SCENE_* */
    int draw;                    /* FLOE_DRAW_* */
    int draw_points, draw_faces; /* the picture's points and polygons */
    int face_size;               /* corners per polygon */
} floe_shape_info;

/* Classes in registry order (the order of the scene sections), i in
 * [0, FLOE_SHAPE_COUNT); NULL out of range. */
FLOE_API const floe_shape_info *floe_shape_at(int i);
/* The class of shape `type`; NULL if none. */
FLOE_API const floe_shape_info *floe_shape_get(int type);
/* A scene's checks of a body of shape `type` beyond its parameters' ranges
 * (a degenerate facet, ...): 0, or -1 with *key (the key at fault, may stay
 * NULL) and the message in msg. 0 for a class without such checks. */
FLOE_API int floe_shape_scene_check(int type, const double *params, const floe_body_def *def, const char **key,
                                    char *msg, size_t len);
/* The default reference point of a body of shape `type` from its
 * parameters (a facet's centroid); *pos is left alone for a class without
 * one. */
FLOE_API void floe_shape_scene_place(int type, const double *params, floe_vec3 *pos);

/* ---- bodies ------------------------------------------------------------------ */

/* Half extents of body i along its own axes (rotated 0: the box in the
 * body's frame) or along the global axes (rotated 1: the exact box of the
 * turned body): a sphere's radius thrice, an ellipsoid's semi-axes, a
 * capsule's (r + shaft/2, r, r); the radius thrice for a class without
 * them. For an id out of range: zeros here, 0 vertices, no picture. */
FLOE_API floe_vec3 floe_body_half_extent(const floe_world *w, int i, int rotated);
/* The corners of a finite boundary (a facet's 3) into out (room for
 * FLOE_SHAPE_MAX_VERTICES); returns how many (0 for other bodies). */
FLOE_API int floe_body_vertices(const floe_world *w, int i, floe_vec3 *out);
/* The picture of body i, drawn by its class (floe_shape_info: draw,
 * draw_points, draw_faces, face_size): points, normals (nrm may be NULL;
 * surfaces only) and the corners of each polygon as indices into the
 * points; infinite bodies are drawn over `box`. Room for
 * FLOE_SHAPE_MAX_POINTS points and FLOE_SHAPE_MAX_FACES * 4 corners. */
FLOE_API void floe_body_picture(const floe_world *w, int i, const floe_draw_box *box, floe_vec3 *pt, floe_vec3 *nrm,
                                int32_t *corner);

/* Twice a triangle's area; 0 for triangles too thin to have a normal (the
 * scenes' test: a facet and every triangle of a mesh must pass it). */
FLOE_API double floe_triangle_area2(const floe_vec3 v[3]);

/* Would a sphere here touch anything? The walls, facets, infinite
 * cylinders and mesh triangles of the world that can reach the box [lo, hi]
 * grown by rmax are kept, and the bodies (spheres, capsules, ellipsoids)
 * whose bounding spheres reach it, in env's periodic cell (NULL: none) also
 * through its faces; floe_clear_sphere then asks each one's narrow phase
 * (the function a run uses for the pair) whether a sphere of radius r at
 * centre overlaps it (gap 0): 1 if it touches none. The world must not
 * change meanwhile. NULL when memory runs out. */
typedef struct floe_clear floe_clear;
typedef struct floe_gen_env floe_gen_env; /* floe_pack.h */
FLOE_API floe_clear *floe_clear_new(const floe_world *w, const floe_gen_env *env, floe_vec3 lo, floe_vec3 hi,
                                    double rmax);
FLOE_API int floe_clear_sphere(const floe_clear *c, floe_vec3 centre, double r);
FLOE_API int floe_clear_count(const floe_clear *c); /* boundaries and bodies kept: 0, nothing to touch */
FLOE_API void floe_clear_free(floe_clear *c);

#ifdef __cplusplus
}
#endif
#endif
