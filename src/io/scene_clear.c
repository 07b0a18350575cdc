/* The obstacle test of random sphere packings (scene_clear.h): a
 * generated sphere must not overlap a wall, facet, infinite cylinder or
 * mesh triangle already in the world. The test is the shapes' own narrow
 * phase (the function a run uses for the pair), asked whether the sphere
 * and the boundary overlap (gap 0), so a packing never starts with a
 * contact against a boundary. Only the boundaries that can reach the
 * generator's box (grown by the largest radius) are kept, through each
 * class's broad-phase test. */
#include "io/scene_clear.h"
#include "base/vec.h"
#include "core/world.h"

#include <math.h>
#include <stdlib.h>

/* The narrow phase of a sphere and shape t, and whether the sphere is A. */
static floe_collide_fn *sphere_with(int t, int *sphere_first) {
    *sphere_first = floe_shape_rank(FLOE_SHAPE_SPHERE) < floe_shape_rank(t);
    return *sphere_first ? floe_narrowphase(FLOE_SHAPE_SPHERE, t) : floe_narrowphase(t, FLOE_SHAPE_SPHERE);
}

int scene_clear_init(scene_ctx *c, scene_clear *s, floe_vec3 lo, floe_vec3 hi, double rmax) {
    const floe_world *w = c->w;
    s->w = w;
    s->n = 0;
    s->ids = malloc((size_t)(w->np ? w->np : 1) * sizeof *s->ids);
    if (!s->ids) return -1;
    vec3 mid = vscale(vadd(lo, hi), 0.5), ext = vadd(vscale(vsub(hi, lo), 0.5), v3(rmax, rmax, rmax));
    double bound = sqrt(vlen2(ext));
    for (int i = 0; i < w->np; i++) {
        const floe_shape_class *cls = floe__class_of(w, i);
        int first;
        if (!(cls->flags & FLOE_SHAPE_BOUNDARY) || !sphere_with(cls->type, &first)) continue;
        floe_pose p = floe__pose(w, i);
        vec3 vert[FLOE_SHAPE_MAX_VERTICES];
        if (cls->nvertices) cls->vertices(floe__shape_data(w, i), &p, vert);
        if (cls->near && !cls->near(floe__shape_data(w, i), &p, vert, mid, ext, bound, 0)) continue;
        s->ids[s->n++] = i;
    }
    return 0;
}

int scene_clear_test(void *ctx, floe_vec3 centre, double r) {
    const scene_clear *s = ctx;
    const floe_world *w = s->w;
    floe_pose ps = {centre, {1, 0, 0, 0}};
    for (int k = 0; k < s->n; k++) {
        int i = s->ids[k], t = w->shape[i];
        floe_pose pb = floe__pose(w, i);
        const void *b = floe__shape_data(w, i);
        floe_raw_contact out;
        int first;
        floe_collide_fn *fn = sphere_with(t, &first);
        if (first ? fn(&r, &ps, b, &pb, NULL, 0, &out) : fn(b, &pb, &r, &ps, NULL, 0, &out)) return 0;
    }
    return 1;
}

void scene_clear_free(scene_clear *s) {
    free(s->ids);
    s->ids = NULL;
    s->n = 0;
}
