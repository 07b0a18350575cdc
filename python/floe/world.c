/* floe.World: creation and lifetime, materials, models, groups, model
 * methods, per-particle setters and the world's scalar properties. */
#include "_floe.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* ---- lifetime ------------------------------------------------------------------ */

World *floe_py_world_new(floe_scene *sc) {
    World *self = (World *)World_Type.tp_alloc(&World_Type, 0);
    if (!self) {
        floe_scene_free(sc);
        return NULL;
    }
    self->sc = *sc;
    memset(sc, 0, sizeof *sc);
    if (self->sc.world) {
        floe_set_interrupt(self->sc.world, floe_py_interrupt, NULL);
        self->budget = floe_particle_budget(self->sc.world);
        floe_py_note_removals(self); /* a restored world's sinks have removed bodies before */
    }
    self->ev_mask = FLOE_PY_DEFAULT_EVENTS;
    return self;
}

static PyObject *World_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    World *self = (World *)type->tp_alloc(type, 0);
    if (self) self->ev_mask = FLOE_PY_DEFAULT_EVENTS;
    return (PyObject *)self;
}

static int World_init(World *self, PyObject *args, PyObject *kw) {
    floe_world_def def = floe_default_world_def();
    if (self->sc.world) {
        PyErr_SetString(FloeError, "World.__init__: this World exists already");
        return -1;
    }
    /* the keys of the scene's world section (key table "world"), but the loader's own dt_check */
    if (floe_py_keys(self, args, kw, "World", floe_key_table_find("world"), &def, NULL, NULL)) return -1;
    floe_world *w = floe_world_create(&def);
    if (!w) {
        PyErr_SetString(ArgumentError, floe_create_error());
        return -1;
    }
    self->sc.world = w;
    self->budget = floe_particle_budget(w);
    floe_set_interrupt(w, floe_py_interrupt, NULL);
    return 0;
}

/* Closes outputs and series; the engine's world goes once no view needs it. */
static int close_all(World *self) {
    int rc = floe_py_close_outputs(self);
    if (self->series) {
        Py_CLEAR(self->series); /* the capsules close their series */
    }
    self->closed = 1;
    floe_py_world_release(self);
    return rc;
}

static PyObject *World_close(World *self, PyObject *unused) {
    if (self->closed) Py_RETURN_NONE;
    if (self->in_run || self->busy) {
        PyErr_SetString(FloeError, "close(): the World is running; close it after run() returns");
        return NULL;
    }
    if (close_all(self)) return NULL;
    Py_RETURN_NONE;
}

