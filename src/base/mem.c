#include "base/mem.h"

#include <stdlib.h>

int floe__grow(void **p, int *cap, int need, size_t elem) {
    if (need <= *cap) return 1;
    int n = *cap ? *cap : 16;
    while (n < need) n = n > (1 << 29) ? need : 2 * n;
    void *q = realloc(*p, (size_t)n * elem);
    if (!q) return 0;
    *p = q;
    *cap = n;
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
