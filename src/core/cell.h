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

/* r = m^-1 (3 x 3, row-major). */
void floe__cell_inverse(const double m[9], double r[9]);
/* What the cell cannot take, with cell matrix h and pair search distance
 * 2 b_max + skin: a wall normal to a periodic axis, a facet or infinite
 * cylinder (*body), or a width across the faces normal to a periodic axis
 * below twice the search distance (*axis). 1 with why (the words of the
 * start and of the pair search, which refuse the same), 0 if it fits or
 * there is no cell. */
int floe__cell_misfit(const floe_world *w, const double h[9], double skin, int *body, int *axis, char *why, size_t len);
/* A restored cell that the engine could not run (restart files): a cell
 * matrix (h, h_ref, h0, h_unreduced) that is not the identity along the
 * axes that are not periodic or has det <= 0, a velocity gradient or a
 * servo on such an axis, or floe__cell_misfit of the bodies (with the H the
 * pair list was built with when it is valid, else the current H; skin:
 * what floe__start_search_skin gives). 1 with *where (the item) and why. */
int floe__cell_state_bad(const floe_world *w, double skin, const char **where, char *why, size_t len);
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
/* The diagonal of the Love-Weber stress of the contacts between bodies over
 * the cell (boundaries left out), as floe_stress_tensor computes it with a
 * whole region (measure.c): the sum of l_k f_k over the cell's volume; and
 * (stiff, may be NULL) the cell's stiffness along each axis, K_k =
 * sum kn (n_k l_k)^2 / V [Pa]: how much sigma_kk changes per unit strain of
 * the axis carried by the contacts' normal springs alone (an affine strain;
 * the lattice of docs/periodic.md has K = kn / d). */
void floe__cell_stress_diag(const floe_world *w, double s[3], double stiff[3]);

/* The strain rate a stress-controlled axis k takes this step
 * (docs/decisions.md#a-cell-servo-without-a-gain-closes-a-fraction-of-the-error-per-step):
 * G (target - sigma) clamped to +-max_rate, with G the gain given, or
 * alpha / (K dt) when the gain is 0, so that one step closes the fraction
 * alpha of the error through the contacts; without a contact (K = 0) the
 * axis moves at max_rate towards its target. */
static inline double floe__cell_servo_rate(const floe_cell *c, int k, double sigma, double K, double dt) {
    double e = c->servo_stress[k] - sigma, m = c->servo_max[k], r;
    if (c->servo_gain[k] > 0) r = c->servo_gain[k] * e;
    else if (K > 0) r = c->servo_alpha[k] * e / (K * dt);
    else r = e > 0 ? m : e < 0 ? -m : 0;
    return fmax(-m, fmin(m, r));
}
/* The first thing wrong with servo s of axis `axis` (written to why): 1, or 0. */
int floe__cell_servo_bad(const floe_world *w, int axis, const floe_cell_servo *s, char *why, size_t n);
/* Axis `axis` follows servo s (NULL: no servo; L_kk then stays as it is). */
void floe__cell_servo_put(floe_cell *c, int axis, const floe_cell_servo *s);
/* x moved by -H n into the cell along the periodic axes, n = floor(f) of
 * its cell coordinates f = H^-1 (x - origin); hinv: floe__cell_inverse of H. */
vec3 floe__cell_wrap_point(const floe_world *w, const double hinv[9], vec3 x);
/* The points x - H m from which a search within `reach` of x sees every
 * image of the bodies in the cell that comes within `reach` of x: m = 0,
 * and along each periodic axis m_k = +1 (-1) when x is within reach of the
 * cell's upper (lower) face, measured across the faces; x in the cell
 * (floe__cell_wrap_point). x itself first; returns their count: at most 8
 * when the cell is at least twice `reach` wide (the pair search's size rule,
 * which also has each body within reach through one image at most), at
 * most 27 when a reach across half the cell has both faces of an axis. */
int floe__cell_near_images(const floe_world *w, const double hinv[9], vec3 x, double reach, vec3 out[27]);
/* The cell's volume: det H times the box extent along axes that are not
 * periodic. */
double floe__cell_volume(const floe_world *w, vec3 lo, vec3 hi);

#endif