static PyObject *World_enter(World *self, PyObject *unused) {
    if (floe_py_open(self)) return NULL;
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *World_exit(World *self, PyObject *args) { return World_close(self, NULL); }

static void World_dealloc(World *self) {
    if (self->weakreflist) PyObject_ClearWeakRefs((PyObject *)self);
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    if (!self->closed && self->sc.world && close_all(self)) PyErr_WriteUnraisable((PyObject *)self);
    self->anchor = NULL; /* no view is left: the storage object holds a reference to this World */
    floe_scene_free(&self->sc);
    Py_CLEAR(self->series);
    PyMem_RawFree(self->ev);
    PyMem_Free(self->hcols);
    PyMem_RawFree(self->hist);
    PyErr_Restore(et, ev, tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *World_repr(World *self) {
    if (self->closed || !self->sc.world) return PyUnicode_FromString("<floe.World (closed)>");
    floe_world *w = self->sc.world;
    char t[32];
    snprintf(t, sizeof t, "%.6g", floe_time(w));
    return PyUnicode_FromFormat("<floe.World: %d particles, %d contacts, step %lld, t = %s s%s%s>",
                                floe_particle_count(w), floe_contact_count(w), (long long)floe_step_count(w), t,
                                self->sc.path[0] ? ", scene " : "", self->sc.path);
}

/* ---- parameters by keyword ------------------------------------------------------- */

typedef floe_status (*set_fn)(World *self, void *ctx, const char *key, double v);

/* Calls set for every key=value of kw (sorted by key, so that the first bad
 * key reported does not depend on the order of the call). */
static int set_params(World *self, PyObject *kw, set_fn set, void *ctx) {
    if (!kw || !PyDict_Size(kw)) return 0;
    PyObject *keys = PyDict_Keys(kw);
    if (!keys || PyList_Sort(keys)) {
        Py_XDECREF(keys);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keys); i++) {
        PyObject *k = PyList_GET_ITEM(keys, i);
        const char *key = PyUnicode_AsUTF8(k);
        double v;
        char what[96];
        snprintf(what, sizeof what, "%.80s", key ? key : "?");
        if (!key || floe_py_double(PyDict_GetItem(kw, k), what, &v) || floe_py_check(self, set(self, ctx, key, v))) {
            Py_DECREF(keys);
            return -1;
        }
    }
    Py_DECREF(keys);
    return 0;
}

static floe_status set_mat(World *self, void *ctx, const char *key, double v) {
    return floe_material_set(self->sc.world, *(int *)ctx, key, v);
}
static floe_status set_law(World *self, void *ctx, const char *key, double v) {
    return floe_model_set(self->sc.world, (const char *)ctx, key, v);
}
static floe_status set_pair(World *self, void *ctx, const char *key, double v) {
    const int *ab = ctx;
    return floe_pair_set(self->sc.world, ab[0], ab[1], key, v);
}

/* ---- materials and models ---------------------------------------------------------- */

static int try_material(const char *name, const char *model, PyObject *kw);

/* A DeprecationWarning for every former parameter name among kw (softbond's
 * fric: docs/decisions.md#one-name-for-friction); -1 if a warning raised. */
static int warn_renamed(const char *model, PyObject *kw) {
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (kw && PyDict_Next(kw, &pos, &k, &v)) {
        const char *key = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        const char *now = key ? floe_param_alias(model, key) : NULL;
        if (now && PyErr_WarnFormat(PyExc_DeprecationWarning, 1,
                                    "%s=: the former name of model %s's %s (the name linear and hertz use too); "
                                    "write %s=",
                                    key, model, now, now) < 0)
            return -1;
    }
    return 0;
}

static PyObject *World_add_material(World *self, PyObject *args, PyObject *kw) {
    if (floe_py_open(self)) return NULL;
    const char *name, *model = "linear";
    if (!PyArg_ParseTuple(args, "s|s:add_material", &name, &model)) return NULL;
    floe_world *w = self->sc.world;
    if (!floe_model_find(model)) {
        char names[256] = "";
        size_t len = 0;
        for (int i = 0; i < floe_model_count() && len + 40 < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", floe_model_get(i)->name);
        PyErr_Format(ArgumentError, "add_material('%s'): unknown contact model '%s' (models: %s)", name, model, names);
        return NULL;
    }
    /* the parameters are tried first, so that a bad one leaves no half-made
     * material behind (the engine cannot remove one) */
    if (warn_renamed(model, kw) || try_material(name, model, kw)) return NULL;
    int m = floe_add_material(w, name, model);
    if (m < 0) return floe_py_status(self, FLOE_ERR_ARG);
    if (set_params(self, kw, set_mat, &m)) return NULL;
    return PyLong_FromLong(m);
}

/* Tries material parameters on a scratch world with a material of `model`
 * (named `name`): 0, or -1 with the exception of the first bad one. A bad
 * parameter then changes nothing in the real world. */
static int try_material(const char *name, const char *model, PyObject *kw) {
    World scratch;
    memset(&scratch, 0, sizeof scratch);
    if (!(scratch.sc.world = floe_world_create(NULL))) {
        PyErr_NoMemory();
        return -1;
    }
    int sm = floe_add_material(scratch.sc.world, name, model);
    int bad = sm < 0 ? floe_py_check(&scratch, FLOE_ERR_ARG) : set_params(&scratch, kw, set_mat, &sm);
    floe_world_destroy(scratch.sc.world);
    return bad ? -1 : 0;
}

static PyObject *World_set_material(World *self, PyObject *args, PyObject *kw) {
    PyObject *mo;
    int m;
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "O:set_material", &mo) || floe_py_material(self, mo, &m))
        return NULL;
    floe_world *w = self->sc.world;
    if (warn_renamed(floe_material_model(w, m), kw) ||
        try_material(floe_material_name(w, m), floe_material_model(w, m), kw) || set_params(self, kw, set_mat, &m))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *World_material_params(World *self, PyObject *mo) {
    int m;
    if (floe_py_open(self) || floe_py_material(self, mo, &m)) return NULL;
    floe_world *w = self->sc.world;
    const floe_model_info *mi = floe_model_find(floe_material_model(w, m));
    PyObject *d = PyDict_New();
    for (int i = 0; d && mi && i < mi->n_mat_params; i++) {
        PyObject *v = PyFloat_FromDouble(floe_material_get(w, m, mi->mat_params[i].key));
        if (!v || PyDict_SetItemString(d, mi->mat_params[i].key, v)) Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

static PyObject *World_material_model(World *self, PyObject *mo) {
    int m;
    if (floe_py_open(self) || floe_py_material(self, mo, &m)) return NULL;
    return PyUnicode_FromString(floe_material_model(self->sc.world, m));
}

static PyObject *World_set_model(World *self, PyObject *args, PyObject *kw) {
    const char *model;
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "s:set_model", &model)) return NULL;
    if (!floe_model_find(model)) {
        PyErr_Format(ArgumentError, "set_model: unknown contact model '%s'", model);
        return NULL;
    }
    /* tried on a scratch world first: a bad key changes nothing */
    World scratch;
    memset(&scratch, 0, sizeof scratch);
    if (!(scratch.sc.world = floe_world_create(NULL))) return PyErr_NoMemory();
    int bad = set_params(&scratch, kw, set_law, (void *)model);
    floe_world_destroy(scratch.sc.world);
    if (bad || set_params(self, kw, set_law, (void *)model)) return NULL;
    Py_RETURN_NONE;
}

static PyObject *World_set_pair(World *self, PyObject *args, PyObject *kw) {
    PyObject *a, *b, *model = Py_None;
    int ab[2];
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "OO|O:set_pair", &a, &b, &model) ||
        floe_py_material(self, a, &ab[0]) || floe_py_material(self, b, &ab[1]))
        return NULL;
    PyObject *params = kw ? PyDict_Copy(kw) : PyDict_New();
    if (!params) return NULL;
    if (model == Py_None && PyDict_GetItemString(params, "model")) { /* model= as a keyword */
        model = PyDict_GetItemString(params, "model");
        Py_INCREF(model);
        PyDict_DelItemString(params, "model");
    } else Py_INCREF(model);
    int rc = 0;
    if (model != Py_None) {
        const char *mn = PyUnicode_Check(model) ? PyUnicode_AsUTF8(model) : NULL;
        if (!mn) {
            PyErr_SetString(PyExc_TypeError, "set_pair: model must be a model name");
            rc = -1;
        } else rc = floe_py_check(self, floe_pair_set_model(self->sc.world, ab[0], ab[1], mn));
    }
    if (!rc) rc = set_params(self, params, set_pair, ab);
    Py_DECREF(model);
    Py_DECREF(params);
    if (rc) return NULL;
    Py_RETURN_NONE;
}

