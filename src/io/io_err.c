#include "io/io_err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int floe_io_err(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int floe_io_open_out(const char *path, int flags, char *err, size_t errlen) {
    int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return fd;
    if (errno == ELOOP)
        return floe_io_err(err, errlen, "cannot write %s: it is a symbolic link (floe does not write through "
                                        "links inside its output directory; remove the link)", path);
    return floe_io_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
}
