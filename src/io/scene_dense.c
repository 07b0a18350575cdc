/* The `dense` generator of a scene (docs/scene-format.md, "dense"): a
 * dense sphere packing by radius expansion (floe_gen_dense), its keys read
 * through floe_dense_key_table (dense_keys.c). Pass 0 checks the keys and
 * counts the spheres by drawing the radii; pass 1 runs the packing. scene_bodies.c reads the radius and the common keys and adds
 * the spheres, in the order drawn. */
#include "io/scene_dense.h"
#include "io/scene_keys.h"
#include <floe/floe_pack.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

int scene_dense_keys(scene_ctx *c, sy_node *g, const char *where, floe_dense_def *dd, sy_node **at) {
    unsigned char given[64];
    *dd = floe_default_dense_def();
    dd->env = &c->env; /* the cell; polls the interrupt function */
    *at = g;
    if (scene_keys(c, g, where, floe_dense_key_table(), dd, given, NULL)) return -1;
    *at = sy_get(c->d, g, given[0] ? "box" : "cylinder");
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
