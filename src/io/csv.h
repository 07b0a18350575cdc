/* CSV tables: energy.csv, history.csv, events.csv and the final-state
 * particles.csv / contacts.csv. Columns and units: docs/outputs.md.
 *
 * Rows are formatted into a memory buffer and reach the file only as whole
 * lines, with one write() per flush, so a killed run never leaves a torn
 * record on disk (except if the kernel itself cuts the write short). */
#ifndef FLOE_IO_CSV_H
#define FLOE_IO_CSV_H

#include <stddef.h>
#include <floe/floe_io.h> /* floe_history_column; floe_history_check/_value,
                           * floe_event_type_name and the whole-world tables are
                           * public there */

/* Number formats: lossless where the value is state a user may reload or
 * compare, short where it is only read or plotted. */
#define FLOE_CSV_EXACT "%.17g"
#define FLOE_CSV_SHORT "%.12g"

typedef struct floe_csv floe_csv;

/* Creates (truncates) `path`. NULL with a message in err on failure. */
floe_csv *floe_csv_open(const char *path, char *err, size_t errlen);
/* Reopens `path` to continue a run from a restart: the file is cut back to
 * its first `length` bytes (rows past the restart step are written again);
 * a file shorter than that is an error. */
floe_csv *floe_csv_reopen(const char *path, long long length, char *err, size_t errlen);
/* Flushes and fsyncs; returns the file's length in bytes, or -1. */
long long floe_csv_sync(floe_csv *c);
/* Writes every complete buffered line; 0 or -1 (see floe_csv_error). */
int floe_csv_flush(floe_csv *c);
/* Bytes of complete lines waiting to be flushed. */
size_t floe_csv_pending(const floe_csv *c);
/* Message of the last failure on this file ("" if none). */
const char *floe_csv_error(const floe_csv *c);
/* Flushes, closes and frees (NULL is fine); 0, or -1 with a message in err. */
int floe_csv_close(floe_csv *c, char *err, size_t errlen);

/* Every row function below returns 0, or -1 (see floe_csv_error); a row
 * that fails is dropped whole. */

/* energy.csv: step,time,<floe_energy_name(t) for every term>. */
int floe_csv_energy_header(floe_csv *c);
int floe_csv_energy_row(floe_csv *c, const floe_world *w);

/* history.csv: step,time,<column names>; the values are quantity.c's. */
int floe_csv_history_header(floe_csv *c, const floe_history_column *cols, int n);
int floe_csv_history_row(floe_csv *c, const floe_world *w, const floe_history_column *cols, int n);

/* events.csv: step,time,type,a,b,fn,ft_y,ft_z,tw,tr_y,tr_z,detail. */
int floe_csv_events_header(floe_csv *c);
int floe_csv_event_row(floe_csv *c, const floe_event *ev);

/* measurements.csv: source,name,quantity,value; every region quantity of
 * each of the n regions, then every quantity of each plane counter. */
int floe_csv_write_measurements(const char *path, const floe_world *w, const floe_named_region *regions, int n,
                                char *err, size_t errlen);

#endif
