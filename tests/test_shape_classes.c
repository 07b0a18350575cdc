/* The shape classes (src/shapes): the class table walked
 * member by member; mass and inertia of every body class against their
 * closed forms; half extents and bounds against the points of each class's
 * picture; and every narrow-phase function called alone, with records and
 * poses built by the classes and no world: one configuration per pair with
 * its gap, normal and point worked out by hand below, then random
 * configurations that a rigid motion must leave unchanged. Last,
 * floe_add_body and floe_body_params through the public API. */
#include "check.h"
#include "shapes/registry.h"

#include <floe/floe.h>

/* ---- helpers ------------------------------------------------------------- */

static double rnd(uint64_t *s) { /* splitmix64 -> [0, 1) */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static quat rquat(uint64_t *s) {
    quat q = {rnd(s) - 0.5, rnd(s) - 0.5, rnd(s) - 0.5, rnd(s) - 0.5};
    return qnormalize(q);
}

static quat qaxis(vec3 axis, double angle) {
    vec3 u = vscale(vnormalize(axis), sin(0.5 * angle));
    return (quat){cos(0.5 * angle), u.x, u.y, u.z};
}

/* A body outside any world: its class, pose and record (a sphere's record
 * is its radius, a double). */
typedef struct body {
    const floe_shape_class *c;
    floe_pose p;
    _Alignas(double) unsigned char rec[2048];
} body;

static body mk(int type, const double *params, vec3 x, quat q) {
    body b;
    memset(&b, 0, sizeof b);
    b.c = floe_shape_class_get(type);
    b.p = (floe_pose){x, qnormalize(q)};
    char err[256];
    CHECK(b.c->size <= sizeof b.rec);
    CHECK(b.c->init(b.rec, params, &b.p, err, sizeof err) == 0);
    return b;
}

/* The narrow phase of the pair (A has the lower rank). */
static int touch(const body *a, const body *b, const vec3 *prev, double gap, floe_raw_contact *out) {
    floe_collide_fn *fn = floe_narrowphase(a->c->type, b->c->type);
    CHECK(fn != NULL);
    if (!fn) return -1;
    return fn(a->rec, &a->p, b->rec, &b->p, prev, gap, out);
}

#define CHECK_VEC(got, want, tol)       \
    do {                                \
        vec3 gv_ = (got), wv_ = (want); \
        CHECK_NEAR(gv_.x, wv_.x, tol);  \
        CHECK_NEAR(gv_.y, wv_.y, tol);  \
        CHECK_NEAR(gv_.z, wv_.z, tol);  \
    } while (0)

static const quat ID = {1, 0, 0, 0};

/* ---- the class table ----------------------------------------------------- */

static void test_table(void) {
    int seen_type[FLOE_SHAPE_COUNT] = {0};
    for (int i = 0; i < FLOE_SHAPE_COUNT; i++) {
        const floe_shape_class *c = floe_shape_class_at(i);
        CHECK(c != NULL);
        if (!c) continue;
        CHECK(c->type >= 0 && c->type < FLOE_SHAPE_COUNT);
        if (c->type < 0 || c->type >= FLOE_SHAPE_COUNT) continue;
        CHECK(!seen_type[c->type]);
        seen_type[c->type] = 1;
        CHECK(floe_shape_class_get(c->type) == c);
        CHECK(c->name && *c->name && c->title && *c->title && c->section && *c->section);
        for (int j = 0; j < i; j++) { /* names, sections and ranks unique */
            const floe_shape_class *o = floe_shape_class_at(j);
            CHECK(strcmp(o->name, c->name) != 0);
            CHECK(strcmp(o->section, c->section) != 0);
            CHECK(o->rank != c->rank);
        }
        CHECK(floe_shape_rank(c->type) == c->rank);
        /* parameters */
        CHECK(c->nparams >= 1 && c->params);
        CHECK(floe_shape_param_values(c) <= FLOE_SHAPE_MAX_PARAMS);
        for (int k = 0; k < c->nparams; k++) {
            const floe_shape_param *p = &c->params[k];
            CHECK(p->key && *p->key);
            CHECK(p->kind >= FLOE_PARAM_REAL && p->kind <= FLOE_PARAM_POINT);
            CHECK(p->n >= 1 && (p->kind != FLOE_PARAM_POINT || p->n % 3 == 0));
            CHECK(p->lo <= p->hi);
            CHECK(isnan(p->def) || (p->def >= p->lo && p->def <= p->hi));
            int items = p->kind == FLOE_PARAM_POINT ? p->n / 3 : p->n;
            if (items > 1) CHECK(p->list && p->item); /* scenes and messages name the list and its items */
            int listed = 0;                           /* every parameter is a scene key */
            for (int j = 0; j < c->nkeys; j++) listed += !strcmp(c->keys[j], p->key);
            CHECK(listed == 1);
        }
        for (int j = 0; j < c->nkeys; j++)
            for (int k = 0; k < j; k++) CHECK(strcmp(c->keys[j], c->keys[k]) != 0);
        /* record and restart fields: inside the record, not overlapping, and
         * covering it but for padding */
        size_t covered = 0;
        for (int f = 0; f < c->nfields; f++) {
            const floe_shape_field *fd = &c->fields[f];
            size_t vals = (size_t)(fd->rows > 0 ? fd->rows : 1) * (size_t)(fd->cols > 0 ? fd->cols : 1);
            size_t bytes = vals * (fd->type == FLOE_FIELD_F64 ? sizeof(double) : sizeof(int));
            CHECK(fd->name && *fd->name);
            CHECK(fd->offset + bytes <= c->size);
            for (int g = 0; g < f; g++) {
                const floe_shape_field *o = &c->fields[g];
                size_t ov = (size_t)(o->rows > 0 ? o->rows : 1) * (size_t)(o->cols > 0 ? o->cols : 1);
                size_t ob = ov * (o->type == FLOE_FIELD_F64 ? sizeof(double) : sizeof(int));
                CHECK(fd->offset + bytes <= o->offset || o->offset + ob <= fd->offset);
                CHECK(strcmp(fd->name, o->name) != 0);
            }
            covered += bytes;
        }
        CHECK(c->size == 0 ? c->nfields == 0 : c->nfields >= 1 && covered + sizeof(double) > c->size);
        /* functions: every class has its own; bodies have mass, bounds and
         * extents; boundaries a broad-phase test */
        CHECK(c->init && c->params_of && c->radius);
        int boundary = (c->flags & FLOE_SHAPE_BOUNDARY) != 0, compound = (c->flags & FLOE_SHAPE_COMPOUND) != 0;
        CHECK((c->mass == NULL) == boundary);
        CHECK((c->bound == NULL) == (boundary || compound)); /* a compound is off the grid */
        CHECK(!(boundary && compound));
        CHECK((c->half_extent == NULL) == boundary);
        CHECK((c->near != NULL) == boundary);
        CHECK(c->nvertices >= 0 && c->nvertices <= FLOE_SHAPE_MAX_VERTICES &&
              (c->vertices != NULL) == (c->nvertices > 0));
        CHECK(!(c->flags & FLOE_SHAPE_BLOCKED) || boundary);
        CHECK(c->draw >= FLOE_DRAW_POINT && c->draw <= FLOE_DRAW_SURFACE);
        if (c->draw != FLOE_DRAW_POINT) {
            CHECK(c->picture != NULL);
            CHECK(c->draw_points > 0 && c->draw_points <= FLOE_SHAPE_MAX_POINTS);
            CHECK(c->draw_faces > 0 && c->draw_faces <= FLOE_SHAPE_MAX_FACES);
            CHECK(c->face_size == 3 || (c->face_size == 4 && c->draw == FLOE_DRAW_BOUNDARY));
        }
        CHECK(c->draw != FLOE_DRAW_POINT || !boundary); /* a boundary is no particle point */
        CHECK(c->keys && c->nkeys >= c->nparams);
    }
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) CHECK(seen_type[t]);
    /* pairs: listed by either class, the same function if by both; every
     * pair with a body collides, boundaries never meet each other, a
     * compound meets nothing (its parts, bodies of their own, do) */
    for (int a = 0; a < FLOE_SHAPE_COUNT; a++)
        for (int b = 0; b < FLOE_SHAPE_COUNT; b++) {
            const floe_shape_class *ca = floe_shape_class_get(a), *cb = floe_shape_class_get(b);
            if (ca->collide[b] && cb->collide[a]) CHECK(ca->collide[b] == cb->collide[a]);
            floe_collide_fn *fn = floe_narrowphase(a, b);
            int both_boundaries = (ca->flags & cb->flags & FLOE_SHAPE_BOUNDARY) != 0;
            int compound = ((ca->flags | cb->flags) & FLOE_SHAPE_COMPOUND) != 0;
            if (ca->rank > cb->rank) CHECK(fn == NULL);
            else CHECK((fn == NULL) == (both_boundaries || compound));
        }
    REPORT("class table: %d shapes, every member, names, sections and ranks unique, pairs complete\n",
           FLOE_SHAPE_COUNT);
}

