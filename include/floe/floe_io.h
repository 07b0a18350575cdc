/* floe I/O — scene files, run outputs and restart files (library floe-io).
 *
 * The public face of libfloe-io: load a YAML scene into a ready world
 * (docs/scene-format.md), attach the outputs a run writes
 * (docs/outputs.md), write and read restart files (docs/restart.md). The
 * engine itself is <floe/floe.h> (libfloe), which does not need libyaml or
 * HDF5; programs that only build worlds in code link libfloe alone.
 * Link with `pkg-config --libs floe-io`.
 */
#ifndef FLOE_IO_H
#define FLOE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <floe/floe.h>
#include <floe/floe_pack.h> /* the generators: the engine builds packings */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- output configuration (the `output` section of a scene) ---- */

typedef enum floe_history_kind {
    FLOE_HIST_PARTICLE = 0, /* quantity of one particle: pos.x|y|z, vel.*, angvel.*, force.*, torque.* */
    FLOE_HIST_CONTACT,      /* quantity of the contact between particles a and b: fn, ft, tw, tr, un (0 if absent) */
    FLOE_HIST_GROUP,        /* summed contact force.* or torque.* on a group */
    FLOE_HIST_ENERGY,       /* an energy term (index in floe_energy_term) */
    FLOE_HIST_COUNTER,      /* world counters: contacts, step, time */
    FLOE_HIST_REGION,       /* a measurement over `region`: stress.xx..zz, solid_fraction, coordination, ...
                             * (docs/measurements.md) */
    FLOE_HIST_PLANE,        /* plane counter a: count, mass, count_pos, ... */
} floe_history_kind;

typedef struct floe_history_column {
    char name[64]; /* CSV column header */
    floe_history_kind kind;
    int a, b;           /* particle ids; FLOE_HIST_PLANE: a is the plane counter's id */
    int group;          /* group id */
    int energy;         /* floe_energy_term */
    char quantity[24];  /* e.g. "pos.z", "force.x", "fn", "contacts", "stress.zz" */
    floe_region region; /* FLOE_HIST_REGION: where it is measured */
    double area;        /* FLOE_HIST_GROUP stress.x|y|z: the area the group's force is divided by */
} floe_history_column;

/* A region named in the scene's output.regions: every measurement over
 * it goes into measurements.csv at the end of the run. */
typedef struct floe_named_region {
    char name[64];
    floe_region region;
} floe_named_region;

/* Output cadence: every N steps, or every `interval` seconds of simulated
 * time (converted with the world's dt when the run starts); 0 = off. */
typedef struct floe_every {
    int64_t steps;
    double interval;
} floe_every;

typedef struct floe_output_config {
    floe_every vtk;     /* ParaView series; default every 1/100 of the run */
    int vtk_contacts;   /* write contacts series (default 1) */
    int vtk_boundaries; /* write walls/facets series (default 1) */
    int vtk_shapes;     /* write capsules/ellipsoids/cylinders as surfaces, if any (default 1) */
    floe_every energy;  /* energy.csv; default every 1/1000 of the run */
    floe_every history; /* history.csv */
    floe_history_column *history_cols;
    int n_history_cols;
    int final_state;            /* particles.csv and contacts.csv at the end (default 1) */
    floe_every progress;        /* plain log lines when not on a terminal */
    uint32_t events_skip;       /* bit t set: events of floe_event_type t are not written to
                              * events.csv (default 0: all; all bits: no events.csv) */
    floe_named_region *regions; /* measured into measurements.csv at the end (with final_state) */
    int n_regions;
} floe_output_config;

typedef struct floe_scene {
    floe_world *world;
    int64_t steps;   /* run length in steps (or 0) ... */
    double duration; /* ... or in simulated seconds (or 0) */
    floe_output_config out;
    char path[1024]; /* the scene file */
    char *warnings;  /* NULL, or "file:line:col: warning: ...\n" lines about
                              * likely mistakes that do not stop a run (implausible
                              * material values, small initial overlaps): print them
                              * before checking or running the scene */
    char *run_error; /* NULL, or the "file:line:col: message" of a check that only a
                              * run meets (a given dt above the critical step, a deep
                              * initial overlap) in a scene whose own run length is 0,
                              * which loads: floe_scene_check_run reports it when a
                              * run length is given later */
} floe_scene;

/* ---- scene files ---- */

