/* Validation of a loaded restart file's run settings, output configuration
 * and output counters (see restart_check.h). The world's snapshot is
 * checked by the snapshot's own table as it is read (src/core/snapshot.c). */
#include "io/restart_check.h"

#include <floe/floe_snapshot.h>
#include "io/csv.h"
#include "io/io_err.h"

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

static int flag_ok(int v) { return v == 0 || v == 1; }

/* ---- /run, /output_config, /output ---------------------------------------- */

/* A measurement region: the whole world, or a finite box with lo < hi. */
static int box_ok(const floe_region *q) {
    if (q->whole) return 1;
    double v[6] = {q->lo.x, q->lo.y, q->lo.z, q->hi.x, q->hi.y, q->hi.z};
    for (int k = 0; k < 6; k++)
        if (!(fabs(v[k]) <= FLOE_SNAP_MAX_LENGTH)) return 0;
    return q->lo.x < q->hi.x && q->lo.y < q->hi.y && q->lo.z < q->hi.z;
}

static void check_every(ck *c, const char *which, floe_every e) {
    if (e.steps < 0 || e.steps > MAXCOUNT)
        bad(c, "/output_config@every_steps", "%s: %lld is out of range", which, (long long)e.steps);
    if (!(e.interval >= 0) || !isfinite(e.interval))
        bad(c, "/output_config@every_interval", "%s: %g is not a finite interval >= 0", which, e.interval);
}

static void check_run(ck *c, const floe_restart *r) {
    const floe_world *w = r->scene.world;
    if (r->scene.steps < 0 || r->scene.steps > MAXCOUNT)
        bad(c, "/run@steps", "%lld is out of range", (long long)r->scene.steps);
    if (!(r->scene.duration >= 0) || !isfinite(r->scene.duration))
        bad(c, "/run@duration", "%g is not a finite time >= 0", r->scene.duration);
    if (r->total_steps < 0 || r->total_steps > MAXCOUNT)
        bad(c, "/run@total_steps", "%lld is out of range", (long long)r->total_steps);
    if (r->restart_every < 0 || r->restart_every > MAXCOUNT)
        bad(c, "/run@restart_every", "%lld is out of range", (long long)r->restart_every);
    const floe_output_config *o = &r->scene.out;
    check_every(c, "vtk", o->vtk);
    check_every(c, "energy", o->energy);
    check_every(c, "history", o->history);
    check_every(c, "progress", o->progress);
    if (!flag_ok(o->vtk_contacts)) bad(c, "/output_config@vtk_contacts", "%d is not 0 or 1", o->vtk_contacts);
    if (!flag_ok(o->vtk_boundaries)) bad(c, "/output_config@vtk_boundaries", "%d is not 0 or 1", o->vtk_boundaries);
    if (!flag_ok(o->vtk_shapes)) bad(c, "/output_config@vtk_shapes", "%d is not 0 or 1", o->vtk_shapes);
    if (!flag_ok(o->final_state)) bad(c, "/output_config@final_state", "%d is not 0 or 1", o->final_state);
    for (int i = 0; i < o->n_history_cols && !c->bad; i++) {
        char why[512];
        const floe_history_column *h = &o->history_cols[i];
        if (h->kind < FLOE_HIST_PARTICLE || h->kind > FLOE_HIST_PLANE)
            bad(c, "/output_config/history_columns/kind_a_b_group_energy", "column %d: kind %d is unknown", i,
                (int)h->kind);
        else if (h->kind == FLOE_HIST_REGION && !box_ok(&h->region))
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
    if (s->width < 1 || s->width > 19) bad(c, "/output@width", "%d is outside [1, 19]", s->width);
    for (int i = 0; i < 3; i++)
        if (s->csv_bytes[i] < -1 || s->csv_bytes[i] > MAXCOUNT)
            bad(c, "/output@csv_bytes", "%lld is not a length (or -1)", s->csv_bytes[i]);
    for (size_t i = 0; i < s->nframes && !c->bad; i++) {
        if (s->frame_step[i] < 0 || s->frame_step[i] > floe_step_count(w) ||
            (i > 0 && s->frame_step[i] <= s->frame_step[i - 1]))
            bad(c, "/output/frame_step", "frame %zu: step %lld is out of order or past the restart step", i,
                (long long)s->frame_step[i]);
        else if (!isfinite(s->frame_time[i])) bad(c, "/output/frame_time", "frame %zu: not finite", i);
    }
}

int floe_restart_check(const floe_restart *r, char *err, size_t errlen) {
    ck c = {err, errlen, 0};
    const floe_world *w = r->scene.world;
    if (!w) return floe_io_err(err, errlen, "no world");
    check_run(&c, r);
    return c.bad ? -1 : 0;
}
