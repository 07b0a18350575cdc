/* World.run and World.step: the engine steps with the GIL released; Python
 * runs only when a callback is due, and every ~50 ms so that Ctrl-C
 * (KeyboardInterrupt) stops a long run cleanly between two steps. */
#include "_floe.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

/* Longest stretch of steps without looking at signals [s]. */
#define SIGNAL_CHECK 0.05
/* Progress (floe/_progress.py): shown once a run has lasted PROGRESS_START
 * [s] (short runs print nothing), updated every PROGRESS_EVERY [s]. */
#define PROGRESS_START 0.5
#define PROGRESS_EVERY 0.25

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

typedef struct plan {
    int64_t end_step; /* stop at this step (INT64_MAX: no step limit) */
    double end_time;  /* stop at the first step at or after this time (INFINITY: none) */
    int64_t every;    /* callbacks and until every this many steps */
    PyObject *until, *callback, *on_event;
    PyObject *progress; /* run(progress=): NULL (step()) or False: none; None: where interactive; True */
} plan;

/* The progress reporter of a run (a floe._progress.Progress), or NULL. */
static PyObject *progress_start(World *self, const plan *p, int64_t step0, double time0, double t0) {
    PyObject *mod = PyImport_ImportModule("floe._progress");
    PyObject *r = mod ? PyObject_CallMethod(mod, "start", "OOLdddd", (PyObject *)self, p->progress, (long long)step0,
                                            time0, p->end_step == INT64_MAX ? INFINITY : (double)p->end_step,
                                            p->end_time, t0)
                      : NULL;
    Py_XDECREF(mod);
    if (!r) PyErr_WriteUnraisable((PyObject *)self); /* progress never stops a run */
    if (r == Py_None) Py_CLEAR(r);
    return r;
}

/* Calls the reporter's update() or finish(interrupted); a failure ends the
 * reporting, but a Ctrl-C that lands in update() is the run's: -1 with
 * KeyboardInterrupt set (finish then ends the line). In finish() the run's
 * own exception is kept. */
static int progress_call(PyObject **prog, const char *method, int interrupted) {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb); /* the run's own exception (KeyboardInterrupt) is kept */
    PyObject *r = interrupted < 0 ? PyObject_CallMethod(*prog, method, NULL)
                                  : PyObject_CallMethod(*prog, method, "i", interrupted);
    int rc = 0;
    if (!r && !et && PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
        rc = -1; /* the reporter stays, to end its line with the run */
    } else if (!r) {
        if (et) PyErr_Clear();
        else PyErr_WriteUnraisable(*prog);
        Py_CLEAR(*prog);
    }
    Py_XDECREF(r);
    if (et) PyErr_Restore(et, ev, tb);
    return rc;
}

static int ended(const plan *p, floe_world *w) {
    if (floe_step_count(w) >= p->end_step) return 1;
    /* 1e-12: the time summed over many steps may fall short of T by rounding (as the CLI) */
    return isfinite(p->end_time) && !(floe_time(w) < p->end_time * (1 - 1e-12));
}

/* Steps `duration` seconds take with the world's current dt, rounded as a
 * scene's run.time is (docs/scene-format.md#run). */
static int64_t steps_for(floe_world *w, double duration) {
    floe_scene tmp = {.world = w, .duration = duration};
    return floe_scene_total_steps(&tmp);
}

/* Whether the step just taken has events of the kept types. */
static int has_events(const World *self) {
    floe_event_list l = floe_events(self->sc.world);
    for (int i = 0; i < l.count; i++)
        if ((unsigned)l.events[i].type < 32 && (self->ev_mask >> l.events[i].type & 1u)) return 1;
    return 0;
}

/* Bodies written through the views are checked before the engine steps. */
static int check_written(World *self) {
    if (!self->wrote || !self->nstore) return 0;
    return floe_py_check(self, floe_check_bodies(self->sc.world));
}

/* Why the loop below stopped without the end being reached. */
enum { GO_ON, STEP_FAILED, OUTPUT_FAILED, NO_MEMORY };

/* Steps until the end, a callback is due or SIGNAL_CHECK passed; returns
 * the reason, *taken the steps done. Runs without the GIL. */
