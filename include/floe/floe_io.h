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
int floe_scene_load(const char *path, floe_scene *scene, char *err, size_t errlen);
/* The same, polling interrupt(ctx) (floe.h, floe_set_interrupt) in its long
 * loops: random and dense packings, particle tables, adding bodies (every
 * 65,536), the overlap check. A non-zero return stops the load, which then
 * fails with "interrupted while loading" in err. The world it builds polls
 * the same function. */
int floe_scene_load_interruptible(const char *path, floe_interrupt_fn *interrupt, void *ctx, floe_scene *scene,
                                  char *err, size_t errlen);
void floe_scene_free(floe_scene *scene);

/* Total steps the scene asks for (resolves duration with the world's dt). */
int64_t floe_scene_total_steps(const floe_scene *scene);

/* The checks of a run (docs/scene-format.md#checks-before-the-run) for a
 * run of `steps` steps, or `duration` seconds when steps < 0, given after
 * loading (the command line's --steps and --time): 0 if the run may go
 * ahead, -1 with the message in err if it takes at least one step and the
 * scene holds a run_error. A scene with a run length of its own was
 * checked when it loaded. */
int floe_scene_check_run(const floe_scene *scene, int64_t steps, double duration, char *err, size_t errlen);

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
floe_output *floe_output_open(const char *dir, const floe_output_config *cfg, floe_world *w, int64_t total_steps,
                              char *err, size_t errlen);
/* Call after every floe_step: writes whatever is due at the world's current
 * step, and that step's events (floe_events keeps one step's: a step not
 * followed by this call loses its events, which the next call reports as a
 * failure). */
int floe_output_step(floe_output *o, floe_world *w);
/* Forces a ParaView frame and an energy/history row now (used at the end and on stop). */
int floe_output_snapshot(floe_output *o, floe_world *w);
/* Writes the final state files, flushes and closes everything; frees o.
 * On failure returns -1 and prints the reason to stderr (o is gone). */
int floe_output_close(floe_output *o, floe_world *w);
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
int floe_output_get_state(floe_output *o, floe_output_state *st);
/* Reopens the outputs of an interrupted run at the world's current step
 * (locked like floe_output_open, nothing of the earlier run removed):
 * CSVs are cut back to their length in *st and appended to, the .pvd
 * collections are rewritten with the frames up to the restart, frames of
 * later steps are removed. Nothing is written for the current step. */
floe_output *floe_output_resume(const char *dir, const floe_output_config *cfg, floe_world *w,
                                const floe_output_state *st, char *err, size_t errlen);
/* Message of the latest failure of floe_output_step/snapshot ("" if none). */
const char *floe_output_error(const floe_output *o);

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
int floe_restart_write(const char *path, const floe_restart *r, char *err, size_t errlen);

/* Writes DIR/PREFIX_<step>.h5 atomically: a temporary file, fsync, rename,
 * fsync of the directory. With prefix "restart", only the two newest
 * restart files are kept. The final path goes to `path` (may be NULL). */
int floe_restart_save(const char *dir, const char *prefix, const floe_restart *r, char *path, size_t pathlen, char *err,
                      size_t errlen);

/* Reads a restart file into *r (a new world, owned by r->scene; frame
 * arrays owned by r). 0, or -1 with a message in err and *r empty. */
int floe_restart_load(const char *path, floe_restart *r, char *err, size_t errlen);
void floe_restart_free(floe_restart *r);

/* Restart files in `dir`, newest first: fills up to `max` paths (each
 * PATH_MAX-sized buffers in `paths`) and returns how many exist. */
/* Before floe_output_resume into `dir`: outputs that r records but whose
 * files are missing (a restart file copied alone into a directory, deleted
 * outputs) start afresh at the restart step: a CSV with its header and no
 * earlier rows, the ParaView collections with no earlier frames. r->output
 * is adjusted to match. `note` gets a sentence naming them ("" if nothing
 * was missing). 0, or -1 with a message in err. */
int floe_restart_fresh_outputs(const char *dir, floe_restart *r, char *note, size_t notelen, char *err, size_t errlen);

int floe_restart_list(const char *dir, char (*paths)[4096], int max);
/* Removes the restart and runaway files of `dir` (a new run starts there);
 * returns how many. */
int floe_restart_clear(const char *dir);

/* ---- bodies for programs: generators and STL meshes ----
 *
 * What the scene's `generators` and `meshes` sections do, for programs that
 * build worlds in code (docs/scene-format.md describes the recipes). The
 * generators are deterministic for a given seed on every platform (64-bit
 * integer generators, no rand()), independent of the world, and return
 * plain arrays the caller frees with free(); the caller adds the bodies
 * (floe_add_sphere, ...), in the order given, which is the order the scene
 * loader adds them in. Each returns 0, or non-zero with a message in err. */

