/* Memory helpers of the whole engine: growing arrays, reusable work
 * buffers and a growing text buffer. */
#ifndef FLOE_BASE_MEM_H
#define FLOE_BASE_MEM_H

#include <stdarg.h>
#include <stddef.h>

/* Grows *p to hold at least `need` elements (amortised doubling); 1, or 0
 * when out of memory (*p and *cap unchanged). */
int floe__grow(void **p, int *cap, int need, size_t elem);
/* The same for counts in size_t (byte buffers, tables read from files);
 * 0 also when need * elem does not fit in a size_t. */
int floe__grow_size(void **p, size_t *cap, size_t need, size_t elem);
/* The capacity an array of `cap` elements grows to so that it holds `need`
 * (cap itself if it does): doubled from cap (16 if 0), or `need` itself
 * once doubling would pass `max`. For arrays that share one capacity and
 * are grown together (the particles' structure of arrays). */
size_t floe__grown(size_t cap, size_t need, size_t max);
/* A work buffer of at least `bytes` in *buf (of *size bytes), grown only
 * when too small, so that it is reused from step to step; NULL when out of
 * memory (*buf unchanged). */
void *floe__reserve(void **buf, size_t *size, size_t bytes);

/* A growing text buffer (zero-initialise it; floe__buf_free releases it).
 * Appends never fail loudly: an append that cannot be done (out of memory,
 * a bad format) sets `bad` and every later append does nothing, so a
 * writer checks once, at the end of a line or a document. */
typedef struct floe_buf {
    char *s;    /* the text, 0-terminated; NULL until the first append */
    size_t len; /* bytes of text */
    size_t cap; /* bytes allocated */
    int bad;    /* an append failed: the text misses data */
} floe_buf;

void floe__buf_printf(floe_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void floe__buf_vprintf(floe_buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Appends n bytes of data (which need not be text). */
void floe__buf_append(floe_buf *b, const void *data, size_t n);
/* Empties the buffer (keeping its memory) and clears `bad`. */
void floe__buf_reset(floe_buf *b);
void floe__buf_free(floe_buf *b);

#endif