/* ---- groups ---------------------------------------------------------------------------- */

static PyObject *World_set_motion(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"group", "velocity", "angular_velocity", "start", "end", NULL};
    PyObject *go, *vel = NULL, *om = NULL;
    floe_motion m = floe_default_motion();
    int g;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "O|OOdd:set_motion", kwlist, &go, &vel, &om, &m.t_start, &m.t_end))
        return NULL;
    if (floe_py_group(self, go, 1, &g) || (vel && vel != Py_None && floe_py_vec3(vel, "velocity", &m.vel)) ||
        (om && om != Py_None && floe_py_vec3(om, "angular_velocity", &m.angvel)))
        return NULL;
    return floe_py_status(self, floe_group_set_motion(self->sc.world, g, &m));
}

static PyObject *World_set_load(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"group", "force", "torque", NULL};
    PyObject *go, *fo = NULL, *to = NULL;
    floe_vec3 f = {0, 0, 0}, t = {0, 0, 0};
    int g;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "O|OO:set_load", kwlist, &go, &fo, &to))
        return NULL;
    if (floe_py_group(self, go, 1, &g) || (fo && fo != Py_None && floe_py_vec3(fo, "force", &f)) ||
        (to && to != Py_None && floe_py_vec3(to, "torque", &t)))
        return NULL;
    return floe_py_status(self, floe_group_set_load(self->sc.world, g, f, t));
}

static PyObject *World_add_group(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"name", "velocity", "angular_velocity", "start", "end", "force", "torque", NULL};
    const char *name;
    PyObject *vel = NULL, *om = NULL, *start = NULL, *end = NULL, *fo = NULL, *to = NULL;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "s|OOOOOO:add_group", kwlist, &name, &vel, &om, &start, &end, &fo, &to))
        return NULL;
    floe_world *w = self->sc.world;
    int g = floe_add_group(w, name);
    if (g < 0) return floe_py_status(self, FLOE_ERR_ARG);
#define GIVEN(o) ((o) && (o) != Py_None)
    if (GIVEN(vel) || GIVEN(om) || GIVEN(start) || GIVEN(end)) {
        floe_motion m = floe_default_motion();
        if ((GIVEN(vel) && floe_py_vec3(vel, "velocity", &m.vel)) ||
            (GIVEN(om) && floe_py_vec3(om, "angular_velocity", &m.angvel)) ||
            (GIVEN(start) && floe_py_double(start, "start", &m.t_start)) ||
            (GIVEN(end) && floe_py_double(end, "end", &m.t_end)) ||
            floe_py_check(self, floe_group_set_motion(w, g, &m)))
            return NULL;
    }
    if (GIVEN(fo) || GIVEN(to)) {
        floe_vec3 f = {0, 0, 0}, t = {0, 0, 0};
        if ((GIVEN(fo) && floe_py_vec3(fo, "force", &f)) || (GIVEN(to) && floe_py_vec3(to, "torque", &t)) ||
            floe_py_check(self, floe_group_set_load(w, g, f, t)))
            return NULL;
    }
#undef GIVEN
    return PyLong_FromLong(g);
}

