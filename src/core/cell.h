/* The periodic cell (docs/periodic.md): a body's images, wrapping bodies
 * back into the cell, the cell's deformation under a velocity gradient and
 * the pair search across its faces. */
#ifndef FLOE_CORE_CELL_H
#define FLOE_CORE_CELL_H

#include "core/world.h"

static inline int floe__img_zero(floe_img s) { return !(s.n[0] | s.n[1] | s.n[2]); }

/* m x (m row-major 3 x 3) */
static inline vec3 floe__mat_vec(const double m[9], vec3 x) {
    return v3(m[0] * x.x + m[1] * x.y + m[2] * x.z, m[3] * x.x + m[4] * x.y + m[5] * x.z,
              m[6] * x.x + m[7] * x.y + m[8] * x.z);
}

/* H n: where the image of cell offsets n sits relative to the body. */
static inline vec3 floe__img_shift(const floe_world *w, floe_img s) {
    return floe__mat_vec(w->cell.h, v3(s.n[0], s.n[1], s.n[2]));
}

/* Position of body i's image s: x + H s. */
static inline vec3 floe__img_pos(const floe_world *w, int i, floe_img s) {
    return floe__img_zero(s) ? w->pos[i] : vadd(w->pos[i], floe__img_shift(w, s));
}

/* Velocity of body i's image s: v + L H s (the image rides with the cell). */
static inline vec3 floe__img_vel(const floe_world *w, int i, floe_img s) {
    if (floe__img_zero(s)) return w->vel[i];
    return vadd(w->vel[i], floe__mat_vec(w->cell.l, floe__img_shift(w, s)));
}

/* Narrow phase fn on body a and body b's image s. */
static inline int floe__collide_img(const floe_world *w, floe_collide_fn *fn, int a, int b, floe_img s,
                                    const vec3 *prev, double gap, floe_raw_contact *out) {
    floe_pose pa = floe__pose(w, a), pb = floe__pose(w, b);
    pb.x = floe__img_pos(w, b, s);
    return fn(floe__shape_data(w, a), &pa, floe__shape_data(w, b), &pb, prev, gap, out);
}

/* No cell: H the identity, L zero. */
void floe__cell_reset(floe_cell *c);
/* At the start: refuses boundaries that do not fit the cell, wraps the
 * bodies into it (not counted in the wraps). */
floe_status floe__cell_start(floe_world *w);
/* After the motion of a step: the cell deforms (H += dt L H), its vectors
 * are reduced when it has sheared past half a period, bodies that left it
 * are wrapped back and the images of contacts and pairs follow. */
void floe__cell_advance(floe_world *w);
/* Largest change of an image offset H n (|n_k| <= 1) since the last
 * rebuild: what the deforming cell adds to the pair list's slack. */
double floe__cell_drift(const floe_world *w);
/* The gridded bodies' pairs, images across the cell included, pushed to
 * the pair list; refuses a cell narrower than twice the search distance. */
floe_status floe__cell_pairs(floe_world *w, double skin);
/* H^-1 of the cell (the identity without one). */
void floe__cell_inverse(const floe_world *w, double hinv[9]);
/* x moved by -H n into the cell along the periodic axes, n = floor(f) of
 * its cell coordinates f = H^-1 (x - origin); hinv: floe__cell_inverse. */
vec3 floe__cell_wrap_point(const floe_world *w, const double hinv[9], vec3 x);
/* The points x - H m from which a search within `reach` of x sees every
 * image of the bodies in the cell that comes within `reach` of x: m = 0,
 * and along each periodic axis m_k = +1 (-1) when x is within reach of the
 * cell's upper (lower) face, measured across the faces; x in the cell
 * (floe__cell_wrap_point). At most 8 points, x itself first; returns their
 * count. A cell at least twice `reach` wide (the pair search's size rule)
 * has each body within reach through one image at most. */
int floe__cell_near_images(const floe_world *w, const double hinv[9], vec3 x, double reach, vec3 out[8]);
/* The cell's volume: det H times the box extent along axes that are not
 * periodic. */
double floe__cell_volume(const floe_world *w, vec3 lo, vec3 hi);

#endif
