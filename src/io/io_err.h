/* The readers' and writers' error messages: formatted into the caller's
 * buffer (if any). */
#ifndef FLOE_IO_IO_ERR_H
#define FLOE_IO_IO_ERR_H

#include <stddef.h>

/* Writes the message into err (errlen bytes, may be NULL) and returns -1. */
int floe_io_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* open(2) of an output file for writing (flags: O_WRONLY or O_RDWR, with
 * O_CREAT, O_TRUNC, O_EXCL as needed) that never follows a symbolic link at
 * `path`: a link there is refused with a message naming it. Returns the
 * descriptor (close-on-exec), or -1 with "cannot write PATH: why" in err. */
int floe_io_open_out(const char *path, int flags, char *err, size_t errlen);

#endif
