#include "io/cell_grid.h"

#include <math.h>
#include <stdlib.h>

static uint64_t cell_hash(int32_t x, int32_t y, int32_t z) {
    uint64_t h = (uint64_t)(uint32_t)x * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)y * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)z * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
}

static void cell_of(const floe_cell_grid *g, floe_vec3 p, int32_t c[3]) {
    c[0] = (int32_t)floor((p.x - g->lo.x) / g->h);
    c[1] = (int32_t)floor((p.y - g->lo.y) / g->h);
    c[2] = (int32_t)floor((p.z - g->lo.z) / g->h);
}

int floe_cell_grid_init(floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, double min_cell, int64_t n) {
    double span = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    size_t items = n > 0 ? (size_t)n : 1, slots = 1;
    while (slots < 2 * items) slots *= 2;
    *g = (floe_cell_grid){lo,
                          fmax(min_cell, span / 1e9),
                          slots - 1,
                          malloc(sizeof *g->head * slots),
                          malloc(sizeof *g->next * items),
                          malloc(sizeof *g->cell * items)};
    if (!g->head || !g->next || !g->cell) {
        floe_cell_grid_free(g);
        return -1;
    }
    for (size_t s = 0; s < slots; s++) g->head[s] = -1;
    return 0;
}

void floe_cell_grid_free(floe_cell_grid *g) {
    free(g->head);
    free(g->next);
    free(g->cell);
    g->head = g->next = NULL;
    g->cell = NULL;
}

void floe_cell_grid_insert(floe_cell_grid *g, int64_t i, floe_vec3 p) {
    int32_t *c = g->cell[i];
    cell_of(g, p, c);
    size_t s = cell_hash(c[0], c[1], c[2]) & g->mask;
    g->next[i] = g->head[s];
    g->head[s] = i;
}

/* The slot of neighbour cell d of the iterator's cell. */
static int64_t first_of(const floe_cell_iter *it) {
    const int32_t *c = it->c;
    return it->g->head[cell_hash(c[0] + it->d % 3 - 1, c[1] + it->d / 3 % 3 - 1, c[2] + it->d / 9 - 1) & it->g->mask];
}

void floe_cell_grid_near(const floe_cell_grid *g, floe_vec3 p, floe_cell_iter *it) {
    it->g = g;
    cell_of(g, p, it->c);
    it->d = 0;
    it->j = first_of(it);
}

int64_t floe_cell_next(floe_cell_iter *it) {
    const floe_cell_grid *g = it->g;
    while (it->d < 27) {
        int32_t x = it->c[0] + it->d % 3 - 1, y = it->c[1] + it->d / 3 % 3 - 1, z = it->c[2] + it->d / 9 - 1;
        while (it->j >= 0) {
            int64_t j = it->j;
            it->j = g->next[j];
            const int32_t *cj = g->cell[j];
            if (cj[0] == x && cj[1] == y && cj[2] == z) return j; /* not another cell of the same slot */
        }
        if (++it->d < 27) it->j = first_of(it);
    }
    return -1;
}
