/* The snapshot in memory (snapshot_bytes.c): a self-contained byte form of
 * its items, for pickling a world from Python and sending worlds between
 * processes (docs/architecture.md#the-snapshot-of-the-world). */
#ifndef FLOE_CORE_SNAPSHOT_BYTES_H
#define FLOE_CORE_SNAPSHOT_BYTES_H

#include "core/world.h"

#include <stddef.h>

/* The snapshot in a self-contained binary form (malloc'd, free() it; doc
 * items left out). 0, or -1 with err. */
int floe__snapshot_to_bytes(const floe_world *w, unsigned char **bytes, size_t *len, char *err, size_t errlen);
/* A new world from floe__snapshot_to_bytes's bytes; NULL with err. */
floe_world *floe__snapshot_from_bytes(const unsigned char *bytes, size_t len, char *err, size_t errlen);

#endif