/* Parses and validates `path`, builds the world. On failure returns non-zero,
 * writes "file:line:col: message" into err and leaves *scene empty. */
FLOE_API int floe_scene_load(const char *path, floe_scene *scene, char *err, size_t errlen);
/* The same, polling interrupt(ctx) (floe.h, floe_set_interrupt) in its long
 * loops: random and dense packings, particle tables, adding bodies (every
 * 65,536), the overlap check. A non-zero return stops the load, which then
 * fails with "interrupted while loading" in err. The world it builds polls
 * the same function. */
FLOE_API int floe_scene_load_interruptible(const char *path, floe_interrupt_fn *interrupt, void *ctx, floe_scene *scene,
                                           char *err, size_t errlen);
FLOE_API void floe_scene_free(floe_scene *scene);

/* Total steps the scene asks for (resolves duration with the world's dt). */
FLOE_API int64_t floe_scene_total_steps(const floe_scene *scene);

/* The checks of a run (docs/scene-format.md#checks-before-the-run) for a
 * run of `steps` steps, or `duration` seconds when steps < 0, given after
 * loading (the command line's --steps and --time): 0 if the run may go
 * ahead, -1 with the message in err if it takes at least one step and the
 * scene holds a run_error. A scene with a run length of its own was
 * checked when it loaded. */
FLOE_API int floe_scene_check_run(const floe_scene *scene, int64_t steps, double duration, char *err, size_t errlen);

/* ---- outputs of a run ---- */

/* Everything a run writes into its output directory: ParaView series,
 * energy.csv, history.csv, events.csv, final particles.csv / contacts.csv.
 * Documented in docs/outputs.md. */
typedef struct floe_output floe_output;

/* Creates `dir` if needed, locks it against other floe processes
 * (DIR/.floe.lock; "DIR is in use by another floe process (pid N)"),
 * removes the files an earlier run wrote there (floe's own names only, see
 * docs/outputs.md) and opens the writers, starts the world (floe_start:
 * the contacts and forces at t = 0) and writes the initial state with the
 * events of the start (events.csv). Do not start the world before: the
 * events of its start would miss events.csv. NULL on failure with a
 * message in err. */
FLOE_API floe_output *floe_output_open(const char *dir, const floe_output_config *cfg, floe_world *w,
                                       int64_t total_steps, char *err, size_t errlen);
/* Call after every floe_step: writes whatever is due at the world's current
 * step, and that step's events (floe_events keeps one step's: a step not
 * followed by this call loses its events, which the next call reports as a
 * failure). */
FLOE_API int floe_output_step(floe_output *o, floe_world *w);
/* Forces a ParaView frame and an energy/history row now (used at the end and on stop). */
FLOE_API int floe_output_snapshot(floe_output *o, floe_world *w);
/* Writes the final state files, flushes and closes everything; frees o.
 * On failure returns -1 and prints the reason to stderr (o is gone). */
FLOE_API int floe_output_close(floe_output *o, floe_world *w);
/* What a restart file records so that a resumed run continues every output
 * seamlessly: the cadences and next due steps, the frames listed in the
 * .pvd collections, and the byte length of every CSV at the restart step. */
/* period > 0: every `period` steps, `next` is the next due step; period
 * FLOE_OUTPUT_BY_TIME: an `interval` cadence, `next` is the index k of the
 * next due time k * interval; 0: off. `last`: the step last written. */
#define FLOE_OUTPUT_BY_TIME (-1)
typedef struct floe_output_stream {
    int64_t period, next, last;
} floe_output_stream;
typedef struct floe_output_state {
    floe_output_stream vtk, energy, history;
    int width;           /* digits of the step in frame file names */
    size_t nframes;      /* frames listed in the .pvd collections */
    int64_t *frame_step; /* get_state: owned by the output; resume: by the caller */
    double *frame_time;
    long long csv_bytes[3]; /* energy.csv, history.csv, events.csv; -1: not written */
    uint64_t models_seen;   /* bit m: contacts frames carry model m's state arrays */
} floe_output_state;

/* Flushes and fsyncs every CSV and fills *st (valid until the next output
 * call). 0, or -1 (see floe_output_error). */
FLOE_API int floe_output_get_state(floe_output *o, floe_output_state *st);
/* Reopens the outputs of an interrupted run at the world's current step
 * (locked like floe_output_open, nothing of the earlier run removed):
 * CSVs are cut back to their length in *st and appended to, the .pvd
 * collections are rewritten with the frames up to the restart, frames of
 * later steps are removed. Nothing is written for the current step. */
