/* The world's internal layout. Particles are a structure of arrays; contacts
 * are a dense array plus a parallel array of model state blobs; shape
 * records are kept per shape, as the shape's class sizes them. Its
 * functions are defined in world.c (docs/architecture.md). */
#ifndef FLOE_CORE_WORLD_H
#define FLOE_CORE_WORLD_H

#include "base/cpu_use.h"
#include "base/mem.h"
#include "models/model.h"
#include "shapes/registry.h"
#include <stdint.h>
#include <stdlib.h>

/* Scratch slots: contact energy blocks, pair hits, body extents (broad
 * phase), flagged contacts, integrator energy blocks, batched-kernel
 * results, the force sums of contact parts 1.. (kept zero between steps). */
enum {
    SCR_CONTACT_ACC,
    SCR_HITS,
    SCR_EXTENTS,
    SCR_FLAGGED,
    SCR_INTEG_ACC,
    SCR_BATCH,
    SCR_PART_SUMS,
    SCR_PART_TOUCHED, /* the chunks of bodies parts 1.. summed into (kept zero between steps) */
    SCR_PLANE_SIDES,  /* plane counters: each body's side before the step's motion */
    FLOE_SCRATCH
};

typedef struct floe_material {
    char name[64];
    int model;                     /* preferred model (registry index) */
    double p[FLOE_MAX_MAT_PARAMS]; /* in that model's schema order */
} floe_material;

typedef struct floe_instance {
    int model;           /* registry index */
    const floe_model *m; /* the model itself */
    double lp[FLOE_MAX_LAW_PARAMS];
} floe_instance;

typedef struct floe_pair_override {
    int a, b, inst;
} floe_pair_override;

typedef struct floe_scheduled {
    int64_t step;
    char model[32], method[32];
    int group, nargs;
    double args[FLOE_MAX_METHOD_ARGS];
} floe_scheduled;

typedef struct floe_group {
    char name[64];
    int has_motion, has_load;
    floe_motion motion;
    vec3 load_f, load_t; /* external load on each member */
    /* phases (src/core/motion.c): the current one, and what its triggers
     * and servo measure from its start */
    int phase;       /* index among the group's phases; -1: before the first */
    double phase_t0; /* time the current phase began */
    double peak;     /* largest measured force since then (FORCE_DROP) */
    vec3 ref;        /* mean member position then (DISPLACEMENT) */
    double servo[3]; /* last step's servo: measured, target, velocity */
} floe_group;

/* One phase of a group (floe_group_set_phases), kept in group order. */
typedef struct floe_phase_row {
    int group;
    floe_phase p;
} floe_phase_row;

/* The records of one shape (shapes/shape.h), in shape index order. */
typedef struct floe_shape_store {
    unsigned char *rec;
    size_t size; /* bytes per record: the class's (0: spheres, whose record is the radius) */
    int n, cap;
} floe_shape_store;

/* A plane counter (floe_add_plane_counter, src/core/measure.c). */
typedef struct floe_plane_counter {
    char name[64];
    vec3 point, normal; /* normal: unit */
    int group;          /* -1: every particle */
    int64_t n[2];       /* crossings to the positive [0] and to the negative [1] side */
    double m[2];        /* their summed mass */
} floe_plane_counter;

/* An inlet (floe_add_inlet, src/core/supply.c): its definition, flattened
 * for the snapshot, then its random numbers and counters. */
