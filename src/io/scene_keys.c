/* The one reader of a scene section through its key table (floe.h, "key
 * tables"): a mapping's keys are checked against the table (unknown keys
 * with a suggestion), each key given is read as its kind says and range-
 * checked where it stands (file:line:col, key, range, unit), stored at its
 * offset in the def, and the table's rules between keys run last, their
 * message placed at the key at fault. The sections' readers (scene.c's
 * world, scene_supply.c, scene_dense.c) call it and do only what the table
 * cannot: keys of their own (FLOE_KEY_OWN) and adding the def to the world. */
#include "io/scene_keys.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(def, off) ((char *)(def) + (off))

/* The required key `key` of map m in *out, or an error naming it. */
static int required(scene_ctx *c, sy_node *m, const char *where, const char *key, sy_node **out) {
    *out = sy_get(c->d, m, key);
    return *out ? 0 : sy_missing(c->d, m, where, key);
}

/* A size distribution `{dist: ...}` (the radius of a random packing, a size
 * of an inlet): reads the keys of the
 * kind named by `dist` (each number range-checked where it stands), then
 * floe_size_dist_check for what involves several keys (min <= max,
 * passing non-decreasing ...). `where` is the path of `radius`. */
int scene_size_dist(scene_ctx *c, sy_node *n, const char *where, floe_size_dist *dist) {
    static const char *const kinds[] = {"uniform", "normal", "lognormal", "sieve"};
    static const char *const keys[4][6] = {{"dist", "min", "max"},
                                           {"dist", "mean", "std", "min", "max"},
                                           {"dist", "median", "mean", "sigma", "min", "max"},
                                           {"dist", "sizes", "passing", "by"}};
    static const int nkeys[4] = {3, 5, 6, 4};
    sy_doc *d = c->d;
    char p[SCENE_PATH], q[SCENE_PATH];
    sy_node *k;
    const char *s;
    memset(dist, 0, sizeof *dist);
    if (required(c, n, where, "dist", &k) || sy_str(d, k, scene_path(p, where, "dist"), &s)) return -1;
    int kind = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, kinds[i])) kind = i;
    if (kind < 0) {
        const char *sug = sy_suggest(s, kinds, 4);
        if (sug) return sy_error(d, k, "%s: unknown distribution '%s'; did you mean '%s'?", p, s, sug);
        return sy_error(d, k, "%s: unknown distribution '%s'; allowed: uniform, normal, lognormal, sieve", p, s);
    }
    dist->kind = (floe_size_dist_kind)kind;
    if (sy_check_keys(d, n, where, keys[kind], nkeys[kind])) return -1;
    if (kind == FLOE_DIST_SIEVE) {
        sy_node *sz, *ps, *by;
        if (required(c, n, where, "sizes", &sz) || required(c, n, where, "passing", &ps) ||
            required(c, n, where, "by", &by))
            return -1;
        if (sy_want_seq(d, sz, scene_path(p, where, "sizes")) || sy_want_seq(d, ps, scene_path(q, where, "passing")))
            return -1;
        int m = sy_seq_size(sz);
        if (m < 2 || m > FLOE_SIEVE_MAX_POINTS)
            return sy_error(d, sz, "%s: %d sizes; a sieve table needs 2 to %d", p, m, FLOE_SIEVE_MAX_POINTS);
        if (sy_seq_size(ps) != m)
            return sy_error(d, ps, "%s: %d values for %d sizes; give one fraction passing per size", q, sy_seq_size(ps),
                            m);
        dist->npts = m;
        for (int i = 0; i < m; i++) {
            char r[SCENE_PATH];
            if (sy_number_in(d, sy_seq_item(d, sz, i), scene_index(r, p, i), &dist->sizes[i], 0, SY_MAX_COORD, 1, 0) ||
                sy_number_in(d, sy_seq_item(d, ps, i), scene_index(r, q, i), &dist->passing[i], 0, 1, 0, 0))
                return -1;
        }
        if (sy_str(d, by, scene_path(p, where, "by"), &s)) return -1;
        if (strcmp(s, "mass") && strcmp(s, "number"))
            return sy_error(d, by, "%s: '%s' is neither 'mass' nor 'number'", p, s);
        dist->by_mass = !strcmp(s, "mass");
        dist->min = dist->sizes[0];
        dist->max = dist->sizes[m - 1];
    } else {
        if (required(c, n, where, "min", &k) ||
            sy_number_in(d, k, scene_path(p, where, "min"), &dist->min, 0, SY_MAX_COORD, 1, 0) ||
            required(c, n, where, "max", &k) ||
            sy_number_in(d, k, scene_path(p, where, "max"), &dist->max, 0, SY_MAX_COORD, 1, 0))
            return -1;
        if (kind == FLOE_DIST_NORMAL &&
            (required(c, n, where, "mean", &k) ||
             sy_number_in(d, k, scene_path(p, where, "mean"), &dist->mu, 0, SY_MAX_COORD, 1, 0) ||
             required(c, n, where, "std", &k) ||
             sy_number_in(d, k, scene_path(p, where, "std"), &dist->sigma, 0, SY_MAX_COORD, 1, 0)))
            return -1;
        if (kind == FLOE_DIST_LOGNORMAL) {
            sy_node *med = sy_get(d, n, "median"), *mean = sy_get(d, n, "mean");
            if (!med == !mean)
                return sy_error(d, n, "%s: give exactly one of median and mean (of the untruncated log-normal)", where);
            if (required(c, n, where, "sigma", &k) ||
                sy_number_in(d, k, scene_path(p, where, "sigma"), &dist->sigma, 0, 10, 1, 0))
                return -1;
            double v;
            if (sy_number_in(d, med ? med : mean, scene_path(p, where, med ? "median" : "mean"), &v, 0, SY_MAX_COORD, 1,
                             0))
                return -1;
            /* mean of a log-normal: exp(mu + sigma^2 / 2) */
            dist->mu = med ? log(v) : log(v) - 0.5 * dist->sigma * dist->sigma;
        }
    }
    char msg[512];
    if (floe_size_dist_check(dist, msg, sizeof msg)) return sy_error(d, n, "%s: %s", where, msg);
    return 0;
}

