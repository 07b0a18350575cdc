/* The `output` section (scene_output.c), called by the loader (scene.c).
 * Not a public header. */
#ifndef FLOE_IO_SCENE_OUTPUT_H
#define FLOE_IO_SCENE_OUTPUT_H

#include "io/scene_common.h"

void scene_output_init(floe_output_config *out); /* defaults that do not depend on the run length */
int scene_output(scene_ctx *c, sy_node *section, floe_output_config *out);
void scene_output_defaults(scene_ctx *c, floe_output_config *out, int64_t total_steps);
/* At most this many output.regions (measurements.md). */
#define SCENE_MAX_REGIONS 64

#endif
