#include "base/mem.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t floe__grown(size_t cap, size_t need, size_t max) {
    if (need <= cap) return cap;
    size_t n = cap ? cap : 16;
    while (n < need) {
        if (n > max / 2) return need; /* doubling would pass max */
        n *= 2;
    }
    return n;
}

/* *p resized to n elements; 0 (nothing changed) when out of memory or when
 * n * elem does not fit in a size_t. */
static int resize(void **p, size_t n, size_t elem) {
    if (elem && n > SIZE_MAX / elem) return 0;
    void *q = realloc(*p, n * elem);
    if (!q) return 0;
    *p = q;
    return 1;
}

int floe__grow_size(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 1;
    size_t n = floe__grown(*cap, need, elem ? SIZE_MAX / elem : SIZE_MAX);
    if (!resize(p, n, elem)) return 0;
    *cap = n;
    return 1;
}

int floe__grow(void **p, int *cap, int need, size_t elem) {
    if (need <= *cap) return 1;
    size_t n = floe__grown((size_t)*cap, (size_t)need, INT_MAX);
    if (!resize(p, n, elem)) return 0;
    *cap = (int)n;
    return 1;
}

void *floe__reserve(void **buf, size_t *size, size_t bytes) {
    if (bytes > *size) {
        void *p = realloc(*buf, bytes);
        if (!p) return NULL;
        *buf = p;
        *size = bytes;
    }
    return *buf;
}

void floe__buf_vprintf(floe_buf *b, const char *fmt, va_list ap) {
    if (b->bad) return;
    for (;;) {
        size_t room = b->cap - b->len;
        va_list aq;
        va_copy(aq, ap);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, aq);
        va_end(aq);
        if (n < 0) break;
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        if (!floe__grow_size((void **)&b->s, &b->cap, b->len + (size_t)n + 1, 1)) break;
    }
    if (b->s) b->s[b->len] = 0; /* a cut-off attempt may have written there */
    b->bad = 1;
}

void floe__buf_printf(floe_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    floe__buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void floe__buf_append(floe_buf *b, const void *data, size_t n) {
    if (b->bad) return;
    if (!floe__grow_size((void **)&b->s, &b->cap, b->len + n + 1, 1)) {
        b->bad = 1;
        return;
    }
    memcpy(b->s + b->len, data, n);
    b->len += n;
    b->s[b->len] = 0;
}

void floe__buf_reset(floe_buf *b) {
    b->len = 0;
    b->bad = 0;
    if (b->s) b->s[0] = 0;
}

void floe__buf_free(floe_buf *b) {
    free(b->s);
    *b = (floe_buf){0};
}
