/* Water as a body force (docs/models/water.md): buoyancy from the exact
 * submerged volume at the centre of buoyancy, skin and form drag relative
 * to a uniform current, rotational drag and wind stress. The functions
 * below are pure (a shape's dimensions, a pose, velocities and the water's
 * parameters in, forces out), so tests check them against the formulas;
 * floe__water_force (the body-force entry) applies them to the world. */
#ifndef FLOE_CORE_WATER_H
#define FLOE_CORE_WATER_H

#include "core/bodyforce.h"
#include "shapes/submerged.h"

/* What water needs of a body's shape. */
typedef struct floe_water_shape {
    floe_shape_type shape; /* sphere, capsule or ellipsoid */
    double radius, shaft;  /* sphere, capsule */
    vec3 semi;             /* ellipsoid */
    const void *poly;      /* polyhedron: its record */
} floe_water_shape;

/* Horizontal section at height h above the centre; submerged frontal area
 * along the horizontal unit m (body frame). */
double floe__water_section(const floe_water_shape *s, vec3 up, double h);
double floe__water_frontal(const floe_water_shape *s, vec3 up, vec3 m, double d);

/* Forces and torques (global) on a body of shape s at pos, q with velocity
 * v and angular velocity om; g: the downward gravity component (m/s^2). */
void floe__water_forces(const floe_water_def *wd, double g, const floe_water_shape *s, vec3 pos, quat q, vec3 v,
                        vec3 om, double time, floe_bf *out);
/* Buoyancy potential rho_w g V_sub (level - z_B) (J). */
double floe__water_potential(const floe_water_def *wd, double g, const floe_water_shape *s, vec3 pos, quat q,
                             double time);

#endif