/* ---- mass and inertia ------------------------------------------------------- */

static void test_mass(void) {
    const double rho = 2300;
    double m;
    vec3 I;
    /* solid sphere: m = 4/3 pi r^3 rho, I = 2/5 m r^2 */
    {
        double r = 0.3;
        body b = mk(FLOE_SHAPE_SPHERE, (double[]){r}, v3(0, 0, 0), ID);
        b.c->mass(b.rec, rho, &m, &I);
        double want = 4.0 / 3.0 * FLOE_PI * r * r * r * rho;
        CHECK_REL(m, want, 1e-14);
        CHECK_REL(I.x, 0.4 * want * r * r, 1e-14);
        CHECK(I.x == I.y && I.y == I.z);
    }
    /* capsule (a cylinder of length s and two hemispheres): with m_c = rho pi
     * r^2 s and m_s = rho 4/3 pi r^3, I_axis = m_c r^2/2 + 2/5 m_s r^2 and
     * I_perp = m_c (r^2/4 + s^2/12) + m_s (2r^2/5 + s^2/4 + 3 s r/8) (each
     * hemisphere by the parallel-axis theorem about its centroid, 3r/8 from
     * its flat face) */
    {
        double r = 0.1, s = 0.35;
        body b = mk(FLOE_SHAPE_CAPSULE, (double[]){r, s}, v3(0, 0, 0), ID);
        b.c->mass(b.rec, rho, &m, &I);
        double mc = rho * FLOE_PI * r * r * s, ms = rho * 4.0 / 3.0 * FLOE_PI * r * r * r;
        CHECK_REL(m, mc + ms, 1e-14);
        CHECK_REL(I.x, mc * r * r / 2 + 0.4 * ms * r * r, 1e-13);
        double perp = mc * (r * r / 4 + s * s / 12) + ms * (0.4 * r * r + s * s / 4 + 3 * s * r / 8);
        CHECK_REL(I.y, perp, 1e-13);
        CHECK_REL(I.z, perp, 1e-13);
    }
    /* ellipsoid: m = 4/3 pi a b c rho, I_x = m (b^2 + c^2)/5, ... */
    {
        double a = 0.3, bb = 0.2, c = 0.07;
        body b = mk(FLOE_SHAPE_ELLIPSOID, (double[]){a, bb, c}, v3(0, 0, 0), ID);
        b.c->mass(b.rec, rho, &m, &I);
        double want = 4.0 / 3.0 * FLOE_PI * a * bb * c * rho;
        CHECK_REL(m, want, 1e-14);
        CHECK_REL(I.x, want * (bb * bb + c * c) / 5, 1e-14);
        CHECK_REL(I.y, want * (c * c + a * a) / 5, 1e-14);
        CHECK_REL(I.z, want * (a * a + bb * bb) / 5, 1e-14);
    }
    REPORT("mass and inertia: sphere, capsule, ellipsoid against their closed forms (rel 1e-13)\n");
}

