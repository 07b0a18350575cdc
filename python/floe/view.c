/* The storage behind the numpy views of the particle arrays, and floe.View,
 * the ndarray type of those views (docs/decisions.md#python-views-never-dangle).
 *
 * Two things can make a view wrong: the arrays moving (an add beyond their
 * capacity), and a removal shifting the ids after a removed body. The first
 * would make a view dangle, so it never happens while a view is alive: the
 * arrays get a large room when the first view is taken, adds past it are
 * refused and inlets are held to it (the particle budget). The second
 * happens whenever the program removes bodies (w.remove, a sink), views or
 * not, because a view may be out of the user's reach (IPython's output cache
 * keeps every displayed value): it ends the storage's generation instead.
 * Every view knows its storage (the end of its .base chain), and floe.View
 * refuses to be read, written, indexed, printed or computed with once the
 * generation it belongs to has ended (StaleViewError); the memory stays
 * valid meanwhile, so an array taken out of a view with np.asarray is never
 * a dangling pointer either. */
#include "_floe.h"

#include <limits.h>

/* ---- the storage object ----------------------------------------------------------- */

typedef struct Storage {
    PyObject_HEAD World *world; /* strong */
    int64_t gen;                /* the World's generation when it was made */
    int64_t step;               /* the step then */
} Storage;

static void Storage_dealloc(Storage *s) {
    World *w = s->world;
    if (w) {
        if (w->anchor == (PyObject *)s) w->anchor = NULL;
        w->nstore--;
        /* a World closed while views were alive frees its memory with the last one */
        if (w->closed && w->nstore == 0) floe_py_world_release(w);
        Py_DECREF(w);
    }
    Py_TYPE(s)->tp_free((PyObject *)s);
}

PyTypeObject Storage_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "floe._Storage",
    .tp_basicsize = sizeof(Storage),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Keeps a World's particle arrays alive and in place while numpy views of them exist.",
    .tp_dealloc = (destructor)Storage_dealloc,
};

void floe_py_bodies_removed(World *self) {
    self->gen++;
    self->gen_step = self->sc.world ? floe_step_count(self->sc.world) : 0;
    self->anchor = NULL; /* its views are stale; the next view gets a new storage */
}

void floe_py_note_removals(World *self) {
    floe_world *w = self->sc.world;
    if (!w) return;
    int64_t removed = 0;
    for (int k = 0; k < floe_sink_count(w); k++) {
        floe_sink_stats st;
        if (floe_sink_get(w, k, &st, NULL) == FLOE_OK) removed += st.removed;
    }
    if (removed != self->sink_removed) {
        self->sink_removed = removed;
        floe_py_bodies_removed(self);
    }
}

/* The room views take (FLOE_PY_ROOM; floe._floe._set_room changes it for tests). */
static int room_of_views = FLOE_PY_ROOM;

PyObject *floe_py_set_room(PyObject *mod, PyObject *arg) {
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 1 || n > FLOE_PY_ROOM) {
        PyErr_Format(ArgumentError, "_set_room(n): n = %ld is out of range [1, %d]", n, FLOE_PY_ROOM);
        return NULL;
    }
    room_of_views = (int)n;
    Py_RETURN_NONE;
}

PyObject *floe_py_anchor(World *self) {
    if (self->anchor) {
        Py_INCREF(self->anchor);
        return self->anchor;
    }
    floe_world *w = self->sc.world;
    if (self->nstore == 0) {
        /* no view is alive: the arrays may move now. Room for FLOE_PY_ROOM (or
         * twice the bodies there are); if refused, a smaller one (the bodies
         * there are, at least one) still makes views */
        int n = floe_particle_count(w);
        long long room = n < room_of_views / 2 ? room_of_views : 2LL * n;
        if (room > INT_MAX) room = INT_MAX;
        if (floe_reserve_particles(w, (int)room) != FLOE_OK && floe_reserve_particles(w, n > 0 ? n : 1) != FLOE_OK)
            return PyErr_NoMemory();
    }
    Storage *s = PyObject_New(Storage, &Storage_Type);
    if (!s) return NULL;
    Py_INCREF(self);
    s->world = self;
    s->gen = self->gen;
    s->step = floe_step_count(w);
    self->nstore++;
    self->anchor = (PyObject *)s; /* borrowed: the views hold it */
    return (PyObject *)s;
}

int floe_py_room(World *self, long long more) {
    floe_world *w = self->sc.world;
    if (!self->nstore || more <= 0 || floe_particle_count(w) + more <= floe_particle_capacity(w)) return 0;
    PyErr_Format(FloeError,
                 "adding %lld bodies would pass the room of %d the particle arrays have while numpy views of "
                 "them are alive (the arrays would move under the views); delete the views first (del ...; in "
                 "IPython also %%reset -f out), or call w.reserve(n) before taking views",
                 more, floe_particle_capacity(w));
    return -1;
}