FLOE_API floe_output *floe_output_resume(const char *dir, const floe_output_config *cfg, floe_world *w,
                                         const floe_output_state *st, char *err, size_t errlen);
/* Message of the latest failure of floe_output_step/snapshot ("" if none). */
FLOE_API const char *floe_output_error(const floe_output *o);

/* ---- restart files ---- */

/* Restart files: the complete state of a run in one HDF5 file, from which
 * the run continues bit for bit (docs/restart.md describes the layout; any
 * HDF5 tool reads it: h5dump, h5py). A file holds the world, the run
 * settings and output configuration of the scene, and the output counters,
 * so that a resumed run needs nothing else. */
typedef struct floe_restart {
    floe_scene scene;      /* world, run length, output configuration, scene path */
    int64_t total_steps;   /* run length in steps when the run started */
    int64_t restart_every; /* steps between restart files (0: none) */
    int stopped;           /* load: the world had stopped at a runaway */
    int has_output;        /* `output` holds the output counters */
    floe_output_state output;
} floe_restart;

/* Writes `path` (not atomically; see floe_restart_save). 0, or -1 with a
 * message in err. */
FLOE_API int floe_restart_write(const char *path, const floe_restart *r, char *err, size_t errlen);

/* Writes DIR/PREFIX_<step>.h5 atomically: a temporary file, fsync, rename,
 * fsync of the directory. With prefix "restart", only the two newest
 * restart files are kept. The final path goes to `path` (may be NULL). */
FLOE_API int floe_restart_save(const char *dir, const char *prefix, const floe_restart *r, char *path, size_t pathlen,
                               char *err, size_t errlen);

/* Reads a restart file into *r (a new world, owned by r->scene; frame
 * arrays owned by r). 0, or -1 with a message in err and *r empty. */
FLOE_API int floe_restart_load(const char *path, floe_restart *r, char *err, size_t errlen);
FLOE_API void floe_restart_free(floe_restart *r);

/* Restart files in `dir`, newest first: fills up to `max` paths (each
 * PATH_MAX-sized buffers in `paths`) and returns how many exist. */
/* Before floe_output_resume into `dir`: outputs that r records but whose
 * files are missing (a restart file copied alone into a directory, deleted
 * outputs) start afresh at the restart step: a CSV with its header and no
 * earlier rows, the ParaView collections with no earlier frames. r->output
 * is adjusted to match. `note` gets a sentence naming them ("" if nothing
 * was missing). 0, or -1 with a message in err. */
FLOE_API int floe_restart_fresh_outputs(const char *dir, floe_restart *r, char *note, size_t notelen, char *err,
                                        size_t errlen);

FLOE_API int floe_restart_list(const char *dir, char (*paths)[4096], int max);
/* Removes the restart and runaway files of `dir` (a new run starts there);
 * returns how many. */
FLOE_API int floe_restart_clear(const char *dir);

/* ---- key tables of the I/O library ----
 *
 * The dense packing's def with its defaults (floe_pack.h: a box,
 * max_overlap 0.01, max_iterations 200000), the key table of the scene's
 * `dense` generator and of the Python module's add_dense (floe.h, "key
 * tables"), and of its cylinder. */
FLOE_API floe_dense_def floe_default_dense_def(void);
FLOE_API const floe_key_table *floe_dense_key_table(void);
FLOE_API const floe_key_table *floe_dense_cylinder_key_table(void);
/* The docs' key table of t (docs/scene-format.md), markdown between
 * <!-- keys:NAME --> and <!-- /keys:NAME --> comments; and every top-level
 * table (world, inlets, sinks, phases, dense), as `floe keys --markdown`
 * prints them. */
FLOE_API void floe_key_table_markdown(FILE *f, const floe_key_table *t);
FLOE_API void floe_key_tables_markdown(FILE *f);

/* ---- bodies for programs: STL meshes ----
 *
 * The generators of the scene's `generators` section are the engine's
 * (include/floe/floe_pack.h, included above); the `meshes` section reads
 * STL files with floe_mesh_read. */

