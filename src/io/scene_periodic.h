/* The `periodic` section (scene_periodic.c), called by the loader
 * (scene.c). Not a public header. */
#ifndef FLOE_IO_SCENE_PERIODIC_H
#define FLOE_IO_SCENE_PERIODIC_H

#include "io/scene_common.h"

/* The `periodic` section, the cell before the bodies and
 * (scene_periodic_bodies) the affine velocities once they are all there. */
int scene_periodic(scene_ctx *c, sy_node *sec);
int scene_periodic_bodies(scene_ctx *c, sy_node *sec);

#endif
