/* The periodic cell's checks before the run
 * (docs/scene-format.md#checks-before-the-run, docs/periodic.md,
 * docs/decisions.md#the-cells-start-tests-run-when-the-scene-loads-and-when-a-restart-file-is-read):
 * what the start and the first pair
 * search would refuse -- a wall normal to a periodic axis, facets, meshes
 * and infinite cylinders, a cell narrower than twice the pair search
 * distance -- found by the engine's own test (floe_world_cell_misfit, with
 * the search distance the start would resolve) and reported at the scene key
 * in the engine's words. (Overlaps through the faces: scene_check.c.) */
#include "io/scene_cell_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Distance tests of the search through the faces before it gives up (as
 * the overlap search's OVERLAP_MAX_TESTS). */
#define IMAGE_MAX_TESTS 400000000.0

/* The node body `id` was made by (c->src, in id order), or the root. */
static sy_node *source_of(const scene_ctx *c, int id) {
    int lo = 0, hi = c->n_src - 1;
    if (hi < 0) return sy_root(c->d);
    while (lo < hi) { /* the last range starting at or before id */
        int mid = (lo + hi + 1) / 2;
        if (c->src[mid].first <= id) lo = mid;
        else hi = mid - 1;
    }
    return c->src[lo].node;
}

/* The item of a top-level list that n is, or that holds n as one of its
 * values (a mesh's stl): its path "walls[1]: " in key (or "") and its node
 * (or n). */
static sy_node *item_of(const scene_ctx *c, sy_node *n, char *key, size_t len) {
    sy_node *root = sy_root(c->d);
    key[0] = 0;
    for (int i = 0; i < sy_map_size(root); i++) {
        sy_node *sec = sy_map_value(c->d, root, i);
        for (int k = 0; sy_is_seq(sec) && k < sy_seq_size(sec); k++) {
            sy_node *item = sy_seq_item(c->d, sec, k);
            int in = item == n;
            for (int j = 0; !in && sy_is_map(item) && j < sy_map_size(item); j++) in = sy_map_value(c->d, item, j) == n;
            if (!in) continue;
            snprintf(key, len, "%s[%d]: ", (const char *)sy_map_key(c->d, root, i)->data.scalar.value, k);
            return item;
        }
    }
    return n;
}

int scene_check_cell(scene_ctx *c) {
    static const char *const axes[] = {"x", "y", "z"};
    int body, axis;
    char why[512];
    if (!floe_world_cell_misfit(c->w, &body, &axis, why, sizeof why)) return 0;
    if (axis >= 0) {
        sy_node *n = sy_get(c->d, sy_get(c->d, sy_root(c->d), "periodic"), axes[axis]);
        return sy_error(c->d, n ? n : sy_root(c->d), "periodic.%s: %s", axes[axis], why);
    }
    char key[SCENE_PATH];
    sy_node *at = item_of(c, source_of(c, body), key, sizeof key);
    return sy_error(c->d, at, "%s%s", key, why);
}
