/* The thread count each step uses (threads.h). */
#include "core/threads.h"

#include <stdlib.h>
#include <string.h>

/* world.h holds the samples without this header's constants */
_Static_assert(sizeof((floe_thread_tuner *)0)->t1 / sizeof(double) == FLOE_TUNE_STEPS / 2 &&
                   sizeof((floe_thread_tuner *)0)->tn / sizeof(double) == FLOE_TUNE_STEPS / 2,
               "floe_thread_tuner holds half a trial's steps on each count");

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

int floe__work_cut(const double *load, int nb, int t, int nt) {
    if (t <= 0 || nb <= 0) return 0;
    if (t >= nt) return nb;
    const double target = load[nb] * t / nt;
    int lo = 0, hi = nb; /* the first boundary whose load reaches the target */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (load[mid] >= target) hi = mid;
        else lo = mid + 1;
    }
    return lo > 0 && target - load[lo - 1] < load[lo] - target ? lo - 1 : lo;
}

void floe__thread_blocks(const floe_world *w, int t, int nt, int *b0, int *b1) {
    const int nb = (w->np + FLOE_BLOCK - 1) / FLOE_BLOCK;
    if (w->bp.load && w->bp.load_nb == nb && w->bp.load[nb] > 0) {
        *b0 = floe__work_cut(w->bp.load, nb, t, nt);
        *b1 = floe__work_cut(w->bp.load, nb, t + 1, nt);
        if (*b1 < *b0) *b1 = *b0;
        return;
    }
    /* as schedule(static) cuts nb iterations */
    int q = nb / nt, r = nb % nt;
    *b0 = t * q + (t < r ? t : r);
    *b1 = *b0 + q + (t < r);
}

void floe__threads_reset(floe_world *w) {
    int fixed = w->tune.fixed;
    w->nthreads = floe__resolve_threads(w);
    memset(&w->tune, 0, sizeof w->tune);
    w->tune.fixed = fixed;
    w->tune.best = w->nthreads;
    w->tune.now = w->nthreads;
    w->tune.start = -1; /* the next step starts a trial */
}

/* Whether the work of a step has changed since the last trial: the contact
 * count halved or doubled (a packing settling, a flow starting). The first
 * trial of a run may see bodies falling freely, where a second thread does
 * not pay; the choice must follow the work. */
static int work_changed(const floe_world *w) {
    int c0 = w->tune.ncon0;
    return w->ncon > 2 * c0 + 256 || w->ncon < c0 / 2 - 256;
}

int floe__threads_before(floe_world *w) {
    floe_thread_tuner *t = &w->tune;
    if (w->nthreads <= 1 || t->fixed) {
        t->now = w->nthreads;
        return 0;
    }
    int64_t s = w->step - t->start;
    if (t->start < 0 || s >= FLOE_TUNE_PERIOD || (s >= FLOE_TUNE_STEPS && work_changed(w))) { /* a new trial */
        t->start = w->step;
        t->n1 = t->nn = 0;
        t->ncon0 = w->ncon;
        s = 0;
    }
    if (s >= FLOE_TUNE_STEPS) {
        t->now = t->best;
        return 0;
    }
    t->now = s / FLOE_TUNE_BLOCK % 2 ? 1 : w->nthreads;
    return 1;
}

void floe__threads_after(floe_world *w, int64_t step, double seconds) {
    floe_thread_tuner *t = &w->tune;
    int64_t s = step - t->start;
    if (w->nthreads <= 1 || t->fixed || t->start < 0 || s < 0 || s >= FLOE_TUNE_STEPS) return;
    if (t->now == 1) {
        if (t->n1 < FLOE_TUNE_STEPS / 2) t->t1[t->n1++] = seconds;
    } else if (t->nn < FLOE_TUNE_STEPS / 2) {
        t->tn[t->nn++] = seconds;
    }
    if (s == FLOE_TUNE_STEPS - 1) {
        int n = t->n1 < t->nn ? t->n1 : t->nn;
        t->best = floe__threads_choose(t->t1, t->tn, n, w->nthreads);
        t->trials++;
    }
}
