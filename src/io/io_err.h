/* The readers' and writers' error messages: formatted into the caller's
 * buffer (if any); and the checks every reader makes before reading. */
#ifndef FLOE_IO_IO_ERR_H
#define FLOE_IO_IO_ERR_H

#include <stddef.h>
#include <stdio.h>

/* Writes the message into err (errlen bytes, may be NULL) and returns -1. */
int floe_io_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* open(2) of an output file for writing (flags: O_WRONLY or O_RDWR, with
 * O_CREAT, O_TRUNC, O_EXCL as needed) that never follows a symbolic link at
 * `path`: a link there is refused with a message naming it. Returns the
 * descriptor (close-on-exec), or -1 with "cannot write PATH: why" in err. */
int floe_io_open_out(const char *path, int flags, char *err, size_t errlen);

/* Checks, before anything is read, that `path` is a regular file of at most
 * max_bytes bytes (<= 0: any size): a device such as /dev/zero never ends and
 * a FIFO blocks. Returns 0, or an errno value (stat's; EINVAL: not a regular
 * file; EFBIG: too large) with the reason in why ("No such file or
 * directory", "it is a character device ..., not a regular file", ...). */
int floe_io_input_file(const char *path, double max_bytes, char *why, size_t len);

/* Reads the rest of the stream f into a new buffer (free it; not NULL for
 * an empty file) of *len bytes. A file that fills max_bytes is refused
 * (EFBIG: it grew after floe_io_input_file checked it). NULL on failure,
 * with an errno value in *err_no: EFBIG, ENOMEM, or the read error's (EIO
 * if it has none); *len is then what was read before. */
unsigned char *floe_io_read_all(FILE *f, size_t max_bytes, size_t *len, int *err_no);

/* Quotes text taken from an input file for a message: 'text', at most
 * FLOE_IO_QUOTE_MAX characters (then "..."), bytes other than printable
 * ASCII shown as '?'. Messages never echo more of a file than this, whatever
 * the file is. Returns buf. */
#define FLOE_IO_QUOTE_MAX 32
const char *floe_io_quote(char *buf, size_t len, const char *text);

#endif
