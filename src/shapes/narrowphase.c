#include "shapes/narrowphase.h"

/* Rows: A's shape, columns: B's shape, in Woo's functor order: boundaries
 * first (Wall, Facet, InfCylinder + body), then Sphere + Capsule,
 * Sphere + Ellipsoid, Capsule + Ellipsoid. */
static floe_collide_fn *const table[FLOE_SHAPE_COUNT][FLOE_SHAPE_COUNT] = {
    [FLOE_SHAPE_WALL] = {[FLOE_SHAPE_SPHERE] = floe_collide_wall_sphere,
                         [FLOE_SHAPE_CAPSULE] = floe_collide_wall_capsule,
                         [FLOE_SHAPE_ELLIPSOID] = floe_collide_wall_ellipsoid},
    [FLOE_SHAPE_FACET] = {[FLOE_SHAPE_SPHERE] = floe_collide_facet_sphere,
                          [FLOE_SHAPE_CAPSULE] = floe_collide_facet_capsule,
                          [FLOE_SHAPE_ELLIPSOID] = floe_collide_facet_ellipsoid},
    [FLOE_SHAPE_INFCYLINDER] = {[FLOE_SHAPE_SPHERE] = floe_collide_infcyl_sphere,
                                [FLOE_SHAPE_CAPSULE] = floe_collide_infcyl_capsule,
                                [FLOE_SHAPE_ELLIPSOID] = floe_collide_infcyl_ellipsoid},
    [FLOE_SHAPE_SPHERE] = {[FLOE_SHAPE_SPHERE] = floe_collide_sphere_sphere,
                           [FLOE_SHAPE_CAPSULE] = floe_collide_sphere_capsule,
                           [FLOE_SHAPE_ELLIPSOID] = floe_collide_sphere_ellipsoid},
    [FLOE_SHAPE_CAPSULE] =
        {[FLOE_SHAPE_CAPSULE] = floe_collide_capsule_capsule, [FLOE_SHAPE_ELLIPSOID] = floe_collide_capsule_ellipsoid},
    [FLOE_SHAPE_ELLIPSOID] = {[FLOE_SHAPE_ELLIPSOID] = floe_collide_ellipsoid_ellipsoid},
};

/* Order of shapes within a pair: A has the lower rank. */
static const int rank[FLOE_SHAPE_COUNT] = {
    [FLOE_SHAPE_WALL] = 0,   [FLOE_SHAPE_FACET] = 1,   [FLOE_SHAPE_INFCYLINDER] = 2,
    [FLOE_SHAPE_SPHERE] = 3, [FLOE_SHAPE_CAPSULE] = 4, [FLOE_SHAPE_ELLIPSOID] = 5,
};

floe_collide_fn *floe_narrowphase(int sa, int sb) { return table[sa][sb]; }

int floe_shape_rank(int shape) { return rank[shape]; }
