/* The batched sphere-sphere and wall-sphere kernels (core/batch.c and the
 * models' kernels, floe_model.batch) against the per-contact path: the same pile, run once
 * with batching and once without, must give bitwise identical particles,
 * contact geometry, forces, model state and energies. Linear: every law variant the kernel takes (friction or none,
 * dashpots in each dp_mode, no_break with ini_eqlb), also under Cundall
 * damping. Ice: a bonded pile whose bonds break in every sense while it is
 * stirred, with rolling friction. The pile is stirred so that contacts slip, open and
 * re-form while it settles. */
#include "check.h"
#include "core/batch.h"
#include "pile.h"

#include <string.h>

typedef struct variant {
    const char *name, *model;
    double tan_phi, dp_nratio, dp_sratio, dp_mode, no_break, ini_eqlb, damping, stir; /* stir: m/s */
    int legacy_lens; /* lens shortened by half the overlap at creation (floe_world_def.legacy_lens) */
    int two_sided;   /* also a floor and a side wall that take contacts from either side (sense 0) */
    int renorm;      /* floe_world_def.renorm_period, 0: the default */
} variant;

static const variant variants[] = {
    {"friction", "linear", 0.5, 0, 0, 0, 0, 0, 0, 4, 0},
    {"no friction", "linear", 0.0, 0, 0, 0, 0, 0, 0, 4, 0},
    {"dashpots, dp_mode 0", "linear", 0.4, 0.3, 0.2, 0, 0, 0, 0, 4, 0},
    {"dashpots, dp_mode 1", "linear", 0.4, 0.3, 0.2, 1, 0, 0, 0, 4, 0},
    {"dashpots, dp_mode 2", "linear", 0.4, 0.3, 0.2, 2, 0, 0, 0, 4, 0},
    {"dashpots, dp_mode 3", "linear", 0.4, 0.3, 0.2, 3, 0, 0, 0, 4, 0},
    {"no_break, ini_eqlb", "linear", 0.5, 0.1, 0, 0, 1, 1, 0, 4, 0},
    {"Cundall damping 0.3", "linear", 0.5, 0, 0, 0, 0, 0, 0.3, 4, 0},
    {"Ice, bonds breaking", "ice", 0.5, 0, 0, 0, 0, 0, 0, 0.6, 0},
    {"Ice, damped", "ice", 0.3, 0, 0, 0, 0, 0, 0.2, 1.2, 0},
    {"friction, legacy lens", "linear", 0.5, 0, 0, 0, 0, 0, 0, 4, 1},
    {"Ice, legacy lens", "ice", 0.5, 0, 0, 0, 0, 0, 0, 0.6, 1},
    {"two-sided walls", "linear", 0.5, 0.3, 0.2, 0, 0, 0, 0, 4, 0, 1},
    {"Ice, two-sided walls", "ice", 0.5, 0, 0, 0, 0, 0, 0, 0.6, 0, 1},
    {"renormalized each step", "linear", 0.5, 0.3, 0.2, 0, 0, 0, 0, 4, 0, 0, 1},
    {"Ice, renormalized", "ice", 0.5, 0, 0, 0, 0, 0, 0, 0.6, 0, 0, 1},
};

/* Contact-steps batched: all, and those of a wall with a sphere. */
typedef struct counts {
    long all, walls, two_sided;
} counts;

