/* Warm contact records kept only where a contact needs one (core/world.h,
 * floe__warm; docs/decisions.md#warm-records-only-where-a-contact-needs-one),
 * and likewise the geometry records and the particles' kept rows
 * (floe__geom_keep):
 * - a pile of Linear spheres between walls keeps none;
 * - the same pile made to keep them halfway (floe__warm_keep and
 *   floe__geom_keep, as a new capsule or Ice instance would) runs bitwise
 *   as the one that does not, and every record it keeps is the implied
 *   one: the identity that lets the other world leave them out;
 * - worlds that may need them (an Ice material, a capsule, legacy lens) keep them
 *   (the geometry records and kept rows: the capsule and legacy lens);
 * - snapshots: the world without and the world with the records give the
 *   same bytes; a world read back from either keeps none, one with Ice
 *   keeps its own, and both run on bitwise as the original; a file whose
 *   lens or angular momenta are not the implied ones keeps its records;
 * - without a periodic cell no pair images are kept, before or after a read. */
#include "check.h"
#include "core/cell.h"
#include <floe/floe_snapshot.h>
#include "pile.h"

#include <string.h>

/* A pile of spheres of `model` between five walls, packed so tightly that
 * neighbours overlap from the start and push apart while gravity pulls them
 * down: contacts are made, kept and lost from the first step. */
static floe_world *pile(const char *model, int legacy_lens) {
    const double r = 0.005, s = 1.98 * r;
    const int nx = 6, ny = 6, nz = 4;
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.threads = 2;
    def.dt = 2e-6;
    def.legacy_lens = legacy_lens;
    floe_world *w = floe_world_create(&def);
    floe_set_thread_tuning(w, 0);
    int m = floe_add_material(w, "grain", model);
    floe_material_set(w, m, "density", 2500);
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0.5);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_wall(w, &bd, 2, 1);
    floe_add_wall(w, &bd, 0, 1);
    floe_add_wall(w, &bd, 1, 1);
    bd.pos = (floe_vec3){nx * s, ny * s, 0};
    floe_add_wall(w, &bd, 0, -1);
    floe_add_wall(w, &bd, 1, -1);
    uint64_t seed = 7;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                bd.pos = (floe_vec3){(i + 0.5) * s + 0.02 * r * (pile_rand(&seed) - 0.5),
                                     (j + 0.5) * s + 0.02 * r * (pile_rand(&seed) - 0.5), (k + 0.5) * s};
                bd.vel = (floe_vec3){0.1 * (pile_rand(&seed) - 0.5), 0.1 * (pile_rand(&seed) - 0.5), 0};
                floe_add_sphere(w, &bd, r);
            }
    return w;
}

/* Whether w keeps none of the geometry records and particle rows a world
 * of spheres and walls implies. */
static int keeps_no_geom(const floe_world *w) {
    return !w->geom_kept && !w->cgeom && !w->angmom && !w->bp.ref_ori && !w->wraps;
}

/* Every record of a, b and its contacts bitwise the same; the warm records
 * kept or implied. */
static int same_run(const floe_world *a, const floe_world *b) {
    if (a->np != b->np || a->ncon != b->ncon) return 0;
    size_t n = (size_t)a->np, nc = (size_t)a->ncon;
    int ok = !memcmp(a->pos, b->pos, n * sizeof *a->pos) && !memcmp(a->vel, b->vel, n * sizeof *a->vel) &&
             !memcmp(a->angvel, b->angvel, n * sizeof *a->angvel) &&
             !memcmp(a->force, b->force, n * sizeof *a->force) && !memcmp(a->torque, b->torque, n * sizeof *a->torque);
    if (nc)
        ok = ok && !memcmp(a->con, b->con, nc * sizeof *a->con) && !memcmp(a->ccold, b->ccold, nc * sizeof *a->ccold) &&
             !memcmp(a->cstate, b->cstate, nc * a->cstride);
    for (size_t k = 0; ok && k < nc; k++) { /* the geometry, kept or as the positions give it (core/world.h) */
        floe_geom gx = floe__contact_geom(a, (int)k), gy = floe__contact_geom(b, (int)k);
        ok = !memcmp(&gx, &gy, sizeof gx);
    }
    for (size_t k = 0; ok && k < nc; k++) {
        floe_contact_warm x, y;
        ok = !memcmp(floe__warm(a, (int)k, &x), floe__warm(b, (int)k, &y), sizeof x);
    }
    double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
    floe_energy(a, ea);
    floe_energy(b, eb);
    return ok && !memcmp(ea, eb, sizeof ea);
}

static floe_world *round_trip(const floe_world *w, unsigned char **bytes, size_t *len) {
    char err[1024];
    if (floe_snapshot_to_bytes(w, bytes, len, err, sizeof err) != 0) {
        fprintf(stderr, "to_bytes: %s\n", err);
        return NULL;
    }
    floe_world *b = floe_snapshot_from_bytes(*bytes, *len, err, sizeof err);
    if (!b) fprintf(stderr, "from_bytes: %s\n", err);
    return b;
}

