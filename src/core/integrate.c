/* Leapfrog integration with gravity, Cundall non-viscous damping, blocked
 * DOFs and prescribed motion (docs/integration.md#leapfrog). Velocities live at half
 * steps: v(t - dt/2) -> v(t + dt/2) with the forces of time t. */
#include "core/batch.h"
#include "core/bodyforces.h"
#include "core/broadphase.h"
#include "core/energy.h"
#include "core/integrate.h"
#include "core/motion.h"
#include "core/timestep.h"
#include "core/threads.h"

#include <omp.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* What a block of bodies leaves for the sums after the region (in block
 * order: the same for any thread count). */
typedef struct integ_acc {
    double damping;  /* energy removed by damping */
    double boundary; /* work done on the system by blocked DOFs */
    double gravity;  /* work of gravity */
    double body;     /* work of the body forces' non-conservative parts (drag, wind) */
    double moved2;   /* the largest squared displacement since the last rebuild (block_moved2) */
    int bad;         /* the first body that ran away, INT_MAX if none */
    int bmoving;     /* a blocked DOF moved (its boundary work is booked at the step's end) */
} integ_acc;

static inline double sgn(double x) { return (x > 0) - (x < 0); }

/* One free DOF: returns the new velocity; accumulates damping, gravity and
 * external-load work. */
static inline double advance(double v, double f, double fext, double g, double m, double dt, double damping,
                             integ_acc *acc) {
    double ftot = f + fext + m * g;
    double a = ftot / m;
    /* Cundall: the unbalanced force is reduced by D in the direction of motion */
    double ad = a * (1.0 - damping * sgn(ftot * (v + 0.5 * dt * a)));
    double vn = v + dt * ad;
    acc->damping += m * (a - ad) * 0.5 * (v + vn) * dt;
    acc->gravity += m * g * vn * dt;
    acc->boundary += fext * vn * dt;
    return vn;
}

/* Particles farther than this many initial bounding-box sizes from its
 * centre have left the domain: the run stops as a runaway. */
#define FLOE_RUNAWAY_REACH 1e3

/* The initial domain, set at the first step (and restored by restarts): the
 * box of the particles and their radii, at least ten sphere diameters. */
static void set_domain(floe_world *w) {
    vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = vneg(lo);
    double rmax = 0;
    for (int i = 0; i < w->np; i++) {
        double r = w->radius[i];
        vec3 p = w->pos[i];
        lo = v3(fmin(lo.x, p.x - r), fmin(lo.y, p.y - r), fmin(lo.z, p.z - r));
        hi = v3(fmax(hi.x, p.x + r), fmax(hi.y, p.y + r), fmax(hi.z, p.z + r));
        if (w->shape[i] == FLOE_SHAPE_SPHERE) rmax = fmax(rmax, r);
    }
    double size = fmax(vlen(vsub(hi, lo)), 20 * rmax), reach = FLOE_RUNAWAY_REACH * size;
    w->box_centre = w->np > 0 ? vscale(vadd(lo, hi), 0.5) : v3(0, 0, 0);
    w->box_reach2 = reach > 0 && isfinite(reach) && visfinite(w->box_centre) ? reach * reach : INFINITY;
}

/* One leapfrog kick of the three free DOFs of a body: velocity v, inertia m,
 * unbalanced force f. Cundall damping reduces the acceleration by D in the
 * direction of motion; the energy it takes is accumulated. */
static inline vec3 kick(vec3 v, vec3 f, double m, double dt, double D, integ_acc *acc) {
    vec3 a = vscale(f, 1.0 / m);
    if (D > 0) {
        vec3 vm = vmadd(v, a, 0.5 * dt);
        vec3 ad = v3(a.x * (1 - D * sgn(f.x * vm.x)), a.y * (1 - D * sgn(f.y * vm.y)), a.z * (1 - D * sgn(f.z * vm.z)));
        vec3 vn = vmadd(v, ad, dt);
        acc->damping += m * vdot(vsub(a, ad), vadd(v, vn)) * 0.5 * dt;
        a = ad;
    }
    return vmadd(v, a, dt);
}

/* Free translation: gravity, contact and external forces (f includes fext). */
static inline vec3 translate(vec3 v, vec3 f, vec3 fext, vec3 grav, double m, double dt, double D, integ_acc *acc) {
    v = kick(v, vadd(f, vscale(grav, m)), m, dt, D, acc);
    acc->gravity += m * vdot(grav, v) * dt;
    acc->boundary += vdot(fext, v) * dt;
    return v;
}

