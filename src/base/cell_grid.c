#include "base/cell_grid.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

#define CELL_MAX (1 << 30) /* |cell coordinate| at most; a neighbour's stays in 32 bits */
#define NOT_IN INT32_MIN   /* cell[i][0] of an item not inserted */

static uint64_t cell_hash(int32_t x, int32_t y, int32_t z) {
    uint64_t h = (uint64_t)(uint32_t)x * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)y * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)z * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
}

/* floor((v - lo) / h), clamped: monotone in v (NaN goes to the low end) */
static int32_t coord(double v, double lo, double h) {
    double c = floor((v - lo) / h);
    if (!(c > -CELL_MAX)) return -CELL_MAX;
    return c < CELL_MAX ? (int32_t)c : CELL_MAX;
}

static void cell_of(const floe_cell_grid *g, floe_vec3 p, int32_t c[3]) {
    c[0] = coord(p.x, g->lo.x, g->h);
    c[1] = coord(p.y, g->lo.y, g->h);
    c[2] = coord(p.z, g->lo.z, g->h);
}

static size_t slots_for(int64_t n) {
    size_t items = n > 0 ? (size_t)n : 1, slots = 1;
    while (slots < 2 * items) slots *= 2;
    return slots;
}

int floe_cell_grid_init(floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, double min_cell, int64_t n) {
    double span = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    size_t items = n > 0 ? (size_t)n : 1, slots = slots_for(n);
    *g = (floe_cell_grid){lo,
                          fmax(min_cell, span / 1e9),
                          slots - 1,
                          malloc(sizeof *g->head * slots),
                          malloc(sizeof *g->next * items),
                          malloc(sizeof *g->cell * items),
                          (int64_t)items,
                          0};
    if (!g->head || !g->next || !g->cell) {
        floe_cell_grid_free(g);
        return -1;
    }
    for (size_t s = 0; s < slots; s++) g->head[s] = -1;
    for (size_t i = 0; i < items; i++) g->cell[i][0] = NOT_IN;
    return 0;
}

int floe_cell_grid_reset(floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, double min_cell, int64_t n) {
    if (!g->head) return floe_cell_grid_init(g, lo, hi, min_cell, n);
    double span = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    size_t items = n > 0 ? (size_t)n : 1, slots = slots_for(n);
    g->lo = lo;
    g->h = fmax(min_cell, span / 1e9);
    for (int64_t i = 0; i < g->cap; i++) g->cell[i][0] = NOT_IN; /* every item out */
    g->count = 0;
    if (slots > g->mask + 1) {
        int64_t *head = realloc(g->head, sizeof *head * slots);
        if (!head) goto fail;
        g->head = head;
        g->mask = slots - 1;
    }
    if ((int64_t)items > g->cap) {
        int64_t *next = realloc(g->next, sizeof *next * items);
        if (!next) goto fail;
        g->next = next;
        int32_t(*cell)[3] = realloc(g->cell, sizeof *cell * items);
        if (!cell) goto fail;
        g->cell = cell;
        for (int64_t i = g->cap; i < (int64_t)items; i++) g->cell[i][0] = NOT_IN;
        g->cap = (int64_t)items;
    }
    for (size_t s = 0; s <= g->mask; s++) g->head[s] = -1;
    return 0;
fail:
    floe_cell_grid_free(g);
    return -1;
}

static void link(floe_cell_grid *g, int64_t i) {
    const int32_t *c = g->cell[i];
    size_t s = cell_hash(c[0], c[1], c[2]) & g->mask;
    g->next[i] = g->head[s];
    g->head[s] = i;
}

int floe_cell_grid_reserve(floe_cell_grid *g, int64_t n) {
    if (n <= g->cap) return 0;
    int64_t cap = g->cap;
    while (cap < n) cap *= 2;
    int64_t *next = realloc(g->next, sizeof *next * (size_t)cap);
    if (!next) return -1;
    g->next = next;
    int32_t(*cell)[3] = realloc(g->cell, sizeof *cell * (size_t)cap);
    if (!cell) return -1;
    g->cell = cell;
    for (int64_t i = g->cap; i < cap; i++) g->cell[i][0] = NOT_IN;
    size_t slots = slots_for(cap);
    if (slots > g->mask + 1) {
        int64_t *head = malloc(sizeof *head * slots);
        if (!head) return -1;
        free(g->head);
        g->head = head;
        g->mask = slots - 1;
        for (size_t s = 0; s < slots; s++) g->head[s] = -1;
        for (int64_t i = g->cap - 1; i >= 0; i--)
            if (g->cell[i][0] != NOT_IN) link(g, i);
    }
    g->cap = cap;
    return 0;
}

void floe_cell_grid_free(floe_cell_grid *g) {
    free(g->head);
    free(g->next);
    free(g->cell);
    g->head = g->next = NULL;
    g->cell = NULL;
    g->cap = g->count = 0;
}

void floe_cell_grid_insert(floe_cell_grid *g, int64_t i, floe_vec3 p) {
    cell_of(g, p, g->cell[i]);
    link(g, i);
    g->count++;
}

