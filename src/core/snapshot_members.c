/* The snapshot's table: every member of struct floe_world and of the
 * structs it stores, with its role and, for state, the item that carries it
 * and the check a loaded value must pass (snapshot.h). The shape store's
 * records are described by the shape classes (snapshot_shapes.c).
 *
 * A new member of the world (or of a struct listed here) needs its line
 * here: tests/test_snapshot.c fails until the listed members tile the
 * struct again (docs/architecture.md#files-to-touch). */
#include "core/snapshot_members.h"

#include <stddef.h>

/* Where a member is, how big and how aligned. */
#define M(T, m) .member = #m, .offset = offsetof(T, m), .size = sizeof(((T *)0)->m), .align = __alignof__(((T *)0)->m)
#define STATE .role = FLOE_SNAP_STATE
#define ATTR(g, n) .group = g, .name = n, .attr = 1
#define DSET(g, n) .group = g, .name = n, .attr = 0
#define F64(nc) .type = FLOE_SNAP_F64, .ncomp = nc
#define I64 .type = FLOE_SNAP_I64, .ncomp = 1
#define I32 .type = FLOE_SNAP_I32, .ncomp = 1
#define U32 .type = FLOE_SNAP_U32, .ncomp = 1
#define U16 .type = FLOE_SNAP_U16, .ncomp = 1
#define U8 .type = FLOE_SNAP_U8, .ncomp = 1
#define TEXT(T, m) .type = FLOE_SNAP_STR, .ncomp = (int)sizeof(((T *)0)->m)
#define CK(c) .check = FLOE_CK_##c
#define RANGE(l, h) .check = FLOE_CK_RANGE, .lo = l, .hi = h
#define ID(r) .check = FLOE_CK_ID, .ref = &r
#define ID_OR_NONE(r) .check = FLOE_CK_ID_OR_NONE, .ref = &r
#define ROWS(r) .rows = &r
#define STRUCTS(r, s) .rows = &r, .sub = &s
#define NESTED(s) .role = FLOE_SNAP_STATE, .sub = &s
#define COUNT(T, m, r) \
    { M(T, m), .role = FLOE_SNAP_COUNT, .rows = &r }
#define DERIVED(T, m, why) \
    { M(T, m), .role = FLOE_SNAP_DERIVED, .note = why }
#define TRANSIENT(T, m, why) \
    { M(T, m), .role = FLOE_SNAP_TRANSIENT, .note = why }
#define END \
    { .member = NULL }
#define STRUCT(T, list)                               \
    {                                                 \
#T, sizeof(T), __alignof__(T), { list, NULL } \
    }

/* ---- rows --------------------------------------------------------------------- */

const floe_snap_rows floe__rows_particles = {"particle", offsetof(floe_world, np), "particles/pos"};
const floe_snap_rows floe__rows_materials = {"material", offsetof(floe_world, nmats), "materials/name"};
const floe_snap_rows floe__rows_instances = {"instance", offsetof(floe_world, ninsts), "instances/model"};
const floe_snap_rows floe__rows_overrides = {"override", offsetof(floe_world, noverrides), "instances/overrides"};
const floe_snap_rows floe__rows_groups = {"group", offsetof(floe_world, ngroups), "groups/name"};
const floe_snap_rows floe__rows_contacts = {"contact", offsetof(floe_world, ncon), "contacts/a"};
const floe_snap_rows floe__rows_pairs = {"pair", offsetof(floe_world, bp.npairs), "broadphase/pairs"};
const floe_snap_rows floe__rows_schedule = {"entry", offsetof(floe_world, nsched), "schedule/step"};
const floe_snap_rows floe__rows_phases = {"phase", offsetof(floe_world, nphases), "phases/group"};
const floe_snap_rows floe__rows_cell_phases = {"cell phase", offsetof(floe_world, ncphases), "cell_phases/trigger"};
const floe_snap_rows floe__rows_planes = {"plane counter", offsetof(floe_world, nplanes), "measure/plane_name"};
const floe_snap_rows floe__rows_inlets = {"inlet", offsetof(floe_world, ninlets), "supply/inlet_name"};
const floe_snap_rows floe__rows_sinks = {"sink", offsetof(floe_world, nsinks), "supply/sink_name"};

/* ---- the world definition ------------------------------------------------------- */

/* The ranges are floe_world_create's, which checks them again. */
static const floe_snap_field def_fields[] = {
    {M(floe_world_def, gravity), STATE, ATTR("world", "gravity"), F64(3), CK(FINITE)},
    {M(floe_world_def, dt), STATE, ATTR("world", "def_dt"), F64(1), CK(FINITE)},
    {M(floe_world_def, dt_safety), STATE, ATTR("world", "dt_safety"), F64(1), .check = FLOE_CK_RANGE_LO_OPEN, .lo = 0,
     .hi = 1},
    {M(floe_world_def, dyn_dt_period), STATE, ATTR("world", "dyn_dt_period"), I32, RANGE(1, 1e9)},
    {M(floe_world_def, damping), STATE, ATTR("world", "damping"), F64(1), .check = FLOE_CK_RANGE_HI_OPEN, .lo = 0,
     .hi = 1},
    {M(floe_world_def, skin), STATE, ATTR("world", "def_skin"), F64(1), CK(LENGTH)},
    {M(floe_world_def, legacy_lens), STATE, ATTR("world", "legacy_lens"), I32, CK(FLAG)},
    {M(floe_world_def, threads), STATE, ATTR("world", "threads"), I32, RANGE(0, FLOE_MAX_THREADS)},
    {M(floe_world_def, renorm_period), STATE, ATTR("world", "renorm_period"), I32, RANGE(1, 1e9)},
    {M(floe_world_def, dimension), STATE, ATTR("world", "dimension"), I32, RANGE(2, 3)},
    {M(floe_world_def, sphere_orientation), STATE, ATTR("world", "sphere_orientation"), I32, CK(FLAG), .optional = 1},
    {M(floe_world_def, energy_warn), STATE, ATTR("world", "energy_warn"), F64(1), CK(FINITE_NONNEG), .optional = 1},
    DERIVED(floe_world_def, internal_cookie, "set by floe_default_world_def when the world is rebuilt"),
    END,
};
static const floe_snap_struct def_struct = STRUCT(floe_world_def, def_fields);