typedef struct floe_inlet {
    char name[64];
    int region, shape, by_mass, ntri, material, max_tries;
    uint32_t groups;
    vec3 lo, hi, base, axis; /* box; cylinder */
    double radius;           /* cylinder */
    double tri[FLOE_INLET_MAX_TRIANGLES * 9];
    double rate, t_start, t_end, spread;
    vec3 vel;
    int dkind[3], dnpts[3], dby_mass[3]; /* the three size distributions (floe_size_dist) */
    double dpar[12];                     /* min, max, mu, sigma of each */
    double dsizes[3 * FLOE_SIEVE_MAX_POINTS], dpassing[3 * FLOE_SIEVE_MAX_POINTS];
    int64_t seed;
    int64_t rng[4]; /* xoshiro256** state (core/size_dist.h) */
    double owed;    /* bodies (or kg) owed */
    int pending;    /* 1: psize holds the next body's sizes */
    double psize[3];
    int ptries; /* centres tried for it in an insertion that was interrupted (0 otherwise) */
    int64_t inserted, tries, failures;
    double mass, asked, missed;
    int short_of_rate;
    int recycle;         /* sink whose removals this inlet re-inserts, or -1 (rate then unused) */
    double recycle_seen; /* that sink's count (or mass) already owed */
} floe_inlet;

/* A sink (floe_add_sink, src/core/supply.c). */
typedef struct floe_sink {
    char name[64];
    int region, group;
    vec3 lo, hi, point, normal;
    double t_start, t_end;
    int64_t removed;
    double mass, energy;
} floe_sink;

/* Broad-phase candidate pair; `contact` is the live contact index or -1.
 * B's periodic image is in floe_broadphase.img (floe__pair_img). */
typedef struct floe_pair {
    int32_t a, b, contact;
} floe_pair;

typedef struct floe_broadphase {
    floe_pair *pairs;
    int npairs, cap;
    /* per pair: B's periodic image (cell offsets); kept only with a periodic
     * cell (img_cap >= cap then), NULL without one, where every image is
     * zero: 12 of a pair's 24 bytes (docs/performance.md#peak-memory) */
    floe_img *img;
    int img_cap;
    vec3 *ref_pos; /* positions at the last rebuild */
    quat *ref_ori; /* orientations at the last rebuild */
    int *cell_start, *cell_items, *cell_of;
    int ncells_cap, nitems_cap, cell_of_cap;
    double margin;     /* extra pair-search distance (creation gaps) */
    double max_moved2; /* largest squared displacement (integrate.c) after the last update */
    int valid;
    int split; /* contacts [0, split) belonged to the first thread's bodies at the last sort (step.c's parts) */
    /* the work of the bodies of blocks [0, b) of FLOE_BLOCK, b = 0..load_nb,
     * estimated at the last contact sort: where threads cut the bodies
     * (floe__thread_blocks); NULL or stale (load_nb not the block count):
     * cut evenly */
    double *load;
    int load_nb;
} floe_broadphase;

/* The periodic cell (src/core/cell.c, docs/periodic.md): a parallelepiped
 * of origin `origin` and cell vectors the columns of h (row-major,
 * h[3*i + j] = H_ij), periodic along the axes of `axes`; it deforms as
 * dH/dt = L H with the velocity gradient l. Columns of axes that are not
 * periodic are the unit vectors and never change. */
typedef struct floe_cell {
    int axes; /* bit k: axis k is periodic; 0: no cell */
    vec3 origin;
    double h[9], l[9];
    double h_ref[9]; /* H at the last broad-phase rebuild */
    double h0[9];    /* H at the start */
    double hu[9];    /* H as L made it, without the reductions (the strain is hu H0^-1 - I) */
    int64_t flips;   /* times the cell vectors were reduced (Lees-Edwards flips) */
    /* stress-controlled axes (floe_world_set_cell_servo): bit k sets L_kk
     * every step from the cell's stress sigma_kk and its target, with the
     * gain given, or alpha / (K dt) when the gain is 0 */
    int servo_axes;
    double servo_stress[3], servo_gain[3], servo_max[3], servo_alpha[3];
    int phase; /* the current one of the world's cell phases (cell_phases.c); -1: before the first */
} floe_cell;

/* Every array with one row per particle, for the code that grows, moves or
 * compacts them all (world_api.c, supply.c): an array added to the world
 * joins this list and is then never left behind. */
