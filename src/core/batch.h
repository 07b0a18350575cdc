/* Batched contacts: the sphere-sphere and wall-sphere contacts of the
 * models that have a vectorized kernel (floe_model.batch, models/model.h).
 * The core gathers them into lanes, updates their geometry in one loop the
 * compiler vectorizes (the same inline narrow phases and L6Geom update as
 * the per-contact path), runs the model's kernel on the lanes, and turns the
 * local forces into global ones, so that results are bitwise identical to
 * the per-contact path (tests/test_batch.c). The core names no model: a
 * model with a kernel is its file and its line in models/registry.c. */
#ifndef FLOE_CORE_BATCH_H
#define FLOE_CORE_BATCH_H

#include "core/world.h"

/* Global force on A, torques on A and B, and the step's energies of one
 * batched contact, for the ordered force assembly. */
typedef struct floe_batch_out {
    vec3 F, mA, mB;
    double elastic, plastic, dashpot;
    int keep;     /* the contact stays (else: deleted, no force) */
    int ok;       /* no runaway */
    int fallback; /* untouched: run it through the per-contact path */
} floe_batch_out;

/* Whether law parameters lp leave an instance's contacts to the kernel. */
static inline int floe_batch_takes(const floe_batch_kernel *b, const double *lp) {
    for (uint32_t m = b->unless_params; m; m &= m - 1)
        if (lp[__builtin_ctz(m)] != 0) return 0;
    return 1;
}

/* The kernel an instance's contacts between spheres go through: its
 * model's registry index + 1, or 0 for none (a model without a kernel, or
 * law parameters its kernel does not take). */
static inline int floe_batch_inst_kind(const floe_instance *in) {
    const floe_batch_kernel *b = in->m->batch;
    return b && floe_batch_takes(b, in->lp) ? in->model + 1 : 0;
}

/* Whether contact c may be batched this step: between two spheres or a
 * wall and a sphere, and past its first step (creation). */
static inline int floe_batch_eligible(const floe_world *w, const floe_contact *c) {
    /* contacts with a periodic image take the per-contact path (cell.h);
     * `imaged` tells it without reading the cold record */
    if ((c->flags & CF_NEW) || c->imaged) return 0;
    return floe__sphere_contact(w, c);
}

/* The kernel contact c goes through this step, or 0 for none. */
static inline int floe_batch_kind(const floe_world *w, const floe_contact *c) {
    return floe_batch_eligible(w, c) ? floe_batch_inst_kind(&w->insts[c->inst]) : 0;
}

/* Bodies per chunk of the touched flags below: 256. */
#define FLOE_TOUCH_SHIFT 8
/* Chunks of touched flags for np bodies. */
static inline int floe_touch_chunks(int np) { return (np + (1 << FLOE_TOUCH_SHIFT) - 1) >> FLOE_TOUCH_SHIFT; }

/* The force and torque sums of one contact part (step.c). Part 0 adds
 * into the world's arrays; the others into buffers, kept zero between
 * steps, that the merge adds to them afterwards. `touched` (NULL for
 * part 0) flags the chunks of 1 << FLOE_TOUCH_SHIFT bodies a buffer part
 * wrote, so that the merge reads only those: in a settling packing most
 * bodies touch nothing, and reading and zeroing every body's buffer took
 * an eighth of the step (docs/performance.md, item 23). */
typedef struct floe_part_sums {
    vec3 *f, *t;
    unsigned char *touched;
} floe_part_sums;

/* A contact's global force F on A (and -F on B) and torques on A and B
 * added to the force and torque sums: the one place both the per-contact
 * path and the batch kernels (floe_batch_run) sum into the bodies. */
static inline void floe_accumulate(const floe_part_sums *s, int a, int b, vec3 F, vec3 mA, vec3 mB) {
    vec3 *f = s->f, *t = s->t;
    f[a] = vadd(f[a], F);
    f[b] = vsub(f[b], F);
    t[a] = vadd(t[a], mA);
    t[b] = vadd(t[b], mB);
    if (s->touched) s->touched[a >> FLOE_TOUCH_SHIFT] = s->touched[b >> FLOE_TOUCH_SHIFT] = 1;
}

/* The sums a batch may add its contacts to directly, in contact order, when
 * it holds the next contacts of its slice (step.c): forces and torques,
 * energies, the contacts with events (fl, *nf) and the first runaway. */
typedef struct floe_batch_sum {
    const floe_part_sums *s;
    floe_energy_acc *acc;
    int *fl, *nf;
    int bad; /* -1: none yet */
} floe_batch_sum;

/* Runs contacts ks[0..n) (n <= FLOE_BATCH) of one kind, renormalizing
 * their frames if renorm (floe_l6geom_update). sum NULL: fills
 * out[ks[j] - k0] for each, for the ordered assembly. Else ks are the
 * next contacts of the slice, in order: they are summed into *sum, up to
 * the first that falls back to the per-contact path, from which on out is
 * filled. Returns how many were summed. */
int floe_batch_run(floe_world *w, int kind, const int *ks, int n, int renorm, int k0, floe_batch_out *out,
                   floe_batch_sum *sum);

#endif