/* ---- materials, model instances, pair overrides ---------------------------------- */

/* Models by name and parameters by key: a snapshot survives a change of
 * the registry's order and new parameters (which take their defaults). */
static const floe_snap_field material_fields[] = {
    {M(floe_material, name), STATE, DSET("materials", "name"), TEXT(floe_material, name), .built = 1},
    {M(floe_material, model), STATE, DSET("materials", "model"), I32, .conv = FLOE_CONV_MODEL, .built = 1},
    {M(floe_material, p), STATE, DSET("materials", "params"), F64(FLOE_MAX_MAT_PARAMS), .conv = FLOE_CONV_MAT_PARAMS,
     .built = 1},
    END,
};
static const floe_snap_struct material_struct = STRUCT(floe_material, material_fields);

static const floe_snap_field instance_fields[] = {
    {M(floe_instance, model), STATE, DSET("instances", "model"), I32, .conv = FLOE_CONV_MODEL, .built = 1},
    DERIVED(floe_instance, m, "the registry's model of `model`"),
    {M(floe_instance, lp), STATE, DSET("instances", "law_params"), F64(FLOE_MAX_LAW_PARAMS),
     .conv = FLOE_CONV_LAW_PARAMS, .built = 1},
    END,
};
static const floe_snap_struct instance_struct = STRUCT(floe_instance, instance_fields);

static const floe_snap_field override_fields[] = {
    {M(floe_pair_override, a), STATE, DSET("instances", "overrides"), I32, .col = 0, ID(floe__rows_materials),
     .built = 1},
    {M(floe_pair_override, b), STATE, DSET("instances", "overrides"), I32, .col = 1, ID(floe__rows_materials),
     .built = 1},
    {M(floe_pair_override, inst), STATE, DSET("instances", "overrides"), I32, .col = 2, ID(floe__rows_instances),
     .built = 1},
    END,
};
static const floe_snap_struct override_struct = STRUCT(floe_pair_override, override_fields);

/* ---- groups ------------------------------------------------------------------------ */

static const floe_snap_field motion_fields[] = {
    {M(floe_motion, vel), STATE, DSET("groups", "motion_vel"), F64(3), CK(FINITE)},
    {M(floe_motion, angvel), STATE, DSET("groups", "motion_angvel"), F64(3), CK(FINITE)},
    {M(floe_motion, t_start), STATE, DSET("groups", "motion_window"), F64(1), .col = 0, CK(NOT_NAN)},
    {M(floe_motion, t_end), STATE, DSET("groups", "motion_window"), F64(1), .col = 1, CK(NOT_NAN)},
    END,
};
static const floe_snap_struct motion_struct = STRUCT(floe_motion, motion_fields);

static const floe_snap_field group_fields[] = {
    {M(floe_group, name), STATE, DSET("groups", "name"), TEXT(floe_group, name), .built = 1},
    {M(floe_group, has_motion), STATE, DSET("groups", "has_motion"), I32, CK(FLAG)},
    {M(floe_group, has_load), STATE, DSET("groups", "has_load"), I32, CK(FLAG)},
    {M(floe_group, motion), NESTED(motion_struct)},
    {M(floe_group, load_f), STATE, DSET("groups", "load_force"), F64(3), CK(FINITE)},
    {M(floe_group, load_t), STATE, DSET("groups", "load_torque"), F64(3), CK(FINITE)},
    {M(floe_group, phase), STATE, DSET("groups", "phase"), I32, RANGE(-1, FLOE_MAX_PHASES - 1)},
    {M(floe_group, phase_t0), STATE, DSET("groups", "phase_t0"), F64(1), CK(FINITE)},
    {M(floe_group, peak), STATE, DSET("groups", "phase_peak"), F64(1), CK(FINITE)},
    {M(floe_group, ref), STATE, DSET("groups", "phase_ref"), F64(3), CK(FINITE)},
    {M(floe_group, servo), STATE, DSET("groups", "servo"), F64(3), CK(FINITE)},
    END,
};
static const floe_snap_struct group_struct = STRUCT(floe_group, group_fields);

/* ---- phases (motion.c) ------------------------------------------------------------------ */

static const floe_snap_field phase_fields[] = {
    {M(floe_phase, kind), STATE, DSET("phases", "kind"), I32, RANGE(0, FLOE_PHASE_KINDS - 1)},
    {M(floe_phase, trigger), STATE, DSET("phases", "trigger"), I32, RANGE(0, FLOE_AT_KINDS - 1)},
    {M(floe_phase, at), STATE, DSET("phases", "at"), F64(1), CK(FINITE)},
    {M(floe_phase, measure_dir), STATE, DSET("phases", "measure_dir"), F64(3), CK(FINITE)},
    {M(floe_phase, vel), STATE, DSET("phases", "vel"), F64(3), CK(FINITE)},
    {M(floe_phase, angvel), STATE, DSET("phases", "angvel"), F64(3), CK(FINITE)},
    {M(floe_phase, point), STATE, DSET("phases", "point"), F64(3), CK(FINITE)},
    {M(floe_phase, force), STATE, DSET("phases", "force"), F64(3), CK(FINITE)},
    {M(floe_phase, torque), STATE, DSET("phases", "torque"), F64(3), CK(FINITE)},
    {M(floe_phase, force_rate), STATE, DSET("phases", "force_rate"), F64(3), CK(FINITE)},
    {M(floe_phase, torque_rate), STATE, DSET("phases", "torque_rate"), F64(3), CK(FINITE)},
    {M(floe_phase, servo_dir), STATE, DSET("phases", "servo_dir"), F64(3), CK(FINITE)},
    {M(floe_phase, target), STATE, DSET("phases", "servo"), F64(1), .col = 0, CK(FINITE)},
    {M(floe_phase, area), STATE, DSET("phases", "servo"), F64(1), .col = 1, CK(FINITE_NONNEG)},
    {M(floe_phase, gain), STATE, DSET("phases", "servo_gain"), F64(1), .col = 0, CK(FINITE_NONNEG)},
    {M(floe_phase, alpha), STATE, DSET("phases", "servo_gain"), F64(1), .col = 1, CK(FINITE_NONNEG)},
    {M(floe_phase, max_speed), STATE, DSET("phases", "servo_gain"), F64(1), .col = 2, CK(FINITE_NONNEG)},
    END,
};
static const floe_snap_struct phase_struct = STRUCT(floe_phase, phase_fields);

