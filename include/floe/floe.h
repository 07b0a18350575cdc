/* floe — a discrete element method engine for bonded and granular matter.
 *
 * One public header. The world owns every allocation; handles are plain
 * integer ids (particle index, material id, group id). SI units throughout.
 *
 * Sign convention (shared by every contact model): uN < 0 is overlap, the
 * normal force Fn > 0 is tension. Contact-local frame: x along the normal
 * from particle A to particle B, y and z in the contact plane. Local forces
 * and torques are those acting on particle A.
 */
#ifndef FLOE_H
#define FLOE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FLOE_VERSION "0.1.0"

/* What the shared libraries export: every function declared in the headers
 * of include/floe carries FLOE_API; the libraries are built with hidden
 * visibility, so nothing else leaves them
 * (docs/decisions.md#the-libraries-export-their-public-headers-only). */
#if defined(__GNUC__) || defined(__clang__)
#define FLOE_API __attribute__((visibility("default")))
#else
#define FLOE_API
#endif

/* The FLOE_VERSION the library was built with (a program may run with another build's). */
FLOE_API const char *floe_version(void);

typedef struct floe_world floe_world;

typedef struct floe_vec3 {
    double x, y, z;
} floe_vec3;
typedef struct floe_quat {
    double w, x, y, z;
} floe_quat; /* unit quaternion, body -> global */

typedef enum floe_status {
    FLOE_OK = 0,
    FLOE_ERR_ARG,     /* bad argument: unknown key, out-of-range value, bad id */
    FLOE_ERR_MEMORY,  /* allocation refused */
    FLOE_ERR_RUNAWAY, /* the simulation blew up: NaN, huge overlap, particle far away */
    FLOE_INTERRUPTED, /* the interrupt function (floe_set_interrupt) asked to stop; the state is whole */
} floe_status;

/* Message of the last error on this world (never NULL). Functions that take
 * an id (particle, material, group, contact, axis) check it: a bad id gives
 * FLOE_ERR_ARG (or the documented sentinel: -1, NULL, NaN) and a message
 * naming the function, the id and the valid range. Read-only functions write
 * the message too (only on a bad id), so do not call them on one world from
 * several threads at once with ids that may be bad. */
FLOE_API const char *floe_last_error(const floe_world *w);

/* Limits on what the API accepts (FLOE_ERR_ARG beyond them): coordinates,
 * velocity and angular velocity components at most FLOE_MAX_COORD in
 * magnitude; sizes (radii, semi-axes, shaft, half thickness) at most
 * FLOE_MAX_COORD, and a body's mass and inertia must come out positive and
 * finite. Sums and products of such values stay finite, so no step works
 * on an overflowed number. */
#define FLOE_MAX_COORD 1e100
/* The most pebbles (spheres) one clump holds (FLOE_SHAPE_CLUMP, floe_add_clump). */
#define FLOE_CLUMP_MAX_PEBBLES 16

/* ---- world ------------------------------------------------------------ */

typedef enum floe_event_type {
    FLOE_EVENT_CONTACT_CREATED = 0,
    FLOE_EVENT_CONTACT_DELETED,
    FLOE_EVENT_BOND_BROKEN,
    FLOE_EVENT_CONTACT_ACTIVATED, /* a model's contact became active (soft-bond) */
    FLOE_EVENT_SLIP_CHANGE,       /* a model's slip state changed (soft-bond) */
    FLOE_EVENT_BODY_INSERTED,     /* an inlet added body a (b: the inlet; value[0]: its mass [kg]) */
    FLOE_EVENT_BODY_REMOVED,      /* a sink removed the body that had id a (b: the sink; value[0]: its mass
                                   * [kg], value[1]: the energy it took out [J]) */
    FLOE_EVENT_INLET_SHORT,       /* inlet b cannot keep its rate (once per inlet): value[0] bodies
                                   * (or kg) asked for so far, value[1] inserted so far */
    FLOE_EVENT_ENERGY_ERROR,      /* the energy balance error passed floe_world_def.energy_warn (once
                                   * per run; a = b = -1): value[0] the error, value[1] the threshold */
    FLOE_EVENT_COUNT
} floe_event_type;

typedef struct floe_event {
    floe_event_type type;
    int64_t step;     /* the state at which it happened: floe_step_count and floe_time after the step, for the */
    double time;      /* contact pass's events and the inlets' and sinks' alike (0 and 0 for the start's) */
    int a, b;         /* particle ids */
    floe_vec3 force;  /* local force at the event (on A); bond broken: the load that broke it */
    floe_vec3 torque; /* local torque at the event (on A); bond broken: likewise */
    uint32_t detail;  /* model-specific, e.g. the senses that exceeded a limit (Ice: bit 0 normal,
                           * 1 shear, 2 twist, 3 rolling) */
    double value[2];  /* model-specific values, e.g. soft-bond bond break: strength [Pa], strain energy [J] */
} floe_event;

typedef struct floe_world_def {
    floe_vec3 gravity;      /* m/s^2, default (0,0,0) */
    double dt;              /* s; <= 0 means auto (docs/integration.md#time-step), default auto */
    double dt_safety;       /* factor on the critical step for auto dt, default 0.1 (docs/integration.md) */
    int dyn_dt_period;      /* steps between critical-step re-checks (auto dt), default 100 */
    double damping;         /* Cundall non-viscous damping coefficient, [0,1), default 0 */
    double skin;            /* Verlet skin [m]; < 0: |skin| x smallest radius; default -0.1 */
    int legacy_lens;        /* 1: lens = r + uN/2 (Woo <= 2021); 0: lens = r (default) */
    int threads;            /* OpenMP threads; 0: automatic (idle cores, at most one per 4000 bodies) */
    int renorm_period;      /* contact-frame re-orthonormalisation period, default 100 */
    int dimension;          /* 3 (default), or 2: motion confined to the xy plane */
    int sphere_orientation; /* 1 (default): a sphere's orientation turns with its spin; 0: it keeps the
                               one it was given (no force depends on it; a granular step does ~5-10 %
                               less work, docs/decisions.md#sphere-orientation-only-when-wanted) */
    double energy_warn;     /* the energy balance error (FLOE_E_ERROR) above which the run says so
                               once: a FLOE_EVENT_ENERGY_ERROR event, at the first check (every
                               dyn_dt_period steps) that finds |error| above it; 0: never; default
                               0.01 (docs/integration.md#energy) */
    int internal_cookie;    /* set by floe_default_world_def; do not touch */
} floe_world_def;

/* Ranges floe_world_create checks: dt finite (<= 0: auto), dt_safety (0, 1], energy_warn finite >= 0,
 * dyn_dt_period and renorm_period >= 1, damping [0, 1), skin finite,
 * legacy_lens and sphere_orientation 0 or 1, threads [0, FLOE_MAX_THREADS], dimension 2 or 3,
 * gravity components finite and at most FLOE_MAX_COORD.
 *
 * Threads: with an explicit thread count on a machine that other processes
 * keep busy, set OMP_WAIT_POLICY=passive in the environment before the
 * program starts (libgomp's waiting threads spin otherwise and a step can
 * take ten times longer); the floe CLI sets it itself. */
#define FLOE_MAX_THREADS 4096

/* Always start from this and change fields: floe_world_create refuses a def
 * it did not make (e.g. `floe_world_def def = {0};`), whose zeroes would
 * otherwise run into a division by zero at the first step. */
FLOE_API floe_world_def floe_default_world_def(void);
/* NULL: the defaults. Returns NULL if the def was not made by
 * floe_default_world_def, holds a value out of range, or memory ran out;
 * floe_create_error() then says which. The library never prints. */
FLOE_API floe_world *floe_world_create(const floe_world_def *def);
/* Why the last floe_world_create on this thread returned NULL ("" if it did
 * not); the text stays valid until the next floe_world_create on this thread. */
FLOE_API const char *floe_create_error(void);
FLOE_API void floe_world_destroy(floe_world *w);
/* 0: automatic (see floe_world_def); FLOE_ERR_ARG beyond [0, FLOE_MAX_THREADS]. */
FLOE_API floe_status floe_set_threads(floe_world *w, int threads);
FLOE_API int floe_thread_count(const floe_world *w); /* the most threads a step uses (or will use) */
/* The thread count is a ceiling: every 2048 steps (sooner when the contact
 * count has halved or doubled) a trial of 64 steps alternates the ceiling
 * and 1 thread in blocks of 8, and the steps until
 * the next trial use whichever had the shorter median step (the ceiling
 * only if at least 5 % shorter). Results are bitwise the same for any
 * thread count, so this changes speed only: beside another busy process
 * a second thread that waits for its core is dropped. on = 0: every step
 * uses the ceiling (to measure, or to test thread counts); default 1. */
FLOE_API void floe_set_thread_tuning(floe_world *w, int on);
FLOE_API floe_status floe_set_gravity(floe_world *w, floe_vec3 g); /* finite components, at most FLOE_MAX_COORD */
FLOE_API floe_vec3 floe_gravity(const floe_world *w);

