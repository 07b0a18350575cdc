/* The periodic cell (docs/periodic.md). The cell is the parallelepiped
 * origin + H f, f in [0, 1) along the periodic axes, H's columns the cell
 * vectors. A body's image of integer offsets n sits at x + H n and moves at
 * v + L H n, where L is the cell's velocity gradient (dH/dt = L H): the
 * general form of Lees-Edwards boundaries for any homogeneous deformation.
 * Bodies are wrapped back into the cell after every motion; a contact keeps
 * the offsets of the image of B it touches, updated when either body wraps.
 * A cell narrower than twice the pair search distance is always
 * refused, so a pair of bodies meets through one image at most and the
 * contact stays keyed by its two bodies. */
#include "core/cell.h"
#include "core/size_dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char axis_name[3] = {'x', 'y', 'z'};

void floe__cell_reset(floe_cell *c) {
    memset(c, 0, sizeof *c);
    for (int k = 0; k < 3; k++) c->h[4 * k] = c->h_ref[4 * k] = c->h0[4 * k] = c->hu[4 * k] = 1;
    c->phase = -1;
}

/* ---- public functions -------------------------------------------------------- */

floe_status floe_world_set_periodic(floe_world *w, int axis, double lo, double hi) {
    const char *fn = "floe_world_set_periodic";
    if (w->started) {
        floe__error(w, "%s: the cell is set before the first step (the world has started)", fn);
        return FLOE_ERR_ARG;
    }
    if (axis < 0 || axis > 2) {
        floe__error(w, "%s: axis = %d is out of range [0, 2] (0: x, 1: y, 2: z)", fn, axis);
        return FLOE_ERR_ARG;
    }
    if (axis == 2 && w->def.dimension == 2) {
        floe__error(w, "%s: a 2D world moves in the xy plane: z cannot be periodic", fn);
        return FLOE_ERR_ARG;
    }
    if (!(fabs(lo) <= FLOE_MAX_COORD && fabs(hi) <= FLOE_MAX_COORD && lo < hi)) {
        floe__error(w, "%s: the period [%g, %g) along %c must be finite, at most %g in magnitude, with lo < hi", fn, lo,
                    hi, axis_name[axis], FLOE_MAX_COORD);
        return FLOE_ERR_ARG;
    }
    if (!floe__geom_keep(w)) { /* a contact may go through an image now (world.h) */
        floe__error(w, "%s: out of memory", fn);
        return FLOE_ERR_MEMORY;
    }
    floe_cell *c = &w->cell;
    c->axes |= 1 << axis;
    double o[3] = {c->origin.x, c->origin.y, c->origin.z};
    o[axis] = lo;
    c->origin = v3(o[0], o[1], o[2]);
    for (int k = 0; k < 3; k++) c->h[3 * k + axis] = c->h[3 * axis + k] = 0;
    c->h[4 * axis] = hi - lo;
    memcpy(c->h_ref, c->h, sizeof c->h);
    memcpy(c->h0, c->h, sizeof c->h);
    memcpy(c->hu, c->h, sizeof c->h);
    return FLOE_OK;
}

floe_status floe_world_set_velocity_gradient(floe_world *w, const double l[9]) {
    const char *fn = "floe_world_set_velocity_gradient";
    if (!l) {
        floe__error(w, "%s: l is NULL", fn);
        return FLOE_ERR_ARG;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double x = l[3 * i + j];
            if (!(fabs(x) <= 1e6)) {
                floe__error(w, "%s: L[%d][%d] = %g 1/s must be finite and at most 1e6 in magnitude", fn, i, j, x);
                return FLOE_ERR_ARG;
            }
            int per = (w->cell.axes >> i & 1) && (w->cell.axes >> j & 1);
            if (x != 0 && !per) {
                floe__error(w,
                            "%s: L[%d][%d] = %g 1/s (dv_%c/d%c) needs both %c and %c periodic "
                            "(floe_world_set_periodic first): the cell deforms only along its periodic axes",
                            fn, i, j, x, axis_name[i], axis_name[j], axis_name[i], axis_name[j]);
                return FLOE_ERR_ARG;
            }
        }
    memcpy(w->cell.l, l, sizeof w->cell.l);
    return FLOE_OK;
}

void floe_world_velocity_gradient(const floe_world *w, double l[9]) { memcpy(l, w->cell.l, sizeof w->cell.l); }