static const floe_snap_field phase_row_fields[] = {
    {M(floe_phase_row, group), STATE, DSET("phases", "group"), I32, ID(floe__rows_groups)},
    {M(floe_phase_row, p), NESTED(phase_struct)},
    END,
};
static const floe_snap_struct phase_row_struct = STRUCT(floe_phase_row, phase_row_fields);

/* ---- contacts ------------------------------------------------------------------------ */

/* A contact's hot, warm and cold records (models/model.h) are arrays of
 * the same rows; the file keeps one table of contacts, as before the split. */
static const floe_snap_field contact_fields[] = {
    {M(floe_contact, a), STATE, DSET("contacts", "a"), I32, ID(floe__rows_particles)},
    {M(floe_contact, b), STATE, DSET("contacts", "b"), I32, ID(floe__rows_particles)},
    /* the file's instance rows are mapped to the world's on load */
    {M(floe_contact, inst), STATE, DSET("contacts", "instance"), U16, ID(floe__rows_instances), .built = 1},
    {M(floe_contact, flags), STATE, DSET("contacts", "flags"), U8}, /* floe__snapshot_check: bits and bodies */
    DERIVED(floe_contact, imaged, "whether the cold img is not zero: set where img is (read_contacts on load)"),
    {M(floe_contact, detail), STATE, DSET("contacts", "detail"), U32},
    {M(floe_contact, t1), STATE, DSET("contacts", "t1"), F64(3), CK(FINITE)},
    {M(floe_contact, kn), STATE, DSET("contacts", "kn"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_contact, kt), STATE, DSET("contacts", "kt"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_contact, f), STATE, DSET("contacts", "force"), F64(3), CK(FINITE)},
    END,
};
static const floe_snap_struct contact_struct = STRUCT(floe_contact, contact_fields);

static const floe_snap_field contact_warm_fields[] = {
    {M(floe_contact_warm, m), STATE, DSET("contacts", "torque"), F64(3), CK(FINITE)},
    {M(floe_contact_warm, kw), STATE, DSET("contacts", "kw"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_contact_warm, kr), STATE, DSET("contacts", "kr"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_contact_warm, area), STATE, DSET("contacts", "area"), F64(1), CK(FINITE_NONNEG)},
    END,
};
static const floe_snap_struct contact_warm_struct = STRUCT(floe_contact_warm, contact_warm_fields);

static const floe_snap_field contact_cold_fields[] = {
    {M(floe_contact_cold, step_created), STATE, DSET("contacts", "step_created"), I64, CK(COUNTER)},
    {M(floe_contact_cold, nbr), STATE, DSET("contacts", "pair"), I32, ID_OR_NONE(floe__rows_pairs)},
    END,
};
static const floe_snap_struct contact_cold_struct = STRUCT(floe_contact_cold, contact_cold_fields);

/* written as the positions and radii give them where they follow from them (full_view, snapshot.c) */
static const floe_snap_field contact_geo_fields[] = {
    {M(floe_contact_geo, n), STATE, DSET("contacts", "normal"), F64(3), CK(UNIT)},
    {M(floe_contact_geo, c), STATE, DSET("contacts", "point"), F64(3), CK(FINITE)},
    {M(floe_contact_geo, uN), STATE, DSET("contacts", "uN"), F64(1), CK(FINITE)},
    {M(floe_contact_geo, lens), STATE, DSET("contacts", "lens"), F64(2), CK(FINITE_NONNEG)},
    {M(floe_contact_geo, img), STATE, DSET("contacts", "image"), .type = FLOE_SNAP_I32, .ncomp = 3, RANGE(-1e9, 1e9)},
    END,
};
static const floe_snap_struct contact_geo_struct = STRUCT(floe_contact_geo, contact_geo_fields);

/* ---- broad phase ------------------------------------------------------------------------ */

/* The pair list in its order (the order in which new contacts are created)
 * and the reference poses of the last rebuild: what a continuation needs to
 * rebuild at the same step and create contacts in the same order. */
static const floe_snap_field pair_fields[] = {
    {M(floe_pair, a), STATE, DSET("broadphase", "pairs"), I32, .col = 0, ID(floe__rows_particles)},
    {M(floe_pair, b), STATE, DSET("broadphase", "pairs"), I32, .col = 1, ID(floe__rows_particles)},
    {M(floe_pair, contact), STATE, DSET("broadphase", "pairs"), I32, .col = 2, ID_OR_NONE(floe__rows_contacts)},
    END,
};
static const floe_snap_struct pair_struct = STRUCT(floe_pair, pair_fields);

