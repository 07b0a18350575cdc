/* VTK XML writers for ParaView: particles (.vtu, one vertex cell per
 * particle), contacts (.vtp, one line per contact), boundaries (.vtp, walls
 * as quads and facets as triangles), shapes (.vtp, capsules, ellipsoids and
 * infinite cylinders as triangle surfaces), and .pvd collections that tie the
 * frames of a series together. Binary data is raw appended with UInt64
 * block headers in the host byte order. Arrays and units: docs/outputs.md. */
#ifndef FLOE_IO_VTK_H
#define FLOE_IO_VTK_H

#include <stddef.h>
#include <floe/floe.h>

/* Scratch buffers reused from frame to frame, plus the set of contact models
 * seen so far (their state arrays stay in every later contacts frame). */
typedef struct floe_vtk floe_vtk;

floe_vtk *floe_vtk_create(void);
void floe_vtk_destroy(floe_vtk *v);

/* Each writes one complete file at `path` and returns 0, or -1 with a
 * message in err. */
int floe_vtk_write_particles(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen);
int floe_vtk_write_contacts(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen);
int floe_vtk_write_boundaries(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen);
/* Capsules, ellipsoids and infinite cylinders as triangulated surfaces (.vtp). */
int floe_vtk_write_shapes(floe_vtk *v, const char *path, const floe_world *w, char *err, size_t errlen);
/* Number of capsules, ellipsoids and infinite cylinders: whether a shapes
 * series has anything to show. */
int floe_vtk_shape_count(const floe_world *w);

/* Contact models (registry index) whose state arrays the contacts frames
 * carry; a resumed run restores the set so that its frames keep the same
 * arrays. set returns 0, or -1 when out of memory. */
int floe_vtk_model_seen(const floe_vtk *v, int model);
int floe_vtk_set_model_seen(floe_vtk *v, int model);

/* A .pvd collection. Every floe_pvd_add rewrites the whole file through a
 * temporary and rename(), so the .pvd on disk is always complete. */
typedef struct floe_pvd floe_pvd;

floe_pvd *floe_pvd_create(const char *path);
/* `file` is relative to the .pvd's directory. */
int floe_pvd_add(floe_pvd *p, double time, const char *file, char *err, size_t errlen);
/* Rebuilding a collection (resumed run): append entries, then write once. */
int floe_pvd_append(floe_pvd *p, double time, const char *file, char *err, size_t errlen);
int floe_pvd_write(floe_pvd *p, char *err, size_t errlen);
void floe_pvd_destroy(floe_pvd *p);

#endif
