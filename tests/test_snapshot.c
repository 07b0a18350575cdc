/* The snapshot of the world's state (src/core/snapshot.h).
 *
 * 1. Round trips: random worlds with every shape (sphere, wall, facet,
 *    capsule, ellipsoid, infinite cylinder) and every contact model
 *    (linear, linel6, ice, softbond; bonds made by start-up bonding and by a
 *    scheduled method, some broken during the run), groups with a motion and
 *    a load, pair overrides, scheduled methods, dt automatic or fixed, are
 *    stepped, written to the byte form and to a restart file, and read back
 *    into new worlds. Every state member of every row must be equal, byte for
 *    byte (floe__snapshot_diff walks the table), the byte form of the copy
 *    must equal the original's, and the three worlds stepped on must stay
 *    equal bit for bit (positions compared directly as well).
 * 2. Coverage: the members the table lists for each struct must tile it,
 *    with only alignment padding between them and at the end, and must be
 *    exactly the members the headers declare (read from the headers'
 *    text). A member added to struct floe_world (or a struct it stores)
 *    without a line in the table fails here: its bytes leave a gap that is
 *    not padding, or, if it fits into padding, its name is missing.
 * 3. Damage: truncated and flipped byte forms are refused or load, never
 *    crash; a byte form or a restart file of another format version is
 *    refused with a message naming both versions. */
#include "check.h"
#include "core/snapshot.h"
#include <floe/floe_snapshot.h>
#include "core/snapshot_members.h"
#include "core/snapshot_shapes.h"
#include "fuzz/h5_mutate.h"
#include "io/restart.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static char tmp[256];

/* Deterministic pseudo-random numbers in [0, 1). */
static double rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void set(floe_world *w, int mat, const char *key, double v) {
    CHECK(floe_material_set(w, mat, key, v) == FLOE_OK);
}

/* A random world: a bed of spheres of four materials (one per model, in
 * blocks so that neighbours share a model and bond), a floor and a facet
 * ramp, capsules, ellipsoids and an infinite cylinder, a driven sphere
 * that plows through the bed, a loaded group; pair overrides, soft-bond
 * methods scheduled before and after the snapshot step. */
