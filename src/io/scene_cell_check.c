/* The periodic cell's checks before the run
 * (docs/scene-format.md#checks-before-the-run, docs/periodic.md,
 * docs/decisions.md#the-cells-start-tests-run-when-the-scene-loads-and-when-a-restart-file-is-read):
 * what the start and the first pair
 * search would refuse -- a wall normal to a periodic axis, facets, meshes
 * and infinite cylinders, a cell narrower than twice the pair search
 * distance -- found by the engine's own test (floe__cell_misfit, with the
 * search distance the start would resolve) and reported at the scene key
 * in the engine's words; and, for the overlap check (scene_check.c), the
 * spheres wrapped into the cell as the start wraps them, and the pairs
 * that meet through the cell's faces. */
#include "io/scene_internal.h"
#include "core/cell.h"
#include "core/step.h"
#include "io/cell_grid.h"

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
    const floe_world *w = c->w;
    static const char *const axes[] = {"x", "y", "z"};
    int body, axis;
    char why[512];
    if (!floe__cell_misfit(w, w->cell.h, floe__start_search_skin(w), &body, &axis, why, sizeof why)) return 0;
    if (axis >= 0) {
        sy_node *n = sy_get(c->d, sy_get(c->d, sy_root(c->d), "periodic"), axes[axis]);
        return sy_error(c->d, n ? n : sy_root(c->d), "periodic.%s: %s", axes[axis], why);
    }
    char key[SCENE_PATH];
    sy_node *at = item_of(c, source_of(c, body), key, sizeof key);
    return sy_error(c->d, at, "%s%s", key, why);
}

floe_vec3 *scene_cell_wrapped(const scene_ctx *c) {
    const floe_world *w = c->w;
    int np = floe_particle_count(w);
    if (!w->cell.axes || np == 0) return NULL;
    floe_vec3 *x = malloc(sizeof *x * (size_t)np);
    if (!x) return NULL;
    double hi[9];
    floe__cell_inverse(w->cell.h, hi);
    for (int i = 0; i < np; i++) {
        vec3 p = w->pos[i];
        if (w->bound[i] > 0) { /* bodies wrap; boundaries stay */
            floe_img n = floe__cell_floor(w, hi, p);
            p = vsub(p, floe__mat_vec(w->cell.h, v3(n.n[0], n.n[1], n.n[2])));
        }
        x[i] = p;
    }
    return x;
}

/* An image of a sphere near the faces: sphere i at x_i + H s, s not zero. */
typedef struct image {
    int i;
    vec3 p;
} image;

int scene_cell_image_pairs(const scene_ctx *c, const floe_vec3 *x, void (*fn)(void *, int, int, double), void *ctx) {
    const floe_world *w = c->w;
    const floe_cell *cell = &w->cell;
    int np = floe_particle_count(w);
    const double *r = floe_radii(w);
    double rmax = 0;
    for (int i = 0; i < np; i++)
        if (floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE) rmax = fmax(rmax, r[i]);
    if (!cell->axes || !(rmax > 0)) return 1;
    /* the images within 2 rmax of the cell, as the pair search puts them on
     * its grid (cell.c, floe__cell_pairs): m[k] is 2 rmax over the width */
    double hi[9], m[3] = {0, 0, 0};
    floe__cell_inverse(cell->h, hi);
    for (int k = 0; k < 3; k++)
        if (cell->axes >> k & 1) m[k] = 2 * rmax * vlen(v3(hi[3 * k], hi[3 * k + 1], hi[3 * k + 2]));
    image *im = NULL;
    int64_t n = 0, cap = 0;
    vec3 lo = v3(INFINITY, INFINITY, INFINITY), up = v3(-INFINITY, -INFINITY, -INFINITY);
    for (int i = 0; i < np; i++) {
        if (floe_particle_shape(w, i) != FLOE_SHAPE_SPHERE) continue;
        vec3 f = floe__mat_vec(hi, vsub(x[i], cell->origin));
        int a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            if (cell->axes >> k & 1) {
                if (vcomp(f, k) - 1 >= -m[k]) a[k] = -1; /* the image one period down is near the cell */
                if (vcomp(f, k) + 1 <= 1 + m[k]) b[k] = 1;
            }
        for (int sz = a[2]; sz <= b[2]; sz++)
            for (int sy = a[1]; sy <= b[1]; sy++)
                for (int sx = a[0]; sx <= b[0]; sx++) {
                    if (!(sx | sy | sz)) continue;
                    if (n == cap) {
                        cap = cap ? 2 * cap : 64;
                        image *g = realloc(im, sizeof *im * (size_t)cap);
                        if (!g) {
                            free(im);
                            return -1;
                        }
                        im = g;
                    }
                    vec3 p = vadd(x[i], floe__mat_vec(cell->h, v3(sx, sy, sz)));
                    im[n++] = (image){i, p};
                    lo = v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
                    up = v3(fmax(up.x, p.x), fmax(up.y, p.y), fmax(up.z, p.z));
                }
    }
    if (n == 0) return 1;
    floe_cell_grid g;
    if (floe_cell_grid_init(&g, lo, up, 2 * rmax, n)) {
        free(im);
        return -1;
    }
    for (int64_t k = n - 1; k >= 0; k--) floe_cell_grid_insert(&g, k, im[k].p);
    /* each pair once, from its smaller id: within the size rule two
     * spheres closer than 2 rmax meet through one image at most */
    double tests = 0;
    int rc = 1;
    for (int i = 0; i < np && rc > 0; i++) {
        if (floe_particle_shape(w, i) != FLOE_SHAPE_SPHERE) continue;
        floe_cell_iter it;
        floe_cell_grid_near(&g, x[i], &it);
        for (int64_t k; (k = floe_cell_next(&it)) >= 0;) {
            int j = im[k].i;
            if (j <= i) continue;
            tests++;
            double dist = vlen(vsub(im[k].p, x[i]));
            if (dist < r[i] + r[j]) fn(ctx, i, j, dist);
        }
        if (tests > IMAGE_MAX_TESTS) rc = 0;
    }
    floe_cell_grid_free(&g);
    free(im);
    return rc;
}
