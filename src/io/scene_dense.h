/* The `dense` generator's keys and packing (scene_dense.c), for the
 * generators of scene_bodies.c. Not a public header. */
#ifndef FLOE_IO_SCENE_DENSE_H
#define FLOE_IO_SCENE_DENSE_H

#include "io/scene_common.h"

/* The keys of a `dense` generator (radius expansion) but
 * radius and the common ones (material, group, vel, angvel): the region,
 * the target and the relaxation's bounds; *at is the region's node. */
int scene_dense_keys(scene_ctx *c, sy_node *g, const char *where, floe_dense_def *dd, sy_node **at);
/* With the radius set: pass 0 counts the spheres (*pos, *rad NULL), pass 1
 * makes them (malloc'd). */
int scene_dense_make(scene_ctx *c, sy_node *g, sy_node *at, const char *where, const floe_dense_def *dd,
                     floe_vec3 **pos, double **rad, int64_t *n);

#endif