static floe_world *build(uint64_t seed, int fixed_dt) {
    uint64_t s = seed;
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0.3 * (rnd(&s) - 0.5), 0, -9.81};
    def.dt = 0;
    def.dt_safety = 0.3 + 0.3 * rnd(&s);
    def.dyn_dt_period = 17 + (int)(40 * rnd(&s));
    def.damping = 0.05 * rnd(&s);
    def.renorm_period = 7 + (int)(20 * rnd(&s));
    def.legacy_lens = rnd(&s) < 0.3;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    static const char *const models[4] = {"linear", "linel6", "ice", "softbond"};
    int mat[4];
    for (int m = 0; m < 4; m++) {
        mat[m] = floe_add_material(w, models[m], models[m]);
        set(w, mat[m], "density", 1500 + 1000 * rnd(&s));
        set(w, mat[m], "young", 1e6 * (1 + 2 * rnd(&s)));
    }
    int steel = floe_add_material(w, "steel", "linear");
    int hertz = floe_add_material(w, "hertz", "hertz");
    set(w, hertz, "young", 1.5e7);
    set(w, hertz, "restitution", 0.6);
    set(w, steel, "young", 5e6);
    set(w, mat[0], "tan_phi", 0.2 + 0.4 * rnd(&s));
    set(w, mat[2], "break_n", 1e-3 * (1 + rnd(&s)));
    set(w, mat[3], "kn", 2e8);
    set(w, mat[3], "ks", 1e8);
    set(w, mat[3], "fric", 0.4);
    CHECK(floe_model_set(w, "ice", "bonds0", 255) == FLOE_OK);
    CHECK(floe_model_set(w, "ice", "bond_tol", 0.2) == FLOE_OK);
    CHECK(floe_model_set(w, "linel6", "char_len", 1e-4) == FLOE_OK);
    CHECK(floe_model_set(w, "linear", "dp_nratio", 0.1 * rnd(&s)) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "proximity", 5e-4) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "sb_ten", 2e4) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "sb_coh", 2e4) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "sb_soft", 0.5) == FLOE_OK);
    CHECK(floe_model_set(w, "softbond", "sb_cut", 0.5) == FLOE_OK);
    /* overrides: ice against soft-bond through LinEl6, the bed against steel with dashpots */
    CHECK(floe_pair_set_model(w, mat[2], mat[3], "linel6") == FLOE_OK);
    CHECK(floe_pair_set(w, mat[2], mat[3], "char_len", 1e-4 * (1 + rnd(&s))) == FLOE_OK);
    CHECK(floe_pair_set_model(w, mat[0], steel, "linear") == FLOE_OK);
    CHECK(floe_pair_set(w, mat[0], steel, "dp_nratio", 0.2) == FLOE_OK);
    double gap = 1e-3, window[2] = {-1e-3, 2e-4};
    CHECK(floe_schedule_method(w, 4, "softbond", "bond", -1, &gap, 1) == FLOE_OK);

    int piston = floe_add_group(w, "piston"), loaded = floe_add_group(w, "loaded"), tag = floe_add_group(w, "tag");
    CHECK(floe_schedule_method(w, 150, "softbond", "unbond", tag, window, 2) == FLOE_OK);
    floe_body_def d = floe_default_body_def();
    d.material = steel;
    CHECK(floe_add_wall(w, &d, 2, 1) == 0);
    floe_vec3 v[3] = {{-0.05, -0.05, 0.0}, {0.12, -0.05, 0.03 + 0.01 * rnd(&s)}, {-0.05, 0.12, 0.0}};
    CHECK(floe_add_facet(w, &d, v, 0.001) >= 0);
    double r = 0.01;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                d.material = mat[(i / 2) + 2 * (j / 2)]; /* a 2 x 2 block per model */
                d.pos = (floe_vec3){i * 2.0004 * r, j * 2.0004 * r, 0.03 + k * 2.0004 * r};
                d.vel = (floe_vec3){0.05 * (rnd(&s) - 0.5), 0.05 * (rnd(&s) - 0.5), -0.2};
                d.angvel = (floe_vec3){rnd(&s), rnd(&s), rnd(&s)};
                d.groups = (i == 0 && j == 0 ? 1u << loaded : 0) | (k == 2 ? 1u << tag : 0);
                CHECK(floe_add_sphere(w, &d, r * (0.97 + 0.03 * rnd(&s))) >= 0);
            }
    d.groups = 0;
    d.material = mat[0];
    /* apart: capsules (reach <= 0.035 m along x) on one level, ellipsoids (<= 0.012 m) on the next */
    for (int c = 0; c < 2; c++) {
        d.pos = (floe_vec3){0.01 + 0.04 * c, 0.01 + 0.04 * c, 0.1};
        d.vel = (floe_vec3){0, 0, -0.3};
        d.angvel = (floe_vec3){1, 2, 3};
        CHECK(floe_add_capsule(w, &d, 0.006 + 0.004 * rnd(&s), 0.01 + 0.02 * rnd(&s)) >= 0);
        d.pos = (floe_vec3){0.05 - 0.04 * c, 0.01 + 0.04 * c, 0.13};
        CHECK(floe_add_ellipsoid(w, &d, (floe_vec3){0.012, 0.006 + 0.004 * rnd(&s), 0.006}) >= 0);
        d.pos = (floe_vec3){0.03, 0.03 + 0.02 * c, 0.16};
        const floe_vec3 block[8] = {{-0.008, -0.006, -0.005}, {0.008, -0.006, -0.005}, {0.009, 0.006, -0.005},
                                    {-0.008, 0.006, -0.005},  {-0.008, -0.006, 0.005}, {0.008, -0.006, 0.006},
                                    {0.008, 0.006, 0.005},    {-0.008, 0.006, 0.005}};
        CHECK(floe_add_polyhedron(w, &d, 8, block) >= 0);
    }
    /* a clump of three pebbles above them (the pebbles, spheres, follow
     * it), in the worlds without water (clumps take none) */
    if (seed % 2 == 0) {
        d.pos = (floe_vec3){0.09, 0.03, 0.16};
        d.vel = (floe_vec3){0, 0, -0.3};
        d.angvel = (floe_vec3){1, -2, 0.5};
        const double peb[12] = {0, 0, 0, 0.008, 0.01, 0, 0, 0.007, 0.004, 0.009, 0.002, 0.006};
        CHECK(floe_add_clump(w, &d, 3, peb) >= 0);
    }
    /* a stack of two Hertz spheres beside the block, near their resting
     * overlaps (about 2e-5 m): their contact is hertz and lasts */
    d.material = hertz;
    d.vel = d.angvel = (floe_vec3){0, 0, 0};
    for (int k = 0; k < 2; k++) {
        d.pos = (floe_vec3){0.12, 0.12, 0.00999 + k * 0.01998};
        CHECK(floe_add_sphere(w, &d, 0.01) >= 0);
    }
    d.material = steel;
    d.pos = (floe_vec3){0.075, 0, 0.012};
    d.vel = d.angvel = (floe_vec3){0, 0, 0};
    CHECK(floe_add_infcylinder(w, &d, 1, 0.01) >= 0);
    d.material = mat[2];
    d.pos = (floe_vec3){-0.03, 0.03, 0.05};
    d.groups = 1u << piston;
    CHECK(floe_add_sphere(w, &d, 0.012) >= 0);
    floe_motion mo = floe_default_motion();
    mo.vel = (floe_vec3){0.4, 0, -0.05};
    mo.t_start = 0.002 * rnd(&s);
    CHECK(floe_group_set_motion(w, piston, &mo) == FLOE_OK);
    CHECK(floe_group_set_load(w, loaded, (floe_vec3){0.5, 0, 0}, (floe_vec3){0, 0, 1e-4}) == FLOE_OK);
    /* water on every other world (drag work accumulates), plane counters on all */
    if (seed % 2) {
        floe_water_def wd = floe_default_water_def();
        wd.level = 0.02 * rnd(&s);
        wd.current = (floe_vec3){0.1 * rnd(&s), -0.05, 0};
        wd.wind = (floe_vec3){3, 2 * rnd(&s), 0};
        CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    }
    CHECK(floe_add_plane_counter(w, "mid", (floe_vec3){0, 0, 0.02 * rnd(&s)}, (floe_vec3){0, 0, 1}, -1) >= 0);
    CHECK(floe_add_plane_counter(w, "tagged", (floe_vec3){0.01, 0, 0}, (floe_vec3){1, 0, 0}, tag) >= 0);
    if (fixed_dt) CHECK(floe_set_dt(w, 0.4 * floe_critical_dt(w)) == FLOE_OK);
    return w;
}