int64_t floe_py_budget(World *self) {
    floe_world *w = self->sc.world;
    int64_t b = self->budget;
    if (self->nstore && floe_particle_capacity(w) < b) b = floe_particle_capacity(w);
    return b;
}

/* ---- floe.View -------------------------------------------------------------------- */

PyTypeObject View_Type;

/* The storage at the end of o's base chain, or NULL: o is no view of a World. */
static Storage *storage_of(PyObject *o) {
    for (int depth = 0; o && PyArray_Check(o) && depth < 64; depth++) o = PyArray_BASE((PyArrayObject *)o);
    return o && Py_TYPE(o) == &Storage_Type ? (Storage *)o : NULL;
}

/* 0, or -1 with StaleViewError if o is a view whose generation has ended. */
static int check(PyObject *o) {
    Storage *s = storage_of(o);
    if (!s || s->gen == s->world->gen) return 0;
    PyErr_Format(StaleViewError,
                 "this numpy view of the World's particle arrays was taken at step %lld, and bodies were removed "
                 "since (at step %lld, by w.remove or a sink): the ids after a removed body shifted, so its rows "
                 "would show other bodies. Read the array again (w.positions, ...) for the bodies now",
                 (long long)s->step, (long long)s->world->gen_step);
    return -1;
}

/* Every view among a tuple's, list's or dict's items (one level) is checked. */
static int check_all(PyObject *o) {
    if (!o) return 0;
    if (PyObject_TypeCheck(o, &View_Type)) return check(o);
    if (PyTuple_Check(o) || PyList_Check(o)) {
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); i++)
            if (PyObject_TypeCheck(PySequence_Fast_GET_ITEM(o, i), &View_Type) && check(PySequence_Fast_GET_ITEM(o, i)))
                return -1;
        return 0;
    }
    if (PyDict_Check(o)) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &k, &v))
            if (check_all(v)) return -1;
    }
    return 0;
}

static PyMappingMethods view_mapping;

static PyObject *View_subscript(PyObject *self, PyObject *key) {
    if (check(self)) return NULL;
    return PyArray_Type.tp_as_mapping->mp_subscript(self, key);
}

static int View_ass_subscript(PyObject *self, PyObject *key, PyObject *v) {
    if (check(self) || check_all(v)) return -1;
    return PyArray_Type.tp_as_mapping->mp_ass_subscript(self, key, v);
}

static PyObject *View_repr(PyObject *self) { return check(self) ? NULL : PyArray_Type.tp_repr(self); }
static PyObject *View_str(PyObject *self) { return check(self) ? NULL : PyArray_Type.tp_str(self); }
static PyObject *View_iter(PyObject *self) { return check(self) ? NULL : PyArray_Type.tp_iter(self); }
/* numpy's comparison turns a failed ufunc into a warning and False: checked here first */
static PyObject *View_richcompare(PyObject *self, PyObject *other, int op) {
    if (check(self) || check_all(other)) return NULL;
    return PyArray_Type.tp_richcompare(self, other, op);
}

/* Methods and attributes (copy, tolist, max, T, ...): the view is checked
 * first; `stale` answers always. */
static PyObject *View_getattro(PyObject *self, PyObject *name) {
    if (!(PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "stale") == 0) && check(self)) return NULL;
    return PyObject_GenericGetAttr(self, name);
}

/* A plain ndarray over o's memory if o is a View (a new reference). */
static PyObject *plain(PyObject *o) {
    if (!PyObject_TypeCheck(o, &View_Type)) {
        Py_INCREF(o);
        return o;
    }
    return PyArray_View((PyArrayObject *)o, NULL, &PyArray_Type);
}

static PyObject *plain_tuple(PyObject *t, Py_ssize_t from) {
    Py_ssize_t n = PyTuple_GET_SIZE(t) - from;
    PyObject *r = PyTuple_New(n);
    for (Py_ssize_t i = 0; r && i < n; i++) {
        PyObject *x = plain(PyTuple_GET_ITEM(t, from + i));
        if (!x) Py_CLEAR(r);
        else PyTuple_SET_ITEM(r, i, x);
    }
    return r;
}

/* numpy's ufuncs (arithmetic, comparisons, reductions such as max): every
 * view among the operands is checked, then the ufunc runs on plain arrays
 * over the same memory. The results are plain arrays of their own memory;
 * an `out` that was a view is returned as itself. */
