/* The `dense` generator of a scene (docs/scene-format.md, "dense"): a
 * dense sphere packing by radius expansion (floe_gen_dense). Pass 0 checks
 * the keys and counts the spheres by drawing the radii; pass 1 runs the
 * packing and adds the spheres in the order drawn. */
#include "io/scene_internal.h"
#include "io/generate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKEYS(a) ((int)(sizeof(a) / sizeof *(a)))
#define DEFAULT_MAX_OVERLAP 0.01
#define DEFAULT_MAX_ITERATIONS 200000

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
    if (scene_required(c, cyl, p, "base", &n) || sy_point(d, n, scene_path(q, p, "base"), &dd->base)) return -1;
    if (scene_required(c, cyl, p, "radius", &n) ||
        sy_number_in(d, n, scene_path(q, p, "radius"), &dd->radius, 0, SY_MAX_COORD, 1, 0))
        return -1;
    if (scene_required(c, cyl, p, "height", &n) ||
        sy_number_in(d, n, scene_path(q, p, "height"), &dd->height, 0, SY_MAX_COORD, 1, 0))
        return -1;
    return 0;
}

int scene_gen_dense(scene_ctx *c, sy_node *g, const char *where) {
    static const char *const keys[] = {"box",  "cylinder",    "radius",         "count",    "solid_fraction",
                                       "seed", "max_overlap", "max_iterations", "material", "group",
                                       "vel",  "angvel"};
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n, *at = g;
    floe_body_def def;
    floe_dense_def dd;
    floe_size_dist dist;
    memset(&dd, 0, sizeof dd);
    if (sy_want_map(d, g, where) || sy_check_keys(d, g, where, keys, NKEYS(keys)) || scene_common(c, g, where, &def) ||
        region(c, g, where, &dd, &at))
        return -1;
    if (scene_required(c, g, where, "radius", &n)) return -1;
    scene_path(p, where, "radius");
    if (sy_is_map(n)) {
        if (scene_radius_dist(c, n, p, &dist)) return -1;
        dd.dist = &dist;
        dd.rmin = dist.min;
        dd.rmax = dist.max;
    } else {
        if (sy_is_seq(n) && sy_seq_size(n) != 2)
            return sy_error(d, n, "%s: expected a radius, a range [rmin, rmax] or a distribution {dist: ...}", p);
        if (scene_value_or_range(c, n, p, "radius", &dd.rmin, &dd.rmax)) return -1;
    }
    const int mono = dd.dist ? dist.kind != FLOE_DIST_SIEVE && dist.min == dist.max : dd.rmin == dd.rmax;
    if (scene_required(c, g, where, "solid_fraction", &n) ||
        sy_number_in(d, n, scene_path(p, where, "solid_fraction"), &dd.target, 0, 0.9, 1, 0))
        return -1;
    if (mono && dd.target > FLOE_DENSE_MONO_MAX)
        return sy_error(d, n,
                        "%s: %g is impossible for spheres of one radius: allowed (0, %g], since no packing of "
                        "equal spheres is denser than pi/sqrt(18) (a random one jams near 0.64)",
                        p, dd.target, FLOE_DENSE_MONO_MAX);
    if ((n = sy_get(d, g, "count")) &&
        sy_int(d, n, scene_path(p, where, "count"), &dd.count, 0, (int64_t)FLOE_GEN_MAX_COUNT))
        return -1;
    int64_t seed = 0;
    if ((n = sy_get(d, g, "seed")) && sy_int(d, n, scene_path(p, where, "seed"), &seed, 0, INT64_MAX)) return -1;
    dd.seed = (uint64_t)seed;
    dd.max_overlap = DEFAULT_MAX_OVERLAP;
    if ((n = sy_get(d, g, "max_overlap")) &&
        sy_number_in(d, n, scene_path(p, where, "max_overlap"), &dd.max_overlap, 0, 0.5, 1, 0))
        return -1;
    dd.max_iterations = DEFAULT_MAX_ITERATIONS;
    if ((n = sy_get(d, g, "max_iterations")) &&
        sy_int(d, n, scene_path(p, where, "max_iterations"), &dd.max_iterations, 1, 1000000000))
        return -1;
    char msg[768];
    if (!c->build) {
        int64_t cnt;
        if (floe__dense_count(&dd, &cnt, msg, sizeof msg)) return sy_error(d, at, "%s: %s", where, msg);
        return scene_count(c, g, where, (double)cnt);
    }
    floe_vec3 *pos;
    double *rad;
    floe_dense_info info;
    if (floe_gen_dense(&dd, &pos, &rad, &info, msg, sizeof msg)) return sy_error(d, g, "%s: %s", where, msg);
    int rc = scene_add_spheres(c, g, where, &def, pos, rad, info.count);
    free(pos);
    free(rad);
    return rc;
}