static int steps(floe_world *w, int n) {
    floe_status st = floe_run(w, n);
    if (st != FLOE_OK) fprintf(stderr, "step failed: %s\n", floe_last_error(w));
    return st == FLOE_OK;
}

/* 0 if a and b have the same state; prints the first difference. */
static int same(const floe_world *a, const floe_world *b, const char *label) {
    char what[300];
    if (!floe__snapshot_diff(a, b, what, sizeof what)) return 1;
    fprintf(stderr, "%s: the worlds differ: %s\n", label, what);
    return 0;
}

static floe_world *via_bytes(const floe_world *w, size_t *len) {
    unsigned char *bytes = NULL;
    char err[1024];
    *len = 0;
    if (floe_snapshot_to_bytes(w, &bytes, len, err, sizeof err) != 0) {
        fprintf(stderr, "to_bytes: %s\n", err);
        return NULL;
    }
    floe_world *b = floe_snapshot_from_bytes(bytes, *len, err, sizeof err);
    if (!b) fprintf(stderr, "from_bytes: %s\n", err);
    free(bytes);
    return b;
}

static floe_world *via_file(floe_world *w, const char *name) {
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/%s.h5", tmp, name);
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene.world = w;
    if (floe_restart_write(path, &r, err, sizeof err) != 0) {
        fprintf(stderr, "restart write: %s\n", err);
        return NULL;
    }
    floe_restart back;
    if (floe_restart_load(path, &back, err, sizeof err) != 0) {
        fprintf(stderr, "restart load: %s\n", err);
        return NULL;
    }
    floe_world *c = back.scene.world;
    back.scene.world = NULL;
    floe_restart_free(&back);
    return c;
}

/* Equal byte forms: the snapshot of a copy is the snapshot of the original. */
static int same_bytes(const floe_world *a, const floe_world *b) {
    unsigned char *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    char err[512];
    int ok = floe_snapshot_to_bytes(a, &x, &nx, err, sizeof err) == 0 &&
             floe_snapshot_to_bytes(b, &y, &ny, err, sizeof err) == 0 && nx == ny && !memcmp(x, y, nx);
    free(x);
    free(y);
    return ok;
}

static int count_bonded_broken(const floe_world *w, int *bonded) {
    *bonded = floe_bonded_count(w);
    return (int)floe_break_count(w);
}

