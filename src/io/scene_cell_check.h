/* The periodic cell's start tests, made at load (scene_cell_check.c),
 * called by the checks before the run (scene_check.c). Not a public
 * header. */
#ifndef FLOE_IO_SCENE_CELL_CHECK_H
#define FLOE_IO_SCENE_CELL_CHECK_H

#include "io/scene_common.h"

/* The periodic cell against the bodies, as the start
 * and the first pair search would find it (docs/periodic.md), refused at
 * the scene key; nothing without a cell. */
int scene_check_cell(scene_ctx *c);

#endif
