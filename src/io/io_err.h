/* The readers' and writers' error messages: formatted into the caller's
 * buffer (if any). */
#ifndef FLOE_IO_IO_ERR_H
#define FLOE_IO_IO_ERR_H

#include <stddef.h>

/* Writes the message into err (errlen bytes, may be NULL) and returns -1. */
int floe_io_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
