/* Random numbers and size distributions shared by the random packings
 * (src/pack/generate.c) and the inlets of a running world
 * (src/core/supply.c): xoshiro256** and the samplers of floe_size_dist
 * (docs/decisions.md#radius-distributions-of-the-random-generator). */
#ifndef FLOE_BASE_RNG_H
#define FLOE_BASE_RNG_H

#include <floe/floe.h>
#include <stddef.h>
#include <stdint.h>

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
/* A rotation uniform on SO(3): a point uniform in the 4-ball (by rejection)
 * projected onto S^3; + - * / and sqrt only, so every IEEE-754 platform
 * draws the same one. */
floe_quat floe_rng_rotation(floe_rng *r);

/* One size drawn from a checked distribution (floe_size_dist_check): the
 * sampler of the random generators and of the inlets, shared with their
 * tests. */
double floe__size_sample(const floe_size_dist *d, floe_rng *r);

/* The largest size the distribution can give. */
double floe__size_max(const floe_size_dist *d);

#endif
