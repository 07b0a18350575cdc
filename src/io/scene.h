/* Scene files (YAML) -> a ready world plus run and output settings.
 * The format is documented in docs/scene-format.md. */
#ifndef FLOE_IO_SCENE_H
#define FLOE_IO_SCENE_H

#include <floe/floe.h>

typedef enum floe_history_kind {
    FLOE_HIST_PARTICLE = 0, /* quantity of one particle: pos.x|y|z, vel.*, angvel.*, force.*, torque.* */
    FLOE_HIST_CONTACT,      /* quantity of the contact between particles a and b: fn, ft, tw, tr, un (0 if absent) */
    FLOE_HIST_GROUP,        /* summed contact force.* or torque.* on a group */
    FLOE_HIST_ENERGY,       /* an energy term (index in floe_energy_term) */
    FLOE_HIST_COUNTER,      /* world counters: contacts, step, time */
} floe_history_kind;

typedef struct floe_history_column {
    char name[64];      /* CSV column header */
    floe_history_kind kind;
    int a, b;           /* particle ids */
    int group;          /* group id */
    int energy;         /* floe_energy_term */
    char quantity[24];  /* e.g. "pos.z", "force.x", "fn", "contacts" */
} floe_history_column;

/* Output cadence: every N steps, or every `interval` seconds of simulated
 * time (converted with the world's dt when the run starts); 0 = off. */
typedef struct floe_every {
    int64_t steps;
    double interval;
} floe_every;

typedef struct floe_output_config {
    floe_every vtk;          /* ParaView series; default every 1/100 of the run */
    int vtk_contacts;        /* write contacts series (default 1) */
    int vtk_boundaries;      /* write walls/facets series (default 1) */
    int vtk_shapes;          /* write capsules/ellipsoids/cylinders as surfaces, if any (default 1) */
    floe_every energy;       /* energy.csv; default every 1/1000 of the run */
    floe_every history;      /* history.csv */
    floe_history_column *history_cols;
    int n_history_cols;
    int final_state;         /* particles.csv and contacts.csv at the end (default 1) */
    floe_every progress;     /* plain log lines when not on a terminal */
    uint32_t events_skip;    /* bit t set: events of floe_event_type t are not written to
                              * events.csv (default 0: all; all bits: no events.csv) */
} floe_output_config;

typedef struct floe_scene {
    floe_world *world;
    int64_t steps;           /* run length in steps (or 0) ... */
    double duration;         /* ... or in simulated seconds (or 0) */
    floe_output_config out;
    char path[1024];         /* the scene file */
    char *warnings;          /* NULL, or "file:line:col: warning: ...\n" lines about
                              * likely mistakes that do not stop a run (implausible
                              * material values, small initial overlaps): print them
                              * before checking or running the scene */
} floe_scene;

/* Parses and validates `path`, builds the world. On failure returns non-zero,
 * writes "file:line:col: message" into err and leaves *scene empty. */
int floe_scene_load(const char *path, floe_scene *scene, char *err, size_t errlen);
/* The same with a smaller memory budget for the size guard (bytes; <= 0:
 * the default), e.g. for fuzzing. */
int floe_scene_load_limited(const char *path, double max_bytes, floe_scene *scene, char *err, size_t errlen);
void floe_scene_free(floe_scene *scene);

/* Total steps the scene asks for (resolves duration with the world's dt). */
int64_t floe_scene_total_steps(const floe_scene *scene);

#endif