/* ---- water ------------------------------------------------------------- */

/* Water below a horizontal free surface z = level, and air above it
 * (docs/models/water.md). Free spheres, capsules and ellipsoids (not fully
 * blocked) feel buoyancy from their exact submerged volume at the centre of
 * buoyancy (with its torque), weighted by the vertical component of gravity;
 * skin and form drag in the water relative to a uniform current, rotational
 * drag, and wind stress on their emerged part. Walls, facets, meshes and
 * cylinders feel nothing. Ranges (FLOE_ERR_ARG beyond them): level finite
 * and at most FLOE_MAX_COORD in magnitude; density (0, 1e5] kg/m^3;
 * air_density [0, 1e3] kg/m^3; skin_drag and wind_drag [0, 1]; form_drag
 * [0, 100]; rotational_drag [0, 1e3]; current and wind horizontal (z = 0),
 * components finite and at most 1e3 m/s. */
typedef struct floe_water_def {
    double level;           /* m, height z of the surface; default 0 */
    double density;         /* kg/m^3, default 1025 (sea water) */
    floe_vec3 current;      /* m/s, uniform, horizontal; default 0 */
    double skin_drag;       /* C_w, ice-water skin drag coefficient, default 5.5e-3 */
    double form_drag;       /* C_d, form drag coefficient on the submerged frontal area, default 1 */
    double rotational_drag; /* factor on the rotational drag laws, default 1 (0: none) */
    double air_density;     /* kg/m^3, default 1.3 */
    floe_vec3 wind;         /* m/s, uniform, horizontal; default 0 */
    double wind_drag;       /* C_a, air-ice drag coefficient, default 1.2e-3 */
    int internal_cookie;    /* set by floe_default_water_def; do not touch */
} floe_water_def;

FLOE_API floe_water_def floe_default_water_def(void);
/* Puts water into the world (def from floe_default_water_def, then
 * changed), or takes it out (def NULL). After the first step the change of
 * the energy it makes (buoyancy potential, kinetic energy of the new forces)
 * is booked as boundary work. */
FLOE_API floe_status floe_world_set_water(floe_world *w, const floe_water_def *def);
/* 1 and *out filled when the world has water, else 0 (out may be NULL). */
FLOE_API int floe_world_get_water(const floe_world *w, floe_water_def *out);

/* ---- periodic cell (docs/periodic.md) ----------------------------------- */

/* Makes axis `axis` (0: x, 1: y, 2: z; not z in a 2D world) periodic with
 * the period [lo, hi) (finite, lo < hi, at most FLOE_MAX_COORD), before the
 * first step. Bodies leaving the cell come back through the opposite face;
 * contacts reach across it. Walls normal to a periodic axis, facets and
 * infinite cylinders are refused at the start, and so is a cell narrower
 * than twice the pair search distance (bodies about a quarter of the cell). */
FLOE_API floe_status floe_world_set_periodic(floe_world *w, int axis, double lo, double hi);
/* The cell's velocity gradient L [1/s], l[3*i + j] = dv_i/dx_j: the cell
 * matrix H (its vectors as columns) follows dH/dt = L H, and a body's
 * image across the cell moves with the body's velocity plus L H n. Only
 * entries whose row and column are periodic axes may be non-zero; finite,
 * |L_ij| <= 1e6. May change between steps; a cell phase's start
 * (floe_world_set_cell_phases) sets it too. */
FLOE_API floe_status floe_world_set_velocity_gradient(floe_world *w, const double l[9]);
/* Gives every body the affine velocity L (x - origin) added to its own
 * (the usual start of a homogeneous deformation; optional). */
FLOE_API floe_status floe_world_affine_velocities(floe_world *w);
/* Stress control of a periodic axis k: every step, before the cell
 * deforms, L_kk is set to G (stress - sigma_kk), clamped to [-max_rate,
 * max_rate], where sigma_kk is the Love-Weber stress of the contacts over
 * the cell (tension positive: a confining pressure P is stress = -P). The
 * other entries of L stay as given. G is `gain` when it is > 0; with gain
 * 0 it is alpha / (K_k dt), K_k = sum kn (n_k l_k)^2 / V the stiffness of
 * the contacts along the axis, so that one step closes the fraction alpha
 * of the stress error through the contacts; without contacts (a loose
 * packing) the axis then moves at max_rate towards its target. With a
 * fixed gain a loose packing moves at gain x |stress - sigma_kk|, which
 * the clamp caps only if it is above max_rate. */
typedef struct floe_cell_servo {
    double stress;   /* target sigma_kk [Pa], finite */
    double gain;     /* [1/(Pa s)] in [0, 1e100]; 0 (default): alpha / (K dt) */
    double alpha;    /* (0, 1), default 0.5 */
    double max_rate; /* (0, 1e6] [1/s]: no default (0), the pace from a loose state */
} floe_cell_servo;
FLOE_API floe_cell_servo floe_default_cell_servo(void);
/* Axis `axis` follows servo s from the next step on (NULL: no servo, L_kk
 * then stays as it is); FLOE_ERR_ARG naming the value for an axis that is
 * not periodic or a value out of range. */
FLOE_API floe_status floe_world_set_cell_servo_def(floe_world *w, int axis, const floe_cell_servo *s);
/* The same with a fixed gain: gain [1/(Pa s)] > 0 and max_rate [1/s] in
 * (0, 1e6]; gain 0 turns the control off (L_kk then stays as it was last
 * set). */
FLOE_API floe_status floe_world_set_cell_servo(floe_world *w, int axis, double stress, double gain, double max_rate);
/* The periodic axes (bit k: axis k; 0: no cell); h (may be NULL) the cell
 * matrix, h[3*i + j] = H_ij, columns the cell vectors; origin (may be NULL)
 * the corner lo. */
FLOE_API int floe_world_get_cell(const floe_world *w, double h[9], floe_vec3 *origin);
/* What the start and the first pair search would refuse of the cell as it
 * is, with the search distance the start would resolve: a wall normal to a
 * periodic axis, a facet or infinite cylinder (*body), or a cell narrower
 * across a periodic axis than twice the search distance (*axis; -1 when a
 * body is at fault, *body -1 when an axis is). 1 with the engine's words in
 * why, 0 if it fits or there is no cell. */
FLOE_API int floe_world_cell_misfit(const floe_world *w, int *body, int *axis, char *why, size_t len);
/* The cell's velocity gradient in use, l[3*i + j] [1/s] (the servos' L_kk
 * as the last step set them); zeros without a cell. */
FLOE_API void floe_world_velocity_gradient(const floe_world *w, double l[9]);
/* The cell's strain hu H0^-1 - I, out[3*i + j], from the cell matrix as L
 * made it without the reductions (zero without a cell). */
FLOE_API void floe_world_cell_strain(const floe_world *w, double out[9]);
/* The cell's volume |det H| [m^3] (area [m^2] for a cell periodic in two
 * axes, length for one; 0 without a cell). */
FLOE_API double floe_world_cell_volume(const floe_world *w);
/* Times body i was wrapped back into the cell along each cell vector: its
 * unwrapped position is pos + H n (for a cell that does not deform). */
FLOE_API floe_status floe_particle_wraps(const floe_world *w, int i, int out[3]);

/* ---- contact models and materials -------------------------------------- */

/* One parameter of a model schema: material parameters (averaged per pair)
 * and law parameters (per model instance). */
typedef struct floe_param_spec {
    const char *key; /* snake_case scene-file key */
    double def, min, max;
    int min_open, max_open; /* 1: the bound is excluded */
    const char *unit;
    const char *doc;
    const char *bits; /* bit-mask parameter: comma-separated names of bits 0, 1, ...; else NULL */
} floe_param_spec;

typedef struct floe_model_info {
    const char *name;
    const char *doc;
    const floe_param_spec *mat_params;
    int n_mat_params;
    const floe_param_spec *law_params;
    int n_law_params;
    const char *const *state_names;
    int n_state; /* per-contact state exported to outputs */
} floe_model_info;

FLOE_API int floe_model_count(void);
FLOE_API const floe_model_info *floe_model_get(int i);
FLOE_API const floe_model_info *floe_model_find(const char *name); /* NULL if unknown */
FLOE_API int floe_model_index(const char *name);                   /* i of floe_model_get(i); -1 if unknown */

/* Adds a material whose preferred model is `model` ("linear", "linel6", ...;
 * NULL: the first registered model, Linear);
 * all parameters take the schema defaults. Returns the id or -1. */
FLOE_API int floe_add_material(floe_world *w, const char *name, const char *model);
FLOE_API int floe_find_material(const floe_world *w, const char *name); /* -1 if unknown */
FLOE_API int floe_material_count(const floe_world *w);
FLOE_API const char *floe_material_name(const floe_world *w, int mat); /* NULL for a bad id */
FLOE_API const char *floe_material_model(const floe_world *w,
                                         int mat); /* its preferred model's name; NULL for a bad id */