static void round_trip(uint64_t seed, int fixed_dt, int n1, int n2, int *worlds_ok) {
    char label[64];
    snprintf(label, sizeof label, "seed %llu%s", (unsigned long long)seed, fixed_dt ? " (fixed dt)" : "");
    floe_world *a = build(seed, fixed_dt);
    CHECK(steps(a, n1));
    char why[512];
    int valid = floe__snapshot_check(a, why, sizeof why) == 0; /* a world the API built passes every check */
    if (!valid) fprintf(stderr, "%s: %s\n", label, why);
    CHECK(valid);
    size_t len;
    floe_world *b = via_bytes(a, &len), *c = via_file(a, "rt");
    CHECK(b && c);
    if (!b || !c) {
        floe_world_destroy(a);
        floe_world_destroy(b);
        floe_world_destroy(c);
        return;
    }
    int ok = same(a, b, label) && same(a, c, label);
    CHECK(ok);
    CHECK(same_bytes(a, b));
    CHECK(same_bytes(a, c));
    int nc = floe_contact_count(a), bonded, broken = count_bonded_broken(a, &bonded);
    CHECK(steps(a, n2) && steps(b, n2) && steps(c, n2));
    int ok2 = same(a, b, label) && same(a, c, label);
    size_t np = (size_t)floe_particle_count(a);
    int pos = !memcmp(floe_positions(a), floe_positions(b), np * sizeof(floe_vec3)) &&
              !memcmp(floe_positions(a), floe_positions(c), np * sizeof(floe_vec3));
    CHECK(ok2 && pos);
    int bonded2, broken2 = count_bonded_broken(a, &bonded2);
    REPORT("%-22s step %4lld: %3d contacts, %2d bonded, %2lld broken, %zu bytes: equal after the round trip: "
           "%s; after %d more steps: %s (positions bitwise: %s; then %d bonded, %d broken)\n",
           label, (long long)(floe_step_count(a) - n2), nc, bonded, (long long)broken, len, ok ? "yes" : "NO", n2,
           ok2 ? "yes" : "NO", pos ? "yes" : "NO", bonded2, broken2);
    *worlds_ok += ok && ok2 && pos;
    floe_world_destroy(a);
    floe_world_destroy(b);
    floe_world_destroy(c);
}

/* The shapes and models a set of worlds exercised, from one of them. */
static void coverage_of_worlds(void) {
    floe_world *w = build(1, 0);
    CHECK(steps(w, 200));
    int shapes[FLOE_SHAPE_COUNT] = {0}, models[8] = {0}, bonded = 0;
    for (int i = 0; i < w->np; i++) shapes[w->shape[i]]++;
    for (int k = 0; k < w->ncon; k++) {
        models[w->insts[w->con[k].inst].model]++;
        bonded += (w->con[k].flags & CF_BONDED) != 0;
    }
    for (int s = 0; s < FLOE_SHAPE_COUNT; s++) CHECK(shapes[s] > 0 || s == FLOE_SHAPE_CLUMP); /* below */
    floe_world *even = build(2, 0); /* the worlds of even seeds hold a clump */
    CHECK(steps(even, 200));
    int clumps = 0;
    for (int i = 0; i < even->np; i++) clumps += even->shape[i] == FLOE_SHAPE_CLUMP;
    CHECK(clumps == 1);
    floe_world_destroy(even);
    for (int m = 0; m < floe_registry_count(); m++) CHECK(models[m] > 0);
    CHECK(bonded > 0 && floe_break_count(w) > 0 && w->noverrides == 2 && w->nsched == 2);
    REPORT("world of seed 1 at step 200: shapes sphere..cylinder %d %d %d %d %d %d, contacts by model linear %d, "
           "linel6 %d, ice %d, softbond %d, hertz %d; %d bonded, %lld broken\n",
           shapes[0], shapes[1], shapes[2], shapes[3], shapes[4], shapes[5], models[floe_registry_find("linear")],
           models[floe_registry_find("linel6")], models[floe_registry_find("ice")],
           models[floe_registry_find("softbond")], models[floe_registry_find("hertz")], bonded,
           (long long)floe_break_count(w));
    floe_world_destroy(w);
}

/* ---- coverage of the table ----------------------------------------------------------- */

