/* Validation of a loaded restart file's run settings, output configuration
 * and output counters (see restart_check.h): every value by the line of its
 * table (restart_table.c), then the rules between values and with the
 * world. The world's snapshot is checked by the snapshot's own table as it
 * is read (src/core/snapshot_check.c). */
#include "io/restart_check.h"

#include <floe/floe_snapshot.h>
#include "io/csv.h"
#include "io/io_err.h"
#include "io/restart_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCOUNT FLOE_SNAP_MAX_COUNT

typedef struct ck {
    char *err;
    size_t errlen;
    int bad;
} ck;

/* Records the first failure: "<where>: <why>"; returns 0. */
static int bad(ck *c, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(ck *c, const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe_snap_vfail(&c->bad, c->err, c->errlen, where, fmt, ap);
    va_end(ap);
    return 0;
}

/* ---- rules between the values of /run, /output_config, /output and the world ---- */

/* A measurement region: the whole world, or a finite box with lo < hi. */
static int box_ok(const floe_region *q) {
    if (q->whole) return 1;
    double v[6] = {q->lo.x, q->lo.y, q->lo.z, q->hi.x, q->hi.y, q->hi.z};
    for (int k = 0; k < 6; k++)
        if (!(fabs(v[k]) <= FLOE_SNAP_MAX_LENGTH)) return 0;
    return q->lo.x < q->hi.x && q->lo.y < q->hi.y && q->lo.z < q->hi.z;
}

static void check_rules(ck *c, const floe_restart *r) {
    const floe_world *w = r->scene.world;
    const floe_output_config *o = &r->scene.out;
    for (int i = 0; i < o->n_history_cols && !c->bad; i++) {
        char why[512];
        const floe_history_column *h = &o->history_cols[i];
        if (h->kind == FLOE_HIST_REGION && !box_ok(&h->region))
            bad(c, "/output_config/history_columns/region_lo_hi_whole_area", "column %d: not a finite box with lo < hi",
                i);
        else if (floe_history_check(w, h, why, sizeof why) != 0) bad(c, "/output_config/history_columns", "%s", why);
    }
    for (int i = 0; i < o->n_regions && !c->bad; i++)
        if (!box_ok(&o->regions[i].region))
            bad(c, "/output_config/regions/lo_hi_whole", "row %d: not a finite box with lo < hi", i);
    if (!r->has_output) return;
    const floe_output_state *s = &r->output;
    const floe_output_stream *st[3] = {&s->vtk, &s->energy, &s->history};
    /* period: steps between writes, 0 never, or FLOE_OUTPUT_BY_TIME (next is
     * then the index of the next multiple of the configured interval) */
    for (int i = 0; i < 3; i++)
        if ((st[i]->period < 0 && st[i]->period != FLOE_OUTPUT_BY_TIME) || st[i]->next < 0 ||
            st[i]->period > MAXCOUNT || st[i]->next > MAXCOUNT ||
            (st[i]->last != INT64_MIN && (st[i]->last < 0 || st[i]->last > floe_step_count(w))))
            bad(c, "/output/streams", "row %d: period %lld, next %lld, last %lld: out of range", i,
                (long long)st[i]->period, (long long)st[i]->next, (long long)st[i]->last);
    for (size_t i = 0; i < s->nframes && !c->bad; i++)
        if (s->frame_step[i] < 0 || s->frame_step[i] > floe_step_count(w) ||
            (i > 0 && s->frame_step[i] <= s->frame_step[i - 1]))
            bad(c, "/output/frame_step", "frame %zu: step %lld is out of order or past the restart step", i,
                (long long)s->frame_step[i]);
}

int floe_restart_check(const floe_restart *r, char *err, size_t errlen) {
    ck c = {err, errlen, 0};
    const floe_world *w = r->scene.world;
    if (!w) return floe_io_err(err, errlen, "no world");
    /* every value as its table's line says, then the rules */
    if (floe_snap_table_check(&floe_io_run_table, r, err, errlen) != 0 ||
        (r->has_output && floe_snap_table_check(&floe_io_output_table, &r->output, err, errlen) != 0))
        c.bad = 1;
    if (!c.bad) check_rules(&c, r);
    return c.bad ? -1 : 0;
}