static floe_world *run(const variant *v, int batch_off, counts *batched) {
    floe_world *w = make_pile_of(v->model, 10, 10, 6, v->damping, v->tan_phi, 1);
    if (v->two_sided) { /* the pile's box again, of walls taken from either side */
        floe_body_def bd = floe_default_body_def();
        bd.material = 0;
        bd.pos = (floe_vec3){0, 0, 1e-3}; /* above the floor */
        floe_add_wall(w, &bd, 2, 0);
        bd.pos = (floe_vec3){10 * 2.4 * 0.005 - 0.5e-3, 0, 0}; /* inside the far x wall */
        floe_add_wall(w, &bd, 0, 0);
    }
    if (!strcmp(v->model, "ice")) {
        /* bonded, breakable in every sense, across the lattice gaps; weak
         * enough that the stirring breaks bonds in every sense */
        floe_model_set(w, "ice", "bonds0", 255);
        floe_model_set(w, "ice", "step01", 1);
        floe_model_set(w, "ice", "bond_tol", 0.5);
        floe_material_set(w, 0, "break_n", 0.02);
        floe_material_set(w, 0, "mu", 0.1);
    } else {
        floe_model_set(w, "linear", "dp_nratio", v->dp_nratio);
        floe_model_set(w, "linear", "dp_sratio", v->dp_sratio);
        floe_model_set(w, "linear", "dp_mode", v->dp_mode);
        floe_model_set(w, "linear", "no_break", v->no_break);
        floe_model_set(w, "linear", "ini_eqlb", v->ini_eqlb);
    }
    w->batch_off = batch_off;
    w->def.legacy_lens = v->legacy_lens;
    /* the per-contact run keeps geometry records (lens as created, images),
     * the batched one only where it must: the comparisons below then check
     * that the lens a world without records implies are those created */
    if (batch_off) CHECK(floe__geom_keep(w));
    if (v->renorm) w->def.renorm_period = v->renorm;
    uint64_t seed = 7;
    for (int i = 0; i < floe_particle_count(w); i++)
        if (floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE)
            floe_set_velocity(w, i,
                              (floe_vec3){v->stir * (pile_rand(&seed) - 0.5), v->stir * (pile_rand(&seed) - 0.5),
                                          v->stir * (pile_rand(&seed) - 0.5)});
    *batched = (counts){0, 0, 0};
    for (int s = 0; s < 3000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        for (int k = 0; k < w->ncon && !batch_off; k++) {
            int b = floe_batch_kind(w, &w->con[k]) != 0;
            batched->all += b;
            batched->walls += b && !(w->con[k].flags & CF_SPHERES);
            int sense = 1;
            batched->two_sided += b && floe_wall_axis(w, w->con[k].a, &sense) >= 0 && sense == 0;
        }
        /* the batch takes the runaway threshold min(lens) as min(ra, rb)
         * unless lens are legacy, and a world without geometry records
         * implies them (floe__contact_lens): the lens of a sphere pair are
         * its radii, those of a wall and a sphere the sphere's radius */
        for (int k = 0; k < w->ncon && !v->legacy_lens && w->cgeom; k++) {
            const floe_contact *c = &w->con[k];
            const double *lens = w->cgeom[k].lens;
            if (c->flags & CF_SPHERES) CHECK(lens[0] == w->radius[c->a] && lens[1] == w->radius[c->b]);
            else if (floe_particle_shape(w, c->a) == FLOE_SHAPE_WALL)
                CHECK(lens[0] == w->radius[c->b] && lens[1] == w->radius[c->b]);
        }
    }
    return w;
}

#define SAME(what, x, y, bytes)     \
    do {                            \
        if (memcmp(x, y, bytes)) {  \
            CHECK(!what " differ"); \
        }                           \
    } while (0)

int main(void) {
    /* the per-step stream of a contact (docs/performance.md#contact-storage):
     * a sizes change is a choice to document there */
    CHECK(sizeof(floe_contact) == 80 && sizeof(floe_contact_warm) == 48 && sizeof(floe_contact_cold) == 16);
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        const variant *v = &variants[i];
        counts batched, unused;
        floe_world *a = run(v, 0, &batched), *b = run(v, 1, &unused);
        int n = a->np, nc = a->ncon;
        int failed = check_failures;
        CHECK(nc == b->ncon && nc > 30);
        CHECK(batched.all > 50000);   /* many contact-steps went through the kernel */
        CHECK(batched.walls > 10000); /* the floor's and the side walls' too */
        CHECK(!v->two_sided || batched.two_sided > 10000);
        if (nc != b->ncon) continue;
        SAME("positions", a->pos, b->pos, sizeof(vec3) * (size_t)n);
        SAME("velocities", a->vel, b->vel, sizeof(vec3) * (size_t)n);
        SAME("angular velocities", a->angvel, b->angvel, sizeof(vec3) * (size_t)n);
        SAME("forces", a->force, b->force, sizeof(vec3) * (size_t)n);
        SAME("torques", a->torque, b->torque, sizeof(vec3) * (size_t)n);
        SAME("contacts", a->con, b->con, sizeof(floe_contact) * (size_t)nc);
        for (int k = 0; k < nc; k++) { /* kept or implied (core/world.h) */
            floe_contact_warm xa, xb;
            SAME("warm contact records", floe__warm(a, k, &xa), floe__warm(b, k, &xb), sizeof xa);
        }
        SAME("cold contact records", a->ccold, b->ccold, sizeof(floe_contact_cold) * (size_t)nc);
        for (int k = 0; k < nc; k++) { /* kept or implied (core/world.h) */
            double la[2], lb[2];
            floe__contact_lens(a, k, la);
            floe__contact_lens(b, k, lb);
            SAME("lens", la, lb, sizeof la);
        }
        SAME("contact states", a->cstate, b->cstate, a->cstride * (size_t)nc);
        double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
        floe_energy(a, ea);
        floe_energy(b, eb);
        SAME("energies", ea, eb, sizeof ea);
        REPORT("%-22s %d contacts (%d bonds broken), %ld contact-steps batched (%ld with walls, %ld two-sided): %s\n",
               v->name, nc, (int)floe_break_count(a), batched.all, batched.walls, batched.two_sided,
               check_failures > failed ? "DIFFERENT" : "bitwise identical");
        floe_world_destroy(a);
        floe_world_destroy(b);
    }
    return CHECK_DONE();
}