static const floe_snap_field bp_fields[] = {
    {M(floe_broadphase, pairs), STATE, STRUCTS(floe__rows_pairs, pair_struct)},
    COUNT(floe_broadphase, npairs, floe__rows_pairs),
    TRANSIENT(floe_broadphase, cap, "capacity of pairs"),
    /* NULL without a periodic cell: written as zeros (snapshot.c, snap_view) */
    {M(floe_broadphase, img), STATE, DSET("broadphase", "pair_image"), .type = FLOE_SNAP_I32, .ncomp = 3,
     ROWS(floe__rows_pairs), RANGE(-1e9, 1e9)},
    TRANSIENT(floe_broadphase, img_cap, "capacity of img"),
    {M(floe_broadphase, ref_pos), STATE, DSET("broadphase", "ref_pos"), F64(3), ROWS(floe__rows_particles),
     .conv = FLOE_CONV_IF_VALID}, /* floe__snapshot_check: when valid */
    {M(floe_broadphase, ref_ori), STATE, DSET("broadphase", "ref_ori"), F64(4), ROWS(floe__rows_particles),
     .conv = FLOE_CONV_IF_VALID},
    TRANSIENT(floe_broadphase, cell_start, "the cell grid: work of a rebuild, which refills it"),
    TRANSIENT(floe_broadphase, cell_items, "the cell grid"),
    TRANSIENT(floe_broadphase, cell_of, "the cell grid"),
    TRANSIENT(floe_broadphase, ncells_cap, "capacity"),
    TRANSIENT(floe_broadphase, nitems_cap, "capacity"),
    TRANSIENT(floe_broadphase, cell_of_cap, "capacity"),
    {M(floe_broadphase, margin), STATE, ATTR("broadphase", "margin"), F64(1), CK(LENGTH_NONNEG)},
    {M(floe_broadphase, max_moved2), STATE, ATTR("broadphase", "max_moved2"), F64(1), CK(NONNEG)}, /* inf: rebuild */
    {M(floe_broadphase, valid), STATE, ATTR("broadphase", "valid"), I32, CK(FLAG)},
    {M(floe_broadphase, split), STATE, ATTR("broadphase", "split"), I32, RANGE(0, 2147483647)},
    TRANSIENT(floe_broadphase, load, "where threads cut the bodies: speed only, remade at the next sort"),
    TRANSIENT(floe_broadphase, load_nb, "the blocks of load"),
    END,
};
static const floe_snap_struct bp_struct = STRUCT(floe_broadphase, bp_fields);

/* ---- scheduled model methods ------------------------------------------------------------ */

static const floe_snap_field sched_fields[] = {
    {M(floe_scheduled, step), STATE, DSET("schedule", "step"), I64, CK(COUNTER), .built = 1},
    {M(floe_scheduled, model), STATE, DSET("schedule", "model"), TEXT(floe_scheduled, model), .built = 1},
    {M(floe_scheduled, method), STATE, DSET("schedule", "method"), TEXT(floe_scheduled, method), .built = 1},
    {M(floe_scheduled, group), STATE, DSET("schedule", "group"), I32, ID_OR_NONE(floe__rows_groups), .built = 1},
    {M(floe_scheduled, nargs), STATE, DSET("schedule", "nargs"), I32, RANGE(0, FLOE_MAX_METHOD_ARGS), .built = 1},
    /* an infinite argument can be meant (a gap without limit), NaN never */
    {M(floe_scheduled, args), STATE, DSET("schedule", "args"), F64(FLOE_MAX_METHOD_ARGS), CK(NOT_NAN), .built = 1},
    END,
};
static const floe_snap_struct sched_struct = STRUCT(floe_scheduled, sched_fields);

/* ---- water and plane counters --------------------------------------------------------- */

/* The ranges are floe_world_set_water's; floe__snapshot_check adds that
 * current and wind are horizontal. */
static const floe_snap_field water_fields[] = {
    {M(floe_water_def, level), STATE, ATTR("water", "level"), F64(1), CK(LENGTH)},
    {M(floe_water_def, density), STATE, ATTR("water", "density"), F64(1), .check = FLOE_CK_RANGE_LO_OPEN, .lo = 0,
     .hi = 1e5},
    {M(floe_water_def, current), STATE, ATTR("water", "current"), F64(3), RANGE(-1e3, 1e3)},
    {M(floe_water_def, skin_drag), STATE, ATTR("water", "skin_drag"), F64(1), RANGE(0, 1)},
    {M(floe_water_def, form_drag), STATE, ATTR("water", "form_drag"), F64(1), RANGE(0, 100)},
    {M(floe_water_def, rotational_drag), STATE, ATTR("water", "rotational_drag"), F64(1), RANGE(0, 1e3)},
    {M(floe_water_def, air_density), STATE, ATTR("water", "air_density"), F64(1), RANGE(0, 1e3)},
    {M(floe_water_def, wind), STATE, ATTR("water", "wind"), F64(3), RANGE(-1e3, 1e3)},
    {M(floe_water_def, wind_drag), STATE, ATTR("water", "wind_drag"), F64(1), RANGE(0, 1)},
    DERIVED(floe_water_def, internal_cookie, "set by floe_default_water_def"),
    END,
};
static const floe_snap_struct water_struct = STRUCT(floe_water_def, water_fields);

static const floe_snap_field plane_fields[] = {
    {M(floe_plane_counter, name), STATE, DSET("measure", "plane_name"), TEXT(floe_plane_counter, name),
     .built = 1}, /* read by read_planes */
    {M(floe_plane_counter, point), STATE, DSET("measure", "plane_point"), F64(3), CK(LENGTH)},
    {M(floe_plane_counter, normal), STATE, DSET("measure", "plane_normal"), F64(3), CK(UNIT)},
    {M(floe_plane_counter, group), STATE, DSET("measure", "plane_group"), I32, ID_OR_NONE(floe__rows_groups)},
    {M(floe_plane_counter, n), STATE, DSET("measure", "plane_crossed"), .type = FLOE_SNAP_I64, .ncomp = 2, CK(COUNTER)},
    {M(floe_plane_counter, m), STATE, DSET("measure", "plane_mass"), F64(2), CK(FINITE_NONNEG)},
    END,
};
static const floe_snap_struct plane_struct = STRUCT(floe_plane_counter, plane_fields);

/* The periodic cell (cell.c); floe_world_set_periodic and
 * floe_world_set_velocity_gradient check the values it is built from. */