/* Largest count a generator accepts (the scene loader also bounds memory). */
#define FLOE_GEN_MAX_COUNT 200000000LL

/* Simple lattice of counts[0] x counts[1] x counts[2] sites, x fastest:
 * site p = i + nx (j + ny k) is at origin + (i sx, j sy, k sz) plus jitter
 *   dx = jitter.x (2 u(K + 2p) - 1),  dy = jitter.y (2 u(K + 2p + 1) - 1),
 *   dz = jitter.z (2 u(K + 2^39 + p) - 1),  K = seed * 0xD1B54A32D192ED03
 * (so seed 0 with jitter (A, A, 0) reproduces the peer benchmark scene). */
typedef struct floe_lattice_def {
    floe_vec3 origin;  /* centre of site (0,0,0) */
    floe_vec3 spacing; /* > 0 on each axis */
    int64_t counts[3]; /* >= 0 each */
    floe_vec3 jitter;  /* amplitude of the uniform offset per axis, >= 0 */
    uint64_t seed;
} floe_lattice_def;

/* Writes *n sites into *pos (malloc'd; NULL when n == 0). 0 on success. */
int floe_gen_lattice(const floe_lattice_def *def, floe_vec3 **pos, int64_t *n, char *err, size_t errlen);

/* floe_size_dist and floe_size_dist_check are in floe.h (the inlets of a
 * running world draw sizes from them too). */

/* What the random and dense packings take beyond their region (a def's
 * `env`; NULL: none of it): the periodic cell the bodies will live in, whose
 * images their overlap tests see (docs/periodic.md#generators-and-checks),
 * and an interrupt function (floe_set_interrupt) they poll: a non-zero
 * return stops them with the error "interrupted". The scene loader passes
 * the scene's cell and its own interrupt function. */
typedef struct floe_gen_env {
    int periodic;               /* bit k: axis k is periodic */
    floe_vec3 cell_lo, cell_hi; /* the periods along the periodic axes: lo < hi */
    floe_interrupt_fn *interrupt;
    void *interrupt_ctx;
} floe_gen_env;

/* Random sequential placement of `count` spheres, fully inside the box
 * [lo, hi], pairwise non-overlapping (with env's periodic cell, at their
 * smallest distance over its images). Radii are uniform in [rmin, rmax]
 * (rmin == rmax: monodisperse) or, when dist is not NULL, drawn from *dist
 * (rmin and rmax are then ignored); all are drawn first and placed largest
 * first, so the no-overlap test only ever meets spheres no smaller than the
 * one placed. Each sphere gets up to FLOE_GEN_MAX_TRIES random positions; if
 * one finds no free spot the box is too full: returns non-zero, *placed
 * tells how many fitted. */
#define FLOE_GEN_MAX_TRIES 5000
typedef struct floe_random_def {
    floe_vec3 lo, hi;
    double rmin, rmax; /* 0 < rmin <= rmax */
    int64_t count;
    uint64_t seed;
    const floe_size_dist *dist; /* NULL: uniform in [rmin, rmax] as above */
    const floe_gen_env *env;    /* NULL: no periodic cell, never interrupted */
} floe_random_def;

int floe_gen_random(const floe_random_def *def, floe_vec3 **pos, double **radius, int64_t *placed, char *err,
                    size_t errlen);

/* Obstacles of a random sphere packing: when `clear` is not NULL, a
 * candidate sphere (centre c, radius r) is accepted only if clear(ctx, c, r)
 * returns non-zero. The scene loader passes a test against every wall,
 * facet, infinite cylinder and mesh triangle of the world at that point
 * (docs/scene-format.md, "random"). */
typedef int floe_gen_clear_fn(void *ctx, floe_vec3 c, double r);
int floe_gen_random_clear(const floe_random_def *def, floe_gen_clear_fn *clear, void *ctx, floe_vec3 **pos,
                          double **radius, int64_t *placed, char *err, size_t errlen);

/* Dense sphere packing by radius expansion
 * (docs/decisions.md#dense-packings-by-radius-expansion): `count` radii are
 * drawn as floe_gen_random draws them (or, with count 0, radii are drawn
 * until their volume reaches target x the region's volume), all scaled by
 * one factor s so that their volume is exactly target x the region's
 * volume; so the final radii are the drawn ones times s and the shape of
 * their distribution is the drawn one. The centres start uniformly at
 * random in the region with radii shrunk to a solid fraction of
 * FLOE_DENSE_START; the radii then grow by a common factor in steps of
 * FLOE_DENSE_STEP of solid fraction, and after each step the assembly
 * relaxes (frictionless linear springs between overlapping spheres and
 * between a sphere and the region's boundary, damped by the FIRE
 * minimiser). At the target fraction the relaxation runs until the largest
 * overlap (pair: depth over the smaller radius; boundary: depth over the
 * radius) is at most max_overlap. Deterministic for a seed (one thread,
 * fixed order). */
