/* The tables of a restart file's run settings, output configuration and
 * output counters (src/io/restart_table.c): tables of the snapshot's kind
 * (include/floe/floe_snapshot.h), written, read and checked by the
 * engine's walker (floe_snap_table_write, _read, _check) as the world's
 * table is. restart.c walks them beside the world's snapshot;
 * restart_check.c adds the rules between their values and the world. */
#ifndef FLOE_IO_RESTART_TABLE_H
#define FLOE_IO_RESTART_TABLE_H

#include <floe/floe_io.h>
#include <floe/floe_snapshot.h>

/* struct floe_restart: /run and /output_config (its member `output` is
 * the next table's). */
extern const floe_snap_struct floe_io_run_table;
/* struct floe_output_state: /output, written when the restart has_output. */
extern const floe_snap_struct floe_io_output_table;

/* The kinds of rows: history columns, named regions, frames. */
extern const floe_snap_rows floe_io_rows_history, floe_io_rows_regions, floe_io_rows_frames;

#endif