/* ---- extents against pictures ----------------------------------------------- */

/* Parameters of a typical body of each shape (lengths about 0.1 m); a new
 * shape adds its own here. */
static void typical(int type, double *p) {
    switch (type) {
        case FLOE_SHAPE_SPHERE:
            p[0] = 0.1;
            return;
        case FLOE_SHAPE_WALL:
            p[0] = 2;
            p[1] = 1;
            return;
        case FLOE_SHAPE_FACET: {
            const double v[10] = {-0.1, -0.05, 0.01, 0.12, -0.04, -0.02, 0.0, 0.13, 0.03, 0.01};
            memcpy(p, v, sizeof v);
            return;
        }
        case FLOE_SHAPE_CAPSULE:
            p[0] = 0.06;
            p[1] = 0.15;
            return;
        case FLOE_SHAPE_ELLIPSOID:
            p[0] = 0.12;
            p[1] = 0.07;
            p[2] = 0.04;
            return;
        case FLOE_SHAPE_INFCYLINDER:
            p[0] = 1;
            p[1] = 0.08;
            return;
        case FLOE_SHAPE_POLYHEDRON: { /* a skewed block of 8 corners and a 9th corner above one face */
            const double v[27] = {-0.1,  -0.06, -0.04, 0.1,  -0.05, -0.04, 0.12, 0.06,  -0.03,
                                  -0.09, 0.06,  -0.04, -0.1, -0.06, 0.04,  0.1,  -0.06, 0.05,
                                  0.1,   0.07,  0.04,  -0.1, 0.06,  0.04,  0.0,  0.0,   0.09};
            for (int k = 0; k < 3 * FLOE_POLYHEDRON_MAX_VERTICES; k++) p[k] = k < 27 ? v[k] : v[24 + k % 3];
            return;
        }
        case FLOE_SHAPE_CLUMP: /* a dumbbell along body x, about its centroid */
            for (int k = 0; k < FLOE_SHAPE_MAX_PARAMS; k++) p[k] = 0;
            p[0] = -0.05;
            p[3] = 0.06;
            p[4] = 0.05;
            p[7] = 0.06;
            return;
        default: /* a new shape: give its typical parameters above */
            fprintf(stderr, "typical(): no parameters for shape %d (%s)\n", type, floe_shape_class_get(type)->name);
            CHECK(0);
            for (int k = 0; k < FLOE_SHAPE_MAX_PARAMS; k++) p[k] = 0.1;
    }
}

