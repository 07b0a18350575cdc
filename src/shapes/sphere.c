/* Sphere: mass properties and the sphere-sphere narrow phase. */
#include "shapes/shape.h"

void floe_sphere_mass(double r, double density, double *mass, double *inertia) {
    *mass = 4.0 / 3.0 * FLOE_PI * r * r * r * density;
    *inertia = 0.4 * *mass * r * r;
}

int floe_collide_sphere_sphere(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                               floe_raw_contact *out) {
    return floe_sphere_sphere(w, a, b, prev, gap, out);
}