// clang-format off
#define FLOE_PARTICLE_ARRAYS(X) \
    X(pos) X(vel) X(angvel) X(force) X(torque) X(ori) X(mass) X(inertia) X(radius) X(shape) X(shape_idx) X(mat) \
    X(blocked) X(groups) X(bp.ref_pos) X(bound)
/* Rows only a body that is not a sphere or a wall, or a periodic cell,
 * reads: kept with the geometry records (floe__geom_keep), NULL before. */
#define FLOE_PARTICLE_ARRAYS_KEPT(X) X(bp.ref_ori) X(angmom) X(wraps)
// clang-format on

/* Every member is listed in the snapshot's table (src/core/snapshot_members.c;
 * the shape store's records through the classes, snapshot_shapes.c) as
 * state, a count, derived or transient: a new member needs its line there
 * (tests/test_snapshot.c fails until it has one). */
/* The thread count of each step (core/threads.h): the last trial's step
 * times on 1 thread and on the ceiling, and its choice. */
typedef struct floe_thread_tuner {
    int now, best; /* the count this step uses; the last trial's choice */
    int fixed;     /* 1: every step uses the ceiling (floe_set_thread_tuning) */
    int n1, nn;    /* samples in t1 (1 thread) and tn (the ceiling) */
    double t1[32], tn[32];
    int64_t start;         /* step at which the last trial began (-1: none yet) */
    int ncon0;             /* contacts when it began */
    int64_t hold;          /* steps after a trial before a change of the work starts another */
    int cut_short;         /* 1: the last trial ended early (its ceiling clearly slower, or no room) */
    int room;              /* the count the last trial offered: the ceiling, or fewer where others keep cores busy */
    double others;         /* cores other processes kept busy between the last two readings (-1: unknown) */
    floe_cpu_sample since; /* the clocks at the last reading */
    int64_t trials;        /* trials decided so far */
} floe_thread_tuner;

typedef void floe_free_fn(void *);

struct floe_world {
    floe_world_def def;
    char err[1024];

    int64_t step;
    double time, dt;
    int dt_auto, prepared, started, stopped;
    int nthreads; /* resolved OpenMP thread count: the most a step uses */
    floe_thread_tuner tune;
    double rmax;      /* largest sphere radius (at start) */
    int64_t n_breaks; /* bonds broken so far */
    int64_t last_dyn_dt;
    double skin; /* resolved absolute skin */
    vec3 box_centre;
    double box_reach2; /* runaway: squared distance from the initial centre (0: not set) */

    /* particles (SoA) */
    int np, pcap;
    vec3 *pos, *vel, *angvel, *force, *torque;
    quat *ori;
    double *mass, *radius;
    vec3 *inertia; /* principal moments, body frame */
    vec3 *angmom;  /* angular momentum, global frame (aspherical bodies; NaN: from angvel); kept rows */
    double *bound; /* bounding-sphere radius about pos (0: not on the grid) */
    uint8_t *shape;
    int32_t *shape_idx, *mat;
    uint32_t *blocked, *groups;
    floe_img *wraps; /* times each body was wrapped back into the periodic cell, per cell vector; kept rows */
    /* (every array above has one row per particle: FLOE_PARTICLE_ARRAYS and
     * FLOE_PARTICLE_ARRAYS_KEPT) */
    /* per chunk of 1 << FLOE_TOUCH_SHIFT bodies (batch.h): 0 if every
     * force and torque sum of the chunk is +0, so that the integrator need
     * neither read nor zero them; set by the contact pass where it adds,
     * cleared by the integrator as it zeroes. NULL: not known, every chunk
     * counts as written; whatever else writes the sums drops it
     * (floe__forces_unknown). ftouch_n: its chunks. */
    uint8_t *ftouch;
    int ftouch_n;
    /* each body's clump for a clump's pebbles, -1 for every other body
     * (core/clump.h); NULL in a world without clumps. Derived from the
     * clump records: the n bodies after a clump are its pebbles */
    int32_t *clump_of;
    int clump_cap;