static const floe_snap_field cell_fields[] = {
    {M(floe_cell, axes), STATE, ATTR("cell", "axes"), I32, .check = FLOE_CK_MASK, .lo = 7},
    {M(floe_cell, origin), STATE, ATTR("cell", "origin"), F64(3), CK(LENGTH)},
    {M(floe_cell, h), STATE, ATTR("cell", "h"), F64(9), CK(LENGTH)},
    {M(floe_cell, l), STATE, ATTR("cell", "velocity_gradient"), F64(9), CK(FINITE)},
    {M(floe_cell, h_ref), STATE, ATTR("cell", "h_ref"), F64(9), CK(LENGTH)},
    {M(floe_cell, h0), STATE, ATTR("cell", "h0"), F64(9), CK(LENGTH)},
    {M(floe_cell, hu), STATE, ATTR("cell", "h_unreduced"), F64(9), CK(LENGTH)},
    {M(floe_cell, flips), STATE, ATTR("cell", "flips"), I64, CK(COUNTER)},
    {M(floe_cell, servo_axes), STATE, ATTR("cell", "servo_axes"), I32, .check = FLOE_CK_MASK, .lo = 7},
    {M(floe_cell, servo_stress), STATE, ATTR("cell", "servo_stress"), F64(3), CK(FINITE)},
    {M(floe_cell, servo_gain), STATE, ATTR("cell", "servo_gain"), F64(3), CK(FINITE_NONNEG)},
    {M(floe_cell, servo_max), STATE, ATTR("cell", "servo_max_rate"), F64(3), CK(FINITE_NONNEG)},
    {M(floe_cell, servo_alpha), STATE, ATTR("cell", "servo_alpha"), F64(3), .check = FLOE_CK_RANGE, .lo = 0, .hi = 1},
    {M(floe_cell, phase), STATE, ATTR("cell", "phase"), I32, RANGE(-1, FLOE_MAX_PHASES - 1)},
    END,
};
static const floe_snap_struct cell_struct = STRUCT(floe_cell, cell_fields);

/* The cell's phases (cell_phases.c): floe_world_set_cell_phases's checks
 * are made again on load (floe__cell_phases_check). */
static const floe_snap_field cell_phase_fields[] = {
    {M(floe_cell_phase, trigger), STATE, DSET("cell_phases", "trigger"), I32, RANGE(0, FLOE_CELL_AT_KINDS - 1)},
    {M(floe_cell_phase, at), STATE, DSET("cell_phases", "at"), F64(1), CK(FINITE)},
    {M(floe_cell_phase, component), STATE, DSET("cell_phases", "component"), I32, RANGE(0, 8)},
    {M(floe_cell_phase, velocity_gradient), STATE, DSET("cell_phases", "velocity_gradient"), F64(9), CK(FINITE)},
    {M(floe_cell_phase, servo_axes), STATE, DSET("cell_phases", "servo_axes"), I32, .check = FLOE_CK_MASK, .lo = 7},
    /* per axis: stress, gain, alpha, max_rate */
    {M(floe_cell_phase, servo), STATE, DSET("cell_phases", "servo"), F64(12), CK(FINITE)},
    {M(floe_cell_phase, affine), STATE, DSET("cell_phases", "affine"), I32, CK(FLAG)},
    END,
};
static const floe_snap_struct cell_phase_struct = STRUCT(floe_cell_phase, cell_phase_fields);

/* ---- inlets and sinks (supply.c) ------------------------------------------------------- */

/* floe_add_inlet's ranges; the distributions are checked again on load
 * (floe__snapshot_check). */
static const floe_snap_field inlet_fields[] = {
    {M(floe_inlet, name), STATE, DSET("supply", "inlet_name"), TEXT(floe_inlet, name), .built = 1}, /* read_supply */
    {M(floe_inlet, region), STATE, DSET("supply", "inlet_region"), I32, RANGE(0, 2)},
    {M(floe_inlet, shape), STATE, DSET("supply", "inlet_shape"), I32, RANGE(0, FLOE_SHAPE_COUNT - 1)},
    {M(floe_inlet, by_mass), STATE, DSET("supply", "inlet_by_mass"), I32, CK(FLAG)},
    {M(floe_inlet, ntri), STATE, DSET("supply", "inlet_ntri"), I32, RANGE(0, FLOE_INLET_MAX_TRIANGLES)},
    {M(floe_inlet, material), STATE, DSET("supply", "inlet_material"), I32, ID(floe__rows_materials)},
    {M(floe_inlet, max_tries), STATE, DSET("supply", "inlet_max_tries"), I32, RANGE(1, 1e6)},
    {M(floe_inlet, groups), STATE, DSET("supply", "inlet_groups"), U32, CK(GROUP_MASK)},
    {M(floe_inlet, lo), STATE, DSET("supply", "inlet_lo"), F64(3), CK(LENGTH)},
    {M(floe_inlet, hi), STATE, DSET("supply", "inlet_hi"), F64(3), CK(LENGTH)},
    {M(floe_inlet, base), STATE, DSET("supply", "inlet_base"), F64(3), CK(LENGTH)},
    {M(floe_inlet, axis), STATE, DSET("supply", "inlet_axis"), F64(3), CK(LENGTH)},
    {M(floe_inlet, radius), STATE, DSET("supply", "inlet_radius"), F64(1), CK(LENGTH_NONNEG)},
    {M(floe_inlet, tri), STATE, DSET("supply", "inlet_triangles"), F64(FLOE_INLET_MAX_TRIANGLES * 9), CK(LENGTH)},
    {M(floe_inlet, rate), STATE, DSET("supply", "inlet_rate"), F64(1), .check = FLOE_CK_RANGE_LO_OPEN, .lo = 0,
     .hi = 1e12},
    {M(floe_inlet, t_start), STATE, DSET("supply", "inlet_t_start"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_inlet, t_end), STATE, DSET("supply", "inlet_t_end"), F64(1), CK(NONNEG)},
    {M(floe_inlet, spread), STATE, DSET("supply", "inlet_vel_spread"), F64(1), CK(LENGTH_NONNEG)},
    {M(floe_inlet, vel), STATE, DSET("supply", "inlet_vel"), F64(3), CK(LENGTH)},
    {M(floe_inlet, dkind), STATE, DSET("supply", "inlet_dist_kind"), .type = FLOE_SNAP_I32, .ncomp = 3, RANGE(0, 3)},
    {M(floe_inlet, dnpts), STATE, DSET("supply", "inlet_dist_npts"), .type = FLOE_SNAP_I32, .ncomp = 3,
     RANGE(0, FLOE_SIEVE_MAX_POINTS)},
    {M(floe_inlet, dby_mass), STATE, DSET("supply", "inlet_dist_by_mass"), .type = FLOE_SNAP_I32, .ncomp = 3, CK(FLAG)},
    {M(floe_inlet, dpar), STATE, DSET("supply", "inlet_dist_params"), F64(12), CK(FINITE)},
    {M(floe_inlet, dsizes), STATE, DSET("supply", "inlet_dist_sizes"), F64(3 * FLOE_SIEVE_MAX_POINTS), CK(FINITE)},
    {M(floe_inlet, dpassing), STATE, DSET("supply", "inlet_dist_passing"), F64(3 * FLOE_SIEVE_MAX_POINTS), CK(FINITE)},
    {M(floe_inlet, seed), STATE, DSET("supply", "inlet_seed"), I64},
    {M(floe_inlet, rng), STATE, DSET("supply", "inlet_rng"), .type = FLOE_SNAP_I64, .ncomp = 4},
    {M(floe_inlet, owed), STATE, DSET("supply", "inlet_owed"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_inlet, pending), STATE, DSET("supply", "inlet_pending"), I32, CK(FLAG)},
    {M(floe_inlet, psize), STATE, DSET("supply", "inlet_pending_sizes"), F64(3), CK(LENGTH_NONNEG)},
    {M(floe_inlet, ptries), STATE, DSET("supply", "inlet_pending_tries"), I32, RANGE(0, 1e6), .optional = 1},
    {M(floe_inlet, inserted), STATE, DSET("supply", "inlet_inserted"), I64, CK(COUNTER)},
    {M(floe_inlet, tries), STATE, DSET("supply", "inlet_tries"), I64, CK(COUNTER)},
    {M(floe_inlet, failures), STATE, DSET("supply", "inlet_failures"), I64, CK(COUNTER)},
    {M(floe_inlet, mass), STATE, DSET("supply", "inlet_mass"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_inlet, asked), STATE, DSET("supply", "inlet_asked"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_inlet, missed), STATE, DSET("supply", "inlet_missed"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_inlet, short_of_rate), STATE, DSET("supply", "inlet_short_of_rate"), I32, CK(FLAG)},
    {M(floe_inlet, recycle), STATE, DSET("supply", "inlet_recycle"), I32, ID_OR_NONE(floe__rows_sinks)},
    {M(floe_inlet, recycle_seen), STATE, DSET("supply", "inlet_recycle_seen"), F64(1), CK(FINITE_NONNEG)},
    END,
};
static const floe_snap_struct inlet_struct = STRUCT(floe_inlet, inlet_fields);

