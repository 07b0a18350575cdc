/* The key tables (floe.h, "key tables"; docs/decisions.md#one-key-table-per-def-read-by-both-front-ends):
 * 1. every table is well formed: keys unique, each member inside its def
 *    (offset + size <= sizeof the def), ranges with min <= max, a unit, a
 *    default and a doc line, ENUM words that parse, sub-tables reachable;
 * 2. the tables agree with the engine: for every number, integer and
 *    vector key of the world, an inlet and a sink, the values at the
 *    table's bounds (closed) or just inside them (open) are accepted by
 *    floe_world_create / floe_add_inlet / floe_add_sink, so no table lets
 *    through what the engine refuses;
 * 3. the default a table states for a key is the default def's member;
 * 4. the scene loader reads a section through the table: an empty world
 *    section gives floe_default_world_def, every key set to a value of its
 *    range lands in its member, a value out of range is refused at the key
 *    with file:line:col, the range and the unit. */
#include "io/scene.h" /* links libfloe-io */

#include "check.h"

#include <floe/floe.h>
#include <floe/floe_io.h>

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static char tmpdir[256];

static size_t member_size(const floe_key *k) {
    switch (k->kind) {
        case FLOE_KEY_NUMBER:
            return sizeof(double);
        case FLOE_KEY_INT:
        case FLOE_KEY_BOOL:
        case FLOE_KEY_ENUM:
        case FLOE_KEY_MATERIAL:
        case FLOE_KEY_GROUP:
        case FLOE_KEY_SINK:
            return sizeof(int);
        case FLOE_KEY_INT64:
            return sizeof(int64_t);
        case FLOE_KEY_GROUPS:
            return sizeof(uint32_t);
        case FLOE_KEY_VEC3:
            return sizeof(floe_vec3);
        case FLOE_KEY_BOX:
            return 2 * sizeof(floe_vec3);
        case FLOE_KEY_SIZE:
            return sizeof(floe_size_dist);
        case FLOE_KEY_SIZES3:
            return 3 * sizeof(floe_size_dist);
        case FLOE_KEY_TRIANGLES:
            return sizeof(floe_vec3[3]) * (size_t)k->max;
        default:
            return 0;
    }
}

static size_t def_size(const char *name) {
    if (!strncmp(name, "world", 5)) return sizeof(floe_world_def);
    if (!strncmp(name, "inlets", 6)) return sizeof(floe_inlet_def);
    if (!strncmp(name, "sinks", 5)) return sizeof(floe_sink_def);
    if (!strncmp(name, "phases", 6)) return sizeof(floe_phase);
    if (!strncmp(name, "dense", 5)) return sizeof(floe_dense_def);
    return 0;
}

static void well_formed(const floe_key_table *t) {
    size_t size = def_size(t->name);
    CHECK(size > 0);
    CHECK(t->n > 0);
    for (int i = 0; i < t->n; i++) {
        const floe_key *k = &t->keys[i];
        CHECK(k->key && *k->key && k->unit && k->def && k->doc && *k->doc);
        CHECK(floe_key_index(t, k->key) == i); /* unique */
        if (k->offset >= 0) CHECK((size_t)k->offset + member_size(k) <= size);
        if (k->kind == FLOE_KEY_NAME || k->kind == FLOE_KEY_OWN) CHECK(k->offset == -1);
        if (k->kind == FLOE_KEY_NUMBER || k->kind == FLOE_KEY_INT || k->kind == FLOE_KEY_INT64 ||
            k->kind == FLOE_KEY_VEC3)
            CHECK(k->min <= k->max);
        if (k->set_offset >= 0) CHECK((size_t)k->set_offset + sizeof(int) <= size);
        if (k->kind == FLOE_KEY_ENUM) CHECK(k->words && strchr(k->words, '='));
        if (k->kind == FLOE_KEY_MAP) {
            CHECK(k->sub != NULL);
            if (k->sub) {
                CHECK(!strncmp(k->sub->name, t->name, strlen(t->name)));
                well_formed(k->sub);
            }
        }
        if (check_failures) fprintf(stderr, "  (table %s, key %s)\n", t->name, k->key);
    }
}