/* The current key of a parameter's former name for `model`, or NULL: soft-bond's
 * friction "fric" is "tan_phi", as in Linear and Hertz. floe_material_set and
 * floe_material_get, the scene loader (which warns) and restart files take
 * either (docs/decisions.md#one-name-for-friction). */
FLOE_API const char *floe_param_alias(const char *model, const char *key);
/* Sets a material parameter by key; FLOE_ERR_ARG names the key and the range. */
FLOE_API floe_status floe_material_set(floe_world *w, int mat, const char *key, double value);
FLOE_API double floe_material_get(const floe_world *w, int mat, const char *key); /* NaN: bad id or unknown key */

/* Law parameters of the world's default instance of a model. */
FLOE_API floe_status floe_model_set(floe_world *w, const char *model, const char *key, double value);
/* Per material-pair override: contacts between these materials use `model`;
 * law parameters then apply to this pair only (docs/decisions.md#model-of-a-mixed-material-pair-g7). */
FLOE_API floe_status floe_pair_set_model(floe_world *w, int mat_a, int mat_b, const char *model);
FLOE_API floe_status floe_pair_set(floe_world *w, int mat_a, int mat_b, const char *key, double value);

/* ---- particles ---------------------------------------------------------- */

/* Each shape with the parameters floe_add_body takes, in order (lengths in m). */
typedef enum floe_shape_type {
    FLOE_SHAPE_SPHERE = 0,  /* radius */
    FLOE_SHAPE_WALL,        /* axis-aligned infinite plane: axis (0, 1, 2), sense (-1, 0, 1) */
    FLOE_SHAPE_FACET,       /* triangle: 3 vertices (9 values, global), half thickness */
    FLOE_SHAPE_CAPSULE,     /* segment along the body x axis, swept by a radius: radius, shaft */
    FLOE_SHAPE_ELLIPSOID,   /* semi-axes along the body x, y, z axes: 3 values */
    FLOE_SHAPE_INFCYLINDER, /* infinite cylinder along a global axis: axis (0, 1, 2), radius */
    FLOE_SHAPE_POLYHEDRON,  /* convex hull of 4 to 32 vertices (96 values, relative to pos and ori; a shorter list
                               repeats its last vertex) */
    FLOE_SHAPE_CLUMP,       /* rigid union of spheres: FLOE_CLUMP_MAX_PEBBLES rows x, y, z, r, the pebbles up to
                             * the first row of radius 0 and zeros after (body frame: centroid, principal axes;
                             * floe_add_clump places any list) */
    FLOE_SHAPE_COUNT
} floe_shape_type;

/* Blocked degrees of freedom, global axes. */
enum {
    FLOE_DOF_X = 1,
    FLOE_DOF_Y = 2,
    FLOE_DOF_Z = 4,
    FLOE_DOF_RX = 8,
    FLOE_DOF_RY = 16,
    FLOE_DOF_RZ = 32,
    FLOE_DOF_ALL = 63
};

typedef struct floe_body_def {
    floe_vec3 pos, vel, angvel;
    floe_quat ori;
    int material;
    uint32_t blocked;    /* FLOE_DOF_* mask; a fully blocked body keeps its velocity */
    uint32_t groups;     /* bit g set: member of group g */
    int internal_cookie; /* set by floe_default_body_def; do not touch */
} floe_body_def;

/* Always start from this: floe_add_* refuse a def it did not make. */
FLOE_API floe_body_def floe_default_body_def(void);

/* Each returns the new particle id, or -1 (see floe_last_error): a bad
 * def (not from floe_default_body_def, unknown material, values beyond
 * FLOE_MAX_COORD or not finite, a zero or non-finite orientation), a size
 * beyond FLOE_MAX_COORD or not positive (a capsule's shaft and a facet's
 * half thickness may be 0), or a mass or inertia that is not positive and
 * finite. Added after the first step, the body's kinetic energy enters the
 * energy balance as boundary work (FLOE_E_BOUNDARY), so the balance error
 * does not jump. */
FLOE_API int floe_add_sphere(floe_world *w, const floe_body_def *def, double radius);
/* A body of any shape: `params` holds the shape's parameters in the order
 * floe_shape_type lists them (the functions below call it). */
FLOE_API int floe_add_body(floe_world *w, const floe_body_def *def, floe_shape_type shape, const double *params);
/* Plane through def->pos normal to `axis` (0,1,2). sense +1/-1: contacts only
 * from that side; 0: either side (fixed at contact creation). Fully blocked. */
FLOE_API int floe_add_wall(floe_world *w, const floe_body_def *def, int axis, int sense);
/* Triangle with global vertices v[3]; it belongs to the rigid body whose
 * reference point is def->pos (give the same pos/vel/angvel to every facet of
 * a mesh and they move as one body). Fully blocked by default. */
FLOE_API int floe_add_facet(floe_world *w, const floe_body_def *def, const floe_vec3 v[3], double half_thick);

/* Capsule: radius and shaft length (distance between the end-cap centres);
 * the shaft lies along the body x axis (def->ori). */
FLOE_API int floe_add_capsule(floe_world *w, const floe_body_def *def, double radius, double shaft);
/* Ellipsoid with semi-axes along the body x, y, z axes (def->ori). */
FLOE_API int floe_add_ellipsoid(floe_world *w, const floe_body_def *def, floe_vec3 semi_axes);
/* The convex hull of n (4 to FLOE_POLYHEDRON_MAX_VERTICES) vertices given
 * relative to def->pos and def->ori; the body's position becomes the hull's
 * centroid and its orientation its principal axes (docs/geometry.md,
 * "Polyhedra"). */
#define FLOE_POLYHEDRON_MAX_VERTICES 32
FLOE_API int floe_add_polyhedron(floe_world *w, const floe_body_def *def, int n, const floe_vec3 *vertices);
/* A clump: a rigid union of n (1..FLOE_CLUMP_MAX_PEBBLES) overlapping
 * spheres, `pebbles` n rows x, y, z, r in a template frame that def.pos and
 * def.ori place (def.pos is where the template's origin goes). The body is
 * put at the union's centroid in its principal axes (floe_body_params
 * gives the pebbles in that frame); its mass and inertia are the union's
 * (overlaps once, docs/clumps.md). The n pebbles follow as sphere bodies
 * id + 1 .. id + n that make its contacts. Returns the clump's id. */
FLOE_API int floe_add_clump(floe_world *w, const floe_body_def *def, int n, const double *pebbles);
/* The clump whose pebble body `id` is, or -1 (not a pebble, or a bad id). */
FLOE_API int floe_clump_of(const floe_world *w, int id);
/* Infinite cylinder through def->pos along the global axis `axis` (0, 1, 2).
 * Fully blocked; it may move with a prescribed velocity along its axis and
 * spin about it (def->vel, def->angvel or a group motion). */
FLOE_API int floe_add_infcylinder(floe_world *w, const floe_body_def *def, int axis, double radius);

FLOE_API int floe_particle_count(const floe_world *w);
FLOE_API floe_shape_type floe_particle_shape(const floe_world *w, int id); /* FLOE_SHAPE_COUNT for a bad id */
FLOE_API const floe_vec3 *floe_positions(const floe_world *w);
FLOE_API const floe_vec3 *floe_velocities(const floe_world *w);
FLOE_API const floe_vec3 *floe_angular_velocities(const floe_world *w);
FLOE_API const floe_quat *floe_orientations(const floe_world *w);
FLOE_API const floe_vec3 *floe_forces(const floe_world *w); /* contact forces only (no gravity) */
FLOE_API const floe_vec3 *floe_torques(const floe_world *w);
/* Characteristic radius: sphere and capsule radius, smallest ellipsoid
 * semi-axis, facet half thickness, cylinder radius, 0 for walls. */
FLOE_API const double *floe_radii(const floe_world *w);
/* Principal moments of inertia (body frame). */
FLOE_API const floe_vec3 *floe_inertia(const floe_world *w);
/* Capsule shaft length (-1 if not a capsule); ellipsoid semi-axes (FLOE_ERR_ARG if not one);
 * cylinder axis (-1 if not a cylinder). */
FLOE_API double floe_capsule_shaft(const floe_world *w, int id);
FLOE_API floe_status floe_ellipsoid_semi_axes(const floe_world *w, int id, floe_vec3 *out);
FLOE_API int floe_infcylinder_axis(const floe_world *w, int id);
FLOE_API const double *floe_masses(const floe_world *w);
FLOE_API const int *floe_particle_materials(const floe_world *w);
FLOE_API const uint32_t *floe_particle_groups(const floe_world *w);
FLOE_API const uint32_t *floe_particle_blocked(const floe_world *w);
/* The parameters of body `id` as floe_add_body takes them (a facet's
 * vertices where they are now); returns their count, 0 for a bad id or
 * when cap is too small. */
FLOE_API int floe_body_params(const floe_world *w, int id, double *out, int cap);
/* Wall axis and sense; -1 if `id` is not a wall. */
FLOE_API int floe_wall_axis(const floe_world *w, int id, int *sense);
/* Facet vertices in global coordinates; FLOE_ERR_ARG if `id` is not a facet. */
FLOE_API floe_status floe_facet_vertices(const floe_world *w, int id, floe_vec3 out[3]);