static int by_offset(const void *x, const void *y) {
    const floe_snap_field *a = *(const floe_snap_field *const *)x, *b = *(const floe_snap_field *const *)y;
    return (a->offset > b->offset) - (a->offset < b->offset);
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* The listed members of s tile it: each starts where the previous one ends,
 * rounded up to its alignment, and the struct ends after the last one,
 * rounded up to the struct's alignment. Returns the padding bytes, or -1. */
static long tiling(const floe_snap_struct *s, char *why, size_t n) {
    const floe_snap_field *f[256];
    int nf = 0;
    for (int l = 0; l < 2; l++)
        for (const floe_snap_field *x = s->fields[l]; x && x->member && nf < 256; x++) f[nf++] = x;
    qsort(f, (size_t)nf, sizeof *f, by_offset);
    size_t end = 0, pad = 0;
    for (int i = 0; i < nf; i++) {
        size_t want = align_up(end, f[i]->align);
        if (f[i]->offset != want) {
            snprintf(why, n,
                     "struct %s: %zu bytes before member %s (offset %zu) are not padding (the previous member ends at "
                     "%zu): a member without a line in the snapshot's table?",
                     s->name, f[i]->offset - end, f[i]->member, f[i]->offset, end);
            return -1;
        }
        pad += want - end;
        end = f[i]->offset + f[i]->size;
    }
    if (s->size != align_up(end, s->align)) {
        snprintf(why, n,
                 "struct %s: %zu bytes after the last listed member (which ends at %zu) are not padding: a member "
                 "without a line in the snapshot's table?",
                 s->name, s->size - end, end);
        return -1;
    }
    return (long)(pad + s->size - end);
}

/* Every state member's size is what its item says (values x components). */
static int sizes_ok(const floe_snap_struct *s, char *why, size_t n) {
    for (int l = 0; l < 2; l++)
        for (const floe_snap_field *f = s->fields[l]; f && f->member; f++) {
            if (f->role != FLOE_SNAP_STATE || f->sub) continue;
            size_t want = f->rows                      ? sizeof(void *)
                          : f->type == FLOE_SNAP_STR   ? (size_t)f->ncomp
                          : f->conv == FLOE_CONV_MODEL ? sizeof(int)
                                                       : floe__snap_type_size(f->type) * (size_t)f->ncomp;
            if (f->size != want) {
                snprintf(why, n, "struct %s: member %s has %zu bytes, its item %s/%s says %zu", s->name, f->member,
                         f->size, f->group, f->name, want);
                return 0;
            }
        }
    return 1;
}

/* Removes comments. */
static void strip_comments(char *t) {
    char *o = t;
    for (char *p = t; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') p++;
        } else {
            *o++ = *p++;
        }
    }
    *o = 0;
}

/* The member names of struct `name` as the header text declares them
 * ("typedef struct name { ... }" or "struct name { ... };"), comma separated
 * into out; 0 if the struct is not in the text. */
