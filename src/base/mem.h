/* Memory helpers of the whole engine: growing arrays and reusable work
 * buffers. */
#ifndef FLOE_BASE_MEM_H
#define FLOE_BASE_MEM_H

#include <stddef.h>

/* Grows *p to hold at least `need` elements (amortised doubling); 1, or 0
 * when out of memory (*p and *cap unchanged). */
int floe__grow(void **p, int *cap, int need, size_t elem);
/* A work buffer of at least `bytes` in *buf (of *size bytes), grown only
 * when too small, so that it is reused from step to step; NULL when out of
 * memory (*buf unchanged). */
void *floe__reserve(void **buf, size_t *size, size_t bytes);

#endif