/* The table's default (its text: a number, true/false, a word, [x, y, z])
 * is the def's default member, for every key whose default is a value. */
static void defaults_agree(const floe_key_table *t, const void *def) {
    for (int i = 0; i < t->n; i++) {
        const floe_key *k = &t->keys[i];
        const char *at = (const char *)def + k->offset;
        double v, got;
        char *end;
        if (k->offset < 0) continue;
        if (k->kind == FLOE_KEY_VEC3 && k->def[0] == '[') {
            floe_vec3 x = *(const floe_vec3 *)at;
            double a, b, c;
            CHECK(sscanf(k->def, "[%lf, %lf, %lf]", &a, &b, &c) == 3 && x.x == a && x.y == b && x.z == c);
            continue;
        }
        if (!strcmp(k->def, "true") || !strcmp(k->def, "false")) v = !strcmp(k->def, "true");
        else if (!strcmp(k->def, ".inf")) v = INFINITY;
        else if (floe_key_word(k, k->def, &v)) {
        } else {
            v = strtod(k->def, &end);
            if (end == k->def || *end) continue; /* "required", "none", "the only one" */
        }
        switch (k->kind) {
            case FLOE_KEY_NUMBER:
                got = *(const double *)at;
                break;
            case FLOE_KEY_INT64:
                got = (double)*(const int64_t *)at;
                break;
            case FLOE_KEY_INT:
            case FLOE_KEY_BOOL:
            case FLOE_KEY_ENUM:
                got = *(const int *)at;
                break;
            default:
                continue;
        }
        if (got != v) fprintf(stderr, "%s.%s: the table's default %s, the def's %g\n", t->name, k->key, k->def, got);
        CHECK(got == v);
    }
}

/* Each value of key k that its range allows at a bound: {lo, hi} (inside by
 * a little where a bound is open, 1e6 for an infinite one). */
static int bounds(const floe_key *k, double v[2]) {
    double lo = k->min, hi = k->max;
    if (isinf(lo)) lo = -1e6;
    else if (k->min_open) lo = lo + (fabs(lo) > 0 ? fabs(lo) * 1e-9 : 1e-9);
    if (isinf(hi)) hi = 1e6;
    else if (k->max_open) hi = hi - (fabs(hi) > 0 ? fabs(hi) * 1e-9 : 1e-9);
    if (k->kind == FLOE_KEY_INT || k->kind == FLOE_KEY_INT64) lo = ceil(lo), hi = floor(hi);
    v[0] = lo;
    v[1] = hi;
    return k->kind == FLOE_KEY_NUMBER || k->kind == FLOE_KEY_INT || k->kind == FLOE_KEY_VEC3 ||
           (k->kind == FLOE_KEY_INT64 && hi < 9e18);
}

static void put(void *def, const floe_key *k, double x) {
    char *at = (char *)def + k->offset;
    if (k->kind == FLOE_KEY_NUMBER) *(double *)at = x;
    else if (k->kind == FLOE_KEY_INT) *(int *)at = (int)x;
    else if (k->kind == FLOE_KEY_INT64) *(int64_t *)at = (int64_t)x;
    else *(floe_vec3 *)at = (floe_vec3){x, x, x};
}

