/* Shared state of the scene loader, split over scene.c (world, materials,
 * models, groups, run), scene_bodies.c (particles, walls, facets, meshes,
 * generators; particle tables through particle_file.c) and scene_output.c
 * (output section), with the helpers they share in scene_common.c. Not a
 * public header. */
#ifndef FLOE_IO_SCENE_INTERNAL_H
#define FLOE_IO_SCENE_INTERNAL_H

#include <floe/floe_io.h>
#include "base/mem.h"
#include "io/scene_yaml.h"
#include "io/mesh.h"

/* Refuse scenes that would need absurd memory before allocating anything.
 * The estimate covers particle state plus a few contacts per particle. */
#define SCENE_MAX_PARTICLES 200000000.0
#define SCENE_BYTES_PER_PARTICLE 400.0
#define SCENE_MAX_BYTES (16.0 * 1024 * 1024 * 1024)

#define SCENE_PATH 256 /* length of key paths in messages */

typedef struct scene_motion {
    int group;
    sy_node *node;
    floe_motion m;
    floe_phase phases[FLOE_MAX_PHASES]; /* nphases > 0: these instead of m (scene_phases.c) */
    int nphases;
} scene_motion;

/* Where particles came from, for messages about them: ids first.. (up to
 * the next range) were made by `node`. */
typedef enum scene_src_kind { SRC_ENTRY = 0, SRC_TABLE, SRC_GENERATOR } scene_src_kind;
typedef struct scene_src {
    int64_t first;
    sy_node *node;
    scene_src_kind kind;
} scene_src;

typedef struct scene_ctx {
    sy_doc *d;
    floe_world *w;
    /* Bodies are read twice: pass 0 validates and counts (and reads STL
     * files), pass 1 adds them to the world. */
    int build;
    double max_bytes;  /* memory budget of the size guard */
    double count;      /* particles counted in pass 0 */
    int64_t added;     /* particles added in pass 1 */
    char dir[1024];    /* directory of the scene file ("" = current) */
    floe_mesh *meshes; /* placed triangles per meshes[i], read in pass 0 */
    int n_meshes;
    long long *file_rows; /* rows of each particle file (particles[i].file), in reading order */
    int n_file_rows, cap_file_rows, next_file_rows;
    scene_motion motions[FLOE_MAX_GROUPS];
    int n_motions;
    sy_node *run_time;             /* run.time node, for the dt conversion error */
    sy_node *world_node, *dt_node; /* world section and world.dt (NULL if absent), for dt errors */
    int dt_check_warn;             /* world.dt_check: warn: a dt above the critical step is a warning */
    scene_src *src;                /* particle sources, in id order (pass 1) */
    int n_src, cap_src;
    scene_src_kind src_kind; /* kind of the particles being added */
    floe_buf warnings;       /* "file:line:col: warning: ...\n" lines (scene_warn) */
    /* output cadences given explicitly (others get defaults at the end) */
    int set_vtk, set_energy, set_history, set_progress;
    /* polled in the long loops (floe_scene_load_interruptible); NULL: never */
    floe_interrupt_fn *interrupt;
    void *interrupt_ctx;
    int stopped;      /* the interrupt function asked to stop (scene_interrupted) */
    floe_gen_env env; /* the generators': the cell (set by the periodic section), scene_interrupted */
} scene_ctx;

/* scene_bodies.c: one top-level body section (key is a shape's section:
 * particles, capsules, ellipsoids, cylinders, walls, facets; or meshes or
 * generators). */
int scene_bodies(scene_ctx *c, const char *key, sy_node *section);

/* scene_dense.c: the keys of a `dense` generator (radius expansion) but
 * radius and the common ones (material, group, vel, angvel): the region,
 * the target and the relaxation's bounds; *at is the region's node. */
int scene_dense_keys(scene_ctx *c, sy_node *g, const char *where, floe_dense_def *dd, sy_node **at);
/* With the radius set: pass 0 counts the spheres (*pos, *rad NULL), pass 1
 * makes them (malloc'd). */
int scene_dense_make(scene_ctx *c, sy_node *g, sy_node *at, const char *where, const floe_dense_def *dd,
                     floe_vec3 **pos, double **rad, int64_t *n);
/* scene_clear.c: the obstacle test of random packings, against the walls,
 * facets, infinite cylinders and mesh triangles of the world that can
 * reach the box [lo, hi] grown by rmax. */