int main(void) {
    floe_world *a = pile("linear", 0), *b = pile("linear", 0);
    CHECK(floe_run(a, 1500) == FLOE_OK && floe_run(b, 1500) == FLOE_OK);
    CHECK(a->ncon > 100 && !a->warm_kept && a->cwarm == NULL);
    CHECK(a->bp.npairs > 0 && a->bp.img == NULL); /* no periodic cell: no pair images either */
    CHECK(keeps_no_geom(a) && keeps_no_geom(b));
    CHECK(floe__warm_keep(b) && b->warm_kept && b->cwarm != NULL);
    CHECK(floe__geom_keep(b) && b->geom_kept && b->cgeom && b->angmom && b->bp.ref_ori && b->wraps);
    CHECK(floe_run(a, 1500) == FLOE_OK && floe_run(b, 1500) == FLOE_OK);
    CHECK(a->cwarm == NULL && b->cwarm != NULL && keeps_no_geom(a));
    CHECK(same_run(a, b));
    /* the kept geometry records and rows: what a world without implies */
    int implied_geo = 1;
    for (int k = 0; k < b->ncon; k++) {
        double lens[2];
        floe__lens_implied(b, &b->con[k], lens);
        implied_geo &= !memcmp(lens, b->cgeom[k].lens, sizeof lens) && floe__img_zero(b->cgeom[k].img);
    }
    const quat one = qidentity();
    for (int i = 0; i < b->np; i++)
        implied_geo &= isnan(b->angmom[i].x) && floe__img_zero(b->wraps[i]) &&
                       !memcmp(&b->bp.ref_ori[i], &one, sizeof one);
    CHECK(implied_geo);
    int implied = 1;
    for (int k = 0; k < b->ncon; k++) {
        double lens[2];
        floe__contact_lens(b, k, lens);
        floe_contact_warm x = floe__warm_implied(lens);
        implied &= !memcmp(&x, &b->cwarm[k], sizeof x);
    }
    CHECK(implied);
    REPORT(
        "Linear pile: %d contacts, no warm records kept; kept from step 1500: the implied ones, bitwise the same run\n",
        a->ncon);

    /* snapshots: the same bytes with or without the records; read back
     * without them; the runs go on bitwise */
    unsigned char *xa = NULL, *xb = NULL;
    size_t na = 0, nb = 0;
    floe_world *ra = round_trip(a, &xa, &na), *rb = round_trip(b, &xb, &nb);
    CHECK(ra && rb && na == nb && xa && xb && !memcmp(xa, xb, na));
    if (ra && rb) {
        CHECK(ra->cwarm == NULL && !ra->warm_kept && rb->cwarm == NULL && !rb->warm_kept);
        CHECK(ra->bp.img == NULL && rb->bp.img == NULL);
        CHECK(keeps_no_geom(ra) && keeps_no_geom(rb));
        CHECK(floe_run(a, 300) == FLOE_OK && floe_run(ra, 300) == FLOE_OK && floe_run(rb, 300) == FLOE_OK);
        CHECK(same_run(a, ra) && same_run(a, rb));
    }
    free(xa);
    free(xb);
    floe_world_destroy(ra);
    floe_world_destroy(rb);

    /* worlds that may need them keep them */
    floe_world *ice = pile("ice", 0), *legacy = pile("linear", 1), *cap = pile("linear", 0);
    floe_body_def bd = floe_default_body_def();
    bd.pos = (floe_vec3){1, 1, 1}; /* far from the pile */
    CHECK(floe_add_capsule(cap, &bd, 0.005, 0.01) >= 0);
    CHECK(floe_run(ice, 200) == FLOE_OK && floe_run(legacy, 200) == FLOE_OK && floe_run(cap, 200) == FLOE_OK);
    CHECK(ice->warm_kept && ice->cwarm && legacy->warm_kept && legacy->cwarm && cap->warm_kept && cap->cwarm);
    CHECK(keeps_no_geom(ice) && !keeps_no_geom(legacy) && legacy->cgeom && !keeps_no_geom(cap) && cap->cgeom &&
          cap->angmom && cap->bp.ref_ori && cap->wraps);
    unsigned char *xi = NULL;
    size_t ni = 0;
    floe_world *ri = round_trip(ice, &xi, &ni);
    CHECK(ri && ri->warm_kept && ri->cwarm);
    if (ri) {
        CHECK(floe_run(ice, 200) == FLOE_OK && floe_run(ri, 200) == FLOE_OK);
        CHECK(same_run(ice, ri));
    }
    free(xi);
    floe_world_destroy(ri);

    /* a file whose lens or angular momenta are not the implied ones (as a
     * hand-edited or foreign file may hold) keeps its records when read:
     * nothing is lost */
    for (int edit = 0; edit < 2; edit++) {
        CHECK(floe__geom_keep(b) && b->ncon > 0);
        const double lens0 = b->cgeom[0].lens[0];
        if (edit == 0) b->cgeom[0].lens[0] *= 1.5;
        else b->angmom[b->np - 1] = (vec3){0, 0, 1e-9};
        unsigned char *xe = NULL;
        size_t ne = 0;
        floe_world *re = round_trip(b, &xe, &ne);
        CHECK(re && re->geom_kept && re->cgeom && re->angmom);
        if (re && re->cgeom && re->angmom) {
            CHECK(edit != 0 || re->cgeom[0].lens[0] == b->cgeom[0].lens[0]);
            CHECK(edit != 1 || re->angmom[b->np - 1].z == 1e-9);
        }
        if (edit == 0) b->cgeom[0].lens[0] = lens0;
        else b->angmom[b->np - 1] = (vec3){NAN, NAN, NAN};
        free(xe);
        floe_world_destroy(re);
    }
    REPORT("a file with lens or angular momenta other than the implied ones keeps its records when read\n");
    floe_world_destroy(ice);
    floe_world_destroy(legacy);
    floe_world_destroy(cap);
    floe_world_destroy(a);
    floe_world_destroy(b);
    return CHECK_DONE();
}
