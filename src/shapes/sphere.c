/* Sphere: mass properties and the sphere-sphere narrow phase. */
#include "shapes/shape.h"

void floe_sphere_mass(double r, double density, double *mass, double *inertia) {
    *mass = 4.0 / 3.0 * FLOE_PI * r * r * r * density;
    *inertia = 0.4 * *mass * r * r;
}

int floe_collide_sphere_sphere(const floe_world *w, int a, int b, const floe_contact *prev,
                               double gap, floe_raw_contact *out) {
    double ra = w->radius[a], rb = w->radius[b];
    vec3 d = vsub(w->pos[b], w->pos[a]);
    double d2 = vlen2(d);
    if (!prev && d2 > (ra + rb + gap) * (ra + rb + gap)) return 0;
    double dist = sqrt(d2);
    /* coincident centres: keep the previous normal (or pick x for a new contact) */
    out->n = dist > 0 ? vscale(d, 1.0 / dist) : (prev ? prev->g.n : v3(1, 0, 0));
    out->uN = dist - (ra + rb);
    out->c = vmadd(w->pos[a], out->n, ra + 0.5 * out->uN); /* middle of the overlap */
    out->r1 = ra;
    out->r2 = rb;
    return 1;
}