#define FLOE_DENSE_START 0.25
#define FLOE_DENSE_STEP 0.01
#define FLOE_DENSE_MONO_MAX 0.7405 /* pi / sqrt(18): no packing of equal spheres is denser */
typedef enum floe_dense_region { FLOE_DENSE_BOX = 0, FLOE_DENSE_CYLINDER } floe_dense_region;
typedef struct floe_dense_def {
    floe_dense_region region;
    floe_vec3 lo, hi;           /* BOX: corners; CYLINDER: the bounding box of the cylinder below */
    floe_vec3 base;             /* CYLINDER: centre of the bottom face; axis along z */
    double radius;              /* CYLINDER: radius */
    double height;              /* CYLINDER: height */
    double rmin, rmax;          /* 0 < rmin <= rmax: uniform radii (before scaling) */
    const floe_size_dist *dist; /* or drawn from *dist (rmin, rmax ignored) */
    int64_t count;              /* spheres; 0: as many as the target needs at the drawn sizes */
    double target;              /* solid fraction, (0, 0.9] (FLOE_DENSE_MONO_MAX for equal radii) */
    uint64_t seed;
    double max_overlap;     /* bound on the largest residual overlap, relative */
    int64_t max_iterations; /* relaxation iterations in all (FIRE steps) */
    /* NULL: no periodic cell, never interrupted. With a cell, pairs meet
     * through its faces (the spheres' images); along a periodic axis that
     * the region spans (box side, cylinder height at least the period),
     * the region is one period from the cell's lower bound, without a
     * boundary, and its volume counts the period. */
    const floe_gen_env *env;
} floe_dense_def;

/* A def with the defaults: a box, max_overlap 0.01, max_iterations 200000. */
floe_dense_def floe_default_dense_def(void);
/* The key table of the scene's `dense` generator and of the Python
 * module's add_dense (floe.h, "key tables"), and of its cylinder. */
const floe_key_table *floe_dense_key_table(void);
const floe_key_table *floe_dense_cylinder_key_table(void);

/* The docs' key table of t (docs/scene-format.md), markdown between
 * <!-- keys:NAME --> and <!-- /keys:NAME --> comments; and every top-level
 * table (world, inlets, sinks, phases, dense), as `floe keys --markdown` prints them. */
void floe_key_table_markdown(FILE *f, const floe_key_table *t);
void floe_key_tables_markdown(FILE *f);

typedef struct floe_dense_info {
    int64_t count;       /* spheres made */
    double scale;        /* final radius / drawn radius */
    double fraction;     /* sum of sphere volumes / region volume */
    double reached;      /* largest stage fraction relaxed below max_overlap */
    double mean_overlap; /* mean relative depth over overlapping contacts (pairs and boundary) */
    double max_overlap;  /* largest relative depth */
    int64_t contacts;    /* overlapping contacts at the end */
    int64_t iterations;  /* relaxation iterations used */
    int stages;          /* expansion steps */
} floe_dense_info;

/* Writes info->count spheres into *pos and *radius (malloc'd). 0 on
 * success; non-zero with a message (what fraction was reached, with what
 * overlap) when the target is impossible or the relaxation does not bring
 * the overlap below max_overlap within max_iterations; info is filled
 * either way when the packing ran. */
int floe_gen_dense(const floe_dense_def *def, floe_vec3 **pos, double **radius, floe_dense_info *info, char *err,
                   size_t errlen);

/* Random sequential placement of `count` capsules or ellipsoids with
 * uniformly random orientations (uniform on SO(3)), fully inside the box
 * [lo, hi], pairwise non-overlapping:
 *  - capsules: exact test, the distance between the two axis segments must
 *    exceed r1 + r2 (by a relative 1e-9);
 *  - ellipsoids: a sufficient test, the Perram-Wertheim contact function
 *    F(lambda) must exceed 1 (by 1e-9) for some lambda in [0, 1]: ellipsoids
 *    that are apart by a hair may be refused, touching ones never accepted.
 * Sizes are drawn first (uniform in each range), bodies are placed by
 * decreasing bounding radius (r + shaft/2, or the largest semi-axis; ties in
 * draw order); each gets up to FLOE_GEN_MAX_TRIES (orientation, position)
 * draws. Only + - * / and sqrt are used after seeding, so the packing is the
 * same on every IEEE-754 platform. Every box side must be at least the
 * largest bounding diameter. */