    floe_shape_store store[FLOE_SHAPE_COUNT]; /* by shape; shape_idx is the row */

    floe_material *mats;
    int nmats, mcap;
    floe_instance *insts;
    int ninsts, icap; /* first floe_registry_count() are the defaults */
    floe_pair_override *overrides;
    int noverrides, ocap;
    int *pair_inst; /* nmats x nmats, rebuilt at prepare */
    int pair_inst_n;

    floe_group groups_[FLOE_MAX_GROUPS];
    int ngroups;

    /* contacts: hot, warm and cold records of one index (models/model.h),
     * grown, moved and removed together with the model states; cwarm is
     * NULL while the world keeps no warm records (warm_kept 0: every
     * contact's is implied, floe__warm) */
    floe_contact *con;
    floe_contact_warm *cwarm;
    floe_contact_cold *ccold;
    floe_contact_geo *cgeom; /* NULL while every contact's geometry follows from the positions (geom_kept 0) */
    int ncon, ccap;
    unsigned char *cstate;
    size_t cstride;
    int warm_kept; /* 1: cwarm is grown with the other contact arrays (world.c, floe__warm_keep) */
    int geom_kept; /* 1: cgeom is, likewise, and the particles' kept rows (world.c, floe__geom_keep) */

    floe_broadphase bp;

    /* energy */
    double e_plastic, e_damping, e_dashpot, e_broken, e_boundary, e_elastic;
    double e_gravity_work; /* cumulative work of gravity */
    double e_total0;       /* total at the start */
    double e_scale;        /* largest sum of the magnitudes of the terms seen at the balance checks */
    int energy_warned;     /* the balance error passed def.energy_warn (its event was emitted) */
    int boundary_moving;   /* this step moved a blocked DOF (floe__boundary_end); not state */

    /* body forces (core/bodyforce.h): water (floe_world_set_water) */
    int has_water;
    floe_water_def water;
    double e_body_work; /* cumulative work of their non-conservative parts (drag, wind) */

    /* the events of the last floe_step / floe_start (floe_events): cleared
     * as each begins, so not state (restarts leave them out) */
    floe_event *events;
    int nevents, evcap;
    uint64_t event_serial; /* times the list was cleared */
    uint32_t event_mask;   /* bit t: events of type t are recorded (floe_set_event_types) */

    floe_scheduled *sched;
    int nsched, schedcap; /* model methods to apply at given steps */

    floe_cell cell;         /* periodic cell (cell.c) */
    floe_phase_row *phases; /* every group's phases, by group then order (motion.c) */
    int nphases, phcap;
    floe_cell_phase *cphases; /* the periodic cell's phases (cell_phases.c) */
    int ncphases, cphcap;

    floe_plane_counter *planes; /* crossings counted every step (measure.c) */
    int nplanes, plcap;

    floe_inlet *inlets; /* bodies inserted and removed after each step (supply.c) */
    int ninlets, inlcap;
    floe_sink *sinks;
    int nsinks, skcap;
    /* an insertion after a step stopped by the interrupt function: 1 + the
     * inlet it stopped in (the next floe_step finishes it first); 0: none */
    int supply_next;
    int64_t max_particles; /* inlets insert no body past this many particles (floe_set_particle_budget) */
    int64_t supply_tests;  /* bodies the insertion test looked at (a count for the tests; not state) */
    /* the insertion test's search (supply.c), its memory kept between steps
     * and freed through supply_room_free; not state */
    void *supply_room;
    floe_free_fn *supply_room_free;

    /* polled in long loops (floe_set_interrupt); not state */
    floe_interrupt_fn *interrupt;
    void *interrupt_ctx;

    /* this step's bond-break loads reported by laws (floe_event_load), by
     * contact index; sorted before the events are emitted */
    struct floe_break_load {
        int k;
        floe_event_load ld;
    } * brk;
    int nbrk, brkcap, brk_oom;

