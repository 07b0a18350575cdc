/* How many threads each step uses. The world's thread count (explicit or
 * automatic, floe__resolve_threads) is a ceiling: every TUNE_PERIOD steps,
 * and sooner when the contact count has halved or doubled (not within the
 * hold after a trial, which each trial that confirms the count doubles),
 * a short trial
 * runs steps alternately on 1 thread and on the ceiling, and the count
 * with the shorter mean step takes the steps until the next trial (a
 * ceiling that clearly loses ends the trial early). A trial offers no more
 * threads than the cores other processes left free since the last one, and
 * none runs before the first such reading (1 thread until then). Results do not
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
/* Seconds between two readings of the other processes' CPU use (/proc/stat
 * counts in hundredths of a second per core), and from the start to the
 * first, before which steps run on 1 thread: long enough to tell a core
 * kept busy from an idle one (5 hundredths against 0, +-2), short beside a
 * run's length. */
#define FLOE_TUNE_READING 0.2
#define FLOE_TUNE_FIRST_READING 0.05

/* Resolves the ceiling (w->nthreads) and starts the tuner afresh. */
void floe__threads_reset(floe_world *w);
/* Before a step: the count this step uses (w->tune.now). Returns 1 if the
 * step belongs to a trial, whose time floe__threads_after wants. */
int floe__threads_before(floe_world *w);
/* After the step that began at `step` and took `seconds` of wall time. */
void floe__threads_after(floe_world *w, int64_t step, double seconds);
/* The count the trial's samples choose: the ceiling if its mean step is
 * at least 5 % shorter than on 1 thread, else 1 (pure: tests call it). */
int floe__threads_choose(const double *t1, const double *tn, int n, int ceiling);
/* Records a trial's choice `best`: the trials' count, and the steps
 * (hold) before a change of the work may start the next trial, doubled
 * up to the period when the choice is the one before, else reset to a
 * trial's length (pure on *t: tests call it). */
void floe__threads_decided(floe_thread_tuner *t, int best);
/* The most threads worth offering: the cores that other processes leave
 * (`others`: the cores they kept busy on average, -1 unknown), at least 1,
 * at most the ceiling (pure: tests call it). */
int floe__threads_room(int ceiling, int cores, double others);
/* Whether the ceiling's samples so far clearly lose: over twice the time
 * of as many steps on 1 thread, the longest of each left out; the trial
 * then ends early on 1 thread. */
int floe__threads_lose(const double *t1, const double *tn, int n);

/* The blocks [*b0, *b1) of FLOE_BLOCK bodies thread t of nt takes in every
 * loop over the bodies (integrator, broad phase, force merge): contiguous
 * ranges of equal estimated work (bp.load, set by the contact sort), or of
 * equal numbers of blocks before the first sort. The same bodies stay with
 * the same thread from one pass to the next, so their data stays in its
 * core's cache. The cut decides where work runs, never a result. */
void floe__thread_blocks(const floe_world *w, int t, int nt, int *b0, int *b1);
/* Where thread t of nt begins in the cumulative work load[0..nb]: the
 * block boundary whose load is nearest t / nt of the whole (pure: the
 * contact sort uses it for the cut between the contact parts). */
int floe__work_cut(const double *load, int nb, int t, int nt);

#endif
