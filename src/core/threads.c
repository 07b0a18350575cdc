/* The thread count each step uses (threads.h). */
#include "core/threads.h"

#include <stdlib.h>
#include <string.h>

/* world.h holds the samples without this header's constants */
_Static_assert(sizeof((floe_thread_tuner *)0)->t1 / sizeof(double) == FLOE_TUNE_STEPS / 2 &&
                   sizeof((floe_thread_tuner *)0)->tn / sizeof(double) == FLOE_TUNE_STEPS / 2,
               "floe_thread_tuner holds half a trial's steps on each count");

static double sum(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

/* The sum without the largest 1 in 16 samples, at least one: 2 of a
 * trial's 32, the steps that rebuilt the pair list (every 30 steps or so
 * in a settling packing, 1.5 ms against 0.15) or that the system held up
 * once, which fall into either count's samples by chance and would decide
 * alone; a busy machine's long steps come far more often and still count. */
static double trimmed_sum(const double *v, int n) {
    double s = sum(v, n);
    unsigned char out[FLOE_TUNE_STEPS] = {0};
    for (int k = 0; k < (n + 15) / 16; k++) {
        int m = -1;
        for (int i = 0; i < n; i++)
            if (!out[i] && (m < 0 || v[i] > v[m])) m = i;
        out[m] = 1;
        s -= v[m];
    }
    return s;
}

int floe__threads_lose(const double *t1, const double *tn, int n) {
    return n > 1 && trimmed_sum(tn, n) > 2 * trimmed_sum(t1, n);
}

int floe__threads_choose(const double *t1, const double *tn, int n, int ceiling) {
    if (ceiling <= 1 || n <= 0) return 1;
    /* sums, i.e. means: the wall time a run sees. On a busy machine most
     * steps of two threads are short and a few wait many times as long
     * for a descheduled thread; a median hides those (settle 10k beside a
     * busy process: medians 90 against 166 us, means 200 against 177).
     * More threads must clearly pay, since they also take a core from
     * whatever else runs. */
    return trimmed_sum(tn, n) < 0.95 * trimmed_sum(t1, n) ? ceiling : 1;
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
    w->tune.room = w->nthreads;
    w->tune.hold = FLOE_TUNE_STEPS;
    w->tune.others = -1;
    w->tune.since = floe__cpu_sample();
}

int floe__threads_room(int ceiling, int cores, double others) {
    if (others < 0) return ceiling; /* unknown */
    int room = cores - (int)(others + 0.5);
    return room < 1 ? 1 : room < ceiling ? room : ceiling;
}

/* A trial's choice. The work may swing (below): grains raining onto a
 * floor make and lose thousands of contacts in a few dozen steps, and
 * settle 100k ran 19 trials in 2000 steps, a third of its steps on one
 * thread, each trial choosing the ceiling again. So a trial that confirms
 * the count before it doubles the steps (hold) until a change of the work
 * may start the next, up to the period; one that changes the count resets
 * them. */
void floe__threads_decided(floe_thread_tuner *t, int best) {
    t->hold = best == t->best ? (2 * t->hold < FLOE_TUNE_PERIOD ? 2 * t->hold : FLOE_TUNE_PERIOD) : FLOE_TUNE_STEPS;
    t->best = best;
    t->trials++;
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
    /* one thread until the first reading of the others' use is due: a
     * trial blind to them would offer the ceiling, and beside a busy
     * process each of its steps on the ceiling may wait a whole time slice
     * (settle 10k took 0.50-0.55 s on 2 threads against 0.39-0.41 s on
     * one, with 5-7 such trials; docs/performance.md, Threads). Without
     * /proc/stat the trials run blind. */
    if (t->others < 0 && t->since.ok && floe__cpu_wall() - t->since.wall < FLOE_TUNE_FIRST_READING) {
        t->now = 1;
        return 0;
    }
    int64_t s = w->step - t->start;
    /* a new trial: the first, then every period, and when the work changed */
    if (t->start < 0 || s >= FLOE_TUNE_PERIOD || (s >= t->hold && work_changed(w))) {
        t->start = w->step;
        t->n1 = t->nn = 0;
        t->cut_short = 0;
        t->ncon0 = w->ncon;
        s = 0;
        /* what other processes used since the last reading at least
         * FLOE_TUNE_READING ago (a nearer trial keeps that reading's
         * answer): a team larger than the cores they leave waits for the
         * scheduler every step, which a trial of a few ms does not see (the
         * scheduler shares the cores out over longer times), so it is not
         * offered */
        floe_cpu_sample now = floe__cpu_sample();
        double others = floe__cpu_others(t->since, now, t->others < 0 ? FLOE_TUNE_FIRST_READING : FLOE_TUNE_READING);
        if (others >= 0 || !now.ok) { /* a failed reading ends the readings */
            t->others = others;
            t->since = now;
        }
        t->room = floe__threads_room(w->nthreads, floe__cpu_count(), t->others);
        if (t->room <= 1) {
            floe__threads_decided(t, 1);
            t->cut_short = 1;
        }
    }
    if (s >= FLOE_TUNE_STEPS || t->cut_short) {
        t->now = t->best;
        return 0;
    }
    t->now = s / FLOE_TUNE_BLOCK % 2 ? 1 : t->room;
    return 1;
}

void floe__threads_after(floe_world *w, int64_t step, double seconds) {
    floe_thread_tuner *t = &w->tune;
    int64_t s = step - t->start;
    if (w->nthreads <= 1 || t->fixed || t->start < 0 || s < 0 || s >= FLOE_TUNE_STEPS || t->cut_short) return;
    if (t->now == 1) {
        if (t->n1 < FLOE_TUNE_STEPS / 2) t->t1[t->n1++] = seconds;
    } else if (t->nn < FLOE_TUNE_STEPS / 2) {
        t->tn[t->nn++] = seconds;
    }
    int n = t->n1 < t->nn ? t->n1 : t->nn;
    if (s == FLOE_TUNE_STEPS - 1) {
        floe__threads_decided(t, floe__threads_choose(t->t1, t->tn, n, t->room));
    } else if (s % (2 * FLOE_TUNE_BLOCK) == 2 * FLOE_TUNE_BLOCK - 1 && floe__threads_lose(t->t1, t->tn, n)) {
        /* beside a busy process each step of the ceiling may wait a whole
         * time slice (3-4 ms against 0.2): stop the trial after a block
         * of each rather than pay for 24 more such steps */
        floe__threads_decided(t, 1);
        t->cut_short = 1;
    }
}