typedef struct scene_clear {
    const floe_world *w;
    int *ids; /* boundary bodies to test */
    int n;
} scene_clear;
int scene_clear_init(scene_ctx *c, scene_clear *s, floe_vec3 lo, floe_vec3 hi, double rmax);
int scene_clear_test(void *ctx, floe_vec3 centre, double r); /* floe_gen_clear_fn */
void scene_clear_free(scene_clear *s);
/* scene_supply.c: the inlets and sinks sections (after the bodies). */
int scene_supply(scene_ctx *c, sy_node *root);
/* scene_supply.c: the inlets' budgets once the run's length is known: the
 * bodies an inlet certainly asks for after one step (FLOE_INLET_MAX_STEP)
 * and over the run (with the scene's particles, the memory guard). */
int scene_supply_budget(scene_ctx *c, const floe_scene *s);
/* scene_keys.c: the keys of a mapping as the engine reads a group's phase
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
/* scene_keys.c: a size distribution {dist: ...} at n (`where` its path). */
int scene_size_dist(scene_ctx *c, sy_node *n, const char *where, floe_size_dist *dist);
/* scene_phases.c: a group's `phases` list or its `load` key (item: the
 * group's map) into m->phases; 0 if it has neither (m->nphases stays 0). */
int scene_group_phases(scene_ctx *c, sy_node *item, const char *where, scene_motion *m);

/* scene_output.c */
void scene_output_init(floe_output_config *out); /* defaults that do not depend on the run length */
int scene_output(scene_ctx *c, sy_node *section, floe_output_config *out);
void scene_output_defaults(scene_ctx *c, floe_output_config *out, int64_t total_steps);
/* At most this many output.regions (measurements.md). */
#define SCENE_MAX_REGIONS 64

/* Shared helpers (scene_common.c). */
/* Whether the interrupt function asks to stop (then c->stopped stays 1;
 * ctx: the scene_ctx, so that generators can poll it through their env);
 * scene_stopped: the error that ends the load then (-1), at node `at`. */
int scene_interrupted(void *ctx);
int scene_stopped(scene_ctx *c, sy_node *at);
const char *scene_path(char *buf, const char *base, const char *key); /* "base.key" */
const char *scene_index(char *buf, const char *base, int i);          /* "base[i]" */
int scene_material(scene_ctx *c, sy_node *map, const char *where, int *mat);
/* The shape whose scene section `key` is, or NULL. */
const struct floe_shape_class *scene_shape_section(const char *key);
/* The material a name node names, or an error at the node with a hint. */
int scene_material_by_name(scene_ctx *c, sy_node *n, const char *where, int *mat);
/* Id of material `name`, or -1 with a message tail in hint ("; did you mean
 * 'glass'?", "; known materials: ..."). */
int scene_find_material(scene_ctx *c, const char *name, char *hint, size_t len);
/* Message tail listing `names`, or a suggestion for `word`. */
void scene_name_hint(char *buf, size_t len, const char *word, const char *const *names, int n, const char *what);
int scene_groups(scene_ctx *c, sy_node *node, const char *where, uint32_t *mask);
int scene_world_error(scene_ctx *c, sy_node *at, const char *where); /* floe_last_error */
/* scene_periodic.c: the `periodic` section, the cell before the bodies and
 * (scene_periodic_bodies) the affine velocities once they are all there. */
int scene_periodic(scene_ctx *c, sy_node *sec);
int scene_periodic_bodies(scene_ctx *c, sy_node *sec);
/* Appends a warning "file:line:col: warning: message" at node n. Returns 0
 * (-1 only when out of memory, recorded as the scene's error). */
int scene_warn(scene_ctx *c, sy_node *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* scene_check.c: what the run would find before step 0, found at load:
 * errors (dt, deep initial overlaps) and warnings (implausible materials,
 * small overlaps). Called once the world and the run length are known; in
 * a scene that runs no step, the errors go to s->run_error. */
int scene_diagnose(scene_ctx *c, floe_scene *s);
/* scene_cell_check.c: the periodic cell against the bodies, as the start
 * and the first pair search would find it (docs/periodic.md), refused at
 * the scene key; nothing without a cell. */
int scene_check_cell(scene_ctx *c);
/* scene_keys.c: the keys of table t in mapping `map` (path `where`) into
 * def: unknown keys refused, each key given read and range-checked where it
 * stands, then the table's rules; given[i] (t->n entries): key i was given;
 * *name: the NAME key's text (may be NULL without one). */
int scene_keys(scene_ctx *c, sy_node *map, const char *where, const floe_key_table *t, void *def, unsigned char *given,
               const char **name);
/* A schema value: true/false (1/0) or a number, range-checked against spec. */
int scene_param(scene_ctx *c, sy_node *n, const char *where, const floe_param_spec *spec, double *out);

#endif