static int batch(World *self, const plan *p, int *due, int64_t *taken, floe_status *st) {
    floe_world *w = self->sc.world;
    double t0 = now();
    int need_events = p->on_event != NULL && p->on_event != Py_None;
    int64_t k = 0;
    *due = 0;
    while (!ended(p, w)) {
        *st = floe_step(w);
        k++;
        if (*st != FLOE_OK) {
            *taken = k;
            return STEP_FAILED;
        }
        floe_event_list el = floe_events(w);
        for (int i = 0; i < el.count; i++)
            if (el.events[i].type == FLOE_EVENT_ENERGY_ERROR) {
                self->energy_ev = el.events[i];
                self->energy_pending = 1;
            }
        if (self->out && floe_output_step(self->out, w) != 0) {
            *taken = k;
            return OUTPUT_FAILED;
        }
        if (floe_py_keep_events(self) || floe_py_record(self)) {
            *taken = k;
            return NO_MEMORY;
        }
        if ((p->every > 0 && floe_step_count(w) % p->every == 0 &&
             ((p->callback && p->callback != Py_None) || (p->until && p->until != Py_None))) ||
            (need_events && has_events(self))) {
            *due = 1;
            break;
        }
        if (now() - t0 > SIGNAL_CHECK) break;
    }
    *taken = k;
    return GO_ON;
}

/* The run loop of run() and step(): the number of steps taken, or -1 with
 * an exception. */
static int64_t run_plan(World *self, const plan *p) {
    floe_world *w = self->sc.world;
    int64_t total = 0;
    if (check_written(self)) return -1;
    /* a loaded scene of run length 0 kept what its checks before the run
     * found (a dt above the critical step, deep overlaps): the first run
     * that takes a step meets it, as `floe run --steps N` does */
    char err[1024];
    if (floe_step_count(w) == 0 && !ended(p, w) && floe_scene_check_run(&self->sc, 1, 0, err, sizeof err)) {
        PyErr_SetString(SceneError, err);
        return -1;
    }
    self->in_run = 1;
    int rc = 0;
    int64_t step0 = floe_step_count(w);
    double time0 = floe_time(w), t0 = now(), shown = 0;
    PyObject *prog = NULL;
    int prog_tried = !p->progress || p->progress == Py_False;
    while (!rc && !ended(p, w)) {
        int due, why;
        int64_t k = 0;
        floe_status st = FLOE_OK;
        /* while views are alive, inlets fill the arrays up to their room, never moving them */
        floe_set_particle_budget(w, floe_py_budget(self));
        self->busy = 1;
        PyThreadState *ts = PyEval_SaveThread();
        why = batch(self, p, &due, &k, &st);
        PyEval_RestoreThread(ts);
        self->busy = 0;
        floe_py_note_removals(self); /* views taken before a sink removed bodies are stale */
        total += k;
        if (why == STEP_FAILED) {
            /* the outputs keep the state of the failure, as `floe run` writes it */
            if (self->out) floe_output_snapshot(self->out, w);
            if (st == FLOE_ERR_MEMORY && self->nstore && floe_particle_count(w) >= floe_particle_capacity(w) &&
                floe_particle_capacity(w) < self->budget) {
                PyErr_Format(FloeError,
                             "step %lld: the inlets filled the room of %d bodies the particle arrays have while "
                             "numpy views of them are alive (the arrays would move under the views); delete the "
                             "views (del ...; in IPython also %%reset -f out), or call w.reserve(n) before taking "
                             "views",
                             (long long)floe_step_count(w), floe_particle_capacity(w));
                rc = -1;
                break;
            }
            floe_py_check(self, st);
            rc = -1;
            break;
        }
        if (why == OUTPUT_FAILED) {
            PyErr_Format(OutputError, "writing outputs failed at step %lld: %s", (long long)floe_step_count(w),
                         floe_output_error(self->out));
            rc = -1;
            break;
        }
        if (why == NO_MEMORY) {
            PyErr_NoMemory();
            rc = -1;
            break;
        }
        if (self->energy_pending) { /* the engine emits the event once per run */
            self->energy_pending = 0;
            const floe_event *e = &self->energy_ev;
            char msg[400];
            snprintf(msg, sizeof msg,
                     "the energy balance error is %.3g at step %lld (t = %g s), above energy_warn = %g: the time "
                     "step is too long for the accuracy this run needs (lower dt_safety or dt; "
                     "docs/integration.md#time-step-accuracy)",
                     e->value[0], (long long)e->step, e->time, e->value[1]);
            if (PyErr_WarnEx(PyExc_RuntimeWarning, msg, 1) < 0) {
                rc = -1;
                break;
            }
        }
        if (due) {
            if (p->on_event && p->on_event != Py_None && self->ev_mask) {
                floe_event_list l = floe_events(w);
                for (int i = 0; i < l.count && !rc; i++) {
                    if ((unsigned)l.events[i].type >= 32 || !(self->ev_mask >> l.events[i].type & 1u)) continue;
                    PyObject *e = floe_py_event_tuple(&l.events[i]);
                    PyObject *r = e ? PyObject_CallOneArg(p->on_event, e) : NULL;
                    Py_XDECREF(e);
                    if (!r) rc = -1;
                    Py_XDECREF(r);
                    l = floe_events(w); /* a callback may not step, but re-read the list anyway */
                }
            }
            int at = p->every > 0 && floe_step_count(w) % p->every == 0;
            if (!rc && at && p->callback && p->callback != Py_None) {
                PyObject *r = PyObject_CallOneArg(p->callback, (PyObject *)self);
                if (!r) rc = -1;
                Py_XDECREF(r);
            }
            if (!rc && at && p->until && p->until != Py_None) {
                PyObject *r = PyObject_CallOneArg(p->until, (PyObject *)self);
                int stop = r ? PyObject_IsTrue(r) : -1;
                Py_XDECREF(r);
                if (stop < 0) rc = -1;
                else if (stop) break;
            }
            if (!rc && (self->closed || !self->sc.world)) {
                PyErr_SetString(FloeError, "run(): the World was closed by a callback");
                rc = -1;
            }
            if (!rc && check_written(self)) rc = -1;
        }
        if (!rc && !prog_tried && now() - t0 >= PROGRESS_START) {
            prog_tried = 1;
            prog = progress_start(self, p, step0, time0, t0);
        }
        if (!rc && prog && now() - shown >= PROGRESS_EVERY) {
            rc = progress_call(&prog, "update", -1); /* Ctrl-C during the update: the run's */
            shown = now();
        }
        if (!rc && PyErr_CheckSignals() < 0) rc = -1; /* KeyboardInterrupt: stopped between two steps */
    }
    if (prog) {
        progress_call(&prog, "finish", rc != 0 && PyErr_ExceptionMatches(PyExc_KeyboardInterrupt));
        Py_XDECREF(prog);
    }
    self->in_run = 0;
    return rc ? -1 : total;
}

