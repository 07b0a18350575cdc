/* The scene loader's state and the helpers every part of it shares
 * (scene_common.c): key paths for messages, warnings, schema values,
 * material, group and shape names, the interrupt. The loader is split by
 * section: scene.c (order of work; world, materials, models, groups, run)
 * calls the section readers declared in scene_sections.h. Not a public
 * header. */
#ifndef FLOE_IO_SCENE_COMMON_H
#define FLOE_IO_SCENE_COMMON_H

#include <floe/floe_io.h>
#include "base/mem.h"
#include "io/scene_yaml.h"

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

/* Whether the interrupt function asks to stop (then c->stopped stays 1;
 * ctx: the scene_ctx, so that generators can poll it through their env);
 * scene_stopped: the error that ends the load then (-1), at node `at`. */
int scene_interrupted(void *ctx);
int scene_stopped(scene_ctx *c, sy_node *at);
const char *scene_path(char *buf, const char *base, const char *key); /* "base.key" */
const char *scene_index(char *buf, const char *base, int i);          /* "base[i]" */
int scene_material(scene_ctx *c, sy_node *map, const char *where, int *mat);
/* The shape whose scene section `key` is, or NULL. */
const struct floe_shape_info *scene_shape_section(const char *key);
/* The material a name node names, or an error at the node with a hint. */
int scene_material_by_name(scene_ctx *c, sy_node *n, const char *where, int *mat);
/* Id of material `name`, or -1 with a message tail in hint ("; did you mean
 * 'glass'?", "; known materials: ..."). */
int scene_find_material(scene_ctx *c, const char *name, char *hint, size_t len);
/* Message tail listing `names`, or a suggestion for `word`. */
void scene_name_hint(char *buf, size_t len, const char *word, const char *const *names, int n, const char *what);
int scene_groups(scene_ctx *c, sy_node *node, const char *where, uint32_t *mask);
int scene_world_error(scene_ctx *c, sy_node *at, const char *where); /* floe_last_error */
/* Appends a warning "file:line:col: warning: message" at node n. Returns 0
 * (-1 only when out of memory, recorded as the scene's error). */
int scene_warn(scene_ctx *c, sy_node *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A schema value: true/false (1/0) or a number, range-checked against spec. */
int scene_param(scene_ctx *c, sy_node *n, const char *where, const floe_param_spec *spec, double *out);

#endif