floe_status floe_world_affine_velocities(floe_world *w) {
    for (int i = 0; i < w->np; i++) {
        if (!(w->bound[i] > 0) || !(w->mass[i] > 0)) continue;
        vec3 dv = floe__mat_vec(w->cell.l, vsub(w->pos[i], w->cell.origin));
        uint32_t b = w->blocked[i];
        w->vel[i] = v3(w->vel[i].x + (b & FLOE_DOF_X ? 0 : dv.x), w->vel[i].y + (b & FLOE_DOF_Y ? 0 : dv.y),
                       w->vel[i].z + (b & FLOE_DOF_Z ? 0 : dv.z));
    }
    return FLOE_OK;
}

int floe_world_get_cell(const floe_world *w, double h[9], floe_vec3 *origin) {
    if (h) memcpy(h, w->cell.h, sizeof w->cell.h);
    if (origin) *origin = w->cell.origin;
    return w->cell.axes;
}

floe_status floe_particle_wraps(const floe_world *w, int i, int out[3]) {
    CHECK_ID(w, i, w->np, "particle", FLOE_ERR_ARG);
    for (int k = 0; k < 3; k++) out[k] = w->wraps ? w->wraps[i].n[k] : 0;
    return FLOE_OK;
}

floe_cell_servo floe_default_cell_servo(void) { return (floe_cell_servo){.alpha = 0.5}; }

int floe__cell_servo_bad(const floe_world *w, int axis, const floe_cell_servo *s, char *why, size_t n) {
    if (axis < 0 || axis > 2 || !(w->cell.axes >> axis & 1))
        return snprintf(why, n, "axis = %d is not a periodic axis of the cell (floe_world_set_periodic first)", axis),
               1;
    if (!(fabs(s->stress) <= FLOE_MAX_COORD))
        return snprintf(why, n, "%c: stress = %g Pa must be finite", axis_name[axis], s->stress), 1;
    if (!(s->gain >= 0 && s->gain <= FLOE_MAX_COORD))
        return snprintf(why, n, "%c: gain = %g 1/(Pa s) is out of range [0, %g] (0: alpha / (K dt))", axis_name[axis],
                        s->gain, FLOE_MAX_COORD),
               1;
    if (!(s->alpha > 0 && s->alpha < 1))
        return snprintf(why, n, "%c: alpha = %g is out of range (0, 1)", axis_name[axis], s->alpha), 1;
    if (!(s->max_rate > 0 && s->max_rate <= 1e6))
        return snprintf(why, n,
                        "%c: max_rate = %g 1/s is out of range (0, 1e+06] (the rate at which the axis approaches its "
                        "target from a loose state)",
                        axis_name[axis], s->max_rate),
               1;
    return 0;
}

void floe__cell_servo_put(floe_cell *c, int axis, const floe_cell_servo *s) {
    if (!s) {
        c->servo_axes &= ~(1 << axis);
        c->servo_stress[axis] = c->servo_gain[axis] = c->servo_max[axis] = c->servo_alpha[axis] = 0;
        return;
    }
    c->servo_axes |= 1 << axis;
    c->servo_stress[axis] = s->stress;
    c->servo_gain[axis] = s->gain;
    c->servo_alpha[axis] = s->alpha;
    c->servo_max[axis] = s->max_rate;
}

floe_status floe_world_set_cell_servo_def(floe_world *w, int axis, const floe_cell_servo *s) {
    char why[256];
    floe_cell_servo off = floe_default_cell_servo(); /* NULL: only the axis is checked */
    off.max_rate = 1;
    if (floe__cell_servo_bad(w, axis, s ? s : &off, why, sizeof why)) {
        floe__error(w, "floe_world_set_cell_servo_def: %s", why);
        return FLOE_ERR_ARG;
    }
    floe__cell_servo_put(&w->cell, axis, s);
    return FLOE_OK;
}

floe_status floe_world_set_cell_servo(floe_world *w, int axis, double stress, double gain, double max_rate) {
    const char *fn = "floe_world_set_cell_servo";
    floe_cell *c = &w->cell;
    if (axis < 0 || axis > 2 || !(c->axes >> axis & 1)) {
        floe__error(w, "%s: axis = %d is not a periodic axis of the cell (floe_world_set_periodic first)", fn, axis);
        return FLOE_ERR_ARG;
    }
    /* each value alone, named (the scene reports it at its key) */
    if (!(fabs(stress) <= FLOE_MAX_COORD)) {
        floe__error(w, "%s: stress = %g Pa is out of range [%g, %g]", fn, stress, -FLOE_MAX_COORD, FLOE_MAX_COORD);
        return FLOE_ERR_ARG;
    }
    if (!(gain >= 0 && gain <= FLOE_MAX_COORD)) {
        floe__error(w, "%s: gain = %g 1/(Pa s) is out of range [0, %g] (0: off)", fn, gain, FLOE_MAX_COORD);
        return FLOE_ERR_ARG;
    }
    if (!(max_rate > 0 && max_rate <= 1e6)) {
        floe__error(w, "%s: max_rate = %g 1/s is out of range (0, %g]", fn, max_rate, 1e6);
        return FLOE_ERR_ARG;
    }
    floe_cell_servo s = floe_default_cell_servo();
    s.stress = stress;
    s.gain = gain;
    s.max_rate = max_rate;
    floe__cell_servo_put(c, axis, gain > 0 ? &s : NULL); /* gain 0: off, as this function always had it */
    return FLOE_OK;
}

