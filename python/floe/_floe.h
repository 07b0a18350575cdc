/* floe's Python module (_floe): what its C files share. The module is
 * written against the CPython C API and numpy's C API and uses only the
 * public headers of libfloe and libfloe-io (docs/python.md describes the
 * Python API; docs/decisions.md#python-views-never-dangle the view rules). */
#ifndef FLOE_PY_FLOE_H
#define FLOE_PY_FLOE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef FLOE_PY_MAIN
#define NO_IMPORT_ARRAY
#endif
#define PY_ARRAY_UNIQUE_SYMBOL floe_py_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <floe/floe.h>
#include <floe/floe_io.h>

/* The room the particle arrays get when the first view of them is taken:
 * views stay valid while the arrays do not move (docs/python.md, "Views").
 * Reserving address space costs no memory until particles fill it. */
#define FLOE_PY_ROOM (1 << 20)

enum { HIST_FIXED = 2 + FLOE_E_COUNT + 4 }; /* step, time, energies, contacts, bonded, breaks, particles */

/* The event types a World keeps by default (World.keep_events). */
#define FLOE_PY_DEFAULT_EVENTS                                                                          \
    (1u << FLOE_EVENT_BOND_BROKEN | 1u << FLOE_EVENT_CONTACT_ACTIVATED | 1u << FLOE_EVENT_SLIP_CHANGE | \
     1u << FLOE_EVENT_ENERGY_ERROR)

typedef struct World {
    PyObject_HEAD floe_scene sc; /* owns the engine's world (sc.world) and a loaded scene's settings */
    floe_output *out;            /* outputs of a loaded or restored scene, or NULL */
    int64_t total;               /* the scene's run length in steps (0: none) */
    double duration;             /* ... or in simulated seconds (0: none) */
    int from_scene;              /* made by floe.load / floe.restore: run() without a length runs to the end */
    int closed;                  /* close(): every method but the views' memory is gone */
    int busy;                    /* the engine runs with the GIL released */
    int in_run;                  /* run() is in progress (its callbacks may not run, step or close) */
    PyObject *anchor;            /* borrowed: the storage object new views share, or NULL */
    int nstore;                  /* storage objects alive (this generation's and stale ones): arrays stay put */
    int64_t gen, gen_step;       /* generation of the particle arrays: +1 at every removal (view.c); its step */
    int64_t sink_removed;        /* bodies the sinks had removed when last looked at */
    int64_t budget;              /* the particle budget inlets fill the world to, without views (view.c) */
    int wrote;                   /* a writable view was handed out: bodies are checked before steps */
    /* events kept from the steps of run() and step(): types in ev_mask */
    floe_event *ev;
    size_t nev, evcap;
    uint32_t ev_mask;
    /* the energy_error event of the last steps, for a RuntimeWarning once the GIL is back (run.c) */
    floe_event energy_ev;
    int energy_pending;
    /* history rows recorded every hist_every steps */
    int64_t hist_every;
    floe_history_column *hcols;
    int nhcols;
    double *hist; /* rows of HIST_FIXED + nhcols values */
    size_t hrows, hcap;
    PyObject *series; /* dict: directory -> capsule of a floe_vtk_series */
    PyObject *weakreflist;
} World;

extern PyTypeObject World_Type;
extern PyTypeObject Storage_Type;
extern PyTypeObject View_Type; /* floe.View: the ndarray type of the views (view.c) */

/* exceptions (common.c) */
extern PyObject *FloeError, *ArgumentError, *RunawayError, *SceneError, *OutputError, *SceneWarning, *StaleViewError;
extern PyTypeObject *Event_Type; /* floe.Event, a named tuple of one event */

/* common.c: errors and argument helpers; each returns 0, or -1 with an exception set */
PyObject *floe_py_status(World *self, floe_status st); /* NULL with the exception for a failed status */
int floe_py_check(World *self, floe_status st);        /* 0 for FLOE_OK, else -1 with the exception */
int floe_py_interrupt(void *ctx);                      /* the engine's interrupt function: Ctrl-C */
/* The generators' env: the world's cell (refused once sheared) and floe_py_interrupt; 0, or -1 with an exception. */
int floe_py_gen_env(World *self, floe_gen_env *env);
int floe_py_open(World *self); /* refuses a closed or busy world */
int floe_py_vec3(PyObject *o, const char *what, floe_vec3 *out);
int floe_py_double(PyObject *o, const char *what, double *out);
int floe_py_int(PyObject *o, const char *what, long long lo, long long hi, long long *out);
int floe_py_axis(PyObject *o, int *axis);
int floe_py_block(PyObject *o, uint32_t *mask);
int floe_py_material(World *self, PyObject *o, int *mat);
int floe_py_group(World *self, PyObject *o, int create, int *g);
int floe_py_groups(World *self, PyObject *o, uint32_t *mask);
PyObject *floe_py_vec3_obj(floe_vec3 v); /* a numpy array of 3 */
/* Particle ids: one id or a sequence or array of them (ndim min_dim..1), as
 * an int64 array (a new reference), or NULL with TypeError for anything but
 * whole numbers (a float array, a list holding 2.9: refused as a float id
 * alone is, not truncated); `what` names the argument in the message. */
