/* floe packings: the regular and random sphere and shape packings that a
 * scene's `generators` section makes, for programs that build worlds in
 * code. Part of the engine, libfloe (src/pack); the I/O library's header
 * floe_io.h includes this one. */
#ifndef FLOE_PACK_H
#define FLOE_PACK_H

#include <floe/floe.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- packings: bodies for programs ----
 *
 * What the scene's `generators` and `meshes` sections do, for programs that
 * build worlds in code (docs/scene-format.md describes the recipes). The
 * generators are deterministic for a given seed on every platform (64-bit
 * integer generators, no rand()), independent of the world, and return
 * plain arrays the caller frees with free(); the caller adds the bodies
 * (floe_add_sphere, ...), in the order given, which is the order the scene
 * loader adds them in. Each returns 0, or non-zero with a message in err. */

/* Largest count a generator accepts (the scene loader also bounds memory). */
#define FLOE_GEN_MAX_COUNT 200000000LL

/* Simple lattice of counts[0] x counts[1] x counts[2] sites, x fastest:
 * site p = i + nx (j + ny k) is at origin + (i sx, j sy, k sz) plus jitter
 *   dx = jitter.x (2 u(K + 2p) - 1),  dy = jitter.y (2 u(K + 2p + 1) - 1),
 *   dz = jitter.z (2 u(K + 2^39 + p) - 1),  K = seed * 0xD1B54A32D192ED03
 * (so seed 0 with jitter (A, A, 0) reproduces the peer benchmark scene). */
typedef struct floe_lattice_def {
    floe_vec3 origin;  /* centre of site (0,0,0) */
    floe_vec3 spacing; /* > 0 on each axis */
    int64_t counts[3]; /* >= 0 each */
    floe_vec3 jitter;  /* amplitude of the uniform offset per axis, >= 0 */
    uint64_t seed;
} floe_lattice_def;

/* Writes *n sites into *pos (malloc'd; NULL when n == 0). 0 on success. */
FLOE_API int floe_gen_lattice(const floe_lattice_def *def, floe_vec3 **pos, int64_t *n, char *err, size_t errlen);

/* floe_size_dist and floe_size_dist_check are in floe.h (the inlets of a
 * running world draw sizes from them too). */

/* What the random and dense packings take beyond their region (a def's
 * `env`; NULL: none of it): the periodic cell the bodies will live in, whose
 * images their overlap tests see (docs/periodic.md#generators-and-checks),
 * and an interrupt function (floe_set_interrupt) they poll: a non-zero
 * return stops them with the error "interrupted". The scene loader passes
 * the scene's cell and its own interrupt function. */
typedef struct floe_gen_env {
    int periodic;               /* bit k: axis k is periodic */
    floe_vec3 cell_lo, cell_hi; /* the periods along the periodic axes: lo < hi */
    floe_interrupt_fn *interrupt;
    void *interrupt_ctx;
} floe_gen_env;

/* Random sequential placement of `count` spheres, fully inside the box
 * [lo, hi], pairwise non-overlapping (with env's periodic cell, at their
 * smallest distance over its images). Radii are uniform in [rmin, rmax]
 * (rmin == rmax: monodisperse) or, when dist is not NULL, drawn from *dist
 * (rmin and rmax are then ignored); all are drawn first and placed largest
 * first, so the no-overlap test only ever meets spheres no smaller than the
 * one placed. Each sphere gets up to FLOE_GEN_MAX_TRIES random positions; if
 * one finds no free spot the box is too full: returns non-zero, *placed
 * tells how many fitted. */
#define FLOE_GEN_MAX_TRIES 5000
typedef struct floe_random_def {
    floe_vec3 lo, hi;
    double rmin, rmax; /* 0 < rmin <= rmax */
    int64_t count;
    uint64_t seed;
    const floe_size_dist *dist; /* NULL: uniform in [rmin, rmax] as above */
    const floe_gen_env *env;    /* NULL: no periodic cell, never interrupted */
} floe_random_def;