/* ---- matrices ----------------------------------------------------------------- */

void floe__cell_inverse(const double m[9], double r[9]) {
    double c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6];
    double det = m[0] * c00 + m[1] * c01 + m[2] * c02, id = 1 / det;
    r[0] = c00 * id;
    r[1] = (m[2] * m[7] - m[1] * m[8]) * id;
    r[2] = (m[1] * m[5] - m[2] * m[4]) * id;
    r[3] = c01 * id;
    r[4] = (m[0] * m[8] - m[2] * m[6]) * id;
    r[5] = (m[2] * m[3] - m[0] * m[5]) * id;
    r[6] = c02 * id;
    r[7] = (m[1] * m[6] - m[0] * m[7]) * id;
    r[8] = (m[0] * m[4] - m[1] * m[3]) * id;
}

static double det3(const double m[9]) {
    return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

static vec3 column(const double m[9], int k) { return v3(m[k], m[3 + k], m[6 + k]); }

/* H += dt L H */
static void deform(double h[9], const double l[9], double dt) {
    double d[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) d[3 * i + j] = l[3 * i] * h[j] + l[3 * i + 1] * h[3 + j] + l[3 * i + 2] * h[6 + j];
    for (int k = 0; k < 9; k++) h[k] += dt * d[k];
}

/* ---- wrapping ----------------------------------------------------------------- */

/* The offsets n of the cell x lies in: n_k = floor(f_k), f = H^-1 (x -
 * origin) (hi: H^-1), along the periodic axes; x - H n is x wrapped into
 * the cell, as the start and every step wrap the bodies. */
static floe_img cell_floor(const floe_world *w, const double hi[9], vec3 x) {
    const floe_cell *c = &w->cell;
    vec3 f = floe__mat_vec(hi, vsub(x, c->origin));
    floe_img n = {{0, 0, 0}};
    for (int k = 0; k < 3; k++)
        if (c->axes >> k & 1) n.n[k] = (int32_t)floor(vcomp(f, k));
    return n;
}

/* Bodies that are not boundaries wrap: their centre's cell coordinates
 * f = H^-1 (x - origin) are brought into [0, 1) along the periodic axes,
 * and a body moved by -H n takes its image's velocity v - L H n (the
 * Lees-Edwards velocity jump; nothing for a cell that does not deform).
 * count: add to the wraps (not at the start). The images of contacts and
 * pairs follow: B's image of offsets s at x_B + H s stays where it was when
 * A moves by -H n_A and B by -H n_B, so s gains n_B - n_A. */
static void wrap(floe_world *w, int count) {
    floe_cell *c = &w->cell;
    double hi[9];
    floe__cell_inverse(c->h, hi);
    floe_img *delta = NULL;
    for (int i = 0; i < w->np; i++) {
        if (!(w->bound[i] > 0)) continue;
        floe_img n = cell_floor(w, hi, w->pos[i]);
        if (floe__img_zero(n)) continue;
        vec3 s = floe__mat_vec(c->h, v3(n.n[0], n.n[1], n.n[2]));
        w->pos[i] = vsub(w->pos[i], s);
        w->bp.ref_pos[i] = vsub(w->bp.ref_pos[i], s);
        /* the body becomes its image, which moves at v - L H n; the change
         * of its kinetic energy comes from outside (the cell's motion) */
        vec3 v0 = w->vel[i];
        w->vel[i] = vsub(v0, floe__mat_vec(c->l, s));
        if (count && w->started) w->e_boundary += 0.5 * w->mass[i] * (vlen2(w->vel[i]) - vlen2(v0));
        if (count)
            for (int k = 0; k < 3; k++) w->wraps[i].n[k] += n.n[k];
        if (!delta) delta = calloc((size_t)w->np, sizeof *delta);
        if (!delta) { /* the images cannot follow: make the pair list anew */
            w->bp.valid = 0;
            continue;
        }
        delta[i] = n;
    }
    if (!delta) return;
    /* a boundary A (a wall along the periodic axes) has no images: its
     * contacts and pairs stay with B itself (a cell keeps the geometry
     * records, set_periodic) */
    for (int k = 0; k < w->ncon; k++) {
        floe_contact *ct = &w->con[k];
        floe_contact_geo *x = &w->cgeom[k];
        const int wall = !(w->bound[ct->a] > 0);
        if (!wall)
            for (int j = 0; j < 3; j++) x->img.n[j] += delta[ct->b].n[j] - delta[ct->a].n[j];
        ct->imaged = !floe__img_zero(x->img);
        /* the contact point moves with the pair: with A, whose image of B
         * stays where it was relative to A (with B on a wall). The next
         * contact pass takes the mid-step point between this one and the
         * new one, and its lever arms from where the bodies stood half a
         * step before, x - dt/2 v, with the velocity after the wrap: a
         * point moved by -s + dt L s (s = H n) keeps those arms as they
         * were; a point left behind would put them half a cell vector
         * off, and the spin would slide the shear spring for a step
         * (docs/decisions.md#bodies-wrap-every-step-and-take-their-images-velocity) */
        floe_img n = delta[wall ? ct->b : ct->a];
        if (floe__img_zero(n)) continue;
        vec3 sh = floe__mat_vec(c->h, v3(n.n[0], n.n[1], n.n[2]));
        x->c = vadd(vsub(x->c, sh), vscale(floe__mat_vec(c->l, sh), w->dt));
    }
    for (int p = 0; w->bp.img && p < w->bp.npairs; p++) {
        const floe_pair *pr = &w->bp.pairs[p];
        if (!(w->bound[pr->a] > 0)) continue;
        for (int j = 0; j < 3; j++) w->bp.img[p].n[j] += delta[pr->b].n[j] - delta[pr->a].n[j];
    }
    free(delta);
}

/* Reduces the cell vectors (Lees-Edwards flips in the H form): when the
 * component H_ij of cell vector h_j along periodic axis i passes half of
 * H_ii, h_j -= m h_i with m = round(H_ij / H_ii). The lattice of images is
 * the same; offsets s in the old vectors become s_i + m s_j in the new ones
 * (H' = H U, U = I - m e_i e_j^T, s' = U^-1 s). Simple shear flips at a
 * shear of half a period, as Lees-Edwards boundaries do, and the cell keeps
 * its diagonal. */
static void reduce(floe_world *w) {
    floe_cell *c = &w->cell;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            if (i == j || !(c->axes >> i & 1) || !(c->axes >> j & 1)) continue;
            double m = round(c->h[3 * i + j] / c->h[4 * i]);
            if (m == 0 || !isfinite(m)) continue;
            int32_t mi = (int32_t)m;
            for (int r = 0; r < 3; r++) c->h[3 * r + j] -= m * c->h[3 * r + i];
            for (int k = 0; k < w->ncon; k++) {
                w->cgeom[k].img.n[i] += mi * w->cgeom[k].img.n[j];
                w->con[k].imaged = !floe__img_zero(w->cgeom[k].img);
            }
            for (int p = 0; w->bp.img && p < w->bp.npairs; p++) w->bp.img[p].n[i] += mi * w->bp.img[p].n[j];
            for (int p = 0; p < w->np; p++) w->wraps[p].n[i] += mi * w->wraps[p].n[j];
            c->flips++;
            w->bp.valid = 0;
        }
}