/* The engine takes every value at the bounds of the table's ranges. */
static void engine_agrees(void) {
    const floe_key_table *t = floe_key_table_find("world");
    for (int i = 0; i < t->n; i++) {
        const floe_key *k = &t->keys[i];
        double v[2];
        if (k->offset < 0 || !bounds(k, v)) continue;
        for (int b = 0; b < 2; b++) {
            floe_world_def d = floe_default_world_def();
            put(&d, k, v[b]);
            floe_world *w = floe_world_create(&d);
            if (!w) fprintf(stderr, "world.%s = %g: %s\n", k->key, v[b], floe_create_error());
            CHECK(w != NULL);
            floe_world_destroy(w);
        }
    }
    floe_world *w = floe_world_create(NULL);
    floe_add_material(w, "m", "linear");
    floe_add_sink(w, "s0", &(floe_sink_def){0}); /* refused (no cookie): nothing added */
    floe_sink_def sd = floe_default_sink_def();
    sd.hi = (floe_vec3){1, 1, 1};
    CHECK(floe_add_sink(w, "s", &sd) == 0);
    static const char *const names[] = {"inlets", "sinks", "inlets.cylinder", "sinks.plane"};
    int n = 0;
    for (int ti = 0; ti < 4; ti++) {
        t = floe_key_table_find(names[ti]);
        for (int i = 0; i < t->n; i++) {
            const floe_key *k = &t->keys[i];
            double v[2];
            if (k->offset < 0 || !bounds(k, v)) continue;
            if (!strcmp(k->key, "end")) continue; /* the window's order is the table's check */
            for (int b = 0; b < 2; b++) {
                floe_inlet_def in = floe_default_inlet_def();
                floe_sink_def sk = floe_default_sink_def();
                in.hi = sk.hi = (floe_vec3){1, 1, 1};
                in.axis = sk.normal = (floe_vec3){0, 0, 1};
                in.radius = 1;
                if (ti == 2) in.region = FLOE_REGION_CYLINDER;
                if (ti == 3) sk.region = FLOE_REGION_HALFSPACE;
                put(ti % 2 ? (void *)&sk : (void *)&in, k, v[b]);
                if (!strcmp(k->key, "axis") || !strcmp(k->key, "normal"))
                    put(ti % 2 ? (void *)&sk : (void *)&in, k, v[b] == 0 ? 1 : v[b]); /* a direction */
                char name[32];
                snprintf(name, sizeof name, "e%d", n++);
                int id = ti % 2 ? floe_add_sink(w, name, &sk) : floe_add_inlet(w, name, &in);
                if (id < 0) fprintf(stderr, "%s.%s = %g: %s\n", names[ti], k->key, v[b], floe_last_error(w));
                CHECK(id >= 0);
                if (n > 60) { /* at most FLOE_MAX_INLETS / FLOE_MAX_SINKS */
                    floe_world_destroy(w);
                    w = floe_world_create(NULL);
                    floe_add_material(w, "m", "linear");
                    floe_add_sink(w, "s", &sd);
                    n = 0;
                }
            }
        }
    }
    floe_world_destroy(w);
}

static int load(const char *yaml, floe_scene *s, char *err, size_t len) {
    char path[512];
    check_write_tmp(tmpdir, "keys.yaml", yaml, path, sizeof path);
    return floe_scene_load(path, s, err, len);
}