static const floe_snap_field sink_fields[] = {
    {M(floe_sink, name), STATE, DSET("supply", "sink_name"), TEXT(floe_sink, name), .built = 1}, /* read_supply */
    {M(floe_sink, region), STATE, DSET("supply", "sink_region"), I32, RANGE(0, 3)},
    {M(floe_sink, group), STATE, DSET("supply", "sink_group"), I32, ID_OR_NONE(floe__rows_groups)},
    {M(floe_sink, lo), STATE, DSET("supply", "sink_lo"), F64(3), CK(LENGTH)},
    {M(floe_sink, hi), STATE, DSET("supply", "sink_hi"), F64(3), CK(LENGTH)},
    {M(floe_sink, point), STATE, DSET("supply", "sink_point"), F64(3), CK(LENGTH)},
    {M(floe_sink, normal), STATE, DSET("supply", "sink_normal"), F64(3), CK(FINITE)},
    {M(floe_sink, t_start), STATE, DSET("supply", "sink_t_start"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_sink, t_end), STATE, DSET("supply", "sink_t_end"), F64(1), CK(NONNEG)},
    {M(floe_sink, removed), STATE, DSET("supply", "sink_removed"), I64, CK(COUNTER)},
    {M(floe_sink, mass), STATE, DSET("supply", "sink_mass"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_sink, energy), STATE, DSET("supply", "sink_energy"), F64(1), CK(FINITE)},
    END,
};
static const floe_snap_struct sink_struct = STRUCT(floe_sink, sink_fields);

/* ---- the world ------------------------------------------------------------------------------ */