/* ---- the cell against the bodies ---------------------------------------------- */

/* A boundary the cell cannot take: a wall normal to a periodic axis would
 * cut the cell; facets (meshes) and infinite cylinders have no images.
 * 1 with *body and why, 0 if none. */
static int boundary_misfit(const floe_world *w, int *body, char *why, size_t len) {
    const floe_cell *c = &w->cell;
    for (int i = 0; i < w->np; i++) {
        const floe_shape_class *cl = floe__class_of(w, i);
        if (!(cl->flags & FLOE_SHAPE_BOUNDARY)) continue;
        if (w->shape[i] != FLOE_SHAPE_WALL) {
            *body = i;
            snprintf(why, len,
                     "periodic cell: %s (body %d) cannot be used with a periodic cell (only walls normal to an axis "
                     "that is not periodic can)",
                     cl->title, i);
            return 1;
        }
        const floe_wall *wl = floe__shape_data(w, i);
        if (c->axes >> wl->axis & 1) {
            *body = i;
            snprintf(why, len,
                     "periodic cell: wall (body %d) is normal to the periodic axis %c: a wall would cut the cell; "
                     "make the axis not periodic or remove the wall",
                     i, axis_name[wl->axis]);
            return 1;
        }
    }
    return 0;
}

/* The size rule (docs/periodic.md): the cell must be wider than twice the
 * pair search distance 2 b_max + skin across every pair of faces, so that
 * two bodies meet through one image at most. hi is H^-1; *reach receives
 * the search distance and m[k] (may be NULL) the search distance over the
 * width. 1 with *axis and why if the cell is too narrow (or its widths are
 * not numbers), 0 if not. */