static PyObject *View_array_ufunc(PyObject *self, PyObject *args, PyObject *kw) {
    if (PyTuple_GET_SIZE(args) < 2) {
        PyErr_SetString(PyExc_TypeError, "__array_ufunc__(ufunc, method, *inputs, **kwargs)");
        return NULL;
    }
    if (check_all(args) || check_all(kw)) return NULL;
    PyObject *out = kw ? PyDict_GetItemString(kw, "out") : NULL;
    if (out && check_all(out)) return NULL;
    PyObject *in = plain_tuple(args, 2), *kw2 = kw ? PyDict_Copy(kw) : NULL, *out2 = NULL, *r = NULL;
    if (!in || (kw && !kw2)) goto done;
    if (out && PyTuple_Check(out)) {
        if (!(out2 = plain_tuple(out, 0)) || PyDict_SetItemString(kw2, "out", out2)) goto done;
    }
    PyObject *fn = PyObject_GetAttr(PyTuple_GET_ITEM(args, 0), PyTuple_GET_ITEM(args, 1));
    if (!fn) goto done;
    r = PyObject_Call(fn, in, kw2);
    Py_DECREF(fn);
    if (r && out2) { /* the plain `out` back to the view it stands for */
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(out2); j++) {
            if (PyTuple_Check(r)) {
                for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(r); i++)
                    if (PyTuple_GET_ITEM(r, i) == PyTuple_GET_ITEM(out2, j)) {
                        PyObject *o = PyTuple_GET_ITEM(out, j);
                        Py_INCREF(o);
                        Py_DECREF(PyTuple_GET_ITEM(r, i));
                        PyTuple_SET_ITEM(r, i, o);
                    }
            } else if (r == PyTuple_GET_ITEM(out2, j)) {
                Py_DECREF(r);
                r = PyTuple_GET_ITEM(out, j);
                Py_INCREF(r);
            }
        }
    }
done:
    Py_XDECREF(in);
    Py_XDECREF(kw2);
    Py_XDECREF(out2);
    return r;
}

static PyObject *ndarray_array_function; /* ndarray.__array_function__, unbound */

/* numpy's functions (np.sum, np.linalg.norm, np.concatenate, ...): the views
 * among the arguments are checked, then numpy's own implementation runs. */
static PyObject *View_array_function(PyObject *self, PyObject *args) {
    PyObject *func, *types, *fargs, *fkw;
    if (!PyArg_ParseTuple(args, "OOOO:__array_function__", &func, &types, &fargs, &fkw)) return NULL;
    if (check(self) || check_all(fargs) || check_all(fkw)) return NULL;
    return PyObject_CallFunctionObjArgs(ndarray_array_function, self, func, types, fargs, fkw, NULL);
}

static PyObject *View_stale(PyObject *self, PyObject *unused) {
    Storage *s = storage_of(self);
    return PyBool_FromLong(s && s->gen != s->world->gen);
}

static PyMethodDef view_methods[] = {{"__array_ufunc__", (PyCFunction)(void (*)(void))View_array_ufunc,
                                      METH_VARARGS | METH_KEYWORDS,
                                      "Checks the views among the operands, then applies the ufunc to plain arrays."},
                                     {"__array_function__", View_array_function, METH_VARARGS,
                                      "Checks the views among the arguments, then runs numpy's implementation."},
                                     {NULL, NULL, 0, NULL}};

static PyGetSetDef view_getset[] = {
    {"stale", (getter)View_stale, NULL,
     "True once bodies were removed after this view was taken: every use of it then raises StaleViewError", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject View_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "floe.View",
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A numpy array over a World's particle arrays (w.positions, ...): no copy, always current.\n\n"
              "Once bodies are removed (w.remove, a sink), which shifts the ids after a removed body, every use\n"
              "of a view taken before raises floe.StaleViewError; read the array again. Results of arithmetic\n"
              "and of numpy's functions are plain arrays of their own (docs/python.md, 'Views').",
    .tp_repr = View_repr,
    .tp_str = View_str,
    .tp_iter = View_iter,
    .tp_richcompare = View_richcompare,
    .tp_getattro = View_getattro,
    .tp_methods = view_methods,
    .tp_getset = view_getset,
};

int floe_py_view_setup(void) {
    view_mapping = *PyArray_Type.tp_as_mapping;
    view_mapping.mp_subscript = View_subscript;
    view_mapping.mp_ass_subscript = View_ass_subscript;
    View_Type.tp_as_mapping = &view_mapping;
    View_Type.tp_base = &PyArray_Type;
    if (PyType_Ready(&View_Type) < 0 || PyType_Ready(&Storage_Type) < 0) return -1;
    ndarray_array_function = PyObject_GetAttrString((PyObject *)&PyArray_Type, "__array_function__");
    return ndarray_array_function ? 0 : -1;
}
