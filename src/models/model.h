/* The contact-model seam. A model is one file exposing one const floe_model:
 * its schemas, the size of its per-contact state, `create` (run once when a
 * contact first becomes real: stiffnesses, limits, bonds) and `law` (every
 * step: forces, history, energy; may ask for deletion). Models see only the
 * shape-agnostic contact geometry, never shapes. Register in registry.c. */
#ifndef FLOE_MODELS_MODEL_H
#define FLOE_MODELS_MODEL_H

#include "l6geom/geom.h"
#include <stdint.h>

#define FLOE_MAX_MAT_PARAMS 32
#define FLOE_MAX_LAW_PARAMS 24

/* ---- Materials -------------------------------------------------------------
 * Every material's parameters start with the common block, these four rows
 * in this order, whatever its model: the core reads density and young
 * (masses, time step) and a mixed pair's Linear model reads all four
 * (docs/decisions.md#model-of-a-mixed-material-pair-g7). The block is
 * declared once (the FLOE_MAT_* rows below, floe_mat_common in material.c).
 * A model's schema (info.mat_params) lists the common rows it reads, in
 * this order, then its own rows, stored from MAT_COMMON_COUNT on; a common
 * row the model does not read (floe_model.mat_unread) is not in its schema
 * but stays in the material with the block's default, and its key stays
 * accepted, for the Linear model of a mixed pair
 * (docs/decisions.md#one-common-material-block-and-one-mixing-rule). */
enum { MAT_DENSITY = 0, MAT_YOUNG, MAT_KT_DIV_KN, MAT_TAN_PHI, MAT_COMMON_COUNT };

/* The common rows as schema entries (a model with its own name, default or
 * words for a common row writes that row out instead). */
#define FLOE_MAT_DENSITY \
    { "density", 1000, 0, INFINITY, 1, 1, "kg/m^3", "mass density", NULL }
#define FLOE_MAT_YOUNG \
    { "young", 1e9, 0, INFINITY, 1, 1, "Pa", "Young's modulus", NULL }
#define FLOE_MAT_KT_DIV_KN \
    { "kt_div_kn", 0.2, 0, INFINITY, 0, 1, "-", "shear to normal stiffness ratio (mean)", NULL }
#define FLOE_MAT_TAN_PHI \
    { "tan_phi", 0.5, 0, INFINITY, 0, 1, "-", "friction coefficient (min of the pair)", NULL }

/* How the two materials' values of a parameter combine into the pair's
 * (floe_mat_pair): the one mixing rule, chosen per parameter in the
 * tables (floe_mat_common, floe_model.mat_mix). */
typedef enum floe_mix {
    FLOE_MIX_NONE = 0, /* not combined as a value: read per body (density) or inside the model's formula
                        * with the bodies' lengths (young, poisson); floe_mat_pair gives NaN */
    FLOE_MIX_MEAN,     /* (a + b) / 2 */
    FLOE_MIX_MIN,      /* min(a, b) */
    FLOE_MIX_SERIES    /* a b / (a + b) when both are > 0, else the one that is (PFC's inheritance) */
} floe_mix;

/* A common row: its schema entry and its mixing rule. */
typedef struct floe_mat_row {
    floe_param_spec spec;
    floe_mix mix;
} floe_mat_row;
extern const floe_mat_row floe_mat_common[MAT_COMMON_COUNT];

/* Designator of own row k in a model's mat_mix:
 * {FLOE_OWN(M_X) = FLOE_MIX_MEAN, ...}. */
#define FLOE_OWN(k) [(k)-MAT_COMMON_COUNT]

/* Per-step energy contributions of a model (summed deterministically). */
typedef struct floe_energy_acc {
    double elastic; /* stored now */
    double plastic; /* dissipated this step */
    double dashpot; /* dissipated this step */
    double broken;  /* released this step */
} floe_energy_acc;

/* Integer cell offsets of a periodic image (src/core/cell.c): B's image is
 * at B's position plus H n (docs/periodic.md); all zero without a cell. */
typedef struct floe_img {
    int32_t n[3];
} floe_img;

/* A contact is kept in parallel arrays of one index k, so that the
 * per-step contact pass streams only what it reads and writes:
 * - hot (w->con[k]): what the pass reads and writes for every contact;
 * - warm (w->cwarm[k]): the local torque and what the laws that have one
 *   read every step (Ice, LinEl6, Hertz, soft-bond; Linear leaves it be);
 * - cold (w->ccold[k]): read at creation, at broad-phase rebuilds, for the
 *   time step, outputs and events.
 * A batched Linear contact streams 80 bytes of record per step, an Ice
 * contact 128 (docs/performance.md#contact-storage,
 * docs/decisions.md#hot-warm-and-cold-contact-records). The whole
 * geometry of contact k is floe__contact_geom (core/world.h); where it does
 * not follow from the positions and radii, its normal, point, gap, lens and
 * image are kept in a fourth array (floe_contact_geo). */