/* A body the general path below would treat as a free sphere: positive
 * mass, isotropic positive inertia (no blocked DOF, load or body force is
 * checked by the caller). Most bodies of a granular run are such. */
static inline int free_sphere(double m, vec3 I) { return m > 0 && I.x > 0 && I.x == I.y && I.y == I.z; }

/* The kicks of a free sphere: the general path's arithmetic for no blocked
 * DOF, no external load and no body force, without its branches and zeroed
 * terms. Bitwise the same as that path: the zero load is still added to
 * force and torque (x + 0 turns -0 into +0 there, as it does in the general
 * path); the boundary work of a zero load, which adds zero, is left out. */
static inline void free_body(vec3 f, vec3 t, double m, double I, vec3 grav, double dt, double D, vec3 *v, vec3 *om,
                             integ_acc *acc) {
    const vec3 zero = v3(0, 0, 0);
    *v = kick(*v, vadd(vadd(f, zero), vscale(grav, m)), m, dt, D, acc);
    acc->gravity += m * vdot(grav, *v) * dt;
    *om = kick(*om, vadd(t, zero), I, dt, D, acc);
}

/* Global angular velocity for angular momentum L at orientation q. */
static inline vec3 omega_of(quat q, vec3 I, vec3 L) {
    vec3 lb = qrotate(qconj(q), L);
    return qrotate(q, v3(lb.x / I.x, lb.y / I.y, lb.z / I.z));
}

/* Rotation of a body with distinct principal moments. Angular momentum L is
 * kept in the global frame and advanced by the torque (leapfrog: L at half
 * steps, like velocities). The orientation turns by the angular velocity of
 * the mid-step orientation, found by a few fixed-point passes (implicit
 * midpoint on the rotation group): time-reversible, so the kinetic energy of
 * a free body stays bounded instead of drifting as with Woo's explicit
 * scheme (docs/decisions.md#reversible-rotation-of-aspherical-bodies). Cundall
 * damping acts on the torque (first order). t: the whole torque, te: its
 * part from group loads, whose work is booked. Returns the global
 * omega(t + dt/2) consistent with L at the new orientation. */
static vec3 rotate_aspherical(floe_world *w, int i, vec3 t, vec3 te, uint32_t bl, double dt, double D, integ_acc *acc) {
    quat q = w->ori[i];
    vec3 I = w->inertia[i], om = w->angvel[i], L = w->angmom[i];
    if (!visfinite(L)) L = qrotate(q, vmul(I, qrotate(qconj(q), om))); /* from omega at first use */
    for (int k = 0; k < 3; k++)
        if (bl & (8u << k)) {
            vset(&t, k, 0);
            vset(&te, k, 0);
        }
    if (D > 0) {
        vec3 td = v3(t.x * (1 - D * sgn(t.x * om.x)), t.y * (1 - D * sgn(t.y * om.y)), t.z * (1 - D * sgn(t.z * om.z)));
        acc->damping += vdot(vsub(t, td), om) * dt;
        t = td;
    }
    L = vmadd(L, t, dt);                /* L(t + dt/2) */
    const vec3 om0 = omega_of(q, I, L); /* L(t + dt/2) at the step's first orientation */
    vec3 wm = om0;
    for (int it = 0; it < 4; it++) wm = omega_of(qmul(qfrom_rotvec(wm, 0.5 * dt), q), I, L);
    q = qnormalize(qmul(qfrom_rotvec(wm, dt), q));
    w->ori[i] = q;
    w->angmom[i] = L;
    vec3 om1 = omega_of(q, I, L); /* ... and at its last */
    /* the load te's work: the kinetic energy 1/2 L.M L (M = R I^-1 R^T)
     * changes by dt te.M L(t + dt/2) per step, M taken as the mean of its
     * values at both ends of the step; what is left over sums to
     * dt^2/8 te.(M(T) - M(0)) te over a run and does not accumulate
     * (docs/decisions.md#the-work-of-a-load-torque) */
    if (te.x != 0 || te.y != 0 || te.z != 0) acc->boundary += 0.5 * vdot(te, vadd(om0, om1)) * dt;
    return om1;
}

