/* Would a sphere here touch anything (include/floe/floe_shape.h)? The
 * obstacle test of random sphere packings: a generated sphere must not
 * overlap a wall, facet, infinite cylinder or mesh triangle already in the
 * world, nor a body already there (spheres, capsules and ellipsoids of the
 * sections and generators above, in a periodic cell also through its
 * faces). The test is the shapes' own narrow phase (the function a run
 * uses for the pair), asked whether the sphere and the other body overlap
 * (gap 0), so a packing never starts with a contact against them. Only
 * what can reach the box (grown by the largest radius) is kept: boundaries
 * through each class's broad-phase test, bodies by their bounding spheres,
 * which a cell grid then finds near each candidate. */
#include <floe/floe_pack.h>
#include "base/cell_grid.h"
#include "core/world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct floe_clear {
    const floe_world *w;
    int *ids; /* boundary bodies to test */
    int n;
    int *body;     /* bodies (spheres, capsules, ellipsoids) to test */
    floe_vec3 *at; /* their reference points, wrapped into a periodic cell */
    int nbody;
    double reach; /* largest radius + largest bounding radius of body[] */
    int periodic; /* per holds the generator's cell */
    floe_grid_period per;
    floe_cell_grid grid; /* of at[], cells at least `reach` wide */
};

/* The narrow phase of a sphere and shape t, and whether the sphere is A. */
static floe_collide_fn *sphere_with(int t, int *sphere_first) {
    *sphere_first = floe_shape_rank(FLOE_SHAPE_SPHERE) < floe_shape_rank(t);
    return *sphere_first ? floe_narrowphase(FLOE_SHAPE_SPHERE, t) : floe_narrowphase(t, FLOE_SHAPE_SPHERE);
}

/* The generator's periodic cell as the grid's period; 0 without one. */
static int period_of(const floe_gen_env *env, floe_grid_period *p) {
    floe_vec3 none = {0, 0, 0};
    if (!env) return floe_grid_period_set(p, 0, none, none);
    return floe_grid_period_set(p, env->periodic, env->cell_lo, env->cell_hi);
}

/* Whether the point x (or, in a periodic cell, one of its images) lies in
 * the box [lo, hi]. */
static int in_box(const floe_grid_period *per, vec3 x, vec3 lo, vec3 hi) {
    const double a[3] = {x.x, x.y, x.z}, l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
    for (int k = 0; k < 3; k++) {
        int hit = 0;
        for (int m = -1; m <= 1 && !hit; m++) {
            if (m && !(per && (per->axes >> k & 1))) continue;
            double y = a[k] + (m ? m * per->len[k] : 0);
            hit = y >= l[k] && y <= h[k];
        }
        if (!hit) return 0;
    }
    return 1;
}

floe_clear *floe_clear_new(const floe_world *w, const floe_gen_env *env, floe_vec3 lo, floe_vec3 hi, double rmax) {
    floe_clear *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->w = w;
    s->periodic = period_of(env, &s->per);
    size_t n = (size_t)(w->np ? w->np : 1);
    s->ids = malloc(n * sizeof *s->ids);
    s->body = malloc(n * sizeof *s->body);
    s->at = malloc(n * sizeof *s->at);
    if (!s->ids || !s->body || !s->at) {
        floe_clear_free(s);
        return NULL;
    }
    vec3 mid = vscale(vadd(lo, hi), 0.5), ext = vadd(vscale(vsub(hi, lo), 0.5), v3(rmax, rmax, rmax));
    double bound = sqrt(vlen2(ext)), bmax = 0;
    for (int i = 0; i < w->np; i++) {
        const floe_shape_class *cls = floe__class_of(w, i);
        int first;
        if (!(cls->flags & FLOE_SHAPE_BOUNDARY)) {
            /* a body: kept when its bounding sphere reaches the grown box */
            double b = cls->bound ? cls->bound(floe__shape_data(w, i)) : 0;
            vec3 x = s->periodic ? floe_period_wrap(&s->per, w->pos[i]) : w->pos[i];
            vec3 g = v3(rmax + b, rmax + b, rmax + b);
            if (!cls->bound || !in_box(s->periodic ? &s->per : NULL, x, vsub(lo, g), vadd(hi, g))) continue;
            s->body[s->nbody] = i;
            s->at[s->nbody++] = x;
            bmax = fmax(bmax, b);
            continue;
        }
        if (!sphere_with(cls->type, &first)) continue;
        floe_pose p = floe__pose(w, i);
        vec3 vert[FLOE_SHAPE_MAX_VERTICES];
        if (cls->nvertices) cls->vertices(floe__shape_data(w, i), &p, vert);
        if (cls->near && !cls->near(floe__shape_data(w, i), &p, vert, mid, ext, bound, 0)) continue;
        s->ids[s->n++] = i;
    }
    /* cells as wide as the farthest a candidate's centre can be from a
     * body's reference point while they touch */
    s->reach = rmax + bmax;
    if (s->nbody) {
        vec3 g = v3(s->reach, s->reach, s->reach);
        if (floe_cell_grid_init(&s->grid, vsub(lo, g), vadd(hi, g), s->reach, s->nbody)) {
            floe_clear_free(s);
            return NULL;
        }
        for (int64_t k = s->nbody - 1; k >= 0; k--) floe_cell_grid_insert(&s->grid, k, s->at[k]);
    }
    return s;
}

/* Whether a sphere (centre x, radius r) overlaps body i at reference point at. */
static int hits_body(const floe_world *w, int i, vec3 at, vec3 x, double r) {
    const floe_shape_class *cls = floe__class_of(w, i);
    double b = cls->bound(floe__shape_data(w, i));
    if (vlen2(vsub(x, at)) >= (r + b) * (r + b)) return 0;
    int first;
    floe_collide_fn *fn = sphere_with(cls->type, &first);
    if (!fn) return 1; /* no pair test: the bounding spheres decide */
    floe_pose ps = {x, {1, 0, 0, 0}}, pb = {at, w->ori[i]};
    floe_raw_contact out;
    const void *rec = floe__shape_data(w, i);
    return first ? fn(&r, &ps, rec, &pb, NULL, 0, &out) : fn(rec, &pb, &r, &ps, NULL, 0, &out);
}

int floe_clear_sphere(const floe_clear *s, floe_vec3 centre, double r) {
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
    if (!s->nbody) return 1;
    /* the bodies, from the candidate's wrapped centre and its images near the faces */
    floe_vec3 from[27];
    int nfrom = 1;
    from[0] = centre;
    if (s->periodic) nfrom = floe_period_images(&s->per, floe_period_wrap(&s->per, centre), s->reach, from);
    for (int q = 0; q < nfrom; q++) {
        floe_cell_iter it;
        floe_cell_grid_near(&s->grid, from[q], &it);
        for (int64_t j; (j = floe_cell_next(&it)) >= 0;)
            if (hits_body(w, s->body[j], s->at[j], from[q], r)) return 0;
    }
    return 1;
}

int floe_clear_count(const floe_clear *s) { return s->n + s->nbody; }

void floe_clear_free(floe_clear *s) {
    if (!s) return;
    free(s->ids);
    free(s->body);
    free(s->at);
    floe_cell_grid_free(&s->grid);
    free(s);
}
