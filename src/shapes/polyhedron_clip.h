/* Convex polyhedra (docs/geometry.md, "Polyhedra"): their record, and
 * convex polytopes clipped by planes (polyhedron_clip.c), which the narrow
 * phase (polyhedron_pairs.c) measures overlaps with. The class, the hull
 * and the mass properties are in polyhedron.c. */
#ifndef FLOE_SHAPES_POLYHEDRON_CLIP_H
#define FLOE_SHAPES_POLYHEDRON_CLIP_H

#include "shapes/shape.h"

enum {
    FLOE_POLY_MAXV = FLOE_POLYHEDRON_MAX_VERTICES,
    FLOE_POLY_MAXF = 2 * FLOE_POLY_MAXV - 4,       /* faces of a hull of MAXV points (Euler) */
    FLOE_POLY_MAXC = 2 * (3 * FLOE_POLY_MAXV - 6), /* face corners: twice the edges */
};

/* The record: the given vertices in the body frame (centroid, principal
 * axes), in the given order (interior ones too, so that floe_body_params
 * gives back what was given), and the hull's faces as loops of vertex
 * indices, counterclockwise seen from outside. shift and turn place the
 * given frame in the body frame: given vertex g = shift + turn v. */
typedef struct floe_polyhedron {
    vec3 v[FLOE_POLY_MAXV];
    vec3 shift;
    quat turn;
    int32_t nv, nf;
    int32_t start[FLOE_POLY_MAXF + 4]; /* face f: corners start[f] to start[f + 1] - 1 */
    int32_t corner[FLOE_POLY_MAXC];
} floe_polyhedron;

/* ---- convex polytopes clipped by planes (polyhedron_clip.c) ---------------- */

enum { FLOE_CLIP_MAXF = 160, FLOE_CLIP_MAXP = 1536 };

/* Faces as loops of points (counterclockwise seen from outside), each with
 * a tag: where it came from (the body's surface, or the plane that cut it). */
typedef struct floe_clip {
    int nf, np, overflow;
    int start[FLOE_CLIP_MAXF + 1];
    int tag[FLOE_CLIP_MAXF];
    vec3 pt[FLOE_CLIP_MAXP];
} floe_clip;

/* Face f's outward unit normal and offset (n.x = d on the face), body frame. */
void floe_polyhedron_face_plane(const floe_polyhedron *p, int f, vec3 *n, double *d);
/* The polyhedron at pose p, coordinates relative to o, faces tagged `tag`. */
void floe_clip_from_poly(floe_clip *c, const floe_polyhedron *p, const floe_pose *pose, vec3 o, int tag);
/* Keeps the part with n.x <= d; the cut face gets `tag`. */
void floe_clip_plane(floe_clip *c, vec3 n, double d, int tag);
/* Volume and centroid; area vector (sum of outward face areas) and
 * area-weighted centroid of the faces tagged `tag`. */
void floe_clip_measure(const floe_clip *c, int tag, double *vol, vec3 *centroid, vec3 *area, vec3 *area_centroid);

/* The moment of the faces tagged `tag` about the origin: the integral of
 * x cross n over them (their triangles' centroids cross their area
 * vectors: exact for plane faces). */
vec3 floe_clip_moment(const floe_clip *c, int tag);
/* The volume of the polyhedron at pose p inside the box [lo, hi]: exact. */
double floe_poly_box_volume(const floe_polyhedron *p, const floe_pose *pose, vec3 lo, vec3 hi);

#endif
