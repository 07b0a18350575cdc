/* STL meshes placed for a world (mesh.c); floe_mesh_read is public in
 * include/floe/floe_io.h. */
#ifndef FLOE_IO_MESH_H
#define FLOE_IO_MESH_H

#include <floe/floe_io.h>

/* Twice the triangle's area; 0 for a triangle too thin to have a normal:
 * |e1 x e2| <= 1e-12 max(|e1|^2, |e2|^2) (docs/scene-format.md, meshes). */
double floe__tri_area2(const floe_vec3 v[3]);

#endif
