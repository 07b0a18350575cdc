/* The scene loader's reader of key tables (scene_keys.c): a section's
 * mapping read through its table (include/floe/floe.h, "key tables"), a
 * phase's keys as the engine reads them, and size distributions. */
#ifndef FLOE_IO_SCENE_KEYS_H
#define FLOE_IO_SCENE_KEYS_H

#include "io/scene_common.h"

/* The keys of table t in mapping `map` (path `where`) into def: unknown
 * keys refused, each key given read and range-checked where it stands, then
 * the table's rules; given[i] (t->n entries): key i was given; *name: the
 * NAME key's text (may be NULL without one). */
int scene_keys(scene_ctx *c, sy_node *map, const char *where, const floe_key_table *t, void *def, unsigned char *given,
               const char **name);

/* The keys of a mapping as the engine reads a group's phase
 * (floe_phase_key, floe_phase_from_keys), with the node of each for
 * messages: scene_key_list appends those of `map` (path `where`), checked
 * against table t (only: the keys t's `only` gives to that kind; NULL:
 * all); a MAP key gives itself (no numbers), then its mapping's keys as
 * "<key>.<subkey>"; an ENUM key its text; the others a number or 3. */
#define SCENE_MAX_LIST 64
typedef struct scene_keylist {
    floe_phase_key k[SCENE_MAX_LIST];
    sy_node *node[SCENE_MAX_LIST];
    char name[SCENE_MAX_LIST][48];
    int n;
} scene_keylist;
int scene_key_list(scene_ctx *c, sy_node *map, const char *where, const floe_key_table *t, const char *prefix,
                   const char *only, scene_keylist *ks);

/* A size distribution {dist: ...} at n (`where` its path). */
int scene_size_dist(scene_ctx *c, sy_node *n, const char *where, floe_size_dist *dist);

#endif