    void *scratch[FLOE_SCRATCH];
    size_t scratch_size[FLOE_SCRATCH]; /* per-step work buffers, reused */
    int nflagged;                      /* contacts listed in scratch[SCR_FLAGGED] this step */
    int dt_recheck;      /* auto dt: a contact made this step is too stiff for dt (cleared within the step) */
    int batch_off;       /* tests: every contact through the per-contact path */
    int fuse_off;        /* tests: the integrator and the contact phase in regions of their own (step.c) */
    int64_t fused_steps; /* steps whose contact phase ran in the integrator's region (step.c) */
};

/* A work buffer of at least `bytes` in slot `slot`, reused from step to step. */
static inline void *floe__scratch(floe_world *w, int slot, size_t bytes) {
    return floe__reserve(&w->scratch[slot], &w->scratch_size[slot], bytes);
}

/* The size of a cache line, to keep apart what different threads write. */
#define FLOE_LINE 64
/* Bytes rounded up to whole cache lines. */
static inline size_t floe__lines(size_t bytes) { return (bytes + FLOE_LINE - 1) / FLOE_LINE * FLOE_LINE; }

/* A work buffer as floe__scratch whose `bytes` have cache lines of their
 * own: they start on a line, and no other allocation shares the lines they
 * end on. Where one thread writes into a buffer that another reads every
 * step, a shared line travels between the cores at each write (false
 * sharing; docs/performance.md, item 38). The offset from the slot's
 * start changes only when the slot grows: a buffer kept zero between steps
 * is zeroed whenever the slot grows (floe__lines_slot). */
static inline void *floe__lines_start(void *slot) {
    unsigned char *p = slot;
    return p ? p + (FLOE_LINE - (uintptr_t)p % FLOE_LINE) : NULL;
}
/* The slot's size floe__scratch_lines reserves for `bytes`: compare
 * scratch_size with it to tell whether the slot grew. */
static inline size_t floe__lines_slot(size_t bytes) { return bytes + 2 * FLOE_LINE; }
static inline void *floe__scratch_lines(floe_world *w, int slot, size_t bytes) {
    return floe__lines_start(floe__scratch(w, slot, floe__lines_slot(bytes)));
}

/* ---- lens and images (docs/decisions.md#lens-images-and-the-rows-of-turning-bodies-only-where-they-are-read) ---- */
/* The lens floe_l6geom_create sets for contact c between two spheres or
 * a wall and a sphere, without legacy lens: the radii, a wall taking the
 * sphere's. */
static inline void floe__lens_implied(const floe_world *w, const floe_contact *c, double lens[2]) {
    lens[0] = w->radius[(c->flags & CF_SPHERES) ? c->a : c->b];
    lens[1] = w->radius[c->b];
}
/* Contact k's lens: the kept record's, or the implied ones where the world
 * keeps none (every contact is of that kind). */
static inline void floe__contact_lens(const floe_world *w, int k, double lens[2]) {
    if (w->cgeom) {
        lens[0] = w->cgeom[k].lens[0];
        lens[1] = w->cgeom[k].lens[1];
    } else {
        floe__lens_implied(w, &w->con[k], lens);
    }
}

/* Contact k's image of B: zero where no record is kept (no periodic cell). */
static inline floe_img floe__contact_img(const floe_world *w, int k) {
    return w->cgeom ? w->cgeom[k].img : (floe_img){{0, 0, 0}};
}

/* ---- warm records (docs/decisions.md#warm-records-only-where-a-contact-needs-one) ----
 * A contact of a model that keeps nothing in its warm record (no_warm)
 * between two spheres or a wall and a sphere, without legacy lens, has the
 * warm record floe_l6geom_create and the law leave: no torque, no twist or
 * rolling spring, and the area pi rho^2 of rho the smaller of its lens (the
 * radii of the spheres; a wall takes the sphere's). While every contact of
 * the world is such a contact the world stores no warm records (11 MB at
 * dense 100k, docs/performance.md#peak-memory); the first body or model
 * instance that may make another kind makes it keep them (floe__warm_keep),
 * the implied records of the contacts it has written in. */