static PyObject *World_group_force(World *self, PyObject *go) {
    int g;
    if (floe_py_open(self) || floe_py_group(self, go, 0, &g)) return NULL;
    return floe_py_vec3_obj(floe_group_force(self->sc.world, g));
}

static PyObject *World_group_torque(World *self, PyObject *go) {
    int g;
    if (floe_py_open(self) || floe_py_group(self, go, 0, &g)) return NULL;
    return floe_py_vec3_obj(floe_group_torque(self->sc.world, g));
}

static PyObject *World_group_members(World *self, PyObject *go) {
    int g;
    if (floe_py_open(self) || floe_py_group(self, go, 0, &g)) return NULL;
    floe_world *w = self->sc.world;
    const uint32_t *gm = floe_particle_groups(w);
    npy_intp n = 0;
    for (int i = 0; i < floe_particle_count(w); i++) n += (gm[i] >> g) & 1u;
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_INT64);
    if (!a) return NULL;
    int64_t *d = PyArray_DATA((PyArrayObject *)a), k = 0;
    for (int i = 0; i < floe_particle_count(w); i++)
        if ((gm[i] >> g) & 1u) d[k++] = i;
    return a;
}

/* ---- model methods ---------------------------------------------------------------------- */

/* model, method, numeric args..., group=None. */
static int method_args(World *self, PyObject *args, Py_ssize_t first, PyObject *kw, const char **model,
                       const char **method, double *a, int *na, int *group) {
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n < first + 2) {
        PyErr_SetString(PyExc_TypeError, "expected the model and the method names, then the method's arguments");
        return -1;
    }
    PyObject *mo = PyTuple_GET_ITEM(args, first), *me = PyTuple_GET_ITEM(args, first + 1);
    if (!PyUnicode_Check(mo) || !PyUnicode_Check(me)) {
        PyErr_SetString(PyExc_TypeError, "the model and the method are names (str)");
        return -1;
    }
    *model = PyUnicode_AsUTF8(mo);
    *method = PyUnicode_AsUTF8(me);
    *na = (int)(n - first - 2);
    if (*na > FLOE_MAX_METHOD_ARGS) {
        PyErr_Format(ArgumentError, "method %s.%s: %d arguments, at most %d", *model, *method, *na,
                     FLOE_MAX_METHOD_ARGS);
        return -1;
    }
    for (int i = 0; i < *na; i++) {
        char what[64];
        snprintf(what, sizeof what, "argument %d", i + 1);
        if (floe_py_double(PyTuple_GET_ITEM(args, first + 2 + i), what, &a[i])) return -1;
    }
    *group = -1;
    if (kw) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kw, &pos, &k, &v)) {
            if (PyUnicode_Check(k) && !strcmp(PyUnicode_AsUTF8(k), "group")) {
                if (v != Py_None && floe_py_group(self, v, 0, group)) return -1;
                continue;
            }
            PyErr_Format(PyExc_TypeError, "unexpected keyword argument %R (only group=)", k);
            return -1;
        }
    }
    return 0;
}

static PyObject *World_apply_method(World *self, PyObject *args, PyObject *kw) {
    const char *model, *method;
    double a[FLOE_MAX_METHOD_ARGS];
    int na, group, applied = 0;
    if (floe_py_open(self) || method_args(self, args, 0, kw, &model, &method, a, &na, &group)) return NULL;
    if (floe_py_check(self, floe_apply_method(self->sc.world, model, method, group, a, na, &applied))) return NULL;
    return PyLong_FromLong(applied);
}

static PyObject *World_schedule_method(World *self, PyObject *args, PyObject *kw) {
    const char *model, *method;
    double a[FLOE_MAX_METHOD_ARGS];
    int na, group;
    long long step;
    if (floe_py_open(self)) return NULL;
    if (PyTuple_GET_SIZE(args) < 1) {
        PyErr_SetString(PyExc_TypeError, "schedule_method(step, model, method, *args, group=None)");
        return NULL;
    }
    if (floe_py_int(PyTuple_GET_ITEM(args, 0), "step", 0, INT64_MAX, &step) ||
        method_args(self, args, 1, kw, &model, &method, a, &na, &group))
        return NULL;
    return floe_py_status(self, floe_schedule_method(self->sc.world, step, model, method, group, a, na));
}

/* ---- per-particle setters ------------------------------------------------------------------ */

typedef floe_status (*vec_setter)(floe_world *, int, floe_vec3);