/* A size: a number (fixed), a range [min, max] (uniform) or a distribution
 * {dist: ...} (scene_size_dist). */
static int size_of(scene_ctx *c, sy_node *n, const char *where, const floe_key *k, floe_size_dist *out) {
    sy_doc *d = c->d;
    memset(out, 0, sizeof *out);
    out->kind = FLOE_DIST_UNIFORM;
    if (sy_is_map(n)) return scene_size_dist(c, n, where, out);
    if (sy_is_seq(n)) {
        char p[SCENE_PATH];
        if (sy_seq_size(n) != 2)
            return sy_error(d, n, "%s: expected a size, a range [min, max] or a distribution {dist: ...}", where);
        if (sy_number_in(d, sy_seq_item(d, n, 0), scene_index(p, where, 0), &out->min, k->min, k->max, k->min_open,
                         k->max_open) ||
            sy_number_in(d, sy_seq_item(d, n, 1), scene_index(p, where, 1), &out->max, k->min, k->max, k->min_open,
                         k->max_open))
            return -1;
        if (out->min > out->max) return sy_error(d, n, "%s: min %g is above max %g", where, out->min, out->max);
        return 0;
    }
    if (sy_number_in(d, n, where, &out->min, k->min, k->max, k->min_open, k->max_open)) return -1;
    out->max = out->min;
    return 0;
}

