/* Particle generators: regular lattices and random non-overlapping packings.
 * Their definitions and the functions floe_gen_lattice, floe_gen_random and
 * floe_gen_random_shapes are public (include/floe/floe_io.h); this header
 * adds the random number generators they share with their tests (now in
 * core/size_dist.h). */
#ifndef FLOE_IO_GENERATE_H
#define FLOE_IO_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include <floe/floe_io.h> /* the generators' definitions and functions */

/* The random numbers and the size sampler the generators share with the
 * inlets and with their tests. */
#include "core/size_dist.h"

#include "base/cell_grid.h"

/* The periodic box of a generator's env (base/cell_grid.h); 0 when it has
 * no periodic axis (or no env). */
int floe__gen_period(const floe_gen_env *env, floe_grid_period *p);
/* Whether the env's interrupt function asks to stop (0 without one). */
int floe__gen_interrupted(const floe_gen_env *env);

/* Checks a dense packing's definition and counts the spheres it will make
 * (its radius draws alone, no relaxation): the scene loader's first pass. */
int floe__dense_count(const floe_dense_def *d, int64_t *n, char *err, size_t errlen);

#endif