typedef struct floe_random_shape_def {
    floe_vec3 lo, hi;
    floe_shape_type shape; /* FLOE_SHAPE_CAPSULE or FLOE_SHAPE_ELLIPSOID */
    double rmin, rmax;     /* capsule radius, 0 < rmin <= rmax */
    double smin, smax;     /* capsule shaft, 0 <= smin <= smax */
    floe_vec3 amin, amax;  /* ellipsoid semi-axes per body axis, 0 < amin <= amax */
    int64_t count;
    uint64_t seed;
    /* Size distributions (NULL: uniform in the range above): capsules
     * dist[0] the radius, dist[1] the shaft; ellipsoids dist[0..2] the
     * semi-axes. A distribution replaces its range (the range is taken from
     * its min and max). */
    const floe_size_dist *dist[3];
    const floe_gen_env *env; /* NULL: no periodic cell, never interrupted */
} floe_random_shape_def;

typedef struct floe_gen_body {
    floe_vec3 pos;
    floe_quat ori;  /* body -> global; a capsule's shaft is the body x axis */
    double radius;  /* capsule radius */
    double shaft;   /* capsule shaft */
    floe_vec3 semi; /* ellipsoid semi-axes */
} floe_gen_body;

/* Bounding radius of a generated body: r + shaft/2, or the largest semi-axis. */
double floe_gen_body_bound(floe_shape_type shape, const floe_gen_body *b);

/* Writes the bodies into *bodies (malloc'd; NULL when count == 0) in
 * placement order. 0 on success; on a too full box non-zero with *placed. */
int floe_gen_random_shapes(const floe_random_shape_def *def, floe_gen_body **bodies, int64_t *placed, char *err,
                           size_t errlen);

/* The orientation of a capsule given by its shaft's direction (the
 * scene's `axis` key): the shortest-arc rotation taking the body x axis
 * onto axis/|axis| (a half turn about z for -x); (0, 0, 0, 0), which
 * floe_add_* refuse, when axis is zero or not finite. */
floe_quat floe_axis_orientation(floe_vec3 axis);

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
int floe_mesh_read(const char *path, const char *name, floe_vec3 scale, floe_vec3 translate, int skip_degenerate,
                   floe_mesh *out, char *err, size_t errlen);
void floe_mesh_free(floe_mesh *m);

/* ---- files of the current state, on demand ----
 *
 * The files a run writes at its end or at its cadence (docs/outputs.md),
 * written when a program asks: the final-state tables, a ParaView series
 * that grows by one frame per call, a restart file at a given path. */

/* particles.csv and contacts.csv of the world's current state at `path`
 * (written through a temporary and rename()). 0, or -1 with a message. */
int floe_csv_write_particles(const char *path, const floe_world *w, char *err, size_t errlen);
int floe_csv_write_contacts(const char *path, const floe_world *w, char *err, size_t errlen);

/* A history.csv column (floe_history_column) evaluated now: check it first
 * (0, or -1 with a message naming the column when its particle, group,
 * quantity or energy term does not exist); the value is NaN for an id that
 * no longer exists. `energy` holds floe_energy() of this step, or is NULL
 * to compute it on demand. */
int floe_history_check(const floe_world *w, const floe_history_column *col, char *err, size_t errlen);
double floe_history_value(const floe_world *w, const floe_history_column *col, const double *energy);
/* "created", "deleted", "broken", "activated", "slip_change" (events.csv). */
const char *floe_event_type_name(floe_event_type t);

/* ParaView frames on demand: floe_vtk_series_write adds a frame of the
 * world's current state to DIR: particles_<step>.vtu, contacts_<step>.vtp
 * and, when the world has such bodies, boundaries_<step>.vtp (walls,
 * facets) and shapes_<step>.vtp (capsules, ellipsoids, cylinders), with
 * the arrays of docs/outputs.md, and rewrites the collections
 * DIR/particles.pvd, ... to list every frame this series wrote (a second
 * write at the same step replaces that frame). DIR is created if needed;
 * collections of the same names already there are replaced. */
typedef struct floe_vtk_series floe_vtk_series;
floe_vtk_series *floe_vtk_series_open(const char *dir, char *err, size_t errlen);
int floe_vtk_series_write(floe_vtk_series *s, const floe_world *w, char *err, size_t errlen);
void floe_vtk_series_close(floe_vtk_series *s);

/* Writes a restart file at exactly `path`, atomically and durably (a
 * temporary beside it, fsync, rename, fsync of the directory): what
 * floe_restart_save does under its own file names. 0, or -1 with a message. */
int floe_restart_save_file(const char *path, const floe_restart *r, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