typedef struct floe_contact {
    int32_t a, b;    /* particle ids */
    uint16_t inst;   /* model instance */
    uint8_t flags;   /* CF_* */
    uint8_t imaged;  /* derived: its image (floe__contact_img) is not zero (the contact takes the per-contact path) */
    uint32_t detail; /* model event detail (e.g. senses that broke) */
    vec3 t1;         /* first tangent of the frame (floe_geom), carried from step to step */
    double kn, kt;   /* set by create; used for the critical time step */
    vec3 f;          /* local force acting on A */
} floe_contact;

typedef struct floe_contact_warm {
    vec3 m;        /* local torque acting on A: 0 for models without one */
    double kw, kr; /* twist and rolling stiffness [N m/rad], 0 if none (time step) */
    double area;   /* contact area contA, set at creation */
} floe_contact_warm;

typedef struct floe_contact_cold {
    int64_t step_created;
    int32_t nbr; /* slot in the broad-phase pair list, -1 if none */
} floe_contact_cold;

/* The normal, point and gap (floe_geom) of a contact as of the last step,
 * its lens and its image of B, kept (w->cgeom) only in worlds that can
 * have a contact where these do not follow from the bodies' positions and
 * radii (core/world.h): a periodic cell, bodies other than spheres and
 * walls, or legacy lens. */
typedef struct floe_contact_geo {
    vec3 n, c;
    double uN;
    double lens[2]; /* lengths of A and B that deform, set at creation */
    floe_img img;   /* the contact is with B's periodic image of these cell offsets */
} floe_contact_geo;

enum {
    CF_DELETE = 1,     /* the law asked for deletion this step */
    CF_BROKE = 2,      /* a bond broke this step: event detail = detail & 0xff */
    CF_NEW = 4,        /* created this step */
    CF_BONDED = 8,     /* persistent: the contact carries a bond (set by the model) */
    CF_ACTIVATED = 16, /* the model reports the contact became active this step */
    CF_SLIP = 32,      /* the model reports a slip-state change: detail = (detail >> 8) & 0xff */
    CF_SPHERES = 64,   /* persistent: both bodies are spheres (set at creation) */
    CF_SIDE_NEG = 128, /* persistent: a wall contact whose normal points along -axis (set at creation) */
    CF_TRANSIENT = CF_DELETE | CF_BROKE | CF_NEW | CF_ACTIVATED | CF_SLIP
};

/* The load a bond-break event reports when it differs from the force and
 * torque the contact keeps: the trial values that exceeded the limits,
 * before plastic limits cut the surviving contact's load back. */
typedef struct floe_event_load {
    vec3 f, m; /* local force and torque on A */
    int set;   /* 1: reported instead of the contact's f, m */
} floe_event_load;

typedef struct floe_law_ctx {
    double dt;
    int64_t step;
    int fresh;                   /* the contact was created in this step */
    int dim;                     /* 3, or 2 for a plane world (motion in xy) */
    const double *lp;            /* law parameters of the instance */
    double mass[2];              /* masses of A and B; INFINITY for bodies that do not move freely */
    vec3 vel;                    /* relative velocity of B w.r.t. A at the contact, local frame (mid-step) */
    vec3 angvel;                 /* relative angular velocity (B - A), local frame */
    double curv[2];              /* in the creation step (create and law): radii of curvature of A and B at the
                                  * contact, INFINITY for a flat body (wall, facet), 0 where the core does not
                                  * know it (ellipsoid: a model may take the contact's lens); else NaN */
    floe_event_load *event_load; /* where a law that breaks a bond (CF_BROKE) writes the load that
                                  * broke it; may be NULL */
    floe_contact_warm *warm;     /* the contact's torque, kw, kr and area */
    double lens[2];              /* the contact's lens (floe__contact_lens) */
    const floe_geom *g;          /* the contact's geometry this step (create, law, method) */
} floe_law_ctx;

/* Contact mass for dashpots: m_A m_B / (m_A + m_B), or the free body's mass. */
static inline double floe_contact_mass(const floe_law_ctx *ctx) {
    double a = ctx->mass[0], b = ctx->mass[1];
    if (isinf(a)) return b;
    if (isinf(b)) return a;
    return a * b / (a + b);
}