/* Any other body: blocked DOFs (kept or driven by a group motion), external
 * loads, body forces, aspherical inertia. Returns 1 if the orientation was
 * advanced here (aspherical bodies). */
static int general_body(floe_world *w, int i, uint32_t bl, const floe_drive *dr, uint32_t moving, uint32_t loaded,
                        int bodyf, vec3 *vp, vec3 *omp, integ_acc *acc, int *bmoving) {
    const double dt = w->dt, D = w->def.damping;
    const vec3 grav = w->def.gravity;
    vec3 v = *vp, om = *omp;
    int spun = 0;
    if (bl == FLOE_DOF_ALL && (w->groups[i] & moving)) {
        floe__drive_body(&dr[__builtin_ctz(w->groups[i] & moving)], w->pos[i], dt, &v, &om);
    }
    floe_bf bf = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    if (bodyf) floe__body_force(w, i, &bf); /* at x(t), v(t - dt/2) */
    if (bl != FLOE_DOF_ALL) {
        vec3 fe = v3(0, 0, 0), te = v3(0, 0, 0);
        if (w->groups[i] & loaded) floe__external_load(w, i, loaded, &fe, &te);
        double m = w->mass[i];
        vec3 I = w->inertia[i];
        /* contact forces, plus the body forces when there are any */
        vec3 fc = bodyf ? vadd(w->force[i], vadd(bf.f, bf.fw)) : w->force[i];
        vec3 tc = bodyf ? vadd(w->torque[i], vadd(bf.t, bf.tw)) : w->torque[i];
        if (!(bl & 7u) && m > 0) {
            v = translate(v, vadd(fc, fe), fe, grav, m, dt, D, acc);
        } else {
            for (int k = 0; k < 3; k++) {
                if ((bl & (1u << k)) || m <= 0) continue;
                vset(&v, k, advance(vcomp(v, k), vcomp(fc, k), vcomp(fe, k), vcomp(grav, k), m, dt, D, acc));
            }
        }
        vec3 t = vadd(tc, te);
        if (I.x > 0 && (bl & 56u) != 56u) {
            if (I.x != I.y || I.y != I.z) {
                om = rotate_aspherical(w, i, t, te, bl, dt, D, acc);
                spun = 1;
            } else if (!(bl & 56u)) {
                om = kick(om, t, I.x, dt, D, acc); /* isotropic inertia */
                /* the load's work with omega(t + dt/2), as translate books a
                 * force load's: the kinetic energy at t takes omega(t) as
                 * omega(t - dt/2) + dt/2 alpha(t), which makes the two agree */
                acc->boundary += vdot(te, om) * dt;
            } else {
                for (int k = 0; k < 3; k++) {
                    if (bl & (8u << k)) continue;
                    vset(&om, k, advance(vcomp(om, k), vcomp(tc, k), vcomp(te, k), 0, I.x, dt, D, acc));
                }
            }
        }
        /* work of drag and wind on the free DOFs, with the mean of
         * the old and new velocities (the kinetic energy at t takes
         * v(t) as that mean) */
        for (int k = 0; bodyf && k < 3; k++) {
            if (!(bl & (1u << k))) acc->body += vcomp(bf.fw, k) * 0.5 * (vcomp(v, k) + vcomp(w->vel[i], k)) * dt;
            if (!(bl & (8u << k))) acc->body += vcomp(bf.tw, k) * 0.5 * (vcomp(om, k) + vcomp(w->angvel[i], k)) * dt;
        }
    }
    /* blocked DOFs keep their velocity; the system receives their
     * work: the mean of the forces at t and t + dt times the step's
     * displacement (trapezoid), the half of t here, the half of
     * t + dt by floe__boundary_end once the contacts give them */
    for (int k = 0; bl && k < 3; k++) {
        /* buoyancy on a driven DOF: the driver works against it */
        if ((bl & (1u << k)) && vcomp(v, k) != 0) {
            acc->boundary -= 0.5 * (vcomp(w->force[i], k) + vcomp(bf.f, k)) * vcomp(v, k) * dt;
            *bmoving = 1;
        }
        if ((bl & (8u << k)) && vcomp(om, k) != 0) {
            acc->boundary -= 0.5 * (vcomp(w->torque[i], k) + vcomp(bf.t, k)) * vcomp(om, k) * dt;
            *bmoving = 1;
        }
    }
    *vp = v;
    *omp = om;
    return spun;
}