static inline floe_contact_warm floe__warm_implied(const double lens[2]) {
    double rho = fmin(lens[0], lens[1]);
    return (floe_contact_warm){.m = {0, 0, 0}, .kw = 0, .kr = 0, .area = FLOE_PI * rho * rho};
}
/* Contact k's warm record: the world's, or the implied one written into *tmp. */
static inline const floe_contact_warm *floe__warm(const floe_world *w, int k, floe_contact_warm *tmp) {
    if (w->cwarm) return &w->cwarm[k];
    double lens[2];
    floe__contact_lens(w, k, lens);
    *tmp = floe__warm_implied(lens);
    return tmp;
}
/* world.c: makes the world keep warm records from now on (the contacts'
 * implied ones written in); 0 when out of memory. */
int floe__warm_keep(floe_world *w);
/* world.c: whether the world's bodies, legacy lens or reachable model
 * instances (floe__prepare's table) may make a contact whose warm record is
 * not implied; floe__prepare keeps the records when they may. */
int floe__warm_needed(const floe_world *w);

/* Candidate pair p's image of B: zero without a periodic cell. */
static inline floe_img floe__pair_img(const floe_broadphase *bp, int p) {
    return bp->img ? bp->img[p] : (floe_img){{0, 0, 0}};
}

/* world.c: services on the world's state for the whole core (the public
 * functions that build and read a world are in world_api.c). */
/* Whether the interrupt function (floe_set_interrupt) asks to stop. */
static inline int floe__interrupted(floe_world *w) { return w->interrupt && w->interrupt(w->interrupt_ctx); }
void floe__error(floe_world *w, const char *fmt, ...);
/* Writes "fn: what id N is out of range [0, n-1] ..." as the world's error;
 * returns FLOE_ERR_ARG. */
int floe__bad_id(const floe_world *w, const char *fn, const char *what, int id, int n);
/* The public functions' id check: returns `ret` from the caller on a bad id. */
#define CHECK_ID(w, id, n, what, ret)               \
    do {                                            \
        if ((id) < 0 || (id) >= (n)) {              \
            floe__bad_id(w, __func__, what, id, n); \
            return ret;                             \
        }                                           \
    } while (0)
int floe__prepare(floe_world *w);
/* The thread count start() resolves from def.threads (0: automatic). */
int floe__resolve_threads(const floe_world *w);
const floe_instance *floe__pair_instance(const floe_world *w, int ma, int mb);
/* The instance index of the material pair (a, b) as floe__prepare puts it
 * into its table: an override, else the common preferred model, else Linear. */
int floe__pair_inst_of(const floe_world *w, int a, int b);
/* The override of the material pair (a, b) in either order, or NULL. */
floe_pair_override *floe__find_override(floe_world *w, int a, int b);

/* Sum of the external group loads on particle i (mask: groups with a load). */
static inline void floe__external_load(const floe_world *w, int i, uint32_t mask, vec3 *f, vec3 *t) {
    *f = *t = v3(0, 0, 0);
    for (uint32_t lg = w->groups[i] & mask; lg; lg &= lg - 1) {
        const floe_group *gr = &w->groups_[__builtin_ctz(lg)];
        *f = vadd(*f, gr->load_f);
        *t = vadd(*t, gr->load_t);
    }
}

static inline uint32_t floe__loaded_groups(const floe_world *w) {
    uint32_t m = 0;
    for (int g = 0; g < w->ngroups; g++)
        if (w->groups_[g].has_load) m |= 1u << g;
    return m;
}

static inline int floe__threads(const floe_world *w) { return w->tune.now > 0 ? w->tune.now : w->nthreads; }

/* Bodies per work block. The integrator takes partial sums per block and
 * adds them in block order, which makes results independent of the thread
 * count; the broad phase cuts the same blocks among threads, so that a
 * thread searches around the bodies it moves. */
