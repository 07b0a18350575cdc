/* The body sections of a scene (scene_bodies.c), called by the loader
 * (scene.c), and the size distributions they read, which the inlets'
 * section (scene_supply.c) reads too. Not a public header. */
#ifndef FLOE_IO_SCENE_BODIES_H
#define FLOE_IO_SCENE_BODIES_H

#include "io/scene_common.h"

/* One top-level body section (key is a shape's section:
 * particles, capsules, ellipsoids, cylinders, walls, facets; or meshes or
 * generators). */
int scene_bodies(scene_ctx *c, const char *key, sy_node *section);

/* A size distribution {dist: ...} at n (`where` its path). */
int scene_size_dist(scene_ctx *c, sy_node *n, const char *where, floe_size_dist *dist);

#endif