/* Writable state for set-up and tests (set before or between steps).
 * FLOE_ERR_ARG for a bad id or a value not finite or beyond FLOE_MAX_COORD.
 * After the first step, the energy a change brings in or takes out (kinetic
 * and rotational energy, gravity potential of a moved body) is booked as
 * boundary work (FLOE_E_BOUNDARY), so the balance error does not jump; the
 * elastic energy of contacts that a move strains is not (it is not known
 * until the next step). */
FLOE_API floe_status floe_set_position(floe_world *w, int id, floe_vec3 pos);
FLOE_API floe_status floe_set_velocity(floe_world *w, int id, floe_vec3 vel);
FLOE_API floe_status floe_set_angular_velocity(floe_world *w, int id, floe_vec3 angvel);
FLOE_API floe_status floe_set_blocked(floe_world *w, int id, uint32_t blocked);

/* Writable arrays of positions and velocities (particle i at [i]), for
 * programs that set many bodies at once (the Python module's views): the
 * same memory as floe_positions() and floe_velocities(), valid until the
 * arrays move (below). The next step finds the contacts of a body moved
 * this way as it does after any motion. Unlike the setters, writes through
 * these pointers are not checked and not booked as boundary work (the
 * energy balance sees a jump), and a blocked degree of freedom keeps the
 * velocity written. Call floe_check_bodies() after writing. */
FLOE_API floe_vec3 *floe_positions_mut(floe_world *w);
FLOE_API floe_vec3 *floe_velocities_mut(floe_world *w);
/* FLOE_ERR_ARG, naming the first particle and the value, if a position or
 * velocity is not finite or beyond FLOE_MAX_COORD (written through the
 * pointers above); FLOE_OK otherwise. */
FLOE_API floe_status floe_check_bodies(floe_world *w);

/* Particle storage. The arrays that floe_positions() and its kin return
 * (positions, velocities, ..., groups) share one capacity: a floe_add_*
 * beyond it moves all of them (pointers taken before become invalid), and
 * nothing else does. floe_reserve_particles makes room for n particles at
 * once (moving the arrays now, if n is above the capacity), so that adding
 * up to n leaves the pointers valid: what a program that keeps pointers
 * (or the Python module's numpy views) needs. FLOE_ERR_MEMORY if refused
 * (the arrays are then unchanged), FLOE_ERR_ARG for n < 0. */
FLOE_API int floe_particle_capacity(const floe_world *w);
FLOE_API floe_status floe_reserve_particles(floe_world *w, int n);

/* Distribution of a size: the radius of a random sphere packing, and the
 * radius, shaft or semi-axes of the bodies of an inlet or a random packing
 * (docs/decisions.md#radius-distributions-of-the-random-generator). Every
 * kind is confined to [min, max], 0 < min <= max:
 *  - UNIFORM: uniform in [min, max];
 *  - NORMAL: normal(mu = mean, sigma = std), truncated to [min, max] by
 *    rejection (draws outside are thrown away and drawn again);
 *  - LOGNORMAL: ln r normal(mu = ln median, sigma), truncated likewise;
 *  - SIEVE: a table of npts radii sizes[] (strictly increasing) and the
 *    fraction passing[] (non-decreasing, 0 at the first radius, 1 at the
 *    last), linear in r between points; by_mass = 0: fraction by number,
 *    sampled by inverting the CDF; by_mass = 1: fraction by mass (volume),
 *    sampled by number with density ∝ (dM/dr) / r^3 in each interval, so
 *    the packing's mass fraction follows the table. min and max are
 *    sizes[0] and sizes[npts - 1]. */
typedef enum floe_size_dist_kind {
    FLOE_DIST_UNIFORM = 0,
    FLOE_DIST_NORMAL,
    FLOE_DIST_LOGNORMAL,
    FLOE_DIST_SIEVE
} floe_size_dist_kind;
#define FLOE_SIEVE_MAX_POINTS 64
typedef struct floe_size_dist {
    floe_size_dist_kind kind;
    double min, max;
    double mu, sigma; /* NORMAL: mean and std; LOGNORMAL: ln(median) and sigma of ln r */
    int npts;         /* SIEVE: 2 .. FLOE_SIEVE_MAX_POINTS */
    double sizes[FLOE_SIEVE_MAX_POINTS], passing[FLOE_SIEVE_MAX_POINTS];
    int by_mass;
} floe_size_dist;

/* Checks a distribution; on error writes a message naming the scene key
 * (min, max, std, sigma, sizes[i], passing[i]), its value and the allowed
 * range, and returns non-zero. */
FLOE_API int floe_size_dist_check(const floe_size_dist *dist, char *err, size_t errlen);

/* ---- groups and prescribed motion ------------------------------------- */

#define FLOE_MAX_GROUPS 32

FLOE_API int floe_add_group(floe_world *w, const char *name); /* returns the group id (bit), or -1 */
FLOE_API int floe_find_group(const floe_world *w, const char *name);
FLOE_API int floe_group_count(const floe_world *w);
FLOE_API const char *floe_group_name(const floe_world *w, int g); /* NULL for a bad id */

typedef struct floe_motion {
    floe_vec3 vel;    /* imposed velocity while active */
    floe_vec3 angvel; /* imposed angular velocity while active (about each body's own position) */
    double t_start;   /* active for t_start <= t < t_end; default 0 */
    double t_end;     /* default +inf */
} floe_motion;

FLOE_API floe_motion floe_default_motion(void);
/* Every member becomes fully blocked and follows the motion; outside the
 * active window its velocity is zero. FLOE_ERR_ARG also for a group with
 * phases (floe_group_set_phases) and for a member that is in another
 * motion-controlled group (the message names both groups). */
FLOE_API floe_status floe_group_set_motion(floe_world *w, int g, const floe_motion *m);
/* 1 if group g has a prescribed motion (copied to *out, which may be NULL),
 * 0 if not, -1 for a bad group id. A body added to such a group later is
 * not blocked by floe_add_*: give it FLOE_DOF_ALL to make it follow. */
FLOE_API int floe_group_motion(const floe_world *w, int g, floe_motion *out);
/* A constant external force and torque on every member of the group (added
 * to contact forces and gravity on free DOFs; its work counts as boundary
 * work). A group with phases sets its load itself from its first phase on. */
FLOE_API floe_status floe_group_set_load(floe_world *w, int g, floe_vec3 force, floe_vec3 torque);
/* Sum of contact forces and of torques about the origin on the group's
 * members; NaN components for a bad group id. */
FLOE_API floe_vec3 floe_group_force(const floe_world *w, int g);
FLOE_API floe_vec3 floe_group_torque(const floe_world *w, int g);

/* ---- phased motion and servo control (docs/laboratory.md) ---------------
 *
 * A group may follow a list of phases instead of one motion. Each phase
 * starts when its trigger is met (checked on each state reached: at
 * floe_start, after every step and again at the start of a step, in list
 * order: phase k + 1 can start only once phase k has) and lasts until
 * the next one starts. Before the first phase starts the members keep
 * their own blocked DOFs. A body may be in at most one motion-controlled
 * group (a group with a motion, or with phases other than loads only):
 * floe_group_set_motion / floe_group_set_phases and the first step refuse
 * a body in two. */

typedef enum floe_phase_kind {
    FLOE_PHASE_FREE,     /* members free (every DOF; in 2D those of the plane) */
    FLOE_PHASE_VELOCITY, /* blocked; vel, angvel about each body's own centre */
    FLOE_PHASE_ROTATE,   /* blocked; rigid rotation angvel about the axis through point */
    FLOE_PHASE_SERVO,    /* blocked; moves along servo_dir to hold a force or stress */
    FLOE_PHASE_LOAD,     /* free; force + force_rate (t - t0) and torque alike on every member */
    FLOE_PHASE_KINDS
} floe_phase_kind;

typedef enum floe_phase_trigger {
    FLOE_AT_TIME,         /* time >= at [s] */
    FLOE_AT_STEP,         /* step >= at */
    FLOE_AT_FORCE_ABOVE,  /* measured force >= at [N] */
    FLOE_AT_FORCE_DROP,   /* measured force < at * its peak since the current phase began (0 < at < 1) */
    FLOE_AT_DISPLACEMENT, /* mean displacement of the members since the current phase began passes at [m] */
    FLOE_AT_KINDS
} floe_phase_trigger;

