/* The shape registry (registry.c): the classes in registry order, found
 * by type and, for the narrow phase, by ordered pair, from tables built
 * once on first use. Apart from shape.h, which describes one class, so that
 * the classes and what they declare never point at the list of them. */
#ifndef FLOE_SHAPES_REGISTRY_H
#define FLOE_SHAPES_REGISTRY_H

#include "shapes/shape.h"

#include <stdatomic.h>

/* Classes in registry order (the order of the scene sections). */
const floe_shape_class *floe_shape_class_at(int i);
/* The class of shape `type`, NULL if none. */
const floe_shape_class *floe_shape_class_get(int type);
/* Function for the ordered pair (shape of A, shape of B), NULL if the pair
 * never collides (e.g. wall-wall) or is not in rank order. */
floe_collide_fn *floe_narrowphase(int shape_a, int shape_b);
/* Position of a shape in the pair order: A has the lower rank. */
int floe_shape_rank(int shape);
/* Values in the params array of a shape (the sum of its parameters' n). */
int floe_shape_param_values(const floe_shape_class *c);

/* Tables built once from the classes on first use. */
typedef struct floe_shape_tables {
    const floe_shape_class *by_type[FLOE_SHAPE_COUNT];
    floe_collide_fn *pair[FLOE_SHAPE_COUNT][FLOE_SHAPE_COUNT];
} floe_shape_tables;
extern const floe_shape_tables *_Atomic floe__shape_tables_ready;
const floe_shape_tables *floe__shape_tables_build(void);
static inline const floe_shape_tables *floe__shape_tables(void) {
    const floe_shape_tables *t = atomic_load_explicit(&floe__shape_tables_ready, memory_order_acquire);
    return t ? t : floe__shape_tables_build();
}

#endif
