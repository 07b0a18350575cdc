/* Queries for the readers and writers of worlds: a body's half extents,
 * corners and picture, each through its shape class
 * (include/floe/floe_shape.h), and the periodic cell's fit (floe.h). */
#include "core/cell.h"
#include "core/step.h"
#include "core/world.h"

/* A body of the world: the queries take nothing for an id out of range. */
static int body_ok(const floe_world *w, int i) { return i >= 0 && i < w->np; }

floe_vec3 floe_body_half_extent(const floe_world *w, int i, int rotated) {
    if (!body_ok(w, i)) return (floe_vec3){0, 0, 0};
    const floe_shape_class *c = floe__class_of(w, i);
    double r = w->radius[i];
    if (!c->half_extent) return (floe_vec3){r, r, r};
    return c->half_extent(floe__shape_data(w, i), rotated ? w->ori[i] : qidentity());
}

int floe_body_vertices(const floe_world *w, int i, floe_vec3 *out) {
    if (!body_ok(w, i)) return 0;
    const floe_shape_class *c = floe__class_of(w, i);
    if (!(c->flags & FLOE_SHAPE_BOUNDARY) || c->nvertices == 0) return 0;
    floe_pose pose = floe__pose(w, i);
    c->vertices(floe__shape_data(w, i), &pose, out);
    return c->nvertices;
}

void floe_body_picture(const floe_world *w, int i, const floe_draw_box *box, floe_vec3 *pt, floe_vec3 *nrm,
                       int32_t *corner) {
    if (!body_ok(w, i)) return;
    const floe_shape_class *c = floe__class_of(w, i);
    floe_pose pose = floe__pose(w, i);
    c->picture(floe__shape_data(w, i), &pose, box, pt, nrm, corner);
}

int floe_world_cell_misfit(const floe_world *w, int *body, int *axis, char *why, size_t len) {
    return floe__cell_misfit(w, w->cell.h, floe__start_search_skin(w), body, axis, why, len);
}
