/* The `dense` generator of a scene (docs/scene-format.md, "dense"): a
 * dense sphere packing by radius expansion (floe_gen_dense). Pass 0 checks
 * the keys and counts the spheres by drawing the radii; pass 1 runs the
 * packing. scene_bodies.c reads the radius and the common keys and adds
 * the spheres, in the order drawn. */
#include "io/scene_dense.h"
#include <floe/floe_pack.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NKEYS(a) ((int)(sizeof(a) / sizeof *(a)))
#define DEFAULT_MAX_OVERLAP 0.01
#define DEFAULT_MAX_ITERATIONS 200000

/* The required key `key` of map m in *out, or an error naming it. */
static int need(scene_ctx *c, sy_node *m, const char *where, const char *key, sy_node **out) {
    *out = sy_get(c->d, m, key);
    return *out ? 0 : sy_missing(c->d, m, where, key);
}

/* region: box: [[lo], [hi]] or cylinder: {base, radius, height} (axis z). */
static int region(scene_ctx *c, sy_node *g, const char *where, floe_dense_def *dd, sy_node **at) {
    sy_doc *d = c->d;
    char p[SCENE_PATH], q[SCENE_PATH];
    sy_node *box = sy_get(d, g, "box"), *cyl = sy_get(d, g, "cylinder");
    if (!box == !cyl)
        return sy_error(d, box ? cyl : g,
                        "%s: give exactly one region, box: [[x0, y0, z0], [x1, y1, z1]] or "
                        "cylinder: {base: [x, y, z], radius: R, height: H}",
                        where);
    if (box) {
        *at = box;
        dd->region = FLOE_DENSE_BOX;
        scene_path(p, where, "box");
        if (!sy_is_seq(box) || sy_seq_size(box) != 2)
            return sy_error(d, box, "%s: expected two corners [[xmin, ymin, zmin], [xmax, ymax, zmax]]", p);
        if (sy_point(d, sy_seq_item(d, box, 0), scene_index(q, p, 0), &dd->lo) ||
            sy_point(d, sy_seq_item(d, box, 1), scene_index(q, p, 1), &dd->hi))
            return -1;
        if (!(dd->lo.x < dd->hi.x && dd->lo.y < dd->hi.y && dd->lo.z < dd->hi.z))
            return sy_error(d, box, "%s: the first corner must be below the second on every axis", p);
        return 0;
    }
    static const char *const keys[] = {"base", "radius", "height"};
    *at = cyl;
    dd->region = FLOE_DENSE_CYLINDER;
    scene_path(p, where, "cylinder");
    sy_node *n;
    if (sy_want_map(d, cyl, p) || sy_check_keys(d, cyl, p, keys, NKEYS(keys))) return -1;
    if (need(c, cyl, p, "base", &n) || sy_point(d, n, scene_path(q, p, "base"), &dd->base)) return -1;
    if (need(c, cyl, p, "radius", &n) ||
        sy_number_in(d, n, scene_path(q, p, "radius"), &dd->radius, 0, SY_MAX_COORD, 1, 0))
        return -1;
    if (need(c, cyl, p, "height", &n) ||
        sy_number_in(d, n, scene_path(q, p, "height"), &dd->height, 0, SY_MAX_COORD, 1, 0))
        return -1;
    return 0;
}

int scene_dense_keys(scene_ctx *c, sy_node *g, const char *where, floe_dense_def *dd, sy_node **at) {
    static const char *const keys[] = {"box",  "cylinder",    "radius",         "count",    "solid_fraction",
                                       "seed", "max_overlap", "max_iterations", "material", "group",
                                       "vel",  "angvel"};
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    memset(dd, 0, sizeof *dd);
    dd->env = &c->env; /* the cell; polls the interrupt function */
    *at = g;
    if (sy_want_map(d, g, where) || sy_check_keys(d, g, where, keys, NKEYS(keys)) || region(c, g, where, dd, at))
        return -1;
    if (!(n = sy_get(d, g, "solid_fraction"))) return sy_missing(d, g, where, "solid_fraction");
    if (sy_number_in(d, n, scene_path(p, where, "solid_fraction"), &dd->target, 0, 0.9, 1, 0)) return -1;
    if ((n = sy_get(d, g, "count")) &&
        sy_int(d, n, scene_path(p, where, "count"), &dd->count, 0, (int64_t)FLOE_GEN_MAX_COUNT))
        return -1;
    int64_t seed = 0;
    if ((n = sy_get(d, g, "seed")) && sy_int(d, n, scene_path(p, where, "seed"), &seed, 0, INT64_MAX)) return -1;
    dd->seed = (uint64_t)seed;
    dd->max_overlap = DEFAULT_MAX_OVERLAP;
    if ((n = sy_get(d, g, "max_overlap")) &&
        sy_number_in(d, n, scene_path(p, where, "max_overlap"), &dd->max_overlap, 0, 0.5, 1, 0))
        return -1;
    dd->max_iterations = DEFAULT_MAX_ITERATIONS;
    if ((n = sy_get(d, g, "max_iterations")) &&
        sy_int(d, n, scene_path(p, where, "max_iterations"), &dd->max_iterations, 1, 1000000000))
        return -1;
    return 0;
}

int scene_dense_make(scene_ctx *c, sy_node *g, sy_node *at, const char *where, const floe_dense_def *dd,
                     floe_vec3 **pos, double **rad, int64_t *n) {
    sy_doc *d = c->d;
    char p[SCENE_PATH], msg[768];
    *pos = NULL;
    *rad = NULL;
    *n = 0;
    const floe_size_dist *dist = dd->dist;
    const int mono = dist ? dist->kind != FLOE_DIST_SIEVE && dist->min == dist->max : dd->rmin == dd->rmax;
    if (mono && dd->target > FLOE_DENSE_MONO_MAX)
        return sy_error(d, sy_get(d, g, "solid_fraction"),
                        "%s: %g is impossible for spheres of one radius: allowed (0, %g], since no packing of "
                        "equal spheres is denser than pi/sqrt(18) (a random one jams near 0.64)",
                        scene_path(p, where, "solid_fraction"), dd->target, FLOE_DENSE_MONO_MAX);
    if (!c->build) {
        if (floe_gen_dense_count(dd, n, msg, sizeof msg)) return sy_error(d, at, "%s: %s", where, msg);
        return 0;
    }
    floe_dense_info info;
    if (floe_gen_dense(dd, pos, rad, &info, msg, sizeof msg))
        return c->stopped ? scene_stopped(c, g) : sy_error(d, g, "%s: %s", where, msg);
    *n = info.count;
    return 0;
}