#define FLOE_BLOCK 1024

/* Shape data and pose of body i: what the narrow phase and the shapes'
 * other functions take (a sphere's data is its radius entry). */
static inline const void *floe__shape_data(const floe_world *w, int i) {
    const floe_shape_store *s = &w->store[w->shape[i]];
    return s->size ? (const void *)(s->rec + (size_t)w->shape_idx[i] * s->size) : (const void *)&w->radius[i];
}
static inline floe_pose floe__pose(const floe_world *w, int i) { return (floe_pose){w->pos[i], w->ori[i]}; }
static inline const floe_shape_class *floe__class_of(const floe_world *w, int i) {
    return floe__shape_tables()->by_type[w->shape[i]];
}

/* The orientation body i's surface turns with: its own where the surface
 * moves when it turns, else (a sphere) the identity. What a broad-phase
 * rebuild records (the kept row bp.ref_ori; a world of spheres and walls
 * need not keep it, floe__geom_keep) and what the water reads, so that a
 * sphere's orientation, which may stand still
 * (docs/decisions.md#sphere-orientation-only-when-wanted), feeds no force. */
static inline quat floe__surface_ori(const floe_world *w, int i) {
    return (floe__class_of(w, i)->flags & FLOE_SHAPE_TURNS) ? w->ori[i] : qidentity();
}

/* Narrow phase fn on bodies a and b. */
static inline int floe__collide(const floe_world *w, floe_collide_fn *fn, int a, int b, const vec3 *prev, double gap,
                                floe_raw_contact *out) {
    floe_pose pa = floe__pose(w, a), pb = floe__pose(w, b);
    return fn(floe__shape_data(w, a), &pa, floe__shape_data(w, b), &pb, prev, gap, out);
}

/* What a model sees of the world for contact c. */
static inline void floe__law_ctx(const floe_world *w, const floe_contact *c, int fresh, floe_law_ctx *ctx) {
    ctx->dt = w->dt;
    ctx->step = w->step;
    ctx->fresh = fresh;
    ctx->dim = w->def.dimension;
    ctx->lp = w->insts[c->inst].lp;
    /* bodies that cannot translate freely act as infinitely heavy; a
     * clump's pebble has the clump's mass (core/clump.h) */
    const int ma = w->clump_of && w->clump_of[c->a] >= 0 ? w->clump_of[c->a] : c->a;
    const int mb = w->clump_of && w->clump_of[c->b] >= 0 ? w->clump_of[c->b] : c->b;
    ctx->mass[0] = w->mass[ma] > 0 && (w->blocked[ma] & 7u) != 7u ? w->mass[ma] : INFINITY;
    ctx->mass[1] = w->mass[mb] > 0 && (w->blocked[mb] & 7u) != 7u ? w->mass[mb] : INFINITY;
    ctx->event_load = NULL;
    ctx->warm = w->cwarm ? &w->cwarm[c - w->con] : NULL; /* NULL: the caller points it at the implied record */
    if (fresh) ctx->lens[0] = ctx->lens[1] = NAN;        /* the caller's, from floe_l6geom_create */
    else floe__contact_lens(w, (int)(c - w->con), ctx->lens);
    ctx->g = NULL; /* the caller's */
    /* radii of curvature, for the models whose law depends on them (Hertz):
     * only in the creation step, where create reads them */
    if (fresh) {
        for (int i = 0; i < 2; i++) {
            int id = i ? c->b : c->a, sh = w->shape[id];
            ctx->curv[i] = sh == FLOE_SHAPE_WALL || sh == FLOE_SHAPE_FACET ? INFINITY
                           : sh == FLOE_SHAPE_ELLIPSOID                    ? 0
                                                                           : w->radius[id];
        }
    } else {
        ctx->curv[0] = ctx->curv[1] = NAN;
    }
}