/* The checks after a block's update run as loops of their own over the
 * block, which the compiler vectorizes; inside the update loop they took
 * 40 % of the integrator (settle 10k: 0.14 s of steps without them against
 * 0.08 s, docs/performance.md, item 24). Both give what the per-body tests
 * gave, bit for bit. */

/* The largest squared distance a body of [i0, end) moved since the last
 * rebuild (spheres here, other bodies by floe__moved2_shape), a NaN counting as infinite so that it forces a
 * rebuild. A maximum does not depend on the order it is taken in; it is
 * taken on the bit patterns, which order non-negative doubles as their
 * values do (a squared length is never -0), because the compiler
 * vectorizes an integer maximum and not a floating one. */
static inline uint64_t moved_bits(double d2) {
    d2 = d2 == d2 ? d2 : INFINITY;
    uint64_t u;
    memcpy(&u, &d2, sizeof u);
    return u;
}

static double block_moved2(const floe_world *w, const vec3 *pos, const vec3 *ref_pos, const uint8_t *shape, int i0,
                           int end) {
    uint64_t m = 0; /* +0 */
    int others = 0;
    for (int i = i0; i < end; i++) {                                  /* vectorized */
        uint64_t sphere = -(uint64_t)(shape[i] == FLOE_SHAPE_SPHERE); /* all ones or 0: no branch */
        uint64_t u = moved_bits(vlen2(vsub(pos[i], ref_pos[i]))) & sphere;
        m = u > m ? u : m;
    }
    for (int i = i0; i < end; i++) others |= shape[i] != FLOE_SHAPE_SPHERE; /* vectorized */
    /* the other bodies as floe__moved2_shape takes them: by their class, whose
     * value need not be at least the sphere's (a root squared again) */
    for (int i = i0; others && i < end; i++)
        if (shape[i] != FLOE_SHAPE_SPHERE) {
            uint64_t u = moved_bits(floe__moved2_shape(w, i, vlen2(vsub(pos[i], ref_pos[i]))));
            m = u > m ? u : m;
        }
    double d2;
    memcpy(&d2, &m, sizeof d2);
    return d2;
}

/* Whether body i ran away: a position, velocity or angular velocity not
 * finite (x * 0 is NaN only for an infinite or NaN x: one test for all
 * nine components), or a position beyond reach of the domain's centre. */
static inline int runaway(vec3 x, vec3 v, vec3 om, vec3 centre, double reach2) {
    double z = x.x * 0.0 + x.y * 0.0 + x.z * 0.0 + v.x * 0.0 + v.y * 0.0 + v.z * 0.0 + om.x * 0.0 + om.y * 0.0 +
               om.z * 0.0;
    return (z != 0) | (vlen2(vsub(x, centre)) > reach2); /* no branch: the pass over a block vectorizes */
}

/* The first body of [i0, end) that ran away, or INT_MAX: the test over the
 * block in one vectorized pass, body by body only in a block that fails. */
static int block_first_bad(const vec3 *pos, const vec3 *vel, const vec3 *angvel, vec3 centre, double reach2, int i0,
                           int end) {
    int any = 0;
    for (int i = i0; i < end; i++) any |= runaway(pos[i], vel[i], angvel[i], centre, reach2); /* vectorized */
    if (any)
        for (int i = i0; i < end; i++)
            if (runaway(pos[i], vel[i], angvel[i], centre, reach2)) return i;
    return INT_MAX;
}

floe_status floe__integrate_begin(floe_world *w, floe_integ *it) {
    if (!(w->box_reach2 > 0)) set_domain(w);
    it->step = w->step;
    /* velocities imposed by group motions and phases at this time (motion.c) */
    it->moving = floe__drives(w, it->dr);
    it->loaded = floe__loaded_groups(w);
    it->bodyf = floe__body_forces_on(w); /* water: buoyancy, drag, wind */
    const int n = w->np, nb = (n + FLOE_BLOCK - 1) / FLOE_BLOCK;
    it->blocks = floe__scratch(w, SCR_INTEG_ACC, (size_t)(nb > 0 ? nb : 1) * sizeof *it->blocks);
    if (!it->blocks) {
        floe__error(w, "out of memory in the integrator");
        return FLOE_ERR_MEMORY;
    }
    /* which chunks' force sums may be nonzero (floe_world.ftouch): all of
     * them when not known; without memory, every chunk is read */
    const int nch = floe_touch_chunks(n);
    if (!w->ftouch || w->ftouch_n != nch) {
        free(w->ftouch);
        /* on lines of its own: the contact pass's first part writes it at
         * every contact (floe__scratch_lines) */
        w->ftouch = aligned_alloc(FLOE_LINE, floe__lines((size_t)(nch > 0 ? nch : 1)));
        w->ftouch_n = w->ftouch ? nch : 0;
        if (w->ftouch) memset(w->ftouch, 1, (size_t)(nch > 0 ? nch : 1));
    }
    return FLOE_OK;
}

