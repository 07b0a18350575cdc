/* The geometry of one contact, independent of shapes and models: what a
 * narrow-phase function finds (floe_raw_contact) and the frame L6Geom
 * carries with the contact from step to step (floe_geom). */
#ifndef FLOE_L6GEOM_GEOM_H
#define FLOE_L6GEOM_GEOM_H

#include "base/vec.h"

/* What a narrow-phase function reports: the equivalent two-sphere contact
 * (as in Woo's L6Geom, docs/geometry.md#creation). r1 < 0 marks a flat body that takes the other's length. */
typedef struct floe_raw_contact {
    vec3 n;        /* unit normal from A to B */
    vec3 c;        /* contact point */
    double uN;     /* gap, < 0 overlap */
    double r1, r2; /* radii controlling lens and area */
} floe_raw_contact;

/* Contact geometry (L6Geom): local frame carried with the contact, what
 * every step updates. The second tangent is n x t1 (floe_geom_t2). The
 * sizes set once at creation (area, lens) are kept elsewhere: the per-step
 * pass does not stream them (docs/performance.md#contact-storage). */
typedef struct floe_geom {
    vec3 n, t1; /* frame: normal (A->B) and first tangent, global */
    vec3 c;     /* contact point */
    double uN;  /* gap, < 0 is overlap */
} floe_geom;

static inline vec3 floe_geom_t2(const floe_geom *g) { return vcross(g->n, g->t1); }
/* The shorter lens: an overlap beyond it is a runaway. */
static inline double floe_geom_lmin(const double lens[2]) { return lens[0] < lens[1] ? lens[0] : lens[1]; }

#endif