/* Two corners; strict (min_open): lo < hi on every axis, else lo <= hi. */
static int box_of(scene_ctx *c, sy_node *n, const char *where, int strict, floe_vec3 *lo, floe_vec3 *hi) {
    sy_doc *d = c->d;
    char q[SCENE_PATH];
    if (!sy_is_seq(n) || sy_seq_size(n) != 2)
        return sy_error(d, n, "%s: expected two corners [[xmin, ymin, zmin], [xmax, ymax, zmax]]", where);
    if (sy_point(d, sy_seq_item(d, n, 0), scene_index(q, where, 0), lo) ||
        sy_point(d, sy_seq_item(d, n, 1), scene_index(q, where, 1), hi))
        return -1;
    if (strict && !(lo->x < hi->x && lo->y < hi->y && lo->z < hi->z))
        return sy_error(d, n, "%s: the first corner must be below the second on every axis", where);
    if (!(lo->x <= hi->x && lo->y <= hi->y && lo->z <= hi->z))
        return sy_error(d, n, "%s: the first corner must not be above the second on any axis", where);
    return 0;
}

static int triangles(scene_ctx *c, sy_node *n, const char *p, const floe_key *k, void *def) {
    sy_doc *d = c->d;
    char q[SCENE_PATH];
    int max = (int)k->max;
    if (!sy_is_seq(n) || sy_seq_size(n) < (int)k->min || sy_seq_size(n) > max)
        return sy_error(d, n, "%s: expected a list of %d to %d triangles [[x, y, z], [x, y, z], [x, y, z]]", p,
                        (int)k->min, max);
    int nt = sy_seq_size(n);
    floe_vec3(*tri)[3] = (floe_vec3(*)[3])AT(def, k->offset);
    for (int t = 0; t < nt; t++) {
        sy_node *tn = sy_seq_item(d, n, t);
        scene_index(q, p, t);
        if (!sy_is_seq(tn) || sy_seq_size(tn) != 3)
            return sy_error(d, tn, "%s: expected three vertices [[x, y, z], [x, y, z], [x, y, z]]", q);
        for (int j = 0; j < 3; j++) {
            char v[SCENE_PATH];
            if (sy_point(d, sy_seq_item(d, tn, j), scene_index(v, q, j), &tri[t][j])) return -1;
        }
    }
    *(int *)AT(def, k->offset2) = nt;
    return 0;
}

static int number(scene_ctx *c, sy_node *n, const char *p, const floe_key *k, double *out) {
    sy_doc *d = c->d;
    const char *text = n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
    if (text && floe_key_word(k, text, out)) return 0;
    double v;
    if (k->words && text && sy_parse_number(text, &v)) {
        char w[128];
        floe_key_words_text(k, w, sizeof w);
        return sy_error(d, n, "%s: expected a number (%s) or %s, got '%s'", p, k->unit, w, text);
    }
    if (sy_number(d, n, p, &v)) return -1;
    char msg[512];
    if (floe_key_check_number(k, v, text ? text : "?", p, msg, sizeof msg)) return sy_error(d, n, "%s", msg);
    *out = v;
    return 0;
}

