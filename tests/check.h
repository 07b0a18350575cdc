/* Minimal test helpers: every CHECK prints what failed and where; the test
 * executable returns non-zero if any check failed. */
#ifndef FLOE_TEST_CHECK_H
#define FLOE_TEST_CHECK_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            check_failures++;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* |got - want| <= tol (absolute). */
#define CHECK_NEAR(got, want, tol)                                                                                \
    do {                                                                                                          \
        double g_ = (got), w_ = (want), t_ = (tol);                                                               \
        if (!(fabs(g_ - w_) <= t_)) {                                                                             \
            check_failures++;                                                                                     \
            fprintf(stderr, "%s:%d: %s = %.12g, expected %.12g +- %.3g\n", __FILE__, __LINE__, #got, g_, w_, t_); \
        }                                                                                                         \
    } while (0)

/* relative error <= rel */
#define CHECK_REL(got, want, rel)                                                                                     \
    do {                                                                                                              \
        double g_ = (got), w_ = (want), r_ = (rel);                                                                   \
        if (!(fabs(g_ - w_) <= r_ * fabs(w_))) {                                                                      \
            check_failures++;                                                                                         \
            fprintf(stderr, "%s:%d: %s = %.12g, expected %.12g (rel %.3g, got rel %.3g)\n", __FILE__, __LINE__, #got, \
                    g_, w_, r_, fabs(g_ - w_) / fabs(w_));                                                            \
        }                                                                                                             \
    } while (0)

#define REPORT(...)          \
    do {                     \
        printf(__VA_ARGS__); \
        fflush(stdout);      \
    } while (0)

/* Whole file in a NUL-terminated buffer (free it); NULL if unreadable. */
static inline char *check_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    size_t got = b ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    if (b) b[got] = 0;
    if (len) *len = got;
    return b;
}

/* Writes `text` to the file `path`; exits with status 2 if it cannot. */
static inline void check_write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

/* Writes `text` to dir/name; returns the path, built in path[len]. */
static inline const char *check_write_tmp(const char *dir, const char *name, const char *text, char *path, size_t len) {
    snprintf(path, len, "%s/%s", dir, name);
    check_write_file(path, text);
    return path;
}

/* 1 if the files a and b hold the same bytes (both readable); otherwise 0,
 * naming them on stderr. */
static inline int check_same_file(const char *a, const char *b) {
    size_t la = 0, lb = 0;
    char *x = check_slurp(a, &la), *y = check_slurp(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    if (!same) fprintf(stderr, "%s differs from %s\n", b, a);
    free(x);
    free(y);
    return same;
}

/* How many entries of `dir` have a name that starts with `prefix`. */
static inline int check_count_prefix(const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d) closedir(d);
    return n;
}

#define CHECK_DONE() (check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1) : 0)

#endif
