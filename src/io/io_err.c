#include "io/io_err.h"
#include "base/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
        return floe_io_err(err, errlen,
                           "cannot write %s: it is a symbolic link (floe does not write through "
                           "links inside its output directory; remove the link)",
                           path);
    return floe_io_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
}

int floe_io_input_file(const char *path, double max_bytes, char *why, size_t len) {
    struct stat st;
    if (stat(path, &st) != 0) {
        int e = errno;
        floe_io_err(why, len, "%s", strerror(e));
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        const char *kind = S_ISDIR(st.st_mode)    ? "a directory"
                           : S_ISCHR(st.st_mode)  ? "a character device (such as /dev/zero)"
                           : S_ISBLK(st.st_mode)  ? "a block device"
                           : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                                                  : "a socket or other special file";
        floe_io_err(why, len, "it is %s, not a regular file", kind);
        return EINVAL;
    }
    if (max_bytes > 0 && (double)st.st_size > max_bytes) {
        floe_io_err(why, len, "it has %lld bytes, more than the limit of %.0f bytes (%.3g GiB)", (long long)st.st_size,
                    max_bytes, max_bytes / (1024.0 * 1024 * 1024));
        return EFBIG;
    }
    return 0;
}

unsigned char *floe_io_read_all(FILE *f, size_t max_bytes, size_t *len, int *err_no) {
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    *err_no = 0;
    for (;;) {
        if (n == cap) {
            if (cap >= max_bytes) {
                *err_no = EFBIG;
                break;
            }
            if (!floe__grow_size((void **)&buf, &cap, cap ? 2 * cap : (size_t)1 << 16, 1)) {
                *err_no = ENOMEM;
                break;
            }
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) *err_no = errno ? errno : EIO;
            break;
        }
    }
    *len = n;
    if (*err_no) {
        free(buf);
        return NULL;
    }
    return buf;
}

const char *floe_io_quote(char *buf, size_t len, const char *text) {
    /* 4 bytes per character at most (UTF-8); a sequence is never cut */
    char q[4 * FLOE_IO_QUOTE_MAX + 1];
    size_t n = 0, chars = 0, i = 0;
    for (; text[i]; i++) {
        unsigned char c = (unsigned char)text[i];
        int lead = (c & 0xC0) != 0x80;
        if (lead && chars == FLOE_IO_QUOTE_MAX) break;
        if (n + 1 >= sizeof q) break;
        chars += lead;
        q[n++] = c < 0x20 || c == 0x7f ? '?' : (char)c; /* no control characters on a terminal */
    }
    q[n] = 0;
    snprintf(buf, len, "'%s%s'", q, text[i] ? "..." : "");
    return buf;
}