static int too_narrow(const floe_world *w, const double hi[9], double skin, double *reach_, double m[3], int *axis,
                      char *why, size_t len) {
    const floe_cell *c = &w->cell;
    double bmax = 0;
    for (int i = 0; i < w->np; i++)
        if (w->bound[i] > 0) bmax = fmax(bmax, w->bound[i]);
    bmax = fmax(bmax, floe__supply_max_bound(w)); /* the bodies the inlets will insert */
    double reach = *reach_ = 2 * bmax + skin;
    for (int k = 0; k < 3; k++) {
        if (m) m[k] = 0;
        if (!(c->axes >> k & 1)) continue;
        double width = 1 / vlen(v3(hi[3 * k], hi[3 * k + 1], hi[3 * k + 2])); /* between the faces normal to k */
        if (!(reach < 0.5 * width)) {
            *axis = k;
            snprintf(why, len,
                     "periodic cell at step %lld: the cell is %g m wide across axis %c, less than twice the pair "
                     "search distance %g m (2 x the largest bounding radius of a body or of a body an inlet inserts, "
                     "%g m, + skin %g m): bodies must "
                     "be smaller than about a quarter of the cell; enlarge the cell or use smaller bodies",
                     (long long)w->step, width, axis_name[k], reach, bmax, skin);
            return 1;
        }
        if (m) m[k] = reach / width;
    }
    return 0;
}

int floe__cell_misfit(const floe_world *w, const double h[9], double skin, int *body, int *axis, char *why,
                      size_t len) {
    *body = *axis = -1;
    if (!w->cell.axes) return 0;
    if (boundary_misfit(w, body, why, len)) return 1;
    double hi[9];
    floe__cell_inverse(h, hi);
    double reach;
    return too_narrow(w, hi, skin, &reach, NULL, axis, why, len);
}

int floe__cell_state_bad(const floe_world *w, double skin, const char **where, char *why, size_t len) {
    const floe_cell *c = &w->cell;
    static const char *const at[] = {"/cell@h", "/cell@h_ref", "/cell@h0", "/cell@h_unreduced"};
    const double *m[] = {c->h, c->h_ref, c->h0, c->hu};
    for (int q = 0; q < 4; q++) {
        *where = at[q];
        double det = det3(m[q]);
        if (!(det > 0)) {
            snprintf(why, len, "det H = %g: the cell vectors span no volume (a cell matrix has det H > 0)", det);
            return 1;
        }
        /* the row and column of an axis that is not periodic stay the identity's (set_periodic, L) */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                int k = c->axes >> i & 1 ? j : i; /* the axis of row i or column j that is not periodic */
                if (c->axes >> k & 1 || m[q][3 * i + j] == (i == j)) continue;
                snprintf(why, len,
                         "H[%d][%d] = %g: the row and column of axis %c, which is not periodic, are those of the "
                         "identity",
                         i, j, m[q][3 * i + j], axis_name[k]);
                return 1;
            }
    }
    *where = "/cell@velocity_gradient";
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (c->l[3 * i + j] != 0 && !((c->axes >> i & 1) && (c->axes >> j & 1))) {
                snprintf(why, len,
                         "L[%d][%d] = %g 1/s needs both %c and %c periodic: the cell deforms only along its "
                         "periodic axes",
                         i, j, c->l[3 * i + j], axis_name[i], axis_name[j]);
                return 1;
            }
    *where = "/cell@servo_axes";
    if (c->servo_axes & ~c->axes) {
        snprintf(why, len, "servo axes 0x%x include an axis that is not periodic (axes 0x%x)", (unsigned)c->servo_axes,
                 (unsigned)c->axes);
        return 1;
    }
    /* the size rule against the H the pair list was built with, or, when
     * it is to be built, the H it will be built with */
    int ref = w->started && w->bp.valid, body, axis;
    *where = ref ? "/cell@h_ref" : "/cell@h";
    if (floe__cell_misfit(w, ref ? c->h_ref : c->h, skin, &body, &axis, why, len)) {
        if (body >= 0) *where = "/cell@axes";
        return 1;
    }
    return 0;
}