static void test_extents(void) {
    uint64_t seed = 7;
    static floe_vec3 pt[FLOE_SHAPE_MAX_POINTS], nrm[FLOE_SHAPE_MAX_POINTS];
    static int32_t corner[FLOE_SHAPE_MAX_FACES * 4];
    int checked = 0;
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        if (c->draw == FLOE_DRAW_POINT || (c->flags & FLOE_SHAPE_BOUNDARY && !c->nvertices)) continue;
        double par[FLOE_SHAPE_MAX_PARAMS];
        typical(t, par);
        for (int trial = 0; trial < 50; trial++) {
            vec3 x = v3(rnd(&seed), rnd(&seed), rnd(&seed));
            body b = mk(t, par, x, rquat(&seed));
            floe_draw_box box = {v3(-1, -1, -1), v3(1, 1, 1), 1, 0.1};
            c->picture(b.rec, &b.p, &box, pt, nrm, corner);
            double far = c->reach ? c->reach(b.rec) : c->bound(b.rec);
            vec3 h = c->half_extent ? c->half_extent(b.rec, b.p.q) : v3(INFINITY, INFINITY, INFINITY);
            vec3 most = v3(0, 0, 0);
            for (int k = 0; k < c->draw_points; k++) {
                vec3 d = vsub(pt[k], b.p.x);
                CHECK(vlen(d) <= far * (1 + 1e-12)); /* bound (reach) about the reference point */
                CHECK(fabs(d.x) <= h.x * (1 + 1e-12) && fabs(d.y) <= h.y * (1 + 1e-12) &&
                      fabs(d.z) <= h.z * (1 + 1e-12));
                most = v3(fmax(most.x, fabs(d.x)), fmax(most.y, fabs(d.y)), fmax(most.z, fabs(d.z)));
                if (c->draw == FLOE_DRAW_SURFACE) CHECK(fabs(vlen(nrm[k]) - 1) < 1e-12);
            }
            /* the box is tight: the picture comes close to each side */
            if (c->half_extent) CHECK(most.x >= 0.9 * h.x && most.y >= 0.9 * h.y && most.z >= 0.9 * h.z);
            for (int k = 0; k < c->draw_faces * c->face_size; k++) CHECK(corner[k] >= 0 && corner[k] < c->draw_points);
            checked++;
        }
    }
    REPORT("extents: %d pictures inside the half extents and bounds of their bodies, tight to 10 %%\n", checked);
}

