/* Particle generators: regular lattices and random non-overlapping packings.
 * Their definitions and the functions floe_gen_lattice, floe_gen_random and
 * floe_gen_random_shapes are public (include/floe/floe_io.h); this header
 * adds the random number generators they share with their tests. */
#ifndef FLOE_IO_GENERATE_H
#define FLOE_IO_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include <floe/floe_io.h> /* the generators' definitions and functions */

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

/* One radius drawn from a checked distribution (floe_size_dist_check):
 * the sampler floe_gen_random uses, shared with its tests. */
double floe__size_sample(const floe_size_dist *d, floe_rng *r);

/* Checks a dense packing's definition and counts the spheres it will make
 * (its radius draws alone, no relaxation): the scene loader's first pass. */
int floe__dense_count(const floe_dense_def *d, int64_t *n, char *err, size_t errlen);

#endif