typedef struct floe_phase {
    int kind;    /* floe_phase_kind */
    int trigger; /* floe_phase_trigger */
    double at;   /* the trigger's value (units above) */
    /* force and displacement triggers: the component along this direction
     * (normalised; the displacement passes `at` upwards for at >= 0,
     * downwards for at < 0); zero: the magnitude. The force is the summed
     * contact force on the members (floe_group_force). */
    floe_vec3 measure_dir;
    floe_vec3 vel;           /* VELOCITY [m/s] */
    floe_vec3 angvel;        /* VELOCITY: about each body's centre; ROTATE: rotation vector about the axis [rad/s] */
    floe_vec3 point;         /* ROTATE: a point of the axis [m] */
    floe_vec3 force, torque; /* LOAD: on each member at the phase's start [N, N m] */
    floe_vec3 force_rate, torque_rate; /* LOAD: their change per second [N/s, N m/s] */
    /* SERVO: the members move along servo_dir (normalised), the direction
     * in which they press on the material, at v = gain * (target - F),
     * |v| <= max_speed, F = -(group force) . servo_dir (the force the
     * material pushes back with). target is a force [N], or a stress [Pa]
     * when area > 0 (F / area is then compared). gain [m/(s N)] > 0 is
     * used as given; 0 chooses alpha / (K dt) each step, K the summed
     * normal stiffness of the members' contacts, projected on servo_dir. */
    floe_vec3 servo_dir;
    double target, area, gain, alpha, max_speed;
} floe_phase;

#define FLOE_MAX_PHASES 16 /* per group */

FLOE_API floe_phase floe_default_phase(void); /* FREE at time 0; alpha 0.5, max_speed 1 m/s */

/* One key of a phase as a scene's groups[].phases entry gives it
 * (docs/scene-format.md#groups): "kind" (its name in text), "start" (that
 * a start is given; n = 0), "start.time" ... "start.displacement" and
 * "start.direction" (the trigger's keys), or a key of the kind (rate,
 * direction, force, ...), with its numbers (n = 1, or 3 for a vector). */
typedef struct floe_phase_key {
    const char *key;
    const char *text; /* kind: its name */
    double v[3];
    int n;
} floe_phase_key;

/* A phase from its keys, checked as a scene file's are: the kind, keys
 * unknown or of another kind, numbers out of range (those
 * floe_group_set_phases takes), a zero direction, one trigger in the start
 * and a start for every phase but the first, the keys a kind needs
 * together (a rotation's axis and rate; a servo's direction and either
 * force or stress with area). Directions may have any finite, non-zero
 * length: they are normalised (a rotation's angvel is the unit axis times
 * the rate). FLOE_OK, or FLOE_ERR_ARG with why = "<where>.<key> ..." or
 * "<where>: ..." (where: the phase's path in the caller's terms, e.g.
 * "phases[2]") and *bad (may be NULL) the index of the key at fault, -1
 * for the phase as a whole. The scene loader and the Python module both
 * read phases with it, so they refuse the same values in the same words. */
FLOE_API floe_status floe_phase_from_keys(const floe_phase_key *keys, int nkeys, int first, const char *where,
                                          floe_phase *out, char *why, size_t len, int *bad);
/* Replaces the group's phases (n = 0 removes them); the group starts
 * before its first phase again. FLOE_ERR_ARG (the message names the phase
 * and the value) for a bad id, n outside [0, FLOE_MAX_PHASES], a kind or
 * trigger out of range, a non-finite or unbounded value, a zero rotation
 * or servo direction, alpha outside (0, 1), a negative gain, a max_speed
 * not positive, a FORCE_DROP fraction outside (0, 1), a group that also
 * has a floe_group_set_motion motion, or a member that is in another
 * motion-controlled group (the message names both groups). */
FLOE_API floe_status floe_group_set_phases(floe_world *w, int g, const floe_phase *p, int n);
/* The number of phases of group g (copied to out[0..cap-1]), -1 for a bad id. */
FLOE_API int floe_group_phases(const floe_world *w, int g, floe_phase *out, int cap);
/* The index of the group's current phase, the one in effect at the
 * world's time (the triggers are checked on each state reached: at
 * floe_start and after every step): -1 before the first, or for a group
 * without phases or a bad id. */
FLOE_API int floe_group_phase(const floe_world *w, int g);
/* The servo of group g in its last step: out[0] the measured value, out[1]
 * the target (both N, or Pa for a stress target), out[2] the velocity
 * along servo_dir [m/s]; zeros when the current phase is not a servo.
 * FLOE_ERR_ARG for a bad id. */
FLOE_API floe_status floe_group_servo(const floe_world *w, int g, double out[3]);

/* ---- phases of the periodic cell (docs/periodic.md#phases) ---------------
 *
 * The cell may follow a list of phases, as a group does: each sets the
 * cell's whole motion (its velocity gradient and its stress-controlled
 * axes) from the state at which its trigger first holds (checked at
 * floe_start, after every step and again at the start of a step, in list
 * order) until the next one starts. Compression then shear is two phases
 * of one run. Before the first phase starts, the cell follows
 * floe_world_set_velocity_gradient and floe_world_set_cell_servo*. */
typedef enum floe_cell_trigger {
    FLOE_CELL_AT_TIME,     /* time >= at [s] */
    FLOE_CELL_AT_STEP,     /* step >= at */
    FLOE_CELL_AT_PRESSURE, /* the cell's pressure, -(mean sigma_kk over the periodic axes), >= at [Pa] */
    FLOE_CELL_AT_STRAIN,   /* the cell's strain (floe_world_cell_strain) entry `component` passes at:
                            * upwards for at >= 0, downwards for at < 0 */
    FLOE_CELL_AT_KINDS
} floe_cell_trigger;

typedef struct floe_cell_phase {
    int trigger;   /* floe_cell_trigger */
    double at;     /* the trigger's value (units above) */
    int component; /* FLOE_CELL_AT_STRAIN: the strain entry 3 i + j (0: xx, 1: xy, ... 8: zz) */
    /* the velocity gradient L [1/s] of the phase, l[3*i + j] = dv_i/dx_j,
     * as floe_world_set_velocity_gradient takes it; the diagonal entry of
     * a stress-controlled axis is the servo's */
    double velocity_gradient[9];
    int servo_axes;           /* bit k: axis k stress-controlled by servo[k]; the others have none */
    floe_cell_servo servo[3]; /* as floe_world_set_cell_servo_def takes them */
    /* 1: at the switch every free body's velocity gains (L - L_before) (x -
     * origin), the affine field of the change (servo axes' diagonal left
     * out), booked as boundary work: a homogeneous start of the new motion */
    int affine;
} floe_cell_phase;

/* At time 0; no gradient, no servo; servo[k] floe_default_cell_servo(). */
FLOE_API floe_cell_phase floe_default_cell_phase(void);
/* Replaces the cell's phases (n = 0 removes them); the cell starts before
 * its first phase again, keeping the motion it has. FLOE_ERR_ARG (the
 * message names the phase and the value) without a cell, for n outside
 * [0, FLOE_MAX_PHASES], a trigger or component out of range, a time or
 * step below 0, a non-finite value, a gradient entry beyond 1e6 1/s or off
 * the periodic axes, a servo on an axis that is not periodic or with a
 * value out of range (floe_world_set_cell_servo_def). */
FLOE_API floe_status floe_world_set_cell_phases(floe_world *w, const floe_cell_phase *p, int n);
/* The number of the cell's phases (copied to out[0..cap-1]). */
FLOE_API int floe_world_cell_phases(const floe_world *w, floe_cell_phase *out, int cap);
/* The index of the cell's current phase: -1 before the first or without phases. */
FLOE_API int floe_world_cell_phase(const floe_world *w);

/* ---- contacts ---------------------------------------------------------- */

typedef struct floe_contact_info {
    int a, b;               /* particle ids; A is first in the shape-pair order */
    const char *model;      /* model name */
    floe_vec3 normal;       /* unit normal, global, from A to B */
    floe_vec3 point;        /* contact point, global */
    double uN;              /* normal gap, negative = overlap */
    double lens[2], area;   /* lengths and contact area used by the model */
    floe_vec3 force;        /* local (Fn, Ft_y, Ft_z) on A */
    floe_vec3 torque;       /* local (Tw, Tr_y, Tr_z) on A */
    floe_vec3 force_global; /* on A, global */
    double kn, kt;
    int64_t step_created;
    int bonded;   /* 1: the contact carries a bond now (as counted by floe_bonded_count) */
    int image[3]; /* periodic cell: the contact is with B's image at pos_B + H image (0 0 0: B itself) */
    /* the frame's first tangent (local y axis), global; the local z axis is normal x t1 */
    floe_vec3 t1;
    floe_vec3 image_shift; /* H image [m]: B's image touched is at pos_B + image_shift (0 0 0: B itself) */
    floe_vec3 torque_a;    /* the contact's torque on A about A's position, global: (point - pos_A) x
                                 force_global + the local torque in global axes */
    floe_vec3 torque_b;    /* on B about B's position (its image's): (point - pos_B - image_shift) x
                                 (-force_global) - the local torque in global axes */
} floe_contact_info;

FLOE_API int floe_contact_count(const floe_world *w);
FLOE_API int floe_bonded_count(const floe_world *w);    /* contacts that carry a bond now */
FLOE_API int64_t floe_break_count(const floe_world *w); /* bonds broken since the start */
FLOE_API floe_status floe_contact_get(const floe_world *w, int i, floe_contact_info *out);
/* Index of the contact between a and b, or -1 (also for a bad particle id). */
FLOE_API int floe_contact_find(const floe_world *w, int a, int b);
/* Model-specific state of contact i (names from floe_model_info.state_names
 * of its model); returns the number of values written (<= cap), 0 for a bad id. */
