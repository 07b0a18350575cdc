/* The inlets and sinks sections (scene_supply.c), called by the loader
 * (scene.c). Not a public header. */
#ifndef FLOE_IO_SCENE_SUPPLY_H
#define FLOE_IO_SCENE_SUPPLY_H

#include "io/scene_common.h"

/* The inlets and sinks sections (after the bodies). */
int scene_supply(scene_ctx *c, sy_node *root);
/* The inlets' budgets once the run's length is known: the
 * bodies an inlet certainly asks for after one step (FLOE_INLET_MAX_STEP)
 * and over the run (with the scene's particles, the memory guard). */
int scene_supply_budget(scene_ctx *c, const floe_scene *s);

#endif
