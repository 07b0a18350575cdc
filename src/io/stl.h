/* STL triangle meshes, ASCII and binary.
 *
 * The reader never trusts the file: counts are checked against the file size
 * before allocating, every number must be finite, and malformed files give a
 * message naming the file and the position (line:col for ASCII, triangle
 * index / byte offset for binary). Normals stored in the file are ignored. */
#ifndef FLOE_IO_STL_H
#define FLOE_IO_STL_H

#include <stddef.h>

#include <floe/floe.h>

typedef struct floe_stl {
    floe_vec3 *v; /* 3 * n_tri vertices, triangle t is v[3t], v[3t+1], v[3t+2] */
    size_t n_tri;
    int binary; /* 1 if the file was binary */
} floe_stl;

/* Reads `path`. Returns 0 on success; otherwise non-zero, *out zeroed and a
 * message in err ("path:line:col: ..." for ASCII, "path: ..." otherwise). */
int floe_stl_read(const char *path, floe_stl *out, char *err, size_t errlen);
/* Same, from memory (`name` is used in messages). */
int floe_stl_parse(const char *name, const unsigned char *buf, size_t len, floe_stl *out, char *err, size_t errlen);
void floe_stl_free(floe_stl *s);

#endif
