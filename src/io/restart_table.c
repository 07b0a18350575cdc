/* The tables of a restart file's run settings, output configuration and
 * output counters (restart_table.h): tables of the snapshot's kind
 * (include/floe/floe_snapshot.h), walked by the engine's walker like the
 * world's (docs/decisions.md#one-walker-for-every-table-of-the-snapshots-kind).
 * The lines are in the order of the items in the file; a member of
 * floe_restart or floe_output_state (and of the structs they hold) needs
 * its line: tests/test_restart_table.c fails until the members tile their
 * structs again. */
#include "io/restart_table.h"

#include <stddef.h>

/* Where a member is (a path in the root: "scene.out.vtk.steps"), how big and how aligned. */
#define M(T, m) .member = #m, .offset = offsetof(T, m), .size = sizeof(((T *)0)->m), .align = __alignof__(((T *)0)->m)
#define STATE .role = FLOE_SNAP_STATE
#define ATTR(g, n) .group = g, .name = n, .attr = 1
#define DSET(g, n) .group = g, .name = n, .attr = 0
#define F64(nc) .type = FLOE_SNAP_F64, .ncomp = nc
#define I64(nc) .type = FLOE_SNAP_I64, .ncomp = nc
#define I32 .type = FLOE_SNAP_I32, .ncomp = 1
#define U32 .type = FLOE_SNAP_U32, .ncomp = 1
#define TEXT(T, m) .type = FLOE_SNAP_STR, .ncomp = (int)sizeof(((T *)0)->m)
#define CK(c) .check = FLOE_CK_##c
#define RANGE(l, h) .check = FLOE_CK_RANGE, .lo = l, .hi = h
/* for people reading the file: a fixed text, never read back */
#define DOC(g, n, text) \
    { .member = "(doc " n ")", .role = FLOE_SNAP_DOC, ATTR(g, n), .type = FLOE_SNAP_STR, .ncomp = 1, .note = text }
#define COUNT(T, m, r) \
    { M(T, m), .role = FLOE_SNAP_COUNT, .rows = &r }
#define NOT_STATE(T, m, why) \
    { M(T, m), .role = FLOE_SNAP_TRANSIENT, .note = why }
#define END \
    { .member = NULL }

/* ---- rows ------------------------------------------------------------------------- */

const floe_snap_rows floe_io_rows_history = {"column", offsetof(floe_restart, scene.out.n_history_cols),
                                             "output_config/history_columns/name", sizeof(int)};
const floe_snap_rows floe_io_rows_regions = {"row", offsetof(floe_restart, scene.out.n_regions),
                                             "output_config/regions/name", sizeof(int)};
const floe_snap_rows floe_io_rows_frames = {"frame", offsetof(floe_output_state, nframes), "output/frame_step",
                                            sizeof(size_t)};

/* ---- a history column, a named region ----------------------------------------------- */

#define HC floe_history_column
#define HIST(n) DSET("output_config/history_columns", n)
static const floe_snap_field history_fields[] = {
    {M(HC, name), STATE, HIST("name"), TEXT(HC, name)},
    {M(HC, quantity), STATE, HIST("quantity"), TEXT(HC, quantity)},
    /* the column's kind and ids; checked against the world in restart_check.c */
    {M(HC, kind), STATE, HIST("kind_a_b_group_energy"), I32, .col = 0, RANGE(FLOE_HIST_PARTICLE, FLOE_HIST_PLANE),
     .note = "kind"},
    {M(HC, a), STATE, HIST("kind_a_b_group_energy"), I32, .col = 1},
    {M(HC, b), STATE, HIST("kind_a_b_group_energy"), I32, .col = 2},
    {M(HC, group), STATE, HIST("kind_a_b_group_energy"), I32, .col = 3},
    {M(HC, energy), STATE, HIST("kind_a_b_group_energy"), I32, .col = 4},
    /* the region (a finite box, or the whole world: restart_check.c) and the area */
    {M(HC, region.lo), STATE, HIST("region_lo_hi_whole_area"), F64(3), .col = 0},
    {M(HC, region.hi), STATE, HIST("region_lo_hi_whole_area"), F64(3), .col = 3},
    {M(HC, region.whole), STATE, HIST("region_lo_hi_whole_area"), F64(1), .col = 6, .conv = FLOE_CONV_INT_AS_F64,
     CK(FLAG), .note = "whole"},
    {M(HC, area), STATE, HIST("region_lo_hi_whole_area"), F64(1), .col = 7},
    END,
};
static const floe_snap_struct history_struct = {"floe_history_column", sizeof(HC), __alignof__(HC), {history_fields}};
#undef HIST

#define NR floe_named_region
static const floe_snap_field region_fields[] = {
    {M(NR, name), STATE, DSET("output_config/regions", "name"), TEXT(NR, name)},
    {M(NR, region.lo), STATE, DSET("output_config/regions", "lo_hi_whole"), F64(3), .col = 0},
    {M(NR, region.hi), STATE, DSET("output_config/regions", "lo_hi_whole"), F64(3), .col = 3},
    {M(NR, region.whole), STATE, DSET("output_config/regions", "lo_hi_whole"), F64(1), .col = 6,
     .conv = FLOE_CONV_INT_AS_F64, CK(FLAG), .note = "whole"},
    END,
};
static const floe_snap_struct region_struct = {"floe_named_region", sizeof(NR), __alignof__(NR), {region_fields}};

/* ---- the run: /run, /output_config ------------------------------------------------------ */