PyArrayObject *floe_py_ids(PyObject *o, const char *what, int min_dim);
/* The size keywords given (radius, shaft, semi_axes: 1 if given) are those
 * of the shape, all of them; else ArgumentError (one too many) or TypeError
 * (one missing), naming fn. */
int floe_py_shape_sizes(const char *fn, const char *shape_name, floe_shape_type shape, int radius, int shaft,
                        int semi_axes);

void floe_py_arg_error(const char *fmt, ...); /* ArgumentError with a printf message (%g works) */
void floe_py_world_release(World *self);      /* frees the engine's world once no view needs it */
int floe_py_close_outputs(World *self);       /* 0, or -1 with an exception */

/* signature.c: "name(args) -> r\n\ntext" as CPython's text signature, with `first` ($self, $module,
 * or NULL for a type) as the first argument; a new string, kept for the module's life */
const char *floe_py_signed_doc(const char *doc, const char *first);

/* view.c: the storage of the views and floe.View */
int floe_py_view_setup(void);                           /* readies View_Type and Storage_Type */
PyObject *floe_py_anchor(World *self);                  /* the storage new views take as base (a new reference) */
int floe_py_room(World *self, long long more);          /* refuses adding `more` bodies that would move viewed arrays */
void floe_py_bodies_removed(World *self);               /* ends the generation: views taken before are stale */
void floe_py_note_removals(World *self);                /* ends it if the sinks removed bodies since last looked at */
int64_t floe_py_budget(World *self);                    /* the particle budget for the next steps (views: the room) */
PyObject *floe_py_set_room(PyObject *mod, PyObject *n); /* _floe._set_room(n): the views' room, for tests */

/* world.c (module.c joins the method tables of every file into the World type) */
extern PyMethodDef floe_py_world_methods[];
extern PyGetSetDef floe_py_world_getset[];
World *floe_py_world_new(floe_scene *sc); /* takes sc over (zeroed on return) */

/* arrays.c */
extern PyGetSetDef floe_py_view_getset[];
extern PyMethodDef floe_py_array_methods[];
PyObject *floe_py_event_tuple(const floe_event *e);
int floe_py_keep_events(World *self); /* appends the last step's events of ev_mask */
int floe_py_record(World *self);      /* appends a history row if one is due */

/* bodies.c */
extern PyMethodDef floe_py_body_methods[];
extern PyMethodDef floe_py_lab_methods[]; /* lab.c: water and the world's environment */

/* motion.c: phased group motion and servo */
extern PyMethodDef floe_py_motion_methods[];

/* supply.c: inlets, sinks, removal, the dense generator */
extern PyMethodDef floe_py_supply_methods[];

/* keys.c: the keyword arguments of fn (args: at most the entry's name, its
 * NAME key) read through key table t into def (from its defaults); *name
 * the name; own (t->n entries, or NULL to refuse them): the values of the
 * FLOE_KEY_OWN keys, borrowed, NULL when not given. 0, or -1 with
 * ArgumentError (a value out of range, a rule between keys) or TypeError. */
int floe_py_keys(World *self, PyObject *args, PyObject *kw, const char *fn, const floe_key_table *t, void *def,
                 const char **name, PyObject **own);
/* keys.c: the items of dict o as keys and numbers (floe_phase_key: names
 * prefix + key, kept alive in the list `keep`; a MAP key of table t gives
 * itself, with no numbers, then its dict's keys as "<key>.<subkey>"; an
 * ENUM key its text; the others a number or 3), appended to k[*n..cap):
 * what floe_phase_from_keys reads. `where` names the dict in messages. */
int floe_py_key_list(PyObject *o, const char *where, const floe_key_table *t, const char *prefix, floe_phase_key *k,
                     int cap, int *n, PyObject *keep);
/* keys.c: a size: a number, (min, max) or dict(dist=...), checked. */
int floe_py_size(PyObject *o, const char *what, floe_size_dist *d);

/* run.c */
extern PyMethodDef floe_py_run_methods[];

/* files.c */
extern PyMethodDef floe_py_file_methods[];
PyObject *floe_py_load(PyObject *mod, PyObject *args, PyObject *kw);
PyObject *floe_py_restore(PyObject *mod, PyObject *args, PyObject *kw);

#endif