/* ---- narrow phase, alone ------------------------------------------------------ */

static void test_pairs_by_hand(void) {
    floe_raw_contact o;
    const double tol = 1e-12;
    /* sphere + sphere: radii 0.5, 0.3, centres 0.75 apart along u */
    {
        vec3 u = v3(1.0 / 3, 2.0 / 3, 2.0 / 3);
        body a = mk(FLOE_SHAPE_SPHERE, (double[]){0.5}, v3(0, 0, 0), ID);
        body b = mk(FLOE_SHAPE_SPHERE, (double[]){0.3}, vscale(u, 0.75), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.05, tol);
        CHECK_VEC(o.n, u, tol);
        CHECK_VEC(o.c, vscale(u, 0.475), tol); /* middle of the overlap */
        b.p.x = vscale(u, 0.85);               /* 0.05 apart: no new contact unless the gap allows */
        CHECK(touch(&a, &b, NULL, 0, &o) == 0);
        CHECK(touch(&a, &b, NULL, 0.06, &o) == 1);
        CHECK_NEAR(o.uN, 0.05, tol);
    }
    /* wall z = 1 (sense +1) + sphere r 0.2 at z = 1.15: uN = -0.05, point below the centre */
    {
        body a = mk(FLOE_SHAPE_WALL, (double[]){2, 1}, v3(5, 6, 1), ID);
        body b = mk(FLOE_SHAPE_SPHERE, (double[]){0.2}, v3(0.3, -0.4, 1.15), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.05, tol);
        CHECK_VEC(o.n, v3(0, 0, 1), tol);
        CHECK_VEC(o.c, v3(0.3, -0.4, 1), tol);
        body w2 = mk(FLOE_SHAPE_WALL, (double[]){2, -1}, v3(0, 0, 1), ID); /* from below */
        b.p.x = v3(0, 0, 0.9);
        CHECK(touch(&w2, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.1, tol);
        CHECK_VEC(o.n, v3(0, 0, -1), tol);
    }
    /* facet (turned pose, vertices given globally) + sphere over its face:
     * uN = 0.105 - 0.1 - h */
    {
        double v[10] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.01};
        body a = mk(FLOE_SHAPE_FACET, v, v3(0.2, 0.3, 0), qaxis(v3(1, 2, 3), 0.7));
        body b = mk(FLOE_SHAPE_SPHERE, (double[]){0.1}, v3(0.25, 0.25, 0.105), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.005, tol);
        CHECK_VEC(o.n, v3(0, 0, 1), tol);
        CHECK_VEC(o.c, v3(0.25, 0.25, 0.01), tol); /* on the facet's surface */
    }
    /* capsule + capsule side by side along x, 0.19 apart (radii 0.1):
     * uN = -0.01 at the middle of the overlap of the shafts, x in [-0.2, 0.5] */
    {
        body a = mk(FLOE_SHAPE_CAPSULE, (double[]){0.1, 1}, v3(0, 0, 0), ID);
        body b = mk(FLOE_SHAPE_CAPSULE, (double[]){0.1, 1}, v3(0.3, 0.19, 0), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.01, tol);
        CHECK_VEC(o.n, v3(0, 1, 0), tol);
        CHECK_VEC(o.c, v3(0.15, 0.095, 0), tol);
    }
    /* sphere + capsule turned to lie along y: the nearest axis point is
     * (0, 0.3, 0), 0.25 away: uN = 0.25 - 0.2 - 0.1 */
    {
        body a = mk(FLOE_SHAPE_SPHERE, (double[]){0.2}, v3(0.25, 0.3, 0), ID);
        body b = mk(FLOE_SHAPE_CAPSULE, (double[]){0.1, 1}, v3(0, 0, 0), qaxis(v3(0, 0, 1), FLOE_PI / 2));
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.05, tol);
        CHECK_VEC(o.n, v3(-1, 0, 0), tol);
    }
    /* wall + capsule lying on it, both ends 0.01 deep: the point between the ends */
    {
        body a = mk(FLOE_SHAPE_WALL, (double[]){2, 1}, v3(0, 0, 0), ID);
        body b = mk(FLOE_SHAPE_CAPSULE, (double[]){0.1, 1}, v3(0.2, 0.3, 0.09), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.01, tol);
        CHECK_VEC(o.n, v3(0, 0, 1), tol);
        CHECK_VEC(o.c, v3(0.2, 0.3, 0), tol);
    }
    /* infinite cylinder along y (R 0.5) + sphere r 0.1 at radial offset
     * (0.3, 0.4): uN = 0.5 - 0.6, n radial */
    {
        body a = mk(FLOE_SHAPE_INFCYLINDER, (double[]){1, 0.5}, v3(0, 0, 0), ID);
        body b = mk(FLOE_SHAPE_SPHERE, (double[]){0.1}, v3(0.3, 7, 0.4), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.1, tol);
        CHECK_VEC(o.n, v3(0.6, 0, 0.8), tol);
    }
    /* infinite cylinder along z (R 0.2) + capsule (r 0.1) across it along
     * y, nearest at radial 0.28: uN = 0.28 - 0.3 */
    {
        body a = mk(FLOE_SHAPE_INFCYLINDER, (double[]){2, 0.2}, v3(0, 0, 0), ID);
        body b = mk(FLOE_SHAPE_CAPSULE, (double[]){0.1, 1}, v3(0.28, 0, 5), qaxis(v3(0, 0, 1), FLOE_PI / 2));
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.02, tol);
        CHECK_VEC(o.n, v3(1, 0, 0), tol);
    }
    /* wall + ellipsoid (semi-axes a, b, c turned by th about y): its extent
     * along z is sqrt(a^2 sin^2 th + c^2 cos^2 th) (the support function) */
    {
        double a3 = 0.3, c3 = 0.1, th = 0.3, e = sqrt(a3 * a3 * sin(th) * sin(th) + c3 * c3 * cos(th) * cos(th));
        body a = mk(FLOE_SHAPE_WALL, (double[]){2, 1}, v3(0, 0, 0), ID);
        body b = mk(FLOE_SHAPE_ELLIPSOID, (double[]){a3, 0.2, c3}, v3(0.1, 0.2, e - 0.004), qaxis(v3(0, 1, 0), th));
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.004, tol);
        CHECK_VEC(o.n, v3(0, 0, 1), tol);
    }
    /* ellipsoid + ellipsoid aligned along x: uN = 0.49 - 0.3 - 0.2 */
    {
        body a = mk(FLOE_SHAPE_ELLIPSOID, (double[]){0.3, 0.2, 0.1}, v3(0, 0, 0), ID);
        body b = mk(FLOE_SHAPE_ELLIPSOID, (double[]){0.2, 0.1, 0.1}, v3(0.49, 0, 0), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.01, 1e-10);
        CHECK_VEC(o.n, v3(1, 0, 0), 1e-10);
    }
    /* sphere over the pole of an ellipsoid: uN = 0.34 - 0.25 - 0.1 */
    {
        body a = mk(FLOE_SHAPE_SPHERE, (double[]){0.1}, v3(0, 0, 0.34), ID);
        body b = mk(FLOE_SHAPE_ELLIPSOID, (double[]){0.3, 0.2, 0.25}, v3(0, 0, 0), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.01, 1e-10);
        CHECK_VEC(o.n, v3(0, 0, -1), 1e-10);
    }
    /* capsule standing over the pole of an ellipsoid: its lower end sphere
     * (r 0.05) is 0.34 - 0.2 = 0.14 above the centre: uN = 0.14 - 0.05 - 0.1 */
    {
        body a = mk(FLOE_SHAPE_CAPSULE, (double[]){0.05, 0.4}, v3(0, 0, 0.34), qaxis(v3(0, 1, 0), FLOE_PI / 2));
        body b = mk(FLOE_SHAPE_ELLIPSOID, (double[]){0.3, 0.2, 0.1}, v3(0, 0, 0), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.01, 1e-10);
        CHECK_VEC(o.n, v3(0, 0, -1), 1e-10);
    }
    /* infinite cylinder along z at x = 0.39 (R 0.1) + ellipsoid (0.3, 0.2,
     * c) at the origin: in the xy plane the disc meets the ellipse at its
     * vertex (0.3, 0): uN = 0.09 - 0.1 */
    {
        body a = mk(FLOE_SHAPE_INFCYLINDER, (double[]){2, 0.1}, v3(0.39, 0, 3), ID);
        body b = mk(FLOE_SHAPE_ELLIPSOID, (double[]){0.3, 0.2, 0.1}, v3(0, 0, 0), ID);
        CHECK(touch(&a, &b, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.01, 1e-10);
        CHECK_VEC(o.n, v3(-1, 0, 0), 1e-10);
    }
    /* a large facet in z = 0 + ellipsoid (c = 0.1) at z = 0.095, and + a
     * capsule (r 0.1) lying at z = 0.095: uN = -0.005 for both */
    {
        double v[10] = {-5, -5, 0, 5, -5, 0, 0, 5, 0, 0};
        body a = mk(FLOE_SHAPE_FACET, v, v3(0, 0, 0), ID);
        body e = mk(FLOE_SHAPE_ELLIPSOID, (double[]){0.3, 0.2, 0.1}, v3(0.1, 0.2, 0.095), ID);
        CHECK(touch(&a, &e, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.005, 1e-10);
        CHECK_VEC(o.n, v3(0, 0, 1), 1e-10);
        body k = mk(FLOE_SHAPE_CAPSULE, (double[]){0.1, 0.5}, v3(0.1, 0.2, 0.095), qaxis(v3(0, 0, 1), 0.4));
        CHECK(touch(&a, &k, NULL, 0, &o) == 1);
        CHECK_NEAR(o.uN, -0.005, tol);
        CHECK_VEC(o.n, v3(0, 0, 1), tol);
        CHECK_NEAR(o.c.z, 0, tol);
    }
    REPORT("narrow phase alone: 15 pairs against gaps, normals and points worked out by hand\n");
}

/* Random configurations of every pair: far apart no new contact; an
 * existing contact always filled; the same contact after a translation
 * (and, without axis-aligned bodies, a rotation) of both bodies. */
static void test_pairs_random(void) {
    uint64_t seed = 99;
    int n = 0, shallow = 0;
    for (int ta = 0; ta < FLOE_SHAPE_COUNT; ta++)
        for (int tb = 0; tb < FLOE_SHAPE_COUNT; tb++) {
            if (!floe_narrowphase(ta, tb)) continue;
            const floe_shape_class *ca = floe_shape_class_get(ta), *cb = floe_shape_class_get(tb);
            int aligned = (ca->flags | cb->flags) & FLOE_SHAPE_BLOCKED; /* walls, cylinders: global axes */
            double pa[FLOE_SHAPE_MAX_PARAMS], pb[FLOE_SHAPE_MAX_PARAMS];
            typical(ta, pa);
            typical(tb, pb);
            for (int trial = 0; trial < 40; trial++, n++) {
                vec3 xa = v3(rnd(&seed), rnd(&seed), rnd(&seed));
                vec3 xb = vadd(xa, v3(0.3 * (rnd(&seed) - 0.5), 0.3 * (rnd(&seed) - 0.5), 0.3 * (rnd(&seed) - 0.5)));
                body a = mk(ta, pa, xa, rquat(&seed)), b = mk(tb, pb, xb, rquat(&seed));
                vec3 prev = vnormalize(v3(rnd(&seed) - 0.5, rnd(&seed) - 0.5, rnd(&seed) - 0.5));
                floe_raw_contact o, m;
                CHECK(touch(&a, &b, &prev, 0, &o) == 1);
                CHECK(isfinite(o.uN) && fabs(vlen(o.n) - 1) < 1e-9);
                /* a rigid motion of both: translation T, rotation R about the origin */
                vec3 T = v3(10 * rnd(&seed) - 5, 10 * rnd(&seed) - 5, 10 * rnd(&seed) - 5);
                quat R = aligned ? ID : rquat(&seed);
                body a2 = a, b2 = b;
                a2.p = (floe_pose){vadd(qrotate(R, a.p.x), T), qmul(R, a.p.q)};
                b2.p = (floe_pose){vadd(qrotate(R, b.p.x), T), qmul(R, b.p.q)};
                vec3 prev2 = qrotate(R, prev);
                CHECK(touch(&a2, &b2, &prev2, 0, &m) == 1);
                CHECK_NEAR(m.uN, o.uN, 1e-9);
                /* the normal and point too while the overlap is shallow (deep
                 * overlaps of aspherical bodies may have several deepest
                 * points: only their gap is unique) */
                if (o.uN > -0.02) {
                    CHECK_VEC(m.n, qrotate(R, o.n), 1e-7);
                    CHECK_VEC(m.c, vadd(qrotate(R, o.c), T), 1e-7);
                    shallow++;
                }
                CHECK_NEAR(m.r1, o.r1, 1e-9);
                CHECK_NEAR(m.r2, o.r2, 1e-9);
                /* 100 m apart on every axis: no new contact */
                b.p.x = vadd(a.p.x, v3(100, 100, 100));
                CHECK(touch(&a, &b, NULL, 0, &o) == 0);
            }
        }
    REPORT("narrow phase alone: %d random configurations over every pair, invariant under rigid motions (gap: all; "
           "normal and point: the %d shallow ones)\n",
           n, shallow);
}

/* ---- the public entry ------------------------------------------------------------ */

static void test_add_body(void) {
    floe_world_def wd = floe_default_world_def();
    floe_world *w = floe_world_create(&wd);
    int mat = floe_add_material(w, "m", "linear");
    floe_material_set(w, mat, "density", 2000);
    floe_body_def d = floe_default_body_def();
    d.material = mat;
    d.pos = (floe_vec3){0.1, 0.2, 0.3};
    d.ori = qaxis(v3(1, 1, 0), 0.5);
    int bodies = 0; /* a clump adds its pebbles after it */
    for (int t = 0; t < FLOE_SHAPE_COUNT; t++) {
        const floe_shape_class *c = floe_shape_class_get(t);
        double p[FLOE_SHAPE_MAX_PARAMS], back[FLOE_SHAPE_MAX_PARAMS];
        typical(t, p);
        int id = floe_add_body(w, &d, (floe_shape_type)t, p);
        CHECK(id == bodies);
        bodies = floe_particle_count(w);
        CHECK(bodies == id + 1 + (t == FLOE_SHAPE_CLUMP ? 2 : 0)); /* the dumbbell's pebbles */
        CHECK(floe_particle_shape(w, id) == (floe_shape_type)t);
        int nv = floe_shape_param_values(c);
        CHECK(floe_body_params(w, id, back, FLOE_SHAPE_MAX_PARAMS) == nv);
        for (int k = 0; k < nv; k++) CHECK_NEAR(back[k], p[k], 1e-15);
        CHECK(floe_body_params(w, id, back, nv - 1) == 0); /* no room */
        if (!c->size) CHECK(floe_radii(w)[id] == back[0]); /* a sphere's record is its radius */
    }
    /* the same bodies through the shape functions */
    CHECK(floe_add_capsule(w, &d, 0.06, 0.15) == bodies);
    CHECK(floe_masses(w)[bodies] == floe_masses(w)[FLOE_SHAPE_CAPSULE]);
    /* bad input: a clear error, never a body */
    CHECK(floe_add_body(w, &d, FLOE_SHAPE_COUNT, (double[]){1}) == -1);
    CHECK(strstr(floe_last_error(w), "floe_add_body") && strstr(floe_last_error(w), "shape"));
    CHECK(floe_add_body(w, &d, FLOE_SHAPE_WALL, (double[]){1.5, 0}) == -1);
    CHECK(strstr(floe_last_error(w), "axis") != NULL);
    CHECK(floe_add_body(w, &d, FLOE_SHAPE_ELLIPSOID, (double[]){1, -1, 1}) == -1);
    CHECK(strstr(floe_last_error(w), "semi-axis 1") != NULL);
    CHECK(floe_add_body(w, &d, FLOE_SHAPE_SPHERE, NULL) == -1);
    CHECK(floe_particle_count(w) == bodies + 1);
    floe_world_destroy(w);
    REPORT("floe_add_body: every shape from its parameters, floe_body_params gives them back\n");
}

int main(void) {
    test_table();
    test_mass();
    test_extents();
    test_pairs_by_hand();
    test_pairs_random();
    test_add_body();
    return check_failures ? 1 : 0;
}
