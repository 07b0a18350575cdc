/* The one place where shapes are registered: one line per shape. The order
 * is the order of the scene sections (and of the keys in messages). */
#include "shapes/registry.h"

extern const floe_shape_class floe_shape_sphere, floe_shape_capsule, floe_shape_ellipsoid, floe_shape_infcylinder,
    floe_shape_wall, floe_shape_facet, floe_shape_polyhedron, floe_shape_clump;

static const floe_shape_class *const classes[] = {
    &floe_shape_sphere,      /* particles */
    &floe_shape_capsule,     /* capsules */
    &floe_shape_ellipsoid,   /* ellipsoids */
    &floe_shape_clump,       /* clumps */
    &floe_shape_infcylinder, /* cylinders */
    &floe_shape_wall,        /* walls */
    &floe_shape_facet,       /* facets */
    &floe_shape_polyhedron,  /* polyhedra */
};
_Static_assert(FLOE_LEN(classes) == FLOE_SHAPE_COUNT, "one class per FLOE_SHAPE_* value");

const floe_shape_class *floe_shape_class_at(int i) { return i >= 0 && i < FLOE_SHAPE_COUNT ? classes[i] : NULL; }

/* ---- tables by shape and by pair, built once ------------------------------ */

const floe_shape_tables *_Atomic floe__shape_tables_ready;
static floe_shape_tables tables;
static atomic_int building;

/* A pair is listed by either class (both: the same function, which the
 * class-table test checks); A is the one of lower rank. */
static void fill(floe_shape_tables *t) {
    for (int i = 0; i < FLOE_SHAPE_COUNT; i++) t->by_type[classes[i]->type] = classes[i];
    for (int a = 0; a < FLOE_SHAPE_COUNT; a++)
        for (int b = 0; b < FLOE_SHAPE_COUNT; b++) {
            const floe_shape_class *ca = t->by_type[a], *cb = t->by_type[b];
            if (!ca || !cb || ca->rank > cb->rank) continue;
            t->pair[a][b] = ca->collide[b] ? ca->collide[b] : cb->collide[a];
        }
}

const floe_shape_tables *floe__shape_tables_build(void) {
    int idle = 0;
    if (atomic_compare_exchange_strong(&building, &idle, 1)) {
        fill(&tables);
        atomic_store_explicit(&floe__shape_tables_ready, &tables, memory_order_release);
    }
    /* another thread fills them: a few microseconds */
    while (!atomic_load_explicit(&floe__shape_tables_ready, memory_order_acquire)) {}
    return &tables;
}

const floe_shape_class *floe_shape_class_get(int type) {
    return type >= 0 && type < FLOE_SHAPE_COUNT ? floe__shape_tables()->by_type[type] : NULL;
}

floe_collide_fn *floe_narrowphase(int sa, int sb) { return floe__shape_tables()->pair[sa][sb]; }

int floe_shape_rank(int shape) { return floe__shape_tables()->by_type[shape]->rank; }

int floe_shape_param_values(const floe_shape_class *c) {
    int n = 0;
    for (int k = 0; k < c->nparams; k++) n += c->params[k].n;
    return n;
}