/* The orientation of a capsule given by its shaft's direction (the
 * scene's `axis` key): the shortest-arc rotation taking the body x axis
 * onto axis/|axis| (a half turn about z for -x); (0, 0, 0, 0), which
 * floe_add_* refuse, when axis is zero or not finite. */
FLOE_API floe_quat floe_axis_orientation(floe_vec3 axis);

/* An STL file (ASCII or binary) placed for a world: every vertex scaled
 * (per axis, each factor in (0, 1e12]) then translated (each component at
 * most 1e12 m), coordinates checked against the scene's limit of 1e12 m,
 * degenerate triangles (docs/scene-format.md, meshes) refused or, with
 * skip_degenerate, dropped. Add the triangles as facets of one rigid body
 * (floe_add_facet with the same def, def.pos = the centroid or a chosen
 * reference point) in order: that is the scene's `meshes` entry. */
typedef struct floe_mesh {
    floe_vec3 *v;       /* 3 n placed vertices: triangle t is v[3t], v[3t+1], v[3t+2] */
    size_t n;           /* usable triangles */
    size_t skipped;     /* degenerate triangles dropped (skip_degenerate) */
    floe_vec3 centroid; /* area-weighted centroid of the surface */
} floe_mesh;

/* Reads `path` into *out (`name`, or path if NULL, names the file in
 * messages). 0, or -1 with a message in err ("path:line:col: ..." for a
 * malformed ASCII file) and *out empty. */
FLOE_API int floe_mesh_read(const char *path, const char *name, floe_vec3 scale, floe_vec3 translate,
                            int skip_degenerate, floe_mesh *out, char *err, size_t errlen);
FLOE_API void floe_mesh_free(floe_mesh *m);

/* ---- files of the current state, on demand ----
 *
 * The files a run writes at its end or at its cadence (docs/outputs.md),
 * written when a program asks: the final-state tables, a ParaView series
 * that grows by one frame per call, a restart file at a given path. */

/* particles.csv and contacts.csv of the world's current state at `path`
 * (written through a temporary and rename()). 0, or -1 with a message. */
FLOE_API int floe_csv_write_particles(const char *path, const floe_world *w, char *err, size_t errlen);
FLOE_API int floe_csv_write_contacts(const char *path, const floe_world *w, char *err, size_t errlen);

/* A history.csv column (floe_history_column) evaluated now: check it first
 * (0, or -1 with a message naming the column when its particle, group,
 * quantity or energy term does not exist); the value is NaN for an id that
 * no longer exists. `energy` holds floe_energy() of this step, or is NULL
 * to compute it on demand. */
FLOE_API int floe_history_check(const floe_world *w, const floe_history_column *col, char *err, size_t errlen);
FLOE_API double floe_history_value(const floe_world *w, const floe_history_column *col, const double *energy);
/* "created", "deleted", "broken", "activated", "slip_change" (events.csv). */
FLOE_API const char *floe_event_type_name(floe_event_type t);

/* ParaView frames on demand: floe_vtk_series_write adds a frame of the
 * world's current state to DIR: particles_<step>.vtu, contacts_<step>.vtp
 * and, when the world has such bodies, boundaries_<step>.vtp (walls,
 * facets) and shapes_<step>.vtp (capsules, ellipsoids, cylinders), with
 * the arrays of docs/outputs.md, and rewrites the collections
 * DIR/particles.pvd, ... to list every frame this series wrote (a second
 * write at the same step replaces that frame). DIR is created if needed;
 * collections of the same names already there are replaced. */
typedef struct floe_vtk_series floe_vtk_series;
FLOE_API floe_vtk_series *floe_vtk_series_open(const char *dir, char *err, size_t errlen);
FLOE_API int floe_vtk_series_write(floe_vtk_series *s, const floe_world *w, char *err, size_t errlen);
FLOE_API void floe_vtk_series_close(floe_vtk_series *s);

/* Writes a restart file at exactly `path`, atomically and durably (a
 * temporary beside it, fsync, rename, fsync of the directory): what
 * floe_restart_save does under its own file names. 0, or -1 with a message. */
FLOE_API int floe_restart_save_file(const char *path, const floe_restart *r, char *err, size_t errlen);

/* The candidate closest to `word` within a small edit distance, or NULL:
 * the "did you mean" of the scene loader's messages, for front ends that
 * name options and commands the same way. */
FLOE_API const char *floe_suggest(const char *word, const char *const *cands, int n);

#ifdef __cplusplus
}
#endif

#endif
