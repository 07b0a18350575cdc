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
double floe_u01(uint64_t bits);  /* (bits >> 11) * 2^-53 */

/* xoshiro256** seeded from splitmix64(seed), splitmix64(seed + 1), ... */
typedef struct floe_rng { uint64_t s[4]; } floe_rng;
void floe_rng_seed(floe_rng *r, uint64_t seed);
uint64_t floe_rng_next(floe_rng *r);
double floe_rng_uniform(floe_rng *r);  /* [0, 1) */

/* Simple lattice of counts[0] x counts[1] x counts[2] sites, x fastest:
 * site p = i + nx (j + ny k) is at origin + (i sx, j sy, k sz) plus jitter
 *   dx = jitter.x (2 u(K + 2p) - 1),  dy = jitter.y (2 u(K + 2p + 1) - 1),
 *   dz = jitter.z (2 u(K + 2^39 + p) - 1),  K = seed * 0xD1B54A32D192ED03
 * (so seed 0 with jitter (A, A, 0) reproduces the peer benchmark scene). */
typedef struct floe_lattice_def {
    floe_vec3 origin;    /* centre of site (0,0,0) */
    floe_vec3 spacing;   /* > 0 on each axis */
    int64_t counts[3];   /* >= 0 each */
    floe_vec3 jitter;    /* amplitude of the uniform offset per axis, >= 0 */
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
    double rmin, rmax;   /* 0 < rmin <= rmax */
    int64_t count;
    uint64_t seed;
} floe_random_def;

int floe_gen_random(const floe_random_def *def, floe_vec3 **pos, double **radius, int64_t *placed, char *err,
                    size_t errlen);

#endif