#define OC floe_output_config
#define CFG(n) ATTR("output_config", n)
static const floe_snap_field config_fields[] = {
    /* the cadences, one column per output */
    {M(OC, vtk.steps), STATE, CFG("every_steps"), I64(1), .col = 0, CK(COUNTER), .note = "vtk"},
    {M(OC, energy.steps), STATE, CFG("every_steps"), I64(1), .col = 1, CK(COUNTER), .note = "energy"},
    {M(OC, history.steps), STATE, CFG("every_steps"), I64(1), .col = 2, CK(COUNTER), .note = "history"},
    {M(OC, progress.steps), STATE, CFG("every_steps"), I64(1), .col = 3, CK(COUNTER), .note = "progress"},
    {M(OC, vtk.interval), STATE, CFG("every_interval"), F64(1), .col = 0, CK(FINITE_NONNEG), .note = "vtk"},
    {M(OC, energy.interval), STATE, CFG("every_interval"), F64(1), .col = 1, CK(FINITE_NONNEG), .note = "energy"},
    {M(OC, history.interval), STATE, CFG("every_interval"), F64(1), .col = 2, CK(FINITE_NONNEG), .note = "history"},
    {M(OC, progress.interval), STATE, CFG("every_interval"), F64(1), .col = 3, CK(FINITE_NONNEG), .note = "progress"},
    DOC("output_config", "every_order", "vtk, energy, history, progress"),
    {M(OC, vtk_contacts), STATE, CFG("vtk_contacts"), I32, CK(FLAG)},
    {M(OC, vtk_boundaries), STATE, CFG("vtk_boundaries"), I32, CK(FLAG)},
    {M(OC, vtk_shapes), STATE, CFG("vtk_shapes"), I32, CK(FLAG)},
    {M(OC, final_state), STATE, CFG("final_state"), I32, CK(FLAG)},
    {M(OC, events_skip), STATE, CFG("events_skip"), U32},
    {M(OC, history_cols), STATE, .rows = &floe_io_rows_history, .sub = &history_struct},
    COUNT(OC, n_history_cols, floe_io_rows_history),
    {M(OC, regions), STATE, .rows = &floe_io_rows_regions, .sub = &region_struct},
    COUNT(OC, n_regions, floe_io_rows_regions),
    END,
};
static const floe_snap_struct config_struct = {"floe_output_config", sizeof(OC), __alignof__(OC), {config_fields}};
#undef CFG

#define R floe_restart
static const floe_snap_field run_fields[] = {
    {M(R, scene.steps), STATE, ATTR("run", "steps"), I64(1), CK(COUNTER)},
    {M(R, scene.duration), STATE, ATTR("run", "duration"), F64(1), CK(FINITE_NONNEG)},
    {M(R, total_steps), STATE, ATTR("run", "total_steps"), I64(1), CK(COUNTER)},
    {M(R, restart_every), STATE, ATTR("run", "restart_every"), I64(1), CK(COUNTER)},
    {M(R, scene.path), STATE, ATTR("run", "scene"), TEXT(R, scene.path)},
    {M(R, scene.out), STATE, .sub = &config_struct}, /* /output_config */
    /* not in the file */
    NOT_STATE(R, scene.world, "the world's snapshot, beside these tables"),
    NOT_STATE(R, scene.warnings, "the scene's load, not the run's"),
    NOT_STATE(R, scene.run_error, "the scene's load, not the run's"),
    NOT_STATE(R, stopped, "from the world on load (floe_stopped)"),
    NOT_STATE(R, has_output, "whether /output exists"),
    NOT_STATE(R, output, "its own table (floe_io_output_table), written when has_output"),
    END,
};
const floe_snap_struct floe_io_run_table = {"floe_restart", sizeof(R), __alignof__(R), {run_fields}};

/* ---- where the outputs stood: /output ------------------------------------------------------ */

#define OS floe_output_state
static const floe_snap_field output_fields[] = {
    /* rows vtk, energy, history; columns period, next, last: one 3 x 3 table */
    {M(OS, vtk), STATE, DSET("output", "streams"), I64(3), .col = 0, .shape2 = 3},
    {M(OS, energy), STATE, DSET("output", "streams"), I64(3), .col = 3, .shape2 = 3},
    {M(OS, history), STATE, DSET("output", "streams"), I64(3), .col = 6, .shape2 = 3},
    DOC("output", "streams_doc",
        "rows vtk, energy, history; columns period, next due step, last step written; period -1: by time, next is "
        "the index k of the time k * interval"),
    {M(OS, width), STATE, ATTR("output", "width"), I32, RANGE(1, 19)},
    {M(OS, csv_bytes), STATE, ATTR("output", "csv_bytes"), I64(3), RANGE(-1, (double)FLOE_SNAP_MAX_COUNT)},
    DOC("output", "csv_doc", "bytes of energy.csv, history.csv, events.csv at this step (-1: none)"),
    {M(OS, frame_step), STATE, DSET("output", "frame_step"), I64(1), .rows = &floe_io_rows_frames},
    {M(OS, frame_time), STATE, DSET("output", "frame_time"), F64(1), .rows = &floe_io_rows_frames, CK(FINITE)},
    COUNT(OS, nframes, floe_io_rows_frames),
    {M(OS, models_seen), STATE, DSET("output", "models_seen"), .type = FLOE_SNAP_STR, .ncomp = 1,
     .conv = FLOE_CONV_MODEL_MASK},
    END,
};
const floe_snap_struct floe_io_output_table = {"floe_output_state", sizeof(OS), __alignof__(OS), {output_fields}};