/* Each thread its own blocks (floe__thread_blocks): the bodies whose
 * contacts and pairs it also handles. */
void floe__integrate_blocks(floe_world *w, const floe_integ *it) {
    const double dt = w->dt, D = w->def.damping;
    const vec3 grav = w->def.gravity;
    const uint32_t moving = it->moving, loaded = it->loaded;
    const int n = w->np, nch = floe_touch_chunks(n), bodyf = it->bodyf;
    int b0, b1;
    floe__thread_blocks(w, omp_get_thread_num(), omp_get_num_threads(), &b0, &b1);
    for (int blk = b0; blk < b1; blk++) {
        integ_acc acc = {0, 0, 0, 0, 0, INT_MAX, 0};
        int end = (blk + 1) * FLOE_BLOCK < n ? (blk + 1) * FLOE_BLOCK : n;
        /* the arrays in locals: the compiler cannot know that a store into
         * them leaves the world's pointers alone, and would reload those */
        vec3 *pos = w->pos, *vel = w->vel, *angvel = w->angvel;
        vec3 *force = w->force, *torque = w->torque;
        quat *ori = w->ori;
        const double *mass = w->mass;
        const vec3 *inertia = w->inertia, centre = w->box_centre;
        const uint32_t *blocked = w->blocked, *groups = w->groups;
        const double reach2 = w->box_reach2;
        const vec3 *ref_pos = w->bp.ref_pos;
        const uint8_t *shape = w->shape;
        const int renormalize = (it->step & 63) == 0;
        /* a sphere's orientation is read by no force (its surface looks
         * the same at every turn), only by outputs; a sphere with
         * aspherical inertia turns above (spun) either way */
        const int turn_spheres = w->def.sphere_orientation;
        uint8_t *ftouch = w->ftouch;
        for (int i = blk * FLOE_BLOCK; i < end; i++) {
            /* a chunk no contact added to: its sums are +0 in memory, and
             * its free spheres take them as such without reading or
             * zeroing them (the general path reads them still) */
            const int quiet = ftouch && !ftouch[i >> FLOE_TOUCH_SHIFT];
            uint32_t bl = blocked[i];
            vec3 v = vel[i], om = angvel[i];
            int spun = 0; /* orientation already advanced (aspherical integrator) */
            if (!bl && !bodyf && !(groups[i] & loaded) && free_sphere(mass[i], inertia[i])) {
                const vec3 zero = v3(0, 0, 0);
                free_body(quiet ? zero : force[i], quiet ? zero : torque[i], mass[i], inertia[i].x, grav, dt, D, &v,
                          &om, &acc);
            } else {
                spun = general_body(w, i, bl, it->dr, moving, loaded, bodyf, &v, &om, &acc, &acc.bmoving);
            }
            vel[i] = v;
            angvel[i] = om;
            vec3 x = vmadd(pos[i], v, dt);
            pos[i] = x;
            /* used: the contact pass sums the next forces into zeroed arrays */
            if (!quiet) force[i] = torque[i] = v3(0, 0, 0);
            if (!spun && (turn_spheres || shape[i] != FLOE_SHAPE_SPHERE) && (om.x != 0 || om.y != 0 || om.z != 0)) {
                /* a product of unit quaternions stays unit to rounding: its
                 * drift (~1e-16 per step) is taken out every 64 steps */
                quat q = qmul(qfrom_rotvec(om, dt), ori[i]);
                ori[i] = renormalize ? qnormalize(q) : q;
            }
        }
        /* the block's chunks are zero now (a block is whole chunks but the last) */
        for (int ch = (blk * FLOE_BLOCK) >> FLOE_TOUCH_SHIFT; ftouch && ch < nch && ch << FLOE_TOUCH_SHIFT < end; ch++)
            ftouch[ch] = 0;
        acc.moved2 = block_moved2(w, pos, ref_pos, shape, blk * FLOE_BLOCK, end);
        acc.bad = block_first_bad(pos, vel, angvel, centre, reach2, blk * FLOE_BLOCK, end);
        it->blocks[blk] = acc;
    }
}

