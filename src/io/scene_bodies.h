/* The body sections of a scene (scene_bodies.c), called by the loader
 * (scene.c). Not a public header. */
#ifndef FLOE_IO_SCENE_BODIES_H
#define FLOE_IO_SCENE_BODIES_H

#include "io/scene_common.h"

/* One top-level body section (key is a shape's section:
 * particles, capsules, ellipsoids, cylinders, walls, facets; or meshes or
 * generators). */
int scene_bodies(scene_ctx *c, const char *key, sy_node *section);

#endif