/* Key k's value at node n into def. */
static int read_key(scene_ctx *c, sy_node *map, sy_node *n, const char *where, const floe_key *k, void *def,
                    const char **name) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    scene_path(p, where, k->key);
    void *at = k->offset >= 0 ? AT(def, k->offset) : NULL;
    switch (k->kind) {
        case FLOE_KEY_NUMBER:
            return number(c, n, p, k, at);
        case FLOE_KEY_INT:
        case FLOE_KEY_INT64: {
            int64_t iv; /* read exactly (seeds beyond 2^53), checked as every front end checks it */
            char msg[512];
            if (sy_int(d, n, p, &iv, INT64_MIN, INT64_MAX)) return -1;
            if (floe_key_check_number(k, (double)iv, (const char *)n->data.scalar.value, p, msg, sizeof msg))
                return sy_error(d, n, "%s", msg);
            if (k->kind == FLOE_KEY_INT) *(int *)at = (int)iv;
            else memcpy(at, &iv, sizeof iv);
            return 0;
        }
        case FLOE_KEY_BOOL:
            return sy_bool(d, n, p, at);
        case FLOE_KEY_VEC3: {
            floe_vec3 v;
            if (sy_vec3(d, n, p, &v)) return -1;
            const double x[3] = {v.x, v.y, v.z};
            for (int i = 0; i < 3; i++) {
                char w[SCENE_PATH + 24]; /* room for "[<int>]" after any path */
                snprintf(w, sizeof w, "%s[%d]", p, i);
                if (sy_range(d, sy_seq_item(d, n, i), w, x[i], k->min, k->max, k->min_open, k->max_open)) return -1;
            }
            *(floe_vec3 *)at = v;
            return 0;
        }
        case FLOE_KEY_ENUM: {
            const char *s;
            double v;
            if (sy_str(d, n, p, &s)) return -1;
            if (!floe_key_word(k, s, &v)) {
                char w[256];
                floe_key_range_text(k, w, sizeof w);
                return sy_error(d, n, "%s: unknown %s '%s'; allowed: %s", p, k->key, s, w);
            }
            *(int *)at = (int)v;
            return 0;
        }
        case FLOE_KEY_NAME:
            if (sy_str(d, n, p, name)) return -1;
            if (!**name || strlen(*name) >= 64) return sy_error(d, n, "%s: a name of 1 to 63 characters", p);
            return 0;
        case FLOE_KEY_BOX:
            return box_of(c, n, p, k->min_open, (floe_vec3 *)at, (floe_vec3 *)at + 1);
        case FLOE_KEY_MAP: {
            unsigned char sub[64];
            return sy_want_map(d, n, p) || scene_keys(c, n, p, k->sub, def, sub, NULL) ? -1 : 0;
        }
        case FLOE_KEY_TRIANGLES:
            return triangles(c, n, p, k, def);
        case FLOE_KEY_SIZE:
            return size_of(c, n, p, k, at);
        case FLOE_KEY_SIZES3: {
            char q[SCENE_PATH];
            if (!sy_is_seq(n) || sy_seq_size(n) != 3)
                return sy_error(d, n, "%s: expected 3 semi-axes [a, b, c], each a size, a range or a distribution", p);
            for (int i = 0; i < 3; i++)
                if (size_of(c, sy_seq_item(d, n, i), scene_index(q, p, i), k, (floe_size_dist *)at + i)) return -1;
            return 0;
        }
        case FLOE_KEY_MATERIAL:
            return scene_material(c, map, where, at);
        case FLOE_KEY_GROUPS:
            return scene_groups(c, n, p, at);
        case FLOE_KEY_GROUP: {
            uint32_t mask = 0;
            if (sy_is_seq(n)) return sy_error(d, n, "%s: one group name", p);
            if (scene_groups(c, n, p, &mask)) return -1;
            *(int *)at = __builtin_ctz(mask);
            return 0;
        }
        case FLOE_KEY_SINK: {
            const char *s;
            if (sy_str(d, n, p, &s)) return -1;
            *(int *)at = floe_find_sink(c->w, s);
            if (*(int *)at < 0) return sy_error(d, n, "%s: no sink named '%s' (sinks: the `sinks` section)", p, s);
            return 0;
        }
        default:
            return 0; /* FLOE_KEY_OWN: the caller's */
    }
}

