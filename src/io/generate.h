/* Particle generators: regular lattices and random non-overlapping packings.
 *
 * Both are deterministic for a given seed on every platform (64-bit integer
 * generators, no rand()), independent of the world, and return plain arrays
 * the caller frees with free(). */
#ifndef FLOE_IO_GENERATE_H
#define FLOE_IO_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include <floe/floe.h>

/* Largest count a generator accepts (the scene loader also bounds memory). */
#define FLOE_GEN_MAX_COUNT 200000000LL

/* splitmix64 finaliser of x + golden gamma: a stateless hash, used as
 * u(c) = (floe_splitmix64(c) >> 11) * 2^-53 in [0, 1). */
uint64_t floe_splitmix64(uint64_t x);
double floe_u01(uint64_t bits); /* (bits >> 11) * 2^-53 */

/* xoshiro256** seeded from splitmix64(seed), splitmix64(seed + 1), ... */
typedef struct floe_rng {
    uint64_t s[4];
} floe_rng;
void floe_rng_seed(floe_rng *r, uint64_t seed);
uint64_t floe_rng_next(floe_rng *r);
double floe_rng_uniform(floe_rng *r); /* [0, 1) */

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
int floe_gen_lattice(const floe_lattice_def *def, floe_vec3 **pos, int64_t *n, char *err, size_t errlen);

/* Random sequential placement of `count` spheres, fully inside the box
 * [lo, hi], pairwise non-overlapping. Radii are uniform in [rmin, rmax]
 * (rmin == rmax: monodisperse), drawn first and placed largest first. Each
 * sphere gets up to FLOE_GEN_MAX_TRIES random positions; if one finds no free
 * spot the box is too full: returns non-zero, *placed tells how many fitted. */
#define FLOE_GEN_MAX_TRIES 5000
typedef struct floe_random_def {
    floe_vec3 lo, hi;
    double rmin, rmax; /* 0 < rmin <= rmax */
    int64_t count;
    uint64_t seed;
} floe_random_def;

int floe_gen_random(const floe_random_def *def, floe_vec3 **pos, double **radius, int64_t *placed, char *err,
                    size_t errlen);

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
} floe_random_shape_def;

typedef struct floe_gen_body {
    floe_vec3 pos;
    floe_quat ori;  /* body -> global; a capsule's shaft is the body x axis */
    double radius;  /* capsule radius */
    double shaft;   /* capsule shaft */
    floe_vec3 semi; /* ellipsoid semi-axes */
} floe_gen_body;

/* Bounding radius of a generated body: r + shaft/2, or the largest semi-axis. */
double floe_gen_body_bound(floe_shape_type shape, const floe_gen_body *b);

/* Writes the bodies into *bodies (malloc'd; NULL when count == 0) in
 * placement order. 0 on success; on a too full box non-zero with *placed. */
int floe_gen_random_shapes(const floe_random_shape_def *def, floe_gen_body **bodies, int64_t *placed, char *err,
                           size_t errlen);

#endif