/* ids: one id, or a sequence/array of them; values: one vector, or one per id. */
static PyObject *set_vectors(World *self, PyObject *args, vec_setter set, const char *what) {
    PyObject *ids_o, *val_o;
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "OO", &ids_o, &val_o)) return NULL;
    floe_world *w = self->sc.world;
    if (PyIndex_Check(ids_o) && !PyArray_Check(ids_o)) {
        long long id;
        floe_vec3 v;
        if (floe_py_int(ids_o, "particle id", INT_MIN, INT_MAX, &id) || floe_py_vec3(val_o, what, &v)) return NULL;
        return floe_py_status(self, set(w, (int)id, v));
    }
    PyArrayObject *ids = floe_py_ids(ids_o, "ids", 1);
    if (!ids) return NULL;
    PyArrayObject *val = (PyArrayObject *)PyArray_FROMANY(val_o, NPY_DOUBLE, 1, 2,
                                                          NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    if (!val) {
        Py_DECREF(ids);
        return NULL;
    }
    npy_intp n = PyArray_DIM(ids, 0);
    int one = PyArray_NDIM(val) == 1;
    if (PyArray_DIM(val, PyArray_NDIM(val) - 1) != 3 || (!one && PyArray_DIM(val, 0) != n)) {
        PyErr_Format(PyExc_ValueError, "%s: expected one vector (3 numbers) or %zd of them (shape (%zd, 3))", what,
                     (Py_ssize_t)n, (Py_ssize_t)n);
        Py_DECREF(ids);
        Py_DECREF(val);
        return NULL;
    }
    const int64_t *id = PyArray_DATA(ids);
    const double *v = PyArray_DATA(val);
    PyObject *r = Py_None;
    for (npy_intp i = 0; i < n; i++) {
        const double *x = one ? v : v + 3 * i;
        int pid = id[i] < INT_MIN ? INT_MIN : id[i] > INT_MAX ? INT_MAX : (int)id[i];
        if (floe_py_check(self, set(w, pid, (floe_vec3){x[0], x[1], x[2]}))) {
            r = NULL;
            break;
        }
    }
    Py_DECREF(ids);
    Py_DECREF(val);
    Py_XINCREF(r);
    return r;
}

static PyObject *World_set_position(World *self, PyObject *args) {
    return set_vectors(self, args, floe_set_position, "position");
}
static PyObject *World_set_velocity(World *self, PyObject *args) {
    return set_vectors(self, args, floe_set_velocity, "velocity");
}
static PyObject *World_set_angular_velocity(World *self, PyObject *args) {
    return set_vectors(self, args, floe_set_angular_velocity, "angular velocity");
}

static PyObject *World_set_blocked(World *self, PyObject *args) {
    PyObject *ids_o, *bo;
    uint32_t mask;
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "OO:set_blocked", &ids_o, &bo) || floe_py_block(bo, &mask))
        return NULL;
    PyArrayObject *ids = floe_py_ids(ids_o, "set_blocked(ids)", 0);
    if (!ids) return NULL;
    npy_intp n = PyArray_SIZE(ids);
    const int64_t *id = PyArray_DATA(ids);
    for (npy_intp i = 0; i < n; i++) {
        int pid = id[i] < INT_MIN ? INT_MIN : id[i] > INT_MAX ? INT_MAX : (int)id[i];
        if (floe_py_check(self, floe_set_blocked(self->sc.world, pid, mask))) {
            Py_DECREF(ids);
            return NULL;
        }
    }
    Py_DECREF(ids);
    Py_RETURN_NONE;
}

static PyObject *World_start(World *self, PyObject *unused) {
    if (floe_py_open(self)) return NULL;
    if (self->in_run) {
        PyErr_SetString(FloeError, "start(): called from a callback of run()");
        return NULL;
    }
    return floe_py_status(self, floe_start(self->sc.world));
}

static PyObject *World_reserve(World *self, PyObject *no) {
    long long n;
    if (floe_py_open(self) || floe_py_int(no, "reserve: n", 0, INT_MAX, &n)) return NULL;
    floe_world *w = self->sc.world;
    if (n > floe_particle_capacity(w) && floe_py_room(self, n - floe_particle_count(w))) return NULL;
    return floe_py_status(self, floe_reserve_particles(w, (int)n));
}

/* ---- properties ------------------------------------------------------------------------------ */

#define OPEN_OR_NULL                         \
    do {                                     \
        if (floe_py_open(self)) return NULL; \
    } while (0)