FLOE_API int floe_gen_random(const floe_random_def *def, floe_vec3 **pos, double **radius, int64_t *placed, char *err,
                             size_t errlen);

/* Obstacles of a random sphere packing: when `clear` is not NULL, a
 * candidate sphere (centre c, radius r) is accepted only if clear(ctx, c, r)
 * returns non-zero (floe_gen_random_world below makes that test from a
 * world; docs/scene-format.md, "random"). */
typedef int floe_gen_clear_fn(void *ctx, floe_vec3 c, double r);
FLOE_API int floe_gen_random_clear(const floe_random_def *def, floe_gen_clear_fn *clear, void *ctx, floe_vec3 **pos,
                                   double **radius, int64_t *placed, char *err, size_t errlen);
/* floe_gen_random_clear with the test of floe_clear_sphere (floe_shape.h):
 * a sphere is placed only where it overlaps no wall, facet, infinite
 * cylinder, mesh triangle or body (sphere, capsule, ellipsoid) of w that
 * can reach the box, in def->env's periodic cell also through its faces,
 * by the narrow phase of the pair. The scene's random generators and the
 * Python module's add_random use it. */
FLOE_API int floe_gen_random_world(const floe_random_def *def, const floe_world *w, floe_vec3 **pos, double **radius,
                                   int64_t *placed, char *err, size_t errlen);

/* Dense sphere packing by radius expansion
 * (docs/decisions.md#dense-packings-by-radius-expansion): `count` radii are
 * drawn as floe_gen_random draws them (or, with count 0, radii are drawn
 * until their volume reaches target x the region's volume), all scaled by
 * one factor s so that their volume is exactly target x the region's
 * volume; so the final radii are the drawn ones times s and the shape of
 * their distribution is the drawn one. The centres start uniformly at
 * random in the region with radii shrunk to a solid fraction of
 * FLOE_DENSE_START; the radii then grow by a common factor in steps of
 * FLOE_DENSE_STEP of solid fraction, and after each step the assembly
 * relaxes (frictionless linear springs between overlapping spheres and
 * between a sphere and the region's boundary, damped by the FIRE
 * minimiser). At the target fraction the relaxation runs until the largest
 * overlap (pair: depth over the smaller radius; boundary: depth over the
 * radius) is at most max_overlap. Deterministic for a seed (one thread,
 * fixed order). */
#define FLOE_DENSE_START 0.25
#define FLOE_DENSE_STEP 0.01
#define FLOE_DENSE_MONO_MAX 0.7405 /* pi / sqrt(18): no packing of equal spheres is denser */
typedef enum floe_dense_region { FLOE_DENSE_BOX = 0, FLOE_DENSE_CYLINDER } floe_dense_region;
typedef struct floe_dense_def {
    floe_dense_region region;
    floe_vec3 lo, hi;           /* BOX: corners; CYLINDER: the bounding box of the cylinder below */
    floe_vec3 base;             /* CYLINDER: centre of the bottom face; axis along z */
    double radius;              /* CYLINDER: radius */
    double height;              /* CYLINDER: height */
    double rmin, rmax;          /* 0 < rmin <= rmax: uniform radii (before scaling) */
    const floe_size_dist *dist; /* or drawn from *dist (rmin, rmax ignored) */
    int64_t count;              /* spheres; 0: as many as the target needs at the drawn sizes */
    double target;              /* solid fraction, (0, 0.9] (FLOE_DENSE_MONO_MAX for equal radii) */
    uint64_t seed;
    double max_overlap;     /* bound on the largest residual overlap, relative */
    int64_t max_iterations; /* relaxation iterations in all (FIRE steps) */
    /* NULL: no periodic cell, never interrupted. With a cell, pairs meet
     * through its faces (the spheres' images); along a periodic axis that
     * the region spans (box side, cylinder height at least the period),
     * the region is one period from the cell's lower bound, without a
     * boundary, and its volume counts the period. */
    const floe_gen_env *env;
} floe_dense_def;