floe_status floe__cell_start(floe_world *w) {
    floe_cell *c = &w->cell;
    if (!c->axes) return FLOE_OK;
    int body;
    char why[512];
    if (boundary_misfit(w, &body, why, sizeof why)) {
        floe__error(w, "%s", why);
        return FLOE_ERR_ARG;
    }
    wrap(w, 0);
    return FLOE_OK;
}

void floe__cell_stress_diag(const floe_world *w, double s[3], double stiff[3]) {
    s[0] = s[1] = s[2] = 0;
    double K[3] = {0, 0, 0};
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *ct = &w->con[k];
        if (!(w->bound[ct->a] > 0) || !(w->bound[ct->b] > 0)) continue;
        const floe_geom gk = floe__contact_geom(w, k), *g = &gk;
        vec3 f = vadd(vadd(vscale(g->n, ct->f.x), vscale(g->t1, ct->f.y)), vscale(floe_geom_t2(g), ct->f.z));
        vec3 l = vsub(floe__img_pos(w, ct->b, floe__contact_img(w, k)), w->pos[ct->a]);
        s[0] += l.x * f.x;
        s[1] += l.y * f.y;
        s[2] += l.z * f.z;
        /* a strain e along axis j moves B's image by e l_j e_j: the normal
         * spring of stiffness kn takes kn n_j l_j e, whose share of
         * l_j f_j is kn (n_j l_j)^2 e */
        double nl[3] = {g->n.x * l.x, g->n.y * l.y, g->n.z * l.z};
        for (int j = 0; j < 3; j++) K[j] += ct->kn * nl[j] * nl[j];
    }
    double v = fabs(det3(w->cell.h));
    for (int k = 0; k < 3; k++) s[k] /= v;
    if (stiff)
        for (int k = 0; k < 3; k++) stiff[k] = K[k] / v;
}

/* Work the deforming cell did on the bodies this step: B's image moves
 * with the extra velocity u = L H n that B lacks, so a contact through an
 * image takes F_A . u dt more from outside than its two bodies gave it (F_A
 * the force on A) -- the energy balance books it as boundary work
 * (docs/periodic.md). */
static double image_work(const floe_world *w) {
    double work = 0;
    for (int k = 0; k < w->ncon; k++) {
        const floe_contact *ct = &w->con[k];
        if (!ct->imaged || !(w->bound[ct->a] > 0)) continue;
        const floe_geom gk = floe__contact_geom(w, k), *g = &gk;
        vec3 f = vadd(vadd(vscale(g->n, ct->f.x), vscale(g->t1, ct->f.y)), vscale(floe_geom_t2(g), ct->f.z));
        work += vdot(f, floe__mat_vec(w->cell.l, floe__img_shift(w, floe__contact_img(w, k))));
    }
    return work * w->dt;
}

void floe__cell_advance(floe_world *w) {
    floe_cell *c = &w->cell;
    if (!c->axes) return;
    if (c->servo_axes) { /* stress control: L_kk from this step's contact forces */
        double s[3], K[3];
        floe__cell_stress_diag(w, s, K);
        for (int k = 0; k < 3; k++)
            if (c->servo_axes >> k & 1) c->l[4 * k] = floe__cell_servo_rate(c, k, s[k], K[k], w->dt);
    }
    int moving = 0;
    for (int k = 0; k < 9; k++) moving |= c->l[k] != 0;
    if (moving) {
        w->e_boundary += image_work(w);
        deform(c->h, c->l, w->dt);
        deform(c->hu, c->l, w->dt);
        reduce(w);
    }
    wrap(w, 1);
}

double floe__cell_drift(const floe_world *w) {
    const floe_cell *c = &w->cell;
    double d = 0;
    for (int k = 0; k < 3; k++)
        if (c->axes >> k & 1) d += vlen(vsub(column(c->h, k), column(c->h_ref, k)));
    return d;
}

double floe__cell_volume(const floe_world *w, vec3 lo, vec3 hi) {
    double v = fabs(det3(w->cell.h));
    for (int k = 0; k < 3; k++)
        if (!(w->cell.axes >> k & 1)) v *= vcomp(hi, k) - vcomp(lo, k);
    return v;
}

