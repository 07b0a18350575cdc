/* The obstacle test of random sphere packings (scene_internal.h): the
 * engine's floe_clear (include/floe/floe_shape.h) over the boundaries of
 * the world being loaded. */
#include "io/scene_internal.h"

#include <floe/floe_shape.h>

int scene_clear_init(scene_ctx *c, scene_clear *s, floe_vec3 lo, floe_vec3 hi, double rmax) {
    s->clear = floe_clear_new(c->w, lo, hi, rmax);
    return s->clear ? 0 : -1;
}

int scene_clear_test(void *ctx, floe_vec3 centre, double r) {
    const scene_clear *s = ctx;
    return floe_clear_sphere(s->clear, centre, r);
}

void scene_clear_free(scene_clear *s) {
    floe_clear_free(s->clear);
    s->clear = NULL;
}
