/* A group's phases in a scene: `groups[i].phases` (a list) or
 * `groups[i].load` (a load from time 0), read into floe_phase records that
 * floe_group_set_phases takes once the bodies exist (docs/scene-format.md,
 * docs/laboratory.md). The loader reads the syntax (the keys of the key
 * table "phases", numbers, vectors); the engine's floe_phase_from_keys
 * checks the values, as it does for the Python module's set_phases. */
#include "io/scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A phase's keys as the engine reads them (floe_phase_from_keys), with the
 * node of each for messages. */
#define MAX_KEYS 32
typedef struct keyset {
    floe_phase_key k[MAX_KEYS];
    sy_node *node[MAX_KEYS];
    char name[MAX_KEYS][40]; /* "start.<key>" */
    int n;
} keyset;

/* The keys of table t, for sy_check_keys; those `only` for a load if load. */
static int table_keys(const floe_key_table *t, const char **keys, int load) {
    int n = 0;
    for (int i = 0; i < t->n && n < MAX_KEYS; i++)
        if (!load || (t->keys[i].only && strstr(t->keys[i].only, "load"))) keys[n++] = t->keys[i].key;
    return n;
}

/* key (a static string) with value node v: its numbers (a list: a vector of
 * 3; else one), or for n_numbers 0 none (start) or the text (kind). */
static int add_key(scene_ctx *c, keyset *ks, const char *where, const char *key, sy_node *v, int text) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    if (ks->n == MAX_KEYS) return sy_error(d, v, "%s: more than %d keys", where, MAX_KEYS);
    floe_phase_key *e = &ks->k[ks->n];
    *e = (floe_phase_key){key, NULL, {0, 0, 0}, 0};
    scene_path(p, where, key);
    if (text) {
        if (sy_str(d, v, p, &e->text)) return -1;
    } else if (!strcmp(key, "start")) {
        e->n = 0;
    } else if (sy_is_seq(v)) {
        floe_vec3 x;
        if (sy_vec3(d, v, p, &x)) return -1;
        e->v[0] = x.x, e->v[1] = x.y, e->v[2] = x.z, e->n = 3;
    } else {
        if (sy_number(d, v, p, &e->v[0])) return -1;
        e->n = 1;
    }
    ks->node[ks->n++] = v;
    return 0;
}

/* `start: {time | step | force_above | force_drop | displacement: value, direction}`:
 * the keys of the table "phases.start", as "start.<key>". */
static int start_keys(scene_ctx *c, keyset *ks, sy_node *n, const char *where, const floe_key_table *t) {
    sy_doc *d = c->d;
    const char *keys[MAX_KEYS];
    char p[SCENE_PATH];
    scene_path(p, where, "start");
    if (sy_want_map(d, n, p) || sy_check_keys(d, n, p, keys, table_keys(t, keys, 0))) return -1;
    if (add_key(c, ks, where, "start", n, 0)) return -1;
    for (int i = 0; i < sy_map_size(n); i++) {
        if (ks->n == MAX_KEYS) return sy_error(d, n, "%s: more than %d keys", where, MAX_KEYS);
        char *full = ks->name[ks->n];
        snprintf(full, sizeof ks->name[0], "start.%s", (const char *)sy_map_key(d, n, i)->data.scalar.value);
        if (add_key(c, ks, where, full, sy_map_value(d, n, i), 0)) return -1;
    }
    return 0;
}

/* The phase from its keys, or the engine's message at the key's node (the
 * item's for the phase as a whole). */
static int read_phase(scene_ctx *c, const keyset *ks, sy_node *item, const char *where, int first, floe_phase *p) {
    char why[512];
    int bad;
    if (floe_phase_from_keys(ks->k, ks->n, first, where, p, why, sizeof why, &bad) == FLOE_OK) return 0;
    return sy_error(c->d, bad >= 0 ? ks->node[bad] : item, "%s", why);
}

/* A phase entry: its keys, those of the table "phases" (kind: a name;
 * start: a mapping; the others: numbers or vectors). */
static int parse_phase(scene_ctx *c, sy_node *item, const char *where, int first, floe_phase *p) {
    sy_doc *d = c->d;
    const floe_key_table *t = floe_key_table_find("phases");
    const char *keys[MAX_KEYS];
    if (sy_want_map(d, item, where) || sy_check_keys(d, item, where, keys, table_keys(t, keys, 0))) return -1;
    keyset ks;
    ks.n = 0;
    for (int i = 0; i < sy_map_size(item); i++) {
        const floe_key *k = &t->keys[floe_key_index(t, (const char *)sy_map_key(d, item, i)->data.scalar.value)];
        sy_node *v = sy_map_value(d, item, i);
        int rc = k->kind == FLOE_KEY_MAP ? start_keys(c, &ks, v, where, k->sub)
                                         : add_key(c, &ks, where, k->key, v, k->kind == FLOE_KEY_ENUM);
        if (rc) return -1;
    }
    return read_phase(c, &ks, item, where, first, p);
}

int scene_group_phases(scene_ctx *c, sy_node *item, const char *where, scene_motion *m) {
    sy_doc *d = c->d;
    sy_node *pn = sy_get(d, item, "phases"), *ln = sy_get(d, item, "load");
    char p[SCENE_PATH];
    if (pn && ln)
        return sy_error(d, ln, "%s.load: give the load as a phase of 'phases' ({kind: load, ...}), not both", where);
    if (ln) { /* a load from time 0: one load phase */
        scene_path(p, where, "load");
        const char *keys[MAX_KEYS]; /* a load phase's keys */
        int nk = table_keys(floe_key_table_find("phases"), keys, 1);
        if (sy_want_map(d, ln, p) || sy_check_keys(d, ln, p, keys, nk)) return -1;
        keyset ks;
        ks.n = 1;
        ks.k[0] = (floe_phase_key){"kind", "load", {0, 0, 0}, 0};
        ks.node[0] = ln;
        for (int i = 0; i < sy_map_size(ln); i++) {
            const char *k = (const char *)sy_map_key(d, ln, i)->data.scalar.value;
            for (int j = 0; j < nk; j++)
                if (!strcmp(k, keys[j]) && add_key(c, &ks, p, keys[j], sy_map_value(d, ln, i), 0)) return -1;
        }
        if (read_phase(c, &ks, ln, p, 1, &m->phases[0])) return -1;
        m->nphases = 1;
        return 0;
    }
    if (!pn) return 0;
    scene_path(p, where, "phases");
    if (sy_want_seq(d, pn, p)) return -1;
    int n = sy_seq_size(pn);
    if (n == 0) return sy_error(d, pn, "%s: the list is empty", p);
    if (n > FLOE_MAX_PHASES) return sy_error(d, pn, "%s: %d phases, at most %d", p, n, FLOE_MAX_PHASES);
    for (int j = 0; j < n; j++) {
        char q[SCENE_PATH];
        if (parse_phase(c, sy_seq_item(d, pn, j), scene_index(q, p, j), j == 0, &m->phases[j])) return -1;
    }
    m->nphases = n;
    return 0;
}
