/* Particle generators: regular lattices and random non-overlapping packings.
 * Their definitions and the functions floe_gen_lattice, floe_gen_random,
 * floe_gen_random_shapes and floe_gen_dense are public
 * (include/floe/floe_pack.h); this header adds the random number generators
 * they share with their tests (base/rng.h). */
#ifndef FLOE_PACK_GENERATE_H
#define FLOE_PACK_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include <floe/floe_pack.h> /* the generators' definitions and functions */

/* The random numbers and the size sampler the generators share with the
 * inlets and with their tests. */
#include "base/rng.h"

#include "base/cell_grid.h"

/* The periodic box of a generator's env (base/cell_grid.h); 0 when it has
 * no periodic axis (or no env). */
int floe__gen_period(const floe_gen_env *env, floe_grid_period *p);
/* Whether the env's interrupt function asks to stop (0 without one). */
int floe__gen_interrupted(const floe_gen_env *env);

/* Writes the message into err (if any); returns -1. */
int floe__pack_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