static const floe_snap_field world_fields[] = {
    {M(floe_world, def), NESTED(def_struct)},
    TRANSIENT(floe_world, err, "the last error message"),
    {M(floe_world, step), STATE, ATTR("world", "step"), I64, CK(COUNTER)},
    {M(floe_world, time), STATE, ATTR("world", "time"), F64(1), CK(FINITE_NONNEG)},
    /* floe__snapshot_check: > 0 once started or when fixed */
    {M(floe_world, dt), STATE, ATTR("world", "dt"), F64(1), CK(FINITE_NONNEG)},
    {M(floe_world, dt_auto), STATE, ATTR("world", "dt_auto"), I32, CK(FLAG)},
    DERIVED(floe_world, prepared, "floe__prepare runs on load"),
    {M(floe_world, started), STATE, ATTR("world", "started"), I32, CK(FLAG)},
    {M(floe_world, stopped), STATE, ATTR("world", "stopped"), I32, CK(FLAG)},
    DERIVED(floe_world, nthreads, "resolved from def.threads on load, as start() does"),
    TRANSIENT(floe_world, tune, "speed only: the thread count changes no result; a run tunes afresh"),
    {M(floe_world, rmax), STATE, ATTR("world", "rmax"), F64(1), CK(LENGTH_NONNEG)},
    {M(floe_world, n_breaks), STATE, ATTR("world", "n_breaks"), I64, CK(COUNTER)},
    /* floe__snapshot_check: at most step */
    {M(floe_world, last_dyn_dt), STATE, ATTR("world", "last_dyn_dt"), I64, CK(COUNTER)},
    {M(floe_world, skin), STATE, ATTR("world", "skin"), F64(1), CK(LENGTH_NONNEG)},
    {M(floe_world, box_centre), STATE, ATTR("world", "box_centre"), F64(3), CK(LENGTH)},
    {M(floe_world, box_reach2), STATE, ATTR("world", "box_reach2"), F64(1), CK(NONNEG)}, /* inf: no limit */

    COUNT(floe_world, np, floe__rows_particles),
    TRANSIENT(floe_world, pcap, "capacity of the particle arrays"),
    {M(floe_world, pos), STATE, DSET("particles", "pos"), F64(3), ROWS(floe__rows_particles), CK(LENGTH)},
    {M(floe_world, vel), STATE, DSET("particles", "vel"), F64(3), ROWS(floe__rows_particles), CK(FINITE)},
    {M(floe_world, angvel), STATE, DSET("particles", "angvel"), F64(3), ROWS(floe__rows_particles), CK(FINITE)},
    {M(floe_world, force), STATE, DSET("particles", "force"), F64(3), ROWS(floe__rows_particles), CK(FINITE)},
    {M(floe_world, torque), STATE, DSET("particles", "torque"), F64(3), ROWS(floe__rows_particles), CK(FINITE)},
    {M(floe_world, ori), STATE, DSET("particles", "ori"), F64(4), ROWS(floe__rows_particles), CK(UNIT)},
    /* floe__snapshot_check: bodies have mass, sizes as the shape gives them */
    {M(floe_world, mass), STATE, DSET("particles", "mass"), F64(1), ROWS(floe__rows_particles), CK(FINITE_NONNEG)},
    {M(floe_world, radius), STATE, DSET("particles", "radius"), F64(1), ROWS(floe__rows_particles), CK(LENGTH_NONNEG)},
    {M(floe_world, inertia), STATE, DSET("particles", "inertia"), F64(3), ROWS(floe__rows_particles),
     CK(FINITE_NONNEG)},
    {M(floe_world, angmom), STATE, DSET("particles", "angmom"), F64(3), ROWS(floe__rows_particles),
     CK(FINITE_OR_UNSET)},
    {M(floe_world, bound), STATE, DSET("particles", "bound"), F64(1), ROWS(floe__rows_particles)},
    {M(floe_world, shape), STATE, DSET("particles", "shape"), U8, ROWS(floe__rows_particles),
     RANGE(0, FLOE_SHAPE_COUNT - 1), .built = 1},
    {M(floe_world, shape_idx), STATE, DSET("particles", "shape_index"), I32, ROWS(floe__rows_particles), .built = 1},
    {M(floe_world, mat), STATE, DSET("particles", "material"), I32, ROWS(floe__rows_particles),
     ID(floe__rows_materials)},
    {M(floe_world, blocked), STATE, DSET("particles", "blocked"), U32, ROWS(floe__rows_particles),
     .check = FLOE_CK_MASK, .lo = FLOE_DOF_ALL},
    {M(floe_world, groups), STATE, DSET("particles", "groups"), U32, ROWS(floe__rows_particles), CK(GROUP_MASK)},
    {M(floe_world, wraps), STATE, DSET("particles", "wraps"), .type = FLOE_SNAP_I32, .ncomp = 3,
     ROWS(floe__rows_particles)},
    TRANSIENT(floe_world, ftouch,
              "which chunks' force sums may be nonzero: NULL on load, every chunk counts as written"),
    TRANSIENT(floe_world, ftouch_n, "its chunks"),
    DERIVED(floe_world, clump_of, "from the clump records (floe__clumps_index, at every step's start)"),
    DERIVED(floe_world, clump_cap, "its capacity"),

    /* every shape's records: items "<section>/<field>" from the class's
     * field lists, written, read, checked and compared by snapshot_shapes.c
     * and snapshot.c (a new shape needs no line here) */
    {M(floe_world, store), .role = FLOE_SNAP_SHAPES, .note = "described by the shape classes (snapshot_shapes.c)"},

    {M(floe_world, mats), STATE, STRUCTS(floe__rows_materials, material_struct)},
    COUNT(floe_world, nmats, floe__rows_materials),
    TRANSIENT(floe_world, mcap, "capacity"),
    {M(floe_world, insts), STATE, STRUCTS(floe__rows_instances, instance_struct)},
    COUNT(floe_world, ninsts, floe__rows_instances),
    TRANSIENT(floe_world, icap, "capacity"),
    {M(floe_world, overrides), STATE, STRUCTS(floe__rows_overrides, override_struct)},
    COUNT(floe_world, noverrides, floe__rows_overrides),
    TRANSIENT(floe_world, ocap, "capacity"),
    DERIVED(floe_world, pair_inst, "material pair -> instance, rebuilt by floe__prepare"),
    DERIVED(floe_world, pair_inst_n, "rebuilt by floe__prepare"),

    {M(floe_world, groups_), STATE, STRUCTS(floe__rows_groups, group_struct), .inline_array = 1},
    COUNT(floe_world, ngroups, floe__rows_groups),

    {M(floe_world, con), STATE, STRUCTS(floe__rows_contacts, contact_struct)},
    {M(floe_world, cwarm), STATE, STRUCTS(floe__rows_contacts, contact_warm_struct)},
    {M(floe_world, ccold), STATE, STRUCTS(floe__rows_contacts, contact_cold_struct)},
    {M(floe_world, cgeom), STATE, STRUCTS(floe__rows_contacts, contact_geo_struct)},
    COUNT(floe_world, ncon, floe__rows_contacts),
    TRANSIENT(floe_world, ccap, "capacity"),
    DERIVED(floe_world, warm_kept,
            "whether cwarm is stored (floe__prepare, a body that is not a sphere or a wall, the contacts read: "
            "floe__warm_keep); a world without is written with the records its contacts imply"),
    DERIVED(floe_world, geom_kept,
            "whether cgeom is stored (floe__prepare, a periodic cell, a body that is not a sphere or a wall, "
            "legacy lens: floe__geom_keep); a world without is written with the geometry, lens and images the "
            "positions and radii give"),
    /* raw, exact; floe__snapshot_check: finite as the model exports it */
    {M(floe_world, cstate), STATE, DSET("contacts", "state"), .type = FLOE_SNAP_U8, ROWS(floe__rows_contacts),
     .conv = FLOE_CONV_STATE},
    DERIVED(floe_world, cstride,
            "the largest state size of the instances in use (floe__prepare); stored as "
            "contacts@state_stride to read the rows"),

    {M(floe_world, bp), NESTED(bp_struct)},

    {M(floe_world, e_plastic), STATE, ATTR("energy", "plastic"), F64(1), CK(FINITE)},
    {M(floe_world, e_damping), STATE, ATTR("energy", "damping"), F64(1), CK(FINITE)},
    {M(floe_world, e_dashpot), STATE, ATTR("energy", "dashpot"), F64(1), CK(FINITE)},
    {M(floe_world, e_broken), STATE, ATTR("energy", "broken"), F64(1), CK(FINITE)},
    {M(floe_world, e_boundary), STATE, ATTR("energy", "boundary"), F64(1), CK(FINITE)},
    {M(floe_world, e_elastic), STATE, ATTR("energy", "elastic"), F64(1), CK(FINITE)},
    {M(floe_world, e_gravity_work), STATE, ATTR("energy", "gravity_work"), F64(1), CK(FINITE)},
    {M(floe_world, e_total0), STATE, ATTR("energy", "total0"), F64(1), CK(FINITE)},
    {M(floe_world, e_scale), STATE, ATTR("energy", "scale"), F64(1), CK(FINITE_NONNEG), .optional = 1},
    {M(floe_world, energy_warned), STATE, ATTR("energy", "warned"), I32, CK(FLAG), .optional = 1},
    TRANSIENT(floe_world, boundary_moving, "set and read within a step"),

    {M(floe_world, has_water), STATE, ATTR("water", "on"), I32, CK(FLAG)},
    {M(floe_world, water), NESTED(water_struct)},
    {M(floe_world, e_body_work), STATE, ATTR("energy", "body_work"), F64(1), CK(FINITE)},

    {M(floe_world, cell), NESTED(cell_struct)},
    {M(floe_world, cphases), STATE, STRUCTS(floe__rows_cell_phases, cell_phase_struct)},
    COUNT(floe_world, ncphases, floe__rows_cell_phases),
    TRANSIENT(floe_world, cphcap, "capacity"),
    {M(floe_world, phases), STATE, STRUCTS(floe__rows_phases, phase_row_struct)},
    COUNT(floe_world, nphases, floe__rows_phases),
    TRANSIENT(floe_world, phcap, "capacity"),

    {M(floe_world, planes), STATE, STRUCTS(floe__rows_planes, plane_struct)},
    COUNT(floe_world, nplanes, floe__rows_planes),
    TRANSIENT(floe_world, plcap, "capacity"),

    {M(floe_world, inlets), STATE, STRUCTS(floe__rows_inlets, inlet_struct)},
    COUNT(floe_world, ninlets, floe__rows_inlets),
    TRANSIENT(floe_world, inlcap, "capacity"),
    {M(floe_world, sinks), STATE, STRUCTS(floe__rows_sinks, sink_struct)},
    COUNT(floe_world, nsinks, floe__rows_sinks),
    TRANSIENT(floe_world, skcap, "capacity"),
    {M(floe_world, supply_next), STATE, ATTR("world", "supply_unfinished"), I32, RANGE(0, FLOE_MAX_INLETS),
     .optional = 1},
    TRANSIENT(floe_world, max_particles, "a setting of the program (floe_set_particle_budget), as the thread count"),
    TRANSIENT(floe_world, supply_tests, "a count of the tests"),
    TRANSIENT(floe_world, supply_room, "the insertion test's search: rebuilt at every step an inlet inserts"),
    TRANSIENT(floe_world, supply_room_free, "frees supply_room"),
    TRANSIENT(floe_world, interrupt, "a setting of the program (floe_set_interrupt)"),
    TRANSIENT(floe_world, interrupt_ctx, "a setting of the program (floe_set_interrupt)"),

    TRANSIENT(floe_world, events, "the last step's events: taken by the outputs before a snapshot"),
    TRANSIENT(floe_world, nevents, "the last step's events"),
    TRANSIENT(floe_world, evcap, "capacity"),
    TRANSIENT(floe_world, event_serial, "counts event lists handed out; a new world starts its own"),
    TRANSIENT(floe_world, event_mask,
              "a setting of the run, as the thread count: set again by whoever reads the events"),

    {M(floe_world, sched), STATE, STRUCTS(floe__rows_schedule, sched_struct)},
    COUNT(floe_world, nsched, floe__rows_schedule),
    TRANSIENT(floe_world, schedcap, "capacity"),

    TRANSIENT(floe_world, brk, "this step's bond-break loads"),
    TRANSIENT(floe_world, nbrk, "this step's bond-break loads"),
    TRANSIENT(floe_world, brkcap, "capacity"),
    TRANSIENT(floe_world, brk_oom, "this step's bond-break loads"),
    TRANSIENT(floe_world, scratch, "per-step work buffers"),
    TRANSIENT(floe_world, scratch_size, "per-step work buffers"),
    TRANSIENT(floe_world, nflagged, "set and read within a step"),
    {M(floe_world, dt_recheck), STATE, ATTR("world", "dt_recheck"), I32, CK(FLAG),
     .optional = 1}, /* cleared within a step, unless its insertion was interrupted */
    TRANSIENT(floe_world, batch_off, "a switch of the tests"),
    TRANSIENT(floe_world, fuse_off, "a switch of the tests"),
    TRANSIENT(floe_world, fused_steps, "a count of the tests"),
    END,
};

const floe_snap_struct floe__snap_world = {
    "floe_world", sizeof(floe_world), __alignof__(floe_world), {world_fields, NULL}};

const floe_snap_struct *const floe__snap_structs[] = {
    &floe__snap_world,    &def_struct,         &material_struct, &instance_struct, &override_struct,
    &motion_struct,       &group_struct,       &contact_struct,  &pair_struct,     &contact_warm_struct,
    &contact_cold_struct, &contact_geo_struct, &bp_struct,       &sched_struct,    &water_struct,
    &plane_struct,        &cell_struct,        &inlet_struct,    &sink_struct,     &phase_struct,
    &phase_row_struct,    &cell_phase_struct,
};
const int floe__snap_nstructs = (int)(sizeof floe__snap_structs / sizeof *floe__snap_structs);
