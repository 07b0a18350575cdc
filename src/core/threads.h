/* How many threads each step uses. The world's thread count (explicit or
 * automatic, floe__resolve_threads) is a ceiling: every TUNE_PERIOD steps,
 * and sooner when the contact count has halved or doubled, a short trial
 * runs steps alternately on 1 thread and on the ceiling, and the faster
 * count takes the steps until the next trial. Results do not
 * depend on the thread count (every parallel sum has a fixed order), so the
 * choice only changes speed: on a machine another process keeps busy, a
 * second thread that waits for a descheduled core is dropped instead of
 * slowing every step (docs/decisions.md#the-thread-count-is-a-ceiling). */
#ifndef FLOE_CORE_THREADS_H
#define FLOE_CORE_THREADS_H

#include "core/world.h"

enum {
    FLOE_TUNE_PERIOD = 2048, /* steps from one trial to the next */
    FLOE_TUNE_BLOCK = 8,     /* steps in a row on one count during a trial */
    FLOE_TUNE_STEPS = 64     /* steps of a trial: blocks alternating ceiling, 1, ceiling, ... */
};

/* Resolves the ceiling (w->nthreads) and starts the tuner afresh. */
void floe__threads_reset(floe_world *w);
/* Before a step: the count this step uses (w->tune.now). Returns 1 if the
 * step belongs to a trial, whose time floe__threads_after wants. */
int floe__threads_before(floe_world *w);
/* After the step that began at `step` and took `seconds` of wall time. */
void floe__threads_after(floe_world *w, int64_t step, double seconds);
/* The count the trial's samples choose: the ceiling if its median step is
 * at least 5 % shorter than on 1 thread, else 1 (pure: tests call it). */
int floe__threads_choose(const double *t1, const double *tn, int n, int ceiling);

#endif
