/* A group's phases in a scene: `groups[i].phases` (a list) or
 * `groups[i].load` (a load from time 0), read into floe_phase records that
 * floe_group_set_phases takes once the bodies exist (docs/scene-format.md,
 * docs/laboratory.md). The loader reads the syntax (the keys of the key
 * table "phases", numbers, vectors); the engine's floe_phase_from_keys
 * checks the values, as it does for the Python module's set_phases. */
#include "io/scene_phases.h"
#include "io/scene_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The phase from its keys, or the engine's message at the key's node (the
 * item's for the phase as a whole). */
static int read_phase(scene_ctx *c, const scene_keylist *ks, sy_node *item, const char *where, int first,
                      floe_phase *p) {
    char why[512];
    int bad;
    if (floe_phase_from_keys(ks->k, ks->n, first, where, p, why, sizeof why, &bad) == FLOE_OK) return 0;
    return sy_error(c->d, bad >= 0 ? ks->node[bad] : item, "%s", why);
}

/* A phase entry: the keys of the table "phases" (scene_key_list). */
static int parse_phase(scene_ctx *c, sy_node *item, const char *where, int first, floe_phase *p) {
    scene_keylist ks;
    ks.n = 0;
    if (scene_key_list(c, item, where, floe_key_table_find("phases"), "", NULL, &ks)) return -1;
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
        scene_keylist ks; /* kind: load, then the keys the table gives a load */
        ks.n = 1;
        ks.k[0] = (floe_phase_key){"kind", "load", {0, 0, 0}, 0};
        ks.node[0] = ln;
        if (scene_key_list(c, ln, p, floe_key_table_find("phases"), "", "load", &ks)) return -1;
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