/* The slot of the iterator's cell. */
static int64_t first_of(const floe_cell_iter *it) {
    return it->g->head[cell_hash(it->at[0], it->at[1], it->at[2]) & it->g->mask];
}

static void start_block(floe_cell_iter *it) {
    for (int k = 0; k < 3; k++) it->at[k] = it->lo[k];
    it->done = 0;
    if (it->scan) {
        it->j = 0;
        return;
    }
    it->j = first_of(it);
}

void floe_cell_grid_near(const floe_cell_grid *g, floe_vec3 p, floe_cell_iter *it) {
    int32_t c[3];
    cell_of(g, p, c);
    it->g = g;
    it->scan = 0;
    for (int k = 0; k < 3; k++) {
        it->lo[k] = c[k] - 1;
        it->hi[k] = c[k] + 1;
    }
    start_block(it);
}

void floe_cell_grid_box(const floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, floe_cell_iter *it) {
    it->g = g;
    cell_of(g, lo, it->lo);
    cell_of(g, hi, it->hi);
    double cells = 1;
    for (int k = 0; k < 3; k++) cells *= (double)it->hi[k] - it->lo[k] + 1;
    it->scan = cells > 27 && cells > (double)g->count;
    start_block(it);
}

/* Moves to the next cell of the block; 0 past the last. */
static int next_cell(floe_cell_iter *it) {
    for (int k = 0; k < 3; k++) {
        if (it->at[k] < it->hi[k]) {
            it->at[k]++;
            return 1;
        }
        it->at[k] = it->lo[k];
    }
    return 0;
}

static int in_block(const floe_cell_iter *it, const int32_t *c) {
    for (int k = 0; k < 3; k++)
        if (c[k] < it->lo[k] || c[k] > it->hi[k]) return 0;
    return 1;
}

int64_t floe_cell_next(floe_cell_iter *it) {
    const floe_cell_grid *g = it->g;
    if (it->scan) {
        while (it->j < g->cap) {
            int64_t j = it->j++;
            if (g->cell[j][0] != NOT_IN && in_block(it, g->cell[j])) return j;
        }
        return -1;
    }
    while (!it->done) {
        while (it->j >= 0) {
            int64_t j = it->j;
            it->j = g->next[j];
            const int32_t *cj = g->cell[j];
            if (cj[0] == it->at[0] && cj[1] == it->at[1] && cj[2] == it->at[2])
                return j; /* not another cell of the same slot */
        }
        if (next_cell(it)) it->j = first_of(it);
        else it->done = 1;
    }
    return -1;
}

/* ---- an orthogonal periodic box ------------------------------------------------- */

static double comp(floe_vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }
static floe_vec3 with(floe_vec3 v, int k, double x) {
    if (k == 0) v.x = x;
    else if (k == 1) v.y = x;
    else v.z = x;
    return v;
}

floe_vec3 floe_period_wrap(const floe_grid_period *p, floe_vec3 x) {
    for (int k = 0; k < 3; k++) {
        if (!(p->axes >> k & 1)) continue;
        double n = floor((comp(x, k) - p->lo[k]) / p->len[k]);
        if (n != 0 && isfinite(n)) x = with(x, k, comp(x, k) - n * p->len[k]);
    }
    return x;
}

int floe_period_images(const floe_grid_period *p, floe_vec3 x, double reach, floe_vec3 out[27]) {
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (!(p->axes >> k & 1)) continue;
        double f = (comp(x, k) - p->lo[k]) / p->len[k], rf = reach / p->len[k] + 1e-9; /* margin for rounding */
        if (f >= 1 - rf) lo[k] = -1; /* x - len: the images one period up of points near the lower face */
        if (f <= rf) hi[k] = 1;      /* x + len */
    }
    int n = 0;
    for (int mz = 0; mz < 3; mz++) /* 0 first, then -1, then +1 along each axis */
        for (int my = 0; my < 3; my++)
            for (int mx = 0; mx < 3; mx++) {
                int m[3] = {mx == 2 ? 1 : -mx, my == 2 ? 1 : -my, mz == 2 ? 1 : -mz}, ok = 1;
                for (int k = 0; k < 3; k++) ok &= m[k] == 0 || (m[k] < 0 ? lo[k] < 0 : hi[k] > 0);
                if (!ok) continue;
                floe_vec3 q = x;
                for (int k = 0; k < 3; k++)
                    if (m[k]) q = with(q, k, comp(q, k) + m[k] * p->len[k]);
                out[n++] = q;
            }
    return n;
}

floe_vec3 floe_period_delta(const floe_grid_period *p, floe_vec3 d) {
    for (int k = 0; k < 3; k++)
        if (p->axes >> k & 1) d = with(d, k, comp(d, k) - p->len[k] * round(comp(d, k) / p->len[k]));
    return d;
}

int floe_grid_period_set(floe_grid_period *p, int axes, floe_vec3 lo, floe_vec3 hi) {
    memset(p, 0, sizeof *p);
    const double l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
    for (int k = 0; k < 3; k++)
        if ((axes >> k & 1) && h[k] > l[k] && isfinite(h[k] - l[k])) {
            p->axes |= 1 << k;
            p->lo[k] = l[k];
            p->len[k] = h[k] - l[k];
        }
    return p->axes != 0;
}