static int refuse_nested(World *self, const char *what) {
    if (!self->in_run) return 0;
    PyErr_Format(FloeError, "%s: called from a callback of run(); return from the callback instead", what);
    return -1;
}

static PyObject *World_step(World *self, PyObject *args) {
    long long n = 1;
    if (floe_py_open(self) || refuse_nested(self, "step()") || !PyArg_ParseTuple(args, "|L:step", &n)) return NULL;
    if (n < 0) {
        PyErr_Format(ArgumentError, "step(n): n = %lld must be >= 0", n);
        return NULL;
    }
    plan p = {.end_step = floe_step_count(self->sc.world) + n, .end_time = INFINITY};
    if (run_plan(self, &p) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *World_run(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"steps", "time", "until", "every", "callback", "on_event", "progress", NULL};
    PyObject *steps_o = Py_None, *time_o = Py_None;
    long long every = 1;
    plan p = {.end_step = INT64_MAX, .end_time = INFINITY, .progress = Py_None};
    if (floe_py_open(self) || refuse_nested(self, "run()") ||
        !PyArg_ParseTupleAndKeywords(args, kw, "|O$OOLOOO:run", kwlist, &steps_o, &time_o, &p.until, &every,
                                     &p.callback, &p.on_event, &p.progress))
        return NULL;
    if (p.progress != Py_None && p.progress != Py_True && p.progress != Py_False) {
        PyErr_Format(PyExc_TypeError, "run: progress must be None (where interactive), True or False, not %.80s",
                     Py_TYPE(p.progress)->tp_name);
        return NULL;
    }
    floe_world *w = self->sc.world;
    if (every < 1) {
        PyErr_Format(ArgumentError, "run: every = %lld must be >= 1", every);
        return NULL;
    }
    p.every = every;
    PyObject *fns[3] = {p.until, p.callback, p.on_event};
    const char *fn_names[3] = {"until", "callback", "on_event"};
    for (int k = 0; k < 3; k++)
        if (fns[k] && fns[k] != Py_None && !PyCallable_Check(fns[k])) {
            PyErr_Format(PyExc_TypeError, "run: %s must be callable, got %.80s", fn_names[k], Py_TYPE(fns[k])->tp_name);
            return NULL;
        }
    int64_t step = floe_step_count(w);
    if (steps_o != Py_None && time_o != Py_None) {
        PyErr_SetString(ArgumentError, "run: give steps or time, not both");
        return NULL;
    }
    if (steps_o != Py_None) {
        long long n;
        if (floe_py_int(steps_o, "run: steps", 0, INT64_MAX - step, &n)) return NULL;
        p.end_step = step + n;
    } else if (time_o != Py_None) {
        double t;
        if (floe_py_double(time_o, "run: time", &t)) return NULL;
        if (!(t >= 0) || !isfinite(t)) {
            floe_py_arg_error("run: time = %g s must be finite and >= 0", t);
            return NULL;
        }
        if (floe_dt_is_auto(w)) p.end_time = t > 0 ? floe_time(w) + t : -INFINITY;
        else {
            int64_t n = t > 0 ? steps_for(w, t) : 0;
            p.end_step = n > INT64_MAX - step ? INT64_MAX : step + n;
        }
        if (p.end_time == -INFINITY) p.end_step = step; /* time 0: nothing to do */
    } else if (self->from_scene && (!p.until || p.until == Py_None)) {
        /* the scene's own length, as `floe run` runs it */
        if (self->duration > 0 && floe_dt_is_auto(w)) p.end_time = self->duration;
        else if (self->duration > 0) p.end_step = steps_for(w, self->duration);
        else p.end_step = self->total;
    } else if (!p.until || p.until == Py_None) {
        PyErr_SetString(ArgumentError, "run: give steps=, time= or until= (a World built in code has no run length)");
        return NULL;
    }
    int64_t n = run_plan(self, &p);
    if (n < 0) return NULL;
    return PyLong_FromLongLong(n);
}

#define KW (PyCFunction)(void (*)(void))
PyMethodDef floe_py_run_methods[] = {
    {"step", (PyCFunction)World_step, METH_VARARGS,
     "step(n=1)\n\nTakes n steps (outputs, kept events and history rows follow every step)."},
    {"run", KW World_run, METH_VARARGS | METH_KEYWORDS,
     "run(steps=None, *, time=None, until=None, every=1, callback=None, on_event=None, progress=None) -> int\n\n"
     "Runs and returns the number of steps taken:\n"
     "  steps     this many steps;\n"
     "  time      this many simulated seconds (with a fixed dt: ceil(time/dt) steps; with dt 'auto':\n"
     "            up to the first step at or after it);\n"
     "  until     a callable until(w) -> bool, checked every `every` steps: the run stops when it\n"
     "            returns True (it may be the only limit);\n"
     "  callback  callback(w) every `every` steps (before until); it may read and write the world\n"
     "            (views, set_motion, add bodies, ...) but not run, step or close it;\n"
     "  on_event  on_event(event) for every kept event (keep_events) as it happens (floe.Event);\n"
     "  progress  None: a run longer than half a second shows its progress (step, time, steps/s, ETA,\n"
     "            contacts, energy error) as a bar on a terminal or a line in a Jupyter notebook, and\n"
     "            nothing elsewhere; True: also elsewhere (lines on stderr); False: never.\n"
     "Without steps, time or until, a loaded scene runs to its end (w.end). The engine runs with the\n"
     "GIL released; Ctrl-C (KeyboardInterrupt) stops the run between two steps, leaving the World\n"
     "consistent and able to go on. A blow-up raises RunawayError (the outputs keep that state).\n"
     "Exceptions of the callables stop the run after the step they were called at."},
    {NULL, NULL, 0, NULL}};