/* The loader fills the def through the table: defaults, every key, a range error. */
static void scene_reads(void) {
    floe_scene s;
    char err[1024];
    if (load("world: {dt: 1e-5}\nrun: {steps: 1}\n", &s, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
        return;
    }
    floe_world_def want = floe_default_world_def();
    floe_vec3 g0 = floe_gravity(s.world);
    CHECK(g0.x == want.gravity.x && g0.y == want.gravity.y && g0.z == want.gravity.z);
    CHECK(floe_dt(s.world) == 1e-5);
    floe_scene_free(&s);
    if (load("world: {gravity: [1, 2, 3], dt: 2e-5, damping: 0.25, threads: 1, dimension: 2}\nrun: {steps: 1}\n", &s,
             err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
        return;
    }
    floe_vec3 g = floe_gravity(s.world);
    CHECK(g.x == 1 && g.y == 2 && g.z == 3);
    CHECK(floe_dt(s.world) == 2e-5 && !floe_dt_is_auto(s.world));
    CHECK(floe_thread_count(s.world) == 1);
    floe_scene_free(&s);
    CHECK(load("world: {damping: 1}\nrun: {steps: 1}\n", &s, err, sizeof err) != 0);
    CHECK(strstr(err, "keys.yaml:1:18: world.damping = 1 is out of range [0, 1)") != NULL);
    CHECK(load("world: {dt: -1}\nrun: {steps: 1}\n", &s, err, sizeof err) != 0);
    CHECK(strstr(err, "keys.yaml:1:13: world.dt = -1 s is out of range (0, inf)") != NULL);
    CHECK(load("world: {dyn_dt_period: 0}\nrun: {steps: 1}\n", &s, err, sizeof err) != 0);
    CHECK(strstr(err, "world.dyn_dt_period = 0 steps is out of range [1, 1e+09]") != NULL);
    CHECK(load("world: {dimension: 4}\nrun: {steps: 1}\n", &s, err, sizeof err) != 0);
    CHECK(strstr(err, "world.dimension = 4 must be 2 or 3") != NULL);
    CHECK(load("world: {dampin: 0.1}\nrun: {steps: 1}\n", &s, err, sizeof err) != 0);
    CHECK(strstr(err, "unknown key 'dampin' in world; did you mean 'damping'?") != NULL);
    REPORT("scene world section read through the table: defaults, keys, range errors with unit\n");
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/floe_test_keys_XXXXXX");
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp) snprintf(tmpdir, sizeof tmpdir, "%s/floe_test_keys_XXXXXX", tmp);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    int tables = 0;
    for (int i = 0; i < floe_key_table_count(); i++) {
        const floe_key_table *t = floe_key_table_at(i);
        CHECK(floe_key_table_find(t->name) == t);
        if (!strchr(t->name, '.')) well_formed(t), tables++;
    }
    well_formed(floe_dense_key_table());
    CHECK(floe_key_table_find("world") && floe_key_table_find("inlets") && floe_key_table_find("sinks") &&
          floe_key_table_find("phases") && !floe_key_table_find("nope"));
    REPORT("%d engine tables and the dense table well formed\n", tables);
    double v = -1;
    const floe_key_table *w = floe_key_table_find("world");
    CHECK(floe_key_word(&w->keys[floe_key_index(w, "dt")], "auto", &v) && v == 0);
    CHECK(!floe_key_word(&w->keys[floe_key_index(w, "dt")], "aut", &v));
    char msg[256];
    const floe_key_table *in = floe_key_table_find("inlets");
    CHECK(floe_key_check_number(&in->keys[floe_key_index(in, "rate")], -1, "-1", "rate", msg, sizeof msg) == 1);
    CHECK(!strcmp(msg, "rate = -1 bodies/s is out of range (0, 1e+12]"));
    CHECK(floe_key_check_number(&in->keys[floe_key_index(in, "rate")], 1e12, "1e12", "rate", msg, sizeof msg) == 0);
    floe_world_def wd = floe_default_world_def();
    floe_inlet_def id = floe_default_inlet_def();
    floe_sink_def sd = floe_default_sink_def();
    floe_dense_def dd = floe_default_dense_def();
    floe_phase ph = floe_default_phase();
    defaults_agree(floe_key_table_find("world"), &wd);
    defaults_agree(floe_key_table_find("inlets"), &id);
    defaults_agree(floe_key_table_find("sinks"), &sd);
    defaults_agree(floe_dense_key_table(), &dd);
    defaults_agree(floe_key_table_find("phases"), &ph);
    REPORT("the tables' defaults are the defs' defaults\n");
    engine_agrees();
    REPORT("the engine accepts every value at the bounds of the world, inlet and sink tables\n");
    scene_reads();
    char p[512];
    snprintf(p, sizeof p, "%s/keys.yaml", tmpdir);
    unlink(p);
    rmdir(tmpdir);
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures ? 1 : 0;
}
