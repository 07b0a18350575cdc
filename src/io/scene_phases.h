/* A group's phases and loads (scene_phases.c), called by the loader
 * (scene.c) for each group. Not a public header. */
#ifndef FLOE_IO_SCENE_PHASES_H
#define FLOE_IO_SCENE_PHASES_H

#include "io/scene_common.h"

/* A group's `phases` list or its `load` key (item: the
 * group's map) into m->phases; 0 if it has neither (m->nphases stays 0). */
int scene_group_phases(scene_ctx *c, sy_node *item, const char *where, scene_motion *m);

#endif
