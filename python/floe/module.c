/* floe._floe: the module, its exceptions and the model catalogue, and the
 * World type assembled from the method tables of every file (the helpers
 * every method uses are in common.c). */
#define FLOE_PY_MAIN
#include "_floe.h"

#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>

/* ---- the model catalogue --------------------------------------------------------- */

static PyObject *param_dict(const floe_param_spec *p, int n) {
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < n; i++) {
        PyObject *v = Py_BuildValue("{s:d,s:d,s:d,s:O,s:O,s:s,s:s,s:z}", "default", p[i].def, "min", p[i].min, "max",
                                    p[i].max, "min_open", p[i].min_open ? Py_True : Py_False, "max_open",
                                    p[i].max_open ? Py_True : Py_False, "unit", p[i].unit ? p[i].unit : "", "doc",
                                    p[i].doc ? p[i].doc : "", "bits", p[i].bits);
        if (!v || PyDict_SetItemString(d, p[i].key, v)) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}

static PyObject *py_models(PyObject *mod, PyObject *unused) {
    PyObject *out = PyDict_New();
    for (int i = 0; out && i < floe_model_count(); i++) {
        const floe_model_info *m = floe_model_get(i);
        PyObject *state = PyTuple_New(m->n_state);
        for (int k = 0; state && k < m->n_state; k++)
            PyTuple_SET_ITEM(state, k, PyUnicode_FromString(m->state_names[k]));
        PyObject *mp = param_dict(m->mat_params, m->n_mat_params), *lp = param_dict(m->law_params, m->n_law_params);
        PyObject *d = state && mp && lp ? Py_BuildValue("{s:s,s:O,s:O,s:O}", "doc", m->doc ? m->doc : "",
                                                        "material_params", mp, "law_params", lp, "state", state)
                                        : NULL;
        Py_XDECREF(state);
        Py_XDECREF(mp);
        Py_XDECREF(lp);
        if (!d || PyDict_SetItemString(out, m->name, d)) {
            Py_XDECREF(d);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(d);
    }
    return out;
}

/* ---- module ----------------------------------------------------------------------- */

static PyStructSequence_Field event_fields[] = {
    {"type", "'created', 'deleted', 'broken', 'activated' or 'slip_change'"},
    {"step", "step of the event"},
    {"time", "simulated time of that step [s]"},
    {"a", "particle id of body A"},
    {"b", "particle id of body B"},
    {"force", "local force on A at the event (Fn, Ft_y, Ft_z) [N]; bond broken: the load that broke it"},
    {"torque", "local torque on A at the event (Tw, Tr_y, Tr_z) [N m]"},
    {"detail",
     "model-specific bits (Ice: the senses that exceeded a limit, bit 0 normal, 1 shear, 2 twist, 3 rolling)"},
    {"value", "model-specific values (soft-bond bond break: strength [Pa], strain energy [J])"},
    {NULL, NULL}};
static PyStructSequence_Desc event_desc = {
    "floe.Event",
    "One event of a step (docs/outputs.md, events.csv): a contact created or deleted, a bond broken, a "
    "soft-bond contact activated or its slip state changed.",
    event_fields, 9};

/* The World's methods come from several files: joined once at import. */
static PyMethodDef all_methods[128];

static int join_methods(void) {
    PyMethodDef *parts[] = {floe_py_world_methods,  floe_py_body_methods,  floe_py_array_methods,
                            floe_py_run_methods,    floe_py_file_methods,  floe_py_lab_methods,
                            floe_py_motion_methods, floe_py_supply_methods};
    int n = 0;
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)
        for (PyMethodDef *m = parts[p]; m->ml_name; m++) {
            if (n + 1 >= (int)(sizeof all_methods / sizeof *all_methods)) return -1;
            all_methods[n] = *m;
            all_methods[n++].ml_doc = floe_py_signed_doc(m->ml_doc, "$self"); /* for inspect.signature */
        }
    all_methods[n] = (PyMethodDef){NULL, NULL, 0, NULL};
    return 0;
}

static PyGetSetDef all_getset[64];

static int join_getset(void) {
    PyGetSetDef *parts[] = {floe_py_world_getset, floe_py_view_getset};
    int n = 0;
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)
        for (PyGetSetDef *g = parts[p]; g->name; g++) {
            if (n + 1 >= (int)(sizeof all_getset / sizeof *all_getset)) return -1;
            all_getset[n++] = *g;
        }
    all_getset[n] = (PyGetSetDef){NULL, NULL, NULL, NULL, NULL};
    return 0;
}

/* The World type takes the joined tables; before PyType_Ready. */
static int world_setup(void) {
    World_Type.tp_doc = floe_py_signed_doc(World_Type.tp_doc, NULL);
    if (join_methods() || join_getset()) {
        PyErr_SetString(PyExc_SystemError, "floe: too many World methods for the method table");
        return -1;
    }
    World_Type.tp_methods = all_methods;
    World_Type.tp_getset = all_getset;
    return 0;
}

