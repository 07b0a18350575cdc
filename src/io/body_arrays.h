/* The world's per-body arrays, fetched at once by the writers that list
 * every body (csv.c: particles.csv; vtk.c: particles frames). */
#ifndef FLOE_IO_BODY_ARRAYS_H
#define FLOE_IO_BODY_ARRAYS_H

#include <floe/floe.h>

typedef struct floe_body_arrays {
    const floe_vec3 *pos, *vel, *angvel, *force, *torque;
    const floe_quat *ori;
    const double *rad, *mass;
    const int *mat;
    const uint32_t *grp, *blk;
} floe_body_arrays;

/* Valid until bodies are added to the world. */
static inline floe_body_arrays floe_body_arrays_of(const floe_world *w) {
    return (floe_body_arrays){floe_positions(w),       floe_velocities(w),      floe_angular_velocities(w),
                              floe_forces(w),          floe_torques(w),         floe_orientations(w),
                              floe_radii(w),           floe_masses(w),          floe_particle_materials(w),
                              floe_particle_groups(w), floe_particle_blocked(w)};
}

#endif
