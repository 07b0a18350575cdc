#include "io/atomic.h"
#include "io/io_err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int floe_io_replace_begin(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen) {
    if ((size_t)snprintf(tmp, tmplen, "%s.tmp", path) >= tmplen)
        return floe_io_err(err, errlen, "%s: path too long", path);
    unlink(tmp);
    return 0;
}

/* fsync of a file or directory opened read-only (flags: O_DIRECTORY for a
 * directory); 0 or -1 with errno set. */
static int sync_path(const char *path, int flags) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0) return -1;
    int rc = fsync(fd), e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* The directory holding `path`, synced so that a rename in it is on disk;
 * a failure here leaves the new file in place and is not reported. */
static void sync_dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) < sizeof dir) snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else return;
    sync_path(dir, O_DIRECTORY);
}

int floe_io_replace_finish(const char *tmp, const char *path, int ok, int flags, char *err, size_t errlen) {
    if (ok && (flags & FLOE_IO_DURABLE) && sync_path(tmp, 0) != 0) {
        floe_io_err(err, errlen, "cannot sync %s: %s", tmp, strerror(errno));
        ok = 0;
    }
    if (ok && rename(tmp, path) != 0) {
        floe_io_err(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        ok = 0;
    }
    if (!ok) {
        remove(tmp);
        return -1;
    }
    if (flags & FLOE_IO_DURABLE) sync_dir_of(path);
    return 0;
}
