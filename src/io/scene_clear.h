/* The obstacle test of random packings (scene_clear.c), for the
 * generators of scene_bodies.c. Not a public header. */
#ifndef FLOE_IO_SCENE_CLEAR_H
#define FLOE_IO_SCENE_CLEAR_H

#include "io/scene_common.h"

/* The obstacle test of random packings, against the walls,
 * facets, infinite cylinders and mesh triangles of the world that can
 * reach the box [lo, hi] grown by rmax. */
typedef struct scene_clear {
    const floe_world *w;
    int *ids; /* boundary bodies to test */
    int n;
} scene_clear;
int scene_clear_init(scene_ctx *c, scene_clear *s, floe_vec3 lo, floe_vec3 hi, double rmax);
int scene_clear_test(void *ctx, floe_vec3 centre, double r); /* floe_gen_clear_fn */
void scene_clear_free(scene_clear *s);

#endif