floe_integ_sum floe__integrate_sum(const floe_world *w, const floe_integ *it) {
    floe_integ_sum s = {0, w->np, 0};
    for (int blk = 0, nb = (w->np + FLOE_BLOCK - 1) / FLOE_BLOCK; blk < nb; blk++) {
        const integ_acc *b = &it->blocks[blk];
        if (!(b->moved2 <= s.moved2)) s.moved2 = b->moved2;
        if (b->bad < s.bad) s.bad = b->bad;
        s.bmoving |= b->bmoving;
    }
    return s;
}

floe_status floe__integrate_end(floe_world *w, const floe_integ *it) {
    const floe_integ_sum s = floe__integrate_sum(w, it);
    w->bp.max_moved2 = s.moved2;
    w->boundary_moving = s.bmoving;
    for (int blk = 0, nb = (w->np + FLOE_BLOCK - 1) / FLOE_BLOCK; blk < nb; blk++) {
        w->e_damping += it->blocks[blk].damping;
        w->e_boundary += it->blocks[blk].boundary;
        w->e_gravity_work += it->blocks[blk].gravity;
        if (it->bodyf) w->e_body_work += it->blocks[blk].body;
    }
    const int bad = s.bad;
    if (bad < w->np) {
        /* named by the step being computed (w->step + 1), as the contact pass names it */
        vec3 p = w->pos[bad];
        double dist = vlen(vsub(p, w->box_centre));
        char cause[320];
        floe__runaway_cause(w, NULL, bad, cause, sizeof cause);
        if (!visfinite(p))
            floe__error(w, "runaway at step %lld: particle %d: its position is not finite (it overflowed)%s",
                        (long long)w->step + 1, bad, cause);
        else if (!visfinite(w->vel[bad]) || !visfinite(w->angvel[bad]))
            floe__error(w, "runaway at step %lld: particle %d: its velocity or angular velocity is not finite%s",
                        (long long)w->step + 1, bad, cause);
        else if (!isfinite(dist))
            floe__error(w,
                        "runaway at step %lld: particle %d left the domain: its position (%g, %g, %g) m is so far "
                        "out that its distance from the centre overflows%s",
                        (long long)w->step + 1, bad, p.x, p.y, p.z, cause);
        else
            floe__error(w,
                        "runaway at step %lld: particle %d left the domain: it is %g m from the centre of the "
                        "initial bounding box, more than %g times the box size (%g m)%s",
                        (long long)w->step + 1, bad, dist, FLOE_RUNAWAY_REACH, sqrt(w->box_reach2) / FLOE_RUNAWAY_REACH,
                        cause);
        return FLOE_ERR_RUNAWAY;
    }
    return FLOE_OK;
}

floe_status floe__integrate(floe_world *w) {
    floe_integ it;
    floe_status st = floe__integrate_begin(w, &it);
    if (st != FLOE_OK) return st;
#pragma omp parallel num_threads(floe__threads(w))
    floe__integrate_blocks(w, &it);
    return floe__integrate_end(w, &it);
}

/* The second half of the boundary work of the step just integrated: forces
 * at t + dt (the contact pass just computed them) times the displacement of
 * the blocked DOFs during the step. Serial, in particle order: the same sum
 * for any thread count; skipped when no blocked DOF moved. */
void floe__boundary_end(floe_world *w) {
    if (!w->boundary_moving) return;
    const double dt = w->dt;
    const int bodyf = floe__body_forces_on(w);
    double work = 0;
    for (int i = 0; i < w->np; i++) {
        uint32_t bl = w->blocked[i];
        floe_bf bf = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        if (bodyf && bl && bl != FLOE_DOF_ALL) floe__body_force(w, i, &bf);
        for (int k = 0; bl && k < 3; k++) {
            if (bl & (1u << k)) work -= 0.5 * (vcomp(w->force[i], k) + vcomp(bf.f, k)) * vcomp(w->vel[i], k) * dt;
            if (bl & (8u << k)) work -= 0.5 * (vcomp(w->torque[i], k) + vcomp(bf.t, k)) * vcomp(w->angvel[i], k) * dt;
        }
    }
    w->e_boundary += work;
}