/* ---- Batched kernels ----------------------------------------------------
 * A model may run its law for many contacts at once in a loop the compiler
 * vectorizes (docs/decisions.md#batch-kernels-belong-to-their-model). The
 * core takes the contacts between two spheres that are past their first
 * step (and not in a renormalization step) of the models that have a
 * kernel, updates their geometry in lanes, hands the lanes to the model's
 * kernel, then turns the local forces into global ones and sums them in
 * contact order. The kernel must give bitwise what the model's `law` gives
 * (tests/test_batch.c): it calls the same inline functions, written with
 * selects instead of branches. */

/* Contacts per batch: a multiple of the widest vector (8 doubles). */
#define FLOE_BATCH 64

/* One array per scalar, FLOE_BATCH long, so that a loop over the contacts
 * reads and writes unit-stride vectors. */
typedef struct floe_lanes {
    /* in, from the core: this step's gap (uN) and the mid-step relative
     * velocities in the contact frame, as floe_law_ctx has them */
    double uN[FLOE_BATCH], vel[3][FLOE_BATCH], angvel[3][FLOE_BATCH];
    /* out: local force and torque on A (the torque is read only if the
     * kernel sets `torque`), this step's energies as floe_energy_acc has
     * them; keep 0: the contact goes (no force, the core deletes it); odd
     * non-zero: a step out of the ordinary (a bond breaking, say), which
     * the kernel left untouched for the per-contact path to take */
    double f[3][FLOE_BATCH], m[3][FLOE_BATCH], elastic[FLOE_BATCH], plastic[FLOE_BATCH], dashpot[FLOE_BATCH];
    double keep[FLOE_BATCH], odd[FLOE_BATCH];
} floe_lanes;

/* The contacts of one batch: n <= FLOE_BATCH contacts, their model states
 * and the law parameters of their instances. */
typedef struct floe_batch_in {
    double dt;
    int n;
    floe_contact *c[FLOE_BATCH];
    floe_contact_warm *warm[FLOE_BATCH]; /* NULL unless the kernel sets `warm` */
    void *state[FLOE_BATCH];
    const double *lp[FLOE_BATCH];
} floe_batch_in;

typedef struct floe_batch_kernel {
    /* Runs the law of in->c[0..n) into L. It reads the contacts and states
     * and writes back only the model state of contacts that stay and are not
     * odd; the core writes the contacts (geometry, f, m, deletion). */
    void (*run)(const floe_batch_in *in, floe_lanes *L);
    /* Law parameters (bit i: parameter i) whose non-zero value keeps an
     * instance's contacts on the per-contact path (e.g. Linear's no_slip);
     * 0: every contact of the model is eligible. */
    uint32_t unless_params;
    int torque; /* the law sets a local torque (else the contact's m stays 0) */
    int warm;   /* the kernel reads the warm records (floe_batch_in.warm): only then are they gathered */
} floe_batch_kernel;

typedef struct floe_model {
    floe_model_info info;
    size_t state_size; /* bytes of per-contact state */
    /* ma, mb: material parameter arrays of A and B (each in its own model's schema,
     * which starts with MAT_COMMON_COUNT common entries). The state is zeroed. */
    void (*create)(const floe_law_ctx *ctx, const double *ma, const double *mb, floe_contact *c, void *state);
    /* Returns 1 to keep the contact, 0 to delete it (no force is applied then). */
    int (*law)(const floe_law_ctx *ctx, floe_contact *c, void *state, floe_energy_acc *e);
    /* Writes info.n_state values describing the state; g: the contact's geometry. */
    void (*get_state)(const floe_contact *c, const floe_geom *g, const floe_contact_warm *warm, const void *state,
                      double *out);
    /* Optional: largest gap across which a new contact is created at `step`
     * (e.g. bonding a packing generated with small gaps); rmin is the smaller
     * radius of the pair. NULL means 0: contacts need overlap. */
    double (*creation_gap)(const double *lp, int64_t step, double rmin);
    /* Optional: a named method applied to one contact (e.g. bond, unbond);
     * returns 0, or -1 for an unknown method, -2 for bad arguments. With
     * c == NULL (and ctx, state NULL) it only checks the arguments. */
    int (*method)(const char *name, const double *args, int nargs, const floe_law_ctx *ctx, floe_contact *c,
                  void *state);
    const char *const *method_names;
    int n_methods;
    /* Optional: the two floating-point arguments of an event this contact
     * raises (floe_event.value), e.g. a bond's strength and strain energy. */
    void (*event_values)(const floe_contact *c, const floe_contact_warm *warm, const void *state, int type,
                         double out[2]);
    /* Optional: the vectorized kernel of the law for sphere-sphere contacts. */
    const floe_batch_kernel *batch;
    /* 1: the model keeps nothing in the warm record: create reads only its
     * area, law sets only a zero torque, get_state, event_values and the
     * kernel leave it be, kw and kr stay 0. A world whose contacts all have
     * such models and are between spheres and walls keeps no warm records
     * (core/world.h, floe__warm). 0 (the default): the model may use it. */
    int no_warm;
    /* Optional: the stiffnesses the critical time step counts for contact
     * c, k = {kn, kt, kw, kr}, where they are not c->kn, c->kt and the warm
     * record's kw, kr: a model whose dashpots act on springs it uses as
     * they are raises them here by floe_damped_stiffness (Linear). */
    void (*dt_stiffness)(const double *lp, const floe_contact *c, const floe_contact_warm *warm, const void *state,
                         double k[4]);
    /* Common rows (bits 1 << MAT_*) the model does not read: left out of
     * its schema, kept in its materials (see the common block above). */
    uint32_t mat_unread;
    /* The mixing rule of each own material row: mat_mix[slot - MAT_COMMON_COUNT]. */
    const floe_mix *mat_mix;
} floe_model;