int scene_keys(scene_ctx *c, sy_node *map, const char *where, const floe_key_table *t, void *def, unsigned char *given,
               const char **name) {
    sy_doc *d = c->d;
    enum { MAXK = 64 };
    const char *keys[MAXK];
    int n = t->n < MAXK ? t->n : MAXK;
    for (int i = 0; i < n; i++) keys[i] = t->keys[i].key;
    if (sy_want_map(d, map, where) || sy_check_keys(d, map, where, keys, n)) return -1;
    for (int i = 0; i < n; i++) given[i] = sy_get(d, map, keys[i]) != NULL;
    /* keys that exclude each other (one region, one rate) */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (given[i] && given[j] && t->keys[i].choice && t->keys[j].choice &&
                !strcmp(t->keys[i].choice, t->keys[j].choice))
                return sy_error(d, sy_get(d, map, keys[i]), "%s: give one %s: %s or %s, not both", where,
                                t->keys[i].choice, keys[j], keys[i]);
    for (int i = 0; i < n; i++)
        if (!given[i] && !strcmp(t->keys[i].def, "required")) return sy_missing(d, map, where, keys[i]);
    for (int i = 0; i < n; i++) {
        const floe_key *k = &t->keys[i];
        if (!given[i] && k->kind != FLOE_KEY_MATERIAL) continue;
        if (read_key(c, map, sy_get(d, map, keys[i]), where, k, def, name)) return -1;
        if (given[i] && k->set_offset >= 0) *(int *)AT(def, k->set_offset) = k->set_value;
    }
    if (!t->check) return 0;
    char why[512];
    int bad = -1;
    if (t->check(def, given, where, why, sizeof why, &bad) == FLOE_OK) return 0;
    return sy_error(d, bad >= 0 ? sy_get(d, map, keys[bad]) : map, "%s", why);
}

/* ---- key lists (a group's phases) ------------------------------------------------------ */

static int takes(const floe_key *k, const char *only) {
    if (!only) return 1;
    if (!k->only) return 0;
    size_t n = strlen(only);
    for (const char *p = k->only; (p = strstr(p, only)); p += n)
        if ((p == k->only || p[-1] == ',') && (p[n] == ',' || !p[n])) return 1;
    return 0;
}

int scene_key_list(scene_ctx *c, sy_node *map, const char *where, const floe_key_table *t, const char *prefix,
                   const char *only, scene_keylist *ks) {
    sy_doc *d = c->d;
    const char *keys[SCENE_MAX_LIST];
    char mp[SCENE_PATH]; /* the mapping's path: where, or where.<key> for a MAP key's */
    int nk = 0;
    for (int i = 0; i < t->n && nk < SCENE_MAX_LIST; i++)
        if (takes(&t->keys[i], only)) keys[nk++] = t->keys[i].key;
    snprintf(mp, sizeof mp, "%s%s%.*s", where, *prefix ? "." : "", *prefix ? (int)strlen(prefix) - 1 : 0, prefix);
    if (sy_want_map(d, map, mp) || sy_check_keys(d, map, mp, keys, nk)) return -1;
    for (int i = 0; i < sy_map_size(map); i++) {
        const char *key = (const char *)sy_map_key(d, map, i)->data.scalar.value;
        const floe_key *k = &t->keys[floe_key_index(t, key)];
        sy_node *v = sy_map_value(d, map, i);
        if (ks->n == SCENE_MAX_LIST) return sy_error(d, v, "%s: more than %d keys", where, SCENE_MAX_LIST);
        char *name = ks->name[ks->n], p[SCENE_PATH];
        snprintf(name, sizeof ks->name[0], "%s%s", prefix, key);
        floe_phase_key *e = &ks->k[ks->n];
        *e = (floe_phase_key){name, NULL, {0, 0, 0}, 0};
        ks->node[ks->n++] = v;
        scene_path(p, where, name);
        if (k->kind == FLOE_KEY_MAP) {
            char sub[48];
            snprintf(sub, sizeof sub, "%s%s.", prefix, key);
            if (scene_key_list(c, v, where, k->sub, sub, NULL, ks)) return -1;
        } else if (k->kind == FLOE_KEY_ENUM) {
            if (sy_str(d, v, p, &e->text)) return -1;
        } else if (sy_is_seq(v)) {
            floe_vec3 x;
            if (sy_vec3(d, v, p, &x)) return -1;
            e->v[0] = x.x, e->v[1] = x.y, e->v[2] = x.z, e->n = 3;
        } else {
            if (sy_number(d, v, p, &e->v[0])) return -1;
            e->n = 1;
        }
    }
    return 0;
}
