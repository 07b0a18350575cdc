/* The checks before the run, made at load (scene_check.c), called by
 * the loader (scene.c). Not a public header. */
#ifndef FLOE_IO_SCENE_CHECK_H
#define FLOE_IO_SCENE_CHECK_H

#include "io/scene_common.h"

/* What the run would find before step 0, found at load:
 * errors (dt, deep initial overlaps) and warnings (implausible materials,
 * small overlaps). Called once the world and the run length are known; in
 * a scene that runs no step, the errors go to s->run_error. */
int scene_diagnose(scene_ctx *c, floe_scene *s);

#endif