/* registry.c */
int floe_registry_count(void);
const floe_model *floe_registry_get(int i);
int floe_registry_find(const char *name);

/* Material rows of model m (material.c). A material stores floe_mat_rows(m)
 * values: the common block, then the model's own rows. */
int floe_mat_rows(const floe_model *m);
/* The schema entry of stored row `slot` (the common block's for a row the
 * model does not read); NULL past the rows. */
const floe_param_spec *floe_mat_spec(const floe_model *m, int slot);
/* The stored row of `key` (schema keys and the common rows the model does
 * not read), or -1. */
int floe_mat_find(const floe_model *m, const char *key);
/* The pair's value of row `slot` of two materials of model m, by the row's
 * mixing rule. */
double floe_mat_pair(const floe_model *m, const double *ma, const double *mb, int slot);
/* The value of `key` in a material of model m; NaN for an unknown key. */
double floe_mat_param(const floe_model *m, const double *mat, const char *key);

/* Shared helpers for model files. */
/* Series-spring normal stiffness of Woo's FrictMat (docs/models/linear.md#stiffness-from-materials). */
static inline double floe_series_kn(double la, double lb, double ea, double eb, double area) {
    return 1.0 / (la / (ea * area) + lb / (eb * area));
}

/* The stiffness the critical time step counts for a spring k with a
 * dashpot of damping ratio z: leapfrog keeps a damped oscillator stable up
 * to dt = 2 (sqrt(1 + z^2) - z) / omega, so k is raised by
 * 1 / (sqrt(1 + z^2) - z)^2. */
static inline double floe_damped_stiffness(double k, double z) {
    double d = sqrt(1.0 + z * z) - z;
    return z > 0 ? k / (d * d) : k;
}

/* Energy lost when a contact is deleted: what its springs held at the last
 * step (e_old, forces f0 and moments m0) plus the work the pair did on them
 * during this step with the force falling from f0 to zero (trapezoid, as
 * leapfrog applies it). Negative when the springs were still pushing the
 * pair apart: that energy went into motion, not into a loss. */
static inline double floe_deletion_loss(const floe_law_ctx *ctx, vec3 f0, vec3 m0, double e_old) {
    return e_old + 0.5 * ctx->dt * (vdot(f0, ctx->vel) + vdot(m0, ctx->angvel));
}

/* Work dissipated by a return-map slip: yield force x plastic slip
 * (docs/decisions.md#plastic-energy-with-the-mid-step-force-g5). The trial
 * force (ty, tz) is scaled by r <= 1 to the yield surface;
 * the plastic slip is (1 - r) t / k and the yield force is taken at mid-step,
 * the mean of the force before the increment (oy, oz) and after the return.
 * In steady sliding this is exactly f_y (f_t - f_y) / k; taking the mean is
 * what makes the energy balance close under leapfrog when f_y varies. */
FLOE_KERNEL double floe_slip_work(double oy, double oz, double ty, double tz, double r, double k) {
    if (!(k > 0)) return 0;
    return 0.5 * (1.0 - r) * ((oy + r * ty) * ty + (oz + r * tz) * tz) / k;
}

#endif