static PyObject *get_count(World *self, void *c) {
    OPEN_OR_NULL;
    return PyLong_FromLong(floe_particle_count(self->sc.world));
}
static PyObject *get_step(World *self, void *c) {
    OPEN_OR_NULL;
    return PyLong_FromLongLong(floe_step_count(self->sc.world));
}
static PyObject *get_time(World *self, void *c) {
    OPEN_OR_NULL;
    return PyFloat_FromDouble(floe_time(self->sc.world));
}
static PyObject *get_dt(World *self, void *c) {
    OPEN_OR_NULL;
    return PyFloat_FromDouble(floe_dt(self->sc.world));
}
static int set_dt(World *self, PyObject *v, void *c) {
    double dt;
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "dt cannot be deleted");
        return -1;
    }
    if (floe_py_open(self) || floe_py_double(v, "dt", &dt)) return -1;
    return floe_py_check(self, floe_set_dt(self->sc.world, dt));
}
static PyObject *get_dt_auto(World *self, void *c) {
    OPEN_OR_NULL;
    return PyBool_FromLong(floe_dt_is_auto(self->sc.world));
}
static PyObject *get_critical_dt(World *self, void *c) {
    OPEN_OR_NULL;
    return PyFloat_FromDouble(floe_critical_dt(self->sc.world));
}
static PyObject *get_gravity(World *self, void *c) {
    OPEN_OR_NULL;
    return floe_py_vec3_obj(floe_gravity(self->sc.world));
}
static int set_gravity(World *self, PyObject *v, void *c) {
    floe_vec3 g;
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "gravity cannot be deleted");
        return -1;
    }
    if (floe_py_open(self) || floe_py_vec3(v, "gravity", &g)) return -1;
    return floe_py_check(self, floe_set_gravity(self->sc.world, g));
}
static PyObject *get_threads(World *self, void *c) {
    OPEN_OR_NULL;
    return PyLong_FromLong(floe_thread_count(self->sc.world));
}
static int set_threads(World *self, PyObject *v, void *c) {
    long long t;
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "threads cannot be deleted");
        return -1;
    }
    if (floe_py_open(self) || floe_py_int(v, "threads", 0, FLOE_MAX_THREADS, &t)) return -1;
    return floe_py_check(self, floe_set_threads(self->sc.world, (int)t));
}
static PyObject *get_energy(World *self, void *c) {
    OPEN_OR_NULL;
    double e[FLOE_E_COUNT];
    floe_energy(self->sc.world, e);
    PyObject *d = PyDict_New();
    for (int t = 0; d && t < FLOE_E_COUNT; t++) {
        PyObject *v = PyFloat_FromDouble(e[t]);
        if (!v || PyDict_SetItemString(d, floe_energy_name((floe_energy_term)t), v)) Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}
static PyObject *get_contact_count(World *self, void *c) {
    OPEN_OR_NULL;
    return PyLong_FromLong(floe_contact_count(self->sc.world));
}
static PyObject *get_bonded_count(World *self, void *c) {
    OPEN_OR_NULL;
    return PyLong_FromLong(floe_bonded_count(self->sc.world));
}
static PyObject *get_break_count(World *self, void *c) {
    OPEN_OR_NULL;
    return PyLong_FromLongLong(floe_break_count(self->sc.world));
}
static PyObject *names(World *self, int n, const char *(*name)(const floe_world *, int)) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *s = PyUnicode_FromString(name(self->sc.world, i));
        if (!s) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}
static PyObject *get_materials(World *self, void *c) {
    OPEN_OR_NULL;
    return names(self, floe_material_count(self->sc.world), floe_material_name);
}
static PyObject *get_groups(World *self, void *c) {
    OPEN_OR_NULL;
    return names(self, floe_group_count(self->sc.world), floe_group_name);
}
static PyObject *get_closed(World *self, void *c) { return PyBool_FromLong(self->closed); }
static PyObject *get_scene(World *self, void *c) {
    OPEN_OR_NULL;
    if (!self->sc.path[0]) Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(self->sc.path);
}
static PyObject *get_end(World *self, void *c) {
    OPEN_OR_NULL;
    if (!self->from_scene) Py_RETURN_NONE;
    if (self->duration > 0) return Py_BuildValue("(sd)", "time", self->duration);
    return Py_BuildValue("(sL)", "steps", (long long)self->total);
}