typedef struct floe_dense_info {
    int64_t count;       /* spheres made */
    double scale;        /* final radius / drawn radius */
    double fraction;     /* sum of sphere volumes / region volume */
    double reached;      /* largest stage fraction relaxed below max_overlap */
    double mean_overlap; /* mean relative depth over overlapping contacts (pairs and boundary) */
    double max_overlap;  /* largest relative depth */
    int64_t contacts;    /* overlapping contacts at the end */
    int64_t iterations;  /* relaxation iterations used */
    int stages;          /* expansion steps */
} floe_dense_info;

/* Writes info->count spheres into *pos and *radius (malloc'd). 0 on
 * success; non-zero with a message (what fraction was reached, with what
 * overlap) when the target is impossible or the relaxation does not bring
 * the overlap below max_overlap within max_iterations; info is filled
 * either way when the packing ran. */
FLOE_API int floe_gen_dense(const floe_dense_def *def, floe_vec3 **pos, double **radius, floe_dense_info *info,
                            char *err, size_t errlen);

/* Random sequential placement of `count` capsules or ellipsoids with
 * uniformly random orientations (uniform on SO(3)), fully inside the box
 * [lo, hi], pairwise non-overlapping:
 *  - capsules: exact test, the distance between the two axis segments must
 *    exceed r1 + r2 (by a relative 1e-9);
 *  - ellipsoids: a sufficient test, the Perram-Wertheim contact function
 *    F(lambda) must exceed 1 (by 1e-9) for some lambda in [0, 1]: ellipsoids
 *    that are apart by a hair may be refused, touching ones never accepted.
 * Sizes are drawn first (uniform in each range), bodies are placed by
 * decreasing bounding radius (r + shaft/2, or the largest semi-axis; ties in
 * draw order); each gets up to FLOE_GEN_MAX_TRIES (orientation, position)
 * draws. Only + - * / and sqrt are used after seeding, so the packing is the
 * same on every IEEE-754 platform. Every box side must be at least the
 * largest bounding diameter. */
typedef struct floe_random_shape_def {
    floe_vec3 lo, hi;
    floe_shape_type shape; /* FLOE_SHAPE_CAPSULE or FLOE_SHAPE_ELLIPSOID */
    double rmin, rmax;     /* capsule radius, 0 < rmin <= rmax */
    double smin, smax;     /* capsule shaft, 0 <= smin <= smax */
    floe_vec3 amin, amax;  /* ellipsoid semi-axes per body axis, 0 < amin <= amax */
    int64_t count;
    uint64_t seed;
    /* Size distributions (NULL: uniform in the range above): capsules
     * dist[0] the radius, dist[1] the shaft; ellipsoids dist[0..2] the
     * semi-axes. A distribution replaces its range (the range is taken from
     * its min and max). */
    const floe_size_dist *dist[3];
    const floe_gen_env *env; /* NULL: no periodic cell, never interrupted */
} floe_random_shape_def;

typedef struct floe_gen_body {
    floe_vec3 pos;
    floe_quat ori;  /* body -> global; a capsule's shaft is the body x axis */
    double radius;  /* capsule radius */
    double shaft;   /* capsule shaft */
    floe_vec3 semi; /* ellipsoid semi-axes */
} floe_gen_body;

/* Writes the bodies into *bodies (malloc'd; NULL when count == 0) in
 * placement order. 0 on success; on a too full box non-zero with *placed. */
FLOE_API int floe_gen_random_shapes(const floe_random_shape_def *def, floe_gen_body **bodies, int64_t *placed,
                                    char *err, size_t errlen);

/* Checks a dense packing's definition and counts the spheres it will make
 * (its radius draws alone, no relaxation): the scene loader's first pass.
 * 0, or -1 with a message in err. */
FLOE_API int floe_gen_dense_count(const floe_dense_def *def, int64_t *n, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