FLOE_API int floe_contact_state(const floe_world *w, int i, double *out, int cap);

/* Model methods (e.g. the soft-bond model's bond, unbond, area, deformability):
 * applied now to the contacts of `model`, all of them (group < 0) or those with
 * a particle in group `group`. *applied (may be NULL) receives the count. */
FLOE_API floe_status floe_apply_method(floe_world *w, const char *model, const char *method, int group,
                                       const double *args, int nargs, int *applied);
/* The same, applied at the start of step `step` (before its update). */
#define FLOE_MAX_METHOD_ARGS 8
FLOE_API floe_status floe_schedule_method(floe_world *w, int64_t step, const char *model, const char *method, int group,
                                          const double *args, int nargs);

/* ---- stepping ---------------------------------------------------------- */

/* One step; FLOE_ERR_RUNAWAY stops the world (see floe_last_error).
 * FLOE_INTERRUPTED: the interrupt function stopped the inlets' insertion
 * after the step (docs/supply.md#interrupting): the step is done (its time
 * and count advanced) and the inlets' state is whole; the next floe_step
 * first finishes that insertion, so the run goes on as if it had not been
 * interrupted (a restart file written in between does the same). */
FLOE_API floe_status floe_step(floe_world *w);
/* `steps` steps, polling the interrupt function between them:
 * FLOE_INTERRUPTED after the step it asked during. */
FLOE_API floe_status floe_run(floe_world *w, int64_t steps);

/* A function the world polls in its long loops: an inlet's insertion
 * (every 64 candidate centres) and floe_run (between steps). It returns
 * non-zero to stop; the call then returns FLOE_INTERRUPTED at the next point
 * where the state is whole. Polled only from the thread that called into
 * the world, outside parallel regions, so it may take a lock or the Python
 * GIL. The floe CLI passes one that reads its SIGINT/SIGTERM flag; the
 * Python module one that runs PyErr_CheckSignals (Ctrl-C). NULL: none (the
 * default). A setting of the program, not state: restarts do not keep it. */
typedef int floe_interrupt_fn(void *ctx);
FLOE_API void floe_set_interrupt(floe_world *w, floe_interrupt_fn *fn, void *ctx);
/* What the first floe_step begins with, done now: detects the contacts and
 * computes the forces at t = 0 (their creation events are then in
 * floe_events), so the state at t = 0 can be written out. Nothing once the
 * world has started. */
FLOE_API floe_status floe_start(floe_world *w);

/* Events of the last step, read after it (pull, no callback). The world
 * keeps the events of the last floe_step call (a first floe_step that
 * starts the world holds the step-0 events first), or of a floe_start that
 * started it, in the order the engine produces them: contact order, the
 * same for any thread count. Each such call clears the list first, so it
 * never holds more than one step's events (its memory stays at the largest
 * step's), and it is valid until the next floe_step, floe_start or
 * floe_world_destroy. Any number of readers may read it; reading takes
 * nothing away. A reader that wants every event reads after every
 * floe_step (floe_run keeps only its last step's): `serial` goes up by one
 * each time the list is replaced, so a reader that remembers it can tell a
 * list it has read already (same serial) from one after missed steps (up by
 * more than one). Events are not part of a restart. */
typedef struct floe_event_list {
    const floe_event *events; /* count of them; NULL when count is 0 */
    int count;
    uint64_t serial; /* 0 before the first floe_step / floe_start */
} floe_event_list;
FLOE_API floe_event_list floe_events(const floe_world *w);
/* Which event types the world records: bit t for type t (1u <<
 * FLOE_EVENT_...); a new world records all (FLOE_EVENTS_ALL). Events of
 * other types are neither kept nor counted in floe_events. A run that
 * nobody reads the contact events of saves their memory: the first step
 * of a dense packing creates every contact at once (100k spheres: ~230k
 * creation events, ~24 MB). Counters such as floe_bond_breaks are kept
 * whatever the mask. The mask is a setting of the run, not state: a
 * restart does not keep it. */
#define FLOE_EVENTS_ALL ((1u << FLOE_EVENT_COUNT) - 1u)
FLOE_API floe_status floe_set_event_types(floe_world *w, uint32_t mask);
FLOE_API uint32_t floe_event_types(const floe_world *w);
FLOE_API int64_t floe_step_count(const floe_world *w);
FLOE_API double floe_time(const floe_world *w);
/* 1 once a step has stopped at a runaway (floe_step returns
 * FLOE_ERR_RUNAWAY from then on; a restart file keeps it), else 0. */
FLOE_API int floe_stopped(const floe_world *w);
FLOE_API double floe_dt(const floe_world *w);      /* current step; resolves auto dt */
FLOE_API int floe_dt_is_auto(const floe_world *w); /* 1: the step is chosen by the world (dt: auto) and may change */
/* The critical step (s) that auto dt is dt_safety times
 * (docs/integration.md#time-step): from the stiffness of the contacts the
 * world has (the largest sum over a free body's contacts of each contact's
 * exact mass-scaled eigenvalue) and of those its free bodies could make (a
 * virtual contact of each with a copy of itself and with each boundary
 * material, stiffnesses from the model); never above the exact stability
 * limit of the contacts it counts, equal to it for one contact. INFINITY
 * when no body that can move has or can make a contact. */
FLOE_API double floe_critical_dt(const floe_world *w);
/* The critical step the first step will meet: before it, floe_critical_dt
 * of a copy of the world started (floe_start) to find the bonds and
 * overlaps of step 0, which the prospective estimate does not know (the
 * cost of a copy of the world and of one contact pass); after it,
 * floe_critical_dt. INFINITY if the copy cannot be made or started. */
FLOE_API double floe_critical_dt_start(const floe_world *w);
FLOE_API floe_status floe_set_dt(floe_world *w, double dt);

/* ---- energy ------------------------------------------------------------ */

typedef enum floe_energy_term {
    FLOE_E_KINETIC = 0, /* translational kinetic energy (J) */
    FLOE_E_ROTATIONAL,  /* rotational kinetic energy */
    FLOE_E_GRAVITY,     /* gravitational potential relative to the start: -sum m g.(x - x0) */
    FLOE_E_ELASTIC,     /* elastic energy stored in contacts now */
    FLOE_E_PLASTIC,     /* cumulative friction / plastic dissipation (docs/integration.md#energy) */
    FLOE_E_DAMPING,     /* cumulative Cundall damping dissipation */
    FLOE_E_DASHPOT,     /* cumulative viscous dashpot dissipation */
    FLOE_E_BROKEN,      /* cumulative elastic energy lost when contacts break or are deleted */
    FLOE_E_BOUNDARY,    /* cumulative work done on the system from outside: prescribed-motion
                           * bodies, group loads, and energy brought in through the API after
                           * the first step (bodies added, positions and velocities set) */
    FLOE_E_TOTAL,       /* kinetic + rotational + gravity + elastic + dissipated - boundary work
                           * + buoyancy + drag */
    FLOE_E_ERROR,       /* (total - initial total) / max(reference energy, tiny) */
    FLOE_E_BUOYANCY,    /* potential energy of buoyancy now, sum of rho_w g V_sub (level - z_B)
                           * (0 without water; counted in total) */
    FLOE_E_DRAG,        /* cumulative energy taken from the bodies by water drag and wind (the
                           * negative of their work; negative when a current or wind drives them) */
    FLOE_E_COUNT
} floe_energy_term;

FLOE_API const char *floe_energy_name(floe_energy_term t); /* "kinetic", "rotational", ... */
/* Fills out[FLOE_E_COUNT]. Energies are evaluated at the end of the last step. */
FLOE_API void floe_energy(const floe_world *w, double out[FLOE_E_COUNT]);

/* ---- measurements (docs/measurements.md) ------------------------------- */

/* An axis-aligned box lo < hi (componentwise). whole = 1: every body and
 * contact counts in full wherever it lies, and the box only gives the
 * volume V (the container or, later, the periodic cell); whole = 0: what
 * lies in the box, as each function says. */
typedef struct floe_region {
    floe_vec3 lo, hi;
    int whole;
} floe_region;

/* Love-Weber mean stress of the region, out[3*i + j] = sigma_ij [Pa]:
 *   sigma_ij = (1/V) sum_c w_c l_i f_j
 * over the contacts c, f the contact force on the contact's first body A,
 * l the branch vector from A's centre to B's centre (a wall, facet or
 * cylinder contributes its contact point instead of a centre), w_c the
 * fraction of the branch vector inside the box (1 with whole). Tension is
 * positive (floe's sign convention), so a compressed packing has negative
 * diagonal terms. Symmetric only in equilibrium; no kinetic (velocity)
 * term. FLOE_ERR_ARG for a NULL argument or a box that is not finite with
 * lo < hi. */
