/* Scene files (YAML) -> a ready world plus run and output settings.
 * The format is documented in docs/scene-format.md; the public declarations
 * are in include/floe/floe_io.h, this header adds the loader's internal entry. */
#ifndef FLOE_IO_SCENE_H
#define FLOE_IO_SCENE_H

#include <floe/floe_io.h>

/* The same with a smaller memory budget for the size guard (bytes; <= 0:
 * the default), e.g. for fuzzing. */
int floe_scene_load_limited(const char *path, double max_bytes, floe_scene *scene, char *err, size_t errlen);

#endif