void floe_world_cell_strain(const floe_world *w, double out[9]) {
    const floe_cell *c = &w->cell;
    double i0[9];
    floe__cell_inverse(c->h0, i0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = c->hu[3 * i] * i0[j] + c->hu[3 * i + 1] * i0[3 + j] + c->hu[3 * i + 2] * i0[6 + j] -
                             (i == j);
}

double floe_world_cell_volume(const floe_world *w) { return w->cell.axes ? fabs(det3(w->cell.h)) : 0; }

/* ---- points and their images ---------------------------------------------------- */

vec3 floe__cell_wrap_point(const floe_world *w, const double hinv[9], vec3 x) {
    const floe_cell *c = &w->cell;
    vec3 f = floe__mat_vec(hinv, vsub(x, c->origin));
    double n[3] = {0, 0, 0};
    int any = 0;
    for (int k = 0; k < 3; k++)
        if (c->axes >> k & 1) {
            n[k] = floor(vcomp(f, k));
            any |= n[k] != 0 && isfinite(n[k]);
            if (!isfinite(n[k])) n[k] = 0;
        }
    return any ? vsub(x, floe__mat_vec(c->h, v3(n[0], n[1], n[2]))) : x;
}

int floe__cell_near_images(const floe_world *w, const double hinv[9], vec3 x, double reach, vec3 out[27]) {
    const floe_cell *c = &w->cell;
    vec3 f = floe__mat_vec(hinv, vsub(x, c->origin));
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (!(c->axes >> k & 1)) continue;
        /* reach across the faces normal to k, in cell coordinates, with a
         * margin for the rounding of f */
        double rf = reach * vlen(v3(hinv[3 * k], hinv[3 * k + 1], hinv[3 * k + 2])) + 1e-9;
        double fk = vcomp(f, k);
        if (fk >= 1 - rf) lo[k] = -1; /* x - H e_k: the images, one period up, of bodies near the lower face */
        if (fk <= rf) hi[k] = 1;      /* x + H e_k: those, one period down, of bodies near the upper face */
    }
    int n = 0;
    for (int mz = 0; mz < 3; mz++) /* 0 first, then -1, then +1 along each axis */
        for (int my = 0; my < 3; my++)
            for (int mx = 0; mx < 3; mx++) {
                int m[3] = {mx == 2 ? 1 : -mx, my == 2 ? 1 : -my, mz == 2 ? 1 : -mz};
                int ok = 1;
                for (int k = 0; k < 3; k++) ok &= m[k] == 0 || (m[k] < 0 ? lo[k] < 0 : hi[k] > 0);
                if (!ok) continue;
                /* a body b near x + H m has its image b - H m near x */
                out[n++] = vadd(x, floe__mat_vec(c->h, v3(m[0], m[1], m[2])));
            }
    return n;
}

/* ---- pairs across the cell ------------------------------------------------------ */

typedef struct item {
    int i;
    floe_img s;
    vec3 p; /* image position */
} item;

static int push(floe_world *w, int i, int j, floe_img s) {
    int ri = floe_shape_rank(w->shape[i]), rj = floe_shape_rank(w->shape[j]);
    if (ri > rj || (ri == rj && i > j)) { /* B is i: its image is the opposite one */
        int t = i;
        i = j;
        j = t;
        for (int k = 0; k < 3; k++) s.n[k] = -s.n[k];
    }
    if (!floe_narrowphase(w->shape[i], w->shape[j])) return 1;
    floe_broadphase *bp = &w->bp;
    if (!floe__grow((void **)&bp->pairs, &bp->cap, bp->npairs + 1, sizeof *bp->pairs) ||
        !floe__grow((void **)&bp->img, &bp->img_cap, bp->cap, sizeof *bp->img))
        return 0;
    bp->img[bp->npairs] = s;
    bp->pairs[bp->npairs++] = (floe_pair){i, j, -1};
    return 1;
}

static int cell_of(double x, double lo, double h, int n) {
    double c = floor((x - lo) / h);
    if (!(c >= 0)) return 0;
    if (c >= n - 1) return n - 1;
    return (int)c;
}

/* Every gridded body and those of its images that come within the search
 * distance of the cell go on a grid; each body then meets the bodies of
 * higher id and their images in the 27 cells around it. Since a pair meets
 * through one image at most, each pair is found once, in an order that
 * depends only on the positions. */
