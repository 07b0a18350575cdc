/* A uniform grid of points, hashed: the neighbour search of the scene
 * checks (initial overlaps of spheres) and of the random packing generator.
 * Cells are at least as wide as the largest interaction distance, so every
 * pair that can interact lies in neighbouring cells; hashing keeps memory
 * at O(items) whatever the extent. (The broad phase has its own grid:
 * docs/decisions.md, "One cell grid for the loader, another for the broad
 * phase".) */
#ifndef FLOE_IO_CELL_GRID_H
#define FLOE_IO_CELL_GRID_H

#include <floe/floe.h>
#include <stdint.h>

typedef struct floe_cell_grid {
    floe_vec3 lo;       /* corner of cell (0, 0, 0) */
    double h;           /* cell width */
    size_t mask;        /* hash slots - 1 (a power of two) */
    int64_t *head;      /* first item of each slot, -1 if none */
    int64_t *next;      /* next item of the same slot */
    int32_t (*cell)[3]; /* cell of every item */
} floe_cell_grid;

/* A grid for items 0 .. n-1 placed in the box [lo, hi], with cells at
 * least `min_cell` wide (and at least 1e-9 of the box's largest side, so
 * that cell coordinates fit in 32 bits). 0, or -1 when out of memory. */
int floe_cell_grid_init(floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, double min_cell, int64_t n);
void floe_cell_grid_free(floe_cell_grid *g);
/* Puts item i at p, ahead of the items already in its cell: inserting in
 * descending order leaves each cell in ascending order. */
void floe_cell_grid_insert(floe_cell_grid *g, int64_t i, floe_vec3 p);

/* The items in the 27 cells around a point: the cells with x varying
 * fastest, then y, then z; the items of a cell in their order. */
typedef struct floe_cell_iter {
    const floe_cell_grid *g;
    int32_t c[3]; /* the point's cell */
    int d;        /* neighbour cell being walked, 0 .. 26 */
    int64_t j;    /* next item to look at in its slot */
} floe_cell_iter;

void floe_cell_grid_near(const floe_cell_grid *g, floe_vec3 p, floe_cell_iter *it);
/* The next item, or -1 when every neighbour cell has been walked. */
int64_t floe_cell_next(floe_cell_iter *it);

#endif