/* ---- geometry that follows from the positions ----------------------------
 * The normal, point and gap of a contact between two spheres, or a wall (A)
 * and a sphere, are what the narrow phase gives for the bodies' positions;
 * the contact pass keeps only the frame's tangent t1 of them, which it
 * carries (docs/decisions.md#the-geometry-of-sphere-contacts-follows-from-the-positions).
 * Not in a periodic cell, whose wraps move a body by a cell vector and
 * change its velocity, nor through an image: those keep theirs in the
 * geometry records (cgeom). Coincident sphere centres (a runaway) take the
 * normal (1, 0, 0). */
/* Whether contact c is between two spheres or a wall and a sphere: the
 * contacts the batch takes (batch.h) and whose geometry may follow. */
static inline int floe__sphere_contact(const floe_world *w, const floe_contact *c) {
    return (c->flags & CF_SPHERES) || (w->shape[c->a] == FLOE_SHAPE_WALL && w->shape[c->b] == FLOE_SHAPE_SPHERE);
}
static inline int floe__geom_follows(const floe_world *w, const floe_contact *c) {
    return !w->cell.axes && !c->imaged && floe__sphere_contact(w, c);
}

/* The side wall wl's contact c is on (a wall's normal never turns): the
 * wall's sense, or for a two-sided wall the one the contact was made on. */
static inline double floe__wall_side(const floe_wall *wl, const floe_contact *c) {
    return wl->sense != 0 ? wl->sense : (c->flags & CF_SIDE_NEG) ? -1 : 1;
}

/* The narrow phase of a following contact with A at xa and B at xb. The
 * same arithmetic as the batch's lanes. */
static inline void floe__follow_pair(const floe_world *w, const floe_contact *c, vec3 xa, vec3 xb,
                                     floe_raw_contact *raw) {
    if (c->flags & CF_SPHERES) {
        floe_sphere_pair(xa, xb, w->radius[c->a], w->radius[c->b], v3(1, 0, 0), raw);
    } else {
        const floe_wall *wl = floe__shape_data(w, c->a);
        floe_wall_pair(xa, xb, w->radius[c->b], wl->axis, floe__wall_side(wl, c), raw);
    }
}

/* Where a body stood before this step's drift (integrate.c: x += dt v). */
FLOE_KERNEL vec3 floe_before_drift(vec3 x, vec3 v, double dt) { return vmadd(x, v, -dt); }

/* Contact k's whole geometry now: the frame's t1 from the hot record, the
 * rest from the positions (floe__geom_follows) or the kept records. */
static inline floe_geom floe__contact_geom(const floe_world *w, int k) {
    const floe_contact *c = &w->con[k];
    floe_geom g;
    g.t1 = c->t1;
    if (floe__geom_follows(w, c)) {
        floe_raw_contact raw;
        floe__follow_pair(w, c, w->pos[c->a], w->pos[c->b], &raw);
        g.n = raw.n;
        g.c = raw.c;
        g.uN = raw.uN;
    } else {
        const floe_contact_geo *x = &w->cgeom[k];
        g.n = x->n;
        g.c = x->c;
        g.uN = x->uN;
    }
    return g;
}

/* world.c: whether the world can make a contact whose geometry, lens or
 * image do not follow from the positions and radii (a periodic cell, a
 * body other than a sphere or a wall, legacy lens); floe__prepare keeps
 * the records then. */
int floe__geom_needed(const floe_world *w);
/* world.c: makes the world keep geometry records from now on (those of its
 * contacts written in) and the particles' rows FLOE_PARTICLE_ARRAYS_KEPT
 * (what a sphere implies: angular momentum from the angular velocity,
 * the orientation as the reference, no wraps); 0 when out of memory. */
int floe__geom_keep(floe_world *w);

/* The force and torque sums were written outside the contact pass (or
 * moved between bodies): every chunk counts as written (floe_world.ftouch). */
static inline void floe__forces_unknown(floe_world *w) {
    free(w->ftouch);
    w->ftouch = NULL;
    w->ftouch_n = 0;
}

#endif