static int declared_members(const char *text, const char *name, char *out, size_t n) {
    char pat[128];
    snprintf(pat, sizeof pat, "struct %s {", name);
    const char *p = strstr(text, pat);
    if (!p) return 0;
    p = strchr(p, '{') + 1;
    out[0] = 0;
    char decl[1024];
    size_t dl = 0;
    int depth = 0;
    for (; *p && !(depth == 0 && *p == '}'); p++) {
        if (*p == '{') depth++;
        if (*p == '}') depth--;
        if (depth > 0 || *p == '}') continue; /* an inner struct's body */
        if (*p != ';') {
            if (dl + 1 < sizeof decl) decl[dl++] = *p;
            continue;
        }
        decl[dl] = 0;
        dl = 0;
        /* declarators: split at commas; each one's name is its last identifier outside [] */
        char *save = NULL;
        for (char *d = strtok_r(decl, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
            char *br = strchr(d, '[');
            if (br) *br = 0;
            char *e = d + strlen(d);
            while (e > d && !isalnum((unsigned char)e[-1]) && e[-1] != '_') e--;
            char *b = e;
            while (b > d && (isalnum((unsigned char)b[-1]) || b[-1] == '_')) b--;
            if (e > b) {
                size_t used = strlen(out);
                snprintf(out + used, n - used, "%s%.*s", used ? "," : "", (int)(e - b), b);
            }
        }
    }
    return 1;
}

static int listed(const floe_snap_struct *s, const char *member, size_t len) {
    for (int l = 0; l < 2; l++)
        for (const floe_snap_field *f = s->fields[l]; f && f->member; f++)
            if (strlen(f->member) == len && !strncmp(f->member, member, len)) return 1;
    return 0;
}

static int count_listed(const floe_snap_struct *s) {
    int n = 0;
    for (int l = 0; l < 2; l++)
        for (const floe_snap_field *f = s->fields[l]; f && f->member; f++) n++;
    return n;
}

/* The shape store is described from the shape classes: each class's
 * fields (the items of its restart group) tile its record, each at the
 * size its item says, so every byte of a record is saved. */
static void check_shape_records(void) {
    floe_snap_shapes *sh = malloc(sizeof *sh);
    CHECK(sh != NULL);
    if (!sh) return;
    int ok = floe__snap_shapes_describe(sh) == 0, records = 0, tiled = 0;
    if (!ok) fprintf(stderr, "shape store: %s\n", sh->unusable);
    CHECK(ok);
    for (const floe_snap_field *f = sh->stores; ok && f->member; f++) {
        const floe_snap_struct *s = f->sub;
        char why[400];
        records++;
        long pad = tiling(s, why, sizeof why);
        if (pad < 0) fprintf(stderr, "%s\n", why);
        CHECK(pad >= 0);
        if (!sizes_ok(s, why, sizeof why)) {
            fprintf(stderr, "%s\n", why);
            CHECK(0);
        }
        tiled += pad >= 0;
    }
    /* every class with a record is described (spheres keep none) */
    int with_record = 0;
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) with_record += floe_shape_class_get(t)->size > 0;
    CHECK(records == with_record);
    REPORT("shape store: %d of %d shape records tiled by their classes' fields\n", tiled, records);
    free(sh);
}

static void check_table(void) {
    static const char *const headers[] = {"include/floe/floe.h", "src/l6geom/geom.h", "src/models/model.h",
                                          "src/core/world.h"};
    char *text[4];
    for (int i = 0; i < 4; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/../../%s", FLOE_TEST_DATA, headers[i]);
        text[i] = check_slurp(p, NULL);
        CHECK(text[i] != NULL);
        if (text[i]) strip_comments(text[i]);
    }
    const floe_snap_struct *all[64];
    int n = 0;
    for (int i = 0; i < floe__snap_nstructs; i++) all[n++] = floe__snap_structs[i];
    check_shape_records();
    int tiled = 0, named = 0, members = 0;
    long padding = 0;
    for (int i = 0; i < n; i++) {
        const floe_snap_struct *s = all[i];
        char why[400];
        long pad = tiling(s, why, sizeof why);
        if (pad < 0) fprintf(stderr, "%s\n", why);
        CHECK(pad >= 0);
        tiled += pad >= 0;
        padding += pad > 0 ? pad : 0;
        if (!sizes_ok(s, why, sizeof why)) {
            fprintf(stderr, "%s\n", why);
            CHECK(0);
        }
        /* every struct a member points to is described, and in this list */
        for (int l = 0; l < 2; l++)
            for (const floe_snap_field *f = s->fields[l]; f && f->member; f++) {
                int found = !f->sub;
                for (int k = 0; k < n && !found; k++) found = all[k] == f->sub;
                if (!found)
                    fprintf(stderr, "struct %s: member %s: its struct is not in the list\n", s->name, f->member);
                CHECK(found);
            }
        /* the names the header declares, all listed, and no others */
        char decl[4096];
        int in = 0;
        for (int h = 0; h < 4 && !in; h++) in = text[h] && declared_members(text[h], s->name, decl, sizeof decl);
        if (!in) fprintf(stderr, "struct %s: not found in the headers\n", s->name);
        CHECK(in);
        int nd = 0, all_listed = 1;
        for (const char *p = decl; in && *p;) {
            size_t k = strcspn(p, ",");
            if (!listed(s, p, k)) {
                fprintf(stderr, "struct %s: member %.*s is declared but has no line in the snapshot's table\n", s->name,
                        (int)k, p);
                all_listed = 0;
            }
            nd++;
            p += k + (p[k] == ',');
        }
        if (in && nd != count_listed(s))
            fprintf(stderr, "struct %s: the header declares %d members, the table lists %d\n", s->name, nd,
                    count_listed(s));
        CHECK(in && all_listed && nd == count_listed(s));
        named += in && all_listed && nd == count_listed(s);
        members += nd;
    }
    for (int i = 0; i < 4; i++) free(text[i]);
    REPORT("table: %d of %d structs tiled by their listed members (%ld bytes of padding in all), %d of %d with "
           "exactly the members their headers declare (%d members)\n",
           tiled, n, padding, named, n, members);
}