static PyMethodDef module_methods[] = {
    {"load", (PyCFunction)(void (*)(void))floe_py_load, METH_VARARGS | METH_KEYWORDS,
     "load(path, out='out', threads=None) -> World\n\n"
     "Loads a scene file (docs/scene-format.md) into a World ready to run: its outputs (ParaView series,\n"
     "energy.csv, history.csv, events.csv; docs/outputs.md) are attached in directory `out` as `floe run\n"
     "--out` would write them (out=None: none), and w.run() without a length runs to the scene's end.\n"
     "A bad scene raises floe.SceneError with 'file:line:col: message'; likely mistakes that do not stop\n"
     "a run are issued as floe.SceneWarning warnings. threads overrides world.threads."},
    {"restore", (PyCFunction)(void (*)(void))floe_py_restore, METH_VARARGS | METH_KEYWORDS,
     "restore(path, out=None) -> World\n\n"
     "Reads a restart file (written by w.save() or by `floe run --restart-every`) into a World that\n"
     "continues bit for bit. out=DIR continues the outputs the file records in DIR (as `floe resume`\n"
     "does; outputs missing there start afresh) or, for a file without output counters, opens the\n"
     "scene's outputs there; out=None attaches none."},
    {"models", py_models, METH_NOARGS,
     "models() -> dict\n\n"
     "The contact models: name -> {'doc', 'material_params', 'law_params', 'state'}, each parameter\n"
     "{'default', 'min', 'max', 'min_open', 'max_open', 'unit', 'doc', 'bits'}, 'state' the names of\n"
     "the per-contact state columns (w.contacts())."},
    {"_set_room", floe_py_set_room, METH_O,
     "_set_room(n)\n\nThe room the particle arrays get when a World's first view is taken (default floe.ROOM;\n"
     "tests make it small to reach it quickly)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "floe._floe",
                                       "floe's engine: the C extension behind the floe package (see help(floe)).", -1,
                                       module_methods};

/* A new exception class floe.NAME deriving from bases, added to the module. */
static PyObject *exception(PyObject *m, const char *name, PyObject *bases, const char *doc) {
    char full[64];
    snprintf(full, sizeof full, "floe.%s", name);
    PyObject *e = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    if (!e || PyModule_AddObjectRef(m, name, e) < 0) return NULL;
    return e;
}

PyMODINIT_FUNC PyInit__floe(void) {
    import_array();
    for (PyMethodDef *f = module_methods; f->ml_name; f++) f->ml_doc = floe_py_signed_doc(f->ml_doc, "$module");
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    if (world_setup() || PyType_Ready(&World_Type) < 0 || floe_py_view_setup()) return NULL;
    if (PyModule_AddObjectRef(m, "World", (PyObject *)&World_Type) < 0 ||
        PyModule_AddObjectRef(m, "View", (PyObject *)&View_Type) < 0)
        return NULL;
    Event_Type = PyStructSequence_NewType(&event_desc);
    if (!Event_Type || PyModule_AddObjectRef(m, "Event", (PyObject *)Event_Type) < 0) return NULL;
    if (!(FloeError = exception(m, "FloeError", NULL, "An error reported by floe (the base of floe's exceptions).")))
        return NULL;
    PyObject *b = PyTuple_Pack(2, FloeError, PyExc_ValueError);
    ArgumentError = exception(m, "ArgumentError", b,
                              "A bad argument: an unknown key, a value out of range, a bad id (floe's message names "
                              "it and the allowed range).");
    Py_XDECREF(b);
    b = PyTuple_Pack(2, FloeError, PyExc_ValueError);
    SceneError = exception(m, "SceneError", b, "A scene or restart file floe cannot use ('file:line:col: message').");
    Py_XDECREF(b);
    b = PyTuple_Pack(2, FloeError, PyExc_OSError);
    OutputError = exception(m, "OutputError", b, "Writing an output file failed.");
    Py_XDECREF(b);
    RunawayError = exception(m, "RunawayError", FloeError,
                             "The simulation blew up (NaN, a huge overlap, a particle far away); the message names "
                             "the step, the particles and the likely cause.");
    SceneWarning = exception(m, "SceneWarning", PyExc_UserWarning,
                             "A likely mistake in a scene that does not stop it (an implausible material value, a "
                             "small initial overlap).");
    StaleViewError = exception(m, "StaleViewError", FloeError,
                               "A numpy view of the particle arrays used after bodies were removed (w.remove, a "
                               "sink): its rows would show other bodies; read the array again.");
    if (!ArgumentError || !SceneError || !OutputError || !RunawayError || !SceneWarning || !StaleViewError) return NULL;
    if (PyModule_AddStringConstant(m, "__version__", floe_version()) < 0) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_GROUPS", FLOE_MAX_GROUPS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_THREADS", FLOE_MAX_THREADS) < 0 ||
        PyModule_AddIntConstant(m, "ROOM", FLOE_PY_ROOM) < 0 ||
        PyModule_AddObject(m, "MAX_COORD", PyFloat_FromDouble(FLOE_MAX_COORD)) < 0)
        return NULL;
    PyObject *energy = PyTuple_New(FLOE_E_COUNT);
    for (int t = 0; energy && t < FLOE_E_COUNT; t++)
        PyTuple_SET_ITEM(energy, t, PyUnicode_FromString(floe_energy_name((floe_energy_term)t)));
    PyObject *shapes = Py_BuildValue("(ssssssss)", "sphere", "wall", "facet", "capsule", "ellipsoid", "cylinder",
                                     "polyhedron", "clump");
    PyObject *events = PyTuple_New(FLOE_EVENT_COUNT);
    for (int t = 0; events && t < FLOE_EVENT_COUNT; t++)
        PyTuple_SET_ITEM(events, t, PyUnicode_FromString(floe_event_type_name((floe_event_type)t)));
    if (!energy || PyModule_AddObject(m, "ENERGY_TERMS", energy) < 0 || !shapes ||
        PyModule_AddObject(m, "SHAPES", shapes) < 0 || !events || PyModule_AddObject(m, "EVENT_TYPES", events) < 0)
        return NULL;
    return m;
}
