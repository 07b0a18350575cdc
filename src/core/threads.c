/* The thread count each step uses (threads.h). */
#include "core/threads.h"

#include <stdlib.h>
#include <string.h>

static int by_value(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(const double *v, int n) {
    double s[FLOE_TUNE_STEPS];
    memcpy(s, v, sizeof *v * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, by_value);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

int floe__threads_choose(const double *t1, const double *tn, int n, int ceiling) {
    if (ceiling <= 1 || n <= 0) return 1;
    /* medians: a step that rebuilt the pair list, or one the system
     * interrupted, does not decide; more threads must clearly pay, since
     * they also take a core from whatever else runs */
    return median(tn, n) < 0.95 * median(t1, n) ? ceiling : 1;
}

void floe__threads_reset(floe_world *w) {
    int fixed = w->tune.fixed;
    w->nthreads = floe__resolve_threads(w);
    memset(&w->tune, 0, sizeof w->tune);
    w->tune.fixed = fixed;
    w->tune.best = w->nthreads;
    w->tune.now = w->nthreads;
}

/* Step s of the world's count: inside a trial, which block it is in. */
static int trial_block(int64_t step) {
    int64_t s = step % FLOE_TUNE_PERIOD;
    return s < FLOE_TUNE_STEPS ? (int)(s / FLOE_TUNE_BLOCK) : -1;
}

void floe__threads_before(floe_world *w) {
    int blk = w->nthreads > 1 && !w->tune.fixed ? trial_block(w->step) : -1;
    if (blk >= 0) w->tune.now = blk % 2 ? 1 : w->nthreads;
    else w->tune.now = w->tune.fixed ? w->nthreads : w->tune.best;
}

void floe__threads_after(floe_world *w, int64_t step, double seconds) {
    int blk = w->nthreads > 1 && !w->tune.fixed ? trial_block(step) : -1;
    if (blk < 0) return;
    floe_thread_tuner *t = &w->tune;
    if (step % FLOE_TUNE_PERIOD == 0) t->n1 = t->nn = 0; /* a new trial */
    if (blk % 2) {
        if (t->n1 < FLOE_TUNE_STEPS / 2) t->t1[t->n1++] = seconds;
    } else if (t->nn < FLOE_TUNE_STEPS / 2) {
        t->tn[t->nn++] = seconds;
    }
    if (step % FLOE_TUNE_PERIOD == FLOE_TUNE_STEPS - 1) {
        int n = t->n1 < t->nn ? t->n1 : t->nn;
        t->best = floe__threads_choose(t->t1, t->tn, n, w->nthreads);
        t->trials++;
    }
}
