/* A uniform grid of points, hashed: the neighbour search of the scene
 * checks (initial overlaps of spheres), of the random packing generators
 * and dense packings, and of the inlets' insertion test (core/supply.c).
 * Cells are chosen at least as wide as the largest interaction distance, so
 * every pair that can interact lies in neighbouring cells; hashing keeps
 * memory at O(items) whatever the extent. Cell coordinates are clamped to
 * +-2^30, which keeps them monotone in the position: a point far outside
 * the box shares an edge cell with others, and is still found. (The broad
 * phase has its own grid: docs/decisions.md, "One cell grid for the loader
 * and the inlets, another for the broad phase".) */
#ifndef FLOE_BASE_CELL_GRID_H
#define FLOE_BASE_CELL_GRID_H

#include <floe/floe.h>
#include <stdint.h>

typedef struct floe_cell_grid {
    floe_vec3 lo;       /* corner of cell (0, 0, 0) */
    double h;           /* cell width */
    size_t mask;        /* hash slots - 1 (a power of two) */
    int64_t *head;      /* first item of each slot, -1 if none */
    int64_t *next;      /* next item of the same slot */
    int32_t (*cell)[3]; /* cell of every item (x INT32_MIN: not inserted) */
    int64_t cap;        /* items 0 .. cap - 1 have room */
    int64_t count;      /* items inserted */
} floe_cell_grid;

/* A grid for items 0 .. n-1 placed in the box [lo, hi], with cells at
 * least `min_cell` wide (and at least 1e-9 of the box's largest side, so
 * that cell coordinates fit in 32 bits). 0, or -1 when out of memory. */
int floe_cell_grid_init(floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, double min_cell, int64_t n);
/* The grid emptied and made anew as floe_cell_grid_init makes it, keeping
 * its memory where that is large enough (a zeroed grid is made from
 * nothing): for a search rebuilt often. 0, or -1 when out of memory (the
 * grid is then freed). */
int floe_cell_grid_reset(floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, double min_cell, int64_t n);
/* Room for items 0 .. n-1 (the slots grow with the items, and each cell
 * then lists its items in ascending order). 0, or -1 when out of memory
 * (the grid is unchanged). */
int floe_cell_grid_reserve(floe_cell_grid *g, int64_t n);
void floe_cell_grid_free(floe_cell_grid *g);
/* Puts item i at p, ahead of the items already in its cell: inserting in
 * descending order leaves each cell in ascending order. */
void floe_cell_grid_insert(floe_cell_grid *g, int64_t i, floe_vec3 p);

/* The items in a block of cells: the cells with x varying fastest, then y,
 * then z; the items of a cell in their order. A block of more cells than
 * the grid has items is walked item by item instead (ascending ids), so a
 * search never costs more than a look at every item. */
typedef struct floe_cell_iter {
    const floe_cell_grid *g;
    int32_t lo[3], hi[3]; /* the block of cells */
    int32_t at[3];        /* the cell being walked */
    int64_t j;            /* next item to look at in its slot (scan: the next id) */
    int scan;             /* 1: items by id, those whose cell is in the block */
    int done;
} floe_cell_iter;

/* The 27 cells around a point. */
void floe_cell_grid_near(const floe_cell_grid *g, floe_vec3 p, floe_cell_iter *it);
/* The cells that hold a point of the box [lo, hi]. */
void floe_cell_grid_box(const floe_cell_grid *g, floe_vec3 lo, floe_vec3 hi, floe_cell_iter *it);
/* The next item, or -1 when every cell of the block has been walked. */
int64_t floe_cell_next(floe_cell_iter *it);

/* An orthogonal periodic box, as a scene's cell is before the run deforms
 * it: along each axis k of `axes` (bit k) points repeat every len[k] from
 * lo[k]. The io layer's searches see images through it (generators, dense
 * packings, the overlap check); a running world's cell, which may shear,
 * has its own functions (core/cell.h). */
typedef struct floe_grid_period {
    int axes;
    double lo[3], len[3];
} floe_grid_period;

/* The period of the box [lo, hi] along the axes of the bit mask `axes`
 * (an axis whose width is not a positive finite number is left out);
 * returns whether any axis is periodic. */
int floe_grid_period_set(floe_grid_period *p, int axes, floe_vec3 lo, floe_vec3 hi);

/* x moved into [lo, lo + len) along the periodic axes. */
floe_vec3 floe_period_wrap(const floe_grid_period *p, floe_vec3 x);
/* The points x + len m (m_k in {-1, 0, 1} along the periodic axes, 0 along
 * the others; x itself first) from which a search within `reach` finds
 * every point of the box whose image comes within `reach` of x: m_k = +1
 * (-1) when x is within reach of the upper (lower) face. x in the box
 * (floe_period_wrap); their count returned: at most 8 when the box is at
 * least twice `reach` wide (each point then within reach through one image
 * at most), at most 27 when a reach across half the box has both faces of
 * an axis. */
int floe_period_images(const floe_grid_period *p, floe_vec3 x, double reach, floe_vec3 out[27]);
/* The minimum image of a difference along the periodic axes (d_k minus
 * the nearest multiple of len[k]). */
floe_vec3 floe_period_delta(const floe_grid_period *p, floe_vec3 d);

#endif