floe_status floe__cell_pairs(floe_world *w, double skin) {
    floe_cell *c = &w->cell;
    double hi[9], m[3], reach;
    floe__cell_inverse(c->h, hi);
    int axis;
    char why[512];
    if (too_narrow(w, hi, skin, &reach, m, &axis, why, sizeof why)) {
        floe__error(w, "%s", why);
        return FLOE_ERR_ARG;
    }
    memcpy(c->h_ref, c->h, sizeof c->h);
    int cap = 0, n = 0;
    item *it = NULL;
    int ok = 1;
    for (int i = 0; ok && i < w->np; i++) {
        if (!(w->bound[i] > 0)) continue;
        vec3 f = floe__mat_vec(hi, vsub(w->pos[i], c->origin));
        int lo_[3], hi_[3];
        for (int k = 0; k < 3; k++) lo_[k] = hi_[k] = 0;
        for (int k = 0; k < 3; k++)
            if (c->axes >> k & 1) {
                double fk = vcomp(f, k);
                if (fk - 1 >= -m[k]) lo_[k] = -1; /* the image one period down is near the cell */
                if (fk + 1 <= 1 + m[k]) hi_[k] = 1;
            }
        for (int sz = lo_[2]; ok && sz <= hi_[2]; sz++)
            for (int sy = lo_[1]; ok && sy <= hi_[1]; sy++)
                for (int sx = lo_[0]; ok && sx <= hi_[0]; sx++) {
                    if (!(ok = floe__grow((void **)&it, &cap, n + 1, sizeof *it))) break;
                    floe_img s = {{sx, sy, sz}};
                    it[n++] = (item){i, s, floe__img_pos(w, i, s)};
                }
    }
    if (!ok) {
        free(it);
        floe__error(w, "out of memory in the broad phase at step %lld", (long long)w->step);
        return FLOE_ERR_MEMORY;
    }
    if (n == 0) {
        free(it);
        return FLOE_OK;
    }
    vec3 blo = it[0].p, bhi = it[0].p;
    for (int k = 1; k < n; k++) {
        vec3 p = it[k].p;
        blo = v3(fmin(blo.x, p.x), fmin(blo.y, p.y), fmin(blo.z, p.z));
        bhi = v3(fmax(bhi.x, p.x), fmax(bhi.y, p.y), fmax(bhi.z, p.z));
    }
    vec3 span = vsub(bhi, blo);
    double h = reach;
    int nx = 1, ny = 1, nz = 1;
    for (int iter = 0; iter < 20000; iter++, h *= 1.26) {
        double ex = span.x / h + 1, ey = span.y / h + 1, ez = span.z / h + 1;
        if (ex * ey * ez <= 2.0 * n + 64) {
            nx = (int)ex, ny = (int)ey, nz = (int)ez;
            break;
        }
    }
    int ncell = nx * ny * nz;
    int *start = calloc((size_t)ncell + 1, sizeof *start), *order = malloc(sizeof *order * (size_t)n),
        *cellk = malloc(sizeof *cellk * (size_t)n);
    if (!start || !order || !cellk) {
        free(start), free(order), free(cellk), free(it);
        floe__error(w, "out of memory in the broad phase at step %lld", (long long)w->step);
        return FLOE_ERR_MEMORY;
    }
    for (int k = 0; k < n; k++) {
        vec3 p = it[k].p;
        cellk[k] = cell_of(p.x, blo.x, h, nx) + nx * (cell_of(p.y, blo.y, h, ny) + ny * cell_of(p.z, blo.z, h, nz));
        start[cellk[k] + 1]++;
    }
    for (int q = 0; q < ncell; q++) start[q + 1] += start[q];
    {
        int *next = malloc(sizeof *next * (size_t)ncell);
        if (!next) {
            free(start), free(order), free(cellk), free(it);
            floe__error(w, "out of memory in the broad phase at step %lld", (long long)w->step);
            return FLOE_ERR_MEMORY;
        }
        memcpy(next, start, sizeof *next * (size_t)ncell);
        for (int k = 0; k < n; k++) order[next[cellk[k]]++] = k; /* stable */
        free(next);
    }
    for (int k = 0; ok && k < n; k++) {
        if (!floe__img_zero(it[k].s)) continue; /* from the bodies themselves */
        int i = it[k].i, q = cellk[k];
        int cx = q % nx, cy = (q / nx) % ny, cz = q / (nx * ny);
        for (int z = cz - 1; ok && z <= cz + 1; z++)
            for (int y = cy - 1; ok && y <= cy + 1; y++)
                for (int x = cx - 1; ok && x <= cx + 1; x++) {
                    if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
                    int qq = x + nx * (y + ny * z);
                    for (int e = start[qq]; ok && e < start[qq + 1]; e++) {
                        const item *o = &it[order[e]];
                        if (o->i <= i) continue;
                        double lim = w->bound[i] + w->bound[o->i] + skin;
                        if (vlen2(vsub(o->p, w->pos[i])) < lim * lim) ok = push(w, i, o->i, o->s);
                    }
                }
    }
    free(start), free(order), free(cellk), free(it);
    if (!ok) {
        floe__error(w, "out of memory in the broad phase at step %lld", (long long)w->step);
        return FLOE_ERR_MEMORY;
    }
    return FLOE_OK;
}