FLOE_API floe_status floe_stress_tensor(const floe_world *w, const floe_region *r, double out[9]);

/* Solid fraction: the volume of spheres, capsules and ellipsoids inside the
 * box over the box's volume (with whole: every such body's whole volume).
 * Exact for spheres; capsules and ellipsoids that straddle a face of the
 * box by a 16^3-point quadrature in the body's own frame (error stated in
 * docs/measurements.md). */
FLOE_API floe_status floe_solid_fraction(const floe_world *w, const floe_region *r, double *out);
/* The exact volume of a sphere (centre, radius) inside the box [lo, hi];
 * NaN for a radius not positive or a box not finite with lo <= hi. */
FLOE_API double floe_sphere_box_volume(floe_vec3 centre, double radius, floe_vec3 lo, floe_vec3 hi);

/* Coordination of the particles (spheres, capsules, ellipsoids) whose
 * centre lies in the box (whole: all of them), counting each one's
 * force-carrying contacts, those with walls, facets and cylinders included:
 * z = mean contacts per particle; z_mech = the mean over the particles with
 * at least two contacts (Thornton 2000: particles with 0 or 1 contacts are
 * rattlers and left out). z_mech is 0 when no particle has two contacts. */
typedef struct floe_coordination_info {
    int particles; /* particles in the region */
    int rattlers;  /* of them, with fewer than 2 contacts */
    double z;      /* contacts per particle (0 with no particle) */
    double z_mech; /* contacts per non-rattler */
} floe_coordination_info;
FLOE_API floe_status floe_coordination(const floe_world *w, const floe_region *r, floe_coordination_info *out);

/* Fabric tensor (Satake 1982): out[3*i + j] = mean of n_i n_j over the
 * force-carrying contacts between two particles (spheres, capsules,
 * ellipsoids) whose contact point lies in the box (whole: all of them);
 * zeros with no contact. The trace is 1. *contacts (may be NULL) gets the
 * number of contacts averaged. */
FLOE_API floe_status floe_fabric_tensor(const floe_world *w, const floe_region *r, double out[9], int *contacts);

/* Traction on a wall or any group: the summed contact force on its members
 * divided by `area` [Pa] (components along x, y, z). NaN components for a
 * bad group id or an area that is not positive and finite. */
FLOE_API floe_vec3 floe_group_stress(const floe_world *w, int g, double area);

/* Plane counters: the particles (spheres, capsules, ellipsoids; only the
 * members of `group`, or all with group -1) whose centre crosses the plane
 * through `point` with normal `normal` (normalised here) during a step. A
 * centre on the plane is on its positive side. Counts start when the
 * counter is added and are world state (restart files keep them); moves
 * made through floe_set_position are not crossings. Returns the counter's
 * id, or -1 (see floe_last_error): a name that is NULL, empty, 64
 * characters or longer or already used, a point or normal not finite or
 * beyond FLOE_MAX_COORD, a zero normal, a bad group id. */
#define FLOE_MAX_PLANE_COUNTERS 64
FLOE_API int floe_add_plane_counter(floe_world *w, const char *name, floe_vec3 point, floe_vec3 normal, int group);
FLOE_API int floe_plane_counter_count(const floe_world *w);
FLOE_API int floe_find_plane_counter(const floe_world *w, const char *name); /* -1 if unknown */
typedef struct floe_plane_count {
    const char *name;
    floe_vec3 point, normal;   /* normal: unit */
    int group;                 /* -1: every particle */
    int64_t crossed_pos;       /* crossings from the negative to the positive side */
    int64_t crossed_neg;       /* crossings from the positive to the negative side */
    double mass_pos, mass_neg; /* their summed mass [kg] */
} floe_plane_count;
FLOE_API floe_status floe_plane_counter_get(const floe_world *w, int id, floe_plane_count *out);

/* ---- inlets and sinks (docs/supply.md) ----------------------------------- */

/* An inlet inserts bodies while the world runs: after each step whose end
 * time t satisfies t_start <= t < t_end it adds rate x dt to what it owes
 * (bodies, or kg with by_mass), then inserts bodies while it owes at least
 * one body (or the mass of the next body drawn). A body's centre is drawn
 * uniformly in the region, its sizes from the distributions, its
 * orientation uniformly (capsules, ellipsoids), its velocity vel plus
 * components uniform in [-vel_spread, vel_spread]; it is accepted only if
 * it touches no body present (every body: particles, walls, facets,
 * cylinders; with a periodic cell their images too), else a new centre and
 * orientation are drawn, up to max_tries times; the test looks only at the
 * bodies near the candidate, so its cost does not grow with the world. A body that found no room in max_tries stays the next one (its
 * sizes are kept, so the distribution is not biased towards small bodies),
 * insertion stops for that step and what the inlet owes is capped at that
 * one body: the rate is then not met, the missed amount is counted and the
 * first time an event FLOE_EVENT_INLET_SHORT is emitted. The inlet's random
 * numbers and counters are world state (restart files keep them): a resumed
 * run inserts exactly what the uninterrupted run does. An inserted body's
 * kinetic energy enters the energy balance as boundary work, as for any
 * body added mid-run. Regions:
 *  - FLOE_REGION_BOX: the box [lo, hi];
 *  - FLOE_REGION_CYLINDER: radius `radius` about the segment from `base`
 *    to base + axis (axis: the cylinder's length and direction);
 *  - FLOE_REGION_TRIANGLES: the ntri triangles tri[][3] (a planar region,
 *    or a mesh), a triangle chosen by area. */
typedef enum floe_region_kind {
    FLOE_REGION_BOX = 0,
    FLOE_REGION_CYLINDER,
    FLOE_REGION_TRIANGLES,
    FLOE_REGION_HALFSPACE, /* sinks only: the side of the plane through `point` that `normal` points to */
} floe_region_kind;

#define FLOE_INLET_MAX_TRIANGLES 64
#define FLOE_MAX_INLETS 64
#define FLOE_MAX_SINKS 64
/* Budgets (docs/supply.md#budgets): an inlet adds at most
 * FLOE_INLET_MAX_STEP bodies after one step, and none that would take the
 * world past its particle budget; either stops the step with an error
 * (FLOE_ERR_ARG naming the rate and dt; FLOE_ERR_MEMORY naming the budget).
 * The default budget, FLOE_PARTICLE_BUDGET, is what the scene loader's
 * memory guard allows (16 GiB at its estimate of 400 bytes per particle). */
#define FLOE_INLET_MAX_STEP 1000000
#define FLOE_PARTICLE_BUDGET 42949672
/* The most particles inlets may fill the world to: [0, 2^31 - 1];
 * FLOE_ERR_ARG beyond. A setting of the program, not state. */
FLOE_API floe_status floe_set_particle_budget(floe_world *w, int64_t max_particles);
FLOE_API int64_t floe_particle_budget(const floe_world *w); /* the budget now */

typedef struct floe_inlet_def {
    floe_region_kind region;
    floe_vec3 lo, hi;     /* box */
    floe_vec3 base, axis; /* cylinder: centre of one end; axis to the other end's centre */
    double radius;        /* cylinder [m] */
    int ntri;             /* triangles: 1 .. FLOE_INLET_MAX_TRIANGLES */
    floe_vec3 tri[FLOE_INLET_MAX_TRIANGLES][3];
    double rate;           /* bodies/s, or kg/s with by_mass; (0, 1e12] */
    int by_mass;           /* 0: count rate, 1: mass rate */
    double t_start, t_end; /* s; default 0 and +inf */
    floe_shape_type shape; /* SPHERE (default), CAPSULE or ELLIPSOID */
    /* sizes [m]: sphere size[0] the radius; capsule size[0] the radius,
     * size[1] the shaft; ellipsoid size[0..2] the semi-axes along body x,
     * y, z (each drawn independently). Default: uniform in [1e-3, 1e-3]. */
    floe_size_dist size[3];
    floe_vec3 vel;     /* m/s */
    double vel_spread; /* m/s, >= 0 */
    int material;      /* default 0 */
    uint32_t groups;   /* groups of the bodies */
    uint64_t seed;
    int max_tries;       /* centres tried per body, 1 .. 1e6, default 100 */
    int recycle;         /* a sink's id: re-insert what it removes (its count, or its mass with
                          * by_mass) instead of `rate` (then unused), for a constant head; -1
                          * (default): no */
    int internal_cookie; /* set by floe_default_inlet_def; do not touch */
} floe_inlet_def;

FLOE_API floe_inlet_def floe_default_inlet_def(void);
/* Returns the inlet's id, or -1 (see floe_last_error, which names the
 * field, its value and its range): a name NULL, empty, 64 characters or
 * longer or already used; a def not from floe_default_inlet_def; a region
 * without volume or area (a box with lo > hi, a zero axis or radius, a
 * degenerate triangle); a rate out of range; a shape not a sphere, capsule
 * or ellipsoid; a bad size distribution; an unknown material; a group bit
 * beyond the world's groups. At most FLOE_MAX_INLETS. */
