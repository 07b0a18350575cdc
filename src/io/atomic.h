/* Replacing a file whole: the new content goes to a temporary beside it,
 * which is renamed over it once complete, so that a reader (ParaView, a
 * script, a resumed run) sees the old file or the new one, never a part,
 * even when the run is killed (docs/decisions.md, "One atomic file
 * replace"). The writers of particles.csv, contacts.csv and the .pvd
 * collections use it; the restart writer's temporary has its own name
 * (a hidden file its rotation finds), so it calls floe_io_replace_finish
 * alone. */
#ifndef FLOE_IO_ATOMIC_H
#define FLOE_IO_ATOMIC_H

#include <stddef.h>

/* Flags of floe_io_replace_finish. FLOE_IO_DURABLE: fsync the temporary
 * before the rename and the directory after it, so that the new file
 * survives a power cut; without it the replacement is atomic for readers
 * but the kernel writes it out in its own time. */
enum { FLOE_IO_DURABLE = 1 };

/* Puts the temporary's name, PATH.tmp, into tmp (tmplen bytes) and removes
 * whatever is there: the leftover of a killed run, or a link, which is
 * replaced, never written through. The caller then creates tmp (O_EXCL),
 * writes and closes it. 0, or -1 with "PATH: path too long" in err. */
int floe_io_replace_begin(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen);

/* Ends a replacement whose temporary the caller has written and closed.
 * ok: the temporary is complete; it is renamed over `path` (synced first
 * and after with FLOE_IO_DURABLE) and 0 is returned. Not ok (err already
 * holds the caller's message), or the sync or the rename fails (then
 * "cannot sync TMP: why" or "cannot rename TMP to PATH: why" in err): the
 * temporary is removed and -1 returned; `path` keeps its old content. */
int floe_io_replace_finish(const char *tmp, const char *path, int ok, int flags, char *err, size_t errlen);

#endif
