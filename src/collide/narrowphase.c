#include "collide/narrowphase.h"

/* Rows: A's shape, columns: B's shape. Boundaries come first (A), like Woo's
 * functor order: Wall+Sphere, Facet+Sphere. */
static floe_collide_fn *const table[FLOE_SHAPE_COUNT][FLOE_SHAPE_COUNT] = {
    [FLOE_SHAPE_SPHERE] = {[FLOE_SHAPE_SPHERE] = floe_collide_sphere_sphere},
    [FLOE_SHAPE_WALL] = {[FLOE_SHAPE_SPHERE] = floe_collide_wall_sphere},
    [FLOE_SHAPE_FACET] = {[FLOE_SHAPE_SPHERE] = floe_collide_facet_sphere},
};

floe_collide_fn *floe_narrowphase(int sa, int sb) { return table[sa][sb]; }

int floe_pair_swapped(int sa, int sb) { return !table[sa][sb] && table[sb][sa]; }