FLOE_API int floe_add_inlet(floe_world *w, const char *name, const floe_inlet_def *def);
FLOE_API int floe_inlet_count(const floe_world *w);
FLOE_API int floe_find_inlet(const floe_world *w, const char *name); /* -1 if unknown */
typedef struct floe_inlet_stats {
    const char *name;
    int64_t inserted;  /* bodies inserted */
    double mass;       /* their mass [kg] */
    double asked;      /* bodies (or kg) asked for so far: rate x active time */
    double missed;     /* bodies (or kg) dropped when the region had no room */
    int64_t tries;     /* centres tried */
    int64_t failures;  /* bodies that found no room in max_tries */
    int short_of_rate; /* 1 once the rate could not be met */
} floe_inlet_stats;
FLOE_API floe_status floe_inlet_get(const floe_world *w, int id, floe_inlet_stats *out, floe_inlet_def *def);

/* A sink removes, after each step with t_start <= t < t_end, every body
 * (sphere, capsule, ellipsoid that is not fully blocked; only members of
 * `group`, or all with group -1) whose centre is in the region: a box
 * [lo, hi] (FLOE_REGION_BOX) or the half-space (x - point).normal > 0
 * (FLOE_REGION_HALFSPACE). Removal is floe_remove_bodies: ids shift. */
typedef struct floe_sink_def {
    floe_region_kind region; /* BOX or HALFSPACE */
    floe_vec3 lo, hi;        /* box */
    floe_vec3 point, normal; /* half-space (normal normalised here) */
    int group;               /* -1 (default): every body */
    double t_start, t_end;   /* default 0 and +inf */
    int internal_cookie;     /* set by floe_default_sink_def; do not touch */
} floe_sink_def;
FLOE_API floe_sink_def floe_default_sink_def(void);
/* The sink's id, or -1 (a bad name as for inlets, a bad region or group). */
FLOE_API int floe_add_sink(floe_world *w, const char *name, const floe_sink_def *def);
FLOE_API int floe_sink_count(const floe_world *w);
FLOE_API int floe_find_sink(const floe_world *w, const char *name); /* -1 if unknown */
typedef struct floe_sink_stats {
    const char *name;
    int64_t removed; /* bodies removed */
    double mass;     /* their mass [kg] */
    double energy;   /* the energy they took out of the balance [J] */
} floe_sink_stats;
FLOE_API floe_status floe_sink_get(const floe_world *w, int id, floe_sink_stats *out, floe_sink_def *def);

/* Removes the n bodies ids (any order, each once; spheres, capsules or
 * ellipsoids). The other bodies keep their order: the id of every body
 * after a removed one drops by the number removed before it (pointers
 * from floe_positions() and its kin stay valid). The removed bodies'
 * contacts are deleted (FLOE_EVENT_CONTACT_DELETED), and a body removed
 * after the first step takes its kinetic and rotational energy, the
 * potential of the body forces on it (buoyancy) and the elastic energy of
 * its contacts out of the energy balance as boundary work
 * (docs/decisions.md#removed-bodies-leave-through-the-boundary-term).
 * *energy (may be NULL) receives that energy. FLOE_ERR_ARG for a bad or
 * repeated id or a boundary body (nothing removed). */
FLOE_API floe_status floe_remove_bodies(floe_world *w, const int *ids, int n, double *energy);

/* ---- key tables (docs/scene-format.md) -----------------------------------
 *
 * The options of a def (floe_world_def, floe_inlet_def, floe_sink_def; the
 * I/O library's floe_dense_def) described once, key by key: where the value
 * goes in the def, its kind, its range, unit, default and a line of doc. The
 * scene loader reads a section's mapping through its table, the Python
 * module its keyword arguments, and `floe keys --markdown` writes the docs'
 * key tables from it, so a new option is a member of the def and a line of
 * its table. */
typedef enum floe_key_kind {
    FLOE_KEY_NUMBER,    /* double in [min, max]; `words` may name values ("auto=0") */
    FLOE_KEY_INT,       /* int, a whole number in [min, max] */
    FLOE_KEY_INT64,     /* int64_t or uint64_t (a seed), a whole number in [min, max] */
    FLOE_KEY_BOOL,      /* int, 0 or 1: true or false */
    FLOE_KEY_VEC3,      /* floe_vec3, each component in [min, max] */
    FLOE_KEY_ENUM,      /* int: the value of one of `words` ("sphere=0,capsule=3") */
    FLOE_KEY_NAME,      /* the entry's name, 1 to 63 characters (not in the def: the add function's argument) */
    FLOE_KEY_BOX,       /* two floe_vec3 (lo, then hi) from two corners, lo <= hi (min > 0: lo < hi) */
    FLOE_KEY_MAP,       /* a mapping of the keys of `sub`, into the same def */
    FLOE_KEY_TRIANGLES, /* floe_vec3[][3] at offset, their count (int) at offset2: 1 to max triangles */
    FLOE_KEY_SIZE,      /* floe_size_dist: a size, a range [min, max] or a distribution {dist: ...} */
    FLOE_KEY_SIZES3,    /* floe_size_dist[3]: three sizes */
    FLOE_KEY_MATERIAL,  /* int: a material, by name */
    FLOE_KEY_GROUPS,    /* uint32_t mask: a group or a list of groups, by name (created on first use) */
    FLOE_KEY_GROUP,     /* int: one group, by name (its id) */
    FLOE_KEY_SINK,      /* int: a sink, by name (its id) */
    FLOE_KEY_OWN,       /* a key of the front end itself (not in the def), described here for the docs */
    FLOE_KEY_KINDS
} floe_key_kind;

typedef struct floe_key_table floe_key_table;

typedef struct floe_key {
    const char *key;        /* snake_case scene-file key and Python keyword */
    floe_key_kind kind;     /* what the value is, and how it is stored at offset */
    int offset;             /* offsetof into the def; -1: none (FLOE_KEY_NAME, FLOE_KEY_OWN) */
    double min, max;        /* the range of a number (each component of a vector) */
    int min_open, max_open; /* 1: the bound is excluded */
    const char *unit;       /* "m", "s", "kg/s", ...; "" for none */
    const char *def;        /* the default as the docs show it; "required"; "-" for none */
    const char *doc;        /* one line */
    const char *words;      /* ENUM: "name=value,..."; NUMBER: words that stand for values; else NULL */
    const char *choice;     /* keys of the same choice ("region", "rate") exclude each other; else NULL */
    const char *only;       /* the names of the entry's ENUM key that take this key ("servo,load"); NULL: all */
    int set_offset;         /* >= 0: giving the key also stores set_value (int) there (a region's kind) */
    int set_value;
    int offset2;               /* TRIANGLES: the count's offset */
    const floe_key_table *sub; /* MAP: its keys */
} floe_key;

struct floe_key_table {
    const char *name; /* the scene section ("world", "inlets", "sinks", "dense", "inlets.cylinder", ...) */
    const floe_key *keys;
    int n;
    /* The rules between the keys, once every key given has been read into
     * def (given[i]: key i was given): FLOE_OK, or FLOE_ERR_ARG with why
     * ("<where>: ...", "<where>.<key> ...") and *bad the index of the key at
     * fault (-1: the entry as a whole). NULL: none. */
    floe_status (*check)(void *def, const unsigned char *given, const char *where, char *why, size_t len, int *bad);
};

/* The engine's tables: "world", "inlets", "sinks", "phases" (a group's
 * phases: the keys floe_phase_from_keys reads; offset -1 where several keys
 * make one member) and their sub-tables, reached through the MAP keys
 * ("inlets.cylinder", "sinks.plane", "phases.start"); NULL for another name. */
FLOE_API const floe_key_table *floe_key_table_find(const char *name);
FLOE_API int floe_key_table_count(void);
FLOE_API const floe_key_table *floe_key_table_at(int i);
/* The index of `key` in t, or -1. */
FLOE_API int floe_key_index(const floe_key_table *t, const char *key);
/* The value of word `word` of key k ("auto" of dt: 0): 1 and *v, or 0 if k has no such word. */
FLOE_API int floe_key_word(const floe_key *k, const char *word, double *v);
/* Whether x is in k's range. */
FLOE_API int floe_key_in_range(const floe_key *k, double x);
/* The message for a number out of k's range or not whole where k wants a
 * whole number: "<where> = <text> <unit> is out of range (lo, hi]" (text:
 * the value as the user gave it). 0 if x is fine, else 1 and buf filled. */
FLOE_API int floe_key_check_number(const floe_key *k, double x, const char *text, const char *where, char *buf,
                                   size_t len);
/* The allowed values of k in words, for messages and docs ("(0, 1]", "2 or 3",
 * "true or false", "sphere, capsule or ellipsoid"). */
FLOE_API void floe_key_range_text(const floe_key *k, char *buf, size_t len);
/* k's words quoted, for messages: "'auto'", "'sphere', 'capsule' or 'ellipsoid'". */
FLOE_API void floe_key_words_text(const floe_key *k, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
