/* The critical step the first step meets (floe_critical_dt_start): the
 * bonds and overlaps of step 0 exist only once the first contact pass has
 * run, so a copy of the world is started to find them; the world itself
 * stays as it was (a scene check must not start the run it checks). */
#include <floe/floe_snapshot.h>
#include "core/timestep.h"

#include <stdlib.h>

double floe_critical_dt_start(const floe_world *w) {
    if (w->started) return floe__crit_dt(w);
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[256];
    if (floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err)) return INFINITY;
    floe_world *copy = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    free(bytes);
    if (!copy) return INFINITY;
    floe_set_thread_tuning(copy, 0);
    double crit = floe_start(copy) == FLOE_OK ? floe__crit_dt(copy) : INFINITY;
    floe_world_destroy(copy);
    return crit;
}