PyGetSetDef floe_py_world_getset[] = {
    {"count", (getter)get_count, NULL, "number of particles (bodies of every shape; also len(w))", NULL},
    {"step_count", (getter)get_step, NULL, "steps taken since the start", NULL},
    {"time", (getter)get_time, NULL, "simulated time [s]", NULL},
    {"dt", (getter)get_dt, (setter)set_dt,
     "time step [s] (with dt 'auto' before the first step: the estimate); setting it fixes the step", NULL},
    {"dt_auto", (getter)get_dt_auto, NULL, "True when the world chooses the step (dt 'auto')", NULL},
    {"critical_dt", (getter)get_critical_dt, NULL,
     "the critical time step [s] that dt 'auto' is dt_safety times (docs/integration.md#time-step):\n"
     "from the contacts and the contacts the free bodies could make; inf when no body that can move\n"
     "has or can make a contact",
     NULL},
    {"gravity", (getter)get_gravity, (setter)set_gravity, "gravity (x, y, z) [m/s^2]", NULL},
    {"threads", (getter)get_threads, (setter)set_threads, "OpenMP threads the steps use (set 0: automatic)", NULL},
    {"energy", (getter)get_energy, NULL,
     "the energy terms now: dict name -> J (floe.ENERGY_TERMS; 'error' is relative, docs/integration.md#energy)", NULL},
    {"contact_count", (getter)get_contact_count, NULL, "number of contacts", NULL},
    {"bonded_count", (getter)get_bonded_count, NULL, "contacts that carry a bond now", NULL},
    {"break_count", (getter)get_break_count, NULL, "bonds broken since the start", NULL},
    {"materials", (getter)get_materials, NULL, "material names, by id", NULL},
    {"groups", (getter)get_groups, NULL, "group names, by id", NULL},
    {"closed", (getter)get_closed, NULL, "True after close()", NULL},
    {"scene", (getter)get_scene, NULL, "the scene file a loaded World came from, or None", NULL},
    {"end", (getter)get_end, NULL,
     "where run() without a length stops: ('steps', N) or ('time', T) of a loaded scene, None otherwise", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static Py_ssize_t World_len(World *self) {
    if (floe_py_open(self)) return -1;
    return floe_particle_count(self->sc.world);
}

static PySequenceMethods World_as_sequence = {.sq_length = (lenfunc)World_len};

#define KW (PyCFunction)(void (*)(void))
PyMethodDef floe_py_world_methods[] = {
    {"close", (PyCFunction)World_close, METH_NOARGS,
     "close()\n\nCloses the World: attached outputs write their final state (particles.csv, contacts.csv) and\n"
     "close, ParaView series close, the engine's memory is freed (once no numpy view of it is alive).\n"
     "Every later call raises FloeError. A World used as a context manager closes itself."},
    {"__enter__", (PyCFunction)World_enter, METH_NOARGS, "with floe.World(...) as w: the World, closed on exit."},
    {"__exit__", (PyCFunction)World_exit, METH_VARARGS, "Closes the World (close()) at the end of a with block."},
    {"add_material", KW World_add_material, METH_VARARGS | METH_KEYWORDS,
     "add_material(name, model='linear', **params) -> int\n\n"
     "Adds a material whose preferred contact model is `model` (floe.models(): 'linear', 'linel6',\n"
     "'ice', 'softbond', ...) and sets its parameters by keyword (density=2500, young=1e9, ...),\n"
     "each checked against the model's schema (an unknown key or a value out of range raises\n"
     "ArgumentError naming the key and the range). Returns the material id."},
    {"set_material", KW World_set_material, METH_VARARGS | METH_KEYWORDS,
     "set_material(material, **params)\n\nSets parameters of a material (name or id), checked like add_material's."},
    {"material_params", (PyCFunction)World_material_params, METH_O,
     "material_params(material) -> dict\n\nEvery parameter of a material (name or id): key -> value."},
    {"material_model", (PyCFunction)World_material_model, METH_O,
     "material_model(material) -> str\n\nThe preferred contact model of a material (name or id)."},
    {"set_model", KW World_set_model, METH_VARARGS | METH_KEYWORDS,
     "set_model(model, **params)\n\n"
     "Sets law parameters of the world-wide instance of a contact model (the scene's `models`\n"
     "section), e.g. w.set_model('ice', bonds0=15, step01=1000)."},
    {"set_pair", KW World_set_pair, METH_VARARGS | METH_KEYWORDS,
     "set_pair(material_a, material_b, model=None, **params)\n\n"
     "A per material-pair override (the scene's `interactions`): contacts between the two\n"
     "materials use `model`, whose law parameters given here apply to this pair only\n"
     "(docs/decisions.md#model-of-a-mixed-material-pair-g7). Give model= the first time."},
    {"add_group", KW World_add_group, METH_VARARGS | METH_KEYWORDS,
     "add_group(name, velocity=None, angular_velocity=None, start=None, end=None, force=None, torque=None) -> int\n\n"
     "Creates (or finds) a group and returns its id (at most floe.MAX_GROUPS). Any of velocity,\n"
     "angular_velocity, start, end makes it a prescribed-motion group (set_motion); force/torque\n"
     "put a constant external load on every member (set_load). Bodies join groups with group=."},
    {"set_motion", KW World_set_motion, METH_VARARGS | METH_KEYWORDS,
     "set_motion(group, velocity=(0,0,0), angular_velocity=(0,0,0), start=0, end=inf)\n\n"
     "Prescribed motion: every member becomes fully blocked and moves with `velocity` (and spins\n"
     "with `angular_velocity` about its own position) for start <= t < end, at rest outside.\n"
     "Call it again to change the motion (a servo-controlled wall changes its velocity this way)."},
    {"set_load", KW World_set_load, METH_VARARGS | METH_KEYWORDS,
     "set_load(group, force=(0,0,0), torque=(0,0,0))\n\n"
     "A constant external force and torque on every member of the group (on free DOFs; its work\n"
     "is boundary work in the energy balance)."},
    {"group_force", (PyCFunction)World_group_force, METH_O,
     "group_force(group) -> ndarray(3)\n\nSum of the contact forces on the group's members [N] (e.g. the force on a "
     "wall)."},
    {"group_torque", (PyCFunction)World_group_torque, METH_O,
     "group_torque(group) -> ndarray(3)\n\nSum of the contact torques about the origin on the group's members [N m]."},
    {"group_members", (PyCFunction)World_group_members, METH_O,
     "group_members(group) -> ndarray of ids\n\nThe particle ids in a group (name or id)."},
    {"apply_method", KW World_apply_method, METH_VARARGS | METH_KEYWORDS,
     "apply_method(model, method, *args, group=None) -> int\n\n"
     "Applies a contact-model method now to the model's contacts (all, or those touching `group`)\n"
     "and returns how many: e.g. w.apply_method('softbond', 'bond', -inf, 1e-6, 2, 0.25)\n"
     "(docs/models/softbond.md lists the soft-bond methods bond, unbond, area, deformability)."},
    {"schedule_method", KW World_schedule_method, METH_VARARGS | METH_KEYWORDS,
     "schedule_method(step, model, method, *args, group=None)\n\n"
     "The same, applied at the start of step `step` (the scene's `methods`; step 0: after the\n"
     "contacts at t = 0 exist). Arguments are checked now."},
    {"set_position", (PyCFunction)World_set_position, METH_VARARGS,
     "set_position(ids, pos)\n\n"
     "Sets positions: one id and one vector, or ids and one vector each (n, 3). After the first step\n"
     "the energy a move brings in is booked as boundary work. Writing w.positions is the fast way,\n"
     "without that bookkeeping."},
    {"set_velocity", (PyCFunction)World_set_velocity, METH_VARARGS,
     "set_velocity(ids, vel)\n\nSets velocities like set_position (energy booked as boundary work)."},
    {"set_angular_velocity", (PyCFunction)World_set_angular_velocity, METH_VARARGS,
     "set_angular_velocity(ids, angvel)\n\nSets angular velocities like set_position."},
    {"set_blocked", (PyCFunction)World_set_blocked, METH_VARARGS,
     "set_blocked(ids, block)\n\n"
     "Blocks degrees of freedom: block is letters of 'xyzXYZ' (translations, rotations about the\n"
     "global axes) or a floe DOF mask; '' frees them all. A blocked DOF keeps its velocity."},
    {"start", (PyCFunction)World_start, METH_NOARGS,
     "start()\n\nWhat the first step begins with, done now: the contacts and forces of t = 0 (so that the\n"
     "state at t = 0 can be read or written). Nothing once the world has started."},
    {"reserve", (PyCFunction)World_reserve, METH_O,
     "reserve(n)\n\n"
     "Makes room for n particles in the particle arrays, so that adding up to n moves nothing (numpy\n"
     "views stay valid). Raises if views are alive and the arrays would have to move now."},
    {NULL, NULL, 0, NULL}};

PyTypeObject World_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "floe.World",
    .tp_basicsize = sizeof(World),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "World(gravity=(0, 0, 0), dt='auto', damping=0.0, threads=0, dt_safety=0.1, dyn_dt_period=100,\n"
              "      skin=-0.1, dimension=3, renorm_period=100, legacy_lens=False, sphere_orientation=True,\n"
              "      energy_warn=0.01)\n\n"
              "A floe simulation: bodies, contacts, materials and contact models, stepped in time.\n\n"
              "Build one from scratch with these settings (the scene's `world` section,\n"
              "docs/scene-format.md#world; dt in seconds or 'auto', damping the Cundall coefficient in\n"
              "[0, 1), threads 0 for automatic), or get one from floe.load(scene) or floe.restore(file).\n\n"
              "Build: add_material, set_model, set_pair, add_group, set_motion, set_load, add_sphere(s),\n"
              "add_capsule, add_ellipsoid, add_clump, add_wall, add_facet, add_mesh, add_cylinder, add_lattice,\n"
              "add_random. Run: step, run (steps=, time=, until=, every=, callback=, on_event=).\n"
              "Read: the numpy views positions, velocities, ... (writable: positions, velocities),\n"
              "contacts(), events(), energy, history, group_force. Write: write_vtk, write_particles_csv,\n"
              "write_contacts_csv, save (restart file; floe.restore continues bit for bit).\n"
              "Errors raise floe.FloeError subclasses with floe's message. See docs/python.md.",
    .tp_new = World_new,
    .tp_init = (initproc)World_init,
    .tp_dealloc = (destructor)World_dealloc,
    .tp_repr = (reprfunc)World_repr,
    .tp_as_sequence = &World_as_sequence,
    .tp_weaklistoffset = offsetof(World, weakreflist),
    /* tp_methods, tp_getset: the tables of every file, joined by module.c */
};
