/* The public face of the shape classes (include/floe/floe_shape.h): a
 * floe_shape_info per class, built once from the classes of the registry,
 * and the scene's per-class checks and placement by shape type. */
#include "shapes/registry.h"

#include <stdatomic.h>

static floe_shape_info infos[FLOE_SHAPE_COUNT]; /* in registry order */
static const floe_shape_info *by_type[FLOE_SHAPE_COUNT];
static const floe_shape_info *_Atomic ready;
static atomic_int building;

static void fill(void) {
    for (int i = 0; i < FLOE_SHAPE_COUNT; i++) {
        const floe_shape_class *c = floe_shape_class_at(i);
        infos[i] = (floe_shape_info){
            .type = (floe_shape_type)c->type,
            .name = c->name,
            .title = c->title,
            .section = c->section,
            .flags = c->flags,
            .params = c->params,
            .nparams = c->nparams,
            .nvalues = floe_shape_param_values(c),
            .keys = c->keys,
            .nkeys = c->nkeys,
            .scene = c->scene,
            .draw = c->draw,
            .draw_points = c->draw_points,
            .draw_faces = c->draw_faces,
            .face_size = c->face_size,
        };
        by_type[c->type] = &infos[i];
    }
}

/* Built once, by whichever thread comes first (as the shape tables are). */
static const floe_shape_info *table(void) {
    const floe_shape_info *t = atomic_load_explicit(&ready, memory_order_acquire);
    if (t) return t;
    int idle = 0;
    if (atomic_compare_exchange_strong(&building, &idle, 1)) {
        fill();
        atomic_store_explicit(&ready, infos, memory_order_release);
    }
    while (!(t = atomic_load_explicit(&ready, memory_order_acquire))) {}
    return t;
}

const floe_shape_info *floe_shape_at(int i) { return i >= 0 && i < FLOE_SHAPE_COUNT ? &table()[i] : NULL; }

const floe_shape_info *floe_shape_get(int type) {
    if (type < 0 || type >= FLOE_SHAPE_COUNT) return NULL;
    table();
    return by_type[type];
}

int floe_shape_scene_check(int type, const double *params, const floe_body_def *def, const char **key, char *msg,
                           size_t len) {
    const floe_shape_class *c = floe_shape_class_get(type);
    return c && c->scene_check ? c->scene_check(params, def, key, msg, len) : 0;
}

void floe_shape_scene_place(int type, const double *params, floe_vec3 *pos) {
    const floe_shape_class *c = floe_shape_class_get(type);
    if (c && c->scene_place) c->scene_place(params, pos);
}