/* ---- damage ------------------------------------------------------------------------- */

static void check_damage(void) {
    floe_world *w = build(7, 0);
    CHECK(steps(w, 60));
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[1024];
    CHECK(floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err) == 0);
    if (!bytes) {
        floe_world_destroy(w);
        return;
    }
    /* every truncation loses items or the header: refused with a message */
    int refused = 0, tried = 0;
    for (size_t cut = 0; cut < len; cut = cut < 64 ? cut + 1 : cut * 5 / 4 + 1) {
        err[0] = 0;
        floe_world *x = floe_snapshot_from_bytes(bytes, cut, err, sizeof err);
        refused += !x && err[0];
        tried++;
        floe_world_destroy(x);
    }
    CHECK(refused == tried);
    /* flipped bytes: refused with a message, or loaded (a value that passes the checks), never a crash */
    uint64_t s = 99;
    int flips = 0, flip_refused = 0;
    unsigned char *copy = malloc(len);
    for (int t = 0; copy && t < 300; t++) {
        memcpy(copy, bytes, len);
        size_t at = (size_t)(rnd(&s) * (double)len);
        copy[at] ^= (unsigned char)(1u << (int)(8 * rnd(&s)));
        err[0] = 0;
        floe_world *x = floe_snapshot_from_bytes(copy, len, err, sizeof err);
        CHECK(x || err[0]);
        flip_refused += !x;
        flips++;
        floe_world_destroy(x);
    }
    free(copy);
    /* another format version: both versions named */
    uint32_t old = 2;
    memcpy(bytes + 8, &old, 4);
    floe_world *x = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    char now[32];
    snprintf(now, sizeof now, "version %d", FLOE_SNAPSHOT_FORMAT);
    int named = !x && strstr(err, "version 2") && strstr(err, now);
    if (!named) fprintf(stderr, "old byte form: %s\n", err);
    CHECK(named);
    floe_world_destroy(x);
    free(bytes);
    REPORT("byte form of %zu bytes: %d of %d truncations refused; %d of %d single-bit flips refused, the others "
           "loaded; version 2: \"%s\"\n",
           len, refused, tried, flip_refused, flips, err);

    /* a restart file of format version 2 */
    char path[512];
    snprintf(path, sizeof path, "%s/old.h5", tmp);
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene.world = w;
    CHECK(floe_restart_write(path, &r, err, sizeof err) == 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    CHECK(f >= 0 && h5m_set(f, "@format_version", 0, 0, 2) == 0);
    if (f >= 0) H5Fclose(f);
    floe_restart back;
    int rc = floe_restart_load(path, &back, err, sizeof err);
    named = rc != 0 && strstr(err, "version 2") && strstr(err, now) && strstr(err, FLOE_VERSION);
    if (!named) fprintf(stderr, "old restart file: %s\n", err);
    CHECK(named);
    if (rc == 0) floe_restart_free(&back);
    REPORT("restart file of format version 2: \"%s\"\n", strstr(err, ": ") ? strstr(err, ": ") + 2 : err);
    floe_world_destroy(w);
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_snapshot_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    check_table();
    coverage_of_worlds();
    int ok = 0, n = 0;
    /* never started, early (bonds forming), and later (bonds breaking, methods applied) */
    static const int n1[] = {0, 3, 90, 170, 260};
    for (int i = 0; i < 10; i++, n++) round_trip(1000 + (uint64_t)i, i % 2, n1[i % 5], 120, &ok);
    REPORT("%d of %d random worlds equal after the round trips and after stepping on\n", ok, n);
    /* the empty world: no materials, bodies or contacts */
    floe_world *e = floe_world_create(NULL);
    size_t elen = 0;
    floe_world *e2 = via_bytes(e, &elen), *e3 = via_file(e, "empty");
    CHECK(e2 && e3 && same(e, e2, "empty world") && same(e, e3, "empty world"));
    REPORT("empty world: %zu bytes, equal after the round trips: %s\n", elen,
           e2 && e3 && same(e, e2, "empty") && same(e, e3, "empty") ? "yes" : "NO");
    floe_world_destroy(e);
    floe_world_destroy(e2);
    floe_world_destroy(e3);
    check_damage();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (!check_failures) CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
