/* stream: the machine's memory bandwidth, for the arithmetic of
 * docs/performance.md (bytes a contact moves per step against what memory
 * delivers). Three loops over arrays far larger than the caches, as in
 * McCalpin's STREAM: read (sum), copy and triad (a = b + s c), each timed
 * at its best of several passes, with 1 thread and with every thread.
 *
 *   cc -O2 -fopenmp bench/stream.c -o stream && ./stream [MB per array]
 *
 * Bytes counted are those the loop names (triad: 3 x 8 per element; a
 * write-allocate read of `a` is not counted, as in STREAM). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double best_of(int passes, int threads, int which, double *a, const double *b, const double *c, size_t n,
                      double *sink) {
    double best = 1e30;
    for (int p = 0; p < passes; p++) {
        double t0 = omp_get_wtime(), s = 0;
        if (which == 0) {
            /* four partial sums: one chain of dependent adds would measure
             * the adder's latency, not memory */
#pragma omp parallel for num_threads(threads) reduction(+ : s) schedule(static)
            for (size_t i = 0; i < n / 4; i++) s += (b[4 * i] + b[4 * i + 1]) + (b[4 * i + 2] + b[4 * i + 3]);
        } else if (which == 1) {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (size_t i = 0; i < n; i++) a[i] = b[i];
        } else {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
        }
        double t = omp_get_wtime() - t0;
        *sink += s + a[p % n];
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv) {
    size_t mb = argc > 1 ? (size_t)atol(argv[1]) : 256;
    size_t n = mb * 1024 * 1024 / sizeof(double);
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "stream: cannot allocate 3 x %zu MB\n", mb);
        return 1;
    }
    int nt = omp_get_max_threads();
    /* first touch by the threads that will use the pages */
#pragma omp parallel for num_threads(nt) schedule(static)
    for (size_t i = 0; i < n; i++) a[i] = 0, b[i] = 1, c[i] = 2;
    static const char *name[] = {"read", "copy", "triad"};
    static const double words[] = {1, 2, 3};
    double sink = 0;
    printf("stream: %zu MB per array, best of 10 passes\n", mb);
    for (int th = 1; th <= nt; th = th == nt ? nt + 1 : nt)
        for (int which = 0; which < 3; which++) {
            double t = best_of(10, th, which, a, b, c, n, &sink);
            printf("%-5s threads=%d  %.2f GB/s\n", name[which], th, words[which] * 8.0 * (double)n / t / 1e9);
        }
    free(a);
    free(b);
    free(c);
    return sink == 42 ? 2 : 0; /* keeps the sums alive */
}
